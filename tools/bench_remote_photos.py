"""Remote codes of a whole match: count, sizes, QR versions, and how often a simulated phone
photo of the game window reads back.

For every code of a seeded 5-round match (``royalnine.remote``), the waiting device's
match screen is drawn headless exactly as the game draws it (the code in the top
screen's corner, ``screens/match.py``), the top screen is taken at a window scale
(2 or 3 window pixels per screen pixel, nearest neighbour, as the window scales it),
and that picture is "photographed" several times with random but seeded defects,
built from ``tests/test_shim_qr.py::test_phone_photo_of_a_screen`` and its
perspective test:

* the camera's resolution relative to the window: resampled by 0.7-1.4;
* the phone held askew: rotated -20..20 degrees and a perspective tilt of up to 6 %
  of the picture at each corner;
* a grey-ish LCD (contrast 0.5-0.7 plus 40-60), light falling off across the
  picture (x 0.7-1.0 .. 1.1-1.2), sensor noise (sigma 4-10);
* focus blur (Gaussian, radius 0.6-1.4) and JPEG compression (quality 50-80).

Each photo is read with ``petitcom_shim.qr.decode_image``; a photo counts as read
only if it yields exactly the code. Usage::

    python tools/bench_remote_photos.py [--rounds 5] [--photos 4] [--scales 2 3] [--json]

Prints figures; never fails on them.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PIL import Image, ImageFilter


def entropy(seed: int) -> Callable[[int], bytes]:
    rng = random.Random(seed)
    return lambda n: bytes(rng.randrange(256) for _ in range(n))


def match_codes(rounds: int, seed: int) -> list[tuple[str, bytes]]:
    """Every code of a seeded match, each with the waiting device's session saved as JSON."""
    from royalnine.core import MatchConfig
    from royalnine.remote.session import RemoteSession

    host = RemoteSession.host(MatchConfig(rounds), entropy(seed))
    first = host.compose()
    out = [(host.to_json(), first)]
    guest = RemoteSession.join(first, entropy(seed + 1))
    players = (host, guest)
    rng = random.Random(seed)
    while True:
        sender = players[len(host.transcript) % 2]
        if sender.needs_placement:
            v = sender.view()
            cells = list(v.empty_cells)
            rng.shuffle(cells)
            sender.place(dict(zip(v.hand, cells, strict=False)))
        if not sender.my_turn:
            return out
        code = sender.compose()
        out.append((sender.to_json(), code))
        players[1 - sender.seat].receive(code)


def screen_shot(home: Path, session_json: str, scale: int) -> Image.Image:
    """The top screen of the waiting device (its match screen; the lobby for code 1) at a
    window scale."""
    from petitcom_shim import Machine
    from royalnine.game import new_game
    from royalnine.remote.session import RemoteSession
    from royalnine.screens.exchange import ExchangeScene
    from royalnine.screens.remote import RemoteLink, remote_match_scene
    from royalnine.storage import Settings, Storage

    home.mkdir(parents=True, exist_ok=True)
    storage = Storage(home)
    app = new_game(Machine(headless=True, seed=1), storage, Settings(sound=False), seed=1)
    link = RemoteLink(RemoteSession.from_json(session_json), storage)
    first = len(link.session.transcript) == 1  # the host's lobby shows code 1 full size
    app.switch(ExchangeScene(link) if first else remote_match_scene(link))
    app.step(30)
    path = home / "shot.png"
    app.m.screenshot(path, screen=0, scale=scale)
    app.m.close()
    return Image.open(path).convert("L")


def coefficients(src: list[tuple[float, float]], dst: list[tuple[float, float]]) -> list[float]:
    rows, rhs = [], []
    for (x, y), (u, v) in zip(dst, src, strict=True):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs += [u, v]
    return [float(c) for c in np.linalg.solve(np.array(rows), np.array(rhs))]


def photograph(image: Image.Image, rng: random.Random) -> bytes:
    """One simulated phone photo of ``image`` (a JPEG)."""
    w, h = image.size
    zoom = rng.uniform(0.7, 1.4)
    image = image.resize((int(w * zoom), int(h * zoom)), Image.Resampling.BILINEAR)
    image = image.rotate(rng.uniform(-20, 20), expand=True, fillcolor=128)
    w, h = image.size
    d = 0.06
    corners = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
    moved = [(x + rng.uniform(-d, d) * w, y + rng.uniform(-d, d) * h) for x, y in corners]
    image = image.transform(
        (w, h), Image.Transform.PERSPECTIVE, coefficients(corners, moved), fillcolor=128
    )
    pixels = np.asarray(image, dtype=np.float64) * rng.uniform(0.5, 0.7) + rng.uniform(40, 60)
    light = np.linspace(rng.uniform(0.7, 1.0), rng.uniform(1.1, 1.2), pixels.shape[1])
    np_rng = np.random.default_rng(rng.randrange(1 << 32))
    pixels = pixels * light[None, :] + np_rng.normal(0, rng.uniform(4, 10), pixels.shape)
    photo = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8))
    photo = photo.filter(ImageFilter.GaussianBlur(rng.uniform(0.6, 1.4)))
    buffer = io.BytesIO()
    photo.save(buffer, format="JPEG", quality=rng.randrange(50, 81))
    return buffer.getvalue()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--photos", type=int, default=4, help="photos per code and scale")
    parser.add_argument("--scales", type=int, nargs="+", default=[2, 3])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    from petitcom_shim.qr import decode_image, encode_matrix

    codes = match_codes(args.rounds, args.seed)
    sizes = [len(code) for _, code in codes]
    versions = [(encode_matrix(code).shape[0] - 17) // 4 for _, code in codes]
    report: dict[str, object] = {
        "rounds": args.rounds,
        "codes": len(codes),
        "bytes_min": min(sizes),
        "bytes_max": max(sizes),
        "bytes_mean": round(sum(sizes) / len(sizes), 1),
        "qr_version_max": max(versions),
        "photos_per_code": args.photos,
    }
    rng = random.Random(args.seed)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for scale in args.scales:
            read = total = 0
            for number, (session_json, code) in enumerate(codes, 1):
                home = Path(tmp) / f"s{scale}-{number}"
                shot = screen_shot(home, session_json, scale)
                for _ in range(args.photos):
                    total += 1
                    try:
                        got = decode_image(photograph(shot, rng))
                    except ValueError:  # QRError: no code found in this photo
                        continue
                    read += got == code
            report[f"read_scale_{scale}"] = f"{read}/{total}"
            report[f"rate_scale_{scale}"] = round(read / total, 3)
    report["seconds"] = round(time.perf_counter() - started, 1)
    if args.json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key:>18}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
