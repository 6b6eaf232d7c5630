"""leaders.md K-25 S-4 (EMPEROR-L03-c Burseg), K-22/S-9 and K-24 D02-d: the last leader specials, played in games
and, where they change a battle result, in the battle library."""

from __future__ import annotations

import dataclasses

import pytest
from helpers_game import decisions, events_of, play_chance, settle_powers, skip_pre_battle, tokens_at
from test_leader_traits_battle import ROSTER, plan, position

from dunenb.actions import Pass
from dunenb.battle.plans import Battle, BattlePlan, BattleSide
from dunenb.battle.powers import battle_values
from dunenb.battle.resolve import resolve_battle
from dunenb.battle.wheel import Dial, Tokens
from dunenb.engine import apply_action, check_action
from dunenb.rules.battle_phase import SubmitPlan, begin_phase, own_house_leader
from dunenb.rules.leader_inherit import ChooseHeir
from dunenb.rules.leader_specials import OpenPoleBattle

# ---- S-4 Burseg: Atomics or a lasgun-shield explosion does not kill him in an open territory --------------------


def _burseg_battle(area, sector, *, atomics=False):
    """Burseg (5 tokens, 2 dialled, a shield) against Farok (3 tokens, a lasgun or Atomics) in ``area``."""
    weapon = "atomics" if atomics else "lasgun"
    state = position(["emperor", "fremen"], [("emperor", area, sector, 5), ("fremen", area, sector, 3)],
                     hands={"emperor": ("shield",), "fremen": (weapon,)})
    plans = {"emperor": ("burseg", 2, 0, 0, "none", "shield"), "fremen": ("farok", 1, 0, 0, weapon, "none")}
    said = ()
    while state.pending is not None and state.pending.kind == "battle-plan":
        state = plan(state, *plans[state.pending.actor])
        said += state.events
    state = settle_powers(state)
    return state, said + state.events


@pytest.mark.parametrize("atomics", [False, True], ids=["lasgun-shield", "atomics"])
def test_emperor_l03_c_s_4_burseg_withstands_the_explosion_in_the_open(atomics):
    """S-4 (L373, D-22): in the Erg Mineur (a desert: open), the explosion kills Farok and the Fremen tokens but
    not Burseg nor the Imperial tokens; the Emperor wins, loses his 2 dialled tokens, takes Farok's bounty (3),
    loses his shield as in any explosion (GAP-133), and Burseg's base strength drops from 5 to 3 for good."""
    state, said = _burseg_battle("erg-mineur", 6, atomics=atomics)
    outcome = next(e for e in said if e.kind == "battle-outcome")
    assert outcome.data["winner"] == "emperor"
    assert {e.data["leader"] for e in said if e.kind == "leader-killed"} == {"farok"}
    assert "burseg" in state.houses["emperor"].leaders and "farok" in state.houses["fremen"].leader_tanks
    assert tokens_at(state, "emperor", "erg-mineur") == 3 and tokens_at(state, "fremen", "erg-mineur") == 0
    assert any(e.kind == "bounty" and e.data["house"] == "emperor" and e.data["amount"] == 3 for e in said)
    assert "shield" not in state.houses["emperor"].hand
    assert state.strength_lost == (("emperor", "burseg", 2),)
    assert own_house_leader(state, "emperor", "burseg").strength == 3
    assert any(e.kind == "leader-weakened" for e in said)


def test_emperor_l03_c_s_4_no_shelter_in_a_city():
    """S-4 holds only outside cities and sietchs: in Arrakeen the explosion kills both leaders, no winner."""
    state, said = _burseg_battle("arrakeen", 1)
    assert next(e for e in said if e.kind == "battle-outcome").data["winner"] is None
    assert {e.data["leader"] for e in said if e.kind == "leader-killed"} == {"farok", "burseg"}
    assert tokens_at(state, "emperor", "arrakeen") == 0 and state.strength_lost == ()


def test_emperor_l03_c_s_4_in_the_battle_library():
    """The library's outcome (``dunenb battle``): the Emperor wins the explosion in an open territory, Farok's
    bounty is his, his tokens lost are the dialled ones, the power is listed; in a sietch nobody wins."""
    burseg, farok = ROSTER.find("Burseg", house="emperor"), ROSTER.find("Farok", house="fremen")
    for territory, winner in (("mesa-molle", "emperor"), ("sietch-tarb", None)):
        sides = (BattleSide("emperor", Tokens(5), BattlePlan(Dial(2), burseg, defense="shield")),
                 BattleSide("fremen", Tokens(3), BattlePlan(Dial(1), farok, weapon="lasgun")))
        (_p, outcome), = resolve_battle(Battle(territory, "emperor", sides))
        assert outcome.winner == winner and outcome.explosion == "lasgun-shield"
        emperor = outcome.side("emperor")
        if winner:
            assert emperor.leader_fate == "alive" and emperor.bounty == 3 and emperor.tokens_lost == Tokens(2)
            assert "EMPEROR-L03-c" in emperor.powers and outcome.sheltered == ("emperor", "burseg", "EMPEROR-L03-c")
        else:
            assert emperor.leader_fate == "dead" and emperor.bounty == 0 and outcome.sheltered is None


# ---- K-24 D02-d: Logno's Weapon passes for good to the strongest living Honored Matre ----------------------------

def _logno_dies(*, dead=()):
    """Logno (3 tokens, 1 dialled, no defence) killed by Gurney's lasgun in the Erg Mineur; ``dead`` Dispersion
    leaders are in the tanks first."""
    state = position(["dispersion", "atreides"], [("dispersion", "erg-mineur", 6, 3), ("atreides", "erg-mineur", 6, 3)],
                     hands={"atreides": ("lasgun",)})
    if dead:
        hs = state.houses["dispersion"]
        state = dataclasses.replace(state, houses=state.houses.set("dispersion", dataclasses.replace(
            hs, leaders=tuple(lid for lid in hs.leaders if lid not in dead), leader_tanks=hs.leader_tanks + dead)))
    plans = {"dispersion": ("logno", 1), "atreides": ("gurney", 1, 0, 0, "lasgun")}
    said = ()
    while state.pending is not None and state.pending.kind == "battle-plan":
        state = plan(state, *plans[state.pending.actor])
        said += state.events
    return settle_powers(state, ("leader-special", "traitor-call", "leader-buy-off")), said


def _worth_one(state, house, lid):
    leader = own_house_leader(state, house, lid)
    values = battle_values(("dispersion", "atreides"), (leader, ROSTER.find("Gurney", house="atreides")), 1,
                           territory="erg-mineur")
    return values[0].troops_worth_one


def test_dispersion_l02_d_the_weapon_passes_to_the_chosen_strongest_matre():
    """D02-d (L629): at Logno's death the Weapon (D02-c: her army's tokens worth 1) passes for good to the
    strongest living Honored Matre; Dama and Murbella are both 8, so the Dispersion chooses (GAP-134). Murbella
    then holds it in her battles; Logno, revived, does not get it back."""
    state, _said = _logno_dies()
    assert "logno" in state.houses["dispersion"].leader_tanks
    assert state.pending.kind == "inherit-choice" and state.pending.actor == "dispersion"
    assert {a.leader for a in decisions(state)} == {"dama", "murbella"}
    assert check_action(state, ChooseHeir("dispersion", "duana", "DISPERSION-L02-c")).code == "battle/inherit-choice"
    assert not _worth_one(state, "dispersion", "murbella")
    state = apply_action(state, ChooseHeir("dispersion", "murbella", "DISPERSION-L02-c"))
    assert events_of(state, "power-passed")[0].data["leader"] == "murbella"
    assert state.powers_passed == (("DISPERSION-L02-c", "dispersion", "murbella"),)
    assert _worth_one(state, "dispersion", "murbella") and not _worth_one(state, "dispersion", "dama")
    hs = state.houses["dispersion"]
    revived = dataclasses.replace(state, houses=state.houses.set("dispersion", dataclasses.replace(
        hs, leaders=hs.leaders + ("logno",), leader_tanks=tuple(k for k in hs.leader_tanks if k != "logno"))))
    assert not _worth_one(revived, "dispersion", "logno")
    assert _worth_one(dataclasses.replace(revived, powers_passed=()), "dispersion", "logno")  # before it passed


def test_dispersion_l02_d_a_single_strongest_matre_receives_it_at_once():
    """With Murbella in the tanks, Dama (8) is the only strongest: the Weapon passes with no decision."""
    state, said = _logno_dies(dead=("murbella",))
    assert state.pending is None or state.pending.kind != "inherit-choice"
    assert state.powers_passed == (("DISPERSION-L02-c", "dispersion", "dama"),)
    assert _worth_one(state, "dispersion", "dama")


# ---- S-9 Lingar at the Pole (HARKONNEN-L07-d) -------------------------------------------------------------------

def _at_the_pole(*, dead=()):
    state = position(["harkonnen", "atreides"], [("harkonnen", "pole-nord", 1, 3), ("atreides", "pole-nord", 5, 2)])
    if dead:
        hs = state.houses["harkonnen"]
        state = dataclasses.replace(state, houses=state.houses.set("harkonnen", dataclasses.replace(
            hs, leaders=tuple(lid for lid in hs.leaders if lid not in dead), leader_tanks=hs.leader_tanks + dead)))
        state = begin_phase(dataclasses.replace(state, pending=None, phase="battle"))
    return state


def test_harkonnen_l07_d_s_9_lingar_opens_a_battle_at_the_pole():
    """S-9 (L1245): with tokens at the Pôle Nord beside the Atreides, the Harkonnen may open a battle there (an
    exception to BATTLE-1); Lingar must lead it, worth 3 there (H07-e); the usual steps follow."""
    state = _at_the_pole()
    assert (state.pending.kind, state.pending.actor) == ("pole-battle", "harkonnen")
    opening = OpenPoleBattle("harkonnen", "atreides", "pole-nord", "HARKONNEN-L07-d")
    assert decisions(state) == [Pass("harkonnen"), opening]
    state = skip_pre_battle(apply_action(state, opening))
    assert events_of(state, "pole-battle")[0].data["opponent"] == "atreides"
    harkonnen = None
    plans = {"harkonnen": ("lingar", 3), "atreides": ("gurney", 0)}
    said = state.events
    while state.pending is not None and state.pending.kind == "battle-plan":
        house = state.pending.actor
        if house == "harkonnen":
            harkonnen = {a.leader for a in decisions(state) if isinstance(a, SubmitPlan)}
            assert check_action(state, SubmitPlan("harkonnen", "feyd-rautha", 3, 0, 0)).code == \
                "battle/leader-unavailable"
        state = plan(state, *plans[house])
        said += state.events
    for _step in range(40):  # the first option (a pass) at each later step: buy-off (H07-b), calls, capture...
        if state.pending is None or state.phase != "battle":
            break
        state = apply_action(state, decisions(state)[0]) if decisions(state) else play_chance(state)
        said += state.events
    assert harkonnen == {"lingar"}
    battle = next(e for e in said if e.kind == "battle-outcome")
    assert battle.data["area"] == "pole-nord"
    powers = [p for e in said if e.kind == "battle-powers" and e.data["house"] == "harkonnen" for p in e.data["powers"]]
    assert "HARKONNEN-L07-e" in powers  # worth 3 at the Pole


def test_harkonnen_l07_d_s_9_the_pass_or_no_lingar_means_no_battle_at_the_pole():
    """BATTLE-1: no battle at the Pole otherwise: the Harkonnen may pass; with Lingar in the tanks nobody asks."""
    state = apply_action(_at_the_pole(), Pass("harkonnen"))
    assert state.phase != "battle" or state.pending is None or state.pending.kind != "battle-plan"
    assert not events_of(state, "battle")
    state = _at_the_pole(dead=("lingar",))
    assert state.pending is None or state.pending.kind not in ("pole-battle", "battle-plan")
