"""Issue 14 item 4 (random-bot game speed): the cheaper menus and draws decide exactly as before.

No rule changes here: each test pins one speed-up to the slow answer it replaces (the generator NumPy builds, the
full field check, the full plan judgement, the menu of every listed plan being legal).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from helpers_game import bot_game_states

from dunenb import engine
from dunenb.actions import Action
from dunenb.engine import check_action
from dunenb.errors import InputError
from dunenb.powers.holders import acting_main_leader
from dunenb.rules import alliances, movement, pre_battle
from dunenb.rules.alliances import Offer
from dunenb.rules.battle_context import context_of
from dunenb.rules.battle_phase import SubmitPlan
from dunenb.rules.common import double_storm_sietch, edit_house, rules
from dunenb.rules.movement import Emerge, Land, Move, Reposition
from dunenb.ruleset import HOUSE_IDS
from dunenb.seeding import seeded_rng
from dunenb.state import FrozenDict, GameState, evolve

HOUSES = ["atreides", "harkonnen", "fremen", "emperor", "guild", "bene-gesserit"]


@pytest.mark.parametrize("words", [[0], [3, 2**32 - 1, 0, 7], [9, 1234, 5, 2000], [2**40, 1]])
def test_issue14_seeded_rng_draws_as_numpy(words: list[int]) -> None:
    """The lazy generator draws what ``numpy.random.default_rng(words)`` draws, for every range; ``integers(1)``
    (no generator built) is NumPy's 0, and a generator used after it draws as if it had not been asked."""
    for high in (1, 2, 7, 1000):
        assert int(seeded_rng(words).integers(high)) == int(np.random.default_rng(words).integers(high))
    assert seeded_rng(words).random() == np.random.default_rng(words).random()
    lazy, eager = seeded_rng(words), np.random.default_rng(words)
    assert int(lazy.integers(1)) == int(eager.integers(1)) == 0
    assert lazy.random() == eager.random()


def test_issue14_seeded_rng_refuses_bad_words_at_once() -> None:
    """A word NumPy refuses raises when the generator is asked for, not at a later draw."""
    with pytest.raises(ValueError):
        seeded_rng([-1, 2])


def test_issue14_checked_tuple_by_identity_still_refuses_wrong_types() -> None:
    """A path tuple checked once is accepted again without its repr; a tuple of the wrong types never is."""
    path = (("arrakeen", 9), ("grande-etendue", 10))
    assert Move("atreides", "arrakeen", 10, path, 3, 1).path is path
    assert Move("atreides", "arrakeen", 10, path, 2, 0).path is path
    with pytest.raises(InputError):
        Move("atreides", "arrakeen", 10, (("arrakeen", 9.0),), 3, 1)
    with pytest.raises(InputError):
        Move("atreides", "arrakeen", 10, (("arrakeen", True),), 3, 1)


def test_issue14_plan_menus_listed_plans_are_legal_and_unbound() -> None:
    """Every plan of a battle-plan menu of random 6-House games is legal by the full check and breaks nothing
    (pre_battle.violations: the judge of one plan), and a House nothing binds is judged free on every plan."""
    seen = checked = 0
    for seed in (0, 1, 2):
        for state in bot_game_states(HOUSES, seed, turn_limit=6):
            if seen >= 12:
                break
            if state.pending is not None and state.pending.kind == "battle-plan":
                seen += 1
                house = state.pending.actor
                for plan in [a for a in engine.legal_actions(state) if isinstance(a, SubmitPlan)]:
                    engine._last_menu = None  # the full check, not the menu's own list
                    assert check_action(state, plan) is None
                    assert pre_battle.violations(state, plan) == ()
                    checked += 1
                if not pre_battle.may_be_bound(context_of(state), house):
                    judge = pre_battle.plan_judge(state, house)
                    assert all(judge(p) == () for p in engine.legal_actions(state) if isinstance(p, SubmitPlan))
    assert seen and checked > seen  # the plans were listed and checked (a plan's kind is "plan")


# --- the movement slot menu (issue 14 item 4): cached blocks equal the plain rebuild ---------------------------

def _plain_move_menu(state: GameState, house: str) -> list[Action]:
    """The move menu as it was built before the per-army cache: every army, every route, every group."""
    steps = movement.move_range(state, house)
    storms = state.storm_sectors()
    menu: list[Action] = []
    for area, sector, tokens in movement.armies(state, house):
        groups = [tokens] + ([movement._split(tokens, tokens.total // 2)] if tokens.total >= 2 else [])
        paths = movement._safe_routes.__wrapped__(area, steps, frozenset(storms))
        for group in groups:
            for _destination, path in paths:
                menu.append(Move(house, area, sector, path, group.regular, group.marked))
        entry = None
        for neighbour in rules().board.area(area).adjacent:
            if neighbour != movement.POLE and storms and entry is None:
                entry = next(((neighbour, s) for s in movement.area_sectors(neighbour) if s in storms), None)
        if entry is not None:
            menu.append(Move(house, area, sector, (entry,), tokens.regular, tokens.marked))
    return menu


def _plain_landing_menu(state: GameState, house: str) -> list[Action]:
    hs = state.houses[house]
    menu: list[Action] = []
    if hs.reserve.total == 0:
        return menu
    storms = state.storm_sectors()
    first = movement._slot(state)["landed"] == 0
    most_by_price: dict[int, int] = {}
    for area in rules().board.areas:
        rate = movement.landing_price_per_token(area.id)
        if rate not in most_by_price:
            most_by_price[rate] = movement.affordable_landing(state, house, area.id, first=first)
        most = most_by_price[rate]
        if most < 1:
            continue
        for sector in movement.area_sectors(area.id):
            if area.id != movement.POLE and sector in storms:
                continue
            for count in sorted({n for n in (most, 1, most // 2) if 1 <= n <= most}, reverse=True):
                tokens = movement._split(hs.reserve, count)
                menu.append(Land(house, area.id, sector, tokens.regular, tokens.marked))
    for sector in storms:
        area = next(a for a in rules().board.areas_in_sector(sector) if a.id != movement.POLE)
        if most_by_price.get(movement.landing_price_per_token(area.id), 0) >= 1:
            tokens = movement._split(hs.reserve, 1)
            action = Land(house, area.id, sector, tokens.regular, tokens.marked)
            if action not in menu:
                menu.append(action)
    if movement.holds_power(state, house, movement.ADVISORS):
        menu += movement._peace_landing_menu(state, house, menu)
    return menu


def _plain_emergence_menu(state: GameState, house: str) -> list[Action]:
    reserve = state.houses[house].reserve
    slot = movement._slot(state)
    if reserve.total == 0 or slot.get("emerged", slot["landed"]):
        return []
    counts = sorted({n for n in (reserve.total, 1, reserve.total // 2) if 1 <= n <= reserve.total}, reverse=True)
    return [Emerge(house, a, s, t.regular, t.marked) for a in movement.emergence_areas()
            for s in movement.area_sectors(a) if s not in state.storm_sectors()
            for t in (movement._split(reserve, c) for c in counts)]


def _plain_reposition_menu(state: GameState, house: str) -> list[Action]:
    menu: list[Action] = []
    for area, sector, tokens in movement.armies(state, house):
        if area == movement.POLE or double_storm_sietch(state, area, sector):
            continue
        for target in movement.area_sectors(area):
            if target != sector and not any(s in state.storm_sectors()
                                            for s in movement.reposition_route(area, sector, target)):
                menu.append(Reposition(house, area, sector, target, tokens.regular, tokens.marked))
    return menu


def _slot_positions() -> list[GameState]:
    """Movement slots of random 6- and 8-House games, each also under other storms (none, one, two, a double)."""
    positions = [state for houses, seeds in ((HOUSES, (0, 1, 2, 3)), (list(HOUSE_IDS), (0, 1))) for seed in seeds
                 for state in bot_game_states(houses, seed, turn_limit=8)
                 if state.pending is not None and state.pending.kind == "movement"]
    varied = []
    for k, state in enumerate(positions[::7]):
        for main, secondary in ((None, None), (1 + k % 18, None), (1 + k % 18, 1 + (k * 5) % 18), (3, 3)):
            varied.append(evolve(state, storm_main=main, storm_secondary=secondary))
    return positions + varied


def test_issue14_movement_menus_equal_the_plain_rebuild() -> None:
    """Every block of the movement slot menu (moves, landings, emergences, repositions), built from its caches,
    is the plain rebuild's list, in order, at every movement slot of random games and under other storms."""
    checked = 0
    for state in _slot_positions():
        house = state.pending.actor  # type: ignore[union-attr]
        assert movement._move_menu(state, house) == _plain_move_menu(state, house)
        if movement.holds_power(state, house, movement.NATIVES):
            assert movement._emergence_menu(state, house) == _plain_emergence_menu(state, house)
        else:
            assert movement._landing_menu(state, house) == _plain_landing_menu(state, house)
        assert movement._reposition_menu(state, house) == _plain_reposition_menu(state, house)
        checked += 1
    assert checked > 500


# --- the alliance window menu (issue 14 item 4): cached offers equal the plain rebuild --------------------------

def _plain_window_menu(state: GameState) -> list[Action]:
    """The alliance window's menu as it was built before its caches: every offer built anew."""
    from dunenb.rules.bidding import hand_limit
    from dunenb.rules.traitors import leader_of, leader_ref

    assert state.pending is not None
    house = state.pending.actor
    options: list[Action] = [alliances.EndWindow(house)]
    if state.pending.detail["offers"] >= alliances.MAX_OFFERS:
        return options
    hs = state.houses[house]
    acting = acting_main_leader(state, house)
    leaders = [k for k in hs.leaders if not leader_of(house, k).main and k != acting
               and leader_ref(house, k) not in state.captured]
    for partner in alliances._partners(state, house):
        their = state.houses[partner].spice
        room = len(state.houses[partner].hand) < hand_limit(state, partner)
        options += [Offer(house, partner, "spice", "spice", n) for n in alliances.MENU_SPICE if n <= hs.spice]
        if alliances.MENU_SPICE[-1] <= hs.spice:
            options.append(Offer(house, partner, "spice", "spice", alliances.MENU_SPICE[-1], delay=1))
        goods = [("card", c, alliances.MENU_CARD_PRICE) for c in (sorted(set(hs.hand)) if room else [])]
        goods += [("leader", k, alliances.MENU_LEADER_PRICE) for k in leaders]
        goods += [("power", p, alliances.MENU_POWER_PRICE) for p in alliances.owned_powers(state, house)]
        for what, item, price in goods:
            options.append(Offer(house, partner, what, item, 1))
            if their >= price:
                options.append(Offer(house, partner, what, item, 1, price))
        options += alliances._revival_offers(state, house, partner)
        if hs.reserve.regular >= alliances.MENU_TOKENS:
            options.append(Offer(house, partner, "token", "regular", alliances.MENU_TOKENS))
            if their >= alliances.MENU_TOKENS:
                options.append(Offer(house, partner, "token", "regular", alliances.MENU_TOKENS, alliances.MENU_TOKENS))
    return options


def test_issue14_alliance_menus_equal_the_plain_rebuild() -> None:
    """The window's menu from its caches (purses capped at the sums the offers read, offers by kind of goods,
    the tradeable leaders) is the plain rebuild's list, in order, at every window node of random 6- and 8-House
    games, also with other purses (0 to 7 spice for the dealer and for each partner)."""
    checked = 0
    for houses, seeds in ((HOUSES, (0, 1, 2)), (list(HOUSE_IDS), (0, 1))):
        for seed in seeds:
            for state in bot_game_states(houses, seed, turn_limit=8):
                if state.pending is not None and state.pending.kind == "alliance":
                    variants = [state]
                    for spice in (0, 2, 4, 5, 7):
                        variants.append(edit_house(state, state.pending.actor, spice=spice))
                        variants.append(evolve(state, houses=FrozenDict(
                            {h: dataclasses.replace(hs, spice=(spice + k) % 8)
                             for k, (h, hs) in enumerate(state.houses.items())})))
                    for variant in variants:
                        assert alliances.window_decisions(variant) == _plain_window_menu(variant)
                        checked += 1
    assert checked > 1000


@dataclasses.dataclass(frozen=True)
class _Checked:
    """A dataclass whose ``__init__`` does more than store: ``evolve`` must leave it to ``dataclasses.replace``."""

    amount: int

    def __post_init__(self) -> None:
        if self.amount < 0:
            raise ValueError("negative")


@dataclasses.dataclass(frozen=True)
class _Derived:
    """A field outside ``__init__``: ``replace`` computes it again, a copy of the fields would keep the old one."""

    base: int
    double: int = dataclasses.field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "double", 2 * self.base)


@dataclasses.dataclass(frozen=True)
class _OwnInit:
    """A dataclass with an ``__init__`` of its own (it normalises its argument; ``dataclass`` keeps it)."""

    value: int

    def __init__(self, value: object) -> None:
        object.__setattr__(self, "value", int(str(value)))


def test_issue14_evolve_is_replace_for_every_dataclass() -> None:
    """``evolve`` builds what ``dataclasses.replace`` builds: by copying the fields of the engine's plain records
    (a game state, a battle context of a real game), through ``replace`` itself for a class whose ``__init__``
    checks, computes or normalises (issue 14 item 4: the battle modules now call ``evolve`` where they called
    ``replace``)."""
    states = [s for s in bot_game_states(HOUSES, 2, turn_limit=4) if s.pending is not None]
    for state in states[::40]:
        assert evolve(state, turn=state.turn + 1) == dataclasses.replace(state, turn=state.turn + 1)
    contexts = [s.pending.detail["battle"] for s in states if s.pending.detail.get("battle") is not None]
    assert contexts, "the game has battles"
    for ctx in contexts[::5]:
        assert evolve(ctx, shown=()) == dataclasses.replace(ctx, shown=())
        if ctx.sequence is not None:
            assert evolve(ctx.sequence, waiting=()) == dataclasses.replace(ctx.sequence, waiting=())
    with pytest.raises(ValueError, match="negative"):
        evolve(_Checked(1), amount=-1)
    assert evolve(_Derived(2), base=5).double == 10
    assert evolve(_OwnInit("7"), value="8").value == 8
    with pytest.raises(TypeError, match="no field"):
        evolve(states[0], colour="red")
    with pytest.raises(TypeError, match="dataclasses only"):
        evolve(FrozenDict({"a": 1}), a=2)


def test_issue14_seeding_cache_draws_as_numpy() -> None:
    """The cached seeding (a pure function of the words) gives NumPy's draws when the same words come again, and
    for words met for the first time in between."""
    for words in ([4, 11, 2, 30], [4, 12, 2, 30], [4, 11, 2, 30], [4, 11, 2, 30, 9]):
        for high in (2, 7, 1000):
            assert int(seeded_rng(words).integers(high)) == int(np.random.default_rng(words).integers(high))
        assert seeded_rng(words).random() == np.random.default_rng(words).random()


@pytest.mark.parametrize("words", [[0], [3, 2**32 - 1, 0, 7], [9, 1234, 5, 2000], [2**40, 1], [5, 1, 2, 3, 4, 6]])
def test_issue14_first_draws_without_a_generator_are_numpys(words: list[int]) -> None:
    """The bots' and the chance nodes' single draw (``seeding.first_integer``, ``first_random``) is NumPy's first
    draw for the same words: in range and out of range of the fast path (a word of 2**40, a range of one)."""
    from dunenb.seeding import first_integer, first_random

    for high in (1, 2, 3, 7, 1000, 2**31):
        assert first_integer(words, high) == int(np.random.default_rng(words).integers(high))
    assert first_random(words) == np.random.default_rng(words).random()


def test_issue14_cached_traitor_pools_and_outcomes_are_the_rule() -> None:
    """The cached traitor pools (TRAITOR-1, HARKONNEN-M1) list what the rule lists, at every state of bot games,
    and the chance nodes' kept draw and top-card outcomes are the actions the rule would build."""
    from dunenb.battle.traitors import can_be_traitor_of
    from dunenb.powers import is_in_play
    from dunenb.rules.battle_powers import NewTraitorDraw, new_traitor_pool
    from dunenb.rules.deck_tops import DrawDeckTop
    from dunenb.rules.traitors import active_houses, leader_of, leader_ref, traitor_pool

    def pool_by_rule(state: GameState) -> tuple:
        return tuple(leader_ref(h, lid) for h in active_houses(state) for lid in state.houses[h].leaders
                     if not leader_of(h, lid).main)

    def new_pool_by_rule(state: GameState, house: str, exclude: tuple) -> tuple:
        skip = set(state.houses[house].traitors) | set(exclude)
        return tuple(sorted({leader_ref(o, k) for o, hs in state.houses.items() if is_in_play(state, o)
                             for k in hs.leaders if leader_ref(o, k)[0] != house and not leader_of(o, k).main
                             and leader_ref(o, k) not in skip and can_be_traitor_of(leader_of(o, k), house)}))

    kinds = set()
    for seed in (1, 4):
        for state in bot_game_states(list(HOUSE_IDS), seed, turn_limit=6):
            assert traitor_pool(state) == pool_by_rule(state)
            for house in state.config.houses:
                slips = state.houses[house].traitors
                for exclude in ((), slips[:1]):
                    assert new_traitor_pool(state, house, exclude) == new_pool_by_rule(state, house, exclude)
            if state.pending is not None and state.pending.kind in ("new-traitor-draw", "deck-top"):
                kinds.add(state.pending.kind)
                for action, _share in engine.chance_outcomes(state):
                    fresh = (NewTraitorDraw(action.house, action.leader_house, action.leader)
                             if isinstance(action, NewTraitorDraw) else DrawDeckTop(action.deck, action.card))
                    assert action == fresh and type(action) is type(fresh)
    assert kinds == {"new-traitor-draw", "deck-top"}
