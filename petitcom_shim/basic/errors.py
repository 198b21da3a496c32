"""SmileBASIC v2's error table and the exception the interpreter raises.

PTC numbers its errors (ERR) and shows each with a fixed English text; the
table below is PTC's own list in its own order ([PEMU] data.c
``GetErrorMessage``: index = ERR). A program error stops the program and the
console shows the message with the keyword and line where it happened, as
PTC does: ``Syntax error (12)``, ``Out of range (SPSET:12)`` (line numbers are
1-based program lines; DIRECT mode shows the message alone). The format is
recorded in docs/petitcom-decisions.md.
"""

from __future__ import annotations

__all__ = ["ERRORS", "BasicError", "error_code"]

#: PTC's error messages; the index is the ERR value.
ERRORS: tuple[str, ...] = (
    "",  # 0: no error
    "Syntax error",
    "Out of range",
    "Out of memory",
    "Undefined label",
    "NEXT without FOR",
    "Out of DATA",
    "Illegal function call",
    "Duplicate definition",
    "Can't continue",
    "Missing operand",
    "Duplicate label",
    "Illegal resource type",
    "Illegal character type",
    "String too long",
    "Division by zero",
    "Overflow",
    "Subscript out of range",
    "Type mismatch",
    "Formula too complex",
    "RETURN without GOSUB",
    "FOR without NEXT",
)

_CODES = {message: code for code, message in enumerate(ERRORS) if message}


def error_code(message: str) -> int:
    """ERR for one of PTC's messages (0 for a message PTC does not have)."""
    return _CODES.get(message, 0)


class BasicError(Exception):
    """A PTC error: ``message`` is PTC's exact text (e.g. ``"Syntax error"``).

    Attributes:
        message: one of :data:`ERRORS`.
        line: the 1-based program line, or None (DIRECT mode, or not yet known).
        code: the ERR number of the message.
        keyword: the statement or function that failed ("SPSET"), or "".
    """

    def __init__(self, message: str, line: int | None = None, keyword: str = "") -> None:
        self.message = message
        self.line = line
        self.keyword = keyword
        self.code = error_code(message)
        super().__init__(self.text())

    def text(self) -> str:
        """The error as the console shows it: ``Out of range (SPSET:12)``."""
        if self.line is None:
            return self.message if not self.keyword else f"{self.message} ({self.keyword})"
        where = f"{self.keyword}:{self.line}" if self.keyword else str(self.line)
        return f"{self.message} ({where})"

    def __str__(self) -> str:
        return self.text()
