"""Bots for Dune: Imperium: a seeded random bot and a greedy heuristic bot.

Both see only what their seat may see in principle (the heuristic reads its own hand and the board) and
choose among :func:`dunenb.imperium.engine.legal_actions`; both are deterministic for a seed.

>>> from dunenb.imperium.engine import advance, new_game
>>> state = advance(new_game(["A", "B"], seed=2))
>>> make_bot("heuristic").choose(state).kind in ("agent", "reveal", "intrigue")
True
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from dunenb.errors import InputError
from dunenb.imperium.actions import Agent, Buy, Choose, Pass, PlayIntrigue, Reveal
from dunenb.imperium.effects import can_pay
from dunenb.imperium.engine import legal_actions, space_cost
from dunenb.imperium.rules_data import Effects, load_rules
from dunenb.imperium.state import ImperiumState

#: Rough worth of one unit of each thing, in solari (for the heuristic only).
WORTH: dict[str, float] = {
    "solari": 1.0,
    "spice": 1.6,
    "water": 2.2,
    "recruit": 1.6,
    "draw": 1.8,
    "intrigue": 2.0,
    "persuasion": 1.0,
    "swords": 0.6,
    "vp": 9.0,
    "influence": 2.5,
    "control": 5.0,
    "mentat": 3.0,
    "swordmaster": 9.0,
    "council_seat": 9.0,
    "trash": 1.0,
    "steal_intrigue": 0.5,
    "signet": 1.5,
    "acquire": 1.0,
}


class Bot(Protocol):
    name: str

    def choose(self, state: ImperiumState) -> Any: ...


class RandomBot:
    """Uniform among the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, state: ImperiumState) -> Any:
        return self._random.choice(legal_actions(state))


def effects_value(effects: Effects, state: ImperiumState, seat: int) -> float:
    """A rough value of effects for ``seat`` (optional costs taken when they pay off)."""
    rules = load_rules()
    player = state.players[seat]
    total = 0.0
    for effect in effects:
        name = effect[0]
        if name == "gain":
            total += sum(WORTH[r] * n for r, n in effect[1])
        elif name in ("recruit", "draw", "intrigue", "persuasion", "swords", "vp"):
            total += WORTH[name] * effect[1]
        elif name == "influence":
            if effect[1] == "any":
                total += WORTH["influence"] + 1.0
            else:
                level = player.influence[rules.factions.index(effect[1])]
                total += WORTH["influence"] + (WORTH["vp"] * 0.8 if level in (1, 3) else 0.0)
        elif name == "optional":
            gain_value = effects_value(effect[2], state, seat)
            cost_value = sum(WORTH[r] * n for r, n in effect[1])
            if can_pay(player, effect[1]) and gain_value > cost_value:
                total += gain_value - cost_value
        elif name == "if":
            total += 0.5 * effects_value(effect[2], state, seat)
        elif name == "per":
            total += 1.5 * effects_value(effect[2], state, seat)
        elif name == "one_of":
            total += max(effects_value(option, state, seat) for option in effect[1])
        elif name == "harvest":
            total += WORTH["spice"] * state.bonus_spice[rules.space_index[effect[1]]]
        elif name == "swordmaster":
            total += WORTH["swordmaster"] * max(0.0, (10 - state.round) / 8)
        elif name == "council_seat":
            total += WORTH["council_seat"] * max(0.0, (10 - state.round) / 8)
        elif name in WORTH:
            total += WORTH[name]
    return total


class HeuristicBot:
    """Greedy: the agent move worth most (space + card box - cost - the card's lost reveal), reveal when no
    move is worth it, buy the dearest card it can (The Spice Must Flow from 9), deploy everything, take
    optional costs that pay off, play every intrigue."""

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def _agent_value(self, state: ImperiumState, seat: int, move: Agent) -> float:
        rules = load_rules()
        space, card = rules.space(move.space), rules.cards[move.card]
        player = state.players[seat]
        value = effects_value(space.effects, state, seat) + effects_value(card.agent, state, seat)
        value -= sum(WORTH[r] * n for r, n in space_cost(rules, player, space))
        value -= 0.8 * effects_value(card.reveal, state, seat)
        if space.faction is not None:
            value += effects_value((("influence", space.faction),), state, seat)
        if space.combat and state.conflict is not None:
            value += 0.5 * min(2, player.garrison) + (2.0 if state.round >= 4 else 0.5)
        return value

    def choose(self, state: ImperiumState) -> Any:
        task = state.pending
        assert task is not None
        seat = task.player
        actions = legal_actions(state)
        if task.kind == "turn":
            plots = [a for a in actions if isinstance(a, PlayIntrigue)]
            if plots:
                return plots[0]
            moves = [a for a in actions if isinstance(a, Agent)]
            if moves:
                best = max(moves, key=lambda m: (self._agent_value(state, seat, m), m.card, m.space))
                if self._agent_value(state, seat, best) > -1.0:
                    return best
            return Reveal()
        if task.kind == "buy":
            buys = [a for a in actions if isinstance(a, Buy)]
            if not buys:
                return Pass()
            cards = load_rules().cards
            return max(buys, key=lambda b: (cards[b.card].cost + (5 if b.card == "the_spice_must_flow" else 0), b.card))
        if task.kind == "combat_turn":
            plays = [a for a in actions if isinstance(a, PlayIntrigue)]
            return plays[0] if plays else Pass()
        values = [a.value for a in actions if isinstance(a, Choose)]
        return Choose(self._answer(state, task.kind, values, task.data, seat))

    def _answer(self, state: ImperiumState, kind: str, values: list[str], data: tuple[Any, ...], seat: int) -> str:
        rules = load_rules()
        player = state.players[seat]
        if kind == "deploy":
            return values[-1]
        if kind == "optional":
            cost, effects, _ = data
            return "yes" if effects_value(effects, state, seat) > sum(WORTH[r] * n for r, n in cost) else "no"
        if kind == "faction":

            def worth(faction: str) -> tuple[float, str]:
                level = player.influence[rules.factions.index(faction)]
                return ((3.0 if level in (1, 3) else 0.0) - 0.1 * level, faction)

            return max(values, key=worth)
        if kind == "one_of":
            options = data[0]
            return max(values, key=lambda v: (effects_value(options[int(v)], state, seat), v))
        if kind == "trash":

            def cheap(value: str) -> tuple[int, int, str]:
                zone, card = value.split(":", 1)
                return (rules.cards[card].cost, 0 if zone == "discard" else 1, value)

            cards = [v for v in values if v != "none"]
            return min(cards, key=cheap) if cards else "none"
        if kind == "reserve":  # Manipulate (IMP-GAP-36): the dearest row card
            cards = [v for v in values if v != "none"]
            return max(cards, key=lambda card: (rules.cards[card].cost, card)) if cards else "none"
        return values[0]


#: Bot classes by name.
BOTS: dict[str, type] = {"random": RandomBot, "heuristic": HeuristicBot}


def make_bot(name: str, seed: int = 0, argument: str = "bot") -> Any:
    """A bot by name; raises :class:`InputError` naming ``argument`` and the allowed names."""
    if name not in BOTS:
        raise InputError("imperium/bot", f"{argument}: {name!r} is not a bot (allowed: {', '.join(BOTS)})")
    return BOTS[name](seed)
