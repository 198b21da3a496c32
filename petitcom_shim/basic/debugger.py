"""``petitcom debug`` and ``petitcom run --profile``: a pdb-style debugger and a line profiler.

Both watch a program through Python's trace hook (:func:`sys.settrace`) on the
generated code, so the interpreter carries no hook of its own: a run without
them is the same code at the same speed. The compiler records, as metadata,
where each statement's generated code starts and what it costs
(:attr:`~petitcom_shim.basic.compiler.Compiled.statements`); the generated line
gives the PTC line (``Compiled.pylines``). A program compiles a segment at a
time (:class:`~petitcom_shim.basic.compiler.Program`), each with a code file of
its own (``_Unit.codes``), so a frame's file name finds its segment's metadata,
and a block function ``b<N>`` is the segment's ``N``-th block
(``Compiled.block_index`` numbers it in the program). A ``line`` event at a statement's
start is a point where the debugger may stop and the profiler counts; an
``exception`` event in the generated code is an error caught where it happens,
with every variable and stack still as they were.

The debugger reads commands from a text stream (the terminal, or a pipe) and
writes to another; :data:`HELP` lists them.
"""

from __future__ import annotations

import sys
import time
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO

from petitcom_shim.basic import numbers
from petitcom_shim.basic.compiler import (
    Compiled,
    CompiledExpression,
    compile_expression,
    split_lines,
)
from petitcom_shim.basic.errors import BasicError
from petitcom_shim.basic.parser import parse_line
from petitcom_shim.basic.runtime import (
    DSI_BUDGET,
    ExecProgram,
    Interpreter,
    RunResult,
    _as_basic_error,
    _End,
    _Jump,
    _Stop,
    _Unit,
)
from petitcom_shim.errors import Break

__all__ = ["HELP", "Debugger", "LineProfile", "profile_run"]

#: Exceptions that are how the run loop moves, not errors.
_FLOW = (_Jump, _End, _Stop, ExecProgram, Break)

HELP = """\
commands (a word may be shortened to its first letter where shown):
  b[reak] LINE|@LABEL   stop before the line runs; b alone lists the breakpoints
  d[elete] LINE|@LABEL  remove a breakpoint (d alone removes all)
  s[tep]                run one statement
  n[ext]                run to the next line (a GOSUB runs through)
  c[ontinue]            run to a breakpoint, a watch, an error or the end
  p[rint] EXPR          a variable, an array element or any expression: p A$[2]*1
  w[here]               the line, the GOSUB stack and the FOR stack
  watch EXPR            stop when its value changes; unwatch EXPR to stop watching
  f[rame]               MAINCNTL, frames since RUN and the frame budget left
  l[ist] [LINE]         the program around the current line (or LINE)
  catch on|off          stop at an error (on by default)
  r[un]                 run the program (again) from the top
  q[uit]                stop the program and leave
  h[elp]                this list"""


class _Quit(BaseException):
    """``quit``: leaves the run from inside the trace hook (not an Exception, so the
    interpreter does not turn it into a PTC error)."""


def _block(frame: types.FrameType, segment: Compiled) -> int:
    """The program's block a frame of a segment's code runs (its function is the
    segment's ``b<N>``), or -1."""
    name = frame.f_code.co_name
    if name[:1] == "b" and name[1:].isdigit():
        return segment.block_index(int(name[1:]))
    return -1


def _show(value: int | bytes) -> str:
    if isinstance(value, bytes):
        return '"' + value.decode("latin-1") + '"'
    return numbers.text(value).decode("latin-1")


@dataclass
class _Where:
    """The statement about to run."""

    unit: _Unit
    segment: Compiled  # the compiled segment the statement is in
    pyline: int
    line: int
    block: int  # the block running it (its cost is taken from the budget as it starts)


class Debugger:
    """A pdb-style debugger for one program on an :class:`Interpreter`.

    Args:
        it: the interpreter with the program loaded.
        commands: where commands come from (one a line); at its end, ``quit``.
        out: where the prompt and answers go.
        max_frames: ``--frames`` for each run (None: no limit).
    """

    PROMPT = "(ptc) "

    def __init__(
        self, it: Interpreter, commands: TextIO, out: TextIO, max_frames: int | None = None
    ) -> None:
        self.it = it
        self.commands = commands
        self.out = out
        self.max_frames = max_frames
        self.lines = [raw.decode("latin-1") for raw in split_lines(it.source)]
        self.breaks: set[int] = set()
        self.watches: dict[str, int | bytes | None] = {}
        self.catch = True
        self.mode = "continue"  # "step", "next" or "continue"
        self.next_from: tuple[int, int] = (0, 0)  # line and GOSUB depth a "next" started at
        self.here: _Where | None = None
        self.result: RunResult | None = None
        # id(segment) -> (the segment, PTC line -> its first statement's pyline)
        self._first: dict[int, tuple[Compiled, dict[int, int]]] = {}
        self._stop_key: tuple[int, int, tuple[int, ...]] | None = None
        self._stop_lines: set[int] = set()
        self._seen_error: BaseException | None = None
        self._compiled: dict[str, tuple[CompiledExpression, types.CodeType]] = {}

    # ------------------------------------------------------------------ output, input

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def _read(self) -> str | None:
        self.out.write(self.PROMPT)
        self.out.flush()
        line = self.commands.readline()
        return None if not line else line.strip()

    # ------------------------------------------------------------------ the session

    def session(self) -> RunResult | None:
        """Run the debugger until ``quit`` or the end of the commands; the last run's result."""
        self.say(f"petitcom debug: {len(self.lines)} lines; 'help' lists the commands")
        try:
            while True:
                command = self._read()
                if command is None:
                    raise _Quit()
                go = self._command(command, running=False)
                if go == "run" or (go is not None and self.result is None):
                    self._run(cont=False)
                elif go is not None:  # step, next or continue after a stop: CONT
                    if self.result is not None and self.result.status == "stopped":
                        self._run(cont=True)
                    else:
                        self.say("the program is not running ('run' starts it)")
        except _Quit:
            sys.settrace(None)
            self.say("bye")
        return self.result

    def _run(self, *, cont: bool) -> None:
        self.here = None
        sys.settrace(self._global_trace)
        try:
            if cont:
                result = self.it.cont(max_frames=self.max_frames)
            else:
                result = self.it.run(max_frames=self.max_frames)
        finally:
            sys.settrace(None)
        self.result = result
        self.here = None
        where = "" if result.line is None else f" at line {result.line}"
        if result.status == "error":
            self.say(f"error: {result.error}{where}, after {result.frames} frames")
        elif result.status == "stopped":
            self.say(f"stopped{where} after {result.frames} frames ('continue' goes on)")
        else:
            self.say(f"the program ended after {result.frames} frames")

    # ------------------------------------------------------------------ tracing

    def _global_trace(self, frame: types.FrameType, event: str, arg: Any) -> Any:
        if frame.f_code.co_filename.startswith("<basic "):
            return self._local_trace
        return None

    def _unit_of(self, frame: types.FrameType) -> tuple[_Unit, Compiled] | None:
        """The running unit and the segment whose code ``frame`` runs, if it is the unit's."""
        unit = self.it.rt.unit
        if unit is not None:
            segment = unit.codes.get(frame.f_code.co_filename)
            if segment is not None:
                return unit, segment
        return None

    def _local_trace(self, frame: types.FrameType, event: str, arg: Any) -> Any:
        found = self._unit_of(frame)
        if found is None:
            return self._local_trace
        unit, segment = found
        if event == "line":
            cost = segment.statements.get(frame.f_lineno)
            if cost is not None:
                self._statement(unit, segment, frame.f_lineno, _block(frame, segment))
        elif event == "exception" and self.catch:
            exc = arg[1]
            if not isinstance(exc, _FLOW) and exc is not self._seen_error:
                self._seen_error = exc
                line = segment.pylines[frame.f_lineno]
                self.here = _Where(unit, segment, frame.f_lineno, line, _block(frame, segment))
                message = _as_basic_error(exc).message
                self.say(f"error: {message} at line {line}: {self._source(line)}")
                self._pause()
        return self._local_trace

    def _first_pyline(self, segment: Compiled, line: int) -> int | None:
        """Where the first statement of PTC line ``line`` starts in ``segment``'s code
        (a line lies in one segment), None if it has no statement there."""
        return self._firsts(segment).get(line)

    def _firsts(self, segment: Compiled) -> dict[int, int]:
        """PTC line -> its first statement's pyline, for the lines of ``segment``."""
        found = self._first.get(id(segment))
        if found is None or found[0] is not segment:
            table: dict[int, int] = {}
            for pyline in sorted(segment.statements):
                table.setdefault(segment.pylines[pyline], pyline)
            found = self._first[id(segment)] = (segment, table)
        return found[1]

    @staticmethod
    def _nth(segment: Compiled, pyline: int, line: int) -> str:
        """Which statement of its line a statement is (" statement 2"), when not the first."""
        before = [p for p in segment.statements if p < pyline and segment.pylines[p] == line]
        return f" statement {len(before) + 1}" if before else ""

    def _has_statement(self, unit: _Unit, line: int) -> bool:
        """Whether PTC line ``line`` of ``unit`` has a statement to stop at: from its
        segment's code once compiled, else from the line itself (segments compile
        when first entered, so a breakpoint may lie in one not yet run)."""
        program = unit.compiled
        if not 0 < line <= len(program.lines):
            return False
        segment = unit.segments.get(program.segment_of(line - 1))
        if segment is not None:
            return line in self._firsts(segment)
        return any(s[0] != "data" for s in parse_line(program.lines[line - 1]).stmts)

    def _stops(self, unit: _Unit) -> set[int]:
        """The lines the breakpoints stop at: each one's line, or the next line with a
        statement when it has none (a label alone, a comment), as gdb moves them."""
        key = (id(unit), len(unit.segments), tuple(sorted(self.breaks)))
        if key != self._stop_key:
            stops = set()
            for wanted in self.breaks:
                line = wanted
                while line <= len(unit.compiled.lines) and not self._has_statement(unit, line):
                    line += 1
                if line <= len(unit.compiled.lines):
                    stops.add(line)
            self._stop_key, self._stop_lines = key, stops
        return self._stop_lines

    def _statement(self, unit: _Unit, segment: Compiled, pyline: int, block: int) -> None:
        line = segment.pylines[pyline]
        program = unit is self.it.rt.program
        reason = ""
        for expr, old in self.watches.items():
            new = self._value(expr)
            if new != old:
                self.watches[expr] = new
                before = "?" if old is None else _show(old)
                after = "?" if new is None else _show(new)
                reason = f"watch {expr}: {before} -> {after}"
        if self.mode == "step":
            reason = reason or "step"
        elif (
            self.mode == "next"
            and len(self.it.rt.gosubs) <= self.next_from[1]
            # another line, or this line run again from its start (a loop on one line)
            and (line != self.next_from[0] or self._first_pyline(segment, line) == pyline)
        ):
            reason = reason or "next"
        if program and self._first_pyline(segment, line) == pyline and line in self._stops(unit):
            reason = reason or f"breakpoint at line {line}"
        if reason:
            self.here = _Where(unit, segment, pyline, line, block)
            if not reason.startswith(("step", "next")):
                self.say(reason)
            self.say(f"line {line}{self._nth(segment, pyline, line)}: {self._source(line)}")
            self._pause()

    def _pause(self) -> None:
        """The prompt while the program is stopped inside a statement."""
        while True:
            command = self._read()
            if command is None:
                raise _Quit()
            go = self._command(command, running=True)
            if go == "run":
                self.say("the program is running: 'continue', or 'quit' and start again")
            elif go is not None:
                return

    # ------------------------------------------------------------------ commands

    def _command(self, command: str, *, running: bool) -> str | None:
        """Do one command; the way to go on ("step", "next", "continue", "run") or None."""
        word, _, rest = command.partition(" ")
        word, rest = word.lower(), rest.strip()
        actions: dict[str, Callable[[str], str | None]] = {
            "b": self._break, "break": self._break, "d": self._delete, "delete": self._delete,
            "p": self._print, "print": self._print, "w": self._where, "where": self._where,
            "bt": self._where, "watch": self._watch, "unwatch": self._unwatch,
            "f": self._frame, "frame": self._frame, "l": self._list, "list": self._list,
            "catch": self._catch, "h": self._help, "help": self._help,
        }  # fmt: skip
        if not word:
            return None
        if word in ("q", "quit"):
            raise _Quit()
        if word in ("s", "step", "n", "next", "c", "continue", "cont"):
            self.mode = {"s": "step", "n": "next"}.get(word[0], "continue")
            here = self.here
            self.next_from = (here.line if here else 0, len(self.it.rt.gosubs))
            return self.mode
        if word in ("r", "run"):
            self.mode = "continue"
            return "run"
        action = actions.get(word)
        if action is None:
            self.say(f"unknown command {word!r} ('help' lists them)")
            return None
        return action(rest)

    def _line_arg(self, arg: str) -> int | None:
        if arg.isdigit():
            number = int(arg)
            if 1 <= number <= len(self.lines):
                return number
            self.say(f"there is no line {number} (the program has {len(self.lines)} lines)")
            return None
        label = arg.upper() if arg.startswith("@") else "@" + arg.upper()
        program = self.it.rt.program
        labels = program.compiled.labels if program is not None else None
        if labels is None:  # not run yet: find the label in the source
            for number, text in enumerate(self.lines, 1):
                if text.strip().upper().split(" ")[0] == label:
                    return number
        elif label in labels:
            return labels[label][1]
        self.say(f"no label {label}")
        return None

    def _break(self, arg: str) -> None:
        if not arg:
            listed = ", ".join(str(n) for n in sorted(self.breaks)) or "none"
            self.say(f"breakpoints: {listed}")
            return
        number = self._line_arg(arg)
        if number is not None:
            self.breaks.add(number)
            self.say(f"breakpoint at line {number}: {self._source(number)}")

    def _delete(self, arg: str) -> None:
        if not arg:
            self.breaks.clear()
            self.say("no breakpoints")
            return
        number = self._line_arg(arg)
        if number is not None:
            self.breaks.discard(number)
            self.say(f"breakpoint at line {number} removed")

    def _value(self, expr: str) -> int | bytes | None:
        """An expression's value now, or None when it cannot be evaluated."""
        try:
            return self.evaluate(expr)
        except BasicError:
            return None

    def evaluate(self, expr: str) -> int | bytes:
        """Evaluate a PTC expression in the program's variables.

        Raises:
            BasicError: a syntax or run-time error (PTC's message).
        """
        rt = self.it.rt
        found = self._compiled.get(expr)
        if found is None:
            unit = f"debugger{len(self._compiled)}"  # each has its own keyword table
            try:
                compiled = compile_expression(expr.encode("latin-1"), unit)
                code = compile(compiled.code, "<debugger>", "eval")
            except UnicodeEncodeError:
                raise BasicError("Syntax error") from None
            except (RecursionError, MemoryError, SyntaxError, ValueError):
                raise BasicError("Formula too complex") from None
            rt.ns[f"_K_{unit}"] = compiled.keywords
            found = self._compiled[expr] = (compiled, code)
        compiled, code = found
        names: dict[str, Any] = {}
        for key in compiled.scalars:
            if key not in rt.ns:  # never set: 0 or "", as the program would read it
                names[key] = b"" if key.startswith("s_") else 0
        for key in compiled.arrays:
            if key not in rt.ns:
                raise BasicError("Subscript out of range")
        try:
            value = eval(code, rt.ns, names)  # our compiler's code, of the user's expression
        except Exception as exc:  # a PTC error, never a traceback
            if isinstance(exc, _FLOW):
                raise BasicError("Illegal function call") from None
            raise _as_basic_error(exc) from None
        assert isinstance(value, int | bytes)
        return value

    def _print(self, arg: str) -> None:
        try:
            self.say(f"{arg} = {_show(self.evaluate(arg))}")
        except BasicError as err:
            self.say(f"{arg}: {err.message}")

    def _watch(self, arg: str) -> None:
        if not arg:
            self.say("watching: " + (", ".join(self.watches) or "nothing"))
            return
        value = self._value(arg)
        self.watches[arg] = value
        self.say(f"watching {arg} (now {'?' if value is None else _show(value)})")

    def _unwatch(self, arg: str) -> None:
        self.watches.pop(arg, None)
        self.say(f"not watching {arg}")

    def _where(self, arg: str) -> None:
        rt = self.it.rt
        here = self.here
        if here is not None:
            nth = self._nth(here.segment, here.pyline, here.line)
            self.say(f"line {here.line}{nth}: {self._source(here.line)}")
        elif self.result is not None and self.result.line is not None:
            self.say(f"{self.result.status} at line {self.result.line}")
        else:
            self.say("not running")
        program = rt.program
        blocks = program.compiled.block_lines if program is not None else []

        def line_of(block: int) -> str:
            return str(blocks[block]) if 0 <= block < len(blocks) else "?"

        if rt.gosubs:
            self.say("GOSUB stack (innermost last):")
            for ret, _depth in rt.gosubs:
                self.say(f"  returns to line {line_of(ret)}")
        else:
            self.say("GOSUB stack: empty")
        if rt.fors:
            self.say("FOR stack (innermost last):")
            for entry in rt.fors:
                key, limit, step = entry[0], entry[1], entry[2]
                name = key[2:] + ("$" if key.startswith("s_") else "")
                now = _show(rt.ns.get(key, 0))
                self.say(
                    f"  FOR {name} TO {_show(limit)} STEP {_show(step)} (line {line_of(entry[4])},"
                    f" {name} is {now})"
                )
        else:
            self.say("FOR stack: empty")

    def _frame(self, arg: str) -> None:
        rt, m = self.it.rt, self.it.machine
        left = rt.budget  # kept after each block while traced; this block's cost comes off
        here = self.here
        if here is not None and 0 <= here.block < len(here.unit.costs):
            left -= here.unit.costs[here.block]
        line = (
            f"MAINCNTL {m.maincntl}, MAINCNTH {m.maincnth}, {rt.frames()} frames since RUN; "
            f"budget left this frame {left} of {rt.frame_budget} units"
        )
        if rt.speed == "dsi":
            line += " (--speed dsi)"
        elif m.realtime:
            line += " (not spent: --speed max in a window follows the clock)"
        else:
            line += f" (--speed max: {rt.frame_budget // DSI_BUDGET} times the handheld's)"
        self.say(line)

    def _list(self, arg: str) -> None:
        center = int(arg) if arg.isdigit() else (self.here.line if self.here else 1)
        for number in range(max(center - 5, 1), min(center + 5, len(self.lines)) + 1):
            mark = ">" if self.here is not None and number == self.here.line else " "
            stop = "*" if number in self.breaks else " "
            self.say(f"{mark}{stop}{number:5d}  {self.lines[number - 1]}")

    def _catch(self, arg: str) -> None:
        if arg.lower() not in ("on", "off"):
            self.say(f"catch is {'on' if self.catch else 'off'} (catch on|off)")
            return
        self.catch = arg.lower() == "on"
        self.say(f"catch {arg.lower()}: {'stop' if self.catch else 'do not stop'} at an error")

    def _help(self, arg: str) -> None:
        self.say(HELP)

    def _source(self, line: int) -> str:
        return self.lines[line - 1] if 0 < line <= len(self.lines) else ""


# ---------------------------------------------------------------------- the line profiler


@dataclass
class LineProfile:
    """What each PTC line cost in one run: statements run, work units and time.

    Units are the ``--speed`` model's (an IF's inner statements count at the
    IF). Time is measured under the trace hook, which slows every statement
    alike, so it shows where the time goes, not how long a plain run takes.
    """

    runs: dict[int, int] = field(default_factory=dict)
    units: dict[int, int] = field(default_factory=dict)
    seconds: dict[int, float] = field(default_factory=dict)

    def report(self, source: bytes, top: int = 12) -> str:
        """The ``top`` lines by units (then time), as a table."""
        lines = [raw.decode("latin-1") for raw in split_lines(source)]
        total_units = sum(self.units.values()) or 1
        total_time = sum(self.seconds.values())
        total_runs = sum(self.runs.values())
        out = [
            f"line profile: {total_runs} statements, {sum(self.units.values())} units "
            f"({sum(self.units.values()) / DSI_BUDGET:.1f} frames of the handheld's budget), "
            f"{total_time * 1000:.0f} ms traced",
            " line      runs      units  units%   frames  time%  source",
        ]
        order = sorted(self.runs, key=lambda n: (-self.units.get(n, 0), -self.seconds.get(n, 0)))
        for number in order[:top]:
            units = self.units.get(number, 0)
            share = 100 * self.seconds.get(number, 0) / total_time if total_time else 0.0
            text = lines[number - 1] if 0 < number <= len(lines) else ""
            out.append(
                f"{number:5d} {self.runs[number]:9d} {units:10d} {100 * units / total_units:6.1f}%"
                f" {units / DSI_BUDGET:8.1f} {share:5.1f}%  {text[:40]}"
            )
        return "\n".join(out)


def profile_run(it: Interpreter, run: Callable[[], RunResult]) -> tuple[RunResult, LineProfile]:
    """Run ``run`` (a RUN of ``it``) under the line profiler."""
    profile = LineProfile()
    runs, units, seconds = profile.runs, profile.units, profile.seconds
    clock = time.perf_counter
    last: list[Any] = [None, clock()]  # the line being timed, since when

    def local(frame: types.FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            unit = it.rt.unit
            segment = None if unit is None else unit.codes.get(frame.f_code.co_filename)
            if segment is None:
                return local
            cost = segment.statements.get(frame.f_lineno)
            if cost is not None:
                now = clock()
                if last[0] is not None:
                    seconds[last[0]] = seconds.get(last[0], 0.0) + now - last[1]
                line = segment.pylines[frame.f_lineno]
                runs[line] = runs.get(line, 0) + 1
                units[line] = units.get(line, 0) + cost
                last[0], last[1] = line, now
        return local

    def global_trace(frame: types.FrameType, event: str, arg: Any) -> Any:
        return local if frame.f_code.co_filename.startswith("<basic ") else None

    sys.settrace(global_trace)
    try:
        result = run()
    finally:
        sys.settrace(None)
    if last[0] is not None:
        seconds[last[0]] = seconds.get(last[0], 0.0) + clock() - last[1]
    return result, profile
