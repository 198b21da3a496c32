"""The text-fit check fails each kind of misfit it is meant to catch (so the walk's pass means
something): off the screen, at its edge, out of its box, on another box, under a picture or a
card, overwritten, a voicing mark into the line above, drawn around the helpers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from petitcom_shim import Machine
from royalnine import art
from royalnine.screens import draw
from royalnine.screens.draw import SpriteBoard, card_look
from royalnine.screens.fitcheck import problems
from royalnine.screens.layout import BOTTOM, TOP, Rect


@pytest.fixture
def m() -> Iterator[Machine]:
    machine = Machine(headless=True)
    art.load_art(machine)
    draw.log = draw.DrawLog()
    draw.reset_screens(machine)
    yield machine
    draw.log = None


def found(m: Machine) -> str:
    assert draw.log is not None
    return "\n".join(problems(m, draw.log))


def test_text_that_fits_passes(m: Machine) -> None:
    draw.text(m, TOP, 1, 1, "ROUND 1/5")
    draw.button(m, BOTTOM, Rect(48, 40, 160, 24), "VS CPU")
    draw.centred(m, BOTTOM, 10, "ｾｰﾌﾞｼﾀ ｼｱｲﾊ ｷｴﾏｽ")
    assert found(m) == ""


def test_text_off_the_screen_or_at_its_edge_fails(m: Machine) -> None:
    draw.text(m, TOP, 20, 1, "All placed! Tap OK")
    draw.text(m, TOP, 17, 3, "BUST! Round = 0")
    text = found(m)
    assert "'All placed! Tap OK' at (20,1) leaves the screen" in text
    assert "'BUST! Round = 0' at (17,3) touches the edge" in text


def test_a_label_outside_its_button_fails(m: Machine) -> None:
    draw.button(m, BOTTOM, Rect(48, 18, 160, 22), "CONTINUE MATCH")  # off the 8-pixel grid
    text = found(m)
    assert "off the 8-pixel grid" in text and "leaves its box" in text
    draw.reset_screens(m)
    draw.button(m, BOTTOM, Rect(48, 40, 48, 24), "CONTINUE")  # too narrow
    assert "leaves its box" in found(m)


def test_text_on_a_button_under_a_picture_or_a_card_fails(m: Machine) -> None:
    draw.button(m, BOTTOM, Rect(48, 16, 160, 24), "VS CPU")
    draw.centred(m, BOTTOM, 2, "Continue the saved match?")
    draw.picture(TOP, Rect(158, 94, 90, 90))
    draw.text(m, TOP, 17, 11, "SEND CODE 2")
    board = SpriteBoard(m, TOP)
    board.begin()
    board.show(10, card_look(None, 8, 16))
    board.end()
    draw.text(m, TOP, 1, 3, "under a card")
    text = found(m)
    assert "runs into the box" in text
    assert "'SEND CODE 2' at (17,11) is under a picture" in text
    assert "'under a card' at (1,3) runs under a card" in text


def test_overlapping_text_and_voicing_marks_into_the_line_above_fail(m: Machine) -> None:
    draw.text(m, TOP, 1, 1, "ROUND 1/5")
    draw.text(m, TOP, 5, 1, "FIRST HALF")
    draw.text(m, TOP, 1, 5, "ﾗｳﾝﾄﾞ 1/5")
    draw.text(m, TOP, 1, 6, "ｾﾞﾝﾊﾝ")
    text = found(m)
    assert "'ROUND 1/5' at (1,1) was overwritten" in text
    assert "'ｾﾞﾝﾊﾝ' at (1,6): a voicing mark runs into the line above" in text


def test_text_printed_around_the_helpers_is_reported(m: Machine) -> None:
    m.cpage(BOTTOM)
    m.locate(3, 3)
    m.print("unchecked", end="")
    assert "drawn outside the draw helpers" in found(m)


def test_a_clear_forgets_what_it_erased(m: Machine) -> None:
    draw.text(m, TOP, 1, 1, "ROUND 1/5")
    draw.clear_text(m, TOP)
    draw.text(m, TOP, 3, 1, "ROUND 2/5")
    assert found(m) == ""


def test_a_paragraph_moves_a_line_down_where_its_voicing_mark_needs_the_room(m: Machine) -> None:
    draw.paragraph(m, TOP, 1, 5, ["ﾗｳﾝﾄﾞ 1/5", "ｾﾞﾝﾊﾝ"], last_row=7)
    assert found(m) == ""
    m.cpage(TOP)
    assert m.chkchr(2, 6) in (0, 32) and m.chkchr(2, 7) not in (0, 32)  # row 6 left free
    draw.clear_text(m, TOP)
    draw.paragraph(m, TOP, 1, 5, ["ﾗｳﾝﾄﾞ 1/5", "ｾﾞﾝﾊﾝ"], last_row=6)  # no room: as asked
    assert "a voicing mark runs into the line above" in found(m)


def test_erase_blanks_cells_and_forgets_the_text_drawn_there(m: Machine) -> None:
    draw.text(m, BOTTOM, 1, 10, "Copied as text.")
    draw.erase(m, BOTTOM, 1, 10, 30)
    draw.text(m, BOTTOM, 1, 10, "READING...")
    assert found(m) == ""


def test_fold_fills_a_line_before_breaking_early_at_a_path_separator() -> None:
    text = "ABCD1234/session.json.corrupt-20261122-101010-99"
    lines = draw.fold(text, 30, 5)
    assert lines == ["ABCD1234/session.json.corrupt-", "20261122-101010-99"]  # not "ABCD1234/"
    assert (
        draw.fold("see /home/ann/.local/share/royalnine/saves", 30, 5)[0]
        == "see /home/ann/.local/share/"
    )
