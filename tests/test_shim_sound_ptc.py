"""Sound keywords and MML as PTC accepts it (issue 15 item 2).

Our own test songs, one per construct (no third-party songs). References:
[EMK] PTC-EmkII src/Sound.cpp ``SSEQ::mml`` / ``bgmprg_``, PetitMIDI
MML/MMLStack.cs ``PreProcessMML``, the PTC wiki pages SYSBEEP, BGMSETV and
BGMGETV ([WIKI]), and the Miiverse note on PTC's compiled MML (``_`` is a
command of its own next to ``&``; ``]0`` repeats for ever).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction

import numpy as np
import pytest

from petitcom_shim import IllegalFunctionCall, Machine, OutOfRange
from petitcom_shim.bgm import program_voice, render, render_song
from petitcom_shim.mml import DEFAULT_VELOCITY, MmlError, parse
from petitcom_shim.sound import SAMPLE_RATE, Beep


@pytest.fixture
def m() -> Iterator[Machine]:
    machine = Machine(headless=True)
    yield machine
    machine.close()


def level(samples: np.ndarray, start: float, stop: float) -> float:
    """RMS loudness between two times (s)."""
    part = samples[round(start * SAMPLE_RATE) : round(stop * SAMPLE_RATE)].astype(np.float64)
    return float(np.sqrt(np.mean(part**2)))


def keys(mml: str, channel: int = 0) -> list[int]:
    return [n.key for n in parse(mml).channels[channel]]


def test_default_velocity_is_127() -> None:
    """[EMK] ``SSEQ::mml`` starts every channel at velocity 127."""
    assert DEFAULT_VELOCITY == 127
    assert parse("C :1 D").channels[1][0].velocity == 127


def test_macros_define_then_play() -> None:
    """``{NAME=…}`` plays nothing; ``{NAME}`` plays its body (PetitMIDI, [EMK])."""
    assert keys("{RISE=CDE} {RISE} G {RISE}") == [60, 62, 64, 67, 60, 62, 64]
    assert keys("{A=C}{B=<{A}}{B}{A}") == [72, 72]  # a body may call an earlier macro
    assert keys("{A_1=D}[{A_1}]3") == [62, 62, 62]


def test_macro_errors_point_into_the_definition() -> None:
    with pytest.raises(MmlError, match="character 5 "):
        parse("{A=CX}{A}")


def test_a_repeat_count_from_an_unset_variable_skips_the_repeat() -> None:
    """A command reading an unset ``$n`` is skipped (decisions doc); for ``]$n`` that
    leaves the body played once, as does a count of 1 (not an internal error)."""
    assert keys("[C]$1 D") == [60, 62]
    assert keys("[[C]$1 D]2") == [60, 62, 60, 62]
    assert keys("$1=3 [C]$1") == [60, 60, 60]


def test_macros_calling_empty_macros_many_times_over_stop_early() -> None:
    """Sixteen macros, each calling the one before four times, would walk 4**15 empty
    calls (a hang, since nothing is produced to hit the size limit): refused at once."""
    names = "ABCDEFGHIJKLMNOP"
    mml = "{A=}" + "".join(
        f"{{{n}={{{p}}}{{{p}}}{{{p}}}{{{p}}}}}" for p, n in itertools.pairwise(names)
    )
    with pytest.raises(MmlError, match="macros expand to more than"):
        parse(mml + "{P}C")


def test_endless_repeat_inside_a_repeat_loops_from_its_own_bracket() -> None:
    song = parse("L4 [C [D E]0 F]2 G")
    # C, then D E for ever: F, the second pass and G are never reached.
    assert song.loops and song.loop_from == Fraction(1, 4)
    assert [n.key for n in song.channels[0]] == [60, 62, 64]


def test_channels_whose_endless_loops_differ_in_length() -> None:
    # 1 and 3/4 of a whole note line up after 3 whole notes.
    song = parse("[C1]0 :1 [E2 G4]0")
    assert song.end == 3 and len(song.channels[0]) == 3 and len(song.channels[1]) == 8
    # 1 and 191/192 never line up within 64 whole notes: the longest loop sets the
    # repeating part and the other starts again with it (decisions doc).
    song = parse("[C1]0 :1 [E2 G4 R192 R192 R192 R192 R192 R192 R192 R192 R96 R64]0")
    assert song.loops and song.end <= 1


def test_an_endless_repeat_of_no_time_ends_the_channel() -> None:
    song = parse("C [V10]0")
    assert not song.loops and len(song.channels[0]) == 1


def test_underscore_slides_into_the_next_note() -> None:
    note = parse("@144 C2_<C2").channels[0][0]
    assert note.keys == ((Fraction(0), 60), (Fraction(1, 2), 72)) and note.slides == (1,)
    tie = parse("@144 C2&<C2").channels[0][0]
    assert tie.keys == note.keys and tie.slides == ()
    # The slide passes through the pitches between: count zero crossings in the
    # middle of the second half (a jump would keep one octave's rate throughout).
    slid, jumped = render("@144 C2_<C2"), render("@144 C2&<C2")
    part = slice(int(1.05 * SAMPLE_RATE), int(1.45 * SAMPLE_RATE))
    crossings = [int(np.count_nonzero(np.diff(np.sign(s[part, 0])) != 0)) for s in (slid, jumped)]
    assert crossings[0] < crossings[1] * 0.95


def test_q0_is_accepted_as_a_blip() -> None:
    """Miiverse note on PTC's compiled MML: 9 codes for Q, so Q0-Q8."""
    assert parse("Q0 C").channels[0][0].gate == 0
    blip, eighth = render("T60 @144 Q0 C4 R4"), render("T60 @144 Q1 C4 R4")
    assert level(blip, 0.0, 0.05) > 1000 and level(blip, 0.2, 0.9) < 20
    assert level(eighth, 0.1, 0.12) > 1000


def test_a_stray_tie_is_no_error() -> None:
    """PTC compiles '&' and '_' to codes of their own (Miiverse note), so its compiler
    has no reason to check their neighbours; [EMK] skips a stray '&'. A tie binds only
    a note that ends where the next note starts."""
    assert keys("&C R _D") == [60, 62]
    song = parse("C&R D& [E]0")
    assert [n.key for n in song.channels[0]] == [60, 62, 64]
    assert [n.length for n in song.channels[0]] == [Fraction(1, 4)] * 3
    assert parse("C& V50 D").channels[0][0].keys == ((0, 60), (Fraction(1, 4), 62))


def test_song_variables() -> None:
    """[WIKI] BGMSETV/BGMGETV: ``$n=v`` sets, ``$n`` reads, in place of a number."""
    song = parse("$2=60 N$2 $2=64 N$2 L$3")  # $3 unset: the L is skipped
    assert [n.key for n in song.channels[0]] == [60, 64]
    assert [(v[1], v[2]) for v in song.variables] == [(2, 60), (2, 64)]
    assert song.variable(2, 0.0) == 60 and song.variable(2, 0.6) == 64 and song.variable(5, 0) == -1


def test_bgmsetv_and_bgmgetv(m: Machine) -> None:
    """The wiki's example: BGMSET 128,"$2=90[R]" : BGMPLAY 5,128 : BGMGETV(5,2) = 90."""
    assert m.bgmgetv(5, 2) == -1  # nothing playing
    m.bgmset(128, "$2=90[R]")
    m.bgmplay(5, 128)
    assert m.bgmgetv(5, 2) == 90 and m.bgmgetv(5, 3) == -1
    m.bgmset(129, "$2=60 [R N$2]")
    m.bgmplay(4, 129)
    m.vsync(90)  # into the loop
    m.bgmsetv(4, 2, 80)
    assert m.bgmgetv(4, 2) == 80
    assert [n.key for n in m.bgm._tracks[4].song.channels[0]] == [80]  # type: ignore[union-attr]
    assert m.bgmchk(4) == 1
    m.bgmset(130, "$1=60 N$1 N$1 N$1")  # T120: a quarter note is 30 frames
    m.bgmplay(3, 130)
    m.vsync(30)
    m.bgmsetv(3, 1, 72)  # from here on: the second and third notes change
    song = m.bgm._tracks[3].song
    assert song is not None and [n.key for n in song.channels[0]] == [60, 72, 72]
    m.bgmsetv(6, 1, 1)  # a silent track: nothing happens
    with pytest.raises(OutOfRange):
        m.bgmsetv(4, 8, 0)
    with pytest.raises(OutOfRange):
        m.bgmsetv(4, 1, 256)
    # BASIC hands fractions over: every argument is floored, the track too.
    m.bgmsetv(4.9, 2.5, 81.7)  # type: ignore[arg-type]
    assert m.bgmgetv(4.2, 2.9) == 81  # type: ignore[arg-type]


def test_the_latest_bgmsetv_wins(m: Machine) -> None:
    """Two BGMSETV of one variable at the same point of the song (the same frame, or
    anywhere in its loop): the later value is the one heard and read, even when it is
    the smaller one."""
    m.bgmset(130, "$1=60 N$1 N$1 N$1 N$1")
    m.bgmplay(3, 130)
    m.vsync(30)
    m.bgmsetv(3, 1, 72)
    m.bgmsetv(3, 1, 65)
    song = m.bgm._tracks[3].song
    assert m.bgmgetv(3, 1) == 65
    assert song is not None and [n.key for n in song.channels[0]] == [60, 65, 65, 65]
    m.bgmset(129, "$2=60 [R N$2]")
    m.bgmplay(4, 129)
    m.vsync(90)  # into the loop: every change lands on the loop's start
    for frame in range(300):
        m.bgmsetv(4, 2, 80 - frame % 3)
        m.vsync()
    song = m.bgm._tracks[4].song
    assert song is not None and len(song.overrides) == 1  # not one per call
    assert m.bgmgetv(4, 2) == 78 and [n.key for n in song.channels[0]] == [78]


def test_bgmprg_defines_an_instrument_from_a_waveform(m: Machine) -> None:
    """[EMK] ``bgmprg_``: instr,[key,][a,d,s,r,]wave$ with 64 or 128 samples."""
    square = "7F" * 32 + "80" * 32
    instr, voice = program_voice((224, square))
    assert instr == 224 and voice.wave == "table" and len(voice.table) == 64
    assert voice.table[0] == pytest.approx(127 / 128) and voice.table[-1] == -1.0
    _, keyed = program_voice((225, 72, 127, 0, 127, 0, square * 2))
    assert keyed.root == 72 and len(keyed.table) == 128 and keyed.sustain == 1.0
    song = parse("@224 A1")
    plain = render_song(song).head
    programmed = render_song(song, programs={224: voice}).head
    assert not np.array_equal(plain, programmed)
    # A saw-shaped table sounds different from the square one.
    saw = "".join(f"{(i * 4) & 0xFF:02X}" for i in range(64))
    assert not np.array_equal(
        programmed, render_song(song, programs=dict([program_voice((224, saw))])).head
    )
    m.bgmprg(230, square)
    assert 230 in m.bgm._programs


def test_bgmprg_drops_fractions_as_every_ptc_verb() -> None:
    """BASIC hands numbers over as fractions (``K/7``): they are floored, not refused."""
    wave = "7F" * 32 + "80" * 32
    instr, voice = program_voice((224.9, 60 / 7, 127.5, 0, 127, 0, wave))
    assert instr == 224 and voice.root == 8
    assert voice == program_voice((224, 8, 127, 0, 127, 0, wave))[1]


@pytest.mark.parametrize(
    ("args", "error"),
    [
        ((223, "00" * 64), OutOfRange),
        ((224, "60", "00" * 64), IllegalFunctionCall),
        ((224, "00" * 63), IllegalFunctionCall),
        ((224, "GG" * 64), IllegalFunctionCall),
        ((224, 1, 2, "00" * 64), IllegalFunctionCall),
        ((224, 128, "00" * 64), OutOfRange),
        ((224, 0, 0, 0, 128, "00" * 64), OutOfRange),
        ((224,), IllegalFunctionCall),
    ],
)
def test_bad_bgmprg_is_refused(
    m: Machine, args: tuple[object, ...], error: type[Exception]
) -> None:
    with pytest.raises(error):
        m.bgmprg(*args)  # type: ignore[arg-type]
    assert m.bgm._programs == {}


def test_sysbeep_switches_the_system_sounds(m: Machine) -> None:
    """[WIKI] SYSBEEP: reads 1 or 0; a written value is floored, nonzero = on."""
    assert m.sysbeep == 1
    m.sysbeep = 0.9
    assert m.sysbeep == 0 and not m.sound.system_sounds
    m.sysbeep = -3
    assert m.sysbeep == 1
    played: list[int] = []
    m.sound.beep = lambda n=0, *a: played.append(int(n))  # type: ignore[method-assign,assignment,misc]
    m.sound.system_beep(5)
    m.sysbeep = 0
    m.sound.system_beep(6)
    assert played == [5]


def test_sysbeep_silences_the_panel_key_clicks(m: Machine) -> None:
    """A panel key that types clicks (a system sound); with SYSBEEP=0 it types in silence."""
    played: list[int] = []
    m.sound.beep = lambda n=0, *a: played.append(int(n))  # type: ignore[method-assign,assignment,misc]
    m.pnltype("KYA")
    for sysbeep in (1, 0):
        m.sysbeep = sysbeep
        m.input.touch(40, 60)  # the "2" key of the top row
        m.vsync()
        m.input.untouch()
        m.vsync()
    assert played == [Beep.CLICK] and m.inkey() + m.inkey() == "22"
