"""The committed card sheets equal a fresh build from assets/cards and load into the machine."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np
from PIL import Image

from petitcom_shim import Machine
from royalnine import art
from royalnine.core import Card, make_deck

ROOT = Path(__file__).resolve().parent.parent


def test_built_sheets_equal_a_fresh_build(load_tool: Callable[[str], ModuleType]) -> None:
    for path, pixels in load_tool("build_cards").build_all().items():
        with Image.open(path) as img:
            assert img.mode == "P"
            assert np.array_equal(np.asarray(img, dtype=np.uint8), pixels), f"{path} is stale"


def test_every_card_has_its_own_face_and_suit_matches_colour(
    load_tool: Callable[[str], ModuleType],
) -> None:
    builder = load_tool("build_cards")
    glyphs = builder.read_glyphs()
    faces = {}
    for card in make_deck(tens=True):
        face = builder.card_face(card.rank, card.is_red, glyphs)
        ink = builder.RED if card.is_red else builder.BLUE
        other = builder.BLUE if card.is_red else builder.RED
        assert (face == ink).any() and not (face == other).any()
        assert not face[:, art.CARD_W :].any()  # the right margin of the sprite is clear
        faces[card] = face.tobytes()
    assert len(set(faces.values())) == 20


def test_art_loads_on_both_screens_and_cards_show() -> None:
    m = Machine(headless=True)
    art.load_art(m)
    for screen in (0, 1):
        m.sppage(screen)
        m.spset(1, art.card_chr(Card.parse("R7")), art.SP_NORMAL, 0, 0, 0, 32, 32)
        m.spofs(1, 100, 50)
    m.step()
    for screen in (0, 1):
        m.sppage(screen)
        red = m.colread("SP", art.SP_NORMAL * 16 + 3)
        paper = m.colread("SP", art.SP_NORMAL * 16 + 2)
        pixels = m.screen_array(screen)
        card = pixels[50 : 50 + art.CARD_H, 100 : 100 + art.CARD_W]
        assert (card == red).all(axis=2).sum() > 40  # the 7 and the heart in red ink
        assert (card == paper).all(axis=2).sum() > 300  # on white paper
    m.close()
