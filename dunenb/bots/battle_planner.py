"""Battle plans for the heuristic bot, chosen with the exact battle analyzer (:mod:`dunenb.battle.resolve`).

The opponent's wheel is hidden, so each candidate plan is scored against a *guessed* opposing plan: its
strongest available leader with every token dialled and as much spice as it can give, no cards (their hand is
hidden). The score is the exact probability of winning, minus the expected tokens and spice the plan costs.
Traitors the bot holds count (it will call them, TRAITOR-8).
"""

from __future__ import annotations

from fractions import Fraction

from dunenb.actions import Action
from dunenb.battle.plans import Battle, BattlePlan, BattleSide
from dunenb.battle.resolve import resolve_battle
from dunenb.battle.wheel import Dial
from dunenb.battle.wheel import Tokens as WheelTokens
from dunenb.state import GameState

NONE = "none"
TOKEN_COST = Fraction(1, 4)  # one token lost is worth a quarter of a battle won (design, tuning)
SPICE_COST = Fraction(1, 5)


def _wheel(house: str, plan: Action):
    from dunenb.rules.traitors import leader_of

    leader = None if plan.leader == NONE else leader_of(house, plan.leader)
    return BattlePlan(Dial(plan.regular, plan.marked, plan.spice), leader,
                      None if plan.weapon == NONE else plan.weapon, None if plan.defense == NONE else plan.defense)


def _guess_opponent(state: GameState, opponent: str, detail) -> BattlePlan:
    from dunenb.rules.battle_phase import arena_tokens, available_leaders
    from dunenb.rules.traitors import leader_of

    tokens = arena_tokens(state, opponent, detail["area"], detail["sectors"])
    leaders = [leader_of(opponent, lid) for lid in available_leaders(state, opponent, detail["area"],
                                                                      detail["committed"])]
    leader = max(leaders, key=lambda leader: leader.strength) if leaders else None
    spice = min(state.houses[opponent].spice, tokens.total)
    return BattlePlan(Dial(tokens.regular, tokens.marked, spice), leader)


def plan_scores(state: GameState, plans: list[Action]) -> list[float]:
    """Score each candidate ``plan`` action of the House to act (exact P(win) minus expected costs)."""
    from dunenb.rules.battle_phase import arena_tokens

    detail = state.pending.detail
    house = state.pending.actor
    opponent = detail["attacker"] if house == detail["defender"] else detail["defender"]
    mine = arena_tokens(state, house, detail["area"], detail["sectors"])
    theirs = arena_tokens(state, opponent, detail["area"], detail["sectors"])
    guess = _guess_opponent(state, opponent, detail)
    traitors = frozenset(lid for owner, lid in state.houses[house].traitors if owner == opponent)
    scores = []
    for plan in plans:
        sides = {
            house: BattleSide(house, WheelTokens(mine.regular, mine.marked), _wheel(house, plan), traitors=traitors),
            opponent: BattleSide(opponent, WheelTokens(theirs.regular, theirs.marked), guess),
        }
        battle = Battle(detail["area"], detail["defender"], (sides[detail["defender"]], sides[detail["attacker"]]))
        try:
            distribution = resolve_battle(battle)
        except Exception:  # a plan the library rejects is never chosen
            scores.append(float("-inf"))
            continue
        value = Fraction(0)
        for probability, outcome in distribution:
            side = outcome.side(house)
            won = Fraction(1) if outcome.winner == house else Fraction(0)
            value += probability * (won - TOKEN_COST * side.tokens_lost.total - SPICE_COST * side.spice_lost)
        scores.append(float(value))
    return scores
