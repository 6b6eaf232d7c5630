"""Invariants every reachable position keeps, checked after every action by the bot-game tests and ``make soak``.

- no negative spice, harvester or token counts; every token on a sector of its area;
- every token accounted for: board + reserve + tanks + set aside in a deal = 20 per House (houses.md G-1) plus the
  tokens traded in deals (GAP-19), and the trades balance;
- every spice unit accounted for: Houses + map + Bank = 0 (``GameState.total_spice``);
- every treachery card accounted for: deck + hands + discard = the 61 cards of GAP-26;
- every leader in one place only (a House's living leaders or tanks, or set aside in a deal), and every captured
  leader among his captor's leaders (HARKONNEN-P4);
- every House in play has its main leader alive, a successor alive in his place, or a regeneration under way
  (VICTORY-2, houses.md G-7, TLEILAX-M2);
- after the battle step, at most one House (not at peace, not eliminated) per territory, except the North Pole
  and territories split by a storm sector (GAP-46);
- no storm token is drawn or revealed, and none is held, once the House holding FREMEN-P1 is eliminated
  (STORM-3, TURN-1 a, GAP-52);
- every game ends (GAP-60: a game without a table turn limit ends at the turn cap).

>>> from dunenb.engine import new_game
>>> check_position(new_game(["atreides", "fremen"], seed=1))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from dunenb.actions import Action
from dunenb.board import load_board
from dunenb.engine import CHANCE, apply_action, current_player, initial_state, sample_chance
from dunenb.gcpause import older_objects_set_aside
from dunenb.state import GameConfig, GameState

MAX_ACTIONS = 60_000  # loop guard for one checked game (a 50-turn 8-House game plays about 15,000 actions)


class InvariantViolation(AssertionError):
    """An invariant broken by the engine (a bug, not a user error); ``code`` names the invariant."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"[{code}] {message}")
        self.code = code
        self.message = message


@lru_cache(maxsize=1)
def _deck() -> Counter:
    from dunenb.rules.bidding import initial_deck

    return Counter(initial_deck())


def _require(ok: bool, code: str, message: str) -> None:
    if not ok:
        raise InvariantViolation(code, message)


def check_position(state: GameState) -> None:
    """Raise :class:`InvariantViolation` if a count is negative or a token, spice unit or card went missing."""
    from dunenb.rules.bidding import card_census

    board = load_board()
    _require(state.total_spice() == 0, "spice", f"spice not conserved: Houses + map + Bank = {state.total_spice()}")
    _require(card_census(state) == _deck(), "cards", "treachery cards not conserved (deck + hands + discard)")
    on_board: dict[str, int] = {}
    for (house, area, sector), tokens in state.forces.items():
        _require(tokens.regular >= 0 and tokens.marked >= 0 and not tokens.is_empty(), "tokens/count",
                 f"{house} in {area} sector {sector}: {tokens}")
        _require(sector in board.area(area).sectors, "tokens/sector", f"{house} in {area}: no sector {sector}")
        on_board[house] = on_board.get(house, 0) + tokens.total
    for house, hs in state.houses.items():
        _require(hs.spice >= 0 and hs.harvesters >= 0, "house/count", f"{house}: spice {hs.spice}, "
                 f"harvesters {hs.harvesters}")
        _require(min(hs.reserve.regular, hs.reserve.marked, hs.tanks.regular, hs.tanks.marked) >= 0,
                 "tokens/count", f"{house}: reserve {hs.reserve}, tanks {hs.tanks}")
        counted = hs.reserve.total + hs.tanks.total + on_board.get(house, 0) + state.tokens_set_aside(house)
        _require(counted == state.token_quota(house), "tokens/conserved",
                 f"{house}: {counted} tokens counted, {state.token_quota(house)} owned")
    _require(sum(state.tokens_traded.values()) == 0, "tokens/traded", "tokens traded in deals do not balance")
    check_leaders(state)


def check_leaders(state: GameState) -> None:
    """Each leader (a person: owner House and id) is alive with one House, dead in one tanks, or set aside in one
    deal, never two of these; each captured leader sits among his captor's leaders (HARKONNEN-P4)."""
    from dunenb.powers import owner
    from dunenb.rules.traitors import leader_key, leader_ref

    places: Counter = Counter()
    for house, hs in state.houses.items():
        for key in hs.leaders + hs.leader_tanks:
            places[leader_ref(house, key)] += 1
    for term in state.deferred_terms:
        if term.what == "leader":
            places[leader_ref(term.giver, term.item)] += 1
    twice = sorted(f"{h}:{lid}" for (h, lid), n in places.items() if n > 1)
    _require(not twice, "leaders/unique", f"leader(s) in two places at once: {', '.join(twice)}")
    if state.captured:
        keeper = owner("HARKONNEN-P4")
        for house, lid in state.captured:  # HARKONNEN-P4's holder, or the BG after BG-L03-b (leaders.md D-28)
            _require(any(leader_key(h, house, lid) in hs.leaders for h, hs in state.houses.items() if h != house),
                     "leaders/captured", f"{house}:{lid} is recorded as captured but is not among {keeper}'s "
                     "leaders (nor another captor's)")
    check_main_leaders(state)


def check_main_leaders(state: GameState) -> None:
    """VICTORY-2, houses.md G-7: every House in play has a main leader alive (captured or not), or a living
    successor in his place (Farad'N, Murbella), or a main leader due back from a regeneration (TLEILAX-M2)."""
    from dunenb.powers.holders import acting_main_leader

    due = {house for house, _turn in state.main_returns}
    for house in state.config.houses:
        if house in state.eliminated or house in due:
            continue
        _require(acting_main_leader(state, house) is not None, "leaders/main",
                 f"{house} is in play but its main leader and every successor are dead (VICTORY-2, G-7)")


def check_after_battles(state: GameState, at_peace: Any, storms: Any) -> None:
    """After the battle step: no two Houses share a territory unless at peace, at the North Pole or split by a
    storm (GAP-46). ``storms``: the storm sectors during the battles (the transition may have moved them)."""
    board = load_board()
    storm_sectors = set(storms)
    present: dict[str, set[str]] = {}
    for (house, area, _sector) in state.forces:
        if board.area(area).kind == "pole" or (house, area) in at_peace or house in state.eliminated:
            continue
        present.setdefault(area, set()).add(house)
    for area, houses in present.items():
        if len(houses) > 1:
            _require(bool(storm_sectors & set(board.area(area).sectors)), "battle/shared",
                     f"{sorted(houses)} still share {area} after battles")


TOKEN_EVENTS = ("storm-token", "storm-token-revealed")  # FREMEN-P1


def check_fallen_fremen(before: GameState, after: GameState) -> None:
    """STORM-3, GAP-52: after the token holder's elimination no storm phase uses or draws a Fremen token."""
    from dunenb.powers import owner

    fremen = owner("FREMEN-P1")
    fallen = fremen in before.eliminated
    for event in after.events:
        if event.kind == "eliminated" and event.data.get("house") == fremen:
            fallen = True
        _require(not (fallen and event.kind in TOKEN_EVENTS), "storm/fallen-fremen",
                 f"turn {after.turn}: {event.kind} after the Fremen were eliminated")
    if fremen in after.eliminated:
        _require(not after.storm_tokens, "storm/fallen-fremen", "an eliminated Fremen House still holds storm tokens")


def check_step(before: GameState, after: GameState) -> None:
    """Every check that applies to the transition ``before -> after``."""
    check_position(after)
    check_fallen_fremen(before, after)
    if before.phase == "battle" and after.phase != "battle":
        # peace is cleared at turn end; a battle called off by the step's last action (K-18, K-19, HARKONNEN-M2)
        # adds its peace in that very step
        check_after_battles(after, before.at_peace + after.at_peace, before.storm_sectors())


@dataclass(frozen=True)
class CheckedGame:
    """A game played with the checks on: its actions, the last state reached and the failure if any
    (an :class:`InvariantViolation` or any exception the engine or a bot raised)."""

    actions: tuple[Action, ...]
    final: GameState
    error: BaseException | None = None

    @property
    def failure(self) -> str | None:
        if self.error is None:
            return None
        return str(self.error) if isinstance(self.error, InvariantViolation) else \
            f"[crash] {type(self.error).__name__}: {self.error}"


def play_checked(config: GameConfig, bots: Mapping[str, Any], *, max_actions: int = MAX_ACTIONS) -> CheckedGame:
    """Play one game with these bots, checking every invariant after every action. Never raises for a failure:
    it is returned in :attr:`CheckedGame.error` with the actions played so far (a replayable line)."""
    state = initial_state(config)
    actions: list[Action] = []
    try:
        with older_objects_set_aside():  # issue 14 item 4: the collector walks what the game makes, not the rest
            check_position(state)
            for _ in range(max_actions):
                actor = current_player(state)
                if actor is None:
                    return CheckedGame(tuple(actions), state)
                action = sample_chance(state) if actor == CHANCE else bots[actor].choose(state)
                following = apply_action(state, action)
                actions.append(action)
                check_step(state, following)
                state = following
        raise InvariantViolation("game/no-end", f"the game did not end within {max_actions} actions")
    except Exception as error:  # noqa: BLE001 - a soak records every failure as a replayable save
        return CheckedGame(tuple(actions), state, error)
