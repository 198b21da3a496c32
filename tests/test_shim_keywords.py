"""Hardware keywords added for coverage (issue 9): INKEY$, KEYBOARD, PNLTYPE, DATE$, TIME$.

References as in /work/shared/spec/petitcom.md; the full coverage table is in
docs/petitcom-decisions.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from petitcom_shim import IllegalFunctionCall, Machine
from petitcom_shim.basic import parser, registry
from petitcom_shim.display import _feed_common
from petitcom_shim.input import KEY_BUFFER


@pytest.fixture
def m() -> Iterator[Machine]:
    machine = Machine(headless=True)
    yield machine
    machine.close()


def test_inkey_returns_typed_characters_in_order(m: Machine) -> None:
    """§6: INKEY$() gives the next buffered character, or "" ([EMK], [SBC])."""
    assert m.inkey() == ""
    m.input.type_text("Aｱ\n漢b")  # the kanji has no PTC code and is dropped
    m.vsync()  # the queue survives frames: it is not a per-frame snapshot
    assert [m.inkey() for _ in range(5)] == ["A", "ｱ", "\n", "b", ""]


def test_inkey_buffer_keeps_the_newest(m: Machine) -> None:
    m.input.type_text("x" * KEY_BUFFER + "yz")
    got = "".join(iter(m.inkey, ""))
    assert len(got) == KEY_BUFFER and got.endswith("xyz")


def test_window_text_input_reaches_inkey(m: Machine) -> None:
    event = pygame.event.Event(pygame.TEXTINPUT, text="Hi")
    assert _feed_common(event, m.input) is True
    assert m.inkey() + m.inkey() == "Hi"


def test_keyboard_is_zero_without_a_panel(m: Machine) -> None:
    """KEYBOARD = key code 1-69 touched on the software keyboard ([SBC] sys_keyboard);
    with PNLTYPE "OFF" there is none to touch, so 0."""
    m.input.touch(100, 150)
    m.vsync()
    assert m.keyboard == 0


def test_pnltype_accepts_ptc_names_only(m: Machine) -> None:
    """§6: PNLTYPE "OFF"|"PNL"|"KYA"|"KYM"|"KYK" ([EMK] Panel.cpp, [SBC] panel.c)."""
    assert m.panel == "OFF"
    for name in ("pnl", "KYA", "KYM", "KYK", "OFF"):
        m.pnltype(name)
        assert m.panel == name.upper()
    with pytest.raises(IllegalFunctionCall, match=r"^Illegal function call: PNLTYPE"):
        m.pnltype("KYB")
    assert m.panel == "OFF"


def test_date_and_time_formats(m: Machine) -> None:
    """DATE$ "YYYY/MM/DD", TIME$ "HH:MM:SS" ([SBC] sysvars.c sys_date/sys_time)."""
    assert re.fullmatch(r"20\d\d/(0[1-9]|1[0-2])/(0[1-9]|[12]\d|3[01])", m.date)
    assert re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d:[0-5]\d", m.time)


def _coverage_text() -> str:
    doc = Path(__file__).resolve().parent.parent / "docs" / "petitcom-decisions.md"
    text = doc.read_text(encoding="utf-8").split("## Keyword coverage", 1)[1]
    return text.split("\n## ", 1)[0]


def _coverage_rows() -> list[tuple[list[str], str, str]]:
    """(keywords, shim cell, behaviour cell) of every row of the coverage table."""
    rows = []
    for line in _coverage_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("Keyword", "---") or cells[0].startswith("("):
            continue
        keywords = [k.strip() for k in cells[0].replace(" / ?", "").split(",")]
        rows.append((keywords, cells[1], cells[2]))
    return rows


def _names(*tables: str) -> set[str]:
    return {name for table in tables for name in table.split()}


#: The references' keyword tables (names only): [EMK] src/Resources.cpp
#: ``commands``/``functions``/``sysvars`` and [SBC] source/func_info.c, which adds
#: FILES and its own extensions.
_EMK = _names(
    "ACLS APPEND BEEP BGCLIP BGCLR BGCOPY BGFILL BGMCLEAR BGMPLAY BGMPRG BGMSET BGMSETD"
    " BGMSETV BGMSTOP BGMVOL BGOFS BGPAGE BGPUT BGREAD BREPEAT CHRINIT CHRREAD CHRSET CLEAR"
    " CLS COLINIT COLOR COLREAD COLSET CONT DATA DELETE DIM DTREAD ELSE END EXEC FOR GBOX"
    " GCIRCLE GCLS GCOLOR GCOPY GDRAWMD GFILL GLINE GOSUB GOTO GPAGE GPAINT GPSET GPRIO"
    " GPUTCHR ICONCLR ICONSET IF INPUT KEY LINPUT LIST LOAD LOCATE NEW NEXT NOT ON PNLSTR"
    " PNLTYPE PRINT READ REBOOT RECVFILE REM RENAME RESTORE RETURN RSORT RUN SAVE SENDFILE"
    " SORT SPANGLE SPANIM SPCHR SPCLR SPCOL SPCOLVEC SPHOME SPOFS SPPAGE SPREAD SPSCALE SPSET"
    " SPSETV STEP STOP SWAP THEN TMREAD TO VISIBLE VSYNC WAIT",
    "ABS ASC ATAN BGCHK BGMCHK BGMGETV BTRIG BUTTON CHKCHR CHR$ COS DEG EXP FLOOR GSPOIT HEX$"
    " ICONCHK INKEY$ INSTR LEFT$ LEN LOG MID$ PI POW RAD RIGHT$ RND SGN SIN SPCHK SPGETV SPHIT"
    " SPHITRC SPHITSP SQR STR$ SUBST$ TAN VAL",
    "CSRX CSRY FREEMEM VERSION ERR ERL RESULT TCHX TCHY TCHST TCHTIME MAINCNTL MAINCNTH"
    " TABSTEP TRUE FALSE CANCEL ICONPUSE ICONPAGE ICONPMAX FUNCNO FREEVAR SYSBEEP KEYBOARD"
    " SPHITNO SPHITX SPHITY SPHITT TIME$ DATE$ MEM$ PRGNAME$ PACKAGE$",
)
_SBC_ONLY = _names("FILES TALK TALKSTOP TALKCHK POKE POKEH POKEB MEMCOPY MEMFILL PEEK PEEKH PEEKB")
_SBC_ONLY |= _names("ADDR PTR$ MEMSAFE")
#: What the table leaves out, as its introduction says.
_NOT_HARDWARE = _names(
    # the language and its functions
    "CLEAR DATA DIM ELSE END FOR GOSUB GOTO IF NEXT NOT ON READ REM RESTORE RETURN RSORT"
    " SORT STEP STOP SWAP THEN TO ABS ASC ATAN CHR$ COS DEG EXP FLOOR HEX$ INSTR LEFT$ LEN"
    " LOG MID$ PI POW RAD RIGHT$ RND SGN SIN SQR STR$ SUBST$ TAN VAL",
    # the interpreter's state, DIRECT mode, string parsing, sbc's extensions
    "VERSION FREEMEM FREEVAR RESULT ERR ERL TRUE FALSE CANCEL RUN LIST NEW CONT REBOOT",
    "DTREAD TMREAD TALK TALKSTOP TALKCHK POKE POKEH POKEB MEMCOPY MEMFILL PEEK PEEKH PEEKB",
    "ADDR PTR$ MEMSAFE",
)


def _in_basic(keyword: str) -> bool:
    """True if the BASIC interpreter has the keyword: registered, or compiled itself."""
    registry.load_all()
    registered = any(name == keyword for _, name in registry.KEYWORDS)
    return registered or keyword in parser.LANGUAGE


def test_coverage_table_lists_the_references_hardware_keywords() -> None:
    """The table's 112 keywords are the references' tables minus what is not hardware."""
    listed = [k for keys, _, _ in _coverage_rows() for k in keys]
    assert len(listed) == len(set(listed)) == 112
    assert set(listed) == (_EMK | _SBC_ONLY) - _NOT_HARDWARE


def test_coverage_table_matches_the_shim() -> None:
    """Every listed keyword is present: a "Yes" one on Machine (its lower-case name, or
    the names given in backticks) and in BASIC, a "BASIC" one in BASIC only; the count
    the doc states is the table's; each behaviour says As, Differs or Impossible here,
    and the "Still different" list names exactly the Differs rows."""
    rows = _coverage_rows()
    on_machine = 0
    for keywords, shim, behaviour in rows:
        assert shim.startswith("Yes") or shim == "BASIC", shim
        assert behaviour.startswith(("As ", "Differs", "Impossible here")), behaviour
        missing_basic = [k for k in keywords if not _in_basic(k)]
        assert not missing_basic, f"the BASIC interpreter lacks {missing_basic}"
        named = re.findall(r"`(\w+)", shim)
        names = named if len(named) == len(keywords) else [k.lower().rstrip("$") for k in keywords]
        if shim.startswith("Yes"):
            on_machine += len(keywords)
            missing = [n for n in names if not hasattr(Machine, n)]
            assert not missing, f"table says Yes but Machine lacks {missing}"
        else:
            present = [n for n in names if hasattr(Machine, n)]
            assert not present, f"table says BASIC only but Machine has {present}"
    text = _coverage_text()
    stated = re.search(r"the shim has \*\*(\d+)\*\* of them \(\*\*(\d+)\*\* on `Machine`", text)
    assert stated is not None
    assert int(stated.group(1)) == sum(len(k) for k, _, _ in rows)
    assert int(stated.group(2)) == on_machine
    differs = {k for keys, _, b in rows if b.startswith("Differs") for k in keys}
    still = text.split("### Still different from the emulators", 1)[1].split("Where the", 1)[0]
    listed = {k for keys, _, _ in rows for k in keys}
    still_named = set(re.findall(r"\b[A-Z][A-Z0-9]+\$?", still)) & listed
    assert still_named == differs
    impossible = {k for keys, _, b in rows if b.startswith("Impossible") for k in keys}
    assert impossible == {"SENDFILE", "RECVFILE"}
