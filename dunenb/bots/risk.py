"""What a House may know, from public information, of the danger to tokens left where they stand until the next
turn: the next storm phase (TURN-1 a) and the next spice blow (TURN-1 b).

Timing. Tokens landed or moved in the movement phase, and a harvester committed at step f), harvest at step j)
of this turn (HARVEST-8), then stay where they are through the next turn's storm phase and spice blow, before
their House can move them again: so the danger is that of the *next* storm move from where the storms stand
now, and of the *next* worms on the current pile tops (STORM-10, HARVEST-9, SPICE-6, SPICE-8). A committed
harvester stays exposed with its army until the next step f) (:mod:`dunenb.rules.collection`).

Storm model (``dunenb.rules.storm``). Each storm moves counterclockwise and ravages every sector it passes over
or stops on (STORM-6, STORM-18, GAP-9): with the Fremen in play by their secret token 1..7 (GAP-7c, FREMEN-P1),
else by the sum of one dial 0..3 per storm dialer (GAP-7a/b); main and secondary storms are settled separately
(GAP-7d), and two storms ending on one sector make a double storm (STORM-15, GAP-11).

Design choices (assumptions of the estimate):

* A choice the House cannot see is uniform over its legal range: the Fremen token for every House but the
  Fremen (who know theirs exactly: :func:`dunenb.engine.view` shows it to them only), and every dial (the
  heuristic bot itself dials at random, and other players' dials are secret).
* Weather control (STORM-5, GAP-31) is ignored: its holders are hidden, and modelling every holder's "plus 1",
  "plus 2" and "stop" would need guesses about their intentions (the heuristic bot plays it only once the
  movement is known, :mod:`dunenb.bots.storm_cards`).
* The storm and the worm are independent; a token the storm destroyed cannot be devoured again.
* The next worm odds are those of :mod:`dunenb.analysis.worms` (exact given the cards seen; no reshuffle).

>>> from dunenb.engine import new_game
>>> state = dataclasses.replace(new_game(["atreides", "harkonnen"], seed=4), storm_main=23)
>>> hits = storm_hit_probability(state, "atreides")
>>> len(hits), all(0.0 <= p <= 1.0 for p in hits.values())
(24, True)
>>> round(sum(hits.values()), 3)  # expected sectors swept: the mean of two dials 0..3
3.0
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from dunenb.analysis.worms import worm_strike_rows
from dunenb.powers import holds_power
from dunenb.rules.common import SECTORS, is_exposed_to_storm, steps_from
from dunenb.rules.storm import DIAL_RANGE, FREMEN_TOKENS, STORM_TOKENS_POWER, has_fremen, storms_in_play
from dunenb.state import GameState

DIALERS = 2  # GAP-7a/b: two players dial each storm


def storm_move_distribution(state: GameState, house: str, storm: str) -> dict[int, Fraction]:
    """The chance of each movement of ``storm`` at the next storm phase, as ``house`` knows it.

    >>> from dunenb.engine import new_game
    >>> moves = storm_move_distribution(new_game(["atreides", "harkonnen"], seed=1), "atreides", "main")
    >>> sorted(moves), moves[3]
    ([0, 1, 2, 3, 4, 5, 6], Fraction(1, 4))
    """
    if has_fremen(state):
        known = state.storm_tokens.get(storm) if holds_power(state, house, STORM_TOKENS_POWER) else None  # KARAMA-5
        if known is not None:
            return {int(known): Fraction(1)}
        return {v: Fraction(1, len(FREMEN_TOKENS)) for v in FREMEN_TOKENS}
    moves = {0: Fraction(1)}
    for _ in range(len(state.storm_dialers) or DIALERS):
        following: dict[int, Fraction] = {}
        for total, chance in moves.items():
            for value in DIAL_RANGE:
                following[total + value] = following.get(total + value, Fraction(0)) + chance / len(DIAL_RANGE)
        moves = following
    return moves


def _storm_start(state: GameState, storm: str) -> int | None:
    return state.storm_main if storm == "main" else state.storm_secondary


def _sweeps_and_ends(state: GameState, house: str, storm: str) -> tuple[dict[int, Fraction], dict[int, Fraction]]:
    """P(``storm`` passes over or stops on each sector), P(it ends on each sector)."""
    swept = {s: Fraction(0) for s in range(1, SECTORS + 1)}
    ends = dict(swept)
    start = _storm_start(state, storm)
    if start is None:
        return swept, ends
    for move, chance in storm_move_distribution(state, house, storm).items():
        path = steps_from(start, move)
        for sector in set(path):
            swept[sector] += chance
        ends[path[-1] if path else start] += chance
    return swept, ends


def storm_hit_probability(state: GameState, house: str) -> dict[int, float]:
    """For each sector 1..24, the chance that a storm (the main one, and the secondary one when in play) passes
    over or stops on it at the next storm phase, as ``house`` may know it (see the module for the assumptions).
    A sector outside every storm's reach (beyond its largest move, or behind it) gets 0.

    >>> from dunenb.engine import new_game
    >>> state = dataclasses.replace(new_game(["atreides", "harkonnen"], seed=1), storm_main=23)
    >>> hits = storm_hit_probability(state, "atreides")
    >>> hits[23], hits[24], hits[1], hits[5], hits[6]  # left behind; next (15 in 16); 1 in 16 to go 6 sectors; beyond
    (0.0, 0.9375, 0.8125, 0.0625, 0.0)
    """
    missed = {s: 1.0 for s in range(1, SECTORS + 1)}
    for storm in storms_in_play(state):
        swept, _ends = _sweeps_and_ends(state, house, storm)
        for sector, chance in swept.items():
            missed[sector] *= 1.0 - float(chance)
    return {sector: 1.0 - left for sector, left in missed.items()}


def double_storm_probability(state: GameState, house: str) -> dict[int, float]:
    """For each sector, the chance that both storms end their next move on it (STORM-15, GAP-11); all 0 without
    the secondary storm."""
    if len(storms_in_play(state)) < 2:
        return {s: 0.0 for s in range(1, SECTORS + 1)}
    _swept, main_ends = _sweeps_and_ends(state, house, "main")
    _swept, secondary_ends = _sweeps_and_ends(state, house, "secondary")
    return {s: float(main_ends[s] * secondary_ends[s]) for s in range(1, SECTORS + 1)}


def worm_strike_probability(state: GameState) -> dict[str, float]:
    """The chance that a worm strikes each territory at the next spice blow (SPICE-6, GAP-16), from
    :func:`dunenb.analysis.worms.worm_strike_rows`; every pile top counts, even one whose deposit is gone (the
    worm still devours the armies there), and other territories are safe from worms."""
    tops = [top for top in state.spice_deck.pile_tops if top is not None]
    if not tops:
        return {}
    # issue 14 item 4: the odds read only the cards left, the top card this state shows and the pile tops (the
    # amounts of spice do not change them), so each House's decisions of a turn share one table
    key = (tuple(sorted(state.spice_deck.remaining.items())), state.deck_tops.get("spice"),
           tuple(state.spice_deck.pile_tops))
    found = _WORM_ODDS.get(key)
    if found is None:
        if len(_WORM_ODDS) >= 256:
            _WORM_ODDS.clear()
        found = _WORM_ODDS[key] = _worm_strikes(state, tops)
    return dict(found)


_WORM_ODDS: dict[tuple, dict[str, float]] = {}  # worm_strike_probability memo


def _worm_strikes(state: GameState, tops: list[str]) -> dict[str, float]:
    spice = state.spice_on_map
    for top in tops:
        if spice.get(top, 0) <= 0:
            spice = spice.set(top, 1)  # the table lists deposits only; the amount does not change the odds
    rows = worm_strike_rows(dataclasses.replace(state, spice_on_map=spice))  # the table's rows, no DataFrame
    return {str(row["area"]): float(row["p_worm"]) for row in rows if row["area"] in tops}


def risk_key(state: GameState, house: str) -> tuple:
    """What :meth:`Risk.of` reads of ``state`` for ``house`` (issue 14 item 4: two states with the same key have
    equal Risks): the storms, their dialers and, with the Fremen in play, whether ``house`` sees their storm
    tokens and the tokens it sees (:func:`storm_move_distribution`: the one thing read of ``house``), the spice
    deck and the top card this view shows (ATREIDES-P2: the worm odds read it), the Shield Wall
    (:meth:`Risk.storm_loss`)."""
    deck = state.spice_deck
    fremen = has_fremen(state)
    return (fremen, fremen and holds_power(state, house, STORM_TOKENS_POWER), state.config.secondary_storm,
            state.storm_main, state.storm_secondary, state.storm_dialers, tuple(sorted(state.storm_tokens.items())),
            tuple(sorted(deck.remaining.items())), deck.pile_tops, state.deck_tops.get("spice"),
            state.shield_wall_standing, tuple(state.config.houses))


@dataclasses.dataclass
class Risk:
    """The storm and worm odds of one position, computed once (see the module), and the chance to lose what
    stands in a given place."""

    storm: dict[int, float]
    double: dict[int, float]
    worm: dict[str, float]
    shield_wall_standing: bool
    _state: GameState
    #: issue 14 item 4: :meth:`loss` of each place asked, kept (it reads only the fields above, never changed
    #: once built; the heuristic bot shares one Risk among the decisions of a movement phase)
    _losses: dict[tuple[str, int], float] = dataclasses.field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def of(cls, state: GameState, house: str) -> Risk:
        return cls(storm_hit_probability(state, house), double_storm_probability(state, house),
                   worm_strike_probability(state), state.shield_wall_standing, state)

    def storm_loss(self, area_id: str, sector: int) -> float:
        """P(a storm destroys tokens at (``area_id``, ``sector``)): 0 in a place the storm spares (GAP-9,
        STORM-7: the Pole, Sietchs, mountains, cities while the Shield Wall stands), except a double storm."""
        if is_exposed_to_storm(self._state, area_id):
            return self.storm.get(sector, 0.0)
        if is_exposed_to_storm(self._state, area_id, double=True):
            return self.double.get(sector, 0.0)
        return 0.0

    def loss(self, area_id: str, sector: int) -> float:
        """P(tokens at (``area_id``, ``sector``) are destroyed by the next storm or the next worm).

        >>> from dunenb.engine import new_game
        >>> risk = Risk.of(new_game(["atreides", "harkonnen"], seed=1), "atreides")
        >>> risk.loss("arrakeen", 1), risk.loss("pole-nord", 1)
        (0.0, 0.0)
        """
        found = self._losses.get((area_id, sector))
        if found is None:
            storm = self.storm_loss(area_id, sector)
            worm = self.worm.get(area_id, 0.0)  # the pile tops: spice territories (SPICE-6)
            found = self._losses[(area_id, sector)] = storm + (1.0 - storm) * worm
        return found
