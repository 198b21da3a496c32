"""BASIC's panel keywords (petitcom_shim/basic/kw_panel.py): INPUT, LINPUT and the panel.

INPUT's prompt, "?Redo from start" and the line on its own console row follow
[SBC] source/subsystem/console.c ``con_prompt``/``con_reprompt``/``cmd_input``;
CANCEL/RESULT and the "," prompt form are our decisions (docs/petitcom-decisions.md
"Panel and keyboard"). Lines are typed on the software keyboard (taps) or queued
as the real keyboard would.
"""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest

from petitcom_shim import Machine
from petitcom_shim import keyboard as kb
from petitcom_shim.basic import Interpreter
from petitcom_shim.basic.numbers import from_int
from petitcom_shim.input import CANCEL_KEY, Button


@pytest.fixture
def m() -> Iterator[Machine]:
    machine = Machine(headless=True)
    yield machine
    machine.close()


def _run(m: Machine, source: str, max_frames: int = 600) -> Interpreter:
    interp = Interpreter(m)
    interp.load(source.replace("\n", "\r").encode("ascii"))
    result = interp.run(max_frames=max_frames)
    assert result.status == "ended", result
    return interp


def _row(m: Machine, y: int) -> bytes:
    return bytes(m.screens[0].console.codes[y]).rstrip(b"\x00")


def _tap(m: Machine, code: int) -> None:
    key = next(k for k in kb.KEYS if k.code == code)
    m.input.touch(key.x + key.w // 2, key.y + key.h // 2)
    m.vsync()
    m.input.untouch()
    m.vsync()


def test_input_with_a_prompt_typed_on_the_software_keyboard(m: Machine) -> None:
    """'INPUT "AGE";A': "AGE?" then the line on the next row; RESULT is TRUE."""
    m.pnltype("KYA")
    for code in (5, 3, kb.ENTER):  # 4 2 ENTER (keys 2-11 type 1-9, 0)
        _tap(m, code)
    interp = _run(m, 'INPUT "AGE";A\n')
    assert interp.rt.get_var("A") == from_int(42)
    assert interp.rt.result == from_int(1)
    assert [_row(m, y) for y in range(3)] == [b"AGE?", b"42", b""]
    assert (m.csrx, m.csry) == (0, 2)


def test_input_several_variables_and_the_plain_prompt(m: Machine) -> None:
    m.input.type_text("-1.5,ｱB\n")
    interp = _run(m, "INPUT X,S$\n")
    assert interp.rt.get_var("X") == -(3 << 11)
    assert interp.rt.get_var("S$") == b"\xb1B"
    assert _row(m, 0) == b"?"


def test_input_comma_form_prompts_without_question_mark(m: Machine) -> None:
    m.input.type_text("5\n")
    _run(m, 'INPUT "N=",N\n')
    assert _row(m, 0) == b"N="


def test_redo_from_start_on_a_bad_number_or_a_wrong_count(m: Machine) -> None:
    m.input.type_text("ABC\n1,2\n7\n")
    interp = _run(m, 'INPUT "V";V\n')
    assert interp.rt.get_var("V") == from_int(7)
    rows = [_row(m, y) for y in range(8)]
    assert rows[:7] == [
        b"V?",
        b"ABC",
        b"?Redo from start",
        b"V?",
        b"1,2",
        b"?Redo from start",
        b"V?",
    ]
    assert rows[7] == b"7"


def test_linput_takes_the_whole_line(m: Machine) -> None:
    m.input.type_text("A,B C\n")
    interp = _run(m, 'LINPUT "NAME";N$\n')
    assert interp.rt.get_var("N$") == b"A,B C"
    assert _row(m, 0) == b"NAME?"


def test_cancel_leaves_the_variable_and_sets_result(m: Machine) -> None:
    m.input.type_text("12")
    m.input.queue_keys([CANCEL_KEY])
    interp = _run(m, "A=3:INPUT A:?RESULT\n")
    assert interp.rt.get_var("A") == from_int(3)
    assert interp.rt.result == from_int(-1)
    assert [_row(m, y) for y in range(3)] == [b"?", b"12", b"-1"]


def test_frame_limit_stops_the_program_waiting_at_input(m: Machine) -> None:
    """A run's frame limit (or a closed window) stops INPUT instead of waiting forever;
    CONT runs the INPUT again, as PTC asks again after a break there."""
    interp = Interpreter(m)
    interp.load(b'A=1:?"X";:INPUT "N";A:B=A*2\r')
    result = interp.run(max_frames=10)
    assert (result.status, result.line) == ("stopped", 1)
    assert interp.rt.get_var("A") == from_int(1)
    m.input.type_text("21\n")
    assert interp.cont(max_frames=100).status == "ended"
    assert interp.rt.get_var("A") == from_int(21)
    assert interp.rt.get_var("B") == from_int(42)
    # the prompt is shown again (the statement before the INPUT does not run again)
    assert [_row(m, y) for y in range(3)] == [b"XN?", b"N?", b"21"]


def test_input_and_linput_into_array_elements(m: Machine) -> None:
    """INPUT A(1),B$(2) and LINPUT C$(3): array elements are outputs like variables
    (issue 23: they used to be a Type mismatch)."""
    m.input.type_text("5,X\nHELLO, YOU\n")
    it = _run(m, "DIM A(3),B$(3),C$(4):INPUT A(1),B$(2):LINPUT C$(3):?A(1);B$(2);C$(3)\n")
    assert it.rt.result == from_int(1)
    assert [_row(m, y) for y in range(5)] == [b"?", b"5,X", b"?", b"HELLO, YOU", b"5XHELLO, YOU"]


def test_the_a_button_ends_the_line_and_y_erases(m: Machine) -> None:
    """[SBC] shared_input: the A button ends INPUT's line as ENTER does, Y erases the
    character before the cursor (docs/petitcom-decisions.md "Published programs")."""
    interp = Interpreter(m)
    interp.load(b"INPUT A:B=A*2\r")
    m.input.type_text("123")  # typed, then on the same frame Y erases 3 and A ends the line
    m.input.press(Button.Y)
    m.input.press(Button.A)
    assert interp.run(max_frames=100).status == "ended"
    assert interp.rt.get_var("B") == from_int(24)


def test_typing_a_letter_mapped_to_a_button_does_not_end_the_line(m: Machine) -> None:
    """In a window "x" is the A button; while a line is typed it types x instead."""
    m.input.text_mode = True
    m.input.key_down(pygame.K_x)
    m.input.latch()
    assert not m.input.button(0) & Button.A
    m.input.text_mode = False
    m.input.key_down(pygame.K_z)
    m.input.latch()
    assert m.input.button(0) & Button.B


def test_cont_after_a_break_at_linput_inside_if_asks_again(m: Machine) -> None:
    """SELECT at LINPUT (in a THEN branch) stops the program; CONT asks again."""
    interp = Interpreter(m)
    interp.load(b'A=1:IF A THEN LINPUT S$:?"GOT ";S$\r')
    m.input.press(Button.SELECT)
    result = interp.run(max_frames=50)
    assert result.status == "stopped"
    m.input.release(Button.SELECT)
    m.input.type_text("HI\n")
    assert interp.cont(max_frames=100).status == "ended"
    assert interp.rt.get_var("S$") == b"HI"


def test_panel_statements_reach_the_machine(m: Machine) -> None:
    _run(
        m,
        'PNLTYPE "KYK":KEY 2,"LIST":ICONSET 1,9:ICONPMAX=2.5:ICONPAGE=9:ICONPUSE=TRUE\n'
        'PNLSTR 30,4,"ABC",5\n'
        "P=ICONPAGE:Q=ICONPMAX:R=ICONPUSE\n",
    )
    panel = m._panel
    assert m.panel == "KYK"
    assert panel.function_keys[1] == b"LIST"
    assert panel.icons == [None, 9, None, None]
    assert (m.iconpmax, m.iconpage, m.iconpuse) == (2, 2, True)
    assert bytes(panel.text.codes[4, 30:]) == b"AB"


def test_iconchk_funcno_and_keyboard_in_a_program(m: Machine) -> None:
    """A touch held from before the run: the icon answers on the frame after ICONSET."""
    icon = kb.ICON_AREAS[2]
    m.input.touch(icon.x + 4, icon.y + 4)
    interp = _run(m, "ICONSET 2,0:A=ICONCHK():VSYNC 1:B=ICONCHK():F=FUNCNO:K=KEYBOARD\n")
    rt = interp.rt
    assert (rt.get_var("A"), rt.get_var("B")) == (from_int(-1), from_int(2))
    assert (rt.get_var("F"), rt.get_var("K")) == (0, 0)


def test_pnltype_rejects_a_bad_name(m: Machine) -> None:
    interp = Interpreter(m)
    interp.load(b'PNLTYPE "ABC"\r')
    result = interp.run(max_frames=10)
    assert result.status == "error"
    assert result.error is not None and result.error.startswith("Illegal function call")


def test_inkey_gives_kana_typed_on_the_kana_keyboard(m: Machine) -> None:
    """INKEY$ returns PTC codes: the KYK key 2 types ｱ (&HB1), not a Latin-1 stand-in."""
    m.pnltype("KYK")
    _tap(m, 2)
    interp = _run(m, "K$=INKEY$()\n")
    assert interp.rt.get_var("K$") == b"\xb1"
