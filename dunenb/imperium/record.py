"""Game trees for Dune: Imperium: :class:`dunenb.record.GameRecord` with this engine's rules hooks.

>>> from dunenb.imperium.engine import chance_outcomes
>>> record = ImperiumRecord(ImperiumConfig(("A", "B"), ("paul_atreides", "leto_atreides"), 2))
>>> first, second = [action for action, _ in chance_outcomes(record.state_at(record.root))][:2]
>>> main, branch = record.add_move(record.root, first), record.add_move(record.root, second)
>>> record.children(record.root) == [main, branch], record.state_at(branch).row == (second.card,)
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dunenb.imperium.engine import apply_action, new_game
from dunenb.imperium.state import ImperiumState
from dunenb.record import GameRecord

__all__ = ["ImperiumConfig", "ImperiumRecord"]


@dataclass(frozen=True)
class ImperiumConfig:
    """What a game starts from: names, leaders and seed."""

    names: tuple[str, ...]
    leaders: tuple[str, ...]
    seed: int


def _initial(config: ImperiumConfig) -> ImperiumState:
    return new_game(config.names, config.seed, config.leaders)


class ImperiumRecord(GameRecord):
    """A tree of Imperium actions: variations, replay from checkpoints, branching (``add_move`` on any node)."""

    initial_state = staticmethod(_initial)  # type: ignore[assignment]
    apply_action = staticmethod(apply_action)  # type: ignore[assignment]

    def __init__(self, config: ImperiumConfig) -> None:
        super().__init__(config)  # type: ignore[arg-type]

    def seat_view(self, node_id: int, seat: int | None) -> dict[str, Any]:
        """The position at ``node_id`` as ``seat`` sees it (``None``: a spectator); see ``save.view``."""
        from dunenb.imperium.save import view

        return view(self.state_at(node_id), seat)  # type: ignore[arg-type]  # GameRecord holds ImperiumStates here

    def view(self, house: object) -> Any:  # type: ignore[override]
        """The record as one seat sees it (IMP-GAP-37): ``house`` is a seat index, a player name or ``None`` for a
        spectator; see :class:`dunenb.imperium.record_view.ImperiumRecordView`."""
        from dunenb.imperium.record_view import ImperiumRecordView, resolve_seat

        config: ImperiumConfig = self.config  # type: ignore[assignment]
        return ImperiumRecordView(self, resolve_seat(config.names, house))
