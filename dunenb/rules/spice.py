"""Spice blow: SPICE-1 to SPICE-9, ALLIANCE-1/2/4, GAP-15 to GAP-18, GAP-27, SETUP-5.

One mixed deck of territory and worm cards (SPICE-1) is kept as counts of unseen cards, so each draw is a
chance node whose outcomes are the distinct cards left, weighted by their counts. Each turn, right after
the storms (SPICE-4), cards are turned onto pile 1 until a territory appears, then onto pile 2.

* A territory card places its spice on the territory's diamond (SPICE-5), added to any deposit already
  there (GAP-15), unless the diamond is in a storm sector (GAP-18).
* A worm devours the previous deposit of its pile: the armies in that territory, its spice and the
  harvesters committed there (SPICE-6, SPICE-8, GAP-17); then the same pile draws again (GAP-16).
* Two worms in a row open an alliance window; each further worm opens a new one that breaks the last
  (ALLIANCE-1, ALLIANCE-2, ALLIANCE-4, GAP-19d). Runs never cross piles or turns (GAP-16).
* At setup the worms are put back (SETUP-5): drawing until a territory appears is the same as drawing among
  the territory cards only, so the setup outcomes list territory cards, each with its conditional odds.
* An empty deck is reshuffled from its discards (GAP-27).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from dunenb.actions import Action, DrawSpiceCard, menu_maker
from dunenb.powers import applied
from dunenb.powers.karama import lift
from dunenb.rules import deck_tops, leader_specials
from dunenb.rules.common import (
    Handler,
    event,
    kill_tokens,
    node,
    pending,
    remove_spice,
    rules,
    with_events,
)
from dunenb.rules.karama_window import open_window, register_resume
from dunenb.ruleset import WORM_CARD, parse_card
from dunenb.shares import chance_share
from dunenb.state import FrozenDict, GameState, SpiceDeck, evolve

#: The territory deck's name among the decks whose top may be held apart (ATREIDES-P2 c).
DECK = "spice"


def begin_setup_blow(state: GameState) -> GameState:
    """SETUP-1 g): two territory cards, worms ignored."""
    return evolve(state, pending=pending("spice", "chance", pile=1, setup=True))


def begin_blow(state: GameState) -> GameState:
    """TURN-1 b) and c): the spice blow of a normal turn."""
    state = evolve(state, phase="spice-blow", worm_run=0, alliance_windows=0)
    return evolve(state, pending=pending("spice", "chance", pile=1, setup=False))


def _deck_for_draw(deck: SpiceDeck) -> SpiceDeck:
    if deck.remaining_count > 0:
        return deck
    return SpiceDeck(remaining=deck.discard, discard=FrozenDict(), pile_tops=deck.pile_tops)


#: issue 14: the menu's card draws built once each (dunenb.actions.menu_maker)
_menu_draw = menu_maker(DrawSpiceCard)


def spice_outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    """The cards that can be turned now, with their exact probabilities (the top held apart, if any, with
    probability 1: ATREIDES-P2 c)."""
    assert state.pending is not None
    detail = state.pending.detail
    forced = deck_tops.top(state, DECK)
    if forced is not None:
        return [(DrawSpiceCard(detail["pile"], forced), Fraction(1))]
    deck = _deck_for_draw(state.spice_deck)
    counts = {card: n for card, n in deck.remaining.items() if n > 0}
    if detail["setup"]:
        counts.pop(WORM_CARD, None)
    total = sum(counts.values())
    return [(_menu_draw(detail["pile"], card), chance_share(n, total)) for card, n in sorted(counts.items())]


def is_spice_outcome(state: GameState, action: Action) -> bool:
    """SPICE-4: a card still in the deck (its discards once it is empty, GAP-27) turned onto the pile asked for;
    no worm at setup. The rule behind :func:`spice_outcomes`, without listing the deck."""
    if type(action) is not DrawSpiceCard:
        return False
    detail = node(state).detail
    if action.pile != detail["pile"] or (detail["setup"] and action.card == WORM_CARD):
        return False
    forced = deck_tops.top(state, DECK)
    if forced is not None:
        return action.card == forced
    return _deck_for_draw(state.spice_deck).remaining.get(action.card, 0) > 0


def _take_card(state: GameState, card: str) -> GameState:
    state, was_top = deck_tops.take_top(state, DECK, card)
    deck = state.spice_deck
    if was_top:  # ATREIDES-P2 c: the card held apart on top (no longer among the unseen counts)
        discard = deck.discard.set(card, deck.discard.get(card, 0) + 1)
        return evolve(state, spice_deck=evolve(deck, discard=discard))
    if deck.remaining_count == 0:
        deck = _deck_for_draw(deck)
        state = with_events(state, event("reshuffle", "The territory deck is empty: its discards are reshuffled "
                                         "(GAP-27)"))
    remaining = deck.remaining.set(card, deck.remaining[card] - 1)
    if remaining[card] == 0:
        remaining = remaining.without(card)
    discard = deck.discard.set(card, deck.discard.get(card, 0) + 1)
    return evolve(state, spice_deck=evolve(deck, remaining=remaining, discard=discard))


def _apply_draw(state: GameState, action: DrawSpiceCard) -> GameState:
    assert state.pending is not None
    setup = bool(state.pending.detail["setup"])
    state = _take_card(state, action.card)
    if setup:  # SETUP-5: no top is held apart during the setup's blow
        return _turned(state, {"pile": action.pile, "card": action.card, "setup": True})
    # ATREIDES-P2 c: the next card is on top at once, before this one takes effect
    return deck_tops.ensure(state, (DECK,), "spice-card", pile=action.pile, card=action.card, setup=False)


def _turned(state: GameState, detail: Mapping[str, Any]) -> GameState:
    """The card ``detail["card"]`` turned onto pile ``detail["pile"]`` takes effect (SPICE-5, SPICE-6)."""
    pile, setup = detail["pile"], detail["setup"]
    state = evolve(state, pending=None)
    parsed = parse_card(detail["card"])
    if parsed is None:
        return _worm(state, pile)
    territory, value = parsed
    state = _place_spice(state, pile, territory, value)
    state = evolve(state, worm_run=0)
    if pile == 1:
        return evolve(state, pending=pending("spice", "chance", pile=2, setup=setup))
    from dunenb.rules import flow

    if setup:  # ATREIDES-P2 c-d: the tops are held apart from the end of the setup's blow
        return deck_tops.ensure_all(state, "setup-spice-done")
    return flow.after_phase(state, "spice-blow")


def _setup_spice_done(state: GameState, _detail: Mapping[str, Any]) -> GameState:
    from dunenb.rules import flow

    return flow.after_setup_step(state, "spice")


deck_tops.register_resume("spice-card", _turned)
deck_tops.register_resume("setup-spice-done", _setup_spice_done)
deck_tops.register_deck(DECK, deck_tops.Deck(
    in_use=lambda state: True,
    counts=lambda state: state.spice_deck.remaining,
    with_counts=lambda state, counts: evolve(state, spice_deck=evolve(state.spice_deck, remaining=counts)),
    refill=lambda state: with_events(evolve(state, spice_deck=_deck_for_draw(state.spice_deck)), event(
        "reshuffle", "The territory deck is empty: its discards are reshuffled (GAP-27)")),
))


def _place_spice(state: GameState, pile: int, territory: str, value: int) -> GameState:
    area = rules().board.area(territory)
    tops = list(state.spice_deck.pile_tops)
    tops[pile - 1] = territory
    state = evolve(state, spice_deck=evolve(state.spice_deck, pile_tops=(tops[0], tops[1])))
    if area.spice_sector in state.storm_sectors():
        return with_events(state, event(
            "spice-blown-away", f"Pile {pile}: {area.name} {value}, but its diamond (sector {area.spice_sector}) is "
            "under a storm: no spice (GAP-18)", pile=pile, area=territory, amount=0))
    before = state.spice_on_map.get(territory, 0)
    state = evolve(state, spice_on_map=state.spice_on_map.set(territory, before + value),
                                bank=state.bank - value)
    added = f" (added to the {before} already there, GAP-15)" if before else ""
    return with_events(state, event("spice-placed", f"Pile {pile}: {value} spice in {area.name}{added}",
                                    pile=pile, area=territory, amount=value))


def _victims(state: GameState, territory: str) -> tuple[tuple[str, ...], Any, tuple[str, ...]]:
    """The Houses present in ``territory`` (tokens or a committed harvester), those a worm devours there (hook
    ``worm.victims``: FREMEN-P2 a spares the tamer) and the powers that spared some."""
    present = tuple(sorted({h for (h, a, _s) in state.forces if a == territory}
                           | {k[0] for k in state.committed_harvesters if k[1] == territory}))
    victims, ids = applied(state, "worm.victims", present, {"area": territory})
    return present, victims, tuple(ids)


def devour(state: GameState, territory: str, *, cause: str) -> GameState:
    """SPICE-6, SPICE-8, GAP-17: a worm destroys the armies, the spice and the committed harvesters there.

    The Houses devoured are those the hook ``worm.victims`` leaves (FREMEN-P2 a: the worm spares the tokens and
    the committed harvester of the House that tames it); the spice is always lost."""
    name = rules().board.area(territory).name
    present, victims, ids = _victims(state, territory)
    for house in present:
        if house not in victims:
            state = with_events(state, event("worm-tamed", f"{cause}: the worm spares {house} in {name} "
                                             f"({', '.join(ids)})", house=house, area=territory, powers=ids))
    for (house, area, sector), tokens in list(state.forces.items()):
        if area == territory and house in victims:
            sheltered = leader_specials.worm_spares(state, house, territory)  # leaders.md S-2: tokens only
            if sheltered is not None:
                state = with_events(state, event("worm-tamed", f"{cause}: the worm spares {house}'s tokens in "
                                                 f"{name} ({sheltered})", house=house, area=territory,
                                                 powers=(sheltered,)))
                continue
            state = with_events(state, event("tokens-destroyed", f"{cause}: {tokens.total} {house} token(s) devoured "
                                             f"in {name}", house=house, area=area, sector=sector,
                                             count=tokens.total, cause=cause))
            state = kill_tokens(state, house, area, sector, tokens)
    for key, count in list(state.committed_harvesters.items()):
        if key[1] == territory and key[0] in victims:
            state = evolve(state, committed_harvesters=state.committed_harvesters.without(key))
            state = with_events(state, event("harvester-destroyed", f"{cause}: {count} {key[0]} harvester(s) devoured "
                                             f"in {name}", house=key[0], area=territory, count=count, cause=cause))
    if state.spice_on_map.get(territory, 0):
        state = remove_spice(state, territory, cause=cause)
    return state


def _worm(state: GameState, pile: int) -> GameState:
    run = state.worm_run + 1
    state = evolve(state, worm_run=run)
    target = state.spice_deck.pile_tops[pile - 1]
    if target is None:
        state = with_events(state, event("worm", f"Pile {pile}: Shai-Hulud, but no deposit lies beneath it",
                                         pile=pile, area=None))
        return _strike(state, pile, None)
    name = rules().board.area(target).name
    state = with_events(state, event("worm", f"Pile {pile}: Shai-Hulud strikes {name} (SPICE-6)",
                                     pile=pile, area=target))
    from dunenb.rules.worm_riding import taming_uses

    uses = taming_uses(state, target)  # KARAMA-6 (i), at the strike, before a ride (GAP-63)
    if uses:
        return open_window(state, uses, "worm-strike", pile=pile, target=target)
    return _strike(state, pile, target)


def _resume_strike(state: GameState, data: FrozenDict) -> GameState:
    return _strike(state, data["pile"], data["target"])


def _strike(state: GameState, pile: int, target: str | None) -> GameState:
    """SPICE-6: the worm devours (FREMEN-P2 a spares its holder unless KARAMA-6 was played), the alliance window
    of a run of worms (ALLIANCE-1/2), then the holder's ride (FREMEN-P2 b) before the next card."""
    if target is None:
        return _devoured(state, FrozenDict({"pile": pile, "target": None, "asked": False}))
    from dunenb.rules.leader_karama_events import ask_leaders, worm_shelters

    # leaders.md LC-11 c (GAP-152): a Karama against the leader whose S-2 shelter would spare tokens from this worm
    leaders = worm_shelters(state, target, _victims(state, target)[1])
    return ask_leaders(state, leaders, "worm-shelter", moment="c, her S-2 shelter from this worm", lasts="event",
                       pile=pile, target=target, asked=bool(leaders))


def _devoured(state: GameState, data: FrozenDict) -> GameState:
    pile, target = data["pile"], data["target"]
    if target is not None:
        state = devour(state, target, cause="Shai-Hulud")
    run = state.worm_run
    if run >= 2:
        windows = state.alliance_windows + 1
        state = evolve(state, alliance_windows=windows)
        breaks = " and breaks the previous alliance (ALLIANCE-4)" if windows > 1 else ""
        state = with_events(state, event(
            "alliance-window", f"{run} worms in a row: an alliance window opens (ALLIANCE-1/2){breaks}",
            pile=pile, run=run, window=windows))
    following = pending("spice", "chance", pile=pile, setup=False)
    if target is None:
        return evolve(state, pending=following)
    from dunenb.rules.worm_riding import offer_ride

    state = offer_ride(state, target, following)  # FREMEN-P2 b: before the next territory card
    return lift(state, "event")  # KARAMA-6 lasted that worm


register_resume("worm-strike", _resume_strike)
register_resume("worm-shelter", _devoured)

HANDLERS = {
    "spice": Handler(apply=_apply_draw, outcomes=spice_outcomes, is_outcome=is_spice_outcome),
}
