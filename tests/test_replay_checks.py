"""Issue 14 part 2: an action is checked by its rule, not by building the whole menu, with the verdicts of the
menu (the golden digests of the shipped saves: tests/test_golden_games.py)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from dunenb.bots.random_bot import RandomBot
from dunenb.engine import (
    CHANCE,
    HANDLERS,
    apply_action,
    chance_outcomes,
    current_player,
    initial_state,
    legal_actions,
    make_config,
    sample_chance,
)
from dunenb.rules.battle_phase import check_plan
from dunenb.rules.bidding import Bid
from dunenb.rules.kynes import CallWorm, LocalStorm

ROOT = Path(__file__).resolve().parents[1]

def _states(houses: tuple[str, ...], seed: int, turns: int = 8):
    state = initial_state(make_config(houses, seed=seed, turn_limit=turns))
    bots: dict[str, RandomBot] = {}
    while current_player(state) is not None:
        yield state
        actor = current_player(state)
        action = sample_chance(state) if actor == CHANCE else bots.setdefault(
            actor, RandomBot(seed=seed + len(bots))).choose(state)
        state = apply_action(state, action)


def _neighbours(action) -> list:
    """The action with one field changed: another value of the outcomes' strings, or an integer off by one."""
    changed = []
    for field in dataclasses.fields(action):
        value = getattr(action, field.name)
        if type(value) is int:
            changed += [dataclasses.replace(action, **{field.name: value + step}) for step in (-1, 1)]
        elif type(value) is str:
            changed.append(dataclasses.replace(action, **{field.name: value + "-x"}))
    return changed


GAMES = [(("atreides", "harkonnen", "fremen", "emperor", "guild", "bene-gesserit"), seed) for seed in (5, 6, 7)]
GAMES.append((("bene-tleilax", "dispersion", "fremen", "emperor", "harkonnen"), 8))


#: Actions of each ``checked`` kind tried at its nodes besides the menu's and their neighbours (issue 14 item 2)
PROBES = {
    "bid": lambda house: [Bid(house, amount) for amount in (0, 1, 2, 5, 40, 10_000)],
    "movement": lambda house: [LocalStorm(house, sector) for sector in (1, 9, 17)]
    + [CallWorm(house, area, sector, "erg-mineur", 7, 2) for area, sector in (("grande-etendue", 17), ("arrakeen", 9))],
}


def _check_node(state, seen: set[str]) -> None:
    """The shortcuts at one node agree with its menu; the node's kind is added to ``seen`` if it has one."""
    kind = state.pending.kind
    handler = HANDLERS[kind]
    if handler.is_outcome is not None:  # true exactly for the listed outcomes
        outcomes = [a for a, _ in chance_outcomes(state)]
        listed = set(outcomes)
        assert all(handler.is_outcome(state, a) for a in outcomes), kind
        strangers = {c for a in outcomes[:12] for c in _neighbours(a)} - listed
        assert not any(handler.is_outcome(state, c) for c in strangers), kind
        seen.add(kind)
    elif handler.checked:  # issue 14 item 2: the check allows only what the old path (menu, then check) allowed
        menu = legal_actions(state)
        listed_types = {type(a) for a in menu}
        candidates = [c for a in menu if type(a) in handler.checked for c in (a, *_neighbours(a))]
        candidates += PROBES[kind](state.pending.actor)  # made whatever the menu lists (maybe none of the type)
        for action in (c for c in candidates if c.actor == state.pending.actor):  # check_action tests the actor first
            if handler.check(state, action) is None:
                assert action in menu or type(action) in listed_types, (kind, action)
        seen.add(kind)
    if handler.always or kind == "battle-plan":
        menu = legal_actions(state)
        actor = state.pending.actor
        for kind_of in handler.always:  # listed at every such node
            assert kind_of(actor) in menu, (kind, kind_of)
        if kind == "battle-plan":  # every listed plan passes the check that now decides plans
            assert all(check_plan(state, plan) is None for plan in menu if type(plan).__name__ == "SubmitPlan")
        seen.add(kind)


def _scenes():
    """Nodes the whole games above cannot reach: leaders.md K-10 ``voice-immunity`` (TLEILAX-L11-c, GAP-99) needs
    the BG's Voice against the Tleilax, and no game above has both Houses; S-9 ``pole-battle`` (HARKONNEN-L07-d,
    GAP-135) needs Harkonnen tokens at the Pôle Nord beside another House's, which bot play rarely brings."""
    from test_leader_immunities import _voiced_tleilax
    from test_leader_specials_more import _at_the_pole

    state = _voiced_tleilax()
    assert state.pending.kind == "voice-immunity"
    yield state
    state = _at_the_pole()
    assert state.pending.kind == "pole-battle"
    yield state


def test_issue14_rule_shortcuts_agree_with_the_menus_over_whole_games():
    seen: set[str] = set()
    for state in (state for houses, seed in GAMES for state in _states(houses, seed)):
        _check_node(state, seen)
    for state in _scenes():
        _check_node(state, seen)
    assert {kind for kind, h in HANDLERS.items() if h.always or h.is_outcome or h.checked} | {"battle-plan"} <= seen


@pytest.mark.parametrize("amount", [True, 1.0, "1", [1]])
def test_issue15_a_repeated_action_dict_is_shared_but_a_wrong_type_is_still_refused(amount):
    from dunenb.actions import action_from_dict
    from dunenb.errors import SaveFormatError

    good = {"kind": "bid", "house": "atreides", "amount": 1}
    assert action_from_dict(dict(good)) is action_from_dict(dict(good))  # one immutable value for a repeated dict
    with pytest.raises(SaveFormatError) as error:
        action_from_dict({**good, "amount": amount})
    assert error.value.code == "action/field"


def test_issue14_item2_every_checked_kind_has_probes():
    assert {kind for kind, h in HANDLERS.items() if h.checked} <= set(PROBES)
