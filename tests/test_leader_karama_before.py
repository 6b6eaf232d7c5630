"""leaders.md LC-11 (a) before B6 (GAP-151): the Karama against a secondary leader asked when his House uses one
of his powers in the pre-battle steps: a K-16 pre-battle action, a K-11 Voice, a K-12 question. Played, the use
is cancelled, what was paid stays paid, and his powers are void for the rest of the battle."""

from __future__ import annotations

import dataclasses

from helpers_game import decisions, events_of, skip_pre_battle
from test_leader_mind_powers import at_plan_of, scene, until
from test_leader_pre_battle import to_b1

from dunenb.actions import Pass
from dunenb.engine import apply_action, check_action
from dunenb.powers.karama import is_suppressed
from dunenb.rules.battle_context import context_of
from dunenb.rules.battle_phase import SubmitPlan
from dunenb.rules.karama_window import UseKarama
from dunenb.rules.leader_pre_battle import UsePreBattle
from dunenb.rules.pre_battle import AskPrescience, UseVoice


def _window(state, house, use, play: bool):
    """At the LC-11 a window: ``house`` is asked (the use's group leader as target); it plays ``use`` or passes.
    Returns the state after the window (events of every step kept) and the targets asked."""
    said, asked = state.events, []
    while state.pending.kind == "karama-window":
        asked.append((state.pending.actor, state.pending.detail["data"]["target"]))
        action = UseKarama(house, use, "karama") if play and state.pending.actor == house else \
            Pass(state.pending.actor)
        state = apply_action(state, action)
        said += state.events
    return dataclasses.replace(state, events=said), asked


def test_karama_19_lc_11_a_gap_151_a_karama_cancels_ludwics_pre_battle_gain():
    """GUILD-L04-d at Gara Kulon, KARAMA-19 (LC-11 a): once the Guild declare Ludwic's gain (which shows him), a
    window against Ludwic asks the Atreides; passed, 2 spice from the Bank; played, no spice, the card is
    discarded, Ludwic stays shown (the Guild must lead with him) and his powers are void for the battle."""
    for play in (False, True):
        state = to_b1(["guild", "atreides"], area="gara-kulon", sector=20, hands={"atreides": ("karama",)})
        spice = state.houses["guild"].spice
        state = apply_action(state, UsePreBattle("guild", "ludwic", "GUILD-L04-d"))
        assert state.pending.kind == "karama-window" and state.pending.detail["uses"] == ("KARAMA-19",)
        state, asked = _window(state, "atreides", "KARAMA-19", play)
        assert asked == [("atreides", ("guild", "ludwic"))]
        assert state.houses["guild"].spice == spice + (0 if play else 2)
        assert bool(events_of(state, "leader-power-cancelled")) == play
        assert is_suppressed(state, "GUILD-L04-c") == play  # every power of his, for the rest of the battle
        assert [s.leader for s in context_of(state).shown] == ["ludwic"]
        assert ("karama" in state.treachery_discard) == play


def test_karama_13_lc_11_a_ziarenkos_purchase_cancelled_the_price_stays_paid():
    """EMPEROR-L11-b, KARAMA-13 (LC-11 a): Ziarenko's purchase declared, the 3 spice are paid to the Bank; the
    Atreides' Karama cancels it: no card is drawn and nothing is refunded."""
    state = to_b1(["emperor", "atreides"], hands={"atreides": ("karama",)})
    spice, bank = state.houses["emperor"].spice, state.bank
    state = apply_action(state, UsePreBattle("emperor", "ziarenko", "EMPEROR-L11-b", "3"))
    state, asked = _window(state, "atreides", "KARAMA-13", True)
    assert asked == [("atreides", ("emperor", "ziarenko"))]
    assert state.houses["emperor"].spice == spice - 3 and state.bank == bank + 3
    assert state.houses["emperor"].hand == ()
    assert state.pending.kind != "leader-pre-battle-card"


def test_karama_44_lc_11_a_a_karama_cancels_ghanimas_voice():
    """ATREIDES-L03-c, KARAMA-44 (LC-11 a): Ghanima's Voice stated ('not poison'), the Guild, holding a Karama,
    are asked; passed, the command binds their plan; played, there is no command: their poison plan is legal,
    and Ghanima's powers are void for the battle (she stays disclosed)."""
    for play in (False, True):
        state = until(scene(["atreides", "guild"], hands={"guild": ("poison-fast", "karama")}), "atreides",
                      "ATREIDES-L03-c")
        state = apply_action(state, UseVoice("atreides", "forbid", "poison"))
        assert state.pending.kind == "karama-window"
        state, asked = _window(state, "guild", "KARAMA-44", play)
        assert asked == [("guild", ("atreides", "ghanima"))]
        assert bool(events_of(state, "voice")) != play
        assert is_suppressed(state, "ATREIDES-L03-c") == play
        assert [(s.house, s.leader) for s in context_of(state).shown] == [("atreides", "ghanima")]
        state = at_plan_of(skip_pre_battle(state), "guild", ("ghanima", 1, 0, 0))
        error = check_action(state, SubmitPlan("guild", "soo-soo", 1, 0, 0, "poison-fast"))
        assert (error is None) == play, error


def test_karama_19_lc_11_a_a_karama_cancels_alberics_question():
    """GUILD-L02-c, KARAMA-19 (LC-11 a): Alberic's question ("your attack?") asked, the Harkonnen are asked;
    played, no question is put (no answer step), and his powers are void for the battle."""
    for play in (False, True):
        hands = {"harkonnen": ("poison-fast", "projectile-distance", "karama")}
        state = until(scene(["guild", "harkonnen"], hands=hands), "guild", "GUILD-L02-c")
        state = apply_action(state, AskPrescience("guild", "attack"))
        state, asked = _window(state, "harkonnen", "KARAMA-19", play)
        assert asked == [("harkonnen", ("guild", "alberic"))]
        assert bool(events_of(state, "prescience")) != play
        assert not context_of(state).sequence.questions if play else context_of(state).sequence.questions
        assert is_suppressed(state, "GUILD-L02-c") == play


def test_karama_lc_11_a_no_window_when_nobody_holds_a_card():
    """LC-11 a: with no card in any other hand, Ludwic's gain is not interrupted (GAP-63: nobody to ask)."""
    state = to_b1(["guild", "atreides"], area="gara-kulon", sector=20)
    spice = state.houses["guild"].spice
    state = apply_action(state, UsePreBattle("guild", "ludwic", "GUILD-L04-d"))
    assert state.pending.kind != "karama-window" and state.houses["guild"].spice == spice + 2
    assert decisions(state)
