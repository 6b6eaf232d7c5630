"""leaders.md K-10 in games: a d10 immunity to prescience, rolled each time a question is put to its leader.

A House asked a prescience question (:mod:`dunenb.rules.pre_battle`, ``battle-answer``) that may play a leader
whose immunity needs a d10 (``IMMUNITY(prescience | d10≤N)``: the navigators GUILD-L01..L06-b, Hellica
DISPERSION-L08-c, the Chani-Ghola TLEILAX-L12-d) may answer ``immune:LEADER`` instead of a kind. This declares
that power of that leader (LC-5 B1: he is shown, and the House must lead with him in this battle, GAP-98), and
the d10 is rolled openly (LC-1: one chance node, :class:`ImmunityRoll`):

* on d10 ≤ N the answer is ``immune`` ("Tu ne peux voir mon attaque / ma parade"): the question is spent and
  binds nothing;
* otherwise the House answers the same question again, as if it had not declared (a kind or none, binding),
  and may not declare that leader's immunity to this question again.

The next question put to him is rolled again (K-10: "each time the opposing power is used against him").
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from dunenb.actions import Action
from dunenb.battle import immunities
from dunenb.battle import sequence as seq_mod
from dunenb.errors import IllegalActionError
from dunenb.rules.battle_context import BattleContext, LeaderShown, context_of
from dunenb.rules.common import Handler, event, node, pending, with_events
from dunenb.state import GameState

#: The answer prefix that declares a d10 immunity: ``immune:LEADER``.
DECLARE = immunities.IMMUNE + ":"
ROLL_NODE = "immunity-roll"


@dataclass(frozen=True)
class ImmunityRoll(Action):
    """K-10: the open d10 (``face``) for ``house``'s ``leader`` and his d10 immunity ``power`` (LC-1)."""

    kind: ClassVar[str] = "immunity-roll"
    is_chance: ClassVar[bool] = True
    house: str
    leader: str
    power: str
    face: int


def declarations(leaders: dict[str, immunities.Protection], failed: tuple[str, ...]) -> tuple[str, ...]:
    """The ``immune:LEADER`` answers open: each leader with a d10 prescience immunity who has not failed his roll
    for this question."""
    return tuple(DECLARE + lid for lid, protection in leaders.items() if not protection.sure and lid not in failed)


def declare(state: GameState, ctx: BattleContext, house: str, leader: str,
            protection: immunities.Protection) -> GameState:
    """``house`` declares ``leader``'s d10 immunity (GAP-98: he is shown and must lead); the d10 comes next."""
    if protection.at_most is None:
        raise IllegalActionError("battle/immunity", f"{leader}'s immunity ({protection.power}) needs no d10")
    shown = LeaderShown(house, leader, protection.power)
    if shown not in ctx.shown:
        ctx = dataclasses.replace(ctx, shown=ctx.shown + (shown,))
    state = with_events(state, event("immunity-declared", f"{house} declares that {leader} is immune to this "
                                     f"prescience question on a d10 of {protection.at_most} or less "
                                     f"({protection.power}, leaders.md K-10); {leader} leads this battle",
                                     house=house, leader=leader, power=protection.power,
                                     powers=(protection.power,)))
    return dataclasses.replace(state, pending=pending(ROLL_NODE, "chance", battle=ctx, house=house, leader=leader,
                                                      power=protection.power, at_most=protection.at_most))


def _outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    detail = node(state).detail
    return [(ImmunityRoll(detail["house"], detail["leader"], detail["power"], face), Fraction(1, 10))
            for face in range(1, 11)]


def _apply(state: GameState, action: ImmunityRoll) -> GameState:
    from dunenb.rules.pre_battle import next_step

    detail = node(state).detail
    ctx = context_of(state)
    assert ctx.sequence is not None
    immune = action.face <= detail["at_most"]
    state = with_events(state, event("immunity-roll", f"{action.house}'s d10 for {action.leader} shows "
                                     f"{action.face}: " + ("immune, the question binds nothing" if immune else
                                                           "not immune, the question must be answered")
                                     + f" ({action.power})", house=action.house, leader=action.leader,
                                     face=action.face, immune=immune, power=action.power, powers=(action.power,)))
    if immune:
        seq = seq_mod.advance(ctx.sequence, seq_mod.PrescienceAnswer(action.house, immunities.IMMUNE))
        return next_step(state, dataclasses.replace(ctx, sequence=seq))
    return dataclasses.replace(state, pending=pending("battle-answer", action.house, battle=ctx,
                                                      failed=(action.leader,)))


HANDLERS = {ROLL_NODE: Handler(apply=_apply, outcomes=_outcomes)}
