"""leaders.md LC-11: the Karama against a secondary leader (KARAMA-10/13/19/24/33/39/44/50, D-26), and what a
Karama shown on the wheel at B6 blocks on the opposing side (LC-11 b; KARAMA-20 against karate, GAP-123).

The eight uses are declared in ``data/leader_karama.json``: one per House group, each recorded against the
secondary leaders whose own House (LC-9) is that group's (GAP-121). A use voids every *power* of that leader
(LC-10: never a trait) for the rest of the battle, as the power IDs a Karama blocks: the same ``blocked`` /
suppression mechanism every kind reads (:attr:`dunenb.battle.plans.BattleSide.blocked`,
:func:`dunenb.powers.karama.is_suppressed`), so it also covers kinds added later.

This module reads battle facts only (no game state), so games, ``dunenb battle`` cases and the analyzer apply a
wheel Karama alike: :func:`with_wheel_karamas` is part of the B6 reveal step of the resolver.

>>> from dunenb.battle.roster import load_roster
>>> stilgar = load_roster().find("Stilgar", house="fremen")
>>> use_against(stilgar), use_for_house("harkonnen"), is_leader_use("KARAMA-25")
('KARAMA-10', 'KARAMA-50', False)
>>> sorted(voidable_powers(stilgar))[:2]
['FREMEN-L01-a', 'FREMEN-L01-b']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from dunenb.battle.leader_traits import is_trait  # leaders.md LC-10: a Karama never voids a trait
from dunenb.battle.roster import Leader, load_roster
from dunenb.board import read_data_file
from dunenb.errors import DuneError, RulesDataError

if TYPE_CHECKING:
    from dunenb.battle.plans import Battle

FORMAT = "dunenb.leader-karama/1"


@dataclass(frozen=True)
class LeaderUses:
    """The LC-11 uses: Karama ID -> the House whose secondary leaders it voids (GAP-121), and their duration."""

    by_id: dict[str, str]
    lasts: str

    def for_house(self, house: str) -> str | None:
        return next((use for use, group in self.by_id.items() if group == house), None)


@lru_cache(maxsize=1)
def leader_uses() -> LeaderUses:
    """``data/leader_karama.json``, validated (a bad file names the field)."""
    from dunenb.battle.roster import HOUSES

    raw = read_data_file("leader_karama.json")
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise RulesDataError("leader-karama/format", f"data/leader_karama.json must have format {FORMAT!r}")
    found: dict[str, str] = {}
    for index, entry in enumerate(raw.get("uses", [])):
        if not isinstance(entry, dict) or not str(entry.get("id", "")).startswith("KARAMA-"):
            raise RulesDataError("leader-karama/id", f"uses[{index}]: needs an 'id' such as 'KARAMA-10'")
        if entry.get("house") not in HOUSES or entry["house"] in found.values() or entry["id"] in found:
            raise RulesDataError("leader-karama/house", f"uses[{index}] {entry['id']}: 'house' must be one House "
                                 f"not named twice; allowed: {', '.join(HOUSES)}")
        found[entry["id"]] = entry["house"]
    return LeaderUses(found, str(raw.get("lasts", "battle")))


def is_leader_use(use: str | None) -> bool:
    """Whether ``use`` is one of the LC-11 uses."""
    return use in leader_uses().by_id


def use_for_house(house: str) -> str | None:
    """The LC-11 use against a secondary leader of ``house`` (GAP-121)."""
    return leader_uses().for_house(house)


def use_against(leader: Leader | None) -> str | None:
    """The LC-11 use that voids ``leader``'s powers, or ``None`` (no leader, an inline one, a main leader: houses.md
    G-5 gives main-leader powers their own uses)."""
    if leader is None or leader.house is None or leader.main:
        return None
    return use_for_house(leader.house)


def group_of(use: str) -> str:
    """The House whose secondary leaders the LC-11 use ``use`` voids."""
    return leader_uses().by_id[use]


def voidable_powers(leader: Leader | None) -> frozenset[str]:
    """The IDs of ``leader``'s entries that LC-11 voids: his powers, never his traits (LC-10). "Alma as X" keeps
    her S-3 entry: it acted when she was committed (B0, D-15), and a Karama voids only what is still to come
    (LC-11 a: the use being declared is cancelled; GAP-141), so the committed composite stays a leader of the
    battle with no other power."""
    if leader is None or leader.main:
        return frozenset()
    from dunenb.battle import alias

    spent = alias.alias_power(leader) if alias.is_alias(leader.id) else None
    return frozenset(power.id for power in leader.powers if not is_trait(power, leader) and power.id != spent)


@lru_cache(maxsize=1)
def _power_leaders() -> dict[str, Leader]:
    return {power.id: leader for leader in load_roster().leaders if not leader.main for power in leader.powers}


def leader_of_power(power_id: str) -> Leader | None:
    """The secondary leader whose entry ``power_id`` is (``FREMEN-L01-a`` -> Stilgar), or ``None``."""
    return _power_leaders().get(power_id)


def is_voided(house: str, leader_id: str, blocked: frozenset[str]) -> bool:
    """Whether a Karama voids the powers of ``house``'s secondary leader ``leader_id`` (his power IDs among the
    side's ``blocked``): HARKONNEN-M3 then adds no bonus for that minion (KARAMA-50, GAP-125)."""
    if not blocked:
        return False
    leader = next((x for x in load_roster().of_house(house) if x.id == leader_id), None)
    return bool(voidable_powers(leader) & blocked)


def released_by(use: str, voice_powers: tuple[str, ...]) -> tuple[str, ...]:
    """LC-11 b: the Voices (their power IDs among ``voice_powers``) that the LC-11 use ``use`` shown at the reveal
    lets the victim disobey, as under KARAMA-25: those a secondary leader of the use's group gave."""
    group = group_of(use)
    found = []
    for power in voice_powers:
        leader = leader_of_power(power)
        if leader is not None and leader.house == group:
            found.append(power)
    return tuple(found)


def wheel_blocks(use: str | None, opposing: Leader | None, opposing_house: str) -> frozenset[str]:
    """What a Karama shown with the wheel for ``use`` blocks on the opposing side for the rest of the battle: the
    powers of the opposing leader for an LC-11 use whose group is his own House and who is played by it (else
    nothing, GAP-122); for a use of ``data/powers.json`` (KARAMA-20...), the power it blocks when the opposing
    House owns it."""
    if use is None or use == "KARAMA-45":
        return frozenset()
    if is_leader_use(use):
        if opposing is None or opposing.house != opposing_house or group_of(use) != opposing.house:
            return frozenset()
        return voidable_powers(opposing)
    from dunenb.powers.registry import karama_use

    try:
        spec, _declared = karama_use(use)
    except DuneError:
        return frozenset()
    return frozenset({spec.id}) if spec.holder == opposing_house else frozenset()


def with_wheel_karamas(battle: Battle) -> Battle:
    """B6: each Karama shown with a wheel (``BattlePlan.karama_use``) blocks its powers on the opposing side
    (:func:`wheel_blocks`), and a built-in weapon whose power is blocked is not played (KARAMA-20: no karate, so
    that side has no attack; GAP-123)."""
    first, second = battle.sides
    if not (first.plan.karama_use is not None or first.blocked or second.plan.karama_use is not None
            or second.blocked):
        # issue 14 item 4: no Karama shown and nothing blocked: wheel_blocks(None) blocks nothing and no built-in
        # weapon's power is blocked, so nothing changes (the leader step asks this at every chance leaf)
        return battle
    from dunenb.battle.powers import slot_weapon_powers

    sides = list(battle.sides)
    changed = False
    for me in (0, 1):
        foe = sides[1 - me]
        blocks = wheel_blocks(sides[me].plan.karama_use, foe.plan.leader, foe.house)
        if blocks - foe.blocked:
            sides[1 - me] = dataclasses.replace(foe, blocked=foe.blocked | blocks)
            changed = True
    for me, side in enumerate(sides):
        weapon = side.plan.weapon
        if weapon is not None and any(w == weapon and holder == side.house and power in side.blocked
                                      for power, holder, w in slot_weapon_powers()):
            sides[me] = dataclasses.replace(side, plan=dataclasses.replace(side.plan, weapon=None))
            changed = True
    return dataclasses.replace(battle, sides=(sides[0], sides[1])) if changed else battle


def bonus_leaders(houses: Sequence[str], leaders: Sequence[Leader | None], defender: int, *, territory: str = "",
                  dead: Sequence[frozenset[str]] = (frozenset(), frozenset()),
                  blocked: Sequence[frozenset[str]] = (frozenset(), frozenset()),
                  shield_wall_standing: bool = True) -> tuple[tuple[int, str], ...]:
    """(side, leader id) of each living leader off the wheels whose bonus a House power adds to that side's
    revealed leader in this battle (``add_per_living``: HARKONNEN-M3, Vladimir's minions), in the power's order,
    not voided yet: the leaders an LC-11 use may void off the wheels, "when the effect would apply" (LC-11 c,
    GAP-125 in games, GAP-136 in cases). Read from the resolver's values (:func:`dunenb.battle.powers.
    battle_values`), so the power's conditions are its own."""
    from dunenb.battle.powers import battle_acts, battle_values

    values = battle_values(houses, leaders, defender, territory=territory, dead=dead, blocked=blocked,
                           shield_wall_standing=shield_wall_standing)
    found = []
    for me, house in enumerate(houses):
        for act in battle_acts():
            if act.effect != "add_per_living" or act.power not in values[me].powers or act.holder != house:
                continue
            for lid in act.params["leaders"]:
                if lid not in dead[me] and not is_voided(house, lid, blocked[me]):
                    found.append((me, lid))
    return tuple(found)
