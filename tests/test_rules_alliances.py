"""Alliance windows (ALLIANCE-1 to ALLIANCE-7, GAP-19) and the Bene Gesserit peace/war step (TURN-1 g, BG-P3).

Window positions: a quiet setup (storm on sector 1, storm order atreides, harkonnen, emperor), turn 2, the storm
dialled 0, then spice cards forced so that worms come out in a row.
"""

from __future__ import annotations

import dataclasses

import pytest
from helpers_game import (
    assert_conserved,
    clear_map,
    decisions,
    dial,
    events_of,
    force_cards,
    pass_karama,
    place,
    quiet_setup,
)

from dunenb.actions import action_from_dict, parse_action
from dunenb.engine import apply_action, check_action
from dunenb.rules import flow
from dunenb.rules.alliances import (
    MAX_OFFERS,
    AcceptOffer,
    DeclarePeace,
    DeclareWar,
    DeclineOffer,
    EndWindow,
    Offer,
    begin_bg_declaration,
    shared_territories,
)
from dunenb.rules.battle_phase import arenas

THREE = ["atreides", "harkonnen", "emperor"]
WITH_BG = ["atreides", "harkonnen", "bene-gesserit"]


def blow(houses=THREE):
    state = dial(quiet_setup(houses), 0, 0)
    if state.pending.kind == "dial":
        state = dial(state, 0, 0)
    assert state.phase == "spice-blow" and state.turn == 2
    return state


def window(*cards, houses=THREE):
    """The position after the spice cards ``cards`` (default: 2 worms in a row, then two territories)."""
    return force_cards(blow(houses), *(cards or ("worm", "worm", "erg-mineur/5", "erg-majeur/8")))


def end_all(state):
    """Every House ends its part of the current window."""
    window_number = state.pending.detail["window"]
    while state.pending.kind == "alliance" and state.pending.detail["window"] == window_number:
        state = apply_action(state, EndWindow(state.pending.actor))
    return state


def with_spice(state, house, amount):
    delta = amount - state.houses[house].spice
    hs = dataclasses.replace(state.houses[house], spice=amount)
    return dataclasses.replace(state, houses=state.houses.set(house, hs), bank=state.bank - delta)


def with_hand(state, house, *cards):
    hs = dataclasses.replace(state.houses[house], hand=tuple(cards))
    return dataclasses.replace(state, houses=state.houses.set(house, hs))


def error_code(state, action):
    error = check_action(state, action)
    return None if error is None else error.code


# --- ALLIANCE-1, ALLIANCE-2, ALLIANCE-4, GAP-19a/d: when windows open ------------------------------------------

def test_ALLIANCE_1_GAP_19a_two_worms_in_a_row_open_a_window_after_the_spice_blow_before_the_auction():
    state = window()
    assert state.phase == "alliance" and state.pending.kind == "alliance"
    assert state.pending.actor == "atreides" and state.pending.detail["window"] == 1
    assert state.spice_on_map["erg-majeur"] == 8  # step b) is over: the window opens at its end
    state = end_all(state)
    assert state.phase == "bidding"


def test_ALLIANCE_1_no_window_without_two_worms_in_a_row():
    state = window("worm", "erg-mineur/5", "worm", "erg-majeur/8")  # two worms, but not in a row
    assert state.alliance_windows == 0 and state.phase == "bidding"
    assert [a for a, _ in flow.TURN_PHASES].index("alliance") == [a for a, _ in flow.TURN_PHASES].index(
        "spice-blow") + 1


def test_ALLIANCE_2_GAP_19d_three_worms_make_two_windows_the_second_ending_the_first():
    state = window("worm", "worm", "worm", "erg-mineur/5", "erg-majeur/8")
    assert state.alliance_windows == 2
    assert state.pending.detail["window"] == 1
    state = end_all(state)
    assert state.pending.kind == "alliance" and state.pending.detail["window"] == 2
    opened = events_of(state, "alliance-window-open")
    assert opened and "ALLIANCE-4" in opened[0].text and "window 1" in opened[0].text
    state = end_all(state)
    assert state.phase == "bidding"


def test_ALLIANCE_4_GAP_19d_a_new_window_gives_every_house_its_offers_again():
    state = window("worm", "worm", "worm", "erg-mineur/5", "erg-majeur/8")
    state = with_spice(state, "atreides", 10)
    for _ in range(MAX_OFFERS):
        state = apply_action(state, Offer("atreides", "harkonnen", "spice", "spice", 1))
        state = apply_action(state, DeclineOffer("harkonnen"))
    assert decisions(state) == [EndWindow("atreides")]
    state = end_all(state)
    assert any(isinstance(a, Offer) for a in decisions(state))  # window 2, atreides first again


# --- ALLIANCE-3, ALLIANCE-6, GAP-19b: transfers -------------------------------------------------------------

def test_ALLIANCE_3_spice_changes_hands_when_the_receiver_accepts():
    state = with_spice(window(), "atreides", 10)
    before = state.houses["harkonnen"].spice
    state = apply_action(state, Offer("atreides", "harkonnen", "spice", "spice", 4))
    assert state.pending.kind == "alliance-answer" and state.pending.actor == "harkonnen"
    assert state.houses["atreides"].spice == 10  # nothing moves before consent
    state = apply_action(state, AcceptOffer("harkonnen"))
    assert state.houses["atreides"].spice == 6 and state.houses["harkonnen"].spice == before + 4
    assert state.pending.kind == "alliance" and state.pending.actor == "atreides"
    assert_conserved(state)


def test_ALLIANCE_3_ALLIANCE_11_a_card_sold_for_spice():
    state = with_hand(with_spice(window(), "harkonnen", 5), "atreides", "shield", "karama")
    state = with_hand(state, "harkonnen")
    spice = state.houses["atreides"].spice
    state = apply_action(state, Offer("atreides", "harkonnen", "card", "shield", 1, 3))
    state = apply_action(state, AcceptOffer("harkonnen"))
    assert state.houses["atreides"].hand == ("karama",) and state.houses["harkonnen"].hand == ("shield",)
    assert state.houses["atreides"].spice == spice + 3 and state.houses["harkonnen"].spice == 2
    assert_conserved(state)


def test_ALLIANCE_3_a_declined_offer_moves_nothing():
    state = with_spice(window(), "atreides", 10)
    after = apply_action(apply_action(state, Offer("atreides", "emperor", "spice", "spice", 5)),
                         DeclineOffer("emperor"))
    assert after.houses == state.houses and events_of(after, "alliance-declined")


def test_ALLIANCE_3_only_the_listed_goods_change_hands():
    state = window()
    assert error_code(state, Offer("atreides", "harkonnen", "powers", "voice", 1)) == "alliance/not-transferable"
    assert "spice, card, leader, token" in check_action(state, Offer("atreides", "harkonnen", "x", "y", 1)).message


def test_ALLIANCE_6_offers_and_deals_are_public_events():
    state = with_spice(window(), "atreides", 10)
    state = apply_action(state, Offer("atreides", "harkonnen", "spice", "spice", 2))
    assert events_of(state, "alliance-offer")[0].data["amount"] == 2
    assert state.pending.detail["offer"] == ("atreides", "harkonnen", "spice", "spice", 2, 0, 0, "spice", "spice")
    state = apply_action(state, AcceptOffer("harkonnen"))
    deal = events_of(state, "alliance-deal")[0]
    assert deal.data["house"] == "atreides" and deal.data["receiver"] == "harkonnen"


def test_GAP_19b_no_offers_outside_a_window():
    state = window("erg-mineur/5", "erg-majeur/8")
    assert state.phase == "bidding"
    assert check_action(state, Offer(state.pending.actor, "emperor", "spice", "spice", 1)) is not None


def test_GAP_19c_a_deal_does_not_share_victory():
    state = with_spice(window(), "atreides", 10)
    state = apply_action(apply_action(state, Offer("atreides", "harkonnen", "spice", "spice", 1)),
                         AcceptOffer("harkonnen"))
    assert state.winner is None and not hasattr(state, "allies")


# --- ALLIANCE-5, ALLIANCE-7: forbidden deals ------------------------------------------------------------------

def test_ALLIANCE_5_no_alliance_with_an_outlawed_house():
    state = dataclasses.replace(with_spice(window(), "atreides", 10), outlawed=("harkonnen",))
    assert error_code(state, Offer("atreides", "harkonnen", "spice", "spice", 1)) == "alliance/outlawed"
    assert all(getattr(a, "receiver", None) != "harkonnen" for a in decisions(state))
    state = apply_action(state, EndWindow("atreides"))
    assert state.pending.actor == "emperor"  # the outlawed House is skipped


def test_ALLIANCE_7_a_house_may_not_promise_what_it_does_not_have():
    state = with_hand(with_spice(window(), "atreides", 3), "atreides", "shield")
    assert error_code(state, Offer("atreides", "harkonnen", "spice", "spice", 4)) == "alliance/not-owned"
    assert error_code(state, Offer("atreides", "harkonnen", "card", "karama", 1)) == "alliance/not-owned"
    state = with_spice(state, "harkonnen", 1)
    assert error_code(state, Offer("atreides", "harkonnen", "card", "shield", 1, 2)) == "alliance/not-owned"
    assert check_action(state, Offer("atreides", "harkonnen", "spice", "spice", 3)) is None  # off the menu, legal


def test_ALLIANCE_3_offers_per_window_are_capped_so_that_the_window_ends():
    state = with_spice(window(), "atreides", 20)
    for _ in range(MAX_OFFERS):
        state = apply_action(apply_action(state, Offer("atreides", "emperor", "spice", "spice", 1)),
                             AcceptOffer("emperor"))
    assert error_code(state, Offer("atreides", "emperor", "spice", "spice", 1)) == "alliance/offer-cap"


def test_alliance_actions_round_trip():
    for action in (Offer("atreides", "harkonnen", "card", "shield", 1, 2), AcceptOffer("guild"),
                   DeclineOffer("guild"), EndWindow("fremen"), DeclarePeace("bene-gesserit", "arsunt"),
                   DeclareWar("bene-gesserit", "arsunt")):
        assert parse_action(action.notation()) == action
        assert action_from_dict(action.to_dict()) == action


# --- TURN-1 g), BG-P3: peace and war ---------------------------------------------------------------------------

def bg_position():
    state = clear_map(quiet_setup(WITH_BG))
    state = dataclasses.replace(state, turn=2, phase="harvest-declaration", pending=None, events=(), at_peace=())
    state = place(state, "bene-gesserit", "arsunt", 5, 3)
    state = place(state, "harkonnen", "arsunt", 5, 4)
    state = place(state, "bene-gesserit", "pole-nord", 1, 2)  # with another House, but at the Pole: not asked
    state = place(state, "atreides", "pole-nord", 1, 2)
    state = place(state, "bene-gesserit", "carthag", 4, 1)  # alone: at war, not asked
    return state


def test_TURN_1_g_the_bg_declaration_comes_after_the_harvest_declarations_and_before_the_battles():
    names = [name for name, _ in flow.TURN_PHASES]
    assert names.index("harvest-declaration") < names.index("bg-declaration") < names.index("battle")


def test_TURN_1_g_without_the_bene_gesserit_the_step_passes_on():
    state = clear_map(quiet_setup(THREE))
    state = dataclasses.replace(state, turn=2, phase="harvest-declaration", pending=None, events=())
    state = begin_bg_declaration(state)
    assert state.phase != "bg-declaration" and (state.pending is None or state.pending.kind != "bg-declaration")


def test_BG_P3_asked_only_where_they_share_a_territory_outside_the_pole():
    state = bg_position()
    assert shared_territories(state) == ("arsunt",)
    state = pass_karama(begin_bg_declaration(state))
    assert state.pending.kind == "bg-declaration" and state.pending.actor == "bene-gesserit"
    assert set(decisions(state)) == {DeclarePeace("bene-gesserit", "arsunt"), DeclareWar("bene-gesserit",
                                                                                            "arsunt")}


def stop_after_g(monkeypatch):
    """Stop the flow after step g) so that the declared peace can be inspected before battles and collection."""
    monkeypatch.setattr(flow, "after_phase", lambda state, name: state)


def test_BG_P3_an_army_at_peace_does_not_fight(monkeypatch):
    state = bg_position()
    stop_after_g(monkeypatch)
    assert any(a.area == "arsunt" for a in arenas(state))
    state = apply_action(pass_karama(begin_bg_declaration(state)), DeclarePeace("bene-gesserit", "arsunt"))
    assert ("bene-gesserit", "arsunt") in state.at_peace
    assert not any(a.area == "arsunt" for a in arenas(state))
    assert events_of(state, "peace")


def test_BG_P3_an_army_at_war_fights(monkeypatch):
    state = bg_position()
    stop_after_g(monkeypatch)
    state = apply_action(pass_karama(begin_bg_declaration(state)), DeclareWar("bene-gesserit", "arsunt"))
    assert state.at_peace == ()
    assert any(a.area == "arsunt" for a in arenas(state))


def test_BG_P2_BG_P3_tokens_landed_in_peace_must_stay_at_peace():
    state = dataclasses.replace(bg_position(), at_peace=(("bene-gesserit", "arsunt"),))
    state = pass_karama(begin_bg_declaration(state))
    assert decisions(state) == [DeclarePeace("bene-gesserit", "arsunt")]
    assert error_code(state, DeclareWar("bene-gesserit", "arsunt")) == "peace/bound"


@pytest.mark.parametrize("eliminated", [True, False])
def test_TURN_1_g_an_eliminated_bene_gesserit_declares_nothing(eliminated):
    state = bg_position()
    if eliminated:
        state = dataclasses.replace(state, eliminated=("bene-gesserit",))
    state = pass_karama(begin_bg_declaration(state))
    asked = state.pending is not None and state.pending.kind == "bg-declaration"
    assert asked is not eliminated
