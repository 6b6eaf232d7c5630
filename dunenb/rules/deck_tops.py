"""ATREIDES-P2 (c)-(d): the top card of the territory deck and of the Chance deck, seen at all times.

The decks are kept as counts of unseen cards, drawn at chance nodes. A deck whose top card someone sees holds
that card apart (``GameState.deck_tops``): it is drawn at its own chance node (:class:`DrawDeckTop`, outcomes the
unseen cards with their counts, so the odds of the game do not change), as soon as the top is needed:

* right after each card drawn from that deck (before the drawn card takes effect: the next card is on top at
  once), and
* after the setup and at the start of each turn, for a deck with no top held apart yet (the top viewers may have
  changed: KARAMA-41 lapses, a House is eliminated).

A draw from a deck with a top held apart takes that card: its chance node has one outcome, probability 1
(:func:`top`). Who sees the tops is the hook ``deck.top_viewers`` of ``data/powers.json`` (ATREIDES-P2,
``add_holder``; nobody while KARAMA-41 is in force, houses.md). With nobody to see them no top is drawn apart, so a
game without the Atreides has exactly the nodes it had before. :func:`hide` puts the top back among the unseen
cards in the view of a House that does not see it (the counts would give it away otherwise); the
``deck-top`` action is secret to the viewers (:mod:`dunenb.rules.secrecy`).

Decisions (houses.md ATREIDES-P2, decision 1; GAP-126, data/decisions/GAP-126.json): the top is seen "at all times",
so during the spice blow the Atreides know each next card one draw early; the setup's spice cards have no top held
apart (the tops start once the setup's blow is over, SETUP-5 puts worms back there). Each deck module registers how
its counts are read and refilled (:func:`register_deck`), and the flows that wait for a top register how they go on
(:func:`register_resume`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from dunenb.actions import Action, menu_maker
from dunenb.powers import applied
from dunenb.rules.common import Handler, node, pending
from dunenb.shares import chance_share
from dunenb.state import FrozenDict, GameState, evolve

HOOK = "deck.top_viewers"


@dataclass(frozen=True)
class DrawDeckTop(Action):
    """ATREIDES-P2 (c)-(d): ``card`` is now the top card of ``deck`` (``spice`` or ``chance``), held apart."""

    kind: ClassVar[str] = "deck-top"
    is_chance: ClassVar[bool] = True
    deck: str
    card: str


@dataclass(frozen=True)
class Deck:
    """How the rules read one deck: ``in_use`` (the game plays it), ``counts`` (its unseen cards), ``with_counts``
    (the state with new counts) and ``refill`` (an empty deck reshuffled, GAP-27, with its event)."""

    in_use: Callable[[GameState], bool]
    counts: Callable[[GameState], FrozenDict[str, int]]
    with_counts: Callable[[GameState, FrozenDict[str, int]], GameState]
    refill: Callable[[GameState], GameState]


DECKS: dict[str, Deck] = {}
Resume = Callable[[GameState, Mapping[str, Any]], GameState]
RESUMES: dict[str, Resume] = {}


def register_deck(name: str, deck: Deck) -> None:
    """Called by the module that owns a deck (:mod:`dunenb.rules.spice`, :mod:`dunenb.rules.chance`)."""
    DECKS[name] = deck


def register_resume(name: str, resume: Resume) -> None:
    """Register how a flow goes on once the top it waited for is drawn (``resume(state, detail)``)."""
    RESUMES[name] = resume


def top_viewers(state: GameState) -> tuple[str, ...]:
    """The Houses that see the top cards now (ATREIDES-P2 c-d; none under KARAMA-41)."""
    return tuple(applied(state, HOOK, (), {})[0])


def top(state: GameState, deck: str) -> str | None:
    """The card held apart on top of ``deck``, if any: the next draw from ``deck`` takes it (its chance node has
    that one outcome); ``None``: the draw is among the unseen cards."""
    return state.deck_tops.get(deck)


def take_top(state: GameState, deck: str, card: str) -> tuple[GameState, bool]:
    """A draw of ``card`` from ``deck``: if it is the top held apart, the top is cleared (``True``); otherwise
    the state is unchanged (``False``: the caller takes the card from the counts)."""
    if top(state, deck) != card:
        return state, False
    return evolve(state, deck_tops=state.deck_tops.without(deck)), True


def _needs_top(state: GameState, deck: str) -> bool:
    return deck in DECKS and top(state, deck) is None and DECKS[deck].in_use(state) and bool(top_viewers(state))


def ensure(state: GameState, decks: tuple[str, ...], resume: str, **detail: Any) -> GameState:
    """Draw the top of each of ``decks`` that needs one (a chance node each), then go on with ``resume``."""
    for index, deck in enumerate(decks):
        if _needs_top(state, deck):
            spec = DECKS[deck]
            if sum(spec.counts(state).values()) == 0:
                state = spec.refill(state)
            if sum(spec.counts(state).values()) == 0:
                continue  # nothing left to hold apart
            return evolve(state, pending=pending("deck-top", "chance", deck=deck,
                                                              rest=decks[index + 1:], resume=resume,
                                                              then=FrozenDict(detail)))
    return RESUMES[resume](state, detail)


def ensure_all(state: GameState, resume: str, **detail: Any) -> GameState:
    """:func:`ensure` for every deck (after the setup, at the start of a turn)."""
    return ensure(state, tuple(DECKS), resume, **detail)


#: issue 14 item 4: the outcomes' top cards built once each (dunenb.actions.menu_maker): a deck lists the same cards
#: at every top drawn
_outcome_top = menu_maker(DrawDeckTop, 512)


def _outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    deck = node(state).detail["deck"]
    counts = {card: n for card, n in DECKS[deck].counts(state).items() if n > 0}
    total = sum(counts.values())
    return [(_outcome_top(deck, card), chance_share(n, total)) for card, n in sorted(counts.items())]


def _is_outcome(state: GameState, action: Action) -> bool:
    if type(action) is not DrawDeckTop:
        return False
    deck = node(state).detail["deck"]
    return action.deck == deck and DECKS[deck].counts(state).get(action.card, 0) > 0


def _apply(state: GameState, action: DrawDeckTop) -> GameState:
    detail = node(state).detail
    spec = DECKS[action.deck]
    counts = spec.counts(state)
    left = counts[action.card] - 1
    state = spec.with_counts(state, counts.set(action.card, left) if left else counts.without(action.card))
    state = evolve(state, deck_tops=state.deck_tops.set(action.deck, action.card), pending=None)
    return ensure(state, tuple(detail["rest"]), detail["resume"], **dict(detail["then"]))


def hide(state: GameState, house: str) -> GameState:
    """The state as ``house`` sees the decks: a top it does not see goes back among the unseen cards."""
    if not state.deck_tops or house in top_viewers(state):
        return state
    for deck, card in state.deck_tops.items():
        counts = DECKS[deck].counts(state)
        state = DECKS[deck].with_counts(state, counts.set(card, counts.get(card, 0) + 1))
    return evolve(state, deck_tops=FrozenDict())


HANDLERS = {
    "deck-top": Handler(apply=_apply, outcomes=_outcomes, is_outcome=_is_outcome),
}
