"""Battle plans and the battle they meet in (BATTLE-5, BATTLE-6, BATTLE-13 a-e, GAP-43).

A plan is what one side hides in its wheel: a dial (tokens and spice), a leader, at most one attack card and at
most one defence card (a worthless card may fill either slot). A :class:`Battle` holds two sides, the territory
and the defender; it is everything :func:`dunenb.battle.resolve.resolve_battle` needs.

>>> from dunenb.battle.roster import inline_leader
>>> plan = BattlePlan(Dial(regular=4, spice=2), inline_leader("Duncan", 6), weapon="poison-fast")
>>> plan.cards_played
('poison-fast',)
>>> check_plan(BattlePlan(Dial(2), None, weapon="lasgun"))
Traceback (most recent call last):
dunenb.errors.IllegalActionError: [battle/no-leader-cards] a side with no leader may play no treachery card \
(GAP-43), but the plan has lasgun
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from dunenb.battle.cards import BUILT_IN_WEAPONS, DEFENCES, KARAMA_CARDS, WEAPONS
from dunenb.battle.roster import Leader, fold
from dunenb.battle.wheel import Dial, Tokens, check_dial
from dunenb.errors import IllegalActionError


@dataclass(frozen=True)
class BattlePlan:
    """One side's wheel (BATTLE-13 a-e). ``leader=None`` only when no leader is available (GAP-43).

    ``karama`` is a card played as a Karama on the wheel, added to the other cards (KARAMA-3, BATTLE-13 e): the
    Karama itself, or a card that counts as one for the House (BG-P5 worthless, TLEILAX-P4 ghola). It blocks the
    opposing House's blockable battle power (:data:`BattleSide.call_power`) and is lost whatever happens
    (KARAMA-2). ``karama_use`` names the use when it is another one, hidden on the wheel and shown at the reveal
    (KARAMA-25, KARAMA-43 against a Voice; KARAMA-40, KARAMA-18 against a prescience answer: GAP-80): such a
    Karama blocks no traitor call.

    ``extra_attack`` and ``extra_defense`` are the slots a secondary leader's powers add (leaders.md LC-7): a
    second attack card or defence card (K-6 CARD_SLOTS), or a built-in weapon carried on top of the attack card
    (K-7 BUILTIN_WEAPON ``extra`` / ``extra_no_defence``); :func:`dunenb.battle.leader_weapons.check_slots` says
    which the leader may fill."""

    dial: Dial = Dial()
    leader: Leader | None = None
    weapon: str | None = None
    defense: str | None = None
    karama: str | None = None
    karama_use: str | None = None
    extra_attack: str | None = None
    extra_defense: str | None = None

    @property
    def blocks_calls(self) -> bool:
        """Whether the Karama on this wheel blocks the opposing traitor calls (KARAMA-45, GAP-55b)."""
        return self.karama is not None and self.karama_use in (None, "KARAMA-45")

    @property
    def cards_played(self) -> tuple[str, ...]:
        """The attack and defence cards on the wheel, attack first (the Karama is apart: always lost); a built-in
        weapon is no card (houses.md G-4: karate) and is left out."""
        return tuple(card for card in (self.weapon, self.extra_attack, self.defense, self.extra_defense)
                     if card is not None and card not in BUILT_IN_WEAPONS)

    @property
    def attacks(self) -> tuple[str, ...]:
        """Every attack on the wheel, cards and built-ins (LC-7: each is resolved on its own)."""
        return _present(self.weapon, self.extra_attack)

    @property
    def defences(self) -> tuple[str, ...]:
        """Every defence card on the wheel (K-6 T09-c: two)."""
        return _present(self.defense, self.extra_defense)

    @property
    def cards_on_wheel(self) -> tuple[str, ...]:
        """Every card on the wheel: attack, defence, then the Karama (KARAMA-3)."""
        return self.cards_played + ((self.karama,) if self.karama is not None else ())


def _present(first: str | None, second: str | None) -> tuple[str, ...]:
    """The slots that hold a card, in order (issue 14 item 4: the leader step asks at every chance leaf; the same
    tuple as filtering the pair with a generator)."""
    if second is None:
        return () if first is None else (first,)
    return (second,) if first is None else (first, second)


@dataclass(frozen=True)
class BattleSide:
    """One House in a battle: all its tokens in the territory (BATTLE-13), its plan, the leaders it holds as
    traitors (TRAITOR-4; folded names or ids) and, optionally, its d10 results fixed in rolling order.

    ``call_power`` names the House power its traitor calls rest on when a Karama can block them (KARAMA-45:
    ``"HARKONNEN-P1"``, from ``treachery_deck.json``'s ``wheel_karama``), else ``None`` (G-5: other Houses' calls
    cannot be blocked).

    Battle facts the powers need (issue 10 item 4): ``dead`` are the ids of this House's leaders in its tanks
    (HARKONNEN-M3: Vladimir counts +3/+2/+1 for each living minion); ``blocked`` the power IDs of this House that
    a Karama blocks in this battle (KARAMA-21, KARAMA-22, KARAMA-23, KARAMA-37, KARAMA-42: they do not act);
    ``regenerations`` the regenerations its main leader has left (TLEILAX-M2: Waff's death then does not
    eliminate the House), ``None`` when it has none to count; ``voices_against`` the Voice commands given against
    this House in this battle, obeyed or not (leaders.md K-2 WHEEL_MODIFIER ``per voice_command``, D-24);
    ``voice_forced`` the kinds a Voice command in force forced it to play (houses.md BG-P1: Atomics played so
    make no outlaw, CARD-ATOMICS-4; :func:`dunenb.battle.sequence.forced_kinds`)."""

    house: str
    tokens: Tokens
    plan: BattlePlan
    traitors: frozenset[str] = field(default_factory=frozenset)
    dice: tuple[int, ...] = ()
    call_power: str | None = None
    dead: frozenset[str] = field(default_factory=frozenset)
    blocked: frozenset[str] = field(default_factory=frozenset)
    regenerations: int | None = None
    voices_against: int = 0
    voice_forced: frozenset[str] = field(default_factory=frozenset)
    #: leaders.md D-31: the d10 results rolled at B1 for this side's powers, as (power ID, face): HARKONNEN-L10-c
    #: (Yueh's slow poison is there only on a d10 ≤ 2)
    b1_rolls: tuple[tuple[str, int], ...] = ()
    #: leaders.md K-21 ``dies_in`` (H06-d): the trait that kills this side's leader at the reveal (B6), set by
    #: :func:`dunenb.battle.leader_traits.with_reveal_deaths`; he makes no attack and no call can name him.
    doomed: str | None = None
    #: leaders.md K-17 ``spare`` (GUILD-L06-d, at B9, GAP-131): on the side whose leader has it, that he spares
    #: the opposing leader his side's attacks would kill; on the opposing side, that it accepts and pays 4
    #: (out of the state digest while false)
    spare: bool = field(default=False, metadata={"digest": "if-set"})

    def holds_traitor(self, leader: Leader | None) -> bool:
        """True if this House may call "Trahison !" on that leader (TRAITOR-8, TRAITOR-9)."""
        if not self.traitors or leader is None:  # issue 14 item 4: most sides hold no slip (no names folded)
            return False
        return any(name in self.traitors for name in leader.names())


@dataclass(frozen=True)
class Battle:
    """Two Houses fighting in one territory (BATTLE-2); ``defender`` wins ties (BATTLE-13 f4, BATTLE-14)."""

    territory: str
    defender: str
    sides: tuple[BattleSide, BattleSide]
    #: LC-3: once the Shield Wall is blasted (CARD-ATOMICS-2, GAP-30) it counts as a desert for leader powers.
    shield_wall_standing: bool = True

    def __post_init__(self) -> None:
        houses = [side.house for side in self.sides]
        if len(houses) != 2 or houses[0] == houses[1]:
            raise IllegalActionError("battle/sides", f"a battle is between two different Houses (BATTLE-2): {houses}")
        if self.defender not in houses:
            raise IllegalActionError("battle/defender", f"defender {self.defender!r} is not one of {houses}")

    @property
    def houses(self) -> tuple[str, str]:
        return (self.sides[0].house, self.sides[1].house)

    def index(self, house: str) -> int:
        return self.houses.index(house)


def traitor_names(names: Iterable[str]) -> frozenset[str]:
    """Fold leader names or ids into the set a :class:`BattleSide` holds.

    >>> sorted(traitor_names(["Duncan Idaho", "Léto II"]))
    ['duncan-idaho', 'leto-ii']
    """
    return frozenset(fold(name) for name in names)


def check_plan(
    plan: BattlePlan, *, tokens: Tokens | None = None, hand: Iterable[str] | None = None, spice: int | None = None
) -> None:
    """Raise :class:`IllegalActionError` unless the plan may go on a wheel (BATTLE-6, GAP-42, GAP-43).

    ``tokens`` are the side's tokens in the territory, ``hand`` its treachery cards and ``spice`` its spice;
    each check is skipped when its argument is ``None``.
    """
    if plan.weapon is not None and plan.weapon not in WEAPONS + BUILT_IN_WEAPONS:
        raise IllegalActionError("battle/weapon", f"{plan.weapon!r} is not an attack card; allowed: {WEAPONS}, or "
                                 f"a built-in weapon of the House ({', '.join(BUILT_IN_WEAPONS)}; G-4)")
    if plan.extra_attack is not None and plan.extra_attack not in WEAPONS + BUILT_IN_WEAPONS:
        raise IllegalActionError("battle/extra-attack", f"{plan.extra_attack!r} is not an attack card nor a built-in "
                                 f"weapon; allowed: {WEAPONS}, {BUILT_IN_WEAPONS} (leaders.md K-6, K-7)")
    if plan.extra_defense is not None and plan.extra_defense not in DEFENCES:
        raise IllegalActionError("battle/extra-defense", f"{plan.extra_defense!r} is not a defence card; allowed: "
                                 f"{DEFENCES} (leaders.md K-6)")
    if plan.leader is None and (plan.weapon in BUILT_IN_WEAPONS or plan.extra_attack is not None):
        raise IllegalActionError("battle/no-leader-cards", f"a side with no leader makes no attack (GAP-43), but "
                                 f"the plan has {plan.weapon}")
    if plan.defense is not None and plan.defense not in DEFENCES:
        raise IllegalActionError("battle/defense", f"{plan.defense!r} is not a defence card; allowed: {DEFENCES}")
    if plan.karama is not None and plan.karama not in KARAMA_CARDS:
        raise IllegalActionError("battle/karama", f"{plan.karama!r} cannot be played as a Karama; allowed: "
                                 f"{KARAMA_CARDS}")
    if plan.leader is None and plan.cards_on_wheel:
        raise IllegalActionError(
            "battle/no-leader-cards",
            f"a side with no leader may play no treachery card (GAP-43), but the plan has "
            f"{', '.join(plan.cards_on_wheel)}",
        )
    check_dial(plan.dial, tokens)
    if spice is not None and plan.dial.spice > spice:
        raise IllegalActionError(
            "battle/dial-spice-owned", f"the dial uses {plan.dial.spice} spice; the House has {spice}"
        )
    if hand is not None:
        missing = Counter(plan.cards_on_wheel) - Counter(hand)
        if missing:
            raise IllegalActionError("battle/card-not-held", f"the plan plays {sorted(missing)} not in the hand")
