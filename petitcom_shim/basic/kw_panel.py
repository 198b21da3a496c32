"""BASIC keywords of the lower-screen panel: INPUT, LINPUT, PNLTYPE, PNLSTR, KEY,
FUNCNO, ICONSET, ICONCLR, ICONCHK, ICONPUSE, ICONPAGE, ICONPMAX (KEYBOARD is in kw_input).

Each is a thin call of the :class:`~petitcom_shim.Machine` verb of the same
name (docs/shim-api.md "Lower-screen panel and software keyboard"); INPUT and
LINPUT read their line with :meth:`~petitcom_shim.Machine.line_input`. How PTC
prompts, re-asks and cancels is in docs/petitcom-decisions.md "Panel and
keyboard" ([SBC] source/subsystem/console.c ``cmd_input``/``cmd_linput``).
"""

from __future__ import annotations

from petitcom_shim import charset
from petitcom_shim.basic import numbers
from petitcom_shim.basic.bind import bind_function, bind_statement, bind_sysvar, num
from petitcom_shim.basic.errors import BasicError
from petitcom_shim.basic.registry import Ref, Value, statement
from petitcom_shim.basic.runtime import Runtime

__all__: list[str] = []

#: RESULT after INPUT/LINPUT: TRUE when a line was entered, CANCEL when ESC ended it.
_ENTERED = numbers.from_int(1)
_CANCELLED = numbers.from_int(-1)
REDO = b"?Redo from start"


def _prompt_and_targets(args: list[Value | Ref | None], seps: list[str]) -> tuple[bytes, list[Ref]]:
    """Split INPUT/LINPUT's arguments into the prompt text (with its "?") and the variables.

    ``INPUT "text";A`` prompts "text?"; ``INPUT "text",A`` prompts "text" alone;
    ``INPUT A`` prompts "?" ([SBC] ``con_prompt``; the "," form is ours, ⚠).
    """
    prompt = b"?"
    first = args[0] if args else None
    if isinstance(first, bytes) and len(args) >= 2:
        prompt = first + (b"?" if seps[0] == ";" else b"")
        args = args[1:]
    targets: list[Ref] = []
    for arg in args:
        if arg is None or isinstance(arg, int | bytes):
            raise BasicError("Syntax error")
        targets.append(arg)
    if not targets:
        raise BasicError("Missing operand")
    return prompt, targets


def _ask(rt: Runtime, prompt: bytes) -> bytes | None:
    """Show the prompt, then read a line on the next console line (None: cancelled).

    At the run's frame limit or when the window closes the program stops at this
    statement, so CONT asks again.
    """
    machine = rt.machine
    machine.print(prompt, end="")
    if machine.csrx:
        machine.print()
    left = None if rt.max_frames is None else max(rt.max_frames - rt.frames(), 0)
    line = machine.line_input(timeout=left)
    if line is not None:
        return charset.to_ptc(line, errors="replace")
    if not machine.running or (rt.max_frames is not None and rt.frames() >= rt.max_frames):
        rt.stop(rt.resume)
    return None


def _parse_fields(line: bytes, targets: list[Ref]) -> list[Value] | None:
    """The values of INPUT's comma-separated fields, or None to ask again."""
    fields = line.split(b",")
    if len(fields) != len(targets):
        return None
    values: list[Value] = []
    for field, target in zip(fields, targets, strict=True):
        if target.is_string:
            values.append(field)
            continue
        text = field.strip(b" ")
        raw, used = numbers.parse(text) if text else (0, 0)
        if not text or used != len(text):
            return None
        values.append(raw)
    return values


@statement("INPUT", 1, refs=True, seps=True)
def _input(rt: Runtime, args: list[Value | Ref | None], seps: list[str]) -> None:
    """INPUT ["prompt";]var[,var...]: ask until the line has one valid value per variable."""
    prompt, targets = _prompt_and_targets(args, seps)
    while True:
        line = _ask(rt, prompt)
        if line is None:
            rt.result = _CANCELLED
            return
        values = _parse_fields(line, targets)
        if values is not None:
            break
        rt.machine.print(REDO)
    for target, value in zip(targets, values, strict=True):
        target.set(value)
    rt.result = _ENTERED


@statement("LINPUT", 1, refs=True, seps=True)
def _linput(rt: Runtime, args: list[Value | Ref | None], seps: list[str]) -> None:
    """LINPUT ["prompt";]var$: the whole line, commas and all, into one string."""
    prompt, targets = _prompt_and_targets(args, seps)
    if len(targets) != 1 or not targets[0].is_string:
        raise BasicError("Type mismatch")
    line = _ask(rt, prompt)
    if line is None:
        rt.result = _CANCELLED
        return
    targets[0].set(line)
    rt.result = _ENTERED


bind_statement("PNLTYPE", "pnltype", 1, 1)
bind_statement("ICONSET", "iconset", 2, 2)
bind_statement("ICONCLR", "iconclr", 0, 1)
bind_function("ICONCHK", "iconchk", 0, 0)


def _ptc_text(value: Value | None) -> str:
    """A string argument in the PTC character set (kana and symbols kept)."""
    if not isinstance(value, bytes):
        raise BasicError("Type mismatch" if value is not None else "Missing operand")
    return charset.from_ptc(value)


@statement("PNLSTR", 3, 4)
def _pnlstr(rt: Runtime, args: list[Value | None]) -> None:
    """PNLSTR x,y,"text"[,c]: text on the panel's own layer."""
    colour = num(args[3], 0) if len(args) > 3 else 0
    rt.machine.pnlstr(num(args[0]), num(args[1]), _ptc_text(args[2]), colour)


@statement("KEY", 2, 2)
def _key(rt: Runtime, args: list[Value | None]) -> None:
    """KEY n,"text": what function key n types."""
    rt.machine.key(num(args[0]), _ptc_text(args[1]))


def _set_iconpuse(rt: Runtime, value: Value) -> None:
    rt.machine.iconpuse = num(value) != 0


def _set_iconpage(rt: Runtime, value: Value) -> None:
    rt.machine.iconpage = num(value)


def _set_iconpmax(rt: Runtime, value: Value) -> None:
    rt.machine.iconpmax = num(value)


bind_sysvar("FUNCNO", "funcno")
bind_sysvar("ICONPUSE", "iconpuse", _set_iconpuse)
bind_sysvar("ICONPAGE", "iconpage", _set_iconpage)
bind_sysvar("ICONPMAX", "iconpmax", _set_iconpmax)
