"""Reading a tree of nodes by id: the navigation shared by a game record and its House views.

A class using :class:`TreeNavigation` keeps ``_nodes`` (id -> node with ``id``, ``parent`` and ``children``) and
``_depth`` (id -> depth), and defines ``node(node_id)``, which names a missing id in its own words.

>>> from dunenb.engine import make_config
>>> from dunenb.record import GameRecord
>>> record = GameRecord(make_config(["atreides", "fremen"], seed=1))
>>> record.node_ids, len(record), record.path(record.root), record.depth(record.root)
([0], 1, [], 0)
"""

from __future__ import annotations

from typing import Any


class TreeNavigation:
    """Node ids, sizes, depths, children and paths of a tree of nodes."""

    _nodes: Any
    _depth: Any

    def node(self, node_id: int) -> Any:  # pragma: no cover - every user defines its own
        raise NotImplementedError

    @property
    def node_ids(self) -> list[int]:
        return list(self._nodes)

    def __len__(self) -> int:
        return len(self._nodes)

    def depth(self, node_id: int) -> int:
        self.node(node_id)
        return int(self._depth[node_id])

    def children(self, node_id: int) -> list[int]:
        """The variations after this node; the first is the main continuation."""
        return list(self.node(node_id).children)

    def path(self, node_id: int) -> list[int]:
        """Node ids from the root (excluded) to ``node_id`` (included)."""
        path = []
        current = self.node(node_id)
        while current.parent is not None:
            path.append(current.id)
            current = self._nodes[current.parent]
        return path[::-1]
