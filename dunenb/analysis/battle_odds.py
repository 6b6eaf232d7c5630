"""Exact battle odds, plan-against-plan matrices and optimal mixed plans, as pandas DataFrames.

Everything is exact enumeration of the chance nodes (the d10 of shield passes); nothing is sampled. A case's
optional ``hand``, ``leaders`` and ``spice`` fields say what each side could play; traitor slips are part of the
case, and a House always calls its traitor (TRAITOR-8; the "keep it secret for later" option is not modelled).

Sensible plans (:func:`sensible_plans`): every non-dominated dial (:func:`dunenb.battle.wheel.pareto_dials`), every
available leader, and every weapon / defence card held, or none. Design notes: a worthless card is left out, since
in battle it does exactly what an empty slot does (CARD-WORTHLESS-1); Atomics are left out unless
``allow_atomics`` (CARD-ATOMICS-3: prohibited; the sanction is not in the payoff).

>>> from dunenb.battle.case import load_example_case
>>> case = load_example_case("shield_example_2")
>>> table = outcome_table(case_outcomes_of(case))
>>> list(table.columns[:4])
['probability', 'winner', 'explosion', 'traitor_called_by']
>>> float(table["probability"].sum())
1.0
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from dunenb.analysis.equilibrium import Equilibrium, solve_zero_sum
from dunenb.battle import immunities
from dunenb.battle.case import BattleCase
from dunenb.battle.facts import released_by
from dunenb.battle.leader_after import spare_price
from dunenb.battle.leader_bounty import bounty_for
from dunenb.battle.leader_exchange import exchange_of, may_exchange
from dunenb.battle.leader_powers import Scene
from dunenb.battle.leader_shelter import sheltered
from dunenb.battle.leader_traits import plan_error
from dunenb.battle.leader_weapons import slot_options
from dunenb.battle.plans import Battle, BattlePlan
from dunenb.battle.powers import NO_FACTS, battle_values, carried_weapons, marked_token_value, slot_weapons
from dunenb.battle.resolve import Distribution, Fates, fates_distribution, resolve_battle
from dunenb.battle.roster import Leader
from dunenb.battle.sequence import plan_violations
from dunenb.battle.wheel import HALF, Dial, army_value, pareto_dials
from dunenb.errors import InputError

if TYPE_CHECKING:  # imported when a DataFrame is built (issue 14: ``dunenb battle --optimal`` needs none)
    import pandas as pd

METRICS = ("win", "spice", "tokens")


def case_outcomes_of(case: BattleCase) -> Distribution:
    """The exact outcome distribution of the case's own plans."""
    return resolve_battle(case.battle)


def outcome_table(distribution: Distribution) -> pd.DataFrame:
    """One row per distinct outcome, most likely first; per House: total, leader fate, losses, bounty.

    Probabilities are floats here; the exact fractions are in the ``fraction`` column.
    """
    import pandas as pd

    rows = []
    for probability, outcome in distribution:
        row: dict[str, object] = {
            "probability": float(probability), "winner": outcome.winner or "(none)",
            "explosion": outcome.explosion or "", "traitor_called_by": ", ".join(outcome.traitor_called_by),
        }
        for side in outcome.sides:
            row[f"{side.house} total"] = float(side.total)
            row[f"{side.house} leader"] = side.leader_fate
            row[f"{side.house} tokens lost"] = side.tokens_lost.total
            row[f"{side.house} tokens left"] = side.tokens_left.total
            row[f"{side.house} spice lost"] = side.spice_lost
            row[f"{side.house} bounty"] = side.bounty
        row["fraction"] = str(probability)
        rows.append(row)
    return pd.DataFrame(rows)


def win_probabilities(distribution: Distribution) -> dict[str, float]:
    """Probability that each House wins, and that nobody does (``"(none)"``: an explosion, or a battle the K-18
    leader_exchange voids, FREMEN-L05-c)."""
    result: dict[str, Fraction] = {}
    for probability, outcome in distribution:
        key = outcome.winner or "(none)"
        result[key] = result.get(key, Fraction(0)) + probability
    return {key: float(value) for key, value in result.items()}


# --------------------------------------------------------------------------------------------- plan enumeration
@lru_cache(maxsize=4096)  # a matrix labels each dial once per combo (issue 14)
def dial_label(dial: Dial) -> str:
    """A short label: army value, then regular / elite tokens and spice, e.g. ``'3 = 4r+0e+2s'``."""
    return f"{float(army_value(dial)):g} = {dial.regular}r+{dial.elite}e+{dial.spice}s"


def plan_label(plan: BattlePlan) -> str:
    """A unique readable label for a plan, e.g. ``'duncan-idaho poison-fast/shield 3 = 4r+0e+2s'``."""
    leader = plan.leader.id if plan.leader is not None else "no-leader"
    karama = f"+{plan.karama}" if plan.karama is not None else ""
    attack = (plan.weapon or "-") + (f"&{plan.extra_attack}" if plan.extra_attack else "")  # leaders.md K-6/K-7
    defence = (plan.defense or "-") + (f"&{plan.extra_defense}" if plan.extra_defense else "")
    return f"{leader} {attack}/{defence}{karama} {dial_label(plan.dial)}"


#: A side's card combo: (leader, weapon, defence), or (leader, weapon, defence, extra attack, extra defence)
#: when the leader's K-6/K-7 powers fill an extra slot (leaders.md LC-7).
Combo = tuple[Any, ...]


@dataclass(frozen=True)
class SidePlans:
    """A side's sensible plans as a product of card combos (leader, weapon, defence) and dials; ``karama`` is the
    case's Karama on the wheel (KARAMA-3, GAP-55b), kept on every plan that has a leader."""

    house: str
    combos: tuple[Combo, ...]
    dials: tuple[Dial, ...]
    karama: str | None = None
    karama_use: str | None = None  # GAP-80: the use of that Karama (against a Voice or an answer), or None

    def plan(self, dial: Dial, combo: Combo) -> BattlePlan:
        leader, weapon, defense = combo[:3]
        extra_attack, extra_defense = combo[3:] if len(combo) == 5 else (None, None)
        karama = self.karama if leader is not None else None
        return BattlePlan(dial, leader, weapon, defense, karama, self.karama_use if karama else None,
                          extra_attack, extra_defense)

    @cached_property
    def plans(self) -> tuple[BattlePlan, ...]:
        return tuple(self.plan(dial, combo) for combo in self.combos for dial in self.dials)

    @cached_property
    def labels(self) -> tuple[str, ...]:
        return tuple(plan_label(plan) for plan in self.plans)

    def label(self, index: int) -> str:
        """``labels[index]``, without labelling every plan (an equilibrium names only its support)."""
        if "labels" in self.__dict__:
            return self.labels[index]
        combo, dial = divmod(index, len(self.dials))
        return plan_label(self.plan(self.dials[dial], self.combos[combo]))


def sensible_plans(case: BattleCase, side: int | str, *, allow_atomics: bool = False) -> SidePlans:
    """Every sensible plan of one side of a case (see the module docstring for what "sensible" means).

    Without ``leaders`` the case's leader is the only one; without ``hand`` the cards of the case's plan are the
    only ones; without ``spice`` the spice of the case's dial is all the side can use.
    """
    index = side if isinstance(side, int) else case.houses.index(side)
    case_side = case.sides[index]
    plan = case_side.plan
    if case_side.leaders is not None:
        leaders: tuple[Leader | None, ...] = case_side.leaders or (None,)
    else:
        leaders = (plan.leader,)
    hand = case_side.hand if case_side.hand is not None else plan.cards_played
    weapons: list[str | None] = [None]
    for card in ("poison-fast", "poison-slow", "projectile-distance", "projectile-contact", "lasgun", "atomics"):
        if card in hand and (allow_atomics or card != "atomics"):
            weapons.append(card)
    attack_cards = [card for card in weapons if card is not None]
    defence_cards = [card for card in ("snooper", "shield") if card in hand]
    combos: list[Combo] = []
    for leader in leaders:
        if leader is None:  # GAP-43: no leader, no card
            combos.append((None, None, None))
            continue
        # leaders.md K-6..K-8: the slots and built-ins of this leader (DISPERSION-P1 karate: no card, G-4)
        for weapon, defence, extra_attack, extra_defense in slot_options(
                leader, case_side.house, hand, blocked=case_side.side.blocked,
                house_weapons=slot_weapons(case_side.house), b1_rolls=case_side.side.b1_rolls,
                attack_cards=attack_cards, defence_cards=defence_cards):
            if not _obeys(case, index, leader, weapon, defence, hand):
                continue
            if plan_error(leader, case_side.house, weapon=weapon, dialled=0, spice=0) is not None:
                continue  # leaders.md K-21 no_house_powers (his card restrictions: slot_options, GAP-144)
            extras = (extra_attack, extra_defense)
            combos.append((leader, weapon, defence) + (extras if extras != (None, None) else ()))
    spice = case_side.spice if case_side.spice is not None else plan.dial.spice
    return SidePlans(case_side.house, tuple(combos), pareto_dials(case_side.side.tokens, spice), plan.karama,
                     plan.karama_use)


def _obeys(case: BattleCase, index: int, leader: Leader, weapon: str | None, defence: str | None,
           hand: tuple[str, ...]) -> bool:
    """Whether a (leader, weapon, defence) keeps the case's Voices and prescience answers in force on that side
    (BG-P1, ATREIDES-M2 bind the voiced side's plans; ATREIDES-P1, GUILD-M2 answers bind; GAP-78). A leader
    immune to the Voice (DISPERSION-M2) or the side's Karama use (GAP-80) releases it."""
    if case.sequence is None:
        return True
    side = case.sides[index]
    released = list(immunities.released(leader, house=side.house, blocked=side.side.blocked))  # K-10
    answers = [answer.kind for _question, answer in case.sequence.answered(side.house)]
    if immunities.prescience_problems(answers, leader, house=side.house, blocked=side.side.blocked):
        return False  # K-10, GAP-96
    if side.plan.karama_use is not None:
        released.extend(released_by(side.plan.karama_use, case.sequence, side.house))  # LC-11 b: a leader's Voice
    return not plan_violations(case.sequence, side.house, BattlePlan(leader=leader, weapon=weapon, defense=defence),
                               hand=hand, karama_shown=released,
                               carried=carried_weapons(side.house, leader, side.side.blocked))  # G-4, TLEILAX-M1


# ------------------------------------------------------------------------------------------------ plan matrices
_ARRAYS = ("win_first", "win_second", "spice", "tokens")


class PlanMatrix:
    """Plan-against-plan expectations, rows = the first side's plans, columns = the second side's.

    * ``win_first`` / ``win_second``: probability that each side wins;
    * ``spice``: expected spice balance for the first side, (bounty - spice paid) minus the same for the second;
    * ``tokens``: expected token balance for the first side, tokens the second loses minus tokens the first loses.

    Each is a DataFrame labelled by plan, built when first asked for (issue 14). The matrix is stored as its
    distinct (leader, weapon, defence) x (leader, weapon, defence) blocks over all dial pairs: ``blocks[k]`` holds
    the four quantities of block ``k`` (shape ``(4, dials of the first side, dials of the second)``) and
    ``grid[i, j]`` is the block of the first side's combo ``i`` against the second side's combo ``j``.
    :meth:`array` and :meth:`payoff_array` give plain numpy arrays.
    """

    def __init__(self, houses: tuple[str, str], rows: SidePlans, columns: SidePlans, blocks: np.ndarray,
                 grid: np.ndarray) -> None:
        self.houses = houses
        self.rows = rows
        self.columns = columns
        self.blocks = blocks
        self.grid = grid
        self._arrays: dict[str, np.ndarray] = {}
        self._frames: dict[str, pd.DataFrame] = {}

    @property
    def shape(self) -> tuple[int, int]:
        """(plans of the first side, plans of the second side)."""
        return (self.grid.shape[0] * self.blocks.shape[2], self.grid.shape[1] * self.blocks.shape[3])

    def _expand(self, blocks: np.ndarray) -> np.ndarray:
        """The full plan-by-plan array of one quantity given per block (shape ``(blocks, dials, dials)``)."""
        combos_a, combos_b = self.grid.shape
        n_a, n_b = blocks.shape[1:]
        full = _fresh_array(self.shape)
        view = full.reshape(combos_a, n_a, combos_b, n_b)
        for i in range(combos_a):
            view[i] = blocks[self.grid[i]].transpose(1, 0, 2)
        full.flags.writeable = False
        return full

    def array(self, name: str) -> np.ndarray:
        """One of ``win_first``, ``win_second``, ``spice``, ``tokens`` as a (read-only, cached) numpy array."""
        if name not in self._arrays:
            if name not in _ARRAYS:
                raise InputError("analysis/matrix-part", f"{name!r} is not one of {', '.join(_ARRAYS)}")
            self._arrays[name] = self._expand(self.blocks[:, _ARRAYS.index(name)])
        return self._arrays[name]

    def _frame(self, name: str) -> pd.DataFrame:
        import pandas as pd

        if name not in self._frames:
            frame = pd.DataFrame(self.array(name), index=list(self.rows.labels), columns=list(self.columns.labels),
                                 copy=False)
            frame.index.name, frame.columns.name = self.houses
            self._frames[name] = frame
        return self._frames[name]

    @property
    def win_first(self) -> pd.DataFrame:
        return self._frame("win_first")

    @property
    def win_second(self) -> pd.DataFrame:
        return self._frame("win_second")

    @property
    def spice(self) -> pd.DataFrame:
        return self._frame("spice")

    @property
    def tokens(self) -> pd.DataFrame:
        return self._frame("tokens")

    def payoff_array(self, metric: str = "win") -> np.ndarray:
        """:meth:`payoff` as a numpy array, without building a DataFrame (``win`` is not cached)."""
        if metric == "win":
            return self._expand(self.blocks[:, 0] - self.blocks[:, 1])
        if metric in ("spice", "tokens"):
            return self.array(metric)
        raise InputError("analysis/metric", f"{metric!r} is not one of {', '.join(METRICS)}")

    def payoff(self, metric: str = "win") -> pd.DataFrame:
        """The zero-sum payoff to the first side: ``win`` = P(first wins) - P(second wins), or ``spice`` or
        ``tokens`` balances."""
        if metric == "win":
            return self.win_first - self.win_second
        if metric == "spice":
            return self.spice
        if metric == "tokens":
            return self.tokens
        raise InputError("analysis/metric", f"{metric!r} is not one of {', '.join(METRICS)}")


def _fresh_array(shape: tuple[int, int]) -> np.ndarray:
    """A float array (zeros) on ordinary memory pages, for the full plan-by-plan arrays (issue 14).

    numpy asks the kernel to back any array of 4 MiB or more with transparent huge pages; on the 2-core machines
    of issue 14, first touching such a fresh 90 MB array costs 0.2-0.3 s of CPU, against 0.07 s on ordinary
    pages (their page faults and zeroing included): a bytearray's memory is not so advised."""
    return np.frombuffer(bytearray(8 * shape[0] * shape[1]), dtype=np.float64).reshape(shape)


def _dial_arrays(dials: Sequence[Dial]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per dial: the army value, the tokens and the spice dialled, the army value when every token is worth
    1 before spice (leaders.md K-4, :func:`dunenb.battle.powers.side_army_value`), and the army value when a
    marked token is worth ½ (``token.value``, DISPERSION-P3)."""
    value = np.array([float(army_value(d)) for d in dials])
    tokens = np.array([d.regular + d.elite for d in dials], dtype=float)
    spice = np.array([d.spice for d in dials], dtype=float)
    worth_one = np.array([float(army_value(Dial(0, d.regular + d.elite, d.spice))) for d in dials])
    half_marked = np.array([float(army_value(d, HALF)) for d in dials])
    return value, tokens, spice, worth_one, half_marked


def _block(
    fates: Fates, p: float, leaders: tuple[Leader | None, Leader | None], arrays: tuple, totals: tuple[int, int],
    defender_first: bool, houses: tuple[str, str] = ("", ""), *,
    dead: tuple[frozenset[str], frozenset[str]] = NO_FACTS, blocked: tuple[frozenset[str], frozenset[str]] = NO_FACTS,
    territory: str = "", shield_wall_standing: bool = True, voices: tuple[int, int] = (0, 0),
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Vectorised :func:`dunenb.battle.resolve.settle` for one fates result over all dial pairs.

    Kept in step with ``settle`` by ``tests/test_battle_analysis.py`` (every matrix cell is checked against the
    scalar resolution on sample plans). ``dead`` and ``blocked`` are the case's battle facts per side (HARKONNEN-M3
    needs the dead leaders; a Karama blocks a power for the battle), as :class:`~dunenb.battle.plans.BattleSide`.
    """
    (value_a, tokens_a, spice_a, one_a, half_a), (value_b, tokens_b, spice_b, one_b, half_b) = arrays
    # token.value (DISPERSION-P3): the marked tokens' worth follows each side's own leader, as settle
    for me, half in ((0, half_a), (1, half_b)):
        worth = marked_token_value(houses, leaders, me)
        if worth not in (Fraction(1), HALF):
            raise InputError("analysis/token-value", f"a marked token worth {worth} is not analysed (1 or 1/2)")
        if worth == HALF:
            value_a, value_b = (half, value_b) if me == 0 else (value_a, half)
    fighting = (leaders[1], leaders[0]) if fates.swapped else leaders
    shape = (len(value_a), len(value_b))
    ones = np.ones(shape)
    # leaders.md K-18 leader_exchange (FREMEN-L05-c, D-29), as settle: at B8, unless a treachery was called, the
    # battle is void (nobody wins, nothing is lost, no bounty)
    if not fates.traitor_called_by and not fates.blocked_calls and any(may_exchange(leader) for leader in leaders):
        scene = Scene.of(territory, houses, leaders, defender=0 if defender_first else 1, dead=dead,
                         blocked=blocked, shield_wall_standing=shield_wall_standing)
        if exchange_of(scene) is not None:
            zeros = np.zeros(shape)
            return zeros, zeros, zeros, zeros
    if fates.explosion is not None:
        return _explosion_block(fates, p, fighting, (tokens_a, tokens_b), (spice_a, spice_b), totals,
                                defender_first, houses, dead, blocked, territory, shield_wall_standing)
    if len(fates.traitor_called_by) == 1:
        caller = fates.traitor_called_by[0]
        traitor = fighting[1 - caller]
        assert traitor is not None
        scene = Scene.of(territory, houses, fighting, defender=0 if defender_first else 1, dead=dead,
                         blocked=blocked, shield_wall_standing=shield_wall_standing)
        reward = bounty_for(scene, caller).amount if fates.dead[1 - caller] else 2  # TRAITOR-10, K-15
        if caller == 0:
            win_a, win_b = ones, np.zeros(shape)
            spice_bal = (reward + spice_b[None, :]) * ones
            token_bal = totals[1] * ones
        else:
            win_a, win_b = np.zeros(shape), ones
            spice_bal = (-reward - spice_a[:, None]) * ones
            token_bal = -totals[0] * ones
        return p * win_a, p * win_b, p * spice_bal, p * token_bal
    powers = battle_values(houses, fighting, 0 if defender_first else 1, territory=territory, dead=dead,
                           blocked=blocked, shield_wall_standing=shield_wall_standing,
                           voices=voices)  # LC-6, K-1..K-5, as settle (K-2 per Voice command: D-24)
    alive = [
        0.0 if leader is None or fates.dead[me] else float(powers[me].leader_value)
        for me, leader in enumerate(fighting)
    ]
    value_a = (one_a if powers[0].troops_worth_one else value_a) + float(powers[0].army_bonus)
    value_b = (one_b if powers[1].troops_worth_one else value_b) + float(powers[1].army_bonus)
    total_a = (value_a + alive[0])[:, None]
    total_b = (value_b + alive[1])[None, :]
    a_wins = (total_a > total_b) | ((total_a == total_b) & defender_first)
    win_a = a_wins.astype(float)
    win_b = 1.0 - win_a
    lost_a = np.where(a_wins, tokens_a[:, None], totals[0])
    lost_b = np.where(a_wins, totals[1], tokens_b[None, :])
    # ---- K-17 regen_dialled (DISPERSION-L05-c, GAP-129), as settle: a winner whose d10 succeeded loses nothing
    if fates.regen[0] is not None:
        lost_a = np.where(a_wins, 0.0, lost_a)
    if fates.regen[1] is not None:
        lost_b = np.where(a_wins, lost_b, 0.0)
    # BATTLE-13 f3 with leaders.md K-15 (LC-8): the bounty as the resolver pays it (leader_bounty.bounty_for)
    scene = Scene.of(territory, houses, fighting, defender=0 if defender_first else 1, dead=dead, blocked=blocked,
                     shield_wall_standing=shield_wall_standing)
    bounty_a = bounty_for(scene, 0).amount if fighting[1] is not None and fates.dead[1] else 0
    bounty_b = bounty_for(scene, 1).amount if fighting[0] is not None and fates.dead[0] else 0
    spice_bal = (bounty_a - spice_a[:, None]) - (bounty_b - spice_b[None, :])
    # ---- K-17 spare (GUILD-L06-d, GAP-131), as settle: the spared leader's side pays the holder's House
    for me, sign in ((0, 1), (1, -1)):
        power = fates.spared[me]
        if power is not None:
            spice_bal = spice_bal + sign * 2 * spare_price(power, fighting[me])
    return p * win_a, p * win_b, p * spice_bal * ones, p * (lost_b - lost_a)


def _explosion_block(
    fates: Fates, p: float, fighting: Sequence[Leader | None], tokens: tuple[np.ndarray, np.ndarray],
    spice: tuple[np.ndarray, np.ndarray], totals: tuple[int, int], defender_first: bool, houses: tuple[str, str],
    dead: tuple[frozenset[str], frozenset[str]], blocked: tuple[frozenset[str], frozenset[str]], territory: str,
    shield_wall_standing: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """An explosion or battle Atomics, as :func:`dunenb.battle.resolve.settle` settles it: nobody wins, both
    sides lose every token there and their wheel spice (CARD-ATOMICS-3, CARD-LASGUN-1, GAP-29b), unless leaders.md
    S-4 shelters a side's leader (:func:`dunenb.battle.leader_shelter.sheltered`, the resolver's own test:
    EMPEROR-L03-c Burseg in an open territory, GAP-133): that side wins, loses only its dialled tokens, and takes
    the dead opposing leader's bounty (D-22)."""
    shape = (len(tokens[0]), len(tokens[1]))
    ones = np.ones(shape)
    lost = [totals[0] * ones, totals[1] * ones]
    wins = [np.zeros(shape), np.zeros(shape)]
    spice_bal = (-spice[0][:, None] + spice[1][None, :]) * ones
    shelter = sheltered(houses, fighting, blocked, territory)
    if shelter is not None:
        winner = shelter[0]
        wins[winner] = ones
        lost[winner] = (tokens[0][:, None] * ones) if winner == 0 else (tokens[1][None, :] * ones)
        if fighting[1 - winner] is not None and fates.dead[1 - winner]:
            scene = Scene.of(territory, houses, fighting, defender=0 if defender_first else 1, dead=dead,
                             blocked=blocked, shield_wall_standing=shield_wall_standing)
            spice_bal = spice_bal + (1 if winner == 0 else -1) * bounty_for(scene, winner).amount
    return p * wins[0], p * wins[1], p * spice_bal, p * (lost[1] - lost[0])


def plan_matrix(
    case: BattleCase,
    *,
    rows: SidePlans | None = None,
    columns: SidePlans | None = None,
    allow_atomics: bool = False,
) -> PlanMatrix:
    """Every sensible plan of the first side against every sensible plan of the second (exact expectations)."""
    rows = rows or sensible_plans(case, 0, allow_atomics=allow_atomics)
    columns = columns or sensible_plans(case, 1, allow_atomics=allow_atomics)
    arrays = (_dial_arrays(rows.dials), _dial_arrays(columns.dials))
    totals = (case.sides[0].side.tokens.total, case.sides[1].side.tokens.total)
    defender_first = case.defender == case.houses[0]
    n_a, n_b = len(rows.dials), len(columns.dials)
    sides = (case.sides[0].side, case.sides[1].side)
    facts = ((sides[0].dead, sides[1].dead), (sides[0].blocked, sides[1].blocked))  # issue 10 item 4
    # A block depends only on the merged leader-step distribution and the two leaders' strengths (what _block
    # reads): equal keys give equal blocks, computed once (issue 14).
    known: dict[tuple, int] = {}
    grid = np.empty((len(rows.combos), len(columns.combos)), dtype=np.intp)
    # each side's battle side per combo, built once (issue 14): the cell's battle is case.with_plans of the two
    wheels = [[dataclasses.replace(sides[me], plan=plans.plan(Dial(), combo)) for combo in plans.combos]
              for me, plans in enumerate((rows, columns))]
    for (i, combo_a), (j, combo_b) in itertools.product(enumerate(rows.combos), enumerate(columns.combos)):
        battle = Battle(case.territory, case.defender, (wheels[0][i], wheels[1][j]), case.shield_wall_standing)
        # a block depends on the two leaders (strength, and power values: leader.value hooks) and the fates
        key = ((combo_a[0], combo_b[0]), fates_distribution(battle))
        index = known.get(key)
        if index is None:
            index = known[key] = len(known)
        grid[i, j] = index
    # the blocks, once their number is known: one array, filled in place (no list of blocks stacked afterwards)
    blocks = np.zeros((len(known), 4, n_a, n_b))
    for (leaders, distribution), index in known.items():
        for probability, fates in distribution:
            parts = _block(fates, float(probability), leaders, arrays, totals, defender_first,
                           case.houses, dead=facts[0], blocked=facts[1], territory=case.territory,
                           shield_wall_standing=case.shield_wall_standing,
                           voices=(sides[0].voices_against, sides[1].voices_against))
            for total, part in zip(blocks[index], parts, strict=True):
                total += part
    return PlanMatrix(case.houses, rows, columns, blocks, grid)


# -------------------------------------------------------------------------------------------------- equilibrium
@dataclass(frozen=True)
class BattleEquilibrium:
    """Optimal mixed plans of both sides for one metric, and the value of the battle for the first side.

    ``first_plans`` / ``second_plans`` are each side's support as (plan label, probability), most likely first
    (ties in plan order); :attr:`first` / :attr:`second` give them as DataFrames indexed by plan, built when asked.
    """

    houses: tuple[str, str]
    metric: str
    value: float
    first_plans: tuple[tuple[str, float], ...]
    second_plans: tuple[tuple[str, float], ...]
    first_win_probability: float
    second_win_probability: float

    @property
    def first(self) -> pd.DataFrame:
        return _support_frame(self.first_plans)

    @property
    def second(self) -> pd.DataFrame:
        return _support_frame(self.second_plans)

    def to_json(self) -> dict[str, object]:
        """The ``dunenb battle CASE.json --optimal --json`` form."""
        return {
            "metric": self.metric, "value": self.value,
            "win_probability": {self.houses[0]: self.first_win_probability,
                                self.houses[1]: self.second_win_probability},
            "strategies": {
                house: [{"plan": label, "probability": p} for label, p in plans]
                for house, plans in zip(self.houses, (self.first_plans, self.second_plans), strict=True)
            },
        }


def _support(plans: SidePlans, mix: np.ndarray, threshold: float = 1e-9) -> tuple[tuple[str, float], ...]:
    """The plans played with probability above ``threshold``, most likely first, ties in plan order."""
    played = np.flatnonzero(mix > threshold)
    played = played[np.argsort(-mix[played], kind="stable")]
    return tuple((plans.label(int(i)), float(mix[i])) for i in played)


def _support_frame(plans: tuple[tuple[str, float], ...]) -> pd.DataFrame:
    import pandas as pd

    frame = pd.DataFrame({"plan": [label for label, _ in plans], "probability": [p for _, p in plans]})
    return frame.set_index("plan")


def _win_probabilities_at(matrix: PlanMatrix, equilibrium: Equilibrium) -> tuple[float, float]:
    """P(first wins) and P(second wins) when both play their mixes, summed over the supports only."""
    rows, columns = np.flatnonzero(equilibrium.row), np.flatnonzero(equilibrium.column)
    n_a, n_b = matrix.blocks.shape[2:]
    ids = matrix.grid[np.ix_(rows // n_a, columns // n_b)]
    dial_a, dial_b = (rows % n_a)[:, None], (columns % n_b)[None, :]
    x, y = equilibrium.row[rows], equilibrium.column[columns]
    return tuple(float(x @ matrix.blocks[ids, part, dial_a, dial_b] @ y) for part in (0, 1))  # type: ignore


def optimal_plans(case: BattleCase, *, metric: str = "win", matrix: PlanMatrix | None = None) -> BattleEquilibrium:
    """Solve the battle as a zero-sum game (first side maximises the metric, the second minimises it).

    ``metric="win"`` uses P(first wins) - P(second wins), so an explosion counts as a draw (design note: the
    two win probabilities do not always sum to 1, GAP-29b), unless leaders.md S-4 gives it to Burseg's side.
    The equilibrium is exact up to the LP tolerance.
    """
    matrix = matrix or plan_matrix(case)
    equilibrium: Equilibrium = solve_zero_sum(matrix.payoff_array(metric))
    first_win, second_win = _win_probabilities_at(matrix, equilibrium)
    return BattleEquilibrium(
        houses=case.houses, metric=metric, value=equilibrium.value + 0.0,
        first_plans=_support(matrix.rows, equilibrium.row),
        second_plans=_support(matrix.columns, equilibrium.column),
        first_win_probability=first_win, second_win_probability=second_win,
    )
