"""leaders.md LC-11 (a) before B6: the Karama against a secondary leader (KARAMA-10/13/19/24/33/39/44/50, D-26)
asked when that leader uses or declares a power in the pre-battle steps (GAP-151).

The uses that count (GAP-151) are those his House makes with one of his entries before the reveal: a leader's
Voice (K-11, :func:`dunenb.rules.pre_battle._apply_voice`: asked once the command is stated, before a d10 roll),
a leader's prescience question (K-12, :func:`dunenb.rules.pre_battle._apply_prescience`: asked once the
question is stated) and a K-16 pre-battle action (:func:`dunenb.rules.leader_pre_battle._apply`: asked once the
action is declared and its price paid). Each of these uses discloses the leader already (LC-5 B1), so the window
reveals nothing more. Every House but the leader's own holding a card is asked in table order (D-26, GAP-63,
GAP-121). A use played voids every power of the leader for the rest of the battle (as LC-11 b:
:func:`dunenb.rules.leader_karama.void_leader`); the caller's resume then reads :func:`cancelled` and drops the use
(no command, no question, no effect), keeping what was spent (the price, the once-a-turn or once-a-battle use).

Not asked (GAP-151): a leader's immunity (K-10: an answer 'immune', a Voice he is not bound by) is not a use his
House makes before B6, so the Karama against it is the one shown with the wheel (LC-11 b); nor a truth trance
(K-13, asked at the plan decision) nor Edric's worthless card played as a Karama (GUILD-L01-d, GAP-143).
"""

from __future__ import annotations

from typing import Any

from dunenb.battle.leader_karama import leader_of_power, use_against
from dunenb.powers.karama import is_suppressed
from dunenb.rules.battle_context import BattleContext
from dunenb.rules.common import event, with_events
from dunenb.rules.karama_window import RESUMES
from dunenb.rules.leader_karama import ask_against_leader
from dunenb.state import FrozenDict, GameState


def ask_before_use(state: GameState, ctx: BattleContext, house: str, power: str, resume: str,
                   **data: Any) -> GameState:
    """LC-11 a (GAP-151): ``house`` has just used or declared ``power`` before B6; if it is the entry of one of
    its own secondary leaders, a Karama window against him, then ``resume`` with ``battle=ctx`` and ``data``
    (with no leader to ask, at once)."""
    leader = leader_of_power(power)
    if leader is None or leader.house != house or use_against(leader) is None:
        return RESUMES[resume](state, FrozenDict({"battle": ctx, **data}))
    from dunenb.battle import alias
    from dunenb.rules.traitors import leader_of

    # leaders.md S-3 (GAP-141): once "Alma as X" is disclosed, she is the leader who uses Alma's and X's powers
    committed = next((s.leader for s in ctx.shown if s.house == house and alias.is_alias(s.leader)
                      and alias.binds(leader.id, s.leader)), None)
    if committed is not None:
        leader = leader_of(house, committed)
    return ask_against_leader(state, leader, resume, moment="a, before B6", battle=ctx, power=power, **data)


def cancelled(state: GameState, house: str, power: str, what: str) -> tuple[GameState, bool]:
    """LC-11 a: whether a Karama now voids ``power``, the use ``what`` ``house`` just made (with the public
    event saying it is cancelled and nothing is refunded)."""
    if not is_suppressed(state, power):
        return state, False
    return with_events(state, event(
        "leader-power-cancelled", f"{house}'s {what} ({power}) is cancelled by the Karama against its leader; "
        "nothing spent is given back (leaders.md LC-11 a, GAP-151)", house=house, power=power,
        powers=(power,))), True
