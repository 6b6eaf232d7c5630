"""The battle widgets, built headlessly: controls set from code must redraw the figures with the library's numbers."""

from __future__ import annotations

import numpy as np
import pytest

from dunenb.analysis.battle_odds import optimal_plans, plan_matrix
from dunenb.battle.case import CASE_FORMAT, case_outcomes, example_case_names, load_example_case, parse_case
from dunenb.battle.colours import house_colour
from dunenb.battle.roster import load_roster
from dunenb.widgets.battle_charts import (
    cards_matrix,
    equilibrium_support,
    optimal_plans_chart,
    plan_matrix_heatmap,
    shield_examples_chart,
    shield_examples_table,
    wheel_examples_chart,
    wheel_examples_table,
)
from dunenb.widgets.battle_wheel import BattleWheelExplorer, default_case


def _side(house: str, *, regular: int = 4, spice: int = 1, leader: str | None = None, weapon: str | None = None,
          defense: str | None = None, traitors: tuple[str, ...] = ()) -> dict:
    return {"house": house, "tokens": {"regular": 10}, "spice": 5, "dial": {"regular": regular, "spice": spice},
            "leader": leader or load_roster().of_house(house)[2].id, "weapon": weapon, "defense": defense,
            "traitors": list(traitors)}


def _expected(first: dict, second: dict) -> list[float]:
    """The outcome probabilities of the default battle with these sides, straight from the library."""
    case = parse_case({"format": CASE_FORMAT, "territory": "arrakeen", "defender": "atreides",
                       "sides": [first, second]})
    return [float(p) for p, _ in case_outcomes(case)]


def _axis_labels(figure) -> list[str]:
    return [axis.label for axis in figure.axes]


def test_default_explorer_shows_the_default_battle() -> None:
    explorer = BattleWheelExplorer()
    assert explorer.houses == ("atreides", "harkonnen")
    assert list(explorer.outcome_bars.y) == [float(p) for p, _ in case_outcomes(default_case())]
    assert explorer.message.value == ""
    assert "<table" in explorer.table.value
    assert explorer.outcome_chart.title == "Probability of each outcome"
    assert all(_axis_labels(explorer.outcome_chart))


def test_knife_against_shield_redraws_the_outcome_bars() -> None:
    explorer = BattleWheelExplorer()
    before = list(explorer.outcome_bars.y)
    explorer.controls[0]["weapon"].value = "projectile-contact"
    explorer.controls[1]["defense"].value = "shield"
    expected = _expected(_side("atreides", weapon="projectile-contact"), _side("harkonnen", defense="shield"))
    assert list(explorer.outcome_bars.y) == pytest.approx(expected)
    assert list(explorer.outcome_bars.y) != before
    assert len(explorer.outcome_bars.x) == len(expected) > 1  # the d10 of the shield pass splits the outcomes
    assert sum(explorer.outcome_bars.y) == pytest.approx(1.0)
    assert list(explorer.outcome_bars.colors) == [house_colour(o.winner) for _, o in explorer.distribution]
    assert explorer.outcome_probabilities().to_list() == pytest.approx(expected)


def test_a_traitor_call_changes_the_winner() -> None:
    explorer = BattleWheelExplorer()
    atreides_leader = explorer.controls[0]["leader"].value
    explorer.set("harkonnen", traitors=(atreides_leader,))
    expected = _expected(_side("atreides"), _side("harkonnen", traitors=(atreides_leader,)))
    assert list(explorer.outcome_bars.y) == pytest.approx(expected)
    assert explorer.win_probabilities().to_dict() == {"harkonnen": 1.0}
    assert list(explorer.outcome_bars.colors) == [house_colour("harkonnen")] * len(expected)


def test_the_dial_fills_the_wheel() -> None:
    explorer = BattleWheelExplorer()
    explorer.set("atreides", regular=6, spice=2)  # 6 unmarked tokens = 3, two of them doubled = 4
    picture = explorer._sides[0].picture
    assert (picture.value, picture.most) == (4.0, 7.5)  # 4 shown out of 10 tokens + 5 spice = 7.5
    assert ">4</text>" in explorer._sides[0].wheel.value  # the number dialled, in the dial
    assert "4 tokens × ½ + 2 with spice × 1 = 4" in explorer._sides[0].wheel.value
    expected = _expected(_side("atreides", regular=6, spice=2), _side("harkonnen"))
    assert list(explorer.outcome_bars.y) == pytest.approx(expected)


def test_an_illegal_dial_shows_the_library_message_and_keeps_the_last_chart() -> None:
    explorer = BattleWheelExplorer()
    bars = list(explorer.outcome_bars.y)
    explorer.set("atreides", regular=2, spice=3)
    assert "GAP-42" in explorer.message.value
    assert list(explorer.outcome_bars.y) == bars
    explorer.set("atreides", spice=2)
    assert explorer.message.value == ""


@pytest.mark.parametrize("name", example_case_names())
def test_explorer_built_from_a_case_starts_on_its_distribution(name: str) -> None:
    case = load_example_case(name)
    explorer = BattleWheelExplorer(case)
    assert explorer.message.value == ""
    assert list(explorer.outcome_bars.y) == [float(p) for p, _ in case_outcomes(case)]
    for controls, side in zip(explorer.controls, case.sides, strict=True):
        assert ("elite" in controls) == (side.side.tokens.elite > 0)
        assert controls["regular"].max == side.side.tokens.regular
        assert controls["weapon"].value == (side.plan.weapon or "")  # "" is the "none" choice


def test_case_details_reach_the_controls() -> None:
    traitor = BattleWheelExplorer(load_example_case("traitor_idaho"))
    assert traitor.controls[1]["traitors"].value == ("duncan-idaho",)
    assert traitor.controls[1]["elite"].max == 3
    shield = BattleWheelExplorer(load_example_case("shield_example_1"))  # inline leaders, no House copy
    assert shield.controls[0]["leader"].label == "Leader of player 1 (5)"
    analysis = BattleWheelExplorer(load_example_case("analysis_arrakeen"))  # hand and leaders bound the choices
    assert [value for _, value in analysis.controls[0]["leader"].options] == ["gurney", "duncan-idaho", "tufir"]
    assert [value for _, value in analysis.controls[0]["weapon"].options] == ["", "projectile-contact", "worthless"]
    assert [value for _, value in analysis.controls[0]["defense"].options] == ["", "snooper", "shield", "worthless"]


def test_wheel_examples_chart_draws_the_table() -> None:
    table = wheel_examples_table()
    figure = wheel_examples_chart(table)
    bars = figure.marks[0]
    assert list(bars.x) == list(table.index)
    assert np.allclose(bars.y, [table["tokens lost"], table["shown on the wheel"]])
    assert table.loc["3u+2m, 3 spice", "shown on the wheel"] == 6.0
    assert figure.title and all(_axis_labels(figure))


def test_shield_chart_draws_the_death_probabilities_in_house_colours() -> None:
    table = shield_examples_table()
    figure = shield_examples_chart(table)
    bars = figure.marks[0]
    assert np.allclose(bars.y, [table["P(leader 1 dies)"], table["P(leader 2 dies)"]])
    assert list(bars.colors) == [house_colour(h) for h in table.attrs["houses"]]
    assert figure.title and all(_axis_labels(figure))


def test_plan_heatmap_and_optimal_bars_follow_the_library() -> None:
    case = load_example_case("analysis_arrakeen")
    small = cards_matrix(case)
    heat = plan_matrix_heatmap(small)
    assert np.allclose(heat.marks[0].color, small.payoff("win").to_numpy())
    assert len(set(heat.marks[0].row)) == len(small.rows.labels)
    assert heat.title.endswith("(dials fixed)") and all(_axis_labels(heat))

    full = plan_matrix(case)
    equilibrium = optimal_plans(case, matrix=full)
    chart = optimal_plans_chart(equilibrium)
    support = equilibrium_support(equilibrium)
    bars = chart.marks[0]
    assert np.allclose(bars.y, support["probability"].to_numpy())
    assert list(bars.colors) == [house_colour(house) for house, _ in support.index]
    assert support.loc[case.houses[0], "probability"].sum() == pytest.approx(1.0)
    assert chart.title and all(_axis_labels(chart))


def test_no_card_is_a_visible_none_choice_and_none_resets_it() -> None:
    explorer = BattleWheelExplorer()
    before = list(explorer.outcome_bars.y)
    weapon = explorer.controls[0]["weapon"]
    assert weapon.label == "none"  # a None value would show an empty dropdown
    explorer.set("atreides", weapon="lasgun")
    # the lasgun kills the Harkonnen leader: the bar is labelled in words
    assert list(explorer.outcome_bars.x) == [f"Atreides win · {explorer.case.sides[0].plan.leader.name} alive · "
                                             f"{explorer.case.sides[1].plan.leader.name} dead"]
    explorer.set("atreides", weapon=None)
    assert weapon.label == "none" and explorer.case.sides[0].plan.weapon is None
    assert list(explorer.outcome_bars.y) == before


def test_CARD_SHIELD_3_the_shield_roll_is_an_event_and_names_its_outcome_bars() -> None:
    """Issue 12: a shield roll is listed as an event (who rolls, the faces that get past, the chance) and each
    outcome bar says which faces of the d10 lead to it."""
    from dunenb.analysis.battle_events import shield_rolls

    case = load_example_case("shield_example_4")  # both leaders may pass the other's shield
    explorer = BattleWheelExplorer(case)
    rolls = shield_rolls(case.battle)
    assert {roll.house for roll in rolls} == set(case.houses)
    assert explorer.events.value.count("Shield roll") == 2
    for roll in rolls:
        assert roll.text() in explorer.events.value.replace("&#x27;", "'")
        assert roll.faces == tuple(range(1, 11)) and roll.passes == tuple(range(1, len(roll.passes) + 1))
    labels = list(explorer.outcome_bars.x)
    assert all(label.count(" d10 ") == 2 for label in labels) and len(set(labels)) == len(labels)
    assert any("gets past" in label for label in labels) and any("shield holds" in label for label in labels)


def test_a_battle_without_a_shield_roll_lists_none() -> None:
    explorer = BattleWheelExplorer(load_example_case("lasgun_shield"))
    assert "Shield roll" not in explorer.events.value and "Explosion" in explorer.events.value
