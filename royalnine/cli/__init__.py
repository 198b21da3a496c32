"""The ``royalnine`` command: play (default), demo, score, hint, remote, kiosk, review.

Each subcommand lives in its own module of this package and registers itself through an
``add_parser(subparsers)`` function that sets ``func`` on its parser; this
module only wires them together, so adding a command is one line below.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

from royalnine import __version__

# name -> module defining add_parser(subparsers); imported lazily so `royalnine score`
# never loads pygame.
SUBCOMMANDS: dict[str, str] = {
    "score": "royalnine.cli.score",
    "hint": "royalnine.cli.hint",
    "play": "royalnine.cli.play",
    "demo": "royalnine.cli.demo",
    "remote": "royalnine.cli.remote",
    "kiosk": "royalnine.cli.kiosk",
    "review": "royalnine.cli.review",
}
DEFAULT_COMMAND = "play"


def path_arg(text: str) -> Path:
    """argparse type of every file and folder option: an empty string is refused
    (``Path("")`` would quietly mean the current folder)."""
    if not text:
        raise argparse.ArgumentTypeError("an empty path (write . for the current folder)")
    return Path(text)


def whole_number(text: str) -> int:
    """argparse type of every count, seed and number option: ASCII digits with an optional
    sign. Python's ``int`` also takes Arabic-Indic, full-width and other Unicode digits
    ("١٢", "１２") and underscores, which no number the game prints has."""
    body = text.strip()
    digits = body[1:] if body[:1] in "+-" else body
    if not (digits.isascii() and digits.isdigit()):
        raise argparse.ArgumentTypeError(f"not a whole number: {text[:20]!r}")
    return int(body)


def refuse(command: str, message: str, as_json: bool) -> int:
    """Report a refused command: one line on stderr and, with ``--json``, one JSON line
    ``{"ok": false, "error": MESSAGE}`` on stdout (as ``remote`` does); returns 1."""
    if as_json:
        print(json.dumps({"ok": False, "error": message}), flush=True)
    print(f"royalnine {command}: {message}", file=sys.stderr)
    return 1


class CliParser(argparse.ArgumentParser):
    """argparse's parser, remembering its last error so that a command run with ``--json``
    can print it as its one JSON line (subcommand parsers are of this class too)."""

    last_error: str | None = None

    def error(self, message: str) -> NoReturn:
        """Remember the error, then do as argparse does (usage on stderr, exit status 2)."""
        CliParser.last_error = f"{self.prog}: {message}"
        super().error(message)


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every subcommand that is installed."""
    parser = CliParser(
        prog="royalnine",
        description="Royal Nine, the 2013 Petit Computer card game. "
        "With no command, starts the game window.",
    )
    parser.add_argument("--version", action="version", version=f"royalnine {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_name in SUBCOMMANDS.values():
        module = importlib.import_module(module_name)
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``royalnine`` console script; returns the exit status.

    Standard output closed early (``royalnine score ... | head -c 10``) ends the
    command with one line on stderr and status 1, never a traceback.
    """
    try:
        status = _main(argv)
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's exit
        return status
    except BrokenPipeError:
        from petitcom_shim.files import stdout_closed

        stdout_closed("royalnine")
        return 1


def _main(argv: Sequence[str] | None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args_list = _home_after_command(args_list)
    if DEFAULT_COMMAND in SUBCOMMANDS and not _names_a_command(args_list):
        args_list = [DEFAULT_COMMAND, *args_list]
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:
        if exc.code not in (0, None) and "--json" in args_list:
            # a script asked for JSON: one JSON line, even for a usage error
            print(json.dumps({"ok": False, "error": CliParser.last_error or "bad arguments"}))
        raise
    func: Callable[[argparse.Namespace], int] | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    return func(args)


def _home_after_command(args: list[str]) -> list[str]:
    """``royalnine --home DIR COMMAND ...`` as ``royalnine COMMAND --home DIR ...``.

    ``--home`` belongs to the commands, but a data folder named first reads naturally
    and tools put it there (``royalnine --home DIR`` alone already starts the game),
    so a leading ``--home DIR`` (or ``--home=DIR``) is moved behind the command.
    """
    width = 1 if args[:1] and args[0].startswith("--home=") else 2 if args[:1] == ["--home"] else 0
    if width and len(args) > width and args[width] in SUBCOMMANDS:
        return [args[width], *args[:width], *args[width + 1 :]]
    return args


def _names_a_command(args: list[str]) -> bool:
    return any(arg in SUBCOMMANDS or arg in ("-h", "--help", "--version") for arg in args)
