"""How codes come in and go out on this device, without ever stalling a frame.

In: image files dropped on the window and images put in the inbox folder are read
by a :class:`petitcom_shim.qr_reader.QRReader` in its worker process (a hostile or
huge image costs that process a bounded time, never the frame loop); text codes
and transcripts come from the clipboard (Ctrl+V or PASTE) and are read by a
:class:`PasteReader` in a thread of its own; the camera is scanned by a
:class:`petitcom_shim.camera.Scanner`. Everything arrives as :class:`Arrival`\\ s on
a later frame. Out: a code's text goes to the clipboard (Ctrl+C or COPY), and the
folder of the codes can be opened in the desktop's file manager.

One :class:`CodeIntake` serves an app for its whole run (:func:`intake_of`), so an
image still being read when the lobby turns into the match screen is not lost.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
import weakref
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from petitcom_shim.camera import CameraBackend, NoCamera, Scanner, open_camera
from petitcom_shim.clipboard import ClipboardError
from petitcom_shim.qr import IMAGE_SUFFIXES
from petitcom_shim.qr_reader import QRReader, Reading
from royalnine.app import App, InputFrame
from royalnine.remote.codec import BadCode, decode
from royalnine.remote.files import INBOX_DIR, is_transcript_text, parse_transcript
from royalnine.remote.session import TranscriptCheck, check_transcript
from royalnine.remote.textcode import TextCodeError, from_text, to_text
from royalnine.storage import Storage

INBOX_EVERY = 30  # frames between looks at the inbox folder's time stamp
INBOX_RELIST = 600  # frames between listings of an unchanged inbox (a coarse clock's miss)
INBOX_IN_FLIGHT = 2  # small inbox images with the reader at once: dropped images keep room
SMALL_IMAGE = 512 * 1024
"""A code's PNG is a few KB and a phone photo a few MB. Bigger inbox images are read by
a reader of their own, one at a time, so a burst of huge or slow ones never holds up
(or pushes out) the honest code: small ones never wait behind a big one."""
READ_DIR = "read"


@dataclass(frozen=True)
class Arrival:
    """One thing that came in: a code's bytes, or why it was not one.

    Attributes:
        source: where it came from, for messages ("move-03.png", "the clipboard"...).
        code: the code's bytes; None when nothing could be read.
        error: a one-line reason when ``code`` is None (and no transcript came).
    """

    source: str
    code: bytes | None
    error: str | None = None
    transcript: str | None = None
    """A pasted transcript (the other player's, claiming the match), instead of a code."""
    transcript_read: TranscriptReading | None = None
    """The transcript's codes and notes, read and checked off the frame loop; None (and
    ``error`` says why) when it does not read."""


@dataclass(frozen=True)
class TranscriptReading:
    """A pasted transcript as the paste reader found it."""

    codes: list[bytes]
    notes: list[str]
    check: TranscriptCheck
    """What its codes show (:func:`royalnine.remote.session.check_transcript`)."""


def read_pasted(source: str, text: str) -> Arrival:
    """What pasted text holds: a code, or a transcript read and its codes checked, or why
    it is neither. It can take a while (a 100,000-character paste, a transcript of
    hundreds of codes): :class:`PasteReader` calls it in its own thread."""
    if is_transcript_text(text):
        try:
            codes, notes = parse_transcript(text)
            reading = TranscriptReading(codes, notes, check_transcript(codes))
        except BadCode as exc:
            return Arrival(source, None, f"{source}: {exc}", transcript=text)
        return Arrival(source, None, transcript=text, transcript_read=reading)
    try:
        return Arrival(source, from_text(text))
    except TextCodeError as exc:
        return Arrival(source, None, f"{source}: {exc}")


PASTE_SETTLE_S = 0.002
"""How long a paste may hold its frame for the reading to finish (an honest code takes
well under a millisecond), so it shows on that frame; longer ones arrive on a later one."""


READING_SWITCH_S = 0.0005
"""Python's thread switch interval while a paste is read (its default is 5 ms): a frame
waiting for the interpreter lock waits at most about this long for the paste reader."""


_TURNS_LOCK = threading.Lock()
_TURNS: list[float] = []
"""The switch interval to give back, while some paste reader is reading (one per reader)."""


@contextlib.contextmanager
def _short_turns() -> Iterator[None]:
    """Short thread turns while a paste is read. The reading is Python work that holds the
    interpreter lock; a frame that gives the lock up (any system call) waits for the
    reader's turn to end, so the turns are made short (the game's other threads only
    wait on pipes). The first reader in sets them, the last one out gives them back."""
    with _TURNS_LOCK:
        _TURNS.append(sys.getswitchinterval())
        sys.setswitchinterval(min(_TURNS[0], READING_SWITCH_S))
    try:
        yield
    finally:
        with _TURNS_LOCK:
            first = _TURNS[0]
            _TURNS.pop()
            if not _TURNS:
                sys.setswitchinterval(first)


class PasteReader:
    """Reads pasted text in a thread of its own, one paste after another, so a long or
    hostile paste never holds a frame; the frame loop collects :meth:`results`.

    Args:
        settle_s: how long :meth:`submit` waits for the reading to finish.
    """

    def __init__(self, settle_s: float = PASTE_SETTLE_S) -> None:
        self.settle_s = settle_s
        self._changed = threading.Condition()
        self._waiting: list[tuple[str, str]] = []
        self._done: list[Arrival] = []
        self._reading = False
        self._thread: threading.Thread | None = None
        self._closed = False

    @property
    def busy(self) -> bool:
        """True while a paste is waiting or being read."""
        with self._changed:
            return bool(self._waiting) or self._reading

    def submit(self, source: str, text: str) -> None:
        """Read ``text`` (from ``source``, for messages); waits at most ``settle_s``."""
        with self._changed:
            if self._closed:
                self._done.append(Arrival(source, None, f"{source}: the game is closing"))
                return
            self._waiting.append((source, text))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="paste", daemon=True)
                self._thread.start()
            self._changed.notify_all()
            self._changed.wait_for(lambda: not self._waiting and not self._reading, self.settle_s)

    def add(self, arrival: Arrival) -> None:
        """An arrival known at once (an empty clipboard), given out with the readings."""
        with self._changed:
            self._done.append(arrival)

    def results(self) -> list[Arrival]:
        """The pastes read since the last call, in the order they came (never blocks)."""
        with self._changed:
            out, self._done = self._done, []
            return out

    def wait(self, timeout: float) -> bool:
        """Block until every paste is read, or ``timeout`` seconds passed (tests, tools).

        Returns:
            True if nothing is left to read.
        """
        with self._changed:
            return self._changed.wait_for(lambda: not self._waiting and not self._reading, timeout)

    def close(self) -> None:
        """Stop: pastes not yet read are dropped, the thread ends after the one it is on."""
        with self._changed:
            self._closed = True
            self._waiting.clear()
            self._changed.notify_all()

    def _run(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._waiting or self._closed)
                if self._closed:
                    self._thread = None
                    return
                source, text = self._waiting.pop(0)
                self._reading = True
            with _short_turns():
                arrival = read_pasted(source, text)
            with self._changed:
                self._done.append(arrival)
                self._reading = False
                self._changed.notify_all()


@dataclass(frozen=True)
class _InboxFile:
    """The reader's tag on an image from the inbox: where it is, and how it was then."""

    path: Path
    stamp: tuple[int, int]


def _stamp(entry: os.DirEntry[str]) -> tuple[int, int] | None:
    """(size, modification time) of a regular file, None for anything else."""
    try:
        if not entry.is_file():
            return None
        st = entry.stat()
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns)


def _header(code: bytes) -> tuple[bytes, int] | None:
    """(match id, move number) of a code, None if it is no code."""
    try:
        msg = decode(code)
    except BadCode:
        return None
    return msg.match_id, msg.seq


class Inbox:
    """The inbox folder (``HOME/remote/inbox``): images put there are read in the
    background and a code is taken only by the match it belongs to.

    - A code for the match on screen (or a host's code 1 in the JOIN lobby), and an
      image that holds no code, is moved to ``inbox/read`` once read.
    - A code for another match stays in the inbox, to be read when that match is open.
    - An image the reader could not finish stays too (it is not read again until it
      changes), and so does one the reader had no room for (it is read later).
    - The folder is listed again only when its time stamp changes (or every
      :data:`INBOX_RELIST` frames), so thousands of other files cost one listing.
    - The smallest images are read first, the newest first among them: a code's PNG
      is never queued behind a burst of big photos.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._listed: dict[str, tuple[int, int]] = {}
        self._dir_stamp: int | None = None
        self._listed_at = -INBOX_RELIST
        self._in_flight: set[str] = set()
        self._refused: set[str] = set()
        self._kept: dict[str, tuple[int, int]] = {}
        """Read, and left for another match (until the match on screen changes)."""
        self._stuck: dict[str, tuple[int, int]] = {}
        """The reader gave up on them: not read again unless they change."""
        self._context: bytes | None = None

    def look(
        self,
        frame: int,
        reader: QRReader,
        context: bytes | None,
        big_reader: Callable[[], QRReader] | None = None,
    ) -> None:
        """List the folder if it changed, and hand the readers what they have room for:
        small images to ``reader`` (newest first), big ones to ``big_reader()`` (one
        at a time; default ``reader`` too).

        ``context`` is the match on screen (its id; None in the JOIN lobby): when it
        changes, the codes left for other matches are read again.
        """
        if context != self._context:
            self._context = context
            self._kept.clear()
        self._refresh(frame)
        waiting = [
            (name, stamp)
            for name, stamp in self._listed.items()
            if name not in self._in_flight
            and self._kept.get(name) != stamp
            and self._stuck.get(name) != stamp
        ]
        if not waiting:
            return
        waiting.sort(key=lambda item: (-item[1][1], item[0]))  # the newest first
        small = [item for item in waiting if item[1][0] < SMALL_IMAGE]
        big = [item for item in waiting if item[1][0] >= SMALL_IMAGE]
        in_flight = [self._listed.get(name, (0, 0))[0] >= SMALL_IMAGE for name in self._in_flight]
        room_small = INBOX_IN_FLIGHT - in_flight.count(False)
        self._submit(reader, small[: max(0, room_small)])
        if big and not any(in_flight):
            self._submit(big_reader() if big_reader is not None else reader, big[:1])

    def _submit(self, reader: QRReader, items: list[tuple[str, tuple[int, int]]]) -> None:
        for name, stamp in items:
            self._in_flight.add(name)
            if not reader.submit(self.folder / name, tag=_InboxFile(self.folder / name, stamp)):
                self._refused.add(name)

    def _refresh(self, frame: int) -> None:
        try:
            dir_stamp = self.folder.stat().st_mtime_ns
        except OSError:
            self._listed = {}
            return
        if dir_stamp == self._dir_stamp and frame - self._listed_at < INBOX_RELIST:
            return
        self._dir_stamp, self._listed_at = dir_stamp, frame
        listed: dict[str, tuple[int, int]] = {}
        try:
            with os.scandir(self.folder) as entries:
                for entry in entries:
                    if os.path.splitext(entry.name)[1].lower() not in IMAGE_SUFFIXES:
                        continue
                    stamp = _stamp(entry)
                    if stamp is not None:
                        listed[entry.name] = stamp
        except OSError:
            return
        self._listed = listed

    def settle(self, reading: Reading, tag: _InboxFile) -> Arrival | None:
        """What an inbox image gave: an Arrival for the match on screen, or None when it
        stays in the inbox (another match's code, or not read this time)."""
        name = tag.path.name
        self._in_flight.discard(name)
        if name in self._refused:  # the reader had no room: read it on a later look
            self._refused.discard(name)
            return None
        if reading.payload is None:
            if "took over" in (reading.error or ""):  # too slow: left, not read again
                self._stuck[name] = tag.stamp
                return Arrival(reading.name, None, reading.error)
            self._move_to_read(tag.path)
            return Arrival(reading.name, None, reading.error)
        header = _header(reading.payload)
        if header is not None and not self._for_here(*header):
            self._kept[name] = tag.stamp
            return None
        self._move_to_read(tag.path)
        return Arrival(reading.name, reading.payload)

    def _for_here(self, match_id: bytes, seq: int) -> bool:
        if self._context is None:  # the JOIN lobby takes a host's code 1
            return seq == 0
        return match_id == self._context

    def _move_to_read(self, path: Path) -> None:
        """Read once: move it aside (a file that cannot be moved is left, and not read
        again until it changes)."""
        self._listed.pop(path.name, None)
        try:
            done = self.folder / READ_DIR
            done.mkdir(exist_ok=True)
            path.replace(done / path.name)
            self._dir_stamp = self.folder.stat().st_mtime_ns  # our own change: no relisting
        except OSError:
            with contextlib.suppress(OSError):
                st = path.stat()
                self._stuck[path.name] = (st.st_size, st.st_mtime_ns)


class CodeIntake:
    """Every way a code reaches this device, polled once a frame.

    Args:
        storage: where the inbox folder is.
        reader: the QR reader (default: one of its own, with its own worker process).
        big_reader: the reader of big images from the inbox (default: one of its own,
            made when the first comes), so they never hold up a code's small PNG.
        camera: the camera backend SCAN opens (default: the first real camera).
        paster: the reader of pasted text (default: one of its own, with its own thread).
    """

    def __init__(
        self,
        storage: Storage,
        *,
        reader: QRReader | None = None,
        big_reader: QRReader | None = None,
        camera: Callable[[], CameraBackend] | None = None,
        paster: PasteReader | None = None,
    ) -> None:
        self.storage = storage
        self.reader = reader if reader is not None else QRReader()
        self._big_reader = big_reader
        """Big inbox images' reader, with a worker of its own (made when one comes)."""
        self.camera_factory = camera
        self.scanner: Scanner | None = None
        self._seen_scans: list[bytes] = []
        self.inbox = Inbox(storage.home / INBOX_DIR)
        self.paster = paster if paster is not None else PasteReader()

    @property
    def busy(self) -> bool:
        """True while an image or a paste is being read (the screens show "reading...")."""
        big = self._big_reader is not None and self._big_reader.busy
        return self.reader.busy or big or self.paster.busy

    def big_reader(self) -> QRReader:
        """The reader of big inbox images (made on first use)."""
        if self._big_reader is None:
            self._big_reader = QRReader(capacity=2)
        return self._big_reader

    @property
    def scanning(self) -> bool:
        """True while the camera is on."""
        return self.scanner is not None

    def poll(self, app: App, inp: InputFrame, match_id: bytes | None = None) -> list[Arrival]:
        """Hand new images to the reader, read a pasted code, scan the camera; return
        what finished arriving (never waits). ``match_id`` is the match on screen (None:
        the JOIN lobby): the inbox gives only its codes, and keeps the others' for them."""
        for path in inp.dropped:
            self.reader.submit(path)
        if app.frames % INBOX_EVERY == 0:
            self.inbox.look(app.frames, self.reader, match_id, self.big_reader)
        arrivals: list[Arrival] = []
        readings = self.reader.results()
        if self._big_reader is not None:
            readings += self._big_reader.results()
        for r in readings:
            if isinstance(r.tag, _InboxFile):
                arrival = self.inbox.settle(r, r.tag)
                if arrival is not None:
                    arrivals.append(arrival)
            elif r.tag is None:  # camera pictures are the scanner's
                arrivals.append(Arrival(r.name, r.payload, r.error))
        if "paste" in inp.edit:
            self.paste(app)
        arrivals += self.paster.results()
        if self.scanner is not None:
            for code in self.scanner.poll():
                if code not in self._seen_scans:  # the same code stays in view for a while
                    self._seen_scans = [*self._seen_scans[-7:], code]
                    arrivals.append(Arrival("the camera", code))
        return arrivals

    def paste(self, app: App) -> None:
        """Read the clipboard's text (PASTE button or Ctrl+V) in the paste reader's thread:
        it arrives from :meth:`poll`, on this frame if it was quick."""
        source = app.t("remote_clipboard")
        try:
            text = app.m.clipboard.get_text()
        except ClipboardError as exc:
            self.paster.add(Arrival(source, None, str(exc)))
            return
        if not text.strip():
            self.paster.add(Arrival(source, None, app.t("remote_clip_empty")))
            return
        self.paster.submit(source, text)

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
        """Stop the camera and the readers (at the end of the run)."""
        self.stop_scan()
        self.paster.close()
        self.reader.close()
        if self._big_reader is not None:
            self._big_reader.close()


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
    later frame (saying where the folder is) instead of a stall.

    Args:
        command: builds the command for a path (tests put a fake here).
    """

    def __init__(self, command: Callable[[Path], Sequence[str] | None] = opener_command) -> None:
        self.command = command
        self.running: list[tuple[subprocess.Popen[bytes], Path]] = []

    def open(self, path: Path) -> bool:
        """Start showing ``path`` (made if missing); False if that failed at once (no file
        manager). The technical reason goes to stderr: the player is told where the
        folder is instead."""
        try:
            path.mkdir(parents=True, exist_ok=True)
            command = self.command(path)
            if command is None:
                os.startfile(path)  # type: ignore[attr-defined]  # Windows only
                return True
            child = subprocess.Popen(
                list(command),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        except OSError as exc:  # name what failed: the folder exists, its opener may not
            what = f"{exc.filename}: " if exc.filename and str(exc.filename) != str(path) else ""
            print(f"royalnine: cannot open {path}: {what}{exc.strerror or exc}", file=sys.stderr)
            return False
        self.running.append((child, path))
        return True

    def poll(self) -> list[Path]:
        """The folders whose opener ended in failure since the last call."""
        failed: list[Path] = []
        still: list[tuple[subprocess.Popen[bytes], Path]] = []
        for child, path in self.running:
            status = child.poll()
            if status is None:
                still.append((child, path))
            elif status != 0:
                print(f"royalnine: cannot open {path}: the opener said {status}", file=sys.stderr)
                failed.append(path)
        self.running = still
        return failed
