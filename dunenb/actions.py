"""Actions: frozen dataclasses, one per kind, with a dict/JSON form and a readable notation.

Chance outcomes are actions too (``is_chance``): a die roll, a dial shown "au hasard", a card drawn.

>>> action = ChooseStart(house="atreides", position=5)
>>> action.notation()
'start atreides 5'
>>> action.describe()
'The Atreides choose start position 5'
>>> parse_action("start atreides 5") == action
True
>>> action_from_dict(action.to_dict()) == action
True
>>> parse_action("spice 1 bassin-du-bouclier/6")
DrawSpiceCard(pile=1, card='bassin-du-bouclier/6')
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass
from typing import Any, ClassVar

from dunenb.errors import InputError, SaveFormatError

ACTION_KINDS: dict[str, type[Action]] = {}

#: A starting placement: (area, sector, regular tokens, marked tokens).
Placement = tuple[str, int, int, int]


@dataclass(frozen=True)
class Action:
    """Base of every action. Subclasses set ``kind`` and, for chance outcomes, ``is_chance``."""

    kind: ClassVar[str] = ""
    is_chance: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.kind:
            ACTION_KINDS[cls.kind] = cls

    @property
    def actor(self) -> str:
        """The House acting, or ``"chance"``."""
        return "chance" if self.is_chance else str(getattr(self, "house", ""))

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            data[f.name] = [list(v) for v in value] if isinstance(value, tuple) else value
        return data

    def notation(self) -> str:
        parts = [self.kind]
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, tuple):
                parts.append(",".join(":".join(str(x) for x in item) for item in value) or "-")
            else:
                parts.append("-" if value is None else str(value))
        return " ".join(parts)

    def describe(self) -> str:
        """One line in words ("The Harkonnen offer the Emperor 1 spice"), shown beside the notation (issue 16;
        the table of texts per kind is :data:`dunenb.action_text.DESCRIBERS`)."""
        from dunenb.action_text import describe

        return describe(self)

    def __str__(self) -> str:
        return self.notation()


# --- setup ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Roll3d10(Action):
    """SETUP-2: a House's 3d10 total (3..30); a re-roll among tied Houses (GAP-4a) uses the same kind."""

    kind: ClassVar[str] = "roll"
    is_chance: ClassVar[bool] = True
    house: str
    total: int


@dataclass(frozen=True)
class RollWormDice(Action):
    """SPICE-3 options: the extra worm cards rolled at setup (e.g. 18 + 2d10)."""

    kind: ClassVar[str] = "worm-dice"
    is_chance: ClassVar[bool] = True
    total: int


@dataclass(frozen=True)
class ChooseStart(Action):
    """SETUP-2: choose a start position 1..24, not next to the previous chooser's (GAP-4b)."""

    kind: ClassVar[str] = "start"
    house: str
    position: int


@dataclass(frozen=True)
class InitialStormDial(Action):
    """STORM-2 / STORM-12 with GAP-6: one of the two highest rollers shows 0..20 "au hasard"."""

    kind: ClassVar[str] = "storm-dial"
    is_chance: ClassVar[bool] = True
    storm: str
    house: str
    value: int


@dataclass(frozen=True)
class PlaceStartingForces(Action):
    """FREMEN-START: the Fremen split their 10 tokens over Sietch Tarb and at most 2 neighbours."""

    kind: ClassVar[str] = "place"
    house: str
    placements: tuple[Placement, ...]


# --- storm ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class DrawStormToken(Action):
    """FREMEN-P1 / GAP-7c: the Fremen draw next turn's move 1..7 for one storm (secret)."""

    kind: ClassVar[str] = "storm-token"
    is_chance: ClassVar[bool] = True
    storm: str
    value: int


@dataclass(frozen=True)
class DialStorm(Action):
    """GAP-7a: without the Fremen, each of two players dials 0..3; the sum (0..6) moves the storm."""

    kind: ClassVar[str] = "dial"
    storm: str
    house: str
    value: int


@dataclass(frozen=True)
class PlayWeatherControl(Action):
    """STORM-5, STORM-18, GAP-31, CARD-WEATHER-2: ``mode`` ``"plus1"`` or ``"plus2"`` adds 1 or 2 sectors ("up to
    2"); ``"stop"`` stops after ``sectors``."""

    kind: ClassVar[str] = "weather"
    house: str
    storm: str
    mode: str
    sectors: int = 0


@dataclass(frozen=True)
class Pass(Action):
    """Decline an optional decision (e.g. not playing weather control)."""

    kind: ClassVar[str] = "pass"
    house: str


# --- spice ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class DrawSpiceCard(Action):
    """SPICE-4: a card turned onto pile 1 or 2: ``territory/value`` or ``worm``."""

    kind: ClassVar[str] = "spice"
    is_chance: ClassVar[bool] = True
    pile: int
    card: str


def _convert(value: Any, annotation: Any, where: str) -> Any:
    origin = typing.get_origin(annotation)
    if annotation is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{where} must be an integer, not {value!r}")
        return value
    if annotation is str:
        if not isinstance(value, str):
            raise ValueError(f"{where} must be a string, not {value!r}")
        return value
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise ValueError(f"{where} must be a list, not {value!r}")
        args = typing.get_args(annotation)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert(v, args[0], f"{where}[{i}]") for i, v in enumerate(value))
        if len(value) != len(args):
            raise ValueError(f"{where} must have {len(args)} items, not {len(value)}")
        return tuple(_convert(v, a, f"{where}[{i}]") for i, (v, a) in enumerate(zip(value, args, strict=True)))
    raise ValueError(f"{where}: unsupported type {annotation!r}")


def action_from_dict(data: Any, *, where: str = "action") -> Action:
    """Build an action from its dict form; bad input raises :class:`SaveFormatError` naming the field."""
    if not isinstance(data, dict):
        raise SaveFormatError("action/type", f"{where} must be an object, not {type(data).__name__}")
    kind = data.get("kind")
    cls = ACTION_KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise SaveFormatError(
            "action/kind", f"{where}.kind {kind!r} is not one of {', '.join(sorted(ACTION_KINDS))}"
        )
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(fields) - {"kind"})
    if unknown:
        raise SaveFormatError("action/field", f"{where}: unknown field(s) {unknown} for {kind!r}; "
                              f"allowed: {sorted(fields)}")
    values = {}
    for name, f in fields.items():
        if name not in data:
            if f.default is not dataclasses.MISSING:
                continue
            raise SaveFormatError("action/field", f"{where}.{name} is missing (kind {kind!r})")
        try:
            values[name] = _convert(data[name], hints[name], f"{where}.{name}")
        except ValueError as error:
            raise SaveFormatError("action/field", str(error)) from None
    return cls(**values)


def parse_action(text: str) -> Action:
    """Parse the readable notation (``'dial main atreides 2'``); errors name the expected fields."""
    words = text.split()
    if not words or words[0] not in ACTION_KINDS:
        raise InputError("action/notation", f"{text!r}: the first word must be one of {sorted(ACTION_KINDS)}")
    cls = ACTION_KINDS[words[0]]
    hints = typing.get_type_hints(cls)
    fields = dataclasses.fields(cls)
    required = [f for f in fields if f.default is dataclasses.MISSING]
    if not len(required) <= len(words) - 1 <= len(fields):
        names = " ".join(f.name for f in fields)
        raise InputError("action/notation", f"{text!r}: expected '{cls.kind} {names}'")
    data: dict[str, Any] = {"kind": cls.kind}
    for f, word in zip(fields, words[1:], strict=False):
        annotation = hints[f.name]
        if annotation is int:
            try:
                data[f.name] = int(word)
            except ValueError:
                raise InputError("action/notation", f"{text!r}: {f.name} must be an integer") from None
        elif typing.get_origin(annotation) is tuple:
            items = [] if word == "-" else [part.split(":") for part in word.split(",")]
            item_types = typing.get_args(typing.get_args(annotation)[0])
            try:
                data[f.name] = [
                    [int(x) if t is int else x for x, t in zip(item, item_types, strict=True)] for item in items
                ]
            except ValueError:
                raise InputError("action/notation", f"{text!r}: bad {f.name} list") from None
        else:
            data[f.name] = word
    try:
        return action_from_dict(data)
    except SaveFormatError as error:
        raise InputError("action/notation", f"{text!r}: {error.message}") from None
