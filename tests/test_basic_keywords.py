"""BASIC keywords that reach the Machine's sound and system verbs: BGMPRG, BGMSETV,
BGMGETV (issue 15 §2) and SYSBEEP, one switch shared with ``Machine.sysbeep`` that
also silences the panel's key clicks (docs/petitcom-decisions.md "Keyword coverage")."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from petitcom_shim import Machine
from petitcom_shim import keyboard as kb
from petitcom_shim.basic import Interpreter
from petitcom_shim.basic.numbers import from_int
from petitcom_shim.sound import Beep


@pytest.fixture
def m() -> Iterator[Machine]:
    machine = Machine(headless=True)
    yield machine
    machine.close()


def _run(m: Machine, source: str) -> Interpreter:
    interp = Interpreter(m)
    interp.load(source.replace("\n", "\r").encode("ascii"))
    result = interp.run(max_frames=600)
    assert result.status == "ended", result
    return interp


def test_bgmsetv_and_bgmgetv_reach_the_playing_song(m: Machine) -> None:
    """[WIKI] BGMSETV/BGMGETV: a song variable of the song playing on a track."""
    it = _run(
        m,
        'BGMSET 128,"$2=60[RRRRN$2]":BGMPLAY 0,128:VSYNC 2\n'
        "A=BGMGETV(0,2):BGMSETV 0,2,70:B=BGMGETV(0,2):C=BGMGETV(1,2)\n",
    )
    assert it.rt.get_var("A") == from_int(60)
    assert it.rt.get_var("B") == from_int(70)
    assert it.rt.get_var("C") == from_int(-1)  # nothing plays on track 1


def test_bgmprg_defines_an_instrument(m: Machine) -> None:
    """[EMK] Sound::bgmprg_: BGMPRG instr,wave$ (64 samples as 128 hex digits)."""
    wave = "7F" * 32 + "80" * 32
    _run(m, f'BGMPRG 224,"{wave}"\n')
    assert 224 in m.bgm._programs
    interp = Interpreter(m)
    interp.load(b'BGMPRG 200,"00"\r')
    assert interp.run().error == "Out of range"


def test_sysbeep_is_the_machines_switch(m: Machine) -> None:
    """One source of truth: BASIC's SYSBEEP reads and writes Machine.sysbeep."""
    it = _run(m, "A=SYSBEEP:SYSBEEP=0:B=SYSBEEP\n")
    assert it.rt.get_var("A") == from_int(1)
    assert it.rt.get_var("B") == 0
    assert m.sysbeep == 0 and not m.sound.system_sounds
    m.sysbeep = 1
    it = _run(m, "C=SYSBEEP:SYSBEEP=0.5:D=SYSBEEP\n")  # floored: 0 is off
    assert it.rt.get_var("C") == from_int(1)
    assert it.rt.get_var("D") == 0
    interp = Interpreter(m)
    interp.load(b'SYSBEEP="X"\r')
    assert interp.run().error == "Type mismatch"


def test_panel_key_clicks_obey_sysbeep(m: Machine, monkeypatch: pytest.MonkeyPatch) -> None:
    """A tap on the software keyboard clicks (a system sound) unless SYSBEEP is off."""
    played: list[int] = []
    monkeypatch.setattr(m.sound, "beep", lambda n=0, *rest: played.append(int(n)))
    m.pnltype("KYA")
    key = next(k for k in kb.KEYS if k.code == 18)

    def tap() -> None:
        m.input.touch(key.x + 4, key.y + 4)
        m.vsync()
        m.input.untouch()
        m.vsync()

    tap()
    assert played == [Beep.CLICK]
    _run(m, "SYSBEEP=FALSE\n")
    tap()
    assert played == [Beep.CLICK]
    assert m.inkey() + m.inkey() == "QQ"  # the key still types


def test_the_bgm_verbs_drop_fractions_as_every_ptc_verb(m: Machine) -> None:
    """PTC floors every numeric argument of a command ([SBC] `STACK_INT`); the older
    BGM verbs stopped with "Type mismatch"/"Illegal function call" on a fraction."""
    it = _run(
        m,
        'BGMSET 128.5,"CDE":BGMPLAY 1.5,128.7,100.2:BGMVOL 0.5,100.9:BGMVOL 90.5\n'
        "A=BGMCHK(1.5):BGMSTOP 1.5:BGMSTOP 0.5,0.5:BGMCLEAR 128.5:BGMPLAY 2.9\n",
    )
    assert it.rt.get_var("A") == from_int(1)


def test_talk_lasts_eight_frames_a_sound(m: Machine) -> None:
    """TALK is silent, but TALKCHK() is TRUE for 8 frames per sound of its text; a
    voicing mark joins the kana before it (docs/petitcom-decisions.md "Published programs")."""
    interp = Interpreter(m)
    interp.load(b'TALK "\xb6\xde\xb7":F=MAINCNTL\r@W:VSYNC 1:IF TALKCHK() GOTO @W\rN=MAINCNTL-F\r')
    assert interp.run(max_frames=600).status == "ended"
    assert interp.rt.get_var("N") == from_int(16)  # ｶﾞ and ｷ: two sounds
