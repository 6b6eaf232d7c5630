"""A battle wheel as a picture (issue 12): the dial with the number dialled, the leader disc, the two card slots,
and under them the slots a secondary leader adds (issue 11: leaders.md K-6 extra cards, K-7 built-in weapons, K-8
built-in shields; :mod:`dunenb.render.wheel_slots` reads them from a plan). Without extra slots the picture is the
same as before, 330 × 368 px; each row of extra slots makes it one slot row taller.

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

from dunenb.render.layout import CHAR_EM, GAP_PX, LINE_EM, Box, boxes_overlap, text_colour_on

WIDTH, HEIGHT = 330, 368
DIAL_X, DIAL_Y, DIAL_RADIUS = WIDTH / 2, 130, 78
LEADER_X = 44  # the leader column spans x 2..86; the card slots follow
SLOT_X, SLOT_WIDTH, SLOT_GAP = 90, 116, 4
SLOT_TOP, SLOT_HEIGHT = 256, 74
LEADER_Y = SLOT_TOP + 30


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
    extras: tuple[ExtraSlot, ...] = ()


@dataclass(frozen=True)
class ExtraSlot:
    """A slot beyond the two standard ones (leaders.md LC-7): ``label`` says in words what it is ("extra weapon",
    "extra defence", "built-in weapon", "built-in shield"), ``card`` the card's display name (English, then the
    French name in brackets), ``column`` 0 under the attack slot, 1 under the defence slot."""

    label: str
    card: str
    column: int

    @property
    def words(self) -> str:
        """The slot in one line, e.g. ``extra weapon: Lasgun (laser)`` (the slot's tooltip)."""
        return f"{self.label}: {self.card}"


def _number(value: float) -> str:
    """A wheel number with its half written as ½ (0.5 → ½, 2.5 → 2½)."""
    whole = math.floor(value)
    if value - whole:
        return f"{whole or ''}½"
    return f"{value:g}"


def _fit(text: str, most: int) -> str:
    """``text`` cut to ``most`` characters with an ellipsis, so that it stays inside its card slot."""
    return text if len(text) <= most else text[:most - 1].rstrip() + "…"


def text_width(text: str, font_px: float) -> float:
    """The estimated width in pixels of ``text`` (the map layout's measure, :data:`CHAR_EM` per character)."""
    return max(1, len(text)) * CHAR_EM * font_px


def wrap(text: str, width_px: float, font_px: float, *, lines: int, separator: str = " ") -> list[str]:
    """``text`` in at most ``lines`` lines no wider than ``width_px``, broken at ``separator``; the last line is
    cut with an ellipsis if the words do not fit.

    >>> wrap("Distance projectile", 110, 11, lines=2)
    ['Distance', 'projectile']
    >>> wrap("Duncan Idaho", 82, 11, lines=2)
    ['Duncan Idaho']
    """
    most = max(2, int(width_px // (CHAR_EM * font_px)))
    words = text.split(separator)
    out: list[str] = []
    for word in words:
        if out and len(out[-1]) + len(separator) + len(word) <= most:
            out[-1] += separator + word
        else:
            out.append(word)
    if len(out) > lines:
        out = out[:lines - 1] + [separator.join(out[lines - 1:])]
    return [_fit(line.strip(), most) for line in out]


@dataclass(frozen=True)
class WheelText:
    """One text of the wheel picture, centred on (x, y) in SVG pixels; ``inside`` names the shape it sits in."""

    key: str
    text: str
    x: float
    y: float
    font_px: float
    colour: str = "#222"
    bold: bool = False
    inside: str = ""

    def box(self) -> Box:
        return Box(self.x, self.y, text_width(self.text, self.font_px), LINE_EM * self.font_px)


@dataclass
class WheelLayout:
    """The texts of a wheel picture and the shapes they must keep off (the leader disc, the card slots)."""

    texts: list[WheelText]
    shapes: dict[str, Box]
    height: float = HEIGHT

    def overlaps(self) -> list[tuple[str, str]]:
        """Every pair of texts that overlap, every text over a shape it does not belong to, and every text that
        leaves the picture (issue 12: the wheel's check, like the map's ``overlapping_pairs``)."""
        shrink = GAP_PX / 2

        def tight(box: Box) -> Box:
            return Box(box.cx, box.cy, max(0.0, box.width - shrink), max(0.0, box.height - shrink), box.angle)

        boxes = [(t, tight(t.box())) for t in self.texts]
        found = []
        for i, (first, box_a) in enumerate(boxes):
            left, top, right, bottom = box_a.aabb
            if left < 0 or top < 0 or right > WIDTH or bottom > self.height:
                found.append((first.key, "picture edge"))
            for second, box_b in boxes[i + 1:]:
                if boxes_overlap(box_a, box_b):
                    found.append((first.key, second.key))
            for name, shape in self.shapes.items():
                if name != first.inside and boxes_overlap(box_a, shape):
                    found.append((first.key, name))
        return found


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


def _point(fraction: float, r: float) -> tuple[float, float]:
    """A point of the dial: fraction 0 at the bottom left, 1 at the bottom right, clockwise over the top."""
    angle = math.radians(225 - 270 * fraction)
    return DIAL_X + r * math.cos(angle), DIAL_Y - r * math.sin(angle)


def _dial_top(wheel: WheelPicture) -> float:
    return max(1.0, math.ceil(wheel.most))


def _slots(wheel: WheelPicture) -> list[tuple[str, str, str | None, float, float]]:
    """(key, label, card, left x, top y) of every card slot: the two standard ones, then the extra slots in rows
    under them, each in its column (leaders.md K-6..K-8)."""
    slots: list[tuple[str, str, str | None, float, float]] = [
        (slot, slot, card, SLOT_X + index * (SLOT_WIDTH + SLOT_GAP), SLOT_TOP)
        for index, (slot, card) in enumerate((("Attack", wheel.weapon), ("Defence", wheel.defence)))]
    rows = [0, 0]
    for k, extra in enumerate(wheel.extras):
        rows[extra.column] += 1
        slots.append((f"extra {k}", extra.label, extra.card, SLOT_X + extra.column * (SLOT_WIDTH + SLOT_GAP),
                      SLOT_TOP + rows[extra.column] * (SLOT_HEIGHT + SLOT_GAP)))
    return slots


def picture_height(wheel: WheelPicture) -> float:
    """The picture's height: :data:`HEIGHT`, plus one slot row for each row of extra slots."""
    rows = max((sum(1 for extra in wheel.extras if extra.column == column) for column in (0, 1)), default=0)
    return HEIGHT + rows * (SLOT_HEIGHT + SLOT_GAP)


def wheel_layout(wheel: WheelPicture) -> WheelLayout:
    """Where every text of the wheel goes: house, dial ticks, number dialled, the dial in words, the leader
    (name in up to two lines under his disc), the cards (English then French name, wrapped in their slot), the
    total and the verdict. Long texts wrap instead of running over their neighbours (issue 12)."""
    texts = [WheelText("house", wheel.house, DIAL_X, 20, 16, wheel.colour, True)]
    top = _dial_top(wheel)
    step = 1 if top <= 12 else (2 if top <= 24 else 5)
    for tick in range(0, int(top) + 1, step):
        x, y = _point(tick / top, DIAL_RADIUS + 12)
        texts.append(WheelText(f"tick {tick}", str(tick), x, y, 10, "#444"))
    texts.append(WheelText("value", _number(wheel.value), DIAL_X, DIAL_Y + 28, 34, "#222", True, "dial"))
    texts.append(WheelText("dialled", "dialled", DIAL_X, DIAL_Y + 56, 11, "#444", inside="dial"))
    breakdown = dial_breakdown(wheel.regular, wheel.elite, wheel.spice)
    for k, line in enumerate(wrap(breakdown, WIDTH - 8, 11, lines=2, separator=" + ")):
        texts.append(WheelText(f"dial words {k}", line if k == 0 else "+ " + line, DIAL_X,
                               DIAL_Y + DIAL_RADIUS + 24 + 14 * k, 11, "#333"))
    if wheel.leader is not None:
        texts.append(WheelText("leader value", str(wheel.leader_value), LEADER_X, LEADER_Y, 18,
                               text_colour_on(wheel.colour), True, "leader disc"))
        name_lines = wrap(wheel.leader, 82, 11, lines=2)
    else:
        name_lines = ["no leader"]
    for k, line in enumerate(name_lines):
        texts.append(WheelText(f"leader name {k}", line, LEADER_X, LEADER_Y + 36 + 14 * k, 11,
                               "#222" if wheel.leader else "#666"))
    for slot, label, card, x, top in _slots(wheel):
        name, _, aside = (card or "empty").partition(" (")
        lines = [(line, 11.0, "#222") for line in wrap(name, SLOT_WIDTH - 6, 11, lines=2)]
        if aside:  # the French name, smaller, under the English one
            french = wrap(aside.rstrip(")"), SLOT_WIDTH - 6, 10, lines=4 - len(lines))
            lines += [(line, 10.0, "#555") for line in french]
        texts.append(WheelText(f"{slot} label", label, x + SLOT_WIDTH / 2, top + 9, 10, "#666", inside=slot))
        y = top + 23
        for k, (line, font, colour) in enumerate(lines):
            texts.append(WheelText(f"{slot} card {k}", line, x + SLOT_WIDTH / 2, y, font, colour, inside=slot))
            y += 14 if font > 10 else 13
    height = picture_height(wheel)
    verdict = f"{wheel.total_text} · {wheel.verdict}" if wheel.total_text else wheel.verdict
    texts.append(WheelText("total", _fit(verdict, int((WIDTH - 8) // (CHAR_EM * 13))), DIAL_X, height - 12, 13,
                           "#222", True))
    shapes = {"leader disc": Box(LEADER_X, LEADER_Y, 48, 48)}
    for slot, _label, _card, x, top in _slots(wheel):
        shapes[slot] = Box(x + SLOT_WIDTH / 2, top + SLOT_HEIGHT / 2, SLOT_WIDTH, SLOT_HEIGHT)
    return WheelLayout(texts, shapes, height)


def wheel_svg(wheel: WheelPicture) -> str:
    """One wheel, 330 × 368 px (taller by a slot row per row of extra slots): a dial from 0 to the most this side
    could dial, its needle on the value."""
    layout = wheel_layout(wheel)
    height = layout.height
    top = _dial_top(wheel)
    cx, cy, radius = DIAL_X, DIAL_Y, DIAL_RADIUS
    parts = [f'<rect width="{WIDTH}" height="{height:g}" fill="#fbf7ef" rx="8"/>',
             f'<circle cx="{cx}" cy="{cy}" r="{radius}" fill="#ffffff" stroke="#5b4a36" stroke-width="2"/>']
    share = min(1.0, wheel.value / top)
    if share > 0:
        (x0, y0), (x1, y1) = _point(0, radius - 9), _point(share, radius - 9)
        large = 1 if share > 2 / 3 else 0
        parts.append(f'<path d="M {x0:.1f} {y0:.1f} A {radius - 9} {radius - 9} 0 {large} 1 {x1:.1f} {y1:.1f}" '
                     f'fill="none" stroke="{wheel.colour}" stroke-width="12" stroke-linecap="round"/>')
    step = 1 if top <= 12 else (2 if top <= 24 else 5)
    for tick in range(0, int(top) + 1, step):
        (x0, y0), (x1, y1) = _point(tick / top, radius), _point(tick / top, radius - 5)
        parts.append(f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" stroke="#5b4a36"/>')
    nx, ny = _point(share, radius - 22)
    parts.append(f'<line x1="{cx}" y1="{cy}" x2="{nx:.1f}" y2="{ny:.1f}" stroke="#222" stroke-width="3" '
                 f'stroke-linecap="round"/>')
    # the leader disc (left) and the two card slots (right), as on the physical wheel
    if wheel.leader is not None:
        parts.append(f'<circle cx="{LEADER_X}" cy="{LEADER_Y}" r="24" fill="{wheel.colour}" stroke="#222"/>')
    else:
        parts.append(f'<circle cx="{LEADER_X}" cy="{LEADER_Y}" r="24" fill="none" stroke="#999" '
                     f'stroke-dasharray="4 3"/>')
    tips = {f"extra {k}": extra.words for k, extra in enumerate(wheel.extras)}
    for slot, _label, card, x, top in _slots(wheel):
        look = ('fill="#fff3d6" stroke="#5b4a36"' if card is not None
                else 'fill="none" stroke="#999" stroke-dasharray="4 3"')
        tip = f"<title>{escape(tips[slot])}</title>" if slot in tips else ""
        end = f">{tip}</rect>" if tip else "/>"
        parts.append(f'<rect x="{x}" y="{top:g}" width="{SLOT_WIDTH}" height="{SLOT_HEIGHT}" rx="5" {look}{end}')
    for text in layout.texts:
        weight = ' font-weight="bold"' if text.bold else ""
        parts.append(f'<text x="{text.x:.1f}" y="{text.y:.1f}" font-size="{text.font_px:g}"{weight} '
                     f'text-anchor="middle" dominant-baseline="central" fill="{text.colour}">'
                     f'{escape(text.text)}</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height:g}" '
            f'viewBox="0 0 {WIDTH} {height:g}" font-family="sans-serif">{"".join(parts)}</svg>')
