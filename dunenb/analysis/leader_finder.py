"""Questions about the 96 secondary leaders, answered by the engine (issue 11 item 5, notebook 05).

Three views of ``data/leaders.json``, for a teacher who asks "who is strong in deserts?" or "who kills Paul?":

* :func:`power_rows`: every power of every leader, its ID, kind (K-n), plain words and whether this version plays
  it, with filters by House, kind and words;
* :func:`terrain_values`: each leader's wheel value in each terrain kind (LC-3), from the battle values the
  resolver itself uses (:func:`dunenb.battle.powers.battle_values`), so a power counts only where its condition
  really holds; :func:`strong_in` ranks the leaders a terrain favours;
* :func:`facing`: for one opposing leader (Paul, Vladimir, ...), the leaders whose powers change the fight against
  him: his own value, theirs, or a KILL (K-14) whose condition holds against him. :func:`kills` lists the KILL
  powers alone.

Nothing here reads the power texts to decide: conditions are evaluated with
:func:`dunenb.battle.leader_powers.holds` on a battle scene built for the question.

>>> [(row.leader, row.elsewhere, row.high) for row in strong_in("desert")][:3]
[('Stilgar', 7, 11), ('Bannerjée', 6, 9), ('Chani', 6, 9)]
>>> [(row.leader, row.kill) for row in kills("Vladimir")]
[('Alia', 'ATREIDES-L06-c'), ('Yueh', 'ATREIDES-L09-b')]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from dunenb.battle.leader_powers import Scene, holds
from dunenb.battle.powers import battle_values
from dunenb.battle.roster import Leader, Power, load_roster
from dunenb.board import load_board
from dunenb.errors import DuneError, InputError
from dunenb.powers.leader_effects import K_NUMBER, is_applied
from dunenb.reference_leaders import leader_power_text

#: The terrain kinds of the board (MAP-6), in the order the tables show them.
TERRAINS: tuple[str, ...] = ("desert", "mountain", "city", "sietch", "pole")
#: The opposing House of a scene where no ``vs X`` condition holds (no House has this id).
NO_HOUSE = ""
_HOUSE_WORDS = {"bene-gesserit": "BG", "bene-tleilax": "Tleilax"}


@dataclass(frozen=True)
class PowerRow:
    """One power of one secondary leader (``house``: the House's name in words, ``house_id`` its id)."""

    house_id: str
    house: str
    leader: str
    strength: int
    power: str
    kind: str  # e.g. "K-1 WHEEL_VALUE"
    words: str  # plain English, from the notation
    notation: str
    plays: bool  # this version applies it (dunenb.powers.leader_effects.is_applied)


@dataclass(frozen=True)
class TerrainValue:
    """A leader's wheel value in one terrain kind, against an opposing leader no condition names: ``low`` the
    lowest over the board's territories of that kind and both roles (LC-2); ``high`` the highest in the role
    (``role``) where the terrain helps him most, and ``elsewhere`` his highest value outside this terrain kind in
    that role (so a power that acts everywhere, e.g. ``attacker``, is no terrain gain)."""

    house_id: str
    house: str
    leader: str
    strength: int
    terrain: str
    low: int
    high: int
    elsewhere: int
    role: str
    powers: tuple[str, ...]  # the value powers (K-1..K-5, House value acts) that acted there

    @property
    def gain(self) -> int:
        """How much more he is worth here than anywhere else (in the role where that is largest)."""
        return self.high - self.elsewhere


@dataclass(frozen=True)
class Facing:
    """How a fight against ``target`` differs from one against an opposing leader no condition names."""

    house_id: str
    house: str
    leader: str
    strength: int
    own_change: int  # his wheel value against the target minus against anyone (largest change over the board)
    target_change: int  # the target's value against him minus against anyone
    kill: str | None  # a KILL (K-14) power whose condition holds against the target
    powers: tuple[str, ...]
    where: str  # the name of a territory where the change is largest, or "anywhere" when it is the same everywhere


def _secondary_leaders() -> tuple[Leader, ...]:
    return tuple(leader for leader in load_roster().leaders if not leader.main and leader.house)


def _house_word(house: str) -> str:
    return _HOUSE_WORDS.get(house, house.capitalize())


def _kind(power: Power) -> str:
    return f"{K_NUMBER.get(power.kind, '')} {power.kind}".strip()


def _house_or_all(house: str | None) -> str | None:
    if house is None or house in ("", "all"):
        return None
    houses = {leader.house for leader in load_roster().leaders if leader.house}
    if house not in houses:
        raise InputError("finder/unknown", f"unknown House {house!r}; allowed: {', '.join(sorted(houses))} or 'all'")
    return house


def power_rows(house: str | None = None, kind: str | None = None, words: str = "") -> tuple[PowerRow, ...]:
    """Every power of the secondary leaders, optionally of one ``house``, one ``kind`` (``"IMMUNITY"`` or
    ``"K-10"``) and containing ``words`` (in the plain text, the notation, the leader's name or the ID).

    >>> rows = power_rows("fremen", kind="K-1")
    >>> rows[0].leader, rows[0].power, rows[0].words
    ('Stilgar', 'FREMEN-L01-a', 'Stilgar is worth 11 on the battle wheel in a desert.')
    """
    house = _house_or_all(house)
    if kind:
        known = {name for name in K_NUMBER} | set(K_NUMBER.values())
        if kind not in known:
            raise InputError("finder/unknown", f"unknown kind {kind!r}; allowed: K-1..K-25 or {', '.join(K_NUMBER)}")
    needle = words.strip().lower()
    rows = []
    for leader in _secondary_leaders():
        if house and leader.house != house:
            continue
        for power in leader.powers:
            if kind and kind not in (power.kind, K_NUMBER.get(power.kind)):
                continue
            home = leader.house or ""
            row = PowerRow(home, _house_word(home), leader.name, leader.strength, power.id, _kind(power),
                           leader_power_text(leader.name, power.text), power.text, is_applied(power.effect))
            if needle and not any(needle in field.lower() for field in
                                  (row.words, row.notation, row.leader, row.power)):
                continue
            rows.append(row)
    return tuple(rows)


@cache
def _territories(terrain: str) -> tuple[str, ...]:
    if terrain not in TERRAINS:
        raise InputError("finder/unknown", f"unknown terrain {terrain!r}; allowed: {', '.join(TERRAINS)}")
    return tuple(area.id for area in load_board().areas if area.kind == terrain)


def _values(leader: Leader, opponent: Leader | None, opponent_house: str, territory: str,
            defender: int) -> tuple[int, int, tuple[str, ...], tuple[str, ...]]:
    sides = battle_values((leader.house or "", opponent_house), (leader, opponent), defender, territory=territory)
    return (int(sides[0].leader_value), int(sides[1].leader_value) if opponent else 0,
            tuple(sides[0].powers), tuple(sides[1].powers))


def terrain_values(house: str | None = None, terrains: Iterable[str] = TERRAINS) -> tuple[TerrainValue, ...]:
    """Each secondary leader's wheel value per terrain kind, from the resolver's own battle values.

    >>> stilgar = [row for row in terrain_values("fremen", ["desert", "city"]) if row.leader == "Stilgar"]
    >>> [(row.terrain, row.low, row.high, row.elsewhere, row.gain, row.powers) for row in stilgar]
    [('desert', 11, 11, 7, 4, ('FREMEN-L01-a', 'FREMEN-L01-b')), ('city', 7, 7, 11, -4, ('FREMEN-L01-b',))]
    """
    house = _house_or_all(house)
    rows = []
    for leader in _secondary_leaders():
        if house and leader.house != house:
            continue
        best = {(terrain, defender): max(_values(leader, None, NO_HOUSE, territory, defender)[0]
                                         for territory in _territories(terrain))
                for terrain in TERRAINS for defender in (0, 1)}
        for terrain in terrains:
            values: list[int] = []
            powers: dict[str, None] = {}
            for territory in _territories(terrain):
                for defender in (0, 1):
                    value, _, acted, _ = _values(leader, None, NO_HOUSE, territory, defender)
                    values.append(value)
                    powers.update(dict.fromkeys(acted))
            role = max((0, 1), key=lambda d: (best[terrain, d] - max(best[t, d] for t in TERRAINS if t != terrain),
                                              best[terrain, d]))  # the role the terrain helps most, then his best
            elsewhere = max(best[t, role] for t in TERRAINS if t != terrain)
            home = leader.house or ""
            rows.append(TerrainValue(home, _house_word(home), leader.name, leader.strength, terrain,
                                     min(values), best[terrain, role], elsewhere,
                                     "defender" if role == 0 else "attacker", tuple(powers)))
    return tuple(rows)


def strong_in(terrain: str) -> tuple[TerrainValue, ...]:
    """The leaders worth more in ``terrain`` than anywhere else, biggest gain first (then value).

    >>> [(row.house, row.leader, row.elsewhere, row.high, row.powers) for row in strong_in("mountain")]
    [('Guild', 'Esmar', 5, 10, ('GUILD-L10-a',))]
    """
    rows = [row for row in terrain_values(terrains=[terrain]) if row.gain > 0]
    return tuple(sorted(rows, key=lambda row: (-row.gain, -row.high, row.house, row.leader)))


def find_leader(name: str, house: str | None = None) -> Leader:
    """A leader by name or id; ``house`` picks the copy of a character who is in several Houses (§3)."""
    try:
        return load_roster().find(name, house=house)
    except DuneError as error:
        raise InputError("finder/unknown", f"unknown leader {name!r}: {error}") from None


def kills(target: str, house: str | None = None) -> tuple[Facing, ...]:
    """The leaders with a KILL (K-14) whose condition holds against ``target`` somewhere on the board."""
    return tuple(row for row in facing(target, house) if row.kill)


def facing(target: str, house: str | None = None) -> tuple[Facing, ...]:
    """The secondary leaders of the other Houses whose powers change a fight against ``target``.

    ``house`` picks the copy of a character in several Houses. For each of them, over every territory and both
    roles: his value against the target minus his value against an opposing leader no condition names (same
    Houses, same place), the same for the target's value, and the KILL powers whose condition holds against him
    (K-14: the target dies whatever his defences). Only leaders with some change are listed, largest first.

    >>> [(row.leader, row.own_change, row.target_change) for row in facing("Paul")][:3]
    [('Chani', -9, 0), ('Irulan', -4, 0), ('Hasimir', 0, -3)]
    """
    foe = find_leader(target, house)
    rows = []
    for leader in _secondary_leaders():
        if leader.house == foe.house:
            continue
        best: tuple[int, int, str, tuple[str, ...]] | None = None
        changes: set[tuple[int, int]] = set()
        kill = None
        for terrain in TERRAINS:
            for territory in _territories(terrain):
                for defender in (0, 1):
                    own, theirs, acted, foe_acted = _values(leader, foe, foe.house or "", territory, defender)
                    base_own, _, _, _ = _values(leader, None, foe.house or "", territory, defender)
                    alone = battle_values((foe.house or "", leader.house or ""), (foe, None), 1 - defender,
                                          territory=territory)[0].leader_value
                    change = (own - base_own, theirs - int(alone))
                    changes.add(change)
                    if best is None or abs(change[0]) + abs(change[1]) > abs(best[0]) + abs(best[1]):
                        best = (*change, territory, tuple(dict.fromkeys(acted + foe_acted)))
                    scene = Scene.of(territory, (leader.house or "", foe.house or ""), (leader, foe),
                                     defender=defender)
                    for power in leader.powers:
                        if kill is None and power.kind == "KILL" and power.effect is not None \
                                and holds(power.effect.when, scene, 0):
                            kill = power.id
        if best is None:
            continue
        if best[0] or best[1] or kill:
            powers = best[3] + ((kill,) if kill and kill not in best[3] else ())
            home = leader.house or ""
            where = "anywhere" if len(changes) == 1 else load_board().area(best[2]).name
            rows.append(Facing(home, _house_word(home), leader.name, leader.strength, best[0], best[1], kill,
                               powers, where))
    return tuple(sorted(rows, key=lambda row: (row.kill is None, -(abs(row.own_change) + abs(row.target_change)),
                                               row.house, row.leader)))

