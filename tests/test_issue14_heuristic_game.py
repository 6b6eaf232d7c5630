"""Issue 14 item 4 (a heuristic-bot game under 0.5 s): the shortcuts of the heuristic bot's game decide exactly
as the work they replace, on positions of seeded bot games.

No rule or tuning changes here: each test pins one shortcut to the plain computation it replaces.
"""

from __future__ import annotations

import itertools

import pytest
from helpers_game import bot_game_states

from dunenb.actions import Action
from dunenb.battle.cards import DEFENCES
from dunenb.battle.immunities import changes_leader_step
from dunenb.battle.leader_weapons import Arsenal, arsenal
from dunenb.battle.powers import builtin_weapons, immune_to
from dunenb.battle.roster import Leader, load_roster
from dunenb.board import load_board
from dunenb.bots import battle_planner, heuristic
from dunenb.engine import legal_actions
from dunenb.rules import truth_trance
from dunenb.rules.battle_phase import SubmitPlan
from dunenb.rules.common import edit_house
from dunenb.ruleset import HOUSE_IDS
from dunenb.state import GameState, Tokens, evolve

HOUSES = ["atreides", "harkonnen", "fremen", "emperor", "guild", "bene-gesserit"]


# --- the truth-trance questions of a bid or plan menu, kept per means, Houses in play and leaders ----------------

def _plain_questions(state: GameState, house: str) -> list[Action]:
    """The question menu as it was built before the memo: every question of every means, target and subject."""
    means = truth_trance._means(state, house)
    targets = [t for t in truth_trance.active_houses(state) if t != house]
    return [truth_trance.AskTruthTrance(house, target, q.id, subject, how) for how in means for target in targets
            for q in truth_trance.load_questions() for subject in truth_trance._subjects(state, house, target, q)]


def _trance_positions() -> list[GameState]:
    """The bid and battle-plan decisions of heuristic and random 6- and 8-House games where the actor may ask."""
    found = []
    for houses, seeds, bot in ((HOUSES, (0, 1), "heuristic"), (HOUSES, (0, 1), "random"),
                               (list(HOUSE_IDS), (0,), "random")):
        for seed in seeds:
            for state in bot_game_states(houses, seed, turn_limit=8, bot=bot):
                pending = state.pending
                if pending is not None and pending.kind in truth_trance.MOMENTS and truth_trance._means(
                        state, pending.actor):
                    found.append(state)
    return found


def test_issue14_question_menus_equal_the_plain_rebuild() -> None:
    """The memoised question menu is the plain listing, in order, at every decision where a House may ask in
    seeded games, also with a leader fewer and with a House eliminated (other keys of the memo), and a caller
    changing its list does not change the next one."""
    checked = 0
    for state in _trance_positions():
        house = state.pending.actor  # type: ignore[union-attr]
        leaders = state.houses[house].leaders
        others = [h for h in truth_trance.active_houses(state) if h != house]
        variants = [state, edit_house(state, house, leaders=leaders[1:]),
                    evolve(state, eliminated=(*state.eliminated, others[-1]))]
        for variant in variants:
            plain = _plain_questions(variant, house)
            got = truth_trance.questions(variant, house)
            assert got == plain
            got.clear()
            assert truth_trance.questions(variant, house) == plain  # the memo hands out a fresh list each time
            checked += 1
    assert checked > 100


# --- the site values of the movement scores, read from two ints instead of a Tokens ------------------------------

def _plain_hold_chance(context: heuristic._Context, area_id: str, tokens: Tokens) -> float:
    """hold_chance as it was before the int form: the shares and potentials read from ``tokens``."""
    share = min(1.0, tokens.total / heuristic.MIN_GARRISON)
    threat = context.threat(area_id)
    if threat == 0.0:
        return share
    potential = heuristic.army_potential(context.state, context.house, tokens)
    return share * (1.0 - heuristic.ATTACK_CHANCE * (1.0 - heuristic.win_chance(potential, threat)))


def _plain_site_value(context: heuristic._Context, area_id: str, tokens: Tokens) -> float:
    """site_value as it was before the int form (its facts, :func:`heuristic._site_facts`, unchanged)."""
    count = tokens.total
    if count == 0:
        return 0.0
    kind, stake, bonus, spice, rate, enemy, block, rank = heuristic._site_facts(context, area_id)
    settlement = kind in ("city", "sietch")
    prize = 0.2 * min(count, heuristic.TOKENS_USEFUL) + (0.1 * min(count, 6) if settlement else 0.0)
    if settlement:
        prize += bonus
    elif kind == "desert":
        prize += heuristic.SPICE_VALUE * min(spice, count * rate) - heuristic.DESERT_ARMY_COST
    elif kind == "pole":
        prize -= 0.1 * count
    if enemy == 0.0:
        if stake == 0.0:
            return prize + 0.0
        return prize + stake * _plain_hold_chance(context, area_id, tokens)
    prize += stake + block
    chance = heuristic.win_chance(heuristic.army_potential(context.state, context.house, tokens, rank), enemy)
    return chance * (prize - 0.35 * count) - (1.0 - chance) * count - heuristic.FIGHT_COST


def test_issue14_site_values_from_ints_equal_the_tokens_form() -> None:
    """At the movement decisions of heuristic 6-House games, the site value of every area for armies of 0 to 12
    tokens (regular and marked mixes) is the float the Tokens form gives, asked in both orders of the memo."""
    board = load_board()
    checked = 0
    for seed in (0, 1):
        for state in bot_game_states(HOUSES, seed, turn_limit=6, bot="heuristic"):
            if state.pending is None or state.pending.kind != "movement":
                continue
            house = state.pending.actor
            heuristic._LAST_CONTEXT[0] = None
            context = heuristic._context(state, house)
            for area in board.areas:
                for regular, marked in ((0, 0), (1, 0), (0, 1), (2, 1), (3, 0), (5, 2), (4, 4), (10, 2)):
                    tokens = Tokens(regular, marked)
                    plain = _plain_site_value(context, area.id, tokens)
                    assert heuristic.site_value(context, area.id, tokens) == plain
                    assert heuristic._site_value_of(context, area.id, regular, marked) == plain
                    if area.is_settlement:
                        assert heuristic._hold_chance(context, area.id, regular, marked) == _plain_hold_chance(
                            context, area.id, tokens)
                    checked += 1
    assert checked > 10_000


# --- the leader step of a leader whose only K-6 entry admits a second card ----------------------------------------

def _slot_only_leaders() -> list[tuple[str, Leader]]:
    """The roster leaders whose only step-looking power is a K-6 or K-7 permission for a second card or a built-in."""
    found = []
    for leader in load_roster().leaders:
        if leader.house is None:
            continue
        kit = arsenal(leader, leader.house, frozenset())
        if kit != Arsenal() and not battle_planner._steps_arsenal(kit) and not immune_to(leader) \
                and not builtin_weapons((leader.house, ""), (leader, None), (frozenset(), frozenset()))[0] \
                and not changes_leader_step(leader, leader.house):
            found.append((leader.house, leader))
    return found


def test_issue14_a_second_card_slot_leader_steps_as_his_strength() -> None:
    """Piter, Hasimir (Emperor's and Guild's), Hwi Noree, Feyd-Rautha and Murbella step as their base strength
    (issue 14 item 4: their K-6 and K-7 entries only admit a second card or a built-in): the folded leader step
    (:func:`battle_planner._fates`) of their spec with their strength equals that of the spec the planner gave
    them before, for the cards of both slots and extra slots tried (contact projectiles and shields above all),
    against no leader, plain leaders, another such leader and leaders with step powers (Edric's and Tyekanik's
    worn shields, Iakin Nefud's and Jamis's rules, Alma's and Margot's), with and without the traitor called, on
    either side of the battle, as the bot's leader and as the opponent."""
    leaders = _slot_only_leaders()
    assert {leader.id for _house, leader in leaders} >= {"piter", "hasimir", "hwi-noree", "feyd-rautha", "murbella"}
    fates = battle_planner._fates
    opponents = (None, 3, 7, ("harkonnen", "piter", (), 4), ("harkonnen", "iakin-nefud", ()), ("guild", "edric", ()),
                 ("emperor", "tyekanik", ()), ("fremen", "jamis", ()), ("bene-gesserit", "alma+margot", ()))
    their_weapons = (None, "projectile-contact", "lasgun")
    checked = 0
    for house, leader in leaders:
        spec, folded = (house, leader.id, ()), battle_planner._fate_leader(house, leader, frozenset())
        assert folded == (*spec, leader.strength)
        kit = arsenal(leader, house, frozenset())
        for weapon, defence, (extra_attack, extra_defence) in itertools.product(
                (None, "poison-slow", "projectile-contact", "lasgun", "atomics", *kit.slot_weapons()),
                (None, "shield", "snooper"),
                ((None, None), ("poison-fast", "shield"), ("lasgun", None),
                 *((built_in, None) for built_in in kit.extra_weapons()))):
            for opponent, their_weapon, their_defence in itertools.product(opponents, their_weapons, DEFENCES):
                if isinstance(opponent, tuple) and opponent[0] == house:
                    continue
                for traitor, my_index in ((False, 0), (False, 1), (True, checked % 2)):
                    theirs = (opponent, their_weapon, their_defence)
                    assert fates((spec, weapon, defence, extra_attack, extra_defence), theirs, traitor, my_index) == \
                        fates((folded, weapon, defence, extra_attack, extra_defence), theirs, traitor, my_index)
                    if extra_attack is None:
                        mine = (opponent, their_weapon, their_defence, None, extra_defence)
                        assert fates(mine, (spec, weapon, defence), traitor, my_index) == fates(
                            mine, (folded, weapon, defence), traitor, my_index)
                    checked += 1
    assert checked > 10_000


def test_issue14_plan_values_with_slot_leaders_folded_equal_the_specs(monkeypatch: pytest.MonkeyPatch) -> None:
    """At the battle-plan decisions of heuristic 6-House games, every plan's value is the same float with the
    second-card leaders stepping as their strength as with the specs the planner built for them before."""

    def clear() -> None:
        for cached in (battle_planner._fate_leader, battle_planner._cached_fates, battle_planner._leader_step):
            cached.cache_clear()

    plans_seen = 0
    for seed in (0, 1, 2):
        for state in bot_game_states(HOUSES, seed, turn_limit=8, bot="heuristic"):
            if state.pending is None or state.pending.kind != "battle-plan":
                continue
            plans = [a for a in legal_actions(state) if isinstance(a, SubmitPlan)]
            clear()
            folded = battle_planner.plan_values(state, plans)
            with monkeypatch.context() as patch:
                patch.setattr(battle_planner, "_steps_arsenal", lambda kit: kit != Arsenal())  # the old test
                clear()
                specs = battle_planner.plan_values(state, plans)
            clear()
            assert folded == specs
            plans_seen += len(plans)
    assert plans_seen > 1000
