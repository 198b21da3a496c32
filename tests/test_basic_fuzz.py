"""Random programs never crash the interpreter: every run ends as ended, stopped or error."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from petitcom_shim import Machine
from petitcom_shim.basic import ERRORS, Interpreter

WORDS = [
    "PRINT", "?", "IF", "THEN", "ELSE", "GOTO", "GOSUB", "RETURN", "FOR", "TO", "STEP",
    "NEXT", "DIM", "DATA", "READ", "RESTORE", "ON", "END", "STOP", "CLEAR", "SWAP",
    "VSYNC", "A", "B$", "C[", "]", "@L", "@M", "(", ")", ",", ";", ":", "=", "==", "+",
    "-", "*", "/", "%", "AND", "NOT", "!", "1", "0", "2.5", "-3", "&HFF", '"S"', "LEN(",
    "MID$(", "CHR$(", "VAL(", "RND(", "SPOFS", "SPSET", "BGPUT", "LOCATE", "COLOR",
    "BEEP", "BUTTON()", "INKEY$()", "MAINCNTL", "TRUE", "'", "REM", "\x01", "\xff",
]  # fmt: skip

line = st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join)
program = st.lists(line, min_size=1, max_size=8).map(lambda ls: "\r".join(ls).encode("latin-1"))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program)
def test_random_programs_end_cleanly(source: bytes) -> None:
    machine = Machine(headless=True)
    basic = Interpreter(machine, seed=0)
    basic.load(source)
    result = basic.run(max_frames=2)
    assert result.status in ("ended", "stopped", "error")
    if result.status == "error":
        assert result.error in ERRORS
    assert basic.direct(b"?A").status in ("ended", "error")
