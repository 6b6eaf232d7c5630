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


# --- S-2: Siona's desert shelter ----------------------------------------------------------------------------------

SHELTER = "ATREIDES-L10-c"


def _siona_next_turn(storm_at: int):
    """Siona won a battle in the Bassin du Bouclier (a desert) last turn, keeping 3 Atreides tokens in sector 6;
    the Harkonnen hold a Karama; the main storm stands on ``storm_at``; the next turn's storm phase begins."""
    from test_leader_traits_battle import _after_desert_battle

    from dunenb.rules import storm

    state = _after_desert_battle("siona")
    hs = state.houses["harkonnen"]
    state = dataclasses.replace(state, storm_main=storm_at, pending=None,
                                houses=state.houses.set("harkonnen", dataclasses.replace(hs, hand=("karama",))))
    return storm.begin_phase(state)


def _siona_use():
    from dunenb.battle.leader_karama import use_against
    from dunenb.rules.traitors import leader_of

    return use_against(leader_of("atreides", "siona"))


def _answer(state, play: bool, seen: list):
    """At each Karama window, note its target; the Harkonnen play against Siona if ``play``."""
    while state.pending is not None and state.pending.kind == "karama-window":
        target = state.pending.detail["data"].get("target")
        seen.append((state.pending.actor, target, state.pending.detail["data"].get("lasts")))
        action = UseKarama("harkonnen", _siona_use(), "karama") if play and target == ("atreides", "siona") \
            else Pass(state.pending.actor)
        state = apply_action(state, action)
    return state


def _left(state):
    stack = state.forces.get(("atreides", "bassin-du-bouclier", 6))
    return 0 if stack is None else stack.total


def test_atreides_l10_c_karama_lc_11_c_gap_152_a_karama_voids_her_shelter_from_one_storm():
    """ATREIDES-L10-c, LC-11 c (GAP-152): the storm is about to pass over Siona's sheltered tokens (sector 6): a
    Karama window opens against her first; passed, 2 of the 3 tokens survive (half, rounded up, lost); played,
    the storm destroys all 3, the card is discarded and the suppression is lifted after that passage."""
    from helpers_game import dial

    for play, left in ((False, 1), (True, 0)):
        seen: list = []
        state = _siona_next_turn(4)
        state = dial(state, 1, 1)  # 2 sectors: 5, 6
        assert state.pending.kind == "karama-window"
        state = _answer(state, play, seen)
        assert seen == [("harkonnen", ("atreides", "siona"), "event")]
        assert _left(state) == left
        assert SHELTER not in suppressed_powers(state)
        assert ("karama" in state.treachery_discard) == play


def test_atreides_l10_c_karama_lc_11_c_a_karama_voids_her_shelter_from_one_worm():
    """ATREIDES-L10-c, LC-11 c (GAP-152): a worm strikes the Bassin du Bouclier in the next turn's spice blow;
    before it devours, a window against Siona; passed, her 3 tokens are spared; played, they are devoured."""
    from helpers_game import dial, force_card

    for play, left in ((False, 3), (True, 0)):
        seen: list = []
        state = _siona_next_turn(9)
        state = _answer(dial(state, 1, 1), False, seen)  # 10, 11: far from the Bassin
        assert seen == []
        while state.pending.kind != "spice":  # the storm tokens' draws (chance), up to the first spice card
            state = apply_action(state, sample_chance(state) if current_player(state) == "chance"
                                 else decisions(state)[0])
        assert state.phase == "spice-blow" and state.spice_deck is not None
        deck = state.spice_deck
        state = dataclasses.replace(state, spice_deck=dataclasses.replace(
            deck, pile_tops=("bassin-du-bouclier", "bassin-du-bouclier")))
        state = _answer(force_card(state, "worm"), play, seen)
        assert seen == [("harkonnen", ("atreides", "siona"), "event")]
        assert _left(state) == left
        assert SHELTER not in suppressed_powers(state)
