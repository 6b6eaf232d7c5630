"""leaders.md LC-11 (c) outside battle: the Karama against a secondary leader (KARAMA-10/13/19/24/33/39/44/50,
D-26: any House but his own) asked "when the effect would apply" for the leader powers acting outside battles
(LC-12), one window per mechanism, before the effect is applied (GAP-152):

* **S-8, the ducal tax** (HARKONNEN-L02-d): at step j, after the harvests and before the taxes
  (:func:`dunenb.rules.collection.collect_taxes`), if Zébataleh's 3-instead-of-1 would apply; a use played voids
  his powers for that one tax (``lasts="action"``): the tax is TAX-1's, and the suppression is lifted once the
  taxes are paid.
* **S-2, Siona's desert shelter** (ATREIDES-L10-c): before a storm's passage (one storm's move, STORM-6) or a
  worm's strike (SPICE-6) in which her shelter would spare or halve tokens; a use played voids her powers for
  that event (``lasts="event"``): the tokens are hit normally, and the suppression is lifted after it.

Everything these windows depend on is public (the battles led, who owns a settlement, the forces on the map),
so asking reveals nothing (issue 10 item 3); a window where nobody may play is skipped
(:func:`dunenb.rules.karama_window.open_window`).
"""

from __future__ import annotations

from typing import Any

from dunenb.battle.leader_karama import use_against
from dunenb.rules.karama_window import RESUMES, register_resume
from dunenb.rules.leader_karama import ask_against_leader
from dunenb.rules.traitors import leader_of
from dunenb.state import FrozenDict, GameState

NEXT = "lc11-outside-next"


def ask_leaders(state: GameState, refs: tuple[tuple[str, str], ...], then: str, *, moment: str, lasts: str,
                **data: Any) -> GameState:
    """LC-11 c: one Karama window per leader of ``refs`` ((House, id), in that order) whose effect would apply
    now, then resume ``then`` (a registered resume) with ``data``. No leader to ask: resume at once."""
    for index, (house, lid) in enumerate(refs):
        leader = leader_of(house, lid)
        if use_against(leader) is not None:
            return ask_against_leader(state, leader, NEXT, moment=moment, lasts=lasts, refs=refs[index + 1:],
                                      then=then, data=FrozenDict(data))
    return RESUMES[then](state, FrozenDict(data))


def _asked(state: GameState, data: Any) -> GameState:
    return ask_leaders(state, data["refs"], data["then"], moment=data["moment"], lasts=data["lasts"],
                       **dict(data["data"]))


register_resume(NEXT, _asked)


def storm_shelters(state: GameState, path: tuple[int, ...]) -> tuple[tuple[str, str], ...]:
    """S-2: the leaders whose desert shelter would halve a loss of the storm passing over ``path`` (its sectors;
    not the double storm, where S-2 does not act)."""
    from dunenb.rules import leader_specials
    from dunenb.rules.common import is_exposed_to_storm, rules

    board = rules().board
    found: list[tuple[str, str]] = []
    for sector in path:
        for area in board.areas_in_sector(sector):
            if not is_exposed_to_storm(state, area.id):
                continue
            for house, area_id, force_sector in state.forces:
                ref = leader_specials.shelter_holder(state, house, area_id) \
                    if (area_id, force_sector) == (area.id, sector) else None
                if ref is not None and ref not in found:
                    found.append(ref)
    return tuple(found)


def worm_shelters(state: GameState, territory: str, victims: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """S-2: the leaders whose desert shelter would spare tokens of ``victims`` (the Houses a worm devours in
    ``territory``)."""
    from dunenb.rules import leader_specials

    found: list[tuple[str, str]] = []
    for house, area_id, _sector in state.forces:
        ref = leader_specials.shelter_holder(state, house, territory) \
            if area_id == territory and house in victims else None
        if ref is not None and ref not in found:
            found.append(ref)
    return tuple(found)
