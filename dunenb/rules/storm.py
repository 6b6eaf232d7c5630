"""Storms: STORM-1 to STORM-18 with GAP-7 to GAP-11, GAP-31 and FREMEN-P1 (the 1-7 tokens).

Each turn (TURN-1 a, STORM-16) the main storm moves, then the secondary one if it is in play:

* with the Fremen, by the token 1..7 they drew at the end of the previous storm phase (GAP-7c, FREMEN-P1);
* otherwise the two players who last used the battle wheels each dial 0..3 (GAP-7a); before any battle,
  the two who dialled the initial storm (GAP-7b).

Then every House in play is asked in storm order, with a pass first, whether it plays weather control (GAP-62:
whether or not it holds the card, so that the question reveals nothing), and its holders may play it
(STORM-5, GAP-31): ``plus1`` or ``plus2``
adds 1 or 2 sectors (CARD-WEATHER-2: "jusqu'à 2 secteurs"), ``stop`` ends the move after any number of sectors
of the path, 0 included. At the same node a House that may use Atomics on the Shield Wall may do so
(CARD-ATOMICS-2, GAP-55: :mod:`dunenb.rules.atomics`). The storm then
moves counterclockwise and ravages every sector it passes over or stops on (STORM-6, STORM-18, GAP-9).
If both storms end on the same sector, the double storm destroys everything there but the Pole and the
inside of Sietchs (STORM-15, GAP-11). Before a storm moves, if it would take only half of a group of the holder
of FREMEN-P3, KARAMA-7 is asked in a window (GAP-63): played, every such group it meets loses all its tokens,
for this storm's movement only (GAP-149).
"""

from __future__ import annotations

from fractions import Fraction

from dunenb.actions import Action, DialStorm, DrawStormToken, Pass, PlayWeatherControl
from dunenb.errors import IllegalActionError
from dunenb.powers import holder, is_in_play, owner
from dunenb.powers.karama import lift
from dunenb.powers.registry import implemented_uses, power
from dunenb.rules.atomics import BlowShieldWall, blow_shield_wall, can_blow_shield_wall, check_blow
from dunenb.rules.common import (
    WEATHER_CONTROL,
    Handler,
    destroy_in_sector,
    edit_house,
    event,
    is_exposed_to_storm,
    pending,
    steps_from,
    storm_losses,
    storm_order,
    uniform,
    with_events,
)
from dunenb.rules.karama_window import open_window, register_resume
from dunenb.state import FrozenDict, GameState, evolve

FREMEN_TOKENS = tuple(range(1, 8))  # GAP-7c: 7 tokens numbered 1-7
STORM_TOKENS_POWER = "FREMEN-P1"  # data/powers.json: the storm moves by its holder's tokens
HALF_LOSSES = "FREMEN-P3"  # data/powers.json: a storm takes half of each of its holder's groups (KARAMA-7)
DIAL_RANGE = tuple(range(0, 4))  # GAP-7a: each of two players dials 0..3
WEATHER_BONUS = {"plus1": 1, "plus2": 2}  # STORM-5, CARD-WEATHER-2: add "up to 2" sectors


def storms_in_play(state: GameState) -> tuple[str, ...]:
    return ("main", "secondary") if state.config.secondary_storm else ("main",)


def has_fremen(state: GameState) -> bool:
    """STORM-3, TURN-1 a, FREMEN-P1: whether the storms move by the tokens of the House that holds FREMEN-P1 by its
    sheet; once the Fremen are eliminated nobody does, and the last two fighters dial 0..6 (GAP-7a, GAP-52). A
    Karama (KARAMA-5) blocks only the sight of the token (:func:`token_holder`), not the tokens (STORM-4)."""
    return is_in_play(state, owner(STORM_TOKENS_POWER))


def token_holder(state: GameState) -> str | None:
    """FREMEN-P1: the House that sees the storm tokens drawn until they are revealed (or None: nobody, also while
    KARAMA-5 keeps them face down, STORM-4)."""
    return holder(state, STORM_TOKENS_POWER)


# --- Fremen storm tokens --------------------------------------------------------------------------------

def begin_token_draws(state: GameState, *, after: str) -> GameState:
    """FREMEN-P1: the Fremen draw one token per storm for the next storm phase (nothing without them). First every
    House with a hand is asked about KARAMA-5 (GAP-63): played, the tokens of this draw are drawn face down and the
    Fremen may not look at them until they are revealed (STORM-4; GAP-85: one use covers both storms' tokens)."""
    if not has_fremen(state):
        return _continue(state, after)
    uses = tuple(use.id for use in power(STORM_TOKENS_POWER).karama if use.moment == "storm-token-draw")
    return open_window(evolve(state, pending=None), uses, "storm-token-draw", after=after)


def _draw_tokens(state: GameState, data: FrozenDict) -> GameState:
    return evolve(state, pending=pending("storm-token", "chance", storm="main", after=data["after"]))


def _token_outcomes(state: GameState) -> list[tuple[Action, Fraction]]:
    assert state.pending is not None
    return uniform([DrawStormToken(state.pending.detail["storm"], v) for v in FREMEN_TOKENS])


def _apply_token(state: GameState, action: DrawStormToken) -> GameState:
    assert state.pending is not None
    state = evolve(state, storm_tokens=state.storm_tokens.set(action.storm, action.value))
    if token_holder(state) is None:  # KARAMA-5, STORM-4
        text = f"The Fremen draw a storm token for the {action.storm} storm face down: nobody sees it (KARAMA-5)"
    else:
        text = f"The Fremen draw a secret storm token for the {action.storm} storm (FREMEN-P1)"
    state = with_events(state, event("storm-token", text, storm=action.storm, secret=True,
                                     powers=(STORM_TOKENS_POWER,)))
    assert state.pending is not None
    after = state.pending.detail["after"]
    if action.storm == "main" and state.config.secondary_storm:
        return evolve(state, pending=pending("storm-token", "chance", storm="secondary", after=after))
    return _continue(state, after)


def _continue(state: GameState, after: str) -> GameState:
    from dunenb.rules import flow

    if after == "setup":
        return flow.after_setup_step(state, "storm-tokens")
    return flow.after_phase(state, "storm")


# --- the storm phase ------------------------------------------------------------------------------------

def begin_phase(state: GameState) -> GameState:
    """TURN-1 a): start moving the main storm."""
    state = evolve(state, phase="storm", storm_moves=FrozenDict())
    return _begin_storm(state, "main")


def _begin_storm(state: GameState, storm: str) -> GameState:
    if has_fremen(state):
        move = state.storm_tokens[storm]
        state = with_events(state, event("storm-token-revealed", f"The Fremen reveal {move} for the {storm} storm",
                                         storm=storm, value=move))
        if storm == storms_in_play(state)[-1]:
            state = lift(state, "reveal")  # KARAMA-5 lasted until this draw's tokens were revealed
        return _begin_weather(state, storm, move)
    return evolve(state, pending=pending("dial", state.storm_dialers[0], storm=storm, index=0, total=0))


def _dial_decisions(state: GameState) -> list[Action]:
    assert state.pending is not None
    detail = state.pending.detail
    return [DialStorm(detail["storm"], state.pending.actor, v) for v in DIAL_RANGE]


def _apply_dial(state: GameState, action: DialStorm) -> GameState:
    assert state.pending is not None
    detail = state.pending.detail
    total = detail["total"] + action.value
    state = with_events(state, event("dial", f"{action.house} dials {action.value} for the {action.storm} storm",
                                     storm=action.storm, house=action.house, value=action.value))
    index = detail["index"] + 1
    if index < len(state.storm_dialers):
        return evolve(state, pending=pending(
            "dial", state.storm_dialers[index], storm=action.storm, index=index, total=total))
    return _begin_weather(state, action.storm, total)


def weather_holders(state: GameState) -> tuple[str, ...]:
    return tuple(h for h in storm_order(state) if WEATHER_CONTROL in state.houses[h].hand)


def _ask_from(state: GameState, storm: str, move: int, index: int) -> GameState:
    """Ask the House at ``index`` in storm order (TURN-3) whether it plays a storm card; after the last, move the
    storm.

    GAP-62: every House in play is asked, whether or not it holds weather control or may use Atomics on the Shield
    Wall, with a pass first (DESIGN "Powers"): asking only the holders would tell the table who holds the cards.
    """
    order = storm_order(state)
    if index < len(order):
        return evolve(state, pending=pending("weather", order[index], storm=storm, move=move,
                                                          index=index))
    return _move_storm(state, storm, move)


def _begin_weather(state: GameState, storm: str, move: int) -> GameState:
    return _ask_from(state, storm, move, 0)


def _weather_decisions(state: GameState) -> list[Action]:
    assert state.pending is not None
    detail = state.pending.detail
    house, storm, move = state.pending.actor, detail["storm"], detail["move"]
    choices: list[Action] = [Pass(house)]
    if WEATHER_CONTROL in state.houses[house].hand:
        choices += [PlayWeatherControl(house, storm, mode) for mode in WEATHER_BONUS]
        choices += [PlayWeatherControl(house, storm, "stop", k) for k in range(0, move + 1)]
    if can_blow_shield_wall(state, house):
        choices.append(BlowShieldWall(house))
    return choices


def _check_weather(state: GameState, action: Action) -> IllegalActionError | None:
    if isinstance(action, BlowShieldWall):
        return check_blow(state, action.house)
    allowed = ", ".join(a.notation() for a in _weather_decisions(state))
    return IllegalActionError("action/illegal", f"{action.notation()!r} is not allowed now; allowed: {allowed}")


def _apply_weather(state: GameState, action: Action) -> GameState:
    assert state.pending is not None
    detail = state.pending.detail
    storm, move, index = detail["storm"], detail["move"], detail["index"]
    if isinstance(action, BlowShieldWall):
        state = blow_shield_wall(state, action.house)
        return _ask_from(state, storm, move, index)  # GAP-31: the same House may still play weather control
    if isinstance(action, PlayWeatherControl):
        hand = list(state.houses[action.house].hand)
        hand.remove(WEATHER_CONTROL)
        state = edit_house(state, action.house, hand=tuple(hand))
        state = evolve(state, treachery_discard=state.treachery_discard + (WEATHER_CONTROL,))
        if action.mode in WEATHER_BONUS:
            move += WEATHER_BONUS[action.mode]
            text = (f"{action.house} plays weather control: the {storm} storm moves {WEATHER_BONUS[action.mode]} "
                    f"more ({move}) (CARD-WEATHER-2)")
        else:
            move = action.sectors
            text = f"{action.house} plays weather control: the {storm} storm stops after {move} sector(s)"
        state = with_events(state, event("weather-control", text, house=action.house, storm=storm, move=move))
        # GAP-31: both cards may act on the same storm, even from one hand (STORM-5: max 11)
        return _ask_from(state, storm, move, index)
    return _ask_from(state, storm, move, index + 1)


def _halves_a_group(state: GameState, sectors: tuple[int, ...]) -> bool:
    """Whether FREMEN-P3 would spare some tokens of a group the storm destroys in one of ``sectors``."""
    for (house, area, sector), tokens in state.forces.items():
        if sector in sectors and is_exposed_to_storm(state, area):
            lost, ids = storm_losses(state, house, tokens)
            if HALF_LOSSES in ids and lost.total < tokens.total:
                return True
    return False


def _move_storm(state: GameState, storm: str, move: int) -> GameState:
    """Once the move is known (token or dials, then weather control), KARAMA-7 is asked if the storm would halve a
    group of the holder of FREMEN-P3 (GAP-149: one window per storm movement, an "event" of houses.md; the
    Karama takes every such group this storm destroys whole), then the storm moves."""
    start = getattr(state, "storm_main" if storm == "main" else "storm_secondary")
    uses = implemented_uses(HALF_LOSSES, "storm-event")
    if uses and _halves_a_group(state, steps_from(start, move)):
        return open_window(state, uses, "storm-move", storm=storm, move=move)
    return _resolve_move(state, storm, move)


def _resume_move(state: GameState, data: FrozenDict) -> GameState:
    return _resolve_move(state, data["storm"], data["move"])


def _resolve_move(state: GameState, storm: str, move: int) -> GameState:
    field = "storm_main" if storm == "main" else "storm_secondary"
    start = getattr(state, field)
    path = steps_from(start, move)
    state = evolve(state, storm_moves=state.storm_moves.set(storm, move))
    state = with_events(state, event(
        "storm-moved", f"The {storm} storm moves {move} sector(s): {start} → {path[-1] if path else start}",
        storm=storm, origin=start, moves=move, sector=path[-1] if path else start, path=path))
    from dunenb.rules.leader_karama_events import ask_leaders, storm_shelters

    # leaders.md LC-11 c (GAP-152): a Karama against the leader whose S-2 shelter would halve this passage's losses
    leaders = storm_shelters(state, tuple(path))
    return ask_leaders(state, leaders, "storm-passage", moment="c, her S-2 shelter from this storm", lasts="event",
                       storm=storm, path=tuple(path), start=start)


def _storm_passes(state: GameState, data: FrozenDict) -> GameState:
    """STORM-6: the storm ``data["storm"]`` destroys what it passes over (after the LC-11 c window of S-2, whose
    suppression lasted this passage), then the next storm or the end of the phase."""
    storm, path, start = data["storm"], data["path"], data["start"]
    for sector in path:
        state = destroy_in_sector(state, sector, cause=f"{storm} storm")
    state = lift(state, "event")  # KARAMA-7 (GAP-149) and the LC-11 c use against S-2 (GAP-152) lasted this storm
    end = path[-1] if path else start
    state = (evolve(state, storm_main=end) if storm == "main"
             else evolve(state, storm_secondary=end))
    if storm == "main" and state.config.secondary_storm:
        return _begin_storm(state, "secondary")
    return _finish_phase(state)


def _finish_phase(state: GameState) -> GameState:
    if state.config.secondary_storm and state.storm_main == state.storm_secondary:
        sector = state.storm_main
        assert sector is not None  # both storms stand on the map once they have moved
        state = with_events(state, event("double-storm", f"Both storms end on sector {sector}: an Arrière Arrière "
                                         "Grand Mère (STORM-15, GAP-11)", sector=sector))
        state = destroy_in_sector(state, sector, cause="double storm", double=True)
    return begin_token_draws(state, after="turn")


register_resume("storm-token-draw", _draw_tokens)
register_resume("storm-move", _resume_move)  # KARAMA-7 against FREMEN-P3 (GAP-149)
register_resume("storm-passage", _storm_passes)  # LC-11 c against S-2 (GAP-152)

HANDLERS = {
    "storm-token": Handler(apply=_apply_token, outcomes=_token_outcomes),
    "dial": Handler(apply=_apply_dial, decisions=_dial_decisions),
    "weather": Handler(apply=_apply_weather, decisions=_weather_decisions, check=_check_weather,
                       accepts=(BlowShieldWall,), always=(Pass,)),  # STORM-5: weather control is optional
}
