"""Dune: Imperium leaders: every ability is a power in the data (IMP-GAP-32), each tested by a scene.

The abilities already tested in test_imperium_rules.py (Rabban, Ilban, Memnon, Ariana, Leto's discount, Helena's
Eyes Everywhere) are not repeated; this file covers Paul, Leto's signet, the Baron and Helena's signet.
"""

from __future__ import annotations

from fractions import Fraction

from dunenb.imperium.actions import Agent, Buy, Chance, Choose, Reveal
from dunenb.imperium.engine import advance, apply_action, buy_moves, chance_outcomes, legal_actions, new_game, resume
from dunenb.imperium.rules_data import POWER_TRIGGERS, load_rules
from dunenb.imperium.save import view
from dunenb.imperium.state import Task


def game(leaders: list[str], seed: int = 1):
    """Seat 0 first, the Baron's choice (if any) answered with its first value, at the first agent turn."""
    state = new_game([f"P{i}" for i in range(len(leaders))], seed, leaders)
    while state.pending.kind != "first":
        state = apply_action(state, chance_outcomes(state)[0][0])
    state = advance(apply_action(state, chance_outcomes(state)[0][0]))
    while state.pending.kind == "secret_factions":
        state = advance(apply_action(state, legal_actions(state)[0]))
    return state


def at_turn(state, seat: int = 0, hand: tuple[str, ...] = (), **player):
    state = state.with_player(seat, hand=tuple(sorted(hand)), **player)
    return state.evolve(current=seat, queue=(Task("turn", seat),))


OTHERS = ["glossu_rabban", "memnon_thorvald", "ilban_richese"]


def test_every_leader_has_a_left_and_a_signet_power_all_modelled_gap32():
    rules = load_rules()
    decisions = {d["id"] for d in rules.decisions}
    for leader in rules.leaders.values():
        assert len(leader.at("signet")) == 1, leader.id
        assert any(p.when != "signet" for p in leader.powers), leader.id
        assert all(p.when in POWER_TRIGGERS and p.text for p in leader.powers)
    raw = __import__("json").loads(
        __import__("importlib.resources").resources.files("dunenb.data").joinpath("imperium.json").read_text("utf-8")
    )
    gaps = {p["gap"] for leader in raw["leaders"] for p in leader["powers"] if "gap" in p}
    assert gaps <= decisions and {"IMP-GAP-33", "IMP-GAP-34", "IMP-GAP-35", "IMP-GAP-36"} <= gaps
    assert all("not_modelled" not in leader for leader in raw["leaders"])


def test_leader_paul_prescience_knows_the_top_card_gap33():
    state = new_game(["A", "B"], 2, ["paul_atreides", "glossu_rabban"])
    while state.pending.kind != "peek":
        state = apply_action(state, chance_outcomes(state)[0][0])
    outcomes = dict(chance_outcomes(state))
    assert outcomes[Chance("dagger")] == Fraction(2, 10) and sum(outcomes.values()) == 1
    state = apply_action(state, Chance("dagger"))
    paul = state.players[0]
    assert paul.deck_top == ("dagger",) and len(paul.deck) == 9 and paul.deck_size == 10
    assert view(state, 0)["players"][0]["deck_top"] == ["dagger"]
    assert view(state, 0)["players"][0]["deck"]["dagger"] == 2  # the own deck, top card included
    assert view(state, 1)["players"][0]["deck_top"] is None and view(state, 1)["players"][0]["deck"] == 10
    # the next draw takes the known card without a chance node, then Paul looks at the new top card
    drawn = resume(state.with_player(0, hand=()).evolve(queue=(Task("draw", 0),)))
    assert drawn.players[0].hand == ("dagger",) and drawn.pending.kind == "peek" and not drawn.players[0].deck_top
    assert sum(p for _, p in chance_outcomes(drawn)) == 1 and len(drawn.players[0].deck) == 9


def test_leader_paul_discipline_signet_draws():
    state = at_turn(game(["paul_atreides", *OTHERS]), 0, ("signet_ring",))
    state = apply_action(state, Agent("signet_ring", "hall_of_oratory"))
    state = apply_action(state, Choose("card"))
    assert len(state.players[0].hand) == 1  # the known top card, drawn


def test_leader_leto_prudent_diplomacy_signet_gap34():
    state = at_turn(game(["leto_atreides", *OTHERS]), 0, ("signet_ring",), solari=2)
    state = apply_action(state, Agent("signet_ring", "hall_of_oratory"))
    state = apply_action(state, Choose("card"))
    assert state.pending.kind == "optional"
    state = apply_action(apply_action(state, Choose("yes")), Choose("guild"))
    assert state.players[0].solari == 0 and state.players[0].influence == (0, 1, 0, 0)
    poor = at_turn(game(["leto_atreides", *OTHERS]), 0, ("signet_ring",), solari=1)
    poor = apply_action(apply_action(poor, Agent("signet_ring", "hall_of_oratory")), Choose("card"))
    assert poor.pending.kind != "optional" and poor.players[0].influence == (0, 0, 0, 0)  # cannot pay: nothing


def test_leader_baron_masterstroke_secret_factions_once_per_game_gap35():
    state = new_game(["A", "B"], 3, ["vladimir_harkonnen", "paul_atreides"])
    while state.pending.kind != "secret_factions":
        state = apply_action(state, chance_outcomes(state)[0][0])
    values = [a.value for a in legal_actions(state)]
    assert len(values) == 6 and "emperor+fremen" in values and "emperor+emperor" not in values
    state = advance(apply_action(state, Choose("emperor+fremen")))
    assert state.players[0].secret_factions == ("emperor", "fremen")
    assert view(state, 1)["players"][0]["secret_factions"] is None
    assert view(state, 0)["players"][0]["secret_factions"] == ["emperor", "fremen"]
    # a reveal turn reaching 4 swords (3 from agent turns + a Dagger) strikes once
    scene = at_turn(state, 0, ("dagger",), swords=3)
    struck = apply_action(scene, Reveal())
    baron = struck.players[0]
    assert baron.influence == (1, 0, 0, 1) and baron.used_powers == ("masterstroke",) and baron.secret_shown
    assert view(struck, 1)["players"][0]["secret_factions"] == ["emperor", "fremen"]
    again = resume(struck.with_player(0, swords=9).evolve(queue=(Task("power", 0, ("masterstroke",)),)))
    assert again.players[0].influence == (1, 0, 0, 1)  # once per game
    weak = apply_action(at_turn(state, 0, ("dagger",), swords=2), Reveal())
    assert weak.players[0].influence == (0, 0, 0, 0) and weak.players[0].used_powers == ()


def test_leader_baron_scheme_signet_buys_an_intrigue():
    state = at_turn(game(["vladimir_harkonnen", *OTHERS]), 0, ("signet_ring",), solari=1)
    state = apply_action(apply_action(state, Agent("signet_ring", "hall_of_oratory")), Choose("card"))
    state = apply_action(state, Choose("yes"))
    assert state.players[0].solari == 0 and state.pending.kind == "intrigue"


def test_leader_helena_manipulate_sets_a_row_card_aside_gap36():
    state = at_turn(game(["helena_richese", *OTHERS]), 0, ("signet_ring",))
    card = state.row[0]
    state = apply_action(apply_action(state, Agent("signet_ring", "hall_of_oratory")), Choose("card"))
    assert state.pending.kind == "reserve" and {card, "none"} <= {a.value for a in legal_actions(state)}
    state = apply_action(state, Choose(card))
    assert state.players[0].reserved == (card,) and state.pending.kind == "row" and len(state.row) == 4
    state = apply_action(state, chance_outcomes(state)[0][0])
    assert len(state.row) == 5
    cost = load_rules().cards[card].cost
    buying = state.with_player(0, persuasion=cost - 1).with_player(1, persuasion=cost - 1)
    assert Buy(card) in buy_moves(buying, 0)
    assert card in state.row or Buy(card) not in buy_moves(buying, 1)  # only Helena buys it
    bought = resume(buying.evolve(queue=(Task("buy", 0),)))
    bought = apply_action(bought, Buy(card))
    assert bought.players[0].reserved == () and card in bought.players[0].discard and bought.players[0].persuasion == 0
    assert len(bought.row) == 5  # nothing to refill


def test_leader_power_data_errors_name_the_field():
    import json
    from importlib import resources

    import pytest

    from dunenb.errors import RulesDataError
    from dunenb.imperium.rules_data import parse_rules

    raw = json.loads(resources.files("dunenb.data").joinpath("imperium.json").read_text(encoding="utf-8"))
    bad = json.loads(json.dumps(raw))
    bad["leaders"][0]["powers"][0]["when"] = "whenever"
    with pytest.raises(RulesDataError) as error:
        parse_rules(bad)
    assert "leaders[0].powers[0].when" in error.value.message and "deck_top" in error.value.message
    bad = json.loads(json.dumps(raw))
    bad["leaders"][1]["powers"][0] = {"id": "x", "name": "X", "when": "discount", "text": "t", "icons": ["landsraad"]}
    with pytest.raises(RulesDataError) as error:
        parse_rules(bad)
    assert "leaders[1].powers[0]" in error.value.message and "discount: icons and cost" in error.value.message


def test_heuristic_bot_sets_the_dearest_row_card_aside():
    from dunenb.imperium.bots import make_bot

    state = at_turn(game(["helena_richese", *OTHERS]), 0, ("signet_ring",))
    state = apply_action(apply_action(state, Agent("signet_ring", "hall_of_oratory")), Choose("card"))
    cards = load_rules().cards
    choice = make_bot("heuristic").choose(state)
    assert cards[choice.value].cost == max(cards[c].cost for c in state.row)
