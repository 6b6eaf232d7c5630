"""House standings of a position or a game line, as pandas DataFrames (pure: no widgets, no state changes).

Ownership follows GAP-36a (see :mod:`dunenb.rules.collection`): a House owns a city or Sietch when it is the
only House still in the game with tokens there that are not at peace.

>>> from dunenb.engine import new_game
>>> state = new_game(["atreides", "harkonnen"], seed=1)
>>> cities_owned(state)
{'atreides': [], 'harkonnen': []}
>>> house_table(state).iloc[0][["house", "spice", "reserve", "harvesters"]].to_dict()
{'house': 'atreides', 'spice': 10, 'reserve': 20, 'harvesters': 1}
"""

from __future__ import annotations

import pandas as pd

from dunenb.record import GameRecord
from dunenb.rules.collection import owned_settlements
from dunenb.state import GameState

HOUSE_COLUMNS = [
    "house", "spice", "on_dune", "reserve", "tanks", "leaders_alive", "leaders_dead", "cards", "harvesters",
    "harvesters_committed", "cities_owned", "owned", "eliminated", "deals",
]
LINE_COLUMNS = ["turn", "house", "spice", "cities_owned", "owned", "tokens_on_dune"]


def cities_owned(state: GameState) -> dict[str, list[str]]:
    """The cities and Sietchs each House owns now (GAP-36a), every House of the table included.

    >>> from dunenb.engine import new_game
    >>> cities_owned(new_game(["guild", "fremen"], seed=2))
    {'guild': [], 'fremen': []}
    """
    owned = owned_settlements(state)
    return {house: list(owned.get(house, ())) for house in state.config.houses}


def alliance_terms(state: GameState, house: str) -> str:
    """The alliance terms running for ``house``, in words (all public, ALLIANCE-6): tokens traded (GAP-19),
    powers lent or borrowed (ALLIANCE-12), goods due on a later turn (ALLIANCE-8); ``""`` if none.

    >>> from dunenb.engine import new_game
    >>> alliance_terms(new_game(["atreides", "fremen"], seed=1), "atreides")
    ''
    """
    parts = []
    traded = state.tokens_traded.get(house, 0)
    if traded:
        parts.append(f"{traded:+d} tokens traded")
    for lend in state.lent_powers:
        if lend.borrower == house:
            parts.append(f"holds {lend.power} of {lend.owner} to turn {lend.last_turn}")
        elif lend.owner == house:
            parts.append(f"lent {lend.power} to {lend.borrower} to turn {lend.last_turn}")
    for term in state.deferred_terms:
        goods = f"{term.amount} {term.what}" if term.what in ("spice", "token") else f"{term.what} {term.item}"
        if term.giver == house:
            parts.append(f"owes {term.receiver} {goods} on turn {term.due_turn}")
        elif term.receiver == house:
            parts.append(f"due {goods} from {term.giver} on turn {term.due_turn}")
    return "; ".join(parts)


def house_table(state: GameState) -> pd.DataFrame:
    """One row per House: spice; tokens on Dune, in reserve and in the tanks; leaders alive and dead; cards
    held (a count, so that a House view hides nothing more); harvesters uncommitted and committed; the cities
    and Sietchs it owns (count and ids); whether it is eliminated; its running alliance terms
    (:func:`alliance_terms`)."""
    owned = cities_owned(state)
    rows = []
    for house in state.config.houses:
        hs = state.houses[house]
        on_dune = sum(t.total for (h, _a, _s), t in state.forces.items() if h == house)
        committed = sum(n for (h, _a, _s), n in state.committed_harvesters.items() if h == house)
        rows.append({
            "house": house, "spice": hs.spice, "on_dune": on_dune, "reserve": hs.reserve.total,
            "tanks": hs.tanks.total, "leaders_alive": len(hs.leaders), "leaders_dead": len(hs.leader_tanks),
            "cards": len(hs.hand), "harvesters": hs.harvesters, "harvesters_committed": committed,
            "cities_owned": len(owned[house]), "owned": ", ".join(owned[house]),
            "eliminated": house in state.eliminated, "deals": alliance_terms(state, house),
        })
    return pd.DataFrame(rows, columns=HOUSE_COLUMNS)


def line_table(record: GameRecord, node: int) -> pd.DataFrame:
    """One row per House at each turn end on the line to ``node``: turn, house, spice, cities and Sietchs
    owned (count and ids) and tokens on Dune, read from the ``turn-end`` events of step j) (so the figures
    are those after harvest and taxes, before the next storm)."""
    rows = []
    for step in record.path(node):
        for event in record.state_at(step).events:
            if event.kind != "turn-end":
                continue
            for house, spice, owned, on_dune in event.data["standings"]:
                rows.append({
                    "turn": event.data["turn"], "house": house, "spice": spice, "cities_owned": len(owned),
                    "owned": ", ".join(owned), "tokens_on_dune": on_dune,
                })
    return pd.DataFrame(rows, columns=LINE_COLUMNS)
