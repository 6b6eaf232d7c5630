"""Short English text for effects, costs and actions (for tables, the notebook and logs).

>>> from dunenb.imperium.rules_data import load_rules
>>> describe_effects(load_rules().space("sell_melange").effects)
'+6 solari; may pay 1 spice: +2 solari; may pay 1 spice: +2 solari; may pay 1 spice: +2 solari'
>>> describe_cost((("spice", 4),))
'4 spice'
"""

from __future__ import annotations

from dunenb.imperium.rules_data import Cost, Effect, Effects


def describe_cost(cost: Cost) -> str:
    """``4 spice, 1 water`` (``-`` when free)."""
    return ", ".join(f"{amount} {resource}" for resource, amount in cost) or "-"


def _condition(condition: object) -> str:
    if condition == "fremen_bond":
        return "Fremen bond"
    if condition == "alliance":
        return "holding an alliance"
    assert isinstance(condition, tuple)
    if condition[0] == "factions_at":
        return f"{condition[2]} factions at {condition[1]}+ influence"
    if condition[0] == "swords_at_least":
        return f"{condition[1]}+ swords"
    if condition[0] == "owns_most":
        return f"owning more {condition[1]} than every opponent"
    return f"owning {condition[2]} {condition[1]}"


def describe_effect(effect: Effect) -> str:
    name: str = effect[0]
    if name == "gain":
        return ", ".join(f"+{amount} {resource}" for resource, amount in effect[1])
    if name == "lose":
        return ", ".join(f"-{amount} {resource}" for resource, amount in effect[1])
    if name in ("recruit", "draw", "intrigue", "persuasion", "swords", "vp"):
        unit = {
            "recruit": "troop",
            "draw": "card",
            "intrigue": "intrigue",
            "persuasion": "persuasion",
            "swords": "sword",
            "vp": "VP",
        }[name]
        plural = "s" if effect[1] != 1 and name in ("recruit", "draw", "intrigue", "swords") else ""
        return f"+{effect[1]} {unit}{plural}"
    if name == "influence":
        return f"+1 influence ({effect[1]})"
    if name == "control":
        return f"control of {effect[1]}"
    if name == "trash":
        return "trash this card" if effect[1] == "self" else "trash a card"
    if name == "optional":
        return f"may pay {describe_cost(effect[1])}: {describe_effects(effect[2])}"
    if name == "if":
        return f"if {_condition(effect[1])}: {describe_effects(effect[2])}"
    if name == "per":
        return f"per {effect[1][1]} card in play: {describe_effects(effect[2])}"
    if name == "one_of":
        return " or ".join(f"({describe_effects(option)})" for option in effect[1])
    if name == "harvest":
        return "+ the bonus spice"
    return {
        "mentat": "take the Mentat",
        "swordmaster": "gain the Swordmaster",
        "council_seat": "High Council seat",
        "steal_intrigue": "intrigue steal",
        "signet": "signet ring",
        "acquire": "gain a card",
        "secret_factions": "choose factions secretly",
        "secret_influence": "+1 influence with each secret faction",
        "reserve_row": "set a row card aside",
    }.get(name, name)


def describe_effects(effects: Effects) -> str:
    """Effects joined by ``;`` (``-`` for none)."""
    return "; ".join(describe_effect(effect) for effect in effects) or "-"
