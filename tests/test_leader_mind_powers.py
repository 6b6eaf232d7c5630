"""leaders.md K-11 VOICE, K-12 PRESCIENCE, K-13 TRUTH_TRANCE and K-2 WHEEL_MODIFIER per Voice command (D-24):
each secondary leader's entry played in a game that reaches the battle, and in a battle case."""

from __future__ import annotations

import dataclasses

import pytest
from helpers_game import decisions, events_of, pass_leader_karama, play_battle, skip_pre_battle
from test_battle_case_facts import error_of, side, winner
from test_powers_pre_battle import open_battle, pass_windows

from dunenb.battle.case import parse_case
from dunenb.battle.leader_mind import voice_roll
from dunenb.battle.powers import battle_values
from dunenb.engine import apply_action, check_action, legal_actions
from dunenb.rules.battle_context import context_of
from dunenb.rules.battle_phase import BattleDie, SubmitPlan
from dunenb.rules.pre_battle import AnswerPrescience, AskPrescience, UseVoice, VoiceRoll, offered
from dunenb.rules.traitors import leader_of
from dunenb.rules.truth_trance import AskTruthTrance

AREAS = {"arsunt": 5, "carthag": 4, "arrakeen": 1}


def scene(houses, *, area="arsunt", hands=None, tokens=3):
    """A battle between two Houses in ``area`` (``tokens`` each), past the Karama window of its start."""
    forces = [(house, area, AREAS[area], tokens) for house in houses]
    return pass_windows(open_battle(houses, forces, hands))


ASKING = ("battle-voice", "battle-prescience")


def until(state, house, power):
    """Pass every Voice or question before ``house``'s ``power`` (asserting it is offered)."""
    def offered_now(s):
        return s.pending.kind in ASKING and context_of(s).sequence.actor == (house, power)

    state = play_battle(state, until=offered_now, through=ASKING)
    if not offered_now(state):
        raise AssertionError(f"{power} was not offered to {house}")
    return state


def sources(state, step="voice"):
    seq = context_of(state).sequence
    return seq.voice_holders if step == "voice" else seq.prescience_holders


def plans(state, plans_by_house):
    """Set the plans in the order asked; ``plans_by_house``: House -> (leader, weapon, defence)."""
    return play_battle(state, {house: SubmitPlan(house, leader, 1, 0, 0, weapon, defence)
                               for house, (leader, weapon, defence) in plans_by_house.items()}, through=())


def at_plan_of(state, house, other_plan):
    """Set the other House's plan if it plans first, so that ``house``'s plan is asked."""
    other = next(h for h in context_of(state).houses if h != house)
    state = play_battle(state, {other: SubmitPlan(other, *other_plan)}, until=("battle-plan", house), through=())
    assert (state.pending.kind, state.pending.actor) == ("battle-plan", house)
    return state


# ---- K-11 VOICE: a leader's Voice in a game ------------------------------------------------------------

OPPONENT = ("guild", "soo-soo")


@pytest.mark.parametrize(("house", "leader", "power"), [
    pytest.param("atreides", "ghanima", "ATREIDES-L03-c", id="ATREIDES-L03-c"),
    pytest.param("atreides", "leto-ii", "ATREIDES-L04-c", id="ATREIDES-L04-c"),
    pytest.param("bene-gesserit", "alma", "BG-L01-a", id="BG-L01-a"),
    pytest.param("dispersion", "elpek", "DISPERSION-L04-c", id="DISPERSION-L04-c"),
    pytest.param("dispersion", "selena", "DISPERSION-L07-c", id="DISPERSION-L07-c"),
    pytest.param("emperor", "irulan", "EMPEROR-L07-b", id="EMPEROR-L07-b"),
    pytest.param("emperor", "wensicia", "EMPEROR-L08-c", id="EMPEROR-L08-c"),
    pytest.param("fremen", "leto-ii", "FREMEN-L11-b", id="FREMEN-L11-b"),
    pytest.param("fremen", "ghanima", "FREMEN-L12-b", id="FREMEN-L12-b"),
    pytest.param("harkonnen", "wanna", "HARKONNEN-L09-c", id="HARKONNEN-L09-c"),
])
def test_K_11_a_leaders_voice_binds_the_opponent_and_discloses_him(house, leader, power):
    """K-11 (LC-5 B2): in a battle he may lead, the leader's entry gives his House one more Voice command, as
    BG-P1; using it discloses him (LC-5 B1: the plan must name him); a d10 Voice is rolled openly (D-31)."""
    opp, opp_leader = OPPONENT
    state = until(scene([house, opp], hands={opp: ("poison-fast",)}), house, power)
    assert leader in state.houses[house].leaders
    state = pass_leader_karama(apply_action(state, UseVoice(house, "forbid", "poison")))
    if voice_roll(power) is not None:
        assert state.pending.kind == "battle-voice-roll"
        assert {a.value for a in decisions(state)} == set(range(1, 11))  # a chance node (LC-1)
        state = apply_action(state, VoiceRoll(house, voice_roll(power)))  # N succeeds
        assert events_of(state, "voice-roll")[0].data["given"] is True
    assert events_of(state, "voice")[0].data["power"] == power
    shown = context_of(state).shown
    assert [(s.house, s.leader) for s in shown] == [(house, leader)]
    state = skip_pre_battle(state)
    other = next(lid for lid in state.houses[house].leaders if lid != leader and not leader_of(house, lid).main)
    if state.pending.actor == house:
        error = check_action(state, SubmitPlan(house, other, 1, 0, 0))
        assert error is not None and error.code == "battle/leader-disclosed"
    state = at_plan_of(state, opp, (leader, 1, 0, 0))
    error = check_action(state, SubmitPlan(opp, opp_leader, 1, 0, 0, "poison-fast"))
    assert error is not None and error.code == "battle/bound-by-voice" and "forbade poison" in str(error)


@pytest.mark.parametrize(("house", "leader", "power"), [
    pytest.param("dispersion", "elpek", "DISPERSION-L04-c", id="DISPERSION-L04-c"),
    pytest.param("dispersion", "selena", "DISPERSION-L07-c", id="DISPERSION-L07-c"),
    pytest.param("emperor", "irulan", "EMPEROR-L07-b", id="EMPEROR-L07-b"),
    pytest.param("emperor", "wensicia", "EMPEROR-L08-c", id="EMPEROR-L08-c"),
    pytest.param("harkonnen", "wanna", "HARKONNEN-L09-c", id="HARKONNEN-L09-c"),
])
def test_K_11_a_failed_voice_roll_gives_no_command(house, leader, power):
    """K-11 d10≤N (GAP-101): on N+1 or more the stated command is not given: it binds nothing."""
    opp, opp_leader = OPPONENT
    state = until(scene([house, opp], hands={opp: ("poison-fast",)}), house, power)
    state = pass_leader_karama(apply_action(state, UseVoice(house, "forbid", "poison")))
    state = apply_action(state, VoiceRoll(house, voice_roll(power) + 1))
    assert events_of(state, "voice-roll")[0].data["given"] is False
    assert not context_of(state).sequence.voices_on(opp)
    state = at_plan_of(skip_pre_battle(state), opp, (leader, 1, 0, 0))
    assert check_action(state, SubmitPlan(opp, opp_leader, 1, 0, 0, "poison-fast")) is None


@pytest.mark.parametrize(("house", "leader", "power"), [
    pytest.param("atreides", "ghanima", "ATREIDES-L03-c", id="ATREIDES-L03-c"),
    pytest.param("atreides", "leto-ii", "ATREIDES-L04-c", id="ATREIDES-L04-c"),
    pytest.param("bene-gesserit", "alma", "BG-L01-a", id="BG-L01-a"),
    pytest.param("fremen", "leto-ii", "FREMEN-L11-b", id="FREMEN-L11-b"),
    pytest.param("fremen", "ghanima", "FREMEN-L12-b", id="FREMEN-L12-b"),
])
def test_K_11_a_once_a_turn_voice_is_offered_once_per_game_turn(house, leader, power):
    """K-11 ``1/turn``, ``+1/turn`` (LC-12: once per game turn, across all battles): used, it is recorded for
    the turn; a later battle of the same turn does not offer it, the next turn's does."""
    opp = OPPONENT[0]
    state = until(scene([house, opp]), house, power)
    state = pass_leader_karama(apply_action(state, UseVoice(house, "forbid", "lasgun")))
    assert (power, state.turn) in state.leader_power_uses
    fresh = scene([house, opp])  # another battle: offered unless used this turn
    assert (house, power) in offered(fresh, context_of(fresh), "voice")
    used = dataclasses.replace(fresh, leader_power_uses=state.leader_power_uses)
    assert (house, power) not in offered(used, context_of(used), "voice")
    next_turn = dataclasses.replace(used, turn=used.turn + 1)
    assert (house, power) in offered(next_turn, context_of(next_turn), "voice")


def test_K_11_a_leader_who_cannot_lead_here_gives_no_voice():
    """LC-12: only a leader who may lead this battle gives his Voice (Ghanima in the tanks gives none)."""
    state = open_battle(["atreides", "guild"], [("atreides", "arsunt", 5, 3), ("guild", "arsunt", 5, 3)],
                        dead={"atreides": "ghanima"})
    assert ("atreides", "ATREIDES-L03-c") not in sources(pass_windows(state))


def test_K_11_two_commands_in_one_battle_never_name_the_same_kind():
    """K-11: BG-P1 then Alma's extra command (BG-L01-a) may not name the kind BG-P1 named."""
    state = until(scene(["bene-gesserit", "guild"]), "bene-gesserit", "BG-P1")
    state = pass_leader_karama(apply_action(state, UseVoice("bene-gesserit", "forbid", "poison")))
    state = until(state, "bene-gesserit", "BG-L01-a")
    assert all(getattr(a, "card_kind", None) != "poison" for a in decisions(state))
    error = check_action(state, UseVoice("bene-gesserit", "force", "poison"))
    assert error is not None and error.code == "battle/voice"
    state = pass_leader_karama(apply_action(state, UseVoice("bene-gesserit", "forbid", "projectile")))
    assert [v.kind for v in context_of(state).sequence.voices_on("guild")] == ["poison", "projectile"]


# ---- K-11 VOICE in battle cases --------------------------------------------------------------------------

@pytest.mark.parametrize(("house", "leader", "power"), [
    pytest.param("atreides", "ghanima", "ATREIDES-L03-c", id="ATREIDES-L03-c"),
    pytest.param("atreides", "leto-ii", "ATREIDES-L04-c", id="ATREIDES-L04-c"),
    pytest.param("bene-gesserit", "alma", "BG-L01-a", id="BG-L01-a"),
    pytest.param("dispersion", "elpek", "DISPERSION-L04-c", id="DISPERSION-L04-c"),
    pytest.param("dispersion", "selena", "DISPERSION-L07-c", id="DISPERSION-L07-c"),
    pytest.param("emperor", "irulan", "EMPEROR-L07-b", id="EMPEROR-L07-b"),
    pytest.param("emperor", "wensicia", "EMPEROR-L08-c", id="EMPEROR-L08-c"),
    pytest.param("fremen", "leto-ii", "FREMEN-L11-b", id="FREMEN-L11-b"),
    pytest.param("fremen", "ghanima", "FREMEN-L12-b", id="FREMEN-L12-b"),
    pytest.param("harkonnen", "wanna", "HARKONNEN-L09-c", id="HARKONNEN-L09-c"),
])
def test_K_11_case_the_leader_on_the_wheel_gives_the_voice(house, leader, power):
    """A case states the leader's Voice (``by`` his House, the leader on its wheel): it binds the other side."""
    me, poisoned = side(house, leader), side("guild", "soo-soo", weapon="poison-fast")
    voice = {"voice": {"by": house, "mode": "forbid", "kind": "poison"}}
    raw = {"format": "dunenb.battle/1", "territory": "arsunt", "defender": house, "sides": [me, poisoned]}
    if house == "bene-gesserit":
        voice["voice"] = [{"by": house, "mode": "forbid", "kind": "lasgun"}, voice["voice"]]  # BG-P1 first
    assert "forbade poison" in error_of({**raw, **voice})
    case = parse_case({**raw, **voice, "sides": [me, side("guild", "soo-soo")]})
    assert case.sequence.voices[-1].power == power
    other = side(house, next(lid for lid in ("duncan-idaho", "murbella", "hasimir", "stilgar", "feyd-rautha",
                                             "darwi") if _own(house, lid)))
    if house != "bene-gesserit":
        assert "has no Voice" in error_of({**raw, **voice, "sides": [other, poisoned]})


def _own(house, lid):
    try:
        return leader_of(house, lid).house == house
    except KeyError:
        return False


# ---- K-2 WHEEL_MODIFIER per Voice command (D-24) ------------------------------------------------------------



def _values(houses, leaders, defender, voices):
    return battle_values(houses, tuple(leader_of(h, lid) for h, lid in zip(houses, leaders, strict=True)),
                         defender, territory="arsunt", voices=voices)


def _gap(houses, leaders, defender, her):
    values = _values(houses, leaders, defender, (0, 0))
    return values[her].leader_value - values[1 - her].leader_value + (1 if defender == her else 0)


@pytest.mark.parametrize(("leader", "power", "delta"), [
    pytest.param("murbella", "DISPERSION-L01-a", 3, id="DISPERSION-L01-a"),
    pytest.param("logno", "DISPERSION-L02-a", 3, id="DISPERSION-L02-a"),
    pytest.param("duana", "DISPERSION-L03-a", 3, id="DISPERSION-L03-a"),
    pytest.param("elpek", "DISPERSION-L04-a", 3, id="DISPERSION-L04-a"),
    pytest.param("fiona", "DISPERSION-L05-a", 2, id="DISPERSION-L05-a"),
    pytest.param("angelika", "DISPERSION-L06-a", 2, id="DISPERSION-L06-a"),
    pytest.param("selena", "DISPERSION-L07-a", 1, id="DISPERSION-L07-a"),
    pytest.param("hellica", "DISPERSION-L08-a", 1, id="DISPERSION-L08-a"),
])
def test_K_2_a_matre_gains_per_voice_command_against_her_side_in_a_game(leader, power, delta):
    """D-24: the Honored Matre adds delta per Voice command given against the Dispersion in this battle, obeyed
    or not (here BG-P1 forbids a lasgun nobody holds): the BG dial that beats her without the Voice loses."""
    outcomes = {}
    for voiced in (False, True):
        state = until(scene(["bene-gesserit", "dispersion"], tokens=12), "bene-gesserit", "BG-P1")
        if voiced:
            state = pass_leader_karama(apply_action(state, UseVoice("bene-gesserit", "forbid", "lasgun")))
        state = skip_pre_battle(state)
        ctx = context_of(state)
        houses, her = ctx.houses, ctx.houses.index("dispersion")
        defender = houses.index(ctx.defender)
        bg = next(lid for lid in ("talamane", "margot", "bellonda", "darwi") if 0 <= _gap(
            houses, tuple(leader if h == "dispersion" else lid for h in houses), defender, her) <= 6)
        leaders = tuple(leader if h == "dispersion" else bg for h in houses)
        plain = _values(houses, leaders, defender, (0, 0))
        count = [0, 0]
        count[her] = 1
        with_voice = _values(houses, leaders, defender, tuple(count))
        assert with_voice[her].leader_value - plain[her].leader_value == delta
        assert power in with_voice[her].powers and power not in plain[her].powers
        # her value, plus one if she defends (a tie goes to the defender, BATTLE-14), in half-value tokens
        gap = plain[her].leader_value - plain[1 - her].leader_value + (1 if defender == her else 0)
        dial = int(2 * gap)
        assert 0 <= dial <= 12
        # leaders.md K-19 (BG-L11-b...): the buy-off is passed; a traitor call only when it is the one option
        state = play_battle(state, {"bene-gesserit": SubmitPlan("bene-gesserit", bg, dial, 0, 0),
                                    "dispersion": SubmitPlan("dispersion", leader, 0, 0, 0)},
                            through=("leader-buy-off",))
        while state.pending is not None and state.pending.kind == "battle-d10":  # Fiona's K-17 regen roll
            state = play_battle(apply_action(state, BattleDie(context_of(state).roller, 10)))
        outcomes[voiced] = events_of(state, "battle-outcome")[0].data["winner"]
    assert outcomes == {False: "bene-gesserit", True: "dispersion"}


@pytest.mark.parametrize(("leader", "power", "delta"), [
    pytest.param("murbella", "DISPERSION-L01-a", 3, id="DISPERSION-L01-a"),
    pytest.param("logno", "DISPERSION-L02-a", 3, id="DISPERSION-L02-a"),
    pytest.param("duana", "DISPERSION-L03-a", 3, id="DISPERSION-L03-a"),
    pytest.param("elpek", "DISPERSION-L04-a", 3, id="DISPERSION-L04-a"),
    pytest.param("fiona", "DISPERSION-L05-a", 2, id="DISPERSION-L05-a"),
    pytest.param("angelika", "DISPERSION-L06-a", 2, id="DISPERSION-L06-a"),
    pytest.param("selena", "DISPERSION-L07-a", 1, id="DISPERSION-L07-a"),
    pytest.param("hellica", "DISPERSION-L08-a", 1, id="DISPERSION-L08-a"),
])
def test_K_2_case_the_voices_against_the_matre_count(leader, power, delta):
    """D-24 in a case: each Voice the case states against her side adds delta (two BG commands: twice), and
    the case's winner follows."""
    houses = ("bene-gesserit", "dispersion")
    plain = _values(houses, ("alma", leader), 0, (0, 0))[1].leader_value
    bg = _values(houses, ("alma", leader), 0, (0, 0))[0].leader_value
    dial = int(2 * (plain - bg))  # BG ties her without the Voice and wins as defender (half-value tokens)
    raw = {"format": "dunenb.battle/1", "territory": "arsunt", "defender": "bene-gesserit",
           "sides": [side("bene-gesserit", "alma", dial=dial, tokens=20), side("dispersion", leader, dial=0)]}
    one = [{"by": "bene-gesserit", "mode": "forbid", "kind": "lasgun"}]
    two = one + [{"by": "bene-gesserit", "mode": "forbid", "kind": "atomics"}]  # BG-P1, then Alma's (BG-L01-a)
    counts = [parse_case({**raw, **({"voice": v} if v else {})}).sides[1].side.voices_against
              for v in (None, one, two)]
    assert counts == [0, 1, 2]
    values = [_values(houses, ("alma", leader), 0, (0, n))[1].leader_value for n in counts]
    assert values[1] - values[0] == delta and values[2] - values[0] == 2 * delta
    assert winner(raw) == "bene-gesserit" and winner({**raw, "voice": one}) == "dispersion"


# ---- K-12 PRESCIENCE -------------------------------------------------------------------------------------

ASKED = ("harkonnen", "feyd-rautha")


@pytest.mark.parametrize(("house", "leader", "power", "slots", "area"), [
    pytest.param("bene-gesserit", "alia", "BG-L06-c", ("attack",), "arsunt", id="BG-L06-c"),
    pytest.param("fremen", "alia", "FREMEN-L07-c", ("attack",), "arsunt", id="FREMEN-L07-c"),
    pytest.param("guild", "edric", "GUILD-L01-c", ("attack", "defence"), "arsunt", id="GUILD-L01-c"),
    pytest.param("guild", "alberic", "GUILD-L02-c", ("attack", "defence"), "arsunt", id="GUILD-L02-c"),
    pytest.param("guild", "sapic", "GUILD-L03-c", ("attack",), "arsunt", id="GUILD-L03-c"),
    pytest.param("guild", "ludwic", "GUILD-L04-c", ("defence",), "arsunt", id="GUILD-L04-c"),
    pytest.param("guild", "tolric", "GUILD-L05-c", ("attack", "defence"), "carthag", id="GUILD-L05-c"),
    pytest.param("guild", "olmric", "GUILD-L06-c", ("attack", "defence"), "arrakeen", id="GUILD-L06-c"),
])
def test_K_12_a_leaders_question_binds_the_answer_within_his_scope(house, leader, power, slots, area):
    """K-12 (LC-5 B3): one more question as ATREIDES-P1 in a battle he may lead, only about his scope's slots
    and only where stated; the answer binds; asking discloses him (LC-5 B1)."""
    opp, opp_leader = ASKED
    hands = {opp: ("poison-fast", "projectile-distance", "shield")}
    state = until(scene([house, opp], area=area, hands=hands), house, power)
    assert {a.slot for a in decisions(state) if isinstance(a, AskPrescience)} == set(slots)
    bad = {"attack", "defence"} - set(slots)
    if bad:
        error = check_action(state, AskPrescience(house, bad.pop()))
        assert error is not None and error.code == "battle/prescience"
    slot = slots[0]
    state = pass_leader_karama(apply_action(state, AskPrescience(house, slot)))
    assert events_of(state, "prescience")[0].data["power"] == power
    assert (house, leader) in [(s.house, s.leader) for s in context_of(state).shown]
    state = play_battle(state, until="battle-answer")
    answer = "poison" if slot == "attack" else "shield"
    state = skip_pre_battle(apply_action(state, AnswerPrescience(opp, answer)))
    state = at_plan_of(state, opp, (leader, 1, 0, 0))
    card = "projectile-distance" if slot == "attack" else "none"
    error = check_action(state, SubmitPlan(opp, opp_leader, 1, 0, 0, card,
                                           "shield" if slot == "attack" else "none"))
    assert error is not None and error.code == "battle/bound-by-voice"


@pytest.mark.parametrize(("power", "leader", "area", "elsewhere"), [
    pytest.param("GUILD-L05-c", "tolric", "carthag", "arrakeen", id="GUILD-L05-c"),
    pytest.param("GUILD-L06-c", "olmric", "arrakeen", "carthag", id="GUILD-L06-c")])
def test_K_12_where_a_question_is_only_offered_in_its_territory(power, leader, area, elsewhere):
    assert ("guild", power) in sources(scene(["guild", "harkonnen"], area=area), "prescience")
    assert ("guild", power) not in sources(scene(["guild", "harkonnen"], area=elsewhere), "prescience")


def test_K_12_the_same_question_is_never_asked_twice():
    """GAP-102: a House with two questions (Edric after GUILD-M2, in its own battle turn) may not ask the same
    slot twice."""
    state = scene(["guild", "harkonnen"])
    holders = [power for house, power in sources(state, "prescience") if house == "guild"]
    assert "GUILD-L01-c" in holders
    assert holders[0] == "GUILD-M2"  # the Guild defends: its own battle turn
    state = until(state, "guild", "GUILD-M2")
    state = pass_leader_karama(apply_action(state, AskPrescience("guild", "attack")))
    state = until(state, "guild", "GUILD-L01-c")
    assert {a.slot for a in decisions(state) if isinstance(a, AskPrescience)} == {"defence"}
    error = check_action(state, AskPrescience("guild", "attack"))
    assert error is not None and error.code == "battle/prescience"


@pytest.mark.parametrize(("house", "leader", "power", "slots", "area"), [
    pytest.param("bene-gesserit", "alia", "BG-L06-c", ("attack",), "arsunt", id="BG-L06-c"),
    pytest.param("fremen", "alia", "FREMEN-L07-c", ("attack",), "arsunt", id="FREMEN-L07-c"),
    pytest.param("guild", "edric", "GUILD-L01-c", ("attack", "defence"), "arsunt", id="GUILD-L01-c"),
    pytest.param("guild", "alberic", "GUILD-L02-c", ("attack", "defence"), "arsunt", id="GUILD-L02-c"),
    pytest.param("guild", "sapic", "GUILD-L03-c", ("attack",), "arsunt", id="GUILD-L03-c"),
    pytest.param("guild", "ludwic", "GUILD-L04-c", ("defence",), "arsunt", id="GUILD-L04-c"),
    pytest.param("guild", "tolric", "GUILD-L05-c", ("attack", "defence"), "carthag", id="GUILD-L05-c"),
    pytest.param("guild", "olmric", "GUILD-L06-c", ("attack", "defence"), "arrakeen", id="GUILD-L06-c"),
])
def test_K_12_case_the_leader_on_the_wheel_asks(house, leader, power, slots, area):
    raw = {"format": "dunenb.battle/1", "territory": area, "defender": "harkonnen",
           "sides": [side("harkonnen", "feyd-rautha", weapon="projectile-distance"), side(house, leader)]}
    question = {"prescience": {"by": house, "slot": slots[0], "answer": "poison" if slots[0] == "attack"
                               else "none"}}
    if slots[0] == "attack":
        assert "answer was poison" in error_of({**raw, **question})
    ok = {**raw, **question, "sides": [side("harkonnen", "feyd-rautha", weapon="poison-fast"), side(house, leader)]}
    if slots[0] == "attack":
        assert parse_case(ok).sequence.questions[-1].power == power
    bad = {"attack", "defence"} - set(slots)
    if bad:
        wrong = {"prescience": {"by": house, "slot": bad.pop(), "answer": "none"}}
        assert "slot" in error_of({**raw, **wrong})


# ---- K-13 TRUTH_TRANCE -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("house", "leader", "power", "count"), [
    pytest.param("bene-gesserit", "bellonda", "BG-L04-a", 1, id="BG-L04-a"),
    pytest.param("guild", "alberic", "GUILD-L02-d", 2, id="GUILD-L02-d"),
    pytest.param("guild", "sapic", "GUILD-L03-d", 1, id="GUILD-L03-d"),
])
def test_K_13_a_leaders_truth_trances_in_his_battle(house, leader, power, count):
    """K-13 (GAP-104): before its plan in a battle the leader may lead, his House asks ``count`` truth trances
    with his entry (CARD-TRUTH: true answers, told to the asker only); the first discloses him, the plan must
    name him; then none is left in this battle."""
    opp = "harkonnen"
    state = skip_pre_battle(scene([house, opp], hands={opp: ("poison-fast",)}))
    state = at_plan_of(state, house, ("feyd-rautha", 1, 0, 0))
    question = AskTruthTrance(house, opp, "holds", "poison", means=power)
    assert question in legal_actions(state)
    for _ in range(count):
        assert check_action(state, question) is None
        state = apply_action(state, question)
        assert state.houses[house].trance_answers[-1][-1] is True  # Feyd's House holds a poison
        assert events_of(state, "truth-trance")[0].data["power"] == power
    error = check_action(state, question)
    assert error is not None and error.code == "truth-trance/means"
    assert [(s.house, s.leader) for s in context_of(state).shown] == [(house, leader)]
    other = next(lid for lid in state.houses[house].leaders if lid != leader and not leader_of(house, lid).main)
    error = check_action(state, SubmitPlan(house, other, 1, 0, 0))
    assert error is not None and error.code == "battle/leader-disclosed"
    assert check_action(state, SubmitPlan(house, leader, 1, 0, 0)) is None


def test_K_13_no_leader_trance_where_he_cannot_lead():
    """LC-12: Bellonda in the tanks gives the BG no trance."""
    state = open_battle(["bene-gesserit", "harkonnen"], [("bene-gesserit", "arsunt", 5, 3),
                                                         ("harkonnen", "arsunt", 5, 3)], dead={"bene-gesserit":
                                                                                               "bellonda"})
    state = at_plan_of(skip_pre_battle(pass_windows(state)), "bene-gesserit", ("feyd-rautha", 1, 0, 0))
    assert not any(getattr(a, "means", "") == "BG-L04-a" for a in legal_actions(state))


def test_GAP_105_a_second_command_never_forces_a_slot_already_forced():
    """GAP-105: after BG-P1 forces a shield, Alma's extra command (BG-L01-a) may not force a snooper (one
    defence slot: an Emperor holding both could obey neither); it may still forbid one, or force an attack."""
    state = until(scene(["bene-gesserit", "emperor"], hands={"emperor": ("shield", "snooper")}), "bene-gesserit",
                  "BG-P1")
    state = pass_leader_karama(apply_action(state, UseVoice("bene-gesserit", "force", "shield")))
    state = until(state, "bene-gesserit", "BG-L01-a")
    menu = {(a.mode, a.card_kind) for a in decisions(state) if isinstance(a, UseVoice)}
    assert ("force", "snooper") not in menu and ("forbid", "snooper") in menu and ("force", "poison") in menu
    error = check_action(state, UseVoice("bene-gesserit", "force", "snooper"))
    assert error is not None and error.code == "battle/voice" and "GAP-105" in str(error)
    state = skip_pre_battle(pass_leader_karama(apply_action(state, UseVoice("bene-gesserit", "forbid", "snooper"))))
    state = at_plan_of(state, "emperor", ("alma", 1, 0, 0))
    plans = [a for a in decisions(state) if isinstance(a, SubmitPlan)]
    # GAP-127: the forced shield binds every leader who may play a Shield card; Tyekanik (EMPEROR-L02, K-8, GAP-91)
    # wears one and may add none, so his plans are free of it
    assert {a.defense for a in plans if a.leader != "tyekanik"} == {"shield"}
    assert {a.defense for a in plans if a.leader == "tyekanik"} <= {"none", "snooper"}


def test_GAP_105_case_a_slot_forced_twice_is_refused():
    raw = {"format": "dunenb.battle/1", "territory": "arsunt", "defender": "bene-gesserit",
           "sides": [side("bene-gesserit", "alma"), side("emperor", "hasimir")],
           "voice": [{"by": "bene-gesserit", "mode": "force", "kind": "shield"},
                     {"by": "bene-gesserit", "mode": "force", "kind": "snooper"}]}
    assert "voice[1].kind" in error_of(raw)
