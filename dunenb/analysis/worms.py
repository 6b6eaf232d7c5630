"""Exact odds of Shai-Hulud at the next spice blow, given the cards already seen (SPICE-4, SPICE-6, GAP-16).

Only the deposit under the top card of each pile can be devoured next turn: pile 1 is struck if its first
card is a worm; pile 2 is struck if *its* first card is a worm, after pile 1 has used up a run of worms
and one territory card. The deck is a multiset of unseen cards, so the odds are hypergeometric and exact.

>>> from fractions import Fraction
>>> pile_strike_probabilities(worms=18, territories=27)
(Fraction(2, 5), Fraction(2, 5))
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from dunenb.board import load_board
from dunenb.ruleset import WORM_CARD
from dunenb.state import GameState

if TYPE_CHECKING:  # pandas is imported when a table is built, not by every importer (issue 14 part 3)
    import pandas as pd


def pile_strike_probabilities(*, worms: int, territories: int) -> tuple[Fraction, Fraction]:
    """P(first card of pile 1 is a worm), P(first card of pile 2 is a worm), drawing without replacement.

    The reshuffle of an exhausted deck (GAP-27) is not modelled: it needs more cards than a turn uses unless
    the deck is nearly empty (``remaining_cards`` in :func:`worm_strike_table` shows when that is the case).
    """
    total = worms + territories
    if total == 0 or territories == 0:
        return Fraction(0), Fraction(0)
    first = Fraction(worms, total)
    second = Fraction(0)
    run_probability = Fraction(1)  # P(the first k cards of pile 1 are worms)
    for k in range(worms + 1):
        remaining = total - k
        if remaining <= 0:
            break
        ends_here = run_probability * Fraction(territories, remaining)  # k worms then a territory
        left = remaining - 1
        if left > 0:
            second += ends_here * Fraction(worms - k, left)
        run_probability *= Fraction(worms - k, remaining) if worms - k > 0 else 0
        if run_probability == 0:
            break
    return first, second


def strike_probabilities_with_top(top: str, *, worms: int, territories: int) -> tuple[Fraction, Fraction, Fraction]:
    """As :func:`pile_strike_probabilities` when the deck's top card ``top`` is known (ATREIDES-P2 c: the
    Atreides see it) and ``worms`` / ``territories`` count the cards under it; the third value is P(pile 2's
    first card is a worm | pile 1's first card is not), for a deposit topping both piles.

    >>> strike_probabilities_with_top("worm", worms=0, territories=5)
    (Fraction(1, 1), Fraction(0, 1), Fraction(0, 1))
    >>> strike_probabilities_with_top("arrakeen/6", worms=1, territories=3)
    (Fraction(0, 1), Fraction(1, 4), Fraction(1, 4))
    """
    if top == WORM_CARD:  # pile 1 is struck; it then draws on among the others until a territory
        return Fraction(1), pile_strike_probabilities(worms=worms, territories=territories)[1], Fraction(0)
    rest = worms + territories  # pile 1 gets the territory on top; pile 2's first card is the next one
    second = Fraction(worms, rest) if rest else Fraction(0)
    return Fraction(0), second, second


def worm_strike_table(state: GameState) -> pd.DataFrame:
    """One row per deposit on the map: its spice, the piles it tops, and the exact P(a worm strikes it next turn).

    A deposit that tops both piles is struck if either pile's first card is a worm. A top card held apart that
    this state shows (the god view, or the view of a House that sees it: ATREIDES-P2 c) is the first card.
    """
    import pandas as pd

    rows = worm_strike_rows(state)
    columns = ["area", "territory", "spice", "pile", "p_worm", "p_worm_exact", "remaining_cards"]
    return pd.DataFrame(rows, columns=columns).sort_values("p_worm", ascending=False).reset_index(drop=True)


def worm_strike_rows(state: GameState) -> list[dict[str, Any]]:
    """The rows of :func:`worm_strike_table`, by area id, as plain dicts (issue 14 item 4: the heuristic bot reads
    its odds here, without building a DataFrame at each new deck).

    >>> from dunenb.engine import new_game
    >>> worm_strike_rows(new_game(["atreides", "fremen"], seed=1))
    []
    """
    remaining = state.spice_deck.remaining
    worms = remaining.get(WORM_CARD, 0)
    territories = sum(n for card, n in remaining.items() if card != WORM_CARD)
    top = state.deck_tops.get("spice")
    if top is None:
        first, second = pile_strike_probabilities(worms=worms, territories=territories)
        both = second_given_no_worm_first(worms, territories)
    else:
        first, second, both = strike_probabilities_with_top(top, worms=worms, territories=territories)
    tops = state.spice_deck.pile_tops
    board = load_board()
    rows = []
    for area_id, amount in sorted(state.spice_on_map.items()):
        piles = [i + 1 for i, top in enumerate(tops) if top == area_id]
        if piles == [1]:
            probability = first
        elif piles == [2]:
            probability = second
        elif piles == [1, 2]:
            probability = first + (1 - first) * both
        else:
            probability = Fraction(0)
        rows.append({
            "area": area_id, "territory": board.area(area_id).name, "spice": amount,
            "pile": ", ".join(str(p) for p in piles) or "-", "p_worm": float(probability),
            "p_worm_exact": str(probability), "remaining_cards": worms + territories + (top is not None),
        })
    return rows


def second_given_no_worm_first(worms: int, territories: int) -> Fraction:
    """P(pile 2's first card is a worm | pile 1's first card was a territory)."""
    total = worms + territories
    if total < 2 or territories == 0:
        return Fraction(0)
    return Fraction(worms, total - 1)
