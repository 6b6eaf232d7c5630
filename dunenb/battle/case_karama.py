"""The Karama uses a battle case states against the powers of its sides: one reading for both case fields
(issue 10 item 1) and the powers they block (:func:`blocked_powers`).

A case may state them two ways, read here as one list of :class:`CaseKarama`:

* top-level ``karama_uses``: the Karama uses played openly in this battle (KARAMA-21, -22, -23, -32, -37, -42,
  GAP-81), and the leaders note's use against a secondary leader (LC-11, D-26, GAP-121: KARAMA-10/13/19/24/33/
  39/44/50). An item is a use ID, or ``{"use": ID, "leader": name}`` naming the secondary leader an LC-11 use
  voids; off the wheels this is the one leader whose effect applies in this battle (LC-11 c: a minion whose bonus
  HARKONNEN-M3 adds to the Vladimir on the wheel; GAP-136);
* per side ``blocked``: an alias of ``karama_uses`` (GAP-137) whose uses must be against that side's own powers
  (e.g. ``["KARAMA-37"]``: Waff without his pistol).

:func:`blocked_powers` turns the uses into the power IDs each side has blocked (``BattleSide.blocked``); the
resolver, ``dunenb battle``, the analyzer and the battle explorer widget all read the case through it
(:func:`dunenb.battle.case.parse_case`).

>>> uses = read_uses({"karama_uses": ["karama-42"]}, [{}, {"blocked": ["KARAMA-37"]}], ("atreides", "bene-tleilax"))
>>> [use.to_json() for use in uses]
['KARAMA-42', 'KARAMA-37']
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dunenb.battle import facts
from dunenb.battle.leader_karama import (
    bonus_leaders,
    group_of,
    is_leader_use,
    leader_uses,
    use_against,
    voidable_powers,
)
from dunenb.battle.roster import Leader, load_roster
from dunenb.errors import DuneError, InputError
from dunenb.powers.registry import owner

#: The keys of one ``karama_uses`` item given as an object.
ITEM_KEYS = ("use", "leader")


@dataclass(frozen=True)
class CaseKarama:
    """One Karama use a case states: its ID, the roster key (``house:id``) of the leader an LC-11 use names (or
    ``None``: the one on a wheel) and the case field it was read from (for the errors)."""

    use: str
    leader: str | None = None
    field: str = "karama_uses"

    def to_json(self) -> str | dict[str, str]:
        """The ``karama_uses`` item that states this use again."""
        return self.use if self.leader is None else {"use": self.use, "leader": self.leader}


def _fail(field: str, message: str) -> InputError:
    return InputError("case/field", f"{field}: {message}")


def allowed_uses() -> tuple[str, ...]:
    """Every use a case may state: the open battle uses (GAP-81), the uses against the powers the resolver applies
    (KARAMA-37...), and the LC-11 uses (GAP-121)."""
    from dunenb.battle.powers import battle_acts
    from dunenb.powers.registry import load_powers

    acting = {act.power for act in battle_acts()}
    resolved = tuple(use.id for spec in load_powers().values() if spec.id in acting for use in spec.karama
                     if use.status == "implemented")
    return tuple(dict.fromkeys((*facts.open_uses(), *resolved, *leader_uses().by_id)))


def _item(raw: Any, field: str) -> CaseKarama:
    allowed = allowed_uses()
    leader = None
    if isinstance(raw, dict):
        for key in raw:
            if key not in ITEM_KEYS:
                raise _fail(f"{field}.{key}", f"unknown field; allowed fields: {', '.join(ITEM_KEYS)}")
        leader = raw.get("leader")
        if leader is not None and (not isinstance(leader, str) or not leader.strip()):
            raise _fail(f"{field}.leader", "must be the name or id of the secondary leader the use voids")
        raw = raw.get("use")
    if not isinstance(raw, str) or raw.strip().upper() not in allowed:
        raise _fail(field, f"{json.dumps(raw)} {_why_not(raw)}; allowed: {', '.join(allowed)}")
    use = raw.strip().upper()
    if leader is not None and not is_leader_use(use):
        raise _fail(f"{field}.leader", f"{use} blocks a House power, not a leader: only the LC-11 uses "
                                       f"({', '.join(leader_uses().by_id)}) name one")
    return CaseKarama(use, leader.strip() if leader is not None else None, field)


def _why_not(raw: Any) -> str:
    """Why a case may not state ``raw``: no Karama use at all, or one against a power no battle case plays.

    >>> _why_not("KARAMA-99")
    'is not a Karama use'
    >>> _why_not("KARAMA-49")
    'is a Karama use against HARKONNEN-M2 (a harkonnen power), which does not act in the battle resolution'
    """
    from dunenb.powers.registry import load_powers

    use = raw.strip().upper() if isinstance(raw, str) else None
    for spec in load_powers().values():
        if any(karama.id == use for karama in spec.karama):
            return (f"is a Karama use against {spec.id} (a {spec.holder} power), which does not act in the battle "
                    "resolution")
    return "is not a Karama use"


def read_uses(raw: dict[str, Any], sides_raw: Sequence[Any], houses: tuple[str, str]) -> tuple[CaseKarama, ...]:
    """The case's ``karama_uses``, then each side's ``blocked`` (GAP-137: an alias whose uses must be against that
    side's own House), checked against the uses a case may state and the Houses of the battle (GAP-81)."""
    found: list[CaseKarama] = []
    top = raw.get("karama_uses", [])
    if not isinstance(top, list):
        raise _fail("karama_uses", f"must be a list of Karama uses among {', '.join(allowed_uses())}")
    for index, item in enumerate(top):
        use = _item(item, f"karama_uses[{index}]")
        target = _target_house(use.use)
        if target not in houses and not is_leader_use(use.use):  # an LC-11 use is refused by _voided
            raise _fail(use.field, f"{use.use} blocks a power of {target}, who is not in this battle (GAP-81)")
        found.append(use)
    for me, side in enumerate(sides_raw):
        where = f"sides[{me}].blocked"
        listed = side.get("blocked") if isinstance(side, dict) else None
        if listed is None:
            continue
        if not isinstance(listed, list):
            raise _fail(where, "must be a list of Karama uses against this side's powers, e.g. [\"KARAMA-37\"]")
        for index, item in enumerate(listed):
            use = _item(item, f"{where}[{index}]")
            target = _target_house(use.use)
            if target != houses[me]:
                raise _fail(use.field, f"{use.use} blocks a power of {target}, not one of {houses[me]}'s: list it "
                                       "under the side it blocks, or in karama_uses")
            found.append(use)
    return tuple(found)


def _target_house(use: str) -> str:
    """The House whose power (or, LC-11, whose secondary leader) the use blocks."""
    if is_leader_use(use):
        return group_of(use)
    return owner(facts.power_of_use(use))


def _leader_named(use: CaseKarama, group: str) -> Leader:
    assert use.leader is not None
    where = f"{use.field}.leader"
    name = use.leader
    house, sep, rest = name.partition(":")
    try:
        leader = load_roster().find(rest if sep else name, house=house.strip() if sep else group)
    except DuneError as error:
        raise _fail(where, error.message) from None
    if leader.house != group or leader.main:
        raise _fail(where, f"{use.use} voids a secondary leader of {group} (LC-11, GAP-121), and {leader.name} "
                           f"is {'the main leader' if leader.main else 'a ' + str(leader.house) + ' leader'}")
    return leader


def _voided(use: CaseKarama, leaders: Sequence[Leader | None], houses: tuple[str, str],
            off_wheel: Sequence[tuple[int, str]]) -> tuple[int, frozenset[str]]:
    """(side, powers) an LC-11 use voids: the secondary leader of its group on a wheel (LC-11 a/b), or the named
    leader off the wheels whose effect applies in this battle (LC-11 c, GAP-136)."""
    group = group_of(use.use)
    me = houses.index(group) if group in houses else None
    on_wheel = leaders[me] if me is not None and use_against(leaders[me]) == use.use else None
    if use.leader is None or me is None:
        if on_wheel is not None and me is not None:
            return me, voidable_powers(on_wheel)
        named = [lid for side, lid in off_wheel if side == me]
        raise _fail(use.field, f"{use.use} voids the powers of a {group} secondary leader (LC-11, GAP-121), and no "
                               f"{group} side of this case is led by one" + (
                                   f"; name the leader whose effect applies here: {{\"use\": \"{use.use}\", "
                                   f"\"leader\": one of {', '.join(named)}}} (LC-11 c, GAP-136)" if named else ""))
    leader = _leader_named(use, group)
    if on_wheel is not None and leader.id == on_wheel.id:
        return me, voidable_powers(leader)
    if (me, leader.id) in off_wheel:
        return me, voidable_powers(leader)
    allowed = [lid for side, lid in off_wheel if side == me]
    if on_wheel is not None:
        allowed.insert(0, on_wheel.id)
    raise _fail(f"{use.field}.leader", f"{leader.name} is not on a wheel of this case and no effect of his applies "
                                       f"in it (LC-11 c, GAP-136: off the wheels only a leader whose bonus a power "
                                       f"adds, HARKONNEN-M3); allowed: {', '.join(allowed) or 'none'}")


def blocked_powers(uses: Sequence[CaseKarama], houses: tuple[str, str], leaders: Sequence[Leader | None], *,
                   defender: int, territory: str = "", dead: Sequence[frozenset[str]] = (frozenset(), frozenset()),
                   shield_wall_standing: bool = True) -> tuple[frozenset[str], frozenset[str]]:
    """The power IDs each side has blocked by the case's Karama uses (the one reading of ``karama_uses`` and
    ``blocked``): a House power's use blocks that power (KARAMA-1); an LC-11 use voids every power (LC-10: not
    the traits) of its secondary leader, on a wheel or, named, off the wheels where his effect applies (GAP-136:
    HARKONNEN-M3 then adds nothing for that minion, GAP-125)."""
    found: list[set[str]] = [set(), set()]
    plain = [use for use in uses if not is_leader_use(use.use)]
    for use in plain:
        found[houses.index(_target_house(use.use))].add(facts.power_of_use(use.use))
    pending = [use for use in uses if is_leader_use(use.use)]
    if pending:
        blocked = (frozenset(found[0]), frozenset(found[1]))
        off_wheel = bonus_leaders(houses, leaders, defender, territory=territory, dead=dead, blocked=blocked,
                                  shield_wall_standing=shield_wall_standing)
        for use in pending:
            me, powers = _voided(use, leaders, houses, off_wheel)
            found[me] |= powers
    return frozenset(found[0]), frozenset(found[1])


def uses_in_force(suppressed: Sequence[tuple[str, str]], houses: tuple[str, str],
                  leaders: Sequence[Leader | None], *, defender: int, territory: str = "",
                  dead: Sequence[frozenset[str]] = (frozenset(), frozenset()),
                  shield_wall_standing: bool = True) -> list[str | dict[str, str]]:
    """The ``karama_uses`` items of a case rebuilt from a game's battle, from the Karama uses in force there
    (``suppressed``: (Karama use, power) of each suppression, :class:`dunenb.state.Suppression`): those a case may
    state (:func:`allowed_uses`) against a House of the battle, and the LC-11 uses against a leader on a wheel or
    whose bonus applies in it (GAP-136), so that :func:`blocked_powers` reads the same blocked powers."""
    from dunenb.battle.leader_karama import leader_of_power

    allowed = set(allowed_uses())
    off_wheel = {lid for _side, lid in bonus_leaders(houses, leaders, defender, territory=territory, dead=dead,
                                                    shield_wall_standing=shield_wall_standing)}
    on_wheel = {leader.id for leader in leaders if leader is not None}
    found: list[str | dict[str, str]] = []
    for use, power in suppressed:
        if use not in allowed or _target_house(use) not in houses:
            continue
        item: str | dict[str, str] = use
        if is_leader_use(use):
            target = leader_of_power(power)
            if target is None or target.house != group_of(use) or target.id not in on_wheel | off_wheel:
                continue
            item = {"use": use, "leader": target.id}
        elif facts.power_of_use(use) != power:
            continue
        if item not in found:
            found.append(item)
    return found


__all__ = ["CaseKarama", "allowed_uses", "blocked_powers", "read_uses", "uses_in_force"]
