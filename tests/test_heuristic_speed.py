"""Issue 14 item 4 (heuristic bot): the movement scores shared per decision, the table of constant scores and the
plain-Python tie set give the same results as the straightforward work they replace, on positions of bot games."""

from __future__ import annotations

import numpy as np
import pytest

from dunenb.board import load_board
from dunenb.bots import heuristic, make_bot
from dunenb.bots.heuristic import (
    DUNE_USEFUL,
    PRESENCE_VALUE,
    RESERVE_TOKENS,
    _context,
    _landing_cost_value,
    _score,
    _scores,
    _would_harvest,
    exposure,
    site_value,
)
from dunenb.engine import legal_actions, make_config, view
from dunenb.rules.anytime import ANYTIME_KINDS
from dunenb.rules.captive_secrecy import guess
from dunenb.rules.movement import Emerge, Land, Move, landing_price
from dunenb.simulate import play_game
from dunenb.state import GameState, Tokens

HOUSES = ["atreides", "harkonnen", "fremen", "emperor", "guild", "bene-gesserit"]


def _straight_move(state: GameState, house: str, action: Move) -> float:
    """_score_move as it was before issue 14 item 4."""
    context = _context(state, house)
    if any(s in context.storms and load_board().area(a).kind not in ("pole", "sietch") for a, s in action.path):
        return -100.0
    destination = action.path[-1][0]
    moving = Tokens(action.regular, action.marked)
    origin, there = context.mine(action.area), context.mine(destination)
    leave = site_value(context, action.area, origin - moving) - site_value(context, action.area, origin)
    arrive = site_value(context, destination, there + moving) - site_value(context, destination, there)
    risk = (exposure(context, destination, action.path[-1][1], moving, harvester=_would_harvest(context, destination))
            - exposure(context, action.area, action.sector, moving))
    return leave + arrive - risk - 0.3


def _straight_land(state: GameState, house: str, action: Land | Emerge) -> float:
    """_score_land as it was before issue 14 item 4."""
    context = _context(state, house)
    if action.sector in context.storms and load_board().area(action.area).kind != "pole":
        return -100.0
    arriving = Tokens(action.regular, action.marked)
    here = context.mine(action.area)
    cost = 0
    if action.kind in ("land", "land-in-peace"):
        first = state.pending is None or state.pending.detail.get("landed", 0) == 0
        cost = landing_price(state, house, action.area, arriving.total, first=first)[0]
        if state.houses[house].spice < cost:
            return -10.0
    gain = site_value(context, action.area, here + arriving) - site_value(context, action.area, here)
    gain -= exposure(context, action.area, action.sector, arriving, harvester=_would_harvest(context, action.area))
    on_dune = context.on_dune()
    presence = PRESENCE_VALUE * (min(on_dune + arriving.total, DUNE_USEFUL) - min(on_dune, DUNE_USEFUL))
    left_in_reserve = state.houses[house].reserve.total - arriving.total
    peace = -1.0 if action.kind == "land-in-peace" else 0.0
    return (gain + presence + peace + _landing_cost_value(state, house, cost)
            - 0.2 * max(0, RESERVE_TOKENS - left_in_reserve))


@pytest.fixture(scope="module")
def decisions() -> list[tuple[GameState, str, list]]:
    """The heuristic bots' movement, bid and alliance decisions of three short games (as the bot sees them)."""
    found = []
    choose = heuristic.HeuristicBot.choose

    def recording(bot: heuristic.HeuristicBot, state: GameState):  # type: ignore[no-untyped-def]
        if state.pending is not None and state.pending.kind in ("movement", "bid", "alliance"):
            house = state.pending.actor
            menu = [a for a in legal_actions(state) if a.kind not in ANYTIME_KINDS or (
                state.phase == "movement" and a.kind in heuristic.HARVESTER_TRADES)]
            found.append((guess(view(state, house)), house, menu))
        return choose(bot, state)

    heuristic.HeuristicBot.choose = recording  # type: ignore[method-assign]
    try:
        for seed in range(3):
            config = make_config(HOUSES, seed=seed, turn_limit=4)
            play_game(config, {h: make_bot("heuristic", seed=seed + k) for k, h in enumerate(HOUSES)})
    finally:
        heuristic.HeuristicBot.choose = choose  # type: ignore[method-assign]
    return found


def test_movement_scores_equal_the_straightforward_scores(decisions: list) -> None:
    """Every move and landing scores the same float as the straightforward scoring, in menus of real games."""
    assert "movement" not in heuristic._POWER_NODES  # _scores' shortcut takes the movement node only
    moves = landings = 0
    for seen, house, menu in decisions:
        if seen.pending.kind != "movement":
            continue
        heuristic._LAST_CONTEXT[0] = None
        fast = _scores(seen, house, menu)
        heuristic._LAST_CONTEXT[0] = None
        straight = [_straight_move(seen, house, a) if isinstance(a, Move) else
                    _straight_land(seen, house, a) if isinstance(a, (Land, Emerge)) else _score(seen, house, a)
                    for a in menu]
        assert fast == straight, house
        moves += sum(isinstance(a, Move) for a in menu)
        landings += sum(isinstance(a, (Land, Emerge)) for a in menu)
    assert moves > 1000 and landings > 500


def test_kind_table_read_first_equals_the_chain(decisions: list, monkeypatch: pytest.MonkeyPatch) -> None:
    """The constant scores read first give what _score's chain of checks gives them (the chain reads the table
    after every other check; with every node taken as a power node the early read is skipped)."""
    constants = 0
    for seen, house, menu in decisions:
        first = [_score(seen, house, a) for a in menu]
        with monkeypatch.context() as patch:
            patch.setattr(heuristic, "_POWER_NODES", (seen.pending.kind,))
            chained = [_score(seen, house, a) for a in menu]
        assert first == chained
        constants += sum(a.kind in heuristic._KIND_SCORES for a in menu)
    assert constants > 1000


def test_plain_tie_set_equals_numpy(decisions: list) -> None:
    """HeuristicBot.choose's tie set in plain Python is numpy's, score list by score list."""
    for seen, house, menu in decisions:
        scored = _scores(seen, house, menu)
        top = max(scored) - 1e-9
        scores = np.array(scored, dtype=float)
        assert [i for i, s in enumerate(scored) if s >= top] == [
            int(i) for i in np.flatnonzero(scores >= scores.max() - 1e-9)]


def test_the_cached_risk_is_keyed_on_the_spice_top_card_the_view_shows() -> None:
    """ATREIDES-P2 c: the worm odds read the top spice card a view shows; two views differing only there get each
    its own odds from the bot's risk cache, as :meth:`Risk.of` computes them."""
    import dataclasses

    from dunenb.bots.risk import Risk
    from dunenb.engine import new_game

    state = new_game(["atreides", "harkonnen"], seed=3)
    deck = state.spice_deck
    area = next(card for card in deck.remaining if card != "worm").partition("/")[0]  # cards are "area/spice"
    state = dataclasses.replace(state, spice_deck=dataclasses.replace(deck, pile_tops=(area, None)),
                                spice_on_map=state.spice_on_map.set(area, 6))
    worm_top = dataclasses.replace(state, deck_tops=state.deck_tops.set("spice", "worm"))
    for seen in (state, worm_top, state):
        assert heuristic._risk_of(seen, "atreides").worm == Risk.of(seen, "atreides").worm
    assert heuristic._risk_of(worm_top, "atreides").worm != heuristic._risk_of(state, "atreides").worm
