"""Battles of the French Dune variant: the wheel, the cards, traitors, exact resolution, cases.

Modules (each with one job): ``wheel`` (army value, WHEEL-1..4), ``cards`` (weapons and defences),
``roster`` (the 104 leaders as data), ``plans`` (battle plans and sides), ``resolve`` (the pure resolution
function and its outcome record), ``traitors`` (the draw and who may call), ``order`` (battle order and leader
commitments), ``sequence`` (the pre-reveal steps), ``case`` (battle case files), ``colours`` and ``cli``.
Leader powers are described in the roster but not yet applied in battle.
"""
