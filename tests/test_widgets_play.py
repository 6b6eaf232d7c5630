"""The learn-by-playing widgets (issue 16 item 3), driven headlessly through the widget API only."""

from __future__ import annotations

import json
import statistics

from dunenb.play_forms import is_yes_no, shape
from dunenb.play_session import PlaySession, rule_entries, rules_in
from dunenb.saves import load_game
from dunenb.widgets.play_game import PlayGame


def _choose(game: PlayGame, turn: int):
    """A learner's pick: a form with controls on even decisions, a button (pass, end) otherwise."""
    own = [c for c in game.form_controls if not c.form.anytime]
    buttons = [c for c in own if c.form.is_button]
    forms = [c for c in own if not c.form.is_button]
    if buttons and (turn % 2 or not forms):
        return buttons[0]
    return forms[0]


def test_a_short_game_plays_to_its_end_through_the_widgets(tmp_path):
    game = PlayGame(size=300)
    assert game.session is None and game.undo_button.disabled  # a clean starting state
    game.house.value = "atreides"
    game.opponents.value = ("harkonnen",)
    game.turns.value = 2
    game.seed.value = 3
    game.start_button.click()
    assert game.session.human == "atreides" and game.form_controls
    game.why_button.click()
    assert "SETUP-2" in game.explain.value
    game.hint_button.click()
    assert "Hint" in game.explain.value
    first = game.form_controls[0]
    first.set(position=first.form.options(0, ())[-1][1])
    first.button.click()
    game.undo_button.click()
    assert game.session.state.pending.kind == "start"
    steps = 0
    while not game.session.is_over:
        controls = _choose(game, steps)
        if controls.kind == "plan":
            game.hint_button.click()
            assert "possible plans wins" in game.explain.value
        controls.button.click()
        steps += 1
        assert steps < 400
    assert "game is over" in game.status.value
    game.save_folder = str(tmp_path)
    game.save_button.click()
    saved = load_game(game.saved_path)
    assert saved.state_at(saved.leaf()).is_over  # the line played (not the undone start) is the main line
    from dunenb.widgets.replay_browser import ReplayBrowser

    browser = ReplayBrowser(saved)  # reopened as in the replay notebook
    assert browser.state.is_over and "03_replay_and_branch" in game.explain.value
    times = game.decision_times
    print(f"\ndecision (click -> new position shown): median {statistics.median(times) * 1000:.0f} ms, "
          f"worst {max(times) * 1000:.0f} ms over {len(times)}; bot reply: median "
          f"{statistics.median(game.session.bot_times) * 1000:.1f} ms, worst {max(game.session.bot_times) * 1000:.0f}"
          f" ms over {len(game.session.bot_times)}")


def test_play_the_hint_sets_the_controls_and_plays():
    game = PlayGame(size=300)
    game.seed.value, game.turns.value = 3, 1
    game.start_button.click()
    hint = game.session.hint()
    game.play_hint_button.click()
    assert hint in game.session.record.actions_to(game.session.node)


def test_house_view_hides_the_other_hands_unless_the_god_view():
    game = PlayGame(size=300)
    game.seed.value, game.turns.value = 5, 1
    game.start_button.click()
    session = game.session
    while not session.is_over and session.state.phase in ("setup",):
        game.form_controls[0].button.click()
    other = session.seen.houses["harkonnen"]
    assert all(card == "hidden" for card in other.hand)
    game.god.value = True
    assert session.seen.houses["harkonnen"].hand == session.state.houses["harkonnen"].hand


def test_a_refused_action_shows_the_rule_text():
    session = PlaySession(["atreides", "harkonnen"], "atreides", seed=3, turn_limit=1)
    from dunenb.actions import ChooseStart

    refused = session.play(ChooseStart("harkonnen", 2))
    assert refused is not None and refused.error.code == "action/not-your-turn"
    assert rules_in("the price (LAND-1, GAP-7a)") == ["LAND-1", "GAP-7a"]
    assert [e.id for e in rule_entries(["LAND-1", "NOPE-1"])] == ["LAND-1"]


def test_landing_form_shows_territory_sector_tokens_price_and_payee():
    session = PlaySession(["atreides", "guild"], "atreides", seed=3, turn_limit=2)
    for _ in range(200):
        forms = session.forms()
        land = next((f for f in forms if f.kind == "land"), None)
        if land is not None:
            break
        own = [f for f in forms if not f.anytime]
        pick = next((f for f in own if f.is_button), own[0])
        session.play(pick.pick(pick.first_choice()) if not pick.is_button else pick.actions[0])
    assert land is not None
    assert [s.label for s in land.fields] == ["Territory", "Sector", "Tokens", "Marked tokens"]
    note = land.note(land.actions[0])
    assert "spice, paid to the Guild" in note and "LAND-1" in note
    move = next((f for f in forms if f.kind == "move"), None)
    if move is not None:
        assert [s.label for s in move.fields][:3] == ["From", "To", "Route"]
    assert not is_yes_no(shape(session.state, []))


def test_every_complete_choice_of_a_form_is_in_its_menu():
    session = PlaySession(["atreides", "harkonnen"], "atreides", seed=3, turn_limit=1)
    form = session.forms()[0]
    for _label, value in form.options(0, ()):
        assert form.pick((value,)) in form.actions
    assert json.dumps([label for label, _ in form.options(0, ())])


def test_eight_houses_and_the_fremen_split_read_in_words():
    session = PlaySession(["fremen", "atreides", "harkonnen", "emperor", "guild", "dispersion", "bene-gesserit",
                           "bene-tleilax"], "fremen", seed=4, turn_limit=1)
    for _ in range(10):
        form = next(f for f in session.forms() if not f.anytime)
        if form.kind == "place":
            break
        session.play(form.actions[0] if form.is_button else form.pick(form.first_choice()))
    assert form.kind == "place" and form.options(0, ())[0][0].startswith("The Fremen place 10 tokens")
    assert "Turn 1" in session.what_now()


def test_a_stale_control_is_refused_with_the_rule_text():
    game = PlayGame(size=300)
    game.seed.value, game.turns.value = 3, 1
    game.start_button.click()
    stale = game.form_controls[0]
    stale.button.click()  # the start position is chosen: this control now belongs to a past decision
    refused = game.play(stale)
    assert refused is not None and refused.rules
    assert "Refused" in game.explain.value and refused.rules[0].id in game.explain.value


def test_traitor_4_a_house_view_lists_the_houses_own_traitor_draws():
    """TRAITOR-4: at the traitor pick, a House's view hides the others' draws but keeps its own, so a decision
    (the hint) can be made from the view; before, the hidden entries broke the menu (ValueError)."""
    from dunenb.engine import legal_actions, view

    session = PlaySession(["atreides", "harkonnen", "emperor"], "atreides", seed=1, turn_limit=1)
    while session.state.pending.kind != "traitor-pick":
        form = next(f for f in session.forms() if not f.anytime)
        session.play(form.actions[0] if form.is_button else form.pick(form.first_choice()))
    seen = legal_actions(view(session.state, "atreides"))
    assert seen == legal_actions(session.state)
    assert session.hint() in seen
