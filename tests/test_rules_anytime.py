"""Actions played at any time (HARVEST-3, HARVEST-4, CARD-GHOLA-1, REVIVAL-2, GAP-48, GAP-57).

Scenes: an auction (built as in ``test_rules_bidding``), a battle (as in ``test_rules_battle_phase``), and an
alliance answer; each time the House to act trades a harvester or plays the ghola and the same node waits for it
again, while what it promised at that node (a bid won, spice on the wheel, an offer's price) stays its own.
"""

from __future__ import annotations

import copy
import dataclasses

import pytest
from helpers_game import assert_conserved, decisions, events_of, give_cards, quiet_setup
from test_rules_battle_phase import plan
from test_rules_battle_phase import position as battle_position
from test_rules_bidding import auction, up
from test_rules_bidding import play as bids

from dunenb.actions import Pass
from dunenb.engine import apply_action, check_action, legal_actions, pledge
from dunenb.errors import IllegalActionError
from dunenb.rules.alliances import AcceptOffer, Offer
from dunenb.rules.anytime import BuyHarvester, PlayGhola, SellHarvester
from dunenb.rules.bidding import Bid, PayBid
from dunenb.rules.common import Pledge
from dunenb.state import FrozenDict, Pending, Tokens

THREE = ["atreides", "harkonnen", "emperor"]
WITH_TLEILAX = ["atreides", "harkonnen", "bene-tleilax"]
TWO = ["atreides", "harkonnen"]
ARRAKEEN = [("atreides", "arrakeen", 1, 5), ("harkonnen", "arrakeen", 1, 5)]  # a battle in Arrakeen


def edit(state, house, **changes):
    """Change a House's assets; spice changes are balanced by the Bank (spice stays conserved)."""
    hs = state.houses[house]
    bank = state.bank - (changes["spice"] - hs.spice if "spice" in changes else 0)
    return dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(hs, **changes)), bank=bank)


def kill(state, house, regular=0, marked=0, leaders=()):
    """Send reserve tokens and living leaders to the tanks, as if they had died."""
    hs = state.houses[house]
    tokens = Tokens(regular, marked)
    return edit(state, house, reserve=hs.reserve - tokens, tanks=hs.tanks + tokens,
                leaders=tuple(k for k in hs.leaders if k not in leaders), leader_tanks=hs.leader_tanks + leaders)


def code(state, action):
    error = check_action(state, action)
    return None if error is None else error.code


def same_node(before, after):
    return after.pending == before.pending and after.phase == before.phase


# --- HARVEST-3, HARVEST-4: whenever the House is to act ------------------------------------------------------

def test_harvest_3_buy_at_auction():
    state = up(auction(spice={"atreides": 12, "harkonnen": 10}), "shield")
    assert state.pending.kind == "bid" and state.pending.actor == "atreides"
    assert BuyHarvester("atreides") in legal_actions(state)
    bank, owned = state.bank, state.houses["atreides"].harvesters
    after = apply_action(state, BuyHarvester("atreides"))
    assert same_node(state, after)  # the auction waits for the Atreides again
    assert after.houses["atreides"].spice == 7 and after.houses["atreides"].harvesters == owned + 1
    assert after.bank == bank + 5 and events_of(after, "harvester-bought")
    assert max(a.amount for a in decisions(after) if isinstance(a, Bid)) == 7  # BID-4: bids what it owns now
    assert_conserved(after)
    after = bids(after, 3)
    assert after.pending.actor == "harkonnen"
    assert code(after, BuyHarvester("atreides")) == "action/not-your-turn"  # only the House to act trades


def test_harvest_4_sell_in_battle_phase():
    state = battle_position(TWO, ARRAKEEN, spice={"atreides": 0, "harkonnen": 4})
    state = edit(state, "atreides", harvesters=2)
    assert state.phase == "battle" and state.pending.kind == "battle-plan" and state.pending.actor == "atreides"
    assert SellHarvester("atreides") in legal_actions(state)
    bank = state.bank
    after = apply_action(state, SellHarvester("atreides", 2))
    assert same_node(state, after)
    assert after.houses["atreides"].spice == 6 and after.houses["atreides"].harvesters == 0
    assert after.bank == bank - 6 and events_of(after, "harvester-sold")
    assert code(after, SellHarvester("atreides")) == "harvester/none"
    assert_conserved(after)
    after = plan(after, "gurney", 5, 0, 5)  # GAP-42: the spice from the sale goes on the wheel
    assert after.pending.actor == "harkonnen"


def test_harvest_3_harvest_4_errors_name_the_count_and_the_spice():
    state = up(auction(spice={"atreides": 4}), "shield")
    assert BuyHarvester("atreides") not in legal_actions(state)
    assert code(state, BuyHarvester("atreides")) == "harvester/cost"
    assert code(state, BuyHarvester("atreides", 0)) == "harvester/count"
    assert code(state, SellHarvester("atreides", -1)) == "harvester/count"


def test_GAP_57_no_trade_at_a_chance_node_or_during_setup():
    state = auction(spice={"atreides": 12})
    assert state.pending.kind == "auction-card"  # a chance node: nobody acts
    assert not legal_actions(state) or all(a.is_chance for a in legal_actions(state))
    assert code(state, BuyHarvester("atreides")) == "chance/not-an-outcome"
    setup = quiet_setup(THREE, stop_before="start")
    assert setup.phase == "setup" and setup.pending.kind == "start"
    assert not [a for a in legal_actions(setup) if a.kind in ("buy-harvester", "sell-harvester", "ghola")]
    assert code(setup, BuyHarvester(setup.pending.actor)) == "anytime/setup"


def test_GAP_57_a_bid_won_stays_payable():
    state = up(auction(spice={"atreides": 9, "harkonnen": 9, "emperor": 9}), "shield")
    state = bids(state, 6, None, None)  # the Atreides win at 6
    assert state.pending.kind == "bid-payment" and state.pending.actor == "atreides"
    assert pledge(state) == Pledge(spice=6)
    assert BuyHarvester("atreides") not in legal_actions(state)  # 9 - 6 = 3 left, less than a harvester
    assert code(state, BuyHarvester("atreides")) == "harvester/cost"
    assert "promised" in check_action(state, BuyHarvester("atreides")).message
    state = apply_action(state, PayBid("atreides"))
    assert state.houses["atreides"].spice == 3


def test_GAP_57_spice_on_the_wheel_is_kept_until_the_battle_is_settled():
    state = battle_position(TWO, ARRAKEEN, spice={"atreides": 8, "harkonnen": 0},
                            traitors={"atreides": (("harkonnen", "feyd-rautha"),)})
    state = plan(state, "duncan-idaho", 5, 0, 5)  # (not Gurney: in Arrakeen he would be asked first, S-5)
    state = plan(state, "feyd-rautha", 5, 0, 0)
    assert state.pending.kind == "traitor-call" and state.pending.actor == "atreides"
    assert pledge(state).spice == 5  # GAP-42: the 5 dialled are due to the Bank
    assert BuyHarvester("atreides") not in legal_actions(state)
    assert code(state, BuyHarvester("atreides")) == "harvester/cost"


def test_GAP_57_the_price_of_an_offer_being_answered_is_kept():
    state = quiet_setup(THREE)
    state = edit(state, "atreides", spice=7)
    offer = Offer("harkonnen", "atreides", "card", "shield", 1, 5)
    state = give_cards(state, "harkonnen", "shield")
    detail = FrozenDict(dict(window=1, index=0, offers=1, offer=tuple(getattr(offer, f.name) for f in
                                                                        dataclasses.fields(Offer)), resume="alliance"))
    state = dataclasses.replace(state, phase="alliance", pending=Pending("alliance-answer", "atreides", detail))
    assert pledge(state) == Pledge(spice=5)
    assert code(state, BuyHarvester("atreides")) == "harvester/cost"
    assert AcceptOffer("atreides") in legal_actions(state)


def test_GAP_57_trading_ends_random_play_buying_and_selling_loses_spice():
    state = up(auction(spice={"atreides": 20}), "shield")
    state = edit(state, "atreides", harvesters=0)
    rounds = 0
    while BuyHarvester("atreides") in legal_actions(state):
        state = apply_action(apply_action(state, BuyHarvester("atreides")), SellHarvester("atreides"))
        rounds += 1
    assert rounds == 8 and state.houses["atreides"].spice == 4  # 2 spice lost a round
    assert_conserved(state)


# --- CARD-GHOLA-1, REVIVAL-2 -------------------------------------------------------------------------------------

def test_revival_2_ghola_brings_back_a_dead_leader_for_his_combat_value():
    state = battle_position(WITH_TLEILAX, [("atreides", "arrakeen", 1, 5), ("harkonnen", "arrakeen", 1, 5)],
                            spice={"atreides": 10, "bene-tleilax": 0}, hands={"atreides": ("ghola",)})
    state = kill(state, "atreides", leaders=("gurney",))
    assert state.pending.kind == "battle-plan" and state.pending.actor == "atreides"
    assert "gurney" not in {a.leader for a in decisions(state)}  # REVIVAL-2: no other way back
    assert PlayGhola("atreides", 0, 0, "gurney") in legal_actions(state)
    after = apply_action(state, PlayGhola("atreides", 0, 0, "gurney"))
    assert same_node(state, after)
    hs = after.houses["atreides"]
    assert "gurney" in hs.leaders and "gurney" not in hs.leader_tanks and "ghola" not in hs.hand
    assert hs.spice == 3 and after.houses["bene-tleilax"].spice == 7  # Gurney's value 7, to the Tleilax (TLEILAX-P1)
    assert after.treachery_discard[-1] == "ghola"  # GAP-27
    assert "gurney" in {a.leader for a in decisions(after)}  # he may lead this very battle
    assert events_of(after, "ghola")[0].data["payee"] == "bene-tleilax"
    assert_conserved(after)


def test_revival_2_card_ghola_1_any_number_of_tokens_beyond_the_revival_limit():
    state = up(auction(spice={"atreides": 12}, hands={"atreides": ("ghola",)}), "shield")
    state = kill(state, "atreides", regular=6, marked=2)
    listed = [a for a in legal_actions(state) if isinstance(a, PlayGhola)]
    assert PlayGhola("atreides", 6, 2) in listed  # all of them, beyond REVIVAL-1's 3 and G-3's 1 marked
    bank = state.bank
    after = apply_action(state, PlayGhola("atreides", 6, 2))
    hs = after.houses["atreides"]
    assert hs.tanks == Tokens() and hs.spice == 4 and after.bank == bank + 8  # no Tleilax: the Bank (REVIVAL-1)
    assert hs.revived_this_turn == 0 and hs.revived_marked_this_turn == 0  # REVIVAL-1 is still there this turn
    assert same_node(state, after)
    assert_conserved(after)


def test_revival_2_ghola_tokens_and_a_leader_at_once_and_its_errors():
    state = up(auction(spice={"atreides": 6}, hands={"atreides": ("ghola",)}), "shield")
    state = kill(state, "atreides", regular=3, leaders=("tufir",))
    assert code(state, PlayGhola("atreides", 2, 0, "tufir")) is None  # 2 + 4 = 6
    assert code(state, PlayGhola("atreides", 3, 0, "tufir")) == "ghola/cost"
    assert code(state, PlayGhola("atreides", 4, 0)) == "ghola/too-many"
    assert code(state, PlayGhola("atreides", 0, 0, "gurney")) == "ghola/leader"
    assert code(state, PlayGhola("atreides", 0, 0)) == "ghola/nothing"
    assert code(state, PlayGhola("harkonnen", 1, 0)) == "action/not-your-turn"
    after = apply_action(state, PlayGhola("atreides", 2, 0, "tufir"))
    assert after.houses["atreides"].spice == 0 and "tufir" in after.houses["atreides"].leaders
    assert code(after, PlayGhola("atreides", 1, 0)) == "ghola/no-card"
    assert not [a for a in legal_actions(after) if isinstance(a, PlayGhola)]


def test_CARD_GHOLA_2_GAP_57_the_tleilax_use_a_ghola_on_their_tanks_and_pay_the_bank():
    state = battle_position(WITH_TLEILAX, [("bene-tleilax", "arrakeen", 1, 5), ("harkonnen", "arrakeen", 1, 5)],
                            spice={"bene-tleilax": 5}, hands={"bene-tleilax": ("ghola",)})
    state = kill(state, "bene-tleilax", regular=4)
    assert state.pending.actor == "harkonnen"  # the defender, first in storm order (BATTLE-14)
    state = plan(state, "feyd-rautha", 1)
    assert state.pending.actor == "bene-tleilax"
    bank = state.bank
    after = apply_action(state, PlayGhola("bene-tleilax", 4, 0))
    assert after.bank == bank + 4 and after.houses["bene-tleilax"].reserve.total >= 4  # TLEILAX-P1: self -> Bank


def test_GAP_57_a_karama_that_must_settle_a_bid_is_kept():
    state = up(auction(WITH_TLEILAX, spice={"atreides": 2, "harkonnen": 0, "bene-tleilax": 1},
                       hands={"bene-tleilax": ("ghola",)}), "shield")
    state = kill(state, "bene-tleilax", regular=1)
    state = bids(state, None, None, 20, None, None)  # TLEILAX-P4: with the ghola as Karama, bid beyond the spice
    assert state.pending.kind == "bid-payment" and state.pending.actor == "bene-tleilax"
    assert pledge(state) == Pledge(cards=("ghola",))
    assert code(state, PlayGhola("bene-tleilax", 1, 0)) == "ghola/no-card"
    assert decisions(state)  # the node can still be settled with the card


def test_any_time_actions_leave_the_given_state_untouched_when_refused():
    state = up(auction(spice={"atreides": 3}), "shield")
    snapshot = copy.deepcopy(state)
    with pytest.raises(IllegalActionError):
        apply_action(state, BuyHarvester("atreides"))
    assert state == snapshot
    assert Pass("atreides") == decisions(state)[0]
