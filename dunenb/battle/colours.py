"""House colours for drawings (wheels, charts, maps), read from the Houses data (a design choice).

>>> HOUSE_COLOURS["atreides"]  # issue 12: Paul Tol's colour-blind-safe muted scheme
'#117733'
>>> sorted(HOUSE_COLOURS) == sorted(("atreides", "harkonnen", "fremen", "emperor", "guild", "dispersion",
...                                  "bene-gesserit", "bene-tleilax"))
True
"""

from __future__ import annotations

from dunenb.ruleset import load_ruleset

#: One colour per House id: the single source is ``data/houses.json`` (a design choice, not from the seeds).
HOUSE_COLOURS: dict[str, str] = {house.id: house.colour for house in load_ruleset().houses}
#: Colour for "no winner" (explosions) and neutral elements.
NEUTRAL_COLOUR = "#9e9e9e"


def house_colour(house: str | None) -> str:
    """The House's colour, or the neutral grey for ``None`` or an unknown id.

    >>> house_colour(None)
    '#9e9e9e'
    """
    return HOUSE_COLOURS.get(house or "", NEUTRAL_COLOUR)
