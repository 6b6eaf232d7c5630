"""A game's battle as a battle case (:mod:`dunenb.battle.case`): what the wheel explorer of the replay browser
opens on a revealed battle, so that a battle of a saved game can be studied and changed on its own.

The case keeps what the game's battle reads: each side's tokens in the territory and its spice (at least what
its plan commits), the revealed plan, its leader's B1 rolls (leaders.md D-31), its own captive leader and its
powers passed for good (GAP-145, GAP-146), and the Karama uses in force (issue 10).
"""

from __future__ import annotations

from dunenb.battle.case import CASE_FORMAT, BattleCase, parse_case
from dunenb.rules.battle_context import BattleContext
from dunenb.rules.battle_phase import own_house_leader
from dunenb.rules.leader_rolls import rolls_of_leader, side_rolls
from dunenb.state import GameState


def tokens_in(state: GameState, house: str, area: str) -> tuple[int, int]:
    """(unmarked, marked) tokens of ``house`` in ``area``, all sectors together."""
    total = marked = 0
    for (owner, where, _sector), tokens in state.forces.items():
        if owner == house and where == area:
            total += tokens.total
            marked += tokens.marked
    return total - marked, marked


def _leader_rolls(state: GameState, detail: BattleContext, house: str, leader_id: str) -> dict[str, int]:
    """The B1 results of the powers of ``house``'s leader on the wheel (leaders.md D-31: the House rolls for each of
    its leaders' powers that need it; a case keeps those of the leader it plays)."""
    if leader_id == "none":
        return {}
    return rolls_of_leader(side_rolls(detail, house), own_house_leader(state, house, leader_id))


def battle_case_of(state: GameState, detail: BattleContext) -> BattleCase:
    """The revealed battle as a battle case for the wheel explorer (its plans set the controls)."""
    sides = []
    for house, plan in detail.plans:
        regular, marked = tokens_in(state, house, detail.area)
        regular, marked = max(regular, plan.regular), max(marked, plan.marked)
        sides.append({
            "house": house, "tokens": {"regular": regular, "elite": marked},
            "spice": max(state.houses[house].spice, plan.spice),
            "dial": {"regular": plan.regular, "elite": plan.marked, "spice": plan.spice},
            "leader": None if plan.leader == "none" else plan.leader,
            "weapon": None if plan.weapon == "none" else plan.weapon,
            "defense": None if plan.defense == "none" else plan.defense,
            **{name: getattr(plan, name) for name in ("extra_attack", "extra_defense")  # leaders.md K-6, K-7
               if getattr(plan, name) != "none"},
            **({"b1_rolls": rolls} if (rolls := _leader_rolls(state, detail, house, plan.leader)) else {}),
            **_held_facts(state, house, plan.leader)})
    return parse_case({"format": CASE_FORMAT, "territory": detail.area, "defender": detail.defender,
                       "sides": sides, "karama_uses": _karama_uses(state, detail, sides)})


def _held_facts(state: GameState, house: str, leader: str) -> dict:
    """The case fields of what ``house`` holds in the game that change its side (GAP-145, GAP-146): ``captured``
    when its leader is a captive of its own (HARKONNEN-P4, BG-L03-b: the game's ``captured``), ``passed`` for its
    powers that passed for good (leaders.md K-24 D02-d: the game's ``powers_passed``, a heir's id or null once
    lost)."""
    from dunenb.rules.traitors import leader_ref

    facts: dict = {}
    if leader not in (None, "none"):
        owner, _id = person = leader_ref(house, leader)
        if owner != house and person in state.captured:
            facts["captured"] = True
    passed = {power: (heir or None) for power, owner, heir in state.powers_passed if owner == house}
    if passed:
        facts["passed"] = passed
    return facts


def _karama_uses(state: GameState, detail: BattleContext, sides: list[dict]) -> list:
    """issue 10: the Karama uses in force in the game's battle, as the case's ``karama_uses`` (one reading:
    :func:`dunenb.battle.case_karama.uses_in_force`)."""
    from dunenb.battle.case_karama import uses_in_force
    from dunenb.powers.karama import suppressed_powers
    from dunenb.rules.battle_powers import own_dead
    from dunenb.rules.traitors import leader_of

    houses = (sides[0]["house"], sides[1]["house"])
    leaders = [None if side["leader"] is None else leader_of(side["house"], side["leader"]) for side in sides]
    now = suppressed_powers(state)
    in_force = [(s.karama, s.power) for s in state.suppressions if s.power in now]
    return uses_in_force(in_force, houses, leaders, defender=houses.index(detail.defender), territory=detail.area,
                         dead=(own_dead(state, houses[0]), own_dead(state, houses[1])),
                         shield_wall_standing=state.shield_wall_standing)
