"""Regenerate data/board.json from the layout below (GAP-1: the seed's board is lost; this is a design).

The board is a polar grid: the North Pole at the centre, then three rings; every area is one ring and a
run of consecutive sectors. Adjacency is derived from the geometry (shared edges), so it is symmetric
and consistent with the drawing. Run: ``python tools/make_board.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

SECTORS = 24
RINGS = {"pole": (0.0, 0.14), "inner": (0.14, 0.40), "middle": (0.40, 0.68), "outer": (0.68, 1.0)}
RING_ORDER = ["pole", "inner", "middle", "outer"]

# (id, display name, kind, ring, first sector, span)
LAYOUT = [
    ("pole-nord", "Pôle Nord", "pole", "pole", 1, 24),
    ("arrakeen", "Arrakeen", "city", "inner", 1, 1),
    ("bassin-imperial", "Bassin Impérial", "desert", "inner", 2, 2),
    ("carthag", "Carthag", "city", "inner", 4, 1),
    ("arsunt", "Arsunt", "city", "inner", 5, 1),
    ("erg-mineur", "Erg Mineur", "desert", "inner", 6, 3),
    ("mesa-maya", "Mésa Maya", "desert", "inner", 9, 3),
    ("sietch-tarb", "Sietch Tarb", "sietch", "inner", 12, 1),
    ("nord-cielago", "Nord Ciélago", "desert", "inner", 13, 3),
    ("grande-etendue", "Grande Etendue", "desert", "inner", 16, 4),
    ("gara-kulon", "Gara Kulon", "sietch", "inner", 20, 1),
    ("bled-des-sillons", "Bled des Sillons", "desert", "inner", 21, 2),
    ("plaine-funebre", "Plaine Funèbre", "desert", "inner", 23, 2),
    ("bouclier", "Le Bouclier", "mountain", "middle", 1, 5),
    ("bassin-du-bouclier", "Bassin du Bouclier", "desert", "middle", 6, 2),
    ("mesa-molle", "Mésa Molle", "mountain", "middle", 8, 2),
    ("erg-majeur", "Erg Majeur", "desert", "middle", 10, 2),
    ("mur-sud", "Mur Sud", "mountain", "middle", 12, 2),
    ("sud-cielago", "Sud Ciélago", "desert", "middle", 14, 3),
    ("erg-sihaya", "Erg Sihaya", "desert", "middle", 17, 2),
    ("chaine-de-sihaya", "Chaîne de Sihaya", "mountain", "middle", 19, 3),
    ("bassin-de-tuono", "Bassin de Tuono", "desert", "middle", 22, 3),
    ("depression-de-hiereg", "Dépression de Hiéreg", "desert", "outer", 1, 3),
    ("bassin-de-hagga", "Bassin de Hagga", "desert", "outer", 4, 3),
    ("faille-rouge", "La Faille Rouge", "mountain", "outer", 7, 2),
    ("erg-habbanya", "Erg Habbanya", "desert", "outer", 9, 3),
    ("chaine-de-habbanya", "Chaîne de Habbanya", "mountain", "outer", 12, 3),
    ("grotte-aux-oiseaux", "Grotte aux Oiseaux", "sietch", "outer", 15, 1),
    ("bassin-plastique", "Bassin Plastique", "desert", "outer", 16, 3),
    ("terre-brisee", "Terre Brisée", "desert", "outer", 19, 3),
    ("erg-de-tsimpo", "Erg de Tsimpo", "desert", "outer", 22, 3),
]


def sectors_of(first: int, span: int) -> list[int]:
    return [((first - 1 + k) % SECTORS) + 1 for k in range(span)]


def are_adjacent(a: tuple, b: tuple) -> bool:
    ring_a, ring_b = RING_ORDER.index(a[3]), RING_ORDER.index(b[3])
    sa, sb = set(sectors_of(a[4], a[5])), set(sectors_of(b[4], b[5]))
    if abs(ring_a - ring_b) == 1:
        return bool(sa & sb)
    if ring_a == ring_b and a[3] != "pole":
        return any(((s % SECTORS) + 1) in sb or (((s - 2) % SECTORS) + 1) in sb for s in sa)
    return False


def build() -> dict:
    areas = []
    for entry in LAYOUT:
        area_id, name, kind, ring, first, span = entry
        sectors = sectors_of(first, span)
        spice_sector = sectors[(len(sectors) - 1) // 2] if kind == "desert" else None
        adjacent = [other[0] for other in LAYOUT if other is not entry and are_adjacent(entry, other)]
        areas.append({
            "id": area_id, "name": name, "kind": kind, "ring": ring, "sectors": sectors,
            "spice_sector": spice_sector, "adjacent": adjacent,
        })
    return {
        "format": "dunenb.board/1",
        "source": (
            "GAP-1 (design, not from the seed): the author's board is lost. This polar layout keeps every seed "
            "fact: 24 sectors (MAP-2), 31 areas of the MAP-6 kinds, sector 1 holds Arrakeen (MAP-4), Arrakeen is "
            "adjacent to the Shield Wall (MAP-9), the three cities lie in the Shield Wall's lee (inner ring, "
            "behind it), every Sietch lies beside a mountain range (L125), the North Pole touches every sector "
            "(MAP-2, MAP-3b). Spice diamonds sit in the middle sector of each desert (design, MAP-10)."
        ),
        "sectors": SECTORS,
        "rings": {name: list(bounds) for name, bounds in RINGS.items()},
        "areas": areas,
        "start_positions": [
            {"id": line, "between_sectors": [line, (line % SECTORS) + 1]} for line in range(1, SECTORS + 1)
        ],
        "start_positions_note": (
            "MAP-8, GAP-3: a start position sits at the outer end of each of the 24 sector lines; position k is "
            "the line between sector k and sector k+1 (counterclockwise)."
        ),
    }


if __name__ == "__main__":
    target = Path(__file__).resolve().parent.parent / "data" / "board.json"
    target.write_text(json.dumps(build(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {target}")
