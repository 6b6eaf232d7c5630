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
            "spice": 10,
            "dead": ["this House's leaders in its tanks"], "blocked": ["KARAMA-37"], "regenerations": 1,
            "captured": false,
            "extra_attack": null | "projectile-distance" | "krys" | ..., "extra_defense": null | "snooper" | ...,
            "b1_rolls": {"HARKONNEN-L10-c": 2}, "spare": false, "passed": {"DISPERSION-L02-c": "dama"}},
           {"house": "harkonnen", ...}]}
```

Battle facts of the powers (issue 10 item 4, all optional): ``dead`` lists the House's leaders in its tanks
(HARKONNEN-M3: Vladimir counts +3/+2/+1 for each living minion); ``blocked`` the Karama uses played against the
House's powers for this battle (KARAMA-37: Waff without his pistol), an alias of the top-level ``karama_uses``
(GAP-137: both are read by :mod:`dunenb.battle.case_karama` into ``BattleCase.karama_uses``); ``regenerations``
those Waff has left (TLEILAX-M2: with one left his death does not eliminate the House); ``captured``
(HARKONNEN-P4; BG-L03-b, D-28) says the side's leader is one it captured from another House (``house:id``), by a
capture source of its House (:mod:`dunenb.battle.captors`, GAP-145): his own House may call treachery on him
unless the capturer holds him as a traitor (FAQ 19, TRAITOR-13, GAP-35c; D-28 reads "BG" for "Harkonnen").

``extra_attack``, ``extra_defense`` and ``b1_rolls`` (optional, leaders.md K-6..K-8, D-31) fill the slots and
built-ins the side's leader has (:mod:`dunenb.battle.leader_weapons`); ``weapon`` may be a built-in that fills the
attack slot (``"karate"``, ``"poison-slow-built-in"``). A plan the leader's powers do not allow is refused naming
the field. ``spare`` (optional, leaders.md K-17 GUILD-L06-d): true on Olmric's side, he spares the opposing leader
his side's attacks would kill; true on the opposing side, it accepts and pays 4 (both are needed, GAP-131).

``passed`` (optional, leaders.md K-24 D02-d, GAP-146) says where a power that passes for good has gone
(``data/leader_inherit.json``: Logno's Weapon, DISPERSION-L02-c): {power ID: the heir holding it, or null once lost};
the side's leaders then hold it as :func:`dunenb.rules.leader_inherit.with_passed` gives it in a game.

``karama`` (optional) is a card added on the wheel as a Karama (KARAMA-3, GAP-55b): it voids the opposing House's
blockable traitor calls (the Harkonnen's, KARAMA-45) and is always lost. ``tokens`` are all the side's tokens in the
territory (``elite`` = marked F, S or A). ``dice`` fixes that side's d10
results in rolling order; missing results are enumerated. ``hand``, ``leaders`` and ``spice`` (spice owned) are
optional and only used by analysis (:mod:`dunenb.analysis.battle_odds`); when given, the plan must respect them.
An inline leader has no House and no powers. Names are matched accent- and case-insensitively; ``house:id``
names one House's copy. A case must be a possible position (``data/battles/README.md``): numbers within the rules'
limits (G-1 tokens, LC-1 dice, GAP-54 spice and inline strength), one copy per character (leaders.md X-1), traitors
that may be this House's (TRAITOR-1, K-21, GAP-54); the Harkonnen hold every always-traitor in play (GAP-53).

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

import dataclasses
import json
import os
from collections import Counter
from dataclasses import dataclass
from importlib import resources
from typing import Any

from dunenb.battle import alias, facts, immunities
from dunenb.battle.captors import captors, may_hold
from dunenb.battle.cards import BUILT_IN_WEAPONS, DEFENCES, KARAMA_CARDS, OTHER_CARDS, WEAPONS, wheel_karama_power
from dunenb.battle.case_karama import CaseKarama, blocked_powers, read_uses
from dunenb.battle.characters import Allocation, allocate
from dunenb.battle.immunities import IMMUNE
from dunenb.battle.leader_mind import is_leader_power, prescience_slots
from dunenb.battle.leader_weapons import check_slots, karama_substitutes, playable_cards
from dunenb.battle.plans import Battle, BattlePlan, BattleSide
from dunenb.battle.powers import carried_weapons, slot_weapon_powers, slot_weapons
from dunenb.battle.resolve import D10, Distribution, distribution_json, resolve_battle
from dunenb.battle.roster import HOUSES, Leader, fold, inline_leader, load_roster
from dunenb.battle.sequence import (
    SCOPE_KINDS,
    BattleSequence,
    PrescienceAnswer,
    PrescienceQuestion,
    VoiceCommand,
    answers_of_slot,
    forced_kinds,
    plan_violations,
)
from dunenb.battle.traitors import can_be_traitor_of
from dunenb.battle.wheel import Dial, Tokens
from dunenb.board import load_board
from dunenb.errors import DuneError, IllegalActionError, InputError
from dunenb.jsonio import read_json
from dunenb.ruleset import load_ruleset

CASE_FORMAT = "dunenb.battle/1"
#: GAP-54 (design): no rule bounds the spice a House owns; a case caps it so that a typo is refused at once.
MAX_CASE_SPICE = 999
#: GAP-54 (design): a side's fixed d10 results; no battle needs more rolls than this.
MAX_CASE_DICE = 10
_TOP_KEYS = ("format", "territory", "defender", "sides", "title", "description", "source", "notes", "voice",
             "prescience", "karama_uses", "shield_wall_standing")
_SIDE_KEYS = ("house", "tokens", "dial", "leader", "weapon", "defense", "karama", "traitors", "dice", "hand",
              "leaders", "spice", "notes", "dead", "blocked", "regenerations", "captured", "karama_use",
              "extra_attack", "extra_defense", "b1_rolls", "spare", "passed")


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
    sequence: BattleSequence | None = None  # the Voices and prescience answers in force (dunenb.battle.facts)
    shield_wall_standing: bool = True
    #: the Karama uses the case states (``karama_uses`` and the sides' ``blocked``: dunenb.battle.case_karama)
    karama_uses: tuple[CaseKarama, ...] = ()

    @property
    def battle(self) -> Battle:
        return Battle(self.territory, self.defender, (self.sides[0].side, self.sides[1].side),
                      self.shield_wall_standing)

    @property
    def houses(self) -> tuple[str, str]:
        return (self.sides[0].house, self.sides[1].house)

    def with_plans(self, first: BattlePlan, second: BattlePlan) -> Battle:
        """The case's battle with other plans (the analysis varies plans, keeping tokens, traitors, dice)."""
        sides = tuple(dataclasses.replace(c.side, plan=plan)
                      for c, plan in zip(self.sides, (first, second), strict=True))
        return Battle(self.territory, self.defender, (sides[0], sides[1]), self.shield_wall_standing)


def _allowed(values: tuple[Any, ...]) -> str:
    return ", ".join("null" if v is None else json.dumps(v) for v in values)


def _fail(field: str, message: str) -> InputError:
    return InputError("case/field", f"{field}: {message}")


def _check_keys(raw: dict[str, Any], allowed: tuple[str, ...], where: str) -> None:
    for key in raw:
        if key not in allowed:
            raise _fail(f"{where}{key}" if where else key, f"unknown field; allowed fields: {', '.join(allowed)}")


def _count(raw: Any, field: str, *, default: int | None = 0, most: int | None = None, why: str = "") -> int:
    """A whole number in 0..``most``; the error names the field and the allowed range (and its rule, ``why``)."""
    if raw is None and default is not None:
        return default
    allowed = f"0 to {most}" if most is not None else ">= 0"
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0 or (most is not None and raw > most):
        raise _fail(field, f"{raw!r} is not a whole number {allowed}{f' ({why})' if why else ''}")
    return raw


def _choice(raw: Any, field: str, allowed: tuple[Any, ...]) -> Any:
    value = fold(raw) if isinstance(raw, str) else raw
    if value not in allowed:
        raise _fail(field, f"{json.dumps(raw)} is not one of {_allowed(allowed)}")
    return value


def _tokens(raw: Any, field: str, house: str) -> Tokens:
    """G-1: a House owns 20 tokens, of which ``marked`` are marked (houses.json): no side can hold more."""
    if not isinstance(raw, dict):
        raise _fail(field, 'must be an object like {"regular": 6, "elite": 0}')
    _check_keys(raw, ("regular", "elite"), f"{field}.")
    rules = load_ruleset().house(house)
    regular = _count(raw.get("regular"), f"{field}.regular", most=rules.tokens - rules.marked,
                     why=f"G-1: {house} owns {rules.tokens - rules.marked} unmarked tokens")
    elite = _count(raw.get("elite"), f"{field}.elite", most=rules.marked,
                   why=f"G-1: {house} owns {rules.marked} marked tokens")
    return Tokens(regular, elite)


def _dial(raw: Any, field: str) -> Dial:
    if not isinstance(raw, dict):
        raise _fail(field, 'must be an object like {"regular": 4, "elite": 0, "spice": 2}')
    _check_keys(raw, ("regular", "elite", "spice"), f"{field}.")
    return Dial(_count(raw.get("regular"), f"{field}.regular"), _count(raw.get("elite"), f"{field}.elite"),
                _count(raw.get("spice"), f"{field}.spice"))


def _roster_leader(raw: str, field: str, house: str, sides: tuple[str, ...] = ()) -> Leader:
    """A roster leader by id, name or ``house:id`` key, ``house``'s copy preferred; a name held by several
    copies then names the one in play among the ``sides``' Houses, if there is one (leaders.md X-6)."""
    if alias.is_alias(raw) and ":" not in raw:
        return _composite_leader(raw, field, house, sides)
    owner, sep, name = raw.partition(":")
    try:
        if sep:
            leader = load_roster().find(name, house=owner.strip())
            if leader.house != owner.strip():
                raise _fail(field, f"{owner.strip()!r} has no leader {name.strip()!r}")
            return leader
        try:
            return load_roster().find(raw, house=house)
        except InputError as error:
            if error.code != "leader/ambiguous" or not sides:
                raise
            allocation = allocate(sides)
            matches = [leader for leader in load_roster().leaders if fold(raw) in leader.names()
                       and leader.house in sides and allocation.in_game(leader)]
            if len(matches) != 1:
                raise
            return matches[0]
    except DuneError as error:
        if isinstance(error, InputError) and error.code == "case/field":
            raise
        raise _fail(field, error.message) from None


def _composite_leader(raw: str, field: str, house: str, sides: tuple[str, ...]) -> Leader:
    """leaders.md S-3 (GAP-141): ``"alma+x"`` (ids or names) is "Alma as X": Alma and another secondary leader
    of her own House."""
    first, _sep, second = raw.partition(alias.ALIAS_SEPARATOR)
    alma = _roster_leader(first.strip(), field, house, sides)
    other = _roster_leader(second.strip(), field, house, sides)
    found = {alma.id: alma, other.id: other}
    if not alias.offered((alma.id,), (other.id,), found.__getitem__):
        raise _fail(field, f"{raw!r} is not 'Alma as X' (leaders.md S-3): the first leader must hold S-3 "
                    f"(BG-L01-c, Alma) and the second be another secondary leader of {alma.house}")
    return alias.composite(alma, other)


def _deck_counts() -> dict[str, int]:
    """How many copies of each treachery card the deck holds (a hand can hold no more)."""
    from dunenb.rules.bidding import load_treachery_rules  # the rules package builds on this one

    return dict(load_treachery_rules().counts)


def _max_strength() -> int:
    return max(leader.strength for leader in load_roster().leaders)


def _leader(raw: Any, field: str, house: str) -> Leader | None:
    if raw is None:
        return None
    if isinstance(raw, str):
        return _roster_leader(raw, field, house)
    if isinstance(raw, dict):
        _check_keys(raw, ("name", "strength"), f"{field}.")
        name = raw.get("name")
        if not isinstance(name, str) or not name.strip():
            raise _fail(f"{field}.name", "an inline leader needs a non-empty name")
        strength = _count(raw.get("strength"), f"{field}.strength", default=None, most=_max_strength(),
                          why="GAP-54: no leader of the roster is stronger")
        return inline_leader(name.strip(), strength)
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
    tokens = _tokens(raw.get("tokens", {}), f"{where}.tokens", house)
    dial = _dial(raw.get("dial", {}), f"{where}.dial")
    if dial.regular > tokens.regular or dial.elite > tokens.elite:
        raise _fail(f"{where}.dial", f"dials {dial.regular} regular + {dial.elite} elite tokens but the side has "
                                     f"{tokens.regular} regular + {tokens.elite} elite in the territory (BATTLE-13 a)")
    if dial.spice > dial.regular + dial.elite:
        raise _fail(f"{where}.dial.spice", f"{dial.spice} spice for {dial.regular + dial.elite} tokens: at most "
                                           "1 spice per token (GAP-42)")
    leader = _leader(raw.get("leader"), f"{where}.leader", house)
    weapon = _choice(raw.get("weapon"), f"{where}.weapon", (None, *WEAPONS, *BUILT_IN_WEAPONS))  # G-4, K-7
    defense = _choice(raw.get("defense"), f"{where}.defense", (None, *DEFENCES))
    extra_attack = _choice(raw.get("extra_attack"), f"{where}.extra_attack", (None, *WEAPONS, *BUILT_IN_WEAPONS))
    extra_defense = _choice(raw.get("extra_defense"), f"{where}.extra_defense", (None, *DEFENCES))
    karama = _choice(raw.get("karama"), f"{where}.karama", (None, *KARAMA_CARDS))
    if leader is None and (weapon or defense or karama or extra_attack or extra_defense):
        raise _fail(f"{where}.weapon" if weapon else f"{where}.defense" if defense else f"{where}.karama",
                    "a side with no leader may play no treachery card (GAP-43)")
    _string_list(raw.get("traitors"), f"{where}.traitors")  # checked by _traitors once both sides are known
    dice_raw = raw.get("dice", [])
    if not isinstance(dice_raw, list) or len(dice_raw) > MAX_CASE_DICE:
        raise _fail(f"{where}.dice", f"must be a list of at most {MAX_CASE_DICE} d10 results, each a whole "
                                     "number 1 to 10 (GAP-54)")
    for position, value in enumerate(dice_raw):
        if isinstance(value, bool) or not isinstance(value, int) or value not in D10:
            raise _fail(f"{where}.dice[{position}]", f"{value!r} is not a d10 result: allowed whole numbers 1 to "
                                                     "10 (LC-1, GAP-28b)")
    karama_use = raw.get("karama_use")
    karama_use = karama_use.upper() if isinstance(karama_use, str) else karama_use
    if karama_use is not None and (not isinstance(karama_use, str) or karama is None):
        raise _fail(f"{where}.karama_use", "names the use of the side's karama card (e.g. \"KARAMA-25\"): give a "
                                           "karama card too")
    plan = BattlePlan(dial, leader, weapon, defense, karama, karama_use, extra_attack, extra_defense)
    b1_rolls = _b1_rolls(raw.get("b1_rolls"), f"{where}.b1_rolls", leader)
    _check_slots(plan, house, frozenset(), b1_rolls, where)  # checked again once the case's Karamas are known
    hand = None
    if "hand" in raw:
        hand = tuple(_choice(card, f"{where}.hand[{i}]", (*WEAPONS, "snooper", "shield", *OTHER_CARDS))
                     for i, card in enumerate(_string_list(raw["hand"], f"{where}.hand")))
        deck = _deck_counts()
        for card, count in sorted(Counter(hand).items()):
            if count > deck.get(card, 0):
                raise _fail(f"{where}.hand", f"{count} x {card}: the treachery deck holds {deck.get(card, 0)} "
                                             "(GAP-26, data/treachery_deck.json)")
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
        spice = _count(raw["spice"], f"{where}.spice", most=MAX_CASE_SPICE, why="GAP-54")
        if dial.spice > spice:
            raise _fail(f"{where}.dial.spice", f"dials {dial.spice} spice but the side owns {spice}")
    dead = _dead(raw.get("dead"), f"{where}.dead", house, leader, leaders)
    passed = _passed(raw.get("passed"), f"{where}.passed", house, dead)
    if passed:  # leaders.md K-24 D02-d (GAP-146): the side's leaders hold the passed powers as in a game
        from dunenb.rules.leader_inherit import with_passed  # the rules package builds on this one

        plan = dataclasses.replace(plan, leader=None if leader is None else with_passed(passed, leader))
        leaders = None if leaders is None else tuple(with_passed(passed, item) for item in leaders if item)
    side = BattleSide(house, tokens, plan, frozenset(), tuple(dice_raw), wheel_karama_power(house), dead=dead,
                      regenerations=_regenerations(raw.get("regenerations"), f"{where}.regenerations", house),
                      b1_rolls=b1_rolls, spare=_spare(raw.get("spare", False), f"{where}.spare"))
    _captured(raw.get("captured", False), where, house, leader, dead)
    return CaseSide(side, hand, leaders, spice)  # type: ignore[arg-type]


# --- battle facts of the powers (issue 10 item 4) ---------------------------------------------------------
def _spare(raw: Any, field: str) -> bool:
    """``spare`` (leaders.md K-17 GUILD-L06-d, GAP-131): on the side of Olmric, he spares the opposing leader his
    side's attacks would kill; on the opposing side, that side accepts and pays 4. Both are needed."""
    if not isinstance(raw, bool):
        raise _fail(field, f"{raw!r}: must be true or false (K-17 spare: the holder offers, the opponent accepts)")
    return raw


def _passed(raw: Any, field: str, house: str, dead: frozenset[str]) -> tuple[tuple[str, str, str], ...]:
    """``passed`` (leaders.md K-24 D02-d, GAP-134, GAP-146): {power ID: holder} for a power of ``house`` that
    passes for good (``data/leader_inherit.json``: DISPERSION-L02-c, Logno's Weapon), naming the heir who holds it
    now, or null once it is lost for good. The record is the game's ``GameState.powers_passed``, read by the same
    :func:`dunenb.rules.leader_inherit.with_passed`. The holder must be one of its heirs and alive (at a holder's
    death it passes at once)."""
    from dunenb.rules.leader_inherit import load_passes  # the rules package builds on this one

    if raw is None:
        return ()
    passes = {passing.passes.upper(): passing for passing in load_passes() if passing.house == house}
    example = '{"DISPERSION-L02-c": "dama"}'
    if not isinstance(raw, dict):
        raise _fail(field, f"must be an object {{power ID: holder or null}}, e.g. {example}")
    found = []
    for power, heir in sorted(raw.items()):
        passing = passes.get(power.upper())
        if passing is None:
            raise _fail(field, f"{power!r} is no power of {house} that passes for good (leaders.md K-24, "
                               f"data/leader_inherit.json); allowed: "
                               f"{', '.join(sorted(p.passes for p in passes.values())) or 'none'}")
        where = f"{field}.{power}"
        if heir is None:
            found.append((passing.passes, house, ""))  # GAP-134: lost for good
            continue
        if not isinstance(heir, str):
            raise _fail(where, f"{heir!r}: a leader id or name of {house}, or null (lost for good)")
        person = _roster_leader(heir, where, house)
        if person.house != house or person.id not in passing.heirs:
            raise _fail(where, f"{person.key} may not hold {passing.passes}; allowed heirs: "
                               f"{', '.join(passing.heirs)} ({passing.power}, GAP-134)")
        if person.id in dead:
            raise _fail(where, f"{person.name} is dead: at its holder's death {passing.passes} passes at once to "
                               "the strongest living heir (GAP-134); name her or null")
        found.append((passing.passes, house, person.id))
    return tuple(found)


def _b1_rolls(raw: Any, field: str, leader: Leader | None) -> tuple[tuple[str, int], ...]:
    """``b1_rolls``: {power ID: d10 face} rolled at B1 for the leader's powers (leaders.md D-31: HARKONNEN-L10-c,
    Yueh's slow poison is there only on d10 ≤ 2). Each ID must be a power of the side's leader."""
    if raw is None:
        return ()
    if not isinstance(raw, dict):
        raise _fail(field, 'must be an object {"POWER-ID": d10 result}')
    own = {power.id for power in leader.powers} if leader is not None else set()
    found = []
    for power, value in sorted(raw.items()):
        if power not in own:
            raise _fail(field, f"{power!r} is not a power of the side's leader; allowed: {', '.join(sorted(own))}")
        if isinstance(value, bool) or not isinstance(value, int) or value not in D10:
            raise _fail(f"{field}.{power}", f"{value!r} is not a d10 result: allowed whole numbers 1 to 10 (LC-1)")
        found.append((power, value))
    return tuple(found)


def _dead(raw: Any, field: str, house: str, leader: Leader | None,
          available: tuple[Leader | None, ...] | None) -> frozenset[str]:
    """``dead``: this House's leaders in its tanks (HARKONNEN-M3 counts Vladimir's living minions). Each must be a
    leader of this House, neither on the wheel nor among the available ``leaders``; the main leader only for a
    House whose main leader regenerates (TLEILAX-M2) or has a living successor (houses.md G-7)."""
    found = set()
    for position, name in enumerate(_string_list(raw, field)):
        where = f"{field}[{position}]"
        person = _roster_leader(name, where, house)
        if person.house != house:
            raise _fail(where, f"{person.name} is a {person.house} leader; 'dead' lists the {house} leaders in "
                               f"its own tanks")
        if person == leader or person in (available or ()):
            raise _fail(where, f"{person.name} cannot be dead and on the wheel or available at once")
        found.add(person.id)
    from dunenb.battle.roster import load_roster

    roster = load_roster()
    if roster.main_leader(house).id in found and _regeneration_count(house) is None and \
            roster.acting_main(house, found) is None:
        raise _fail(field, f"the {house} main leader and every successor are dead: that House is eliminated "
                           "(VICTORY-2, houses.md G-7: only a living successor or a regeneration keeps it in the "
                           "game) and fights no battle")
    return frozenset(found)


def _regeneration_count(house: str) -> int | None:
    """The regenerations the main leader of ``house`` starts with (TLEILAX-M2: the ``leader.death`` trigger of
    data/powers.json with a ``count``), or ``None`` if that House's main leader has none."""
    from dunenb.powers.registry import load_powers

    for spec in load_powers().values():
        if spec.holder == house and spec.is_main_leader_power:
            for act in spec.acts:
                if act.trigger == "leader.death" and "count" in act.params:
                    return int(act.params["count"])
    return None


def _regenerations(raw: Any, field: str, house: str) -> int | None:
    """``regenerations``: how many the side's main leader has left (TLEILAX-M2); only for such a House."""
    if raw is None:
        return None
    most = _regeneration_count(house)
    if most is None:
        raise _fail(field, f"the {house} main leader has no regenerations (only TLEILAX-M2 gives some)")
    return _count(raw, field, most=most, why="TLEILAX-M2")


def _check_slots(plan: BattlePlan, house: str, blocked: frozenset[str], b1_rolls: tuple[tuple[str, int], ...],
                 where: str) -> None:
    """G-4, leaders.md K-6..K-8: the slots and built-ins the House and its leader give (less the blocked powers)."""
    try:
        check_slots(plan, house, blocked=blocked, house_weapons=slot_weapons(house), b1_rolls=b1_rolls)
    except IllegalActionError as error:
        field = {"battle/weapon": "weapon", "battle/extra-attack": "extra_attack",
                 "battle/extra-defense": "extra_defense"}.get(error.code, "defense")
        raise _fail(f"{where}.{field}", error.message) from None


def _check_karama_card(side: CaseSide, blocked: frozenset[str], index: int) -> None:
    """The side's ``karama`` must be a card it may play as a Karama: the Karama (KARAMA-1), the card a House power
    makes one (BG-P5 worthless, TLEILAX-P4 ghola), or one its leader's K-9 rule makes one (GUILD-L01-d: the Guild's
    worthless card in Edric's battle, unless a Karama voids his powers, LC-11)."""
    from dunenb.rules.bidding import load_treachery_rules  # the rules package builds on this one

    card = side.plan.karama
    if card is None:
        return
    substitute = load_treachery_rules().karama_substitutes.get(side.house)
    allowed = ("karama", *((substitute,) if substitute else ()),
               *karama_substitutes(side.plan.leader, side.house, blocked))
    if card not in allowed:
        raise _fail(f"sides[{index}].karama", f"{card!r} is no Karama for {side.house} here; allowed: "
                                              f"{_allowed((None, *dict.fromkeys(allowed)))} (KARAMA-1, BG-P5, "
                                              "TLEILAX-P4, leaders.md K-9 GUILD-L01-d)")


def _with_karamas(raw: dict[str, Any], sides_raw: list[Any], sides: tuple[CaseSide, CaseSide], defender: str,
                  territory: str, standing: bool) -> tuple[tuple[CaseSide, CaseSide], tuple[CaseKarama, ...]]:
    """The case's Karama uses (``karama_uses`` and the sides' ``blocked``, one list: :mod:`dunenb.battle.
    case_karama`) and each side with the powers they block; the plans' slots are checked against them."""
    houses = (sides[0].house, sides[1].house)
    uses = read_uses(raw, sides_raw, houses)
    blocked = blocked_powers(uses, houses, [side.plan.leader for side in sides], defender=houses.index(defender),
                             territory=territory, dead=(sides[0].side.dead, sides[1].side.dead),
                             shield_wall_standing=standing)
    found = []
    for index, side in enumerate(sides):
        if blocked[index]:
            _check_slots(side.plan, side.house, blocked[index], side.side.b1_rolls, f"sides[{index}]")
        _check_karama_card(side, blocked[index], index)
        found.append(dataclasses.replace(side, side=dataclasses.replace(side.side, blocked=blocked[index])))
    return (found[0], found[1]), uses


def _captured(raw: Any, where: str, house: str, leader: Leader | None, dead: frozenset[str]) -> None:
    """``captured``: the side's leader is a leader of another House that this House holds captive by one of its
    capture sources (:mod:`dunenb.battle.captors`: HARKONNEN-P4, or a living leader of its own with a K-17
    ``capture`` entry, BG-L03-b Lucille, D-28; GAP-145)."""
    if raw is False:
        return
    if raw is not True:
        raise _fail(f"{where}.captured", f"{raw!r}: true or false")
    sources = captors(house)
    if not sources:
        holders = ", ".join(f"{c.house} ({c.power})" for h in HOUSES for c in captors(h))
        raise _fail(f"{where}.captured", f"{house} hold no capture power; only {holders} capture leaders "
                                         "(HARKONNEN-P4, leaders.md K-17, GAP-145)")
    if leader is None or leader.house in (None, house):
        raise _fail(f"{where}.leader", "a captured leader is a roster leader of another House, named 'house:id' "
                                       f"({', '.join(c.power for c in sources)})")
    source, reasons = may_hold(house, leader, dead)
    if source is None:  # GAP-145: at least one of the House's sources must be able to hold him
        raise _fail(f"{where}.leader", f"{leader.key} cannot be a captive of {house}: {'; '.join(reasons)}")


def _named_leaders(side: CaseSide) -> list[Leader]:
    return [leader for leader in (side.plan.leader, *(side.leaders or ())) if leader is not None]


def _members(leader: Leader | None) -> tuple[Leader, ...]:
    """The roster leaders a plan's leader stands for: Alma and X for "Alma as X" (leaders.md S-3, GAP-141)."""
    if leader is None:
        return ()
    if not alias.is_alias(leader.id):
        return (leader,)
    return tuple(load_roster().find(member, house=leader.house) for member in alias.members(leader.id))


def _check_in_game(leader: Leader, field: str, allocation: Allocation) -> None:
    """leaders.md X-1 to X-3: a copy out of the game for this line-up can be neither played nor a traitor."""
    removed = allocation.reason(leader.house or "", leader.id)
    if removed is None:
        return
    instead = f"; the copy in play is {removed.instead[0]}:{removed.instead[1]}" if removed.instead else ""
    raise _fail(field, f"{leader.key} is out of the game when {', '.join(allocation.houses)} play (leaders.md "
                       f"{removed.rule}: one copy per character){instead}")


def _traitor(raw: str, field: str, me: CaseSide, foe: CaseSide) -> Leader | str:
    """One name of a side's ``traitors``: a roster leader who may be this House's traitor, or the name of the
    opponent's inline leader. TRAITOR-1 (main leaders), K-21 (never_traitor, never_traitor_of) and GAP-54
    (the House's own leaders) are refused."""
    inline = [leader for leader in _named_leaders(foe) if leader.house is None]
    if any(fold(raw) in leader.names() for leader in inline):
        return fold(raw)
    leader = _roster_leader(raw, field, foe.house, (foe.house, me.house))
    if leader.main:
        raise _fail(field, f"{leader.name} is the {leader.house} main leader: main leaders are never drawn as "
                           "traitors (TRAITOR-1, G-7)")
    if leader.house == me.house:
        # GAP-54 (design): a slip on one's own leader (TRAITOR-5) can never be called by its holder: refused.
        raise _fail(field, f"{leader.name} is one of the {me.house} leaders: a House never calls treachery on its "
                           "own leader (TRAITOR-5, GAP-54); list leaders of other Houses")
    if not can_be_traitor_of(leader, me.house):
        raise _fail(field, f"{leader.name} ({leader.house}) can never be a traitor of {me.house} (leaders.md K-21)")
    return leader


def _traitors(raw: dict[str, Any], index: int, sides: tuple[CaseSide, ...]) -> list[Leader | str]:
    where = f"sides[{index}].traitors"
    names = _string_list(raw.get("traitors"), where)
    return [_traitor(name, f"{where}[{i}]", sides[index], sides[1 - index]) for i, name in enumerate(names)]


def _with_traitors(raws: list[Any], sides: tuple[CaseSide, ...]) -> tuple[CaseSide, CaseSide]:
    """Check every named leader against the line-up's allocation (leaders.md X-1) and set each side's traitors.

    The line-up is the two sides' Houses plus the Houses of every roster leader the case names. GAP-53 (design):
    a side holds as traitors, as if on a slip, every leader in play whose ``always_traitor_of`` names its House
    (K-21: the Harkonnen and Yueh, Ziarenko, Wanna), so such a leader is called as in a game where the
    Harkonnen call him; its on-call effects (EMPEROR-L11-a) then follow from :mod:`dunenb.battle.resolve`.
    """
    traitors = [_traitors(raws[index], index, sides) for index in (0, 1)]
    named = [leader for side in sides for leader in _named_leaders(side)]
    named += [leader for held in traitors for leader in held if isinstance(leader, Leader)]
    houses = [side.house for side in sides]
    houses += sorted({leader.house for leader in named if leader.house and leader.house not in houses})
    allocation = allocate(houses)
    for index, side in enumerate(sides):
        where = f"sides[{index}]"
        for member in _members(side.plan.leader):  # leaders.md S-3: "Alma as X", Alma and X each in play
            _check_in_game(member, f"{where}.leader", allocation)
        for position, leader in enumerate(side.leaders or ()):
            _check_in_game(leader, f"{where}.leaders[{position}]", allocation)
        for position, traitor in enumerate(traitors[index]):
            if isinstance(traitor, Leader):
                _check_in_game(traitor, f"{where}.traitors[{position}]", allocation)
    result = []
    for index, side in enumerate(sides):
        held = {leader if isinstance(leader, str) else leader.id for leader in traitors[index]}
        held |= {leader.id for leader in load_roster().leaders
                 if side.house in leader.always_traitor_of and allocation.in_game(leader)}  # GAP-53
        foe = sides[1 - index]
        prisoner = foe.plan.leader
        if raws[1 - index].get("captured") and prisoner is not None and prisoner.house == side.house \
                and prisoner.id not in {t if isinstance(t, str) else t.id for t in traitors[1 - index]}:
            held.add(prisoner.id)  # FAQ 19, TRAITOR-13 (1): his own House may cry treachery on recognising him
        battle_side = dataclasses.replace(side.side, traitors=frozenset(held))
        result.append(CaseSide(battle_side, side.hand, side.leaders, side.spice))
    return result[0], result[1]


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
    parsed = tuple(_parse_side(side, index) for index, side in enumerate(sides_raw))
    if parsed[0].house == parsed[1].house:
        raise _fail("sides[1].house", f"both sides are {parsed[0].house}; a battle is between two Houses")
    sides = _with_traitors(sides_raw, parsed)
    defender = _choice(raw.get("defender"), "defender", (sides[0].house, sides[1].house))
    standing = raw.get("shield_wall_standing", True)
    if not isinstance(standing, bool):
        raise _fail("shield_wall_standing", "must be true (the default) or false (blasted, GAP-30; leaders.md LC-3: "
                    "the Shield Wall then counts as a desert)")
    sides, uses = _with_karamas(raw, sides_raw, sides, defender, territory, standing)
    sequence = _facts(raw, sides, defender, territory)
    sides = (_finish_side(sides[0], sides[1], sequence, 0), _finish_side(sides[1], sides[0], sequence, 1))
    return BattleCase(territory, defender, sides, str(raw.get("title", "")), str(raw.get("description", "")),
                      sequence, standing, uses)


def _fact_list(raw: Any, field: str, keys: tuple[str, ...]) -> list[dict[str, Any]]:
    items = raw if isinstance(raw, list) else [raw]
    for index, item in enumerate(items):
        where = f"{field}[{index}]" if isinstance(raw, list) else field
        if not isinstance(item, dict):
            raise _fail(where, f"must be an object with {', '.join(keys)}")
        _check_keys(item, keys, f"{where}.")
    return items


def _facts(raw: dict[str, Any], sides: tuple[CaseSide, CaseSide], defender: str,
           territory: str = "") -> BattleSequence | None:
    """The case's Voices and prescience answers (:mod:`dunenb.battle.facts`), checked."""
    houses = (sides[0].house, sides[1].house)
    leaders = {side.house: side.plan.leader for side in sides}
    voices: list[VoiceCommand] = []
    for index, item in enumerate(_fact_list(raw.get("voice", []), "voice", ("by", "mode", "kind"))):
        where = f"voice[{index}]" if isinstance(raw.get("voice"), list) else "voice"
        by = _choice(item.get("by"), f"{where}.by", houses)
        spent = [v.power for v in voices if v.by == by]
        power = facts.case_power("voice", by, leader=leaders[by], defender=by == defender,
                                 territory=territory, used=spent)
        if power is None:
            owned = facts.voice_powers(by)
            if spent:
                raise _fail(where, f"{by} states one Voice per source and has no other here than "
                                   f"{', '.join(spent)} (BG-P1; leaders.md K-11 for the leader on its wheel)")
            raise _fail(f"{where}.by", f"{by} has no Voice in this battle: " + (
                f"{', '.join(owned)} needs its main leader on the wheel (GAP-79)" if owned else "no Voice power"))
        mode = _choice(item.get("mode"), f"{where}.mode", ("forbid", "force"))
        # ---- leaders.md K-11 scope+ (BG-L02-b Darwi, D-25, GAP-132; special2): with her on the wheel of ``by``,
        # its command may also name worthless or Karama
        widened = facts.case_power("voice-scope", by, leader=leaders[by], defender=by == defender,
                                   territory=territory)
        extra = SCOPE_KINDS if widened is not None else ()
        # K-11: never the same kind twice; GAP-105: never one slot forced twice
        kind = _choice(item.get("kind"), f"{where}.kind",
                       facts.voice_kinds_left([v for v in voices if v.by == by], mode, extra))
        voices.append(VoiceCommand(by, houses[1 - houses.index(by)], mode, kind, power,
                                   widened if widened is not None and kind in SCOPE_KINDS else ""))
    answered: list[tuple[PrescienceQuestion, PrescienceAnswer]] = []
    raw_p = raw.get("prescience", [])
    for index, item in enumerate(_fact_list(raw_p, "prescience", ("by", "slot", "answer"))):
        where = f"prescience[{index}]" if isinstance(raw_p, list) else "prescience"
        by = _choice(item.get("by"), f"{where}.by", houses)
        spent = [q.power for q, _a in answered if q.by == by]
        power = facts.case_power("prescience", by, leader=leaders[by], defender=by == defender,
                                 territory=territory, used=spent)
        if power is None:
            owned = facts.prescience_powers(by)
            if spent:
                raise _fail(where, f"{by} asks one prescience question per source and has no other here than "
                                   f"{', '.join(spent)} (ATREIDES-P1; leaders.md K-12 for the leader on its wheel)")
            raise _fail(f"{where}.by", f"{by} asks no prescience question in this battle: " + (
                f"{', '.join(owned)} acts only when it defends, in its own battle turn (GAP-79)" if owned
                else "no prescience power") + _unmet_prescience(leaders[by]))
        asked = [q.slot for q, _a in answered if q.by == by]  # K-12: never the same question twice (GAP-102)
        scope = prescience_slots(power) if is_leader_power(power) else ("attack", "defence")
        slot = _choice(item.get("slot"), f"{where}.slot", tuple(s for s in scope if s not in asked))
        # K-10 immune; GAP-138: two kinds for two attacks or defences, e.g. "poison+projectile"
        answer = _choice(item.get("answer"), f"{where}.answer", ("none", *answers_of_slot(slot), IMMUNE))
        target = houses[1 - houses.index(by)]
        answered.append((PrescienceQuestion(by, target, slot, power),
                         PrescienceAnswer(target, None if answer == "none" else answer)))
    if not voices and not answered:
        return None
    return facts.sequence_of(houses, voices, answered)


def _unmet_prescience(leader: Leader | None) -> str:
    """The K-12 entries of the leader on the wheel, named in a refused question: they ask only where their
    condition holds (Tolric in Carthag, Olmric in Arrakeen), and not for a foreign House (LC-9)."""
    entries = [f"{power.id} {power.text}" for power in (leader.powers if leader is not None else ())
               if power.kind == "PRESCIENCE"]
    return f"; {leader.name}'s {', '.join(entries)} asks only where stated (leaders.md K-12)" \
        if entries and leader is not None else ""


def _finish_side(side: CaseSide, opposing: CaseSide, sequence: BattleSequence | None, index: int) -> CaseSide:
    """Check the side's plan against the Voices and answers in force, and count the Voices against it."""
    where = f"sides[{index}]"
    plan = side.plan
    if plan.karama_use is not None:
        opponent = opposing.house  # LC-11 b and KARAMA-20 (GAP-122, GAP-123): against the opposing wheel
        weapons = [power for power, holder, _weapon in slot_weapon_powers() if holder == opponent]
        open_uses = facts.wheel_uses(sequence, side.house, opponent=opponent, opponent_weapons=weapons)
        if plan.karama_use not in open_uses:
            raise _fail(f"{where}.karama_use", f"{plan.karama_use!r} blocks nothing that binds {side.house} or "
                                               "acts on the opposing wheel here; "
                                               f"allowed: {_allowed((None, *open_uses))} (GAP-80)")
    forced: frozenset[str] = frozenset()  # BG-P1: the kinds a Voice in force makes this side play
    if sequence is not None:
        own_blocked = side.side.blocked  # the case's Karama uses (dunenb.battle.case_karama)
        # DISPERSION-M2 and K-10: a leader immune to a Voice is not bound by it (dunenb.battle.immunities)
        released = list(immunities.released(plan.leader, house=side.house, blocked=own_blocked))
        if plan.karama_use is not None:
            released.extend(facts.released_by(plan.karama_use, sequence, side.house))
        hand = () if plan.leader is None else side.hand  # GAP-67
        if hand is not None:  # GAP-127: a Voice forces only a card his leader may play
            scoped = tuple(card for card in hand if card in SCOPE_KINDS)  # D-25 (special2): worthless, Karama
            hand = playable_cards(plan.leader, side.house, hand, blocked=own_blocked) + scoped
        answers = [answer.kind for _question, answer in sequence.answered(side.house)]
        immune = immunities.prescience_problems(answers, plan.leader, house=side.house, blocked=own_blocked)
        problems = immune + plan_violations(sequence, side.house, plan, hand=hand, karama_shown=released,
                                            carried=carried_weapons(side.house, plan.leader, own_blocked))  # G-4
        forced = forced_kinds(sequence, side.house, karama_shown=released)
        if problems:
            # K-10 (GAP-96): a side whose leader is immune to prescience fixes the answer, not its plan
            remedy = ("state the answer 'immune' (it binds nothing)" if immune else
                      "change the weapon or defence, or add a karama card with its karama_use")
            raise _fail(where, f"the plan breaks: {'; '.join(problems)} (BG-P1, ATREIDES-P1: the Voice and the "
                               f"prescience answer bind the plan); {remedy}")
    # K-2 per Voice command (D-24): the Voices the case states against this side, obeyed or not
    voices = len(sequence.voices_on(side.house)) if sequence is not None else 0
    return dataclasses.replace(side, side=dataclasses.replace(side.side, voices_against=voices,
                                                              voice_forced=forced))  # BG-P1: forced Atomics


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
    text = resources.files("dunenb.data").joinpath("battles").joinpath(f"{name}.json").read_text(encoding="utf-8")
    return parse_case(json.loads(text))


def case_outcomes(case: BattleCase) -> Distribution:
    """The exact outcome distribution of the case's plans (see :func:`dunenb.battle.resolve.resolve_battle`)."""
    return resolve_battle(case.battle)


def case_json(case: BattleCase) -> dict[str, Any]:
    """The documented ``dunenb battle CASE.json --json`` output for a case."""
    return distribution_json(case_outcomes(case))
