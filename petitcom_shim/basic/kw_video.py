"""Screen keywords: VISIBLE, ACLS, the BG, sprite, GRP, palette and CHR verbs."""

from __future__ import annotations

from typing import Any

from petitcom_shim.basic.bind import bind_function, bind_statement, bind_sysvar, num, result, text
from petitcom_shim.basic.errors import BasicError
from petitcom_shim.basic.registry import Ref, Value, statement
from petitcom_shim.basic.runtime import Runtime

#: (keyword, min args, max args); each calls the Machine verb of the same name in
#: lower case. Functions (called with parentheses) return its result.
_STATEMENTS = (
    ("ACLS", 0, 0),
    ("BGPAGE", 1, 1),
    ("SPPAGE", 1, 1),
    ("GPAGE", 1, 3),
    ("BGPUT", 4, 7),
    ("BGFILL", 6, 9),
    ("BGCLR", 0, 1),
    ("BGOFS", 3, 4),
    ("BGCOPY", 7, 7),
    ("BGCLIP", 4, 4),
    ("SPSET", 6, 8),
    ("SPCLR", 0, 1),
    ("SPOFS", 3, 4),
    ("SPHOME", 3, 3),
    ("SPCHR", 2, 6),
    ("SPANIM", 3, 4),
    ("SPANGLE", 2, 4),
    ("SPSCALE", 2, 3),
    ("SPSETV", 3, 3),
    ("SPCOL", 5, 7),
    ("SPCOLVEC", 3, 3),
    ("GCLS", 0, 1),
    ("GCOLOR", 1, 1),
    ("GPSET", 2, 3),
    ("GLINE", 4, 5),
    ("GBOX", 4, 5),
    ("GFILL", 4, 5),
    ("GCIRCLE", 3, 6),
    ("GPAINT", 2, 4),
    ("GPUTCHR", 6, 6),
    ("GPRIO", 1, 1),
    ("GCOPY", 7, 8),
    ("GDRAWMD", 1, 1),
    ("COLSET", 3, 3),
    ("COLINIT", 0, 2),
    ("CHRSET", 3, 3),
    ("CHRINIT", 1, 1),
)
_FUNCTIONS = (
    ("BGCHK", 1, 1),
    ("SPCHK", 1, 1),
    ("SPGETV", 2, 2),
    ("SPHIT", 1, 2),
    ("SPHITSP", 2, 2),
    ("SPHITRC", 5, 7),
    ("GSPOIT", 2, 3),
)
for _name, _low, _high in _STATEMENTS:
    bind_statement(_name, _name.lower(), _low, _high)
for _name, _low, _high in _FUNCTIONS:
    bind_function(_name, _name.lower(), _low, _high)


@statement("VISIBLE", 6, 6)
def _visible(rt: Runtime, args: list[Value | None]) -> None:
    """VISIBLE console,panel,bg0,bg1,sprites,graphics; an empty argument keeps the layer."""
    flags: list[Any] = [None if a is None else bool(num(a)) for a in args]
    rt.machine.visible(*flags)


def _outputs(refs: list[Any], values: tuple[object, ...]) -> None:
    """Assign results to output arguments (which must be variables)."""
    for ref, value in zip(refs, values, strict=False):
        if ref is None:
            continue
        if not hasattr(ref, "set"):
            raise BasicError("Syntax error")
        out: Ref = ref
        out.set(result(value))


@statement("SPREAD", 3, 6, refs=True)
def _spread(rt: Runtime, args: list[Any]) -> None:
    """SPREAD id,X,Y[,angle,scale,chr] (also ``SPREAD(id),X,Y``)."""
    state = rt.machine.spread(num(rt.value(args[0])))
    _outputs(args[1:], tuple(state))


@statement("BGREAD", 4, 7, refs=True)
def _bgread(rt: Runtime, args: list[Any]) -> None:
    """BGREAD (layer,x,y),CHR,PAL,H,V; or one output: T, the tile word as a number, or
    T$, the same word as 4 hex digits ([SBS] docs-ptc-bgread: 18555 and "487B" for
    chr 123, palette 4, V flip). Two or three outputs are "Missing operand"."""
    layer, x, y = (num(rt.value(a)) for a in args[:3])
    outs = args[3:]
    if len(outs) == 1:
        word = rt.machine.bgreadw(layer, x, y)
        _outputs(outs, (f"{word:04X}" if getattr(outs[0], "is_string", False) else word,))
        return
    if len(outs) != 4:
        raise BasicError("Missing operand")
    _outputs(outs, rt.machine.bgread(layer, x, y))


@statement("COLREAD", 5, 5, refs=True)
def _colread(rt: Runtime, args: list[Any]) -> None:
    """COLREAD (kind,n),R,G,B."""
    kind = text(rt.value(args[0]))
    _outputs(args[2:], rt.machine.colread(kind, num(rt.value(args[1]))))


@statement("CHRREAD", 3, 3, refs=True)
def _chrread(rt: Runtime, args: list[Any]) -> None:
    """CHRREAD (res,n),T$."""
    res = text(rt.value(args[0]))
    _outputs(args[2:], (rt.machine.chrread(res, num(rt.value(args[1]))),))


for _name in ("SPHITNO", "SPHITX", "SPHITY", "SPHITT"):
    bind_sysvar(_name, _name.lower())
