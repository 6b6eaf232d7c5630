"""leaders.md K-25 S-4 (EMPEROR-L03-c Burseg), K-22/S-9 and K-24 D02-d: the last leader specials, played in games
and, where they change a battle result, in the battle library."""

from __future__ import annotations

import pytest
from helpers_game import settle_powers, tokens_at
from test_leader_traits_battle import ROSTER, plan, position

from dunenb.battle.plans import Battle, BattlePlan, BattleSide
from dunenb.battle.resolve import resolve_battle
from dunenb.battle.wheel import Dial, Tokens
from dunenb.rules.battle_phase import own_house_leader

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
