"""What each seat of a Dune: Imperium game may see of an action (IMP-GAP-37).

Face-down cards stay with their holder: another player's card draws and Prescience peeks, intrigue draws
(except one's own card), a steal (except to the thief and the victim) and the Baron's secret factions choice
are secret. Everything placed or played on the table (agents, reveals, purchases, intrigues played, trashed
cards, the Imperium row, conflict cards, the first player) is public. The odds of a chance node are shown for
public nodes and for one's own card draws only: an intrigue draw's odds would tell which intrigues the others hold.

>>> from dunenb.imperium.state import Task
>>> secret_task(Task("draw", 1), 0), secret_task(Task("draw", 1), 1), secret_task(Task("row"), None)
(True, False, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from dunenb.imperium.state import CHANCE_TASKS, Task

#: Tasks whose outcome only the player of the task sees.
OWN_SECRET_TASKS: frozenset[str] = frozenset({"draw", "peek", "intrigue", "secret_factions"})
#: Chance tasks whose outcomes and odds everyone may see.
PUBLIC_CHANCE_TASKS: frozenset[str] = frozenset({"row", "conflict", "first"})


def secret_task(task: Task | None, seat: int | None) -> bool:
    """Whether the action answering ``task`` is hidden from ``seat`` (``None``: a spectator)."""
    if task is None:
        return False
    if task.kind in OWN_SECRET_TASKS:
        return seat != task.player
    if task.kind == "steal":  # IMP-GAP-20: the card passes between the thief and the victim
        return seat not in (task.player, task.data[0])
    return False


def odds_shown(task: Task | None, seat: int | None) -> bool:
    """Whether ``seat`` may see the choices at ``task``: its own decision, a public chance node, its own draw."""
    if task is None:
        return False
    if task.kind in PUBLIC_CHANCE_TASKS:
        return True
    if task.kind in ("draw", "peek"):
        return seat == task.player
    if task.kind in CHANCE_TASKS:
        return False
    return seat == task.player


@dataclass(frozen=True)
class HiddenAction:
    """An action ``seat`` may not see: the pending task's kind and player only."""

    task: str
    player: int
    kind: ClassVar[str] = "hidden"
    is_chance: ClassVar[bool] = False

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "task": self.task, "player": self.player}

    @property
    def notation(self) -> str:
        return f"hidden {self.task} {self.player}"
