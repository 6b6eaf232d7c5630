"""Issue 11 item 2 in games: the secondary leaders' K-6..K-9 powers through the rules flow (plan menu, plan
check, the resolver's d10 chance nodes, the outcome applied to the state)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from helpers_game import (
    clear_map,
    decisions,
    events_of,
    force,
    give_cards,
    outcome_map,
    place,
    play_battle,
    quiet_setup,
    set_storms,
    skip_pre_battle,
)
from test_powers_pre_battle import pass_leader_sources

from dunenb.engine import check_action, current_player
from dunenb.rules.battle_phase import BattleDie, SubmitPlan, begin_phase


def _position(houses, forces, hands, *, rolls=True):
    state = clear_map(set_storms(quiet_setup(houses), main=10))
    for house in houses:
        hs = state.houses[house]
        state = dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(hs, hand=(),
                                                                                               traitors=())),
                                    treachery_discard=state.treachery_discard + hs.hand)
    for house, area, sector, regular in forces:
        state = place(state, house, area, sector, regular)
    for house, cards in hands.items():
        state = give_cards(state, house, *cards)
    state = dataclasses.replace(state, events=(), storm_dialers=(houses[0], houses[-1]))
    state = begin_phase(state)
    return skip_pre_battle(state) if rolls else state


def _plan(state, house, leader, **cards):
    """``house``'s plan (``leader``, one token, ``cards``), then the steps other leaders' powers add (K-16, K-18,
    K-19, B7 specials, the leaders' Voices and questions) and the traitor calls nobody can make passed; events
    kept."""
    return play_battle(state, {house: SubmitPlan(house, leader, 1, 0, 0, **cards)})


def _both(state, plans):
    return play_battle(state, {house: SubmitPlan(house, leader, 1, 0, 0, **cards)
                               for house, (leader, cards) in plans.items()})


def test_guild_l01_a_in_a_game_the_tank_shield_roll_is_a_chance_node_of_the_guild():
    state = _position(["guild", "harkonnen"], [("guild", "arsunt", 5, 4), ("harkonnen", "arsunt", 5, 4)],
                      {"harkonnen": ("projectile-distance",)})
    state = _both(state, {"guild": ("edric", {}), "harkonnen": ("piter", {"weapon": "projectile-distance"})})
    assert current_player(state) == "chance" and state.pending.kind == "battle-d10"
    assert outcome_map(state) == {BattleDie("guild", v): Fraction(1, 10) for v in range(1, 11)}
    assert not [e for e in events_of(force(state, BattleDie("guild", 4)), "leader-killed")
                if e.data["leader"] == "edric"]  # d10 <= 4: the shield acts and stops the projectile
    assert [e.data["leader"] for e in events_of(force(state, BattleDie("guild", 5)), "leader-killed")] == ["edric"]


def test_emperor_l01_d_in_a_game_hasimir_plays_two_attacks_and_loses_neither_to_the_hand():
    state = _position(["emperor", "harkonnen"], [("emperor", "arsunt", 5, 4), ("harkonnen", "arsunt", 5, 4)],
                      {"emperor": ("poison-fast", "projectile-distance", "shield"), "harkonnen": ("snooper",)})
    menu = decisions(state) if state.pending.actor == "emperor" else []
    if menu:
        assert any(a.leader == "hasimir" and a.extra_attack == "projectile-distance" for a in menu)
        assert not any(a.leader != "hasimir" and a.extra_attack != "none" and a.leader not in ("irulan",)
                       for a in menu)
    state = _both(state, {"emperor": ("hasimir", {"weapon": "poison-fast", "extra_attack": "projectile-distance"}),
                          "harkonnen": ("piter", {"defense": "snooper"})})
    assert [e.data["leader"] for e in events_of(state, "leader-killed")] == ["piter"]
    revealed = [e for e in events_of(state, "plan-revealed") if e.data["house"] == "emperor"]
    assert revealed[0].data["extra_attack"] == "projectile-distance"


def test_guild_l01_d_in_a_game_edric_s_wheel_takes_a_worthless_card_as_its_karama():
    state = _position(["guild", "harkonnen"], [("guild", "arsunt", 5, 4), ("harkonnen", "arsunt", 5, 4)],
                      {"guild": ("worthless",)})
    if state.pending.actor != "guild":
        state = _plan(state, "harkonnen", "piter")
    menu = decisions(state)
    assert {a.leader for a in menu if a.kind == "plan" and a.karama == "worthless"} == {"edric"}
    refused = check_action(state, SubmitPlan("guild", "alberic", 1, 0, 0, karama="worthless"))
    assert refused is not None and refused.code == "battle/karama"
    assert check_action(state, SubmitPlan("guild", "edric", 1, 0, 0, karama="worthless")) is None


def test_atreides_l09_d_in_a_game_yueh_s_slow_poison_kills_and_costs_no_card():
    state = _position(["atreides", "emperor"], [("atreides", "arsunt", 5, 4), ("emperor", "arsunt", 5, 4)],
                      {"emperor": ("shield",)})
    state = _both(state, {"atreides": ("yueh", {"weapon": "poison-slow-built-in"}),
                          "emperor": ("burseg", {"defense": "shield"})})
    assert [e.data["leader"] for e in events_of(state, "leader-killed")] == ["burseg"]


def test_tleilax_l11_e_in_a_game_atomics_against_the_bg_leave_the_tleilax_unsanctioned():
    state = _position(["bene-tleilax", "bene-gesserit"], [("bene-tleilax", "arsunt", 5, 4),
                                                          ("bene-gesserit", "arsunt", 5, 4)],
                      {"bene-tleilax": ("atomics",)})
    state = _both(state, {"bene-tleilax": ("miles-teg-ghola", {"weapon": "atomics"}),
                          "bene-gesserit": ("darwi", {})})
    assert "bene-tleilax" not in state.outlawed
    state = _position(["bene-tleilax", "bene-gesserit"], [("bene-tleilax", "arsunt", 5, 4),
                                                          ("bene-gesserit", "arsunt", 5, 4)],
                      {"bene-tleilax": ("atomics",)})
    state = _both(state, {"bene-tleilax": ("chani-ghola", {"weapon": "atomics"}),  # her licence is vs Atreides
                          "bene-gesserit": ("darwi", {})})
    assert "bene-tleilax" in state.outlawed


def test_harkonnen_l01_c_the_bot_planner_values_feyds_kindjal():
    """Nobody holds a card: only Feyd's Kindjal (no card, K-7 extra) can kill, and the planner sees it."""
    from dunenb.bots.battle_planner import plan_values

    state = _position(["atreides", "harkonnen"], [("atreides", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 3)], {})
    if state.pending.actor != "harkonnen":
        state = _plan(state, "atreides", "duncan-idaho")
    plans = [a for a in decisions(state) if a.kind == "plan"]
    values = plan_values(state, plans)
    best = max(range(len(plans)), key=lambda index: values[index])
    assert (plans[best].leader, plans[best].extra_attack) == ("feyd-rautha", "kindjal")
    with_knife = max(v for v, p in zip(values, plans, strict=True) if p.extra_attack == "kindjal")
    without = max(v for v, p in zip(values, plans, strict=True)
                  if p.leader == "feyd-rautha" and p.extra_attack == "none")
    assert with_knife > without


def test_harkonnen_l10_c_in_a_game_yuehs_b1_roll_is_a_chance_node_before_the_plans_D_31():
    from dunenb.rules.leader_rolls import LeaderRoll

    state = _position(["harkonnen", "emperor"], [("harkonnen", "arsunt", 5, 4), ("emperor", "arsunt", 5, 4)], {},
                      rolls=False)
    state = play_battle(state, through=("leader-pre-battle",))  # K-16's LC-5 B1 uses (Piter, Yhekem...) first
    assert current_player(state) == "chance" and state.pending.kind == "battle-b1-roll"
    assert outcome_map(state) == {LeaderRoll("harkonnen", "HARKONNEN-L10-c", v): Fraction(1, 10)
                                  for v in range(1, 11)}
    lucky = force(state, LeaderRoll("harkonnen", "HARKONNEN-L10-c", 2))
    unlucky = force(state, LeaderRoll("harkonnen", "HARKONNEN-L10-c", 3))
    lucky, unlucky = (pass_leader_sources(s) for s in (lucky, unlucky))  # the Voices of leaders (K-11) come first
    assert lucky.pending.kind == unlucky.pending.kind == "battle-plan"
    if lucky.pending.actor != "harkonnen":
        lucky, unlucky = (_plan(s, "emperor", "burseg") for s in (lucky, unlucky))
    offered = {(a.leader, a.weapon) for a in decisions(lucky) if a.kind == "plan"}
    assert ("yueh", "poison-slow-built-in") in offered
    assert ("yueh", "poison-slow-built-in") not in {(a.leader, a.weapon) for a in decisions(unlucky)
                                                    if a.kind == "plan"}
    refused = check_action(unlucky, SubmitPlan("harkonnen", "yueh", 1, 0, 0, weapon="poison-slow-built-in"))
    assert refused is not None and refused.code == "battle/weapon"
    state = _plan(lucky, "harkonnen", "yueh", weapon="poison-slow-built-in")
    if state.pending.kind == "battle-plan":
        state = _plan(state, "emperor", "burseg")
    assert [e.data["leader"] for e in events_of(state, "leader-killed")] == ["burseg"]
