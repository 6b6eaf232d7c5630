"""leaders.md K-19 BUY_OFF (LC-5 B5) and K-18 ALLIANCE_INSTEAD_OF_BATTLE (LC-5 B8) in games
(dunenb.rules.leader_deals), through the buy-off mechanism of HARKONNEN-M2."""

from __future__ import annotations

import dataclasses

import pytest
from helpers_game import (
    assert_conserved,
    clear_map,
    decisions,
    events_of,
    held_by_harkonnen,
    pass_unable,
    place,
    play_battle,
    quiet_setup,
    set_storms,
)

from dunenb.actions import Pass
from dunenb.engine import apply_action, check_action
from dunenb.powers import holder
from dunenb.rules.battle_context import context_of
from dunenb.rules.battle_phase import SubmitPlan, begin_phase
from dunenb.rules.leader_deals import AnswerAlliance, GiveLeader, LeaderBuyOff, ProposeAlliance, ShowSlip
from dunenb.rules.secrecy import viewers
from dunenb.state import Tokens


def open_battle(houses, area="arsunt", sector=5, tokens=3, edit=None):
    """A quiet setup with only the two Houses' ``tokens`` in ``area``, at the battle phase, past the steps
    before the plans (Karama windows, Voices, prescience passed). A second battle waits in Carthag, so that
    the phase (and the turn's peace) goes on after the first."""
    state = clear_map(set_storms(quiet_setup(houses), main=10))
    for house in houses:
        hs = state.houses[house]
        state = dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(hs, hand=(),
                                                                                              traitors=())),
                                    treachery_discard=state.treachery_discard + hs.hand)
        state = place(place(state, house, area, sector, tokens), house, "carthag", 4, 1)
    if edit:
        state = edit(state)
    state = begin_phase(dataclasses.replace(state, events=(), storm_dialers=(houses[0], houses[-1])))
    if state.pending.kind == "battle-choice":
        state = apply_action(state, next(a for a in decisions(state) if a.territory == area))
    state = play_battle(state)
    assert state.pending.kind == "battle-plan", state.pending
    return state


def plans(state, leaders, dial=1, *, buy_off=True):
    """Both sides set their plans (``leaders``: House -> leader id) with ``dial`` tokens, the traitor calls
    passed; ``buy_off=False``: the K-19 step is passed too. Events kept."""
    return play_battle(state, {house: SubmitPlan(house, leaders[house], dial, 0, 0)
                               for house in context_of(state).order},
                       through=() if buy_off else ("leader-buy-off",))


def play(state, *actions):
    said = state.events
    for action in actions:
        assert check_action(state, action) is None, check_action(state, action)
        state = pass_unable(apply_action(state, action), ("traitor-call",))
        said += state.events
    return dataclasses.replace(state, events=said)


def fought(state):
    """Whether the battle was resolved (its wheels revealed)."""
    return bool(events_of(state, "plan-revealed"))


# --- K-19 BUY_OFF -------------------------------------------------------------------------------------------

BG_HK = ["bene-gesserit", "harkonnen"]


def test_bg_l11_b_talamane_buys_the_battle_off_for_3_before_the_reveal():
    """BG-L11-b: at B5, with Talamane on its wheel, the BG pay the Harkonnen 3: the battle is void, nothing is
    lost, the wheels are never revealed and the BG tokens in Arsunt are at peace."""
    state = plans(open_battle(BG_HK), {"bene-gesserit": "talamane", "harkonnen": "feyd-rautha"})
    assert (state.pending.kind, state.pending.actor) == ("leader-buy-off", "bene-gesserit")
    assert decisions(state) == [Pass("bene-gesserit"), LeaderBuyOff("bene-gesserit", "BG-L11-b", 3)]
    spice = {h: state.houses[h].spice for h in BG_HK}
    after = play(state, LeaderBuyOff("bene-gesserit", "BG-L11-b", 3))
    assert after.houses["bene-gesserit"].spice == spice["bene-gesserit"] - 3
    assert after.houses["harkonnen"].spice == spice["harkonnen"] + 3
    assert ("bene-gesserit", "arsunt") in after.at_peace
    assert not fought(after) and events_of(after, "battle-bought-off")
    assert [e.data["leader"] for e in events_of(after, "leader-shown")] == ["talamane"]
    assert after.forces[("harkonnen", "arsunt", 5)] == Tokens(3) and after.forces[("bene-gesserit", "arsunt", 5)]
    assert_conserved(after)


def test_bg_l11_b_without_talamane_on_the_wheel_only_the_pass_is_offered_and_the_battle_is_fought():
    """BG-L11-b: the BG are asked (Talamane could have led: GAP-111), but the buy-off needs her on the wheel."""
    state = plans(open_battle(BG_HK), {"bene-gesserit": "darwi", "harkonnen": "feyd-rautha"})
    assert decisions(state) == [Pass("bene-gesserit")]
    error = check_action(state, LeaderBuyOff("bene-gesserit", "BG-L11-b", 3))
    assert error is not None and error.code == "buy-off/leader" and "allowed: pass" in error.message
    state = play(state, Pass("bene-gesserit"))
    assert (state.pending.kind, state.pending.actor) == ("leader-buy-off", "harkonnen")  # Lingar could lead
    assert fought(play(state, Pass("harkonnen")))


def test_harkonnen_l07_b_lingar_buys_the_battle_off_for_5_and_the_cost_must_be_right():
    """HARKONNEN-L07-b: Lingar's buy-off costs 5, paid to the BG, who cannot refuse; the Harkonnen are at peace."""
    state = plans(open_battle(BG_HK), {"bene-gesserit": "darwi", "harkonnen": "lingar"})
    state = play(state, Pass("bene-gesserit"))
    error = check_action(state, LeaderBuyOff("harkonnen", "HARKONNEN-L07-b", 3))
    assert error is not None and error.code == "buy-off/leader" and "HARKONNEN-L07-b for 5" in error.message
    spice = state.houses["bene-gesserit"].spice
    after = play(state, LeaderBuyOff("harkonnen", "HARKONNEN-L07-b", 5))
    assert after.houses["bene-gesserit"].spice == spice + 5 and ("harkonnen", "arsunt") in after.at_peace
    assert not fought(after)
    assert_conserved(after)


def test_harkonnen_l07_b_not_offered_when_the_harkonnen_cannot_pay():
    """K-19: the buyer must be able to pay the cost."""
    def poor(state):
        hs = state.houses["harkonnen"]
        return dataclasses.replace(state, houses=state.houses.set("harkonnen", dataclasses.replace(hs, spice=4)),
                                   bank=state.bank + hs.spice - 4)
    state = play(plans(open_battle(BG_HK, edit=poor), {"bene-gesserit": "darwi", "harkonnen": "lingar"}),
                 Pass("bene-gesserit"))
    assert decisions(state) == [Pass("harkonnen")]


# --- K-18 ALLIANCE_INSTEAD_OF_BATTLE -------------------------------------------------------------------------

def test_guild_l10_b_esmar_pays_spice_for_an_alliance_instead_of_the_battle():
    """GUILD-L10-b: Esmar against an Imperial leader: at B8 the Guild offer 2 spice; the Emperor accepts: the
    spice is paid at once, the battle is void (nobody dies, nothing lost) and the Guild are at peace there."""
    houses = ["guild", "emperor"]
    state = plans(open_battle(houses), {"guild": "esmar", "emperor": "burseg"}, buy_off=False)
    assert (state.pending.kind, state.pending.actor) == ("leader-alliance", "guild")
    assert ProposeAlliance("guild", "GUILD-L10-b", "spice", 2) in decisions(state)
    spice = {h: state.houses[h].spice for h in houses}
    state = play(state, ProposeAlliance("guild", "GUILD-L10-b", "spice", 2))
    assert (state.pending.kind, state.pending.actor) == ("leader-alliance-answer", "emperor")
    after = play(state, AnswerAlliance("emperor", "accept"))
    assert after.houses["guild"].spice == spice["guild"] - 2 and after.houses["emperor"].spice == spice["emperor"] + 2
    assert ("guild", "arsunt") in after.at_peace and ("emperor", "arsunt") not in after.at_peace
    assert events_of(after, "leader-alliance") and not events_of(after, "leader-killed")
    assert after.houses["emperor"].leader_tanks == () and after.houses["guild"].leader_tanks == ()
    assert_conserved(after)


def test_guild_l10_b_refused_the_battle_goes_on_and_a_bad_offer_is_refused():
    houses = ["guild", "emperor"]
    state = plans(open_battle(houses), {"guild": "esmar", "emperor": "burseg"}, buy_off=False)
    too_much = ProposeAlliance("guild", "GUILD-L10-b", "spice", state.houses["guild"].spice + 1)
    error = check_action(state, too_much)
    assert error is not None and error.code == "alliance/leader-offer" and "amount 1 to" in error.message
    wrong = check_action(state, ProposeAlliance("guild", "GUILD-L12-a", "spice", 1))
    assert wrong is not None and "allowed: GUILD-L10-b" in wrong.message
    spice = state.houses["guild"].spice
    after = play(state, ProposeAlliance("guild", "GUILD-L10-b", "spice", 1), AnswerAlliance("emperor", "refuse"))
    assert events_of(after, "leader-alliance-refused") and not events_of(after, "leader-alliance")
    assert ("guild", "arsunt") not in after.at_peace and after.houses["guild"].spice <= spice


def test_guild_l10_b_not_offered_against_another_house_nor_after_a_treachery():
    """K-18's partner condition (opp of Emperor, D-30) and LC-5 B8 (skipped after a treachery)."""
    state = plans(open_battle(["guild", "harkonnen"]), {"guild": "esmar", "harkonnen": "feyd-rautha"}, buy_off=False)
    assert state.pending.kind != "leader-alliance"
    def slip(state):
        hs = state.houses["emperor"]
        return dataclasses.replace(state, houses=state.houses.set("emperor", dataclasses.replace(
            hs, traitors=(("guild", "esmar"),))))
    state = open_battle(["guild", "emperor"], edit=slip)
    state = apply_action(state, SubmitPlan("guild", "esmar", 1, 0, 0))
    state = play_battle(state, {"emperor": SubmitPlan("emperor", "burseg", 1, 0, 0)}, through=(),
                        calls={"emperor": "esmar"})  # the Emperor calls treachery on Esmar, his slip
    assert [e.data["house"] for e in state.events if e.kind == "treachery"] == ["emperor"]
    assert state.pending is None or state.pending.kind not in ("leader-alliance", "leader-alliance-answer")


@pytest.mark.parametrize("opponent, leader", [
    pytest.param("fremen", "stilgar", id="GUILD-L12-a"),
    pytest.param("harkonnen", "feyd-rautha", id="GUILD-L12-b"),
])
def test_guild_l12_soo_soo_offers_spice_to_the_fremen_or_the_harkonnen(opponent, leader):
    """GUILD-L12-a (opp of Fremen) and GUILD-L12-b (opp of Harkonnen): Soo-Soo's alliance for spice."""
    state = plans(open_battle(["guild", opponent]), {"guild": "soo-soo", opponent: leader}, buy_off=False)
    power = "GUILD-L12-a" if opponent == "fremen" else "GUILD-L12-b"
    assert state.pending.kind == "leader-alliance"
    assert {a.power for a in decisions(state) if isinstance(a, ProposeAlliance)} == {power}
    after = play(state, ProposeAlliance("guild", power, "spice", 1), AnswerAlliance(opponent, "accept"))
    assert ("guild", "arsunt") in after.at_peace and events_of(after, "leader-alliance")
    assert_conserved(after)


def _dead(house, tokens=2, leader=None):
    def edit(state):
        hs = state.houses[house]
        leaders, tanks = hs.leaders, hs.leader_tanks
        if leader:
            leaders, tanks = tuple(x for x in leaders if x != leader), tanks + (leader,)
        return dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(
            hs, reserve=hs.reserve - Tokens(tokens), tanks=hs.tanks + Tokens(tokens), leaders=leaders,
            leader_tanks=tanks)))
    return edit


@pytest.mark.parametrize("tleilax_leader, opponent, leader", [
    pytest.param("goose", "guild", "edric", id="TLEILAX-L05-d"),
    pytest.param("bijaz", "atreides", "duncan-idaho", id="TLEILAX-L06-d"),
    pytest.param("malki", "emperor", "burseg", id="TLEILAX-L07-d"),
    pytest.param("gimjal", "dispersion", "logno", id="TLEILAX-L08-d"),
    pytest.param("hwi-noree", "harkonnen", "feyd-rautha", id="TLEILAX-L09-a"),
])
def test_tleilax_ghola_alliances_revive_the_partners_dead_free(tleilax_leader, opponent, leader):
    """TLEILAX-L05-d..L08-d (opp of Guild / Atreides / Emperor / Dispersion), TLEILAX-L09-a (opp any): the
    Tleilax offer to revive the partner's dead tokens free, beyond REVIVAL-1; accepted, the tokens go to its
    reserve, the battle is void and the Tleilax are at peace there."""
    state = open_battle(["bene-tleilax", opponent], edit=_dead(opponent, 4))
    state = plans(state, {"bene-tleilax": tleilax_leader, opponent: leader}, buy_off=False)
    assert state.pending.kind == "leader-alliance"
    power = next(a.power for a in decisions(state) if isinstance(a, ProposeAlliance))
    before = state.houses[opponent]
    after = play(state, ProposeAlliance("bene-tleilax", power, "regular", 4), AnswerAlliance(opponent, "accept"))
    assert after.houses[opponent].tanks.regular == before.tanks.regular - 4
    assert after.houses[opponent].reserve.regular == before.reserve.regular + 4
    assert ("bene-tleilax", "arsunt") in after.at_peace and events_of(after, "leader-alliance")
    assert_conserved(after)


def test_tleilax_l09_a_hwi_noree_revives_a_dead_leader_and_not_more_tokens_than_are_dead():
    state = open_battle(["bene-tleilax", "guild"], edit=_dead("guild", 1, leader="tolric"))
    state = plans(state, {"bene-tleilax": "hwi-noree", "guild": "edric"}, buy_off=False)
    error = check_action(state, ProposeAlliance("bene-tleilax", "TLEILAX-L09-a", "regular", 2))
    assert error is not None and error.code == "alliance/leader-offer" and "amount 1 to 1" in error.message
    assert ProposeAlliance("bene-tleilax", "TLEILAX-L09-a", "tolric", 1) in decisions(state)
    after = play(state, ProposeAlliance("bene-tleilax", "TLEILAX-L09-a", "tolric", 1),
                 AnswerAlliance("guild", "accept"))
    assert "tolric" in after.houses["guild"].leaders and "tolric" not in after.houses["guild"].leader_tanks


def _slips(house, *slips):
    def edit(state):
        hs = state.houses[house]
        return dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(hs, traitors=slips)))
    return edit


def test_harkonnen_l11_b_soo_soo_shows_a_fremen_traitor_slip_privately_for_an_alliance():
    """HARKONNEN-L11-b: against a Fremen leader, the Harkonnen (holding a slip on a Fremen leader) offer to show
    it; accepted, they pick the slip, a secret action only the two Houses see, and the battle is void."""
    state = open_battle(["harkonnen", "fremen"], edit=_slips("harkonnen", ("fremen", "korba"), ("fremen", "farok")))
    state = plans(state, {"harkonnen": "soo-soo", "fremen": "stilgar"}, buy_off=False)
    assert (state.pending.kind, state.pending.actor) == ("leader-alliance", "harkonnen")
    offer = ProposeAlliance("harkonnen", "HARKONNEN-L11-b", "traitor")
    assert offer in decisions(state)
    state = play(state, offer, AnswerAlliance("fremen", "accept"))
    assert (state.pending.kind, state.pending.actor) == ("leader-show-slip", "harkonnen")
    assert decisions(state) == [ShowSlip("harkonnen", "fremen", "korba"), ShowSlip("harkonnen", "fremen", "farok")]
    assert viewers(state, ShowSlip("harkonnen", "fremen", "farok")) == ("harkonnen", "fremen")
    after = play(state, ShowSlip("harkonnen", "fremen", "farok"))
    assert ("harkonnen", "arsunt") in after.at_peace and events_of(after, "leader-alliance")
    assert "farok" not in events_of(after, "traitor-slip-shown")[0].text
    assert after.houses["harkonnen"].traitors == (("fremen", "korba"), ("fremen", "farok"))  # shown, kept


def test_harkonnen_l12_b_ziarenko_needs_a_slip_on_the_partners_own_leader():
    """HARKONNEN-L12-b (opp any): no offer without a slip naming a leader of the partner's own House."""
    state = open_battle(["harkonnen", "atreides"], edit=_slips("harkonnen", ("fremen", "korba")))
    state = plans(state, {"harkonnen": "ziarenko", "atreides": "gurney"}, buy_off=False)
    assert decisions(state) == [Pass("harkonnen")]
    error = check_action(state, ProposeAlliance("harkonnen", "HARKONNEN-L12-b", "traitor"))
    assert error is not None and error.code == "alliance/leader-offer" and "no traitor slip" in error.message
    state = open_battle(["harkonnen", "atreides"], edit=_slips("harkonnen", ("atreides", "tufir")))
    state = plans(state, {"harkonnen": "ziarenko", "atreides": "gurney"}, buy_off=False)
    after = play(state, ProposeAlliance("harkonnen", "HARKONNEN-L12-b", "traitor"),
                 AnswerAlliance("atreides", "refuse"))
    assert events_of(after, "leader-alliance-refused") and fought(after)


@pytest.mark.parametrize("leader, opponent, opposing", [
    pytest.param("gurney", "guild", "edric", id="ATREIDES-L01-a"),
    pytest.param("duncan-idaho", "fremen", "stilgar", id="ATREIDES-L02-b"),
])
def test_atreides_l01_a_l02_b_lend_prescience_for_k_turns_instead_of_the_battle(leader, opponent, opposing):
    """ATREIDES-L01-a (opp of Guild), ATREIDES-L02-b (opp of Fremen): the partner borrows ATREIDES-P1 for k turns
    chosen by the Atreides (houses.md G-10); accepted, the battle is void and the Atreides are at peace."""
    state = plans(open_battle(["atreides", opponent]), {"atreides": leader, opponent: opposing}, buy_off=False)
    state = play_battle(state, until=("leader-alliance", "atreides"), through=("leader-alliance",))
    power = {"gurney": "ATREIDES-L01-a", "duncan-idaho": "ATREIDES-L02-b"}[leader]
    assert [a.amount for a in decisions(state) if isinstance(a, ProposeAlliance)] == [1, 2, 3, 4, 5]
    error = check_action(state, ProposeAlliance("atreides", power, "ATREIDES-P1", 6))
    assert error is not None and error.code == "alliance/leader-offer"
    after = play(state, ProposeAlliance("atreides", power, "ATREIDES-P1", 2), AnswerAlliance(opponent, "accept"))
    lend = after.lent_powers[-1]
    assert (lend.power, lend.owner, lend.borrower, lend.last_turn - lend.first_turn) == ("ATREIDES-P1", "atreides",
                                                                                          opponent, 1)
    assert holder(after, "ATREIDES-P1") == opponent and ("atreides", "arsunt") in after.at_peace


def test_fremen_l05_c_siona_against_leto_ii_voids_the_battle_and_each_house_gives_a_leader():
    """FREMEN-L05-c (automatic, D-29): Siona meets Léto II, captured and led by the Harkonnen: the battle is
    void, the Fremen are at peace, and each House gives the other one of its own secondary leaders for good."""
    state = open_battle(["fremen", "harkonnen"], edit=lambda s: held_by_harkonnen(s, "fremen", "leto-ii"))
    state = play_battle(state, {house: SubmitPlan(house, leader, 1, 0, 0) for house, leader in (
        ("fremen", "siona"), ("harkonnen", "fremen:leto-ii"))}, through=("leader-buy-off",),
        calls={}, keep_events=False)  # the Fremen do not call on their captive
    assert (state.pending.kind, state.pending.actor) == ("give-leader", "fremen")
    gifts = decisions(state)
    assert GiveLeader("fremen", "siona") in gifts and GiveLeader("fremen", "liet-kynes") not in gifts  # no main
    state = play(state, GiveLeader("fremen", "farok"))
    assert (state.pending.kind, state.pending.actor) == ("give-leader", "harkonnen")
    assert all(":" not in a.leader for a in decisions(state))  # his own leaders, not the captive
    after = play(state, GiveLeader("harkonnen", "iliako"))
    assert "fremen:farok" in after.houses["harkonnen"].leaders and "harkonnen:iliako" in after.houses["fremen"].leaders
    assert ("fremen", "arsunt") in after.at_peace and not fought(after)
    assert_conserved(after)
