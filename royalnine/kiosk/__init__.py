"""Kiosk mode: an unattended dual-screen Royal Nine that plays itself while nobody is there.

The pieces, each in its own module: :mod:`~royalnine.kiosk.config` (the
``[kiosk]`` table and the command-line flags), :mod:`~royalnine.kiosk.stats`
(visitor statistics in ``HOME/kiosk-stats.json``, no pygame),
:mod:`~royalnine.kiosk.scenes` (the attract loop, the kiosk title and the
countdown overlay), :mod:`~royalnine.kiosk.operator` (the PIN pad and the
operator menu) and :mod:`~royalnine.kiosk.controller` (the kiosk's App: it
watches every frame's input and the active scene, runs the idle timers,
refuses every way out and keeps the statistics). docs/kiosk.md is the set-up
guide.
"""
