"""The battle-wheel picture (issue 12): no two texts overlap, no text over a slot or disc it does not belong to,
none leaves the picture — over every shipped battle case, the battles of the shipped saves, and variants."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from dunenb.battle.cards import BUILT_IN_WEAPONS, CARD_NAMES, DEFENCES, WEAPONS
from dunenb.battle.case import example_case_names, load_example_case, parse_case
from dunenb.battle.roster import load_roster
from dunenb.render.layout import MIN_TEXT_PX
from dunenb.render.wheel_slots import extra_slots
from dunenb.render.wheel_svg import HEIGHT, ExtraSlot, WheelPicture, picture_height, wheel_layout, wheel_svg
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


# ------------------------------------------------------------------- issue 11: the extra slots (leaders.md K-6..K-8)
BASE = WheelPicture("Emperor", "#cc6677", regular=20, elite=0, spice=0, value=10.0, most=20.0,
                    leader="Hasimir Fenring", leader_value=7, weapon=CARD_NAMES["projectile-distance"],
                    defence=CARD_NAMES["shield"], total_text="wheel + leader = 17", verdict="wins 47%")
WORN = extra_slots(next(leader for leader in load_roster().leaders if leader.id == "tyekanik"), "emperor")[0]


def _with(*extras: ExtraSlot, **fields: object) -> WheelPicture:
    return WheelPicture(**{**BASE.__dict__, **fields, "extras": extras})


def test_every_card_and_built_in_in_the_extra_slots_fits_its_place() -> None:
    """leaders.md K-6: each weapon card as an extra weapon, each defence card as an extra defence; K-7: each built-in
    beside the attack card; K-8: a worn shield, alone and under an extra defence (two rows); the longest leader."""
    variants = [_with(ExtraSlot("extra weapon", CARD_NAMES[card], 0)) for card in WEAPONS]
    variants += [_with(ExtraSlot("built-in weapon", CARD_NAMES[card], 0)) for card in BUILT_IN_WEAPONS]
    variants += [_with(ExtraSlot("extra defence", CARD_NAMES[card], 1), weapon=None) for card in DEFENCES]
    variants += [_with(ExtraSlot("extra defence", CARD_NAMES[card], 1), WORN, weapon=None) for card in DEFENCES]
    variants += [_with(ExtraSlot("built-in weapon", CARD_NAMES[card], 0), WORN) for card in BUILT_IN_WEAPONS]
    longest = max((leader.name for leader in load_roster().leaders), key=len)
    variants += [_with(ExtraSlot("extra weapon", CARD_NAMES["projectile-contact"], 0), WORN, leader=longest),
                 _with(WORN, leader=None, leader_value=None, weapon=None, defence=None)]
    for picture in variants:
        _assert_clean(picture)
        layout = wheel_layout(picture)
        assert layout.height == picture_height(picture) > HEIGHT
        svg = wheel_svg(picture)
        assert f'height="{layout.height:g}"' in svg
        for extra in picture.extras:  # labelled in words, the slot's full name as its tooltip
            assert f">{extra.label}<" in svg and f"<title>{extra.words}</title>" in svg
        assert not next(t for t in layout.texts if t.key == "total").text.endswith("…")


def test_extra_slots_go_under_their_column_in_rows() -> None:
    picture = _with(ExtraSlot("extra defence", CARD_NAMES["snooper"], 1), WORN)
    shapes = wheel_layout(picture).shapes
    assert shapes["extra 0"].cx == shapes["extra 1"].cx == shapes["Defence"].cx
    assert shapes["Defence"].cy < shapes["extra 0"].cy < shapes["extra 1"].cy
    assert picture_height(picture) == HEIGHT + 2 * (shapes["extra 0"].cy - shapes["Defence"].cy)
    assert picture_height(_with(ExtraSlot("extra weapon", "Lasgun (laser)", 0), WORN)) == \
        HEIGHT + shapes["extra 0"].cy - shapes["Defence"].cy


def test_a_wheel_without_extra_slots_is_the_picture_it_was() -> None:
    """No extra slot: the 330 × 368 picture, slots at their old place, no extra text."""
    layout = wheel_layout(BASE)
    assert layout.height == HEIGHT == 368 and set(layout.shapes) == {"leader disc", "Attack", "Defence"}
    assert 'width="330" height="368"' in wheel_svg(BASE) and "<title>" not in wheel_svg(BASE)
    assert next(t for t in layout.texts if t.key == "total").y == HEIGHT - 12


def _case(house: str, leader: str, fields: dict, foe_leader: object = None) -> dict:
    foe = "emperor" if house != "emperor" else "guild"
    return {"format": "dunenb.battle/1", "territory": "mesa-molle", "defender": foe,
            "sides": [{"house": house, "tokens": {"regular": 3}, "dial": {"regular": 1}, "leader": leader,
                       **fields},
                      {"house": foe, "tokens": {"regular": 3}, "dial": {"regular": 1},
                       "leader": foe_leader or {"name": "Foe", "strength": 5}, "defense": "snooper"}]}


@pytest.mark.parametrize(("house", "leader", "fields", "words"), [
    ("emperor", "emperor:hasimir", {"weapon": "poison-fast", "extra_attack": "lasgun"},
     ["extra weapon: Lasgun (laser)"]),  # EMPEROR-L01 d, K-6
    ("fremen", "fremen:alia", {"weapon": "lasgun", "extra_attack": "krys", "defense": "shield"},
     ["built-in weapon: Krys (contact projectile: built in, no card)"]),  # FREMEN-L07 b, K-7 extra
    ("bene-tleilax", "bene-tleilax:hwi-noree", {"defense": "shield", "extra_defense": "snooper"},
     ["extra defence: Snooper (goûte-poison)"]),  # TLEILAX-L09 c, K-6
    ("emperor", "emperor:tyekanik", {"defense": "snooper"},
     ["built-in shield: Shield (worn, no card: acts on d10 ≤ 7)"]),  # EMPEROR-L02 d, K-8
    ("bene-gesserit", "bene-gesserit:murbella", {"weapon": "karate"}, []),  # BG-L12 c, K-7 in_slot: the attack slot
    ("harkonnen", "harkonnen:yueh", {"weapon": "poison-slow-built-in", "b1_rolls": {"HARKONNEN-L10-c": 2}},
     []),  # HARKONNEN-L10-c: the built-in slow poison in the attack slot after its B1 roll (D-31)
])
def test_the_explorer_draws_the_extra_slots_of_its_case(house: str, leader: str, fields: dict,
                                                        words: list[str]) -> None:
    """The wheel explorer keeps a case's extra slots in its controls and draws them (issue 11)."""
    from dunenb.widgets.battle_wheel import BattleWheelExplorer

    explorer = BattleWheelExplorer(parse_case(_case(house, leader, fields)))
    assert explorer.message.value == ""
    for name, value in fields.items():
        if name == "b1_rolls":
            assert dict(explorer.case.sides[0].side.b1_rolls) == value
        else:
            assert getattr(explorer.case.sides[0].plan, name) == value
    picture = explorer._sides[0].picture
    assert picture is not None and [extra.words for extra in picture.extras] == words
    _assert_clean(picture)
    svg = explorer._sides[0].wheel.value
    assert all(f"<title>{text}</title>" in svg for text in words)
    assert explorer._sides[0].wheel.layout.height == f"{picture_height(picture) + 6:g}px"
    if fields.get("weapon") in BUILT_IN_WEAPONS:  # K-7 in_slot: drawn in the attack slot, named "built in"
        assert picture.weapon == CARD_NAMES[fields["weapon"]] and "built in" in picture.weapon
    explorer.set(house, leader=explorer.controls[0]["leader"].options[-1][1])  # another leader: the library says
    assert explorer.case.sides[0].plan.leader is not None or explorer.message.value


def test_the_replay_browser_draws_the_extra_slots_of_a_revealed_battle() -> None:
    """A game battle (EMPEROR-L01 d Hasimir's second attack card; EMPEROR-L02 d is not on the wheel, so no worn
    shield): the replay step after the reveal draws the extra weapon, and the explorer it opens keeps it."""
    from helpers_game import play_battle
    from test_leader_weapon_games import _position

    from dunenb.rules.battle_phase import SubmitPlan
    from dunenb.rules.game_battle_case import battle_case_of
    from dunenb.widgets.replay_browser import battle_pictures, revealed_battle

    state = _position(["emperor", "harkonnen"], [("emperor", "arsunt", 5, 4), ("harkonnen", "arsunt", 5, 4)],
                      {"emperor": ("poison-fast", "projectile-distance", "shield"), "harkonnen": ("snooper",)})
    plans = {"emperor": SubmitPlan("emperor", "hasimir", 1, 0, 0, weapon="poison-fast",
                                   extra_attack="projectile-distance"),
             "harkonnen": SubmitPlan("harkonnen", "piter", 1, 0, 0, defense="snooper")}
    state = play_battle(state, plans, until=lambda s: revealed_battle(s) is not None)
    detail = revealed_battle(state)
    assert detail is not None
    pictures = {picture.house: picture for picture in battle_pictures(state, detail)}
    assert [extra.words for extra in pictures["Emperor"].extras] == [
        "extra weapon: Distance projectile (projectile de distance)"]
    assert pictures["Harkonnen"].extras == ()
    for picture in pictures.values():
        _assert_clean(picture)
    case = battle_case_of(state, detail)
    assert case.sides[[side.house for side in case.sides].index("emperor")].plan.extra_attack == \
        "projectile-distance"


def test_the_replay_browser_case_of_a_battle_keeps_a_captive_and_passed_powers() -> None:
    """GAP-145, FAQ 19: the Harkonnen lead their captive Gurney (HARKONNEN-P4); the case the replay browser opens
    marks him ``captured``, so his own House may call treachery on him in the explorer as in the game. GAP-146:
    a power that passed for good (leaders.md K-24 D02-d, Logno's Weapon) is the case's ``passed``."""
    import dataclasses

    from helpers_game import held_by_harkonnen, play_battle
    from test_rules_battle_phase import position

    from dunenb.rules.battle_phase import SubmitPlan, begin_phase
    from dunenb.rules.game_battle_case import battle_case_of
    from dunenb.widgets.replay_browser import revealed_battle

    state = position(["atreides", "harkonnen"], [("atreides", "arsunt", 5, 3), ("harkonnen", "arsunt", 5, 3)],
                     begin=False)
    state = begin_phase(held_by_harkonnen(state, "atreides", "gurney"))
    plans = {"atreides": SubmitPlan("atreides", "duncan-idaho", 1, 0, 0),
             "harkonnen": SubmitPlan("harkonnen", "atreides:gurney", 1, 0, 0)}
    state = play_battle(state, plans, until=lambda s: revealed_battle(s) is not None)
    detail = revealed_battle(state)
    assert detail is not None
    sides = {side.house: side.side for side in battle_case_of(state, detail).sides}
    assert sides["harkonnen"].plan.leader is not None and sides["harkonnen"].plan.leader.key == "atreides:gurney"
    assert "gurney" in sides["atreides"].traitors  # FAQ 19: his own House may call treachery on him
    from dunenb.rules.game_battle_case import _held_facts

    passed = dataclasses.replace(state, powers_passed=(("DISPERSION-L02-c", "dispersion", "dama"),
                                                       ("DISPERSION-L02-c", "atreides", "")))
    assert _held_facts(passed, "dispersion", "logno") == {"passed": {"DISPERSION-L02-c": "dama"}}
    assert _held_facts(passed, "atreides", "duncan-idaho") == {"passed": {"DISPERSION-L02-c": None}}
    assert _held_facts(passed, "harkonnen", "atreides:gurney") == {"captured": True}
