"""TURN-1 i): battles in every territory holding two armies (BATTLE-1 to BATTLE-18, TRAITOR-5 to TRAITOR-12).

The battle library (:mod:`dunenb.battle`) decides each battle; this module runs the phase inside a game:

* **Where** (BATTLE-1, GAP-46): a battle happens wherever tokens of two or more Houses share a territory,
  never at the North Pole (L1655), unless Lingar opens one there (leaders.md S-9,
  :mod:`dunenb.rules.leader_specials`). A storm sector splits a territory (GAP-46, FAQ 5): forces on either side
  of it do not fight, and forces inside a (protected) storm sector fight only forces in that same sector. Each such
  part is an *arena*, named by its territory and first sector. Tokens at peace (``GameState.at_peace``, BG-P3,
  BATTLE-1 L1657) do not fight.
* **Order** (BATTLE-2, BATTLE-3, GAP-34): the first House in storm order still in a battle chooses the territory
  and the opponent (a decision; asked only when it has more than one choice) and is the defender (BATTLE-14).
  It fights until it is in no battle; then the next House. Every battle is compulsory (BATTLE-17).
* **Plans** (BATTLE-5, BATTLE-6, BATTLE-13 a-e, GAP-42, GAP-43): one :class:`SubmitPlan` action per side, the
  defender first. A leader is required while one can lead (BATTLE-5); with none, the side fights at army
  value only and plays no card (GAP-43). A secondary leader who fought in one territory this turn cannot fight
  in another; the main leader may (BATTLE-15, BATTLE-16, :func:`dunenb.battle.order.can_lead`). Dial at most
  1 spice per token (GAP-42), only cards held. The submitted plan sits in the battle context's ``secrets``,
  which :func:`dunenb.engine.view` hides from the other Houses; once both are in, they move to ``plans``
  (revealed).
* **Reveal** (BATTLE-13 f, TRAITOR-8 to TRAITOR-12, GAP-62): both sides are asked, defender first, whether
  they call "Trahison !" (``traitor-call``; a pass first). Only a House holding the opposing leader on a traitor
  slip (or, leaders.md K-21, a Harkonnen facing an ``always_traitor_of`` leader) has the call in its menu; any
  other House may only pass, so that being asked tells nothing (TRAITOR-8: an expert may keep it for later; no
  event says so). Then each d10 the cards need (a shield
  pass, CARD-SHIELD-3, GAP-28) is a chance node of ten faces at 1/10 each, and
  :func:`dunenb.battle.resolve.settle` gives the :class:`~dunenb.battle.resolve.BattleOutcome`.
* **Applying the outcome**: tokens lost go to the tanks (the loser's whole army in the arena, BATTLE-11; the
  winner's dialled tokens, BATTLE-10; tokens are taken marked first, stacks in sector order: design); spice
  dialled goes to the Bank (GAP-42); killed leaders go to ``leader_tanks``; bounties (TRAITOR-10, BATTLE-13 f3:
  to the opponent of each killed leader; none after an explosion, GAP-29b) are paid by the Bank (GAP-35a);
  cards played by the loser go to ``treachery_discard`` (GAP-45: only the cards on the wheel); the winner (or
  the treachery beneficiary, TRAITOR-11) may then discard any of the cards it played (BATTLE-10,
  CARD-WORTHLESS-2), a decision. A lasgun-shield explosion or battle Atomics destroys every token in the
  territory, third Houses' included (CARD-ATOMICS-3, CARD-LASGUN-1); Atomics flag their user as outlawed
  (CARD-ATOMICS-4, GAP-29c). A main leader's death eliminates his House (VICTORY-2, :func:`eliminate`); the battles
  go on without it, and the end of the turn decides whether one House is left (VICTORY-2, collection).
* **After the battles**: the two Houses of the last battle fought dial the storm next turn (GAP-7a).

* **Karama on the wheel** (KARAMA-3, BATTLE-13 e, GAP-55b): a plan may add a Karama (or a card that counts as
  one for its House, BG-P5, TLEILAX-P4) against a House whose battle power has a Karama use
  (``treachery_deck.json`` ``wheel_karama``: the Harkonnen treachery, KARAMA-45). That House's traitor call then
  has no effect in this battle; the Karama is discarded whatever happens (KARAMA-2).

* **Before the plans** (houses.md G-9): the Voice (BG-P1) and prescience (ATREIDES-P1) steps,
  :mod:`dunenb.rules.pre_battle`; the whole battle is carried by one typed
  :class:`~dunenb.rules.battle_context.BattleContext` in the pending node (``detail["battle"]``).

* **Battle-step powers** (:mod:`dunenb.rules.battle_powers`): the battle Karamas when a battle starts
  (KARAMA-37), the buy-off after the calls (HARKONNEN-M2), KARAMA-38 before a regenerating main leader's death
  (TLEILAX-M2), the captives' fate and the capture once a battle is settled (HARKONNEN-P4), a new traitor at the
  end of the step (HARKONNEN-M1). Each battle side carries the facts the resolver's powers need: the House's dead
  leaders (HARKONNEN-M3), the powers it does not hold now (a Karama, G-7) and its regenerations.

Not modelled here: secondary-leader powers (the library uses base strengths).
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Any, ClassVar

from dunenb.actions import Action, Pass, menu_maker
from dunenb.battle import alias
from dunenb.battle.cards import BUILT_IN_WEAPONS, DEFENCES, WEAPONS, wheel_karama_power
from dunenb.battle.leader_traits import may_lead, plan_error, restrictions
from dunenb.battle.leader_weapons import check_slots, karama_substitutes, slot_options
from dunenb.battle.order import defender_of
from dunenb.battle.plans import Battle, BattlePlan, BattleSide
from dunenb.battle.powers import slot_weapon_powers
from dunenb.battle.resolve import D10, BattleOutcome, Fates, leader_step, settle, without_disarmed_attacks
from dunenb.battle.rolls import SHIELD_PASS, purpose_text
from dunenb.battle.roster import Leader
from dunenb.battle.wheel import Dial, army_value
from dunenb.battle.wheel import Tokens as WheelTokens
from dunenb.errors import IllegalActionError
from dunenb.powers import holds_power
from dunenb.powers.holders import acting_main_leader, is_acting_main
from dunenb.powers.karama import lift, suppressed_powers
from dunenb.rules import (
    alliances,
    battle_powers,
    leader_after_battle,
    leader_capture,
    leader_deals,
    leader_inherit,
    leader_karama,
    leader_pre_battle,
    leader_rolls,
    leader_spare,
    leader_specials,
    on_call,
    pre_battle,
)
from dunenb.rules.alliances import end_clauses
from dunenb.rules.battle_context import BattleContext, context_of
from dunenb.rules.bidding import karama_cards
from dunenb.rules.common import (
    Handler,
    Pledge,
    advance_sector,
    double_storm_sietch,
    edit_house,
    event,
    kill_tokens,
    pending,
    rules,
    storm_order,
    uniform,
    with_events,
)
from dunenb.rules.storm import has_fremen
from dunenb.rules.traitors import holder_of, leader_of, leader_ref
from dunenb.state import FrozenDict, GameState, Tokens, evolve

NONE = "none"


# --- actions ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ChooseBattle(Action):
    """BATTLE-3: the House to fight picks a territory (its arena's first sector, GAP-46) and an opponent."""

    kind: ClassVar[str] = "battle"
    house: str
    territory: str
    sector: int
    opponent: str


@dataclass(frozen=True)
class SubmitPlan(Action):
    """BATTLE-13 a-e: one side's hidden wheel: a leader id (or ``none``, GAP-43), unmarked and marked tokens
    dialled, spice given to them (at most 1 per token, GAP-42), an attack card and a defence card (or ``none``),
    and a card added as a Karama (KARAMA-3, BATTLE-13 e, GAP-55b; ``none`` by default, so older saves load).
    ``against`` names the Karama use of that card when it is hidden against a Voice or a prescience answer
    (KARAMA-25, KARAMA-43, KARAMA-40, KARAMA-18: shown at the reveal, GAP-80); ``none``: against the opposing
    treachery (KARAMA-45).
    ``extra_attack`` and ``extra_defense`` fill the slots the leader's powers add (leaders.md K-6 a second attack
    or defence card, K-7 a built-in weapon beside the attack card; ``none`` by default, so older saves load).
    """

    kind: ClassVar[str] = "plan"
    house: str
    leader: str
    regular: int
    marked: int
    spice: int
    weapon: str = NONE
    defense: str = NONE
    karama: str = NONE
    against: str = NONE
    extra_attack: str = NONE
    extra_defense: str = NONE


@dataclass(frozen=True)
class CallTraitor(Action):
    """TRAITOR-8, TRAITOR-9: "Trahison !" on the opposing ``leader``, proved with the slip (``Pass`` declines)."""

    kind: ClassVar[str] = "traitor-call"
    house: str
    leader: str


@dataclass(frozen=True)
class BattleDie(Action):
    """CARD-SHIELD-3, GAP-28b: ``house`` rolls a d10 (1..10) to get past the opposing shield."""

    kind: ClassVar[str] = "battle-d10"
    is_chance: ClassVar[bool] = True
    house: str
    value: int


@dataclass(frozen=True)
class DiscardCards(Action):
    """BATTLE-10, TRAITOR-11, CARD-WORTHLESS-2: the winner discards some of the cards it played: ``none`` or
    card ids joined by commas."""

    kind: ClassVar[str] = "battle-discard"
    house: str
    cards: str = NONE

    def card_list(self) -> tuple[str, ...]:
        return () if self.cards == NONE else tuple(self.cards.split(","))


# --- arenas (BATTLE-1, GAP-46) ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Arena:
    """The part of a territory where a battle is fought: the whole territory unless a storm splits it (GAP-46).
    ``houses`` are the Houses with tokens there, in storm order."""

    area: str
    sectors: tuple[int, ...]
    houses: tuple[str, ...]


def _segments(sectors: tuple[int, ...], storms: set[int]) -> list[tuple[int, ...]]:
    """GAP-46: runs of consecutive sectors free of storm; each storm sector stands alone."""
    segments: list[tuple[int, ...]] = []
    current: list[int] = []
    for sector in sectors:
        if sector in storms:
            if current:
                segments.append(tuple(current))
                current = []
            segments.append((sector,))
            continue
        if current and sector != advance_sector(current[-1], 1):
            segments.append(tuple(current))
            current = []
        current.append(sector)
    if current:
        segments.append(tuple(current))
    return segments


def arenas(state: GameState) -> tuple[Arena, ...]:
    """Every place where a battle must be fought now (BATTLE-1, GAP-46), in board order; never inside a Sietch on
    the double-storm sector (STORM-15, GAP-11)."""
    board = rules().board
    order = storm_order(state)
    storms = set(state.storm_sectors())
    present: dict[str, set[tuple[str, int]]] = {}
    for (house, area, sector), tokens in state.forces.items():
        if tokens.is_empty() or house in state.eliminated or board.area(area).kind == "pole":
            continue  # BATTLE-1: never a battle at the North Pole (L1655)
        if (house, area) in state.at_peace:
            continue  # BATTLE-1 (L1657), BG-P3: an army at peace does not fight
        if double_storm_sietch(state, area, sector):
            continue  # STORM-15, GAP-11: nobody fights inside a Sietch under the double storm
        present.setdefault(area, set()).add((house, sector))
    found = []
    for territory in board.areas:
        if territory.id not in present:
            continue
        for segment in _segments(tuple(territory.sectors), storms):
            houses = {h for h, s in present[territory.id] if s in segment}
            if len(houses) >= 2:
                found.append(Arena(territory.id, segment, tuple(h for h in order if h in houses)))
    return tuple(found)


def arena_tokens(state: GameState, house: str, area: str, sectors: tuple[int, ...]) -> Tokens:
    """All of a House's tokens in an arena: all of them take part (BATTLE-13)."""
    total = Tokens()
    for (h, a, s), tokens in state.forces.items():
        if h == house and a == area and s in sectors:
            total = total + tokens
    return total


#: issue 14 item 4: (id of a state, house, area, committed, pole) -> (that state, its available leaders). A battle
#: node asks for them again and again (its plan menu, the leaders' Voices and trances, the checks); a state is
#: immutable, so the answer for that state object stays true, and the entry holds the state so its id stays its own.
_AVAILABLE: dict[tuple, tuple[GameState, tuple[str, ...]]] = {}
MAX_AVAILABLE = 64


def available_leaders(state: GameState, house: str, area: str, committed: tuple = (), *,
                      pole: bool = True) -> tuple[str, ...]:
    """BATTLE-15, BATTLE-16: the House's living leaders who may lead in ``area`` (main leader first); leaders.md
    K-21 ``one_battle_per_turn`` and K-22 MOBILITY (:func:`dunenb.battle.leader_traits.may_lead`); with ``pole``,
    leaders.md S-9: at the Pole only the leader whose power opened the battle (Lingar)."""
    key = (id(state), house, area, committed, pole)
    found = _AVAILABLE.get(key)
    if found is not None and found[0] is state:
        return found[1]
    leaders = _available_leaders(state, house, area, committed, pole=pole)
    if len(_AVAILABLE) >= MAX_AVAILABLE:
        _AVAILABLE.clear()
    _AVAILABLE[key] = (state, leaders)
    return leaders


def _available_leaders(state: GameState, house: str, area: str, committed: tuple = (), *,
                       pole: bool = True) -> tuple[str, ...]:
    """:func:`available_leaders`, computed."""
    fought: dict[str, list[str]] = {}
    for h, leader, where in committed:
        if h == house:
            fought.setdefault(alias.body(leader), []).append(where)  # leaders.md S-3: Alma fought, X did not
    acting = acting_main_leader(state, house)  # G-7: a successor moves like a main leader (BATTLE-16)
    blocked = suppressed_powers(state)
    found = []
    for lid in state.houses[house].leaders:
        leader = leader_of(house, lid)
        foreign = leader_ref(house, lid) in state.captured  # LC-9: a captive plays without his powers (D-14)
        if may_lead(leader, area, fought.get(lid, ()), is_main=lid == acting or leader.main, foreign=foreign,
                    blocked=blocked):
            found.append(lid)
    # leaders.md S-3 (BG-L01-c): "Alma as X" while Alma may lead here; X living and uncaptured, engaged or not
    free = [lid for lid in state.houses[house].leaders if leader_ref(house, lid) not in state.captured]
    for key in alias.offered(found, free, lambda lid: leader_of(house, lid), blocked):
        if may_lead(leader_of(house, key), area, fought.get(alias.body(key), ()), is_main=False, blocked=blocked):
            found.append(key)
    return leader_specials.pole_leaders(house, area, tuple(found)) if pole else tuple(found)


# --- the phase -------------------------------------------------------------------------------------------

def begin_phase(state: GameState) -> GameState:
    """TURN-1 i): the battle phase; the first House in storm order still in a battle chooses (BATTLE-3)."""
    state = evolve(state, phase="battle")
    board = rules().board
    found = arenas(state)
    text = "; ".join(f"{board.area(a.area).name} ({', '.join(a.houses)})" for a in found) or "none"
    state = with_events(state, event("battle-phase", f"Battles to fight (BATTLE-1): {text}",
                                     arenas=tuple((a.area, a.sectors, a.houses) for a in found)))
    return _next_battle(state, committed=(), last=())


def _choices(state: GameState) -> tuple[str | None, list[tuple[Arena, str]]]:
    found = arenas(state)
    for house in storm_order(state):
        choices = [(arena, other) for arena in found if house in arena.houses
                   for other in arena.houses if other != house]
        if choices:
            return house, choices
    return None, []


def _next_battle(state: GameState, *, committed: tuple, last: tuple, pole_asked: bool = False) -> GameState:
    state = pre_battle.end_of_battle(state)  # the Karama uses that lasted the battle just settled
    offer = None if pole_asked else leader_specials.offer_pole_battle(state, committed, last)  # leaders.md S-9
    if offer is not None:
        return offer
    chooser, choices = _choices(state)
    if chooser is None:
        return _finish(state, last)
    if len(choices) == 1:  # design: a choice with one option is not asked
        arena, opponent = choices[0]
        return _start_battle(state, arena, chooser, opponent, committed=committed, last=last)
    return evolve(state, pending=pending("battle-choice", chooser,
                                                      battle=BattleContext(committed=committed, last=last)))


def _choice_decisions(state: GameState) -> list[Action]:
    house, choices = _choices(state)
    if house is None:  # no battle left: no choice (the phase has ended before this is asked)
        return []
    return [ChooseBattle(house, arena.area, arena.sectors[0], other) for arena, other in choices]


def _apply_choice(state: GameState, action: ChooseBattle) -> GameState:
    _house, choices = _choices(state)
    arena = next(a for a, other in choices
                 if a.area == action.territory and a.sectors[0] == action.sector and other == action.opponent)
    ctx = context_of(state)
    return _start_battle(state, arena, action.house, action.opponent, committed=ctx.committed, last=ctx.last)


def _start_battle(state: GameState, arena: Arena, chooser: str, opponent: str, *, committed: tuple,
                  last: tuple) -> GameState:
    """Open the battle of ``chooser`` against ``opponent`` in ``arena`` (BATTLE-3, BATTLE-14)."""
    defender = defender_of(storm_order(state), chooser, opponent)  # BATTLE-14, GAP-34a: the chooser
    attacker = opponent if defender == chooser else chooser
    name = rules().board.area(arena.area).name
    state = with_events(state, event(
        "battle", f"Battle in {name} (sector {arena.sectors[0]}): {defender} (defender) against {attacker}",
        area=arena.area, sectors=arena.sectors, defender=defender, attacker=attacker))
    ctx = BattleContext(committed=committed, last=last, area=arena.area, sectors=arena.sectors,
                        defender=defender, attacker=attacker)
    return battle_powers.begin_battle(state, ctx)  # KARAMA-47 for captives, then houses.md G-9 (its Karama window)


start_battle = _start_battle  # leaders.md S-9 (dunenb.rules.leader_specials): a battle opened at the Pole


# --- plans -----------------------------------------------------------------------------------------------

def menu_dials(tokens: Tokens, spice: int) -> tuple[tuple[int, int, int], ...]:
    """A representative menu of dials (regular, marked, spice): nothing; about a quarter, a half and three
    quarters of the army, marked tokens first (WHEEL-4); all of it; all of it with as much spice as allowed
    (GAP-42). Any other dial is accepted by the check.

    >>> menu_dials(Tokens(regular=5, marked=1), spice=2)
    ((0, 0, 0), (1, 1, 0), (2, 1, 0), (4, 1, 0), (5, 1, 0), (5, 1, 2))
    """
    total = tokens.total
    dials = [(0, 0, 0)]
    for share in (total + 3) // 4, (total + 1) // 2, (3 * total + 3) // 4:
        marked = min(tokens.marked, share)
        dials.append((share - marked, marked, 0))
    dials += [(tokens.regular, tokens.marked, 0), (tokens.regular, tokens.marked, min(spice, total))]
    return tuple(dict.fromkeys(dials))


def _plan_context(state: GameState, house: str) -> tuple[Tokens, tuple[str, ...]]:
    ctx = context_of(state)
    tokens = arena_tokens(state, house, ctx.area, ctx.sectors)
    return tokens, available_leaders(state, house, ctx.area, ctx.committed)


_menu_plan = menu_maker(SubmitPlan)  # issue 14 item 4: the plan menus list the same plans again and again


def _plan_decisions(state: GameState) -> list[Action]:
    """A menu: each available leader (or none, GAP-43) x a few dials x each attack and defence held or none."""
    assert state.pending is not None
    house = state.pending.actor
    hs = state.houses[house]
    tokens, leaders = _plan_context(state, house)
    held = Counter(hs.hand)
    dials = leader_pre_battle.locked_dials(context_of(state), house, menu_dials(tokens, hs.spice))  # K-16
    # KARAMA-3, GAP-55b: a Karama is added only where it can block something; counts stay within the hand;
    # GAP-80: or hidden against a Voice or an answer that binds the House (one Karama card offered per use)
    cards = karama_cards(state, house)
    karamas = [(NONE, NONE)] + ([(card, NONE) for card in cards] if _karama_target(state, house)
                                or pre_battle.karama_forced(state, house) else [])  # D-25: forced, blocks none
    karamas += [(cards[0], use) for use in pre_battle.wheel_uses(state, house)] if cards else []
    # issue 14 item 4: what the slots and the Karamas of every leader read of the House is read once per menu
    menu = _menu_facts(state, house)
    slots = {leader: _slot_menu(state, house, leader, menu) for leader in leaders}
    # BG-P1, ATREIDES-P1: a plan bound by the Voice or the prescience answer is left out. What binds a plan is
    # its leader, its two cards, its Karama and the use it hides against a binding (pre_battle.violations reads
    # nothing else), so each such combination is judged once, on its first plan, not again for every dial
    # (issue 14 item 4: the same menu, cheaper).
    verdicts: dict[tuple[str, ...], bool] = {}
    judge = pre_battle.plan_judge(state, house)  # issue 14 item 4: the leader's facts read once
    plans: list[Action] = []
    for leader in leaders or (NONE,):
        own = _karamas(state, house, leader, karamas, menu)  # K-9 G01-d: Edric's worthless Karama
        # issue 14 item 4: a combo of slot_options fits the hand already; only one with a Karama card is counted
        triples = [(w, d, k, u, x, y) for w, d, x, y in slots.get(leader, []) for k, u in own
                   if k == NONE
                   or not Counter(c for c in (w, d, k, x, y) if c != NONE and c not in BUILT_IN_WEAPONS) - held]
        # issue 14 item 4: a leader without K-21 restrictions has no plan they forbid (plan_error finds none)
        restricted = leader != NONE and bool(restrictions(leader_of(house, leader)))
        if not restricted:  # issue 14 item 4: every dial passes, so each card choice is judged on the first dial's
            # plan, as below, and the choices left free are listed for every dial in the same order
            free = []
            for choice in triples if leader != NONE else [(NONE,) * 6]:
                weapon, defense, karama, against, extra_attack, extra_defense = choice
                key = (leader, weapon, defense, karama, against, extra_attack, extra_defense)
                bound = verdicts.get(key)
                if bound is None and dials:
                    bound = verdicts[key] = bool(judge(_menu_plan(house, leader, *dials[0], weapon, defense, karama,
                                                                  against, extra_attack, extra_defense)))
                if not bound:
                    free.append(choice)
            plans += [_menu_plan(house, leader, regular, marked, spice, weapon, defense, karama, against,
                                 extra_attack, extra_defense)
                      for regular, marked, spice in dials
                      for weapon, defense, karama, against, extra_attack, extra_defense in free]
            continue
        for regular, marked, spice in dials:
            for weapon, defense, karama, against, extra_attack, extra_defense in (
                    triples if leader != NONE else [(NONE,) * 6]):
                key = (leader, weapon, defense, karama, against, extra_attack, extra_defense)  # D-25: Karama
                bound = verdicts.get(key)
                if bound:
                    continue
                plan = _menu_plan(house, leader, regular, marked, spice, weapon, defense, karama, against,
                                  extra_attack, extra_defense)
                if restricted and _restriction_error(plan) is not None:
                    continue  # leaders.md K-21: a plan the leader's restrictions forbid is not offered
                if bound is None:
                    bound = verdicts[key] = bool(judge(plan))
                    if bound:
                        continue
                plans.append(plan)
    return plans


# --- leaders.md K-6..K-9: the slots and built-ins of the committed leader ---------------------------------

def _wheel_leader(state: GameState, house: str, leader: str) -> Leader | None:
    return None if leader == NONE else leader_of(house, leader)


class _MenuFacts:
    """What the plan menu's slots and Karamas read of the House, the same for each of its leaders (issue 14 item
    4: read once per menu, not once per leader): the powers a Karama blocks in this battle, its built-in weapons
    (G-4), its B1 rolls (D-31), whether a Karama on the wheel blocks something (KARAMA-45) and, when first asked,
    the uses it may hide (GAP-80)."""

    def __init__(self, state: GameState, house: str) -> None:
        self._state, self._house = state, house
        self.blocked = battle_powers.blocked_in_battle(state, house)
        self.house_weapons = own_weapons(state, house)
        self.rolls = leader_rolls.side_rolls(context_of(state), house)
        self.karama_target = _karama_target(state, house) is not None

    @functools.cached_property
    def wheel_uses(self) -> tuple[str, ...]:
        return pre_battle.wheel_uses(self._state, self._house)


def _menu_facts(state: GameState, house: str) -> _MenuFacts:
    return _MenuFacts(state, house)


def _slot_menu(state: GameState, house: str, leader: str,
               menu: _MenuFacts | None = None) -> list[tuple[str, str, str, str]]:
    """(weapon, defense, extra_attack, extra_defense) the House may put on ``leader``'s wheel from its hand: one
    card per slot, and the slots and built-ins his K-6/K-7 powers add (a built-in, G-4, is no card)."""
    menu = menu or _menu_facts(state, house)
    found = slot_options(_wheel_leader(state, house, leader), house, state.houses[house].hand,
                         blocked=menu.blocked, house_weapons=menu.house_weapons, attack_cards=WEAPONS,
                         defence_cards=DEFENCES, b1_rolls=menu.rolls)
    # issue 14 item 4: the four slots unpacked (the same tuples as one generator per combo built, cheaper)
    return [(NONE if w is None else w, NONE if d is None else d, NONE if x is None else x, NONE if y is None else y)
            for w, d, x, y in found]


def _karamas(state: GameState, house: str, leader: str,
             karamas: list[tuple[str, str]], menu: _MenuFacts | None = None) -> list[tuple[str, str]]:
    """The Karama choices of the plan menu, plus a worthless card where the leader's K-9 ``worthless_is_karama``
    makes it one (G01-d: Edric, as BG-P5) and a Karama can block something (KARAMA-3, GAP-55b)."""
    menu = menu or _menu_facts(state, house)
    extra = [card for card in karama_substitutes(_wheel_leader(state, house, leader), house, menu.blocked)
             if card in state.houses[house].hand and (card, NONE) not in karamas]
    found = karamas + ([(card, NONE) for card in extra] if menu.karama_target else [])
    # G01-d "any use": also hidden against a Voice, an answer or the opposing wheel (GAP-80, LC-11 b, KARAMA-20)
    return found + [(card, use) for card in extra[:1] for use in menu.wheel_uses if (card, use) not in found]


def _usable_karamas(state: GameState, action: SubmitPlan) -> tuple[str, ...]:
    """The cards that may be added as a Karama on this plan's wheel (KARAMA-1, BG-P5, TLEILAX-P4, K-9 G01-d)."""
    extra = karama_substitutes(_wheel_leader(state, action.house, action.leader), action.house,
                               battle_powers.blocked_in_battle(state, action.house))
    return tuple(dict.fromkeys(karama_cards(state, action.house)
                               + tuple(c for c in extra if c in state.houses[action.house].hand)))


def _slot_error(state: GameState, action: SubmitPlan) -> IllegalActionError | None:
    """leaders.md LC-7, K-6..K-8: the plan's slots and built-ins must fit its leader's powers."""
    def card(value: str) -> str | None:
        return None if value == NONE else value

    plan = BattlePlan(leader=_wheel_leader(state, action.house, action.leader), weapon=card(action.weapon),
                      defense=card(action.defense), extra_attack=card(action.extra_attack),
                      extra_defense=card(action.extra_defense))
    try:
        check_slots(plan, action.house, blocked=battle_powers.blocked_in_battle(state, action.house),
                    house_weapons=own_weapons(state, action.house),
                    b1_rolls=leader_rolls.side_rolls(context_of(state), action.house))
    except IllegalActionError as error:
        return error
    return None


def own_weapons(state: GameState, house: str) -> tuple[str, ...]:
    """Built-in weapons ``house`` may put in its attack slot now, by a power it holds (houses.md G-4;
    DISPERSION-P1 karate): no card, so never taken from the hand nor lost."""
    return tuple(weapon for power_id, _holder, weapon in slot_weapon_powers() if holds_power(state, house,
                                                                                              power_id))


def _opponent(state: GameState, house: str) -> str:
    return context_of(state).opponent(house)


def _karama_target(state: GameState, house: str) -> str | None:
    """The opposing House's battle power that a Karama on ``house``'s wheel would block (KARAMA-45), or None."""
    return wheel_karama_power(_opponent(state, house))


def check_plan(state: GameState, action: SubmitPlan) -> IllegalActionError | None:
    """Validate any plan (BATTLE-5, BATTLE-6, BATTLE-15, BATTLE-16, GAP-42, GAP-43); errors name the field."""
    hs = state.houses[action.house]
    tokens, leaders = _plan_context(state, action.house)
    area = context_of(state).area
    if action.leader == NONE and leaders:
        return IllegalActionError("battle/leader-required", f"leader: every battle needs a leader (BATTLE-5); "
                                  f"allowed: {', '.join(leaders)}")
    if action.leader != NONE and action.leader not in leaders:
        allowed = ", ".join(leaders) or "none (no leader can lead: GAP-43)"
        return IllegalActionError("battle/leader-unavailable", f"leader {action.leader!r} cannot lead in {area} "
                                  f"(dead, not of {action.house}, or fought in another territory: BATTLE-15); "
                                  f"allowed: {allowed}")
    for name, value in (("regular", action.regular), ("marked", action.marked), ("spice", action.spice)):
        if value < 0:
            return IllegalActionError("battle/dial-negative", f"{name}: {value} is negative; allowed 0 or more")
    for name, value, have in (("regular", action.regular, tokens.regular), ("marked", action.marked, tokens.marked)):
        if value > have:
            return IllegalActionError("battle/dial-too-many", f"{name}: {value} tokens dialled, {action.house} has "
                                      f"{have} in {area}; allowed 0..{have} (BATTLE-13 a)")
    if action.spice > action.regular + action.marked:
        return IllegalActionError("battle/dial-spice", f"spice: {action.spice} for {action.regular + action.marked} "
                                  f"token(s); allowed 0..{action.regular + action.marked} (GAP-42: 1 per token)")
    if action.spice > hs.spice:
        return IllegalActionError("battle/dial-spice-owned", f"spice: {action.spice} dialled, {action.house} owns "
                                  f"{hs.spice}; allowed 0..{min(hs.spice, action.regular + action.marked)}")
    for name in ("weapon", "extra_attack"):
        card = getattr(action, name)
        if card != NONE and card not in WEAPONS + BUILT_IN_WEAPONS:
            return IllegalActionError(f"battle/{name.replace('_', '-')}", f"{name} {card!r}; allowed: none, "
                                      f"{', '.join(WEAPONS + own_weapons(state, action.house))}")
    for name in ("defense", "extra_defense"):
        card = getattr(action, name)
        if card != NONE and card not in DEFENCES:
            return IllegalActionError(f"battle/{name.replace('_', '-')}", f"{name} {card!r}; allowed: none, "
                                      f"{', '.join(DEFENCES)}")
    slot_error = _slot_error(state, action) if action.leader != NONE else None
    if slot_error is not None:
        return slot_error
    if action.karama != NONE:
        usable = _usable_karamas(state, action)
        if action.karama not in usable:
            return IllegalActionError("battle/karama", f"karama: {action.karama!r} cannot act as a Karama for "
                                      f"{action.house} now; allowed: none, {', '.join(usable) or '(none held)'}")
        uses = pre_battle.wheel_uses(state, action.house)
        if action.against != NONE and action.against not in uses:
            return IllegalActionError("battle/karama-against", f"against: {action.against!r} blocks nothing that "
                                      f"binds {action.house} now (GAP-80); allowed: none"
                                      + "".join(f", {u}" for u in uses))
        if action.against == NONE and _karama_target(state, action.house) is None and \
                not pre_battle.karama_forced(state, action.house):  # D-25: a forced Karama may block nothing
            return IllegalActionError("battle/karama-nothing-to-block", f"karama: {_opponent(state, action.house)} "
                                      "has no battle power a Karama can block (KARAMA-3, G-5, GAP-55b); "
                                      "allowed: none")
    cards = [c for c in (action.weapon, action.defense, action.karama, action.extra_attack, action.extra_defense)
             if c != NONE and c not in BUILT_IN_WEAPONS]
    if action.leader == NONE and (cards or action.weapon in BUILT_IN_WEAPONS or action.extra_attack != NONE):
        return IllegalActionError("battle/no-leader-cards", f"weapon/defense: a side with no leader plays no "
                                  f"treachery card (GAP-43), but the plan has {', '.join(cards)}; allowed: none")
    missing = Counter(cards) - Counter(hs.hand)
    if missing:
        return IllegalActionError("battle/card-not-held", f"weapon/defense: {', '.join(sorted(missing))} not in "
                                  f"{action.house}'s hand; held: {', '.join(hs.hand) or 'nothing'}")
    restriction = _restriction_error(action)  # leaders.md K-21: the leader's restrictions (traits)
    if restriction is not None:
        return restriction
    return pre_battle.binding_error(state, action)  # BG-P1, ATREIDES-P1: the Voice and the answer bind


def _restriction_error(action: SubmitPlan) -> IllegalActionError | None:
    """leaders.md K-21 (no_army, no_house_powers) for a plan's leader; cannot_carry and attacks_only bind its
    slots, checked with them (:func:`_slot_error`, GAP-144)."""
    if action.leader == NONE:
        return None
    return plan_error(leader_of(action.house, action.leader), action.house,
                      weapon=None if action.weapon == NONE else action.weapon,
                      dialled=action.regular + action.marked, spice=action.spice)


def _apply_plan(state: GameState, action: SubmitPlan) -> GameState:
    ctx = context_of(state)
    ctx = evolve(ctx, secrets=ctx.secrets + ((action.house, action),))
    state = with_events(state, event("plan-set", f"{action.house} sets its battle wheel (hidden)",
                                     house=action.house, secret=True))
    state = leader_pre_battle.after_plan(state, ctx, action.house)  # leaders.md K-16 sense_karama (LC-5 B4)
    waiting = [house for house in ctx.order if house not in dict(ctx.secrets)]
    if waiting:
        return evolve(state, pending=pending("battle-plan", waiting[0], battle=ctx))
    return leader_deals.before_reveal(state, ctx)  # leaders.md K-19 BUY_OFF at LC-5 B5, then reveal()


def reveal(state: GameState, ctx: BattleContext) -> GameState:
    """BATTLE-13 f (LC-5 B6): both wheels are shown, then the traitor calls."""
    plans = dict(ctx.secrets)
    # revealed (BATTLE-13 f): no longer hidden by the view; kept defender first
    ctx = evolve(ctx, secrets=(), plans=tuple((house, plans[house]) for house in ctx.houses))
    for house in ctx.houses:
        plan = plans[house]
        value = army_value(Dial(plan.regular, plan.marked, plan.spice))
        state = with_events(state, event(
            "plan-revealed", f"{house}: leader {plan.leader}, {plan.regular} unmarked + {plan.marked} marked "
            f"token(s) and {plan.spice} spice (army {float(value):g}), weapon {plan.weapon}, defence "
            f"{plan.defense}" + (f", Karama {plan.karama} (KARAMA-3)" if plan.karama != NONE else "")
            + (f", extra attack {plan.extra_attack}" if plan.extra_attack != NONE else "")  # leaders.md K-6, K-7
            + (f", extra defence {plan.extra_defense}" if plan.extra_defense != NONE else ""),
            house=house, leader=plan.leader, regular=plan.regular, marked=plan.marked,
            spice=plan.spice, weapon=plan.weapon, defense=plan.defense, karama=plan.karama,
            **{name: getattr(plan, name) for name in ("extra_attack", "extra_defense") if getattr(plan, name) != NONE}))
    # GAP-80: the Karamas hidden on the wheels are shown now (KARAMA-25/43/40/18, LC-11 b, KARAMA-20), once
    # KARAMA-29 is asked against a card played as one (GAP-124); then B7 (leaders.md S-1, S-5) and the calls
    return leader_karama.after_reveal(state, ctx)


def begin_calls(state: GameState, ctx: BattleContext) -> GameState:
    """After the reveal's Karamas: B7, the secondary leaders' specials before the treachery (leaders.md S-1, S-5,
    :func:`dunenb.rules.leader_specials.before_calls`), then the traitor calls (:func:`start_calls`)."""
    return leader_specials.before_calls(state, ctx)


def plan_pledge(state: GameState, house: str) -> Pledge:
    """GAP-57: a House whose battle plan is set owes the spice it dialled (GAP-42) and holds its cards on the wheel
    (a Karama there too: KARAMA-3, GAP-80) until the battle is settled; it may not spend them at any time
    meanwhile."""
    plan = context_of(state).plan_of(house)
    if plan is None:
        return Pledge()
    return Pledge(spice=plan.spice, cards=tuple(c for c in (plan.weapon, plan.defense, plan.karama, plan.extra_attack,
                                                            plan.extra_defense) if c != NONE))


# --- traitor calls ---------------------------------------------------------------------------------------

def may_call(state: GameState, caller: str, owner: str, leader: str) -> bool:
    """TRAITOR-8: ``caller`` holds ``owner``'s ``leader`` on a slip (or K-21 ``always_traitor_of``)."""
    if leader == NONE:
        return False
    person = leader_ref(owner, leader)  # a leader received in a deal is still the same person (GAP-19)
    if person in state.captured and caller == person[0] and person not in state.houses[owner].traitors:
        return True  # FAQ 19, TRAITOR-13 (1)-(2), GAP-35c: his House recognises its captured leader
    if leader_pre_battle.drawn_traitor(state, caller, owner, leader):
        return True  # leaders.md K-16 traitor_draw (HARKONNEN-L08-c): a traitor for this battle only
    return person in state.houses[caller].traitors or caller in leader_of(owner, leader).always_traitor_of


def start_calls(state: GameState, ctx: BattleContext) -> GameState:
    """TRAITOR-8, GAP-62: both sides are asked, defender first, whether they call "Trahison !", whether or not they
    hold a slip for the opposing leader: a question asked only of a slip holder would tell the table who holds one
    (DESIGN "Powers": every House that could be asked is asked in a fixed order, with a pass first)."""
    ctx = evolve(ctx, callers=ctx.houses, calls=(), rolls=())
    return evolve(state, pending=pending("traitor-call", ctx.callers[0], battle=ctx))


def _call_decisions(state: GameState) -> list[Action]:
    """GAP-62: the pass first; then the call, only for a House that may make it (:func:`may_call`)."""
    assert state.pending is not None
    ctx = context_of(state)
    house = state.pending.actor
    other = ctx.opponent(house)
    leader = dict(ctx.plans)[other].leader
    calls: list[Action] = [CallTraitor(house, leader)] if may_call(state, house, other, leader) else []
    return [Pass(house), *calls]


def _check_call(state: GameState, action: Action) -> IllegalActionError | None:
    """Why ``action`` is not a call the House to act may make (TRAITOR-8, TRAITOR-9, GAP-62), or ``None``."""
    if not isinstance(action, CallTraitor):
        return IllegalActionError("action/illegal", f"{action.notation()!r}: at a traitor call, pass or call")
    ctx = context_of(state)
    other = ctx.opponent(action.house)
    leader = dict(ctx.plans)[other].leader
    if action.leader != leader:
        return IllegalActionError("traitor/not-the-leader", f"leader {action.leader!r}: {other} leads with "
                                  f"{leader!r}, the only leader a call may name (TRAITOR-8); allowed: pass")
    if not may_call(state, action.house, other, leader):
        return IllegalActionError("traitor/no-slip", f"{action.house} holds no traitor slip for {leader!r} "
                                  "(TRAITOR-8, TRAITOR-9: the call is proved with the slip); allowed: pass")
    return None


def _apply_call(state: GameState, action: CallTraitor | Pass) -> GameState:
    ctx = context_of(state)
    if isinstance(action, CallTraitor):
        ctx = evolve(ctx, calls=ctx.calls + (action.house,))
        state = with_events(state, event("treachery", f"{action.house}: \"Trahison !\" {action.leader} is its "
                                         "traitor (TRAITOR-9)", house=action.house, leader=action.leader))
    # GAP-62: a pass says nothing, not even "kept secret": every side passes the same way, slip or no slip
    index = ctx.callers.index(action.house) + 1
    if index < len(ctx.callers):
        return evolve(state, pending=pending("traitor-call", ctx.callers[index], battle=ctx))
    return battle_powers.after_calls(state, ctx)  # HARKONNEN-M2: the buy-off, then the resolution


# --- resolution ------------------------------------------------------------------------------------------

class _NeedRoll(Exception):
    def __init__(self, side: int, purpose: str = SHIELD_PASS) -> None:
        super().__init__(side)
        self.side = side
        self.purpose = purpose  # what the d10 is rolled for (dunenb.battle.rolls)


def battle_of(state: GameState, ctx: BattleContext) -> Battle:
    """The library's :class:`Battle` for the pending battle, with the traitor calls made (TRAITOR-8)."""
    plans = dict(ctx.plans)
    houses = ctx.houses
    sides = []
    for me, house in enumerate(houses):
        plan = plans[house]
        other = plans[houses[1 - me]]
        tokens = arena_tokens(state, house, ctx.area, ctx.sectors)
        leader = None if plan.leader == NONE else own_house_leader(state, house, plan.leader)
        wheel = BattlePlan(Dial(plan.regular, plan.marked, plan.spice), leader,
                           None if plan.weapon == NONE else plan.weapon,
                           None if plan.defense == NONE else plan.defense,
                           None if plan.karama == NONE else plan.karama,
                           None if plan.against == NONE else plan.against,
                           None if plan.extra_attack == NONE else plan.extra_attack,  # leaders.md K-6, K-7
                           None if plan.extra_defense == NONE else plan.extra_defense)
        called = (frozenset({leader_ref(houses[1 - me], other.leader)[1]}) if house in ctx.calls
                  else frozenset())
        sides.append(BattleSide(house, WheelTokens(tokens.regular, tokens.marked), wheel, traitors=called,
                                call_power=wheel_karama_power(house),
                                dead=battle_powers.own_dead(state, house),  # HARKONNEN-M3
                                blocked=battle_powers.blocked_in_battle(state, house),  # KARAMA-37, G-7
                                regenerations=battle_powers.regenerations_left(state, house),  # TLEILAX-M2
                                voices_against=len(ctx.sequence.voices_on(house)) if ctx.sequence else 0,  # D-24
                                voice_forced=pre_battle.voice_forced(state, ctx, plan),  # BG-P1: forced Atomics
                                b1_rolls=leader_rolls.side_rolls(ctx, house),  # leaders.md D-31
                                spare=leader_spare.agreed(ctx)))  # leaders.md K-17 spare (GUILD-L06-d)
    return Battle(ctx.area, ctx.defender, (sides[0], sides[1]), state.shield_wall_standing)  # LC-3


def own_house_leader(state: GameState, house: str, key: str) -> Leader:
    """The roster leader ``house`` keeps under ``key``, as he fights for it: leaders.md LC-9, a leader received in a
    deal (ALLIANCE-11, L1925) has ``house`` for his own House and keeps his powers; a captive (HARKONNEN-P4,
    B03-b) is a foreign leader, with his traits only (D-14)."""
    leader = leader_specials.as_weakened(state, leader_of(house, key))  # leaders.md S-4: strength lost for good
    leader = leader_inherit.held_by(state, leader)  # leaders.md K-24 D02-d: the Weapon, wherever it passed
    if leader.house == house or leader_ref(house, key) in state.captured:
        return leader
    return evolve(leader, house=house, transferred_from=leader.house)


def _fates(battle: Battle, rolls: tuple) -> Fates:
    values = [value for _house, value in rolls]
    used = 0

    def roll(side: int, purpose: str = SHIELD_PASS) -> int:
        nonlocal used
        if used < len(values):
            used += 1
            return values[used - 1]
        raise _NeedRoll(side, purpose)

    return leader_step(battle.sides, roll)


def fates_with_rolls(battle: Battle, rolls: tuple) -> Fates:
    """The leader step of ``battle`` with the d10s already rolled in the game (all of them are)."""
    return _fates(battle, rolls)


def _resolve(state: GameState, ctx: BattleContext) -> GameState:
    battle = without_disarmed_attacks(battle_of(state, ctx))  # K-3: a disarmed leader's attack goes back to hand
    try:
        fates = _fates(battle, ctx.rolls)
    except _NeedRoll as need:
        ctx = evolve(ctx, roller=battle.sides[need.side].house)
        return evolve(state, pending=pending("battle-d10", "chance", battle=ctx))
    asked = leader_spare.ask(state, ctx, battle, fates)  # leaders.md K-17 spare (GUILD-L06-d): B9 decisions
    if asked is not None:
        return asked
    return battle_powers.before_outcome(state, ctx, settle(battle, fates))  # KARAMA-38 at a main leader's death


def _die_outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    house = context_of(state).roller
    assert house is not None
    return uniform([BattleDie(house, value) for value in D10])


def _roll_purpose(state: GameState, ctx: BattleContext) -> str:
    """What the d10 asked now is rolled for (:mod:`dunenb.battle.rolls`): the leader step run on the rolls made
    so far stops at it."""
    battle = without_disarmed_attacks(battle_of(state, ctx))
    try:
        _fates(battle, ctx.rolls)
    except _NeedRoll as need:
        return need.purpose
    return SHIELD_PASS


def _apply_die(state: GameState, action: BattleDie) -> GameState:
    ctx = context_of(state)
    purpose = _roll_purpose(state, ctx)
    ctx = evolve(ctx, roller=None, rolls=ctx.rolls + ((action.house, action.value),))
    # the event's data names the purpose only when it is not the shield pass (events of older games unchanged)
    named = {} if purpose == SHIELD_PASS else {"purpose": purpose}
    state = with_events(state, event("battle-d10", f"{action.house} rolls {action.value} on the d10 "
                                     f"{purpose_text(purpose)}", house=action.house, value=action.value, **named))
    return _resolve(state, ctx)


def _lose_tokens(state: GameState, house: str, area: str, sectors: tuple[int, ...], lost: Tokens) -> GameState:
    """Take ``lost`` from the House's stacks in the arena, marked tokens first, stacks in sector order (design)."""
    marked, regular = lost.marked, lost.regular
    for sector in sectors:
        stack = state.forces.get((house, area, sector))
        if stack is None:
            continue
        take = Tokens(min(regular, stack.regular), min(marked, stack.marked))
        if not take.is_empty():
            state = kill_tokens(state, house, area, sector, take)
            regular, marked = regular - take.regular, marked - take.marked
    return state


def _pay(state: GameState, house: str, amount: int) -> GameState:
    """``amount`` > 0: the House pays the Bank; < 0: the Bank pays the House."""
    state = edit_house(state, house, spice=state.houses[house].spice - amount)
    return evolve(state, bank=state.bank + amount)


def _apply_outcome(state: GameState, ctx: BattleContext, outcome: BattleOutcome) -> GameState:
    area, sectors = ctx.area, ctx.sectors
    name = rules().board.area(area).name
    shelter = outcome.sheltered  # leaders.md S-4: his House's tokens there stay
    spared = shelter[0] if shelter else None
    if outcome.explosion and shelter:
        text = (f"Battle in {name}: {outcome.explosion} explosion; {shelter[1]} and the {shelter[0]} tokens "
                f"withstand it, {outcome.winner} wins (leaders.md S-4, {shelter[2]})")
    elif outcome.explosion:
        text = f"Battle in {name}: {outcome.explosion} explosion, no winner (CARD-ATOMICS-3, GAP-29b)"
    else:
        text = f"Battle in {name}: {outcome.winner} wins" + (
            " by treachery (TRAITOR-11)" if outcome.traitor_called_by and not outcome.leaders_swapped else "")
    for house in outcome.treachery_blocked:
        state = with_events(state, event("treachery-blocked", f"{house}'s treachery has no effect: a Karama on the "
                                         "opposing wheel blocks it for this battle (KARAMA-3, KARAMA-45)",
                                         house=house))
    state = with_events(state, event("battle-outcome", text, area=area, winner=outcome.winner,
                                     explosion=outcome.explosion, traitor_called_by=outcome.traitor_called_by))
    for side in outcome.sides:  # issue 11 item 6: the leader and House powers that acted on the wheels
        if side.powers:
            state = with_events(state, event("battle-powers", f"{side.house}'s powers in this battle: "
                                             f"{', '.join(side.powers)}", house=side.house, powers=side.powers))
    dead_main: list[str] = []
    discard = list(state.treachery_discard)
    for side in outcome.sides:
        house = side.house
        if (not outcome.territory_destroyed or house == spared) and side.tokens_lost.total:
            lost = Tokens(side.tokens_lost.regular, side.tokens_lost.elite)
            state = _lose_tokens(state, house, area, sectors, lost)
            state = with_events(state, event("tokens-lost", f"{house} loses {lost.total} token(s) in {name} "
                                             "(BATTLE-10, BATTLE-11)", house=house, area=area, count=lost.total))
        if side.spice_lost:
            state = _pay(state, house, side.spice_lost)
            state = with_events(state, event("spice-dialled", f"{house} pays the {side.spice_lost} spice it dialled "
                                             "to the Bank (GAP-42)", house=house, amount=side.spice_lost))
        if side.bounty:
            state = _pay(state, house, -side.bounty)
            state = with_events(state, event("bounty", f"The Bank pays {house} a bounty of {side.bounty} spice "
                                             "(BATTLE-13 f3, TRAITOR-10, GAP-35a)", house=house, amount=side.bounty))
        if side.spare_paid:  # leaders.md K-17 spare (GUILD-L06-d)
            state = leader_spare.pay(state, house, outcome)
        if side.cards_lost:
            hand = list(state.houses[house].hand)
            for card in side.cards_lost:
                hand.remove(card)
            discard += side.cards_lost
            state = edit_house(state, house, hand=tuple(hand))
            state = with_events(state, event("cards-lost", f"{house} loses {', '.join(side.cards_lost)} (GAP-45)",
                                             house=house, cards=side.cards_lost))
        # VICTORY-2, G-7: whether the dying leader is his House's main leader now (a successor counts), read
        # before his death moves him to the tanks
        was_main = side.leader_fate == "dead" and side.leader is not None and side.leader_owner is not None and \
            is_acting_main(state, side.leader_owner, side.leader)
        if side.leader_fate == "dead" and side.leader is not None and side.leader_owner is not None and \
                battle_powers.is_captured(state, side.leader_owner, side.leader):
            # HARKONNEN-P4: a captured leader dies into his own House's tanks; a main leader eliminates it
            state = battle_powers.bury_captive(state, side.leader_owner, side.leader)
            state = with_events(state, event("leader-killed", f"{side.leader} ({side.leader_owner}, captured) is "
                                             "killed", house=side.leader_owner, leader=side.leader))
            if was_main:
                dead_main.append(side.leader_owner)
        elif side.leader_fate == "dead" and side.leader is not None and side.leader_owner is not None:
            person = alias.body(side.leader)  # leaders.md S-3: only Alma dies ("Alma as X": X stays alive)
            holder, key = holder_of(state, side.leader_owner, person) or (side.leader_owner, person)
            keeper = state.houses[holder]  # a leader received in a deal dies in his holder's tanks (GAP-19)
            state = edit_house(state, holder, leaders=tuple(x for x in keeper.leaders if x != key),
                               leader_tanks=keeper.leader_tanks + (key,))
            served = "" if holder == side.leader_owner else f", serving {holder}"
            state = with_events(state, event("leader-killed", f"{person} ({side.leader_owner}{served}) is killed",
                                             house=holder, leader=key))
            if was_main:
                dead_main.append(side.leader_owner)
    state = evolve(state, treachery_discard=tuple(discard))
    killed = tuple((side.leader_owner, alias.body(side.leader)) for side in outcome.sides  # S-3: Alma
                   if side.leader_fate == "dead" and side.leader is not None and side.leader_owner is not None)
    state = leader_specials.after_deaths(state, killed)  # leaders.md K-25 S-6 count, S-7 Irulan leaves
    state = leader_specials.after_shelter(state, outcome.sheltered)  # leaders.md S-4: Burseg loses strength
    state = on_call.pay_spice(state, outcome.on_call)  # leaders.md K-21, computed by the library (one mechanism)
    if outcome.territory_destroyed:
        for (house, a, sector), tokens in list(state.forces.items()):
            if a == area and house != spared:  # leaders.md S-4: the sheltered House keeps its tokens there
                state = kill_tokens(state, house, a, sector, tokens)
                state = with_events(state, event("tokens-lost", f"{house} loses {tokens.total} token(s) in the "
                                                 f"explosion in {name} (CARD-ATOMICS-3)", house=house, area=area,
                                                 count=tokens.total))
    for house in outcome.outlawed:
        state = alliances.outlaw(state, house, cause="used Atomics in battle")  # CARD-ATOMICS-4, GAP-29c
    plans = dict(ctx.plans)
    committed = ctx.committed + tuple(  # leaders.md S-3: "Alma as X" commits Alma only (X may fight elsewhere)
        (house, alias.body(plans[house].leader), area) for house in ctx.houses if plans[house].leader != NONE)
    state = leader_specials.record_battle(state, committed[len(ctx.committed):])  # leaders.md S-8
    last = ctx.houses
    for house in dead_main:  # VICTORY-2, G-7, TLEILAX-M2: unless a regeneration is left
        state = battle_powers.main_leader_died(state, house)
    state = battle_powers.after_settlement(state, ctx)  # HARKONNEN-P4: captives go home (L1167, FAQ 21)
    state = leader_capture.release_freed(state)  # leaders.md D-28: Lucille's captives once she is dead
    ctx = evolve(ctx, committed=committed, last=last)
    # leaders.md K-24 D02-d: a passing power whose holder died passes (a choice among equals), then LC-5 B10
    return leader_inherit.after_battle(state, ctx, outcome, killed)


def after_leader_effects(state: GameState, ctx: BattleContext, outcome: BattleOutcome) -> GameState:
    """Once the B10 leader effects are played (:mod:`dunenb.rules.leader_after_battle`): the winner's discard
    (BATTLE-10, TRAITOR-11), then the card draws (on call, D-32; K-17 steal_random), then the capture."""
    committed, last, area = ctx.committed, ctx.last, ctx.area
    # BG-L10-b, played after TRAITOR-11 (D-32); then K-17 steal_random (leaders.md B10, the winner's side first)
    draws = on_call.card_draws(outcome.on_call) + leader_after_battle.card_draws(outcome)
    winner = outcome.winner
    victor = (winner, ctx.opponent(winner), area) if winner is not None else ()  # HARKONNEN-P4
    chosen = leader_after_battle.capture_by_choice(outcome)  # K-17 chosen_capture (HARKONNEN-L07-c)
    if winner is not None and winner not in state.eliminated:
        kept = outcome.side(winner).cards_kept
        if kept and not Counter(kept) - Counter(state.houses[winner].hand):
            ctx = evolve(ctx, kept=kept, draws=draws, committed=committed, last=last, victor=victor,
                                      capture_by_choice=chosen)
            return evolve(state, pending=pending("battle-discard", winner, battle=ctx))
    return _after_treachery(state, BattleContext(committed=committed, last=last, victor=victor,
                                                 capture_by_choice=chosen), draws)


def _after_treachery(state: GameState, ctx: BattleContext, draws: tuple) -> GameState:
    """D-32: on-call card draws (BG-L10-b, :mod:`dunenb.rules.on_call`) come once TRAITOR-11 is settled."""
    after = BattleContext(committed=ctx.committed, last=ctx.last, victor=ctx.victor,
                          capture_by_choice=ctx.capture_by_choice)
    # on_call.begin_draws also discards a hand down to a limit lowered by a main leader's death (G-7)
    return on_call.begin_draws(state, draws, {"battle": after})


def continue_after_battle(state: GameState, ctx: Any) -> GameState:
    """The next battle, or the end of the phase, once a battle is fully settled (``ctx``: the pending detail
    that carries the :class:`BattleContext` under ``"battle"``). The Karamas that lasted the battle lapse
    (GAP-37b: KARAMA-37, KARAMA-49); the capture comes first (HARKONNEN-P4)."""
    return battle_powers.after_battle(lift(state, "battle"), ctx["battle"])


def next_battle(state: GameState, *, committed: tuple, last: tuple, pole_asked: bool = False) -> GameState:
    """The next battle of the phase, or its end (:mod:`dunenb.rules.battle_powers` goes on here); ``pole_asked``:
    the leaders.md S-9 House has just passed the Pole battle (:mod:`dunenb.rules.leader_specials`)."""
    return _next_battle(state, committed=committed, last=last, pole_asked=pole_asked)


def resolve(state: GameState, ctx: BattleContext) -> GameState:
    """Resolve the pending battle (after the calls and the buy-off, :mod:`dunenb.rules.battle_powers`), once the
    Karamas against Vladimir's minions are asked (KARAMA-50, GAP-125)."""
    return leader_karama.ask_minions(state, ctx)


def resolve_now(state: GameState, ctx: BattleContext) -> GameState:
    """Resolve the pending battle, every window before it closed."""
    return _resolve(state, ctx)


def apply_outcome(state: GameState, ctx: BattleContext, outcome: BattleOutcome) -> GameState:
    """Apply a battle's outcome to the game (after KARAMA-38 is asked, :mod:`dunenb.rules.battle_powers`)."""
    return _apply_outcome(state, ctx, outcome)


# --- the winner's cards ----------------------------------------------------------------------------------

def _discard_decisions(state: GameState) -> list[Action]:
    assert state.pending is not None
    house = state.pending.actor
    kept = context_of(state).kept
    subsets = dict.fromkeys(c for n in range(len(kept) + 1) for c in combinations(kept, n))
    return [DiscardCards(house, ",".join(cards) if cards else NONE) for cards in subsets]


def _apply_discard(state: GameState, action: DiscardCards) -> GameState:
    cards = action.card_list()
    if cards:
        hand = list(state.houses[action.house].hand)
        for card in cards:
            hand.remove(card)
        state = edit_house(state, action.house, hand=tuple(hand))
        state = evolve(state, treachery_discard=state.treachery_discard + cards)
        state = with_events(state, event("cards-discarded", f"{action.house} discards {', '.join(cards)} "
                                         "(BATTLE-10, CARD-WORTHLESS-2)", house=action.house, cards=cards))
    ctx = context_of(state)
    return _after_treachery(state, ctx, ctx.draws)


# --- the end of the phase, elimination -------------------------------------------------------------------

def _finish(state: GameState, last: tuple) -> GameState:
    """GAP-7a: the two Houses of the last battle fought dial the storm next; then TURN-1 j)."""
    if last:
        dialers = tuple(h for h in last if h not in state.eliminated)
        state = evolve(state, storm_dialers=_top_up(state, dialers))
        state = with_events(state, event("storm-dialers", f"{' and '.join(state.storm_dialers)} fought last: they "
                                         "dial the storm next turn (GAP-7a)", houses=state.storm_dialers))
    return battle_powers.end_of_battles(state)  # HARKONNEN-M1, then TURN-1 j) (flow.after_phase)


def _top_up(state: GameState, dialers: tuple[str, ...]) -> tuple[str, ...]:
    """Design (GAP-7a): an eliminated dialer is replaced by the first other House in storm order."""
    extra = [h for h in storm_order(state) if h not in dialers]
    return tuple(dialers) + tuple(extra[:max(0, 2 - len(dialers))])


def eliminate(state: GameState, house: str, *, cause: str = "") -> GameState:
    """VICTORY-2 with GAP-47: remove an eliminated House from play; the House stays in the configuration.

    Its alliance clauses end first (:func:`dunenb.rules.alliances.end_clauses`, GAP-51: goods it set aside come
    back to it and go with the rest). Its tokens leave the board (into its tanks, so that the 20 tokens stay
    counted, G-1: design); its
    harvesters are removed; its treachery cards go to the discard pile; its spice goes to the Bank; its
    traitor slips and prediction are void; other Houses' slips on its leaders are gone; storm tokens drawn under
    FREMEN-P1 are put back once nobody holds that power (GAP-52). It is then skipped by
    :func:`dunenb.rules.common.storm_order` and so by every phase's turn order, and it no longer dials the storm.
    The pending node is not changed: the caller decides what comes next. The game does not end here: victory,
    including VICTORY-2's last House standing and the BG prediction on it, is decided at the end of the turn by
    :func:`dunenb.rules.collection.decide_winner`.
    """
    if house in state.eliminated:
        return state
    state = end_clauses(state, house)  # GAP-47, GAP-51: its deals end first; its set-aside goods come back to it
    for (h, area, sector), tokens in list(state.forces.items()):
        if h == house:
            state = kill_tokens(state, h, area, sector, tokens)
    committed = FrozenDict({k: v for k, v in state.committed_harvesters.items() if k[0] != house})
    hs = state.houses[house]
    state = evolve(
        state, committed_harvesters=committed, treachery_discard=state.treachery_discard + hs.hand,
        bank=state.bank + hs.spice, eliminated=state.eliminated + (house,))
    state = edit_house(state, house, spice=0, hand=(), harvesters=0, traitors=(), prediction=None)
    for other, ohs in state.houses.items():
        if any(lh == house for lh, _lid in ohs.traitors):
            state = edit_house(state, other, traitors=tuple(t for t in ohs.traitors if t[0] != house))
    dialers = tuple(h for h in state.storm_dialers if h != house)
    state = evolve(state, storm_dialers=_top_up(state, dialers))
    if not has_fremen(state) and state.storm_tokens:  # STORM-3, GAP-52: nobody holds FREMEN-P1 now
        state = evolve(state, storm_tokens=FrozenDict())  # its drawn tokens are put back unrevealed
    state = battle_powers.release_orphans(state)  # HARKONNEN-P4: an eliminated captor's captives go home
    return with_events(state, event("eliminated", f"{house} is eliminated" + (f": {cause}" if cause else "")
                                    + " (VICTORY-2, GAP-47)", house=house))


HANDLERS = {
    "battle-choice": Handler(apply=_apply_choice, decisions=_choice_decisions),
    # issue 14: check_plan decides every plan (it did whenever the menu listed one: it always does)
    "battle-plan": Handler(apply=_apply_plan, decisions=_plan_decisions, check=check_plan, accepts=(SubmitPlan,),
                           pledged=plan_pledge),
    "traitor-call": Handler(apply=_apply_call, decisions=_call_decisions, check=_check_call, accepts=(CallTraitor,),
                            pledged=plan_pledge, always=(Pass,)),
    "battle-d10": Handler(apply=_apply_die, outcomes=_die_outcomes),
    **pre_battle.HANDLERS,
    **leader_rolls.HANDLERS,  # leaders.md D-31: B1 rolls of the leaders' powers (HARKONNEN-L10-c)
    **battle_powers.HANDLERS,
    **leader_specials.HANDLERS,
    **leader_inherit.HANDLERS,  # leaders.md K-24 D02-d
    **leader_deals.HANDLERS,  # leaders.md K-18, K-19
    **leader_pre_battle.HANDLERS,  # leaders.md K-16
    **leader_after_battle.HANDLERS,
    **leader_spare.HANDLERS,  # leaders.md K-17 spare (GUILD-L06-d) at B9
    "battle-discard": Handler(apply=_apply_discard, decisions=_discard_decisions),
}
