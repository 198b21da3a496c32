"""PTC's MML (Music Macro Language) dialect, parsed into timed notes.

BGMPLAY and BGMSET take songs written in MML. This module turns that text into a
:class:`Song`: for each of up to 8 channels (``:0``-``:7``) a list of
:class:`Note` with exact start and length in whole notes (``Fraction``), plus
one tempo map shared by all channels. It is pure (no numpy, no pygame), so a
song's length, and therefore BGMCHK, is known without rendering a sample.

Commands (case-insensitive, blanks ignored; petitcom.md §7 and
docs/petitcom-decisions.md "BGM and MML" for the choices):

========== ================================================================
``C``-``B`` note; ``#``/``+`` sharp, ``-`` flat, then a length 1-192 and dots
``R``       rest, with a length and dots like a note
``N``\\ n   note by number 0-127 (N60 = O4 C, middle C) at the current length
``&``       tie/slur to the next note: no new attack; a different pitch takes
            over at once (PTC changes pitch on a tie)
``_``       portamento: like ``&``, but the pitch slides to the next note
``O``\\ n   octave 0-8 (default 4); ``<`` one octave up, ``>`` one down (PTC's
            direction, the reverse of most MML)
``L``\\ n   default length 1-192 (4 = quarter, default), dots allowed
``T``\\ n   tempo 1-512 quarter notes a minute (default 120), for every channel
            from that point of the song on
``V``\\ n   velocity 0-127 (default 127); ``(``\\ n / ``)``\\ n raise / lower it
``@V``\\ n  channel volume 0-127 (default 127)
``@``\\ n   tone 0-32767 (our own instruments, see petitcom_shim.bgm)
``@E``\\ a,d,s,r  envelope 0-127 each; ``@ER`` back to the tone's own
``P``\\ n   pan 0-127 (0 left, 64 centre)
``Q``\\ n   gate 0-8: a note sounds for n/8 of its length (default 8; Q0 a 1/16 blip)
``[`` … ``]``\\ n   repeat n times (1-255); ``]0`` or a bare ``]`` repeats forever,
            also inside another repeat (what follows is then never played)
``{NAME=…}`` defines a macro (plays nothing); ``{NAME}`` plays it
``$``\\ n\\ ``=``\\ v  sets song variable n (0-7) to v (0-255); ``$``\\ n in place of
            any number reads it (BGMSETV/BGMGETV change and read them)
``:``\\ n   the following MML is for channel n (0-15); before any ``:`` it is 0
``@D``, ``@MA``, ``@MP``, ``@ML``, ``@MON``, ``@MOF``  accepted and ignored
            (detune, tremolo, vibrato, pan LFO)
========== ================================================================

An endless loop makes the whole song loop: the song's ``loop_start``/``loop_end``
(in seconds) say which part repeats. Errors raise :class:`MmlError` (an
:class:`~petitcom_shim.errors.IllegalFunctionCall`) naming the position.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property
from itertools import pairwise

from petitcom_shim.errors import IllegalFunctionCall

__all__ = [
    "CHANNELS",
    "DEFAULT_TEMPO",
    "Envelope",
    "MmlError",
    "Note",
    "Song",
    "parse",
]

#: Channels of one song (``:0``-``:15``): the DS sequencer's 16 tracks; real PTC
#: songs use channels above 7 (docs/petitcom-decisions.md, "BGM and MML").
CHANNELS = 16
DEFAULT_TEMPO = 120
DEFAULT_OCTAVE = 4
DEFAULT_VELOCITY = 127
MAX_LENGTH = 192
MAX_TEMPO = 512
#: Guards against songs that would take too long to render (e.g. nested repeats).
MAX_NOTES = 20_000
MAX_SONG_SECONDS = 600.0
MAX_NESTING = 16
#: Song variables ``$0``-``$7`` and their values (BGMSETV/BGMGETV).
VARIABLES = 8
MAX_VARIABLE = 255
#: The highest ``@n``: the DS sequencer's program change holds up to 32767, and real
#: PTC songs use tones above 255 (@274, @366); tones we do not model sound as a square.
MAX_TONE = 32_767
#: The longest expansion of a song's macros (a guard, like MAX_NOTES; PTC has no
#: known limit on how many macros a song defines).
MAX_EXPANDED = 65_536
#: The longest common length of channels' endless loops rendered as one seamless loop.
MAX_LOOP_WHOLES = 64

_SEMITONES = {"C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11}
_IGNORED_AT = ("MON", "MOF", "MA", "MP", "ML", "D")


class MmlError(IllegalFunctionCall):
    """MML text the shim cannot play; the message names the position and the problem."""


class _Error(Exception):
    """A parse error at an index of the normalised text (turned into MmlError by parse)."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(message)
        self.index = index
        self.message = message


@dataclass(frozen=True)
class Envelope:
    """An ``@E`` envelope: attack, decay, sustain level and release, each 0-127.

    127 is the fastest attack/decay/release and the loudest sustain (the DS's
    sense of the numbers); petitcom_shim.bgm turns them into seconds.
    """

    attack: int
    decay: int
    sustain: int
    release: int


@dataclass(frozen=True)
class Note:
    """One sounding note of a channel.

    Attributes:
        start: Start in whole notes from the start of the song.
        length: Written length in whole notes (ties included).
        keys: ``(offset, key)`` pairs: the MIDI key (60 = middle C) from ``offset``
            whole notes into the note on; more than one when a tie changes pitch.
        velocity: V 0-127.
        volume: @V 0-127.
        pan: P 0-127.
        tone: @ 0-32767.
        gate: Q 0-8.
        envelope: @E, or None for the tone's own.
        slides: Indexes into ``keys`` whose pitch change slides from the key before
            (``_``, portamento) instead of switching at once.
    """

    start: Fraction
    length: Fraction
    keys: tuple[tuple[Fraction, int], ...]
    velocity: int = DEFAULT_VELOCITY
    volume: int = 127
    pan: int = 64
    tone: int = 0
    gate: int = 8
    envelope: Envelope | None = None
    slides: tuple[int, ...] = ()

    @property
    def key(self) -> int:
        """The first (usually only) key."""
        return self.keys[0][1]


@dataclass(frozen=True)
class Song:
    """A parsed MML song.

    Attributes:
        channels: Notes of each channel that has any MML, keyed 0-7.
        tempos: ``(position, bpm)`` changes in whole notes, sorted; starts at 0.
        end: Where the song ends, in whole notes (the longest channel).
        loop_from: Position where the endless part starts, or None.
        text: The MML it was parsed from (upper case, blanks removed).
        variables: ``(position, n, value)``: where the song sets ``$n``, in the order
            the settings happen (BGMGETV reads the latest one).
        overrides: The BGMSETV changes it was parsed with (see :func:`parse`).
    """

    channels: dict[int, tuple[Note, ...]]
    tempos: tuple[tuple[Fraction, float], ...]
    end: Fraction
    loop_from: Fraction | None = None
    text: str = ""
    variables: tuple[tuple[Fraction, int, int], ...] = ()
    overrides: tuple[tuple[Fraction, int, int], ...] = ()

    @cached_property
    def _tempo_starts(self) -> tuple[tuple[Fraction, ...], tuple[float, ...]]:
        """Where each tempo starts: in whole notes, and in seconds from the song's start."""
        seconds = [0.0]
        for (pos, bpm), (nxt, _) in pairwise(self.tempos):
            seconds.append(seconds[-1] + float(nxt - pos) * 240.0 / bpm)
        return tuple(p for p, _ in self.tempos), tuple(seconds)

    def seconds(self, position: Fraction | float) -> float:
        """Seconds from the start to ``position`` (whole notes), through the tempo map."""
        starts, before = self._tempo_starts
        i = max(0, bisect_right(starts, position) - 1)
        pos, bpm = self.tempos[i]
        return before[i] + float(position - pos) * 240.0 / bpm

    def position(self, seconds: float) -> Fraction:
        """The song position (whole notes) ``seconds`` into a play; a looping song
        wraps round its loop, so the answer always lies before :attr:`end`."""
        if self.loops and seconds >= self.duration:
            span = self.duration - self.loop_start
            seconds = self.loop_start + (seconds - self.loop_start) % span if span > 0 else 0.0
        _, before = self._tempo_starts
        i = max(0, bisect_right(before, seconds) - 1)
        pos, bpm = self.tempos[i]
        whole = pos + Fraction(seconds - before[i]).limit_denominator(1 << 20) * Fraction(bpm) / 240
        return min(whole, self.end)

    def variable(self, n: int, seconds: float) -> int:
        """``$n`` ``seconds`` into a play (BGMGETV): the latest setting before that
        point, in a loop also one from the previous time round; -1 if never set."""
        now = self.position(seconds)
        found = [v for pos, var, v in self.variables if var == n and pos <= now]
        if not found and self.loop_from is not None and seconds >= self.loop_start:
            found = [v for pos, var, v in self.variables if var == n and pos >= self.loop_from]
        return found[-1] if found else -1

    @cached_property
    def duration(self) -> float:
        """Length of one play in seconds (for a looping song: up to the loop's end).

        Worked out once: BGMCHK asks for it on every call and every frame, and the
        tempo map's arithmetic is on fractions (0.8 s of one program's run, issue 23 §4).
        """
        return self.seconds(self.end)

    @property
    def loops(self) -> bool:
        """True when the song repeats forever."""
        return self.loop_from is not None

    @cached_property
    def loop_start(self) -> float:
        """Seconds where the repeating part starts (the duration when it does not loop)."""
        return self.seconds(self.loop_from) if self.loop_from is not None else self.duration


# ------------------------------------------------------------------------- parsing


@dataclass
class _State:
    octave: int = DEFAULT_OCTAVE
    length: Fraction = Fraction(1, 4)
    velocity: int = DEFAULT_VELOCITY
    volume: int = 127
    pan: int = 64
    tone: int = 0
    gate: int = 8
    envelope: Envelope | None = None


@dataclass
class _Channel:
    number: int
    text: str
    offset: int  # of text[0] in the whole MML, for messages
    state: _State = field(default_factory=_State)
    pos: Fraction = Fraction(0)
    notes: list[Note] = field(default_factory=list)
    tempos: list[tuple[Fraction, float]] = field(default_factory=list)
    tie: bool = False
    slide: bool = False
    loop_from: Fraction | None = None
    #: Past an endless repeat: the rest is read for its syntax but never played.
    dead: bool = False
    variables: dict[int, int] = field(default_factory=dict)
    assigned: list[tuple[Fraction, int, int]] = field(default_factory=list)
    overrides: list[tuple[Fraction, int, int]] = field(default_factory=list)


class _Unset(Exception):
    """A ``$n`` read before anything set it: the command using it is skipped."""


class _Reader:
    """Reads one channel's MML, executing it as it goes (repeats run their body again)."""

    def __init__(self, channel: _Channel, budget: list[int]) -> None:
        self.ch = channel
        self.text = channel.text
        self.i = 0
        self.budget = budget  # shared note count across channels
        self.loop_mark = Fraction(0)  # where the outermost '[' being read started

    # -- helpers
    def fail(self, message: str, at: int | None = None) -> _Error:
        where = self.ch.offset + (self.i if at is None else at)
        return _Error(where, f" (channel {self.ch.number}): {message}")

    def peek(self) -> str:
        return self.text[self.i] if self.i < len(self.text) else ""

    def number(self, what: str, low: int, high: int, *, required: bool = True) -> int | None:
        start = self.i
        if self.peek() == "$":
            value = self.ch.variables.get(self.variable())
            if value is None:
                raise _Unset
            if not low <= value <= high:
                raise self.fail(
                    f"{what} {value} (from ${self.text[start + 1]}) is out of range", start
                )
            return value
        sign = 1
        if self.peek() == "-" and low < 0:
            sign = -1
            self.i += 1
        digits = start if sign == 1 else start + 1
        while self.peek().isdigit():
            self.i += 1
        if self.i == digits:
            if required:
                raise self.fail(f"{what} needs a number")
            return None
        value = sign * int(self.text[digits : self.i])
        if not low <= value <= high:
            raise self.fail(f"{what} {value} is out of range ({low} to {high})", start)
        return value

    def variable(self) -> int:
        """The n of ``$n`` at the reader (which is on the ``$``)."""
        self.i += 1
        n = self.peek()
        if not n.isdigit() or int(n) >= VARIABLES:
            raise self.fail("'$' needs a variable 0-7")
        self.i += 1
        return int(n)

    def apply_overrides(self) -> None:
        """BGMSETV changes that take effect at or before the reader's position."""
        ch = self.ch
        while ch.overrides and ch.overrides[0][0] <= ch.pos and not ch.dead:
            _, n, value = ch.overrides.pop(0)
            ch.variables[n] = value
            ch.assigned.append((ch.pos, n, value))

    def dots(self, base: Fraction) -> Fraction:
        total, add = base, base
        while self.peek() == ".":
            self.i += 1
            add /= 2
            total += add
        return total

    def length(self) -> Fraction:
        value = self.number("length", 1, MAX_LENGTH, required=False)
        return self.dots(self.ch.state.length if value is None else Fraction(1, value))

    # -- the loop
    def run(self, stop_at_bracket: bool = False, depth: int = 0) -> None:
        while self.i < len(self.text):
            c = self.text[self.i]
            if c == "]":
                if not stop_at_bracket:
                    raise self.fail("']' without a matching '['")
                return
            if c == "[":
                self.repeat(depth)
                continue
            if c != "$":  # the song's own settings at this position come first
                self.apply_overrides()
            try:
                self.command()
            except _Unset:
                self.skip_command()
        if stop_at_bracket:
            raise self.fail("'[' is never closed")

    def repeat(self, depth: int) -> None:
        if depth >= MAX_NESTING:
            raise self.fail(f"repeats nested deeper than {MAX_NESTING}")
        self.i += 1
        body = self.i
        entered = self.ch.pos
        self.ch.tie = False  # a tie does not reach into a repeat (its passes start alike)
        self.run(stop_at_bracket=True, depth=depth + 1)
        self.i += 1  # past ']'
        try:
            count = self.number("repeat count", 0, 255, required=False)
        except _Unset:  # the repeat reads an unset $n: it is skipped, the body plays once
            self.skip_command()
            count = 1
        if self.ch.dead:  # read once for the syntax: this part never plays
            return
        if not count:  # ]0 or a bare ]: forever, from this '[' (also inside a repeat)
            self.ch.tie = False  # a tie into the next time round ties nothing
            # Every pass of an endless loop starts from the same state, so the song
            # repeats exactly (see the decisions doc); what follows never plays.
            self.ch.loop_from = entered
            self.ch.dead = True
            return
        end = self.i
        for _ in range(count - 1):
            self.i = body
            self.run(stop_at_bracket=True, depth=depth + 1)
        self.i = end

    def skip_command(self) -> None:
        """Step over the rest of a command whose number came from an unset ``$n``."""
        while self.peek() and (self.peek().isdigit() or self.peek() in ".,$#+-"):
            self.i += 1

    def command(self) -> None:
        ch, st = self.ch, self.ch.state
        at = self.i
        c = self.text[self.i]
        self.i += 1
        if c in _SEMITONES:
            key = 12 * (st.octave + 1) + _SEMITONES[c]
            while self.peek() in ("#", "+", "-"):
                key += -1 if self.peek() == "-" else 1
                self.i += 1
            self.note(key, self.length(), at)
        elif c == "N":
            number = self.number("N", 0, 127)
            assert number is not None
            self.note(number, self.dots(st.length), at)
        elif c == "R":
            length = self.length()
            ch.tie = False  # a tie to a rest ties nothing
            if not ch.dead:
                ch.pos += length
        elif c in "&_":
            # PTC compiles '&' and '_' to codes of their own, so a stray one is no
            # error; it ties only a note that ends here to the next note.
            after_note = bool(ch.notes) and ch.notes[-1].start + ch.notes[-1].length == ch.pos
            ch.tie = after_note and not ch.dead
            ch.slide = c == "_"
        elif c == "$":
            self.i -= 1
            n = self.variable()
            if self.peek() != "=":
                raise self.fail(f"${n} needs '=' and a value 0-{MAX_VARIABLE}")
            self.i += 1
            value = self.number(f"${n}", 0, MAX_VARIABLE)
            assert value is not None
            if not ch.dead:
                ch.variables[n] = value
                ch.assigned.append((ch.pos, n, value))
        elif c == "O":
            value = self.number("O", 0, 8)
            assert value is not None
            st.octave = value
        elif c == "<":
            if st.octave >= 8:
                raise self.fail("'<' takes the octave above 8", at)
            st.octave += 1
        elif c == ">":
            if st.octave <= 0:
                raise self.fail("'>' takes the octave below 0", at)
            st.octave -= 1
        elif c == "L":
            value = self.number("L", 1, MAX_LENGTH)
            assert value is not None
            st.length = self.dots(Fraction(1, value))
        elif c == "T":
            value = self.number("T", 1, MAX_TEMPO)
            assert value is not None
            if not ch.dead:
                ch.tempos.append((ch.pos, float(value)))
        elif c == "V":
            value = self.number("V", 0, 127)
            assert value is not None
            st.velocity = value
        elif c in "()":
            step = self.number(c, 0, 127, required=False)
            delta = 1 if step is None else step
            st.velocity = min(127, max(0, st.velocity + (delta if c == "(" else -delta)))
        elif c == "P":
            value = self.number("P", 0, 127)
            assert value is not None
            st.pan = value
        elif c == "Q":
            value = self.number("Q", 0, 8)
            assert value is not None
            st.gate = value
        elif c == "@":
            self.at_command(at)
        elif c == ":":
            raise self.fail("internal: channel marker reached the reader", at)  # pragma: no cover
        else:
            raise self.fail(f"{c!r} is not an MML command", at)

    def at_command(self, at: int) -> None:
        st = self.ch.state
        if self.text.startswith("ER", self.i):
            self.i += 2
            st.envelope = None
        elif self.peek() == "E":
            self.i += 1
            parts = []
            for n in range(4):
                if n:
                    if self.peek() != ",":
                        raise self.fail("@E needs four numbers: attack,decay,sustain,release")
                    self.i += 1
                value = self.number("@E", 0, 127)
                assert value is not None
                parts.append(value)
            st.envelope = Envelope(*parts)
        elif self.peek() == "V":
            self.i += 1
            value = self.number("@V", 0, 127)
            assert value is not None
            st.volume = value
        elif self.peek().isdigit():
            value = self.number("@", 0, MAX_TONE)
            assert value is not None
            st.tone = value
        else:
            for name in _IGNORED_AT:
                if self.text.startswith(name, self.i):
                    self.i += len(name)
                    while self.peek().isdigit() or self.peek() in (",", "-"):
                        self.i += 1
                    return
            raise self.fail(f"'@{self.peek()}' is not an MML command", at)

    def note(self, key: int, length: Fraction, at: int) -> None:
        ch, st = self.ch, self.ch.state
        if not 0 <= key <= 127:
            raise self.fail(f"note {key} is outside the keys 0-127 (octave {st.octave})", at)
        if ch.dead:
            ch.tie = False
            return
        if ch.tie:
            ch.tie = False
            prev = ch.notes[-1]
            keys, slides = prev.keys, prev.slides
            if keys[-1][1] != key:
                keys = (*keys, (prev.length, key))
                if ch.slide:
                    slides = (*slides, len(keys) - 1)
            ch.notes[-1] = replace(prev, length=prev.length + length, keys=keys, slides=slides)
        else:
            self.budget[0] -= 1
            if self.budget[0] < 0:
                raise self.fail(f"the song has more than {MAX_NOTES} notes")
            ch.notes.append(
                Note(
                    start=ch.pos,
                    length=length,
                    keys=((Fraction(0), key),),
                    velocity=st.velocity,
                    volume=st.volume,
                    pan=st.pan,
                    tone=st.tone,
                    gate=st.gate,
                    envelope=st.envelope,
                )
            )
        ch.pos += length


def _split_channels(text: str) -> list[_Channel]:
    """Cut the MML at ``:n`` markers; text for the same channel is joined in order."""
    pieces: dict[int, list[tuple[int, str]]] = {}
    current, start, i = 0, 0, 0
    while i < len(text):
        if text[i] == ":":
            pieces.setdefault(current, []).append((start, text[start:i]))
            j = i + 1
            while j < len(text) and text[j].isdigit():
                j += 1
            if j == i + 1:
                raise _Error(i, f": ':' needs a channel 0-{CHANNELS - 1}")
            number = int(text[i + 1 : j])
            if number >= CHANNELS:
                raise _Error(i, f": channel {number} is out of range (0 to {CHANNELS - 1})")
            current, start, i = number, j, j
            continue
        i += 1
    pieces.setdefault(current, []).append((start, text[start:]))
    channels = []
    for number in sorted(pieces):
        parts = [p for p in pieces[number] if p[1]]
        if not parts:
            continue
        channels.append(_Channel(number, "".join(p[1] for p in parts), parts[0][0]))
    return channels


def _normalise(text: str) -> tuple[str, tuple[int, ...]]:
    """Upper case with blanks removed (PTC ignores them), and where each kept character was."""
    kept = [(i, c) for i, c in enumerate(text) if not c.isspace()]
    return "".join(c for _, c in kept).upper(), tuple(i for i, _ in kept)


def _expand_macros(text: str, origin: tuple[int, ...]) -> tuple[str, tuple[int, ...]]:
    """Replace ``{NAME=…}`` definitions by nothing and ``{NAME}`` calls by the body.

    A body may call macros defined before the call (they are expanded where they
    are called); names are a letter or ``_`` then letters, digits or ``_`` (PetitMIDI's
    ``MMLStack``, PTC-EmkII ``SSEQ::mml``). Kept characters remember where they
    came from, so errors inside a macro name the place in its definition.
    Calls count against the same budget as the characters they produce, so
    macros that call empty ones many times over stop as soon as one that grows.
    """
    macros: dict[str, list[tuple[int, str]]] = {}
    out: list[tuple[int, str]] = []
    calls = [0]

    def close(at: int, source: list[tuple[int, str]]) -> int:
        depth = 0
        for j in range(at, len(source)):
            if source[j][1] == "{":
                depth += 1
            elif source[j][1] == "}":
                depth -= 1
                if depth == 0:
                    return j
        raise _Error(source[at][0], ": '{' is never closed")

    def walk(source: list[tuple[int, str]], depth: int) -> None:
        i = 0
        while i < len(source):
            where, c = source[i]
            if c == "}":
                raise _Error(where, ": '}' without a matching '{'")
            if c != "{":
                out.append(source[i])
                if len(out) + calls[0] > MAX_EXPANDED:
                    raise _Error(where, f": macros expand to more than {MAX_EXPANDED} steps")
                i += 1
                continue
            end = close(i, source)
            inner = source[i + 1 : end]
            name = "".join(ch for _, ch in inner).split("=", 1)[0]
            if not name or not (
                (name[0].isalpha() or name[0] == "_")
                and all(ch.isalnum() or ch == "_" for ch in name)
            ):
                raise _Error(where, f": '{{{name}' is not a macro name")
            if len(name) < len(inner):  # {NAME=body}: a definition
                macros[name] = inner[len(name) + 1 :]
            elif name not in macros:
                raise _Error(where, f": macro {{{name}}} is not defined")
            elif depth >= MAX_NESTING:
                raise _Error(where, f": macros call each other deeper than {MAX_NESTING}")
            else:
                calls[0] += 1
                if len(out) + calls[0] > MAX_EXPANDED:
                    raise _Error(where, f": macros expand to more than {MAX_EXPANDED} steps")
                walk(macros[name], depth + 1)
            i = end + 1

    walk(list(zip(origin, text, strict=True)), 0)
    return "".join(c for _, c in out), tuple(i for i, _ in out)


def parse(*mml: str, overrides: tuple[tuple[Fraction, int, int], ...] = ()) -> Song:
    """Parse MML (several strings are joined, as BGMSET/BGMPLAY join theirs).

    ``overrides`` are BGMSETV changes ``(position, n, value)``: from that position
    (whole notes) on, ``$n`` reads ``value`` until the MML sets it again; of two at
    the same position, the later one in ``overrides`` wins.

    Raises:
        MmlError: text that is not valid MML, with the position and the reason.
        TypeError: an argument that is not a string.
    """
    for part in mml:
        if not isinstance(part, str):
            raise TypeError(f"MML must be text, not {type(part).__name__}")
    # By position; among equal positions in the order given, so the later one wins.
    ordered = tuple(sorted(overrides, key=lambda o: o[0]))
    written, origin = _normalise("".join(mml))
    try:
        text, kept = _expand_macros(written, tuple(range(len(written))))
    except _Error as err:
        raise MmlError(f"MML error at character {origin[err.index] + 1}{err.message}") from None
    origin = tuple(origin[i] for i in kept)
    budget = [MAX_NOTES]
    try:
        channels = _split_channels(text)
        for channel in channels:
            channel.overrides = list(ordered)
            reader = _Reader(channel, budget)
            reader.run()
    except _Error as err:
        where = origin[min(err.index, len(origin) - 1)] + 1 if origin else 1
        raise MmlError(f"MML error at character {where}{err.message}") from None
    end = max((c.pos for c in channels), default=Fraction(0))
    loop_from, end = _song_loop(channels, end)
    tempos: dict[Fraction, float] = {Fraction(0): float(DEFAULT_TEMPO)}
    for channel in channels:
        for pos, bpm in channel.tempos:
            tempos[pos] = bpm
    tempo_map = tuple(sorted(tempos.items()))
    variables = sorted((v for c in channels for v in c.assigned if v[0] < end), key=lambda v: v[0])
    song = Song(
        channels={c.number: tuple(c.notes) for c in channels if c.notes},
        tempos=tempo_map,
        end=end,
        loop_from=loop_from,
        text=written,
        variables=tuple(variables),
        overrides=ordered,
    )
    if song.duration > MAX_SONG_SECONDS:
        raise MmlError(f"MML error: the song lasts {song.duration:.0f} s (at most 600 s)")
    return song


def _song_loop(channels: list[_Channel], end: Fraction) -> tuple[Fraction | None, Fraction]:
    """The song loops when a channel has an endless repeat.

    Channels that loop are unrolled up to the song's end (already done once by
    the reader); the song's repeating part runs from the latest loop start for
    the common length of the loops, so that every channel repeats seamlessly.
    When that common length is over :data:`MAX_LOOP_WHOLES` whole notes (loops of
    unrelated lengths), the repeating part is the longest loop and the shorter
    loops start again with it (decisions doc). An endless repeat that takes no
    time ends its channel instead.
    """
    for c in channels:
        if c.loop_from is not None and c.pos <= c.loop_from:
            c.loop_from = None
    looping = [c for c in channels if c.loop_from is not None]
    if not looping:
        return None, end
    start = max(c.loop_from for c in looping if c.loop_from is not None)
    bodies = [c.pos - c.loop_from for c in looping if c.loop_from is not None]
    period = bodies[0]
    for body in bodies[1:]:
        period = _lcm(period, body)
    if period > MAX_LOOP_WHOLES:
        period = max(bodies)
    # Unroll each looping channel so that it covers [start, start + period).
    for c in looping:
        assert c.loop_from is not None
        body = c.pos - c.loop_from
        notes = [n for n in c.notes if n.start >= c.loop_from]
        tempos = [t for t in c.tempos if t[0] >= c.loop_from]
        shift = body
        while c.loop_from + shift < start + period:
            c.notes.extend(replace(n, start=n.start + shift) for n in notes)
            c.tempos.extend((pos + shift, bpm) for pos, bpm in tempos)
            shift += body
        c.pos = c.loop_from + shift
    song_end = start + period
    for c in channels:
        c.notes = [n for n in c.notes if n.start < song_end]
        c.tempos = [t for t in c.tempos if t[0] < song_end]
    return start, song_end


def _lcm(a: Fraction, b: Fraction) -> Fraction:
    num = a.numerator * b.denominator
    other = b.numerator * a.denominator
    den = a.denominator * b.denominator
    return Fraction(num * other // math.gcd(num, other), den)
