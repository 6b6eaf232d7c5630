"""Compare two lines of a game tree: spice and cities per House per turn, and the two final maps."""

from __future__ import annotations

from html import escape

import bqplot as bq
import ipywidgets as widgets
import pandas as pd

from dunenb.analysis.game_stats import line_table
from dunenb.battle.colours import house_colour
from dunenb.record import GameRecord
from dunenb.render.ticks import integer_ticks
from dunenb.ruleset import load_ruleset
from dunenb.widgets.sector_map import SectorMapWidget


def compare_lines(record: GameRecord, first: int, second: int) -> pd.DataFrame:
    """The turn-end standings of both lines side by side (columns suffixed ``_a`` and ``_b``)."""
    a = line_table(record, first).set_index(["turn", "house"])
    b = line_table(record, second).set_index(["turn", "house"])
    # a merge on the index: the same outer join, sorted, as DataFrame.join, whose lsuffix/rsuffix pandas 3 deprecates
    return a.merge(b, left_index=True, right_index=True, how="outer", suffixes=("_a", "_b")).reset_index()


def _chart(table: pd.DataFrame, column: str, title: str, label: str) -> bq.Figure:
    x, y = bq.LinearScale(), bq.LinearScale(min=0)
    marks = []
    for house in table["house"].unique():
        rows = table[table["house"] == house].sort_values("turn")
        colour = load_ruleset().house(house).colour
        for suffix, style in (("_a", "solid"), ("_b", "dashed")):
            values = rows[column + suffix]
            if values.notna().any():
                marks.append(bq.Lines(
                    x=rows["turn"].to_numpy(), y=values.fillna(0).to_numpy(), scales={"x": x, "y": y},
                    colors=[colour], line_style=style, marker="circle", marker_size=24,
                    labels=[f"{load_ruleset().house(house).name} ({'A' if suffix == '_a' else 'B'})"],
                    display_legend=False))  # issue 12: the legend sits beside the charts, never on the lines
    turns = table["turn"].dropna()
    values = table[[column + "_a", column + "_b"]].to_numpy(dtype=float)
    top = float(pd.Series(values.ravel()).max()) if values.size else 1.0
    x.min, x.max = float(turns.min()), float(turns.max())
    y.max = float(max(1.0, top))
    return bq.Figure(
        marks=marks, title=title,
        axes=[bq.Axis(scale=x, label="turn", tick_format="d", tick_values=integer_ticks(x.min, x.max)),
              bq.Axis(scale=y, orientation="vertical", label=label, tick_format="d",
                      tick_values=integer_ticks(0, y.max))],
        layout=widgets.Layout(width="520px", height="340px"))


def _legend_html(table: pd.DataFrame) -> str:
    """The charts' legend in words: House colours, and solid for line A, dashed for line B."""
    items = " ".join(f"<span style='color:{house_colour(h)}'>●</span> {escape(load_ruleset().house(h).name)}"
                     for h in table["house"].unique())
    return f"<div style='font-size:12px'>{items} &nbsp;·&nbsp; solid line = line A, dashed line = line B</div>"


class BranchComparison:
    """Charts of two lines (A solid, B dashed, House colours) and their final positions as two maps."""

    def __init__(self, record: GameRecord, first: int, second: int) -> None:
        self.table = compare_lines(record, first, second)
        self.spice_chart = _chart(self.table, "spice", "Spice per House at the end of each turn", "spice")
        self.cities_chart = _chart(self.table, "cities_owned", "Cities and Sietchs owned", "cities and Sietchs")
        self.maps = [SectorMapWidget(record.state_at(node), title=title)  # default size: labels stay 11 px
                     for node, title in ((first, "Line A — final position"), (second, "Line B — final position"))]
        self.widget = widgets.VBox([
            widgets.HBox([self.spice_chart, self.cities_chart]), widgets.HTML(_legend_html(self.table)),
            widgets.Tab([m.figure for m in self.maps], titles=("Line A", "Line B")),
        ])

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)
