"""The ``petitcom`` command: run Petit Computer programs, list and pack them, DIRECT mode.

The command line sits above both ``Machine`` and the interpreter: nothing
imports it (``python -m petitcom_shim.basic.cli`` is the same command). Its
contract is exact (issue 14; other tools rely on it)::

    petitcom run PROGRAM [--headless] [--frames N] [--input FILE] [--seed N]
                         [--files DIR] [--resources DIR] [--speed dsi|max]
                         [--console FILE] [--screenshot FILE] [--json]
                         [--record FILE] [--profile] [--capture FILE]
                         [--captures DIR] [--clock "YYYY/MM/DD HH:MM:SS"]
    petitcom debug PROGRAM [--headless] [--frames N] [--input FILE] [--seed N]
                           [--files DIR] [--resources DIR] [--speed dsi|max]
                           [--clock "YYYY/MM/DD HH:MM:SS"]
    petitcom list FILE.PTC
    petitcom pack SOURCE.txt -o NAME.PTC
    petitcom                      DIRECT mode in a window
    petitcom direct [--files DIR] [--resources DIR] [--record FILE]
                    [--input FILE --headless] [--console FILE] [--screenshot FILE]
                    [--clock "YYYY/MM/DD HH:MM:SS"]

``--record FILE`` (in a window) writes what the player did, by frame, in the
``--input`` format (:class:`~petitcom_shim.inputscript.ScriptRecorder`); the
same program run with ``--input FILE --headless`` (at ``--speed dsi``, which
``--record`` implies, and the same ``--seed``) ends with the same console, screens
and frame count. ``--profile`` prints the lines that took the most work and time
(on stdout; on stderr with ``--json``). ``debug`` runs the program under a
pdb-style prompt on the terminal (:mod:`petitcom_shim.basic.debugger`).
``--capture FILE`` writes both screens of the run as an animated GIF (``.gif``)
or PNG (``.png``) (:mod:`petitcom_shim.capture`); in a window F12 saves a PNG of
both screens and F10 starts and stops a GIF, in ``--captures DIR`` (default: the
current folder). ``--clock`` starts DATE$ and TIME$ at a given moment, advancing a
second every 60 frames; headless the clock starts at 2000/01/01 00:00:00 unless
given, and a recording gives its own start in its header, so no run that can be
replayed reads the host's clock.

Exit status: 0 the program ended or was stopped (``--frames``), 1 it stopped
with an error, 2 bad usage or a file that cannot be read -- always with one
line on stderr, never a traceback (Ctrl+C in the terminal: 130). ``--json``
prints one line at exit::

    {"status": "ended"|"stopped"|"error", "frames": N,
     "error": "<PTC's message>"|null, "line": N|null}

(on one line). When the run never starts (bad usage or an unreadable file,
exit status 2) that line is ``{"status": "usage", "frames": null, "error":
"<the one-line message>", "line": null}``.
``--console`` writes the upper console's 24 lines of 32 characters, a line
``#LOWER``, then the lower console's 24 lines
(:func:`petitcom_shim.basic.consoletext.console_text`).
Output files (``--console``, ``--screenshot``, ``pack -o``) follow the one
rule of :func:`petitcom_shim.files.check_output_path`: a regular file is
replaced atomically, a FIFO or device written into, nothing else replaced;
``-`` is a file named ``-`` in the current folder (stdout is for ``--json``).
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import pygame

from petitcom_shim import files, ptcfile
from petitcom_shim.basic import Interpreter, RunResult, kw_files, progfile
from petitcom_shim.basic.consoletext import console_text
from petitcom_shim.cliargs import int_range
from petitcom_shim.config import ShimConfig
from petitcom_shim.input import Button
from petitcom_shim.machine import Machine
from petitcom_shim.romres import ResourceError

# What only some runs need is imported where it is used, so that a headless ``run``
# starts without it (tests/test_petitcom_speed.py keeps it so): ``capture``
# (--capture, a window's F10/F12), ``inputscript`` (--input, --record), ``direct``
# (DIRECT mode, a window after its run), ``debugger`` (debug, --profile), ``json``
# (--json).
if TYPE_CHECKING:
    from petitcom_shim import capture
    from petitcom_shim.inputscript import Event, ScriptRecorder

__all__ = ["main"]

PROG = "petitcom"
#: Keys that type (CHR$(13), CHR$(8)) and so are no DS buttons under this command.
_TYPING_KEYS = ("return", "enter", "backspace")
#: The key that shows or hides the stylus cursor (the shim's default, T, types here).
CURSOR_TOGGLE_KEY = "f9"
#: The most frames ``--frames`` takes: about 97 days of handheld time.
MAX_FRAMES = 500_000_000
#: How ``--clock`` and a recording's header write a moment (DATE$ "/" TIME$).
CLOCK_FORMAT = "%Y/%m/%d %H:%M:%S"
_CLOCK = re.compile(r"20\d\d/\d\d/\d\d \d\d:\d\d:\d\d", re.ASCII)
#: The longest --capture, for its help: :data:`petitcom_shim.capture.MAX_SECONDS` (a test
#: checks they agree), written here so that building the parser does not import capture.
CAPTURE_SECONDS = 30
#: The panel a program starts with: :data:`petitcom_shim.basic.direct.KEYBOARD`, the
#: keyboard (a test checks they agree; here so that a run does not import DIRECT mode).
KEYBOARD = "KYA"


class UsageError(Exception):
    """Bad usage or an unreadable file: one line, exit status 2."""


#: The keys of a window, shown by --help (README.md has the full map).
KEYS_HELP = """\
keys in a window:
  Esc or Right Shift  SELECT: breaks a running program (as on PTC, where only
                      SELECT is reserved: START is a button programs read with
                      BUTTON); CONT goes on. Also leaves the editor.
  Right Ctrl          START
  arrows; X Z S A Q W the d-pad; A B X Y L R (these letters also type)
  typing, Enter, Backspace  the keyboard (INKEY$, INPUT, the DIRECT prompt)
  Delete Insert Home End    edit the prompt's line and the editor (Ctrl+Z undoes
                      in the editor); Up/Down at the prompt reach another line
  F1-F5               the keyboard's function keys (FILES LOAD" SAVE" CONT RUN)
  the lower screen    the touch screen: the software keyboard, its RUN/STOP key
                      (runs, or breaks a running program) and EDIT key
  F9                  shows or hides a stylus cursor: the d-pad moves it, A touches
  F12                 saves a PNG of both screens (256x384; Shift+F12: at the
                      window's scale) in --captures DIR (default: this folder)
  F10                 starts and stops recording both screens as a GIF there
                      (a red dot shows while it records; at most 30 s)"""


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage block) and exit status 2; the last error
    is kept for ``run --json``'s one JSON line."""

    last_error: str | None = None

    def error(self, message: str) -> NoReturn:
        _Parser.last_error = f"{self.prog}: error: {message}"
        self.exit(2, f"{self.prog}: error: {message}\n")


def _print_usage_json(message: str) -> None:
    """``run --json``'s one line when the run never started (bad usage, an unreadable
    file): the outcome's fields, with status "usage" (exit status 2)."""
    import json

    doc = {"status": "usage", "frames": None, "error": message, "line": None}
    print(json.dumps(doc), flush=True)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Run Petit Computer (SmileBASIC v2) programs. Without a command: DIRECT mode.",
        epilog=KEYS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", parser_class=_Parser)
    run = commands.add_parser("run", help="run a program (.PTC, raw PRG, QR set or UTF-8 text)")
    run.add_argument(
        "program",
        type=Path,
        metavar="PROGRAM",
        help="a .PTC file, a raw PRG, a QR set (folder or image) or UTF-8 text",
    )
    run.add_argument("--headless", action="store_true", help="no window")
    run.add_argument(
        "--frames", type=int_range(0, MAX_FRAMES), metavar="N", help="stop after N frames"
    )
    run.add_argument(
        "--input",
        type=Path,
        metavar="FILE",
        help="scripted input, one event a line from frame FRAME on: 'FRAME B A+RIGHT' "
        "(buttons; 'B 0' releases), 'FRAME T X Y' / 'FRAME T OFF' (stylus), "
        "'FRAME K TEXT' (keys; \\r Enter, \\b Backspace, \\e Escape, \\\\ backslash, "
        "\\xNN a PTC code), 'FRAME Q' (the window closes); # comments",
    )
    run.add_argument("--seed", type=int_range(0, 2**31 - 1), metavar="N", help="RND's seed")
    _add_area_options(run)
    run.add_argument(
        "--speed",
        choices=("dsi", "max"),
        help="dsi: the handheld's pace, frames passing by work (a run is reproducible, "
        "in a window too); max (default): headless, a handheld eight times as fast, frames "
        "passing by work; in a window, the host's full speed, MAINCNTL following the clock",
    )
    run.add_argument(
        "--console",
        type=Path,
        metavar="FILE",
        help="write both consoles as UTF-8 text (FILE - is a file named -, not stdout)",
    )
    run.add_argument(
        "--screenshot",
        type=Path,
        metavar="FILE",
        help="write both screens as PNG (FILE - is a file named -, not stdout)",
    )
    run.add_argument("--json", action="store_true", help="print the outcome as one JSON line")
    run.add_argument(
        "--record",
        type=Path,
        metavar="FILE",
        help="in a window: write the buttons, stylus and keys of the run by frame, in the "
        "--input format (implies --speed dsi); replay with --input FILE --headless",
    )
    run.add_argument(
        "--capture",
        type=Path,
        metavar="FILE",
        help="write both screens of the run as an animated .gif or .png "
        f"(every second frame, at most {CAPTURE_SECONDS} s)",
    )
    _add_captures_option(run)
    _add_clock_option(run)
    run.add_argument(
        "--profile",
        action="store_true",
        help="print the lines that took the most work (frames of budget) and time",
    )
    debug = commands.add_parser(
        "debug",
        help="run a program under a debugger prompt on the terminal (help lists its commands)",
    )
    debug.add_argument("program", type=Path, metavar="PROGRAM", help="as for run")
    debug.add_argument("--headless", action="store_true", help="no window")
    debug.add_argument(
        "--frames", type=int_range(0, MAX_FRAMES), metavar="N", help="stop after N frames"
    )
    debug.add_argument("--input", type=Path, metavar="FILE", help="scripted input, as for run")
    debug.add_argument("--seed", type=int_range(0, 2**31 - 1), metavar="N", help="RND's seed")
    _add_area_options(debug)
    debug.add_argument(
        "--speed", choices=("dsi", "max"), default="dsi", help="as for run (default: dsi)"
    )
    _add_clock_option(debug)
    listing = commands.add_parser("list", help="print a program's source as UTF-8")
    listing.add_argument("file", type=Path, metavar="FILE.PTC")
    pack = commands.add_parser("pack", help="write UTF-8 source as a PRG file a DSi loads")
    pack.add_argument("source", type=Path, metavar="SOURCE.txt")
    pack.add_argument("-o", "--output", type=Path, required=True, metavar="NAME.PTC")
    direct_mode = commands.add_parser("direct", help="DIRECT mode in a window (the default)")
    _add_area_options(direct_mode)
    direct_mode.add_argument(
        "--record", type=Path, metavar="FILE", help="write the session's input by frame"
    )
    _add_captures_option(direct_mode)
    _add_clock_option(direct_mode)
    direct_mode.add_argument(
        "--input", type=Path, metavar="FILE", help="play a recorded session (ends with it)"
    )
    direct_mode.add_argument("--headless", action="store_true", help="no window (needs --input)")
    direct_mode.add_argument(
        "--console",
        type=Path,
        metavar="FILE",
        help="write both consoles as text at the end (FILE - is a file named -, not stdout)",
    )
    direct_mode.add_argument(
        "--screenshot",
        type=Path,
        metavar="FILE",
        help="write both screens as PNG at the end (FILE - is a file named -, not stdout)",
    )
    return parser


def clock_arg(text: str) -> datetime.datetime:
    """``--clock``: "YYYY/MM/DD HH:MM:SS" in ASCII digits, a year of the DS clock (2000-2099)."""
    if not _CLOCK.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{text!r} is not YYYY/MM/DD HH:MM:SS (ASCII digits)")
    try:
        return datetime.datetime.strptime(text, CLOCK_FORMAT)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a real date and time") from None


def _add_clock_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--clock",
        type=clock_arg,
        metavar='"YYYY/MM/DD HH:MM:SS"',
        help="DATE$ and TIME$ at the first frame, a second every 60 frames after (headless "
        "default: 2000/01/01 00:00:00; in a window the host's clock, unless recording)",
    )


def _add_captures_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--captures",
        type=Path,
        metavar="DIR",
        help="where F12 (a PNG of both screens) and F10 (a GIF) put captures "
        "(default: the current folder)",
    )


def _capturer(args: argparse.Namespace, machine: Machine) -> capture.Capturer | None:
    """The capture keys of a window (F12, F10), or None headless."""
    if machine.headless:
        return None
    from petitcom_shim import capture

    folder = args.captures if args.captures is not None else Path.cwd()
    capturer = capture.Capturer(folder, lambda text: print(f"{PROG}: {text}", file=sys.stderr))
    capturer.attach(machine)
    return capturer


def _add_area_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--files", type=Path, metavar="DIR", help="save area (default: the program's folder)"
    )
    parser.add_argument(
        "--resources", type=Path, metavar="DIR", help="CHR/COL files extracted from your own PTC"
    )


# ------------------------------------------------------------------ outputs


def _check_output(path: Path) -> None:
    """Refuse, before the run, an output path the project's rule would not write
    (:func:`petitcom_shim.files.check_output_path`)."""
    try:
        files.check_output_path(path.absolute())
    except OSError as err:
        raise UsageError(files.output_error(path, err)) from None


def _write_output(path: Path, write: Callable[[Path], object]) -> None:
    """Run ``write`` on ``path`` (atomic through ``files.write_output``), as a one-line error.

    ``write`` gets the absolute path, so a file named ``-`` is a file, not stdout.

    Raises:
        UsageError: ``path`` is no regular file, or it or its folder cannot be written.
    """
    _check_output(path)
    try:
        write(path.absolute())
    except OSError as err:
        raise UsageError(f"{files.output_error(path, err)}; not written") from None


# ------------------------------------------------------------------ run


def _config() -> ShimConfig:
    """Key bindings for PTC programs: Enter and Backspace type, so they are no buttons;
    START moves to Right Ctrl (beside the arrows, as SELECT's Right Shift is)."""
    config = ShimConfig()
    config.keys = {k: v for k, v in config.keys.items() if k not in _TYPING_KEYS}
    config.keys["right ctrl"] = Button.START
    # The shim's default, T, types here: every T typed at the prompt or into INKEY$
    # would show or hide the stylus cursor, and A (the X key) then taps the lower
    # screen, so "NEXT" could come out as "NEXHT".
    config.cursor_toggle_key = CURSOR_TOGGLE_KEY
    return config


def make_machine(
    *,
    headless: bool,
    files_dir: Path,
    resources: Path | None,
    title: str,
    clock: datetime.datetime | None = None,
) -> Machine:
    """A Machine for the command: its save area and the user's ROM resources (``--resources``).

    ``clock`` starts DATE$/TIME$ (``Machine(clock=...)``); None headless is the
    machine's fixed start, None in a window the host's clock.

    Raises:
        UsageError: the resources folder is missing or holds a bad file, or a
            window is asked for and there is no display to show it on.
    """
    if resources is not None:
        _check_folder("--resources", resources)
    try:
        machine = Machine(
            headless=headless,
            files=files_dir,
            title=title,
            config=_config(),
            resources=resources,
            clock=clock,
        )
    except ResourceError as err:
        raise UsageError(f"--resources: {err}") from None
    if not headless and _invisible():
        machine.close()
        raise UsageError(
            "no display to open a window on (is DISPLAY or WAYLAND_DISPLAY set?); use --headless"
        )
    return machine


def _check_folder(option: str, folder: Path) -> None:
    """``folder`` (given with ``option``) is a folder that can be looked into.

    Raises:
        UsageError: it is no folder, or it cannot be reached (a folder on its way
            cannot be read, its name is too long, a loop of links...).
    """
    try:
        os.scandir(folder).close()
    except NotADirectoryError:
        raise UsageError(f"{option} {folder}: not a folder") from None
    except FileNotFoundError:
        if os.path.lexists(folder):  # a link to nothing
            raise UsageError(f"{option} {folder}: not a folder") from None
        raise UsageError(f"{option} {folder}: no such folder (it is missing)") from None
    except OSError as err:
        raise UsageError(f"{option} {folder}: cannot be read ({err.strerror or err})") from None


def _invisible() -> bool:
    """SDL fell back, by itself, to a video driver that shows nothing (no display was found).

    Without this a window-mode run on a machine with no display would go on
    in an invisible window that no one can close (DIRECT mode never ends).
    A driver the user chose with ``SDL_VIDEODRIVER`` (tests, CI) is kept.
    """
    return (
        not os.environ.get("SDL_VIDEODRIVER")
        and pygame.display.get_init()
        and pygame.display.get_driver() in ("offscreen", "dummy")
    )


def _outcome(result: RunResult) -> dict[str, object]:
    return {
        "status": result.status,
        "frames": result.frames,
        "error": result.error if result.status == "error" else None,
        "line": result.line if result.status == "error" else None,
    }


def _read_events(path: Path | None) -> list[Event]:
    if path is None:
        return []
    from petitcom_shim.inputscript import ScriptError, read_script

    try:
        return read_script(path)
    except ScriptError as err:
        raise UsageError(str(err)) from None


def _feed(machine: Machine, events: list[Event], *, close_at_end: bool = False) -> None:
    """Play scripted input (``--input``) into ``machine`` (:class:`ScriptFeeder`)."""
    from petitcom_shim.inputscript import ScriptFeeder

    ScriptFeeder(events, close_at_end=close_at_end).attach(machine)


def _run_speed(args: argparse.Namespace) -> str:
    """--speed, checked against --record (a recording replays at dsi only)."""
    if args.record is None:
        return str(args.speed or "max")
    if args.headless:
        raise UsageError("--record needs a window; replay a recording with --input FILE --headless")
    if args.input is not None:
        raise UsageError("--record and --input together: record a session or replay one")
    if args.speed == "max":
        raise UsageError(
            "--record needs --speed dsi: at max a window follows the wall clock, "
            "so a replay could differ"
        )
    return "dsi"


def _recording_clock(args: argparse.Namespace) -> datetime.datetime | None:
    """The clock a session starts with: ``--clock``, or now when it is recorded.

    A recording's DATE$/TIME$ advance by frames from a start its header gives,
    so the replay reads the same times however fast the window ran.
    """
    if args.clock is not None or args.record is None:
        return args.clock  # type: ignore[no-any-return]
    return datetime.datetime.now().replace(microsecond=0)


def _recording_header(
    command: str, seed: int | None, speed: str, clock: datetime.datetime | None = None
) -> list[str]:
    """The comment lines a recording starts with: what it is and how to replay it."""
    seed_text = "" if seed is None else f" --seed {seed}"
    clock_text = "" if clock is None else f' --clock "{clock.strftime(CLOCK_FORMAT)}"'
    return [
        "petitcom recording, the --input format: FRAME B buttons | T X Y / T OFF stylus |",
        "K keys | Q the window closed. Frames pass by work (--speed dsi), so replay with:",
        f"  {command} --input THIS_FILE --headless{speed}{seed_text}{clock_text}",
        f"seed: {'none (RND starts the same every run)' if seed is None else seed}",
    ]


def _write_text(path: Path | None, text: str) -> None:
    if path is not None:
        _write_output(path, lambda p: files.write_output(p, text.encode()))


def _write_screens(args: argparse.Namespace, machine: Machine) -> None:
    """--console and --screenshot, as the run or the session leaves the machine."""
    if args.console is not None:
        _write_text(args.console, console_text(machine))
    if args.screenshot is not None:
        _write_output(args.screenshot, machine.screenshot)


def _run(args: argparse.Namespace) -> int:
    program = _read_program(args.program)
    speed = _run_speed(args)
    events = _read_events(args.input)
    for out in (args.console, args.screenshot, args.record, args.capture):
        if out is not None:
            _check_output(out)
    if args.capture is not None:
        from petitcom_shim import capture

        if capture.animation_kind(args.capture) is None:
            raise UsageError(f"--capture {args.capture}: the name must end in .gif or .png")
    if args.captures is not None and not args.captures.is_dir():
        raise UsageError(f"--captures {args.captures}: not a folder")
    files_dir = args.files if args.files is not None else args.program.resolve().parent
    if args.files is not None:
        _check_folder("--files", args.files)
    clock = _recording_clock(args)
    machine = make_machine(
        headless=args.headless,
        files_dir=files_dir,
        resources=args.resources,
        title=f"petitcom - {program.name}",
        clock=clock,
    )
    recorder: ScriptRecorder | None = None
    try:
        capturer = _capturer(args, machine)
        if args.capture is not None:  # the whole run, from its first frame
            if capturer is None:
                from petitcom_shim import capture

                capturer = capture.Capturer(Path.cwd(), print, keys=False)
                capturer.attach(machine)
            capturer.start()
        it = Interpreter(machine, speed="dsi" if speed == "dsi" else "max", seed=args.seed)
        machine.pnltype(KEYBOARD)  # a program starts with the keyboard shown, as on PTC
        kw_files.set_program(it, program.name, program.text, program.package)
        if events:
            _feed(machine, events)
        if args.record is not None:
            from petitcom_shim.inputscript import ScriptRecorder

            header = _recording_header(
                f"{PROG} run {args.program}", args.seed, " --speed dsi", clock
            )
            recorder = ScriptRecorder([*header, f"program: {program.name}"])
            recorder.attach(machine)
        if args.profile:
            # imported here: a plain run never needs the debugger's module
            from petitcom_shim.basic.debugger import profile_run

            result, profile = profile_run(it, lambda: it.run(max_frames=args.frames))
            print(profile.report(program.text), file=sys.stderr if args.json else sys.stdout)
        else:
            result = it.run(max_frames=args.frames)
        if recorder is not None:  # the recording is of the run; DIRECT mode after it is not
            _write_text(args.record, recorder.finish())
            recorder = None
        if args.capture is not None and capturer is not None:
            _write_animation(args.capture, capturer)
        if not args.headless and args.frames is None and machine.running:
            from petitcom_shim.basic import direct

            direct.after_run(it, result)
        _write_screens(args, machine)
    finally:
        if recorder is not None:  # interrupted: keep what was recorded
            _write_text(args.record, recorder.finish())
        machine.close()
    if args.json:
        import json

        print(json.dumps(_outcome(result)), flush=True)
    elif result.status == "error":
        where = "" if result.line is None else f" (line {result.line})"
        print(f"{PROG}: {result.error}{where}", file=sys.stderr)
    return 1 if result.status == "error" else 0


def _write_animation(path: Path, capturer: capture.Capturer) -> None:
    """--capture: the run's animation, with a note on stderr when the cap cut it short."""
    animation = capturer.finish()
    if animation is None:
        return
    from petitcom_shim import capture

    kind = capture.animation_kind(path) or "gif"
    _write_output(path, lambda p: files.write_output(p, animation.encode(kind)))
    if animation.full:
        print(
            f"{PROG}: --capture {path}: the first {animation.seconds:.1f} s only "
            f"(at most {capture.MAX_SECONDS} s, {capture.MAX_DISTINCT} different frames "
            f"or {capture.MAX_BYTES >> 20} MB of them)",
            file=sys.stderr,
        )


def _debug(args: argparse.Namespace) -> int:
    program = _read_program(args.program)
    events = _read_events(args.input)
    files_dir = args.files if args.files is not None else args.program.resolve().parent
    if args.files is not None:
        _check_folder("--files", args.files)
    machine = make_machine(
        headless=args.headless,
        files_dir=files_dir,
        resources=args.resources,
        title=f"petitcom debug - {program.name}",
        clock=args.clock,
    )
    try:
        it = Interpreter(machine, speed="max" if args.speed == "max" else "dsi", seed=args.seed)
        machine.pnltype(KEYBOARD)
        kw_files.set_program(it, program.name, program.text, program.package)
        if events:
            _feed(machine, events)
        from petitcom_shim.basic.debugger import Debugger  # only `petitcom debug` needs it

        result = Debugger(it, sys.stdin, sys.stdout, args.frames).session()
    finally:
        machine.close()
    return 1 if result is not None and result.status == "error" else 0


def _read_program(path: Path) -> progfile.Program:
    try:
        return progfile.read_program(path)
    except progfile.ProgramError as err:
        raise UsageError(str(err)) from None


# ------------------------------------------------------------------ list, pack, direct


def _list(args: argparse.Namespace) -> int:
    program = _read_program(args.file)
    sys.stdout.write(progfile.source_text(program.text))
    sys.stdout.flush()
    return 0


def _pack(args: argparse.Namespace) -> int:
    program = _read_program(args.source)
    name = progfile.name_from(args.output)
    file = ptcfile.PtcFile.of(name, "PRG", ptcfile.prg_payload(program.text))
    _write_output(args.output, lambda p: files.write_output(p, file.to_bytes()))
    print(f"{args.output}: PRG file {name}, {len(program.text)} bytes of program", flush=True)
    return 0


def _direct(args: argparse.Namespace) -> int:
    files_dir = args.files if args.files is not None else Path.cwd()
    _check_folder("--files", files_dir)
    if args.headless and args.input is None:
        raise UsageError("DIRECT mode --headless needs --input FILE (it ends with the recording)")
    if args.record is not None and (args.headless or args.input is not None):
        raise UsageError("--record needs a window and no --input: record a session or replay one")
    events = _read_events(args.input)
    for out in (args.console, args.screenshot, args.record):
        if out is not None:
            _check_output(out)
    clock = _recording_clock(args)
    machine = make_machine(
        headless=args.headless,
        files_dir=files_dir,
        resources=args.resources,
        title="petitcom",
        clock=clock,
    )
    if args.captures is not None and not args.captures.is_dir():
        raise UsageError(f"--captures {args.captures}: not a folder")
    recorder: ScriptRecorder | None = None
    try:
        _capturer(args, machine)
        if args.input is not None:
            _feed(machine, events, close_at_end=True)
        if args.record is not None:
            from petitcom_shim.inputscript import ScriptRecorder

            recorder = ScriptRecorder(_recording_header(f"{PROG} direct", None, "", clock))
            recorder.attach(machine)
        try:
            # A session recorded or replayed runs at dsi: frames pass by work in a window too.
            scripted = args.record is not None or args.input is not None
            from petitcom_shim.basic import direct

            direct.run(Interpreter(machine, speed="dsi" if scripted else "max"))
        finally:
            if recorder is not None:
                _write_text(args.record, recorder.finish())
        _write_screens(args, machine)
    finally:
        machine.close()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``petitcom`` command line.

    Args:
        argv: Arguments without the program name; None = ``sys.argv[1:]``.

    Returns:
        0 ended or stopped, 1 a program error, 2 bad usage or an unreadable file.
    """
    arguments = list(sys.argv[1:] if argv is None else argv)
    as_json = arguments[:1] == ["run"] and "--json" in arguments
    try:
        args = _parser().parse_args(arguments)
    except SystemExit as exc:
        if exc.code not in (0, None) and as_json:
            _print_usage_json(_Parser.last_error or "bad arguments")
        raise
    command = args.command or "direct"
    if args.command is None:
        args.files = args.resources = args.record = args.input = None
        args.console = args.screenshot = args.captures = args.clock = None
        args.headless = False
    handlers = {"run": _run, "debug": _debug, "list": _list, "pack": _pack, "direct": _direct}
    try:
        return handlers[command](args)
    except UsageError as err:
        if as_json:
            _print_usage_json(str(err))
        print(f"{PROG}: {err}", file=sys.stderr)
        return 2
    except pygame.error as err:  # no display to open a window on, most likely
        message = f"cannot open a window ({err}); use --headless"
        if as_json:
            _print_usage_json(message)
        print(f"{PROG}: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `petitcom list X | head`, `petitcom run --json | true`
        files.stdout_closed(PROG)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
