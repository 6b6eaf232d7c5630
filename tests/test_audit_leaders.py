"""Independent audit of the secondary leaders' battle powers (issue 11), played through ``dunenb battle --json``.

Each test writes the battle case its spec line describes (leaders.md §2, LC-6, LC-8, K-9, K-15), runs the public
CLI on it and reads the README's output format: per side ``total``, ``leader``, ``bounty`` and ``powers`` (the IDs
of the side's powers that changed a value in this outcome, GAP-147).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from dunenb.battle.case import parse_case
from dunenb.battle.cli import register
from dunenb.errors import InputError

WEAK = {"name": "Opponent", "strength": 3}


def side(house: str, leader: object, **fields: object) -> dict[str, object]:
    """A case side with 5 unmarked tokens, all dialled with no spice, and no cards unless ``fields`` say so."""
    data: dict[str, object] = {"house": house, "tokens": {"regular": 5, "elite": 0},
                               "dial": {"regular": 5, "elite": 0, "spice": 0},
                               "leader": leader, "weapon": None, "defense": None}
    data.update(fields)
    return data


def battle(tmp_path: Path, capsys: pytest.CaptureFixture[str], territory: str, defender: str,
           first: dict[str, object], second: dict[str, object]) -> list[dict]:
    """The outcomes ``dunenb battle CASE.json --json`` prints for this case."""
    path = tmp_path / "case.json"
    path.write_text(json.dumps({"format": "dunenb.battle/1", "territory": territory, "defender": defender,
                                "sides": [first, second]}), encoding="utf-8")
    parser = argparse.ArgumentParser(prog="dunenb")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["battle", str(path), "--json"])
    assert args.func(args) == 0
    return json.loads(capsys.readouterr().out)["outcomes"]


def test_fremen_l01_a_stilgar_killed_in_a_desert_reports_only_his_troops(tmp_path, capsys):
    """F01-a WHEEL_VALUE(11 | desert): a lasgun kills Stilgar in the Erg Majeur; he is worth 0 (LC-6), so only
    F01-b (his 5 tokens count 1 each: 5) acted; alive he is 11 and both are listed (README's example)."""
    (dead,) = battle(tmp_path, capsys, "erg-majeur", "fremen", side("fremen", "stilgar"),
                     side("harkonnen", WEAK, weapon="lasgun"))
    fremen = dead["sides"]["fremen"]
    assert (fremen["leader"], fremen["total"], fremen["powers"]) == ("dead", 5, ["FREMEN-L01-b"])
    assert dead["sides"]["harkonnen"]["bounty"] == 7  # his base strength (GAP-28a)
    (alive,) = battle(tmp_path, capsys, "erg-majeur", "fremen", side("fremen", "stilgar"),
                      side("harkonnen", WEAK))
    assert alive["sides"]["fremen"]["total"] == 11 + 5
    assert alive["sides"]["fremen"]["powers"] == ["FREMEN-L01-a", "FREMEN-L01-b"]


def test_emperor_l02_b_tyekanik_dead_on_the_branch_where_his_worn_shield_fails(tmp_path, capsys):
    """E02-b WHEEL_VALUE(10 | desert+mountain) and E02-d worn shield d10 <= 7: against a distance projectile he
    lives with 10 on 7 faces in 10 and dies on 3; on the dead branch E02-b changed nothing, E02-a (tokens) did."""
    outcomes = battle(tmp_path, capsys, "erg-majeur", "emperor", side("emperor", "tyekanik"),
                      side("atreides", "duncan-idaho", weapon="projectile-distance"))
    by_fate = {o["sides"]["emperor"]["leader"]: o for o in outcomes}
    assert by_fate["alive"]["probability"] == pytest.approx(0.7)
    assert by_fate["alive"]["sides"]["emperor"]["powers"] == ["EMPEROR-L02-b", "EMPEROR-L02-a", "EMPEROR-L02-d"]
    assert by_fate["dead"]["probability"] == pytest.approx(0.3)
    assert by_fate["dead"]["sides"]["emperor"]["powers"] == ["EMPEROR-L02-a"]


def test_emperor_l01_a_the_minus_3_on_a_killed_paul_is_not_reported(tmp_path, capsys):
    """E01-a WHEEL_MODIFIER(-3 on opponent | opp Paul), listed on Hasimir's side: it lowers a living Paul from 8
    to 5, but when Hasimir's lasgun kills Paul it changed nothing; E01-c's x2 bounty (16) did."""
    (alive,) = battle(tmp_path, capsys, "arrakeen", "emperor", side("emperor", "hasimir"),
                      side("atreides", "paul"))
    assert alive["sides"]["atreides"]["total"] == 5 + 2.5
    assert alive["sides"]["emperor"]["powers"] == ["EMPEROR-L01-a"]
    (killed,) = battle(tmp_path, capsys, "arrakeen", "emperor", side("emperor", "hasimir", weapon="lasgun"),
                       side("atreides", "paul"))
    assert killed["sides"]["emperor"]["bounty"] == 16
    assert killed["sides"]["emperor"]["powers"] == ["EMPEROR-L01-c"]


def test_atreides_l02_a_harkonnen_m3_nothing_reported_for_a_dead_vladimir_or_duncan(tmp_path, capsys):
    """A02-a WHEEL_VALUE(8 | vs Harkonnen) and HARKONNEN-M3 (the minions' bonus): each leader killed on the wheel
    is worth 0, so neither entry is listed for him; Alia's A06-c KILL of Vladimir is."""
    (duncan,) = battle(tmp_path, capsys, "carthag", "harkonnen", side("harkonnen", "feyd-rautha", weapon="lasgun"),
                       side("atreides", "duncan-idaho"))
    assert duncan["sides"]["atreides"]["leader"] == "dead"
    assert duncan["sides"]["atreides"]["powers"] == []
    (vladimir,) = battle(tmp_path, capsys, "arrakeen", "atreides", side("atreides", "alia"),
                         side("harkonnen", "vladimir", defense="shield"))
    assert vladimir["sides"]["harkonnen"]["leader"] == "dead"
    assert vladimir["sides"]["harkonnen"]["powers"] == []
    assert vladimir["sides"]["atreides"]["powers"] == ["ATREIDES-L06-c"]


def test_guild_l08_b_gap_147_doubling_ziarenkos_zero_bounty_changes_nothing(tmp_path, capsys):
    """G08-b BOUNTY(x2) against H12-d BOUNTY(victim_fixed 0): LC-8 sets 0 first, then doubles it: 0. Only the
    victim's entry changed the bounty (GAP-147); G07-d's +3 after it pays 3 and is listed."""
    (doubled,) = battle(tmp_path, capsys, "arrakeen", "guild", side("guild", "hasimir", weapon="lasgun"),
                        side("harkonnen", "ziarenko"))
    assert doubled["sides"]["guild"]["bounty"] == 0
    assert "GUILD-L08-b" not in doubled["sides"]["guild"]["powers"]
    assert doubled["sides"]["harkonnen"]["powers"] == ["HARKONNEN-L12-d"]
    (added,) = battle(tmp_path, capsys, "arrakeen", "guild", side("guild", "gurney", weapon="lasgun"),
                      side("harkonnen", "ziarenko"))
    assert added["sides"]["guild"]["bounty"] == 3
    assert "GUILD-L07-d" in added["sides"]["guild"]["powers"]


def test_guild_l01_d_edrics_worthless_karama_that_voids_a_treachery_is_reported(tmp_path, capsys):
    """G01-d worthless_is_karama: on Edric's wheel a Guild worthless card stands as a Karama and voids the
    Harkonnen's call on Edric (KARAMA-45); that changed the battle, so G01-d is listed on the Guild's side.
    A real Karama voids it too, with no leader power to report."""
    (voided,) = battle(tmp_path, capsys, "arrakeen", "harkonnen",
                       side("harkonnen", WEAK, traitors=["edric"]), side("guild", "edric", karama="worthless"))
    assert voided["traitor_called_by"] == []
    assert voided["winner"] == "guild"
    assert voided["sides"]["guild"]["powers"] == ["GUILD-L01-d"]
    (karama,) = battle(tmp_path, capsys, "arrakeen", "harkonnen",
                       side("harkonnen", WEAK, traitors=["edric"]), side("guild", "edric", karama="karama"))
    assert karama["traitor_called_by"] == []
    assert karama["sides"]["guild"]["powers"] == []


def refusal(territory: str, defender: str, first: dict[str, object], second: dict[str, object]) -> str:
    """The message a case is refused with (the CLI prints the same, exit status 2)."""
    with pytest.raises(InputError) as caught:
        parse_case({"format": "dunenb.battle/1", "territory": territory, "defender": defender,
                    "sides": [first, second]})
    return str(caught.value)


def test_atreides_l06_d_gom_jabbar_alone_with_a_shield_goes_in_extra_attack(tmp_path, capsys):
    """A06-d BUILTIN_WEAPON(fast poison "Gom Jabbar", extra_no_defence): alone, a defence is allowed; the case
    writes it in extra_attack with no attack card, and it kills a leader without a snooper. Put in `weapon`, the
    refusal says where it goes."""
    (outcome,) = battle(tmp_path, capsys, "arrakeen", "atreides",
                        side("atreides", "alia", extra_attack="gom-jabbar", defense="shield"),
                        side("harkonnen", WEAK))
    assert outcome["sides"]["harkonnen"]["leader"] == "dead"
    assert outcome["sides"]["atreides"]["powers"] == ["ATREIDES-L06-d"]
    message = refusal("arrakeen", "atreides", side("atreides", "alia", weapon="gom-jabbar", defense="shield"),
                      side("harkonnen", WEAK))
    assert "extra_attack" in message


def test_harkonnen_l10_c_yuehs_poison_needs_its_b1_roll_and_the_refusal_says_so(tmp_path, capsys):
    """H10-c BUILTIN_WEAPON(slow poison, in_slot | d10<=2 at B1), D-31: with b1_rolls 2 he carries it and kills a
    leader without a snooper; with 3 (or no roll) the case is refused, naming b1_rolls and the bound."""
    (outcome,) = battle(tmp_path, capsys, "carthag", "harkonnen",
                        side("harkonnen", "yueh", weapon="poison-slow-built-in", b1_rolls={"HARKONNEN-L10-c": 2}),
                        side("emperor", WEAK))
    assert outcome["sides"]["emperor"]["leader"] == "dead"
    assert outcome["sides"]["harkonnen"]["powers"] == ["HARKONNEN-L10-c"]
    message = refusal("carthag", "harkonnen",
                      side("harkonnen", "yueh", weapon="poison-slow-built-in", b1_rolls={"HARKONNEN-L10-c": 3}),
                      side("emperor", WEAK))
    assert "b1_rolls HARKONNEN-L10-c <= 2" in message


def test_fremen_l01_b_a_game_reports_the_same_powers_as_the_case_for_a_killed_stilgar():
    """The game's battle-powers event names the same IDs as the case's per-side ``powers`` (README): Stilgar,
    killed by a lasgun in the Bassin du Bouclier (a desert), reports F01-b only; the Harkonnen kill him."""
    import dataclasses

    from helpers_game import clear_map, give_cards, place, play_battle, quiet_setup, set_storms, skip_pre_battle

    from dunenb.rules.battle_phase import SubmitPlan, begin_phase

    houses = ["fremen", "harkonnen"]
    state = clear_map(set_storms(quiet_setup(houses), main=1))
    for house in houses:
        hs = state.houses[house]
        state = dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(hs, hand=(),
                                                                                          traitors=())),
                                    treachery_discard=state.treachery_discard + hs.hand)
        state = place(state, house, "bassin-du-bouclier", 6, 5)
    state = give_cards(state, "harkonnen", "lasgun")
    state = dataclasses.replace(state, events=(), storm_dialers=("fremen", "harkonnen"))
    plans = {"fremen": SubmitPlan("fremen", "stilgar", 3, 0, 0, "none", "none"),
             "harkonnen": SubmitPlan("harkonnen", "feyd-rautha", 3, 0, 0, "lasgun", "none")}
    passed = ("leader-pre-battle", "leader-buy-off", "leader-alliance", "leader-special", "battle-voice",
              "battle-prescience")
    state = play_battle(skip_pre_battle(begin_phase(state)), plans, through=passed)
    assert "stilgar" in state.houses["fremen"].leader_tanks
    reported = {e.data["house"]: list(e.data["powers"]) for e in state.events if e.kind == "battle-powers"}
    assert reported["fremen"] == ["FREMEN-L01-b"]


def test_guild_l06_c_olmric_asks_in_arrakeen_only_and_the_refusal_names_his_entry(tmp_path, capsys):
    """G06-c PRESCIENCE(either | Arrakeen): attacked in Arrakeen (no GUILD-M2), the Guild's one question is
    Olmric's, and the answer binds Duncan's wheel; in Carthag the question is refused, naming G06-c."""
    def case(territory: str, answer: str) -> dict[str, object]:
        return {"format": "dunenb.battle/1", "territory": territory, "defender": "atreides",
                "prescience": {"by": "guild", "slot": "attack", "answer": answer},
                "sides": [side("atreides", "duncan-idaho", weapon="lasgun"), side("guild", "olmric")]}

    (outcome,) = _cli_outcomes(tmp_path, capsys, case("arrakeen", "lasgun"))
    assert outcome["sides"]["guild"]["leader"] == "dead"
    with pytest.raises(InputError, match="the prescience answer was none"):
        parse_case(case("arrakeen", "none"))
    with pytest.raises(InputError, match="GUILD-L06-c"):
        parse_case(case("carthag", "lasgun"))


def test_guild_l05_d_gap_148_tolrics_blast_is_stopped_by_an_acting_worn_shield(tmp_path, capsys):
    """G05-d blast: Leto I's lasgun kills Tolric, whose blast (a distance projectile) hits Leto I; LC-7: a worn
    shield that acts (A08-a, d10 <= 4) stops it as a Shield card would: he lives on 4 faces in 10 (GAP-148)."""
    outcomes = battle(tmp_path, capsys, "arrakeen", "atreides", side("atreides", "leto-i", weapon="lasgun"),
                      side("guild", "tolric"))
    alive = [o for o in outcomes if o["sides"]["atreides"]["leader"] == "alive"]
    assert sum(o["probability"] for o in alive) == pytest.approx(0.4)
    assert all("ATREIDES-L08-a" in o["sides"]["atreides"]["powers"] for o in alive)
    assert all(o["sides"]["guild"]["powers"] == ["GUILD-L05-d"] for o in outcomes if o not in alive)


def test_atreides_l12_c_miles_teg_is_immune_to_tolrics_blast(tmp_path, capsys):
    """A12-c IMMUNITY(all_but_lasgun_atomics), D-33: only a lasgun, Atomics, the explosion or a KILL kill Miles
    Teg; Tolric's blast is a distance projectile, so Teg, dialling nothing (A12-a), lives and wins."""
    (outcome,) = battle(tmp_path, capsys, "arrakeen", "atreides",
                        side("atreides", "miles-teg", weapon="lasgun", dial={"regular": 0, "elite": 0, "spice": 0}),
                        side("guild", "tolric"))
    atreides = outcome["sides"]["atreides"]
    assert (atreides["leader"], outcome["winner"], atreides["powers"]) == ("alive", "atreides", ["ATREIDES-L12-c"])


def test_guild_l05_d_the_blast_is_not_listed_when_the_attacks_already_killed(tmp_path, capsys):
    """G05-d: both lasguns kill both leaders; Tolric's blast changed nothing, so it is not among the Guild's
    powers (GAP-147); against a leader who lives through the cards, it kills and is listed."""
    (both,) = battle(tmp_path, capsys, "arrakeen", "harkonnen", side("harkonnen", WEAK, weapon="lasgun"),
                     side("guild", "tolric", weapon="lasgun"))
    assert both["sides"]["guild"]["powers"] == []
    (blast,) = battle(tmp_path, capsys, "arrakeen", "harkonnen", side("harkonnen", WEAK, weapon="lasgun"),
                      side("guild", "tolric"))
    assert blast["sides"]["harkonnen"]["leader"] == "dead"
    assert blast["sides"]["guild"]["powers"] == ["GUILD-L05-d"]


def test_atreides_l04_a_leto_ii_answers_immune_and_the_refusal_says_so(tmp_path, capsys):
    """A04-a IMMUNITY(voice, prescience): the Guild, defending, asks about Leto II's attack (GUILD-M2); his side's
    only answer is 'immune', which binds nothing (his slow poison is not named); any other answer is refused,
    and the refusal tells the tester to state 'immune' rather than to change the plan."""
    def case(answer: str) -> dict[str, object]:
        return {"format": "dunenb.battle/1", "territory": "arrakeen", "defender": "guild",
                "prescience": {"by": "guild", "slot": "attack", "answer": answer},
                "sides": [side("guild", WEAK), side("atreides", "leto-ii", weapon="poison-slow")]}

    with pytest.raises(InputError, match="state the answer 'immune'"):
        parse_case(case("none"))
    (outcome,) = _cli_outcomes(tmp_path, capsys, case("immune"))
    assert outcome["sides"]["guild"]["leader"] == "dead"


def _cli_outcomes(tmp_path, capsys, raw: dict[str, object]) -> list[dict[str, object]]:
    """The outcomes ``dunenb battle CASE --json`` prints for the case ``raw`` (written to a file, as a tester would)."""
    path = tmp_path / "case.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    parser = argparse.ArgumentParser(prog="dunenb")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["battle", str(path), "--json"])
    assert args.func(args) == 0
    return json.loads(capsys.readouterr().out)["outcomes"]
