"""Bots: deterministic, legal by construction, and the heuristic bot's choices follow its stated policy."""

from __future__ import annotations

import dataclasses

import pytest

from dunenb.analysis.worms import worm_strike_table
from dunenb.board import load_board
from dunenb.bots import HeuristicBot, RandomBot, make_bot
from dunenb.bots.battle_planner import plan_scores
from dunenb.bots.heuristic import (
    CARD_MAX_BID,
    LANDING_GROUP,
    RESERVE_SPICE,
    _score,
    bid_budget,
    spice_to_keep,
)
from dunenb.bots.risk import Risk, storm_hit_probability, worm_strike_probability
from dunenb.bots.standings import standing_leader
from dunenb.engine import (
    CHANCE,
    apply_action,
    current_player,
    legal_actions,
    make_config,
    new_game,
    sample_chance,
    view,
)
from dunenb.errors import InputError
from dunenb.rules.battle_context import BattleContext
from dunenb.ruleset import WORM_CARD
from dunenb.simulate import play_game
from dunenb.state import FrozenDict, Pending, Tokens

HOUSES = ["atreides", "harkonnen", "fremen", "emperor"]


def _decisions(seed: int, turns: int = 6):
    state = new_game(HOUSES, seed=seed, turn_limit=turns)
    bots = {h: HeuristicBot(seed=seed) for h in HOUSES}
    while state.pending is not None:
        actor = current_player(state)
        if actor == CHANCE:
            state = apply_action(state, sample_chance(state))
            continue
        action = bots[actor].choose(state)
        yield state, action
        state = apply_action(state, action)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_heuristic_bot_bids_within_its_means_and_plans_with_the_battle_analyzer(seed):
    plans_seen = bids_seen = 0
    for state, action in _decisions(seed):
        assert action in legal_actions(state)
        if action.kind == "bid":
            assert action.amount <= max(0, state.houses[action.house].spice - RESERVE_SPICE)
            bids_seen += 1
        if action.kind == "plan":
            options = [a for a in legal_actions(state) if a.kind == "plan"]  # not the any-time actions (GAP-57)
            scores = plan_scores(state, options)
            assert scores[options.index(action)] == max(scores)
            plans_seen += 1
    assert plans_seen > 0 and bids_seen > 0  # these seeds do fight battles and hold auctions


def test_bots_are_deterministic_for_a_seed():
    state = new_game(HOUSES, seed=4)
    while current_player(state) == CHANCE:
        state = apply_action(state, sample_chance(state))
    for bot in (RandomBot(seed=3), HeuristicBot(seed=3)):
        assert bot.choose(state) == bot.choose(state)


def test_unknown_bot_names_the_allowed_ones():
    with pytest.raises(InputError) as error:
        make_bot("clever")
    assert "heuristic" in str(error.value) and "random" in str(error.value)


# --- behaviour of the heuristic bot (issue: stronger, less wasteful) ---------------------------------------

def _decision_state(kind: str):
    """A real position of a 2-House game (Atreides, Harkonnen) at the first decision of ``kind``."""
    state = new_game(["atreides", "harkonnen"], seed=3, turn_limit=4)
    bot = HeuristicBot(seed=0)
    while state.pending.kind != kind:
        actor = current_player(state)
        state = apply_action(state, sample_chance(state) if actor == CHANCE else bot.choose(state))
    return state


def _battle(mine: Tokens, theirs: Tokens, *, my_spice: int = 10, their_spice: int = 10):
    """Atreides (defender, to plan, no cards) against Harkonnen in Arrakeen, with these armies and spice."""
    state = _decision_state("movement")
    houses = state.houses
    houses = houses.set("atreides", dataclasses.replace(houses["atreides"], spice=my_spice, hand=()))
    houses = houses.set("harkonnen", dataclasses.replace(houses["harkonnen"], spice=their_spice))
    forces = FrozenDict({("atreides", "arrakeen", 1): mine, ("harkonnen", "arrakeen", 1): theirs})
    battle = BattleContext(area="arrakeen", sectors=(1,), defender="atreides", attacker="harkonnen",
                           order=("atreides", "harkonnen"))
    detail = FrozenDict(dict(battle=battle))
    return dataclasses.replace(state, phase="battle", houses=houses, forces=forces,
                               pending=Pending("battle-plan", "atreides", detail))


def test_planner_does_not_dial_away_its_whole_army_when_the_battle_is_won_anyway():
    state = _battle(Tokens(8, 0), Tokens(1, 0), their_spice=0)
    plan = HeuristicBot(seed=1).choose(state)
    assert plan.kind == "plan" and plan in legal_actions(state)
    assert plan.regular + plan.marked < 8 and plan.spice == 0  # BATTLE-10: the winner loses what it dials


def test_planner_does_not_throw_spice_or_the_main_leader_into_a_lost_battle():
    state = _battle(Tokens(2, 0), Tokens(12, 4), their_spice=16)
    plan = HeuristicBot(seed=1).choose(state)
    assert plan.spice == 0  # GAP-42: the loser's wheel spice is lost too
    assert plan.leader != "paul"  # VICTORY-2: the main leader's death would eliminate the House


def test_planner_values_use_only_what_the_house_may_see():
    state = _battle(Tokens(5, 0), Tokens(5, 0))
    options = [a for a in legal_actions(state) if a.kind == "plan"]

    def holding(*cards):
        hand = dataclasses.replace(state.houses["harkonnen"], hand=cards)
        return dataclasses.replace(state, houses=state.houses.set("harkonnen", hand))

    # the opposing hand's size is public (its content is not): the same size gives the same values
    assert plan_scores(holding("worthless", "karama"), options) == plan_scores(holding("lasgun", "shield"), options)


def _movement(house_forces: dict, *, spice: int = 10):
    """Atreides' movement slot with only these forces on Dune (the Atreides at the North Pole)."""
    state = _decision_state("movement")
    houses = state.houses.set("atreides", dataclasses.replace(state.houses["atreides"], spice=spice))
    detail = FrozenDict(dict(order=("atreides", "harkonnen"), index=0, landed=True, moved=False, repositions=1))
    return dataclasses.replace(state, houses=houses, forces=FrozenDict(house_forces), spice_on_map=FrozenDict(),
                               pending=Pending("movement", "atreides", detail))


def _enters(action, area: str) -> bool:
    return (action.kind == "move" and action.path[-1][0] == area) or (action.kind == "land" and action.area == area)


@pytest.mark.parametrize("spice", [0, 6])
def test_bot_does_not_move_into_a_hopeless_fight_for_a_desert(spice):
    sector = 2 if 2 not in _movement({}).storm_sectors() else 3
    state = _movement({("atreides", "pole-nord", 1): Tokens(3, 0),
                       ("harkonnen", "bassin-imperial", sector): Tokens(15, 5)})
    state = dataclasses.replace(state, spice_on_map=FrozenDict({"bassin-imperial": spice}))
    action = HeuristicBot(seed=2).choose(state)
    assert action in legal_actions(state)
    assert not _enters(action, "bassin-imperial")


def test_bot_does_not_attack_a_city_held_by_a_much_stronger_army():
    state = _movement({("atreides", "pole-nord", 1): Tokens(3, 0), ("harkonnen", "carthag", 4): Tokens(15, 5)})
    bot = HeuristicBot(seed=2)
    attacks = [bot.scorer(state, "atreides", a) for a in legal_actions(state) if _enters(a, "carthag")]
    assert attacks and max(attacks) < 0  # worse than ending the slot (score 0)
    assert not _enters(bot.choose(state), "carthag")


def test_bot_finds_a_city_held_by_a_much_weaker_army_worth_attacking():
    state = _movement({("atreides", "pole-nord", 1): Tokens(10, 0), ("harkonnen", "carthag", 4): Tokens(1, 0)},
                      spice=10)
    if 4 in state.storm_sectors():
        pytest.skip("the storm covers Carthag in this position")
    bot = HeuristicBot(seed=2)
    options = legal_actions(state)
    attacks = [bot.scorer(state, "atreides", a) for a in options if _enters(a, "carthag")]
    stay = bot.scorer(state, "atreides", next(a for a in options if a.kind == "end-slot"))
    assert attacks and max(attacks) > stay


def test_bot_revives_before_landing_when_it_can_afford_it():
    state = _decision_state("movement")
    hs = state.houses[state.pending.actor]
    hs = dataclasses.replace(hs, spice=12, tanks=Tokens(4, 0), reserve=hs.reserve - Tokens(4, 0))
    state = dataclasses.replace(state, houses=state.houses.set(state.pending.actor, hs))
    action = HeuristicBot(seed=0).choose(state)
    assert action.kind == "revive" and action.regular + action.marked == 3  # REVIVAL-1: up to 3 a turn


def _answer(offer: tuple):
    state = _decision_state("movement")
    detail = FrozenDict(dict(window=1, index=0, offers=1, offer=offer))
    return dataclasses.replace(state, phase="alliance", pending=Pending("alliance-answer", "atreides", detail))


def test_bot_weighs_alliance_deals_and_declines_offers_it_does_not_understand():
    bot = HeuristicBot(seed=0)
    spice = ("spice", "spice")
    assert bot.choose(_answer(("harkonnen", "atreides", "spice", "spice", 2, 0, 0, *spice))).kind == "accept-offer"
    assert bot.choose(_answer(("harkonnen", "atreides", "leader", "piter", 1, 0, 0, *spice))).kind == "accept-offer"
    # Piter (strength 4) for 3 spice: worth it; a worthless card for 2 spice: not
    assert bot.choose(_answer(("harkonnen", "atreides", "leader", "piter", 1, 3, 0, *spice))).kind == "accept-offer"
    assert bot.choose(_answer(("harkonnen", "atreides", "card", "worthless", 1, 2, 0, *spice))).kind == (
        "decline-offer")
    # a swap that gives away a better leader than it gets
    swap = ("harkonnen", "atreides", "leader", "piter", 1, 1, 0, "leader", "gurney")
    assert bot.choose(_answer(swap)).kind == "decline-offer"
    assert bot.choose(_answer(("harkonnen", "atreides", "spice"))).kind == "decline-offer"  # unreadable
    assert bot.choose(_answer(("odd",))).kind == "decline-offer"


def test_heuristic_bots_beat_random_bots_in_most_mixed_games():
    heuristic_ahead = 0
    for seed in range(4):
        houses = ["atreides", "harkonnen", "fremen", "emperor"]
        kinds = {h: "heuristic" if (k + seed) % 2 == 0 else "random" for k, h in enumerate(houses)}
        bots = {h: make_bot(kinds[h], seed=seed * 31 + k) for k, h in enumerate(houses)}
        _, final = play_game(make_config(houses, seed=seed, turn_limit=8), bots)
        heuristic_ahead += kinds[standing_leader(final)] == "heuristic"
    assert heuristic_ahead >= 3


# --- revival, garrisons and bids (issue: reviving into a full reserve, empty cities, overbidding) ------------

def _slot_with(reserve: int, tanks: int, spice: int):
    """The Harkonnen's movement slot, with nothing of theirs on Dune and this reserve, tanks and spice."""
    state = _decision_state("movement")
    house = state.pending.actor
    hs = dataclasses.replace(state.houses[house], spice=spice, reserve=Tokens(reserve, 0), tanks=Tokens(tanks, 0))
    forces = FrozenDict({key: tokens for key, tokens in state.forces.items() if key[0] != house})
    return dataclasses.replace(state, houses=state.houses.set(house, hs), forces=forces), house


def test_bot_lands_rather_than_revives_with_a_full_reserve():
    state, house = _slot_with(reserve=15, tanks=5, spice=4)
    action = HeuristicBot(seed=0).choose(state)
    assert action in legal_actions(state)
    assert action.kind == "land"  # REVIVAL-1 would spend the spice LAND-1 needs; 15 tokens wait already
    assert action.regular + action.marked >= 2 and load_board().area(action.area).is_settlement


def test_bot_revives_when_its_reserve_is_low():
    state, house = _slot_with(reserve=2, tanks=13, spice=4)
    action = HeuristicBot(seed=0).choose(state)
    assert action.kind == "revive"


def _arrakeen_under_threat(garrison: int):
    state = _movement({("atreides", "arrakeen", 1): Tokens(garrison, 0), ("harkonnen", "carthag", 4): Tokens(10, 0)})
    state = dataclasses.replace(state, spice_on_map=FrozenDict({"bassin-imperial": 12, "plaine-funebre": 12}))
    if {1, 4, 5} & set(state.storm_sectors()):
        pytest.skip("the storm covers Arrakeen, Carthag or Arsunt in this position")
    return state


def test_bot_does_not_empty_its_start_city_when_an_enemy_army_stands_within_reach():
    state = _arrakeen_under_threat(6)
    bot = HeuristicBot(seed=2)
    emptying = [a for a in legal_actions(state) if a.kind == "move" and a.area == "arrakeen" and a.regular == 6]
    assert emptying and max(bot.scorer(state, "atreides", a) for a in emptying) < 0  # worse than staying
    action = bot.choose(state)
    assert not (action.kind == "move" and action.area == "arrakeen" and action.regular + action.marked == 6)


def test_bot_keeps_a_small_garrison_whole_rather_than_split_it_for_an_empty_sietch():
    # 10 Harkonnen tokens in Carthag are within reach of Arrakeen (MOVE-4b): 3 tokens stay together there
    # (the bot used to send 1 to Arsunt, leaving 2 to be overrun)
    action = HeuristicBot(seed=2).choose(_arrakeen_under_threat(3))
    assert action in legal_actions(_arrakeen_under_threat(3))
    assert not (action.kind == "move" and action.area == "arrakeen")


def test_garrison_value_grows_with_the_enemy_army_within_reach():
    from dunenb.bots.heuristic import _context, hold_chance

    near = _movement({("atreides", "arrakeen", 1): Tokens(3, 0), ("harkonnen", "carthag", 4): Tokens(12, 0)})
    far = _movement({("atreides", "arrakeen", 1): Tokens(3, 0)})
    assert hold_chance(_context(near, "atreides"), "arrakeen", Tokens(3, 0)) < hold_chance(
        _context(far, "atreides"), "arrakeen", Tokens(3, 0)) == 1.0
    # a single token counts only in part even with no army in sight (MIN_GARRISON)
    assert hold_chance(_context(far, "atreides"), "arrakeen", Tokens(1, 0)) < 1.0


@pytest.mark.parametrize("seed", [1, 2])
def test_bids_leave_spice_to_land(seed):
    for state, action in _decisions(seed, turns=3):
        if action.kind == "bid":
            hs = state.houses[action.house]
            assert action.amount <= min(CARD_MAX_BID, hs.spice - spice_to_keep(state, action.house))
            if action.house != "fremen":  # LAND-1: a group of up to LANDING_GROUP tokens in a city
                assert hs.spice - action.amount >= min(hs.reserve.total, LANDING_GROUP)


def test_first_turn_bid_is_capped_and_keeps_landing_spice():
    state = new_game(["atreides", "harkonnen"], seed=1)
    assert state.houses["atreides"].spice == 10
    assert bid_budget(state, "atreides") == CARD_MAX_BID  # not 7, as before: 4 spice stay to land 4 tokens


# --- storm and worm risk (dunenb.bots.risk) ------------------------------------------------------------------

def _risk_state(*, storm: int = 12, houses=("atreides", "harkonnen")):
    """A 2-House game (no Fremen: two dials 0..3, GAP-7a) with the main storm on ``storm``."""
    return dataclasses.replace(new_game(list(houses), seed=1), storm_main=storm)


def test_storm_hit_probabilities_follow_the_storm_rules():
    state = _risk_state(storm=12)
    hits = storm_hit_probability(state, "atreides")
    assert set(hits) == set(range(1, 25)) and all(0.0 <= p <= 1.0 for p in hits.values())
    # GAP-7a: two dials 0..3 move the storm 0..6 sectors counterclockwise (STORM-18: every sector passed over)
    reachable = {13, 14, 15, 16, 17, 18}
    assert all(hits[s] == 0.0 for s in set(hits) - reachable)
    assert [hits[s] for s in sorted(reachable)] == sorted((hits[s] for s in reachable), reverse=True)
    assert hits[13] == pytest.approx(15 / 16) and hits[18] == pytest.approx(1 / 16)
    assert sum(hits.values()) == pytest.approx(3.0)  # the expected move: 2 x 1.5
    risk = Risk.of(state, "atreides")
    # GAP-9, STORM-7: the Pole, Sietchs, mountains and cities (Shield Wall standing) are spared
    for area, sector in [("pole-nord", 13), ("grotte-aux-oiseaux", 15), ("chaine-de-habbanya", 13),
                         ("mur-sud", 13)]:
        assert risk.loss(area, sector) == 0.0
    assert risk.storm_loss("nord-cielago", 13) == pytest.approx(15 / 16)


def test_storm_reach_with_the_fremen_tokens_and_what_the_fremen_know():
    state = _risk_state(storm=12, houses=("atreides", "fremen"))
    state = dataclasses.replace(state, storm_tokens=FrozenDict({"main": 2}))
    others = storm_hit_probability(view(state, "atreides"), "atreides")
    # FREMEN-P1, GAP-7c: a hidden token 1..7, uniform for the others
    assert others[13] == pytest.approx(1.0) and others[19] == pytest.approx(1 / 7) and others[20] == 0.0
    fremen = storm_hit_probability(view(state, "fremen"), "fremen")
    assert fremen[13] == fremen[14] == 1.0 and fremen[15] == 0.0  # the Fremen know their token


def _landing_state(deposits: dict[str, int], *, tops=(None, None), remaining=None):
    state = _movement({("atreides", "pole-nord", 1): Tokens(3, 0)}, spice=20)
    detail = state.pending.detail.set("landed", False)
    deck = dataclasses.replace(state.spice_deck, pile_tops=tops,
                               remaining=FrozenDict(remaining) if remaining else state.spice_deck.remaining)
    return dataclasses.replace(state, storm_main=12, spice_on_map=FrozenDict(deposits), spice_deck=deck,
                               deck_tops=FrozenDict(),  # a deck of the test's own: no top held apart (ATREIDES-P2 c)
                               pending=dataclasses.replace(state.pending, detail=detail))


def _best_landing(state, area: str) -> float:
    seen = view(state, "atreides")
    return max(_score(seen, "atreides", a) for a in legal_actions(state) if a.kind == "land" and a.area == area)


def test_bot_prefers_a_safe_deposit_to_an_equally_rich_one_in_the_storms_path():
    state = _landing_state({"nord-cielago": 8, "bassin-imperial": 8})  # sectors 13-15 (ahead) and 2-3 (behind)
    assert _best_landing(state, "bassin-imperial") > _best_landing(state, "nord-cielago")
    choice = HeuristicBot(seed=0).choose(state)
    assert choice in legal_actions(state) and not _enters(choice, "nord-cielago")


def test_bot_uses_the_worm_odds_of_the_next_spice_blow():
    # both deposits behind the storm; the next card of pile 1 (on Bassin Impérial) is a worm 5 times in 6
    remaining = {WORM_CARD: 5, "erg-mineur/6": 1}
    state = _landing_state({"erg-mineur": 8, "bassin-imperial": 8}, tops=("bassin-imperial", None),
                           remaining=remaining)
    odds = worm_strike_probability(state)
    table = worm_strike_table(state)
    assert odds == {"bassin-imperial": pytest.approx(5 / 6)}
    assert odds["bassin-imperial"] == pytest.approx(float(table.loc[table["area"] == "bassin-imperial",
                                                                    "p_worm"].iloc[0]))
    assert Risk.of(state, "atreides").loss("bassin-imperial", 2) == pytest.approx(5 / 6)
    assert _best_landing(state, "erg-mineur") > _best_landing(state, "bassin-imperial")


# --- KARAMA-3, KARAMA-45: the heuristic bot adds a Karama on the wheel when a betrayal is likely -------------

def test_karama_3_heuristic_bot_adds_a_karama_on_the_wheel_against_a_likely_harkonnen_betrayal():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from test_rules_battle_phase import position

    from dunenb.bots.battle_planner import betrayal_odds, plan_values
    from dunenb.rules.battle_phase import SubmitPlan

    slips = tuple(("atreides", lid) for lid in ("gurney", "duncan-idaho", "ghanima", "leto-ii", "jessica", "alia",
                                                "tufir", "leto-i", "yueh"))  # 9 of the 12 who may be drawn
    state = position(["atreides", "harkonnen"], [("atreides", "arsunt", 5, 4), ("harkonnen", "arsunt", 5, 4)],
                     hands={"atreides": ("karama",)}, traitors={"harkonnen": slips}, begin=False)
    # HARKONNEN-M3: with his minions alive Vladimir counts 10 and Duncan loses whether betrayed or not; in the
    # tanks, Vladimir counts 4 and the betrayal is what decides (the planner reads leader.value)
    hk = state.houses["harkonnen"]
    minions = ("iakin-nefud", "iliako", "yhekem")
    state = dataclasses.replace(state, houses=state.houses.set("harkonnen", dataclasses.replace(
        hk, leaders=tuple(x for x in hk.leaders if x not in minions), leader_tanks=hk.leader_tanks + minions)))
    from helpers_game import skip_pre_battle

    from dunenb.rules.battle_phase import begin_phase

    state = skip_pre_battle(begin_phase(state))
    if state.pending.actor != "atreides":
        state = apply_action(state, legal_actions(state)[0])
    assert betrayal_odds(view(state, "atreides"), "atreides", "harkonnen", "duncan-idaho") > 0.5
    plain, guarded = (SubmitPlan("atreides", "duncan-idaho", 2, 0, 0, karama=k) for k in ("none", "karama"))
    assert plan_values(state, [plain, guarded]) == sorted(plan_values(state, [plain, guarded]))
    assert plan_values(state, [guarded])[0] > plan_values(state, [plain])[0]
    choice = HeuristicBot(seed=3).choose(state)
    assert choice.karama == "karama" or state.houses["atreides"].leaders and choice.leader == "paul"


def test_card_atomics_4_outlaw_the_heuristic_bot_goes_for_the_outlaws_settlements():
    from helpers_game import quiet_setup

    from dunenb.bots.heuristic import _threats

    state = quiet_setup(["atreides", "harkonnen", "emperor"])
    held = {a for (h, a, _s) in state.forces if h == "harkonnen"} & {"carthag", "arrakeen", "arsunt"}
    outlawed = dataclasses.replace(state, outlawed=("harkonnen",))
    assert held and held <= _threats(outlawed, "atreides")
    assert not (held & _threats(state, "atreides"))


# --- the new actions (issue 9 items 5 and 10: harvesters at any time, the ghola, the Hajj; GAP-57) -----------

def test_random_play_reaches_every_new_action_kind():
    """Over seeded random-bot games, each new kind is played: harvesters bought and sold outside the movement
    slot (HARVEST-3/4 at any time), the ghola (CARD-GHOLA-1) and the Hajj (CARD-HAJJ-2)."""
    houses = ["atreides", "harkonnen", "emperor", "guild", "bene-tleilax"]
    seen: set[tuple[str, bool]] = set()
    for seed in range(6):
        state = new_game(houses, seed=seed, turn_limit=6)
        bots = {h: RandomBot(seed=seed * 10 + k) for k, h in enumerate(houses)}
        while state.pending is not None:
            actor = current_player(state)
            action = sample_chance(state) if actor == CHANCE else bots[actor].choose(state)
            seen.add((action.kind, state.phase == "movement"))
            state = apply_action(state, action)
    assert {("buy-harvester", False), ("sell-harvester", False), ("ghola", False), ("hajj", True)} <= seen


def _with_ghola(state, house: str, *, spice: int, dead_leaders: tuple[str, ...] = (), dead_tokens: int = 0):
    hs = state.houses[house]
    tokens = Tokens(min(dead_tokens, hs.reserve.regular), 0)
    hs = dataclasses.replace(hs, hand=("ghola",), spice=spice, leaders=tuple(k for k in hs.leaders if k not in
                                                                             dead_leaders),
                             leader_tanks=dead_leaders, reserve=hs.reserve - tokens, tanks=hs.tanks + tokens)
    return dataclasses.replace(state, houses=state.houses.set(house, hs))


def test_heuristic_bot_plays_the_ghola_for_a_leader_when_few_are_left():
    state = _decision_state("bid")
    house = state.pending.actor
    leaders = state.houses[house].leaders
    from dunenb.rules.traitors import leader_of

    secondaries = tuple(k for k in leaders if not leader_of(house, k).main)
    strongest = max(secondaries, key=lambda k: leader_of(house, k).strength)
    few = _with_ghola(state, house, spice=20, dead_leaders=secondaries)  # only the main leader lives
    action = HeuristicBot(seed=0).choose(few)
    assert action.kind == "ghola" and action.leader == strongest and action in legal_actions(few)
    many = _with_ghola(state, house, spice=20, dead_leaders=(strongest,))  # the others still live
    assert HeuristicBot(seed=0).choose(many).kind != "ghola"
    poor = _with_ghola(state, house, spice=leader_of(house, strongest).strength, dead_leaders=secondaries)
    assert HeuristicBot(seed=0).choose(poor).kind != "ghola"  # it keeps spice to land (RESERVE_SPICE)


def test_heuristic_bot_plays_the_ghola_for_many_tokens_when_its_reserve_is_low():
    state = _decision_state("bid")
    house = state.pending.actor
    hs = state.houses[house]
    low = _with_ghola(state, house, spice=15, dead_tokens=hs.reserve.total)
    action = HeuristicBot(seed=0).choose(low)
    assert action.kind == "ghola" and action.regular + action.marked == hs.reserve.total
    few = _with_ghola(state, house, spice=15, dead_tokens=1)
    assert HeuristicBot(seed=0).choose(few).kind != "ghola"  # one token is not worth the card


def test_heuristic_bot_trades_harvesters_only_in_its_movement_slot():
    state = _decision_state("bid")
    house = state.pending.actor
    hs = dataclasses.replace(state.houses[house], spice=40, harvesters=0)
    rich = dataclasses.replace(state, houses=state.houses.set(house, hs))
    assert "buy-harvester" in {a.kind for a in legal_actions(rich)}
    assert HeuristicBot(seed=0).choose(rich).kind in ("bid", "pass")


def test_heuristic_bot_plays_the_hajj_when_a_second_landing_or_move_is_possible():
    state = _movement({("atreides", "pole-nord", 1): Tokens(3, 0)}, spice=10)
    state = dataclasses.replace(state, pending=dataclasses.replace(state.pending, detail=state.pending.detail.updated(
        {"landed": 1, "moved": 1})))  # CARD-HAJJ-2: the slot's landing and move are used up
    hs = state.houses["atreides"]
    state = dataclasses.replace(state, houses=state.houses.set("atreides", dataclasses.replace(hs, hand=("hajj",))))
    action = HeuristicBot(seed=0).choose(state)
    assert action.kind == "hajj" and action in legal_actions(state)
    after = apply_action(state, action)
    assert any(a.kind in ("land", "move") for a in legal_actions(after))


# --- BG-M1: the heuristic bot asks its free truth trances before a battle plan, and plans with the answer -------

def _bg_battle(traitors):
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from test_rules_battle_phase import position

    state = position(["bene-gesserit", "harkonnen"], [("bene-gesserit", "arsunt", 5, 4),
                                                      ("harkonnen", "arsunt", 5, 4)],
                     traitors={"harkonnen": traitors})
    while state.pending.kind != "battle-plan" or state.pending.actor != "bene-gesserit":
        state = apply_action(state, make_bot("heuristic", seed=1).choose(state))
    return state


def test_bg_m1_heuristic_bot_asks_a_free_trance_about_its_strongest_doubtful_leader_then_avoids_a_traitor():
    from dunenb.bots.battle_planner import betrayal_odds, trance_to_ask
    from dunenb.rules.traitors import leader_of
    from dunenb.rules.truth_trance import AskTruthTrance

    bg = "bene-gesserit"
    strongest = max((lid for lid in _bg_battle(()).houses[bg].leaders if not leader_of(bg, lid).main),
                    key=lambda lid: (leader_of(bg, lid).strength, lid))
    state = _bg_battle(((bg, strongest),))  # the Harkonnen hold her as a traitor
    bot = make_bot("heuristic", seed=1)
    asked = bot.choose(state)
    assert isinstance(asked, AskTruthTrance) and asked.means == "BG-M1" and asked.question == "traitor-is"
    assert (asked.target, asked.subject) == ("harkonnen", strongest)
    assert trance_to_ask(state, bg, legal_actions(state)) == asked
    state = apply_action(state, asked)
    while state.pending.kind != "battle-plan" or state.pending.actor != bg:  # the KARAMA-31 window, then the answer
        state = apply_action(state, sample_chance(state) if current_player(state) == CHANCE else bot.choose(state))
    assert state.houses[bg].trance_answers[-1][2:] == ("traitor-is", strongest, True)
    assert betrayal_odds(view(state, bg), bg, "harkonnen", strongest) == 1.0
    chosen = bot.choose(state)
    assert not isinstance(chosen, AskTruthTrance) or chosen.subject != strongest  # never the same question twice
    while isinstance(chosen, AskTruthTrance):  # a second free trance about another leader, then the plan
        state = apply_action(state, chosen)
        while state.pending.kind != "battle-plan" or state.pending.actor != bg:
            state = apply_action(state, sample_chance(state) if current_player(state) == CHANCE else bot.choose(state))
        chosen = bot.choose(state)
    assert chosen.kind == "plan" and chosen.leader != strongest  # she would betray: another leader leads
