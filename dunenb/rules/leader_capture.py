"""leaders.md K-17 ``capture`` in a game (BG-L03-b Lucille: ``win+alive``, then d10 > base strength; D-28).

"En cas de victoire de Lucille en combat, et si celle-ci est toujours en vie, Lucille peut capturer son ennemi si
c'est un mâle. Cela dure jusqu'à la fin du jeu (tant que Lucille est vivante) ou jusqu'à la mort du prisonnier.
Pour que la capture réussisse, le D 10 doit dépasser la force brute du combattant." (L793). At B10, among the
after-battle effects (:mod:`dunenb.rules.leader_after_battle`):

* the target is the opposing leader of that battle (D-28): male, alive, not a main leader (nor a successor in his
  main leader's place, GAP-88), not already a captive, of another House than Lucille's;
* "peut capturer": a decision of Lucille's House first, pass or try (:class:`TryCapture`); on a try, a public d10
  (LC-1, a chance node): the capture succeeds on a face above his base strength;
* captured, he is kept as HARKONNEN-P4 keeps a captive (:mod:`dunenb.rules.battle_powers`): under the key
  ``"owner:id"`` among the BG's leaders and in ``GameState.captured``; the BG may play him in their battles as a
  foreign leader, with his traits only (LC-9, D-14); if he dies there he goes to his own House's tanks; his own
  House may call treachery on him (TRAITOR-13, GAP-35c, "BG" read for "Harkonnen"). KARAMA-47, L1167 (home
  after one battle) and FAQ 21 are the Harkonnen's and do not apply (D-28: ``keeper_captives``);
* he goes home at once when Lucille dies (:func:`release_freed`, called once a battle's deaths are settled and
  before each next battle), and, as HARKONNEN-P4's captives do, when his captor's House is out of the game.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from dunenb.actions import Action, Pass, PowerDie
from dunenb.battle.captors import captors
from dunenb.battle.resolve import BattleOutcome, SideOutcome
from dunenb.battle.roster import Power
from dunenb.rules.battle_context import BattleContext
from dunenb.rules.common import Handler, edit_house, event, node, pending, uniform, with_events
from dunenb.rules.traitors import holder_of, leader_key, leader_of
from dunenb.state import GameState

ROLL = "capture-d10"
TRY = "capture-try"


@dataclass(frozen=True)
class CaptureDie(PowerDie):
    """The d10 of BG-L03-b (LC-1: public): the capture succeeds on a face above ``owner``'s ``leader``'s base
    strength."""

    kind: ClassVar[str] = ROLL


@dataclass(frozen=True)
class TryCapture(Action):
    """K-17 capture (BG-L03-b): ``house`` tries to capture ``owner``'s leader ``leader`` (``Pass``: it does not)."""

    kind: ClassVar[str] = TRY
    house: str
    power: str
    owner: str
    leader: str


def target(state: GameState, side: SideOutcome, outcome: BattleOutcome) -> tuple[str, str] | None:
    """D-28: the (owner, id) of the opposing leader Lucille may capture, or ``None``."""
    from dunenb.powers.holders import is_acting_main

    enemy = next(other for other in outcome.sides if other is not side)
    if enemy.leader is None or enemy.leader_owner is None or enemy.leader_fate != "alive":
        return None
    owner, lid = enemy.leader_owner, enemy.leader
    leader = leader_of(owner, lid)
    source = next((c for c in captors(side.house) if c.leader is not None), None)  # K-17 capture (GAP-145)
    if source is None or source.refusal(leader) is not None or (owner, lid) in state.captured:
        return None
    if owner in state.eliminated or is_acting_main(state, owner, lid) or holder_of(state, owner, lid) is None:
        return None
    return owner, lid


def begin(state: GameState, ctx: BattleContext, outcome: BattleOutcome, queue: tuple, side: SideOutcome,
          power: Power) -> GameState | None:
    """Start ``power``'s capture: the choice to try; ``None`` when the opposing leader may not be captured
    (D-28)."""
    person = target(state, side, outcome)
    if person is None:
        return None
    return dataclasses.replace(state, pending=pending(TRY, side.house, battle=ctx, outcome=outcome, queue=queue,
                                                      power=power.id, house=side.house, owner=person[0],
                                                      leader=person[1]))


def _try_decisions(state: GameState) -> list[Action]:
    detail = node(state).detail
    house = node(state).actor
    return [Pass(house), TryCapture(house, detail["power"], detail["owner"], detail["leader"])]


def _apply_try(state: GameState, action: Action) -> GameState:
    from dunenb.rules.leader_after_battle import resume

    data: dict[str, Any] = dict(node(state).detail)
    if not isinstance(action, TryCapture):
        return resume(state, data["battle"], data["outcome"], tuple(data["queue"]))
    return dataclasses.replace(state, pending=pending(ROLL, "chance", **data))


def _outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    detail = node(state).detail
    return uniform([CaptureDie(detail["house"], detail["power"], face) for face in range(1, 11)])


def _apply_roll(state: GameState, action: Action) -> GameState:
    from dunenb.rules.leader_after_battle import resume

    assert isinstance(action, CaptureDie)
    data: dict[str, Any] = dict(node(state).detail)
    owner, lid = data["owner"], data["leader"]
    strength = leader_of(owner, lid).strength
    works = action.value > strength
    state = with_events(state, event("after-battle-d10", f"{action.house} roll {action.value}: the capture of {lid} "
                                     f"{'succeeds' if works else 'fails'} (d10 > {strength}, {action.power}, K-17, "
                                     "D-28)", house=action.house, value=action.value, powers=(action.power,)))
    if works:
        state = capture(state, action.house, owner, lid, action.power)
    return resume(state, data["battle"], data["outcome"], tuple(data["queue"]))


def capture(state: GameState, house: str, owner: str, lid: str, power: str) -> GameState:
    """``house`` takes ``owner``'s leader ``lid`` captive (kept as HARKONNEN-P4 keeps one, D-28)."""
    found = holder_of(state, owner, lid)
    assert found is not None
    holder, key = found
    state = edit_house(state, holder, leaders=tuple(x for x in state.houses[holder].leaders if x != key))
    state = edit_house(state, house, leaders=state.houses[house].leaders + (leader_key(house, owner, lid),))
    state = dataclasses.replace(state, captured=state.captured + ((owner, lid),))
    return with_events(state, event("leader-captured", f"{house} capture {lid} of {owner} ({power}, K-17, D-28)",
                                    house=house, owner=owner, leader=lid, powers=(power,)))


def _capture_leaders(house: str) -> tuple[tuple[str, str], ...]:
    """(leader id, power ID) of ``house``'s own leaders with a K-17 ``capture`` entry (:mod:`dunenb.battle.captors`)."""
    return tuple((c.leader, c.power) for c in captors(house) if c.leader is not None)


def release_freed(state: GameState) -> GameState:
    """D-28: every captive of a House whose capturing leader (Lucille) is dead goes home at once, and so do they
    all when that House is out of the game. HARKONNEN-P4's captives are left alone."""
    from dunenb.powers import is_in_play
    from dunenb.rules.battle_powers import keeper_captives, keeper_of, release

    if not state.captured:
        return state
    theirs = keeper_captives(state)
    for person in state.captured:
        if person in theirs:
            continue
        keeper = keeper_of(state, person)
        captors = _capture_leaders(keeper)
        alive = [power for lid, power in captors if lid in state.houses[keeper].leaders
                 or (keeper, lid) in state.captured]
        if alive and is_in_play(state, keeper):
            continue
        power = captors[0][1] if captors else ""
        why = "his captor is out of the game" if alive else "the leader who captured him is dead (D-28)"
        state = release(state, *person, why=why, power=power)
    return state


HANDLERS = {
    TRY: Handler(apply=_apply_try, decisions=_try_decisions),
    ROLL: Handler(apply=_apply_roll, outcomes=_outcomes),
}
