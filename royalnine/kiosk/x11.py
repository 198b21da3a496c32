"""The kiosk's own line to the X server: its windows kept in view, and a clean end when X dies.

SDL talks to X for the game. This module loads the same libX11 through ctypes
(no new dependency; SDL loads it at run time too) for two things SDL does not do:

* :func:`on_connection_lost` installs Xlib's I/O error handler. Without one,
  Xlib ends the process with ``exit(1)`` the moment the X server goes away:
  no log line, no final statistics save, a stale status file. The handler
  runs the kiosk's last words (save, log, status) and then exits with status
  1, so the service manager starts it again once there is an X server.
* :class:`WindowKeeper` opens a second, small connection and looks at the
  kiosk's windows as the X server sees them. A window manager's desktop keys
  (switch desktop, show desktop, send to desktop) hide a window without SDL
  being asked, and SDL's "show" cannot bring it back from another desktop. So
  whatever hid it, "not viewable on its monitor" is the trigger: the window
  is mapped again, made sticky on every desktop (``_NET_WM_DESKTOP``
  0xFFFFFFFF), show-desktop mode is left (``_NET_SHOWING_DESKTOP`` 0), and if
  it still cannot be seen :attr:`WindowKeeper.hidden_for` grows, so that the
  kiosk reports it and stops its watchdog pings (the service restarts it).

Windows are found by ``_NET_WM_PID`` (set by SDL) and their titles, at any
depth under the root (a reparenting window manager puts them in frames).
Every call is made from the kiosk's one thread, between frames.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
from collections.abc import Callable, Mapping
from typing import Any

log = logging.getLogger("royalnine.kiosk")

IS_VIEWABLE = 2
"""``XWindowAttributes.map_state`` of a window that is mapped and all its ancestors too."""
ALL_DESKTOPS = 0xFFFFFFFF
"""``_NET_WM_DESKTOP`` of a window shown on every desktop (sticky)."""
_XA_CARDINAL = 6
_ANY_TYPE = 0
_PROP_MODE_REPLACE = 0
_CLIENT_MESSAGE = 33
_SUBSTRUCTURE_MASKS = (1 << 19) | (1 << 20)  # SubstructureNotify | SubstructureRedirect
_SOURCE_PAGER = 2  # EWMH source indication: "a pager or other direct user action"
_SEARCH_DEPTH = 4


class _XWindowAttributes(ctypes.Structure):
    _fields_ = [
        ("x", ctypes.c_int),
        ("y", ctypes.c_int),
        ("width", ctypes.c_int),
        ("height", ctypes.c_int),
        ("border_width", ctypes.c_int),
        ("depth", ctypes.c_int),
        ("visual", ctypes.c_void_p),
        ("root", ctypes.c_ulong),
        ("c_class", ctypes.c_int),
        ("bit_gravity", ctypes.c_int),
        ("win_gravity", ctypes.c_int),
        ("backing_store", ctypes.c_int),
        ("backing_planes", ctypes.c_ulong),
        ("backing_pixel", ctypes.c_ulong),
        ("save_under", ctypes.c_int),
        ("colormap", ctypes.c_ulong),
        ("map_installed", ctypes.c_int),
        ("map_state", ctypes.c_int),
        ("all_event_masks", ctypes.c_long),
        ("your_event_mask", ctypes.c_long),
        ("do_not_propagate_mask", ctypes.c_long),
        ("override_redirect", ctypes.c_int),
        ("screen", ctypes.c_void_p),
    ]


class _XClientMessageEvent(ctypes.Structure):
    _fields_ = [
        ("type", ctypes.c_int),
        ("serial", ctypes.c_ulong),
        ("send_event", ctypes.c_int),
        ("display", ctypes.c_void_p),
        ("window", ctypes.c_ulong),
        ("message_type", ctypes.c_ulong),
        ("format", ctypes.c_int),
        ("l", ctypes.c_long * 5),
    ]


class _XEvent(ctypes.Union):
    _fields_ = [("xclient", _XClientMessageEvent), ("pad", ctypes.c_long * 24)]


_IOErrorHandler = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)
_ErrorHandler = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)
_lib: Any = None
_handlers: list[Any] = []  # the installed callbacks (ctypes must keep them alive)


def libx11() -> Any:
    """libX11 (the one SDL loads), its functions typed; None when it cannot be loaded."""
    global _lib
    if _lib is None:
        try:
            lib: Any = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
        except OSError:
            _lib = False
            return None
        c_ulong, c_void_p, c_int = ctypes.c_ulong, ctypes.c_void_p, ctypes.c_int
        p = ctypes.POINTER
        lib.XOpenDisplay.restype = c_void_p
        lib.XOpenDisplay.argtypes = [ctypes.c_char_p]
        lib.XCloseDisplay.argtypes = [c_void_p]
        lib.XDefaultRootWindow.restype = c_ulong
        lib.XDefaultRootWindow.argtypes = [c_void_p]
        lib.XInternAtom.restype = c_ulong
        lib.XInternAtom.argtypes = [c_void_p, ctypes.c_char_p, c_int]
        lib.XQueryTree.argtypes = [c_void_p, c_ulong, p(c_ulong), p(c_ulong)]
        lib.XQueryTree.argtypes += [p(p(c_ulong)), p(ctypes.c_uint)]
        lib.XGetWindowProperty.argtypes = [c_void_p, c_ulong, c_ulong, ctypes.c_long]
        lib.XGetWindowProperty.argtypes += [ctypes.c_long, c_int, c_ulong, p(c_ulong)]
        lib.XGetWindowProperty.argtypes += [p(c_int), p(c_ulong), p(c_ulong)]
        lib.XGetWindowProperty.argtypes += [p(p(ctypes.c_ubyte))]
        lib.XFree.argtypes = [c_void_p]
        lib.XGetWindowAttributes.argtypes = [c_void_p, c_ulong, p(_XWindowAttributes)]
        lib.XTranslateCoordinates.argtypes = [c_void_p, c_ulong, c_ulong, c_int, c_int]
        lib.XTranslateCoordinates.argtypes += [p(c_int), p(c_int), p(c_ulong)]
        lib.XMapRaised.argtypes = [c_void_p, c_ulong]
        lib.XChangeProperty.argtypes = [c_void_p, c_ulong, c_ulong, c_ulong, c_int, c_int]
        lib.XChangeProperty.argtypes += [c_void_p, c_int]
        lib.XSendEvent.argtypes = [c_void_p, c_ulong, c_int, ctypes.c_long, p(_XEvent)]
        lib.XSync.argtypes = [c_void_p, c_int]
        lib.XSetIOErrorHandler.restype = c_void_p
        lib.XSetIOErrorHandler.argtypes = [c_void_p]
        lib.XSetErrorHandler.restype = c_void_p
        lib.XSetErrorHandler.argtypes = [c_void_p]
        _lib = lib
    return _lib or None


def on_connection_lost(last_words: Callable[[], None], code: int = 1) -> bool:
    """When the X server goes away, run ``last_words`` and exit with ``code``.

    Xlib calls its I/O error handler from inside whatever call found the
    connection broken (SDL's event pump, most likely) and ends the process if
    the handler returns, so the handler never returns: after ``last_words``
    (whose own failures are logged) it leaves with ``os._exit``. The handler
    is process-wide, for SDL's connection and :class:`WindowKeeper`'s alike.
    Returns False when libX11 cannot be loaded (no X, nothing to watch).
    """
    lib = libx11()
    if lib is None:
        return False

    def handler(_display: int | None) -> int:
        try:
            last_words()
        except BaseException:  # nothing may stop the exit below
            log.exception("could not finish after losing the X server")
        logging.shutdown()
        os._exit(code)

    callback = _IOErrorHandler(handler)
    _handlers.append(callback)
    lib.XSetIOErrorHandler(ctypes.cast(callback, ctypes.c_void_p))
    return True


class WindowKeeper:
    """Keeps the kiosk's windows viewable on their monitors (see the module docstring).

    Args:
        monitors: each window's title and the rectangle (x, y, w, h) of its monitor.
        clock: seconds, monotonic (``hidden_for`` is measured with it).

    Attributes:
        hidden_since: when a window was first found hidden and has stayed so, or None.
        fixes: how many times the windows were brought back.
    """

    def __init__(
        self, monitors: Mapping[str, tuple[int, int, int, int]], clock: Callable[[], float]
    ) -> None:
        lib = libx11()
        if lib is None:
            raise OSError("libX11 cannot be loaded")
        display = lib.XOpenDisplay(None)
        if not display:
            raise OSError("cannot open the X display")
        self._lib = lib
        self._display = display
        self._root = int(lib.XDefaultRootWindow(display))
        self.monitors = dict(monitors)
        self.clock = clock
        self.hidden_since: float | None = None
        self.fixes = 0
        self._ids: dict[str, int] = {}
        self._errors = 0
        self._error_handler = _ErrorHandler(self._on_error)
        self._atoms: dict[str, int] = {}
        self.make_sticky()

    # --- Xlib plumbing ---

    def _on_error(self, _display: int | None, _event: int | None) -> int:
        """A protocol error (a window gone between two requests): counted, never fatal."""
        self._errors += 1
        return 0

    def _guarded(self, call: Callable[[], Any]) -> tuple[Any, bool]:
        """Run Xlib requests with errors caught (Xlib's default handler would exit)."""
        lib = self._lib
        previous = lib.XSetErrorHandler(ctypes.cast(self._error_handler, ctypes.c_void_p))
        before = self._errors
        try:
            result = call()
            lib.XSync(self._display, 0)
        finally:
            lib.XSetErrorHandler(previous)
        return result, self._errors == before

    def atom(self, name: str) -> int:
        """The X atom called ``name``."""
        if name not in self._atoms:
            self._atoms[name] = int(self._lib.XInternAtom(self._display, name.encode(), 0))
        return self._atoms[name]

    def _property(self, window: int, name: str) -> bytes | list[int] | None:
        """A window property: bytes (8-bit), a list of numbers (32-bit), or None."""
        lib = self._lib
        kind, fmt = ctypes.c_ulong(), ctypes.c_int()
        count, after = ctypes.c_ulong(), ctypes.c_ulong()
        data = ctypes.POINTER(ctypes.c_ubyte)()
        status = lib.XGetWindowProperty(
            self._display,
            window,
            self.atom(name),
            0,
            1024,
            0,
            _ANY_TYPE,
            ctypes.byref(kind),
            ctypes.byref(fmt),
            ctypes.byref(count),
            ctypes.byref(after),
            ctypes.byref(data),
        )
        if status != 0 or not data:
            return None
        try:
            if fmt.value == 8:
                return ctypes.string_at(data, count.value)
            if fmt.value == 32:  # Xlib hands 32-bit items over as C longs
                longs = ctypes.cast(data, ctypes.POINTER(ctypes.c_long))
                return [longs[i] & 0xFFFFFFFF for i in range(count.value)]
            return None
        finally:
            lib.XFree(data)

    def _children(self, window: int) -> list[int]:
        lib = self._lib
        root, parent = ctypes.c_ulong(), ctypes.c_ulong()
        children = ctypes.POINTER(ctypes.c_ulong)()
        n = ctypes.c_uint()
        got = lib.XQueryTree(
            self._display,
            window,
            ctypes.byref(root),
            ctypes.byref(parent),
            ctypes.byref(children),
            ctypes.byref(n),
        )
        if not got:
            return []
        try:
            return [int(children[i]) for i in range(n.value)]
        finally:
            if children:
                lib.XFree(children)

    def _send_root_message(self, window: int, name: str, *values: int) -> None:
        """An EWMH client message to the root window (what a pager sends the window manager)."""
        event = _XEvent()
        msg = event.xclient
        msg.type, msg.send_event, msg.window, msg.format = _CLIENT_MESSAGE, 1, window, 32
        msg.message_type = self.atom(name)
        for i, value in enumerate(values):
            msg.l[i] = value
        self._lib.XSendEvent(self._display, self._root, 0, _SUBSTRUCTURE_MASKS, ctypes.byref(event))

    # --- the kiosk's windows ---

    def window_ids(self) -> dict[str, int]:
        """The kiosk's windows by title (found again when one is missing)."""
        if len(self._ids) == len(self.monitors):
            return self._ids
        pid, found = os.getpid(), {}
        layer = [self._root]
        for _ in range(_SEARCH_DEPTH):
            below: list[int] = []
            for window in layer:
                for child in self._children(window):
                    owner = self._property(child, "_NET_WM_PID")
                    if isinstance(owner, list) and owner[:1] == [pid]:
                        name = self._property(child, "_NET_WM_NAME") or self._property(
                            child, "WM_NAME"
                        )
                        title = name.decode("utf-8", "replace") if isinstance(name, bytes) else ""
                        if title in self.monitors:
                            found[title] = child
                    below.append(child)
            layer = below
        self._ids = found
        return found

    def make_sticky(self) -> None:
        """Put every window on all desktops: a desktop switch no longer hides it."""

        def ask() -> None:
            sticky = (ctypes.c_long * 1)(ALL_DESKTOPS)
            for window in self.window_ids().values():
                # the property for a window not managed yet, the message for a managed one
                self._lib.XChangeProperty(
                    self._display,
                    window,
                    self.atom("_NET_WM_DESKTOP"),
                    _XA_CARDINAL,
                    32,
                    _PROP_MODE_REPLACE,
                    sticky,
                    1,
                )
                self._send_root_message(window, "_NET_WM_DESKTOP", ALL_DESKTOPS, _SOURCE_PAGER)

        self._guarded(ask)

    def sticky(self) -> bool:
        """Whether every window is on all desktops (or no window manager says otherwise)."""

        def look() -> bool:
            for window in self.window_ids().values():
                desktop = self._property(window, "_NET_WM_DESKTOP")
                if isinstance(desktop, list) and desktop[:1] != [ALL_DESKTOPS]:
                    return False
            return True

        found, _ = self._guarded(look)
        return bool(found)

    def hidden(self) -> list[str]:
        """Titles of the windows that are not viewable over their monitor now."""

        def look() -> list[str]:
            ids = self.window_ids()
            out = [title for title in self.monitors if title not in ids]
            for title, window in ids.items():
                attrs = _XWindowAttributes()
                if not self._lib.XGetWindowAttributes(self._display, window, ctypes.byref(attrs)):
                    out.append(title)
                    continue
                x, y, child = ctypes.c_int(), ctypes.c_int(), ctypes.c_ulong()
                self._lib.XTranslateCoordinates(
                    self._display,
                    window,
                    self._root,
                    0,
                    0,
                    ctypes.byref(x),
                    ctypes.byref(y),
                    ctypes.byref(child),
                )
                mx, my, mw, mh = self.monitors[title]
                cx, cy = x.value + attrs.width // 2, y.value + attrs.height // 2
                on_monitor = mx <= cx < mx + mw and my <= cy < my + mh
                if attrs.map_state != IS_VIEWABLE or not on_monitor:
                    out.append(title)
            return out

        found, clean = self._guarded(look)
        if not clean:
            self._ids = {}  # a window went away under us: look them up again next time
        return list(found)

    def bring_back(self) -> None:
        """Map the windows again, make them sticky, and leave show-desktop mode."""

        def ask() -> None:
            self._send_root_message(self._root, "_NET_SHOWING_DESKTOP", 0)
            for window in self.window_ids().values():
                self._lib.XMapRaised(self._display, window)

        self._guarded(ask)
        self.make_sticky()
        self.fixes += 1

    def check(self, hidden: list[str] | None = None) -> list[str]:
        """Look at the windows; bring back any that cannot be seen. Returns log lines
        for what changed (hidden, back), at most one each time a window is lost.

        ``hidden`` names windows known to be hidden already (SDL said so), without
        asking X first."""
        lines: list[str] = []
        hidden = self.hidden() if hidden is None else hidden
        if not hidden:
            if self.hidden_since is not None:
                lines.append("the kiosk's windows can be seen again")
            self.hidden_since = None
            if not self.sticky():  # sent to one desktop (and followed there): all again
                self.make_sticky()
            return lines
        if self.hidden_since is None:
            self.hidden_since = self.clock()
            lines.append(
                f"window {', '.join(repr(t) for t in hidden)} cannot be seen on its monitor "
                "(a window manager key?): mapping it again, on every desktop, leaving "
                "show-desktop mode"
            )
        self.bring_back()
        return lines

    def hidden_for(self) -> float:
        """Seconds the windows have stayed hidden in spite of :meth:`bring_back` (0 if not)."""
        return 0.0 if self.hidden_since is None else self.clock() - self.hidden_since

    def close(self) -> None:
        """Close this connection."""
        if self._display:
            self._lib.XCloseDisplay(self._display)
            self._display = None
