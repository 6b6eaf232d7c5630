"""Static bqplot charts of battles: the seed's wheel and shield examples, plan matrices and optimal plans.

Each chart function returns a titled :class:`bqplot.Figure` with labelled axes, coloured by House
(:func:`dunenb.battle.colours.house_colour`); the ``*_table`` functions return the DataFrame the chart draws,
computed by library calls only.

>>> from dunenb.battle.case import load_example_case
>>> case = load_example_case("analysis_arrakeen")
>>> figure = plan_matrix_heatmap(cards_matrix(case))
>>> figure.title
'Plan against plan: win margin for the atreides (dials fixed)'
>>> figure.marks[0].color.shape
(18, 37)
"""

from __future__ import annotations

from collections.abc import Iterable

import ipywidgets as widgets
import numpy as np
import pandas as pd
from bqplot import Axis, Bars, ColorAxis, ColorScale, Figure, GridHeatMap, LinearScale, OrdinalScale

from dunenb.analysis.battle_odds import (
    BattleEquilibrium,
    PlanMatrix,
    SidePlans,
    plan_matrix,
    sensible_plans,
    win_probabilities,
)
from dunenb.battle.case import BattleCase, case_outcomes, load_example_case
from dunenb.battle.colours import NEUTRAL_COLOUR, house_colour
from dunenb.battle.wheel import Dial, army_value

#: The seed's seven wheel examples (WHEEL-3, L1693-1705): (unmarked tokens, marked tokens, spice).
SEED_WHEEL_EXAMPLES: tuple[tuple[int, int, int], ...] = (
    (2, 0, 0), (2, 0, 1), (3, 0, 1), (3, 0, 2), (1, 1, 0), (1, 1, 1), (3, 2, 3),
)
#: Colour of "tokens lost" bars: a loss, not a House.
LOSS_COLOUR = NEUTRAL_COLOUR
_LEGEND_ROOM = 1.3  # y headroom above the tallest bar, so that the legend never covers a bar
_PERCENT_TICKS = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
#: Room on the left for percentage ticks, with the vertical axis label clear of them.
_LEFT_MARGIN, _LEFT_LABEL_OFFSET = 80, "55px"
_METRIC_LABELS = {"win": "win margin", "spice": "spice balance", "tokens": "token balance"}


# ------------------------------------------------------------------------------------------------- the wheel
def wheel_examples_table(examples: Iterable[tuple[int, int, int]] = SEED_WHEEL_EXAMPLES) -> pd.DataFrame:
    """Tokens lost and value shown for each dial ``(unmarked, marked, spice)``, indexed by a short label.

    >>> wheel_examples_table([(3, 2, 3)]).loc["3u+2m, 3 spice", "shown on the wheel"]
    np.float64(6.0)
    """
    rows = [{"dial": f"{r}u+{e}m, {s} spice", "unmarked": r, "marked": e, "spice": s, "tokens lost": r + e,
             "shown on the wheel": float(army_value(Dial(r, e, s)))} for r, e, s in examples]
    return pd.DataFrame(rows).set_index("dial")


def wheel_examples_chart(table: pd.DataFrame | None = None, *, house: str = "fremen") -> Figure:
    """Grouped bars: tokens lost (grey) against the value shown on the wheel (in ``house``'s colour)."""
    table = wheel_examples_table() if table is None else table
    top = float(max(table["tokens lost"].max(), table["shown on the wheel"].max()))
    x, y = OrdinalScale(), LinearScale(min=0, max=_LEGEND_ROOM * top)
    bars = Bars(x=list(table.index), y=[table["tokens lost"].to_numpy(), table["shown on the wheel"].to_numpy()],
                type="grouped", scales={"x": x, "y": y}, colors=[LOSS_COLOUR, house_colour(house)],
                labels=["tokens lost", "shown on the wheel"], display_legend=True)
    return Figure(marks=[bars], title="Seed wheel examples: tokens lost vs value shown",
                  axes=[Axis(scale=x, label="dial"),
                        Axis(scale=y, side="left", label="tokens / wheel value")],
                  legend_location="top-left", fig_margin={"top": 60, "bottom": 60, "left": 60, "right": 20},
                  layout=widgets.Layout(width="760px", height="320px"))


# ------------------------------------------------------------------------------------------------ the shield
def shield_examples_table(numbers: Iterable[int] = (1, 2, 3, 4)) -> pd.DataFrame:
    """The seed's shield examples (CARD-SHIELD-2): cards of both players, P(each leader dies), P(player 1 wins).

    The two Houses of the examples are kept in ``table.attrs["houses"]`` (for the chart's colours).

    >>> shield_examples_table([1]).loc[1, "player 1"]
    'projectile-contact + shield'
    """
    rows, houses = [], ("", "")
    for number in numbers:
        case = load_example_case(f"shield_example_{number}")
        houses = case.houses
        distribution = case_outcomes(case)

        def dies(index: int, distribution=distribution) -> float:
            return sum(float(p) for p, outcome in distribution if outcome.sides[index].leader_fate == "dead")

        plans = [side.plan for side in case.sides]
        rows.append({"example": number, "player 1": f"{plans[0].weapon} + {plans[0].defense}",
                     "player 2": f"{plans[1].weapon} + {plans[1].defense}",
                     "P(leader 1 dies)": dies(0), "P(leader 2 dies)": dies(1),
                     "P(player 1 wins)": win_probabilities(distribution).get(houses[0], 0.0)})
    table = pd.DataFrame(rows).set_index("example")
    table.attrs["houses"] = houses
    return table


def shield_examples_chart(table: pd.DataFrame | None = None) -> Figure:
    """Grouped bars: probability that each player's leader dies, per seed example, in the players' colours."""
    table = shield_examples_table() if table is None else table
    houses = table.attrs.get("houses", (None, None))
    x, y = OrdinalScale(), LinearScale(min=0, max=_LEGEND_ROOM + 0.1)
    bars = Bars(x=[f"example {n}" for n in table.index],
                y=[table["P(leader 1 dies)"].to_numpy(), table["P(leader 2 dies)"].to_numpy()], type="grouped",
                scales={"x": x, "y": y}, colors=[house_colour(houses[0]), house_colour(houses[1])],
                labels=["leader of player 1", "leader of player 2"], display_legend=True)
    return Figure(marks=[bars], title="Shield examples: probability that each leader dies",
                  axes=[Axis(scale=x, label="seed example"),
                        Axis(scale=y, side="left", label="probability of death", tick_format=".0%",
                             tick_values=_PERCENT_TICKS, label_offset=_LEFT_LABEL_OFFSET)],
                  legend_location="top-right",
                  fig_margin={"top": 60, "bottom": 60, "left": _LEFT_MARGIN, "right": 20},
                  layout=widgets.Layout(width="660px", height="340px"))


# ------------------------------------------------------------------------------------------------ plan matrix
def cards_matrix(case: BattleCase) -> PlanMatrix:
    """The plan matrix of the case's card-and-leader choices, with each side's dial fixed to the case's own.

    Small enough to read as a heatmap: one row per (leader, attack, defence) of the first side.
    """
    rows, columns = (_with_case_dial(case, index) for index in (0, 1))
    return plan_matrix(case, rows=rows, columns=columns)


def _with_case_dial(case: BattleCase, index: int) -> SidePlans:
    plans = sensible_plans(case, index)
    return SidePlans(plans.house, plans.combos, (case.sides[index].plan.dial,), plans.karama)


def _short_labels(labels: tuple[str, ...]) -> list[str]:
    """Drop the dial from plan labels (``leader weapon/defence``) when that keeps them unique."""
    short = [" ".join(label.split(" ")[:2]) for label in labels]
    return short if len(set(short)) == len(short) else list(labels)


def plan_matrix_heatmap(matrix: PlanMatrix, *, metric: str = "win", title: str | None = None) -> Figure:
    """A heatmap of the payoff to the first side (``win``: P(first wins) - P(second wins)), from the second
    side's colour (it does best) through white to the first side's colour."""
    first, second = matrix.houses
    payoff = matrix.payoff(metric)
    values = payoff.to_numpy()
    bound = 1.0 if metric == "win" else max(float(np.abs(values).max()), 1e-9)
    dials_fixed = len(matrix.rows.dials) == 1 and len(matrix.columns.dials) == 1
    scales = {"row": OrdinalScale(reverse=True), "column": OrdinalScale(),
              "color": ColorScale(min=-bound, max=bound, mid=0,
                                  colors=[house_colour(second), "#f7f7f7", house_colour(first)])}
    heat = GridHeatMap(row=_short_labels(matrix.rows.labels), column=_short_labels(matrix.columns.labels),
                       color=values, scales=scales)
    label = _METRIC_LABELS.get(metric, metric)
    # Column labels read upwards and end at their tick ("end" anchor): centred, half of each would hide under
    # the cells.
    axes = [Axis(scale=scales["column"], label=f"{second} plan (leader, attack/defence)", tick_rotate=-90,
                 tick_style={"font-size": "9px", "text-anchor": "end"}, label_offset="190px"),
            Axis(scale=scales["row"], side="left", label=f"{first} plan", tick_style={"font-size": "9px"},
                 label_offset="210px"),
            ColorAxis(scale=scales["color"], side="right", label=label, tick_format=".1f")]
    default = f"Plan against plan: {label} for the {first}" + (" (dials fixed)" if dials_fixed else "")
    return Figure(marks=[heat], axes=axes, title=title or default,
                  fig_margin={"top": 60, "bottom": 210, "left": 230, "right": 110},
                  layout=widgets.Layout(width="1000px", height="680px"))


# ----------------------------------------------------------------------------------------------- optimal plans
def equilibrium_support(equilibrium: BattleEquilibrium) -> pd.DataFrame:
    """The plans each side plays with positive probability, indexed by (House, plan)."""
    first, second = equilibrium.houses
    return pd.concat({first: equilibrium.first, second: equilibrium.second}, names=["house", "plan"])


def optimal_plans_chart(equilibrium: BattleEquilibrium) -> Figure:
    """Horizontal bars of the optimal mixed plans of both sides, in each House's colour; the title gives the
    value of the battle and the first side's chance to win."""
    support = equilibrium_support(equilibrium)
    first = equilibrium.houses[0]
    x, y = OrdinalScale(reverse=True), LinearScale(min=0, max=1)
    bars = Bars(x=[f"{house}: {plan}" for house, plan in support.index], y=support["probability"].to_numpy(),
                scales={"x": x, "y": y}, orientation="horizontal", padding=0.3,
                colors=[house_colour(house) for house, _ in support.index])
    title = (f"Optimal mixed plans: value {equilibrium.value:+.3f}, "
             f"P({first} wins) = {equilibrium.first_win_probability:.1%}")
    return Figure(marks=[bars], title=title,
                  axes=[Axis(scale=x, side="left", label="plan", tick_style={"font-size": "10px"},
                             label_offset="320px"),
                        Axis(scale=y, side="bottom", label="probability", tick_format=".0%",
                             tick_values=_PERCENT_TICKS)],
                  fig_margin={"top": 50, "bottom": 50, "left": 340, "right": 40},
                  layout=widgets.Layout(width="1000px", height=f"{120 + 40 * len(support)}px"))
