"""The typed context of the battle being fought (issue 10 item 1): what the battle phase's pending nodes carry.

One frozen :class:`BattleContext` sits in the pending node under the key ``"battle"``
(:func:`context_of`); it replaces the string-keyed detail the phase used to carry. It holds where and between whom
the battle is fought, the leaders already committed this turn (BATTLE-15), the pre-battle sequence of houses.md
G-9 (:class:`dunenb.battle.sequence.BattleSequence`: the Voice command, the prescience question and its answer),
the plans set but not yet revealed (``secrets``), the revealed plans, the traitor calls, the d10 rolls, and what
the winner may discard.

Secrecy (GAP-58, :mod:`dunenb.rules.secrecy`): :meth:`BattleContext.seen_by` is what one House may see of it:
another House's unrevealed plan becomes ``"hidden"``, and the prescience answer is kept only for the Houses that
:func:`dunenb.rules.secrecy.answer_viewers` names (the asker and the House that answered, ATREIDES-P1).
:func:`dunenb.engine.view` applies it to any pending detail value that has a ``seen_by`` method.

Saves replay actions, not states: a save made before this context existed loads as long as the node sequence is
unchanged.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from dunenb.battle.sequence import BattleSequence
from dunenb.state import GameState, evolve

HIDDEN = "hidden"


@dataclass(frozen=True)
class LeaderShown:
    """houses.md G-9 step 1 (leader disclosures, GAP-79): ``house`` is bound to lead with ``leader`` in this
    battle, because ``power`` was used (ATREIDES-M2: Paul's Voice). ``to``: the Houses it is shown to, ``()`` for
    everybody."""

    house: str
    leader: str
    power: str
    to: tuple[str, ...] = ()


@dataclass(frozen=True)
class BattleContext:
    """One battle's context (see the module docstring). ``committed`` is ``(house, leader, area)`` per leader who
    fought this turn (BATTLE-15); ``last`` the two Houses of the last battle fought (GAP-7a)."""

    committed: tuple[tuple[str, str, str], ...] = ()
    last: tuple[str, ...] = ()
    area: str = ""
    sectors: tuple[int, ...] = ()
    defender: str = ""
    attacker: str = ""
    sequence: BattleSequence | None = None
    order: tuple[str, ...] = ()  # who sets its plan, in turn (defender first unless prescience decides, GAP-66)
    secrets: tuple[tuple[str, Any], ...] = ()  # plans set, not yet revealed (BATTLE-13 a-e)
    plans: tuple[tuple[str, Any], ...] = ()  # revealed plans (BATTLE-13 f)
    callers: tuple[str, ...] = ()
    calls: tuple[str, ...] = ()
    rolls: tuple[tuple[str, int], ...] = ()
    roller: str | None = None
    kept: tuple[str, ...] = ()
    draws: tuple[Any, ...] = ()
    # HARKONNEN-P4: (winner, loser, territory) of the battle just settled, for the capture that follows it
    victor: tuple[str, ...] = ()
    capture_by_choice: str = ""  # leaders.md K-17 chosen_capture: the power that makes that capture a choice
    shown: tuple[LeaderShown, ...] = ()  # G-9 step 1: leaders disclosed before the plans (GAP-79)
    disclosures: tuple[tuple[str, str], ...] = ()  # (House, power) still to offer at G-9 step 1 (BG-M2)
    trances_used: tuple[str, ...] = ()  # leaders.md K-13: one leader trance power ID per trance used here
    b1_rolls: tuple[tuple[str, str, int], ...] = ()  # leaders.md D-31: (House, power, d10) rolled at B1 (H10-c)
    # leaders.md K-10 with a d10 (dunenb.rules.immunity_rolls, GAP-99): (House, index of a Voice command in the
    # sequence) that its declared leader rolled himself free of
    immune_voices: tuple[tuple[str, int], ...] = ()
    # leaders.md K-16 PRE_BATTLE (dunenb.rules.leader_pre_battle): (House, power, value) of each use this battle
    leader_acts: tuple[tuple[str, str, str], ...] = ()
    # leaders.md K-17 spare (GUILD-L06-d, dunenb.rules.leader_spare): the answers at B9, ("offer", "accept"),
    # ("offer", "refuse") or ("pass",); left out of the state digest while empty
    spare_answers: tuple[str, ...] = dataclasses.field(default=(), metadata={"digest": "if-set"})

    @property
    def houses(self) -> tuple[str, str]:
        """The two sides, defender first (BATTLE-14)."""
        return (self.defender, self.attacker)

    def opponent(self, house: str) -> str:
        """The other side of the battle."""
        return self.attacker if house == self.defender else self.defender

    def plan_of(self, house: str) -> Any:
        """``house``'s revealed plan (or its set plan, for the god state), or ``None``."""
        return dict(self.plans).get(house) or dict(self.secrets).get(house)

    def seen_by(self, house: str) -> BattleContext:
        """What ``house`` may see of this context (GAP-58): other Houses' unrevealed plans are ``"hidden"``, and
        the prescience answer only reaches the Houses :func:`dunenb.rules.secrecy.answer_viewers` names."""
        from dunenb.rules.secrecy import answer_viewers

        secrets = tuple((h, value if h == house else HIDDEN) for h, value in self.secrets)
        sequence = self.sequence
        if sequence is not None and sequence.answers:
            answers = tuple(answer if house in answer_viewers(sequence, index) else
                            evolve(answer, kind=HIDDEN) for index, answer in enumerate(sequence.answers))
            sequence = evolve(sequence, answers=answers)
        shown = tuple(s for s in self.shown if not s.to or house in s.to or house == s.house)
        from dunenb.rules.leader_pre_battle import acts_seen_by  # leaders.md K-16: a traitor drawn is secret

        return evolve(self, secrets=secrets, sequence=sequence, shown=shown,
                                   leader_acts=acts_seen_by(self, house))


def context_of(state: GameState) -> BattleContext:
    """The battle context of the pending node (the battle phase's and the on-call draws' nodes)."""
    assert state.pending is not None
    ctx = state.pending.detail["battle"]
    assert isinstance(ctx, BattleContext)
    return ctx
