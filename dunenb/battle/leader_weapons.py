"""Secondary-leader cards and built-ins in battles: leaders.md K-6 CARD_SLOTS, K-7 BUILTIN_WEAPON, K-8
BUILTIN_DEFENSE and K-9 CARD_RULE (issue 11 item 2), resolved as LC-7 says.

What a fighting leader's entries give his side (:func:`arsenal`) is read from his ``effect`` objects only, for
the House that plays him: a leader played by a foreign House (LC-9, D-14) and a power a Karama blocks in this
battle (LC-11, the side's ``blocked``) give nothing (none of these entries is a trait by the one LC-10 test,
:func:`dunenb.battle.leader_traits.is_trait`).

* K-6: a second attack card (``extra_attack``; then no defence; ``distinct``: another kind, :func:`card_kind`) or a
  second defence card (``extra_defense``; then no attack).
* K-7: a built-in weapon (no card, :data:`~dunenb.battle.cards.BUILT_IN_WEAPONS`) used or not in the plan:
  ``extra`` on top of the attack card, in ``extra_attack`` (a defence allowed); ``extra_no_defence`` (the Gom
  Jabbar), in ``extra_attack``, with a defence when it is the only attack, without one beside an attack card of
  another kind; ``in_slot``, in the attack slot ``weapon``. H10-c's slow poison is there only after a d10 ≤ 2 at
  B1 (D-31: the side's ``b1_rolls``).
* K-8: a shield worn (no card), rolled once per battle the first time a projectile or karate needs it (LC-1):
  on d10 ≤ N it is one more Shield (LC-7; never against a lasgun, never an explosion, D-20).
* K-9: ``slow_to_fast``, ``fast_as_slow_vs_self``, ``two_pass_rolls``, ``snooper_fails``, ``atomics_licence``
  act in :func:`card_deaths` and the settlement; ``worthless_is_karama`` (G01-d) lets the Guild put a worthless
  card on Edric's wheel as its Karama (:func:`karama_substitutes`).

Every d10 is asked from ``roll(side)``, so the resolver enumerates it as a chance node and the outcome
distribution stays exact.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

from dunenb.battle.cards import (
    BUILT_IN_ACTS_AS,
    BUILT_IN_WEAPONS,
    DEFENCES,
    SHIELD_STOPS,
    WEAPONS,
    card_kind,
    is_instant,
)
from dunenb.battle.leader_traits import carry_error, is_trait, restrictions
from dunenb.battle.plans import BattlePlan
from dunenb.battle.rolls import SHIELD_PASS, SNOOPER, WORN_SHIELD, Roll
from dunenb.battle.roster import Leader, Power
from dunenb.errors import IllegalActionError
from dunenb.powers.leader_effects import HOUSE_WORDS, Condition, Effect, parse_condition

NO_FACTS: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
#: K-7 weapon words of data/leaders.json -> built-in weapon ids (cards.BUILT_IN_WEAPONS).
BUILT_IN_NAMES: dict[str, str] = {
    'contact projectile "Krys"': "krys", 'contact projectile "Kindjal"': "kindjal",
    'fast poison "Gom Jabbar"': "gom-jabbar", "slow poison": "poison-slow-built-in", "karate": "karate",
}
#: K-9 rules that bear on the opposing leader only (leaders.md K-9: A06-b "against a leader of Harkonnen").
RULE_TARGETS: dict[str, str] = {"snooper_fails": "opp of Harkonnen"}
#: GAP-91 (design): a worthless card may still fill a defence slot beside a worn shield that "adds snooper" (it
#: does nothing, CARD-WORTHLESS-1); only a Shield card is refused (D-20).
WORN_SHIELD_ADDS = ("snooper", "worthless")


@dataclass(frozen=True)
class Arsenal:
    """What one side's fighting leader's K-6..K-9 entries give in this battle (power IDs kept to report them).

    ``extra_attack_card``: the power that allows a second attack card (K-6), ``distinct`` whether it must be of
    another kind; ``extra_defence_card``: the power that allows a second defence card; ``extras``: (power,
    built-in id, mode) carried beside the attack card; ``in_slot``: (power, built-in id, N or None: available
    only after a d10 ≤ N at B1); ``shields``: (power, N, cards allowed beside it or None for any);
    ``rules``: (power, rule, argument)."""

    extra_attack_card: str | None = None
    distinct: bool = False
    extra_defence_card: str | None = None
    extras: tuple[tuple[str, str, str], ...] = ()
    in_slot: tuple[tuple[str, str, int | None], ...] = ()
    shields: tuple[tuple[str, int, tuple[str, ...] | None], ...] = ()
    rules: tuple[tuple[str, str, str], ...] = ()

    def rule(self, name: str) -> tuple[str, str] | None:
        """(power, argument) of the K-9 rule ``name`` (its first entry), or None."""
        return self._rules.get(name)

    @cached_property
    def _rules(self) -> dict[str, tuple[str, str]]:
        """:attr:`rules` by name, first entry first (asked at every chance leaf of a battle: issue 14)."""
        found: dict[str, tuple[str, str]] = {}
        for power, rule, arg in self.rules:
            found.setdefault(rule, (power, arg))
        return found

    def slot_weapons(self, b1_rolls: Iterable[tuple[str, int]] = ()) -> tuple[str, ...]:
        """The built-ins this leader may put in the attack slot (K-7 ``in_slot``; H10-c only after its B1 roll)."""
        if not self.in_slot:
            return ()  # issue 14 item 4: most leaders put no built-in in the slot (asked by every slot check)
        rolled = dict(b1_rolls)
        return tuple(weapon for power, weapon, need in self.in_slot
                     if need is None or (power in rolled and rolled[power] <= need))

    def extra_weapons(self) -> tuple[str, ...]:
        return tuple(weapon for _power, weapon, _mode in self.extras)


def _bound(text: str) -> int:
    """N of a ``d10≤N`` parameter."""
    return int(text.split("≤")[1].split()[0])


def _acting_entries(leader: Leader | None, house: str, blocked: frozenset[str]) -> tuple[Power, ...]:
    """The leader's entries of kinds K-6..K-9 that act for ``house`` (LC-9, D-14: only his traits when a foreign
    House plays him; LC-11: not a blocked power; by the one LC-10 test, none of these entries is a trait today)."""
    if leader is None:
        return ()
    foreign = leader.house is not None and leader.house != house
    return tuple(power for power in leader.powers if isinstance(power.effect, Effect)
                 and power.kind in ("CARD_SLOTS", "BUILTIN_WEAPON", "BUILTIN_DEFENSE", "CARD_RULE")
                 and (is_trait(power, leader) or not (foreign or power.id in blocked)))


@lru_cache(maxsize=4096)
def arsenal(leader: Leader | None, house: str, blocked: frozenset[str] = frozenset()) -> Arsenal:
    """The :class:`Arsenal` of ``leader`` on ``house``'s wheel (``blocked``: the side's powers a Karama blocks)."""
    extra_attack = extra_defence = None
    distinct = False
    extras: list[tuple[str, str, str]] = []
    in_slot: list[tuple[str, str, int | None]] = []
    shields: list[tuple[str, int, tuple[str, ...] | None]] = []
    rules: list[tuple[str, str, str]] = []
    for power in _acting_entries(leader, house, blocked):
        effect = power.effect
        assert isinstance(effect, Effect)
        if power.kind == "CARD_SLOTS":  # GAP-94: the extra slot goes beside a filled ordinary one
            attacks = effect.args[0]
            if attacks.startswith("2"):
                extra_attack, distinct = power.id, "distinct" in attacks
            else:
                extra_defence = power.id
        elif power.kind == "BUILTIN_WEAPON":
            weapon, mode = BUILT_IN_NAMES[effect.args[0]], effect.args[1]
            if mode == "in_slot":
                in_slot.append((power.id, weapon, _bound(effect.roll) if effect.roll else None))
            else:
                extras.append((power.id, weapon, mode))
        elif power.kind == "BUILTIN_DEFENSE":
            adds = None if effect.mode is None or "Shield" in effect.mode else WORN_SHIELD_ADDS
            shields.append((power.id, _bound(effect.args[1]), adds))
        else:
            name, _, arg = effect.args[0].partition(" ")
            rules.append((power.id, name, HOUSE_WORDS.get(arg.lower(), arg)))
    return Arsenal(extra_attack, distinct, extra_defence, tuple(extras), tuple(in_slot), tuple(shields),
                   tuple(rules))


def used_powers(plan: BattlePlan, house: str, blocked: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """The IDs of the K-6/K-7 powers this plan uses (its extra slots and built-ins), for the battle's report."""
    found = arsenal(plan.leader, house, blocked)
    used = []
    if plan.extra_attack is not None and plan.extra_attack not in BUILT_IN_WEAPONS and found.extra_attack_card:
        used.append(found.extra_attack_card)
    if plan.extra_defense is not None and found.extra_defence_card:
        used.append(found.extra_defence_card)
    used += [power for power, weapon, _mode in found.extras if plan.extra_attack == weapon]
    used += [power for power, weapon, _need in found.in_slot if plan.weapon == weapon]
    return tuple(used)


# ------------------------------------------------------------------------------------------------ plan checks
def _builtin_hint(found: Arsenal, weapon: str) -> str:
    """Where a built-in refused in the attack slot goes instead: beside the attack card (K-7 ``extra``,
    ``extra_no_defence``: the plan's ``extra_attack``, even alone), or in the slot only after its B1 roll
    (K-7 ``in_slot`` with a d10, D-31: the case's ``b1_rolls``)."""
    if weapon in found.extra_weapons():
        return f" ({weapon} goes in extra_attack, with or without an attack card)"
    rolled = [f"{power} <= {need}" for power, built_in, need in found.in_slot if built_in == weapon and need]
    return f" (only after its B1 d10: b1_rolls {rolled[0]})" if rolled else ""


def check_slots(plan: BattlePlan, house: str, *, blocked: frozenset[str] = frozenset(),
                house_weapons: Sequence[str] = (), b1_rolls: Iterable[tuple[str, int]] = ()) -> None:
    """Raise :class:`IllegalActionError` unless the plan's slots fit its leader's powers (LC-7, K-6..K-8).

    ``house_weapons``: the built-ins the House's own powers put in the attack slot (DISPERSION-P1 karate)."""
    found = arsenal(plan.leader, house, blocked)
    who = plan.leader.name if plan.leader is not None else "no leader"
    slot = (*house_weapons, *found.slot_weapons(b1_rolls))
    if plan.weapon in BUILT_IN_WEAPONS and plan.weapon not in slot:
        raise IllegalActionError("battle/weapon", f"{house}: {plan.weapon!r} is a built-in weapon {who} does not "
                                 f"carry in the attack slot now (G-4, leaders.md K-7); allowed: "
                                 f"{', '.join(slot) or 'none'}{_builtin_hint(found, plan.weapon)}")
    extra = plan.extra_attack
    if extra is not None:
        if plan.weapon in slot and plan.weapon not in house_weapons:
            raise IllegalActionError("battle/extra-attack", f"{house}: {who}'s {plan.weapon} fills the attack slot "
                                     "and allows no other attack (leaders.md K-7 in_slot); allowed: none")
        if extra in BUILT_IN_WEAPONS:
            modes = {weapon: mode for _power, weapon, mode in found.extras}
            if extra not in modes:
                raise IllegalActionError("battle/extra-attack", f"{house}: {who} carries no {extra!r} beside the "
                                         f"attack card (leaders.md K-7); allowed: "
                                         f"{', '.join(modes) or 'none'}")
            card = plan.weapon not in (None, "worthless")
            if modes[extra] == "extra_no_defence" and card:
                assert plan.weapon is not None
                if card_kind(plan.weapon) == card_kind(extra):  # GAP-92: "2 armes différentes" (L1089)
                    raise IllegalActionError("battle/extra-attack", f"{house}: the {extra} goes with an attack "
                                             f"card of another kind, not {plan.weapon} (leaders.md K-7, GAP-92)")
                if plan.defences:
                    raise IllegalActionError("battle/extra-defense-forbidden", f"{house}: with {plan.weapon} and "
                                             f"the {extra} {who} carries no defence (L1089, K-7 "
                                             "extra_no_defence); allowed: no defence, or the built-in alone")
        else:
            if found.extra_attack_card is None:
                raise IllegalActionError("battle/extra-attack", f"{house}: {who} has no second attack slot "
                                         "(leaders.md K-6); allowed: none")
            if plan.weapon is None or plan.weapon in BUILT_IN_WEAPONS:
                raise IllegalActionError("battle/extra-attack", f"{house}: the second attack card goes beside an "
                                         "attack card in the attack slot (leaders.md K-6); put it there instead")
            if found.distinct and card_kind(plan.weapon) == card_kind(extra):  # GAP-94: worthless is its own kind
                raise IllegalActionError("battle/extra-attack", f"{house}: {who}'s two attacks must be of distinct "
                                         f"kinds, not two {card_kind(extra)} cards (leaders.md K-6)")
            if plan.defences:
                raise IllegalActionError("battle/extra-defense-forbidden", f"{house}: with two attacks {who} "
                                         "carries no defence (leaders.md K-6); allowed: no defence")
    if plan.extra_defense is not None:
        if found.extra_defence_card is None:
            raise IllegalActionError("battle/extra-defense", f"{house}: {who} has no second defence slot "
                                     "(leaders.md K-6); allowed: none")
        if plan.defense is None:
            raise IllegalActionError("battle/extra-defense", f"{house}: the second defence card goes beside a "
                                     "defence card in the defence slot (leaders.md K-6); put it there instead")
        if plan.attacks:
            raise IllegalActionError("battle/extra-defense", f"{house}: with two defences {who} makes no attack "
                                     "(leaders.md K-6); allowed: no attack")
    for _power, _bound_n, adds in found.shields:
        wrong = [card for card in plan.defences if adds is not None and card not in adds]
        if wrong:
            raise IllegalActionError("battle/defense", f"{house}: {who} wears a shield and may add only "
                                     f"{', '.join(adds or ())} (D-20, leaders.md K-8; GAP-91), not {wrong[0]}")
    restricted = carry_error(plan.leader, attacks=plan.attacks, defences=plan.defences)
    if restricted is not None:  # leaders.md K-21 cannot_carry / attacks_only, a trait: every slot (GAP-144)
        raise restricted


def slot_options(leader: Leader | None, house: str, hand: Iterable[str], *, blocked: frozenset[str] = frozenset(),
                 house_weapons: Sequence[str] = (), b1_rolls: Iterable[tuple[str, int]] = (),
                 attack_cards: Sequence[str], defence_cards: Sequence[str]
                 ) -> list[tuple[str | None, str | None, str | None, str | None]]:
    """Every (weapon, defense, extra_attack, extra_defense) the leader may put on the wheel from ``hand`` (the
    ``attack_cards`` and ``defence_cards`` to consider, in order), for plan menus: the one-slot plans first, then
    those the leader's K-6/K-7 powers add. A card fills one slot (the hand counts)."""
    if leader is None:
        return [(None, None, None, None)]
    # issue 14 item 4: the plan menus ask again and again for the same leader and hand; only the hand's counts
    # matter, so it is keyed sorted. And the options read the leader only through his arsenal (K-6..K-9, for this
    # House and these blocked powers) and his K-21 carry rules (check_slots: arsenal() and carry_error(); the
    # leader's name is only in the messages of the refusals, which are dropped): leaders equal in both share
    # one entry (most leaders have neither), so a menu of ten leaders computes the options once.
    key = (arsenal(leader, house, blocked), carry_rules(leader), house, tuple(sorted(hand)), blocked,
           tuple(house_weapons), tuple(b1_rolls), tuple(attack_cards), tuple(defence_cards))
    found = _SLOTS.get(key)
    if found is None:
        if len(_SLOTS) >= MAX_SLOTS:  # bounded: start again
            _SLOTS.clear()
        found = _SLOTS[key] = _slot_options(leader, *key[2:])
    return list(found)


#: :func:`slot_options` by what they read of the leader (issue 14 item 4).
_SLOTS: dict[tuple, tuple[tuple[str | None, str | None, str | None, str | None], ...]] = {}
MAX_SLOTS = 4096


def carry_rules(leader: Leader) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The leader's K-21 rules that :func:`dunenb.battle.leader_traits.carry_error` reads (``cannot_carry``,
    ``attacks_only``) with their parameters: what his wheel's slots depend on besides his arsenal."""
    return tuple((rule, params) for rule, params, _power in restrictions(leader)
                 if rule in ("cannot_carry", "attacks_only"))


def _slot_options(leader: Leader, house: str, hand: tuple[str, ...], blocked: frozenset[str],
                  house_weapons: tuple[str, ...], rolls: tuple[tuple[str, int], ...], attack_cards: tuple[str, ...],
                  defence_cards: tuple[str, ...]) -> tuple[tuple[str | None, str | None, str | None, str | None], ...]:
    """:func:`slot_options` for a leader, on frozen facts (cached)."""
    held = Counter(hand)
    found = arsenal(leader, house, blocked)
    weapons: list[str | None] = [None] + [c for c in attack_cards if held[c]] + list(house_weapons)
    weapons += list(found.slot_weapons(rolls))
    defences: list[str | None] = [None] + [c for c in defence_cards if held[c]]
    combos: list[tuple[str | None, str | None, str | None, str | None]] = [
        (w, d, None, None) for w in weapons for d in defences]
    for extra in found.extra_weapons():
        combos += [(w, d, extra, None) for w in weapons for d in defences]
    if found.extra_attack_card is not None:
        cards = [c for c in attack_cards if held[c]]
        combos += [(a, None, b, None) for i, a in enumerate(cards) for b in cards[i:]]
    if found.extra_defence_card is not None:
        cards = [c for c in defence_cards if held[c]]
        combos += [(None, a, None, b) for i, a in enumerate(cards) for b in cards[i:]]
    result = []
    for combo in combos:
        plan = BattlePlan(leader=leader, weapon=combo[0], defense=combo[1], extra_attack=combo[2],
                          extra_defense=combo[3])
        if Counter(plan.cards_played) - held:
            continue
        try:
            check_slots(plan, house, blocked=blocked, house_weapons=house_weapons, b1_rolls=rolls)
        except IllegalActionError:
            continue
        result.append(combo)
    return tuple(result)


def karama_substitutes(leader: Leader | None, house: str, blocked: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """Cards that serve as a Karama on this leader's wheel by his K-9 ``worthless_is_karama`` (G01-d: the Guild's
    worthless cards in Edric's battle, as BG-P5)."""
    return tuple(card for card, _power in karama_substitute_powers(leader, house, blocked))


def karama_substitute_powers(leader: Leader | None, house: str,
                             blocked: frozenset[str] = frozenset()) -> tuple[tuple[str, str], ...]:
    """(card, power) for :func:`karama_substitutes`: the power by which the card serves as a Karama (G01-d), so
    that a use of it before the reveal can disclose its leader (LC-5 B1, GAP-143)."""
    found = arsenal(leader, house, blocked).rule("worthless_is_karama")
    return (("worthless", found[0]),) if found else ()


def karama_rule_used(plan: BattlePlan, house: str, blocked: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """The K-9 ``worthless_is_karama`` power (G01-d) by which the card standing as a Karama on this wheel is one,
    for the battle's report when that Karama voided the opposing treachery call (KARAMA-45, GAP-147)."""
    rule = arsenal(plan.leader, house, blocked).rule("worthless_is_karama")
    return (rule[0],) if rule is not None and plan.karama == "worthless" else ()


def atomics_licensed(leader: Leader | None, house: str, opponent: str,
                     blocked: frozenset[str] = frozenset()) -> str | None:
    """The power (K-9 ``atomics_licence(X)``: T11-e X = BG, T12-e X = Atreides) by which Atomics played in this
    leader's battle against House ``opponent`` bring no sanction (CARD-ATOMICS-4), or None."""
    return next((power for power, rule, arg in arsenal(leader, house, blocked).rules
                 if rule == "atomics_licence" and arg == opponent), None)


# ------------------------------------------------------------------------------------------------ resolution
@lru_cache(maxsize=16)
def _condition(text: str) -> Condition:
    return parse_condition(text)


@lru_cache(maxsize=1024)  # asked at every chance leaf of a battle (issue 14)
def _targets(rule: tuple[str, str] | None, name: str, leaders: tuple[Leader | None, Leader | None],
             houses: tuple[str, str], me: int) -> bool:
    """Whether the K-9 rule ``name`` of side ``me`` bears on the opposing leader (its :data:`RULE_TARGETS`
    condition, read by the leaders.md condition evaluator on the battle's leaders and Houses)."""
    if rule is None:
        return False
    from dunenb.battle.leader_powers import Scene, holds

    scene = Scene("", None, houses, leaders, defender=0)
    return holds(_condition(RULE_TARGETS[name]), scene, me)


class WornShields:
    """The K-8 worn shields of a battle's two leaders (LC-1, GAP-95): each is rolled once per battle by its wearer,
    the first time an attack needs it, and every later attack of that battle reads the same result (GAP-148: the
    K-17 blast of GUILD-L05-d after the cards). ``report`` receives (side, power ID) of each shield that acts."""

    def __init__(self, kits: Sequence[Arsenal], roll: Roll, report: list[tuple[int, str]]) -> None:
        self.kits, self.roll, self.report = kits, roll, report
        self.rolled: list[int | None] = [None, None]

    def worn(self, side: int) -> bool:
        """Whether side's leader wears any shield (acting or not)."""
        return bool(self.kits[side].shields)

    def acting(self, side: int) -> int:
        """How many of side's worn shields act in this battle (rolled now if not yet)."""
        if self.rolled[side] is None:
            active = [power for power, bound, _adds in self.kits[side].shields if self.roll(side, WORN_SHIELD) <= bound]
            self.report.extend((side, power) for power in active)
            self.rolled[side] = len(active)
        return self.rolled[side] or 0


def card_deaths(leaders: Sequence[Leader | None], plans: Sequence[BattlePlan], roll: Roll, *,
                houses: Sequence[str], blocked: Sequence[frozenset[str]] = NO_FACTS,
                builtin: Sequence[tuple[str, ...]] = ((), ()),
                spared: Callable[[int, str], str | None] = lambda foe, weapon: None,
                acted: list[tuple[int, str]] | None = None,
                worn: WornShields | None = None) -> tuple[bool, bool]:
    """Deaths from the attacks when no explosion happens (CARD-POISON-1 .. CARD-SHIELD-3, GAP-28, LC-7).

    Each attack, card or built-in (``builtin``: the House's own, TLEILAX-M1; a plan's built-ins act as their
    card, :data:`BUILT_IN_ACTS_AS`), is resolved on its own and the target dies if any kills him. Instant kills
    come first; a leader killed instantly cannot try to pass a shield (CARD-SHIELD-2 example 1), a slow poison's
    victim still may (example 3). The defences: a snooper stops every poison (K-9 A06-b: unless Alia's d10 beats a
    Harkonnen leader's base strength); a Shield card and every worn shield that activates (K-8: rolled by its
    wearer, once, when first needed) each count; a shield stops a distance projectile and karate; a contact
    projectile passes each shield separately, d10 ≤ the attacker's base strength (K-9 F10-c: two tries each).
    K-9 B07-a: the BG's slow poison card acts as fast (GAP-93: always declared, it is never worse); K-9 H05-c: a
    fast poison aimed at Iakin acts as slow. ``spared(side, weapon)``: the power that makes side's leader immune
    to that attack (ATREIDES-M1, K-10; :func:`dunenb.battle.immunities.attack_protection`), or ``None``: such an
    attack does nothing and no pass is rolled for it. All effects are simultaneous (GAP-28c). ``acted``
    (optional) receives (side, power ID) for each K-8/K-9 power that changed something on this branch (a worn
    shield that acts, a rule applied) and each immunity that spared a leader. ``worn``: the battle's
    :class:`WornShields`, when the caller reads them again after the cards (GAP-148); its report is its own."""
    report = acted if acted is not None else []
    # issue 14 item 4: the battle's WornShields holds the two leaders' arsenals (the same arsenal() of the same
    # leaders, Houses and blocked powers: resolve.leader_step builds it so), so they are not looked up again
    kits = worn.kits if worn is not None else [arsenal(leaders[me], houses[me], blocked[me]) for me in (0, 1)]
    shields_worn = worn if worn is not None else WornShields(kits, roll, report)
    worn_shields = shields_worn.acting  # LC-1, GAP-95: rolled once per battle, the first time it is needed

    instant = [False, False]
    slow = [False, False]
    attempts: list[tuple[int, int]] = []  # (attacker, Shield cards in the way) of each contact projectile
    for me in (0, 1):
        foe = 1 - me
        target = leaders[foe]
        if leaders[me] is None or target is None:
            continue
        defences = plans[foe].defences
        for attack in (*plans[me].attacks, *builtin[me]):
            if attack == "worthless":
                continue
            weapon = BUILT_IN_ACTS_AS.get(attack, attack)
            fast = kits[me].rule("slow_to_fast")
            if attack == "poison-slow" and fast:
                weapon = "poison-fast"  # B07-a, GAP-93
                report.append((me, fast[0]))
            slow_down = kits[foe].rule("fast_as_slow_vs_self")
            if weapon == "poison-fast" and slow_down:
                weapon = "poison-slow"  # H05-c
                report.append((foe, slow_down[0]))
            kind = card_kind(weapon)

            def immune(foe: int = foe, weapon: str = weapon) -> bool:
                power = spared(foe, weapon)
                if power is not None:
                    report.append((foe, power))
                return power is not None

            if weapon == "lasgun":
                if not immune():
                    instant[foe] = True
            elif kind == "poison":
                stopped = "snooper" in defences
                leader = leaders[me]
                assert leader is not None
                fails = kits[me].rule("snooper_fails")
                if stopped and fails and _targets(fails, "snooper_fails", (leaders[0], leaders[1]),
                                                 (houses[0], houses[1]), me):
                    stopped = roll(me, SNOOPER) <= target.strength  # A06-b: on more than his base strength it fails
                    if not stopped:
                        report.append((me, fails[0]))
                if not stopped and not immune():
                    (instant if is_instant(weapon) else slow)[foe] = True
            elif weapon in SHIELD_STOPS:
                if "shield" not in defences and not (kits[foe].shields and worn_shields(foe)) and not immune():
                    instant[foe] = True
            elif weapon == "projectile-contact" and not immune():
                cards = defences.count("shield")
                if cards == 0 and not kits[foe].shields:
                    instant[foe] = True
                else:
                    attempts.append((me, cards))
    passed = [False, False]
    for me, cards in attempts:
        leader = leaders[me]
        assert leader is not None
        if instant[me]:
            continue
        foe = 1 - me
        shields = cards + (worn_shields(foe) if kits[foe].shields else 0)
        two = kits[me].rule("two_pass_rolls")  # F10-c: one success of two tries is enough
        seconds = 0
        for _shield in range(shields):
            if roll(me, SHIELD_PASS) <= leader.strength:
                continue
            if two and roll(me, SHIELD_PASS) <= leader.strength:
                seconds += 1
                continue
            break
        else:
            passed[foe] = True
            if two and seconds:
                report.append((me, two[0]))
    return (instant[0] or slow[0] or passed[0], instant[1] or slow[1] or passed[1])


def playable_cards(leader: Leader | None, house: str, cards: Iterable[str], *,
                   blocked: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """The cards of ``cards`` (a hand) that ``leader`` may put on his wheel for ``house``, each alone in its slot:
    his K-6..K-8 slot rules (:func:`check_slots`: Tyekanik and Leto I wear a shield and add no Shield card, GAP-91)
    and his K-21 restrictions (Miles Teg attacks only with a lasgun or Atomics). GAP-127: a Voice forcing a kind
    binds only a plan whose hand holds such a card its leader may play (FAQ 12, L753: one cannot obey with a card
    one may not play)."""
    return _playable_cards(leader, house, tuple(cards), frozenset(blocked))


@lru_cache(maxsize=4096)  # issue 14 item 4: a plan menu asks it for every plan its Voice or answer may bind
def _playable_cards(leader: Leader | None, house: str, cards: tuple[str, ...],
                    blocked: frozenset[str]) -> tuple[str, ...]:

    found = []
    for card in cards:
        if card == "worthless" or (card not in WEAPONS and card not in DEFENCES):
            continue  # no kind a Voice names (a Karama, a truth trance, a worthless card...)
        defence = card in DEFENCES
        plan = BattlePlan(leader=leader, weapon=None if defence else card, defense=card if defence else None)
        try:
            check_slots(plan, house, blocked=blocked)  # and his K-21 cannot_carry / attacks_only (GAP-144)
        except IllegalActionError:
            continue
        found.append(card)
    return tuple(found)


def slot_answers(leader: Leader | None, house: str, hand: Iterable[str], slot: str, *,
                 blocked: frozenset[str] = frozenset(), house_weapons: Sequence[str] = (),
                 b1_rolls: Iterable[tuple[str, int]] = ()) -> tuple[str, ...]:
    """The truthful prescience answers (kinds, not "none") a plan led by ``leader`` for ``house`` could give on
    ``slot`` from ``hand``: :func:`dunenb.battle.sequence.slot_answer` of each wheel :func:`slot_options` allows
    and his K-21 restrictions do not forbid (GAP-127), so the extra slots of K-6 and the built-ins of G-4 and K-7
    count (ATREIDES-P1: "includes built-in weapons; a leader with two attacks names both", GAP-138)."""
    from dunenb.battle.leader_traits import plan_error
    from dunenb.battle.powers import carried_weapons
    from dunenb.battle.sequence import slot_answer

    carried = carried_weapons(house, leader, blocked)  # houses.md G-4: Waff's pistol is named too (TLEILAX-M1)
    found: dict[str, None] = {}
    for weapon, defense, extra_attack, extra_defense in slot_options(
            leader, house, hand, blocked=blocked, house_weapons=house_weapons, b1_rolls=b1_rolls,
            attack_cards=WEAPONS, defence_cards=DEFENCES):
        plan = BattlePlan(leader=leader, weapon=weapon, defense=defense, extra_attack=extra_attack,
                          extra_defense=extra_defense)
        answer = slot_answer(plan, slot, carried)
        if answer is not None and answer not in found and plan_error(  # K-21 no_house_powers (karate)
                leader, house, weapon=weapon, dialled=0, spice=0) is None:
            found[answer] = None
    return tuple(found)
