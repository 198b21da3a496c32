"""A program is compiled a segment at a time, when first entered (issue 23 §5): a program
at PTC's 524,288-byte limit starts at once, and nothing changes at segment boundaries
(loops, GOSUB, errors, STOP, DATA across them)."""

from __future__ import annotations

import tracemalloc

import pytest

from petitcom_shim import Machine
from petitcom_shim.basic import Interpreter, RunResult, compiler
from petitcom_shim.basic.compiler import SEGMENT_LINES, Program
from petitcom_shim.basic.consoletext import console_text
from petitcom_shim.basic.parser import Line

#: PTC's largest program (bytes).
PTC_PROGRAM_LIMIT = 524_288
#: Lines of filler: enough that the lines around it fall in different segments.
FILL = SEGMENT_LINES * 2 + 7


def run(source: bytes, max_frames: int = 600) -> tuple[RunResult, list[str], Interpreter]:
    machine = Machine(headless=True)
    basic = Interpreter(machine, seed=3)
    basic.load(source)
    result = basic.run(max_frames=max_frames)
    lines = [line.rstrip() for line in console_text(machine).split("\n")[:24]]
    return result, [line for line in lines if line], basic


def filler(n: int = FILL) -> bytes:
    return b"Z=Z+1\r" * n


def test_a_program_at_the_size_limit_starts_without_compiling_the_rest() -> None:
    """87,000 short statements: before, 28 s and 1.08 GB of compiling before line 1."""
    body = b'?"FIRST":END\r' + filler((PTC_PROGRAM_LIMIT - 100) // 6)
    assert len(body) < PTC_PROGRAM_LIMIT
    tracemalloc.start()
    try:
        result, lines, _ = run(body)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (result.status, lines) == ("ended", ["FIRST"])
    program = Program(body)
    assert program.end > 600  # many segments, of which one was compiled
    assert peak < 60_000_000, f"peak {peak} bytes"


def test_loops_across_segments_and_a_loop_that_never_enters() -> None:
    source = (
        b"FOR I=1 TO 3\r" + filler() + b'?"I";I\rNEXT\r'
        + b"N=0:FOR J=1 TO N\r" + filler() + b'?"NEVER"\rNEXT\r?"SKIPPED";J\r'
        + b"FOR K=1 TO 2:FOR L=1 TO 2\r" + filler() + b"?K*10+L\rNEXT:NEXT\r"
        + b"?Z\r"
    )  # fmt: skip
    result, lines, _ = run(source)
    assert result.status == "ended"
    assert lines == ["I1", "I2", "I3", "SKIPPED1", "11", "12", "21", "22", str(FILL * 7)]


def test_a_loop_that_never_enters_skips_to_a_next_not_yet_compiled() -> None:
    """The FOR's segment is compiled before the NEXT's: the skip target is found then."""
    source = b"FOR I=5 TO 1\r" + filler() + b'?"IN"\rNEXT I\r?"OUT";I\r'
    result, lines, _ = run(source)
    assert (result.status, lines) == ("ended", ["OUT5"])


def test_gosub_errors_stop_and_data_across_segments() -> None:
    source = (
        b"GOSUB @FAR:?\"BACK\"\r"
        + b"READ A$:?A$:RESTORE @MORE:READ B:?B\r"
        + b"STOP:GOTO @LAST\r"
        + filler()
        + b"DATA HELLO\r"
        + b"@FAR\r" + filler() + b'?"FAR":RETURN\r'
        + b"@MORE\rDATA 42\r"
        + b'@LAST:?"CONT":COLOR 99\r'
    )  # fmt: skip
    result, lines, basic = run(source)
    assert result.status == "stopped" and result.line == 3
    assert lines == ["FAR", "BACK", "HELLO", "42"]
    basic.load(source)
    error_line = source.count(b"\r")  # the SPSET line
    result = basic.run()
    assert result.status == "stopped"
    result = basic.cont()
    assert (result.status, result.error, result.line) == ("error", "Out of range", error_line)


def test_labels_in_the_middle_start_segments() -> None:
    program = Program(b"A=1\r@ONE\rA=2\r  @TWO:A=3\r@ONE\rGOTO @TWO\r")
    assert program.labels == {"@ONE": (1, 2), "@TWO": (2, 4)}
    assert program.end == 4  # the first lines, @ONE, @TWO, the second @ONE


def test_a_loop_round_the_whole_program_starts_without_pairing_every_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """28,000 loops inside one round the program: the FOR of line 1 is compiled before
    the NEXT that closes it is found; the lines between are parsed only if needed."""
    inner = b"FOR I=0 TO 1:NEXT\r" * 28000
    body = b'FOR L=0 TO 0:?"FIRST":END\r' + inner + b"NEXT\r"
    assert len(body) < PTC_PROGRAM_LIMIT
    parsed = []
    real = compiler.parse_line

    def counting(raw: bytes) -> Line:
        parsed.append(raw)
        return real(raw)

    monkeypatch.setattr(compiler, "parse_line", counting)
    result, lines, _ = run(body)
    assert (result.status, lines) == ("ended", ["FIRST"])
    assert len(parsed) <= 2 * SEGMENT_LINES  # segment 0, parsed to pair and to compile


def test_a_loop_that_never_enters_finds_its_next_far_ahead() -> None:
    inner = b"FOR I=0 TO 1:NEXT\r" * 1000
    result, lines, _ = run(b"FOR L=1 TO 0\r" + inner + b'NEXT:?"OUT";L;I\r')
    assert (result.status, lines) == ("ended", ["OUT10"])
    result, lines, _ = run(b"FOR L=1 TO 0\r" + inner + b'?"NO NEXT"\r')
    assert (result.status, result.error, result.line) == ("error", "FOR without NEXT", 1)


def test_data_is_read_only_as_far_as_needed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A program of DATA at PTC's size limit: its first READ parses one chunk of it."""
    data = b"DATA " + b",".join(str(i).encode() for i in range(20)) + b"\r"
    body = b'READ A,B:RESTORE @LAST:READ C:?"FIRST";A;B;C:END\r'
    body += data * ((PTC_PROGRAM_LIMIT - 200) // len(data)) + b"@LAST\rDATA 99\r"
    assert len(body) < PTC_PROGRAM_LIMIT
    parsed = []
    real = compiler.parse_line

    def counting(raw: bytes) -> Line:
        parsed.append(raw)
        return real(raw)

    monkeypatch.setattr(compiler, "parse_line", counting)
    result, lines, _ = run(b'READ A,B:?"FIRST";A;B:END\r' + body.split(b"\r", 1)[1])
    assert (result.status, lines) == ("ended", ["FIRST01"])
    assert len(parsed) <= 2 * SEGMENT_LINES
    result, lines, _ = run(body)  # RESTORE to the last line scans all of it
    assert (result.status, lines) == ("ended", ["FIRST0199"])
