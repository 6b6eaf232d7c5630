"""The board data (MAP-1 to MAP-12; the layout itself is the GAP-1 design) and its validation."""

from __future__ import annotations

import copy

import pytest

from dunenb.board import load_board, parse_board, read_data_file
from dunenb.errors import RulesDataError

BOARD = load_board()
RAW = read_data_file("board.json")

# MAP-6, as the digest names them (articles dropped where the board's display name has none).
MAP6_NAMES = {
    "mountain": ["le Bouclier", "Mésa Molle", "la Faille Rouge", "Mur Sud", "Chaîne de Sihaya", "Chaîne de Habbanya"],
    "desert": [
        "Bassin du Bouclier", "Erg Majeur", "Mésa Maya", "Erg Mineur", "Bled des Sillons", "Dépression de Hiéreg",
        "Nord Ciélago", "Sud Ciélago", "Erg Sihaya", "Grande Etendue", "Erg Habbanya", "Plaine Funèbre",
        "Bassin de Tuono", "Bassin de Hagga", "Bassin Plastique", "Terre Brisée", "Bassin Impérial", "Erg de Tsimpo",
    ],
    "city": ["Arrakeen", "Carthag", "Arsunt"],
    "sietch": ["Grotte aux Oiseaux", "Gara Kulon", "Sietch Tarb"],
    "pole": ["Pôle Nord"],
}


def broken(edit) -> dict:
    """A deep copy of the shipped board JSON with one edit applied."""
    raw = copy.deepcopy(RAW)
    edit(raw)
    return raw


def entry(raw: dict, area_id: str) -> dict:
    return next(a for a in raw["areas"] if a["id"] == area_id)


def test_MAP_2_twenty_four_sectors_each_a_wedge_from_the_pole():
    assert BOARD.sector_count == 24
    covered = {s for a in BOARD.areas if a.kind != "pole" for s in a.sectors}
    assert covered == set(range(1, 25))
    assert BOARD.area("pole-nord").sectors == tuple(range(1, 25))  # MAP-3b: all sectors meet at the Pole
    for sector in range(1, 25):
        assert BOARD.areas_in_sector(sector), sector


def test_MAP_4_sector_one_holds_arrakeen():
    assert 1 in BOARD.area("arrakeen").sectors
    assert BOARD.area("arrakeen").kind == "city"


def test_MAP_6_thirty_one_areas_with_the_kind_counts():
    assert len(BOARD.areas) == 31
    counts = {kind: sum(1 for a in BOARD.areas if a.kind == kind) for kind in MAP6_NAMES}
    assert counts == {"mountain": 6, "desert": 18, "city": 3, "sietch": 3, "pole": 1}
    for kind, names in MAP6_NAMES.items():
        for name in names:
            try:
                area = BOARD.find_area(name)
            except RulesDataError:
                area = BOARD.find_area(name.split(" ", 1)[1])  # "le Bouclier" is "Le Bouclier" etc.
            assert area.kind == kind, name
    assert len(set(BOARD.area_ids)) == 31


def test_MAP_7_every_area_is_a_square_with_neighbours():
    for area in BOARD.areas:
        assert area.adjacent, area.id
        assert area.id not in area.adjacent


def test_MAP_8_twenty_four_start_positions():
    assert sorted(BOARD.start_positions) == list(range(1, 25))
    assert len(RAW["start_positions"]) == 24
    for position in RAW["start_positions"]:  # GAP-3: position k is the line between sectors k and k+1
        k = position["id"]
        assert position["between_sectors"] == [k, k % 24 + 1]


def test_MAP_9_arrakeen_is_one_square_from_the_shield_wall():
    assert BOARD.are_adjacent("arrakeen", "bouclier")
    assert BOARD.are_adjacent("bouclier", "arrakeen")
    assert BOARD.area("bouclier").kind == "mountain"


def test_MAP_10_each_spice_desert_has_its_diamond_in_one_of_its_sectors():
    for area in BOARD.areas:
        if area.kind == "desert":
            assert area.spice_sector in area.sectors, area.id
        else:
            assert area.spice_sector is None, area.id


def test_GAP_1_shipped_board_is_symmetric_connected_and_keeps_the_seed_facts():
    ids = set(BOARD.area_ids)
    for area in BOARD.areas:
        for other in area.adjacent:
            assert other in ids
            assert area.id in BOARD.area(other).adjacent, (area.id, other)
    seen, todo = {"arrakeen"}, ["arrakeen"]
    while todo:
        for other in BOARD.area(todo.pop()).adjacent:
            if other not in seen:
                seen.add(other)
                todo.append(other)
    assert seen == ids
    # the cities lie in the Shield Wall's lee; every Sietch lies beside a mountain range (L125)
    for city in ("arrakeen", "carthag", "arsunt"):
        assert BOARD.are_adjacent(city, "bouclier")
    for sietch in ("sietch-tarb", "gara-kulon", "grotte-aux-oiseaux"):
        assert any(BOARD.area(a).kind == "mountain" for a in BOARD.area(sietch).adjacent), sietch
    assert "GAP-1" in BOARD.source
    assert parse_board(copy.deepcopy(RAW)) == BOARD


def _asymmetric(raw):
    entry(raw, "pole-nord")["adjacent"].remove("arrakeen")


def _uncovered(raw):
    for area_id in ("plaine-funebre", "bassin-de-tuono", "erg-de-tsimpo"):
        entry(raw, area_id)["sectors"].remove(24)


def _disconnected(raw):
    for area_id in entry(raw, "erg-de-tsimpo")["adjacent"]:
        entry(raw, area_id)["adjacent"].remove("erg-de-tsimpo")
    entry(raw, "erg-de-tsimpo")["adjacent"] = []


def _kind_counts(raw):
    entry(raw, "erg-de-tsimpo")["kind"] = "mountain"


def _unknown_neighbour(raw):
    entry(raw, "arrakeen")["adjacent"].append("caladan")


def _arrakeen_not_sector_one(raw):
    entry(raw, "arrakeen")["sectors"] = [2]


def _shield_wall(raw):
    entry(raw, "arrakeen")["adjacent"].remove("bouclier")
    entry(raw, "bouclier")["adjacent"].remove("arrakeen")


def _start_positions(raw):
    raw["start_positions"].pop()


def _spice_sector(raw):
    entry(raw, "bassin-du-bouclier")["spice_sector"] = 12


def _sector_range(raw):
    entry(raw, "bassin-du-bouclier")["sectors"] = [6, 25]


def _sector_count(raw):
    raw["sectors"] = 18


def _duplicate(raw):
    entry(raw, "carthag")["id"] = "arrakeen"


def _bad_kind(raw):
    entry(raw, "carthag")["kind"] = "stronghold"


def _missing_field(raw):
    del entry(raw, "carthag")["sectors"]


def _format(raw):
    raw["format"] = "dunenb.board/0"


@pytest.mark.parametrize(("edit", "code"), [
    (_asymmetric, "board/asymmetric"),
    (_uncovered, "board/uncovered-sector"),
    (_disconnected, "board/disconnected"),
    (_kind_counts, "board/kind-counts"),
    (_unknown_neighbour, "board/adjacent-unknown"),
    (_arrakeen_not_sector_one, "board/arrakeen"),
    (_shield_wall, "board/shield-wall"),
    (_start_positions, "board/start-positions"),
    (_spice_sector, "board/spice-sector"),
    (_sector_range, "board/area-sectors"),
    (_sector_count, "board/sectors"),
    (_duplicate, "board/duplicate-area"),
    (_bad_kind, "board/kind"),
    (_missing_field, "board/area"),
    (_format, "board/format"),
], ids=lambda value: value if isinstance(value, str) else value.__name__.strip("_"))
def test_GAP_1_broken_board_is_rejected_with_a_code_naming_the_problem(edit, code):
    raw = broken(edit)
    with pytest.raises(RulesDataError) as info:
        parse_board(raw)
    assert info.value.code == code
    assert RAW != raw  # the shipped data itself was not touched


def test_GAP_1_board_names_are_found_case_and_accent_insensitively():
    assert BOARD.find_area("mesa maya").id == "mesa-maya"
    assert BOARD.find_area("PÔLE NORD").id == "pole-nord"
    with pytest.raises(RulesDataError) as info:
        BOARD.area("caladan")
    assert info.value.code == "board/unknown-area"


def test_issue14_data_files_read_without_importlib_resources_same_text():
    import json
    from importlib import resources

    import pytest

    from dunenb.errors import RulesDataError

    shipped = json.loads(resources.files("dunenb.data").joinpath("board.json").read_text(encoding="utf-8"))
    assert read_data_file("board.json") == shipped
    with pytest.raises(RulesDataError) as error:
        read_data_file("no-such-file.json")
    assert error.value.code == "data/missing"
