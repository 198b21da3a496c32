"""The lower-screen panel (issue 15): PNLTYPE's keyboards, KEYBOARD/INKEY$ from taps,
SHIFT/CAPS, function keys, icons, PNLSTR and the line editor.

Layout facts are [SBC] source/subsystem/panel.c (``keyboard_pos``, ``key_map``,
``keyboard_chr``) and [EMK] src/PanelKeyboard.cpp; ICONPAGE's rules are [WIKI]
"ICONPAGE, ICONPMAX, and ICONPUSE"; decisions in docs/petitcom-decisions.md
"Panel and keyboard".
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pygame
import pytest

from petitcom_shim import Break, IllegalFunctionCall, Machine, OutOfRange, charset
from petitcom_shim import keyboard as kb
from petitcom_shim.display import _feed_common
from petitcom_shim.input import BACKSPACE_KEY, Input
from petitcom_shim.video.lineedit import CURSOR, CURSOR_BLINK, LineEditor
from petitcom_shim.video.panel import repeat_fires

Golden = Callable[[str, object], None]


@pytest.fixture
def m() -> Iterator[Machine]:
    machine = Machine(headless=True)
    yield machine
    machine.close()


def _key(code: int) -> kb.Key:
    return next(k for k in (*kb.KEYS, *kb.ICON_AREAS, *kb.ICON_PAGE_AREAS) if k.code == code)


def _tap(m: Machine, code: int) -> None:
    """Touch the middle of a key for one frame, then lift for one."""
    key = _key(code)
    m.input.touch(key.x + key.w // 2, key.y + key.h // 2)
    m.vsync()
    m.input.untouch()
    m.vsync()


def _typed(m: Machine) -> str:
    return "".join(iter(m.inkey, ""))


# -- layout -------------------------------------------------------------------


def test_layout_matches_the_reference_touch_grid() -> None:
    """Spot checks of [SBC] key_map's 8x8 cells: which code answers where."""
    cases = {
        (0, 48): kb.ESC, (23, 71): kb.ESC, (24, 48): 2, (231, 60): 14, (232, 60): kb.BACKSPACE,
        (0, 72): 16, (255, 95): 31, (0, 96): kb.TAB, (24, 100): 33, (247, 100): 46,
        (0, 120): kb.SHIFT, (31, 143): kb.SHIFT, (32, 120): 48, (223, 130): 59,
        (224, 120): kb.ENTER, (0, 144): kb.CAPS, (24, 150): 62, (40, 150): 63, (56, 150): 64,
        (80, 150): kb.SPACE, (191, 159): kb.SPACE, (200, 150): 66, (216, 150): 67,
        (240, 150): 68, (0, 0): 101, (47, 15): 101, (48, 0): 102, (239, 8): 105,
        (240, 0): 106, (0, 170): 70, (40, 170): 71, (88, 170): 72,
    }  # fmt: skip
    for (x, y), code in cases.items():
        key = kb.key_at(x, y)
        assert key is not None and key.code == code, (x, y)
    for x, y in ((248, 100), (20, 150), (72, 150), (100, 30), (150, 175)):
        assert kb.key_at(x, y) is None, (x, y)
    assert [kb.key_at(x, 180, kb.ICON_AREAS) for x in (160, 184, 208, 232)] == list(kb.ICON_AREAS)


def test_keys_do_not_overlap_and_cover_codes_1_to_68() -> None:
    grid = np.zeros((192, 256), np.int32)
    for key in kb.KEYS:
        assert not grid[key.y : key.y + key.h, key.x : key.x + key.w].any(), key
        grid[key.y : key.y + key.h, key.x : key.x + key.w] = key.code
    codes = {k.code for k in kb.KEYS}
    assert set(range(1, 69)) <= codes


# -- typing -----------------------------------------------------------------------

ROW_CODES = (range(2, 15), range(16, 32), range(33, 47), range(48, 60))
# As the project's charset names PTC codes (0x7F "◎", 0xA0 "〜", petitcom_shim.charset).
EXPECTED = {
    ("KYA", False): ("1234567890-+=", '$"QWERTYUIOP@*()', "!ASDFGHJKL;:<>", "'ZXCVBNM,./%"),
    ("KYA", True): ("#&^\\~◎|", "qwertyuiop`[]", "asdfghjkl{}", "zxcvbnm?_"),
    ("KYK", False): ("ｱｲｳｴｵﾅﾆﾇﾈﾉ-+=", "〜･ｶｷｸｹｺﾊﾋﾌﾍﾎ｢｣ﾝ｡", "ｻｼｽｾｿﾏﾐﾑﾒﾓﾔﾕﾖ､", "ﾀﾁﾂﾃﾄﾗﾘﾙﾚﾛﾜｦ"),
    ("KYK", True): ("ｧｨｩｪｫﾊﾟﾋﾟﾌﾟ", "ｯｳﾞｶﾞｷﾞｸﾞｹﾞｺﾞﾊﾞﾋﾞﾌﾞﾍﾞﾎﾞﾍﾟﾎﾟ", "ｻﾞｼﾞｽﾞｾﾞｿﾞ12345ｬｭｮ", "ﾀﾞﾁﾞﾂﾞﾃﾞﾄﾞ67890"),
}


@pytest.mark.parametrize("kind,shifted", sorted(EXPECTED))
def test_every_character_key_types_its_character(m: Machine, kind: str, shifted: bool) -> None:
    """[SBC] keyboard_chr, row by row (keys that type nothing are skipped)."""
    m.pnltype(kind)
    for codes, expected in zip(ROW_CODES, EXPECTED[kind, shifted], strict=True):
        for code in codes:
            if shifted:
                m._panel.shift = True  # SHIFT lasts one character: set it per key
            _tap(m, code)
        assert _typed(m) == expected, (kind, shifted, codes)


def test_symbol_keyboard_types_ptc_codes(m: Machine) -> None:
    """KYM's first row: card suits, then symbols ([SBC] keyboard_chr "kigou")."""
    m.pnltype("KYM")
    got = []
    for code in range(2, 15):
        _tap(m, code)
        event = m.input.read_key()
        assert event is not None
        got.append(event)
    assert bytes(got) == bytes.fromhex("f1f2f0f30ae51ae4e6e7100714")


def test_keyboard_reports_every_key_code(m: Machine) -> None:
    """KEYBOARD is the key's code 1-69 on the frame it types ([SBC] sys_keyboard)."""
    for code in range(1, 69):
        m.pnltype("KYA")
        key = _key(code)
        m.input.touch(key.x + key.w // 2, key.y + key.h // 2)
        m.vsync()
        assert m.keyboard == code
        m.input.untouch()
        m.vsync()
        assert m.keyboard == 0
    m.input.read_key()


def test_special_keys_type_tab_enter_space(m: Machine) -> None:
    m.pnltype("KYA")
    for code in (kb.TAB, kb.ENTER, kb.SPACE):
        _tap(m, code)
    assert charset.to_ptc(_typed(m)) == b"\t\r "


def test_shift_lasts_one_character_and_caps_stays(m: Machine) -> None:
    m.pnltype("KYA")
    q = 18  # the Q key
    _tap(m, kb.SHIFT)
    _tap(m, q)
    _tap(m, q)
    assert _typed(m) == "qQ"
    _tap(m, kb.CAPS)
    _tap(m, q)
    _tap(m, q)
    assert _typed(m) == "qq"
    _tap(m, kb.SHIFT)  # SHIFT with CAPS on: the unshifted character
    _tap(m, q)
    _tap(m, q)
    assert _typed(m) == "Qq"


def test_switch_keys_change_the_keyboard(m: Machine) -> None:
    m.pnltype("KYA")
    _tap(m, 64)
    assert m.panel == "KYK"
    _tap(m, 2)
    _tap(m, 63)
    assert m.panel == "KYM"
    _tap(m, 62)
    assert m.panel == "KYA"
    assert _typed(m) == "ｱ"


def test_a_held_key_repeats_after_30_frames_every_4(m: Machine) -> None:
    """[SBC] get_pressed_key: check_repeat(time, 30, 4)."""
    assert [f for f in range(1, 45) if repeat_fires(f)] == [1, 31, 35, 39, 43]
    m.pnltype("KYA")
    key = _key(18)
    m.input.touch(key.x + 4, key.y + 4)
    reported = []
    for _ in range(40):
        m.vsync()
        reported.append(m.keyboard)
    assert _typed(m) == "QQQQ"
    assert [i + 1 for i, code in enumerate(reported) if code] == [1, 31, 35, 39]


def test_sliding_off_a_key_releases_it_until_the_stylus_lifts(m: Machine) -> None:
    m.pnltype("KYA")
    q, w = _key(18), _key(19)
    m.input.touch(q.x + 4, q.y + 4)
    m.vsync()
    m.input.touch(w.x + 4, w.y + 4)
    m.vsync(40)
    assert _typed(m) == "Q"
    m.input.untouch()
    m.vsync()
    m.input.touch(w.x + 4, w.y + 4)
    m.vsync()
    assert _typed(m) == "W"


def test_no_keyboard_no_keys(m: Machine) -> None:
    """OFF and PNL show no keyboard: touching where keys would be types nothing."""
    for kind in ("OFF", "PNL"):
        m.pnltype(kind)
        _tap(m, 18)
        assert (m.keyboard, _typed(m)) == (0, "")


def test_hidden_panel_cannot_be_touched(m: Machine) -> None:
    m.pnltype("KYA")
    m.visible(panel=False)
    _tap(m, 18)
    assert _typed(m) == ""
    m.visible(panel=True)
    _tap(m, 18)
    assert _typed(m) == "Q"


def test_real_keyboard_enter_backspace_escape_reach_the_queue(m: Machine) -> None:
    for key in (pygame.K_RETURN, pygame.K_BACKSPACE, pygame.K_ESCAPE):
        _feed_common(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0), m.input)
    assert [m.input.read_key() for _ in range(4)] == [13, -8, -27, None]
    _feed_common(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0), m.input)
    assert m.inkey() == ""  # INKEY$ skips what is not a character


def test_real_keys_read_as_keyboard_codes_for_one_frame(m: Machine) -> None:
    """KEYBOARD fed by the real keyboard: the KYA key typing the same character."""
    cases = {pygame.K_q: 18, pygame.K_1: 2, pygame.K_EQUALS: 14, pygame.K_RETURN: kb.ENTER}
    cases |= {pygame.K_BACKSPACE: kb.BACKSPACE, pygame.K_ESCAPE: kb.ESC, pygame.K_SPACE: 65}
    cases |= {pygame.K_TAB: kb.TAB, pygame.K_F1: 0}
    for key, code in cases.items():
        _feed_common(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0), m.input)
        m.vsync()
        assert m.keyboard == code, key
        m.vsync()
        assert m.keyboard == 0
        _feed_common(pygame.event.Event(pygame.KEYUP, key=key, mod=0), m.input)


# -- function keys ----------------------------------------------------------------------


def test_function_keys_type_key_strings_and_set_funcno(m: Machine) -> None:
    m.pnltype("KYA")
    _tap(m, 105)
    assert _typed(m) == "RUN"
    m.key(2, "LIST")
    f2 = _key(102)
    m.input.touch(f2.x + 20, f2.y + 8)
    m.vsync()
    assert (m.funcno, m.keyboard) == (2, 0)
    m.input.untouch()
    m.vsync()
    assert m.funcno == 0
    assert _typed(m) == "LIST"
    for bad in (0, 6):
        with pytest.raises(OutOfRange):
            m.key(bad, "X")


# -- icons ---------------------------------------------------------------------------------


def test_icons_answer_iconchk_with_any_panel_type(m: Machine) -> None:
    """ICONCHK() is the touched slot, -1 otherwise; icons show even with "OFF" ([WIKI])."""
    assert m.panel == "OFF"
    _tap(m, 91)
    assert m.iconchk() == -1
    m.iconset(1, 7)
    icon = _key(91)
    m.input.touch(icon.x + 5, icon.y + 5)
    m.vsync()
    assert m.iconchk() == 1
    m.input.untouch()
    m.vsync()
    assert m.iconchk() == -1
    m.iconclr(1)
    _tap(m, 91)
    assert m.iconchk() == -1
    for args in ((4, 0), (0, 65), (-1, 0)):
        with pytest.raises(OutOfRange):
            m.iconset(*args)
    with pytest.raises(OutOfRange):
        m.iconclr(4)


def test_iconpage_is_clamped_and_stepped_by_its_buttons(m: Machine) -> None:
    """[WIKI]: ICONPMAX >= 0 rounded down; ICONPAGE within 0..ICONPMAX."""
    m.iconpmax = -3
    assert m.iconpmax == 0
    m.iconpmax = 2.7
    m.iconpage = 5
    assert (m.iconpmax, m.iconpage) == (2, 2)
    m.iconpage = -1
    assert m.iconpage == 0
    _tap(m, kb.ICON_DOWN)
    assert m.iconpage == 0  # buttons hidden without ICONPUSE
    m.iconpuse = True
    for _ in range(4):
        _tap(m, kb.ICON_DOWN)
    assert m.iconpage == 2
    _tap(m, kb.ICON_UP)
    assert m.iconpage == 1
    m.iconpmax = 0
    assert m.iconpage == 0


# -- PNLSTR -------------------------------------------------------------------------------------


def test_pnlstr_writes_on_the_panel_layer_and_stops_at_the_edge(m: Machine) -> None:
    m.pnlstr(28, 2, "ABCDEFG", 3)
    codes = m._panel.text.codes
    assert bytes(codes[2, 28:]) == b"ABCD" and not codes[3].any()
    assert not m.screens[1].console.codes.any()  # not the console
    assert m._panel.text.fg_cells[2, 28] == 3
    m.pnlstr(40, 2, "X")
    m.pnlstr(0, 24, "X")
    assert int(m._panel.text.codes.astype(bool).sum()) == 4
    with pytest.raises(OutOfRange):
        m.pnlstr(0, 0, "X", 16)


def test_pnltype_rejects_other_names(m: Machine) -> None:
    with pytest.raises(IllegalFunctionCall):
        m.pnltype("KYB")
    assert m.panel == "OFF"


# -- drawing -------------------------------------------------------------------------------------


def test_off_draws_nothing_and_keyboards_differ(m: Machine) -> None:
    blank = m.screen_array(1).copy()
    m.pnltype("OFF")
    assert np.array_equal(m.screen_array(1), blank)
    pictures = []
    for kind in ("PNL", "KYA", "KYM", "KYK"):
        m.pnltype(kind)
        pictures.append(m.screen_array(1).copy())
        assert not np.array_equal(pictures[-1], blank), kind
    for a in range(4):
        for b in range(a + 1, 4):
            assert not np.array_equal(pictures[a], pictures[b])
    m.visible(panel=False)
    assert np.array_equal(m.screen_array(1), blank)


def test_pressed_and_shift_keys_change_the_picture(m: Machine) -> None:
    m.pnltype("KYA")
    before = m.screen_array(1).copy()
    q = _key(18)
    m.input.touch(q.x + 4, q.y + 4)
    m.vsync()
    pressed = m.screen_array(1).copy()
    changed = np.argwhere((pressed != before).any(axis=2))
    assert len(changed)
    assert changed[:, 0].min() >= q.y and changed[:, 0].max() < q.y + q.h
    assert changed[:, 1].min() >= q.x and changed[:, 1].max() < q.x + q.w
    m.input.untouch()
    m.vsync()
    assert np.array_equal(m.screen_array(1), before)
    _tap(m, kb.SHIFT)  # the labels turn lower case
    assert not np.array_equal(m.screen_array(1), before)


def test_panel_hides_lower_sprites_and_keyboard_hides_grp(m: Machine) -> None:
    """[SBC] display_sprite / display_graphics (docs/petitcom-decisions.md)."""
    m.chrset("SPS0L", 0, "F" * 64)
    m.sppage(1)
    m.spset(0, 0, 0, 0, 0, 0)
    m.spofs(0, 100, 20)
    m.gpage(1)
    m.gprio(0)
    m.gfill(0, 100, 20, 110, 3)

    def sprite_shown() -> bool:
        return bool((m.screen_array(1)[24, 104] != m.screen_array(1)[24, 150]).any())

    m.pnltype("PNL")
    grp_pnl = m.screen_array(1)[105, 10].copy()
    m.pnltype("KYA")
    grp_kya = m.screen_array(1)[105, 10].copy()
    m.pnltype("OFF")
    assert sprite_shown()
    off = m.screen_array(1)[105, 10].copy()
    assert np.array_equal(grp_pnl, off)  # GRP priority 0 over the plain panel
    assert not np.array_equal(grp_kya, off)  # but not over a keyboard


def test_pnlstr_shows_over_the_plain_panel_not_under_a_keyboard(m: Machine) -> None:
    for kind in ("PNL", "KYA"):
        m.pnltype(kind)
        plain = m.screen_array(1).copy()
        m.pnlstr(0, 3, "####", 4)  # on row 3 (y 24-31)
        text = m.screen_array(1).copy()
        m.pnlstr(0, 3, "    ")
        assert np.array_equal(text, plain) == (kind == "KYA"), kind


def test_icons_drawn_even_with_off(m: Machine) -> None:
    blank = m.screen_array(1).copy()
    m.iconset(3, 12)
    shown = m.screen_array(1)
    diff = np.argwhere((shown != blank).any(axis=2))
    assert diff[:, 1].min() >= 232 and diff[:, 0].min() >= 168


def test_golden_kya_keyboard_with_icons(m: Machine, golden: Golden) -> None:
    m.pnltype("KYA")
    m.iconset(0, 5)
    m.iconset(2, 40)
    m.iconpuse = True
    golden("shim_panel_kya", m.screen_array(1))


def test_golden_plain_panel_with_pnlstr(m: Machine, golden: Golden) -> None:
    m.pnltype("PNL")
    m.pnlstr(2, 3, "PNLSTR", 3)
    golden("shim_panel_pnl", m.screen_array(1))


# -- line input ---------------------------------------------------------------------------------


def _queue_taps(m: Machine, codes: list[int]) -> None:
    """Type key codes on the software keyboard before line_input runs (via events)."""
    m.pnltype("KYA")
    for code in codes:
        _tap(m, code)


def test_line_input_echoes_edits_and_ends_on_enter(m: Machine) -> None:
    m.print("NAME?")
    _queue_taps(m, [18, 19, kb.BACKSPACE, 20, kb.ENTER])  # Q W BS E ENTER
    assert m.line_input() == "QE"
    con = m.screens[0].console
    assert bytes(con.codes[1, :3]) == b"QE\x00"
    assert (m.csrx, m.csry) == (0, 2)


def test_line_input_from_the_real_keyboard(m: Machine) -> None:
    m.input.type_text("12")
    _feed_common(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0), m.input)
    assert m.line_input() == "12"


def test_line_input_cancel_and_timeout_return_none(m: Machine) -> None:
    m.input.type_text("AB")
    m.input.queue_keys([-27])
    assert m.line_input() is None
    assert m.line_input(timeout=5) is None


def test_line_input_keeps_32_characters(m: Machine) -> None:
    m.locate(0, 23)
    m.input.type_text("X" * 40 + "\n")
    assert m.line_input() == "X" * 32
    assert m.csry == 23  # the bottom row scrolled up


def test_line_input_below_a_full_bottom_row_scrolls_first(m: Machine) -> None:
    m.locate(0, 23)
    m.print("Y" * 32, end="")  # the cursor now waits below the last row
    m.input.type_text("AB\n")
    assert m.line_input() == "AB"
    con = m.screens[0].console
    assert bytes(con.codes[21]) == b"Y" * 32
    assert bytes(con.codes[22, :3]) == b"AB\x00"


def test_line_editor_blinks_a_cursor_where_the_next_character_goes(m: Machine) -> None:
    con = m.screens[0].console
    m.locate(0, 5)
    m.print("ZZ", end="")
    m.locate(0, 5)
    editor = LineEditor(con)
    editor.blink(0)
    assert con.chkchr(0, 5) == CURSOR
    editor.blink(CURSOR_BLINK)
    assert con.chkchr(0, 5) == ord("Z")  # what it covered comes back
    editor.feed(ord("Q"))
    editor.blink(2 * CURSOR_BLINK)
    assert (con.chkchr(0, 5), con.chkchr(1, 5)) == (ord("Q"), CURSOR)
    editor.close()
    assert con.chkchr(1, 5) == ord("Z")
    editor = LineEditor(con)
    editor.blink(0)
    editor.feed(0x0D)
    assert (editor.done, editor.text, con.chkchr(0, 6)) == (True, "", 0)


def test_backspace_edits_instead_of_breaking_while_a_line_is_typed(
    m: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Backspace is SELECT by default; with select_break it must not end INPUT."""
    m.select_break = True
    m.input.type_text("AB")
    keys = [pygame.K_BACKSPACE, pygame.K_RETURN]

    def pump(inp: Input) -> bool:  # the window's keys arrive while the line is typed
        if keys:
            key = keys.pop(0)
            _feed_common(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0), inp)
            _feed_common(pygame.event.Event(pygame.KEYUP, key=key, mod=0), inp)
        return True

    monkeypatch.setattr(m.frontend, "pump", pump)
    assert m.line_input() == "A"
    assert not m.input.text_mode
    keys.append(pygame.K_BACKSPACE)
    with pytest.raises(Break):  # outside a line it is SELECT again
        m.vsync()


def test_left_and_right_move_the_input_cursor(m: Machine) -> None:
    """PTC's line input moves its cursor with LEFT/RIGHT ([SBC] shared_input lists it
    as PTC behaviour; its input_keys reads the d-pad): typing inserts at the cursor,
    BS deletes before it."""
    from petitcom_shim.inputscript import ScriptFeeder, parse_script

    script = "1 K AD\n2 B LEFT\n3 B 0\n4 K BC\n5 B RIGHT\n6 B 0\n7 K E\\r\n"
    ScriptFeeder(parse_script(script)).attach(m)
    assert m.line_input(timeout=30) == "ABCDE"
    assert bytes(m.screens[0].console.codes[0, :6]) == b"ABCDE\x00"


def test_line_editor_cursor_moves_within_the_text(m: Machine) -> None:
    con = m.screens[0].console
    editor = LineEditor(con)
    for code in b"XZ":
        editor.feed(code)
    editor.move(-1)
    editor.move(-5)  # stops at the start
    editor.feed(ord("W"))
    editor.move(+1)
    editor.feed(BACKSPACE_KEY)  # deletes the X before the cursor
    assert bytes(con.codes[0, :3]) == b"WZ\x00"
    editor.move(+9)  # stops at the end
    editor.blink(0)
    assert bytes(con.codes[0, :3]) == b"WZ" + bytes((CURSOR,))
    editor.feed(0x0D)
    assert editor.text == "WZ"


def test_the_ins_and_del_labels_stay_on_their_own_keys(tmp_path: Path) -> None:
    """Issue 26: "IN" and "DL" in the 8x8 font filled the two 16-pixel keys edge to edge
    and read as one word, "INDL". Each label's ink now lies inside its key's face."""
    import pygame

    from petitcom_shim import keyboard

    m = Machine(headless=True)
    m.pnltype("KYA")
    m.vsync()
    shot = tmp_path / "kya.png"
    m.screenshot(shot)
    m.close()
    picture = pygame.image.load(str(shot))
    ink = picture.map_rgb(0x20, 0x20, 0x20)
    for code in (keyboard.INSERT, keyboard.DELETE):
        key = next(k for k in keyboard.KEYS if k.code == code)
        inked = [
            x
            for x in range(key.x - 2, key.x + key.w + 2)
            for y in range(key.y, key.y + key.h)
            if picture.get_at_mapped((x, 192 + y)) == ink
        ]
        assert inked, code
        assert key.x + 2 <= min(inked) and max(inked) <= key.x + key.w - 3, (code, inked)
