"""The effect vocabulary of cards, spaces, leaders, conflicts and intrigues, implemented once.

:func:`run_effects` applies a tuple of effects for a seat. Effects that need a chance outcome (draws,
intrigues) or a decision (an optional cost, 'any' influence, a card to trash, one of several options)
push that task to the front of the queue followed by the effects still to do, so the engine stops there.

Influence (seed: Les quatre factions): 1 VP at 2 or more (:func:`victory_points` counts it, so it is lost
below 2), the faction's one-time bonus at 4 (IMP-GAP-5) and the alliance token (IMP-GAP-4).
"""

from __future__ import annotations

from bisect import insort

from dunenb.imperium.rules_data import Cost, Effect, Effects, load_rules
from dunenb.imperium.state import ImperiumState, PlayerState, Task


def add_card(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    """A sorted multiset with one more ``card``."""
    items = list(cards)
    insort(items, card)
    return tuple(items)


def remove_card(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    """The multiset without one ``card`` (``ValueError`` when absent)."""
    items = list(cards)
    items.remove(card)
    return tuple(items)


def can_pay(player: PlayerState, cost: Cost) -> bool:
    return all(getattr(player, resource) >= amount for resource, amount in cost)


def pay(state: ImperiumState, seat: int, cost: Cost) -> ImperiumState:
    player = state.players[seat]
    return state.with_player(seat, **{r: getattr(player, r) - a for r, a in cost})


def gain(state: ImperiumState, seat: int, resources: Cost) -> ImperiumState:
    player = state.players[seat]
    return state.with_player(seat, **{r: getattr(player, r) + a for r, a in resources})


def push(state: ImperiumState, *tasks: Task) -> ImperiumState:
    """Put ``tasks`` (in this order) at the front of the queue."""
    return state.evolve(queue=tuple(tasks) + state.queue)


def victory_points(state: ImperiumState, seat: int) -> int:
    """Score track + factions at 2 or more influence + alliance tokens held (IMP-GAP-24)."""
    player = state.players[seat]
    threshold = load_rules().constants["influence_vp_at"]
    return (
        player.score
        + sum(1 for level in player.influence if level >= threshold)
        + sum(1 for holder in state.alliances if holder == seat)
    )


def fremen_bond(player: PlayerState, source: str | None) -> bool:
    """Another Fremen card in play, played or revealed this round (IMP-GAP-6)."""
    cards = load_rules().cards
    in_play = list(player.played + player.revealed)
    if source in in_play:
        in_play.remove(source)
    return any(cards[c].faction == "fremen" for c in in_play)


def condition_holds(state: ImperiumState, seat: int, condition: object, source: str | None) -> bool:
    player = state.players[seat]
    if condition == "fremen_bond":
        return fremen_bond(player, source)
    if condition == "alliance":
        return seat in state.alliances
    assert isinstance(condition, tuple)
    if condition[0] == "swords_at_least":
        return player.swords >= condition[1]
    if condition[0] == "factions_at":
        return sum(1 for level in player.influence if level >= condition[1]) >= condition[2]
    if condition[0] == "owns":
        return player.owned().count(condition[1]) >= condition[2]
    if condition[0] == "owns_most":  # strictly more copies than every opponent
        mine = player.owned().count(condition[1])
        return all(mine > other.owned().count(condition[1]) for i, other in enumerate(state.players) if i != seat)
    raise AssertionError(condition)


def change_influence(state: ImperiumState, seat: int, faction: str, amount: int) -> tuple[ImperiumState, Effects]:
    """Move ``seat``'s cube on ``faction``'s track; returns the state and the 4-influence bonus to apply.

    The alliance token (IMP-GAP-4, FAQ): the first to reach 4 takes it; another player with 4 or more and
    strictly more influence than the holder takes it (the first in seat order after the holder among
    equals); a holder at 3 or less with nobody to pass it to returns it to the board.
    """
    rules = load_rules()
    index = rules.factions.index(faction)
    at = rules.constants["alliance_at"]
    player = state.players[seat]
    level = max(0, min(rules.constants["influence_max"], player.influence[index] + amount))
    influence = player.influence[:index] + (level,) + player.influence[index + 1 :]
    bonus: Effects = ()
    changes: dict[str, object] = {"influence": influence}
    if level >= at and not player.bonus_taken[index]:
        bonus = rules.influence_bonus[faction]
        changes["bonus_taken"] = player.bonus_taken[:index] + (True,) + player.bonus_taken[index + 1 :]
    state = state.with_player(seat, **changes)
    holder = state.alliances[index]
    levels = [p.influence[index] for p in state.players]
    if holder == -1:
        new_holder = seat if level >= at else -1
    else:
        count = len(levels)
        others = [(holder + k) % count for k in range(1, count)]
        best = max(levels[o] for o in others)
        if best >= at and best > levels[holder]:
            new_holder = next(o for o in others if levels[o] == best)
        else:
            new_holder = holder if levels[holder] >= at else -1
    if new_holder != holder:
        alliances = state.alliances[:index] + (new_holder,) + state.alliances[index + 1 :]
        state = state.evolve(alliances=alliances)
    return state, bonus


def recruit(state: ImperiumState, seat: int, count: int) -> ImperiumState:
    """Troops from supply to the garrison (as many as the supply holds)."""
    player = state.players[seat]
    moved = min(count, player.supply)
    return state.with_player(
        seat, supply=player.supply - moved, garrison=player.garrison + moved, recruited=player.recruited + moved
    )


def trash_choices(player: PlayerState) -> list[str]:
    """The ``zone:card`` values of a 'trash a card' choice (IMP-GAP-12)."""
    values = []
    for zone in ("hand", "played", "revealed", "discard"):
        for card in sorted(set(getattr(player, zone))):
            values.append(f"{zone}:{card}")
    return values


def run_effects(state: ImperiumState, seat: int, effects: Effects, source: str | None = None) -> ImperiumState:
    """Apply ``effects`` for ``seat`` until one needs a task; that task and the rest go to the queue front."""
    rules = load_rules()
    todo = list(effects)
    while todo:
        effect = todo.pop(0)
        name = effect[0]
        rest = Task("effects", seat, (tuple(todo), source))
        player = state.players[seat]
        if name == "gain":
            state = gain(state, seat, effect[1])
        elif name == "lose":
            state = state.with_player(seat, **{r: max(0, getattr(player, r) - n) for r, n in effect[1]})
        elif name == "recruit":
            state = recruit(state, seat, effect[1])
        elif name in ("draw", "intrigue"):
            return push(state, *([Task(name, seat)] * effect[1]), rest)
        elif name == "persuasion":
            state = state.with_player(seat, persuasion=player.persuasion + effect[1])
        elif name == "swords":
            state = state.with_player(seat, swords=player.swords + effect[1])
        elif name == "vp":
            state = state.with_player(seat, score=player.score + effect[1])
        elif name == "influence":
            if effect[1] == "any":
                return push(state, Task("faction", seat, (source,)), rest)
            state, bonus = change_influence(state, seat, effect[1], 1)
            todo = list(bonus) + todo
        elif name == "control":
            index = rules.control_spaces.index(effect[1])
            state = state.evolve(control=state.control[:index] + (seat,) + state.control[index + 1 :])  # IMP-GAP-26
        elif name == "trash":
            if effect[1] == "self":
                if source in player.played:
                    state = state.with_player(
                        seat, played=remove_card(player.played, source), trashed=player.trashed + (source,)
                    )
                    todo = list(rules.cards[source].trashed) + todo
            elif trash_choices(player):
                return push(state, Task("trash", seat, (source,)), rest)
        elif name == "optional":
            if can_pay(player, effect[1]):
                return push(state, Task("optional", seat, (effect[1], effect[2], source)), rest)
        elif name == "if":
            if condition_holds(state, seat, effect[1], source):
                todo = list(effect[2]) + todo
        elif name == "per":  # the effects once per counted card (Liet Kynes)
            count, argument = effect[1]
            assert count == "faction_in_play"
            times = sum(1 for card in player.played + player.revealed if rules.cards[card].faction == argument)
            todo = list(effect[2]) * times + todo
        elif name == "one_of":
            return push(state, Task("one_of", seat, (effect[1], source)), rest)
        elif name == "mentat":  # IMP-GAP-11, IMP-GAP-29: one Mentat; won in combat, it serves the next round
            if state.phase == "combat":
                state = state.with_player(seat, mentat_next=True)
            elif not any(p.mentat for p in state.players):
                state = state.with_player(seat, mentat=True)
        elif name == "swordmaster":
            state = state.with_player(seat, swordmaster=True, agents=player.agents + 1)
        elif name == "council_seat":
            state = state.with_player(seat, council=True)
        elif name == "harvest":
            index = rules.space_index[effect[1]]
            bonus_spice = state.bonus_spice
            state = state.evolve(bonus_spice=bonus_spice[:index] + (0,) + bonus_spice[index + 1 :])
            state = state.with_player(seat, spice=player.spice + bonus_spice[index])
        elif name == "steal_intrigue":
            count = len(state.players)
            threshold = rules.constants["steal_threshold"]
            victims = [(seat + k) % count for k in range(1, count)]
            tasks = [Task("steal", seat, (v,)) for v in victims if len(state.players[v].intrigues) >= threshold]
            if tasks:
                return push(state, *tasks, rest)
        elif name == "signet":
            todo = list(rules.leaders[player.leader].signet) + todo
        elif name == "secret_factions":  # IMP-GAP-35: a secret choice of distinct factions
            return push(state, Task("secret_factions", seat, (effect[1],)), rest)
        elif name == "secret_influence":  # IMP-GAP-35: +1 with each secret faction, which is then shown
            state = state.with_player(seat, secret_shown=True)
            bonuses: list[Effect] = []
            for faction in player.secret_factions:
                state, bonus = change_influence(state, seat, faction, 1)
                bonuses.extend(bonus)
            todo = bonuses + todo
        elif name == "reserve_row":  # IMP-GAP-36: a row card set aside for this player
            if state.row:
                return push(state, Task("reserve", seat, (source,)), rest)
        elif name == "acquire":
            if dict(state.reserve).get(effect[1], 0) > 0:
                state = acquire(state, seat, effect[1])
                todo = list(rules.cards[effect[1]].acquire) + todo
        else:  # pragma: no cover - the data loader only lets known effects through
            raise AssertionError(effect)
    return state


def acquire(state: ImperiumState, seat: int, card: str) -> ImperiumState:
    """A reserve card to the discard pile when its pile is not empty (the acquire effects are the caller's)."""
    reserve = dict(state.reserve)
    if reserve.get(card, 0) <= 0:
        return state
    reserve[card] -= 1
    state = state.evolve(reserve=tuple(reserve.items()))
    return state.with_player(seat, discard=add_card(state.players[seat].discard, card))
