"""The rules data of Le Dé de Fer (``data/iron_die.json``): constants, hand names and design decisions.

Every point where the seed is silent is a *decision* with an id (``IRON-GAP-1`` ...), a text and
``"design"`` as source; the docstrings cite these ids and each one has a test.

>>> rules = load_rules()
>>> rules.power_to_win, rules.min_players, rules.decision("IRON-GAP-1").topic
(5, 2, 'beat')
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from dunenb.errors import RulesDataError
from dunenb.iron_die.dice import N_DICE, ROLLS_PER_TURN, SIDES
from dunenb.iron_die.hands import FRENCH_NAMES, HAND_NAMES
from dunenb.iron_die.options import FAITH_OPERATIONS, FAITH_TIEBREAKS
from dunenb.iron_die.results import CHALLENGES

#: The format tag of ``data/iron_die.json``.
RULES_FORMAT = "dunenb.iron-die-rules/1"


@dataclass(frozen=True)
class Decision:
    """A design decision taken where the seed is silent."""

    id: str
    topic: str
    text: str
    source: str


@dataclass(frozen=True)
class IronDieRules:
    """The validated rules data."""

    power_to_win: int
    min_players: int
    decisions: tuple[Decision, ...]
    #: GAP-59: the most players a game takes (the seed sets no maximum; this bounds the work of one game).
    max_players: int = 20

    def decision(self, decision_id: str) -> Decision:
        """The decision with this id (``KeyError`` when unknown)."""
        for decision in self.decisions:
            if decision.id == decision_id:
                return decision
        raise KeyError(decision_id)


def _require(condition: object, field: str, message: str) -> None:
    if not condition:
        raise RulesDataError("iron-die/rules-data", f"iron_die.json: {field}: {message}")


def parse_rules(data: Any) -> IronDieRules:
    """Validate the rules data and return it; raises :class:`RulesDataError` naming the field.

    >>> parse_rules({"format": "x"})
    Traceback (most recent call last):
    ...
    dunenb.errors.RulesDataError: [iron-die/rules-data] iron_die.json: format: expected \
'dunenb.iron-die-rules/1', got 'x'
    """
    _require(isinstance(data, dict), "(top level)", "expected a JSON object")
    _require(
        data.get("format") == RULES_FORMAT, "format", f"expected {RULES_FORMAT!r}, got {data.get('format')!r}"
    )
    for field, expected in (
        ("dice_per_player", N_DICE),
        ("sides", SIDES),
        ("rolls_per_turn", ROLLS_PER_TURN),
    ):
        _require(data.get(field) == expected, field, f"expected {expected} (the engine's constant)")
    power = data.get("power_to_win")
    _require(type(power) is int and power >= 1, "power_to_win", "expected a positive integer")
    players = data.get("min_players")
    _require(players == 2, "min_players", "expected 2")
    most = data.get("max_players")
    _require(type(most) is int and most >= players, "max_players", "expected an integer >= min_players (GAP-59)")
    challenges = data.get("challenges")
    _require(
        isinstance(challenges, list) and tuple(c.get("id") for c in challenges) == CHALLENGES,
        "challenges",
        f"expected the ids {', '.join(CHALLENGES)} in this order",
    )
    hands = data.get("hands")
    _require(
        isinstance(hands, list)
        and [(h.get("rank"), h.get("id"), h.get("fr")) for h in hands]
        == [(i, name, fr) for i, (name, fr) in enumerate(zip(HAND_NAMES, FRENCH_NAMES, strict=True))],
        "hands",
        f"expected ranks 0-7 with ids {', '.join(HAND_NAMES)}",
    )
    expected_options = [
        {"id": "faith_operations", "default": FAITH_OPERATIONS[0], "choices": list(FAITH_OPERATIONS)},
        {"id": "faith_tiebreak", "default": FAITH_TIEBREAKS[0], "choices": list(FAITH_TIEBREAKS)},
    ]
    options = data.get("table_options")
    _require(
        isinstance(options, list)
        and [{k: o.get(k) for k in ("id", "default", "choices")} for o in options] == expected_options,
        "table_options",
        "expected faith_operations (add-subtract, arithmetic) and faith_tiebreak (low, high), the engine's options",
    )
    raw = data.get("decisions")
    _require(isinstance(raw, list) and raw, "decisions", "expected a non-empty list")
    decisions = []
    for index, item in enumerate(raw):
        field = f"decisions[{index}]"
        _require(isinstance(item, dict), field, "expected an object with id, topic, text, source")
        _require(
            set(item) == {"id", "topic", "text", "source"}, field, "allowed keys: id, topic, text, source"
        )
        _require(item["id"] == f"IRON-GAP-{index + 1}", f"{field}.id", f"expected 'IRON-GAP-{index + 1}'")
        _require(item["source"] == "design", f"{field}.source", "expected 'design'")
        _require(
            isinstance(item["text"], str) and item["text"], f"{field}.text", "expected a non-empty string"
        )
        decisions.append(Decision(item["id"], item["topic"], item["text"], item["source"]))
    return IronDieRules(power, players, tuple(decisions), most)


@cache
def load_rules() -> IronDieRules:
    """Read and validate ``data/iron_die.json`` (shipped as ``dunenb.data``)."""
    text = resources.files("dunenb.data").joinpath("iron_die.json").read_text(encoding="utf-8")
    return parse_rules(json.loads(text))
