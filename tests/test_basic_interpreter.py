"""The Interpreter API: RUN, DIRECT lines, STOP/CONT, frame limits, breaks, bad input, speed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from petitcom_shim import Button, Machine
from petitcom_shim.basic import BasicError, Interpreter, RunResult, numbers, statement
from petitcom_shim.basic.consoletext import console_text
from petitcom_shim.basic.progfile import from_text
from petitcom_shim.basic.registry import KEYWORDS


def run(source: bytes, **kwargs: object) -> tuple[RunResult, Machine, Interpreter]:
    machine = Machine(headless=True)
    basic = Interpreter(machine, seed=3)
    basic.load(source)
    frames = kwargs.get("max_frames", 600)
    assert frames is None or isinstance(frames, int)
    return basic.run(max_frames=frames), machine, basic


def screen(machine: Machine) -> list[str]:
    return [line.rstrip() for line in console_text(machine).split("\n")[:24]]


def test_run_result_and_source() -> None:
    result, machine, basic = run(b"A=1\r?A+1\r")
    assert result == RunResult("ended", 0, None, None)
    assert basic.source == b"A=1\r?A+1\r"
    assert screen(machine)[0] == "2"


def test_line_endings_of_text_and_ptc() -> None:
    """Text may end lines with LF or CRLF (progfile converts it); PTC bytes with CR only."""
    for text in ("?1\n?2\n", "?1\r\n?2\r\n", "?1\r?2"):
        _, machine, _ = run(from_text(text))
        assert screen(machine)[:2] == ["1", "2"]


def test_a_0x0a_in_ptc_bytes_is_a_character() -> None:
    """PTC ends a line with 0x0D only: 0x0A in a comment or string splits nothing."""
    result, machine, _ = run(b'?1 \'A\nB\r?LEN("\n")\r')
    assert result.status == "ended"
    assert screen(machine)[:2] == ["1", "1"]


def test_any_text_after_a_label_is_a_comment() -> None:
    """`@MAIN <0xA0>TEXT`, `@E ｱｲｳ`: bytes no token starts with, after a label, are
    part of the comment as ASCII text is (docs/petitcom-decisions.md), not a Syntax error."""
    result, machine, _ = run(b"@MAIN \xa0TEXT\r?6:GOTO @E\r?7\r@E \xb1\xb2\xb3\r?8\r")
    assert result.status == "ended", result
    assert screen(machine)[:2] == ["6", "8"]


def test_direct_lines_share_the_programs_variables() -> None:
    result, machine, basic = run(b'A=41:B$="X"\r')
    assert result.status == "ended"
    assert basic.direct(b"?A+1;B$").status == "ended"
    assert basic.direct(b"C=5").status == "ended"
    assert basic.direct(b"?C*2").status == "ended"
    assert screen(machine)[:2] == ["42X", "10"]


def test_direct_error_has_no_line() -> None:
    machine = Machine(headless=True)
    basic = Interpreter(machine)
    result = basic.direct(b"?1/0")
    assert result == RunResult("error", 0, "Division by zero", None)
    assert screen(machine)[0] == "Division by zero"


def test_stop_and_cont() -> None:
    result, machine, basic = run(b"?1\rSTOP\r?2\r")
    assert result.status == "stopped" and result.line == 2
    assert basic.cont().status == "ended"
    assert screen(machine)[:2] == ["1", "2"]
    assert basic.cont().error == "Can't continue"


def test_frame_limit_stops_and_cont_goes_on() -> None:
    result, machine, basic = run(b"@L:VSYNC 1:N=N+1:IF N<10 GOTO @L\r?N\r", max_frames=4)
    assert result.status == "stopped" and result.frames == 4
    assert basic.cont().status == "ended"
    assert screen(machine)[0] == "10"


def test_select_breaks_a_waiting_program() -> None:
    machine = Machine(headless=True)
    basic = Interpreter(machine)
    basic.load(b"@L:VSYNC 1:GOTO @L\r")
    machine.input.press(Button.SELECT)
    result = basic.run(max_frames=100)
    assert result.status == "stopped"
    assert result.frames <= 2
    assert machine.select_break is False  # restored after the run


def test_start_is_a_button_not_a_break() -> None:
    machine = Machine(headless=True)
    basic = Interpreter(machine)
    basic.load(b"VSYNC 1:?BUTTON() AND 1024\r")
    machine.input.press(Button.START)
    assert basic.run(max_frames=100).status == "ended"
    assert screen(machine)[0] == "1024"


def test_busy_loop_without_vsync_stops_at_the_frame_limit() -> None:
    result, _, _ = run(b"@L:GOTO @L\r", max_frames=2)
    assert result.status == "stopped"
    assert result.frames >= 2


def test_maincntl_counts_during_a_busy_loop() -> None:
    result, machine, _ = run(b'A=MAINCNTL\r@L:IF MAINCNTL<A+3 GOTO @L\r?"OK"\r', max_frames=600)
    assert result.status == "ended"
    assert screen(machine)[0] == "OK"


def test_closed_window_stops_the_program() -> None:
    machine = Machine(headless=True)
    basic = Interpreter(machine)
    basic.load(b"@L:VSYNC 1:GOTO @L\r")
    machine.running = False
    assert basic.run().status == "stopped"


@pytest.mark.parametrize(
    ("source", "message", "line"),
    [
        (b'?1\r?"A"+\r', "Syntax error", 2),
        (b"@R:GOSUB @R\r", "Out of memory", 1),
        (b"DIM A[300000]\r", "Out of memory", 1),
        (b"DIM A[600000]\r", "Overflow", 1),
        (b'A$="X"*300\r', "String too long", 1),
        (b"?\x01\x02\xff\r", "Syntax error", 1),
        (b'A=1:B=A+"X"\r', "Type mismatch", 1),
    ],
)
def test_errors(source: bytes, message: str, line: int) -> None:
    result, _, _ = run(source)
    assert (result.status, result.error, result.line) == ("error", message, line)


def test_garbage_source_is_a_clear_error() -> None:
    garbage = bytes(range(256)) * 40
    result, _, _ = run(garbage)
    assert result.status == "error"
    assert result.error == "Syntax error"


def test_100k_line() -> None:
    """A 100 kB line is PTC's "Formula too complex" when it runs, never a hang or a traceback."""
    for line in (b"A=1" + b"+1" * 50000, b"?" + b"(" * 100000, b"?" + b"-" * 100000 + b"1"):
        result, _, _ = run(b"?1\r" + line + b"\r")
        assert (result.status, result.error, result.line) == ("error", "Formula too complex", 2)
    result, _, _ = run(b'A$="' + b"X" * 100000 + b'"\r?LEN(A$)\r')
    assert (result.status, result.error) == ("error", "String too long")


def test_ifs_nested_deeper_than_python_goes_are_an_error_on_their_line() -> None:
    """Hundreds of ``IF 1 THEN`` on one line: an error on that line when it runs,
    never a program that cannot start with no line (tests/basic/deep_if runs 100)."""
    for depth in (300, 3000):
        deep = b"IF 1 THEN " * depth + b"PRINT 7"
        result, machine, _ = run(b"?1\r" + deep + b"\r?8\r")
        assert result.status == "error" and result.line == 2
        assert result.error in ("Out of memory", "Formula too complex")
        assert screen(machine)[:2] == ["1", f"{result.error} (2)"]
        result, machine, _ = run(b"GOTO @E\r" + deep + b"\r@E\r?8\r")
        assert (result.status, screen(machine)[0]) == ("ended", "8")


def test_a_syntax_error_in_a_line_never_run_does_not_stop_the_program() -> None:
    result, machine, _ = run(b'GOTO @E\r?1+\r@E\r?"E"\r')
    assert result.status == "ended"
    assert screen(machine)[0] == "E"


def test_dsi_speed_takes_about_as_long_as_the_handheld() -> None:
    """Issue 14 §3: the handheld took 120 and 300 frames (frames are counted, not timed)."""
    loops = ((b"FOR I=0 TO 100000:NEXT", 120), (b"@L:I=I+1:IF I<100000 GOTO @L", 300))
    for source, frames in loops:
        machine = Machine(headless=True)
        basic = Interpreter(machine, speed="dsi")
        basic.load(source)
        result = basic.run()
        assert result.status == "ended"
        assert abs(result.frames - frames) <= frames * 0.1


def test_bad_speed() -> None:
    with pytest.raises(ValueError):
        Interpreter(Machine(headless=True), speed="fast")  # type: ignore[arg-type]


def test_registered_statement_with_refs_and_errors() -> None:
    """A keyword module's statement: outputs by Ref, a BasicError names the keyword."""

    @statement("TWICE", 2, 2, refs=True)
    def twice(rt: object, args: list[object]) -> None:
        from petitcom_shim.basic.runtime import Runtime

        assert isinstance(rt, Runtime)
        value = rt.value(args[0])  # type: ignore[arg-type]
        if not isinstance(value, int):
            raise BasicError("Type mismatch")
        args[1].set(value * 2)  # type: ignore[attr-defined]

    try:
        result, machine, _ = run(b'A=4:TWICE A,B:?B\rTWICE "X",C\r')
        assert screen(machine)[:2] == ["8", "Type mismatch (TWICE:2)"]
        assert result.line == 2
    finally:
        del KEYWORDS[("statement", "TWICE")]


def test_rnd_is_seeded() -> None:
    outs = []
    for _ in range(2):
        _, machine, _ = run(b'FOR I=1 TO 5:?RND(100);" ";:NEXT\r')
        outs.append(screen(machine)[0])
    assert outs[0] == outs[1]
    assert len(set(outs[0].split())) > 1


def test_inkey_and_button_read_the_machines_input() -> None:
    machine = Machine(headless=True)
    basic = Interpreter(machine)
    basic.load(b"A$=INKEY$():B$=INKEY$():C$=INKEY$()\rVSYNC 1:?A$;B$;LEN(C$);BUTTON() AND 16\r")
    machine.input.type_text("HI")
    machine.input.press(Button.A)
    assert basic.run(max_frames=10).status == "ended"
    assert screen(machine)[0] == "HI016"


def test_bgmsetd_reads_strings_up_to_the_first_number() -> None:
    result, machine, _ = run(
        b'BGMSETD 128,@S:BGMPLAY 128:?BGMCHK()\rEND\r@S\rDATA "T120O4CDEF",GAB\rDATA 0\r'
    )
    assert result.status == "ended"
    assert screen(machine)[0] == "1"


def test_machine_busy_keeps_sixty_frames_a_second_of_wall_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Machine.busy runs the frames the wall clock says are due, on the 60 Hz grid."""
    import petitcom_shim.machine as machine_module

    now = [100.0]
    monkeypatch.setattr(machine_module.time, "perf_counter", lambda: now[0])
    machine = Machine(headless=True)
    assert machine.busy() == 0
    for _ in range(240):  # two seconds in steps of 1/120 s
        now[0] += 1 / 120
        machine.busy()
    assert machine.maincntl == 120
    now[0] += 10  # far behind: at most 4 frames are caught up, the rest dropped
    assert machine.busy() == 4
    assert machine.maincntl == 124


def test_cont_after_a_direct_line_still_calls_the_programs_keywords() -> None:
    """DIRECT lines are compiled separately; CONT must not mix up keyword tables."""
    result, machine, basic = run(b'LOCATE 0,0:?"A"\rSTOP\rLOCATE 5,5:?"B"\r')
    assert result.status == "stopped"
    assert basic.direct(b"?CHKCHR(0,0)").status == "ended"
    assert basic.cont().status == "ended"
    assert screen(machine)[5] == "     B"


def test_err_and_erl_after_an_error() -> None:
    result, machine, basic = run(b"?1\r?1/0\r")
    assert result.error == "Division by zero"
    assert basic.direct(b'?ERR;" ";ERL').status == "ended"
    assert screen(machine)[2] == "15 2"  # ERR 15 is "Division by zero" in PTC's table


def test_system_variables_of_the_interpreter() -> None:
    result, machine, _ = run(
        b"F=FREEMEM:DIM A[2560]:?F;F-FREEMEM\r?VERSION==&H2020;FREEVAR\r"
        b'MEM$="KEEP":?MEM$;LEN(PRGNAME$);LEN(PACKAGE$)\rTABSTEP=8:?TABSTEP\r'
    )
    assert result.status == "ended"
    # FREEMEM in KB of 4-byte elements (2560 elements are 10 KB); FREEVAR from 2048
    # less F and A ([SBC] sys_freemem, VAR_LIMIT; [WIKI] FREEVAR)
    assert screen(machine)[:4] == ["102410", "12046", "KEEP00", "8"]


def test_a_readonly_system_variable_cannot_be_assigned() -> None:
    result, _, _ = run(b"CSRX=3\r")
    assert (result.status, result.error) == ("error", "Syntax error")


def test_keyword_state_belongs_to_one_interpreter() -> None:
    run(b"SYSBEEP=0\r")
    _, machine, _ = run(b"?SYSBEEP\r")
    assert screen(machine)[0] == "1"


def _raw_literal(raw: int) -> bytes:
    """A PTC expression whose value is exactly the word ``raw``."""
    whole, frac = divmod(raw, 4096)
    return b"(%d+%d/4096)" % (whole, frac) if whole >= 0 else b"(0-%d+%d/4096)" % (-whole, frac)


@settings(max_examples=40, deadline=None)
@given(
    a=st.integers(-(2**31) + 4096, 2**31 - 4097),
    b=st.integers(-(2**31) + 4096, 2**31 - 4097),
    m=st.integers(1, 2**31 - 4097),
)
def test_compiled_mul_and_mod_match_the_numbers_module(a: int, b: int, m: int) -> None:
    """``*`` and ``%`` by a positive literal are compiled inline (issue 23 item 4):
    the same words, the same Overflow, as numbers.mul and numbers.mod."""
    lit = b"%d" % (m >> 12) if m >= 4096 else b"1"  # a literal: whole, positive
    lines = [
        b"A=" + _raw_literal(a) + b":B=" + _raw_literal(b),
        b"C=A%" + lit + b':?FLOOR(C);" ";(C-FLOOR(C))*4096',
        b'C=A%B:?FLOOR(C);" ";(C-FLOOR(C))*4096' if b else b'?0;" ";0',
        b'C=A*B:?FLOOR(C);" ";(C-FLOOR(C))*4096',
    ]
    result, machine, _ = run(b"\r".join(lines) + b"\r")
    out = screen(machine)

    def word(line: str) -> int:
        whole, frac = line.split()
        return int(whole) * 4096 + int(frac)

    assert word(out[0]) == numbers.mod(a, int(lit) << 12)
    assert word(out[1]) == (numbers.mod(a, b) if b else 0)
    product = (a * b) >> 12
    if -(2**31 - 1) <= product <= 2**31 - 1:
        assert result.status == "ended" and word(out[2]) == numbers.mul(a, b)
    else:
        assert (result.status, result.error, result.line) == ("error", "Overflow", 4)


def test_a_bound_keyword_gets_its_arguments_as_the_handler_gave_them() -> None:
    """A keyword bound to a Machine verb is called directly by the compiled code (issue 23
    item 4): a whole number arrives as int, another as its exact float, a string as
    Latin-1 str, an empty argument as None, trailing empty ones dropped; a function's
    result comes back as a PTC value."""
    machine = Machine(headless=True)
    calls: list[tuple[str, tuple[object, ...]]] = []

    def spy(verb: str, value: object = None) -> object:
        def call(*args: object) -> object:
            calls.append((verb, args))
            return value

        return call

    machine.gpset = spy("gpset")  # type: ignore[method-assign]
    machine.bgput = spy("bgput")  # type: ignore[method-assign]
    machine.chrinit = spy("chrinit")  # type: ignore[method-assign]
    machine.spchk = spy("spchk", True)  # type: ignore[method-assign]
    machine.bgmchk = spy("bgmchk", 2.5)  # type: ignore[method-assign]
    basic = Interpreter(machine, seed=3)
    basic.load(
        b'X=5:A$="BG"\rGPSET 3,X/2\rGPSET 1,-2,\rGPSET X,X*2,X%3\rBGPUT 0,1,2,3,,1\r'
        b'CHRINIT A$+"F0"\rCHRINIT "SPU"\rY=SPCHK(7)+BGMCHK(X-5)\r?Y\r'
    )
    assert basic.run(max_frames=60).status == "ended"
    assert calls == [
        ("gpset", (3, 2.5)),
        ("gpset", (1, -2)),
        ("gpset", (5, 10, 2)),
        ("bgput", (0, 1, 2, 3, None, 1)),
        ("chrinit", ("BGF0",)),
        ("chrinit", ("SPU",)),
        ("spchk", (7,)),
        ("bgmchk", (0,)),
    ]
    assert screen(machine)[0] == "3.5"  # TRUE (1) + 2.5


def test_an_error_inside_a_bound_keyword_names_it() -> None:
    """The error line names the bound statement or function that failed, as PTC shows
    ``Out of range (SPOFS:2)``, though the compiled code calls the Machine verb itself."""
    for source, shown in (
        (b"A=1\rSPOFS 200,1,1\r", "Out of range (SPOFS:2)"),
        (b"A=1\rB=1+SPCHK(200)\r", "Out of range (SPCHK:2)"),
        (b"A=1\rGPSET 0,0:GPAGE 9\r", "Out of range (GPAGE:2)"),
    ):
        result, machine, _ = run(source)
        assert result.status == "error", source
        assert screen(machine)[0] == shown, source


@pytest.mark.parametrize(
    ("source", "shown", "status"),
    [
        (b"A(3)=5:?A(3);A(9);A(0)\r", "500", "ended"),  # a first use dimensions 10
        (b"I=2:A(I)=7:A(I+1)=A(I)*2:?A(I+1)\r", "14", "ended"),
        (b"A(10)=1\r", "Subscript out of range (1)", "error"),
        (b"?A(-1)\r", "Subscript out of range (1)", "error"),
        (b"DIM B(2,2):B(1)=0\r", "Subscript out of range (1)", "error"),
        (b"DIM B(2,2):?B(1)\r", "Subscript out of range (1)", "error"),
        (b"DIM C(3):C(2)=4:CLEAR:?C(2):C(9)=1:?C(9)\r", "0\r1", "ended"),  # CLEAR undims
        (b'DIM S$(2):S$(1)="AB":?S$(1)+S$(0)+"!"\r', "AB!", "ended"),
        (b"A(1)=1:A(2)=1/0\r", "Division by zero (1)", "error"),  # the value's error first
    ],
)
def test_array_elements_read_and_written_inline(source: bytes, shown: str, status: str) -> None:
    """1-D elements are read and written by the compiled code itself (issue 23 item 4),
    with Arr.g1/s1's rules: dimensioned on first use, range checked, a 2-D array
    refused, gone after CLEAR, the index evaluated before the value."""
    result, machine, _ = run(source)
    assert result.status == status, result
    assert screen(machine)[: shown.count("\r") + 1] == shown.split("\r")


@given(st.integers(-(2**31) + 4096, 2**31 - 1), st.integers(0, 524287))
@settings(max_examples=200, deadline=None)
def test_and_with_a_literal_mask_is_bit_and(raw: int, mask: int) -> None:
    """``X AND 16``, compiled inline, gives what ``X AND M`` (numbers.bit_and) gives."""
    value = f"{raw / 4096:.6f}"
    source = f"X={value}:M={mask}:Y=X AND {mask}:Z=X AND M:?Y==Z;;Y\r".encode()
    result, machine, _ = run(source)
    assert result.status == "ended", result
    assert screen(machine)[0].startswith("1"), (source, screen(machine)[0])


def test_print_shows_the_items_before_the_one_that_fails() -> None:
    """PRINT writes the items that cannot fail together with the one before, but an item
    that stops the program does so after everything before it is shown."""
    result, machine, _ = run(b'SC=5:A$="Z"\r?"A";SC;A$;1/0;"B"\r')
    assert result.status == "error"
    assert screen(machine)[0] == "A5Z"
    result, machine, _ = run(b'DIM Q(2):?"N";Q(7)\r')
    assert result.status == "error" and screen(machine)[0] == "N"


_PRINT_ITEM = st.one_of(
    st.text("ABC xyz!", max_size=40).map(lambda t: ("s", t)),
    st.integers(-(2**31) + 4096, 2**31 - 1).map(lambda n: ("n", n)),
)


@given(
    st.integers(0, 31),
    st.integers(0, 23),
    st.lists(st.tuples(_PRINT_ITEM, st.sampled_from([";", ",", ""])), min_size=1, max_size=8),
)
@settings(max_examples=150, deadline=None)
def test_print_of_joined_items_writes_what_item_by_item_writes(
    x: int, y: int, items: list[tuple[tuple[str, object], str]]
) -> None:
    """The same console as writing each item on its own (wrapping at the line's end and
    scrolling at the bottom included), with variables and literals mixed."""
    parts, assigns = [], []
    for k, ((kind, value), sep) in enumerate(items):
        if kind == "s":
            assigns.append(f'S{k}$="{value}"')
            parts.append(f"S{k}$" if k % 2 else f'"{value}"')  # variables and literals
        else:
            assert isinstance(value, int)
            assigns.append(f"N{k}={value / 4096:.6f}")
            parts.append(f"N{k}")
        parts.append(sep if sep or k == len(items) - 1 else ";")
    source = "\r".join(assigns) + f"\rLOCATE {x},{y}:?" + "".join(parts) + "\r"
    result, machine, basic = run(source.encode())
    assert result.status == "ended", (source, result)
    expected = Machine(headless=True)
    expected.locate(x, y)
    for k, ((kind, _), sep) in enumerate(items):
        held = basic.rt.ns[f"s_S{k}"] if kind == "s" else numbers.text(basic.rt.ns[f"v_N{k}"])
        expected.print_codes(held)
        if sep == ",":
            expected.print(end=",")
    if items[-1][1] == "":
        expected.print()
    assert console_text(machine) == console_text(expected), source


def test_both_sides_of_and_or_in_an_if_are_evaluated() -> None:
    """``IF A<1 AND B(99)<2``: PTC evaluates the right side too, so its error stops the
    program even when the left side is false (no short cut); with OR likewise."""
    for source in (b"A=5:DIM B(3)\rIF A<1 AND B(99)<2 THEN ?1\r?2\r",
                   b"A=0:DIM B(3)\rIF A<1 OR B(99)<2 THEN ?1\r?2\r"):  # fmt: skip
        result, machine, _ = run(source)
        assert result.status == "error" and result.error == "Subscript out of range", source
    result, machine, _ = run(b"A=5\rIF A>1 AND ABS(A-9)<8 THEN ?1\rIF A<1 OR A>4 THEN ?2\r")
    assert screen(machine)[:2] == ["1", "2"]


def test_and_or_of_two_comparisons_as_values() -> None:
    """``X=(A<B) AND (C<D)`` (compiled as the two truths' bits) is TRUE or FALSE."""
    result, machine, _ = run(
        b"A=1:B=2\r?(A<B) AND (B<A);(A<B) AND (A<B);(A<B) OR (B<A);(B<A) OR (B<A)\r"
    )
    assert result.status == "ended" and screen(machine)[0] == "0110"
