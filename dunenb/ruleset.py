"""Rules data (Houses, spice deck, options) loaded and validated once; variant options live here.

>>> rules = load_ruleset()
>>> rules.house("atreides").spice, rules.house("harkonnen").free_cards
(10, 2)
>>> rules.territory_card_count(), rules.worm_base(has_fremen=False), rules.worm_base(has_fremen=True)
(27, 18, 36)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from dunenb.board import Board, load_board, read_data_file
from dunenb.errors import RulesDataError

HOUSE_IDS = (
    "atreides", "harkonnen", "fremen", "emperor", "guild", "dispersion", "bene-gesserit", "bene-tleilax",
)
WORM_CARD = "worm"


@dataclass(frozen=True)
class StartForce:
    area: str
    regular: int
    marked: int


@dataclass(frozen=True)
class HouseRules:
    """One House's starting conditions (houses.md, GAP-40) and display colour."""

    id: str
    name: str
    colour: str
    spice: int
    tokens: int
    marked: int
    marked_letter: str | None
    start_forces: tuple[StartForce, ...] | None  # None: the Fremen choose (FREMEN-START)
    harvesters: int
    free_cards: int
    main_leader: str
    rule: str


@dataclass(frozen=True)
class WormOption:
    name: str
    base: int | None  # None: 18, or 36 with the Fremen
    dice: int
    die: int


@dataclass(frozen=True)
class Ruleset:
    """Everything the engine reads from data: the board, the Houses, the spice deck and its options."""

    board: Board
    houses: tuple[HouseRules, ...]
    territory_cards: tuple[tuple[str, int], ...]
    worm_options: dict[str, WormOption]
    worm_standard: int
    worm_with_fremen: int
    fremen_home: str
    fremen_on_dune: int
    fremen_max_other_territories: int
    fremen_other_kinds: tuple[str, ...]

    def house(self, house_id: str) -> HouseRules:
        for house in self.houses:
            if house.id == house_id:
                return house
        raise RulesDataError("houses/unknown", f"unknown House {house_id!r}; known: {', '.join(HOUSE_IDS)}")

    def territory_card_count(self) -> int:
        return len(self.territory_cards)

    def worm_base(self, *, has_fremen: bool) -> int:
        """SPICE-3: 18 worm cards, 36 when the Fremen play (FREMEN-P5)."""
        return self.worm_with_fremen if has_fremen else self.worm_standard


def card_id(territory: str, value: int) -> str:
    """The id of a territory card, e.g. ``bassin-du-bouclier/6``; worms are ``worm``."""
    return f"{territory}/{value}"


def parse_card(card: str) -> tuple[str, int] | None:
    """``'bassin-imperial/6'`` → ``('bassin-imperial', 6)``; ``'worm'`` → ``None``."""
    if card == WORM_CARD:
        return None
    territory, _, value = card.rpartition("/")
    return territory, int(value)


def _parse_houses(raw: Any, board: Board) -> tuple[tuple[HouseRules, ...], dict[str, Any]]:
    houses = []
    for entry in raw["houses"]:
        forces_raw = entry["start_forces"]
        forces = None
        if forces_raw != "fremen-choice":
            forces = tuple(StartForce(f["area"], int(f["regular"]), int(f["marked"])) for f in forces_raw)
            for force in forces:
                board.area(force.area)
        house = HouseRules(
            id=entry["id"], name=entry["name"], colour=entry["colour"], spice=int(entry["spice"]),
            tokens=int(entry["tokens"]), marked=int(entry["marked"]), marked_letter=entry["marked_letter"],
            start_forces=forces, harvesters=int(entry["harvesters"]), free_cards=int(entry["free_cards"]),
            main_leader=entry["main_leader"], rule=entry["rule"],
        )
        on_dune = sum(f.regular + f.marked for f in forces) if forces else int(entry.get("fremen_on_dune", 0))
        if on_dune > house.tokens or house.marked > house.tokens:
            raise RulesDataError("houses/tokens", f"{house.id}: more tokens placed than owned")
        houses.append(house)
    if tuple(h.id for h in houses) != HOUSE_IDS:
        raise RulesDataError("houses/ids", f"houses.json must list exactly {HOUSE_IDS}")
    return tuple(houses), raw["fremen_placement"]


@lru_cache(maxsize=1)
def load_ruleset() -> Ruleset:
    """Load the shipped rules data and validate it against the board."""
    board = load_board()
    houses, fremen = _parse_houses(read_data_file("houses.json"), board)
    deck = read_data_file("spice_deck.json")
    cards: list[tuple[str, int]] = []
    for territory, values in deck["territory_cards"].items():
        if board.area(territory).kind != "desert":
            raise RulesDataError("spice-deck/territory", f"{territory} is not a spice desert")
        for value in values:
            if not 1 <= int(value) <= 12:
                raise RulesDataError("spice-deck/value", f"{territory}: value {value} outside 1..12 (SPICE-2)")
            cards.append((territory, int(value)))
    uncovered = {a.id for a in board.deserts()} - {t for t, _ in cards}
    if uncovered:
        raise RulesDataError("spice-deck/coverage", f"deserts without a card (GAP-15): {sorted(uncovered)}")
    worms = deck["worms"]
    options = {
        name: WormOption(name, None if o["base"] == "auto" else int(o["base"]), int(o["dice"]), int(o["die"]))
        for name, o in worms["options"].items()
    }
    return Ruleset(
        board=board, houses=houses, territory_cards=tuple(cards), worm_options=options,
        worm_standard=int(worms["standard"]), worm_with_fremen=int(worms["with_fremen"]),
        fremen_home=fremen["home"], fremen_on_dune=int(dict((h["id"], h) for h in read_data_file(
            "houses.json")["houses"])["fremen"]["fremen_on_dune"]),
        fremen_max_other_territories=int(fremen["max_other_territories"]),
        fremen_other_kinds=tuple(fremen["other_kinds"]),
    )
