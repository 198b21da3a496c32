"""The ``petitcom-qr`` command: QR images (``qr``) and Petit Computer QR sets (``ptcqr``).

The command line sits above both modules it drives, so that neither imports it
and neither imports the other's command code: ``qr`` (bytes <-> QR image) is the
bottom, ``ptcqr`` (a ``.PTC`` file <-> a set of codes) builds on it, and this
module builds on both. ``python -m petitcom_shim.qrcli`` is the same command.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from petitcom_shim import files, ptcfile, ptcqr
from petitcom_shim.cliargs import int_range
from petitcom_shim.qr import (
    MAX_BORDER,
    MAX_MODULE_PX,
    QUIET_ZONE,
    QRError,
    decode_image,
    encode_png,
)

__all__ = ["int_range", "main"]


def _hex_bytes(text: str) -> bytes:
    cleaned = "".join(text.split())
    try:
        return bytes.fromhex(cleaned)
    except ValueError as err:
        raise argparse.ArgumentTypeError(f"not an even-length hex string: {text!r}") from err


def _path_arg(text: str) -> Path:
    """argparse type of the paths: an empty string is refused (``Path("")`` would
    quietly mean the current folder)."""
    if not text:
        raise argparse.ArgumentTypeError("an empty path (write . for the current folder)")
    return Path(text)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="petitcom-qr",
        description="Encode bytes as a QR code PNG (byte mode, level M) or decode QR images.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    encode = commands.add_parser("encode", help="write a QR code PNG for hex bytes")
    encode.add_argument("--hex", required=True, type=_hex_bytes, help="payload as hex digits")
    encode.add_argument("-o", "--output", required=True, type=_path_arg, help="PNG file to write")
    encode.add_argument(
        "--module-px",
        type=int_range(1, MAX_MODULE_PX),
        default=8,
        help=f"pixels per module, 1-{MAX_MODULE_PX} (default 8)",
    )
    encode.add_argument(
        "--border",
        type=int_range(0, MAX_BORDER),
        default=QUIET_ZONE,
        help=f"quiet zone in modules, 0-{MAX_BORDER} (default {QUIET_ZONE})",
    )
    decode = commands.add_parser(
        "decode", help="print each image's QR payload as lowercase hex, one line per image"
    )
    decode.add_argument("images", nargs="+", type=_path_arg, metavar="IMAGE")
    to_qr = commands.add_parser(
        "to-qr", help="write a .PTC file as a Petit Computer QR set (PNG per code)"
    )
    to_qr.add_argument("file", type=_path_arg, metavar="FILE.PTC")
    to_qr.add_argument("-o", "--output", required=True, type=_path_arg, help="folder for the PNGs")
    from_qr = commands.add_parser(
        "from-qr", help="read a Petit Computer QR set (images or folders, any order) into a .PTC"
    )
    from_qr.add_argument("images", nargs="+", type=_path_arg, metavar="IMAGE_OR_FOLDER")
    from_qr.add_argument("-o", "--output", required=True, type=_path_arg, help=".PTC file to write")
    return parser


def _run_set_command(args: argparse.Namespace) -> int:
    """Run ``to-qr``/``from-qr``; errors are one line on stderr and exit status 1."""
    try:
        if args.command == "to-qr":
            file = ptcfile.read_file(args.file)
            try:
                paths = ptcqr.write_set(file, args.output)
            except FileExistsError:  # a file, FIFO or device where the folder should be
                print(f"petitcom-qr: {args.output}: not a folder", file=sys.stderr)
                return 1
            except OSError as err:
                print(f"petitcom-qr: {files.output_error(args.output, err)}", file=sys.stderr)
                return 1
            for path in paths:
                print(path, flush=True)
        else:
            file = ptcqr.read_set(args.images)
            try:
                files.write_output(args.output, file.to_bytes())
            except OSError as err:
                print(f"petitcom-qr: {files.output_error(args.output, err)}", file=sys.stderr)
                return 1
            note = sys.stderr if str(args.output) == "-" else sys.stdout  # keep stdout the file's
            print(f"{args.output}: {file.kind.name} file {file.name}", file=note, flush=True)
    except (QRError, ptcfile.PtcFileError, OSError) as err:
        print(f"petitcom-qr: {err}", file=sys.stderr)
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``petitcom-qr`` command line.

    Args:
        argv: Arguments without the program name; None = ``sys.argv[1:]``.

    Returns:
        0 on success; 1 if encoding failed or any image could not be decoded (the
        other images are still decoded), or standard output was closed early
        (``decode IMG | head -c 100``: one line on stderr, no traceback); 2 for
        bad usage.
    """
    try:
        status = _main(argv)
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's exit
        return status
    except BrokenPipeError:
        files.stdout_closed("petitcom-qr")
        return 1


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    if args.command in ("to-qr", "from-qr"):
        return _run_set_command(args)
    if args.command == "encode":
        try:
            encode_png(args.hex, args.output, module_px=args.module_px, border=args.border)
        except OSError as err:
            print(f"petitcom-qr: {files.output_error(args.output, err)}", file=sys.stderr)
            return 1
        except (QRError, ValueError) as err:
            print(f"petitcom-qr: {err}", file=sys.stderr)
            return 1
        return 0
    status = 0
    for path in args.images:
        try:
            payload = decode_image(path)
        except QRError as err:
            print(f"petitcom-qr: {err}", file=sys.stderr)
            status = 1
            continue
        print(payload.hex(), flush=True)
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
