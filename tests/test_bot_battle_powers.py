"""The heuristic bot's battle planner reads the resolver's battle hooks (dunenb.battle.powers: leader.value,
leader.weapons, leader.immune) from facts its view holds (issue 10 item 7): HARKONNEN-M3, TLEILAX-M1, G-7."""

from __future__ import annotations

from helpers_game import decisions, settle_powers, skip_pre_battle
from test_rules_battle_phase import plan, position

from dunenb.bots.battle_planner import fighters, plan_values
from dunenb.engine import view
from dunenb.rules.battle_context import context_of
from dunenb.rules.battle_phase import begin_phase
from dunenb.rules.common import edit_house


def best_plan(state):
    plans = [a for a in decisions(state) if a.kind == "plan"]
    values = plan_values(state, plans)
    return max(zip(values, plans, strict=True), key=lambda pair: pair[0])[1]


def harkonnen_to_plan(dead=(), against="duncan-idaho"):
    """``against`` (Duncan: 8 against the Harkonnen, ATREIDES-L02-a) has set his plan against the Harkonnen in
    Arsunt; nobody holds a card, so no leader can die."""
    state = position(["atreides", "harkonnen"], [("atreides", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 3)],
                     begin=False)
    if dead:
        hs = state.houses["harkonnen"]
        state = edit_house(state, "harkonnen", leaders=tuple(x for x in hs.leaders if x not in dead),
                           leader_tanks=hs.leader_tanks + tuple(dead))
    state = skip_pre_battle(begin_phase(state))
    return plan(state, against, 0)


def test_harkonnen_m3_the_planner_leads_vladimir_worth_10_with_his_minions():
    """Base strengths would send Zebataleh (5) rather than Vladimir (4); the planner counts Vladimir 4 + 3 + 2 + 1,
    and Duncan 8 against the Harkonnen (ATREIDES-L02-a, the values the resolver uses), whom only Vladimir beats.
    Feyd is in the tanks: alive, his Kindjal (HARKONNEN-L01-c, no card needed) would kill the shieldless Duncan."""
    state = harkonnen_to_plan(dead=("feyd-rautha",))
    assert state.pending.actor == "harkonnen"
    assert best_plan(state).leader == "vladimir"
    seen = view(state, "harkonnen")
    assert fighters(seen, "harkonnen", "atreides", context_of(seen)).values("vladimir", "duncan-idaho") == (10, 8)


def _vladimir_score(state):
    plans = [a for a in decisions(state) if a.kind == "plan" and a.leader == "vladimir"]
    return max(plan_values(state, plans))


def test_harkonnen_m3_dead_minions_the_planner_counts_vladimir_4():
    """With his minions in the tanks Vladimir counts his base 4, and the planner rates leading him lower."""
    dead = harkonnen_to_plan(dead=("iakin-nefud", "iliako", "yhekem"), against="tufir")
    seen = view(dead, "harkonnen")
    assert fighters(seen, "harkonnen", "atreides", context_of(seen)).values("vladimir", None)[0] == 4
    assert _vladimir_score(dead) < _vladimir_score(harkonnen_to_plan(against="tufir"))


def test_tleilax_m1_the_planner_raises_a_shield_against_waffs_pistol():
    """Against Waff alone (his distance projectile, stopped by any shield) and a card-less Tleilax hand, only the
    shield keeps Paul alive: base strengths saw no attack and valued the three defences alike."""
    state = position(["atreides", "bene-tleilax"], [("atreides", "arsunt", 5, 3), ("bene-tleilax", "arsunt", 5, 3)],
                     hands={"atreides": ("shield", "snooper")}, begin=False)
    state = edit_house(state, "bene-tleilax", leaders=("tylwyth-waff",))
    state = skip_pre_battle(settle_powers(begin_phase(state)))
    assert state.pending.actor == "atreides"
    chosen = best_plan(state)
    assert chosen.defense == "shield"
    plans = [a for a in decisions(state) if a.kind == "plan" and a.leader == chosen.leader
             and a.regular == chosen.regular and a.spice == chosen.spice and a.weapon == chosen.weapon]
    values = dict(zip((a.defense for a in plans), plan_values(state, plans), strict=True))
    assert values["shield"] > values["none"] and values["shield"] > values["snooper"]


def test_atreides_m1_the_planner_weighs_a_captive_paul_led_by_the_harkonnen():
    """HARKONNEN-P4: a captive keeps his own powers (ATREIDES-M1 follows Paul); the planner finds him under the key
    the Harkonnen hold him by ("atreides:paul")."""
    state = position(["fremen", "harkonnen"], [("fremen", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 3)],
                     begin=False)
    state = edit_house(state, "harkonnen", leaders=state.houses["harkonnen"].leaders + ("atreides:paul",))
    state = skip_pre_battle(settle_powers(begin_phase(state)))
    state = plan(state, "stilgar", 0)
    assert state.pending.actor == "harkonnen"
    plans = [a for a in decisions(state) if a.kind == "plan" and a.leader == "atreides:paul"]
    assert plans and len(plan_values(state, plans)) == len(plans)


def _otheym_value(area, sector):
    """The planner's wheel value of Otheym (5; FREMEN-L04-a WHEEL_VALUE(8 | desert)) in a Fremen battle in ``area``."""
    state = position(["fremen", "harkonnen"], [("fremen", area, sector, 5, 0), ("harkonnen", area, sector, 5, 0)])
    seen = view(state, "fremen")
    return fighters(seen, "fremen", "harkonnen", context_of(seen)).values("otheym", None)[0]


def test_lc_3_the_planner_values_a_terrain_power_in_the_battle_s_territory():
    """leaders.md LC-3/LC-4: the planner's leader values are the resolver's in the battle's territory (before, it
    valued every leader as if no terrain condition held: Otheym 5 in the desert)."""
    assert _otheym_value("erg-mineur", 7) == 8
    assert _otheym_value("arsunt", 5) == 5


# ---- leaders.md S-4 (EMPEROR-L03-c Burseg, GAP-133): the planner reads the resolver's shelter -----------------
def _burseg_shield_values(area, sector, monkeypatch=None):
    """The Emperor's plan values with Burseg (his only leader) and a shield, against a Fremen hand holding a
    lasgun the bot cannot see: (shield plan, no-defence plan), both dialling 1."""
    state = position(["emperor", "fremen"], [("emperor", area, sector, 3), ("fremen", area, sector, 3)],
                     hands={"emperor": ("shield",), "fremen": ("lasgun",)}, begin=False)
    state = edit_house(state, "emperor", leaders=("burseg",))
    state = skip_pre_battle(settle_powers(begin_phase(state)))
    if state.pending.actor != "emperor":
        state = plan(state, state.houses["fremen"].leaders[0], 1)
    plans = {a.defense: a for a in decisions(state) if a.kind == "plan" and a.leader == "burseg"
             and a.regular == 1 and a.spice == 0 and a.weapon == "none"}
    return tuple(plan_values(state, [plans["shield"], plans["none"]]))


def test_emperor_l03_c_analysis_planner_counts_burseg_winning_the_explosion(monkeypatch):
    """S-4: in an open territory a lasgun against Burseg's shield spares him and his tokens and the Emperor wins
    (the resolver's outcome); the planner values the shield plan by that outcome, not as a lost explosion."""
    from dunenb.battle import leader_shelter
    from dunenb.bots import battle_planner

    sheltered = _burseg_shield_values("erg-mineur", 7)
    monkeypatch.setattr(leader_shelter, "sheltered", lambda *args, **kwargs: None)
    if hasattr(battle_planner, "_pair_shelter"):
        battle_planner._pair_shelter.cache_clear()
    unsheltered = _burseg_shield_values("erg-mineur", 7)
    # the Fremen's own guessed shield may meet their lasgun too; Burseg's shield makes the explosion likelier
    assert sheltered[0] > unsheltered[0] and sheltered[1] > unsheltered[1]
    assert sheltered[0] - unsheltered[0] > sheltered[1] - unsheltered[1]


# ---- leaders.md K-24 D02-d (DISPERSION-L02-d, GAP-134, GAP-146): the planner reads where the Weapon passed ----
def _dispersion_to_plan(passed):
    """The Dispersion (2 regular, 2 marked in Arsunt; Logno in the tanks) to plan against the Atreides; with
    ``passed`` the game records Logno's Weapon as Hellica's."""
    import dataclasses

    state = position(["dispersion", "atreides"], [("dispersion", "arsunt", 5, 2, 2), ("atreides", "arsunt", 5, 4)],
                     begin=False)
    hs = state.houses["dispersion"]
    state = edit_house(state, "dispersion", leaders=tuple(x for x in hs.leaders if x != "logno"),
                       leader_tanks=hs.leader_tanks + ("logno",))
    if passed:
        state = dataclasses.replace(state, powers_passed=(("DISPERSION-L02-c", "dispersion", "hellica"),))
    state = skip_pre_battle(settle_powers(begin_phase(state)))
    if state.pending.actor != "dispersion":
        state = plan(state, "duncan-idaho", 2)
    return state


def test_dispersion_l02_d_analysis_planner_counts_the_weapon_hellica_received():
    """Once Logno's Weapon (DISPERSION-L02-c, TROOPS_WORTH_ONE) has passed to Hellica, the planner counts her side's
    tokens 1 each, as the resolver does (K-4); before, it read the roster and its armies ignored K-4."""
    values = {}
    for passed in (False, True):
        state = _dispersion_to_plan(passed)
        assert state.pending.actor == "dispersion"
        seen = view(state, "dispersion")
        armies = fighters(seen, "dispersion", "atreides", context_of(seen)).armies("hellica", None)
        assert armies[0] == ((True, 0.0) if passed else (False, 0.0))
        plans = [a for a in decisions(state) if a.kind == "plan" and a.leader == "hellica"]
        values[passed] = {(a.regular, a.marked, a.spice, a.weapon, a.defense): value
                          for a, value in zip(plans, plan_values(state, plans), strict=True)}
    assert values[True].keys() == values[False].keys()
    gains = {key: values[True][key] - values[False][key] for key in values[True]}
    assert all(gain >= -1e-12 for gain in gains.values())
    assert any(gain > 0 for key, gain in gains.items() if key[0] > 0)  # a regular token dialled counts 1, not 1/2
