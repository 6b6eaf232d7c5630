"""The sector map as a bqplot figure, updated in place when the state changes.

It draws the same picture as :func:`dunenb.render.render_svg`: texts and tokens come from the shared layout
:func:`dunenb.render.layout.map_layout` (issue 12: no overlapping labels, sector numbers, a legend, armies beside
the names with their counts).

>>> from dunenb.engine import new_game
>>> widget = SectorMapWidget(new_game(["atreides", "harkonnen"], seed=1))
>>> widget.update(widget.state)  # marks are changed in place, the figure object stays the same
"""

from __future__ import annotations

import math

import bqplot as bq
import numpy as np

from dunenb.board import load_board
from dunenb.render.geometry import (
    KIND_COLOURS,
    STORM_COLOURS,
    area_outline,
    last_storm_paths,
    polar_point,
    sector_mid_angle,
    storm_outline,
)
from dunenb.render.layout import (
    COUNT_PX,
    LEGEND_PX,
    LEGEND_WIDTH,
    LIMIT,
    MAP_PIXELS,
    NAME_PX,
    STORM_LETTER_RADIUS,
    MapLayout,
    PlacedMarker,
    PlacedText,
    map_layout,
    px_per_unit,
)
from dunenb.state import GameState

TITLE_MARGIN = 44
OFF = 9.0  # off-canvas coordinate: bqplot marks need data even when there is nothing to draw
#: Scatter marks by (shape, radius in px); d3 symbol sizes are areas in px².
SHAPES = {"circle": ("circle", lambda r: math.pi * r * r), "diamond": ("diamond", lambda r: 2 * r * r),
          "square": ("square", lambda r: 4 * r * r), "triangle": ("triangle-up", lambda r: 1.3 * r * r)}
GROUPS = (("circle", 9.5), ("circle", 7.0), ("diamond", 9.5), ("diamond", 7.0), ("square", 8.0), ("square", 7.0),
          ("triangle", 7.0))


def _polygons(outlines: list[list[tuple[float, float]]]) -> tuple[np.ndarray, np.ndarray]:
    if not outlines:
        return np.zeros((1, 2)) + OFF, np.zeros((1, 2)) + OFF
    xs = np.array([[p[0] for p in outline] for outline in outlines])
    ys = np.array([[p[1] for p in outline] for outline in outlines])
    return xs, ys


class SectorMapWidget:
    """A bqplot map of the 24 sectors: territories, storms, the last storm path, names, spice, armies, legend.

    ``size`` is the width in pixels of the disk part (the legend column adds to it).
    """

    def __init__(self, state: GameState, *, title: str | None = None, size: int = MAP_PIXELS) -> None:
        board = load_board()
        self.state = state
        self.scale = px_per_unit(size)
        width = (2 * LIMIT + LEGEND_WIDTH) * self.scale
        self.x_scale = bq.LinearScale(min=-LIMIT, max=LIMIT + LEGEND_WIDTH)
        self.y_scale = bq.LinearScale(min=-LIMIT, max=LIMIT)
        scales = {"x": self.x_scale, "y": self.y_scale}
        # bqplot maps a Label's per-text rotation through a scale whose range is [0, 180]: the identity here
        text_scales = {**scales, "rotation": bq.LinearScale(min=0, max=180)}
        xs, ys = _polygons([area_outline(area) for area in board.areas])
        self.territories = bq.Lines(
            x=xs, y=ys, scales=scales, fill="inside", close_path=True, colors=["#5b4a36"],
            fill_colors=[KIND_COLOURS[area.kind] for area in board.areas], stroke_width=1,
        )
        self.storm_paths = bq.Lines(x=[[OFF, OFF]], y=[[OFF, OFF]], scales=scales, close_path=True,
                                    line_style="dashed", stroke_width=1.5)
        self.storms = bq.Lines(x=[[OFF, OFF]], y=[[OFF, OFF]], scales=scales, fill="inside", close_path=True,
                               fill_opacities=[0.28], stroke_width=2.5)
        self.storm_letters = bq.Label(x=[OFF], y=[OFF], text=[""], scales=scales, default_size=COUNT_PX + 2,
                                      font_unit="px", align="middle", font_weight="bold")
        self.names = bq.Label(x=[OFF], y=[OFF], text=[""], scales=text_scales, default_size=NAME_PX,
                              font_unit="px", align="middle", colors=["#2b2118"], font_weight="normal")
        self.legend_texts = bq.Label(x=[OFF], y=[OFF], text=[""], scales=scales, default_size=LEGEND_PX,
                                     font_unit="px", align="start", colors=["#222222"], font_weight="normal")
        self.leaders = bq.Lines(x=[[OFF, OFF]], y=[[OFF, OFF]], scales=scales, stroke_width=1.5)
        self.tokens: dict[tuple[str, float], bq.Scatter] = {}
        for shape, radius in GROUPS:
            marker, area = SHAPES[shape]
            self.tokens[(shape, radius)] = bq.Scatter(
                x=[OFF], y=[OFF], scales=scales, marker=marker, default_size=round(area(radius)), stroke="#333333",
                tooltip=bq.Tooltip(fields=["name"], labels=[""]))
        self.forces = self.tokens[("circle", 9.5)]  # the armies (kept as an attribute for callers and tests)
        self.counts = bq.Label(x=[OFF], y=[OFF], text=[""], scales=scales, default_size=COUNT_PX, font_unit="px",
                               align="middle", font_weight="bold", colors=["white"])
        self.figure = bq.Figure(
            marks=[self.territories, self.storm_paths, self.storms, self.leaders, self.storm_letters, self.names,
                   self.legend_texts, *self.tokens.values(), self.counts],
            title=title or "Dune — the 24-sector map", padding_x=0, padding_y=0,
            fig_margin={"top": TITLE_MARGIN, "bottom": 0, "left": 0, "right": 0},
            layout={"width": f"{width:.0f}px", "height": f"{size + TITLE_MARGIN}px", "min_width": f"{width:.0f}px",
                    "flex": "0 0 auto"},  # never shrunk by a box: the layout's pixel sizes must hold
            title_style={"font-size": "16px"},
        )
        self.figure.min_aspect_ratio = width / size
        self.figure.max_aspect_ratio = width / size
        self._fixed: tuple[PlacedText, ...] | None = None
        self.update(state)

    def update(self, state: GameState) -> None:
        """Show ``state``: mark data change in place (one message per mark), the figure is kept."""
        self.state = state
        layout = map_layout(state, scale=self.scale)
        paths = last_storm_paths(state)
        path_outlines = [(storm, storm_outline(s)) for storm, path in sorted(paths.items()) for s in path]
        storms = [(name, s) for name, s in (("main", state.storm_main), ("secondary", state.storm_secondary))
                  if s is not None]
        with self.figure.hold_sync():
            xs, ys = _polygons([outline for _, outline in path_outlines])
            with self.storm_paths.hold_sync():
                self.storm_paths.x, self.storm_paths.y = xs, ys
                self.storm_paths.colors = [STORM_COLOURS[s] for s, _ in path_outlines] or ["#000"]
            xs, ys = _polygons([storm_outline(s) for _, s in storms])
            with self.storms.hold_sync():
                self.storms.x, self.storms.y = xs, ys
                self.storms.colors = [STORM_COLOURS[n] for n, _ in storms] or ["#000"]
                self.storms.fill_colors = [STORM_COLOURS[n] for n, _ in storms] or ["#000"]
                self.storms.fill_opacities = [0.28] * max(1, len(storms))  # a veil: the names stay readable
            letters = [(polar_point(STORM_LETTER_RADIUS, sector_mid_angle(s)), n) for n, s in storms]
            self._texts(self.storm_letters, [PlacedText("S" if n == "main" else "s", x, y, COUNT_PX + 2,
                                                        colour=STORM_COLOURS[n]) for (x, y), n in letters])
            names = tuple(t for t in layout.texts if t.role in ("name", "sector"))
            if names != self._fixed:  # names and sector numbers never move: sent once
                self._texts(self.names, list(names))
                self._fixed = names
            self._texts(self.legend_texts, [t for t in layout.texts if t.role == "legend"])
            self._leaders(layout)
            for (shape, radius), scatter in self.tokens.items():
                self._markers(scatter, [m for m in layout.markers if m.shape == shape and m.radius_px == radius])
            self._texts(self.counts, [PlacedText(m.label, m.x, m.y, COUNT_PX, colour=m.text_colour)
                                      for m in layout.markers if m.label])
            self.figure.title = f"Dune — turn {state.turn}, {state.phase}"

    def _texts(self, mark: bq.Label, texts: list[PlacedText]) -> None:
        if not texts:
            mark.x, mark.y, mark.text = [OFF], [OFF], [""]
            return
        with mark.hold_sync():  # bqplot centres a text vertically on its point (dominant-baseline: central)
            mark.x = [t.left(self.scale) if mark.align == "start" else t.x for t in texts]
            mark.y = [t.y for t in texts]
            mark.text = [t.text for t in texts]
            mark.rotation = [t.rotation for t in texts]
            mark.colors = [t.colour for t in texts]

    def _leaders(self, layout: MapLayout) -> None:
        lines = [(m.anchor, m) for m in layout.markers if m.anchor is not None]
        with self.leaders.hold_sync():
            if not lines:
                self.leaders.x, self.leaders.y = [[OFF, OFF]], [[OFF, OFF]]
                return
            self.leaders.x = np.array([[anchor[0], m.x] for anchor, m in lines])
            self.leaders.y = np.array([[anchor[1], m.y] for anchor, m in lines])
            self.leaders.colors = [m.colour for _anchor, m in lines]

    @staticmethod
    def _markers(scatter: bq.Scatter, markers: list[PlacedMarker]) -> None:
        with scatter.hold_sync():
            if not markers:
                scatter.x, scatter.y = [OFF], [OFF]
                return
            scatter.x = [m.x for m in markers]
            scatter.y = [m.y for m in markers]
            scatter.colors = [m.colour for m in markers]
            scatter.names = [m.tooltip for m in markers]
            scatter.display_names = False
