"""Notebook 02's "powers in this matchup" (issue 11 item 5): the leader's value after the powers and the powers
that acted, as the resolver reports them."""

from __future__ import annotations

import json

from dunenb.analysis.matchup import matchup
from dunenb.battle.case import case_outcomes, load_example_case, parse_case
from dunenb.board import read_data_file


def _stilgar_in(territory: str):
    raw = json.loads(json.dumps(read_data_file("battles/vladimir_minions.json")))
    raw["territory"] = territory
    raw["defender"] = "fremen"
    del raw["sides"][0]["dead"]
    return parse_case(raw)


def test_fremen_l01_a_stilgar_shows_11_in_a_desert_and_why():
    case = _stilgar_in("bassin-du-bouclier")
    harkonnen, fremen = matchup(case.battle, case_outcomes(case))
    assert (fremen.leader, fremen.strength, fremen.value) == ("Stilgar", 7, 11)
    acted = {power.power: power for power in fremen.powers}
    assert "FREMEN-L01-a" in acted and "desert" in acted["FREMEN-L01-a"].words
    assert acted["FREMEN-L01-a"].probability == 1
    assert fremen.summary().startswith("Stilgar 11 (strength 7): ")
    assert (harkonnen.leader, harkonnen.value) == ("Vladimir", 10)  # HARKONNEN-M3, every minion alive
    assert "HARKONNEN-M3" in {power.power for power in harkonnen.powers}


def test_in_a_city_stilgar_is_7_and_fremen_l01_a_does_not_act():
    case = _stilgar_in("carthag")
    _, fremen = matchup(case.battle, case_outcomes(case))
    assert fremen.value == 7 and "FREMEN-L01-a" not in {power.power for power in fremen.powers}


def test_every_power_the_resolver_reports_is_listed():
    case = load_example_case("traitor_idaho")
    distribution = case_outcomes(case)
    sides = matchup(case.battle, distribution)
    for side in sides:
        reported = {power for _, outcome in distribution for power in outcome.side(side.house).powers}
        assert reported <= {power.power for power in side.powers}


def test_the_wheel_explorer_shows_the_matchup_and_draws_the_value_after_powers():
    from dunenb.widgets.battle_wheel import BattleWheelExplorer

    explorer = BattleWheelExplorer(_stilgar_in("bassin-du-bouclier"))
    assert "Powers in this matchup" in explorer.powers.value and "FREMEN-L01-a" in explorer.powers.value
    assert explorer._sides[1].picture.leader_value == 11  # the disc shows his value, not his strength
    explorer.set("fremen", leader="chani")
    assert "FREMEN-L01-a" not in explorer.powers.value
