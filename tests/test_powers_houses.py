"""Issue 10, first part: the powers framework (data/powers.json, dunenb.powers) and the House and main-leader
powers that act outside battles, each in a scene where it changes the outcome, with the Karama use that blocks
it (houses.md cross-reference) asked of every House with a hand (GAP-63)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from helpers_game import (
    assert_conserved,
    clear_map,
    force,
    pass_karama,
    place,
    put_spice,
    quiet_setup,
    set_storms,
)

from dunenb import engine
from dunenb.actions import Pass
from dunenb.engine import apply_action, check_action, legal_actions
from dunenb.errors import RulesDataError
from dunenb.powers import applied, holder, load_powers, modify
from dunenb.powers.effects import EFFECTS
from dunenb.powers.registry import EFFECT_PARAMS, TRIGGER_EFFECTS, parse_powers
from dunenb.rules import bidding, collection, movement, regeneration, spice
from dunenb.rules.bidding import AuctionCard, Bid, DrawTreacheryCard, ImperialFill, PayBid, hand_limit
from dunenb.rules.common import destroy_in_sector
from dunenb.rules.karama_window import UseKarama, askers
from dunenb.rules.kynes import CallWorm, LocalStorm
from dunenb.rules.movement import EndSlot, Land, LandAdvisor, Move, Revive, TakeSlot, landing_price
from dunenb.rules.worm_riding import RideWorm
from dunenb.state import Tokens

HOUSES_MD = Path("/work/shared/spec/houses.md")


def run(state, *actions):
    """Play the actions in order; return the final state and every event on the way."""
    events = []
    for action in actions:
        state = apply_action(state, action)
        events += state.events
        assert_conserved(state)
    return state, events


def kinds(events, kind):
    return [e for e in events if e.kind == kind]


def with_spice(state, house, amount):
    hs = state.houses[house]
    state = dataclasses.replace(state, bank=state.bank - (amount - hs.spice))
    return dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(hs, spice=amount)))


def with_hand(state, house, *cards):
    hs = state.houses[house]
    return dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(hs, hand=tuple(cards))))


def board(houses, *, storm=10, spice=None, hands=None):
    """An empty map, the storm on ``storm``, spice and hands as given (a hand not given keeps its free card)."""
    state = set_storms(clear_map(quiet_setup(list(houses))), main=storm)
    for house, amount in (spice or {}).items():
        state = with_spice(state, house, amount)
    for house, cards in (hands or {}).items():
        state = with_hand(state, house, *cards)
    return dataclasses.replace(state, events=())


def movement_start(state):
    return movement.begin_phase(dataclasses.replace(state, events=()))


def to_slot(state, house):
    """Pass every window and end other slots until ``house``'s movement slot is open (the Guild waits)."""
    while state.pending.kind != "movement" or state.pending.actor != house:
        actor, kind = state.pending.actor, state.pending.kind
        if kind == "slot-choice":
            state = apply_action(state, TakeSlot(actor) if actor == house else Pass(actor))
        elif kind == "movement":
            state = apply_action(state, EndSlot(actor))
        else:
            state = apply_action(state, Pass(actor))
    return state


# --- the framework -----------------------------------------------------------------------------------------

def test_every_house_and_main_leader_power_of_houses_md_is_declared_once_with_its_karama_uses():
    if not HOUSES_MD.exists():
        pytest.skip("the spec is not on this machine")
    text = HOUSES_MD.read_text(encoding="utf-8")
    bullets = dict(re.findall(r"^\* \*\*([A-Z]+-[PM][0-9]+) [^\n]*?\*\*(.*)$", text, flags=re.M))
    powers = load_powers()
    assert set(bullets) == set(powers) and len(powers) == 29 + 17
    for pid, spec in powers.items():
        first = re.search(r"Karama: (KARAMA-[0-9]+)", bullets[pid])  # the use that blocks it; "none" (G-5)
        assert [k.id for k in spec.karama] == ([first.group(1)] if first else []), pid
        assert spec.status in ("implemented", "not-yet") and (spec.status == "implemented" or spec.reason), pid
        assert spec.acts, pid


def test_every_value_effect_kind_has_one_function():
    assert set(EFFECTS) == set(EFFECT_PARAMS) - TRIGGER_EFFECTS


@pytest.mark.parametrize(("act", "code", "names"), [
    ({"hook": "landing.cost", "effect": "scale"}, "powers/hook", "landing.price"),
    ({"hook": "landing.price", "effect": "halve"}, "powers/effect", "scale"),
    ({"hook": "landing.price", "effect": "scale", "params": {"num": 1, "den": 2}}, "powers/params", "round"),
    ({"hook": "landing.price", "effect": "add", "params": {"amount": 1, "by": 2}}, "powers/params", "by"),
    ({"trigger": "slot.open", "effect": "scale", "params": {"num": 1, "den": 2, "round": "up"}}, "powers/effect",
     "offer"),
    ({"hook": "hand.limit", "effect": "set", "params": {"value": 6}, "when": ["sunny"]}, "powers/when", "sunny"),
])
def test_an_unknown_hook_effect_or_parameter_is_a_load_error_naming_the_power_and_the_field(act, code, names):
    raw = {"format": "dunenb.powers/2", "powers": [{"id": "GUILD-P9", "holder": "guild", "acts": [act]}]}
    with pytest.raises(RulesDataError) as info:
        parse_powers(raw)
    assert info.value.code == code and "GUILD-P9 acts[0]" in info.value.message and names in info.value.message


def test_a_not_yet_power_needs_a_reason_and_acts_nowhere():
    with pytest.raises(RulesDataError) as info:
        parse_powers({"format": "dunenb.powers/2", "powers": [{"id": "BG-P1", "holder": "bene-gesserit",
                                                               "status": "not-yet"}]})
    assert info.value.code == "powers/reason"
    state = board(["harkonnen", "atreides"])
    assert modify(state, "leader.value", 5, {"house": "harkonnen", "minions_alive": True}) == 5  # HARKONNEN-M3


def test_G_7_main_leader_powers_lapse_with_the_main_leader_and_house_powers_go_on():
    state = board(["emperor", "guild", "atreides"])
    assert hand_limit(state, "emperor") == 6 and landing_price(state, "guild", "grande-etendue", 5)[0] == 0
    dead = state
    for house, leader in (("emperor", "shaddam-iv"), ("guild", "grand-navigateur")):
        hs = dead.houses[house]
        dead = dataclasses.replace(dead, houses=dead.houses.set(house, dataclasses.replace(
            hs, leaders=tuple(x for x in hs.leaders if x != leader), leader_tanks=(leader,))))
    assert holder(dead, "EMPEROR-M1") is None and holder(dead, "GUILD-M1") is None
    assert hand_limit(dead, "emperor") == 4  # EMPEROR-M1 gone (the successor inherits nothing)
    assert landing_price(dead, "guild", "grande-etendue", 5) == (5, ("GUILD-P2",))  # GUILD-P2 goes on
    assert holder(dead, "EMPEROR-P1") == "emperor"


# --- GAP-63: Karama windows ----------------------------------------------------------------------------------

def test_GAP_63_asking_for_a_karama_reveals_nothing_every_house_with_a_hand_is_asked_in_table_order():
    state = board(["guild", "atreides", "emperor", "harkonnen"], hands={"harkonnen": ()})
    with_karama = with_hand(state, "atreides", "karama")
    without = with_hand(state, "atreides", "lasgun")
    assert askers(with_karama, ("KARAMA-15",)) == askers(without, ("KARAMA-15",)) == ("atreides", "emperor")
    windows = [movement_start(s) for s in (with_karama, without)]
    assert [w.pending.kind for w in windows] == ["karama-window"] * 2  # KARAMA-16 at the start of step e)
    assert [w.pending.actor for w in windows] == ["atreides"] * 2
    assert legal_actions(windows[0])[0] == Pass("atreides") and legal_actions(windows[1]) [:1] == [Pass("atreides")]
    assert check_action(windows[1], UseKarama("atreides", "KARAMA-16", "karama")).code == "karama/card"


# --- the Guild -------------------------------------------------------------------------------------------

def test_GUILD_M1_GUILD_P2_the_guild_lands_5_tokens_free_then_pays_half_rounded_up():
    state = to_slot(movement_start(board(["guild", "atreides"], spice={"guild": 5, "atreides": 20})), "guild")
    state, events = run(state, Land("guild", "grande-etendue", 17, 8))
    state = pass_karama(state)
    assert state.houses["guild"].spice == 5 - 3  # 5 free (GUILD-M1), 3 x 2 = 6 halved (GUILD-P2)
    assert state.forces[("guild", "grande-etendue", 17)] == Tokens(8)
    atreides = to_slot(state, "atreides")
    atreides = pass_karama(apply_action(atreides, Land("atreides", "grande-etendue", 18, 8)))
    assert atreides.houses["atreides"].spice == 20 - 16  # no power for the Atreides; the Guild is paid
    assert atreides.houses["guild"].spice == 2 + 16


def test_KARAMA_15_KARAMA_17_the_guild_pays_the_normal_rate_and_lands_only_what_it_can_pay():
    state = board(["guild", "atreides", "emperor"], spice={"guild": 5},
                  hands={"atreides": ("karama",), "emperor": ("karama",)})
    state = to_slot(movement_start(state), "guild")
    state = apply_action(state, Land("guild", "grande-etendue", 17, 8))
    assert state.pending.kind == "karama-window" and state.pending.actor == "atreides"
    assert UseKarama("atreides", "KARAMA-15", "karama") in legal_actions(state)
    state, events = run(state, UseKarama("atreides", "KARAMA-15", "karama"), UseKarama("emperor", "KARAMA-17",
                                                                                          "karama"))
    assert [e.data["karama"] for e in kinds(events, "karama")] == ["KARAMA-15", "KARAMA-17"]
    assert state.pending.kind == "movement"
    assert state.forces[("guild", "grande-etendue", 17)] == Tokens(2)  # 2 tokens at 2 spice: all it can pay
    assert state.houses["guild"].spice == 1 and state.suppressions == ()  # the uses lasted that landing
    assert kinds(events, "land-reduced")[0].data["count"] == 6


def test_KARAMA_17_alone_the_first_tokens_pay_half_price():
    state = board(["guild", "atreides"], spice={"guild": 20}, hands={"atreides": ("karama",)})
    state = to_slot(movement_start(state), "guild")
    state = apply_action(state, Land("guild", "grande-etendue", 17, 8))
    state, _ = run(state, UseKarama("atreides", "KARAMA-17", "karama"))
    assert state.houses["guild"].spice == 20 - 8  # 8 x 2 = 16, halved (GUILD-P2)


def test_GUILD_P1_KARAMA_14_one_landing_pays_the_bank_instead_of_the_guild():
    state = board(["atreides", "guild", "emperor"], spice={"atreides": 20}, hands={"emperor": ("karama",)})
    state = to_slot(movement_start(state), "atreides")
    guild, bank = state.houses["guild"].spice, state.bank
    paid = pass_karama(apply_action(state, Land("atreides", "grande-etendue", 17, 3)))
    assert paid.houses["guild"].spice == guild + 6
    state = apply_action(state, Land("atreides", "grande-etendue", 17, 3))
    assert "guild" not in state.pending.detail["order"]  # the Guild is not asked about its own power
    assert state.pending.actor == "atreides"  # every other House with a card, the lander included
    state, events = run(state, Pass("atreides"), UseKarama("emperor", "KARAMA-14", "karama"))
    assert state.houses["guild"].spice == guild and state.bank == bank + 6
    assert kinds(events, "land")[0].data["payee"] == "bank"


def test_GUILD_P3_the_guild_chooses_its_slot_and_KARAMA_16_puts_it_back_in_storm_order():
    state = board(["atreides", "harkonnen", "guild"], hands={"atreides": (), "harkonnen": ("karama",)})
    state = pass_karama(movement_start(state))
    assert state.pending.kind == "slot-choice" and state.pending.actor == "guild"
    waited = apply_action(state, Pass("guild"))
    assert waited.pending.actor == "atreides"
    waited = apply_action(apply_action(waited, EndSlot("atreides")), TakeSlot("guild"))  # before the Harkonnen
    assert waited.pending.kind == "movement" and waited.pending.actor == "guild"
    assert [e.data["powers"] for e in waited.events if e.kind == "slot-choice"] == [("GUILD-P3",)]
    waited = apply_action(waited, EndSlot("guild"))
    assert waited.pending.actor == "harkonnen"
    assert apply_action(waited, EndSlot("harkonnen")).phase != "movement"
    last = apply_action(apply_action(apply_action(state, Pass("guild")), EndSlot("atreides")), Pass("guild"))
    last = apply_action(last, EndSlot("harkonnen"))
    assert last.pending.kind == "movement" and last.pending.actor == "guild"  # it plays last
    blocked = movement_start(state)
    blocked, _ = run(blocked, UseKarama("harkonnen", "KARAMA-16", "karama"))
    assert blocked.pending.kind == "movement" and blocked.pending.actor == "atreides"  # storm order this turn
    blocked = apply_action(apply_action(blocked, EndSlot("atreides")), EndSlot("harkonnen"))
    assert blocked.pending.actor == "guild" and holder(blocked, "GUILD-P3") is None


# --- the Bene Gesserit -------------------------------------------------------------------------------------

def test_BG_P2_an_advisor_lands_free_and_in_peace_after_another_houses_landing():
    state = board(["atreides", "bene-gesserit"], spice={"atreides": 10}, hands={"bene-gesserit": ()})
    state = to_slot(movement_start(state), "atreides")
    state = pass_karama(apply_action(state, Land("atreides", "arrakeen", 1, 3)))
    assert state.pending.kind == "advisor" and state.pending.actor == "bene-gesserit"
    assert LandAdvisor("bene-gesserit", "pole-nord", 1, 1) in legal_actions(state)
    spice_before = state.houses["bene-gesserit"].spice
    state, events = run(state, LandAdvisor("bene-gesserit", "arrakeen", 1, 1))
    assert state.forces[("bene-gesserit", "arrakeen", 1)] == Tokens(1)
    assert state.houses["bene-gesserit"].spice == spice_before  # free
    assert ("bene-gesserit", "arrakeen") in state.at_peace  # GAP-64
    assert kinds(events, "advisor")[0].data["powers"] == ("BG-P2",)
    assert state.pending.kind == "movement" and state.pending.actor == "atreides"


def test_KARAMA_26_no_landing_in_peace_this_turn():
    state = board(["atreides", "bene-gesserit"], spice={"atreides": 10}, hands={"atreides": ("karama",)})
    state = movement_start(state)
    state, _ = run(state, UseKarama("atreides", "KARAMA-26", "karama"))
    state = to_slot(state, "atreides")
    state = pass_karama(apply_action(state, Land("atreides", "arrakeen", 1, 3)))
    assert state.pending.kind == "movement"  # no advisor


def test_BG_P4_charity_and_KARAMA_28():
    state = board(["atreides", "bene-gesserit"], hands={"bene-gesserit": (), "atreides": ()})
    before = state.houses["bene-gesserit"].spice
    paid = collection.begin_collection(dataclasses.replace(state, phase="battle", pending=None))
    assert paid.houses["bene-gesserit"].spice == before + 2
    assert [e.data["powers"] for e in paid.events if e.kind == "income"] == [("BG-P4",)]
    asked = collection.begin_collection(dataclasses.replace(with_hand(state, "atreides", "karama"), phase="battle",
                                                            pending=None))
    assert asked.pending.kind == "karama-window"
    blocked, _ = run(asked, UseKarama("atreides", "KARAMA-28", "karama"))
    assert blocked.houses["bene-gesserit"].spice == before


# --- the Bene Tleilax ----------------------------------------------------------------------------------------

def test_TLEILAX_P1_KARAMA_36_the_payer_sends_its_revival_money_to_the_bank():
    state = board(["atreides", "bene-tleilax"], spice={"atreides": 10}, hands={"atreides": ("karama",)})
    hs = state.houses["atreides"]
    state = dataclasses.replace(state, houses=state.houses.set("atreides", dataclasses.replace(
        hs, reserve=hs.reserve - Tokens(3), tanks=Tokens(3))))
    state = to_slot(pass_karama(movement_start(state)), "atreides")
    tleilax, bank = state.houses["bene-tleilax"].spice, state.bank
    asked = apply_action(state, Revive("atreides", 2))
    assert asked.pending.kind == "karama-window" and asked.pending.actor == "atreides"  # only the payer
    paid = apply_action(asked, Pass("atreides"))
    assert paid.houses["bene-tleilax"].spice == tleilax + 2
    blocked, _ = run(asked, UseKarama("atreides", "KARAMA-36", "karama"))
    assert blocked.houses["bene-tleilax"].spice == tleilax and blocked.bank == bank + 2
    assert blocked.houses["atreides"].reserve.total == 17 + 2


def test_TLEILAX_P2_destroyed_tleilax_tokens_go_back_to_the_reserve_at_once():
    state = place(board(["bene-tleilax", "atreides"]), "bene-tleilax", "grande-etendue", 17, 4)
    state = place(state, "atreides", "grande-etendue", 17, 4)
    reserve = state.houses["bene-tleilax"].reserve.total
    state = destroy_in_sector(state, 17, cause="main storm")
    assert state.houses["bene-tleilax"].reserve.total == reserve + 4 and state.houses["bene-tleilax"].tanks.total == 0
    assert state.houses["atreides"].tanks.total == 4
    assert [e.data["powers"] for e in state.events if e.kind == "tokens-recovered"] == [("TLEILAX-P2",)]
    assert_conserved(state)


# --- the Fremen ----------------------------------------------------------------------------------------------

def test_FREMEN_P3_a_storm_takes_half_of_each_fremen_group_rounded_up_but_the_double_storm_takes_all():
    state = place(board(["fremen", "atreides"]), "fremen", "grande-etendue", 17, 5, 2)
    state = place(state, "atreides", "grande-etendue", 17, 4)
    hit = destroy_in_sector(state, 17, cause="main storm")
    assert hit.forces[("fremen", "grande-etendue", 17)] == Tokens(1, 2)  # 7 -> 4 lost, unmarked first (GAP-65)
    assert ("atreides", "grande-etendue", 17) not in hit.forces
    assert [e.data["powers"] for e in hit.events if e.data.get("house") == "fremen"] == [("FREMEN-P3",)]
    double = destroy_in_sector(state, 17, cause="double storm", double=True)
    assert ("fremen", "grande-etendue", 17) not in double.forces


def test_FREMEN_P3_a_fremen_group_moving_into_the_storm_loses_half():
    state = place(board(["fremen", "atreides"], storm=17, hands={"atreides": ()}), "fremen", "grande-etendue", 16, 5)
    state = place(state, "fremen", "sietch-tarb", 12, 1)  # ornithopters (GAP-21): a range of 3
    state = to_slot(pass_karama(movement_start(state)), "fremen")
    state = apply_action(state, Move("fremen", "grande-etendue", 16, (("erg-sihaya", 17), ("bassin-plastique", 16)),
                                     5))
    assert state.forces[("fremen", "bassin-plastique", 16)] == Tokens(2)  # 3 lost crossing sector 17
    assert state.houses["fremen"].tanks.total == 3


def test_KARAMA_7_the_whole_fremen_group_is_lost_moving_into_the_storm_or_under_the_local_storm():
    state = place(board(["fremen", "atreides"], storm=17, hands={"atreides": ("karama", "karama")}),
                  "fremen", "grande-etendue", 16, 5)
    state = to_slot(pass_karama(movement_start(state)), "fremen")
    moved = apply_action(state, Move("fremen", "grande-etendue", 16, (("erg-sihaya", 17),), 5))
    assert moved.pending.kind == "karama-window" and "KARAMA-7" in moved.pending.detail["uses"]
    moved, _ = run(moved, UseKarama("atreides", "KARAMA-7", "karama"))
    assert ("fremen", "erg-sihaya", 17) not in moved.forces and moved.houses["fremen"].tanks.total == 5
    assert moved.suppressions == ()  # that move only
    local = place(board(["fremen", "atreides"], storm=1, hands={"atreides": ("karama",)}),
                  "fremen", "grande-etendue", 17, 4)
    local = to_slot(pass_karama(movement_start(local)), "fremen")
    local = apply_action(local, LocalStorm("fremen", 17))
    assert local.pending.detail["uses"] == ("KARAMA-8", "KARAMA-7")
    local, _ = run(local, UseKarama("atreides", "KARAMA-7", "karama"))
    assert ("fremen", "grande-etendue", 17) not in local.forces and local.suppressions == ()


def _worm_on(state, area):
    """The spice blow with ``area`` on top of pile 1 and a worm coming."""
    deck = dataclasses.replace(state.spice_deck, pile_tops=(area, None))
    return spice.begin_blow(dataclasses.replace(state, spice_deck=deck))


def test_FREMEN_P2_the_worm_spares_the_fremen_who_ride_it_to_another_desert():
    state = put_spice(board(["fremen", "atreides"], storm=1, hands={"atreides": ()}), "grande-etendue", 6)
    state = place(place(state, "fremen", "grande-etendue", 17, 4), "atreides", "grande-etendue", 18, 3)
    state = force(_worm_on(state, "grande-etendue"), spice.DrawSpiceCard(1, "worm"))  # stacked (ATREIDES-P2 c)
    assert ("atreides", "grande-etendue", 18) not in state.forces and "grande-etendue" not in state.spice_on_map
    assert ("fremen", "grande-etendue", 17) in state.forces  # tamed (FREMEN-P2 a)
    assert [e.data["powers"] for e in state.events if e.kind == "worm-tamed"] == [("FREMEN-P2",)]
    assert state.pending.kind == "ride" and state.pending.actor == "fremen"
    assert check_action(state, RideWorm("fremen", "grande-etendue", 17, "arrakeen", 1, 4)).code == "ride/destination"
    state, events = run(state, RideWorm("fremen", "grande-etendue", 17, "erg-mineur", 7, 4))
    assert state.forces[("fremen", "erg-mineur", 7)] == Tokens(4)
    assert kinds(events, "ride")[0].data["powers"] == ("FREMEN-P2",)
    assert state.pending.kind == "spice"  # the next card of the same pile (GAP-16)


def test_KARAMA_6_at_the_strike_the_fremen_are_devoured_like_the_others_and_cannot_ride():
    state = board(["fremen", "atreides"], storm=1, hands={"atreides": ("karama",)})
    state = place(place(state, "fremen", "grande-etendue", 17, 4), "atreides", "grande-etendue", 18, 3)
    state = force(_worm_on(state, "grande-etendue"), spice.DrawSpiceCard(1, "worm"))  # stacked (ATREIDES-P2 c)
    assert state.pending.kind == "karama-window" and state.pending.actor == "atreides"
    passed = apply_action(state, Pass("atreides"))
    assert passed.pending.kind == "ride"
    state, events = run(state, UseKarama("atreides", "KARAMA-6", "karama"))
    assert ("fremen", "grande-etendue", 17) not in state.forces and state.houses["fremen"].tanks.total == 4
    assert state.pending.kind == "spice" and state.suppressions == ()  # no ride; the use lasted that worm


def test_FREMEN_P2_without_the_fremen_the_worm_devours_everyone():
    state = place(board(["atreides", "harkonnen"], storm=1), "atreides", "grande-etendue", 17, 4)
    state = force(_worm_on(state, "grande-etendue"), spice.DrawSpiceCard(1, "worm"))  # stacked (ATREIDES-P2 c)
    assert ("atreides", "grande-etendue", 17) not in state.forces and state.pending.kind == "spice"


# --- the Emperor and the Harkonnen at the auction ----------------------------------------------------------

def _auction(houses, **kwargs):
    state = board(houses, **kwargs)
    return bidding.begin_phase(dataclasses.replace(state, phase="alliance", pending=None))


def test_EMPEROR_M1_a_hand_of_6_filled_at_2_spice_a_card_at_the_end_of_the_auction():
    state = _auction(["emperor", "atreides"], spice={"emperor": 10},
                     hands={"emperor": ("lasgun",) * 3, "atreides": ("shield",) * 4})
    assert state.pending.detail["count"] == 1  # the Emperor is not full at 3 (limit 6); the Atreides are
    state = apply_action(state, AuctionCard(1, "snooper"))
    state = apply_action(apply_action(state, Pass("emperor")), Pass("atreides"))  # unsold
    state = pass_karama(state)
    assert state.pending.kind == "imperial-fill" and state.pending.actor == "emperor"
    assert [a.count for a in legal_actions(state) if isinstance(a, ImperialFill)] == [1, 2, 3]
    bank = state.bank
    state, events = run(state, ImperialFill("emperor", 2))
    assert state.houses["emperor"].spice == 6 and state.bank == bank + 4
    assert kinds(events, "imperial-fill")[0].data["powers"] == ("EMPEROR-M1",)
    state = apply_action(apply_action(state, DrawTreacheryCard("emperor", "poison-fast")),
                         DrawTreacheryCard("emperor", "karama"))
    assert len(state.houses["emperor"].hand) == 5 and state.phase != "bidding"


def test_KARAMA_12_no_imperial_fill_this_turn():
    state = _auction(["emperor", "atreides"], spice={"emperor": 10},
                     hands={"emperor": ("lasgun",) * 3, "atreides": ("karama",) * 4})
    state = apply_action(state, AuctionCard(1, "snooper"))
    state = apply_action(apply_action(state, Pass("emperor")), Pass("atreides"))
    assert state.pending.kind == "karama-window"
    state, _ = run(state, UseKarama("atreides", "KARAMA-12", "karama"))
    assert state.phase != "bidding" and len(state.houses["emperor"].hand) == 3


def test_HARKONNEN_P3_the_top_card_free_after_each_purchase_and_KARAMA_46():
    state = _auction(["harkonnen", "atreides"], spice={"harkonnen": 10}, hands={"harkonnen": ()})
    state = apply_action(state, AuctionCard(1, "snooper"))
    state = apply_action(apply_action(state, Bid("harkonnen", 1)), Pass("atreides"))
    bought = pass_karama(apply_action(state, PayBid("harkonnen")))
    assert bought.pending.kind == "power-card" and bought.pending.detail["house"] == "harkonnen"
    bought = apply_action(bought, DrawTreacheryCard("harkonnen", "lasgun"))
    assert bought.houses["harkonnen"].hand == ("snooper", "lasgun")
    assert [e.data["powers"] for e in bought.events if e.kind == "power-card"] == [("HARKONNEN-P3",)]
    karama = with_hand(state, "atreides", "karama")
    karama = apply_action(karama, PayBid("harkonnen"))
    assert karama.pending.kind == "karama-window"
    karama, _ = run(karama, UseKarama("atreides", "KARAMA-46", "karama"))
    assert karama.houses["harkonnen"].hand == ("snooper",) and karama.pending.kind == "auction-card"
    assert holder(karama, "HARKONNEN-P3") is None  # for the rest of the turn
    assert holder(dataclasses.replace(karama, turn=karama.turn + 1), "HARKONNEN-P3") == "harkonnen"


def test_HARKONNEN_P2_EMPEROR_M1_hand_limits_come_from_the_powers_data():
    state = board(["harkonnen", "emperor", "atreides"])
    assert [hand_limit(state, h) for h in ("harkonnen", "emperor", "atreides")] == [8, 6, 4]
    assert applied(state, "hand.limit", 4, {"house": "harkonnen"}) == (8, ("HARKONNEN-P2",))


# --- Liet Kynes (dunenb.rules.kynes) ------------------------------------------------------------------------

def test_FREMEN_M1_a_local_storm_strikes_a_sector_next_to_the_fremen_and_they_lose_only_half():
    state = board(["fremen", "atreides"], storm=1, hands={"atreides": ()})
    state = place(place(state, "fremen", "grande-etendue", 16, 4), "atreides", "grande-etendue", 17, 5)
    state = put_spice(state, "grande-etendue", 6)
    state = to_slot(pass_karama(movement_start(state)), "fremen")
    assert LocalStorm("fremen", 17) in legal_actions(state) and LocalStorm("fremen", 20) not in legal_actions(state)
    assert check_action(state, LocalStorm("fremen", 5)).code == "local-storm/sector"
    state, events = run(state, LocalStorm("fremen", 17))
    assert ("atreides", "grande-etendue", 17) not in state.forces and "grande-etendue" not in state.spice_on_map
    assert state.forces[("fremen", "grande-etendue", 16)] == Tokens(4)  # sector 16 untouched
    assert kinds(events, "local-storm")[0].data["powers"] == ("FREMEN-M1",)
    assert not any(isinstance(a, LocalStorm) for a in legal_actions(state))  # once per turn
    mixed = place(board(["fremen", "atreides"], storm=1, hands={"atreides": ()}), "fremen", "grande-etendue", 17, 4)
    mixed = to_slot(pass_karama(movement_start(mixed)), "fremen")
    mixed = apply_action(mixed, LocalStorm("fremen", 17))
    assert mixed.forces[("fremen", "grande-etendue", 17)] == Tokens(2)  # FREMEN-P3 applies


def test_KARAMA_8_no_local_storm_this_turn():
    state = board(["fremen", "atreides"], storm=1, hands={"atreides": ("karama",)})
    state = place(place(state, "fremen", "grande-etendue", 16, 4), "atreides", "grande-etendue", 17, 5)
    state = to_slot(pass_karama(movement_start(state)), "fremen")
    state = apply_action(state, LocalStorm("fremen", 17))
    assert state.pending.kind == "karama-window" and state.pending.actor == "atreides"
    state, _ = run(state, UseKarama("atreides", "KARAMA-8", "karama"))
    assert state.forces[("atreides", "grande-etendue", 17)] == Tokens(5)
    assert state.pending.kind == "movement" and not any(isinstance(a, LocalStorm) for a in legal_actions(state))


def test_FREMEN_M2_a_called_worm_carries_a_desert_army_instead_of_the_emergence():
    state = board(["fremen", "atreides"], storm=1, hands={"atreides": ()})
    state = place(state, "fremen", "grande-etendue", 17, 4)
    state = to_slot(pass_karama(movement_start(state)), "fremen")
    state, events = run(state, CallWorm("fremen", "grande-etendue", 17, "erg-mineur", 7, 3))
    assert state.forces[("fremen", "erg-mineur", 7)] == Tokens(3)
    assert state.forces[("fremen", "grande-etendue", 17)] == Tokens(1)
    assert kinds(events, "call-worm")[0].data["powers"] == ("FREMEN-M2",)
    menu = legal_actions(state)
    assert not any(a.kind in ("emerge", "call-worm") for a in menu)  # it took the emergence's place
    assert any(isinstance(a, Move) for a in menu)  # the move is left


def test_FREMEN_M1_M2_issue14_item2_liet_kynes_actions_are_checked_by_their_rules_not_by_the_slot_menu(monkeypatch):
    state = board(["fremen", "atreides"], storm=1, hands={"atreides": ()})
    state = place(state, "fremen", "grande-etendue", 17, 4)
    state = to_slot(pass_karama(movement_start(state)), "fremen")
    listed = legal_actions(state)  # built here, before the menu builder is taken away
    worm, storm = CallWorm("fremen", "grande-etendue", 17, "erg-mineur", 7, 3), LocalStorm("fremen", 17)
    bad_count = CallWorm("fremen", "grande-etendue", 17, "erg-mineur", 7, 5)
    errors = {action: check_action(state, action) for action in (worm, storm, bad_count)}

    def no_menu(_state):
        raise AssertionError("the slot's whole menu was built to check one action")

    monkeypatch.setattr(movement, "_build_menu", no_menu)
    monkeypatch.setattr(movement, "_LAST_MENU", [None])
    assert worm not in listed  # a partial group: only the check can accept it
    assert check_action(state, worm) is None and check_action(state, storm) is None
    assert errors[worm] is None and errors[storm] is None
    monkeypatch.undo()  # an illegal one still gets the error it got before (the menu, then the check)
    assert check_action(state, bad_count).code == errors[bad_count].code == "call-worm/count"
    called = apply_action(state, worm)  # the emergence's place is taken: no worm call is listed any more
    again = CallWorm("fremen", "grande-etendue", 17, "erg-mineur", 7, 1)
    handler = engine.HANDLERS[called.pending.kind]
    monkeypatch.setitem(engine.HANDLERS, called.pending.kind, dataclasses.replace(handler, checked=()))
    before = check_action(called, again).code  # the verdict without the shortcut
    monkeypatch.undo()
    assert check_action(called, again).code == before  # refused with the same error as before the shortcut


def test_KARAMA_9_the_called_worm_devours_the_riders():
    state = board(["fremen", "atreides"], storm=1, hands={"atreides": ("karama",)})
    state = place(state, "fremen", "grande-etendue", 17, 4)
    state = to_slot(pass_karama(movement_start(state)), "fremen")
    state = apply_action(state, CallWorm("fremen", "grande-etendue", 17, "erg-mineur", 7, 3))
    state, _ = run(state, UseKarama("atreides", "KARAMA-9", "karama"))
    assert ("fremen", "erg-mineur", 7) not in state.forces and state.houses["fremen"].tanks.total == 3
    assert state.forces[("fremen", "grande-etendue", 17)] == Tokens(1)
    assert any(isinstance(a, Move) for a in legal_actions(state))  # the Fremen keep their normal move


# --- TLEILAX-P3 (dunenb.rules.regeneration) -------------------------------------------------------------------

def _killed(state, house, *leaders):
    hs = state.houses[house]
    return dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(
        hs, leaders=tuple(x for x in hs.leaders if x not in leaders), leader_tanks=hs.leader_tanks + leaders)))


def test_TLEILAX_P3_killed_leaders_regenerate_next_turn_or_the_turn_after():
    state = _killed(board(["bene-tleilax", "atreides"], hands={"atreides": ()}), "bene-tleilax", "scytale", "goose")
    state = regeneration.begin_turn(dataclasses.replace(state, turn=3))  # they died in turn 2
    assert "scytale" in state.houses["bene-tleilax"].leaders  # REGENERATES: the next turn
    assert "goose" in state.houses["bene-tleilax"].leader_tanks and state.regenerations == (("goose", 4),)
    assert [e.data["powers"] for e in state.events if e.kind == "leader-regenerated"] == [("TLEILAX-P3",)]
    state = regeneration.begin_turn(dataclasses.replace(state, turn=4, events=()))
    assert "goose" in state.houses["bene-tleilax"].leaders and state.regenerations == ()
    other = _killed(board(["atreides", "harkonnen"], hands={"atreides": ()}), "atreides", "gurney")
    other = regeneration.begin_turn(dataclasses.replace(other, turn=3))
    assert "gurney" in other.houses["atreides"].leader_tanks  # no regeneration for other Houses


def test_KARAMA_35_the_leader_stays_dead():
    state = _killed(board(["bene-tleilax", "atreides"], hands={"atreides": ("karama",)}), "bene-tleilax", "torg")
    state = regeneration.begin_turn(dataclasses.replace(state, turn=3))
    assert state.pending.kind == "karama-window"
    state, _ = run(state, UseKarama("atreides", "KARAMA-35", "karama"))
    assert "torg" in state.houses["bene-tleilax"].leader_tanks and state.regenerations == (("torg", 0),)
    later = regeneration.begin_turn(dataclasses.replace(state, turn=5, pending=None))
    assert "torg" in later.houses["bene-tleilax"].leader_tanks  # for good: only a ghola brings him back


def test_the_random_bot_plays_the_power_actions_among_the_others():
    from dunenb.bots import RandomBot
    from dunenb.engine import current_player, new_game, sample_chance
    from dunenb.ruleset import HOUSE_IDS

    wanted = {"take-slot", "advisor", "imperial-fill", "local-storm", "call-worm"}
    seen: set[str] = set()
    for seed in range(3):
        state = new_game(list(HOUSE_IDS), seed=seed, turn_limit=4)
        bot = RandomBot(seed=seed)
        while state.pending is not None and not wanted <= seen:
            action = sample_chance(state) if current_player(state) == "chance" else bot.choose(state)
            seen.add(action.kind)
            state = apply_action(state, action)
    assert wanted <= seen
