"""The shared pools: group Momentum (max 6, loses 1 at the end of each scene), the GM's Threat (starts
at 2) and each player character's Determination (starts at 1). Pools are immutable; every method returns
a new :class:`Pools`.

>>> pools = Pools.start(["Natalia", "Kara"])
>>> pools.momentum, pools.threat, pools.determination_of("Kara")
(0, 2, 1)
>>> pools = pools.bank("players", 9)          # the pool holds at most 6 (seed line 206)
>>> pools.momentum
6
>>> pools.buy_dice("players", 2, "momentum").momentum   # 1 + 2 (design: extra_dice_costs)
3
>>> pools.end_scene().momentum                # seed line 208
5
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Literal

from dunenb.adventures.rules import rule
from dunenb.adventures.validation import check_bool, check_choice, check_int
from dunenb.errors import IllegalActionError, InputError

Side = Literal["players", "gm"]
PayWith = Literal["momentum", "threat"]
SIDES: tuple[str, ...] = ("players", "gm")
PAYMENTS: tuple[str, ...] = ("momentum", "threat")


def extra_dice_cost(count: int) -> int:
    """Total cost of buying ``count`` extra dice (1, 2, 3 cumulative: 0, 1, 3, 6).

    >>> [extra_dice_cost(n) for n in range(4)]
    [0, 1, 3, 6]
    """
    check_int("extra_dice", count, 0, rule("max_extra_dice"))
    return sum(rule("extra_dice_costs")[:count])


def other_side(side: Side) -> Side:
    """The opposing side.

    >>> other_side("players")
    'gm'
    """
    check_choice("side", side, SIDES)
    return "gm" if side == "players" else "players"


@dataclass(frozen=True)
class Pools:
    """Momentum, Threat and Determination (per player character name)."""

    momentum: int = 0
    threat: int = field(default_factory=lambda: rule("threat_start"))
    determination: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        check_int("momentum", self.momentum, 0, rule("momentum_pool_max"))
        check_int("threat", self.threat, 0, rule("threat_max"))
        table = dict(self.determination)
        for name, points in table.items():
            check_int(f"determination of {name}", points, 0, rule("determination_max"))
        object.__setattr__(self, "determination", MappingProxyType(table))

    @classmethod
    def start(cls, player_characters: Iterable[str] = ()) -> Pools:
        """Pools at the start of an adventure: no Momentum, 2 Threat (seed line 240), 1 Determination per
        player character (seed line 220)."""
        return cls(0, rule("threat_start"), {name: rule("determination_start") for name in player_characters})

    # -- Momentum and Threat ------------------------------------------------------------------------------
    def bank(self, side: Side, amount: int) -> Pools:
        """Save unspent Momentum: players' goes to the group pool (capped at 6, the rest is lost);
        NPCs' is saved as Threat (design: ``npc_momentum_to_threat``)."""
        check_choice("side", side, SIDES)
        check_int("amount", amount, 0)
        if side == "gm":
            return self.add_threat(amount) if rule("npc_momentum_to_threat") else self
        return replace(self, momentum=min(rule("momentum_pool_max"), self.momentum + amount))

    def spend_momentum(self, amount: int) -> Pools:
        """Spend group Momentum; not enough raises :class:`IllegalActionError`."""
        check_int("amount", amount, 0)
        if amount > self.momentum:
            raise IllegalActionError(
                "pools/momentum", f"needs {amount} Momentum, the pool holds {self.momentum}"
            )
        return replace(self, momentum=self.momentum - amount)

    def add_threat(self, amount: int) -> Pools:
        """Add Threat to the GM's pool."""
        check_int("amount", amount, 0)
        return replace(self, threat=self.threat + amount)

    def spend_threat(self, amount: int) -> Pools:
        """The GM spends Threat; not enough raises :class:`IllegalActionError`."""
        check_int("amount", amount, 0)
        if amount > self.threat:
            raise IllegalActionError("pools/threat", f"needs {amount} Threat, the pool holds {self.threat}")
        return replace(self, threat=self.threat - amount)

    def pay(self, side: Side, amount: int, pay_with: PayWith = "momentum") -> Pools:
        """Pay a cost: players spend Momentum or add the same Threat; the GM (NPCs) spends Threat.

        >>> Pools(momentum=1).pay("players", 2, "threat").threat
        4
        """
        check_choice("side", side, SIDES)
        check_choice("pay_with", pay_with, PAYMENTS)
        if side == "gm":
            if pay_with != "threat":
                raise InputError(
                    "2d20/pay-with", "the GM pays with threat; pay_with must be 'threat' for side gm"
                )
            return self.spend_threat(amount)
        return self.spend_momentum(amount) if pay_with == "momentum" else self.add_threat(amount)

    def buy_dice(self, side: Side, count: int, pay_with: PayWith = "momentum") -> Pools:
        """Buy ``count`` extra dice before a test (costs 1, 2, 3 cumulative; seed line 204, design costs)."""
        return self.pay(side, extra_dice_cost(count), pay_with)

    def cancel_complication(self, side: Side) -> Pools:
        """Buy off one complication: a player adds 2 Threat (seed line 230); the GM spends 2 Threat for an
        NPC (design: ``npc_complication_cancel_threat``).

        >>> Pools().cancel_complication("players").threat
        4
        """
        check_choice("side", side, SIDES)
        if side == "players":
            return self.add_threat(rule("complication_cancel_threat"))
        return self.spend_threat(rule("npc_complication_cancel_threat"))

    def end_scene(self) -> Pools:
        """The group pool loses 1 Momentum at the end of a scene (seed line 208)."""
        return replace(self, momentum=max(0, self.momentum - rule("momentum_scene_end_loss")))

    # -- Determination --------------------------------------------------------------------------------------
    def determination_of(self, name: str) -> int:
        """Determination held by one player character (0 if unknown)."""
        return int(self.determination.get(name, 0))

    def gain_determination(self, name: str, amount: int | None = None) -> Pools:
        """Gain Determination, e.g. when a drive is challenged (seed line 224); capped at 3 (design).

        >>> Pools(determination={"Kara": 3}).gain_determination("Kara").determination_of("Kara")
        3
        """
        gain = (
            rule("determination_from_challenged_drive") if amount is None else check_int("amount", amount, 0)
        )
        table = dict(self.determination)
        table[name] = min(rule("determination_max"), table.get(name, 0) + gain)
        return replace(self, determination=table)

    def spend_determination(self, name: str, use: str, drive_statement_applies: bool = True) -> Pools:
        """Spend 1 Determination for one of the uses in ``determination_uses`` (design); allowed only when
        the drive statement supports the action.

        >>> Pools.start(["Kara"]).spend_determination("Kara", "automatic_one").determination_of("Kara")
        0
        """
        check_choice("use", use, rule("determination_uses"))
        if not check_bool("drive_statement_applies", drive_statement_applies):
            raise IllegalActionError(
                "pools/determination-drive",
                "Determination can only be spent when the drive statement supports the action",
            )
        held = self.determination_of(name)
        if held < 1:
            raise IllegalActionError("pools/determination", f"{name} has no Determination to spend")
        table = dict(self.determination)
        table[name] = held - 1
        return replace(self, determination=table)
