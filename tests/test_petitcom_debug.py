"""Issue 27 §2: ``petitcom debug`` driven through a pipe, and ``petitcom run --profile``.

The debugger reads its commands from stdin, so a test is a list of commands
and the answers they must get.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from petitcom_shim import Machine
from petitcom_shim.basic import Interpreter
from petitcom_shim.basic.debugger import profile_run

ROOT = Path(__file__).resolve().parent.parent

#: Our own program: a GOSUB with a FOR inside, a FOR in the main line, an error.
PROGRAM = """A=1
GOSUB @SUB
FOR I=1 TO 3
B=B+I*A:NEXT
?B
C=10/0
END
@SUB
A=A+1:FOR J=0 TO 1:?J:NEXT
RETURN
"""


def debug(
    tmp_path: Path, commands: list[str], *args: str, program: str = PROGRAM
) -> tuple[int, list[str]]:
    prog = tmp_path / "prog.txt"
    prog.write_text(program)
    env = dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    done = subprocess.run(
        [sys.executable, "-m", "petitcom_shim.basic.cli", "debug", str(prog), "--headless", *args],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.stderr == ""
    return done.returncode, done.stdout.replace("(ptc) ", "").splitlines()


def test_break_step_print_where_watch_continue(tmp_path: Path) -> None:
    code, out = debug(
        tmp_path,
        ["break @SUB", "run", "where", "step", "step", "print A", "print A*3+1",
         'p "X"+STR$(A)', "next", "next", "watch B", "continue", "where", "frame",
         "continue", "continue", "continue", "print I", "quit"],
    )  # fmt: skip
    expected = [
        "breakpoint at line 8: @SUB",
        "breakpoint at line 9",  # a label alone: the next line with a statement
        "line 9: A=A+1:FOR J=0 TO 1:?J:NEXT",
        "line 9: A=A+1:FOR J=0 TO 1:?J:NEXT",  # where
        "GOSUB stack (innermost last):",
        "  returns to line 2",
        "FOR stack: empty",
        "line 9 statement 2: A=A+1:FOR J=0 TO 1:?J:NEXT",  # step: A=A+1 ran
        "line 9 statement 3: A=A+1:FOR J=0 TO 1:?J:NEXT",  # step: into the FOR
        "A = 2",
        "A*3+1 = 7",
        '"X"+STR$(A) = "X2"',
        "line 10: RETURN",  # next: the rest of line 9, its loop included
        "line 3: FOR I=1 TO 3",  # next: out of the GOSUB
        "watching B (now 0)",
        "watch B: 0 -> 2",
        "line 4 statement 2: B=B+I*A:NEXT",
        "line 4 statement 2: B=B+I*A:NEXT",  # where
        "GOSUB stack: empty",
        "FOR stack (innermost last):",
        "  FOR I TO 3 STEP 1 (line 3, I is 1)",
        "MAINCNTL 0, MAINCNTH 0, 0 frames since RUN; budget left this frame 9549 of 9700"
        " units (--speed dsi)",
        "watch B: 2 -> 6",
        "line 4 statement 2: B=B+I*A:NEXT",
        "watch B: 6 -> 12",
        "line 4 statement 2: B=B+I*A:NEXT",
        "error: Division by zero at line 6: C=10/0",  # stopped at the error, state intact
        "I = 4",
        "bye",
    ]
    assert out[1:] == expected
    assert code == 0  # quit before the run ended


def test_catch_off_and_bad_commands(tmp_path: Path) -> None:
    code, out = debug(
        tmp_path,
        ["catch off", "print 1/0", "print A$(", "break 99", "frobnicate", "run", "where"],
    )
    assert out[1:] == [
        "catch off: do not stop at an error",
        "1/0: Division by zero",
        "A$(: Syntax error",
        "there is no line 99 (the program has 10 lines)",
        "unknown command 'frobnicate' ('help' lists them)",
        "error: Division by zero at line 6, after 0 frames",
        "error at line 6",
        "GOSUB stack: empty",
        "FOR stack: empty",
        "bye",  # the end of the commands is quit
    ]
    assert code == 1


def test_a_stop_goes_on_with_continue(tmp_path: Path) -> None:
    """--frames stops the run as STOP would; continue is CONT."""
    prog = "@L\nVSYNC 1:N=N+1\nIF N<100 GOTO @L\n"
    commands = ["run", "print N", "continue", "print N"]
    code, out = debug(tmp_path, commands, "--frames", "10", program=prog)
    assert out[1:5] == [
        "stopped at line 2 after 10 frames ('continue' goes on)",
        "N = 9",  # stopped at the tenth VSYNC, before its N=N+1
        "stopped at line 2 after 10 frames ('continue' goes on)",
        "N = 19",
    ]
    assert code == 0


def test_profile_names_the_hot_line() -> None:
    machine = Machine(headless=True)
    it = Interpreter(machine, speed="dsi")
    source = b"FOR I=0 TO 10\rFOR J=0 TO 200:K=K+J:NEXT\rNEXT\r?K\r"
    it.load(source)
    result, profile = profile_run(it, it.run)
    assert result.status == "ended"
    assert profile.runs[2] == 11 + 2 * 11 * 201  # FOR once a turn, K=K+J and NEXT 201 times
    report = profile.report(source).splitlines()
    assert report[2].split()[0] == "2"  # the inner loop's line comes first
    assert "FOR J=0 TO 200:K=K+J:NEXT" in report[2]


def test_run_profile_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from petitcom_shim.basic import cli

    prog = tmp_path / "p.txt"
    prog.write_text("FOR I=0 TO 500:A=A+I:NEXT\n?A\n")
    assert cli.main(["run", str(prog), "--headless", "--profile", "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.out.count("\n") == 1  # --json: one line on stdout, the profile on stderr
    assert "line profile:" in captured.err and "FOR I=0 TO 500" in captured.err


#: Three segments (a program compiles a label's lines, or 128 lines, when first entered):
#: lines 1-128, 129-203 (never run, so never compiled) and @FAR's, reached by GOSUB.
SEGMENTS = (
    "GOSUB @FAR\n?B\nEND\n"
    + "A=A+1\n" * 200
    + "@FAR\n'a comment\nDATA 1,2\nFOR K=1 TO 2:B=B+K:NEXT\nRETURN\n"
)


def test_the_debugger_works_across_lazily_compiled_segments(tmp_path: Path) -> None:
    """A breakpoint in a segment not compiled yet moves past a comment and a DATA line
    to the next statement; step, where and frame see the segment's own blocks."""
    code, out = debug(
        tmp_path,
        ["break 205", "run", "step", "step", "where", "frame", "print B", "continue"],
        program=SEGMENTS,
    )
    assert out[1:] == [
        "breakpoint at line 205: 'a comment",
        "breakpoint at line 207",
        "line 207: FOR K=1 TO 2:B=B+K:NEXT",
        "line 207 statement 2: FOR K=1 TO 2:B=B+K:NEXT",
        "line 207 statement 3: FOR K=1 TO 2:B=B+K:NEXT",
        "line 207 statement 3: FOR K=1 TO 2:B=B+K:NEXT",  # where
        "GOSUB stack (innermost last):",
        "  returns to line 1",
        "FOR stack (innermost last):",
        "  FOR K TO 2 STEP 1 (line 207, K is 1)",
        # 9700 less GOSUB's block (12), @FAR's entry block (24) and the loop's body (26)
        "MAINCNTL 0, MAINCNTH 0, 0 frames since RUN; budget left this frame 9638 of 9700"
        " units (--speed dsi)",
        "B = 1",
        "the program ended after 0 frames",
        "bye",
    ]
    assert code == 0


def test_profile_counts_the_lines_of_every_segment() -> None:
    machine = Machine(headless=True)
    it = Interpreter(machine, speed="dsi")
    lines = ["GOTO @L", *["A=A+1"] * 140, "@L", "FOR I=0 TO 99:K=K+I:NEXT", "GOSUB @S", "END"]
    lines += ["@S", "FOR J=0 TO 9:K=K+1:NEXT", "RETURN"]
    source = "\r".join(lines).encode() + b"\r"
    it.load(source)
    result, profile = profile_run(it, it.run)
    assert result.status == "ended"
    assert profile.runs == {1: 1, 143: 1 + 2 * 100, 144: 1, 145: 1, 147: 1 + 2 * 10, 148: 1}
    assert all(profile.units[line] > 0 for line in profile.runs)
    assert profile.report(source).splitlines()[2].split()[0] == "143"
