"""leaders.md K-10 IMMUNITY and K-14 KILL: the one answer to "is this leader immune to X here, and with what
d10", and the leaders whose power kills the opposing leader whatever protects him.

Every check asks this module, whoever uses the power against the leader:

* :func:`voice_protection` — a Voice command of any source (House, main leader, secondary leader) naming a kind:
  K-10 ``voice`` (every command), ``voice[shield,snooper]`` (only commands naming those kinds) and the House
  powers on the ``leader.immune`` hook whose value holds ``"voice"`` (DISPERSION-M2, Dama). :func:`released`
  turns them into the release words of :func:`dunenb.battle.sequence.plan_violations`.
* :func:`prescience_protection` — a prescience question of any source: K-10 ``prescience``. The side of an
  immune leader answers :data:`IMMUNE` ("Tu ne peux voir mon attaque / ma parade"): the question is spent and
  binds nothing (:func:`prescience_problems`, GAP-96).
* :func:`attack_protection` — an attack that would kill him (a card or a built-in weapon): ``poison_slow`` (a
  slow poison), ``poison_all`` (every poison), ``all_but_lasgun_atomics`` (everything but a lasgun and battle
  Atomics: the explosion and KILL are no attacks and still kill him, D-33), and the House cards of the
  ``leader.immune`` hook (ATREIDES-M1, Paul and the slow poison).
* :func:`power_protection` — a House power acting on him: ``seduction`` covers DISPERSION-P2 and DISPERSION-M1
  (:data:`SEDUCTION`).

The answers are cached (their arguments are hashable facts; the data does not change while the process runs).

Which entries act (LC-9, LC-10, LC-11): IMMUNITY and KILL are powers, so they are off while a foreign House
plays him (D-14) and while a Karama blocks them in this battle (``blocked``, the side's blocked power IDs). No
IMMUNITY entry of leaders.md §2 has a condition. A d10 immunity (``IMMUNITY(prescience | d10≤8)``...) is
returned with its ``at_most``; the callers apply only sure ones so far (``is_applied``: the roll each time the
power is used is not a chance node of the game yet), so those entries stay ``not-yet``.

K-14 (:func:`kills`): a KILL without a d10 acts at B9 with the deaths (A06-c: Alia against Vladimir); a KILL
with a d10 is rolled by its holder's side at B7, after the treachery check, and acts even when the treachery is
called, overriding TRAITOR-11 (A09-b, D-19); the victim's bounty goes to the KILL's side (LC-8, GAP-97). Its
conditions read the battle's Houses and leaders.

>>> from dunenb.battle.roster import load_roster
>>> roster = load_roster()
>>> ghanima = roster.find("Ghanima", house="atreides")
>>> attack_protection(ghanima, "poison-fast", house="atreides")
Protection(power='ATREIDES-L03-b', at_most=None)
>>> attack_protection(ghanima, "poison-fast", house="harkonnen") is None     # a captive has no powers (D-14)
True
>>> voice_protection(roster.find("Alia", house="atreides"), "poison", house="atreides") is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from dunenb.battle.cards import card_kind, is_instant
from dunenb.battle.rolls import KILL, Roll
from dunenb.battle.roster import Leader
from dunenb.powers.leader_effects import Immunity, Kill

#: The answer of a side whose leader is immune to prescience (K-10: "Tu ne peux voir mon attaque / ma parade").
IMMUNE = "immune"
#: K-10 ``seduction``: the House powers that do not lower him.
SEDUCTION: tuple[str, ...] = ("DISPERSION-P2", "DISPERSION-M1")
#: K-10 ``all_but_lasgun_atomics``: the attack kinds that still kill him (L1139, D-33).
STILL_KILL: tuple[str, ...] = ("lasgun", "atomics")
#: K-10 ``voice[shield,snooper]``: the kinds whose commands do not bind her (L1083).
PARTIAL_VOICE = {"voice[shield,snooper]": ("shield", "snooper")}


@dataclass(frozen=True)
class Protection:
    """What makes a leader immune: the power ``power`` (a leader power ID, or a House power on the
    ``leader.immune`` hook) and, for a d10 immunity, ``at_most`` N (immune on d10 ≤ N, rolled per use, LC-1)."""

    power: str
    at_most: int | None = None

    @property
    def sure(self) -> bool:
        """No d10 is needed."""
        return self.at_most is None


def _entries(leader: Leader | None, house: str | None, blocked: frozenset[str]) -> tuple[tuple[str, Immunity], ...]:
    """The K-10 entries of ``leader`` that act when ``house`` plays him (None: his own House)."""
    if leader is None or (house is not None and leader.house not in (None, house)):
        return ()  # D-14: a foreign House plays him without his powers
    return tuple((power.id, power.effect) for power in leader.powers
                 if isinstance(power.effect, Immunity) and power.effect.when is None and power.id not in blocked)


def _house_immunity(leader: Leader | None, item: str, blocked: frozenset[str]) -> Protection | None:
    """The House or main-leader power on the ``leader.immune`` hook that makes ``leader`` immune to ``item`` (a
    card id or ``"voice"``), as :func:`dunenb.battle.powers.immune_to` reads them."""
    import dunenb.battle.powers as battle_powers  # issue 14 item 3: a cheap import (dunenb.rules)

    if leader is None or item not in battle_powers.immune_to(leader, blocked):
        return None
    for act in battle_powers.battle_acts():
        if act.hook == "leader.immune" and item in act.params["value"] and act.power not in blocked:
            return Protection(act.power)
    return None  # pragma: no cover - immune_to found it among these acts


def _first(found: Sequence[Protection]) -> Protection | None:
    """A sure protection before a d10 one."""
    return next((p for p in found if p.sure), found[0] if found else None)


@lru_cache(maxsize=4096)
def voice_protection(leader: Leader | None, kind: str, *, house: str | None = None,
                     blocked: frozenset[str] = frozenset()) -> Protection | None:
    """What makes ``leader`` (played by ``house``) immune to a Voice command naming ``kind``, or None."""
    found = [Protection(power, effect.at_most) for power, effect in _entries(leader, house, blocked)
             if "voice" in effect.to or any(kind in PARTIAL_VOICE[t] for t in effect.to if t in PARTIAL_VOICE)]
    house_power = _house_immunity(leader, "voice", blocked)
    return _first(([house_power] if house_power else []) + found)


@lru_cache(maxsize=4096)
def released(leader: Leader | None, *, house: str | None = None,
             blocked: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """The release words of :func:`~dunenb.battle.sequence.plan_violations` for a plan led by ``leader``:
    ``"voice"`` when no Voice binds him, ``"voice:KIND"`` for each kind whose commands do not (sure immunities
    only)."""
    from dunenb.battle.sequence import VOICE_KINDS

    kinds = [kind for kind in VOICE_KINDS
             if (p := voice_protection(leader, kind, house=house, blocked=blocked)) is not None and p.sure]
    if len(kinds) == len(VOICE_KINDS):
        return ("voice",)
    return tuple(f"voice:{kind}" for kind in kinds)


@lru_cache(maxsize=4096)
def prescience_protection(leader: Leader | None, *, house: str | None = None,
                          blocked: frozenset[str] = frozenset()) -> Protection | None:
    """What makes ``leader`` immune to a prescience question (any source), or None."""
    return _first([Protection(power, effect.at_most) for power, effect in _entries(leader, house, blocked)
                   if "prescience" in effect.to])


def sure_prescience(leader: Leader | None, *, house: str | None = None,
                    blocked: frozenset[str] = frozenset()) -> bool:
    """Whether ``leader`` is immune to prescience with no d10."""
    protection = prescience_protection(leader, house=house, blocked=blocked)
    return protection is not None and protection.sure


def prescience_problems(answers: Sequence[str | None], leader: Leader | None, *, house: str | None = None,
                        blocked: frozenset[str] = frozenset(), allow_d10: bool = True) -> tuple[str, ...]:
    """GAP-96: what breaks K-10 in a plan led by ``leader`` whose side gave ``answers`` (the kinds answered,
    :data:`IMMUNE` or None): a surely immune leader's side answers :data:`IMMUNE` to every question, and only
    an immune leader's side does. A d10 immunity allows :data:`IMMUNE` (a successful roll: a case states it; a
    game allows it, ``allow_d10``, once the roll was made for him, GAP-98) and a kind (a failed roll)."""
    if not answers:
        return ()
    protection = prescience_protection(leader, house=house, blocked=blocked)
    if IMMUNE in answers and protection is not None and not protection.sure and allow_d10:
        return ()
    immune = sure_prescience(leader, house=house, blocked=blocked)
    name = "no leader" if leader is None else leader.name
    if immune and any(answer != IMMUNE for answer in answers):
        power = prescience_protection(leader, house=house, blocked=blocked)
        assert power is not None
        return (f"{name} is immune to prescience ({power.power}): {name}'s side answers {IMMUNE!r} (K-10, "
                "GAP-96)",)
    if not immune and IMMUNE in answers:
        return (f"the prescience answer was {IMMUNE!r}, but {name} is not immune to prescience (K-10, GAP-96)",)
    return ()


@lru_cache(maxsize=4096)
def attack_protection(leader: Leader | None, weapon: str, *, house: str | None = None,
                      blocked: frozenset[str] = frozenset()) -> Protection | None:
    """What keeps ``weapon`` (a card id or a built-in weapon id) from killing ``leader``, or None."""
    kind = card_kind(weapon)
    found = []
    for power, effect in _entries(leader, house, blocked):
        for target in effect.to:
            if (target == "poison_all" and kind == "poison"
                    or target == "poison_slow" and kind == "poison" and not is_instant(weapon)
                    or target == "all_but_lasgun_atomics" and kind not in STILL_KILL):
                found.append(Protection(power, effect.at_most))
    house_power = _house_immunity(leader, weapon, blocked)
    return _first(([house_power] if house_power else []) + found)


@lru_cache(maxsize=4096)
def power_protection(leader: Leader | None, power: str, *, house: str | None = None,
                     blocked: frozenset[str] = frozenset()) -> Protection | None:
    """What keeps the House power ``power`` from acting on ``leader`` (K-10 ``seduction``), or None."""
    return _first([Protection(pid, effect.at_most) for pid, effect in _entries(leader, house, blocked)
                   if "seduction" in effect.to and power in SEDUCTION])


@lru_cache(maxsize=4096)
def changes_leader_step(leader: Leader | None, house: str | None = None) -> bool:
    """Whether ``leader`` has a K-10 attack immunity or a K-14 KILL (the planner then never folds him)."""
    if leader is None:
        return False
    attacks = ("poison_slow", "poison_all", "all_but_lasgun_atomics")
    return any(any(t in attacks for t in effect.to) for _p, effect in _entries(leader, house, frozenset())) or any(
        isinstance(power.effect, Kill) for power in leader.powers)


def kills(houses: Sequence[str], leaders: Sequence[Leader | None], blocked: Sequence[frozenset[str]],
          roll: Roll, *, rolled: bool) -> tuple[tuple[bool, bool], tuple[tuple[str, ...], ...]]:
    """K-14: which leaders the opposing leader's KILL kills, and the KILL IDs that acted, per side.

    ``rolled`` False: the KILLs without a d10, at B9 (A06-c); True: the KILLs with a d10, at B7, each rolled by
    its holder's side with ``roll(side)`` (A09-b, D-19). A KILL needs both leaders on the wheels; its holder need
    not survive the same step (the deaths are simultaneous, GAP-28c, GAP-97)."""
    entries = _kill_entries((houses[0], houses[1]), (leaders[0], leaders[1]), (blocked[0], blocked[1]))
    if not entries[0] and not entries[1]:
        return (False, False), ((), ())
    dead = [False, False]
    acted: list[list[str]] = [[], []]
    for me in (0, 1):
        for power_id, effect in entries[me]:
            if (effect.faces is not None) != rolled:
                continue
            if effect.faces is None or roll(me, KILL) in effect.faces:
                dead[1 - me] = True
                acted[me].append(power_id)
    return (dead[0], dead[1]), (tuple(acted[0]), tuple(acted[1]))


def kill_may_act(houses: tuple[str, str], leaders: tuple[Leader | None, Leader | None],
                 blocked: tuple[frozenset[str], frozenset[str]]) -> bool:
    """Whether a K-14 KILL entry acts for either leader against the other: without one, :func:`kills` kills
    nobody, rolls nothing and names no power (issue 14 item 4: the leader step then does not ask it)."""
    found = _kill_entries(houses, leaders, blocked)
    return bool(found[0] or found[1])


@lru_cache(maxsize=4096)
def _kill_entries(houses: tuple[str, str], leaders: tuple[Leader | None, Leader | None],
                  blocked: tuple[frozenset[str], frozenset[str]]) -> tuple[tuple[tuple[str, Kill], ...], ...]:
    """Per side, the (ID, effect) of the KILL entries that act against the opposing leader (none without one).
    Cached: :func:`kills` runs at every chance leaf of a battle and this part does not depend on the dice."""
    from dunenb.battle.leader_powers import Scene, acting

    scene = Scene.of("", houses, leaders, defender=0, blocked=blocked)
    found: list[tuple[tuple[str, Kill], ...]] = []
    for me in (0, 1):
        entries = []
        if leaders[1 - me] is not None:
            for power in acting(scene, me, "KILL"):
                effect = power.effect
                assert isinstance(effect, Kill)
                entries.append((power.id, effect))
        found.append(tuple(entries))
    return tuple(found)
