"""Builders for rule-test positions: play setup with chosen chance outcomes and decisions, force chance
outcomes, and edit a state (forces, spice, hands, harvesters, storms) while keeping tokens and spice conserved.

Not a test module: the rule tests import it (``from helpers_game import ...``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

from dunenb.actions import (
    Action,
    ChooseStart,
    DialStorm,
    DrawSpiceCard,
    DrawStormToken,
    InitialStormDial,
    PlaceStartingForces,
    Roll3d10,
    RollWormDice,
)
from dunenb.board import load_board
from dunenb.engine import (
    apply_action,
    chance_outcomes,
    check_action,
    current_player,
    initial_state,
    legal_actions,
    sample_chance,
    view,
)
from dunenb.rules import deck_tops
from dunenb.rules.anytime import is_anytime
from dunenb.rules.common import WEATHER_CONTROL
from dunenb.state import GameState, Tokens

BOARD = load_board()
TOKENS_PER_HOUSE = 20  # houses.md G-1
WORKED_EXAMPLE_CARDS = ("bassin-du-bouclier/6", "grande-etendue/10")  # SPICE-5


# --- chance ------------------------------------------------------------------------------------------------

def decisions(state: GameState) -> list[Action]:
    """The pending node's own decisions: ``legal_actions`` without the actions a House may play at any time
    (harvesters, the ghola: ``dunenb.rules.anytime``, GAP-57), which every decision menu ends with."""
    return [action for action in legal_actions(state) if not is_anytime(action)]


#: GAP-62: the nodes asked of every House in turn, whether or not it holds the secret card or slip they are for.
#: leaders.md K-19 (GAP-111): the buy-off step is asked of each side that could have a BUY_OFF leader on its wheel.
ASKED_OF_ALL = ("leader-buy-off", "traitor-call", "weather")


#: houses.md G-9: the Voice (BG-P1) and prescience (ATREIDES-P1) steps before the battle plans.
PRE_BATTLE = ("battle-voice", "battle-prescience", "battle-answer", "karama-window", "battle-disclose",
              "leader-pre-battle")  # leaders.md K-16 at LC-5 B1
#: leaders.md D-31: the B1 availability rolls of the leaders' powers (HARKONNEN-L10-c), before the plans.
B1_ROLL = "battle-b1-roll"


def roll_b1(state: GameState) -> GameState:
    """Settle the pending B1 availability rolls (leaders.md D-31, HARKONNEN-L10-c) with a 10: no built-in there."""
    while state.pending is not None and state.pending.kind == B1_ROLL:
        state = apply_action(state, chance_outcomes(state)[-1][0])
    return state


def skip_pre_battle(state: GameState) -> GameState:
    """Pass the Voice and prescience steps (G-9) of the pending battle, for tests about something else."""
    events = state.events
    while state.pending is not None and state.pending.kind in PRE_BATTLE + (B1_ROLL,):
        if state.pending.kind == "karama-window" and state.pending.detail.get("resume") not in (
                "battle-start", "minion-karama"):  # and KARAMA-50 against Vladimir's minions (GAP-125)
            break  # a later window (a capture's KARAMA-47...) belongs to the test
        if state.pending.kind == B1_ROLL:  # leaders.md D-31: a 10, so that H10-c's poison is not there
            state = apply_action(state, chance_outcomes(state)[-1][0])
            events += state.events
            continue
        state = apply_action(state, decisions(state)[0])  # the pass is listed first
        events += state.events
    return dataclasses.replace(state, events=events)


def pass_estimates(state: GameState) -> GameState:
    """Pass the secondary leaders' LC-5 B3 step (leaders.md K-16 estimate: Tufir), for tests about something else;
    events kept."""
    events = state.events
    while state.pending is not None and state.pending.kind == "leader-pre-battle" \
            and state.pending.detail.get("step") == "B3":
        state = apply_action(state, decisions(state)[0])  # the pass is listed first
        events += state.events
    return dataclasses.replace(state, events=events)


#: Nodes of the battle powers (dunenb.rules.battle_powers) a test about something else settles by default.
BATTLE_POWER_NODES = ("karama-window", "buy-off", "capture-draw", "captive", "traitor-discard",
                      "leader-buy-off")  # leaders.md K-19 passed


def settle_powers(state: GameState, kinds: Sequence[str] = BATTLE_POWER_NODES) -> GameState:
    """Settle the battle powers' nodes with their first option: Karama windows and the buy-off passed, the first
    leader drawn for a capture kept (HARKONNEN-P4), no traitor slip changed (HARKONNEN-M1). Events are kept."""
    events = state.events
    while state.pending is not None and state.pending.kind in kinds:
        if current_player(state) == "chance":
            state = apply_action(state, chance_outcomes(state)[0][0])
        else:
            state = apply_action(state, decisions(state)[0])
        events += state.events
    return dataclasses.replace(state, events=events)


def pass_unable(state: GameState, kinds: Sequence[str] = ASKED_OF_ALL) -> GameState:
    """Pass every pending node of ``kinds`` whose House has nothing to play but the pass (GAP-62: such a House is
    asked anyway, so that the question reveals nothing); stop at the first node with something else to choose.
    The events of the passes are added to the state's events, so that a test still sees what led here."""
    events = state.events
    while state.pending is not None and state.pending.kind in kinds:
        own = decisions(state)
        if [a.kind for a in own] != ["pass"]:
            break
        state = apply_action(state, own[0])
        events += state.events
    return dataclasses.replace(state, events=events)


def outcome_map(state: GameState) -> dict[Action, Fraction]:
    """The chance node's outcomes as a dict (checks that the node is a chance node)."""
    outcomes = chance_outcomes(state)
    assert outcomes, f"not a chance node: {state.pending}"
    return dict(outcomes)


#: the decks whose top the Atreides may see (ATREIDES-P2 c-d), by the kind of their draw action
_DECK_OF_DRAW = {"spice": "spice", "chance-card": "chance"}


def stack_top(state: GameState, deck: str, card: str) -> GameState:
    """A scene tool: the top card held apart on ``deck`` (ATREIDES-P2 c-d) becomes ``card``, the old top going
    back among the unseen cards (as if the deck had been stacked that way). Unchanged when no top is held."""
    old = deck_tops.top(state, deck)
    if old is None or old == card:
        return state
    spec = deck_tops.DECKS[deck]
    counts = spec.counts(state)
    counts = counts.set(old, counts.get(old, 0) + 1)
    assert counts.get(card, 0) > 0, f"{card} is not among the unseen cards of the {deck} deck"
    counts = counts.set(card, counts[card] - 1) if counts[card] > 1 else counts.without(card)
    state = spec.with_counts(state, counts)
    return dataclasses.replace(state, deck_tops=state.deck_tops.set(deck, card))


def force(state: GameState, action: Action) -> GameState:
    """Apply one chance outcome chosen by the test; it must be a possible outcome of the node.

    In a game where the Atreides see the top of a deck (ATREIDES-P2 c-d), a card drawn from it is first stacked
    on top (:func:`stack_top`), and the next top, drawn at once after it, is sampled, so that the card takes
    effect within this call as it does without the Atreides."""
    assert current_player(state) == "chance", f"not a chance node: {state.pending}"
    deck = _DECK_OF_DRAW.get(action.kind)
    if deck is not None:
        state = stack_top(state, deck, action.card)
    assert action in outcome_map(state), f"{action.notation()} is not a possible outcome"
    state = apply_action(state, action)
    events = state.events
    while state.pending is not None and state.pending.kind == "deck-top":
        state = apply_action(state, sample_chance(state))
        events += state.events
    return dataclasses.replace(state, events=events)  # the events of the draw and of the card taking effect


def force_card(state: GameState, card: str) -> GameState:
    """Turn ``card`` (``territory/value`` or ``worm``) on the pile the spice node is waiting for."""
    return force(state, DrawSpiceCard(state.pending.detail["pile"], card))


def force_cards(state: GameState, *cards: str) -> GameState:
    for card in cards:
        state = force_card(state, card)
    return state


def play_chance(state: GameState) -> GameState:
    """Resolve chance nodes with the state's own generator until a decision (or the end)."""
    while state.pending is not None and current_player(state) == "chance":
        state = apply_action(state, sample_chance(state))
    return state


def bot_game_states(houses: Sequence[str], seed: int, *, turn_limit: int, bot: str = "random") -> Iterator[GameState]:
    """Every state of the seeded bot game (``make_config(houses, seed, turn_limit)``, House k's bot seeded
    ``seed + k``, chance by the state's generator, as the benchmarks play it), from the first to the last."""
    from dunenb.bots import make_bot
    from dunenb.engine import make_config

    bots = {h: make_bot(bot, seed=seed + k) for k, h in enumerate(houses)}
    state = initial_state(make_config(list(houses), seed=seed, turn_limit=turn_limit))
    while state.pending is not None:
        yield state
        actor = current_player(state)
        state = apply_action(state, sample_chance(state) if actor == "chance" else bots[actor].choose(state))
    yield state


# --- setup -------------------------------------------------------------------------------------------------

def _next_roll(rolls: Mapping[str, int | Sequence[int]], house: str, used: dict[str, int]) -> int | None:
    if house not in rolls:
        return None
    wanted = rolls[house]
    if isinstance(wanted, int):
        wanted = [wanted]
    index = used.get(house, 0)
    used[house] = index + 1
    return wanted[index] if index < len(wanted) else None


def play_setup(
    houses: Sequence[str],
    *,
    seed: int = 0,
    rolls: Mapping[str, int | Sequence[int]] | None = None,
    worm_dice: int | None = None,
    starts: Mapping[str, int] | None = None,
    dials: Mapping[str, tuple[int, int]] | None = None,
    tokens: Mapping[str, int] | None = None,
    placement: Sequence[tuple[str, int, int, int]] | None = None,
    cards: Sequence[str] | None = WORKED_EXAMPLE_CARDS,
    stop_before: str | None = None,
    **options: object,
) -> GameState:
    """Play setup with chosen outcomes and return the first node of turn 2 (its storm phase).

    ``rolls``: 3d10 totals per House (a list gives the re-rolls too); ``starts``: start positions;
    ``dials``: initial dials per storm (``{"main": (a, b)}``); ``tokens``: the Fremen's first storm tokens;
    ``placement``: the Fremen's placements; ``cards``: the two setup territory cards. Anything not given is
    sampled (chance) or the first legal decision. ``stop_before`` names a pending kind to stop at instead
    (``"spice"`` stops before the first setup card, ``"spice2"`` before the second). Turn 1's own steps
    d)-j) (GAP-13: setup stands for its steps a-c) are played the same way, with the first legal decision
    (a pass in the auction), so that the result is still the first node of turn 2, after the weather nodes of
    Houses that can only pass (GAP-62, :func:`pass_unable`).
    """
    from dunenb.engine import new_game

    rolls, starts, dials, tokens = rolls or {}, starts or {}, dials or {}, tokens or {}
    used: dict[str, int] = {}
    state = new_game(list(houses), seed=seed, **options)
    while state.pending is not None and (state.phase == "setup" or state.turn == 1):
        kind, detail = state.pending.kind, state.pending.detail
        tag = "spice2" if kind == "spice" and detail.get("pile") == 2 else kind
        if stop_before == tag:
            return state
        action: Action | None = None
        if kind == "roll":
            total = _next_roll(rolls, detail["house"], used)
            action = None if total is None else Roll3d10(detail["house"], total)
        elif kind == "worm-dice" and worm_dice is not None:
            action = RollWormDice(worm_dice)
        elif kind == "start" and state.pending.actor in starts:
            action = ChooseStart(state.pending.actor, starts[state.pending.actor])
        elif kind == "storm-dial" and detail["storm"] in dials:
            house = state.storm_dialers[detail["index"]]
            action = InitialStormDial(detail["storm"], house, dials[detail["storm"]][detail["index"]])
        elif kind == "storm-token" and detail["storm"] in tokens:
            action = DrawStormToken(detail["storm"], tokens[detail["storm"]])
        elif kind == "place" and placement is not None:
            action = PlaceStartingForces("fremen", tuple(tuple(p) for p in placement))
        elif kind == "spice" and cards is not None:
            action = DrawSpiceCard(detail["pile"], cards[detail["pile"] - 1])
        if action is None:
            action = sample_chance(state) if current_player(state) == "chance" else legal_actions(state)[0]
        state = apply_action(state, action)
    return pass_unable(state, ("weather",))  # GAP-62: turn 2's storm cards are asked of every House


def quiet_setup(houses: Sequence[str], **kwargs: object) -> GameState:
    """A setup whose storms start on sector 1 (dials 0 + 0) and whose starts are 1, 4, 7, ... (2 + 3k).

    The main storm sits on Arrakeen's sector; with the worked-example cards the deposits are
    Bassin du Bouclier 6 (diamond in sector 6) and Grande Etendue 10 (diamond in sector 17).
    """
    kwargs.setdefault("dials", {"main": (0, 0), "secondary": (0, 0)})
    kwargs.setdefault("rolls", {h: 3 + 3 * i for i, h in enumerate(houses)})
    kwargs.setdefault("starts", {h: 1 + 3 * i for i, h in enumerate(houses)})
    return play_setup(houses, **kwargs)


def dial(state: GameState, *values: int) -> GameState:
    """Without the Fremen (GAP-7a): the storm dialers dial ``values`` in turn for the pending storm."""
    for value in values:
        assert state.pending.kind == "dial", state.pending
        state = apply_action(state, DialStorm(state.pending.detail["storm"], state.pending.actor, value))
        state = pass_unable(state, ("weather",))  # GAP-62: Houses with no storm card are asked too
    return state


# --- editing positions -------------------------------------------------------------------------------------

def place(state: GameState, house: str, area: str, sector: int, regular: int, marked: int = 0) -> GameState:
    """Move tokens from the House's reserve to (area, sector), keeping reserve + tanks + board = 20."""
    assert sector in BOARD.area(area).sectors, (area, sector)
    tokens = Tokens(regular, marked)
    hs = state.houses[house]
    reserve = hs.reserve - tokens
    assert reserve.regular >= 0 and reserve.marked >= 0, f"{house} has too few tokens in reserve"
    key = (house, area, sector)
    forces = state.forces.set(key, state.forces.get(key, Tokens()) + tokens)
    houses = state.houses.set(house, dataclasses.replace(hs, reserve=reserve))
    return dataclasses.replace(state, forces=forces, houses=houses)


def put_spice(state: GameState, area: str, amount: int) -> GameState:
    """Put ``amount`` spice on an area's diamond, paid out by the Bank (total spice stays 0)."""
    before = state.spice_on_map.get(area, 0)
    return dataclasses.replace(state, spice_on_map=state.spice_on_map.set(area, before + amount),
                               bank=state.bank - amount)


def commit_harvester(state: GameState, house: str, area: str, sector: int, count: int = 1) -> GameState:
    """Commit ``count`` of the House's harvesters in (area, sector) (HARVEST-10, GAP-17)."""
    hs = state.houses[house]
    assert hs.harvesters >= count
    houses = state.houses.set(house, dataclasses.replace(hs, harvesters=hs.harvesters - count))
    committed = state.committed_harvesters.set((house, area, sector), count)
    return dataclasses.replace(state, houses=houses, committed_harvesters=committed)


def give_cards(state: GameState, house: str, *cards: str) -> GameState:
    hs = state.houses[house]
    return dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(hs, hand=hs.hand + cards)))


def give_weather_control(state: GameState, house: str, count: int = 1) -> GameState:
    return give_cards(state, house, *([WEATHER_CONTROL] * count))


def set_storms(state: GameState, main: int | None = None, secondary: int | None = None) -> GameState:
    changes: dict[str, int] = {}
    if main is not None:
        changes["storm_main"] = main
    if secondary is not None:
        changes["storm_secondary"] = secondary
    return dataclasses.replace(state, **changes)


def clear_map(state: GameState) -> GameState:
    """Send every token on the map back to its reserve and every deposit back to the Bank."""
    for (house, area, sector), tokens in list(state.forces.items()):
        hs = state.houses[house]
        state = dataclasses.replace(
            state, forces=state.forces.without((house, area, sector)),
            houses=state.houses.set(house, dataclasses.replace(hs, reserve=hs.reserve + tokens)))
    bank = state.bank + sum(state.spice_on_map.values())
    return dataclasses.replace(state, spice_on_map=type(state.spice_on_map)(), bank=bank)


# --- inspecting --------------------------------------------------------------------------------------------

def tokens_at(state: GameState, house: str, area: str, sector: int | None = None) -> int:
    return sum(t.total for (h, a, s), t in state.forces.items()
               if h == house and a == area and (sector is None or s == sector))


def board_tokens(state: GameState, house: str) -> Tokens:
    total = Tokens()
    for (h, _a, _s), tokens in state.forces.items():
        if h == house:
            total = total + tokens
    return total


def token_count(state: GameState, house: str) -> int:
    """Reserve + tanks + board + set aside in a deal: 20 (houses.md G-1) plus tokens traded (GAP-19)."""
    hs = state.houses[house]
    return (hs.reserve.total + hs.tanks.total + board_tokens(state, house).total + state.tokens_set_aside(house)
            - (state.token_quota(house) - 20))  # GAP-19 tokens traded; K-17 destroy_tanks: tokens destroyed


def events_of(state: GameState, kind: str) -> list:
    return [e for e in state.events if e.kind == kind]


def assert_conserved(state: GameState) -> None:
    """Token conservation per House and spice conservation (``total_spice() == 0``)."""
    for house in state.config.houses:
        assert token_count(state, house) == TOKENS_PER_HOUSE, house
    assert state.total_spice() == 0


def areas_of_kind(kind: str) -> list[str]:
    return [a.id for a in BOARD.areas if a.kind == kind]


def sectors_passed(start: int, steps: int) -> list[int]:
    return [((start - 1 + k) % 24) + 1 for k in range(1, steps + 1)]


def all_actions(states: Iterable[GameState]) -> list[Action]:
    """Every legal action at each of the given states (handy for round-trip tests)."""
    return [a for s in states for a in legal_actions(s)]


def finish_turn(state: GameState) -> GameState:
    """Play the rest of the current turn (chance sampled, first legal decision otherwise) and return the first
    node of the next turn, after the weather nodes of Houses that can only pass (GAP-62)."""
    turn = state.turn
    while state.pending is not None and state.turn == turn:
        action = sample_chance(state) if current_player(state) == "chance" else legal_actions(state)[0]
        state = apply_action(state, action)
    return pass_unable(state, ("weather",))


def pass_karama(state: GameState) -> GameState:
    """Every House asked at a Karama window passes (GAP-63), until another decision comes."""
    from dunenb.actions import Pass

    while state.pending is not None and state.pending.kind == "karama-window":
        state = apply_action(state, Pass(state.pending.actor))
    return state


def held_by_harkonnen(state: GameState, owner: str, leader: str) -> GameState:
    """``owner``'s ``leader`` held captive by the Harkonnen (HARKONNEN-P4), under the key ``"owner:id"``."""
    from dunenb.rules.common import edit_house

    hs, hk = state.houses[owner], state.houses["harkonnen"]
    state = edit_house(state, owner, leaders=tuple(x for x in hs.leaders if x != leader))
    state = edit_house(state, "harkonnen", leaders=hk.leaders + (f"{owner}:{leader}",))
    return dataclasses.replace(state, captured=state.captured + ((owner, leader),))


# --- driving a battle ----------------------------------------------------------------------------------------

#: The battle steps whose first option is the pass (houses.md G-9 Voice and prescience, the Karama windows and
#: BG-M2 disclosures, leaders.md K-16 pre-battle uses at LC-5 B1/B3, K-19 buy-off, K-18 alliance, B7 specials) and
#: D-31's B1 availability rolls: what :func:`play_battle` passes by default.
PASS_FIRST = PRE_BATTLE + (B1_ROLL, "leader-buy-off", "leader-alliance", "leader-special")

#: Where :func:`play_battle` stops: a node kind, a (kind, House) pair, or a test on the state.
Until = str | tuple[str, str] | Callable[[GameState], bool] | None


def _reached(state: GameState, until: Until) -> bool:
    if until is None or state.pending is None:
        return False
    if callable(until):
        return until(state)
    if isinstance(until, tuple):
        return (state.pending.kind, state.pending.actor) == until
    return state.pending.kind == until


def play_battle(state: GameState, plans: Mapping[str, Action | Any] | None = None, *, until: Until = None,
                through: Sequence[str] = PASS_FIRST, only_pass: Sequence[str] = (),
                calls: Mapping[str, str] | None = None, past_outcome: bool = False,
                keep_events: bool = True) -> GameState:
    """Play the pending battle on to a given node: set the given plans, pass every pass-first step, stop.

    Step by step, until the pending node matches ``until`` (a kind, a ``(kind, House)`` pair or a test on the
    state; checked before each step, so a node already there is kept):

    * a ``battle-plan`` node of a House in ``plans`` (House -> its :class:`~dunenb.rules.battle_phase.SubmitPlan`,
      or a bot: its choice from the House's view) gets that plan, once, checked legal first (a House asked again,
      or a House without a plan, stops the play there);
    * a ``traitor-call`` node (TRAITOR-8): with ``calls`` given, a House in it calls treachery on the opposing
      leader it names, every other House passes; without, the node is passed only when the pass is the House's
      one option (GAP-62, :func:`pass_unable`), and a real choice stops the play;
    * a node of a kind in ``only_pass`` is passed when the pass is the House's one option, and stops the play
      otherwise;
    * a node of a kind in ``through`` (by default :data:`PASS_FIRST`) is passed: its first option, which is the
      pass at those steps; a B1 availability roll (leaders.md D-31) is settled with a 10, so that
      HARKONNEN-L10-c's poison is not there; as in :func:`skip_pre_battle`, only the Karama windows of the
      battle's start (and KARAMA-50's against Vladimir's minions) are passed;
    * any other node (a chance node of the resolution, a choice that belongs to the test) stops the play.

    It stops too when no node is pending and, unless ``past_outcome``, right after the battle's outcome
    (a ``battle-outcome`` event: the steps after the battle belong to the test). The events of every step are kept
    in the returned state's events, after the state's own (``keep_events=False``: only the last step's, as
    ``apply_action`` gives them).
    """
    from dunenb.actions import Pass
    from dunenb.rules.battle_phase import CallTraitor

    left = dict(plans or {})
    events = state.events
    while state.pending is not None and not _reached(state, until):
        kind, house = state.pending.kind, state.pending.actor
        if kind == "battle-plan":
            if house not in left:
                break
            plan = left.pop(house)
            action: Action = plan.choose(view(state, house)) if hasattr(plan, "choose") else plan
            assert check_action(state, action) is None, check_action(state, action)
        elif kind == "traitor-call":
            own = decisions(state)
            if calls is None and [a.kind for a in own] != ["pass"]:
                break
            called = (calls or {}).get(house)
            if called is None:
                action = Pass(house)
            else:
                action = CallTraitor(house, called)
        elif kind in only_pass:
            own = decisions(state)
            if [a.kind for a in own] != ["pass"]:
                break
            action = own[0]
        elif kind in through and kind == B1_ROLL:
            action = chance_outcomes(state)[-1][0]
        elif kind == "karama-window" and state.pending.detail.get("resume") not in ("battle-start", "minion-karama"):
            break  # as skip_pre_battle: a later window (a capture's KARAMA-47...) belongs to the test
        elif kind in through and current_player(state) != "chance":
            action = decisions(state)[0]
        else:
            break
        state = apply_action(state, action)
        events += state.events
        if not past_outcome and any(e.kind == "battle-outcome" for e in state.events):
            break
    return dataclasses.replace(state, events=events) if keep_events else state


#: The resumes of the LC-11 a windows (GAP-151): a Karama against a secondary leader once his House uses one of his
#: powers before B6 (dunenb.rules.leader_karama_before).
LC11_A_RESUMES = ("battle-voice-stated", "battle-question-stated", "leader-pre-battle-declared")


def pass_leader_karama(state: GameState) -> GameState:
    """Every House asked at an LC-11 a window (GAP-151) passes; the events of every step are kept."""
    from dunenb.actions import Pass

    said = state.events
    while state.pending is not None and state.pending.kind == "karama-window" \
            and state.pending.detail.get("resume") in LC11_A_RESUMES:
        state = apply_action(state, Pass(state.pending.actor))
        said += state.events
    return dataclasses.replace(state, events=said)
