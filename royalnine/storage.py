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
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from royalnine.core.errors import CorruptRecord, RoyalNineError
from royalnine.core.files import UnreadableFile, clean_temp_files, load_json, write_atomic
from royalnine.core.match import Match, MatchOutcome
from royalnine.core.record import MatchRecord, MetaValue, load_record
from royalnine.homelock import busy

ENV_HOME = "ROYALNINE_HOME"
LANGS = ("en", "ja")
LAYOUTS = ("vertical", "side", "separate", "single")
DIFFICULTIES = ("easy", "normal", "hard", "master")
OLD_NAMES = {"horizontal": "side", "match": "master"}
"""Names of earlier versions (settings files, saves, command-line flags) -> today's names."""


def current_name(name: object) -> object:
    """Today's name of a layout or CPU level (an older spelling is mapped; others unchanged)."""
    return OLD_NAMES.get(name, name) if isinstance(name, str) else name


MODES = ("cpu", "local")
#: Music and sound-effect volumes (percent) the options offer.
VOLUMES = (20, 40, 60, 80, 100)
SETTINGS_FILE = "settings.json"
SAVE_FILE = "saves/current.json"
STATS_FILE = "stats.json"
MAX_SETTINGS_BYTES = 64_000
MAX_CLAIM_AFTER_S = 30 * 86_400
MAX_GAP = 192
MAX_STATS_BYTES = 256_000
STAT_FIELDS = ("played", "won", "lost", "drawn", "best")
FORFEIT_FIELDS = ("forfeit_won", "forfeit_lost")
"""Kept only in entries of remote matches that ended by a claim."""
MAX_STAT = 10**9


@dataclass(frozen=True)
class Notice:
    """A one-line message about a data file, for the game to show in the player's language.

    ``key`` names a text in :mod:`royalnine.i18n`; ``what`` names the file's role
    (``settings``, ``save``, ``stats``, ``remote``, ``controls``, ``kiosk``); ``name``
    is where a damaged file went (or the file that could not be moved), relative to
    the data folder; ``reason`` is the technical cause, kept for the log and tests.
    """

    key: str
    what: str
    name: str = ""
    reason: str = ""

    def text(self, lang: str = "en", *, shown: bool = True) -> str:
        """The message in ``lang`` (``shown=False``: for the log, see :func:`i18n.untracked`)."""
        from royalnine.i18n import TEXTS, tr, untracked

        say = tr if shown else untracked
        what = say(f"file_{self.what}", lang) if f"file_{self.what}" in TEXTS else self.what
        return say(self.key, lang, what=what, name=self.name, reason=self.reason)

    def __str__(self) -> str:
        with_reason = self.key == "notice_cannot_save"  # its text has the reason already
        detail = f" ({self.reason})" if self.reason and not with_reason else ""
        return f"{self.text('en', shown=False)}{detail}"


class CorruptSaveSetAside(RoyalNineError):
    """A saved match was damaged; it was renamed aside. The message says where it went."""

    def __init__(self, notice: Notice) -> None:
        super().__init__(str(notice))
        self.notice = notice


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
    """Any sound at all: False turns MUSIC and SOUND FX off (what files before the two
    existed said); saved as "music or effects"."""
    music: bool = True
    music_volume: int = 80
    """Percent, one of VOLUMES."""
    effects: bool = True
    effects_volume: int = 100
    layout: str = "vertical"
    gap: int = 0
    """DS pixels between the two screens (vertical, side and separate layouts), as DS
    emulators offer: 0 = touching, as in a window; about 90 = the handheld's hinge."""
    scale: int = 0
    fullscreen: bool = False
    fit: bool = False  # resized windows scale smoothly instead of by whole numbers
    difficulty: str = "hard"
    hints: bool = False
    claim_after_s: int = 86_400
    """How long a remote opponent may leave a code unanswered before this player may
    claim the match (a forfeit win). A day: codes sent by mail or messenger are often
    answered the next morning, and a shorter wait would let an impatient player claim
    against an honest one who is asleep."""

    def __post_init__(self) -> None:
        if self.sound is False:
            self.music = self.effects = False

    def validated(self) -> Settings:
        """A copy with every out-of-range value replaced by its default."""
        d = Settings()
        music = self.music if isinstance(self.music, bool) else d.music
        effects = self.effects if isinstance(self.effects, bool) else d.effects
        layout, difficulty = current_name(self.layout), current_name(self.difficulty)
        return Settings(
            lang=self.lang if self.lang in LANGS else d.lang,
            tens=self.tens if isinstance(self.tens, bool) else d.tens,
            rounds=self.rounds if _int_in(self.rounds, 1, 99) else d.rounds,
            sound=music or effects,
            music=music,
            music_volume=self.music_volume if self.music_volume in VOLUMES else d.music_volume,
            effects=effects,
            effects_volume=(
                self.effects_volume if self.effects_volume in VOLUMES else d.effects_volume
            ),
            layout=layout if isinstance(layout, str) and layout in LAYOUTS else d.layout,
            gap=self.gap if _int_in(self.gap, 0, MAX_GAP) else d.gap,
            scale=self.scale if _int_in(self.scale, 0, 6) else d.scale,
            fullscreen=self.fullscreen if isinstance(self.fullscreen, bool) else d.fullscreen,
            fit=self.fit if isinstance(self.fit, bool) else d.fit,
            difficulty=(
                difficulty
                if isinstance(difficulty, str) and difficulty in DIFFICULTIES
                else d.difficulty
            ),
            hints=self.hints if isinstance(self.hints, bool) else d.hints,
            claim_after_s=(
                self.claim_after_s
                if _int_in(self.claim_after_s, 0, MAX_CLAIM_AFTER_S)
                else d.claim_after_s
            ),
        )


def _int_in(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


@dataclass(frozen=True)
class SaveGame:
    """A match in progress and how it is being played (``mode`` "cpu" or "local")."""

    match: Match
    mode: str = "cpu"
    meta: Mapping[str, MetaValue] = field(default_factory=dict)


def read_settings(home: Path) -> Settings:
    """The settings saved in ``home`` (defaults if there are none), touching nothing there:
    how the demo reads the player's language and layout without writing back.

    Raises:
        UnreadableFile: the file is damaged (it is left where it is).
    """
    try:
        doc = load_json(home / SETTINGS_FILE, MAX_SETTINGS_BYTES)
    except FileNotFoundError:
        return Settings()
    if not isinstance(doc, dict):
        raise UnreadableFile("not a JSON object")
    known = {f.name for f in dataclasses.fields(Settings)}
    return Settings(**{k: v for k, v in doc.items() if k in known}).validated()


class Storage:
    """Reads and writes everything under one home folder.

    Opening it removes the temporary files of writes that were interrupted (a
    kill or a power cut mid-write); every reader refuses a file that is not a
    regular file, is too large, nests too deep or holds the wrong types, and sets
    it aside with a :class:`Notice` instead of failing.
    """

    def __init__(self, home: Path | None = None) -> None:
        self.home = (home or default_home()).expanduser()
        self.notices: list[Notice] = []
        """Messages about files that were set aside or could not be written, to show."""
        # while another program holds the folder, a temporary file may be its write in
        # flight, not an interrupted one (royalnine.homelock)
        self.cleaned = [] if busy(self.home) else clean_temp_files(self.home)
        """Temporary files of interrupted writes removed when the folder was opened."""
        self.unusable = os.path.exists(self.home) and not os.path.isdir(self.home)
        """The home folder is a file: nothing can be read or saved (said once, here, instead
        of a "damaged" notice for every file that cannot be under it)."""
        if self.unusable:
            print(f"royalnine: {self.home}: the data folder is not a folder", file=sys.stderr)
            self.notices.append(Notice("notice_no_home", "home", str(self.home)))

    def path(self, name: str) -> Path:
        """A file under the home folder."""
        return self.home / name

    # -- settings --

    def load_settings(self) -> Settings:
        """The saved settings, or defaults; a bad file is set aside with a notice."""
        if self.unusable:
            return Settings()
        try:
            return read_settings(self.home)
        except UnreadableFile as exc:
            self.damaged(self.path(SETTINGS_FILE), "settings", str(exc))
            return Settings()

    def save_settings(self, settings: Settings) -> None:
        """Save settings atomically."""
        text = json.dumps(dataclasses.asdict(settings.validated()), indent=2)
        write_atomic(self.path(SETTINGS_FILE), text + "\n")

    # -- the saved match --

    def load_game(self) -> SaveGame | None:
        """The saved match, or None; raises :class:`CorruptSaveSetAside` for a damaged save."""
        path = self.path(SAVE_FILE)
        if self.unusable or not os.path.lexists(path):
            return None
        try:
            record = load_record(path)
            match = record.replay()
            meta = dict(record.meta)
            mode = meta.pop("mode", "cpu")
            if mode not in MODES:
                raise CorruptRecord(f"unknown mode {mode!r}")
            if match.is_over:
                raise CorruptRecord("the saved match is already over")
        except CorruptRecord as exc:  # (load_record names the path; damaged() names it once)
            reason = str(exc).removeprefix(f"{path}: ")
            raise CorruptSaveSetAside(self.damaged(path, "save", reason, keep=False)) from None
        return SaveGame(match, str(mode), meta)

    def save_game(self, save: SaveGame) -> None:
        """Save the match atomically (the record: config, actions, mode and metadata)."""
        meta = {**save.meta, "mode": save.mode}
        write_atomic(self.path(SAVE_FILE), MatchRecord.of(save.match, meta).to_json())

    def clear_game(self) -> None:
        """Forget the saved match (after it ends or the player abandons it)."""
        self.path(SAVE_FILE).unlink(missing_ok=True)

    # -- statistics --

    def stats(self) -> dict[str, dict[str, int]]:
        """Totals of finished matches by mode: played, won, lost, drawn, best score.

        A file that is not an object of such totals is set aside with a notice
        and the statistics start again, so recording a result never fails on it.
        """
        path = self.path(STATS_FILE)
        if self.unusable:
            return {}
        try:
            doc = load_json(path, MAX_STATS_BYTES)
            return _checked_stats(doc)
        except FileNotFoundError:
            return {}
        except UnreadableFile as exc:
            self.damaged(path, "stats", str(exc))
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
        key = mode if not meta or "difficulty" not in meta else f"{mode}:{meta['difficulty']}"
        if outcome.winner is None:
            result = "drawn"
        else:
            result = "won" if outcome.winner == seat else "lost"
        self._count(key, result, best=outcome.totals[seat])

    def record_forfeit(self, mode: str, *, won: bool) -> None:
        """Add a match ended by a claim: a forfeit win (``won``) or a forfeit loss.

        Counted in played/won/lost like any match, and also in
        ``forfeit_won``/``forfeit_lost`` so the statistics say how it ended.
        """
        result = "won" if won else "lost"
        self._count(mode, result, extra=f"forfeit_{result}")

    def _count(self, key: str, result: str, *, best: int = 0, extra: str | None = None) -> None:
        """One more match under ``key``: played, its result (and ``extra``), the best score."""
        doc = self.stats()
        entry = doc.get(key) or dict.fromkeys(STAT_FIELDS, 0)
        for name in ("played", result, *([extra] if extra else [])):
            entry[name] = entry.get(name, 0) + 1
        entry["best"] = max(entry.get("best", 0), best)
        doc[key] = entry
        write_atomic(self.path(STATS_FILE), json.dumps(doc, indent=2) + "\n")

    # -- damaged files --

    def damaged(self, path: Path, what: str, reason: str, *, keep: bool = True) -> Notice:
        """Set a damaged file aside and note it (also on stderr, with the technical reason).

        When the file cannot be moved (a read-only folder) the game goes on with
        defaults all the same, and the notice says the file is still there.
        ``keep=False`` returns the notice without adding it to :attr:`notices`.
        A ``reason`` that starts with the path (a :class:`CorruptRecord` names its
        file) has it taken off, so the stderr line names the file once.
        """
        reason = reason.removeprefix(f"{path}: ")
        try:
            moved = self.set_aside(path)
            notice = Notice("notice_set_aside", what, self._relative(moved), reason)
        except OSError as exc:
            reason = f"{reason}; could not move it: {exc.strerror or exc}"
            notice = Notice("notice_not_moved", what, self._relative(path), reason)
        print(f"royalnine: {path}: {reason}", file=sys.stderr)
        if keep:
            self.notices.append(notice)
        return notice

    def _relative(self, path: Path) -> str:
        try:
            return str(path.relative_to(self.home))
        except ValueError:
            return str(path)

    def set_aside(self, path: Path) -> Path:
        """Rename a damaged file beside itself (never delete it); returns the new name."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = path.with_name(f"{path.name}.corrupt-{stamp}")
        n = 1
        while os.path.lexists(target):
            n += 1
            target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
        path.replace(target)
        return target


def _checked_stats(doc: object) -> dict[str, dict[str, int]]:
    """The statistics document if it has the right shape; raises UnreadableFile otherwise."""
    if not isinstance(doc, dict):
        raise UnreadableFile("not a JSON object")
    checked: dict[str, dict[str, int]] = {}
    for key, entry in doc.items():
        if not isinstance(entry, dict):
            raise UnreadableFile(f"entry {key[:20]!r} is not an object")
        for name in STAT_FIELDS + FORFEIT_FIELDS:
            value = entry.get(name, 0)
            if not _int_in(value, 0, MAX_STAT):
                raise UnreadableFile(f"{key[:20]}.{name} is not a count: {str(value)[:20]!r}")
        names = STAT_FIELDS + tuple(f for f in FORFEIT_FIELDS if f in entry)
        checked[key] = {name: int(entry.get(name, 0)) for name in names}
    return checked
