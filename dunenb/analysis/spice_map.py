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


def spice_through_game(record: GameRecord, node: int) -> pd.DataFrame:
    """Spice on the map at the end of each turn along the line to ``node``: territories × turns (a heatmap).

    Rows are the spice deserts (display names), columns the turns; a cell is the spice there as the turn ended.
    """
    at_turn_end: dict[int, dict[str, int]] = {}
    for step in [record.root, *record.path(node)]:
        state = record.state_at(step)
        at_turn_end[state.turn] = dict(state.spice_on_map)
    names = {area.id: area.name for area in load_board().deserts()}
    frame = pd.DataFrame(
        {turn: {names[a]: spice.get(a, 0) for a in names} for turn, spice in sorted(at_turn_end.items())}
    )
    frame.index.name = "territory"
    frame.columns.name = "turn"
    return frame


def blow_events(record: GameRecord, node: int) -> pd.DataFrame:
    """Every spice-blow event on the line: turn, kind (spice placed, blown away, worm), territory, amount."""
    rows = []
    names = {area.id: area.name for area in load_board().areas}
    for step in record.path(node):
        state = record.state_at(step)
        for event in state.events:
            if event.kind in ("spice-placed", "spice-blown-away", "worm"):
                area = event.data.get("area")
                territory = names.get(area, "-") if area is not None else "-"
                rows.append({"turn": state.turn, "kind": event.kind, "territory": territory,
                             "amount": event.data.get("amount", 0)})
    return pd.DataFrame(rows, columns=["turn", "kind", "territory", "amount"])


def blow_statistics(lines: list[tuple[GameRecord, int]]) -> pd.DataFrame:
    """Over many games: per territory, how often it blew, the spice it received, and how often a worm struck it."""
    frames = [blow_events(record, node).assign(game=index) for index, (record, node) in enumerate(lines)]
    columns = ["turn", "kind", "territory", "amount", "game"]
    events = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=columns)
    games = max(1, len(lines))
    placed = events[events["kind"] == "spice-placed"].groupby("territory")["amount"].agg(["count", "sum"])
    worms = events[events["kind"] == "worm"].groupby("territory").size()
    table = pd.DataFrame({"territory": [a.name for a in load_board().deserts()]}).set_index("territory")
    table["blows_per_game"] = placed["count"].reindex(table.index).fillna(0) / games
    table["spice_per_game"] = placed["sum"].reindex(table.index).fillna(0) / games
    table["worm_strikes_per_game"] = worms.reindex(table.index).fillna(0) / games
    return table.sort_values("spice_per_game", ascending=False)


def simulated_lines(
    *, games: int, houses: list[str], seed: int = 0, turn_limit: int = 6, progress: bool = True,
) -> list[tuple[GameRecord, int]]:
    """Play ``games`` random-bot games (seeds ``seed``..) and return each as (record, last node)."""
    from tqdm.auto import tqdm

    from dunenb.bots import make_bot
    from dunenb.engine import make_config
    from dunenb.simulate import play_game

    lines = []
    for index in tqdm(range(games), desc="simulated games", disable=not progress):
        config = make_config(houses, seed=seed + index, turn_limit=turn_limit)
        bots = {house: make_bot("random", seed=seed + index) for house in houses}
        actions, _final = play_game(config, bots)
        record = GameRecord(config)
        lines.append((record, record.add_line(record.root, actions)))
    return lines
