"""Leaders' traits and movement in battles (issue 11 item 2): K-21 RESTRICTION, K-22 MOBILITY (leaders.md §1).

Every RESTRICTION entry is a **trait** (LC-10): it acts whoever plays the leader (a captive, a swapped traitor:
LC-9, D-14) and no Karama blocks it. They are read from the leader's own entries (``data/leaders.json``), here
for games, ``dunenb battle`` cases and the analyzer alike:

* ``cannot_carry(kinds)`` (F11-e, F12-e shield and snooper; A03-d, A04-d shield): no such card in any defence
  slot he fills, the K-6 second one included (GAP-144);
* ``attacks_only(kinds)`` (A12-b lasgun, atomics): each attack slot he fills (the K-6/K-7 extra one included,
  GAP-144) holds one of those cards or nothing; a worthless card may still fill it (it is no attack,
  CARD-WORTHLESS-2), a built-in weapon may not (GAP-116);

These two bear on the cards and built-ins on his wheel: :func:`carry_error`, asked by
:func:`dunenb.battle.leader_weapons.check_slots` wherever slot legality is checked (game menus and plans,
``dunenb battle`` cases, the analyzer); the others on the dial and the House's built-ins: :func:`plan_error`.
* ``no_army`` (A12-a): no token and no spice may be dialled (his House's tokens there are still at stake,
  BATTLE-11, D-33);
* ``no_house_powers`` (D09..D12-b): DISPERSION-P1..P3 do not act through him: no karate in his slot (here),
  no seduction and A tokens worth ½ (:mod:`dunenb.battle.powers`, conditions ``honored-matre`` and
  ``not-honored-matre``);
* ``one_battle_per_turn`` (B11-c, B12-d): he leads one battle per turn, even in the same territory (an exception
  to BATTLE-15's "may fight again there");
* ``dies_in(territory)`` (H06-d): committed there, he dies at the reveal (B6), worth 0, and the opponent
  receives his bounty (:func:`dies_at_reveal`, applied by :func:`dunenb.battle.resolve.leader_step`).

K-22 MOBILITY ``cities`` (A07-c) is a **power**: while his own House plays him and no Karama blocks it, Tufir may
lead battles in several cities (MAP-6 kind ``city``: Arrakeen, Carthag, Arsunt) in one turn (an exception to
BATTLE-15, for cities only). MOBILITY ``pole`` (H07-d) is S-9, a game rule (:mod:`dunenb.rules.leader_specials`).

>>> from dunenb.battle.roster import load_roster
>>> roster = load_roster()
>>> ghanima = roster.find("Ghanima", house="fremen")
>>> restrictions(ghanima)
(('cannot_carry', ('shield', 'snooper'), 'FREMEN-L12-e'),)
>>> carry_error(ghanima, attacks=(), defences=("snooper",)).code
'battle/leader-cannot-carry'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Sequence
from functools import lru_cache

from dunenb.battle.cards import BUILT_IN_WEAPONS, DEFENCES, card_kind
from dunenb.battle.plans import Battle
from dunenb.battle.roster import Leader, Power
from dunenb.errors import IllegalActionError
from dunenb.powers.leader_effects import TERRITORIES, Disarm, Effect, WheelValue

#: (rule, parameters, power ID) of one RESTRICTION entry.
Restriction = tuple[str, tuple[str, ...], str]
#: K-22 MOBILITY ``cities``: the MAP-6 kind its leader may lead in several territories of in one turn.
CITY = "city"

_BY_KEY: dict[str, tuple[Restriction, ...]] = {}
#: leaders.md LC-10: every entry of these kinds is a trait (K-21 "Always a trait", K-23, K-24).
TRAIT_KINDS = ("RESTRICTION", "EXCLUSIVE", "INHERIT")


def is_trait(power: Power, leader: Leader) -> bool:
    """leaders.md LC-10, the one test of a trait: every RESTRICTION, EXCLUSIVE and INHERIT entry, DISARM ``on
    self``, a WHEEL_VALUE below ``leader``'s base strength, and the entries marked *(trait)* in §2 (H09-d); every
    other entry is a power. What reads it: what a foreign House's leader keeps (LC-9, D-14:
    :func:`dunenb.battle.leader_powers.acting`), what a Karama against a leader leaves (LC-11:
    :func:`dunenb.battle.leader_karama.voidable_powers`) and what an heir never receives (K-24:
    :mod:`dunenb.powers.inheritance`). RESTRICTION entries act through :func:`restrictions`, for any House."""
    effect = power.effect
    if power.kind in TRAIT_KINDS or getattr(effect, "trait", False):
        return True
    if isinstance(effect, Disarm):
        return effect.on == "self"
    if isinstance(effect, WheelValue):
        return effect.value < leader.strength
    return False


def restrictions(leader: Leader | None) -> tuple[Restriction, ...]:
    """The leader's RESTRICTION entries as (rule, parameters, power ID); ``dies_in`` names an area id (LC-3)."""
    if leader is None or leader.house is None:
        return ()
    found = _BY_KEY.get(leader.key)
    if found is None:
        found = _BY_KEY[leader.key] = tuple(_restriction(power.effect, power.id) for power in leader.powers
                                            if power.kind == "RESTRICTION" and isinstance(power.effect, Effect))
    return found


def _restriction(effect: Effect, power_id: str) -> Restriction:
    """``("cannot_carry shield", "snooper")`` -> ``("cannot_carry", ("shield", "snooper"), id)``."""
    first, _, rest = effect.args[0].partition(" ")
    params = tuple(word.strip() for word in (rest, *effect.args[1:]) if word.strip())
    if first == "dies_in":
        from dunenb.battle.roster import fold

        params = tuple(TERRITORIES.get(fold(name).replace("-", " "), name) for name in params)
    return first, params, power_id


def has_rule(leader: Leader | None, rule: str) -> str | None:
    """The ID of the leader's RESTRICTION entry ``rule``, if he has one."""
    return next((power_id for name, _params, power_id in restrictions(leader) if name == rule), None)


def carry_error(leader: Leader | None, *, attacks: Sequence[str | None],
                defences: Sequence[str | None]) -> IllegalActionError | None:
    """Why ``leader`` may not carry the ``attacks`` (attack slot first, then the extra one: K-6 second card, K-7
    built-in) and ``defences`` (defence slot, then K-6's second one) of a wheel, by his K-21 ``cannot_carry`` or
    ``attacks_only``, or ``None``. GAP-144: a restriction is about the leader carrying, so it binds every slot he
    fills, whichever power gave it (his own K-6/K-7 entries, or powers a K-24 INHERIT brings him)."""
    for rule, params, power_id in restrictions(leader):
        assert leader is not None
        if rule == "cannot_carry":
            for defense in defences:
                if defense is not None and card_kind(defense) in params:
                    others = [kind for kind in DEFENCES if kind not in params]  # e.g. Leto II F11-e: worthless only
                    return IllegalActionError(
                        "battle/leader-cannot-carry", f"defense: {leader.name} cannot carry a {defense} "
                        f"({power_id}: {', '.join(params)}; every defence slot, GAP-144); allowed: "
                        f"{', '.join(['none', *others])}")
        if rule == "attacks_only":
            for weapon in attacks:
                if weapon not in (None, "worthless") and (
                        weapon in BUILT_IN_WEAPONS or card_kind(weapon) not in params):
                    return IllegalActionError(
                        "battle/leader-attacks-only", f"weapon: {leader.name} attacks only with "
                        f"{' or '.join(params)}, not {weapon} ({power_id}, GAP-116; every attack slot, GAP-144); "
                        f"allowed: none, {', '.join(params)}, worthless")
    return None


def plan_error(leader: Leader | None, house: str, *, weapon: str | None, dialled: int,
               spice: int) -> IllegalActionError | None:
    """Why the wheel of ``house`` led by ``leader`` breaks one of his restrictions on the dial or the House's
    built-ins (K-21 ``no_army``, ``no_house_powers``), or ``None``; the cards he may carry are
    :func:`carry_error`'s. ``weapon``: the attack slot's card id (``None`` if empty); ``dialled`` counts the
    tokens dialled."""
    for rule, _params, power_id in restrictions(leader):
        assert leader is not None
        if rule == "no_army" and (dialled or spice):
            return IllegalActionError("battle/leader-no-army", f"dial: {leader.name} fights with no army "
                                      f"({power_id}): {dialled} token(s) and {spice} spice dialled; allowed: "
                                      "0 tokens and 0 spice")
        if rule == "no_house_powers" and weapon in BUILT_IN_WEAPONS and weapon in _house_weapons(house):
            return IllegalActionError("battle/leader-no-house-powers", f"weapon: {weapon} is a {house} House "
                                      f"power, which does not act through {leader.name} ({power_id}); allowed: "
                                      "none or an attack card")
    return None


def _house_weapons(house: str) -> tuple[str, ...]:
    from dunenb.battle.powers import slot_weapons

    return slot_weapons(house)


def may_lead(leader: Leader, territory: str, fought: Collection[str], *, is_main: bool, foreign: bool = False,
             blocked: Collection[str] = ()) -> bool:
    """BATTLE-15, BATTLE-16 with the traits and MOBILITY: whether ``leader`` (alive) may lead a battle in
    ``territory`` this turn, having led battles in the territories ``fought``.

    A main leader goes anywhere (BATTLE-16), a secondary leader stays in one territory (BATTLE-15), except
    ``one_battle_per_turn`` (once in all) and MOBILITY ``cities`` (city to city; a power: off when ``foreign``
    or ``blocked``).

    >>> from dunenb.battle.roster import load_roster
    >>> tufir = load_roster().find("Tufir", house="atreides")
    >>> may_lead(tufir, "carthag", ["arrakeen"], is_main=False), may_lead(tufir, "sietch-tarb", ["arrakeen"],
    ...                                                                   is_main=False)
    (True, False)
    """
    if has_rule(leader, "one_battle_per_turn") and fought:
        return False  # K-21 (B11-c, B12-d): a trait, it binds a main leader too
    if is_main or not fought or set(fought) == {territory}:
        return True
    mobile = _mobility(leader, "cities")
    if mobile is None or foreign or mobile in blocked:
        return False
    return _is_city(territory) and all(_is_city(area) for area in fought)  # K-22 (A07-c)


def _mobility(leader: Leader, rule: str) -> str | None:
    """The ID of the leader's MOBILITY entry ``rule``, if any."""
    return next((power.id for power in leader.powers if power.kind == "MOBILITY" and isinstance(power.effect, Effect)
                 and power.effect.args[:1] == (rule,)), None)


@lru_cache(maxsize=128)
def _is_city(area: str) -> bool:
    from dunenb.battle.leader_powers import terrain_kind

    return terrain_kind(area) == CITY


def dies_at_reveal(leader: Leader | None, territory: str) -> str | None:
    """K-21 ``dies_in`` (H06-d): the ID of the restriction that kills ``leader`` at the reveal of a battle in
    ``territory`` (B6), or ``None``."""
    found = restrictions(leader)
    if not found:  # issue 14 item 4: most leaders have no restriction (asked for both sides of every leader step)
        return None
    return next((power_id for rule, params, power_id in found if rule == "dies_in" and territory in params), None)


def with_reveal_deaths(battle: Battle) -> Battle:
    """The battle with each side whose leader dies at the reveal (K-21 ``dies_in``, H06-d) marked ``doomed``.

    His attack card goes back to his hand, as a disarmed leader's (K-3,
    GAP-117): he is dead before the wheels act; his defence card stays on the wheel, with nothing to protect; no
    treachery can be called on him (B7 comes after his death). He is worth 0 and his bounty goes to the opponent
    (BATTLE-13 f3)."""
    first, second = battle.sides  # issue 14 item 4: the two sides tested without a generator (every leader step)
    if ((first.doomed is not None or dies_at_reveal(first.plan.leader, battle.territory) is None)
            and (second.doomed is not None or dies_at_reveal(second.plan.leader, battle.territory) is None)):
        return battle
    sides = []
    for side in battle.sides:
        power_id = side.doomed or dies_at_reveal(side.plan.leader, battle.territory)
        if power_id is not None:
            side = dataclasses.replace(side, doomed=power_id, plan=dataclasses.replace(side.plan, weapon=None))
        sides.append(side)
    return dataclasses.replace(battle, sides=(sides[0], sides[1]))
