"""The kiosk's settings: the ``[kiosk]`` table of ``HOME/shim.toml`` under the command-line flags.

::

    [kiosk]
    top_display = 1        # monitor of the top screen (SDL display index)
    bottom_display = 0     # the touch monitor
    attract_after = 60     # seconds of no input on a menu before the attract loop
    reset_after = 90       # seconds of no input mid-match before "Still there?"
    countdown = 10         # seconds the "Still there?" countdown lasts
    pin = "2468"           # operator PIN (digits); leave out for none
    attract_level = "normal"  # how the CPUs of the attract loop play
    hours = "09:00-18:00"  # opening hours (local time; may pass midnight); leave out for always

A flag given on the command line wins over the file; neither is written back
anywhere (the player's settings.json is never touched by a kiosk run). A bad
value raises :class:`KioskConfigError` whose message is one line naming the
setting, so a typo never starts a kiosk with surprising timers.
"""

from __future__ import annotations

import time
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from royalnine.core.files import UnreadableFile, read_capped
from royalnine.storage import DIFFICULTIES

TABLE = "kiosk"
MAX_SECONDS = 24 * 3600
MAX_PIN_DIGITS = 8
MAX_FILE_BYTES = 256_000
"""The same cap as the shim's own reading of shim.toml (petitcom_shim.config)."""


class KioskConfigError(ValueError):
    """A kiosk setting is wrong; ``str()`` is one line naming it."""


@dataclass(frozen=True)
class KioskConfig:
    """Everything the kiosk needs to know beyond the shim's own settings."""

    top_display: int = 1
    bottom_display: int = 0
    attract_after: float = 60.0
    reset_after: float = 90.0
    countdown: float = 10.0
    pin: str = ""
    attract_level: str = "normal"
    hours: str = ""

    def is_open(self, t: float) -> bool:
        """Whether the kiosk is open at time ``t`` (seconds since the epoch, local time)."""
        span = parse_hours(self.hours)
        if span is None:
            return True
        start, end = span
        now = time.localtime(t)
        minute = now.tm_hour * 60 + now.tm_min
        if start <= end:
            return start <= minute < end
        return minute >= start or minute < end  # open past midnight

    def validated(self) -> KioskConfig:
        """This config, or :class:`KioskConfigError` naming the first bad value."""
        for name in ("top_display", "bottom_display"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 15:
                raise KioskConfigError(f"kiosk {name} must be a display number 0-15, not {value!r}")
        for name in ("attract_after", "reset_after", "countdown"):
            value = getattr(self, name)
            if (
                not isinstance(value, int | float)
                or isinstance(value, bool)
                or not 1 <= value <= MAX_SECONDS
            ):
                raise KioskConfigError(
                    f"kiosk {name} must be a number of seconds 1-{MAX_SECONDS}, not {value!r}"
                )
        if not isinstance(self.pin, str) or not (
            self.pin == ""
            or (self.pin.isdigit() and self.pin.isascii() and len(self.pin) <= MAX_PIN_DIGITS)
        ):
            raise KioskConfigError(
                f"kiosk pin must be 1-{MAX_PIN_DIGITS} digits in quotes (or left out), "
                f"not {self.pin!r}"
            )
        if not isinstance(self.hours, str) or (self.hours and parse_hours(self.hours) is None):
            raise KioskConfigError(
                f'kiosk hours must be like "09:00-18:00" (or left out), not {self.hours!r}'
            )
        if self.attract_level not in DIFFICULTIES:
            raise KioskConfigError(
                f"kiosk attract_level must be one of {', '.join(DIFFICULTIES)}, "
                f"not {self.attract_level!r}"
            )
        return replace(
            self, attract_after=float(self.attract_after), reset_after=float(self.reset_after)
        )


def parse_hours(text: str) -> tuple[int, int] | None:
    """``"HH:MM-HH:MM"`` as (opening, closing) minutes after midnight; None for "" or
    anything else (a span of zero length included)."""
    try:
        first, second = text.split("-")
        span = []
        for part in (first, second):
            hh, mm = part.strip().split(":")
            digits = (hh + mm).isascii() and hh.isdigit() and mm.isdigit()  # not "１２"
            if not (digits and len(mm) == 2 and len(hh) <= 2):
                return None
            if not (0 <= int(hh) <= 24 and 0 <= int(mm) < 60) or int(hh) * 60 + int(mm) > 1440:
                return None
            span.append(int(hh) * 60 + int(mm))
    except ValueError:
        return None
    return (span[0], span[1]) if span[0] != span[1] else None


def from_table(table: Mapping[str, Any], where: str = "[kiosk]") -> KioskConfig:
    """A config from a parsed ``[kiosk]`` table (unknown names are an error)."""
    known = {f.name for f in fields(KioskConfig)}
    for key in table:
        if key not in known:
            raise KioskConfigError(
                f"{where}: unknown setting {key!r} (expected one of {', '.join(sorted(known))})"
            )
    try:
        return KioskConfig(**dict(table)).validated()
    except KioskConfigError as exc:
        raise KioskConfigError(f"{where}: {exc}") from None


def read_table(path: Path) -> dict[str, Any]:
    """The ``[kiosk]`` table of a TOML file ({} when the file or the table is missing)."""
    try:
        text = read_capped(path, MAX_FILE_BYTES).decode("utf-8")
    except FileNotFoundError:
        return {}
    except UnreadableFile as exc:
        raise KioskConfigError(f"{path}: cannot read: {exc}") from None
    except UnicodeDecodeError:
        raise KioskConfigError(f"{path}: cannot read: not UTF-8 text") from None
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise KioskConfigError(f"{path}: nested too deep") from None
    except tomllib.TOMLDecodeError as exc:
        raise KioskConfigError(f"{path}: not valid TOML: {exc}") from None
    table = data.get(TABLE, {})
    if not isinstance(table, dict):
        raise KioskConfigError(f"{path}: [{TABLE}] must be a table")
    return table


def load_lenient(path: Path, overrides: Mapping[str, object]) -> tuple[KioskConfig, list[str]]:
    """Like :func:`load`, but a problem in the file costs only the value concerned.

    An unknown or bad value falls back to its default and an unreadable file or bad
    TOML to all the defaults, each with one line in the returned warnings (the
    kiosk logs them and shows them in the operator menu): an unattended machine
    should run on a typo rather than stop and be restarted forever. The
    command-line ``overrides`` are still checked strictly (:class:`KioskConfigError`).
    """
    warnings: list[str] = []
    try:
        table = read_table(path)
    except KioskConfigError as exc:
        warnings.append(f"{exc}: using the default kiosk settings")
        table = {}
    base = KioskConfig()
    known = {f.name for f in fields(KioskConfig)}
    for key, value in table.items():
        if key not in known:
            warnings.append(f"{path} [kiosk]: unknown setting {key!r} ignored")
            continue
        try:
            base = replace(base, **{key: value}).validated()
        except (KioskConfigError, TypeError) as exc:
            default = getattr(KioskConfig(), key)
            warnings.append(f"{path} [kiosk]: {exc}: using the default {default!r}")
    given: dict[str, Any] = {k: v for k, v in overrides.items() if v is not None}
    try:
        return replace(base, **given).validated(), warnings
    except KioskConfigError as exc:
        raise KioskConfigError(f"command line: {exc}") from None


def load(path: Path, overrides: Mapping[str, object]) -> KioskConfig:
    """The ``[kiosk]`` table of ``path`` with every non-None value of ``overrides`` on top."""
    table = read_table(path)
    base = from_table(table, f"{path} [kiosk]")
    given: dict[str, Any] = {k: v for k, v in overrides.items() if v is not None}
    try:
        return replace(base, **given).validated()
    except KioskConfigError as exc:
        raise KioskConfigError(f"command line: {exc}") from None
