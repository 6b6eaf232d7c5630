"""One copy per character (leaders.md section 3, X-1 to X-6): the allocation and everything that must honour it."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys

import pytest
from helpers_game import play_setup

from dunenb.battle.characters import allocate, copy_in_play, leaders_in_game, load_characters
from dunenb.battle.roster import HOUSES, load_roster
from dunenb.engine import apply_action, current_player, new_game, sample_chance
from dunenb.errors import InputError
from dunenb.play import next_action
from dunenb.rules.battle_phase import eliminate
from dunenb.rules.traitors import traitor_pool
from dunenb.ruleset import load_ruleset

ROSTER = load_roster()
SPEC = {leader.spec_id: leader for leader in ROSTER.leaders}


def character_of() -> dict[tuple[str, str], str]:
    """(house, id) -> character name, for every copy of a cross-House character; others map to their key."""
    return {copy: character.name for character in load_characters() for copy in character.all_copies}


def ids_in_game(houses, house):
    return {leader.id for leader in leaders_in_game(house, houses)}


def test_characters_data_lists_the_21_characters_of_leaders_md_section_3():
    characters = load_characters()
    assert len(characters) == 21
    gurney = next(c for c in characters if c.name == "Gurney")
    assert gurney.copies == (("atreides", "gurney"), ("guild", "gurney"))
    teg = next(c for c in characters if c.name == "Miles Teg")
    assert teg.ghola == ("bene-tleilax", "miles-teg-ghola")


def test_x_1_the_seed_example_fremen_lose_five_copies_to_the_atreides_and_the_bg():
    """X-1: "with the Atreides and the BG in play, the Fremen lose F05, F06, F07, F11 and F12"."""
    houses = ["atreides", "bene-gesserit", "fremen"]
    lost = {SPEC[spec].id for spec in ("FREMEN-L05", "FREMEN-L06", "FREMEN-L07", "FREMEN-L11", "FREMEN-L12")}
    assert {lid for house, lid in allocate(houses).out_of_game if house == "fremen"} == lost
    assert len(leaders_in_game("fremen", houses)) == 13 - 5  # main leader + 7: "fewer than 12 leaders"


def test_x_1_the_first_house_in_play_on_the_precedence_list_keeps_the_copy():
    # Jessica: Atreides > BG > Fremen; Alia: Atreides > Fremen > BG
    assert "jessica" in ids_in_game(["bene-gesserit", "fremen"], "bene-gesserit")
    assert "jessica" not in ids_in_game(["bene-gesserit", "fremen"], "fremen")
    assert "alia" in ids_in_game(["bene-gesserit", "fremen"], "fremen")
    assert "alia" not in ids_in_game(["bene-gesserit", "fremen"], "bene-gesserit")
    assert "jessica" in ids_in_game(["fremen", "harkonnen"], "fremen")
    # Stilgar: Fremen > Dispersion
    assert "stilgar" in ids_in_game(["dispersion", "guild"], "dispersion")
    assert "stilgar" not in ids_in_game(["dispersion", "fremen"], "dispersion")


def test_x_1_out_of_game_copies_are_never_drawn_as_traitors():
    houses = ["atreides", "guild", "harkonnen"]
    state = play_setup(houses, stop_before="traitor-draw")
    pool = set(traitor_pool(state))
    assert ("guild", "gurney") not in pool and ("harkonnen", "yueh") not in pool
    assert ("atreides", "gurney") in pool and ("atreides", "yueh") in pool


def test_x_2_a_home_copy_always_plays_when_its_house_is_in_play():
    for size in (2, 3, 8):
        for houses in itertools.islice(itertools.combinations(HOUSES, size), 40):
            allocation = allocate(houses)
            for character in load_characters():
                home = character.copies[0]
                if home[0] in houses:
                    assert home not in allocation.out_of_game, (houses, character.name)


def test_x_3_a_tleilax_ghola_plays_only_when_no_real_copy_is_in_play():
    alone = ids_in_game(["bene-tleilax", "harkonnen"], "bene-tleilax")
    assert {"idaho-ghola", "miles-teg-ghola", "chani-ghola"} <= alone
    assert "idaho-ghola" not in ids_in_game(["bene-tleilax", "atreides"], "bene-tleilax")
    assert "miles-teg-ghola" not in ids_in_game(["bene-tleilax", "dispersion"], "bene-tleilax")  # D09 is real
    assert "chani-ghola" not in ids_in_game(["bene-tleilax", "fremen"], "bene-tleilax")
    assert "idaho-ghola" in ids_in_game(["bene-tleilax", "dispersion"], "bene-tleilax")


def test_x_3_the_atreides_idaho_ghola_never_starts_in_play():
    for houses in (["atreides", "harkonnen"], ["atreides", "bene-tleilax"], list(HOUSES)):
        assert "idaho-ghola" not in ids_in_game(houses, "atreides")
        state = new_game(houses, seed=1)
        assert "idaho-ghola" not in state.houses["atreides"].leaders


def test_x_3_x_4_the_allocation_is_judged_once_at_setup():
    """A real copy's death never brings the ghola in (D-18), an eliminated House's copies pass to nobody."""
    houses = ["atreides", "guild", "fremen", "bene-tleilax"]
    state = play_setup(houses)
    guild = state.houses["guild"].leaders
    assert "gurney" not in guild and "chani-ghola" not in state.houses["bene-tleilax"].leaders
    state = eliminate(state, "atreides")
    assert state.houses["guild"].leaders == guild  # Gurney G07 stays out
    fremen = state.houses["fremen"]
    assert "siona" not in fremen.leaders and "chani" in fremen.leaders
    # the allocation is a function of the line-up (config.houses), so nothing is redone
    assert allocate(state.config.houses) == allocate(houses)


def test_x_5_the_always_traitor_copies_exist_only_in_their_home_houses():
    for spec in ("EMPEROR-L11", "BG-L10", "ATREIDES-L09"):
        assert SPEC[spec].always_traitor_of == ("harkonnen",)
    for spec in ("HARKONNEN-L12", "HARKONNEN-L09", "HARKONNEN-L10"):
        assert SPEC[spec].always_traitor_of == () and SPEC[spec].on_traitor_call == ()
    # the home copy plays when its House does; the Harkonnen copy only without it
    assert "ziarenko" in ids_in_game(["harkonnen", "guild"], "harkonnen")
    assert "ziarenko" not in ids_in_game(["harkonnen", "emperor"], "harkonnen")


def test_x_6_a_name_names_the_copy_in_play():
    assert copy_in_play("Gurney", ["guild", "harkonnen"]).house == "guild"
    assert copy_in_play("Gurney", ["atreides", "guild"]).house == "atreides"
    assert copy_in_play("Jessica", ["fremen", "bene-gesserit"]).house == "bene-gesserit"
    with pytest.raises(InputError):
        copy_in_play("Gurney", ["harkonnen", "fremen"])


def test_x_1_eight_houses_no_character_twice_in_leaders_or_traitor_pool():
    """The 8-House game: no character is held twice at setup nor twice in the traitor pool (X-1)."""
    state = play_setup(list(HOUSES), stop_before="traitor-draw")
    key = character_of()
    held = [key.get((house, lid), f"{house}:{lid}") for house, hs in state.houses.items() for lid in hs.leaders]
    assert len(held) == len(set(held))
    pool = [key.get(ref, f"{ref[0]}:{ref[1]}") for ref in traitor_pool(state)]
    assert len(pool) == len(set(pool)) == 96 - len(allocate(HOUSES).out_of_game)


def test_x_1_eight_houses_no_battle_between_two_copies_of_one_character():
    """Random 8-House play to the end of turn 3: no two copies of a character are on the wheels together, no
    slip names a copy out of the game (formerly Stilgar fought Stilgar)."""
    key = character_of()
    out = allocate(HOUSES).out_of_game
    battles = 0
    for seed in (3, 11):
        state = new_game(list(HOUSES), seed=seed, turn_limit=3)
        while current_player(state) is not None:
            state = apply_action(state, next_action(state, seed=seed))
            revealed = [(e.data["house"], e.data["leader"]) for e in state.events if e.kind == "plan-revealed"]
            if revealed:
                people = [key.get(ref, f"{ref[0]}:{ref[1]}") for ref in revealed if ref[1] != "none"]
                assert len(set(people)) == len(people) and not set(revealed) & out
                battles += 1
        for hs in state.houses.values():
            assert not set(hs.traitors) & out
            assert not {(hs.house, lid) for lid in hs.leaders + hs.leader_tanks} & out
    assert battles > 0


def test_houses_json_main_leader_ids_are_the_roster_ids():
    for house in HOUSES:
        assert load_ruleset().house(house).main_leader == ROSTER.main_leader(house).id


def test_cli_rules_leaders_houses_shows_the_allocation():
    out = subprocess.run([sys.executable, "-m", "dunenb.cli", "rules", "leaders", "--houses", "atreides,guild",
                          "--json"], capture_output=True, text=True, check=True).stdout
    data = json.loads(out)
    assert {"leaders", "source", "note", "houses", "out_of_game"} <= set(data)
    assert data["houses"] == ["atreides", "guild"]
    assert {"house": "guild", "id": "gurney", "rule": "X-1", "instead": {"house": "atreides", "id": "gurney"}} \
        in data["out_of_game"]
    assert ("guild", "gurney") not in {(entry["house"], entry["id"]) for entry in data["leaders"]}
    assert len(data["leaders"]) == 2 * 13 - 2


def test_a_new_game_fields_only_the_leaders_in_play():
    state = new_game(["fremen", "dispersion", "bene-tleilax"], seed=0)
    assert "stilgar" not in state.houses["dispersion"].leaders
    assert "stilgar" in state.houses["fremen"].leaders
    assert "chani-ghola" not in state.houses["bene-tleilax"].leaders
    assert "scytale" not in state.houses["dispersion"].leaders
    assert sample_chance(state) is not None
