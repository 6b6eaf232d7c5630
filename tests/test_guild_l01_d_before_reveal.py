"""leaders.md K-9 CARD_RULE(worthless_is_karama), GUILD-L01-d, before the reveal (D-15, LC-5 B1, GAP-143): the
Guild knows from B0 that Edric fights, so its worthless card is a Karama in the windows of his battle before the
wheels are shown (here the F7 window of the battle's start, KARAMA-42 against Paul's immunity to the slow
poison, ATREIDES-M1); played there, it discloses Edric to every House, and the Guild's plan must name him."""

from __future__ import annotations

from helpers_game import decisions, events_of, play_battle
from test_powers_pre_battle import open_battle

from dunenb.engine import apply_action, check_action, view
from dunenb.rules.battle_phase import SubmitPlan
from dunenb.rules.karama_window import UseKarama

HOUSES = ["atreides", "guild"]
FORCES = [("atreides", "arsunt", 5, 3), ("guild", "arsunt", 5, 3)]
HAND = {"guild": ("worthless", "poison-slow")}
WORTHLESS = UseKarama("guild", "KARAMA-42", "worthless")


def _window(dead=None):
    state = open_battle(HOUSES, FORCES, HAND, dead=dead)
    assert (state.pending.kind, state.pending.actor) == ("karama-window", "guild")
    assert state.pending.detail["uses"] == ("KARAMA-42",)
    return state


def test_guild_l01_d_gap_143_before_the_reveal_edric_s_worthless_card_is_a_karama_at_the_battle_s_start():
    state = _window()
    assert WORTHLESS in decisions(state) and check_action(state, WORTHLESS) is None
    state = apply_action(state, WORTHLESS)
    played = state.events
    assert [e.data["karama"] for e in played if e.kind == "karama"] == ["KARAMA-42"]
    assert "worthless" in state.treachery_discard and "worthless" not in state.houses["guild"].hand
    # GAP-143: a use of Edric's power before B6 discloses him, to the Atreides too (the card is played openly)
    shown = [e for e in played if e.kind == "leader-disclosed"]
    assert [(e.data["house"], e.data["leader"], e.data["power"]) for e in shown] == [
        ("guild", "edric", "GUILD-L01-d")]
    assert not getattr(shown[0], "secret", False) and shown[0] in view(state, "atreides").events
    state = play_battle(state, {"atreides": SubmitPlan("atreides", "paul", 1, 0, 0)},
                        until=("battle-plan", "guild"))
    refused = check_action(state, SubmitPlan("guild", "alberic", 1, 0, 0, "poison-slow"))
    assert refused is not None and refused.code == "battle/leader-disclosed"
    state = play_battle(state, {"guild": SubmitPlan("guild", "edric", 1, 0, 0, "poison-slow")})
    # KARAMA-42 blocks Paul's immunity: Edric's slow poison kills him
    assert [e.data["leader"] for e in events_of(state, "leader-killed")] == ["paul"]


def test_guild_l01_d_before_the_reveal_no_worthless_karama_when_edric_cannot_lead():
    state = _window(dead={"guild": "edric"})
    assert [a.kind for a in decisions(state)] == ["pass"]
    error = check_action(state, WORTHLESS)
    assert error is not None and error.code == "karama/card"
