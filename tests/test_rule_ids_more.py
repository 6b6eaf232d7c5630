"""Scene tests for rule IDs that were cited in code but had no test named after them (the spec's values, not the
code's): the START lines of houses.md, and rules of rules_digest.md and leaders.md."""

from __future__ import annotations

from helpers_game import assert_conserved, board_tokens, quiet_setup, tokens_at

from dunenb.ruleset import load_ruleset

# --- houses.md START lines ------------------------------------------------------------------------------------


def _start(house: str, others: tuple[str, ...] = ("fremen", "emperor")):
    """The position after setup (turn 1's auction next), with ``house`` in play."""
    state = quiet_setup([house, *others], stop_before="auction-card")
    assert_conserved(state)
    return state, state.houses[house]


def _on_map(state, house: str) -> dict[str, int]:
    return {area: tokens_at(state, house, area) for (h, area, _s) in state.forces if h == house}


def test_guild_start_5_spice_5_tokens_at_the_pole_15_off_planet_no_harvester():
    state, hs = _start("guild")
    assert hs.spice == 5 and hs.harvesters == 0
    assert _on_map(state, "guild") == {"pole-nord": 5}
    assert hs.reserve.total == 15 and hs.reserve.marked == 0
    assert load_ruleset().house("guild").free_cards == 1


def test_bg_start_5_spice_1_token_at_the_pole_19_off_planet_no_harvester():
    state, hs = _start("bene-gesserit")
    assert hs.spice == 5 and hs.harvesters == 0
    assert _on_map(state, "bene-gesserit") == {"pole-nord": 1}
    assert hs.reserve.total == 19 and hs.reserve.marked == 0
    assert load_ruleset().house("bene-gesserit").free_cards == 1


def test_tleilax_start_10_spice_all_20_off_planet_unmarked_no_harvester():
    state, hs = _start("bene-tleilax")
    assert hs.spice == 10 and hs.harvesters == 0
    assert _on_map(state, "bene-tleilax") == {}
    assert board_tokens(state, "bene-tleilax").total == 0
    assert (hs.reserve.regular, hs.reserve.marked) == (20, 0)
    assert load_ruleset().house("bene-tleilax").free_cards == 1


def test_atreides_start_10_spice_10_in_arrakeen_10_off_planet_1_harvester():
    state, hs = _start("atreides")
    assert hs.spice == 10 and hs.harvesters == 1
    assert _on_map(state, "atreides") == {"arrakeen": 10}
    assert (hs.reserve.regular, hs.reserve.marked) == (10, 0)
    assert load_ruleset().house("atreides").free_cards == 1


def test_harkonnen_start_10_spice_10_in_carthag_10_off_planet_1_harvester_2_cards():
    state, hs = _start("harkonnen")
    assert hs.spice == 10 and hs.harvesters == 1
    assert _on_map(state, "harkonnen") == {"carthag": 10}
    assert (hs.reserve.regular, hs.reserve.marked) == (10, 0)
    assert load_ruleset().house("harkonnen").free_cards == 2


def test_dispersion_start_10_spice_3_marked_10_in_arsunt_1_harvester():
    state, hs = _start("dispersion")
    assert hs.spice == 10 and hs.harvesters == 1
    assert _on_map(state, "dispersion") == {"arsunt": 10}
    total = hs.reserve + hs.tanks + board_tokens(state, "dispersion")
    assert (total.regular, total.marked) == (17, 3)
    assert hs.reserve.total == 10
    assert load_ruleset().house("dispersion").free_cards == 1


def test_gap_40_lost_starting_conditions_are_the_houses_md_start_lines_and_marked_tokens_start_off_planet():
    """GAP-40: the seed's starting conditions are lost; the START lines of houses.md decide them (20 tokens a
    House, houses.md G-1, not the 30 of L151), and the design records that the marked tokens start in reserve."""
    state = quiet_setup(["fremen", "emperor", "dispersion"], stop_before="auction-card")
    for house in ("fremen", "emperor", "dispersion"):
        hs = state.houses[house]
        assert (hs.reserve + hs.tanks + board_tokens(state, house)).total == 20
    emperor = state.houses["emperor"]  # EMPEROR-START: 10 spice, 5 S + 15, all off-planet, no harvester
    assert (emperor.spice, emperor.harvesters) == (10, 0)
    assert (emperor.reserve.regular, emperor.reserve.marked) == (15, 5)
    fremen = state.houses["fremen"]  # FREMEN-START: 3 spice, 3 F + 17, 10 on Dune, 1 harvester
    assert (fremen.spice, fremen.harvesters) == (3, 1)
    assert board_tokens(state, "fremen").total == 10 and board_tokens(state, "fremen").marked == 0
    assert fremen.reserve.marked == 3
    dispersion = state.houses["dispersion"]  # DISPERSION-START: the 3 A tokens stay in reserve (design)
    assert board_tokens(state, "dispersion").marked == 0 and dispersion.reserve.marked == 3
