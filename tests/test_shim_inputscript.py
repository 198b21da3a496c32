"""``--input`` scripts: the line format, its errors, and events reaching the machine by frame."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from petitcom_shim import Button, Machine
from petitcom_shim.input import BACKSPACE_KEY, CANCEL_KEY
from petitcom_shim.inputscript import Event, ScriptError, ScriptFeeder, parse_script, read_script


@pytest.fixture
def machine() -> Iterator[Machine]:
    m = Machine(headless=True)
    yield m
    m.close()


def test_parse_every_event_kind() -> None:
    events = parse_script(
        "# a comment\n"
        "\n"
        "10 T 255 191\n"
        "0 B UP+a   # trailing comment\n"
        "3 B 1024\n"
        "12 T off\n"
        "5 K RUN\\r\\\\x\\x41 # kept\n"
        "6 K  two spaces \n"
        "7 K \\b\\e\n"
        "99 Q\n"
    )
    assert events == [
        Event(0, "B", int(Button.UP | Button.A)),
        Event(3, "B", 1024),
        Event(5, "K", tuple(b"RUN\r\\xA # kept")),
        Event(6, "K", tuple(b" two spaces ")),
        Event(7, "K", (BACKSPACE_KEY, CANCEL_KEY)),
        Event(10, "T", (255, 191)),
        Event(12, "T", None),
        Event(99, "Q", None),
    ]


def test_keys_after_a_tab_are_typed() -> None:
    """A tab between the fields is whitespace like a space: the keys are not lost."""
    assert parse_script("0\tK\tRUN\\r\n3\tk\n") == [
        Event(0, "K", tuple(b"RUN\r")),
        Event(3, "K", ()),
    ]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("x B A", "expected FRAME"),
        ("1", "expected FRAME"),
        ("1 X 3", "unknown event 'X'"),
        ("1 Q 3", "Q takes no argument"),
        ("1 B JUMP", "unknown button 'JUMP'"),
        ("1 B 4096", "over 4095"),
        ("1 B A B", "B takes one argument"),
        ("1 T 256 0", "off the 256x192"),
        ("1 T 5", "T takes X Y"),
        ("1 K a\\qb", "backslash starts"),
        ("1 K \\x4", "backslash starts"),
        ("1 K 中", "PTC does not have"),
        ("\u00b2 B A", "expected FRAME"),
        ("1 B \u00b2", "unknown button"),
        ("1 T \u00b2 5", "T takes X Y"),
    ],
)
def test_bad_lines_name_their_number(line: str, message: str) -> None:
    with pytest.raises(ScriptError, match=message) as err:
        parse_script(f"# ok\n{line}\n", "in.txt")
    assert str(err.value).startswith("in.txt:2: ")


def test_unreadable_script(tmp_path: Path) -> None:
    with pytest.raises(ScriptError, match="no such file"):
        read_script(tmp_path / "none.txt")
    (tmp_path / "bin.txt").write_bytes(b"0 K \xff")
    with pytest.raises(ScriptError, match="byte 4 is not UTF-8"):
        read_script(tmp_path / "bin.txt")


def test_events_apply_from_their_frame(machine: Machine) -> None:
    ScriptFeeder(parse_script("0 B A\n2 B 0\n2 T 10 20\n3 K HI\\r\n4 T OFF\n")).attach(machine)
    assert machine.button() == Button.A  # frame 0: seen before the first VSYNC
    machine.vsync()
    assert machine.button() == Button.A and machine.tchst == 0
    machine.vsync()
    assert machine.button() == 0 and (machine.tchst, machine.tchx, machine.tchy) == (1, 10, 20)
    assert machine.inkey() == ""
    machine.vsync()
    assert [machine.inkey() for _ in range(4)] == ["H", "I", "\n", ""]
    machine.vsync()
    assert machine.tchst == 0


def test_enter_backspace_and_escape_are_key_events(machine: Machine) -> None:
    """SDL sends no text for Enter, Backspace and Escape: Enter types CHR$(13) as PTC's
    keyboard does; Backspace and Escape are events for line editors, not INKEY$ characters."""
    import pygame

    from petitcom_shim.input import BACKSPACE_KEY, CANCEL_KEY

    for key in (pygame.K_RETURN, pygame.K_BACKSPACE, pygame.K_ESCAPE, pygame.K_KP_ENTER):
        machine.input.key_down(key)
        machine.input.key_up(key)
    assert [machine.input.read_key() for _ in range(5)] == [
        0x0D,
        BACKSPACE_KEY,
        CANCEL_KEY,
        0x0D,
        None,
    ]
    machine.input.key_down(pygame.K_BACKSPACE)
    machine.input.key_down(pygame.K_RETURN)
    assert machine.inkey() == "\n" and machine.inkey() == ""


def test_pumps_between_frames_do_not_run_the_script_ahead(machine: Machine) -> None:
    """A busy program's machine pumps the window between frames (Machine.busy)."""
    ScriptFeeder(parse_script("3 B A\n")).attach(machine)
    for _ in range(10):
        machine.frontend.pump(machine.input)  # no frame passes
    machine.vsync(2)
    assert machine.button() == 0
    machine.vsync(1)
    assert machine.button() == Button.A


def test_the_editing_key_escapes_round_trip() -> None:
    """Issue 26's editing keys (Delete, Insert, Home, End) are recorded and replayed."""
    from petitcom_shim.input import DELETE_KEY, END_KEY, HOME_KEY, INSERT_KEY
    from petitcom_shim.inputscript import key_text, parse_script

    events = (ord("A"), HOME_KEY, DELETE_KEY, INSERT_KEY, END_KEY, 0x0D)
    text = key_text(events)
    assert text == "A\\<\\d\\i\\>\\r"
    (event,) = parse_script(f"3 K {text}\n")
    assert event.value == events
