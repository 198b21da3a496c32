"""Sound keywords: BEEP, the BGM verbs (BGMPRG, BGMSETV and BGMGETV too) and speech.

TALK, TALKCHK and TALKSTOP are the speech synthesiser of the Japanese Petit
Computer mkII; published programs use them and wait for TALKCHK to clear. The
shim has no voice: TALK is silent, but TALKCHK() is TRUE for as long as the
speech would last, :data:`TALK_FRAMES_PER_SOUND` frames for each sound of the
text, so such a program waits as on the handheld (docs/petitcom-decisions.md).
"""

from __future__ import annotations

from petitcom_shim.basic import numbers
from petitcom_shim.basic.bind import bind_function, bind_statement, num
from petitcom_shim.basic.errors import BasicError
from petitcom_shim.basic.registry import Value, function, statement
from petitcom_shim.basic.runtime import Runtime

bind_statement("BGMPLAY", "bgmplay", 1, 8)
bind_statement("BGMSTOP", "bgmstop", 0, 2)
bind_statement("BGMVOL", "bgmvol", 1, 2)
bind_statement("BGMSET", "bgmset", 2, 9)
bind_statement("BGMCLEAR", "bgmclear", 0, 1)
bind_function("BGMCHK", "bgmchk", 0, 1)
bind_statement("BGMPRG", "bgmprg", 2, 7)
bind_statement("BGMSETV", "bgmsetv", 3, 3)
bind_function("BGMGETV", "bgmgetv", 2, 2)


@statement("BEEP", 0, 4)
def _beep(rt: Runtime, args: list[Value | None]) -> None:
    """BEEP [n[,pitch[,vol[,pan]]]]; an empty argument takes its default (BEEP 30,,127)."""
    defaults = (0, 0, 127, 64)
    values = [num(a, defaults[i]) for i, a in enumerate(args)]
    rt.machine.beep(*values)


@statement("BGMSETD", 2, 2)
def _bgmsetd(rt: Runtime, args: list[Value | None]) -> None:
    """BGMSETD n,@label: user song n from the DATA after the label, its strings
    (quoted or not) up to the first number (``DATA 0`` ends a song)."""
    n, label = num(args[0]), args[1]
    if not isinstance(label, bytes):
        raise BasicError("Type mismatch")
    rt.restore(label)
    parts: list[object] = []
    while True:
        item = rt.data_item()
        if not item.startswith(b'"'):
            raw, used = numbers.parse(item)
            if item and used == len(item):
                parts.append(numbers.to_int(raw))
                break
        parts.append(item.strip(b'"').decode("latin-1"))
    rt.machine.bgmsetd(n, parts)


#: Frames one sound (mora) of TALK's text lasts: 8 frames is 7.5 morae a second,
#: an ordinary Japanese speaking rate (our estimate; the mkII's rate is unknown).
TALK_FRAMES_PER_SOUND = 8
#: Characters that take no time of their own: the voicing marks ﾞ and ﾟ, which join
#: the kana before them, and the space.
_SILENT = frozenset(b"\xde\xdf ")
_TALK_END = "talk_end"


def _frame(rt: Runtime) -> int:
    return rt.machine.maincnth * 524288 + rt.machine.maincntl


@statement("TALK", 1, 1)
def _talk(rt: Runtime, args: list[Value | None]) -> None:
    """TALK text$: speak (silently) for TALK_FRAMES_PER_SOUND frames a sound."""
    text = args[0]
    if not isinstance(text, bytes):
        raise BasicError("Type mismatch")
    sounds = sum(1 for c in text if c not in _SILENT)
    rt.state[_TALK_END] = _frame(rt) + sounds * TALK_FRAMES_PER_SOUND


@statement("TALKSTOP", 0, 0)
def _talkstop(rt: Runtime, args: list[Value | None]) -> None:
    """TALKSTOP: end the speech now."""
    rt.state[_TALK_END] = 0


@function("TALKCHK", 0, 0)
def _talkchk(rt: Runtime, args: list[Value | None]) -> int:
    """TALKCHK(): TRUE (1) while a TALK is still speaking, else FALSE."""
    speaking = _frame(rt) < int(rt.state.get(_TALK_END, 0))
    return numbers.ONE if speaking else 0
