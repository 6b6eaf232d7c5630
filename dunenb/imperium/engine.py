"""The Dune: Imperium rules engine: setup, the five phases of a round, chance nodes and the end.

``apply_action`` is pure and checked: it applies one action to the pending task, then resolves automatic
tasks until the next chance node or decision. Round (seed: Déroulement d'une manche): (1) a conflict is
revealed and everyone draws 5; (2) player turns in seat order from the first player, an agent turn or the
reveal turn; (3) combat intrigues then rewards; (4) makers; (5) recall, unless someone has 10 VP or the
conflict deck is empty, in which case the game ends (endgame intrigues, then the tie-breaks).

>>> state = advance(new_game(["A", "B", "C", "D"], seed=3))
>>> state.pending.kind, state.round, len(state.players[0].hand), victory_points(state, 0)
('turn', 1, 5, 1)
>>> sum(p for _, p in chance_outcomes(new_game(["A", "B"], seed=0)))
Fraction(1, 1)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations
from typing import Any

import numpy as np

from dunenb.errors import IllegalActionError, InputError
from dunenb.imperium.actions import Agent, Buy, Chance, Choose, First, Pass, PlayIntrigue, Reveal
from dunenb.imperium.combat import placements, strength
from dunenb.imperium.effects import (
    add_card,
    can_pay,
    change_influence,
    condition_holds,
    gain,
    pay,
    push,
    remove_card,
    run_effects,
    trash_choices,
    victory_points,
)
from dunenb.imperium.rules_data import Cost, Effects, ImperiumRules, Space, load_rules
from dunenb.imperium.state import CHANCE_TASKS, ImperiumState, PlayerState, Task
from dunenb.iron_die.rng import draw_index, initial_rng

__all__ = [
    "advance",
    "apply_action",
    "chance_outcomes",
    "legal_actions",
    "new_game",
    "propose_chance",
    "space_cost",
    "victory_points",
    "final_ranking",
]


def _multiset(counts: dict[str, int]) -> tuple[str, ...]:
    return tuple(sorted(card for card, copies in counts.items() for _ in range(copies)))


def check_players(names: object) -> tuple[str, ...]:
    """2 to 4 distinct non-empty names, or :class:`InputError`."""
    if (
        not isinstance(names, (list, tuple))
        or not 2 <= len(names) <= 4
        or not all(isinstance(n, str) and n.strip() for n in names)
        or len(set(names)) != len(names)
    ):
        raise InputError("imperium/players", f"players: expected 2 to 4 distinct non-empty names, got {names!r}")
    return tuple(names)


def draw_leaders(count: int, seed: int) -> list[str]:
    """Leaders drawn at random without repeats from the game seed (IMP-GAP-16)."""
    pool = list(load_rules().leaders)
    order = np.random.Generator(np.random.PCG64([seed, 16])).permutation(len(pool))
    return [pool[int(i)] for i in order[:count]]


def new_game(names: Sequence[str], seed: int = 0, leaders: Sequence[str] | None = None) -> ImperiumState:
    """The state after setup (seed: La mise en place), waiting for the Imperium row draws and the first player.

    Per player: a leader, the 10-card starter deck, 1 water, 2 agents (the Swordmaster to unlock), the score
    marker on 1 at 4 players and 0 otherwise, 3 troops in the garrison and 9 in supply, 4 influence cubes at 0.
    """
    rules = load_rules()
    names = check_players(names)
    if type(seed) is not int or seed < 0:
        raise InputError("imperium/seed", f"seed: expected an integer >= 0, got {seed!r}")
    chosen = list(leaders) if leaders is not None else draw_leaders(len(names), seed)
    if len(chosen) != len(names) or len(set(chosen)) != len(chosen) or not set(chosen) <= set(rules.leaders):
        raise InputError(
            "imperium/leaders",
            f"leaders: expected {len(names)} distinct leaders among {', '.join(rules.leaders)}, got {chosen!r}",
        )
    c = rules.constants
    nf = len(rules.factions)
    players = tuple(
        PlayerState(
            leader=leader,
            solari=0,
            spice=0,
            water=c["starting_water"],
            score=c["score_start"][str(len(names))],
            influence=(0,) * nf,
            bonus_taken=(False,) * nf,
            garrison=c["garrison"],
            conflict=0,
            supply=c["troops_per_player"] - c["garrison"],
            hand=(),
            deck=_multiset(rules.starter_deck),
            discard=(),
            played=(),
            revealed=(),
            intrigues=(),
            trashed=(),
            agents=c["starting_agents"],
            placed=0,
            swordmaster=False,
            council=False,
            mentat=False,
            mentat_next=False,
            done=False,
            persuasion=0,
            swords=0,
            recruited=0,
            deploy_base=0,
        )
        for leader in chosen
    )
    state = ImperiumState(
        names=names,
        seed=seed,
        rng=initial_rng(seed),
        round=0,
        first=0,
        current=0,
        phase="setup",
        players=players,
        row=(),
        imperium_deck=_multiset(rules.imperium_deck),
        reserve=tuple(rules.reserve.items()),
        intrigue_deck=_multiset(rules.intrigue_deck),
        intrigue_discard=(),
        conflict=None,
        conflicts_seen=(),
        occupied=(-1,) * len(rules.spaces),
        bonus_spice=(0,) * len(rules.spaces),
        alliances=(-1,) * nf,
        control=(-1,) * len(rules.control_spaces),
        combat_order=(),
        combat_index=0,
        combat_passes=0,
        queue=(),
        winners=(),
        history=(),
        actions=(),
    )
    for seat, leader in enumerate(chosen):  # setup powers; their decisions wait until the first player is known
        state = run_effects(state, seat, rules.leaders[leader].setup)
    peeks = [Task("peek", seat) for seat in range(len(chosen)) if rules.leaders[chosen[seat]].at("deck_top")]
    tasks = [Task("row")] * c["row_size"] + [Task("first"), *state.queue, *peeks, Task("round_start")]
    return _run(state.evolve(queue=tuple(tasks)))


# ------------------------------------------------------------------------------------------------ chance


def conflict_level(round_number: int) -> str | None:
    """The conflict level revealed at ``round_number`` (1 level I, then 5 level II, then 4 level III)."""
    total = 0
    for level, count in load_rules().constants["conflict_deck"]:
        total += count
        if round_number <= total:
            return str(level)
    return None


def last_round() -> int:
    return sum(count for _, count in load_rules().constants["conflict_deck"])


def _chance_pool(state: ImperiumState) -> tuple[Any, ...]:
    """The equally likely items of the pending chance node (repeated ids weigh their copies, IMP-GAP-2)."""
    task = state.queue[0]
    if task.kind == "first":
        return tuple(range(len(state.players)))
    if task.kind == "draw":
        return state.players[task.player].deck
    if task.kind == "intrigue":
        return state.intrigue_deck
    if task.kind == "row":
        return state.imperium_deck
    if task.kind == "steal":
        return state.players[task.data[0]].intrigues
    if task.kind == "peek":
        return state.players[task.player].deck
    level = conflict_level(state.round)
    rules = load_rules()
    return tuple(
        cid for cid, card in rules.conflicts.items() if card.level == level and cid not in state.conflicts_seen
    )


def chance_outcomes(state: ImperiumState) -> list[tuple[Any, Fraction]]:
    """Every outcome of the pending chance node with its exact probability (they sum to 1)."""
    if not state.is_chance:
        raise IllegalActionError("imperium/not-chance", f"outcomes for {state.actor_name()}: no chance node pending")
    pool = _chance_pool(state)
    counts = Counter(pool)
    total = len(pool)
    make = First if state.queue[0].kind == "first" else Chance
    return [(make(item), Fraction(n, total)) for item, n in sorted(counts.items())]


def propose_chance(state: ImperiumState) -> Any:
    """The seeded proposal for the pending chance node (the stored generator, so it replays identically)."""
    if not state.is_chance:
        raise IllegalActionError("imperium/not-chance", f"propose by {state.actor_name()}: no chance node pending")
    pool = _chance_pool(state)
    index, _ = draw_index(state.rng, len(pool))
    item = pool[index]
    return First(item) if state.queue[0].kind == "first" else Chance(item)


def advance(state: ImperiumState) -> ImperiumState:
    """Resolve chance nodes with the proposals until a player must decide or the game is over."""
    while state.is_chance:
        state = apply_action(state, propose_chance(state))
    return state


def _apply_chance(state: ImperiumState, task: Task, action: Any) -> ImperiumState:
    pool = _chance_pool(state)
    item = action.player if isinstance(action, First) else getattr(action, "card", None)
    expected = First if task.kind == "first" else Chance
    if not isinstance(action, expected) or item not in pool:
        allowed = ", ".join(a.notation for a, _ in chance_outcomes(state))
        raise _illegal(state, action, "bad-chance", f"the pending {task.kind} node allows: {allowed}")
    _, rng = draw_index(state.rng, len(pool))
    state = state.evolve(rng=rng, queue=state.queue[1:])
    seat = task.player
    if task.kind == "first":
        return state.evolve(first=item, current=item)
    assert isinstance(item, str)  # every other chance task draws a card, named by a Chance action
    if task.kind == "draw":
        player = state.players[seat]
        state = state.with_player(seat, deck=remove_card(player.deck, item), hand=add_card(player.hand, item))
        return _after_draw(state, seat)
    if task.kind == "peek":
        return state.with_player(seat, deck=remove_card(state.players[seat].deck, str(item)), deck_top=(str(item),))
    if task.kind == "intrigue":
        return state.evolve(intrigue_deck=remove_card(state.intrigue_deck, item)).with_player(
            seat, intrigues=add_card(state.players[seat].intrigues, item)
        )
    if task.kind == "row":
        return state.evolve(imperium_deck=remove_card(state.imperium_deck, item), row=state.row + (item,))
    if task.kind == "steal":
        victim = task.data[0]
        state = state.with_player(victim, intrigues=remove_card(state.players[victim].intrigues, item))
        return state.with_player(seat, intrigues=add_card(state.players[seat].intrigues, item))
    return _reveal_conflict(state, item)


def _skip_chance(state: ImperiumState, task: Task) -> ImperiumState | None:
    """Prepare a chance task: reshuffle an empty deck (IMP-GAP-2, IMP-GAP-17); drop one with nothing to draw."""
    if task.kind == "draw":
        player = state.players[task.player]
        if player.deck_top:  # IMP-GAP-33: the known top card is drawn without a chance node
            state = state.evolve(queue=state.queue[1:]).with_player(
                task.player, deck_top=player.deck_top[1:], hand=add_card(player.hand, player.deck_top[0])
            )
            return _after_draw(state, task.player)
        if not player.deck and player.discard:
            state = state.with_player(task.player, deck=player.discard, discard=())
        if not state.players[task.player].deck:
            return state.evolve(queue=state.queue[1:])
        return state
    if task.kind == "intrigue" and not state.intrigue_deck:
        if state.intrigue_discard:
            return state.evolve(intrigue_deck=state.intrigue_discard, intrigue_discard=())
        return state.evolve(queue=state.queue[1:])
    if task.kind == "row" and (not state.imperium_deck or len(state.row) >= load_rules().constants["row_size"]):
        return state.evolve(queue=state.queue[1:])
    if task.kind == "steal" and not state.players[task.data[0]].intrigues:
        return state.evolve(queue=state.queue[1:])
    if task.kind == "peek" and (state.players[task.player].deck_top or not state.players[task.player].deck):
        return state.evolve(queue=state.queue[1:])
    return state


def _after_draw(state: ImperiumState, seat: int) -> ImperiumState:
    """A 'deck_top' power (Prescience, IMP-GAP-33) looks at the new top card after each draw."""
    if load_rules().leaders[state.players[seat].leader].at("deck_top"):
        return push(state, Task("peek", seat))
    return state


# ------------------------------------------------------------------------------------------------ phases


def _reveal_conflict(state: ImperiumState, card: str) -> ImperiumState:
    """Phase 1: the conflict card; its named location's controller deploys 1 troop from supply (IMP-GAP-7)."""
    rules = load_rules()
    state = state.evolve(conflict=card, conflicts_seen=state.conflicts_seen + (card,))
    location = rules.conflicts[card].location
    if location is not None:
        holder = state.control[rules.control_spaces.index(location)]
        if holder >= 0 and state.players[holder].supply > 0:
            player = state.players[holder]
            state = state.with_player(holder, supply=player.supply - 1, conflict=player.conflict + 1)
    return state


def _seat_order(state: ImperiumState, start: int) -> list[int]:
    count = len(state.players)
    return [(start + k) % count for k in range(count)]


def _round_start(state: ImperiumState, task: Task) -> ImperiumState:
    hand = load_rules().constants["hand_size"]
    draws = [Task("draw", seat) for seat in _seat_order(state, state.first) for _ in range(hand)]
    state = state.evolve(round=state.round + 1, phase="turns", current=state.first)
    return push(state, Task("conflict"), *draws, Task("turn", state.first))


def _next_turn(state: ImperiumState, task: Task) -> ImperiumState:
    """The next seat clockwise that has not revealed; everyone revealed: the combat phase."""
    for seat in _seat_order(state, state.current)[1:] + [state.current]:
        if not state.players[seat].done:
            return push(state.evolve(current=seat), Task("turn", seat))
    return push(state, Task("combat_start"))


def _combat_start(state: ImperiumState, task: Task) -> ImperiumState:
    order = tuple(seat for seat in _seat_order(state, state.first) if state.players[seat].conflict > 0)
    state = state.evolve(phase="combat", combat_order=order, combat_index=0, combat_passes=0)
    if not order:
        return push(state, Task("combat_resolve"))
    return push(state, Task("combat_turn", order[0]))


def _combat_next(state: ImperiumState, task: Task) -> ImperiumState:
    """After a pass or a combat intrigue: the next participant, or the resolution once all passed in a row."""
    order = state.combat_order
    if state.combat_passes >= len(order):
        return push(state, Task("combat_resolve"))
    index = (state.combat_index + 1) % len(order)
    return push(state.evolve(combat_index=index), Task("combat_turn", order[index]))


def _combat_resolve(state: ImperiumState, task: Task) -> ImperiumState:
    """Rewards by place (IMP-GAP-3), in turn order from the first player (IMP-GAP-21); troops to supply."""
    rules = load_rules()
    strengths = [strength(p.conflict, p.swords) for p in state.players]
    places = placements(strengths, len(state.players))
    assert state.conflict is not None
    rewards = rules.conflicts[state.conflict].rewards
    tasks = [
        Task("effects", seat, (rewards[places[seat] - 1], None))  # type: ignore[operator]
        for seat in _seat_order(state, state.first)
        if places[seat] is not None
    ]
    record = {"round": state.round, "conflict": state.conflict, "strengths": strengths, "rewards": places}
    players = tuple(p.evolve(supply=p.supply + p.conflict, conflict=0, swords=0) for p in state.players)
    state = state.evolve(players=players, history=state.history + (record,))
    return push(state, *tasks, Task("makers"), Task("round_end"))


def _makers(state: ImperiumState, task: Task) -> ImperiumState:
    """Phase 4: 1 bonus spice on each maker space with no agent; it stays until harvested."""
    bonus = load_rules().constants["maker_bonus"]
    spice = tuple(
        s + (bonus if space.maker and state.occupied[i] < 0 else 0)
        for i, (s, space) in enumerate(zip(state.bonus_spice, load_rules().spaces, strict=True))
    )
    return state.evolve(bonus_spice=spice)


def _round_end(state: ImperiumState, task: Task) -> ImperiumState:
    """Phase 5: the end at 10 VP or with the conflict deck empty, else recall and a new round."""
    rules = load_rules()
    goal = rules.constants["vp_to_end"]
    if state.round >= last_round() or any(victory_points(state, s) >= goal for s in range(len(state.players))):
        tasks = [
            Task("effects", seat, (rules.intrigues[card].effects, card))
            for seat in _seat_order(state, state.first)
            for card in state.players[seat].intrigues
            if rules.intrigues[card].type == "endgame"
        ]  # IMP-GAP-14
        return push(state.evolve(phase="end"), *tasks, Task("final"))
    players = tuple(
        p.evolve(placed=0, mentat=p.mentat_next, mentat_next=False, done=False, recruited=0, persuasion=0, swords=0)
        for p in state.players
    )
    first = (state.first + 1) % len(players)
    state = state.evolve(players=players, occupied=(-1,) * len(rules.spaces), first=first, current=first)
    return push(state, Task("round_start"))


def final_ranking(state: ImperiumState) -> list[int]:
    """Seats best first: VP, then spice, solari, water and garrison troops (seed: Comment compter les points)."""

    def key(seat: int) -> tuple[int, ...]:
        p = state.players[seat]
        return (victory_points(state, seat), p.spice, p.solari, p.water, p.garrison)

    return sorted(range(len(state.players)), key=lambda seat: (tuple(-v for v in key(seat)), seat))


def _final(state: ImperiumState, task: Task) -> ImperiumState:
    ranking = final_ranking(state)

    def key(seat: int) -> tuple[int, ...]:
        p = state.players[seat]
        return (victory_points(state, seat), p.spice, p.solari, p.water, p.garrison)

    winners = tuple(seat for seat in ranking if key(seat) == key(ranking[0]))  # IMP-GAP-15: shared victory
    return state.evolve(phase="over", winners=winners)


def _end_reveal(state: ImperiumState, task: Task) -> ImperiumState:
    """Clean-up: cards in play to the discard pile; unspent persuasion is lost (IMP-GAP-22)."""
    p = state.players[task.player]
    discard = tuple(sorted(p.discard + p.played + p.revealed))
    return state.with_player(task.player, discard=discard, played=(), revealed=(), persuasion=0)


def _effects(state: ImperiumState, task: Task) -> ImperiumState:
    effects, source = task.data
    return run_effects(state, task.player, effects, source)


def _power(state: ImperiumState, task: Task) -> ImperiumState:
    """A leader power at its trigger point (IMP-GAP-32): its condition, once per game if so marked."""
    seat = task.player
    player = state.players[seat]
    power = next(p for p in load_rules().leaders[player.leader].powers if p.id == task.data[0])
    if power.once and power.id in player.used_powers:
        return state
    if power.condition is not None and not condition_holds(state, seat, power.condition, None):
        return state
    if power.once:
        state = state.with_player(seat, used_powers=player.used_powers + (power.id,))
    return push(state, Task("effects", seat, (power.effects, None)))


_HANDLERS = {
    "round_start": _round_start,
    "next_turn": _next_turn,
    "combat_start": _combat_start,
    "combat_next": _combat_next,
    "combat_resolve": _combat_resolve,
    "makers": _makers,
    "round_end": _round_end,
    "final": _final,
    "end_reveal": _end_reveal,
    "effects": _effects,
    "power": _power,
}


def _prepare_choice(state: ImperiumState, task: Task) -> ImperiumState | None:
    """Resolve a decision with a single possible answer; ``None`` when the player must choose."""
    if task.kind == "order" and len(task.data[0]) == 1:
        return _resolve_part(state.evolve(queue=state.queue[1:]), task, task.data[0][0])
    if task.kind == "deploy" and _deploy_max(state.players[task.player]) == 0:
        return state.evolve(queue=state.queue[1:])
    if task.kind == "combat_turn" and not _intrigues_of(state.players[task.player], "combat"):  # IMP-GAP-8
        return state.evolve(queue=(Task("combat_next"),) + state.queue[1:], combat_passes=state.combat_passes + 1)
    return None


def resume(state: ImperiumState) -> ImperiumState:
    """Resolve the queue's automatic tasks (for scenes built by hand: tests, notebooks)."""
    return _run(state)


def _run(state: ImperiumState) -> ImperiumState:
    """Resolve automatic tasks until a chance node, a decision or the end."""
    while state.queue:
        task = state.queue[0]
        if task.kind in CHANCE_TASKS:
            prepared = _skip_chance(state, task)
            if prepared is state:
                return state
            state = prepared  # type: ignore[assignment]
            continue
        if task.kind in _HANDLERS:
            state = _HANDLERS[task.kind](state.evolve(queue=state.queue[1:]), task)
            continue
        prepared = _prepare_choice(state, task)
        if prepared is None:
            return state
        state = prepared
    return state


# ------------------------------------------------------------------------------------------------ agents


def space_cost(rules: ImperiumRules, player: PlayerState, space: Space) -> Cost:
    """The space's cost for this player, lowered by the leader's 'discount' powers on its icon (Leto)."""
    off: Counter[str] = Counter()
    for power in rules.leaders[player.leader].at("discount"):
        if space.icon in power.icons:
            off.update(dict(power.cost))
    if not off:
        return space.cost
    return tuple((r, max(0, a - off[r])) for r, a in space.cost)


def _space_open(rules: ImperiumRules, state: ImperiumState, seat: int, space: Space) -> bool:
    """Unoccupied (or occupied by another player where a 'join' power allows it, IMP-GAP-30), requirements
    met, once-only spaces not taken yet, cost affordable."""
    player = state.players[seat]
    occupant = state.occupied[rules.space_index[space.id]]
    if occupant >= 0:
        joins = any(space.icon in power.icons for power in rules.leaders[player.leader].at("join"))
        if occupant == seat or not joins:
            return False
    if any(player.influence[rules.factions.index(f)] < level for f, level in space.requires):
        return False
    for effect in space.effects:  # IMP-GAP-9, IMP-GAP-10: one seat and one Swordmaster per player
        if (effect[0] == "council_seat" and player.council) or (effect[0] == "swordmaster" and player.swordmaster):
            return False
    return can_pay(player, space_cost(rules, player, space))


def agent_moves(state: ImperiumState, seat: int) -> list[Agent]:
    """Every (card, space) pair the seat may play now: an agent left, a matching icon, an open space."""
    rules = load_rules()
    player = state.players[seat]
    if player.agents_left <= 0:
        return []
    open_spaces = [space for space in rules.spaces if _space_open(rules, state, seat, space)]
    moves: list[Agent] = []
    for card_id in sorted(set(player.hand)):
        icons = rules.cards[card_id].icons
        moves.extend(Agent(card_id, space.id) for space in open_spaces if space.icon in icons)
    return moves


def _apply_agent(state: ImperiumState, task: Task, action: Agent) -> ImperiumState:
    rules = load_rules()
    seat = task.player
    if action not in agent_moves(state, seat):
        raise _illegal(state, action, "bad-agent", _agent_reason(state, seat, action))
    space = rules.space(action.space)
    index = rules.space_index[space.id]
    player = state.players[seat]
    state = pay(state, seat, space_cost(rules, player, space))  # IMP-GAP-19: paid at placement
    player = state.players[seat]
    state = state.with_player(
        seat,
        hand=remove_card(player.hand, action.card),
        played=player.played + (action.card,),
        placed=player.placed + 1,
        recruited=0,
        deploy_base=player.garrison,
    )
    if state.occupied[index] < 0:  # a second agent (Eyes Everywhere, IMP-GAP-30) leaves the first occupant shown
        state = state.evolve(occupied=state.occupied[:index] + (seat,) + state.occupied[index + 1 :])
    if space.control:  # seed: Contrôle - the controller's bonus whoever visits
        holder = state.control[rules.control_spaces.index(space.id)]
        if holder >= 0:
            state = gain(state, holder, space.control)
    parts = ["space"]
    if rules.cards[action.card].agent:
        parts.append("card")
    if space.faction is not None:
        parts.append("influence")
    tasks = [Task("order", seat, (tuple(parts), action.card, space.id))]
    if space.combat:
        tasks.append(Task("deploy", seat))
    tasks.append(Task("next_turn"))
    return push(state.evolve(queue=state.queue[1:]), *tasks)


def _agent_reason(state: ImperiumState, seat: int, action: Agent) -> str:
    rules = load_rules()
    player = state.players[seat]
    if player.agents_left <= 0:
        return "no agent left: reveal"
    if action.card not in player.hand:
        return f"{action.card!r} is not in the hand ({', '.join(player.hand) or 'empty'})"
    if action.space not in rules.space_index:
        return f"{action.space!r} is not a space (allowed: {', '.join(rules.space_index)})"
    space = rules.space(action.space)
    if space.icon not in rules.cards[action.card].icons:
        icons = ", ".join(rules.cards[action.card].icons) or "none"
        return f"{action.card} has no {space.icon} icon (its icons: {icons})"
    if state.occupied[rules.space_index[space.id]] >= 0:
        return f"{space.id} is occupied"
    cost = dict(space_cost(rules, player, space))
    return f"{space.id} is not open to this player (cost {cost}, an influence requirement, or once per player)"


def _resolve_part(state: ImperiumState, task: Task, part: str) -> ImperiumState:
    """One of the three parts of an agent turn, in the player's order (seed: Résoudre les effets)."""
    rules = load_rules()
    parts, card, space_id = task.data
    remaining = tuple(p for p in parts if p != part)
    follow = (Task("order", task.player, (remaining, card, space_id)),) if remaining else ()
    space = rules.space(space_id)
    if part == "space":
        effects, source = space.effects + _leader_triggers(rules, state.players[task.player], space), None
    elif part == "card":
        effects, source = rules.cards[card].agent, card
    else:
        effects, source = (("influence", space.faction),), None
    return push(state, Task("effects", task.player, (effects, source)), *follow)


def _leader_triggers(rules: ImperiumRules, player: PlayerState, space: Space) -> Effects:
    """Leader powers tied to a visit, after the space's own effects (IMP-GAP-25): 'visit' powers naming the
    space (Connections, Spice Addict) and 'pay' powers when their resource was paid for it (Ruthless Negotiator)."""
    leader = rules.leaders[player.leader]
    paid = dict(space_cost(rules, player, space))
    effects: Effects = ()
    for power in leader.powers:
        if (power.when == "visit" and space.id in power.spaces) or (
            power.when == "pay" and paid.get(power.resource or "", 0) > 0
        ):
            effects += power.effects
    return effects


def _deploy_max(player: PlayerState) -> int:
    """Troops recruited this turn plus up to 2 from the garrison as it was (IMP-GAP-18)."""
    extra = min(load_rules().constants["deploy_from_garrison"], player.deploy_base)
    return min(player.garrison, player.recruited + extra)


# ------------------------------------------------------------------------------------------------ reveal


def _apply_reveal(state: ImperiumState, task: Task) -> ImperiumState:
    """Seed: Le tour Révélation - the hand is revealed; its reveal boxes, then purchases, then clean-up."""
    rules = load_rules()
    seat = task.player
    player = state.players[seat]
    state = state.with_player(seat, revealed=player.hand, hand=(), done=True)
    tasks = [
        Task("effects", seat, (rules.cards[card].reveal, card)) for card in player.hand if rules.cards[card].reveal
    ]
    if player.council:
        tasks.append(Task("effects", seat, ((("persuasion", rules.constants["council_persuasion"]),), None)))
    tasks += [Task("power", seat, (power.id,)) for power in rules.leaders[player.leader].at("reveal")]
    tasks += [Task("buy", seat), Task("end_reveal", seat), Task("next_turn")]
    return push(state.evolve(queue=state.queue[1:]), *tasks)


def buy_cost(state: ImperiumState, seat: int, card: str) -> int:
    """The persuasion a card costs this seat: 1 less when it set the card aside (IMP-GAP-36)."""
    cost = load_rules().cards[card].cost
    if card in state.players[seat].reserved:
        return max(0, cost - load_rules().constants["reserved_discount"])
    return cost


def buy_moves(state: ImperiumState, seat: int) -> list[Buy]:
    """Cards the seat can afford from the row, its set-aside cards and the buyable reserve piles."""
    rules = load_rules()
    persuasion = state.players[seat].persuasion
    reserve = dict(state.reserve)
    options = sorted(set(state.row) | set(state.players[seat].reserved))
    options += [c for c in rules.buyable_reserve if reserve.get(c, 0) > 0]
    return [Buy(card) for card in options if buy_cost(state, seat, card) <= persuasion]


def _apply_buy(state: ImperiumState, task: Task, action: Buy) -> ImperiumState:
    rules = load_rules()
    seat = task.player
    if action not in buy_moves(state, seat):
        allowed = ", ".join(b.card for b in buy_moves(state, seat)) or "none"
        raise _illegal(state, action, "bad-buy", f"not affordable or not on offer (affordable: {allowed})")
    card = rules.cards[action.card]
    player = state.players[seat]
    price = buy_cost(state, seat, card.id)
    state = state.with_player(seat, persuasion=player.persuasion - price, discard=add_card(player.discard, card.id))
    tasks = []
    if action.card in player.reserved:  # IMP-GAP-36: a card set aside leaves no gap in the row
        state = state.with_player(seat, reserved=remove_card(player.reserved, action.card))
    elif action.card in state.row:
        row = list(state.row)
        row.remove(action.card)
        state = state.evolve(row=tuple(row))
        tasks.append(Task("row"))
    else:
        reserve = dict(state.reserve)
        reserve[action.card] -= 1
        state = state.evolve(reserve=tuple(reserve.items()))
    if card.acquire:
        tasks.append(Task("effects", seat, (card.acquire, card.id)))
    return push(state, *tasks)


# ------------------------------------------------------------------------------------------------ intrigues


def _intrigues_of(player: PlayerState, kind: str) -> list[str]:
    """The player's intrigues of one type that can be played now: their cost is required (IMP-GAP-28)."""
    intrigues = load_rules().intrigues
    return sorted(
        {card for card in player.intrigues if intrigues[card].type == kind and can_pay(player, intrigues[card].cost)}
    )


def _apply_intrigue(state: ImperiumState, task: Task, action: Any) -> ImperiumState:
    rules = load_rules()
    seat = task.player
    kind = "combat" if task.kind == "combat_turn" else "plot"
    allowed = _intrigues_of(state.players[seat], kind)
    if action.card not in allowed:
        raise _illegal(state, action, "bad-intrigue", f"playable {kind} intrigues: {', '.join(allowed) or 'none'}")
    player = state.players[seat]
    state = pay(state, seat, rules.intrigues[action.card].cost)
    state = state.with_player(seat, intrigues=remove_card(player.intrigues, action.card))
    state = state.evolve(intrigue_discard=add_card(state.intrigue_discard, action.card))
    effect_task = Task("effects", seat, (rules.intrigues[action.card].effects, action.card))
    if task.kind == "combat_turn":
        return push(state.evolve(queue=state.queue[1:], combat_passes=0), effect_task, Task("combat_next"))
    return push(state, effect_task)  # IMP-GAP-27: the turn (or the buy step) stays pending


# ------------------------------------------------------------------------------------------------ dispatch


def _illegal(state: ImperiumState, action: Any, code: str, reason: str) -> IllegalActionError:
    notation = getattr(action, "notation", repr(action))
    return IllegalActionError(f"imperium/{code}", f"{notation} by {state.actor_name()}: {reason}")


def choice_values(state: ImperiumState, task: Task) -> list[str]:
    """The allowed ``choose`` values of a pending question."""
    rules = load_rules()
    player = state.players[task.player]
    if task.kind == "order":
        return list(task.data[0])
    if task.kind == "optional":
        return ["yes", "no"]
    if task.kind == "faction":
        return list(rules.factions)
    if task.kind == "trash":
        return trash_choices(player) + ["none"]  # IMP-GAP-12: the trash icon may be declined
    if task.kind == "one_of":
        return [str(i) for i in range(len(task.data[0]))]
    if task.kind == "deploy":
        return [str(n) for n in range(_deploy_max(player) + 1)]
    if task.kind == "secret_factions":  # IMP-GAP-35: distinct factions, as 'emperor+guild'
        return ["+".join(pair) for pair in combinations(rules.factions, task.data[0])]
    if task.kind == "reserve":  # IMP-GAP-36: a row card, or none
        return sorted(set(state.row)) + ["none"]
    return []


def _apply_choose(state: ImperiumState, task: Task, action: Any) -> ImperiumState:
    values = choice_values(state, task)
    if action.value not in values:
        raise _illegal(state, action, "bad-choice", f"the pending {task.kind} question allows: {', '.join(values)}")
    seat, value = task.player, action.value
    state = state.evolve(queue=state.queue[1:])
    player = state.players[seat]
    if task.kind == "order":
        return _resolve_part(state, task, value)
    if task.kind == "optional":
        cost, effects, source = task.data
        if value == "no":
            return state
        return push(pay(state, seat, cost), Task("effects", seat, (effects, source)))
    if task.kind == "faction":
        state, bonus = change_influence(state, seat, value, 1)
        return push(state, Task("effects", seat, (bonus, None))) if bonus else state
    if task.kind == "trash":
        if value == "none":
            return state
        zone, card = value.split(":", 1)
        state = state.with_player(
            seat, **{zone: remove_card(getattr(player, zone), card)}, trashed=player.trashed + (card,)
        )
        trashed = load_rules().cards[card].trashed  # a card's own 'when trashed' effects
        return push(state, Task("effects", seat, (trashed, card))) if trashed else state
    if task.kind == "one_of":
        options, source = task.data
        return push(state, Task("effects", seat, (options[int(value)], source)))
    if task.kind == "secret_factions":
        return state.with_player(seat, secret_factions=tuple(value.split("+")))
    if task.kind == "reserve":
        if value == "none":
            return state
        row = list(state.row)
        row.remove(value)
        state = state.evolve(row=tuple(row)).with_player(seat, reserved=add_card(player.reserved, value))
        return push(state, Task("row"))
    count = int(value)  # deploy
    return state.with_player(seat, garrison=player.garrison - count, conflict=player.conflict + count)


def legal_actions(state: ImperiumState) -> list[Any]:
    """Every legal action at the pending task (chance outcomes included); empty once the game is over."""
    task = state.pending
    if task is None:
        return []
    if task.kind in CHANCE_TASKS:
        return [action for action, _ in chance_outcomes(state)]
    player = state.players[task.player]
    if task.kind == "turn":
        plots = [PlayIntrigue(card) for card in _intrigues_of(player, "plot")]
        return agent_moves(state, task.player) + [Reveal()] + plots
    if task.kind == "buy":
        return buy_moves(state, task.player) + [PlayIntrigue(c) for c in _intrigues_of(player, "plot")] + [Pass()]
    if task.kind == "combat_turn":
        return [PlayIntrigue(card) for card in _intrigues_of(player, "combat")] + [Pass()]
    return [Choose(value) for value in choice_values(state, task)]


def apply_action(state: ImperiumState, action: Any) -> ImperiumState:
    """Return the state after ``action``; an illegal one raises :class:`IllegalActionError` (state unchanged).

    Codes: ``imperium/game-over``, ``imperium/bad-chance``, ``imperium/wrong-action``, ``imperium/bad-agent``,
    ``imperium/bad-buy``, ``imperium/bad-intrigue``, ``imperium/bad-choice``.
    """
    task = state.pending
    if task is None:
        raise _illegal(state, action, "game-over", "the game is over")
    if task.kind in CHANCE_TASKS:
        new = _apply_chance(state, task, action)
    elif task.kind == "turn" and isinstance(action, Agent):
        new = _apply_agent(state, task, action)
    elif task.kind == "turn" and isinstance(action, Reveal):
        new = _apply_reveal(state, task)
    elif task.kind in ("turn", "buy", "combat_turn") and isinstance(action, PlayIntrigue):
        new = _apply_intrigue(state, task, action)
    elif task.kind == "buy" and isinstance(action, Buy):
        new = _apply_buy(state, task, action)
    elif task.kind == "buy" and isinstance(action, Pass):
        new = state.evolve(queue=state.queue[1:])
    elif task.kind == "combat_turn" and isinstance(action, Pass):
        new = push(state.evolve(queue=state.queue[1:], combat_passes=state.combat_passes + 1), Task("combat_next"))
    elif isinstance(action, Choose) and task.kind not in ("turn", "buy", "combat_turn"):
        new = _apply_choose(state, task, action)
    else:
        allowed = ", ".join(sorted({a.kind for a in legal_actions(state)}))
        raise _illegal(state, action, "wrong-action", f"the pending {task.kind} step takes: {allowed}")
    return _run(new).evolve(actions=state.actions + (action,))
