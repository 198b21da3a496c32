"""A SmileBASIC v2 (Petit Computer) interpreter running on :class:`petitcom_shim.Machine`.

>>> from petitcom_shim import Machine
>>> from petitcom_shim.basic import Interpreter
>>> basic = Interpreter(Machine(headless=True))
>>> basic.load(b'FOR I=1 TO 3:?I;:NEXT')
>>> basic.run().status
'ended'

Files: ``tokens`` (tokenizer), ``parser`` (statement and expression trees),
``compiler`` (Python code per block), ``runtime`` (variables, stacks, the run
loop, :class:`Interpreter`), ``numbers`` (20.12 fixed point), ``errors``
(PTC's error table), ``functions`` (the built-in functions), ``registry``
(how ``kw_*.py`` modules add keywords). See docs/basic-internals.md.
"""

from petitcom_shim.basic.errors import ERRORS, BasicError
from petitcom_shim.basic.numbers import Fixed
from petitcom_shim.basic.registry import Keyword, Ref, Value, function, statement, sysvar
from petitcom_shim.basic.runtime import Interpreter, RunResult, Runtime

__all__ = [
    "ERRORS",
    "BasicError",
    "Fixed",
    "Interpreter",
    "Keyword",
    "Ref",
    "RunResult",
    "Runtime",
    "Value",
    "function",
    "statement",
    "sysvar",
]
