"""BGM for the emulated Petit Computer: our own numpy synth for MML songs, and the player.

:func:`render_song` turns a parsed :class:`~petitcom_shim.mml.Song` into stereo
samples with a few DS-style voices of our own (pulse waves of several duties,
triangle, saw, a soft organ, bells, noise and a small drum kit; no samples from
anyone). :class:`Bgm` plays songs on 8 player tracks (BGMPLAY's ``track``), each
on its own reserved mixer channel, apart from BEEP's channels.

Rendering never stalls the frame loop: a song is rendered once in a worker
thread and cached (BGMSET starts the render at once, so a later BGMPLAY of that
song is instant); the frame hook :meth:`Bgm.update` starts playback when the
samples are ready, at the point the song has reached by then. BGMCHK is worked
out from the song's length and the machine's frame clock, never from the audio
device, so a program behaves the same with sound, without a device and headless.

Songs 0-29 are our own short loops (PTC's ROM songs are not ours to ship);
128-255 are user songs set with BGMSET/BGMSETD.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import ctypes
import logging
import math
import operator
import os
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Final, SupportsIndex

import numpy as np
import numpy.typing as npt
import pygame
import pygame.sndarray

from petitcom_shim.errors import IllegalFunctionCall, OutOfRange
from petitcom_shim.mml import MAX_VARIABLE, VARIABLES, Envelope, Note, Song, parse
from petitcom_shim.numbers import to_int
from petitcom_shim.sound import (
    MIXER_CHANNELS,
    SAMPLE_RATE,
    _check,
    _pan_gains,
    _poly_blep,
    _pulse,
    _triangle,
    mixer_format,
    mixer_samples,
)

__all__ = [
    "PRESET_SONGS",
    "PROGRAMS",
    "TRACKS",
    "USER_SONGS",
    "Bgm",
    "SongAudio",
    "Voice",
    "program_voice",
    "render",
    "render_song",
    "voice",
]

_log = logging.getLogger(__name__)

#: Player tracks (BGMPLAY's ``track``), each with its own mixer channel.
TRACKS = 8
#: Song numbers: presets and user songs.
PRESET_SONGS = range(30)
USER_SONGS = range(128, 256)
VOL_MAX = 127
#: Level of one channel at full velocity and volume: 8 channels stay below clipping
#: in all but the densest chords.
CHANNEL_GAIN = 0.2
_CACHE_SIZE = 8
_NAIVE_TRIANGLE_HZ = 1200.0

FloatArray = npt.NDArray[np.float64]
Stereo = npt.NDArray[np.float32]


# ------------------------------------------------------------------------------ voices


@dataclass(frozen=True)
class Voice:
    """How one tone (@n) sounds.

    Attributes:
        wave: "pulse" (with ``duty``), "triangle", "saw", "organ", "bell", "noise", "drum"
            or "table" (one cycle of ``table``, a BGMPRG waveform).
        duty: Pulse width for "pulse" (0.125 to 0.875).
        attack: Seconds to full level.
        decay: Time constant in seconds of the fall towards ``sustain``.
        sustain: Level held while the note lasts (0-1).
        release: Seconds to silence after the note ends.
        level: Loudness, so that voices sound about equally loud.
        table: The samples (-1..1) of one cycle, for "table".
        root: For "table": the key whose pitch the cycle sounds at unshifted; key k
            plays it ``k - root`` semitones higher than middle C (60).
    """

    wave: str
    duty: float = 0.5
    attack: float = 0.004
    decay: float = 0.3
    sustain: float = 0.7
    release: float = 0.06
    level: float = 1.0
    table: tuple[float, ...] = ()
    root: int = 60


_FAMILIES: tuple[Voice, ...] = (
    Voice("pulse", 0.25, decay=0.5, sustain=0.3, release=0.12, level=0.8),  # 0 piano
    Voice("bell", decay=0.45, sustain=0.0, release=0.3, level=1.0),  # 8 chromatic percussion
    Voice("organ", attack=0.01, decay=1.0, sustain=0.9, release=0.05, level=0.9),  # 16 organ
    Voice("pulse", 0.125, decay=0.25, sustain=0.15, release=0.1, level=0.8),  # 24 guitar
    Voice("triangle", decay=0.6, sustain=0.8, release=0.05, level=1.3),  # 32 bass
    Voice("saw", attack=0.06, decay=1.0, sustain=0.85, release=0.15, level=0.6),  # 40 strings
    Voice("saw", attack=0.08, decay=1.0, sustain=0.85, release=0.2, level=0.55),  # 48 ensemble
    Voice("pulse", 0.5, attack=0.02, decay=0.4, sustain=0.7, release=0.08, level=0.6),  # 56 brass
    Voice("pulse", 0.25, attack=0.03, decay=0.6, sustain=0.8, release=0.08, level=0.7),  # 64 reed
    Voice("triangle", attack=0.04, decay=1.0, sustain=0.9, release=0.1, level=1.3),  # 72 pipe
    Voice("pulse", 0.5, decay=0.5, sustain=0.75, release=0.05, level=0.6),  # 80 synth lead
    Voice("triangle", attack=0.25, decay=1.0, sustain=0.9, release=0.4, level=1.2),  # 88 pad
    Voice("pulse", 0.125, attack=0.1, decay=1.0, sustain=0.7, release=0.3, level=0.7),  # 96 fx
    Voice("pulse", 0.25, decay=0.3, sustain=0.5, release=0.1, level=0.7),  # 104 ethnic
    Voice("drum", level=1.0),  # 112 percussive: drums too
    Voice("noise", decay=0.2, sustain=0.2, release=0.1, level=0.5),  # 120 sound effects
)
_SQUARE = Voice("pulse", 0.5, decay=0.5, sustain=0.75, release=0.05, level=0.6)


#: BGMPRG's instruments.
PROGRAMS = range(224, 256)
#: BGMPRG's waveform: 64 or 128 samples of two hex digits ([EMK] ``bgmprg_``).
PROGRAM_SAMPLES = (64, 128)


def program_voice(args: tuple[object, ...]) -> tuple[int, Voice]:
    """BGMPRG's forms as (instrument, voice): ``instr,wave$``, ``instr,key,wave$``,
    ``instr,a,d,s,r,wave$`` or ``instr,key,a,d,s,r,wave$`` ([EMK] ``Sound::bgmprg_``).

    ``wave$`` holds 64 or 128 signed 8-bit samples as hex (``"80"`` = -128,
    ``"7F"`` = 127) of one cycle; a, d, s, r are 0-127 as in MML's ``@E``; key
    (0-127, default 60) is the key the cycle sounds unshifted at.

    Raises:
        IllegalFunctionCall: another form, or a waveform of the wrong length or
            not hex.
        OutOfRange: an instrument outside 224-255 or a number out of range.
    """
    if len(args) not in (2, 3, 6, 7) or not isinstance(args[-1], str):
        raise IllegalFunctionCall(
            "BGMPRG takes instr,[key,][a,d,s,r,]wave$ with a waveform string last"
        )
    if not all(isinstance(a, int | float) for a in args[:-1]):
        raise IllegalFunctionCall("BGMPRG's instrument, key and envelope are numbers")
    # Fractions are dropped as for every PTC verb (BASIC's K/2 is a fraction).
    numbers = [to_int(a) for a in args[:-1]]  # type: ignore[arg-type]
    instr = _check("instrument", numbers[0], PROGRAMS.start, PROGRAMS.stop - 1)
    rest = numbers[1:]
    key = _check("key", rest.pop(0), 0, 127) if len(rest) in (1, 5) else 60
    wave = args[-1]
    if len(wave) // 2 not in PROGRAM_SAMPLES or len(wave) % 2:
        raise IllegalFunctionCall(f"BGMPRG's waveform has {len(wave)} hex digits, not 128 or 256")
    try:
        raw = bytes.fromhex(wave)
    except ValueError:
        raise IllegalFunctionCall("BGMPRG's waveform must be hex digits 0-9, A-F") from None
    table = tuple((b - 256 if b >= 128 else b) / 128 for b in raw)
    base = Voice("table", table=table, root=key, decay=1.0, sustain=1.0, release=0.05, level=0.8)
    if rest:
        names = ("attack", "decay", "sustain", "release")
        envelope = Envelope(*(_check(n, v, 0, VOL_MAX) for n, v in zip(names, rest, strict=True)))
        base = _with_envelope(base, envelope)
    return instr, base


def voice(tone: int) -> Voice:
    """The voice of tone ``tone`` (0-255).

    0-127 follow the General MIDI families (piano, bells, organ, ... 8 tones
    each) with one voice per family; 128-129 are the drum kit (the key picks the
    drum); 144-150 are pulse waves of duty 12.5% to 87.5%; 151 is noise. The
    rest (PTC's 224-255 until BGMPRG defines them) are
    a plain square.
    """
    if 0 <= tone < 128:
        return _FAMILIES[tone // 8]
    if tone in (128, 129):
        return Voice("drum")
    if 144 <= tone <= 150:
        return Voice("pulse", (tone - 143) / 8, decay=0.5, sustain=0.75, release=0.05, level=0.6)
    if tone == 151:
        return Voice("noise", decay=1.0, sustain=0.8, release=0.05, level=0.5)
    return _SQUARE


def _with_envelope(v: Voice, env: Envelope | None) -> Voice:
    """The voice with an @E envelope (127 = fastest / loudest)."""
    if env is None:
        return v

    def seconds(value: int, longest: float) -> float:
        return ((VOL_MAX - value) / VOL_MAX) ** 2 * longest + 0.002

    return replace(
        v,
        attack=seconds(env.attack, 2.0),
        decay=seconds(env.decay, 3.0),
        sustain=env.sustain / VOL_MAX,
        release=seconds(env.release, 2.0),
    )


def key_hz(key: float) -> float:
    """Frequency of a MIDI key (69 = A4 = 440 Hz; O4 C = 60)."""
    return float(440.0 * 2.0 ** ((key - 69) / 12))


# ------------------------------------------------------------------------------ synth


def _noise(cycles: npt.NDArray[np.floating[Any]], seed: int) -> FloatArray:
    """Sample-and-hold noise, a new value each cycle (the pitch sets its brightness)."""
    rng = np.random.default_rng(seed)
    values = rng.choice(np.array([-1.0, 1.0]), size=int(cycles[-1]) + 2)
    out: FloatArray = values[cycles.astype(np.int64)]
    return out


def _wave(v: Voice, freq: FloatArray, rate: int, seed: int) -> FloatArray:
    freq = np.minimum(freq, 0.45 * rate) if v.wave != "noise" else freq
    step = freq / rate
    cycles = np.cumsum(step) - step[0]
    phase = cycles % 1.0
    out: FloatArray
    if v.wave == "pulse":
        out = _pulse(phase, step, v.duty)
    elif v.wave == "triangle" and float(freq.max()) < _NAIVE_TRIANGLE_HZ:
        # Harmonics of a triangle fall as 1/k**2: below this pitch the aliased ones
        # are more than 40 dB down, and the plain shape is ten times faster.
        out = 4.0 * np.abs(phase - 0.5) - 1.0
    elif v.wave == "triangle":
        out = _triangle(cycles, step)
    elif v.wave == "saw":
        out = 2.0 * phase - 1.0 - _poly_blep(phase, step)
    elif v.wave == "organ":
        out = (
            np.sin(2 * math.pi * cycles)
            + 0.5 * np.sin(4 * math.pi * cycles)
            + 0.25 * np.sin(6 * math.pi * cycles)
        ) / 1.4
    elif v.wave == "table":
        table = np.asarray(v.table, dtype=np.float64)
        out = table[(phase * len(table)).astype(np.int64) % len(table)]
    elif v.wave == "bell":
        out = (np.sin(2 * math.pi * cycles) + 0.3 * np.sin(2 * math.pi * 3.5 * cycles)) / 1.2
    else:  # noise: the key sets how often a new value is drawn
        out = _noise(cycles * 16, seed)
    return out


def _envelope(v: Voice, on: int, total: int, rate: int) -> FloatArray:
    t = np.arange(total, dtype=np.float64) / rate
    rise = np.minimum(1.0, t / max(v.attack, 1e-4))
    after = np.maximum(0.0, t - v.attack)
    level = v.sustain + (1.0 - v.sustain) * np.exp(-after / max(v.decay, 1e-4))
    env: FloatArray = rise * level
    if total > on:
        held = env[on - 1] if on > 0 else 0.0
        fall = np.arange(1, total - on + 1, dtype=np.float64) / max(total - on, 1)
        env[on:] = held * (1.0 - fall)
    return env


def _drum(key: int, rate: int, seed: int) -> FloatArray:
    """One hit of our drum kit: the key picks kick, snare, toms, hi-hats or a cymbal."""
    if key <= 36:  # kick
        n = int(0.22 * rate)
        t = np.arange(n) / rate
        freq = 45.0 + 110.0 * np.exp(-t / 0.03)
        body = np.sin(2 * math.pi * np.cumsum(freq) / rate) * np.exp(-t / 0.07)
        return body * 1.6
    if 37 <= key <= 40:  # snare
        n = int(0.18 * rate)
        t = np.arange(n) / rate
        hiss = _noise(np.arange(n) * (7000 / rate), seed) * np.exp(-t / 0.05)
        tone = np.sin(2 * math.pi * 190 * t) * np.exp(-t / 0.03)
        return 0.7 * hiss + 0.6 * tone
    if key in (42, 44, 46):  # hi-hats, 46 open
        n = int((0.25 if key == 46 else 0.05) * rate)
        t = np.arange(n) / rate
        return (
            0.5
            * _noise(np.arange(n) * (14000 / rate), seed)
            * np.exp(-t / (0.08 if key == 46 else 0.015))
        )
    if key in (49, 51, 52, 55, 57, 59):  # cymbals
        n = int(0.8 * rate)
        t = np.arange(n) / rate
        return 0.4 * _noise(np.arange(n) * (12000 / rate), seed) * np.exp(-t / 0.25)
    # toms (and every other key): a pitched thump following the key
    n = int(0.25 * rate)
    t = np.arange(n) / rate
    base = key_hz(key - 12)
    freq = base * (1.0 + 0.5 * np.exp(-t / 0.04))
    return np.sin(2 * math.pi * np.cumsum(freq) / rate) * np.exp(-t / 0.1)


def _note_samples(
    song: Song, note: Note, rate: int, seed: int, programs: Mapping[int, Voice]
) -> tuple[int, FloatArray]:
    """(first sample, mono samples) of one note, at full velocity/volume."""
    v = _with_envelope(programs.get(note.tone) or voice(note.tone), note.envelope)
    start = song.seconds(note.start)
    first = round(start * rate)
    if v.wave == "drum":
        return first, v.level * _drum(note.key, rate, seed)
    sounding = note.start + note.length * max(note.gate, 0.5) / 8  # Q0: a blip
    on = max(1, round(song.seconds(sounding) * rate) - first)
    total = on + max(1, round(v.release * rate))
    keys = np.empty(total)
    starts = [max(0, round(song.seconds(note.start + o) * rate) - first) for o, _ in note.keys]
    for i, (_, key) in enumerate(note.keys):  # a tie to another pitch switches at its offset
        keys[starts[i] :] = key
        if i in note.slides:  # '_': slide from the key before over this part
            stop = starts[i + 1] if i + 1 < len(starts) else on
            span = max(1, min(stop, total) - starts[i])
            keys[starts[i] : starts[i] + span] = np.linspace(note.keys[i - 1][1], key, span)
    if v.wave == "table":
        keys += 60 - v.root
    wave = _wave(v, 440.0 * 2.0 ** ((keys - 69) / 12), rate, seed)
    return first, v.level * wave * _envelope(v, on, total, rate)


@dataclass(frozen=True)
class SongAudio:
    """A rendered song as float32 stereo arrays in -1..1.

    A song that does not loop is all in ``head``. A looping song plays ``head``
    (up to the loop's start), then ``first`` (the repeating part with the tails
    of notes from before it), then ``loop`` for ever.
    """

    head: Stereo
    first: Stereo | None = None
    loop: Stereo | None = None


def render_song(
    song: Song,
    sample_rate: int = SAMPLE_RATE,
    *,
    between: Callable[[], None] | None = None,
    programs: Mapping[int, Voice] | None = None,
) -> SongAudio:
    """Render every channel of ``song`` and mix them (pure numpy; no audio device).

    ``programs`` are BGMPRG's instruments (224-255) by number.

    ``between`` is called after each note: the player's worker passes a zero-length
    sleep, which hands the interpreter lock to the frame loop at once.
    """
    rate = int(sample_rate)
    loop_at = round(song.loop_start * rate)
    end = round(song.duration * rate)
    tail = int(1.5 * rate)  # room for release tails
    # float32 halves the memory of a long song (10 minutes: 100 MB instead of 200).
    out = np.zeros((max(end, 1) + tail, 2), dtype=np.float32)
    loop_len = end - loop_at if song.loops else 0
    folded = np.zeros((max(loop_len, 1), 2), dtype=np.float32)
    for channel, notes in sorted(song.channels.items()):
        for index, note in enumerate(notes):
            seed = channel * 100_003 + index
            first, mono = _note_samples(song, note, rate, seed, programs or {})
            gain = CHANNEL_GAIN * (note.velocity / VOL_MAX) * (note.volume / VOL_MAX)
            left, right = _pan_gains(note.pan)
            stereo = np.outer(mono * gain, (left, right))
            if song.loops and first >= loop_at:
                # A note of the repeating part: wrap its samples round the loop, so
                # the tail of the last note rings into the next time round.
                _add_wrapped(folded, stereo, first - loop_at)
            else:
                stop = min(len(out), first + len(stereo))
                out[first:stop] += stereo[: stop - first]
            if between is not None:
                between()
    if not song.loops:
        last = np.flatnonzero(np.abs(out).max(axis=1) > 1e-4)
        length = max(end, int(last[-1]) + 1 if len(last) else 0)
        return SongAudio(head=_finish(out[:length]))
    head = out[:loop_at]
    carried = np.zeros_like(folded)
    spill = out[loop_at : loop_at + loop_len]
    carried[: len(spill)] = spill
    return SongAudio(
        head=_finish(head),
        first=_finish(folded + carried),
        loop=_finish(folded),
    )


def _add_wrapped(loop: Stereo, samples: FloatArray, at: int) -> None:
    """Add ``samples`` into ``loop`` from ``at`` on, wrapping round its end."""
    done = 0
    at %= len(loop)
    while done < len(samples):
        count = min(len(samples) - done, len(loop) - at)
        loop[at : at + count] += samples[done : done + count]
        done += count
        at = 0


def _finish(samples: Stereo) -> Stereo:
    out: Stereo = samples.copy()
    np.minimum(out, 1.0, out=out)
    np.maximum(out, -1.0, out=out)
    return out


def render(*mml: str, sample_rate: int = SAMPLE_RATE) -> npt.NDArray[np.int16]:
    """MML as 16-bit stereo samples of one play: a looping song goes once round its loop.

    For tests, tools and listening: the player uses :func:`render_song`.

    Raises:
        MmlError: bad MML.
    """
    audio = render_song(parse(*mml), sample_rate)
    parts = [audio.head] + ([audio.first] if audio.first is not None else [])
    return _to_int16(np.concatenate(parts))


def _to_int16(samples: Stereo) -> npt.NDArray[np.int16]:
    return np.round(samples.astype(np.float64) * 32767.0).astype(np.int16)


# ---------------------------------------------------------------------------- presets

# Six short loops of our own; each is played in five arrangements (tone, tempo,
# key), which gives songs 0-29.
_MOTIFS = (
    "L8 [CEGE FAGF EGCE D4G4]0 :1 L4 >[C G F G C E D G]0",
    "L8 [G4EC DEFD E4CE G2]0 :1 L2 >[C C F G]0",
    "L16 [CDEG EDC8 D8G8 C4]0 :1 L8 >[CC GG CC GG]0",
    "L4 [E D C D E E E2 D D D2 E G G2]0 :1 L2 >[C G C C G G C C]0",
    "L8 [A>C<BA E4E4 FEDF E2]0 :1 L2 >[A E D E]0",
    "L8 [C.D16 EG A4G4 FED4 C2]0 :1 L4 >[C G A F C G C2]0",
)
_ARRANGEMENTS = (
    ("T120", "@80", "@32", "O4"),
    ("T96", "@72", "@88", "O5"),
    ("T140", "@144", "@32", "O4"),
    ("T108", "@8", "@0", "O5"),
    ("T132", "@146", "@33", "O4"),
)


def _preset(n: int) -> str:
    tempo, lead, bass, octave = _ARRANGEMENTS[n // len(_MOTIFS)]
    melody, accompaniment = _MOTIFS[n % len(_MOTIFS)].split(":1")
    return f"{tempo}{lead}{octave}V90{melody}:1{bass}{octave}V80{accompaniment}"


def preset_mml(n: int) -> str:
    """The MML of preset song ``n`` (0-29), our own compositions."""
    if n not in PRESET_SONGS:
        raise OutOfRange(f"preset song {n} is out of range (0 to 29)")
    return _preset(n)


# ----------------------------------------------------------------------------- player


@dataclass
class _Track:
    song: Song | None = None
    started: float = 0.0
    volume: int = VOL_MAX
    ends: float | None = None  # a fade-out stops the song early
    audio: concurrent.futures.Future[tuple[Any, ...]] | None = None
    playing: bool = False  # audio handed to the mixer
    queue: list[Any] | None = None
    loop: Any = None


#: The longest BGMSTOP fade, in seconds (a guard; PTC's own limit is unknown).
MAX_FADE_SECONDS = 3600


class Bgm:
    """BGMPLAY/BGMSTOP/BGMVOL/BGMCHK/BGMSET on 8 player tracks.

    Args:
        enabled: Play through the pygame mixer (it must already be open, as
            :class:`~petitcom_shim.sound.Sound` opens it); False = silent.
        clock: Seconds of machine time (frames / 60): BGMCHK and the point a late
            render starts from follow it, so step mode and real time agree.
    """

    def __init__(self, enabled: bool, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._tracks = [_Track() for _ in range(TRACKS)]
        self._user: dict[int, Song] = {}
        self._presets: dict[int, Song] = {}
        self._cache: OrderedDict[Hashable, concurrent.futures.Future[tuple[Any, ...]]] = (
            OrderedDict()
        )
        self._programs: dict[int, Voice] = {}
        self._executor: concurrent.futures.ThreadPoolExecutor | None = None
        self._rate = SAMPLE_RATE
        self._channels = 2
        self._dtype: type[np.generic] = np.int16
        self._master = 1.0
        self.enabled = enabled and self._open()

    def _open(self) -> bool:
        found = mixer_format()
        if found is None:
            return False
        self._rate, self._channels, self._dtype = found
        # Channels 0-7 are BGM's alone: BEEP's find_channel() skips reserved ones.
        wanted = MIXER_CHANNELS + TRACKS
        pygame.mixer.set_num_channels(max(pygame.mixer.get_num_channels(), wanted))
        pygame.mixer.set_reserved(TRACKS)
        return True

    # -- songs
    def set(self, n: SupportsIndex, *mml: str) -> None:
        """BGMSET n,"mml"...: define user song n (128-255); starts rendering it ahead.

        Raises:
            OutOfRange: n outside 128-255.
            MmlError: bad MML (the old song n stays).
        """
        number = _check("song", n, USER_SONGS.start, USER_SONGS.stop - 1)
        song = parse(*mml)
        self._user[number] = song
        self._prepare(song)

    def setd(self, n: SupportsIndex, data: Iterable[object]) -> None:
        """BGMSETD n,@label: the MML strings of ``data`` up to the first number.

        Raises:
            OutOfRange: n outside 128-255.
            MmlError: bad MML.
        """
        parts = []
        for item in data:
            if not isinstance(item, str):
                break
            parts.append(item)
        self.set(n, *parts)

    def clear(self, n: SupportsIndex | None = None) -> None:
        """BGMCLEAR [n]: forget user song n, or all of them."""
        if n is None:
            self._user.clear()
        else:
            self._user.pop(_check("song", n, USER_SONGS.start, USER_SONGS.stop - 1), None)

    def song(self, n: SupportsIndex) -> Song:
        """Song number n: a preset (0-29) or a user song (128-255; empty if never set)."""
        number = operator.index(n)
        if number in PRESET_SONGS:
            if number not in self._presets:
                self._presets[number] = parse(preset_mml(number))
            return self._presets[number]
        if number in USER_SONGS:
            return self._user.get(number) or parse("")
        raise OutOfRange(f"song {number} is out of range (0-29 or 128-255)")

    def program(self, *args: object) -> None:
        """BGMPRG: define instrument 224-255 from a waveform (see :func:`program_voice`).

        Songs rendered from now on use it; one already playing keeps its sound.
        """
        instr, v = program_voice(args)
        self._programs[instr] = v

    # -- song variables
    def _playing_song(self, track: SupportsIndex) -> tuple[_Track, Song] | None:
        state = self._tracks[_check("track", track, 0, TRACKS - 1)]
        if state.song is None or not self.check(track):
            return None
        return state, state.song

    def getv(self, track: SupportsIndex, n: SupportsIndex) -> int:
        """BGMGETV(track,n): ``$n`` of the song playing on the track, -1 if never set
        or if the track plays nothing ([WIKI] BGMGETV)."""
        var = _check("variable", n, 0, VARIABLES - 1)
        playing = self._playing_song(track)
        if playing is None:
            return -1
        state, song = playing
        return song.variable(var, self._clock() - state.started)

    def setv(self, track: SupportsIndex, n: SupportsIndex, value: SupportsIndex) -> None:
        """BGMSETV track,n,value: set ``$n`` (0-7) of the playing song to 0-255 from now
        on ([WIKI] BGMSETV); nothing happens when the track plays nothing.

        The song is parsed again with the change and, with sound, rendered again and
        picked up from the point it has reached (see the decisions doc).
        """
        var = _check("variable", n, 0, VARIABLES - 1)
        number = _check("value", value, 0, MAX_VARIABLE)
        playing = self._playing_song(track)
        if playing is None:
            return
        state, song = playing
        now = self._clock() - state.started
        at = song.position(now)
        looped = song.loop_from is not None and at >= song.loop_from
        if looped and song.loop_from is not None:
            at = song.loop_from  # the next times round the loop use it from the start
        change = (at, var, number)
        if change in song.overrides or (not looped and song.variable(var, now) == number):
            return  # the song plays on unchanged: no parse, no render
        # A later change of $n at the same point replaces the earlier one, so a
        # program setting it every frame of a loop keeps one override, not thousands.
        kept = tuple(o for o in song.overrides if o[:2] != (at, var))
        state.song = parse(song.text, overrides=(*kept, change))
        if self.enabled:
            if state.playing and pygame.mixer.get_init() is not None:
                _halt(_check("track", track, 0, TRACKS - 1))
            state.playing, state.queue, state.loop = False, None, None
            state.audio = self._prepare(state.song)
            self.update()

    # -- playing
    def play(self, track: SupportsIndex, song: Song, vol: SupportsIndex = VOL_MAX) -> None:
        """Start ``song`` on ``track`` (0-7) at ``vol`` (0-127), replacing what it played."""
        t = _check("track", track, 0, TRACKS - 1)
        volume = _check("volume", vol, 0, VOL_MAX)
        self.stop(t)
        state = self._tracks[t]
        state.song, state.started, state.volume, state.ends = song, self._clock(), volume, None
        if self.enabled and song.channels:
            state.audio = self._prepare(song)
            self.update()

    def stop(self, track: SupportsIndex | None = None, fade: float = 0) -> None:
        """BGMSTOP [track[,fade]]: stop a track (all when None), fading out over ``fade``
        seconds, a fraction allowed ([WIKI] BGMSTOP: "measured in seconds ... not
        rounded down"; a public PTC v2 game fades over 0.5 and 1.5).

        Raises:
            OutOfRange: fade outside 0-3600 seconds, or a bad track.
            TypeError: fade is not a number.
        """
        if isinstance(fade, bool) or not isinstance(fade, int | float):
            raise TypeError(f"BGMSTOP's fade must be a number, not {type(fade).__name__}")
        if not 0 <= fade <= MAX_FADE_SECONDS:
            raise OutOfRange(f"fade {fade} is out of range (0 to {MAX_FADE_SECONDS} seconds)")
        frames = math.ceil(fade * 60)
        tracks = range(TRACKS) if track is None else [_check("track", track, 0, TRACKS - 1)]
        for t in tracks:
            state = self._tracks[t]
            if state.song is None:
                continue
            if frames and self.check(t):
                state.ends = self._clock() + frames / 60
                if self.enabled and state.playing:
                    channel = pygame.mixer.Channel(t)
                    channel.fadeout(round(frames * 1000 / 60))
                    channel.queue(self._silence())  # replaces the queued part of the song
                    state.queue, state.loop = [], None
                continue
            if self.enabled and state.playing and pygame.mixer.get_init() is not None:
                _halt(t)
            self._tracks[t] = _Track(volume=state.volume)

    def volume(self, track: SupportsIndex, vol: SupportsIndex) -> None:
        """BGMVOL track,vol: a track's volume 0-127, also while it plays."""
        t = _check("track", track, 0, TRACKS - 1)
        self._tracks[t].volume = _check("volume", vol, 0, VOL_MAX)
        self._apply_volume(t)

    @property
    def master(self) -> float:
        """A volume 0-1 over every track, for a program's own music setting."""
        return self._master

    @master.setter
    def master(self, value: float) -> None:
        if not 0.0 <= value <= 1.0:
            raise OutOfRange(f"master volume {value} is out of range (0 to 1)")
        self._master = float(value)
        for t in range(TRACKS):
            self._apply_volume(t)

    def check(self, track: SupportsIndex = 0) -> bool:
        """BGMCHK(track): True while the track is playing (by machine time)."""
        state = self._tracks[_check("track", track, 0, TRACKS - 1)]
        if state.song is None:
            return False
        now = self._clock()
        if state.ends is not None:
            return now < state.ends
        return state.song.loops or now - state.started < state.song.duration

    # -- frame hook
    def update(self) -> None:
        """Once a frame: start songs whose render is ready, keep loops queued, end songs."""
        for t, state in enumerate(self._tracks):
            if state.song is None:
                continue
            if not self.check(t):
                if state.playing and self.enabled:
                    _halt(t)
                self._tracks[t] = _Track(volume=state.volume)
                continue
            if not self.enabled or state.audio is None:
                continue
            if state.audio.done() and state.audio.exception() is not None:
                _log.warning("BGM track %d is silent: %s", t, state.audio.exception())
                state.audio = None  # BGMCHK still follows the song
                continue
            try:
                if not state.playing and state.audio.done():
                    self._start(t, state)
                elif state.playing:
                    self._feed(t, state)
            except pygame.error as err:  # the device went away: carry on silently
                _log.info("BGM is silent from now on (%s)", err)
                self.enabled = False

    def _start(self, t: int, state: _Track) -> None:
        assert state.song is not None and state.audio is not None
        head, first, loop = state.audio.result()
        offset = round((self._clock() - state.started) * self._rate)
        parts: list[Any] = []
        if offset < len(head):
            parts.append(head[offset:])
            if first is not None:
                parts.append(first)
        elif loop is not None:
            parts.append(loop[(offset - len(head)) % len(loop) :])
        parts = [p for p in parts if len(p)]
        if not parts:
            return
        sounds = [pygame.sndarray.make_sound(np.ascontiguousarray(p)) for p in parts]
        state.loop = pygame.sndarray.make_sound(loop) if loop is not None else None
        channel = pygame.mixer.Channel(t)
        channel.play(sounds[0])
        state.queue = sounds[1:]
        state.playing = True
        self._apply_volume(t)
        self._feed(t, state)

    def _feed(self, t: int, state: _Track) -> None:
        channel = pygame.mixer.Channel(t)
        if channel.get_queue() is not None:
            return
        if state.queue:
            channel.queue(state.queue.pop(0))
        elif state.loop is not None:
            channel.queue(state.loop)

    def _silence(self) -> Any:
        samples = np.zeros((1, 2), dtype=np.int16)
        return pygame.sndarray.make_sound(mixer_samples(samples, self._channels, self._dtype))

    def _apply_volume(self, t: int) -> None:
        if self.enabled and self._tracks[t].playing and pygame.mixer.get_init() is not None:
            pygame.mixer.Channel(t).set_volume(self._tracks[t].volume / VOL_MAX * self._master)

    # -- rendering
    def _prepare(self, song: Song) -> concurrent.futures.Future[tuple[Any, ...]] | None:
        """The render of ``song`` in mixer format, started in the worker thread if new."""
        if not self.enabled or not song.channels:
            return None
        key = (song.text, song.overrides, tuple(sorted(self._programs.items())))
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        if self._executor is None:
            return_big_blocks()
            self._executor = concurrent.futures.ThreadPoolExecutor(
                max_workers=1, thread_name_prefix="bgm-render", initializer=_lower_priority
            )
        future = self._executor.submit(
            _render_for_mixer, song, self._rate, self._channels, self._dtype, dict(self._programs)
        )
        self._cache[key] = future
        if len(self._cache) > _CACHE_SIZE:
            _, old = self._cache.popitem(last=False)
            if all(state.audio is not old for state in self._tracks):
                # Not rendered yet and wanted by no track (e.g. a song BGMSETV has
                # changed since): drop it, so the worker's queue stays short.
                old.cancel()
        return future

    def close(self) -> None:
        """Stop every track and the render thread."""
        if self.enabled and pygame.mixer.get_init() is not None:
            for t in range(TRACKS):
                _halt(t)
            pygame.mixer.set_reserved(0)  # the mixer may outlive this machine
        self._tracks = [_Track() for _ in range(TRACKS)]
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
        self._cache.clear()
        self.enabled = False


MMAP_THRESHOLD: Final = 1 << 20
"""Blocks this large or larger are mapped on their own, so freeing one returns it."""


def return_big_blocks() -> None:
    """Make glibc give freed blocks of 1 MB and more back to the system at once.

    A render's temporaries are several MB (a 20-second song: 7 MB a stereo copy,
    14 MB as float64 on the way to int16). glibc maps such blocks on their own and
    unmaps them when freed, but each free raises that threshold to the block's
    size (up to 32 MB), after which blocks of that size come from the heap and
    stay resident once freed: rendering the game's three songs left some 30 MB
    held (issue 18). A fixed threshold keeps it. Elsewhere (another C library,
    another system) this does nothing.
    """
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError, TypeError):
        libc = ctypes.CDLL(None)
        m_mmap_threshold = -3  # glibc's malloc.h
        libc.mallopt(m_mmap_threshold, MMAP_THRESHOLD)


def _lower_priority() -> None:
    """Let the frame loop win the CPU over the render thread (Linux: a thread has its
    own nice value); elsewhere the render simply runs at normal priority."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)


def _let_frames_run() -> None:
    time.sleep(0)


def _halt(track: int) -> None:
    """Stop a track's channel. pygame starts the queued sound when a channel is
    stopped, so the second stop ends that one too."""
    channel = pygame.mixer.Channel(track)
    channel.stop()
    channel.stop()


def _render_for_mixer(
    song: Song, rate: int, channels: int, dtype: type[np.generic], programs: dict[int, Voice]
) -> tuple[Any, ...]:
    """Worker-thread job: render and convert to the mixer's layout (no pygame calls)."""
    audio = render_song(song, rate, between=_let_frames_run, programs=programs)
    parts = (audio.head, audio.first, audio.loop)
    return tuple(None if p is None else mixer_samples(_to_int16(p), channels, dtype) for p in parts)


def parse_play_args(args: tuple[object, ...]) -> tuple[int, int | tuple[str, ...], int]:
    """BGMPLAY's forms as (track, song number or MML strings, vol).

    ``(song)``, ``(track, song)``, ``(track, song, vol)`` with a song number, or
    ``("mml", ...)`` with one or more MML strings (track 0, vol 127).

    Raises:
        IllegalFunctionCall: any other form.
    """
    if args and all(isinstance(a, str) for a in args):
        return 0, tuple(str(a) for a in args), VOL_MAX
    numbers = [a for a in args if isinstance(a, int)]
    if not args or len(args) > 3 or len(numbers) != len(args):
        raise IllegalFunctionCall(
            "BGMPLAY takes song, track,song or track,song,vol (numbers), or MML strings"
        )
    if len(numbers) == 1:
        return 0, numbers[0], VOL_MAX
    if len(numbers) == 2:
        return numbers[0], numbers[1], VOL_MAX
    return numbers[0], numbers[1], numbers[2]
