"""Notebook widgets: the play table, the keep advisor and the charts work without a browser."""

from __future__ import annotations

import pytest

from dunenb.iron_die.results import CHALLENGES
from dunenb.widgets.iron_die import (
    IronDieTable,
    KeepAdvisor,
    advice_table,
    dice_svg,
    distribution_chart,
    outcome_distribution,
)


def test_table_plays_a_whole_game_with_the_advice() -> None:
    table = IronDieTable(seed=11)
    assert table.state.current_player == 0 and table.state.phase == "decide"
    moves = 0
    while table.play_advice():
        moves += 1
        assert moves < 500
    assert table.state.is_over and max(table.state.power) == 5
    assert "wins the game" in table.status.value
    table.new_game(12)
    assert not table.state.is_over and table.log[0] == "New game (seed 12)."


def test_table_buttons_toggle_and_illegal_moves_show_a_message() -> None:
    table = IronDieTable(seed=3)
    state = table.state
    for index in range(5):
        table.toggle(index)
    assert table.selection() == state.dice
    assert not table.reroll()  # keeping all five dice is not a reroll
    assert "keep-all" in table.message and table.state == state
    table.hint_box.value = True
    assert table.hint.value.startswith("Optimal:")


def test_advisor_and_tables() -> None:
    advisor = KeepAdvisor("6,6,4,4,2", 2, "faith")
    assert list(advisor.table.columns) == ["keep", "reroll", "value", "exact"] and len(advisor.table) == 18
    advisor.target.value = "nonsense"
    assert advisor.update().empty and "iron-die/result" in advisor.message.value
    table = advice_table((6, 6, 4, 4, 2), 2)
    assert table.iloc[0]["keep"] == "6,6" and table["value"].is_monotonic_decreasing


@pytest.mark.parametrize("challenge", CHALLENGES)
def test_distributions_and_charts(challenge: str) -> None:
    table = outcome_distribution(challenge)
    assert table["probability"].sum() == pytest.approx(1.0)
    figure = distribution_chart(challenge)
    assert challenge.capitalize() in figure.title and figure.axes[1].label == "probability"
    assert dice_svg((1, 2, 3)).count("<circle") == 6
