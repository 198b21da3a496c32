"""The game's music: our songs as shipped, checked as arrays; which scene plays what;
MUSIC and SOUND FX settings (and old settings files); a quiet start with no audio device."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import json
import os
import subprocess
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from petitcom_shim import Button, Machine
from petitcom_shim.bgm import SongAudio, render_song
from petitcom_shim.mml import Song, parse
from petitcom_shim.sound import SAMPLE_RATE as RATE
from royalnine.app import EFFECTS_LEVEL, App
from royalnine.game import new_game
from royalnine.music import SONGS, TRACK, mml_text, song_text
from royalnine.screens.autoplay import AutoPlayer
from royalnine.screens.match import MatchScene
from royalnine.screens.menu import Menu
from royalnine.screens.options import ROWS, OptionsScene
from royalnine.screens.result import MatchResultScene
from royalnine.screens.title import TitleScene
from royalnine.storage import VOLUMES, Settings, Storage

ROOT = Path(__file__).resolve().parent.parent
#: Each song's key: the pitch classes its melody may use (no stray accidentals).
SCALES = {
    "title": {0, 2, 4, 5, 7, 9, 11},  # C major
    "match": {5, 7, 9, 10, 0, 2, 4},  # F major
    "result": {0, 2, 4, 5, 7, 9, 11},  # C major
}


def song(name: str) -> Song:
    return parse(song_text(name))


@functools.cache
def rendered(name: str) -> SongAudio:
    """Each song rendered once for the whole module."""
    return render_song(song(name))


def test_packaged_songs_equal_the_sources(load_tool: Callable[[str], ModuleType]) -> None:
    built = load_tool("build_music").build_all()
    assert {p.name for p in built} == {f"{n}.mml" for n in SONGS}
    for path, text in built.items():
        assert path.read_text(encoding="utf-8") == text, f"{path} is stale"


def test_comment_lines_are_not_mml() -> None:
    assert mml_text("' a comment with < and [\n:0 C\n  ' another\nD") == ":0 CD"


@pytest.mark.parametrize(
    ("name", "loops", "low", "high"),
    [("title", True, 20.0, 60.0), ("match", True, 15.0, 40.0), ("result", False, 2.0, 6.0)],
)
def test_songs_have_their_shape(name: str, loops: bool, low: float, high: float) -> None:
    tune = song(name)
    assert tune.loops is loops
    assert low <= tune.duration <= high
    keys = [k for notes in tune.channels.values() for n in notes for _, k in n.keys]
    drums = {n.key for notes in tune.channels.values() for n in notes if n.tone >= 128}
    pitched = [k for k in keys if k not in drums]
    assert min(pitched) >= 36 and max(pitched) <= 88  # nothing shrill, nothing muddy
    melody = {k % 12 for n in tune.channels[0] for _, k in n.keys}
    assert melody <= SCALES[name]


@pytest.mark.parametrize("name", list(SONGS))
def test_songs_are_gentle_and_never_clip(name: str) -> None:
    audio = rendered(name)
    part = audio.loop if audio.loop is not None else audio.head
    assert part is not None
    peak = float(np.abs(part).max())
    rms = float(np.sqrt(np.mean(part.astype(np.float64) ** 2)))
    assert peak < 0.5  # -6 dBFS: headroom for the effects on top
    assert 10 ** (-30 / 20) < rms < 10 ** (-16 / 20)  # audible, well below the effects
    # Soft, not shrill: the spectrum's centre of mass stays low.
    power = np.abs(np.fft.rfft(part.astype(np.float64).mean(axis=1))) ** 2
    freqs = np.fft.rfftfreq(len(part), 1 / RATE)
    assert float((power * freqs).sum() / power.sum()) < 1200


def test_the_title_melody_sounds_as_written() -> None:
    """Render the title's melody alone and read each note's pitch back by FFT."""
    tune = song("title")
    lead = dataclasses.replace(tune, channels={0: tune.channels[0]})
    audio = render_song(lead)
    assert audio.first is not None
    samples = np.concatenate([audio.head, audio.first]).astype(np.float64).sum(axis=1)
    checked = 0
    for note in tune.channels[0][:24]:
        if note.length < Fraction(1, 8):
            continue
        start = round(tune.seconds(note.start) * RATE) + RATE // 100
        stop = round(tune.seconds(note.start + note.length * 7 / 8) * RATE)
        part = samples[start:stop] * np.hanning(stop - start)
        size = 1 << 16
        spectrum = np.abs(np.fft.rfft(part, size))
        want = 440.0 * 2 ** ((note.key - 69) / 12)
        # The fundamental is the strongest partial near the written pitch.
        found = (np.argmax(spectrum[: int(want * 1.5 * size / RATE)]) * RATE) / size
        assert found == pytest.approx(want, rel=0.03), (note, found)
        checked += 1
    assert checked >= 16


# ------------------------------------------------------------------------- scenes


def make_app(home: Path, **settings: object) -> App:
    return new_game(Machine(headless=True), Storage(home), Settings(**settings), seed=3)  # type: ignore[arg-type]


def playing(app: App) -> int | None:
    """The user song on the game's track, by number (None when nothing plays)."""
    track = app.m.bgm._tracks[TRACK]
    if track.song is None or not app.m.bgmchk(TRACK):
        return None
    return next(n for n in SONGS.values() if app.m.bgm.song(n) is track.song)


def tap_item(app: App, value: str) -> None:
    menu = getattr(app.scene, "menu", None)
    assert isinstance(menu, Menu)
    item = next(i for i in menu.items if i.value == value)
    app.m.input.touch(*item.rect.centre)
    app.step(2)
    app.m.input.untouch()
    app.step(2)


def test_each_scene_plays_its_song(tmp_path: Path) -> None:
    app = make_app(tmp_path, rounds=1)
    assert isinstance(app.scene, TitleScene) and playing(app) == SONGS["title"]
    tap_item(app, "options")  # options keep the title music going
    assert isinstance(app.scene, OptionsScene) and playing(app) == SONGS["title"]
    tap_item(app, "back")
    AutoPlayer(app, seed=1).play(max_frames=10_000)
    assert isinstance(app.scene, MatchResultScene)
    assert playing(app) == SONGS["result"]
    app.step(6 * 60)  # the fanfare is played once
    assert playing(app) is None


def test_the_match_has_its_loop(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    app.m.input.press(Button.DOWN)
    app.step(1)
    app.m.input.release(Button.DOWN)
    app.step(2)
    for _ in range(2):
        app.m.input.press(Button.A)
        app.step(1)
        app.m.input.release(Button.A)
        app.step(2)
    assert isinstance(app.scene, MatchScene)
    assert playing(app) == SONGS["match"]
    app.step(30 * 60)
    assert playing(app) == SONGS["match"]  # still going past the end of its 23 s loop


# ------------------------------------------------------------------------ settings


def test_music_row_steps_through_volumes_and_off_and_applies_at_once(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    tap_item(app, "options")
    assert app.settings.music and app.settings.music_volume == 80
    seen = []
    for _ in range(len(VOLUMES) + 1):
        tap_item(app, "music")
        seen.append((app.settings.music, app.settings.music_volume, playing(app)))
    on = SONGS["title"]
    assert seen[:3] == [(True, 100, on), (False, 100, None), (True, 20, on)]
    assert seen[-1] == (True, 80, on)
    assert app.m.bgm._tracks[TRACK].volume == round(127 * 0.8)
    tap_item(app, "music")
    assert app.m.bgm._tracks[TRACK].volume == 127
    saved = Storage(tmp_path).load_settings()
    assert (saved.music, saved.music_volume) == (True, 100)


def test_sound_effects_follow_their_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path, effects_volume=40)
    calls: list[tuple[int, ...]] = []
    monkeypatch.setattr(app.m, "beep", lambda *a: calls.append(a))
    app.beep("select")
    assert calls and calls[-1][2] == round(127 * EFFECTS_LEVEL * 0.4)  # 100% = EFFECTS_LEVEL
    app.settings.effects = False
    calls.clear()
    app.beep("select")
    assert calls == []


def test_an_old_settings_file_with_sound_off_keeps_everything_off(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(json.dumps({"sound": False, "lang": "ja"}))
    s = Storage(tmp_path).load_settings()
    assert (s.music, s.effects, s.lang) == (False, False, "ja")
    Storage(tmp_path).save_settings(s)
    again = Storage(tmp_path).load_settings()
    assert (again.music, again.effects) == (False, False)
    app = make_app(tmp_path, **{f.name: getattr(s, f.name) for f in dataclasses.fields(s)})
    assert playing(app) is None


def test_an_old_settings_file_with_sound_on_gets_both(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(json.dumps({"sound": True}))
    s = Storage(tmp_path).load_settings()
    assert s.music and s.effects and s.music_volume in VOLUMES


def test_bad_volumes_fall_back_to_defaults(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(
        json.dumps({"music_volume": 55, "effects_volume": "loud", "music": "yes"})
    )
    s = Storage(tmp_path).load_settings()
    d = Settings()
    assert (s.music, s.music_volume, s.effects_volume) == (d.music, d.music_volume, 100)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_options_fit_on_the_bottom_screen(tmp_path: Path, lang: str) -> None:
    app = make_app(tmp_path, lang=lang)
    tap_item(app, "options")
    menu = app.scene.menu  # type: ignore[attr-defined]
    assert [i.value for i in menu.items] == [*ROWS, "back"]
    for item in menu.items:
        assert item.rect.y + item.rect.h <= 192
        assert len(item.label) <= item.rect.w // 8 - 2  # inside the button's edges
    rects = [i.rect for i in menu.items[:-1]]  # the rows; BACK sits top-right, beside them
    assert all(a.y + a.h <= b.y for a, b in itertools.pairwise(rects))
    back = menu.items[-1].rect
    assert all(r.x + r.w <= back.x for r in rects)


# ------------------------------------------------------------------- no audio device


def test_no_audio_device_prints_one_line_of_ours(tmp_path: Path) -> None:
    """With no sound card the ALSA library's chatter is hidden; our line remains."""
    env = {k: v for k, v in os.environ.items() if k != "SDL_AUDIODRIVER"}
    env["SDL_AUDIODRIVER"] = "alsa"  # a real driver: fails here, there is no card
    env["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    env["PYTHONPATH"] = str(ROOT)
    code = "from petitcom_shim import Machine; m = Machine(audio=True); m.close()"
    run = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    lines = run.stderr.splitlines()
    assert not any(line.startswith("ALSA lib") for line in lines)
    assert len(lines) <= 1
    if lines:  # no device here: our own message says so
        assert "no audio device" in lines[0]


@pytest.mark.parametrize("name", ["title", "match"])
def test_loops_join_without_a_click(name: str) -> None:
    audio = rendered(name)
    assert audio.loop is not None and audio.first is not None
    loop = audio.loop.astype(np.float64)
    steps = np.abs(np.diff(loop, axis=0)).max(axis=1)
    seam = float(np.abs(loop[0] - loop[-1]).max())
    assert seam < float(np.percentile(steps, 99))  # no bigger than an ordinary step
    before_first = audio.head[-1] if len(audio.head) else audio.loop[-1]
    assert float(np.abs(audio.first[0] - before_first).max()) < float(np.percentile(steps, 99))
