"""Issue 17 items for the 2d20 conflicts: complications, defensive assets, attacking assets, keeping the
initiative, focuses and Determination, several helpers, presets, helping a defeated ally. Each test names
the seed line (seeds/002) it rests on; the scenes use fixed dice."""

from __future__ import annotations

import pytest

from dunenb.adventures.actions import Approach, Help, attack, recover_asset, target_asset, use_asset
from dunenb.adventures.assets import Asset, Zones
from dunenb.adventures.characters import Character
from dunenb.adventures.conflict import (
    Combatant,
    Conflict,
    cancel_complication,
    challenge_drive,
    complication_as_trait,
    determination_extra_action,
    determination_trait,
    end_scene,
    keep_initiative,
)
from dunenb.adventures.exact_odds import odds, opposed_odds
from dunenb.adventures.focuses import focus_skill, focus_table, focuses_of
from dunenb.adventures.pools import Pools
from dunenb.adventures.presets import PRESET_KINDS, conflict_preset
from dunenb.adventures.rules import DRIVES, SKILLS, rule
from dunenb.adventures.skill_test import SkillTest
from dunenb.errors import IllegalActionError, InputError

MISS = (15, 15)


def person(name: str, skill: int, drive: int, focuses: tuple[str, ...] = ()) -> Character:
    return Character.create(name, dict.fromkeys(SKILLS, skill), dict.fromkeys(DRIVES, drive), focuses=focuses)


@pytest.fixture
def scene() -> Conflict:
    return Conflict.start(
        Zones.chain("gate", "hall"),
        [
            Combatant(person("Kara", 6, 6, ("Short blades",)), "players", "hall", "player"),  # target 12
            Combatant(person("Paul", 5, 5), "players", "hall", "player"),
            Combatant(person("Gurney", 6, 5), "players", "hall", "player"),
            Combatant(person("Baron", 5, 6), "gm", "hall", "major"),
            Combatant(person("Guard", 5, 5), "gm", "hall", "minor"),
            Combatant(person("Mentat", 5, 5), "gm", "gate", "notable"),
        ],
        [
            Asset("Knife", "Kara", "hall", quality=1),
            Asset("Kara's shield", "Kara", "hall", defensive=True),
            Asset("Pistol", "Paul", "hall"),
            Asset("Blade", "Gurney", "hall"),
            Asset("Sword", "Baron", "hall", quality=2, wielded=True),
            Asset("Banner", "Baron", "hall"),
            Asset("Pike", "Guard", "hall"),
            Asset("Ledger", "Mentat", "gate"),
        ],
        Pools(momentum=4, threat=6, determination={"Kara": 2, "Paul": 1, "Gurney": 1}),
    )


def pass_turn(state: Conflict, name: str) -> Conflict:
    own = next(a.name for a in state.assets if a.owner == name)
    return use_asset(state, name, own, 0, Approach("battle", "duty", dice=MISS))


def until_turn_of(state: Conflict, name: str) -> Conflict:
    """Let the others take plain difficulty-0 turns (no dice effects) until ``name`` may act."""
    side = state.combatant(name).side
    for _ in range(20):
        if state.turn == side and state.can_act(name):
            return state
        everyone_done = not state.ready("players") and not state.ready("gm")
        candidates = [
            c.name
            for c in state.combatants
            if c.side == state.turn and c.name != name and not c.defeated and (everyone_done or state.can_act(c.name))
        ]
        state = pass_turn(state, candidates[0])
    raise AssertionError("no turn for " + name)


# -- 1. complications (seed line 230) --------------------------------------------------------------------
def test_seed_line_230_complication_raises_the_difficulty_of_one_action_only(scene):
    """Seed line 230: "peut accroître d'1 niveau de difficulté 1 action"."""
    state = use_asset(scene, "Kara", "Knife", 0, Approach("battle", "duty", dice=(20, 3)))
    assert state.combatant("Kara").complications == ("Complication",)
    state = until_turn_of(state, "Kara")
    state = use_asset(state, "Kara", "Knife", 1, Approach("battle", "duty", dice=(3, 15)))
    assert state.history[-1].test.difficulty == 2  # +1 for this one action
    assert state.combatant("Kara").complications == ()  # spent
    state = end_scene(state)
    state = use_asset(state, "Kara", "Knife", 1, Approach("battle", "duty", dice=(3, 15)))
    assert state.history[-1].test.difficulty == 1


def test_seed_line_230_complication_made_a_trait_lasts_until_the_end_of_the_scene(scene):
    """Seed line 230: "Cela génère un Trait qui augmente la difficulté des Tests de compétence"."""
    state = use_asset(scene, "Kara", "Knife", 0, Approach("battle", "duty", dice=(20, 3)))
    state = complication_as_trait(state, "Kara")
    with pytest.raises(IllegalActionError, match="no fresh complication"):
        cancel_complication(state, "Kara")
    fighter = state.combatant("Kara")
    assert fighter.complications == () and fighter.complication_traits == ("Complication",)
    for _ in range(2):
        state = until_turn_of(state, "Kara")
        state = use_asset(state, "Kara", "Knife", 1, Approach("battle", "duty", dice=(3, 15)))
        assert state.history[-1].test.difficulty == 2
    state = end_scene(state)
    assert state.combatant("Kara").complication_traits == ()


def test_seed_line_230_a_defence_roll_does_not_spend_a_complication(scene):
    state = pass_turn(scene, "Kara")
    state = use_asset(state, "Baron", "Banner", 0, Approach("battle", "duty", dice=(20, 3)))
    state = attack(state, "Paul", "Pistol", "Baron", Approach("battle", "duty", dice=MISS),
                   defence=Approach("battle", "duty", dice=MISS))
    assert state.combatant("Baron").complications == ("Complication",)


# -- 2. defensive assets (seed line 340) -----------------------------------------------------------------
def test_seed_line_340_every_defensive_asset_in_the_targets_zone_counts_whoever_owns_it(scene):
    """Seed line 340: "augmente de 1 pour chaque atout défensif dans la zone de la cible"."""
    state = pass_turn(scene, "Kara")
    state = attack(state, "Baron", "Sword", "Paul", Approach("battle", "duty", dice=MISS),
                   defence=Approach("battle", "duty", dice=MISS))
    assert state.history[-1].test.difficulty == 1  # Kara's shield protects the whole hall, Paul too
    assert scene.defensive_bonus("Guard") == 1  # also when the players' own asset stands by the enemy


def test_seed_line_340_defensive_assets_count_when_the_target_is_an_asset(scene):
    state = target_asset(scene, "Kara", "Knife", "Banner", Approach("battle", "duty", dice=(3, 15)))
    assert state.history[-1].test.difficulty == rule("target_asset_difficulty") + 1
    assert not state.history[-1].succeeded


# -- 3. attacking an asset (seed line 344) ---------------------------------------------------------------
def test_seed_line_344_wielded_asset_is_never_easier_to_hit_than_a_loose_one(scene):
    """Seed line 344: "un test de compétence de difficulté 2. Si un personnage manie cet atout ..., le test
    de compétence est un test en opposition" (2D20-GAP-3: 2 + the wielder's successes)."""
    attacker = SkillTest(6, 6)
    for d_skill, d_drive in ((4, 4), (6, 6), (8, 8)):
        loose = odds(6, 6).p_success(2)
        wielded = opposed_odds(attacker, SkillTest(d_skill, d_drive), base=2).p_success()
        assert wielded <= loose
    state = target_asset(scene, "Kara", "Knife", "Sword", Approach("battle", "duty", dice=(1, 1)),
                         defence=Approach("battle", "duty", dice=(3, 15)))
    assert state.history[-1].test.difficulty == 2 + 1 + 1  # base 2, one defence success, Kara's shield


# -- 4. keeping the initiative (seed line 278) -----------------------------------------------------------
def test_seed_line_278_initiative_never_kept_after_an_action_without_dice(scene):
    """Seed line 278: "Si un personnage joueur a réussi une attaque, il peut dépenser 2 points d'Impulsion"."""
    from dataclasses import replace

    from dunenb.adventures.conflict import with_asset

    state = with_asset(scene, replace(scene.asset("Knife"), set_aside=True))
    state = recover_asset(state, "Kara", "Knife")
    assert state.history[-1].succeeded and state.history[-1].test is None
    with pytest.raises(IllegalActionError, match="rolled no dice"):
        keep_initiative(state, "Kara")


def test_seed_lines_278_334_initiative_kept_after_a_successful_attack_or_tested_action(scene):
    state = attack(scene, "Kara", "Knife", "Guard", Approach("battle", "duty", dice=(3, 4)),
                   defence=Approach("battle", "duty", dice=MISS))
    assert keep_initiative(state, "Kara").next_actor == "Kara"
    used = use_asset(scene, "Kara", "Knife", 1, Approach("battle", "duty", dice=(3, 15)))
    assert keep_initiative(used, "Kara").next_bonus == 1  # 2D20-GAP-4: any successful tested action
    failed = use_asset(scene, "Kara", "Knife", 2, Approach("battle", "duty", dice=(3, 15)))
    with pytest.raises(IllegalActionError, match="successful"):
        keep_initiative(failed, "Kara")  # seed line 334


# -- 5. focuses and Determination ------------------------------------------------------------------------
def test_seed_lines_59_155_every_focus_belongs_to_its_skill():
    """Seed lines 59-155: the lists of specialisations per skill."""
    counts = {skill: len(focuses_of(skill)) for skill in SKILLS}
    assert counts == {"battle": 15, "communicate": 20, "discipline": 7, "move": 14, "understand": 27}
    assert focus_skill("Lames courtes") == focus_skill("Short blades") == "battle"
    assert focus_skill("Chevaucheur de Ver") == "move" and focus_skill("Kanly") == "understand"
    assert len({f for f in focus_table().values()}) == 83
    with pytest.raises(InputError, match="unknown focus"):
        person("X", 5, 5, ("Basket weaving",))


def test_seed_line_57_a_focus_helps_only_tests_of_its_skill():
    """Seed line 57: "Si une spécialisation s'applique à l'action entreprise"."""
    kara = person("Kara", 6, 6, ("Short blades", "Pilot (ornithopter)"))
    assert SkillTest.from_character(kara, "battle", "duty", "Short blades").focus
    assert not SkillTest.from_character(kara, "move", "duty", "Short blades").focus
    assert SkillTest.from_character(kara, "move", "duty", "Pilotage (ornithoptère)").focus is False
    assert SkillTest.from_character(kara, "move", "duty", "Pilot (Ornithopter)").focus
    assert kara.has_focus("lames courtes")


def test_seed_line_224_a_challenged_drive_gives_1_determination(scene):
    """Seed line 224: "Si l'action va à l'encontre des Principes du personnage, le Meneur de jeu offre 1 point
    de Détermination"."""
    state = challenge_drive(scene, "Paul", "justice")
    assert state.pools.determination_of("Paul") == 2
    state = challenge_drive(challenge_drive(state, "Paul", "duty"), "Paul", "truth")
    assert state.pools.determination_of("Paul") == rule("determination_max")
    with pytest.raises(IllegalActionError):
        challenge_drive(scene, "Baron", "power")


def test_seed_line_222_determination_reroll_in_a_conflict(scene):
    """Seed line 222: "Vous pouvez dépenser de la Détermination" (re-roll, 2D20-GAP-9)."""
    state = use_asset(scene, "Kara", "Knife", 2, Approach("battle", "duty", dice=MISS, reroll=True,
                                                          reroll_dice=(3, 4)))
    assert state.history[-1].succeeded and state.history[-1].test.dice == (3, 4)
    assert state.pools.determination_of("Kara") == 1
    kept = use_asset(scene, "Kara", "Knife", 1, Approach("battle", "duty", dice=(3, 15), reroll=True))
    assert kept.pools.determination_of("Kara") == 2  # passed: nothing re-rolled, nothing spent


def test_seed_line_222_determination_automatic_one_in_a_conflict(scene):
    state = use_asset(scene, "Kara", "Knife", 2, Approach("battle", "duty", dice=(15,), auto_one=True))
    assert state.history[-1].succeeded and state.history[-1].test.dice == (1, 15)
    assert state.pools.determination_of("Kara") == 1


def test_seed_line_222_determination_changes_a_trait_and_removes_a_complication(scene):
    state = determination_trait(scene, "Kara", add="High ground")
    assert ("High ground", False) in state.traits and state.pools.determination_of("Kara") == 1
    state = use_asset(state, "Kara", "Knife", 0, Approach("battle", "duty", dice=(20, 3)))
    state = determination_trait(state, "Kara", remove="complication")
    assert state.combatant("Kara").complications == () and state.pools.determination_of("Kara") == 0
    with pytest.raises(IllegalActionError):
        determination_trait(state, "Kara", remove="High ground")


def test_seed_line_222_determination_extra_action(scene):
    state = use_asset(scene, "Kara", "Knife", 0, Approach("battle", "duty", dice=MISS))
    state = determination_extra_action(state, "Kara")
    state = use_asset(state, "Kara", "Knife", 1, Approach("battle", "duty", dice=(3, 15)))
    assert state.history[-1].test.difficulty == 1  # no +1, unlike a kept initiative
    assert keep_initiative(state, "Kara").next_actor == "Kara"  # the initiative is still free to keep


# -- 6. several helpers, presets, a defeated ally --------------------------------------------------------
def test_seed_line_352_several_helpers_each_add_one_die(scene):
    """Seed line 352: "ajoutant les réussites obtenues sur un seul dé"."""
    approach = Approach("battle", "duty", dice=MISS, help=Help("Paul", "battle", "duty", die=4),
                        helpers=(Help("Gurney", "battle", "duty", die=1),))
    state = use_asset(scene, "Kara", "Knife", 3, approach)
    result = state.history[-1].test
    assert result.successes == 3 and result.passed and result.helper_dice == (1,)
    assert {"Paul", "Gurney"} <= state.acted
    with pytest.raises(IllegalActionError, match="cannot help"):
        use_asset(scene, "Kara", "Knife", 3, Approach("battle", "duty", dice=MISS,
                                                      helpers=(Help("Paul", "battle", "duty", die=4),) * 2))


@pytest.mark.parametrize("kind", ["duel", "skirmish", "warfare", "espionage", "intrigue"])
def test_seed_lines_264_268_306_312_conflict_presets(kind):
    """Seed lines 264-268 name the conflict types; seed lines 306-312 say what their zones are."""
    assert kind in PRESET_KINDS
    preset = conflict_preset(kind)
    owners = dict.fromkeys(preset.templates, "A")
    state = Conflict.start(
        preset.zones,
        [Combatant(person("A", 6, 6), "players", preset.zones.names[0], "player"),
         Combatant(person("B", 6, 6), "gm", preset.zones.names[-1], "notable")],
        preset.assets(owners),
    )
    assert len(state.assets) == len(preset.templates) and any(a.defensive for a in state.assets)
    for zone in preset.zones.names:
        assert preset.zones.neighbours(zone)


def test_seed_line_332_helping_a_defeated_ally_brings_them_back(scene):
    """Seed line 332: "Essayer de retirer un trait ou une complication que subit un allié, ou aider un allié
    vaincu" (2D20-GAP-11)."""
    from dataclasses import replace

    from dunenb.adventures.conflict import with_combatant

    fallen = with_combatant(scene, replace(scene.combatant("Paul"), defeated=True))
    with pytest.raises(IllegalActionError, match="not a defeated ally"):
        use_asset(scene, "Kara", "Knife", 1, Approach("battle", "duty", dice=(3, 15)), help_defeated="Paul")
    failed = use_asset(fallen, "Kara", "Knife", 2, Approach("battle", "duty", dice=(3, 15)), help_defeated="Paul")
    assert failed.combatant("Paul").defeated
    state = use_asset(fallen, "Kara", "Knife", 1, Approach("battle", "duty", dice=(3, 15)), help_defeated="Paul")
    paul = state.combatant("Paul")
    assert not paul.defeated and "Paul" in state.acted and state.task("Paul").progress == 0
