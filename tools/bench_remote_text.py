"""Figures for reading pasted text and transcripts (issue 24 item 2): how long the worst
texts take to be read or refused, and how long game frames take while one is pasted.

Run from the project root (prints tables; nothing is asserted):

    python tools/bench_remote_text.py

1. Pasted text: each hostile text through :func:`royalnine.screens.remote_io.read_pasted`,
   all the game does with a paste off the frame loop (the text code search, or a
   transcript's parse and the check of its codes). The best and the worst of 5 runs.
2. Transcript files of up to 4 MB (the file limit) through ``royalnine remote verify``,
   ``royalnine remote read`` and ``royalnine review``, in this process (no start-up);
   ``review`` of a whole valid match is not timed (it analyses every placement).
3. Frames: a headless game in a remote match, stepped back to back and then at 60
   frames a second while the paste reader reads each worst paste, against as many
   frames with nothing pasted. A frame is timed from the start to the end of
   ``app.step(1)`` (a headless frame draws little: a windowed one adds its drawing).

Timings on a shared machine are noisy: run it twice and read the larger figure.
"""

from __future__ import annotations

import contextlib
import functools
import io
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_remote_protocol import honest

from petitcom_shim import Machine
from royalnine.cli import main as royalnine_main
from royalnine.core.match import MatchConfig
from royalnine.game import new_game
from royalnine.remote.codec import HEADER
from royalnine.remote.session import RemoteSession
from royalnine.remote.textcode import to_text
from royalnine.screens.remote import RemoteLink, remote_match_scene
from royalnine.screens.remote_io import CodeIntake, intake_of, read_pasted, set_intake
from royalnine.storage import Settings, Storage

CLIPBOARD = 100_000
"""The most text the game takes from the clipboard."""
TRANSCRIPT_FILE = 4_000_000
"""The largest transcript file the command line reads."""
HEADER_LINE = "# Royal Nine remote match 01020304, as kept by the host"


def chat_texts() -> dict[str, str]:
    """Chat messages made to be slow to search for a code (4,000 characters are read)."""
    tiny = to_text(b"\x00")
    longest = to_text(b"R9\x02" + bytes(HEADER - 3) + bytes([6, 0, 0, 0, 0, 0]) * 62).split()
    longest[-1] = "00000"  # a wrong hash: every length its structure allows is tried
    walks = []
    for k in range(40):  # many code starts, each with a structure that walks a way
        body = b"R9\x02" + bytes([k]) * (HEADER - 3) + bytes([6, k, 0, 0, 0, 0]) * 8
        walks += to_text(body).split()[:-1]
    return {
        "2.4 KB of groups that check (issue 24)": "00000 " * 400 + "hi!",
        "4 KB of groups that check + a tiny code": ("ok " + "00000 " * 700)[:3990] + tiny,
        "4 KB, every group a code's start": ("A8WGA " * 700)[:3999] + "!",
        "4 KB of code starts, joined": "A8WGA" * 799 + "!",
        "4 KB of codes of 400 bytes, wrong hash": ((" ".join(longest) + " ") * 5)[:3999] + "!",
        "4 KB of code starts with item walks": " ".join(walks)[:3999] + "!",
        "100 KB of chat": ("00000 " * 20_000)[: CLIPBOARD - 1] + "!",
    }


def transcripts(size: int) -> dict[str, str]:
    """Transcripts of ``size`` characters at most, made to be slow to read or check."""
    tiny = to_text(b"\x00")
    chat_line = ("ok " + "00000 " * 700)[:3990] + tiny
    match = honest(1, 99)  # a whole match of 99 rounds: the most codes a match has
    text_codes = "\n".join(to_text(code) for code in match)
    almost = to_text(b"R9\x02" + bytes(397))  # valid text codes that are no moves
    notes = [f"# a note {k}: the guest forfeits nothing" for k in range(size // 40)]

    def fill(lines: list[str]) -> str:
        text = HEADER_LINE + "\n"
        out = [text]
        total = len(text)
        for line in lines:
            if total + len(line) + 1 > size:
                break
            out.append(line + "\n")
            total += len(line) + 1
        return "".join(out)

    many = size // (len(chat_line) + 1) + 1
    return {
        "lines of chat ending in a tiny code": fill([chat_line] * many),
        "99 rounds, text form (the most codes)": fill([text_codes]),
        "99 rounds, hex": fill(["\n".join(code.hex() for code in match)]),
        "codes of 400 bytes in text form": fill([almost] * (size // len(almost) + 1)),
        "comment lines only": fill(notes),
    }


def timed(run: Callable[[], object], repeat: int = 5) -> tuple[float, float]:
    """(best, worst) seconds of ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times), max(times)


def pasted_figures() -> float:
    """Print the time each hostile paste takes to read or refuse; returns the worst."""
    print(f"{'pasted text (read_pasted, off the frame loop)':<46}{'best ms':>9}{'worst ms':>9}")
    worst = 0.0
    texts = {**chat_texts(), **{f"transcript: {k}": v for k, v in transcripts(CLIPBOARD).items()}}
    for name, text in texts.items():
        arrival = read_pasted("paste", text)
        best, slowest = timed(functools.partial(read_pasted, "paste", text))
        worst = max(worst, slowest)
        outcome = "read" if arrival.code or arrival.transcript_read else "refused"
        print(f"{name[:45]:<46}{best * 1000:>9.1f}{slowest * 1000:>9.1f}  {outcome}")
    return worst


def run_quietly(argv: list[str]) -> None:
    """Run a ``royalnine`` command in this process, its output and exit status dropped."""
    sink = io.StringIO()
    with (
        contextlib.redirect_stdout(sink),
        contextlib.redirect_stderr(sink),
        contextlib.suppress(SystemExit),
    ):
        royalnine_main(argv)


def cli_figures(folder: Path) -> float:
    """Print the time ``verify``, ``read`` and ``review`` take on 4 MB transcripts."""
    print(f"\n{'4 MB transcript file':<40}{'verify ms':>10}{'read ms':>10}{'review ms':>10}")
    worst = 0.0
    home = folder / "cli-home"
    for name, text in transcripts(TRANSCRIPT_FILE).items():
        path = folder / "transcript.txt"
        path.write_text(text, encoding="utf-8")
        figures: list[float | None] = []
        for argv in (
            ["remote", "verify", str(path), "--home", str(home)],
            ["remote", "read", str(path), "--home", str(home)],
            ["review", str(path)],
        ):
            if argv[0] == "review" and "99 rounds" in name:
                figures.append(None)  # a whole match: the review analyses every placement
                continue
            _best, slowest = timed(functools.partial(run_quietly, argv), repeat=2)
            figures.append(slowest)
        worst = max(worst, *(f for f in figures if f is not None))
        cells = "".join("         -" if f is None else f"{f * 1000:>10.0f}" for f in figures)
        print(f"{name[:39]:<40}{cells}  ({len(text) / 1e6:.1f} MB)")
    return worst


def frames_while_pasting(
    folder: Path, text: str | None, count: int = 0, *, paced: bool = False
) -> list[float]:
    """Frame times of a game in a remote match while ``text`` is pasted and read (or
    ``count`` frames with nothing pasted: the machine's own noise). ``paced``: one frame
    every 1/60 s, as the game runs (else frames back to back, the hardest case for the
    interpreter lock)."""
    m = Machine(headless=True)
    storage = Storage(folder / "frames-home")
    app = new_game(m, storage, Settings(sound=False), seed=1)
    host = RemoteSession.host(MatchConfig(2))
    guest = RemoteSession.join(host.compose())
    host.receive(guest.compose())
    link = RemoteLink(host, storage)
    link.save()
    set_intake(app, CodeIntake(storage))  # the game's own: a paste may hold a frame 2 ms
    app.switch(remote_match_scene(link))
    app.step(30)
    intake = intake_of(app)
    if text is not None:
        m.clipboard.put_text(text)
        m.input.edit_key("paste")
    times: list[float] = []
    while len(times) < max(count, 3) or intake.busy:
        start = time.perf_counter()
        app.step(1)
        times.append(time.perf_counter() - start)
        if paced:
            time.sleep(max(0.0, 1 / 60 - (time.perf_counter() - start)))
    intake.close()
    m.close()
    return times


def frame_figures(folder: Path) -> float:
    """Print frame times while each of the worst pastes is read; returns the longest."""
    print(f"\n{'frames while pasting (100 KB at most)':<46}{'frames':>7}{'median':>8}{'max ms':>8}")
    pastes = {
        "4 KB, every group a code's start": chat_texts()["4 KB, every group a code's start"],
        "transcript: 99 rounds, text form": transcripts(CLIPBOARD)[
            "99 rounds, text form (the most codes)"
        ],
        "transcript: chat lines, tiny codes": transcripts(CLIPBOARD)[
            "lines of chat ending in a tiny code"
        ],
    }
    longest = 0.0
    for paced in (False, True):
        print("at 60 frames a second:" if paced else "frames back to back:")
        counts = []
        for name, text in pastes.items():
            times = frames_while_pasting(folder, text, paced=paced)
            counts.append(len(times))
            longest = max(longest, max(times)) if paced else longest
            median = statistics.median(times) * 1000
            print(f"  {name:<44}{len(times):>7}{median:>8.2f}{max(times) * 1000:>8.1f}")
        base = frames_while_pasting(folder, None, max(counts), paced=paced)
        median = statistics.median(base) * 1000
        print(f"  {'nothing pasted':<44}{len(base):>7}{median:>8.2f}{max(base) * 1000:>8.1f}")
    return longest


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        paste = pasted_figures()
        files = cli_figures(folder)
        frame = frame_figures(folder)
        print(
            f"\nworst paste {paste * 1000:.1f} ms, worst 4 MB transcript {files * 1000:.0f} ms, "
            f"longest frame while pasting at 60 fps {frame * 1000:.1f} ms (budget 16.7 ms)"
        )


if __name__ == "__main__":
    main()
