"""The ``dunenb 2d20 odds`` subcommand, tested through its own argparse parser."""

from __future__ import annotations

import argparse
import json

import pytest

from dunenb.adventures.cli import register
from dunenb.adventures.exact_odds import odds
from dunenb.errors import InputError


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="dunenb")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


def test_odds_json_shape(capsys):
    code = run(
        [
            "2d20",
            "odds",
            "--skill",
            "7",
            "--drive",
            "7",
            "--focus",
            "--dice",
            "3",
            "--difficulty",
            "2",
            "--complication-range",
            "1",
            "--json",
        ]
    )
    payload = json.loads(capsys.readouterr().out)
    assert code == 0
    assert set(payload) == {"successes", "complications", "p_success", "expected_momentum"}
    assert list(payload["successes"]) == [str(s) for s in range(11)]  # 5 dice: 0 to 10 successes
    assert list(payload["complications"]) == [str(c) for c in range(6)]
    assert sum(payload["successes"].values()) == pytest.approx(1.0)
    assert payload["p_success"] == pytest.approx(odds(7, 7, True, 3).p_success(2))
    assert payload["expected_momentum"] == pytest.approx(odds(7, 7, True, 3).expected_momentum(2))


def test_dice_option_counts_extra_dice_and_defaults(capsys):
    run(["2d20", "odds", "--skill", "6", "--drive", "6", "--json"])
    payload = json.loads(capsys.readouterr().out)
    assert len(payload["successes"]) == 5  # default: 0 extra dice, 2d20 -> 0 to 4 successes
    assert payload["p_success"] == pytest.approx(odds(6, 6).p_success(1))  # default difficulty 1


def test_assist_options(capsys):
    run(
        [
            "2d20",
            "odds",
            "--skill",
            "6",
            "--drive",
            "6",
            "--assist-skill",
            "5",
            "--assist-drive",
            "8",
            "--assist-focus",
            "--json",
        ]
    )
    payload = json.loads(capsys.readouterr().out)
    assert len(payload["successes"]) == 7


def test_text_output(capsys):
    assert run(["2d20", "odds", "--skill", "6", "--drive", "6"]) == 0
    assert "P(pass)" in capsys.readouterr().out


def test_help_documents_extra_dice(capsys):
    with pytest.raises(SystemExit):
        run(["2d20", "odds", "--help"])
    assert "EXTRA dice" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv,option,allowed",
    [
        (["--skill", "9", "--drive", "6"], "--skill", "4 to 8"),
        (["--skill", "six", "--drive", "6"], "--skill", "4 to 8"),
        (["--drive", "6"], "--skill", "4 to 8"),
        (["--skill", "6", "--drive", "3"], "--drive", "4 to 8"),
        (["--skill", "6", "--drive", "6", "--dice", "4"], "--dice", "0 to 3"),
        (["--skill", "6", "--drive", "6", "--difficulty", "41"], "--difficulty", "0 to 40"),
        (["--skill", "6", "--drive", "6", "--complication-range", "0"], "--complication-range", "1 to 5"),
        (["--skill", "6", "--drive", "6", "--assist-skill", "6"], "--assist-drive", "4 to 8"),
        (["--skill", "6", "--drive", "6", "--assist-focus"], "--assist-focus", "--assist-skill"),
    ],
)
def test_bad_arguments_raise_input_error_naming_the_argument(argv, option, allowed):
    with pytest.raises(InputError) as info:
        run(["2d20", "odds", *argv, "--json"])
    assert option in info.value.message and allowed in info.value.message
    assert info.value.code == "cli/argument"


def _json(capsys, argv: list[str]) -> dict:
    assert run(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_seed_line_222_odds_with_the_automatic_one_and_helpers(capsys):
    """Seed lines 222 (Determination) and 352 (helpers: one die each)."""
    from dunenb.adventures.skill_test import Assist

    base = ["2d20", "odds", "--skill", "6", "--drive", "6", "--json"]
    data = _json(capsys, [*base, "--auto-one", "--helper", "5,5", "--helper", "7,6,focus", "--difficulty", "7"])
    expected = odds(6, 6, auto_one=True, helpers=(Assist(5, 5), Assist(7, 6, True)))
    assert data["p_success"] == expected.p_success(7) and data["p_success"] > 0
    assert set(data) == {"successes", "complications", "p_success", "expected_momentum"}
    assert data["successes"]["0"] == 0.0 and data["successes"]["1"] == 0.0  # the automatic 1 is 2 successes


def test_seed_line_43_odds_accept_final_difficulties_above_5(capsys):
    data = _json(capsys, ["2d20", "odds", "--skill", "8", "--drive", "8", "--focus", "--dice", "3", "--difficulty", "9",
                          "--json"])
    assert data["p_success"] == odds(8, 8, True, 3).p_success(9) > 0


def test_seed_line_288_odds_of_an_opposed_test(capsys):
    """Seed line 288: "Effectuez votre test en opposition contre la cible"."""
    from fractions import Fraction

    from dunenb.adventures.exact_odds import opposed_odds
    from dunenb.adventures.skill_test import SkillTest

    data = _json(capsys, ["2d20", "odds", "--skill", "7", "--drive", "7", "--defender-skill", "5",
                          "--defender-drive", "6", "--defender-dice", "1", "--difficulty", "2", "--json"])
    contest = opposed_odds(SkillTest(7, 7), SkillTest(5, 6, extra_dice=1), base=2)
    assert Fraction(data["opposed"]["p_success_exact"]) == contest.exact_p_success()
    assert data["p_success"] == data["opposed"]["p_success"] and data["opposed"]["base_difficulty"] == 2
    assert set(data["opposed"]) == {"base_difficulty", "p_success", "p_success_exact", "expected_momentum",
                                    "expected_defender_momentum", "defender_successes", "difficulty"}
    with pytest.raises(InputError, match="--defender-drive"):
        run(["2d20", "odds", "--skill", "7", "--drive", "7", "--defender-skill", "5"])


def test_seed_lines_37_39_score_a_given_roll(capsys):
    """Seed lines 37-39: a die at or under the target is a success, a 1 two, a 20 a complication."""
    data = _json(capsys, ["2d20", "score", "--dice", "3,17,20", "--skill", "7", "--drive", "7", "--json"])
    assert data["per_die"] == [
        {"face": 3, "successes": 1, "complication": False},
        {"face": 17, "successes": 0, "complication": False},
        {"face": 20, "successes": 0, "complication": True},
    ]
    assert (data["successes"], data["complications"], data["passed"], data["momentum"]) == (1, 1, True, 0)
    focus = _json(capsys, ["2d20", "score", "--dice", "1,7,12", "--skill", "7", "--drive", "7", "--focus",
                           "--difficulty", "6", "--json"])
    assert focus["successes"] == 5 and not focus["passed"] and focus["shortfall"] == 1
    with pytest.raises(InputError, match="--dice"):
        run(["2d20", "score", "--dice", "3,21", "--skill", "7", "--drive", "7"])
    with pytest.raises(InputError, match="2 to 5"):
        run(["2d20", "score", "--dice", "3", "--skill", "7", "--drive", "7"])
