"""Battle cases: one battle as a JSON file, readable without a saved game (format ``dunenb.battle/1``).

```
{"format": "dunenb.battle/1", "territory": "arrakeen", "defender": "atreides",
 "title": "optional", "description": "optional",
 "sides": [{"house": "atreides", "tokens": {"regular": 6, "elite": 0},
            "dial": {"regular": 4, "elite": 0, "spice": 2},
            "leader": "duncan-idaho" | {"name": "Any Name", "strength": 5} | null,
            "weapon": null | "poison-fast" | ... | "worthless", "defense": null | "snooper" | "shield" | "worthless",
            "karama": null | "karama" | "worthless" | "ghola",
            "traitors": ["leaders this House holds as traitors"],
            "dice": [4],
            "hand": ["cards held, for analysis"], "leaders": ["leaders available, for analysis"],
            "spice": 10},
           {"house": "harkonnen", ...}]}
```

``karama`` (optional) is a card added on the wheel as a Karama (KARAMA-3, GAP-55b): it voids the opposing House's
blockable traitor calls (the Harkonnen's, KARAMA-45) and is always lost. ``tokens`` are all the side's tokens in the
territory (``elite`` = marked F, S or A). ``dice`` fixes that side's d10
results in rolling order; missing results are enumerated. ``hand``, ``leaders`` and ``spice`` (spice owned) are
optional and only used by analysis (:mod:`dunenb.analysis.battle_odds`); when given, the plan must respect them.
An inline leader has no House and no powers. Names are matched accent- and case-insensitively.

>>> case = parse_case({"format": "dunenb.battle/1", "territory": "Arrakeen", "defender": "atreides",
...     "sides": [{"house": "atreides", "tokens": {"regular": 6}, "dial": {"regular": 4, "spice": 2},
...                "leader": "Duncan Idaho", "weapon": "poison-fast"},
...               {"house": "harkonnen", "tokens": {"regular": 5}, "dial": {"regular": 5},
...                "leader": {"name": "Any Name", "strength": 5}, "defense": "snooper"}]})
>>> case.territory, case.sides[0].plan.leader.strength
('arrakeen', 6)
>>> [(float(p), o.winner) for p, o in case_outcomes(case)]
[(1.0, 'atreides')]
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass
from importlib import resources
from typing import Any

from dunenb.battle.cards import DEFENCES, KARAMA_CARDS, OTHER_CARDS, WEAPONS, wheel_karama_power
from dunenb.battle.plans import Battle, BattlePlan, BattleSide, traitor_names
from dunenb.battle.resolve import Distribution, distribution_json, resolve_battle
from dunenb.battle.roster import HOUSES, Leader, fold, inline_leader, load_roster
from dunenb.battle.wheel import Dial, Tokens
from dunenb.board import load_board
from dunenb.errors import DuneError, InputError
from dunenb.jsonio import read_json

CASE_FORMAT = "dunenb.battle/1"
_TOP_KEYS = ("format", "territory", "defender", "sides", "title", "description", "source", "notes")
_SIDE_KEYS = ("house", "tokens", "dial", "leader", "weapon", "defense", "karama", "traitors", "dice", "hand",
              "leaders", "spice", "notes")


@dataclass(frozen=True)
class CaseSide:
    """One side of a case: its battle side plus what analysis may vary (hand, leaders, spice owned)."""

    side: BattleSide
    hand: tuple[str, ...] | None = None
    leaders: tuple[Leader, ...] | None = None
    spice: int | None = None

    @property
    def house(self) -> str:
        return self.side.house

    @property
    def plan(self) -> BattlePlan:
        return self.side.plan


@dataclass(frozen=True)
class BattleCase:
    """A parsed, validated battle case."""

    territory: str
    defender: str
    sides: tuple[CaseSide, CaseSide]
    title: str = ""
    description: str = ""

    @property
    def battle(self) -> Battle:
        return Battle(self.territory, self.defender, (self.sides[0].side, self.sides[1].side))

    @property
    def houses(self) -> tuple[str, str]:
        return (self.sides[0].house, self.sides[1].house)

    def with_plans(self, first: BattlePlan, second: BattlePlan) -> Battle:
        """The case's battle with other plans (the analysis varies plans, keeping tokens, traitors, dice)."""
        sides = tuple(
            BattleSide(c.side.house, c.side.tokens, plan, c.side.traitors, c.side.dice, c.side.call_power)
            for c, plan in zip(self.sides, (first, second), strict=True)
        )
        return Battle(self.territory, self.defender, (sides[0], sides[1]))


def _allowed(values: tuple[Any, ...]) -> str:
    return ", ".join("null" if v is None else json.dumps(v) for v in values)


def _fail(field: str, message: str) -> InputError:
    return InputError("case/field", f"{field}: {message}")


def _check_keys(raw: dict[str, Any], allowed: tuple[str, ...], where: str) -> None:
    for key in raw:
        if key not in allowed:
            raise _fail(f"{where}{key}" if where else key, f"unknown field; allowed fields: {', '.join(allowed)}")


def _count(raw: Any, field: str, *, default: int | None = 0) -> int:
    if raw is None and default is not None:
        return default
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0:
        raise _fail(field, f"{raw!r} is not a whole number >= 0")
    return raw


def _choice(raw: Any, field: str, allowed: tuple[Any, ...]) -> Any:
    value = fold(raw) if isinstance(raw, str) else raw
    if value not in allowed:
        raise _fail(field, f"{json.dumps(raw)} is not one of {_allowed(allowed)}")
    return value


def _tokens(raw: Any, field: str) -> Tokens:
    if not isinstance(raw, dict):
        raise _fail(field, 'must be an object like {"regular": 6, "elite": 0}')
    _check_keys(raw, ("regular", "elite"), f"{field}.")
    return Tokens(_count(raw.get("regular"), f"{field}.regular"), _count(raw.get("elite"), f"{field}.elite"))


def _dial(raw: Any, field: str) -> Dial:
    if not isinstance(raw, dict):
        raise _fail(field, 'must be an object like {"regular": 4, "elite": 0, "spice": 2}')
    _check_keys(raw, ("regular", "elite", "spice"), f"{field}.")
    return Dial(_count(raw.get("regular"), f"{field}.regular"), _count(raw.get("elite"), f"{field}.elite"),
                _count(raw.get("spice"), f"{field}.spice"))


def _leader(raw: Any, field: str, house: str) -> Leader | None:
    if raw is None:
        return None
    if isinstance(raw, str):
        try:
            return load_roster().find(raw, house=house)
        except DuneError as error:
            raise _fail(field, error.message) from None
    if isinstance(raw, dict):
        _check_keys(raw, ("name", "strength"), f"{field}.")
        name = raw.get("name")
        if not isinstance(name, str) or not name.strip():
            raise _fail(f"{field}.name", "an inline leader needs a non-empty name")
        return inline_leader(name.strip(), _count(raw.get("strength"), f"{field}.strength", default=None))
    raise _fail(field, 'must be null, a leader id or name, or {"name": ..., "strength": n}')


def _string_list(raw: Any, field: str) -> list[str]:
    if raw is None:
        return []
    if not isinstance(raw, list) or not all(isinstance(item, str) for item in raw):
        raise _fail(field, "must be a list of strings")
    return raw


def _parse_side(raw: Any, index: int) -> CaseSide:
    where = f"sides[{index}]"
    if not isinstance(raw, dict):
        raise _fail(where, "must be an object")
    _check_keys(raw, _SIDE_KEYS, f"{where}.")
    house = _choice(raw.get("house"), f"{where}.house", HOUSES)
    tokens = _tokens(raw.get("tokens", {}), f"{where}.tokens")
    dial = _dial(raw.get("dial", {}), f"{where}.dial")
    if dial.regular > tokens.regular or dial.elite > tokens.elite:
        raise _fail(f"{where}.dial", f"dials {dial.regular} regular + {dial.elite} elite tokens but the side has "
                                     f"{tokens.regular} regular + {tokens.elite} elite in the territory (BATTLE-13 a)")
    if dial.spice > dial.regular + dial.elite:
        raise _fail(f"{where}.dial.spice", f"{dial.spice} spice for {dial.regular + dial.elite} tokens: at most "
                                           "1 spice per token (GAP-42)")
    leader = _leader(raw.get("leader"), f"{where}.leader", house)
    weapon = _choice(raw.get("weapon"), f"{where}.weapon", (None, *WEAPONS))
    defense = _choice(raw.get("defense"), f"{where}.defense", (None, *DEFENCES))
    karama = _choice(raw.get("karama"), f"{where}.karama", (None, *KARAMA_CARDS))
    if leader is None and (weapon or defense or karama):
        raise _fail(f"{where}.weapon" if weapon else f"{where}.defense" if defense else f"{where}.karama",
                    "a side with no leader may play no treachery card (GAP-43)")
    traitors = _string_list(raw.get("traitors"), f"{where}.traitors")
    dice_raw = raw.get("dice", [])
    if not isinstance(dice_raw, list):
        raise _fail(f"{where}.dice", "must be a list of d10 results (1 to 10)")
    for position, value in enumerate(dice_raw):
        if isinstance(value, bool) or value not in range(1, 11):
            raise _fail(f"{where}.dice[{position}]", f"{value!r} is not a d10 result: allowed 1 to 10 (GAP-28b)")
    plan = BattlePlan(dial, leader, weapon, defense, karama)
    hand = None
    if "hand" in raw:
        hand = tuple(_choice(card, f"{where}.hand[{i}]", (*WEAPONS, "snooper", "shield", *OTHER_CARDS))
                     for i, card in enumerate(_string_list(raw["hand"], f"{where}.hand")))
        missing = Counter(plan.cards_on_wheel) - Counter(hand)
        if missing:
            raise _fail(f"{where}.hand", f"the plan plays {', '.join(sorted(missing))}, not in the hand")
    leaders = None
    if "leaders" in raw:
        if not isinstance(raw["leaders"], list):
            raise _fail(f"{where}.leaders", "must be a list of leader ids, names or inline leaders")
        leaders = tuple(_leader(item, f"{where}.leaders[{i}]", house) for i, item in enumerate(raw["leaders"]))
        if any(item is None for item in leaders):
            raise _fail(f"{where}.leaders", "null is not a leader")
        if leader is not None and leader not in leaders:
            raise _fail(f"{where}.leader", f"{leader.name} is not among the side's available leaders")
        if leader is None and leaders:
            raise _fail(f"{where}.leader", "every battle needs a leader when one is available (BATTLE-5, GAP-43)")
    spice = None
    if "spice" in raw:
        spice = _count(raw["spice"], f"{where}.spice")
        if dial.spice > spice:
            raise _fail(f"{where}.dial.spice", f"dials {dial.spice} spice but the side owns {spice}")
    side = BattleSide(house, tokens, plan, traitor_names(traitors), tuple(dice_raw), wheel_karama_power(house))
    return CaseSide(side, hand, leaders, spice)  # type: ignore[arg-type]


def parse_case(raw: Any) -> BattleCase:
    """Validate a case given as parsed JSON; every error is an :class:`InputError` naming the field."""
    if not isinstance(raw, dict):
        raise _fail("(top)", "a battle case must be a JSON object")
    _check_keys(raw, _TOP_KEYS, "")
    if raw.get("format") != CASE_FORMAT:
        raise _fail("format", f"{json.dumps(raw.get('format'))} is not one of {json.dumps(CASE_FORMAT)}")
    territory_raw = raw.get("territory")
    board = load_board()
    if not isinstance(territory_raw, str):
        raise _fail("territory", f"must be a territory id or name; allowed: {', '.join(board.area_ids)}")
    try:
        territory = board.find_area(territory_raw).id
    except DuneError:
        raise _fail("territory", f"{territory_raw!r} is not one of {', '.join(board.area_ids)}") from None
    sides_raw = raw.get("sides")
    if not isinstance(sides_raw, list) or len(sides_raw) != 2:
        raise _fail("sides", "a battle is always between two Houses (BATTLE-2): give a list of 2 sides")
    sides = tuple(_parse_side(side, index) for index, side in enumerate(sides_raw))
    if sides[0].house == sides[1].house:
        raise _fail("sides[1].house", f"both sides are {sides[0].house}; a battle is between two Houses")
    defender = _choice(raw.get("defender"), "defender", (sides[0].house, sides[1].house))
    return BattleCase(territory, defender, (sides[0], sides[1]), str(raw.get("title", "")),
                      str(raw.get("description", "")))


def load_case(path: str | os.PathLike[str]) -> BattleCase:
    """Read and validate a case file (errors name the field)."""
    try:
        raw = read_json(path)
    except DuneError as error:
        raise InputError("case/file", error.message) from None
    return parse_case(raw)


def example_case_names() -> tuple[str, ...]:
    """The example cases shipped in ``data/battles/`` (file stems, sorted)."""
    folder = resources.files("dunenb.data").joinpath("battles")
    return tuple(sorted(item.name[:-5] for item in folder.iterdir() if item.name.endswith(".json")))


def load_example_case(name: str) -> BattleCase:
    """Load one shipped example case by its file stem, e.g. ``"shield_example_4"``."""
    if name not in example_case_names():
        raise InputError("case/example", f"{name!r} is not one of {', '.join(example_case_names())}")
    text = resources.files("dunenb.data").joinpath("battles", f"{name}.json").read_text(encoding="utf-8")
    return parse_case(json.loads(text))


def case_outcomes(case: BattleCase) -> Distribution:
    """The exact outcome distribution of the case's plans (see :func:`dunenb.battle.resolve.resolve_battle`)."""
    return resolve_battle(case.battle)


def case_json(case: BattleCase) -> dict[str, Any]:
    """The documented ``dunenb battle CASE.json --json`` output for a case."""
    return distribution_json(case_outcomes(case))
