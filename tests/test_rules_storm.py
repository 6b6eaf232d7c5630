"""Storms: STORM-3 to STORM-18, GAP-7 to GAP-11, GAP-31, GAP-38, TURN-2/TURN-3, FREMEN-P1 (tokens 1-7)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from helpers_game import (
    assert_conserved,
    commit_harvester,
    decisions,
    dial,
    events_of,
    finish_turn,
    give_weather_control,
    outcome_map,
    pass_karama,
    pass_unable,
    place,
    put_spice,
    quiet_setup,
    set_storms,
    tokens_at,
)

from dunenb.actions import DialStorm, Pass, PlayWeatherControl
from dunenb.engine import apply_action, legal_actions
from dunenb.rules.common import WEATHER_CONTROL, storm_order

THREE = ["atreides", "harkonnen", "emperor"]  # starts 1, 4, 7; dialers emperor then harkonnen


def storm_position(**kwargs):
    """Turn 2, before the storm dials: no Fremen, the main storm on sector 1 (and the secondary on 15)."""
    state = quiet_setup(THREE, **kwargs)
    assert state.turn == 2 and state.pending.kind == "dial"
    assert state.storm_dialers == ("emperor", "harkonnen")
    return state


def play(state, action):
    """Play ``action``, then pass the weather nodes of Houses with no storm card (GAP-62: every House is asked)."""
    return pass_unable(apply_action(state, action), ("weather",))


def moved(state, storm="main"):
    return next(e.data for e in events_of(state, "storm-moved") if e.data["storm"] == storm)


# --- STORM-3, GAP-7: how far the storms move --------------------------------------------------------------

@pytest.mark.parametrize("token", [1, 4, 7])
def test_STORM_3_with_the_fremen_the_drawn_token_moves_the_storm(token):
    state = quiet_setup(["fremen", "atreides"], tokens={"main": token})
    assert state.turn == 2
    revealed = events_of(state, "storm-token-revealed")
    assert [e.data["value"] for e in revealed] == [token]
    assert moved(state)["moves"] == token
    assert state.storm_main == 1 + token  # counterclockwise from sector 1


def test_GAP_7c_the_fremen_draw_next_turns_token_1_to_7_each_one_seventh():
    state = pass_karama(quiet_setup(["fremen", "atreides"], tokens={"main": 3}, secondary_storm=True))  # KARAMA-5
    for storm in ("main", "secondary"):
        outcomes = outcome_map(state)
        assert {(a.storm, a.value) for a in outcomes} == {(storm, v) for v in range(1, 8)}
        assert set(outcomes.values()) == {Fraction(1, 7)}
        state = play(state, next(a for a in outcomes if a.value == 5))
    assert dict(state.storm_tokens) == {"main": 5, "secondary": 5}
    assert state.phase == "spice-blow"


def test_GAP_7d_with_the_fremen_each_storm_has_its_own_token():
    state = quiet_setup(["fremen", "atreides"], tokens={"main": 2, "secondary": 6}, secondary_storm=True)
    assert (state.storm_main, state.storm_secondary) == (3, 21)
    assert [e.data["storm"] for e in events_of(state, "storm-moved")] == ["main", "secondary"]


def test_GAP_7a_without_the_fremen_two_players_dial_0_to_3():
    state = storm_position()
    assert state.pending.actor == "emperor"
    assert {a.value for a in decisions(state)} == {0, 1, 2, 3}
    assert all(isinstance(a, DialStorm) and a.storm == "main" for a in decisions(state))
    state = dial(state, 3)
    assert state.pending.actor == "harkonnen" and {a.value for a in decisions(state)} == {0, 1, 2, 3}
    state = dial(state, 2)
    assert moved(state)["moves"] == 5 and state.storm_main == 6


def test_GAP_7a_a_zero_move_is_possible_without_the_fremen():
    state = dial(storm_position(), 0, 0)
    assert state.storm_main == 1 and moved(state)["moves"] == 0 and moved(state)["path"] == ()


def test_GAP_7b_before_any_battle_the_initial_dialers_dial():
    state = storm_position()
    assert state.storm_dialers == ("emperor", "harkonnen")  # the two highest 3d10 totals (SETUP-4)
    assert state.pending.actor == state.storm_dialers[0]


def test_GAP_7d_without_the_fremen_the_secondary_storm_has_its_own_dials():
    state = dial(storm_position(secondary_storm=True), 1, 1)
    assert state.pending.kind == "dial" and state.pending.detail["storm"] == "secondary"
    state = dial(state, 3, 0)
    assert (state.storm_main, state.storm_secondary) == (3, 18)


def test_STORM_3_the_storm_always_moves_counterclockwise_and_wraps_after_24():
    state = set_storms(storm_position(), main=22)
    state = dial(state, 3, 2)
    assert moved(state)["path"] == (23, 24, 1, 2, 3)
    assert state.storm_main == 3


# --- STORM-5, GAP-31, GAP-8: weather control ---------------------------------------------------------------

def test_STORM_5_weather_control_adds_two_and_leaves_the_hand():
    state = give_weather_control(storm_position(), "atreides")
    state = dial(state, 2, 1)
    assert state.pending.kind == "weather" and state.pending.actor == "atreides"
    choices = decisions(state)
    assert Pass("atreides") in choices and PlayWeatherControl("atreides", "main", "plus2") in choices
    assert {a.sectors for a in choices if getattr(a, "mode", "") == "stop"} == {0, 1, 2, 3}
    after = play(state, PlayWeatherControl("atreides", "main", "plus2"))
    assert moved(after)["moves"] == 5 and after.storm_main == 6
    assert WEATHER_CONTROL not in after.houses["atreides"].hand
    assert after.treachery_discard == state.treachery_discard + (WEATHER_CONTROL,)  # GAP-27: discarded
    kept = play(state, Pass("atreides"))
    assert moved(kept)["moves"] == 3 and kept.houses["atreides"].hand.count(WEATHER_CONTROL) == 1


@pytest.mark.parametrize("stop", [0, 1, 3])
def test_GAP_31_weather_control_may_stop_the_storm_on_any_sector_of_its_path_including_zero(stop):
    state = give_weather_control(storm_position(), "harkonnen")
    state = place(state, "emperor", "bassin-imperial", 3, 2)
    state = dial(state, 2, 1)
    state = play(state, PlayWeatherControl("harkonnen", "main", "stop", stop))
    assert moved(state)["moves"] == stop and state.storm_main == 1 + stop
    assert tokens_at(state, "emperor", "bassin-imperial", 3) == (0 if stop >= 2 else 2)  # STORM-18
    assert WEATHER_CONTROL not in state.houses["harkonnen"].hand
    assert_conserved(state)


def test_GAP_31_a_stop_beyond_the_path_is_illegal():
    state = dial(give_weather_control(storm_position(), "harkonnen"), 1, 0)
    from dunenb.errors import IllegalActionError

    with pytest.raises(IllegalActionError) as info:
        play(state, PlayWeatherControl("harkonnen", "main", "stop", 2))
    assert info.value.code == "action/illegal"


def test_GAP_31_a_card_acts_on_one_storm_only():
    state = give_weather_control(storm_position(secondary_storm=True), "atreides")
    state = dial(state, 1, 1)
    state = play(state, PlayWeatherControl("atreides", "main", "plus2"))
    assert state.storm_main == 5
    state = dial(state, 1, 1)  # no card left: the secondary storm moves by its dials only
    assert state.storm_secondary == 17 and state.pending.kind != "weather"


def test_GAP_31_weather_control_is_offered_again_for_the_secondary_storm():
    state = give_weather_control(storm_position(secondary_storm=True), "atreides")
    state = play(dial(state, 0, 0), Pass("atreides"))
    state = dial(state, 1, 1)
    assert state.pending.kind == "weather" and state.pending.detail["storm"] == "secondary"
    state = play(state, PlayWeatherControl("atreides", "secondary", "plus2"))
    assert (state.storm_main, state.storm_secondary) == (1, 19)


def test_GAP_8_without_the_fremen_the_storm_moves_at_most_10():
    state = give_weather_control(give_weather_control(storm_position(), "atreides"), "harkonnen")
    state = dial(state, 3, 3)
    for house in ("atreides", "harkonnen"):
        state = play(state, PlayWeatherControl(house, "main", "plus2"))
    assert moved(state)["moves"] == 10 and state.storm_main == 11


def test_GAP_8_with_the_fremen_the_storm_moves_at_most_11_even_with_both_cards_in_one_hand():
    state = quiet_setup(["fremen", "atreides"], tokens={"main": 7}, stop_before="auction-card")
    state = give_weather_control(state, "atreides", 2)
    state = finish_turn(state)  # turn 1 is played out (passes in the auction); turn 2's storm begins
    assert state.pending.kind == "weather" and state.pending.detail["move"] == 7
    state = play(state, PlayWeatherControl("atreides", "main", "plus2"))
    assert state.pending.kind == "weather" and state.pending.actor == "atreides"
    state = play(state, PlayWeatherControl("atreides", "main", "plus2"))
    assert moved(state)["moves"] == 11 and state.storm_main == 12
    assert WEATHER_CONTROL not in state.houses["atreides"].hand


# --- STORM-6, STORM-18, GAP-9, STORM-7, STORM-9, GAP-17: destruction -----------------------------------------

def test_STORM_6_desert_tokens_and_spice_are_destroyed_in_every_sector_passed_over():
    state = storm_position()  # main storm on 1; the move 3 + 3 passes over 2..6 and stops on 7
    state = place(state, "emperor", "depression-de-hiereg", 2, 2)
    state = place(state, "emperor", "bassin-de-hagga", 5, 3, 1)
    state = place(state, "emperor", "erg-mineur", 7, 1)
    state = place(state, "emperor", "erg-mineur", 8, 4)  # same desert, beyond the path
    state = place(state, "emperor", "depression-de-hiereg", 1, 1)  # the storm's starting sector
    state = put_spice(state, "bassin-imperial", 5)  # diamond in sector 2
    state = put_spice(state, "bassin-de-hagga", 3)  # diamond in sector 5
    state = put_spice(state, "erg-mineur", 4)  # diamond in sector 7
    state = put_spice(state, "mesa-maya", 2)  # diamond in sector 10, off the path
    state = dial(state, 3, 3)
    assert moved(state)["path"] == (2, 3, 4, 5, 6, 7)
    assert tokens_at(state, "emperor", "depression-de-hiereg", 2) == 0
    assert tokens_at(state, "emperor", "bassin-de-hagga", 5) == 0
    assert tokens_at(state, "emperor", "erg-mineur", 7) == 0
    assert tokens_at(state, "emperor", "erg-mineur", 8) == 4
    assert tokens_at(state, "emperor", "depression-de-hiereg", 1) == 1
    assert state.houses["emperor"].tanks.total == 7 and state.houses["emperor"].tanks.marked == 1
    assert dict(state.spice_on_map) == {"mesa-maya": 2, "grande-etendue": 10}  # Bassin du Bouclier (6) swept too
    destroyed = {e.data["area"] for e in events_of(state, "spice-destroyed")}
    assert destroyed == {"bassin-imperial", "bassin-de-hagga", "erg-mineur", "bassin-du-bouclier"}
    assert_conserved(state)


def test_STORM_18_the_whole_path_is_ravaged_not_only_the_final_sector():
    state = place(storm_position(), "emperor", "depression-de-hiereg", 3, 2)
    state = dial(state, 2, 2)  # stops on 5, passing over 3
    assert state.storm_main == 5
    assert tokens_at(state, "emperor", "depression-de-hiereg") == 0


def test_STORM_6_the_north_pole_is_spared():
    state = place(storm_position(), "emperor", "pole-nord", 4, 5)
    state = dial(state, 3, 3)
    assert tokens_at(state, "emperor", "pole-nord", 4) == 5


def test_GAP_9_mountains_are_protected():
    state = place(storm_position(), "emperor", "bouclier", 3, 3)
    state = place(state, "emperor", "faille-rouge", 7, 2)
    state = dial(state, 3, 3)
    assert tokens_at(state, "emperor", "bouclier", 3) == 3
    assert tokens_at(state, "emperor", "faille-rouge", 7) == 2


def test_STORM_7_sietchs_are_protected():
    state = set_storms(storm_position(), main=10)
    state = place(state, "emperor", "sietch-tarb", 12, 3)
    state = place(state, "emperor", "nord-cielago", 13, 2)
    state = dial(state, 2, 1)  # 11, 12, 13
    assert tokens_at(state, "emperor", "sietch-tarb") == 3
    assert tokens_at(state, "emperor", "nord-cielago") == 0


def test_STORM_7_sietchs_stay_protected_without_the_shield_wall():
    state = dataclasses.replace(set_storms(storm_position(), main=10), shield_wall_standing=False)
    state = place(state, "emperor", "sietch-tarb", 12, 3)
    state = dial(state, 2, 1)
    assert tokens_at(state, "emperor", "sietch-tarb") == 3


def test_STORM_7_cities_are_protected_while_the_shield_wall_stands():
    state = set_storms(storm_position(), main=2)
    state = place(state, "emperor", "arsunt", 5, 2)
    state = dial(state, 2, 1)  # 3, 4, 5: Carthag and Arsunt
    assert state.storm_main == 5
    assert tokens_at(state, "harkonnen", "carthag") == 10
    assert tokens_at(state, "emperor", "arsunt") == 2


def test_STORM_7_cities_are_destroyed_when_the_shield_wall_is_gone():
    state = dataclasses.replace(set_storms(storm_position(), main=2), shield_wall_standing=False)
    state = place(state, "emperor", "arsunt", 5, 2)
    state = place(state, "emperor", "bouclier", 3, 1)  # GAP-30: the blasted Shield Wall is desert
    state = place(state, "emperor", "faille-rouge", 7, 1)  # other mountains stay protected
    state = dial(state, 3, 2)  # 3..7
    assert tokens_at(state, "harkonnen", "carthag") == 0
    assert tokens_at(state, "emperor", "arsunt") == 0
    assert tokens_at(state, "emperor", "bouclier") == 0
    assert tokens_at(state, "emperor", "faille-rouge") == 1
    assert tokens_at(state, "atreides", "arrakeen") == 10  # sector 1 is not on the path
    assert state.houses["harkonnen"].tanks.total == 10
    assert_conserved(state)


def test_STORM_9_GAP_17_committed_harvesters_are_destroyed_uncommitted_ones_kept():
    state = storm_position()
    state = place(state, "harkonnen", "erg-mineur", 7, 3)
    state = commit_harvester(state, "harkonnen", "erg-mineur", 7)
    state = place(state, "atreides", "erg-mineur", 8, 3)
    state = commit_harvester(state, "atreides", "erg-mineur", 8)  # same desert, off the path
    state = dataclasses.replace(state, houses=state.houses.set(
        "emperor", dataclasses.replace(state.houses["emperor"], harvesters=2)))
    state = place(state, "emperor", "erg-mineur", 7, 2)  # uncommitted harvesters stay with their owner
    state = dial(state, 3, 3)
    assert ("harkonnen", "erg-mineur", 7) not in state.committed_harvesters
    assert state.committed_harvesters[("atreides", "erg-mineur", 8)] == 1
    assert state.houses["emperor"].harvesters == 2
    assert state.houses["harkonnen"].harvesters == 0
    assert [e.data["house"] for e in events_of(state, "harvester-destroyed")] == ["harkonnen"]
    assert tokens_at(state, "emperor", "erg-mineur") == 0 and tokens_at(state, "harkonnen", "erg-mineur") == 0


# --- STORM-14, STORM-15, GAP-11, STORM-16 -------------------------------------------------------------------

def test_STORM_14_the_secondary_storm_destroys_by_the_same_rules():
    state = storm_position(secondary_storm=True)  # secondary storm on 15
    state = place(state, "emperor", "terre-brisee", 20, 2)
    state = place(state, "emperor", "gara-kulon", 20, 2)
    state = place(state, "emperor", "chaine-de-sihaya", 19, 2)
    state = place(state, "emperor", "pole-nord", 18, 1)
    state = place(state, "atreides", "bassin-plastique", 16, 2)
    state = dial(dial(state, 0, 0), 3, 3)  # main stays on 1; secondary 16..21
    assert moved(state, "secondary")["path"] == (16, 17, 18, 19, 20, 21)
    assert tokens_at(state, "emperor", "terre-brisee") == 0
    assert tokens_at(state, "atreides", "bassin-plastique") == 0
    assert tokens_at(state, "emperor", "gara-kulon") == 2
    assert tokens_at(state, "emperor", "chaine-de-sihaya") == 2
    assert tokens_at(state, "emperor", "pole-nord") == 1
    assert "grande-etendue" not in state.spice_on_map  # diamond in sector 17
    assert state.spice_on_map["bassin-du-bouclier"] == 6
    assert not events_of(state, "double-storm")
    assert_conserved(state)


def test_STORM_15_GAP_11_double_storm_destroys_all_but_the_pole_and_sietchs():
    state = set_storms(storm_position(secondary_storm=True), main=18, secondary=17)
    state = place(state, "emperor", "chaine-de-sihaya", 20, 3)  # mountain in the final sector
    state = place(state, "emperor", "chaine-de-sihaya", 19, 2)  # mountain passed over: protected
    state = place(state, "emperor", "gara-kulon", 20, 4)
    state = place(state, "emperor", "pole-nord", 20, 1)
    state = place(state, "atreides", "terre-brisee", 21, 2)  # beyond both storms
    state = dial(dial(state, 1, 1), 2, 1)
    assert state.storm_main == state.storm_secondary == 20
    assert [e.data["sector"] for e in events_of(state, "double-storm")] == [20]
    assert tokens_at(state, "emperor", "chaine-de-sihaya", 20) == 0
    assert tokens_at(state, "emperor", "chaine-de-sihaya", 19) == 2
    assert tokens_at(state, "emperor", "gara-kulon") == 4
    assert tokens_at(state, "emperor", "pole-nord") == 1
    assert tokens_at(state, "atreides", "terre-brisee") == 2
    assert_conserved(state)


def test_GAP_11_double_storm_destroys_cities_even_with_the_shield_wall_standing():
    state = set_storms(storm_position(secondary_storm=True), main=23, secondary=22)
    state = place(state, "emperor", "bouclier", 1, 2)
    state = place(state, "emperor", "bouclier", 2, 2)
    assert state.shield_wall_standing
    state = dial(dial(state, 1, 1), 2, 1)
    assert state.storm_main == state.storm_secondary == 1
    assert tokens_at(state, "atreides", "arrakeen") == 0
    assert tokens_at(state, "emperor", "bouclier", 1) == 0
    assert tokens_at(state, "emperor", "bouclier", 2) == 2
    assert tokens_at(state, "harkonnen", "carthag") == 10
    assert state.houses["atreides"].tanks.total == 10


def test_GAP_11_a_storm_passing_over_the_other_is_no_double_storm():
    state = set_storms(storm_position(secondary_storm=True), main=5, secondary=3)
    state = place(state, "emperor", "bouclier", 5, 2)
    state = dial(dial(state, 0, 0), 2, 1)  # the secondary passes over 5 and stops on 6
    assert (state.storm_main, state.storm_secondary) == (5, 6)
    assert not events_of(state, "double-storm")
    assert tokens_at(state, "emperor", "bouclier", 5) == 2


def test_STORM_16_the_main_storm_moves_first():
    state = storm_position(secondary_storm=True)
    assert state.pending.detail["storm"] == "main"
    state = dial(state, 1, 1)
    assert [e.data["storm"] for e in events_of(state, "storm-moved")] == ["main"]
    assert state.pending.detail["storm"] == "secondary"
    fremen = quiet_setup(["fremen", "atreides"], tokens={"main": 2, "secondary": 3}, secondary_storm=True)
    kinds = [(e.kind, e.data.get("storm")) for e in fremen.events if e.kind.startswith("storm")]
    assert kinds == [("storm-token-revealed", "main"), ("storm-moved", "main"),
                     ("storm-token-revealed", "secondary"), ("storm-moved", "secondary")]


# --- TURN-2, TURN-3, GAP-38 ------------------------------------------------------------------------------------

def test_TURN_2_TURN_3_GAP_38_storm_order_runs_counterclockwise_from_the_main_storm():
    state = storm_position(secondary_storm=True)  # starts: atreides 1, harkonnen 4, emperor 7
    assert storm_order(set_storms(state, main=1)) == ("atreides", "harkonnen", "emperor")
    assert storm_order(set_storms(state, main=5)) == ("emperor", "atreides", "harkonnen")
    assert storm_order(set_storms(state, main=4)) == ("harkonnen", "emperor", "atreides")  # leading edge first
    assert storm_order(set_storms(state, main=2)) == ("harkonnen", "emperor", "atreides")  # trailing edge last
    assert storm_order(set_storms(state, main=20)) == ("atreides", "harkonnen", "emperor")
    for secondary in (2, 5, 8, 24):  # GAP-38: the main storm alone sets the order
        assert storm_order(set_storms(state, main=5, secondary=secondary)) == ("emperor", "atreides", "harkonnen")


def test_TURN_3_weather_control_holders_are_asked_in_storm_order():
    state = set_storms(storm_position(), main=5)
    state = give_weather_control(give_weather_control(state, "atreides"), "emperor")
    state = dial(state, 1, 0)
    assert state.pending.actor == "emperor"
    state = apply_action(state, Pass("emperor"))
    assert state.pending.actor == "atreides"
    state = apply_action(state, Pass("atreides"))
    assert state.pending.actor == "harkonnen" and decisions(state) == [Pass("harkonnen")]  # GAP-62: asked too
    state = apply_action(state, Pass("harkonnen"))
    assert state.storm_main == 6


# --- STORM-15, GAP-11: inside a Sietch under the double storm nobody makes a 0-move or fights ------------------

def _sietch_under_storms(secondary):
    """Atreides and Harkonnen armies inside Sietch Tarb (sector 12), the main storm on 12, the secondary on
    ``secondary``; the battle phase about to begin."""
    from helpers_game import clear_map

    state = clear_map(storm_position(secondary_storm=True))
    state = set_storms(state, main=12, secondary=secondary)
    state = place(place(state, "atreides", "sietch-tarb", 12, 3), "harkonnen", "sietch-tarb", 12, 2)
    return dataclasses.replace(state, events=())


def test_storm_15_nobody_fights_inside_a_sietch_in_the_double_storm_sector():
    from dunenb.rules.battle_phase import arenas, begin_phase

    single = _sietch_under_storms(secondary=15)  # one storm on the Sietch: protected, they fight (GAP-46)
    assert [a.area for a in arenas(single)] == ["sietch-tarb"]
    double = _sietch_under_storms(secondary=12)
    assert arenas(double) == ()
    after = begin_phase(double)
    assert after.phase != "battle" or after.pending.kind != "battle-choice"
    assert not events_of(after, "battle") and tokens_at(after, "atreides", "sietch-tarb") == 3
    assert tokens_at(after, "harkonnen", "sietch-tarb") == 2  # spared by the double storm (STORM-15), not freed


def test_storm_15_the_double_storm_reached_in_the_storm_phase_stops_the_battle_in_the_sietch():
    from dunenb.rules.battle_phase import arenas

    state = _sietch_under_storms(secondary=15)
    state = set_storms(state, main=10, secondary=9)
    state = dial(dial(state, 1, 1), 2, 1)  # main 10 -> 12, secondary 9 -> 12
    assert state.storm_main == state.storm_secondary == 12 and events_of(state, "double-storm")
    assert tokens_at(state, "atreides", "sietch-tarb") == 3  # the inside of a Sietch is untouched
    assert arenas(state) == ()


def test_storm_15_no_move_of_0_inside_a_sietch_in_the_double_storm_sector():
    from test_rules_movement import error_code, movement_position

    from dunenb.rules.movement import Reposition

    forces = [("atreides", "sietch-tarb", 12, 3)]
    state = movement_position(storm=12, forces=forces, actor="atreides", secondary_storm=True)
    state = set_storms(state, secondary=12)
    code = error_code(state, Reposition("atreides", "sietch-tarb", 12, 12, 3))
    assert code == "reposition/double-storm"
    assert not [a for a in legal_actions(state) if a.kind == "reposition" and a.area == "sietch-tarb"]


# --- STORM-3, TURN-1 a, GAP-7, GAP-52: once the Fremen are eliminated the last two fighters dial -------------

def test_storm_3_fallen_fremen_the_last_two_fighters_dial_and_no_token_is_drawn_again():
    from helpers_game import finish_turn

    from dunenb.actions import DrawStormToken
    from dunenb.engine import view
    from dunenb.powers import holder
    from dunenb.rules.battle_phase import eliminate

    state = pass_karama(quiet_setup(["fremen", "atreides", "harkonnen"], tokens={"main": 2}))  # KARAMA-5 asked
    assert state.turn == 2 and state.pending.kind == "storm-token"  # turn 2 moved by the token; turn 3's draw
    state = play(state, DrawStormToken("main", 4))
    assert state.storm_tokens["main"] == 4
    state = eliminate(state, "fremen", cause="test")  # as when Liet Kynes dies in a battle (VICTORY-2)
    state = dataclasses.replace(state, storm_dialers=("harkonnen", "atreides"))  # the last battle's two Houses
    assert holder(state, "FREMEN-P1") is None and state.storm_tokens == {}  # GAP-52: the token is put back
    assert view(state, "fremen").storm_tokens == {}
    state = finish_turn(state)
    assert state.turn == 3 and state.pending.kind == "dial" and state.pending.actor == "harkonnen"
    assert not events_of(state, "storm-token-revealed")
    state = dial(state, 3, 3)  # 0..3 each: 0..6 (GAP-7a)
    assert moved(state)["moves"] == 6
    assert state.pending.kind != "storm-token" and not events_of(state, "storm-token")
    assert_conserved(state)
