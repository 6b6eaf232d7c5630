"""Actions of Le Dé de Fer: frozen values with ``to_dict``/``from_dict`` and a readable notation.

Chance actions (the dice and the draws are actions too, so replay never re-rolls):

* ``first 1`` (:class:`ChooseFirst`) - the random draw of the first player (a seat index);
* ``roll 6,6,4,4,2`` (:class:`Roll`) - the faces shown by the dice just (re)rolled.

Player actions (always by the player whose turn it is):

* ``keep 6,6,4,4`` (:class:`Keep`) - keep these dice and reroll the others (``keep none`` rerolls all);
* ``stand`` (:class:`Stand`) - a challenger stops rolling;
* ``declare faith`` (:class:`Declare`) - the first player stops rolling and names the challenge.

>>> parse_action("keep 4,6,6")
Keep(dice=(6, 6, 4))
>>> Keep((6, 6, 4)).to_dict()
{'type': 'keep', 'dice': [6, 6, 4]}
>>> action_from_dict({"type": "declare", "challenge": "faith"}).notation
'declare faith'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Union

from dunenb.errors import InputError, SaveFormatError
from dunenb.iron_die.dice import SIDES, is_valid_dice, normalise
from dunenb.iron_die.results import CHALLENGES


def _dice_field(values: object, where: str) -> tuple[int, ...]:
    if not isinstance(values, list) or not is_valid_dice(values) or len(values) > 5:
        raise SaveFormatError(
            "save/action", f"{where}: expected a list of at most 5 faces (integers 1-{SIDES}), got {values!r}"
        )
    return normalise(values)


def _check_keys(data: dict[str, Any], allowed: tuple[str, ...], where: str) -> None:
    for key in allowed:
        if key not in data:
            raise SaveFormatError(
                "save/action", f"{where}: missing field {key!r} (fields: {', '.join(allowed)})"
            )
    extra = sorted(set(data) - set(allowed))
    if extra:
        raise SaveFormatError(
            "save/action", f"{where}: unknown field {extra[0]!r} (allowed: {', '.join(allowed)})"
        )


def _faces(dice: tuple[int, ...]) -> str:
    return ",".join(map(str, dice)) if dice else "none"


@dataclass(frozen=True)
class ChooseFirst:
    """Chance: the seat index drawn as first player."""

    player: int
    kind: ClassVar[str] = "first"
    is_chance: ClassVar[bool] = True

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "player": self.player}

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str = "action") -> ChooseFirst:
        _check_keys(data, ("type", "player"), where)
        if type(data["player"]) is not int or data["player"] < 0:
            raise SaveFormatError("save/action", f"{where}.player: expected a seat index (integer >= 0)")
        return cls(data["player"])

    @property
    def notation(self) -> str:
        return f"first {self.player}"

    def describe(self) -> str:
        """The action in words (issue 16), beside :attr:`notation`."""
        return f"The draw makes seat {self.player} the first player"


@dataclass(frozen=True)
class Roll:
    """Chance: the faces of the dice just rolled (a multiset, stored high to low)."""

    dice: tuple[int, ...]
    kind: ClassVar[str] = "roll"
    is_chance: ClassVar[bool] = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "dice", normalise(self.dice))

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "dice": list(self.dice)}

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str = "action") -> Roll:
        _check_keys(data, ("type", "dice"), where)
        return cls(_dice_field(data["dice"], f"{where}.dice"))

    @property
    def notation(self) -> str:
        return f"roll {_faces(self.dice)}"

    def describe(self) -> str:
        """The action in words (issue 16), beside :attr:`notation`."""
        return f"The dice show {', '.join(map(str, self.dice)) or 'nothing'}"


@dataclass(frozen=True)
class Keep:
    """Keep these dice (0 to 4 of the player's dice) and reroll the others."""

    dice: tuple[int, ...]
    kind: ClassVar[str] = "keep"
    is_chance: ClassVar[bool] = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "dice", normalise(self.dice))

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "dice": list(self.dice)}

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str = "action") -> Keep:
        _check_keys(data, ("type", "dice"), where)
        return cls(_dice_field(data["dice"], f"{where}.dice"))

    @property
    def notation(self) -> str:
        return f"keep {_faces(self.dice)}"

    def describe(self) -> str:
        """The action in words (issue 16), beside :attr:`notation`."""
        if not self.dice:
            return "Reroll every die"
        return f"Keep {', '.join(map(str, self.dice))} and reroll the others"


@dataclass(frozen=True)
class Stand:
    """A challenger stops rolling; his dice are his result."""

    kind: ClassVar[str] = "stand"
    is_chance: ClassVar[bool] = False

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind}

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str = "action") -> Stand:
        _check_keys(data, ("type",), where)
        return cls()

    @property
    def notation(self) -> str:
        return "stand"

    def describe(self) -> str:
        """The action in words (issue 16), beside :attr:`notation`."""
        return "Stop rolling and stand on these dice"


@dataclass(frozen=True)
class Declare:
    """The first player stops rolling and names the challenge (military, faith or intrigue)."""

    challenge: str
    kind: ClassVar[str] = "declare"
    is_chance: ClassVar[bool] = False

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "challenge": self.challenge}

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str = "action") -> Declare:
        _check_keys(data, ("type", "challenge"), where)
        if data["challenge"] not in CHALLENGES:
            raise SaveFormatError(
                "save/action",
                f"{where}.challenge: {data['challenge']!r} is not allowed (allowed: {', '.join(CHALLENGES)})",
            )
        return cls(data["challenge"])

    @property
    def notation(self) -> str:
        return f"declare {self.challenge}"

    def describe(self) -> str:
        """The action in words (issue 16), beside :attr:`notation`."""
        return f"Stop rolling and name the {self.challenge} challenge"


Action = Union[ChooseFirst, Roll, Keep, Stand, Declare]  # noqa: UP007 - a runtime alias
#: Action classes by their ``type`` tag.
ACTION_TYPES: dict[str, type[Action]] = {cls.kind: cls for cls in (ChooseFirst, Roll, Keep, Stand, Declare)}


def action_from_dict(data: object, where: str = "action") -> Action:
    """Build an action from its dict; raises :class:`SaveFormatError` naming ``where`` and the allowed values.

    >>> action_from_dict({"type": "jump"}, "actions[3]")
    Traceback (most recent call last):
    ...
    dunenb.errors.SaveFormatError: [save/action] actions[3].type: 'jump' is not allowed \
(allowed: first, roll, keep, stand, declare)
    """
    if not isinstance(data, dict):
        raise SaveFormatError("save/action", f"{where}: expected an object with a 'type' field, got {data!r}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:  # e.g. {"type": []} is refused, not a crash
        raise SaveFormatError(
            "save/action", f"{where}.type: {kind!r} is not allowed (allowed: {', '.join(ACTION_TYPES)})"
        )
    return ACTION_TYPES[kind].from_dict(data, where)


def parse_action(text: str) -> Action:
    """Parse the readable notation (see the module docstring); raises :class:`InputError`.

    >>> parse_action("roll 6,5"), parse_action("keep none"), parse_action("stand"), parse_action("first 0")
    (Roll(dice=(6, 5)), Keep(dice=()), Stand(), ChooseFirst(player=0))
    """
    words = str(text).strip().split()
    verb = words[0].lower() if words else ""
    rest = " ".join(words[1:])
    try:
        if verb == "stand" and not rest:
            return Stand()
        if verb == "declare" and rest in CHALLENGES:
            return Declare(rest)
        if verb == "first" and rest.isascii() and rest.isdigit():
            return ChooseFirst(int(rest))
        if verb in ("roll", "keep"):
            faces = [] if rest == "none" else [int(p) for p in rest.split(",")]
            if is_valid_dice(faces) and len(faces) <= 5:
                return Roll(tuple(faces)) if verb == "roll" else Keep(tuple(faces))
    except ValueError:
        pass
    raise InputError(
        "iron-die/notation",
        f"action: {text!r} is not an action (allowed: 'first N', 'roll 6,5,...', 'keep 6,6' or 'keep none', "
        f"'stand', 'declare {'|'.join(CHALLENGES)}')",
    )
