"""B1 availability rolls of secondary-leader powers (leaders.md LC-5 B1, D-31; K-7 HARKONNEN-L10-c).

A power whose ``effect.roll`` says ``at B1`` (Yueh H10: his slow poison is there only on d10 ≤ 2) is rolled
once per battle, openly, at B1 (before the Voices and the plans), so that the House knows before it sets its
plan (D-31). The plan, not an earlier commitment, names the leader in this engine, so the roll is made for each
such leader who *could* lead this battle (BATTLE-15, BATTLE-16): rolling whether or not he leads reveals
nothing (GAP-95). Each roll is a chance node of ten faces (LC-1); the results are a battle fact
(``BattleContext.b1_rolls``) that the plan menu, the plan check and the resolver read
(:func:`dunenb.battle.leader_weapons.check_slots`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from dunenb.actions import Action
from dunenb.battle.roster import Leader, Power
from dunenb.rules.battle_context import BattleContext, context_of
from dunenb.rules.common import Handler, event, pending, uniform, with_events
from dunenb.state import GameState

KIND = "battle-b1-roll"
D10 = tuple(range(1, 11))


@dataclass(frozen=True)
class LeaderRoll(Action):
    """leaders.md D-31: ``house`` rolls a d10 at B1 for its leader's ``power`` (HARKONNEN-L10-c), openly."""

    kind: ClassVar[str] = "leader-b1-d10"
    is_chance: ClassVar[bool] = True
    house: str
    power: str
    value: int


def _b1_powers(state: GameState, ctx: BattleContext) -> list[tuple[str, Power]]:
    """(House, power) of every B1 roll this battle needs, the defender's side first (LC-5 B1)."""
    from dunenb.rules import battle_powers
    from dunenb.rules.battle_phase import available_leaders
    from dunenb.rules.traitors import leader_of

    found = []
    for house in ctx.houses:
        blocked = battle_powers.blocked_in_battle(state, house)
        shown = [leader.leader for leader in ctx.shown if leader.house == house]  # B0: committed (BG-M2, H04-c)
        for lid in shown or available_leaders(state, house, ctx.area, ctx.committed):
            leader = leader_of(house, lid)
            if leader.house not in (None, house):
                continue  # LC-9, D-14: a foreign House plays him without his powers
            for power in leader.powers:
                roll = getattr(power.effect, "roll", None)
                if isinstance(roll, str) and roll.endswith("at B1") and power.id not in blocked:  # (a typed Voice
                    # keeps its d10 limit as a number: K-11, rolled at B2)
                    found.append((house, power))
    return found


def before_voices(state: GameState, ctx: BattleContext,
                  then: Callable[[GameState, BattleContext], GameState]) -> GameState:
    """The next B1 roll to make, or ``then(state, ctx)`` (the Voices, prescience and plans) when all are made."""
    done = {(house, power) for house, power, _value in ctx.b1_rolls}
    for house, power in _b1_powers(state, ctx):
        if (house, power.id) not in done:
            return dataclasses.replace(state, pending=pending(KIND, "chance", battle=ctx, house=house,
                                                              power=power.id))
    return then(state, ctx)


def _outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    assert state.pending is not None
    house, power = state.pending.detail["house"], state.pending.detail["power"]
    return uniform([LeaderRoll(house, power, value) for value in D10])


def _apply(state: GameState, action: LeaderRoll) -> GameState:
    from dunenb.rules import pre_battle

    ctx = context_of(state)
    ctx = dataclasses.replace(ctx, b1_rolls=ctx.b1_rolls + ((action.house, action.power, action.value),))
    state = with_events(state, event("leader-b1-d10", f"{action.house} rolls {action.value} on the d10 for "
                                     f"{action.power} (leaders.md D-31, before the plans)", house=action.house,
                                     power=action.power, value=action.value, powers=(action.power,)))
    return before_voices(state, ctx, pre_battle.after_b1_rolls)


def side_rolls(ctx: BattleContext, house: str) -> tuple[tuple[str, int], ...]:
    """The B1 results of ``house``'s powers in this battle, as (power, face) (the battle side's ``b1_rolls``)."""
    return tuple((power, value) for rolled, power, value in ctx.b1_rolls if rolled == house)


def rolls_of_leader(rolls: Iterable[tuple[str, int]], leader: Leader | None) -> dict[str, int]:
    """The B1 results among ``rolls`` (power, face) that are for ``leader``'s own powers: a House rolls for each of
    its leaders' powers that need it (D-31), a battle case keeps those of the leader it plays.

    >>> rolls_of_leader((("HARKONNEN-L10-c", 2), ("HARKONNEN-L05-b", 7)), None)
    {}
    """
    own = {power.id for power in leader.powers} if leader is not None else set()
    return {power: face for power, face in rolls if power in own}


HANDLERS = {KIND: Handler(apply=_apply, outcomes=_outcomes)}
