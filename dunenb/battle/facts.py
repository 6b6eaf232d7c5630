"""The pre-battle facts a battle case may state (issue 10 item 4): the Voices and prescience answers in force and
the Karama uses played in the battle, read against ``data/powers.json`` (no House is named here).

Case fields (``dunenb.battle/1``, all optional; see ``data/battles/README.md``):

* ``"voice"``: ``{"by": house, "mode": "forbid" | "force", "kind": "poison" | ...}`` or a list of them (BG-P1,
  ATREIDES-M2). ``by`` must hold a power offering the Voice here: its conditions are checked from the case
  (ATREIDES-M2 needs Paul on the ``by`` side's wheel, GAP-79). The other side is bound (L751-753), unless a
  leader immune to the Voice leads it (DISPERSION-M2) or its ``karama_use`` releases it.
* ``"prescience"``: ``{"by": house, "slot": "attack" | "defence", "answer": kind | "none"}`` or a list
  (ATREIDES-P1; GUILD-M2 only for the defender, GAP-79). The answer binds the other side's wheel (GAP-78).
* ``"karama_uses"``: Karama uses played openly in this battle (KARAMA-21, KARAMA-22, KARAMA-23, KARAMA-42, GAP-81):
  their powers do not act (``BattleSide.blocked``); read, with the sides' ``blocked`` (an alias, GAP-137), by
  :mod:`dunenb.battle.case_karama`.
* per side, ``"karama_use"``: the use of that side's ``karama`` card when it is hidden against a Voice or an
  answer (KARAMA-25, KARAMA-43, KARAMA-40, KARAMA-18; GAP-80) instead of against the opposing treachery.

>>> voice_powers("bene-gesserit"), prescience_powers("guild")
(('BG-P1',), ('GUILD-M2',))
>>> open_uses()[:2]
('KARAMA-21', 'KARAMA-22')
"""

from __future__ import annotations

from collections.abc import Iterable

from dunenb.battle.roster import Leader
from dunenb.battle.sequence import (
    ATTACK_KINDS,
    DEFENCE_KINDS,
    VOICE_KINDS,
    BattleSequence,
    PrescienceAnswer,
    PrescienceQuestion,
    VoiceCommand,
)
from dunenb.powers.registry import karama_use, load_powers

BEFORE_PLANS = "battle.before-plans"
#: Karama moments of data/powers.json played openly when a battle starts (seed 003 F7: before the Voice).
OPEN_MOMENTS = ("battle", "battle-voice")
#: Karama moment of the uses hidden on the wheel and shown at the reveal (KARAMA-25, KARAMA-40...).
REVEAL_MOMENT = "battle-reveal"
SLOT_KINDS = {"attack": ATTACK_KINDS, "defence": DEFENCE_KINDS}


def offering(action: str) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """(power, owner, conditions) of each implemented power whose ``battle.before-plans`` act offers ``action``
    (``voice``, ``prescience``, ``know-leader``), in file order."""
    return tuple((spec.id, spec.holder, act.when) for spec in load_powers().values() for act in spec.acts
                 if act.trigger == BEFORE_PLANS and act.effect == "offer" and act.params.get("action") == action
                 and act.status == "implemented")


def voice_powers(house: str) -> tuple[str, ...]:
    """The Voice powers ``house`` owns (BG-P1; ATREIDES-M2)."""
    return tuple(power for power, owner, _when in offering("voice") if owner == house)


def prescience_powers(house: str) -> tuple[str, ...]:
    """The prescience powers ``house`` owns (ATREIDES-P1; GUILD-M2)."""
    return tuple(power for power, owner, _when in offering("prescience") if owner == house)


def conditions_of(power: str, action: str) -> tuple[str, ...]:
    """The named conditions of ``power``'s before-plans act offering ``action``."""
    return next((when for p, _owner, when in offering(action) if p == power), ())


def case_power(action: str, house: str, *, leader: Leader | None, defender: bool, territory: str = "",
               used: Iterable[str] = ()) -> str | None:
    """The first power ``house`` owns offering ``action`` whose conditions the case's facts meet (its leader
    on the wheel, whether it defends), not among ``used``, or None; then the entries of the leader on its
    wheel that give it (leaders.md K-11 VOICE, K-12 PRESCIENCE, in ``territory``: LC-12, D-14). A case states
    the commands given: a d10 Voice stated in a case is one whose roll succeeded (GAP-101)."""
    spent = set(used)
    for power, owner, when in offering(action):
        if owner != house or power in spent:
            continue
        if "main-leader-leads" in when and not (leader is not None and leader.main and leader.house == house):
            continue
        if "defender" in when and not defender:
            continue
        return power
    from dunenb.battle.leader_mind import mind_powers

    return next((entry.id for entry in mind_powers(leader, house, action, territory) if entry.id not in spent),
                None)


def voice_kinds_left(earlier: Iterable[VoiceCommand], mode: str, extra: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The kinds a further command with ``mode`` may name to a side already given the commands ``earlier`` in
    this battle: never a kind named before (leaders.md K-11), and a ``force`` never in a slot (attack or
    defence) an earlier command forces: one slot holds one card (CARD-3), so both could not be obeyed (GAP-105).
    ``extra`` are the kinds a K-11 ``scope+`` adds (D-25: worthless, Karama; they force no named slot).

    >>> voice_kinds_left([VoiceCommand("bene-gesserit", "emperor", "force", "shield")], "force")
    ('poison', 'projectile', 'lasgun', 'atomics')
    """
    done = tuple(earlier)
    named = {v.kind for v in done}
    forced = {slot for v in done if v.mode == "force" for slot, kinds in SLOT_KINDS.items() if v.kind in kinds}
    return tuple(kind for kind in VOICE_KINDS + extra if kind not in named and not (
        mode == "force" and any(kind in SLOT_KINDS[slot] for slot in forced)))


def open_uses() -> tuple[str, ...]:
    """The implemented Karama uses played openly in a battle (GAP-81), in file order."""
    return tuple(use.id for spec in load_powers().values() for use in spec.karama
                 if use.moment in OPEN_MOMENTS and use.status == "implemented")


def reveal_uses(powers: Iterable[str]) -> tuple[str, ...]:
    """The implemented wheel Karama uses against ``powers`` (KARAMA-25 for BG-P1...: GAP-80)."""
    specs = load_powers()
    return tuple(use.id for power in dict.fromkeys(powers) if power in specs for use in specs[power].karama
                 if use.moment == REVEAL_MOMENT and use.status == "implemented")  # a leader's power: LC-11


def wheel_uses(seq: BattleSequence | None, house: str, *, opponent: str | None = None,
               opponent_weapons: Iterable[str] = ()) -> tuple[str, ...]:
    """The wheel Karama uses open to ``house``: against each Voice on it and each question it answered; with
    ``opponent``, also the LC-11 use against the opposing House's secondary leader (GAP-122) and the uses against
    the built-in weapon powers the opponent holds (``opponent_weapons``: KARAMA-20 against karate, GAP-123)."""
    from dunenb.battle.leader_karama import use_for_house

    found = () if seq is None else reveal_uses([v.power for v in seq.voices_on(house)]
                                               + [q.power for q, _a in seq.answered(house)])
    if opponent is None:
        return found
    against_leader = use_for_house(opponent)
    return found + reveal_uses(opponent_weapons) + ((against_leader,) if against_leader else ())


def released_by(use: str, seq: BattleSequence | None, house: str) -> tuple[str, ...]:
    """The powers whose binding on ``house`` the wheel Karama ``use`` releases once shown (GAP-80): the power it
    blocks (KARAMA-25, -43, -40, -18); for an LC-11 use, a Voice given by a secondary leader of its group (LC-11
    b, as under KARAMA-25)."""
    from dunenb.battle.leader_karama import is_leader_use
    from dunenb.battle.leader_karama import released_by as leader_released

    if is_leader_use(use):
        return leader_released(use, tuple(v.power for v in seq.voices_on(house))) if seq is not None else ()
    return (power_of_use(use),)


def power_of_use(use: str) -> str:
    """The power a Karama use blocks (data/powers.json)."""
    return karama_use(use)[0].id


def sequence_of(houses: tuple[str, str], voices: Iterable[VoiceCommand],
                answered: Iterable[tuple[PrescienceQuestion, PrescienceAnswer]]) -> BattleSequence:
    """A finished pre-battle sequence holding these Voices and answered questions (what a case states)."""
    pairs = tuple(answered)
    return BattleSequence(houses, step="reveal", voices=tuple(voices), questions=tuple(q for q, _a in pairs),
                          answers=tuple(a for _q, a in pairs))


__all__ = ["VOICE_KINDS", "case_power", "open_uses", "sequence_of", "wheel_uses"]
