"""Conformance over 500 bot games (issue 4): mixed House sets of 2 to 8, random and heuristic bots, invariants
checked after every action. A failing game is written as a replayable save in ``artifacts/failing_games/``.

Invariants: no negative spice or token counts; every token (board + reserve + tanks + set aside
= 20 per House, G-1, plus tokens traded in deals),
every spice unit (Houses + map + Bank = 0) and every treachery card (deck + hands + discard = the 61 of GAP-26)
accounted for; after the battle step, at most one House (not at peace) per territory except the North Pole and
territories split by a storm sector (GAP-46); no storm token is drawn or revealed once the House holding
FREMEN-P1 is eliminated (STORM-3, TURN-1 a, GAP-52); every game ends.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from dunenb.board import load_board
from dunenb.bots import make_bot
from dunenb.engine import CHANCE, apply_action, current_player, initial_state, make_config, sample_chance
from dunenb.jsonio import write_json_atomic
from dunenb.powers import owner
from dunenb.rules.bidding import card_census, initial_deck
from dunenb.ruleset import HOUSE_IDS
from dunenb.simulate import line_to_save

GAMES = 500
FAILURES = Path(__file__).resolve().parent.parent / "artifacts" / "failing_games"
BOARD = load_board()
DECK = Counter(initial_deck())


def _check(state) -> None:
    assert state.total_spice() == 0, "spice not conserved"
    assert card_census(state) == DECK, "treachery cards not conserved"
    on_board: dict[str, int] = {}
    for (house, area, sector), tokens in state.forces.items():
        assert tokens.regular >= 0 and tokens.marked >= 0 and not tokens.is_empty()
        assert sector in BOARD.area(area).sectors
        on_board[house] = on_board.get(house, 0) + tokens.total
    for house, hs in state.houses.items():
        assert hs.spice >= 0 and hs.harvesters >= 0
        assert min(hs.reserve.regular, hs.reserve.marked, hs.tanks.regular, hs.tanks.marked) >= 0
        counted = hs.reserve.total + hs.tanks.total + on_board.get(house, 0) + state.tokens_set_aside(house)
        assert counted == state.token_quota(house), f"{house} tokens not conserved"
    assert sum(state.tokens_traded.values()) == 0, "tokens traded in deals do not balance"


def _check_after_battles(state, at_peace, storms) -> None:
    """``storms``: the storm sectors during the battles (the transition may already have moved them)."""
    storms = set(storms)
    present: dict[str, set[str]] = {}
    for (house, area, _sector) in state.forces:
        if BOARD.area(area).kind == "pole" or (house, area) in at_peace or house in state.eliminated:
            continue
        present.setdefault(area, set()).add(house)
    for area, houses in present.items():
        if len(houses) > 1:
            assert storms & set(BOARD.area(area).sectors), f"{sorted(houses)} still share {area} after battles"


TOKEN_EVENTS = ("storm-token", "storm-token-revealed")  # FREMEN-P1


def _check_fallen_fremen(before, following) -> None:
    """STORM-3, GAP-52: after the token holder's elimination no storm phase uses or draws a Fremen token."""
    fremen = owner("FREMEN-P1")
    fallen = fremen in before.eliminated
    for event in following.events:
        if event.kind == "eliminated" and event.data.get("house") == fremen:
            fallen = True
        assert not (fallen and event.kind in TOKEN_EVENTS), (
            f"turn {following.turn}: {event.kind} after the Fremen were eliminated")
    if fremen in following.eliminated:
        assert not following.storm_tokens, "an eliminated Fremen House still holds storm tokens"


def _game(seed: int) -> None:
    generator = np.random.default_rng([seed, 500])
    count = int(generator.integers(2, 9))
    count = len(HOUSE_IDS) if seed % 10 == 0 else count  # issue 10: all eight Houses, their powers on, often
    houses = [str(h) for h in generator.choice(HOUSE_IDS, size=count, replace=False)]
    config = make_config(houses, seed=seed, turn_limit=int(generator.integers(3, 7)),
                         secondary_storm=bool(seed % 2), worm_option=("standard", "18+1d10", "36+1d5")[seed % 3])
    bots = {h: make_bot("heuristic" if (seed + k) % 2 else "random", seed=seed + k) for k, h in enumerate(houses)}
    state = initial_state(config)
    actions = []
    try:
        for _ in range(20_000):
            _check(state)
            actor = current_player(state)
            if actor is None:
                break
            action = sample_chance(state) if actor == CHANCE else bots[actor].choose(state)
            following = apply_action(state, action)
            actions.append(action)
            _check_fallen_fremen(state, following)
            if state.phase == "battle" and following.phase != "battle":
                _check_after_battles(following, state.at_peace, state.storm_sectors())  # peace is cleared at turn end
            state = following
        assert state.pending is None, "the game did not end"
    except AssertionError:
        write_json_atomic(FAILURES / f"game_seed_{seed}.json", line_to_save(config, actions))
        raise


@pytest.mark.parametrize("block", range(10))
def test_500_bot_games_keep_every_invariant(block):
    for seed in range(block * GAMES // 10, (block + 1) * GAMES // 10):
        _game(seed)
