"""Alliance deals beyond spice and cards (issue 4): leaders and tokens change hands (ALLIANCE-3, ALLIANCE-11,
ALLIANCE-13), swaps (ALLIANCE-11 "on troque"), deferred terms (ALLIANCE-8), lent income powers (ALLIANCE-12, G-10)
and their breaking by a new alliance (ALLIANCE-4, GAP-19d). Design choices are those of
:mod:`dunenb.rules.alliances` (GAP-19).

Window positions as in ``test_rules_alliances``: a quiet setup, turn 2, worms forced in a row.
"""

from __future__ import annotations

import dataclasses

import pytest
from helpers_game import assert_conserved, events_of, finish_turn, skip_pre_battle, tokens_at
from test_rules_alliances import end_all, error_code, window, with_hand, with_spice
from test_rules_battle_phase import plan, position
from test_rules_movement import movement_position, play

from dunenb.actions import action_from_dict, parse_action
from dunenb.engine import apply_action, legal_actions, view
from dunenb.rules.alliances import MAX_DELAY, AcceptOffer, DeclineOffer, EndWindow, Offer, deliver_terms, transfer
from dunenb.rules.battle_phase import CallTraitor, available_leaders, begin_phase, eliminate
from dunenb.rules.lent_powers import income_payee, power_holder
from dunenb.rules.movement import Land, Revive
from dunenb.rules.traitors import leader_of
from dunenb.state import DeferredTerm, LentPower

WITH_BG = ["atreides", "harkonnen", "bene-gesserit"]


def accept(state, offer):
    return apply_action(apply_action(state, offer), AcceptOffer(offer.receiver))


# --- leaders (ALLIANCE-11 "a leader chosen from the player's hand", ALLIANCE-13 the leader Lucille) ---------

def test_ALLIANCE_13_the_bene_gesserit_give_the_leader_lucille_and_4_spice_to_the_atreides():
    state = window(houses=WITH_BG)
    while state.pending.actor != "bene-gesserit":
        state = apply_action(state, EndWindow(state.pending.actor))
    state = with_spice(state, "bene-gesserit", 10)
    atreides_spice = state.houses["atreides"].spice
    state = accept(state, Offer("bene-gesserit", "atreides", "leader", "lucille", 1))
    assert "gives" not in events_of(state, "alliance-deal")[0].text
    assert "the leader lucille as a gift" in events_of(state, "alliance-deal")[0].text
    state = accept(state, Offer("bene-gesserit", "atreides", "spice", "spice", 4))
    assert "lucille" not in state.houses["bene-gesserit"].leaders
    assert "bene-gesserit:lucille" in state.houses["atreides"].leaders
    assert leader_of("atreides", "bene-gesserit:lucille").strength == 6
    assert state.houses["atreides"].spice == atreides_spice + 4
    assert_conserved(state)


def test_ALLIANCE_11_a_leader_sold_for_spice_changes_house_and_the_price_is_paid():
    state = with_spice(window(), "harkonnen", 5)
    atreides = state.houses["atreides"].spice
    state = apply_action(state, Offer("atreides", "harkonnen", "leader", "gurney", 1, 3))
    offered = events_of(state, "alliance-offer")[0]
    assert "the leader gurney" in offered.text and "for 3 spice" in offered.text
    state = apply_action(state, AcceptOffer("harkonnen"))
    assert "atreides:gurney" in state.houses["harkonnen"].leaders and "gurney" not in state.houses["atreides"].leaders
    assert state.houses["harkonnen"].spice == 2 and state.houses["atreides"].spice == atreides + 3
    assert_conserved(state)


def test_G_7_a_main_leader_never_changes_hands_and_nobody_promises_a_leader_it_lacks():
    state = window()
    assert error_code(state, Offer("atreides", "harkonnen", "leader", "paul", 1)) == "alliance/main-leader"
    assert error_code(state, Offer("atreides", "harkonnen", "leader", "feyd-rautha", 1)) == "alliance/not-owned"
    assert error_code(state, Offer("atreides", "harkonnen", "leader", "gurney", 2)) == "alliance/amount"
    menu = legal_actions(state)
    assert Offer("atreides", "harkonnen", "leader", "gurney", 1) in menu
    assert not any(a.what == "leader" and a.item == "paul" for a in menu if isinstance(a, Offer))


def test_GAP_19_a_leader_received_fights_for_his_new_house_and_dies_in_its_tanks():
    state = position(["atreides", "harkonnen"], [("atreides", "arsunt", 5, 4), ("harkonnen", "arsunt", 5, 4)],
                     hands={"atreides": ("projectile-distance",)}, spice={"atreides": 0, "harkonnen": 0},
                     begin=False)
    state = transfer(state, "atreides", "harkonnen", "leader", "gurney", 1)
    state = skip_pre_battle(begin_phase(state))  # G-9: the Atreides' prescience passed
    assert "atreides:gurney" in available_leaders(state, "harkonnen", "arsunt")
    assert "gurney" not in available_leaders(state, "atreides", "arsunt")
    state = plan(state, "duncan-idaho", 2, weapon="projectile-distance")  # the Atreides defend (storm order)
    state = plan(state, "atreides:gurney", 2)
    killed = events_of(state, "leader-killed")
    assert killed and killed[0].data["house"] == "harkonnen" and "serving harkonnen" in killed[0].text
    assert "atreides:gurney" in state.houses["harkonnen"].leader_tanks
    assert "gurney" not in state.houses["atreides"].leader_tanks
    assert state.houses["atreides"].spice == 7  # the bounty is Gurney's own strength (BATTLE-13 f3)
    assert_conserved(state)


def test_TRAITOR_8_GAP_19_a_traitor_slip_follows_the_person_to_his_new_house():
    state = position(["atreides", "harkonnen", "emperor"],
                     [("emperor", "arsunt", 5, 4), ("harkonnen", "arsunt", 5, 4)],
                     spice={"harkonnen": 0, "emperor": 0}, traitors={"emperor": (("atreides", "gurney"),)},
                     begin=False)
    state = transfer(state, "atreides", "harkonnen", "leader", "gurney", 1)
    state = skip_pre_battle(begin_phase(state))  # Wanna's Voice (K-11), Piter's and Yhekem's K-16: passed
    first = state.pending.actor
    state = plan(state, "atreides:gurney" if first == "harkonnen" else "hasimir", 1)
    state = plan(state, "atreides:gurney" if first == "emperor" else "hasimir", 1)
    assert (state.pending.kind, state.pending.actor) == ("traitor-call", "emperor")
    assert CallTraitor("emperor", "atreides:gurney") in legal_actions(state)
    state = apply_action(state, CallTraitor("emperor", "atreides:gurney"))
    assert tokens_at(state, "harkonnen", "arsunt") == 0  # TRAITOR-10: the victim loses everything there
    assert_conserved(state)


# --- tokens (ALLIANCE-11 "spice for some enemy tokens", "swaps of armed tokens") ------------------------------

def test_ALLIANCE_11_G_1_tokens_bought_from_the_reserve_serve_their_new_house_and_stay_accounted_for():
    state = with_spice(window(), "harkonnen", 4)
    reserve = state.houses["harkonnen"].reserve.regular
    state = accept(state, Offer("atreides", "harkonnen", "token", "regular", 3, 3))
    assert state.houses["harkonnen"].reserve.regular == reserve + 3
    assert state.token_quota("harkonnen") == 23 and state.token_quota("atreides") == 17
    assert state.houses["harkonnen"].spice == 1
    assert_conserved(state)


def test_GAP_19_only_regular_reserve_tokens_change_hands():
    state = window()
    reserve = state.houses["atreides"].reserve.regular
    assert error_code(state, Offer("atreides", "harkonnen", "token", "regular", reserve + 1)) == "alliance/not-owned"
    assert error_code(state, Offer("atreides", "harkonnen", "token", "marked", 1)) == "alliance/amount"
    assert error_code(state, Offer("atreides", "harkonnen", "tokens", "regular", 1)) == "alliance/not-transferable"


def test_LAND_1_GAP_19_tokens_received_land_like_the_receivers_own():
    state = movement_position(spice={"atreides": 30})
    state = transfer(state, "harkonnen", "atreides", "token", "regular", 3)
    assert state.houses["atreides"].reserve.total == 23
    state = play(state, Land("atreides", "arrakeen", 1, 23))
    assert tokens_at(state, "atreides", "arrakeen", 1) == 23 and state.houses["atreides"].spice == 30 - 23
    assert_conserved(state)


# --- swaps (ALLIANCE-11 "on troque des cartes / des leaders") ------------------------------------------------

def test_ALLIANCE_11_a_card_swapped_for_a_card_and_a_leader_for_a_leader():
    state = with_hand(with_hand(window(), "atreides", "shield"), "harkonnen", "lasgun")
    state = accept(state, Offer("atreides", "harkonnen", "card", "shield", 1, 1, back_what="card",
                                back_item="lasgun"))
    assert state.houses["atreides"].hand == ("lasgun",) and state.houses["harkonnen"].hand == ("shield",)
    state = accept(state, Offer("atreides", "harkonnen", "leader", "gurney", 1, 1, back_what="leader",
                                back_item="feyd-rautha"))
    assert "harkonnen:feyd-rautha" in state.houses["atreides"].leaders
    assert "atreides:gurney" in state.houses["harkonnen"].leaders
    assert_conserved(state)


def test_a_swap_is_checked_on_both_sides():
    state = with_hand(with_hand(window(), "atreides", "shield"), "harkonnen")
    offer = Offer("atreides", "harkonnen", "card", "shield", 1, 1, back_what="card", back_item="lasgun")
    assert error_code(state, offer) == "alliance/not-owned"
    assert error_code(state, Offer("atreides", "harkonnen", "card", "shield", 1, 0, back_what="card",
                                   back_item="lasgun")) == "alliance/amount"


# --- ALLIANCE-8: terms put off to later turns; ALLIANCE-4: broken by a new alliance ---------------------------

def test_ALLIANCE_8_spice_promised_for_next_turn_is_set_aside_now_and_handed_over_when_the_turn_begins():
    state = with_spice(with_spice(window(), "atreides", 10), "harkonnen", 3)
    harkonnen = state.houses["harkonnen"].spice
    state = accept(state, Offer("atreides", "harkonnen", "spice", "spice", 6, 2, delay=1))
    assert state.houses["atreides"].spice == 10 - 6 + 2  # set aside at once; the price is paid at once
    assert state.houses["harkonnen"].spice == harkonnen - 2
    assert state.deferred_terms == (DeferredTerm("atreides", "harkonnen", "spice", "spice", 6, 3, 1),)
    assert "in 1 turn(s) (ALLIANCE-8)" in events_of(state, "alliance-deal")[0].text
    assert_conserved(state)
    assert deliver_terms(state) == state  # not yet due on turn 2
    due = deliver_terms(dataclasses.replace(state, turn=3, events=()))
    assert due.houses["harkonnen"].spice == harkonnen - 2 + 6 and due.deferred_terms == ()
    assert_conserved(due)
    state = finish_turn(state)  # the engine delivers when turn 3 begins
    assert state.turn == 3 and state.deferred_terms == ()
    delivered = events_of(state, "alliance-term-delivered")
    assert delivered and delivered[0].data["amount"] == 6 and delivered[0].data["receiver"] == "harkonnen"
    assert_conserved(state)


def test_ALLIANCE_8_a_leader_and_tokens_promised_for_later_leave_the_giver_at_once():
    state = window()
    reserve = state.houses["atreides"].reserve.regular
    state = accept(state, Offer("atreides", "harkonnen", "leader", "gurney", 1, delay=2))
    state = accept(state, Offer("atreides", "harkonnen", "token", "regular", 2, delay=2))
    assert "gurney" not in state.houses["atreides"].leaders
    assert "atreides:gurney" not in state.houses["harkonnen"].leaders
    assert state.houses["atreides"].reserve.regular == reserve - 2 and state.tokens_set_aside("atreides") == 2
    assert_conserved(state)


def test_ALLIANCE_4_GAP_19d_a_new_window_breaks_the_terms_still_due_and_gives_the_goods_back():
    state = window("worm", "worm", "worm", "erg-mineur/5", "erg-majeur/8")  # two windows this turn
    state = with_spice(state, "harkonnen", 3)
    atreides = state.houses["atreides"].spice
    state = accept(state, Offer("atreides", "harkonnen", "leader", "gurney", 1, 2, delay=1))
    assert state.deferred_terms
    state = end_all(state)  # window 2 opens
    assert state.pending.detail["window"] == 2 and state.deferred_terms == ()
    broken = events_of(state, "alliance-term-broken")
    assert broken and "ALLIANCE-4" in broken[0].text
    assert "gurney" in state.houses["atreides"].leaders
    assert state.houses["atreides"].spice == atreides + 2  # what was paid stays paid
    assert_conserved(state)


def test_ALLIANCE_6_terms_are_limited_in_time():
    state = with_spice(window(), "atreides", 10)
    assert error_code(state, Offer("atreides", "harkonnen", "spice", "spice", 1, delay=MAX_DELAY + 1)) == (
        "alliance/delay")
    assert error_code(state, Offer("atreides", "harkonnen", "spice", "spice", 1, delay=-1)) == "alliance/delay"


def test_ALLIANCE_8_HAND_1_a_card_due_into_a_full_hand_goes_to_the_discard_pile():
    state = with_hand(with_hand(window(), "atreides", "shield"), "emperor")
    state = accept(state, Offer("atreides", "emperor", "card", "shield", 1, delay=1))
    assert state.houses["atreides"].hand == () and state.deferred_terms[0].item == "shield"
    state = with_hand(state, "emperor", *("lasgun",) * 6)  # the Emperor's limit is 6 (EMPEROR-M1)
    state = deliver_terms(dataclasses.replace(state, turn=3, events=()))
    assert state.treachery_discard[-1] == "shield" and len(state.houses["emperor"].hand) == 6
    assert events_of(state, "card-discarded")[0].data["house"] == "emperor"


def test_gap_51_goods_due_to_a_house_eliminated_meanwhile_go_back_to_the_giver_at_once():
    state = accept(window(), Offer("atreides", "harkonnen", "leader", "gurney", 1, delay=1))
    state = eliminate(dataclasses.replace(state, events=()), "harkonnen", cause="test")
    assert "gurney" in state.houses["atreides"].leaders and state.deferred_terms == ()
    ended = events_of(state, "alliance-term-ended")[0]
    assert ended.data["house"] == "atreides" and "go back to atreides" in ended.text
    later = deliver_terms(dataclasses.replace(state, turn=3, events=()))
    assert events_of(later, "alliance-term-delivered") == [] and "gurney" in later.houses["atreides"].leaders
    assert_conserved(later)


# --- GAP-47, GAP-51: elimination ends alliance clauses ---------------------------------------------------------

def test_gap_47_goods_an_eliminated_house_promised_for_later_turns_are_never_delivered():
    state = with_hand(with_spice(window(), "atreides", 10), "atreides", "shield")
    state = accept(state, Offer("atreides", "harkonnen", "spice", "spice", 5, delay=2))
    state = accept(state, Offer("atreides", "harkonnen", "card", "shield", 1, delay=1))
    state = apply_action(state, EndWindow("atreides"))
    assert state.pending.actor == "harkonnen"
    state = accept(state, Offer("harkonnen", "atreides", "token", "regular", 2, delay=1))  # promised to it
    assert len(state.deferred_terms) == 3 and state.houses["atreides"].spice == 5
    assert state.tokens_set_aside("harkonnen") == 2
    harkonnen = state.houses["harkonnen"]
    bank, discard = state.bank, state.treachery_discard
    state = eliminate(dataclasses.replace(state, events=()), "atreides", cause="test")
    assert state.deferred_terms == () and state.tokens_set_aside("harkonnen") == 0
    assert state.bank == bank + 10  # GAP-51: the 5 set aside come back, then all its spice goes to the Bank
    assert "shield" in state.treachery_discard[len(discard):]  # the card set aside goes to the discard pile
    texts = [e.text for e in events_of(state, "alliance-term-ended")]
    assert len(texts) == 3 and sum("ends undelivered" in t for t in texts) == 2 and all("GAP-51" in t for t in texts)
    assert state.houses["harkonnen"].reserve.regular == harkonnen.reserve.regular + 2  # back to the giver at once
    harkonnen = state.houses["harkonnen"]
    for turn in (3, 4):
        later = deliver_terms(dataclasses.replace(state, turn=turn, events=()))
        assert events_of(later, "alliance-term-delivered") == []
        assert later.houses["harkonnen"].spice == harkonnen.spice and later.houses["harkonnen"].hand == harkonnen.hand
        assert later.houses["harkonnen"].reserve == harkonnen.reserve and later.token_quota("harkonnen") == 20
        assert_conserved(later)


def test_gap_51_an_elimination_ends_the_lends_its_house_made_or_received():
    state = transfer(window(houses=["atreides", "harkonnen", "emperor"]), "emperor", "atreides", "power",
                     "EMPEROR-P1", 3)
    fallen = eliminate(dataclasses.replace(state, events=()), "atreides", cause="test")
    assert fallen.lent_powers == () and power_holder(fallen, "EMPEROR-P1") == "emperor"
    assert "GAP-51" in events_of(fallen, "power-returned")[0].text
    gone = eliminate(dataclasses.replace(state, events=()), "emperor", cause="test")
    assert gone.lent_powers == () and power_holder(gone, "EMPEROR-P1") is None  # an eliminated owner's power


# --- the new fields load and print like the others -----------------------------------------------------------

def test_offers_with_the_new_fields_round_trip_through_dict_and_notation():
    offer = Offer("atreides", "harkonnen", "leader", "gurney", 1, 2, 1, "card", "shield")
    assert action_from_dict(offer.to_dict()) == offer
    assert parse_action(offer.notation()) == offer
    old = {"kind": "offer", "house": "atreides", "receiver": "harkonnen", "what": "spice", "item": "spice",
           "amount": 2, "price": 0}
    assert action_from_dict(old) == Offer("atreides", "harkonnen", "spice", "spice", 2)  # saves before the change


def test_deferred_terms_and_traded_tokens_are_public_in_every_view():
    state = with_spice(window(), "atreides", 10)
    state = accept(state, Offer("atreides", "harkonnen", "spice", "spice", 3, delay=1))
    state = accept(state, Offer("atreides", "harkonnen", "token", "regular", 1))
    seen = view(state, "emperor")
    assert seen.deferred_terms == state.deferred_terms and seen.tokens_traded == state.tokens_traded


@pytest.mark.parametrize("decline", [True, False])
def test_ALLIANCE_3_both_houses_consent_before_anything_moves(decline):
    state = window()
    reserve = state.houses["atreides"].reserve.regular
    state = apply_action(state, Offer("atreides", "harkonnen", "token", "regular", 2))
    assert state.houses["atreides"].reserve.regular == reserve
    state = apply_action(state, DeclineOffer("harkonnen") if decline else AcceptOffer("harkonnen"))
    assert state.houses["atreides"].reserve.regular == (reserve if decline else reserve - 2)
    assert state.token_quota("harkonnen") == (20 if decline else 22)


# --- ALLIANCE-12, G-10: lent powers (the income powers the engine applies) -----------------------------------

def test_ALLIANCE_12_the_guild_lends_its_landing_income_for_2_turns_and_landings_pay_the_borrower():
    state = movement_position(["atreides", "guild", "emperor"], spice={"atreides": 10, "guild": 5, "emperor": 10})
    state = transfer(state, "guild", "emperor", "power", "GUILD-P1", 2)
    assert state.lent_powers == (LentPower("GUILD-P1", "guild", "emperor", state.turn, state.turn + 1, 0),)
    assert power_holder(state, "GUILD-P1") == "emperor"
    state = play(state, Land("atreides", "arrakeen", 1, 4))  # 1 spice a token, to the holder of GUILD-P1
    assert events_of(state, "land")[0].data["payee"] == "emperor"
    assert state.houses["emperor"].spice == 14 and state.houses["guild"].spice == 5
    assert income_payee(state, "GUILD-P1", "emperor") is None  # the borrower's own landing pays the Bank
    assert income_payee(state, "GUILD-P1", "guild") == "emperor"  # "as written": another House pays the holder
    assert_conserved(state)


def test_ALLIANCE_12_REVIVAL_1_the_borrower_of_the_tleilax_revival_income_receives_the_revival_money():
    state = movement_position(["atreides", "bene-tleilax", "emperor"], spice={"atreides": 10},
                              tanks={"atreides": (3, 0)})
    state = transfer(state, "bene-tleilax", "emperor", "power", "TLEILAX-P1", 1)
    emperor, tleilax = state.houses["emperor"].spice, state.houses["bene-tleilax"].spice
    state = play(state, Revive("atreides", 3))
    assert events_of(state, "revive")[0].data["payee"] == "emperor"
    assert state.houses["emperor"].spice == emperor + 3 and state.houses["bene-tleilax"].spice == tleilax
    assert_conserved(state)


def test_ALLIANCE_12_a_lent_power_returns_to_its_owner_when_its_turns_are_over():
    state = transfer(window(houses=["atreides", "harkonnen", "emperor"]), "emperor", "atreides", "power",
                     "EMPEROR-P1", 2)
    assert power_holder(state, "EMPEROR-P1") == "atreides"
    still = deliver_terms(dataclasses.replace(state, turn=state.turn + 1, events=()))
    assert power_holder(still, "EMPEROR-P1") == "atreides"
    over = deliver_terms(dataclasses.replace(state, turn=state.turn + 2, events=()))
    assert power_holder(over, "EMPEROR-P1") == "emperor" and over.lent_powers == ()
    assert "ALLIANCE-12" in events_of(over, "power-returned")[0].text


def test_ALLIANCE_12_BID_7_the_borrower_of_the_emperors_income_receives_the_price_of_a_card():
    from test_rules_bidding import auction, up
    from test_rules_bidding import play as bid

    from dunenb.rules.bidding import PayBid

    state = auction(spice={"atreides": 10, "harkonnen": 10, "emperor": 10})
    state = transfer(state, "emperor", "harkonnen", "power", "EMPEROR-P1", 1)
    state = up(state, "shield")
    state = apply_action(bid(state, 6, None, None), PayBid("atreides"))
    assert state.houses["harkonnen"].spice == 16 and state.houses["emperor"].spice == 10
    assert events_of(state, "card-bought")[0].data["recipient"] == "harkonnen"
    assert_conserved(state)


def test_ALLIANCE_4_ALLIANCE_12_a_new_window_ends_a_lend():
    state = window("worm", "worm", "worm", "erg-mineur/5", "erg-majeur/8", houses=["atreides", "guild", "emperor"])
    state = with_spice(state, "atreides", 10)
    while state.pending.actor != "guild":
        state = apply_action(state, EndWindow(state.pending.actor))
    offer = Offer("guild", "atreides", "power", "GUILD-P1", 3, 3)
    assert Offer("guild", "atreides", "power", "GUILD-P1", 1, 3) in legal_actions(state)  # the menu: 1 turn
    state = accept(state, offer)
    assert power_holder(state, "GUILD-P1") == "atreides"
    assert "the power GUILD-P1 for 3 turn(s)" in events_of(state, "alliance-deal")[0].text
    state = end_all(state)  # window 2 breaks it
    assert power_holder(state, "GUILD-P1") == "guild"
    assert "ALLIANCE-4" in events_of(state, "power-returned")[0].text


def test_ALLIANCE_7_ALLIANCE_12_only_the_owner_lends_a_power_it_holds_for_1_to_5_turns_from_now():
    state = window(houses=["atreides", "guild", "emperor"])
    assert error_code(state, Offer("atreides", "guild", "power", "GUILD-P1", 1)) == "alliance/not-owned"
    assert error_code(state, Offer("atreides", "guild", "power", "ATREIDES-P1", 1)) == "alliance/power"
    while state.pending.actor != "guild":
        state = apply_action(state, EndWindow(state.pending.actor))
    assert error_code(state, Offer("guild", "atreides", "power", "GUILD-P1", 0)) == "alliance/amount"
    assert error_code(state, Offer("guild", "atreides", "power", "GUILD-P1", 6)) == "alliance/amount"
    assert error_code(state, Offer("guild", "atreides", "power", "GUILD-P1", 1, delay=1)) == "alliance/delay"
    state = accept(state, Offer("guild", "atreides", "power", "GUILD-P1", 2))
    assert error_code(state, Offer("guild", "emperor", "power", "GUILD-P1", 1)) == "alliance/not-owned"


def test_ALLIANCE_6_the_house_table_shows_the_running_terms():
    from dunenb.analysis.game_stats import house_table

    state = with_spice(window(houses=["atreides", "guild", "emperor"]), "atreides", 10)
    state = accept(state, Offer("atreides", "emperor", "spice", "spice", 5, delay=2))
    state = transfer(state, "guild", "atreides", "power", "GUILD-P1", 2)
    state = transfer(state, "guild", "emperor", "token", "regular", 3)
    deals = house_table(state).set_index("house")["deals"]
    assert deals["atreides"] == "holds GUILD-P1 of guild to turn 3; owes emperor 5 spice on turn 4"
    assert deals["guild"] == "-3 tokens traded; lent GUILD-P1 to atreides to turn 3"
    assert deals["emperor"] == "+3 tokens traded; due 5 spice from atreides on turn 4"


# --- CARD-ATOMICS-4, ALLIANCE-5, GAP-55c: an outlaw's deals end -------------------------------------------------

def test_card_atomics_4_outlaw_deals_end_and_goods_set_aside_go_back():
    from dunenb.rules.alliances import outlaw

    state = with_spice(with_spice(window(), "atreides", 10), "harkonnen", 3)
    state = accept(state, Offer("atreides", "harkonnen", "spice", "spice", 6, 2, delay=1))
    assert state.deferred_terms
    before = state.houses["atreides"].spice
    state = outlaw(dataclasses.replace(state, events=()), "harkonnen", cause="used Atomics in battle")
    assert state.outlawed == ("harkonnen",) and state.deferred_terms == ()
    assert state.houses["atreides"].spice == before + 6  # the promise to the outlaw is void (ALLIANCE-5)
    assert events_of(state, "outlawed") and events_of(state, "alliance-term-broken")
    assert outlaw(state, "harkonnen", cause="again") == state
    assert_conserved(state)
