"""The game's music: our own title theme, match loop and result fanfare, in PTC MML.

The songs are written in ``assets/music/*.mml`` (the files a composer edits) and
shipped as copies in ``royalnine/data/music`` (``tools/build_music.py`` copies and
checks them; a test keeps the two equal). In those files a line starting with
``'`` is a comment, as a REM in a BASIC listing; the rest is MML for BGMSET.

:class:`Music` defines them as user songs 128-130 at start (the shim renders
them ahead in its worker thread) and plays the one a scene asks for: a scene
class with a ``music`` attribute ("title", "match", "result") starts that song
when it becomes active; other scenes (options, rules, pause) leave the music as
it is. The MUSIC setting turns it on or off and sets its volume at once.
"""

from __future__ import annotations

import logging
from importlib import resources

from petitcom_shim import Machine
from petitcom_shim.errors import PetitcomError
from royalnine.storage import Settings

__all__ = ["SONGS", "TRACK", "Music", "mml_text", "song_text"]

_log = logging.getLogger(__name__)

#: The game's songs and the BGM user-song number each is set as.
SONGS: dict[str, int] = {"title": 128, "match": 129, "result": 130}
#: The BGM track the game plays music on.
TRACK = 0


def mml_text(source: str) -> str:
    """The MML of a ``.mml`` file: every line but the ``'`` comments, joined."""
    return "".join(line for line in source.splitlines() if not line.lstrip().startswith("'"))


def song_text(name: str) -> str:
    """The MML of the game's song ``name`` ("title", "match" or "result"), as shipped."""
    path = resources.files("royalnine") / "data" / "music" / f"{name}.mml"
    return mml_text(path.read_text(encoding="utf-8"))


class Music:
    """Plays the game's songs on BGM track 0 as the scenes and the settings say."""

    def __init__(self, m: Machine, settings: Settings) -> None:
        self.m = m
        self.settings = settings
        self.wanted: str | None = None
        """The song the active scene asked for (kept while the music is off)."""
        self.playing: str | None = None
        self.ready: set[str] = set()
        for name, number in SONGS.items():
            try:
                m.bgmset(number, song_text(name))
                self.ready.add(name)
            except (OSError, PetitcomError) as exc:  # a broken install: play without it
                _log.warning("royalnine: the %s music cannot be played (%s)", name, exc)

    def follow(self, scene: object) -> None:
        """Start the song of a scene that has one (``scene.music``); others change nothing."""
        name = getattr(scene, "music", None)
        if isinstance(name, str):
            self.play(name)

    def play(self, name: str) -> None:
        """Play song ``name`` unless it is already the one playing (or music is off)."""
        self.wanted = name
        if self.playing == name and (name != "result" or self.m.bgmchk(TRACK)):
            return
        self.apply()

    def apply(self) -> None:
        """Bring the music in line with the settings: on/off, volume, the wanted song."""
        s = self.settings
        if not s.music or self.wanted not in self.ready:
            if self.playing is not None:
                self.m.bgmstop(TRACK)
            self.playing = None
            return
        vol = self.volume()
        if self.playing == self.wanted:
            self.m.bgmvol(TRACK, vol)
            return
        self.m.bgmplay(TRACK, SONGS[self.wanted], vol)
        self.playing = self.wanted

    def volume(self) -> int:
        """BGM volume 0-127 for the MUSIC volume setting (percent)."""
        return round(127 * self.settings.music_volume / 100)
