"""The rules data of the Dune: Imperium companion engine (``data/imperium.json``), validated and frozen.

Cards, board spaces, leaders, conflict and intrigue cards are data written with a small effect vocabulary
(see :data:`EFFECT_KEYS`); :func:`parse_effects` turns the JSON objects into hashable tuples that the
engine (:mod:`dunenb.imperium.effects`) interprets once. Facts of the published game that are not sure
carry ``"certain": false`` in the data; the design decisions ``IMP-GAP-n`` are listed there too.

>>> rules = load_rules()
>>> len(rules.spaces), sum(rules.starter_deck.values()), len(rules.leaders), sum(rules.imperium_deck.values())
(22, 10, 8, 61)
>>> rules.space("sell_melange").cost
(('spice', 2),)
>>> parse_effects([{"gain": {"spice": 2}}, {"optional": {"pay": {"water": 1}, "then": [{"recruit": 2}]}}], "x")
(('gain', (('spice', 2),)), ('optional', (('water', 1),), (('recruit', 2),)))
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from dunenb.errors import RulesDataError

#: The format tag of ``data/imperium.json``.
RULES_FORMAT = "dunenb.imperium-rules/1"
#: Resources a player holds.
RESOURCES: tuple[str, ...] = ("solari", "spice", "water")
#: Keys of the effect vocabulary (one key per effect object, plus ``then``/``pay``/``amount`` arguments).
EFFECT_KEYS: tuple[str, ...] = (
    "gain",
    "recruit",
    "draw",
    "intrigue",
    "persuasion",
    "swords",
    "vp",
    "influence",
    "control",
    "trash",
    "optional",
    "if",
    "one_of",
    "mentat",
    "swordmaster",
    "council_seat",
    "harvest",
    "steal_intrigue",
    "signet",
    "acquire",
    "lose",
    "secret_factions",
    "secret_influence",
    "reserve_row",
    "per",
)
#: What a ``per`` effect counts: ``{"faction_in_play": f}`` - the player's cards of faction f played or revealed
#: this round, the card itself included.
PER_COUNTS: tuple[str, ...] = ("faction_in_play",)
#: When a leader power acts (IMP-GAP-32): ``setup`` and ``signet`` add effects at setup and to the Signet Ring's
#: agent box, ``visit`` after a visited space's effects (``spaces``), ``pay`` when a space's cost takes
#: ``resource``, ``discount`` lowers the cost of spaces with one of ``icons``, ``join`` opens such spaces occupied
#: by another player, ``reveal`` after the reveal boxes of an own reveal turn, ``deck_top`` keeps the top card of
#: the deck known to its owner (IMP-GAP-33).
POWER_TRIGGERS: tuple[str, ...] = ("setup", "signet", "visit", "pay", "discount", "join", "reveal", "deck_top")
#: Intrigue types and when they are played (seed: Les cartes Intrigue).
INTRIGUE_TYPES: tuple[str, ...] = ("plot", "combat", "endgame")

Effect = tuple[Any, ...]
Effects = tuple[Effect, ...]
Cost = tuple[tuple[str, int], ...]


def _fail(field: str, message: str) -> RulesDataError:
    return RulesDataError("imperium/rules-data", f"imperium.json: {field}: {message}")


def _count(value: object, field: str) -> int:
    if type(value) is not int or value < 0:
        raise _fail(field, f"expected an integer >= 0, got {value!r}")
    return value


def parse_cost(data: object, field: str) -> Cost:
    """A ``{"spice": 2}`` object as sorted ``(resource, amount)`` pairs."""
    if not isinstance(data, dict) or not set(data) <= set(RESOURCES):
        raise _fail(field, f"expected an object with keys among {', '.join(RESOURCES)}, got {data!r}")
    return tuple(sorted((key, _count(value, f"{field}.{key}")) for key, value in data.items()))


def _condition(data: object, field: str) -> Any:
    if data in ("fremen_bond", "alliance"):
        return data
    if isinstance(data, dict) and len(data) == 1:
        ((key, value),) = data.items()
        if key == "swords_at_least":
            return ("swords_at_least", _count(value, field))
        if key == "factions_at" and isinstance(value, list) and len(value) == 2:
            return ("factions_at", _count(value[0], field), _count(value[1], field))
        if key == "owns" and isinstance(value, list) and len(value) == 2 and isinstance(value[0], str):
            return ("owns", value[0], _count(value[1], field))
        if key == "owns_most" and isinstance(value, str):
            return ("owns_most", value)
    raise _fail(
        field,
        f"unknown condition {data!r} (allowed: 'fremen_bond', 'alliance', {{'factions_at': [level, count]}}, "
        "{'owns': [card, count]}, {'owns_most': card}, {'swords_at_least': n})",
    )


def parse_effect(data: object, field: str, space: str | None = None) -> Effect:
    """One effect object as a tuple ``(name, arguments...)``; raises :class:`RulesDataError` naming ``field``."""
    if not isinstance(data, dict) or not data:
        raise _fail(field, f"expected an effect object, got {data!r}")
    key = next(iter(data))
    if key not in EFFECT_KEYS:
        raise _fail(field, f"unknown effect {key!r} (allowed: {', '.join(EFFECT_KEYS)})")
    value = data[key]
    if key in ("gain", "lose"):
        return (key, parse_cost(value, f"{field}.{key}"))
    if key in ("recruit", "draw", "intrigue", "persuasion", "swords", "vp", "secret_factions", "reserve_row"):
        return (key, _count(value, f"{field}.{key}"))
    if key == "influence":
        if not isinstance(value, str):
            raise _fail(f"{field}.influence", f"expected a faction or 'any', got {value!r}")
        return ("influence", value)
    if key in ("control", "acquire"):
        if not isinstance(value, str):
            raise _fail(f"{field}.{key}", f"expected an id, got {value!r}")
        return (key, value)
    if key == "trash":
        if value not in ("card", "self"):
            raise _fail(f"{field}.trash", f"expected 'card' or 'self', got {value!r}")
        return ("trash", value)
    if key == "optional":
        if not isinstance(value, dict) or set(value) != {"pay", "then"}:
            raise _fail(f"{field}.optional", "expected {'pay': {...}, 'then': [...]}")
        return (
            "optional",
            parse_cost(value["pay"], f"{field}.optional.pay"),
            parse_effects(value["then"], f"{field}.optional.then", space),
        )
    if key == "if":
        return ("if", _condition(value, f"{field}.if"), parse_effects(data.get("then"), f"{field}.then", space))
    if key == "per":
        if not (isinstance(value, dict) and len(value) == 1 and next(iter(value)) in PER_COUNTS):
            raise _fail(f"{field}.per", f"expected {{count: argument}} with a count among {', '.join(PER_COUNTS)}")
        ((count, argument),) = value.items()
        return ("per", (count, argument), parse_effects(data.get("then"), f"{field}.then", space))
    if key == "one_of":
        if not isinstance(value, list) or len(value) < 2:
            raise _fail(f"{field}.one_of", "expected a list of 2 or more effect lists")
        return ("one_of", tuple(parse_effects(o, f"{field}.one_of[{i}]", space) for i, o in enumerate(value)))
    if key == "harvest":
        if space is None:
            raise _fail(field, "harvest is a board-space effect")
        return ("harvest", space)
    return (key,)


def parse_effects(data: object, field: str, space: str | None = None) -> Effects:
    """A list of effect objects as a tuple of effect tuples."""
    if data is None:
        return ()
    if not isinstance(data, list):
        raise _fail(field, f"expected a list of effects, got {data!r}")
    return tuple(parse_effect(item, f"{field}[{i}]", space) for i, item in enumerate(data))


@dataclass(frozen=True)
class Space:
    """A board space: its agent icon, faction (for the influence step), costs and effects."""

    id: str
    name: str
    icon: str
    faction: str | None
    combat: bool
    maker: bool
    cost: Cost
    requires: tuple[tuple[str, int], ...]
    effects: Effects
    control: Cost
    certain: bool


@dataclass(frozen=True)
class Card:
    """An Imperium, starter or reserve card: agent icons, agent and reveal boxes, acquire effects."""

    id: str
    name: str
    cost: int
    faction: str | None
    icons: tuple[str, ...]
    agent: Effects
    reveal: Effects
    acquire: Effects
    certain: bool
    #: Effects when the card is trashed (Assassination Mission's solari, FAQ).
    trashed: Effects = ()


@dataclass(frozen=True)
class Power:
    """One leader ability (IMP-GAP-32): when it acts, its effects and the arguments of its trigger."""

    id: str
    name: str
    when: str
    text: str
    effects: Effects = ()
    spaces: tuple[str, ...] = ()
    icons: tuple[str, ...] = ()
    resource: str | None = None
    cost: Cost = ()
    once: bool = False
    condition: Any = None


@dataclass(frozen=True)
class Leader:
    """A leader and its powers (the left ability and the signet ability, as data)."""

    id: str
    name: str
    powers: tuple[Power, ...]
    certain: bool

    def at(self, when: str) -> tuple[Power, ...]:
        """The leader's powers with this trigger."""
        return tuple(power for power in self.powers if power.when == when)

    def effects_at(self, when: str) -> Effects:
        """The effects of every power with this trigger, in the data's order."""
        return tuple(effect for power in self.at(when) for effect in power.effects)

    @property
    def setup(self) -> Effects:
        return self.effects_at("setup")

    @property
    def signet(self) -> Effects:
        return self.effects_at("signet")


@dataclass(frozen=True)
class Conflict:
    """A conflict card: level, the location it names (control defence) and its rewards by place."""

    id: str
    name: str
    level: str
    location: str | None
    rewards: tuple[Effects, ...]


@dataclass(frozen=True)
class Intrigue:
    """An intrigue card (plot, combat or endgame) and its effects."""

    id: str
    name: str
    type: str
    effects: Effects
    cost: Cost = ()


@dataclass(frozen=True)
class ImperiumRules:
    """The validated data; ``constants`` is the JSON object of that name."""

    factions: tuple[str, ...]
    icons: tuple[str, ...]
    constants: dict[str, Any]
    influence_bonus: dict[str, Effects]
    spaces: tuple[Space, ...]
    cards: dict[str, Card]
    starter_deck: dict[str, int]
    reserve: dict[str, int]
    buyable_reserve: tuple[str, ...]
    imperium_deck: dict[str, int]
    leaders: dict[str, Leader]
    conflicts: dict[str, Conflict]
    intrigues: dict[str, Intrigue]
    intrigue_deck: dict[str, int]
    decisions: tuple[dict[str, Any], ...]
    space_index: dict[str, int]

    def space(self, space_id: str) -> Space:
        """The space with this id (``KeyError`` when unknown)."""
        return self.spaces[self.space_index[space_id]]

    def decision(self, decision_id: str) -> dict[str, Any]:
        """The decision ``IMP-GAP-n`` (``KeyError`` when unknown)."""
        for decision in self.decisions:
            if decision["id"] == decision_id:
                return decision
        raise KeyError(decision_id)

    @property
    def control_spaces(self) -> tuple[str, ...]:
        """The spaces with a control flag (Arrakeen, Carthag, Imperial Basin), in board order."""
        return tuple(space.id for space in self.spaces if space.control)


def _card(raw: dict[str, Any], field: str, icons: tuple[str, ...]) -> tuple[Card, int]:
    card_icons = tuple(raw.get("icons", ()))
    if not set(card_icons) <= set(icons):
        raise _fail(f"{field}.icons", f"unknown icon in {list(card_icons)} (allowed: {', '.join(icons)})")
    card = Card(
        id=raw["id"],
        name=raw["name"],
        cost=_count(raw.get("cost", 0), f"{field}.cost"),
        faction=raw.get("faction"),
        icons=card_icons,
        agent=parse_effects(raw.get("agent"), f"{field}.agent"),
        reveal=parse_effects(raw.get("reveal"), f"{field}.reveal"),
        acquire=parse_effects(raw.get("acquire"), f"{field}.acquire"),
        certain=bool(raw.get("certain", True)),
        trashed=parse_effects(raw.get("trashed"), f"{field}.trashed"),
    )
    return card, _count(raw.get("copies", 1), f"{field}.copies")


_POWER_KEYS = ("id", "name", "when", "text", "effects", "spaces", "icons", "resource", "cost", "once", "if", "gap")


def _power(raw: Any, field: str, spaces: list[Space], icons: tuple[str, ...]) -> Power:
    """A leader power object (see :data:`POWER_TRIGGERS`); raises :class:`RulesDataError` naming ``field``."""
    if not isinstance(raw, dict) or not {"id", "name", "when", "text"} <= set(raw) or not set(raw) <= set(_POWER_KEYS):
        allowed = ", ".join(_POWER_KEYS)
        raise _fail(field, f"expected a power object with id, name, when, text (keys allowed: {allowed})")
    when = raw["when"]
    if when not in POWER_TRIGGERS:
        raise _fail(f"{field}.when", f"{when!r} (allowed: {', '.join(POWER_TRIGGERS)})")
    known = {space.id for space in spaces}
    power_spaces = tuple(raw.get("spaces", ()))
    power_icons = tuple(raw.get("icons", ()))
    if not set(power_spaces) <= known:
        raise _fail(f"{field}.spaces", f"unknown space in {list(power_spaces)}")
    if not set(power_icons) <= set(icons):
        raise _fail(f"{field}.icons", f"unknown icon in {list(power_icons)} (allowed: {', '.join(icons)})")
    needs = {"visit": bool(power_spaces), "discount": bool(power_icons) and "cost" in raw, "join": bool(power_icons),
             "pay": raw.get("resource") in RESOURCES}
    if not needs.get(when, True):
        raise _fail(field, f"a {when!r} power needs its arguments (visit: spaces; discount: icons and cost; "
                           f"join: icons; pay: resource among {', '.join(RESOURCES)})")
    return Power(
        id=raw["id"],
        name=raw["name"],
        when=when,
        text=raw["text"],
        effects=parse_effects(raw.get("effects"), f"{field}.effects"),
        spaces=power_spaces,
        icons=power_icons,
        resource=raw.get("resource"),
        cost=parse_cost(raw.get("cost", {}), f"{field}.cost"),
        once=bool(raw.get("once", False)),
        condition=None if "if" not in raw else _condition(raw["if"], f"{field}.if"),
    )


def _check_gaps(data: dict[str, Any]) -> None:
    """Every ``gap`` of a card or leader power names a decision of the file (IMP-GAP-31, IMP-GAP-32)."""
    known = {decision["id"] for decision in data["decisions"]}
    rows = [(f"{section}[{i}]", raw) for section in ("starter_deck", "reserve", "imperium_deck", "intrigue_deck")
            for i, raw in enumerate(data[section])]
    rows += [(f"leaders[{i}].powers[{j}]", power) for i, leader in enumerate(data["leaders"])
             for j, power in enumerate(leader["powers"])]
    for field, raw in rows:
        if "gap" in raw and raw["gap"] not in known:
            raise _fail(f"{field}.gap", f"{raw['gap']!r} is not a decision of the file")


def parse_rules(data: Any) -> ImperiumRules:
    """Validate the rules data; raises :class:`RulesDataError` naming the faulty field."""
    if not isinstance(data, dict) or data.get("format") != RULES_FORMAT:
        raise _fail("format", f"expected {RULES_FORMAT!r}")
    factions = tuple(data["factions"])
    icons = tuple(data["icons"])
    spaces = []
    for i, raw in enumerate(data["spaces"]):
        field = f"spaces[{i}]"
        if raw["icon"] not in icons:
            raise _fail(f"{field}.icon", f"{raw['icon']!r} is not an icon (allowed: {', '.join(icons)})")
        spaces.append(
            Space(
                id=raw["id"],
                name=raw["name"],
                icon=raw["icon"],
                faction=raw["icon"] if raw["icon"] in factions else None,
                combat=bool(raw.get("combat", False)),
                maker=bool(raw.get("maker", False)),
                cost=parse_cost(raw.get("cost", {}), f"{field}.cost"),
                requires=tuple(sorted((k, _count(v, f"{field}.requires")) for k, v in raw.get("requires", {}).items())),
                effects=parse_effects(raw["effects"], f"{field}.effects", raw["id"]),
                control=parse_cost(raw.get("control", {}), f"{field}.control"),
                certain=bool(raw.get("certain", True)),
            )
        )
    cards: dict[str, Card] = {}
    piles: dict[str, dict[str, int]] = {}
    for section in ("starter_deck", "reserve", "imperium_deck"):
        piles[section] = {}
        for i, raw in enumerate(data[section]):
            card, copies = _card(raw, f"{section}[{i}]", icons)
            if card.id in cards:
                raise _fail(f"{section}[{i}].id", f"duplicate card id {card.id!r}")
            cards[card.id] = card
            piles[section][card.id] = copies
    buyable = tuple(raw["id"] for raw in data["reserve"] if raw.get("buyable"))
    leaders = {}
    for i, raw in enumerate(data["leaders"]):
        powers = tuple(_power(p, f"leaders[{i}].powers[{j}]", spaces, icons) for j, p in enumerate(raw["powers"]))
        leaders[raw["id"]] = Leader(raw["id"], raw["name"], powers, bool(raw.get("certain", True)))
    conflicts = {}
    for i, raw in enumerate(data["conflicts"]):
        rewards = tuple(parse_effects(r, f"conflicts[{i}].rewards[{j}]") for j, r in enumerate(raw["rewards"]))
        if len(rewards) != 3:
            raise _fail(f"conflicts[{i}].rewards", "expected 3 reward lists (1st, 2nd, 3rd)")
        conflicts[raw["id"]] = Conflict(raw["id"], raw["name"], raw["level"], raw.get("location"), rewards)
    levels = {level for level, _ in data["constants"]["conflict_deck"]}
    for level, needed in data["constants"]["conflict_deck"]:
        have = sum(1 for c in conflicts.values() if c.level == level)
        if have < needed:
            raise _fail("conflicts", f"level {level} has {have} cards, the setup needs {needed}")
    if any(c.level not in levels for c in conflicts.values()):
        raise _fail("conflicts", f"a conflict level is not among {sorted(levels)}")
    intrigues, intrigue_deck = {}, {}
    for i, raw in enumerate(data["intrigue_deck"]):
        if raw["type"] not in INTRIGUE_TYPES:
            raise _fail(f"intrigue_deck[{i}].type", f"{raw['type']!r} (allowed: {', '.join(INTRIGUE_TYPES)})")
        intrigues[raw["id"]] = Intrigue(
            raw["id"],
            raw["name"],
            raw["type"],
            parse_effects(raw["effects"], f"intrigue_deck[{i}].effects"),
            parse_cost(raw.get("cost", {}), f"intrigue_deck[{i}].cost"),
        )
        intrigue_deck[raw["id"]] = _count(raw.get("copies", 1), f"intrigue_deck[{i}].copies")
    _check_gaps(data)
    bonus = {f: parse_effects(data["influence_bonus"][f]["effects"], f"influence_bonus.{f}") for f in factions}
    return ImperiumRules(
        factions=factions,
        icons=icons,
        constants=dict(data["constants"]),
        influence_bonus=bonus,
        spaces=tuple(spaces),
        cards=cards,
        starter_deck=piles["starter_deck"],
        reserve=piles["reserve"],
        buyable_reserve=buyable,
        imperium_deck=piles["imperium_deck"],
        leaders=leaders,
        conflicts=conflicts,
        intrigues=intrigues,
        intrigue_deck=intrigue_deck,
        decisions=tuple(data["decisions"]),
        space_index={space.id: index for index, space in enumerate(spaces)},
    )


@cache
def load_rules() -> ImperiumRules:
    """The shipped rules data (``dunenb.data/imperium.json``), validated once."""
    text = resources.files("dunenb.data").joinpath("imperium.json").read_text(encoding="utf-8")
    return parse_rules(json.loads(text))
