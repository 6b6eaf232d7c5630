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
    assert outcome["sides"]["fremen"]["total"] == 6 + 6  # army 6 (L1705) + an inline leader 6 (no powers)


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
            assert set(side) == {"total", "leader", "tokens_lost", "tokens_left", "spice_lost", "bounty", "powers"}
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


def test_karama_3_a_case_accepts_a_karama_on_the_wheel_and_the_analysis_keeps_it():
    from dunenb.analysis.battle_odds import plan_matrix, sensible_plans
    from dunenb.battle.case import case_outcomes

    data = variant(("sides", 0, "karama"), "karama")
    data["sides"][1]["traitors"] = ["duncan-idaho"]
    case = parse_case(data)
    assert case.sides[0].plan.karama == "karama" and case.sides[1].side.call_power == "HARKONNEN-P1"
    assert all(outcome.winner is not None and outcome.traitor_called_by == () for _p, outcome in case_outcomes(case))
    assert all(plan.karama == "karama" for plan in sensible_plans(case, 0).plans)
    assert plan_matrix(case).win_first.shape[0] == len(sensible_plans(case, 0).plans)
    assert "karama" in error_of(variant(("sides", 0, "karama"), "shield"))


# --- battle cases are possible positions (issue 9 item 8, issue 15 items 4-5) ---------------------------------

def with_traitors(index, names, changes=None):
    data = variant(("sides", index, "traitors"), names)
    for (side, key), value in (changes or {}).items():
        data["sides"][side][key] = value
    return data


def test_traitor_1_main_leader_refused_in_case():
    assert ("sides[1].traitors[0]: Paul is the atreides main leader: main leaders are never drawn as traitors "
            "(TRAITOR-1, G-7)") in error_of(with_traitors(1, ["Paul"]))


def test_k_21_never_traitor_refused_in_case():
    data = with_traitors(0, ["Goose"], {(1, "house"): "bene-tleilax"})
    assert "Goose (bene-tleilax) can never be a traitor of atreides (leaders.md K-21)" in error_of(data)
    data = with_traitors(0, ["jamis"], {(1, "house"): "fremen"})
    assert "Jamis (fremen) can never be a traitor of atreides" in error_of(data)  # never_traitor_of Atreides


def test_gap_54_own_leader_and_unknown_names_refused_in_traitors():
    assert "Gurney is one of the atreides leaders: a House never calls treachery on its own leader" in error_of(
        with_traitors(0, ["gurney"]))
    assert "sides[0].traitors[0]: unknown leader 'Nobody'" in error_of(with_traitors(0, ["Nobody"]))
    # the opponent's inline leader may be named
    case = parse_case(with_traitors(0, ["Any Name"]))
    assert case_json(case)["outcomes"][0]["traitor_called_by"] == ["atreides"]


def test_x_1_out_of_game_copies_refused_in_case():
    data = variant(("sides", 1, "house"), "guild")
    data["sides"][1]["leader"] = "guild:gurney"
    assert ("sides[1].leader: guild:gurney is out of the game when atreides, guild play (leaders.md X-1: one "
            "copy per character); the copy in play is atreides:gurney") in error_of(data)
    data = variant(("sides", 1, "leader"), "yueh")  # the Harkonnen Yueh (H10) defers to the Atreides' (A09)
    assert "harkonnen:yueh is out of the game" in error_of(data)


@pytest.mark.parametrize(("path", "value", "needle"), [
    (("sides", 0, "dice"), [4.0], "sides[0].dice[0]: 4.0 is not a d10 result: allowed whole numbers 1 to 10"),
    (("sides", 0, "dice"), [True], "sides[0].dice[0]: True is not a d10 result"),
    (("sides", 0, "dice"), [1] * 11, "sides[0].dice: must be a list of at most 10 d10 results"),
    (("sides", 0, "tokens"), {"regular": 10 ** 40}, "sides[0].tokens.regular: 1000000000000000000000000000000000000"
                                                    "0000 is not a whole number 0 to 20 (G-1: atreides owns 20"),
    (("sides", 0, "tokens"), {"regular": 4, "elite": 1}, "sides[0].tokens.elite: 1 is not a whole number 0 to 0 "
                                                         "(G-1: atreides owns 0 marked tokens)"),
    (("sides", 0, "tokens"), {"regular": 6.0}, "sides[0].tokens.regular: 6.0 is not a whole number"),
    (("sides", 0, "spice"), 10 ** 40, "sides[0].spice: 1"),
    (("sides", 0, "leader"), {"name": "X", "strength": 99}, "sides[0].leader.strength: 99 is not a whole number "
                                                            "0 to 10"),
    (("sides", 0, "hand"), ["lasgun", "lasgun"], "sides[0].hand: 2 x lasgun: the treachery deck holds 1"),
])
def test_g_1_gap_54_numbers_past_the_rules_limits_are_refused(path, value, needle):
    assert needle in error_of(variant(path, value))


def test_g_1_marked_tokens_follow_the_house():
    data = variant(("sides", 1, "house"), "emperor")
    data["sides"][1]["tokens"] = {"regular": 15, "elite": 5}
    parse_case(data)
    data["sides"][1]["tokens"] = {"regular": 16, "elite": 5}
    assert "sides[1].tokens.regular: 16 is not a whole number 0 to 15 (G-1: emperor owns 15 unmarked" in \
        error_of(data)


ZIARENKO = {
    "format": "dunenb.battle/1", "territory": "carthag", "defender": "harkonnen",
    "sides": [
        {"house": "harkonnen", "tokens": {"regular": 6}, "dial": {"regular": 3}, "leader": "piter",
         "weapon": None, "defense": None},
        {"house": "emperor", "tokens": {"regular": 5, "elite": 3}, "dial": {"regular": 3, "elite": 2, "spice": 2},
         "leader": "ziarenko", "weapon": None, "defense": None},
    ],
}


def test_emperor_l11_a_ziarenko_call_pays_10_in_a_case():
    """K-21, GAP-53: the Harkonnen hold Ziarenko as if on a slip; the Emperor receives 10 from the Bank."""
    (outcome,) = case_json(parse_case(ZIARENKO))["outcomes"]
    assert outcome["traitor_called_by"] == ["harkonnen"] and outcome["winner"] == "harkonnen"
    assert outcome["on_call"] == [{"power": "EMPEROR-L11-a", "house": "emperor", "spice": 10, "cards": 0,
                                   "from": None}]
    assert outcome["sides"]["harkonnen"]["bounty"] == 2  # TRAITOR-10: she survives (D-32)
    assert case_json(load_example_case("always_traitor_ziarenko"))["outcomes"][0]["on_call"][0]["spice"] == 10


def test_k_21_always_traitors_are_called_only_by_the_harkonnen_in_a_case():
    data = copy.deepcopy(ZIARENKO)
    data["sides"][0].update(house="atreides", leader="gurney")
    data["defender"] = "atreides"
    (outcome,) = case_json(parse_case(data))["outcomes"]
    assert outcome["traitor_called_by"] == [] and outcome["on_call"] == []
    data["sides"][0]["traitors"] = ["ziarenko"]  # an ordinary slip: a call, but no on-call effect
    (outcome,) = case_json(parse_case(data))["outcomes"]
    assert outcome["traitor_called_by"] == ["atreides"] and outcome["on_call"] == []


def test_k_21_yueh_and_wanna_are_always_harkonnen_traitors_in_a_case():
    wanna = [{"power": "BG-L10-b", "house": "bene-gesserit", "spice": 0, "cards": 3, "from": "harkonnen"}]
    for house, leader, on_call in (("atreides", "yueh", []), ("bene-gesserit", "wanna", wanna)):
        data = copy.deepcopy(ZIARENKO)
        data["sides"][1].update(house=house, leader=leader, tokens={"regular": 5}, dial={"regular": 3})
        outcomes = case_json(parse_case(data))["outcomes"]
        assert all(o["traitor_called_by"] == ["harkonnen"] and o["on_call"] == on_call for o in outcomes)
        assert len(outcomes) == (2 if leader == "yueh" else 1)  # ATREIDES-L09-b: Yueh's d10 at B7 (D-19)


def test_cli_refuses_float_dice_before_any_work(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "case.json"
    path.write_text(json.dumps(variant(("sides", 0, "dice"), [4.5])), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "dunenb.cli", "battle", str(path), "--json"],
                         capture_output=True, text=True)
    assert run.returncode != 0 and "sides[0].dice[0]: 4.5 is not a d10 result" in run.stderr


# ---- BG-L03-b (D-28, GAP-145): a leader the BG captured, stated in a case ------------------------------------
def _captive_case(bg_side):
    return {"format": "dunenb.battle/1", "territory": "mesa-molle", "defender": "atreides",
            "sides": [{"house": "atreides", "tokens": {"regular": 3}, "dial": {"regular": 1}, "leader": "paul"},
                      {"house": "bene-gesserit", "tokens": {"regular": 3}, "dial": {"regular": 1}, **bg_side}]}


def test_bg_l03_b_case_states_a_leader_lucille_captured_and_his_house_may_call_on_him():
    """D-28: Lucille's captive (a male non-main leader of another House) may lead for the BG; his own House may
    cry treachery on him (TRAITOR-13, GAP-35c with "BG" for "Harkonnen") unless the BG hold him as a traitor."""
    case = parse_case(_captive_case({"leader": "atreides:duncan-idaho", "captured": True}))
    assert "duncan-idaho" in case.sides[0].side.traitors  # FAQ 19: the Atreides recognise him
    assert [o.traitor_called_by for _p, o in case_json_outcomes(case)] == [("atreides",)]
    held = parse_case(_captive_case({"leader": "atreides:duncan-idaho", "captured": True,
                                     "traitors": ["atreides:duncan-idaho"]}))
    assert "duncan-idaho" not in held.sides[0].side.traitors  # TRAITOR-13 (2): the captor's own slip


@pytest.mark.parametrize(("side", "needle"), [
    ({"leader": "atreides:paul", "captured": True}, "never captures a main leader"),
    ({"leader": "atreides:jessica", "captured": True}, "only a male leader"),
    ({"leader": "atreides:duncan-idaho", "captured": True, "dead": ["lucille"]}, "lucille is dead"),
    ({"leader": "alia", "captured": True}, "roster leader of another House"),
])
def test_bg_l03_b_gap_145_case_refuses_a_captive_lucille_could_not_hold(side, needle):
    """D-28 (GAP-145): the BG's captive must be one BG-L03-b could have taken and Lucille must live; the error
    names the source and what it allows."""
    message = error_of(_captive_case(side))
    assert needle in message and ("BG-L03-b" in message or "house:id" in message), message


def test_bg_l03_b_case_a_house_with_no_capture_power_is_refused():
    message = error_of(variant(("sides", 0, "captured"), True))
    assert "atreides hold no capture power" in message and "harkonnen (HARKONNEN-P4)" in message
    assert "bene-gesserit (BG-L03-b)" in message


def case_json_outcomes(case):
    from dunenb.battle.case import case_outcomes

    return case_outcomes(case)


# ---- K-24 D02-d (GAP-134, GAP-146): where Logno's Weapon passed, stated in a case ---------------------------
def _weapon_side(**changes):
    side = {"house": "dispersion", "tokens": {"regular": 2, "elite": 3}, "dial": {"regular": 1, "elite": 3},
            "leader": "hellica", "dead": ["logno"], "passed": {"DISPERSION-L02-c": "hellica"}}
    side.update(changes)
    return {"format": "dunenb.battle/1", "territory": "mesa-molle", "defender": "atreides",
            "sides": [{"house": "atreides", "tokens": {"regular": 6}, "dial": {"regular": 4}, "leader": "paul"},
                      side]}


def test_dispersion_l02_d_case_the_heir_holds_the_weapon_and_logno_no_longer():
    """K-24 "for good": Hellica holds DISPERSION-L02-c (every Dispersion token worth 1, listed among the side's
    powers); Logno, alive again, no longer holds it; null says it is lost for good."""
    outcome = case_json(parse_case(_weapon_side()))["outcomes"][0]["sides"]["dispersion"]
    roster = case_json(parse_case(_weapon_side(passed={})))["outcomes"][0]["sides"]["dispersion"]
    assert "DISPERSION-L02-c" in outcome["powers"] and "DISPERSION-L02-c" not in roster["powers"]
    assert outcome["total"] == roster["total"] + 0.5  # the regular token dialled counts 1, not 1/2
    logno = parse_case(_weapon_side(leader="logno", dead=[]))
    assert "DISPERSION-L02-c" not in {power.id for power in logno.sides[1].plan.leader.powers}
    lost = parse_case(_weapon_side(leader="logno", dead=[], passed={"DISPERSION-L02-c": None}))
    assert "DISPERSION-L02-c" not in {power.id for power in lost.sides[1].plan.leader.powers}
    own = parse_case(_weapon_side(leader="logno", dead=[], passed={}))
    assert "DISPERSION-L02-c" in {power.id for power in own.sides[1].plan.leader.powers}


@pytest.mark.parametrize(("changes", "needle"), [
    ({"passed": {"DISPERSION-L02-c": "elpek"}}, "allowed heirs: dama, murbella, logno"),
    ({"passed": {"DISPERSION-L02-c": "logno"}}, "Logno is dead: at its holder's death"),
    ({"passed": {"DISPERSION-L02-b": "hellica"}}, "allowed: DISPERSION-L02-c"),
    ({"passed": ["hellica"]}, "must be an object"),
])
def test_dispersion_l02_d_case_refuses_a_weapon_no_heir_could_hold(changes, needle):
    message = error_of(_weapon_side(**changes))
    assert "passed" in message and needle in message, message
