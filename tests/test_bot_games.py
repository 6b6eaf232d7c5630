"""Conformance over 500 bot games (issue 4), the CI slice of ``make soak`` (issue 15): the soak runner
(dunenb/soak.py) plays soak games 0..499 (mixed House sets of 2 to 8, random and heuristic bots, the options
mixed) with the invariants of dunenb/invariants.py checked after every action. A failing game is written as a
replayable save in ``artifacts/failing_games/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dunenb.engine import make_config
from dunenb.invariants import InvariantViolation, check_position, play_checked
from dunenb.soak import run_soak, soak_game
from dunenb.state import Tokens

GAMES = 500
BLOCKS = 10
FAILURES = Path(__file__).resolve().parent.parent / "artifacts" / "failing_games"


@pytest.mark.parametrize("block", range(BLOCKS))
def test_500_bot_games_keep_every_invariant(block):
    report = run_soak(GAMES // BLOCKS, start=block * GAMES // BLOCKS, failing_dir=FAILURES, progress=False)
    assert report.violations == 0, report.text()
    assert report.games == GAMES // BLOCKS


def test_soak_games_mix_houses_bots_and_options():
    games = [soak_game(seed) for seed in range(200)]
    assert {len(g.config.houses) for g in games} == set(range(2, 9))
    assert {b for g in games for b in g.bots} == {"heuristic", "random"}
    assert {g.config.worm_option for g in games} == {"standard", "18+1d10", "36+1d5"}
    assert {g.config.secondary_storm for g in games} == {True, False}
    assert {g.config.chance_cards for g in games} == {True, False}
    assert None in {g.config.turn_limit for g in games}


def test_a_broken_invariant_is_reported_not_raised():
    state_check = check_position
    config = make_config(["atreides", "harkonnen"], seed=1, turn_limit=2)

    class Cheat:
        """A 'bot' that breaks token conservation by editing the state before deciding."""

        name = "cheat"

        def choose(self, state):
            import dataclasses

            from dunenb.bots import make_bot

            hs = state.houses["atreides"]
            broken = dataclasses.replace(state, houses=state.houses.set(
                "atreides", dataclasses.replace(hs, reserve=hs.reserve + Tokens(1, 0))))
            state_check(broken)  # raises
            return make_bot("random").choose(state)

    played = play_checked(config, {"atreides": Cheat(), "harkonnen": Cheat()})
    assert isinstance(played.error, InvariantViolation) and played.error.code == "tokens/conserved"
    assert played.failure.startswith("[tokens/conserved]")
