"""Battle plans for the heuristic bot: the expected value of each plan against a *distribution* of opposing plans.

The bot sees the game through :func:`dunenb.engine.view`: the opposing hand is hidden, only its size is known. The
cards it cannot see are the 61 treachery cards (GAP-26) minus the face-up discard pile (GAP-27) minus its own hand;
the opponent's hand is a draw from them, so the chance that it holds some weapon or defence follows the
hypergeometric law. The opposing plans considered are: its two strongest leaders who may lead here (BATTLE-15,
BATTLE-16) x each weapon it may hold (or none) x each defence it may hold (or none), weighted by those odds, and
its menu dials (:func:`dunenb.rules.battle_phase.menu_dials`: nothing, a quarter, a half, three quarters, all, all
with spice) with fixed weights. Leader deaths (BATTLE-13 f1-f2, CARD-* and TRAITOR-9, with the exact d10 shield
passes) come from the battle library (:func:`dunenb.battle.resolve.fates_distribution`); they do not depend on the
dials, so they are cached per card and strength configuration and the dials are combined arithmetically (BATTLE-9
to BATTLE-13).

The value of a plan, in tokens, is the chance of winning times what the territory is worth
(:func:`battle_stakes`), minus the tokens lost (all the army if the battle is lost, BATTLE-11; those dialled if
it is won, BATTLE-10), the spice dialled (GAP-42), the leader's death (the main leader's eliminates the House,
VICTORY-2) and the cards the loser gives up (GAP-45), plus the bounties (BATTLE-13 f3). Traitors the bot holds
count: it calls them (TRAITOR-8). Against a House whose treachery a Karama on the wheel blocks (the Harkonnen,
KARAMA-45, ``wheel_karama``), the bot weighs the chance that its leader is on one of that House's hidden slips
(:func:`betrayal_odds`: the number of slips over the leaders who may be drawn, 0 for a main leader, G-7): betrayed,
it loses what a lost battle costs (TRAITOR-11); a plan with a Karama on the wheel (KARAMA-3) is safe from that and
pays the card (``KARAMA_VALUE``), so the bot adds one when the risk outweighs the card; a Karama hidden against a
Voice or an answer that binds it (GAP-80) also pays the card, so the bot disobeys only when that gains more; one
hidden against the opposing secondary leader (LC-11 b, GAP-122) pays the card and counts every leader the opponent
may lead without his powers (:func:`voided_opponents`).
Not modelled: slips of other Houses (their calls cannot be blocked, G-5), the secondary leaders' entries that act
before the wheels or after the battle (Voices, prescience, pre- and post-battle effects; their wheel values and
the entries the leader step reads are, below), a Karama the opponent may hide against the bot's own Voice or
question (it trusts them).

**House and main-leader powers** (:func:`fighter_values`, :func:`_fate_leader`): the bot reads the same hooks as
the resolver (:mod:`dunenb.battle.powers`): the wheel value of each leader against each other one
(``leader.value``: HARKONNEN-M3 Vladimir's living minions, DISPERSION-M3 Dama's 12 as attacker, DISPERSION-P2/M1
on male leaders), the built-in weapons (``leader.weapons``: TLEILAX-M1 Waff's pistol) and immunities
(``leader.immune``: ATREIDES-M1), from facts its view holds: the Houses, the leaders, who defends, each House's
dead leaders (the tanks are public), the powers a Karama blocks (public plays) and the battle's territory (the
terrain conditions of the leaders' powers, leaders.md LC-3/LC-4: :func:`dunenb.battle.powers.battle_values`).
Bounties and shield passes keep the base strength (GAP-28a). A successor in his main leader's place costs what a
main leader costs (G-7). The leader step is the resolver's own (:func:`_leader_step`), on each leader's roster record
where some entry of either side can tell him from a leader known by his strength alone (:func:`_fates`).

>>> unseen = Counter({"poison-fast": 2, "shield": 2, "karama": 6})
>>> [(card, round(p, 3)) for p, card in card_odds(unseen, 2, WEAPON_CARDS)]
[(None, 0.622), ('poison-fast', 0.378)]
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from dunenb.actions import Action
from dunenb.battle import alias, leader_shelter
from dunenb.battle.cards import BUILT_IN_ACTS_AS, BUILT_IN_WEAPONS, card_kind, wheel_karama_power
from dunenb.battle.immunities import changes_leader_step
from dunenb.battle.leader_after import action_of
from dunenb.battle.leader_karama import is_leader_use, voidable_powers
from dunenb.battle.leader_powers import Scene, acting, opponent_is
from dunenb.battle.leader_weapons import RULE_TARGETS, Arsenal, arsenal
from dunenb.battle.plans import Battle, BattlePlan, BattleSide
from dunenb.battle.powers import SideValues, battle_values, builtin_weapons, immune_to, may_disarm
from dunenb.battle.resolve import fates_distribution
from dunenb.battle.roster import Leader, Power, inline_leader
from dunenb.battle.wheel import Dial, army_value
from dunenb.battle.wheel import Tokens as WheelTokens
from dunenb.board import load_board
from dunenb.engine import view
from dunenb.powers.holders import acting_main_leader
from dunenb.powers.inheritance import inheritable
from dunenb.powers.leader_effects import Word, parse_condition
from dunenb.rules.battle_context import BattleContext, context_of
from dunenb.rules.battle_phase import SubmitPlan, arena_tokens, available_leaders, may_call, menu_dials, own_weapons
from dunenb.rules.battle_powers import blocked_in_battle, own_dead
from dunenb.rules.bidding import initial_deck
from dunenb.rules.captive_secrecy import guess
from dunenb.rules.leader_inherit import with_passed
from dunenb.rules.traitors import leader_of, traitor_pool
from dunenb.rules.truth_trance import TRUTH_TRANCE, AskTruthTrance
from dunenb.state import GameState

NONE = "none"
#: Cards that change a battle (worthless cards do nothing on the wheel; they are not modelled as opposing cards).
WEAPON_CARDS = ("poison-fast", "poison-slow", "projectile-distance", "projectile-contact", "lasgun", "atomics")
DEFENCE_CARDS = ("snooper", "shield")
#: Values in tokens (design, tuning): one token is the unit.
SPICE_VALUE = 0.5
CARD_VALUE = {"worthless": 0.2, "snooper": 1.5, "shield": 1.5}  # a weapon not listed here is worth 2
WEAPON_VALUE = 2.0
NOT_A_PLAN = -1e9  # the value of another action offered with the plans (a truth trance): never chosen
KARAMA_VALUE = 2.0  # a Karama kept for later, in tokens (design)
#: leaders.md K-4, K-5: (tokens all worth 1, army bonus) of both sides when no power changes the armies.
PLAIN_ARMIES = ((False, 0.0), (False, 0.0))
#: leaders.md S-4 (GAP-133): the leader-step branch of an explosion that spares the bot's leader and tokens.
SHELTERED = "sheltered"
ATOMICS_PENALTY = 30.0  # CARD-ATOMICS-4: the user is outlawed; the bot never wants that
EMPTIED_SHARE = 0.25  # what a battle won with every token lost is still worth (the enemy army is gone)
MAIN_LEADER_VALUE = 60.0  # VICTORY-2: losing the main leader eliminates the House
#: How the opponent is expected to dial, by menu position (nothing, half, all, all + spice): design guess.
DIAL_WEIGHTS = (0.1, 0.15, 0.25, 0.15, 0.2, 0.15)  # menu_dials: none, 1/4, 1/2, 3/4, all, all + spice
LEADER_WEIGHTS = (0.6, 0.4)  # its strongest leader, its second strongest
TAX_SETTLEMENTS = {"arrakeen": 2, "carthag": 2, "sietch-tarb": 1}  # TAX-1 (ids as in data/board.json)


def leader_value(strength: int, main: bool) -> float:
    """What losing a leader costs, in tokens: the main leader's death eliminates the House (VICTORY-2).

    >>> leader_value(5, False), leader_value(4, True)
    (4.5, 60.0)
    """
    return MAIN_LEADER_VALUE if main else 2.0 + 0.5 * strength


def card_value(card: str | None) -> float:
    """What giving up a card costs, in tokens (design)."""
    if card is None or card == NONE or card in BUILT_IN_WEAPONS:  # houses.md G-4: karate costs no card
        return 0.0
    return CARD_VALUE.get(card, WEAPON_VALUE)


def unseen_cards(state: GameState, house: str) -> Counter:
    """The treachery cards ``house`` cannot see: the whole deck (GAP-26) minus the discard pile and its hand."""
    unseen = Counter(initial_deck())
    unseen.subtract(state.treachery_discard)
    unseen.subtract(state.houses[house].hand)
    return +unseen


def card_odds(unseen: Counter, hand_size: int, kinds: Sequence[str]) -> list[tuple[float, str | None]]:
    """(probability, card) that a hand of ``hand_size`` unseen cards plays each card of ``kinds`` (``None``: it
    holds none). The chance of holding at least one is hypergeometric; which one follows the unseen counts."""
    total = sum(unseen.values())
    useful = sum(unseen[k] for k in kinds)
    none = 1.0
    for i in range(min(hand_size, total)):
        none *= max(0, total - useful - i) / (total - i)
    odds: list[tuple[float, str | None]] = [(none, None)]
    if useful:
        odds += [((1.0 - none) * unseen[k] / useful, k) for k in kinds if unseen[k]]
    return [(p, card) for p, card in odds if p > 0]


def _fates(mine: tuple, theirs: tuple, traitor: bool, my_index: int) -> tuple[tuple[float, bool, bool, str], ...]:
    """The leader step's outcomes, with the specs folded where the step cannot tell them apart, to share the cache.

    A leader's strength is read by the leader step only when he throws a contact projectile (the card, or a
    built-in acting as one: :data:`~dunenb.battle.cards.BUILT_IN_ACTS_AS`) at a shield: a Shield card of the
    opposing plan (CARD-SHIELD-3, GAP-28a) or a shield the opposing leader wears (leaders.md K-8, LC-1: Tyekanik,
    Edric), each passed on a d10 at most his strength. A strength (a leader given by strength alone) is folded to
    strength 1 elsewhere; so is a leader given as (house, id, blocked, strength) (:func:`_fate_leader`: no step
    powers, or only powers that admit weapons to his wheel), who then steps as his strength, when neither he nor
    the opposing leader reads anything of the other that tells him from a stand-in known by his strength alone
    (:func:`_inert`, :func:`_unread`: Chani's DISARM names Paul, so Paul and she keep their specs against each
    other, and against anyone else both step as their strengths). A leader whose powers change the leader step
    (house, id, blocked) may wear a shield and is never folded; facing one, a contact projectile keeps its
    thrower's strength.
    tests/test_bot_speed.py checks that the folded step gives the deaths of the step of the specs as given.

    Two more folds the step cannot tell apart: a worthless card does nothing on the wheel (CARD-WORTHLESS-1:
    card_deaths skips it, and no shield, snooper, explosion or Atomics test names it), so it is the empty slot; and
    when the bot calls its traitor, the traitor's attacks are not resolved (GAP-35b: only the caller's weapon acts;
    FAQ 23). The call always stands here: the opposing side holds no Karama (KARAMA-45) and no K-21 dies_in applies
    in the "arena" of _leader_step.

    Issue 14 item 6 (stop 31): the folds made before read a Shield card in the defence slot only, so a contact
    projectile's strength was folded away against a worn shield or a Shield card in a K-6 extra defence slot
    (the bot then gave a strength-7 projectile a 1-in-10 chance to pass Tyekanik's shield instead of 7 in 10);
    and a leader without step powers was a bare strength whatever the opponent, so the opposing entries that name
    a House or a leader (Yueh's KILL vs Harkonnen, Margot's DISARM against Feyd-Rautha) never acted on him."""
    if "worthless" in mine:
        mine = (mine[0], *(None if card == "worthless" else card for card in mine[1:]))
    if "worthless" in theirs:
        theirs = (theirs[0], *(None if card == "worthless" else card for card in theirs[1:]))
    if traitor and theirs[1] is not None:
        theirs = (theirs[0], None, theirs[2])
    mine_spec, theirs_spec = mine[0], theirs[0]
    if type(mine_spec) is not tuple and type(theirs_spec) is not tuple:
        # issue 14 item 4: two strengths (or no leader), as _pair_specs mostly gives them: no powers to read, so only
        # the contact projectiles' passes of Shield cards keep a strength (the general fold below, without lookups)
        if type(mine_spec) is int and mine_spec != 1 and not (
                "shield" in theirs[2:3] and _throws_contact(mine[1:2] + mine[3:4])):
            mine = (1, *mine[1:])
        if type(theirs_spec) is int and theirs_spec != 1 and not (
                ("shield" in mine[2:3] or "shield" in mine[4:5]) and _throws_contact(theirs[1:2])):
            theirs = (1, *theirs[1:])
        return _leader_step(mine, theirs, traitor, my_index)
    folded_mine = _folded(mine_spec, theirs_spec, my_index, _throws_contact(mine[1:2] + mine[3:4]),
                          _shielded(theirs_spec, theirs[2:3]))
    folded_theirs = _folded(theirs_spec, mine_spec, 1 - my_index, _throws_contact(theirs[1:2]),
                            _shielded(mine_spec, mine[2:3] + mine[4:5]))
    if folded_mine is not mine_spec:
        mine = (folded_mine, *mine[1:])
    if folded_theirs is not theirs_spec:
        theirs = (folded_theirs, *theirs[1:])
    return _leader_step(mine, theirs, traitor, my_index)


def _folded(spec: object, foe: object, side: int, contact: bool, shielded: bool) -> object:
    """A leader-step spec as :func:`_fates` folds it on side ``side`` facing the spec ``foe``: a strength where the
    step reads nothing of the leader but his strength (:func:`_as_strength`), 1 where it does not read that either
    (``contact``: he throws a contact projectile; ``shielded``: at a shield), else the spec itself."""
    spec = _as_strength(spec, foe, side)
    if type(spec) is int:
        return 1 if not (contact and shielded) else spec
    return spec


def _throws_contact(attacks: tuple) -> bool:
    """Whether one of these attacks acts as a contact projectile (the card, or a built-in acting as one)."""
    for attack in attacks:
        if attack is not None and BUILT_IN_ACTS_AS.get(attack, attack) == "projectile-contact":
            return True
    return False


def _shielded(spec: object, defences: tuple) -> bool:
    """Whether a contact projectile aimed at this side may meet a shield: a Shield card among its defences, or a
    leader whose step powers are not known to be plain (he may wear one, leaders.md K-8)."""
    return "shield" in defences or (type(spec) is tuple and len(spec) == 3)


#: Kinds of leader entries the leader step never reads (wheel values, army values and bounties are counted after
#: it, LC-6, LC-8; Voices, prescience, trances and pre-battle entries act before the wheels; EXCLUSIVE at the draft;
#: K-18 avoidance at B8 and the K-19 buy-off at B5, apart from the step; the K-6 card slots admit cards the plan
#: then holds, which is what the step reads; K-22 mobility outside battles)
_NOT_IN_STEP = frozenset({"WHEEL_VALUE", "WHEEL_MODIFIER", "TROOPS_WORTH_ONE", "ARMY_BONUS", "VOICE", "PRESCIENCE",
                          "TRUTH_TRANCE", "PRE_BATTLE", "BOUNTY", "EXCLUSIVE", "ALLIANCE_INSTEAD_OF_BATTLE", "BUY_OFF",
                          "CARD_SLOTS", "MOBILITY"})
#: The K-17 POST_BATTLE actions that decide a death in the leader step (the regen d10 decides none)
_DECIDING_POST_BATTLE = ("blast", "spare")
#: The K-17 POST_BATTLE actions the leader step reads (:func:`dunenb.battle.resolve._scene`: blast, spare, regen)
_STEP_POST_BATTLE = (*_DECIDING_POST_BATTLE, "regen_dialled")


@lru_cache(maxsize=1024)
def _opponent_words(spec: object) -> tuple[Word, ...]:
    """The condition words on the opposing House or leader (``vs HOUSE``, ``opp ...``: leaders.md LC-4) of the
    entries the leader step reads of a leader-step spec's leader, and the targets of his K-9 rules
    (:data:`RULE_TARGETS`: Alia's Snooper against a Harkonnen leader): all the step reads of the opposing leader
    besides his cards and strength (none for Tyekanik's and Edric's worn shields; Yueh's KILL vs Harkonnen and
    Margot's DISARM against Feyd-Rautha give theirs). Empty for no leader or a strength. The House and main-leader
    powers the step reads (``leader.weapons``, ``leader.immune``: TLEILAX-M1, ATREIDES-M1) act on their holder's own
    leader by his own facts (:func:`dunenb.battle.powers.immune_to`), never by the opponent's (issue 14 item 6,
    stop 31)."""
    if not isinstance(spec, tuple):
        return ()
    found: list[Word] = []
    leader = leader_of(spec[0], spec[1])
    for power in (*leader.powers, *inheritable(leader)):
        if read_by_step(power):
            _collect_words(power.effect, found)
    return tuple(dict.fromkeys(found))


def read_by_step(power: Power) -> bool:
    """Whether the leader step reads this leader entry: not one of :data:`_NOT_IN_STEP`, not a main power (which
    acts in the step only through the House hooks, ``leader.weapons`` and ``leader.immune``), and for a K-17
    POST_BATTLE entry, one of the actions of :data:`_STEP_POST_BATTLE`.

    >>> from dunenb.battle.roster import load_roster
    >>> [read_by_step(power) for power in load_roster().find("Chani", house="fremen").powers]  # F02-d: DISARM
    [False, False, False, True]
    """
    if power.kind in _NOT_IN_STEP or power.kind == "MAIN_POWER":
        return False
    return power.kind != "POST_BATTLE" or action_of(power)[0] in _STEP_POST_BATTLE


def _collect_words(found: object, words: list[Word]) -> None:
    """Add to ``words`` the opposing-side condition words held anywhere in a leader effect (its dataclass fields,
    tuples and the condition of a K-9 rule named in :data:`RULE_TARGETS`)."""
    for leaf in effect_leaves(found):
        if isinstance(leaf, Word):
            if leaf.kind in ("vs", "opp"):
                words.append(leaf)
        elif isinstance(leaf, str):
            if leaf in RULE_TARGETS:
                _collect_words(parse_condition(RULE_TARGETS[leaf]), words)
            elif _NAMES_A_SIDE.search(leaf):
                words.append(_READS_ALL)  # a condition left as text (a K-17 trigger): it may read anything of him


def effect_leaves(found: object) -> Iterator[object]:
    """The condition words, strings and other atoms held anywhere in a leader effect (its dataclass fields, tuples
    and lists), depth first in field order; a :class:`Word` is one leaf."""
    if isinstance(found, (tuple, list)):
        for item in found:
            yield from effect_leaves(item)
    elif dataclasses.is_dataclass(found) and not isinstance(found, (type, Word)):
        for field in dataclasses.fields(found):
            yield from effect_leaves(getattr(found, field.name))
    else:
        yield found


#: Words of a condition left as text that name the opposing side (leaders.md §1: ``opp``, ``vs``, ``victim``)
_NAMES_A_SIDE = re.compile(r"\b(opp|vs|victim)\b")
#: The word standing for a condition on the opponent that is not parsed: no stand-in answers it as he does
_READS_ALL = Word("opp", "*")


@lru_cache(maxsize=4096)
def _unread(words: tuple[Word, ...], spec: object) -> bool:
    """Whether the leader of a 4-item spec (:func:`_fate_leader`) answers each of an opponent's ``words`` as a
    leader known only by his strength does (no House, id, sex or set: :func:`inline_leader`), so that the
    opponent's step entries cannot tell them apart (leaders.md LC-4; Chani's DISARM names Paul: any other leader
    facing her may step as his strength)."""
    if not words:
        return True
    assert isinstance(spec, tuple)
    leader = leader_of(spec[0], spec[1])
    stand_in = inline_leader("them", leader.strength)
    for word in words:
        if word is _READS_ALL:
            return False
        if word.kind == "vs":
            if spec[0] == word.arg:
                return False
        elif opponent_is(word.arg, leader) != opponent_is(word.arg, stand_in):
            return False
    return True


#: issue 14 item 4: :func:`_fates` is a function of its arguments alone (its folds, then the cached leader step), and a
#: plan menu asks it again for every plan with the same cards against the same opposing configuration: the same
#: answer, kept (bounded).
_cached_fates = lru_cache(maxsize=1 << 16)(_fates)


@lru_cache(maxsize=4096)
def _fate_leader(house: str, leader: Leader, blocked: frozenset[str]) -> tuple:
    """How the leader step sees ``leader``: (house, key, blocked powers, sorted) when a power changes who dies
    (``leader.immune``: ATREIDES-M1; ``leader.weapons``: TLEILAX-M1, unless a Karama blocks it; K-8 worn shields,
    K-9 rules, K-10 immunities, K-14 KILLs), else (house, key, blocked powers, base strength), stepping as his
    strength where no entry of either side can tell him from a leader known by it alone (:func:`_as_strength`;
    issue 14 item 6, stop 31: before, a leader without step powers was his bare strength, which the opposing
    entries naming a House or a leader could not see); the key is the one ``house`` holds him under (``"owner:id"``
    for a captive).

    Issue 14 item 4: the blocked powers are given as a sorted tuple of their IDs, not the frozenset: two specs are
    equal exactly when the sets are, and a spec of strings alone is not tracked by the garbage collector, nor are
    the leader-step cache keys holding it (tens of thousands in a few bot games, walked by every full
    collection); :func:`_wheel_leader` turns it back into the set.

    Issue 14 item 4: a K-6 entry that only lets a second attack or defence card onto the wheel (the arsenal's
    ``extra_attack_card``, ``distinct``, ``extra_defence_card``: Piter, Hasimir, Hwi Noree), or a K-7 one that lets
    a built-in into a slot (``extras``, ``in_slot``: Feyd-Rautha's Kindjal, Murbella's karate) changes nothing in
    the leader step, which reads the weapons the plan holds, not what admitted them (those fields are read by the
    plan checks, :func:`dunenb.battle.leader_weapons.check_slots`, and the outcome's report, ``used_powers``):
    such a leader is given as (house, key, blocked powers, base strength) too."""
    arms = builtin_weapons((house, ""), (leader, None), (blocked, frozenset()))[0]
    kit = None
    if not (arms or immune_to(leader) or changes_leader_step(leader, house)):  # K-10 attacks, K-14 KILL
        kit = arsenal(leader, house, blocked)  # leaders.md K-6..K-9
    key = leader.id if leader.house in (None, house) else f"{leader.house}:{leader.id}"  # a captive (GAP-19 keys)
    if kit is not None and not _steps_arsenal(kit):
        return house, key, tuple(sorted(blocked)), leader.strength
    return house, key, tuple(sorted(blocked))


def _steps_arsenal(found: Arsenal) -> bool:
    """Whether an arsenal holds an entry the leader step reads: a worn shield (K-8) or a rule (K-9); not the K-6
    permissions for a second card nor the K-7 ones for a built-in beside the cards or in the attack slot, which
    the plan then holds as its own weapon (issue 14 item 4, see :func:`_fate_leader`)."""
    return bool(found.shields or found.rules)


@lru_cache(maxsize=4096)  # issue 14 item 4: one leader record per spec (an inline leader is built once)
def _wheel_leader(spec: object, name: str) -> tuple[Leader | None, str, frozenset[str]]:
    """The leader, side name and blocked powers of a leader-step spec (None, a strength, or (house, id, blocked)
    and perhaps his strength). The leader is the roster's: a power passed for good (leaders.md K-24 D02-d,
    GAP-146) is left out, which the step cannot tell, as no power that passes is of a kind it reads (the Weapon is
    TROOPS_WORTH_ONE, counted with the armies through :meth:`Fighters.leader`; tests/test_bot_speed.py)."""
    if spec is None:
        return None, name, frozenset()
    if isinstance(spec, tuple):
        house, lid, blocked = spec[:3]  # a fourth item: his strength (:func:`_fate_leader`), read by _fates
        return leader_of(house, lid), house, frozenset(blocked)  # the set again (:func:`_fate_leader`)
    return inline_leader(name, int(spec)), name, frozenset()  # type: ignore[call-overload]


_NO_DIAL, _NO_TOKENS = Dial(), WheelTokens()  # the leader step reads neither dial nor tokens


@lru_cache(maxsize=4096)  # issue 14 item 4: a side meets many opposing sides; it is built once
def _step_side(house: str, leader: Leader | None, weapon: str | None, defence: str | None, extra_attack: str | None,
               extra_defense: str | None, traitors: frozenset[str], blocked: frozenset[str]) -> BattleSide:
    """One side of :func:`_leader_step`'s battle: its leader and cards (no dial, no tokens: the step reads neither)."""
    plan = BattlePlan(_NO_DIAL, leader, weapon, defence, extra_attack=extra_attack, extra_defense=extra_defense)
    return BattleSide(house, _NO_TOKENS, plan, traitors=traitors, blocked=blocked)


@lru_cache(maxsize=1 << 16)
def _leader_step(mine: tuple, theirs: tuple, traitor: bool, my_index: int) -> tuple[tuple[float, bool, bool, str], ...]:
    """(probability, my leader dead, their leader dead, branch) of the leader step, branch one of ``normal``,
    ``explosion``, ``treachery`` (the bot calls its traitor). ``mine``/``theirs`` are (leader, weapon, defence),
    the leader ``None``, a strength or (house, id, blocked powers[, strength]) (:func:`_fate_leader`)."""
    (my_leader, my_house, my_blocked) = _wheel_leader(mine[0], "me")
    (their_leader, their_house, their_blocked) = _wheel_leader(theirs[0], "them")
    extras = tuple(mine[3:5]) + (None,) * (5 - len(mine))  # leaders.md K-6/K-7: the extra attack and defence
    called = frozenset({their_leader.id}) if traitor and their_leader is not None else frozenset()
    sides = [_step_side(my_house, my_leader, mine[1], mine[2], extras[0], extras[1], called, my_blocked),
             _step_side(their_house, their_leader, theirs[1], theirs[2], None, None, frozenset(), their_blocked)]
    ordered = (sides[0], sides[1]) if my_index == 0 else (sides[1], sides[0])
    result = []
    for probability, fates in fates_distribution(Battle("arena", ordered[0].house, ordered)):
        dead = fates.dead if my_index == 0 else fates.dead[::-1]
        branch = "explosion" if fates.explosion else ("treachery" if fates.traitor_called_by else "normal")
        # issue 14 item 4: numerator / denominator is float(probability) itself (numbers.Rational.__float__)
        result.append((probability.numerator / probability.denominator, dead[0], dead[1], branch))
    return tuple(result)


@dataclass(frozen=True)
class Opposition:
    """The opposing plans considered: ``configs`` are (weight, leader strength or None, weapon, defence, whether
    the bot holds that leader as a traitor, the leader's id or None); ``dials`` are (weight, army value, army
    value with every token worth 1: leaders.md K-4) of its menu dials."""

    configs: tuple[tuple[float, int | None, str | None, str | None, bool, str | None], ...]
    dials: tuple[tuple[float, float, float], ...]


@dataclass(frozen=True)
class Fighters:
    """What the battle hooks of :mod:`dunenb.battle.powers` need, from the bot's view: the two Houses (the bot's
    first), whether the bot defends, and per side the dead leaders and the powers a Karama blocks."""

    houses: tuple[str, str]
    defender: bool
    dead: tuple[frozenset[str], frozenset[str]]
    blocked: tuple[frozenset[str], frozenset[str]]
    #: the battle's territory and the Shield Wall, for the terrain conditions (leaders.md LC-3/LC-4)
    territory: str = ""
    shield_wall_standing: bool = True
    #: leaders.md K-24 D02-d (GAP-134, GAP-146): the game's record of powers passed for good (Logno's Weapon)
    passed: tuple[tuple[str, str, str], ...] = ()

    def leader(self, side: int, leader_id: str) -> Leader:
        """The leader ``leader_id`` of side ``side`` (0: the bot) as he fights: the roster's, with the powers
        passed to him or from him (:func:`dunenb.rules.leader_inherit.with_passed`, GAP-146)."""
        return with_passed(self.passed, leader_of(self.houses[side], leader_id))

    def armies(self, mine: str | None, theirs: str | None) -> tuple[tuple[bool, float], tuple[bool, float]]:
        """Per side (the bot's first), whether its tokens are all worth 1 (leaders.md K-4 TROOPS_WORTH_ONE) and its
        army bonus (K-5 ARMY_BONUS), as the resolver counts them (``side_army_value``)."""
        values = _pair_sides(self, mine, theirs)
        return ((values[0].troops_worth_one, float(values[0].army_bonus)),
                (values[1].troops_worth_one, float(values[1].army_bonus)))

    def values(self, mine: str | None, theirs: str | None) -> tuple[float, float]:
        """The wheel values (``leader.value``) of the bot's leader ``mine`` and the opposing ``theirs`` (ids or
        None) against each other, as the resolver counts them."""
        return _pair_values(self, mine, theirs)

    def shelter(self, mine: str | None, theirs: str | None) -> int | None:
        """leaders.md S-4 (EMPEROR-L03-c, GAP-133): the side (0: the bot) whose leader an explosion here spares,
        by the resolver's own test (:func:`dunenb.battle.leader_shelter.sheltered`), or ``None``."""
        return _pair_shelter(self, mine, theirs)

    def fate(self, side: int, leader_id: str | None) -> object:
        """The leader-step spec of a leader of side ``side`` (0: the bot) (:func:`_fate_leader`)."""
        if leader_id is None:
            return None
        return _fate_leader(self.houses[side], self.leader(side, leader_id), self.blocked[side])


# issue 14 item 4: the pair caches repeat within one decision (one Fighters); 512 entries keep those hits (ten bot
# games: 2,319 at 512 and at 4,096) without keeping the facts of thousands of past decisions, which every full
# garbage collection walked (32,000 objects at 4,096)
@lru_cache(maxsize=512)
def _pair_values(facts: Fighters, mine: str | None, theirs: str | None) -> tuple[float, float]:
    values = _pair_sides(facts, mine, theirs)
    return float(values[0].leader_value), float(values[1].leader_value)


@lru_cache(maxsize=512)
def _pair_sides(facts: Fighters, mine: str | None, theirs: str | None) -> tuple[SideValues, SideValues]:
    leaders = (None if mine is None else facts.leader(0, mine), None if theirs is None else facts.leader(1, theirs))
    # the resolver's values (LC-6), in the battle's territory: WHEEL_VALUE(4 | Gara Kulon)... (LC-3, LC-4)
    values = battle_values(facts.houses, leaders, 0 if facts.defender else 1, territory=facts.territory,
                           dead=facts.dead, blocked=facts.blocked, shield_wall_standing=facts.shield_wall_standing)
    return values[0], values[1]


# ---- leaders.md S-4 (EMPEROR-L03-c Burseg, GAP-133): an explosion the resolver gives to the sheltered side
@lru_cache(maxsize=512)
def _pair_shelter(facts: Fighters, mine: str | None, theirs: str | None) -> int | None:
    leaders = (None if mine is None else facts.leader(0, mine), None if theirs is None else facts.leader(1, theirs))
    found = leader_shelter.sheltered(facts.houses, leaders, facts.blocked, facts.territory)  # read at the call
    return None if found is None else found[0]


def fighters(state: GameState, house: str, opponent: str, ctx: BattleContext) -> Fighters:
    """The battle facts of ``house`` against ``opponent`` that its view ``state`` holds (public: the tanks, the
    Karamas played, who defends)."""
    return Fighters((house, opponent), house == ctx.defender, (own_dead(state, house), own_dead(state, opponent)),
                    (blocked_in_battle(state, house), blocked_in_battle(state, opponent)), ctx.area,
                    state.shield_wall_standing, state.powers_passed)


def voided_opponents(facts: Fighters, opp: Opposition) -> Fighters:
    """LC-11 b (GAP-122): the facts once a Karama hidden on the bot's wheel voids the opposing secondary leader's
    powers, whoever he is (each power ID belongs to one leader, so the powers of every leader it may face are
    blocked at once)."""
    powers = frozenset(power for *_rest, lid in opp.configs if lid is not None
                       for power in voidable_powers(facts.leader(1, lid)))
    return dataclasses.replace(facts, blocked=(facts.blocked[0], facts.blocked[1] | powers))


def opposition(state: GameState, house: str, opponent: str, ctx: BattleContext) -> Opposition:
    """The plausible opposing plans, from what ``house`` may know (``state`` should be its view): what its Voice
    forbade (BG-P1) and what its prescience answer said (ATREIDES-P1) are left out (:func:`_obeys`)."""
    tokens = arena_tokens(state, opponent, ctx.area, ctx.sectors)
    dials = menu_dials(tokens, state.houses[opponent].spice)
    weights = DIAL_WEIGHTS[:len(dials)]
    dial_odds = tuple((w / sum(weights), _army(r, m, s), _army(0, r + m, s))  # issue 14 item 4: kept floats
                      for w, (r, m, s) in zip(weights, dials, strict=True))
    ids = available_leaders(state, opponent, ctx.area, ctx.committed)
    # GAP-79: a leader disclosed before the plans (ATREIDES-M2) must lead (leaders.md S-3, GAP-142: or as Alma)
    ids = alias.bound((shown.leader for shown in ctx.shown if shown.house == opponent), ids)
    facts = fighters(state, house, opponent, ctx)  # its strongest by wheel value, powers included
    ranked = sorted(ids, key=lambda lid: (-facts.values(None, lid)[1], -leader_of(opponent, lid).strength))[
        :len(LEADER_WEIGHTS)]
    if not ranked:
        return Opposition(((1.0, None, None, None, False, None),), dial_odds)
    leader_odds = [w / sum(LEADER_WEIGHTS[:len(ranked)]) for w in LEADER_WEIGHTS[:len(ranked)]]
    unseen = unseen_cards(state, house)
    size = len(state.houses[opponent].hand)
    weapons, defences = card_odds(unseen, size, WEAPON_CARDS), card_odds(unseen, size, DEFENCE_CARDS)
    built_in = own_weapons(state, opponent)  # DISPERSION-P1: with no weapon card it still has karate (G-4)
    if built_in:
        weapons = [(p, built_in[0] if w is None else w) for p, w in weapons]
    configs = []
    for lw, lid in zip(leader_odds, ranked, strict=True):
        traitor = may_call(state, house, opponent, lid)
        strength = leader_of(opponent, lid).strength
        configs += [(lw * pw * pd, strength, w, d, traitor, lid) for pw, w in weapons for pd, d in defences
                    if _obeys(ctx, house, w, d)]
    total = sum(c[0] for c in configs)
    if not total:  # what it knows rules out every guess (e.g. a card it has not seen): keep the plain guess
        return opposition(state, house, opponent, dataclasses.replace(ctx, sequence=None))
    return Opposition(tuple((c[0] / total, *c[1:]) for c in configs), dial_odds)


def _obeys(ctx: BattleContext, house: str, weapon: str | None, defence: str | None) -> bool:
    """Whether an opposing (weapon, defence) fits what ``house`` knows: its Voices' forbidden kinds are absent
    (BG-P1, ATREIDES-M2), and the slot it asked about shows the answered kind (ATREIDES-P1, GUILD-M2; a hidden
    answer tells nothing). A Karama hidden on the opposing wheel (GAP-80) is not guessed at."""
    seq = ctx.sequence
    if seq is None:
        return True
    kinds = {card_kind(c) for c in (weapon, defence) if c not in (None, "worthless")}
    if any(v.by == house and v.mode == "forbid" and v.kind in kinds for v in seq.voices):
        return False
    for question, answer in zip(seq.questions, seq.answers, strict=False):
        if question.by == house and answer.kind != "hidden":
            card = weapon if question.slot == "attack" else defence
            if (None if card in (None, "worthless") else card_kind(card)) != answer.kind:
                return False
    return True


def battle_stakes(state: GameState, house: str, area_id: str) -> float:
    """What winning the territory is worth to ``house``, in tokens (design): a city or Sietch counts for
    victory (VICTORY-1) and may pay a tax (TAX-1); a desert for its spice; anything else little.

    >>> from dunenb.engine import new_game
    >>> battle_stakes(new_game(["atreides", "harkonnen"], seed=1), "atreides", "arrakeen")
    10.0
    """
    area = load_board().area(area_id)
    if area.is_settlement:
        return 8.0 + TAX_SETTLEMENTS.get(area_id, 0)
    if area.kind == "desert":
        return 1.0 + SPICE_VALUE * min(state.spice_on_map.get(area_id, 0), 12)
    return 1.0


def _situations(opp: Opposition, mine: tuple, my_index: int, facts: Fighters | None = None,
                my_leader: str | None = None, per_leader: dict | None = None) -> dict[tuple, float]:
    """Merge the opposing configurations into (branch, my leader dead, their leader's value if alive,
    bounty for me, my leader's value, the two sides' armies: :meth:`Fighters.armies`) -> probability. With
    ``facts`` the values, the armies and the leader step are those of the battle hooks (:class:`Fighters`);
    without, base strengths and plain armies. ``per_leader``: a dict kept by the caller for these ``facts`` and
    ``opp`` (issue 14 item 4: what each opposing configuration brings against ``my_leader``, :func:`_rows`, is
    looked up once per plan menu, not once per plan of it; the rows are the same lookups)."""
    merged: dict[tuple, float] = {}
    # issue 14 item 4: the bot's own leader-step spec is the same for every opposing configuration, and the
    # values and spec of each opposing leader are the same for all his cards (looked up once per leader)
    rows = None if facts is None or per_leader is None else per_leader.get(my_leader)
    if rows is None:
        rows = _rows(opp, mine, facts, my_leader, my_index)
        if facts is not None and per_leader is not None:
            per_leader[my_leader] = rows
    steps: dict[object, tuple] = {}  # the bot's leader-step side per spec its rows give (:func:`_pair_specs`)
    for weight, strength, theirs, traitor, mine_value, their_value, armies, shelter, mine_spec in rows:
        if facts is None:
            step_mine = mine
        else:
            kept = steps.get(mine_spec)
            if kept is None:
                kept = steps[mine_spec] = (mine_spec, *mine[1:])
            step_mine = kept
        for probability, my_dead, their_dead, branch in _cached_fates(step_mine, theirs, traitor, my_index):
            if branch == "explosion" and shelter == 0:
                branch, my_dead = SHELTERED, False  # S-4: the bot's side wins it, its leader lives
            alive = 0 if strength is None or their_dead else their_value
            if branch == "treachery":
                bounty = strength if their_dead else 2  # TRAITOR-10
            else:
                bounty = strength if (their_dead and branch in ("normal", SHELTERED) and strength is not None) else 0
            key = (branch, my_dead, alive, bounty, mine_value, armies)
            merged[key] = merged.get(key, 0.0) + weight * probability
    return merged


def _rows(opp: Opposition, mine: tuple, facts: Fighters | None, my_leader: str | None,
          my_index: int = 0) -> list[tuple]:
    """Per opposing configuration, what :func:`_situations` reads besides the leader step: (weight, strength,
    the opposing leader-step side, traitor, my leader's value, theirs, the armies, the side an explosion spares).
    With ``facts`` it depends on ``my_leader`` (not on the bot's cards); without, on ``mine[0]``."""
    rows = []
    pairs: dict[str | None, tuple] = {}
    my_spec = None if facts is None else facts.fate(0, my_leader)
    for weight, strength, weapon, defence, traitor, lid in opp.configs:
        theirs: tuple = (strength, weapon, defence) if strength is not None else (None, None, None)
        mine_value, their_value = float(mine[0] or 0), float(strength or 0)
        armies = PLAIN_ARMIES
        shelter = None
        mine_spec = None
        if facts is not None:
            found = pairs.get(lid)
            if found is None:
                stepping = _pair_specs(my_spec, None if strength is None else facts.fate(1, lid), my_index)
                found = pairs[lid] = (*facts.values(my_leader, lid),
                                      facts.armies(my_leader, lid),  # leaders.md K-4, K-5 (K-24 D02-d too)
                                      stepping[1],
                                      facts.shelter(my_leader, lid),  # leaders.md S-4 (GAP-133)
                                      stepping[0])
            mine_value, their_value, armies, spec, shelter, mine_spec = found
            if strength is not None:
                theirs = (spec, weapon, defence)
        rows.append((weight, strength, theirs, traitor, mine_value, their_value, armies, shelter, mine_spec))
    return rows


@lru_cache(maxsize=4096)
def _pair_specs(mine: object, theirs: object, my_index: int) -> tuple[object, object]:
    """The two leaders' leader-step specs with each 4-item spec (:func:`_fate_leader`) given as his strength where
    the other side's entries cannot tell him from a stand-in known by his strength (:func:`_inert`,
    :func:`_unread`): the part of :func:`_fates`'s fold that does not depend on the cards, made once per pair of
    leaders (issue 14 item 4: the kept leader steps of leaders of the same strength are then shared again); the
    same leader steps, as :func:`_fates` folds a strength as it folds such a spec."""
    return _as_strength(mine, theirs, my_index), _as_strength(theirs, mine, 1 - my_index)


def _as_strength(spec: object, foe: object, side: int) -> object:
    """A 4-item spec (:func:`_fate_leader`) on side ``side`` as his strength where neither his entries nor those of
    the opposing spec ``foe`` can tell him from a stand-in known by his strength (:func:`_inert`, :func:`_unread`);
    any other spec as it is."""
    if type(spec) is tuple and len(spec) == 4 and _unread(_opponent_words(foe), spec) and _inert(spec, foe, side):
        return spec[3]
    return spec


@lru_cache(maxsize=4096)
def _inert(spec: tuple, foe: object, side: int) -> bool:
    """Whether no entry of a 4-item spec's leader that decides a death in the leader step acts in the planner's
    battle (:func:`_leader_step`: the "arena", side 0 defending) against the leader of ``foe``, by the resolver's own
    test (:func:`dunenb.battle.leader_powers.acting`): a K-3 DISARM (on himself or the opponent) and the K-17 blast
    and spare entries. His other step entries cannot act: a 4-item leader has no K-8/K-9 arsenal entry, K-10 attack
    immunity nor K-14 KILL (:func:`_fate_leader`), and a K-17 regen d10 decides no death. A leader with no such entry
    is inert against everyone (Fiona, Feyd-Rautha); Chani's DISARM acts against Paul only (FREMEN-L02-d)."""
    if not _deciding_entries(spec):
        return True
    leader, house, blocked = _wheel_leader(spec, "me")
    foe_leader, foe_house, foe_blocked = _wheel_leader(foe, "them")
    leaders = (leader, foe_leader) if side == 0 else (foe_leader, leader)
    scene = Scene.of("arena", (house, foe_house) if side == 0 else (foe_house, house), leaders, defender=0,
                     blocked=(blocked, foe_blocked) if side == 0 else (foe_blocked, blocked))
    if acting(scene, side, "DISARM"):
        return False
    return not any(action_of(power)[0] in _DECIDING_POST_BATTLE for power in acting(scene, side, "POST_BATTLE"))



@lru_cache(maxsize=1024)
def _deciding_entries(spec: tuple) -> bool:
    """Whether a spec's leader holds (or may inherit) a DISARM (:func:`dunenb.battle.powers.may_disarm`) or a K-17
    blast or spare entry (:func:`_inert`)."""
    leader = leader_of(spec[0], spec[1])
    return may_disarm(leader) or any(power.kind == "POST_BATTLE" and action_of(power)[0] in _DECIDING_POST_BATTLE
                                     for power in (*leader.powers, *inheritable(leader)))


def trance_told(state: GameState, house: str, opponent: str, leader_id: str) -> bool | None:
    """What ``house``'s truth-trance answers of this turn say about ``opponent`` holding ``leader_id`` as a traitor
    (CARD-TRUTH-1: the answers are true; BG-M1 trances too): ``True`` / ``False``, or ``None`` when no answer
    tells. "Is my leader X your traitor?" tells about X; a "no" to "Do you hold a traitor among my leaders?"
    tells about all of them. Slips change only when the Harkonnen draw a new traitor (HARKONNEN-M1, at the end
    of the battle step), so an answer of this turn still holds at its battle-plan decisions."""
    for turn, target, question, subject, answer in reversed(state.houses[house].trance_answers):
        if turn != state.turn or target != opponent:
            continue
        if question == "traitor-is" and subject == leader_id:
            return answer
        if question == "traitor-among-mine" and not answer:
            return False
    return None


def trance_to_ask(state: GameState, house: str, actions: Sequence[Action]) -> Action | None:
    """BG-M1: the truth trance the bot asks before its battle plan, if one is worth it: a trance of a power (no
    card spent), "Is my leader X your traitor?" to the opponent for the strongest leader whose betrayal is in
    doubt (0 < odds < 1); ``None`` otherwise (the bot keeps a truth-trance card for later)."""
    asks = [a for a in actions if isinstance(a, AskTruthTrance) and a.means != TRUTH_TRANCE
            and a.question == "traitor-is"]
    if not asks:
        return None
    seen = guess(view(state, house))  # GAP-139: a hidden captive (FAQ 17) as the view can guess him
    opponent = context_of(seen).opponent(house)
    doubtful = [a for a in asks if a.target == opponent and 0.0 < betrayal_odds(seen, house, opponent, a.subject) < 1.0]
    if not doubtful:
        return None
    return max(doubtful, key=lambda a: (leader_of(house, a.subject).strength, a.subject))


def betrayal_odds(state: GameState, house: str, opponent: str, leader_id: str) -> float:
    """The chance that ``opponent`` holds ``house``'s leader on a slip, as far as ``house`` can tell from the number
    of slips (TRAITOR-4: visible) over the leaders who may be drawn (TRAITOR-1: not main leaders, not the
    opponent's own); 0 for a main leader (G-7).

    >>> from dunenb.engine import new_game
    >>> betrayal_odds(new_game(["atreides", "harkonnen"], seed=1), "atreides", "harkonnen", "paul")
    0.0
    """
    leader = leader_of(house, leader_id)
    if leader.main or leader.never_traitor or opponent in leader.never_traitor_of:
        return 0.0
    told = trance_told(state, house, opponent, leader_id)  # CARD-TRUTH-1, BG-M1: an answer of this turn
    if told is not None:
        return 1.0 if told else 0.0
    pool = [ref for ref in traitor_pool(state) if ref[0] != opponent]
    slips = len(state.houses[opponent].traitors)
    return min(1.0, slips / len(pool)) if pool else 0.0


def plan_values(state: GameState, plans: Sequence[Action], house: str | None = None) -> list[float]:
    """The expected value (in tokens) of each candidate ``plan`` action of the House to act."""
    assert state.pending is not None
    house = house or state.pending.actor
    seen = guess(view(state, house))  # GAP-139: a hidden captive (FAQ 17) as the view can guess him
    ctx = context_of(seen)
    opponent = ctx.opponent(house)
    my_index = 0 if house == ctx.defender else 1
    defender = my_index == 0
    opp = opposition(seen, house, opponent, ctx)
    facts = fighters(seen, house, opponent, ctx)  # the battle hooks, from public facts only
    acting = acting_main_leader(seen, house)  # G-7: a successor in place costs what a main leader costs
    mine_all = arena_tokens(seen, house, ctx.area, ctx.sectors).total
    stakes = battle_stakes(seen, house, ctx.area)
    blockable = wheel_karama_power(opponent) is not None  # KARAMA-45: its treachery can be blocked on the wheel
    memo: dict[tuple, list[tuple]] = {}
    betrayals: dict[str, float] = {}
    # issue 14 item 4: what repeats between the plans of one menu is worked out once: each choice of leader and
    # cards (dialled many ways), the facts once a Karama voids the opposing leader (the same Fighters every time),
    # each opposing leader's values against each of the bot's leaders (per facts) and the chance to win a normal
    # battle of given armies against the opposing dials (same dials, same defender: the same loop, the same float)
    choices: dict[tuple, tuple] = {}
    voided: Fighters | None = None
    per_leader: tuple[dict, dict] = ({}, {})
    tails: dict[tuple, dict[float, float]] = {}
    by_dial: dict[tuple[int, int, int], tuple] = {}
    values = []
    for plan in plans:
        if not isinstance(plan, SubmitPlan):  # a truth trance offered at the same node (GAP-56): the bot keeps the card
            values.append(NOT_A_PLAN)
            continue
        against = getattr(plan, "against", NONE)
        choice = (plan.leader, plan.weapon, plan.defense, plan.extra_attack, plan.extra_defense, against)
        known = choices.get(choice)
        if known is None:  # issue 14 item 4: what a plan's leader and cards give is worked out once per choice
            leader = None if plan.leader in (NONE, "") else leader_of(house, plan.leader)
            weapon = None if plan.weapon == NONE else plan.weapon
            defence = None if plan.defense == NONE else plan.defense
            extra_attack = None if plan.extra_attack == NONE else plan.extra_attack  # leaders.md K-6, K-7
            extra_defense = None if plan.extra_defense == NONE else plan.extra_defense
            mine = (None if leader is None else leader.strength, weapon, defence, extra_attack, extra_defense)
            # issue 14 item 4: a worthless card is the empty slot to the leader step (CARD-WORTHLESS-1, the fold of
            # _fates) and the situations read the cards nowhere else: such plans share the situations
            key = (plan.leader, *(None if card == "worthless" else card for card in mine[1:]),
                   is_leader_use(against))
            if key not in memo:  # the situations depend on the leader (his values and powers), not on the dial
                if key[-1] and voided is None:
                    voided = voided_opponents(facts, opp)
                memo[key] = _situation_rows(_situations(opp, mine, my_index, voided if key[-1] else facts,
                                                        None if leader is None else plan.leader,
                                                        per_leader[bool(key[-1])]), tails)
            known = choices[choice] = (
                leader, weapon, memo[key],
                0.0 if leader is None else leader_value(leader.strength, leader.main or plan.leader == acting),
                card_value(weapon) + card_value(defence) + card_value(extra_attack) + card_value(extra_defense))
        leader, weapon, rows, leader_loss, cards_cost = known
        dial = (plan.regular, plan.marked, plan.spice)
        found = by_dial.get(dial)
        if found is None:  # issue 14 item 4: what a dial gives is worked out once per dial
            dialled = plan.regular + plan.marked
            found = by_dial[dial] = (
                (_army(plan.regular, plan.marked, plan.spice), _army(0, dialled, plan.spice)),  # K-4: every token 1
                # a territory won with every token dialled is left empty (BATTLE-10): only the denial is left
                (stakes if dialled < mine_all else EMPTIED_SHARE * stakes) - dialled - SPICE_VALUE * plan.spice,
                -mine_all - SPICE_VALUE * plan.spice)
        my_army, win, lose = found
        value = _fast_plan_value(rows, opp.dials, my_army, defender, leader_loss, cards_cost, stakes, win, lose)
        karama = getattr(plan, "karama", NONE)
        if karama != NONE and getattr(plan, "against", NONE) != NONE:
            value -= KARAMA_VALUE  # GAP-80: hidden against a Voice or an answer, the card is lost (KARAMA-2)
        elif blockable and leader is not None:
            if karama != NONE:  # KARAMA-3: the treachery is blocked; the card is lost (KARAMA-2)
                value -= KARAMA_VALUE
            else:  # TRAITOR-11: betrayed, the bot loses all it has there, the spice and the cards played
                if plan.leader not in betrayals:  # issue 14 item 4: once per leader, not per plan
                    betrayals[plan.leader] = betrayal_odds(seen, house, opponent, plan.leader)
                risk = betrayals[plan.leader]
                value = (1 - risk) * value + risk * (lose - cards_cost)
        if weapon == "atomics":
            value -= ATOMICS_PENALTY
        values.append(value)
    return values


@lru_cache(maxsize=1024)
def _army(regular: int, marked: int, spice: int) -> float:
    """The army value of a dial (WHEEL-2, WHEEL-3) as a float, once per dial (issue 14 item 4)."""
    return float(army_value(Dial(regular, marked, spice)))


def _plan_value(situations: dict[tuple, float], dials: tuple, my_army: tuple[float, float], defender: bool,
                losses: dict[str, float]) -> float:
    """``my_army``: the bot's army value, plainly and with every token worth 1 (leaders.md K-4). The plain
    computation; :func:`plan_values` runs :func:`_fast_plan_value`, equal to it (tests/test_bot_speed.py)."""
    value = 0.0
    for (branch, my_dead, their_alive, bounty, my_strength, armies), probability in situations.items():
        (my_one, my_bonus), (their_one, their_bonus) = armies
        outcome = SPICE_VALUE * bounty - (losses["leader"] if my_dead else 0.0)
        if branch == "explosion":  # CARD-ATOMICS-3, CARD-LASGUN-1: everything there is lost, no winner
            outcome += losses["lose"] - losses["cards"]
        elif branch == SHELTERED:  # S-4 (GAP-133): a win with its dialled tokens lost; every card there is lost
            outcome += losses["win"] - losses["cards"]
        elif branch == "treachery":  # TRAITOR-11: the caller wins and loses nothing
            outcome += losses["stakes"]
        else:
            mine = my_army[my_one] + my_bonus + (0 if my_dead else my_strength)
            won = 0.0
            for weight, theirs, theirs_one in dials:
                total = (theirs_one if their_one else theirs) + their_bonus + their_alive
                won += weight * (mine > total or (mine == total and defender))
            outcome += won * losses["win"] + (1.0 - won) * (losses["lose"] - losses["cards"])
        value += probability * outcome
    return value


_EXPLOSION, _SHELTER, _TREACHERY, _NORMAL = range(4)
_KINDS = {"explosion": _EXPLOSION, SHELTERED: _SHELTER, "treachery": _TREACHERY}


def _situation_rows(situations: dict[tuple, float], tails: dict[tuple, dict[float, float]]) -> list[tuple]:
    """:func:`_plan_value`'s reading of ``situations``, once per plan menu and situations (issue 14 item 4): per
    situation, in order, (branch kind, my leader dead, the bounty's spice value, probability, my armies' index
    and bonus, my leader's value, the opposing armies' facts, and the dict of the chance to win a normal battle
    against them by my army value, shared in ``tails`` by every situation with the same opposing facts)."""
    rows = []
    for (branch, my_dead, their_alive, bounty, my_strength, armies), probability in situations.items():
        (my_one, my_bonus), (their_one, their_bonus) = armies
        tail = (their_one, their_bonus, their_alive)
        rows.append((_KINDS.get(branch, _NORMAL), my_dead, SPICE_VALUE * bounty, probability, my_one, my_bonus,
                     my_strength, tail, tails.setdefault(tail, {})))
    return rows


def _fast_plan_value(rows: list[tuple], dials: tuple, my_army: tuple[float, float], defender: bool, leader: float,
                     cards: float, stakes: float, win: float, lose: float) -> float:
    """:func:`_plan_value` on :func:`_situation_rows` (issue 14 item 4), the ``losses`` given one by one: the same
    operations in the same order, each product the situations share computed once, and the chance to win by
    armies computed once per distinct army values and opposing facts (the same loop over the same dials gives
    the same float)."""
    lost = lose - cards
    won_lost = win - cards
    value = 0.0
    for kind, my_dead, spice_bounty, probability, my_one, my_bonus, my_strength, tail, wins in rows:
        outcome = spice_bounty - (leader if my_dead else 0.0)
        if kind == _EXPLOSION:  # CARD-ATOMICS-3, CARD-LASGUN-1: everything there is lost, no winner
            outcome += lost
        elif kind == _SHELTER:  # S-4 (GAP-133): a win with its dialled tokens lost; every card there is lost
            outcome += won_lost
        elif kind == _TREACHERY:  # TRAITOR-11: the caller wins and loses nothing
            outcome += stakes
        else:
            mine = my_army[my_one] + my_bonus + (0 if my_dead else my_strength)
            won = wins.get(mine)
            if won is None:
                their_one, their_bonus, their_alive = tail
                won = 0.0
                for weight, theirs, theirs_one in dials:
                    total = (theirs_one if their_one else theirs) + their_bonus + their_alive
                    won += weight * (mine > total or (mine == total and defender))
                wins[mine] = won
            outcome += won * win + (1.0 - won) * lost
        value += probability * outcome
    return value


def plan_scores(state: GameState, plans: list[Action]) -> list[float]:
    """Score each candidate ``plan`` action of the House to act: its expected value in tokens
    (:func:`plan_values`); the bot plays the highest."""
    return plan_values(state, plans)
