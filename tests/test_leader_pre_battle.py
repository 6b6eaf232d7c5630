"""leaders.md K-16 PRE_BATTLE at LC-5 B1 in games (dunenb.rules.leader_pre_battle): each action's scene, the
leader it shows and binds, and the menus and errors."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from helpers_game import (
    assert_conserved,
    clear_map,
    decisions,
    events_of,
    give_cards,
    outcome_map,
    pass_leader_karama,
    place,
    play_battle,
    quiet_setup,
    set_storms,
)

from dunenb.actions import Pass
from dunenb.battle.wheel import Dial, army_value
from dunenb.engine import apply_action, check_action, view
from dunenb.rules.battle_context import context_of
from dunenb.rules.battle_phase import CallTraitor, SubmitPlan, begin_phase
from dunenb.rules.leader_pre_battle import (
    AnnounceSpice,
    LeaderTraitorDraw,
    NameEstimate,
    PreBattleDraw,
    SeeCard,
    SeeStorm,
    UsePreBattle,
    after_plan,
)
from dunenb.rules.pre_battle import CommitLeader
from dunenb.rules.secrecy import viewers
from dunenb.state import Tokens


def to_b1(houses, area="arsunt", sector=5, tokens=3, hands=None, discard=()):
    """A quiet setup with only the two Houses' ``tokens`` in ``area`` (and a second battle waiting in Carthag),
    at the battle phase, past the battle-start Karama window and the BG-M2 disclosure (passed): LC-5 B1."""
    state = clear_map(set_storms(quiet_setup(houses), main=10))
    for house in houses:
        hs = state.houses[house]
        state = dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(hs, hand=(),
                                                                                              traitors=())),
                                    treachery_discard=state.treachery_discard + hs.hand)
        state = place(place(state, house, area, sector, tokens), house, "carthag", 4, 1)
    for house, cards in (hands or {}).items():
        state = give_cards(state, house, *cards)
    if discard:
        state = dataclasses.replace(state, treachery_discard=tuple(discard))
    state = begin_phase(dataclasses.replace(state, events=(), storm_dialers=(houses[0], houses[-1])))
    said = state.events
    while state.pending.kind in ("battle-choice", "karama-window", "battle-disclose"):
        action = (next(a for a in decisions(state) if a.territory == area) if state.pending.kind == "battle-choice"
                  else Pass(state.pending.actor))
        state = apply_action(state, action)
        said += state.events
    return dataclasses.replace(state, events=said)


def play(state, *actions):
    said = state.events
    for action in actions:
        assert check_action(state, action) is None, check_action(state, action)
        state = pass_leader_karama(apply_action(state, action))  # LC-11 a windows passed (GAP-151)
        said += state.events
    return dataclasses.replace(state, events=said)


def pass_b1(state):
    """Pass the K-16 uses of LC-5 B1 (not those of B3); events kept."""
    return play_battle(state, until=lambda s: s.pending.detail.get("step") != "B1", through=("leader-pre-battle",))


def test_guild_l04_d_ludwic_gains_2_spice_at_gara_kulon_and_must_then_lead():
    """GUILD-L04-d: at Gara Kulon, before the Voices, the Guild use Ludwic's power: 2 spice from the Bank; using
    it shows Ludwic, who must lead (a plan naming another leader is refused)."""
    state = to_b1(["guild", "atreides"], area="gara-kulon", sector=20)
    assert (state.pending.kind, state.pending.actor) == ("leader-pre-battle", "guild")
    assert decisions(state) == [Pass("guild"), UsePreBattle("guild", "ludwic", "GUILD-L04-d")]
    spice = state.houses["guild"].spice
    state = play(state, UsePreBattle("guild", "ludwic", "GUILD-L04-d"))
    assert state.houses["guild"].spice == spice + 2
    assert [e.data["leader"] for e in events_of(state, "leader-disclosed")] == ["ludwic"]
    assert state.pending.kind != "leader-pre-battle"  # once a battle: the Guild are not asked again
    state = play_battle(state, {"atreides": SubmitPlan("atreides", "duncan-idaho", 1, 0, 0)},
                        until=("battle-plan", "guild"))
    error = check_action(state, SubmitPlan("guild", "edric", 1, 0, 0))
    assert error is not None and error.code == "battle/leader-disclosed"
    assert check_action(state, SubmitPlan("guild", "ludwic", 1, 0, 0)) is None
    assert_conserved(state)


def test_guild_l04_d_not_asked_outside_gara_kulon():
    state = to_b1(["guild", "atreides"])
    assert state.pending.kind != "leader-pre-battle"


def test_harkonnen_l12_c_ziarenko_gains_1d2_spice_a_public_roll():
    """HARKONNEN-L12-c: a public chance node, 1 or 2 spice from the Bank, each 1/2 (LC-1)."""
    state = to_b1(["harkonnen", "atreides"])
    assert (state.pending.kind, state.pending.actor) == ("leader-pre-battle", "harkonnen")
    state = play(state, UsePreBattle("harkonnen", "ziarenko", "HARKONNEN-L12-c"))
    assert outcome_map(state) == {PreBattleDraw("harkonnen", "HARKONNEN-L12-c", "1"): Fraction(1, 2),
                                  PreBattleDraw("harkonnen", "HARKONNEN-L12-c", "2"): Fraction(1, 2)}
    spice = state.houses["harkonnen"].spice
    state = play(state, PreBattleDraw("harkonnen", "HARKONNEN-L12-c", "2"))
    assert state.houses["harkonnen"].spice == spice + 2 and events_of(state, "leader-spice")
    assert viewers(state, PreBattleDraw("harkonnen", "HARKONNEN-L12-c", "2")) is None  # public
    assert_conserved(state)


def test_bg_l09_a_wensicia_locks_the_opponents_wheel_spice():
    """BG-L09-a: the Harkonnen announce their wheel spice now; a plan dialling another amount is refused and the
    plan menu dials only the amount announced."""
    state = to_b1(["bene-gesserit", "harkonnen"])
    assert (state.pending.kind, state.pending.actor) == ("leader-pre-battle", "bene-gesserit")
    state = play(state, UsePreBattle("bene-gesserit", "wensicia", "BG-L09-a"))
    assert (state.pending.kind, state.pending.actor) == ("lock-spice", "harkonnen")
    assert decisions(state) == [AnnounceSpice("harkonnen", n) for n in range(4)]  # 3 tokens, 12 spice
    error = check_action(state, AnnounceSpice("harkonnen", 4))
    assert error is not None and error.code == "battle/spice-locked" and "0..3" in error.message
    state = play(state, AnnounceSpice("harkonnen", 2))
    assert events_of(state, "spice-locked")[0].data["spice"] == 2
    state = pass_b1(state)
    state = play_battle(state, {"bene-gesserit": SubmitPlan("bene-gesserit", "wensicia", 1, 0, 0)},
                        until=("battle-plan", "harkonnen"))
    error = check_action(state, SubmitPlan("harkonnen", "feyd-rautha", 3, 0, 0))
    assert error is not None and error.code == "battle/spice-locked"
    assert check_action(state, SubmitPlan("harkonnen", "feyd-rautha", 3, 0, 2)) is None
    assert {a.spice for a in decisions(state) if isinstance(a, SubmitPlan)} == {2}


def test_tleilax_l01_d_scytale_doubles_the_army_from_the_reserve():
    """TLEILAX-L01-d: as many free reserve tokens as the Tleilax have in the territory (3) join the army."""
    state = to_b1(["bene-tleilax", "atreides"])
    assert (state.pending.kind, state.pending.actor) == ("leader-pre-battle", "bene-tleilax")
    reserve = state.houses["bene-tleilax"].reserve.total
    state = play(state, UsePreBattle("bene-tleilax", "scytale", "TLEILAX-L01-d"))
    assert state.forces[("bene-tleilax", "arsunt", 5)] == Tokens(6)
    assert state.houses["bene-tleilax"].reserve.total == reserve - 3
    assert events_of(state, "leader-reinforce") and not events_of(state, "landing")
    assert UsePreBattle("bene-tleilax", "torg", "TLEILAX-L02-d") not in decisions(state)  # Scytale leads now
    assert_conserved(state)


def test_tleilax_l02_d_torg_brings_2_tokens_limited_by_the_reserve():
    """TLEILAX-L02-d: +2 from the reserve (1 when only 1 is left there)."""
    state = to_b1(["bene-tleilax", "atreides"])
    after = play(state, UsePreBattle("bene-tleilax", "torg", "TLEILAX-L02-d"))
    assert after.forces[("bene-tleilax", "arsunt", 5)] == Tokens(5)

    def one_left(state):
        hs = state.houses["bene-tleilax"]
        keep = hs.reserve - Tokens(1)
        return dataclasses.replace(state, houses=state.houses.set("bene-tleilax", dataclasses.replace(
            hs, reserve=Tokens(1), tanks=hs.tanks + keep)))
    poor = one_left(state)
    after = play(poor, UsePreBattle("bene-tleilax", "torg", "TLEILAX-L02-d"))
    assert after.forces[("bene-tleilax", "arsunt", 5)] == Tokens(4) and after.houses["bene-tleilax"].reserve.total == 0


def test_emperor_l12_a_farad_n_swaps_a_card_with_the_discard_pile():
    """EMPEROR-L12-a: one card of the hand for one of the discard pile (GAP-27), both shown to all."""
    state = to_b1(["emperor", "atreides"], hands={"emperor": ("shield",)}, discard=("lasgun",))
    assert (state.pending.kind, state.pending.actor) == ("leader-pre-battle", "emperor")
    use = UsePreBattle("emperor", "farad-n", "EMPEROR-L12-a", "shield>lasgun")
    assert use in decisions(state)
    bad = check_action(state, UsePreBattle("emperor", "farad-n", "EMPEROR-L12-a", "shield>atomics"))
    assert bad is not None and bad.code == "battle/pre-battle" and "EMPEROR-L12-a (farad-n)" in bad.message
    state = play(state, use)
    assert "lasgun" in state.houses["emperor"].hand and "shield" not in state.houses["emperor"].hand
    assert state.treachery_discard == ("shield",)
    assert events_of(state, "leader-swap-card")[0].data["taken"] == "lasgun"


def test_bg_l08_b_margot_sees_a_random_card_of_the_opponents_hand_secretly():
    """BG-L08-b: one card drawn at random from the Harkonnen hand, seen by the BG (and the Harkonnen), given
    back."""
    state = to_b1(["bene-gesserit", "harkonnen"], hands={"harkonnen": ("shield", "poison-fast")})
    state = play(state, UsePreBattle("bene-gesserit", "margot", "BG-L08-b"))
    outcomes = outcome_map(state)
    assert outcomes == {SeeCard("bene-gesserit", "BG-L08-b", "poison-fast", "harkonnen"): Fraction(1, 2),
                        SeeCard("bene-gesserit", "BG-L08-b", "shield", "harkonnen"): Fraction(1, 2)}
    draw = SeeCard("bene-gesserit", "BG-L08-b", "shield", "harkonnen")
    assert viewers(state, draw) == ("bene-gesserit", "harkonnen")
    hand = state.houses["harkonnen"].hand
    state = play(state, draw)
    assert state.houses["harkonnen"].hand == hand and "shield" not in events_of(state, "leader-see-card")[0].text
    assert context_of(state).shown[-1].leader == "margot"


def test_harkonnen_l04_c_piter_makes_the_opponent_commit_his_leader_shown_to_the_harkonnen():
    """HARKONNEN-L04-c: as BG-M2, before the Voices: Piter is shown (and bound), and the Atreides commit their
    leader at once, shown privately to the Harkonnen; both plans must name those leaders."""
    state = to_b1(["harkonnen", "atreides"])
    assert (state.pending.kind, state.pending.actor) == ("leader-pre-battle", "harkonnen")
    state = play(state, UsePreBattle("harkonnen", "piter", "HARKONNEN-L04-c"))
    assert (state.pending.kind, state.pending.actor) == ("battle-commit-leader", "atreides")
    commit = CommitLeader("atreides", "gurney")
    assert viewers(state, commit) == ("atreides", "harkonnen")
    state = play(state, commit)
    shown = {s.house: (s.leader, s.to) for s in context_of(state).shown}
    assert shown == {"harkonnen": ("piter", ()), "atreides": ("gurney", ("harkonnen",))}
    assert state.pending.kind != "leader-pre-battle"  # Piter is bound: Ziarenko's HARKONNEN-L12-c is not offered
    state = play_battle(state)  # to the first plan
    house = state.pending.actor
    other = {"harkonnen": ("piter", "feyd-rautha"), "atreides": ("gurney", "duncan-idaho")}[house]
    error = check_action(state, SubmitPlan(house, other[1], 1, 0, 0))
    assert error is not None and error.code == "battle/leader-disclosed"
    assert check_action(state, SubmitPlan(house, other[0], 1, 0, 0)) is None


def test_emperor_l11_b_ziarenko_buys_the_top_card_for_3_seen_by_the_atreides_or_5_unseen():
    """EMPEROR-L11-b: 3 spice to the Bank, the card seen by the Atreides (ATREIDES-P2 b); or 5, not seen."""
    state = to_b1(["emperor", "atreides"])
    uses = [a for a in decisions(state) if isinstance(a, UsePreBattle) and a.power == "EMPEROR-L11-b"]
    assert [u.choice for u in uses] == ["3", "5"]
    for price, seen in ((3, ("emperor", "atreides")), (5, ("emperor",))):
        spice, bank = state.houses["emperor"].spice, state.bank
        drawn = play(state, UsePreBattle("emperor", "ziarenko", "EMPEROR-L11-b", str(price)))
        assert drawn.houses["emperor"].spice == spice - price and drawn.bank == bank + price
        card, p = next(iter(outcome_map(drawn).items()))
        assert sum(outcome_map(drawn).values()) == 1 and p > 0
        assert viewers(drawn, card) == seen
        after = play(drawn, card)
        assert after.houses["emperor"].hand == (card.card,)
        assert_conserved(after)


def test_emperor_l12_b_farad_n_fills_the_hand_to_6_free():
    """EMPEROR-L12-b: free cards from the deck up to 6, one chance node each, seen by the Atreides."""
    state = to_b1(["emperor", "atreides"], hands={"emperor": ("shield", "lasgun")})
    state = play(state, UsePreBattle("emperor", "farad-n", "EMPEROR-L12-b"))
    spice = state.houses["emperor"].spice
    for _ in range(4):
        assert state.pending.kind == "leader-card"
        card = next(iter(outcome_map(state)))
        assert viewers(state, card) == ("emperor", "atreides")
        state = play(state, card)
    assert len(state.houses["emperor"].hand) == 6 and state.houses["emperor"].spice == spice
    assert state.pending.kind != "leader-card"


def test_harkonnen_l08_c_yhekem_draws_an_opposing_leader_as_a_traitor_for_this_battle():
    """HARKONNEN-L08-c: one of the Atreides' own leaders drawn at random (not Paul, the main leader), seen by
    the two Houses; the Harkonnen may call treachery on him in this battle as if they held his slip."""
    state = to_b1(["harkonnen", "atreides"])
    state = play(state, UsePreBattle("harkonnen", "yhekem", "HARKONNEN-L08-c"))
    outcomes = outcome_map(state)
    drawn = {a.leader for a in outcomes}
    assert "paul" not in drawn and "duncan-idaho" in drawn and len(set(outcomes.values())) == 1
    draw = LeaderTraitorDraw("harkonnen", "HARKONNEN-L08-c", "atreides", "duncan-idaho")
    assert viewers(state, draw) == ("harkonnen", "atreides")
    state = pass_b1(play(state, draw))
    state = play_battle(state, {house: SubmitPlan(house, leader, 1, 0, 0) for house, leader in (
        ("harkonnen", "yhekem"), ("atreides", "duncan-idaho"))}, until=("traitor-call", "harkonnen"))
    assert CallTraitor("harkonnen", "duncan-idaho") in decisions(state)
    assert state.houses["harkonnen"].traitors == ()  # no slip: the draw lasts this battle only


def _to_b3(houses):
    """Past B1 and the Voices / prescience (all passed): the B3 step."""
    # leaders.md D-31 (HARKONNEN-L10-c): the B1 availability roll is settled with a 10, no built-in there
    return play_battle(pass_b1(to_b1(houses)), through=("battle-voice", "battle-prescience", "battle-answer",
                                                        "karama-window", "battle-b1-roll"))


def _plan_of(state, house, plans):
    return play_battle(state, {other: SubmitPlan(other, leader, 1, 0, 0) for other, leader in plans.items()
                               if other != house}, until=("battle-plan", house))


def test_atreides_l07_a_tufir_estimate_binds_the_opponents_army_value_within_1():
    """ATREIDES-L07-a: at B3 the Harkonnen name their army value (their choice, D-34); their plan must be within
    ±1 of it, and their menu dials only such plans."""
    state = _to_b3(["atreides", "harkonnen"])
    assert (state.pending.kind, state.pending.actor) == ("leader-pre-battle", "atreides")
    assert context_of(state).sequence is not None  # after the Voices and the prescience (LC-5 B3)
    state = play(state, UsePreBattle("atreides", "tufir", "ATREIDES-L07-a"))
    assert (state.pending.kind, state.pending.actor) == ("leader-estimate", "harkonnen")
    assert [a.value for a in decisions(state)] == [0, 1, 2, 3]  # 3 tokens and spice: at most 3
    error = check_action(state, NameEstimate("harkonnen", 4))
    assert error is not None and error.code == "battle/estimate"
    state = play(state, NameEstimate("harkonnen", 3))
    state = _plan_of(pass_b1(state), "harkonnen", {"atreides": "tufir"})
    error = check_action(state, SubmitPlan("harkonnen", "feyd-rautha", 1, 0, 0))  # army 0.5
    assert error is not None and "army value" in error.message
    assert check_action(state, SubmitPlan("harkonnen", "feyd-rautha", 2, 0, 2)) is None  # army 2
    plans = [a for a in decisions(state) if isinstance(a, SubmitPlan)]
    assert plans and all(abs(float(army_value(Dial(a.regular, a.marked, a.spice))) - 3) <= 1 for a in plans)


def test_atreides_l07_b_tufir_estimate_binds_the_opponents_leader_strength_within_2():
    """ATREIDES-L07-b: the Harkonnen name a strength; their leader's base strength must be within ±2 of it."""
    state = play(_to_b3(["atreides", "harkonnen"]), UsePreBattle("atreides", "tufir", "ATREIDES-L07-b"))
    state = play(state, NameEstimate("harkonnen", 2))
    state = _plan_of(pass_b1(state), "harkonnen", {"atreides": "tufir"})
    error = check_action(state, SubmitPlan("harkonnen", "feyd-rautha", 1, 0, 0))  # Feyd is 6
    assert error is not None and "strength" in error.message
    assert check_action(state, SubmitPlan("harkonnen", "lingar", 1, 0, 0)) is None  # Lingar is 2
    assert "feyd-rautha" not in {a.leader for a in decisions(state) if isinstance(a, SubmitPlan)}


def _sense(houses, user, leader, power, edit=None):
    state = _to_b3(houses) if edit is None else edit(_to_b3(houses))
    assert (state.pending.kind, state.pending.actor) == ("leader-pre-battle", user)
    state = play(state, UsePreBattle(user, leader, power))
    other = next(h for h in houses if h != user)
    assert (state.pending.kind, state.pending.actor) == ("battle-plan", other)  # GAP-115: the opponent first
    return state, other


def test_tleilax_l10_e_idaho_ghola_senses_whether_the_opposing_wheel_holds_a_karama():
    """TLEILAX-L10-e: once the opponent's plan is set, he says truthfully whether his wheel holds a Karama."""
    state, other = _sense(["bene-tleilax", "harkonnen"], "bene-tleilax", "idaho-ghola", "TLEILAX-L10-e")
    after = play(state, SubmitPlan(other, "feyd-rautha", 1, 0, 0))
    said = events_of(after, "karama-sensed")
    assert [e.data["karama"] for e in said] == [False] and said[0].data["to"] == "bene-tleilax"
    assert (after.pending.kind, after.pending.actor) == ("battle-plan", "bene-tleilax")
    # the same answer for a wheel that holds one (the Tleilax have no power a Karama could block here, so the
    # plan is set into the context directly)
    ctx = context_of(after)
    with_karama = dataclasses.replace(ctx, secrets=((other, SubmitPlan(other, "feyd-rautha", 1, 0, 0,
                                                                       karama="karama")),))
    sensed = after_plan(dataclasses.replace(after, events=()), with_karama, other)
    assert [e.data["karama"] for e in sensed.events] == [True]


def test_atreides_l11_d_idaho_ghola_senses_no_karama_and_plans_second():
    """ATREIDES-L11-d (the ghola in play by S-6): the same power for the Atreides."""
    def ghola(state):
        hs = state.houses["atreides"]
        return dataclasses.replace(state, houses=state.houses.set("atreides", dataclasses.replace(
            hs, leaders=tuple(x for x in hs.leaders if x != "duncan-idaho") + ("idaho-ghola",))))
    state = pass_b1(to_b1(["atreides", "harkonnen"]))
    state = ghola(state)
    state = play_battle(state, through=("battle-voice", "battle-prescience", "battle-answer", "karama-window"))
    state = play(state, UsePreBattle("atreides", "idaho-ghola", "ATREIDES-L11-d"))
    assert (state.pending.kind, state.pending.actor) == ("battle-plan", "harkonnen")  # the ghola leads: no Tufir
    state = play(state, SubmitPlan("harkonnen", "feyd-rautha", 1, 0, 0))
    assert [e.data["karama"] for e in events_of(state, "karama-sensed")] == [False]


def test_guild_l11_c_staban_pays_the_fremen_1_to_see_their_storm_tokens():
    """GUILD-L11-c (vs Fremen): 1 spice to the Fremen, then the Fremen's storm tokens for next turn (FREMEN-P1),
    shown to the Guild only (a secret action seen by the two Houses)."""
    state = to_b1(["guild", "fremen"])
    assert (state.pending.kind, state.pending.actor) == ("leader-pre-battle", "guild")
    spice = {h: state.houses[h].spice for h in ("guild", "fremen")}
    state = play(state, UsePreBattle("guild", "staban", "GUILD-L11-c"))
    assert state.houses["guild"].spice == spice["guild"] - 1 and state.houses["fremen"].spice == spice["fremen"] + 1
    tokens = ",".join(f"{k}={v}" for k, v in sorted(state.storm_tokens.items()))
    seen = SeeStorm("guild", "GUILD-L11-c", "fremen", tokens)
    assert outcome_map(state) == {seen: Fraction(1)}
    assert viewers(state, seen) == ("guild", "fremen")
    assert "=" not in events_of(state, "leader-see-storm")[0].text


def test_guild_l11_c_not_offered_against_another_house():
    assert to_b1(["guild", "atreides"]).pending.kind != "leader-pre-battle"


def test_harkonnen_l08_c_the_leader_drawn_is_hidden_from_a_third_house():
    """HARKONNEN-L08-c, GAP-58: only the two Houses of the battle see which leader was drawn."""
    state = to_b1(["harkonnen", "atreides", "guild"])
    state = play_battle(state, until=("leader-pre-battle", "harkonnen"))
    state = play(state, UsePreBattle("harkonnen", "yhekem", "HARKONNEN-L08-c"))
    state = play(state, LeaderTraitorDraw("harkonnen", "HARKONNEN-L08-c", "atreides", "duncan-idaho"))
    seen = {h: context_of(view(state, h)).leader_acts for h in ("harkonnen", "atreides", "guild")}
    assert seen["harkonnen"] == seen["atreides"] == (("harkonnen", "HARKONNEN-L08-c", "atreides:duncan-idaho"),)
    assert seen["guild"] == (("harkonnen", "HARKONNEN-L08-c", "hidden"),)
