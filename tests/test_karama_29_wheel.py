"""KARAMA-29 on the wheel (GAP-124): a worthless card the Bene Gesserit add to their wheel as a Karama (KARAMA-3,
BG-P5) is shown at the reveal; the other Houses are asked, and a real Karama makes it void."""

from __future__ import annotations

from helpers_game import decisions
from test_rules_battle_phase import position

from dunenb.actions import Pass
from dunenb.engine import apply_action
from dunenb.rules.battle_phase import SubmitPlan
from dunenb.rules.karama_window import UseKarama

FORCES = [("bene-gesserit", "arsunt", 5, 4), ("harkonnen", "arsunt", 5, 4)]


def _revealed(cancel):
    """The BG (Darwi, a worthless card as their wheel Karama against the treachery, KARAMA-45) against the
    Harkonnen (Feyd), who hold Darwi on a slip and a real Karama."""
    state = position(["bene-gesserit", "harkonnen"], FORCES,
                     hands={"bene-gesserit": ("worthless",), "harkonnen": ("karama",)},
                     traitors={"harkonnen": (("bene-gesserit", "darwi"),)})
    plans = {"bene-gesserit": SubmitPlan("bene-gesserit", "darwi", 2, 0, 0, karama="worthless"),
             "harkonnen": SubmitPlan("harkonnen", "feyd-rautha", 1, 0, 0)}
    said = ()
    while state.pending.kind == "battle-plan":
        state = apply_action(state, plans[state.pending.actor])
        said += state.events
    asked = []
    # leaders.md K-19: the leader-buy-off step (asked of both sides, GAP-111) is passed
    while state.pending.kind in ("leader-buy-off", "karama-window", "traitor-call", "buy-off"):
        action = Pass(state.pending.actor)
        if state.pending.kind == "karama-window":
            asked.append((state.pending.actor, state.pending.detail["uses"]))
            if cancel:
                action = UseKarama("harkonnen", "KARAMA-29", "karama")
        elif state.pending.kind == "traitor-call":
            action = decisions(state)[-1]  # the call when the House may make it, else the pass
        state = apply_action(state, action)
        said += state.events
    return state, said, asked


def test_karama_29_on_the_wheel_the_worthless_karama_stands_and_blocks_the_harkonnen_treachery():
    state, said, asked = _revealed(False)
    assert asked == [("harkonnen", ("KARAMA-29",))]  # asked at the reveal, before the calls
    assert [e.kind for e in said if e.kind.startswith("treachery")] == ["treachery", "treachery-blocked"]
    assert [e for e in said if e.kind == "battle-outcome"][0].data["winner"] == "bene-gesserit"


def test_karama_29_GAP_124_on_the_wheel_a_real_karama_voids_the_worthless_one_and_the_treachery_works():
    state, said, _asked = _revealed(True)
    assert [e.data["powers"] for e in said if e.kind == "karama-cancelled"] == [("BG-P5",)]
    outcome = [e for e in said if e.kind == "battle-outcome"][0].data
    assert outcome["winner"] == "harkonnen" and outcome["traitor_called_by"] == ("harkonnen",)
    assert state.treachery_discard.count("karama") == 1 and "worthless" in state.treachery_discard  # KARAMA-2
