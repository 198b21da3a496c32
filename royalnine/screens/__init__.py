"""The game's screens (scenes), written against petitcom_shim like a 2013 Petit Computer program.

How the pieces fit:

* :mod:`royalnine.app` runs one scene at a time; each frame it turns the
  machine's input into an ``InputFrame`` (pad keys, stylus down/move/up,
  files dropped on the window) and calls ``scene.frame(app, inp)``, which
  returns the next scene or None. ``scene.enter(app)`` redraws from scratch.
* :mod:`.title` (menus), :mod:`.match` (deal, place, reveal, round result;
  drawn by :mod:`.match_draw`, remote codes in :mod:`.match_remote`),
  :mod:`.result` (match result), :mod:`.rules`, :mod:`.options`, :mod:`.pause`.
* Pure parts with no machine: :mod:`.layout` (geometry, hit-testing),
  :mod:`.placement` (stylus/pad -> core actions, with reasons for refusals),
  :mod:`.reveal` (the scoring show from the core's breakdown).
* :mod:`.draw` (sprites as a declarative board, table BG, buttons, text) and
  :mod:`.menu` (touch/pad button lists) are shared drawing helpers;
  :mod:`.autoplay` plays through the UI by stylus for the demo and tests.
* Layers, bottom up (each file imports only files above it in this list):
  ``layout``, ``reveal``, ``placement``, ``remote_io``, ``draw``, ``menu``,
  ``fitcheck``, ``registry``; ``rules``; ``remote``; ``remote_actions``;
  ``match_state``; ``match_remote``; ``match_draw``; ``review``; ``pause``;
  ``result``; ``match``; ``exchange``; ``remote_list``; ``history``;
  ``options``; ``title``;
  ``autoplay``. A scene reaches a scene above it by name through
  :mod:`.registry` (or is handed the scene to go back to);
  ``tests/test_screens_import_cycles.py`` fails on any import circle.
  This file imports every scene module (below) so every name is registered
  as soon as any screen is imported: list a new screen module there.
* Text fits by construction: every text goes through :mod:`.draw`, which can
  record it with the box it belongs in; :mod:`.fitcheck` checks a recording
  against the console (off screen, out of its box, on a button, under a picture,
  overlapping, voicing marks into the line above), and
  ``tests/test_screens_textfit.py`` shows every state in both languages and
  every layout and requires every key of :mod:`royalnine.i18n` to be drawn.
  Draw new text with :func:`.draw.text` / :func:`.draw.centred` /
  :func:`.draw.button` (passing ``box=`` when it belongs inside a panel) and add
  the state to the walk; the test then checks it.

Adding the remote match by QR (a later issue) needs no rework here: give
``MatchScene`` a mode ``"remote"`` whose ``opponent`` is an object with
``poll(view, inp) -> list[Action] | None`` (see ``royalnine.app.Opponent``)
that reads ``inp.dropped`` images, and a dealer object with
``deal(match) -> Deal`` built from the shared randomness; show the codes on the
top screen's GRP page (``petitcom_shim.qr.draw_qr``) while the scene is in its
``wait`` state; add one entry to ``TitleScene.main_items``.
"""

# Every screen that registers a scene name (see .registry); the order does not matter.
from royalnine.screens import exchange, match, remote_list, title

__all__ = ["exchange", "match", "remote_list", "title"]
