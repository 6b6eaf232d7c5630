"""Pure renderers of game states (SVG) and the geometry they share with the widgets."""

from dunenb.render.svg import StateSvg, render_svg

__all__ = ["StateSvg", "render_svg"]
