"""leaders.md K-10 in games: a d10 immunity to prescience, rolled each time a question is put to its leader.

A House asked a prescience question (:mod:`dunenb.rules.pre_battle`, ``battle-answer``) that may play a leader
whose immunity needs a d10 (``IMMUNITY(prescience | d10≤N)``: the navigators GUILD-L01..L06-b, Hellica
DISPERSION-L08-c, the Chani-Ghola TLEILAX-L12-d) may answer ``immune:LEADER`` instead of a kind. This declares
that power of that leader (LC-5 B1: he is shown, and the House must lead with him in this battle, GAP-98), and
the d10 is rolled openly (LC-1: one chance node, :class:`ImmunityRoll`):

* on d10 ≤ N the answer is ``immune`` ("Tu ne peux voir mon attaque / ma parade"): the question is spent and
  binds nothing;
* otherwise the House answers the same question again, as if it had not declared (a kind or none, binding),
  and may not declare that leader's immunity to this question again.

The next question put to him is rolled again (K-10: "each time the opposing power is used against him").

The Voice the same way (GAP-99): right after a Voice command is given against a House that may play a leader
whose immunity to that command needs a d10 (``IMMUNITY(voice | d10≤5)``: the Miles Teg-Ghola TLEILAX-L11-c), that
House may pass or declare him (:class:`DeclareVoiceImmunity`; he is shown and must lead), and the d10 is rolled
openly: on a success that command does not bind its plan (``BattleContext.immune_voices``); otherwise it binds as
usual.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from dunenb.actions import Action, Pass
from dunenb.battle import immunities
from dunenb.battle import sequence as seq_mod
from dunenb.errors import IllegalActionError
from dunenb.rules.battle_context import BattleContext, LeaderShown, context_of
from dunenb.rules.common import Handler, event, node, pending, with_events
from dunenb.state import GameState

#: The answer prefix that declares a d10 immunity: ``immune:LEADER``.
DECLARE = immunities.IMMUNE + ":"
ROLL_NODE = "immunity-roll"
VOICE_NODE = "voice-immunity"


@dataclass(frozen=True)
class ImmunityRoll(Action):
    """K-10: the open d10 (``face``) for ``house``'s ``leader`` and his d10 immunity ``power`` (LC-1)."""

    kind: ClassVar[str] = "immunity-roll"
    is_chance: ClassVar[bool] = True
    house: str
    leader: str
    power: str
    face: int


@dataclass(frozen=True)
class DeclareVoiceImmunity(Action):
    """K-10, GAP-99: ``house`` declares that ``leader`` (who then leads) rolls his d10 immunity against the Voice
    command just given against it."""

    kind: ClassVar[str] = "voice-immunity"
    house: str
    leader: str


def declarations(leaders: dict[str, immunities.Protection], failed: tuple[str, ...]) -> tuple[str, ...]:
    """The ``immune:LEADER`` answers open: each leader with a d10 prescience immunity who has not failed his roll
    for this question."""
    return tuple(DECLARE + lid for lid, protection in leaders.items() if not protection.sure and lid not in failed)


def declare(state: GameState, ctx: BattleContext, house: str, leader: str,
            protection: immunities.Protection) -> GameState:
    """``house`` declares ``leader``'s d10 immunity (GAP-98: he is shown and must lead); the d10 comes next."""
    if protection.at_most is None:
        raise IllegalActionError("battle/immunity", f"{leader}'s immunity ({protection.power}) needs no d10")
    shown = LeaderShown(house, leader, protection.power)
    if shown not in ctx.shown:
        ctx = dataclasses.replace(ctx, shown=ctx.shown + (shown,))
    state = with_events(state, event("immunity-declared", f"{house} declares that {leader} is immune to this "
                                     f"prescience question on a d10 of {protection.at_most} or less "
                                     f"({protection.power}, leaders.md K-10); {leader} leads this battle",
                                     house=house, leader=leader, power=protection.power,
                                     powers=(protection.power,)))
    return dataclasses.replace(state, pending=pending(ROLL_NODE, "chance", battle=ctx, house=house, leader=leader,
                                                      power=protection.power, at_most=protection.at_most))


def _outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    detail = node(state).detail
    return [(ImmunityRoll(detail["house"], detail["leader"], detail["power"], face), Fraction(1, 10))
            for face in range(1, 11)]


def _apply(state: GameState, action: ImmunityRoll) -> GameState:
    from dunenb.rules.pre_battle import next_step

    detail = node(state).detail
    ctx = context_of(state)
    assert ctx.sequence is not None
    immune = action.face <= detail["at_most"]
    what = "the Voice command" if "voice" in detail else "the question"
    state = with_events(state, event("immunity-roll", f"{action.house}'s d10 for {action.leader} shows "
                                     f"{action.face}: " + (f"immune, {what} binds nothing" if immune else
                                                           f"not immune, {what} binds")
                                     + f" ({action.power})", house=action.house, leader=action.leader,
                                     face=action.face, immune=immune, power=action.power, powers=(action.power,)))
    if "voice" in detail:  # GAP-99: that command does not bind his plan, or binds as usual
        if immune:
            ctx = dataclasses.replace(ctx, immune_voices=ctx.immune_voices + ((action.house, detail["voice"]),))
        return next_step(state, ctx)
    if immune:
        assert ctx.sequence is not None
        seq = seq_mod.advance(ctx.sequence, seq_mod.PrescienceAnswer(action.house, immunities.IMMUNE))
        return next_step(state, dataclasses.replace(ctx, sequence=seq))
    return dataclasses.replace(state, pending=pending("battle-answer", action.house, battle=ctx,
                                                      failed=(action.leader,)))


# --- the Voice (GAP-99) ----------------------------------------------------------------------------------

def _voice_candidates(state: GameState, ctx: BattleContext, house: str,
                      command: seq_mod.VoiceCommand) -> dict[str, immunities.Protection]:
    """The leaders ``house`` may play here whose immunity to ``command`` needs a d10."""
    from dunenb.powers.karama import suppressed_powers
    from dunenb.rules.pre_battle import may_lead
    from dunenb.rules.traitors import leader_of

    blocked = suppressed_powers(state)
    found = {}
    for lid in may_lead(state, ctx, house):
        protection = immunities.voice_protection(leader_of(house, lid), command.kind, house=house, blocked=blocked)
        if protection is not None and not protection.sure:
            found[lid] = protection
    return found


def after_voice(state: GameState, ctx: BattleContext, command: seq_mod.VoiceCommand) -> GameState:
    """Once ``command`` is given: the voiced House may declare a d10 immunity against it (GAP-99), else the
    pre-battle steps go on."""
    from dunenb.rules.pre_battle import next_step

    assert ctx.sequence is not None
    if not _voice_candidates(state, ctx, command.target, command):
        return next_step(state, ctx)
    return dataclasses.replace(state, pending=pending(VOICE_NODE, command.target, battle=ctx,
                                                      voice=ctx.sequence.voices.index(command)))


def _command(state: GameState) -> seq_mod.VoiceCommand:
    ctx = context_of(state)
    assert ctx.sequence is not None
    return ctx.sequence.voices[node(state).detail["voice"]]


def _voice_decisions(state: GameState) -> list[Action]:
    house = node(state).actor
    candidates = _voice_candidates(state, context_of(state), house, _command(state))
    return [Pass(house), *(DeclareVoiceImmunity(house, lid) for lid in candidates)]


def _check_voice(state: GameState, action: Action) -> IllegalActionError | None:
    if isinstance(action, DeclareVoiceImmunity):
        allowed = _voice_candidates(state, context_of(state), action.house, _command(state))
        if action.leader not in allowed:
            return IllegalActionError("battle/immunity", f"{action.leader!r} has no d10 immunity to this Voice "
                                      f"command here; allowed: {', '.join(allowed) or 'none'} (leaders.md K-10)")
    return None


def _apply_voice(state: GameState, action: Action) -> GameState:
    from dunenb.rules.pre_battle import next_step

    ctx = context_of(state)
    if not isinstance(action, DeclareVoiceImmunity):
        return next_step(state, ctx)
    index = node(state).detail["voice"]
    protection = _voice_candidates(state, ctx, action.house, _command(state))[action.leader]
    assert protection.at_most is not None
    shown = LeaderShown(action.house, action.leader, protection.power)
    if shown not in ctx.shown:
        ctx = dataclasses.replace(ctx, shown=ctx.shown + (shown,))
    state = with_events(state, event("immunity-declared", f"{action.house} declares that {action.leader} is immune "
                                     f"to this Voice command on a d10 of {protection.at_most} or less "
                                     f"({protection.power}, leaders.md K-10); {action.leader} leads this battle",
                                     house=action.house, leader=action.leader, power=protection.power,
                                     powers=(protection.power,)))
    return dataclasses.replace(state, pending=pending(ROLL_NODE, "chance", battle=ctx, house=action.house,
                                                      leader=action.leader, power=protection.power,
                                                      at_most=protection.at_most, voice=index))


def released_voices(ctx: BattleContext, house: str) -> tuple[str, ...]:
    """The release words (``voice#N``) of the commands ``house``'s declared leader rolled himself free of."""
    return tuple(f"voice#{index}" for who, index in ctx.immune_voices if who == house)


HANDLERS = {
    ROLL_NODE: Handler(apply=_apply, outcomes=_outcomes),
    VOICE_NODE: Handler(apply=_apply_voice, decisions=_voice_decisions, check=_check_voice,
                        accepts=(DeclareVoiceImmunity,), always=(Pass,)),
}
