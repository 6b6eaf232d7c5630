"""leaders.md K-9 CARD_RULE(worthless_is_karama), GUILD-L01-d: in Edric's battle the Guild's worthless cards serve as
Karama for any use, as BG-P5: on his wheel against the opposing leader (LC-11 b, GAP-122) as well as against the
traitor calls (KARAMA-45, tested in test_leader_weapon_games), and in the Karama windows of his battle once he is
revealed (KARAMA-50 against a minion of Vladimir, GAP-125)."""

from __future__ import annotations

import dataclasses

from helpers_game import decisions, events_of, play_battle
from test_leader_weapon_games import _position

from dunenb.actions import Pass
from dunenb.engine import apply_action, check_action
from dunenb.rules.battle_phase import SubmitPlan
from dunenb.rules.karama_window import UseKarama

FORCES = [("guild", "arsunt", 5, 4), ("harkonnen", "arsunt", 5, 4)]


def _harkonnen_first(state, leader):
    if state.pending.actor != "guild":
        state = play_battle(state, {"harkonnen": SubmitPlan("harkonnen", leader, 1, 0, 0)})
    assert (state.pending.kind, state.pending.actor) == ("battle-plan", "guild")
    return state


def _fight(state, guild_plan, harkonnen_leader, *, use=None):
    """Set both plans (the Harkonnen's with ``harkonnen_leader``) and pass every step but the Guild's Karama
    ``use`` in a window; the events of every step are kept, and each window asked: (House, target, whether a
    worthless card is offered as its Karama)."""
    said = state.events
    plans = {"guild": guild_plan, "harkonnen": SubmitPlan("harkonnen", harkonnen_leader, 1, 0, 0)}
    asked = []
    while state.pending is not None and state.pending.kind in (
            "battle-plan", "karama-window", "traitor-call", "buy-off", "leader-buy-off", "leader-alliance",
            "leader-special"):
        kind, actor = state.pending.kind, state.pending.actor
        if kind == "battle-plan":
            action = plans[actor]
        elif kind == "karama-window":
            offered = any(isinstance(a, UseKarama) and a.card == "worthless" for a in decisions(state))
            asked.append((actor, state.pending.detail["data"].get("target"), offered))
            action = use if use is not None and actor == "guild" else Pass(actor)
        elif kind in ("traitor-call", "buy-off"):
            action = Pass(actor)
        else:
            action = decisions(state)[0]
        state = apply_action(state, action)
        said += state.events
    return dataclasses.replace(state, events=said), asked


def test_guild_l01_d_edric_hides_a_worthless_karama_against_the_opposing_leader():
    """LC-11 b (GAP-122) with a worthless card: Piter's powers are void at the reveal (KARAMA-50 is the use against
    a Harkonnen secondary leader)."""
    state = _harkonnen_first(_position(["guild", "harkonnen"], FORCES, {"guild": ("worthless",)}), "piter")
    menu = [a for a in decisions(state) if a.kind == "plan" and a.karama == "worthless"]
    assert {a.against for a in menu if a.leader == "edric"} >= {"none", "KARAMA-50"}
    assert {a.leader for a in menu if a.against == "KARAMA-50"} == {"edric"}
    plan = SubmitPlan("guild", "edric", 1, 0, 0, karama="worthless", against="KARAMA-50")
    assert check_action(state, plan) is None
    refused = check_action(state, SubmitPlan("guild", "alberic", 1, 0, 0, karama="worthless", against="KARAMA-50"))
    assert refused is not None
    fought, _asked = _fight(state, plan, "piter")
    voided = [e for e in events_of(fought, "karama") if e.data.get("karama") == "KARAMA-50"]
    assert voided and voided[0].data["leader"] == "piter" and "HARKONNEN-L04-a" in voided[0].data["powers"]
    assert "worthless" in fought.treachery_discard


def test_guild_l01_d_after_the_reveal_the_worthless_card_answers_a_karama_window():
    """GAP-125: once Vladimir is revealed, each living minion's bonus opens a KARAMA-50 window; in Edric's battle
    the Guild, holding only a worthless card, is asked and may void Iakin Nefud's bonus with it."""
    state = _harkonnen_first(_position(["guild", "harkonnen"], FORCES, {"guild": ("worthless",)}), "vladimir")
    edric = SubmitPlan("guild", "edric", 1, 0, 0)
    plain, asked = _fight(state, edric, "vladimir")
    assert ("guild", ("harkonnen", "iakin-nefud"), True) in asked
    used, _ = _fight(state, edric, "vladimir", use=UseKarama("guild", "KARAMA-50", "worthless"))
    shown = [e for e in events_of(used, "karama") if e.data.get("karama") == "KARAMA-50"]
    assert shown and shown[0].data["leader"] == "iakin-nefud"
    assert "worthless" in used.treachery_discard and "worthless" not in used.houses["guild"].hand


def test_guild_l01_d_without_edric_the_worthless_card_is_no_karama_in_a_window():
    state = _harkonnen_first(_position(["guild", "harkonnen"], FORCES, {"guild": ("worthless",)}), "vladimir")
    _plain, asked = _fight(state, SubmitPlan("guild", "alberic", 1, 0, 0), "vladimir")
    assert ("guild", ("harkonnen", "iakin-nefud"), False) in asked  # asked (GAP-63), with nothing to play
    assert not [a for a in asked if a[2]]


def _case(house, leader, karama, karama_use=None, **top):
    side = {"house": house, "tokens": {"regular": 3}, "dial": {"regular": 1}, "leader": leader, "karama": karama}
    if karama_use:
        side["karama_use"] = karama_use
    return {"format": "dunenb.battle/1", "territory": "carthag", "defender": house,
            "sides": [side, {"house": "harkonnen", "tokens": {"regular": 3}, "dial": {"regular": 1},
                             "leader": "piter"}], **top}


def test_guild_l01_d_case_edric_s_worthless_card_serves_any_wheel_use():
    """In a case, the Guild's worthless card is a Karama on Edric's wheel only: also hidden against the opposing
    leader (LC-11 b: Piter's WHEEL_VALUE(6 | Carthag) void); another leader's, or any House's without a power
    making it one, is refused (KARAMA-1, BG-P5, TLEILAX-P4)."""
    from test_battle_case_karama import _error

    from dunenb.battle.case import case_outcomes, parse_case

    def piter(raw):
        ((_p, outcome),) = case_outcomes(parse_case(raw))
        return float(outcome.side("harkonnen").total)

    assert piter(_case("guild", "edric", "worthless", "KARAMA-50")) == piter(_case("guild", "edric", None)) - 2
    assert "'worthless' is no Karama for guild here" in _error(_case("guild", "alberic", "worthless"))
    assert "no Karama for atreides" in _error(_case("atreides", "duncan-idaho", "worthless"))
    assert "no Karama for atreides" in _error(_case("atreides", "duncan-idaho", "ghola"))
    parse_case(_case("bene-gesserit", "darwi", "worthless"))  # BG-P5
    parse_case(_case("bene-tleilax", "bijaz", "ghola"))  # TLEILAX-P4
