"""KARAMA-29 at the auction (GAP-124): the Bene Gesserit settle a bid with a worthless card played as a Karama
(BG-P5, BID-14, KARAMA-11); the other Houses are asked, and a real Karama makes the worthless card void."""

from __future__ import annotations

from helpers_game import pass_karama
from test_powers_houses import kinds, run
from test_powers_karama import _auction

from dunenb.actions import Pass
from dunenb.engine import apply_action
from dunenb.rules.bidding import AuctionCard, Bid, KaramaBid, PayBid
from dunenb.rules.karama_window import UseKarama


def _won(bg_spice, bg_hand=("worthless",)):
    """The BG win card 1 (a lasgun) for 5; the Atreides hold a Karama."""
    state = _auction(["emperor", "bene-gesserit", "atreides"], spice={"bene-gesserit": bg_spice, "emperor": 5},
                     hands={"emperor": (), "bene-gesserit": bg_hand, "atreides": ("karama",)})
    state = apply_action(state, AuctionCard(1, "lasgun"))
    state = apply_action(state, Bid("emperor", 1))
    state = apply_action(state, Bid("bene-gesserit", 5))
    state = apply_action(apply_action(state, Pass("atreides")), Pass("emperor"))
    assert state.pending.kind == "bid-payment" and state.pending.actor == "bene-gesserit"
    return apply_action(state, KaramaBid("bene-gesserit", "worthless"))


def test_karama_29_at_the_auction_the_other_houses_are_asked_and_the_worthless_card_may_stand():
    asked = _won(10)
    assert asked.pending.kind == "karama-window" and asked.pending.detail["uses"] == ("KARAMA-29",)
    assert asked.pending.actor == "atreides"  # the only other House holding a card
    bought = pass_karama(asked)
    assert "lasgun" in bought.houses["bene-gesserit"].hand and bought.houses["bene-gesserit"].spice == 10
    assert bought.houses["emperor"].spice == 5  # KARAMA-11: nobody paid


def test_karama_29_GAP_124_cancelled_the_bg_pay_their_bid_in_spice():
    cancelled, events = run(_won(10), UseKarama("atreides", "KARAMA-29", "karama"))
    assert kinds(events, "karama-cancelled")[0].data["powers"] == ("BG-P5",)
    assert cancelled.pending.kind == "bid-payment" and cancelled.pending.actor == "bene-gesserit"
    assert cancelled.treachery_discard[-2:] == ("worthless", "karama")  # both spent (KARAMA-2)
    paid = pass_karama(apply_action(cancelled, PayBid("bene-gesserit")))
    assert "lasgun" in paid.houses["bene-gesserit"].hand and paid.houses["bene-gesserit"].spice == 5
    assert paid.houses["emperor"].spice == 5 + 5  # EMPEROR-P1: the price goes to the Emperor after all


def test_karama_29_GAP_124_cancelled_a_bg_unable_to_pay_does_not_get_the_card():
    cancelled, events = run(_won(2), UseKarama("atreides", "KARAMA-29", "karama"))
    unsold = kinds(events, "card-unsold")
    assert unsold and unsold[0].data["card"] == "lasgun" and "GAP-124" in unsold[0].text
    assert "lasgun" not in cancelled.houses["bene-gesserit"].hand and cancelled.treachery_discard[-1] == "lasgun"
    assert cancelled.houses["bene-gesserit"].spice == 2
