"""Exact worm-strike odds (SPICE-4, SPICE-6, GAP-16) checked against the engine's own chance nodes."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from dunenb.analysis.worms import pile_strike_probabilities, worm_strike_table
from dunenb.engine import apply_action, chance_outcomes, new_game
from dunenb.rules import spice
from dunenb.state import FrozenDict, SpiceDeck


def _blow_state(remaining: dict[str, int], tops: tuple[str | None, str | None], deposits: dict[str, int]):
    state = new_game(["atreides", "harkonnen"], seed=1)
    starts = {"atreides": 5, "harkonnen": 17}
    houses = FrozenDict({h: dataclasses.replace(hs, start_position=starts[h]) for h, hs in state.houses.items()})
    deck = SpiceDeck(remaining=FrozenDict(remaining), discard=FrozenDict(), pile_tops=tops)
    state = dataclasses.replace(
        state, storm_main=1, houses=houses, storm_dialers=("atreides", "harkonnen"), spice_deck=deck,
        spice_on_map=FrozenDict(deposits), bank=state.bank - sum(deposits.values()),
    )
    return spice.begin_blow(state)


def _strike_odds_by_enumeration(state) -> dict[str, Fraction]:
    """Walk every chance outcome of one spice blow and add up the probability of each strike on an old deposit."""
    odds: dict[str, Fraction] = {}
    old = dict(state.spice_on_map)

    def walk(current, probability: Fraction, struck: frozenset[str]) -> None:
        if current.pending is None or current.pending.kind not in ("spice", "deck-top"):  # ATREIDES-P2 c: tops
            for area in struck:
                odds[area] = odds.get(area, Fraction(0)) + probability
            return
        for action, p in chance_outcomes(current):
            following = apply_action(current, action)
            hits = {e.data["area"] for e in following.events if e.kind == "worm" and e.data["area"] in old}
            walk(following, probability * p, struck | hits)

    walk(state, Fraction(1), frozenset())
    return odds


@pytest.mark.parametrize(
    ("remaining", "tops"),
    [
        ({"worm": 3, "bassin-imperial/6": 2, "erg-mineur/4": 2}, ("grande-etendue", "terre-brisee")),
        ({"worm": 2, "bassin-imperial/6": 1, "erg-mineur/4": 3}, ("grande-etendue", "grande-etendue")),
        ({"worm": 1, "mesa-maya/5": 4}, ("grande-etendue", None)),
    ],
)
def test_SPICE_6_worm_strike_odds_match_enumerating_the_engine(remaining, tops):
    deposits = {t: 7 for t in tops if t is not None}
    state = _blow_state(remaining, tops, deposits)
    table = worm_strike_table(state)
    expected = _strike_odds_by_enumeration(state)
    for row in table.itertuples():
        assert Fraction(row.p_worm_exact) == expected.get(row.area, Fraction(0))


def test_pile_strike_probabilities_by_symmetry_equal_the_worm_share():
    for worms, territories in [(18, 27), (36, 27), (5, 3), (0, 10)]:
        first, second = pile_strike_probabilities(worms=worms, territories=territories)
        assert first == Fraction(worms, worms + territories)
        assert second == Fraction(worms, worms + territories)
