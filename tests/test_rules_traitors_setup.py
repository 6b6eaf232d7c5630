"""Setup c) and d) in a game: the BG prediction (BG-P6) and the traitor draw (TRAITOR-1 to TRAITOR-5, G-7,
HARKONNEN-P1, K-21), and what the view hides of them."""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest
from helpers_game import assert_conserved, events_of, force, outcome_map, play_setup

from dunenb.actions import action_from_dict, parse_action
from dunenb.battle.roster import load_roster
from dunenb.engine import apply_action, current_player, legal_actions, view
from dunenb.errors import IllegalActionError
from dunenb.rules.flow import SETUP_STEPS
from dunenb.rules.traitors import DrawTraitor, PickTraitor, Predict, traitor_pool

ROSTER = load_roster()


def at_draw(houses, **kwargs):
    """The first traitor-draw chance node of a setup."""
    state = play_setup(houses, stop_before="traitor-draw", **kwargs)
    assert state.pending.kind == "traitor-draw", state.pending
    return state


def draw(state, *leaders):
    """Force the next draws: ``leaders`` are (house, leader id), for whoever is drawing."""
    for leader_house, leader in leaders:
        state = force(state, DrawTraitor(state.pending.detail["house"], leader_house, leader))
    return state


def draw_at_random(state):
    while state.pending.kind == "traitor-draw":
        state = force(state, next(iter(outcome_map(state))))
    return state


def drawers(state):
    """Who draws each card, in order, until the draw is over (the first outcome is taken each time)."""
    seen = []
    while state.pending.kind == "traitor-draw":
        seen.append(state.pending.detail["house"])
        state = force(state, next(iter(outcome_map(state))))
    return seen, state


def illegal(state, action):
    snapshot = copy.deepcopy(state)
    with pytest.raises(IllegalActionError) as info:
        apply_action(state, action)
    assert state == snapshot
    return info.value.code


# --- order --------------------------------------------------------------------------------------------------

def test_SETUP_8_traitors_are_drawn_just_after_the_prediction():
    names = [name for name, _ in SETUP_STEPS]
    assert names.index("traitors") == names.index("prediction") + 1
    state = play_setup(["bene-gesserit", "atreides"], stop_before="prediction")
    assert state.pending.kind == "prediction" and state.pending.actor == "bene-gesserit"
    state = apply_action(state, Predict("bene-gesserit", "atreides", 3))
    assert state.pending.kind == "traitor-draw"


# --- TRAITOR-1 to TRAITOR-3 ------------------------------------------------------------------------------------

def test_TRAITOR_1_G_7_main_leaders_are_never_in_the_pool():
    state = at_draw(["atreides", "harkonnen", "fremen"])
    outcomes = outcome_map(state)
    drawn = {(a.leader_house, a.leader) for a in outcomes}
    mains = {(leader.house, leader.id) for leader in ROSTER.leaders if leader.main}
    assert not drawn & mains
    # leaders.md: A11, H10 (Yueh) and F05, F06, F07, F11, F12 are out of the game in this line-up
    assert len(drawn) == 3 * 12 - 7 == len(traitor_pool(state))
    assert set(outcomes.values()) == {Fraction(1, 29)} and sum(outcomes.values()) == 1


def test_TRAITOR_1_each_card_drawn_is_a_chance_node_over_the_leaders_left():
    state = at_draw(["atreides", "harkonnen", "fremen"])
    state = draw(state, ("fremen", "stilgar"))
    outcomes = outcome_map(state)
    assert DrawTraitor(state.pending.detail["house"], "fremen", "stilgar") not in outcomes
    assert len(outcomes) == 28 and set(outcomes.values()) == {Fraction(1, 28)}  # 29 in play, 1 drawn
    assert current_player(state) == "chance"


@pytest.mark.parametrize("players", range(2, 9))
def test_TRAITOR_2_each_house_draws_players_minus_one(players):
    houses = ["atreides", "fremen", "emperor", "guild", "dispersion", "bene-gesserit", "bene-tleilax",
              "harkonnen"][:players]
    seen, _ = drawers(at_draw(houses))
    expected = {h: players - 1 for h in houses}
    if "harkonnen" in houses:
        expected["harkonnen"] = 2 * (players - 1)  # TRAITOR-3
    assert {h: seen.count(h) for h in houses} == expected
    assert seen == sorted(seen, key=houses.index)  # in table order


def test_TRAITOR_3_HARKONNEN_P1_the_harkonnen_draw_double_and_keep_all_but_their_own():
    houses = ["harkonnen", "atreides", "bene-tleilax"]
    state = at_draw(houses)
    # 4 for the Harkonnen: an Atreides, their own Piter, a never-traitor (Goose), a Tleilax
    state = draw(state, ("atreides", "duncan-idaho"), ("harkonnen", "piter"), ("bene-tleilax", "goose"),
                 ("bene-tleilax", "scytale"))
    state = draw_at_random(state)
    assert set(state.houses["harkonnen"].traitors) == {("atreides", "duncan-idaho"), ("bene-tleilax", "scytale")}
    assert [e for e in state.events if e.kind == "traitors-kept"][0].data["count"] == 2
    assert state.pending.actor == "atreides" and state.pending.kind == "traitor-pick"  # no Harkonnen decision


def test_TRAITOR_4_every_other_house_picks_one_and_only_one():
    houses = ["atreides", "fremen", "emperor"]
    state = at_draw(houses)
    state = draw(state, ("fremen", "stilgar"), ("emperor", "hasimir"), ("atreides", "gurney"),
                 ("emperor", "bashar"), ("atreides", "duncan-idaho"), ("fremen", "otheym"))
    assert state.pending.kind == "traitor-pick" and state.pending.actor == "atreides"
    assert set(legal_actions(state)) == {PickTraitor("atreides", "fremen", "stilgar"),
                                         PickTraitor("atreides", "emperor", "hasimir")}
    assert illegal(state, PickTraitor("atreides", "atreides", "gurney")) == "action/illegal"  # drawn by the Fremen
    state = apply_action(state, PickTraitor("atreides", "emperor", "hasimir"))
    assert state.houses["atreides"].traitors == (("emperor", "hasimir"),)
    state = apply_action(state, PickTraitor("fremen", "atreides", "gurney"))
    state = apply_action(state, PickTraitor("emperor", "fremen", "otheym"))
    assert {h: len(state.houses[h].traitors) for h in houses} == {h: 1 for h in houses}
    assert state.pending.kind != "traitor-pick"
    assert_conserved(state)


def test_TRAITOR_5_seed_example_the_dispersion_picks_duncan_idaho():
    # L1321: 4 players, 3 leaders each; the Dispersion drew Duncan Idaho (6), Lucille (5) and its own Murbella.
    houses = ["dispersion", "atreides", "bene-gesserit", "fremen"]
    state = at_draw(houses)
    state = draw(state, ("atreides", "duncan-idaho"), ("bene-gesserit", "lucille"), ("dispersion", "murbella"))
    state = draw_at_random(state)
    assert state.pending.actor == "dispersion"
    choices = {(a.leader_house, a.leader) for a in legal_actions(state)}
    # picking its own Murbella "would not be subtle" but is allowed
    assert choices == {("atreides", "duncan-idaho"), ("bene-gesserit", "lucille"), ("dispersion", "murbella")}
    state = apply_action(state, PickTraitor("dispersion", "atreides", "duncan-idaho"))
    assert state.houses["dispersion"].traitors == (("atreides", "duncan-idaho"),)
    # Lucille, drawn and not picked, is nobody's traitor: a safe leader
    assert all(("bene-gesserit", "lucille") not in state.houses[h].traitors for h in houses)


def test_K_21_a_never_traitor_may_be_drawn_but_not_picked():
    state = at_draw(["atreides", "bene-tleilax"])
    state = draw(state, ("bene-tleilax", "goose"))  # the Atreides draw one leader: Goose, never a traitor
    state = draw_at_random(state)
    assert events_of(state, "no-traitor")[0].data["house"] == "atreides"
    assert state.houses["atreides"].traitors == ()


def test_TRAITOR_1_draw_actions_round_trip():
    action = DrawTraitor("harkonnen", "atreides", "duncan-idaho")
    assert parse_action(action.notation()) == action == action_from_dict(action.to_dict())
    pick = PickTraitor("atreides", "fremen", "stilgar")
    assert parse_action(pick.notation()) == pick == action_from_dict(pick.to_dict())


# --- BG-P6 ----------------------------------------------------------------------------------------------------

def test_BG_P6_the_bene_gesserit_predict_another_house_and_a_turn():
    state = play_setup(["bene-gesserit", "atreides", "emperor"], stop_before="prediction", turn_limit=5)
    choices = legal_actions(state)
    assert {a.winner for a in choices} == {"atreides", "emperor"} and {a.turn for a in choices} == set(range(1, 6))
    assert illegal(state, Predict("bene-gesserit", "bene-gesserit", 2)) == "prediction/house"
    assert illegal(state, Predict("bene-gesserit", "harkonnen", 2)) == "prediction/house"
    assert illegal(state, Predict("bene-gesserit", "emperor", 0)) == "prediction/turn"
    after = apply_action(state, Predict("bene-gesserit", "emperor", 12))  # any turn >= 1 is accepted
    assert after.houses["bene-gesserit"].prediction == ("emperor", 12)
    assert all("emperor" not in str(e.data.values()) for e in after.events)


def test_BG_P6_no_prediction_without_the_bene_gesserit():
    state = play_setup(["atreides", "harkonnen"], stop_before="traitor-draw")
    assert state.pending.kind == "traitor-draw"
    assert all(hs.prediction is None for hs in state.houses.values())


def test_BG_P6_TRAITOR_4_view_hides_the_prediction_the_slips_and_the_leaders_drawn():
    houses = ["bene-gesserit", "atreides", "fremen"]
    state = play_setup(houses, stop_before="prediction")
    state = apply_action(state, Predict("bene-gesserit", "fremen", 4))
    state = draw(state, ("fremen", "stilgar"), ("fremen", "otheym"))  # the BG's two draws
    state = draw(state, ("bene-gesserit", "lucille"))                  # the Atreides' first draw
    atreides = view(state, "atreides")
    assert atreides.houses["bene-gesserit"].prediction == ("hidden", 0)
    assert atreides.pending.detail["secrets"] == (("bene-gesserit", "hidden"), ("bene-gesserit", "hidden"),
                                                  ("atreides", ("bene-gesserit", "lucille")))
    assert view(state, "bene-gesserit").houses["bene-gesserit"].prediction == ("fremen", 4)
    state = draw_at_random(state)
    state = apply_action(state, PickTraitor("bene-gesserit", "fremen", "stilgar"))
    fremen = view(state, "fremen")
    assert fremen.houses["bene-gesserit"].traitors == (("hidden", "hidden"),)  # the number of slips is public
    assert view(state, "bene-gesserit").houses["bene-gesserit"].traitors == (("fremen", "stilgar"),)
    assert state.houses["bene-gesserit"].traitors == (("fremen", "stilgar"),)  # the state itself is untouched
    assert all("stilgar" not in str(e.data.values()) and "stilgar" not in e.text for e in state.events)
