"""houses.md G-9 in games: the Voice (BG-P1) and prescience (ATREIDES-P1) before the battle plans, the plans they
bind, who sees the answer (GAP-66, GAP-67), and the bot's choices there."""

from __future__ import annotations

import dataclasses

import pytest
from helpers_game import (
    B1_ROLL,
    clear_map,
    decisions,
    events_of,
    give_cards,
    pass_estimates,
    pass_unable,
    place,
    play_battle,
    quiet_setup,
    set_storms,
    skip_pre_battle,
)

from dunenb.actions import Pass
from dunenb.battle.cards import card_kind
from dunenb.bots.heuristic import HeuristicBot
from dunenb.engine import apply_action, chance_outcomes, check_action, view
from dunenb.errors import IllegalActionError
from dunenb.rules.battle_context import context_of
from dunenb.rules.battle_phase import SubmitPlan, begin_phase
from dunenb.rules.pre_battle import AnswerPrescience, AskPrescience, UseVoice
from dunenb.rules.secrecy import viewers


def battle(houses, forces, hands=None, *, disclose=False):
    """A quiet setup with only ``forces`` [(house, area, sector, regular)] on the map, at the battle phase, past
    the Karama window of the battle's start, (unless ``disclose``) the leader disclosures (BG-M2) and the
    secondary leaders' Voices and questions (leaders.md K-11, K-12: these tests are about the House powers)."""
    return pass_leader_sources(pass_windows(open_battle(houses, forces, hands), disclose=disclose))


def pass_leader_sources(state):
    """Pass the Voices and prescience questions that secondary leaders give (K-11, K-12); events kept."""
    from dunenb.battle.leader_mind import is_leader_power

    said = state.events
    while state.pending.kind in ("battle-voice", "battle-prescience") and is_leader_power(
            context_of(state).sequence.actor[1]):
        state = apply_action(state, Pass(state.pending.actor))
        said += state.events
    return dataclasses.replace(state, events=said)


def act(state, action):
    """Apply ``action``, then pass the secondary leaders' Voices and questions (:func:`pass_leader_sources`)."""
    return pass_leader_sources(apply_action(state, action))


def open_battle(houses, forces, hands=None, dead=None):
    """The same scene up to the Karama window of the battle's start (not passed); ``dead``: House -> leader in its
    tanks."""
    state = clear_map(set_storms(quiet_setup(houses), main=10))
    for house, leader in (dead or {}).items():
        hs = state.houses[house]
        state = dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(
            hs, leaders=tuple(x for x in hs.leaders if x != leader), leader_tanks=hs.leader_tanks + (leader,))))
    for house in houses:
        hs = state.houses[house]
        state = dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(hs, hand=(),
                                                                                              traitors=())),
                                    treachery_discard=state.treachery_discard + hs.hand)
    for house, area, sector, regular in forces:
        state = place(state, house, area, sector, regular)
    for house, cards in (hands or {}).items():
        state = give_cards(state, house, *cards)
    return begin_phase(dataclasses.replace(state, events=(), storm_dialers=(houses[0], houses[-1])))


def pass_windows(state, *, disclose=False):
    """Pass the Karama window of the battle's start (seed 003 F7: KARAMA-21, -22, -23, -42), the secondary leaders'
    pre-battle powers (leaders.md K-16) and, unless ``disclose``, the leader disclosures (BG-M2); events kept."""
    said = state.events
    while state.pending.kind in ("karama-window", B1_ROLL, "leader-pre-battle") or (
            state.pending.kind == "battle-disclose" and not disclose):
        if state.pending.kind == B1_ROLL:  # leaders.md D-31 (HARKONNEN-L10-c): a 10, no built-in poison
            state = apply_action(state, chance_outcomes(state)[-1][0])
        else:  # and the K-16 pre-battle uses passed
            state = apply_action(state, Pass(state.pending.actor))
        said += state.events
    return dataclasses.replace(state, events=said)


def submit(state, house, leader, regular, weapon="none", defense="none"):
    assert (state.pending.kind, state.pending.actor) == ("battle-plan", house)
    return pass_unable(apply_action(state, SubmitPlan(house, leader, regular, 0, 0, weapon, defense)),
                       ("leader-buy-off", "traitor-call"))


BG_SCENE = (["bene-gesserit", "harkonnen"], [("bene-gesserit", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 3)],
            {"harkonnen": ("poison-fast",)})


def _fight(voice):
    state = battle(*BG_SCENE)
    assert (state.pending.kind, state.pending.actor) == ("battle-voice", "bene-gesserit")
    state = act(state, voice)
    said = state.events
    for house in context_of(state).order:
        leader = {"bene-gesserit": "darwi", "harkonnen": "feyd-rautha"}[house]
        weapon = "poison-fast" if house == "harkonnen" and state.houses[house].hand else "none"
        action = SubmitPlan(house, leader, 1, 0, 0, weapon)
        if check_action(state, action) is not None:
            action = dataclasses.replace(action, weapon="none")
        state = submit(state, house, leader, 1, action.weapon)
        said += state.events
    return dataclasses.replace(state, events=said)


def test_BG_P1_the_voice_forbidding_poison_saves_the_bg_leader_and_wins_the_battle():
    without = _fight(Pass("bene-gesserit"))
    assert events_of(without, "battle-outcome")[0].data["winner"] == "harkonnen"  # Darwi poisoned: 1 < 1 + 6
    voiced = _fight(UseVoice("bene-gesserit", "forbid", "poison"))
    assert events_of(voiced, "voice")[0].data["power"] == "BG-P1"
    assert events_of(voiced, "battle-outcome")[0].data["winner"] == "bene-gesserit"  # 1 + 7 against 1 + 6


def test_BG_P1_a_plan_against_the_voice_is_refused_with_a_clear_error_and_left_off_the_menu():
    state = battle(*BG_SCENE)
    state = act(state, UseVoice("bene-gesserit", "forbid", "poison"))
    state = submit(state, context_of(state).order[0], "darwi", 1) if state.pending.actor == "bene-gesserit" \
        else state
    assert state.pending.actor == "harkonnen"
    with pytest.raises(IllegalActionError) as info:
        apply_action(state, SubmitPlan("harkonnen", "feyd-rautha", 1, 0, 0, "poison-fast"))
    assert info.value.code == "battle/bound-by-voice" and "forbade poison" in str(info.value)
    assert all(a.weapon != "poison-fast" for a in decisions(state))


def test_BG_P1_a_forced_kind_must_be_played_when_held():
    state = battle(*BG_SCENE)
    state = act(state, UseVoice("bene-gesserit", "force", "poison"))
    if state.pending.actor == "bene-gesserit":
        state = submit(state, "bene-gesserit", "darwi", 1)
    error = check_action(state, SubmitPlan("harkonnen", "feyd-rautha", 1, 0, 0))
    assert error is not None and "forced poison" in str(error)
    assert {a.weapon for a in decisions(state)} == {"poison-fast"}


def test_GAP_67_a_side_with_no_leader_is_not_bound_by_a_forced_kind():
    state = battle(*BG_SCENE)
    hs = state.houses["harkonnen"]
    state = dataclasses.replace(state, houses=state.houses.set("harkonnen", dataclasses.replace(
        hs, leaders=(), leader_tanks=hs.leaders)))
    state = act(state, UseVoice("bene-gesserit", "force", "poison"))
    if state.pending.actor == "bene-gesserit":
        state = submit(state, "bene-gesserit", "darwi", 1)
    assert check_action(state, SubmitPlan("harkonnen", "none", 1, 0, 0)) is None  # GAP-43: it plays no card


ATREIDES_SCENE = (["atreides", "harkonnen", "emperor"],
                  [("atreides", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 3), ("emperor", "faille-rouge", 7, 3)],
                  {"harkonnen": ("poison-fast", "projectile-distance"), "atreides": ("snooper", "shield")})


def _asked(slot="attack"):
    state = battle(*ATREIDES_SCENE)
    assert (state.pending.kind, state.pending.actor) == ("battle-voice", "atreides")  # ATREIDES-M2 first (G-9)
    state = act(state, Pass("atreides"))
    assert (state.pending.kind, state.pending.actor) == ("battle-prescience", "atreides")
    state = act(state, AskPrescience("atreides", slot))
    assert (state.pending.kind, state.pending.actor) == ("battle-answer", "harkonnen")  # GAP-78: it answers
    return state


def _plans(state, plans):
    """Set the plans in the order the battle asks for them; ``plans``: House -> SubmitPlan or a bot."""
    state = pass_estimates(state)  # leaders.md K-16 B3 (Tufir) passed
    return play_battle(state, plans, through=(), only_pass=("leader-buy-off",))


def test_ATREIDES_P1_the_answer_binds_and_only_the_asker_and_the_house_asked_see_it():
    state = _asked()
    # kinds it holds (L1025); GAP-138: Piter's two attacks (HARKONNEN-L04-b, K-6) make one answer naming both
    assert {a.answer for a in decisions(state)} == {"none", "poison", "projectile", "poison+projectile"}
    assert viewers(state, AnswerPrescience("harkonnen", "poison")) == ("harkonnen",)  # a secret action
    state = apply_action(state, AnswerPrescience("harkonnen", "poison"))
    assert context_of(state).sequence.answer.kind == "poison"
    assert context_of(view(state, "atreides")).sequence.answer.kind == "poison"
    assert context_of(view(state, "harkonnen")).sequence.answer.kind == "poison"
    assert context_of(view(state, "emperor")).sequence.answer.kind == "hidden"
    assert "poison" not in events_of(state, "prescience-answered")[0].text
    state = pass_estimates(state)  # leaders.md K-16 B3 (Tufir) passed
    while state.pending.actor != "harkonnen":
        state = apply_action(state, SubmitPlan(state.pending.actor, "duncan-idaho", 1, 0, 0))
    error = check_action(state, SubmitPlan("harkonnen", "feyd-rautha", 1, 0, 0, "projectile-distance"))
    assert error is not None and error.code == "battle/bound-by-voice" and "answer was poison" in str(error)
    assert {a.weapon for a in decisions(state) if a.kind == "plan"} == {"poison-fast"}


def test_ATREIDES_P1_an_answer_it_cannot_give_is_refused():
    state = _asked("defence")
    with pytest.raises(IllegalActionError) as info:
        apply_action(state, AnswerPrescience("harkonnen", "shield"))
    assert info.value.code == "battle/prescience-answer" and "allowed: none" in str(info.value)


@pytest.mark.parametrize(("weapon", "defence"), [("poison-fast", "snooper"), ("projectile-distance", "shield")])
def test_ATREIDES_P1_the_answer_changes_the_bots_defence_and_saves_its_leader(weapon, defence):
    state = apply_action(_asked(), AnswerPrescience("harkonnen", card_kind(weapon)))
    # K-10: Miles Teg (ATREIDES-L12-c) needs no defence against these: the bot would rightly lead with him
    hs = state.houses["atreides"]
    state = dataclasses.replace(state, houses=state.houses.set("atreides", dataclasses.replace(
        hs, leaders=tuple(x for x in hs.leaders if x != "miles-teg"), leader_tanks=hs.leader_tanks + ("miles-teg",))))
    bot = HeuristicBot()
    state = _plans(state, {"harkonnen": SubmitPlan("harkonnen", "feyd-rautha", 1, 0, 0, weapon), "atreides": bot})
    revealed = [e for e in events_of(state, "plan-revealed") if e.data["house"] == "atreides"]
    assert revealed and revealed[0].data["defense"] == defence  # the answer told it which defence works
    assert not [e for e in events_of(state, "leader-killed") if e.data["house"] == "atreides"]


def test_ATREIDES_P1_the_question_is_public():
    state = battle(*ATREIDES_SCENE)
    assert viewers(state, AskPrescience("atreides", "attack")) is None  # stated openly (G-9)


def test_G_9_the_voice_comes_before_the_prescience_question_and_bots_choose_from_their_view():
    state = battle(["bene-gesserit", "atreides"], [("bene-gesserit", "arsunt", 5, 3), ("atreides", "arsunt", 5, 3)],
                   {"bene-gesserit": ("shield",)})
    assert state.pending.kind == "battle-voice"
    choice = HeuristicBot().choose(state)
    assert choice == UseVoice("bene-gesserit", "forbid", "poison")  # no snooper in its hand
    state = act(state, choice)
    assert (state.pending.kind, state.pending.actor) == ("battle-voice", "atreides")  # ATREIDES-M2, G-9
    assert HeuristicBot().choose(state) == Pass("atreides")  # its Voice would bind Paul to lead (GAP-79)
    state = act(state, Pass("atreides"))
    assert state.pending.kind == "battle-prescience"
    assert HeuristicBot().choose(state) == AskPrescience("atreides", "defence")  # it holds no defence card


def test_DISPERSION_M3_M1_P2_in_a_game_dama_attacking_beats_duncan_with_more_tokens():
    state = battle(["atreides", "dispersion"], [("atreides", "arsunt", 5, 8), ("dispersion", "arsunt", 5, 8)])
    ctx = context_of(state)
    if ctx.defender != "atreides":
        pytest.skip("storm order made the Dispersion defend")
    state = skip_pre_battle(state)  # no Voice (ATREIDES-M2), no prescience question
    state = submit(state, "atreides", "duncan-idaho", 8)  # 4 + (6 - 4) = 6
    state = submit(state, "dispersion", "dama", 0)  # 0 + 12
    outcome = events_of(state, "battle-outcome")
    assert outcome and outcome[0].data["winner"] == "dispersion"


def test_DISPERSION_M2_no_voice_binds_a_plan_dama_leads():
    state = battle(["bene-gesserit", "dispersion"],
                   [("bene-gesserit", "arsunt", 5, 3), ("dispersion", "arsunt", 5, 3)],
                   {"dispersion": ("poison-fast",)})
    state = act(state, UseVoice("bene-gesserit", "forbid", "poison"))
    if state.pending.actor == "bene-gesserit":
        state = submit(state, "bene-gesserit", "darwi", 1)
    assert check_action(state, SubmitPlan("dispersion", "dama", 1, 0, 0, "poison-fast")) is None
    error = check_action(state, SubmitPlan("dispersion", "murbella", 1, 0, 0, "poison-fast"))
    assert error is not None and error.code == "battle/bound-by-voice"
    assert any(a.leader == "dama" and a.weapon == "poison-fast" for a in decisions(state))
