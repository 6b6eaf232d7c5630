"""The engine's entry points: ``new_game``, ``legal_actions``, ``chance_outcomes``, ``apply_action``.

A game is its configuration plus an ordered list of actions; chance events are actions too. The state
keeps a seeded generator (seed + counter) that *proposes* chance outcomes (``sample_chance``); replaying
recorded actions never re-rolls.

>>> state = new_game(["atreides", "harkonnen"], seed=7)
>>> state.phase, state.pending.kind, current_player(state)
('setup', 'roll', 'chance')
>>> while current_player(state) == "chance":
...     state = apply_action(state, sample_chance(state))
>>> state.pending.kind, current_player(state) in ("atreides", "harkonnen")
('start', True)
>>> sum(p for _, p in chance_outcomes(new_game(["atreides", "harkonnen"], seed=1)))
Fraction(1, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import repeat
from operator import is_

from dunenb.actions import Action
from dunenb.errors import IllegalActionError, InputError
from dunenb.powers import holder, holds_power
from dunenb.rules import (
    alliances,
    anytime,
    battle_phase,
    bidding,
    captive_secrecy,
    chance,
    collection,
    deck_tops,
    karama_window,
    kynes,  # noqa: F401 (registers Liet Kynes' slot actions, FREMEN-M1/M2)
    movement,
    on_call,
    recovery,
    regeneration,
    setup,
    spice,
    storm,
    traitors,
    truth_trance,
    worm_riding,
)
from dunenb.rules.common import NO_PLEDGE, Handler, Pledge, event, with_events
from dunenb.ruleset import HOUSE_IDS, WORM_CARD, card_id, load_ruleset
from dunenb.seeding import first_random
from dunenb.state import FrozenDict, GameConfig, GameState, HouseState, Pending, SpiceDeck, Tokens, evolve

HANDLERS: dict[str, Handler] = truth_trance.with_trances({  # CARD-TRUTH-1, GAP-56: asked before some decisions
    **setup.HANDLERS, **storm.HANDLERS, **spice.HANDLERS, **traitors.HANDLERS, **bidding.HANDLERS,
    **movement.HANDLERS, **collection.HANDLERS, **battle_phase.HANDLERS, **chance.HANDLERS,
    **alliances.HANDLERS, **on_call.HANDLERS, **deck_tops.HANDLERS, **karama_window.HANDLERS, **worm_riding.HANDLERS,
})
CHANCE = "chance"


#: GAP-62: a seed drawn when none is given has this many bits, too many to find by trying seeds against the draws.
FRESH_SEED_BITS = 128


def fresh_seed() -> int:
    """A fresh seed of :data:`FRESH_SEED_BITS` bits from the operating system's entropy (GAP-62).

    A small explicit seed (``seed=7``) is for teaching and reproducible examples: anyone can try the small seeds
    one by one against the public draws and so learn every secret draw. Secret play takes the default.

    >>> 0 <= fresh_seed() < 2 ** FRESH_SEED_BITS and fresh_seed() != fresh_seed()
    True
    """
    from secrets import randbits  # issue 14 part 3: imported when a seed is drawn, not to replay a save

    return randbits(FRESH_SEED_BITS)


def make_config(
    houses: Sequence[str], *, seed: int | None = None, secondary_storm: bool = False, worm_option: str = "standard",
    turn_limit: int | None = None, victory_target: int | None = None, chance_cards: bool = False,
) -> GameConfig:
    """Validate the table's choices; bad values raise :class:`InputError` naming the field and allowed values.

    ``seed=None`` (the default) draws a fresh 128-bit seed (:func:`fresh_seed`, GAP-62); an explicit seed replays
    the same game.
    """
    if seed is None:
        seed = fresh_seed()
    houses = tuple(houses)
    if not 2 <= len(houses) <= 8:
        raise InputError("config/houses", f"houses: 2 to 8 Houses are needed, got {len(houses)}")
    unknown = [h for h in houses if h not in HOUSE_IDS]
    if unknown:
        raise InputError("config/houses", f"houses: unknown {unknown}; allowed: {', '.join(HOUSE_IDS)}")
    if len(set(houses)) != len(houses):
        raise InputError("config/houses", "houses: each House may play once")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InputError("config/seed", f"seed must be a non-negative integer, not {seed!r}")
    options = load_ruleset().worm_options
    if not isinstance(worm_option, str) or worm_option not in options:
        raise InputError("config/worm-option", f"worm_option {worm_option!r} not in {sorted(options)}")
    if not isinstance(secondary_storm, bool):
        raise InputError("config/secondary-storm", "secondary_storm must be true or false")
    if not isinstance(chance_cards, bool):
        raise InputError("config/chance-cards", "chance_cards must be true or false (GAP-20)")
    if turn_limit is not None and (isinstance(turn_limit, bool) or not isinstance(turn_limit, int) or turn_limit < 1):
        raise InputError("config/turn-limit", "turn_limit must be a positive integer or null")
    most = collection.settlement_count()  # VICTORY-1: no House could ever own more cities and Sietchs
    if victory_target is not None and (isinstance(victory_target, bool) or not isinstance(victory_target, int)
                                       or not 1 <= victory_target <= most):
        raise InputError("config/victory-target", f"victory_target {victory_target!r}: the number of cities and "
                         f"Sietchs to own (VICTORY-1) must be an integer from 1 to {most} (the board holds {most}), "
                         "or null for the suggested one")
    return GameConfig(houses=houses, seed=seed, secondary_storm=secondary_storm, worm_option=worm_option,
                      turn_limit=turn_limit, victory_target=victory_target, chance_cards=chance_cards)


def initial_state(config: GameConfig) -> GameState:
    """The position before the first action of setup (SETUP-1 a, b done by ``config``)."""
    from dunenb.battle.characters import leaders_in_game

    ruleset = load_ruleset()
    houses = {}
    for house in config.houses:
        rules = ruleset.house(house)
        houses[house] = HouseState(
            house=house, spice=rules.spice, reserve=Tokens(rules.tokens - rules.marked, rules.marked),
            harvesters=rules.harvesters,
            # leaders.md: one copy per character, allocated from the line-up before the traitor draw
            leaders=tuple(leader.id for leader in leaders_in_game(house, config.houses)),
        )
    remaining: dict[str, int] = {}
    for territory, value in ruleset.territory_cards:
        remaining[card_id(territory, value)] = remaining.get(card_id(territory, value), 0) + 1
    state = GameState(
        config=config, phase="setup", turn=1, pending=None, houses=FrozenDict(houses), forces=FrozenDict(),
        committed_harvesters=FrozenDict(), spice_on_map=FrozenDict(), storm_main=None,
        storm_secondary=None, storm_tokens=FrozenDict(), storm_moves=FrozenDict(),
        spice_deck=SpiceDeck(remaining=FrozenDict(remaining), discard=FrozenDict()),
        bank=-sum(h.spice for h in houses.values()), rng_seed=config.seed,
        treachery_deck=bidding.initial_deck(),  # GAP-26: the 61 treachery cards
        chance_deck=chance.initial_deck() if config.chance_cards else FrozenDict(),  # CHANCE-1, GAP-20
    )
    option = ruleset.worm_options[config.worm_option]
    worms = option.base if option.base is not None else ruleset.worm_base(
        has_fremen=holder(state, "FREMEN-P5") is not None)  # SPICE-3, FREMEN-P5 (data/powers.json)
    state = evolve(state, spice_deck=SpiceDeck(remaining=FrozenDict({**remaining, WORM_CARD: worms}),
                                                            discard=FrozenDict()))
    return setup.begin(state)


def new_game(houses: Sequence[str], *, seed: int | None = None, **options: object) -> GameState:
    """Start a game for these Houses (SETUP-1). Without ``seed``, a fresh 128-bit one (GAP-62: a small seed is for
    teaching and reproducible examples, not for secret play). Options: ``secondary_storm``, ``worm_option``,
    ``turn_limit``, ``victory_target``, ``chance_cards`` (GAP-20).

    >>> new_game(["fremen", "emperor", "guild"], seed=3, secondary_storm=True).config.secondary_storm
    True
    """
    allowed = ("secondary_storm", "worm_option", "turn_limit", "victory_target", "chance_cards")
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise InputError("config/option", f"unknown option(s) {unknown}; allowed: {', '.join(allowed)}")
    return initial_state(make_config(houses, seed=seed, **options))  # type: ignore[arg-type]


def current_player(state: GameState) -> str | None:
    """The House to act, ``"chance"`` at a chance node, or ``None`` when the game is over."""
    return None if state.pending is None else state.pending.actor


def is_terminal(state: GameState) -> bool:
    return state.pending is None


def _handler(state: GameState) -> Handler:
    if state.pending is None:
        raise IllegalActionError("game/over", "the game is over: no action can be played")
    return HANDLERS[state.pending.kind]


class _Menu:
    """What :func:`legal_actions` or :func:`chance_outcomes` listed for one state object (issue 14 item 4).

    It keeps the state itself (not its ``id``, which a new object could reuse) and the listed actions, whose
    identity :meth:`lists` tests. A plain record with slots (built at every node: a frozen dataclass's
    ``__init__`` cost more); nothing changes it once made."""

    __slots__ = ("actions", "outcomes", "state")

    def __init__(self, state: GameState, actions: list[Action], outcomes: list[tuple[Action, Fraction]] | None,
                 ) -> None:
        self.state, self.actions, self.outcomes = state, actions, outcomes

    def lists(self, action: object) -> bool:
        """Whether ``action`` is one of the listed objects themselves. issue 14 item 4: an identity scan in C,
        which stops at the pick, instead of a set of every listed ``id`` built at each node; the same answer, as
        the menu keeps the objects (so no other object can have one of their ids)."""
        return any(map(is_, repeat(action), self.actions))


#: The menu of the last node listed, a one-entry cache replaced as a whole (one assignment, so a reader sees one
#: entry or the other, never a mix). A position is immutable, so what was listed for this very state object stays
#: true: a bot lists the menu and picks from it, and :func:`apply_action` then knows the pick is legal without
#: listing the menu a second time (the check that would have found it there).
_last_menu: _Menu | None = None


def _remember(state: GameState, actions: list[Action], outcomes: list[tuple[Action, Fraction]] | None = None) -> None:
    global _last_menu
    _last_menu = _Menu(state, actions, outcomes)


def _listed_for(state: GameState) -> _Menu | None:
    menu = _last_menu
    return menu if menu is not None and menu.state is state else None


def chance_outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    """The outcomes of the chance node, with exact probabilities summing to 1 (empty at a decision)."""
    handler = _handler(state)
    if not handler.outcomes:
        return []
    known = _listed_for(state)
    if known is not None and known.outcomes is not None:
        return list(known.outcomes)
    outcomes = handler.outcomes(state)
    _remember(state, [action for action, _ in outcomes], outcomes)
    return list(outcomes)


def legal_actions(state: GameState) -> list[Action]:
    """The legal actions now: decisions for the House to act, or the outcomes of a chance node.

    Where a decision space is too large to list (the Fremen's free split), a representative menu is
    listed and ``apply_action`` accepts any action that passes the rule checks. After the node's own decisions
    come the actions its House may play at any time (harvesters, the ghola: :mod:`dunenb.rules.anytime`,
    GAP-57), at every decision node.
    """
    if state.pending is None:
        return []
    known = _listed_for(state)
    if known is not None:
        return list(known.actions)  # a copy: the caller may change its list
    handler = _handler(state)
    if handler.outcomes:
        return [action for action, _ in chance_outcomes(state)]
    assert handler.decisions is not None  # a node without outcomes is a decision node
    actions = handler.decisions(state) + anytime.menu(state, state.pending.actor, pledge(state))
    _remember(state, actions)
    return list(actions)


def pledge(state: GameState) -> Pledge:
    """What the House to act has promised at the pending node and may not spend at any time (GAP-57)."""
    assert state.pending is not None
    handler = _handler(state)
    if handler.outcomes or handler.pledged is None:
        return NO_PLEDGE
    return handler.pledged(state, state.pending.actor)


def sample_chance(state: GameState) -> Action:
    """The outcome the state's seeded generator proposes at this chance node (deterministic)."""
    outcomes = chance_outcomes(state)
    if not outcomes:
        raise IllegalActionError("chance/not-chance", f"{describe_pending(state)} is a decision, not a chance node")
    if len(outcomes) == 1:  # issue 14 item 4: a sure outcome needs no draw (the loop below would return it too)
        return outcomes[0][0]
    draw = first_random((state.rng_seed, state.rng_counter))  # issue 14: NumPy's first draw, no generator built
    cumulative, last, share = 0.0, None, 0.0
    for action, probability in outcomes:
        if probability is not last:  # issue 14 item 4: uniform outcomes share one Fraction, converted once
            last, share = probability, float(probability)
        cumulative += share
        if draw < cumulative:
            return action
    return outcomes[-1][0]


def describe_pending(state: GameState) -> str:
    if state.pending is None:
        return "the game is over"
    return f"turn {state.turn}, phase {state.phase}: waiting for {state.pending.kind!r} by {state.pending.actor}"


def _where(state: GameState, action: Action) -> str:
    """The action in notation and in words at the pending node, for an error (issue 16); built only when an
    action is refused (issue 14: a legal action costs no text)."""
    return f"{action.notation()!r} ({action.describe()}) at {describe_pending(state)}"


def check_action(state: GameState, action: Action) -> IllegalActionError | None:
    """Return the error that ``apply_action`` would raise for this action, or ``None`` if it is legal."""
    if not isinstance(action, Action):
        return IllegalActionError("action/type", f"{action!r} is not an action")
    if state.pending is None:
        return IllegalActionError("game/over", f"{action.notation()!r}: the game is over")
    handler = HANDLERS[state.pending.kind]
    if handler.outcomes:
        if handler.is_outcome is not None and handler.is_outcome(state, action):
            return None  # the outcome tested by its rule, no list of every outcome built (issue 14)
        outcomes = [a for a, _ in handler.outcomes(state)]
        if action not in outcomes:
            shown = ", ".join(a.notation() for a in outcomes[:6]) + (" ..." if len(outcomes) > 6 else "")
            return IllegalActionError("chance/not-an-outcome",
                                      f"{_where(state, action)}: not a possible outcome; possible: {shown}")
        return None
    if action.is_chance:
        return IllegalActionError("action/chance-at-decision",
                                  f"{_where(state, action)}: a chance outcome cannot be played here")
    if action.actor != state.pending.actor:
        return IllegalActionError("action/not-your-turn",
                                  f"{_where(state, action)}: House {action.actor!r} cannot act now")
    if anytime.is_anytime(action):  # HARVEST-3/4, CARD-GHOLA-1: whenever the House is to act (GAP-57)
        error = anytime.check(state, action, pledge(state))
        return None if error is None else IllegalActionError(error.code, f"{_where(state, action)}: {error.message}")
    if type(action) in handler.always:  # a Pass that is always open: the menu lists it for the House to act
        return None
    if handler.check and (type(action) in handler.accepts or type(action) in handler.checked) \
            and handler.check(state, action) is None:
        return None  # what the checks below would decide, without building the whole menu (big saves, issue 15)
    assert handler.decisions is not None  # a node without outcomes is a decision node
    decisions = handler.decisions(state)
    if action in decisions:
        return None
    if handler.check and (type(action) in {type(d) for d in decisions} or type(action) in handler.accepts):
        error = handler.check(state, action)
        if error is not None:
            return IllegalActionError(error.code, f"{_where(state, action)}: {error.message}")
        return None
    kinds = sorted({d.kind for d in decisions})
    if action.kind not in kinds:
        return IllegalActionError("action/wrong-kind", f"{_where(state, action)}: expected one of {kinds}")
    shown = ", ".join(d.notation() for d in decisions[:8]) + (" ..." if len(decisions) > 8 else "")
    return IllegalActionError("action/illegal", f"{_where(state, action)}: not allowed; allowed: {shown}")


def apply_action(state: GameState, action: Action) -> GameState:
    """Play one action (a decision or a chance outcome) and return the new state.

    The action is checked first: an illegal action raises :class:`IllegalActionError` naming the action,
    the phase, the House and the reason, and the given state is untouched (states are immutable).
    """
    known = _listed_for(state)
    if known is None or not known.lists(action):  # a pick from this node's own menu is legal as it is listed
        error = check_action(state, action)
        if error is not None:
            raise error
    assert state.pending is not None  # check_action refuses every action once the game is over
    play = anytime.apply if anytime.is_anytime(action) else HANDLERS[state.pending.kind].apply
    following = recovery.after_action(play(evolve(state, events=()), action))  # KARAMA-34, GAP-84
    if action.is_chance:
        following = evolve(following, rng_counter=following.rng_counter + 1)
    return following


def end_turn(state: GameState) -> GameState:
    """Close the turn; the next starts with the storm (TURN-1 a). A table turn limit ends the game (GAP-36c);
    without one the game still ends after the turn cap of ``data/victory.json`` (GAP-60)."""
    limit = state.config.turn_limit
    if limit is None:
        limit = collection.load_victory_rules().turn_cap  # GAP-60: every game ends
        reason = f"Turn cap {limit} reached (no table turn limit, GAP-60)"
    else:
        reason = f"Turn limit {limit} reached"
    if state.turn >= limit:
        state = with_events(state, event("game-over", reason))
        return evolve(state, phase="game-over", pending=None)
    state = evolve(state, turn=state.turn + 1, pole_ornithopters=())  # GAP-20: North Pole card ends
    state = with_events(state, event("turn", f"Turn {state.turn} begins", turn=state.turn))
    state = alliances.deliver_terms(state)  # ALLIANCE-8: goods promised for this turn
    # ATREIDES-P2 c-d: the tops the Atreides see now (after a KARAMA-41 turn), then TLEILAX-P3 (trigger
    # turn.start) and the storm (TURN-1 a)
    return deck_tops.ensure_all(state, "turn-start")


deck_tops.register_resume("turn-start", lambda state, _detail: regeneration.begin_turn(state))


def view(state: GameState, house: str | None) -> GameState:
    """The state as one House sees it: other hands, traitor slips (TRAITOR-4, their number stays visible) and
    prediction (BG-P6), the Fremen's storm tokens, the generator *and the seed it is built from* (``rng_seed``
    and ``config.seed`` are both 0 in a view: GAP-58, with the seed any House could compute every secret draw),
    the make-up of the treachery deck (only its size is public), other Houses' truth-trance answers (GAP-56),
    a captured leader's identity unless this House is his captor or his own (FAQ 17, GAP-75:
    :mod:`dunenb.rules.captive_secrecy`),
    and other Houses' entries in the pending node's ``secrets`` (leaders drawn as traitors) are hidden; a typed
    context in the node hides what it holds (:meth:`dunenb.rules.battle_context.BattleContext.seen_by`: a battle
    plan not yet revealed, a prescience answer not meant for this House).

    ``house=None`` is the god view (for teaching) and returns the state unchanged. A view is for looking and
    deciding (bots take it): it cannot propose chance outcomes (:func:`sample_chance` needs the god state).
    A record's House view (actions and alternatives redacted too) is :meth:`dunenb.record.GameRecord.view`.

    >>> state = new_game(["atreides", "fremen"], seed=12345)
    >>> seen = view(state, "atreides")
    >>> seen.config.seed, seen.rng_seed, seen.config.houses
    (0, 0, ('atreides', 'fremen'))
    """
    if house is None:
        return state
    houses = FrozenDict({h: hs if h == house else _hidden_house(hs) for h, hs in state.houses.items()})
    tokens = state.storm_tokens if holds_power(state, house, "FREMEN-P1") else FrozenDict()
    shown = None if state.pending is None else _redacted(state.pending, house)
    # The unseen treachery cards are the deck plus the other hands: only their number is public.
    deck = FrozenDict({"hidden": sum(state.treachery_deck.values())})
    # GAP-58: the seed is the generator; a view keeps neither (the counter of chance events is public).
    config = evolve(state.config, seed=0)
    god = state
    state = deck_tops.hide(state, house)  # ATREIDES-P2 c-d: a top card only its viewers see
    state = evolve(state, config=config, houses=houses, storm_tokens=tokens, rng_seed=0,
                   pending=shown, treachery_deck=deck)
    return captive_secrecy.redact(state, god, house)  # HARKONNEN-P4, FAQ 17 (GAP-75): a captive kept from others


#: issue 14 item 4: id(HouseState) -> (that HouseState, its view by another House). Successive states share most
#: HouseStates, so the bots' views of a game redact each once; the entry holds the record, so its id stays its own.
_HIDDEN_HOUSES: dict[int, tuple[HouseState, HouseState]] = {}


def _hidden_house(hs: HouseState) -> HouseState:
    """A House as the others see it: its hand, slips and prediction hidden, its truth-trance answers gone."""
    found = _HIDDEN_HOUSES.get(id(hs))
    if found is not None and found[0] is hs:
        return found[1]
    hidden = evolve(hs, hand=("hidden",) * len(hs.hand), traitors=(("hidden", "hidden"),) * len(hs.traitors),
                    prediction=None if hs.prediction is None else ("hidden", 0),
                    trance_answers=())  # CARD-TRUTH-1, GAP-56: a truth-trance answer is the asker's alone
    if len(_HIDDEN_HOUSES) >= 4096:
        _HIDDEN_HOUSES.clear()
    _HIDDEN_HOUSES[id(hs)] = (hs, hidden)
    return hidden


def _redacted(shown: Pending, house: str) -> Pending:
    """A pending node as ``house`` sees it: other Houses' ``secrets`` hidden, typed contexts redacting themselves
    (BattleContext.seen_by: plans, prescience answers), and the same for a node it interrupts (a Karama window's
    ``prior``: a bid's card up for auction, a battle's hidden plans)."""
    if "secrets" in shown.detail:
        secrets = tuple((h, value if h == house else "hidden") for h, value in shown.detail["secrets"])
        shown = evolve(shown, detail=shown.detail.set("secrets", secrets))
    for key, value in shown.detail.items():
        if hasattr(value, "seen_by"):
            shown = evolve(shown, detail=shown.detail.set(key, value.seen_by(house)))
        elif isinstance(value, Pending):
            shown = evolve(shown, detail=shown.detail.set(key, _redacted(value, house)))
    return shown


def play_until_decision(state: GameState) -> GameState:
    """Resolve chance nodes with the state's own generator until a House must decide (or the game ends)."""
    while state.pending is not None and current_player(state) == CHANCE:
        state = apply_action(state, sample_chance(state))
    return state
