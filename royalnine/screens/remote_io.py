"""How codes come in and go out on this device, without ever stalling a frame.

In: image files dropped on the window and images put in the inbox folder are read
by a :class:`petitcom_shim.qr_reader.QRReader` in its worker process (a hostile or
huge image costs that process a bounded time, never the frame loop); text codes
come from the clipboard (Ctrl+V or PASTE); the camera is scanned by a
:class:`petitcom_shim.camera.Scanner`. Everything arrives as :class:`Arrival`\\ s on
a later frame. Out: a code's text goes to the clipboard (Ctrl+C or COPY), and the
folder of the codes can be opened in the desktop's file manager.

One :class:`CodeIntake` serves an app for its whole run (:func:`intake_of`), so an
image still being read when the lobby turns into the match screen is not lost.
"""

from __future__ import annotations

import os
import subprocess
import sys
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from petitcom_shim.camera import CameraBackend, NoCamera, Scanner, open_camera
from petitcom_shim.clipboard import ClipboardError
from petitcom_shim.qr import IMAGE_SUFFIXES
from petitcom_shim.qr_reader import QRReader
from royalnine.app import App, InputFrame
from royalnine.remote.files import INBOX_DIR
from royalnine.remote.textcode import TextCodeError, from_text, to_text
from royalnine.storage import Storage

INBOX_EVERY = 30  # frames between looks in the inbox folder
INBOX_BATCH = 4  # images taken from the inbox at one look (the rest wait for the next)


@dataclass(frozen=True)
class Arrival:
    """One thing that came in: a code's bytes, or why it was not one.

    Attributes:
        source: where it came from, for messages ("move-03.png", "the clipboard"...).
        code: the code's bytes; None when nothing could be read.
        error: a one-line reason when ``code`` is None.
    """

    source: str
    code: bytes | None
    error: str | None = None


def take_inbox(storage: Storage, limit: int = INBOX_BATCH) -> list[Path]:
    """Up to ``limit`` images from ``HOME/remote/inbox``, moved to ``inbox/read`` first
    (so each is read once, and a file that cannot be moved is left alone)."""
    folder = storage.home / INBOX_DIR
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return []
    done = folder / "read"
    taken: list[Path] = []
    for path in entries:
        if len(taken) >= limit:
            break
        if path.suffix.lower() not in IMAGE_SUFFIXES or path.is_dir():
            continue
        try:
            done.mkdir(exist_ok=True)
            target = done / path.name
            path.replace(target)
        except OSError:
            continue
        taken.append(target)
    return taken


class CodeIntake:
    """Every way a code reaches this device, polled once a frame.

    Args:
        storage: where the inbox folder is.
        reader: the QR reader (default: one of its own, with its own worker process).
        camera: the camera backend SCAN opens (default: the first real camera).
    """

    def __init__(
        self,
        storage: Storage,
        *,
        reader: QRReader | None = None,
        camera: Callable[[], CameraBackend] | None = None,
    ) -> None:
        self.storage = storage
        self.reader = reader if reader is not None else QRReader()
        self.camera_factory = camera
        self.scanner: Scanner | None = None
        self._seen_scans: list[bytes] = []

    @property
    def busy(self) -> bool:
        """True while an image is being read (the screens show "reading...")."""
        return self.reader.busy

    @property
    def scanning(self) -> bool:
        """True while the camera is on."""
        return self.scanner is not None

    def poll(self, app: App, inp: InputFrame) -> list[Arrival]:
        """Hand new images to the reader, read a pasted code, scan the camera; return
        what finished arriving (never waits)."""
        images = list(inp.dropped)
        if app.frames % INBOX_EVERY == 0:
            images += take_inbox(self.storage)
        for path in images:
            self.reader.submit(path)
        arrivals = [
            Arrival(r.name, r.payload, r.error)
            for r in self.reader.results()
            if r.tag is None  # camera pictures are the scanner's
        ]
        if "paste" in inp.edit:
            arrivals.append(self.paste(app))
        if self.scanner is not None:
            for code in self.scanner.poll():
                if code not in self._seen_scans:  # the same code stays in view for a while
                    self._seen_scans = [*self._seen_scans[-7:], code]
                    arrivals.append(Arrival("the camera", code))
        return arrivals

    def paste(self, app: App) -> Arrival:
        """A text code from the clipboard (PASTE button or Ctrl+V)."""
        source = app.t("remote_clipboard")
        try:
            text = app.m.clipboard.get_text()
        except ClipboardError as exc:
            return Arrival(source, None, str(exc))
        if not text.strip():
            return Arrival(source, None, app.t("remote_clip_empty"))
        try:
            return Arrival(source, from_text(text))
        except TextCodeError as exc:
            return Arrival(source, None, f"{source}: {exc}")

    def start_scan(self) -> str | None:
        """Switch the camera on; a one-line reason when there is none."""
        if self.scanner is not None:
            return None
        try:
            backend = self.camera_factory() if self.camera_factory is not None else None
            camera = open_camera(backend)
        except NoCamera as exc:
            return str(exc)
        self.scanner = Scanner(camera)
        self._seen_scans = []
        return None

    def stop_scan(self) -> None:
        """Switch the camera off."""
        if self.scanner is not None:
            self.scanner.close()
            self.scanner = None

    def close(self) -> None:
        """Stop the camera and the reader (at the end of the run)."""
        self.stop_scan()
        self.reader.close()


_INTAKES: weakref.WeakKeyDictionary[App, CodeIntake] = weakref.WeakKeyDictionary()


def intake_of(app: App) -> CodeIntake:
    """The app's one :class:`CodeIntake` (made on first use)."""
    intake = _INTAKES.get(app)
    if intake is None:
        intake = CodeIntake(app.storage)
        _INTAKES[app] = intake
    return intake


def set_intake(app: App, intake: CodeIntake) -> None:
    """Give the app a particular intake (tests: a fake camera, a synchronous reader)."""
    _INTAKES[app] = intake


def copy_code(app: App, code: bytes) -> str:
    """Put a code's text on the clipboard; the one-line outcome to show."""
    try:
        app.m.clipboard.put_text(to_text(code))
    except ClipboardError as exc:
        return str(exc)
    return app.t("remote_copied")


# ------------------------------------------------------------------------- folders


def opener_command(path: Path, platform: str = sys.platform) -> list[str] | None:
    """The command that shows ``path`` in the desktop's file manager (None on Windows,
    where ``os.startfile`` does it)."""
    if platform == "win32":
        return None
    if platform == "darwin":
        return ["open", str(path)]
    return ["xdg-open", str(path)]


class FolderOpener:
    """Opens folders in the file manager in a child process that is never waited on.

    The child is started and left running; :meth:`poll` (once a frame) collects the
    ones that ended, so a failure such as "no file manager" becomes a notice on a
    later frame instead of a stall.

    Args:
        command: builds the command for a path (tests put a fake here).
    """

    def __init__(self, command: Callable[[Path], Sequence[str] | None] = opener_command) -> None:
        self.command = command
        self.running: list[tuple[subprocess.Popen[bytes], Path]] = []

    def open(self, path: Path) -> str | None:
        """Start showing ``path`` (made if missing); a one-line reason if that failed."""
        try:
            path.mkdir(parents=True, exist_ok=True)
            command = self.command(path)
            if command is None:
                os.startfile(path)  # type: ignore[attr-defined]  # Windows only
                return None
            child = subprocess.Popen(
                list(command),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        except OSError as exc:
            return f"cannot open {path.name or path}: {exc.strerror or exc}"
        self.running.append((child, path))
        return None

    def poll(self) -> list[str]:
        """Reasons for the openers that ended in failure since the last call."""
        failed: list[str] = []
        still: list[tuple[subprocess.Popen[bytes], Path]] = []
        for child, path in self.running:
            status = child.poll()
            if status is None:
                still.append((child, path))
            elif status != 0:
                failed.append(f"cannot open {path.name or path}: the file manager said {status}")
        self.running = still
        return failed
