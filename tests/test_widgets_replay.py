"""The replay-and-branch widgets, built headlessly: navigation, branching, views, comparison, saving."""

from __future__ import annotations

from html import escape
from pathlib import Path

from dunenb.bots import make_bot
from dunenb.saves import load_game
from dunenb.widgets.branch_compare import BranchComparison, compare_lines
from dunenb.widgets.replay_browser import GOD_VIEW, ReplayBrowser

TEACHING = Path(__file__).resolve().parent.parent / "data" / "games" / "teaching_game.json"


def test_timeline_turn_jumps_views_and_branching(tmp_path):
    record = load_game(TEACHING)
    browser = ReplayBrowser(record, seed=3)
    assert browser.node == record.leaf()
    browser.to_start()
    browser.next_turn()
    assert browser.state.turn == 2
    browser.next_phase()
    assert (browser.state.turn, browser.state.phase) != (2, "setup")
    browser.viewer.value = "atreides"
    assert "hidden" in browser.panel.value or all(not hs.hand for h, hs in browser.state.houses.items()
                                                  if h != "atreides")
    browser.viewer.value = GOD_VIEW
    while len(browser.alternatives.options) < 2:  # past forced steps (a draw of the top card, ATREIDES-P2 c)
        browser.slider.value += 1
    before = len(record)
    recorded = record.node(browser.line[browser.slider.value + 1]).action
    alternative = next(a for _label, a in browser.alternatives.options if a != recorded)
    child = browser.branch(alternative)
    assert record.node(child).action == alternative and len(record) == before + 1
    end = browser.continue_with_bots(1)
    assert record.state_at(end).turn >= record.state_at(child).turn
    path = tmp_path / "tree.json"
    browser.save(str(path))
    assert len(load_game(path)) == len(record)


def test_branch_comparison_has_both_lines():
    record = load_game(TEACHING)
    browser = ReplayBrowser(record, seed=5)
    browser.to_start()
    browser.next_turn()
    browser.next_turn()
    main_end = record.leaf()
    recorded = record.node(browser.line[browser.slider.value + 1]).action
    browser.branch(next(a for _label, a in browser.alternatives.options if a != recorded))
    branch_end = browser.continue_with_bots(2)
    table = compare_lines(record, main_end, branch_end)
    assert {"spice_a", "spice_b", "cities_owned_a", "cities_owned_b"} <= set(table.columns)
    comparison = BranchComparison(record, main_end, branch_end)
    assert comparison.spice_chart.title and len(comparison.maps) == 2


def test_gap_58_house_view_redacts_last_action_alternatives_and_odds():
    """Issue 15: the House view of the browser shows another House's secret actions as hidden, lists no other
    House's menu and no odds of a secret draw; the god view still shows everything."""
    record = load_game(TEACHING)
    browser = ReplayBrowser(record, seed=3)
    line = browser.line
    kinds = [record.node(n).action.kind if n != record.root else None for n in line]
    secret_draw = next(i for i, n in enumerate(line) if record.node(n).action and kinds[i] == "traitor-draw"
                       and record.node(n).action.house == "harkonnen")
    browser.viewer.value = "atreides"
    browser.go(secret_draw)
    assert "traitor-draw harkonnen (hidden)" in browser.status.value
    browser.go(secret_draw - 1)  # the draw itself: its odds would show the leaders left
    assert browser.alternatives.options == () and browser.play_button.disabled
    other = next(i for i, n in enumerate(line) if record.state_at(n).pending is not None
                 and record.state_at(n).pending.actor not in ("atreides", "chance"))
    browser.go(other)
    assert browser.alternatives.options == ()
    browser.viewer.value = GOD_VIEW
    browser.go(secret_draw)
    assert "traitor-draw harkonnen (hidden)" not in browser.status.value
    assert browser.record_view("atreides").config.seed == 0


def test_a_house_view_shows_other_houses_cards_as_backs_and_traitors_as_counts() -> None:
    """Issue 12 on GAP-58: the House view visibly hides what that House cannot see; the god view shows all."""
    from pathlib import Path

    from dunenb.saves import load_game
    from dunenb.widgets.replay_browser import CARD_BACK, house_panel_html

    record = load_game(Path(__file__).resolve().parent.parent / "data" / "games" / "teaching_game.json")
    node = record.mainline()[200]
    god = house_panel_html(record.state_at(node), None)
    seen = house_panel_html(record.view("atreides").state_at(node), "atreides")
    assert CARD_BACK not in god and "hidden</i>" not in god
    assert seen.count(CARD_BACK) >= 6 + 1 and "5 hidden</i>" in seen  # Harkonnen's 5 traitors, counted
    assert "Atreides view" in seen


def test_the_house_table_names_traitors_by_their_printed_names_not_ids() -> None:
    """Issue 12: the traitors column shows 'Farad'n', never the id 'farad-n'."""
    from pathlib import Path

    from dunenb.action_text import leader_name
    from dunenb.saves import load_game
    from dunenb.widgets.replay_browser import house_panel_html

    record = load_game(Path(__file__).resolve().parent.parent / "data" / "games" / "teaching_game.json")
    state = record.state_at(record.mainline()[200])
    panel = house_panel_html(state, None)
    slips = [(owner, leader) for hs in state.houses.values() for owner, leader in hs.traitors]
    assert slips
    for owner, leader in slips:
        name = leader_name(leader, owner)
        assert name != leader or "-" not in leader
        assert escape(name) in panel
    assert not any(f">{leader}<" in panel or f"{leader}," in panel for _, leader in slips if "-" in leader)


def test_at_a_battle_step_the_browser_draws_both_wheels_and_opens_the_battle_in_the_explorer() -> None:
    """Issue 12: at the step that reveals the plans (BATTLE-13), the battle is shown and can be explored."""
    from pathlib import Path

    from dunenb.saves import load_game
    from dunenb.widgets.replay_browser import ReplayBrowser, revealed_battle

    record = load_game(Path(__file__).resolve().parent.parent / "data" / "games" / "teaching_game.json")
    browser = ReplayBrowser(record)
    index = next(i for i, n in enumerate(browser.line) if revealed_battle(record.state_at(n)) is not None)
    browser.go(index)
    assert "Battle in" in browser.battle.value and browser.battle.value.count("<svg") == 2
    assert browser.battle_button.layout.display is None
    explorer = browser.open_battle()
    detail = revealed_battle(browser.state)
    assert explorer.case.territory == detail.area and explorer.case.defender == detail.defender
    assert abs(float(sum(explorer.outcome_bars.y)) - 1.0) < 1e-9
    browser.go(0)
    assert browser.battle.value == "" and browser.battle_button.layout.display == "none"


def test_branch_choices_are_grouped_by_kind_and_summed_up_in_words() -> None:
    """Issue 12: the choices of one kind sit together in the menu, and a line counts them by kind."""
    from dunenb.engine import new_game
    from dunenb.play import advance
    from dunenb.record import GameRecord
    from dunenb.widgets.replay_browser import ReplayBrowser

    record = GameRecord(new_game(["atreides", "harkonnen"], seed=2).config)
    advance(record, record.root, until="step", seed=2)
    browser = ReplayBrowser(record, seed=2)
    browser.to_start()
    kinds = [action.notation().split(" ", 1)[0] for _label, action in browser.alternatives.options]
    assert kinds == sorted(kinds, key=kinds.index)  # each kind in one block
    assert f"{len(kinds)} choice(s)" in browser.choices_summary.value


def _record_with(kinds: tuple[str, ...]):
    """The first seeded heuristic-bot game (4 Houses, 8 turns) whose main line shows every event kind of ``kinds``."""
    from dunenb.engine import make_config
    from dunenb.record import GameRecord
    from dunenb.simulate import play_game

    houses = ["atreides", "harkonnen", "fremen", "emperor"]
    for seed in range(40):
        config = make_config(houses, seed=seed, turn_limit=8)
        actions, _final = play_game(config, {h: make_bot("heuristic", seed=seed + k) for k, h in enumerate(houses)})
        record = GameRecord(config)
        node = record.root
        for action in actions:
            node = record.add_move(node, action)
        seen = {e.kind for n in record.mainline() for e in record.state_at(n).events}
        if set(kinds) <= seen:
            return record
    raise AssertionError(f"no seeded game shows {kinds}")


def test_CARD_SHIELD_3_the_replay_browser_lists_the_shield_roll_and_the_traitor_call_as_events() -> None:
    """Issue 12: the step of a battle's d10 shows a 'Shield roll' event; a traitor call shows as one too."""
    from dunenb.widgets.replay_browser import ReplayBrowser

    record = _record_with(("battle-d10", "treachery"))
    browser = ReplayBrowser(record)
    for kind, tag in (("battle-d10", "Shield roll"), ("treachery", "Traitor call")):
        index = next(i for i, n in enumerate(browser.line) if any(e.kind == kind for e in record.state_at(n).events))
        browser.go(index)
        assert f"<b>{tag}</b>" in browser.events.value
    browser.go(0)
    assert "Shield roll" not in browser.events.value
