"""Traitors: the draw at setup and who may call "Trahison !" (TRAITOR-1 to TRAITOR-13, GAP-35).

The draw is a pure function of a leader pool and a numpy ``Generator`` (never the global ``random`` module); the
call itself is resolved by :mod:`dunenb.battle.resolve`.

>>> traitor_draw_count(4), traitor_draw_count(4, house="harkonnen")
(3, 6)
>>> import numpy as np
>>> from dunenb.battle.roster import load_roster
>>> roster = load_roster()
>>> pool = traitor_pool(roster, ["atreides", "harkonnen", "fremen", "emperor"])
>>> drawn = draw_traitor_candidates(pool, ["atreides", "harkonnen", "fremen", "emperor"], np.random.default_rng(7))
>>> {house: len(leaders) for house, leaders in drawn.items()}
{'atreides': 3, 'harkonnen': 6, 'fremen': 3, 'emperor': 3}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from dunenb.battle.characters import allocate
from dunenb.battle.roster import Leader, Roster, fold
from dunenb.errors import IllegalActionError, InputError
from dunenb.powers.registry import owner

if TYPE_CHECKING:  # issue 14 part 3: replaying a save needs no numpy (the generator is passed in)
    import numpy as np

DOUBLE_TRAITORS = "HARKONNEN-P1"  # TRAITOR-3: its holder draws twice as many and keeps them all


def traitor_draw_count(players: int, *, house: str | None = None) -> int:
    """How many leaders a House draws at setup: players - 1 (TRAITOR-2); the Harkonnen twice that (TRAITOR-3).

    >>> [traitor_draw_count(n) for n in range(2, 9)]
    [1, 2, 3, 4, 5, 6, 7]
    >>> traitor_draw_count(9)
    Traceback (most recent call last):
    dunenb.errors.InputError: [traitor/players] the traitor table covers 2 to 8 players (TRAITOR-2), not 9
    """
    if not 2 <= players <= 8:
        raise InputError("traitor/players", f"the traitor table covers 2 to 8 players (TRAITOR-2), not {players}")
    count = players - 1
    return 2 * count if house is not None and house == owner(DOUBLE_TRAITORS) else count


def traitor_pool(roster: Roster, houses: Iterable[str]) -> tuple[Leader, ...]:
    """The leaders laid face down for the draw: every leader in play, main leaders left out (TRAITOR-1). A copy
    out of the game (leaders.md X-1 to X-3, :func:`dunenb.battle.characters.allocate`) is not in play.
    """
    allocation = allocate(houses)
    return tuple(leader for leader in roster.leaders if allocation.in_game(leader) and not leader.main)


def draw_traitor_candidates(
    pool: Sequence[Leader], houses: Sequence[str], rng: np.random.Generator
) -> dict[str, tuple[Leader, ...]]:
    """Shuffle the pool and deal each House its draw, in the order given (TRAITOR-1 to TRAITOR-3).

    The result depends only on the pool, the order of ``houses`` and the generator's state.
    """
    players = len(houses)
    order = rng.permutation(len(pool))
    needed = sum(traitor_draw_count(players, house=house) for house in houses)
    if needed > len(pool):
        raise InputError("traitor/pool", f"{needed} leaders are needed for the draw, the pool has {len(pool)}")
    drawn: dict[str, tuple[Leader, ...]] = {}
    position = 0
    for house in houses:
        count = traitor_draw_count(players, house=house)
        drawn[house] = tuple(pool[int(index)] for index in order[position:position + count])
        position += count
    return drawn


def can_be_traitor_of(leader: Leader, house: str) -> bool:
    """False for a House's own leaders and for the restrictions never_traitor / never_traitor_of (leaders.md K-21).

    >>> from dunenb.battle.roster import load_roster
    >>> roster = load_roster()
    >>> can_be_traitor_of(roster.find("jamis", house="fremen"), "atreides")
    False
    >>> can_be_traitor_of(roster.find("jamis", house="fremen"), "harkonnen")
    True
    """
    if leader.house == house or leader.main or leader.never_traitor:
        return False
    return house not in leader.never_traitor_of


def harkonnen_traitors(drawn: Iterable[Leader]) -> tuple[Leader, ...]:
    """The Harkonnen keep every leader they drew as a traitor, except their own (TRAITOR-3, HARKONNEN-P1);
    a leader who cannot be their traitor is merely safe, with no redraw."""
    return tuple(leader for leader in drawn if can_be_traitor_of(leader, owner(DOUBLE_TRAITORS)))


def pick_traitor(house: str, drawn: Sequence[Leader], choice: str) -> Leader:
    """Another House picks one traitor, and only one, among the leaders it drew (TRAITOR-4).

    >>> from dunenb.battle.roster import load_roster
    >>> roster = load_roster()
    >>> drawn = [roster.find("duncan-idaho", house="atreides"), roster.find("lucille"),
    ...          roster.find("murbella", house="dispersion")]
    >>> pick_traitor("dispersion", drawn, "Duncan Idaho").name
    'Duncan Idaho'
    """
    if house == owner(DOUBLE_TRAITORS):
        raise IllegalActionError("traitor/harkonnen-pick", "the Harkonnen keep every leader drawn (TRAITOR-3)")
    for leader in drawn:
        if fold(choice) in leader.names():
            if leader.never_traitor or house in leader.never_traitor_of:
                raise IllegalActionError("traitor/never", f"{leader.name} can never be a traitor of {house} (K-21)")
            return leader  # picking one's own leader is allowed, if "not subtle" (TRAITOR-5)
    names = ", ".join(leader.name for leader in drawn)
    raise IllegalActionError("traitor/not-drawn", f"{choice!r} was not drawn by {house}; drawn: {names}")


def safe_leaders(
    drawn: Mapping[str, Sequence[Leader]], traitors: Mapping[str, Iterable[Leader]]
) -> tuple[Leader, ...]:
    """Leaders drawn by some House but nobody's traitor: "safe" leaders (TRAITOR-5, TRAITOR-6)."""
    chosen = {leader.key for held in traitors.values() for leader in held}
    seen: dict[str, Leader] = {}
    for leaders in drawn.values():
        for leader in leaders:
            if leader.key not in chosen:
                seen.setdefault(leader.key, leader)
    return tuple(seen.values())


def may_call_treachery(
    caller: str,
    leader: Leader,
    slips: Mapping[str, Iterable[str]],
    *,
    playing_house: str,
) -> bool:
    """Whether ``caller`` may call "Trahison !" on ``leader`` fighting for ``playing_house`` (TRAITOR-8, -13).

    ``slips`` maps each House to the leader ids on its traitor slips (TRAITOR-7: a traitor stays one for the
    whole game). Normally the caller needs a slip. For a **captured** leader (``playing_house`` differs from the
    leader's own House), TRAITOR-13 and GAP-35c: his own House may also call, unless the capturing House holds
    his slip, which refutes the call (case 2); the House holding his slip may call (case 3, FAQ 20).

    >>> from dunenb.battle.roster import load_roster
    >>> duncan = load_roster().find("duncan-idaho", house="atreides")
    >>> may_call_treachery("atreides", duncan, {}, playing_house="harkonnen")          # case 1
    True
    >>> may_call_treachery("atreides", duncan, {"harkonnen": ["duncan-idaho"]}, playing_house="harkonnen")
    False
    >>> may_call_treachery("guild", duncan, {"guild": ["duncan-idaho"]}, playing_house="harkonnen")
    True
    """
    held = {house: set(ids) for house, ids in slips.items()}
    names = set(leader.names())
    if caller == playing_house:
        return False
    captured = leader.house is not None and leader.house != playing_house
    if captured and caller == leader.house:
        return not (held.get(playing_house, set()) & names)
    return bool(held.get(caller, set()) & names)
