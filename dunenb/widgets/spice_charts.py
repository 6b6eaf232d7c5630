"""bqplot charts of the spice analyses (:mod:`dunenb.analysis.spice_map`, :mod:`dunenb.analysis.worms`)."""

from __future__ import annotations

import bqplot as bq
import ipywidgets as widgets
import numpy as np
import pandas as pd

SPICE_COLOURS = ["#fff8e1", "#ffb74d", "#e65100"]


def spice_heatmap(frame: pd.DataFrame, *, title: str = "Spice on the map") -> bq.Figure:
    """Territories × turns heatmap of spice amounts (``spice_through_game``)."""
    x, y = bq.OrdinalScale(), bq.OrdinalScale()
    colour = bq.ColorScale(colors=SPICE_COLOURS, min=0, max=max(1, int(frame.to_numpy().max())))
    grid = bq.GridHeatMap(
        row=list(frame.index), column=[str(c) for c in frame.columns], color=frame.to_numpy(dtype=float),
        scales={"row": y, "column": x, "color": colour}, stroke="white",
        tooltip=bq.Tooltip(fields=["color"], labels=["spice"]),
    )
    return bq.Figure(
        marks=[grid], title=title, padding_y=0,
        axes=[bq.Axis(scale=x, label="turn"), bq.Axis(scale=y, orientation="vertical", label="territory"),
              bq.ColorAxis(scale=colour, label="spice", side="right")],
        fig_margin={"top": 50, "bottom": 50, "left": 150, "right": 90},
        layout=widgets.Layout(width="760px", height="560px"))


def _bars(labels: list[str], values: list[float], *, title: str, x_label: str, colour: str,
          tick_format: str = ".1f") -> bq.Figure:
    # issue 12: a probability axis runs from 0 to 100 %, so that a bar of 52 % looks half full
    x, y = bq.LinearScale(min=0, max=1) if tick_format.endswith("%") else bq.LinearScale(min=0), bq.OrdinalScale()
    bars = bq.Bars(x=labels, y=values, orientation="horizontal", scales={"x": y, "y": x}, colors=[colour])
    return bq.Figure(
        marks=[bars], title=title,
        axes=[bq.Axis(scale=x, label=x_label, tick_format=tick_format),
              bq.Axis(scale=y, orientation="vertical")],
        fig_margin={"top": 50, "bottom": 50, "left": 150, "right": 30},
        layout=widgets.Layout(width="700px", height=f"{max(260, 24 * len(labels) + 100)}px"))


def blow_bars(statistics: pd.DataFrame) -> bq.Figure:
    """Spice per game by territory over many simulated games (``blow_statistics``)."""
    ordered = statistics.sort_values("spice_per_game")
    return _bars(list(ordered.index), list(ordered["spice_per_game"]), title="Spice blown per game, by territory",
                 x_label="spice per game", colour="#f57c00")


def worm_bars(table: pd.DataFrame) -> bq.Figure:
    """Exact probability of a worm strike on each deposit at the next blow (``worm_strike_table``)."""
    ordered = table.sort_values("p_worm")
    labels = [f"{t} ({s})" for t, s in zip(ordered["territory"], ordered["spice"], strict=True)]
    values = list(np.asarray(ordered["p_worm"], dtype=float))
    return _bars(labels or ["(no deposit)"], values or [0.0], title="P(Shai-Hulud strikes it next turn)",
                 x_label="probability", colour="#6d4c41", tick_format=".0%")
