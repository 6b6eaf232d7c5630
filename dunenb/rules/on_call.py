"""The on-call effects of an always-traitor in a game (leaders.md K-21, D-32), from ``BattleOutcome.on_call``.

:func:`dunenb.battle.resolve.on_call_effects` decides which effects fire (the same code serves ``dunenb battle``);
this module only applies them to the game state:

* **spice** (EMPEROR-L11-a): the Bank pays the House at once (:func:`pay_spice`);
* **cards** (BG-L10-b): after TRAITOR-11 is settled (the caller's discard decision, D-32), the leader's House
  draws that many cards at random from the caller's hand, even if she died. **Each card drawn is a chance
  node** over the cards left in that hand (a card held twice is twice as likely). Then, if its hand is over its
  limit (HAND-1), the House discards down to it, one card at a time (a decision). The cards drawn stay secret:
  the events name no card.

The battle phase then goes on (:func:`dunenb.rules.battle_phase.continue_after_battle`). The same draws serve
the K-17 ``steal_random`` after-battle effect (:func:`dunenb.rules.leader_after_battle.card_draws`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from dunenb.actions import Action
from dunenb.battle.resolve import CallEffect
from dunenb.rules.common import Handler, edit_house, event, pending, with_events
from dunenb.shares import chance_share
from dunenb.state import GameState, evolve


@dataclass(frozen=True)
class OnCallDraw(Action):
    """BG-L10-b: ``house`` draws ``card`` at random from the hand of ``source`` (chance)."""

    kind: ClassVar[str] = "on-call-draw"
    is_chance: ClassVar[bool] = True
    house: str
    source: str
    card: str


@dataclass(frozen=True)
class OnCallDiscard(Action):
    """BG-L10-b: ``house``, over its hand limit after the draw, discards ``card``."""

    kind: ClassVar[str] = "on-call-discard"
    house: str
    card: str


def pay_spice(state: GameState, effects: tuple[CallEffect, ...]) -> GameState:
    """EMPEROR-L11-a and every other spice effect: the Bank pays at once."""
    for effect in effects:
        if effect.spice:
            hs = state.houses[effect.house]
            state = edit_house(state, effect.house, spice=hs.spice + effect.spice)
            state = evolve(state, bank=state.bank - effect.spice)
            state = with_events(state, event("on-call", f"The Bank pays {effect.house} {effect.spice} spice "
                                             f"({effect.power}, K-21)", house=effect.house, amount=effect.spice,
                                             power=effect.power, powers=(effect.power,)))
    return state


def card_draws(effects: tuple[CallEffect, ...]) -> tuple[tuple[str, str, str, int], ...]:
    """The card effects to play, as (power, house, source, count)."""
    return tuple((e.power, e.house, e.source, e.cards) for e in effects if e.cards and e.source)


def begin_draws(state: GameState, draws: tuple, ctx: dict[str, Any]) -> GameState:
    """Play the card draws (BG-L10-b) after TRAITOR-11, each followed by its discard down to the limit, then go
    on with the battle phase (``ctx`` is the battle phase's context)."""
    while draws:
        power, house, source, count = draws[0]
        if count > 0 and state.houses[source].hand and house not in state.eliminated:
            return evolve(state, pending=pending("on-call-draw", "chance", draws=draws, **ctx))
        draws = draws[1:]
        if _over_limit(state, house):
            return evolve(state, pending=pending("on-call-discard", house, draws=draws, **ctx))
    battle = ctx.get("battle")
    for house in getattr(battle, "last", ()):
        # houses.md G-7, EMPEROR-M1 note: a main leader's death lapses the power that raised the hand limit
        # (6 -> 4); his House discards down to it at once, choosing the cards (one decision per card)
        if house not in state.eliminated and _over_limit(state, house):
            return evolve(state, pending=pending("on-call-discard", house, draws=(), **ctx))
    from dunenb.rules.battle_phase import continue_after_battle

    return continue_after_battle(state, ctx)


def _over_limit(state: GameState, house: str) -> bool:
    from dunenb.rules.bidding import hand_limit

    return len(state.houses[house].hand) > hand_limit(state, house)


def _ctx(detail: Any) -> dict[str, Any]:
    return {key: value for key, value in detail.items() if key != "draws"}


def _draw_outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    assert state.pending is not None
    _power, house, source, _count = state.pending.detail["draws"][0]
    hand = Counter(state.houses[source].hand)
    total = sum(hand.values())
    return [(OnCallDraw(house, source, card), chance_share(count, total)) for card, count in sorted(hand.items())]


def _apply_draw(state: GameState, action: OnCallDraw) -> GameState:
    assert state.pending is not None
    detail = state.pending.detail
    power, house, source, count = detail["draws"][0]
    hand = list(state.houses[source].hand)
    hand.remove(action.card)
    state = edit_house(state, source, hand=tuple(hand))
    state = edit_house(state, house, hand=state.houses[house].hand + (action.card,))
    state = with_events(state, event("on-call-draw", f"{house} draws a card at random from the {source} hand "
                                     f"({power})", house=house, source=source, power=power, secret=True,
                                     powers=(power,)))
    return begin_draws(state, ((power, house, source, count - 1),) + tuple(detail["draws"][1:]), _ctx(detail))


def _discard_decisions(state: GameState) -> list[Action]:
    assert state.pending is not None
    house = state.pending.actor
    return [OnCallDiscard(house, card) for card in sorted(set(state.houses[house].hand))]


def _apply_discard(state: GameState, action: OnCallDiscard) -> GameState:
    assert state.pending is not None
    detail = state.pending.detail
    hand = list(state.houses[action.house].hand)
    hand.remove(action.card)
    state = edit_house(state, action.house, hand=tuple(hand))
    state = evolve(state, treachery_discard=state.treachery_discard + (action.card,))
    state = with_events(state, event("cards-discarded", f"{action.house} discards {action.card} down to its hand "
                                     "limit (HAND-1; BG-L10-b, or a lapsed main-leader power: G-7)",
                                     house=action.house, cards=(action.card,)))
    if _over_limit(state, action.house):
        return evolve(state, pending=pending("on-call-discard", action.house, **dict(detail)))
    return begin_draws(state, tuple(detail["draws"]), _ctx(detail))


HANDLERS = {
    "on-call-draw": Handler(apply=_apply_draw, outcomes=_draw_outcomes),
    "on-call-discard": Handler(apply=_apply_discard, decisions=_discard_decisions),
}
