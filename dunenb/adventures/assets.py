"""Zones and assets of a conflict (seed lines 297-344).

Zones are the places of a conflict (body parts in a duel, districts in a skirmish, people in an intrigue);
assets are the tools each side moves between zones and uses. Both are immutable values.

>>> zones = Zones.chain("gate", "courtyard", "hall")
>>> zones.adjacent("gate", "courtyard"), zones.adjacent("gate", "hall")
(True, False)
>>> knife = Asset("Crysknife", owner="Kara", zone="gate", quality=1)
>>> knife.moved_to("courtyard").zone
'courtyard'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from dunenb.adventures.validation import check_bool, check_choice, check_int
from dunenb.errors import InputError


@dataclass(frozen=True)
class Zones:
    """The zones of a conflict and which pairs are adjacent (a conflict may have a single zone, seed 314)."""

    names: tuple[str, ...]
    links: frozenset[frozenset[str]] = frozenset()

    def __post_init__(self) -> None:
        names = tuple(self.names)
        if not names or len(set(names)) != len(names):
            raise InputError("2d20/zones", "zones must be a non-empty list of distinct names")
        links = frozenset(frozenset(link) for link in self.links)
        for link in links:
            if len(link) != 2 or not link <= set(names):
                raise InputError("2d20/zones", f"each link joins two known zones; got {sorted(link)}")
        object.__setattr__(self, "names", names)
        object.__setattr__(self, "links", links)

    @classmethod
    def chain(cls, *names: str) -> Zones:
        """Zones in a line, each adjacent to the next."""
        return cls(tuple(names), frozenset(frozenset(pair) for pair in zip(names, names[1:], strict=False)))

    @classmethod
    def from_links(cls, names: Iterable[str], links: Iterable[tuple[str, str]]) -> Zones:
        """Zones with explicit adjacent pairs.

        >>> Zones.from_links(["a", "b", "c"], [("a", "c")]).neighbours("a")
        ('c',)
        """
        return cls(tuple(names), frozenset(frozenset(link) for link in links))

    def check(self, zone: str) -> str:
        """Return ``zone`` if it exists, else raise naming the allowed zones."""
        return check_choice("zone", zone, self.names)

    def adjacent(self, first: str, second: str) -> bool:
        """True when the two zones share a border."""
        return frozenset((self.check(first), self.check(second))) in self.links

    def neighbours(self, zone: str) -> tuple[str, ...]:
        """The zones adjacent to ``zone``, in declaration order."""
        return tuple(name for name in self.names if name != zone and self.adjacent(zone, name))


@dataclass(frozen=True)
class Asset:
    """A tangible or intangible asset (seed line 299).

    ``quality`` adds to extended-task progress (seed line 289); ``defensive`` assets add 1 to the difficulty
    of attacks in their zone (seed line 340) and by default cannot move; ``wielded`` assets are held by their
    owner, so targeting them is a contest (seed line 344); ``set_aside`` tangible assets cannot be used until
    recovered; ``temporary`` assets were created during the scene and vanish at its end (seed line 348).
    """

    name: str
    owner: str
    zone: str
    quality: int = 0
    tangible: bool = True
    defensive: bool = False
    mobile: bool | None = None
    wielded: bool = False
    set_aside: bool = False
    temporary: bool = False

    def __post_init__(self) -> None:
        for label, value in (
            ("asset name", self.name),
            ("asset owner", self.owner),
            ("asset zone", self.zone),
        ):
            if not isinstance(value, str) or not value:
                raise InputError("2d20/asset", f"{label} must be a non-empty string, got {value!r}")
        check_int("quality", self.quality, 0)
        for label in ("tangible", "defensive", "wielded", "set_aside", "temporary"):
            check_bool(label, getattr(self, label))
        if self.mobile is None:
            object.__setattr__(self, "mobile", not self.defensive)
        check_bool("mobile", self.mobile)

    @property
    def usable(self) -> bool:
        """An asset set aside cannot be used or moved."""
        return not self.set_aside

    def moved_to(self, zone: str) -> Asset:
        """A copy in another zone."""
        return replace(self, zone=zone)
