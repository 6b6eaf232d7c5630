"""Who is ahead at the end of a bot game, for measuring bots against each other (benchmarks, tests).

>>> from dunenb.engine import new_game
>>> standing_leader(new_game(["atreides", "harkonnen"], seed=1))
'atreides'
"""

from __future__ import annotations

from dunenb.rules.collection import owned_settlements
from dunenb.state import GameState


def standing_leader(state: GameState) -> str:
    """The winner, or else the House still in the game owning the most cities and Sietchs (GAP-36a), then
    holding the most spice, then first in the table's order."""
    if state.winner is not None:
        return state.winner
    owned = owned_settlements(state)
    houses = state.config.houses
    active = [h for h in houses if h not in state.eliminated] or list(houses)
    return max(active, key=lambda h: (len(owned.get(h, ())), state.houses[h].spice, -houses.index(h)))
