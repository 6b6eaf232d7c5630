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
