"""Linear per-frame interpolation used by SPOFS, SPANGLE, SPSCALE and BGOFS with a time."""

from __future__ import annotations

__all__ = ["Tween"]


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
