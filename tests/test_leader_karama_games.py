"""leaders.md LC-11 in games: the Karama against a secondary leader hidden on the wheel and shown at B6 (GAP-122),
offered in a window (moments a and c: GAP-121, KARAMA-50 against a minion, GAP-125), and KARAMA-20 against the
Dispersion's karate (GAP-123). Each test plays the scene where the Karama changes the battle."""

from __future__ import annotations

import dataclasses

from helpers_game import decisions, events_of, play_battle
from test_powers_pre_battle import battle

from dunenb.actions import Pass
from dunenb.engine import apply_action, check_action
from dunenb.powers.karama import is_suppressed
from dunenb.rules.battle_phase import SubmitPlan
from dunenb.rules.karama_window import UseKarama

#: Other branches' leader powers' steps after the plans, passed (their first option): leaders.md K-18's alliance,
#: K-19's buy-off.
OTHER_STEPS = ("leader-alliance", "leader-buy-off")


def _settle(state):
    """Pass the traitor calls of Houses with nothing to call (GAP-62) and :data:`OTHER_STEPS`; events kept."""
    return play_battle(state, through=OTHER_STEPS)  # a call to make stops it: the test's


def play(state, *actions):
    """Apply ``actions`` in turn, passing the traitor calls and :data:`OTHER_STEPS`; the events of every step are
    kept."""
    said = state.events
    for action in actions:
        assert state.pending.actor == action.house, (state.pending, action)
        state = _settle(apply_action(state, action))
        said += state.events
    return dataclasses.replace(state, events=said)


def outcome(state):
    return events_of(state, "battle-outcome")[0].data


def _to_plans(state):
    """Pass the steps before the plans: the Voices and questions, leaders.md K-16's leader-pre-battle (the pass is
    listed first) and D-31's B1 rolls (a 10: no built-in)."""
    state = play_battle(state, through=("battle-voice", "battle-prescience", "leader-pre-battle", "battle-b1-roll"))
    assert state.pending.kind == "battle-plan"
    return state


FREMEN_SCENE = (["fremen", "atreides"], [("fremen", "erg-mineur", 7, 3), ("atreides", "erg-mineur", 7, 3)],
                {"atreides": ("karama",)})


def _bannerjee(against):
    """Bannerjée (9 in a desert, his tokens worth 1) against Duncan (6) with 2 tokens and a Karama on the wheel."""
    state = _to_plans(battle(*FREMEN_SCENE))
    plans = {"fremen": SubmitPlan("fremen", "bannerjee", 1, 0, 0),
             "atreides": SubmitPlan("atreides", "duncan-idaho", 2, 0, 0,
                                    karama="none" if against == "none" else "karama", against=against)}
    order = [state.pending.actor, *(h for h in plans if h != state.pending.actor)]
    return play(state, *(plans[house] for house in order))


def test_karama_10_in_a_game_the_karama_on_the_wheel_voids_bannerjee_and_wins_the_battle():
    plain = _bannerjee("none")
    assert outcome(plain)["winner"] == "fremen"  # 1 + 9 against 1 + 6
    state = _to_plans(battle(*FREMEN_SCENE))
    offered = {a.against for a in decisions(state) if a.kind == "plan" and a.house == "atreides"} \
        if state.pending.actor == "atreides" else None
    assert offered is None or "KARAMA-10" in offered
    voided = _bannerjee("KARAMA-10")
    shown = events_of(voided, "karama")
    assert shown[0].data["karama"] == "KARAMA-10" and "FREMEN-L03-a" in shown[0].data["powers"]
    assert outcome(voided)["winner"] == "atreides"  # 0.5 + 6 against 1 + 6
    assert "karama" in voided.treachery_discard  # KARAMA-2
    assert not is_suppressed(voided, "FREMEN-L03-a")  # lifted once the battle is settled (D-26: this battle)


def test_karama_10_GAP_122_the_wheel_use_is_offered_to_the_plan_and_checked():
    state = _to_plans(battle(*FREMEN_SCENE))
    if state.pending.actor == "fremen":
        state = play(state, SubmitPlan("fremen", "bannerjee", 1, 0, 0))
    assert "KARAMA-10" in {a.against for a in decisions(state) if a.kind == "plan"}
    wrong = SubmitPlan("atreides", "duncan-idaho", 2, 0, 0, karama="karama", against="KARAMA-13")
    error = check_action(state, wrong)
    assert error is not None and error.code == "battle/karama-against" and "KARAMA-10" in str(error)


def test_LC_11_GAP_122_against_the_fremen_main_leader_the_karama_is_lost_for_nothing():
    state = _to_plans(battle(*FREMEN_SCENE))
    plans = {"fremen": SubmitPlan("fremen", "liet-kynes", 1, 0, 0),
             "atreides": SubmitPlan("atreides", "duncan-idaho", 2, 0, 0, karama="karama", against="KARAMA-10")}
    order = [state.pending.actor, *(h for h in plans if h != state.pending.actor)]
    state = play(state, *(plans[house] for house in order))
    shown = events_of(state, "karama")
    assert shown[0].data["powers"] == () and "does nothing" in shown[0].text
    assert "karama" in state.treachery_discard


KARATE_SCENE = (["dispersion", "atreides"], [("dispersion", "erg-mineur", 7, 3), ("atreides", "erg-mineur", 7, 3)],
                {"atreides": ("karama",)})


def _karate(against):
    state = _to_plans(battle(*KARATE_SCENE))
    plans = {"dispersion": SubmitPlan("dispersion", "elpek", 1, 0, 0, "karate"),
             "atreides": SubmitPlan("atreides", "duncan-idaho", 1, 0, 0,
                                    karama="none" if against == "none" else "karama", against=against)}
    order = [state.pending.actor, *(h for h in plans if h != state.pending.actor)]
    return play(state, *(plans[house] for house in order))


def test_karama_20_in_a_game_the_karama_on_the_wheel_voids_the_karate_and_duncan_lives():
    plain = _karate("none")
    assert [e.data["leader"] for e in events_of(plain, "leader-killed")] == ["duncan-idaho"]
    voided = _karate("KARAMA-20")
    shown = events_of(voided, "karama")
    assert shown[0].data["karama"] == "KARAMA-20" and "no attack" in shown[0].text
    assert events_of(voided, "leader-killed") == []


# --- KARAMA-50 against a minion (LC-11 c, HARKONNEN-M3, GAP-125) -------------------------------------------

VLADIMIR_SCENE = (["harkonnen", "atreides"], [("harkonnen", "erg-mineur", 7, 3), ("atreides", "erg-mineur", 7, 3)],
                  {"atreides": ("karama",)})


def _vladimir(use):
    state = _to_plans(battle(*VLADIMIR_SCENE))
    plans = {"harkonnen": SubmitPlan("harkonnen", "vladimir", 1, 0, 0),
             "atreides": SubmitPlan("atreides", "duncan-idaho", 3, 0, 0)}
    order = [state.pending.actor, *(h for h in plans if h != state.pending.actor)]
    said = state.events
    for house in order:
        state = apply_action(state, plans[house])
        said += state.events
    asked = []
    # HARKONNEN-M2: Vladimir fights; leaders.md K-19's leader-buy-off step passed
    while state.pending.kind in ("leader-buy-off", "traitor-call", "buy-off", "karama-window"):
        action = Pass(state.pending.actor)
        if state.pending.kind == "karama-window":
            asked.append(state.pending.detail["data"].get("target"))
            if use and asked[-1] == ("harkonnen", "iakin-nefud"):
                action = UseKarama("atreides", "KARAMA-50", "karama")
        state = apply_action(state, action)
        said += state.events
    return dataclasses.replace(state, events=said), asked


def test_karama_50_GAP_125_a_karama_against_iakin_nefud_removes_his_bonus_to_vladimir():
    plain, asked = _vladimir(False)
    assert ("harkonnen", "iakin-nefud") in asked  # asked once Vladimir is revealed, one window per minion
    voided, _ = _vladimir(True)
    shown = events_of(voided, "karama")
    assert shown and shown[0].data["karama"] == "KARAMA-50" and shown[0].data["leader"] == "iakin-nefud"
    # Vladimir 4 + 3 + 2 + 1 (HARKONNEN-M3) + 0.5 = 10.5 against Duncan 6 + 1.5; without Iakin Nefud's +3,
    # 7.5 against 7.5: the defender (the Atreides here) wins the tie
    assert (outcome(plain)["winner"], outcome(voided)["winner"]) == ("harkonnen", "atreides")
    assert "karama" in voided.treachery_discard


# --- moments a and c: the window against a named leader (D-26: any House but his own) ---------------------

def _resume_here(state, _data):
    return state


def test_LC_11_D_26_the_window_against_a_leader_asks_every_other_house_and_voids_his_powers():
    from dunenb.battle.roster import load_roster
    from dunenb.rules.karama_window import register_resume
    from dunenb.rules.leader_karama import ask_against_leader

    register_resume("test-leader-karama", _resume_here)
    houses = ["fremen", "atreides", "emperor"]
    forces = [("fremen", "erg-mineur", 7, 3), ("atreides", "erg-mineur", 7, 3), ("emperor", "carthag", 4, 2)]
    state = _to_plans(battle(houses, forces, {"atreides": ("karama",), "emperor": ("karama",),
                                              "fremen": ("karama",)}))
    bannerjee = load_roster().find("Bannerjée", house="fremen")
    asked = ask_against_leader(state, bannerjee, "test-leader-karama", moment="a")
    assert asked.pending.kind == "karama-window" and asked.pending.detail["uses"] == ("KARAMA-10",)
    assert asked.pending.actor == "atreides"  # table order; never the Fremen against their own leader
    assert {a.kind for a in decisions(asked)} == {"pass", "use-karama"}
    asked = apply_action(asked, Pass("atreides"))
    assert asked.pending.actor == "emperor"  # a House outside the battle may play it too (D-26)
    state = apply_action(asked, UseKarama("emperor", "KARAMA-10", "karama"))
    assert state.pending.kind == "battle-plan"  # back where the window opened
    assert is_suppressed(state, "FREMEN-L03-a") and is_suppressed(state, "FREMEN-L03-b")
    shown = events_of(state, "karama")[-1]
    assert shown.data["karama"] == "KARAMA-10" and shown.data["leader"] == "bannerjee"
    plans = {"fremen": SubmitPlan("fremen", "bannerjee", 1, 0, 0),
             "atreides": SubmitPlan("atreides", "duncan-idaho", 2, 0, 0)}
    order = [state.pending.actor, *(h for h in plans if h != state.pending.actor)]
    fought = play(state, *(plans[house] for house in order))
    assert outcome(fought)["winner"] == "atreides"  # 0.5 + 6 against 1 + 6: his powers are void this battle
    assert not is_suppressed(fought, "FREMEN-L03-a")  # lifted once the battle is settled


def test_karama_24_the_heuristic_planner_counts_the_voided_dispersion_leader():
    """LC-11 b for the bot (GAP-122): a plan hiding the Karama against the opposing secondary leader is valued
    with his powers void (Murbella attacking: 8, not 12), the card's price paid, not as a lost card only."""
    from dunenb.bots.battle_planner import KARAMA_VALUE, plan_values

    scene = (["atreides", "dispersion"], [("dispersion", "erg-mineur", 7, 3), ("atreides", "erg-mineur", 7, 12)],
             {"atreides": ("karama", "shield")})
    state = _to_plans(battle(*scene))
    assert state.pending.actor == "atreides"  # the defender plans first
    plain = SubmitPlan("atreides", "duncan-idaho", 9, 0, 0, defense="shield")
    hidden = SubmitPlan("atreides", "duncan-idaho", 9, 0, 0, defense="shield", karama="karama", against="KARAMA-24")
    without, with_karama = plan_values(state, [plain, hidden])
    assert with_karama > without - KARAMA_VALUE  # the voided powers are worth something to it
