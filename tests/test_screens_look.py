"""Look (issue 18 item 4): buttons off the edge with centred labels, the hand-over text
centred in its box, the chart's round numbers on their bars, no clipping in the mix."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
from test_game_ui import make_app

from petitcom_shim import bgm, sound
from royalnine.i18n import cells, tr
from royalnine.music import song_text
from royalnine.screens.autoplay import AutoPlayer
from royalnine.screens.layout import BUTTON_RECTS, Zone
from royalnine.screens.match_draw import HANDOVER_BOX
from royalnine.screens.result import CHART_W, CHART_X, chart_places

LABELS = {Zone.UNDO: "btn_undo", Zone.CONFIRM: "btn_confirm", Zone.HINT: "btn_hint"}


@pytest.mark.parametrize("zone", [Zone.MENU, Zone.UNDO, Zone.CONFIRM, Zone.HINT])
def test_match_buttons_keep_off_the_edge_with_their_label_centred(zone: Zone) -> None:
    """MENU was 7 tiles wide at the screen's right edge: cut, its label half a cell off."""
    rect = BUTTON_RECTS[zone]
    assert rect.x >= 8 and rect.x + rect.w <= 256 - 8
    label = tr(LABELS.get(zone, "btn_menu"), "en")
    inner_cells = rect.w // 8 - 2
    assert (inner_cells - cells(label)) % 2 == 0, "the label cannot sit in the middle"


def test_the_hand_over_text_is_centred_in_its_box() -> None:
    inner_top, inner_bottom = HANDOVER_BOX.y + 2, HANDOVER_BOX.y + HANDOVER_BOX.h - 2
    first, last = 10 * 8, 12 * 8 + 8  # the two text rows drawn in it
    assert first - inner_top == inner_bottom - last


@pytest.mark.parametrize("count", range(1, 13))
def test_the_round_numbers_sit_under_the_middle_of_their_bars(count: int) -> None:
    """They were up to 4 pixels off: the number is on the text grid, the bars were not."""
    for first in (1, 5, 88):  # one- and two-digit numbers (a 99-round match shows 88-99)
        numbers = list(range(first, first + count))
        bar, places = chart_places(numbers)
        for number, (x, col) in zip(numbers, places, strict=True):
            if col is not None:
                assert x + bar + 1 == col * 8 + 4 * len(str(number))  # pair centre, label centre
            assert x >= CHART_X and x + 2 * bar + 2 <= CHART_X + CHART_W
        assert places[-1][1] is not None, "the last round is numbered"


@pytest.mark.parametrize("count", range(2, 13))
def test_the_chart_spaces_its_bars_evenly_and_its_numbers_apart(count: int) -> None:
    """Centring each pair under its number bunched 12 rounds in fours with wide gaps
    between, and wrote 10 to 12 as '1112' (numbers touching)."""
    for first in (1, 5, 88):
        numbers = list(range(first, first + count))
        bar, places = chart_places(numbers)
        steps = {
            b[0] - a[0]
            for a, b, n, m in zip(places, places[1:], numbers, numbers[1:], strict=False)
            if len(str(n)) == len(str(m))
        }
        assert len(steps) <= 1, f"uneven pairs: {sorted(steps)}"
        assert all(step >= 2 * bar + 4 for step in steps), "pairs touch"
        labels = [
            (col, len(str(n)))
            for n, (_, col) in zip(numbers, places, strict=True)
            if col is not None
        ]
        for (col, digits), (next_col, _) in itertools.pairwise(labels):
            assert next_col >= col + digits + 1, f"numbers touch: {numbers}"


def test_a_match_with_music_and_effects_at_100_percent_never_clips(tmp_path: Path) -> None:
    """636 samples clipped in 10 s of placing cards: the deal's clicks overlap each
    other and a confirm. The match's effects are mixed here as SDL sums them."""
    app = make_app(tmp_path, rounds=1)
    app.settings.effects = app.settings.music = True
    app.settings.effects_volume = app.settings.music_volume = 100
    beeps: list[tuple[int, int, int, int, int]] = []

    def record(n: int = 0, pitch: int = 0, vol: int = 127, pan: int = 64) -> None:
        beeps.append((app.frames, n, pitch, vol, pan))

    app.m.beep = record  # type: ignore[method-assign]
    frames = AutoPlayer(app, mode="cpu", seed=3).play()
    assert len(beeps) >= 30
    rate = sound.SAMPLE_RATE
    total = int((frames / 60 + 1) * rate)
    mix = np.zeros((total, 2))
    for frame, n, pitch, vol, pan in beeps:
        samples = sound._mix(n, pitch, vol, pan, rate)
        at = int(frame / 60 * rate)
        end = min(total, at + len(samples))
        mix[at:end] += samples[: end - at]
    song = bgm.render(song_text("match"), sample_rate=rate).astype(np.float64)
    mix += np.tile(song, (total // len(song) + 1, 1))[:total]
    assert np.abs(mix).max() < 0.95 * 32767


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_option_rows_leave_clear_pixels_above_and_below_their_text(
    tmp_path: Path, lang: str
) -> None:
    """The next row's top edge sat right under each label: an English "g" touched it."""
    from royalnine.screens.options import OptionsScene

    app = make_app(tmp_path, lang=lang)
    scene = OptionsScene()
    app.switch(scene)
    app.step(2)
    assert scene.menu is not None
    pixels = app.m.screen_array(1)
    rows = [item.rect for item in scene.menu.items if item.rect.h == 16]
    assert len(rows) == 8
    for rect in rows:
        fill = pixels[rect.y + 8, rect.x + 12]  # just under the label, inside the row
        for y in (rect.y - 2, rect.y - 1, rect.y + 8, rect.y + 9):
            line = pixels[y, rect.x + 8 : rect.x + rect.w - 8]
            assert (line == fill).all(), f"row at y={rect.y}: a border at y={y}"
