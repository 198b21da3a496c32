"""petitcom_shim BGM: PTC's MML rendered to arrays (pitches, lengths, tracks, repeats,
volume, errors), and BGMPLAY/BGMCHK/BGMSTOP/BGMVOL on the machine, silent or not."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import numpy as np
import numpy.typing as npt
import pygame
import pytest

from petitcom_shim import Machine
from petitcom_shim.bgm import PRESET_SONGS, TRACKS, preset_mml, render, render_song
from petitcom_shim.errors import IllegalFunctionCall, OutOfRange, PetitcomError
from petitcom_shim.mml import MmlError, parse
from petitcom_shim.sound import SAMPLE_RATE as RATE

Samples = npt.NDArray[np.int16]


def peaks_hz(samples: Samples, count: int = 1) -> list[float]:
    """The ``count`` strongest frequencies of the mono mix (parabolic refinement)."""
    mono = samples.astype(np.float64).sum(axis=1)
    size = 1 << (len(mono) * 4 - 1).bit_length()
    spectrum = np.abs(np.fft.rfft(mono * np.hanning(len(mono)), size))
    found: list[float] = []
    work = spectrum.copy()
    for _ in range(count):
        peak = int(np.argmax(work[2:])) + 2
        a, b, c = np.log(spectrum[peak - 1 : peak + 2] + 1e-12)
        found.append(float((peak + 0.5 * (a - c) / (a - 2 * b + c)) * RATE / size))
        work[max(0, peak - 40) : peak + 40] = 0  # clear the peak and its skirt
    return found


def rms(samples: Samples, start: float, stop: float) -> float:
    part = samples[round(start * RATE) : round(stop * RATE)].astype(np.float64)
    return float(np.sqrt(np.mean(part**2))) if len(part) else 0.0


def onsets(samples: Samples, threshold: float = 800.0) -> list[float]:
    """Times (s) where the 5 ms loudness rises through ``threshold`` from silence."""
    window = RATE // 200
    mono = np.abs(samples.astype(np.float64)).max(axis=1)
    blocks = mono[: len(mono) // window * window].reshape(-1, window).max(axis=1)
    loud = blocks > threshold
    rises = np.flatnonzero(loud[1:] & ~loud[:-1]) + 1
    times = [float(i * window / RATE) for i in rises]
    return ([0.0] if loud[0] else []) + times


# --------------------------------------------------------------------------- pitch


@pytest.mark.parametrize(
    ("mml", "hz"),
    [
        ("O4A", 440.0),
        ("O4C", 261.63),
        ("N60", 261.63),
        ("N69", 440.0),
        ("O5C", 523.25),
        ("O3G#", 207.65),
        ("O3A-", 207.65),
        ("O4E+", 349.23),  # E sharp is F
    ],
)
def test_note_pitch_matches_the_mml(mml: str, hz: float) -> None:
    found = peaks_hz(render("@144 L1", mml))  # a pulse voice, whole notes
    assert found[0] == pytest.approx(hz, rel=0.004)


def test_less_than_raises_the_octave_as_in_ptc() -> None:
    # PTC's '<' goes up and '>' down (the reverse of most MML dialects).
    up = render("@144 O4 < A1")
    down = render("@144 O4 > A1")
    assert peaks_hz(up)[0] == pytest.approx(880.0, rel=0.004)
    assert peaks_hz(down)[0] == pytest.approx(220.0, rel=0.004)


@pytest.mark.parametrize("tone", [0, 16, 32, 40, 80, 88, 144, 147, 150])
def test_every_voice_sounds_at_the_written_pitch(tone: int) -> None:
    found = peaks_hz(render(f"@{tone} O4 A1"))
    assert found[0] == pytest.approx(440.0, rel=0.006)


# -------------------------------------------------------------------------- lengths


@pytest.mark.parametrize(
    ("mml", "seconds"),
    [
        ("T120 C4", 0.5),
        ("T60 C4", 1.0),
        ("T120 C1", 2.0),
        ("T120 C8", 0.25),
        ("T120 C4.", 0.75),
        ("T120 C4..", 0.875),
        ("T120 C4&C8", 0.75),
        ("T120 L8 CD", 0.5),
        ("T120 L4. C", 0.75),
        ("T120 C3", 2 / 3),
        ("T120 R4 C4", 1.0),
        ("T240 C4 T60 C4", 0.25 + 1.0),
        ("T120 N60 N62", 1.0),
        ("T120 L16 [C]4", 0.5),
        ("T120 [[C8]2 D8]2", 1.5),
        ("T150 C4 :1 C2", 0.8),  # the longest channel; T applies to every channel
    ],
)
def test_song_length_is_tempo_times_length(mml: str, seconds: float) -> None:
    assert parse(mml).duration == pytest.approx(seconds)


def test_notes_start_when_the_mml_says() -> None:
    samples = render("T120 @144 Q6 L4 C R C C8 R8 C")
    assert onsets(samples) == pytest.approx([0.0, 1.0, 1.5, 2.0], abs=0.011)
    # The rest is silent, and the song's rendered length matches its duration
    # (plus the last note's release).
    assert rms(samples, 0.55, 0.95) < 20
    assert 2.5 <= len(samples) / RATE <= 2.6


def test_a_tie_is_one_note_and_a_dot_adds_half() -> None:
    tied = render("T120 @144 C4&C4")
    assert onsets(tied) == pytest.approx([0.0], abs=0.011)
    assert rms(tied, 0.1, 0.9) > 1000
    song = parse("C4.&C8 D4..")
    notes = song.channels[0]
    assert [n.length for n in notes] == [Fraction(1, 2), Fraction(7, 16)]


def test_a_tie_to_another_pitch_glides_without_a_new_attack() -> None:
    song = parse("T120 C4&E4")
    (note,) = song.channels[0]
    assert note.keys == ((Fraction(0), 60), (Fraction(1, 4), 64))
    samples = render("T120 @144 C4&E4")
    assert onsets(samples) == pytest.approx([0.0], abs=0.011)
    assert peaks_hz(samples[: RATE // 2])[0] == pytest.approx(261.63, rel=0.01)
    assert peaks_hz(samples[RATE // 2 : RATE])[0] == pytest.approx(329.63, rel=0.01)


def test_gate_shortens_the_sounding_part() -> None:
    full = render("T60 @144 Q8 C4 R4")
    half = render("T60 @144 Q4 C4 R4")
    assert rms(full, 0.6, 0.9) > 1000
    assert rms(half, 0.6, 0.9) < 20


# ------------------------------------------------------------------ tracks, repeats


def test_channels_mix() -> None:
    samples = render("@144 O4 A1 :1 @144 O5 E1")
    found = sorted(peaks_hz(samples, 2))
    assert found == pytest.approx([440.0, 659.26], rel=0.005)
    alone = render("@144 O4 A1")
    assert rms(samples, 0.1, 1.9) > 1.2 * rms(alone, 0.1, 1.9)


def test_channel_text_in_pieces_is_joined_and_eight_channels_exist() -> None:
    song = parse(":0 C :1 E :0 D :7 G")
    assert [n.key for n in song.channels[0]] == [60, 62]
    assert [n.key for n in song.channels[1]] == [64]
    assert [n.key for n in song.channels[7]] == [67]


def test_repeats_replay_their_body_with_the_state_carried_on() -> None:
    song = parse("L8 [[C]2 D]2 [E <]2")
    assert [n.key for n in song.channels[0]] == [60, 60, 62, 60, 60, 62, 64, 76]
    assert [n.start for n in song.channels[0]][:3] == [0, Fraction(1, 8), Fraction(1, 4)]


def test_an_endless_repeat_makes_the_song_loop_seamlessly() -> None:
    song = parse("T120 @144 C4 [E4 G4]0 :1 @144 [O3 C2]0")
    assert song.loops
    assert song.loop_start == pytest.approx(0.5)
    assert song.duration == pytest.approx(1.5)  # loop of 1 s: lcm of 1/2 and 1/2 whole notes
    audio = render_song(song)
    assert audio.loop is not None and audio.first is not None
    assert len(audio.head) == round(0.5 * RATE)
    assert len(audio.loop) == len(audio.first) == RATE
    # BGMCHK says a looping song plays for ever.
    m = Machine(headless=True)
    m.bgmplay("T120 [C4]0")
    m.vsync(6000)
    assert m.bgmchk() == 1
    m.close()


def test_loop_wraps_the_last_notes_tail_round_to_its_start() -> None:
    audio = render_song(parse("T120 @0 [C4 R4]0"))  # a piano voice with a long release
    assert audio.loop is not None
    # The note is at the start of the loop; its release after the note ends is in
    # the middle, and nothing from it is lost at the seam.
    assert float(np.abs(audio.loop[: RATE // 10]).max()) > 0.05


# --------------------------------------------------------------------------- volume


def test_velocity_and_channel_volume_scale_the_level() -> None:
    loud = rms(render("@144 V127 A1"), 0.1, 1.9)
    half = rms(render("@144 V64 A1"), 0.1, 1.9)
    quiet = rms(render("@144 V127 @V32 A1"), 0.1, 1.9)
    assert half / loud == pytest.approx(64 / 127, rel=0.02)
    assert quiet / loud == pytest.approx(32 / 127, rel=0.02)
    assert rms(render("@144 V0 A1"), 0.1, 1.9) == 0.0
    song = parse("V100 (10 C )30 D ( E")
    assert [n.velocity for n in song.channels[0]] == [110, 80, 81]


def test_pan_moves_a_channel_left_and_right() -> None:
    left = render("@144 P0 A1")
    right = render("@144 P127 A1")
    assert np.abs(left[:, 1]).max() == 0 and np.abs(left[:, 0]).max() > 1000
    assert np.abs(right[:, 0]).max() == 0 and np.abs(right[:, 1]).max() > 1000


def test_a_full_chord_does_not_clip() -> None:
    samples = render(*(f":{i} @80 V127 O{3 + i // 3} {'CEG'[i % 3]}1" for i in range(8)))
    assert int(np.abs(samples.astype(np.int32)).max()) < 32767


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("mml", "words"),
    [
        ("C4 X", "'X' is not an MML command"),
        ("O9 C", "O 9 is out of range"),
        ("[C4", "never closed"),
        ("C4]", "without a matching"),
        (":16 C", "channel 16 is out of range"),
        ("@32768 C", "@ 32768 is out of range"),
        ("T0 C", "T 0 is out of range"),
        ("C200", "length 200 is out of range"),
        ("O8 B <C", "'<' takes the octave above 8"),
        ("O0 >C", "'>' takes the octave below 0"),
        ("[C]0 D X", "'X' is not an MML command"),  # unplayed MML is still read
        ("{A=C}{B}", r"macro \{B\} is not defined"),
        ("{A=C", "'{' is never closed"),
        ("C}", "'}' without a matching '{'"),
        ("{1=C}", "not a macro name"),
        ("$8=1", "'\\$' needs a variable 0-7"),
        ("$1 C", "needs '=' and a value"),
        ("$1=256", "out of range"),
        ("$1=200 N$1", r"N 200 \(from \$1\) is out of range"),
        ("@E1,2", "@E needs four numbers"),
        ("V", "V needs a number"),
        ("@X", "'@X' is not an MML command"),
        ("[[[C]99]99]99", "more than 20000 notes"),
    ],
)
def test_bad_mml_raises_a_typed_error_with_a_clear_message(mml: str, words: str) -> None:
    with pytest.raises(MmlError, match=words) as info:
        parse(mml)
    assert isinstance(info.value, IllegalFunctionCall) and isinstance(info.value, PetitcomError)
    assert "\n" not in str(info.value)


def test_error_names_the_position() -> None:
    with pytest.raises(MmlError, match="character 6 "):
        parse("CDEF Z")
    with pytest.raises(MmlError, match=r"character 4 \(channel 1\)"):
        parse("C", ":1X")  # positions count in the strings joined


def test_what_real_ptc_songs_use_is_accepted() -> None:
    """A public PTC v2 game's songs (docs/compat.md) use channels above 7, more than
    16 macros, macro names starting with ``_``, tones above 255 and @ML: PTC plays
    them, so none of it is refused."""
    song = parse(":10 C :15 D")
    assert sorted(song.channels) == [10, 15]
    defs = "".join(f"{{M{i}=C}}" for i in range(40))
    assert len(parse(defs + "{M0}{M39}").channels[0]) == 2
    assert len(parse("{_A=C}{B_1=D}{_A}{B_1}").channels[0]) == 2
    assert parse("@274 C @366 D").channels[0][1].tone == 366
    assert len(parse("@ML48,1,4,48 C").channels[0]) == 1


def test_accepted_but_unmodelled_commands_parse() -> None:
    song = parse("@D10 @MA1,2,3,4 @MP1,2,3,4 @MON @MOF @E127,100,80,90 C @ER D")
    assert len(song.channels[0]) == 2
    assert song.channels[0][0].envelope is not None and song.channels[0][1].envelope is None


# ----------------------------------------------------------------------- machine


def test_bgmchk_follows_machine_time_when_headless() -> None:
    m = Machine(headless=True)
    assert not m.bgm.enabled
    m.bgmplay("T120 C4 D4")  # one second
    assert m.bgmchk() == 1
    m.vsync(59)
    assert m.bgmchk() == 1
    m.vsync(1)
    assert m.bgmchk() == 0
    m.close()


def test_bgmplay_forms_tracks_stop_and_fade() -> None:
    m = Machine(headless=True)
    m.bgmset(128, "T120 C1", "D1")  # several strings are joined: 4 seconds
    m.bgmplay(3, 128, 100)
    m.bgmplay(5)  # preset 5 on track 0
    assert (m.bgmchk(0), m.bgmchk(3), m.bgmchk(1)) == (1, 1, 0)
    m.bgmstop(3, 0.5)  # seconds, a fraction allowed ([WIKI] BGMSTOP)
    m.vsync(29)
    assert m.bgmchk(3) == 1
    m.vsync(1)
    assert m.bgmchk(3) == 0 and m.bgmchk(0) == 1
    m.bgmplay(3, 128)
    m.bgmstop(3, 1)
    m.vsync(59)
    assert m.bgmchk(3) == 1
    m.vsync(1)
    assert m.bgmchk(3) == 0
    m.bgmstop()
    assert m.bgmchk(0) == 0
    m.bgmplay(200)  # an undefined user song plays nothing
    assert m.bgmchk() == 0
    m.bgmvol(64)
    m.bgmvol(2, 0)
    m.close()


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda m: m.bgmplay(30), OutOfRange),
        (lambda m: m.bgmplay(8, 0), OutOfRange),
        (lambda m: m.bgmplay(0, 0, 128), OutOfRange),
        (lambda m: m.bgmplay(0, "C"), IllegalFunctionCall),
        (lambda m: m.bgmplay(), IllegalFunctionCall),
        (lambda m: m.bgmset(127, "C"), OutOfRange),
        (lambda m: m.bgmvol(1, 2, 3), IllegalFunctionCall),
        (lambda m: m.bgmchk(8), OutOfRange),
        (lambda m: m.bgmstop(0, -1), OutOfRange),
        (lambda m: m.bgmstop(0, "1"), TypeError),
        (lambda m: m.bgmplay("C4 Y"), MmlError),
    ],
)
def test_bad_bgm_arguments_raise(call: object, error: type[Exception]) -> None:
    m = Machine(headless=True)
    with pytest.raises(error):
        call(m)  # type: ignore[operator]
    m.close()


def test_bad_bgmset_keeps_the_old_song() -> None:
    m = Machine(headless=True)
    m.bgmset(130, "T120 C1")
    with pytest.raises(MmlError):
        m.bgmset(130, "C1 Q9")
    assert m.bgm.song(130).duration == pytest.approx(2.0)
    m.bgmsetd(131, ["T120 C2", "D2", 0, "E2"])  # DATA strings up to the first number
    assert m.bgm.song(131).duration == pytest.approx(2.0)
    m.bgmclear(130)
    assert not m.bgm.song(130).channels
    m.close()


def test_every_preset_parses_and_loops() -> None:
    for n in PRESET_SONGS:
        song = parse(preset_mml(n))
        assert song.loops and 1.0 <= song.duration <= 20.0, n


@pytest.mark.parametrize("n", [0, 13, 29])
def test_presets_render_audibly(n: int) -> None:
    audio = render_song(parse(preset_mml(n)))
    assert audio.loop is not None
    assert 0.1 < float(np.abs(audio.loop).max()) < 1.0


# ----------------------------------------------------------- playback (dummy driver)


@pytest.fixture
def loud_machine() -> Iterator[Machine]:
    m = Machine(headless=True, audio=True)
    if not m.bgm.enabled:  # pragma: no cover - no mixer at all on this machine
        m.close()
        pytest.skip("no audio mixer (not even SDL's dummy driver)")
    yield m
    m.close()


def _wait_for_render(m: Machine, track: int = 0) -> None:
    future = m.bgm._tracks[track].audio
    assert future is not None
    future.result(timeout=30)
    m.vsync()


def test_songs_play_on_reserved_channels_apart_from_beep(loud_machine: Machine) -> None:
    m = loud_machine
    m.bgmplay(2, 0, 127)
    _wait_for_render(m, 2)
    channel = pygame.mixer.Channel(2)
    assert channel.get_busy()
    for _ in range(12):
        m.beep(0)
    assert channel.get_sound() is not None
    # BEEP never takes a BGM channel.
    for t in range(TRACKS):
        if t != 2:
            assert not pygame.mixer.Channel(t).get_busy()
    m.bgmvol(2, 64)
    assert channel.get_volume() == pytest.approx(64 / 127, abs=0.01)
    m.bgm.master = 0.5
    assert channel.get_volume() == pytest.approx(32 / 127, abs=0.01)
    m.bgmstop(2)
    assert not channel.get_busy()


def test_bgmset_renders_ahead_and_a_loop_stays_queued(loud_machine: Machine) -> None:
    m = loud_machine
    m.bgmset(140, "T240 @144 [C8 E8]0")
    future = m.bgm._prepare(m.bgm.song(140))
    assert future is not None
    future.result(timeout=30)
    m.bgmplay(0, 140)
    assert m.bgm._tracks[0].playing  # ready at once: no wait for a render
    m.vsync()
    assert pygame.mixer.Channel(0).get_queue() is not None


def test_a_silent_and_a_sounding_machine_agree_on_bgmchk(loud_machine: Machine) -> None:
    quiet = Machine(headless=True)
    for m in (quiet, loud_machine):
        m.bgmplay("T120 C4 D4 E4")
    for _ in range(100):
        quiet.vsync()
        loud_machine.vsync()
        assert quiet.bgmchk() == loud_machine.bgmchk()
    assert quiet.bgmchk() == 0
    quiet.close()


def test_a_failed_render_leaves_the_track_silent_but_timed(
    loud_machine: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    from petitcom_shim import bgm

    def broken(*args: object, **kwargs: object) -> None:
        raise MemoryError("no room")

    monkeypatch.setattr(bgm, "render_song", broken)
    m = loud_machine
    m.bgmplay("T120 E4 F4")
    (future,) = m.bgm._cache.values()
    assert isinstance(future.exception(timeout=30), MemoryError)
    m.vsync()
    assert m.bgm._tracks[0].audio is None  # given up on
    assert m.bgmchk() == 1 and not m.bgm._tracks[0].playing
    m.vsync(60)
    assert m.bgmchk() == 0


def test_machines_do_not_pile_up_mixer_channels(loud_machine: Machine) -> None:
    before = pygame.mixer.get_num_channels()
    again = Machine(headless=True, audio=True)
    assert pygame.mixer.get_num_channels() == before
    again.bgm.close()


def test_renders_that_bgmsetv_made_stale_are_dropped(loud_machine: Machine) -> None:
    """BGMSETV every frame with a new value: each change asks for a new render, and
    the ones no track wants any more are cancelled instead of queueing behind each
    other (the worker would fall ever further behind and the song stay silent)."""
    m = loud_machine
    m.bgmset(130, "$1=60 " + "N$1 " * 40)
    m.bgmplay(0, 130)
    wanted = []
    for frame in range(30):
        m.bgmsetv(0, 1, 40 + frame)
        m.vsync()
        wanted.append(m.bgm._tracks[0].audio)
    left = [f for f in wanted if f is not None and not f.cancelled()]
    assert len(left) <= 10
    _wait_for_render(m)
    assert m.bgm._tracks[0].playing
