"""A heuristic bot that plays sensibly (issue 4): it bids within its means, lands and moves towards cities,
Sietchs and spice, harvests, picks its battle plans with the exact battle analyzer
(:mod:`dunenb.bots.battle_planner`), calls its traitors, and goes for the settlements of a House that is
close to victory.

Every choice is one of ``legal_actions(state)``: the bot scores them and takes the best (ties broken by its
seeded generator), so it can never play an illegal move.

>>> from dunenb.engine import new_game, play_until_decision
>>> state = play_until_decision(new_game(["atreides", "harkonnen"], seed=4))
>>> HeuristicBot(seed=1).choose(state).kind
'start'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from dunenb.actions import Action
from dunenb.board import load_board
from dunenb.engine import legal_actions
from dunenb.errors import IllegalActionError
from dunenb.state import GameState

RESERVE_SPICE = 3  # spice the bot keeps back for landing and revival


def _settlement_owners(state: GameState) -> dict[str, set[str]]:
    owners: dict[str, set[str]] = {}
    board = load_board()
    for (house, area, _sector) in state.forces:
        if board.area(area).is_settlement:
            owners.setdefault(area, set()).add(house)
    return owners


def _threats(state: GameState, house: str) -> set[str]:
    """Settlements held by another House that holds the most settlements (blocking the leader)."""
    owners = _settlement_owners(state)
    counts: dict[str, int] = {}
    for holders in owners.values():
        if len(holders) == 1:
            (holder,) = holders
            counts[holder] = counts.get(holder, 0) + 1
    rivals = {h: c for h, c in counts.items() if h != house}
    if not rivals:
        return set()
    leader = max(rivals, key=lambda h: rivals[h])
    if rivals[leader] < 2:
        return set()
    return {area for area, holders in owners.items() if holders == {leader}}


def _destination_value(state: GameState, house: str, area_id: str, sector: int) -> float:
    board = load_board()
    area = board.area(area_id)
    value = 0.0
    if sector in state.storm_sectors() and area.kind != "pole" and area.kind != "sietch":
        return -100.0  # STORM-8: entering a storm sector destroys the tokens
    holders = {h for (h, a, _s) in state.forces if a == area_id} - {house}
    if area.is_settlement:
        value += 6.0 if not holders else 3.0
        if area_id in _threats(state, house):
            value += 5.0
        if house in {h for (h, a, _s) in state.forces if a == area_id}:
            value -= 4.0  # already there
    if area.kind == "desert":
        spice = state.spice_on_map.get(area_id, 0)
        value += min(spice, 10) * (0.5 if state.houses[house].harvesters else 0.15)
        value -= 1.0
    if area.kind == "pole":
        value -= 2.0
    return value


def _score_bid(state: GameState, house: str, action: Action) -> float:
    if action.kind == "bid":
        hs = state.houses[house]
        budget = max(0, hs.spice - RESERVE_SPICE) // (1 + len(hs.hand) // 2)
        return 1.0 - action.amount / 10 if action.amount <= budget else -10.0
    return 0.0


def _score_slot(state: GameState, house: str, action: Action) -> float:
    hs = state.houses[house]
    if action.kind == "revive":
        count = action.regular + action.marked
        return 0.5 * count if hs.spice - count >= RESERVE_SPICE else -5.0
    if action.kind in ("land", "emerge"):
        count = action.regular + action.marked
        cost = 0 if action.kind == "emerge" else count * (1 if load_board().area(action.area).is_settlement else 2)
        if hs.spice - cost < 0:
            return -10.0
        return _destination_value(state, house, action.area, action.sector) + 0.3 * min(count, 8) - 0.25 * cost
    if action.kind == "move":
        destination, sector = action.path[-1]
        passes_storm = any(s in state.storm_sectors() and load_board().area(a).kind not in ("pole", "sietch")
                           for a, s in action.path)
        if passes_storm:
            return -100.0
        here = _destination_value(state, house, action.area, action.sector)
        return _destination_value(state, house, destination, sector) - max(here, 0) + 0.1 * action.regular
    if action.kind == "buy-harvester":
        return 2.0 if hs.harvesters == 0 and hs.spice >= 5 + RESERVE_SPICE else -3.0
    if action.kind == "sell-harvester":
        return -3.0
    if action.kind == "reposition":
        return -1.0
    return 0.0  # end-slot


def _score_plan(state: GameState, house: str, action: Action) -> float:
    from dunenb.battle.roster import load_roster

    roster = load_roster()
    strength = 0
    if action.leader not in ("none", ""):
        strength = next((leader.strength for leader in roster.of_house(house) if leader.id == action.leader), 0)
    dial = action.regular * 0.5 + action.marked + min(action.spice, action.regular + action.marked) * 0.5
    cards = (action.weapon not in ("none", "")) * 2.5 + (action.defense not in ("none", "")) * 2.0
    cost = 0.25 * (action.regular + action.marked) + 0.3 * action.spice
    return strength + dial + cards - cost


def _score(state: GameState, house: str, action: Action) -> float:
    kind = action.kind
    if kind in ("bid", "pass") and state.phase == "bidding":
        return _score_bid(state, house, action)
    if kind in ("revive", "land", "emerge", "move", "reposition", "buy-harvester", "sell-harvester", "end-slot"):
        return _score_slot(state, house, action)
    if kind == "commit-harvester":
        return 5.0
    if kind == "plan":
        return _score_plan(state, house, action)
    if kind == "traitor-call":
        return 10.0
    if kind == "karama-bid":
        return 1.0
    if kind == "pay-bid":
        return 0.5
    if kind == "weather":
        return -1.0
    if kind == "end-window":
        return 1.0  # GAP-19: the bot makes no offers of its own ...
    if kind == "offer":
        return -5.0
    if kind == "accept-offer":
        offer = state.pending.detail.get("offer", ())
        return 2.0 if offer and offer[-1] == 0 else -1.0  # ... and takes gifts (offer = (..., price))
    return 0.0


@dataclass(frozen=True)
class HeuristicBot:
    """Scores every legal action with simple, explainable heuristics and plays the best one."""

    seed: int = 0
    name: str = "heuristic"
    scorer: Callable[[GameState, str, Action], float] = _score

    def choose(self, state: GameState) -> Action:
        actions = legal_actions(state)
        if not actions:
            raise IllegalActionError("bot/no-action", "the game is over: nothing to choose")
        house = state.pending.actor
        if self.scorer is _score and actions[0].kind == "plan":
            from dunenb.bots.battle_planner import plan_scores

            scores = np.array(plan_scores(state, actions), dtype=float)
        else:
            scores = np.array([self.scorer(state, house, a) for a in actions], dtype=float)
        best = np.flatnonzero(scores >= scores.max() - 1e-9)
        generator = np.random.default_rng([self.seed, state.rng_counter, state.turn, len(state.events)])
        return actions[int(best[int(generator.integers(len(best)))])]
