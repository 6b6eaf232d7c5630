"""The Dune: Imperium widgets, built headlessly: controls set from code redraw with the library's numbers."""

from __future__ import annotations

from pathlib import Path

from dunenb.imperium.analysis import vp_race
from dunenb.imperium.bots import make_bot
from dunenb.imperium.simulate import play_game
from dunenb.widgets import imperium as ui


def test_stepper_follows_the_record():
    final = play_game(["A", "B"], 5, [make_bot("random", 1), make_bot("random", 2)])
    stepper = ui.ImperiumStepper(final)
    assert stepper.state.round == 0
    stepper.next_round()
    assert stepper.state.round == 1 and stepper.state.pending.kind == "turn"
    stepper.next_round()
    assert stepper.state.round == 2
    assert stepper.chart.marks[0].y.tolist() == [list(p.influence) for p in stepper.state.players]
    assert "Round 2" in stepper.board.value
    stepper.back()
    assert stepper.index == stepper.line.index(stepper.line[stepper.index])


def test_conflict_calculator_shows_rewards_and_ties():
    calculator = ui.ConflictCalculator(players=4)
    table = calculator.set([2, 2, 1, 0], [1, 1, 0, 3])
    assert table["reward"].tolist() == [2, 2, 3, None] and table["tie"].tolist() == [True, True, False, False]
    assert calculator.bars.y.tolist() == [5, 5, 2, 0]
    table = calculator.set([2, 2, 1, 0], [1, 1, 0, 3], ["ambush", "", "", ""])
    assert table["reward"].tolist() == [1, 2, 3, None]


def test_deck_odds_panel_and_bad_card():
    panel = ui.DeckOdds("dagger:2, diplomacy:3")
    assert len(panel.top) == 1 and panel.top["probability"].iloc[0] == 1.0
    panel.discard.value = "dagger"
    panel.deck.value = "dagger, diplomacy"
    assert panel.card_bars.y.tolist() == [1.0, 1.0]
    panel.deck.value = "nope"
    assert "imperium/card" in panel.message.value


def test_vp_race_chart():
    race = vp_race(2, players=2, bots=["random"], seed=3)
    assert set(race["round"]) == set(range(1, 11))
    figure = ui.vp_race_chart(race)
    assert "VP race" in figure.title and figure.axes[0].label == "round"


def test_board_shows_leader_powers_and_their_state():
    from dunenb.imperium.save import load_game
    from dunenb.widgets.imperium import board_html

    games = Path(__file__).resolve().parent.parent / "data" / "games" / "imperium"
    state = load_game(games / "four_leaders_heuristic.json")
    html = board_html(state)
    assert "Prescience: knows the top card of his deck" in html and "Masterstroke used" in html
