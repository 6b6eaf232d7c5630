"""A game record: a tree of actions (python-chess style variations) with states by replay and a cache.

Nodes store actions only; the state at any node is the configuration's initial state with the actions on
the path from the root replayed. Checkpoints every ``CHECKPOINT_EVERY`` plies and a bounded cache of recent
nodes make any node cheap to reach.

>>> from dunenb.engine import make_config, sample_chance
>>> record = GameRecord(make_config(["atreides", "harkonnen"], seed=1))
>>> node = record.root
>>> for _ in range(2):  # both Houses roll 3d10
...     node = record.add_move(node, sample_chance(record.state_at(node)))
>>> len(record.mainline()), record.depth(node)
(2, 2)
>>> again = record.add_move(record.mainline()[0], record.node(record.mainline()[1]).action)
>>> again == record.mainline()[1]
True
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from dunenb.actions import Action
from dunenb.engine import apply_action, initial_state
from dunenb.errors import DuneError, InputError, SaveFormatError
from dunenb.gcpause import collector_paused
from dunenb.state import GameConfig, GameState
from dunenb.tree import TreeNavigation

if TYPE_CHECKING:
    from dunenb.record_view import RecordView

#: issue 14 item 2: at most 15 actions replayed to reach any node from its checkpoint (any node under 10 ms at the
#: 99th percentile: 3.5 ms CPU measured, 5.8 ms with 32); a checkpoint shares its unchanged parts with the states
#: around it, so twice as many cost little memory
CHECKPOINT_EVERY = 16
RECENT_CACHE_SIZE = 2048


@dataclass
class Node:
    """One node of the tree: the action that leads to it from its parent (``None`` at the root)."""

    id: int
    parent: int | None
    action: Action | None
    children: list[int] = field(default_factory=list)
    comment: str = ""


def _hashable(action: object) -> bool:
    try:
        hash(action)
    except TypeError:
        return False
    return True


class GameRecord(TreeNavigation):
    """A game as a tree of actions from one configuration (the log is the truth).

    The rules come from two hooks, ``initial_state(config)`` and ``apply_action(state, action)``; a companion
    engine reuses the tree by overriding them in a subclass (see :class:`dunenb.imperium.record.ImperiumRecord`).
    """

    initial_state = staticmethod(initial_state)
    apply_action = staticmethod(apply_action)

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        self.root = 0
        self._nodes: dict[int, Node] = {0: Node(id=0, parent=None, action=None)}
        #: (parent, action) -> child: finds an existing variation in O(1), however wide the node (issue 15).
        self._child_of: dict[tuple[int, Action], int] = {}
        self._depth: dict[int, int] = {0: 0}
        self._next_id = 1
        self._checkpoints: dict[int, GameState] = {0: self.initial_state(config)}
        self._recent: OrderedDict[int, GameState] = OrderedDict()
        #: GAP-68: nodes of a trusted save whose action has not been played yet -> where the save holds it
        #: ("nodes[3] (id 4)"); each is checked by the rules the first time its state is computed.
        self._unplayed: dict[int, str] = {}
        #: GAP-68: unplayed nodes the rules refused: a record holding one is never saved as validated.
        self.refused: set[int] = set()

    # --- structure ---------------------------------------------------------------------------------------

    def node(self, node_id: int) -> Node:
        try:
            return self._nodes[node_id]
        except KeyError:
            raise InputError("record/node", f"no node {node_id}; nodes are 0..{self._next_id - 1}") from None

    def actions_to(self, node_id: int) -> list[Action]:
        return [self._nodes[n].action for n in self.path(node_id)]  # type: ignore[misc]

    # --- editing -----------------------------------------------------------------------------------------

    def add_move(self, parent: int, action: Action, *, comment: str = "") -> int:
        """Play ``action`` after ``parent``; returns the child (an existing one if the same action is there).

        The action is checked against the rules: an illegal one raises and the tree is unchanged.
        """
        self.node(parent)
        key: tuple[int, Action] | None = (parent, action)
        try:  # issue 14 part 3: the action hashed once to look its child up and once to file it (was four times)
            existing = self._child_of.get(key)  # type: ignore[arg-type]
        except TypeError:  # an unhashable action: compared with each child (_existing_child)
            existing, key = self._existing_child(parent, action), None
        if existing is not None:
            return existing
        state = self.apply_action(self.state_at(parent), action)
        node_id = self._next_id
        self._next_id += 1
        self._nodes[node_id] = Node(id=node_id, parent=parent, action=action, comment=comment)
        self._nodes[parent].children.append(node_id)
        if key is not None:
            self._child_of[key] = node_id
        self._depth[node_id] = self._depth[parent] + 1
        self._remember(node_id, state)
        return node_id

    def add_unplayed(self, parent: int, action: Action, *, comment: str = "", where: str) -> int:
        """GAP-68: add a node from a save the engine validated (its hash matches) without playing it now.

        The tree, the merging of repeated variations and the ids are those :meth:`add_move` would give; the
        action is checked by the rules, like every action, when a state through it is first computed
        (:meth:`state_at`), and a refusal then names ``where`` as a save error would.
        """
        key = (parent, action)
        try:
            existing = self._child_of.get(key)  # one hash of the action (a big save has many nodes)
        except TypeError:  # an unhashable action: compared with each child
            existing, key = self._existing_child(parent, action), None  # type: ignore[assignment]
        if existing is not None:
            return existing
        node_id = self._next_id
        self._next_id += 1
        self._nodes[node_id] = Node(id=node_id, parent=parent, action=action, comment=comment)
        self._nodes[parent].children.append(node_id)
        if key is not None:
            self._child_of[key] = node_id
        self._depth[node_id] = self._depth[parent] + 1
        self._unplayed[node_id] = where
        return node_id

    @property
    def fully_played(self) -> bool:
        """Whether every node's action has been played through the rules (always, but after a trusted load)."""
        return not self._unplayed

    def _existing_child(self, parent: int, action: Action) -> int | None:
        """The child of ``parent`` reached by ``action``: O(1) for hashable actions (every Dune and companion
        action is a frozen dataclass), a scan of the children otherwise."""
        if _hashable(action):
            return self._child_of.get((parent, action))
        return next((c for c in self._nodes[parent].children if self._nodes[c].action == action), None)

    def add_line(self, parent: int, actions: Iterable[Action]) -> int:
        """Play several actions in a row; returns the last node."""
        node = parent
        for action in actions:
            node = self.add_move(node, action)
        return node

    def promote(self, node_id: int) -> None:
        """Make ``node_id`` the main continuation of its parent."""
        node = self.node(node_id)
        if node.parent is None:
            return
        siblings = self._nodes[node.parent].children
        siblings.remove(node_id)
        siblings.insert(0, node_id)

    def set_comment(self, node_id: int, comment: str) -> None:
        self.node(node_id).comment = comment

    # --- states ------------------------------------------------------------------------------------------

    def state_at(self, node_id: int) -> GameState:
        """The state after the actions leading to ``node_id`` (replayed from the nearest cached ancestor)."""
        cached = self._lookup(node_id)
        if cached is not None:
            return cached
        pending: list[int] = []
        current = self.node(node_id)
        state = None
        while state is None:
            pending.append(current.id)
            current = self._nodes[current.parent]  # type: ignore[index]
            state = self._lookup(current.id)
        with collector_paused():  # issue 14 part 3: the states made are kept (checkpoints, recent cache)
            for step in reversed(pending):
                state = self._play(step, state)
                self._remember(step, state)
        return state

    def _play(self, node_id: int, state: GameState) -> GameState:
        """The state after ``node_id``'s action: always checked by the rules (``apply_action``)."""
        action = self._nodes[node_id].action
        where = self._unplayed.get(node_id)
        if where is None:
            return self.apply_action(state, action)  # type: ignore[arg-type]
        try:
            following = self.apply_action(state, action)  # type: ignore[arg-type]
        except DuneError as error:  # GAP-68: a trusted save's node the rules refuse is refused as at load
            self.refused.add(node_id)
            raise SaveFormatError("save/illegal-action", f"{where}: {error}") from None
        del self._unplayed[node_id]
        return following

    def _lookup(self, node_id: int) -> GameState | None:
        if node_id in self._checkpoints:
            return self._checkpoints[node_id]
        state = self._recent.get(node_id)
        if state is not None:
            self._recent.move_to_end(node_id)
        return state

    def _remember(self, node_id: int, state: GameState) -> None:
        if self._depth[node_id] % CHECKPOINT_EVERY == 0:
            self._checkpoints[node_id] = state
            return
        self._recent[node_id] = state
        self._recent.move_to_end(node_id)
        while len(self._recent) > RECENT_CACHE_SIZE:
            self._recent.popitem(last=False)

    def view(self, house: str) -> RecordView:
        """The record as ``house`` sees it (GAP-58): House views of the states, other Houses' secret actions
        redacted, only the choices it may see; a read-only snapshot holding no reference to this record.

        >>> from dunenb.engine import make_config
        >>> GameRecord(make_config(["atreides", "harkonnen"], seed=1)).view("harkonnen")
        RecordView(house='harkonnen', nodes=1)
        """
        from dunenb.record_view import RecordView

        return RecordView(self, house)

    def clear_cache(self) -> None:
        """Forget every cached state but the root's (for cold-start measurements)."""
        root_state = self._checkpoints[0]
        self._checkpoints = {0: root_state}
        self._recent.clear()
