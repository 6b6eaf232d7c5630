"""Guided lessons (issue 16 item 4): every scene comes up, stops at the learner's decision, and explains."""

from __future__ import annotations

import pytest

from dunenb.lessons import LESSONS, build, outcome
from dunenb.widgets.play_lessons import LessonPlayer

EXPECTED = {"storm": "dial", "worm": "offer", "landing": "land", "traitor": "traitor-call", "karama": "plan"}


@pytest.mark.parametrize("key", sorted(LESSONS))
def test_each_scene_stops_at_its_decision_and_has_rule_texts(key):
    lesson = LESSONS[key]
    session = build(lesson)
    assert session.to_act == lesson.human
    assert EXPECTED[key] in {f.kind for f in session.forms()}
    assert lesson.rule_entries() and all(entry.text for entry in lesson.rule_entries())


def test_karama_scene_offers_a_karama_on_the_wheel():
    session = build(LESSONS["karama"])
    plan = next(f for f in session.forms() if f.kind == "plan")
    karama = [spec.name for spec in plan.fields].index("karama")
    assert any(a.karama not in ("none", "") for a in plan.actions) and karama == 6


def test_lesson_player_explains_the_traitor_call_with_the_rule_text():
    player = LessonPlayer(size=300)
    assert player.game.session is None  # a clean starting state until the learner starts a lesson
    player.choice.value = "traitor"
    player.start_button.click()
    assert "traitor" in player.question.value.lower()
    call = next(c for c in player.game.form_controls if c.kind == "traitor-call")
    call.button.click()
    assert "What happened" in player.answer.value and "TRAITOR-9" in player.answer.value
    lines, rules = outcome(player.lesson, player.game.session, 0)
    assert lines and rules


def test_storm_lesson_shows_the_storm_moving():
    player = LessonPlayer(size=300)
    player.start("storm")
    dial = next(c for c in player.game.form_controls if c.kind == "dial")
    dial.set(value=dial.form.options(1, dial.values[:1])[-1][1])
    dial.button.click()
    assert "STORM-6" in player.answer.value


def test_battle_plan_controls_hint_with_exact_odds_then_play():
    player = LessonPlayer(size=300)
    player.start("karama")
    plan = next(c for c in player.game.form_controls if c.kind == "plan")
    assert [d.description for d in plan.dropdowns][:2] == ["Leader", "Tokens dialled"]
    regular = plan.dropdowns[1]
    regular.value = regular.options[-1][1]  # dial the whole army: the later fields follow
    assert plan.action() in plan.form.actions
    player.game.hint_button.click()
    assert "possible plans wins with probability" in player.game.explain.value
    plan.button.click()
    assert "What happened" in player.answer.value


def test_battle_hint_draws_the_odds_chart():
    player = LessonPlayer(size=300)
    player.start("karama")
    assert player.game.odds_chart.layout.display == "none"
    player.game.hint_button.click()
    assert player.game.odds_chart.layout.display is None
    assert sum(player.game.odds_chart.marks[0].y) > 0 and player.game.odds_chart.title
