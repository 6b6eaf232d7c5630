"""The ``iron-die`` CLI subcommands, called through an argparse parser built with ``register``."""

from __future__ import annotations

import argparse
import json
from fractions import Fraction
from pathlib import Path

import pytest

from dunenb.errors import InputError
from dunenb.iron_die.cli import register
from dunenb.iron_die.save import load_game


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> dict | str:
    parser = argparse.ArgumentParser(prog="dunenb")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["iron-die", *argv])
    status = args.func(args)
    assert status == 0 and isinstance(status, int)
    out = capsys.readouterr().out
    return json.loads(out) if "--json" in argv else out


def test_odds_military_with_target(capsys: pytest.CaptureFixture[str]) -> None:
    data = run(capsys, "odds", "--challenge", "military", "--target", "23", "--json")
    assert data["challenge"] == "military" and data["target"] == "23"
    assert Fraction(data["expected_score_exact"]) == Fraction(70, 3)
    assert 0 < data["p_beat"] < 1 and Fraction(data["p_beat_exact"]) == pytest.approx(data["p_beat"])
    assert set(data) == {
        "challenge",
        "rolls",
        "score",
        "expected_score",
        "expected_score_exact",
        "target",
        "target_meaning",
        "p_beat",
        "p_beat_exact",
    }


def test_odds_intrigue_five_of_a_kind_is_the_yahtzee_figure(capsys: pytest.CaptureFixture[str]) -> None:
    data = run(capsys, "odds", "--challenge", "intrigue", "--target", "five-of-a-kind", "--json")
    assert Fraction(data["p_beat_exact"]) == Fraction(2_783_176, 60_466_176)
    assert data["target_meaning"] == "at least five of a kind"


def test_odds_without_target(capsys: pytest.CaptureFixture[str]) -> None:
    data = run(capsys, "odds", "--challenge", "foi", "--json")
    assert data["challenge"] == "faith" and data["p_beat"] is None and data["target"] is None
    text = run(capsys, "odds", "--challenge", "faith", "--target", "2/3")
    assert "optimal probability of beating 2/3" in text


def test_advise_ranks_every_keep(capsys: pytest.CaptureFixture[str]) -> None:
    data = run(
        capsys, "advise", "--dice", "6,6,4,4,2", "--rolls-left", "2", "--challenge", "intrigue", "--json"
    )
    assert data["objective"] == "expected_score" and data["dice"] == [6, 6, 4, 4, 2]
    assert data["best"]["keep"] == [6, 6, 4, 4] and data["best"]["reroll"] == [2]
    values = [k["value"] for k in data["keeps"]]
    assert values == sorted(values, reverse=True) and len(values) == 18
    data = run(capsys, "advise", "--dice", "6,6,4,4,2", "--challenge", "faith", "--target", "1/3", "--json")
    assert data["objective"] == "p_beat" and data["target"] == "1/3" and 0 < data["best"]["value"] <= 1


def test_advise_first_player(capsys: pytest.CaptureFixture[str]) -> None:
    data = run(capsys, "advise", "--dice", "6,6,6,6,6", "--rolls-left", "0", "--first-player", "--json")
    assert data["role"] == "first-player" and data["stop"] and data["declare"] == "military"
    data = run(capsys, "advise", "--dice", "6,6,4,4,2", "--first-player", "--players", "3", "--json")
    assert data["objective"] == "p_win_point" and data["declare"] is None


@pytest.mark.parametrize(
    ("argv", "argument", "allowed"),
    [
        (["odds"], "--challenge", "military, faith, intrigue"),
        (["odds", "--challenge", "war"], "--challenge", "military, faith, intrigue"),
        (["odds", "--challenge", "military", "--target", "40"], "--target", "a sum 5-30"),
        (["odds", "--challenge", "intrigue", "--target", "flush"], "--target", "full-house"),
        (["advise", "--challenge", "faith"], "--dice", "five faces"),
        (["advise", "--dice", "6,6,4,4", "--challenge", "faith"], "--dice", "5 faces 1-6"),
        (
            ["advise", "--dice", "6,6,4,4,2", "--rolls-left", "3", "--challenge", "faith"],
            "--rolls-left",
            "0, 1, 2",
        ),
        (["advise", "--dice", "6,6,4,4,2", "--first-player", "--players", "1"], "--players", "integer from 2 to 20"),
        (
            ["advise", "--dice", "6,6,4,4,2", "--first-player", "--challenge", "faith"],
            "--first-player",
            "drop",
        ),
        (["simulate", "--bots", "optimal,genius"], "--bots", "optimal, naive"),
        (["simulate", "--games", "-3"], "--games", "integer >= 0"),
        (["play", "--bots", "optimal,naive", "--players", "A"], "--players", "2 names"),
        (["replay"], "--save", "path"),
    ],
)
def test_bad_arguments_raise_input_error(
    capsys: pytest.CaptureFixture[str], argv: list[str], argument: str, allowed: str
) -> None:
    with pytest.raises(InputError) as info:
        run(capsys, *argv)
    assert argument in info.value.message and allowed in info.value.message


def test_simulate_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    first = run(capsys, "simulate", "--games", "6", "--seed", "4", "--json")
    second = run(capsys, "simulate", "--games", "6", "--seed", "4", "--json")
    assert first == second and first["games"] == 6
    assert sum(v["wins"] for v in first["win_rates"].values()) == 6


def test_play_saves_and_replay_loads(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    data = run(capsys, "play", "--seed", "9", "--players", "Stark,Lannister", "--save", str(path), "--json")
    assert data["winner"] in ("Stark", "Lannister") and data["phase"] == "over"
    assert load_game(path).summary() == data
    replayed = run(capsys, "replay", "--save", str(path), "--json")
    assert replayed == data
    assert "winner:" in run(capsys, "play", "--seed", "9")


def test_help_documents_the_result_notation(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser(prog="dunenb")
    register(parser.add_subparsers(dest="command"))
    for sub in ("odds", "advise"):
        with pytest.raises(SystemExit):
            parser.parse_args(["iron-die", sub, "--help"])
        text = capsys.readouterr().out
        assert "RESULT notation" in text and "full-house:4,4,4,1,1" in text and "2/4" in text


def test_odds_distribution_is_the_whole_exact_final_score_distribution(capsys: pytest.CaptureFixture[str]) -> None:
    """Seed line 11 (military: the sum of the five dice): every sum the optimal policy can end on."""
    data = run(capsys, "odds", "--challenge", "military", "--distribution", "--json")
    rows = data["distribution"]
    assert data["distribution_policy"] == "expected_score"
    assert sum(Fraction(row["exact"]) for row in rows) == 1
    assert sum(row["score"] * Fraction(row["exact"]) for row in rows) == Fraction(data["expected_score_exact"])
    assert [row["score"] for row in rows] == sorted(row["score"] for row in rows)
    assert {"options"} & set(data) == set()  # default readings: no options key


def test_odds_distribution_follows_the_beat_policy_with_a_target(capsys: pytest.CaptureFixture[str]) -> None:
    data = run(capsys, "odds", "--challenge", "intrigue", "--target", "full-house", "--distribution", "--json")
    assert data["distribution_policy"] == "p_beat"
    p_full_or_better = sum(Fraction(r["exact"]) for r in data["distribution"] if r["score"] >= 5)
    assert p_full_or_better == Fraction(data["p_beat_exact"])


def test_odds_and_advise_take_the_faith_table_options(capsys: pytest.CaptureFixture[str]) -> None:
    """Seed lines 12-14 (faith "par calcul", the unused die breaks ties): IRON-GAP-17, IRON-GAP-18."""
    plain = run(capsys, "odds", "--challenge", "faith", "--json")
    data = run(capsys, "odds", "--challenge", "faith", "--faith-operations", "arithmetic", "--json")
    assert data["options"] == {"faith_operations": "arithmetic", "faith_tiebreak": "low"}
    assert Fraction(data["expected_score_exact"]) > Fraction(plain["expected_score_exact"])
    advice = run(
        capsys, "advise", "--dice", "6,6,6,6,1", "--rolls-left", "0", "--challenge", "faith",
        "--faith-operations", "arithmetic", "--json",
    )
    assert advice["best"]["value"] == 2
    text = run(capsys, "odds", "--challenge", "faith", "--target", "2/2", "--faith-tiebreak", "high")
    assert "a higher unused total breaks ties" in text
    with pytest.raises(InputError) as info:
        run(capsys, "odds", "--challenge", "faith", "--faith-tiebreak", "middle")
    assert "--faith-tiebreak" in info.value.message and "low, high" in info.value.message
