"""Battle cases: one reading of the Karama uses a case states (issue 10 item 1: ``karama_uses`` and a side's
``blocked``, GAP-137, dunenb.battle.case_karama) and KARAMA-50 off the wheel against a minion of Vladimir (issue 11,
leaders.md LC-11 c, HARKONNEN-M3, GAP-136)."""

from __future__ import annotations

import pytest

from dunenb.analysis.battle_odds import plan_matrix
from dunenb.battle.case import case_outcomes, parse_case
from dunenb.errors import InputError

VLADIMIR = {"house": "harkonnen", "tokens": {"regular": 5}, "dial": {"regular": 2}, "leader": "vladimir"}
FOE = {"house": "atreides", "tokens": {"regular": 5}, "dial": {"regular": 2},
       "leader": {"name": "Any Name", "strength": 5}}


def _case(first=VLADIMIR, second=FOE, **top):
    return {"format": "dunenb.battle/1", "territory": "carthag", "defender": first["house"],
            "sides": [first, second], **top}


def _total(raw, house="harkonnen"):
    ((probability, outcome),) = case_outcomes(parse_case(raw))
    assert probability == 1
    return float(outcome.side(house).total)


def _error(raw):
    with pytest.raises(InputError) as info:
        parse_case(raw)
    return str(info.value)


def test_karama_50_off_the_wheel_voids_one_minion_s_bonus_to_vladimir():
    """LC-11 c, GAP-125/GAP-136: 'the minion's bonus in one battle of Vladimir'; the other minions still count."""
    assert _total(_case()) == 1 + 4 + 3 + 2 + 1
    voided = _case(karama_uses=[{"use": "KARAMA-50", "leader": "iakin-nefud"}])
    assert _total(voided) == 1 + 4 + 2 + 1
    case = parse_case(voided)
    assert "HARKONNEN-L05-a" in case.sides[0].side.blocked and not case.sides[1].side.blocked
    assert [use.to_json() for use in case.karama_uses] == [{"use": "KARAMA-50", "leader": "iakin-nefud"}]


def test_karama_50_off_the_wheel_by_name_and_twice():
    raw = _case(karama_uses=[{"use": "karama-50", "leader": "Iliako"}, {"use": "KARAMA-50", "leader": "yhekem"}])
    assert _total(raw) == 1 + 4 + 3


def test_karama_50_off_the_wheel_is_refused_where_no_bonus_applies():
    """GAP-136: off the wheels only a leader whose effect applies in this battle; the errors name the choices."""
    assert "iakin-nefud, iliako, yhekem" in _error(_case(karama_uses=["KARAMA-50"]))
    dead = dict(VLADIMIR, dead=["iakin-nefud"])
    assert "allowed: iliako, yhekem" in _error(_case(dead, karama_uses=[{"use": "KARAMA-50", "leader": "iakin-nefud"}]))
    feyd = dict(VLADIMIR, leader="feyd-rautha")  # Vladimir does not lead: no minion's bonus applies
    assert "allowed: feyd-rautha" in _error(_case(feyd, karama_uses=[{"use": "KARAMA-50", "leader": "iliako"}]))
    assert "the main leader" in _error(_case(karama_uses=[{"use": "KARAMA-50", "leader": "vladimir"}]))
    assert "only the LC-11 uses" in _error(_case(karama_uses=[{"use": "KARAMA-42", "leader": "paul"}]))
    assert "unknown field" in _error(_case(karama_uses=[{"use": "KARAMA-50", "who": "iliako"}]))


def test_karama_50_off_the_wheel_reaches_the_analyzer():
    """The plan matrix reads the same blocked powers (the one reading of the case)."""
    plain = plan_matrix(parse_case(_case()))
    voided = plan_matrix(parse_case(_case(karama_uses=[{"use": "KARAMA-50", "leader": "iakin-nefud"}])))
    assert (voided.array("win_first") <= plain.array("win_first")).all()  # Vladimir (first side) is weaker
    assert (voided.array("win_first") < plain.array("win_first")).any()


def test_karama_50_on_the_wheel_still_voids_the_secondary_leader_leading():
    feyd = dict(VLADIMIR, leader="feyd-rautha")
    assert _total(_case(feyd, karama_uses=["KARAMA-50"])) == _total(
        _case(feyd, karama_uses=[{"use": "KARAMA-50", "leader": "feyd-rautha"}]))


def test_GAP_137_a_side_s_blocked_is_an_alias_of_karama_uses():
    waff = {"house": "bene-tleilax", "tokens": {"regular": 5}, "dial": {"regular": 2}, "leader": "waff"}
    per_side = parse_case(_case(FOE, dict(waff, blocked=["KARAMA-37"])))
    top = parse_case(_case(FOE, waff, karama_uses=["KARAMA-37"]))
    assert per_side.sides[1].side.blocked == top.sides[1].side.blocked == frozenset({"TLEILAX-M1"})
    assert case_outcomes(per_side) == case_outcomes(top)
    # the LC-11 uses and the named form go under the side they block, too
    minion = parse_case(_case(dict(VLADIMIR, blocked=[{"use": "KARAMA-50", "leader": "iakin-nefud"}])))
    assert minion.sides[0].side.blocked == parse_case(
        _case(karama_uses=[{"use": "KARAMA-50", "leader": "iakin-nefud"}])).sides[0].side.blocked


def test_GAP_137_blocked_refuses_a_use_against_the_other_side():
    waff = {"house": "bene-tleilax", "tokens": {"regular": 5}, "dial": {"regular": 2}, "leader": "waff"}
    assert "not one of atreides's" in _error(_case(dict(FOE, blocked=["KARAMA-37"]), waff))
    assert "is not a Karama use; allowed: KARAMA-21" in _error(_case(FOE, dict(waff, blocked=["KARAMA-99"])))


def test_GAP_137_a_game_s_karama_uses_in_force_become_the_case_s_karama_uses():
    """The replay browser rebuilds a game's battle as a case: the suppressions in force there are read back as
    karama_uses items (dunenb.battle.case_karama.uses_in_force), those a case can state, so that the case's blocked
    powers are the game's."""
    from dunenb.battle.case_karama import uses_in_force
    from dunenb.battle.roster import load_roster

    roster = load_roster()
    vladimir, duncan = roster.find("Vladimir"), roster.find("Duncan Idaho", house="atreides")
    suppressed = [("KARAMA-50", "HARKONNEN-L05-a"), ("KARAMA-50", "HARKONNEN-L05-b"),  # Iakin Nefud, voided
                  ("KARAMA-42", "ATREIDES-M1"), ("KARAMA-16", "GUILD-P3"),  # the Guild is not in this battle
                  ("KARAMA-44", "ATREIDES-L02-a")]  # Duncan's own, on the wheel
    items = uses_in_force(suppressed, ("harkonnen", "atreides"), (vladimir, duncan), defender=0,
                          territory="carthag")
    assert items == [{"use": "KARAMA-50", "leader": "iakin-nefud"}, "KARAMA-42",
                     {"use": "KARAMA-44", "leader": "duncan-idaho"}]
    raw = _case(VLADIMIR, dict(FOE, leader="duncan-idaho"), karama_uses=items)
    case = parse_case(raw)
    assert "HARKONNEN-L05-a" in case.sides[0].side.blocked and "ATREIDES-M1" in case.sides[1].side.blocked
