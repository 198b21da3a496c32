"""The match result: the winner, a per-round table (top) and a bar chart on the GRP page (bottom).

The chart is drawn with GBOX/GFILL/GLINE on the bottom screen's GRP page, the
way a 2013 PTC program would. Buttons: REMATCH (same mode and level) and TITLE.
The finished match is added to the statistics and kept in the history once.
"""

from __future__ import annotations

from royalnine import art, history
from royalnine.app import App, InputFrame, Scene
from royalnine.core import Match
from royalnine.core.record import MetaValue
from royalnine.screens import draw, registry
from royalnine.screens.layout import BOTTOM, TOP, Rect
from royalnine.screens.menu import Menu, row
from royalnine.screens.remote import RemoteLink, folder_lines
from royalnine.screens.remote_io import copy_code

CHART_X, CHART_Y, CHART_W, CHART_H = 24, 24, 216, 104  # under the legend on row 1
GRP_AXIS, GRP_SEAT0, GRP_SEAT1, GRP_GRID = 1, 2, 3, 4
GRP_COLOURS = {GRP_AXIS: "F8F8F8", GRP_SEAT0: "60D8F8", GRP_SEAT1: "F890C8", GRP_GRID: "3C8C5A"}


def chart_places(numbers: list[int]) -> tuple[int, list[tuple[int, int | None]]]:
    """Where the chart draws each round: the bar width, and for each round the x of its
    first bar and the console column of its number (None: no number under this pair).

    The pairs stand a whole number of text cells apart, so moving each pair (by at most
    4 pixels within its slot) to be centred under its number, which sits on the 8-pixel
    text grid, moves every pair with as many digits alike: the bars stay evenly spaced.
    Where the numbers would touch (12 rounds of two digits), only every second (or
    third) round is numbered, always the last one.
    """
    count = max(1, len(numbers))
    pitch = max(8, CHART_W // count // 8 * 8)
    bar = max(2, min(14, (pitch - 10) // 2))  # the pair may move 4 pixels either way in its slot
    left = CHART_X + (CHART_W - count * pitch) // 2
    widest = max([1] + [len(str(n)) for n in numbers])
    every = -(-8 * (widest + 1) // pitch)  # a blank cell between the widest numbers
    places: list[tuple[int, int | None]] = []
    for k, number in enumerate(numbers):
        digits = len(str(number))
        centre = left + k * pitch + pitch // 2  # where the pair would be centred in its slot
        col = (centre - 4 * digits + 4) // 8  # the nearest cell, ties alike for every pair
        label_centre = col * 8 + 4 * digits
        shown = (len(numbers) - 1 - k) % every == 0
        places.append((label_centre - bar - 1, col if shown else None))  # 2 bars + 2 px
    return bar, places


class MatchResultScene:
    """The end of a match."""

    music = "result"  # the song royalnine.music plays while this scene is active

    def __init__(
        self,
        match: Match,
        mode: str,
        level: str,
        names: tuple[str, str],
        *,
        remote: RemoteLink | None = None,
    ) -> None:
        self.match = match
        self.mode = mode
        self.level = level
        self.names = names
        self.remote = remote
        """For a remote match: its link (this device's seat, the last code to send)."""
        self.me = remote.session.seat if remote is not None else 0
        self.menu: Menu | None = None
        self.recorded = False

    @property
    def stats_level(self) -> str:
        """The level's name in the statistics file: MASTER keeps its earlier key, "match",
        so the games played before the level was renamed still count."""
        return "match" if self.level == "master" else self.level

    def enter(self, app: App) -> None:
        """Draw the table and the chart; record the result once."""
        m = app.m
        outcome = self.match.outcome()
        assert outcome is not None
        if not self.recorded:
            self.recorded = True
            meta = {"difficulty": self.stats_level} if self.mode == "cpu" else {}
            app.store(
                "stats",
                lambda: app.storage.record_result(outcome, self.mode, meta, seat=self.me),
            )
            if app.keep_history:
                app.store("history", lambda: self.keep(app))
            won = outcome.winner == self.me or self.mode == "local"
            app.beep("win" if won or outcome.draw else "lose")
        draw.reset_screens(m)
        draw.centred(m, TOP, 1, app.t("match_result"), art.TEXT_YELLOW)
        if outcome.winner is None:
            headline = app.t("draw")
        elif outcome.winner == self.me and self.mode in ("cpu", "remote") and not app.demo:
            headline = app.t("you_win")
        else:
            headline = app.t("wins", who=self.names[outcome.winner])
        draw.centred(m, TOP, 3, headline, art.TEXT_WHITE)
        self.draw_table(app)
        self.draw_stats(app)
        self.draw_chart(app)
        items = [("rematch", app.t("rematch")), ("title", app.t("to_title"))]
        if self.remote is not None:
            items = items[1:]  # a rematch is a new remote match: host or join one from the title
            shown = self.remote.showing()
            if shown is not None:  # the other player still needs this device's last code
                draw.text(m, BOTTOM, 1, 18, app.t("remote_last", n=shown[0]), art.TEXT_YELLOW)
                path = self.remote.code_path(shown[0])
                for k, line in enumerate(folder_lines(path, width=30, rows=2)):
                    draw.text(m, BOTTOM, 1, 19 + k, line, art.TEXT_WHITE)
        y = 168 if self.remote is not None else 160
        self.menu = Menu(row(items, y=y, width=96, height=24, gap=16), horizontal=True)
        self.menu.draw(app)

    def keep(self, app: App) -> None:
        """Add the match to the history: a remote one as its verified transcript shows it
        (a transcript that does not verify to this finished match is not kept)."""
        if self.remote is not None:
            history.keep_remote(app.storage, self.remote.session.transcript, self.me)
            return
        meta: dict[str, MetaValue] = {"level": self.level} if self.mode == "cpu" else {}
        seat = None if self.mode == "local" else self.me
        history.add(app.storage, self.match, self.mode, meta, seat=seat)

    def draw_table(self, app: App) -> None:
        """Round-by-round points and the totals."""
        m = app.m
        a, b = self.names
        draw.text(m, TOP, 6, 6, f"{app.t('rnd_short'):<5}{a:>9}{b:>9}", art.TEXT_GREY)
        shown = self.match.results[-12:]
        spacing = 2 if len(shown) <= 6 else 1
        for k, res in enumerate(shown):
            p = res.points
            colour = (
                art.TEXT_CYAN if p[0] > p[1] else (art.TEXT_PINK if p[1] > p[0] else art.TEXT_WHITE)
            )
            draw.text(m, TOP, 6, 8 + k * spacing, f"{res.number:<5}{p[0]:>9}{p[1]:>9}", colour)
        totals = self.match.totals()
        row_ = 8 + len(shown) * spacing
        draw.text(
            m, TOP, 6, row_, f"{app.t('total'):<5}{totals[0]:>9}{totals[1]:>9}", art.TEXT_YELLOW
        )

    def draw_stats(self, app: App) -> None:
        """This mode's record so far (from the statistics file), under the table."""
        key = self.mode if self.mode != "cpu" else f"cpu:{self.stats_level}"
        try:
            entry = app.storage.stats().get(key)
        except OSError:
            return
        if not isinstance(entry, dict):
            return
        try:
            played, won, lost = (int(entry.get(k, 0)) for k in ("played", "won", "lost"))
        except (TypeError, ValueError):
            return
        if self.mode == "cpu":  # the record of this CPU level, and it says so
            level = app.t(f"level_{self.level}")
            line = app.t("stats_line_cpu", level=level, games=played, won=won, lost=lost)
        else:
            line = app.t("stats_line", games=played, won=won, lost=lost)
        draw.centred(app.m, TOP, 22, line, art.TEXT_GREY)

    def draw_chart(self, app: App) -> None:
        """Two bars per round on the bottom GRP page, scaled to the best round."""
        m = app.m
        m.gpage(BOTTOM)
        m.gprio(2)
        for n, rgb in GRP_COLOURS.items():
            m.colset("GRP", n, rgb)
        results = self.match.results[-12:]
        top_pts = max([1] + [max(r.points) for r in results])
        base = CHART_Y + CHART_H
        m.gfill(CHART_X - 4, CHART_Y - 4, CHART_X + CHART_W + 4, base + 4, GRP_GRID)
        draw.picture(BOTTOM, Rect(CHART_X - 4, CHART_Y - 4, CHART_W + 9, CHART_H + 9))
        bar, places = chart_places([r.number for r in results])
        for res, (x, col) in zip(results, places, strict=True):
            for seat, colour in ((0, GRP_SEAT0), (1, GRP_SEAT1)):
                h = round(res.points[seat] * (CHART_H - 8) / top_pts)
                bx = x + seat * (bar + 2)
                if h > 0:
                    m.gfill(bx, base - h, bx + bar - 1, base - 1, colour)
                else:
                    m.gline(bx, base - 1, bx + bar - 1, base - 1, colour)
            if col is not None:
                draw.text(m, BOTTOM, col, (base + 8) // 8, str(res.number), art.TEXT_WHITE)
        m.gline(CHART_X - 2, base, CHART_X + CHART_W + 2, base, GRP_AXIS)
        m.gline(CHART_X - 2, CHART_Y - 2, CHART_X - 2, base, GRP_AXIS)
        # the legend on row 1 (row 0 would touch the screen's top edge), above the chart
        draw.text(m, BOTTOM, 3, 1, "■", art.TEXT_CYAN)
        draw.text(m, BOTTOM, 5, 1, self.names[0], art.TEXT_CYAN)
        draw.text(m, BOTTOM, 16, 1, "■", art.TEXT_PINK)
        draw.text(m, BOTTOM, 18, 1, self.names[1], art.TEXT_PINK)

    def frame(self, app: App, inp: InputFrame) -> Scene | None:
        """Rematch or back to the title."""
        assert self.menu is not None
        choice = self.menu.handle(app, inp)
        shown = self.remote.showing() if self.remote is not None else None
        if "copy" in inp.edit and shown is not None:  # Ctrl+C: the last code as text
            copy_code(app, shown[1])
            app.beep("confirm")
        if choice == "rematch":
            return registry.make("new_match", app, self.mode, self.level)
        if choice == "title" or "select" in inp.keys:  # Esc: back to the title
            return registry.make("title")
        return None
