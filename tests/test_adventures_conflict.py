"""Conflicts: turn order, keeping the initiative, zones and assets, extended tasks, surviving defeat
(seed lines 270-352). Every test uses fixed dice, so nothing depends on chance."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from dunenb.adventures.actions import (
    Approach,
    Help,
    attack,
    move_asset,
    recover_asset,
    target_asset,
    use_asset,
)
from dunenb.adventures.assets import Asset, Zones
from dunenb.adventures.characters import Character
from dunenb.adventures.conflict import (
    Combatant,
    Conflict,
    cancel_complication,
    create_asset,
    create_trait,
    end_scene,
    keep_initiative,
    make_permanent,
    survive_defeat,
)
from dunenb.adventures.extended import ExtendedTask, points_per_success
from dunenb.adventures.pools import Pools
from dunenb.adventures.rules import DRIVES, SKILLS
from dunenb.errors import IllegalActionError, InputError

MISS = (15, 15)  # no success for anyone here (target numbers 10-13)
TWO = (3, 4)  # two successes for Kara (target 12)


def character(name: str, skill: int, drive: int, **skills: int) -> Character:
    return Character.create(name, {**dict.fromkeys(SKILLS, skill), **skills}, dict.fromkeys(DRIVES, drive))


@pytest.fixture
def state() -> Conflict:
    kara = character("Kara", 6, 6)  # target 12
    paul = character("Paul", 5, 5)  # target 10
    baron = character("Baron", 5, 6, battle=7)  # battle + duty = 13
    guard = character("Guard", 5, 5)
    return Conflict.start(
        Zones.chain("gate", "courtyard", "hall"),
        [
            Combatant(kara, "players", "hall", "player"),
            Combatant(paul, "players", "courtyard", "player"),
            Combatant(baron, "gm", "hall", "major", resist_skill="battle"),
            Combatant(guard, "gm", "hall", "minor"),
        ],
        [
            Asset("Knife", "Kara", "hall", quality=1),
            Asset("Agent", "Kara", "courtyard", tangible=False),
            Asset("Pistol", "Paul", "courtyard"),
            Asset("Sword", "Baron", "hall", quality=2, wielded=True),
            Asset("Shield", "Baron", "hall", defensive=True),
            Asset("Spy", "Baron", "courtyard", tangible=False),
            Asset("Pike", "Guard", "hall"),
        ],
        Pools(momentum=4, threat=2, determination={"Kara": 1, "Paul": 1}),
    )


def idle(state: Conflict, name: str, dice=MISS) -> Conflict:
    """A difficulty-0 use of the character's first asset: always passes, generates no Momentum with MISS."""
    own = next(a.name for a in state.assets if a.owner == name)
    return use_asset(state, name, own, 0, Approach("battle", "duty", dice=dice))


# -- turn order (seed lines 276-280) ---------------------------------------------------------------
def test_seed_line_276_sides_alternate_and_seed_line_280_round_ends(state):
    assert state.turn == "players"
    state = idle(state, "Kara")
    assert state.turn == "gm"
    state = idle(state, "Baron")
    state = idle(state, "Paul")
    assert state.turn == "gm"
    state = idle(state, "Guard")
    assert state.acted == {"Kara", "Paul", "Baron", "Guard"} and state.round == 1
    state = idle(state, "Paul")  # a new round begins
    assert state.round == 2 and state.acted == {"Paul"}


def test_seed_line_276_one_action_per_character_per_round_and_turns_enforced(state):
    with pytest.raises(IllegalActionError, match="gm side's turn|players side's turn"):
        idle(state, "Baron")
    state = idle(state, "Kara")
    state = idle(state, "Baron")
    with pytest.raises(IllegalActionError, match="already acted"):
        idle(state, "Kara")


def test_seed_line_276_when_one_side_is_done_the_other_keeps_acting(state):
    state = attack(
        state,
        "Kara",
        "Knife",
        "Guard",
        Approach("battle", "duty", dice=TWO),
        defence=Approach("battle", "duty", dice=MISS),
    )
    state = idle(idle(state, "Baron"), "Paul")
    state = idle(idle(state, "Baron"), "Kara")  # round 2: the Guard is defeated, the Baron has acted
    assert state.round == 2 and state.turn == "players" and state.ready("players") == ("Paul",)


# -- keeping the initiative (seed line 278) --------------------------------------------------------
def test_seed_line_278_keep_initiative_costs_2_momentum_and_adds_1_difficulty(state):
    state = idle(state, "Kara")
    state = keep_initiative(state, "Kara")
    assert state.pools.momentum == 2 and state.turn == "players"
    state = use_asset(state, "Kara", "Knife", 1, Approach("battle", "duty", dice=(3, 15)))
    assert state.history[-1].test.difficulty == 2 and not state.history[-1].succeeded


def test_seed_line_278_keep_initiative_paid_by_adding_2_threat(state):
    state = keep_initiative(idle(state, "Kara"), "Kara", pay_with="threat")
    assert (state.pools.momentum, state.pools.threat) == (4, 4)


def test_seed_line_278_npcs_keep_initiative_by_spending_2_threat(state):
    state = idle(idle(state, "Kara"), "Baron")
    state = keep_initiative(state, "Baron", next_actor="Guard")
    assert state.pools.threat == 0 and state.turn == "gm"
    state = idle(state, "Guard")
    assert state.history[-1].test.difficulty == 0  # an ally takes the turn without the +1
    with pytest.raises(IllegalActionError, match="needs 2 Threat"):
        keep_initiative(idle(idle(state, "Paul"), "Baron"), "Baron")


def test_seed_line_278_only_after_a_success_and_not_twice_before_an_enemy_acts(state):
    failed = use_asset(state, "Kara", "Knife", 3, Approach("battle", "duty", dice=MISS))
    with pytest.raises(IllegalActionError, match="successful action"):
        keep_initiative(failed, "Kara")
    state = keep_initiative(idle(state, "Kara"), "Kara", next_actor="Paul")
    state = idle(state, "Paul")
    with pytest.raises(IllegalActionError, match="an enemy must act"):
        keep_initiative(state, "Paul")
    state = idle(state, "Baron")  # an enemy acted: the players may keep it again
    state = idle(state, "Guard")
    state = idle(state, "Kara")
    assert keep_initiative(state, "Kara").next_actor == "Kara"


def test_seed_line_278_kept_initiative_binds_the_next_actor(state):
    kept = keep_initiative(idle(state, "Kara"), "Kara", next_actor="Paul")
    with pytest.raises(IllegalActionError, match="kept for Paul"):
        idle(kept, "Kara")
    with pytest.raises(IllegalActionError, match="not an active ally"):
        keep_initiative(idle(state, "Kara"), "Kara", next_actor="Baron")


# -- moving assets (seed lines 316-321) ------------------------------------------------------------
def test_seed_line_318_move_is_a_difficulty_2_test_to_an_adjacent_zone(state):
    moved = move_asset(state, "Kara", "Knife", "courtyard", "bold", Approach("move", "duty", dice=TWO))
    assert moved.asset("Knife").zone == "courtyard" and moved.history[-1].test.difficulty == 2
    with pytest.raises(IllegalActionError, match="not adjacent"):
        move_asset(state, "Kara", "Knife", "gate", "bold", Approach("move", "duty", dice=TWO))
    with pytest.raises(IllegalActionError, match="belongs to Baron"):
        move_asset(state, "Kara", "Sword", "courtyard", "bold", Approach("move", "duty", dice=TWO))


def test_seed_line_340_defensive_assets_do_not_move(state):
    state = idle(state, "Kara")
    with pytest.raises(IllegalActionError, match="cannot move"):
        move_asset(state, "Baron", "Shield", "courtyard", "bold", Approach("move", "duty", dice=TWO))


def test_seed_line_318_extra_zone_costs_2_momentum_fresh_first(state):
    rich = move_asset(
        state, "Kara", "Knife", "courtyard", "bold", Approach("move", "duty", dice=(1, 1)), extra_zone="gate"
    )
    assert rich.asset("Knife").zone == "gate" and rich.pools.momentum == 4 and rich.fresh == 0
    poor = move_asset(
        state, "Kara", "Knife", "courtyard", "bold", Approach("move", "duty", dice=TWO), extra_zone="gate"
    )
    assert poor.asset("Knife").zone == "gate" and poor.pools.momentum == 2


def test_seed_line_320_subtle_move_success_keeps_initiative_for_free(state):
    state = move_asset(state, "Kara", "Knife", "courtyard", "subtle", Approach("move", "duty", dice=TWO))
    state = keep_initiative(state, "Kara")
    assert (state.pools.momentum, state.pools.threat) == (4, 2) and state.next_actor == "Kara"


def test_seed_line_321_bold_move_success_moves_an_enemy_asset(state):
    state = move_asset(
        state, "Kara", "Agent", "gate", "bold", Approach("move", "duty", dice=TWO), reaction=("Spy", "hall")
    )
    assert state.asset("Agent").zone == "gate" and state.asset("Spy").zone == "hall"
    assert not state.history[-1].free_keep


def test_seed_line_321_failed_move_enemy_reacts_no_extra_zone_no_initiative(state):
    state = move_asset(
        state,
        "Kara",
        "Knife",
        "courtyard",
        "subtle",
        Approach("move", "duty", dice=(3, 15)),
        extra_zone="gate",
        reaction=("Spy", "gate"),
    )
    assert state.asset("Knife").zone == "hall" and state.asset("Spy").zone == "gate"
    assert state.pools.momentum == 4
    with pytest.raises(IllegalActionError, match="successful action"):
        keep_initiative(state, "Kara")


# -- attacks, defensive assets, extended tasks (seed lines 284-289, 336-340) -----------------------
def test_seed_line_289a_minor_character_defeated_by_one_success_and_seed_line_340_defence(state):
    state = attack(
        state,
        "Kara",
        "Knife",
        "Guard",
        Approach("battle", "duty", dice=(3, 15)),
        defence=Approach("battle", "duty", dice=MISS),
    )
    report = state.history[-1]
    assert report.test.difficulty == 1  # 0 defence successes + 1 defensive asset (the Shield) in the hall
    assert state.combatant("Guard").defeated and state.just_defeated is None
    with pytest.raises(IllegalActionError, match="defeated"):
        idle(state, "Guard")


def test_design_contest_defender_successes_set_the_difficulty_and_failure_gives_momentum(state):
    state = attack(
        state,
        "Kara",
        "Knife",
        "Baron",
        Approach("battle", "duty", dice=(3, 15)),
        defence=Approach("battle", "duty", dice=(1, 2)),
    )
    report = state.history[-1]
    assert report.defence.successes == 3 and report.test.difficulty == 4 and not report.succeeded
    assert state.fresh == 3 and state.fresh_side == "gm"
    state = idle(state, "Baron")
    assert state.pools.threat == 5  # the Baron's unspent Momentum was saved as Threat


def test_seed_line_289b_extended_task_2_plus_quality_until_requirement(state):
    assert state.task("Baron") == ExtendedTask(requirement=7)
    assert points_per_success(1) == 3

    def strike(s: Conflict) -> Conflict:
        return attack(
            s,
            "Kara",
            "Knife",
            "Baron",
            Approach("battle", "duty", dice=TWO),
            defence=Approach("battle", "duty", dice=MISS),
        )

    state = strike(state)
    assert state.task("Baron").progress == 3 and not state.combatant("Baron").defeated
    state = idle(idle(idle(state, "Baron"), "Paul"), "Guard")
    state = strike(state)
    assert state.task("Baron").progress == 6
    state = idle(idle(idle(state, "Baron"), "Paul"), "Guard")
    state = strike(state)
    assert state.combatant("Baron").defeated and state.just_defeated == "Baron"


def test_seed_line_325_attack_needs_the_asset_in_the_targets_zone(state):
    with pytest.raises(IllegalActionError, match="Agent is in courtyard"):
        attack(
            state,
            "Kara",
            "Agent",
            "Baron",
            Approach("battle", "duty", dice=TWO),
            defence=Approach("battle", "duty", dice=MISS),
        )
    with pytest.raises(InputError, match="defence"):
        attack(state, "Kara", "Knife", "Baron", Approach("battle", "duty", dice=TWO))
    with pytest.raises(IllegalActionError, match="not an active enemy"):
        attack(state, "Kara", "Knife", "Paul", Approach("battle", "duty", dice=TWO))


# -- surviving defeat (seed lines 291-295) ---------------------------------------------------------
def defeat_baron(state: Conflict) -> Conflict:
    state = replace(state, tasks={"Baron": ExtendedTask(7, 6)})
    return attack(
        state,
        "Kara",
        "Knife",
        "Baron",
        Approach("battle", "duty", dice=TWO),
        defence=Approach("battle", "duty", dice=MISS),
    )


def test_seed_line_295_npc_survives_defeat_for_1_threat_and_a_complication(state):
    state = defeat_baron(state)
    survived = survive_defeat(state, "Baron")
    baron = survived.combatant("Baron")
    assert not baron.defeated and baron.survived_defeat and baron.complications == ("Survived defeat",)
    assert survived.pools.threat == 1


def test_seed_line_293_survive_defeat_once_per_scene(state):
    state = survive_defeat(defeat_baron(state), "Baron")
    state = idle(idle(idle(state, "Baron"), "Paul"), "Guard")
    state = attack(
        state,
        "Kara",
        "Knife",
        "Baron",
        Approach("battle", "duty", dice=(1, 1)),
        defence=Approach("battle", "duty", dice=MISS),
    )
    assert state.combatant("Baron").defeated
    with pytest.raises(IllegalActionError, match="already survived"):
        survive_defeat(state, "Baron")
    assert not end_scene(state).combatant("Baron").survived_defeat


def test_seed_line_295_minor_characters_cannot_survive_and_players_pay_momentum_or_threat(state):
    state = attack(
        state,
        "Kara",
        "Knife",
        "Guard",
        Approach("battle", "duty", dice=TWO),
        defence=Approach("battle", "duty", dice=MISS),
    )
    with pytest.raises(IllegalActionError, match="not just been defeated"):
        survive_defeat(state, "Guard")
    minor = replace(state, just_defeated="Guard")
    with pytest.raises(IllegalActionError, match="minor character cannot"):
        survive_defeat(minor, "Guard")
    downed = replace(state, just_defeated="Paul")
    assert survive_defeat(downed, "Paul", pay_with="threat").pools.threat == 3
    paid = survive_defeat(downed, "Paul")  # the attack's 1 fresh Momentum is spent first
    assert (paid.pools.momentum, paid.fresh) == (4, 0)


def test_survive_defeat_only_right_after_the_defeat(state):
    state = defeat_baron(state)
    state = idle(state, "Guard")
    with pytest.raises(IllegalActionError, match="not just been defeated"):
        survive_defeat(state, "Baron")


# -- targeting assets (seed line 344) --------------------------------------------------------------
def test_seed_line_344_intangible_asset_destroyed(state):
    state = target_asset(state, "Kara", "Agent", "Spy", Approach("discipline", "truth", dice=TWO))
    assert state.history[-1].test.difficulty == 2
    assert "Spy" not in {a.name for a in state.assets}


def test_seed_line_344_tangible_asset_set_aside_then_recovered(state):
    # difficulty 2 + 1 for the Shield itself, a defensive asset in the target's zone (seed line 340)
    state = target_asset(state, "Kara", "Knife", "Shield", Approach("battle", "duty", dice=(1, 3)))
    assert state.history[-1].test.difficulty == 3
    assert state.asset("Shield").set_aside and state.defensive_bonus("Baron") == 0
    with pytest.raises(IllegalActionError, match="set aside"):
        move_asset(state, "Baron", "Shield", "courtyard", "bold", Approach("move", "duty", dice=TWO))
    recovered = recover_asset(state, "Baron", "Shield")
    assert not recovered.asset("Shield").set_aside and recovered.turn == "players"
    assert not end_scene(state).asset("Shield").set_aside  # or automatically at the end of the scene


def test_seed_line_344_wielded_asset_is_a_contest(state):
    with pytest.raises(InputError, match="contest"):
        target_asset(state, "Kara", "Knife", "Sword", Approach("battle", "duty", dice=TWO))
    state = target_asset(
        state,
        "Kara",
        "Knife",
        "Sword",
        Approach("battle", "duty", dice=(1, 1)),
        defence=Approach("battle", "duty", dice=(10, 15)),
    )
    # seed line 344: difficulty 2, opposed: + the wielder's 1 success, + the Shield in the hall (seed line 340)
    assert state.history[-1].test.difficulty == 2 + 1 + 1 and state.asset("Sword").set_aside


def test_seed_line_344_failed_targeting_leaves_the_asset(state):
    state = target_asset(state, "Kara", "Knife", "Shield", Approach("battle", "duty", dice=(3, 15)))
    assert not state.asset("Shield").set_aside and not state.history[-1].succeeded


# -- creating traits and assets (seed line 348), end of scene --------------------------------------
def test_seed_line_348_create_trait_or_asset_costs_2_momentum_permanent_4(state):
    state = create_trait(state, "players", "High ground")
    assert state.pools.momentum == 2 and state.traits == (("High ground", False),)
    state = create_asset(state, "Kara", "Thumper", "gate", quality=1)
    assert state.pools.momentum == 0 and state.asset("Thumper").temporary
    with pytest.raises(IllegalActionError, match="needs 2 Momentum"):
        create_trait(state, "players", "Sandstorm")
    with pytest.raises(IllegalActionError, match="needs 4 Threat"):
        create_trait(state, "gm", "Sandstorm", permanent=True)


def test_seed_line_348_temporary_creations_vanish_at_end_of_scene_unless_made_permanent(state):
    state = create_trait(state, "players", "High ground")
    state = create_asset(state, "Kara", "Thumper", "gate")
    state = replace(state, pools=Pools(6, 6, {"Kara": 1, "Paul": 1}))
    kept = make_permanent(state, "players", "Thumper")
    assert kept.pools.momentum == 4 and not kept.asset("Thumper").temporary
    kept = make_permanent(kept, "players", "High ground")
    after = end_scene(kept)
    assert after.traits == (("High ground", True),) and after.asset("Thumper")
    gone = end_scene(state)
    assert gone.traits == () and "Thumper" not in {a.name for a in gone.assets}
    assert gone.pools.momentum == 5  # seed line 208


def test_gm_creations_spend_threat(state):
    state = create_trait(replace(state, pools=Pools(0, 5)), "gm", "Sandstorm", permanent=True)
    assert state.pools.threat == 1


# -- complications in a conflict (seed line 230) ---------------------------------------------------
def test_seed_line_230_complication_adds_1_difficulty_until_removed(state):
    state = use_asset(state, "Kara", "Knife", 0, Approach("battle", "duty", dice=(20, 3)))
    assert state.combatant("Kara").complications == ("Complication",)
    state = idle(idle(idle(state, "Baron"), "Paul"), "Guard")
    state = use_asset(state, "Kara", "Knife", 1, Approach("battle", "duty", dice=(3, 15)))
    assert state.history[-1].test.difficulty == 2


def test_seed_line_230_player_buys_off_complication_for_2_threat(state):
    state = use_asset(state, "Kara", "Knife", 0, Approach("battle", "duty", dice=(20, 3)))
    cancelled = cancel_complication(state, "Kara")
    assert cancelled.combatant("Kara").complications == () and cancelled.pools.threat == 4
    with pytest.raises(IllegalActionError, match="no fresh complication"):
        cancel_complication(cancelled, "Kara")
    later = idle(state, "Baron")
    with pytest.raises(IllegalActionError, match="no fresh complication"):
        cancel_complication(later, "Kara")


def test_design_gm_buys_off_npc_complication_for_2_threat(state):
    state = idle(state, "Kara")
    state = use_asset(state, "Baron", "Sword", 0, Approach("battle", "duty", dice=(20, 19)))
    assert cancel_complication(state, "Baron").pools.threat == 0


def test_seed_line_332_use_asset_removes_an_allys_complication(state):
    state = use_asset(state, "Kara", "Knife", 0, Approach("battle", "duty", dice=(20, 3)))
    state = idle(state, "Baron")
    state = use_asset(
        state,
        "Paul",
        "Pistol",
        1,
        Approach("communicate", "faith", dice=TWO),
        purpose="tend Kara",
        remove_complication_of="Kara",
    )
    assert state.combatant("Kara").complications == ()


# -- assisting and Determination in a conflict -----------------------------------------------------
def test_seed_line_352_assisting_ally_adds_one_die_and_uses_their_turn(state):
    state = use_asset(
        state,
        "Kara",
        "Knife",
        2,
        Approach("battle", "duty", dice=(3, 15), help=Help("Paul", "battle", "duty", die=4)),
    )
    assert state.history[-1].succeeded and state.history[-1].test.successes == 2
    assert "Paul" in state.acted
    state = idle(state, "Baron")
    assert state.turn == "gm"  # Paul used his turn to help; the players have nobody left


def test_design_automatic_one_spends_determination(state):
    state = use_asset(state, "Kara", "Knife", 3, Approach("battle", "duty", dice=(5,), auto_one=True))
    assert state.pools.determination_of("Kara") == 0 and state.history[-1].succeeded
    state = idle(idle(idle(state, "Baron"), "Paul"), "Guard")
    with pytest.raises(IllegalActionError, match="no Determination"):
        use_asset(state, "Kara", "Knife", 3, Approach("battle", "duty", dice=(5,), auto_one=True))


def test_design_buying_dice_in_a_conflict(state):
    state = use_asset(
        state, "Kara", "Knife", 2, Approach("battle", "duty", extra_dice=2, dice=(3, 15, 15, 15))
    )
    assert state.pools.momentum == 1
    threat = use_asset(
        state, "Baron", "Sword", 0, Approach("battle", "duty", extra_dice=1, dice=(15, 15, 15))
    )
    assert threat.pools.threat == 1


def test_actions_roll_from_a_generator_reproducibly(state):
    def play(seed: int) -> Conflict:
        rng = np.random.default_rng(seed)
        return attack(
            state, "Kara", "Knife", "Baron", Approach("battle", "duty"), Approach("battle", "duty"), rng
        )

    assert play(9) == play(9)
    with pytest.raises(InputError, match="numpy Generator"):
        use_asset(state, "Kara", "Knife", 1, Approach("battle", "duty"))


def test_states_are_never_mutated(state):
    before = state
    snapshot = (state.pools, state.assets, state.combatants, state.history)
    attack(
        state,
        "Kara",
        "Knife",
        "Guard",
        Approach("battle", "duty", dice=TWO),
        defence=Approach("battle", "duty", dice=MISS),
    )
    assert (before.pools, before.assets, before.combatants, before.history) == snapshot


def test_tables_for_notebooks(state):
    state = idle(state, "Kara")
    columns = ["round", "turn", "momentum", "threat", "unsaved momentum (players)", "unsaved momentum (gm)"]
    assert list(state.pools_frame().columns) == [*columns, "determination Kara", "determination Paul"]
    assert state.combatants_frame().loc["Baron", "progress"] == "0/7"
    assert state.assets_frame().loc["Shield", "defensive"]


def test_last_action_frame(state):
    assert state.last_action_frame().empty
    state = attack(
        state,
        "Kara",
        "Knife",
        "Guard",
        Approach("battle", "duty", dice=TWO),
        defence=Approach("battle", "duty", dice=MISS),
    )
    row = state.last_action_frame().iloc[0]
    assert (row["dice"], row["successes"], row["difficulty"], row["succeeded"]) == ("3 4", 2, 1, True)
