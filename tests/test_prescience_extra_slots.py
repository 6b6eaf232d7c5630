"""A prescience answer names the extra-slot cards (ATREIDES-P1: "a leader with two attacks names both", built-in
weapons included; leaders.md K-6 extra slots, K-12; GAP-138: two kinds joined by '+'), in a game and in a case."""

from __future__ import annotations

from helpers_game import decisions, skip_pre_battle
from test_battle_case_facts import error_of, side, winner
from test_leader_mind_powers import at_plan_of, scene, until

from dunenb.battle.case import parse_case
from dunenb.battle.plans import BattlePlan
from dunenb.battle.sequence import slot_answer
from dunenb.engine import apply_action, check_action
from dunenb.rules.battle_phase import SubmitPlan
from dunenb.rules.pre_battle import AnswerPrescience, AskPrescience, answer_choices

HANDS = {"harkonnen": ("poison-fast", "projectile-distance")}


def _asked(slot="attack"):
    state = until(scene(["atreides", "harkonnen"], hands=HANDS), "atreides", "ATREIDES-P1")
    state = apply_action(state, AskPrescience("atreides", slot))
    while state.pending.kind != "battle-answer":
        state = apply_action(state, decisions(state)[0])
    return state


def test_atreides_p1_gap_138_piter_s_two_attacks_are_one_answer_naming_both():
    """HARKONNEN-L04-b (K-6: 2 distinct attacks) lets Piter carry the poison and the projectile: the Harkonnen may
    answer "poison+projectile", and that answer binds a wheel with both (before, the answer named the main slot
    only, and a wheel answering "poison" could add the projectile unseen)."""
    state = _asked()
    assert "poison+projectile" in answer_choices(state, "harkonnen")
    state = skip_pre_battle(apply_action(state, AnswerPrescience("harkonnen", "poison+projectile")))
    state = at_plan_of(state, "harkonnen", ("duncan-idaho", 1, 0, 0))
    both = SubmitPlan("harkonnen", "piter", 1, 0, 0, "poison-fast", "none", "none", "none", "projectile-distance")
    assert check_action(state, both) is None
    error = check_action(state, SubmitPlan("harkonnen", "piter", 1, 0, 0, "poison-fast", "none"))
    assert error is not None and error.code == "battle/bound-by-voice"


def test_atreides_p1_gap_138_a_single_answer_forbids_the_extra_slot_card():
    state = skip_pre_battle(apply_action(_asked(), AnswerPrescience("harkonnen", "poison")))
    state = at_plan_of(state, "harkonnen", ("duncan-idaho", 1, 0, 0))
    both = SubmitPlan("harkonnen", "piter", 1, 0, 0, "poison-fast", "none", "none", "none", "projectile-distance")
    error = check_action(state, both)
    assert error is not None and error.code == "battle/bound-by-voice"
    assert check_action(state, SubmitPlan("harkonnen", "piter", 1, 0, 0, "poison-fast", "none")) is None


def test_gap_138_the_answer_of_a_plan_names_every_kind_of_its_slot():
    assert slot_answer(BattlePlan(weapon="lasgun", extra_attack="poison-slow"), "attack") == "poison+lasgun"
    assert slot_answer(BattlePlan(defense="shield", extra_defense="snooper"), "defence") == "snooper+shield"
    assert slot_answer(BattlePlan(weapon="krys"), "attack") == "projectile"  # a built-in is named (G-4)
    assert slot_answer(BattlePlan(weapon="worthless"), "attack") is None


def _hwi_case(answer):
    hwi = side("bene-tleilax", "hwi-noree", defense="shield")
    hwi["extra_defense"] = "snooper"
    return {"format": "dunenb.battle/1", "territory": "arsunt", "defender": "atreides",
            "sides": [side("atreides", "duncan-idaho", weapon="projectile-distance"), hwi],
            "prescience": {"by": "atreides", "slot": "defence", "answer": answer}}


def test_atreides_p1_gap_138_case_hwi_noree_s_two_defences_answer_both():
    """TLEILAX-L09-c (K-6: 0 attacks, 2 defences): in a case, the answer naming both defences holds, one naming
    only the main slot is refused."""
    assert winner(_hwi_case("snooper+shield")) in ("atreides", "bene-tleilax")
    assert parse_case(_hwi_case("snooper+shield")).sequence is not None
    assert "the prescience answer was shield, the wheel shows snooper+shield" in error_of(_hwi_case("shield"))
    assert "is not one of" in error_of(_hwi_case("shield+snooper"))  # the slot's order: snooper, shield


def test_gap_138_soak_seed_423_a_leader_disclosed_after_the_answers_can_still_give_them():
    """The bot soak met it: the BG answered 'projectile' (Murbella's karate, a built-in, G-4) and then used
    Bellonda's truth trance (K-13), which discloses her (LC-5 B1) though she cannot carry a projectile: no legal
    plan was left. A trance (and a later answer) is offered only through a leader who can give the answers."""
    from dunenb.soak import run_soak

    report = run_soak(1, start=423, failing_dir=None, progress=False)
    assert report.violations == 0, report.text()
