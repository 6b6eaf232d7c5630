"""House colours for drawings (wheels, charts, maps). A design choice, not from the seeds; the lead may move it.

>>> HOUSE_COLOURS["atreides"]
'#2e7d32'
>>> sorted(HOUSE_COLOURS) == sorted(("atreides", "harkonnen", "fremen", "emperor", "guild", "dispersion",
...                                  "bene-gesserit", "bene-tleilax"))
True
"""

from __future__ import annotations

#: One colour per House id (hex, readable on white and distinguishable from each other).
HOUSE_COLOURS: dict[str, str] = {
    "atreides": "#2e7d32",       # green
    "harkonnen": "#c62828",      # red
    "fremen": "#ef6c00",         # desert orange
    "emperor": "#6a1b9a",        # imperial purple
    "guild": "#1565c0",          # navigator blue
    "dispersion": "#ad1457",     # Honored Matres magenta
    "bene-gesserit": "#424242",  # black robes, dark grey
    "bene-tleilax": "#8d6e63",   # brown
}
#: Colour for "no winner" (explosions) and neutral elements.
NEUTRAL_COLOUR = "#9e9e9e"


def house_colour(house: str | None) -> str:
    """The House's colour, or the neutral grey for ``None`` or an unknown id.

    >>> house_colour(None)
    '#9e9e9e'
    """
    return HOUSE_COLOURS.get(house or "", NEUTRAL_COLOUR)
