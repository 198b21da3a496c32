"""The keyword registry: how a module adds a statement, function or system variable.

The language itself (PRINT, IF, FOR, GOTO, DIM, the maths and string
functions...) is compiled by :mod:`petitcom_shim.basic.compiler`; everything
else — the hardware keywords, the files, the panel — is registered here by a
``kw_*.py`` module of this package. Every ``kw_*.py`` module is imported by
:func:`load_all` (sorted by name), so adding an area is adding a file: no
shared list to edit. See docs/basic-internals.md.

Values a handler sees:

- a number is an ``int`` holding the raw 20.12 word (value * 4096); use
  :func:`petitcom_shim.basic.numbers.to_int` for the integer part a verb needs,
  :func:`~petitcom_shim.basic.numbers.from_int` to return one;
- a string is ``bytes`` in PTC's character set (at most 256);
- an empty argument (``BEEP 30,,127``) is ``None``;
- with ``refs=True``, an argument written as a variable or array element
  (``SPREAD 0,X,Y``) arrives as a :class:`Ref` instead of its value: read it
  with ``.get()``, assign it with ``.set(value)`` (convert with
  :meth:`Runtime.value` when a handler accepts either);
- a parenthesised group ``(a,b,c)`` as the first argument
  (``BGREAD (0,X,Y),C,P,H,V``) is flattened into separate values.

A handler is ``handler(rt, args)`` (``handler(rt, args, seps)`` with
``seps=True``: the separator after each argument, ``","``, ``";"`` or ``""``)
where ``rt`` is the running :class:`petitcom_shim.basic.runtime.Runtime`:
``rt.machine`` (the :class:`~petitcom_shim.Machine`), ``rt.result`` (RESULT),
``rt.interp`` (the :class:`~petitcom_shim.basic.Interpreter`), variables
through ``rt.get_var``/``rt.set_var``. It raises
:class:`~petitcom_shim.basic.errors.BasicError` for a PTC error; the shim's own
:class:`~petitcom_shim.errors.PetitcomError` subclasses are turned into the
PTC error of the same name, any other ``ValueError`` into
"Illegal function call".
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

__all__ = [
    "KEYWORDS",
    "Keyword",
    "Ref",
    "Value",
    "function",
    "load_all",
    "statement",
    "sysvar",
    "verb_keyword",
]

#: A PTC value: a raw 20.12 number or PTC bytes.
Value = int | bytes


class Ref(Protocol):
    """An assignable argument (a variable or an array element)."""

    #: The variable's name as written, e.g. ``"X"``, ``"A$"``.
    name: str
    #: True for a string variable.
    is_string: bool

    def get(self) -> Value:
        """The current value."""
        ...

    def set(self, value: Value) -> None:
        """Assign (Type mismatch if the type does not fit)."""
        ...


Handler = Callable[..., Any]
#: A writable system variable's setter: ``setter(rt, value)`` (``rt`` is the Runtime;
#: typed loosely here so this module stays below the runtime that imports it).
Setter = Callable[[Any, Value], None]


@dataclass(frozen=True)
class Keyword:
    """One registered keyword.

    Attributes:
        name: upper case; a function or system variable returning a string ends in ``$``.
        kind: "statement", "function" (called with parentheses) or "sysvar"
            (read without parentheses).
        handler: see the module docstring; a sysvar's takes ``(rt)``.
        min_args, max_args: the argument count allowed (None: no maximum);
            outside it the compiler gives "Missing operand" / "Syntax error".
        refs: pass variables as :class:`Ref` (output arguments).
        seps: pass the separators too (statements such as INPUT).
        setter: for a writable system variable, ``setter(rt, value)``.
        direct_only: a DIRECT-mode command (RUN, LIST, ...): in a program it
            is an error, as on PTC.
        verb: for a keyword bound to a Machine verb (:mod:`~petitcom_shim.basic.bind`),
            the verb's name: the compiler then calls ``machine.<verb>`` itself, its
            arguments converted inline, instead of going through ``handler``
            (the same call, without a list and a conversion loop per call); for a
            bound system variable, the attribute the compiled code reads.
    """

    name: str
    kind: Literal["statement", "function", "sysvar"]
    handler: Handler
    min_args: int = 0
    max_args: int | None = None
    refs: bool = False
    seps: bool = False
    setter: Setter | None = None
    direct_only: bool = False
    verb: str | None = None

    @property
    def returns_string(self) -> bool:
        """True if the function/system variable gives a string."""
        return self.name.endswith("$")


#: Every registered keyword by (kind, name).
KEYWORDS: dict[tuple[str, str], Keyword] = {}


def _register(kw: Keyword) -> Keyword:
    key = (kw.kind, kw.name)
    if key in KEYWORDS and KEYWORDS[key].handler is not kw.handler:
        raise ValueError(f"BASIC keyword {kw.kind} {kw.name} registered twice")
    KEYWORDS[key] = kw
    return kw


def statement(
    name: str,
    min_args: int = 0,
    max_args: int | None = None,
    *,
    refs: bool = False,
    seps: bool = False,
    direct_only: bool = False,
    verb: str | None = None,
) -> Callable[[Handler], Handler]:
    """Decorator registering ``handler(rt, args)`` as the statement ``name``."""

    def deco(handler: Handler) -> Handler:
        _register(
            Keyword(
                name, "statement", handler, min_args, max_args, refs, seps, None, direct_only, verb
            )
        )
        return handler

    return deco


def function(
    name: str,
    min_args: int = 0,
    max_args: int | None = None,
    *,
    refs: bool = False,
    verb: str | None = None,
) -> Callable[[Handler], Handler]:
    """Decorator registering ``handler(rt, args) -> value`` as the function ``name``."""

    def deco(handler: Handler) -> Handler:
        _register(Keyword(name, "function", handler, min_args, max_args, refs, verb=verb))
        return handler

    return deco


def sysvar(
    name: str, setter: Setter | None = None, verb: str | None = None
) -> Callable[[Handler], Handler]:
    """Decorator registering ``handler(rt) -> value`` as the system variable ``name``
    (``verb``: the Machine attribute it reads, for one bound by ``bind_sysvar``)."""

    def deco(handler: Handler) -> Handler:
        _register(Keyword(name, "sysvar", handler, setter=setter, verb=verb))
        return handler

    return deco


_loaded = False


def load_all() -> None:
    """Import every ``kw_*`` module of this package once (they register on import)."""
    global _loaded
    if _loaded:
        return
    here = Path(__file__).resolve().parent
    for info in sorted(pkgutil.iter_modules([str(here)]), key=lambda m: m.name):
        if info.name.startswith("kw_"):
            importlib.import_module(f"{__package__}.{info.name}")
    _loaded = True


def lookup(kind: str, name: str) -> Keyword | None:
    """The keyword registered as (kind, name), after loading every area."""
    load_all()
    return KEYWORDS.get((kind, name))


def verb_keyword(verb: str) -> str:
    """The name of the keyword bound to Machine verb ``verb`` ("" if none): for an error
    raised inside a bound call, which the compiler emits as ``_M.<verb>(...)``."""
    load_all()
    found = (kw.name for kw in KEYWORDS.values() if kw.verb == verb and kw.kind != "sysvar")
    return next(found, "")
