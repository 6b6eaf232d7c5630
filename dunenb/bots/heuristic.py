"""A heuristic bot (issue 4): it bids within its means (keeping spice to land a group, and to revive when its
reserve is low), revives before it lands (REVIVAL-1, GAP-25a) only when its reserve runs low or it is rich enough
to land afterwards, lands and moves towards cities, Sietchs and spice, keeps a garrison in the settlements it
holds, harvests, calls its traitors, and goes for the settlements of a House that is close to victory: above all,
of a House that may reach the victory target at the end of this turn (VICTORY-1; :mod:`dunenb.bots.race`, GAP-140).

Landings and moves are scored by :func:`site_value`, the value of having an army in a territory: holding a
settlement, harvesting, or, where another army stands, the expected result of the battle (the chance of winning,
from both armies' potential on the wheel and the leader still free to lead there, times the prize, against the
whole army lost, BATTLE-11), so the bot does not walk into hopeless fights and pulls out of them. A settlement
the House holds alone is worth its victory and tax value (VICTORY-1, TAX-1) times the chance to keep it: against
the strongest other army that could reach it next turn (MOVE-4b; the same battle guess), and only in part below a
garrison of ``MIN_GARRISON`` tokens; so the bot does not strip a city for a small harvest. Tokens on Dune count
for the House as a whole too (``PRESENCE_VALUE``): a reserve that never lands is worth nothing. Tokens left
until the next turn where its storm or a worm may strike (STORM-10, HARVEST-9, SPICE-8) cost their expected loss
(:func:`exposure`: tokens, and the harvester the House would commit, times the chance of a strike, from
:mod:`dunenb.bots.risk`); a harvester is committed only where its harvest outweighs that risk. Battle plans
are the best expected value against a distribution of opposing plans (:mod:`dunenb.bots.battle_planner`).
It plays the ghola card (CARD-GHOLA-1, at any time) when a dead leader is needed (fewer than two secondary
leaders alive) or when its reserve runs low and the tanks hold enough tokens to beat the 3 a turn of REVIVAL-1,
keeping spice to land and the card's own worth (a Karama for the Tleilax, TLEILAX-P4) in mind; it plays the Hajj
(CARD-HAJJ-2) in its slot when a second landing or move is possible. It buys and sells harvesters in its movement
slot only, as before HARVEST-3/4 were offered at any time (GAP-57). Alliance offers: it makes none; it accepts a
deal when what it receives (spice, a card, a leader, tokens, a lent power; a deferred term at half value,
ALLIANCE-4 may break it) is worth more than what it gives back and it keeps spice for its revival; it declines
anything it cannot read. In the storm phase it plays weather control (+1, +2 or stop) and Atomics on the Shield
Wall when the storm then harms the other Houses more than its own (:mod:`dunenb.bots.storm_cards`).

Every choice is one of ``legal_actions(state)``: the bot scores them and takes the best (ties broken by its
seeded generator), so it can never play an illegal move.

>>> from dunenb.engine import new_game, play_until_decision
>>> state = play_until_decision(new_game(["atreides", "harkonnen"], seed=4))
>>> HeuristicBot(seed=1).choose(state).kind
'start'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

from dunenb.actions import Action
from dunenb.board import load_board
from dunenb.bots import battle_powers_choice, leader_deals_choice
from dunenb.bots.battle_planner import TAX_SETTLEMENTS
from dunenb.bots.pre_battle_choice import score_answer, score_commit, score_disclose, score_prescience, score_voice
from dunenb.bots.race import block_values
from dunenb.bots.risk import Risk, risk_key
from dunenb.engine import legal_actions, view
from dunenb.errors import IllegalActionError
from dunenb.rules.alliances import DeclarePeace, DeclareWar
from dunenb.rules.anytime import ANYTIME_KINDS, NONE, PlayGhola, ghola_cost
from dunenb.rules.battle_phase import ChooseBattle, SubmitPlan
from dunenb.rules.bidding import Bid
from dunenb.rules.captive_secrecy import guess
from dunenb.rules.collection import CommitHarvester
from dunenb.rules.movement import Emerge, Land, LandInPeace, Move, Revive, landing_price
from dunenb.seeding import first_integer
from dunenb.state import GameState, Tokens

RESERVE_SPICE = 3  # spice the bot keeps back for landing and revival
SETTLEMENT_VALUE = 7.0  # holding a city or Sietch (VICTORY-1), in tokens (design, tuning)
THREAT_BONUS = 5.0  # taking a settlement from the House closest to victory (or from an outlaw, CARD-ATOMICS-4)
OUTLAW_BONUS = 5.0  # fighting the House outlawed for Atomics first (CARD-ATOMICS-4, GAP-55c; design)
TOKEN_ON_DUNE = 0.2  # a token on Dune rather than in the reserve (per token, up to TOKENS_USEFUL)
TOKENS_USEFUL = 10
SPICE_VALUE = 0.5  # one spice, in tokens
HARVESTER_VALUE = 2.0  # a harvester (bought for 5 spice, sold for 3, HARVEST-3/4), in tokens
DESERT_ARMY_COST = 0.6  # an army in the desert holds no settlement (design tuning; not a risk: see exposure())
PRE_BATTLE_SCORES = {"battle-voice": score_voice, "battle-prescience": score_prescience,  # houses.md G-9
                     "battle-answer": score_answer, "battle-disclose": score_disclose,
                     "battle-commit-leader": score_commit}
FIGHT_COST = 1.5  # a battle risks the leader and the cards (design)
RESERVE_TOKENS = 3  # tokens the bot likes to keep off Dune, ready to land
LANDING_GROUP = 4  # tokens the bot wants to be able to land in a turn: it keeps the spice for them (LAND-1)
MIN_GARRISON = 3  # below this many tokens a held settlement counts only in part (design)
ATTACK_CHANCE = 0.5  # the chance that the strongest army within reach attacks a given settlement (design)
TAX_TURNS = 2  # turns of tax (TAX-1) a held settlement is counted for
PRESENCE_VALUE = 0.6  # a token on Dune, for the House as a whole (up to DUNE_USEFUL tokens), in tokens
DUNE_USEFUL = 12
CARD_MAX_BID = 5  # the most the bot bids for one treachery card (design: a card is worth about 2 tokens)
FREMEN = "fremen"  # LAND-6, FREMEN-P4: the Fremen emerge from the desert for free instead of landing
HARVESTER_TRADES = ("buy-harvester", "sell-harvester")  # HARVEST-3/4: the bot trades in its movement slot only


def landing_keep(state: GameState, house: str) -> int:
    """The spice the House keeps to land a useful group in a city or Sietch (LAND-1: 1 spice a token): up to
    ``LANDING_GROUP`` tokens of its reserve; nothing for the Fremen, who emerge for free (FREMEN-P4).

    >>> from dunenb.engine import new_game
    >>> landing_keep(new_game(["atreides", "fremen"], seed=1), "atreides")
    4
    """
    if house == FREMEN:
        return 0
    return min(state.houses[house].reserve.total, LANDING_GROUP)


def reserve_is_low(state: GameState, house: str) -> bool:
    """REVIVAL-1 pays only when the reserve holds fewer tokens than the bot would land this turn, or when few
    tokens are left outside the tanks."""
    hs = state.houses[house]
    return hs.reserve.total < LANDING_GROUP or 20 - hs.tanks.total < 8


def spice_to_keep(state: GameState, house: str) -> int:
    """What the bot keeps out of an auction (BID-5): the spice to land a group, the spice to revive when its reserve
    is low (REVIVAL-1, 1 a token, up to 3), and at least ``RESERVE_SPICE``."""
    hs = state.houses[house]
    revival = min(hs.tanks.total, 3) if reserve_is_low(state, house) else 0
    return max(RESERVE_SPICE, landing_keep(state, house) + revival)


@lru_cache(maxsize=64)
def _distances(area_id: str) -> dict[str, int]:
    """Territories between ``area_id`` and every other area (board adjacency, storms ignored: they move first)."""
    board = load_board()
    found = {area_id: 0}
    frontier = [area_id]
    while frontier:
        following = []
        for here in frontier:
            for neighbour in board.area(here).adjacent:
                if neighbour not in found:
                    found[neighbour] = found[here] + 1
                    following.append(neighbour)
        frontier = following
    return found


def _settlement_owners(state: GameState) -> dict[str, set[str]]:
    owners: dict[str, set[str]] = {}
    board = load_board()
    for (house, area, _sector) in state.forces:
        if board.area(area).is_settlement:
            owners.setdefault(area, set()).add(house)
    return owners


def _threats(state: GameState, house: str) -> set[str]:
    """Settlements held by another House that holds the most settlements (blocking the leader), and those of an
    outlaw (CARD-ATOMICS-4, GAP-55c: every House turns on the House that used Atomics illegally)."""
    owners = _settlement_owners(state)
    outlaws = {h for h in state.outlawed if h != house and h not in state.eliminated}
    hunted = {area for area, holders in owners.items() if len(holders) == 1 and holders <= outlaws}
    return hunted | _leader_threats(state, house, owners)


def _leader_threats(state: GameState, house: str, owners: dict) -> set[str]:
    counts: dict[str, int] = {}
    for holders in owners.values():
        if len(holders) == 1:
            (holder,) = holders
            counts[holder] = counts.get(holder, 0) + 1
    rivals = {h: c for h, c in counts.items() if h != house}
    if not rivals:
        return set()
    leader = max(rivals, key=lambda h: rivals[h])
    if rivals[leader] < 2:
        return set()
    return {area for area, holders in owners.items() if holders == {leader}}


@lru_cache(maxsize=4096)
def _leader_strengths(house: str, leaders: tuple[str, ...]) -> tuple[tuple[int, ...], int]:
    """The strengths of the House's secondary leaders, strongest first, and its main leader's (0 if dead)."""
    from dunenb.rules.traitors import leader_of

    found = [leader_of(house, lid) for lid in leaders]
    others = tuple(sorted((leader.strength for leader in found if not leader.main), reverse=True))
    return others, max((leader.strength for leader in found if leader.main), default=0)


def leader_for_fight(state: GameState, house: str, rank: int = 0) -> float:
    """The leader strength the House can put on the wheel of its ``rank``-th battle of the turn (0: the first):
    a secondary leader leads in one territory only (BATTLE-15), the main leader in several (BATTLE-16) but his
    death eliminates the House (VICTORY-2), so he counts for half.

    >>> from dunenb.engine import new_game
    >>> leader_for_fight(new_game(["atreides", "harkonnen"], seed=1), "atreides")
    7
    """
    others, main = _leader_strengths(house, state.houses[house].leaders)
    return others[rank] if rank < len(others) else 0.5 * main


def army_potential(state: GameState, house: str, tokens: Tokens, rank: int = 0) -> float:
    """What an army could show on a wheel at most: every token dialled (WHEEL-2), spice on up to one per token
    (GAP-42, WHEEL-3), plus the leader of its ``rank``-th battle (BATTLE-5, :func:`leader_for_fight`).

    >>> from dunenb.engine import new_game
    >>> army_potential(new_game(["atreides", "harkonnen"], seed=1), "harkonnen", Tokens(4, 0))
    10.0
    """
    boost = min(state.houses[house].spice, tokens.total)
    spice_on_marked = min(boost, tokens.marked)
    army = tokens.marked + 0.5 * tokens.regular + spice_on_marked + 0.5 * (boost - spice_on_marked)
    return army + leader_for_fight(state, house, rank)


def win_chance(mine: float, theirs: float) -> float:
    """A smooth guess of the chance to win a battle from the two armies' potentials (cards are hidden).

    >>> round(win_chance(10, 10), 2), win_chance(20, 5) > 0.95, win_chance(3, 12) < 0.05
    (0.5, True, True)
    """
    return 1.0 / (1.0 + math.exp(-(mine - theirs) / 2.0))


@dataclass
class _Context:
    """What the bot looks up many times while scoring one decision's menu (built once per state)."""

    state: GameState
    house: str
    storms: frozenset[int]
    present: dict[str, dict[str, Tokens]]
    threats: set[str]
    held: int  # settlements where the House stands alone
    fights: frozenset[str]  # territories where the House already faces another army
    blocks: dict[str, float] = field(default_factory=dict)  # GAP-140: settlements to take from a House about to win
    values: dict[tuple[str, int, int], float] = field(default_factory=dict)  # site_value memo
    threats_near: dict[str, float] = field(default_factory=dict)  # threat memo
    # issue 14 item 4: per-decision memos of loss() and on_dune() (the same for every candidate action)
    losses: dict[tuple[str, int], float] = field(default_factory=dict)
    prices: dict[tuple[str, int, bool], int] = field(default_factory=dict)  # landing_price memo
    enemies: dict[str, float] = field(default_factory=dict)  # enemy_potential memo
    potentials: dict[tuple[int, int, int], float] = field(default_factory=dict)  # own army_potential memo
    sites: dict[str, tuple[str, float, float, int, float, float, float, int]] = field(
        default_factory=dict)  # _site_facts memo
    # issue 14 item 4: the parts of a move's score read from its origin army and from its destination (see
    # _score_move), and the sector-free part of a landing's score (see _score_land), once per decision
    leaving: dict[tuple[str, int, int, int], tuple[float, float]] = field(default_factory=dict)
    arrivals: dict[tuple[str, int, int], tuple[float, float]] = field(default_factory=dict)
    landings: dict[tuple[str, str, int, int], tuple[float, float, float, float, float, float] | None] = field(
        default_factory=dict)
    _on_dune: int | None = None
    _risk: Risk | None = None

    @property
    def risk(self) -> Risk:
        """The next storm's and worm's odds (:mod:`dunenb.bots.risk`), computed on first use."""
        if self._risk is None:
            self._risk = _risk_of(self.state, self.house)
        return self._risk

    def loss(self, area_id: str, sector: int) -> float:
        """P(tokens left at (``area_id``, ``sector``) until the next turn are destroyed by its storm or worm)."""
        key = (area_id, sector)
        found = self.losses.get(key)
        if found is None:
            found = self.losses[key] = self.risk.loss(area_id, sector)
        return found

    def on_dune(self) -> int:
        """The House's tokens on Dune."""
        if self._on_dune is None:
            self._on_dune = sum(houses.get(self.house, Tokens()).total for houses in self.present.values())
        return self._on_dune

    def threat(self, area_id: str) -> float:
        """The strongest army of another House (not there yet) that could move into ``area_id`` next turn:
        3 territories with ornithopters, else 1 (MOVE-4b, GAP-21)."""
        if area_id not in self.threats_near:
            distance = _distances(area_id)
            best = 0.0
            for area, potential, reach in self.rivals:
                if area != area_id and distance.get(area, 99) <= reach:
                    best = max(best, potential)
            self.threats_near[area_id] = best
        return self.threats_near[area_id]

    @cached_property
    def rivals(self) -> tuple[tuple[str, float, int], ...]:
        """(area, army potential, reach) of every army of another House still in play: the reach is 3 territories
        with ornithopters, else 1 (MOVE-4b, GAP-21). Issue 14 item 4: once per decision, for :meth:`threat`."""
        board = load_board()
        ornithopters = {h for area, houses in self.present.items() if board.area(area).is_settlement for h in houses}
        return tuple((area, army_potential(self.state, h, tokens), 3 if h in ornithopters else 1)
                     for area, houses in self.present.items() for h, tokens in houses.items()
                     if h != self.house and h not in self.state.eliminated)

    def mine(self, area: str) -> Tokens:
        return self.present.get(area, {}).get(self.house, _NO_TOKENS)

    def potential(self, tokens: Tokens, rank: int = 0) -> float:
        """:func:`army_potential` of the House's ``tokens`` (issue 14 item 4: once per size and rank and decision)."""
        return self.potential_of(tokens.regular, tokens.marked, rank)

    def potential_of(self, regular: int, marked: int, rank: int = 0) -> float:
        """:meth:`potential` of ``regular`` and ``marked`` tokens (a ``Tokens`` built only the first time)."""
        key = (regular, marked, rank)
        found = self.potentials.get(key)
        if found is None:
            found = self.potentials[key] = army_potential(self.state, self.house, Tokens(regular, marked), rank)
        return found

    def enemy_potential(self, area: str) -> float:
        """The strongest other army there (0 if none)."""
        found = self.enemies.get(area)
        if found is None:  # issue 14 item 4: once per area and decision
            others = [army_potential(self.state, h, t) for h, t in self.present.get(area, {}).items()
                      if h != self.house and h not in self.state.eliminated and (h, area) not in self.state.at_peace]
            found = self.enemies[area] = max(others, default=0.0)
        return found


_NO_TOKENS = Tokens()
_LAST_CONTEXT: list[_Context | None] = [None]


_RISKS: dict[tuple, Risk] = {}  # Risk.of memo (see _risk_of)


def _risk_of(state: GameState, house: str) -> Risk:
    """:meth:`Risk.of`, cached on what it reads (:func:`dunenb.bots.risk.risk_key`: the same for all the decisions
    of a movement phase, and for every House that does not see the Fremen's storm tokens)."""
    key = risk_key(state, house)
    if key not in _RISKS:
        if len(_RISKS) >= 64:
            _RISKS.clear()
        _RISKS[key] = Risk.of(state, house)
    return _RISKS[key]


def _context(state: GameState, house: str) -> _Context:
    cached = _LAST_CONTEXT[0]
    if cached is not None and cached.state is state and cached.house == house:
        return cached
    present: dict[str, dict[str, Tokens]] = {}
    for (h, area, _sector), tokens in state.forces.items():
        here = present.setdefault(area, {})
        here[h] = here.get(h, Tokens()) + tokens
    board = load_board()
    held = sum(1 for area, houses in present.items() if board.area(area).is_settlement and set(houses) == {house})
    fights = frozenset(area for area, houses in present.items()
                       if house in houses and len(houses) > 1 and board.area(area).kind != "pole")
    context = _Context(state, house, frozenset(state.storm_sectors()), present, _threats(state, house), held,
                       fights, block_values(state, house))
    _LAST_CONTEXT[0] = context
    return context


def site_value(context: _Context, area_id: str, tokens: Tokens) -> float:
    """What having ``tokens`` of the House in ``area_id`` is worth, in tokens: holding a settlement, harvesting
    spice, the expected result of the battle against the strongest other army there (win: the prize minus what
    is dialled; lose: the whole army, BATTLE-11). Zero for no tokens."""
    return _site_value_of(context, area_id, tokens.regular, tokens.marked)


def _site_value_of(context: _Context, area_id: str, regular: int, marked: int) -> float:
    """:func:`site_value` of ``regular`` and ``marked`` tokens (issue 14 item 4: the movement scores read it
    without building a ``Tokens`` for each army size; a frozen dataclass is slow to build), memoised."""
    if regular + marked == 0:
        return 0.0
    key = (area_id, regular, marked)
    found = context.values.get(key)
    if found is None:
        found = context.values[key] = _site_value(context, area_id, regular, marked)
    return found


def _site_value(context: _Context, area_id: str, regular: int, marked: int) -> float:
    count = regular + marked
    facts = context.sites.get(area_id)
    if facts is None:
        facts = context.sites[area_id] = _site_facts(context, area_id)
    kind, stake, bonus, spice, rate, enemy, block, rank = facts
    settlement = kind in ("city", "sietch")
    prize = 0.2 * min(count, TOKENS_USEFUL) + (0.1 * min(count, 6) if settlement else 0.0)
    if settlement:
        prize += bonus
    elif kind == "desert":
        prize += SPICE_VALUE * min(spice, count * rate) - DESERT_ARMY_COST  # its risk: exposure(), by sector
    elif kind == "pole":
        prize -= 0.1 * count
    if enemy == 0.0:
        if stake == 0.0:  # issue 14 item 4: 0.0 times the hold chance (in (0, 1]) is 0.0: the same sum, unread
            return prize + 0.0
        return prize + stake * _hold_chance(context, area_id, regular, marked)
    prize += stake + block  # GAP-140: a win there stops a House about to win
    chance = win_chance(context.potential_of(regular, marked, rank), enemy)
    return chance * (prize - 0.35 * count) - (1.0 - chance) * count - FIGHT_COST


def _site_facts(context: _Context, area_id: str) -> tuple[str, float, float, int, float, float, float, int]:
    """What :func:`_site_value` reads of an area whatever the tokens (issue 14 item 4: once per area and decision):
    its kind; for a settlement, the stake (victory, VICTORY-1, and tax, TAX-1) and the bonus for taking it from
    the leader or an outlaw; for a desert, its spice and the harvest rate; the strongest enemy there, the GAP-140
    block value and the rank of this battle among the House's fights (the leaders needed elsewhere, BATTLE-15)."""
    state, house = context.state, context.house
    area = load_board().area(area_id)
    stake, bonus, spice, rate = 0.0, 0.0, 0, 0.0
    if area.is_settlement:
        stake = SETTLEMENT_VALUE + 0.5 * context.held + SPICE_VALUE * TAX_TURNS * TAX_SETTLEMENTS.get(area_id, 0)
        bonus = THREAT_BONUS if area_id in context.threats else 0.0
    elif area.kind == "desert":
        spice = state.spice_on_map.get(area_id, 0)
        rate = 2 if state.houses[house].harvesters else 0.3
    enemy = context.enemy_potential(area_id)
    return (area.kind, stake, bonus, spice, rate, enemy, context.blocks.get(area_id, 0.0),
            len(context.fights - {area_id}))


def hold_chance(context: _Context, area_id: str, tokens: Tokens) -> float:
    """The chance that ``tokens`` alone in a settlement keep it: the strongest army that could reach it
    (:meth:`_Context.threat`) attacks with chance ``ATTACK_CHANCE`` (it moves one army a turn, MOVE-1, and has
    its own places to hold) and wins by the battle guess (:func:`win_chance`); a garrison smaller than
    ``MIN_GARRISON`` counts only in part."""
    return _hold_chance(context, area_id, tokens.regular, tokens.marked)


def _hold_chance(context: _Context, area_id: str, regular: int, marked: int) -> float:
    """:func:`hold_chance` of ``regular`` and ``marked`` tokens (see :func:`_site_value_of`)."""
    share = min(1.0, (regular + marked) / MIN_GARRISON)
    threat = context.threat(area_id)
    if threat == 0.0:
        return share
    lost = 1.0 - win_chance(context.potential_of(regular, marked), threat)
    return share * (1.0 - ATTACK_CHANCE * lost)


def exposure(context: _Context, area_id: str, sector: int, tokens: Tokens, *, harvester: bool = False) -> float:
    """The expected loss, in tokens, of leaving ``tokens`` at (``area_id``, ``sector``) until the next turn's
    storm and spice blow (STORM-10, HARVEST-9, SPICE-8): every token there, and the harvester the House would
    commit with them, times the chance that the storm or a worm strikes there (:mod:`dunenb.bots.risk`)."""
    if tokens.total == 0:
        return 0.0
    chance = context.loss(area_id, sector)
    if chance == 0.0:
        return 0.0
    return chance * (tokens.total + (HARVESTER_VALUE if harvester else 0.0))


def _would_harvest(context: _Context, area_id: str) -> bool:
    """The House has a harvester for this deposit and no army there yet to harvest it with (HARVEST-10)."""
    state = context.state
    return (state.houses[context.house].harvesters > 0 and state.spice_on_map.get(area_id, 0) > 0
            and load_board().area(area_id).kind == "desert" and context.mine(area_id).total == 0)


def _landing_cost_value(state: GameState, house: str, cost: int) -> float:
    left = state.houses[house].spice - cost
    return -SPICE_VALUE * cost - max(0, RESERVE_SPICE - left) * 0.7


def _score_revive(state: GameState, house: str, count: int) -> float:
    """REVIVAL-1 comes before landing (GAP-25a): revive when the reserve is low (:func:`reserve_is_low`), or when
    it still leaves the spice to land a group (:func:`landing_keep`) and some over; otherwise land first, since
    tokens waiting in the reserve do nothing."""
    left = state.houses[house].spice - count
    if left < 0:
        return -5.0
    if reserve_is_low(state, house) or left >= landing_keep(state, house) + RESERVE_SPICE:
        return 40.0 + count
    return -5.0


def _score_land(state: GameState, house: str, action: Land | Emerge) -> float:
    return _land_score(_context(state, house), action)


def _land_score(context: _Context, action: Land | Emerge) -> float:
    """:func:`_score_land` in a decision's context (:func:`_slot_scores` of the one landing)."""
    return _slot_scores(context, (action,), _no_fallback)[0]


def _exposure(context: _Context, area_id: str, sector: int, count: int, at_stake: float) -> float:
    """:func:`exposure` of ``count`` tokens, ``at_stake`` being ``count`` plus the harvester committed with them
    (issue 14 item 4: computed once per decision and destination), the same float."""
    if count == 0:
        return 0.0
    chance = context.losses.get((area_id, sector))
    if chance is None:
        chance = context.loss(area_id, sector)
    if chance == 0.0:
        return 0.0
    return chance * at_stake


def _at_stake(count: int, harvester: bool) -> float:
    """What :func:`exposure` multiplies by the chance of a strike: the tokens and the harvester committed."""
    return count + (HARVESTER_VALUE if harvester else 0.0)


def _landing_parts(context: _Context, action: Land | Emerge) -> tuple[float, float, float, float, float, float] | None:
    """The parts of :func:`_score_land` that do not read the sector: the site gain, what a strike would destroy
    (:func:`_at_stake`), the presence on Dune, the BG-P2 a peace cost, the value of the spice paid and the cost of
    a thin reserve (None: the House cannot pay)."""
    state, house, area = context.state, context.house, action.area
    regular, marked = action.regular, action.marked
    count = regular + marked  # issue 14 item 4: the tokens as two ints, no Tokens built (see _site_value_of)
    here = context.mine(area)
    hs = state.houses[house]
    cost = 0
    if action.kind in ("land", "land-in-peace"):
        first = state.pending is None or state.pending.detail.get("landed", 0) == 0
        key = (area, count, first)  # issue 14 item 4: one price per landing size and area
        if key not in context.prices:
            context.prices[key] = landing_price(state, house, area, count, first=first)[0]
        cost = context.prices[key]  # GUILD-P2/M1 included
        if hs.spice < cost:
            return None
    gain = (_site_value_of(context, area, here.regular + regular, here.marked + marked)
            - _site_value_of(context, area, here.regular, here.marked))
    on_dune = context.on_dune()
    presence = PRESENCE_VALUE * (min(on_dune + count, DUNE_USEFUL) - min(on_dune, DUNE_USEFUL))
    left_in_reserve = hs.reserve.total - count
    peace = -1.0 if action.kind == "land-in-peace" else 0.0  # BG-P2 a: safe, but owns and harvests nothing
    return (gain, _at_stake(count, _would_harvest(context, area)), presence, peace,
            _landing_cost_value(state, house, cost), 0.2 * max(0, RESERVE_TOKENS - left_in_reserve))


_STORM_SAFE = ("pole", "sietch")  # MOVE-7, STORM-8: a group may pass a storm sector there


@lru_cache(maxsize=1)
def _area_kinds() -> dict[str, str]:
    """Each area's kind (the shipped board is immutable): issue 14 item 4, read for every step of every move."""
    return {area.id: area.kind for area in load_board().areas}


def _score_move(state: GameState, house: str, action: Move) -> float:
    return _move_score(_context(state, house), action)


def _move_score(context: _Context, action: Move) -> float:
    """:func:`_score_move` in a decision's context (:func:`_slot_scores` of the one move)."""
    return _slot_scores(context, (action,), _no_fallback)[0]


def _no_fallback(action: Action) -> float:
    raise TypeError(f"not a landing or a move: {action!r}")


_LANDINGS = frozenset({Land, LandInPeace, Emerge})  # the types _land_score scores (LandInPeace is a Land)


def _slot_scores(context: _Context, actions: Sequence[Action], other: Callable[[Action], float]) -> list[float]:
    """The scores of a movement menu's ``actions`` in a decision's context: :func:`_move_score` of a ``Move``,
    :func:`_land_score` of a ``Land``, ``LandInPeace`` or ``Emerge``, ``other(action)`` of any other action.

    Issue 14 item 4: a movement menu lists ~130 moves and ~55 landings, each scored from parts kept per decision
    (below); this one loop reads them for every action without two or three calls per action. Each score is the
    same floats added in the same order as before:

    * a move: what the origin loses (site value, exposure left behind) reads only the origin army and the tokens
      moved, what the destination gains only the destination and the tokens moved (``context.leaving`` and
      ``context.arrivals``); its score is ``leave + arrive - (arrival exposure - left exposure) - 0.3`` (a move
      that gains nothing is not worth it), -100 through a storm outside the Pole and Sietchs (MOVE-7, STORM-8);
    * a landing: everything but the exposure reads the landing's kind, area and tokens only, not its sector
      (:func:`_landing_parts`, ``context.landings``); -100 in a storm sector but at the Pole (LAND-5, STORM-8),
      -10 without the spice to pay for it.

    The exposure is :func:`_exposure` (0 for no tokens or no chance of a strike).
    """
    storms, kinds = context.storms, _area_kinds()
    leaving_memo, arrivals_memo, landings, losses = context.leaving, context.arrivals, context.landings, context.losses
    scores: list[float] = []
    append = scores.append
    for action in actions:
        kind = type(action)
        if kind is Move:
            move: Move = action  # type: ignore[assignment]
            path = move.path
            for a, s in path:
                if s in storms and kinds[a] not in _STORM_SAFE:
                    append(-100.0)  # MOVE-7, STORM-8
                    break
            else:
                destination, sector = path[-1]
                regular, marked = move.regular, move.marked
                key = (move.area, move.sector, regular, marked)
                leaving = leaving_memo.get(key)
                if leaving is None:  # issue 14 item 4: the tokens as ints, no Tokens built (see _site_value_of)
                    origin = context.mine(move.area)
                    leaving = leaving_memo[key] = (
                        _site_value_of(context, move.area, origin.regular - regular, origin.marked - marked)
                        - _site_value_of(context, move.area, origin.regular, origin.marked),
                        _exposure(context, move.area, move.sector, regular + marked, _at_stake(regular + marked,
                                                                                                False)))
                arriving = arrivals_memo.get((destination, regular, marked))
                if arriving is None:
                    there = context.mine(destination)
                    arriving = arrivals_memo[(destination, regular, marked)] = (
                        _site_value_of(context, destination, there.regular + regular, there.marked + marked)
                        - _site_value_of(context, destination, there.regular, there.marked),
                        _at_stake(regular + marked, _would_harvest(context, destination)))
                leave, left_exposure = leaving
                arrive, at_stake = arriving
                # the exposure at the destination (:func:`_exposure`, inline: issue 14 item 4, once per move)
                if regular + marked == 0:
                    arrival_exposure = 0.0
                else:
                    chance = losses.get((destination, sector))
                    if chance is None:
                        chance = context.loss(destination, sector)
                    arrival_exposure = 0.0 if chance == 0.0 else chance * at_stake
                append(leave + arrive - (arrival_exposure - left_exposure) - 0.3)
        elif kind in _LANDINGS:
            land: Land | Emerge = action  # type: ignore[assignment]
            area, sector = land.area, land.sector
            if sector in storms and kinds[area] != "pole":
                append(-100.0)  # LAND-5, STORM-8
                continue
            regular, marked = land.regular, land.marked
            key2 = (land.kind, area, regular, marked)
            parts = landings.get(key2, _UNSEEN)
            if parts is _UNSEEN:
                parts = landings[key2] = _landing_parts(context, land)
            if parts is None:
                append(-10.0)  # not the spice to pay for it
                continue
            gain, at_stake, presence, peace, cost_value, reserve_cost = parts  # type: ignore[misc]
            gain -= _exposure(context, area, sector, regular + marked, at_stake)
            append(gain + presence + peace + cost_value - reserve_cost)
        else:
            append(other(action))
    return scores


_UNSEEN: Any = object()  # no landing parts kept yet (None: the House cannot pay)


def _score_slot(state: GameState, house: str, action: Action) -> float:
    hs = state.houses[house]
    if isinstance(action, Revive):
        return _score_revive(state, house, action.regular + action.marked)
    if isinstance(action, (Land, Emerge)):  # LandInPeace (BG-P2 a) is a Land
        return _score_land(state, house, action)
    if isinstance(action, Move):
        return _score_move(state, house, action)
    if action.kind == "buy-harvester":
        # HARVEST-3: only with the spice to land a group left over
        return 2.0 if hs.harvesters == 0 and hs.spice >= 5 + spice_to_keep(state, house) else -3.0
    if action.kind == "sell-harvester":
        return -3.0
    if action.kind == "reposition":
        return -1.0
    if action.kind == "hajj":  # CARD-HAJJ-2: worth playing while there is something to land or to move
        can_land = hs.reserve.total > 0 and hs.spice >= 2
        return 0.5 if can_land or any(h == house for (h, _a, _s) in state.forces) else -1.0
    return 0.0  # end-slot


def _score_commit(state: GameState, house: str, action: CommitHarvester) -> float:
    """HARVEST-10: commit a harvester where the spice it brings in at step j) (HARVEST-7: 3 a token with
    ornithopters, else 1) is worth more than the chance to lose it to the next storm or worm (STORM-10,
    HARVEST-9); declining (``harvest-done``) scores 0."""
    from dunenb.rules.collection import has_ornithopters

    context = _context(state, house)
    rate = 3 if has_ornithopters(state, house) else 1
    workforce = sum(t.total for (h, a, _s), t in state.forces.items() if h == house and a == action.area)
    harvest = min(state.spice_on_map.get(action.area, 0), rate * workforce)
    return 0.5 + SPICE_VALUE * harvest - context.loss(action.area, action.sector) * HARVESTER_VALUE


def _score_war(state: GameState, house: str, action: DeclarePeace | DeclareWar) -> float:
    """BG-P3: fight only where the expected battle beats staying at peace (which forgoes the territory)."""
    context = _context(state, house)
    value = site_value(context, action.area, context.mine(action.area))
    return value if action.kind == "war" else 0.0


def _score_battle_choice(state: GameState, house: str, action: ChooseBattle) -> float:
    """BATTLE-3: fight first where the most is at stake, while the best leaders are still free (BATTLE-15)."""
    from dunenb.bots.battle_planner import battle_stakes

    context = _context(state, house)
    hunt = OUTLAW_BONUS if action.opponent in state.outlawed else 0.0  # CARD-ATOMICS-4: fight the outlaw first
    return battle_stakes(state, house, action.territory) + 0.1 * context.mine(action.territory).total + hunt


def _score_discard(action: Action) -> float:
    """BATTLE-10: the winner keeps its good cards and drops only worthless ones."""
    cards = action.card_list() if hasattr(action, "card_list") else ()
    if not cards:
        return 0.5
    return 1.0 if all(card == "worthless" for card in cards) else -2.0 * len(cards)


LEADER_SPICE_PER_STRENGTH = 0.5  # design: the most the bot pays for a leader, per point of strength
TOKEN_SPICE = 1  # design: the most the bot pays for a reserve token


def _goods_value(state: GameState, house: str, what: str, item: str, amount: int) -> float:
    """What goods are worth to ``house``, in spice (rough, explainable figures)."""
    from dunenb.rules.traitors import leader_of

    if what == "spice":
        return float(amount)
    if what == "token":
        return float(amount * TOKEN_SPICE)
    if what == "leader":
        return leader_of(house, item).strength * LEADER_SPICE_PER_STRENGTH * 2
    if what == "card":
        return 3.0 if item != "worthless" else 0.0
    if what == "power":
        return 2.0 * amount  # an income power: roughly 2 spice a turn
    if what == "revival":  # TLEILAX-P5: tokens back without REVIVAL-1's cost and limit, or a leader back
        if item in ("regular", "marked"):
            return float(amount * 2 * TOKEN_SPICE)
        receiver = state.pending.actor if state.pending is not None else house
        return leader_of(receiver, item).strength * LEADER_SPICE_PER_STRENGTH * 2
    return 0.0


def _score_answer(state: GameState) -> float:
    """Accept a deal when what it receives is worth more than what it gives back, it can still pay for its
    revival, and (ALLIANCE-4) a deferred term is not worth much since a new window may break it; decline offers
    it cannot read."""
    assert state.pending is not None
    from dunenb.rules.alliances import pending_offer

    house = state.pending.actor
    try:
        offer = pending_offer(state)
        gained = _goods_value(state, offer.house, offer.what, offer.item, offer.amount)
    except (KeyError, TypeError, ValueError):
        return -1.0
    if offer.delay:
        gained /= 2  # a new alliance window may break the term before it is due (ALLIANCE-4)
    paid = 0.0
    if offer.price:
        try:
            paid = _goods_value(state, house, offer.back_what, offer.back_item, offer.price)
        except (KeyError, TypeError, ValueError):
            return -1.0
        if offer.back_what == "spice" and state.houses[house].spice - offer.price < RESERVE_SPICE:
            return -1.0
    return 2.0 if gained > paid else -1.0


def bid_budget(state: GameState, house: str) -> int:
    """The most the bot bids for one card: what is left after :func:`spice_to_keep` (landing, and revival when
    the reserve is low), less with a fuller hand, and never more than ``CARD_MAX_BID``.

    >>> from dunenb.engine import new_game
    >>> bid_budget(new_game(["atreides", "harkonnen"], seed=1), "atreides")
    5
    """
    hs = state.houses[house]
    return min(CARD_MAX_BID, max(0, hs.spice - spice_to_keep(state, house)) // (1 + len(hs.hand) // 2))


def _score_bid(state: GameState, house: str, action: Action) -> float:
    if isinstance(action, Bid):
        return 1.0 - action.amount / 10 if action.amount <= bid_budget(state, house) else -10.0
    return 0.0


def _score_plan(state: GameState, house: str, action: SubmitPlan) -> float:
    from dunenb.rules.traitors import leader_of

    strength = 0 if action.leader in ("none", "") else leader_of(house, action.leader).strength  # own or "owner:id"
    dial = action.regular * 0.5 + action.marked + min(action.spice, action.regular + action.marked) * 0.5
    cards = (action.weapon not in ("none", "")) * 2.5 + (action.defense not in ("none", "")) * 2.0
    cost = 0.25 * (action.regular + action.marked) + 0.3 * action.spice
    return strength + dial + cards - cost


GHOLA_CARD_VALUE = 1.5  # design: what keeping the ghola card is worth, in tokens (twice that as a Karama)
FEW_LEADERS = 2  # fewer secondary leaders alive than this: a dead one is worth buying back


def _score_ghola(state: GameState, house: str, action: PlayGhola) -> float:
    """CARD-GHOLA-1 when it helps: a dead leader when fewer than ``FEW_LEADERS`` secondary leaders live (his
    strength, at half value otherwise), tokens when the reserve is low (:func:`reserve_is_low`), less the spice
    (keeping :data:`RESERVE_SPICE`) and the card itself (a Karama for the Tleilax, TLEILAX-P4). Positive: play."""
    from dunenb.rules.bidding import karama_cards

    hs = state.houses[house]
    cost = ghola_cost(house, action)
    if hs.spice - cost < RESERVE_SPICE:
        return -1.0
    value = 0.0
    if action.leader != NONE:
        from dunenb.rules.traitors import leader_of

        others, _main = _leader_strengths(house, hs.leaders)
        value += leader_of(house, action.leader).strength * (1.0 if len(others) < FEW_LEADERS else 0.3)
    value += (action.regular + action.marked) * (1.0 if reserve_is_low(state, house) else 0.3)
    card = GHOLA_CARD_VALUE * (2 if "ghola" in karama_cards(state, house) else 1)
    return value - SPICE_VALUE * cost - card


def _score_power(state: GameState, house: str, action: Action) -> float | None:
    """The power decisions of issue 10 (None: not one of them).

    * Karama windows (GAP-63): the bot keeps its Karama for the auction (it passes).
    * GUILD-P3: the Guild waits and plays last, when it has seen every other House's landing and move.
    * FREMEN-P2 b: ride the worm to an empty desert with spice (the worm has just eaten the spice where it struck);
      the whole army rides.
    * EMPEROR-M1: fill the hand while the spice kept back for landing and revival stays.
    * BG-P2 b: an advisor is free presence on Dune (the Pole when nothing else is offered).
    * HARKONNEN-P4, -M1, -M2: capture or kill, a new slip, the buy-off (:mod:`dunenb.bots.battle_powers_choice`).
    """
    kind = action.kind
    if state.pending is not None and state.pending.kind == "karama-window":
        return -1.0 if kind == "use-karama" else 0.0
    if state.pending is not None and state.pending.kind in battle_powers_choice.KINDS:
        return battle_powers_choice.score(state, house, action) or 0.0  # HARKONNEN-P4, -M1, -M2
    if state.pending is not None and state.pending.kind in leader_deals_choice.KINDS:
        return leader_deals_choice.score(state, house, action)  # leaders.md K-16, K-18, K-19
    if kind == "take-slot":
        return -0.5
    if kind == "ride":
        target = action.to_area  # type: ignore[attr-defined]
        others = [h for h in state.houses_in(target) if h != house]
        army = state.forces.get((house, action.area, action.sector), Tokens())  # type: ignore[attr-defined]
        whole = action.regular + action.marked == army.total  # type: ignore[attr-defined]
        value = state.spice_on_map.get(target, 0) * SPICE_VALUE - (FIGHT_COST if others else 0.0)
        return value + (0.1 if whole else 0.0) if value > 0 else -1.0
    if kind == "imperial-fill":
        spare = state.houses[house].spice - spice_to_keep(state, house)
        return 0.5 * action.count if 2 * action.count <= spare else -1.0  # type: ignore[attr-defined]
    if kind == "advisor":
        return 0.2 if action.area == "pole-nord" else 0.3  # type: ignore[attr-defined]
    if kind == "local-storm":
        return _score_local_storm(state, house, action.sector)  # type: ignore[attr-defined]
    if kind == "call-worm":
        return -1.0  # FREMEN-M2: the bot emerges instead (it does not plan worm rides yet)
    if kind == "pole-battle":
        return -1.0  # leaders.md S-9: the bot does not open a battle at the Pole (Lingar is worth 3 there)
    return None


def _score_local_storm(state: GameState, house: str, sector: int) -> float:
    """FREMEN-M1: worth it when the enemy tokens and spice it would destroy outweigh the own half losses."""
    from dunenb.rules.common import is_exposed_to_storm

    board = load_board()
    gain = 0.0
    for (h, area, s), tokens in state.forces.items():
        if s == sector and is_exposed_to_storm(state, area):
            gain += -((tokens.total + 1) // 2) if h == house else tokens.total
    for territory in board.areas_in_sector(sector):
        if territory.spice_sector == sector and is_exposed_to_storm(state, territory.id):
            gain += SPICE_VALUE * state.spice_on_map.get(territory.id, 0) * 0.5  # denied to the others, design
    return gain - 0.5 if gain > 0.5 else -1.0


_POWER_NODES = ("karama-window", *battle_powers_choice.KINDS, *leader_deals_choice.KINDS)  # see _score_power


def _scores(state: GameState, house: str, actions: list[Action]) -> list[float]:
    """``[_score(state, house, a) for a in actions]``, faster for a movement menu (issue 14 item 4): there
    (not one of the power nodes of :func:`_score_power`) :func:`_score` sends a move (``Move``, kind ``move``) to
    :func:`_score_move` and a landing (``Land``, ``LandInPeace``, ``Emerge``) to :func:`_score_land`, which
    this calls directly, in the decision's context."""
    pending = state.pending
    if pending is None or pending.kind in _POWER_NODES:
        return [_score(state, house, a) for a in actions]
    table = _KIND_SCORES  # _score's first read, outside the power nodes
    if pending.kind != "movement":  # the node of the landings and moves (not a power node)
        return [table[a.kind] if a.kind in table else _score(state, house, a) for a in actions]
    return _slot_scores(_context(state, house), actions, lambda action: _score(state, house, action))


_KIND_SCORES = {
    "traitor-call": 10.0,
    "karama-bid": 1.0,
    "pay-bid": 0.5,
    "karama-now": -2.0,  # KARAMA-41: the bot keeps its Karama for the auction and the battles
    "truth-trance": -1.0,  # CARD-TRUTH-1: the bot cannot use an answer yet, so it keeps the card
    "end-window": 1.0,  # GAP-19: the bot makes no offers of its own ...
    "offer": -5.0,
}  # the actions whose score is their kind's, outside the power nodes (_score_power)


def _score(state: GameState, house: str, action: Action) -> float:
    kind = action.kind
    if kind in _KIND_SCORES and (state.pending is None or state.pending.kind not in _POWER_NODES):
        # issue 14 item 4 (a bid menu lists ~75 truth-trance questions, an alliance window ~85 offers): outside
        # the power nodes _score_power scores none of these kinds, and no branch before the table below takes
        # them (other kinds, or PlayGhola, CommitHarvester, SubmitPlan, whose kinds differ), so the table decides
        return _KIND_SCORES[kind]
    power_score = _score_power(state, house, action)
    if power_score is not None:
        return power_score
    if kind in ("bid", "pass") and state.phase == "bidding":
        return _score_bid(state, house, action)
    if kind in ("revive", "land", "land-in-peace", "emerge", "move", "reposition", "buy-harvester", "sell-harvester",
                "hajj",
                "end-slot"):
        return _score_slot(state, house, action)
    if isinstance(action, PlayGhola):
        return _score_ghola(state, house, action)
    if isinstance(action, CommitHarvester):
        return _score_commit(state, house, action)
    if isinstance(action, SubmitPlan):
        return _score_plan(state, house, action)
    if kind in _KIND_SCORES:
        return _KIND_SCORES[kind]
    if kind in ("weather", "atomics") or (kind == "pass" and state.phase == "storm"):
        from dunenb.bots.storm_cards import score_storm_card

        return score_storm_card(state, house, action)  # CARD-WEATHER-2/3, CARD-ATOMICS-2: when it helps
    if kind == "accept-offer":
        return _score_answer(state)  # ... and takes gifts of spice or cards (offer = (..., what, ..., price))
    if isinstance(action, (DeclarePeace, DeclareWar)):
        return _score_war(state, house, action)
    if kind == "battle-discard":
        return _score_discard(action)
    if isinstance(action, ChooseBattle):
        return _score_battle_choice(state, house, action)
    if state.pending is not None and state.pending.kind in PRE_BATTLE_SCORES:  # G-9: BG-P1, ATREIDES-P1
        return PRE_BATTLE_SCORES[state.pending.kind](state, house, action)
    return 0.0


_BID_KINDS = frozenset({"bid", "pass", *_KIND_SCORES})  # see _view_free


def _view_free(state: GameState, actions: list[Action]) -> bool:
    """Whether :func:`_scores` of ``actions`` reads nothing that :func:`dunenb.engine.view` and
    :func:`dunenb.rules.captive_secrecy.guess` change, so that the state itself gives the scores its House's view
    gives (issue 14 item 4: a heuristic-bot game builds ~120 views for Karama windows, ~200 for bids and ~60 for
    alliance windows with more than one action):

    * a Karama window: a power node, where :func:`_score` is :func:`_score_power`'s -1 for a Karama and 0 for any
      other action, by the action's kind alone (the view keeps the node's kind);
    * outside the power nodes, a menu of kinds of ``_KIND_SCORES`` only (an alliance window's offers and its end):
      the table's scores, whatever the state;
    * a bid of the bidding phase whose menu holds only bids, passes and kinds of ``_KIND_SCORES``: the table's
      scores, 0 for a pass (:func:`_score_bid`), and for a bid what :func:`bid_budget` reads, the bidder's own
      spice, reserve, tanks and hand, which the view keeps (its own ``HouseState`` as it is; the view hides the
      other Houses, decks, seeds and the node's secrets, and ``guess`` only changes leaders), and the phase.
    """
    pending = state.pending
    if pending is None:
        return False
    if pending.kind == "karama-window":
        return True
    if pending.kind not in _POWER_NODES and all(a.kind in _KIND_SCORES for a in actions):
        return True
    return pending.kind == "bid" and state.phase == "bidding" and all(a.kind in _BID_KINDS for a in actions)


def _tie_set(scores: list[float]) -> list[int]:
    """The indices of the scores within 1e-9 of the best: issue 14 item 4, in plain Python for these short lists,
    by the same float64 comparisons as ``numpy.flatnonzero(array >= array.max() - 1e-9)`` (each of the bot's own
    scores is a finite float, or a small int, exactly a float64; plan values are finite floats).

    >>> _tie_set([1.0, 3.0, 3.0 - 1e-10, 2.0])
    [1, 2]
    """
    top = max(scores) - 1e-9
    return [index for index, score in enumerate(scores) if score >= top]


@dataclass(frozen=True)
class HeuristicBot:
    """Scores every legal action with simple, explainable heuristics and plays the best one."""

    seed: int = 0
    name: str = "heuristic"
    scorer: Callable[[GameState, str, Action], float] = _score

    def choose(self, state: GameState) -> Action:
        actions = legal_actions(state)
        if not actions:
            raise IllegalActionError("bot/no-action", "the game is over: nothing to choose")
        assert state.pending is not None
        house = state.pending.actor
        if self.scorer is _score:
            # issue 14 item 4: one pass over the menu finds the ghola plays and leaves out the other any-time
            # actions (GAP-57: the harvester trades stay in the movement slot, as before)
            kept: list[Action] = []
            gholas: list[PlayGhola] = []
            trades = state.phase == "movement"
            for a in actions:
                kind = a.kind
                if kind in ANYTIME_KINDS:
                    if type(a) is PlayGhola:
                        gholas.append(a)
                    if not (trades and kind in HARVESTER_TRADES):
                        continue
                kept.append(a)
            ghola = self._ghola(state, house, gholas) if gholas else None
            if ghola is not None:
                return ghola
            actions = kept
        if self.scorer is _score and len(actions) == 1 and actions[0].kind != "plan":
            # issue 14 item 4 (most Karama windows list only the pass once the anytime actions are left out):
            # the one action is the best of one score (never NaN), whatever it is; no view to build
            return actions[0]
        if self.scorer is _score and actions[0].kind == "plan":
            from dunenb.bots.battle_planner import plan_scores, trance_to_ask

            trance = trance_to_ask(state, house, actions)  # BG-M1: ask before planning, then plan with it
            if trance is not None:
                return trance
            # issue 14 item 4: plan values are finite floats, so the tie set of plain Python is numpy's (below)
            return self._pick(state, actions, _tie_set(plan_scores(state, actions)))
        if self.scorer is _score and _view_free(state, actions):
            seen = state  # issue 14 item 4: the same scores as from the view (see _view_free), no view built
        else:
            seen = guess(view(state, house))  # the bot decides from what its House may see (GAP-139: FAQ 17)
        if self.scorer is _score:
            return self._pick(state, actions, _tie_set(_scores(seen, house, actions)))
        import numpy as np  # a caller's scorer may return any number NumPy reads as a float (NaN too)

        scores = np.array([self.scorer(seen, house, a) for a in actions], dtype=float)
        best = np.flatnonzero(scores >= scores.max() - 1e-9)
        return self._pick(state, actions, [int(i) for i in best])

    def _pick(self, state: GameState, actions: list[Action], best: list[int]) -> Action:
        """The action of the tie set ``best`` (indices into ``actions``) the bot's seeded generator draws."""
        if len(best) == 1:  # issue 14 item 4: no tie to break, no generator to build (the draw could only be 0)
            return actions[best[0]]
        # issue 14 item 4: the first draw of the generator seeded with these words, no generator object built
        return actions[best[first_integer((self.seed, state.rng_counter, state.turn, len(state.events)), len(best))]]

    @staticmethod
    def _ghola(state: GameState, house: str, gholas: list[PlayGhola]) -> Action | None:
        """The best of the ghola plays listed (``gholas``, in menu order), if it helps (:func:`_score_ghola` > 0),
        whatever the node (at any time)."""
        if not gholas:
            return None
        seen = guess(view(state, house))  # GAP-139: a hidden captive (FAQ 17) as the view can guess him
        score, index = max((_score_ghola(seen, house, a), -i) for i, a in enumerate(gholas))
        return gholas[-index] if score > 0 else None
