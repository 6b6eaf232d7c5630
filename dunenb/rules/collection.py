"""TURN-1 f) harvest declarations and j) harvests, taxes and victory.

Rules: HARVEST-1 to HARVEST-13, TAX-1, TAX-2, VICTORY-1 to VICTORY-4, with GAP-17, GAP-21, GAP-23, GAP-36,
GAP-39, GAP-47 and GAP-48; BG-P3 (no harvest, no ownership at peace) and BG-P6 (the prediction).

**Step f) (phase ``harvest-declaration``, HARVEST-10).** In storm order, each House that has tokens in a desert
territory holding spice and an uncommitted harvester may commit harvesters there:

* ``CommitHarvester(house, area, sector)`` moves one harvester from ``HouseState.harvesters`` to
  ``GameState.committed_harvesters[(house, area, sector)]``. The sector is one where the House has tokens in
  that territory: the harvester goes with the army (GAP-23c, design). One harvester per House per desert
  territory per turn (HARVEST-5); several Houses may commit in one territory, and the battles decide
  (HARVEST-11, GAP-23a).
* ``DoneHarvesting(house)`` ends the House's declarations. Nobody is obliged to harvest (HARVEST-5). The
  House's turn also ends by itself once it can commit nothing more.

Buying and selling harvesters (HARVEST-3, HARVEST-4, GAP-48) are played whenever the House is to act, in every
phase (:mod:`dunenb.rules.anytime`, GAP-57): a House asked here may still buy one before committing it, or sell
one. A House with no harvester is not asked at step f) (it has nothing to declare); it buys one whenever it is
next to act, its movement slot included.

**When a harvester is exposed (GAP-17, STORM-10, HARVEST-9; design).** A committed harvester stays committed,
with its army, until the next turn's step f): the next turn's storm (step a) and worms (step b) destroy it
with the army, as STORM-10 and HARVEST-9 say ("if the storm sweeps the territory next turn"). At the start of
each step f) every surviving committed harvester goes back to its owner (uncommitted) and may be committed
again. An uncommitted harvester is never hit by a storm or a worm (GAP-17).

**Step j) (phase ``collection``, HARVEST-8, TAX-2).** No decision is needed:

1. Harvest (HARVEST-6, HARVEST-7, GAP-23): Houses in storm order (design: the order only matters when two
   Houses could both harvest one deposit, which the battles normally prevent), territories by board order.
   A committed harvester whose House has no tokens left in its territory is lost (GAP-23b). A House at peace
   there harvests nothing (BG-P3). Otherwise the House takes ``min(deposit, rate x tokens in the territory)``
   with rate 3 if it has troop-transport ornithopters, else 1 (HARVEST-7). It has them when it had a token in
   a city or Sietch at the **start of its movement** this turn (GAP-21, HARVEST-6 "il suffit d'être dans une
   ville, un Sietch"; GAP-50: fixed for the turn, see ``dunenb.rules.ornithopters``), or at the North Pole while
   the optional Chance card is in force (GAP-20). What is not taken stays (GAP-23a).
2. Taxes (TAX-1): 2 for Arrakeen, 2 for Carthag, 1 for Sietch Tarb (``data/victory.json``), paid by the Bank
   to the owning House only (GAP-36a, GAP-39).
3. A ``turn-end`` event records each House's spice, cities and Sietchs, and tokens on Dune.
4. Victory (VICTORY-1 to VICTORY-4, GAP-36b, BG-P6): see :func:`decide_winner`. A winner ends the game
   (``state.winner``, phase ``game-over``, no pending node).
5. The turn's fixed ornithopters (``GameState.ornithopters``, GAP-50) are forgotten.

Ownership (GAP-36a, VICTORY-3): a House owns a city or Sietch when it is the only House not eliminated with
tokens there that are not at peace (``GameState.at_peace``, cleared here at the end of the turn).

>>> rate_for(has_ornithopters=False), rate_for(has_ornithopters=True)
(1, 3)
>>> suggested_target(3), suggested_target(5), suggested_target(8)
(5, 4, 3)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

from dunenb.actions import Action
from dunenb.board import read_data_file
from dunenb.errors import IllegalActionError, RulesDataError
from dunenb.powers import applied, holder, is_in_play
from dunenb.powers.karama import lift
from dunenb.powers.registry import power, powers_at
from dunenb.rules import flow, leader_specials
from dunenb.rules.common import Handler, edit_house, event, pending, rules, storm_order, with_events
from dunenb.rules.karama_window import open_window, register_resume
from dunenb.rules.ornithopters import SETTLEMENT_KINDS, clear_for_turn, has_ornithopters
from dunenb.state import GameConfig, GameState, evolve

RATE_WITHOUT_ORNITHOPTERS = 1  # HARVEST-7
RATE_WITH_ORNITHOPTERS = 3  # HARVEST-7
PREDICTION = "BG-P6"  # the Bene Gesserit prediction (data/powers.json)


# --- actions --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class CommitHarvester(Action):
    """HARVEST-10: commit one harvester to a desert territory holding spice, in a sector where the House has tokens."""

    kind: ClassVar[str] = "commit-harvester"
    house: str
    area: str
    sector: int


@dataclass(frozen=True)
class DoneHarvesting(Action):
    """HARVEST-5, HARVEST-10: the House declares no more harvests this turn."""

    kind: ClassVar[str] = "harvest-done"
    house: str


# --- data -----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class VictoryRules:
    """``data/victory.json``: suggested targets by player count (VICTORY-1, GAP-36d) and taxes (TAX-1)."""

    targets: tuple[tuple[tuple[int, ...], int, int, int], ...]  # (player counts, low, high, default)
    taxes: tuple[tuple[str, int], ...]  # (settlement id, spice)
    turn_cap: int = 50  # GAP-60: the last turn of a game without a table turn limit


def parse_victory_rules(raw: Any) -> VictoryRules:
    """Validate the victory data; problems raise :class:`RulesDataError` naming the field."""
    if not isinstance(raw, dict) or raw.get("format") != "dunenb.victory/1":
        raise RulesDataError("victory/format", "victory data must be an object with format 'dunenb.victory/1'")
    targets = []
    covered: list[int] = []
    for index, row in enumerate(raw.get("targets", [])):
        try:
            players = tuple(int(p) for p in row["players"])
            low, high, default = int(row["low"]), int(row["high"]), int(row["default"])
        except (KeyError, TypeError, ValueError) as error:
            raise RulesDataError("victory/target", f"targets[{index}]: missing or bad field ({error})") from None
        if not 1 <= low <= default <= high <= settlement_count():
            raise RulesDataError("victory/target", f"targets[{index}]: need 1 <= low <= default <= high <= "
                                 f"{settlement_count()} (the cities and Sietchs on the board, VICTORY-1)")
        covered += players
        targets.append((players, low, high, default))
    if sorted(covered) != list(range(2, 9)):
        raise RulesDataError("victory/players", f"targets must cover 2..8 players once each, got {sorted(covered)}")
    board = rules().board
    taxes = []
    for area, amount in raw.get("taxes", {}).items():
        if area == "rule":
            continue
        if area not in board.area_ids or board.area(area).kind not in SETTLEMENT_KINDS:
            raise RulesDataError("victory/tax-area", f"taxes: {area!r} is not a city or Sietch")
        if not isinstance(amount, int) or amount < 0:
            raise RulesDataError("victory/tax-amount", f"taxes[{area}]: a non-negative integer, not {amount!r}")
        taxes.append((area, amount))
    cap_raw = raw.get("turn_cap", {"turns": 50})
    cap = cap_raw.get("turns") if isinstance(cap_raw, dict) else cap_raw
    if isinstance(cap, bool) or not isinstance(cap, int) or cap < 1:
        raise RulesDataError("victory/turn-cap", f"turn_cap.turns must be a positive integer (GAP-60), not {cap!r}")
    return VictoryRules(targets=tuple(targets), taxes=tuple(taxes), turn_cap=cap)


@lru_cache(maxsize=1)
def load_victory_rules() -> VictoryRules:
    return parse_victory_rules(read_data_file("victory.json"))


def settlement_count() -> int:
    """VICTORY-1: how many cities and Sietchs the board holds (3 + 3), the highest target a House can reach.

    >>> settlement_count()
    6
    """
    return sum(1 for area in rules().board.areas if area.kind in SETTLEMENT_KINDS)


def suggested_target(players: int) -> int:
    """VICTORY-1 / GAP-36d: the default number of cities and Sietchs to own for this many players (design:
    the middle of the advised range)."""
    for counts, _low, _high, default in load_victory_rules().targets:
        if players in counts:
            return default
    raise RulesDataError("victory/players", f"no victory target for {players} players (2..8)")


def victory_target(config: GameConfig) -> int:
    """The agreed target (``config.victory_target``), else the suggestion for the table's size (VICTORY-1)."""
    if config.victory_target is not None:
        return config.victory_target
    return suggested_target(len(config.houses))


def rate_for(*, has_ornithopters: bool) -> int:
    """HARVEST-7: spice per token."""
    return RATE_WITH_ORNITHOPTERS if has_ornithopters else RATE_WITHOUT_ORNITHOPTERS


# --- queries --------------------------------------------------------------------------------------------

def active_houses(state: GameState) -> tuple[str, ...]:
    """The Houses still in the game (VICTORY-2), in the table's order."""
    return tuple(h for h in state.config.houses if is_in_play(state, h))


def active_storm_order(state: GameState) -> tuple[str, ...]:
    """Storm order (TURN-2) without the eliminated Houses."""
    return tuple(h for h in storm_order(state) if h not in state.eliminated)


def is_at_peace(state: GameState, house: str, area: str) -> bool:
    """BG-P3, HARKONNEN-M2: whether the House's tokens in this territory are at peace this turn."""
    return (house, area) in state.at_peace


def tokens_in(state: GameState, house: str, area: str) -> int:
    """All the House's tokens in a territory, every sector (HARVEST-6: the workforce)."""
    return sum(t.total for (h, a, _s), t in state.forces.items() if h == house and a == area)


def claimants(state: GameState, area: str) -> frozenset[str]:
    """GAP-36a, VICTORY-3: the Houses (not eliminated) with tokens in ``area`` that are not at peace: those who
    may own it (the owner is the only one)."""
    return frozenset(h for (h, a, _s), t in state.forces.items()
                     if a == area and t.total > 0 and h not in state.eliminated and not is_at_peace(state, h, area))


def owner_of(state: GameState, area: str) -> str | None:
    """GAP-36a, VICTORY-3: the only House (not eliminated) with tokens there not at peace, else ``None``."""
    present = claimants(state, area)
    return next(iter(present)) if len(present) == 1 else None


def owned_settlements(state: GameState) -> dict[str, tuple[str, ...]]:
    """The cities and Sietchs each active House owns (GAP-36a), in board order."""
    owned: dict[str, list[str]] = {h: [] for h in active_houses(state)}
    for area in rules().board.areas:
        if area.kind in SETTLEMENT_KINDS:
            owner = owner_of(state, area.id)
            if owner is not None:
                owned[owner].append(area.id)
    return {h: tuple(areas) for h, areas in owned.items()}


def committed_areas(state: GameState, house: str) -> set[str]:
    return {a for (h, a, _s) in state.committed_harvesters if h == house}


def commit_options(state: GameState, house: str) -> list[tuple[str, int]]:
    """(territory, sector) pairs where the House could commit a harvester now, harvester aside (HARVEST-5/10)."""
    board = rules().board
    taken = committed_areas(state, house)
    options = set()
    for (h, area, sector), tokens in state.forces.items():
        if h != house or tokens.total == 0 or area in taken:
            continue
        if board.area(area).kind == "desert" and state.spice_on_map.get(area, 0) > 0:
            options.add((area, sector))
    order = {a: i for i, a in enumerate(board.area_ids)}
    return sorted(options, key=lambda option: (order[option[0]], option[1]))


def _is_declarer(state: GameState, house: str) -> bool:
    """A House gets (and keeps) a step-f) turn while it could commit a harvester."""
    return state.houses[house].harvesters > 0 and bool(commit_options(state, house))


# --- step f): declarations ------------------------------------------------------------------------------

def begin_declarations(state: GameState) -> GameState:
    """TURN-1 f): release last turn's harvesters (design, see the module), then ask Houses in storm order."""
    state = evolve(state, phase="harvest-declaration")
    state = release_harvesters(state)
    return _next_declarer(state, active_storm_order(state), 0)


def release_harvesters(state: GameState) -> GameState:
    """Committed harvesters go back to their owners, uncommitted; an eliminated House's are removed (GAP-47)."""
    for (house, area, sector), count in sorted(state.committed_harvesters.items()):
        state = evolve(
            state, committed_harvesters=state.committed_harvesters.without((house, area, sector)))
        name = rules().board.area(area).name
        if house in state.eliminated:
            state = with_events(state, event(
                "harvester-removed", f"{house} is eliminated: its harvester in {name} is removed (GAP-47)",
                house=house, area=area, count=count))
            continue
        state = edit_house(state, house, harvesters=state.houses[house].harvesters + count)
        state = with_events(state, event(
            "harvester-released", f"{house}'s harvester leaves {name} with its army, uncommitted (GAP-23c)",
            house=house, area=area, sector=sector, count=count))
    return state


def _next_declarer(state: GameState, order: tuple[str, ...], index: int) -> GameState:
    while index < len(order):
        if _is_declarer(state, order[index]):
            return evolve(state, pending=pending("harvest-declaration", order[index], order=order,
                                                              index=index))
        index += 1
    state = evolve(state, pending=None)
    return flow.after_phase(state, "harvest-declaration")


def declaration_decisions(state: GameState) -> list[Action]:
    """The menu: each possible commitment, then ``DoneHarvesting``."""
    assert state.pending is not None
    house = state.pending.actor
    options: list[Action] = []
    if state.houses[house].harvesters > 0:
        options += [CommitHarvester(house, area, sector) for area, sector in commit_options(state, house)]
    options.append(DoneHarvesting(house))
    return options


def check_declaration(state: GameState, action: Action) -> IllegalActionError | None:
    """Name what is wrong with a step-f) action (codes ``harvest/...``), or return ``None``."""
    house = getattr(action, "house", None)
    if state.pending is None or state.pending.kind != "harvest-declaration":
        return IllegalActionError("harvest/not-now", "harvest declarations are made at step f) only (HARVEST-10)")
    if house != state.pending.actor:
        return IllegalActionError("harvest/not-your-turn", f"it is {state.pending.actor}'s turn to declare, "
                                  f"not {house}'s (storm order, TURN-2)")
    if isinstance(action, CommitHarvester):
        error = _check_commit(state, action)
        if error is not None:
            return error
    if action not in declaration_decisions(state):
        allowed = ", ".join(a.notation() for a in declaration_decisions(state))
        return IllegalActionError("harvest/illegal", f"{action.notation()} is not allowed now; allowed: {allowed}")
    return None


def _check_commit(state: GameState, action: CommitHarvester) -> IllegalActionError | None:
    board = rules().board
    house, area_id = action.house, action.area
    allowed = ", ".join(f"{a}@{s}" for a, s in commit_options(state, house)) or "none"
    if area_id not in board.area_ids:
        return IllegalActionError("harvest/unknown-area", f"unknown territory {area_id!r}; possible: {allowed}")
    area = board.area(area_id)
    if area.kind != "desert":
        return IllegalActionError("harvest/not-desert", f"{area.name} is a {area.kind}: harvesters work the spice "
                                  f"deserts only (HARVEST-5); possible: {allowed}")
    if state.spice_on_map.get(area_id, 0) == 0:
        return IllegalActionError("harvest/no-spice", f"{area.name} holds no spice; possible: {allowed}")
    if state.houses[house].harvesters == 0:
        return IllegalActionError("harvest/no-harvester", f"{house} has no uncommitted harvester (buy one first: "
                                  "5 spice, at any time, HARVEST-3)")
    if area_id in committed_areas(state, house):
        return IllegalActionError("harvest/already-committed", f"{house} already has a harvester in {area.name}: one "
                                  "harvester per desert territory per turn (HARVEST-5)")
    if tokens_in(state, house, area_id) == 0:
        return IllegalActionError("harvest/no-tokens", f"{house} has no tokens in {area.name}: the tokens are the "
                                  f"workforce (HARVEST-6); possible: {allowed}")
    if (area_id, action.sector) not in commit_options(state, house):
        return IllegalActionError("harvest/sector", f"{house} has no tokens in sector {action.sector} of {area.name}: "
                                  f"the harvester goes with the army (GAP-23c); possible: {allowed}")
    return None


def apply_declaration(state: GameState, action: Action) -> GameState:
    assert state.pending is not None
    detail = state.pending.detail
    house = action.house  # type: ignore[attr-defined]
    if isinstance(action, DoneHarvesting):
        state = with_events(state, event("harvest-done", f"{house} declares no more harvests", house=house))
        return _next_declarer(state, detail["order"], detail["index"] + 1)
    if isinstance(action, CommitHarvester):
        key = (house, action.area, action.sector)
        state = edit_house(state, house, harvesters=state.houses[house].harvesters - 1)
        state = evolve(state, committed_harvesters=state.committed_harvesters.set(
            key, state.committed_harvesters.get(key, 0) + 1))
        name = rules().board.area(action.area).name
        state = with_events(state, event(
            "harvester-committed", f"{house} commits a harvester in {name} (sector {action.sector}) (HARVEST-10)",
            house=house, area=action.area, sector=action.sector))
    if _is_declarer(state, house):
        return state  # the same House goes on while it could still commit a harvester
    return _next_declarer(state, detail["order"], detail["index"] + 1)


# --- step j): harvest, taxes, victory -------------------------------------------------------------------

def begin_collection(state: GameState) -> GameState:
    """TURN-1 j): the Karama uses of step j) are asked first (KARAMA-28 against BG-P4, GAP-63); then harvests,
    taxes, the incomes of hook ``collection.income`` (BG-P4: charity, 2 spice from the Bank), then the
    end-of-turn victory check (HARVEST-8, TAX-2, VICTORY-1)."""
    state = evolve(state, phase="collection", pending=None)
    uses = tuple(u.id for spec, _act in powers_at("collection.income") if holder(state, spec.id) is not None
                 for u in spec.karama if u.status == "implemented" and u.moment == "collection")
    if uses:
        return open_window(state, uses, "collection")
    return _collect(state)


def pay_incomes(state: GameState) -> GameState:
    """Hook ``collection.income``: what each House in play receives from the Bank in step j) (BG-P4)."""
    for house in state.config.houses:
        if not is_in_play(state, house):
            continue
        amount, ids = applied(state, "collection.income", 0, {"house": house})
        if amount:
            state = edit_house(state, house, spice=state.houses[house].spice + amount)
            state = evolve(state, bank=state.bank - amount)
            state = with_events(state, event("income", f"{house} receives {amount} spice from the Bank "
                                             f"({', '.join(ids)})", house=house, amount=amount, powers=ids))
    return state


def _collect(state: GameState, data: object = None) -> GameState:
    state = harvest(state)
    from dunenb.rules.leader_karama_events import ask_leaders

    # leaders.md LC-11 c (GAP-152): a Karama against the leader whose S-8 tax would apply, asked before the taxes
    due = tuple((area, owner_of(state, area)) for area, amount in load_victory_rules().taxes if amount)
    leaders = leader_specials.tax_leaders(state, due)
    return ask_leaders(state, leaders, "taxes", moment="c, his S-8 tax", lasts="action", asked=bool(leaders))


def _taxes(state: GameState, data: Any) -> GameState:
    """TAX-1 (after the LC-11 c window of S-8, whose suppression lasted these taxes), then the rest of step j."""
    state = collect_taxes(state)
    if data["asked"]:
        state = lift(state, "action")
    state = pay_incomes(state)
    state = record_standings(state)
    note = tie_note(state)
    if note is not None:
        state = with_events(state, event("victory-tie", note, turn=state.turn))
    result = _victory(state)
    state = evolve(state, at_peace=())  # peace lasts for the turn (BG-P3)
    state = clear_for_turn(state)  # GAP-50: the ornithopters were fixed for this turn only
    if result is not None:
        winner, reason = result
        predicted, bg_reason = (None, reason) if winner is None else _prediction(state, winner, reason)
        if predicted != winner:  # BG-P6 shown: KARAMA-30 is asked at that reveal (GAP-63), before the game ends
            uses = tuple(use.id for use in power(PREDICTION).karama if use.moment == "prediction-reveal")
            return open_window(evolve(state, pending=None), uses, "prediction-reveal", winner=winner,
                               reason=reason, bg_reason=bg_reason)
        return end_game(state, winner, reason)
    return flow.after_phase(state, "collection")


def _prediction_revealed(state: GameState, data: Any) -> GameState:
    """BG-P6 revealed: the Bene Gesserit win instead, unless KARAMA-30 voided the prediction (for the game)."""
    if holder(state, PREDICTION) is None:
        return end_game(state, data["winner"], f"{data['reason']}; the Bene Gesserit prediction is void "
                                               "(KARAMA-30)")
    return end_game(state, holder(state, PREDICTION), data["bg_reason"])


def harvest(state: GameState) -> GameState:
    """HARVEST-6, HARVEST-7, GAP-21, GAP-23: every committed harvester works its territory (see the module)."""
    board = rules().board
    order = {a: i for i, a in enumerate(board.area_ids)}
    houses = active_storm_order(state)
    for house in [h for h in state.config.houses if h in state.eliminated]:
        for key in [k for k in state.committed_harvesters if k[0] == house]:
            state = evolve(state, committed_harvesters=state.committed_harvesters.without(key))
            state = with_events(state, event(
                "harvester-removed", f"{house} is eliminated: its harvester in {board.area(key[1]).name} is removed "
                "(GAP-47)", house=house, area=key[1], count=1))
    for house in houses:
        areas = sorted(committed_areas(state, house), key=order.__getitem__)
        for area in areas:
            state = _harvest_one(state, house, area)
    return state


def _harvest_one(state: GameState, house: str, area: str) -> GameState:
    name = rules().board.area(area).name
    workforce = tokens_in(state, house, area)
    if workforce == 0:
        for key in [k for k in state.committed_harvesters if k[0] == house and k[1] == area]:
            count = state.committed_harvesters[key]
            state = evolve(state, committed_harvesters=state.committed_harvesters.without(key))
            state = with_events(state, event(
                "harvester-lost", f"{house} has no tokens left in {name}: its harvester is lost (GAP-23b)",
                house=house, area=area, count=count))
        return state
    if is_at_peace(state, house, area):
        return with_events(state, event("no-harvest", f"{house} is at peace in {name} and does not harvest (BG-P3)",
                                        house=house, area=area, amount=0))
    deposit = state.spice_on_map.get(area, 0)
    ornithopters = has_ornithopters(state, house)  # GAP-50: as at the start of its movement (HARVEST-7)
    rate = rate_for(has_ornithopters=ornithopters)
    take = min(deposit, rate * workforce)
    if take == 0:
        return with_events(state, event("no-harvest", f"{house}'s harvester in {name} finds no spice left",
                                        house=house, area=area, amount=0))
    left = deposit - take
    spice_on_map = state.spice_on_map.set(area, left) if left else state.spice_on_map.without(area)
    state = evolve(state, spice_on_map=spice_on_map)
    state = edit_house(state, house, spice=state.houses[house].spice + take)
    how = "with ornithopters, 3" if ornithopters else "without ornithopters, 1"
    capped = f", capped by the deposit; {left} left" if take < rate * workforce else f"; {left} left"
    return with_events(state, event(
        "harvest", f"{house} harvests {take} spice in {name} ({workforce} token(s), {how} per token{capped}) "
        "(HARVEST-7, GAP-23a)", house=house, area=area, amount=take, tokens=workforce, rate=rate, left=left))


def collect_taxes(state: GameState) -> GameState:
    """TAX-1, TAX-2, GAP-36a, GAP-39: the Bank pays each taxed settlement's owner; nobody if it has no owner."""
    board = rules().board
    for area, amount in load_victory_rules().taxes:
        owner = owner_of(state, area)
        if owner is None or amount == 0:
            continue
        amount, powers = leader_specials.tax(state, area, owner, amount)  # leaders.md S-8: the ducal tax
        state = edit_house(state, owner, spice=state.houses[owner].spice + amount)
        state = evolve(state, bank=state.bank - amount)
        why = "TAX-1" + "".join(f", {power}" for power in powers)
        state = with_events(state, event("tax", f"{owner} collects {amount} spice of tax for {board.area(area).name} "
                                         f"({why})", house=owner, area=area, amount=amount,
                                         **({"powers": powers} if powers else {})))
    return state


def standings(state: GameState) -> tuple[tuple[str, int, tuple[str, ...], int], ...]:
    """(house, spice, cities and Sietchs owned, tokens on Dune) for each active House, in table order."""
    owned = owned_settlements(state)
    rows = []
    for house in active_houses(state):
        on_dune = sum(t.total for (h, _a, _s), t in state.forces.items() if h == house)
        rows.append((house, state.houses[house].spice, owned[house], on_dune))
    return tuple(rows)


def record_standings(state: GameState) -> GameState:
    rows = standings(state)
    summary = "; ".join(f"{h} {len(o)}" for h, _s, o, _t in rows)
    return with_events(state, event(
        "turn-end", f"End of turn {state.turn}: cities and Sietchs owned: {summary} (target "
        f"{victory_target(state.config)})", turn=state.turn, target=victory_target(state.config), standings=rows))


def decide_winner(state: GameState) -> tuple[str | None, str] | None:
    """The end-of-turn victory check; ``None`` means play on, else ``(winner or None, reason)``.

    * VICTORY-2: a single House left wins; if none is left the game ends without a winner (design).
    * VICTORY-1: a House owning at least the target number of cities and Sietchs wins; several: the most,
      and a tie plays on (GAP-36b). No shared victory (GAP-19c).
    * VICTORY-4 (design reading): while a House outlawed for Atomics is still in the game, no other House can
      win by cities and Sietchs.
    * BG-P6: if the Bene Gesserit predicted this winner for this turn, they win alone instead (in a game, the
      reveal first asks KARAMA-30, which voids the prediction).
    """
    result = _victory(state)
    if result is None or result[0] is None:
        return result
    return _prediction(state, result[0], result[1])


def _victory(state: GameState) -> tuple[str | None, str] | None:
    """:func:`decide_winner` before the Bene Gesserit prediction (BG-P6)."""
    active = active_houses(state)
    if not active:
        return None, "every House has been eliminated: the game ends without a winner (VICTORY-2, design)"
    if len(active) == 1:
        return active[0], f"{active[0]} is the last House left (VICTORY-2)"
    target = victory_target(state.config)
    owned = owned_settlements(state)
    outlaws = [h for h in state.outlawed if h in active]
    candidates = [h for h in active if len(owned[h]) >= target and not [o for o in outlaws if o != h]]
    if not candidates:
        return None
    best = max(len(owned[h]) for h in candidates)
    leaders = [h for h in candidates if len(owned[h]) == best]
    if len(leaders) > 1:
        return None
    winner = leaders[0]
    return winner, f"{winner} owns {best} cities and Sietchs ({', '.join(owned[winner])}), target {target} (VICTORY-1)"


def _prediction(state: GameState, winner: str, reason: str) -> tuple[str, str]:
    bg = holder(state, PREDICTION)  # data/powers.json
    if bg is None or bg == winner:
        return winner, reason
    prediction = state.houses[bg].prediction
    if prediction is not None and tuple(prediction) == (winner, state.turn):
        return bg, f"{reason}; but the Bene Gesserit predicted it for turn {state.turn} and win instead (BG-P6)"
    return winner, reason


def end_game(state: GameState, winner: str | None, reason: str) -> GameState:
    """Set the winner and end the game: phase ``game-over``, no pending node."""
    text = f"{winner} wins: {reason}" if winner else f"Game over: {reason}"
    state = with_events(state, event("victory" if winner else "game-over", text, winner=winner, turn=state.turn))
    return evolve(state, phase="game-over", pending=None, winner=winner)


def tie_note(state: GameState) -> str | None:
    """A readable note when several Houses reach the target with the same count (GAP-36b: play on)."""
    target = victory_target(state.config)
    owned = owned_settlements(state)
    reached = [h for h in active_houses(state) if len(owned[h]) >= target]
    if len(reached) < 2:
        return None
    best = max(len(owned[h]) for h in reached)
    tied = [h for h in reached if len(owned[h]) == best]
    return None if len(tied) < 2 else f"{', '.join(tied)} tie with {best}: play on (GAP-36b)"


register_resume("collection", _collect)
register_resume("taxes", _taxes)
register_resume("prediction-reveal", _prediction_revealed)

HANDLERS: dict[str, Handler] = {
    "harvest-declaration": Handler(apply=apply_declaration, decisions=declaration_decisions,
                                   check=check_declaration,
                                   accepts=(CommitHarvester, DoneHarvesting)),
}
