"""Where every text and token of the sector map goes: a pure function shared by the SVG and the bqplot maps.

Issue 12: no two texts overlap at the notebooks' default size, sector numbers 1-24 on the rim, a legend, armies
beside names (never on them) with their counts, no text under 10 px. The layout works in the unit-disk coordinates
of :mod:`dunenb.render.geometry` (y up) and knows the drawing scale (pixels per unit) so that it can size texts by
their pixel font.

Every text and token is an oriented box (:class:`Box`); boxes are placed greedily, each on its first candidate
position that overlaps no box placed before it (exact separating-axis test, :func:`boxes_overlap`). Territory names
are placed first and do not depend on the state, so they never move between two steps of a game; sector numbers
are fixed too; armies, spice and worms are then placed in the free room of their own territory.

Speed (issue 12): the fixed texts are computed once per scale; each territory's token points are tested against
them once (:func:`_token_spots`), so that placing a state's tokens only tests axis-aligned squares against each
other; and the whole layout is cached per :class:`LabelSet` (what a state shows), so stepping through a game
mostly reuses it. The legend lists only what the picture shows.

>>> layout = map_layout(None)
>>> len([t for t in layout.texts if t.role == "sector"])
24
>>> overlapping_pairs(layout.boxes())
[]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from dunenb.battle.colours import house_colour
from dunenb.board import Area, load_board
from dunenb.render.geometry import (
    SPICE_COLOUR,
    STORM_COLOURS,
    area_span,
    line_angle,
    polar_point,
    ring_bounds,
    sector_mid_angle,
)
from dunenb.ruleset import load_ruleset
from dunenb.state import GameState

#: The map's drawing: the disk spans [-LIMIT, LIMIT] in both directions, the legend column sits to its right.
LIMIT = 1.2
LEGEND_WIDTH = 0.95
#: Default size of the disk part of the map in pixels (both renderers): 2*LIMIT units.
MAP_PIXELS = 620
NAME_PX = 11.0
SECTOR_PX = 11.0
COUNT_PX = 11.0
LEGEND_PX = 12.0
MIN_TEXT_PX = 10.0  # issue 12: no text under 10 px
CHAR_EM = 0.62  # average advance of a sans-serif character, in em (DejaVu/Liberation Sans measure about 0.55-0.6)
LINE_EM = 1.2
TOKEN_RADIUS_PX = 9.5
GAP_PX = 1.5  # breathing room kept around every box
STORM_LETTER_RADIUS = 1.16  # the storm letters (S, s) sit outside the sector numbers


def px_per_unit(map_pixels: float = MAP_PIXELS) -> float:
    """Pixels per map unit when the disk part of the map is ``map_pixels`` wide."""
    return map_pixels / (2 * LIMIT)


@dataclass(frozen=True)
class Box:
    """An oriented rectangle: centre, full width and height (map units), angle in degrees counterclockwise."""

    cx: float
    cy: float
    width: float
    height: float
    angle: float = 0.0

    def corners(self) -> list[tuple[float, float]]:
        """The four corners, counterclockwise (computed once per box)."""
        return self._corners

    @cached_property
    def aabb(self) -> tuple[float, float, float, float]:
        """The axis-aligned hull (xmin, ymin, xmax, ymax): a cheap first test before the exact one."""
        xs = [x for x, _ in self._corners]
        ys = [y for _, y in self._corners]
        return min(xs), min(ys), max(xs), max(ys)

    @cached_property
    def _corners(self) -> list[tuple[float, float]]:
        a = math.radians(self.angle)
        ux, uy = math.cos(a), math.sin(a)
        vx, vy = -uy, ux
        hw, hh = self.width / 2, self.height / 2
        return [(self.cx + sx * hw * ux + sy * hh * vx, self.cy + sx * hw * uy + sy * hh * vy)
                for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]


def polygons_overlap(first: list[tuple[float, float]], second: list[tuple[float, float]],
                     tolerance: float = 0.0) -> bool:
    """Whether two convex polygons overlap by more than ``tolerance`` along every axis (separating-axis theorem).

    >>> square = [(0, 0), (1, 0), (1, 1), (0, 1)]
    >>> polygons_overlap(square, [(0.5, 0.5), (2, 0.5), (2, 2), (0.5, 2)])
    True
    >>> polygons_overlap(square, [(1, 0), (2, 0), (2, 1), (1, 1)])  # touching
    False
    """
    for polygon in (first, second):
        count = len(polygon)
        for index in range(count):
            (x0, y0), (x1, y1) = polygon[index], polygon[(index + 1) % count]
            nx, ny = y0 - y1, x1 - x0
            norm = math.hypot(nx, ny) or 1.0
            nx, ny = nx / norm, ny / norm
            a = [px * nx + py * ny for px, py in first]
            b = [px * nx + py * ny for px, py in second]
            if min(max(a), max(b)) - max(min(a), min(b)) <= tolerance:
                return False
    return True


def boxes_overlap(first: Box, second: Box) -> bool:
    """Exact overlap test of two oriented boxes (touching is not overlapping)."""
    a, b = first.aabb, second.aabb
    if a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]:
        return False
    if first.angle % 90 == 0 and second.angle % 90 == 0:  # both axis-aligned: the hulls are the boxes
        return True
    return polygons_overlap(first.corners(), second.corners())


def overlapping_pairs(boxes: list[tuple[str, Box]]) -> list[tuple[str, str]]:
    """Names of every pair of overlapping boxes (what the tests and the browser check assert empty)."""
    pairs = []
    for i, (name_a, box_a) in enumerate(boxes):
        for name_b, box_b in boxes[i + 1:]:
            if boxes_overlap(box_a, box_b):
                pairs.append((name_a, name_b))
    return pairs


@dataclass(frozen=True)
class PlacedText:
    """A text centred on (x, y); ``rotation`` is clockwise on screen (SVG convention), in degrees."""

    text: str
    x: float
    y: float
    font_px: float
    rotation: float = 0.0
    colour: str = "#2b2118"
    bold: bool = False
    role: str = "name"
    key: str = ""

    def box(self, scale: float) -> Box:
        width = max(1, len(self.text)) * CHAR_EM * self.font_px / scale
        height = LINE_EM * self.font_px / scale
        return Box(self.x, self.y, width, height, -self.rotation)

    def left_aligned(self, scale: float) -> PlacedText:
        """The same text with its left edge (not its middle) at x: the legend is left-aligned."""
        width = len(self.text) * CHAR_EM * self.font_px / scale
        return PlacedText(self.text, self.x + width / 2, self.y, self.font_px, self.rotation, self.colour,
                          self.bold, self.role, self.key)

    def left(self, scale: float) -> float:
        """The x of the text's left end (unrotated texts: the legend is drawn left-aligned from there)."""
        return self.x - len(self.text) * CHAR_EM * self.font_px / scale / 2


@dataclass(frozen=True)
class PlacedMarker:
    """A round token (army, spice, worm, start position, legend swatch) of radius ``radius_px``."""

    x: float
    y: float
    radius_px: float
    colour: str
    label: str
    tooltip: str
    role: str
    shape: str = "circle"
    text_colour: str = "#ffffff"
    anchor: tuple[float, float] | None = None  # its territory's point, when the token had to sit outside it

    def box(self, scale: float) -> Box:
        side = 2 * self.radius_px / scale
        return Box(self.x, self.y, side, side)


@dataclass
class MapLayout:
    """Everything a renderer draws besides the territories and storms, already placed."""

    scale: float
    texts: list[PlacedText] = field(default_factory=list)
    markers: list[PlacedMarker] = field(default_factory=list)
    fixed_count: int = 0  # the first texts: names and sector numbers, the same for every state

    @property
    def fixed_texts(self) -> list[PlacedText]:
        """Territory names and sector numbers (they never move between two states)."""
        return self.texts[:self.fixed_count]

    def boxes(self) -> list[tuple[str, Box]]:
        gap = GAP_PX / self.scale / 2
        out = [(f"{t.role}:{t.key or t.text}", _shrink(t.box(self.scale), gap)) for t in self.texts]
        out += [(f"{m.role}:{m.tooltip}", _shrink(m.box(self.scale), gap)) for m in self.markers]
        return out


def _shrink(box: Box, by: float) -> Box:
    return Box(box.cx, box.cy, max(0.0, box.width - 2 * by), max(0.0, box.height - 2 * by), box.angle)


def _grow(box: Box, by: float) -> Box:
    return Box(box.cx, box.cy, box.width + 2 * by, box.height + 2 * by, box.angle)


class _Placer:
    """The boxes placed so far, in a grid of cells so that a free-room test only looks at its neighbours."""

    CELL = 0.1  # map units

    def __init__(self, scale: float, base: tuple[Box, ...] = ()) -> None:
        self.scale = scale
        self.placed: list[Box] = []
        self._grid: dict[tuple[int, int], list[Box]] = {}
        for box in base:
            self._insert(box)

    def _cells(self, box: Box) -> list[tuple[int, int]]:
        reach = math.hypot(box.width, box.height) / 2
        x0, x1 = math.floor((box.cx - reach) / self.CELL), math.floor((box.cx + reach) / self.CELL)
        y0, y1 = math.floor((box.cy - reach) / self.CELL), math.floor((box.cy + reach) / self.CELL)
        return [(i, j) for i in range(x0, x1 + 1) for j in range(y0, y1 + 1)]

    def _insert(self, box: Box) -> None:
        self.placed.append(box)
        for cell in self._cells(box):
            self._grid.setdefault(cell, []).append(box)

    def free(self, box: Box) -> bool:
        grown = _grow(box, GAP_PX / self.scale / 2)
        seen: set[int] = set()
        for cell in self._cells(grown):
            for other in self._grid.get(cell, ()):
                if id(other) not in seen:
                    seen.add(id(other))
                    if boxes_overlap(grown, other):
                        return False
        return True

    def take(self, box: Box) -> None:
        self._insert(_grow(box, GAP_PX / self.scale / 2))


def readable(rotation: float) -> float:
    """Fold a screen rotation into (-90, 90] so that a text never reads upside down."""
    while rotation <= -90.0:
        rotation += 180.0
    while rotation > 90.0:
        rotation -= 180.0
    return rotation


def _name_lines(name: str) -> list[list[str]]:
    """The name on one line, then split in two lines at each space (longest line shortest first)."""
    words = name.split(" ")
    splits = [[" ".join(words[:k]), " ".join(words[k:])] for k in range(1, len(words))]
    splits.sort(key=lambda lines: max(len(line) for line in lines))
    return [[name]] + splits


def _name_candidates(area: Area, scale: float) -> list[list[PlacedText]]:
    """Candidate placements of a territory name, best first: each is one or two lines of text."""
    if area.kind == "pole":
        return [[PlacedText(area.name, 0.0, 0.0, NAME_PX, key=area.id)]]
    r0, r1 = ring_bounds(area)
    start, end = area_span(area)
    mid = (start + end) / 2
    line_step = LINE_EM * NAME_PX / scale
    radial = readable(-mid)
    tangential = readable(90.0 - mid)
    orientations = (radial, 0.0, tangential) if area.ring == "inner" else (0.0, tangential, radial)
    fractions = (0.5, 0.38, 0.62, 0.28, 0.72)
    offsets = [0.0] + [s * f for f in (0.2, 0.35) for s in (-1, 1)]
    candidates = []
    for lines in _name_lines(area.name):
        for rotation in orientations:
            for fraction in fractions:
                for offset in offsets:
                    angle = mid + offset * (end - start)
                    cx, cy = polar_point(r0 + fraction * (r1 - r0), angle)
                    a = math.radians(-rotation)
                    nx, ny = math.sin(a), -math.cos(a)  # the text's "down" direction
                    first = -(len(lines) - 1) / 2
                    candidates.append([
                        PlacedText(line, cx + (first + k) * line_step * nx, cy + (first + k) * line_step * ny,
                                   NAME_PX, rotation, key=f"{area.id}#{k}")
                        for k, line in enumerate(lines)])
    return candidates


def _inside_area(texts: list[PlacedText], area: Area, scale: float) -> bool:
    """Whether every corner of the texts lies inside the territory's own wedge."""
    r0, r1 = ring_bounds(area)
    start, end = area_span(area)
    for text in texts:
        for x, y in text.box(scale).corners():
            angle = (math.degrees(math.atan2(y, x)) - start) % 360.0
            if not (r0 <= math.hypot(x, y) <= r1 and angle <= end - start):
                return False
    return True


def _inside_disk(texts: list[PlacedText], area: Area, scale: float) -> bool:
    """Whether every corner of the texts lies inside the disk (a name may cross into a neighbour, not off the map)."""
    return all(math.hypot(x, y) <= 1.0 for t in texts for x, y in t.box(scale).corners())


def _place_first(placer: _Placer, candidates: list[list[PlacedText]], area: Area) -> list[PlacedText]:
    """The first candidate inside the territory that is free, else the first free one inside the disk."""
    tests = (_inside_area, _inside_disk) if area.kind != "pole" else (_inside_disk,)
    for fits in tests:
        for candidate in candidates:
            if not fits(candidate, area, placer.scale):
                continue
            boxes = [t.box(placer.scale) for t in candidate]
            if all(placer.free(box) for box in boxes):
                for box in boxes:
                    placer.take(box)
                return candidate
    chosen = candidates[0]  # nothing is free: keep the preferred place (the tests would report the overlap)
    for text in chosen:
        placer.take(text.box(placer.scale))
    return chosen


@lru_cache(maxsize=8)
def _fixed_layout(scale: float) -> tuple[tuple[PlacedText, ...], tuple[Box, ...]]:
    """Sector numbers and territory names: they depend on the board and the scale only (cached)."""
    placer = _Placer(scale)
    texts: list[PlacedText] = []
    for sector in range(1, 25):
        x, y = polar_point(1.085, sector_mid_angle(sector))
        text = PlacedText(str(sector), x, y, SECTOR_PX, colour="#444444", role="sector", key=f"sector {sector}")
        placer.take(text.box(scale))
        texts.append(text)
    board = load_board()
    for area in sorted(board.areas, key=lambda a: (a.kind != "pole", a.ring != "inner", len(a.sectors), a.id)):
        texts.extend(_place_first(placer, _name_candidates(area, scale), area))
    return tuple(texts), tuple(placer.placed)


def _token_candidates(area: Area, sector: int | None, scale: float, radius_px: float) -> list[tuple[float, float]]:
    """Points of the territory (its own sector first, then the rest of the territory) for a token."""
    r0, r1 = ring_bounds(area)
    margin = radius_px / scale
    if area.kind == "pole":  # around the name, then out over the inner ring with a leader line
        return [polar_point(r, a) for r in (0.09, 0.06, 0.11, 0.16, 0.2, 0.25) for a in range(0, 360, 15)]
    lo, hi = r0 + margin * 0.8, r1 - margin * 0.8
    radii = [lo + (hi - lo) * f for f in (0.5, 0.2, 0.8, 0.35, 0.65, 0.0, 1.0)]
    start, end = area_span(area)
    own = [] if sector is None else [sector_mid_angle(sector) + d for d in (0.0, -4.0, 4.0, -6.0, 6.0)]
    rest = [start + (end - start) * k / 12 for k in range(1, 12)]
    points = [polar_point(r, a) for a in own for r in radii] + [polar_point(r, a) for a in rest for r in radii]
    near = own + [a + d for a in own[:1] for d in (-9.0, 9.0, -12.0, 12.0)] + rest
    outside = [polar_point(r, a) for a in near for r in (r1 + margin * 1.1, r0 - margin * 1.1, r1 + margin * 2.3)]
    cx, cy = polar_point((r0 + r1) / 2, own[0] if own else (start + end) / 2)
    spiral = [(cx + d * math.cos(math.radians(t)), cy + d * math.sin(math.radians(t)))
              for d in (0.08, 0.11, 0.14, 0.18, 0.22, 0.26, 0.30, 0.35) for t in range(0, 360, 15)]
    return points + outside + spiral


@dataclass(frozen=True)
class _TokenSpots:
    """Where a token of one territory may go: the points free of the fixed texts, best first, each with whether
    it lies in the territory; ``home`` is the territory's own point (the fallback and the leader line's end)."""

    free: tuple[tuple[float, float, bool], ...]
    home: tuple[float, float]


@lru_cache(maxsize=1024)
def _token_spots(area_id: str, sector: int | None, scale: float, radius_px: float) -> _TokenSpots:
    """The candidate points of :func:`_token_candidates` that no fixed text (name, sector number) covers.

    Issue 12 (render speed): the fixed texts are rotated boxes, whose exact test is the costly one; they never
    move, so each territory's points are tested against them once per scale and radius, and a position only
    tests its tokens (axis-aligned squares) against each other.
    """
    area = load_board().area(area_id)
    fixed = _Placer(scale, _fixed_layout(scale)[1])
    side = 2 * radius_px / scale
    points = _token_candidates(area, sector, scale, radius_px)
    free = tuple((x, y, _point_in_area(x, y, area)) for x, y in points
                 if math.hypot(x, y) + side / 2 <= 1.04 and fixed.free(Box(x, y, side, side)))
    return _TokenSpots(free, points[0])


def _place_token(placer: _Placer, area: Area, sector: int | None,
                 radius_px: float) -> tuple[float, float, tuple[float, float] | None]:
    """A free point for a token and, when that point lies outside the territory, the point it stands for.

    ``placer`` holds the tokens placed so far (the fixed texts are already excluded by :func:`_token_spots`).
    """
    side = 2 * radius_px / placer.scale
    spots = _token_spots(area.id, sector, placer.scale, radius_px)
    for x, y, inside in spots.free:
        box = Box(x, y, side, side)
        if placer.free(box):
            placer.take(box)
            return x, y, None if inside else spots.home
    x, y = spots.home  # nothing is free: keep the preferred place (the tests would report the overlap)
    placer.take(Box(x, y, side, side))
    return x, y, None


def _point_in_area(x: float, y: float, area: Area) -> bool:
    r0, r1 = ring_bounds(area)
    if not r0 <= math.hypot(x, y) <= r1:
        return False
    if area.kind == "pole":
        return True
    start, end = area_span(area)
    return (math.degrees(math.atan2(y, x)) - start) % 360.0 <= end - start


def text_colour_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour`` (WCAG relative luminance).

    >>> text_colour_on("#ffffff"), text_colour_on("#000000")
    ('#111111', '#ffffff')
    """
    rgb = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    luminance = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    return "#111111" if luminance > 0.22 else "#ffffff"


WORM_COLOUR = "#6d4c41"


def worm_areas(state: GameState) -> list[str]:
    """Territories a worm struck during the last transition (SPICE-6 events)."""
    return [e.data["area"] for e in state.events if e.kind == "worm" and e.data.get("area")]


@dataclass(frozen=True)
class LabelSet:
    """Everything of a state that the layout places: two states with equal label sets get the same layout.

    Issue 12 (render speed): consecutive steps of a game mostly keep their armies and spice, so the layout is
    cached per label set (:func:`map_layout`), not recomputed per state.
    """

    starts: tuple[tuple[str, int], ...] = ()
    forces: tuple[tuple[str, str, int, int, int], ...] = ()  # house, area, sector, total, marked
    spice: tuple[tuple[str, int], ...] = ()
    worms: tuple[str, ...] = ()
    houses: tuple[tuple[str, int], ...] = ()  # the legend's Houses with their spice
    storms: tuple[str, ...] = ()  # the storms the picture draws ("main", "secondary")


def label_set(state: GameState | None) -> LabelSet:
    """The label set of ``state`` (``None``: the empty board)."""
    if state is None:
        return LabelSet()
    drawn = {name for name, sector in (("main", state.storm_main), ("secondary", state.storm_secondary))
             if sector is not None}
    drawn |= {event.data["storm"] for event in state.events if event.kind == "storm-moved"}  # a path drawn
    return LabelSet(
        starts=tuple((house, hs.start_position) for house, hs in sorted(state.houses.items())
                     if hs.start_position is not None),
        forces=tuple((house, area, sector, tokens.total, tokens.marked) for (house, area, sector), tokens in
                     sorted(state.forces.items(), key=lambda item: (item[0][1], item[0][2], item[0][0]))),
        spice=tuple(sorted(state.spice_on_map.items())),
        worms=tuple(worm_areas(state)),
        houses=tuple((house, state.houses[house].spice) for house in state.config.houses),
        storms=tuple(name for name in ("main", "secondary") if name in drawn),
    )


def map_layout(state: GameState | None, *, scale: float | None = None) -> MapLayout:
    """Place names, sector numbers, armies, spice, worms, start positions and the legend for ``state``.

    ``state=None`` lays out the empty board (names and sector numbers). The layout is computed once per
    :class:`LabelSet` and scale (cached); the result is a fresh :class:`MapLayout` that callers may change.
    """
    cached = _layout_of(label_set(state), scale or px_per_unit())
    return MapLayout(scale=cached.scale, texts=list(cached.texts), markers=list(cached.markers),
                     fixed_count=cached.fixed_count)


@lru_cache(maxsize=512)
def _layout_of(labels: LabelSet, scale: float) -> MapLayout:
    fixed_texts, _fixed_boxes = _fixed_layout(scale)
    placer = _Placer(scale)  # the tokens only: _token_spots already keeps them off the fixed texts
    layout = MapLayout(scale=scale, texts=list(fixed_texts), fixed_count=len(fixed_texts))
    board = load_board()
    ruleset = load_ruleset()
    for house, start in labels.starts:
        x, y = polar_point(1.085, line_angle(start))
        name = ruleset.house(house).name
        layout.markers.append(PlacedMarker(x, y, 7.0, house_colour(house), "", f"{name} start position {start}",
                                           "start", "triangle"))
        placer.take(layout.markers[-1].box(scale))
    for house, area_id, sector, total, marked in labels.forces:
        area = board.area(area_id)
        x, y, anchor = _place_token(placer, area, None if area.kind == "pole" else sector, TOKEN_RADIUS_PX)
        colour = house_colour(house)
        marked_text = f" ({marked} marked)" if marked else ""
        layout.markers.append(PlacedMarker(
            x, y, TOKEN_RADIUS_PX, colour, str(total),
            f"{ruleset.house(house).name}: {total} token(s){marked_text} in {area.name}, sector {sector}",
            "army", text_colour=text_colour_on(colour), anchor=anchor))
    for area_id, amount in labels.spice:
        area = board.area(area_id)
        x, y, anchor = _place_token(placer, area, area.spice_sector, TOKEN_RADIUS_PX)
        layout.markers.append(PlacedMarker(
            x, y, TOKEN_RADIUS_PX, SPICE_COLOUR, str(amount),
            f"{amount} spice in {area.name} (diamond in sector {area.spice_sector})", "spice", "diamond",
            text_colour=text_colour_on(SPICE_COLOUR), anchor=anchor))
    for area_id in labels.worms:
        area = board.area(area_id)
        x, y, _ = _place_token(placer, area, area.spice_sector, 8.0)
        layout.markers.append(PlacedMarker(x, y, 8.0, WORM_COLOUR, "", f"Shai-Hulud struck {area.name}",
                                           "worm", "square"))
    _legend(layout, labels)
    return layout


def legend_rows(labels: LabelSet) -> list[tuple[str, str, str, str]]:
    """The legend's rows (shape, colour, text, key): the Houses, then only the kinds of marks the picture shows
    (issue 12: no second storm, worm or spice row when there is none on the map)."""
    rows = []
    for house, spice in labels.houses:
        rows.append(("circle", house_colour(house), f"{load_ruleset().house(house).name} ({spice} spice)",
                     f"legend {house}"))
    if "main" in labels.storms:
        rows.append(("square", STORM_COLOURS["main"], "Storm (S)", "legend storm"))
    if "secondary" in labels.storms:
        rows.append(("square", STORM_COLOURS["secondary"], "Second storm (s)", "legend storm 2"))
    if labels.spice:
        rows.append(("diamond", SPICE_COLOUR, "Spice on the sand", "legend spice"))
    if labels.worms:
        rows.append(("square", WORM_COLOUR, "Worm (last turn)", "legend worm"))
    if labels.starts:
        rows.append(("triangle", "#888888", "Start position", "legend start"))
    return rows


def _legend(layout: MapLayout, labels: LabelSet) -> None:
    """The legend column right of the disk: one row per House, then what else the map shows."""
    rows = legend_rows(labels)
    if not rows:
        return
    scale = layout.scale
    row = 1.7 * LEGEND_PX / scale
    x0 = LIMIT + 0.02
    y = LIMIT - row
    swatch = 7.0
    layout.texts.append(PlacedText("Legend", x0, y, LEGEND_PX, bold=True, role="legend", colour="#222222",
                                   key="legend title").left_aligned(scale))
    for shape, colour, label, key in rows:
        y -= row
        layout.markers.append(PlacedMarker(x0 + swatch / scale, y, swatch, colour, "", key, "legend", shape))
        layout.texts.append(PlacedText(label, x0 + 2.6 * swatch / scale, y, LEGEND_PX, colour="#222222",
                                       role="legend", key=key).left_aligned(scale))
