"""Momentum, Threat and Determination pools (seed lines 202-246 and design choices from the core book)."""

from __future__ import annotations

import pytest

from dunenb.adventures.pools import Pools, extra_dice_cost, other_side
from dunenb.errors import IllegalActionError, InputError


def test_seed_lines_220_240_start_of_adventure():
    pools = Pools.start(["Kara", "Natalia"])
    assert (pools.momentum, pools.threat) == (0, 2)
    assert pools.determination_of("Kara") == pools.determination_of("Natalia") == 1
    assert pools.determination_of("Nobody") == 0


def test_seed_line_206_group_momentum_holds_at_most_6():
    assert Pools().bank("players", 4).bank("players", 4).momentum == 6
    with pytest.raises(InputError, match="momentum must be an integer from 0 to 6"):
        Pools(momentum=7)


def test_seed_line_208_momentum_loses_1_at_end_of_scene():
    assert Pools(momentum=3).end_scene().momentum == 2
    assert Pools(momentum=0).end_scene().momentum == 0


def test_design_npc_momentum_is_saved_as_threat():
    pools = Pools(momentum=1, threat=2).bank("gm", 3)
    assert (pools.momentum, pools.threat) == (1, 5)


def test_design_extra_dice_cost_1_2_3_cumulative():
    assert [extra_dice_cost(n) for n in range(4)] == [0, 1, 3, 6]
    with pytest.raises(InputError, match="extra_dice must be an integer from 0 to 3"):
        extra_dice_cost(4)


def test_design_buy_dice_with_momentum_or_threat_and_gm_with_threat():
    pools = Pools(momentum=6, threat=2)
    assert pools.buy_dice("players", 3, "momentum").momentum == 0
    assert pools.buy_dice("players", 2, "threat").threat == 5  # players add Threat instead
    assert pools.buy_dice("gm", 1, "threat").threat == 1  # the GM spends Threat for NPCs
    with pytest.raises(IllegalActionError, match="needs 3 Momentum"):
        Pools(momentum=2).buy_dice("players", 2, "momentum")
    with pytest.raises(IllegalActionError, match="needs 6 Threat"):
        Pools(threat=5).buy_dice("gm", 3, "threat")
    with pytest.raises(InputError, match="pay_with must be 'threat' for side gm"):
        pools.buy_dice("gm", 1, "momentum")


def test_seed_line_230_player_cancels_complication_by_adding_2_threat():
    assert Pools(threat=2).cancel_complication("players").threat == 4


def test_design_gm_cancels_npc_complication_by_spending_2_threat():
    assert Pools(threat=3).cancel_complication("gm").threat == 1
    with pytest.raises(IllegalActionError):
        Pools(threat=1).cancel_complication("gm")


def test_design_determination_max_3_and_seed_line_224_gain():
    pools = Pools.start(["Kara"]).gain_determination("Kara")
    assert pools.determination_of("Kara") == 2
    assert pools.gain_determination("Kara", 5).determination_of("Kara") == 3


def test_design_determination_spend_needs_points_and_a_supporting_drive():
    pools = Pools.start(["Kara"])
    spent = pools.spend_determination("Kara", "reroll_pool")
    assert spent.determination_of("Kara") == 0 and pools.determination_of("Kara") == 1
    with pytest.raises(IllegalActionError, match="no Determination"):
        spent.spend_determination("Kara", "reroll_pool")
    with pytest.raises(IllegalActionError, match="drive statement"):
        pools.spend_determination("Kara", "automatic_one", drive_statement_applies=False)
    with pytest.raises(InputError, match="use must be one of automatic_one, reroll_pool"):
        pools.spend_determination("Kara", "fly")


def test_pools_are_immutable_values():
    pools = Pools.start(["Kara"])
    pools.bank("players", 3)
    assert pools.momentum == 0
    with pytest.raises(AttributeError):
        pools.momentum = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        pools.determination["Kara"] = 3  # type: ignore[index]


def test_sides():
    assert other_side("players") == "gm" and other_side("gm") == "players"
    with pytest.raises(InputError, match="side must be one of players, gm"):
        Pools().bank("npc", 1)  # type: ignore[arg-type]
