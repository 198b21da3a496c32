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


def _coverage_rows() -> list[tuple[list[str], str]]:
    """(keywords, shim cell) of every row of the coverage table in the decisions doc."""
    rows = []
    for line in _coverage_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("Keyword", "---") or cells[0].startswith("("):
            continue
        keywords = [k.strip() for k in cells[0].replace(" / ?", "").split(",")]
        rows.append((keywords, cells[1]))
    return rows


def test_coverage_table_matches_the_machine() -> None:
    """docs/petitcom-decisions.md lists all 112 PTC v2 hardware keywords: a "Yes" one
    exists on Machine (its lower-case name, or the names given in backticks); a "No"
    or "Impossible" one does not; the count the doc states is the table's."""
    rows = _coverage_rows()
    assert sum(len(k) for k, _ in rows) == 112
    have = 0
    for keywords, shim in rows:
        assert shim.startswith("Yes") or shim in ("No", "Impossible"), shim
        named = re.findall(r"`(\w+)", shim)
        names = named if len(named) == len(keywords) else [k.lower().rstrip("$") for k in keywords]
        if shim.startswith("Yes"):
            have += len(keywords)
            missing = [n for n in names if not hasattr(Machine, n)]
            assert not missing, f"table says Yes but Machine lacks {missing}"
        else:
            present = [n for n in names if hasattr(Machine, n)]
            assert not present, f"table says {shim} but Machine has {present}"
    stated = re.search(r"the shim has \*\*(\d+)\*\*", _coverage_text())
    assert stated is not None and int(stated.group(1)) == have
    assert {k for keys, shim in rows if shim == "Impossible" for k in keys} == {
        "SENDFILE",
        "RECVFILE",
    }
