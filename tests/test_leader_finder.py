"""The leader finder of notebook 05 (issue 11 item 5): its answers come from the resolver's battle values and the
condition evaluator, not from the power texts."""

from __future__ import annotations

import pytest

from dunenb.analysis.leader_finder import facing, kills, power_rows, strong_in, terrain_values
from dunenb.battle.powers import battle_values
from dunenb.battle.roster import load_roster
from dunenb.errors import InputError


def test_strong_in_desert_reads_the_battle_values_stilgar_11_fremen_l01_a():
    rows = {(row.house_id, row.leader): row for row in strong_in("desert")}
    stilgar = rows["fremen", "Stilgar"]
    assert (stilgar.high, stilgar.elsewhere, stilgar.gain) == (11, 7, 4)
    assert "FREMEN-L01-a" in stilgar.powers
    # the same figure as the resolver gives for a desert battle
    leader = load_roster().find("Stilgar", house="fremen")
    values = battle_values(("fremen", ""), (leader, None), 1, territory="bassin-du-bouclier")
    assert values[0].leader_value == 11


def test_a_power_that_acts_everywhere_is_no_terrain_gain():
    """DISPERSION-L10-d (Stilgar 12 when attacking) holds in every terrain: it makes him strong, not strong in
    deserts."""
    assert ("dispersion", "Stilgar") not in {(row.house_id, row.leader) for row in strong_in("desert")}
    row = next(r for r in terrain_values("dispersion", ["desert"]) if r.leader == "Stilgar")
    assert row.high == row.elsewhere == 12 and row.gain == 0


def test_every_leader_strong_in_a_terrain_gains_there():
    for terrain in ("desert", "mountain", "city", "sietch", "pole"):
        for row in strong_in(terrain):
            assert row.high > row.elsewhere and row.powers, row


def test_who_kills_vladimir_alia_atreides_l06_c_and_yueh_d10():
    found = {row.leader: row.kill for row in kills("Vladimir")}
    assert found == {"Alia": "ATREIDES-L06-c", "Yueh": "ATREIDES-L09-b"}


def test_against_paul_chani_is_disarmed_and_hasimir_lowers_paul():
    rows = {(row.house_id, row.leader): row for row in facing("Paul")}
    chani = rows["fremen", "Chani"]
    assert chani.own_change < 0 and "FREMEN-L02-d" in chani.powers  # DISARM on self against Paul
    hasimir = rows["emperor", "Hasimir"]
    assert (hasimir.own_change, hasimir.target_change) == (0, -3) and "EMPEROR-L01-a" in hasimir.powers
    assert all(row.house_id != "atreides" for row in rows.values())  # his own House does not fight him


def test_power_rows_filter_by_house_kind_and_words():
    fremen_values = power_rows("fremen", kind="K-1")
    assert fremen_values and all(r.house_id == "fremen" and r.kind == "K-1 WHEEL_VALUE" for r in fremen_values)
    assert power_rows(kind="WHEEL_VALUE") == power_rows(kind="K-1")
    poison = power_rows(words="poison")
    assert poison and all("poison" in (r.words + r.notation).lower() for r in poison)
    assert len(power_rows()) == 348  # every secondary leader power of leaders.md


@pytest.mark.parametrize("call, word", [
    (lambda: strong_in("marsh"), "desert, mountain"),
    (lambda: power_rows("corrino"), "atreides"),
    (lambda: power_rows(kind="K-99"), "K-1..K-25"),
    (lambda: facing("Nobody"), "unknown leader"),
])
def test_bad_questions_name_what_is_allowed(call, word):
    with pytest.raises(InputError) as error:
        call()
    assert word in str(error.value)


def test_the_finder_widget_filters_and_draws_a_titled_chart():
    from dunenb.widgets.leader_finder import LeaderFinder

    finder = LeaderFinder()
    finder.words.value = "poison"
    assert "poison" in finder.powers_html.value.lower() and "FREMEN-L01-a" not in finder.powers_html.value
    finder.terrain.value = "mountain"
    figure = finder.chart.children[0]
    assert "mountain" in figure.title
    assert {axis.label for axis in figure.axes} == {"leader", "wheel value"}
    labels = figure.marks[0].x
    assert len(set(labels)) == len(labels)  # one bar row per leader, names with their House
    assert int(figure.layout.height.removesuffix("px")) >= 28 * len(labels)  # room for every label
    finder.target.value = "harkonnen:vladimir"
    assert "ATREIDES-L06-c" in finder.facing_html.value
