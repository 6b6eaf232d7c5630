"""HARKONNEN-P4, seed 003 F51 (FAQ 17), GAP-75: a captured leader's identity is kept from third Houses; his
captor and his own House know him; he is named to all once shown (plan revealed, killed, sent home). GAP-139: the
heuristic bot reasons on what its view can tell. The whole-game leak check is in tests/test_secrets.py."""

from __future__ import annotations

from helpers_game import events_of, force, held_by_harkonnen, pass_unable, settle_powers, skip_pre_battle
from test_rules_battle_phase import plan, position

from dunenb.actions import Pass
from dunenb.engine import apply_action, view
from dunenb.rules import secrecy
from dunenb.rules.battle_phase import SubmitPlan, begin_phase
from dunenb.rules.battle_powers import Captive, CaptureDraw
from dunenb.rules.captive_secrecy import HIDDEN, candidates, guess, hidden_from
from dunenb.rules.secrecy import HiddenAction

THREE = ["atreides", "harkonnen", "fremen"]
#: The Atreides (Duncan alone) lose to Feyd and 5 tokens in Arsunt; the Fremen, at the Pole, look on.
FORCES = [("atreides", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 5), ("fremen", "pole-nord", 7, 1)]


def drawn(leader="gurney"):
    """The Harkonnen have won and drawn ``leader`` of the Atreides (HARKONNEN-P4, FAQ 16): keep or kill next."""
    state = plan(plan(position(THREE, FORCES), "duncan-idaho"), "feyd-rautha", 5)
    assert state.pending.kind == "capture-draw"
    return force(state, CaptureDraw("harkonnen", "atreides", leader))


def test_harkonnen_p4_faq_17_a_third_house_sees_only_a_leader_of_the_atreides_captured():
    state = drawn()
    seen = view(state, "fremen")
    assert seen.pending.kind == "captive" and seen.pending.detail["leader"] == HIDDEN
    [capture] = [e for e in seen.events if e.kind == "capture-drawn"]
    assert "gurney" not in capture.text and capture.data["leader"] == HIDDEN and "a leader of atreides" in capture.text
    assert set(seen.houses["atreides"].leaders) == {HIDDEN}  # GAP-75: the others would single him out
    assert len(seen.houses["atreides"].leaders) == len(state.houses["atreides"].leaders)
    kept = apply_action(state, Captive("harkonnen", "atreides", "gurney", "keep"))
    seen = view(kept, "fremen")
    assert seen.captured == (("atreides", HIDDEN),)
    assert "atreides:hidden" in seen.houses["harkonnen"].leaders and "atreides:gurney" not in repr(seen)
    assert set(seen.houses["atreides"].leaders) == {HIDDEN}
    [kept_event] = [e for e in seen.events if e.kind == "captive-kept"]
    assert "gurney" not in kept_event.text and "FAQ 17" in kept_event.text
    assert kept.captured == (("atreides", "gurney"),)  # the god state itself is untouched


def test_harkonnen_p4_faq_17_the_captor_and_the_loser_know_who_he_is():
    state = apply_action(drawn(), Captive("harkonnen", "atreides", "gurney", "keep"))
    for house in ("harkonnen", "atreides"):
        seen = view(state, house)
        assert seen.captured == (("atreides", "gurney"),) and "atreides:gurney" in seen.houses["harkonnen"].leaders
        assert seen.houses["atreides"].leaders == state.houses["atreides"].leaders
        assert "gurney" in events_of(seen, "captive-kept")[0].text
    assert hidden_from(state, "fremen") == {("atreides", "gurney")} and not hidden_from(state, "atreides")


def test_harkonnen_p4_faq_17_a_captive_killed_at_once_is_named_to_all():
    state = apply_action(drawn(), Captive("harkonnen", "atreides", "gurney", "kill"))  # FAQ 18: to the tanks
    seen = view(state, "fremen")
    assert "gurney" in events_of(seen, "captive-killed")[0].text
    assert seen.houses["atreides"].leaders == state.houses["atreides"].leaders and not seen.captured


def _captive_battle(karama_for=None):
    """Gurney of the Atreides held by the Harkonnen before the battle phase; Arsunt: Atreides against Harkonnen,
    the Fremen at the Pole."""
    hands = {karama_for: ("karama",)} if karama_for else None
    state = position(THREE, [("atreides", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 3),
                             ("fremen", "pole-nord", 7, 1)], hands=hands, begin=False)
    return begin_phase(held_by_harkonnen(state, "atreides", "gurney"))


def test_harkonnen_p4_faq_17_a_captive_is_named_once_his_plan_is_revealed_and_stays_named_at_home():
    state = plan(skip_pre_battle(_captive_battle()), "duncan-idaho", 3)
    assert state.pending.kind == "battle-plan" and state.pending.actor == "harkonnen"
    assert set(view(state, "fremen").houses["atreides"].leaders) == {HIDDEN}
    state = apply_action(state, SubmitPlan("harkonnen", "atreides:gurney", 3, 0, 0))
    state = pass_unable(state, ("leader-buy-off",))
    assert any(e.kind == "plan-revealed" and e.data["leader"] == "atreides:gurney" for e in state.events)
    seen = view(state, "fremen")  # BATTLE-13 f: the table has seen him on the wheel
    assert "atreides:gurney" in seen.houses["harkonnen"].leaders and seen.captured == (("atreides", "gurney"),)
    assert seen.houses["atreides"].leaders == state.houses["atreides"].leaders
    while state.pending is not None and state.pending.kind == "traitor-call":
        state = apply_action(state, Pass(state.pending.actor))
    state = settle_powers(state)
    assert not state.captured  # he fought once for his captor and lives: home (L1167), named to all
    seen = view(state, "fremen")
    assert "gurney" in seen.houses["atreides"].leaders and not seen.captured
    assert any("gurney" in e.text for e in events_of(seen, "captive-released"))


def test_harkonnen_p4_faq_17_karama_47_window_names_no_captive_to_a_third_house():
    state = _captive_battle(karama_for="fremen")
    assert state.pending.kind == "karama-window" and state.pending.actor == "fremen"
    assert state.pending.detail["data"]["leader"] == "gurney"
    data = view(state, "fremen").pending.detail["data"]
    assert data["owner"] == "atreides" and data["leader"] == HIDDEN and ("atreides", "gurney") not in data["asked"]
    assert view(state, "atreides").pending.detail["data"]["leader"] == "gurney"


def test_harkonnen_p4_faq_17_the_capture_actions_are_secret_from_third_houses_until_he_is_named():
    before = drawn()
    keep = Captive("harkonnen", "atreides", "gurney", "keep")
    assert secrecy.viewers(before, keep) == ("harkonnen", "atreides")
    shown = secrecy.hidden(before, keep)
    assert isinstance(shown, HiddenAction) and shown.to_dict() == {"kind": "captive", "house": "harkonnen",
                                                                   "hidden": True, "owner": "atreides"}
    assert shown.describe() == ("The Harkonnen decide the fate of a leader of the Atreides (identity hidden, "
                                "FAQ 17)")
    draw = CaptureDraw("harkonnen", "atreides", "gurney")
    assert "capture a leader of the Atreides" in secrecy.hidden(before, draw).describe()
    killed = apply_action(before, Captive("harkonnen", "atreides", "gurney", "kill"))
    assert secrecy.reveals(draw, killed.events)  # FAQ 18: killed at once, he goes to the tanks in view of all
    kept = apply_action(before, keep)
    assert not secrecy.reveals(draw, kept.events)


def test_harkonnen_p4_faq_17_gap_139_a_bot_guesses_the_captive_among_the_candidates():
    state = apply_action(drawn(), Captive("harkonnen", "atreides", "gurney", "keep"))
    seen = view(state, "fremen")
    possible = candidates(seen, "atreides")
    assert set(possible) == set(state.houses["atreides"].leaders) | {"gurney"}
    guessed = guess(seen)
    assert guessed.houses["atreides"].leaders == possible
    assert "atreides:hidden" not in guessed.houses["harkonnen"].leaders and not guessed.captured
    assert guess(view(state, "atreides")) == view(state, "atreides")  # nothing hidden: the view as it is


def test_harkonnen_p4_faq_17_the_house_panel_counts_a_hidden_captive():
    from dunenb.widgets.replay_browser import house_panel_html

    state = apply_action(drawn(), Captive("harkonnen", "atreides", "gurney", "keep"))
    third = house_panel_html(view(state, "fremen"), "fremen")
    assert "Gurney" not in third and "identity hidden" in third and "1 captive(s) not named (FAQ 17)" in third
    assert "Gurney" in house_panel_html(view(state, "harkonnen"), "harkonnen")
    assert "Gurney" in house_panel_html(state, None)
