"""Analyses for the notebook panels, as pandas DataFrames: the conflict calculator, the persuasion of the
next hand, and VP races over simulated games.

>>> table = conflict_table([3, 1, 1, 0], [1, 0, 0, 2], [None, "ambush", None, None])
>>> table[["strength", "reward", "tie"]].values.tolist()
[[7, 1, False], [6, 2, False], [2, 3, False], [0, None, False]]
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pandas as pd

from dunenb.errors import InputError
from dunenb.imperium.combat import placements, strength
from dunenb.imperium.describe import describe_effects
from dunenb.imperium.odds import Pile, hand_odds
from dunenb.imperium.rules_data import Effects, load_rules


def _swords_of(effects: Effects) -> int:
    """Swords an effect list adds, optional costs taken (for combat intrigues)."""
    total = 0
    for effect in effects:
        if effect[0] == "swords":
            total += effect[1]
        elif effect[0] == "optional":
            total += _swords_of(effect[2])
    return total


def combat_intrigues() -> dict[str, int]:
    """Combat intrigue ids and the swords each adds (optional costs assumed paid)."""
    rules = load_rules()
    return {cid: _swords_of(card.effects) for cid, card in rules.intrigues.items() if card.type == "combat"}


def conflict_table(
    troops: Sequence[int],
    swords: Sequence[int],
    intrigues: Sequence[str | None] | None = None,
    conflict: str | None = None,
) -> pd.DataFrame:
    """Who takes which reward: strength (2 per troop + swords + combat intrigue swords, 0 without troops),
    the reward place (IMP-GAP-3), whether the player is tied, and the reward's text for ``conflict``."""
    count = len(troops)
    plays = list(intrigues) if intrigues is not None else [None] * count
    if len(swords) != count or len(plays) != count:
        raise InputError("imperium/conflict", f"expected {count} swords and intrigues, one per player")
    bonus = combat_intrigues()
    unknown = [p for p in plays if p is not None and p not in bonus]
    if unknown:
        raise InputError("imperium/intrigue", f"{unknown[0]!r} is not a combat intrigue (allowed: {', '.join(bonus)})")
    added = [bonus[p] if p else 0 for p in plays]
    strengths = [strength(t, s + a) for t, s, a in zip(troops, swords, added, strict=True)]
    rewards = placements(strengths)
    texts: list[str | None] = [None] * count
    if conflict is not None:
        card = load_rules().conflicts[conflict]
        texts = [None if r is None else describe_effects(card.rewards[r - 1]) for r in rewards]
    return pd.DataFrame(
        {
            "player": range(1, count + 1),
            "troops": list(troops),
            "swords": list(swords),
            "intrigue": [p or "" for p in plays],
            "intrigue_swords": added,
            "strength": strengths,
            "reward": pd.array(rewards, dtype=object),
            "tie": [s > 0 and strengths.count(s) > 1 for s in strengths],
            "reward_text": texts,
        }
    )


def reveal_persuasion(card: str) -> int:
    """Plain persuasion on a card's reveal box (choices and conditions left out)."""
    return sum(e[1] for e in load_rules().cards[card].reveal if e[0] == "persuasion")


def persuasion_distribution(deck: Pile, discard: Pile = ()) -> pd.DataFrame:
    """The exact distribution of the persuasion the next hand shows if all of it is revealed."""
    odds = hand_odds(deck, discard)
    totals: dict[int, Fraction] = {}
    for hand, probability in odds:
        value = sum(reveal_persuasion(card) for card in hand)
        totals[value] = totals.get(value, Fraction(0)) + probability
    return pd.DataFrame(
        [{"persuasion": k, "probability": float(p), "exact": str(p)} for k, p in sorted(totals.items())]
    )


def vp_race(
    n_games: int, players: int = 4, bots: Sequence[str] = ("heuristic",), seed: int = 0, progress: bool = False
) -> pd.DataFrame:
    """VP at the end of every round of seeded bot games: one row per (game, round 1-10, seat) with the leader;
    a game that ended early at 10 VP keeps its final VP in the later rounds (so every round averages all games)."""
    from dunenb.imperium.bots import make_bot
    from dunenb.imperium.engine import last_round
    from dunenb.imperium.simulate import check_bots, play_game, vp_by_round
    from dunenb.iron_die.simulate import game_seeds

    seat_bots = check_bots(bots, players)
    iterator: Any = list(enumerate(game_seeds(n_games, seed)))
    if progress:
        from tqdm.auto import tqdm

        iterator = tqdm(iterator, desc="Imperium games", unit="game")
    rows = []
    for game, game_seed in iterator:
        names = [f"{bot}{seat + 1}" for seat, bot in enumerate(seat_bots)]
        final = play_game(names, game_seed, [make_bot(b, game_seed + s) for s, b in enumerate(seat_bots)])
        by_round = vp_by_round(final)
        by_round += [by_round[-1]] * (last_round() - len(by_round))
        for round_number, vps in enumerate(by_round, start=1):
            for seat, vp in enumerate(vps):
                rows.append(
                    {
                        "game": game + 1,
                        "round": round_number,
                        "seat": seat + 1,
                        "leader": final.leaders[seat],
                        "vp": vp,
                        "winner": seat in final.winners,
                    }
                )
    return pd.DataFrame(rows, columns=["game", "round", "seat", "leader", "vp", "winner"])
