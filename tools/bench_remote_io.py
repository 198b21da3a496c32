"""Figures for reading codes: how long each hostile image takes to be refused, how long
the worst images allowed take, and how long frames take while the reader thread works.

Run from the project root (prints a table; nothing is asserted):

    python tools/bench_remote_io.py

The frame figures drive a headless game in the code exchange screen at full speed
while the reader thread decodes a 40-megapixel image with no code in it: the loop
must go on, frame after frame, while that image takes seconds. The inbox figures
(first) time an honest code's PNG from landing in the inbox to being read, with
10,000 junk files or 40 slow 40-megapixel images already there.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import hostile_images

from petitcom_shim import Machine, qr
from royalnine.game import new_game
from royalnine.remote.files import INBOX_DIR
from royalnine.remote.session import RemoteSession
from royalnine.screens.exchange import ExchangeScene
from royalnine.screens.remote import host_link
from royalnine.screens.remote_io import intake_of
from royalnine.storage import Settings, Storage


def timed_decode(path: Path) -> tuple[float, str]:
    start = time.perf_counter()
    try:
        qr.decode_image(path)
        outcome = "decoded"
    except qr.QRError as err:
        outcome = type(err).__name__
    return time.perf_counter() - start, outcome


def worst_images(folder: Path) -> list[Path]:
    """Noise at just under the pixel limit (no code: every variant is tried)."""
    rng = np.random.default_rng(1)
    width, height = 7700, 5190  # 39.96 MP
    noise = Image.fromarray((rng.random((height // 8, width // 8)) * 255).astype(np.uint8))
    big = noise.resize((width, height))
    paths = []
    for fmt in ("PNG", "JPEG"):
        path = folder / f"noise-40mp.{fmt.lower()}"
        big.save(path, format=fmt)
        paths.append(path)
    return paths


def frames_while_reading(folder: Path, image: Path | None, count: int = 0) -> list[float]:
    """Frame times in the exchange screen while ``image`` is read (or ``count`` frames
    with nothing to read, as a baseline for the machine's own scheduling noise)."""
    m = Machine(headless=True)
    app = new_game(m, Storage(folder / "home"), Settings(sound=False), seed=1)
    app.switch(ExchangeScene(None))
    intake = intake_of(app)
    if image is not None:
        m.input.drop_file(image)
    app.step(1)
    times = []
    while intake.busy or len(times) < count:
        start = time.perf_counter()
        app.step(1)
        times.append(time.perf_counter() - start)
    m.close()
    return times


def honest_code_latency(folder: Path, fill: str, photo: Path | None = None) -> float:
    """Seconds from an honest code's PNG landing in the inbox to its being read, with the
    game in the code exchange screen at 60 frames a second, and the inbox already
    holding ``fill``: "junk" (10,000 small files that are no images, named .png) or
    "photos" (40 hard links to a 40-megapixel image with no code, ``photo``), which
    the game has been reading for 3 seconds when the code comes."""
    home = folder / f"home-{fill}"
    m = Machine(headless=True)
    app = new_game(m, Storage(home), Settings(sound=False), seed=1)
    link = host_link(app)  # the host waits for the guest's code 2
    reply = RemoteSession.join(link.session.transcript[0]).compose()
    inbox = home / INBOX_DIR
    inbox.mkdir(parents=True, exist_ok=True)
    if fill == "junk":
        for k in range(10_000):
            (inbox / f"junk-{k:05d}.png").write_bytes(b"junk %d" % k)
    else:
        assert photo is not None
        for k in range(40):
            os.link(photo, inbox / f"photo-{k:02d}{photo.suffix}")
    app.switch(ExchangeScene(link))
    frame = 1 / 60

    def step() -> None:
        start = time.perf_counter()
        app.step(1)
        time.sleep(max(0.0, frame - (time.perf_counter() - start)))

    end = time.perf_counter() + 3.0
    while time.perf_counter() < end:
        step()
    staged = folder / f"reply-{fill}.png"
    qr.encode_png(reply, staged)
    staged.replace(inbox / "zz-reply.png")  # lands whole, as a messenger's download does
    landed = time.perf_counter()
    while len(link.session.transcript) < 2 and time.perf_counter() - landed < 600:
        step()
    took = time.perf_counter() - landed
    intake_of(app).close()
    m.close()
    return took


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        worst = worst_images(folder)
        for fill in ("junk", "photos"):
            took = honest_code_latency(folder, fill, worst[1])
            print(f"honest code read with the inbox full of {fill}: {took:.2f} s")
        print()
        corpus = hostile_images.build(folder / "corpus")
        print(f"{'hostile image':<28}{'ms':>8}  outcome")
        total = 0.0
        for path in corpus:
            seconds, outcome = timed_decode(path)
            total += seconds
            print(f"{path.name:<28}{seconds * 1000:>8.1f}  {outcome}")
        print(f"{'all ' + str(len(corpus)):<28}{total * 1000:>8.1f}")
        print()
        for path in worst:
            seconds, outcome = timed_decode(path)
            print(f"{path.name:<28}{seconds * 1000:>8.1f}  {outcome}")
        print()
        times = frames_while_reading(folder, worst[0])
        base = frames_while_reading(folder, None, len(times))
        for what, values in ((f"reading {worst[0].name}", times), ("nothing to read", base)):
            print(
                f"frames while {what}: {len(values)} frames, median "
                f"{statistics.median(values) * 1000:.2f} ms, max {max(values) * 1000:.1f} ms"
            )


if __name__ == "__main__":
    main()
