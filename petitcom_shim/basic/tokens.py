"""The tokenizer: one PTC program line (bytes in PTC's character set) to tokens.

PTC quirks it keeps: keywords in any case (``print`` is PRINT: the manual
says lower-case keywords are turned into upper case), ``?`` for PRINT, ``'``
and REM comments running to the end of the line, ``&H``/``&B`` numbers,
strings without a closing quote ending at the end of the line, DATA's
items left as text (the parser splits them), and names
running straight into operators and strings (``PRINT A"x"``, ``A=1 B=2`` —
the parser decides where statements start).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from petitcom_shim.basic import numbers
from petitcom_shim.basic.errors import BasicError

__all__ = ["Token", "tokenize"]

Kind = Literal["num", "str", "name", "label", "op", "eol"]

#: Word operators.
WORD_OPS = frozenset({"AND", "OR", "XOR", "NOT"})
_TWO = (b"==", b"!=", b"<=", b">=")
_ONE = b"+-*/%()[],;:=<>!"
_NAME_START = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_NAME = _NAME_START | frozenset(b"0123456789")
_DIGITS = frozenset(b"0123456789")


@dataclass(frozen=True, slots=True)
class Token:
    """One token: ``kind`` and its ``value`` (raw number, bytes, upper-case name or op)."""

    kind: Kind
    value: object
    pos: int

    def is_op(self, *ops: str) -> bool:
        """True if this is one of the operators/punctuation ``ops``."""
        return self.kind == "op" and self.value in ops

    def is_name(self, *names: str) -> bool:
        """True if this is one of the names/keywords ``names``."""
        return self.kind == "name" and self.value in names


def tokenize(line: bytes) -> list[Token]:
    """Tokens of one line, ending with an ``eol`` token.

    Raises:
        BasicError: "Syntax error" for a character no token can start with,
            "Overflow" for a number literal too large for 20.12.
    """
    out: list[Token] = []
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if c in (0x20, 0x09):
            i += 1
        elif c == 0x27:  # ' comment
            break
        elif c == 0x22:  # "string"
            end = line.find(b'"', i + 1)
            stop = n if end < 0 else end
            out.append(Token("str", line[i + 1 : stop], i))
            i = stop + 1
        elif c in _DIGITS or (c == 0x2E and i + 1 < n and line[i + 1] in _DIGITS):
            raw, used = numbers.parse(line[i:], signed=False)
            out.append(Token("num", raw, i))
            i += max(used, 1)
        elif c == 0x26 and line[i + 1 : i + 2].upper() in (b"H", b"B"):  # &H / &B
            raw, used = numbers.parse(line[i:], signed=False)
            out.append(Token("num", raw, i))
            i += max(used, 2)
        elif c in _NAME_START:
            j = i + 1
            while j < n and line[j] in _NAME:
                j += 1
            if j < n and line[j] == 0x24:  # $
                j += 1
            name = line[i:j].decode("ascii").upper()
            if name == "REM":
                break
            out.append(Token("op" if name in WORD_OPS else "name", name, i))
            i = j
            if name == "DATA":
                # DATA's items are text, read by READ: `DATA 2222002222002222` is a
                # string for READ A$ and must not be a number literal (Overflow) here.
                # The line ends here; its ``eol`` marks where the items start.
                out.append(Token("eol", None, j))
                return out
        elif c == 0x40:  # @label
            j = i + 1
            while j < n and line[j] in _NAME:
                j += 1
            out.append(Token("label", "@" + line[i + 1 : j].decode("ascii").upper(), i))
            i = j
        elif c == 0x3F:  # ? is PRINT
            out.append(Token("name", "PRINT", i))
            i += 1
        elif line[i : i + 2] in _TWO:
            out.append(Token("op", line[i : i + 2].decode("ascii"), i))
            i += 2
        elif c in _ONE:
            out.append(Token("op", chr(c), i))
            i += 1
        else:
            raise BasicError("Syntax error")
    out.append(Token("eol", None, n))
    return out
