"""Battle value hooks of House and main-leader powers (issue 10 item 3), read from ``data/powers.json``.

The resolver (:mod:`dunenb.battle.resolve`) asks two hooks, from the battle's own facts only (the Houses, the
leaders on the wheels, who defends), so games, ``dunenb battle`` cases and the analyzer apply them alike:

* ``leader.value`` (:func:`leader_values`): a living leader's value on the wheel (BATTLE-13 f4). Bounty and the
  shield-passing roll keep the base strength (GAP-28a). Effects: ``set`` (``value``) and ``add`` (``amount``,
  ``floor``), in file order.
* ``leader.immune`` (:func:`immune_to`): the cards that cannot kill a leader (effect ``set``, ``value``: card
  ids).
* ``leader.weapons`` (:func:`builtin_weapons`): the built-in attacks a leader carries besides his cards (houses.md
  G-4; effect ``set``, ``value``: card kinds; TLEILAX-M1: Waff's distance projectile).
* ``token.value`` (:func:`marked_token_value`): what one marked token of the holder's army is worth on its wheel
  (WHEEL-2: 1; DISPERSION-P3: ½ under a Dispersion leader who is no Honored Matre). Effect ``set``.

Battle facts (:class:`dunenb.battle.plans.BattleSide`): ``add_per_living`` (``leaders``: id -> amount) adds
each amount whose leader is not among the side's ``dead`` (HARKONNEN-M3: +3/+2/+1 while Iakin Nefud, Iliako and
Yhekem live); a power in the side's ``blocked`` (a Karama use for this battle: KARAMA-37) does not act.

An act is declared as in the powers framework (``hook``, ``effect``, ``params``, ``applies_to`` ``holder`` (the
holder's own leader) or ``others`` (the leader facing the holder's), ``when``: named conditions below). The
powers here act in battles only; a power is the holder's when the holder is a side of the battle (no state:
lends and eliminations do not change who fights).

Conditions (``when``), for the leader the act changes (*target*) and the leader of the holder's side (*own*):

* ``male-leader``: the target is male (DISPERSION-P2, DISPERSION-M1);
* ``main-leader-leads``: the holder's own leader is its main leader (houses.md X-M* powers act in battles he
  leads);
* ``attacker``: the holder is not the defender (G-6, BATTLE-14);
* ``honored-matre``: the holder's own leader may use the House's powers (not a leader whose leaders.md
  block says ``RESTRICTION(no_house_powers)``: the Dispersion's fanatics, L691-L721); the name matches the
  powers framework's ``not-honored-matre``.
* ``not-honored-matre``: the holder's own leader is not one of its Honored Matres: a fanatic
  (``RESTRICTION(no_house_powers)``) or Elpek (``RESTRICTION(marks_void)``, L649; leaders.md K-24 lists the
  Honored Matres as Dama and D01..D08 but D04). With no leader on the wheel the A tokens keep WHEEL-2's value
  (houses.md DISPERSION-P3 names only Elpek and the fanatics as exceptions).

The Karama uses that block these powers in one battle (KARAMA-21, KARAMA-22, KARAMA-23, KARAMA-37, KARAMA-42)
reach them as ``blocked`` power IDs, per side (:attr:`dunenb.battle.plans.BattleSide.blocked`: a game's
suppressions in force, a battle case's ``karama_uses``). A leader immune to a power acting on him (K-10
``seduction``: the Idaho-Ghola, L981) is asked of :mod:`dunenb.battle.immunities`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from dunenb.battle.immunities import power_protection
from dunenb.battle.leader_karama import is_voided
from dunenb.battle.roster import Leader
from dunenb.battle.wheel import Dial, army_value
from dunenb.board import read_data_file
from dunenb.errors import RulesDataError

HOOKS = ("leader.value", "leader.immune", "leader.weapons", "token.value")
BATTLE_EFFECTS = ("set", "add", "add_per_living")
NO_FACTS: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
NO_HOUSE_POWERS = "RESTRICTION(no_house_powers)"
MARKS_VOID = "RESTRICTION(marks_void)"  # Elpek (DISPERSION-L04-d): her A tokens are worth ½ (DISPERSION-P3)


@dataclass(frozen=True)
class BattleAct:
    """One declared act of a battle hook: the power's ID and holder, and the act's fields."""

    power: str
    holder: str
    hook: str
    effect: str
    params: Mapping[str, Any]
    applies_to: str
    when: tuple[str, ...]


@lru_cache(maxsize=1)
def battle_acts() -> tuple[BattleAct, ...]:
    """Every act of ``data/powers.json`` on a battle hook, in file order."""
    found = []
    for entry in read_data_file("powers.json").get("powers", []):
        if entry.get("status") != "implemented":
            continue  # declared for later (e.g. HARKONNEN-M3 needs the dead leaders as a battle fact)
        for act in entry.get("acts", ()):
            if act.get("hook") in HOOKS:
                if act.get("effect") not in BATTLE_EFFECTS or act.get("applies_to", "holder") not in ("holder",
                                                                                                        "others"):
                    raise RulesDataError("powers/acts", f"{entry['id']}: a battle act is set, add or add_per_living, "
                                         "applied to holder or others")
                found.append(BattleAct(entry["id"], entry["holder"], act["hook"], act["effect"],
                                       act.get("params", {}), act.get("applies_to", "holder"),
                                       tuple(act.get("when", ()))))
    return tuple(found)


def _holds(name: str, *, target: Leader, own: Leader | None, holder_attacks: bool) -> bool:
    if name == "male-leader":
        return target.sex == "M"
    if name == "main-leader-leads":
        return own is not None and own.main
    if name == "attacker":
        return holder_attacks
    if name == "honored-matre":
        return own is not None and not any(power.text == NO_HOUSE_POWERS for power in own.powers)
    if name == "not-honored-matre":
        return own is not None and any(power.text in (NO_HOUSE_POWERS, MARKS_VOID) for power in own.powers)
    raise RulesDataError("powers/when", f"unknown battle condition {name!r}; allowed: male-leader, "
                         "main-leader-leads, attacker, honored-matre, not-honored-matre")


def _acting(act: BattleAct, me: int, houses: Sequence[str], leaders: Sequence[Leader | None],
            defender: int, blocked: Sequence[frozenset[str]] = NO_FACTS) -> bool:
    """Whether ``act`` changes the leader on side ``me``'s wheel (``blocked``: per side, the powers a Karama
    blocks in this battle)."""
    holder_side = me if act.applies_to == "holder" else 1 - me
    if houses[holder_side] != act.holder or act.power in blocked[holder_side]:
        return False
    target, own = leaders[me], leaders[holder_side]
    if target is None or (own is not None and own.house not in (None, act.holder)):
        return False  # a leader who changed sides (TRAITOR-12) carries no power of his new side
    return all(_holds(name, target=target, own=own, holder_attacks=holder_side != defender) for name in act.when)


@dataclass(frozen=True)
class SideValues:
    """What the value hooks give one side of a battle (LC-6, K-1..K-5): the leader's wheel value, whether his
    House's dialled tokens are each worth 1 before spice (K-4), the army bonus (K-5), whether the leader is
    disarmed (K-3), and the IDs of this side's powers that acted (leader and House powers), for
    ``dunenb battle``'s ``"powers"``."""

    leader_value: Fraction
    troops_worth_one: bool = False
    army_bonus: Fraction = Fraction(0)
    disarmed: bool = False
    powers: tuple[str, ...] = ()
    # the IDs of ``powers`` that act only on a leader's wheel value (K-1 WHEEL_VALUE, K-2 WHEEL_MODIFIER, the
    # House and main-leader ``leader.value`` acts, the K-10 seduction immunity), each with the side (battle side
    # order) of the leader whose value it changes: LC-6 makes a dead leader worth 0, so on a branch where he dies
    # they changed nothing (:func:`acted_powers`, GAP-147)
    value_targets: tuple[tuple[str, int], ...] = ()

    def acted_powers(self, dead: tuple[bool, bool]) -> tuple[str, ...]:
        """``powers`` without the value-only entries whose leader is dead on this branch (LC-6, GAP-147): a dead
        Stilgar in a desert reports FREMEN-L01-b (his tokens still count 1), not FREMEN-L01-a."""
        moot = {power for power, side in self.value_targets if dead[side]}
        return tuple(power for power in self.powers if power not in moot)


def battle_values(houses: Sequence[str], leaders: Sequence[Leader | None], defender: int, *,
                  territory: str = "", dead: Sequence[frozenset[str]] = NO_FACTS,
                  blocked: Sequence[frozenset[str]] = NO_FACTS,
                  shield_wall_standing: bool = True,
                  voices: Sequence[int] = (0, 0)) -> tuple[SideValues, SideValues]:
    """The value hooks of both sides, combined as leaders.md LC-6 (BATTLE-9) says, for a living leader:

    1. a DISARM in force (his own ``on self``, or the opposing leader's ``on opponent``): value 0, stop;
    2. otherwise his base strength;
    3. the WHEEL_VALUE entries whose condition holds (and the ``set`` acts of House and main-leader powers,
       DISPERSION-M3): if any is below base, the lowest of those, else the highest; none: base (D-21);
    4. plus every WHEEL_MODIFIER that applies (his own ``on self``, the opposing leader's ``on opponent``) and
       every House or main-leader ``add`` / ``add_per_living`` act (DISPERSION-P2/M1, HARKONNEN-M3); never
       below 0.

    Then K-4 TROOPS_WORTH_ONE and K-5 ARMY_BONUS of his entries. ``territory`` is the battle's (terrain
    conditions, LC-3; ``shield_wall_standing`` false makes the Shield Wall a desert); ``dead`` and ``blocked``
    per side as :class:`~dunenb.battle.plans.BattleSide`; ``voices`` per side the Voice commands given against it
    in this battle (``BattleSide.voices_against``: K-2 WHEEL_MODIFIER ``per voice_command``, D-24).
    Bounties and shield passes keep the base strength (GAP-28a): they do not read this.

    >>> from dunenb.battle.roster import load_roster
    >>> roster = load_roster()
    >>> chani, paul = roster.find("Chani", house="fremen"), roster.find("Paul")
    >>> sides = battle_values(("fremen", "atreides"), (chani, paul), 1, territory="nord-cielago")
    >>> sides[0].leader_value, sides[0].disarmed, sides[0].powers     # F02-d: no 9 in Cielago against Paul
    (Fraction(0, 1), True, ('FREMEN-L02-d', 'FREMEN-L02-a'))
    """
    return _battle_values((houses[0], houses[1]), (leaders[0], leaders[1]), defender, territory,
                          (frozenset(dead[0]), frozenset(dead[1])), (frozenset(blocked[0]), frozenset(blocked[1])),
                          shield_wall_standing, (voices[0], voices[1]))


@lru_cache(maxsize=1024)  # a leader record is asked at every leader step he fights in
def may_disarm(leader: Leader | None) -> bool:
    """Whether a K-3 DISARM entry could act for ``leader`` in some battle: one of his own entries, or one of a
    leader he may inherit from (K-24), whoever is dead. When neither leader of a battle may, nobody is disarmed:
    :func:`battle_values` marks a side disarmed only for an entry of kind DISARM that
    :func:`~dunenb.battle.leader_powers.acting` lists, and it lists only entries he holds (his own, and the
    inherited ones of his dead sources). Issue 14 item 4: the leader step asks this before the whole values.

    >>> from dunenb.battle.roster import load_roster
    >>> roster = load_roster()
    >>> may_disarm(roster.find("Chani", house="fremen")), may_disarm(roster.find("Paul")), may_disarm(None)
    (True, False, False)
    """
    if leader is None:
        return False
    from dunenb.powers.inheritance import inheritable

    return any(power.kind == "DISARM" for power in leader.powers + inheritable(leader))


# issue 14 item 4: 2,048 entries answer as many asks as 8,192 did (ten bot games: 21,527 hits against 21,393) and keep
# a quarter of the objects every full garbage collection walks
@lru_cache(maxsize=2048)
def _battle_values(houses: tuple[str, str], leaders: tuple[Leader | None, Leader | None], defender: int,
                   territory: str, dead: tuple[frozenset[str], frozenset[str]],
                   blocked: tuple[frozenset[str], frozenset[str]],
                   shield_wall_standing: bool = True,
                   voices: tuple[int, int] = (0, 0)) -> tuple[SideValues, SideValues]:
    """:func:`battle_values` on hashable arguments, cached: settle asks it at every chance leaf (issue 14)."""
    from dunenb.battle.leader_powers import Scene, acting
    from dunenb.powers.leader_effects import ArmyBonus, Disarm, WheelModifier, WheelValue

    scene = Scene.of(territory, houses, leaders, defender=defender, dead=dead, blocked=blocked,
                     shield_wall_standing=shield_wall_standing)
    used: list[list[str]] = [[], []]
    aims: list[list[tuple[str, int]]] = [[], []]  # SideValues.value_targets (GAP-147)
    disarmed = [False, False]
    for me in (0, 1):  # step 1: K-3, from either side
        for power in acting(scene, me, "DISARM"):
            assert isinstance(power.effect, Disarm)
            target = me if power.effect.on == "self" else 1 - me
            if leaders[target] is not None:
                disarmed[target] = True
                used[me].append(power.id)
    candidates: list[list[Fraction]] = [[], []]
    modifiers: list[Fraction] = [Fraction(0), Fraction(0)]
    for me in (0, 1):
        for power in acting(scene, me, "WHEEL_VALUE"):
            assert isinstance(power.effect, WheelValue)
            candidates[me].append(Fraction(power.effect.value))
        for power in acting(scene, me, "WHEEL_MODIFIER"):
            assert isinstance(power.effect, WheelModifier)
            if power.effect.on == "Vladimir":
                continue  # GAP-90 (HARKONNEN-M3 applies it)
            # K-2 "per voice_command" (D-24): delta times the commands given against this leader's side
            times = voices[me] if power.effect.per == "voice_command" else 1
            target = me if power.effect.on == "self" else 1 - me
            if times and leaders[target] is not None and not disarmed[target]:
                modifiers[target] += power.effect.delta * times
                used[me].append(power.id)
                aims[me].append((power.id, target))
    house_sets: list[list[tuple[str, Fraction]]] = [[], []]
    for me, leader in enumerate(leaders):
        if leader is None:
            continue
        for act in battle_acts():
            if act.hook != "leader.value" or not _acting(act, me, houses, leaders, defender, blocked):
                continue
            holder_side = me if act.applies_to == "holder" else 1 - me
            if act.applies_to == "others":  # K-10 seduction (TLEILAX-L10-c): DISPERSION-P2/M1 do not lower him
                spared = power_protection(leader, act.power, house=houses[me], blocked=blocked[me])
                if spared is not None and spared.sure:
                    used[me].append(spared.power)
                    aims[me].append((spared.power, me))
                    continue
            if act.effect == "set":
                house_sets[me].append((act.power, Fraction(act.params["value"])))
                continue
            if disarmed[me]:
                continue
            if act.effect == "add_per_living":  # HARKONNEN-M3: the holder's side's dead are that side's facts
                modifiers[me] += sum(Fraction(amount) for lid, amount in act.params["leaders"].items()
                                     if lid not in dead[holder_side]  # KARAMA-50 voids a minion (GAP-125)
                                     and not is_voided(houses[holder_side], lid, blocked[holder_side]))
            else:
                modifiers[me] += Fraction(act.params["amount"])
            used[holder_side].append(act.power)
            aims[holder_side].append((act.power, me))
    values: list[Fraction] = []
    for me, leader in enumerate(leaders):
        if leader is None or disarmed[me]:
            values.append(Fraction(0))
            continue
        base = Fraction(leader.strength)
        options = candidates[me] + [value for _power, value in house_sets[me]]
        below = [value for value in options if value < base]
        value = min(below) if below else max(options, default=base)
        for power in acting(scene, me, "WHEEL_VALUE"):  # the entry that gave the value acted
            assert isinstance(power.effect, WheelValue)
            if options and Fraction(power.effect.value) == value and value != base:
                used[me].append(power.id)
                aims[me].append((power.id, me))
                break
        else:
            sets = [power for power, set_value in house_sets[me] if set_value == value != base]
            used[me].extend(sets)
            aims[me].extend((power, me) for power in sets)
        values.append(max(Fraction(0), value + modifiers[me]))
    sides = []
    for me in (0, 1):
        worth_one = acting(scene, me, "TROOPS_WORTH_ONE")
        bonus = acting(scene, me, "ARMY_BONUS")
        used[me].extend(power.id for power in worth_one + bonus)
        sides.append(SideValues(
            leader_value=values[me], troops_worth_one=bool(worth_one),
            army_bonus=sum((Fraction(power.effect.amount) for power in bonus
                            if isinstance(power.effect, ArmyBonus)), Fraction(0)),
            disarmed=disarmed[me], powers=tuple(dict.fromkeys(used[me])), value_targets=tuple(aims[me])))
    return sides[0], sides[1]


def leader_values(houses: Sequence[str], leaders: Sequence[Leader | None], defender: int, *,
                  territory: str = "", dead: Sequence[frozenset[str]] = NO_FACTS,
                  blocked: Sequence[frozenset[str]] = NO_FACTS) -> tuple[Fraction, Fraction]:
    """The wheel values of the two leaders (side order; 0 for no leader), as :func:`battle_values`."""
    first, second = battle_values(houses, leaders, defender, territory=territory, dead=dead, blocked=blocked)
    return first.leader_value, second.leader_value


def side_army_value(dial: Dial, values: SideValues, marked: Fraction = Fraction(1)) -> Fraction:
    """The army value of a dial under the side's K-4 and K-5 (WHEEL-2: a token worth 1 before spice is
    counted as a marked one; marked tokens do not change) (BATTLE-9). ``marked``: what a marked token is worth
    (``token.value``, :func:`marked_token_value`: ½ under DISPERSION-P3); K-4 makes every token worth 1.

    >>> side_army_value(Dial(3, 0, 1), SideValues(Fraction(5), troops_worth_one=True, army_bonus=Fraction(2)))
    Fraction(6, 1)
    """
    if values.troops_worth_one:
        return army_value(Dial(0, dial.regular + dial.elite, dial.spice)) + values.army_bonus
    return army_value(dial, marked) + values.army_bonus


def builtin_weapons(houses: Sequence[str], leaders: Sequence[Leader | None],
                    blocked: Sequence[frozenset[str]] = NO_FACTS) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The built-in attacks each side's leader carries besides his cards (``leader.weapons``, houses.md G-4):
    TLEILAX-M1, Waff's distance projectile, unless a Karama blocks it in this battle (KARAMA-37)."""
    return _builtin_weapons((houses[0], houses[1]), (leaders[0], leaders[1]),
                            (frozenset(blocked[0]), frozenset(blocked[1])))


def carried_weapons(house: str, leader: Leader | None, blocked: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """The built-in attacks ``leader`` carries for ``house`` besides his cards (``leader.weapons``, houses.md G-4:
    TLEILAX-M1, Waff's distance projectile, unless ``blocked`` holds the power, KARAMA-37), seen from that side
    alone: what its answer to "your attack?" must name too (ATREIDES-P1, GUILD-M2)."""
    return _builtin_weapons((house, ""), (leader, None), (frozenset(blocked), frozenset()))[0]


@lru_cache(maxsize=4096)  # issue 14 item 4: the leader step asks again at every d10 branch
def _builtin_weapons(houses: tuple[str, str], leaders: tuple[Leader | None, Leader | None],
                     blocked: tuple[frozenset[str], frozenset[str]]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    found: list[tuple[str, ...]] = []
    for me in (0, 1):
        cards: list[str] = []
        for act in battle_acts():
            if act.hook == "leader.weapons" and _acting(act, me, houses, leaders, 0, blocked):
                cards += [card for card in act.params["value"] if card not in cards]
        found.append(tuple(cards))
    return found[0], found[1]


def marked_token_value(houses: Sequence[str], leaders: Sequence[Leader | None], side: int) -> Fraction:
    """``token.value``: what one marked token of side ``side`` is worth on its wheel, its leader ``leaders[side]``
    (WHEEL-2: 1; DISPERSION-P3: ½ under Elpek or a fanatic)."""
    value = Fraction(1)
    own = leaders[side]
    if own is None or own.house not in (None, houses[side]):
        return value  # no leader (or one who changed sides): WHEEL-2
    for act in battle_acts():
        if act.hook == "token.value" and houses[side] == act.holder and all(
                _holds(name, target=own, own=own, holder_attacks=False) for name in act.when):
            value = Fraction(act.params["value"])
    return value


@lru_cache(maxsize=1)
def slot_weapon_powers() -> tuple[tuple[str, str, str], ...]:
    """(power, holder, weapon) for every implemented power that puts a built-in weapon in the attack slot
    (trigger ``battle.plan``, effect ``offer``, ``action`` a built-in weapon: DISPERSION-P1 karate; G-4)."""
    from dunenb.battle.cards import BUILT_IN_WEAPONS

    found = []
    for entry in read_data_file("powers.json").get("powers", []):
        if entry.get("status") != "implemented":
            continue
        for act in entry.get("acts", ()):
            weapon = act.get("params", {}).get("action")
            if act.get("trigger") == "battle.plan" and act.get("effect") == "offer" and weapon in BUILT_IN_WEAPONS:
                found.append((entry["id"], entry["holder"], weapon))
    return tuple(found)


def slot_weapons(house: str) -> tuple[str, ...]:
    """The built-in weapons ``house`` may put in its attack slot by its sheet (DISPERSION-P1: karate)."""
    return tuple(weapon for _power, holder, weapon in slot_weapon_powers() if holder == house)


def immune_to(leader: Leader | None, blocked: frozenset[str] = frozenset()) -> frozenset[str]:
    """The cards that cannot kill ``leader`` (``leader.immune``; ATREIDES-M1: Paul and the slow poison;
    DISPERSION-M2: ``"voice"``, Dama and the Voice). Only the leader's own facts decide (his House and whether he
    is its main leader), and the powers a Karama blocks in this battle (``blocked``: KARAMA-42, KARAMA-23)."""
    if leader is None:
        return frozenset()
    cards: set[str] = set()
    for act in battle_acts():
        if act.hook == "leader.immune" and act.power not in blocked and leader.house == act.holder and all(
                _holds(name, target=leader, own=leader, holder_attacks=False) for name in act.when):
            cards.update(act.params["value"])
    return frozenset(cards)
