"""A game record as one House sees it (GAP-58): positions are House views, secret actions are redacted.

:meth:`dunenb.record.GameRecord.view` builds a :class:`RecordView`. It is browsed like a record (``node``,
``children``, ``path``, ``mainline``, ``leaf``, ``depth``, ``state_at``, ``actions_to``) and adds
``alternatives``, the choices the House may see at a node. Which actions are secret, and which later event
reveals one, is decided by :mod:`dunenb.rules.secrecy` (from the rules), never by a widget.

**Separation.** A view is built once, eagerly: the House view of every state and the redacted action of every
node are computed from the god record, and only those are kept. The view holds no reference to the record,
to a god state or to the generator's seed (``config.seed`` is 0), so nothing a notebook user can follow from
it leads to another House's secrets. It is a snapshot: moves added to the record later need a new view.

A node's action is shown *as the House knows it at that node*: a battle plan is hidden at the node where the
defender sets it and shown from the node where both plans are revealed on (BATTLE-13 f), so ``actions_to(n)``
can show more than the ``node(m).action`` of the nodes on the way.

>>> from dunenb.engine import make_config
>>> from dunenb.play import advance
>>> from dunenb.record import GameRecord
>>> record = GameRecord(make_config(["atreides", "harkonnen"], seed=3))
>>> leaf = advance(record, record.root, until="turn")
>>> seen = record.view("atreides")
>>> seen.config.seed, len(seen) == len(record), seen.state_at(leaf).houses["harkonnen"].hand[:1]
(0, True, ('hidden',))
>>> sorted({seen.node(n).action.notation() for n in seen.mainline()
...         if seen.node(n).action.kind == "traitor-draw" and seen.node(n).action.house == "harkonnen"})
['traitor-draw harkonnen (hidden)']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING

from dunenb.actions import Action
from dunenb.engine import chance_outcomes, legal_actions, view
from dunenb.errors import InputError
from dunenb.rules import deck_tops, secrecy
from dunenb.rules.secrecy import HiddenAction
from dunenb.state import Event, GameConfig, GameState
from dunenb.tree import TreeNavigation

if TYPE_CHECKING:
    from dunenb.record import GameRecord

#: An action as a House sees it: the action itself, or its redacted placeholder.
ShownAction = Action | HiddenAction
#: The most alternatives listed at one node (a representative menu can be long).
MAX_ALTERNATIVES = 400


@dataclass(frozen=True)
class ViewNode:
    """One node of a :class:`RecordView`: the action leading to it as the House knows it at this node."""

    id: int
    parent: int | None
    action: ShownAction | None
    children: tuple[int, ...]
    comment: str = ""


def _choices(state: GameState) -> tuple[tuple[Action, Fraction | None], ...]:
    """The choices at ``state``: a chance node's outcomes with their odds, or the first decisions of the menu."""
    if state.pending is None:
        return ()
    outcomes = chance_outcomes(state)
    if outcomes:
        return tuple(outcomes)
    return tuple((a, None) for a in legal_actions(state)[:MAX_ALTERNATIVES])


class RecordView(TreeNavigation):
    """A read-only game record as ``house`` sees it. Build it with :meth:`GameRecord.view`."""

    def __init__(self, record: GameRecord, house: str) -> None:
        if house not in record.config.houses:
            raise InputError("view/house", f"house {house!r} does not play in this game; allowed: "
                             f"{', '.join(record.config.houses)}")
        self.house = house
        self.config: GameConfig = dataclasses.replace(record.config, seed=0)  # GAP-58: no seed in a view
        self.root = record.root
        nodes: dict[int, ViewNode] = {}
        states: dict[int, GameState] = {}
        depths: dict[int, int] = {}
        revealed: dict[int, dict[int, Action]] = {}
        choices: dict[int, tuple[tuple[Action, Fraction | None], ...]] = {}
        # depth-first from the root, so that each state is one action from its (cached) parent's
        stack: list[tuple[int, tuple[tuple[int, Action], ...]]] = [(record.root, ())]
        while stack:
            node_id, waiting = stack.pop()
            source = record.node(node_id)
            state = record.state_at(node_id)
            action: ShownAction | None = source.action
            if source.parent is not None and source.action is not None:
                before = record.state_at(source.parent)
                if not secrecy.sees(before, source.action, house):
                    action = secrecy.hidden(before, source.action)
                    if secrecy.reveals(source.action, state.events):
                        action = source.action
                    elif source.action.kind in secrecy.REVEALED_BY:
                        waiting = waiting + ((node_id, source.action),)
            shown_now = {j: a for j, a in waiting if j != node_id and secrecy.reveals(a, state.events)}
            if shown_now:
                revealed[node_id] = shown_now
                waiting = tuple((j, a) for j, a in waiting if j not in shown_now)
            nodes[node_id] = ViewNode(node_id, source.parent, action, tuple(source.children), source.comment)
            if not secrecy.is_secret_choice(state, house):
                # ATREIDES-P2 c-d: a draw's odds as this House knows the deck (a top it does not see is unseen)
                choices[node_id] = _choices(deck_tops.hide(state, house))
            states[node_id] = view(state, house)
            depths[node_id] = record.depth(node_id)
            stack.extend((child, waiting) for child in reversed(source.children))
        self._nodes: Mapping[int, ViewNode] = MappingProxyType(nodes)
        self._states: Mapping[int, GameState] = MappingProxyType(states)
        self._depth: Mapping[int, int] = MappingProxyType(depths)
        self._choices: Mapping[int, tuple[tuple[Action, Fraction | None], ...]] = MappingProxyType(choices)
        self._revealed: Mapping[int, Mapping[int, Action]] = MappingProxyType(
            {n: MappingProxyType(r) for n, r in revealed.items()})

    # --- structure (as GameRecord) ---------------------------------------------------------------------------

    def node(self, node_id: int) -> ViewNode:
        try:
            return self._nodes[node_id]
        except KeyError:
            raise InputError("record/node", f"no node {node_id} in this view; it has {len(self._nodes)} "
                             "nodes (a view is a snapshot: build a new one after adding moves)") from None

    # --- what the House sees ---------------------------------------------------------------------------------

    def state_at(self, node_id: int) -> GameState:
        """The House view (:func:`dunenb.engine.view`) of the state at ``node_id``."""
        self.node(node_id)
        return self._states[node_id]

    def events_at(self, node_id: int) -> tuple[Event, ...]:
        """What the action leading to ``node_id`` did (public texts; secret events name no secret)."""
        return self.state_at(node_id).events

    def actions_to(self, node_id: int) -> list[ShownAction]:
        """The actions from the root to ``node_id``, each as the House knows it at ``node_id``."""
        shown: dict[int, Action] = {}
        path = self.path(node_id)
        for step in path:
            shown.update(self._revealed.get(step, {}))
        return [shown.get(step, self._nodes[step].action) for step in path]  # type: ignore[misc]

    def alternatives(self, node_id: int) -> list[tuple[Action, Fraction | None]]:
        """The choices at ``node_id`` the House may see, with their odds at a chance node (``None`` at a decision):
        its own menu, the outcomes of a public chance node, nothing at another House's decision or at a secret draw
        (GAP-58, :func:`dunenb.rules.secrecy.is_secret_choice`). They are listed by the rules on the real position
        when the view is built (a House's menu depends only on what it may see)."""
        self.node(node_id)
        return list(self._choices.get(node_id, ()))

    def __repr__(self) -> str:
        return f"RecordView(house={self.house!r}, nodes={len(self)})"
