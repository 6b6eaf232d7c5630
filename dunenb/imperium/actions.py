"""Actions of the Dune: Imperium engine: frozen values with ``to_dict``/``from_dict`` and a notation.

Chance actions (every shuffle and draw is an action, so replay never re-draws, IMP-GAP-2):

* ``first 2`` (:class:`First`) - the seat drawn as first player;
* ``chance dagger`` (:class:`Chance`) - the card drawn at the pending chance node (a player's draw, an
  Imperium row refill, an intrigue, a stolen intrigue or the conflict card revealed).

Player actions, always by the player the pending decision belongs to:

* ``agent dagger rally_troops`` (:class:`Agent`) - play a card from the hand and send an agent;
* ``reveal`` (:class:`Reveal`) - the reveal turn;
* ``intrigue windfall`` (:class:`PlayIntrigue`) - a plot intrigue (own turn) or a combat intrigue;
* ``buy space_travel`` (:class:`Buy`) - acquire a card from the row or a reserve pile;
* ``pass`` (:class:`Pass`) - end the buying, or pass in the combat intrigue round;
* ``choose space`` (:class:`Choose`) - answer the pending question (resolution order, optional cost
  ``yes``/``no``, a faction, a card to trash ``hand:dagger``, an option index, a deployment count).

>>> parse_action("agent dagger rally_troops")
Agent(card='dagger', space='rally_troops')
>>> action_from_dict({"type": "choose", "value": "2"}).notation
'choose 2'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Union

from dunenb.errors import InputError, SaveFormatError


def _check_keys(data: dict[str, Any], allowed: tuple[str, ...], where: str) -> None:
    for key in allowed:
        if key not in data:
            raise SaveFormatError("save/action", f"{where}: missing field {key!r} (fields: {', '.join(allowed)})")
    extra = sorted(set(data) - set(allowed))
    if extra:
        raise SaveFormatError("save/action", f"{where}: unknown field {extra[0]!r} (allowed: {', '.join(allowed)})")


def _text(data: dict[str, Any], key: str, where: str) -> str:
    value = data[key]
    if not isinstance(value, str) or not value:
        raise SaveFormatError("save/action", f"{where}.{key}: expected a non-empty string, got {value!r}")
    return value


@dataclass(frozen=True)
class First:
    """Chance: the seat drawn as first player."""

    player: int
    kind: ClassVar[str] = "first"
    is_chance: ClassVar[bool] = True

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "player": self.player}

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str) -> First:
        _check_keys(data, ("type", "player"), where)
        if type(data["player"]) is not int or data["player"] < 0:
            raise SaveFormatError("save/action", f"{where}.player: expected a seat index (integer >= 0)")
        return cls(data["player"])

    @property
    def notation(self) -> str:
        return f"first {self.player}"


@dataclass(frozen=True)
class Chance:
    """Chance: the card drawn at the pending chance node."""

    card: str
    kind: ClassVar[str] = "chance"
    is_chance: ClassVar[bool] = True

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "card": self.card}

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str) -> Chance:
        _check_keys(data, ("type", "card"), where)
        return cls(_text(data, "card", where))

    @property
    def notation(self) -> str:
        return f"{self.kind} {self.card}"


@dataclass(frozen=True)
class PlayIntrigue:
    """Play an intrigue card (a plot in an own turn, a combat intrigue in the combat phase)."""

    card: str
    kind: ClassVar[str] = "intrigue"
    is_chance: ClassVar[bool] = False

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "card": self.card}

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str) -> PlayIntrigue:
        _check_keys(data, ("type", "card"), where)
        return cls(_text(data, "card", where))

    @property
    def notation(self) -> str:
        return f"{self.kind} {self.card}"


@dataclass(frozen=True)
class Buy:
    """Acquire a card from the Imperium row or a buyable reserve pile with persuasion."""

    card: str
    kind: ClassVar[str] = "buy"
    is_chance: ClassVar[bool] = False

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "card": self.card}

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str) -> Buy:
        _check_keys(data, ("type", "card"), where)
        return cls(_text(data, "card", where))

    @property
    def notation(self) -> str:
        return f"{self.kind} {self.card}"


@dataclass(frozen=True)
class Choose:
    """Answer the pending question with one of its allowed values."""

    value: str
    kind: ClassVar[str] = "choose"
    is_chance: ClassVar[bool] = False

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "value": self.value}

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str) -> Choose:
        _check_keys(data, ("type", "value"), where)
        return cls(_text(data, "value", where))

    @property
    def notation(self) -> str:
        return f"{self.kind} {self.value}"


@dataclass(frozen=True)
class Agent:
    """Play ``card`` from the hand and send an agent to ``space``."""

    card: str
    space: str
    kind: ClassVar[str] = "agent"
    is_chance: ClassVar[bool] = False

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "card": self.card, "space": self.space}

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str) -> Agent:
        _check_keys(data, ("type", "card", "space"), where)
        return cls(_text(data, "card", where), _text(data, "space", where))

    @property
    def notation(self) -> str:
        return f"agent {self.card} {self.space}"


@dataclass(frozen=True)
class Reveal:
    """The reveal turn: the hand is revealed, then cards are bought."""

    kind: ClassVar[str] = "reveal"
    is_chance: ClassVar[bool] = False

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind}

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str) -> Reveal:
        _check_keys(data, ("type",), where)
        return cls()

    @property
    def notation(self) -> str:
        return "reveal"


@dataclass(frozen=True)
class Pass:
    """End the buying step, or pass in the combat intrigue round."""

    kind: ClassVar[str] = "pass"
    is_chance: ClassVar[bool] = False

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind}

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str) -> Pass:
        _check_keys(data, ("type",), where)
        return cls()

    @property
    def notation(self) -> str:
        return "pass"


Action = Union[First, Chance, Agent, Reveal, PlayIntrigue, Buy, Pass, Choose]  # noqa: UP007 - a runtime alias
#: Action classes by their ``type`` tag.
ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls for cls in (First, Chance, Agent, Reveal, PlayIntrigue, Buy, Pass, Choose)
}


def action_from_dict(data: object, where: str = "action") -> Action:
    """Build an action from its dict; raises :class:`SaveFormatError` naming ``where`` and the allowed values.

    >>> action_from_dict({"type": "jump"}, "actions[3]")
    Traceback (most recent call last):
    ...
    dunenb.errors.SaveFormatError: [save/action] actions[3].type: 'jump' is not allowed \
(allowed: first, chance, agent, reveal, intrigue, buy, pass, choose)
    """
    if not isinstance(data, dict):
        raise SaveFormatError("save/action", f"{where}: expected an object with a 'type' field, got {data!r}")
    kind = data.get("type")
    if kind not in ACTION_TYPES:
        raise SaveFormatError(
            "save/action", f"{where}.type: {kind!r} is not allowed (allowed: {', '.join(ACTION_TYPES)})"
        )
    return ACTION_TYPES[kind].from_dict(data, where)


def parse_action(text: str) -> Action:
    """Parse the notation of the module docstring; raises :class:`InputError`.

    >>> parse_action("reveal"), parse_action("first 1"), parse_action("buy the_spice_must_flow")
    (Reveal(), First(player=1), Buy(card='the_spice_must_flow'))
    """
    words = str(text).split()
    verb, rest = (words[0].lower(), words[1:]) if words else ("", [])
    if verb in ("reveal", "pass") and not rest:
        return Reveal() if verb == "reveal" else Pass()
    if verb == "first" and len(rest) == 1 and rest[0].isascii() and rest[0].isdigit():
        return First(int(rest[0]))
    if verb == "agent" and len(rest) == 2:
        return Agent(rest[0], rest[1])
    one_card: dict[str, Callable[[str], Action]] = {"chance": Chance, "intrigue": PlayIntrigue, "buy": Buy,
                                                    "choose": Choose}
    if verb in one_card and len(rest) == 1:
        return one_card[verb](rest[0])
    raise InputError(
        "imperium/notation",
        f"action: {text!r} is not an action (allowed: 'first N', 'chance CARD', 'agent CARD SPACE', 'reveal', "
        "'intrigue CARD', 'buy CARD', 'pass', 'choose VALUE')",
    )
