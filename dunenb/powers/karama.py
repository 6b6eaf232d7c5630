"""Karama suppressions (KARAMA-1, houses.md G-5, GAP-37b): a Karama use blocks one power for as long as it says.

A use played is recorded in ``GameState.suppressions`` as :class:`~dunenb.state.Suppression` (power, the Karama
ID, who played it, its scope and turn); :func:`dunenb.powers.holder` then answers ``None`` for that power. A
``"turn"`` use lapses when its turn is over, a ``"game"`` one never; ``"action"``, ``"event"``, ``"battle"`` and
``"reveal"`` ones are lifted by the rules module once that use is settled (:func:`lift`; ``"reveal"``: the storm
phase, when the storm token drawn face down is revealed, KARAMA-5).

>>> from dunenb.engine import new_game
>>> state = new_game(["guild", "atreides"], seed=1)
>>> blocked = suppress(state, "KARAMA-15", "atreides")
>>> is_suppressed(blocked, "GUILD-P2"), is_suppressed(lift(blocked, "action"), "GUILD-P2")
(True, False)
"""

from __future__ import annotations

from dunenb.powers.registry import karama_use
from dunenb.state import GameState, Suppression, evolve


def suppressed_powers(state: GameState) -> frozenset[str]:
    """The powers a Karama use in force blocks now (a use lasting a turn is in force in its own turn only)."""
    return frozenset(s.power for s in state.suppressions if s.scope != "turn" or s.turn == state.turn)


def is_suppressed(state: GameState, power_id: str) -> bool:
    """Whether a Karama use in force blocks ``power_id`` now."""
    return power_id in suppressed_powers(state)


def suppress(state: GameState, karama_id: str, by: str) -> GameState:
    """Record the Karama use ``karama_id`` played by ``by``: its power is blocked for the use's duration."""
    spec, use = karama_use(karama_id)
    entry = Suppression(power=spec.id, karama=use.id, by=by, scope=use.lasts, turn=state.turn)
    return evolve(state, suppressions=state.suppressions + (entry,))


def suppress_powers(state: GameState, karama_id: str, by: str, powers: tuple[str, ...], *,
                    scope: str) -> GameState:
    """Record the Karama use ``karama_id`` played by ``by`` against several powers at once, for ``scope``
    (leaders.md LC-11: every power of one secondary leader, GAP-121; KARAMA-20 shown with the wheel)."""
    entries = tuple(Suppression(power=power, karama=karama_id, by=by, scope=scope, turn=state.turn)
                    for power in powers)
    return evolve(state, suppressions=state.suppressions + entries) if entries else state


def lift(state: GameState, *scopes: str) -> GameState:
    """Lift the suppressions of these scopes (the action, event or battle they blocked is settled), and drop the
    turn ones whose turn is over."""
    kept = tuple(s for s in state.suppressions
                 if s.scope not in scopes and not (s.scope == "turn" and s.turn < state.turn))
    return state if kept == state.suppressions else evolve(state, suppressions=kept)
