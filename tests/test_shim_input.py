"""petitcom_shim.input: BUTTON modes, BREPEAT timing, touch lifecycle, sources, pads, cursor, drops.

Frame-by-frame expectations follow petitcom.md §6: values change only at
``latch()``; BUTTON(1)/BTRIG fire on a press's first frame, again ``start``
frames later, then every ``interval + 1`` frames; TCHX/TCHY keep their values
after release while TCHTIME drops to 0.
"""

from __future__ import annotations

import pathlib
from typing import Any

import pygame
import pytest

from petitcom_shim.config import ShimConfig
from petitcom_shim.input import Button, Input

A = int(Button.A)
B = int(Button.B)


def frames(inp: Input, n: int) -> None:
    for _ in range(n):
        inp.latch()


def test_button_bits_match_the_hardware_table() -> None:
    names = ["UP", "DOWN", "LEFT", "RIGHT", "A", "B", "X", "Y", "L", "R", "START", "SELECT"]
    assert [int(Button[name]) for name in names] == [1 << i for i in range(12)]


def test_modes_0_to_3_frame_by_frame() -> None:
    inp = Input()
    inp.press(A)
    assert inp.button(0) == 0, "nothing is visible before the next latch"
    inp.latch()  # frame 1: A down
    assert (inp.button(0), inp.button(1), inp.button(2), inp.button(3)) == (A, A, A, 0)
    inp.latch()  # frame 2: still held
    assert (inp.button(0), inp.button(1), inp.button(2), inp.button(3)) == (A, 0, 0, 0)
    inp.press(B)
    inp.latch()  # frame 3: B joins
    assert (inp.button(0), inp.button(2)) == (A | B, B)
    inp.release(A)
    assert inp.button(0) == A | B, "a release is not visible before the latch either"
    inp.latch()  # frame 4: A up
    assert (inp.button(0), inp.button(2), inp.button(3)) == (B, 0, A)
    inp.latch()
    assert inp.button(3) == 0
    assert inp.btrig() == inp.button(1) == 0


def test_press_and_release_between_two_latches_still_shows_one_frame() -> None:
    inp = Input()
    inp.latch()
    inp.press(A)
    inp.release(A)
    inp.latch()
    assert (inp.button(0), inp.button(2), inp.button(3)) == (A, A, 0)
    inp.latch()
    assert (inp.button(0), inp.button(3)) == (0, A)


def test_bad_mode_is_rejected() -> None:
    with pytest.raises(ValueError):
        Input().button(4)


def _trig_frames(inp: Input, mask: int, hold: int) -> list[int]:
    """Frames (1-based) on which BTRIG shows ``mask`` while it is held for ``hold`` frames."""
    inp.press(mask)
    fired = []
    for frame in range(1, hold + 1):
        inp.latch()
        if inp.btrig() & mask:
            fired.append(frame)
    inp.release(mask)
    inp.latch()
    return fired


def test_without_brepeat_mode_1_is_mode_2() -> None:
    assert _trig_frames(Input(), A, 40) == [1]


@pytest.mark.parametrize(("start", "interval"), [(10, 2), (0, 1), (5, 5), (1, 3), (30, 4)])
def test_brepeat_timing(start: int, interval: int) -> None:
    inp = Input()
    inp.brepeat(4, start, interval)  # bit 4 = A
    fired = _trig_frames(inp, A, 60)
    expected = [1] + [f for f in range(1 + start, 61, interval + 1) if f > 1]
    assert fired == expected
    # Other buttons are unaffected.
    assert _trig_frames(inp, B, 60) == [1]
    # A fresh press starts the count again.
    assert _trig_frames(inp, A, 60) == expected


def test_brepeat_10_2_by_hand() -> None:
    inp = Input()
    inp.brepeat(4, 10, 2)
    assert _trig_frames(inp, A, 30) == [1, 11, 14, 17, 20, 23, 26, 29]


def test_brepeat_off_and_interval_zero() -> None:
    inp = Input()
    inp.brepeat(4, 3, 1)
    assert _trig_frames(inp, A, 10) == [1, 4, 6, 8, 10]
    inp.brepeat(4)
    assert _trig_frames(inp, A, 10) == [1]
    inp.brepeat(4, 3, 0)
    assert _trig_frames(inp, A, 10) == [1]


def test_brepeat_mode_1_and_btrig_agree() -> None:
    inp = Input()
    inp.brepeat(0, 2, 0)
    inp.brepeat(0, 2, 1)
    inp.press(Button.UP | Button.A)
    for _ in range(12):
        inp.latch()
        assert inp.button(1) == inp.btrig()


@pytest.mark.parametrize(
    "args", [(12, 1, 1), (-1, None, None), (0, 5, None), (0, None, 5), (0, -1, 2), (0, 2, -1)]
)
def test_brepeat_rejects_bad_arguments(args: tuple[int, int | None, int | None]) -> None:
    with pytest.raises(ValueError):
        Input().brepeat(*args)


def test_touch_lifecycle() -> None:
    inp = Input()
    inp.latch()
    assert (inp.tchst, inp.tchtime, inp.tchx, inp.tchy) == (0, 0, 0, 0)
    inp.touch(10, 20)
    assert inp.tchst == 0, "touch shows only after the latch"
    inp.latch()
    assert (inp.tchst, inp.tchtime, inp.tchx, inp.tchy) == (1, 1, 10, 20)
    inp.latch()
    inp.touch(200, 150)  # drag
    inp.latch()
    assert (inp.tchst, inp.tchtime, inp.tchx, inp.tchy) == (1, 3, 200, 150)
    inp.untouch()
    assert inp.tchst == 1
    inp.latch()
    assert (inp.tchst, inp.tchtime, inp.tchx, inp.tchy) == (0, 0, 200, 150)
    inp.latch()
    assert (inp.tchx, inp.tchy) == (200, 150), "TCHX/TCHY keep their last values"
    inp.touch(0, 0)
    inp.latch()
    assert (inp.tchst, inp.tchtime, inp.tchx, inp.tchy) == (1, 1, 0, 0)


def test_touch_between_two_latches_shows_one_frame() -> None:
    inp = Input()
    inp.latch()
    inp.touch(5, 6)
    inp.untouch()
    inp.latch()
    assert (inp.tchst, inp.tchtime, inp.tchx, inp.tchy) == (1, 1, 5, 6)
    inp.latch()
    assert (inp.tchst, inp.tchtime, inp.tchx, inp.tchy) == (0, 0, 5, 6)


@pytest.mark.parametrize(("x", "y"), [(-1, 0), (256, 0), (0, -1), (0, 192)])
def test_touch_off_screen_is_rejected(x: int, y: int) -> None:
    with pytest.raises(ValueError):
        Input().touch(x, y)


def test_one_stylus_source_at_a_time() -> None:
    inp = Input()
    mouse, finger = ("mouse",), ("finger", 1, 7)
    assert inp.stylus_down(mouse, 30, 40)
    assert not inp.stylus_down(finger, 100, 100)
    inp.stylus_move(finger, 120, 120)
    inp.stylus_up(finger)
    inp.latch()
    assert (inp.tchst, inp.tchx, inp.tchy) == (1, 30, 40)
    inp.stylus_move(mouse, 999, -5)  # clamped
    inp.latch()
    assert (inp.tchx, inp.tchy) == (255, 0)
    inp.stylus_up(mouse)
    inp.latch()
    assert inp.tchst == 0
    assert inp.stylus_down(finger, 1, 2)
    inp.latch()
    assert (inp.tchst, inp.tchtime, inp.tchx, inp.tchy) == (1, 1, 1, 2)


def test_injected_touch_overrides_a_pointer() -> None:
    inp = Input()
    inp.stylus_down(("mouse",), 30, 40)
    inp.touch(7, 8)
    inp.latch()
    assert (inp.tchx, inp.tchy) == (7, 8)
    inp.untouch()
    inp.latch()
    assert inp.tchst == 0


def test_keys_map_to_buttons_and_share_buttons() -> None:
    inp = Input()
    inp.key_down(pygame.K_x)
    inp.key_down(pygame.K_RETURN)
    inp.latch()
    assert inp.button() == Button.A | Button.START
    inp.key_down(pygame.K_BACKSPACE)
    inp.key_down(pygame.K_RSHIFT)  # both are SELECT
    inp.key_up(pygame.K_BACKSPACE)
    inp.latch()
    assert inp.button() & Button.SELECT
    inp.key_up(pygame.K_RSHIFT)
    inp.key_down(pygame.K_F5)  # unmapped
    inp.latch()
    assert inp.button() == Button.A | Button.START


def test_release_all_forgets_held_keys_pads_and_pointer() -> None:
    inp = Input()
    inp.key_down(pygame.K_LEFT)
    inp.handle_pad_event(_event(pygame.JOYBUTTONDOWN, instance_id=2, button=7))
    inp.press(B)
    inp.stylus_down(("mouse",), 1, 1)
    inp.latch()
    inp.release_all()
    inp.latch()
    assert inp.button() == B, "injected buttons are not keys"
    assert inp.tchst == 0


def _event(kind: int, **attrs: Any) -> pygame.event.Event:
    return pygame.event.Event(kind, **attrs)


def test_game_controller_buttons_axes_and_unplug() -> None:
    inp = Input()
    assert inp.handle_pad_event(
        _event(pygame.CONTROLLERBUTTONDOWN, instance_id=3, button=pygame.CONTROLLER_BUTTON_B)
    )
    inp.handle_pad_event(
        _event(pygame.CONTROLLERBUTTONDOWN, instance_id=3, button=pygame.CONTROLLER_BUTTON_BACK)
    )
    inp.handle_pad_event(
        _event(
            pygame.CONTROLLERAXISMOTION,
            instance_id=3,
            axis=pygame.CONTROLLER_AXIS_TRIGGERRIGHT,
            value=32767,
        )
    )
    inp.handle_pad_event(
        _event(
            pygame.CONTROLLERAXISMOTION,
            instance_id=3,
            axis=pygame.CONTROLLER_AXIS_LEFTX,
            value=-30000,
        )
    )
    inp.latch()
    assert inp.button() == Button.A | Button.SELECT | Button.R | Button.LEFT
    inp.handle_pad_event(
        _event(
            pygame.CONTROLLERAXISMOTION, instance_id=3, axis=pygame.CONTROLLER_AXIS_LEFTX, value=100
        )
    )
    inp.handle_pad_event(
        _event(pygame.CONTROLLERBUTTONUP, instance_id=3, button=pygame.CONTROLLER_BUTTON_B)
    )
    inp.latch()
    assert inp.button() == Button.SELECT | Button.R
    inp.key_down(pygame.K_z)
    inp.handle_pad_event(_event(pygame.JOYDEVICEREMOVED, instance_id=3))
    inp.latch()
    assert inp.button() == Button.B, "unplugging releases what the pad held, not the keys"


def test_raw_joystick_buttons_hat_and_axes() -> None:
    inp = Input()
    inp.handle_pad_event(_event(pygame.JOYBUTTONDOWN, instance_id=9, button=1))
    inp.handle_pad_event(_event(pygame.JOYHATMOTION, instance_id=9, hat=0, value=(1, 1)))
    inp.latch()
    assert inp.button() == Button.A | Button.RIGHT | Button.UP
    inp.handle_pad_event(_event(pygame.JOYHATMOTION, instance_id=9, hat=0, value=(0, 0)))
    inp.handle_pad_event(_event(pygame.JOYAXISMOTION, instance_id=9, axis=1, value=0.9))
    inp.handle_pad_event(_event(pygame.JOYAXISMOTION, instance_id=9, axis=0, value=0.3))
    inp.handle_pad_event(_event(pygame.JOYBUTTONUP, instance_id=9, button=1))
    inp.latch()
    assert inp.button() == Button.DOWN, "0.3 is inside the dead zone"
    assert not inp.handle_pad_event(_event(pygame.KEYDOWN, key=pygame.K_a))


def test_cursor_moves_accelerates_touches_and_hides_its_buttons() -> None:
    cfg = ShimConfig(cursor_speed=2, cursor_fast_speed=5, cursor_accel_frames=3)
    inp = Input(cfg)
    inp.key_down(pygame.K_t)
    assert inp.cursor_visible
    assert inp.cursor_pos == (128, 96)
    inp.key_down(pygame.K_RIGHT)
    inp.key_down(pygame.K_q)  # L still reaches the program
    xs = []
    for _ in range(5):
        inp.latch()
        xs.append(inp.cursor_pos[0])
        assert inp.button() == Button.L, "the d-pad steers the cursor, not the program"
    assert xs == [130, 132, 134, 139, 144]
    inp.key_up(pygame.K_RIGHT)
    inp.key_down(pygame.K_x)  # A touches at the cursor
    inp.latch()
    assert (inp.tchst, inp.tchtime, inp.tchx, inp.tchy) == (1, 1, 144, 96)
    assert inp.cursor_touching
    assert inp.button() == Button.L
    inp.key_down(pygame.K_UP)  # drag
    inp.latch()
    assert (inp.tchst, inp.tchtime, inp.tchx, inp.tchy) == (1, 2, 144, 94)
    inp.key_up(pygame.K_UP)
    inp.key_up(pygame.K_x)
    inp.latch()
    assert inp.tchst == 0
    inp.key_down(pygame.K_LEFT)
    for _ in range(100):
        inp.latch()
    assert inp.cursor_pos == (0, 94), "the cursor stays on the screen"
    inp.key_down(pygame.K_t)  # hide: the d-pad reaches the program again
    inp.latch()
    assert not inp.cursor_visible
    assert inp.button() == Button.L | Button.LEFT


def test_cursor_toggle_lifts_a_cursor_touch_and_pad_toggles_too() -> None:
    inp = Input()
    toggle = _event(
        pygame.CONTROLLERBUTTONDOWN, instance_id=1, button=pygame.CONTROLLER_BUTTON_RIGHTSTICK
    )
    inp.handle_pad_event(toggle)
    assert inp.cursor_visible
    inp.handle_pad_event(
        _event(pygame.CONTROLLERBUTTONDOWN, instance_id=1, button=pygame.CONTROLLER_BUTTON_B)
    )
    inp.latch()
    assert inp.tchst == 1
    inp.handle_pad_event(toggle)
    inp.latch()
    assert inp.tchst == 0
    assert inp.button() == Button.A


def test_cursor_does_not_steal_injected_buttons_or_another_source() -> None:
    inp = Input()
    inp.toggle_cursor()
    inp.press(Button.RIGHT | Button.A)
    inp.stylus_down(("mouse",), 3, 4)
    inp.latch()
    assert inp.button() == Button.RIGHT | Button.A
    assert inp.cursor_pos == (128, 96)
    assert (inp.tchx, inp.tchy) == (3, 4)


def test_dropped_files_queue() -> None:
    inp = Input()
    assert inp.dropped_files() == []
    inp.drop_file("/tmp/a.ptc")
    inp.drop_file(pathlib.Path("b.png"))
    assert inp.dropped_files() == [pathlib.Path("/tmp/a.ptc"), pathlib.Path("b.png")]
    assert inp.dropped_files() == []


def test_hot_plug_of_a_pad_that_is_already_gone_is_harmless() -> None:
    pygame.joystick.init()
    inp = Input()
    assert inp.handle_pad_event(_event(pygame.JOYDEVICEADDED, device_index=99))
    assert inp.handle_pad_event(_event(pygame.CONTROLLERDEVICEREMOVED, instance_id=99))
    inp.latch()
    assert inp.button() == 0
