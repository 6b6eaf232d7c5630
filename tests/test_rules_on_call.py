"""K-21 always-traitors in a game: the Harkonnen may call them without a slip, and their on-call effects apply
(EMPEROR-L11-a), through the same library code as ``dunenb battle`` (dunenb.battle.resolve.on_call_effects)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from helpers_game import (
    assert_conserved,
    clear_map,
    decisions,
    events_of,
    give_cards,
    outcome_map,
    place,
    play_battle,
    quiet_setup,
    set_storms,
    skip_pre_battle,
    tokens_at,
)

from dunenb.actions import Pass
from dunenb.battle.case import case_json, parse_case
from dunenb.engine import apply_action
from dunenb.rules.battle_phase import CallTraitor, DiscardCards, SubmitPlan, begin_phase
from dunenb.rules.on_call import OnCallDiscard, OnCallDraw


def always_traitor_battle(victim, leader, *, hands=None, defense="none"):
    """Harkonnen and ``victim`` in Arsunt (protected); ``victim`` leads with ``leader``; nobody holds a slip.
    Returns the position at the Harkonnen's call and each House's spice then."""
    houses = ["harkonnen", victim]
    state = clear_map(set_storms(quiet_setup(houses), main=10))
    for house in houses:
        hs = state.houses[house]
        state = dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(
            hs, hand=(), traitors=())), treachery_discard=state.treachery_discard + hs.hand)
    for house, cards in (hands or {}).items():
        state = give_cards(state, house, *cards)
    state = place(state, "harkonnen", "arsunt", 5, 4)
    state = place(state, victim, "arsunt", 5, 4)
    state = dataclasses.replace(state, events=(), storm_dialers=(houses[0], houses[-1]))
    state = skip_pre_battle(begin_phase(state))
    plans = {"harkonnen": ("piter", 2, defense), victim: (leader, 3, "none")}
    state = play_battle(state, {house: SubmitPlan(house, who, regular, 0, 0, "none", shield)
                                for house, (who, regular, shield) in plans.items()},
                        until="traitor-call", through=("leader-buy-off",))  # K-19 (GAP-111): Lingar / Talamane
    assert (state.pending.kind, state.pending.actor) == ("traitor-call", "harkonnen")
    assert set(decisions(state)) == {CallTraitor("harkonnen", leader), Pass("harkonnen")}
    return state, {house: state.houses[house].spice for house in houses}


def ziarenko_battle(*, call: bool):
    state, spice = always_traitor_battle("emperor", "ziarenko")
    state = apply_action(state, CallTraitor("harkonnen", "ziarenko") if call else Pass("harkonnen"))
    return pass_other_calls(state), spice


def pass_other_calls(state):
    """GAP-62: both sides are asked for a traitor call; the other side (no slip) passes."""
    return play_battle(state, through=(), calls={})


def test_emperor_l11_a_ziarenko_call_pays_10():
    state, before = ziarenko_battle(call=True)
    assert state.houses["emperor"].spice == before["emperor"] + 10  # from the Bank (D-32)
    assert state.houses["harkonnen"].spice == before["harkonnen"] + 2  # TRAITOR-10: she survives
    assert events_of(state, "on-call")[0].data == {"house": "emperor", "amount": 10, "power": "EMPEROR-L11-a",
                                                   "powers": ("EMPEROR-L11-a",)}  # issue 10 item 6
    assert tokens_at(state, "emperor", "arsunt") == 0 and tokens_at(state, "harkonnen", "arsunt") == 4
    assert_conserved(state)


def test_emperor_l11_a_no_call_no_payment():
    state, before = ziarenko_battle(call=False)
    assert state.houses["emperor"].spice == before["emperor"] and not events_of(state, "on-call")


def test_emperor_l11_a_the_case_gives_the_game_result():
    """The same battle as a case: same winner, same payments (one mechanism, GAP-53)."""
    state, before = ziarenko_battle(call=True)
    case = parse_case({"format": "dunenb.battle/1", "territory": "arsunt", "defender": "harkonnen", "sides": [
        {"house": "harkonnen", "tokens": {"regular": 4}, "dial": {"regular": 2}, "leader": "piter",
         "weapon": None, "defense": None},
        {"house": "emperor", "tokens": {"regular": 4}, "dial": {"regular": 3}, "leader": "ziarenko",
         "weapon": None, "defense": None}]})
    (outcome,) = case_json(case)["outcomes"]
    assert outcome["winner"] == "harkonnen" and outcome["on_call"][0]["spice"] == 10
    assert state.houses["emperor"].spice - before["emperor"] == outcome["on_call"][0]["spice"]
    assert state.houses["harkonnen"].spice - before["harkonnen"] == outcome["sides"]["harkonnen"]["bounty"]


def test_bg_l10_b_wanna_call_the_bg_draw_3_harkonnen_cards_after_traitor_11():
    """K-21, D-32: the Harkonnen call Wanna; they settle TRAITOR-11 (keep or discard their shield), then the BG
    draw 3 cards at random from the Harkonnen hand (chance nodes) and discard down to their limit of 4."""
    hands = {"harkonnen": ("shield", "lasgun", "lasgun", "snooper"), "bene-gesserit": ("karama", "worthless")}
    state, _spice = always_traitor_battle("bene-gesserit", "wanna", hands=hands, defense="shield")
    state = pass_other_calls(apply_action(state, CallTraitor("harkonnen", "wanna")))
    assert (state.pending.kind, state.pending.actor) == ("battle-discard", "harkonnen")  # TRAITOR-11 first
    state = apply_action(state, DiscardCards("harkonnen", "none"))
    assert state.pending.kind == "on-call-draw"
    assert outcome_map(state) == {OnCallDraw("bene-gesserit", "harkonnen", "lasgun"): Fraction(1, 2),
                                  OnCallDraw("bene-gesserit", "harkonnen", "shield"): Fraction(1, 4),
                                  OnCallDraw("bene-gesserit", "harkonnen", "snooper"): Fraction(1, 4)}
    for card in ("lasgun", "shield", "lasgun"):
        state = apply_action(state, OnCallDraw("bene-gesserit", "harkonnen", card))
        if card == "shield":
            (drawn,) = events_of(state, "on-call-draw")
            assert drawn.data["secret"] and "shield" not in drawn.text  # the card drawn stays secret
    assert state.houses["harkonnen"].hand == ("snooper",)
    assert sorted(state.houses["bene-gesserit"].hand) == ["karama", "lasgun", "lasgun", "shield", "worthless"]
    assert (state.pending.kind, state.pending.actor) == ("on-call-discard", "bene-gesserit")  # 5 > 4 (HAND-1)
    state = apply_action(state, OnCallDiscard("bene-gesserit", "worthless"))
    assert len(state.houses["bene-gesserit"].hand) == 4 and state.pending.kind != "on-call-discard"
    assert "worthless" in state.treachery_discard


def test_bg_l10_b_the_card_drawn_is_seen_only_by_the_two_houses():
    """GAP-58 secrecy: an on-call draw is seen by the drawer and the House drawn from, like a treachery card."""
    from dunenb.rules.secrecy import sees

    hands = {"harkonnen": ("lasgun",), "bene-gesserit": ()}
    state, _spice = always_traitor_battle("bene-gesserit", "wanna", hands=hands)
    state = pass_other_calls(apply_action(state, CallTraitor("harkonnen", "wanna")))
    draw = OnCallDraw("bene-gesserit", "harkonnen", "lasgun")
    assert state.pending.kind == "on-call-draw" and sees(state, draw, "harkonnen") and sees(state, draw,
                                                                                          "bene-gesserit")
    assert not sees(state, draw, "atreides")
