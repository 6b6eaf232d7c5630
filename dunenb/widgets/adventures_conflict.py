"""One step of a 2d20 conflict as captioned tables side by side (static HTML: it shows without a kernel too).

The tables are the conflict's own (:meth:`~dunenb.adventures.conflict.Conflict.last_action_frame`,
``pools_frame``, ``combatants_frame``, ``assets_frame``) plus the scene traits; nothing is computed here.

>>> from dunenb.adventures import Character
>>> from dunenb.adventures.assets import Zones
>>> from dunenb.adventures.conflict import Combatant, Conflict
>>> kara = Character.create("Kara", dict.fromkeys(("battle", "communicate", "discipline", "move", "understand"), 6),
...                         dict.fromkeys(("duty", "faith", "justice", "power", "truth"), 6))
>>> state = Conflict.start(Zones.chain("dunes", "rocks"), [Combatant(kara, "players", "rocks", "player")])
>>> step = conflict_step(state, "pools", "traits", title="Start")
>>> list(step.frames())
['pools', 'traits']
>>> "<caption>Pools</caption>" in step._repr_html_()
True
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

import pandas as pd

from dunenb.adventures.conflict import Conflict
from dunenb.errors import InputError


def traits_frame(state: Conflict) -> pd.DataFrame:
    """The scene's traits: one row each, with whether it outlasts the scene."""
    return pd.DataFrame(list(state.traits), columns=["trait", "permanent"])


#: Every table a step can show: name -> (caption, how to get it from the state).
PARTS: dict[str, tuple[str, Callable[[Conflict], pd.DataFrame]]] = {
    "action": ("Last action", Conflict.last_action_frame),
    "pools": ("Pools", Conflict.pools_frame),
    "combatants": ("Combatants", Conflict.combatants_frame),
    "assets": ("Assets", Conflict.assets_frame),
    "traits": ("Traits", traits_frame),
}


class ConflictStep:
    """Captioned tables of one conflict state, laid out side by side (wrapping on narrow screens)."""

    def __init__(self, state: Conflict, parts: tuple[str, ...] = ("action", "pools"), *,
                 title: str | None = None) -> None:
        for part in parts:
            if part not in PARTS:
                raise InputError("2d20/view", f"{part!r} is not one of {', '.join(PARTS)}")
        self.state, self.parts, self.title = state, parts, title

    def frames(self) -> dict[str, pd.DataFrame]:
        """The tables shown, by part name."""
        return {part: PARTS[part][1](self.state) for part in self.parts}

    def _repr_html_(self) -> str:
        blocks = []
        for part, frame in self.frames().items():
            caption = PARTS[part][0]
            if frame.empty:
                blocks.append(f"<div><b>{escape(caption)}</b><br><i>(none)</i></div>")
                continue
            styler = frame.style.set_caption(caption).set_table_styles(
                [{"selector": "caption", "props": "font-weight: bold; text-align: left;"}])
            if part in ("pools", "traits"):
                styler = styler.hide(axis="index")
            blocks.append(f"<div>{styler.to_html()}</div>")
        heading = f"<h4 style='margin:4px 0'>{escape(self.title)}</h4>" if self.title else ""
        return (f"{heading}<div style='display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start'>"
                f"{''.join(blocks)}</div>")


def conflict_step(state: Conflict, *parts: str, title: str | None = None) -> ConflictStep:
    """Show ``state`` as the tables named in ``parts`` (default: the last action and the pools); the names are
    those of :data:`PARTS`."""
    return ConflictStep(state, parts or ("action", "pools"), title=title)
