"""Issue 11 item 2, leaders.md K-21 RESTRICTION and K-22 MOBILITY in battles (dunenb.battle.leader_traits): each
power ID plays its scene in a game's battle phase (the plan menu and check) or in the battle library."""

from __future__ import annotations

import copy
import dataclasses
from fractions import Fraction

import pytest
from helpers_game import (
    clear_map,
    decisions,
    events_of,
    give_cards,
    pass_unable,
    place,
    play_battle,
    quiet_setup,
    set_storms,
    skip_pre_battle,
)

from dunenb.battle.plans import Battle, BattlePlan, BattleSide
from dunenb.battle.powers import battle_values, marked_token_value
from dunenb.battle.resolve import resolve_battle
from dunenb.battle.roster import load_roster
from dunenb.battle.wheel import Dial, Tokens
from dunenb.engine import apply_action, check_action
from dunenb.errors import IllegalActionError
from dunenb.rules.battle_context import context_of
from dunenb.rules.battle_phase import ChooseBattle, SubmitPlan, begin_phase

ROSTER = load_roster()


def position(houses, forces, *, hands=None):
    """A quiet setup with only ``forces`` [(house, area, sector, regular, marked)] on the map and no traitor slip,
    at the first battle's plans (the Voice and prescience passed)."""
    state = clear_map(set_storms(quiet_setup(houses), main=10))
    for house in houses:
        hs = state.houses[house]
        state = dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(hs, hand=(),
                                                                                              traitors=())),
                                    treachery_discard=state.treachery_discard + hs.hand)
    for house, area, sector, regular, *marked in forces:
        state = place(state, house, area, sector, regular, *marked)
    for house, cards in (hands or {}).items():
        state = give_cards(state, house, *cards)
    state = dataclasses.replace(state, events=(), storm_dialers=(houses[0], houses[-1]))
    return skip_pre_battle(begin_phase(state))


def to_plan(state, house):
    """Submit the first menu plan of each side until ``house`` sets its plan."""
    while state.pending.kind == "battle-plan" and state.pending.actor != house:
        state = apply_action(state, decisions(state)[0])
    assert (state.pending.kind, state.pending.actor) == ("battle-plan", house), state.pending
    return state


def plan(state, leader, regular=0, marked=0, spice=0, weapon="none", defense="none"):
    state = apply_action(state, SubmitPlan(state.pending.actor, leader, regular, marked, spice, weapon, defense))
    # leaders.md K-19 (GAP-111): the B5 buy-off step, asked of a side that could wheel a BUY_OFF leader, comes
    # before the reveal; passed like the calls when the pass is all there is
    return skip_pre_battle(pass_unable(state, ("leader-buy-off", "traitor-call")))


def pass_buy_off(state):
    """Pass the K-19 buy-off steps (leaders.md K-19, GAP-111: ``leader-buy-off`` at B5, asked of each side that
    could wheel a BUY_OFF leader) with their first option, the pass; events kept."""
    events = state.events
    while state.pending is not None and state.pending.kind == "leader-buy-off":
        state = apply_action(state, decisions(state)[0])
        events += state.events
    return dataclasses.replace(state, events=events)


def rejected(state, action) -> str:
    snapshot = copy.deepcopy(state)
    with pytest.raises(IllegalActionError) as info:
        apply_action(state, action)
    assert state == snapshot
    return info.value.code


def menu(state, leader):
    return [a for a in decisions(state) if isinstance(a, SubmitPlan) and a.leader == leader]


def find(power_id):
    return next(leader for leader in ROSTER.leaders for p in leader.powers if p.id == power_id)


# --- K-21 cannot_carry ------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("power_id", "kinds"), [
    ("ATREIDES-L03-d", ("shield",)), ("ATREIDES-L04-d", ("shield",)),
    ("FREMEN-L11-e", ("shield", "snooper")), ("FREMEN-L12-e", ("shield", "snooper")),
])
def test_k_21_cannot_carry_no_such_defence_on_his_wheel(power_id, kinds):
    """K-21 cannot_carry: Ghanima and Léto II "ne peuvent porter de bouclier" (A03-d, A04-d; the Fremen copies
    neither shield nor snooper, F11-e, F12-e): such a plan is neither offered nor accepted; another leader of
    his House may carry it, and so may he any other defence."""
    leader = find(power_id)
    house = leader.house
    state = position([house, "harkonnen"], [(house, "mesa-molle", 8, 3), ("harkonnen", "mesa-molle", 8, 3)],
                     hands={house: ("shield", "snooper", "worthless")})
    state = to_plan(state, house)
    offered = {a.defense for a in menu(state, leader.id)}
    for card in ("shield", "snooper"):
        if card in kinds:
            assert card not in offered
            assert rejected(state, SubmitPlan(house, leader.id, 0, 0, 0, defense=card)) == \
                "battle/leader-cannot-carry"
        else:
            assert card in offered
    assert "worthless" in offered
    other = next(lid for lid in state.houses[house].leaders if lid != leader.id)
    assert check_action(state, SubmitPlan(house, other, 0, 0, 0, defense="shield")) is None
    # the battle library applies the same trait (a dunenb battle case)
    mine = BattleSide(house, Tokens(3), BattlePlan(Dial(1), leader, defense=kinds[-1]))
    theirs = BattleSide("harkonnen", Tokens(3), BattlePlan(Dial(1), ROSTER.find("Piter")))
    with pytest.raises(IllegalActionError, match="cannot carry") as refused:
        resolve_battle(Battle("mesa-molle", house, (mine, theirs)))
    allowed = ", ".join(["none", *(kind for kind in ("snooper", "shield", "worthless") if kind not in kinds)])
    assert refused.value.message.endswith(f"allowed: {allowed}")  # Leto II F11-e: none or a worthless card


# --- K-21 attacks_only, no_army (Miles Teg A12) -------------------------------------------------------------------

def test_k_21_atreides_l12_b_attacks_only_lasgun_or_atomics():
    """ATREIDES-L12-b: Miles Teg "ne peut attaquer qu'avec un laser ou des atomiques": no other attack card, a
    worthless card still fills the slot (GAP-116)."""
    state = position(["atreides", "harkonnen"], [("atreides", "mesa-molle", 8, 3), ("harkonnen", "mesa-molle", 8, 3)],
                     hands={"atreides": ("lasgun", "projectile-distance", "poison-fast", "worthless")})
    offered = {a.weapon for a in menu(to_plan(state, "atreides"), "miles-teg")}
    assert offered == {"none", "lasgun", "worthless"}
    for card in ("projectile-distance", "poison-fast"):
        assert rejected(state, SubmitPlan("atreides", "miles-teg", 0, 0, 0, weapon=card)) == \
            "battle/leader-attacks-only"
    assert check_action(state, SubmitPlan("atreides", "duncan-idaho", 0, 0, 0, weapon="poison-fast")) is None


def test_k_21_atreides_l12_a_no_army_nothing_dialled_all_tokens_at_stake():
    """ATREIDES-L12-a, D-33: Miles Teg dials no token and no spice; his House's tokens there are all at stake
    (BATTLE-11): he loses with 6 against Piter's 4 + 3 spiced tokens, and the Atreides lose their 5 tokens."""
    state = position(["atreides", "harkonnen"], [("atreides", "mesa-molle", 8, 5), ("harkonnen", "mesa-molle", 8, 3)])
    state = to_plan(state, "atreides")
    assert {(a.regular, a.marked, a.spice) for a in menu(state, "miles-teg")} == {(0, 0, 0)}
    assert rejected(state, SubmitPlan("atreides", "miles-teg", 1, 0, 0)) == "battle/leader-no-army"
    state = plan(state, "miles-teg")
    state = plan(state, "piter", 3, spice=3)
    outcome = events_of(state, "battle-outcome")[0]
    assert outcome.data["winner"] == "harkonnen"
    assert sum(e.data["count"] for e in events_of(state, "tokens-lost") if e.data["house"] == "atreides") == 5


# --- K-21 no_house_powers (the Dispersion's fanatics) -----------------------------------------------------------

@pytest.mark.parametrize("power_id", ["DISPERSION-L09-b", "DISPERSION-L10-b", "DISPERSION-L11-b",
                                      "DISPERSION-L12-b"])
def test_k_21_no_house_powers_no_karate_no_seduction_marks_half(power_id):
    """K-21 no_house_powers (D09..D12-b): DISPERSION-P1..P3 do not act through a fanatic: no karate in his slot
    (DISPERSION-P1), no seduction of a male opponent (P2), and A tokens worth ½ (P3, as with no Honored Matre);
    an Honored Matre (Murbella D01) has all three."""
    fanatic, matre = find(power_id), ROSTER.find("Murbella", house="dispersion")
    state = position(["dispersion", "emperor"], [("dispersion", "mesa-molle", 8, 3), ("emperor", "mesa-molle", 8, 3)])
    state = to_plan(state, "dispersion")
    assert "karate" not in {a.weapon for a in menu(state, fanatic.id)}
    assert "karate" in {a.weapon for a in menu(state, matre.id)}
    assert rejected(state, SubmitPlan("dispersion", fanatic.id, 0, 0, 0, weapon="karate")) == \
        "battle/leader-no-house-powers"
    hasimir = ROSTER.find("Hasimir", house="emperor")  # male, 7
    for own, seduced, marked in ((fanatic, 7, Fraction(1, 2)), (matre, 5, 1)):
        values = battle_values(("dispersion", "emperor"), (own, hasimir), 1, territory="mesa-molle")
        assert values[1].leader_value == seduced
        assert marked_token_value(("dispersion", "emperor"), (own, hasimir), 0) == marked


# --- K-21 one_battle_per_turn -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("power_id", "leader"), [("BG-L11-c", "talamane"), ("BG-L12-d", "murbella")])
def test_k_21_one_battle_per_turn_not_even_again_in_the_same_territory(power_id, leader):
    """K-21 one_battle_per_turn (B11-c Talamane, B12-d Murbella): having led one battle this turn, she may not
    lead another, even in the same territory (BATTLE-15 would allow it); Mohiam's other leaders may."""
    assert find(power_id).id == leader
    houses = ["bene-gesserit", "harkonnen", "emperor"]
    forces = [("bene-gesserit", "arsunt", 5, 5), ("harkonnen", "arsunt", 5, 1), ("emperor", "arsunt", 5, 1)]
    state = position(houses, forces)
    if state.pending.kind == "battle-choice":
        state = skip_pre_battle(apply_action(state, ChooseBattle("bene-gesserit", "arsunt", 5, "harkonnen")))
    first = context_of(state).opponent("bene-gesserit")
    state = to_plan(state, "bene-gesserit")
    state = plan(state, leader, 1)
    state = plan(state, next(lid for lid in state.houses[first].leaders if lid not in ("vladimir", "shaddam-iv")))
    while state.pending.kind not in ("battle-plan",):
        state = skip_pre_battle(apply_action(state, decisions(state)[0]))
    state = to_plan(state, "bene-gesserit")
    assert leader in state.houses["bene-gesserit"].leaders
    assert leader not in {a.leader for a in menu(state, leader)}
    assert rejected(state, SubmitPlan("bene-gesserit", leader, 0, 0, 0)) == "battle/leader-unavailable"
    assert menu(state, "lucille")  # BATTLE-15: another secondary leader may fight here again


# --- K-22 MOBILITY cities ---------------------------------------------------------------------------------------

def test_k_22_atreides_l07_c_tufir_leads_in_several_cities():
    """ATREIDES-L07-c: Tufir may lead battles in Arrakeen, Carthag and Arsunt in the same turn (BATTLE-15 holds
    for other territories, and for Gurney)."""
    forces = [("atreides", "arrakeen", 1, 3), ("harkonnen", "arrakeen", 1, 1), ("atreides", "carthag", 4, 3),
              ("harkonnen", "carthag", 4, 1), ("atreides", "mesa-molle", 8, 3), ("harkonnen", "mesa-molle", 8, 1)]
    state = position(["atreides", "harkonnen"], forces)
    state = skip_pre_battle(apply_action(state, ChooseBattle("atreides", "arrakeen", 1, "harkonnen")))
    state = plan(state, "tufir", 3)
    state = plan(state, "piter")
    while state.pending.kind != "battle-choice":
        state = skip_pre_battle(apply_action(state, decisions(state)[0]))
    in_carthag = skip_pre_battle(apply_action(state, ChooseBattle("atreides", "carthag", 4, "harkonnen")))
    assert menu(in_carthag, "tufir") and check_action(in_carthag, SubmitPlan("atreides", "tufir", 0, 0, 0)) is None
    in_mesa = skip_pre_battle(apply_action(state, ChooseBattle("atreides", "mesa-molle", 8, "harkonnen")))
    assert not menu(in_mesa, "tufir")
    assert rejected(in_mesa, SubmitPlan("atreides", "tufir", 0, 0, 0)) == "battle/leader-unavailable"


# --- K-21 dies_in -------------------------------------------------------------------------------------------------

def test_k_21_harkonnen_l06_d_iliako_dies_at_gara_kulon():
    """HARKONNEN-L06-d: "Iliako meurt s'il combat à Gara Kulon": committed there he dies at the reveal (B6),
    worth 0, makes no attack, and the opponent receives his bounty (3); elsewhere he fights as usual."""
    state = position(["harkonnen", "atreides"], [("harkonnen", "gara-kulon", 20, 3), ("atreides", "gara-kulon", 20, 1)],
                     hands={"harkonnen": ("poison-fast",)})
    state = to_plan(state, "harkonnen")
    spice = state.houses["atreides"].spice
    state = plan(state, "iliako", 3, weapon="poison-fast")
    state = plan(state, "gurney", 1)
    killed = [e.data["leader"] for e in events_of(state, "leader-killed")]
    assert killed == ["iliako"]  # his poison does not act: Gurney lives
    assert events_of(state, "battle-outcome")[0].data["winner"] == "atreides"  # 3 against 7 + 1
    assert state.houses["atreides"].spice == spice + 3 and "poison-fast" in state.houses["harkonnen"].hand
    # the library, with the outcome naming the trait; elsewhere he lives
    iliako, gurney = ROSTER.find("Iliako"), ROSTER.find("Gurney", house="atreides")
    for territory, fate in (("gara-kulon", "dead"), ("sietch-tarb", "alive")):
        sides = (BattleSide("harkonnen", Tokens(3), BattlePlan(Dial(3), iliako)),
                 BattleSide("atreides", Tokens(1), BattlePlan(Dial(1), gurney)))
        (_p, outcome), = resolve_battle(Battle(territory, "harkonnen", sides))
        assert outcome.side("harkonnen").leader_fate == fate
        assert ("HARKONNEN-L06-d" in outcome.side("harkonnen").powers) == (fate == "dead")


def test_lc_9_d_14_a_captive_keeps_his_traits_iliako_dies_for_the_bg_too():
    """LC-9, D-14: a foreign House plays a leader with his traits only: Iliako, captured by the BG (B03-b), still
    dies at Gara Kulon; no traitor call can name him there (he is dead before B7)."""
    iliako, paul = ROSTER.find("Iliako"), ROSTER.find("Paul")
    sides = (BattleSide("bene-gesserit", Tokens(3), BattlePlan(Dial(3), iliako)),
             BattleSide("atreides", Tokens(1), BattlePlan(Dial(1), paul), traitors=frozenset({"iliako"})))
    (_p, outcome), = resolve_battle(Battle("gara-kulon", "bene-gesserit", sides))
    assert outcome.side("bene-gesserit").leader_fate == "dead" and outcome.traitor_called_by == ()
    assert outcome.winner == "atreides" and outcome.side("atreides").bounty == 3


# --- K-24 INHERIT -----------------------------------------------------------------------------------------------

def test_k_24_guild_l11_a_staban_holds_esmars_powers_while_esmar_is_dead():
    """GUILD-L11-a: while Esmar is dead, Staban also holds his powers: 10 at Faille Rouge (G10-a), the outcome
    naming G10-a; Esmar's trait (3 at Arrakeen, G10-d, below his base 5) stays his; once Esmar is back, or while a
    foreign House plays Staban (D-14), Staban is worth his own 3."""
    staban, paul = ROSTER.find("Staban"), ROSTER.find("Paul")

    def value(dead, houses=("guild", "atreides")):
        return battle_values(houses, (staban, paul), 1, territory="faille-rouge", dead=(dead, frozenset()))[0]

    assert value(frozenset({"esmar"})).leader_value == 10 and "GUILD-L10-a" in value(frozenset({"esmar"})).powers
    assert value(frozenset()).leader_value == 3
    assert value(frozenset({"esmar"}), ("harkonnen", "atreides")).leader_value == 3  # a captive: no powers
    sides = (BattleSide("guild", Tokens(2), BattlePlan(Dial(0), staban), dead=frozenset({"esmar"})),
             BattleSide("atreides", Tokens(2), BattlePlan(Dial(2, spice=2), ROSTER.find("Duncan Idaho"))))
    (_p, outcome), = resolve_battle(Battle("faille-rouge", "atreides", sides))
    assert outcome.winner == "guild" and outcome.side("guild").total == 10  # 10 against Duncan's 6 + 2
    in_arrakeen = battle_values(("guild", "atreides"), (staban, paul), 1, territory="arrakeen",
                                dead=(frozenset({"esmar"}), frozenset()))[0]
    assert in_arrakeen.leader_value == 3 and "GUILD-L10-d" not in in_arrakeen.powers


@pytest.mark.parametrize(("power_id", "heir", "house", "source", "kind", "inherited_id"), [
    ("BG-L03-c", "Lucille", "bene-gesserit", "alma", "IMMUNITY", "BG-L01-b"),
    ("HARKONNEN-L03-d", "Feyd Rautha", "harkonnen", "glossu-rabban", "WHEEL_VALUE", "HARKONNEN-L03-a"),
])
def test_k_24_inherit_the_heir_holds_the_dead_sources_powers(power_id, heir, house, source, kind, inherited_id):
    """BG-L03-c (Alma → Lucille), HARKONNEN-L03-d (Rabban → Feyd H01): in a battle the heir leads while the
    source is dead, the source's entries act through him under their own IDs (Alma's poison immunity, Rabban's 7 in
    Carthag); alive again, the source keeps them. (Which of them changes a battle depends on its kind: the value
    kinds act today.)"""
    from dunenb.battle.leader_powers import Scene, acting

    leader = ROSTER.find(heir, house=house)
    opponent = ROSTER.find("Paul")
    for dead, holds in ((frozenset({source}), True), (frozenset(), False)):
        scene = Scene.of("carthag", (house, "atreides"), (leader, opponent), defender=0, dead=(dead, frozenset()))
        assert (inherited_id in [p.id for p in acting(scene, 0, kind)]) == holds, (power_id, dead)


# --- LC-9: a permanent transfer keeps the powers ----------------------------------------------------------------

def _lucille_with_atreides(state, *, captured=False):
    """The BG's Lucille kept by the Atreides under the key ``bene-gesserit:lucille``: given in a deal (L1925), or
    held as a captive."""
    from dunenb.rules.common import edit_house

    bg, atreides = state.houses["bene-gesserit"], state.houses["atreides"]
    state = edit_house(state, "bene-gesserit", leaders=tuple(x for x in bg.leaders if x != "lucille"))
    state = edit_house(state, "atreides", leaders=atreides.leaders + ("bene-gesserit:lucille",))
    if captured:
        state = dataclasses.replace(state, captured=state.captured + (("bene-gesserit", "lucille"),))
    return state


@pytest.mark.parametrize(("captured", "winner"), [(False, "atreides"), (True, "harkonnen")])
def test_lc_9_a_leader_given_for_good_keeps_his_powers_a_captive_does_not(captured, winner):
    """LC-9, X-6 (Lucille, L1925): given to the Atreides in a deal, Lucille keeps her powers: BG-L03-a (−1 to a
    male opponent) makes Piter 4 + 2 = 5 against her 6; held as a captive (D-14) she has none, 6 against 6, and
    the defender wins the tie (BATTLE-13 f4)."""
    state = position(["harkonnen", "atreides", "bene-gesserit"],
                     [("harkonnen", "mesa-molle", 8, 2), ("atreides", "mesa-molle", 8, 1)])
    state = _lucille_with_atreides(state, captured=captured)
    assert context_of(state).defender == "harkonnen"
    state = to_plan(state, "harkonnen")
    state = plan(state, "piter", 2, spice=2)
    state = plan(state, "bene-gesserit:lucille")
    assert events_of(state, "battle-outcome")[0].data["winner"] == winner


# --- K-21 always_traitor_of (Yueh), marks_void (Elpek) -----------------------------------------------------------

def test_k_21_atreides_l09_a_yueh_always_a_harkonnen_traitor():
    """ATREIDES-L09-a: the Harkonnen may call "Trahison !" on Yueh without holding his slip (TRAITOR-8..11); the
    call wins them the battle."""
    from dunenb.actions import Pass
    from dunenb.rules.battle_phase import BattleDie, CallTraitor

    state = position(["harkonnen", "atreides"], [("harkonnen", "arsunt", 5, 4), ("atreides", "arsunt", 5, 4)])
    assert all(("atreides", "yueh") not in hs.traitors for hs in state.houses.values())
    state = to_plan(state, "harkonnen")
    state = apply_action(state, SubmitPlan("harkonnen", "piter", 1, 0, 0))
    state = pass_buy_off(apply_action(state, SubmitPlan("atreides", "yueh", 3, 0, 0)))  # K-19 step passed
    assert (state.pending.kind, state.pending.actor) == ("traitor-call", "harkonnen")
    assert set(decisions(state)) == {CallTraitor("harkonnen", "yueh"), Pass("harkonnen")}
    state = play_battle(apply_action(state, CallTraitor("harkonnen", "yueh")), through=(), calls={})
    kinds = [(e.kind, e.data.get("winner")) for e in state.events]
    if state.pending is not None and state.pending.kind == "battle-d10":  # Yueh's own K-14 d10 (ATREIDES-L09-b):
        state = apply_action(state, BattleDie("atreides", 2))  # not his 1
        kinds += [(e.kind, e.data.get("winner")) for e in state.events]
    assert ("treachery", None) in kinds and ("battle-outcome", "harkonnen") in kinds


def test_k_21_dispersion_l04_d_marks_void_elpeks_a_tokens_count_half():
    """DISPERSION-L04-d: under Elpek the Dispersion's A tokens are worth ½ (DISPERSION-P3 does not act); under
    another Honored Matre, 1."""
    elpek, murbella, paul = ROSTER.find("Elpek"), ROSTER.find("Murbella", house="dispersion"), ROSTER.find("Paul")
    assert marked_token_value(("dispersion", "atreides"), (elpek, paul), 0) == Fraction(1, 2)
    assert marked_token_value(("dispersion", "atreides"), (murbella, paul), 0) == 1


# --- K-25 SPECIAL S-7 -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("where", ["alive", "dead", "captured"])
def test_k_25_bg_l07_c_s_7_irulan_leaves_when_paul_dies(where):
    """BG-L07-c (S-7, a trait): when Paul dies (here by a lasgun), Irulan B07 leaves the game at once, wherever
    she is: among the BG's leaders, in their tanks, or a captive of the Harkonnen."""
    from helpers_game import held_by_harkonnen

    from dunenb.rules.common import edit_house

    state = position(["harkonnen", "atreides", "bene-gesserit"],
                     [("harkonnen", "mesa-molle", 8, 2), ("atreides", "mesa-molle", 8, 1)],
                     hands={"harkonnen": ("lasgun",)})
    bg = state.houses["bene-gesserit"]
    if where == "dead":
        state = edit_house(state, "bene-gesserit", leaders=tuple(x for x in bg.leaders if x != "irulan"),
                           leader_tanks=bg.leader_tanks + ("irulan",))
    elif where == "captured":
        state = held_by_harkonnen(state, "bene-gesserit", "irulan")
    state = to_plan(state, "harkonnen")
    state = apply_action(state, SubmitPlan("harkonnen", "piter", 0, 0, 0, weapon="lasgun"))
    state = pass_buy_off(apply_action(state, SubmitPlan("atreides", "paul", 0, 0, 0)))  # K-19 step passed
    state = play_battle(state, through=(), calls={})
    events = list(state.events)
    assert "paul" in state.houses["atreides"].leader_tanks
    left = [e for e in events if e.kind == "leader-leaves"]
    assert [(e.data["leader"], e.data["powers"]) for e in left] == [("irulan", ("BG-L07-c",))]
    for hs in state.houses.values():
        assert not any(key.endswith("irulan") for key in hs.leaders + hs.leader_tanks)
    assert ("bene-gesserit", "irulan") not in state.captured


def test_k_25_s_7_no_death_no_leave():
    """S-7: while Paul and Shaddam live, Irulan stays (a battle where only Piter dies)."""
    state = position(["harkonnen", "atreides", "bene-gesserit"],
                     [("harkonnen", "mesa-molle", 8, 2), ("atreides", "mesa-molle", 8, 1)],
                     hands={"atreides": ("lasgun",)})
    state = to_plan(state, "harkonnen")
    state = apply_action(state, SubmitPlan("harkonnen", "piter", 0, 0, 0))
    state = pass_buy_off(apply_action(state, SubmitPlan("atreides", "paul", 0, 0, 0, weapon="lasgun")))  # K-19
    state = play_battle(state, through=(), calls={})
    assert "piter" in state.houses["harkonnen"].leader_tanks and "irulan" in state.houses["bene-gesserit"].leaders


# --- K-25 SPECIAL S-1 -------------------------------------------------------------------------------------------

def _kynes_at_sietch_tarb(harkonnen_slip=False):
    state = position(["fremen", "harkonnen"], [("fremen", "sietch-tarb", 12, 2), ("harkonnen", "sietch-tarb", 12, 2)])
    if harkonnen_slip:
        hk = state.houses["harkonnen"]
        state = dataclasses.replace(state, houses=state.houses.set("harkonnen", dataclasses.replace(
            hk, traitors=(("fremen", "stilgar"),))))
    return play_battle(state, {"fremen": SubmitPlan("fremen", "liet-kynes", 1, 0, 0),
                               "harkonnen": SubmitPlan("harkonnen", "piter", 1, 0, 0)},
                       until="traitor-call", through=("leader-buy-off",))  # K-19 before the reveal and S-1


def test_k_25_fremen_l01_c_s_1_stilgar_takes_kynes_place_at_sietch_tarb():
    """FREMEN-L01-c (S-1): at Sietch Tarb, once the wheels show Liet Kynes, the Fremen may put Stilgar in his place
    before the treachery calls; Stilgar is then the leader for everything: a Harkonnen slip on Stilgar may be
    called, and wins them the battle."""
    from dunenb.rules.battle_phase import CallTraitor
    from dunenb.rules.leader_specials import SubstituteLeader

    state = _kynes_at_sietch_tarb(harkonnen_slip=True)
    assert (state.pending.kind, state.pending.actor) == ("leader-special", "fremen")
    swap = SubstituteLeader("fremen", "stilgar", "FREMEN-L01-c")
    assert decisions(state)[1:] == [swap]
    state = apply_action(state, swap)
    assert [e.data["powers"] for e in state.events if e.kind == "leader-substituted"] == [("FREMEN-L01-c",)]
    assert context_of(state).plan_of("fremen").leader == "stilgar"
    state = play_battle(state, until=("traitor-call", "harkonnen"), through=(), calls={})
    assert CallTraitor("harkonnen", "stilgar") in decisions(state)
    state = play_battle(apply_action(state, CallTraitor("harkonnen", "stilgar")), through=(), calls={})
    kinds = [(e.kind, e.data.get("winner")) for e in state.events]
    assert ("battle-outcome", "harkonnen") in kinds


def test_k_25_s_1_not_offered_elsewhere_nor_once_stilgar_fought_elsewhere():
    """S-1 holds only at Sietch Tarb and only for a Stilgar who may lead there (BATTLE-15); with no option the
    Fremen are not asked (GAP-118)."""
    forces = [("fremen", "mesa-molle", 8, 2), ("harkonnen", "mesa-molle", 8, 2)]
    state = position(["fremen", "harkonnen"], forces)
    state = play_battle(state, {"fremen": SubmitPlan("fremen", "liet-kynes", 1, 0, 0),
                                "harkonnen": SubmitPlan("harkonnen", "piter", 1, 0, 0)},
                        until="traitor-call", through=("leader-buy-off",))  # K-19 (Harkonnen) before the reveal
    assert state.pending.kind == "traitor-call"
    state = _kynes_at_sietch_tarb()
    ctx = dataclasses.replace(context_of(state), committed=(("fremen", "stilgar", "mesa-molle"),))
    from dunenb.rules.leader_specials import before_calls

    assert before_calls(dataclasses.replace(state, pending=None), ctx).pending.kind == "traitor-call"


# --- K-25 SPECIAL S-5 -------------------------------------------------------------------------------------------

def test_k_25_atreides_l01_c_s_5_gurney_blows_up_the_shield_wall_from_arrakeen():
    """ATREIDES-L01-c (S-5): in a battle Gurney leads in Arrakeen, the Atreides may blow up the Shield Wall as
    CARD-ATOMICS-2 with no card and no sanction: the tokens on the wall die, the wall is a desert; the battle goes
    on (GAP-119: offered after the reveal, before the calls). Not with another leader."""
    from dunenb.rules.leader_specials import BlastShieldWall

    forces = [("atreides", "arrakeen", 1, 2), ("harkonnen", "arrakeen", 1, 2), ("harkonnen", "bouclier", 3, 2)]
    for leader, offered in (("gurney", True), ("duncan-idaho", False)):
        state = position(["harkonnen", "atreides"], forces)
        state = play_battle(state, {"atreides": SubmitPlan("atreides", leader, 1, 0, 1),
                                    "harkonnen": SubmitPlan("harkonnen", "piter", 1, 0, 0)},
                            until="traitor-call", through=("leader-buy-off",))  # K-19 before the reveal and S-5
        assert (state.pending.kind == "leader-special") == offered
        if not offered:
            continue
        blast = BlastShieldWall("atreides", "ATREIDES-L01-c")
        assert decisions(state) == [decisions(state)[0], blast] and state.pending.actor == "atreides"
        from dunenb.rules.anytime import BuyHarvester

        five = dataclasses.replace(state, houses=state.houses.set("atreides", dataclasses.replace(
            state.houses["atreides"], spice=5)))  # (the Bank's balance is not looked at here)
        assert check_action(five, BuyHarvester("atreides")).code == "harvester/cost"  # GAP-57: 1 is promised
        hand = state.houses["atreides"].hand
        state = apply_action(state, blast)
        assert not state.shield_wall_standing and ("harkonnen", "bouclier", 3) not in state.forces
        assert [e.data.get("powers") for e in state.events if e.kind == "shield-wall-destroyed"] == [
            ("ATREIDES-L01-c",)]
        assert state.houses["atreides"].hand == hand and "atreides" not in state.outlawed
        assert state.pending.kind == "traitor-call"


# --- K-25 SPECIAL S-8 -------------------------------------------------------------------------------------------

def _sietch_tarb_tax(leader):
    """The Harkonnen win a battle at Sietch Tarb led by ``leader``, then the turn goes on to its taxes (step j):
    the tax events of Sietch Tarb."""
    from dunenb.engine import current_player, sample_chance

    state = position(["harkonnen", "emperor"], [("harkonnen", "sietch-tarb", 12, 3), ("emperor", "sietch-tarb", 12, 1)])
    state = play_battle(state, {"harkonnen": SubmitPlan("harkonnen", leader, 1, 0, 0),
                                "emperor": SubmitPlan("emperor", "bashar", 1, 0, 0)}, through=())
    turn, taxes = state.turn, []
    while state.pending is not None and state.turn == turn:
        action = sample_chance(state) if current_player(state) == "chance" else decisions(state)[0]
        state = apply_action(state, action)
        taxes += [e for e in state.events if e.kind == "tax" and e.data["area"] == "sietch-tarb"]
    return taxes


def test_k_25_harkonnen_l02_d_s_8_ducal_tax_3_after_zebatalehs_battle_at_sietch_tarb():
    """HARKONNEN-L02-d (S-8): having led a battle at Sietch Tarb this turn, alive at step j, with the Harkonnen
    owning Sietch Tarb, Zébataleh makes its tax 3 instead of 1; after a battle led by Piter it is 1."""
    taxes = _sietch_tarb_tax("zebataleh")
    assert [(e.data["house"], e.data["amount"], e.data.get("powers")) for e in taxes] == [
        ("harkonnen", 3, ("HARKONNEN-L02-d",))]
    assert [(e.data["house"], e.data["amount"]) for e in _sietch_tarb_tax("piter")] == [("harkonnen", 1)]


def test_k_21_cannot_carry_the_analyzer_leaves_out_the_forbidden_defence():
    """ATREIDES-L03-d in the battle analyzer (``dunenb battle --optimal``): with Ghanima among the Atreides
    leaders, her plans carry no shield; Gurney's may."""
    import json

    from dunenb.analysis.battle_odds import sensible_plans
    from dunenb.battle.case import parse_case
    from dunenb.board import read_data_file

    raw = json.loads(json.dumps(read_data_file("battles/analysis_arrakeen.json")))
    raw["sides"][0]["leaders"] = ["gurney", "ghanima"]
    case = parse_case(raw)
    combos = sensible_plans(case, "atreides").combos
    assert {combo[2] for combo in combos if combo[0].id == "ghanima"} == {None, "snooper"}
    assert "shield" in {combo[2] for combo in combos if combo[0].id == "gurney"}


# --- K-25 SPECIAL S-6 -------------------------------------------------------------------------------------------

def _killed_in_battle(state, leader):
    """The Tleilax kill the Atreides' ``leader`` with a lasgun in the pending battle (Atreides: no defence)."""
    state = play_battle(state, {"bene-tleilax": SubmitPlan("bene-tleilax", "goose", 0, 0, 0, weapon="lasgun"),
                                "atreides": SubmitPlan("atreides", leader, 0, 0, 0)}, through=(), calls={})
    assert leader in state.houses["atreides"].leader_tanks
    return state


@pytest.mark.parametrize("power_id", ["ATREIDES-L02-c", "ATREIDES-L11-c"])
def test_k_25_s_6_the_idaho_ghola_from_the_4th_turn_after_duncans_death(power_id):
    """ATREIDES-L02-c, ATREIDES-L11-c (S-6): Duncan A02 dies in turn t; in turns t+1..t+3 nothing; from the start
    of turn t+4, with the Tleilax in play, the Atreides may at any time pay 5 spice to the Tleilax: Duncan's disc
    leaves the game and the Idaho-Ghola A11 joins them, alive. A11's own death restarts the count for a new A11."""
    from helpers_game import assert_conserved

    from dunenb.rules import anytime
    from dunenb.rules.leader_specials import GholaReturn

    forces = [("bene-tleilax", "mesa-molle", 8, 2), ("atreides", "mesa-molle", 8, 2)]
    state = position(["bene-tleilax", "atreides"], forces, hands={"bene-tleilax": ("lasgun",)})
    dead = "duncan-idaho"
    if power_id == "ATREIDES-L11-c":  # A11 already joined (S-6 once); he is the one who dies now
        from dunenb.rules.common import edit_house

        state = edit_house(state, "atreides", leaders=tuple(x for x in state.houses["atreides"].leaders
                                                            if x != "duncan-idaho") + ("idaho-ghola",))
        dead = "idaho-ghola"
    state = _killed_in_battle(state, dead)
    died = state.turn
    assert state.leader_deaths == (("atreides", dead, died),)
    spice = {house: state.houses[house].spice for house in ("atreides", "bene-tleilax")}
    pay = GholaReturn("atreides", dead, power_id)  # the dead leader's own S-6 entry
    for turn, offered in ((died + 3, False), (died + 4, True)):
        assert (pay in anytime.menu(dataclasses.replace(state, turn=turn), "atreides")) == offered
    later = dataclasses.replace(state, turn=died + 4)
    assert anytime.check(later, pay) is None
    later = anytime.apply(later, pay)
    atreides = later.houses["atreides"]
    assert "idaho-ghola" in atreides.leaders and dead not in atreides.leader_tanks
    assert atreides.spice == spice["atreides"] - 5 and later.houses["bene-tleilax"].spice == spice["bene-tleilax"] + 5
    assert [e.data["powers"] for e in later.events if e.kind == "ghola-return"] == [(power_id,)]
    assert later.leader_deaths == ()
    assert_conserved(later)


def test_k_25_s_6_no_ghola_without_the_tleilax_or_after_a_revival():
    """S-6: with the Tleilax not in play, or once Duncan is back from the tanks (a ghola card), no payment."""
    from dunenb.rules import anytime
    from dunenb.rules.common import edit_house

    forces = [("bene-tleilax", "mesa-molle", 8, 2), ("atreides", "mesa-molle", 8, 2)]
    state = _killed_in_battle(position(["bene-tleilax", "atreides"], forces, hands={"bene-tleilax": ("lasgun",)}),
                              "duncan-idaho")
    later = dataclasses.replace(state, turn=state.turn + 5)
    assert anytime.menu(later, "atreides")[-1].kind == "ghola-return"
    gone = dataclasses.replace(later, eliminated=("bene-tleilax",))
    assert not [a for a in anytime.menu(gone, "atreides") if a.kind == "ghola-return"]
    hs = later.houses["atreides"]
    revived = edit_house(later, "atreides", leader_tanks=(), leaders=hs.leaders + ("duncan-idaho",))
    assert not [a for a in anytime.menu(revived, "atreides") if a.kind == "ghola-return"]


# --- K-25 SPECIAL S-2 -------------------------------------------------------------------------------------------

def _after_desert_battle(leader):
    """The Atreides win a battle in the Bassin du Bouclier (a desert) led by ``leader``, keeping 3 tokens there;
    then it is the next turn's storm phase."""
    state = position(["atreides", "harkonnen"], [("atreides", "bassin-du-bouclier", 6, 4),
                                                 ("harkonnen", "bassin-du-bouclier", 6, 1)])
    state = play_battle(state, {"atreides": SubmitPlan("atreides", leader, 1, 0, 0),
                                "harkonnen": SubmitPlan("harkonnen", "piter", 1, 0, 0)},
                        through=("leader-buy-off",), calls={})  # K-19's step (Harkonnen) before the reveal
    assert state.forces[("atreides", "bassin-du-bouclier", 6)].total == 3
    fought = next(turn for house, _leader, _area, turn in state.battles_led if house == "atreides")
    return dataclasses.replace(state, turn=fought + 1, phase="storm", events=())


def _left(state):
    stack = state.forces.get(("atreides", "bassin-du-bouclier", 6))
    return 0 if stack is None else stack.total


@pytest.mark.parametrize(("leader", "storm_left", "worm_left"), [("siona", 1, 3), ("duncan-idaho", 0, 0)])
def test_k_25_atreides_l10_c_s_2_siona_shelters_her_tokens_in_the_desert_next_turn(leader, storm_left, worm_left):
    """ATREIDES-L10-c (S-2): after a battle Siona led in a desert, during the next turn's storm and spice blow the
    Atreides tokens left there lose only half (rounded up) to a storm and are spared by a worm; after a battle
    led by Duncan they are not."""
    from dunenb.rules.common import destroy_in_sector
    from dunenb.rules.spice import devour

    state = _after_desert_battle(leader)
    stormed = destroy_in_sector(state, 6, cause="storm")
    assert _left(stormed) == storm_left
    eaten = devour(dataclasses.replace(state, phase="spice-blow"), "bassin-du-bouclier", cause="Shai-Hulud")
    assert _left(eaten) == worm_left
    named = [e.data.get("powers") for e in stormed.events + eaten.events if e.data.get("house") == "atreides"]
    assert (("ATREIDES-L10-c",) in named) == (leader == "siona")
    later = dataclasses.replace(state, turn=state.turn + 1)  # only the next turn
    assert destroy_in_sector(later, 6, cause="storm").forces.get(("atreides", "bassin-du-bouclier", 6)) is None
