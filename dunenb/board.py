"""The 24-sector map of Dune as data (MAP-1 to MAP-12; the layout itself is GAP-1, a design).

>>> board = load_board()
>>> board.sector_count, len(board.areas)
(24, 31)
>>> board.area("arrakeen").sectors, board.area("arrakeen").kind
((1,), 'city')
>>> board.are_adjacent("arrakeen", "bouclier")
True
"""

from __future__ import annotations

import json
import os
from collections import deque
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from dunenb.errors import RulesDataError

AREA_KINDS = ("mountain", "desert", "city", "sietch", "pole")
EXPECTED_KIND_COUNTS = {"mountain": 6, "desert": 18, "city": 3, "sietch": 3, "pole": 1}  # MAP-6
SHIELD_WALL = "bouclier"  # the Shield Wall massif (MAP-6, STORM-7): the atomics blast it (GAP-30)


@dataclass(frozen=True)
class Area:
    """One territory (MAP-5, MAP-7): a movement square spanning one or more sectors."""

    id: str
    name: str
    kind: str
    ring: str
    sectors: tuple[int, ...]
    spice_sector: int | None
    adjacent: tuple[str, ...]

    @property
    def is_desert(self) -> bool:
        return self.kind == "desert"

    @property
    def is_settlement(self) -> bool:
        """Cities and Sietchs: the 6 "green and red" territories (LAND-1)."""
        return self.kind in ("city", "sietch")


@dataclass(frozen=True)
class Board:
    """The whole map: areas by id, adjacency, rings for drawing, 24 start positions."""

    sector_count: int
    areas: tuple[Area, ...]
    rings: dict[str, tuple[float, float]]
    start_positions: tuple[int, ...]
    source: str

    @cached_property
    def _areas_by_id(self) -> dict[str, Area]:
        """Issue 14 item 4: the areas by id, built once per (immutable) board, for :meth:`area`; the first area
        of an id wins, as the scan it replaces found it (ids are unique anyway: board/duplicate-area)."""
        index: dict[str, Area] = {}
        for area in self.areas:
            index.setdefault(area.id, area)
        return index

    def area(self, area_id: str) -> Area:
        """Return the area with this id; unknown ids raise an error listing the allowed ids."""
        found = self._areas_by_id.get(area_id)
        if found is not None:
            return found
        raise RulesDataError("board/unknown-area", f"unknown area {area_id!r}; known: {', '.join(self.area_ids)}")

    @property
    def area_ids(self) -> tuple[str, ...]:
        return tuple(area.id for area in self.areas)

    def are_adjacent(self, first: str, second: str) -> bool:
        return second in self.area(first).adjacent

    def areas_in_sector(self, sector: int) -> tuple[Area, ...]:
        return tuple(area for area in self.areas if sector in area.sectors)

    def deserts(self) -> tuple[Area, ...]:
        return tuple(area for area in self.areas if area.kind == "desert")

    def find_area(self, text: str) -> Area:
        """Find an area by id or display name (case- and accent-insensitive)."""
        wanted = _fold(text)
        for area in self.areas:
            if _fold(area.id) == wanted or _fold(area.name) == wanted:
                return area
        raise RulesDataError("board/unknown-area", f"unknown area {text!r}; known: {', '.join(self.area_ids)}")

    def to_json(self) -> dict[str, Any]:
        """The board in the documented ``dunenb rules map --json`` form."""
        return {
            "sectors": self.sector_count,
            "areas": [
                {
                    "id": area.id, "name": area.name, "kind": area.kind, "sectors": list(area.sectors),
                    "adjacent": list(area.adjacent), "spice_sector": area.spice_sector, "ring": area.ring,
                }
                for area in self.areas
            ],
            "start_positions": list(self.start_positions),
            "source": self.source,
        }


def _fold(text: str) -> str:
    import unicodedata

    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return "-".join(plain.replace("'", " ").replace("-", " ").split())


def parse_board(raw: Any) -> Board:
    """Build and validate a :class:`Board` from its JSON form (raises :class:`RulesDataError`)."""
    if not isinstance(raw, dict) or raw.get("format") != "dunenb.board/1":
        raise RulesDataError("board/format", "board data must be an object with format 'dunenb.board/1'")
    sector_count = raw.get("sectors")
    if sector_count != 24:
        raise RulesDataError("board/sectors", f"the board has 24 sectors (MAP-2), not {sector_count!r}")
    areas: list[Area] = []
    for index, entry in enumerate(raw.get("areas", [])):
        where = f"areas[{index}]"
        try:
            area = Area(
                id=str(entry["id"]), name=str(entry["name"]), kind=str(entry["kind"]), ring=str(entry["ring"]),
                sectors=tuple(int(s) for s in entry["sectors"]),
                spice_sector=None if entry.get("spice_sector") is None else int(entry["spice_sector"]),
                adjacent=tuple(str(a) for a in entry["adjacent"]),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise RulesDataError("board/area", f"{where}: missing or bad field ({error})") from None
        if area.kind not in AREA_KINDS:
            raise RulesDataError("board/kind", f"{where} ({area.id}): kind {area.kind!r} not in {AREA_KINDS}")
        if not area.sectors or any(not 1 <= s <= 24 for s in area.sectors):
            raise RulesDataError("board/area-sectors", f"{where} ({area.id}): sectors must be 1..24")
        if area.kind == "desert" and area.spice_sector not in area.sectors:
            raise RulesDataError(
                "board/spice-sector", f"{area.id}: a desert needs its spice diamond in one of its sectors (MAP-10)"
            )
        areas.append(area)
    board = Board(
        sector_count=24,
        areas=tuple(areas),
        rings={name: (float(lo), float(hi)) for name, (lo, hi) in raw.get("rings", {}).items()},
        start_positions=tuple(int(p["id"]) for p in raw.get("start_positions", [])),
        source=str(raw.get("source", "")),
    )
    validate_board(board)
    return board


def validate_board(board: Board) -> None:
    """Check the seed's facts and the graph's soundness; the first problem found raises an error."""
    ids = board.area_ids
    if len(set(ids)) != len(ids):
        raise RulesDataError("board/duplicate-area", "two areas share an id")
    counts = {kind: sum(1 for a in board.areas if a.kind == kind) for kind in AREA_KINDS}
    if counts != EXPECTED_KIND_COUNTS:
        raise RulesDataError("board/kind-counts", f"MAP-6 needs {EXPECTED_KIND_COUNTS}, found {counts}")
    for area in board.areas:
        for other in area.adjacent:
            if other not in ids:
                raise RulesDataError("board/adjacent-unknown", f"{area.id} lists unknown neighbour {other!r}")
            if area.id not in board.area(other).adjacent:
                raise RulesDataError("board/asymmetric", f"{area.id} lists {other} but {other} does not list it")
    covered = {s for area in board.areas if area.kind != "pole" for s in area.sectors}
    missing = sorted(set(range(1, 25)) - covered)
    if missing:
        raise RulesDataError("board/uncovered-sector", f"sectors {missing} hold no territory besides the pole")
    if 1 not in board.area("arrakeen").sectors:
        raise RulesDataError("board/arrakeen", "sector 1 must hold Arrakeen (MAP-4)")
    if not board.are_adjacent("arrakeen", "bouclier"):
        raise RulesDataError("board/shield-wall", "Arrakeen must be adjacent to the Shield Wall (MAP-9)")
    seen = {ids[0]}
    queue = deque([ids[0]])
    while queue:
        for neighbour in board.area(queue.popleft()).adjacent:
            if neighbour not in seen:
                seen.add(neighbour)
                queue.append(neighbour)
    if len(seen) != len(ids):
        raise RulesDataError("board/disconnected", f"unreachable areas: {sorted(set(ids) - seen)}")
    if sorted(board.start_positions) != list(range(1, 25)):
        raise RulesDataError("board/start-positions", "there must be 24 start positions, 1..24 (MAP-8)")


@lru_cache(maxsize=1)
def _data_folder() -> str | None:
    """The folder of the ``dunenb.data`` package when it is one on disk (an ordinary install or checkout), else
    None. Read directly, the files cost no ``importlib.resources`` import (it brings ``tempfile`` and ``random``:
    issue 14 item 3, start-up)."""
    from importlib import import_module  # by name: the data package is mapped from data/ at install time, so a
                                         # type checker run on a checkout cannot see it as a module

    where = getattr(import_module("dunenb.data"), "__file__", None)
    return os.path.dirname(where) if where and os.path.isfile(where) else None


def read_data_file(name: str) -> Any:
    """Read one JSON file shipped in the ``dunenb.data`` package (the repository's ``data/`` folder)."""
    folder = _data_folder()
    try:
        if folder is not None:
            with open(os.path.join(folder, name), encoding="utf-8") as handle:
                text = handle.read()
        else:  # a package not on disk (e.g. in a zip): importlib.resources reads it
            from importlib import resources

            text = resources.files("dunenb.data").joinpath(name).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RulesDataError("data/missing", f"rules data file {name!r} is not installed") from None
    return json.loads(text)


@lru_cache(maxsize=1)
def load_board() -> Board:
    """Load and validate the shipped board (cached: boards are immutable)."""
    return parse_board(read_data_file("board.json"))
