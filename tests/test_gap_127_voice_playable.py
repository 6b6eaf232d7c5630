"""GAP-127: a Voice forcing a kind binds only a plan whose hand holds such a card its leader may play (FAQ 12, L753).

Tyekanik (EMPEROR-L02, K-8) wears a shield and may add no Shield card (GAP-91): a Voice forcing a shield cannot
bind him, even with a Shield card in the hand; another Emperor leader holding one must play it.
"""

from __future__ import annotations

import pytest

from dunenb.battle.case import parse_case
from dunenb.errors import DuneError


def _case(leader: str, defense: str | None) -> dict:
    emperor = {"house": "emperor", "tokens": {"regular": 5}, "dial": {"regular": 1}, "leader": leader,
               "weapon": None, "defense": defense, "hand": ["shield"]}
    bg = {"house": "bene-gesserit", "tokens": {"regular": 5}, "dial": {"regular": 1}, "leader": "alma",
          "weapon": None, "defense": None}
    return {"format": "dunenb.battle/1", "territory": "gara-kulon", "defender": "bene-gesserit",
            "voice": {"by": "bene-gesserit", "mode": "force", "kind": "shield"}, "sides": [bg, emperor]}


def test_gap_127_a_voice_cannot_force_a_shield_on_tyekanik_who_may_not_add_one():
    assert parse_case(_case("tyekanik", None)).sides[1].plan.defense is None


def test_gap_127_another_leader_holding_a_shield_must_obey():
    with pytest.raises(DuneError) as refused:
        parse_case(_case("burseg", None))
    assert "the Voice forced shield" in str(refused.value)
    assert parse_case(_case("burseg", "shield")).sides[1].plan.defense == "shield"
