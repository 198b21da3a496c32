"""Real X servers for the window tests: one screen, two X screens, two monitors of one screen.

``start(kind)`` starts a private X server and returns it, or None when the
tools for that kind are not installed (the caller skips). The kinds:

* ``one``: Xvfb with one 1280x1024 screen (SDL sees one monitor);
* ``two-screens``: Xvfb with two X screens (``-screen 0 ... -screen 1 ...``),
  which SDL lists as two displays that both start at (0, 0);
* ``two-monitors``: Xorg with the dummy video driver and two RandR outputs
  set one above the other with xrandr (1280x1024 at +0+0 and +0+1024): two
  monitors of one X screen, like a real two-monitor desk.

CI installs the packages (``xvfb``, ``xserver-xorg-video-dummy``,
``x11-xserver-utils``, ``x11-utils``, ``xdotool``) in ``.ci/run``.
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

KINDS = ("one", "two-screens", "two-monitors")
MONITOR = (1280, 1024)

_XORG_CONF = """\
Section "Device"
  Identifier "dummy"
  Driver "dummy"
  VideoRam 256000
EndSection
Section "Monitor"
  Identifier "monitor"
  HorizSync 5.0-1000.0
  VertRefresh 5.0-200.0
EndSection
Section "Screen"
  Identifier "screen"
  Device "dummy"
  Monitor "monitor"
  DefaultDepth 24
  SubSection "Display"
    Depth 24
    Virtual 2560 2048
  EndSubSection
EndSection
"""
# 1280x1024 at 60 Hz (the figures `cvt 1280 1024 60` gives).
_MODE = ["1280x1024_60", "109.00", "1280", "1368", "1496", "1712", "1024", "1027", "1034", "1063"]


@dataclass
class XServer:
    """A running private X server: its DISPLAY name and the monitors SDL should see."""

    display: str
    kind: str
    monitors: list[tuple[int, int, int, int]]  # (x, y, w, h) per SDL display, as set up
    proc: subprocess.Popen[bytes]
    folder: Path
    env: dict[str, str] = field(default_factory=dict)

    def stop(self) -> None:
        """Stop the server and remove its files."""
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


PATIENCE = 120.0
"""Time limits of the waits below: each waits for an event (the server's display number,
a tool's answer), and the limit only stops a hang; it allows for a machine busy with other
work, where a server that did not start in time would skip its tests."""


def _read_display_number(fd: int, timeout: float = PATIENCE) -> int | None:
    """The display number an X server started with ``-displayfd`` writes (then a
    newline) once it listens; None if it wrote nothing in time or died."""
    data = b""
    deadline = time.monotonic() + timeout
    try:
        while not data.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 16)
            if not chunk:
                return None
            data += chunk
    finally:
        os.close(fd)
    text = data.strip()
    return int(text) if text.isdigit() else None


def _wait_ready(display: str, proc: subprocess.Popen[bytes]) -> bool:
    for _ in range(100):
        if proc.poll() is not None:
            return False
        ok = subprocess.run(
            ["xdpyinfo", "-display", display], capture_output=True, timeout=PATIENCE
        ).returncode
        if ok == 0:
            return True
        time.sleep(0.1)
    return False


def available(kind: str) -> str | None:
    """Why ``kind`` cannot run here (a missing program), or None if it can."""
    needed = ["xdpyinfo", "xwininfo", "xdotool"]
    if kind == "two-monitors":
        needed += ["Xorg", "xrandr"]
        if not Path("/usr/lib/xorg/modules/drivers/dummy_drv.so").exists():
            return "the Xorg dummy driver (xserver-xorg-video-dummy) is not installed"
    else:
        needed.append("Xvfb")
    missing = [name for name in needed if shutil.which(name) is None]
    return f"not installed: {', '.join(missing)}" if missing else None


def start(kind: str) -> XServer | None:
    """Start an X server of ``kind`` (see the module doc); None if it cannot run here."""
    if available(kind) is not None:
        return None
    folder = Path(tempfile.mkdtemp(prefix="royalnine-x"))
    w, h = MONITOR
    if kind == "two-monitors":
        (folder / "xorg.conf").write_text(_XORG_CONF)
        cmd = [
            "Xorg",
            "-noreset",
            "-nolisten",
            "tcp",
            "-config",
            str(folder / "xorg.conf"),
        ]
        cmd += ["-logfile", str(folder / "xorg.log")]
        monitors = [(0, 0, w, h), (0, h, w, h)]
    else:
        screens = 1 if kind == "one" else 2
        # -noreset: by default Xvfb resets when its last client leaves, and a client that
        # connects during the reset is refused ("x11 not available"): a test that closes
        # its window and opens one again, or runs the game after a child exited, lost
        # that race on a busy machine (29 of 200 reconnections on a quiet one)
        cmd = ["Xvfb", "-noreset", "-nolisten", "tcp"]
        for screen in range(screens):
            cmd += ["-screen", str(screen), f"{w}x{h}x24"]
        monitors = [(0, 0, w, h)] * screens
    # The server picks a free display number itself and writes it to a pipe
    # (-displayfd): two test workers guessing numbers at once could both take the
    # same one, and then one of them talks to the other's server.
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(
        [*cmd, "-displayfd", str(write_end)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        pass_fds=(write_end,),
    )
    os.close(write_end)
    number = _read_display_number(read_end)
    server = XServer(f":{number}" if number is not None else ":", kind, monitors, proc, folder)
    if number is None or not _wait_ready(server.display, proc):
        server.stop()
        return None
    display = server.display
    if kind == "two-monitors":
        xr = ["xrandr", "-display", display]
        steps = [
            [*xr, "--newmode", *_MODE, "-hsync", "+vsync"],
            [*xr, "--addmode", "DUMMY0", _MODE[0]],
            [*xr, "--addmode", "DUMMY1", _MODE[0]],
            [*xr, "--fb", f"{w}x{2 * h}", "--output", "DUMMY0", "--mode", _MODE[0], "--pos",
             "0x0", "--output", "DUMMY1", "--mode", _MODE[0], "--pos", f"0x{h}"],
            xr,  # a full query: SDL reads the server's cached outputs, which this refreshes
        ]  # fmt: skip
        for step in steps:
            if subprocess.run(step, capture_output=True, timeout=PATIENCE).returncode != 0:
                server.stop()
                return None
    server.env = {"DISPLAY": display, "SDL_VIDEODRIVER": "x11", "SDL_AUDIODRIVER": "dummy"}
    return server


def windows(display: str, tree: bool = False) -> dict[str, tuple[int, int, int, int]]:
    """Top-level windows by title: (x, y, w, h) on the root window, from xwininfo; with
    ``tree`` also those a window manager has put in its frames."""
    return {title: geometry for title, (_, geometry) in _listed(display, tree).items()}


def window_id(display: str, ending: str) -> str:
    """The X id of the window whose title ends with ``ending`` (framed by a window manager
    or not)."""
    found = _listed(display, tree=True).items()
    return next(wid for title, (wid, _) in found if title.endswith(ending))


def viewable(display: str, wid: str) -> bool:
    """Whether window ``wid`` is mapped and visible (not iconified or unmapped)."""
    out = subprocess.run(
        ["xwininfo", "-display", display, "-id", wid],
        capture_output=True,
        text=True,
        timeout=PATIENCE,
    ).stdout
    return "Map State: IsViewable" in out


def _listed(display: str, tree: bool = False) -> dict[str, tuple[str, tuple[int, int, int, int]]]:
    """Windows by title; with ``tree`` also those a window manager has put in its frames."""
    out = subprocess.run(
        ["xwininfo", "-display", display, "-root", "-tree" if tree else "-children"],
        capture_output=True,
        text=True,
        timeout=PATIENCE,
    ).stdout
    found: dict[str, tuple[str, tuple[int, int, int, int]]] = {}
    for line in out.splitlines():
        line = line.strip()
        if not line.startswith("0x") or '"' not in line:
            continue
        title = line.split('"')[1]
        geometry = line.rsplit(")", 1)[-1].split()[0]  # WxH+X+Y
        size, _, place = geometry.partition("+")
        gw, gh = (int(v) for v in size.split("x"))
        gx, gy = (int(v) for v in place.split("+"))
        found[title] = (line.split()[0], (gx, gy, gw, gh))
    return found
