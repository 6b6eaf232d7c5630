"""Issue 11 item 2: leaders.md K-10 IMMUNITY and K-14 KILL in battles (dunenb.battle.immunities).

Each power ID plays its scene: a battle where the attack, the Voice, the prescience answer or the House power
it is immune to changes the outcome (or the plans allowed) with the entry, and does not without it (the same
leader with that one entry removed). Game scenes check the same predicate where the game applies it.
"""

from __future__ import annotations

import dataclasses

import pytest
import test_powers_pre_battle as pre
from helpers_game import PASS_FIRST, decisions, play_battle

from dunenb.actions import Pass
from dunenb.battle import immunities
from dunenb.battle.case import case_outcomes, parse_case
from dunenb.battle.plans import Battle, BattlePlan, BattleSide, traitor_names
from dunenb.battle.powers import battle_values
from dunenb.battle.resolve import resolve_battle, resolve_with_rolls
from dunenb.battle.roster import Leader, inline_leader, load_roster
from dunenb.battle.sequence import (
    BattleSequence,
    PrescienceAnswer,
    PrescienceQuestion,
    VoiceCommand,
    plan_violations,
)
from dunenb.battle.wheel import Dial, Tokens
from dunenb.engine import apply_action, check_action
from dunenb.errors import InputError
from dunenb.rules.battle_phase import SubmitPlan
from dunenb.rules.pre_battle import AnswerPrescience, AskPrescience, UseVoice

ROSTER = load_roster()


def _holder(power_id: str) -> Leader:
    return next(leader for leader in ROSTER.leaders if any(p.id == power_id for p in leader.powers))


def _without(leader: Leader, power_id: str) -> Leader:
    return dataclasses.replace(leader, powers=tuple(p for p in leader.powers if p.id != power_id))


def _plain_leader(house: str) -> str:
    """A secondary leader of ``house`` always in play (no EXCLUSIVE entry) and not immune to prescience."""
    return next(leader.id for leader in ROSTER.leaders if leader.house == house and not leader.main
                and immunities.prescience_protection(leader) is None
                and not any(power.kind == "EXCLUSIVE" for power in leader.powers))


def _foe_house(leader: Leader) -> str:
    return "emperor" if leader.house == "guild" else "guild"


def _fight(holder: Leader, weapon: str | None, *, defense: str | None = None, house: str | None = None,
           foe: Leader | None = None, foe_house: str | None = None, traitors: tuple[str, ...] = (),
           territory: str = "mesa-molle") -> Battle:
    """The holder (side 0, defender) with no card, against ``foe`` (an inline 5 by default) attacking with
    ``weapon``."""
    foe_house = foe_house or _foe_house(holder)
    dial = Dial(0) if "ATREIDES-L12-a" in {p.id for p in holder.powers} else Dial(1)  # Miles Teg: no army (K-21)
    mine = BattleSide(house or holder.house, Tokens(3), BattlePlan(dial, holder, defense=defense))
    theirs = BattleSide(foe_house, Tokens(3), BattlePlan(Dial(1), foe or inline_leader("Foe", 5), weapon=weapon),
                        traitors=traitor_names(traitors))
    return Battle(territory, mine.house, (mine, theirs))


def _fate(battle: Battle) -> tuple[str, tuple[str, ...]]:
    outcomes = resolve_battle(battle)
    assert len(outcomes) == 1, outcomes
    side = outcomes[0][1].sides[0]
    return side.leader_fate, side.powers


def _spares(power_id: str, weapon: str) -> None:
    """With the entry the holder survives ``weapon`` and the entry is listed; without it he dies."""
    holder = _holder(power_id)
    fate, powers = _fate(_fight(holder, weapon))
    assert fate == "alive" and power_id in powers
    assert _fate(_fight(_without(holder, power_id), weapon))[0] == "dead"


# ------------------------------------------------------------------------------------------------ poisons
@pytest.mark.parametrize("power_id", [
    pytest.param("ATREIDES-L03-b", id="ATREIDES-L03-b"), pytest.param("ATREIDES-L04-b", id="ATREIDES-L04-b"),
    pytest.param("FREMEN-L06-b", id="FREMEN-L06-b"), pytest.param("TLEILAX-L11-d", id="TLEILAX-L11-d"),
])
def test_K_10_poison_all_no_poison_kills_him(power_id):
    """IMMUNITY(poison_all): neither a fast nor a slow poison kills him; a projectile still does."""
    _spares(power_id, "poison-fast")
    _spares(power_id, "poison-slow")
    assert _fate(_fight(_holder(power_id), "projectile-distance"))[0] == "dead"


@pytest.mark.parametrize("power_id", [
    pytest.param("ATREIDES-L05-d", id="ATREIDES-L05-d"), pytest.param("BG-L01-b", id="BG-L01-b"),
    pytest.param("BG-L05-d", id="BG-L05-d"), pytest.param("FREMEN-L11-d", id="FREMEN-L11-d"),
    pytest.param("FREMEN-L12-d", id="FREMEN-L12-d"), pytest.param("HARKONNEN-L05-b", id="HARKONNEN-L05-b"),
])
def test_K_10_poison_slow_the_slow_poison_does_not_kill_him(power_id):
    """IMMUNITY(poison_slow): the slow poison does not kill him; the fast one does, except against Iakin Néfud,
    on whom a fast poison acts as slow (K-9 HARKONNEN-L05-c), so that it spares him too."""
    _spares(power_id, "poison-slow")
    expected = "alive" if power_id == "HARKONNEN-L05-b" else "dead"
    assert _fate(_fight(_holder(power_id), "poison-fast"))[0] == expected


def test_K_10_LC_9_D_14_a_captive_has_no_immunity():
    """Ghanima played by the Harkonnen (captured): her ATREIDES-L03-b is a power, so it is off (D-14)."""
    ghanima = _holder("ATREIDES-L03-b")
    assert _fate(_fight(ghanima, "poison-fast", house="harkonnen"))[0] == "dead"


def test_K_10_LC_11_a_karama_blocks_the_immunity():
    ghanima = _holder("ATREIDES-L03-b")
    battle = _fight(ghanima, "poison-fast")
    blocked = dataclasses.replace(battle.sides[0], blocked=frozenset({"ATREIDES-L03-b"}))
    assert _fate(dataclasses.replace(battle, sides=(blocked, battle.sides[1])))[0] == "dead"


# ------------------------------------------------------------------------------------------------ Miles Teg
def test_atreides_l12_c_only_a_lasgun_atomics_or_the_explosion_kill_miles_teg():
    """ATREIDES-L12-c (D-33): poisons, projectiles (no pass is rolled) and karate do nothing; a lasgun, battle
    Atomics and the lasgun-shield explosion kill him."""
    teg = _holder("ATREIDES-L12-c")
    for weapon in ("poison-fast", "poison-slow", "projectile-distance", "projectile-contact"):
        assert _fate(_fight(teg, weapon)) == ("alive", ("ATREIDES-L12-c",)), weapon
        assert _fate(_fight(_without(teg, "ATREIDES-L12-c"), weapon))[0] == "dead", weapon
    shielded = _fight(teg, "projectile-contact", defense="shield")
    assert len(resolve_battle(shielded)) == 1  # no pass roll against an immune leader
    karate = _fight(teg, "karate", foe_house="dispersion", foe=ROSTER.main_leader("dispersion"))
    assert _fate(karate)[0] == "alive"
    assert _fate(_fight(teg, "lasgun"))[0] == "dead"
    assert _fate(_fight(teg, "atomics"))[0] == "dead"
    assert _fate(_fight(teg, "lasgun", defense="shield"))[0] == "dead"  # the explosion (CARD-LASGUN-1)


# ------------------------------------------------------------------------------------------------ seduction
def test_tleilax_l10_c_the_idaho_ghola_is_not_lowered_by_seduction():
    """TLEILAX-L10-c: DISPERSION-P2 and -M1 (Dama's seduction) do not lower the Idaho-Ghola; without the entry
    they do, and the battle's winner changes."""
    ghola = _holder("TLEILAX-L10-c")
    dama = ROSTER.main_leader("dispersion")
    houses = ("bene-tleilax", "dispersion")
    with_it = battle_values(houses, (ghola, dama), 0, territory="mesa-molle")[0]
    without = battle_values(houses, (_without(ghola, "TLEILAX-L10-c"), dama), 0, territory="mesa-molle")[0]
    assert with_it.leader_value == ghola.strength and "TLEILAX-L10-c" in with_it.powers
    assert without.leader_value < ghola.strength

    def total(leader: Leader) -> object:
        battle = Battle("mesa-molle", "bene-tleilax", (
            BattleSide("bene-tleilax", Tokens(3), BattlePlan(Dial(0), leader)),
            BattleSide("dispersion", Tokens(3), BattlePlan(Dial(0), dama))))
        return resolve_battle(battle)[0][1].sides[0].total

    assert total(ghola) == ghola.strength > total(_without(ghola, "TLEILAX-L10-c"))


# ------------------------------------------------------------------------------------------------ KILL
def test_atreides_l06_c_alia_kills_vladimir_whatever_his_defences():
    """ATREIDES-L06-c at B9: Vladimir dies with a shield and a snooper against him... whatever protects him; the
    Atreides receive his bounty (LC-8)."""
    alia, vladimir = _holder("ATREIDES-L06-c"), ROSTER.main_leader("harkonnen")
    battle = Battle("mesa-molle", "atreides", (
        BattleSide("atreides", Tokens(3), BattlePlan(Dial(1), alia)),
        BattleSide("harkonnen", Tokens(3), BattlePlan(Dial(1), vladimir, defense="shield"))))
    outcome = resolve_battle(battle)
    assert len(outcome) == 1
    sides = outcome[0][1].sides
    assert sides[1].leader_fate == "dead" and "ATREIDES-L06-c" in sides[0].powers
    assert sides[0].bounty == vladimir.strength
    off = resolve_battle(dataclasses.replace(battle, sides=(dataclasses.replace(
        battle.sides[0], plan=BattlePlan(Dial(1), _without(alia, "ATREIDES-L06-c"))), battle.sides[1])))
    assert off[0][1].sides[1].leader_fate == "alive"
    feyd = ROSTER.find("Feyd Rautha", house="harkonnen")
    other = dataclasses.replace(battle, sides=(battle.sides[0], dataclasses.replace(
        battle.sides[1], plan=BattlePlan(Dial(1), feyd))))
    assert resolve_battle(other)[0][1].sides[1].leader_fate == "alive"  # only Vladimir (opp Vladimir)


def test_atreides_l09_b_yueh_kills_the_harkonnen_leader_on_a_1_even_when_called_D_19():
    """ATREIDES-L09-b: in every battle against the Harkonnen, Yueh's side rolls a d10 at B7; on 1 the Harkonnen
    leader dies, even when the Harkonnen call Yueh a traitor (always_traitor_of, A09-a; TRAITOR-11 overridden)."""
    yueh, feyd = _holder("ATREIDES-L09-b"), ROSTER.find("Feyd Rautha", house="harkonnen")
    battle = Battle("mesa-molle", "atreides", (
        BattleSide("atreides", Tokens(3), BattlePlan(Dial(1), yueh)),
        BattleSide("harkonnen", Tokens(3), BattlePlan(Dial(1), feyd), traitors=traitor_names(["yueh"]))))
    outcomes = resolve_battle(battle)
    dead = sum(p for p, o in outcomes if o.sides[1].leader_fate == "dead")
    assert dead == pytest.approx(1 / 10)
    assert outcomes[0][1].traitor_called_by == ("harkonnen",)  # Yueh is always their traitor
    one = resolve_with_rolls(battle, {"atreides": [1]})
    assert one.leader_fates == ("alive", "dead") and one.winner == "harkonnen"
    assert "ATREIDES-L09-b" in one.sides[0].powers
    assert one.sides[0].bounty == feyd.strength  # GAP-97: the kill pays its bounty (LC-8)
    assert resolve_with_rolls(battle, {"atreides": [2]}).leader_fates == ("alive", "alive")
    plain = resolve_battle(dataclasses.replace(battle, sides=(dataclasses.replace(
        battle.sides[0], plan=BattlePlan(Dial(1), _without(yueh, "ATREIDES-L09-b"))), battle.sides[1])))
    assert all(o.sides[1].leader_fate == "alive" for _p, o in plain)
    guild = Battle("mesa-molle", "atreides", (battle.sides[0], BattleSide("guild", Tokens(3), BattlePlan(
        Dial(1), inline_leader("Foe", 5)))))
    assert len(resolve_battle(guild)) == 1  # no roll against another House (D-19)


def test_K_14_kill_goes_through_every_immunity():
    """K-14: the KILL acts whatever the victim's immunities (Vladimir given Miles Teg's entry)."""
    alia, vladimir = _holder("ATREIDES-L06-c"), ROSTER.main_leader("harkonnen")
    teg_power = next(p for p in _holder("ATREIDES-L12-c").powers if p.id == "ATREIDES-L12-c")
    armoured = dataclasses.replace(vladimir, powers=vladimir.powers + (teg_power,))
    battle = Battle("mesa-molle", "atreides", (
        BattleSide("atreides", Tokens(3), BattlePlan(Dial(1), alia, weapon="poison-fast")),
        BattleSide("harkonnen", Tokens(3), BattlePlan(Dial(1), armoured))))
    assert resolve_battle(battle)[0][1].sides[1].leader_fate == "dead"


# ------------------------------------------------------------------------------------------------ the Voice
def _voiced(kind: str, power: str = "BG-P1", by: str = "bene-gesserit", target: str = "atreides") -> BattleSequence:
    return BattleSequence((by, target), step="reveal", voices=(VoiceCommand(by, target, "forbid", kind, power),))


@pytest.mark.parametrize("power_id", [
    pytest.param("ATREIDES-L03-a", id="ATREIDES-L03-a"), pytest.param("ATREIDES-L04-a", id="ATREIDES-L04-a"),
    pytest.param("ATREIDES-L05-a", id="ATREIDES-L05-a"),
])
def test_K_10_voice_case_no_voice_binds_the_atreides_immune_leader(power_id):
    """IMMUNITY(voice) in a battle case: the BG forbid poison; the plan plays one all the same (Jessica is
    disarmed against the BG, ATREIDES-L05-b: her card goes back to the hand)."""
    holder = _holder(power_id)
    raw = {"format": "dunenb.battle/1", "territory": "arsunt", "defender": "bene-gesserit",
           "voice": {"by": "bene-gesserit", "mode": "forbid", "kind": "poison"},
           "sides": [{"house": "bene-gesserit", "tokens": {"regular": 3}, "dial": {"regular": 1}, "leader": "darwi"},
                     {"house": "atreides", "tokens": {"regular": 3}, "dial": {"regular": 1}, "leader": holder.id,
                      "weapon": "poison-fast"}]}
    fate = case_outcomes(parse_case(raw))[0][1].sides[0].leader_fate
    assert fate == ("alive" if power_id == "ATREIDES-L05-a" else "dead")
    raw["sides"][1]["leader"] = "duncan-idaho"
    with pytest.raises(InputError, match="forbade poison"):
        parse_case(raw)


@pytest.mark.parametrize("power_id", [
    pytest.param("FREMEN-L11-c", id="FREMEN-L11-c"), pytest.param("FREMEN-L12-c", id="FREMEN-L12-c"),
    pytest.param("BG-L06-b", id="BG-L06-b"),
])
def test_K_10_voice_any_source_binds_nothing(power_id):
    """IMMUNITY(voice) against a command of any source (a House's, a secondary leader's: FREMEN-L11-b as the
    source of a command on the BG)."""
    holder = _holder(power_id)
    by = "atreides" if holder.house != "atreides" else "fremen"
    seq = _voiced("poison", "FREMEN-L11-b" if by == "fremen" else "ATREIDES-M2", by=by, target=holder.house)
    plan = BattlePlan(Dial(1), holder, weapon="poison-fast")
    assert plan_violations(seq, holder.house, plan, karama_shown=immunities.released(holder, house=holder.house)) == ()
    off = _without(holder, power_id)
    assert plan_violations(seq, holder.house, plan, karama_shown=immunities.released(off, house=holder.house))


def test_atreides_l06_a_alia_is_immune_to_the_voice_naming_shield_or_snooper_only():
    """ATREIDES-L06-a: voice[shield,snooper] covers only the commands naming those kinds."""
    alia = _holder("ATREIDES-L06-a")
    words = immunities.released(alia, house="atreides")
    assert set(words) == {"voice:shield", "voice:snooper"}
    shielded = BattlePlan(Dial(1), alia, defense="shield")
    assert plan_violations(_voiced("shield"), "atreides", shielded, karama_shown=words) == ()
    poisoned = BattlePlan(Dial(1), alia, weapon="poison-fast")
    assert plan_violations(_voiced("poison"), "atreides", poisoned, karama_shown=words)
    assert plan_violations(_voiced("shield"), "atreides", shielded,
                           karama_shown=immunities.released(_without(alia, "ATREIDES-L06-a"), house="atreides"))


# ------------------------------------------------------------------------------------------------ prescience
def _asked_case(holder: Leader, answer: str, *, weapon: str | None = "poison-fast") -> dict:
    asker = "guild" if holder.house != "guild" else "atreides"
    leader = "edric" if asker == "guild" else "paul"
    return {"format": "dunenb.battle/1", "territory": "arsunt", "defender": asker,
            "prescience": {"by": asker, "slot": "attack", "answer": answer},
            "sides": [{"house": asker, "tokens": {"regular": 3}, "dial": {"regular": 1}, "leader": leader},
                      {"house": holder.house, "tokens": {"regular": 3}, "dial": {"regular": 1}, "leader": holder.id,
                       "weapon": weapon}]}


@pytest.mark.parametrize("power_id", [
    pytest.param("ATREIDES-L03-a", id="ATREIDES-L03-a"), pytest.param("ATREIDES-L04-a", id="ATREIDES-L04-a"),
    pytest.param("BG-L05-b", id="BG-L05-b"), pytest.param("BG-L06-b", id="BG-L06-b"),
    pytest.param("EMPEROR-L01-b", id="EMPEROR-L01-b"), pytest.param("FREMEN-L05-d", id="FREMEN-L05-d"),
])
def test_K_10_prescience_case_the_answer_is_immune_and_binds_nothing_GAP_96(power_id):
    """IMMUNITY(prescience): the side answers "immune" ("Tu ne peux voir mon attaque"): the question binds
    nothing; a kind answered for an immune leader, or "immune" for another, is refused (GAP-96)."""
    holder = _holder(power_id)
    assert parse_case(_asked_case(holder, "immune"))
    with pytest.raises(InputError, match="immune to prescience"):
        parse_case(_asked_case(holder, "none"))
    raw = _asked_case(holder, "immune")
    raw["sides"][1]["leader"] = _plain_leader(holder.house)
    with pytest.raises(InputError, match="is not immune to prescience"):
        parse_case(raw)
    question = PrescienceQuestion("guild", holder.house, "attack", "GUILD-M2")
    seq = BattleSequence(("guild", holder.house), step="reveal", questions=(question,),
                         answers=(PrescienceAnswer(holder.house, "poison"),))
    assert immunities.prescience_problems(["poison"], _without(holder, power_id), house=holder.house) == ()
    assert plan_violations(seq, holder.house, BattlePlan(Dial(1), holder, weapon="poison-fast")) == ()


# ------------------------------------------------------------------------------------------------ game scenes
def test_atreides_l05_a_game_jessica_plays_the_poison_the_bg_voice_forbade():
    """A game: the BG forbid poison; the Atreides may lead with Jessica (ATREIDES-L05-a) and play it, not with
    Duncan; the menu lists Jessica's poison plans."""
    state = pre.battle(["bene-gesserit", "atreides"], [("bene-gesserit", "arsunt", 5, 3), ("atreides", "arsunt", 5, 3)],
                       {"atreides": ("poison-fast",)})
    state = play_battle(state, until=("battle-voice", "bene-gesserit"))
    state = apply_action(state, UseVoice("bene-gesserit", "forbid", "poison"))
    state = play_battle(state)  # to the plans
    if state.pending.actor == "bene-gesserit":
        state = pre.submit(state, "bene-gesserit", "darwi", 1)
    assert check_action(state, SubmitPlan("atreides", "jessica", 1, 0, 0, "poison-fast")) is None
    error = check_action(state, SubmitPlan("atreides", "duncan-idaho", 1, 0, 0, "poison-fast"))
    assert error is not None and error.code == "battle/bound-by-voice"
    assert any(a.leader == "jessica" and a.weapon == "poison-fast" for a in decisions(state))
    assert not any(a.leader == "duncan-idaho" and a.weapon == "poison-fast" for a in decisions(state))


def test_emperor_l01_b_game_the_emperor_answers_immune_and_must_lead_with_hasimir_GAP_96():
    """A game: the Atreides ask the Emperor's attack (ATREIDES-P1); the Emperor may answer "immune" since
    Hasimir (EMPEROR-L01-b) may lead; then only Hasimir may lead, and the answer binds no card."""
    state = pre.battle(["atreides", "emperor"], [("atreides", "arsunt", 5, 3), ("emperor", "arsunt", 5, 3)],
                       {"emperor": ("poison-fast",)})
    state = play_battle(state, until=("battle-prescience", "atreides"))
    state = apply_action(state, AskPrescience("atreides", "attack"))
    assert state.pending.kind == "battle-answer" and state.pending.actor == "emperor"
    assert "immune" in {a.answer for a in decisions(state)}
    state = apply_action(state, AnswerPrescience("emperor", "immune"))
    state = play_battle(state)  # to the plans
    if state.pending.actor == "atreides":
        state = pre.submit(state, "atreides", "duncan-idaho", 1)
    assert check_action(state, SubmitPlan("emperor", "hasimir", 1, 0, 0, "poison-fast")) is None
    assert check_action(state, SubmitPlan("emperor", "hasimir", 1, 0, 0)) is None  # it binds no card
    error = check_action(state, SubmitPlan("emperor", "burseg", 1, 0, 0))
    assert error is not None and "not immune to prescience" in str(error)
    assert {a.leader for a in decisions(state) if a.kind == "plan"} == {"hasimir"}


# ------------------------------------------------------------------------------------------------ d10 prescience
@pytest.mark.parametrize("power_id", [
    pytest.param("GUILD-L01-b", id="GUILD-L01-b"), pytest.param("GUILD-L02-b", id="GUILD-L02-b"),
    pytest.param("GUILD-L03-b", id="GUILD-L03-b"), pytest.param("GUILD-L04-b", id="GUILD-L04-b"),
    pytest.param("GUILD-L05-b", id="GUILD-L05-b"), pytest.param("GUILD-L06-b", id="GUILD-L06-b"),
    pytest.param("DISPERSION-L08-c", id="DISPERSION-L08-c"), pytest.param("TLEILAX-L12-d", id="TLEILAX-L12-d"),
])
def test_K_10_d10_prescience_case_the_answer_may_be_immune_or_a_kind(power_id):
    """IMMUNITY(prescience | d10≤N) in a battle case: the case states the answer after the roll: "immune" (the
    roll succeeded: it binds nothing) or a kind (it failed: it binds); "immune" without the entry is refused."""
    holder = _holder(power_id)
    effect = next(p.effect for p in holder.powers if p.id == power_id)
    assert immunities.prescience_protection(holder) == immunities.Protection(power_id, effect.at_most)
    assert parse_case(_asked_case(holder, "immune"))
    assert parse_case(_asked_case(holder, "poison"))
    with pytest.raises(InputError, match="forbade|answer was poison"):
        parse_case(_asked_case(holder, "poison", weapon=None))
    raw = _asked_case(holder, "immune")
    raw["sides"][1]["leader"] = _plain_leader(holder.house)
    with pytest.raises(InputError, match="is not immune to prescience"):
        parse_case(raw)


def _guild_asked():
    state = pre.battle(["atreides", "guild"], [("atreides", "arsunt", 5, 3), ("guild", "arsunt", 5, 3)],
                       {"guild": ("poison-fast",)})
    state = play_battle(state, until=("battle-prescience", "atreides"))
    state = apply_action(state, AskPrescience("atreides", "attack"))
    state = play_battle(state, through=("battle-prescience",))  # Edric's own question (K-12, GUILD-L01-c): passed
    assert (state.pending.kind, state.pending.actor) == ("battle-answer", "guild")
    return state


def _to_plans(state, house="atreides", leader="duncan-idaho"):
    state = play_battle(state)  # to the plans
    if state.pending.actor == house:
        state = pre.submit(state, house, leader, 1)
    return state


def test_guild_l01_b_game_edric_declared_and_rolled_GAP_98():
    """A game: the Guild may answer "immune:edric" (GUILD-L01-b, d10 ≤ 8): a chance node of ten faces; on 8 the
    question binds nothing and Edric must lead; on 9 the Guild answers again, bound, and Edric still leads."""
    from dunenb.rules.immunity_rolls import ImmunityRoll

    state = _guild_asked()
    choices = {a.answer for a in decisions(state)}
    assert {"immune:edric", "immune:sapic"} <= choices and "immune" not in choices
    state = apply_action(state, AnswerPrescience("guild", "immune:edric"))
    assert state.pending.kind == "immunity-roll"
    assert [o.face for o in decisions(state)] == list(range(1, 11))  # the outcomes, 1/10 each (LC-1)
    lucky = _to_plans(apply_action(state, ImmunityRoll("guild", "edric", "GUILD-L01-b", 8)))
    assert check_action(lucky, SubmitPlan("guild", "edric", 1, 0, 0)) is None  # no card bound
    assert check_action(lucky, SubmitPlan("guild", "edric", 1, 0, 0, "poison-fast")) is None
    error = check_action(lucky, SubmitPlan("guild", "sapic", 1, 0, 0))
    assert error is not None and error.code == "battle/leader-disclosed"
    unlucky = apply_action(state, ImmunityRoll("guild", "edric", "GUILD-L01-b", 9))
    assert (unlucky.pending.kind, unlucky.pending.actor) == ("battle-answer", "guild")
    assert "immune:edric" not in {a.answer for a in decisions(unlucky)}
    unlucky = _to_plans(apply_action(unlucky, AnswerPrescience("guild", "poison")))
    assert check_action(unlucky, SubmitPlan("guild", "edric", 1, 0, 0, "poison-fast")) is None
    error = check_action(unlucky, SubmitPlan("guild", "edric", 1, 0, 0))
    assert error is not None and "answer was poison" in str(error)
    assert check_action(unlucky, SubmitPlan("guild", "sapic", 1, 0, 0, "poison-fast")) is not None


def test_K_10_game_an_immune_answer_without_a_roll_is_refused_for_a_d10_leader():
    state = _guild_asked()
    error = check_action(state, AnswerPrescience("guild", "immune"))
    assert error is not None and error.code == "battle/prescience-answer"


def _kill_scene(atreides_leader: str, harkonnen_leader: str):
    state = pre.battle(["atreides", "harkonnen"], [("atreides", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 3)])
    state = play_battle(state)  # to the plans
    return play_battle(state, {"atreides": SubmitPlan("atreides", atreides_leader, 1, 0, 0),
                               "harkonnen": SubmitPlan("harkonnen", harkonnen_leader, 1, 0, 0)},
                       until=lambda s: s.pending.kind != "battle-plan")


def _until_outcome(state, *, call: str | None = None):
    """Pass every optional decision (the Harkonnen call ``call`` when asked) until the battle's outcome or a
    chance node (HARKONNEN-M2's buy-off passed too); events kept."""
    return play_battle(state, through=PASS_FIRST + ("buy-off",), calls={"harkonnen": call} if call else {})


def _killed(state) -> set[str]:
    return {e.data["leader"] for e in state.events if e.kind == "leader-killed"}


def test_atreides_l09_b_game_yuehs_revenge_is_a_battle_d10_after_the_treachery():
    """A game: the Harkonnen call Yueh (A09-a); the Atreides' d10 at B7 is a chance node; on 1 Feyd dies too and
    the Atreides receive his bounty (GAP-97); on 2 he lives."""
    from dunenb.rules.battle_context import context_of
    from dunenb.rules.battle_phase import BattleDie

    state = _until_outcome(_kill_scene("yueh", "feyd-rautha"), call="yueh")
    assert state.pending.kind == "battle-d10" and context_of(state).roller == "atreides"
    assert any(e.kind == "treachery" for e in state.events)
    spice = state.houses["atreides"].spice
    one = _until_outcome(apply_action(state, BattleDie("atreides", 1)))
    assert "feyd-rautha" in _killed(one)
    assert one.houses["atreides"].spice - spice == ROSTER.find("Feyd Rautha", house="harkonnen").strength
    two = _until_outcome(apply_action(state, BattleDie("atreides", 2)))
    assert "feyd-rautha" not in _killed(two) and any(e.kind == "battle-outcome" for e in two.events)


def test_atreides_l06_c_game_alia_kills_vladimir():
    """A game: Alia against Vladimir, no card played: Vladimir dies at B9 (ATREIDES-L06-c)."""
    state = _until_outcome(_kill_scene("alia", "vladimir"))
    assert "vladimir" in _killed(state)


def _voiced_tleilax():
    state = pre.battle(["bene-gesserit", "bene-tleilax"],
                       [("bene-gesserit", "arsunt", 5, 3), ("bene-tleilax", "arsunt", 5, 3)],
                       {"bene-tleilax": ("poison-fast",)})
    state = play_battle(state, until=("battle-voice", "bene-gesserit"))
    return apply_action(state, UseVoice("bene-gesserit", "forbid", "poison"))


def test_tleilax_l11_c_game_the_miles_teg_ghola_rolls_against_the_voice_GAP_99():
    """A game: the BG forbid poison; the Tleilax may declare the Miles Teg-Ghola (TLEILAX-L11-c, d10 ≤ 5): he
    must lead, and on 5 the command does not bind (he plays the poison), on 6 it binds."""
    from dunenb.rules.immunity_rolls import DeclareVoiceImmunity, ImmunityRoll

    state = _voiced_tleilax()
    assert (state.pending.kind, state.pending.actor) == ("voice-immunity", "bene-tleilax")
    assert set(decisions(state)) == {Pass("bene-tleilax"), DeclareVoiceImmunity("bene-tleilax", "miles-teg-ghola")}
    passed = _to_plans(apply_action(state, Pass("bene-tleilax")), "bene-gesserit", "darwi")
    assert check_action(passed, SubmitPlan("bene-tleilax", "miles-teg-ghola", 1, 0, 0, "poison-fast")) is not None
    state = apply_action(state, DeclareVoiceImmunity("bene-tleilax", "miles-teg-ghola"))
    assert state.pending.kind == "immunity-roll"
    lucky = _to_plans(apply_action(state, ImmunityRoll("bene-tleilax", "miles-teg-ghola", "TLEILAX-L11-c", 5)),
                      "bene-gesserit", "darwi")
    assert check_action(lucky, SubmitPlan("bene-tleilax", "miles-teg-ghola", 1, 0, 0, "poison-fast")) is None
    error = check_action(lucky, SubmitPlan("bene-tleilax", "scytale", 1, 0, 0))
    assert error is not None and error.code == "battle/leader-disclosed"
    unlucky = _to_plans(apply_action(state, ImmunityRoll("bene-tleilax", "miles-teg-ghola", "TLEILAX-L11-c", 6)),
                        "bene-gesserit", "darwi")
    error = check_action(unlucky, SubmitPlan("bene-tleilax", "miles-teg-ghola", 1, 0, 0, "poison-fast"))
    assert error is not None and error.code == "battle/bound-by-voice"
    assert check_action(unlucky, SubmitPlan("bene-tleilax", "miles-teg-ghola", 1, 0, 0)) is None


def test_K_10_no_declaration_node_without_a_d10_leader():
    """A Voice against a House with no d10 Voice immunity goes straight on (no new node)."""
    state = pre.battle(*pre.BG_SCENE)
    state = apply_action(state, UseVoice("bene-gesserit", "forbid", "poison"))
    assert state.pending.kind != "voice-immunity"
