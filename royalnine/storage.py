"""The one per-user data folder: settings, the saved match, statistics and (later) remote matches.

The folder is ``--home DIR`` if given, else ``$ROYALNINE_HOME``, else the
platform's user data folder, so tests, kiosks and several profiles never
collide. Every file is written atomically. A damaged file is renamed aside
(never deleted) and reported in one line; it never crashes the game.
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from royalnine.core.errors import CorruptRecord, RoyalNineError
from royalnine.core.match import Match, MatchOutcome
from royalnine.core.record import MatchRecord, MetaValue, load_record, write_atomic

ENV_HOME = "ROYALNINE_HOME"
LANGS = ("en", "ja")
LAYOUTS = ("vertical", "horizontal", "separate", "single")
DIFFICULTIES = ("easy", "normal", "hard", "match")
MODES = ("cpu", "local")
SETTINGS_FILE = "settings.json"
SAVE_FILE = "saves/current.json"
STATS_FILE = "stats.json"
MAX_SETTINGS_BYTES = 64_000


class CorruptSaveSetAside(RoyalNineError):
    """The saved match was damaged; it was renamed aside. The message says where it went."""


def default_home() -> Path:
    """``$ROYALNINE_HOME`` if set, else the platform's per-user data folder."""
    env = os.environ.get(ENV_HOME)
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("royalnine", appauthor=False))


@dataclass
class Settings:
    """Player-chosen options, kept between runs."""

    lang: str = "en"
    tens: bool = False
    rounds: int = 5
    sound: bool = True
    layout: str = "vertical"
    scale: int = 0
    fullscreen: bool = False
    fit: bool = False  # resized windows scale smoothly instead of by whole numbers
    difficulty: str = "hard"
    hints: bool = False

    def validated(self) -> Settings:
        """A copy with every out-of-range value replaced by its default."""
        d = Settings()
        return Settings(
            lang=self.lang if self.lang in LANGS else d.lang,
            tens=self.tens if isinstance(self.tens, bool) else d.tens,
            rounds=self.rounds if _int_in(self.rounds, 1, 99) else d.rounds,
            sound=self.sound if isinstance(self.sound, bool) else d.sound,
            layout=self.layout if self.layout in LAYOUTS else d.layout,
            scale=self.scale if _int_in(self.scale, 0, 6) else d.scale,
            fullscreen=self.fullscreen if isinstance(self.fullscreen, bool) else d.fullscreen,
            fit=self.fit if isinstance(self.fit, bool) else d.fit,
            difficulty=self.difficulty if self.difficulty in DIFFICULTIES else d.difficulty,
            hints=self.hints if isinstance(self.hints, bool) else d.hints,
        )


def _int_in(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


@dataclass(frozen=True)
class SaveGame:
    """A match in progress and how it is being played (``mode`` "cpu" or "local")."""

    match: Match
    mode: str = "cpu"
    meta: Mapping[str, MetaValue] = field(default_factory=dict)


class Storage:
    """Reads and writes everything under one home folder."""

    def __init__(self, home: Path | None = None) -> None:
        self.home = (home or default_home()).expanduser()
        self.notices: list[str] = []
        """One-line messages about files that were set aside, for the game to show."""

    def path(self, name: str) -> Path:
        """A file under the home folder."""
        return self.home / name

    # -- settings --

    def load_settings(self) -> Settings:
        """The saved settings, or defaults; a bad file is set aside with a notice."""
        path = self.path(SETTINGS_FILE)
        if not path.exists():
            return Settings()
        try:
            if path.stat().st_size > MAX_SETTINGS_BYTES:
                raise ValueError("file is too large")
            doc = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(doc, dict):
                raise ValueError("not a JSON object")
            known = {f.name for f in dataclasses.fields(Settings)}
            return Settings(**{k: v for k, v in doc.items() if k in known}).validated()
        except (OSError, ValueError, TypeError) as exc:
            moved = self.set_aside(path)
            self.notices.append(f"settings were damaged ({exc}); reset, old file kept as {moved}")
            return Settings()

    def save_settings(self, settings: Settings) -> None:
        """Save settings atomically."""
        text = json.dumps(dataclasses.asdict(settings.validated()), indent=2)
        write_atomic(self.path(SETTINGS_FILE), text + "\n")

    # -- the saved match --

    def load_game(self) -> SaveGame | None:
        """The saved match, or None; raises :class:`CorruptSaveSetAside` for a damaged save."""
        path = self.path(SAVE_FILE)
        if not path.exists():
            return None
        try:
            record = load_record(path)
            match = record.replay()
            meta = dict(record.meta)
            mode = meta.pop("mode", "cpu")
            if mode not in MODES:
                raise CorruptRecord(f"{path}: unknown mode {mode!r}")
            if match.is_over:
                raise CorruptRecord(f"{path}: the saved match is already over")
        except CorruptRecord as exc:
            moved = self.set_aside(path)
            raise CorruptSaveSetAside(
                f"saved match was damaged and set aside as {moved}: {exc}"
            ) from None
        return SaveGame(match, str(mode), meta)

    def save_game(self, save: SaveGame) -> None:
        """Save the match atomically (the record: config, actions, mode and metadata)."""
        meta = {**save.meta, "mode": save.mode}
        write_atomic(self.path(SAVE_FILE), MatchRecord.of(save.match, meta).to_json())

    def clear_game(self) -> None:
        """Forget the saved match (after it ends or the player abandons it)."""
        self.path(SAVE_FILE).unlink(missing_ok=True)

    # -- statistics --

    def stats(self) -> dict[str, Any]:
        """Totals of finished matches by mode: played, won by seat 0, lost, drawn, best score."""
        path = self.path(STATS_FILE)
        if not path.exists():
            return {}
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(doc, dict):
                raise ValueError("not a JSON object")
            return doc
        except (OSError, ValueError) as exc:
            moved = self.set_aside(path)
            self.notices.append(f"statistics were damaged ({exc}); reset, old file kept as {moved}")
            return {}

    def record_result(
        self,
        outcome: MatchOutcome,
        mode: str,
        meta: Mapping[str, MetaValue] | None = None,
        *,
        seat: int = 0,
    ) -> None:
        """Add a finished match to the statistics, as seen by the local player at ``seat``."""
        doc = self.stats()
        key = mode if not meta or "difficulty" not in meta else f"{mode}:{meta['difficulty']}"
        entry = doc.get(key)
        if not isinstance(entry, dict):
            entry = {"played": 0, "won": 0, "lost": 0, "drawn": 0, "best": 0}
        entry["played"] = int(entry.get("played", 0)) + 1
        if outcome.winner is None:
            result = "drawn"
        else:
            result = "won" if outcome.winner == seat else "lost"
        entry[result] = int(entry.get(result, 0)) + 1
        entry["best"] = max(int(entry.get("best", 0)), outcome.totals[seat])
        doc[key] = entry
        write_atomic(self.path(STATS_FILE), json.dumps(doc, indent=2) + "\n")

    def set_aside(self, path: Path) -> Path:
        """Rename a damaged file beside itself (never delete it); returns the new name."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = path.with_name(f"{path.name}.corrupt-{stamp}")
        n = 1
        while target.exists():
            n += 1
            target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
        path.replace(target)
        return target
