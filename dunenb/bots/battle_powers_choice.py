"""The heuristic bot's choices for the battle-step powers (issue 10 item 7, :mod:`dunenb.rules.battle_powers`).

* **Buy-off** (HARKONNEN-M2): both plans are revealed when it is offered, so the bot resolves the battle exactly
  (:func:`dunenb.battle.resolve.resolve_battle`) and pays when it would more likely lose than win, or when its
  main leader risks death (his death eliminates the House, VICTORY-2), if the price leaves the spice it keeps back.
* **Capture** (HARKONNEN-P4): kill the captive for 2 spice (the loser loses him until a ghola) unless he is a main
  leader (who may only be kept) or the bot is short of leaders of its own and he is strong.
* **A new traitor** (HARKONNEN-M1): give up only a slip on a leader who is dead; keep the stronger leader drawn.

Every score is read from the House's own view (:func:`dunenb.engine.view`): the revealed plans, its own slips and
what the table sees.
"""

from __future__ import annotations

from dunenb.actions import Action
from dunenb.state import GameState

#: Below this chance of winning, a bought-off battle is worth its price (design).
BUY_OFF_BELOW = 0.5
#: A main leader's risk of death above which the buy-off is always worth it (design).
MAIN_LEADER_RISK = 0.2
#: The bot keeps a captive (rather than killing him) when it has fewer own leaders alive than this (design)...
FEW_OWN_LEADERS = 4
#: ... and the captive is at least this strong (design).
STRONG_CAPTIVE = 5
KINDS = ("buy-off", "captive", "traitor-discard", "new-traitor-keep")


def score(state: GameState, house: str, action: Action) -> float | None:
    """The bot's score of a battle-power decision (``None``: not one of them; a pass scores 0)."""
    kind = action.kind
    if kind == "buy-off":
        return _score_buy_off(state, house, action)
    if kind == "captive":
        return _score_captive(state, house, action)
    if kind == "traitor-discard":
        return _score_discard(state, action)
    if kind == "new-traitor-keep":
        from dunenb.rules.traitors import leader_of

        return float(leader_of(action.leader_house, action.leader).strength)  # type: ignore[attr-defined]
    return None


def _score_buy_off(state: GameState, house: str, action: Action) -> float:
    from dunenb.battle.resolve import resolve_battle
    from dunenb.rules.battle_context import context_of
    from dunenb.rules.battle_phase import battle_of

    ctx = context_of(state)
    distribution = resolve_battle(battle_of(state, ctx))
    win = float(sum(p for p, outcome in distribution if outcome.winner == house))
    dies = float(sum(p for p, outcome in distribution if outcome.side(house).leader_fate == "dead"))
    price = action.price  # type: ignore[attr-defined]
    if state.houses[house].spice - price < 0:
        return -1.0
    return 1.0 if win < BUY_OFF_BELOW or dies > MAIN_LEADER_RISK else -1.0


def _score_captive(state: GameState, house: str, action: Action) -> float:
    from dunenb.rules.traitors import LEADER_KEY_SEPARATOR, leader_of

    captive = leader_of(action.owner, action.leader)  # type: ignore[attr-defined]
    own = [key for key in state.houses[house].leaders if LEADER_KEY_SEPARATOR not in key]
    keep = len(own) < FEW_OWN_LEADERS and captive.strength >= STRONG_CAPTIVE
    wants = "keep" if keep else "kill"
    return 1.0 if action.choice == wants else 0.5  # type: ignore[attr-defined]


def _score_discard(state: GameState, action: Action) -> float:
    from dunenb.rules.traitors import leader_key

    owner, leader = action.leader_house, action.leader  # type: ignore[attr-defined]
    alive = any(leader_key(house, owner, leader) in hs.leaders for house, hs in state.houses.items())
    return -1.0 if alive else 1.0
