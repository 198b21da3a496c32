"""The emulated Petit Computer: two screens, a 60 fps frame loop and SmileBASIC v2 verbs.

:class:`Machine` is the whole public surface programs use (docs/shim-api.md). Like
SmileBASIC, the console/BG/sprite/GRP verbs act on the screen chosen with
``cpage``/``bgpage``/``sppage``/``gpage``. In step mode (``realtime=False``, the
default when headless) nothing sleeps and frames are only composed when someone
looks at them, so tests and simulations run as fast as the logic allows.
"""

from __future__ import annotations

import datetime
import io
import os
import random
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import pygame

from petitcom_shim import charset, files, font
from petitcom_shim import keyboard as kb
from petitcom_shim.clipboard import Clipboard, MemoryClipboard, SystemClipboard
from petitcom_shim.config import ShimConfig
from petitcom_shim.errors import Break, IllegalFunctionCall, OutOfRange
from petitcom_shim.frontend import Frontend, headless_frontend
from petitcom_shim.input import BACKSPACE_KEY, Button, Input
from petitcom_shim.numbers import to_int
from petitcom_shim.romres import RomResources, load_resources
from petitcom_shim.savearea import SaveArea
from petitcom_shim.video.bg import BGLayer, decode_tile, fill_words, tile_word
from petitcom_shim.video.changes import ScreenWatch
from petitcom_shim.video.chr import ChrStore, ResourceRef, parse_resource
from petitcom_shim.video.compose import ScreenVideo, Visibility
from petitcom_shim.video.console import Console
from petitcom_shim.video.grp import GrpPage, check_page, circle_points, on_arc
from petitcom_shim.video.lineedit import LineEditor
from petitcom_shim.video.palette import KINDS, parse_rrggbb
from petitcom_shim.video.panel import Panel
from petitcom_shim.video.sprites import SpriteScreen, SpriteState, TransformCache
from petitcom_shim.video.surfaces import new_surface

if TYPE_CHECKING:
    # The sound stack (sound, bgm, mml: a tenth of a headless run's start-up with what
    # they import) is imported when a machine with sound opens it, or when a silent one
    # first needs it (:attr:`Machine.sound`, :attr:`Machine.bgm`); ptcres by SAVE/LOAD
    # of a resource.
    from petitcom_shim import ptcres
    from petitcom_shim.bgm import Bgm
    from petitcom_shim.sound import Sound

__all__ = ["FPS", "HEADLESS_CLOCK", "MAINCNTL_WRAP", "Machine", "SpriteState"]

FPS = 60
#: MAINCNTL counts 0..524287 and then wraps, MAINCNTH counting the wraps (see decisions doc).
MAINCNTL_WRAP = 524288
#: DATE$/TIME$ at frame 0 of a headless machine that was given no clock: the DS clock's
#: epoch (its real-time clock counts from 2000-01-01), so a headless run never reads the
#: host's clock and its output is the same on any machine on any day.
HEADLESS_CLOCK = datetime.datetime(2000, 1, 1, 0, 0, 0)
SCREEN_W = 256
SCREEN_H = 192


def _to_ptc(text: str) -> bytes:
    """Console text encoding: characters outside the PTC set print as a placeholder."""
    return charset.to_ptc(text, errors="replace")


def _load_icon(icon: pygame.Surface | str | Path) -> pygame.Surface:
    """The window icon as a surface; a file that cannot be read is a one-line error."""
    if isinstance(icon, pygame.Surface):
        return icon
    try:
        return pygame.image.load(str(icon))
    except (pygame.error, OSError) as exc:
        raise IllegalFunctionCall(f"window icon {icon}: {exc}") from None


def _floored(args: Iterable[object]) -> tuple[object, ...]:
    """Numbers floored to the integers a PTC verb sees (strings pass as they are)."""
    return tuple(to_int(a) if isinstance(a, int | float) else a for a in args)


def _screen(s: int) -> int:
    if s not in (0, 1):
        raise OutOfRange(f"screen {s} not 0 or 1")
    return int(s)


class Machine:
    """An emulated Petit Computer.

    Args:
        headless: No window (the frontend only pumps injected input); implies step mode.
        realtime: Pace ``vsync`` to 60 fps; defaults to ``not headless``.
        seed: Seed of :meth:`rnd`.
        layout: Window layout passed to the frontend ("vertical", ...).
        scale: Window scale, 0 = the largest that fits.
        gap: Pixels between the two screens in the window.
        fullscreen: Open full screen.
        title: Window title.
        config: Key bindings and window settings (see ``petitcom_shim.config``).
        audio: Enable sound; defaults to ``not headless``.
        select_break: SELECT (or the panel's RUN/STOP key) ends the program as on
            PTC: the next ``vsync``/``wait`` after SELECT goes down raises
            :class:`~petitcom_shim.errors.Break`. Off by default, so a program can use
            SELECT as an ordinary button; also settable later as the attribute of the
            same name.
        fit: Fit mode: a resized, maximised or fullscreen window scales the screens
            smoothly to the largest size that keeps the aspect, instead of the largest
            whole-number scale (pixel-exact, the default).
        icon: Window icon, a surface (32x32 or 64x64 suit most desktops) or an image file.
        resources: A folder of CHR/COL resource files the user extracted from their own
            Petit Computer (``BGF0.PTC``, ``SPU0.PTC``, ``COL0.PTC``, ...; see
            :mod:`petitcom_shim.romres`): the banks and palettes found there are the
            defaults, restored by CHRINIT and COLINIT; the rest are the shim's own.
            A bad file raises :class:`~petitcom_shim.romres.ResourceError` before
            any window opens.
        files: The save area folder (LOAD/SAVE/EXEC/DELETE/RENAME/FILES of a program),
            kept as :attr:`files`; None for a machine without one.
    """

    def __init__(
        self,
        *,
        headless: bool = False,
        realtime: bool | None = None,
        seed: int = 0,
        layout: str = "vertical",
        scale: int = 0,
        gap: int = 0,
        fullscreen: bool = False,
        title: str = "Petit Computer",
        config: ShimConfig | None = None,
        audio: bool | None = None,
        select_break: bool = False,
        fit: bool = False,
        icon: pygame.Surface | str | Path | None = None,
        resources: str | os.PathLike[str] | RomResources | None = None,
        files: str | Path | None = None,
        clock: datetime.datetime | None = None,
    ) -> None:
        if resources is None or isinstance(resources, RomResources):
            self.resources = resources or RomResources()
        else:
            self.resources = load_resources(resources)
        """The user-supplied ROM resources in use (empty without ``resources``)."""
        self.headless = headless
        self.select_break = select_break
        self.realtime = (not headless) if realtime is None else realtime
        self.running = True
        self.layout = layout
        """The window layout in use ("vertical", "horizontal", "single", "separate")."""
        self._random = random.Random(seed)
        self._frames = 0
        if clock is None and headless:
            clock = HEADLESS_CLOCK
        self.clock_start = clock
        """DATE$/TIME$ at frame 0, advancing one second every 60 frames; None: the host's clock.

        A headless machine never reads the host's clock, so a run is a function of its
        program, input, seed and speed alone; a window reads it unless given a start
        (a recording gives one, so its replay reads the same times).
        """
        self._frame_at = time.perf_counter()
        self.input = Input(config)
        self.frontend: Frontend
        if headless:
            self.frontend = headless_frontend(layout=layout, scale=scale, gap=gap, config=config)
        else:
            # the windows' module, imported only when one opens
            from petitcom_shim.display import create_frontend

            self.frontend = create_frontend(
                headless=False,
                layout=layout,
                scale=scale,
                gap=gap,
                fullscreen=fullscreen,
                title=title,
                config=config,
                fit=fit,
                icon=None if icon is None else _load_icon(icon),
            )
        self._sound: Sound | None = None
        self._bgm: Bgm | None = None
        with_sound = (not headless) if audio is None else audio
        if with_sound:
            # opened now, so that the first BEEP or song does not wait for the mixer
            self._open_sound(enabled=True)
        self.clipboard: Clipboard = MemoryClipboard() if headless else SystemClipboard()
        """Text clipboard (an extension: Petit Computer had none); in memory when headless."""
        self._tick_at = time.perf_counter()  # when the last paced frame was due
        self.chr = ChrStore(font.load_font(), self.resources.chr)
        transforms = TransformCache()  # the same sprite art on both screens turns once
        self.screens = (
            ScreenVideo(0, self.chr, _to_ptc, transforms, self.resources.col),
            ScreenVideo(1, self.chr, _to_ptc, transforms, self.resources.col),
        )
        self.grp_pages = tuple(GrpPage() for _ in range(4))
        self.vis = Visibility()
        self._surfaces = (new_surface(SCREEN_W, SCREEN_H), new_surface(SCREEN_W, SCREEN_H))
        self._watches = (ScreenWatch(0, self.chr), ScreenWatch(1, self.chr))
        #: How many times each screen was composed; a frame where nothing on a
        #: screen changed does not compose it (tests and benchmarks read this).
        self.compositions = [0, 0]
        self._cpage = 0
        self._bgpage = 0
        self._sppage = 0
        self._gpage = 0
        self._xor = False
        self._gcolor = 0
        self._panel = Panel(self.chr, self.screens[1].palettes, _to_ptc)
        self.screens[1].panel = self._panel
        self.input.function_key_text = self._panel.function_key_text  # the PC's F1-F5
        self.files = None if files is None else SaveArea(files)
        """The save area (a folder of .PTC files found by header name and type), or None."""

    # -- frame loop ------------------------------------------------------------
    def vsync(self, n: int = 1, *, show: bool = True) -> None:
        """VSYNC n: advance n frames (input, interpolations, compose and present).

        ``show=False`` (an extension for hosts that may draw less often, like a kiosk's
        attract loop) runs a frame of a batch: input and interpolations advance and the
        frame counts on the 60 Hz grid, but nothing is composed, presented or slept;
        the next shown frame composes what changed and sleeps until its own time. A
        host showing one frame in three wakes and draws 20 times a second while its
        logic and timers keep 60 frames a second.
        """
        for _ in range(max(int(n), 0)):
            self._frame(show=show)

    def wait(self, n: int = 1) -> None:
        """WAIT n: the same as :meth:`vsync` in this shim."""
        self.vsync(n)

    def step(self, frames: int = 1) -> None:
        """Alias of :meth:`vsync` for tests."""
        self.vsync(frames)

    def busy(self, most: int = 4) -> int:
        """Keep the machine going while a program computes without VSYNC.

        A BASIC interpreter calls this every few milliseconds of a busy loop: it
        pumps the window (so it stays responsive and closable) and, for every
        1/60 s of wall time since the last frame, runs a frame without sleeping
        (so MAINCNTL keeps counting at 60 per second and the screens keep
        showing what the program draws, as on the handheld). At most ``most``
        frames (4 by default) are caught up at once, and only the last of them is
        composed and shown; a caller with a frame limit passes the frames it has
        left, so that the limit is never overshot.

        Returns:
            The number of frames run.

        Raises:
            Break: as :meth:`vsync`, when SELECT breaks the program.
        """
        since = self._frame_at
        due = int((time.perf_counter() - since) * FPS + 1e-6)
        if due <= 0:
            self.running = self.frontend.pump(self.input) and self.running
            return 0
        run = min(due, 4, most)
        if run <= 0:
            self.running = self.frontend.pump(self.input) and self.running
            return 0
        for i in range(run):  # only the last catch-up frame is composed and shown
            self._frame(pace=False, show=i == run - 1)
        if due <= 4:  # keep to the 60 Hz grid; further behind, the lost time is dropped
            self._frame_at = since + due / FPS
        return run

    def sleep_to_next_frame(self) -> None:
        """Sleep until the next frame is due on the 60 Hz grid (at most 1/60 s): for a
        program that only waits for it, busy-looping until :meth:`busy` runs it would
        spin the host's CPU for nothing. No sleep off real time."""
        if not self.realtime:
            return
        wait = self._frame_at + 1 / FPS - time.perf_counter()
        if wait > 0:
            time.sleep(min(wait, 1 / FPS))

    def _frame(self, pace: bool = True, show: bool = True) -> None:
        self.running = self.frontend.pump(self.input) and self.running
        self.input.latch()
        inp = self.input
        inp.queue_keys(self._panel.touch(bool(inp.tchst), inp.tchx, inp.tchy, self.vis.panel))
        if self._panel.fired:
            from petitcom_shim.sound import Beep  # imported already by a machine with sound

            self.sound.system_beep(Beep.CLICK)  # the key click; SYSBEEP=0 silences it
        if self.select_break and (
            self.input.button(2) & Button.SELECT or self._panel.just_pressed == kb.RUN_STOP
        ):
            raise Break()  # SELECT, or the panel's RUN/STOP key, stops the program
        for screen in self.screens:
            screen.step()
        self._frames += 1
        if self._bgm is not None:  # a silent machine has none until a program plays one
            self._bgm.update()
        if show and not self.headless:
            changed = (self._refresh(0), self._refresh(1))
            self.frontend.present(*self._surfaces, changed=changed)
        if self.realtime and pace:
            self._pace(wait=show)  # a frame of a batch runs ahead: only the shown one sleeps
        self._frame_at = time.perf_counter()

    def _pace(self, wait: bool = True) -> None:
        """Sleep until the next 1/60 s step of the frame grid (or, not ``wait``ing, only
        count this frame's step: a frame of a batch that runs ahead of its time).

        Not ``pygame.time.Clock.tick``: it waits whole milliseconds (16 for 60 fps), so
        frames came 62.5 times a second instead of PTC's 60 (618 frames in 10 s against
        600, measured), and it cannot let frames of a batch run ahead. A plain sleep
        wakes within a fraction of a millisecond, and keeping to a grid (rather than
        sleeping 1/60 s after each frame) makes up for that lateness at the next frame,
        so the rate stays 60. A frame that ran late starts a new grid: lost time is
        not caught up with a burst of frames.
        """
        due = self._tick_at + 1 / FPS
        now = time.perf_counter()
        if now - due > 1 / FPS:
            self._tick_at = now  # late by more than a frame: a new grid from now
            return
        self._tick_at = due
        if wait and due > now:
            time.sleep(due - now)

    def _refresh(self, s: int) -> bool:
        """Compose screen ``s`` if anything it shows changed since it was last composed.

        Returns:
            True if the screen was composed (its picture may differ).
        """
        video = self.screens[s]
        page = self.grp_pages[video.grp_disp]
        if not self._watches[s].check(video, page, self.vis):
            return False
        video.compose(self._surfaces[s], page, self.vis)
        self.compositions[s] += 1
        return True

    def changes(self, screen: int) -> tuple[str, ...]:
        """What differed on a screen when it was last looked at (for tests and profiling).

        Kinds as :data:`petitcom_shim.video.changes.CHANGE_KINDS` names them
        (``"console"``, ``"sprites"``, ...); empty when that frame was clean.
        """
        return self._watches[_screen(screen)].changes

    @property
    def maincntl(self) -> int:
        """MAINCNTL: frames since start, wrapping to 0 after 524287."""
        return self._frames % MAINCNTL_WRAP

    @property
    def maincnth(self) -> int:
        """MAINCNTH: how many times MAINCNTL has wrapped."""
        return self._frames // MAINCNTL_WRAP

    def rnd(self, n: int) -> int:
        """RND(n): a seeded random integer 0..n-1 (0 when n <= 0)."""
        if n <= 0:
            return 0
        return self._random.randrange(int(n))

    def close(self) -> None:
        """Close the window and the audio device."""
        self.running = False
        self.frontend.close()
        if self._bgm is not None:
            self._bgm.close()
        if self._sound is not None:
            self._sound.close()

    # -- whole-machine visuals -------------------------------------------------
    def acls(self) -> None:
        """ACLS: reset visuals (VISIBLE, COLOR/CLS, GRP, sprites, BG, palettes); CHR stays."""
        self.vis = Visibility()
        self._xor = False
        self._gcolor = 0
        for page in self.grp_pages:
            page.clear(0)
        for screen in self.screens:
            screen.console.color(0, 0)
            screen.console.cls()
            screen.sprites.spclr()
            for layer in screen.bg.layers:
                layer.ofs_x.set(0)
                layer.ofs_y.set(0)
                layer.map[:] = 0
                layer.mark_all()
            screen.bg.set_clip(0, 0, 31, 23)
            screen.palettes.colinit()

    def visible(
        self,
        console: bool | None = None,
        panel: bool | None = None,
        bg0: bool | None = None,
        bg1: bool | None = None,
        sprites: bool | None = None,
        graphics: bool | None = None,
    ) -> None:
        """VISIBLE: switch layers on/off on both screens; None keeps a flag."""
        flags = {"console": console, "panel": panel, "bg0": bg0, "bg1": bg1}
        flags |= {"sprites": sprites, "graphics": graphics}
        for name, value in flags.items():
            if value is not None:
                setattr(self.vis, name, bool(value))

    def screen_surface(self, screen: int) -> pygame.Surface:
        """The composed 256x192 frame of a screen (owned by the machine: copy to keep it).

        It is composed again only if something on the screen changed since the
        last time; do not draw on it.
        """
        s = _screen(screen)
        self._refresh(s)
        return self._surfaces[s]

    def screen_array(self, screen: int) -> npt.NDArray[np.uint8]:
        """The composed frame as a numpy (192, 256, 3) uint8 array."""
        pixels = pygame.surfarray.array3d(self.screen_surface(screen))
        return np.ascontiguousarray(pixels.transpose(1, 0, 2), dtype=np.uint8)

    def screenshot(self, path: str | Path, screen: int | None = None, scale: int = 1) -> None:
        """Save screen 0, 1 or both (None: stacked, no gap) as a PNG at an integer scale.

        The file is written by :func:`petitcom_shim.files.write_output` (atomic for a
        regular file, ``-`` = standard output, never replacing a FIFO or device)."""
        if int(scale) != scale or scale < 1:
            raise OutOfRange(f"screenshot scale must be a positive integer, got {scale}")
        if screen is None:
            image = new_surface(SCREEN_W, SCREEN_H * 2)
            image.blit(self.screen_surface(0), (0, 0))
            image.blit(self.screen_surface(1), (0, SCREEN_H))
        else:
            image = self.screen_surface(screen).copy()
        if scale != 1:
            w, h = image.get_size()
            image = pygame.transform.scale(image, (w * int(scale), h * int(scale)))
        buffer = io.BytesIO()
        pygame.image.save(image, buffer, "shot.png")
        files.write_output(path, buffer.getvalue())

    # -- pages -----------------------------------------------------------------
    def cpage(self, s: int) -> None:
        """Console screen for later console verbs (shim extension)."""
        self._cpage = _screen(s)

    def bgpage(self, s: int) -> None:
        """BGPAGE: screen for BG verbs and BG/COL0 resources without U/L."""
        self._bgpage = _screen(s)

    def sppage(self, s: int) -> None:
        """SPPAGE: screen for sprite verbs and SP/COL1 resources without U/L."""
        self._sppage = _screen(s)

    def gpage(self, s: int, draw: int | None = None, disp: int | None = None) -> None:
        """GPAGE: screen for GRP verbs; optionally its drawing and displayed pages (0-3)."""
        self._gpage = _screen(s)
        video = self.screens[self._gpage]
        if draw is not None:
            video.grp_draw = check_page(draw)
        if disp is not None:
            video.grp_disp = check_page(disp)

    # -- palettes --------------------------------------------------------------
    def _kind(self, kind: str) -> tuple[int, ScreenVideo]:
        k = KINDS.get(kind.upper())
        if k is None:
            raise IllegalFunctionCall(f'palette kind must be "BG", "SP" or "GRP", got {kind!r}')
        screen = (self._bgpage, self._sppage, self._gpage)[k]
        return k, self.screens[screen]

    def colset(self, kind: str, n: int, rrggbb: str) -> None:
        """COLSET: colour n of the BG/SP/GRP palette from "RRGGBB" (quantised to 5-6-5)."""
        k, video = self._kind(kind)
        video.palettes.colset(k, n, parse_rrggbb(rrggbb))

    def colread(self, kind: str, n: int) -> tuple[int, int, int]:
        """COLREAD: colour n as 8-bit RGB (round(v*255/31), round(v*255/63))."""
        k, video = self._kind(kind)
        return video.palettes.colread(k, n)

    def colinit(self, kind: str | None = None, n: int | None = None) -> None:
        """COLINIT: restore default colours (all kinds, one kind, or one colour)."""
        if kind is None:
            for k, page in enumerate((self._bgpage, self._sppage, self._gpage)):
                self.screens[page].palettes.colinit(k)
            return
        k, video = self._kind(kind)
        video.palettes.colinit(k, n)

    # -- CHR -------------------------------------------------------------------
    def chrset(self, res: str, n: int, hex64: str) -> None:
        """CHRSET: one 8x8 tile from 64 hex digits (one per pixel, row by row)."""
        self.chr.chrset(self._ref(res), n, hex64)

    def chrread(self, res: str, n: int) -> str:
        """CHRREAD: a tile as 64 upper-case hex digits."""
        return self.chr.chrread(self._ref(res), n)

    def chrinit(self, res: str) -> None:
        """CHRINIT: restore a bank's default (the font for BGF0, blank for most)."""
        self.chr.chrinit(self._ref(res))

    def chrload(self, res: str, source: str | Path | pygame.Surface, start: int = 0) -> int:
        """Load tiles from an indexed PNG or 8-bit Surface, spilling into following banks.

        Returns:
            The number of tiles loaded.
        """
        return self.chr.chrload(self._ref(res), source, start)

    # -- files -----------------------------------------------------------------
    def save(self, target: str, path: str | Path) -> None:
        """SAVE "RES:NAME": write a resource (CHR bank, COL, SCU, GRP) as a .PTC file.

        ``target`` is PTC's string, e.g. ``"SPU0:SHIP"`` or ``"COL0L:PAL"``; the
        file at ``path`` is written atomically. See docs/shim-api.md "Files".
        """
        from petitcom_shim import ptcres  # resource files: only SAVE/LOAD of one

        ptcres.save(self, target, path, self._pages())

    def load(self, target: str, path: str | Path) -> str:
        """LOAD "RES[:NAME]": fill a resource from a .PTC file; returns its internal name.

        Raises:
            petitcom_shim.ptcfile.PtcFileError: a bad file, or one of the wrong type
                (nothing is changed).
        """
        from petitcom_shim import ptcres

        return ptcres.load(self, target, path, self._pages())

    def _pages(self) -> ptcres.Pages:
        from petitcom_shim import ptcres

        return ptcres.Pages(self._bgpage, self._sppage, self._gpage)

    def _ref(self, res: str, default: int | None = None) -> ResourceRef:
        name = res.upper()
        if default is None:
            default = self._sppage if name.startswith("SP") else self._bgpage
        return parse_resource(name, default)

    # -- console ---------------------------------------------------------------
    @property
    def _con(self) -> Console:
        return self.screens[self._cpage].console

    def print(self, *items: object, sep: str = ";", end: str = "\n") -> None:
        """PRINT: ``sep=";"`` joins items with no gap, ``sep=","`` tabs to TABSTEP.

        ``end`` is ``"\\n"`` (new line, the default), ``""``/``";"`` (stay on the
        line) or ``","`` (tab and stay), like a trailing ``;``/``,`` in BASIC.
        """
        self._con.print_items(items, sep, end)

    def print_newline(self) -> None:
        """PRINT's line end alone, ``print()`` with fewer layers (the interpreter's
        PRINT without a trailing ``;`` or ``,``)."""
        self.screens[self._cpage].console.newline()

    def print_codes(self, codes: bytes) -> None:
        """PRINT of PTC codes staying on the line, ``print(codes, end="")`` with
        fewer layers: the interpreter prints each item so."""
        self.screens[self._cpage].console.write(codes)

    def locate(self, x: int, y: int) -> None:
        """LOCATE x,y (ignored when outside 0-31, 0-23)."""
        self._con.locate(x, y)

    def color(self, fg: int, bg: int | None = None) -> None:
        """COLOR fg[,bg]: COL0 palettes for text and cell background (0 = none)."""
        self._con.color(fg, bg)

    def cls(self) -> None:
        """CLS: clear the console of the current console page."""
        self._con.cls()

    def chkchr(self, x: int, y: int) -> int:
        """CHKCHR: the character code at a console cell."""
        return self._con.chkchr(x, y)

    @property
    def csrx(self) -> int:
        """CSRX: console cursor column."""
        return self._con.csrx

    @property
    def csry(self) -> int:
        """CSRY: console cursor row."""
        return self._con.csry

    @property
    def tabstep(self) -> int:
        """TABSTEP: tab width used by ``,`` in PRINT."""
        return self._con.tabstep

    @tabstep.setter
    def tabstep(self, value: int) -> None:
        self._con.tabstep = value

    # -- BG --------------------------------------------------------------------
    def _bg(self, layer: int) -> BGLayer:
        return self.screens[self._bgpage].bg.layer(layer)

    def bgput(self, layer: int, x: int, y: int, *tile: object) -> None:
        """BGPUT: one tile as (chr[, pal, h, v]), a tile word, or a 4-hex-digit string."""
        self._bg(layer).put(to_int(x), to_int(y), tile_word(tile))

    def bgfill(self, layer: int, x1: int, y1: int, x2: int, y2: int, *tile: object) -> None:
        """BGFILL: fill a tile rectangle (corners clamped to 0-63, any order); a string
        of several 4-hex-digit tiles fills it with them in turn, row by row."""
        target = self._bg(layer)
        words = fill_words(tile)
        x1, y1, x2, y2 = (to_int(v) for v in (x1, y1, x2, y2))
        left, right = sorted((min(max(x1, 0), 63), min(max(x2, 0), 63)))
        top, bottom = sorted((min(max(y1, 0), 63), min(max(y2, 0), 63)))
        height, width = bottom - top + 1, right - left + 1
        cells = np.resize(np.array(words, dtype=target.map.dtype), height * width)
        target.write(top, left, cells.reshape(height, width))

    def bgclr(self, layer: int | None = None) -> None:
        """BGCLR: clear one layer or both."""
        for n in (0, 1) if layer is None else (layer,):
            target = self._bg(n)
            target.write(0, 0, np.zeros_like(target.map))

    def bgofs(self, layer: int, x: float, y: float, t: int = 0) -> None:
        """BGOFS: scroll offset in pixels (wraps at 512), optionally over t frames."""
        self._bg(layer).scroll(to_int(x), to_int(y), to_int(t))

    def bgchk(self, layer: int) -> bool:
        """BGCHK: True while a timed BGOFS is still moving."""
        return self._bg(layer).moving

    def bgread(self, layer: int, x: int, y: int) -> tuple[int, int, int, int]:
        """BGREAD: (chr, pal, h, v) of a tile."""
        return decode_tile(self.bgreadw(layer, x, y))

    def bgreadw(self, layer: int, x: int, y: int) -> int:
        """BGREAD as the 16-bit tile word."""
        return int(self._bg(layer).map[to_int(y) & 63, to_int(x) & 63])

    def bgreadh(self, layer: int, x: int, y: int) -> str:
        """BGREAD's string form: the tile word as 4 upper-case hex digits, the form
        BGPUT's string takes ([WIKI] BGREAD: ``BGPUT 0,3,6,123,4,0,1`` reads "487B")."""
        return f"{self.bgreadw(layer, x, y):04X}"

    def bgcopy(self, layer: int, x1: int, y1: int, x2: int, y2: int, x3: int, y3: int) -> None:
        """BGCOPY: copy a tile block within a layer; the destination wraps at 64."""
        target = self._bg(layer)
        x1, y1, x2, y2, x3, y3 = (to_int(v) for v in (x1, y1, x2, y2, x3, y3))
        left, right = sorted((x1 & 63, x2 & 63))
        top, bottom = sorted((y1 & 63, y2 & 63))
        block = target.map[top : bottom + 1, left : right + 1].copy()
        for dy in range(block.shape[0]):
            for dx in range(block.shape[1]):
                target.put(x3 + dx, y3 + dy, int(block[dy, dx]))

    def bgclip(self, x1: int, y1: int, x2: int, y2: int) -> None:
        """BGCLIP: clip window in tiles for both layers of the current BG page."""
        self.screens[self._bgpage].bg.set_clip(x1, y1, x2, y2)

    # -- sprites ---------------------------------------------------------------
    @property
    def _sp(self) -> SpriteScreen:
        return self.screens[self._sppage].sprites

    def spset(
        self, id: int, chr: int, pal: int, h: int, v: int, prio: int, w: int = 16, h_: int = 16
    ) -> None:
        """SPSET: create sprite id with a character, palette, flips, priority and size.

        Raises:
            IllegalFunctionCall: the size is not one of the 12 legal DS shapes.
        """
        self._sp.spset(*(to_int(a) for a in (id, chr, pal, h, v, prio, w, h_)))

    def spclr(self, id: int | None = None) -> None:
        """SPCLR: clear one sprite or all sprites of the current sprite page."""
        self._sp.spclr(None if id is None else to_int(id))

    def spexists(self, id: int) -> bool:
        """True if sprite id has been set (SPSET) and not cleared."""
        return self._sp.get(to_int(id)).active

    def spofs(self, id: int, x: float, y: float, t: int = 0) -> None:
        """SPOFS: move the home point to (x, y), over t frames from where it is now."""
        sprites = self.screens[self._sppage].sprites  # self._sp, inline: a call a sprite
        sprites.spofs(id if type(id) is int else to_int(id), x, y, t)

    def sphome(self, id: int, hx: int, hy: int) -> None:
        """SPHOME: origin for SPOFS, rotation and scale (signed 8-bit each)."""
        self._sp.sphome(to_int(id), hx, hy)

    def spchr(
        self,
        id: int,
        chr: int,
        pal: int | None = None,
        h: int | None = None,
        v: int | None = None,
        prio: int | None = None,
    ) -> None:
        """SPCHR: change character (and optionally palette, flips, priority)."""
        self._sp.spchr(to_int(id), chr, pal, h, v, prio)

    def spanim(self, id: int, n: int, t: int, loop: int = 0) -> None:
        """SPANIM: cycle n characters, t frames each; loop 0 = forever."""
        self._sp.spanim(to_int(id), n, t, loop)

    def spangle(self, id: int, deg: float, t: int = 0, direction: int = 1) -> None:
        """SPANGLE: clockwise rotation about the home point (ids 0-31)."""
        self._sp.spangle(to_int(id), deg, t, direction)

    def spscale(self, id: int, pct: float, t: int = 0) -> None:
        """SPSCALE: 0-200 % about the home point (ids 0-31)."""
        self._sp.spscale(to_int(id), pct, t)

    def spsetv(self, id: int, i: int, val: float) -> None:
        """SPSETV: store per-sprite variable i (0-7)."""
        i = to_int(i)
        if not 0 <= i <= 7:
            raise OutOfRange(f"sprite variable {i} not in 0-7")
        self._sp.live(to_int(id), "SPSETV").vars[i] = val

    def spgetv(self, id: int, i: int) -> float:
        """SPGETV: read per-sprite variable i (0-7)."""
        i = to_int(i)
        if not 0 <= i <= 7:
            raise OutOfRange(f"sprite variable {i} not in 0-7")
        return self._sp.live(to_int(id), "SPGETV").vars[i]

    def spread(self, id: int) -> SpriteState:
        """SPREAD: (x, y, angle, scale, chr) now; chr is the base, not the animation frame."""
        return self._sp.spread(to_int(id))

    def spchk(self, id: int) -> int:
        """SPCHK: 1 moving, 2 rotating, 4 scaling, 8 animating."""
        return self._sp.spchk(to_int(id))

    def spcol(
        self,
        id: int,
        x: int,
        y: int,
        w: int,
        h: int,
        scaleflag: bool = True,
        group: int = 0xFF,
    ) -> None:
        """SPCOL: hitbox relative to the sprite box, scale flag and 8-bit group mask."""
        self._sp.spcol(to_int(id), x, y, w, h, scaleflag, group)

    def spcolvec(self, id: int, dx: float, dy: float) -> None:
        """SPCOLVEC: per-frame displacement used for swept collision."""
        self._sp.spcolvec(to_int(id), dx, dy)

    def sphit(self, id: int, start: int = 0) -> bool:
        """SPHIT: does sprite id touch another active sprite from ``start`` on?"""
        return self._sp.sphit(to_int(id), to_int(start))

    def sphitsp(self, a: int, b: int) -> bool:
        """SPHITSP: do sprites a and b touch? (SPHITNO is left alone.)"""
        return self._sp.sphitsp(to_int(a), to_int(b))

    def sphitrc(
        self, id: int, x: float, y: float, w: float, h: float, dx: float = 0, dy: float = 0
    ) -> bool:
        """SPHITRC: does the sprite touch the rectangle (moving dx, dy per frame)?"""
        return self._sp.sphitrc(to_int(id), x, y, w, h, dx, dy)

    @property
    def sphitno(self) -> int:
        """SPHITNO: the sprite found by the last SPHIT (-1 before any hit)."""
        return self._sp.hitno

    @property
    def sphitx(self) -> float:
        """SPHITX: x of the tested sprite at first contact."""
        return self._sp.hit.x

    @property
    def sphity(self) -> float:
        """SPHITY: y of the tested sprite at first contact."""
        return self._sp.hit.y

    @property
    def sphitt(self) -> float:
        """SPHITT: time of first contact along the SPCOLVEC sweep, 0-1."""
        return self._sp.hit.t

    # -- GRP -------------------------------------------------------------------
    @property
    def _gvideo(self) -> ScreenVideo:
        return self.screens[self._gpage]

    @property
    def _page(self) -> GrpPage:
        return self.grp_pages[self._gvideo.grp_draw]

    def _c(self, c: int | None) -> int:
        return self._gcolor if c is None else to_int(c) & 0xFF

    def gcls(self, c: int | None = None) -> None:
        """GCLS [c]: fill the drawing page with colour c, by default the current GCOLOR."""
        self._page.clear(self._c(c))

    def gcolor(self, c: int) -> None:
        """GCOLOR c (0-255): default colour of the GRP verbs, one value for both
        screens ([SBC] graphics.c ``cmd_gcolor`` keeps one ``graphics.color``)."""
        value = to_int(c)
        if not 0 <= value <= 255:
            raise OutOfRange(f"GCOLOR {value} not in 0-255")
        self._gcolor = value

    def gpset(self, x: int, y: int, c: int | None = None) -> None:
        """GPSET: plot one pixel (the page and the integers worked out inline: programs
        plot hundreds a frame, issue 23 item 4)."""
        page = self.grp_pages[self.screens[self._gpage].grp_draw]
        colour = self._gcolor if c is None else (c if type(c) is int else to_int(c)) & 0xFF
        page.point(
            x if type(x) is int else to_int(x),
            y if type(y) is int else to_int(y),
            colour,
            self._xor,
        )

    def gline(self, x1: int, y1: int, x2: int, y2: int, c: int | None = None) -> None:
        """GLINE: a line, both ends included (a level or upright one is the same pixels
        as a one-pixel GFILL, which fills a slice instead of making the points)."""
        a, b, p, q = to_int(x1), to_int(y1), to_int(x2), to_int(y2)
        if a == p or b == q:
            self._page.fill_rect(a, b, p, q, self._c(c), self._xor)
            return
        self._page.line(a, b, p, q, self._c(c), self._xor)

    def gbox(self, x1: int, y1: int, x2: int, y2: int, c: int | None = None) -> None:
        """GBOX: rectangle outline."""
        self._page.box(to_int(x1), to_int(y1), to_int(x2), to_int(y2), self._c(c), self._xor)

    def gfill(self, x1: int, y1: int, x2: int, y2: int, c: int | None = None) -> None:
        """GFILL: filled rectangle."""
        self._page.fill_rect(to_int(x1), to_int(y1), to_int(x2), to_int(y2), self._c(c), self._xor)

    def gload(self, x: int, y: int, indices: npt.NDArray[np.uint8]) -> None:
        """GLOAD (as in SmileBASIC 3): copy a (height, width) array of COL2 indices to
        the drawing page with its top-left at (x, y), clipped; for pictures such as a
        camera preview.

        Raises:
            IllegalFunctionCall: ``indices`` is not a 2-D array.
        """
        array = np.asarray(indices)
        if array.ndim != 2:
            raise IllegalFunctionCall(f"GLOAD needs a 2-D array of colours, not {array.shape}")
        self._page.load(int(x), int(y), (array.astype(np.int64) & 0xFF).astype(np.uint8))

    def gcircle(
        self,
        x: int,
        y: int,
        r: int,
        c: int | None = None,
        start: int | None = None,
        end: int | None = None,
    ) -> None:
        """GCIRCLE x,y,r[,c[,start,end]]: circle outline of radius r, or the arc of it
        from ``start`` to ``end`` degrees, clockwise on the screen from +X (0 is right,
        90 down), both ends drawn (:func:`petitcom_shim.video.grp.on_arc`)."""
        if r < 0:
            raise OutOfRange(f"GCIRCLE radius {r} is negative")
        if (start is None) != (end is None):
            raise IllegalFunctionCall("GCIRCLE needs both a start and an end angle")
        cx, cy = to_int(x), to_int(y)
        xs, ys = circle_points(cx, cy, to_int(r))
        if start is not None and end is not None:
            keep = on_arc(xs, ys, cx, cy, to_int(start), to_int(end))
            xs, ys = xs[keep], ys[keep]
        self._page.plot(xs, ys, self._c(c), self._xor)

    def gpaint(self, x: int, y: int, c: int | None = None, border: int | None = None) -> None:
        """GPAINT: flood fill from (x, y); with ``border``, fill up to that colour."""
        edge = None if border is None else to_int(border) & 0xFF
        self._page.paint(to_int(x), to_int(y), self._c(c), edge)

    def gputchr(self, x: int, y: int, res: str, chr: int, pal: int, scale: int) -> None:
        """GPUTCHR: draw a CHR tile (scale 1/2/4/8) and copy its palette into COL2.

        The 16 colours of palette ``pal`` of COL1 (SP banks) or COL0 (others)
        become COL2 colours 16*pal..16*pal+15 of the GRP screen.
        """
        if not 0 <= pal <= 15:
            raise OutOfRange(f"palette {pal} not in 0-15")
        if not 0 <= chr <= 255:
            raise OutOfRange(f"character {chr} not in 0-255")
        ref = self._ref(res, self._gpage)
        tile = self.chr.bank(ref)[chr]
        self._page.blit_chr(to_int(x), to_int(y), tile, to_int(pal), to_int(scale))
        self._gvideo.palettes.copy_palette(1 if ref.family.startswith("SP") else 0, to_int(pal))

    def gprio(self, p: int) -> None:
        """GPRIO: where the GRP page sits among the layers (0 front - 3 back)."""
        if not 0 <= p <= 3:
            raise OutOfRange(f"GPRIO {p} not in 0-3")
        self._gvideo.gprio = to_int(p)

    def gspoit(self, *args: float) -> int:
        """GSPOIT([page,]x,y): colour of a pixel of GRP page ``page`` (0-3) or, without
        it, of the drawing page; -1 off the page ([SBS] docs-ptc-graphics)."""
        if len(args) == 3:
            page = self.grp_pages[check_page(to_int(args[0]))]
        elif len(args) == 2:
            page = self._page
        else:
            raise IllegalFunctionCall(f"GSPOIT takes [page,]x,y, got {len(args)} values")
        return page.get(to_int(args[-2]), to_int(args[-1]))

    def gcopy(self, *args: float) -> None:
        """GCOPY [src,]x1,y1,x2,y2,x3,y3,mode: copy a rectangle of page ``src`` (by
        default the drawing page itself) to (x3, y3) of the drawing page.

        Mode 0 skips colour-0 pixels; mode 1 copies everything.
        """
        if len(args) == 8:
            src, x1, y1, x2, y2, x3, y3, mode = args
            source = self.grp_pages[check_page(to_int(src))]
        elif len(args) == 7:
            x1, y1, x2, y2, x3, y3, mode = args
            source = self._page
        else:
            raise IllegalFunctionCall(f"GCOPY takes 7 or 8 values, got {len(args)}")
        x1, y1, x2, y2, x3, y3 = (to_int(v) for v in (x1, y1, x2, y2, x3, y3))
        self._page.copy_from(source, x1, y1, x2, y2, x3, y3, to_int(mode))

    def gdrawmd(self, xor: bool | int) -> None:
        """GDRAWMD: 1/True = XOR drawing, 0/False = normal."""
        self._xor = bool(xor)

    # -- input -----------------------------------------------------------------
    def button(self, mode: int = 0) -> int:
        """BUTTON(mode): 0 held, 1 pressed with auto-repeat, 2 pressed, 3 released."""
        return self.input.button(mode)

    def btrig(self) -> int:
        """BTRIG(): the same as BUTTON(1)."""
        return self.input.button(1)

    def brepeat(self, bit: int, start: int | None = None, interval: int | None = None) -> None:
        """BREPEAT: auto-repeat of BUTTON(1) for button bit index 0-11."""
        self.input.brepeat(bit, start, interval)

    @property
    def tchx(self) -> int:
        """TCHX: stylus x (kept after release)."""
        return self.input.tchx

    @property
    def tchy(self) -> int:
        """TCHY: stylus y (kept after release)."""
        return self.input.tchy

    @property
    def tchst(self) -> int:
        """TCHST: 1 while the lower screen is touched."""
        return self.input.tchst

    @property
    def tchtime(self) -> int:
        """TCHTIME: frames the current touch has lasted (0 when released)."""
        return self.input.tchtime

    def inkey(self) -> str:
        """INKEY$(): the next character typed on the keyboard (PTC charset), or ""."""
        return self.input.inkey()

    def keys_waiting(self) -> bool:
        """Whether a typed key event waits to be read (INKEY$ would take one)."""
        return self.input.keys_waiting()

    @property
    def keyboard(self) -> int:
        """KEYBOARD: the software-keyboard key (1-69) typing this frame, else 0.

        A held key types on its first frame and then auto-repeats (30 frames,
        then every 4). A key of the real keyboard reads as the KYA key typing the
        same character (Q is 18, Enter 60, Backspace 15) on the frame it went down.
        """
        return self._panel.keyboard_code or self.input.keyboard_code

    @property
    def panel_key(self) -> int:
        """The panel's touch area pressed down this frame (no auto-repeat), else 0:
        what KEYBOARD reports (1-69) and the keys it does not: 70 HELP, 71
        RUN/STOP, 72 EDIT, 80/81 the ICONPAGE buttons, 90-93 the icons, 101-105
        the function keys (codes in :mod:`petitcom_shim.keyboard`). DIRECT mode
        reads RUN/STOP and EDIT here; only a touch presses them (no PC key stands
        for them). A held key acts once."""
        return self._panel.just_pressed

    @property
    def insert_mode(self) -> bool:
        """True while typing inserts at the cursor, False while it overwrites: the
        keyboard's INS key (lit while inserting) and the PC's Insert key toggle it."""
        return self._panel.insert

    def toggle_insert(self) -> None:
        """Switch between insert and overwrite, as the keyboard's INS key does."""
        self._panel.toggle_insert()

    @property
    def panel(self) -> str:
        """The panel PNLTYPE last chose ("OFF" at start; the keyboard keys may switch it)."""
        return self._panel.kind

    def pnltype(self, kind: str) -> None:
        """PNLTYPE "OFF"|"PNL"|"KYA"|"KYM"|"KYK": the lower screen's panel or keyboard.

        Raises:
            IllegalFunctionCall: any other name.
        """
        self._panel.set_kind(kind)

    def pnlstr(self, x: int, y: int, text: str, c: int = 0) -> None:
        """PNLSTR x,y,text[,c]: text on the panel's own layer in COL0 palette c."""
        self._panel.pnlstr(x, y, text, c)

    def key(self, n: int, text: str) -> None:
        """KEY n,text: what function key n (1-5) of the keyboard types."""
        self._panel.set_function_key(n, text)

    @property
    def funcno(self) -> int:
        """FUNCNO: the function key (1-5) typing this frame, else 0."""
        return self._panel.funcno

    def iconset(self, slot: int, icon: int) -> None:
        """ICONSET slot,icon: show icon picture 0-64 in slot 0-3."""
        self._panel.iconset(slot, icon)

    def iconclr(self, slot: int | None = None) -> None:
        """ICONCLR [slot]: empty one icon slot or all four."""
        self._panel.iconclr(slot)

    def iconchk(self) -> int:
        """ICONCHK(): the icon slot (0-3) touched this frame, else -1."""
        return self._panel.iconchk

    @property
    def iconpuse(self) -> bool:
        """ICONPUSE: whether the ICONPAGE up/down buttons are shown."""
        return self._panel.iconpuse

    @iconpuse.setter
    def iconpuse(self, value: bool) -> None:
        self._panel.set_iconpuse(value)

    @property
    def iconpage(self) -> int:
        """ICONPAGE: the icon page 0..ICONPMAX (the up/down buttons change it)."""
        return self._panel.iconpage

    @iconpage.setter
    def iconpage(self, value: float) -> None:
        self._panel.iconpage = value

    @property
    def iconpmax(self) -> int:
        """ICONPMAX: the last icon page (0 or more)."""
        return self._panel.iconpmax

    @iconpmax.setter
    def iconpmax(self, value: float) -> None:
        self._panel.iconpmax = value

    def line_input(self, timeout: int | None = None) -> str | None:
        """Read one line typed on the software or the real keyboard, echoing it on
        the console as PTC's INPUT does, and return it (without the ENTER).

        The line is edited on the console row the cursor is on, from column 0, up
        to 32 characters ([SBC] ``shared_input``); LEFT/RIGHT move the cursor in
        it, typing inserts there and BS/Backspace (or Y) erases the character before
        it; ENTER or the A button (or ESC) ends it and moves the cursor to the next line; a
        cursor blinks where the next character goes. Frames run
        meanwhile (so the keyboard can be touched).

        Args:
            timeout: give up after this many frames (None: wait as long as it takes).

        Meanwhile Enter, Backspace and Escape press no DS button
        (:attr:`Input.text_mode`), so with ``select_break`` Backspace edits
        instead of breaking; other SELECT keys and buttons still break.

        Returns:
            The line, or None when it was cancelled (the keyboard's ESC key or
            Escape), the window was closed or the time ran out.
        """
        editor = LineEditor(self._con)
        frames = 0
        self.input.text_mode = True
        try:
            while self.running and (timeout is None or frames < timeout):
                editor.blink(frames)
                self.vsync()
                frames += 1
                arrows = self.input.button(1)  # held arrows repeat, as BREPEAT says
                if arrows & (Button.LEFT | Button.RIGHT) and not editor.done:
                    editor.move(-1 if arrows & Button.LEFT else 1)
                while not editor.done and (event := self.input.read_key()) is not None:
                    editor.feed(event)
                # The pad edits too ([SBC] shared_input): Y erases (repeating as
                # BREPEAT says), A ends the line as ENTER does.
                if arrows & Button.Y and not editor.done:
                    editor.feed(BACKSPACE_KEY)
                if self.input.button(2) & Button.A and not editor.done:
                    editor.feed(charset.NEWLINE)
                if editor.done:
                    return editor.text
            editor.close()
            return None
        finally:
            self.input.text_mode = False

    def now(self) -> datetime.datetime:
        """The machine's date and time: ``clock_start`` plus its frames, or the host's clock."""
        if self.clock_start is None:
            return datetime.datetime.now()
        return self.clock_start + datetime.timedelta(seconds=self._frames // FPS)

    @property
    def date(self) -> str:
        """DATE$: the date as "YYYY/MM/DD" ([SBC] sys_date); see :attr:`clock_start`."""
        return self.now().strftime("%Y/%m/%d")

    @property
    def time(self) -> str:
        """TIME$: the time as "HH:MM:SS" ([SBC] sys_time); see :attr:`clock_start`."""
        return self.now().strftime("%H:%M:%S")

    def dropped_files(self) -> list[Path]:
        """Files dropped on any window since the last call."""
        return self.input.dropped_files()

    def edit_keys(self) -> list[str]:
        """Clipboard shortcuts typed since the last call: "copy" (Ctrl+C) and "paste"
        (Ctrl+V), Cmd on macOS. An extension: Petit Computer had no clipboard."""
        return self.input.edit_keys()

    # -- sound -----------------------------------------------------------------
    def _open_sound(self, *, enabled: bool) -> tuple[Sound, Bgm]:
        """Make the BEEP player and the BGM player (``enabled``: on the mixer, opened
        now; else silent, touching no audio device)."""
        from petitcom_shim.bgm import Bgm
        from petitcom_shim.sound import Sound

        sound = self._sound = Sound(enabled=enabled)
        bgm = self._bgm = Bgm(enabled=sound.enabled, clock=lambda: self._frames / FPS)
        return sound, bgm

    @property
    def sound(self) -> Sound:
        """The BEEP player (:class:`~petitcom_shim.sound.Sound`); silent without audio.

        A machine with sound opens it in its constructor; a silent one (headless)
        makes it when it is first used, the same silent player it would have made
        at once, so a run that plays nothing never imports the sound modules.
        """
        if self._sound is None:
            return self._open_sound(enabled=False)[0]
        return self._sound

    @property
    def bgm(self) -> Bgm:
        """The BGM player (:class:`~petitcom_shim.bgm.Bgm`): made with :attr:`sound`."""
        if self._bgm is None:
            return self._open_sound(enabled=False)[1]
        return self._bgm

    def beep(self, n: int = 0, pitch: int = 0, vol: int = 127, pan: int = 64) -> None:
        """BEEP: play preset sound effect n (0-69); silent without audio."""
        self.sound.beep(n, pitch, vol, pan)

    def bgmplay(self, *args: int | str) -> None:
        """BGMPLAY song / track,song[,vol] / "mml"[,"mml"...]: play a song and return at once.

        Songs 0-29 are our own presets, 128-255 user songs (BGMSET); MML strings
        play on track 0. Silent without audio, but BGMCHK still follows the song.

        Raises:
            OutOfRange: a track, song or volume out of range.
            MmlError: bad MML.
            IllegalFunctionCall: arguments of no BGMPLAY form.
        """
        from petitcom_shim.bgm import parse_play_args
        from petitcom_shim.mml import parse as parse_mml

        track, song, vol = parse_play_args(_floored(args))
        tune = parse_mml(*song) if isinstance(song, tuple) else self.bgm.song(song)
        self.bgm.play(track, tune, vol)

    def bgmstop(self, track: int | None = None, fade: float = 0) -> None:
        """BGMSTOP [track[,fade]]: stop one track or all, fading out over ``fade`` seconds
        (a fraction allowed and not floored, [WIKI] BGMSTOP; the track is floored)."""
        self.bgm.stop(None if track is None else to_int(track), fade)

    def bgmvol(self, *args: int) -> None:
        """BGMVOL [track,]vol: a track's volume 0-127 (track 0 when omitted)."""
        values = [to_int(a) for a in args]
        if len(values) == 1:
            self.bgm.volume(0, values[0])
        elif len(values) == 2:
            self.bgm.volume(values[0], values[1])
        else:
            raise IllegalFunctionCall("BGMVOL takes vol or track,vol")

    def bgmchk(self, track: int = 0) -> int:
        """BGMCHK(track): 1 while the track plays, else 0 (by machine time, also when silent)."""
        return int(self.bgm.check(to_int(track)))

    def bgmset(self, n: int, *mml: str) -> None:
        """BGMSET n,"mml"...: define user song n (128-255); it is rendered ahead."""
        self.bgm.set(to_int(n), *mml)

    def bgmsetd(self, n: int, data: Iterable[object]) -> None:
        """BGMSETD n,@label: user song n from DATA strings, up to the first number."""
        self.bgm.setd(to_int(n), data)

    def bgmclear(self, n: int | None = None) -> None:
        """BGMCLEAR [n]: forget user song n, or every user song."""
        self.bgm.clear(None if n is None else to_int(n))

    def bgmprg(self, *args: int | str) -> None:
        """BGMPRG instr,[key,][a,d,s,r,]wave$: instrument 224-255 from one waveform cycle."""
        self.bgm.program(*args)

    def bgmsetv(self, track: int, n: int, value: int) -> None:
        """BGMSETV track,n,value: set MML variable ``$n`` of the song playing on a track."""
        self.bgm.setv(to_int(track), to_int(n), to_int(value))

    def bgmgetv(self, track: int, n: int) -> int:
        """BGMGETV(track,n): MML variable ``$n`` of the playing song, -1 if unset/none."""
        return self.bgm.getv(to_int(track), to_int(n))

    @property
    def sysbeep(self) -> int:
        """SYSBEEP: 1 while system sounds are on, 0 when off ([WIKI] SYSBEEP)."""
        return int(self.sound.system_sounds)

    @sysbeep.setter
    def sysbeep(self, value: float) -> None:
        self.sound.system_sounds = to_int(value) != 0
