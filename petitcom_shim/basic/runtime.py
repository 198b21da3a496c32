"""The runtime: variables, stacks, DATA, the block loop and the Interpreter.

Compiled code (:mod:`petitcom_shim.basic.compiler`) runs as functions whose
globals are one dictionary per interpreter (:attr:`Runtime.ns`): the
variables live there, next to the helpers the code calls (``_for``,
``_gosub``, ``_pr`` ...). :meth:`Runtime.execute` calls blocks in chunks and,
between chunks, checks for a break and the frame limit. Frames advance by
work: every block has a cost, and a frame passes each time a frame's budget is
spent (:data:`DSI_BUDGET` with ``speed="dsi"``, :data:`MAX_BUDGET` with "max"),
so a run is a function of the program, its input and its seed alone. The one
exception is ``speed="max"`` on a machine that keeps real time (a window): there
the program runs as fast as the host allows and, between chunks, lets the
machine breathe (:meth:`petitcom_shim.Machine.busy`: the window stays
responsive and MAINCNTL follows the wall clock).
"""

from __future__ import annotations

import random
import re
import sys
import time
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from petitcom_shim import Machine
from petitcom_shim.basic import functions, numbers, registry
from petitcom_shim.basic.compiler import (
    IDLE_CLOCK,
    IDLE_KEYS,
    Compiled,
    Program,
    split_lines,
    var_key,
)
from petitcom_shim.basic.errors import BasicError
from petitcom_shim.errors import Break, OutOfRange, PetitcomError

__all__ = ["Arr", "ArrRef", "Interpreter", "RunResult", "Runtime", "VarRef"]

#: Nesting of GOSUB and FOR together before "Out of memory": 255 entries, so the
#: 256th GOSUB fails ([WIKI] "GOSUB and RETURN": "255 consecutive GOSUBs, but the
#: next one will generate an Out of memory error", the FOR stack shared; [SBC]
#: cmd_goto_gosub stops at ``CALL_STACK_MAX-1``).
STACK_LIMIT = 255
#: Array elements all arrays may hold together before DIM gives "Out of memory".
ARRAY_CELLS = 262144
#: PTC's variable table size (FREEVAR counts down from it): 2048 names ([WIKI]
#: "FREEVAR (System Variable)", [SBC] ptc.h ``VAR_LIMIT``).
VARIABLE_SLOTS = 2048
#: Bytes one array element takes in PTC's memory: a 32-bit word (FREEMEM counts kilobytes).
CELL_BYTES = 4
#: Blocks run between two looks at the clock.
_CHUNK = range(512)
#: Seconds between two calls of Machine.busy in a busy loop.
_BREATHE = 0.004
#: --speed dsi: work units per frame (a statement is 10, each expression node 1).
#: Calibrated on the handheld figures (issue 14 §3): an empty FOR loop of
#: 100001 turns took 120 frames, an ``I=I+1:IF I<100000 GOTO @L`` loop 300.
DSI_BUDGET = 9700
#: --speed max without a window: work units per frame, a handheld eight times as
#: fast. Frames advance by work here too, so a headless run is reproducible on any
#: host at any load; eight times the handheld's budget lets a program that lags on
#: the handheld keep 60 frames a second, while a loop that waits for MAINCNTL
#: without VSYNC still costs little wall time (about 1 ms a frame).
MAX_BUDGET = 8 * DSI_BUDGET
#: VERSION on a Petit Computer mkII v2.2 handheld (&H2020).
VERSION = 0x2020 << 12


@dataclass(frozen=True)
class RunResult:
    """What a RUN, DIRECT line or CONT ended with.

    ``status``: "ended" (END or the last line), "stopped" (STOP, the frame
    limit, a break with SELECT, the window closed) or "error"; ``frames``: frames
    that passed; ``error``: PTC's message when status is "error"; ``line``:
    the 1-based program line of the error or stop (None in DIRECT mode).
    """

    status: Literal["ended", "stopped", "error"]
    frames: int
    error: str | None
    line: int | None


class _End(Exception):
    """END, or the program ran off its last line."""


class ExecProgram(Exception):
    """Raised by EXEC (``kw_files``) after loading a program: run it from its first line."""


class _Stop(Exception):
    """STOP, a break or the frame limit: CONT may resume at ``resume``."""

    def __init__(self, resume: int) -> None:
        super().__init__("stopped")
        self.resume = resume


class Arr:
    """A DIM array: 1D or 2D, numbers (0) or strings (""). Undimensioned, it is
    created with 10 (or 10x10) elements on first use, as [SBC] vars.c does."""

    __slots__ = ("data", "empty", "m", "n", "name", "rt")

    def __init__(self, rt: Runtime, name: str, empty: int | bytes) -> None:
        self.rt = rt
        self.name = name
        self.empty = empty
        self.data: list[Any] | None = None
        self.n = 0
        self.m = 0

    def clear(self) -> None:
        if self.data is not None:
            self.rt.cells -= self.n * max(self.m, 1)
        self.data = None

    def dim(self, n: int, m: int | None = None) -> None:
        """DIM name[n] or name[n,m] ("Duplicate definition" if it exists)."""
        if self.data is not None:
            raise BasicError("Duplicate definition")
        rows = numbers.to_int(n)
        cols = 0 if m is None else numbers.to_int(m)
        if rows < 1 or (m is not None and cols < 1):
            raise BasicError("Subscript out of range")
        cells = rows * max(cols, 1)
        if self.rt.cells + cells > ARRAY_CELLS:
            raise BasicError("Out of memory")
        self.rt.cells += cells
        self.n, self.m = rows, cols
        self.data = [self.empty] * cells

    def _auto(self, two: bool) -> list[Any]:
        self.dim(10 << 12, (10 << 12) if two else None)
        assert self.data is not None
        return self.data

    def g1(self, i: int) -> Any:
        data = self.data if self.data is not None else self._auto(False)
        k = i >> 12
        if self.m or not 0 <= k < self.n:
            raise BasicError("Subscript out of range")
        return data[k]

    def s1(self, i: int, value: Any) -> None:
        data = self.data if self.data is not None else self._auto(False)
        k = i >> 12
        if self.m or not 0 <= k < self.n:
            raise BasicError("Subscript out of range")
        data[k] = value

    def _k2(self, i: int, j: int) -> int:
        a, b = i >> 12, j >> 12
        if not self.m or not (0 <= a < self.n and 0 <= b < self.m):
            raise BasicError("Subscript out of range")
        return a * self.m + b

    def g2(self, i: int, j: int) -> Any:
        data = self.data if self.data is not None else self._auto(True)
        return data[self._k2(i, j)]

    def s2(self, i: int, j: int, value: Any) -> None:
        data = self.data if self.data is not None else self._auto(True)
        data[self._k2(i, j)] = value


def sort_arrays(descending: bool, start: int, count: int, arrays: tuple[Arr, ...]) -> None:
    """SORT/RSORT start,count,A[,B...]: sort elements start..start+count-1 of the
    first 1D array (numbers by value, strings by character code) and move the
    elements of the others the same way ([SBC] test_int_vars "SORT")."""
    first, n = numbers.to_int(start), numbers.to_int(count)
    if first < 0 or n < 0:
        raise BasicError("Out of range")
    columns = []
    for arr in arrays:
        data = arr.data if arr.data is not None else arr._auto(False)
        if arr.m or first + n > arr.n:
            raise BasicError("Subscript out of range")
        columns.append(data)
    key = columns[0]
    order = sorted(range(first, first + n), key=lambda i: key[i], reverse=descending)
    for data in columns:
        data[first : first + n] = [data[i] for i in order]


class VarRef:
    """A :class:`registry.Ref` to a plain variable."""

    def __init__(self, ns: dict[str, Any], name: str, key: str) -> None:
        self.ns = ns
        self.name = name
        self.key = key
        self.is_string = name.endswith("$")

    def get(self) -> registry.Value:
        value: registry.Value = self.ns[self.key]
        return value

    def set(self, value: registry.Value) -> None:
        if isinstance(value, bytes) != self.is_string:
            raise BasicError("Type mismatch")
        self.ns[self.key] = value


class ArrRef:
    """A :class:`registry.Ref` to an array element."""

    def __init__(self, name: str, arr: Arr, idx: tuple[int, ...]) -> None:
        self.name = name
        self.arr = arr
        self.idx = idx
        self.is_string = name.endswith("$")

    def get(self) -> registry.Value:
        value: registry.Value = (
            self.arr.g1(self.idx[0]) if len(self.idx) == 1 else self.arr.g2(*self.idx)
        )
        return value

    def set(self, value: registry.Value) -> None:
        if isinstance(value, bytes) != self.is_string:
            raise BasicError("Type mismatch")
        if len(self.idx) == 1:
            self.arr.s1(self.idx[0], value)
        else:
            self.arr.s2(self.idx[0], self.idx[1], value)


class _Unit:
    """A program or DIRECT line loaded into the runtime's namespace: its blocks, each
    segment's until it is compiled a stub that compiles it (``Runtime.load_segment``)."""

    def __init__(self, compiled: Program, name: str) -> None:
        self.compiled = compiled
        self.blocks: list[Callable[[], int]] = []
        self.name = name
        self.costs = compiled.costs
        #: Each compiled segment's code file name -> the segment (its source, generated
        #: line -> PTC line, statement starts): what tracebacks and trace hooks look up.
        self.codes: dict[str, Compiled] = {}
        #: The compiled segments by number.
        self.segments: dict[int, Compiled] = {}


class Runtime:
    """The state of a running interpreter: what keyword handlers see as ``rt``.

    Attributes:
        machine: the :class:`~petitcom_shim.Machine`.
        interp: the :class:`Interpreter` owning this runtime.
        ns: the variables (and the helpers compiled code calls).
        result: RESULT as a raw number.
        mem: MEM$; prgname: PRGNAME$; package: PACKAGE$ (bytes).
        state: per-interpreter values of keyword modules (e.g. SYSBEEP).
    """

    def __init__(self, interp: Interpreter, machine: Machine, speed: str, seed: int | None) -> None:
        self.interp = interp
        self.machine = machine
        self.speed = speed
        self.random = random.Random(seed) if seed is not None else None
        self.result = 0
        self.err = 0
        self.erl = 0
        self.mem = b""
        self.prgname = b""
        self.package = b""
        self.cells = 0
        #: Per-interpreter state of keyword modules, by a key of their choosing
        #: (module globals would be shared by every interpreter in the process).
        self.state: dict[str, Any] = {}
        self.fors: list[list[Any]] = []
        #: Each GOSUB's return block and how many FOR loops were open at the GOSUB.
        self.gosubs: list[tuple[int, int]] = []
        self.scalars: set[str] = set()
        self.arrays: dict[str, Arr] = {}
        self.data_ptr = 0
        self.resume = 0
        self.unit: _Unit | None = None
        self.program: _Unit | None = None
        self.frames_start = 0
        self.max_frames: int | None = None
        #: Work units a frame holds: DSI_BUDGET, or MAX_BUDGET at --speed max.
        self.frame_budget = DSI_BUDGET if speed == "dsi" else MAX_BUDGET
        #: What is left of this frame's budget (VSYNC starts a new frame's).
        self.budget = self.frame_budget
        #: Whether a wait loop's passes may be skipped (:meth:`idle`): only while a
        #: program runs and no trace hook (debugger, profiler) watches.
        self.fast_forward = False
        self.ns: dict[str, Any] = {"__builtins__": {}}
        self._install()

    # -- the namespace -----------------------------------------------------
    def _install(self) -> None:
        ns = self.ns
        ns.update(
            _rt=self, _FS=self.fors, _ovf=numbers.overflow, _mul=numbers.mul,
            _div=numbers.div, _mod=numbers.mod, _neg=numbers.neg, _and=numbers.bit_and,
            _or=numbers.bit_or, _xor=numbers.bit_xor, _not=numbers.bit_not,
            _cat=functions.cat, _rep=functions.rep, _err=self.error, _L=self.label_block,
            _label=self.label_value, _gosub=self.gosub, _return=self.return_, _end=self.end,
            _stop=self.stop, _clear=self.clear_variables, _vsync=self.vsync, _for=self.for_,
            _next=self.next_, _read_n=self.read_num, _read_s=self.read_str,
            _restore=self.restore, _pr=self.machine.print_codes,
            _tab=self.print_tab, _nl=self.machine.print_newline, _sys=self.get_sys,
            _setsys=self.set_sys, _ref=self.ref, _aref=ArrRef, _resume=self.set_resume,
            _on=self.on, _sort=sort_arrays, _M=self.machine, _res=numbers.from_machine,
            _nt=numbers.text, _idle=self.idle,
        )  # fmt: skip
        for name in dir(functions):
            if name.startswith("f_"):
                ns["_" + name] = getattr(functions, name)
        ns["_f_RND"] = self.rnd

    def load_program(self, program: Program, name: str) -> _Unit:
        """A program ready to run: each segment compiles when it is first entered."""
        self.ns[f"_K_{program.unit}"] = program.keywords
        unit = _Unit(program, name)
        unit.blocks.extend(self._stub(unit, k) for k in range(program.end))
        unit.blocks.append(self.end)
        return unit

    def _stub(self, unit: _Unit, segment: int) -> Callable[[], int]:
        def enter() -> int:
            self.load_segment(unit, segment)
            return segment

        return enter

    def load_segment(self, unit: _Unit, segment: int) -> None:
        """Compile a segment and run its source into the namespace (variables kept); its
        blocks replace the stub and follow the blocks loaded so far. A segment too big
        for Python is "Out of memory"."""
        program = unit.compiled
        if segment in program.compiled:
            return
        name = f"<basic {unit.name}:{segment}>"
        try:
            compiled = program.compile_segment(segment)
            code = compile(compiled.source, name, "exec")
        except (RecursionError, MemoryError, SyntaxError, ValueError):
            raise BasicError("Out of memory") from None
        ns = self.ns
        for key in compiled.scalars:
            if key not in self.scalars:
                self.scalars.add(key)
                ns[key] = b"" if key.startswith("s_") else 0
        for key in compiled.arrays:
            if key not in self.arrays:
                arr = Arr(self, key[2:] + ("$" if key.startswith("t_") else ""),
                          b"" if key.startswith("t_") else 0)  # fmt: skip
                self.arrays[key] = arr
                ns[key] = arr
        exec(code, ns)
        blocks: list[Callable[[], int]] = list(ns.pop("B"))
        for i in range(compiled.nblocks):
            ns.pop(f"b{i}", None)
        unit.blocks[segment] = blocks[0]
        unit.blocks.extend(blocks[1:])
        program.commit(compiled)
        unit.codes[name] = unit.segments[segment] = compiled

    def after_for(self, event: tuple[int, int]) -> int:
        """The block after the NEXT closing the FOR ``event`` of the running unit (its
        segment compiled now if need be), -1 if none: for a loop that does not enter
        and whose NEXT was not compiled with it."""
        assert self.unit is not None
        unit = self.unit
        program = unit.compiled
        after = program.after_for(event)
        if after is None:
            self.load_segment(unit, program.segment_of(program.next_line(event)))
            after = program.after_for(event)
        return -1 if after is None else after

    def clear(self) -> None:
        """RUN's fresh start: every variable and array cleared, stacks emptied, DATA rewound."""
        self.clear_variables()
        self.fors.clear()
        self.gosubs.clear()
        self.data_ptr = 0

    def clear_variables(self) -> None:
        """CLEAR: every variable 0 or "", every array gone; the GOSUB and FOR stack and
        the DATA pointer stay ([SBC] ``cmd_clear`` resets variables, strings and arrays
        only), so ``GOSUB @INIT`` ... ``CLEAR`` ... ``RETURN`` returns, as programs
        written for the handheld start this way."""
        ns = self.ns
        for key in self.scalars:
            ns[key] = b"" if key.startswith("s_") else 0
        for arr in self.arrays.values():
            arr.clear()

    # -- flow ----------------------------------------------------------------
    def error(self, message: str, keyword: str = "") -> None:
        """Raise PTC error ``message`` (found when compiling; raised when the line runs)."""
        raise BasicError(message, keyword=keyword)

    def end(self) -> int:
        raise _End()

    def stop(self, resume: int) -> None:
        raise _Stop(resume)

    def set_resume(self, block: int) -> None:
        """Where CONT continues if the next statement is broken into."""
        self.resume = block

    def _unit_labels(self) -> dict[str, tuple[int, int]]:
        assert self.unit is not None
        return self.unit.compiled.labels

    def label_block(self, label: str) -> int:
        found = self._unit_labels().get(label)
        if found is None:
            raise BasicError("Undefined label")
        return found[0]

    def label_value(self, value: bytes) -> int:
        """A computed label ("@MAIN" or "MAIN") to its block."""
        name = value.decode("latin-1").upper()
        if not name.startswith("@"):
            name = "@" + name
        return self.label_block(name)

    def on(self, dests: tuple[int | str, ...], index: int) -> int:
        dest = dests[index]
        return self.label_block(dest) if isinstance(dest, str) else dest

    def gosub(self, ret: int) -> None:
        if len(self.gosubs) + len(self.fors) >= STACK_LIMIT:
            raise BasicError("Out of memory")
        self.gosubs.append((ret, len(self.fors)))

    def return_(self) -> int:
        """RETURN: back to the last GOSUB, closing the FOR loops opened since it
        ([WIKI] "GOSUB and RETURN": FOR entries a subroutine leaves are removed by
        the RETURN; [SBC] cmd_return pops the shared stack down to the GOSUB)."""
        if not self.gosubs:
            raise BasicError("RETURN without GOSUB")
        ret, depth = self.gosubs.pop()
        del self.fors[depth:]
        return ret

    def for_(
        self,
        key: str,
        limit: int,
        step: int,
        body: int,
        after: int | tuple[int, int],
        fid: int | None,
        again: Callable[[], tuple[int, int]] | None,
    ) -> None:
        """FOR: push the loop, or skip to after its NEXT when it never enters.

        ``again`` (with its FOR's number ``fid``) evaluates a TO/STEP that is not
        a literal once more: NEXT does it every turn ([SBC] cmd_next). The same
        FOR run again while its loop is open (a GOTO out of the loop and back)
        drops that loop and those above it; a FOR on the same variable elsewhere
        (a loop on I inside a loop on I) is one more loop, as [SBC] cmd_for.
        """
        fors = self.fors
        for i in range(len(fors) - 1, -1, -1):
            if fors[i][0] == key and fors[i][4] == body:
                del fors[i:]
                break
        value = self.ns[key]
        up = step >= 0
        if (up and value > limit) or (not up and value < limit):
            if isinstance(after, tuple):  # its NEXT was not compiled with it
                after = self.after_for(after)
            if after < 0:
                raise BasicError("FOR without NEXT")
            raise _Jump(after)
        if len(self.gosubs) + len(fors) >= STACK_LIMIT:
            raise BasicError("Out of memory")
        fors.append([key, limit, step, up, body, fid, again])

    def next_(self, key: str | None, after: int) -> int:
        """NEXT [var] (the slow path): continue the loop or fall through to ``after``."""
        fors = self.fors
        if not fors:
            raise BasicError("NEXT without FOR")
        index = len(fors) - 1
        if key is not None:
            while index >= 0 and fors[index][0] != key:
                index -= 1
            if index < 0:
                raise BasicError("NEXT without FOR")
        entry = fors[index]
        limit, step, up = entry[1], entry[2], entry[3]
        if entry[6] is not None:
            limit, step = entry[6]()
            up = step >= 0
        value = numbers.add(self.ns[entry[0]], step)
        self.ns[entry[0]] = value
        if (value <= limit) if up else (value >= limit):
            return int(entry[4])
        del fors[index]
        return after

    # -- DATA --------------------------------------------------------------
    def data_item(self) -> bytes:
        """The next DATA item as written (quoted items keep their quotes); Out of DATA."""
        assert self.program is not None
        item = self.program.compiled.data_item(self.data_ptr)
        if item is None:
            raise BasicError("Out of DATA")
        self.data_ptr += 1
        return item

    def read_num(self) -> int:
        item = self.data_item()
        if item.startswith(b'"'):
            raise BasicError("Type mismatch")
        if not item:
            return 0
        raw, used = numbers.parse(item)
        if used != len(item):
            raise BasicError("Syntax error")
        return raw

    def read_str(self) -> bytes:
        item = self.data_item()
        if item.startswith(b'"'):
            return item[1:-1] if item.endswith(b'"') and len(item) > 1 else item[1:]
        return item

    def restore(self, label: bytes | None) -> None:
        if label is None:
            self.data_ptr = 0
            return
        assert self.program is not None
        compiled = self.program.compiled
        name = label.decode("latin-1").upper()
        name = name if name.startswith("@") else "@" + name
        found = compiled.labels.get(name)
        if found is None:
            raise BasicError("Undefined label")
        self.data_ptr = compiled.data_index(found[1])

    # -- console -------------------------------------------------------------
    def print_tab(self) -> None:
        self.machine.print(end=",")

    # -- frames ----------------------------------------------------------------
    def frames(self) -> int:
        """Frames since the run started."""
        return self.machine.maincnth * 524288 + self.machine.maincntl - self.frames_start

    def _check_limit(self, resume: int) -> None:
        if not self.machine.running:
            raise _Stop(resume)
        if self.max_frames is not None and self.frames() >= self.max_frames:
            raise _Stop(resume)

    def _pass_frame(self, pc: int) -> None:
        """A frame's budget is spent: the frame passes, and a run at its frame limit
        stops there, at the frame's end, whatever the program was doing (not some
        blocks into the next frame, where the run loop next looks)."""
        self._check_limit(pc)
        self.resume = pc
        self.machine.vsync(1)
        self._check_limit(pc)

    def vsync(self, count: int, resume: int) -> None:
        """VSYNC/WAIT n: n frames, stopping at the frame limit, then on at ``resume``.

        VSYNC ends its block, so rather than return to it, this raises
        :class:`_Synced`: the run loop goes on at ``resume`` with a fresh frame's
        budget, which it keeps in a local variable (a VSYNC a frame costs one
        exception; an attribute written after every block cost far more).
        """
        self.resume = resume
        self.budget = self.frame_budget
        for _ in range(max(numbers.to_int(count), 0)):
            self._check_limit(resume)
            self.machine.vsync(1)
        self._check_limit(resume)
        raise _Synced(resume)

    def idle(self, block: int, needs: int) -> int:
        """A wait loop's pass changed nothing (the compiler's ``s_goto``): the passes
        left in this frame would each do the same, so :meth:`execute` skips them
        (raising :class:`_Idle`) when frames pass by work, and ``--speed max`` in a
        window sleeps until the next frame instead of spinning. ``needs`` says what the
        loop's reads need to stay the same through the frame: no key waiting for
        INKEY$ (a read takes it), a frame clock for DATE$/TIME$ (the host's moves).

        Returns:
            ``block``, to run the next pass, when the passes cannot be skipped.
        """
        if not self.fast_forward:
            return block
        if needs & IDLE_KEYS and self.machine.keys_waiting():
            return block
        if needs & IDLE_CLOCK and self.machine.clock_start is None:
            return block
        raise _Idle(block)

    # -- variables for keyword handlers ----------------------------------------
    def get_var(self, name: str) -> registry.Value:
        """The value of variable ``name`` ("A", "A$"); 0 or "" if never set."""
        key = var_key(name.upper())
        value: registry.Value = self.ns.get(key, b"" if key.startswith("s_") else 0)
        return value

    def set_var(self, name: str, value: registry.Value) -> None:
        """Assign variable ``name`` (Type mismatch for the wrong type)."""
        key = var_key(name.upper())
        if isinstance(value, bytes) != key.startswith("s_"):
            raise BasicError("Type mismatch")
        self.scalars.add(key)
        self.ns[key] = value

    def ref(self, name: str, key: str) -> VarRef:
        return VarRef(self.ns, name, key)

    @staticmethod
    def value(arg: registry.Value | registry.Ref | None) -> registry.Value | None:
        """An argument's value, whether it came as a value or a :class:`registry.Ref`."""
        if arg is None or isinstance(arg, int | bytes):
            return arg
        return arg.get()

    def rnd(self, n: int) -> int:
        limit = numbers.to_int(n)
        if limit <= 0:
            return 0
        if self.random is not None:
            return self.random.randrange(limit) << 12
        return self.machine.rnd(limit) << 12

    def get_sys(self, name: str) -> registry.Value:
        values: dict[str, registry.Value] = {
            "RESULT": self.result,
            "ERR": self.err << 12,
            "ERL": self.erl << 12,
            "VERSION": VERSION,
            "FREEVAR": max(VARIABLE_SLOTS - len(self.scalars) - self.dimmed(), 0) << 12,
            # Kilobytes of array memory left, as [SBC] sys_freemem counts them.
            "FREEMEM": max(ARRAY_CELLS - self.cells, 0) * CELL_BYTES // 1024 << 12,
        }
        return values[name]

    def dimmed(self) -> int:
        return sum(1 for a in self.arrays.values() if a.data is not None)

    def set_sys(self, name: str, value: registry.Value) -> None:
        kw = registry.lookup("sysvar", name)
        if kw is None or kw.setter is None:
            raise BasicError("Syntax error")
        if isinstance(value, bytes) != kw.returns_string:
            raise BasicError("Type mismatch")
        kw.setter(self, value)

    # -- running -------------------------------------------------------------
    def execute(self, unit: _Unit, pc: int) -> None:
        """Run ``unit`` from block ``pc`` until END, STOP, an error or a break.

        Frames pass by work (each block's cost taken from the frame's budget),
        except at ``speed="max"`` on a machine that keeps real time (a window),
        where the wall clock makes them pass (:meth:`_execute_paced`).
        """
        self.unit = unit
        if self.speed == "max" and self.machine.realtime:
            self._execute_paced(unit, pc)
            return
        blocks = unit.blocks
        costs = unit.costs
        # Under a trace hook (the debugger) self.budget is kept after every block.
        traced = sys.gettrace() is not None
        chunk = range(1) if traced else _CHUNK
        self.fast_forward = not traced
        full = self.frame_budget
        budget = self.budget  # what is left of this frame's budget, kept here while running
        try:
            while True:
                try:
                    while True:
                        for _ in chunk:
                            budget -= costs[pc]
                            pc = blocks[pc]()
                            if budget <= 0:
                                budget += full
                                self.budget = budget
                                self._pass_frame(pc)
                        self.budget = budget
                        self.resume = pc
                        self._check_limit(pc)
                except _Synced as synced:
                    pc = synced.block
                    budget = self.budget = full
                except _Idle as idle:
                    # A wait loop's pass changed nothing: the passes that would fill the
                    # rest of this frame are skipped, their work taken at once. What the
                    # frame then shows, counts and reads is what running them gives.
                    pc = idle.block
                    cost = costs[pc]
                    if budget > 0 and cost > 0:
                        budget -= -(-budget // cost) * cost
                    if budget <= 0:
                        budget += full
                        self.budget = budget
                        self._pass_frame(pc)
                except _Jump as jump:
                    pc = jump.block
        finally:
            self.budget = budget
            self.fast_forward = False

    def _execute_paced(self, unit: _Unit, pc: int) -> None:
        """``execute`` as fast as the host allows, frames passing with the wall clock."""
        blocks = unit.blocks
        clock = time.perf_counter
        chunk = _CHUNK
        last = clock()
        self.fast_forward = sys.gettrace() is None
        try:
            while True:
                try:
                    while True:
                        for _ in chunk:
                            pc = blocks[pc]()
                        now = clock()
                        if now - last >= _BREATHE:
                            last = now
                            self._breathe(pc)
                except _Idle as idle:
                    # A wait loop's pass changed nothing: until the next frame (new
                    # input, MAINCNTL) every pass would do the same, so the host sleeps
                    # instead of spinning (a title screen costs next to no CPU).
                    pc = idle.block
                    self.machine.sleep_to_next_frame()
                    self._breathe(pc)
                    last = clock()
                except _Jump as jump:
                    pc = jump.block
        finally:
            self.fast_forward = False

    def _breathe(self, pc: int) -> None:
        """``_execute_paced``'s look at the machine: the frames the wall clock says are
        due (no more than the frame limit leaves), then a stop at the limit."""
        self.resume = pc
        limit = self.max_frames
        self.machine.busy(4 if limit is None else max(limit - self.frames(), 0))
        self._check_limit(pc)


class _Jump(Exception):
    """A FOR that never enters jumps past its NEXT."""

    def __init__(self, block: int) -> None:
        super().__init__("jump")
        self.block = block


class _Idle(_Jump):
    """A wait loop's pass at ``block`` changed nothing (:meth:`Runtime.idle`); anything
    that does not skip passes takes it as a jump to the loop's next pass."""


class _Synced(_Jump):
    """VSYNC or WAIT ran its frames: go on at ``block`` with a fresh frame's budget."""


_KW_CALL = re.compile(r"_K_\w+\[(\d+)\]|_M\.(\w+)\(")


def _ptc_line(tb: types.TracebackType | None, unit: _Unit) -> tuple[int | None, str]:
    """The PTC line and keyword where an exception left the unit's generated code.

    The generated line that was running names the keyword it calls (``_K_<unit>[i]``),
    so the keyword costs nothing to track either.
    """
    line: int | None = None
    keyword = ""
    while tb is not None:
        code = unit.codes.get(tb.tb_frame.f_code.co_filename)
        if code is not None:
            source, pylines = code.source.splitlines(), code.pylines
            lineno = tb.tb_lineno
            if 0 < lineno < len(pylines):
                line = pylines[lineno]
            found = _KW_CALL.search(source[lineno - 1]) if 0 < lineno <= len(source) else None
            if found is None:
                keyword = ""
            elif found.group(1) is not None:
                keyword = unit.compiled.keywords[int(found.group(1))].name
            else:  # a keyword bound to a Machine verb, called directly
                keyword = registry.verb_keyword(found.group(2))
        tb = tb.tb_next
    return line, keyword


def _as_basic_error(exc: BaseException) -> BasicError:
    """Any failure inside a program as the PTC error it stands for."""
    if isinstance(exc, BasicError):
        return exc
    if isinstance(exc, OutOfRange):
        return BasicError("Out of range")
    if isinstance(exc, PetitcomError):
        name = type(exc).ptc_name or "Illegal function call"
        return BasicError(name)
    if isinstance(exc, RecursionError | MemoryError):
        return BasicError("Out of memory")
    if isinstance(exc, TypeError):
        return BasicError("Type mismatch")
    if isinstance(exc, OverflowError):
        return BasicError("Overflow")
    return BasicError("Illegal function call")


class Interpreter:
    """A SmileBASIC v2 interpreter on a :class:`~petitcom_shim.Machine`.

    Args:
        machine: the hardware the program drives (through its public API).
        speed: "dsi" spends a budget of work per frame (:data:`DSI_BUDGET`), so
            busy loops take as many frames as on the handheld; "max" a budget
            eight times as large (:data:`MAX_BUDGET`), or, on a machine that keeps
            real time (a window), the host's full speed with frames passing by
            the wall clock. Only that last case depends on the host.
        seed: RND's seed (None: the machine's random source).
    """

    def __init__(
        self, machine: Machine, *, speed: Literal["max", "dsi"] = "max", seed: int | None = None
    ) -> None:
        if speed not in ("max", "dsi"):
            raise ValueError(f"speed must be 'max' or 'dsi', got {speed!r}")
        registry.load_all()
        self.machine = machine
        self.source = b""
        self.rt = Runtime(self, machine, speed, seed)
        self._program: _Unit | None = None
        self._can_continue = False
        self._resume = 0

    def load(self, source: bytes) -> None:
        """Load a program: PTC bytes, lines ending in CR; a 0x0A is a character, as on PTC.

        Program text with LF or CRLF line ends goes through
        ``progfile.from_text`` first.

        Lines are checked when they run, as on PTC: a Syntax error in a line
        that never runs does not stop the program.
        """
        self.source = bytes(source)
        self._program = None
        self.rt.program = None
        self._can_continue = False

    def new(self) -> None:
        """NEW: forget the program (variables stay until RUN or CLEAR)."""
        self.load(b"")

    def _compiled_program(self) -> _Unit:
        if self._program is None:
            self._program = self.rt.load_program(Program(self.source), "program")
        return self._program

    def run(self, *, max_frames: int | None = None) -> RunResult:
        """RUN: clear the variables and run the program from the top."""
        try:
            unit = self._compiled_program()
        except BasicError as err:
            return self._failed(err)
        self.rt.clear()
        self.rt.program = unit
        return self._go(unit, 0, max_frames, program=True)

    def cont(self, *, max_frames: int | None = None) -> RunResult:
        """CONT: continue after STOP, a break or the frame limit."""
        if not self._can_continue or self._program is None:
            return self._failed(BasicError("Can't continue"))
        return self._go(self._program, self._resume, max_frames, program=True)

    def direct(self, line: bytes, *, max_frames: int | None = None) -> RunResult:
        """Run one DIRECT-mode line in the current variables."""
        raw = split_lines(line)
        unit = self.rt.load_program(Program(raw[0] if raw else b"", "direct"), "direct")
        if self.rt.program is None and self._program is not None:
            self.rt.program = self._program
        if self.rt.program is None:
            self.rt.program = unit
        return self._go(unit, 0, max_frames, program=False)

    def _show(self, err: BasicError) -> None:
        """Print an error as PTC does, on a line of its own."""
        if self.machine.csrx:
            self.machine.print()
        self.machine.print(err.text().encode("latin-1"))

    def _failed(self, err: BasicError) -> RunResult:
        self._show(err)
        return RunResult("error", 0, err.message, err.line)

    def _go(self, unit: _Unit, pc: int, max_frames: int | None, *, program: bool) -> RunResult:
        rt = self.rt
        rt.max_frames = max_frames
        rt.frames_start = rt.frames() + rt.frames_start
        rt.budget = rt.frame_budget
        machine = self.machine
        saved_break = machine.select_break
        machine.select_break = True
        limit = sys.getrecursionlimit()
        try:
            while True:
                try:
                    rt.execute(unit, pc)
                except ExecProgram:  # EXEC put another program in memory: run it
                    unit, pc, program = self._compiled_program(), 0, True
                    rt.clear()
                    rt.program = unit
        except _End:
            if program:
                self._can_continue = False
            return RunResult("ended", rt.frames(), None, None)
        except (_Stop, Break) as stop:
            resume = stop.resume if isinstance(stop, _Stop) else rt.resume
            if program:  # a DIRECT line's STOP leaves the program's CONT point alone
                self._can_continue = True
                self._resume = resume
            line = self._line_of(unit, resume) if program else None
            return RunResult("stopped", rt.frames(), None, line)
        except Exception as exc:  # every failure is a PTC error, never a traceback
            err = _as_basic_error(exc)
            line, keyword = _ptc_line(exc.__traceback__, unit)
            err.keyword = err.keyword or keyword
            err.line = line if program else None
            if program:
                self._can_continue = False
            rt.err = err.code
            rt.erl = line or 0
            self._show(err)
            return RunResult("error", rt.frames(), err.message, err.line)
        finally:
            machine.select_break = saved_break
            sys.setrecursionlimit(limit)
        raise AssertionError("unreachable")  # pragma: no cover

    @staticmethod
    def _line_of(unit: _Unit, block: int) -> int | None:
        """The PTC line where a block starts (the line a stop shows)."""
        starts = unit.compiled.block_lines
        if 0 <= block < len(starts):
            return starts[block]
        return starts[-1] if starts else None
