"""Issue 14 item 4 (the leader step's cost): the leader step's shortcuts give what the plain step gave.

:func:`dunenb.battle.resolve.leader_step` reads what it needs of its two leaders from one cached scene, skips
kills() without a KILL entry and blast_deaths() without a blast entry, and the d10 classes sum their weights as
exact decimals (:mod:`dunenb.battle.dice_classes`). Here the step as it was written before (every reader asked in
turn, every d10 enumerated with Fractions) is kept as the reference, and both give the same merged distribution
(same fates, same exact probabilities, same order) on many battles: every leader whose powers the step reads,
against a plain leader and against another such leader, with many cards, with and without a traitor held.
"""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction

import pytest

from dunenb.battle.immunities import attack_protection, kills
from dunenb.battle.leader_after import blast_deaths, blasts, regen_ids, spare_ids, spared
from dunenb.battle.leader_weapons import WornShields, arsenal
from dunenb.battle.plans import BattlePlan, BattleSide
from dunenb.battle.powers import builtin_weapons
from dunenb.battle.resolve import D10, Fates, _acted, _card_deaths, _merged_fates, _NeedRoll, _Roller, _strip
from dunenb.battle.rolls import REGEN
from dunenb.battle.roster import inline_leader, load_roster
from dunenb.battle.wheel import Dial, Tokens

#: Leader power kinds the leader step reads (K-3, K-6..K-10, K-14, K-17, K-21).
STEP_KINDS = {"BUILTIN_WEAPON", "BUILTIN_DEFENSE", "CARD_RULE", "CARD_SLOTS", "IMMUNITY", "KILL", "POST_BATTLE",
              "DISARM", "RESTRICTION"}
CARDS = [(None, None), ("projectile-contact", "shield"), ("projectile-contact", None), ("poison-fast", "snooper"),
         ("lasgun", None), ("lasgun", "shield"), ("projectile-distance", "shield"), ("poison-slow", "shield"),
         ("atomics", None), ("worthless", "snooper")]


def _plain_traitor_death(caller, leaders, plans, roll, builtin, blocked, houses, acted) -> bool:
    victim = 1 - caller
    if "atomics" in plans[caller].attacks:
        return leaders[caller] is not None
    only_caller_attacks = [plans[0], plans[1]]
    only_caller_attacks[victim] = dataclasses.replace(plans[victim], weapon=None, extra_attack=None)
    armed: list[tuple[str, ...]] = [(), ()]
    armed[caller] = builtin[caller]
    return _card_deaths(leaders, only_caller_attacks, roll, armed, blocked, houses, acted)[victim]


def _plain_leader_step(sides, roll) -> Fates:
    """resolve.leader_step as written before issue 14's scene: every reader asked in turn."""
    plans = [side.plan for side in sides]
    leaders = [plan.leader for plan in plans]
    houses = (sides[0].house, sides[1].house)
    blocked = (sides[0].blocked, sides[1].blocked)
    doomed = (sides[0].doomed is not None, sides[1].doomed is not None)
    held = tuple(me for me in (0, 1) if not doomed[1 - me] and sides[me].holds_traitor(leaders[1 - me]))
    voided = tuple(me for me in held if sides[me].call_power is not None and plans[1 - me].blocks_calls)
    calls = tuple(me for me in held if me not in voided)
    acted: list[list[str]] = [[], []]
    if len(calls) == 1:
        caller = calls[0]
        dead = list(doomed)
        revenge, revenge_by = kills(houses, leaders, blocked, roll, rolled=True)
        dead[1 - caller] = _plain_traitor_death(caller, leaders, plans, roll,
                                                builtin_weapons(houses, leaders, blocked), blocked, houses, acted)
        atomics: tuple[int, ...] = ()
        if "atomics" in plans[caller].attacks and leaders[caller] is not None:
            atomics = (caller,)
        return Fates(dead=(dead[0] or revenge[0], dead[1] or revenge[1]), traitor_called_by=calls,
                     atomics_used_by=atomics, blocked_calls=voided, acted=_acted(acted, revenge_by))
    swapped = len(calls) == 2
    if swapped:
        leaders = [leaders[1], leaders[0]]
    revenge, revenge_by = kills(houses, leaders, blocked, roll, rolled=True)
    weapons = [tuple(c for c in (plan.weapon, plan.extra_attack) if c is not None) for plan in plans]
    defences = [tuple(c for c in (plan.defense, plan.extra_defense) if c is not None) for plan in plans]
    present = (leaders[0] is not None, leaders[1] is not None)
    if any("atomics" in attacks for attacks in weapons):
        atomics = tuple(me for me in (0, 1) if "atomics" in weapons[me])
        return Fates(dead=present, explosion="atomics", traitor_called_by=calls, swapped=swapped,
                     atomics_used_by=atomics, blocked_calls=voided)
    if any("lasgun" in attacks for attacks in weapons) and "shield" in defences[0] + defences[1]:
        return Fates(dead=present, explosion="lasgun-shield", traitor_called_by=calls, swapped=swapped,
                     blocked_calls=voided)
    shield_report: list[tuple[int, str]] = []
    worn = WornShields([arsenal(leaders[me], houses[me], blocked[me]) for me in (0, 1)], roll, shield_report)
    deaths = _card_deaths(leaders, plans, roll, builtin_weapons(houses, leaders, blocked), blocked, houses, acted,
                          worn)
    by_attacks = deaths

    def stops_blast(foe: int) -> bool:
        protection = attack_protection(leaders[foe], "projectile-distance", house=houses[foe] or None,
                                       blocked=blocked[0] | blocked[1])
        if protection is not None and protection.sure:
            acted[foe].append(protection.power)
            return True
        return worn.worn(foe) and worn.acting(foe) > 0

    deaths = blast_deaths(houses, (leaders[0], leaders[1]), (plans[0].defense, plans[1].defense), deaths,
                          (blocked[0], blocked[1]), stops_blast)
    for side, power in shield_report:
        acted[side].append(power)
    blast_ids = blasts(houses, (leaders[0], leaders[1]), (blocked[0], blocked[1]))
    for me in (0, 1):
        if deaths[1 - me] and not by_attacks[1 - me]:
            acted[me].extend(blast_ids[me])
    killed, killed_by = kills(houses, leaders, blocked, roll, rolled=False)
    others = (revenge[0] or killed[0] or doomed[0], revenge[1] or killed[1] or doomed[1])
    spares = spared(spare_ids(houses, (leaders[0], leaders[1]), blocked), by_attacks, others,
                    (sides[0].spare, sides[1].spare), present)
    deaths = (deaths[0] and spares[1] is None, deaths[1] and spares[0] is None)
    ids = regen_ids(houses, (leaders[0], leaders[1]), blocked)
    regen: list[str | None] = [None, None]
    for me in (0, 1):
        for power in ids[me]:
            if roll(me, REGEN) <= 6:
                regen[me] = power
    return Fates(dead=(deaths[0] or others[0], deaths[1] or others[1]), traitor_called_by=calls, swapped=swapped,
                 blocked_calls=voided, acted=_acted(acted, revenge_by, killed_by), regen=(regen[0], regen[1]),
                 spared=spares)


def _plain_merged(key) -> tuple[tuple[Fraction, Fates], ...]:
    """Every d10 enumerated, ten faces each, with Fractions; the leaves merged in order of first appearance."""
    fixed = (key[0].dice, key[1].dice)
    merged: dict[Fates, Fraction] = {}
    stack: list[tuple[int, ...]] = [()]
    while stack:
        branch = stack.pop()
        roller = _Roller(fixed, branch)
        try:
            fates = _plain_leader_step(key, roller.d10)
        except _NeedRoll:
            stack.extend(branch + (face,) for face in reversed(D10))
            continue
        merged[fates] = merged.get(fates, Fraction(0)) + Fraction(1, 10) ** len(branch)
    return tuple((probability, fates) for fates, probability in merged.items())


#: the merged distribution computed afresh (whether or not a cache stands in front of it)
_uncached = getattr(_merged_fates, "__wrapped__", _merged_fates)


def _step_leaders() -> list:
    return [leader for leader in load_roster().leaders
            if leader.house and any(power.kind in STEP_KINDS for power in leader.powers)]


def _side(house: str, leader, cards, traitors: frozenset[str] = frozenset(), spare: bool = False) -> BattleSide:
    return _strip(BattleSide(house, Tokens(), BattlePlan(Dial(), leader, cards[0], cards[1]), traitors=traitors,
                             spare=spare))


@pytest.mark.parametrize("leader", _step_leaders(), ids=lambda leader: leader.key)
def test_issue14_leader_step_scene_is_the_plain_step(leader) -> None:
    leaders = _step_leaders()
    others = [inline_leader("Opponent", 4), None] + [other for other in leaders if other.house != leader.house][:3]
    checked = 0
    for foe, mine, theirs, traitor in itertools.product(others, CARDS, CARDS, (False, True)):
        foe_house = "them" if foe is None or foe.house is None else foe.house
        called = frozenset(foe.names()) if traitor and foe is not None else frozenset()
        for key in ((_side(leader.house, leader, mine, called, spare=traitor),
                     _side(foe_house, foe, theirs if foe is not None else (None, None), spare=traitor)),
                    (_side(foe_house, foe, theirs if foe is not None else (None, None)),
                     _side(leader.house, leader, mine, called))):
            assert _uncached(key) == _plain_merged(key), (leader.key, foe, mine, theirs, traitor)
            checked += 1
    assert checked > 300
