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


# --- K-17 spare (GUILD-L06-d Olmric, at B9; not after a treachery) ------------------------------------------

OLMRIC = {"fremen": ("stilgar", 2, NONE, NONE), "guild": ("olmric", 2, "lasgun", NONE)}


def spare_case(plans: dict, spare: tuple[str, ...]) -> dict:
    """The battle as a case, ``spare`` true on the Houses named; its one outcome."""
    from dunenb.battle.case import case_json, parse_case

    sides = [{"house": house, "tokens": {"regular": 5}, "dial": {"regular": dial}, "leader": leader,
              "weapon": None if weapon == NONE else weapon, "defense": None if defence == NONE else defence,
              **({"spare": True} if house in spare else {})}
             for house, (leader, dial, weapon, defence) in plans.items()]
    raw = {"format": "dunenb.battle/1", "territory": AREA, "defender": list(plans)[0], "sides": sides}
    (outcome,) = case_json(parse_case(raw))["outcomes"]
    return outcome


def test_guild_l06_d_olmric_spares_the_leader_his_lasgun_kills_for_4_spice_and_the_battle_turns():
    from dunenb.rules.leader_spare import AcceptSpare, OfferSpare

    state, _events = fight(OLMRIC, spice={"fremen": 10, "guild": 5})
    assert state.pending.kind == "leader-spare" and state.pending.actor == "guild"  # B9, before the totals
    assert decisions(state) == [Pass("guild"), OfferSpare("guild", "GUILD-L06-d", 4)]
    state = apply_action(state, OfferSpare("guild", "GUILD-L06-d", 4))
    assert state.pending.kind == "leader-spare-reply" and state.pending.actor == "fremen"
    assert decisions(state) == [Pass("fremen"), AcceptSpare("fremen", "GUILD-L06-d", "guild", 4)]
    accepted = apply_action(state, AcceptSpare("fremen", "GUILD-L06-d", "guild", 4))
    events = list(accepted.events)
    assert kinds(events, "battle-outcome")[0].data["winner"] == "fremen"  # Stilgar lives with his 7: 8 against 3
    assert "stilgar" not in accepted.houses["fremen"].leader_tanks
    assert accepted.houses["fremen"].spice == 10 - 4 and accepted.houses["guild"].spice == 5 + 4
    assert not kinds(events, "bounty")
    assert_conserved(accepted)
    refused = apply_action(state, Pass("fremen"))  # he refuses: his leader dies
    assert kinds(list(refused.events), "battle-outcome")[0].data["winner"] == "guild"
    assert refused.houses["fremen"].leader_tanks[-1:] == ("stilgar",)
    passed, _ = fight(OLMRIC, spice={"fremen": 10, "guild": 5})
    passed = apply_action(passed, Pass("guild"))
    assert passed.houses["fremen"].leader_tanks[-1:] == ("stilgar",)
    # the battle case: both sides' answers are part of the result
    spared = spare_case(OLMRIC, ("guild", "fremen"))
    assert spared["winner"] == "fremen" and spared["sides"]["fremen"]["leader"] == "alive"
    assert spared["sides"]["fremen"]["spare_paid"] == 4 and "GUILD-L06-d" in spared["sides"]["guild"]["powers"]
    assert spared["sides"]["guild"]["bounty"] == 0
    for answers in ((), ("guild",), ("fremen",)):
        killed = spare_case(OLMRIC, answers)
        assert killed["winner"] == "guild" and killed["sides"]["fremen"]["leader"] == "dead"


def test_guild_l06_d_no_spare_after_a_treachery_nor_when_the_enemy_cannot_pay():
    state, _events = fight(OLMRIC, spice={"fremen": 3, "guild": 5})
    assert state.pending is None or state.pending.kind != "leader-spare"  # 3 spice: he could not accept
    called, _events = fight(OLMRIC, spice={"fremen": 10}, calls=("guild",),
                            traitors={"guild": (("fremen", "stilgar"),)})
    assert called.pending is None or called.pending.kind != "leader-spare"


# --- the plan matrix (dunenb.analysis.battle_odds) settles regen_dialled and spare as the resolver does -------

def _matrix_agrees(raw: dict) -> None:
    import itertools
    import math

    from dunenb.analysis.battle_odds import plan_matrix
    from dunenb.battle.case import parse_case
    from dunenb.battle.resolve import resolve_battle

    case = parse_case(raw)
    matrix = plan_matrix(case)
    first, _second = case.houses

    def net(side, other) -> int:
        return side.bounty - side.spice_lost - side.spare_paid + other.spare_paid

    for i, j in itertools.product(range(len(matrix.rows.plans)), range(len(matrix.columns.plans))):
        dist = resolve_battle(case.with_plans(matrix.rows.plans[i], matrix.columns.plans[j]))
        win_a = sum((p for p, o in dist if o.winner == first), Fraction(0))
        tokens = sum(p * (o.sides[1].tokens_lost.total - o.sides[0].tokens_lost.total) for p, o in dist)
        spice = sum(p * (net(o.sides[0], o.sides[1]) - net(o.sides[1], o.sides[0])) for p, o in dist)
        assert math.isclose(matrix.win_first.iat[i, j], float(win_a), abs_tol=1e-12)
        assert math.isclose(matrix.tokens.iat[i, j], float(tokens), abs_tol=1e-12)
        assert math.isclose(matrix.spice.iat[i, j], float(spice), abs_tol=1e-12)


def test_dispersion_l05_c_and_guild_l06_d_in_the_plan_matrix():
    _matrix_agrees({"format": "dunenb.battle/1", "territory": AREA, "defender": "fremen", "sides": [
        {"house": "fremen", "tokens": {"regular": 3}, "leader": "stilgar", "leaders": ["stilgar"], "hand": []},
        {"house": "dispersion", "tokens": {"regular": 3}, "leader": "fiona", "leaders": ["fiona"], "hand": []}]})
    _matrix_agrees({"format": "dunenb.battle/1", "territory": AREA, "defender": "fremen", "sides": [
        {"house": "fremen", "tokens": {"regular": 3}, "leader": "stilgar", "leaders": ["stilgar"], "hand": [],
         "spare": True},
        {"house": "guild", "tokens": {"regular": 3}, "leader": "olmric", "leaders": ["olmric"], "hand": ["lasgun"],
         "weapon": "lasgun", "spare": True}]})


# --- K-17 torture (BG-L09-b Wensicia: enemy_dies+alive, then d10 <= the dead leader's base strength, D-23) ----

WENSICIA = {"fremen": ("stilgar", 2, NONE, NONE), "bene-gesserit": ("wensicia", 2, "lasgun", NONE)}


def test_bg_l09_b_wensicia_tortures_the_dead_enemy_for_a_truth_trance_on_his_house():
    from dunenb.rules.leader_torture import TortureDie
    from dunenb.rules.truth_trance import AskTruthTrance

    state, _events = fight(WENSICIA, spice={"fremen": 6})
    assert state.houses["fremen"].leader_tanks[-1:] == ("stilgar",)
    assert state.pending.kind == "torture-d10"
    assert outcome_map(state) == {TortureDie("bene-gesserit", "BG-L09-b", face): Fraction(1, 10)
                                  for face in range(1, 11)}
    failed = apply_action(state, TortureDie("bene-gesserit", "BG-L09-b", 8))  # 8 > Stilgar's 7
    assert failed.pending is None or failed.pending.kind != "torture-trance"
    state = apply_action(state, TortureDie("bene-gesserit", "BG-L09-b", 7))
    assert state.pending.kind == "torture-trance" and state.pending.actor == "bene-gesserit"
    menu = decisions(state)
    assert menu[0] == Pass("bene-gesserit")
    asks = [a for a in menu if isinstance(a, AskTruthTrance)]
    assert asks and all(a.target == "fremen" and a.means == "BG-L09-b" for a in asks)  # D-23: that House only
    question = AskTruthTrance("bene-gesserit", "fremen", "spice-more-than", "5", "BG-L09-b")
    assert question in asks
    state = apply_action(state, question)
    assert state.houses["bene-gesserit"].trance_answers[-1][1:] == ("fremen", "spice-more-than", "5", True)
    assert case(WENSICIA)["sides"]["bene-gesserit"]["after_battle"] == ["BG-L09-b"]
    both = {"fremen": ("stilgar", 2, "lasgun", NONE), "bene-gesserit": ("wensicia", 2, "lasgun", NONE)}
    assert "after_battle" not in case(both)["sides"]["bene-gesserit"]  # she must live


# --- K-17 capture (BG-L03-b Lucille: win+alive, then d10 > the opposing leader's base strength, D-28) --------

LUCILLE = {"fremen": ("otheym", 0, NONE, NONE), "bene-gesserit": ("lucille", 4, NONE, NONE)}


def test_bg_l03_b_lucille_captures_the_male_leader_she_beats_on_a_d10_above_his_strength():
    from dunenb.rules.battle_phase import available_leaders
    from dunenb.rules.battle_powers import keeper_captives
    from dunenb.rules.common import edit_house
    from dunenb.rules.leader_capture import CaptureDie, TryCapture, release_freed

    state, events = fight(LUCILLE)
    assert kinds(events, "battle-outcome")[0].data["winner"] == "bene-gesserit"
    assert state.pending.kind == "capture-try" and state.pending.actor == "bene-gesserit"
    attempt = TryCapture("bene-gesserit", "BG-L03-b", "fremen", "otheym")
    assert decisions(state) == [Pass("bene-gesserit"), attempt]  # "peut capturer": a may
    passed = apply_action(state, Pass("bene-gesserit"))
    assert "otheym" in passed.houses["fremen"].leaders
    state = apply_action(state, attempt)
    assert outcome_map(state) == {CaptureDie("bene-gesserit", "BG-L03-b", face): Fraction(1, 10)
                                  for face in range(1, 11)}
    failed = apply_action(state, CaptureDie("bene-gesserit", "BG-L03-b", 5))  # not above Otheym's 5
    assert "otheym" in failed.houses["fremen"].leaders and not failed.captured
    state = apply_action(state, CaptureDie("bene-gesserit", "BG-L03-b", 6))
    assert "otheym" not in state.houses["fremen"].leaders
    assert "fremen:otheym" in state.houses["bene-gesserit"].leaders and ("fremen", "otheym") in state.captured
    assert not keeper_captives(state)  # not a HARKONNEN-P4 captive: no KARAMA-47, L1167 nor FAQ 21
    assert "fremen:otheym" in available_leaders(state, "bene-gesserit", AREA)  # the BG may play him (LC-9)
    assert_conserved(state)
    assert case(LUCILLE)["sides"]["bene-gesserit"]["after_battle"] == ["BG-L03-b"]
    # D-28: he returns to his House at once when Lucille dies
    bg = state.houses["bene-gesserit"]
    dead = edit_house(state, "bene-gesserit", leaders=tuple(k for k in bg.leaders if k != "lucille"),
                      leader_tanks=bg.leader_tanks + ("lucille",))
    freed = release_freed(dead)
    assert "otheym" in freed.houses["fremen"].leaders and not freed.captured
    assert release_freed(state).captured == state.captured  # while she lives he stays


def test_bg_l03_b_no_capture_of_a_woman_nor_when_lucille_loses():
    female = {"fremen": ("chani", 0, NONE, NONE), "bene-gesserit": ("lucille", 4, NONE, NONE)}
    state, _events = fight(female)
    assert state.pending is None or state.pending.kind != "capture-try"
    lost = {"fremen": ("stilgar", 5, NONE, NONE), "bene-gesserit": ("lucille", 0, NONE, NONE)}
    state, events = fight(lost)
    assert kinds(events, "battle-outcome")[0].data["winner"] == "fremen"
    assert state.pending is None or state.pending.kind != "capture-try"
