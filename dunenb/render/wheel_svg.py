"""A battle wheel as a picture (issue 12): the dial with the number dialled, the leader disc, the two card slots.

A pure function of plain values, so that it can be drawn in a notebook, a widget or a test without the engine.

>>> svg = wheel_svg(WheelPicture("Atreides", "#117733", regular=6, elite=0, spice=2, value=4.0, most=7.5,
...                              leader="Duncan Idaho", leader_value=2, weapon="Crysknife", defence=None,
...                              total_text="total 6", verdict="wins 100%"))
>>> ">4<" in svg and "Duncan Idaho" in svg and "empty" in svg
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape

from dunenb.render.layout import text_colour_on

WIDTH, HEIGHT = 330, 330


@dataclass(frozen=True)
class WheelPicture:
    """What one side shows on its wheel once the plans are revealed (BATTLE-13, WHEEL-2, WHEEL-3)."""

    house: str
    colour: str
    regular: int
    elite: int
    spice: int
    value: float
    most: float
    leader: str | None
    leader_value: int | None
    weapon: str | None
    defence: str | None
    total_text: str
    verdict: str


def _number(value: float) -> str:
    """A wheel number with its half written as ½ (0.5 → ½, 2.5 → 2½)."""
    whole = math.floor(value)
    if value - whole:
        return f"{whole or ''}½"
    return f"{value:g}"


def _fit(text: str, most: int) -> str:
    """``text`` cut to ``most`` characters with an ellipsis, so that it stays inside its card slot."""
    return text if len(text) <= most else text[:most - 1].rstrip() + "…"


def dial_breakdown(regular: int, elite: int, spice: int) -> str:
    """The dial in words (WHEEL-2, WHEEL-3: spice backs marked tokens first; a backed token counts double).

    >>> dial_breakdown(6, 0, 2)
    '4 tokens × ½ + 2 with spice × 1 = 4'
    >>> dial_breakdown(1, 1, 1)
    '1 token × ½ + 1 marked with spice × 2 = 2½'
    """
    on_elite = min(spice, elite)
    on_regular = min(spice - on_elite, regular)
    terms = [(regular - on_regular, "token", 0.5), (on_regular, "with spice", 1.0),
             (elite - on_elite, "marked", 1.0), (on_elite, "marked with spice", 2.0)]
    shown = [f"{count} {word + ('s' if word == 'token' and count != 1 else '')} × {_number(each)}"
             for count, word, each in terms if count]
    value = sum(count * each for count, _, each in terms)
    return (" + ".join(shown) or "nothing dialled") + f" = {_number(value)}"


def wheel_svg(wheel: WheelPicture) -> str:
    """One wheel, 330 × 330 px: a dial from 0 to the most this side could dial, its needle on the value."""
    cx, cy, radius = WIDTH / 2, 118, 78
    top = max(1.0, math.ceil(wheel.most))
    parts = [f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#fbf7ef" rx="8"/>',
             f'<text x="{cx}" y="20" font-size="16" font-weight="bold" text-anchor="middle" '
             f'fill="{wheel.colour}">{escape(wheel.house)}</text>',
             f'<circle cx="{cx}" cy="{cy}" r="{radius}" fill="#ffffff" stroke="#5b4a36" stroke-width="2"/>']

    def point(fraction: float, r: float) -> tuple[float, float]:
        angle = math.radians(225 - 270 * fraction)  # from bottom-left, clockwise, to bottom-right
        return cx + r * math.cos(angle), cy - r * math.sin(angle)

    share = min(1.0, wheel.value / top)
    if share > 0:
        (x0, y0), (x1, y1) = point(0, radius - 9), point(share, radius - 9)
        large = 1 if share > 2 / 3 else 0
        parts.append(f'<path d="M {x0:.1f} {y0:.1f} A {radius - 9} {radius - 9} 0 {large} 1 {x1:.1f} {y1:.1f}" '
                     f'fill="none" stroke="{wheel.colour}" stroke-width="12" stroke-linecap="round"/>')
    step = 1 if top <= 12 else (2 if top <= 24 else 5)
    for tick in range(0, int(top) + 1, step):
        (x0, y0), (x1, y1) = point(tick / top, radius), point(tick / top, radius - 5)
        tx, ty = point(tick / top, radius + 12)
        parts.append(f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" stroke="#5b4a36"/>'
                     f'<text x="{tx:.1f}" y="{ty:.1f}" font-size="10" text-anchor="middle" '
                     f'dominant-baseline="central" fill="#444">{tick}</text>')
    nx, ny = point(share, radius - 22)
    parts.append(f'<line x1="{cx}" y1="{cy}" x2="{nx:.1f}" y2="{ny:.1f}" stroke="#222" stroke-width="3" '
                 f'stroke-linecap="round"/>'
                 f'<text x="{cx}" y="{cy + 30}" font-size="34" font-weight="bold" text-anchor="middle" '
                 f'dominant-baseline="central" fill="#222">{_number(wheel.value)}</text>'
                 f'<text x="{cx}" y="{cy + 54}" font-size="11" text-anchor="middle" fill="#444">dialled</text>')
    parts.append(f'<text x="{cx}" y="{cy + radius + 24}" font-size="11" text-anchor="middle" fill="#333">'
                 f'{escape(dial_breakdown(wheel.regular, wheel.elite, wheel.spice))}</text>')
    # the leader disc (left) and the two card slots (right), as on the physical wheel
    ly = 270
    if wheel.leader is not None:
        ink = text_colour_on(wheel.colour)
        parts.append(f'<circle cx="52" cy="{ly}" r="24" fill="{wheel.colour}" stroke="#222"/>'
                     f'<text x="52" y="{ly}" font-size="18" font-weight="bold" text-anchor="middle" '
                     f'dominant-baseline="central" fill="{ink}">{wheel.leader_value}</text>'
                     f'<text x="52" y="{ly + 36}" font-size="11" text-anchor="middle" fill="#222">'
                     f'{escape(wheel.leader)}</text>')
    else:
        parts.append(f'<circle cx="52" cy="{ly}" r="24" fill="none" stroke="#999" stroke-dasharray="4 3"/>'
                     f'<text x="52" y="{ly + 36}" font-size="11" text-anchor="middle" fill="#666">no leader</text>')
    for index, (slot, card) in enumerate((("Attack", wheel.weapon), ("Defence", wheel.defence))):
        x = 88 + index * 122
        filled = card is not None
        look = 'fill="#fff3d6" stroke="#5b4a36"' if filled else 'fill="none" stroke="#999" stroke-dasharray="4 3"'
        name, _, aside = (card or "empty").partition(" (")
        parts.append(f'<rect x="{x}" y="{ly - 28}" width="116" height="54" rx="5" {look}/>'
                     f'<text x="{x + 58}" y="{ly - 14}" font-size="10" text-anchor="middle" fill="#666">{slot}</text>'
                     f'<text x="{x + 58}" y="{ly + 3}" font-size="11" text-anchor="middle" fill="#222">'
                     f'{escape(_fit(name, 19))}</text>')
        if aside:  # the French name, smaller, on its own line
            parts.append(f'<text x="{x + 58}" y="{ly + 17}" font-size="10" text-anchor="middle" fill="#555">'
                         f'{escape(_fit(aside.rstrip(")"), 21))}</text>')
    parts.append(f'<text x="{cx}" y="{HEIGHT - 8}" font-size="13" font-weight="bold" text-anchor="middle" '
                 f'fill="#222">{escape(wheel.total_text)} · {escape(wheel.verdict)}</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
            f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif">{"".join(parts)}</svg>')
