"""The ``dunenb imperium`` CLI, saves with bad input, exact odds and the bots/simulation."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import combinations
from math import comb

import pandas as pd
import pytest

from dunenb.cli import main
from dunenb.errors import InputError, SaveFormatError
from dunenb.imperium.odds import card_odds, hand_odds
from dunenb.imperium.save import from_save, load_game, to_save
from dunenb.imperium.simulate import simulate


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_conflict_strengths_json_exact(capsys):
    status, out, _ = run(capsys, "imperium", "conflict", "--strengths", "9,5,5,0", "--json")
    assert status == 0
    assert json.loads(out) == {
        "placements": [
            {"player": 1, "strength": 9, "reward": 1},
            {"player": 2, "strength": 5, "reward": 3},
            {"player": 3, "strength": 5, "reward": 3},
            {"player": 4, "strength": 0, "reward": None},
        ]
    }


def test_cli_conflict_troops_and_swords(capsys):
    status, out, _ = run(capsys, "imperium", "conflict", "--troops", "3,0,2", "--swords", "1,4,0", "--json")
    assert status == 0
    assert [(p["strength"], p["reward"]) for p in json.loads(out)["placements"]] == [(7, 1), (0, None), (4, 2)]


@pytest.mark.parametrize(
    "argv",
    [
        ["--strengths", "9,x"],
        ["--strengths", "9"],
        ["--strengths", "1,2,3,4,5"],
        ["--troops", "1,2", "--swords", "1"],
        ["--strengths", "1,2", "--troops", "1,2"],
        ["--strengths", "9,\u00b2"],
        ["--strengths", "9," + "9" * 5000],
        ["--troops", "1,\u0663", "--swords", "1,1"],
        [],
    ],
)
def test_cli_conflict_bad_arguments(capsys, argv):
    status, out, err = run(capsys, "imperium", "conflict", *argv, "--json")
    assert status == 2 and out == "" and err.startswith("error: [imperium/argument]")
    assert len(err) < 400 and "invalid literal" not in err


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["odds", "--top", "\u00b2"], "--top"),
        (["odds", "--deck", "starter,dagger:\u00b2"], "--deck"),
        (["odds", "--deck", "dagger:0"], "--deck"),
        (["simulate", "--games", "\u00b2", "--out", "unused"], "--games"),
        (["simulate", "--games", "1", "--players", "5", "--out", "unused"], "--players"),
        (["simulate", "--games", "1", "--seed", "9" * 5000, "--out", "unused"], "--seed"),
    ],
)
def test_cli_imperium_integers_are_ascii_and_bounded(capsys, tmp_path, argv, named):
    """GAP-59: '\u00b2' passes ``str.isdigit`` but is no integer; every option names itself, nothing is written."""
    argv = [str(tmp_path / a) if a == "unused" else a for a in argv]
    status, out, err = run(capsys, "imperium", *argv)
    assert status == 2 and out == ""
    assert err.startswith("error: [imperium/argument] " + named) and len(err) < 400
    assert not (tmp_path / "unused").exists()


def test_cli_odds_starter(capsys):
    status, out, _ = run(capsys, "imperium", "odds", "--deck", "starter", "--top", "2", "--json")
    data = json.loads(out)
    assert status == 0 and data["hands"] == 96 and len(data["top"]) == 2
    assert data["cards"]["dagger"]["exact"] == str(1 - Fraction(comb(8, 5), comb(10, 5)))
    status, _, err = run(capsys, "imperium", "odds", "--deck", "nonsense:2")
    assert status == 2 and "[imperium/argument] --deck" in err


def test_cli_simulate_and_replay(capsys, tmp_path):
    status, out, err = run(
        capsys,
        "imperium",
        "simulate",
        "--games",
        "2",
        "--players",
        "3",
        "--bots",
        "heuristic,random",
        "--seed",
        "4",
        "--out",
        str(tmp_path),
        "--json",
    )
    assert status == 0 and "Imperium games" in err  # the tqdm bar on stderr
    data = json.loads(out)
    assert data["games"] == 2 and sum(data["wins_by_bot"].values()) == pytest.approx(2)
    table = pd.read_csv(tmp_path / "summary.csv")
    assert list(table.columns[:5]) == ["game", "seed", "rounds", "winner", "winner_leader"]
    assert {"p1_vp", "p2_leader", "p3_bot"} <= set(table.columns)
    status, out, _ = run(
        capsys, "imperium", "replay", "--save", str(tmp_path / "game_0001.json"), "--seat", "0", "--json"
    )
    view = json.loads(out)
    assert status == 0 and view["phase"] == "over" and isinstance(view["players"][1]["hand"], int)
    status, _, err = run(capsys, "imperium", "simulate", "--games", "1", "--bots", "genius", "--out", str(tmp_path))
    assert status == 2 and "[imperium/bots] --bots" in err
    status, _, err = run(capsys, "imperium", "simulate", "--games", "1", "--players", "5", "--out", str(tmp_path))
    assert status == 2 and "--players" in err


def test_simulate_is_deterministic_for_a_seed():
    assert simulate(2, players=2, bots=["random"], seed=9).equals(simulate(2, players=2, bots=["random"], seed=9))


def test_bad_saves_name_the_field(tmp_path):
    from dunenb.imperium.engine import advance, new_game

    save = to_save(advance(new_game(["A", "B"], 1)))
    cases = {
        "save/missing-field": {k: v for k, v in save.items() if k != "seed"},
        "save/unknown-field": {**save, "extra": 1},
        "save/format": {**save, "format": "dunenb.imperium/0"},
        "save/players": {**save, "players": ["A", "A"]},
        "save/leaders": {**save, "leaders": ["paul_atreides"]},
        "save/seed": {**save, "seed": "1"},
        "save/action": {**save, "actions": [{"type": "teleport"}]},
        "save/illegal-action": {**save, "actions": [{"type": "reveal"}]},
    }
    for code, data in cases.items():
        with pytest.raises(SaveFormatError) as error:
            from_save(data)
        assert error.value.code == code, code
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(SaveFormatError) as error:
        load_game(bad)
    assert error.value.code == "file/json"


def test_cli_replay_bad_save_message(capsys, tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"format": "dunenb.imperium/1"}), encoding="utf-8")
    status, _, err = run(capsys, "imperium", "replay", "--save", str(path))
    assert status == 2 and err.startswith("error: [save/missing-field] players")


def brute_force(deck: list[str], discard: list[str], size: int = 5) -> dict[tuple[str, ...], Fraction]:
    """Every ordered-free draw of positions, for comparison."""
    result: dict[tuple[str, ...], Fraction] = {}
    if len(deck) >= size:
        draws = list(combinations(range(len(deck)), size))
        for draw in draws:
            hand = tuple(sorted(deck[i] for i in draw))
            result[hand] = result.get(hand, Fraction(0)) + Fraction(1, len(draws))
        return result
    k = min(size - len(deck), len(discard))
    draws = list(combinations(range(len(discard)), k))
    for draw in draws:
        hand = tuple(sorted(deck + [discard[i] for i in draw]))
        result[hand] = result.get(hand, Fraction(0)) + Fraction(1, len(draws))
    return result


@pytest.mark.parametrize(
    ("deck", "discard"),
    [
        (["a", "a", "b", "c", "c", "c", "d"], []),
        (["a", "b"], ["a", "c", "c", "d", "e"]),
        ([], ["x", "y", "y"]),
        (["a", "a", "b", "c", "d", "e", "f", "g", "g", "g"], ["z"]),
    ],
)
def test_hand_odds_match_brute_force(deck, discard):
    odds = hand_odds(deck, discard)
    assert dict(odds) == brute_force(deck, discard) and sum(p for _, p in odds) == 1
    probabilities = [p for _, p in odds]
    assert probabilities == sorted(probabilities, reverse=True)
    cards = card_odds(deck, discard)
    for card, p in cards.items():
        assert p == sum(q for hand, q in odds if card in hand)


def test_hand_odds_bad_input():
    with pytest.raises(InputError):
        hand_odds({"a": -1})
