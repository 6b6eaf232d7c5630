"""The battle phase in a game (TURN-1 i): BATTLE-1 to BATTLE-17, TRAITOR-8 to TRAITOR-12, GAP-7a, GAP-29, GAP-35,
GAP-42, GAP-43, GAP-45, GAP-46, VICTORY-2 with GAP-47.

Positions are built from a quiet setup: the map is cleared, tokens, cards, spice and slips are set, and the battle
phase begins. Battles are fought in protected territories (cities without tax, mountains) so that the storm and
the end of the turn do not touch the result; the tables have no Fremen, so the game waits at the storm dial of
the next turn once the battles are over.
"""

from __future__ import annotations

import copy
import dataclasses
from fractions import Fraction

import numpy as np
import pytest
from helpers_game import (
    assert_conserved,
    clear_map,
    decisions,
    events_of,
    force,
    give_cards,
    outcome_map,
    pass_unable,
    place,
    quiet_setup,
    set_storms,
    settle_powers,
    skip_pre_battle,
    token_count,
    tokens_at,
)

from dunenb.actions import Pass, action_from_dict, parse_action
from dunenb.battle.cards import DEFENCES, WEAPONS
from dunenb.engine import apply_action, check_action, current_player, legal_actions, sample_chance, view
from dunenb.errors import IllegalActionError
from dunenb.rules.battle_context import context_of
from dunenb.rules.battle_phase import (
    Arena,
    BattleDie,
    CallTraitor,
    ChooseBattle,
    DiscardCards,
    SubmitPlan,
    arenas,
    begin_phase,
    eliminate,
)
from dunenb.rules.common import storm_order
from dunenb.state import Tokens

TWO = ["atreides", "harkonnen"]
THREE = ["atreides", "harkonnen", "emperor"]  # storm at 10: storm order atreides, harkonnen, emperor


def position(houses, forces, *, hands=None, spice=None, traitors=None, storm=10, begin=True):
    """A quiet setup with only ``forces`` [(house, area, sector, regular, marked)] on the map."""
    state = quiet_setup(houses)
    state = clear_map(set_storms(state, main=storm))
    for house in houses:
        hs = state.houses[house]
        state = dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(
            hs, hand=(), traitors=tuple((traitors or {}).get(house, ())))),
            treachery_discard=state.treachery_discard + hs.hand)
    for house, area, sector, regular, *marked in forces:
        state = place(state, house, area, sector, regular, *marked)
    for house, cards in (hands or {}).items():
        state = give_cards(state, house, *cards)
    for house, amount in (spice or {}).items():
        state = set_spice(state, house, amount)
    state = dataclasses.replace(state, events=(), storm_dialers=(houses[0], houses[-1]))
    return skip_pre_battle(begin_phase(state)) if begin else state


def set_spice(state, house, amount):
    """Give the House exactly ``amount`` spice, from or to the Bank (total spice stays 0)."""
    hs = state.houses[house]
    return dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(hs, spice=amount)),
                               bank=state.bank + hs.spice - amount)


def plan(state, leader, regular=0, marked=0, spice=0, weapon="none", defense="none"):
    """Submit the pending side's plan; then pass the traitor calls of sides that can only pass (GAP-62); the free
    cards a winner's leader may draw after the battle (leaders.md K-17 draw: Feyd) are drawn, the first
    outcome each."""
    state = apply_action(state, SubmitPlan(state.pending.actor, leader, regular, marked, spice, weapon, defense))
    return settle_powers(skip_pre_battle(pass_unable(state, ("leader-buy-off", "traitor-call"))),
                         ("after-battle-draw",))


def illegal(state, action):
    snapshot = copy.deepcopy(state)
    with pytest.raises(IllegalActionError) as info:
        apply_action(state, action)
    assert state == snapshot
    return info.value.code


def spice_of(state, house):
    return state.houses[house].spice


# --- BATTLE-1, GAP-46: where --------------------------------------------------------------------------------

def test_BATTLE_1_a_battle_wherever_two_houses_share_a_territory_never_at_the_north_pole():
    state = position(THREE, [("atreides", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 2),
                             ("harkonnen", "pole-nord", 7, 2), ("emperor", "pole-nord", 20, 2),
                             ("atreides", "mesa-molle", 8, 1), ("emperor", "mesa-molle", 9, 1),
                             ("emperor", "faille-rouge", 7, 4)], begin=False)
    assert arenas(state) == (Arena("arsunt", (5,), ("atreides", "harkonnen")),
                             Arena("mesa-molle", (8, 9), ("atreides", "emperor")))
    state = skip_pre_battle(begin_phase(state))
    assert events_of(state, "battle-phase")[0].data["arenas"] == (("arsunt", (5,), ("atreides", "harkonnen")),
                                                                   ("mesa-molle", (8, 9), ("atreides", "emperor")))


def test_BATTLE_1_BG_P3_tokens_at_peace_do_not_fight():
    state = position(TWO, [("atreides", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 2)], begin=False)
    assert arenas(dataclasses.replace(state, at_peace=(("harkonnen", "arsunt"),))) == ()


def test_GAP_46_houses_separated_by_a_storm_sector_do_not_fight():
    forces = [("atreides", "grande-etendue", 16, 3), ("harkonnen", "grande-etendue", 18, 3),
              ("emperor", "grande-etendue", 19, 3)]
    state = position(THREE, forces, storm=17, begin=False)
    assert [(a.area, a.sectors, set(a.houses)) for a in arenas(state)] == [
        ("grande-etendue", (18, 19), {"harkonnen", "emperor"})]
    # without the storm the whole territory is one battle of three
    assert arenas(set_storms(state, main=10))[0].houses == ("atreides", "harkonnen", "emperor")


def test_GAP_46_forces_in_a_protected_storm_sector_fight_only_in_that_sector():
    forces = [("atreides", "bouclier", 3, 3), ("harkonnen", "bouclier", 2, 3), ("emperor", "bouclier", 3, 2)]
    state = position(THREE, forces, storm=3, begin=False)
    found = arenas(state)
    assert [(a.area, a.sectors, set(a.houses)) for a in found] == [("bouclier", (3,), {"atreides", "emperor"})]


# --- BATTLE-2, BATTLE-3, BATTLE-14: order ---------------------------------------------------------------------

def test_BATTLE_3_the_first_house_in_storm_order_chooses_territory_and_opponent_and_defends():
    forces = [("atreides", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 3), ("atreides", "mesa-molle", 8, 3),
              ("emperor", "mesa-molle", 9, 3), ("harkonnen", "faille-rouge", 7, 3), ("emperor", "faille-rouge", 8, 3)]
    state = position(THREE, forces)
    assert storm_order(state) == ("atreides", "harkonnen", "emperor")
    assert state.pending.kind == "battle-choice" and state.pending.actor == "atreides"
    assert set(decisions(state)) == {ChooseBattle("atreides", "arsunt", 5, "harkonnen"),
                                         ChooseBattle("atreides", "mesa-molle", 8, "emperor")}
    state = skip_pre_battle(apply_action(state, ChooseBattle("atreides", "mesa-molle", 8, "emperor")))
    assert (state.pending.kind, state.pending.actor) == ("battle-plan", "atreides")  # BATTLE-14: the defender
    assert context_of(state).defender == "atreides" and context_of(state).attacker == "emperor"
    state = plan(state, "paul")           # 8
    state = plan(state, "burseg")         # weaker: the Atreides win
    # the Atreides' other battle starts at once (one choice left: not asked)
    assert (state.pending.kind, state.pending.actor) == ("battle-plan", "atreides")
    assert context_of(state).area == "arsunt" and events_of(state, "battle")[0].data["attacker"] == "harkonnen"
    state = plan(state, "paul")
    state = plan(state, "piter")
    # then play passes on counterclockwise: the Harkonnen defend in the Faille Rouge
    assert context_of(state).area == "faille-rouge" and state.pending.actor == "harkonnen"


def test_BATTLE_2_three_houses_in_one_territory_fight_a_series_of_two_sided_battles():
    forces = [("atreides", "arsunt", 5, 2), ("harkonnen", "arsunt", 5, 2), ("emperor", "arsunt", 5, 2)]
    state = position(THREE, forces)
    assert {a.opponent for a in decisions(state)} == {"harkonnen", "emperor"}
    state = skip_pre_battle(apply_action(state, ChooseBattle("atreides", "arsunt", 5, "emperor")))
    state = plan(state, "paul")
    state = plan(state, "burseg")
    assert tokens_at(state, "emperor", "arsunt") == 0
    assert context_of(state).attacker == "harkonnen" and state.pending.actor == "atreides"
    state = plan(state, "paul")
    state = plan(state, "piter")
    assert tokens_at(state, "atreides", "arsunt") == 2 and tokens_at(state, "harkonnen", "arsunt") == 0
    assert state.phase != "battle"  # BATTLE-3: at most one army left per territory


# --- plans ----------------------------------------------------------------------------------------------------

def test_BATTLE_5_every_battle_needs_a_leader_while_one_can_lead():
    state = position(TWO, [("atreides", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 2)])
    assert {a.leader for a in decisions(state)} == set(state.houses["atreides"].leaders)
    assert illegal(state, SubmitPlan("atreides", "none", 1, 0, 0)) == "battle/leader-required"
    assert illegal(state, SubmitPlan("atreides", "piter", 1, 0, 0)) == "battle/leader-unavailable"


def test_GAP_43_with_no_leader_a_house_fights_at_army_value_and_plays_no_card():
    state = position(TWO, [("atreides", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 2)],
                     hands={"atreides": ("lasgun",)}, begin=False)
    hs = state.houses["atreides"]
    state = dataclasses.replace(state, houses=state.houses.set("atreides", dataclasses.replace(
        hs, leaders=(), leader_tanks=hs.leaders)))
    state = skip_pre_battle(begin_phase(state))
    assert {(a.leader, a.weapon, a.defense) for a in decisions(state)} == {("none", "none", "none")}
    assert illegal(state, SubmitPlan("atreides", "none", 3, 0, 0, "lasgun")) == "battle/no-leader-cards"
    state = plan(state, "none", 3)   # 1.5
    state = plan(state, "piter", 0)  # 4: the Harkonnen win
    assert tokens_at(state, "atreides", "arsunt") == 0 and tokens_at(state, "harkonnen", "arsunt") == 2


@pytest.mark.parametrize(("action", "code", "names"), [
    (SubmitPlan("atreides", "paul", 4, 0, 0), "battle/dial-too-many", "regular"),
    (SubmitPlan("atreides", "paul", 0, 1, 0), "battle/dial-too-many", "marked"),
    (SubmitPlan("atreides", "paul", -1, 0, 0), "battle/dial-negative", "regular"),
    (SubmitPlan("atreides", "paul", 1, 0, 2), "battle/dial-spice", "GAP-42"),
    (SubmitPlan("atreides", "paul", 3, 0, 3), "battle/dial-spice-owned", "spice"),
    (SubmitPlan("atreides", "paul", 1, 0, 0, "lasgun"), "battle/card-not-held", "weapon"),
    (SubmitPlan("atreides", "paul", 1, 0, 0, "shield", "none"), "battle/weapon", "weapon"),
    (SubmitPlan("atreides", "paul", 1, 0, 0, "none", "lasgun"), "battle/defense", "defense"),
    (SubmitPlan("atreides", "paul", 1, 0, 0, "worthless", "worthless"), "battle/card-not-held", "worthless"),
    (SubmitPlan("atreides", "vladimir", 1, 0, 0), "battle/leader-unavailable", "allowed"),
])
def test_BATTLE_6_GAP_42_plans_are_checked_and_errors_name_the_field(action, code, names):
    state = position(TWO, [("atreides", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 2)],
                     hands={"atreides": ("worthless", "poison-fast")}, spice={"atreides": 2})
    error = check_action(state, action)
    assert error is not None and error.code == code and names in error.message


def test_BATTLE_6_the_plan_menu_is_legal_and_any_checked_plan_is_accepted():
    state = position(["emperor", "harkonnen"], [("emperor", "arsunt", 5, 5, 2), ("harkonnen", "arsunt", 5, 2)],
                     hands={"emperor": ("worthless", "poison-fast", "shield", "karama")}, spice={"emperor": 3})
    menu = decisions(state)
    # x 3: each plan without the Karama, with it on the wheel against the Harkonnen treachery (KARAMA-3, KARAMA-45)
    # and with it hidden against the opposing secondary leader (LC-11 b: KARAMA-50, GAP-122)
    # leaders.md: Irulan E07 may add her slow poison (K-7, 8 more pairs), Hasimir E01 a second attack card (K-6,
    # poison + worthless), Tyekanik E02 wears a shield and adds no Shield card (K-8, D-20: 3 pairs fewer)
    assert len(menu) == (10 * 8 + 16 + 9 + 5) * 6 * 3 and all(check_action(state, a) is None for a in menu[::17])
    assert {a.karama for a in menu} == {"none", "karama"}
    assert {a.weapon for a in menu} == {"none", "worthless", "poison-fast"}
    assert {a.defense for a in menu} == {"none", "worthless", "shield"}
    assert ("worthless", "worthless") not in {(a.weapon, a.defense) for a in menu}  # one worthless card only
    assert {(a.regular, a.marked, a.spice) for a in menu} == {  # none, 1/4, 1/2, 3/4 (marked first), all, + spice
        (0, 0, 0), (0, 2, 0), (2, 2, 0), (4, 2, 0), (5, 2, 0), (5, 2, 3)}
    odd = SubmitPlan("emperor", "hasimir", 1, 2, 3, "poison-fast", "none")  # not on the menu, but legal
    assert odd not in menu and check_action(state, odd) is None
    assert parse_action(odd.notation()) == odd == action_from_dict(odd.to_dict())


def test_BATTLE_13_the_view_hides_the_defenders_plan_from_the_attacker_until_the_reveal():
    state = position(TWO, [("atreides", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 2)],
                     hands={"atreides": ("shield",), "harkonnen": ("projectile-contact",)})
    state = plan(state, "gurney", 2, defense="shield")
    assert state.pending.actor == "harkonnen"
    assert context_of(view(state, "harkonnen")).secrets == (("atreides", "hidden"),)
    assert context_of(view(state, "atreides")).secrets == context_of(state).secrets
    assert all("gurney" not in e.text for e in state.events)
    state = apply_action(state, SubmitPlan("harkonnen", "piter", 1, 0, 0, weapon="projectile-contact"))
    state = pass_unable(state, ("leader-buy-off",))  # K-19 (GAP-111): Lingar could have led
    assert [e.data["leader"] for e in events_of(state, "plan-revealed")] == ["gurney", "piter"]
    state = pass_unable(state)
    assert state.pending.kind == "battle-d10"  # after the reveal both plans are public
    assert dict(context_of(view(state, "harkonnen")).plans)["atreides"].leader == "gurney"


# --- BATTLE-15, BATTLE-16: leaders over several battles -------------------------------------------------------

def test_BATTLE_15_a_secondary_leader_who_fought_cannot_fight_in_another_territory():
    forces = [("atreides", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 2), ("atreides", "mesa-molle", 8, 3),
              ("harkonnen", "mesa-molle", 9, 2)]
    state = position(TWO, forces)
    state = skip_pre_battle(apply_action(state, ChooseBattle("atreides", "arsunt", 5, "harkonnen")))
    state = plan(state, "gurney")
    state = plan(state, "piter")
    assert context_of(state).area == "mesa-molle"
    assert "gurney" not in {a.leader for a in decisions(state)}
    assert illegal(state, SubmitPlan("atreides", "gurney", 0, 0, 0)) == "battle/leader-unavailable"
    assert check_action(state, SubmitPlan("atreides", "paul", 0, 0, 0)) is None


def test_BATTLE_15_the_same_leader_may_fight_again_in_the_same_territory():
    forces = [("atreides", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 2), ("emperor", "arsunt", 5, 2)]
    state = position(THREE, forces)
    state = skip_pre_battle(apply_action(state, ChooseBattle("atreides", "arsunt", 5, "harkonnen")))
    state = plan(state, "gurney")
    state = plan(state, "piter")
    assert "gurney" in {a.leader for a in decisions(state)}


def test_BATTLE_16_the_main_leader_may_fight_in_several_territories():
    forces = [("atreides", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 2), ("atreides", "mesa-molle", 8, 3),
              ("harkonnen", "mesa-molle", 9, 2)]
    state = position(TWO, forces)
    state = skip_pre_battle(apply_action(state, ChooseBattle("atreides", "arsunt", 5, "harkonnen")))
    state = plan(state, "paul")
    state = plan(state, "piter")
    assert "paul" in {a.leader for a in decisions(state)}


# --- applying the outcome -------------------------------------------------------------------------------------

def test_BATTLE_10_BATTLE_11_the_winner_loses_what_it_dialled_the_loser_all_its_tokens_there():
    forces = [("atreides", "bouclier", 2, 5), ("harkonnen", "bouclier", 3, 2), ("harkonnen", "bouclier", 5, 2, 0),
              ("harkonnen", "arsunt", 5, 4)]
    state = position(TWO, forces)
    state = plan(state, "paul", 2)      # 8 + 1
    state = plan(state, "piter", 4)     # 4 + 2
    assert tokens_at(state, "atreides", "bouclier") == 3 and state.houses["atreides"].tanks == Tokens(2, 0)
    assert tokens_at(state, "harkonnen", "bouclier") == 0  # both stacks of the territory (BATTLE-11)
    assert tokens_at(state, "harkonnen", "arsunt") == 4 and state.houses["harkonnen"].tanks == Tokens(4, 0)
    assert token_count(state, "harkonnen") == 20
    assert_conserved(state)


def test_BATTLE_13_f4_a_tie_goes_to_the_defender():
    state = position(TWO, [("atreides", "arsunt", 5, 4), ("harkonnen", "arsunt", 5, 4)])
    state = plan(state, "tufir", 0)    # 4
    state = plan(state, "piter", 0)    # 4
    assert tokens_at(state, "atreides", "arsunt") == 4 and tokens_at(state, "harkonnen", "arsunt") == 0


def test_WHEEL_4_marked_tokens_dialled_are_lost():
    state = position(["emperor", "harkonnen"], [("emperor", "arsunt", 5, 3, 2), ("harkonnen", "arsunt", 5, 2)])
    assert state.pending.actor == "emperor"
    state = plan(state, "shaddam-iv", 1, 2)
    state = plan(state, "piter")
    assert state.houses["emperor"].tanks == Tokens(1, 2)
    assert state.forces[("emperor", "arsunt", 5)] == Tokens(2, 0)


def test_BATTLE_13_f3_GAP_35a_each_killed_leader_pays_his_value_to_the_opponent_from_the_bank():
    # (the brief's "BATTLE-12 bounties") both leaders die: the loser earns a bounty too (Appendix A)
    state = position(TWO, [("atreides", "arsunt", 5, 4), ("harkonnen", "arsunt", 5, 4)],
                     hands={"atreides": ("poison-fast",), "harkonnen": ("projectile-distance",)},
                     spice={"atreides": 0, "harkonnen": 0})
    bank = state.bank
    state = plan(state, "gurney", 2, weapon="poison-fast")             # Gurney 7
    state = plan(state, "feyd-rautha", 2, weapon="projectile-distance")  # Feyd 6
    assert {e.data["leader"] for e in events_of(state, "leader-killed")} == {"gurney", "feyd-rautha"}
    assert spice_of(state, "atreides") == 6 and spice_of(state, "harkonnen") == 7
    assert state.bank == bank - 13
    assert "gurney" in state.houses["atreides"].leader_tanks and "gurney" not in state.houses["atreides"].leaders
    assert "feyd-rautha" in state.houses["harkonnen"].leader_tanks
    # army values alone: 1 against 1, the defender wins the tie
    assert tokens_at(state, "atreides", "arsunt") == 2 and tokens_at(state, "harkonnen", "arsunt") == 0
    assert_conserved(state)


def test_GAP_42_spice_dialled_goes_to_the_bank_winner_and_loser_alike():
    state = position(TWO, [("atreides", "arsunt", 5, 4), ("harkonnen", "arsunt", 5, 4)],
                     spice={"atreides": 5, "harkonnen": 5})
    bank = state.bank
    state = plan(state, "paul", 3, spice=2)
    state = plan(state, "piter", 4, spice=3)
    assert spice_of(state, "atreides") == 3 and spice_of(state, "harkonnen") == 2
    assert state.bank == bank + 5
    assert_conserved(state)


def test_GAP_45_only_the_cards_on_the_wheel_are_lost_and_the_winner_may_discard_his():
    state = position(TWO, [("atreides", "arsunt", 5, 4), ("harkonnen", "arsunt", 5, 4)],
                     hands={"atreides": ("worthless", "shield", "karama"),
                            "harkonnen": ("projectile-distance", "snooper", "lasgun")})
    state = plan(state, "paul", 2, weapon="worthless", defense="shield")
    state = plan(state, "piter", 1, weapon="projectile-distance", defense="snooper")
    assert state.houses["harkonnen"].hand == ("lasgun",)  # the loser keeps what stayed in his hand
    assert state.treachery_discard[-2:] == ("projectile-distance", "snooper")
    assert (state.pending.kind, state.pending.actor) == ("battle-discard", "atreides")
    assert set(decisions(state)) == {DiscardCards("atreides", c) for c in
                                         ("none", "worthless", "shield", "worthless,shield")}
    state = apply_action(state, DiscardCards("atreides", "worthless"))  # CARD-WORTHLESS-2
    assert state.houses["atreides"].hand == ("shield", "karama")
    assert state.treachery_discard[-1] == "worthless"


def test_CARD_SHIELD_3_GAP_28_each_d10_is_a_chance_node_of_ten_faces():
    state = position(TWO, [("atreides", "arsunt", 5, 4), ("harkonnen", "arsunt", 5, 4)],
                     hands={"atreides": ("projectile-contact", "shield"), "harkonnen": ("projectile-contact",)})
    state = plan(state, "gurney", 1, weapon="projectile-contact", defense="shield")  # Gurney 7
    state = plan(state, "piter", 1, weapon="projectile-contact")                    # Piter 4: no shield, dies
    # Piter dies at once (no shield against Gurney's knife): no roll (CARD-SHIELD-2 example 1)
    assert events_of(state, "leader-killed")[0].data["leader"] == "piter"
    state = position(TWO, [("atreides", "arsunt", 5, 4), ("harkonnen", "arsunt", 5, 4)],
                     hands={"atreides": ("shield",), "harkonnen": ("projectile-contact",)})
    state = plan(state, "gurney", 1, defense="shield")
    state = plan(state, "piter", 1, weapon="projectile-contact")
    assert current_player(state) == "chance" and state.pending.kind == "battle-d10"
    outcomes = outcome_map(state)
    assert outcomes == {BattleDie("harkonnen", v): Fraction(1, 10) for v in range(1, 11)}
    passed = force(state, BattleDie("harkonnen", 4))  # at or below Piter's 4: Gurney dies
    assert events_of(passed, "leader-killed")[0].data["leader"] == "gurney"
    failed = force(state, BattleDie("harkonnen", 5))
    assert not events_of(failed, "leader-killed")


def test_CARD_LASGUN_1_GAP_29_explosion_kills_everything_in_the_territory_and_pays_no_bounty():
    forces = [("atreides", "bouclier", 2, 4), ("harkonnen", "bouclier", 3, 4), ("emperor", "bouclier", 4, 1),
              ("emperor", "arsunt", 5, 1), ("harkonnen", "arsunt", 5, 1)]
    state = position(THREE, forces, hands={"atreides": ("lasgun",), "harkonnen": ("shield",)},
                     spice={"atreides": 1, "harkonnen": 1})
    state = skip_pre_battle(apply_action(state, ChooseBattle("atreides", "bouclier", 1, "harkonnen")))
    bank = state.bank
    state = plan(state, "gurney", 1, spice=1, weapon="lasgun")
    state = plan(state, "piter", 1, spice=1, defense="shield")
    assert all(tokens_at(state, h, "bouclier") == 0 for h in THREE)  # the Emperor's too (CARD-ATOMICS-3)
    assert {e.data["leader"] for e in events_of(state, "leader-killed")} == {"gurney", "piter"}
    assert not events_of(state, "bounty") and state.bank == bank + 2
    assert events_of(state, "battle-outcome")[0].data["winner"] is None
    assert state.houses["atreides"].hand == () and state.houses["harkonnen"].hand == ()
    assert state.outlawed == ()  # no sanction for a lasgun (CARD-LASGUN-1)
    assert_conserved(state)


def test_CARD_ATOMICS_4_GAP_29c_atomics_in_battle_are_allowed_and_outlaw_their_user():
    state = position(TWO, [("atreides", "arsunt", 5, 4), ("harkonnen", "arsunt", 5, 4)],
                     hands={"harkonnen": ("atomics",)})
    state = plan(state, "gurney", 1)
    state = plan(state, "piter", 1, weapon="atomics")
    assert state.outlawed == ("harkonnen",)
    assert tokens_at(state, "atreides", "arsunt") == tokens_at(state, "harkonnen", "arsunt") == 0


# --- traitors in battle -----------------------------------------------------------------------------------------

def traitor_battle(*, call: bool, dispersion_weapon="none"):
    """TRAITOR-5's slip at work: the Dispersion hold Duncan Idaho and the Atreides lead with him."""
    state = position(["atreides", "dispersion"], [("atreides", "arsunt", 5, 4), ("dispersion", "arsunt", 5, 4)],
                     hands={"atreides": ("poison-fast", "shield"), "dispersion": ("projectile-distance",)},
                     spice={"atreides": 3, "dispersion": 2},
                     traitors={"dispersion": (("atreides", "duncan-idaho"),)})
    state = plan(state, "duncan-idaho", 2, spice=2, weapon="poison-fast", defense="shield")
    state = plan(state, "logno", 3, spice=2, weapon=dispersion_weapon)
    assert (state.pending.kind, state.pending.actor) == ("traitor-call", "dispersion")
    assert set(decisions(state)) == {CallTraitor("dispersion", "duncan-idaho"), Pass("dispersion")}
    return apply_action(state, CallTraitor("dispersion", "duncan-idaho") if call else Pass("dispersion"))


def test_TRAITOR_10_TRAITOR_11_BATTLE_12_a_called_traitor_who_survives_earns_2_the_victim_loses_all():
    state = traitor_battle(call=True)
    assert events_of(state, "treachery")[0].data == {"house": "dispersion", "leader": "duncan-idaho"}
    # the beneficiary loses nothing: tokens, spice and cards come back, its leader lives
    assert tokens_at(state, "dispersion", "arsunt") == 4 and spice_of(state, "dispersion") == 2 + 2
    assert "logno" in state.houses["dispersion"].leaders
    # the victim loses everything: all its tokens there, the spice and the cards on the wheel
    assert tokens_at(state, "atreides", "arsunt") == 0 and spice_of(state, "atreides") == 1
    assert state.houses["atreides"].hand == () and "duncan-idaho" in state.houses["atreides"].leaders
    assert_conserved(state)


def test_TRAITOR_10_a_called_traitor_who_dies_earns_his_value():
    state = traitor_battle(call=True, dispersion_weapon="projectile-distance")  # Duncan's shield is not resolved:
    # GAP-35b: only the caller's weapon aimed at the traitor counts; the shield still stops a distance projectile
    assert spice_of(state, "dispersion") == 2 + 2 and "duncan-idaho" in state.houses["atreides"].leaders
    state = position(["atreides", "dispersion"], [("atreides", "arsunt", 5, 4), ("dispersion", "arsunt", 5, 4)],
                     hands={"dispersion": ("poison-fast",)}, spice={"atreides": 0, "dispersion": 0},
                     traitors={"dispersion": (("atreides", "duncan-idaho"),)})
    state = plan(state, "duncan-idaho", 2)
    state = plan(state, "logno", 3, weapon="poison-fast")
    state = apply_action(state, CallTraitor("dispersion", "duncan-idaho"))
    assert spice_of(state, "dispersion") == 6 and "duncan-idaho" in state.houses["atreides"].leader_tanks
    assert (state.pending.kind, state.pending.actor) == ("battle-discard", "dispersion")  # he may keep or discard
    state = apply_action(state, DiscardCards("dispersion", "poison-fast"))
    assert state.houses["dispersion"].hand == ()
    assert_conserved(state)


def test_TRAITOR_8_a_traitor_may_be_kept_for_later():
    state = traitor_battle(call=False)
    assert not events_of(state, "treachery")
    assert state.houses["dispersion"].traitors == (("atreides", "duncan-idaho"),)  # TRAITOR-7: still a traitor
    assert tokens_at(state, "dispersion", "arsunt") == 0  # a normal battle: Duncan 6 + 1 beats Logno dead (poison)


def test_TRAITOR_12_traitor_against_traitor_swaps_the_leaders():
    state = position(["atreides", "dispersion"], [("atreides", "arsunt", 5, 4), ("dispersion", "arsunt", 5, 4)],
                     traitors={"dispersion": (("atreides", "duncan-idaho"),),
                               "atreides": (("dispersion", "logno"),)})
    state = plan(state, "duncan-idaho", 0)    # 6
    state = plan(state, "logno", 0)           # 8
    state = apply_action(state, CallTraitor("atreides", "logno"))
    state = apply_action(state, CallTraitor("dispersion", "duncan-idaho"))
    # swapped: the Atreides fight with Logno (8), the Dispersion with Duncan (6)
    assert tokens_at(state, "atreides", "arsunt") == 4 and tokens_at(state, "dispersion", "arsunt") == 0
    assert "logno" in state.houses["dispersion"].leaders and "duncan-idaho" in state.houses["atreides"].leaders


# --- VICTORY-2, GAP-47, GAP-7a ---------------------------------------------------------------------------------

def test_VICTORY_2_GAP_47_a_main_leader_killed_in_battle_eliminates_his_house():
    forces = [("atreides", "arsunt", 5, 4), ("harkonnen", "arsunt", 5, 4), ("harkonnen", "mesa-molle", 8, 3),
              ("emperor", "faille-rouge", 7, 2)]
    state = position(THREE, forces, hands={"atreides": ("lasgun",), "harkonnen": ("worthless", "karama")},
                     spice={"harkonnen": 9},
                     traitors={"harkonnen": (("emperor", "burseg"),), "emperor": (("harkonnen", "piter"),)})
    bank = state.bank
    state = plan(state, "paul", 1, weapon="lasgun")
    state = plan(state, "vladimir", 4)
    assert state.eliminated == ("harkonnen",)
    assert events_of(state, "eliminated")[0].data["house"] == "harkonnen"
    hk = state.houses["harkonnen"]
    assert tokens_at(state, "harkonnen", "mesa-molle") == 0 and hk.tanks.total == 7
    assert token_count(state, "harkonnen") == 20
    assert hk.spice == 0 and hk.hand == () and hk.traitors == () and hk.harvesters == 0
    assert {"worthless", "karama"} <= set(state.treachery_discard)
    assert state.houses["emperor"].traitors == ()  # slips on the eliminated House's leaders are gone
    assert "harkonnen" not in storm_order(state) and "harkonnen" not in state.storm_dialers
    assert state.bank == bank + 9 - 4  # his spice to the Bank; Vladimir's bounty (4) to the Atreides
    assert spice_of(state, "atreides") >= 4
    assert_conserved(state)


def test_GAP_47_eliminate_is_idempotent_and_keeps_the_house_in_the_configuration():
    state = position(TWO, [("atreides", "arsunt", 5, 4)], begin=False)
    once = eliminate(state, "harkonnen")
    assert eliminate(once, "harkonnen") == once
    assert "harkonnen" in once.config.houses and once.storm_dialers == ("atreides",)


def test_GAP_7a_the_two_houses_of_the_last_battle_dial_the_storm_next_turn():
    forces = [("atreides", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 3), ("harkonnen", "mesa-molle", 8, 3),
              ("emperor", "mesa-molle", 9, 3)]
    state = position(THREE, forces)
    assert state.storm_dialers == ("atreides", "emperor")
    state = plan(state, "paul")
    state = plan(state, "piter")
    assert state.storm_dialers == ("atreides", "emperor")  # not yet: one battle left
    state = plan(state, "feyd-rautha")
    state = settle_powers(plan(state, "burseg"))  # HARKONNEN-P4: the capture after the Harkonnen win
    assert state.storm_dialers == ("harkonnen", "emperor")
    assert events_of(state, "storm-dialers")[0].data["houses"] == ("harkonnen", "emperor")
    state = position(THREE, forces[:2])
    state = plan(state, "paul")
    state = plan(state, "piter")
    assert state.storm_dialers == ("atreides", "harkonnen")


def test_GAP_7a_without_battles_the_dialers_do_not_change():
    state = position(THREE, [("atreides", "arsunt", 5, 3)])
    assert state.phase != "battle" and state.storm_dialers == ("atreides", "emperor")


# --- random play ------------------------------------------------------------------------------------------------

CARDS = (*WEAPONS, *DEFENCES, "karama")
AREAS = ("arsunt", "bouclier", "mesa-molle", "pole-nord", "grande-etendue")
EIGHT = ("atreides", "harkonnen", "fremen", "emperor", "guild", "dispersion", "bene-gesserit", "bene-tleilax")


@pytest.mark.parametrize("seed", range(24))
def test_random_battles_never_dead_end_and_conserve_tokens_and_spice(seed):
    from helpers_game import BOARD

    rng = np.random.default_rng(seed)
    houses = [str(h) for h in rng.choice(EIGHT, size=int(rng.integers(2, 9)), replace=False)]
    state = position(houses, [], begin=False)
    for house in houses:
        for _ in range(2):
            area = str(rng.choice(AREAS))
            sector = int(rng.choice(BOARD.area(area).sectors))
            reserve = state.houses[house].reserve
            if reserve.regular:
                marked = 1 if reserve.marked and rng.random() < 0.5 else 0
                state = place(state, house, area, sector, int(rng.integers(1, min(6, reserve.regular) + 1)), marked)
        state = give_cards(state, house, *(str(c) for c in rng.choice(CARDS, size=3)))
        state = set_spice(state, house, int(rng.integers(0, 6)))
    state = skip_pre_battle(begin_phase(state))
    steps = 0
    while state.phase == "battle":
        actions = decisions(state)
        assert actions, state.pending
        if current_player(state) == "chance":
            assert sum(p for _, p in outcome_map(state).items()) == 1
            action = sample_chance(state)
        else:
            assert all(a.actor == state.pending.actor for a in actions)
            assert all(check_action(state, a) is None for a in actions[:30])
            action = actions[rng.integers(len(actions))]
        state = apply_action(state, action)
        assert_conserved(state)
        for hs in state.houses.values():
            assert hs.spice >= 0 and hs.tanks.regular >= 0 and hs.tanks.marked >= 0
        steps += 1
        assert steps < 2000
    assert not arenas(state) or state.phase != "battle"


def test_doctests_of_the_battle_phase_and_traitor_modules():
    import doctest

    from dunenb.rules import battle_phase, traitors

    for module in (battle_phase, traitors):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0, module.__name__


# --- KARAMA-3, BATTLE-13 e, KARAMA-45, GAP-55b: a Karama on the wheel ------------------------------------------

def karama_battle(*, karama: bool, call: bool = True):
    """The Harkonnen hold Duncan Idaho on a slip (HARKONNEN-P1); the Atreides lead with him, with or without a
    Karama added on the wheel."""
    state = position(TWO, [("atreides", "arsunt", 5, 4), ("harkonnen", "arsunt", 5, 4)],
                     hands={"atreides": ("karama",)}, spice={"atreides": 0, "harkonnen": 0},
                     traitors={"harkonnen": (("atreides", "duncan-idaho"),)})
    plans = {"atreides": SubmitPlan("atreides", "duncan-idaho", 2, 0, 0, karama="karama" if karama else "none"),
             "harkonnen": SubmitPlan("harkonnen", "piter", 1, 0, 0)}
    for _ in range(2):
        state = apply_action(state, plans[state.pending.actor])
    state = pass_unable(state)  # GAP-62: the Atreides, defending, are asked first and may only pass
    assert (state.pending.kind, state.pending.actor) == ("traitor-call", "harkonnen")
    return apply_action(state, CallTraitor("harkonnen", "duncan-idaho") if call else Pass("harkonnen"))


def test_karama_3_a_karama_on_the_wheel_is_offered_against_the_harkonnen_and_blocks_their_treachery():
    state = position(TWO, [("atreides", "arsunt", 5, 4), ("harkonnen", "arsunt", 5, 4)],
                     hands={"atreides": ("karama",)}, traitors={"harkonnen": (("atreides", "duncan-idaho"),)})
    if state.pending.actor != "atreides":
        state = apply_action(state, legal_actions(state)[0])
    assert {a.karama for a in decisions(state)} == {"none", "karama"}
    state = karama_battle(karama=True)
    assert events_of(state, "treachery")  # the slip is shown ...
    assert events_of(state, "treachery-blocked")[0].data["house"] == "harkonnen"  # ... but has no effect
    outcome = events_of(state, "battle-outcome")[0].data
    assert outcome["winner"] == "atreides" and outcome["traitor_called_by"] == ()  # Duncan 6 + 1 beats Piter
    assert "karama" not in state.houses["atreides"].hand and "karama" in state.treachery_discard  # KARAMA-2
    assert tokens_at(state, "harkonnen", "arsunt") == 0 and tokens_at(state, "atreides", "arsunt") == 2
    assert state.houses["harkonnen"].traitors == (("atreides", "duncan-idaho"),)  # TRAITOR-7: still a traitor
    assert_conserved(state)


def test_karama_3_without_the_karama_the_harkonnen_treachery_works():
    state = karama_battle(karama=False)
    assert events_of(state, "battle-outcome")[0].data["winner"] == "harkonnen"
    assert not events_of(state, "treachery-blocked") and state.houses["atreides"].hand == ("karama",)


def test_karama_2_the_wheel_karama_is_lost_even_when_nothing_was_called():
    state = karama_battle(karama=True, call=False)
    assert "karama" not in state.houses["atreides"].hand and state.pending.kind != "battle-discard"


def test_karama_3_g_5_a_karama_that_would_block_nothing_is_refused():
    state = position(["atreides", "dispersion"], [("atreides", "arsunt", 5, 4), ("dispersion", "arsunt", 5, 4)],
                     hands={"atreides": ("karama",), "dispersion": ("karama",)})
    house = state.pending.actor
    leader = {"atreides": "duncan-idaho", "dispersion": "logno"}[house]
    # only hidden against what it can block: the opposing secondary leader (LC-11 b, GAP-122) or karate (KARAMA-20)
    assert {a.against for a in decisions(state) if a.karama != "none"} == {
        "atreides": {"KARAMA-24", "KARAMA-20"}, "dispersion": {"KARAMA-44"}}[house]
    error = check_action(state, SubmitPlan(house, leader, 1, 0, 0, karama="karama"))
    assert error is not None and error.code == "battle/karama-nothing-to-block"


def test_karama_3_bg_p5_a_worthless_card_serves_as_the_wheel_karama_for_the_bene_gesserit():
    state = position(["bene-gesserit", "harkonnen"], [("bene-gesserit", "arsunt", 5, 4),
                                                      ("harkonnen", "arsunt", 5, 4)],
                     hands={"bene-gesserit": ("worthless",)})
    if state.pending.actor != "bene-gesserit":
        state = apply_action(state, legal_actions(state)[0])
    menu = decisions(state)
    assert {(a.weapon, a.defense, a.karama) for a in menu  # Murbella B12 may also use her karate (leaders.md K-7)
            if a.kind == "plan" and a.karama != "none"} == {("none", "none", "worthless"),
                                                            ("karate", "none", "worthless")}
