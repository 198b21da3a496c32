"""The ``petitcom`` command: run Petit Computer programs, list and pack them, DIRECT mode.

The command line sits above both ``Machine`` and the interpreter: nothing
imports it (``python -m petitcom_shim.basic.cli`` is the same command). Its
contract is exact (issue 14; other tools rely on it)::

    petitcom run PROGRAM [--headless] [--frames N] [--input FILE] [--seed N]
                         [--files DIR] [--resources DIR] [--speed dsi|max]
                         [--console FILE] [--screenshot FILE] [--json]
    petitcom list FILE.PTC
    petitcom pack SOURCE.txt -o NAME.PTC
    petitcom                      DIRECT mode in a window

Exit status: 0 the program ended or was stopped (``--frames``), 1 it stopped
with an error, 2 bad usage or a file that cannot be read -- always with one
line on stderr, never a traceback (Ctrl+C in the terminal: 130). ``--json``
prints one line at exit::

    {"status": "ended"|"stopped"|"error", "frames": N,
     "error": "<PTC's message>"|null, "line": N|null}

(on one line).
``--console`` writes the upper console's 24 lines of 32 characters, a line
``#LOWER``, then the lower console's 24 lines
(:func:`petitcom_shim.basic.consoletext.console_text`).
Output files (``--console``, ``--screenshot``, ``pack -o``) are written
atomically and never replace anything but a regular file.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

import pygame

from petitcom_shim import files, ptcfile
from petitcom_shim.basic import Interpreter, RunResult, direct, kw_files, progfile
from petitcom_shim.basic.consoletext import console_text
from petitcom_shim.cliargs import int_range
from petitcom_shim.config import ShimConfig
from petitcom_shim.input import Button
from petitcom_shim.inputscript import ScriptError, ScriptFeeder, read_script
from petitcom_shim.machine import Machine
from petitcom_shim.romres import ResourceError

__all__ = ["main"]

PROG = "petitcom"
#: Keys that type (CHR$(13), CHR$(8)) and so are no DS buttons under this command.
_TYPING_KEYS = ("return", "enter", "backspace")
#: The key that shows or hides the stylus cursor (the shim's default, T, types here).
CURSOR_TOGGLE_KEY = "f9"
#: The most frames ``--frames`` takes: about 97 days of handheld time.
MAX_FRAMES = 500_000_000


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
  the lower screen    the touch screen: the software keyboard, its RUN/STOP key
                      (runs, or breaks a running program) and EDIT key
  F9                  shows or hides a stylus cursor: the d-pad moves it, A touches"""


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage block) and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


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
        "'FRAME K TEXT' (keys; \\r Enter, \\\\ backslash, \\xNN a PTC code); # comments",
    )
    run.add_argument("--seed", type=int_range(0, 2**31 - 1), metavar="N", help="RND's seed")
    _add_area_options(run)
    run.add_argument(
        "--speed",
        choices=("dsi", "max"),
        default="max",
        help="max: as fast as VSYNC/WAIT allow (default); dsi: the handheld's pace",
    )
    run.add_argument("--console", type=Path, metavar="FILE", help="write both consoles as text")
    run.add_argument("--screenshot", type=Path, metavar="FILE", help="write both screens as PNG")
    run.add_argument("--json", action="store_true", help="print the outcome as one JSON line")
    listing = commands.add_parser("list", help="print a program's source as UTF-8")
    listing.add_argument("file", type=Path, metavar="FILE.PTC")
    pack = commands.add_parser("pack", help="write UTF-8 source as a PRG file a DSi loads")
    pack.add_argument("source", type=Path, metavar="SOURCE.txt")
    pack.add_argument("-o", "--output", type=Path, required=True, metavar="NAME.PTC")
    direct_mode = commands.add_parser("direct", help="DIRECT mode in a window (the default)")
    _add_area_options(direct_mode)
    return parser


def _add_area_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--files", type=Path, metavar="DIR", help="save area (default: the program's folder)"
    )
    parser.add_argument(
        "--resources", type=Path, metavar="DIR", help="CHR/COL files extracted from your own PTC"
    )


# ------------------------------------------------------------------ outputs


def _check_output(path: Path) -> None:
    try:
        files.check_output(path)
    except OSError as err:
        raise UsageError(f"{path}: {err}; not replacing it") from None
    if not path.parent.is_dir():
        raise UsageError(f"{path}: the folder {path.parent} does not exist")


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


def make_machine(*, headless: bool, files_dir: Path, resources: Path | None, title: str) -> Machine:
    """A Machine for the command: its save area and the user's ROM resources (``--resources``).

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
        raise UsageError(f"{option} {folder}: not a folder") from None
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


def _run(args: argparse.Namespace) -> int:
    program = _read_program(args.program)
    events = []
    if args.input is not None:
        try:
            events = read_script(args.input)
        except ScriptError as err:
            raise UsageError(str(err)) from None
    for out in (args.console, args.screenshot):
        if out is not None:
            _check_output(out)
    files_dir = args.files if args.files is not None else args.program.resolve().parent
    if args.files is not None:
        _check_folder("--files", args.files)
    machine = make_machine(
        headless=args.headless,
        files_dir=files_dir,
        resources=args.resources,
        title=f"petitcom - {program.name}",
    )
    try:
        it = Interpreter(machine, speed=args.speed, seed=args.seed)
        machine.pnltype(direct.KEYBOARD)  # a program starts with the keyboard shown, as on PTC
        kw_files.set_program(it, program.name, program.text, program.package)
        if events:
            ScriptFeeder(events).attach(machine)
        result = it.run(max_frames=args.frames)
        if not args.headless and args.frames is None and machine.running:
            direct.after_run(it, result)
        if args.console is not None:
            text = console_text(machine)
            _write_output(args.console, lambda p: files.write_output(p, text.encode()))
        if args.screenshot is not None:
            _write_output(args.screenshot, machine.screenshot)
    finally:
        machine.close()
    if args.json:
        print(json.dumps(_outcome(result)), flush=True)
    elif result.status == "error":
        where = "" if result.line is None else f" (line {result.line})"
        print(f"{PROG}: {result.error}{where}", file=sys.stderr)
    return 1 if result.status == "error" else 0


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
    machine = make_machine(
        headless=False, files_dir=files_dir, resources=args.resources, title="petitcom"
    )
    try:
        direct.run(Interpreter(machine))
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
    args = _parser().parse_args(argv)
    command = args.command or "direct"
    if args.command is None:
        args.files = args.resources = None
    handlers = {"run": _run, "list": _list, "pack": _pack, "direct": _direct}
    try:
        return handlers[command](args)
    except UsageError as err:
        print(f"{PROG}: {err}", file=sys.stderr)
        return 2
    except pygame.error as err:  # no display to open a window on, most likely
        print(f"{PROG}: cannot open a window ({err}); use --headless", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `petitcom list X | head`, `petitcom run --json | true`
        # Point stdout at nothing so the interpreter's last flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        print(f"{PROG}: standard output was closed before all was written", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
