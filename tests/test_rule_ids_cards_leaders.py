"""Scene tests named after rule IDs of the card, alliance, revival and spice sections of rules_digest.md and of
leaders.md that were cited in code without a test of their own: SPICE-9, ALLIANCE-9, REVIVAL-5, CARD-2,
CARD-TRUTH-2, CARD-TRUTH-3, CARD-SNOOPER-1, CARD-POISON-1, CARD-SHIELD-1, CARD-WEATHER-3, K-15, D-12, D-13,
D-15. Values are the spec's (leaders.md strengths, rules_digest.md counts)."""

from __future__ import annotations

from fractions import Fraction

import test_powers_pre_battle as pre
from helpers_game import (
    assert_conserved,
    decisions,
    dial,
    force,
    give_weather_control,
    pass_unable,
    place,
    play_battle,
    put_spice,
    tokens_at,
)
from test_battle_resolve import battle, only, p_of, side
from test_leader_after_battle import case, kill
from test_leader_after_battle import play as play_game_battle
from test_powers_houses import _worm_on, board, run
from test_rules_alliances import window, with_spice
from test_rules_cards import atomics_position, trance_position
from test_rules_movement import movement_position, play

from dunenb.actions import PlayWeatherControl
from dunenb.battle.case import case_json, parse_case
from dunenb.battle.leader_powers import closed_sets
from dunenb.battle.resolve import resolve_battle
from dunenb.battle.roster import load_roster
from dunenb.engine import apply_action, check_action, legal_actions, new_game
from dunenb.rules import spice
from dunenb.rules.alliances import AcceptOffer, Offer
from dunenb.rules.atomics import BlowShieldWall
from dunenb.rules.battle_phase import SubmitPlan
from dunenb.rules.movement import Move, Revive
from dunenb.rules.pre_battle import AnswerPrescience, AskPrescience
from dunenb.rules.truth_trance import AskTruthTrance
from dunenb.rules.worm_riding import RideWorm
from dunenb.state import Tokens

ROSTER = load_roster()

# --- SPICE-9, ALLIANCE-9, REVIVAL-5 ------------------------------------------------------------------------


def test_spice_9_the_fremen_use_a_worm_that_appears_to_move():
    state = put_spice(board(["fremen", "atreides"], storm=1, hands={"atreides": ()}), "grande-etendue", 6)
    state = place(state, "fremen", "grande-etendue", 17, 4)
    state = force(_worm_on(state, "grande-etendue"), spice.DrawSpiceCard(1, "worm"))
    assert state.pending.kind == "ride" and state.pending.actor == "fremen"
    state, _events = run(state, RideWorm("fremen", "grande-etendue", 17, "erg-mineur", 7, 4))
    assert state.forces[("fremen", "erg-mineur", 7)] == Tokens(4)  # carried to another desert
    assert ("fremen", "grande-etendue", 17) not in state.forces


def test_alliance_9_a_house_may_deal_with_several_houses_in_one_window():
    state = with_spice(window(), "atreides", 10)
    harkonnen, emperor = state.houses["harkonnen"].spice, state.houses["emperor"].spice
    state = apply_action(state, Offer("atreides", "harkonnen", "spice", "spice", 3))
    state = apply_action(state, AcceptOffer("harkonnen"))
    assert state.pending.kind == "alliance" and state.pending.actor == "atreides"
    state = apply_action(state, Offer("atreides", "emperor", "spice", "spice", 2))
    state = apply_action(state, AcceptOffer("emperor"))
    assert state.houses["atreides"].spice == 10 - 3 - 2
    assert state.houses["harkonnen"].spice == harkonnen + 3 and state.houses["emperor"].spice == emperor + 2
    assert_conserved(state)


def test_revival_5_dead_tokens_go_to_the_tanks_and_can_be_bought_back():
    state = movement_position(storm=2, spice={"atreides": 10}, forces=[("atreides", "arrakeen", 1, 5)],
                              actor="atreides")
    state = play(state, Move("atreides", "arrakeen", 1, (("bassin-imperial", 2),), 5))  # into the storm
    assert tokens_at(state, "atreides", "bassin-imperial") == 0
    assert state.houses["atreides"].tanks.total == 5  # not gone from the game: in the axlotl tanks
    later = movement_position(spice={"atreides": 10}, tanks={"atreides": (5, 0)})
    later = play(later, Revive("atreides", 3))
    assert later.houses["atreides"].tanks.total == 2 and later.houses["atreides"].reserve.total == 18
    assert later.houses["atreides"].spice == 10 - 3


# --- treachery cards -----------------------------------------------------------------------------------------

def test_card_2_the_deck_holds_4_truth_trances_10_poisons_10_projectiles_2_weather_controls():
    deck = new_game(["atreides", "harkonnen"], seed=0).treachery_deck
    assert deck["truth-trance"] == 4
    assert deck["poison-fast"] + deck["poison-slow"] == 10
    assert deck["projectile-distance"] + deck["projectile-contact"] == 10
    assert deck["weather-control"] == 2


def test_card_truth_2_the_sample_questions_are_answered_truthfully():
    """The Harkonnen hold a slow poison, 12 spice and a slip on Duncan Idaho; all their leaders are alive."""
    state = trance_position()
    asked = [("traitor-among-mine", "-", True), ("holds", "projectile", False), ("spice-more-than", "20", False),
             ("leaders-more-than", "2", True), ("traitor-is", "duncan-idaho", True), ("holds", "snooper", False),
             ("holds", "poison-slow", True)]
    for question, subject, truth in asked:
        after = apply_action(state, AskTruthTrance("atreides", "harkonnen", question, subject))
        assert after.houses["atreides"].trance_answers[-1][2:] == (question, subject, truth), question


def test_card_truth_3_no_question_about_the_future_and_one_question_to_one_player():
    state = trance_position()
    for future in ("will-you-play", "wheel-shows", "plan"):
        error = check_action(state, AskTruthTrance("atreides", "harkonnen", future, "poison"))
        assert error is not None and error.code == "truth-trance/question"
    menu = {a.question for a in legal_actions(state) if a.kind == "truth-trance"}
    assert not any(word in q for q in menu for word in ("will", "play", "wheel", "plan", "dial"))
    after = apply_action(state, AskTruthTrance("atreides", "harkonnen", "holds", "shield"))
    assert not [a for a in legal_actions(after) if a.kind == "truth-trance"]  # 1 question with the card
    assert "truth-trance" not in after.houses["atreides"].hand


def test_card_snooper_1_the_only_defence_against_fast_and_slow_poison():
    for poison in ("poison-fast", "poison-slow"):
        saved = only(resolve_battle(battle(side("atreides", weapon=poison), side("harkonnen", defense="snooper"))))
        assert saved.side("harkonnen").leader_fate == "alive"
        for other in ("shield", None):
            dead = only(resolve_battle(battle(side("atreides", weapon=poison), side("harkonnen", defense=other))))
            assert dead.side("harkonnen").leader_fate == "dead"


def test_card_poison_1_five_fast_five_slow_both_kill_the_fast_at_once_the_slow_leaves_a_respite():
    deck = new_game(["atreides", "harkonnen"], seed=0).treachery_deck
    assert (deck["poison-fast"], deck["poison-slow"]) == (5, 5)
    for poison in ("poison-fast", "poison-slow"):
        killed = only(resolve_battle(battle(side("atreides", weapon=poison), side("harkonnen"))))
        assert killed.side("harkonnen").leader_fate == "dead"
    # the victim (base 4) holds a contact projectile against a shield: only the slow poison's victim may still
    # try to get past it (CARD-SHIELD); the fast poison kills him before he strikes
    fast = resolve_battle(battle(side("atreides", leader=("P1", 5), weapon="poison-fast", defense="shield"),
                                 side("harkonnen", leader=("P2", 4), weapon="projectile-contact", defense="shield")))
    assert p_of(fast, lambda o: o.leader_fates == ("alive", "dead")) == 1
    slow = resolve_battle(battle(side("atreides", leader=("P1", 5), weapon="poison-slow", defense="shield"),
                                 side("harkonnen", leader=("P2", 4), weapon="projectile-contact", defense="shield")))
    assert p_of(slow, lambda o: o.leader_fates == ("dead", "dead")) == Fraction(4, 10)
    assert p_of(slow, lambda o: o.side("harkonnen").leader_fate == "dead") == 1


def test_card_shield_1_the_only_defence_against_projectiles_a_contact_one_may_pass():
    stopped = only(resolve_battle(battle(side("atreides", weapon="projectile-distance"),
                                         side("harkonnen", defense="shield"))))
    assert stopped.side("harkonnen").leader_fate == "alive"  # always stops a distance projectile
    for projectile in ("projectile-distance", "projectile-contact"):
        hit = only(resolve_battle(battle(side("atreides", weapon=projectile), side("harkonnen", defense="snooper"))))
        assert hit.side("harkonnen").leader_fate == "dead"  # a snooper is no defence against projectiles
    passing = resolve_battle(battle(side("atreides", leader=("K", 6), weapon="projectile-contact"),
                                    side("harkonnen", defense="shield")))
    dead = p_of(passing, lambda o: o.side("harkonnen").leader_fate == "dead")
    assert 0 < dead < 1  # the contact projectile can get past the shield, not always


def test_card_weather_3_block_a_sector_to_protect_an_army_and_with_atomics_sweep_more_cities():
    state = give_weather_control(atomics_position(), "harkonnen")  # a Harkonnen token in Arrakeen, by the wall
    state = place(place(state, "emperor", "carthag", 4, 3), "atreides", "arsunt", 5, 2)
    state = dial(state, 2, 1)  # the storm would move 3: sectors 2, 3, 4
    swept = apply_action(state, BlowShieldWall("harkonnen"))
    swept = pass_unable(apply_action(swept, PlayWeatherControl("harkonnen", "main", "plus2")), ("weather",))
    assert swept.storm_main == 6  # 5 sectors: 2 to 6, over Carthag and Arsunt
    assert tokens_at(swept, "emperor", "carthag") == 0 and tokens_at(swept, "atreides", "arsunt") == 0
    own = give_weather_control(atomics_position(), "harkonnen")
    own = place(own, "harkonnen", "carthag", 4, 3)
    held = tokens_at(own, "harkonnen", "carthag", 4)
    assert held >= 3
    own = dial(own, 2, 1)
    own = apply_action(own, BlowShieldWall("harkonnen"))
    own = pass_unable(apply_action(own, PlayWeatherControl("harkonnen", "main", "stop", 2)), ("weather",))
    assert own.storm_main == 3 and tokens_at(own, "harkonnen", "carthag", 4) == held  # Carthag blocked off
    assert_conserved(own)


# --- leaders.md ------------------------------------------------------------------------------------------------

def test_k_15_bounty_modes_times_2_plus_n_victim_fixed_and_killer_pays():
    chani = 6  # leaders.md FREMEN-L02: Chani 6
    assert case(kill("emperor", "hasimir", "fremen", "chani"))["sides"]["emperor"]["bounty"] == 2 * chani  # E01-c
    assert case(kill("guild", "gurney", "fremen", "chani"))["sides"]["guild"]["bounty"] == chani + 3  # G07-d
    assert case(kill("fremen", "stilgar", "emperor", "irulan"))["sides"]["fremen"]["bounty"] == 2  # E07-d
    assert case(kill("fremen", "stilgar", "harkonnen", "ziarenko"))["sides"]["fremen"]["bounty"] == 0  # H12-d
    fined = play_game_battle(kill("fremen", "stilgar", "harkonnen", "soo-soo"), spice={"fremen": 5})
    assert fined.spice("fremen") == 1 - 3  # H11-d: Soo-Soo's bounty 1 received, then 3 paid to the Bank


def _case(first: tuple[str, str, bool], second: tuple[str, str]) -> list[dict]:
    """Outcomes of a battle in Arsunt, 2 tokens dialled each, no cards; ``first`` = (House, leader, captured)."""
    (house, leader, captured), (other, foe) = first, second
    raw = {"format": "dunenb.battle/1", "territory": "arsunt", "defender": house, "sides": [
        {"house": house, "tokens": {"regular": 5}, "dial": {"regular": 2}, "leader": leader, "captured": captured,
         "weapon": None, "defense": None},
        {"house": other, "tokens": {"regular": 5}, "dial": {"regular": 2}, "leader": foe, "weapon": None,
         "defense": None}]}
    return case_json(parse_case(raw))["outcomes"]


def test_d_12_a_captured_atreides_leader_is_still_a_leader_atreides():
    """Chani-Ghola (TLEILAX-L12-c): −3 on an opposing leader of the Atreides. Duncan Idaho (6) captured by the
    Harkonnen still counts as Atreides: 2 tokens (1) + 6 − 3; Feyd Rautha (6), a Harkonnen, does not."""
    (captured,) = _case(("harkonnen", "atreides:duncan-idaho", True), ("bene-tleilax", "chani-ghola"))
    assert captured["sides"]["harkonnen"]["total"] == 1 + 6 - 3
    assert "TLEILAX-L12-c" in captured["sides"]["bene-tleilax"]["powers"]
    (own,) = _case(("harkonnen", "feyd-rautha", False), ("bene-tleilax", "chani-ghola"))
    assert own["sides"]["harkonnen"]["total"] == 1 + 6


def test_d_13_reverend_mothers_every_bg_leader_and_every_copy_of_jessica_and_alia():
    """Feyd Rautha (HARKONNEN-L01-d): worth 3 against a Reverend Mother, else his 6."""
    for house, foe in (("bene-gesserit", "jessica"), ("fremen", "jessica"), ("bene-gesserit", "darwi")):
        for outcome in _case(("harkonnen", "feyd-rautha", False), (house, foe)):
            assert outcome["sides"]["harkonnen"]["total"] == 1 + 3, (house, foe)
    for outcome in _case(("harkonnen", "feyd-rautha", False), ("fremen", "chani")):  # not a Reverend Mother
        assert outcome["sides"]["harkonnen"]["total"] == 1 + 6
    # Mentats (Tufir A07, Piter H04, Bellonda B04): Bellonda (BG-L04-b) is worth 2 less facing one
    def bellonda(house: str, foe: str) -> set[float]:
        return {o["sides"]["bene-gesserit"]["total"] for o in _case(("bene-gesserit", "bellonda", False), (house, foe))}

    (plain,) = bellonda("harkonnen", "feyd-rautha")
    assert bellonda("harkonnen", "piter") == {plain - 2}
    assert bellonda("atreides", "tufir") == {plain - 2}
    sets = closed_sets()
    assert sets["reverend-mother"].holds(ROSTER.find("Alia", house="fremen"))
    assert sets["mentat"].holds(ROSTER.find("Piter", house="harkonnen"))
    assert sets["mentat"].holds(ROSTER.find("Tufir", house="atreides"))
    assert not sets["mentat"].holds(ROSTER.find("Feyd Rautha", house="harkonnen"))
    for name in ("Goose", "Bijaz", "Malki", "Gimjal"):
        assert sets["polymorph"].holds(ROSTER.find(name, house="bene-tleilax"))
    for name in ("Scytale", "Torg", "Mirlat", "Domel"):  # they lead Face Dancers but are not Polymorphs
        assert not sets["polymorph"].holds(ROSTER.find(name, house="bene-tleilax"))


def test_d_15_the_leader_is_committed_before_the_plan_by_an_immunity_answer():
    """The Atreides ask the Emperor's attack; "immune" (Hasimir, EMPEROR-L01-b) commits Hasimir before the plans:
    then only Hasimir may lead."""
    state = pre.battle(["atreides", "emperor"], [("atreides", "arsunt", 5, 3), ("emperor", "arsunt", 5, 3)],
                       {"emperor": ("poison-fast",)})
    state = play_battle(state, until=("battle-prescience", "atreides"))
    state = apply_action(state, AskPrescience("atreides", "attack"))
    state = apply_action(state, AnswerPrescience("emperor", "immune"))
    state = play_battle(state)  # to the plans
    if state.pending.actor == "atreides":
        state = pre.submit(state, "atreides", "duncan-idaho", 1)
    assert state.pending.actor == "emperor"
    assert check_action(state, SubmitPlan("emperor", "hasimir", 1, 0, 0)) is None
    assert check_action(state, SubmitPlan("emperor", "burseg", 1, 0, 0)) is not None
    assert {a.leader for a in decisions(state) if a.kind == "plan"} == {"hasimir"}
