"""Issue 11: the last K-17 POST_BATTLE powers (leaders.md K-17, LC-5 B9/B10), in games and battle cases.

Each scene is a battle in Arsunt (the scene of :mod:`test_leader_after_battle`), played in a game up to the
battle's result and, where the effect is part of that result, as a ``dunenb battle`` case too.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from helpers_game import (
    assert_conserved,
    clear_map,
    decisions,
    give_cards,
    outcome_map,
    place,
    quiet_setup,
    set_storms,
    skip_pre_battle,
    tokens_at,
)
from test_leader_after_battle import AREA, NONE, SECTOR, case

from dunenb.actions import Pass
from dunenb.engine import apply_action
from dunenb.rules.battle_phase import BattleDie, CallTraitor, SubmitPlan, begin_phase

PASSED = ("leader-pre-battle", "leader-buy-off", "leader-alliance", "leader-special", "battle-voice",
          "battle-prescience")


def fight(plans: dict[str, tuple[str, int, str, str]], *, rolls: tuple[int, ...] = (), tokens: int = 5,
          calls: tuple[str, ...] = (), traitors: dict[str, tuple[tuple[str, str], ...]] | None = None,
          spice: dict[str, int] | None = None, tanks: dict[str, int] | None = None):
    """Play the battle of ``plans`` (House -> leader, tokens dialled, weapon, defence; the first House is the
    defender) in a game; the battle's d10s show ``rolls`` in turn. Returns the state at the first node after the
    plans and calls that is neither a d10 of the battle nor a step the scene passes, and the events on the way.
    ``tanks``: regular tokens put in a House's tanks from its reserve first."""
    houses = list(plans)
    state = clear_map(set_storms(quiet_setup(houses), main=10))
    for house in houses:
        hs = state.houses[house]
        dead = (tanks or {}).get(house, 0)
        hs = dataclasses.replace(hs, hand=(), traitors=(traitors or {}).get(house, ()),
                                 spice=(spice or {}).get(house, hs.spice),
                                 reserve=hs.reserve - type(hs.reserve)(dead, 0),
                                 tanks=hs.tanks + type(hs.tanks)(dead, 0))
        state = dataclasses.replace(state, houses=state.houses.set(house, hs),
                                    treachery_discard=state.treachery_discard + state.houses[house].hand,
                                    bank=state.bank + state.houses[house].spice - hs.spice)
        _leader, _dial, weapon, defence = plans[house]
        state = give_cards(state, house, *(c for c in (weapon, defence) if c != NONE))
        state = place(state, house, AREA, SECTOR, tokens)
    state = dataclasses.replace(state, events=(), storm_dialers=(houses[0], houses[-1]))
    state = skip_pre_battle(begin_phase(state))
    events = list(state.events)
    left = list(rolls)
    steps = ("battle-plan", "traitor-call", "battle-d10", "karama-window") + PASSED
    while state.pending is not None and state.pending.kind in steps:
        house = state.pending.actor
        if state.pending.kind == "battle-plan":
            leader, dialled, weapon, defence = plans[house]
            action = SubmitPlan(house, leader, dialled, 0, 0, weapon, defence)
        elif state.pending.kind == "traitor-call":
            other = next(h for h in houses if h != house)
            action = CallTraitor(house, plans[other][0]) if house in calls else Pass(house)
        elif state.pending.kind == "karama-window":  # every House passes (GAP-63)
            action = Pass(house)
        elif state.pending.kind == "battle-d10":
            roller = state.pending.detail["battle"].roller
            action = BattleDie(roller, left.pop(0))
        else:
            action = decisions(state)[0]
        state = apply_action(state, action)
        events += state.events
    return state, events


def kinds(events: list, kind: str) -> list:
    return [e for e in events if e.kind == kind]


# --- K-17 regen_dialled (DISPERSION-L05-c Fiona: win, then d10 <= 6; B9 token losses) ----------------------

FIONA = {"fremen": ("otheym", 0, NONE, NONE), "dispersion": ("fiona", 4, NONE, NONE)}


def test_dispersion_l05_c_fiona_loses_no_dialled_token_on_a_win_and_a_d10_of_6_or_less():
    state, events = fight(FIONA, rolls=(6,))
    assert kinds(events, "battle-outcome")[0].data["winner"] == "dispersion"
    assert tokens_at(state, "dispersion", AREA) == 5  # the 4 dialled stay in the territory
    assert not any(e.data.get("house") == "dispersion" for e in kinds(events, "tokens-lost"))
    assert any("DISPERSION-L05-c" in e.data["powers"] for e in kinds(events, "battle-powers"))
    assert_conserved(state)
    failed, events = fight(FIONA, rolls=(7,))
    assert tokens_at(failed, "dispersion", AREA) == 1  # on a 7 the dialled tokens die as usual
    # the battle case: the d10 is an exact chance node, 6 faces in 10 keep the tokens
    from dunenb.battle.case import case_json, parse_case

    raw = {"format": "dunenb.battle/1", "territory": AREA, "defender": "fremen", "sides": [
        {"house": house, "tokens": {"regular": 5}, "dial": {"regular": dial}, "leader": leader}
        for house, (leader, dial, _w, _d) in FIONA.items()]}
    outcomes = case_json(parse_case(raw))["outcomes"]
    by_lost = {o["sides"]["dispersion"]["tokens_lost"]: o for o in outcomes}
    assert by_lost[0]["probability"] == float(Fraction(6, 10))
    assert "DISPERSION-L05-c" in by_lost[0]["sides"]["dispersion"]["powers"]
    assert by_lost[4]["probability"] == float(Fraction(4, 10))
    assert "DISPERSION-L05-c" not in by_lost[4]["sides"]["dispersion"]["powers"]


def test_dispersion_l05_c_fiona_keeps_nothing_when_she_loses():
    plans = {"fremen": ("stilgar", 5, NONE, NONE), "dispersion": ("fiona", 1, NONE, NONE)}
    state, events = fight(plans, rolls=(1,))
    assert kinds(events, "battle-outcome")[0].data["winner"] == "fremen"
    assert tokens_at(state, "dispersion", AREA) == 0
    assert not any("DISPERSION-L05-c" in e.data["powers"] for e in kinds(events, "battle-powers"))


# --- K-17 destroy_tanks (TLEILAX-L03-d Mirlat 1d3, TLEILAX-L04-d Domel 1: self_dies) -----------------------

def test_tleilax_l03_d_dying_mirlat_destroys_up_to_1d3_enemy_tokens_in_the_tanks_for_good():
    from dunenb.rules.leader_tanks import DestroyTanks, TanksDie

    plans = {"fremen": ("stilgar", 2, "lasgun", NONE), "bene-tleilax": ("mirlat", 1, NONE, NONE)}
    state, _events = fight(plans, tanks={"fremen": 3})
    assert state.houses["bene-tleilax"].leader_tanks[-1:] == ("mirlat",)
    assert state.pending.kind == "after-battle-d3"
    assert outcome_map(state) == {TanksDie("bene-tleilax", "TLEILAX-L03-d", face): Fraction(1, 3) for face in (1, 2, 3)}
    state = apply_action(state, TanksDie("bene-tleilax", "TLEILAX-L03-d", 2))
    assert state.pending.actor == "bene-tleilax"
    menu = decisions(state)
    assert Pass("bene-tleilax") in menu and DestroyTanks("bene-tleilax", "TLEILAX-L03-d", "fremen", 2, 0) in menu
    assert all(a.regular + a.marked <= 2 for a in menu if isinstance(a, DestroyTanks))
    tanks = state.houses["fremen"].tanks.total  # 3 + the 2 Fremen dialled
    state = apply_action(state, DestroyTanks("bene-tleilax", "TLEILAX-L03-d", "fremen", 2, 0))
    assert state.houses["fremen"].tanks.total == tanks - 2 == 3
    assert state.token_quota("fremen") == 18 and state.tokens_destroyed["fremen"].total == 2
    assert any(e.kind == "tokens-destroyed" for e in state.events)
    assert_conserved(state)
    assert case(plans)["sides"]["bene-tleilax"]["after_battle"] == ["TLEILAX-L03-d"]
    alive = case({"fremen": ("stilgar", 2, NONE, NONE), "bene-tleilax": ("mirlat", 1, NONE, NONE)})
    assert "after_battle" not in alive["sides"]["bene-tleilax"]  # self_dies: only when he dies


def test_tleilax_l04_d_dying_domel_may_destroy_1_enemy_token_in_the_tanks():
    from dunenb.rules.leader_tanks import DestroyTanks

    plans = {"fremen": ("stilgar", 2, "lasgun", NONE), "bene-tleilax": ("domel", 1, NONE, NONE)}
    state, _events = fight(plans)
    assert state.pending.kind == "after-battle-destroy"  # no die: 1
    menu = decisions(state)
    assert menu == [Pass("bene-tleilax"), DestroyTanks("bene-tleilax", "TLEILAX-L04-d", "fremen", 1, 0)]
    tanks = state.houses["fremen"].tanks.total
    passed = apply_action(state, Pass("bene-tleilax"))  # "le droit": a may
    assert passed.houses["fremen"].tanks.total == tanks
    state = apply_action(state, menu[1])
    assert state.houses["fremen"].tanks.total == tanks - 1
    assert_conserved(state)
    assert case(plans)["sides"]["bene-tleilax"]["after_battle"] == ["TLEILAX-L04-d"]
