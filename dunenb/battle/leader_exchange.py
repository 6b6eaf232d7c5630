"""leaders.md K-18 ``leader_exchange`` (FREMEN-L05-c Siona facing Léto II, automatic, D-29) in the battle library.

At LC-5 B8, skipped after a treachery, a leader on a wheel whose K-18 entry offers ``leader_exchange`` and whose
partner condition holds against the opposing leader (``opp Léto II``; D-16: only when Léto II F11 fights for
another House, captured or transferred) voids the battle: nothing is lost, nobody dies, no bounty, and the
proposer's House is at peace there; each House then gives the other one of its own living, uncaptured secondary
leaders (a game decision, :mod:`dunenb.rules.leader_deals`).

One predicate (:func:`exchange_of`) and one text (:func:`exchange_text`) serve the game (whose
``leader-exchange`` event it writes) and the battle resolver (:func:`dunenb.battle.resolve.settle`: the outcome's
``void``), so a ``dunenb battle`` case and a game agree.

>>> from dunenb.battle.leader_powers import Scene
>>> from dunenb.battle.roster import load_roster
>>> roster = load_roster()
>>> siona, leto = roster.find("siona", house="fremen"), roster.find("leto-ii", house="fremen")
>>> exchange_of(Scene.of("mesa-molle", ("fremen", "harkonnen"), (siona, leto), defender=0))
(0, 'FREMEN-L05-c')
>>> exchange_of(Scene.of("mesa-molle", ("fremen", "harkonnen"), (siona, None), defender=0)) is None
True
"""

from __future__ import annotations

from functools import lru_cache

from dunenb.battle.leader_powers import Scene, acting, holds
from dunenb.battle.roster import Leader, Power
from dunenb.powers.leader_effects import Condition, Effect, parse_condition

KIND = "ALLIANCE_INSTEAD_OF_BATTLE"
EXCHANGE = "leader_exchange"


def entry_args(power: Power) -> tuple[str, ...]:
    """The parameters of a K-18 entry (its :class:`Effect` ``args``: partner condition, offer)."""
    return power.effect.args if isinstance(power.effect, Effect) else ()


def offer_word(power: Power) -> str:
    """The offer of a K-18 entry (``spice``, ``revive``, ``traitor``, ``prescience``, ``leader_exchange``)."""
    found = entry_args(power)
    return found[1].split("(")[0].strip() if len(found) > 1 else ""


@lru_cache(maxsize=64)
def partner(text: str) -> Condition:
    """The partner condition of a K-18 entry, parsed once."""
    return parse_condition(text)


@lru_cache(maxsize=4096)
def exchange_of(scene: Scene) -> tuple[int, str] | None:
    """(side, power ID) of the automatic K-18 ``leader_exchange`` entry that acts in ``scene`` (FREMEN-L05-c), or
    ``None``: the entries :func:`~dunenb.battle.leader_powers.acting` gives (LC-9 own House, LC-11 no Karama)
    whose partner condition holds against the opposing leader (D-30)."""
    for me in (0, 1):
        for power in acting(scene, me, KIND):
            if offer_word(power) == EXCHANGE and holds(partner(entry_args(power)[0]), scene, me):
                return me, power.id
    return None


def exchange_text(house: str, power: str) -> str:
    """The words of the exchange, as the game's ``leader-exchange`` event and ``dunenb battle`` print them."""
    return (f"{house}'s leader meets Léto II: the battle is void and each House gives the other one of its own "
            f"secondary leaders for good ({power}, leaders.md D-29)")


@lru_cache(maxsize=4096)
def may_exchange(leader: Leader | None) -> bool:
    """Whether ``leader`` has a K-18 ``leader_exchange`` entry at all (a cheap test before :func:`exchange_of`)."""
    return leader is not None and any(power.kind == KIND and offer_word(power) == EXCHANGE for power in leader.powers)
