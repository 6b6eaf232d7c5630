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

from abc import ABC, abstractmethod
from typing import Any


class TreeNavigation(ABC):
    """Node ids, sizes, depths, children, paths and the main line of a tree of nodes rooted at node 0."""

    _nodes: Any
    _depth: Any
    root = 0

    @abstractmethod
    def node(self, node_id: int) -> Any:
        """The node ``node_id``; a missing id is an error naming what the tree holds."""

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

    def mainline(self, start: int | None = None) -> list[int]:
        """The node ids of the main line (first children) after ``start`` (the root by default)."""
        line = []
        current = self.node(self.root if start is None else start)
        while current.children:
            current = self._nodes[current.children[0]]
            line.append(current.id)
        return line

    def leaf(self, node_id: int | None = None) -> int:
        """The last node of the main line from ``node_id``."""
        line = self.mainline(node_id)
        return line[-1] if line else (self.root if node_id is None else node_id)
