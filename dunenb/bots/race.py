"""The victory race as a bot sees it on the board (issue 10: 6-House heuristic games ended on turn 1 or 2).

VICTORY-1 gives the game to a House owning the target number of cities and Sietchs at the end of a turn, and
VICTORY-3 / GAP-36a make the owner the only army left there (not at peace) after the battles. With six Houses
the target is 3 of the 6 settlements (data/victory.json), so a House can reach it on turn 1: the Fremen hold
Sietch Tarb, emerge for free into an empty Sietch (FREMEN-P4) and move into a city; the Bene Gesserit's free
advisors (BG-P2 b) sit in every settlement a House lands in, and own it once that House walks out. A bot that
only adds a small bonus for the leader's settlements lets that happen.

This module reads only the public board (where every army stands, which of them are at peace: BG-P2/P3,
HARKONNEN-M2) and says, for each settlement, what winning a battle there is worth to ``house`` because it
takes the settlement from a rival who would otherwise reach the target this turn (GAP-140).

>>> from dunenb.engine import new_game
>>> block_values(new_game(["atreides", "harkonnen"], seed=1), "atreides")
{}
"""

from __future__ import annotations

from dunenb.board import load_board
from dunenb.rules import collection
from dunenb.rules.collection import victory_target
from dunenb.state import GameState

#: GAP-140 (design, tuning): what taking one settlement from a House that would otherwise win this turn is worth,
#: in tokens (a settlement alone is worth about 7, heuristic.SETTLEMENT_VALUE): the game itself is at stake.
BLOCK_VALUE = 40.0


def claimants(state: GameState) -> dict[str, frozenset[str]]:
    """For each city and Sietch with an army in it, the Houses that may own it at the end of this turn: not
    eliminated, with tokens there that are not at peace (BG-P2/P3, HARKONNEN-M2; VICTORY-3, GAP-36a, read by
    :func:`dunenb.rules.collection.claimants`). A BG army not bound by BG-P2 counts: at step g) it may still
    declare war (BG-P3)."""
    found = {area.id: collection.claimants(state, area.id) for area in load_board().areas if area.is_settlement}
    return {area: houses for area, houses in found.items() if houses}


def reach(state: GameState) -> dict[str, int]:
    """How many settlements each House may own at the end of this turn if it wins every battle it is in: those
    it holds alone and those it contests (:func:`claimants`)."""
    return _reach(claimants(state))


def _reach(found: dict[str, frozenset[str]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for houses in found.values():
        for house in houses:
            counts[house] = counts.get(house, 0) + 1
    return counts


def block_values(state: GameState, house: str) -> dict[str, float]:
    """GAP-140: for each settlement where a rival of ``house`` stands that may reach the victory target this turn
    (its :func:`reach` is at least :func:`dunenb.rules.collection.victory_target`), what winning it from that rival
    is worth: ``BLOCK_VALUE``, shared out when the rival is above the target (one block alone does not stop it).
    Only the public board is read (forces, peace, eliminations), as any player sees it."""
    target = victory_target(state.config)
    found = claimants(state)  # issue 14 item 4: read once, for reach() and the loop (it was read twice)
    counts = _reach(found)
    values: dict[str, float] = {}
    for area, houses in found.items():
        for rival in houses - {house}:
            margin = counts[rival] - target
            if margin >= 0:
                values[area] = max(values.get(area, 0.0), BLOCK_VALUE / (1 + margin))
    return values
