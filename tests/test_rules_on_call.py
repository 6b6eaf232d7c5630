"""K-21 always-traitors in a game: the Harkonnen may call them without a slip, and their on-call effects apply
(EMPEROR-L11-a), through the same library code as ``dunenb battle`` (dunenb.battle.resolve.on_call_payments)."""

from __future__ import annotations

import dataclasses

from helpers_game import assert_conserved, clear_map, events_of, place, quiet_setup, set_storms, tokens_at

from dunenb.actions import Pass
from dunenb.battle.case import case_json, parse_case
from dunenb.engine import apply_action, legal_actions
from dunenb.rules.battle_phase import CallTraitor, SubmitPlan, begin_phase

HOUSES = ["harkonnen", "emperor"]


def ziarenko_battle(*, call: bool):
    """Harkonnen and Emperor in Arsunt (protected); the Emperor lead with Ziarenko; nobody holds a slip."""
    state = clear_map(set_storms(quiet_setup(HOUSES), main=10))
    for house in HOUSES:
        hs = state.houses[house]
        state = dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(
            hs, hand=(), traitors=())), treachery_discard=state.treachery_discard + hs.hand)
    state = place(state, "harkonnen", "arsunt", 5, 4)
    state = place(state, "emperor", "arsunt", 5, 4)
    state = dataclasses.replace(state, events=(), storm_dialers=(HOUSES[0], HOUSES[-1]))
    state = begin_phase(state)
    plans = {"harkonnen": ("piter", 2), "emperor": ("ziarenko", 3)}
    while state.pending.kind == "battle-plan":
        house = state.pending.actor
        leader, regular = plans[house]
        state = apply_action(state, SubmitPlan(house, leader, regular, 0, 0, "none", "none"))
    assert (state.pending.kind, state.pending.actor) == ("traitor-call", "harkonnen")
    assert set(legal_actions(state)) == {CallTraitor("harkonnen", "ziarenko"), Pass("harkonnen")}
    spice = {house: state.houses[house].spice for house in HOUSES}
    state = apply_action(state, CallTraitor("harkonnen", "ziarenko") if call else Pass("harkonnen"))
    return state, spice


def test_emperor_l11_a_ziarenko_call_pays_10():
    state, before = ziarenko_battle(call=True)
    assert state.houses["emperor"].spice == before["emperor"] + 10  # from the Bank (D-32)
    assert state.houses["harkonnen"].spice == before["harkonnen"] + 2  # TRAITOR-10: she survives
    assert events_of(state, "on-call")[0].data == {"house": "emperor", "amount": 10, "power": "EMPEROR-L11-a"}
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
