"""BEEP for the emulated Petit Computer: 70 synthesised sound effects, played through pygame.

Petit Computer's BEEP plays one of 70 preset effects from its ROM (spec §7). We
ship none of those: every preset here is our own, synthesised at run time with
numpy from a few square/pulse/triangle/saw/sine oscillators and a noise
generator, in the spirit of a 2013 handheld (beeps, clicks, coins, lasers,
explosions, chimes, fanfares). :class:`Beep` names them.

:func:`render` is pure synthesis and needs no audio device; :class:`Sound` plays
the rendered effects on the pygame mixer, and stays silent, without errors, when
no audio device can be opened or when it is created disabled.

Arguments follow SmileBASIC's ``BEEP n, pitch, vol, pan``:

* ``n`` 0-69, the preset. A number of 70 or more is accepted and plays nothing:
  the handheld's sound bank holds more sequences than the 70 documented effects
  and published programs call them; we have no sound for them
  (docs/petitcom-decisions.md "Published programs").
* ``pitch`` -8192..8192: frequencies are multiplied by ``2 ** (pitch / 4096)``
  (4096 per octave, so ±2 octaves); timing is unchanged, as when a sequenced effect
  is transposed. Oscillators that would pass 45% of the sample rate are held
  there, so a preset never goes silent at high pitch.
* ``vol`` 0-127: linear amplitude ``vol / 127``.
* ``pan`` 0-127: 0 = left, 64 = centre, 127 = right, with a constant-power law.

Every preset is scaled so that its peak at pitch 0 and vol 127 is 0.7 of full
scale before panning: presets sound equally loud, and overlapping effects keep
some headroom before the mixer clips.

Out-of-range values raise :class:`~petitcom_shim.errors.OutOfRange` (a
ValueError), where SmileBASIC stops with "Out of range".
"""

from __future__ import annotations

import logging
import math
import operator
import os
import sys
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from typing import Any, Literal, SupportsIndex

import numpy as np
import numpy.typing as npt
import pygame
import pygame.sndarray

from petitcom_shim.errors import OutOfRange

__all__ = [
    "PAN_CENTRE",
    "PITCH_LIMIT",
    "PRESET_COUNT",
    "SAMPLE_RATE",
    "Beep",
    "Sound",
    "render",
]

_log = logging.getLogger(__name__)

#: Sample rate of rendered effects (Hz), unless the mixer was opened at another.
SAMPLE_RATE = 22050
#: Number of presets, BEEP 0-69.
PRESET_COUNT = 70
#: pitch runs from -PITCH_LIMIT to PITCH_LIMIT; PITCH_PER_OCTAVE doubles the frequency.
PITCH_LIMIT = 8192
PITCH_PER_OCTAVE = 4096
VOL_MAX = 127
PAN_MAX = 127
PAN_CENTRE = 64
#: Mixer channels, so that several effects can overlap.
MIXER_CHANNELS = 16
#: Every preset is scaled so that its peak at pitch 0 is this (before vol and pan).
_PEAK = 0.7
_DUTY = {"square": 0.5, "pulse25": 0.25, "pulse12": 0.125}
_MAX_FREQ_RATIO = 0.45  # of the sample rate
_SOUND_CACHE_SIZE = 64

Int16Stereo = npt.NDArray[np.int16]
FloatArray = npt.NDArray[np.float64]
Wave = Literal["square", "pulse25", "pulse12", "triangle", "saw", "sine", "noise", "metal"]


class Beep(IntEnum):
    """Names of the 70 BEEP presets (our own sounds; generic names, no game's)."""

    BEEP = 0
    SELECT = 1
    CANCEL = 2
    CURSOR = 3
    CLICK = 4
    TICK = 5
    BLIP_HIGH = 6
    BLIP_LOW = 7
    CONFIRM = 8
    ERROR = 9
    BUZZER = 10
    COIN = 11
    COINS = 12
    JUMP = 13
    HIGH_JUMP = 14
    LAND = 15
    LASER = 16
    ZAP = 17
    SHOT = 18
    EXPLOSION = 19
    SMALL_EXPLOSION = 20
    HIT = 21
    DAMAGE = 22
    POWER_UP = 23
    POWER_DOWN = 24
    EXTRA_LIFE = 25
    CHIME = 26
    BELL = 27
    DING_DONG = 28
    FANFARE = 29
    SHORT_FANFARE = 30
    VICTORY = 31
    LOSE = 32
    SWISH = 33
    SWOOSH = 34
    FLIP = 35
    SHUFFLE = 36
    SLIDE = 37
    TAP = 38
    KNOCK = 39
    KICK = 40
    SNARE = 41
    HIHAT = 42
    CYMBAL = 43
    TOM = 44
    CLAP = 45
    NOTE_LOW = 46
    NOTE_MID = 47
    NOTE_HIGH = 48
    WARP = 49
    TELEPORT = 50
    RISING = 51
    FALLING = 52
    SIREN = 53
    ALARM = 54
    PHONE = 55
    MESSAGE = 56
    PAUSE = 57
    RESUME = 58
    OPEN = 59
    CLOSE = 60
    TYPE = 61
    BUBBLE = 62
    DROP = 63
    BOING = 64
    WHISTLE = 65
    MAGIC = 66
    RECOVER = 67
    COUNTDOWN = 68
    GO = 69


# ------------------------------------------------------------------ preset definitions


@dataclass(frozen=True)
class Tone:
    """One oscillator event inside a preset.

    Attributes:
        start: Start time in seconds from the start of the effect.
        length: Duration in seconds.
        freq: Frequency in Hz at the start (for noise: the rate new random values
            are drawn, which sets its brightness).
        wave: Oscillator shape.
        end_freq: Frequency reached at the end by an exponential glide; None = steady.
        level: Peak amplitude (the sum of a preset's tones is kept within 1).
        attack: Linear fade-in time in seconds.
        decay: Time constant of an exponential fade in seconds; 0 = none.
        release: Linear fade-out at the end in seconds.
        vibrato_hz: Vibrato rate.
        vibrato_semitones: Vibrato depth (peak deviation).
    """

    start: float
    length: float
    freq: float
    wave: Wave = "square"
    end_freq: float | None = None
    level: float = 0.5
    attack: float = 0.002
    decay: float = 0.0
    release: float = 0.01
    vibrato_hz: float = 0.0
    vibrato_semitones: float = 0.0


def _hz(midi_note: float) -> float:
    """Frequency of a MIDI note number (69 = A4 = 440 Hz)."""
    return float(440.0 * 2.0 ** ((midi_note - 69) / 12))


def _t(freq: float, length: float, wave: Wave = "square", start: float = 0.0, **shape: Any) -> Tone:
    return Tone(start=start, length=length, freq=freq, wave=wave, **shape)


def _notes(
    midi_notes: Sequence[float],
    step: float,
    wave: Wave = "pulse25",
    *,
    start: float = 0.0,
    hold: float | None = None,
    last_hold: float | None = None,
    **shape: Any,
) -> list[Tone]:
    """A melody: one note every ``step`` seconds, each ``hold`` long (the last ``last_hold``)."""
    tones = []
    for i, note in enumerate(midi_notes):
        length = hold if hold is not None else step
        if i == len(midi_notes) - 1 and last_hold is not None:
            length = last_hold
        tones.append(_t(_hz(note), length, wave, start + i * step, **shape))
    return tones


def _bell(freq: float, length: float, start: float = 0.0, level: float = 0.35) -> list[Tone]:
    """A struck-metal sound: inharmonic sine partials, the higher ones dying sooner."""
    partials = ((1.0, 1.0, 0.6), (2.76, 0.5, 0.25), (5.40, 0.25, 0.12), (8.93, 0.12, 0.06))
    return [
        _t(freq * ratio, length, "sine", start, level=level * gain, decay=length * fade)
        for ratio, gain, fade in partials
    ]


def _build_presets() -> tuple[tuple[Tone, ...], ...]:
    presets: dict[Beep, list[Tone]] = {
        Beep.BEEP: [_t(1760, 0.09, "pulse25", level=0.45)],
        Beep.SELECT: _notes([88, 95], 0.045, level=0.4),
        Beep.CANCEL: _notes([84, 76], 0.05, level=0.4),
        Beep.CURSOR: [_t(1200, 0.03, "pulse12", level=0.4, decay=0.015)],
        Beep.CLICK: [
            _t(6000, 0.012, "noise", level=0.35, release=0.004),
            _t(3000, 0.01, "square", level=0.2, release=0.004),
        ],
        Beep.TICK: [_t(2500, 0.025, "sine", level=0.6, decay=0.006, release=0.005)],
        Beep.BLIP_HIGH: [_t(1568, 0.05, "square", level=0.4)],
        Beep.BLIP_LOW: [_t(392, 0.06, "square", level=0.45)],
        Beep.CONFIRM: _notes([79, 84, 88, 91], 0.05, last_hold=0.12, level=0.4),
        Beep.ERROR: [
            _t(180, 0.12, "square", level=0.35),
            _t(191, 0.12, "square", level=0.3),
            _t(180, 0.16, "square", 0.16, level=0.35),
            _t(191, 0.16, "square", 0.16, level=0.3),
        ],
        Beep.BUZZER: [
            _t(118, 0.45, "saw", level=0.45, release=0.05),
            _t(123, 0.45, "square", level=0.3, release=0.05),
        ],
        Beep.COIN: [
            _t(_hz(83), 0.06, "pulse25", level=0.4),
            _t(_hz(88), 0.35, "pulse25", 0.06, level=0.4, decay=0.12),
        ],
        Beep.COINS: _notes([91, 96, 100, 103], 0.05, "pulse12", hold=0.25, level=0.25, decay=0.08),
        Beep.JUMP: [_t(300, 0.18, "pulse25", end_freq=900, level=0.4)],
        Beep.HIGH_JUMP: [
            _t(250, 0.3, "pulse25", end_freq=1400, level=0.4, vibrato_hz=18, vibrato_semitones=0.7)
        ],
        Beep.LAND: [
            _t(1500, 0.08, "noise", end_freq=300, level=0.35, decay=0.03),
            _t(120, 0.1, "sine", end_freq=60, level=0.6, decay=0.04),
        ],
        Beep.LASER: [_t(2200, 0.18, "pulse12", end_freq=300, level=0.4)],
        Beep.ZAP: [
            _t(1800, 0.12, "saw", end_freq=200, level=0.4, vibrato_hz=60, vibrato_semitones=2)
        ],
        Beep.SHOT: [_t(9000, 0.15, "noise", end_freq=1500, level=0.6, decay=0.05)],
        Beep.EXPLOSION: [
            _t(3000, 0.9, "noise", end_freq=200, level=0.6, decay=0.3, release=0.2),
            _t(90, 0.5, "sine", end_freq=40, level=0.4, decay=0.2, release=0.1),
        ],
        Beep.SMALL_EXPLOSION: [_t(4000, 0.35, "noise", end_freq=600, level=0.6, decay=0.12)],
        Beep.HIT: [
            _t(6000, 0.06, "noise", level=0.4, decay=0.03),
            _t(220, 0.08, "square", end_freq=110, level=0.35),
        ],
        Beep.DAMAGE: [
            _t(600, 0.25, "square", end_freq=150, level=0.4, vibrato_hz=30, vibrato_semitones=2)
        ],
        Beep.POWER_UP: _notes([60, 64, 67, 72, 76, 79, 84], 0.035, last_hold=0.12, level=0.4),
        Beep.POWER_DOWN: _notes([84, 79, 76, 72, 67, 64, 60], 0.05, "triangle", level=0.6),
        Beep.EXTRA_LIFE: _notes(
            [72, 76, 79, 84, 79, 84], 0.07, "square", last_hold=0.2, level=0.35
        ),
        Beep.CHIME: _bell(1318.5, 0.8, level=0.5),
        Beep.BELL: _bell(880, 1.2),
        Beep.DING_DONG: _bell(_hz(76), 0.6) + _bell(_hz(72), 0.9, start=0.45),
        Beep.FANFARE: [
            *_notes([60, 64, 67, 72, 67], 0.11, "square", hold=0.09, level=0.3),
            _t(_hz(72), 0.5, "square", 0.55, level=0.3, vibrato_hz=6, vibrato_semitones=0.2),
            _t(_hz(48), 0.55, "triangle", level=0.45, release=0.05),
            _t(_hz(43), 0.5, "triangle", 0.55, level=0.45, release=0.1),
        ],
        Beep.SHORT_FANFARE: _notes([72, 76, 79, 84], 0.06, "square", last_hold=0.3, level=0.35),
        Beep.VICTORY: [
            *_notes([72, 76, 79, 74, 77, 81, 76, 79, 83], 0.05, "pulse25", level=0.3),
            _t(_hz(84), 0.5, "pulse25", 0.45, level=0.35, decay=0.3),
            _t(_hz(60), 0.95, "triangle", level=0.4, release=0.1),
        ],
        Beep.LOSE: [
            *_notes([67, 66, 65], 0.2, "triangle", hold=0.18, level=0.6),
            _t(_hz(64), 0.5, "triangle", 0.6, level=0.6, vibrato_hz=5, vibrato_semitones=0.5),
        ],
        Beep.SWISH: [_t(2000, 0.12, "noise", end_freq=12000, level=0.3, attack=0.04)],
        Beep.SWOOSH: [
            _t(1000, 0.35, "noise", end_freq=8000, level=0.3, attack=0.15, decay=0.15, release=0.05)
        ],
        Beep.FLIP: [
            _t(8000, 0.03, "noise", level=0.3, release=0.01),
            _t(1400, 0.03, "pulse12", end_freq=2200, level=0.2, release=0.01),
        ],
        Beep.SHUFFLE: [
            _t(3000 + 900 * (i % 3), 0.03, "noise", 0.045 * i, level=0.3, release=0.01)
            for i in range(6)
        ],
        Beep.SLIDE: [_t(3000, 0.18, "noise", end_freq=5000, level=0.25, attack=0.05, release=0.05)],
        Beep.TAP: [
            _t(600, 0.04, "sine", end_freq=300, level=0.6, decay=0.015),
            _t(5000, 0.01, "noise", level=0.2, release=0.004),
        ],
        Beep.KNOCK: [
            _t(200, 0.06, "sine", end_freq=120, level=0.7, decay=0.02),
            _t(200, 0.06, "sine", 0.14, end_freq=120, level=0.7, decay=0.02),
        ],
        Beep.KICK: [_t(150, 0.25, "sine", end_freq=45, level=0.8, decay=0.08)],
        Beep.SNARE: [
            _t(7000, 0.18, "noise", level=0.45, decay=0.05),
            _t(190, 0.1, "triangle", level=0.5, decay=0.04),
        ],
        Beep.HIHAT: [_t(12000, 0.05, "metal", level=0.35, decay=0.015)],
        Beep.CYMBAL: [
            _t(14000, 0.9, "metal", level=0.3, decay=0.3, release=0.2),
            _t(9000, 0.9, "noise", level=0.2, decay=0.25, release=0.2),
        ],
        Beep.TOM: [_t(220, 0.3, "sine", end_freq=120, level=0.8, decay=0.1)],
        Beep.CLAP: [
            *(_t(6500, 0.012, "noise", 0.011 * i, level=0.4, release=0.004) for i in range(3)),
            _t(6500, 0.14, "noise", 0.033, level=0.4, decay=0.04),
        ],
        Beep.NOTE_LOW: [_t(_hz(60), 0.4, "triangle", level=0.7, decay=0.25, release=0.05)],
        Beep.NOTE_MID: [_t(_hz(72), 0.4, "pulse25", level=0.4, decay=0.25, release=0.05)],
        Beep.NOTE_HIGH: [_t(_hz(84), 0.35, "square", level=0.35, decay=0.2, release=0.05)],
        Beep.WARP: [
            _t(200, 0.5, "sine", end_freq=2000, level=0.6, vibrato_hz=14, vibrato_semitones=3)
        ],
        Beep.TELEPORT: [
            _t(400, 0.08, "pulse25", 0.08 * i, end_freq=1600, level=0.3, release=0.01)
            for i in range(4)
        ],
        Beep.RISING: [_t(200, 0.6, "triangle", end_freq=1600, level=0.6, release=0.05)],
        Beep.FALLING: [_t(1600, 0.6, "triangle", end_freq=200, level=0.6, release=0.05)],
        Beep.SIREN: [
            _t(700, 1.0, "square", level=0.3, vibrato_hz=3, vibrato_semitones=4, release=0.05)
        ],
        Beep.ALARM: [
            _t(880 if i % 2 == 0 else 660, 0.12, "square", 0.12 * i, level=0.3, release=0.005)
            for i in range(6)
        ],
        Beep.PHONE: [  # two warbling rings
            _t(
                1445,
                0.4,
                "pulse25",
                start,
                level=0.3,
                release=0.03,
                vibrato_hz=20,
                vibrato_semitones=1.8,
            )
            for start in (0.0, 0.6)
        ],
        Beep.MESSAGE: [
            _t(_hz(84), 0.25, "sine", level=0.6, decay=0.1),
            _t(_hz(91), 0.4, "sine", 0.12, level=0.6, decay=0.15),
        ],
        Beep.PAUSE: _notes([79, 72], 0.07, "pulse25", last_hold=0.12, level=0.35),
        Beep.RESUME: [
            *_notes([72, 79], 0.07, "triangle", last_hold=0.15, level=0.6),
            *_notes([72, 79], 0.07, "triangle", start=0.16, last_hold=0.15, level=0.2),
        ],
        Beep.OPEN: [
            _t(300, 0.1, "pulse25", end_freq=800, level=0.35),
            _t(3000, 0.015, "square", 0.1, level=0.2, release=0.005),
        ],
        Beep.CLOSE: [
            _t(800, 0.1, "pulse25", end_freq=300, level=0.35),
            _t(2000, 0.015, "square", 0.1, level=0.2, release=0.005),
        ],
        Beep.TYPE: [
            _t(10000, 0.012, "noise", level=0.4, release=0.004),
            _t(2500, 0.008, "square", level=0.2, release=0.003),
        ],
        Beep.BUBBLE: [_t(300, 0.08, "sine", end_freq=1200, level=0.7, release=0.02)],
        Beep.DROP: [_t(1400, 0.09, "sine", end_freq=500, level=0.7, decay=0.03)],
        Beep.BOING: [
            _t(
                180,
                0.5,
                "triangle",
                end_freq=400,
                level=0.7,
                decay=0.25,
                vibrato_hz=12,
                vibrato_semitones=3,
            )
        ],
        Beep.WHISTLE: [
            _t(
                1800,
                0.35,
                "sine",
                end_freq=2400,
                level=0.6,
                attack=0.03,
                vibrato_hz=6,
                vibrato_semitones=0.3,
            )
        ],
        Beep.MAGIC: _notes(
            [96, 100, 103, 108, 103, 100, 105, 108], 0.04, "sine", hold=0.2, level=0.25, decay=0.06
        ),
        Beep.RECOVER: [
            *_notes([72, 76, 79, 84, 88, 91], 0.06, "triangle", hold=0.15, level=0.4, decay=0.08),
            *_notes(
                [72, 76, 79, 84, 88, 91],
                0.06,
                "triangle",
                start=0.09,
                hold=0.15,
                level=0.15,
                decay=0.08,
            ),
        ],
        Beep.COUNTDOWN: [_t(880, 0.1, "square", level=0.4)],
        Beep.GO: [_t(1760, 0.4, "square", level=0.4, release=0.05)],
    }
    missing = [beep.name for beep in Beep if beep not in presets]
    if missing:  # pragma: no cover - guards the table above
        raise AssertionError(f"presets without a sound: {missing}")
    return tuple(tuple(presets[beep]) for beep in Beep)


_PRESETS = _build_presets()


# --------------------------------------------------------------------------- synthesis


def _poly_blep(phase: FloatArray, step: FloatArray) -> FloatArray:
    """Band-limiting correction for a unit step at phase 0 (PolyBLEP), to cut aliasing."""
    out = np.zeros_like(phase)
    rising = phase < step
    x = phase[rising] / step[rising]
    out[rising] = x + x - x * x - 1.0
    falling = phase > 1.0 - step
    x = (phase[falling] - 1.0) / step[falling]
    out[falling] = x * x + x + x + 1.0
    return out


def _pulse(phase: FloatArray, step: FloatArray, duty: float) -> FloatArray:
    # Centred on zero: a 25% pulse swinging between +1 and -1 would carry a DC offset
    # of -0.5, which clicks at the start and end of every effect.
    naive = np.where(phase < duty, 1.0, -1.0) + (1.0 - 2.0 * duty)
    return naive + _poly_blep(phase, step) - _poly_blep((phase - duty) % 1.0, step)


def _triangle(cycles: FloatArray, step: FloatArray) -> FloatArray:
    """Band-limited triangle: its odd cosine harmonics, each faded out near Nyquist.

    A naive triangle aliases audibly on glides (RISING/FALLING); harmonics fall
    as 1/k**2, so 20 terms are plenty.
    """
    wave = np.zeros_like(cycles)
    for k in range(1, 40, 2):
        headroom = np.clip((0.5 - k * step) / 0.05, 0.0, 1.0)  # 0 at Nyquist
        if not headroom.any():
            break
        wave += headroom * np.cos(2 * math.pi * k * cycles) / (k * k)
    return wave * (8 / math.pi**2)


def _oscillator(tone: Tone, index: int, sample: FloatArray, rate: int, pitch: float) -> FloatArray:
    seconds = sample / rate
    freq = np.full_like(seconds, tone.freq * pitch)
    if tone.end_freq is not None:
        freq *= (tone.end_freq / tone.freq) ** (seconds / tone.length)
    if tone.vibrato_semitones:
        bend = tone.vibrato_semitones * np.sin(2 * math.pi * tone.vibrato_hz * seconds)
        freq *= 2.0 ** (bend / 12)
    if tone.wave not in ("noise", "metal"):
        freq = np.minimum(freq, _MAX_FREQ_RATIO * rate)
    step = freq / rate
    cycles = np.cumsum(step) - step[0]
    phase = cycles % 1.0
    wave: FloatArray
    match tone.wave:
        case "square" | "pulse25" | "pulse12":
            wave = _pulse(phase, step, _DUTY[tone.wave])
        case "saw":
            wave = 2.0 * phase - 1.0 - _poly_blep(phase, step)
        case "triangle":
            wave = _triangle(cycles, step)
        case "sine":
            wave = np.sin(2 * math.pi * cycles)
        case "noise" | "metal":
            # Sample-and-hold noise: a new random value each "cycle". Seeded per tone
            # so that a preset always sounds (and tests) the same. "metal" repeats a
            # short 93-value pattern, which gives a pitched, ringing hiss.
            rng = np.random.default_rng(1000 + index)
            period = 93 if tone.wave == "metal" else int(cycles[-1]) + 2
            values = rng.choice(np.array([-1.0, 1.0]), size=period)
            wave = values[cycles.astype(np.int64) % period]
    return wave


def _envelope(tone: Tone, sample: FloatArray, rate: int) -> FloatArray:
    seconds = sample / rate
    envelope = np.minimum(1.0, seconds / max(tone.attack, 1e-3))
    if tone.decay:
        envelope = envelope * np.exp(-seconds / tone.decay)
    remaining = tone.length - seconds
    return envelope * np.clip(remaining / max(tone.release, 2e-3), 0.0, 1.0)


def _synthesise(n: int, pitch: int, sample_rate: int) -> FloatArray:
    """Sum preset ``n``'s tones at ``pitch``, unscaled."""
    factor = 2.0 ** (pitch / PITCH_PER_OCTAVE)
    tones = _PRESETS[n]
    total = max(tone.start + tone.length for tone in tones)
    out = np.zeros(round(total * sample_rate) + 1)
    for index, tone in enumerate(tones):
        first = round(tone.start * sample_rate)
        count = max(1, round(tone.length * sample_rate))
        sample = np.arange(count, dtype=np.float64)
        wave = _oscillator(tone, n * 100 + index, sample, sample_rate, factor)
        out[first : first + count] += tone.level * wave * _envelope(tone, sample, sample_rate)
    return out


@lru_cache(maxsize=256)
def _gain(n: int, sample_rate: int) -> float:
    """Scale that brings preset ``n``'s peak at pitch 0 to _PEAK, so presets match in level."""
    return _PEAK / float(np.abs(_synthesise(n, 0, sample_rate)).max())


@lru_cache(maxsize=512)
def _render_mono(n: int, pitch: int, sample_rate: int) -> FloatArray:
    """Preset ``n`` at ``pitch`` as mono floats in [-1, 1] at full volume (cached)."""
    out = np.clip(_synthesise(n, pitch, sample_rate) * _gain(n, sample_rate), -1.0, 1.0)
    out.setflags(write=False)
    return out


def _check(name: str, value: SupportsIndex, low: int, high: int) -> int:
    """``value`` as an int in low..high (BEEP's and BGM's arguments), else OutOfRange."""
    number = operator.index(value)  # ints only: 1.5 is a TypeError, not a silent round
    if not low <= number <= high:
        raise OutOfRange(f"{name} {number} is out of range ({low} to {high})")
    return number


def _check_args(
    n: SupportsIndex, pitch: SupportsIndex, vol: SupportsIndex, pan: SupportsIndex
) -> tuple[int, int, int, int]:
    return (
        _check("BEEP n", n, 0, PRESET_COUNT - 1),
        _check("BEEP pitch", pitch, -PITCH_LIMIT, PITCH_LIMIT),
        _check("BEEP vol", vol, 0, VOL_MAX),
        _check("BEEP pan", pan, 0, PAN_MAX),
    )


def _pan_gains(pan: int) -> tuple[float, float]:
    """Constant-power (left, right) gains; 0 = left only, 64 = centre, 127 = right only."""
    position = (pan - PAN_CENTRE) / (PAN_CENTRE if pan <= PAN_CENTRE else PAN_MAX - PAN_CENTRE)
    angle = (position + 1.0) * math.pi / 4
    return math.cos(angle), math.sin(angle)


def render(
    n: SupportsIndex,
    pitch: SupportsIndex = 0,
    vol: SupportsIndex = 127,
    pan: SupportsIndex = 64,
    sample_rate: SupportsIndex = SAMPLE_RATE,
) -> Int16Stereo:
    """Synthesise BEEP ``n`` as 16-bit stereo samples, without touching any audio device.

    Args:
        n: Preset 0-69 (see :class:`Beep`).
        pitch: -8192..8192; frequencies scale by ``2 ** (pitch / 4096)``.
        vol: 0-127, linear amplitude.
        pan: 0 (left) .. 64 (centre) .. 127 (right).
        sample_rate: Output rate in Hz.

    Returns:
        A (samples, 2) int16 array, left channel first. Its length does not depend
        on pitch, vol or pan.

    Raises:
        OutOfRange: an argument outside its range.
        TypeError: an argument that is not an integer.
    """
    key = _check_args(n, pitch, vol, pan)
    rate = operator.index(sample_rate)
    if rate < 8000:
        raise OutOfRange(f"sample rate {rate} is too low (at least 8000 Hz)")
    return _mix(*key, rate)


def _mix(n: int, pitch: int, vol: int, pan: int, sample_rate: int) -> Int16Stereo:
    """render() after argument checks: scale the cached mono render and pan it."""
    mono = _render_mono(n, pitch, sample_rate) * (vol / VOL_MAX * 32767.0)
    left, right = _pan_gains(pan)
    stereo = np.stack([mono * left, mono * right], axis=1)
    return np.round(stereo).astype(np.int16)


# ---------------------------------------------------------------------------- playback


def mixer_format() -> tuple[int, int, type[np.generic]] | None:
    """(rate, channels, sample dtype) of the open mixer, or None if it is closed or its
    format is one :func:`mixer_samples` cannot produce (8-bit, more than 2 channels)."""
    settings = pygame.mixer.get_init()
    if settings is None:
        return None
    frequency, size, channels = settings
    formats: dict[int, type[np.generic]] = {-16: np.int16, -32: np.float32, 32: np.float32}
    if size not in formats or channels not in (1, 2):
        return None
    return frequency, channels, formats[size]


def mixer_samples(samples: Int16Stereo, channels: int, dtype: type[np.generic]) -> npt.NDArray[Any]:
    """16-bit stereo samples in the layout of an open mixer (``channels``, sample ``dtype``).

    Mono mixers want a 1-D array (the two sides averaged); float mixers want
    -1..1. Pure numpy, so BGM can convert in its render thread.
    """
    out: npt.NDArray[Any] = samples
    if channels == 1:
        out = samples.astype(np.int32).sum(axis=1) // 2
    if dtype is np.float32:
        out = out.astype(np.float32) / 32768.0
    return np.ascontiguousarray(out.astype(dtype))


@contextmanager
def _quiet_c_stderr() -> Iterator[None]:
    """Send the C libraries' stderr to /dev/null for the duration (the mixer probe only).

    With no sound card, ALSA prints about nine lines while SDL looks for a device;
    our own one-line warning says what matters. Python's sys.stderr is untouched
    when it is not a real file descriptor (e.g. under a test runner's capture).
    """
    try:
        fd = sys.stderr.fileno()
        sys.stderr.flush()
        saved = os.dup(fd)
    except (AttributeError, OSError, ValueError):
        yield
        return
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
        yield
    finally:
        os.dup2(saved, fd)
        os.close(saved)


class Sound:
    """Plays BEEP effects on the pygame mixer; silent when there is no audio device.

    Rendered effects are cached, and effects overlap on up to MIXER_CHANNELS mixer
    channels (when all are busy the oldest is cut off, as a handheld would).
    Arguments are validated even when silent, so a bad BEEP fails the same way
    with or without sound.
    """

    def __init__(self, enabled: bool = True) -> None:
        """Open the mixer if ``enabled``; on any failure stay silent.

        Args:
            enabled: False = never touch the audio device (headless runs, tests).
        """
        self._owns_mixer = False
        self._rate = SAMPLE_RATE
        self._channels = 2
        self._dtype: type[np.generic] = np.int16
        self._cache: OrderedDict[tuple[int, int, int, int], Any] = OrderedDict()
        self._playing: list[Any] = []
        self.system_sounds = True
        """SYSBEEP: whether the system's own sounds (key clicks, dialogs) play."""
        self.unavailable: str | None = None
        """Why sound was asked for but is off (no audio device...), for a program to show;
        None when it plays or was not asked for."""
        self.enabled = enabled and self._open()

    def _open(self) -> bool:
        try:
            if pygame.mixer.get_init() is None:
                with _quiet_c_stderr():
                    pygame.mixer.init(frequency=SAMPLE_RATE, size=-16, channels=2, buffer=512)
                self._owns_mixer = True
            settings = pygame.mixer.get_init()
        except (pygame.error, OSError) as err:
            _log.warning("petitcom_shim: no audio device, sound is off (%s)", err)
            self.unavailable = f"no audio device ({err})"
            return False
        if settings is None:  # pragma: no cover - init succeeded but reports nothing
            return False
        found = mixer_format()
        if found is None:
            _log.info("BEEP is silent: unsupported mixer format %s/%s", settings[1], settings[2])
            self.unavailable = f"unsupported mixer format {settings[1]}/{settings[2]}"
            self._quit_mixer()
            return False
        self._rate, self._channels, self._dtype = found
        if pygame.mixer.get_num_channels() < MIXER_CHANNELS:
            pygame.mixer.set_num_channels(MIXER_CHANNELS)
        return True

    def _quit_mixer(self) -> None:
        if self._owns_mixer and pygame.mixer.get_init() is not None:
            pygame.mixer.quit()
        self._owns_mixer = False

    def _sound(self, key: tuple[int, int, int, int]) -> Any:
        """The pygame Sound for one argument set, from a small LRU cache."""
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        samples = mixer_samples(_mix(*key, self._rate), self._channels, self._dtype)
        sound = pygame.sndarray.make_sound(samples)
        self._cache[key] = sound
        if len(self._cache) > _SOUND_CACHE_SIZE:
            self._cache.popitem(last=False)
        return sound

    def beep(
        self,
        n: SupportsIndex = 0,
        pitch: SupportsIndex = 0,
        vol: SupportsIndex = 127,
        pan: SupportsIndex = 64,
    ) -> None:
        """BEEP n, pitch, vol, pan: start playing a preset and return at once.

        Raises:
            OutOfRange: an argument outside its range (also when silent).
            TypeError: an argument that is not an integer.
        """
        number = operator.index(n)
        if number >= PRESET_COUNT:  # a ROM sequence we have no sound for: silent
            _check_args(0, pitch, vol, pan)
            return
        key = _check_args(n, pitch, vol, pan)
        if not self.enabled:
            return
        try:
            sound = self._sound(key)
            # Sound.play() takes a free channel outside the reserved ones (BGM's);
            # find_channel() would not respect that reservation.
            channel = sound.play()
            if channel is None and self._playing:  # all busy: cut off the oldest effect
                channel = self._playing[0]
                channel.play(sound)
            if channel is not None:
                # Channel objects compare by identity; keep one per channel id.
                self._playing = [c for c in self._playing if c.id != channel.id]
                self._playing.append(channel)  # oldest first
        except pygame.error as err:  # the device went away mid-run: go quiet
            _log.info("BEEP is silent from now on (%s)", err)
            self.enabled = False

    def system_beep(self, n: SupportsIndex = 0) -> None:
        """A system sound (a panel key click, ...): BEEP n unless SYSBEEP is off."""
        if self.system_sounds:
            self.beep(n)

    def close(self) -> None:
        """Stop this object's effects and release the mixer if this object opened it."""
        if self.enabled and pygame.mixer.get_init() is not None:
            # Someone (pygame.quit at window close) may have shut the mixer already.
            for channel in self._playing:
                channel.stop()
        self._playing.clear()
        self._cache.clear()
        self._quit_mixer()
        self.enabled = False
