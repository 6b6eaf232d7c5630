"""Battle cases (format dunenb.battle/1): validation naming the field, examples, and the CLI's JSON."""

from __future__ import annotations

import argparse
import copy
import json
import math

import pytest

from dunenb.battle.case import case_json, example_case_names, load_case, load_example_case, parse_case
from dunenb.battle.cli import register
from dunenb.errors import InputError

BASE = {
    "format": "dunenb.battle/1", "territory": "arrakeen", "defender": "atreides",
    "sides": [
        {"house": "atreides", "tokens": {"regular": 6, "elite": 0}, "dial": {"regular": 4, "elite": 0, "spice": 2},
         "leader": "duncan-idaho", "weapon": None, "defense": None, "traitors": []},
        {"house": "harkonnen", "tokens": {"regular": 5}, "dial": {"regular": 3},
         "leader": {"name": "Any Name", "strength": 5}, "weapon": "poison-fast", "defense": "shield"},
    ],
}


def variant(path, value):
    data = copy.deepcopy(BASE)
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


def error_of(data):
    with pytest.raises(InputError) as error:
        parse_case(data)
    return str(error.value)


def test_case_parses_ids_and_display_names():
    case = parse_case(variant(("territory",), "Arrakeen"))
    assert case.territory == "arrakeen"
    case = parse_case(variant(("sides", 0, "leader"), "Duncan Idaho"))
    assert case.sides[0].plan.leader.id == "duncan-idaho"
    case = parse_case(variant(("sides", 1, "house"), "Harkonnen"))
    assert case.houses == ("atreides", "harkonnen")


@pytest.mark.parametrize(("path", "value", "needle"), [
    (("sides", 1, "weapon"), "laser", 'sides[1].weapon: "laser" is not one of null, "poison-fast"'),
    (("sides", 0, "defense"), "armour", 'sides[0].defense: "armour" is not one of null, "snooper"'),
    (("sides", 0, "house"), "corrino", 'sides[0].house: "corrino" is not one of "atreides"'),
    (("territory",), "Atlantis", "territory: 'Atlantis' is not one of pole-nord, arrakeen"),
    (("defender",), "fremen", 'defender: "fremen" is not one of "atreides", "harkonnen"'),
    (("format",), "dune/2", 'format: "dune/2" is not one of "dunenb.battle/1"'),
    (("sides", 0, "dial"), {"regular": 9}, "sides[0].dial: dials 9 regular"),
    (("sides", 0, "dial"), {"regular": 2, "spice": 3}, "sides[0].dial.spice: 3 spice for 2 tokens"),
    (("sides", 0, "tokens"), {"regular": -1}, "sides[0].tokens.regular: -1 is not a whole number"),
    (("sides", 0, "leader"), "nobody", "sides[0].leader: unknown leader 'nobody' of atreides"),
    (("sides", 0, "leader"), {"name": "X"}, "sides[0].leader.strength: None is not a whole number"),
    (("sides", 0, "dice"), [11], "sides[0].dice[0]: 11 is not a d10 result"),
    (("sides", 0, "colour"), "red", "sides[0].colour: unknown field; allowed fields: house, tokens"),
    (("sides",), [], "sides: a battle is always between two Houses"),
])
def test_malformed_cases_name_the_field_and_the_allowed_values(path, value, needle):
    assert needle in error_of(variant(path, value))


def test_GAP_43_no_leader_no_card_in_a_case():
    data = variant(("sides", 1, "leader"), None)
    assert "sides[1].weapon: a side with no leader may play no treachery card (GAP-43)" in error_of(data)


def test_analysis_fields_are_checked():
    data = variant(("sides", 1, "hand"), ["shield"])
    assert "sides[1].hand: the plan plays poison-fast, not in the hand" in error_of(data)
    data = variant(("sides", 0, "leaders"), ["gurney"])
    assert "is not among the side's available leaders" in error_of(data)
    data = variant(("sides", 0, "spice"), 1)
    assert "sides[0].dial.spice: dials 2 spice but the side owns 1" in error_of(data)


def test_load_case_reports_bad_json(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(InputError) as error:
        load_case(path)
    assert error.value.code == "case/file"


def test_shipped_examples_parse_and_probabilities_sum_to_one():
    names = example_case_names()
    assert len(names) >= 5
    for required in ("wheel_example_7", "shield_example_1", "shield_example_2", "shield_example_3",
                     "shield_example_4", "traitor_idaho"):
        assert required in names
    for name in names:
        outcomes = case_json(load_example_case(name))["outcomes"]
        assert math.isclose(sum(o["probability"] for o in outcomes), 1.0)


def test_WHEEL_3_example_7_case_shows_6():
    data = case_json(load_example_case("wheel_example_7"))
    (outcome,) = data["outcomes"]
    assert outcome["sides"]["fremen"]["total"] == 6 + 6  # army 6 (L1705) + Chani 6


def run_cli(argv, capsys):
    parser = argparse.ArgumentParser(prog="dunenb")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    status = args.func(args)
    return status, capsys.readouterr().out


def test_cli_json_shape(tmp_path, capsys):
    path = tmp_path / "case.json"
    path.write_text(json.dumps(BASE), encoding="utf-8")
    status, out = run_cli(["battle", str(path), "--json"], capsys)
    assert status == 0
    data = json.loads(out)
    assert set(data) == {"outcomes"}
    for outcome in data["outcomes"]:
        assert {"probability", "winner", "explosion", "traitor_called_by", "sides"} <= set(outcome)
        assert set(outcome["sides"]) == {"atreides", "harkonnen"}
        for side in outcome["sides"].values():
            assert set(side) == {"total", "leader", "tokens_lost", "tokens_left", "spice_lost", "bounty"}
            assert side["leader"] in ("alive", "dead", "none")


def test_cli_merges_outcomes_and_prints_a_table(capsys):
    status, out = run_cli(["battle", "shield_example_4", "--json"], capsys)
    outcomes = json.loads(out)["outcomes"]
    assert len(outcomes) == 4 and math.isclose(sum(o["probability"] for o in outcomes), 1.0)
    status, out = run_cli(["battle", "shield_example_4"], capsys)
    assert status == 0 and "atreides" in out and "30.0%" in out


def test_cli_optimal_json(capsys):
    status, out = run_cli(["battle", "shield_example_2", "--optimal", "--json"], capsys)
    data = json.loads(out)
    assert status == 0 and set(data) == {"metric", "value", "win_probability", "strategies"}
    for plans in data["strategies"].values():
        assert math.isclose(sum(plan["probability"] for plan in plans), 1.0)


def test_cli_list_and_missing_case(capsys):
    status, out = run_cli(["battle", "--list"], capsys)
    assert "traitor_idaho" in out
    with pytest.raises(InputError):
        run_cli(["battle"], capsys)
    with pytest.raises(InputError):
        run_cli(["battle", "no_such_example"], capsys)
