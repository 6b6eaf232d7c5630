"""Game start: SETUP-1 to SETUP-8 with GAP-4, GAP-5, GAP-6, GAP-13 and the Houses' starting conditions.

Order (SETUP-1 with GAP-4c): every House rolls 3d10 (ties re-roll, GAP-4a/GAP-5); optional worm dice
(SPICE-3); start positions chosen from the lowest total up (SETUP-2, GAP-4b); the two highest totals dial
each storm 0..20 + 0..20 from Arrakeen / the Grotte aux Oiseaux (STORM-2, STORM-12, GAP-6); the Fremen
draw their first storm tokens (FREMEN-P1); starting forces are placed (SETUP-1 f, houses.md, G-8); two
territory cards are turned with worms ignored (SETUP-1 g, SETUP-5). Per GAP-13 the initial dial is turn 1's
storm movement and setup g) is turn 1's spice blow, so turn 1 continues at step d).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from itertools import combinations

from dunenb.actions import (
    Action,
    ChooseStart,
    InitialStormDial,
    PlaceStartingForces,
    Roll3d10,
    RollWormDice,
)
from dunenb.errors import IllegalActionError
from dunenb.powers import is_in_play
from dunenb.rules import flow, storm
from dunenb.rules.common import (
    Handler,
    add_forces,
    advance_sector,
    dice_sum_distribution,
    edit_house,
    event,
    is_exposed_to_storm,
    node,
    pending,
    rules,
    uniform,
    with_events,
)
from dunenb.state import GameState, Tokens, evolve

STORM_ORIGINS = {"main": "arrakeen", "secondary": "grotte-aux-oiseaux"}  # STORM-2, STORM-12


def roll_order(state: GameState) -> tuple[str, ...]:
    """Houses from the lowest 3d10 total to the highest; re-rolls break ties (GAP-4a)."""
    return tuple(sorted(state.config.houses, key=lambda h: state.houses[h].rolls))


def begin(state: GameState) -> GameState:
    """Enter setup: the first House rolls 3d10."""
    return evolve(state, phase="setup", pending=pending("roll", "chance", house=state.config.houses[0]))


# --- 3d10 and ties --------------------------------------------------------------------------------------

def _roll_outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    assert state.pending is not None
    house = state.pending.detail["house"]
    return [(Roll3d10(house, total), p) for total, p in sorted(dice_sum_distribution(3, 10).items())]


def _is_roll(state: GameState, action: Action) -> bool:
    """SETUP-2: the House asked to roll shows a 3d10 total (3..30); the rule behind :func:`_roll_outcomes`."""
    return (type(action) is Roll3d10 and action.house == node(state).detail["house"]
            and action.total in dice_sum_distribution(3, 10))


def _houses_needing_roll(state: GameState) -> list[str]:
    houses = state.config.houses
    not_rolled = [h for h in houses if not state.houses[h].rolls]
    if not_rolled:
        return not_rolled
    # GAP-4a: a House is still tied while another House's rolls start with all of its own (an equal
    # sequence, or a tied partner who has already re-rolled): every tied House must re-roll.
    rolls = {h: state.houses[h].rolls for h in houses}
    return [h for h in houses if any(g != h and rolls[g][:len(rolls[h])] == rolls[h] for g in houses)]


def _apply_roll(state: GameState, action: Roll3d10) -> GameState:
    hs = state.houses[action.house]
    state = edit_house(state, action.house, rolls=hs.rolls + (action.total,))
    kind = "re-roll (GAP-4a)" if hs.rolls else "3d10"
    state = with_events(state, event("roll", f"{action.house} rolls {kind}: {action.total}",
                                     house=action.house, total=action.total))
    waiting = _houses_needing_roll(state)
    if waiting:
        # Tied Houses re-roll in table order; a tie group is complete when all its members rolled again.
        longest = max(len(state.houses[h].rolls) for h in waiting)
        behind = [h for h in waiting if len(state.houses[h].rolls) < longest]
        return evolve(state, pending=pending("roll", "chance", house=(behind or waiting)[0]))
    return _begin_worm_dice(state)


# --- worm dice ------------------------------------------------------------------------------------------

def _worm_option(state: GameState):
    options = rules().worm_options
    return options[state.config.worm_option]


def _begin_worm_dice(state: GameState) -> GameState:
    option = _worm_option(state)
    if option.dice:
        return evolve(state, pending=pending("worm-dice", "chance"))
    return _begin_start_choice(state)


def _worm_dice_outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    option = _worm_option(state)
    return [(RollWormDice(t), p) for t, p in sorted(dice_sum_distribution(option.dice, option.die).items())]


def _apply_worm_dice(state: GameState, action: RollWormDice) -> GameState:
    deck = state.spice_deck
    worms = deck.remaining.get("worm", 0) + action.total
    deck = dataclasses.replace(deck, remaining=deck.remaining.set("worm", worms))
    state = evolve(state, spice_deck=deck)
    state = with_events(state, event("worm-dice", f"SPICE-3: {action.total} extra worm cards ({worms} in all)",
                                     total=action.total))
    return _begin_start_choice(state)


# --- start positions ------------------------------------------------------------------------------------

def _begin_start_choice(state: GameState) -> GameState:
    return evolve(state, pending=pending("start", roll_order(state)[0], index=0))


def legal_start_positions(state: GameState) -> list[int]:
    """SETUP-2 with GAP-4b: free positions not next to the previous chooser's position (at least one line apart)."""
    assert state.pending is not None
    order = roll_order(state)
    index = state.pending.detail["index"]
    taken = {state.houses[h].start_position for h in order[:index]}
    previous = state.houses[order[index - 1]].start_position if index else None
    allowed = []
    for position in range(1, 25):
        if position in taken:
            continue
        if previous is not None and min((position - previous) % 24, (previous - position) % 24) <= 1:
            continue
        allowed.append(position)
    return allowed


def _start_decisions(state: GameState) -> list[Action]:
    assert state.pending is not None
    house = state.pending.actor
    return [ChooseStart(house, p) for p in legal_start_positions(state)]


def _apply_start(state: GameState, action: ChooseStart) -> GameState:
    assert state.pending is not None
    state = edit_house(state, action.house, start_position=action.position)
    state = with_events(state, event("start", f"{action.house} takes start position {action.position}",
                                     house=action.house, position=action.position))
    assert state.pending is not None
    index = state.pending.detail["index"] + 1
    order = roll_order(state)
    if index < len(order):
        return evolve(state, pending=pending("start", order[index], index=index))
    dialers = tuple(sorted(order, key=lambda h: state.houses[h].rolls, reverse=True)[:2])  # SETUP-4
    state = evolve(state, storm_dialers=dialers)
    return flow.after_setup_step(state, "start")


def begin_storm_dials(state: GameState) -> GameState:
    """SETUP-1 e): the two highest rollers dial the main storm (then the secondary one)."""
    return evolve(state, phase="setup", pending=pending("storm-dial", "chance", storm="main", index=0,
                                                                     total=0))


# --- initial storm dials --------------------------------------------------------------------------------

def _storm_dial_outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    assert state.pending is not None
    detail = state.pending.detail
    house = state.storm_dialers[detail["index"]]
    return uniform([InitialStormDial(detail["storm"], house, v) for v in range(21)])


def _apply_storm_dial(state: GameState, action: InitialStormDial) -> GameState:
    assert state.pending is not None
    detail = state.pending.detail
    total = detail["total"] + action.value
    state = with_events(state, event("storm-dial", f"{action.house} shows {action.value} for the {action.storm} "
                                     "storm (GAP-6: 0..20)", storm=action.storm, house=action.house,
                                     value=action.value))
    if detail["index"] + 1 < len(state.storm_dialers):
        return evolve(state, pending=pending(
            "storm-dial", "chance", storm=action.storm, index=detail["index"] + 1, total=total))
    origin = rules().board.area(STORM_ORIGINS[action.storm]).sectors[0]
    sector = advance_sector(origin, total)
    state = (evolve(state, storm_main=sector) if action.storm == "main"
             else evolve(state, storm_secondary=sector))
    state = with_events(state, event(
        "storm-placed", f"The {action.storm} storm starts at sector {origin} and moves {total} to sector {sector}",
        storm=action.storm, origin=origin, moves=total, sector=sector, path=()))
    if action.storm == "main" and state.config.secondary_storm:
        return evolve(state, pending=pending("storm-dial", "chance", storm="secondary", index=0, total=0))
    return flow.after_setup_step(state, "storm-dial")


def begin_first_storm_tokens(state: GameState) -> GameState:
    """FREMEN-P1: after setup e) the Fremen draw the turn-2 token of each storm."""
    return storm.begin_token_draws(state, after="setup")


def begin_forces(state: GameState) -> GameState:
    """SETUP-1 f): place the armies that start on Dune (houses.md START lines, G-8)."""
    board = rules().board
    for house in state.config.houses:
        house_rules = rules().house(house)
        for force in house_rules.start_forces or ():
            sector = next(s for s in board.area(force.area).sectors)
            state = _place(state, house, force.area, sector, Tokens(force.regular, force.marked))
    choosers = [h for h in state.config.houses if rules().house(h).start_forces is None and is_in_play(state, h)]
    if choosers:  # FREMEN-START: a House whose start is "fremen-choice" in houses.json splits its tokens itself
        return evolve(state, pending=pending("place", choosers[0]))
    return flow.after_setup_step(state, "forces")


def _place(state: GameState, house: str, area: str, sector: int, tokens: Tokens) -> GameState:
    hs = state.houses[house]
    state = edit_house(state, house, reserve=hs.reserve - tokens)
    state = add_forces(state, house, area, sector, tokens)
    name = rules().board.area(area).name
    return with_events(state, event("placed", f"{house} places {tokens.total} token(s) in {name} (SETUP-1 f)",
                                    house=house, area=area, sector=sector, count=tokens.total))


# --- Fremen placement -----------------------------------------------------------------------------------

def fremen_neighbours(state: GameState) -> list[str]:
    """FREMEN-START: the mountains and deserts adjacent to Sietch Tarb."""
    ruleset = rules()
    home = ruleset.board.area(ruleset.fremen_home)
    return [a for a in home.adjacent if ruleset.board.area(a).kind in ruleset.fremen_other_kinds]


def _safe_sector(state: GameState, area_id: str) -> int | None:
    """G-8: the first sector of an area that is not a storm sector, or any sector if the area is protected."""
    area = rules().board.area(area_id)
    exposed = is_exposed_to_storm(state, area_id)
    for sector in area.sectors:
        if not exposed or sector not in state.storm_sectors():
            return sector
    return None


def _fremen_decisions(state: GameState) -> list[Action]:
    """A representative menu: all 10 at home; 5/5 with one neighbour; 4/3/3 with two (any split is legal)."""
    assert state.pending is not None
    ruleset = rules()
    home = ruleset.fremen_home
    total = ruleset.fremen_on_dune
    home_sector = _safe_sector(state, home)
    assert home_sector is not None  # FREMEN-START: the storm never covers every sector of the Fremen home
    house = state.pending.actor  # the House choosing its start (FREMEN-START)
    choices: list[Action] = [PlaceStartingForces(house, ((home, home_sector, total, 0),))]
    usable = [(a, s) for a in fremen_neighbours(state) if (s := _safe_sector(state, a)) is not None]
    half = total // 2
    for area, sector in usable:
        choices.append(PlaceStartingForces(house, ((home, home_sector, total - half, 0), (area, sector, half, 0))))
    third = total // 3
    for (a1, s1), (a2, s2) in combinations(usable, 2):
        choices.append(PlaceStartingForces(
            house, ((home, home_sector, total - 2 * third, 0), (a1, s1, third, 0), (a2, s2, third, 0))))
    return choices


def check_fremen_placement(state: GameState, action: PlaceStartingForces) -> IllegalActionError | None:
    """FREMEN-START and G-8, checked for any split the player proposes."""
    ruleset = rules()
    allowed = {ruleset.fremen_home, *fremen_neighbours(state)}
    areas = [p[0] for p in action.placements]
    if len(set(areas)) != len(areas):
        return IllegalActionError("setup/fremen-areas", "name each territory once")
    others = [a for a in areas if a != ruleset.fremen_home]
    if len(others) > ruleset.fremen_max_other_territories:
        return IllegalActionError("setup/fremen-areas", "at most 2 territories besides Sietch Tarb (FREMEN-START)")
    for area, sector, regular, marked in action.placements:
        if area not in allowed:
            return IllegalActionError(
                "setup/fremen-area", f"{area!r} is not Sietch Tarb or a mountain/desert next to it; "
                f"allowed: {sorted(allowed)}")
        if sector not in ruleset.board.area(area).sectors:
            return IllegalActionError("setup/sector", f"sector {sector} is not part of {area}")
        if is_exposed_to_storm(state, area) and sector in state.storm_sectors():
            return IllegalActionError("setup/storm-sector", f"{area} sector {sector} is under a storm (G-8)")
        if regular < 0 or marked != 0:
            return IllegalActionError("setup/fremen-count", "place unmarked tokens only (the F tokens start in "
                                      "reserve, GAP-40 design); counts must be positive")
    if sum(p[2] for p in action.placements) != ruleset.fremen_on_dune:
        return IllegalActionError("setup/fremen-count", f"place exactly {ruleset.fremen_on_dune} tokens")
    return None


def _apply_fremen_placement(state: GameState, action: PlaceStartingForces) -> GameState:
    for area, sector, regular, marked in action.placements:
        if regular or marked:
            state = _place(state, action.house, area, sector, Tokens(regular, marked))
    return flow.after_setup_step(state, "forces")


HANDLERS = {
    "roll": Handler(apply=_apply_roll, outcomes=_roll_outcomes, is_outcome=_is_roll),
    "worm-dice": Handler(apply=_apply_worm_dice, outcomes=_worm_dice_outcomes),
    "start": Handler(apply=_apply_start, decisions=_start_decisions),
    "storm-dial": Handler(apply=_apply_storm_dial, outcomes=_storm_dial_outcomes),
    "place": Handler(apply=_apply_fremen_placement, decisions=_fremen_decisions, check=check_fremen_placement),
}
