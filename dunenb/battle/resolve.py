"""Battle resolution as one pure function of the two plans (BATTLE-7 to BATTLE-13, TRAITOR-8 to TRAITOR-12).

:func:`resolve_battle` returns the exact distribution of :class:`BattleOutcome` records: every d10 is a chance
node with ten faces of probability 1/10 (GAP-28b), enumerated unless a side's dice are fixed. The outcome
record says everything the game state needs: per side the tokens lost (regular / marked), the spice paid, the
leader's fate, the cards played, lost and kept, the bounty received; the winner, the explosion, the traitor
calls and whether the whole territory is destroyed.

Order of the reveal (BATTLE-13 f): treachery first, then the leaders' deaths from the cards, bounties, totals
(the defender wins ties), then losses. The House and main-leader powers declared on the ``leader.value`` and
``leader.immune`` hooks apply (:mod:`dunenb.battle.powers`: Dama 12 as attacker, seduction, Paul and the slow
poison), and so do the leaders.md value kinds K-1..K-5, K-10 immunities to attacks and K-14 KILL
(:mod:`dunenb.battle.immunities`).

>>> from dunenb.battle.plans import Battle, BattlePlan, BattleSide
>>> from dunenb.battle.roster import inline_leader
>>> from dunenb.battle.wheel import Dial, Tokens
>>> knife = BattleSide("atreides", Tokens(5), BattlePlan(Dial(2), inline_leader("P1", 5),
...                    weapon="projectile-contact", defense="shield"))
>>> lancet = BattleSide("harkonnen", Tokens(5), BattlePlan(Dial(2), inline_leader("P2", 3),
...                     weapon="projectile-contact", defense="shield"))
>>> dist = resolve_battle(Battle("arrakeen", "atreides", (knife, lancet)))
>>> [(str(p), o.leader_fates) for p, o in dist]          # CARD-SHIELD-2 example 4: both may pass
[('7/20', ('alive', 'dead')), ('7/20', ('alive', 'alive')), ('3/20', ('dead', 'dead')), ('3/20', ('dead', 'alive'))]
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from dunenb.battle.dice_classes import merged_leaves
from dunenb.battle.immunities import attack_protection, kill_may_act, kills
from dunenb.battle.leader_after import (
    REGEN_ACTIVE,
    blast_deaths,
    blasts,
    fired,
    kept_by_loser,
    regen_ids,
    saved_tokens,
    spare_ids,
    spare_price,
    spared,
)
from dunenb.battle.leader_bounty import bounty_for
from dunenb.battle.leader_exchange import exchange_of, exchange_text, may_exchange
from dunenb.battle.leader_karama import with_wheel_karamas
from dunenb.battle.leader_powers import Scene
from dunenb.battle.leader_shelter import sheltered
from dunenb.battle.leader_traits import plan_error, with_reveal_deaths
from dunenb.battle.leader_weapons import (
    Arsenal,
    WornShields,
    arsenal,
    atomics_licensed,
    card_deaths,
    check_slots,
    karama_rule_used,
    used_powers,
)
from dunenb.battle.plans import Battle, BattlePlan, BattleSide, check_plan
from dunenb.battle.powers import (
    battle_values,
    builtin_weapons,
    marked_token_value,
    may_disarm,
    side_army_value,
    slot_weapons,
)
from dunenb.battle.rolls import REGEN, SHIELD_PASS, Roll
from dunenb.battle.roster import Leader, load_roster
from dunenb.battle.wheel import Dial, Tokens
from dunenb.errors import IllegalActionError, InputError
from dunenb.records import evolve

ATOMICS_KIND = "atomics"  # the Voice's kind naming the Atomics card (BG-P1: forced, it makes no outlaw)

#: Spice earned by the caller when the called traitor survives (TRAITOR-10).
TRAITOR_SURVIVES_SPICE = 2
#: Leader fates in an outcome. "captured" (HARKONNEN-P4) happens after the battle and is never produced here.
LEADER_FATES = ("alive", "dead", "none", "captured")
D10 = tuple(range(1, 11))
_NO_DIAL, _NO_TOKENS = Dial(), Tokens()  # what _strip leaves of a side's dial and tokens
ONE_TENTH = Fraction(1, 10)
#: What :func:`dunenb.battle.immunities.kills` answers when no K-14 KILL acts: nobody killed, no power acted.
NO_KILLS: tuple[tuple[bool, bool], tuple[tuple[str, ...], ...]] = ((False, False), ((), ()))


@dataclass(frozen=True)
class Fates:
    """The result of the leader step (BATTLE-13 f1-f2), before totals: who died, and why."""

    dead: tuple[bool, bool]
    explosion: str | None = None            # None, "lasgun-shield" (CARD-LASGUN-1) or "atomics" (CARD-ATOMICS-3)
    traitor_called_by: tuple[int, ...] = ()  # side indices that called "Trahison !" (TRAITOR-9)
    swapped: bool = False                    # traitor against traitor: the leaders changed sides (TRAITOR-12)
    atomics_used_by: tuple[int, ...] = ()    # sides whose Atomics took effect (CARD-ATOMICS-4 sanction)
    blocked_calls: tuple[int, ...] = ()      # sides whose call a Karama on the opposing wheel voided (KARAMA-45)
    # per side, the leader powers that acted in this step (K-14 KILL, K-10 immunities that spared a leader)
    acted: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    # per side, the K-17 regen_dialled entry whose d10 succeeded (DISPERSION-L05-c, GAP-129): acts on a win
    regen: tuple[str | None, str | None] = (None, None)
    # per side, the K-17 spare entry by which this side spared the opposing leader (GUILD-L06-d, GAP-131)
    spared: tuple[str | None, str | None] = (None, None)


@dataclass(frozen=True)
class SideOutcome:
    """What one House gets out of a battle. ``leader`` is the leader who fought on this side's wheel (after a
    traitor-against-traitor swap, the other House's leader, whose owner is ``leader_owner``)."""

    house: str
    army_value: Fraction
    total: Fraction
    leader: str | None
    leader_owner: str | None
    leader_fate: str
    tokens_lost: Tokens
    tokens_left: Tokens
    spice_lost: int
    bounty: int
    cards_played: tuple[str, ...]
    cards_lost: tuple[str, ...]
    cards_kept: tuple[str, ...]
    outlawed: bool = False
    powers: tuple[str, ...] = ()
    bounty_fine: int = 0  # K-15 killer_pays (HARKONNEN-L11-d): owed to the Bank once the bounty is received
    after_battle: tuple[str, ...] = ()  # K-17: this side's POST_BATTLE entries that fire at B10 (LC-5)
    tokens_saved: Tokens = Tokens()  # K-17 half_losses: a loser's tokens that go to his reserve (GAP-109)
    # K-17 spare (GUILD-L06-d): paid by this side to the opposing House for its leader's life (out of the state
    # digest while 0)
    spare_paid: int = dataclasses.field(default=0, metadata={"digest": "if-set"})

    def to_json(self) -> dict[str, Any]:
        """The per-side part of ``dunenb battle --json`` (``powers``: the IDs of this side's powers that changed
        a value, leaders.md K-1..K-5 and the House ``leader.value`` acts, and those that acted in the leader step,
        K-10 immunities and K-14 KILL; issue 11)."""
        return {
            "total": float(self.total), "leader": self.leader_fate, "tokens_lost": self.tokens_lost.total,
            "tokens_left": self.tokens_left.total, "spice_lost": self.spice_lost, "bounty": self.bounty,
            "powers": list(self.powers),
        } | ({"bounty_fine": self.bounty_fine} if self.bounty_fine else {}) | (
            {"after_battle": list(self.after_battle)} if self.after_battle else {}) | (
            {"tokens_saved": self.tokens_saved.total} if self.tokens_saved.total else {}) | (
            {"spare_paid": self.spare_paid} if self.spare_paid else {})


@dataclass(frozen=True)
class CallEffect:
    """An on-call effect that fired (leaders.md K-21): the Bank pays ``house`` ``spice`` (EMPEROR-L11-a) and/or
    ``house`` draws ``cards`` random cards from the hand of ``source``, the caller (BG-L10-b)."""

    power: str
    house: str
    spice: int = 0
    cards: int = 0
    source: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"power": self.power, "house": self.house, "spice": self.spice, "cards": self.cards,
                "from": self.source}


@dataclass(frozen=True)
class BattleOutcome:
    """One possible end of a battle; the lead applies it to the game state.

    ``winner`` is None only after an explosion (GAP-29b, FAQ 22). ``territory_destroyed`` means every token in
    the territory dies, third Houses' included (CARD-ATOMICS-3). ``outlawed`` lists Houses that used Atomics in
    battle (CARD-ATOMICS-4, GAP-29c: allowed, flagged).
    """

    territory: str
    defender: str
    winner: str | None
    explosion: str | None
    traitor_called_by: tuple[str, ...]
    leaders_swapped: bool
    territory_destroyed: bool
    sides: tuple[SideOutcome, SideOutcome]
    treachery_blocked: tuple[str, ...] = ()  # Houses whose call a Karama on the wheel voided (KARAMA-3, KARAMA-45)
    on_call: tuple[CallEffect, ...] = ()  # K-21 on-call effects of a called always-traitor
    # VICTORY-2, houses.md G-7: Houses whose main leader died here for good (TLEILAX-M2: not while Waff has a
    # regeneration left; HARKONNEN-P4: a captured main leader's death eliminates his own House)
    eliminated: tuple[str, ...] = ()
    # leaders.md S-4 (EMPEROR-L03-c): (House, leader id, power) of the leader the explosion spared, with his
    # House's tokens there (only the dialled ones are lost): his House wins (GAP-133)
    sheltered: tuple[str, str, str] | None = dataclasses.field(default=None, metadata={"digest": "if-set"})
    # leaders.md K-18 leader_exchange (FREMEN-L05-c, D-29): (House, power) whose leader voided the battle at B8
    # (:mod:`dunenb.battle.leader_exchange`): nothing is lost, nobody dies, nobody wins
    void: tuple[str, str] | None = dataclasses.field(default=None, metadata={"digest": "if-set"})

    @property
    def outlawed(self) -> tuple[str, ...]:
        return tuple(side.house for side in self.sides if side.outlawed)

    @property
    def leader_fates(self) -> tuple[str, str]:
        return (self.sides[0].leader_fate, self.sides[1].leader_fate)

    def side(self, house: str) -> SideOutcome:
        return next(side for side in self.sides if side.house == house)

    def to_json(self) -> dict[str, Any]:
        """The outcome part of ``dunenb battle --json`` (without the probability)."""
        return {
            "winner": self.winner, "explosion": self.explosion is not None,
            "traitor_called_by": list(self.traitor_called_by),
            "sides": {side.house: side.to_json() for side in self.sides},
            "outlawed": list(self.outlawed),
            "on_call": [effect.to_json() for effect in self.on_call],
            "eliminated": list(self.eliminated),
        } | ({"void": {"house": self.void[0], "power": self.void[1], "text": exchange_text(*self.void)}}
             if self.void is not None else {})  # K-18 leader_exchange, the game's leader-exchange words


Distribution = tuple[tuple[Fraction, BattleOutcome], ...]


# ----------------------------------------------------------------------------------------------------- leaders
class _NeedRoll(Exception):
    """Raised inside the leader step when a d10 is needed that neither the fixed dice nor the branch give."""

    def __init__(self, purpose: str = SHIELD_PASS) -> None:
        super().__init__(purpose)
        self.purpose = purpose  # what the roll is for (dunenb.battle.rolls)


@dataclass
class _Roller:
    """Hands out d10 results: a side's fixed dice first, then the faces chosen on this enumeration branch."""

    fixed: tuple[tuple[int, ...], tuple[int, ...]]
    branch: tuple[int, ...]

    def __post_init__(self) -> None:
        self.used = [0, 0]
        self.branch_used = 0
        self.rolls: list[tuple[int, int, str]] = []

    def d10(self, side: int, purpose: str = SHIELD_PASS) -> int:
        if self.used[side] < len(self.fixed[side]):
            value = self.fixed[side][self.used[side]]
            self.used[side] += 1
        elif self.branch_used < len(self.branch):
            value = self.branch[self.branch_used]
            self.branch_used += 1
        else:
            raise _NeedRoll(purpose)
        self.rolls.append((side, value, purpose))
        return value


def _card_deaths(
    leaders: Sequence[Leader | None], plans: Sequence[BattlePlan], roll: Roll,
    builtin: Sequence[tuple[str, ...]] = ((), ()),
    blocked: Sequence[frozenset[str]] = (frozenset(), frozenset()),
    houses: Sequence[str] = ("", ""),
    acted: Sequence[list[str]] | None = None,
    worn: WornShields | None = None,
) -> tuple[bool, bool]:
    """Deaths from the cards when no explosion happens (CARD-POISON-1 .. CARD-SHIELD-3, GAP-28): LC-7 as
    :func:`dunenb.battle.leader_weapons.card_deaths` resolves it, with the secondary leaders' K-6..K-9 powers.
    ``builtin``: per side, the leader's built-in attacks given by House powers (houses.md G-4, TLEILAX-M1
    Waff's pistol); ``blocked``: per side, the powers a Karama blocks in this battle. An attack the target is
    immune to (:func:`dunenb.battle.immunities.attack_protection`: ATREIDES-M1, K-10; ``houses`` the Houses
    playing the leaders, for D-14) does nothing and no pass is rolled for it. ``acted`` (per side) receives the
    powers that acted: the K-8/K-9 powers and the protecting immunities. ``worn``: the battle's worn shields,
    read again by the K-17 blast after the cards (GAP-148)."""
    both = blocked[0] | blocked[1]

    def spared(foe: int, weapon: str) -> str | None:
        protection = attack_protection(leaders[foe], weapon, house=houses[foe] or None, blocked=both)
        return protection.power if protection is not None and protection.sure else None

    report: list[tuple[int, str]] = []
    deaths = card_deaths(leaders, plans, roll, houses=houses, blocked=blocked, builtin=builtin, spared=spared,
                         acted=report, worn=worn)
    if acted is not None:
        for side, power in report:
            acted[side].append(power)
    return deaths


def _traitor_death(
    caller: int, leaders: Sequence[Leader | None], plans: Sequence[BattlePlan], roll: Roll,
    builtin: Sequence[tuple[str, ...]] = ((), ()),
    blocked: Sequence[frozenset[str]] = (frozenset(), frozenset()),
    houses: Sequence[str] = ("", ""),
    acted: Sequence[list[str]] | None = None,
) -> bool:
    """GAP-35b: the battle stops at the treachery; only the caller's weapon aimed at the traitor is resolved.

    No shield pass is tried against the caller and no lasgun-shield explosion happens (FAQ 23). The caller's
    Atomics act only as a weapon that kills the traitor (note: the battle has stopped, so no devastation).
    """
    victim = 1 - caller
    if "atomics" in plans[caller].attacks:
        return leaders[caller] is not None
    only_caller_attacks = [plans[0], plans[1]]
    only_caller_attacks[victim] = evolve(plans[victim], weapon=None, extra_attack=None)
    armed: list[tuple[str, ...]] = [(), ()]
    armed[caller] = builtin[caller]  # the caller's built-in attacks also aim at the traitor (TLEILAX-M1)
    return _card_deaths(leaders, only_caller_attacks, roll, armed, blocked, houses, acted)[victim]


def leader_step(
    sides: Sequence[BattleSide], roll: Roll, *, fighting: Sequence[Leader | None] | None = None
) -> Fates:
    """Treachery, explosions and card deaths for two sides (BATTLE-13 f1-f2); ``roll(side)`` gives a d10.

    Traitor against traitor (TRAITOR-12, GAP-35d): the leader discs swap sides; wheels (dial and cards) stay,
    and the battle is resolved normally with the swapped leaders.

    A Karama on the wheel (KARAMA-3, KARAMA-45, GAP-55b) voids the opposing side's calls when they rest on a
    blockable power (:attr:`BattleSide.call_power`): the slip is shown, and the battle goes on as if no call was
    made by that side.
    """
    plans = [side.plan for side in sides]
    leaders = list(fighting) if fighting is not None else [plan.leader for plan in plans]
    houses = (sides[0].house, sides[1].house)
    blocked = (sides[0].blocked, sides[1].blocked)
    doomed = (sides[0].doomed is not None, sides[1].doomed is not None)  # K-21 dies_in: dead at B6
    # issue 14 item 4: the sides that hold the opposing leader as a traitor, side 0 first, written out (no generator
    # at every chance leaf); without any, no call is voided or made
    held = (((0,) if not doomed[1] and sides[0].holds_traitor(leaders[1]) else ())
            + ((1,) if not doomed[0] and sides[1].holds_traitor(leaders[0]) else ()))
    voided: tuple[int, ...] = ()
    calls: tuple[int, ...] = ()
    if held:
        voided = tuple(me for me in held if sides[me].call_power is not None and plans[1 - me].blocks_calls)
        calls = tuple(me for me in held if me not in voided)
    acted: list[list[str]] = [[], []]
    if len(calls) == 1:
        caller = calls[0]
        dead = list(doomed)
        # K-14 with a d10 (A09-b): rolled at B7 after the treachery check; it overrides TRAITOR-11 (D-19)
        scene = _scene(houses, leaders, blocked)  # issue 14 item 4: what the step reads of its leaders, once
        revenge, revenge_by = kills(houses, leaders, blocked, roll, rolled=True) if scene.kills else NO_KILLS
        dead[1 - caller] = _traitor_death(caller, leaders, plans, roll, scene.builtin, blocked, houses, acted)
        atomics: tuple[int, ...] = ()
        if "atomics" in plans[caller].attacks and leaders[caller] is not None:
            atomics = (caller,)
        return Fates(dead=(dead[0] or revenge[0], dead[1] or revenge[1]), traitor_called_by=calls,
                     atomics_used_by=atomics, blocked_calls=voided, acted=_acted(acted, revenge_by))
    swapped = len(calls) == 2
    if swapped:
        leaders = [leaders[1], leaders[0]]
    scene = _scene(houses, leaders, blocked)  # issue 14 item 4: what the step reads of its leaders, looked up once
    # K-14 at B7 (A09-b, D-19)
    revenge, revenge_by = kills(houses, leaders, blocked, roll, rolled=True) if scene.kills else NO_KILLS
    weapons = [plan.attacks for plan in plans]  # LC-7: K-6 two attacks
    present = (leaders[0] is not None, leaders[1] is not None)
    if "atomics" in weapons[0] or "atomics" in weapons[1]:  # issue 14 item 4: no generator at every chance leaf
        atomics = tuple(me for me in (0, 1) if "atomics" in weapons[me])
        return Fates(dead=present, explosion="atomics", traitor_called_by=calls, swapped=swapped,
                     atomics_used_by=atomics, blocked_calls=voided)
    if ("lasgun" in weapons[0] or "lasgun" in weapons[1]) and "shield" in plans[0].defences + plans[1].defences:
        # GAP-29a: a Shield card of either side meeting a lasgun sets off the explosion (a worn one never: D-20).
        return Fates(dead=present, explosion="lasgun-shield", traitor_called_by=calls, swapped=swapped,
                     blocked_calls=voided)
    # ---- GAP-148 (auditL): the worn shields are rolled once per battle, for the cards and then the K-17 blast
    shield_report: list[tuple[int, str]] = []
    worn = WornShields(list(scene.kits), roll, shield_report)
    deaths = _card_deaths(leaders, plans, roll, scene.builtin, blocked, houses, acted, worn)
    # leaders.md K-17 blast (GUILD-L05-d): a dying Tolric's extra distance projectile; LC-7: a worn shield that
    # acts stops it as a Shield card does, and an immunity to a distance projectile spares its target (GAP-148)
    by_attacks = deaths

    def stops_blast(foe: int) -> bool:
        spared = attack_protection(leaders[foe], "projectile-distance", house=houses[foe] or None,
                                   blocked=blocked[0] | blocked[1])
        if spared is not None and spared.sure:
            acted[foe].append(spared.power)
            return True
        return worn.worn(foe) and worn.acting(foe) > 0

    blast_ids = scene.blasts
    if blast_ids[0] or blast_ids[1]:  # issue 14 item 4: without a blast entry blast_deaths changes nothing
        deaths = blast_deaths(houses, (leaders[0], leaders[1]), (plans[0].defense, plans[1].defense), deaths,
                              (blocked[0], blocked[1]), stops_blast)
    for side, power in shield_report:
        acted[side].append(power)
    for me in (0, 1):  # GAP-147: the blast is listed on its holder's side when it killed (the attacks had not)
        if deaths[1 - me] and not by_attacks[1 - me]:
            acted[me].extend(blast_ids[me])
    # K-14 at B9 (A06-c)
    killed, killed_by = kills(houses, leaders, blocked, roll, rolled=False) if scene.kills else NO_KILLS
    others = (revenge[0] or killed[0] or doomed[0], revenge[1] or killed[1] or doomed[1])
    # leaders.md K-17 spare (GUILD-L06-d) at B9, after G05-d: the opposing leader lives if both sides agree
    spares = spared(scene.spare, by_attacks, others, (sides[0].spare, sides[1].spare), present)
    deaths = (deaths[0] and spares[1] is None, deaths[1] and spares[0] is None)
    return Fates(dead=(deaths[0] or others[0], deaths[1] or others[1]),  # K-21 dies_in: dead at B6
                 traitor_called_by=calls, swapped=swapped, blocked_calls=voided,
                 acted=_acted(acted, revenge_by, killed_by), regen=_regen_rolls(scene.regen, roll),
                 spared=spares)


@dataclass(frozen=True)
class _Scene:
    """What the leader step reads of its two leaders besides the dice (issue 14 item 4: one cached lookup per step
    instead of one per reader; each field is the reader's own answer): the built-in attacks (G-4), the arsenals
    (K-6..K-9), the K-17 blast, spare and regen_dialled entries, and whether a K-14 KILL may act (without one,
    :func:`~dunenb.battle.immunities.kills` rolls nothing and answers :data:`NO_KILLS`)."""

    kills: bool
    builtin: tuple[tuple[str, ...], tuple[str, ...]]
    kits: tuple[Arsenal, Arsenal]
    blasts: tuple[tuple[str, ...], tuple[str, ...]]
    spare: tuple[tuple[str, ...], tuple[str, ...]]
    regen: tuple[tuple[str, ...], tuple[str, ...]]


def _scene(houses: tuple[str, str], leaders: Sequence[Leader | None],
           blocked: tuple[frozenset[str], frozenset[str]]) -> _Scene:
    return _scene_of(houses, (leaders[0], leaders[1]), blocked)


@lru_cache(maxsize=1024)  # the scenes of a game's battles are few; its keys are those of the readers' caches
def _scene_of(houses: tuple[str, str], leaders: tuple[Leader | None, Leader | None],
              blocked: tuple[frozenset[str], frozenset[str]]) -> _Scene:
    return _Scene(kill_may_act(houses, leaders, blocked), builtin_weapons(houses, leaders, blocked),
                  (arsenal(leaders[0], houses[0], blocked[0]), arsenal(leaders[1], houses[1], blocked[1])),
                  blasts(houses, leaders, blocked), spare_ids(houses, leaders, blocked),
                  regen_ids(houses, leaders, blocked))


def _regen_rolls(ids: tuple[tuple[str, ...], tuple[str, ...]], roll: Roll) -> tuple[str | None, str | None]:
    """K-17 regen_dialled at B9 (DISPERSION-L05-c, GAP-129): each side's d10 for each of its entries ``ids``,
    rolled last in the leader step; the entry's ID when it shows at most 6."""
    found: list[str | None] = [None, None]
    for me in (0, 1):
        for power in ids[me]:
            if roll(me, REGEN) <= REGEN_ACTIVE:
                found[me] = power
    return (found[0], found[1])


def _acted(*found: Sequence[Sequence[str]]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Per side, the leader powers that acted in the leader step, each once, in order."""
    for side in found:
        if side[0] or side[1]:
            break
    else:
        return ((), ())  # issue 14 item 4: most leader steps see no power act (the same empty answer)
    return (tuple(dict.fromkeys(p for side in found for p in side[0])),
            tuple(dict.fromkeys(p for side in found for p in side[1])))


@lru_cache(maxsize=65536)
def _fates_distribution(sides: tuple[BattleSide, BattleSide]) -> tuple[tuple[Fraction, Fates, tuple], ...]:
    """Enumerate every d10 the leader step needs; returns (probability, fates, rolls) leaves."""
    fixed = (sides[0].dice, sides[1].dice)
    leaves: list[tuple[Fraction, Fates, tuple]] = []
    stack: list[tuple[int, ...]] = [()]
    while stack:
        branch = stack.pop()
        roller = _Roller(fixed, branch)
        try:
            fates = leader_step(sides, roller.d10)
        except _NeedRoll:
            stack.extend(branch + (face,) for face in reversed(D10))
            continue
        leaves.append((_tenths(len(branch)), fates, tuple(roller.rolls)))
    return tuple(leaves)


@lru_cache(maxsize=32)
def _tenths(count: int) -> Fraction:
    """(1/10) ** count: the probability of one branch of ``count`` d10 (GAP-28b), computed once (issue 14)."""
    return ONE_TENTH ** count


def fates_distribution(battle: Battle) -> tuple[tuple[Fraction, Fates], ...]:
    """The merged distribution of the leader step alone (useful to analysis: it does not depend on dials)."""
    battle = without_disarmed_attacks(battle)
    return _merged_fates((_strip(battle.sides[0]), _strip(battle.sides[1])))


def _merged_fates(key: tuple[BattleSide, BattleSide]) -> tuple[tuple[Fraction, Fates], ...]:
    # issue 14 item 4: the same merged leaves as _fates_distribution's, one face per class of d10 faces that act
    # alike (dunenb.battle.dice_classes). Not cached (issue 14 item 4): its callers never ask one key twice often
    # enough to pay for it (the goal plan matrix: 2,695 keys, 0 repeats; ten heuristic-bot games: 668 repeats in
    # 22,376 asks, the bot's own _leader_step cache answering the rest), while its 65,536 entries kept 143,000
    # objects (Fractions, Fates, tuples) that every full garbage collection walked: 15% of a bot game went there.
    leaves = merged_leaves(lambda roll: leader_step(key, roll), (key[0].dice, key[1].dice), _NeedRoll)
    return tuple([(probability, fates) for fates, probability in leaves])  # a list first: cheaper than a generator


def _strip(side: BattleSide) -> BattleSide:
    """The parts of a side the leader step looks at (dial and tokens do not matter), for caching."""
    plan = side.plan
    if (plan.dial == _NO_DIAL and side.tokens == _NO_TOKENS and not side.dead and side.regenerations is None
            and not side.voices_against and not side.b1_rolls):
        return side  # issue 14 item 4: already stripped (the bot's leader steps): equal to the copy below
    return BattleSide(side.house, Tokens(), BattlePlan(leader=plan.leader, weapon=plan.weapon, defense=plan.defense,
                                                       karama=plan.karama, karama_use=plan.karama_use,
                                                       extra_attack=plan.extra_attack,
                                                       extra_defense=plan.extra_defense),
                      side.traitors, side.dice, side.call_power, blocked=side.blocked, doomed=side.doomed,
                      spare=side.spare)


# -------------------------------------------------------------------------------------------------- settlement
def settle(battle: Battle, fates: Fates) -> BattleOutcome:
    """Totals, winner, losses and bounties once the leaders' fates are known (BATTLE-9 to BATTLE-13 f3-f6).

    * explosion or battle Atomics: no winner, both sides lose all their tokens there, their wheel spice and their
      cards; no bounty (GAP-29b);
    * one treachery: the caller wins and loses nothing; he earns the traitor's strength if the traitor died,
      else 2 (TRAITOR-10, paid by the Bank, GAP-35a); the victim loses everything (TRAITOR-11, BATTLE-12);
    * otherwise the higher total wins, the defender on a tie; the winner loses the tokens and spice dialled and
      keeps his cards (BATTLE-10); the loser loses all his tokens there, his wheel spice and the cards played
      (BATTLE-11, GAP-45); every killed leader pays his strength to the opponent (BATTLE-13 f3; Bank pays).
    * leaders.md S-4 (:mod:`dunenb.battle.leader_shelter`, GAP-133): an explosion in an open territory spares
      Burseg and his House's tokens: his House wins, loses its dialled tokens, and takes the dead opponent's
      bounty (D-22); the cards and wheel spice go as in any explosion.

    Bounties (a dead traitor's included) follow leaders.md LC-8 and K-15 (:mod:`dunenb.battle.leader_bounty`):
    the victim's fixed value, the killer side's multipliers and additions, and a ``killer_pays`` fine.
    """
    sides = battle.sides
    plans = [side.plan for side in sides]
    owners = [plan.leader for plan in plans]
    fighting = [owners[1], owners[0]] if fates.swapped else owners
    defender = battle.index(battle.defender)
    # leaders.md S-4 (Burseg, GAP-133): in an open territory the explosion spares him and his House's tokens
    shelter = sheltered(battle.houses, fighting, (sides[0].blocked, sides[1].blocked), battle.territory) \
        if fates.explosion is not None else None
    if shelter is not None:
        fates = evolve(fates, dead=(fates.dead[0] and shelter[0] != 0, fates.dead[1] and shelter[0] != 1))
    # LC-6 and K-1..K-5 (leaders.md): leader.value of House, main-leader and secondary-leader powers
    powers = battle_values(battle.houses, fighting, defender, territory=battle.territory,
                           dead=(sides[0].dead, sides[1].dead), blocked=(sides[0].blocked, sides[1].blocked),
                           shield_wall_standing=battle.shield_wall_standing,
                           voices=(sides[0].voices_against, sides[1].voices_against))  # K-2, D-24
    army = [side_army_value(plan.dial, powers[me], marked_token_value(battle.houses, owners, me))  # DISPERSION-P3
            for me, plan in enumerate(plans)]
    alive_value = [
        powers[me].leader_value if leader is not None and not fates.dead[me] else Fraction(0)
        for me, leader in enumerate(fighting)
    ]
    totals = [army[me] + alive_value[me] for me in (0, 1)]
    void = _exchange(battle, owners, defender, fates)  # K-18 leader_exchange at B8 (D-29), before any death
    if void is not None:
        return _void_outcome(battle, army, totals, void)
    tokens_lost: list[Tokens]
    spice_lost = [plan.dial.spice for plan in plans]
    bounty = [0, 0]
    lost_cards: list[tuple[str, ...]]
    kept_cards: list[tuple[str, ...]]
    if fates.explosion is not None:
        winner = None
        tokens_lost = [sides[0].tokens, sides[1].tokens]
        lost_cards = [plans[0].cards_played, plans[1].cards_played]
        kept_cards = [(), ()]
        if shelter is not None:  # S-4: he wins and loses his dialled tokens as any winner; the cards still go
            winner = shelter[0]
            tokens_lost[winner] = plans[winner].dial.tokens
    elif len(fates.traitor_called_by) == 1:
        winner = fates.traitor_called_by[0]
        victim = 1 - winner
        traitor = fighting[victim]
        assert traitor is not None
        bounty[winner] = TRAITOR_SURVIVES_SPICE  # TRAITOR-10; a dead traitor pays his bounty (LC-8, below)
        tokens_lost = [Tokens(), Tokens()]
        tokens_lost[victim] = sides[victim].tokens
        spice_lost[winner] = 0
        lost_cards = [(), ()]
        kept_cards = [(), ()]
        lost_cards[victim] = plans[victim].cards_played
        kept_cards[winner] = plans[winner].cards_played
    else:
        if totals[0] != totals[1]:
            winner = 0 if totals[0] > totals[1] else 1
        else:
            winner = defender
        loser = 1 - winner
        tokens_lost = [Tokens(), Tokens()]
        tokens_lost[winner] = plans[winner].dial.tokens
        tokens_lost[loser] = sides[loser].tokens
        lost_cards = [(), ()]
        kept_cards = [(), ()]
        lost_cards[loser] = plans[loser].cards_played
        kept_cards[winner] = plans[winner].cards_played
    fine = [0, 0]
    extra_powers: list[tuple[str, ...]] = [(), ()]
    scene = Scene.of(battle.territory, battle.houses, fighting, defender=defender,
                     dead=(sides[0].dead, sides[1].dead), blocked=(sides[0].blocked, sides[1].blocked),
                     shield_wall_standing=battle.shield_wall_standing)
    # leaders.md LC-5 B10, K-17: the after-battle entries that fire (a game applies them); keep(...) is the loser's
    after = [fired(scene, me, winner=winner, dead=fates.dead) for me in (0, 1)]
    spare_paid = [0, 0]  # K-17 spare (GUILD-L06-d): the spared leader's side pays the holder's House
    for me in (0, 1):
        power = fates.spared[me]
        if power is not None:
            extra_powers[me] += (power,)
            spare_paid[1 - me] = spare_price(power, fighting[me])
    saved = [Tokens(), Tokens()]  # K-17 half_losses: tokens a loser sends to his reserve instead of the tanks
    if winner is not None:
        kept = kept_by_loser(scene, 1 - winner, plans[1 - winner], after[1 - winner])
        lost_cards[1 - winner] = tuple((Counter(lost_cards[1 - winner]) - Counter(kept)).elements())
        for me in (0, 1):
            spared = saved_tokens(scene, me, after[me], plans[me].dial.tokens)
            # only tokens he would lose are saved (a treachery's caller loses none, TRAITOR-11)
            spared = Tokens(min(spared.regular, tokens_lost[me].regular), min(spared.elite, tokens_lost[me].elite))
            tokens_lost[me] = tokens_lost[me] - spared
            saved[me] = spared if me != winner else Tokens()
        regen = fates.regen[winner]
        if regen is not None and not fates.traitor_called_by:  # K-17 regen_dialled: no dialled token is lost
            tokens_lost[winner] = Tokens()
            extra_powers[winner] += (regen,)
    if fates.explosion is None or shelter is not None:  # GAP-29b: an explosion pays no bounty, unless S-4 (D-22)
        # BATTLE-13 f3, TRAITOR-10: each killed leader's bounty to his opponent (K-15, LC-8); S-4: to Burseg's side
        for me in ((0, 1) if shelter is None else (shelter[0],)):
            # after a treachery the caller's leader dies only by a K-14 KILL (A09-b): his bounty then goes to the
            # traitor's side (GAP-97)
            if fighting[1 - me] is None or not fates.dead[1 - me]:
                continue
            paid = bounty_for(scene, me)
            bounty[me], fine[me] = paid.amount, paid.fine
            for part in (0, 1):
                extra_powers[part] += paid.powers[part]
    for me in (0, 1):  # KARAMA-2, BATTLE-13 e: a Karama on the wheel is lost, whoever wins
        karama = plans[me].karama
        if karama is not None:
            lost_cards[me] = lost_cards[me] + (karama,)
    # K-9 T11-e / T12-e: Atomics in his battle against House X bring no sanction (CARD-ATOMICS-4)
    licence = [atomics_licensed(fighting[me], sides[me].house, sides[1 - me].house, sides[me].blocked)
               for me in (0, 1)]
    for me in (0, 1):  # GAP-147: G01-d's worthless card stood as the Karama that voided the opposing call
        if 1 - me in fates.blocked_calls:
            extra_powers[me] += karama_rule_used(plans[me], sides[me].house, sides[me].blocked)
    shelter_ref: tuple[str, str, str] | None = None
    if shelter is not None:
        extra_powers[shelter[0]] += (shelter[1],)  # S-4 acted
        spared_leader = fighting[shelter[0]]
        assert spared_leader is not None
        shelter_ref = (sides[shelter[0]].house, spared_leader.id, shelter[1])
    outcome_sides = []
    for me, side in enumerate(sides):
        leader = fighting[me]
        fate = "none" if leader is None else ("dead" if fates.dead[me] else "alive")
        outcome_sides.append(SideOutcome(
            house=side.house, army_value=army[me], total=totals[me],
            leader=None if leader is None else leader.id,
            leader_owner=None if leader is None else _owner(leader, sides[1 - me if fates.swapped else me]),
            leader_fate=fate, tokens_lost=tokens_lost[me], tokens_left=side.tokens - tokens_lost[me] - saved[me],
            tokens_saved=saved[me],
            spice_lost=spice_lost[me], bounty=bounty[me], cards_played=plans[me].cards_on_wheel,
            cards_lost=lost_cards[me], cards_kept=kept_cards[me], outlawed=me in fates.atomics_used_by
            and licence[me] is None and ATOMICS_KIND not in side.voice_forced,  # BG-P1: forced, no outlaw
            powers=tuple(dict.fromkeys(
                ((powers[me].acted_powers(fates.dead) + used_powers(plans[me], side.house, side.blocked))
                 if fates.explosion is None and not fates.traitor_called_by else ())
                + fates.acted[me] + extra_powers[me] + ((side.doomed,) if side.doomed else ())))  # K-21 dies_in
            + _licence_used(licence[me], me in fates.atomics_used_by), bounty_fine=fine[me], after_battle=after[me],
            spare_paid=spare_paid[me],
        ))
    return BattleOutcome(
        eliminated=_eliminated(sides, fighting, fates),
        on_call=on_call_effects(sides, owners, fates.traitor_called_by),
        territory=battle.territory, defender=battle.defender,
        winner=None if winner is None else sides[winner].house,
        explosion=fates.explosion,
        traitor_called_by=tuple(sides[me].house for me in fates.traitor_called_by),
        leaders_swapped=fates.swapped,
        territory_destroyed=fates.explosion is not None,
        sides=(outcome_sides[0], outcome_sides[1]),
        treachery_blocked=tuple(sides[me].house for me in fates.blocked_calls),
        sheltered=shelter_ref,
    )


def _licence_used(power: str | None, used: bool) -> tuple[str, ...]:
    """The K-9 atomics_licence power that spared the side a sanction, as a reported power ID."""
    return (power,) if power is not None and used else ()


def _eliminated(sides: Sequence[BattleSide], fighting: Sequence[Leader | None], fates: Fates) -> tuple[str, ...]:
    """VICTORY-2, G-7: the Houses a main leader's death eliminates. A leader on side ``me``'s wheel belongs to his
    House (a captured one, HARKONNEN-P4, to the House he was taken from); that House's regenerations
    (TLEILAX-M2, :attr:`BattleSide.regenerations`) spare it while one is left, and so does a living successor
    (Farad'N, Murbella: ``succeeds`` in data/leaders.json, read against that House's ``dead``); a successor whose
    main leader is among the ``dead`` is the main leader (houses.md G-7)."""
    found = []
    for me, leader in enumerate(fighting):
        if leader is None or leader.house is None or not fates.dead[me] or not (leader.main or leader.succeeds):
            continue
        owner = leader.house
        own = next((side for side in sides if side.house == owner), None)
        dead = own.dead if own is not None else frozenset()
        roster = load_roster()
        if roster.acting_main(owner, dead) != leader.id:
            continue  # a successor while the main leader he would succeed lives is a secondary leader (G-7)
        if roster.acting_main(owner, dead | {leader.id}) is not None:
            continue  # G-7: his living successor takes his place (L449, L617)
        if not (own.regenerations if own is not None else None):
            found.append(owner)
    return tuple(found)


def on_call_effects(
    sides: Sequence[BattleSide], leaders: Sequence[Leader | None], callers: Sequence[int]
) -> tuple[CallEffect, ...]:
    """leaders.md K-21: the on-call effects of each called leader whose ``always_traitor_of`` names the caller
    (EMPEROR-L11-a: the Bank pays the Emperor 10 when the Harkonnen call Ziarenko, D-32; BG-L10-b: the BG draw 3
    cards from the Harkonnen hand). The one place where they are computed, for games and battle cases alike;
    ``leaders`` are the leaders the sides put on their wheels (before any TRAITOR-12 swap)."""
    effects = []
    for caller in callers:
        traitor = leaders[1 - caller]
        if traitor is None or sides[caller].house not in traitor.always_traitor_of:
            continue
        owner = _owner(traitor, sides[1 - caller])
        for effect in traitor.on_traitor_call:
            if effect.kind == "bank_pays_owner":
                effects.append(CallEffect(effect.power, owner, spice=effect.spice))
            elif effect.kind == "draw_from_caller":
                effects.append(CallEffect(effect.power, owner, cards=effect.cards, source=sides[caller].house))
    return tuple(effects)


# ---- leaders.md K-18 leader_exchange (FREMEN-L05-c Siona facing Léto II, D-29): the battle void at B8
def _exchange(battle: Battle, owners: Sequence[Leader | None], defender: int, fates: Fates) -> tuple[int, str] | None:
    """(side, power) of the automatic exchange that voids the battle at LC-5 B8 (:func:`dunenb.battle.
    leader_exchange.exchange_of`, the game's own test), or ``None``; skipped once a treachery was called (LC-5; as in
    a game, a call a Karama voided counts as called)."""
    if fates.traitor_called_by or fates.blocked_calls or not any(may_exchange(leader) for leader in owners):
        return None
    sides = battle.sides
    return exchange_of(Scene.of(battle.territory, battle.houses, owners, defender=defender,
                                dead=(sides[0].dead, sides[1].dead), blocked=(sides[0].blocked, sides[1].blocked),
                                shield_wall_standing=battle.shield_wall_standing))


def _void_outcome(battle: Battle, army: Sequence[Fraction], totals: Sequence[Fraction],
                  void: tuple[int, str]) -> BattleOutcome:
    """The battle voided by the exchange: cards, dialled tokens and wheel spice stay with their Houses, nobody
    dies, no bounty, no winner; the power is listed on its holder's side (the gifts are a game's decisions)."""
    outcome_sides = []
    for me, side in enumerate(battle.sides):
        leader = side.plan.leader
        outcome_sides.append(SideOutcome(
            house=side.house, army_value=army[me], total=totals[me], leader=None if leader is None else leader.id,
            leader_owner=None if leader is None else _owner(leader, side),
            leader_fate="none" if leader is None else "alive", tokens_lost=Tokens(), tokens_left=side.tokens,
            spice_lost=0, bounty=0, cards_played=side.plan.cards_on_wheel, cards_lost=(),
            cards_kept=side.plan.cards_on_wheel, powers=(void[1],) if me == void[0] else ()))
    return BattleOutcome(territory=battle.territory, defender=battle.defender, winner=None, explosion=None,
                         traitor_called_by=(), leaders_swapped=False, territory_destroyed=False,
                         sides=(outcome_sides[0], outcome_sides[1]), void=(battle.sides[void[0]].house, void[1]))
# ---- end K-18 leader_exchange


def _owner(leader: Leader, planned_by: BattleSide) -> str:
    """A roster leader belongs to his House (the one he came from after a permanent transfer, LC-9: GAP-19 keys);
    an inline leader to the side that put him on its wheel."""
    return leader.transferred_from or leader.house or planned_by.house


# ------------------------------------------------------------------------------------------------- public API
def without_disarmed_attacks(battle: Battle) -> Battle:
    """The Karamas shown with the wheels first (:func:`dunenb.battle.leader_karama.with_wheel_karamas`: LC-11 b,
    KARAMA-20). K-3 DISARM at B6: a disarmed leader's attack card goes back to his hand (it is not played, so it neither
    acts nor is lost); his tokens fight normally (L229). The conditions read the committed leaders.

    >>> from dunenb.battle.plans import BattlePlan, BattleSide
    >>> from dunenb.battle.roster import load_roster
    >>> from dunenb.battle.wheel import Dial, Tokens
    >>> roster = load_roster()
    >>> chani = BattleSide("fremen", Tokens(3), BattlePlan(Dial(1), roster.find("Chani", house="fremen"),
    ...                    weapon="projectile-contact"))
    >>> paul = BattleSide("atreides", Tokens(3), BattlePlan(Dial(1), roster.find("Paul")))
    >>> without_disarmed_attacks(Battle("arrakeen", "atreides", (chani, paul))).sides[0].plan.weapon is None
    True
    """
    battle = with_wheel_karamas(battle)  # B6: the Karamas shown with the wheels (LC-11 b, KARAMA-20; GAP-122/123)
    battle = with_reveal_deaths(battle)  # leaders.md K-21 dies_in: at B6 too
    plans = [side.plan for side in battle.sides]
    if not (plans[0].attacks or plans[1].attacks):  # issue 14 item 4: the two plans tested without a generator
        return battle
    if not (may_disarm(plans[0].leader) or may_disarm(plans[1].leader)):
        return battle  # issue 14 item 4: no DISARM entry can act, so nobody is disarmed (no values needed)
    values = battle_values(battle.houses, [plan.leader for plan in plans], battle.index(battle.defender),
                           territory=battle.territory, dead=(battle.sides[0].dead, battle.sides[1].dead),
                           blocked=(battle.sides[0].blocked, battle.sides[1].blocked),
                           shield_wall_standing=battle.shield_wall_standing)
    if not any(values[me].disarmed and plans[me].attacks for me in (0, 1)):
        return battle
    # K-3: his built-in weapons are unused too (the extra attack slot, K-6/K-7)
    sides = tuple(evolve(side, plan=evolve(side.plan, weapon=None, extra_attack=None))
                  if values[me].disarmed else side for me, side in enumerate(battle.sides))
    return evolve(battle, sides=(sides[0], sides[1]))


def check_battle(battle: Battle) -> None:
    """Raise :class:`IllegalActionError` unless both plans fit their sides (BATTLE-6, GAP-42, GAP-43) and the
    fixed dice are d10 faces (GAP-28b)."""
    for side in battle.sides:
        check_plan(side.plan, tokens=side.tokens)
        # G-4 and leaders.md K-6..K-8: the built-ins and extra slots the House and its leader's powers give
        check_slots(side.plan, side.house, blocked=side.blocked, house_weapons=slot_weapons(side.house),
                    b1_rolls=side.b1_rolls)
        restriction = plan_error(side.plan.leader, side.house, weapon=side.plan.weapon,
                                 dialled=side.plan.dial.tokens.total, spice=side.plan.dial.spice)
        if restriction is not None:  # leaders.md K-21: the leader's restrictions (traits; his cards: check_slots)
            raise restriction
        for value in side.dice:
            if value not in D10:
                raise IllegalActionError("battle/dice", f"{side.house}: a d10 shows 1 to 10, not {value!r}")


def enumerate_battle(battle: Battle) -> Iterator[tuple[Fraction, tuple[tuple[str, int], ...], BattleOutcome]]:
    """Every leaf of the chance tree, unmerged: (probability, the d10 rolls as (house, face), outcome)."""
    for probability, rolls, outcome in enumerate_battle_rolls(battle):
        yield probability, tuple((house, face) for house, face, _purpose in rolls), outcome


def enumerate_battle_rolls(battle: Battle) -> Iterator[tuple[Fraction, tuple[tuple[str, int, str], ...],
                                                             BattleOutcome]]:
    """As :func:`enumerate_battle`, each d10 as (house, face, what it is rolled for: :mod:`dunenb.battle.rolls`)."""
    check_battle(battle)
    battle = without_disarmed_attacks(battle)
    houses = battle.houses
    key = (_strip(battle.sides[0]), _strip(battle.sides[1]))
    for probability, fates, rolls in _fates_distribution(key):
        yield (probability, tuple((houses[side], face, purpose) for side, face, purpose in rolls),
               settle(battle, fates))


def resolve_battle(battle: Battle) -> Distribution:
    """The exact outcome distribution of a battle: identical outcomes merged, most likely first.

    Probabilities are exact fractions and sum to 1. With every needed die fixed, there is one outcome.
    """
    check_battle(battle)
    battle = without_disarmed_attacks(battle)
    merged: dict[BattleOutcome, Fraction] = {}
    for probability, fates in fates_distribution(battle):  # leaves with equal fates settle alike
        outcome = settle(battle, fates)
        merged[outcome] = merged.get(outcome, Fraction(0)) + probability
    ordered = sorted(merged.items(), key=lambda item: -item[1])
    return tuple((probability, outcome) for outcome, probability in ordered)


def resolve_with_rolls(battle: Battle, rolls: dict[str, Sequence[int]]) -> BattleOutcome:
    """The single outcome for given d10 results per House (after the sides' own fixed ``dice``, in rolling
    order); too few dice is an error.

    >>> from dunenb.battle.plans import Battle, BattlePlan, BattleSide
    >>> from dunenb.battle.wheel import Dial, Tokens
    >>> empty = Battle("arrakeen", "fremen", (BattleSide("fremen", Tokens(2), BattlePlan(Dial(2))),
    ...                                       BattleSide("guild", Tokens(3), BattlePlan(Dial(2)))))
    >>> resolve_with_rolls(empty, {}).winner                     # 1 against 1: the defender wins the tie
    'fremen'
    """
    check_battle(battle)
    battle = without_disarmed_attacks(battle)
    fixed = [side.dice + tuple(rolls.get(side.house, ())) for side in battle.sides]
    roller = _Roller((fixed[0], fixed[1]), ())
    try:
        fates = leader_step(battle.sides, roller.d10)
    except _NeedRoll:
        raise InputError("battle/dice-missing", "the battle needs more d10 results than were given") from None
    return settle(battle, fates)


def distribution_json(distribution: Distribution) -> dict[str, Any]:
    """The documented ``dunenb battle CASE.json --json`` form: probabilities as floats, summing to 1."""
    return {
        "outcomes": [
            {"probability": float(probability), **summary} for probability, summary in merge_json_outcomes(distribution)
        ]
    }


def merge_json_outcomes(distribution: Distribution) -> list[tuple[Fraction, dict[str, Any]]]:
    """Merge outcomes whose JSON summaries are equal (records may differ in details the JSON omits)."""
    merged: dict[str, tuple[Fraction, dict[str, Any]]] = {}
    for probability, outcome in distribution:
        summary = outcome.to_json()
        key = json.dumps(summary, sort_keys=True)
        previous = merged.get(key)
        merged[key] = (probability + (previous[0] if previous else 0), summary)
    return sorted(merged.values(), key=lambda item: -item[0])
