"""Compare two lines of a game tree: spice and cities per House per turn, and the two final maps."""

from __future__ import annotations

import bqplot as bq
import ipywidgets as widgets
import pandas as pd

from dunenb.analysis.game_stats import line_table
from dunenb.record import GameRecord
from dunenb.ruleset import load_ruleset
from dunenb.widgets.sector_map import SectorMapWidget


def compare_lines(record: GameRecord, first: int, second: int) -> pd.DataFrame:
    """The turn-end standings of both lines side by side (columns suffixed ``_a`` and ``_b``)."""
    a = line_table(record, first).set_index(["turn", "house"])
    b = line_table(record, second).set_index(["turn", "house"])
    return a.join(b, lsuffix="_a", rsuffix="_b", how="outer").reset_index()


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
                    display_legend=True))
    return bq.Figure(
        marks=marks, title=title, legend_location="top-left",
        axes=[bq.Axis(scale=x, label="turn", tick_format="d"),
              bq.Axis(scale=y, orientation="vertical", label=label, tick_format="d")],
        layout=widgets.Layout(width="520px", height="340px"))


class BranchComparison:
    """Charts of two lines (A solid, B dashed, House colours) and their final positions as two maps."""

    def __init__(self, record: GameRecord, first: int, second: int) -> None:
        self.table = compare_lines(record, first, second)
        self.spice_chart = _chart(self.table, "spice", "Spice per House at the end of each turn", "spice")
        self.cities_chart = _chart(self.table, "cities_owned", "Cities and Sietchs owned", "cities and Sietchs")
        self.maps = [SectorMapWidget(record.state_at(node), title=title)  # default size: labels stay 11 px
                     for node, title in ((first, "Line A — final position"), (second, "Line B — final position"))]
        self.widget = widgets.VBox([
            widgets.HBox([self.spice_chart, self.cities_chart]),
            widgets.Tab([m.figure for m in self.maps], titles=("Line A", "Line B")),
        ])

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)
