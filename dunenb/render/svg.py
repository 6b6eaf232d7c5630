"""A deterministic SVG picture of a game state: a pure function of the state (python-chess ``svg`` style).

>>> from dunenb.engine import new_game
>>> svg = render_svg(new_game(["atreides", "harkonnen"], seed=1))
>>> svg.startswith("<svg") and "Arrakeen" in svg
True
"""

from __future__ import annotations

import math
from html import escape

from dunenb.board import load_board
from dunenb.render.geometry import (
    KIND_COLOURS,
    STORM_COLOURS,
    area_label_point,
    area_outline,
    force_markers,
    label_rotation,
    last_storm_paths,
    polar_point,
    sector_mid_angle,
    spice_markers,
    start_markers,
    storm_outline,
)
from dunenb.ruleset import load_ruleset
from dunenb.state import GameState

MARGIN = 1.22


def _fmt(value: float) -> str:
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


class _Canvas:
    def __init__(self, size: int) -> None:
        self.size = size
        self.scale = size / (2 * MARGIN)
        self.parts: list[str] = []

    def xy(self, x: float, y: float) -> tuple[str, str]:
        return _fmt((x + MARGIN) * self.scale), _fmt((MARGIN - y) * self.scale)

    def polygon(self, points: list[tuple[float, float]], **attrs: str) -> None:
        coords = " ".join(",".join(self.xy(x, y)) for x, y in points)
        self.parts.append(f'<polygon points="{coords}" {_attrs(attrs)}/>')

    def circle(self, x: float, y: float, radius: float, **attrs: str) -> None:
        cx, cy = self.xy(x, y)
        self.parts.append(f'<circle cx="{cx}" cy="{cy}" r="{_fmt(radius * self.scale)}" {_attrs(attrs)}/>')

    def text(self, x: float, y: float, content: str, *, rotate: float = 0.0, **attrs: str) -> None:
        cx, cy = self.xy(x, y)
        turn = f' transform="rotate({_fmt(rotate)} {cx} {cy})"' if rotate else ""
        self.parts.append(f'<text x="{cx}" y="{cy}"{turn} {_attrs(attrs)}>{escape(content)}</text>')

    def raw(self, fragment: str) -> None:
        self.parts.append(fragment)


def _attrs(attrs: dict[str, str]) -> str:
    return " ".join(f'{key.replace("_", "-")}="{escape(str(value))}"' for key, value in attrs.items())


def render_svg(state: GameState, *, size: int = 640, house_view: str | None = None) -> str:
    """Draw the map: territories by kind, storms and the path they just crossed, spice, forces, start positions.

    ``house_view`` only changes the caption; pass ``dunenb.engine.view(state, house)`` to hide information.
    """
    board = load_board()
    canvas = _Canvas(size)
    canvas.raw(f'<rect width="{size}" height="{size}" fill="#fbf7ef"/>')
    for area in board.areas:
        canvas.polygon(area_outline(area), fill=KIND_COLOURS[area.kind], stroke="#5b4a36", stroke_width="0.8")
    for sector in range(1, 25):
        x, y = polar_point(1.12, sector_mid_angle(sector))
        canvas.text(x, y - 0.02, str(sector), font_size=_fmt(size / 60), text_anchor="middle", fill="#444")
    for storm, path in sorted(last_storm_paths(state).items()):
        for sector in path:
            canvas.polygon(storm_outline(sector), fill=STORM_COLOURS[storm], fill_opacity="0.18",
                           stroke=STORM_COLOURS[storm], stroke_dasharray="4 3", stroke_width="1")
    for storm, sector in (("main", state.storm_main), ("secondary", state.storm_secondary)):
        if sector is not None:
            canvas.polygon(storm_outline(sector), fill=STORM_COLOURS[storm], fill_opacity="0.5",
                           stroke=STORM_COLOURS[storm], stroke_width="2")
            x, y = polar_point(1.0 - 0.05, sector_mid_angle(sector))
            canvas.text(x, y, "S" if storm == "main" else "s", font_size=_fmt(size / 40), text_anchor="middle",
                        fill="#fff", font_weight="bold")
    for area in board.areas:
        x, y = area_label_point(area)
        canvas.text(x, y, area.name, rotate=label_rotation(area), font_size=_fmt(size / 95), text_anchor="middle",
                    fill="#2b2118", font_family="sans-serif", dominant_baseline="middle")
    for marker in spice_markers(state):
        radius = 0.02 + 0.006 * math.sqrt(marker.size)
        canvas.circle(marker.x, marker.y, radius, fill=marker.colour, stroke="#7a3e00", stroke_width="1")
        canvas.text(marker.x, marker.y - 0.012, marker.label, font_size=_fmt(size / 70), text_anchor="middle",
                    fill="#fff", font_weight="bold")
    for marker in force_markers(state):
        canvas.circle(marker.x, marker.y, 0.032, fill=marker.colour, stroke="#fff", stroke_width="1.5")
        canvas.text(marker.x, marker.y - 0.013, marker.label, font_size=_fmt(size / 60), text_anchor="middle",
                    fill="#fff", font_weight="bold")
    for marker in start_markers(state):
        canvas.circle(marker.x, marker.y, 0.03, fill=marker.colour, stroke="#222", stroke_width="1")
        canvas.text(marker.x, marker.y - 0.012, marker.label, font_size=_fmt(size / 65), text_anchor="middle",
                    fill="#fff", font_weight="bold")
    caption = f"Turn {state.turn} · {state.phase}"
    if house_view:
        caption += f" · {house_view} view"
    canvas.raw(f'<text x="8" y="{_fmt(size / 30)}" font-size="{_fmt(size / 36)}" font-family="sans-serif" '
               f'fill="#222">{escape(caption)}</text>')
    legend_y = size - 8 - 14 * (len(state.config.houses) - 1)
    for index, house in enumerate(state.config.houses):
        rules = load_ruleset().house(house)
        y = legend_y + 14 * index
        canvas.raw(f'<rect x="8" y="{_fmt(y - 9)}" width="10" height="10" fill="{rules.colour}"/>'
                   f'<text x="22" y="{_fmt(y)}" font-size="11" font-family="sans-serif">{escape(rules.name)} '
                   f'({state.houses[house].spice} spice)</text>')
    body = "".join(canvas.parts)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
            f'viewBox="0 0 {size} {size}" font-family="sans-serif">{body}</svg>')


class StateSvg:
    """Wraps a state so that Jupyter shows its map (``_repr_svg_``) without the engine importing IPython."""

    def __init__(self, state: GameState, *, size: int = 640) -> None:
        self.state = state
        self.size = size

    def _repr_svg_(self) -> str:
        return render_svg(self.state, size=self.size)
