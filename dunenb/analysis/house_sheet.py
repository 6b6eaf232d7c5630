"""A House's sheet and one scene per implemented power, with and without it (issue 10 item 8, notebook 05).

The sheet is read from the data (``data/houses.json``: the start; ``data/powers.json``: the House and main-leader
powers, their status and the Karama uses that block them; the leader roster; the rules reference texts).

A **scene** is a step of a shipped game where the power changed what happened. "Without the power" is the same
step played from the same position with the power blocked as a Karama blocks it (a suppression in
``GameState.suppressions``, read by :func:`dunenb.powers.holder`), so the scene needs no rule of its own: the
engine plays both. GAP-72 (design): the blocked state keeps the suppression for the rest of the game (scope
``"game"``); the scene is the first step of the shipped saves, in file order, whose result differs, skipping
steps after which either line waits in a Karama window (blocking the power also removes that window).

>>> sheet = house_sheet("guild")
>>> sheet.name, sheet.main_leader, [p.id for p in sheet.powers][:2]
('Guild', 'Grand Navigateur', ['GUILD-P1', 'GUILD-P2'])
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from dunenb.actions import Action
from dunenb.battle.colours import house_colour
from dunenb.battle.roster import load_roster
from dunenb.board import load_board
from dunenb.engine import apply_action
from dunenb.errors import DuneError
from dunenb.powers.registry import PowerSpec, load_powers
from dunenb.record import GameRecord
from dunenb.rules_reference import lookup
from dunenb.ruleset import load_ruleset
from dunenb.state import GameState, Suppression

GAMES = Path(str(resources.files("dunenb.data").joinpath("games")))  # the shipped saves (data/games)
#: GAP-72: the Karama id a scene's suppression names when the power has no Karama use of its own.
SCENE_KARAMA = "GAP-72"


@dataclass(frozen=True)
class KaramaRow:
    """A Karama use that blocks one power (houses.md cross-reference, ``data/powers.json``)."""

    karama: str
    power: str
    moment: str
    lasts: str
    status: str


@dataclass(frozen=True)
class PowerRow:
    """One House or main-leader power: what the rules say and whether this version plays it."""

    id: str
    name: str
    kind: str  # "House" or "main leader" (houses.md G-7: a main-leader power acts while he lives)
    status: str
    rule: str
    karama: tuple[KaramaRow, ...]


@dataclass(frozen=True)
class LeaderRow:
    name: str
    strength: int
    main: bool


@dataclass(frozen=True)
class HouseSheet:
    """The sheet of one House: start, powers, leaders and the Karama uses against its powers."""

    house: str
    name: str
    colour: str
    spice: int
    tokens: int
    marked: int
    start: tuple[str, ...]  # the start forces in words ("10 in Arrakeen")
    harvesters: int
    free_cards: int
    main_leader: str
    powers: tuple[PowerRow, ...]
    leaders: tuple[LeaderRow, ...]

    @property
    def implemented(self) -> tuple[PowerRow, ...]:
        return tuple(p for p in self.powers if p.status == "implemented")


@cache
def _houses_data() -> dict[str, dict[str, Any]]:
    raw = json.loads(resources.files("dunenb.data").joinpath("houses.json").read_text(encoding="utf-8"))
    return {entry["id"]: entry for entry in raw["houses"]}


def _rule_text(power_id: str) -> str:
    try:
        return lookup(power_id).text
    except DuneError:
        return ""


def _power_row(spec: PowerSpec) -> PowerRow:
    karama = tuple(KaramaRow(use.id, spec.id, use.moment, use.lasts, use.status) for use in spec.karama)
    kind = "main leader" if spec.is_main_leader_power else "House"
    return PowerRow(spec.id, spec.name, kind, spec.status, _rule_text(spec.id), karama)


def house_sheet(house: str) -> HouseSheet:
    """The sheet of ``house`` (an id of ``data/houses.json``); an unknown id raises the ruleset's error."""
    info = load_ruleset().house(house)
    data = _houses_data()[house]
    board = load_board()
    forces = data.get("start_forces", ())
    if isinstance(forces, str):  # FREMEN-START: the House places its tokens itself
        placement = json.loads(resources.files("dunenb.data").joinpath("houses.json").read_text(
            encoding="utf-8")).get(f"{house}_placement", {})
        start: tuple[str, ...] = (placement.get("note", forces),)
    else:
        start = tuple(f"{f['regular'] + f.get('marked', 0)} in {board.area(f['area']).name}" for f in forces)
    leaders = [leader for leader in load_roster().leaders if leader.house == house]
    main_id = data.get("main_leader")
    main = next((leader.name for leader in leaders if leader.id == main_id), main_id or "")
    powers = tuple(_power_row(spec) for spec in load_powers().values() if spec.holder == house)
    return HouseSheet(
        house=house, name=info.name, colour=house_colour(house), spice=data.get("spice", 0),
        tokens=data.get("tokens", 0), marked=data.get("marked", 0), start=start or ("none on the map",),
        harvesters=data.get("harvesters", 0), free_cards=data.get("free_cards", 0), main_leader=main,
        powers=powers,
        leaders=tuple(LeaderRow(leader.name, leader.strength, leader.id == main_id)
                      for leader in sorted(leaders, key=lambda leader: (-leader.strength, leader.name))))


def house_ids() -> tuple[str, ...]:
    return tuple(h.id for h in load_ruleset().houses)


# ------------------------------------------------------------------------------------------------------ scenes
@dataclass(frozen=True)
class PowerScene:
    """A step where ``power`` mattered: the position before, the action, and the two results."""

    power: str
    game: str
    turn: int
    phase: str
    action: Action
    before: GameState
    with_power: GameState
    without_power: GameState | None  # None: the action is not allowed without the power
    refused: str  # the engine's message when it is not
    differences: tuple[str, ...]


def blocked(state: GameState, power_id: str) -> GameState:
    """``state`` with ``power_id`` blocked for the rest of the game, as a Karama would (GAP-72)."""
    spec = load_powers()[power_id]
    karama = spec.karama[0].id if spec.karama else SCENE_KARAMA
    entry = Suppression(power=power_id, karama=karama, by=spec.holder, scope="game", turn=state.turn)
    return dataclasses.replace(state, suppressions=state.suppressions + (entry,))


def _plain(state: GameState) -> GameState:
    return dataclasses.replace(state, suppressions=())


def differences(with_power: GameState, without: GameState) -> tuple[str, ...]:
    """What the power changed, in words: spice, tokens by territory, tanks, cards in hand, the next decision."""
    ruleset, board = load_ruleset(), load_board()
    out = []
    for house in with_power.config.houses:
        a, b = with_power.houses[house], without.houses[house]
        name = ruleset.house(house).name
        if a.spice != b.spice:
            out.append(f"{name} spice: {a.spice} with, {b.spice} without")
        if len(a.hand) != len(b.hand):
            out.append(f"{name} cards in hand: {len(a.hand)} with, {len(b.hand)} without")
        if a.leader_tanks != b.leader_tanks:
            out.append(f"{name} leaders in the tanks: {len(a.leader_tanks)} with, {len(b.leader_tanks)} without")
        if len(a.traitors) != len(b.traitors):
            out.append(f"{name} traitors held: {len(a.traitors)} with, {len(b.traitors)} without")
        if a.tanks.total != b.tanks.total:
            out.append(f"{name} tokens in the tanks: {a.tanks.total} with, {b.tanks.total} without")
    areas: dict[tuple[str, str], list[int]] = {}
    for index, state in enumerate((with_power, without)):
        for (house, area, _sector), tokens in state.forces.items():
            areas.setdefault((house, area), [0, 0])[index] += tokens.total
    for (house, area), (a_count, b_count) in sorted(areas.items()):
        if a_count != b_count:
            out.append(f"{ruleset.house(house).name} tokens in {board.area(area).name}: {a_count} with, "
                       f"{b_count} without")
    if (with_power.storm_main, with_power.storm_secondary) != (without.storm_main, without.storm_secondary):
        out.append(f"storm in sector {with_power.storm_main} with, {without.storm_main} without")

    def waiting(state: GameState) -> str:
        return "game over" if state.pending is None else f"{state.pending.kind} by {state.pending.actor}"

    if waiting(with_power) != waiting(without):
        out.append(f"next: {waiting(with_power)} with, {waiting(without)} without")
    return tuple(out)


def _in_karama_window(state: GameState) -> bool:
    return state.pending is not None and state.pending.kind.startswith("karama")


@cache
def _record(path: Path) -> GameRecord:
    from dunenb.saves import load_game

    return load_game(path)


def shipped_games() -> tuple[Path, ...]:
    return tuple(sorted(GAMES.glob("*.json")))


@cache
def find_scene(power_id: str, games: tuple[Path, ...] | None = None) -> PowerScene | None:
    """The first step of the shipped saves (file order, then move order) whose result changes when the power is
    blocked (GAP-72), or ``None`` when no step of those games shows it."""
    holder = load_powers()[power_id].holder
    for path in games if games is not None else shipped_games():
        record = _record(path)
        if holder not in record.config.houses:
            continue
        line = record.mainline()
        for parent, child in zip(line, line[1:], strict=False):
            action = record.node(child).action
            if action is None:
                continue
            before, after = record.state_at(parent), record.state_at(child)
            try:
                without = apply_action(blocked(before, power_id), action)
            except DuneError as error:
                return PowerScene(power_id, path.stem, before.turn, before.phase, action, before, after, None,
                                  error.message, ("not allowed without the power",))
            if _in_karama_window(after) or _in_karama_window(without):
                continue  # blocking a power also removes the Karama window against it: not a fair comparison
            if _plain(without) != _plain(after):
                found = differences(after, without)
                if found:
                    return PowerScene(power_id, path.stem, before.turn, before.phase, action, before, after,
                                      _plain(without), "", found)
    return None


def scenes(house: str, games: Sequence[Path] | None = None) -> dict[str, PowerScene | None]:
    """One scene per implemented power of ``house`` (``None`` where the shipped games never show it)."""
    chosen = tuple(games) if games is not None else None
    return {p.id: find_scene(p.id, chosen) for p in house_sheet(house).implemented}
