"""Wait loops are fast-forwarded, and that changes nothing a program can see (issue 23).

A loop like ``@W:IF BUTTON()==0 GOTO @W`` spends every frame's whole work budget
going round: 970 passes a frame at ``--speed dsi``, 7,760 at ``max``. When a pass
changes nothing (its statements are steady and every scalar it writes keeps its
value), every further pass in the frame does the same, so the runtime takes their
work at once and goes to the frame's end. These tests hold the skipping to what
running every pass gives: the same console, screen, frame count, stop line and
variables, with scripted input arriving at any frame.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from petitcom_shim import Machine
from petitcom_shim.basic import Interpreter, RunResult
from petitcom_shim.basic.compiler import Program
from petitcom_shim.basic.consoletext import console_text
from petitcom_shim.basic.runtime import DSI_BUDGET, Runtime
from petitcom_shim.inputscript import ScriptFeeder, parse_script

#: Wait loops of the shapes published programs use, and loops that must not be skipped.
PROGRAMS = {
    "button": b'CLS\r@W\rIF BUTTON()==0 GOTO @W\r?"PRESSED";MAINCNTL\r',
    "btrig_then": b'@W:B=BTRIG():IF B==0 THEN @W\r?"B";B;MAINCNTL\r',
    "maincntl": b'T=MAINCNTL\r@W:IF MAINCNTL<T+37 GOTO @W\r?"T";MAINCNTL\r',
    "inkey": b'@W:K$=INKEY$():IF K$!="C" GOTO @W\r?"K";K$;MAINCNTL\r',
    "inkey_direct": b'@W:IF INKEY$()=="" GOTO @W\r?"ANY";MAINCNTL\r'
    b'@V:IF INKEY$()!="B" GOTO @V\r?"B";MAINCNTL\r',
    "touch": b"@W:X=TCHX:Y=TCHY:IF TCHST==0 GOTO @W\r?X;Y;MAINCNTL\r",
    "clock": b"T$=TIME$\r@W:IF T$==TIME$ GOTO @W\r?TIME$;MAINCNTL\r",
    "written_then_steady": b"@W:J=K:K=BUTTON():IF K==0 AND J==0 GOTO @W\r?J;K;MAINCNTL\r",
    "else_path": b"@W:IF BUTTON()==0 THEN @W ELSE C=C+100\r?C;MAINCNTL\r",
    "counter": b"@W:C=C+1:IF BUTTON()==0 GOTO @W\r?C;MAINCNTL\r",
    "rnd": b"@W:R=RND(5):IF BUTTON()==0 GOTO @W\r?R;MAINCNTL\r",
    "array": b"DIM A(2)\r@W:A(0)=A(0)+1:IF BUTTON()==0 GOTO @W\r?A(0)\r",
    "print": b'@W:LOCATE 0,1:?MAINCNTL:IF BUTTON()==0 GOTO @W\r?"X"\r',
    "loop_again": b"@M:VSYNC 1\r@W:IF BUTTON()==0 GOTO @W\r?MAINCNTL;:C=C+1:IF C<4 GOTO @M\r",
}
#: Input arriving mid-run: buttons, keys (several at once, so INKEY$ takes one a
#: pass) and the stylus.
SCRIPT = """
41 B A
44 B 0
90 K ABC
130 T 100 50
133 T OFF
170 B B
172 B 0
260 K XBC
330 B A
"""


def _run(
    source: bytes, speed: str, max_frames: int, skipping: bool, monkeypatch: pytest.MonkeyPatch
) -> tuple[RunResult, str, bytes, dict[str, object]]:
    with monkeypatch.context() as patch:
        if not skipping:
            patch.setattr(Runtime, "idle", lambda self, block, needs: block)
        machine = Machine(headless=True)
        basic = Interpreter(machine, speed="dsi" if speed == "dsi" else "max", seed=7)
        basic.load(source)
        ScriptFeeder(parse_script(SCRIPT)).attach(machine)
        result = basic.run(max_frames=max_frames)
        picture = machine.screen_array(0).tobytes() + machine.screen_array(1).tobytes()
        variables = {k: v for k, v in basic.rt.ns.items() if k[:2] in ("v_", "s_")}
        machine.close()
    return result, console_text(machine), picture, variables


@pytest.mark.parametrize("speed", ["dsi", "max"])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_skipping_passes_gives_what_running_them_gives(
    name: str, speed: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for frames in (3, 100, 400):
        ran = _run(PROGRAMS[name], speed, frames, False, monkeypatch)
        skipped = _run(PROGRAMS[name], speed, frames, True, monkeypatch)
        assert skipped == ran, (name, speed, frames)


@pytest.fixture
def idle_calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts calls of ``Runtime.idle`` (one a pass that changed nothing)."""
    calls: list[int] = []
    original = Runtime.idle

    def counted(self: Runtime, block: int, needs: int) -> int:
        calls.append(block)
        return original(self, block, needs)

    monkeypatch.setattr(Runtime, "idle", counted)
    yield calls


def test_a_wait_loop_costs_one_pass_a_frame(idle_calls: list[int]) -> None:
    machine = Machine(headless=True)
    basic = Interpreter(machine, speed="max")
    basic.load(b"@W:IF BUTTON()==0 GOTO @W\r")
    result = basic.run(max_frames=600)
    machine.close()
    assert result.frames == 600
    assert len(idle_calls) <= 601  # without skipping: 7,760 passes a frame


def test_keys_waiting_keep_inkey_passes_running(idle_calls: list[int]) -> None:
    """INKEY$ takes a key a pass: while keys wait, a pass that took one is not a
    pass that changed nothing, and the loop runs until the queue is empty."""
    machine = Machine(headless=True)
    basic = Interpreter(machine, speed="dsi")
    basic.load(b'@W:IF INKEY$()!="Z" GOTO @W\r?MAINCNTL\r')
    machine.input.queue_keys(b"ABCZ")
    result = basic.run(max_frames=60)
    machine.close()
    assert result.status == "ended"
    assert console_text(machine).startswith("0")  # all four read in frame 0


@pytest.mark.parametrize(
    ("source", "skippable"),
    [
        (b"@W:IF BUTTON()==0 GOTO @W\r", True),
        (b"@W\rIF BUTTON() AND 16 THEN ?1 ELSE GOTO @W\r", False),  # PRINT came first
        (b"@W:K=BUTTON():IF K==0 GOTO @W\r", True),
        (b"@W:IF MAINCNTL<100 THEN @W\r", True),
        (b'@W:K$=INKEY$():IF K$=="" GOTO @W\r', True),
        (b"@W:R=RND(2):IF R==0 GOTO @W\r", False),
        (b"@W:C=C+1:IF C<9 GOTO @W\r", True),  # skipped only if C kept its value
        (b"@W:A(0)=1:IF BUTTON()==0 GOTO @W\r", False),
        (b"@W:SPHIT 0:IF SPHITNO<0 GOTO @W\r", False),
        (b"@W:BEEP:IF BUTTON()==0 GOTO @W\r", False),
        (b"@W:GOSUB @S:IF BUTTON()==0 GOTO @W\r@S:RETURN\r", False),
        (b"@W:IF BUTTON()==0 GOTO @X\r@X:GOTO @W\r", False),  # two blocks: not its own top
    ],
)
def test_which_loops_can_be_skipped(source: bytes, skippable: bool) -> None:
    program = Program(source)
    text = "".join(program.compile_segment(s).source for s in range(program.end))
    assert ("_idle(" in text) == skippable, text


def test_a_busy_run_stops_at_the_end_of_its_last_frame() -> None:
    """``--frames N`` stops a loop without VSYNC where frame N ends, as it stops one
    with VSYNC: not some passes into the next frame, where the run loop next looked."""
    source = b"@L:C=C+1:GOTO @L\r"
    cost = Program(source).compile_segment(0).costs[0]
    for frames in (1, 2, 5):
        machine = Machine(headless=True)
        basic = Interpreter(machine, speed="dsi")
        basic.load(source)
        result = basic.run(max_frames=frames)
        machine.close()
        passes = basic.rt.ns["v_C"] >> 12
        assert result.frames == frames
        assert (passes - 1) * cost < frames * DSI_BUDGET <= passes * cost


def test_in_real_time_a_wait_loop_sleeps_to_the_next_frame(idle_calls: list[int]) -> None:
    """``--speed max`` in a window (frames by the wall clock): a wait loop sleeps until
    the next frame instead of spinning the host's CPU, about one pass a frame."""
    machine = Machine(headless=True, realtime=True)
    basic = Interpreter(machine, speed="max")
    basic.load(b'T=MAINCNTL\r@W:IF MAINCNTL<T+12 GOTO @W\r?"DONE";MAINCNTL-T\r')
    result = basic.run(max_frames=600)
    machine.close()
    assert result.status == "ended"
    assert console_text(machine).startswith("DONE12")
    assert 12 <= len(idle_calls) <= 5 * 12  # spinning: thousands of passes a frame
