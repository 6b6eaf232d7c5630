"""Spice and storm tables of a position or a game line, as pandas DataFrames.

>>> from dunenb.engine import new_game
>>> spice_table(new_game(["atreides", "harkonnen"], seed=1)).columns.tolist()
['territory', 'sectors', 'spice_sector', 'spice', 'under_storm']
"""

from __future__ import annotations

import pandas as pd

from dunenb.board import load_board
from dunenb.record import GameRecord
from dunenb.state import GameState


def spice_table(state: GameState, *, only_with_spice: bool = False) -> pd.DataFrame:
    """One row per spice desert: its sectors, diamond sector, spice now, and whether a storm covers the diamond."""
    storms = set(state.storm_sectors())
    rows = []
    for area in load_board().deserts():
        amount = state.spice_on_map.get(area.id, 0)
        if only_with_spice and not amount:
            continue
        rows.append({
            "territory": area.name, "sectors": "-".join(str(s) for s in (area.sectors[0], area.sectors[-1]))
            if len(area.sectors) > 1 else str(area.sectors[0]),
            "spice_sector": area.spice_sector, "spice": amount, "under_storm": area.spice_sector in storms,
        })
    frame = pd.DataFrame(rows, columns=["territory", "sectors", "spice_sector", "spice", "under_storm"])
    return frame.sort_values(["spice", "territory"], ascending=[False, True]).reset_index(drop=True)


def storm_history(record: GameRecord, node: int) -> pd.DataFrame:
    """Every storm move on the line to ``node``: turn, storm, from, moves, to, sectors crossed."""
    rows = []
    for step in record.path(node):
        state = record.state_at(step)
        for event in state.events:
            if event.kind in ("storm-moved", "storm-placed"):
                rows.append({
                    "turn": state.turn, "storm": event.data["storm"], "from": event.data["origin"],
                    "moves": event.data["moves"], "to": event.data["sector"],
                    "crossed": ", ".join(str(s) for s in event.data["path"]) or "(setup dial)",
                })
    return pd.DataFrame(rows, columns=["turn", "storm", "from", "moves", "to", "crossed"])
