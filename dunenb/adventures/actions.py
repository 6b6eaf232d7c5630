"""Conflict actions that roll dice: move an asset, attack, target an asset, use an asset, recover an asset
(seed lines 284-352). Each takes a :class:`Conflict` and returns a new one whose ``history[-1]`` reports
what happened. Dice are fixed in each :class:`Approach` or rolled from a numpy Generator.

>>> from dunenb.adventures.rules import SKILLS, DRIVES
>>> kara = Character.create("Kara", dict.fromkeys(SKILLS, 6), dict.fromkeys(DRIVES, 6))
>>> guard = Character.create("Guard", dict.fromkeys(SKILLS, 5), dict.fromkeys(DRIVES, 5))
>>> state = Conflict.start(
...     Zones.chain("gate", "hall"),
...     [Combatant(kara, "players", "hall", "player"), Combatant(guard, "gm", "hall", "minor")],
...     [Asset("Knife", "Kara", "hall", quality=1)],
... )
>>> state = attack(state, "Kara", "Knife", "Guard",
...                Approach("battle", "duty", dice=(3, 5)), defence=Approach("battle", "duty", dice=(12, 15)))
>>> state.combatant("Guard").defeated      # a minor character is defeated by one successful attack
True
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from dunenb.adventures.assets import Asset, Zones
from dunenb.adventures.characters import Character
from dunenb.adventures.conflict import (
    ActionReport,
    Combatant,
    Conflict,
    add_complications,
    begin_action,
    finish_action,
    remove_complication,
    spend,
    with_asset,
    with_combatant,
)
from dunenb.adventures.dice import roll_d20
from dunenb.adventures.pools import PAYMENTS, PayWith, extra_dice_cost, other_side
from dunenb.adventures.rules import rule
from dunenb.adventures.skill_test import Assist, SkillTest, SkillTestResult, resolve_test
from dunenb.adventures.validation import check_choice
from dunenb.errors import IllegalActionError, InputError

__all__ = [
    "Approach",
    "Help",
    "attack",
    "move_asset",
    "recover_asset",
    "target_asset",
    "use_asset",
    "Asset",
    "Character",
    "Combatant",
    "Conflict",
    "Zones",
]


@dataclass(frozen=True)
class Help:
    """An ally assisting instead of taking their turn: one die against their own skill + drive (seed 352).
    ``die`` fixes the face; None rolls it."""

    name: str
    skill: str
    drive: str
    focus: str | None = None
    die: int | None = None


@dataclass(frozen=True)
class Approach:
    """How a character tackles a test: skill, drive, focus, bought dice (and how they are paid), helpers
    (``help`` and any further ``helpers``, seed line 352), the Determination spends "automatic 1" and
    "re-roll" (``reroll``: if the test fails, spend 1 Determination and roll the whole pool again, from
    ``reroll_dice`` or the Generator; 2D20-GAP-9), and the dice (``None``: roll them from the Generator)."""

    skill: str
    drive: str
    focus: str | None = None
    extra_dice: int = 0
    pay_with: PayWith = "momentum"
    dice: tuple[int, ...] | None = None
    help: Help | None = None
    auto_one: bool = False
    complication_range: int = 1
    helpers: tuple[Help, ...] = ()
    reroll: bool = False
    reroll_dice: tuple[int, ...] | None = None

    @property
    def all_help(self) -> tuple[Help, ...]:
        """Every helper: ``help`` first, then ``helpers``."""
        return ((self.help,) if self.help is not None else ()) + tuple(self.helpers)


def _faces(
    given: tuple[int, ...] | None, rng: np.random.Generator | None, count: int, what: str
) -> tuple[int, ...]:
    if given is not None:
        return tuple(given)
    if rng is not None:
        return roll_d20(rng, count)
    raise InputError("2d20/dice", f"give {what} in the Approach or Help, or a numpy Generator as rng")


def _roll(
    state: Conflict,
    roller: str,
    approach: Approach,
    rng: np.random.Generator | None,
    difficulty: int,
    modifier: int,
    own_action: bool = True,
) -> tuple[Conflict, SkillTestResult]:
    """Roll ``roller``'s test. For their own action (not a defence) their complications add to the
    difficulty, and the one-action ones are spent (seed line 230, 2D20-GAP-1)."""
    fighter = state.combatant(roller)
    check_choice("pay_with", approach.pay_with, PAYMENTS)
    assists = []
    seen = {roller}
    for helper_help in approach.all_help:
        helper = state.combatant(helper_help.name)
        if helper.side != fighter.side or helper.name in seen or not state.can_act(helper.name):
            raise IllegalActionError("conflict/help", f"{helper.name} cannot help {roller} now")
        seen.add(helper.name)
        assists.append(
            Assist.from_character(helper.character, helper_help.skill, helper_help.drive, helper_help.focus)
        )
    penalty = fighter.complication_penalty if own_action else 0
    test = SkillTest.from_character(
        fighter.character,
        approach.skill,
        approach.drive,
        approach.focus,
        extra_dice=approach.extra_dice,
        difficulty=difficulty,
        complication_range=approach.complication_range,
        assist=assists[0] if assists else None,
        auto_one=approach.auto_one,
        difficulty_modifier=modifier + penalty,
        helpers=tuple(assists[1:]),
    )
    state = spend(state, fighter.side, extra_dice_cost(approach.extra_dice), approach.pay_with)
    if own_action and fighter.complications:
        state = with_combatant(state, replace(fighter, complications=()))
    if (approach.auto_one or approach.reroll) and fighter.kind != "player":
        raise IllegalActionError("conflict/determination", "only player characters hold Determination")
    if approach.auto_one:
        state = replace(state, pools=state.pools.spend_determination(roller, "automatic_one"))
    faces = _faces(approach.dice, rng, test.rolled_count, "the dice")
    helper_dice = [
        _faces(None if h.die is None else (h.die,), rng, 1, "each helper's die")[0] for h in approach.all_help
    ]
    for helper_help in approach.all_help:
        state = replace(state, acted=state.acted | {helper_help.name})
    result = resolve_test(test, faces, helper_dice[0] if helper_dice else None, helper_dice[1:])
    if approach.reroll and not result.passed:
        # Determination "re-roll": the whole pool of the leader again; helpers' dice stay (2D20-GAP-9)
        state = replace(state, pools=state.pools.spend_determination(roller, "reroll_pool"))
        faces = _faces(approach.reroll_dice, rng, test.rolled_count, "reroll_dice")
        result = resolve_test(test, faces, helper_dice[0] if helper_dice else None, helper_dice[1:])
    return state, result


def _own_usable_asset(state: Conflict, actor: str, name: str) -> Asset:
    asset = state.asset(name)
    if asset.owner != actor:
        raise IllegalActionError("conflict/asset-owner", f"{name} belongs to {asset.owner}, not {actor}")
    if not asset.usable:
        raise IllegalActionError(
            "conflict/asset-set-aside", f"{name} is set aside and must be recovered first"
        )
    return asset


def _finish(
    state: Conflict, report: ActionReport, result: SkillTestResult | None, fresh: int | None = None
) -> Conflict:
    """Apply the roller's complications, leave the unspent Momentum as fresh, record and pass the turn."""
    if result is not None:
        state = add_complications(state, report.actor, result.complications, "Complication")
        if fresh is None:
            fresh = result.momentum
    state = replace(state, fresh=fresh or 0, fresh_side=report.side if fresh else None)
    return finish_action(state, replace(report, number=len(state.history) + 1))


def _contest(
    state: Conflict, defender: str, defence: Approach | None, rng: np.random.Generator | None
) -> tuple[Conflict, SkillTestResult]:
    if defence is None:
        raise InputError("2d20/defence", f"this is a contest: give {defender}'s defence Approach")
    state, result = _roll(state, defender, defence, rng, 0, 0, own_action=False)
    return add_complications(state, defender, result.complications, "Complication"), result


def move_asset(
    state: Conflict,
    actor: str,
    asset: str,
    to_zone: str,
    mode: str,
    approach: Approach,
    rng: np.random.Generator | None = None,
    extra_zone: str | None = None,
    reaction: tuple[str, str] | None = None,
) -> Conflict:
    """Move one of your assets to an adjacent zone: a difficulty 2 test (seed line 318).

    ``mode`` is ``"subtle"`` (success: the initiative may be kept for free) or ``"bold"`` (success: move
    the enemy asset named in ``reaction`` one zone). ``extra_zone`` moves it one zone further for 2 Momentum.
    On a failure nothing moves except the enemy's ``reaction`` (one of their assets, one zone), the extra
    zone cannot be bought and the initiative cannot be kept (seed line 321).
    """
    check_choice("mode", mode, ("subtle", "bold"))
    state, bonus = begin_action(state, actor)
    side = state.combatant(actor).side
    moved = _own_usable_asset(state, actor, asset)
    if not moved.mobile:
        raise IllegalActionError("conflict/asset-fixed", f"{asset} cannot move")
    if not state.zones.adjacent(moved.zone, to_zone):
        raise IllegalActionError("conflict/zone", f"{to_zone} is not adjacent to {moved.zone}")
    state, result = _roll(state, actor, approach, rng, rule("move_asset_difficulty"), bonus)
    notes: list[str] = []
    if result.passed:
        state = with_asset(state, moved.moved_to(to_zone))
        notes.append(f"{asset} moves to {to_zone}")
        state = replace(state, fresh=result.momentum, fresh_side=side)
        if extra_zone is not None:
            if not state.zones.adjacent(to_zone, extra_zone):
                raise IllegalActionError("conflict/zone", f"{extra_zone} is not adjacent to {to_zone}")
            state = spend(state, side, rule("move_extra_zone_momentum"))
            state = with_asset(state, moved.moved_to(extra_zone))
            notes.append(f"{asset} moves on to {extra_zone} (2 Momentum)")
        if mode == "bold" and reaction is not None:
            state = _move_enemy(state, other_side(side), reaction)
            notes.append(f"{reaction[0]} is drawn to {reaction[1]}")
    else:
        notes.append(f"the move fails; {asset} stays in {moved.zone}")
        if reaction is not None:
            state = _move_enemy(state, other_side(side), reaction)
            notes.append(f"in reaction {reaction[0]} moves to {reaction[1]}")
    report = ActionReport(
        0,
        f"move ({mode})",
        actor,
        side,
        result.passed,
        result,
        None,
        tuple(notes),
        free_keep=result.passed and mode == "subtle",
    )
    return _finish(state, report, result, fresh=state.fresh if result.passed else 0)


def _move_enemy(state: Conflict, enemy_side: str, reaction: tuple[str, str]) -> Conflict:
    name, zone = reaction
    enemy_asset = state.asset(name)
    if state.combatant(enemy_asset.owner).side != enemy_side:
        raise IllegalActionError("conflict/reaction", f"{name} is not an asset of the {enemy_side} side")
    if not enemy_asset.usable or not enemy_asset.mobile:
        raise IllegalActionError("conflict/reaction", f"{name} cannot move")
    if not state.zones.adjacent(enemy_asset.zone, zone):
        raise IllegalActionError("conflict/zone", f"{zone} is not adjacent to {enemy_asset.zone}")
    return with_asset(state, enemy_asset.moved_to(zone))


def attack(
    state: Conflict,
    attacker: str,
    asset: str,
    target: str,
    approach: Approach,
    defence: Approach | None = None,
    rng: np.random.Generator | None = None,
) -> Conflict:
    """Attack an enemy with an asset in the target's zone (seed lines 284-289, 336-340).

    The defender rolls first; its successes are the attacker's difficulty (design: core-book contests), +1 per
    defensive asset in the target's zone whoever owns it (seed line 340, 2D20-GAP-2), +1 after keeping the
    initiative, +1 per complication of the attacker (2D20-GAP-1). A success
    defeats a minor character, otherwise scores 2 + the asset's quality on the extended task against the
    target (requirement: the target's most appropriate skill). A failure gives the defender 1 Momentum per
    missing success.
    """
    state, bonus = begin_action(state, attacker)
    striker = state.combatant(attacker)
    victim = state.combatant(target)
    if victim.side == striker.side or victim.defeated:
        raise IllegalActionError("conflict/target", f"{target} is not an active enemy of {attacker}")
    weapon = _own_usable_asset(state, attacker, asset)
    if weapon.zone != victim.zone:
        raise IllegalActionError(
            "conflict/zone", f"{asset} is in {weapon.zone}, {target} is in {victim.zone}"
        )
    state, defended = _contest(state, target, defence, rng)
    modifier = bonus + state.defensive_bonus(target)
    state, result = _roll(state, attacker, approach, rng, 0, defended.successes + modifier)
    notes = [
        f"difficulty {result.difficulty} = {defended.successes} defence successes + {modifier} modifiers"
    ]
    if result.passed:
        if victim.kind == "minor":
            state = with_combatant(state, replace(victim, defeated=True))
            state = replace(state, just_defeated=None)
            notes.append(f"{target} (minor) is defeated")
        else:
            task = state.task(target).score(weapon.quality)
            state = replace(state, tasks={**state.tasks, target: task})
            notes.append(f"{target}: {task.progress}/{task.requirement}")
            if task.complete:
                state = with_combatant(state, replace(victim, defeated=True))
                notes.append(f"{target} is defeated")
    else:
        shortfall = result.shortfall
        notes.append(f"the attack fails; {target} gains {shortfall} Momentum")
    report = ActionReport(0, "attack", attacker, striker.side, result.passed, result, defended, tuple(notes))
    state = _finish(state, report, result)
    if result.passed and victim.kind != "minor" and state.combatant(target).defeated:
        state = replace(state, just_defeated=target)
    if not result.passed and result.shortfall:
        state = replace(state, fresh=result.shortfall, fresh_side=victim.side)
    return state


def target_asset(
    state: Conflict,
    actor: str,
    asset: str,
    target: str,
    approach: Approach,
    defence: Approach | None = None,
    rng: np.random.Generator | None = None,
) -> Conflict:
    """Target an enemy asset in the same zone as your asset: difficulty 2 (seed line 344), +1 per defensive
    asset in that zone (seed line 340, the targeted asset too if it is defensive; 2D20-GAP-2). If someone
    wields it the test is opposed: the wielder's successes are added to that difficulty, so a wielded asset
    is never easier to hit than a loose one (2D20-GAP-3). Success: an intangible asset is destroyed, a
    tangible one is set aside."""
    state, bonus = begin_action(state, actor)
    side = state.combatant(actor).side
    tool = _own_usable_asset(state, actor, asset)
    aimed = state.asset(target)
    if state.combatant(aimed.owner).side == side or not aimed.usable:
        raise IllegalActionError("conflict/target", f"{target} is not a usable enemy asset")
    if tool.zone != aimed.zone:
        raise IllegalActionError("conflict/zone", f"{asset} is in {tool.zone}, {target} is in {aimed.zone}")
    defended = None
    modifier = bonus + state.defensive_bonus_in(aimed.zone)
    if aimed.wielded:
        state, defended = _contest(state, aimed.owner, defence, rng)
        modifier += defended.successes
    state, result = _roll(state, actor, approach, rng, rule("target_asset_difficulty"), modifier)
    if result.passed:
        if aimed.tangible:
            state = with_asset(state, replace(aimed, set_aside=True))
            note = f"{target} is set aside"
        else:
            state = with_asset(state, None, target)
            note = f"{target} is destroyed"
    else:
        note = f"{target} holds"
    report = ActionReport(0, "target asset", actor, side, result.passed, result, defended, (note,))
    return _finish(state, report, result)


def recover_asset(state: Conflict, actor: str, asset: str) -> Conflict:
    """Spend an action to take back one of your tangible assets that was set aside (seed line 344)."""
    state, _ = begin_action(state, actor)
    item = state.asset(asset)
    if item.owner != actor or not item.set_aside:
        raise IllegalActionError("conflict/recover", f"{asset} is not a set-aside asset of {actor}")
    state = with_asset(state, replace(item, set_aside=False))
    report = ActionReport(
        0, "recover asset", actor, state.combatant(actor).side, True, notes=(f"{asset} recovered",)
    )
    return _finish(state, report, None)


def use_asset(
    state: Conflict,
    actor: str,
    asset: str,
    difficulty: int,
    approach: Approach,
    rng: np.random.Generator | None = None,
    purpose: str = "overcome an obstacle",
    remove_complication_of: str | None = None,
    help_defeated: str | None = None,
) -> Conflict:
    """Any other use of an asset (overcome an obstacle, gain information, help a defeated ally...): a skill
    test at the GM's difficulty 0-5 (seed lines 323-334). With ``remove_complication_of`` a success removes
    one complication (or complication trait) from that ally (seed line 332). With ``help_defeated`` a
    success brings that defeated ally back into the conflict (seed line 332 "aider un allié vaincu",
    2D20-GAP-11): not defeated any more, the extended task against them starts again from 0, and they
    have used their turn this round. A failure forbids keeping the initiative."""
    state, bonus = begin_action(state, actor)
    side = state.combatant(actor).side
    _own_usable_asset(state, actor, asset)
    if help_defeated is not None:
        fallen = state.combatant(help_defeated)
        if fallen.side != side or not fallen.defeated:
            raise IllegalActionError("conflict/help-defeated", f"{fallen.name} is not a defeated ally of {actor}")
    state, result = _roll(state, actor, approach, rng, difficulty, bonus)
    notes = [f"{purpose}: {'success' if result.passed else 'failure'}"]
    if result.passed and remove_complication_of is not None:
        ally = state.combatant(remove_complication_of)
        if ally.side != side:
            raise IllegalActionError("conflict/complication", f"{ally.name} is not an ally of {actor}")
        state = with_combatant(state, remove_complication(ally))
        notes.append(f"a complication of {ally.name} is removed")
    if result.passed and help_defeated is not None:
        fallen = state.combatant(help_defeated)
        state = with_combatant(state, replace(fallen, defeated=False))
        tasks = {k: v for k, v in state.tasks.items() if k != help_defeated}
        state = replace(state, tasks=tasks, acted=state.acted | {help_defeated})
        notes.append(f"{help_defeated} is back in the conflict")
    report = ActionReport(0, purpose, actor, side, result.passed, result, None, tuple(notes))
    return _finish(state, report, result)
