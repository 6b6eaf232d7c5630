"""The sector map as a bqplot figure, updated in place when the state changes.

>>> from dunenb.engine import new_game
>>> widget = SectorMapWidget(new_game(["atreides", "harkonnen"], seed=1))
>>> widget.update(widget.state)  # marks are changed in place, the figure object stays the same
"""

from __future__ import annotations

import bqplot as bq
import numpy as np

from dunenb.board import load_board
from dunenb.render.geometry import (
    KIND_COLOURS,
    STORM_COLOURS,
    area_label_point,
    area_outline,
    force_markers,
    label_rotation,
    last_storm_paths,
    spice_markers,
    start_markers,
    storm_outline,
)
from dunenb.state import GameState

LIMIT = 1.2


def _polygons(outlines: list[list[tuple[float, float]]]) -> tuple[np.ndarray, np.ndarray]:
    if not outlines:
        return np.zeros((1, 2)) + 9, np.zeros((1, 2)) + 9  # drawn off-canvas: bqplot needs data
    xs = np.array([[p[0] for p in outline] for outline in outlines])
    ys = np.array([[p[1] for p in outline] for outline in outlines])
    return xs, ys


class SectorMapWidget:
    """A bqplot map of the 24 sectors: territories, storms, the last storm path, spice and armies."""

    def __init__(self, state: GameState, *, title: str | None = None, size: int = 560) -> None:
        board = load_board()
        self.state = state
        self.x_scale = bq.LinearScale(min=-LIMIT, max=LIMIT)
        self.y_scale = bq.LinearScale(min=-LIMIT, max=LIMIT)
        scales = {"x": self.x_scale, "y": self.y_scale}
        xs, ys = _polygons([area_outline(area) for area in board.areas])
        self.territories = bq.Lines(
            x=xs, y=ys, scales=scales, fill="inside", close_path=True, colors=["#5b4a36"],
            fill_colors=[KIND_COLOURS[area.kind] for area in board.areas], stroke_width=1,
        )
        names = [area.name for area in board.areas]
        label_points = [area_label_point(area) for area in board.areas]
        self.labels = bq.Label(
            x=[p[0] for p in label_points], y=[p[1] for p in label_points], text=names, scales=scales,
            default_size=9, font_unit="px", align="middle", colors=["#2b2118"],
            rotation=[label_rotation(area) for area in board.areas],
        )
        self.storm_paths = bq.Lines(x=[[9, 9]], y=[[9, 9]], scales=scales, fill="inside", close_path=True,
                                    opacities=[0.6], fill_opacities=[0.18], line_style="dashed")
        self.storms = bq.Lines(x=[[9, 9]], y=[[9, 9]], scales=scales, fill="inside", close_path=True,
                               fill_opacities=[0.55], stroke_width=2)
        tooltip = bq.Tooltip(fields=["name"], labels=[""])
        self.spice = bq.Scatter(x=[9], y=[9], scales={**scales, "size": bq.LinearScale(min=0, max=20)},
                                colors=["#f57c00"], default_size=220, stroke="#7a3e00", tooltip=tooltip)
        self.spice_labels = bq.Label(x=[9], y=[9], text=[""], scales=scales, default_size=10, font_unit="px",
                                     align="middle", colors=["white"], font_weight="bold")
        self.forces = bq.Scatter(x=[9], y=[9], scales=scales, default_size=260, stroke="white",
                                 tooltip=bq.Tooltip(fields=["name"], labels=[""]))
        self.force_labels = bq.Label(x=[9], y=[9], text=[""], scales=scales, default_size=11, font_unit="px",
                                     align="middle", colors=["white"], font_weight="bold")
        self.starts = bq.Scatter(x=[9], y=[9], scales=scales, default_size=140, marker="triangle-up", stroke="#222")
        self.figure = bq.Figure(
            marks=[self.territories, self.labels, self.storm_paths, self.storms, self.spice, self.spice_labels,
                   self.forces, self.force_labels, self.starts],
            title=title or "Dune — the 24-sector map", padding_x=0, padding_y=0,
            fig_margin={"top": 40, "bottom": 10, "left": 10, "right": 10},
            layout={"width": f"{size}px", "height": f"{size + 30}px"},
        )
        self.figure.min_aspect_ratio = 1
        self.figure.max_aspect_ratio = 1
        self.update(state)

    def update(self, state: GameState) -> None:
        """Show ``state``: mark data change in place (one message per mark), the figure is kept."""
        self.state = state
        paths = last_storm_paths(state)
        path_outlines = [(storm, storm_outline(s)) for storm, path in sorted(paths.items()) for s in path]
        storms = [(name, s) for name, s in (("main", state.storm_main), ("secondary", state.storm_secondary))
                  if s is not None]
        spice = spice_markers(state)
        forces = force_markers(state)
        starts = start_markers(state)
        with self.figure.hold_sync():
            xs, ys = _polygons([outline for _, outline in path_outlines])
            with self.storm_paths.hold_sync():
                self.storm_paths.x, self.storm_paths.y = xs, ys
                self.storm_paths.colors = [STORM_COLOURS[s] for s, _ in path_outlines] or ["#000"]
                self.storm_paths.fill_colors = [STORM_COLOURS[s] for s, _ in path_outlines] or ["#000"]
            xs, ys = _polygons([storm_outline(s) for _, s in storms])
            with self.storms.hold_sync():
                self.storms.x, self.storms.y = xs, ys
                self.storms.colors = [STORM_COLOURS[n] for n, _ in storms] or ["#000"]
                self.storms.fill_colors = [STORM_COLOURS[n] for n, _ in storms] or ["#000"]
            self._markers(self.spice, self.spice_labels, spice)
            self._markers(self.forces, self.force_labels, forces)
            self._markers(self.starts, None, starts)
            self.figure.title = f"Dune — turn {state.turn}, {state.phase}"

    @staticmethod
    def _markers(scatter: bq.Scatter, labels: bq.Label | None, markers: list) -> None:
        if not markers:
            scatter.x, scatter.y = [9.0], [9.0]
            if labels is not None:
                labels.x, labels.y, labels.text = [9.0], [9.0], [""]
            return
        with scatter.hold_sync():
            scatter.x = [m.x for m in markers]
            scatter.y = [m.y for m in markers]
            scatter.colors = [m.colour for m in markers]
            scatter.names = [m.tooltip for m in markers]
            scatter.display_names = False
        if labels is not None:
            with labels.hold_sync():
                labels.x = [m.x for m in markers]
                labels.y = [m.y - 0.012 for m in markers]
                labels.text = [m.label for m in markers]
