"""The 2d20 widgets, built headlessly: controls set from code must redraw the charts with the library's odds."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from dunenb.adventures import Character, odds
from dunenb.adventures.assets import Asset, Zones
from dunenb.adventures.conflict import Combatant, Conflict
from dunenb.adventures.rules import DRIVES, SKILLS, rule
from dunenb.errors import InputError
from dunenb.widgets.adventures_conflict import conflict_step
from dunenb.widgets.adventures_odds import SkillTestExplorer


def _check_charts(explorer: SkillTestExplorer, skill: int, drive: int, focus: bool, extra: int, compl: int,
                  difficulty: int) -> None:
    expected = odds(skill, drive, focus, extra, compl)
    successes = expected.successes()
    assert list(explorer.success_bars.x) == [str(s) for s in successes.index]
    assert np.allclose(explorer.success_bars.y, successes.to_numpy())
    assert np.allclose(explorer.pass_line.y, expected.p_success_table().to_numpy())
    assert list(explorer.chosen.x) == [difficulty]
    assert explorer.chosen.y[0] == pytest.approx(expected.p_success(difficulty))
    assert f"{2 + extra}d20 against {skill + drive}" in explorer.summary.value
    assert f"{expected.p_success(difficulty):.1%}" in explorer.summary.value


def test_default_explorer_draws_natalias_test() -> None:
    explorer = SkillTestExplorer()
    _check_charts(explorer, 7, 7, False, 0, 1, 2)
    assert "P(pass) = 52.0%" in explorer.summary.value
    for figure in (explorer.success_figure, explorer.pass_figure):
        assert figure.title and all(axis.label for axis in figure.axes)


def test_controls_set_from_code_redraw_the_charts() -> None:
    explorer = SkillTestExplorer()
    before = list(explorer.success_bars.y)
    explorer.controls["extra_dice"].value = 3
    explorer.controls["focus"].value = True
    _check_charts(explorer, 7, 7, True, 3, 1, 2)
    assert list(explorer.success_bars.y) != before
    assert len(explorer.success_bars.x) > len(before)  # 5 dice, each worth up to 2 successes
    explorer.set(skill=4, drive=5, difficulty=4, complication_range=3)
    _check_charts(explorer, 4, 5, True, 3, 3, 4)
    table = explorer.summary_table().data
    assert table.loc[0, "dice"] == "5d20"
    assert table.loc[0, "P(at least one complication)"] == pytest.approx(odds(4, 5, True, 3, 3).p_complication())


def test_slider_bounds_come_from_the_rules() -> None:
    controls = SkillTestExplorer().controls
    assert (controls["skill"].min, controls["skill"].max) == (rule("skill_min"), rule("skill_max"))
    assert (controls["drive"].min, controls["drive"].max) == (rule("drive_min"), rule("drive_max"))
    assert controls["extra_dice"].max == rule("max_extra_dice")
    assert controls["difficulty"].max == rule("difficulty_max")
    assert controls["complication_range"].max == rule("complication_range_max")


def _conflict() -> Conflict:
    kara = Character.create("Kara", dict.fromkeys(SKILLS, 6), dict.fromkeys(DRIVES, 6), focuses=["Short blades"])
    trooper = Character.create("Trooper", dict.fromkeys(SKILLS, 5), dict.fromkeys(DRIVES, 5))
    return Conflict.start(Zones.chain("dunes", "rocks"),
                          [Combatant(kara, "players", "rocks", "player"), Combatant(trooper, "gm", "rocks", "minor")],
                          [Asset("Crysknife", "Kara", "rocks", quality=1, wielded=True)])


def test_conflict_step_shows_the_states_own_tables() -> None:
    state = _conflict()
    step = conflict_step(state, "combatants", "assets", "pools", "traits", title="Start")
    frames = step.frames()
    assert list(frames) == ["combatants", "assets", "pools", "traits"]
    assert frames["pools"].equals(state.pools_frame())
    assert frames["combatants"].equals(state.combatants_frame())
    html = step._repr_html_()
    for caption in ("Combatants", "Assets", "Pools"):
        assert f"<caption>{caption}</caption>" in html
    assert "<h4" in html and "Start" in html
    assert "<b>Traits</b><br><i>(none)</i>" in html  # no traits yet

    later = replace(state, traits=(("Blinding sandstorm", False),))
    assert conflict_step(later, "traits").frames()["traits"].to_dict("records") == [
        {"trait": "Blinding sandstorm", "permanent": False}]
    assert list(conflict_step(later).frames()) == ["action", "pools"]


def test_conflict_step_rejects_an_unknown_table() -> None:
    with pytest.raises(InputError, match="'dice' is not one of action, pools"):
        conflict_step(_conflict(), "dice")


def test_seed_lines_222_352_explorer_offers_helpers_and_the_automatic_one() -> None:
    from dunenb.adventures import odds
    from dunenb.adventures.skill_test import Assist

    explorer = SkillTestExplorer(skill=6, drive=6, difficulty=3)
    explorer.set(helpers=2, helper_skill=5, helper_drive=7, auto_one=True)
    expected = odds(6, 6, auto_one=True, helpers=(Assist(5, 7), Assist(5, 7)))
    assert explorer.result is expected
    assert float(explorer.chosen.y[0]) == expected.p_success(3)
