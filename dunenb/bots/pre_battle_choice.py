"""The heuristic bot's Voice (BG-P1) and prescience (ATREIDES-P1) choices, from its own view only (houses.md G-9).

Simple and explainable (design, issue 10 item 7):

* **Voice**: forbid the attack kind its own hand cannot defend against (poison without a snooper, a projectile
  without a shield), the poison first; with both defences it forbids the lasgun (no defence stops it). It never
  forces (forcing a kind the opponent may not hold tells nothing and binds nothing, L753).
* **Prescience**: it asks for the opposing attack when it holds a defence card (the answer picks the right one),
  else for the opposing defence (the answer picks the weapon that gets through).

* **Answer** (GAP-78): it answers the most useful kind of the slot asked among those it may answer: a shield,
  then a snooper; a projectile, then a poison, then the lasgun (which explodes on a shield); atomics last (its
  user is outlawed, CARD-ATOMICS-4); "none" before atomics.

* **Leader disclosures** (BG-M2): it does not use Mohiam's power (she would have to fight); made to commit a
  leader first, it commits its strongest leader who is not its main leader.

All depend only on the bot's own hand, which its view shows: nothing it cannot know shapes the choice.
"""

from __future__ import annotations

from dunenb.actions import Action
from dunenb.battle.cards import DEFENCES, WEAPONS, card_kind
from dunenb.rules.battle_context import context_of
from dunenb.rules.pre_battle import discloses
from dunenb.rules.traitors import leader_of
from dunenb.state import GameState


def _kinds(state: GameState, house: str) -> set[str]:
    """The kinds of the battle cards in ``house``'s own hand."""
    return {card_kind(card) for card in state.houses[house].hand if card in WEAPONS or card in DEFENCES}


def voice_target_kind(state: GameState, house: str) -> str:
    """The attack kind the bot forbids with the Voice (module docstring)."""
    kinds = _kinds(state, house)
    if "snooper" not in kinds:
        return "poison"
    if "shield" not in kinds:
        return "projectile"
    return "lasgun"


def score_voice(state: GameState, house: str, action: Action) -> float:
    """BG-P1: 1 for the forbid of :func:`voice_target_kind`, 0 for the other commands, 0.5 for the pass. A Voice
    that discloses the main leader (ATREIDES-M2, GAP-79: Paul must then lead, and his death eliminates the
    House, VICTORY-2) is passed."""
    seq = context_of(state).sequence
    if seq is not None and seq.actor is not None and discloses(seq.actor[1]):
        return 1.0 if action.kind == "pass" else 0.0
    if action.kind == "pass":
        return 0.5
    wanted = voice_target_kind(state, house)
    return 1.0 if (getattr(action, "mode", "") == "forbid" and getattr(action, "card_kind", "") == wanted) else 0.0


def score_prescience(state: GameState, house: str, action: Action) -> float:
    """ATREIDES-P1: ask about the slot whose answer the bot can use (module docstring); the pass last."""
    if action.kind == "pass":
        return 0.0
    holds_defence = bool(_kinds(state, house) & {"snooper", "shield"})
    wanted = "attack" if holds_defence else "defence"
    return 1.0 if getattr(action, "slot", "") == wanted else 0.5


#: GAP-78: the bot's preference among the kinds it may answer (higher first; module docstring).
ANSWER_PREFERENCE = {"shield": 5, "snooper": 4, "projectile": 5, "poison": 4, "lasgun": 3, "none": 1, "atomics": 0}


def score_answer(state: GameState, house: str, action: Action) -> float:
    """ATREIDES-P1, GUILD-M2: the answer to a prescience question (:data:`ANSWER_PREFERENCE`)."""
    return float(ANSWER_PREFERENCE.get(getattr(action, "answer", "none"), 0))


def score_disclose(state: GameState, house: str, action: Action) -> float:
    """BG-M2: the bot passes (using the power would bind its main leader to fight, GAP-79; his death eliminates
    the House, VICTORY-2)."""
    return 1.0 if action.kind == "pass" else 0.0


def score_commit(state: GameState, house: str, action: Action) -> float:
    """BG-M2: the leader it commits first: its strongest leader who is not its main leader (design)."""
    leader = leader_of(house, getattr(action, "leader", ""))
    return float(leader.strength) - (100.0 if leader.main else 0.0)
