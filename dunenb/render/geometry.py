"""Map geometry shared by the SVG renderer and the bqplot widget (MAP-2: a polar map, the Pole at the centre).

Coordinates are in the unit disk, y up. Sector ``k`` (1..24) spans the angles ``[θ(k-1), θ(k)]`` with
``θ(j) = 90° + 15°·j``: sector 1 starts at the top and sectors run counterclockwise, the storms' direction.

>>> round(sector_mid_angle(1), 1)
97.5
>>> x, y = polar_point(1.0, 90.0)
>>> round(x, 6), round(y, 6)
(0.0, 1.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from dunenb.battle.colours import house_colour
from dunenb.board import Area, load_board
from dunenb.ruleset import load_ruleset
from dunenb.state import GameState

SECTOR_DEGREES = 15.0
KIND_COLOURS = {  # L95: cities and Sietchs are the green and red territories
    "desert": "#ecd39b", "mountain": "#9c7b5b", "city": "#7cb342", "sietch": "#d9534f", "pole": "#dce9f5",
}
STORM_COLOURS = {"main": "#6d1b1b", "secondary": "#37474f"}
SPICE_COLOUR = "#f57c00"


def line_angle(line: int) -> float:
    """Angle in degrees of the sector line ``line`` (between sectors ``line`` and ``line+1``)."""
    return 90.0 + SECTOR_DEGREES * line


def sector_mid_angle(sector: int) -> float:
    return 90.0 + SECTOR_DEGREES * (sector - 0.5)


def polar_point(radius: float, degrees: float) -> tuple[float, float]:
    angle = math.radians(degrees)
    return radius * math.cos(angle), radius * math.sin(angle)


def area_span(area: Area) -> tuple[float, float]:
    """Start and end angles (degrees, end > start) of an area's sector run."""
    start = 90.0 + SECTOR_DEGREES * (area.sectors[0] - 1)
    return start, start + SECTOR_DEGREES * len(area.sectors)


def ring_bounds(area: Area) -> tuple[float, float]:
    return load_board().rings[area.ring]


def wedge_outline(r0: float, r1: float, start: float, end: float, samples: int = 24) -> list[tuple[float, float]]:
    """A closed annular wedge as ``2*samples`` points (outer arc, then inner arc back)."""
    outer = [polar_point(r1, start + (end - start) * k / (samples - 1)) for k in range(samples)]
    inner = [polar_point(r0, end - (end - start) * k / (samples - 1)) for k in range(samples)]
    return outer + inner


def area_outline(area: Area, samples: int = 24) -> list[tuple[float, float]]:
    r0, r1 = ring_bounds(area)
    if area.kind == "pole":
        return [polar_point(r1, 360.0 * k / (2 * samples - 1)) for k in range(2 * samples)]
    start, end = area_span(area)
    return wedge_outline(r0, r1, start, end, samples)


def area_label_point(area: Area) -> tuple[float, float]:
    r0, r1 = ring_bounds(area)
    if area.kind == "pole":
        return 0.0, 0.0
    start, end = area_span(area)
    return polar_point((r0 + r1) / 2 + 0.06 * (r1 - r0), (start + end) / 2)


def label_rotation(area: Area) -> float:
    """Text rotation in degrees (clockwise, screen convention): inner-ring names run along the radius.

    >>> label_rotation(load_board().area("arrakeen")), label_rotation(load_board().area("bouclier"))
    (82.5, 0.0)
    """
    if area.ring != "inner":
        return 0.0
    start, end = area_span(area)
    rotation = -(start + end) / 2  # screen rotation is clockwise; the radius points at the mid angle
    while rotation <= -90.0:
        rotation += 180.0
    while rotation > 90.0:
        rotation -= 180.0
    return rotation


def storm_outline(sector: int, samples: int = 12) -> list[tuple[float, float]]:
    pole_outer = load_board().rings["pole"][1]
    start = 90.0 + SECTOR_DEGREES * (sector - 1)
    return wedge_outline(pole_outer, 1.0, start, start + SECTOR_DEGREES, samples)


@dataclass(frozen=True)
class Marker:
    """Something drawn at a point: a stack of tokens, a spice deposit, a start position."""

    x: float
    y: float
    label: str
    colour: str
    size: float
    tooltip: str
    house: str | None = None


def force_markers(state: GameState) -> list[Marker]:
    """One marker per army (house, area, sector), offset so that Houses sharing a territory do not overlap."""
    board = load_board()
    markers = []
    by_place: dict[tuple[str, int], list[str]] = {}
    for (house, area_id, sector) in sorted(state.forces):
        by_place.setdefault((area_id, sector), []).append(house)
    for (house, area_id, sector), tokens in sorted(state.forces.items()):
        area = board.area(area_id)
        r0, r1 = ring_bounds(area)
        crowd = by_place[(area_id, sector)]
        rank = crowd.index(house)
        if area.kind == "pole":
            radius, angle = 0.085, sector_mid_angle(sector)
        else:
            radius = r0 + (r1 - r0) * (0.3 if len(crowd) == 1 else 0.2 + 0.6 * rank / max(1, len(crowd) - 1))
            angle = sector_mid_angle(sector) + (3.0 if len(crowd) > 1 and rank % 2 else 0.0)
        x, y = polar_point(radius, angle)
        marked = f" ({tokens.marked} marked)" if tokens.marked else ""
        markers.append(Marker(
            x=x, y=y, label=str(tokens.total), colour=house_colour(house), size=tokens.total,
            tooltip=f"{load_ruleset().house(house).name}: {tokens.total} token(s){marked} in {area.name}, "
                    f"sector {sector}", house=house))
    return markers


def spice_markers(state: GameState) -> list[Marker]:
    board = load_board()
    markers = []
    for area_id, amount in sorted(state.spice_on_map.items()):
        area = board.area(area_id)
        assert area.spice_sector is not None, area_id  # spice lies only where a spice card names a sector
        r0, r1 = ring_bounds(area)
        x, y = polar_point(r0 + 0.72 * (r1 - r0), sector_mid_angle(area.spice_sector))
        markers.append(Marker(x=x, y=y, label=str(amount), colour=SPICE_COLOUR, size=amount,
                              tooltip=f"{amount} spice in {area.name} (diamond in sector {area.spice_sector})"))
    return markers


def start_markers(state: GameState) -> list[Marker]:
    markers = []
    for house, hs in sorted(state.houses.items()):
        if hs.start_position is None:
            continue
        x, y = polar_point(1.045, line_angle(hs.start_position))
        name = load_ruleset().house(house).name
        markers.append(Marker(x=x, y=y, label=name[0], colour=house_colour(house), size=1,
                              tooltip=f"{name} start position {hs.start_position}", house=house))
    return markers


def last_storm_paths(state: GameState) -> dict[str, tuple[int, ...]]:
    """The sectors each storm crossed in the last transition (for highlighting)."""
    paths: dict[str, tuple[int, ...]] = {}
    for event in state.events:
        if event.kind == "storm-moved":
            paths[event.data["storm"]] = tuple(event.data["path"])
    return paths
