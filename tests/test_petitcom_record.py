"""Issue 27 §1: ``--record`` writes a session by frame; ``--input --headless`` replays it exactly.

A simulated player (a front-end that presses keys, types, drags the stylus and
closes the window at chosen pumps, as pygame's events would) stands for the
window here; tests/test_petitcom_record_x11.py does the same in a real X window
with xdotool.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from petitcom_shim import Machine
from petitcom_shim.basic import Interpreter, RunResult, cli, direct
from petitcom_shim.basic.consoletext import console_text
from petitcom_shim.display import HeadlessFrontend
from petitcom_shim.input import BACKSPACE_KEY, CANCEL_KEY, Input
from petitcom_shim.inputscript import ScriptFeeder, ScriptRecorder, key_text, parse_script

#: Our own program: shows buttons, keys and touches as it gets them, works between frames
#: (frames pass by work as well as by VSYNC), draws where the stylus is and uses RND.
PROGRAM = b"""?RND(1000)
@L
VSYNC 1
B=BUTTON():K$=INKEY$()
IF B THEN LOCATE 0,2:?B;" ";BUTTON(2);" ";MAINCNTL;"    "
IF K$!="" THEN LOCATE 0,3:?K$;ASC(K$);" ";MAINCNTL;"    "
IF TCHST THEN GPSET TCHX,TCHY,15:LOCATE 0,4:?TCHX;",";TCHY;" ";TCHTIME;"   "
FOR I=0 TO 400:NEXT
IF K$=="Q" THEN END
GOTO @L
""".replace(b"\n", b"\r")

Action = Callable[[Input], None]


class Player(HeadlessFrontend):
    """A window whose player acts at given pumps (the events land between two latches)."""

    def __init__(self, actions: dict[int, list[Action]], close_at: int | None = None) -> None:
        super().__init__()
        self.actions = actions
        self.close_at = close_at
        self.pumps = 0

    def pump(self, inp: Input) -> bool:
        self.pumps += 1
        for act in self.actions.get(self.pumps, []):
            act(inp)
        return self.close_at is None or self.pumps < self.close_at


def _session() -> dict[int, list[Action]]:
    mouse = ("mouse",)
    return {
        3: [lambda i: i.key_down(pygame.K_RIGHT)],
        5: [lambda i: i.key_down(pygame.K_x)],  # A
        6: [lambda i: i.key_up(pygame.K_x), lambda i: i.key_up(pygame.K_RIGHT)],
        9: [lambda i: i.key_down(pygame.K_z), lambda i: i.key_up(pygame.K_z)],  # a tap in a frame
        12: [lambda i: i.type_text("hi!")],
        13: [lambda i: i.stylus_down(mouse, 40, 50)],
        15: [lambda i: i.stylus_move(mouse, 60, 70)],
        18: [lambda i: i.stylus_up(mouse)],
        20: [lambda i: (i.stylus_down(mouse, 7, 8), i.stylus_up(mouse))],  # shorter than a frame
        22: [lambda i: i.key_down(pygame.K_BACKSPACE), lambda i: i.key_up(pygame.K_BACKSPACE)],
    }


def _record(actions: dict[int, list[Action]], close_at: int | None) -> tuple[RunResult, str, str]:
    machine = Machine(headless=True, config=cli._config())  # the command's keys
    machine.frontend = Player(actions, close_at)
    it = Interpreter(machine, speed="dsi", seed=9)
    it.load(PROGRAM)
    recorder = ScriptRecorder(["test"])
    recorder.attach(machine)
    result = it.run(max_frames=3000)
    return result, recorder.finish(), console_text(machine)


def _replay(script: str) -> tuple[RunResult, str]:
    machine = Machine(headless=True)
    it = Interpreter(machine, speed="dsi", seed=9)
    it.load(PROGRAM)
    ScriptFeeder(parse_script(script)).attach(machine)
    return it.run(max_frames=3000), console_text(machine)


def test_a_recorded_session_replays_to_the_same_frame() -> None:
    actions = _session()
    actions[40] = [lambda i: i.type_text("Q")]
    result, script, console = _record(actions, None)
    assert result.status == "ended"
    assert " K hi!" in script and " T 40 50" in script and " B RIGHT+A" in script
    assert _replay(script) == (result, console)


def test_a_window_closed_mid_run_is_a_q_line_and_the_replay_stops_there() -> None:
    result, script, console = _record(_session(), close_at=30)
    assert result.status == "stopped"
    assert f"\n{result.frames} Q\n" in script
    assert _replay(script) == (result, console)


def test_select_break_is_recorded() -> None:
    result, script, console = _record({4: [lambda i: i.key_down(pygame.K_ESCAPE)]}, None)
    assert result.status == "stopped"
    assert "B SELECT" in script and "K \\e" in script
    assert _replay(script) == (result, console)


def test_key_text_round_trips_every_event() -> None:
    codes = (*range(256), BACKSPACE_KEY, CANCEL_KEY, 0x20)
    events = parse_script(f"1 K {key_text(codes)}\n")
    assert events[0].value == codes


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--headless"], "--record needs a window"),
        (["--speed", "max"], "--record needs --speed dsi"),
        (["--input", "x.txt"], "--record and --input together"),
    ],
)
def test_record_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    prog = tmp_path / "p.txt"
    prog.write_text("?1\n")
    (tmp_path / "x.txt").write_text("")
    code = cli.main(["run", str(prog), "--record", str(tmp_path / "r.txt"), *args])
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.splitlines()) == 1


def test_cli_replays_a_recording_with_its_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The header names the replay command; --input --headless --seed gives the run again."""
    actions = _session()
    actions[40] = [lambda i: i.type_text("Q")]
    result, script, console = _record(actions, None)
    prog = tmp_path / "p.txt"
    prog.write_bytes(PROGRAM)
    rec = tmp_path / "rec.txt"
    rec.write_text(script)
    out = tmp_path / "c.txt"
    argv = ["run", str(prog), "--input", str(rec), "--headless", "--speed", "dsi", "--seed", "9"]
    assert cli.main([*argv, "--json", "--console", str(out)]) == 0
    assert json.loads(capsys.readouterr().out)["frames"] == result.frames
    assert out.read_text() == console


def test_direct_mode_records_and_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """DIRECT mode too: lines typed at the prompt, a program run from it, the window closed."""
    machine = Machine(headless=True, config=cli._config())
    actions: dict[int, list[Action]] = {
        2: [lambda i: i.type_text("?1+2\r")],
        5: [lambda i: i.type_text("FOR I=0 TO 2000:NEXT:?MAINCNTL\r")],
        8: [lambda i: i.type_text("?6*7\r")],
    }
    machine.frontend = Player(actions, close_at=60)
    recorder = ScriptRecorder(cli._recording_header("petitcom direct", None, ""))
    recorder.attach(machine)
    direct.run(Interpreter(machine, speed="dsi"))
    script = recorder.finish()
    console = console_text(machine)
    assert "42" in console and script.rstrip().endswith("Q")
    assert "petitcom direct --input THIS_FILE --headless\n" in script
    rec = tmp_path / "rec.txt"
    rec.write_text(script)
    out = tmp_path / "c.txt"
    argv = ["direct", "--input", str(rec), "--headless", "--files", str(tmp_path)]
    assert cli.main([*argv, "--console", str(out)]) == 0
    assert out.read_text() == console


def test_direct_headless_needs_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["direct", "--headless", "--files", str(tmp_path)]) == 2
    assert "needs --input" in capsys.readouterr().err


#: Our own program: the date and time it starts with, and after two seconds of frames.
CLOCK_PROGRAM = b'?DATE$;" ";TIME$\rVSYNC 120\r?TIME$\r'


def test_clock_starts_date_and_time_and_frames_advance_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--clock gives DATE$/TIME$ at frame 0; headless without it, the machine's fixed start."""
    prog = tmp_path / "clock.txt"
    prog.write_bytes(CLOCK_PROGRAM)
    out = tmp_path / "c.txt"
    base = ["run", str(prog), "--headless", "--console", str(out)]
    assert cli.main([*base, "--clock", "2013/07/04 23:59:59"]) == 0
    assert out.read_text().splitlines()[:2] == [
        "2013/07/04 23:59:59".ljust(32),
        "00:00:01".ljust(32),
    ]
    assert cli.main(base) == 0  # no host clock headless, whatever the day
    assert out.read_text().splitlines()[:2] == [
        "2000/01/01 00:00:00".ljust(32),
        "00:00:02".ljust(32),
    ]


@pytest.mark.parametrize(
    "clock",
    ["2013/13/01 00:00:00", "2013/02/30 00:00:00", "1999/01/01 00:00:00", "2013/07/04",
     "２０１３/07/04 00:00:00", "2013/07/04 24:00:00", ""],
)  # fmt: skip
def test_a_bad_clock_is_one_line_and_one_json_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], clock: str
) -> None:
    prog = tmp_path / "clock.txt"
    prog.write_bytes(CLOCK_PROGRAM)
    with pytest.raises(SystemExit) as stop:
        cli.main(["run", str(prog), "--headless", "--json", "--clock", clock])
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 1 and json.loads(out)["status"] == "usage"
    assert "--clock" in err and "Traceback" not in err


def test_a_recording_gives_its_clock_and_the_replay_reads_the_same_times() -> None:
    """A window's recording starts the machine's clock at a moment its header names."""
    args = cli._parser().parse_args(["run", "p.txt", "--record", "r.txt"])
    clock = cli._recording_clock(args)
    assert clock is not None and clock.microsecond == 0
    header = cli._recording_header("petitcom run p.txt", 9, " --speed dsi", clock)
    replay = header[2].split(" --clock ")[1].strip('"')
    assert cli.clock_arg(replay) == clock
    machine = Machine(headless=False, config=cli._config(), clock=clock)
    try:
        machine.frontend = HeadlessFrontend()
        assert machine.date == clock.strftime("%Y/%m/%d")
    finally:
        machine.close()
    plain = cli._parser().parse_args(["run", "p.txt"])
    assert cli._recording_clock(plain) is None  # a window not recording reads the host's clock
