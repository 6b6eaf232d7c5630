"""Readable actions (issue 16 item 2): every action kind has a one-line description, used beside the notation."""

from __future__ import annotations

import dataclasses
import typing

import pytest

import dunenb.engine  # noqa: F401 - registers every rules module's action kinds
from dunenb import action_text
from dunenb.actions import ACTION_KINDS, Action
from dunenb.engine import apply_action, new_game
from dunenb.errors import IllegalActionError
from dunenb.iron_die.actions import ACTION_TYPES as IRON_DIE_TYPES
from dunenb.iron_die.actions import Declare, Keep, Roll
from dunenb.record import GameRecord
from dunenb.rules.alliances import Offer
from dunenb.rules.movement import Land, Move
from dunenb.rules.secrecy import HiddenAction

SAMPLE = {"house": "harkonnen", "receiver": "emperor", "opponent": "atreides", "target": "fremen",
          "winner": "atreides", "leader_house": "atreides", "leader": "duncan-idaho", "area": "arrakeen",
          "territory": "carthag", "storm": "main", "card": "karama", "weapon": "lasgun", "defense": "shield",
          "what": "spice", "item": "spice", "question": "holds", "subject": "poison", "mode": "plus2",
          "cards": "worthless"}


def _sample_value(name: str, annotation: typing.Any) -> typing.Any:
    if annotation is int:
        return 2
    if annotation is str:
        return SAMPLE.get(name, "bassin-imperial/6" if name == "card" else "x")
    args = typing.get_args(annotation)
    if name == "path":
        return (("pole-nord", 1), ("carthag", 4))
    if name == "placements":
        return (("sietch-tarb", 12, 5, 1),)
    return tuple(_sample_value(name, args[0]) for _ in range(1)) if args else ()


def _instance(cls: type[Action]) -> Action:
    hints = typing.get_type_hints(cls)
    return cls(**{f.name: _sample_value(f.name, hints[f.name]) for f in dataclasses.fields(cls)})


def test_every_action_kind_has_a_description():
    assert set(ACTION_KINDS) <= set(action_text.DESCRIBERS)
    assert not set(action_text.DESCRIBERS) - set(ACTION_KINDS), "descriptions for kinds that do not exist"


@pytest.mark.parametrize("kind", sorted(ACTION_KINDS))
def test_describing_an_instance_of_each_kind_never_fails(kind):
    action = _instance(ACTION_KINDS[kind])
    text = action.describe()
    assert text and text[0].isupper() and text != action.notation() and "\n" not in text
    assert action_text.label(action) == f"{action.notation()} — {text}"


def test_descriptions_read_as_sentences():
    assert Offer("harkonnen", "emperor", "spice", "spice", 1).describe() == "The Harkonnen offer the Emperor 1 spice"
    assert Land("guild", "arrakeen", 1, 4, 1).describe() == "The Guild lands 5 tokens (1 marked) in Arrakeen (sector 1)"
    move = Move("atreides", "arrakeen", 1, (("pole-nord", 1), ("carthag", 4)), 3)
    assert move.describe() == "The Atreides move 3 tokens from Arrakeen to Pôle Nord → Carthag"
    offer = Offer("bene-tleilax", "fremen", "token", "regular", 4, price=8, delay=1)
    assert offer.describe() == "The Bene Tleilax offer the Fremen 4 tokens, handed over in 1 turn, for 8 spice"


def test_a_hidden_action_names_who_acted_not_what():
    text = HiddenAction("traitor-pick", "harkonnen").describe()
    assert text == "The Harkonnen make a secret traitor-pick"


def test_iron_die_actions_are_described_too():
    assert set(IRON_DIE_TYPES) == {"first", "roll", "keep", "stand", "declare"}
    assert Keep((6, 4)).describe() == "Keep 6, 4 and reroll the others" and Keep(()).describe() == "Reroll every die"
    assert Roll((2, 6)).describe() == "The dice show 6, 2" and "faith" in Declare("faith").describe()
    for cls in IRON_DIE_TYPES.values():
        assert callable(cls.describe)


def test_an_illegal_action_error_says_the_action_in_words():
    state = new_game(["atreides", "harkonnen"], seed=1)
    with pytest.raises(IllegalActionError) as error:
        apply_action(state, Land("atreides", "arrakeen", 1, 3))
    assert "(The Atreides land 3 tokens in Arrakeen (sector 1))" in error.value.message


def test_replay_browser_menus_show_notation_and_description():
    from dunenb.play import advance
    from dunenb.widgets.replay_browser import ReplayBrowser

    record = GameRecord(new_game(["atreides", "harkonnen"], seed=2).config)
    advance(record, record.root, until="step", seed=2)
    browser = ReplayBrowser(record, seed=2)
    browser.to_start()
    labels = [label for label, _action in browser.alternatives.options]
    assert labels and all(" — " in label for label in labels)
    label, action = browser.alternatives.options[0]
    assert label.startswith(f"{action.notation()} — {action.describe()}")
