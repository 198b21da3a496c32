"""The compiler: parsed PTC lines to Python source, one function per basic block.

A tree walker cannot reach the speed goal (issue 14 §3), so a program becomes
Python code: every *block* — a run of statements entered only at its top (a
label's line, the statement after a GOSUB, FOR, VSYNC, NEXT, STOP or a
waiting keyword) — is a function ``b<N>()`` that runs its statements and
returns the index of the next block. The runtime calls blocks in a loop
(:meth:`petitcom_shim.basic.runtime.Runtime.execute`). Numbers are raw 20.12
``int`` words, strings ``bytes``; variables are globals of the generated
module (``v_A`` number, ``s_A`` string, ``a_A``/``t_A`` arrays), so the
runtime keeps them across DIRECT lines and CONT. Each generated source line
remembers its PTC line, so an error reports PTC's line without any per-line
bookkeeping at run time.

A program is compiled lazily, a *segment* at a time (:class:`Program`): a
segment is the lines from one label to the next, or :data:`SEGMENT_LINES` lines
at most, and it is compiled when it is first entered. A program at PTC's size
limit (524,288 bytes, 87,000 statements) then starts at once instead of after
28 s and a gigabyte of compiling (issue 23 §5). Every segment's first block has
the segment's number as its index, so a label's block and a segment's fall-through
are known before anything is compiled; the other blocks are numbered as segments
are compiled.
"""

from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import dataclass, field

from petitcom_shim.basic import registry
from petitcom_shim.basic.errors import BasicError
from petitcom_shim.basic.parser import BUILTIN_FUNCTIONS, Expr, Line, Stmt, parse_line

__all__ = [
    "Compiled",
    "CompiledExpression",
    "Program",
    "compile_expression",
    "split_lines",
    "var_key",
]

# The range of an arithmetic result: symmetric, so -524288 (the word &H80000 holds)
# is an Overflow as a sum, as on the handheld (numbers.result).
_LO, _HI = -(2**31 - 1), 2**31 - 1
_CMP = {"==": "==", "!=": "!=", "<": "<", ">": ">", "<=": "<=", ">=": ">="}
#: Deepest expression PTC programs get ("Formula too complex" beyond; it also
#: keeps the generated Python within the parser's nesting limit).
MAX_NESTING = 60
#: Deepest indentation the generated code nests IFs to; a deeper IF (``IF 1 THEN
#: IF 1 THEN ...`` a hundred times) takes the linear form, with jumps between
#: blocks, as Python refuses more than 100 levels of indentation.
MAX_INDENT = 40
#: Statements that wait for the user: each is a block of its own, so a stop while it
#: waits (frame limit, SELECT, window closed) resumes at it and CONT asks again.
_WAITING = frozenset({"INPUT", "LINPUT"})
_PLACEHOLDER = re.compile("\x00([^\x00]*)\x00")
#: Statements that change nothing but scalar variables (when their expressions are
#: steady): what a wait loop may hold and still be fast-forwarded (:func:`_steady`).
_STEADY_STATEMENTS = frozenset({"let", "if", "goto", "data"})
#: Functions and system variables whose value stays the same all through a frame and
#: whose call changes nothing: input is latched once a frame, and BGMCHK, TALKCHK,
#: SPCHK, BGCHK and MAINCNTL follow the machine's frames.
_STEADY_CALLS = frozenset(
    {"BUTTON", "BTRIG", "BGMCHK", "BGMGETV", "TALKCHK", "SPCHK", "SPGETV", "BGCHK",
     "GSPOIT", "CHKCHR"}
)  # fmt: skip
_STEADY_SYSVARS = frozenset(
    {"TRUE", "FALSE", "CANCEL", "VERSION", "RESULT", "ERR", "ERL", "FREEVAR", "FREEMEM",
     "MAINCNTL", "MAINCNTH", "TCHX", "TCHY", "TCHST", "TCHTIME", "CSRX", "CSRY",
     "TABSTEP", "SYSBEEP", "ICONPUSE", "ICONPAGE", "ICONPMAX", "SPHITNO", "SPHITX",
     "SPHITY", "SPHITT", "MEM$", "PRGNAME$", "PACKAGE$"}
)  # fmt: skip
#: Flags of :func:`_steady`: the expression reads INKEY$ (steady only while no key is
#: waiting: a read takes the key), or DATE$/TIME$ (steady only on a frame clock).
IDLE_KEYS, IDLE_CLOCK = 1, 2
#: Numbers the FORs whose TO/STEP NEXT evaluates again, across every compiled unit
#: (a DIRECT line's loop and the program's share one FOR stack).
_FOR_IDS = itertools.count(1)
#: The most lines a segment (the unit of lazy compiling) holds.
SEGMENT_LINES = 128
#: A FOR or NEXT statement: (line index, its number among the line's FORs and NEXTs).
EventKey = tuple[int, int]


def _constant(e: Expr | None) -> bool:
    """True for a TO/STEP that cannot change while the loop runs (a literal)."""
    if e is None or e[0] == "num":
        return True
    inner = e[2] if e[0] == "un" and e[1] == "-" else None
    return isinstance(inner, tuple) and inner[0] == "num"


def split_lines(source: bytes) -> list[bytes]:
    """A program's lines, split at CR (0x0D) only; no empty last line.

    PTC ends a line with 0x0D alone, and a 0x0A inside a line (in a comment,
    a string or a DATA item) is a character like any other: published programs
    have them. Text with LF or CRLF line ends is converted by
    ``progfile.from_text`` before it gets here.
    """
    lines = source.split(b"\r")
    if lines and lines[-1] == b"":
        lines.pop()
    return lines


def var_key(name: str) -> str:
    """The generated-code global holding variable ``name`` ("A" -> "v_A", "A$" -> "s_A")."""
    return f"s_{name[:-1]}" if name.endswith("$") else f"v_{name}"


def arr_key(name: str) -> str:
    """The global holding array ``name`` ("A" -> "a_A", "A$" -> "t_A")."""
    return f"t_{name[:-1]}" if name.endswith("$") else f"a_{name}"


@dataclass
class Compiled:
    """A compiled segment of a :class:`Program`.

    Attributes:
        source: the generated Python source (for debugging and tests): functions
            ``b0``... and ``B``, their list; ``B[0]`` is the segment's entry block.
        nblocks: number of blocks.
        pylines: generated source line (1-based) -> PTC line number.
        scalars: the variable keys the code uses (created as 0 / "" when missing).
        arrays: the array keys the code uses.
        keywords: the registered keywords the code calls, by index (the generated
            code reads them from the global ``_K_<unit>``; the program's list).
        unit: the unit's name.
    """

    source: str
    nblocks: int
    pylines: list[int]
    scalars: set[str] = field(default_factory=set)
    arrays: set[str] = field(default_factory=set)
    keywords: list[registry.Keyword] = field(default_factory=list)
    unit: str = "program"
    #: Work units of each block for ``--speed dsi`` (10 a statement, 1 an expression node).
    costs: list[int] = field(default_factory=list)
    #: The PTC line each block starts on.
    block_lines: list[int] = field(default_factory=list)
    #: Generated source line (1-based) where a statement's code starts -> the
    #: statement's work units (0 inside an IF, whose cost counts it): where the
    #: debugger and the line profiler stop and count; nothing reads it at run time.
    statements: dict[int, int] = field(default_factory=dict)
    #: The segment's number (the index of its entry block).
    segment: int = 0
    #: Where the segment's other blocks are numbered from.
    base: int = 0

    def block_index(self, local: int) -> int:
        """The program's block index of this segment's block ``b<local>`` (as
        ``_Compiler.index``): what a traceback or a trace hook sees is the local one."""
        return self.segment if local == 0 else self.base + local - 1


class _Block:
    def __init__(self, line: int) -> None:
        self.code: list[tuple[int, str]] = []  # (ptc line, python line without indent)
        self.globals: set[str] = set()
        self.line = line
        self.cost = 0
        self.starts: dict[int, int] = {}  # index in code where a statement starts -> its cost
        # For wait loops (:meth:`_Compiler.s_goto`): a statement that is not steady
        # came before (in program order); the scalars written so far; the scalars
        # the block's start keeps a copy of; what the steady reads need (IDLE_*).
        self.tainted = False
        self.writes: dict[str, None] = {}
        self.snap: dict[str, None] = {}
        self.flags = 0


def _steady(e: Expr | None) -> int | None:
    """Whether an expression is *steady*: it changes nothing, and its value stays the
    same all through a frame as long as the variables it reads keep theirs. Returns
    None if not, else the :data:`IDLE_KEYS`/:data:`IDLE_CLOCK` conditions it needs.

    RND is not steady (each call moves the generator), nor are SPHIT* (they set
    SPHITNO...) or the keywords a program can pass variables to be written.
    """
    if e is None:
        return 0
    kind = e[0]
    if kind in ("num", "str", "var", "label"):
        return 0
    if kind == "arr":
        return _steady_all(e[2])
    if kind == "sys":
        name = str(e[1])
        if name in _STEADY_SYSVARS:
            return 0
        return IDLE_CLOCK if name in ("DATE$", "TIME$") else None
    if kind == "un":
        return _steady(e[2])
    if kind == "bin":
        a, b = _steady(e[2]), _steady(e[3])
        return None if a is None or b is None else a | b
    if kind == "call":
        name = str(e[1])
        flags = 0
        if name == "INKEY$":
            flags = IDLE_KEYS
        elif name == "RND" or (name not in BUILTIN_FUNCTIONS and name not in _STEADY_CALLS):
            return None
        inner = _steady_all(e[2])
        return None if inner is None else inner | flags
    return None


def _steady_all(args: list[Expr]) -> int | None:
    flags = 0
    for a in args:
        f = _steady(a)
        if f is None:
            return None
        flags |= f
    return flags


def _steady_statement(s: Stmt) -> int | None:
    """:func:`_steady` for a statement's own part (an IF's condition, not its branches,
    which are statements of their own): a wait loop holds only these."""
    kind = s[0]
    if kind not in _STEADY_STATEMENTS:
        return None
    if kind == "let":
        return _steady(s[2]) if s[1][0] == "var" else None
    if kind == "if":
        return _steady(s[1])
    if kind == "goto":
        return _steady(s[1])
    return 0


def _is_str(e: Expr) -> bool:
    """The type of an expression: True for a string."""
    kind = e[0]
    if kind == "str":
        return True
    if kind in ("num", "un"):
        return False
    if kind in ("var", "arr", "sys", "call"):
        return str(e[1]).endswith("$")
    if kind == "bin":
        if e[1] in ("+", "*"):
            return _is_str(e[2])
        return False
    return False


def _nodes(tree: object) -> int:
    """Number of tuples in a parse tree (the size of a statement, for --speed dsi)."""
    if isinstance(tree, tuple):
        return 1 + sum(_nodes(x) for x in tree)
    if isinstance(tree, list):
        return sum(_nodes(x) for x in tree)
    return 0


def _splits(stmts: list[Stmt]) -> bool:
    """True if a statement list needs block boundaries inside it."""
    for s in stmts:
        kind = s[0]
        if kind in ("gosub", "for", "next", "vsync", "stop"):
            return True
        if kind == "on" and s[2] == "gosub":
            return True
        if kind == "kw" and s[1] in _WAITING:
            return True
        if kind == "if" and (_splits(s[2]) or _splits(s[3])):
            return True
    return False


def _if_depth(stmts: list[Stmt]) -> int:
    """How deep IFs nest in a statement list (0 with no IF)."""
    deepest = 0
    for s in stmts:
        if s[0] == "if":
            deepest = max(deepest, 1 + _if_depth(s[2]), 1 + _if_depth(s[3]))
    return deepest


def _events(
    stmts: list[Stmt], line: int, out: dict[int, EventKey] | None = None
) -> dict[int, EventKey]:
    """The FOR and NEXT statements of a line, in program order (an IF's THEN part before
    its ELSE part): id of the statement -> its :data:`EventKey`."""
    found: dict[int, EventKey] = {} if out is None else out
    for s in stmts:
        if s[0] in ("for", "next"):
            found[id(s)] = (line, len(found))
        elif s[0] == "if":
            _events(s[2], line, found)
            _events(s[3], line, found)
    return found


class _Compiler:
    """Compiles the lines of one segment of ``program``: block 0 gets index
    ``segment``, the others ``base``, ``base + 1``...; the last falls through to
    segment ``segment + 1`` (the program's end after the last segment)."""

    def __init__(
        self, lines: list[Line], program: Program, segment: int, first: int, base: int
    ) -> None:
        self.lines = lines
        self.program = program
        self.segment = segment
        self.first = first
        self.base = base
        self.kw_list = f"_K_{program.unit}"
        self.blocks: list[_Block] = []
        self.scalars: set[str] = set()
        self.arrays: set[str] = set()
        self.keys: dict[int, EventKey] = {}
        self.ln = 0
        self.nesting = 0
        self.depth = 0
        self.indent = 0
        self.tmp = 0
        self._stmt_cost: int | None = None  # the next line emitted starts a statement of this cost

    def index(self, local: int) -> int:
        """The block index of the segment's ``local``-th block."""
        return self.segment if local == 0 else self.base + local - 1

    # -- blocks ----------------------------------------------------------------
    @property
    def cur(self) -> _Block:
        return self.blocks[-1]

    def emit(self, text: str) -> None:
        if self._stmt_cost is not None:
            self.cur.starts[len(self.cur.code)] = self._stmt_cost
            self._stmt_cost = None
        self.cur.code.append((self.ln, "    " * self.indent + text))

    def new_block(self) -> int:
        """Close the current block (falling through) and start the next one."""
        index = self.index(len(self.blocks))
        if self.blocks:
            saved, starting = self.indent, self._stmt_cost
            self.indent, self._stmt_cost = 0, None
            self.emit(f"return {index}")
            self.indent, self._stmt_cost = saved, starting
        self.blocks.append(_Block(self.ln))
        return index

    def temp(self) -> str:
        self.tmp += 1
        return f"_t{self.tmp}"

    def kw_ref(self, kw: registry.Keyword) -> str:
        return f"{self.kw_list}[{self.program.keyword_index(kw)}]"

    # -- program -----------------------------------------------------------
    def compile(self) -> None:
        """Compile the lines; a label starts a segment, so only its first line has one."""
        self.blocks.append(_Block(self.first))
        for number, line in enumerate(self.lines, start=self.first):
            self.ln = number
            self.keys = _events(line.stmts, number - 1)
            self.stmts(line.stmts)
        self.ln = self.first + len(self.lines) - 1 if self.lines else self.first
        self.indent = 0
        self._stmt_cost = None  # a last DATA emits nothing: the fall-through starts no statement
        self.emit(f"return {self.segment + 1}")  # the next segment, or the program's end

    # -- statements ------------------------------------------------------------
    def stmts(self, stmts: list[Stmt]) -> None:
        for s in stmts:
            self.stmt(s)

    def stmt(self, s: Stmt) -> None:
        try:
            cost = 0 if self.depth else 10 + _nodes(s)
            self.cur.cost += cost  # an IF's cost already counts the statements inside it
            steady = _steady_statement(s)
            if steady is None:
                self.cur.tainted = True
            else:
                self.cur.flags |= steady
            self._stmt_cost = cost
            getattr(self, "s_" + s[0])(s)
        except BasicError as exc:
            self.emit(f"_err({exc.message!r})")
        except RecursionError:
            self.emit("_err('Formula too complex')")

    def s_error(self, s: Stmt) -> None:
        self.emit(f"_err({s[1]!r}, {s[2]!r})")

    def s_data(self, s: Stmt) -> None:
        pass

    def s_let(self, s: Stmt) -> None:
        self.assign(s[1], s[2])

    def assign(self, target: Expr, value: Expr) -> None:
        is_str = str(target[1]).endswith("$")
        if _is_str(value) != is_str:
            raise BasicError("Type mismatch")
        code = self.ex(value)
        self.store(target, code)

    def store(self, target: Expr, code: str) -> None:
        """Emit the assignment of the Python expression ``code`` to a target."""
        kind, name = target[0], str(target[1])
        if kind == "var":
            key = var_key(name)
            self.scalars.add(key)
            self.cur.globals.add(key)
            self.cur.writes[key] = None
            self.emit(f"{key} = {code}")
        elif kind == "arr":
            key = arr_key(name)
            self.arrays.add(key)
            idx = [self.num(i) for i in target[2]]
            if len(idx) == 1:
                # Arr.s1 inline (see :meth:`element`): the index first, then the value
                t, k = self.temp(), self.temp()
                self.emit(f"{t} = {idx[0]}")
                self.emit(
                    f"if 0 <= ({k} := {t} >> 12) < {key}.n and not {key}.m"
                    f" and {key}.data is not None:"
                )
                self.emit(f"    {key}.data[{k}] = {code}")
                self.emit("else:")
                self.emit(f"    {key}.s1({t}, {code})")
                return
            self.emit(f"{key}.s2({', '.join(idx)}, {code})")
        elif kind == "sys":
            self.emit(f"_setsys({name!r}, {code})")
        else:
            raise BasicError("Syntax error")

    def s_print(self, s: Stmt) -> None:
        """PRINT: the items' texts written in order, one write for each run of items
        that ends before the next item able to stop with an error.

        An item is printed before the next is evaluated, so ``PRINT "A";1/0`` shows
        ``A`` before the error; but an item that cannot fail (a literal, a variable)
        can join the write of the item before it, as its text would follow at once
        anyway: ``PRINT "SCORE:";SC;" HI:";HI`` is one write (issue 23 item 4).
        """
        items = s[1]
        newline = True
        run: list[str] = []

        def flush() -> None:
            if run:
                self.emit(f"_pr({' + '.join(run)})")
                run.clear()

        for item in items:
            if item == ";":
                newline = False
            elif item == ",":
                flush()
                self.emit("_tab()")
                newline = False
            else:
                newline = True
                if item[0] not in ("str", "num", "var"):
                    flush()  # this item may stop the program: what came before is shown
                code = self.ex(item)
                run.append(code if _is_str(item) else f"_nt({code})")
        flush()
        if newline:
            self.emit("_nl()")

    def s_if(self, s: Stmt) -> None:
        self.depth += 1
        try:
            self.if_branches(s)
        finally:
            self.depth -= 1

    def if_branches(self, s: Stmt) -> None:
        cond, then, other = s[1], s[2], s[3]
        test = self.cond(cond)
        nested = self.indent + _if_depth([s]) <= MAX_INDENT
        if nested and not _splits(then) and not _splits(other):
            self.emit(f"if {test}:")
            self.indent += 1
            self.emit("pass")
            self.stmts(then)
            self.indent -= 1
            if other:
                self.emit("else:")
                self.indent += 1
                self.emit("pass")
                self.stmts(other)
                self.indent -= 1
            return
        # Linear form: jumps between blocks.
        jump_else = self.placeholder(f"if not ({test}): return ")
        self.stmts(then)
        jump_end = self.placeholder("return ") if other else None
        else_block = self.new_block()
        self.fix(jump_else, else_block)
        if other and jump_end is not None:
            self.stmts(other)
            end_block = self.new_block()
            self.fix(jump_end, end_block)

    def placeholder(self, text: str) -> tuple[_Block, int]:
        self.emit(text + "{}")
        return self.cur, len(self.cur.code) - 1

    def fix(self, where: tuple[_Block, int], target: int) -> None:
        block, i = where
        ln, text = block.code[i]
        block.code[i] = (ln, text.replace("{}", str(target)))

    def jump_code(self, target: Expr) -> str:
        """Python expression for the block index of a GOTO/GOSUB target."""
        if target[0] == "label":
            return f"\x00LABEL{target[1]}\x00"
        if not _is_str(target):
            raise BasicError("Type mismatch")
        return f"_label({self.ex(target)})"

    def s_goto(self, s: Stmt) -> None:
        target = s[1]
        block = self.cur
        found = self.program.labels.get(str(target[1])) if target[0] == "label" else None
        if found is None or found[0] != self.segment or len(self.blocks) > 1 or block.tainted:
            self.emit(f"return {self.jump_code(target)}")
            return
        # A wait loop: a GOTO back to the top of its own block, with nothing before it
        # but steady statements (``@W:IF BUTTON()==0 GOTO @W``, ``@L:K=BUTTON():IF K==0
        # GOTO @L``). If this pass left every scalar it wrote as it found it, every
        # further pass in this frame does the same, and ``_idle`` lets the runtime skip
        # them, taking their work units at once (issue 23 items 3 and 4).
        here = self.segment
        idle = f"_idle({here}, {block.flags})"
        if not block.writes:
            self.emit(f"return {idle}")
            return
        block.snap.update(block.writes)
        changed = " or ".join(f"{k} != _o_{k}" for k in block.writes)
        self.emit(f"return {here} if {changed} else {idle}")

    def s_gosub(self, s: Stmt) -> None:
        dest = self.jump_code(s[1])
        ret = self.index(len(self.blocks))
        self.emit(f"_gosub({ret})")
        self.emit(f"return {dest}")
        self.new_block()

    def s_on(self, s: Stmt) -> None:
        value = self.num(s[1])
        dests = ", ".join(repr(str(t[1])) if t[0] == "label" else self.jump_code(t) for t in s[3])
        t = self.temp()
        self.emit(f"{t} = {value} >> 12")
        self.emit(f"if 0 <= {t} < {len(s[3])}:")
        self.indent += 1
        if s[2] == "gosub":
            ret = self.index(len(self.blocks))
            self.emit(f"_gosub({ret})")
        self.emit(f"return _on(({dests},), {t})")
        self.indent -= 1
        if s[2] == "gosub":
            self.new_block()

    def s_return(self, s: Stmt) -> None:
        self.emit("return _return()")

    def s_end(self, s: Stmt) -> None:
        self.emit("_end()")

    def s_stop(self, s: Stmt) -> None:
        self.emit(f"_stop({self.index(len(self.blocks))})")
        self.new_block()

    def s_clear(self, s: Stmt) -> None:
        self.emit("_clear()")

    def s_vsync(self, s: Stmt) -> None:
        self.emit(f"_vsync({self.num(s[1])}, {self.index(len(self.blocks))})")
        self.new_block()

    def s_for(self, s: Stmt) -> None:
        """FOR: pushes ``[key, limit, step, up, body, fid, again]`` on ``_FS``.

        A TO or STEP that is not a literal is evaluated again at every NEXT, as
        [SBC] cmd_next does (``FOR I=0 TO F$!=""`` is a while loop in real
        programs): ``fid`` numbers such a FOR (None for literals) and ``again``
        gives ``(limit, step)`` for the slow path of NEXT.
        """
        _, name, start, end, step = s
        event = self.keys[id(s)]
        key = var_key(name)
        self.scalars.add(key)
        self.cur.globals.add(key)
        self.emit(f"{key} = {self.num(start)}")
        step_code = "4096" if step is None else self.num(step)
        end_code = self.num(end)
        body = self.index(len(self.blocks))
        after = f"\x00FOR{event[0]},{event[1]}\x00"  # the block after its NEXT
        again = "None, None"
        if not (_constant(end) and _constant(step)):
            fid = self.program.fid(event)
            again = f"{fid}, lambda: ({end_code}, {step_code})"
        self.emit(f"_for({key!r}, {end_code}, {step_code}, {body}, {after}, {again})")
        self.new_block()

    def s_next(self, s: Stmt) -> None:
        name = s[1]
        event = self.keys[id(s)]
        after = self.index(len(self.blocks))
        self.program.after_next[event] = after
        opener = self.program.opener.get(event)
        guess = name if name is not None else (None if opener is None else str(opener[1][1]))
        fast = guess is not None and self.next_fast(var_key(str(guess)), opener)
        slow = "None" if name is None else repr(var_key(name))
        self.emit(f"return _next({slow}, {after})")
        if fast:
            self.indent -= 1
        self.new_block()

    def next_fast(self, key: str, opener: tuple[EventKey, Stmt] | None) -> bool:
        """The inline fast path of a NEXT, for when the innermost loop is the expected
        variable's (nearly always); leaves the code inside its ``else:`` (True), or
        emits nothing (False).

        A FOR whose TO/STEP is not a literal (evaluated again) is matched by its fid and
        its TO/STEP are evaluated here; it gets no fast path if the loop variable
        differs or the expressions do not compile (the FOR reports that error itself).
        Any other loop steps with the limit and step ``_for`` stored.
        """
        again = None
        if opener is not None and not (_constant(opener[1][3]) and _constant(opener[1][4])):
            again = opener[1]
        if again is not None and var_key(str(again[1])) != key:
            return False
        code = self.cur.code
        saved = (len(code), self.indent)
        self.scalars.add(key)
        self.cur.globals.add(key)
        e, t = self.temp(), self.temp()
        if again is None:
            self.emit(f"if _FS and ({e} := _FS[-1])[0] == {key!r} and {e}[5] is None:")
            self.indent += 1
            limit, step, up = f"{e}[1]", f"{e}[2]", f"{e}[3]"
        else:
            _, _name, _start, end_expr, step_expr = again
            limit, step = self.temp(), self.temp()
            assert opener is not None
            fid = self.program.fid(opener[0])
            self.emit(f"if _FS and ({e} := _FS[-1])[0] == {key!r} and {e}[5] == {fid}:")
            self.indent += 1
            try:
                self.emit(f"{limit} = {self.num(end_expr)}")
                self.emit(f"{step} = {'4096' if step_expr is None else self.num(step_expr)}")
            except BasicError:
                del code[saved[0] :]
                self.indent = saved[1]
                return False
            self.cur.cost += _nodes(end_expr) + _nodes(step_expr)
            up = f"{step} >= 0"
        self.emit(f"{key} = {t} if {_LO} <= ({t} := {key} + {step}) <= {_HI} else _ovf()")
        self.emit(f"if ({key} <= {limit}) if {up} else ({key} >= {limit}): return {e}[4]")
        self.emit("_FS.pop()")
        self.indent -= 1
        self.emit("else:")
        self.indent += 1
        return True

    def s_dim(self, s: Stmt) -> None:
        for name, dims in s[1]:
            key = arr_key(name)
            self.arrays.add(key)
            self.emit(f"{key}.dim({', '.join(self.num(d) for d in dims)})")

    def s_read(self, s: Stmt) -> None:
        for target in s[1]:
            is_str = str(target[1]).endswith("$")
            self.store(target, "_read_s()" if is_str else "_read_n()")

    def s_restore(self, s: Stmt) -> None:
        target = s[1]
        if target is None:
            self.emit("_restore(None)")
        elif target[0] == "label":
            self.emit(f"_restore({str(target[1]).encode('ascii')!r})")
        else:
            if not _is_str(target):
                raise BasicError("Type mismatch")
            self.emit(f"_restore({self.ex(target)})")

    def s_sort(self, s: Stmt) -> None:
        _, desc, start, count, names = s
        keys = []
        for name in names:
            key = arr_key(name)
            self.arrays.add(key)
            keys.append(key)
        self.emit(f"_sort({desc}, {self.num(start)}, {self.num(count)}, ({', '.join(keys)},))")

    def s_swap(self, s: Stmt) -> None:
        a, b = s[1], s[2]
        if str(a[1]).endswith("$") != str(b[1]).endswith("$"):
            raise BasicError("Type mismatch")
        ta, tb = self.temp(), self.temp()
        self.emit(f"{ta} = {self.ex(a)}")
        self.emit(f"{tb} = {self.ex(b)}")
        self.store(a, tb)
        self.store(b, ta)

    def s_kw(self, s: Stmt) -> None:
        _, name, args, seps = s
        kw = registry.lookup("statement", name)
        assert kw is not None
        if kw.direct_only:
            raise BasicError("Illegal function call")
        waiting = name in _WAITING
        if kw.verb is not None and not (kw.refs or kw.seps or waiting):
            self.emit(f"_M.{kw.verb}({', '.join(self.verb_args(args))})")
            return
        ref = self.kw_ref(kw)
        codes = self.args(kw, args)
        if waiting:  # a stop while it waits resumes at the statement itself: CONT asks again
            if self.cur.code:
                self.new_block()
            self.emit(f"_resume({self.index(len(self.blocks) - 1)})")
        extra = f", {seps!r}" if kw.seps else ""
        self.emit(f"{ref}.handler(_rt, [{', '.join(codes)}]{extra})")
        if waiting:
            self.new_block()

    def verb_args(self, args: list[Expr | None]) -> list[str]:
        """The arguments of a keyword bound to a Machine verb, converted inline as
        :func:`petitcom_shim.basic.bind.args_of` does (a whole number as ``int``,
        another as its ``float``, a string as Latin-1 ``str``, trailing empty ones
        dropped): a bound call is then one Python call (issue 23 item 4)."""
        flat: list[Expr | None] = []
        for a in args:
            flat.extend(a[1] if a is not None and a[0] == "group" else [a])
        while flat and flat[-1] is None:
            flat.pop()
        out: list[str] = []
        for a in flat:
            if a is None:
                out.append("None")
            elif _is_str(a):
                out.append(f"({self.ex(a)}).decode('latin-1')")
            elif a[0] == "num":
                raw = int(a[1])
                out.append(str(raw >> 12) if not raw & 0xFFF else repr(raw / 4096))
            elif a[0] == "var":
                key = self.ex(a)
                out.append(f"({key} >> 12 if not {key} & 4095 else {key} / 4096)")
            else:
                t = self.temp()
                out.append(f"({t} >> 12 if not ({t} := {self.ex(a)}) & 4095 else {t} / 4096)")
        return out

    def args(self, kw: registry.Keyword, args: list[Expr | None]) -> list[str]:
        out: list[str] = []
        for a in args:
            if a is None:
                out.append("None")
            elif a[0] == "group":
                out.extend(self.ex(x) for x in a[1])
            elif kw.refs and a[0] in ("var", "arr"):
                out.append(self.ref(a))
            else:
                out.append(self.ex(a))
        return out

    def ref(self, a: Expr) -> str:
        name = str(a[1])
        if a[0] == "var":
            key = var_key(name)
            self.scalars.add(key)
            return f"_ref({name!r}, {key!r})"
        key = arr_key(name)
        self.arrays.add(key)
        return f"_aref({name!r}, {key}, ({', '.join(self.num(i) for i in a[2])},))"

    # -- expressions -------------------------------------------------------
    def num(self, e: Expr) -> str:
        if _is_str(e):
            raise BasicError("Type mismatch")
        return self.ex(e)

    def text(self, e: Expr) -> str:
        if not _is_str(e):
            raise BasicError("Type mismatch")
        return self.ex(e)

    def cond(self, e: Expr) -> str:
        """A Python truth test for a PTC condition (nonzero is true)."""
        if e[0] == "bin" and e[1] in _CMP:
            return self.compare(e)
        if (
            e[0] == "bin"
            and e[1] in ("AND", "OR")
            and all(x[0] == "bin" and x[1] in _CMP for x in (e[2], e[3]))
        ):
            # ``&``/``|`` on the two truths, not ``and``/``or``: PTC evaluates both sides,
            # so a call or an element on the right runs (or stops the program) whatever
            # the left gave (``IF A<1 AND B(99)<2``)
            word = "&" if e[1] == "AND" else "|"
            return f"({self.compare(e[2])} {word} {self.compare(e[3])})"
        if _is_str(e):
            raise BasicError("Type mismatch")
        return f"{self.ex(e)} != 0"

    def compare(self, e: Expr) -> str:
        a, b = e[2], e[3]
        if _is_str(a) != _is_str(b):
            raise BasicError("Type mismatch")
        return f"({self.ex(a)} {_CMP[e[1]]} {self.ex(b)})"

    def ex(self, e: Expr) -> str:
        self.nesting += 1
        try:
            if self.nesting > MAX_NESTING:
                raise BasicError("Formula too complex")
            return self.ex_inner(e)
        finally:
            self.nesting -= 1

    def ex_inner(self, e: Expr) -> str:
        kind = e[0]
        if kind == "num":
            return str(e[1])
        if kind == "str":
            if len(e[1]) > 256:
                raise BasicError("String too long")
            return repr(e[1])
        if kind == "var":
            key = var_key(str(e[1]))
            self.scalars.add(key)
            return key
        if kind == "arr":
            key = arr_key(str(e[1]))
            self.arrays.add(key)
            idx = [self.num(i) for i in e[2]]
            if len(idx) == 1:
                return self.element(key, idx[0], e[2][0])
            return f"{key}.g2({', '.join(idx)})"
        if kind == "sys":
            return self.sysvar(str(e[1]))
        if kind == "call":
            return self.call(str(e[1]), e[2])
        if kind == "un":
            op, inner = e[1], e[2]
            code = self.num(inner)
            if op == "-":
                return f"_neg({code})"
            if op == "!":
                return f"(4096 if {code} == 0 else 0)"
            return f"_not({code})"
        if kind == "bin":
            return self.binary(str(e[1]), e[2], e[3])
        raise BasicError("Syntax error")

    def element(self, key: str, code: str, index: Expr) -> str:
        """A 1-D array element read inline (``Arr.g1``'s checks, without a call a read:
        game loops read arrays hundreds of times a frame, issue 23 item 4); anything
        but a dimensioned 1-D array and an index in range goes through ``g1``, which
        dimensions it or raises. The index is evaluated once, first, as before."""
        d, k = self.temp(), self.temp()
        if index[0] in ("num", "var"):
            head, arg = f"({code}) >> 12", code
        else:
            i = self.temp()
            head, arg = f"({i} := {code}) >> 12", i
        return (
            f"({d}[{k}] if 0 <= ({k} := {head}) < {key}.n and not {key}.m"
            f" and ({d} := {key}.data) is not None else {key}.g1({arg}))"
        )

    def binary(self, op: str, a: Expr, b: Expr) -> str:
        if op in _CMP:
            return f"(4096 if {self.compare(('bin', op, a, b))} else 0)"
        if _is_str(a):
            if op == "+":
                return f"_cat({self.ex(a)}, {self.text(b)})"
            if op == "*":
                return f"_rep({self.ex(a)}, {self.num(b)})"
            raise BasicError("Type mismatch")
        x, y = self.ex(a), self.num(b)
        if op in ("+", "-"):
            t = self.temp()
            return f"({t} if {_LO} <= ({t} := {x} {op} {y}) <= {_HI} else _ovf())"
        if op == "*":  # inline numbers.mul: a call per product was a game loop's cost
            t = self.temp()
            return f"({t} if {_LO} <= ({t} := ({x} * {y}) >> 12) <= {_HI} else _ovf())"
        if op == "%" and b[0] == "num" and isinstance(b[1], int) and b[1] > 0:
            # inline numbers.mod by a positive literal (``X%256``): the sign of ``a``
            t = self.temp()
            return f"({t} % {y} if ({t} := {x}) >= 0 else -(-{t} % {y}))"
        if op in ("AND", "OR") and all(v[0] == "bin" and v[1] in _CMP for v in (a, b)):
            # two truths, each 4096 or 0: their bits are the words' bits, no wrap to mind
            return f"({x} {'&' if op == 'AND' else '|'} {y})"
        if op == "AND" and b[0] == "num" and isinstance(b[1], int) and b[1] >= 0:
            # inline numbers.bit_and with a literal mask (``B AND 16``): the result lies
            # in 0 .. the mask's integer part, so the 32-bit wrap never applies
            return f"(((({x}) >> 12) & {b[1] >> 12}) << 12)"
        names = {"*": "_mul", "/": "_div", "%": "_mod", "AND": "_and", "OR": "_or", "XOR": "_xor"}
        return f"{names[op]}({x}, {y})"

    def sysvar(self, name: str) -> str:
        constants = {"TRUE": "4096", "FALSE": "0", "CANCEL": "-4096"}
        if name in constants:
            return constants[name]
        if name in ("RESULT", "ERR", "ERL", "VERSION", "FREEVAR", "FREEMEM"):
            return f"_sys({name!r})"
        kw = registry.lookup("sysvar", name)
        if kw is None:
            raise BasicError("Syntax error")
        if kw.verb is not None:  # bound: the Machine's attribute read inline (MAINCNTL)
            return f"_res(_M.{kw.verb})"
        return f"{self.kw_ref(kw)}.handler(_rt)"

    def call(self, name: str, args: list[Expr]) -> str:
        if name in BUILTIN_FUNCTIONS:
            return self.builtin(name, args)
        kw = registry.lookup("function", name)
        if kw is None:
            raise BasicError("Syntax error")
        if kw.verb is not None and not kw.refs:
            return f"_res(_M.{kw.verb}({', '.join(self.verb_args(list(args)))}))"
        codes = self.args(kw, list(args))
        return f"{self.kw_ref(kw)}.handler(_rt, [{', '.join(codes)}])"

    def builtin(self, name: str, args: list[Expr]) -> str:
        kinds = {
            "ASC": "s", "LEN": "s", "VAL": "s", "CHR$": "n", "HEX$": "nn", "INSTR": None,
            "LEFT$": "sn", "RIGHT$": "sn", "MID$": "snn", "STR$": "n", "SUBST$": "snns",
        }  # fmt: skip
        want = kinds.get(name, "n" * len(args))
        if name == "INSTR":
            want = "ssn"
        codes = []
        for kind, a in zip(want or "", args, strict=False):
            codes.append(self.text(a) if kind == "s" else self.num(a))
        if name == "PI":
            return "12867"
        fname = "_f_" + name.replace("$", "S")
        return f"{fname}({', '.join(codes)})"


class Program:
    """A program (or DIRECT line) compiled a segment at a time, when first entered.

    Loading scans the lines once for labels (a line starting with ``@``); each
    label and every :data:`SEGMENT_LINES` lines start a segment. Block ``k`` is
    segment ``k``'s entry, block ``end`` (the number of segments) the end of the
    program, and the blocks inside segments follow. Which NEXT closes which FOR
    is worked out in program order as far as the segments compiled so far need; a
    FOR whose NEXT is not compiled yet carries its own key instead of the block
    after that NEXT, and the runtime looks it up only if the loop does not enter.

    Attributes:
        unit: the unit's name (its keyword table is the global ``_K_<unit>``).
        end: the index of the end block (= the number of segments).
        labels: label -> (block index, line number).
        keywords: the registered keywords the compiled code calls, by index.
        costs: work units of each block for ``--speed dsi`` (segments not yet
            compiled and the end cost 0).
        block_lines: the PTC line each block starts on.
        closer: a FOR -> the NEXT that closes it; opener: a NEXT -> its FOR.
        after_next: a compiled NEXT -> the block after it.
    """

    def __init__(self, source: bytes, unit: str = "program") -> None:
        self.unit = unit
        self.lines = split_lines(source)
        self.starts: list[int] = [0]
        self.labels: dict[str, tuple[int, int]] = {}
        found: list[tuple[int, str]] = []
        for i, raw in enumerate(self.lines):
            if raw.lstrip(b" \t")[:1] == b"@":
                label = parse_line(raw).label
                if label is not None:
                    if i != self.starts[-1]:
                        self.starts.append(i)
                    found.append((len(self.starts) - 1, label))
                    continue
            if i - self.starts[-1] >= SEGMENT_LINES:
                self.starts.append(i)
        for segment, label in found:
            self.labels.setdefault(label, (segment, self.starts[segment] + 1))
        self.end = len(self.starts)
        self.keywords: list[registry.Keyword] = []
        self._kw_index: dict[str, int] = {}
        self.costs = [0] * (self.end + 1)
        self.block_lines = [start + 1 for start in self.starts] + [max(len(self.lines), 1)]
        self.compiled: set[int] = set()
        self.closer: dict[EventKey, EventKey] = {}
        self.opener: dict[EventKey, tuple[EventKey, Stmt]] = {}
        self.after_next: dict[EventKey, int] = {}
        self._fids: dict[EventKey, int] = {}
        self._paired = 0  # lines whose FORs and NEXTs are paired
        self._open: list[tuple[EventKey, Stmt]] = []  # FORs not yet closed
        self._data: list[bytes] = []  # DATA items of the lines scanned so far
        self._first_item: list[int] = []  # per line scanned: the items before it

    def keyword_index(self, kw: registry.Keyword) -> int:
        """The index of ``kw`` in the unit's keyword table (added when new)."""
        name = kw.name + kw.kind
        if name not in self._kw_index:
            self._kw_index[name] = len(self.keywords)
            self.keywords.append(kw)
        return self._kw_index[name]

    def fid(self, event: EventKey) -> int:
        """The number of a FOR whose TO/STEP NEXT evaluates again."""
        if event not in self._fids:
            self._fids[event] = next(_FOR_IDS)
        return self._fids[event]

    def segment_of(self, line: int) -> int:
        """The segment holding line index ``line``."""
        return bisect.bisect_right(self.starts, line) - 1

    # -- DATA ----------------------------------------------------------------
    def _scan_data(self, stop: int) -> None:
        """Collect the DATA items of the lines up to index ``stop`` (exclusive): READ
        and RESTORE look only as far ahead as they need, so a program of DATA at
        PTC's size limit does not parse it all before its first READ."""
        for raw in self.lines[len(self._first_item) : stop]:
            self._first_item.append(len(self._data))
            if b"DATA" in raw.upper():
                self._data.extend(parse_line(raw).data)

    def data_item(self, index: int) -> bytes | None:
        """DATA item ``index`` in program order (as written), None past the last."""
        while index >= len(self._data) and len(self._first_item) < len(self.lines):
            self._scan_data(len(self._first_item) + SEGMENT_LINES)
        return self._data[index] if index < len(self._data) else None

    def data_index(self, line: int) -> int:
        """The index of the first DATA item on line number ``line`` or after it (the
        number of items before that line): where RESTORE to a label's line reads."""
        self._scan_data(line)
        return self._first_item[line - 1] if line - 1 < len(self._first_item) else len(self._data)

    # -- FOR and NEXT --------------------------------------------------------
    def _pair(self, stop: int) -> None:
        """Pair the FORs and NEXTs of the lines up to ``stop`` (exclusive), in program
        order ([SBC]: a loop that never enters skips to the NEXT that closes it,
        nesting counted)."""
        while self._paired < min(stop, len(self.lines)):
            i = self._paired
            raw = self.lines[i]
            self._paired += 1
            upper = raw.upper()
            if b"FOR" not in upper and b"NEXT" not in upper:
                continue
            line = parse_line(raw)
            statements = {id(s): s for s in _flat(line.stmts)}
            for sid, event in _events(line.stmts, i).items():
                s = statements[sid]
                if s[0] == "for":
                    self._open.append((event, s))
                elif self._open:
                    opener = self._open.pop()
                    self.closer[opener[0]] = event
                    self.opener[event] = opener

    def after_for(self, event: EventKey) -> int | None:
        """The block after the NEXT that closes the FOR ``event``, if that NEXT's
        segment is compiled; -1 if no NEXT closes it (pairing goes on to the end for
        that, so only a loop that never enters asks when its NEXT lies far ahead)."""
        while event not in self.closer and self._paired < len(self.lines):
            self._pair(self._paired + SEGMENT_LINES)
        closer = self.closer.get(event)
        if closer is None:
            return -1
        return self.after_next.get(closer)

    def next_line(self, event: EventKey) -> int:
        """The line index of the NEXT that closes the FOR ``event`` (it has one)."""
        return self.closer[event][0]

    # -- compiling -----------------------------------------------------------
    def compile_segment(self, segment: int) -> Compiled:
        """Compile segment ``segment`` (its other blocks numbered from ``len(costs)``);
        :meth:`commit` records it once its code is loaded."""
        first = self.starts[segment]
        stop = self.starts[segment + 1] if segment + 1 < self.end else len(self.lines)
        self._pair(stop)
        lines = [parse_line(raw) for raw in self.lines[first:stop]]
        comp = _Compiler(lines, self, segment, first + 1, len(self.costs))
        comp.compile()
        return _generate(comp)

    def commit(self, compiled: Compiled) -> None:
        """Record a compiled segment's blocks (after the runtime loaded its code)."""
        self.compiled.add(compiled.segment)
        self.costs[compiled.segment] = compiled.costs[0]
        self.costs.extend(compiled.costs[1:])
        self.block_lines[compiled.segment] = compiled.block_lines[0]
        self.block_lines.extend(compiled.block_lines[1:])


def _flat(stmts: list[Stmt]) -> list[Stmt]:
    """Every statement of a list, those inside IFs included."""
    out: list[Stmt] = []
    for s in stmts:
        out.append(s)
        if s[0] == "if":
            out += _flat(s[2]) + _flat(s[3])
    return out


def _generate(comp: _Compiler) -> Compiled:
    """The Python source of a compiled segment."""
    program = comp.program

    def resolve(what: str) -> str:
        """A placeholder's block index: a label's block or the block after a NEXT."""
        if what.startswith("FOR"):
            line, number = (int(x) for x in what[3:].split(","))
            closer = program.closer.get((line, number))
            if closer is not None and closer in program.after_next:
                return str(program.after_next[closer])
            return f"({line}, {number})"  # found when the loop does not enter
        label = what[5:]
        if label in program.labels:
            return str(program.labels[label][0])
        return f"_L({label!r})"  # not in this unit: found (or not) at run time

    out: list[str] = []
    pylines: list[int] = [0]
    statements: dict[int, int] = {}
    for local, block in enumerate(comp.blocks):
        out.append(f"def b{local}():")
        pylines.append(block.line)
        if block.globals:
            out.append(f"    global {', '.join(sorted(block.globals))}")
            pylines.append(block.line)
        for key in block.snap:  # what a wait loop's pass compares with (s_goto)
            out.append(f"    _o_{key} = {key}")
            pylines.append(block.line)
        if not block.code or not block.code[-1][1].startswith("return"):
            target = comp.index(local + 1) if local + 1 < len(comp.blocks) else comp.segment + 1
            block.code.append((block.code[-1][0] if block.code else block.line,
                               f"return {target}"))  # fmt: skip
        for i, (ln, text) in enumerate(block.code):
            out.append("    " + _PLACEHOLDER.sub(lambda m: resolve(m.group(1)), text))
            pylines.append(ln)
            if i in block.starts:
                statements[len(out)] = block.starts[i]
    out.append(f"B = [{', '.join(f'b{i}' for i in range(len(comp.blocks)))}]")
    pylines.append(0)
    return Compiled(
        source="\n".join(out) + "\n",
        nblocks=len(comp.blocks),
        pylines=pylines,
        scalars=comp.scalars,
        arrays=comp.arrays,
        keywords=program.keywords,
        unit=program.unit,
        costs=[b.cost for b in comp.blocks],
        block_lines=[b.line for b in comp.blocks],
        statements=statements,
        segment=comp.segment,
        base=comp.base,
    )


@dataclass(frozen=True)
class CompiledExpression:
    """One expression compiled to a Python expression (the debugger's ``print`` and ``watch``).

    ``code`` reads variables and calls keywords as a unit's code does (keywords
    from the global ``_K_<unit>``); ``scalars`` and ``arrays`` are the keys it reads.
    """

    code: str
    is_string: bool
    keywords: list[registry.Keyword]
    scalars: set[str]
    arrays: set[str]


def compile_expression(text: bytes, unit: str) -> CompiledExpression:
    """Compile a PTC expression (``A*2``, ``A$[3]``, ``BUTTON()``, ``MAINCNTL``).

    It is compiled as an expression of an empty program named ``unit`` (whose
    keyword table it gets), so it reads and calls exactly as a program's code does.

    Raises:
        BasicError: a syntax error, or more than one expression.
    """
    line = parse_line(b"?" + text)
    if len(line.stmts) != 1 or line.stmts[0][0] != "print":
        raise BasicError("Syntax error")
    items = line.stmts[0][1]
    if len(items) != 1 or items[0] in (";", ","):
        raise BasicError("Syntax error")
    program = Program(b"", unit)
    comp = _Compiler([], program, 0, 1, program.end + 1)
    code = comp.ex(items[0])
    return CompiledExpression(code, _is_str(items[0]), program.keywords, comp.scalars, comp.arrays)
