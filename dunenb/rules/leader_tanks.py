"""leaders.md K-17 ``destroy_tanks`` in a game (TLEILAX-L03-d Mirlat ``1d3``, TLEILAX-L04-d Domel ``1``).

Trigger ``self_dies``: when Mirlat (Domel) dies in battle, his House "a le droit de détruire à jamais" up to 1d3
(1) of the enemy's tokens in the Axolotl tanks (L915, L925). Played at B10 among the after-battle effects
(:mod:`dunenb.rules.leader_after_battle`), the winner's side first:

* ``1d3``: a public chance node first (faces 1..3, 1/3 each; LC-1), then the choice;
* the choice is a decision node of the leader's House: how many unmarked and marked tokens of the enemy's tanks
  to destroy, at most the number rolled (the pass destroys none: "le droit", a may). A menu with the pass only
  (the enemy's tanks are empty) is not asked, and no die is rolled then.

The tokens leave the tanks for good: they are no longer among the enemy's 20 (``GameState.tokens_destroyed``,
read by :meth:`dunenb.state.GameState.token_quota`).

GAP-130: the tokens are those of the House that fought him in that battle ("l'ennemi qui a vaincu Mirlat"; the
spec's "winner's tokens"), whether it won or not (after an explosion, or when his own side won on his tokens
although he died, there is no enemy winner, and the enemy of the battle is read); the House that played him
chooses the mix, marked tokens included.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from dunenb.actions import Action, Pass, PowerDie
from dunenb.battle.leader_after import action_of
from dunenb.battle.resolve import BattleOutcome, SideOutcome
from dunenb.battle.roster import Power
from dunenb.errors import IllegalActionError
from dunenb.rules.battle_context import BattleContext
from dunenb.rules.common import Handler, edit_house, event, menu_error, node, pending, uniform, with_events
from dunenb.state import GameState, Tokens

ROLL = "after-battle-d3"
CHOOSE = "after-battle-destroy"
D3 = (1, 2, 3)


@dataclass(frozen=True)
class TanksDie(PowerDie):
    """The 1d3 of TLEILAX-L03-d (LC-1: public): how many enemy tokens ``house`` may destroy in the tanks."""

    kind: ClassVar[str] = ROLL


@dataclass(frozen=True)
class DestroyTanks(Action):
    """K-17 destroy_tanks: ``house`` destroys for good ``regular`` unmarked and ``marked`` marked tokens of
    ``target``'s tanks (``power``: TLEILAX-L03-d or -L04-d; ``Pass`` destroys none)."""

    kind: ClassVar[str] = CHOOSE
    house: str
    power: str
    target: str
    regular: int
    marked: int


def begin(state: GameState, ctx: BattleContext, outcome: BattleOutcome, queue: tuple, side: SideOutcome,
          power: Power) -> GameState | None:
    """Start ``power``'s destroy_tanks for ``side``: the 1d3, or the choice; ``None`` when the enemy's tanks are
    empty or the enemy is out of the game (nothing to do)."""
    target = ctx.opponent(side.house)  # GAP-130: the enemy of this battle
    if target not in state.houses or target in state.eliminated or state.houses[target].tanks.is_empty():
        return None
    data: dict[str, Any] = {"battle": ctx, "outcome": outcome, "queue": queue, "power": power.id,
                            "house": side.house, "target": target}
    amount = action_of(power)[1][0]
    if amount == "1d3":
        return dataclasses.replace(state, pending=pending(ROLL, "chance", **data))
    return _ask(state, {**data, "most": int(amount)})


def _ask(state: GameState, data: dict[str, Any]) -> GameState:
    return dataclasses.replace(state, pending=pending(CHOOSE, data["house"], **data))


def _outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    detail = node(state).detail
    return uniform([TanksDie(detail["house"], detail["power"], face) for face in D3])


def _apply_roll(state: GameState, action: Action) -> GameState:
    assert isinstance(action, TanksDie)
    data = dict(node(state).detail)
    state = with_events(state, event("after-battle-d3", f"{action.house} roll {action.value} on the d3: up to "
                                     f"{action.value} of the {data['target']}'s tokens in the tanks may be destroyed "
                                     f"({action.power}, K-17, LC-1)", house=action.house, value=action.value,
                                     powers=(action.power,)))
    return _ask(state, {**data, "most": action.value})


def _decisions(state: GameState) -> list[Action]:
    detail = node(state).detail
    house, target, most = node(state).actor, detail["target"], detail["most"]
    tanks = state.houses[target].tanks
    return [Pass(house), *(DestroyTanks(house, detail["power"], target, regular, marked)
                           for marked in range(min(most, tanks.marked) + 1)
                           for regular in range(min(most - marked, tanks.regular) + 1) if regular or marked)]


def _check(state: GameState, action: Action) -> IllegalActionError | None:
    detail = node(state).detail
    return menu_error(action, _decisions(state), "after-battle/destroy",
                      f"of {detail['power']} now (leaders.md K-17 destroy_tanks: at most {detail['most']} token(s) "
                      "of the enemy's tanks)")


def _apply(state: GameState, action: Action) -> GameState:
    from dunenb.rules.leader_after_battle import resume

    detail = node(state).detail
    if isinstance(action, DestroyTanks):
        state = destroy(state, action.target, Tokens(action.regular, action.marked), action.power)
    return resume(state, detail["battle"], detail["outcome"], tuple(detail["queue"]))


def destroy(state: GameState, house: str, tokens: Tokens, power: str) -> GameState:
    """Take ``tokens`` out of ``house``'s tanks for good (K-17 destroy_tanks)."""
    gone = state.tokens_destroyed.get(house, Tokens())
    state = edit_house(state, house, tanks=state.houses[house].tanks - tokens)
    state = dataclasses.replace(state, tokens_destroyed=state.tokens_destroyed.set(house, gone + tokens))
    return with_events(state, event("tokens-destroyed", f"{tokens.total} of the {house}'s tokens in the tanks are "
                                    f"destroyed for good ({power}, K-17)", house=house, count=tokens.total,
                                    marked=tokens.marked, powers=(power,)))


HANDLERS = {
    ROLL: Handler(apply=_apply_roll, outcomes=_outcomes),
    CHOOSE: Handler(apply=_apply, decisions=_decisions, check=_check, accepts=(DestroyTanks,)),
}
