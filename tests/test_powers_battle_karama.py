"""houses.md G-9 with several holders (ATREIDES-M2 Paul's Voice, GUILD-M2 the Navigator's prescience), the
answers (GAP-78), the leader disclosure (GAP-79), the secret Karamas shown at the reveal (KARAMA-25, KARAMA-43,
KARAMA-40, KARAMA-18; GAP-80) and the Karamas played when a battle starts (KARAMA-21, KARAMA-22, KARAMA-23,
KARAMA-42; GAP-81). Each test plays a scene where the power or the Karama changes the outcome."""

from __future__ import annotations

import dataclasses

import pytest
from helpers_game import decisions, events_of, pass_estimates, pass_unable, roll_b1
from test_powers_pre_battle import battle, open_battle, pass_leader_sources, pass_windows

from dunenb.actions import Pass
from dunenb.bots.heuristic import HeuristicBot
from dunenb.engine import apply_action, check_action, view
from dunenb.rules.battle_context import context_of
from dunenb.rules.battle_phase import SubmitPlan
from dunenb.rules.karama_window import UseKarama
from dunenb.rules.pre_battle import AnswerPrescience, AskPrescience, CommitLeader, KnowLeader, UseVoice
from dunenb.rules.secrecy import viewers


def play(state, *actions):
    """Apply ``actions`` in turn, passing the traitor calls and the secondary leaders' Voices and questions
    (leaders.md K-11, K-12: these scenes are about the House powers); the events of every step are kept."""
    said = state.events
    for action in actions:
        if action.kind != "leader-pre-battle":
            state = pass_estimates(state)  # leaders.md K-16 B3 (Tufir) passed
        assert state.pending.actor == action.house, (state.pending, action)
        state = pass_leader_sources(pass_unable(apply_action(state, action), ("leader-buy-off", "traitor-call")))
        said += state.events
    return dataclasses.replace(state, events=said)


def winner(state):
    return events_of(state, "battle-outcome")[0].data["winner"]


def killed(state, house):
    return [e.data["leader"] for e in events_of(state, "leader-killed") if e.data["house"] == house]


# --- ATREIDES-M2: Paul's Voice (and the disclosure, GAP-79) ---------------------------------------------

PAUL_SCENE = (["atreides", "harkonnen"], [("atreides", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 3)],
              {"harkonnen": ("poison-fast",)})


def _paul(voice, *, karama=False):
    houses, forces, hands = PAUL_SCENE
    if karama:
        hands = {"harkonnen": ("poison-fast", "karama")}
    state = battle(houses, forces, hands)
    assert (state.pending.kind, state.pending.actor) == ("battle-voice", "atreides")
    state = pass_estimates(play(state, voice, Pass("atreides")))  # then no prescience question, no K-16 estimate
    assert state.pending.kind == "battle-plan"
    return state


def test_ATREIDES_M2_pauls_voice_forbidding_poison_saves_paul_and_wins():
    without = play(_paul(Pass("atreides")), SubmitPlan("atreides", "paul", 1, 0, 0),
                   SubmitPlan("harkonnen", "feyd-rautha", 1, 0, 0, "poison-fast"))
    assert killed(without, "atreides") == ["paul"] and winner(without) == "harkonnen"
    voiced = _paul(UseVoice("atreides", "forbid", "poison"))
    assert [e.data["power"] for e in events_of(voiced, "voice")] == ["ATREIDES-M2"]
    voiced = play(voiced, SubmitPlan("atreides", "paul", 1, 0, 0))
    error = check_action(voiced, SubmitPlan("harkonnen", "feyd-rautha", 1, 0, 0, "poison-fast"))
    assert error is not None and error.code == "battle/bound-by-voice"
    voiced = play(voiced, SubmitPlan("harkonnen", "feyd-rautha", 1, 0, 0))
    assert killed(voiced, "atreides") == [] and winner(voiced) == "atreides"  # 1 + Paul against 1 + Feyd


def test_ATREIDES_M2_GAP_79_pauls_voice_discloses_that_paul_leads():
    state = _paul(UseVoice("atreides", "forbid", "poison"))
    assert events_of(state, "leader-disclosed")[0].data == {"house": "atreides", "leader": "paul",
                                                              "power": "ATREIDES-M2", "powers": ("ATREIDES-M2",)}
    error = check_action(state, SubmitPlan("atreides", "duncan-idaho", 1, 0, 0))
    assert error is not None and error.code == "battle/leader-disclosed" and "paul" in str(error)
    assert {a.leader for a in decisions(state) if a.kind == "plan"} == {"paul"}


def test_ATREIDES_M2_is_not_offered_when_paul_is_dead():
    houses, forces, hands = PAUL_SCENE
    state = open_battle(houses, forces, hands, dead={"atreides": "paul"})
    while state.pending.kind == "karama-window":
        state = apply_action(state, Pass(state.pending.actor))
    voices = context_of(state).sequence.voice_holders if state.pending.kind == "battle-voice" else ()
    assert ("atreides", "ATREIDES-M2") not in voices  # G-7: the main-leader power died with him


def test_KARAMA_43_a_karama_hidden_on_the_wheel_disobeys_pauls_voice_and_kills_paul():
    state = _paul(UseVoice("atreides", "forbid", "poison"), karama=True)
    state = play(state, SubmitPlan("atreides", "paul", 1, 0, 0))
    plan = SubmitPlan("harkonnen", "feyd-rautha", 1, 0, 0, "poison-fast", karama="karama", against="KARAMA-43")
    assert check_action(state, plan) is None
    assert any(a.kind == "plan" and a.against == "KARAMA-43" for a in decisions(state))
    state = play(state, plan)
    shown = events_of(state, "karama")
    assert shown and shown[0].data["karama"] == "KARAMA-43" and shown[0].data["power"] == "ATREIDES-M2"
    assert killed(state, "atreides") == ["paul"] and winner(state) == "harkonnen"
    assert "karama" in state.treachery_discard and "karama" not in state.houses["harkonnen"].hand  # KARAMA-2


def test_KARAMA_43_an_unknown_or_useless_use_on_the_wheel_is_refused():
    state = _paul(Pass("atreides"), karama=True)
    state = play(state, SubmitPlan("atreides", "paul", 1, 0, 0))
    error = check_action(state, SubmitPlan("harkonnen", "feyd-rautha", 1, 0, 0, karama="karama",
                                           against="KARAMA-43"))
    assert error is not None and error.code == "battle/karama-against"  # no Voice binds it


# --- BG-P1 with KARAMA-25, and the secrecy of the wheel Karama ------------------------------------------

BG_SCENE = (["bene-gesserit", "harkonnen", "emperor"],
            [("bene-gesserit", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 3), ("emperor", "faille-rouge", 7, 3)],
            {"harkonnen": ("poison-fast", "karama")})


def test_KARAMA_25_the_karama_hidden_against_the_bg_voice_is_seen_by_nobody_before_the_reveal():
    houses, forces, hands = BG_SCENE
    state = battle(["harkonnen", "bene-gesserit", "emperor"], [forces[1], forces[0], forces[2]], hands)
    assert context_of(state).defender == "harkonnen"  # it plans first: its wheel waits hidden
    state = play(state, UseVoice("bene-gesserit", "forbid", "poison"))
    plan = SubmitPlan("harkonnen", "feyd-rautha", 1, 0, 0, "poison-fast", karama="karama", against="KARAMA-25")
    assert viewers(state, plan) == ("harkonnen",)  # the plan, Karama included, is a secret action (GAP-58)
    state = play(state, plan)
    for other in ("bene-gesserit", "emperor"):
        seen = view(state, other)
        assert dict(context_of(seen).secrets)["harkonnen"] == "hidden"
        assert not [e for e in seen.events if e.kind == "karama"]
    state = play(state, SubmitPlan("bene-gesserit", "darwi", 1, 0, 0))
    assert [e.data["karama"] for e in events_of(state, "karama")] == ["KARAMA-25"]  # shown at the reveal
    assert killed(state, "bene-gesserit") == ["darwi"] and winner(state) == "harkonnen"


def test_KARAMA_25_without_the_karama_the_voice_holds():
    state = battle(*BG_SCENE)
    state = play(state, UseVoice("bene-gesserit", "forbid", "poison"), SubmitPlan("bene-gesserit", "darwi", 1, 0, 0))
    error = check_action(state, SubmitPlan("harkonnen", "feyd-rautha", 1, 0, 0, "poison-fast", karama="karama"))
    assert error is not None  # a Karama against the treachery (KARAMA-45) does not release the Voice


# --- GUILD-M2 and KARAMA-18; several questions (GAP-78) -------------------------------------------------

GUILD_SCENE = (["guild", "harkonnen"], [("guild", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 3)],
               {"harkonnen": ("poison-fast", "projectile-distance", "karama"), "guild": ("snooper", "shield")})


def test_GUILD_M2_the_navigator_asks_only_in_the_guilds_own_battle_turn():
    state = battle(*GUILD_SCENE)
    assert context_of(state).defender == "guild"
    assert (state.pending.kind, state.pending.actor) == ("battle-prescience", "guild")
    houses, forces, hands = GUILD_SCENE
    attacked = battle(["harkonnen", "guild"], [forces[1], forces[0]], hands)
    assert context_of(attacked).defender == "harkonnen" and attacked.pending.kind == "battle-plan"


def _guild(answer, harkonnen_plan):
    # Tolric in the tanks: with leaders.md K-17's blast (GUILD-L05-d) the bot would rather let him die to kill
    # Feyd than defend him; these scenes are about the defence the answer makes the Guild pick
    state = pass_leader_sources(pass_windows(open_battle(*GUILD_SCENE, dead={"guild": "tolric"})))
    state = play(state, AskPrescience("guild", "attack"))
    assert events_of(state, "prescience")[0].data["power"] == "GUILD-M2"
    state = play(state, AnswerPrescience("harkonnen", answer))
    choice = HeuristicBot().choose(view(state, "guild"))
    state = play(state, choice, harkonnen_plan)
    return state, choice


def test_GUILD_M2_the_answer_lets_the_guild_pick_the_defence_that_saves_its_leader():
    state, choice = _guild("poison", SubmitPlan("harkonnen", "feyd-rautha", 1, 0, 0, "poison-fast"))
    assert choice.defense == "snooper"
    assert killed(state, "guild") == []


def test_KARAMA_18_a_karama_shown_at_the_reveal_plays_another_card_than_the_answer():
    plan = SubmitPlan("harkonnen", "feyd-rautha", 1, 0, 0, "projectile-distance", karama="karama",
                      against="KARAMA-18")
    state, choice = _guild("poison", plan)
    assert choice.defense == "snooper"  # the Guild believed the answer
    assert killed(state, "guild") and [e.data["power"] for e in events_of(state, "karama")] == ["GUILD-M2"]


def test_G_9_GAP_78_two_questions_are_both_stated_then_both_answered_unseen_until_both_are_given():
    state = battle(["guild", "atreides"], [("guild", "arsunt", 5, 3), ("atreides", "arsunt", 5, 3)],
                   {"guild": ("shield",), "atreides": ("poison-fast",)})
    state = play(state, Pass("atreides"))  # Paul's Voice (G-9 step 2) before any question
    assert (state.pending.kind, state.pending.actor) == ("battle-prescience", "guild")
    state = play(state, AskPrescience("guild", "attack"))
    assert (state.pending.kind, state.pending.actor) == ("battle-prescience", "atreides")
    state = play(state, AskPrescience("atreides", "defence"))
    assert (state.pending.kind, state.pending.actor) == ("battle-answer", "atreides")  # the Guild's question first
    state = play(state, AnswerPrescience("atreides", "poison"))
    assert context_of(view(state, "guild")).sequence.answers[0].kind == "hidden"  # not before its own answer
    assert context_of(view(state, "atreides")).sequence.answers[0].kind == "poison"
    state = play(state, AnswerPrescience("guild", "shield"))
    assert [a.kind for a in context_of(view(state, "guild")).sequence.answers] == ["poison", "shield"]
    assert [a.kind for a in context_of(view(state, "atreides")).sequence.answers] == ["poison", "shield"]
    state = pass_estimates(state)  # leaders.md K-16 B3 (Tufir) passed
    assert state.pending.kind == "battle-plan" and state.pending.actor == "guild"  # the defender plans first
    assert {a.defense for a in decisions(state) if a.kind == "plan"} == {"shield"}


# --- ATREIDES-P1 with KARAMA-40 --------------------------------------------------------------------------

def test_KARAMA_40_the_house_asked_answers_poison_and_shows_a_projectile_with_a_karama():
    state = battle(["atreides", "harkonnen"], [("atreides", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 3)],
                   {"harkonnen": ("poison-fast", "projectile-distance", "karama"), "atreides": ("snooper", "shield")})
    state = play(state, Pass("atreides"), AskPrescience("atreides", "attack"),
                 AnswerPrescience("harkonnen", "poison"), SubmitPlan("atreides", "duncan-idaho", 1, 0, 0,
                                                                      defense="snooper"))
    honest = check_action(state, SubmitPlan("harkonnen", "feyd-rautha", 1, 0, 0, "projectile-distance"))
    assert honest is not None and "answer was poison" in str(honest)
    state = play(state, SubmitPlan("harkonnen", "feyd-rautha", 1, 0, 0, "projectile-distance", karama="karama",
                                   against="KARAMA-40"))
    assert killed(state, "atreides") == ["duncan-idaho"] and winner(state) == "harkonnen"
    assert [e.data["power"] for e in events_of(state, "karama")] == ["ATREIDES-P1"]


# --- the Karamas played when a battle starts (GAP-81) ----------------------------------------------------

DAMA = (["atreides", "dispersion"], [("atreides", "arsunt", 5, 8), ("dispersion", "arsunt", 5, 8)])


def _dama_battle(use):
    state = open_battle(*DAMA, {"atreides": ("karama",)})
    assert (state.pending.kind, state.pending.actor) == ("karama-window", "atreides")
    state = play(state, UseKarama("atreides", use, "karama") if use else Pass("atreides"))
    while state.pending.kind in ("battle-voice", "battle-prescience"):
        state = play(state, Pass(state.pending.actor))
    return play(state, SubmitPlan("atreides", "duncan-idaho", 8, 0, 8), SubmitPlan("dispersion", "dama", 0, 0, 0))


@pytest.mark.parametrize("use", ["KARAMA-21", "KARAMA-22"])
def test_KARAMA_21_and_KARAMA_22_a_karama_at_the_battles_start_restores_two_points_of_duncan(use):
    assert winner(_dama_battle(None)) == "dispersion"  # 8 + (6 - 2 - 2) = 10 against Dama's 12
    state = _dama_battle(use)
    assert events_of(state, "karama")[0].data["karama"] == use
    assert winner(state) == "atreides"  # 8 + 4 = 12 against 12: the defender wins the tie (BATTLE-14)
    assert not state.suppressions  # lifted once the battle is settled ("lasts": "battle")


def test_KARAMA_23_makes_dama_open_to_the_voice():
    houses = ["bene-gesserit", "dispersion"]
    forces = [("bene-gesserit", "arsunt", 5, 3), ("dispersion", "arsunt", 5, 3)]
    for use, refused in ((None, False), ("KARAMA-23", True)):
        state = open_battle(houses, forces, {"bene-gesserit": ("karama",), "dispersion": ("poison-fast",)})
        assert state.pending.actor == "bene-gesserit"
        state = play(state, UseKarama("bene-gesserit", use, "karama") if use else Pass("bene-gesserit"))
        while state.pending.kind in ("karama-window", "battle-disclose", "leader-pre-battle"):  # K-16 passed
            state = play(state, Pass(state.pending.actor))
        state = play(state, UseVoice("bene-gesserit", "forbid", "poison"), SubmitPlan("bene-gesserit", "darwi",
                                                                                      1, 0, 0))
        error = check_action(state, SubmitPlan("dispersion", "dama", 1, 0, 0, "poison-fast"))
        assert (error is not None) == refused


def test_KARAMA_42_makes_paul_vulnerable_to_the_slow_poison():
    for use, dies in ((None, False), ("KARAMA-42", True)):
        state = open_battle(["atreides", "harkonnen"], [("atreides", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 3)],
                             {"harkonnen": ("poison-slow", "karama")})
        assert (state.pending.kind, state.pending.actor) == ("karama-window", "harkonnen")
        state = play(state, UseKarama("harkonnen", use, "karama") if use else Pass("harkonnen"))
        state = play(state, Pass("harkonnen"))  # leaders.md K-16: Ziarenko's 1d2 spice not taken
        state = play(state, Pass("atreides"), Pass("atreides"), SubmitPlan("atreides", "paul", 1, 0, 0),
                     SubmitPlan("harkonnen", "feyd-rautha", 1, 0, 0, "poison-slow"))
        assert (killed(state, "atreides") == ["paul"]) == dies


def test_GAP_81_the_window_asks_every_house_with_a_card_but_never_the_holder_of_the_power():
    state = open_battle(["atreides", "harkonnen", "emperor"],
                         [("atreides", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 3)],
                         {"atreides": ("shield",), "harkonnen": ("shield",), "emperor": ("lasgun",)})
    asked = []
    while state.pending.kind == "karama-window":
        asked.append(state.pending.actor)
        assert decisions(state)[0] == Pass(state.pending.actor)
        state = apply_action(state, Pass(state.pending.actor))
    assert asked == ["harkonnen", "emperor"]  # table order; the Atreides hold the powers (KARAMA-42)


# --- BG-M1: truth trances without the card, and KARAMA-31 -----------------------------------------------

MOHIAM = "gaius-helen-mohiam"


def _trance(state, ask):
    """Ask a BG-M1 trance and pass the KARAMA-31 window it opens (GAP-63)."""
    state = apply_action(state, ask)
    while state.pending.kind == "karama-window":
        state = apply_action(state, Pass(state.pending.actor))
    return state


def _bg_plan(hands):
    state = battle(["bene-gesserit", "harkonnen", "emperor"],
                   [("bene-gesserit", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 3)], hands)
    state = play(state, Pass("bene-gesserit"))  # no Voice
    assert (state.pending.kind, state.pending.actor) == ("battle-plan", "bene-gesserit")
    return state


def test_BG_M1_mohiam_gives_two_truth_trances_a_turn_without_the_card():
    from dunenb.rules.truth_trance import AskTruthTrance

    state = _bg_plan({"harkonnen": ("poison-fast",)})
    ask = AskTruthTrance("bene-gesserit", "harkonnen", "holds", "poison", "BG-M1")
    assert ask in decisions(state) and "truth-trance" not in state.houses["bene-gesserit"].hand
    assert events_of(apply_action(state, ask), "truth-trance")[0].data["power"] == "BG-M1"  # public question
    for _ in range(2):
        state = _trance(state, ask)
        assert state.houses["bene-gesserit"].trance_answers[-1][2:] == ("holds", "poison", True)  # it learns it
        assert state.pending.kind == "battle-plan"  # the same decision comes back
    error = check_action(state, ask)
    assert error is not None and error.code == "truth-trance/means"  # two a turn (unused ones lapse)
    assert not [a for a in decisions(state) if a.kind == "truth-trance" and a.means == "BG-M1"]  # (K-13: Bellonda's
    # own trance, BG-L04-a, is another means)


def test_BG_M1_no_trance_without_the_card_once_mohiam_is_dead():
    from dunenb.rules.truth_trance import AskTruthTrance

    state = _bg_plan({"harkonnen": ("poison-fast",)})
    hs = state.houses["bene-gesserit"]
    state = dataclasses.replace(state, houses=state.houses.set("bene-gesserit", dataclasses.replace(
        hs, leaders=tuple(x for x in hs.leaders if x != MOHIAM), leader_tanks=hs.leader_tanks + (MOHIAM,))))
    error = check_action(state, AskTruthTrance("bene-gesserit", "harkonnen", "holds", "poison", "BG-M1"))
    assert error is not None and error.code == "truth-trance/means"  # G-7


def test_KARAMA_31_a_karama_destroys_one_of_mohiams_trances():
    from dunenb.rules.truth_trance import AskTruthTrance

    state = _bg_plan({"harkonnen": ("poison-fast", "karama")})
    ask = AskTruthTrance("bene-gesserit", "harkonnen", "holds", "poison", "BG-M1")
    state = apply_action(state, ask)
    assert (state.pending.kind, state.pending.actor) == ("karama-window", "harkonnen")  # GAP-63: asked, pass first
    state = apply_action(state, UseKarama("harkonnen", "KARAMA-31", "karama"))
    assert state.pending.kind == "battle-plan" and state.houses["bene-gesserit"].trance_answers == ()
    assert not state.suppressions  # one trance only: the second one still works
    state = _trance(state, ask)
    assert state.houses["bene-gesserit"].trance_answers[-1][2:] == ("holds", "poison", True)


# --- BG-M2: Mohiam knows her opponent, and KARAMA-32 -----------------------------------------------------

MOHIAM_SCENE = (["bene-gesserit", "harkonnen", "emperor"],
                [("bene-gesserit", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 3)], {})


def test_BG_M2_the_opponent_commits_his_leader_first_shown_to_the_bg_only():
    state = battle(*MOHIAM_SCENE, disclose=True)
    assert (state.pending.kind, state.pending.actor) == ("battle-disclose", "bene-gesserit")  # G-9 step 1
    assert HeuristicBot().choose(state) == Pass("bene-gesserit")  # Mohiam would have to fight
    state = play(state, KnowLeader("bene-gesserit"))
    assert events_of(state, "leader-disclosed")[0].data["leader"] == MOHIAM
    assert (state.pending.kind, state.pending.actor) == ("battle-commit-leader", "harkonnen")
    commit = CommitLeader("harkonnen", "feyd-rautha")
    assert viewers(state, commit) == ("harkonnen", "bene-gesserit")
    state = play(state, commit)
    shown = [s.leader for s in context_of(view(state, "bene-gesserit")).shown if s.house == "harkonnen"]
    assert shown == ["feyd-rautha"] and not [s for s in context_of(view(state, "emperor")).shown
                                              if s.house == "harkonnen"]
    state = play(state, Pass("bene-gesserit"))  # no Voice
    error = check_action(dataclasses.replace(state, pending=dataclasses.replace(state.pending, actor="harkonnen")),
                         SubmitPlan("harkonnen", "glossu-rabban", 1, 0, 0))
    assert error is not None and error.code == "battle/leader-disclosed"  # he may not change his leader
    state = play(state, SubmitPlan("bene-gesserit", MOHIAM, 1, 0, 0))
    assert {a.leader for a in decisions(state) if a.kind == "plan"} == {"feyd-rautha"}


def test_BG_M2_the_bg_bot_plans_against_the_leader_it_was_shown_and_only_it():
    from dunenb.bots.battle_planner import opposition
    from dunenb.rules.traitors import leader_of

    def expected(know):
        state = battle(*MOHIAM_SCENE, disclose=True)
        state = play(state, KnowLeader("bene-gesserit") if know else Pass("bene-gesserit"))
        if know:
            state = play(state, CommitLeader("harkonnen", "iakin-nefud"))
        state = play(roll_b1(state), Pass("bene-gesserit"))  # roll_b1: leaders.md D-31 (H10-c)
        seen = view(state, "bene-gesserit")
        return {c[1] for c in opposition(seen, "bene-gesserit", "harkonnen", context_of(seen)).configs}
    assert expected(True) == {leader_of("harkonnen", "iakin-nefud").strength}
    assert len(expected(False)) > 1  # otherwise it guesses among the strongest


def test_KARAMA_32_stops_mohiam_knowing_her_opponent():
    state = open_battle(*MOHIAM_SCENE[:2], {"harkonnen": ("karama",)})
    assert (state.pending.kind, state.pending.actor) == ("karama-window", "harkonnen")
    state = roll_b1(play(state, UseKarama("harkonnen", "KARAMA-32", "karama")))  # roll_b1: leaders.md D-31
    # leaders.md K-16 (after BG-M2's step) passed, and D-31's B1 rolls that may follow it settled
    while state.pending.kind in ("leader-pre-battle", "battle-b1-roll"):
        state = roll_b1(state) if state.pending.kind == "battle-b1-roll" else play(state, Pass(state.pending.actor))
    assert state.pending.kind == "battle-voice"  # BG-M2 is not offered in this battle
    assert battle(*MOHIAM_SCENE, disclose=True).pending.kind == "battle-disclose"  # without the Karama


def test_KARAMA_25_the_heuristic_bot_disobeys_the_voice_with_its_karama_when_it_pays():
    houses, forces, hands = BG_SCENE
    state = battle(["bene-gesserit", "harkonnen", "emperor"], [forces[0], forces[1], forces[2]],
                   {"harkonnen": ("projectile-distance", "karama")})
    state = play(state, UseVoice("bene-gesserit", "forbid", "projectile"), SubmitPlan("bene-gesserit", "darwi", 1,
                                                                                       0, 0))
    choice = HeuristicBot().choose(state)
    assert choice.kind == "plan"
    if choice.against != "none":  # it may: the BG's wheel holds no shield it could know of
        assert choice.against == "KARAMA-25" and choice.weapon == "projectile-distance"
    else:
        assert choice.weapon == "none"  # otherwise it obeys


def test_BG_M1_GAP_58_the_window_of_a_trance_hides_the_plans_of_the_battle_it_interrupts():
    from dunenb.rules.truth_trance import AskTruthTrance

    state = battle(["harkonnen", "bene-gesserit", "emperor"],
                   [("harkonnen", "arsunt", 5, 3), ("bene-gesserit", "arsunt", 5, 3)],
                   {"harkonnen": ("poison-fast",), "emperor": ("shield",)})
    state = play(state, Pass("bene-gesserit"), SubmitPlan("harkonnen", "feyd-rautha", 1, 0, 0, "poison-fast"))
    state = apply_action(state, AskTruthTrance("bene-gesserit", "harkonnen", "holds", "poison", "BG-M1"))
    assert state.pending.kind == "karama-window"  # KARAMA-31 (GAP-81)
    for house in ("bene-gesserit", "emperor"):
        prior = view(state, house).pending.detail["prior"]
        assert dict(context_of(dataclasses.replace(state, pending=prior)).secrets)["harkonnen"] == "hidden"
