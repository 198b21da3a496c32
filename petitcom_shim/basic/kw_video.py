"""Screen keywords: VISIBLE, ACLS, the BG, sprite, GRP, palette and CHR verbs."""

from __future__ import annotations

from typing import Any

from petitcom_shim.basic import numbers
from petitcom_shim.basic.bind import arg, bind_function, bind_statement, num, result, text
from petitcom_shim.basic.registry import Ref, Value, statement, sysvar
from petitcom_shim.basic.runtime import Runtime

for _name, _verb, _low, _high in (
    ("ACLS", "acls", 0, 0),
    ("BGPAGE", "bgpage", 1, 1),
    ("SPPAGE", "sppage", 1, 1),
    ("GPAGE", "gpage", 1, 3),
    ("BGPUT", "bgput", 4, 7),
    ("BGFILL", "bgfill", 6, 9),
    ("BGCLR", "bgclr", 0, 1),
    ("BGOFS", "bgofs", 3, 4),
    ("BGCOPY", "bgcopy", 7, 7),
    ("BGCLIP", "bgclip", 4, 4),
    ("SPSET", "spset", 6, 8),
    ("SPCLR", "spclr", 0, 1),
    ("SPOFS", "spofs", 3, 4),
    ("SPHOME", "sphome", 3, 3),
    ("SPCHR", "spchr", 2, 6),
    ("SPANIM", "spanim", 3, 4),
    ("SPANGLE", "spangle", 2, 4),
    ("SPSCALE", "spscale", 2, 3),
    ("SPSETV", "spsetv", 3, 3),
    ("SPCOL", "spcol", 5, 7),
    ("SPCOLVEC", "spcolvec", 3, 3),
    ("GCLS", "gcls", 0, 1),
    ("GCOLOR", "gcolor", 1, 1),
    ("GPSET", "gpset", 2, 3),
    ("GLINE", "gline", 4, 5),
    ("GBOX", "gbox", 4, 5),
    ("GFILL", "gfill", 4, 5),
    ("GCIRCLE", "gcircle", 3, 4),
    ("GPAINT", "gpaint", 2, 4),
    ("GPUTCHR", "gputchr", 6, 6),
    ("GPRIO", "gprio", 1, 1),
    ("GCOPY", "gcopy", 7, 8),
    ("GDRAWMD", "gdrawmd", 1, 1),
    ("COLSET", "colset", 3, 3),
    ("COLINIT", "colinit", 0, 2),
    ("CHRSET", "chrset", 3, 3),
    ("CHRINIT", "chrinit", 1, 1),
):
    bind_statement(_name, _verb, _low, _high)

for _name, _verb, _low, _high in (
    ("BGCHK", "bgchk", 1, 1),
    ("SPCHK", "spchk", 1, 1),
    ("SPGETV", "spgetv", 2, 2),
    ("SPHIT", "sphit", 1, 2),
    ("SPHITSP", "sphitsp", 2, 2),
    ("SPHITRC", "sphitrc", 5, 7),
    ("GSPOIT", "gspoit", 2, 3),
):
    bind_function(_name, _verb, _low, _high)


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
            from petitcom_shim.basic.errors import BasicError

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
    """BGREAD (layer,x,y),CHR,PAL,H,V, or BGREAD (layer,x,y),T$ for the 4-hex-digit word."""
    layer, x, y = (num(rt.value(a)) for a in args[:3])
    outs = args[3:]
    if len(outs) == 1 and getattr(outs[0], "is_string", False):
        _outputs(outs, (f"{rt.machine.bgreadw(layer, x, y):04X}",))
        return
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


@sysvar("SPHITNO")
def _sphitno(rt: Runtime) -> int:
    return numbers.from_int(rt.machine.sphitno)


@sysvar("SPHITX")
def _sphitx(rt: Runtime) -> int:
    return numbers.from_float(rt.machine.sphitx)


@sysvar("SPHITY")
def _sphity(rt: Runtime) -> int:
    return numbers.from_float(rt.machine.sphity)


@sysvar("SPHITT")
def _sphitt(rt: Runtime) -> int:
    return numbers.from_float(rt.machine.sphitt)


__all__ = ["arg"]
