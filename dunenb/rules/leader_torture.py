"""leaders.md K-17 ``torture`` in a game (BG-L09-b Wensicia: ``enemy_dies+alive``, then d10 ≤ the dead leader's
base strength, D-23).

"Wensicia peut torturer son ennemi s'il meurt et si elle toujours en vie. Cela lui apporte une transe de vérité
qu'elle doit utiliser avant la fin du tour mais en rapport avec la Maison concernée. Pour cela, le D 10 ne doit
pas dépasser la force du combattant." (L843). At B10, among the after-battle effects
(:mod:`dunenb.rules.leader_after_battle`):

1. a public d10 (LC-1, a chance node): the torture works on a face at most the dead enemy leader's base
   strength (D-23: "la force du combattant" is the enemy's, as in L793);
2. on a success, a decision of Wensicia's House: pass, or ask one truth trance question
   (:class:`dunenb.rules.truth_trance.AskTruthTrance`, the question menu of GAP-56, ``means`` naming the power)
   of the dead leader's own House (D-23: it must be put to that House). The answer is told to the asker only.

GAP-128: "avant la fin du tour" — the trance is offered at once, at B10, and lapses if she passes (the
engine's trance moments, a plan or a bid, rarely come again in the turn once the battle is over, and the
questions are about the present hidden state); nothing is asked if the dead leader's House is out of the game.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from dunenb.actions import Action, Pass, PowerDie
from dunenb.battle.resolve import BattleOutcome, SideOutcome
from dunenb.battle.roster import Power
from dunenb.errors import IllegalActionError
from dunenb.rules.battle_context import BattleContext
from dunenb.rules.common import Handler, event, node, pending, uniform, with_events
from dunenb.rules.traitors import leader_of
from dunenb.state import GameState

ROLL = "torture-d10"
ASK = "torture-trance"


@dataclass(frozen=True)
class TortureDie(PowerDie):
    """The d10 of BG-L09-b (LC-1: public): the torture works on a face at most ``strength``."""

    kind: ClassVar[str] = ROLL


def begin(state: GameState, ctx: BattleContext, outcome: BattleOutcome, queue: tuple, side: SideOutcome,
          power: Power) -> GameState | None:
    """Start ``power``'s torture: the d10; ``None`` when the dead leader's House is out of the game."""
    enemy = next(other for other in outcome.sides if other is not side)
    if enemy.leader is None or enemy.leader_owner is None:
        return None
    target = enemy.leader_owner  # D-23: the dead leader's own House
    if target not in state.houses or target in state.eliminated or target == side.house:
        return None
    strength = leader_of(target, enemy.leader).strength
    return dataclasses.replace(state, pending=pending(ROLL, "chance", battle=ctx, outcome=outcome, queue=queue,
                                                      power=power.id, house=side.house, target=target,
                                                      strength=strength))


def _outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    detail = node(state).detail
    return uniform([TortureDie(detail["house"], detail["power"], face) for face in range(1, 11)])


def _apply_roll(state: GameState, action: Action) -> GameState:
    assert isinstance(action, TortureDie)
    data: dict[str, Any] = dict(node(state).detail)
    works = action.value <= data["strength"]
    state = with_events(state, event("after-battle-d10", f"{action.house} roll {action.value}: the torture "
                                     f"{'works' if works else 'fails'} (d10 ≤ {data['strength']}, {action.power}, "
                                     "K-17, D-23)", house=action.house, value=action.value, powers=(action.power,)))
    if not works or not _questions(state, data["house"], data["target"], data["power"]):
        return _resume(state, data)
    return dataclasses.replace(state, pending=pending(ASK, data["house"], **data))


def _questions(state: GameState, house: str, target: str, power: str) -> list[Action]:
    from dunenb.rules.truth_trance import AskTruthTrance, load_questions, subjects

    return [AskTruthTrance(house, target, question.id, subject, power) for question in load_questions()
            for subject in subjects(state, house, target, question)]


def _decisions(state: GameState) -> list[Action]:
    detail, house = node(state).detail, node(state).actor
    return [Pass(house), *_questions(state, house, detail["target"], detail["power"])]


def _check(state: GameState, action: Action) -> IllegalActionError | None:
    from dunenb.rules.truth_trance import AskTruthTrance, check_subject

    detail = node(state).detail
    if isinstance(action, Pass) and action.house == node(state).actor:
        return None
    if not isinstance(action, AskTruthTrance) or action.house != node(state).actor or \
            action.target != detail["target"] or action.means != detail["power"]:
        return IllegalActionError("torture/trance", f"{action.notation()!r}: {detail['power']} gives "
                                  f"{node(state).actor} one truth trance to put to {detail['target']} "
                                  f"(means {detail['power']}, leaders.md D-23), or a pass")
    return check_subject(state, action)


def _apply(state: GameState, action: Action) -> GameState:
    from dunenb.rules.truth_trance import AskTruthTrance, answer_with

    data: dict[str, Any] = dict(node(state).detail)
    if isinstance(action, AskTruthTrance):
        state = answer_with(state, action, f"the torture of {data['target']}'s leader ({action.means}, K-17)")
    return _resume(state, data)


def _resume(state: GameState, data: dict[str, Any]) -> GameState:
    from dunenb.rules.leader_after_battle import resume

    return resume(state, data["battle"], data["outcome"], tuple(data["queue"]))


def _accepts() -> tuple[type, ...]:
    from dunenb.rules.truth_trance import AskTruthTrance

    return (AskTruthTrance,)


HANDLERS = {
    ROLL: Handler(apply=_apply_roll, outcomes=_outcomes),
    ASK: Handler(apply=_apply, decisions=_decisions, check=_check, accepts=_accepts()),
}
