"""The pre-reveal step machine (seed 003 FAQ 2-12, digest section 19, GAP-44)."""

from __future__ import annotations

import pytest

from dunenb.battle.plans import BattlePlan
from dunenb.battle.roster import inline_leader
from dunenb.battle.sequence import (
    STEPS,
    KaramaAgainstAbility,
    Pass,
    PrescienceAnswer,
    PrescienceQuestion,
    Reveal,
    VoiceCommand,
    advance,
    plan_violations,
    start_sequence,
    step_summary,
)
from dunenb.battle.wheel import Dial
from dunenb.errors import IllegalActionError

HOUSES = ("atreides", "bene-gesserit")


def plan(weapon=None, defense=None):
    return BattlePlan(Dial(2), inline_leader("L", 4), weapon, defense)


def to_reveal(voice=None, question=None, answer=None):
    seq = start_sequence(HOUSES, voice_holder="bene-gesserit", prescience_holder="atreides")
    seq = advance(seq, Pass())
    seq = advance(seq, voice or Pass())
    seq = advance(seq, question or Pass())
    if question is not None:
        seq = advance(seq, answer)
    return seq


def test_FAQ_2_order_of_steps_follows_seed_003():
    assert STEPS[:7] == ("karama-abilities", "voice", "karama-voice", "prescience", "karama-prescience",
                         "prescience-answer", "reveal")


def test_FAQ_2_1_karama_against_abilities_comes_first():
    seq = start_sequence(HOUSES, voice_holder="bene-gesserit")
    seq = advance(seq, KaramaAgainstAbility("atreides", "BG-L02"))
    assert seq.step == "karama-abilities" and seq.karamas[0].against == "BG-L02"
    assert advance(seq, Pass()).step == "voice"
    with pytest.raises(IllegalActionError):
        advance(advance(seq, Pass()), KaramaAgainstAbility("atreides", "x"))


def test_FAQ_2_3_and_2_5_variant_karama_against_voice_and_prescience_is_shown_at_reveal():
    seq = to_reveal(VoiceCommand("bene-gesserit", "atreides", "forbid", "poison"))
    assert seq.step == "reveal"
    assert step_summary(seq)["karama-voice"].startswith("shown at the reveal")
    # KARAMA-25: a poison and a Karama shown together at the reveal disobey the Voice
    done = advance(seq, Reveal(plans=(("atreides", plan("poison-fast")), ("bene-gesserit", plan())),
                               hands=(("atreides", ("poison-fast", "karama")),),
                               karama_shown=(("atreides", "voice"),)))
    assert done.step == "done"


def test_FAQ_4_voice_binds_the_final_plan():
    seq = to_reveal(VoiceCommand("bene-gesserit", "atreides", "forbid", "poison"))
    with pytest.raises(IllegalActionError) as error:
        advance(seq, Reveal(plans=(("atreides", plan("poison-slow")), ("bene-gesserit", plan()))))
    assert error.value.code == "sequence/binding"


def test_FAQ_4_prescience_answer_binds_the_final_plan_unless_karama_40():
    seq = to_reveal(question=PrescienceQuestion("atreides", "bene-gesserit", "defence"),
                    answer=PrescienceAnswer("bene-gesserit", "shield"))
    ok = advance(seq, Reveal(plans=(("atreides", plan()), ("bene-gesserit", plan(defense="shield")))))
    assert ok.step == "done"
    with pytest.raises(IllegalActionError):
        advance(seq, Reveal(plans=(("atreides", plan()), ("bene-gesserit", plan(defense="snooper")))))
    released = advance(seq, Reveal(plans=(("atreides", plan()), ("bene-gesserit", plan(defense="snooper"))),
                                   karama_shown=(("bene-gesserit", "prescience"),)))
    assert released.step == "done"


def test_FAQ_9_voice_may_force_or_forbid_the_lasgun():
    seq = to_reveal(VoiceCommand("bene-gesserit", "atreides", "force", "lasgun"))
    assert plan_violations(seq, "atreides", plan(), hand=("lasgun",)) == ("the Voice forced lasgun",)


def test_FAQ_10_voice_cannot_name_worthless_cards():
    seq = advance(start_sequence(HOUSES, voice_holder="bene-gesserit"), Pass())
    with pytest.raises(IllegalActionError) as error:
        advance(seq, VoiceCommand("bene-gesserit", "atreides", "forbid", "worthless"))
    assert error.value.code == "sequence/voice-kind"


def test_FAQ_12_who_cannot_obey_the_voice_plays_freely():
    seq = to_reveal(VoiceCommand("bene-gesserit", "atreides", "force", "poison"))
    assert plan_violations(seq, "atreides", plan("lasgun"), hand=("lasgun",)) == ()


def test_GAP_44_truth_trance_does_not_bind_and_plans_may_change_until_reveal():
    # there is no truth-trance step: only the Voice and the prescience constrain the final plan
    seq = to_reveal()
    done = advance(seq, Reveal(plans=(("atreides", plan("lasgun")), ("bene-gesserit", plan("poison-fast")))))
    assert done.revealed is not None


def test_steps_without_holder_are_skipped():
    seq = advance(start_sequence(HOUSES), Pass())
    assert seq.step == "reveal"
