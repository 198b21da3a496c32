"""Kiosk mode: an unattended dual-screen Royal Nine that plays itself while nobody is there.

The pieces, each in its own module: :mod:`~royalnine.kiosk.config` (the
``[kiosk]`` table and the command-line flags), :mod:`~royalnine.kiosk.stats`
(visitor statistics in ``HOME/kiosk-stats.json``, no pygame),
:mod:`~royalnine.kiosk.scenes` (the attract loop, the kiosk title and the
countdown overlay), :mod:`~royalnine.kiosk.operator` (the PIN pad and the
operator menu) and :mod:`~royalnine.kiosk.controller` (the kiosk's App: it
watches every frame's input and the active scene, runs the idle timers,
refuses every way out and keeps the statistics), :mod:`~royalnine.kiosk.pin`
(the operator PIN and its lock-outs), :mod:`~royalnine.kiosk.service` (sd_notify,
the status file, the crash-loop back-off) and :mod:`~royalnine.kiosk.x11` (its
own line to the X server: windows kept in view, a clean end when X dies).
docs/kiosk.md is the set-up guide.
"""
