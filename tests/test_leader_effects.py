"""Issue 11 item 1: the leaders.md K vocabulary parsed at load (data/leaders.json, format dunenb.leaders/2)."""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path

import pytest

from dunenb.battle.roster import load_roster, parse_roster
from dunenb.board import read_data_file
from dunenb.errors import RulesDataError
from dunenb.powers.leader_effects import KINDS, AllOf, AnyOf, WheelValue, Word, parse_condition

ROOT = Path(__file__).resolve().parent.parent


def _raw_with(power_id: str, effect: dict) -> dict:
    raw = copy.deepcopy(read_data_file("leaders.json"))
    for leader in raw["leaders"]:
        for power in leader["powers"]:
            if power["id"] == power_id:
                power["effect"] = effect
                return raw
    raise AssertionError(power_id)


def test_every_secondary_leader_power_has_a_parsed_effect_of_its_kind():
    powers = [p for leader in load_roster().leaders if not leader.main for p in leader.powers]
    assert len(powers) == 348
    assert all(p.effect is not None and p.effect.kind == p.kind and p.kind in KINDS for p in powers)
    stilgar = load_roster().find("Stilgar", house="fremen").powers[0]
    assert stilgar.effect == WheelValue("WHEEL_VALUE", Word("terrain", "desert"), 11)
    assert stilgar.text == "WHEEL_VALUE(11 | desert)"  # the text is kept


def test_the_shipped_data_is_what_the_spec_tables_give():
    spec = ROOT.parent / "shared" / "spec" / "leaders.md"
    if not spec.exists():
        pytest.skip("the spec is not beside this checkout")
    done = subprocess.run([sys.executable, "tools/leader_effects.py", "--check"], cwd=ROOT, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize(("effect", "message"), [
    ({"kind": "WHEEL_POWER", "value": 3}, "unknown effect kind 'WHEEL_POWER'"),
    ({"kind": "WHEEL_VALUE", "value": "eleven", "when": "desert"}, "value must be an integer"),
    ({"kind": "WHEEL_VALUE", "value": 11, "when": "marsh"}, "unknown condition word 'marsh'"),
    ({"kind": "WHEEL_MODIFIER", "delta": 1, "on": "ally"}, "on must be self, opponent or Vladimir"),
    ({"kind": "ARMY_BONUS", "amount": 2, "when": "opp Chani"}, "unknown condition word 'opp Chani'"),
    ({"kind": "IMMUNITY", "args": ["lasgun"]}, "IMMUNITY parameter 'lasgun'"),
    ({"kind": "WHEEL_VALUE", "value": 11, "colour": "red"}, "has no field ['colour']"),
], ids=["unknown-kind", "bad-parameter", "unknown-terrain", "bad-target", "unknown-opponent", "bad-word",
        "unknown-field"])
def test_a_bad_effect_is_a_load_error_naming_the_leader_and_the_entry(effect, message):
    with pytest.raises(RulesDataError) as caught:
        parse_roster(_raw_with("FREMEN-L01-a", effect))
    assert caught.value.code == "leaders/effect"
    assert "'stilgar' (fremen), power FREMEN-L01-a" in str(caught.value)
    assert message in str(caught.value)


def test_a_missing_effect_and_the_old_format_are_load_errors():
    raw = _raw_with("FREMEN-L01-a", {})
    for leader in raw["leaders"]:
        for power in leader["powers"]:
            if power["id"] == "FREMEN-L01-a":
                del power["effect"]
    with pytest.raises(RulesDataError, match="missing 'effect'"):
        parse_roster(raw)
    old = copy.deepcopy(read_data_file("leaders.json"))
    old["format"] = "dunenb.leaders/1"
    with pytest.raises(RulesDataError, match="dunenb.leaders/2"):
        parse_roster(old)


def test_conditions_combine_with_and_or_and_parentheses_and_carry_the_opp_context():
    paul_or_shaddam = AnyOf((Word("opp", "leader:paul"), Word("opp", "leader:shaddam-iv")))
    assert parse_condition("opp Paul ∨ Shaddam") == paul_or_shaddam
    assert parse_condition("Arsunt ∧ defender") == AllOf((Word("territory", "arsunt"), Word("role", "defender")))
    assert parse_condition("Léto I dead") == Word("dead", "leto-i")
    assert parse_condition("victim of Fremen") == Word("opp", "of:fremen")
    with pytest.raises(ValueError, match="unknown condition word 'male'"):
        parse_condition("male")  # a bare opponent word needs an earlier opp
