"""Issue 14 item 4 (helper "move"): the heuristic bot's shortcuts give what the work they replace gives, on the
positions of seeded heuristic-bot games: Karama windows and bids scored without building the view, one Risk
shared by the Houses with the same risk_key, and Risk.loss kept per place."""

from __future__ import annotations

import dataclasses

import pytest
from helpers_game import bot_game_states

from dunenb.board import load_board
from dunenb.bots import heuristic
from dunenb.bots.risk import Risk, risk_key
from dunenb.engine import current_player, legal_actions, view
from dunenb.rules.anytime import ANYTIME_KINDS
from dunenb.rules.captive_secrecy import guess
from dunenb.state import GameState

HOUSES = ["atreides", "harkonnen", "fremen", "emperor", "guild", "bene-gesserit"]


@pytest.fixture(scope="module")
def states() -> list[GameState]:
    """The states of two short heuristic-bot games where a House decides."""
    found = []
    for seed in (0, 1):
        for state in bot_game_states(HOUSES, seed, turn_limit=4, bot="heuristic"):
            if state.pending is not None and current_player(state) != "chance":
                found.append(state)
    return found


def test_view_free_scores_equal_the_scores_of_the_view(states: list[GameState]) -> None:
    """Where _view_free says so, the state scores its menu as the House's view (guessed) does."""
    taken = {"karama-window": 0, "bid": 0, "alliance": 0}
    for state in states:
        house = state.pending.actor
        menu = [a for a in legal_actions(state) if a.kind not in ANYTIME_KINDS]
        if len(menu) < 2 or not heuristic._view_free(state, menu):
            continue
        heuristic._LAST_CONTEXT[0] = None
        direct = heuristic._scores(state, house, menu)
        heuristic._LAST_CONTEXT[0] = None
        assert direct == heuristic._scores(guess(view(state, house)), house, menu)
        taken[state.pending.kind] = taken.get(state.pending.kind, 0) + 1
    assert taken["karama-window"] > 20 and taken["bid"] > 20 and taken["alliance"] > 5, taken


def _losses(risk: Risk) -> list[float]:
    return [risk.loss(area.id, sector) for area in load_board().areas for sector in range(1, 25)]


def test_houses_with_one_risk_key_get_equal_risks(states: list[GameState]) -> None:
    """Two Houses' views with the same risk_key get equal storm, double-storm and worm odds, and equal losses
    everywhere (the key leaves the House out but for whether it sees the Fremen's storm tokens)."""
    shared = 0
    for state in states[::7]:
        by_key: dict[tuple, Risk] = {}
        for house in HOUSES:
            seen = guess(view(state, house))
            risk = Risk.of(seen, house)
            first = by_key.setdefault(risk_key(seen, house), risk)
            if first is not risk:
                shared += 1
                assert (first.storm, first.double, first.worm) == (risk.storm, risk.double, risk.worm)
                assert _losses(first) == _losses(risk)
    assert shared > 50


def test_kept_losses_equal_computed_losses(states: list[GameState]) -> None:
    """Risk.loss asked twice gives what a new Risk computes (the kept value is the computed one)."""
    state = states[len(states) // 2]
    house = state.pending.actor
    risk = Risk.of(state, house)
    once = _losses(risk)
    assert _losses(risk) == once == _losses(dataclasses.replace(risk, _losses={}))
