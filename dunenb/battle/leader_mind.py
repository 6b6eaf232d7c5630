"""Secondary-leader powers of the mind before the plans: leaders.md K-11 VOICE, K-12 PRESCIENCE, K-13 TRUTH_TRANCE.

This module says, from a battle's own facts (the leader who leads, the House he leads for, the territory), which
of a leader's entries give his House a Voice command, a prescience question or truth trances, and with which
limits. Games (:mod:`dunenb.rules.pre_battle`, :mod:`dunenb.rules.truth_trance`) and battle cases
(:func:`dunenb.battle.facts.case_power`) both read it, so a leader's Voice is the same thing in both.

* LC-12: a power acts only in a battle its leader leads; LC-9 / D-14: not while a foreign House plays him.
* K-11 VOICE ``uses``: ``1/turn`` (one command in one of his battles each game turn, LC-12), ``+1/turn`` (Alma:
  one extra command, same count), ``d10≤N`` (rolled openly in each battle, at B2: a failure means no command,
  D-31). ``scope+`` (Darwi, D-25) gives no command of its own: it is not a source; it is the action
  ``voice-scope``: in her battle her House's Voice may also name the worthless or Karama kind
  (:data:`dunenb.battle.sequence.SCOPE_KINDS`, applied by :mod:`dunenb.rules.pre_battle`, GAP-132).
* K-12 PRESCIENCE ``scope | where``: ``either``, ``attack`` or ``defence``; ``where`` a named territory (LC-3).
* K-13 TRUTH_TRANCE ``n``: n trances as CARD-TRUTH in each of his battles (unused ones lapse).

>>> from dunenb.battle.roster import load_roster
>>> edric = load_roster().find("Edric", house="guild")
>>> [p.id for p in mind_powers(edric, "guild", "prescience", "arrakeen")], prescience_slots("GUILD-L01-c")
(['GUILD-L01-c'], ('attack', 'defence'))
>>> voice_roll("EMPEROR-L07-b"), is_once_a_turn("ATREIDES-L03-c"), trances_of("GUILD-L02-d")
(4, True, 2)
"""

from __future__ import annotations

from functools import lru_cache

from dunenb.battle.roster import Leader, Power, load_roster
from dunenb.powers.leader_effects import VOICE_USES_APPLIED, Prescience, TruthTrance, Voice

#: The before-plans action each kind offers (the names :mod:`dunenb.rules.pre_battle` uses).
ACTION_KINDS: dict[str, str] = {"voice": "VOICE", "prescience": "PRESCIENCE", "truth-trance": "TRUTH_TRANCE",
                                "voice-scope": "VOICE"}
#: K-11 ``uses`` that widen the kinds of the House's Voice (D-25) instead of giving a command.
VOICE_SCOPE = "scope+"
#: K-11 ``uses`` that give a command (``scope+`` widens the BG Voice instead: not a source, D-25).
VOICE_SOURCES = VOICE_USES_APPLIED
SLOTS: dict[str, tuple[str, ...]] = {"either": ("attack", "defence"), "attack": ("attack",),
                                     "defence": ("defence",)}


@lru_cache(maxsize=1)
def _index() -> dict[str, tuple[Leader, Power]]:
    return {power.id: (leader, power) for leader in load_roster().leaders if not leader.main
            for power in leader.powers}


def leader_power(power_id: str) -> tuple[Leader, Power] | None:
    """The leader and entry of a secondary leader's power ID (``GUILD-L01-c``), or None for any other ID (House
    and main-leader powers: data/powers.json)."""
    return _index().get(power_id)


def is_leader_power(power_id: str) -> bool:
    """Whether ``power_id`` names a leader's entry (not a House or main-leader power of data/powers.json)."""
    return power_id in _index()


def _effect(power_id: str) -> object:
    found = leader_power(power_id)
    return found[1].effect if found else None


def _gives(power: Power, action: str) -> bool:
    effect = power.effect
    if action == "voice":
        return isinstance(effect, Voice) and effect.uses in VOICE_SOURCES
    if action == "voice-scope":  # K-11 scope+ (BG-L02-b, D-25)
        return isinstance(effect, Voice) and effect.uses == VOICE_SCOPE
    if action == "prescience":
        return isinstance(effect, Prescience)
    return action == "truth-trance" and isinstance(effect, TruthTrance)


def _where_holds(power: Power, house: str, leader: Leader, territory: str) -> bool:
    """The entry's condition (LC-3 territory words for these kinds) in this territory; no opponent is known
    before the plans, so an opponent word does not hold (GAP-89)."""
    from dunenb.battle.leader_powers import Scene, holds

    if power.effect is None or power.effect.when is None:
        return True
    scene = Scene.of(territory, (house, ""), (leader, None), defender=0)
    return holds(power.effect.when, scene, 0)


def mind_powers(leader: Leader | None, house: str, action: str, territory: str, *,
                blocked: frozenset[str] = frozenset()) -> tuple[Power, ...]:
    """The entries of ``leader`` that give ``house`` ``action`` (``voice``, ``prescience``, ``truth-trance``,
    ``voice-scope``)
    in a battle he leads for it in ``territory``, in table order: none for a foreign House (D-14) or a power
    a Karama blocks (``blocked``, LC-11)."""
    if leader is None or leader.main or leader.house != house:
        return ()
    return tuple(power for power in leader.powers if _gives(power, action) and power.id not in blocked
                 and _where_holds(power, house, leader, territory))


def voice_roll(power_id: str) -> int | None:
    """K-11 ``d10≤N``: N (the command is given on 1..N, LC-1), or None for a Voice with no roll."""
    effect = _effect(power_id)
    return effect.roll if isinstance(effect, Voice) else None


def is_once_a_turn(power_id: str) -> bool:
    """K-11 ``1/turn`` and ``+1/turn``: one command each game turn, across all his battles (LC-12)."""
    effect = _effect(power_id)
    return isinstance(effect, Voice) and effect.uses in ("1/turn", "+1/turn")


def prescience_slots(power_id: str) -> tuple[str, ...]:
    """K-12: the slots the question of ``power_id`` may ask about (``either``: both)."""
    effect = _effect(power_id)
    return SLOTS.get(effect.scope, ()) if isinstance(effect, Prescience) else ()


def trances_of(power_id: str) -> int:
    """K-13: how many truth trances ``power_id`` gives in each battle of its leader."""
    effect = _effect(power_id)
    return effect.count if isinstance(effect, TruthTrance) else 0
