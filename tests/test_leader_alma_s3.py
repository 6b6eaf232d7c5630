"""leaders.md K-25 S-3 (BG-L01-c, L781): "Alma as X" in games: one composite leader key (GAP-141) through the
plan menu, the disclosures (GAP-142), the values, the traitor calls, the tanks, the bounty and a saved game."""

from __future__ import annotations

import dataclasses

import pytest
from helpers_game import decisions, events_of, pass_leader_karama, play_battle, play_chance
from test_leader_weapon_games import _position

from dunenb.action_text import describe
from dunenb.battle import alias
from dunenb.battle.case import parse_case
from dunenb.battle.powers import battle_values
from dunenb.battle.resolve import resolve_battle
from dunenb.engine import apply_action, check_action, current_player, make_config
from dunenb.errors import InputError
from dunenb.play import advance
from dunenb.record import GameRecord
from dunenb.rules.battle_context import LeaderShown, context_of
from dunenb.rules.battle_phase import CallTraitor, ChooseBattle, SubmitPlan, battle_of
from dunenb.rules.leader_pre_battle import UsePreBattle
from dunenb.rules.pre_battle import may_lead
from dunenb.rules.traitors import leader_of
from dunenb.saves import load_game, save_game
from dunenb.state import state_digest

BG = "bene-gesserit"


def _arsunt(opponent: str, *, hands=None):
    return _position([BG, opponent], [(BG, "arsunt", 5, 4), (opponent, "arsunt", 5, 4)], hands or {})


def _plan(house: str, leader: str, **cards: str) -> SubmitPlan:
    return SubmitPlan(house, leader, 1, 0, 0, **cards)


def _at_calls(state, plans):
    """Both plans set and revealed: the state at the traitor calls (TRAITOR-8), before the resolution."""
    return play_battle(state, plans, until="traitor-call")


def _values(state):
    battle = battle_of(state, context_of(state))
    sides = battle.sides
    return battle_values([s.house for s in sides], [s.plan.leader for s in sides], 0, territory=battle.territory)


def test_bg_l01_c_alma_as_murbella_is_offered_and_has_murbellas_power_on_almas_base_4():
    state = _arsunt("harkonnen")
    menu = [a for a in decisions(state) if isinstance(a, SubmitPlan) and a.house == BG]
    keys = {a.leader for a in menu}
    assert {"alma+murbella", "alma+jessica", "alma+darwi"} <= keys  # one composite per other BG secondary leader
    assert not any(k.startswith("alma+gaius") or k == "alma+alma" for k in keys)  # never the main leader, never Alma
    assert any(a.leader == "alma+murbella" and a.weapon == "karate" for a in menu)  # BG-L12-c, X's built-in weapon
    state = _at_calls(state, {BG: _plan(BG, "alma+murbella"), "harkonnen": _plan("harkonnen", "piter")})
    ours, theirs = _values(state)
    assert ours.leader_value == 4  # Alma's base, not Murbella's 10
    assert theirs.leader_value == 2  # BG-L12-b: -2 on a male opponent (Piter 4)
    revealed = [e for e in events_of(state, "plan-revealed") if e.data["house"] == BG]
    assert revealed[0].data["leader"] == "alma+murbella"
    assert leader_of(BG, "alma+murbella").name == "Alma as Murbella"  # the wheel shows "Alma as X" (B6)
    assert "Alma as Murbella" in describe(_plan(BG, "alma+murbella"))


def test_bg_l01_c_x_traits_do_not_come_irulans_disarm_against_shaddam_stays_behind():
    state = _position([BG, "emperor"], [(BG, "arsunt", 5, 4), ("emperor", "arsunt", 5, 4)], {})
    plain = _values(_at_calls(state, {BG: _plan(BG, "irulan"), "emperor": _plan("emperor", "shaddam-iv")}))
    assert plain[0].leader_value == 0  # BG-L07-b, a trait (LC-10): Irulan is disarmed facing Shaddam
    composite = _values(_at_calls(state, {BG: _plan(BG, "alma+irulan"), "emperor": _plan("emperor", "shaddam-iv")}))
    assert composite[0].leader_value == 4 and not composite[0].disarmed
    powers = {p.id for p in leader_of(BG, "alma+irulan").powers}
    assert "BG-L07-a" in powers and "BG-L07-b" not in powers  # X's power comes, X's trait does not
    talamane = {p.id for p in leader_of(BG, "alma+talamane").powers}
    assert "BG-L11-a" in talamane and "BG-L11-c" not in talamane  # K-21 one_battle_per_turn is a trait


def test_bg_l01_c_gap_142_alma_as_margot_uses_margots_pre_battle_and_after_battle_powers():
    state = _position([BG, "harkonnen"], [(BG, "arsunt", 5, 4), ("harkonnen", "arsunt", 5, 4)],
                      {"harkonnen": ("shield", "snooper")}, rolls=False)
    state = play_battle(state, until="leader-pre-battle")
    use = UsePreBattle(BG, "alma+margot", "BG-L08-b")  # K-16 see_card, X's power, committed as "Alma as Margot"
    assert use in decisions(state) and UsePreBattle(BG, "margot", "BG-L08-b") in decisions(state)
    state = pass_leader_karama(apply_action(state, use))  # LC-11 a (GAP-151): the Harkonnen may Karama her use
    assert [(e.data["leader"], e.data["power"]) for e in events_of(state, "leader-disclosed")] == [
        ("alma+margot", "BG-L08-b")]
    assert LeaderShown(BG, "alma+margot", "BG-L08-b") in context_of(state).shown
    state = play_chance(state)
    state = play_battle(state, until=("battle-plan", BG))
    assert _plan_leaders(state) == {"alma+margot"}  # the disclosed composite binds the plan (GAP-142)
    done = play_battle(state, {BG: _plan(BG, "alma+margot"), "harkonnen": _plan("harkonnen", "piter")},
                       only_pass=("traitor-call",), past_outcome=True, until=lambda s: current_player(s) == "chance")
    assert done.pending.kind == "on-call-draw"  # K-17 steal_random (BG-L08-c, win+alive): X's after-battle power
    done = play_chance(done)
    assert len(done.houses[BG].hand) == 1 and len(done.houses["harkonnen"].hand) == 1


def _with_slips(state, house: str, *slips: tuple[str, str]):
    hs = state.houses[house]
    return dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(hs, traitors=slips)))


def test_bg_l01_c_no_treachery_on_alma_as_x_though_the_opponent_holds_almas_and_xs_slips():
    state = _with_slips(_arsunt("harkonnen"), "harkonnen", (BG, "alma"), (BG, "darwi"))
    plain = _at_calls(state, {BG: _plan(BG, "darwi"), "harkonnen": _plan("harkonnen", "piter")})
    assert plain.pending.kind == "traitor-call"
    while plain.pending.actor != "harkonnen":
        plain = play_battle(plain, {}, only_pass=("traitor-call",), until=("traitor-call", "harkonnen"))
    assert CallTraitor("harkonnen", "darwi") in decisions(plain)  # control: Darwi alone can be called
    # Wanna (BG-L10-b) is always a traitor of the Harkonnen: a trait, it stays behind too
    for x in ("darwi", "wanna"):
        state = _with_slips(state, "harkonnen", (BG, "alma"), (BG, x))
        done = play_battle(state, {BG: _plan(BG, f"alma+{x}"), "harkonnen": _plan("harkonnen", "piter")},
                           only_pass=("traitor-call",))
        assert any(e.kind == "battle-outcome" for e in done.events)  # nobody had a call to make
        assert [e.data["traitor_called_by"] for e in events_of(done, "battle-outcome")] == [()]


def test_bg_l01_c_only_alma_dies_as_alma_as_darwi_and_the_bounty_is_her_base_4():
    state = _arsunt("harkonnen", hands={"harkonnen": ("projectile-distance",)})
    spice = state.houses["harkonnen"].spice
    done = play_battle(state, {BG: _plan(BG, "alma+darwi"),
                               "harkonnen": _plan("harkonnen", "piter", weapon="projectile-distance")},
                       only_pass=("traitor-call",))
    bg = done.houses[BG]
    assert "alma" in bg.leader_tanks and "alma" not in bg.leaders
    assert "darwi" in bg.leaders and "darwi" not in bg.leader_tanks and (BG, "darwi") not in done.captured
    assert not any("+" in key for key in bg.leaders + bg.leader_tanks)
    assert [e.data["leader"] for e in events_of(done, "leader-killed")] == ["alma"]
    assert [(e.data["house"], e.data["amount"]) for e in events_of(done, "bounty")] == [("harkonnen", 4)]
    assert done.houses["harkonnen"].spice == spice + 4  # Darwi is 7: the bounty uses Alma's base


def _second_battle(first: str):
    """Two battles of the BG against the Harkonnen this turn: Arsunt first, led by ``first``; the state at the
    BG's plan in Carthag."""
    state = _position([BG, "harkonnen"], [(BG, "arsunt", 5, 4), ("harkonnen", "arsunt", 5, 4),
                                          (BG, "carthag", 4, 4), ("harkonnen", "carthag", 4, 4)], {})
    state = apply_action(state, ChooseBattle(BG, "arsunt", 5, "harkonnen"))
    return play_battle(state, {BG: _plan(BG, first), "harkonnen": _plan("harkonnen", "piter")},
                       only_pass=("traitor-call",), past_outcome=True,
                       until=lambda s: s.pending.kind == "battle-plan" and s.pending.actor == BG
                       and context_of(s).area == "carthag")


def _plan_leaders(state) -> set[str]:
    return {a.leader for a in decisions(state) if isinstance(a, SubmitPlan)}


def test_bg_l01_c_x_may_fight_another_battle_the_same_turn_alma_may_not():
    state = _second_battle("alma+murbella")
    assert [c for c in context_of(state).committed if c[0] == BG] == [(BG, "alma", "arsunt")]  # Alma fought
    leaders = _plan_leaders(state)
    assert "murbella" in leaders  # X was not engaged (and her one_battle_per_turn trait was never used)
    assert "alma" not in leaders and not any(alias.is_alias(k) for k in leaders)  # BATTLE-15: Alma fought
    # the other way round: Murbella fought in Arsunt, "Alma as Murbella" may still be committed in Carthag
    leaders = _plan_leaders(_second_battle("murbella"))
    assert "alma+murbella" in leaders and "murbella" not in leaders and "alma" in leaders


def test_bg_l01_c_a_disclosure_of_alma_or_x_keeps_the_composite_gap_142():
    state = _arsunt("harkonnen")
    ctx = context_of(state)
    shown = dataclasses.replace(ctx, shown=(LeaderShown(BG, "jessica", "BG-L05-b"),))
    bound = dataclasses.replace(state, pending=dataclasses.replace(state.pending, detail={
        **state.pending.detail, "battle": shown}))
    assert set(may_lead(bound, shown, BG)) == {"jessica", "alma+jessica"}
    assert check_action(bound, _plan(BG, "alma+jessica")) is None
    assert check_action(bound, _plan(BG, "alma+darwi")) is not None


def test_bg_l01_c_a_saved_game_with_alma_as_x_replays_to_the_same_digest(tmp_path):
    record = GameRecord(make_config([BG, "harkonnen"], seed=8))
    node = record.root
    for _ in range(20000):
        state = record.state_at(node)
        assert not state.is_over, "no battle plan of the BG in this game"
        if state.pending is not None and state.pending.kind == "battle-plan" and state.pending.actor == BG:
            composite = next((a for a in decisions(state)
                              if isinstance(a, SubmitPlan) and alias.is_alias(a.leader)), None)
            if composite is not None:
                node = record.add_move(node, composite)
                break
        node = advance(record, node, until="step", seed=8)
    node = advance(record, node, until="turn", seed=8)
    assert any(e.kind == "plan-revealed" and alias.is_alias(e.data["leader"]) for e in record.state_at(node).events
               ) or any(alias.is_alias(getattr(a, "leader", "")) for a in record.actions_to(node))
    path = tmp_path / "alma.json"
    save_game(record, path, current=node)
    loaded = load_game(path)
    assert loaded.mainline() == record.mainline()
    assert state_digest(loaded.state_at(node)) == state_digest(record.state_at(node))


def _case(bg_leader: str, **harkonnen):
    side = {"tokens": {"regular": 3}, "dial": {"regular": 1}}
    return parse_case({"format": "dunenb.battle/1", "territory": "arsunt", "defender": BG, "sides": [
        {**side, "house": BG, "leader": bg_leader}, {**side, "house": "harkonnen", "leader": "piter", **harkonnen}]})


def test_bg_l01_c_a_battle_case_states_alma_as_x_and_no_slip_is_called_on_her():
    slips = {"traitors": ["alma", "murbella"]}
    (odds, plain), = resolve_battle(_case("alma", **slips).battle)
    assert plain.traitor_called_by == ("harkonnen",)  # control: Alma alone is called
    case = _case("Alma+Murbella", **slips)
    assert case.battle.sides[0].plan.leader.name == "Alma as Murbella"
    (odds, outcome), = resolve_battle(case.battle)
    assert outcome.traitor_called_by == () and outcome.winner == BG
    assert outcome.sides[0].leader == "alma+murbella" and "BG-L12-b" in outcome.sides[0].powers
    with pytest.raises(InputError) as error:
        _case("jessica+murbella")
    assert error.value.code == "case/field" and "S-3" in error.value.message


def test_bg_l01_c_gap_141_a_karama_against_the_committed_composite_leaves_her_committed():
    """LC-11 a against "Alma as X" (conformance seed 177): the Karama voids her powers for the battle, but not the
    S-3 entry that already acted when she was committed (GAP-141), so the disclosed composite may still lead."""
    from dunenb.battle.leader_karama import voidable_powers

    composite = leader_of(BG, "alma+margot")
    voided = voidable_powers(composite)
    assert "BG-L01-c" not in voided and {"BG-L01-a", "BG-L08-b"} <= voided
    assert "BG-L01-c" in voidable_powers(leader_of(BG, "alma"))  # plain Alma: a Karama stops a commitment as X
