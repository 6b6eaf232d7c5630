"""Troop-transport ornithopters for the turn (MOVE-6, MOVE-4b, HARVEST-6, HARVEST-7, GAP-21, GAP-50).

GAP-21: a House has ornithopters when it has at least one token in a city or a Sietch (or at the North Pole
while the Chance card for it is in force, CHANCE-5, GAP-20). They give the 3-territory move (MOVE-4b) and the
harvest rate of 3 spice a token (HARVEST-7).

GAP-50 (``data/decisions/GAP-50.json``): the answer is **fixed for the turn at the start of the House's
movement**, the moment it makes its territory move (after its landing: TURN-1 e "lands, then moves"), or, if it
makes none, when its slot ends. The movement phase stores it in ``GameState.ornithopters`` (House -> bool) and
the harvest of step j) reads it there, whatever the House's tokens did since (a move out of the city, a lost
battle). The store is emptied at the end of the turn (``dunenb.rules.collection``). A North Pole Chance card
drawn later in the turn (step h) still adds its ornithopters from then on: the card says "this turn".
A House whose movement has not started this turn (or a position built by hand) is judged on its tokens now.

>>> from dunenb.engine import new_game
>>> state = new_game(["atreides", "harkonnen"], seed=1)
>>> has_ornithopters(state, "atreides") == has_ornithopters_now(state, "atreides")
True
>>> fixed = fix_for_turn(state, "atreides")
>>> fixed.ornithopters["atreides"] == has_ornithopters_now(state, "atreides")
True
"""

from __future__ import annotations

from dunenb.rules.chance import has_pole_ornithopters
from dunenb.rules.common import rules
from dunenb.state import FrozenDict, GameState, evolve

SETTLEMENT_KINDS = ("city", "sietch")  # MOVE-6, HARVEST-6: "une ville, un Sietch"


def has_ornithopters_now(state: GameState, house: str) -> bool:
    """GAP-21, MOVE-6, HARVEST-6: the House has a token in a city or Sietch now, or the North Pole card with tokens
    at the Pole (CHANCE-5, GAP-20)."""
    if has_pole_ornithopters(state, house):
        return True
    board = rules().board
    return any(h == house and t.total > 0 and board.area(a).kind in SETTLEMENT_KINDS
               for (h, a, _s), t in state.forces.items())


def has_ornithopters(state: GameState, house: str) -> bool:
    """GAP-21, GAP-50: the House's ornithopters for this turn: as fixed at the start of its movement, plus a North
    Pole card drawn since; before its movement starts, as its tokens stand now."""
    fixed = state.ornithopters.get(house)
    if fixed is None:
        return has_ornithopters_now(state, house)
    return fixed or has_pole_ornithopters(state, house)


def fix_for_turn(state: GameState, house: str) -> GameState:
    """GAP-50: record the House's ornithopters at the start of its movement (once a turn: a later call keeps the
    first answer)."""
    if house in state.ornithopters:
        return state
    return evolve(state, ornithopters=state.ornithopters.set(house, has_ornithopters_now(state, house)))


def clear_for_turn(state: GameState) -> GameState:
    """GAP-50: the turn is over; next turn's movement fixes the ornithopters again."""
    if not state.ornithopters:
        return state
    return evolve(state, ornithopters=FrozenDict())
