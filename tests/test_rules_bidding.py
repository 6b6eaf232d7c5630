"""Treachery cards and the auction: HAND-1, HAND-2, SETUP-1 h, BID-1 to BID-14, GAP-26, GAP-27, GAP-33,
KARAMA-4/11, BG-P5, TLEILAX-P4."""

from __future__ import annotations

import dataclasses
from collections import Counter
from fractions import Fraction

import pytest
from helpers_game import assert_conserved, decisions, events_of, force, outcome_map, pass_karama, quiet_setup

from dunenb.actions import Pass, action_from_dict, parse_action
from dunenb.battle.cards import DEFENCES, WEAPONS
from dunenb.engine import apply_action, check_action, new_game, view
from dunenb.rules import bidding
from dunenb.rules.bidding import AuctionCard, Bid, DrawTreacheryCard, KaramaBid, PayBid
from dunenb.rules.common import WEATHER_CONTROL, storm_order

THREE = ["atreides", "harkonnen", "emperor"]  # quiet_setup: storm on 1, starts 1, 4, 7: this is the storm order
NO_EMPEROR = ["atreides", "harkonnen", "guild"]
FOUR_CARDS = ("shield", "snooper", "truth-trance", "hajj")


# --- positions ---------------------------------------------------------------------------------------------

def deal(state, house, *cards):
    """Move ``cards`` from the treachery deck to the House's hand (cards stay conserved)."""
    for card in cards:
        state = bidding.take_card(state, card)
        hs = state.houses[house]
        state = dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(
            hs, hand=hs.hand + (card,))))
    return state


def set_spice(state, house, amount):
    """Set a House's spice, the Bank paying or taking the difference (total spice stays 0)."""
    hs = state.houses[house]
    state = dataclasses.replace(state, bank=state.bank - (amount - hs.spice))
    return dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(hs, spice=amount)))


def before_free_cards(houses=THREE):
    state = quiet_setup(houses, stop_before="free-card")
    assert state.pending.kind == "free-card" and all(not state.houses[h].hand for h in houses)
    return state


def auction(houses=THREE, *, hands=None, spice=None):
    """Turn 1, the auction about to begin (BID-1), with the given hands and spice (no free cards drawn)."""
    state = before_free_cards(houses)
    for house, cards in (hands or {}).items():
        state = deal(state, house, *cards)
    for house, amount in (spice or {}).items():
        state = set_spice(state, house, amount)
    state = bidding.begin_phase(dataclasses.replace(state, pending=None, events=()))
    assert storm_order(state) == tuple(houses)
    return state


def finish_auction(state):
    """Pass the Karama windows and the Emperor's fill (EMPEROR-M1) at the end of the auction."""
    state = pass_karama(state)
    while state.pending is not None and state.pending.kind in ("imperial-fill", "karama-window"):
        state = pass_karama(apply_action(state, Pass(state.pending.actor)))
    return state


def up(state, card):
    """Draw ``card`` as the next card of the auction (a chance node)."""
    return force(state, AuctionCard(state.pending.detail["number"], card))


def play(state, *moves):
    """Play bids in order: an int is a bid by the House to act, ``None`` a pass."""
    for move in moves:
        house = state.pending.actor
        state = apply_action(state, Pass(house) if move is None else Bid(house, move))
    return state


def rejected(state, action):
    error = check_action(state, action)
    assert error is not None, f"{action.notation()} was accepted"
    return error.code


# --- GAP-26: the deck --------------------------------------------------------------------------------------

def test_GAP_26_the_deck_holds_61_cards_with_the_proposed_counts():
    counts = dict(bidding.initial_deck())
    assert counts == {
        "worthless": 8, "truth-trance": 4, "poison-fast": 5, "poison-slow": 5, "projectile-distance": 5,
        "projectile-contact": 5, "weather-control": 2, "ghola": 2, "atomics": 1, "lasgun": 1, "hajj": 1,
        "karama": 2, "shield": 10, "snooper": 10,
    }
    assert sum(counts.values()) == 61
    assert set(WEAPONS) | set(DEFENCES) | {WEATHER_CONTROL} <= set(counts)  # the ids other modules use
    assert bidding.load_treachery_rules().worthless_names == (
        "Balisette", "Usul", "La, la, la", "Baklawa", "Voyage à Gamont", "Kulon", "Akarso", "Brilleur")
    state = new_game(THREE, seed=1)
    assert state.treachery_deck == bidding.initial_deck() and state.treachery_discard == ()


# --- SETUP-1 h, HAND-2: free cards -------------------------------------------------------------------------

def test_SETUP_1h_each_free_card_is_a_chance_draw_with_the_decks_odds_and_stays_hidden():
    state = before_free_cards()
    assert state.pending.detail["house"] == "atreides"
    odds = outcome_map(state)
    assert odds[DrawTreacheryCard("atreides", "shield")] == Fraction(10, 61)
    assert odds[DrawTreacheryCard("atreides", "lasgun")] == Fraction(1, 61)
    assert sum(odds.values()) == 1
    state = force(state, DrawTreacheryCard("atreides", "lasgun"))
    assert state.houses["atreides"].hand == ("lasgun",)
    assert DrawTreacheryCard("harkonnen", "lasgun") not in outcome_map(state)  # the only lasgun is dealt
    assert outcome_map(state)[DrawTreacheryCard("harkonnen", "shield")] == Fraction(10, 60)
    assert view(state, "harkonnen").houses["atreides"].hand == ("hidden",)
    assert all("lasgun" not in e.data.values() and e.data["secret"] for e in events_of(state, "free-card"))


def test_HAND_2_one_free_card_each_and_two_for_the_harkonnen():
    state = before_free_cards()
    drawn = []
    while state.pending.kind == "free-card":
        drawn.append(state.pending.detail["house"])
        state = force(state, next(iter(outcome_map(state))))
    assert drawn == ["atreides", "harkonnen", "harkonnen", "emperor"]
    assert {h: len(state.houses[h].hand) for h in THREE} == {"atreides": 1, "harkonnen": 2, "emperor": 1}
    assert sum(state.treachery_deck.values()) == 61 - 4
    assert state.phase == "bidding" and state.pending.kind == "auction-card"  # turn 1 goes on at step d)


# --- HAND-1, BID-1 -----------------------------------------------------------------------------------------

def test_HAND_1_four_cards_at_most_eight_for_the_harkonnen():
    state = auction(hands={"atreides": FOUR_CARDS, "harkonnen": ("shield",) * 4})
    assert bidding.hand_limit(state, "atreides") == 4 and bidding.hand_limit(state, "harkonnen") == 8
    assert bidding.has_full_hand(state, "atreides") and not bidding.has_full_hand(state, "harkonnen")
    assert state.pending.detail["count"] == 2  # the Harkonnen with 4 still buy


def test_BID_1_one_card_for_each_house_without_a_full_hand():
    state = auction(hands={"atreides": FOUR_CARDS})
    (announce,) = events_of(state, "auction")
    assert announce.data["count"] == 2 and announce.data["full_hands"] == ("atreides",)
    full = auction(hands={"atreides": FOUR_CARDS, "emperor": ("snooper",) * 6,  # EMPEROR-M1: a hand of 6
                          "harkonnen": ("worthless",) * 8})
    assert events_of(full, "auction")[0].data["count"] == 0
    assert full.phase != "bidding"  # nothing to sell: the turn goes on


# --- BID-3, BID-8: openers and who sees the card -----------------------------------------------------------

def test_BID_3_the_first_card_is_opened_by_the_house_just_after_the_storm_who_alone_sees_it():
    state = auction()
    assert state.pending.detail["opener"] == "atreides"
    state = up(state, "lasgun")
    assert state.pending.kind == "bid" and state.pending.actor == "atreides"
    assert bidding.auction_card(state) == "lasgun"
    assert dict(view(state, "atreides").pending.detail["secrets"]) == {"atreides": "lasgun"}
    assert "lasgun" not in str(view(state, "harkonnen").pending) and "lasgun" not in str(view(state, "emperor"))
    assert all("lasgun" not in str(e.data) for e in state.events)


def test_BID_8_the_next_card_goes_round_counterclockwise_and_only_its_opener_and_the_atreides_see_it():
    state = up(auction(), "shield")
    state = play(state, None, None, None)  # nobody bids on card 1
    assert state.pending.kind == "auction-card" and state.pending.detail["opener"] == "harkonnen"
    state = up(state, "karama")
    assert state.pending.actor == "harkonnen"
    assert dict(view(state, "harkonnen").pending.detail["secrets"])["harkonnen"] == "karama"
    assert dict(view(state, "atreides").pending.detail["secrets"])["atreides"] == "karama"  # ATREIDES-P2a
    assert "karama" not in str(view(state, "emperor").pending)
    assert state.pending.detail["order"] == ("harkonnen", "emperor", "atreides")


# --- BID-4: the opener's three cases -----------------------------------------------------------------------

def test_BID_4_a_full_hand_without_karama_must_say_zero():
    state = up(auction(hands={"atreides": FOUR_CARDS}, spice={"atreides": 10}), "shield")
    # the truth trance in that hand may be played first (CARD-TRUTH-1, GAP-56), but no bid
    assert [a for a in decisions(state) if a.kind != "truth-trance"] == [Pass("atreides")]
    assert rejected(state, Bid("atreides", 1)) == "action/wrong-kind"  # no bid is legal at all
    assert bidding.check_bid(state, Bid("atreides", 1)).code == "bid/full-hand"  # and why
    state = play(state, None)
    assert state.pending.actor == "harkonnen"
    assert [e.data["house"] for e in events_of(state, "bid-pass")] == ["atreides"]


def test_BID_4_a_full_hand_with_a_karama_may_bid_any_sum_and_buys_with_the_karama():
    hand = ("karama", "shield", "snooper", "hajj")
    state = up(auction(hands={"atreides": hand}, spice={"atreides": 2}), "lasgun")
    assert check_action(state, Bid("atreides", 40)) is None  # more than he owns (BID-6: a tell)
    bank = state.bank
    state = play(state, 40, None, None)
    assert state.pending.kind == "bid-payment"
    assert decisions(state) == [KaramaBid("atreides", "karama")]  # a full hand cannot pay in spice
    state = apply_action(state, KaramaBid("atreides", "karama"))
    hs = state.houses["atreides"]
    assert sorted(hs.hand) == sorted(("shield", "snooper", "hajj", "lasgun")) and hs.spice == 2
    assert state.treachery_discard == ("karama",) and state.bank == bank
    assert state.houses["emperor"].spice == 10
    assert_conserved(state)


def test_BID_4_fewer_than_four_cards_bid_from_1_to_all_the_spice_owned():
    state = up(auction(spice={"atreides": 5}), "shield")
    assert decisions(state) == [Pass("atreides")] + [Bid("atreides", n) for n in range(1, 6)]
    assert rejected(state, Bid("atreides", 6)) == "bid/too-high"
    assert "owns 5 spice" in check_action(state, Bid("atreides", 6)).message


# --- BID-5, BID-10/11, BID-13 ------------------------------------------------------------------------------

def test_BID_5_the_others_follow_by_the_same_rules_and_the_highest_bid_wins():
    state = up(auction(spice={"atreides": 10, "harkonnen": 10, "emperor": 10}), "shield")
    state = play(state, 1, 3)
    assert state.pending.actor == "emperor"
    assert rejected(state, Bid("emperor", 3)) == "bid/too-low"
    state = play(state, None, None)  # the emperor, then the atreides pass: the harkonnen win
    assert state.pending.kind == "bid-payment" and state.pending.detail["winner"] == "harkonnen"
    assert state.pending.detail["price"] == 3
    state = apply_action(state, PayBid("harkonnen"))
    assert state.houses["harkonnen"].hand == ("shield",) and state.houses["harkonnen"].spice == 7


def test_BID_5_a_pass_does_not_leave_the_auction_and_a_raise_reopens_the_round():
    state = up(auction(spice={"atreides": 10, "harkonnen": 10, "emperor": 10}), "shield")
    state = play(state, None, 2, 4, 5)  # the atreides passed, then raise again
    assert state.pending.actor == "harkonnen" and state.pending.detail["high_bidder"] == "atreides"
    state = play(state, None, None)
    assert state.pending.detail["winner"] == "atreides" and state.pending.detail["price"] == 5


def test_BID_10_equal_sums_the_one_closest_to_the_storm_in_playing_order_holds_the_bid():
    state = up(auction(spice={"atreides": 10, "harkonnen": 10, "emperor": 10}), "shield")
    state = play(state, 4)
    assert rejected(state, Bid("harkonnen", 4)) == "bid/too-low"
    state = play(state, None, None)
    assert state.pending.detail["winner"] == "atreides"


def test_BID_11_two_karama_holders_cannot_raise_for_ever():
    hands = {"atreides": ("karama",), "harkonnen": ("karama",)}
    state = up(auction(hands=hands, spice={"atreides": 1, "harkonnen": 1}), "shield")
    cap = bidding.load_treachery_rules().karama_bid_cap
    assert Bid("atreides", cap) in decisions(state) and len(decisions(state)) <= 40
    assert check_action(state, Bid("atreides", 57)) is None  # any sum, listed or not
    assert rejected(state, Bid("atreides", cap + 1)) == "bid/too-high"
    state = play(state, cap)
    assert decisions(state) == [Pass("harkonnen")]
    state = play(state, None, None)
    assert state.pending.detail["winner"] == "atreides"


def test_BID_13_GAP_27_a_card_nobody_bids_on_goes_to_the_discard_pile():
    state = up(auction(), "atomics")
    state = play(state, None, None, None)
    assert state.treachery_discard == ("atomics",)
    (unsold,) = events_of(state, "card-unsold")
    assert unsold.data["card"] == "atomics"
    assert state.pending.kind == "auction-card" and state.pending.detail["number"] == 2
    assert all(not state.houses[h].hand for h in THREE)


# --- BID-7, BID-14: who is paid ----------------------------------------------------------------------------

def test_BID_7_the_emperor_receives_the_price_of_a_card_bought_by_another_house():
    state = up(auction(spice={"atreides": 10, "emperor": 10}), "shield")
    bank = state.bank
    state = apply_action(play(state, 6, None, None), PayBid("atreides"))
    assert state.houses["atreides"].spice == 4 and state.houses["emperor"].spice == 16 and state.bank == bank
    assert events_of(state, "card-bought")[0].data["recipient"] == "emperor"
    assert_conserved(state)


def test_BID_7_when_the_emperor_buys_his_money_goes_to_the_bank():
    state = up(auction(spice={"emperor": 10}), "shield")
    bank = state.bank
    state = apply_action(play(state, None, None, 6, None, None), PayBid("emperor"))
    assert state.houses["emperor"].spice == 4 and state.bank == bank + 6
    assert state.houses["emperor"].hand == ("shield",)
    assert events_of(state, "card-bought")[0].data["recipient"] == "bank"
    assert_conserved(state)


def test_BID_7_BID_14_a_card_bought_with_a_karama_pays_nobody():
    state = up(auction(hands={"harkonnen": ("karama",)}, spice={"harkonnen": 10}), "shield")
    before = {h: state.houses[h].spice for h in THREE}, state.bank
    state = play(state, None, 5, None, None)
    assert decisions(state) == [PayBid("harkonnen"), KaramaBid("harkonnen", "karama")]
    state = apply_action(state, KaramaBid("harkonnen", "karama"))
    assert ({h: state.houses[h].spice for h in THREE}, state.bank) == before
    assert state.houses["harkonnen"].hand == ("shield",) and state.treachery_discard == ("karama",)
    assert events_of(state, "card-bought")[0].data["recipient"] == "nobody"


def test_BID_14_a_bid_above_the_spice_owned_must_be_settled_with_the_karama():
    state = up(auction(hands={"emperor": ("karama",)}, spice={"emperor": 3}), "shield")
    state = play(state, None, None, 8, None, None)
    assert decisions(state) == [KaramaBid("emperor", "karama")]


def test_KARAMA_4_BG_P5_TLEILAX_P4_worthless_for_the_bg_and_ghola_for_the_tleilax_act_as_karama():
    houses = ["bene-gesserit", "bene-tleilax", "atreides"]
    hands = {"bene-gesserit": ("worthless",) * 4, "bene-tleilax": ("ghola",), "atreides": ("worthless",) * 4}
    state = up(auction(houses, hands=hands, spice={"bene-gesserit": 0, "bene-tleilax": 0}), "shield")
    assert bidding.karama_cards(state, "bene-gesserit") == ("worthless",)
    assert bidding.karama_cards(state, "atreides") == ()
    state = play(state, 20)
    assert check_action(state, Bid("bene-tleilax", 21)) is None
    state = play(state, None, None)
    assert decisions(state) == [KaramaBid("bene-gesserit", "worthless")]
    state = apply_action(state, KaramaBid("bene-gesserit", "worthless"))
    while state.pending.kind == "karama-window":  # KARAMA-29 asked of the others (GAP-124): they pass
        state = apply_action(state, Pass(state.pending.actor))
    assert Counter(state.houses["bene-gesserit"].hand) == Counter({"worthless": 3, "shield": 1})
    assert state.treachery_discard == ("worthless",)


# --- GAP-27: reshuffle --------------------------------------------------------------------------------------

def test_GAP_27_an_empty_deck_is_reshuffled_from_the_discard_pile():
    state = auction()
    rest = state.treachery_deck
    discard = ("shield", "shield", "lasgun")
    moved = Counter(rest)
    moved.subtract(discard)  # the three cards go to the discard pile, the rest to the Harkonnen's hand
    state = dataclasses.replace(state, treachery_deck=type(rest)(), treachery_discard=discard)
    hs = state.houses["harkonnen"]
    state = dataclasses.replace(state, houses=state.houses.set("harkonnen", dataclasses.replace(
        hs, hand=tuple(moved.elements()))))
    assert outcome_map(state) == {AuctionCard(1, "lasgun"): Fraction(1, 3), AuctionCard(1, "shield"): Fraction(2, 3)}
    state = up(state, "shield")
    assert dict(state.treachery_deck) == {"shield": 1, "lasgun": 1} and state.treachery_discard == ()
    assert events_of(state, "treachery-reshuffle")
    assert bidding.card_census(state) == Counter(bidding.initial_deck())


# --- GAP-33 -------------------------------------------------------------------------------------------------

def test_GAP_33a_the_harkonnen_hand_is_full_at_eight_not_four():
    state = up(auction(hands={"harkonnen": ("shield",) * 4}, spice={"harkonnen": 5}), "lasgun")
    state = play(state, None)
    assert Bid("harkonnen", 1) in decisions(state)
    state = up(auction(hands={"harkonnen": ("shield",) * 8}, spice={"harkonnen": 5}), "lasgun")
    state = play(state, None)
    assert decisions(state) == [Pass("harkonnen")]


def test_GAP_33b_a_winning_bid_is_at_least_one_and_zero_is_a_pass():
    state = up(auction(spice={"atreides": 5}), "shield")
    assert rejected(state, Bid("atreides", 0)) == "bid/too-low"
    assert "'0' is a pass" in check_action(state, Bid("atreides", 0)).message
    assert min(a.amount for a in decisions(state) if isinstance(a, Bid)) == 1


def test_GAP_33c_card_k_is_opened_by_the_kth_house_full_hands_included():
    state = auction(hands={"atreides": FOUR_CARDS})
    assert state.pending.detail["count"] == 2
    state = up(state, "shield")
    assert state.pending.actor == "atreides"  # full hand: opens with "0"
    state = play(state, None, None, None)
    assert state.pending.detail["opener"] == "harkonnen"
    state = finish_auction(play(up(state, "snooper"), None, None, None))
    assert state.phase != "bidding"  # two cards only: the emperor opens none
    assert state.treachery_discard == ("shield", "snooper")


def test_GAP_33d_without_an_emperor_the_bank_is_paid():
    state = up(auction(NO_EMPEROR, spice={"guild": 9}), "shield")
    bank = state.bank
    state = apply_action(play(state, None, None, 7, None, None), PayBid("guild"))
    assert state.houses["guild"].spice == 2 and state.bank == bank + 7
    assert_conserved(state)


# --- flow and actions ---------------------------------------------------------------------------------------

def test_TURN_1d_after_the_last_card_the_turn_goes_on_and_cards_are_conserved():
    state = up(auction(spice={"atreides": 10, "harkonnen": 10, "emperor": 10}), "shield")
    state = apply_action(play(state, 2, None, None), PayBid("atreides"))
    state = pass_karama(apply_action(play(up(state, "snooper"), 1, None, None), PayBid("harkonnen")))
    state = force(state, DrawTreacheryCard("harkonnen", "poison-fast"))  # HARKONNEN-P3: the top card, free
    state = finish_auction(play(up(state, "lasgun"), None, None, None))
    assert state.phase != "bidding"
    assert {h: state.houses[h].hand for h in THREE} == {"atreides": ("shield",),
                                                      "harkonnen": ("snooper", "poison-fast"), "emperor": ()}
    assert bidding.card_census(state) == Counter(bidding.initial_deck())
    assert_conserved(state)


@pytest.mark.parametrize("action", [
    DrawTreacheryCard("atreides", "shield"), AuctionCard(2, "karama"), Bid("harkonnen", 7), PayBid("emperor"),
    KaramaBid("bene-gesserit", "worthless"),
])
def test_auction_actions_round_trip_through_dict_and_notation(action):
    assert action_from_dict(action.to_dict()) == action
    assert parse_action(action.notation()) == action


def test_the_module_examples_run():
    import doctest

    result = doctest.testmod(bidding)
    assert result.attempted > 0 and result.failed == 0


def test_card_atomics_4_outlaw_may_not_buy_treachery_cards():
    state = up(auction(spice={"atreides": 10}), "shield")
    state = dataclasses.replace(state, outlawed=("atreides",))
    assert state.pending.actor == "atreides"
    assert [a for a in decisions(state) if a.kind != "truth-trance"] == [Pass("atreides")]
    assert bidding.check_bid(state, Bid("atreides", 1)).code == "bid/outlawed"
    with_karama = dataclasses.replace(state, houses=state.houses.set("atreides", dataclasses.replace(
        state.houses["atreides"], hand=("karama",))))
    assert bidding.bid_limit(with_karama, "atreides") == 0  # a Karama does not help (KARAMA-4 is a purchase too)
