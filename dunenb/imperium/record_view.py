"""A Dune: Imperium game record as one seat sees it (IMP-GAP-37, as GAP-58 for the Dune game).

:meth:`dunenb.imperium.record.ImperiumRecord.view` builds an :class:`ImperiumRecordView`: the tree of the record
(``node``, ``children``, ``path``, ``mainline``, ``leaf``, ``depth``) where each position is the seat's view
(:func:`dunenb.imperium.save.view`: other hands, intrigues and deck orders hidden), each action is shown unless it
is secret to the seat (:mod:`dunenb.imperium.secrecy`; then a :class:`~dunenb.imperium.secrecy.HiddenAction`), and
``alternatives`` lists the choices the seat may see. The view is built once, eagerly; it keeps no reference to the
record, to a state or to the seed (``config.seed`` is 0). It is a snapshot: build a new one after adding moves.

>>> from dunenb.imperium.engine import chance_outcomes
>>> from dunenb.imperium.record import ImperiumConfig, ImperiumRecord
>>> record = ImperiumRecord(ImperiumConfig(("A", "B"), ("paul_atreides", "leto_atreides"), 5))
>>> node = record.root
>>> while record.state_at(node).pending.kind != "draw":
...     node = record.add_move(node, chance_outcomes(record.state_at(node))[0][0])
>>> drawer = record.state_at(node).pending.player
>>> node = record.add_move(node, chance_outcomes(record.state_at(node))[0][0])  # a card drawn by B (seat 1)
>>> drawer, record.view(0).node(node).action.notation, record.view(1).node(node).action.notation
(1, 'hidden draw 1', 'chance convincing_argument')
>>> record.view("A").config.seed, record.view("A").state_at(node)["players"][1]["hand"]
(0, 1)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, cast

from dunenb.errors import InputError
from dunenb.imperium.engine import chance_outcomes, legal_actions
from dunenb.imperium.save import view
from dunenb.imperium.secrecy import HiddenAction, odds_shown, secret_task
from dunenb.imperium.state import ImperiumState
from dunenb.tree import TreeNavigation

if TYPE_CHECKING:
    from dunenb.imperium.record import ImperiumConfig, ImperiumRecord


@dataclass(frozen=True)
class ImperiumViewNode:
    """One node of an :class:`ImperiumRecordView`: the action leading to it as the seat sees it."""

    id: int
    parent: int | None
    action: Any
    children: tuple[int, ...]
    comment: str = ""


def resolve_seat(names: tuple[str, ...], seat: object) -> int | None:
    """A seat index from an index or a player name; ``None`` stays a spectator. :class:`InputError` otherwise."""
    if seat is None:
        return None
    if type(seat) is int and 0 <= seat < len(names):
        return seat
    if isinstance(seat, str) and seat in names:
        return names.index(seat)
    raise InputError("imperium/record-view", f"view({seat!r}): expected a seat 0 to {len(names) - 1}, a player "
                     f"name ({', '.join(names)}) or None for a spectator")


class ImperiumRecordView(TreeNavigation):
    """A read-only Imperium record as ``seat`` sees it (``None``: a spectator). Build it with ``record.view``."""

    def __init__(self, record: ImperiumRecord, seat: int | None) -> None:
        self.seat = seat
        self.config: ImperiumConfig = dataclasses.replace(cast("ImperiumConfig", record.config), seed=0)
        self.root = record.root
        nodes: dict[int, ImperiumViewNode] = {}
        states: dict[int, dict[str, Any]] = {}
        depths: dict[int, int] = {}
        choices: dict[int, tuple[tuple[Any, Fraction | None], ...]] = {}
        stack = [record.root]
        while stack:
            node_id = stack.pop()
            source = record.node(node_id)
            state = cast(ImperiumState, record.state_at(node_id))
            action: Any = source.action
            if source.parent is not None and action is not None:
                task = cast(ImperiumState, record.state_at(source.parent)).pending
                if secret_task(task, seat):
                    assert task is not None
                    action = HiddenAction(task.kind, task.player)
            nodes[node_id] = ImperiumViewNode(node_id, source.parent, action, tuple(source.children), source.comment)
            states[node_id] = view(state, seat)
            depths[node_id] = record.depth(node_id)
            if odds_shown(state.pending, seat):
                if state.is_chance:
                    choices[node_id] = tuple(chance_outcomes(state))
                else:
                    choices[node_id] = tuple((a, None) for a in legal_actions(state))
            stack.extend(reversed(source.children))
        self._nodes: Mapping[int, ImperiumViewNode] = MappingProxyType(nodes)
        self._states: Mapping[int, dict[str, Any]] = MappingProxyType(states)
        self._depth: Mapping[int, int] = MappingProxyType(depths)
        self._choices: Mapping[int, tuple[tuple[Any, Fraction | None], ...]] = MappingProxyType(choices)

    def node(self, node_id: int) -> ImperiumViewNode:
        try:
            return self._nodes[node_id]
        except KeyError:
            raise InputError("record/node", f"no node {node_id} in this view; it has {len(self._nodes)} "
                             "nodes (a view is a snapshot: build a new one after adding moves)") from None

    def state_at(self, node_id: int) -> dict[str, Any]:
        """The seat's view (:func:`dunenb.imperium.save.view`) of the position at ``node_id``."""
        self.node(node_id)
        return self._states[node_id]

    def actions_to(self, node_id: int) -> list[Any]:
        """The actions from the root to ``node_id`` as the seat sees them."""
        return [self._nodes[step].action for step in self.path(node_id)]

    def alternatives(self, node_id: int) -> list[tuple[Any, Fraction | None]]:
        """The seat's own menu, the outcomes of a public chance node or of its own draw (with odds), else nothing."""
        self.node(node_id)
        return list(self._choices.get(node_id, ()))

    def __repr__(self) -> str:
        return f"ImperiumRecordView(seat={self.seat!r}, nodes={len(self)})"
