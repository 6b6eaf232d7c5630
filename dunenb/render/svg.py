"""A deterministic SVG picture of a game state: a pure function of the state (python-chess ``svg`` style).

>>> from dunenb.engine import new_game
>>> svg = render_svg(new_game(["atreides", "harkonnen"], seed=1))
>>> svg.startswith("<svg") and "Arrakeen" in svg
True
"""

from __future__ import annotations

from functools import lru_cache
from html import escape

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
    LEGEND_WIDTH,
    LIMIT,
    MAP_PIXELS,
    STORM_LETTER_RADIUS,
    PlacedMarker,
    map_layout,
    px_per_unit,
)
from dunenb.state import GameState


def _fmt(value: float) -> str:
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


class _Canvas:
    """Unit-disk coordinates (y up) to SVG pixels: the disk spans ``size`` pixels, the legend sits to its right."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.scale = px_per_unit(size)
        self.width = round((2 * LIMIT + LEGEND_WIDTH) * self.scale)
        self.parts: list[str] = []

    def xy(self, x: float, y: float) -> tuple[str, str]:
        return _fmt((x + LIMIT) * self.scale), _fmt((LIMIT - y) * self.scale)

    def polygon(self, points: list[tuple[float, float]], **attrs: str) -> None:
        coords = " ".join(",".join(self.xy(x, y)) for x, y in points)
        self.parts.append(f'<polygon points="{coords}" {_attrs(attrs)}/>')

    def circle(self, x: float, y: float, radius_px: float, **attrs: str) -> None:
        cx, cy = self.xy(x, y)
        self.parts.append(f'<circle cx="{cx}" cy="{cy}" r="{_fmt(radius_px)}" {_attrs(attrs)}/>')

    def text(self, x: float, y: float, content: str, *, rotate: float = 0.0, **attrs: str) -> None:
        cx, cy = self.xy(x, y)
        turn = f' transform="rotate({_fmt(rotate)} {cx} {cy})"' if rotate else ""
        self.parts.append(f'<text x="{cx}" y="{cy}"{turn} {_attrs(attrs)}>{escape(content)}</text>')

    def raw(self, fragment: str) -> None:
        self.parts.append(fragment)


def _attrs(attrs: dict[str, str]) -> str:
    return " ".join(f'{key.rstrip("_").replace("_", "-")}="{escape(str(value))}"' for key, value in attrs.items())


def _marker(canvas: _Canvas, marker: PlacedMarker) -> None:
    """A token in its shape (issue 12: armies are discs, spice a diamond, worms and storms squares)."""
    r = marker.radius_px / canvas.scale
    stroke = {"stroke": "#ffffff" if marker.role == "army" else "#333333", "stroke_width": "1.2"}
    if marker.shape == "circle":
        canvas.circle(marker.x, marker.y, marker.radius_px, fill=marker.colour, **stroke)
    else:
        outline = {
            "diamond": [(0, r), (r, 0), (0, -r), (-r, 0)],
            "square": [(-r, -r), (r, -r), (r, r), (-r, r)],
            "triangle": [(0, r), (r, -r), (-r, -r)],
        }[marker.shape]
        canvas.polygon([(marker.x + dx, marker.y + dy) for dx, dy in outline], fill=marker.colour, **stroke)
    canvas.raw(f"<title>{escape(marker.tooltip)}</title>")
    if marker.label:
        canvas.text(marker.x, marker.y, marker.label, font_size=_fmt(COUNT_PX), text_anchor="middle",
                    dominant_baseline="central", fill=marker.text_colour, font_weight="bold")


@lru_cache(maxsize=8)
def _board_svg(size: int) -> str:
    """The background and the territories: the same for every state, so drawn once per size (issue 12 speed)."""
    canvas = _Canvas(size)
    canvas.raw(f'<rect width="{canvas.width}" height="{size}" fill="#fbf7ef"/>')
    for area in load_board().areas:
        canvas.polygon(area_outline(area), fill=KIND_COLOURS[area.kind], stroke="#5b4a36", stroke_width="0.8")
    return "".join(canvas.parts)


def render_svg(state: GameState, *, size: int = MAP_PIXELS, house_view: str | None = None) -> str:
    """Draw the map: territories by kind, storms and the path they just crossed, names, spice, armies, legend.

    ``size`` is the width of the disk part in pixels (the legend column adds to the width). Texts and tokens are
    placed by :func:`dunenb.render.layout.map_layout`, the same layout as the live map. ``house_view`` only
    changes the caption; pass ``dunenb.engine.view(state, house)`` to hide information.
    """
    canvas = _Canvas(size)
    layout = map_layout(state, scale=canvas.scale)
    canvas.raw(_board_svg(size))
    for storm, path in sorted(last_storm_paths(state).items()):
        for crossed in path:
            canvas.polygon(storm_outline(crossed), fill="none", stroke=STORM_COLOURS[storm],
                           stroke_dasharray="5 3", stroke_width="1.5")
    for storm, at in (("main", state.storm_main), ("secondary", state.storm_secondary)):
        if at is not None:  # issue 12: a light veil and a strong border, so the names under it stay readable
            canvas.polygon(storm_outline(at), fill=STORM_COLOURS[storm], fill_opacity="0.28",
                           stroke=STORM_COLOURS[storm], stroke_width="2.5")
            x, y = polar_point(STORM_LETTER_RADIUS, sector_mid_angle(at))  # outside the rim: no name under it
            canvas.text(x, y, "S" if storm == "main" else "s", font_size=_fmt(COUNT_PX + 2), text_anchor="middle",
                        dominant_baseline="central", fill=STORM_COLOURS[storm], font_weight="bold")
    for marker in layout.markers:
        if marker.anchor is not None:  # a token pushed out of a crowded territory points back at it
            (x0, y0), (x1, y1) = canvas.xy(*marker.anchor), canvas.xy(marker.x, marker.y)
            canvas.raw(f'<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y1}" stroke="{marker.colour}" stroke-width="1.5"/>')
    for text in layout.texts:
        weight = {"font_weight": "bold"} if text.bold else {}
        legend = text.role == "legend"
        canvas.text(text.left(canvas.scale) if legend else text.x, text.y, text.text, rotate=text.rotation,
                    font_size=_fmt(text.font_px), text_anchor="start" if legend else "middle",
                    dominant_baseline="central", fill=text.colour, class_=f"map-{text.role}", **weight)
    for marker in layout.markers:
        _marker(canvas, marker)
    caption = f"Turn {state.turn} · {state.phase}"
    if house_view:
        caption += f" · {house_view} view"
    canvas.raw(f'<text x="8" y="20" font-size="16" font-family="sans-serif" '
               f'fill="#222">{escape(caption)}</text>')
    body = "".join(canvas.parts)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{canvas.width}" height="{size}" '
            f'viewBox="0 0 {canvas.width} {size}" font-family="sans-serif">{body}</svg>')


class StateSvg:
    """Wraps a state so that Jupyter shows its map (``_repr_svg_``) without the engine importing IPython."""

    def __init__(self, state: GameState, *, size: int = MAP_PIXELS) -> None:
        self.state = state
        self.size = size

    def _repr_svg_(self) -> str:
        return render_svg(self.state, size=self.size)
