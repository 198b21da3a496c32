"""One screen's video state and its composition into a 256x192 frame.

Layers are drawn back to front exactly as petitcom.md §1.3 lists them::

    backdrop, GRP (GPRIO 3), sprites prio 3, BG1, GRP (2), sprites 2, BG0,
    GRP (1), sprites 1, console (COLOR backgrounds, then text), GRP (0), sprites 0

On the lower screen the panel (:mod:`petitcom_shim.video.panel`) adds its keyboard
or panel and PNLSTR's text right after the console and its icons in front of all;
while shown it hides that screen's sprites (and a keyboard its GRP page) as [SBC] does.

Among sprites of equal priority the higher id is in front (as both emulators draw; see
docs/petitcom-decisions.md). The backdrop is COL0 colour 0 (DS rule).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pygame

from petitcom_shim.video.bg import BGScreen
from petitcom_shim.video.chr import ChrStore
from petitcom_shim.video.console import Console
from petitcom_shim.video.grp import GrpPage
from petitcom_shim.video.palette import KEY_PIXEL, Palettes
from petitcom_shim.video.panel import Panel
from petitcom_shim.video.sprites import SpriteScreen, TransformCache
from petitcom_shim.video.surfaces import RLE_AFTER, surface_from_pixels

__all__ = ["ScreenVideo", "Visibility"]


@dataclass
class Visibility:
    """VISIBLE flags; they apply to both screens. The console flag hides text only."""

    console: bool = True
    panel: bool = True
    bg0: bool = True
    bg1: bool = True
    sprites: bool = True
    graphics: bool = True


class ScreenVideo:
    """Palettes, console, BG layers, sprites and GRP priority of one screen."""

    def __init__(
        self,
        screen: int,
        chr_store: ChrStore,
        to_ptc: Callable[[str], bytes],
        transforms: TransformCache | None = None,
        palettes: Mapping[int, npt.NDArray[np.uint16]] | None = None,
    ) -> None:
        self.screen = screen
        self.palettes = Palettes(palettes)
        self.console = Console(screen, chr_store, self.palettes, to_ptc)
        self.bg = BGScreen(screen, chr_store, self.palettes)
        self.sprites = SpriteScreen(screen, chr_store, self.palettes, transforms)
        self.gprio = 3
        self.grp_draw = screen
        self.grp_disp = screen
        #: The lower screen's panel (None on the upper screen); Machine sets it.
        self.panel: Panel | None = None
        self._grp_key: tuple[int, int, int] = (0, -1, -1)
        self._grp_surface: pygame.Surface | None = None
        self._grp_shown = 0  # compositions the cached GRP surface has served unchanged

    def step(self) -> None:
        """Advance this screen's interpolations and animations by one frame."""
        self.sprites.step()
        self.bg.step()

    def grp_surface(self, page: GrpPage) -> pygame.Surface:
        """A GRP page in this screen's COL2 colours as a keyed 32-bit surface (cached).

        Colour 0 becomes the key pixel, so black elsewhere in COL2 stays opaque.
        """
        key = (id(page), page.version, self.palettes.version[2])
        if key != self._grp_key or self._grp_surface is None:
            lut = self.palettes.lut(2).copy()
            lut[0] = KEY_PIXEL
            self._grp_surface = surface_from_pixels(lut[page.pixels])
            self._grp_key = key
            self._grp_shown = 0
        elif self._grp_shown < RLE_AFTER:
            self._grp_shown += 1
            if self._grp_shown == RLE_AFTER:
                # A page that stays: run-length encode it, which SDL blits far faster
                # (not at once: a page drawn every few frames would pay for encoding).
                self._grp_surface.set_colorkey(KEY_PIXEL, pygame.RLEACCEL)
        return self._grp_surface

    def _show_grp(self, target: pygame.Surface, page: GrpPage) -> None:
        target.blit(self.grp_surface(page), (0, 0))

    def compose(self, target: pygame.Surface, page: GrpPage, vis: Visibility) -> None:
        """Draw the whole frame of this screen onto ``target`` (256x192)."""
        target.fill(int(self.palettes.lut(0)[0]))
        panel = self.panel
        covered = panel is not None and vis.panel and panel.kind != "OFF"
        # [SBC] display_sprite/display_graphics: a shown panel hides the lower
        # screen's sprites, and a keyboard its GRP page too.
        keyboard = covered and panel is not None and panel.keyboard_shown
        grp = page if vis.graphics and not page.empty and not keyboard else None
        if vis.sprites and not covered:
            self.sprites.prepare()
            spr = self.sprites.draw_lists()
        else:
            spr = [[], [], [], []]
        if vis.bg0 or vis.bg1:
            self.bg.prepare()
        gprio = self.gprio
        if grp is not None and gprio == 3:
            self._show_grp(target, grp)
        if spr[3]:
            target.fblits(spr[3])
        if vis.bg1:
            self.bg.draw(1, target)
        if grp is not None and gprio == 2:
            self._show_grp(target, grp)
        if spr[2]:
            target.fblits(spr[2])
        if vis.bg0:
            self.bg.draw(0, target)
        if grp is not None and gprio == 1:
            self._show_grp(target, grp)
        if spr[1]:
            target.fblits(spr[1])
        self.console.show_text = vis.console
        target.blit(self.console.surface(), (0, 0))
        if panel is not None:
            panel.draw_under(target, vis.panel)
        if grp is not None and gprio == 0:
            self._show_grp(target, grp)
        if spr[0]:
            target.fblits(spr[0])
        if panel is not None:
            panel.draw_over(target, vis.panel)
