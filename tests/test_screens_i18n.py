"""Every text fits where the screens put it, in both languages, in PTC console cells."""

from __future__ import annotations

import pytest

from royalnine.i18n import LANGS, TEXTS, cells, tr, widest


@pytest.mark.parametrize("lang", LANGS)
def test_every_text_fits_its_width(lang: str) -> None:
    too_wide = []
    for key, text in TEXTS.items():
        shown = widest(key, lang)
        if cells(shown) > text.width:
            too_wide.append(f"{key} [{lang}] {cells(shown)}>{text.width}: {shown!r}")
    assert not too_wide, "\n".join(too_wide)


@pytest.mark.parametrize("lang", LANGS)
def test_every_text_is_printable_on_the_machine(lang: str) -> None:
    from petitcom_shim.charset import to_ptc

    for key in TEXTS:
        to_ptc(widest(key, lang))  # raises on a character the PTC font lacks


def test_japanese_uses_katakana_and_english_falls_back() -> None:
    assert tr("role_STRAIGHT", "ja") == "ｽﾄﾚｰﾄ"
    assert tr("role_STRAIGHT", "xx") == "STRAIGHT"
    assert cells("ガ") == 2  # voiced kana are two PTC cells
    assert tr("round_of", "en", n=2, rounds=5) == "ROUND 2/5"
