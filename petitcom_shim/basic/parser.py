"""The parser: tokens of one PTC line to statement and expression trees.

Trees are plain tuples, tagged by their first item (see :data:`Expr` and
:data:`Stmt`), so the compiler can walk them cheaply. PTC's statement syntax
is loose: statements need no colon between them (``A=1 B=2``), PRINT items
need no separator (``PRINT A"x"``), arguments may be empty (``BEEP 30,,127``),
anything after a label at the start of a line that is not a ``:`` is a
comment (whatever its bytes), and a line starting with ELSE is a comment as well ([SBC] notes it
behaves like one).
"""

from __future__ import annotations

import re
from typing import Any

from petitcom_shim.basic import registry
from petitcom_shim.basic.errors import BasicError
from petitcom_shim.basic.tokens import Token, tokenize

__all__ = ["BUILTIN_FUNCTIONS", "BUILTIN_SYSVARS", "Line", "parse_line"]

# An expression: ("num", raw) | ("str", bytes) | ("var", name) | ("arr", name, [idx])
# | ("call", name, [args]) | ("sys", name) | ("bin", op, a, b) | ("un", op, a)
Expr = tuple[Any, ...]
# A statement: ("let", target, expr) | ("print", items) | ("if", cond, then, else) | ...
Stmt = tuple[Any, ...]

#: Functions compiled by the language core: name -> (min args, max args).
BUILTIN_FUNCTIONS: dict[str, tuple[int, int]] = {
    "ABS": (1, 1), "ATAN": (1, 2), "COS": (1, 1), "SIN": (1, 1), "TAN": (1, 1),
    "EXP": (1, 1), "LOG": (1, 1), "FLOOR": (1, 1), "POW": (2, 2), "SGN": (1, 1),
    "SQR": (1, 1), "PI": (0, 0), "RAD": (1, 1), "DEG": (1, 1), "RND": (1, 1),
    "ASC": (1, 1), "CHR$": (1, 1), "HEX$": (1, 2), "INSTR": (2, 3), "LEFT$": (2, 2),
    "MID$": (3, 3), "RIGHT$": (2, 2), "LEN": (1, 1), "STR$": (1, 1), "VAL": (1, 1),
    "SUBST$": (4, 4),
}  # fmt: skip

#: System variables of the language core (the hardware ones are registered).
BUILTIN_SYSVARS = frozenset(
    {"TRUE", "FALSE", "CANCEL", "VERSION", "RESULT", "ERR", "ERL", "FREEVAR", "FREEMEM"}
)  # fmt: skip

#: Statements with their own syntax (everything else is a registered keyword).
LANGUAGE = frozenset(
    {"PRINT", "IF", "FOR", "NEXT", "GOTO", "GOSUB", "ON", "RETURN", "END", "STOP",
     "DIM", "DATA", "READ", "RESTORE", "CLEAR", "SWAP", "VSYNC", "WAIT", "ELSE", "THEN",
     "SORT", "RSORT",
     "TO", "STEP"}
)  # fmt: skip

#: Nesting of parentheses and unary operators before "Formula too complex".
_MAX_NESTING = 60

_LEVELS: tuple[frozenset[str], ...] = (
    frozenset({"AND", "OR", "XOR"}),
    frozenset({"==", "!="}),
    frozenset({"<", ">", "<=", ">="}),
    frozenset({"+", "-"}),
    frozenset({"*", "/", "%"}),
)


class Line:
    """One parsed program line.

    Attributes:
        label: the label defined at its start ("@MAIN"), or None.
        stmts: its statements (a Syntax error becomes a ``("error", message, keyword)``
            statement where it was found, so the line runs up to there as on PTC).
        data: the DATA items of the line, in order (bytes; quoted items keep
            their quotes so READ can tell them from numbers).
    """

    def __init__(self, label: str | None, stmts: list[Stmt], data: list[bytes]) -> None:
        self.label = label
        self.stmts = stmts
        self.data = data


def _data_items(text: bytes) -> list[bytes]:
    """DATA items of the text after DATA: comma-separated, quotes keep commas."""
    items: list[bytes] = []
    cur = bytearray()
    quoted = False
    for c in text:
        if c == 0x22:
            quoted = not quoted
            cur.append(c)
        elif c == 0x2C and not quoted:
            items.append(bytes(cur).strip())
            cur.clear()
        else:
            cur.append(c)
    items.append(bytes(cur).strip())
    return items


class _Parser:
    def __init__(self, raw: bytes, toks: list[Token]) -> None:
        self.raw = raw
        self.t = toks
        self.i = 0
        self.nesting = 0
        self.data: list[bytes] = []

    # -- token helpers -----------------------------------------------------
    def peek(self, k: int = 0) -> Token:
        return self.t[min(self.i + k, len(self.t) - 1)]

    def next(self) -> Token:
        tok = self.t[self.i]
        if tok.kind != "eol":
            self.i += 1
        return tok

    def expect(self, op: str) -> None:
        if not self.peek().is_op(op):
            raise BasicError("Syntax error")
        self.i += 1

    def at_end(self) -> bool:
        """End of a statement list: end of line, ``:`` is handled by the caller, or ELSE."""
        tok = self.peek()
        return tok.kind == "eol" or tok.is_name("ELSE")

    def at_stmt_end(self) -> bool:
        tok = self.peek()
        return tok.kind == "eol" or tok.is_op(":") or tok.is_name("ELSE")

    # -- lines and statements ------------------------------------------------
    def line(self) -> Line:
        label = None
        first = self.peek()
        if first.kind == "label":
            label = first.value
            self.next()
            if not self.peek().is_op(":"):
                return Line(str(label), [], [])  # text after a label is a comment
        elif first.is_name("ELSE"):
            return Line(None, [], [])
        stmts = self.stmts(in_if=False)
        return Line(None if label is None else str(label), stmts, self.data)

    def stmts(self, *, in_if: bool) -> list[Stmt]:
        out: list[Stmt] = []
        while True:
            while self.peek().is_op(":"):
                self.next()
            tok = self.peek()
            if tok.kind == "eol":
                return out
            if tok.is_name("ELSE"):
                if in_if:
                    return out
                return out  # a stray ELSE: the rest of the line is skipped
            try:
                stmt = self.stmt()
            except BasicError as exc:
                out.append(("error", exc.message, exc.keyword))
                self.i = len(self.t) - 1
                return out
            out.append(stmt)
            if stmt[0] in ("if", "data"):
                return out  # IF and DATA take the rest of the line

    def stmt(self) -> Stmt:
        tok = self.next()
        if tok.kind == "label":
            raise BasicError("Syntax error")
        if tok.kind != "name":
            raise BasicError("Syntax error")
        name = str(tok.value)
        if name in LANGUAGE:
            return self.language(name, tok)
        kw = registry.lookup("statement", name)
        if kw is not None and not self.peek().is_op("=", "["):
            return self.keyword_call(kw)
        return self.assignment(name)

    def assignment(self, name: str) -> Stmt:
        target = self.lvalue_rest(name)
        if not self.peek().is_op("="):
            raise BasicError("Syntax error")
        self.next()
        return ("let", target, self.expr())

    def subscript(self) -> list[Expr]:
        """``[i]``, ``[i,j]``; PTC also takes ``(`` and ``)``, even mixed (``A[2)``,
        [SBC] test_int_vars)."""
        self.next()
        idx = [self.expr()]
        if self.peek().is_op(","):
            self.next()
            idx.append(self.expr())
        if not self.peek().is_op("]", ")"):
            raise BasicError("Syntax error")
        self.next()
        return idx

    def lvalue_rest(self, name: str) -> Expr:
        if self.peek().is_op("[", "("):
            return ("arr", name, self.subscript())
        if name in BUILTIN_SYSVARS or registry.lookup("sysvar", name) is not None:
            return ("sys", name)
        if name in BUILTIN_FUNCTIONS or name in LANGUAGE:
            raise BasicError("Syntax error")
        return ("var", name)

    def lvalue(self) -> Expr:
        tok = self.next()
        if tok.kind != "name":
            raise BasicError("Syntax error")
        target = self.lvalue_rest(str(tok.value))
        if target[0] == "sys":
            raise BasicError("Syntax error")
        return target

    def target(self) -> Expr:
        """A GOTO/GOSUB/RESTORE target: a label, or an expression giving one."""
        tok = self.peek()
        if tok.kind == "label":
            self.next()
            return ("label", tok.value)
        return self.expr()

    def language(self, name: str, tok: Token) -> Stmt:
        if name == "PRINT":
            return self.print_stmt()
        if name == "IF":
            cond = self.expr()
            if self.peek().is_name("THEN"):
                self.next()
                if self.peek().kind == "label":
                    then: list[Stmt] = [("goto", self.target())]
                else:
                    then = self.stmts(in_if=True)
            elif self.peek().is_name("GOTO"):
                self.next()
                then = [("goto", self.target())]
            else:
                raise BasicError("Syntax error")
            other: list[Stmt] = []
            if self.peek().is_name("ELSE"):
                self.next()
                if self.peek().kind == "label":
                    other = [("goto", self.target())]
                else:
                    other = self.stmts(in_if=True)
            return ("if", cond, then, other)
        if name == "FOR":
            var = self.lvalue()
            if var[0] != "var" or var[1].endswith("$"):
                raise BasicError("Syntax error")
            self.expect("=")
            start = self.expr()
            if not self.peek().is_name("TO"):
                raise BasicError("Syntax error")
            self.next()
            end = self.expr()
            step: Expr | None = None
            if self.peek().is_name("STEP"):
                self.next()
                step = self.expr()
            return ("for", var[1], start, end, step)
        if name == "NEXT":
            if self.peek().kind == "name" and not self.peek().is_name("ELSE"):
                var = self.lvalue()
                return ("next", var[1] if var[0] == "var" else None)
            # A new tuple for each NEXT: the compiler pairs FOR and NEXT by id(), and
            # the literal ("next", None) is one shared constant, so every bare NEXT
            # would be the same statement (a FOR that never enters then skipped to
            # after the program's last NEXT).
            return tuple(["next", None])
        if name in ("GOTO", "GOSUB"):
            return (name.lower(), self.target())
        if name == "ON":
            value = self.expr()
            how = self.next()
            if not how.is_name("GOTO", "GOSUB"):
                raise BasicError("Syntax error")
            targets = [self.target()]
            while self.peek().is_op(","):
                self.next()
                targets.append(self.target())
            return ("on", value, str(how.value).lower(), targets)
        if name in ("RETURN", "END", "STOP", "CLEAR"):
            return (name.lower(),)
        if name == "DIM":
            arrays = []
            while True:
                tok2 = self.next()
                if tok2.kind != "name" or not self.peek().is_op("[", "("):
                    raise BasicError("Syntax error")
                target = self.lvalue_rest(str(tok2.value))
                arrays.append((target[1], target[2]))
                if not self.peek().is_op(","):
                    break
                self.next()
            return ("dim", arrays)
        if name == "DATA":
            begin = self.peek().pos
            self.data.extend(_data_items(self.raw[begin:]))
            self.i = len(self.t) - 1
            return ("data",)
        if name == "READ":
            targets = [self.lvalue()]
            while self.peek().is_op(","):
                self.next()
                targets.append(self.lvalue())
            return ("read", targets)
        if name == "RESTORE":
            if self.at_stmt_end():
                return ("restore", None)
            return ("restore", self.target())
        if name == "SWAP":
            a = self.lvalue()
            self.expect(",")
            return ("swap", a, self.lvalue())
        if name in ("SORT", "RSORT"):
            start = self.expr()
            self.expect(",")
            count = self.expr()
            names = []
            while self.peek().is_op(","):
                self.next()
                tok2 = self.next()
                if tok2.kind != "name":
                    raise BasicError("Syntax error")
                names.append(str(tok2.value))
            if not names:
                raise BasicError("Missing operand")
            return ("sort", name == "RSORT", start, count, names)
        if name in ("VSYNC", "WAIT"):
            count = ("num", 4096) if self.at_stmt_end() else self.expr()
            return ("vsync", count)
        raise BasicError("Syntax error")  # ELSE/THEN/TO/STEP out of place

    def print_stmt(self) -> Stmt:
        items: list[Any] = []
        while not self.at_stmt_end():
            tok = self.peek()
            if tok.kind == "name" and (
                tok.value in LANGUAGE or registry.lookup("statement", str(tok.value))
            ):
                break  # the next statement, with no colon (?"A"?"B", [SBC] test_console)
            if tok.is_op(";", ","):
                self.next()
                items.append(str(tok.value))
            else:
                items.append(self.expr())
        return ("print", items)

    def keyword_call(self, kw: registry.Keyword) -> Stmt:
        args: list[Expr | None] = []
        seps: list[str] = []
        if not self.at_stmt_end():
            while True:
                if self.peek().is_op(",", ";"):
                    args.append(None)
                elif not args and self.peek().is_op("(") and self._is_group():
                    self.next()
                    args.append(("group", self.exprs_until(")")))
                else:
                    args.append(self.expr())
                if self.peek().is_op(",", ";"):
                    seps.append(str(self.next().value))
                    if self.at_stmt_end():
                        args.append(None)
                        seps.append("")
                        break
                    continue
                seps.append("")
                break
        flat = sum(len(a[1]) if a is not None and a[0] == "group" else 1 for a in args)
        if flat < kw.min_args:
            raise BasicError("Missing operand", keyword=kw.name)
        if kw.max_args is not None and flat > kw.max_args:
            raise BasicError("Syntax error", keyword=kw.name)
        return ("kw", kw.name, args, seps)

    def _is_group(self) -> bool:
        """True if the ``(`` here opens ``(a,b,...)`` rather than a bracketed expression."""
        depth = 0
        for tok in self.t[self.i :]:
            if tok.is_op("(", "["):
                depth += 1
            elif tok.is_op(")", "]"):
                depth -= 1
                if depth == 0:
                    return False
            elif tok.is_op(",") and depth == 1:
                return True
            elif tok.kind == "eol":
                return False
        return False

    def exprs_until(self, close: str) -> list[Expr]:
        out = [self.expr()]
        while self.peek().is_op(","):
            self.next()
            out.append(self.expr())
        self.expect(close)
        return out

    # -- expressions ---------------------------------------------------------
    def expr(self, level: int = 0) -> Expr:
        if level == 0:
            self.nesting += 1
            if self.nesting > _MAX_NESTING:
                raise BasicError("Formula too complex")
            try:
                return self.expr(1)
            finally:
                self.nesting -= 1
        if level > len(_LEVELS):
            return self.unary()
        left = self.expr(level + 1)
        ops = _LEVELS[level - 1]
        chain = 0
        while self.peek().kind == "op" and self.peek().value in ops:
            chain += 1
            if chain + self.nesting > _MAX_NESTING:
                raise BasicError("Formula too complex")
            op = str(self.next().value)
            left = ("bin", op, left, self.expr(level + 1))
        return left

    def unary(self) -> Expr:
        tok = self.peek()
        if tok.is_op("-", "!", "NOT"):
            self.next()
            self.nesting += 1
            if self.nesting > _MAX_NESTING:
                raise BasicError("Formula too complex")
            inner = self.unary()
            self.nesting -= 1
            if tok.value == "-" and inner[0] == "num":
                return ("num", -inner[1])
            return ("un", tok.value, inner)
        if tok.is_op("+"):
            self.next()
            return self.unary()
        return self.primary()

    def primary(self) -> Expr:
        tok = self.next()
        if tok.kind == "num":
            return ("num", tok.value)
        if tok.kind == "str":
            return ("str", tok.value)
        if tok.kind == "label":
            return ("str", str(tok.value).encode("ascii"))
        if tok.is_op("("):
            inner = self.expr()
            self.expect(")")
            return inner
        if tok.kind != "name":
            raise BasicError("Syntax error")
        name = str(tok.value)
        if self.peek().is_op("("):
            if name in BUILTIN_FUNCTIONS:
                low, high = BUILTIN_FUNCTIONS[name]
            else:
                kw = registry.lookup("function", name)
                if kw is None:
                    return self.lvalue_rest(name)  # A(1): an array element
                low, high = kw.min_args, kw.max_args if kw.max_args is not None else 99
            self.next()
            args: list[Expr] = []
            if self.peek().is_op(")"):
                self.next()
            else:
                args = self.exprs_until(")")
            if len(args) < low:
                raise BasicError("Missing operand")
            if len(args) > high:
                raise BasicError("Syntax error")
            return ("call", name, args)
        if self.peek().is_op("["):
            return self.lvalue_rest(name)
        if name in BUILTIN_SYSVARS or registry.lookup("sysvar", name) is not None:
            return ("sys", name)
        if name in BUILTIN_FUNCTIONS or name in LANGUAGE or registry.lookup("function", name):
            raise BasicError("Syntax error")
        if registry.lookup("statement", name) is not None:
            raise BasicError("Syntax error")
        return ("var", name)


def parse_line(raw: bytes) -> Line:
    """Parse one line (without its line ending). Never raises: errors become
    ``("error", message, keyword)`` statements that raise when the line runs
    (a line nested deeper than the parser can go, e.g. hundreds of
    ``IF 1 THEN``, is "Out of memory" there)."""
    head = _LABEL_HEAD.match(raw)
    if head is not None and raw[head.end() : head.end() + 1] != b":":
        # Text after a label is a comment, whatever its bytes: `@MAIN ﾒｲﾝ` (katakana,
        # or any code no token starts with) must not be a Syntax error.
        return Line("@" + head.group(1).decode("ascii").upper(), [], [])
    try:
        return _Parser(raw, tokenize(raw)).line()
    except BasicError as exc:
        return Line(_label_of(raw), [("error", exc.message, "")], [])
    except RecursionError:
        return Line(_label_of(raw), [("error", "Out of memory", "")], [])


#: A label at the start of a line and the blanks after it.
_LABEL_HEAD = re.compile(rb"@([A-Za-z0-9_]*)[ \t]*")


def _label_of(raw: bytes) -> str | None:
    """The label a line that cannot be parsed starts with, if any."""
    if raw[:1] != b"@":
        return None
    try:
        head = tokenize(raw.split(b":", 1)[0])
    except BasicError:
        return None
    return str(head[0].value) if head[0].kind == "label" else None
