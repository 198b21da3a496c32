"""The kiosk's own words in English and Japanese (kept apart from royalnine.i18n's game text)."""

from __future__ import annotations

TEXTS: dict[str, dict[str, str]] = {
    "touch_to_play": {"en": "TOUCH TO PLAY", "ja": "タッチしてね"},
    "still_there": {"en": "Still there?", "ja": "まだ あそぶ?"},
    "touch_keep": {"en": "Touch to keep playing", "ja": "タッチで つづける"},
    "touch_ready": {"en": "Tap when ready", "ja": "タッチで スタート"},
    "touch_next": {"en": "TAP: next", "ja": "タッチ: つぎへ"},
    "not_saved": {"en": "Kiosk matches are not kept.", "ja": "しあいは のこりません"},
    "tens_variant": {"en": "A variant adds R10 and B10.", "ja": "10ﾉ ｶｰﾄﾞｦ ﾂｶｳ ﾙｰﾙﾓ ｱﾙ"},
    "closed": {"en": "CLOSED", "ja": "しまっています"},
    "opening_hours": {"en": "Open {hours}", "ja": "{hours} に あいています"},
    "pin_title": {"en": "OPERATOR PIN", "ja": "OPERATOR PIN"},
    "pin_wrong": {"en": "WRONG PIN", "ja": "WRONG PIN"},
    "no_pin_title": {"en": "OPERATOR MENU LOCKED", "ja": "OPERATOR MENU LOCKED"},
    "no_pin_why": {"en": "NO OPERATOR PIN IS SET", "ja": "NO OPERATOR PIN IS SET"},
    "pin_locked": {"en": "LOCKED: WAIT {seconds} S", "ja": "LOCKED: WAIT {seconds} S"},
    "operator": {"en": "OPERATOR MENU", "ja": "OPERATOR MENU"},
}


def kt(key: str, lang: str) -> str:
    """A kiosk text in ``lang`` (English when the language has none)."""
    entry = TEXTS[key]
    return entry.get(lang, entry["en"])
