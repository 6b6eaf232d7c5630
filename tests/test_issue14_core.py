"""Issue 14 item 4 (game speed), the per-action machinery: each shortcut gives what the work it replaces gives.

Memoized look-ups (``leader_of``, ``leader_ref``, the Karama cards of a hand), the holders remembered for the last
state object, the mappings' direct reads, the records built as one dict and the traitor-discard menu's single
pool are compared with the computation they replace over the states of seeded random games.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from helpers_game import bot_game_states

from dunenb import engine
from dunenb.actions import Pass, menu_pass
from dunenb.errors import RulesDataError
from dunenb.powers import holders, load_powers
from dunenb.powers.registry import power
from dunenb.rules import battle_powers, bidding, traitors
from dunenb.rules.common import event, pending
from dunenb.state import Event, FrozenDict, GameState, Pending

HOUSES = ["atreides", "harkonnen", "fremen", "emperor", "guild", "bene-gesserit"]


def _states(seeds: tuple[int, ...] = (0, 1), turns: int = 5) -> list[GameState]:
    return [state for seed in seeds for state in bot_game_states(HOUSES, seed, turn_limit=turns)]


@pytest.fixture(scope="module")
def states() -> list[GameState]:
    return _states()


def test_issue14_holder_remembered_is_holder_computed(states: list[GameState]) -> None:
    """``holder`` answers, for every power and state (asked twice, and after another state), what ``_holder``
    computes."""
    ids = list(load_powers())
    previous = states[0]
    for state in states[::7]:
        for power_id in ids:
            expected = holders._holder(state, power_id)
            assert holders.holder(state, power_id) == expected
            assert holders.holder(previous, power_id) == holders._holder(previous, power_id)
            assert holders.holder(state, power_id) == expected
        previous = state
    for power_id in ids:  # the sheet kept per power is the declared one
        spec = power(power_id)
        assert holders._sheet(power_id) == (spec.holder, spec.is_main_leader_power)
    with pytest.raises(RulesDataError):
        holders._sheet("NOBODY-P9")


def test_issue14_leader_lookups_memoized_are_computed(states: list[GameState]) -> None:
    """``leader_of`` and ``leader_ref`` give what their uncached bodies give, for every key a House holds or has in
    its tanks, for "owner:id" keys and for an S-3 composite; an unknown key still raises."""
    keys = {(house, key) for state in states[::25] for house, hs in state.houses.items()
            for key in hs.leaders + hs.leader_tanks}
    keys |= {("fremen", "atreides:duncan-idaho"), ("bene-gesserit", "alma+jessica")}
    for house, key in sorted(keys):
        assert traitors.leader_ref(house, key) == traitors.leader_ref.__wrapped__(house, key)
        assert traitors.leader_of(house, key) == traitors.leader_of.__wrapped__(house, key)
    with pytest.raises(KeyError):
        traitors.leader_of("atreides", "nobody")


def test_issue14_karama_cards_memoized_is_computed(states: list[GameState]) -> None:
    """The Karama cards of a hand, remembered by (House, hand), are those computed from the hand."""
    for state in states[::5]:
        for house, hs in state.houses.items():
            assert bidding.karama_cards(state, house) == bidding._karama_cards.__wrapped__(house, hs.hand)


def test_issue14_records_built_as_one_dict_are_the_dataclasses() -> None:
    """``pending()`` and ``event()`` build the records their constructors build: equal, same hash, same fields in
    the same order, and the detail is a mapping of its own."""
    detail = {"order": ("atreides", "fremen"), "index": 0, "high": 3}
    made, built = pending("bid", "atreides", **detail), Pending("bid", "atreides", FrozenDict(detail))
    assert made == built and hash(made) == hash(built) and repr(made) == repr(built)
    assert list(made.__dict__) == list(built.__dict__) == ["kind", "actor", "detail"]
    shown, constructed = event("bid", "atreides bids 3", house="atreides", amount=3), Event(
        "bid", "atreides bids 3", FrozenDict({"house": "atreides", "amount": 3}))
    assert shown == constructed and hash(shown) == hash(constructed) and repr(shown) == repr(constructed)
    assert list(shown.__dict__) == list(constructed.__dict__)
    assert type(made) is Pending and type(shown) is Event


def test_issue14_frozen_dict_reads_are_the_mapping_reads() -> None:
    """The direct ``get``, ``in``, ``keys``, ``values``, ``items`` answer what ``Mapping``'s generic ones answer."""
    mapping = FrozenDict({"a": 1, ("h", "x", 3): None, 2: "two"})
    for key in ("a", ("h", "x", 3), 2, "missing", 2.0, True):
        assert mapping.get(key) == Mapping.get(mapping, key)
        assert mapping.get(key, "default") == Mapping.get(mapping, key, "default")
        assert (key in mapping) == Mapping.__contains__(mapping, key)
    assert list(mapping.keys()) == list(Mapping.keys(mapping))
    assert list(mapping.values()) == list(Mapping.values(mapping))
    assert list(mapping.items()) == list(Mapping.items(mapping))
    assert mapping.items() == Mapping.items(mapping) and mapping.keys() == Mapping.keys(mapping)
    with pytest.raises(TypeError):
        _ = [] in mapping


def test_issue14_traitor_discard_menu_is_the_per_slip_menu() -> None:
    """The traitor-discard menu built with one pool is the menu testing the pool without each slip."""
    seen = 0
    for state in _states(seeds=(0, 1, 2, 3), turns=8):
        if state.pending is None or state.pending.kind != "traitor-discard":
            continue
        seen += 1
        house = state.pending.actor
        slips = state.houses[house].traitors
        expected = [Pass(house), *(battle_powers.DiscardSlip(house, lh, lid) for lh, lid in slips
                                   if battle_powers.new_traitor_pool(state, house, ((lh, lid),)))]
        assert battle_powers._discard_decisions(state) == expected
    assert seen


def test_issue14_menu_trusts_only_the_listed_objects(states: list[GameState]) -> None:
    """A pick from the node's own menu is trusted as listed; an equal action that is another object is checked
    (and so is accepted or refused by the rules exactly as without the menu)."""
    state = next(s for s in states if s.pending is not None and s.pending.kind == "bid")
    menu = engine.legal_actions(state)
    known = engine._listed_for(state)
    assert known is not None and all(known.lists(action) for action in menu)
    fresh = Pass(state.pending.actor)
    assert fresh is not menu_pass(state.pending.actor) and not known.lists(fresh)
    assert fresh in menu and engine.check_action(state, fresh) is None
