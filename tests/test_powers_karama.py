"""Issue 10 item 3, the Karama uses outside battles (houses.md cross-reference, digest KARAMA-1..50): each use is a
legal action at its moment, asked of every House with a hand (GAP-63), and blocks exactly its power for exactly as
long as the cross-reference says; and the House powers left from the first part (BG-P2 a, DISPERSION-P1/P3,
ATREIDES-P2 b-d), each in a scene where it changes the outcome."""

from __future__ import annotations

import dataclasses

import pytest
from helpers_game import assert_conserved, pass_karama, pass_unable, place
from test_powers_houses import board, kinds, movement_start, run, to_slot, with_hand
from test_powers_pre_battle import battle
from test_rules_collection import position

from dunenb.actions import DrawStormToken, Pass
from dunenb.analysis.battle_odds import sensible_plans
from dunenb.battle.cards import card_kind
from dunenb.battle.case import case_outcomes, parse_case
from dunenb.battle.plans import Battle, BattlePlan, BattleSide
from dunenb.battle.powers import marked_token_value
from dunenb.battle.resolve import resolve_battle
from dunenb.battle.sequence import VoiceCommand, plan_violations, start_sequence
from dunenb.battle.wheel import Dial
from dunenb.battle.wheel import Tokens as WheelTokens
from dunenb.bots.heuristic import HeuristicBot
from dunenb.bots.risk import storm_move_distribution
from dunenb.engine import apply_action, check_action, legal_actions, make_config, sample_chance, view
from dunenb.errors import IllegalActionError, InputError
from dunenb.powers import holder
from dunenb.record import GameRecord
from dunenb.rules import alliances, battle_phase, bidding, collection, secrecy, storm
from dunenb.rules.alliances import DeclarePeace, DeclareWar
from dunenb.rules.anytime import KaramaAnyTime, PlayGhola, any_time_uses
from dunenb.rules.battle_phase import SubmitPlan
from dunenb.rules.bidding import AuctionCard, Bid, DrawTreacheryCard, KaramaBid
from dunenb.rules.common import destroy_in_sector
from dunenb.rules.karama_window import UseKarama
from dunenb.rules.movement import Land, LandInPeace, Move, Revive
from dunenb.rules.traitors import leader_of
from dunenb.state import Tokens


def _auction(houses, **kwargs):
    state = board(houses, **kwargs)
    return bidding.begin_phase(dataclasses.replace(state, phase="alliance", pending=None))


# --- the Bene Gesserit ------------------------------------------------------------------------------------

def test_BG_P2_a_the_bg_land_in_peace_beside_the_atreides_and_cannot_be_fought_there():
    state = place(board(["atreides", "bene-gesserit"], spice={"bene-gesserit": 10}, hands={"atreides": ()}),
                  "atreides", "arrakeen", 1, 3)
    state = to_slot(movement_start(state), "bene-gesserit")
    peace = LandInPeace("bene-gesserit", "arrakeen", 1, 5)
    assert peace in legal_actions(state)
    assert LandInPeace("bene-gesserit", "carthag", 1, 5) not in legal_actions(state)  # nobody there: menu only
    landed, events = run(pass_karama(state), peace)
    assert landed.forces[("bene-gesserit", "arrakeen", 1)] == Tokens(5)
    assert ("bene-gesserit", "arrakeen") in landed.at_peace
    assert kinds(events, "land-in-peace")[0].data["powers"] == ("BG-P2",)
    assert battle_phase.arenas(landed) == ()  # at peace: no battle in Arrakeen
    at_war, _ = run(pass_karama(state), Land("bene-gesserit", "arrakeen", 1, 5))
    assert [a.area for a in battle_phase.arenas(at_war)] == ["arrakeen"]  # the same landing, not in peace


def test_BG_P2_a_KARAMA_26_no_landing_in_peace_for_the_rest_of_the_turn():
    state = place(board(["atreides", "bene-gesserit"], spice={"bene-gesserit": 10},
                        hands={"atreides": ("karama",)}), "atreides", "arrakeen", 1, 3)
    state, _ = run(movement_start(state), UseKarama("atreides", "KARAMA-26", "karama"))
    state = to_slot(state, "bene-gesserit")
    peace = LandInPeace("bene-gesserit", "arrakeen", 1, 5)
    assert peace not in legal_actions(state)
    assert check_action(state, peace).code == "land/no-peace"
    assert check_action(state, Land("bene-gesserit", "arrakeen", 1, 5)) is None
    assert holder(dataclasses.replace(state, turn=state.turn + 1), "BG-P2") == "bene-gesserit"  # one turn


# --- the Emperor ------------------------------------------------------------------------------------------

def test_KARAMA_11_a_card_bought_with_a_karama_pays_neither_the_emperor_nor_the_bank():
    state = _auction(["emperor", "atreides"], spice={"atreides": 10, "emperor": 5},
                     hands={"emperor": (), "atreides": ("karama",)})
    state = apply_action(state, AuctionCard(1, "lasgun"))
    state = apply_action(apply_action(state, Bid("emperor", 1)), Bid("atreides", 4))
    state = apply_action(state, Pass("emperor"))
    assert state.pending.kind == "bid-payment" and KaramaBid("atreides", "karama") in legal_actions(state)
    bank, emperor = state.bank, state.houses["emperor"].spice
    paid = pass_karama(apply_action(state, bidding.PayBid("atreides")))
    assert paid.houses["emperor"].spice == emperor + 4  # EMPEROR-P1 without the Karama
    free, events = run(state, KaramaBid("atreides", "karama"))
    assert free.houses["emperor"].spice == emperor and free.bank == bank
    assert free.houses["atreides"].spice == 10 and "lasgun" in free.houses["atreides"].hand
    assert kinds(events, "card-bought")[0].data["recipient"] == "nobody"
    assert free.treachery_discard[-1] == "karama"  # KARAMA-2
    assert holder(free, "EMPEROR-P1") == "emperor"  # that card only


def test_CARD_WORTHLESS_3_KARAMA_1_for_the_bg_a_worthless_card_is_a_karama_and_blocks_one_power():
    def window(bg_hand, atreides_hand):
        state = _auction(["emperor", "bene-gesserit", "atreides"], spice={"emperor": 10},
                         hands={"emperor": ("lasgun",) * 3, "bene-gesserit": bg_hand, "atreides": atreides_hand})
        state = apply_action(state, AuctionCard(1, "snooper"))
        for house in ("emperor", "bene-gesserit", "atreides"):
            state = apply_action(state, Pass(house))
        assert state.pending.kind == "karama-window"  # KARAMA-12, at the end of the auction
        return state

    asked = window(("worthless",) * 4, ("worthless",) * 4)
    assert asked.pending.actor == "bene-gesserit"
    assert UseKarama("bene-gesserit", "KARAMA-12", "worthless") in legal_actions(asked)
    refused = check_action(apply_action(asked, Pass("bene-gesserit")), UseKarama("atreides", "KARAMA-12",
                                                                                 "worthless"))
    assert refused.code == "karama/card"  # for any other House a worthless card is only worthless
    blocked, events = run(asked, UseKarama("bene-gesserit", "KARAMA-12", "worthless"))
    assert blocked.pending.detail["uses"] == ("KARAMA-29",)  # asked of the Atreides, who hold a card (GAP-63)
    blocked, events = run(blocked, Pass("emperor"), Pass("atreides"))
    assert blocked.phase != "bidding" and len(blocked.houses["emperor"].hand) == 3  # no imperial fill
    assert holder(blocked, "EMPEROR-M1") is None and holder(blocked, "HARKONNEN-P3") is None  # not in play
    assert holder(blocked, "EMPEROR-P1") == "emperor"  # KARAMA-1: one power only
    assert blocked.treachery_discard[-1] == "worthless" and len(blocked.houses["bene-gesserit"].hand) == 3
    assert kinds(events, "karama")[0].data["card"] == "worthless"
    assert holder(dataclasses.replace(blocked, turn=blocked.turn + 1), "EMPEROR-M1") == "emperor"  # 1 turn


def _step_g(houses_hands, peace=True):
    state = place(board(["atreides", "bene-gesserit"], hands=houses_hands), "atreides", "arrakeen", 1, 3)
    state = place(state, "bene-gesserit", "arrakeen", 1, 2)
    if peace:  # landed in peace this turn (BG-P2): bound to peace
        state = dataclasses.replace(state, at_peace=(("bene-gesserit", "arrakeen"),))
    return alliances.begin_bg_declaration(dataclasses.replace(state, phase="collection-declaration", pending=None))


def test_BG_P3_KARAMA_27_no_peace_this_turn_and_the_tokens_landed_in_peace_fight():
    bound = _step_g({"atreides": (), "bene-gesserit": ()})
    assert bound.pending.kind == "bg-declaration"
    assert [a for a in legal_actions(bound) if a.kind in ("peace", "war")] == [DeclarePeace("bene-gesserit",
                                                                                         "arrakeen")]
    asked = _step_g({"atreides": ("karama",), "bene-gesserit": ()})
    assert asked.pending.kind == "karama-window" and asked.pending.actor == "atreides"
    assert apply_action(asked, Pass("atreides")).pending.kind == "bg-declaration"
    blocked, events = run(asked, UseKarama("atreides", "KARAMA-27", "karama"))
    assert blocked.pending is None or blocked.pending.kind != "bg-declaration"  # nothing declared
    assert blocked.at_peace == () and kinds(events, "peace-blocked")[0].data["powers"] == ("BG-P3",)
    assert [a.area for a in battle_phase.arenas(blocked)] == ["arrakeen"]  # all fight
    assert holder(blocked, "BG-P3") is None
    assert holder(dataclasses.replace(blocked, turn=blocked.turn + 1), "BG-P3") == "bene-gesserit"  # 1 turn


def test_KARAMA_27_the_bg_may_play_it_on_themselves_to_fight_with_their_peace_tokens():
    asked = _step_g({"atreides": (), "bene-gesserit": ("worthless",)})
    assert asked.pending.kind == "karama-window" and asked.pending.actor == "bene-gesserit"
    assert UseKarama("bene-gesserit", "KARAMA-27", "worthless") in legal_actions(asked)  # BG-P5 as well
    fight, _ = run(asked, UseKarama("bene-gesserit", "KARAMA-27", "worthless"))
    assert fight.at_peace == () and [a.area for a in battle_phase.arenas(fight)] == ["arrakeen"]
    free = _step_g({"atreides": (), "bene-gesserit": ("worthless",)}, peace=False)
    assert apply_action(free, Pass("bene-gesserit")).pending.kind == "bg-declaration"
    assert DeclareWar("bene-gesserit", "arrakeen") in legal_actions(apply_action(free, Pass("bene-gesserit")))


# --- the Bene Tleilax -------------------------------------------------------------------------------------

def _tleilax_into_the_storm(hands):
    state = place(board(["bene-tleilax", "atreides"], storm=17, hands=hands), "bene-tleilax", "grande-etendue",
                  16, 4)
    state = to_slot(pass_karama(movement_start(state)), "bene-tleilax")
    return apply_action(state, Move("bene-tleilax", "grande-etendue", 16, (("erg-sihaya", 17),), 4))


def test_REVIVAL_3_TLEILAX_P2_tokens_destroyed_by_an_action_come_back_to_the_reserve():
    moved = _tleilax_into_the_storm({"atreides": ()})
    assert moved.pending.kind == "movement"  # nobody holds a card: nobody is asked
    assert moved.houses["bene-tleilax"].reserve.total == 20 and moved.houses["bene-tleilax"].tanks.total == 0
    assert_conserved(moved)


def test_KARAMA_34_REVIVAL_3_the_destroyed_tleilax_tokens_go_to_the_dead_pile_and_are_bought_back():
    asked = _tleilax_into_the_storm({"atreides": ("karama",)})
    assert asked.pending.kind == "karama-window" and asked.pending.detail["uses"] == ("KARAMA-34",)
    assert asked.pending.actor == "atreides"  # the Tleilax are not asked against their own power
    kept = apply_action(asked, Pass("atreides"))
    assert kept.pending.kind == "movement" and kept.houses["bene-tleilax"].tanks.total == 0
    dead, events = run(asked, UseKarama("atreides", "KARAMA-34", "karama"))
    tleilax = dead.houses["bene-tleilax"]
    assert tleilax.tanks.total == 4 and tleilax.reserve.total == 16
    assert kinds(events, "tokens-to-tanks")[0].data["powers"] == ("TLEILAX-P2",)
    assert dead.pending.kind == "movement" and dead.pending.actor == "bene-tleilax"
    assert dead.suppressions == () and holder(dead, "TLEILAX-P2") == "bene-tleilax"  # those tokens only
    again = destroy_in_sector(place(dead, "bene-tleilax", "grande-etendue", 17, 2), 17, cause="storm")
    assert again.houses["bene-tleilax"].tanks.total == 4  # the next destruction is recovered
    assert_conserved(dead)


def _dead(state, house, count):
    hs = state.houses[house]
    return dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(
        hs, reserve=hs.reserve - Tokens(count), tanks=Tokens(count))))


def test_REVIVAL_4_KARAMA_36_a_karama_sends_the_revival_money_to_the_bank_it_does_not_make_it_free():
    state = _dead(board(["atreides", "bene-tleilax"], spice={"atreides": 10},
                        hands={"atreides": ("karama", "ghola")}), "atreides", 3)
    state = to_slot(pass_karama(movement_start(state)), "atreides")
    tleilax, bank = state.houses["bene-tleilax"].spice, state.bank
    normal, _ = run(apply_action(state, Revive("atreides", 2)), UseKarama("atreides", "KARAMA-36", "karama"))
    assert normal.houses["atreides"].spice == 8 and normal.bank == bank + 2  # not free: paid to the Bank
    assert normal.houses["bene-tleilax"].spice == tleilax
    ghola = apply_action(state, PlayGhola("atreides", 3, 0, "none"))  # the ghola revival too (REVIVAL-4)
    assert ghola.pending.kind == "karama-window" and ghola.pending.actor == "atreides"
    assert "ghola" not in ghola.houses["atreides"].hand  # the card is played
    paid = apply_action(ghola, Pass("atreides"))
    assert paid.houses["bene-tleilax"].spice == tleilax + 3 and paid.pending.kind == "movement"
    banked, events = run(ghola, UseKarama("atreides", "KARAMA-36", "karama"))
    assert banked.houses["bene-tleilax"].spice == tleilax and banked.bank == bank + 3
    assert banked.houses["atreides"].spice == 7 and banked.houses["atreides"].reserve.total == 20
    assert banked.pending.kind == "movement" and banked.suppressions == ()  # that payment only


# --- the Fremen -------------------------------------------------------------------------------------------

def _token_draw(hands):
    state = board(["fremen", "atreides"], hands=hands)
    return storm.begin_token_draws(dataclasses.replace(state, phase="storm", pending=None), after="turn")


def test_STORM_4_FREMEN_P1_the_fremen_alone_see_the_token_drawn_for_the_next_storm():
    state = _token_draw({"atreides": (), "fremen": ()})
    assert state.pending.kind == "storm-token"  # no hand: nobody asked
    drawn = apply_action(state, DrawStormToken("main", 5))
    assert secrecy.viewers(state, DrawStormToken("main", 5)) == ("fremen",)
    assert view(drawn, "fremen").storm_tokens == {"main": 5} and view(drawn, "atreides").storm_tokens == {}
    assert storm_move_distribution(view(drawn, "fremen"), "fremen", "main") == {5: 1}


def test_KARAMA_5_STORM_4_the_token_is_drawn_face_down_until_it_is_revealed():
    asked = _token_draw({"atreides": ("karama",), "fremen": ()})
    assert asked.pending.kind == "karama-window" and asked.pending.detail["uses"] == ("KARAMA-5",)
    seen = apply_action(apply_action(asked, Pass("atreides")), DrawStormToken("main", 5))
    assert view(seen, "fremen").storm_tokens == {"main": 5}
    blind = apply_action(asked, UseKarama("atreides", "KARAMA-5", "karama"))
    assert blind.pending.kind == "storm-token"  # the token is still drawn
    assert secrecy.viewers(blind, DrawStormToken("main", 5)) == ()  # nobody sees it
    drawn = apply_action(blind, DrawStormToken("main", 5))
    assert drawn.storm_tokens == {"main": 5} and view(drawn, "fremen").storm_tokens == {}
    assert len(storm_move_distribution(view(drawn, "fremen"), "fremen", "main")) == 7  # the Fremen do not know
    assert holder(dataclasses.replace(drawn, turn=drawn.turn + 1), "FREMEN-P1") is None  # across the turn's end
    revealed = storm.begin_phase(dataclasses.replace(drawn, turn=drawn.turn + 1, pending=None, events=()))
    assert [e.data["value"] for e in revealed.events if e.kind == "storm-token-revealed"] == [5]  # it still moves
    assert revealed.suppressions == () and holder(revealed, "FREMEN-P1") == "fremen"  # until the reveal


def _predicted_win(hands):
    state = place(position(["atreides", "harkonnen", "bene-gesserit"], victory_target=1), "atreides", "arrakeen",
                  1, 2)
    for house, cards in hands.items():
        state = with_hand(state, house, *cards)
    bg = dataclasses.replace(state.houses["bene-gesserit"], prediction=("atreides", 2))
    state = dataclasses.replace(state, houses=state.houses.set("bene-gesserit", bg))
    return collection.begin_collection(dataclasses.replace(state, phase="battle", pending=None))


def test_BG_P6_KARAMA_30_at_the_reveal_a_karama_voids_the_prediction_and_the_real_winner_wins():
    asked = _predicted_win({"atreides": ("karama",), "harkonnen": ("karama",), "bene-gesserit": ()})
    while asked.pending.kind == "karama-window" and "KARAMA-30" not in asked.pending.detail["uses"]:
        asked = apply_action(asked, Pass(asked.pending.actor))  # KARAMA-28 (charity) first
    assert asked.pending.detail["uses"] == ("KARAMA-30",) and asked.pending.actor == "atreides"
    assert asked.winner is None and asked.phase != "game-over"  # asked before the game ends
    predicted = pass_karama(asked)
    assert predicted.winner == "bene-gesserit" and "BG-P6" in predicted.events[-1].text
    void, events = run(asked, Pass("atreides"), UseKarama("harkonnen", "KARAMA-30", "karama"))
    assert void.winner == "atreides" and "KARAMA-30" in kinds(events, "victory")[0].text
    assert holder(void, "BG-P6") is None  # for the rest of the game


def test_BG_P5_KARAMA_29_a_real_karama_cancels_a_worthless_card_played_as_one():
    def window(atreides_hand):
        state = _auction(["emperor", "bene-gesserit", "atreides"], spice={"emperor": 10},
                         hands={"emperor": ("lasgun",) * 3, "bene-gesserit": ("worthless",) * 4,
                                "atreides": atreides_hand})
        state = apply_action(state, AuctionCard(1, "snooper"))
        for house in ("emperor", "bene-gesserit", "atreides"):
            state = apply_action(state, Pass(house))
        return apply_action(state, UseKarama("bene-gesserit", "KARAMA-12", "worthless"))

    asked = window(("karama",) * 4)
    assert asked.pending.kind == "karama-window" and asked.pending.detail["uses"] == ("KARAMA-29",)
    assert asked.pending.actor == "emperor" and asked.treachery_discard[-1] == "worthless"  # table order
    asked = apply_action(asked, Pass("emperor"))
    assert asked.pending.actor == "atreides"
    kept = pass_karama(asked)
    assert holder(kept, "EMPEROR-M1") is None and kept.phase != "bidding"  # the worthless card worked
    cancelled, events = run(asked, UseKarama("atreides", "KARAMA-29", "karama"))
    assert kinds(events, "karama-cancelled")[0].data["powers"] == ("BG-P5",)
    assert cancelled.treachery_discard[-2:] == ("worthless", "karama")  # both cards spent
    assert holder(cancelled, "EMPEROR-M1") == "emperor"  # KARAMA-12 had no effect
    assert holder(cancelled, "BG-P5") == "bene-gesserit"  # one use only
    assert cancelled.pending.kind == "karama-window" and cancelled.pending.actor == "atreides"  # the use is open
    filled = apply_action(cancelled, Pass("atreides"))
    assert filled.pending.kind == "imperial-fill"
    unopposed = window(("worthless",) * 4)  # asked (a hand), but a worthless card cannot cancel one
    assert [a for a in legal_actions(unopposed) if isinstance(a, UseKarama)] == []
    assert holder(pass_karama(unopposed), "EMPEROR-M1") is None


# --- the Atreides -----------------------------------------------------------------------------------------

def _top_card_bought(hands):
    state = _auction(["harkonnen", "atreides"], spice={"harkonnen": 10}, hands=hands)
    state = apply_action(state, AuctionCard(1, "snooper"))
    return state


def test_ATREIDES_P2_b_the_atreides_see_every_card_drawn_outside_the_auction_but_not_the_setup_cards():
    state = _top_card_bought({"harkonnen": (), "atreides": ()})
    state = apply_action(apply_action(state, Bid("harkonnen", 1)), Pass("atreides"))
    drawn = apply_action(state, bidding.PayBid("harkonnen"))
    assert drawn.pending.kind == "power-card"  # HARKONNEN-P3: the top card, drawn from the deck
    card = DrawTreacheryCard("harkonnen", "lasgun")
    assert secrecy.viewers(drawn, card) == ("harkonnen", "atreides")
    other = _auction(["harkonnen", "emperor"], spice={"harkonnen": 10}, hands={"harkonnen": ()})
    other = apply_action(apply_action(apply_action(other, AuctionCard(1, "snooper")), Bid("harkonnen", 1)),
                         Pass("emperor"))
    assert secrecy.viewers(apply_action(other, bidding.PayBid("harkonnen")), card) == ("harkonnen",)  # no Atreides
    record = GameRecord(make_config(["atreides", "harkonnen"], seed=3))
    node = record.root
    while record.state_at(node).pending.kind != "free-card":
        state = record.state_at(node)
        node = record.add_move(node, sample_chance(state) if state.pending.actor == "chance"
                               else legal_actions(state)[0])
    free = record.state_at(node)
    assert free.pending.detail["house"] == "harkonnen" or free.pending.detail["house"] == "atreides"
    drawer = free.pending.detail["house"]
    seen = secrecy.viewers(free, DrawTreacheryCard(drawer, "lasgun"))
    assert seen == (drawer,)  # SETUP-1 h: the setup cards are not seen


def test_ATREIDES_P2_KARAMA_41_for_one_turn_the_atreides_see_no_card():
    state = _top_card_bought({"harkonnen": ("karama",), "atreides": ()})
    assert state.pending.kind == "bid" and state.pending.actor == "harkonnen"
    blind = KaramaAnyTime("harkonnen", "KARAMA-41", "karama")
    assert blind in legal_actions(state)  # at any time, at the House's own decision (GAP-57)
    assert check_action(state, KaramaAnyTime("harkonnen", "KARAMA-12", "karama")).code == "karama/use"
    state, events = run(state, blind)
    assert state.pending.kind == "bid" and state.pending.actor == "harkonnen"  # the node waits for the House
    assert kinds(events, "karama")[0].data["powers"] == ("ATREIDES-P2",) and state.houses["harkonnen"].hand == ()
    state = apply_action(apply_action(state, Bid("harkonnen", 1)), Pass("atreides"))
    drawn = apply_action(state, bidding.PayBid("harkonnen"))
    assert secrecy.viewers(drawn, DrawTreacheryCard("harkonnen", "lasgun")) == ("harkonnen",)
    assert bidding.auction_viewers(drawn, "harkonnen") == ("harkonnen",)  # (a) too
    later = dataclasses.replace(drawn, turn=drawn.turn + 1)
    assert bidding.auction_viewers(later, "harkonnen") == ("harkonnen", "atreides")  # 1 turn
    assert any_time_uses(later, "atreides") == () and any_time_uses(later, "harkonnen") == ("KARAMA-41",)


# --- the Dispersion (battles) -----------------------------------------------------------------------------

def _duel(dispersion_plan, other_plan, *, marked=0, regular=0, other_regular=8):
    dispersion = BattleSide("dispersion", WheelTokens(regular, marked), dispersion_plan)
    other = BattleSide("atreides", WheelTokens(other_regular), other_plan)
    return resolve_battle(Battle("carthag", "dispersion", (dispersion, other)))


def test_DISPERSION_P1_G_4_karate_kills_unless_a_shield_stops_it_and_is_no_card():
    elpek, jessica = leader_of("dispersion", "elpek"), leader_of("atreides", "jessica")
    karate = BattlePlan(Dial(), elpek, "karate")
    bare = _duel(karate, BattlePlan(Dial(8), jessica))
    assert [o.sides[1].leader_fate for _p, o in bare] == ["dead"] and bare[0][1].winner == "dispersion"
    shielded = _duel(karate, BattlePlan(Dial(8), jessica, None, "shield"))
    assert [o.sides[1].leader_fate for _p, o in shielded] == ["alive"]  # any Shield, no passing roll
    assert len(shielded) == 1 and shielded[0][1].winner == "atreides"
    assert bare[0][1].sides[0].cards_lost == () and karate.cards_played == ()  # G-4: no card to lose
    with pytest.raises(IllegalActionError):  # another House's built-in weapon
        resolve_battle(Battle("carthag", "atreides", (BattleSide("atreides", WheelTokens(2), BattlePlan(
            Dial(), jessica, "karate")), BattleSide("dispersion", WheelTokens(2), BattlePlan(Dial(), elpek)))))
    # G-4: the Voice acts on cards only; a prescience answer names karate as a projectile
    seq = dataclasses.replace(start_sequence(("dispersion", "bene-gesserit"), voice_holder="bene-gesserit"),
                              voices=(VoiceCommand("bene-gesserit", "dispersion", "forbid", "projectile"),))
    assert plan_violations(seq, "dispersion", karate) == ()
    forced = dataclasses.replace(seq, voices=(VoiceCommand("bene-gesserit", "dispersion", "force", "projectile"),))
    assert plan_violations(forced, "dispersion", karate, hand=()) == ()
    assert card_kind("karate") == "projectile"


def test_DISPERSION_P1_in_a_game_karate_is_on_the_menu_of_the_dispersion_only_and_never_leaves_a_hand():
    state = battle(["dispersion", "atreides"], [("dispersion", "arsunt", 5, 3), ("atreides", "arsunt", 5, 3)])
    state = pass_unable(state, ("battle-voice", "battle-prescience"))
    while state.pending.kind in ("battle-prescience", "battle-voice", "leader-pre-battle"):  # K-16 B3 passed
        state = apply_action(state, Pass(state.pending.actor))
    plan = next(a for a in legal_actions(state) if isinstance(a, SubmitPlan) and a.weapon == "karate")
    assert plan.house == "dispersion" and state.pending.actor == "dispersion"
    assert state.houses["dispersion"].hand == ()
    state = apply_action(state, plan)
    refused = check_action(state, dataclasses.replace(plan, house="atreides", leader="jessica"))
    assert refused is not None and refused.code == "battle/weapon"
    assert not [a for a in legal_actions(state) if isinstance(a, SubmitPlan) and a.weapon == "karate"]
    atreides = next(a for a in legal_actions(state) if isinstance(a, SubmitPlan) and a.defense == "none")
    fought, events = run(state, atreides)
    fought = pass_unable(fought, ("leader-buy-off", "traitor-call"))
    assert "karate" not in fought.treachery_discard and fought.houses["dispersion"].hand == ()
    outcome = [e for e in events + list(fought.events) if e.kind == "battle-outcome"]
    assert outcome and atreides.leader in fought.houses["atreides"].leader_tanks  # killed by karate


def test_DISPERSION_P3_the_a_tokens_count_half_under_elpek_or_a_fanatic_and_one_under_an_honored_matre():
    jessica = BattlePlan(Dial(8), leader_of("atreides", "jessica"))  # 4 + 6 = 10
    duana = _duel(BattlePlan(Dial(0, 4), leader_of("dispersion", "duana")), jessica, marked=4)
    assert duana[0][1].sides[0].army_value == 4 and duana[0][1].winner == "dispersion"  # 4 + 7 = 11
    elpek = _duel(BattlePlan(Dial(0, 4), leader_of("dispersion", "elpek")), jessica, marked=4)
    assert elpek[0][1].sides[0].army_value == 2 and elpek[0][1].winner == "atreides"  # 2 + 7 = 9
    stilgar = _duel(BattlePlan(Dial(0, 4, 2), leader_of("dispersion", "stilgar")), jessica, marked=4)
    assert stilgar[0][1].sides[0].army_value == 3  # a fanatic: ½ each, spice doubles two of them
    houses = ("dispersion", "atreides")
    assert marked_token_value(houses, (None, None), 0) == 1  # no leader: WHEEL-2
    assert marked_token_value(("atreides", "dispersion"), (leader_of("atreides", "jessica"), None), 0) == 1


def test_the_coverage_reads_each_karama_use_status_from_powers_json():
    from dunenb.coverage import power_statuses

    statuses = power_statuses()
    leaders_use = "KARAMA" + "-50"  # built, so that this test does not count as one naming the use
    assert statuses[leaders_use][0] == "not-yet" and "secondary leader" in statuses[leaders_use][1]
    assert statuses["KARAMA" + "-41"][0] == "implemented"


def test_DISPERSION_P1_a_battle_case_and_the_analyzer_know_karate():
    raw = {"format": "dunenb.battle/1", "territory": "Carthag", "defender": "atreides",
           "sides": [{"house": "atreides", "tokens": {"regular": 6}, "dial": {"regular": 4}, "leader": "Jessica"},
                     {"house": "dispersion", "tokens": {"regular": 5}, "dial": {"regular": 2}, "leader": "Elpek",
                      "weapon": "karate", "hand": []}]}
    case = parse_case(raw)
    assert [o.sides[0].leader_fate for _p, o in case_outcomes(case)] == ["dead"]
    combos = sensible_plans(case, "dispersion").combos
    assert {weapon for _leader, weapon, _defence in combos} == {None, "karate"}  # no card needed
    assert {weapon for _leader, weapon, _defence in sensible_plans(case, "atreides").combos} == {None}
    raw["sides"][0]["weapon"] = "karate"
    with pytest.raises(InputError):
        parse_case(raw)


def test_DISPERSION_P1_the_heuristic_bot_attacks_with_karate_when_it_holds_no_weapon():
    state = battle(["dispersion", "atreides"], [("dispersion", "arsunt", 5, 3), ("atreides", "arsunt", 5, 3)])
    while state.pending.kind in ("battle-prescience", "battle-voice", "leader-pre-battle"):  # K-16 B3 passed
        state = apply_action(state, Pass(state.pending.actor))
    assert state.pending.actor == "dispersion"
    plan = HeuristicBot(seed=1).choose(view(state, "dispersion"))
    assert isinstance(plan, SubmitPlan) and plan.weapon == "karate"


def test_REVIVAL_4_a_window_over_a_bid_keeps_the_auction_card_secret_and_counted():
    state = _dead(_auction(["atreides", "bene-tleilax", "emperor"], spice={"atreides": 10},
                           hands={"atreides": ("ghola", "karama"), "bene-tleilax": (), "emperor": ()}), "atreides", 2)
    state = apply_action(state, AuctionCard(1, "lasgun"))
    while state.pending.actor != "atreides":
        state = apply_action(state, Pass(state.pending.actor))
    asked = apply_action(state, PlayGhola("atreides", 2, 0, "none"))
    assert asked.pending.kind == "karama-window"
    assert bidding.card_census(asked) == bidding.card_census(state)  # the card up for auction is still counted
    sees = bidding.auction_viewers(state, state.pending.detail["opener"])
    for house in ("atreides", "bene-tleilax", "emperor"):
        prior = view(asked, house).pending.detail["prior"]
        assert (dict(prior.detail["secrets"]).get(house) == "lasgun") == (house in sees)
        assert "lasgun" not in {v for h, v in prior.detail["secrets"] if h != house}
