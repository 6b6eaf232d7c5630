"""The battle-wheel picture (issue 12): no two texts overlap, no text over a slot or disc it does not belong to,
none leaves the picture — over every shipped battle case, the battles of the shipped saves, and variants."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from dunenb.battle.cards import CARD_NAMES, DEFENCES, WEAPONS
from dunenb.battle.case import example_case_names, load_example_case
from dunenb.battle.roster import load_roster
from dunenb.render.layout import MIN_TEXT_PX
from dunenb.render.wheel_svg import WheelPicture, wheel_layout, wheel_svg
from dunenb.saves import load_game

GAMES = sorted((Path(__file__).resolve().parent.parent / "data" / "games").glob("*.json"))


def _case_pictures(name: str) -> list[WheelPicture]:
    from dunenb.widgets.battle_wheel import BattleWheelExplorer

    explorer = BattleWheelExplorer(load_example_case(name))
    pictures = [side.picture for side in explorer._sides]
    assert all(picture is not None for picture in pictures)
    return [picture for picture in pictures if picture is not None]


@cache
def _game_pictures(path: Path) -> tuple[WheelPicture, ...]:
    from dunenb.widgets.replay_browser import battle_pictures, revealed_battle

    record = load_game(path)
    pictures: list[WheelPicture] = []
    for node in record.mainline():
        state = record.state_at(node)
        detail = revealed_battle(state)
        if detail is not None:
            pictures.extend(battle_pictures(state, detail))
    return tuple(pictures)


def _assert_clean(picture: WheelPicture) -> None:
    layout = wheel_layout(picture)
    assert layout.overlaps() == [], picture
    assert min(t.font_px for t in layout.texts) >= MIN_TEXT_PX


@pytest.mark.parametrize("name", example_case_names())
def test_wheels_of_every_shipped_battle_case_have_no_overlapping_texts(name: str) -> None:
    for picture in _case_pictures(name):
        _assert_clean(picture)


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_wheels_of_the_battles_of_the_shipped_saves_have_no_overlapping_texts(path: Path) -> None:
    pictures = _game_pictures(path)
    for picture in pictures:
        _assert_clean(picture)


def test_the_shipped_saves_hold_battles_to_draw() -> None:
    assert sum(len(_game_pictures(path)) for path in GAMES) >= 4


def test_every_card_leader_and_long_dial_fits_its_place() -> None:
    """Variants: each card in each slot, every leader of the roster, the longest dials in words."""
    base = WheelPicture("Bene Gesserit", "#882255", regular=20, elite=0, spice=0, value=10.0, most=20.0,
                        leader="Duncan Idaho", leader_value=2, weapon=None, defence=None,
                        total_text="wheel + leader = 12.5", verdict="wins 47%")
    variants = [base]
    for weapon in WEAPONS:
        for defence in DEFENCES:
            variants.append(WheelPicture(**{**base.__dict__, "weapon": CARD_NAMES[weapon],
                                            "defence": CARD_NAMES[defence]}))
    for leader in load_roster().leaders:
        variants.append(WheelPicture(**{**base.__dict__, "leader": leader.name, "leader_value": leader.strength}))
    for regular, elite, spice in ((7, 6, 9), (13, 7, 20), (0, 0, 0), (1, 1, 1), (3, 12, 2)):
        value = regular / 2 + elite + spice  # an upper bound is enough here: the picture only shows it
        variants.append(WheelPicture(**{**base.__dict__, "regular": regular, "elite": elite, "spice": spice,
                                        "value": float(value), "most": float(value) + 3}))
    variants.append(WheelPicture(**{**base.__dict__, "leader": None, "leader_value": None}))
    for most in (1.0, 4.0, 8.0, 12.0, 16.0, 24.0, 40.0, 60.0):  # the dial's ticks under the House name
        variants.append(WheelPicture(**{**base.__dict__, "most": most, "value": most / 2}))
    for picture in variants:
        _assert_clean(picture)
        assert wheel_svg(picture).startswith("<svg")
        total = next(t for t in wheel_layout(picture).texts if t.key == "total")
        assert not total.text.endswith("…"), total.text  # the total and the verdict are read whole


def test_the_wheel_check_finds_an_overlap() -> None:
    """The check itself: a text forced over its neighbour is reported."""
    from dataclasses import replace

    layout = wheel_layout(WheelPicture("Atreides", "#117733", 6, 0, 2, 4.0, 7.5, "Duncan Idaho", 2,
                                       "Crysknife", None, "total 6", "wins"))
    value = next(t for t in layout.texts if t.key == "value")
    layout.texts.append(replace(value, key="intruder"))
    assert ("value", "intruder") in layout.overlaps()
