"""leaders.md K-11 VOICE ``scope+`` (BG-L02-b Darwi, D-25): in her battle the BG Voice may also name the
"worthless" or the "Karama" kind; without her it may not (FAQ 10)."""

from __future__ import annotations

from helpers_game import decisions, events_of, skip_pre_battle
from test_battle_case_facts import error_of, side
from test_leader_mind_powers import at_plan_of, scene, until
from test_powers_pre_battle import open_battle, pass_windows

from dunenb.battle.case import parse_case
from dunenb.engine import apply_action, check_action
from dunenb.rules.battle_context import context_of
from dunenb.rules.battle_phase import SubmitPlan
from dunenb.rules.pre_battle import UseVoice

BG, GUILD = "bene-gesserit", "guild"
HAND = ("worthless", "karama", "poison-fast", "shield")


def _kinds(state):
    return {(a.mode, a.card_kind) for a in decisions(state) if isinstance(a, UseVoice)}


def _voiced(mode, kind):
    """BG-P1 in Darwi's battle (she may lead it) names ``kind``; the Guild is asked for its plan."""
    state = until(scene([BG, GUILD], hands={GUILD: HAND}), BG, "BG-P1")
    assert {("forbid", "worthless"), ("force", "karama")} <= _kinds(state)
    state = apply_action(state, UseVoice(BG, mode, kind))
    return state


def test_bg_l02_b_darwi_voice_names_worthless_and_discloses_her():
    """D-25: forced "worthless", the Guild must put its worthless card in a slot; naming it used Darwi's entry,
    so she is disclosed (LC-5 B1) and the BG plan must name her."""
    state = _voiced("force", "worthless")
    voice = events_of(state, "voice")[0]
    assert voice.data["card_kind"] == "worthless" and "BG-L02-b" in voice.data["powers"]
    assert [(s.house, s.leader, s.power) for s in context_of(state).shown] == [(BG, "darwi", "BG-L02-b")]
    state = at_plan_of(skip_pre_battle(state), GUILD, ("darwi", 1, 0, 0))
    error = check_action(state, SubmitPlan(GUILD, "soo-soo", 1, 0, 0, "poison-fast", "shield"))
    assert error is not None and error.code == "battle/bound-by-voice" and "forced worthless" in str(error)
    assert check_action(state, SubmitPlan(GUILD, "soo-soo", 1, 0, 0, "poison-fast", "worthless")) is None
    assert check_action(state, SubmitPlan(GUILD, "soo-soo", 1, 0, 0, "worthless", "shield")) is None


def test_bg_l02_b_darwi_voice_forbids_and_forces_karama():
    """D-25: forbidden, no Karama on the wheel (a KARAMA-25 against this very command excepted); forced, the
    Karama held must go on the wheel, where it may block nothing."""
    state = at_plan_of(skip_pre_battle(_voiced("forbid", "karama")), GUILD, ("darwi", 1, 0, 0))
    error = check_action(state, SubmitPlan(GUILD, "soo-soo", 1, 0, 0, "poison-fast", "shield", "karama"))
    assert error is not None
    assert check_action(state, SubmitPlan(GUILD, "soo-soo", 1, 0, 0, "poison-fast", "shield",
                                          "karama", "KARAMA-25")) is None
    state = at_plan_of(skip_pre_battle(_voiced("force", "karama")), GUILD, ("darwi", 1, 0, 0))
    error = check_action(state, SubmitPlan(GUILD, "soo-soo", 1, 0, 0, "poison-fast", "shield"))
    assert error is not None and error.code == "battle/bound-by-voice" and "forced karama" in str(error)
    assert check_action(state, SubmitPlan(GUILD, "soo-soo", 1, 0, 0, "poison-fast", "shield", "karama")) is None
    assert any(a.karama == "karama" for a in decisions(state) if isinstance(a, SubmitPlan))


def test_bg_l02_b_without_darwi_the_voice_may_not_name_worthless_or_karama():
    """FAQ 10: with Darwi in the tanks the BG Voice names only the six kinds."""
    state = open_battle([BG, GUILD], [(BG, "arsunt", 5, 3), (GUILD, "arsunt", 5, 3)], {GUILD: HAND},
                        dead={BG: "darwi"})
    state = until(pass_windows(state), BG, "BG-P1")
    assert not {kind for _mode, kind in _kinds(state)} & {"worthless", "karama"}
    for mode, kind in (("force", "worthless"), ("forbid", "karama")):
        error = check_action(state, UseVoice(BG, mode, kind))
        assert error is not None and error.code == "battle/voice"


def test_bg_l02_b_case_darwi_on_the_wheel_widens_the_voice():
    """A battle case: with Darwi on the BG wheel the stated Voice may force "worthless" (the Guild holding one must
    play it) or forbid "karama"; with Alma there it may not (FAQ 10)."""
    guild = side(GUILD, "soo-soo", weapon="poison-fast", hand=["poison-fast", "worthless"])
    raw = {"format": "dunenb.battle/1", "territory": "arsunt", "defender": BG,
           "voice": {"by": BG, "mode": "force", "kind": "worthless"}}
    assert "forced worthless" in error_of({**raw, "sides": [side(BG, "darwi"), guild]})
    obeys = side(GUILD, "soo-soo", weapon="poison-fast", defense="worthless", hand=["poison-fast", "worthless"])
    case = parse_case({**raw, "sides": [side(BG, "darwi"), obeys]})
    assert case.sequence.voices[0].scope == "BG-L02-b"
    assert "kind" in error_of({**raw, "sides": [side(BG, "alma"), obeys]})
    forbid = {**raw, "voice": {"by": BG, "mode": "forbid", "kind": "karama"}}
    assert parse_case({**forbid, "sides": [side(BG, "darwi"), obeys]}).sequence.voices[0].kind == "karama"
