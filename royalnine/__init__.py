"""Royal Nine: the 2013 Petit Computer card game, ported to Python.

The rules live in :mod:`royalnine.core` (pure, no pygame); CPU players in
:mod:`royalnine.ai`; the game's screens run on :mod:`petitcom_shim`.
"""

__version__ = "0.1.0"
