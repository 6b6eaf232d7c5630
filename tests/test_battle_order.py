"""Which battles, in which order, and who may lead (BATTLE-1 to BATTLE-4, BATTLE-14 to BATTLE-18, GAP-34)."""

from __future__ import annotations

from dunenb.battle.order import (
    after_battle,
    battle_order,
    can_lead,
    contested_territories,
    defender_of,
    next_battle_turn,
)

STORM_ORDER = ["guild", "fremen", "atreides", "harkonnen", "bene-gesserit"]


def test_BATTLE_1_battle_when_two_armies_share_a_territory_never_at_the_pole_nor_with_bg_at_peace():
    presence = {"arrakeen": ["atreides", "harkonnen"], "pole-nord": ["guild", "fremen"],
                "carthag": ["harkonnen", "bene-gesserit"], "sietch-tarb": ["fremen"]}
    contested = contested_territories(presence, at_peace={"carthag": "bene-gesserit"})
    assert contested == {"arrakeen": ("atreides", "harkonnen")}


def test_BATTLE_2_always_two_houses_a_series_of_battles_for_three():
    order = battle_order(STORM_ORDER, {"arrakeen": ["atreides", "harkonnen", "fremen"]})
    assert all(len(battle) == 3 for battle in order)  # (territory, defender, attacker)
    assert len(order) == 2


def test_BATTLE_3_house_after_storm_fights_all_its_battles_choosing_territory_and_opponent():
    contested = {"arrakeen": ("atreides", "harkonnen"), "carthag": ("harkonnen", "fremen"),
                 "arsunt": ("fremen", "atreides")}
    turn = next_battle_turn(STORM_ORDER, contested)
    assert turn.chooser == "fremen"
    assert set(turn.choices) == {("carthag", "harkonnen"), ("arsunt", "atreides")}
    # after both its battles are fought, play passes counterclockwise
    contested = after_battle(contested, "carthag", removed=["harkonnen"])
    contested = after_battle(contested, "arsunt", removed=["atreides"])
    assert next_battle_turn(STORM_ORDER, contested).chooser == "atreides"
    contested = after_battle(contested, "arrakeen", removed=["harkonnen"])
    assert next_battle_turn(STORM_ORDER, contested) is None  # at most one army left per territory


def test_BATTLE_14_defender_is_nearest_after_the_storm_and_chose_the_battle_GAP_34a():
    assert defender_of(STORM_ORDER, "harkonnen", "fremen") == "fremen"
    turn = next_battle_turn(STORM_ORDER, {"arrakeen": ("harkonnen", "atreides")})
    assert turn.chooser == defender_of(STORM_ORDER, "harkonnen", "atreides")


def test_BATTLE_15_a_leader_cannot_be_in_two_territories():
    assert not can_lead("gurney", "carthag", is_main=False, alive=True, committed={"gurney": "arrakeen"})
    assert can_lead("gurney", "arrakeen", is_main=False, alive=True, committed={"gurney": "arrakeen"})
    assert not can_lead("gurney", "arrakeen", is_main=False, alive=False, committed={})


def test_BATTLE_16_main_leader_may_fight_in_several_territories():
    assert can_lead("paul", "carthag", is_main=True, alive=True, committed={"paul": "arrakeen"})


def test_BATTLE_17_all_battles_are_compulsory():
    contested = {"arrakeen": ("atreides", "harkonnen", "fremen")}
    order = battle_order(STORM_ORDER, contested)
    assert {(d, a) for _, d, a in order} == {("fremen", "atreides"), ("fremen", "harkonnen")}


def test_BATTLE_18_the_chooser_picks_the_order_of_its_battles():
    contested = {"arrakeen": ("fremen", "atreides"), "carthag": ("fremen", "harkonnen")}
    choices = next_battle_turn(STORM_ORDER, contested).choices
    assert len(choices) == 2  # it may fight the easy battle first
