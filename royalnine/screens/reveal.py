"""The scoring show after the common card turns: each scoring line, then any bonus, then the total.

Built from the core's :class:`GridScore` breakdown (never re-scored here), so
what the player reads is exactly what the rules counted. Each step names the
cells to highlight, the text to show (``MIDDLE ROW`` / ``STRAIGHT FLUSH x2 = 4``)
and the sound to play; the match screen plays the steps in turn.
"""

from __future__ import annotations

from dataclasses import dataclass

from royalnine.core import GridScore, Role, RoundResult
from royalnine.i18n import tr

ALL_CELLS = tuple(range(9))


@dataclass(frozen=True)
class RevealStep:
    """One beat of the scoring show for one seat's grid."""

    seat: int
    cells: tuple[int, ...]
    lines: tuple[str, ...]
    sound: str
    """``role``, ``none``, ``royal``, ``bust`` or ``total``."""
    running: int
    """Points of this grid counted so far (the total on the last step)."""
    kind: str = "line"
    """``line``, ``none``, ``royal``, ``bust`` or ``total``."""


def line_text(score: GridScore, index: int, lang: str) -> tuple[str, str]:
    """The two text lines of a scoring line: its name and ``ROLE x2 = pts``."""
    ls = score.lines[index]
    name = tr("line_" + ls.line.name.replace(" ", "_"), lang)
    role = tr("role_" + ls.role.name, lang)
    return name, tr("line_score", lang, role=role, x2=" x2" if ls.doubled else "", pts=ls.points)


def grid_steps(seat: int, score: GridScore, who: str, lang: str) -> list[RevealStep]:
    """The steps of one grid: its roles in line order, the bonus or bust, the total."""
    steps: list[RevealStep] = []
    running = 0
    for i, ls in enumerate(score.lines):
        if ls.role is Role.NONE:
            continue
        running += ls.points
        steps.append(RevealStep(seat, ls.line.cells, line_text(score, i, lang), "role", running))
    if not steps:
        steps.append(RevealStep(seat, (), (tr("no_roles", lang),), "none", 0, "none"))
    if score.royal_nine:
        running += 16
        lines = (tr("royal_nine", lang), tr("royal_nine2", lang))
        steps.append(RevealStep(seat, ALL_CELLS, lines, "royal", running, "royal"))
    if score.bust:
        bust = (tr("bust", lang), tr("bust2", lang), tr("bust3", lang))
        steps.append(RevealStep(seat, ALL_CELLS, bust, "bust", 0, "bust"))
    total = tr("grid_total", lang, who=who, pts=score.total)
    steps.append(RevealStep(seat, (), (total,), "total", score.total, "total"))
    return steps


def reveal_steps(
    result: RoundResult, order: tuple[int, int], names: tuple[str, str], lang: str
) -> list[RevealStep]:
    """All steps of a round: the grid of ``order[0]`` first, then ``order[1]``."""
    steps: list[RevealStep] = []
    for seat in order:
        steps += grid_steps(seat, result.scores[seat], names[seat], lang)
    return steps
