"""Rules data, characters, dice scoring and skill tests of the 2d20 system (seed lines cited in each name)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from dunenb.adventures.characters import Character
from dunenb.adventures.dice import complication_faces, roll_d20, score_die
from dunenb.adventures.rules import DRIVES, SKILLS, rule, rules_table, source
from dunenb.adventures.skill_test import Assist, SkillTest, reroll_pool, resolve_test, roll_test
from dunenb.errors import InputError

SEED = Path("/work/shared/seeds/002_96120de131b295ac.txt")


def make(name: str = "Kara", skill: int = 6, drive: int = 6, **kw) -> Character:
    return Character.create(name, dict.fromkeys(SKILLS, skill), dict.fromkeys(DRIVES, drive), **kw)


# -- rules data ------------------------------------------------------------------------------------
def test_every_rule_has_a_value_and_a_seed_or_design_source():
    for key, entry in rules_table().items():
        assert set(entry) == {"value", "source"}, key
        assert entry["source"].startswith(("seed", "design: published 2d20 rules", "design (2D20-GAP-")), key


def test_design_choices_name_the_core_book():
    design = [k for k, e in rules_table().items() if e["source"].startswith("design:")]
    assert {
        "extra_dice_costs",
        "max_dice",
        "complication_range_max",
        "determination_max",
        "determination_uses",
    } <= set(design)
    for key in design:
        assert "Dune: Adventures in the Imperium core book" in source(key)


@pytest.mark.skipif(not SEED.exists(), reason="seed text not available")
def test_cited_seed_lines_exist_in_the_seed():
    lines = SEED.read_text(encoding="utf-8").splitlines()
    for key in rules_table():
        for first, last in re.findall(r"seed lines? (\d+)(?:-(\d+))?", source(key)):
            for number in (int(first), int(last or first)):
                assert number <= len(lines) and lines[number - 1].strip(), (key, number)


def test_seed_numbers_momentum_6_threat_2_determination_1():
    assert rule("momentum_pool_max") == 6 and source("momentum_pool_max") == "seed line 206"
    assert rule("threat_start") == 2 and source("threat_start").startswith("seed line 240")
    assert rule("determination_start") == 1 and source("determination_start") == "seed line 220"


def test_design_extra_dice_costs_are_1_2_3():
    assert rule("extra_dice_costs") == (1, 2, 3)
    assert rule("max_extra_dice") == 3 and rule("max_dice") == 5


# -- characters (seed lines 47-57, 157) ------------------------------------------------------------
def test_seed_lines_47_and_161_five_skills_and_five_drives():
    assert SKILLS == ("battle", "communicate", "discipline", "move", "understand")
    assert DRIVES == ("duty", "faith", "justice", "power", "truth")


@pytest.mark.parametrize("value", [4, 8])
def test_seed_lines_55_157_ratings_4_to_8_accepted(value):
    assert make(skill=value, drive=value).skill("battle") == value


@pytest.mark.parametrize("bad", [3, 9, 5.0, True, "6"])
def test_seed_line_55_skill_out_of_range_names_field_and_range(bad):
    skills = {**dict.fromkeys(SKILLS, 5), "move": bad}
    with pytest.raises(InputError) as info:
        Character.create("X", skills, dict.fromkeys(DRIVES, 5))
    assert "skill move" in info.value.message and "from 4 to 8" in info.value.message


def test_seed_line_157_drive_out_of_range_names_field_and_range():
    with pytest.raises(InputError) as info:
        Character.create("X", dict.fromkeys(SKILLS, 5), {**dict.fromkeys(DRIVES, 5), "truth": 2})
    assert info.value.code == "2d20/drive-truth" and "from 4 to 8" in info.value.message


def test_unknown_or_missing_skill_lists_the_allowed_names():
    with pytest.raises(InputError, match="allowed skills are battle, communicate"):
        Character.create("X", {**dict.fromkeys(SKILLS, 5), "piloting": 5}, dict.fromkeys(DRIVES, 5))
    with pytest.raises(InputError, match="missing skill 'battle'"):
        Character.create("X", dict.fromkeys(SKILLS[1:], 5), dict.fromkeys(DRIVES, 5))
    with pytest.raises(InputError, match="drive must be one of duty, faith"):
        make().drive("honour")


def test_seed_line_180_target_number_is_skill_plus_drive():
    natalia = Character.create(
        "Natalia", {**dict.fromkeys(SKILLS, 5), "understand": 7}, {**dict.fromkeys(DRIVES, 5), "faith": 7}
    )
    assert natalia.target_number("understand", "faith") == 14  # seed line 182


def test_focuses_and_traits_are_immutable_tuples():
    kara = make(focuses=["Duel", "Kanly"], traits=["Fedaykin"])
    assert kara.has_focus("duel") and not kara.has_focus("Poison") and not kara.has_focus(None)
    assert kara.with_traits("Wounded").traits == ("Fedaykin", "Wounded") and kara.traits == ("Fedaykin",)
    with pytest.raises(TypeError):
        kara.skills["battle"] = 8  # type: ignore[index]


# -- dice (seed lines 37-39, 57, 228, 234) ---------------------------------------------------------
def test_seed_line_37_die_at_or_under_target_is_one_success():
    assert score_die(14, 14, 7, False).successes == 1
    assert score_die(15, 14, 7, False).successes == 0


def test_seed_line_39_a_one_is_two_successes_and_a_twenty_a_complication():
    assert score_die(1, 8, 4, False) == (2, False)
    assert score_die(20, 16, 8, False) == (0, True)


def test_seed_line_57_focus_makes_every_die_at_or_under_skill_critical():
    assert score_die(7, 14, 7, True).successes == 2
    assert score_die(8, 14, 7, True).successes == 1
    assert score_die(7, 14, 7, False).successes == 1


def test_seed_line_234_complication_range_widens_from_20():
    assert complication_faces(1) == (20,)
    assert complication_faces(2) == (19, 20)
    assert complication_faces(5) == (16, 17, 18, 19, 20)
    assert score_die(16, 16, 8, False, 5) == (1, True)  # a die can succeed and complicate at once
    with pytest.raises(InputError, match="complication_range must be an integer from 1 to 5"):
        complication_faces(6)


def test_dice_come_from_the_generator_passed_in():
    assert roll_d20(np.random.default_rng(5), 4) == roll_d20(np.random.default_rng(5), 4)
    faces = roll_d20(np.random.default_rng(0), 2000)
    assert min(faces) == 1 and max(faces) == 20


# -- skill tests -----------------------------------------------------------------------------------
def test_seed_lines_188_196_natalia_rolls_8_and_18_one_success_at_difficulty_0():
    result = resolve_test(SkillTest(7, 7, difficulty=0), (8, 18))
    assert (result.successes, result.passed, result.momentum) == (1, True, 1)


def test_seed_line_194_pass_when_successes_reach_difficulty():
    assert resolve_test(SkillTest(6, 6, difficulty=2), (3, 12)).passed
    failed = resolve_test(SkillTest(6, 6, difficulty=3), (3, 12))
    assert not failed.passed and failed.momentum == 0 and failed.shortfall == 1


def test_seed_line_202_successes_beyond_difficulty_become_momentum():
    result = resolve_test(SkillTest(8, 8, focus=True, extra_dice=3, difficulty=2), (1, 2, 3, 9, 17))
    assert result.successes == 2 + 2 + 2 + 1 + 0 and result.momentum == 5


def test_seed_line_204_up_to_three_bought_dice():
    assert SkillTest(6, 6, extra_dice=3).dice_count == 5
    with pytest.raises(InputError, match="extra_dice must be an integer from 0 to 3"):
        SkillTest(6, 6, extra_dice=4)
    with pytest.raises(InputError, match="dice must hold exactly 3"):
        resolve_test(SkillTest(6, 6, extra_dice=1), (1, 2))


def test_seed_line_43_difficulty_0_to_5_and_modifiers_can_raise_it():
    with pytest.raises(InputError, match="difficulty must be an integer from 0 to 5"):
        SkillTest(6, 6, difficulty=6)
    assert SkillTest(6, 6, difficulty=5).harder(2).final_difficulty == 7
    assert SkillTest(6, 6, difficulty=1, difficulty_modifier=-3).final_difficulty == 0


def test_seed_line_228_complications_counted_per_die():
    result = resolve_test(SkillTest(6, 6, extra_dice=1, complication_range=2), (19, 20, 5))
    assert result.complications == 2 and result.successes == 1


def test_seed_line_352_assist_die_uses_the_helpers_target_number_and_focus():
    test = SkillTest(4, 4, difficulty=2, assist=Assist(8, 8, focus=True))
    result = resolve_test(test, (5, 15), assist_die=7)  # leader: 1 success; helper: 7 <= 8 with focus -> 2
    assert result.successes == 3 and result.passed
    assert resolve_test(test, (15, 15), assist_die=16).successes == 1  # seed: no leader condition


def test_design_assist_leader_success_option_and_helper_complication():
    test = SkillTest(4, 4, assist=Assist(8, 8), assist_requires_leader_success=True)
    result = resolve_test(test, (15, 15), assist_die=2)
    assert result.successes == 0
    assert resolve_test(test, (15, 15), assist_die=20).complications == 1  # the helper's 20 still counts
    with pytest.raises(InputError, match="assist_die"):
        resolve_test(test, (15, 15))
    with pytest.raises(InputError, match="no assist"):
        resolve_test(SkillTest(6, 6), (1, 1), assist_die=3)


def test_design_determination_automatic_one_adds_a_one_to_the_pool():
    test = SkillTest(6, 6, difficulty=3, auto_one=True)
    assert test.rolled_count == 1
    result = resolve_test(test, (10,))
    assert result.dice == (1, 10) and result.successes == 3


def test_design_determination_reroll_pool():
    first = resolve_test(SkillTest(6, 6, difficulty=2), (19, 20))
    again = reroll_pool(first, dice=(4, 5))
    assert not first.passed and again.passed
    rolled = reroll_pool(first, rng=np.random.default_rng(2))
    assert len(rolled.dice) == 2
    with pytest.raises(InputError):
        reroll_pool(first)


def test_roll_test_is_deterministic_for_a_seeded_generator():
    test = SkillTest(7, 6, focus=True, extra_dice=2, assist=Assist(5, 5))
    first = roll_test(test, np.random.default_rng(42))
    second = roll_test(test, np.random.default_rng(42))
    assert first == second and len(first.dice) == 4 and first.assist_die is not None


def test_from_character_applies_focus_only_if_owned():
    kara = make(focuses=["Duel"])
    assert SkillTest.from_character(kara, "battle", "duty", "Duel").focus
    assert not SkillTest.from_character(kara, "battle", "duty", "Poison").focus
    helper = Assist.from_character(make("Helper", 5, 7), "move", "truth")
    assert helper.target == 12
