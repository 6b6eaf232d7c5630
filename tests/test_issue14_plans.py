"""Issue 14 item 4 (battle plans): the plan menu's and the planner's shortcuts give what the plain work gives.

Each test pins a shortcut to the straightforward computation it replaces, on the battle-plan nodes of seeded bot
games: the menu (slots keyed on what they read of the leader, facts read once per menu, each card choice judged
once) against every plan listed and judged on its own; the planner's scores (rows and leader steps shared per menu,
the chance to win by armies computed once) against each plan's situations and value computed afresh, float for
float.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import lru_cache

from helpers_game import bot_game_states

from dunenb import engine
from dunenb.battle.cards import BUILT_IN_WEAPONS, DEFENCES, WEAPONS
from dunenb.battle.leader_karama import is_leader_use
from dunenb.battle.leader_weapons import _slot_options, slot_options
from dunenb.battle.roster import load_roster
from dunenb.bots import battle_planner as planner
from dunenb.rules import battle_phase, leader_pre_battle, pre_battle
from dunenb.rules.battle_context import context_of
from dunenb.rules.bidding import karama_cards
from dunenb.rules.traitors import leader_of

HOUSES = ["atreides", "harkonnen", "fremen", "emperor", "guild", "bene-gesserit"]
NONE = "none"


@lru_cache(maxsize=1)
def _plan_nodes() -> tuple:
    """The battle-plan nodes of seeded 6-House games, random and heuristic bots (issue 14's benchmark games)."""
    return tuple((bot, state) for bot, seeds in (("random", (0, 1, 2, 3)), ("heuristic", (0, 1))) for seed in seeds
                 for state in bot_game_states(HOUSES, seed, turn_limit=8, bot=bot)
                 if state.pending is not None and state.pending.kind == "battle-plan")


def _plain_menu(state: engine.GameState) -> list:
    """The plan menu as listed before issue 14's shortcuts: each leader's slots and Karamas read for him, every plan
    built and checked on its own (K-21 restrictions, then pre_battle.violations with a judge of its own)."""
    house = state.pending.actor
    hs = state.houses[house]
    tokens, leaders = battle_phase._plan_context(state, house)
    held = Counter(hs.hand)
    dials = leader_pre_battle.locked_dials(context_of(state), house, battle_phase.menu_dials(tokens, hs.spice))
    cards = karama_cards(state, house)
    karamas = [(NONE, NONE)] + ([(card, NONE) for card in cards] if battle_phase._karama_target(state, house)
                                or pre_battle.karama_forced(state, house) else [])
    karamas += [(cards[0], use) for use in pre_battle.wheel_uses(state, house)] if cards else []
    plans = []
    verdicts: dict[tuple, bool] = {}  # the menu judges each card choice on its first plan (as before issue 14)
    for leader in leaders or (NONE,):
        own = battle_phase._karamas(state, house, leader, karamas)
        triples = [(w, d, k, u, x, y) for w, d, x, y in battle_phase._slot_menu(state, house, leader) for k, u in own
                   if k == NONE
                   or not Counter(c for c in (w, d, k, x, y) if c != NONE and c not in BUILT_IN_WEAPONS) - held]
        for (regular, marked, spice), (weapon, defense, karama, against, extra_attack, extra_defense) in \
                itertools.product(dials, triples if leader != NONE else [(NONE,) * 6]):
            plan = battle_phase.SubmitPlan(house, leader, regular, marked, spice, weapon, defense, karama, against,
                                           extra_attack, extra_defense)
            if battle_phase._restriction_error(plan) is not None:
                continue
            key = (leader, weapon, defense, karama, against, extra_attack, extra_defense)
            if key not in verdicts:
                verdicts[key] = bool(pre_battle.violations(state, plan))
            if not verdicts[key]:
                plans.append(plan)
    return plans


def test_issue14_plan_menu_is_the_plain_menu() -> None:
    """The menu lists the same plans in the same order as every plan built and judged on its own; the judge
    shared by a menu (one verdict of the sequence per distinct cards, hand and releases) says of every plan
    what a judge of its own says."""
    nodes = _plan_nodes()
    assert len(nodes) > 20
    bound = 0
    for _bot, state in nodes:
        menu = battle_phase._plan_decisions(state)
        assert menu == _plain_menu(state)
        house = state.pending.actor
        if pre_battle.may_be_bound(context_of(state), house):
            bound += 1
            judge = pre_battle.plan_judge(state, house)
            for plan in menu[:200]:
                assert judge(plan) == pre_battle.violations(state, plan) == ()
    assert bound  # some menus had a Voice, an answer or a disclosure to judge


def test_issue14_slot_options_shared_by_leaders_are_their_own() -> None:
    """slot_options keyed on the leader's arsenal and carry rules gives each leader of the roster what his own
    computation gives, for several hands, blocked powers and built-ins."""
    hands = [(), ("poison-fast", "shield"), ("lasgun", "projectile-contact", "snooper", "worthless"),
             ("poison-slow", "poison-fast", "shield", "shield", "karama"), ("projectile-distance", "worthless")]
    for leader, hand, house_weapons in itertools.product(load_roster().leaders, hands, ((), ("karate",))):
        blocked_sets = [frozenset(), frozenset(power.id for power in leader.powers)]
        for house, blocked in itertools.product({leader.house or "atreides", "fremen"}, blocked_sets):
            plain = list(_slot_options(leader, house, tuple(sorted(hand)), blocked, house_weapons, (), WEAPONS,
                                       DEFENCES))
            assert slot_options(leader, house, hand, blocked=blocked, house_weapons=house_weapons,
                                attack_cards=WEAPONS, defence_cards=DEFENCES) == plain, (leader.key, hand, house)


def _plain_plan_values(state: engine.GameState, plans: list) -> list[float]:
    """planner.plan_values as computed before issue 14's menu-wide sharing: each plan's situations merged afresh
    (no rows kept, no leader step kept beyond the resolver's own cache) and valued by the plain _plan_value."""
    house = state.pending.actor
    seen = planner.guess(planner.view(state, house))
    ctx = context_of(seen)
    opponent = ctx.opponent(house)
    my_index = 0 if house == ctx.defender else 1
    opp = planner.opposition(seen, house, opponent, ctx)
    facts = planner.fighters(seen, house, opponent, ctx)
    acting = planner.acting_main_leader(seen, house)
    mine_all = battle_phase.arena_tokens(seen, house, ctx.area, ctx.sectors).total
    stakes = planner.battle_stakes(seen, house, ctx.area)
    blockable = planner.wheel_karama_power(opponent) is not None
    values = []
    for plan in plans:
        if not isinstance(plan, battle_phase.SubmitPlan):
            values.append(planner.NOT_A_PLAN)
            continue
        leader = None if plan.leader in (NONE, "") else leader_of(house, plan.leader)
        cards = [None if card == NONE else card
                 for card in (plan.weapon, plan.defense, plan.extra_attack, plan.extra_defense)]
        mine = (None if leader is None else leader.strength, *cards)
        shown = is_leader_use(plan.against)
        situations = planner._situations(opp, mine, my_index, planner.voided_opponents(facts, opp) if shown
                                         else facts, None if leader is None else plan.leader)
        dialled = plan.regular + plan.marked
        losses = {
            "leader": 0.0 if leader is None else planner.leader_value(leader.strength,
                                                                      leader.main or plan.leader == acting),
            "cards": planner.card_value(cards[0]) + planner.card_value(cards[1]) + planner.card_value(cards[2])
            + planner.card_value(cards[3]),
            "stakes": stakes,
            "win": (stakes if dialled < mine_all else planner.EMPTIED_SHARE * stakes) - dialled
            - planner.SPICE_VALUE * plan.spice,
            "lose": -mine_all - planner.SPICE_VALUE * plan.spice,
        }
        my_army = (float(planner.army_value(planner.Dial(plan.regular, plan.marked, plan.spice))),
                   float(planner.army_value(planner.Dial(0, dialled, plan.spice))))
        value = planner._plan_value(situations, opp.dials, my_army, my_index == 0, losses)
        if plan.karama != NONE and plan.against != NONE:
            value -= planner.KARAMA_VALUE
        elif blockable and leader is not None:
            if plan.karama != NONE:
                value -= planner.KARAMA_VALUE
            else:
                risk = planner.betrayal_odds(seen, house, opponent, plan.leader)
                value = (1 - risk) * value + risk * (losses["lose"] - losses["cards"])
        if cards[0] == "atomics":
            value -= planner.ATOMICS_PENALTY
        values.append(value)
    return values


def test_issue14_plan_values_are_the_plain_values() -> None:
    """The planner's values of every menu are, float for float, each plan's situations and value computed
    afresh (so the heuristic bot's choices and its tie sets are unchanged)."""
    checked = 0
    for _bot, state in _plan_nodes():
        actions = engine.legal_actions(state)
        if not any(isinstance(a, battle_phase.SubmitPlan) for a in actions):
            continue
        checked += 1
        assert planner.plan_values(state, actions) == _plain_plan_values(state, actions)
    assert checked > 20


def test_issue14_kept_leader_steps_are_the_leader_steps() -> None:
    """The planner's kept leader steps are _fates' own answers (a function of its arguments alone)."""
    for mine, theirs in itertools.product([(5, "poison-fast", "shield", None, None), (3, None, "snooper", None, None),
                                           (2, "worthless", None, None, None)],
                                          [(4, "projectile-contact", "shield"), (6, "lasgun", None)]):
        for traitor, my_index in itertools.product((False, True), (0, 1)):
            assert planner._cached_fates(mine, theirs, traitor, my_index) == planner._fates(mine, theirs, traitor,
                                                                                           my_index)


def test_issue14_available_leaders_kept_per_state_are_computed_ones() -> None:
    """The leaders kept per state object (and the G-7 line kept per House and dead leaders) are those computed
    afresh, for both sides of every battle-plan node, on the state and on each side's view."""
    from dunenb.battle.roster import load_roster
    from dunenb.powers.holders import acting_main_leader, dead_leaders

    for _bot, state in _plan_nodes()[::3]:
        ctx = context_of(state)
        for seen in (state, planner.guess(engine.view(state, ctx.defender))):
            for house in ctx.houses:
                plain = battle_phase._available_leaders(seen, house, ctx.area, ctx.committed)
                assert battle_phase.available_leaders(seen, house, ctx.area, ctx.committed) == plain
                assert battle_phase.available_leaders(seen, house, ctx.area, ctx.committed) == plain
                assert acting_main_leader(seen, house) == load_roster().acting_main(house, dead_leaders(seen, house))
