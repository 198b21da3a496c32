"""Linear per-frame interpolation used by SPOFS, SPANGLE, SPSCALE and BGOFS with a time."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["Tween", "TweenArray", "landing"]

_NOWHERE = (np.zeros(0, np.intp), np.zeros(0, np.intp))


def landing(start: float, target: float, frames: int) -> float:
    """Where PTC's timed move of ``frames`` equal steps from ``start`` toward ``target``
    ends: each step is the 20.12 fixed-point distance divided by ``frames``, cut toward
    zero (C integer division), so an inexact division lands short of the target
    ([SBC] sprites.c ``cmd_spofs``, background.c ``cmd_bgofs``)."""
    raw = round((target - start) * 4096)
    step = abs(raw) // frames * (1 if raw >= 0 else -1)
    return start + step * frames / 4096


class Tween:
    """A value moving linearly to a target over a number of frames.

    ``set(target, frames)`` starts from the *current* value, so a new command
    issued mid-move continues from where the value is now (petitcom.md §2 SPOFS).
    """

    __slots__ = ("_end", "_frames", "_start", "left", "value")

    def __init__(self, value: float = 0.0) -> None:
        self.value = float(value)
        #: Frames still to go (0 = at rest); public so hot loops can test it cheaply.
        self.left = 0
        self._start = self.value
        self._end = self.value
        self._frames = 0

    @property
    def moving(self) -> bool:
        """True while frames remain."""
        return self.left > 0

    @property
    def target(self) -> float:
        """Where the value ends up."""
        return self._end

    def set(self, target: float, frames: int = 0) -> None:
        """Go to ``target`` now (frames <= 0) or over ``frames`` frames."""
        frames = int(frames)
        if frames <= 0:
            self.value = self._start = self._end = float(target)
            self._frames = self.left = 0
            return
        self._start = self.value
        self._end = float(target)
        self._frames = self.left = frames

    def step(self) -> bool:
        """Advance one frame; returns True if the value changed."""
        if self.left <= 0:
            return False
        self.left -= 1
        done = self._frames - self.left
        self.value = self._start + (self._end - self._start) * done / self._frames
        if self.left == 0:
            self.value = self._end
        return True


class TweenArray:
    """A table of :class:`Tween`-like values, each with its own timing, stepped in one pass.

    Same arithmetic as :class:`Tween`: ``value = start + (end - start) * done / frames``,
    landing exactly on ``end`` at the last frame. Row = object (e.g. sprite id),
    column = quantity (e.g. x, y, angle, scale).
    """

    def __init__(self, initial: list[float], rows: int) -> None:
        self.initial = np.array(initial, dtype=np.float64)
        self.value = np.tile(self.initial, (rows, 1))
        self.start = self.value.copy()
        self.end = self.value.copy()
        self.frames = np.zeros(self.value.shape, np.int64)
        self.left = np.zeros(self.value.shape, np.int64)
        self._moving = False  # fast path: a frame with nothing under way costs nothing

    def reset(self, row: int) -> None:
        """Put a row back to the initial values, at rest."""
        self.value[row] = self.start[row] = self.end[row] = self.initial
        self.frames[row] = self.left[row] = 0

    def set(self, row: int, cols: slice, target: tuple[float, ...], frames: int = 0) -> None:
        """Columns ``cols`` of a row go to ``target`` now (frames <= 0) or over ``frames``
        frames, starting from where they are (mid-move included)."""
        if frames <= 0:
            # One element at a time: a slice assignment costs several times more, and
            # SPOFS (every sprite, every frame) comes here (issue 23 §4). ``start`` and
            # ``end`` are read only where ``left`` > 0, and a move writes both when it
            # begins, so a value at rest needs neither.
            value, left = self.value, self.left
            for col, x in zip(range(cols.start or 0, cols.stop), target, strict=True):
                value[row, col] = x
                if self._moving:  # at rest everywhere, every ``left`` is 0 already
                    left[row, col] = self.frames[row, col] = 0
        else:
            self.start[row, cols] = self.value[row, cols]
            self.end[row, cols] = target
            self.frames[row, cols] = self.left[row, cols] = int(frames)
            self._moving = True

    def set_pair(self, row: int, a: float, b: float) -> None:
        """Columns 0 and 1 of a row go to ``(a, b)`` now: :meth:`set` with no frames,
        written out for SPOFS, which programs call for every sprite every frame."""
        value = self.value
        value[row, 0] = a
        value[row, 1] = b
        if self._moving:
            left, frames = self.left, self.frames
            left[row, 0] = left[row, 1] = frames[row, 0] = frames[row, 1] = 0

    def step(self) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
        """Advance every moving value by one frame; returns the (rows, cols) that moved."""
        if not self._moving:
            return _NOWHERE
        # Whole-table arithmetic, kept only where a value moves: cheaper than gathering and
        # scattering when many move, and the same operations in the same order as Tween.
        moving = self.left > 0
        where = np.nonzero(moving)
        if not len(where[0]):
            self._moving = False
            return where[0], where[1]
        self.left -= moving
        with np.errstate(divide="ignore", invalid="ignore"):  # rows at rest have 0 frames
            stepped = self.start + (self.end - self.start) * (self.frames - self.left) / self.frames
        np.copyto(self.value, stepped, where=moving)
        np.copyto(self.value, self.end, where=moving & (self.left == 0))  # land exactly
        return where[0], where[1]
