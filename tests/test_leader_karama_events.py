"""leaders.md LC-11 (c) outside battle (GAP-152): the Karama against a secondary leader asked when his effect
would apply: S-8's ducal tax (HARKONNEN-L02-d) at step j, S-2's desert shelter (ATREIDES-L10-c) before a storm's
passage or a worm's strike. Each test plays the scene in a game, with and without the Karama played."""

from __future__ import annotations

import dataclasses

from helpers_game import decisions, play_battle
from test_leader_traits_battle import position

from dunenb.actions import Pass
from dunenb.engine import apply_action, current_player, sample_chance
from dunenb.powers.karama import suppressed_powers
from dunenb.rules.battle_phase import SubmitPlan
from dunenb.rules.karama_window import UseKarama

DUCAL = "HARKONNEN-L02-d"


def _sietch_tarb_tax(play: bool):
    """Zébataleh wins a battle at Sietch Tarb for the Harkonnen; the Emperor holds a Karama. The turn goes on to
    step j; at the window against Zébataleh the Emperor plays it (``play``) or passes. Returns the Sietch Tarb
    tax events, the targets of the windows met at step j and the state at the turn's end."""
    state = position(["harkonnen", "emperor"], [("harkonnen", "sietch-tarb", 12, 3),
                                                ("emperor", "sietch-tarb", 12, 1)])
    state = play_battle(state, {"harkonnen": SubmitPlan("harkonnen", "zebataleh", 1, 0, 0),
                                "emperor": SubmitPlan("emperor", "bashar", 1, 0, 0)}, through=())
    state = dataclasses.replace(state, houses=state.houses.set("emperor", dataclasses.replace(
        state.houses["emperor"], hand=state.houses["emperor"].hand + ("karama",))))
    turn, taxes, windows = state.turn, [], []
    while state.pending is not None and state.turn == turn:
        if current_player(state) == "chance":
            action = sample_chance(state)
        elif state.pending.kind == "karama-window":
            target = state.pending.detail["data"].get("target")
            if state.phase == "collection":
                windows.append((state.pending.actor, target, state.pending.detail["data"].get("lasts")))
            action = UseKarama("emperor", "KARAMA-50", "karama") if play and target == ("harkonnen", "zebataleh") \
                else Pass(state.pending.actor)
        else:
            action = decisions(state)[0]
        state = apply_action(state, action)
        taxes += [e for e in state.events if e.kind == "tax" and e.data["area"] == "sietch-tarb"]
        if play and state.phase == "collection" and state.pending is None:
            break
    return taxes, windows, state


def test_harkonnen_l02_d_karama_50_lc_11_c_a_karama_voids_one_ducal_tax():
    """HARKONNEN-L02-d, KARAMA-50, LC-11 c: at step j, before the taxes, a Karama window opens against Zébataleh
    (his 3-instead-of-1 would apply); the Emperor passing, the tax is 3; played, that tax is TAX-1's 1, the card
    is discarded, and the suppression is lifted once the taxes are paid."""
    taxes, windows, _ = _sietch_tarb_tax(False)
    assert windows == [("emperor", ("harkonnen", "zebataleh"), "action")]
    assert [(e.data["amount"], e.data.get("powers")) for e in taxes] == [(3, (DUCAL,))]
    taxes, windows, state = _sietch_tarb_tax(True)
    assert windows == [("emperor", ("harkonnen", "zebataleh"), "action")]
    assert [(e.data["amount"], e.data.get("powers")) for e in taxes] == [(1, None)]
    assert DUCAL not in suppressed_powers(state) and "karama" in state.treachery_discard


def test_karama_50_lc_11_c_no_window_without_a_karama_to_play():
    """LC-11 c: with nobody holding a card, the window against Zébataleh is skipped; the tax is 3."""
    state = position(["harkonnen", "emperor"], [("harkonnen", "sietch-tarb", 12, 3),
                                                ("emperor", "sietch-tarb", 12, 1)])
    state = play_battle(state, {"harkonnen": SubmitPlan("harkonnen", "zebataleh", 1, 0, 0),
                                "emperor": SubmitPlan("emperor", "bashar", 1, 0, 0)}, through=())
    turn, kinds, taxes = state.turn, [], []
    while state.pending is not None and state.turn == turn:
        action = sample_chance(state) if current_player(state) == "chance" else decisions(state)[0]
        state = apply_action(state, action)
        kinds.append((state.phase, state.pending.kind if state.pending else None))
        taxes += [e.data["amount"] for e in state.events if e.kind == "tax" and e.data["area"] == "sietch-tarb"]
    assert ("collection", "karama-window") not in kinds and taxes == [3]
