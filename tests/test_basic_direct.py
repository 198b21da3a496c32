"""DIRECT mode: typed lines run as statements, RUN/LIST/NEW/CONT, files, errors, then OK."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from petitcom_shim import Button, Machine, ptcfile
from petitcom_shim.basic import Interpreter, direct
from petitcom_shim.basic.consoletext import console_text
from petitcom_shim.inputscript import ScriptFeeder, parse_script
from petitcom_shim.ptcfile import PtcFile


@pytest.fixture
def machine(tmp_path: Path) -> Iterator[Machine]:
    m = Machine(headless=True, files=tmp_path)
    yield m
    m.close()


def typed(machine: Machine, script: str, frames: int = 40) -> list[str]:
    """Type ``script`` (one K event a line, from frame 1 on) at a fresh prompt; the console."""
    events = "".join(f"{n + 1} K {line}\n" for n, line in enumerate(script.splitlines()))
    ScriptFeeder(parse_script(events)).attach(machine)
    direct.run(Interpreter(machine), frames=frames)
    return [line.rstrip() for line in console_text(machine).split("\n")[:24]]


def test_statements_and_variables(machine: Machine) -> None:
    lines = typed(machine, "?1+1\\r\nA=5\\r\n?A*2\\r")
    assert lines[:9] == [
        direct.BANNER[0],
        "",
        "OK",
        "?1+1",
        "2",
        "OK",
        "A=5",
        "OK",
        "?A*2",
    ]
    assert lines[9:11] == ["10", "OK"]


def test_backspace_edits_the_line(machine: Machine) -> None:
    lines = typed(machine, "?12\\x08\\x083\\r")
    assert lines[3:6] == ["?3", "3", "OK"]


def test_backspace_goes_back_over_a_wrapped_line(machine: Machine) -> None:
    """A typed line longer than a row wraps; backspace deletes back across the wrap."""
    lines = typed(machine, "?" + "9" * 35 + "\\x08" * 33 + "\\r")
    assert lines[3:7] == ["?99", "99", "OK", ""]


def test_errors_show_and_the_prompt_comes_back(machine: Machine) -> None:
    lines = typed(machine, 'GOTO @NOWHERE\\r\n?"STILL"\\r\nCONT\\r')
    assert lines[3:9] == ["GOTO @NOWHERE", "Undefined label", "OK", '?"STILL"', "STILL", "OK"]
    assert lines[9:12] == ["CONT", "Can't continue", "OK"]


def test_load_list_run_new_and_save(machine: Machine, tmp_path: Path) -> None:
    source = b'?"FIRST"\rSTOP\r?"SECOND"\r'
    (tmp_path / "demo.PTC").write_bytes(
        PtcFile.of("DEMO", "PRG", ptcfile.prg_payload(source)).to_bytes()
    )
    lines = typed(
        machine,
        'LOAD "DEMO"\\r\nRUN\\r\nCONT\\r\nSAVE "PRG:COPY"\\r\nNEW\\r\nFILES\\r',
        frames=60,
    )
    assert lines[3:19] == [
        'LOAD "DEMO"',
        "OK",
        "RUN",
        "FIRST",
        "OK",
        "CONT",
        "SECOND",
        "OK",
        'SAVE "PRG:COPY"',
        "OK",
        "NEW",
        "OK",
        "FILES",
        "PRG:COPY",
        "PRG:DEMO",
        "OK",
    ]
    saved = ptcfile.read_file(tmp_path / "COPY.PTC")
    assert ptcfile.prg_text(saved.payload) == source


def test_edit_mode_types_a_program_that_runs(machine: Machine) -> None:
    script = (
        "1 K EDIT\\r\n"
        '3 K ?"ONE"\\rB=2\\r?B*21\n'
        "5 B UP\n6 B 0\n"  # up one line, to the end of B=2
        "9 K \\x08\\x08=3\n"  # B=2 -> B=3
        "10 B SELECT\n11 B 0\n"
        "13 K RUN\\r\n"
    )
    ScriptFeeder(parse_script(script)).attach(machine)
    interp = Interpreter(machine)
    direct.run(interp, frames=30)
    assert interp.source == b'?"ONE"\rB=3\r?B*21\r'
    lines = [line.rstrip() for line in console_text(machine).split("\n")[:24]]
    assert lines[:5] == ["OK", "RUN", "ONE", "63", "OK"]  # leaving the editor cleared it


def test_editor_lines_cursor_and_screen() -> None:
    from petitcom_shim.basic.editor import Editor

    ed = Editor(b"AB\rCD\r")
    ed.move(Button.RIGHT)
    ed.key(ord("x"))  # AxB
    ed.move(Button.DOWN)  # to CD, column 2
    ed.key(0x0D)  # split: CD / ""
    ed.move(Button.LEFT)  # back to the end of CD
    ed.move(Button.RIGHT)  # and to the start of the empty line
    ed.key(0x08)  # join it back onto CD
    ed.move(Button.UP)
    ed.move(Button.LEFT)
    ed.key(0x08)  # at column 1 of AxB: deletes A
    assert ed.source == b"xB\rCD\r"
    assert (ed.cy, ed.cx) == (0, 0)
    long = Editor(b"?" + b"9" * 40 + b"\r")
    long.cy, long.cx = 0, 30
    rows = long.screen()
    assert rows[0] == ("    1", b"?" + b"9" * 26, None)  # 5 columns of number, 27 of text
    assert rows[1] == ("     ", b"9" * 14, 3)


def test_editor_shows_the_cursor_at_the_end_of_a_line_longer_than_the_screen() -> None:
    """A 1000-character line is 36 rows: at its end the screen shows the 24 rows that end
    at the cursor's (scrolling used to look for a top line forever)."""
    from petitcom_shim.basic.editor import Editor

    ed = Editor(b"A=1\r" + b"9" * 1000 + b"\rB=2\r")
    ed.cy, ed.cx = 1, 1000
    rows = ed.screen()
    assert len(rows) == 24
    assert rows[-1] == ("     ", b"9" * (1000 % 27), 1000 % 27)
    assert all(number == "     " for number, _, _ in rows)  # line 2's first rows are above
    ed.move(Button.DOWN)  # to B=2: it comes on the screen under the long line's end
    assert ed.screen()[-1] == ("    3", b"B=2", 3)


def test_editor_opens_far_down_a_long_program_at_once() -> None:
    """LIST n: the rows above line n are not summed again for every line scrolled."""
    from petitcom_shim.basic.editor import Editor

    ed = Editor(b"".join(b"?%d\r" % i for i in range(9_000)))
    ed.cy = 8_999
    calls = [0]
    rows_of = ed._rows

    def counted(line: bytearray) -> int:
        calls[0] += 1
        return rows_of(line)

    ed._rows = counted  # type: ignore[method-assign]
    rows = ed.screen()
    assert rows[0] == (" 8977", b"?8976", None) and rows[-1] == (" 9000", b"?8999", 0)
    assert calls[0] < 100  # one screen's lines, not 9000 sums of up to 9000 lines


def test_the_prompt_cursor_blinks_and_leaves_text_alone(machine: Machine) -> None:
    interp = Interpreter(machine)
    machine.locate(0, 1)
    machine.print("KEEP", end="")
    machine.locate(2, 1)
    seen = []
    for frames in range(1, 40, 6):
        direct.prompt_loop(interp, frames=frames)
        seen.append(machine.chkchr(2, 1))
    assert set(seen) == {ord("E")}  # never left behind
    cursor = direct._Cursor(machine)
    cursor.show(0)
    assert machine.chkchr(2, 1) == 0x8F and (machine.csrx, machine.csry) == (2, 1)
    cursor.hide()
    cursor.show(direct._Cursor.BLINK // 2)  # the dark half of the blink
    assert machine.chkchr(2, 1) == ord("E")


def test_the_software_keyboard_types_at_the_prompt(machine: Machine) -> None:
    """DIRECT mode shows PTC's keyboard (KYA); a tap on a key types it."""
    from petitcom_shim import keyboard

    interp = Interpreter(machine)
    direct.run(interp, frames=1)
    assert machine.panel == "KYA"
    key = next(k for k in keyboard.KEYS if keyboard.typed_codes("KYA", False, k.code) == b"7")
    x, y = key.x + key.w // 2, key.y + key.h // 2
    ScriptFeeder(parse_script(f"1 T {x} {y}\n2 T OFF\n")).attach(machine)
    direct.prompt_loop(interp, frames=4)
    assert console_text(machine).split("\n")[3].rstrip() == "7"


def _in_editor(machine: Machine, command: str, source: bytes, run_first: bool = False) -> bytes:
    """Type ``command`` at the prompt, then "X" and SELECT: the program as edited."""
    interp = Interpreter(machine)
    interp.load(source)
    if run_first:
        interp.run()
    f = machine.maincntl
    script = f"{f + 1} K {command}\\r\n{f + 4} K X\n{f + 6} B SELECT\n{f + 7} B 0\n"
    ScriptFeeder(parse_script(script)).attach(machine)
    direct.prompt_loop(interp, frames=10)
    return interp.source


def test_list_opens_the_editor_at_a_line(machine: Machine) -> None:
    """PTC's LIST is the editor: LIST at the first line, LIST n at line n, LIST ERR at
    the line of the last error (docs/petitcom-decisions.md, DIRECT mode)."""
    source = b"A=1\rB=2\rC=3\r"
    assert _in_editor(machine, "LIST", source) == b"XA=1\rB=2\rC=3\r"
    assert _in_editor(machine, "LIST 2", source) == b"A=1\rXB=2\rC=3\r"
    assert _in_editor(machine, "LIST 99", source) == b"A=1\rB=2\rXC=3\r"
    bad = b"A=1\rB=2\rC=1/0\r"
    assert _in_editor(machine, "LIST ERR", bad, run_first=True) == b"A=1\rB=2\rXC=1/0\r"


def test_list_with_a_bad_argument_is_a_syntax_error(machine: Machine) -> None:
    lines = typed(machine, "LIST X\\r")
    assert lines[3:6] == ["LIST X", "Syntax error", "OK"]


def _tap_script(machine: Machine, code: int, after: int) -> str:
    """Script lines tapping panel key ``code`` ``after`` frames from now."""
    from petitcom_shim import keyboard

    key = next(k for k in keyboard.KEYS if k.code == code)
    f = machine.maincntl + after
    return f"{f} T {key.x + key.w // 2} {key.y + key.h // 2}\n{f + 1} T OFF\n"


def test_the_panels_run_and_edit_keys_work_at_the_prompt(machine: Machine) -> None:
    """The RUN/STOP key runs the program; EDIT opens the editor (KEYBOARD never
    reports them: DIRECT mode reads Machine.panel_key)."""
    from petitcom_shim import keyboard

    interp = Interpreter(machine)
    interp.load(b'?"RAN"\r')
    direct.run(interp, frames=1)
    ScriptFeeder(parse_script(_tap_script(machine, keyboard.RUN_STOP, 1))).attach(machine)
    direct.prompt_loop(interp, frames=4)
    assert "RAN" in [row.rstrip() for row in console_text(machine).split("\n")[:24]]
    f = machine.maincntl
    script = (
        _tap_script(machine, keyboard.EDIT, 1) + f"{f + 4} K Y\n{f + 6} B SELECT\n{f + 7} B 0\n"
    )
    ScriptFeeder(parse_script(script)).attach(machine)
    direct.prompt_loop(interp, frames=10)
    assert interp.source == b'Y?"RAN"\r'


def test_the_run_stop_key_breaks_a_running_program(machine: Machine) -> None:
    from petitcom_shim import keyboard

    machine.pnltype("KYA")
    interp = Interpreter(machine)
    interp.load(b"@L:VSYNC 1:GOTO @L\r")
    ScriptFeeder(parse_script(_tap_script(machine, keyboard.RUN_STOP, 5))).attach(machine)
    result = interp.run(max_frames=100)
    assert result.status == "stopped" and result.frames < 100


def test_holding_the_run_stop_key_breaks_only_once(machine: Machine) -> None:
    """A held RUN/STOP key auto-repeats for KEYBOARD's sake, but a command key acts
    once per press: the run it started is not broken by its repeats."""
    from petitcom_shim import keyboard

    machine.pnltype("KYA")
    key = next(k for k in keyboard.KEYS if k.code == keyboard.RUN_STOP)
    interp = Interpreter(machine)
    interp.load(b"@L:VSYNC 1:A=A+1:IF A<60 GOTO @L\r")
    direct.run(interp, frames=1)
    f = machine.maincntl
    script = f"{f + 1} T {key.x + 4} {key.y + 4}\n{f + 80} T OFF\n"
    ScriptFeeder(parse_script(script)).attach(machine)
    direct.prompt_loop(interp, frames=2)  # the press runs it; held past the repeat start
    assert interp.rt.get_var("A") == 60 << 12  # it ran to its end, never broken


# ------------------------------------------------------------------ issue 26: the line editor


def _prompt(machine: Machine) -> Interpreter:
    interp = Interpreter(machine)
    direct.run(interp, frames=1)
    return interp


def _keys(machine: Machine, interp: Interpreter, *events: int | str) -> None:
    """Key events (text, or negative events) then a few frames at the prompt."""
    for event in events:
        if isinstance(event, str):
            machine.input.type_text(event)
        else:
            machine.input.queue_keys([event])
    direct.prompt_loop(interp, frames=2)


def _press(machine: Machine, interp: Interpreter, button: int) -> None:
    machine.input.press(button)
    direct.prompt_loop(interp, frames=1)
    machine.input.release(button)
    direct.prompt_loop(interp, frames=1)


def _screen(machine: Machine) -> list[str]:
    return [line.rstrip() for line in console_text(machine).split("\n")[:24]]


def test_left_and_right_move_the_cursor_and_typing_inserts(machine: Machine) -> None:
    interp = _prompt(machine)
    _keys(machine, interp, "?13")
    _press(machine, interp, Button.LEFT)
    _keys(machine, interp, "2")
    _press(machine, interp, Button.RIGHT)
    _keys(machine, interp, "4\r")
    assert _screen(machine)[3:6] == ["?1234", "1234", "OK"]


def test_insert_key_switches_to_overwrite_and_back(machine: Machine) -> None:
    from petitcom_shim.input import HOME_KEY, INSERT_KEY

    interp = _prompt(machine)
    assert machine.insert_mode
    _keys(machine, interp, "?111", HOME_KEY, INSERT_KEY)
    assert not machine.insert_mode
    _keys(machine, interp, "?9", INSERT_KEY, "8", "\r")  # ?9 over ?1, then 8 inserted
    assert _screen(machine)[3:5] == ["?9811", "9811"]
    assert machine.insert_mode


def test_delete_and_the_keyboards_dl_key_delete_under_the_cursor(machine: Machine) -> None:
    from petitcom_shim import keyboard
    from petitcom_shim.input import DELETE_KEY, HOME_KEY

    interp = _prompt(machine)
    _keys(machine, interp, "??12345", HOME_KEY, DELETE_KEY)  # the first ? goes
    _press(machine, interp, Button.RIGHT)
    ScriptFeeder(parse_script(_tap_script(machine, keyboard.DELETE, 1))).attach(machine)
    direct.prompt_loop(interp, frames=4)  # the DL key: the second character (1) goes
    _keys(machine, interp, "\r")
    assert _screen(machine)[3:5] == ["?2345", "2345"]


def test_end_and_home_go_to_the_ends_of_the_line(machine: Machine) -> None:
    from petitcom_shim.input import END_KEY, HOME_KEY

    interp = _prompt(machine)
    _keys(machine, interp, "1+1", HOME_KEY, "?", END_KEY, "0\r")
    assert _screen(machine)[3:5] == ["?1+10", "11"]


def test_enter_on_an_earlier_line_runs_it_again(machine: Machine) -> None:
    """PTC's screen editor: move up to a line on the screen and press Enter."""
    interp = _prompt(machine)
    _keys(machine, interp, "A=A+1:?A\r")
    assert _screen(machine)[3:7] == ["A=A+1:?A", "1", "OK", ""]
    for _ in range(3):  # from the new prompt row past OK and 1 to the command
        _press(machine, interp, Button.UP)
    _keys(machine, interp, "\r")
    assert _screen(machine)[3:6] == ["A=A+1:?A", "2", "OK"]  # ran again, output below it
    assert (machine.csrx, machine.csry) == (0, 6)


def test_a_line_read_back_can_be_edited_before_it_runs(machine: Machine) -> None:
    interp = _prompt(machine)
    _keys(machine, interp, "?5\r")
    for _ in range(3):
        _press(machine, interp, Button.UP)
    _keys(machine, interp, "\x1b")  # ignored (no PTC code), the cursor stays at column 0
    _press(machine, interp, Button.RIGHT)
    _keys(machine, interp, "4")
    _keys(machine, interp, "\r")
    assert _screen(machine)[3:5] == ["?45", "45"]


def test_function_keys_f1_to_f5_type_the_keyboards_function_keys(machine: Machine) -> None:
    import pygame

    for key, text in zip(
        (pygame.K_F1, pygame.K_F2, pygame.K_F3, pygame.K_F4, pygame.K_F5),
        ("FILES", 'LOAD"', 'SAVE"', "CONT", "RUN"),
        strict=True,
    ):
        machine.input.key_down(key)
        typed = bytes(iter(lambda: machine.input.read_key() or 0, 0)).decode()
        assert typed == text
    interp = Interpreter(machine)
    interp.load(b'?"RAN"\r')
    direct.run(interp, frames=1)
    machine.input.key_down(pygame.K_F5)
    _keys(machine, interp, "\r")
    assert _screen(machine)[3:5] == ["RUN", "RAN"]


def test_list_with_a_range_prints_those_lines(machine: Machine) -> None:
    interp = Interpreter(machine)
    interp.load(b"A=1\rB=2\rC=3\rD=4\r")
    direct.run(interp, frames=1)
    _keys(machine, interp, "LIST 2-3\r")
    assert _screen(machine)[3:7] == ["LIST 2-3", "    2 B=2", "    3 C=3", "OK"]
    _keys(machine, interp, "LIST 4-\r")
    assert _screen(machine)[7:10] == ["LIST 4-", "    4 D=4", "OK"]


def test_the_editor_numbers_line_10000_in_its_own_columns() -> None:
    from petitcom_shim.basic.editor import Editor

    ed = Editor(b"".join(b"?%d\r" % i for i in range(10_000)))
    ed.cy = 9_999
    rows = ed.screen()
    assert rows[-1] == ("10000", b"?9999", 0)
    assert {len(number) for number, _, _ in rows} == {5}  # 9977 and 10000: one text column


def test_the_editor_home_end_delete_and_overwrite() -> None:
    from petitcom_shim.basic.editor import Editor

    ed = Editor(b"AB\rCD\rEF\r")
    ed.end()  # End used to leave the cursor at column 0
    assert ed.cx == 2
    ed.delete()  # at the end of a line: the next line joins it
    assert ed.source == b"ABCD\rEF\r"
    ed.home()
    ed.delete()
    ed.key(ord("X"), insert=False)
    assert ed.source == b"XCD\rEF\r" and ed.cx == 1


def test_the_editor_undoes_the_last_100_edits() -> None:
    from petitcom_shim.basic.editor import UNDO_DEPTH, Editor

    original = b"10 A\r20 B\r"
    ed = Editor(original)
    ed.end()
    states = [ed.source]
    for n in range(UNDO_DEPTH + 5):  # types, splits, joins and deletes
        if n % 7 == 6:
            ed.home()
            ed.delete()
        else:
            ed.key((0x0D, 0x08, ord("Z"), ord("Y"))[n % 4])
        states.append(ed.source)
    undone = 0
    while ed.undo():
        undone += 1
        assert ed.source == states[-1 - undone]
    assert undone == UNDO_DEPTH and ed.source == states[5]  # the oldest 5 are gone
    ed = Editor(original)
    ed.move(Button.DOWN)
    ed.end()  # End used to leave the cursor at column 0 ...
    for _ in range(6):
        ed.key(0x08)  # ... so Backspaces joined lines; now: "20 B", the join, then "A"
    assert ed.source == b"10 \r"
    while ed.undo():
        pass
    assert ed.source == original


def test_ctrl_z_undoes_in_the_editor(machine: Machine) -> None:
    """Typed X and Y, then Ctrl+Z: the Y is taken back (the window's key, not a method)."""
    import pygame

    from petitcom_shim.basic import editor

    interp = Interpreter(machine)
    interp.load(b"A=1\r")
    inner = machine.frontend

    class CtrlZAtFrame5:
        def pump(self, inp: Any) -> bool:
            if machine.maincntl == 4:
                inp.key_down(pygame.K_z, pygame.KMOD_LCTRL)
            return bool(inner.pump(inp))

        def __getattr__(self, name: str) -> Any:
            return getattr(inner, name)

    machine.frontend = CtrlZAtFrame5()  # type: ignore[assignment]
    machine.input.type_text("XY")
    editor.edit(interp, frames=8)
    assert interp.source == b"XA=1\r"


def test_a_still_prompt_shows_one_frame_in_three(
    machine: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 26: petitcom at the OK prompt cost 2 % of a core, the game's still title
    under 1 %. After STILL_FRAMES frames without input the prompt, like the game, lets
    two frames in three run without composing, presenting or sleeping; a key brings
    every frame back."""
    interp = _prompt(machine)
    shows: list[bool] = []
    vsync = machine.vsync

    def counted(n: int = 1, *, show: bool = True) -> None:
        shows.append(show)
        vsync(n, show=show)

    monkeypatch.setattr(machine, "vsync", counted)
    inner = machine.frontend
    key_at = machine.maincntl + direct.STILL_FRAMES + 61

    class KeyLater:
        def pump(self, inp: Any) -> bool:
            if machine.maincntl == key_at:
                inp.type_text("1")
            return bool(inner.pump(inp))

        def __getattr__(self, name: str) -> Any:
            return getattr(inner, name)

    machine.frontend = KeyLater()  # type: ignore[assignment]
    direct.prompt_loop(interp, frames=direct.STILL_FRAMES + 70)
    assert all(shows[: direct.STILL_FRAMES])
    still = shows[direct.STILL_FRAMES + 1 : direct.STILL_FRAMES + 60]
    assert sum(still) <= len(still) // direct.STILL_DRAW_EVERY + 1
    assert all(shows[direct.STILL_FRAMES + 63 :])  # a key brings back every frame
    assert _screen(machine)[3] == "1"


def test_pc_keys_typed_within_one_frame_keep_their_order(machine: Machine) -> None:
    """The PC's arrows are key events in the typing queue (and d-pad buttons): Home,
    Right, Delete sent at once (xdotool, a key macro) act in that order, not Right
    first as when the arrow was read only as a button."""
    import pygame

    interp = _prompt(machine)
    _keys(machine, interp, "?12345")
    for key in (pygame.K_HOME, pygame.K_RIGHT, pygame.K_DELETE, pygame.K_END, pygame.K_LEFT):
        machine.input.key_down(key)
        machine.input.key_up(key)
    _keys(machine, interp, "9\r")
    assert _screen(machine)[3:5] == ["?23495", "23495"]
    from petitcom_shim.basic.editor import Editor, _apply
    from petitcom_shim.input import DOWN_KEY, RIGHT_KEY

    ed = Editor(b"AB\rCD\r")
    for code in (RIGHT_KEY, DOWN_KEY, ord("x")):
        _apply(machine, ed, code)
    assert ed.source == b"AB\rCxD\r"
