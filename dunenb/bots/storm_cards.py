"""The heuristic bot's storm-phase cards: weather control (STORM-5, CARD-WEATHER-2/3, GAP-31) and Atomics on the
Shield Wall (CARD-ATOMICS-1/2, GAP-30).

A card is worth playing when the storm it leaves behind does more harm to the other Houses than to the bot's own
House: every exposed token on the storm's path (GAP-9, STORM-18) counts ``ENEMY_TOKEN`` for another House's and
``-OWN_TOKEN`` for the bot's; its own committed harvesters count as ``OWN_HARVESTER`` tokens. The card itself costs
``CARD_COST`` (Atomics ``ATOMICS_COST``), so the bot plays it only when it helps. A pass scores 0.

>>> from dunenb.actions import Pass
>>> from dunenb.engine import new_game
>>> score_storm_card(new_game(["atreides", "harkonnen"], seed=1), "atreides", Pass("atreides"))
0.0
"""

from __future__ import annotations

import dataclasses

from dunenb.actions import Action, PlayWeatherControl
from dunenb.board import SHIELD_WALL
from dunenb.rules.atomics import BlowShieldWall
from dunenb.rules.common import is_exposed_to_storm, rules, steps_from
from dunenb.state import GameState
from dunenb.state_memo import per_state

ENEMY_TOKEN = 0.5  # another House's token destroyed, in the bot's tokens (design)
OWN_TOKEN = 1.0
OWN_HARVESTER = 2.0  # a committed harvester, in tokens (HARVEST-3/4)
CARD_COST = 0.5  # weather control kept for later (design)
ATOMICS_COST = 2.0  # the Atomics card kept for later (design)


def _start(state: GameState, storm: str) -> int:
    return (state.storm_main if storm == "main" else state.storm_secondary) or 1


@per_state  # issue 14 item 4: every card of one weather menu compares with the same pass
def storm_harm(state: GameState, house: str, storm: str, move: int) -> float:
    """The value to ``house`` of what the storm destroys moving ``move`` sectors (positive: others lose more)."""
    return _storm_harm(state, house, storm, move)


def _storm_harm(state: GameState, house: str, storm: str, move: int) -> float:
    board = rules().board
    value = 0.0
    for sector in steps_from(_start(state, storm), move):
        for area in board.areas_in_sector(sector):
            if not is_exposed_to_storm(state, area.id):
                continue
            for (owner, area_id, where), tokens in state.forces.items():
                if area_id == area.id and where == sector:
                    value += tokens.total * (-OWN_TOKEN if owner == house else ENEMY_TOKEN)
            for (owner, area_id, where), count in state.committed_harvesters.items():
                if owner == house and area_id == area.id and where == sector:
                    value -= count * OWN_HARVESTER
    return value


def score_storm_card(state: GameState, house: str, action: Action) -> float:
    """Score a choice at the storm phase's card node (``weather``): 0 for a pass, the gain over a pass otherwise."""
    if state.pending is None or state.pending.kind != "weather":
        return 0.0
    storm, move = state.pending.detail["storm"], state.pending.detail["move"]
    base = storm_harm(state, house, storm, move)
    if isinstance(action, PlayWeatherControl):
        bonus = {"plus1": 1, "plus2": 2}.get(action.mode)
        new_move = move + bonus if bonus is not None else action.sectors
        return storm_harm(state, house, storm, new_move) - base - CARD_COST
    if isinstance(action, BlowShieldWall):
        blasted = dataclasses.replace(state, shield_wall_standing=False)
        on_wall = sum(tokens.total * (-OWN_TOKEN if owner == house else ENEMY_TOKEN)
                      for (owner, area, _s), tokens in state.forces.items() if area == SHIELD_WALL)
        return storm_harm(blasted, house, storm, move) - base + on_wall - ATOMICS_COST
    return 0.0
