"""Dune: Imperium rules, one test per rule of seed 001 (and per IMP-GAP decision it needs).

Scenes are built from a real setup, then edited with ``with_player``/``evolve`` and resumed with a task.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from dunenb.errors import IllegalActionError
from dunenb.imperium.actions import Agent, Chance, Choose, Pass, PlayIntrigue, Reveal
from dunenb.imperium.combat import placements, strength
from dunenb.imperium.effects import change_influence, run_effects, victory_points
from dunenb.imperium.engine import (
    advance,
    apply_action,
    chance_outcomes,
    conflict_level,
    legal_actions,
    new_game,
    resume,
)
from dunenb.imperium.rules_data import load_rules
from dunenb.imperium.state import Task

LEADERS4 = ["paul_atreides", "helena_richese", "vladimir_harkonnen", "leto_atreides"]


def game(players: int = 4, seed: int = 1, leaders: list[str] | None = None):
    """The first player's first agent turn, first player forced to seat 0 by replaying the 'first' node."""
    state = new_game([f"P{i}" for i in range(players)], seed, leaders or LEADERS4[:players])
    while state.pending.kind != "first":
        state = apply_action(state, chance_outcomes(state)[0][0])
    state = advance(apply_action(state, chance_outcomes(state)[0][0]))  # seat 0 first
    while state.pending.kind == "secret_factions":  # the Baron's Masterstroke choice (IMP-GAP-35)
        state = advance(apply_action(state, legal_actions(state)[0]))
    return state


def at_turn(state, seat: int = 0, hand: tuple[str, ...] = (), **player):
    """The same position with ``seat`` to play an agent turn holding ``hand``."""
    state = state.with_player(seat, hand=tuple(sorted(hand)), **player)
    return state.evolve(current=seat, queue=(Task("turn", seat),))


def choose_all(state, answers: dict[str, str] | None = None):
    """Answer pending questions (order: first allowed value; others from ``answers``) until a turn or chance."""
    answers = answers or {}
    while state.pending and state.pending.kind in ("order", "optional", "faction", "trash", "one_of", "deploy"):
        kind = state.pending.kind
        values = [a.value for a in legal_actions(state)]
        answer = answers.get(kind)
        state = apply_action(
            state, Choose(answer if answer in values else values[-1] if kind == "deploy" else values[0])
        )
    return state


# --------------------------------------------------------------------------------------------- setup


@pytest.mark.parametrize(("players", "score"), [(2, 0), (3, 0), (4, 1)])
def test_setup_score_marker_on_1_at_4_players_else_0(players, score):
    state = new_game([f"P{i}" for i in range(players)], 0)
    assert [p.score for p in state.players] == [score] * players
    assert [victory_points(state, s) for s in range(players)] == [score] * players


def test_setup_player_material():
    state = new_game(["A", "B", "C"], 0, ["paul_atreides", "leto_atreides", "ariana_thorvald"])
    for p in state.players:
        assert len(p.deck) == 10 and p.hand == () and p.water == 1 and p.solari == 0 and p.spice == 0
        assert (p.garrison, p.supply, p.conflict) == (3, 9, 0)
        assert p.agents == 2 and not p.swordmaster and p.influence == (0, 0, 0, 0)
    assert state.alliances == (-1,) * 4 and state.control == (-1,) * 3
    assert state.players[0].deck.count("dagger") == 2 and state.players[0].deck.count("convincing_argument") == 2


def test_setup_first_player_at_random_and_row_of_five():
    state = new_game(["A", "B", "C"], 5)
    while state.pending.kind == "row":
        state = apply_action(state, chance_outcomes(state)[-1][0])
    assert len(state.row) == 5
    outcomes = chance_outcomes(state)
    assert [a.player for a, _ in outcomes] == [0, 1, 2] and {p for _, p in outcomes} == {Fraction(1, 3)}


def test_setup_conflict_deck_one_level_i_then_five_ii_then_four_iii():
    assert [conflict_level(r) for r in range(1, 12)] == ["I"] + ["II"] * 5 + ["III"] * 4 + [None]
    state = game()
    assert load_rules().conflicts[state.conflict].level == "I"


def test_leader_setup_bonus_rabban():
    state = new_game(["A", "B"], 0, ["glossu_rabban", "paul_atreides"])
    assert (state.players[0].spice, state.players[0].solari) == (1, 1)
    assert (state.players[1].spice, state.players[1].solari) == (0, 0)


# --------------------------------------------------------------------------------------------- round start


def test_phase1_round_start_reveals_conflict_and_draws_five():
    state = game()
    assert state.round == 1 and state.conflict is not None
    assert [len(p.hand) for p in state.players] == [5] * 4 and [p.deck_size for p in state.players] == [5] * 4


def test_draw_chance_node_probabilities_follow_copies():
    state = new_game(["A", "B"], 0)
    state = state.evolve(queue=(Task("draw", 0),) + state.queue)
    outcomes = dict((a.card, p) for a, p in chance_outcomes(state))
    assert outcomes["dagger"] == Fraction(2, 10) and outcomes["diplomacy"] == Fraction(1, 10)
    assert sum(outcomes.values()) == 1


def test_empty_deck_shuffles_the_discard_in():
    state = game().with_player(0, deck=(), deck_top=(), discard=("dagger", "dagger", "diplomacy"))
    state = resume(state.evolve(queue=(Task("draw", 0),)))
    assert state.players[0].discard == () and len(state.players[0].deck) == 3
    assert dict((a.card, p) for a, p in chance_outcomes(state)) == {
        "dagger": Fraction(2, 3),
        "diplomacy": Fraction(1, 3),
    }


# --------------------------------------------------------------------------------------------- agent turns


def test_agent_needs_matching_icon():
    state = at_turn(game(), 0, ("dagger", "convincing_argument"), solari=4)
    moves = legal_actions(state)
    assert Agent("dagger", "rally_troops") in moves
    assert not any(isinstance(m, Agent) and m.card == "convincing_argument" for m in moves)  # no agent icon
    with pytest.raises(IllegalActionError) as error:
        apply_action(state, Agent("dagger", "arrakeen"))
    assert error.value.code == "imperium/bad-agent" and "no city icon" in error.value.message


def test_agent_space_must_be_unoccupied():
    state = at_turn(game(), 0, ("dagger",), solari=0)
    state = state.evolve(occupied=tuple(1 if s.id == "hall_of_oratory" else -1 for s in load_rules().spaces))
    assert Agent("dagger", "hall_of_oratory") not in legal_actions(state)


def test_agent_pays_space_cost_immediately():
    state = at_turn(game(), 0, ("diplomacy",), water=1)
    assert Agent("diplomacy", "hardy_warriors") in legal_actions(state)
    after = apply_action(state, Agent("diplomacy", "hardy_warriors"))
    assert after.players[0].water == 0
    poor = at_turn(game(), 0, ("diplomacy",), water=0)
    assert Agent("diplomacy", "hardy_warriors") not in legal_actions(poor)


def test_agent_space_card_and_influence_in_chosen_order():
    state = at_turn(game(), 0, ("diplomacy",))
    state = apply_action(state, Agent("diplomacy", "wealth"))
    assert state.pending.kind == "order" and [a.value for a in legal_actions(state)] == ["space", "influence"]
    state = apply_action(state, Choose("influence"))  # the space, left alone, resolves by itself
    assert state.players[0].influence[0] == 1 and state.players[0].solari == 2
    assert state.pending.kind == "turn" and state.pending.player == 1


def test_agent_deploys_recruited_plus_two_from_garrison():
    state = at_turn(game(), 0, ("diplomacy",), water=1)
    state = apply_action(state, Agent("diplomacy", "hardy_warriors"))
    state = apply_action(state, Choose("space"))
    state = resume(state)
    assert state.pending.kind == "deploy"
    assert [a.value for a in legal_actions(state)] == ["0", "1", "2", "3", "4"]  # 2 recruited + 2 of the 3
    state = apply_action(state, Choose("3"))
    assert (state.players[0].conflict, state.players[0].garrison) == (3, 2)


def test_agent_non_combat_space_deploys_nothing():
    state = at_turn(game(), 0, ("dagger",), solari=4)
    state = choose_all(apply_action(state, Agent("dagger", "rally_troops")))
    assert state.players[0].garrison == 7 and state.players[0].conflict == 0 and state.pending.kind == "turn"


def test_player_without_agent_must_reveal():
    state = at_turn(game(), 0, ("dagger",), placed=2)
    assert [a for a in legal_actions(state) if isinstance(a, Agent)] == []
    assert Reveal() in legal_actions(state)


def test_seek_allies_trashes_itself():
    state = at_turn(game(), 0, ("seek_allies",))
    state = choose_all(apply_action(state, Agent("seek_allies", "secrets")), {"order": "card"})
    assert "seek_allies" in state.players[0].trashed and "seek_allies" not in state.players[0].owned()


def test_sell_melange_optional_steps():
    state = at_turn(game(), 0, ("dune_the_desert_planet",), spice=4)
    state = apply_action(state, Agent("dune_the_desert_planet", "sell_melange"))
    state = choose_all(state, {"optional": "yes"})
    assert (state.players[0].spice, state.players[0].solari) == (0, 10)  # 4 spice -> 10 solari


def test_leto_landsraad_discount():
    state = at_turn(
        game(leaders=["leto_atreides", "paul_atreides", "helena_richese", "ariana_thorvald"]), 0, ("dagger",), solari=3
    )
    assert Agent("dagger", "rally_troops") in legal_actions(state)
    assert choose_all(apply_action(state, Agent("dagger", "rally_troops"))).players[0].solari == 0


def test_swordmaster_third_agent_once_gap10():
    state = at_turn(game(), 0, ("dagger", "dagger"), solari=16)
    state = choose_all(apply_action(state, Agent("dagger", "swordmaster")))
    assert state.players[0].agents == 3 and state.players[0].agents_left == 2
    again = at_turn(state, 0, ("dagger",))
    assert Agent("dagger", "swordmaster") not in legal_actions(again.evolve(occupied=(-1,) * 22))


def test_mentat_is_an_extra_agent_for_the_round_gap11():
    state = at_turn(game(), 0, ("dagger",), solari=2)
    state = choose_all(apply_action(state, Agent("dagger", "mentat")))
    while state.is_chance:
        state = apply_action(state, chance_outcomes(state)[0][0])
    assert state.players[0].mentat and state.players[0].agents_left == 2


def test_high_council_seat_adds_two_persuasion_gap9():
    state = at_turn(game(), 0, ("dagger",), solari=5)
    state = choose_all(apply_action(state, Agent("dagger", "high_council")))
    assert state.players[0].council
    state = at_turn(state, 0, ("convincing_argument",))
    state = apply_action(state, Reveal())
    assert state.players[0].persuasion == 4 and state.pending.kind == "buy"


def test_secrets_steals_from_opponents_with_four_intrigues_gap20():
    state = at_turn(game(), 0, ("diplomacy",))
    state = state.with_player(1, intrigues=("ambush", "ambush", "windfall", "bribery"))
    state = state.with_player(2, intrigues=("ambush", "windfall", "bribery"))
    state = apply_action(state, Agent("diplomacy", "secrets"))
    state = apply_action(state, Choose("space"))
    assert state.pending.kind == "intrigue"
    state = apply_action(state, chance_outcomes(state)[0][0])
    assert state.pending.kind == "steal" and state.pending.data == (1,)
    assert dict((a.card, p) for a, p in chance_outcomes(state)) == {
        "ambush": Fraction(1, 2),
        "bribery": Fraction(1, 4),
        "windfall": Fraction(1, 4),
    }
    state = apply_action(state, Chance("ambush"))
    assert len(state.players[1].intrigues) == 3 and "ambush" in state.players[0].intrigues
    assert state.pending.kind != "steal"  # seat 2 holds only 3


def test_fremen_bond_needs_another_fremen_card_gap6():
    state = game().with_player(0, played=("arrakis_liaison",), revealed=("crysknife",))
    bonded = resume(run_effects(state, 0, load_rules().cards["crysknife"].reveal, "crysknife"))
    assert bonded.players[0].influence[3] == 1
    alone = game().with_player(0, played=("dagger",), revealed=("crysknife",))
    assert (
        resume(run_effects(alone, 0, load_rules().cards["crysknife"].reveal, "crysknife")).players[0].influence[3] == 0
    )


# --------------------------------------------------------------------------------------------- reveal


def test_reveal_persuasion_buys_and_cleanup():
    state = at_turn(game(), 0, ("convincing_argument", "convincing_argument", "diplomacy", "dagger"))
    state = state.evolve(row=("space_travel",) + state.row[1:])
    state = apply_action(state, Reveal())
    assert state.players[0].persuasion == 5 and state.players[0].swords == 1
    assert Pass() in legal_actions(state)
    from dunenb.imperium.actions import Buy

    assert Buy("space_travel") in legal_actions(state) and Buy("the_spice_must_flow") not in legal_actions(state)
    state = apply_action(state, Buy("space_travel"))
    assert state.players[0].persuasion == 2 and "space_travel" in state.players[0].discard
    assert state.pending.kind == "row"  # the row is refilled at once
    state = apply_action(state, chance_outcomes(state)[0][0])
    assert len(state.row) == 5
    state = apply_action(state, Pass())
    p = state.players[0]
    assert p.done and p.persuasion == 0 and p.revealed == () and len(p.discard) == 5  # 4 revealed + 1 bought
    assert p.swords == 1  # kept for the combat


def test_the_spice_must_flow_gives_a_vp_when_acquired():
    state = at_turn(game(), 0, ()).with_player(0, persuasion=9)
    state = apply_action(state, Reveal())
    from dunenb.imperium.actions import Buy

    before = victory_points(state, 0)
    state = apply_action(state, Buy("the_spice_must_flow"))
    assert victory_points(state, 0) == before + 1


@pytest.mark.parametrize(("troops", "swords", "expected"), [(3, 1, 7), (0, 4, 0), (2, 0, 4), (1, 5, 7)])
def test_strength_two_per_troop_plus_swords_zero_without_troop(troops, swords, expected):
    assert strength(troops, swords) == expected


# --------------------------------------------------------------------------------------------- combat


def combat_scene(troops, swords, conflict="guild_bank_raid", players=4):
    state = game(players)
    for seat, (t, s) in enumerate(zip(troops, swords, strict=True)):
        state = state.with_player(seat, conflict=t, swords=s, supply=9 - t, intrigues=(), hand=())
    return state.evolve(conflict=conflict, queue=(Task("combat_start"),))


def solari(state):
    return [p.solari for p in state.players]


def test_combat_rewards_by_rank_at_four_players():
    state = resume(combat_scene([3, 2, 1, 0], [0, 0, 0, 5]))
    assert solari(state) == [6, 4, 2, 0]
    assert state.history[-1]["rewards"] == [1, 2, 3, None]


def test_combat_third_reward_only_at_four_players():
    state = resume(combat_scene([3, 2, 1], [0, 0, 0], players=3))
    assert solari(state) == [6, 4, 0]


def test_combat_tie_for_first_gives_second_reward_gap3():
    assert solari(resume(combat_scene([2, 2, 1, 0], [1, 1, 0, 0]))) == [4, 4, 2, 0]
    assert placements([9, 9, 5, 3]) == [2, 2, 3, None]


def test_combat_tie_for_second_gives_third_tie_for_third_nothing():
    assert solari(resume(combat_scene([3, 1, 1, 0], [0, 0, 0, 0]))) == [6, 2, 2, 0]
    assert solari(resume(combat_scene([3, 2, 1, 1], [0, 0, 0, 0]))) == [6, 4, 0, 0]


def test_combat_zero_strength_takes_nothing_and_troops_go_to_supply():
    state = resume(combat_scene([1, 0, 0, 0], [0, 3, 0, 0]))
    assert solari(state) == [6, 0, 0, 0]
    assert [p.conflict for p in state.players] == [0] * 4 and state.players[0].supply == 9
    assert state.players[0].garrison == 3  # not back to the garrison


def test_combat_intrigues_until_all_pass_in_a_row():
    state = combat_scene([1, 2, 0, 0], [0, 0, 0, 0]).with_player(0, intrigues=("ambush", "master_tactician"))
    state = resume(state)
    assert state.pending.kind == "combat_turn" and state.pending.player == 0
    state = apply_action(state, PlayIntrigue("ambush"))  # 2 + 4 = 6 > 4
    assert state.pending.kind == "combat_turn" and state.pending.player == 0  # seat 1 passes automatically, gap8
    state = apply_action(state, Pass())
    assert solari(state)[:2] == [6, 4]
    assert state.players[0].intrigues == ("master_tactician",)


def test_combat_intrigue_needs_a_troop_in_conflict():
    state = resume(combat_scene([0, 2, 0, 0], [0, 0, 0, 0]).with_player(0, intrigues=("ambush",)))
    assert state.pending.kind != "combat_turn" and solari(state) == [0, 6, 0, 0]


# --------------------------------------------------------------------------------------------- makers, recall


def test_makers_accumulate_on_unoccupied_spaces_and_are_harvested():
    rules = load_rules()
    index = rules.space_index
    state = combat_scene([0, 0, 0, 0], [0, 0, 0, 0])
    occupied = [-1] * len(rules.spaces)
    occupied[index["hagga_basin"]] = 1
    state = resume(state.evolve(occupied=tuple(occupied)))
    bonus = {s: state.bonus_spice[index[s]] for s in ("imperial_basin", "hagga_basin", "great_flat")}
    assert bonus == {"imperial_basin": 1, "hagga_basin": 0, "great_flat": 1}
    state = resume(combat_scene([0, 0, 0, 0], [0, 0, 0, 0]).evolve(bonus_spice=state.bonus_spice))
    assert state.bonus_spice[index["great_flat"]] == 2  # it accumulates round after round
    state = at_turn(state, 0, ("dune_the_desert_planet",), water=2)
    state = choose_all(apply_action(state, Agent("dune_the_desert_planet", "great_flat")))
    assert state.players[0].spice == 3 + 2 and state.bonus_spice[index["great_flat"]] == 0


def test_recall_returns_agents_mentat_and_passes_first_player():
    state = combat_scene([0, 0, 0, 0], [0, 0, 0, 0]).with_player(2, placed=2, mentat=True, done=True)
    state = resume(state.evolve(occupied=(2,) * 22))
    assert state.first == 1 and state.round == 2
    assert state.players[2].placed == 0 and not state.players[2].mentat and not state.players[2].done
    assert state.occupied == (-1,) * 22


# --------------------------------------------------------------------------------------------- influence


def test_influence_vp_at_two_lost_below_two():
    state = game(2)
    state, _ = change_influence(state, 0, "guild", 2)
    assert victory_points(state, 0) == 1
    state, _ = change_influence(state, 0, "guild", -1)
    assert victory_points(state, 0) == 0


def test_influence_four_gives_bonus_once_and_alliance_gap5():
    state = game(2)
    state, bonus = change_influence(state, 0, "guild", 4)
    assert bonus == load_rules().influence_bonus["guild"] and state.alliances[1] == 0
    assert victory_points(state, 0) == 2  # 1 for influence 2+, 1 for the alliance token
    state, _ = change_influence(state, 0, "guild", -1)
    state, bonus = change_influence(state, 0, "guild", 1)
    assert bonus == ()


def test_influence_bonus_is_applied_by_the_influence_step():
    state = at_turn(game(), 0, ("diplomacy",)).with_player(0, influence=(0, 3, 0, 0))
    state = choose_all(apply_action(state, Agent("diplomacy", "foldspace")))
    p = state.players[0]
    assert p.influence[1] == 4 and p.solari == 3 and state.alliances[1] == 0 and "foldspace" in p.discard


def test_alliance_changes_hands_only_when_passed_gap4():
    state = game(3)
    state, _ = change_influence(state, 0, "fremen", 4)
    state, _ = change_influence(state, 1, "fremen", 4)
    assert state.alliances[3] == 0  # equal: the holder keeps it
    state, _ = change_influence(state, 1, "fremen", 1)
    assert state.alliances[3] == 1 and victory_points(state, 0) == 1 and victory_points(state, 1) == 2


def test_alliance_holder_losing_a_tie_hands_it_over_gap4():
    state = game(3)
    state, _ = change_influence(state, 0, "guild", 5)
    state, _ = change_influence(state, 1, "guild", 5)
    assert state.alliances[1] == 0
    state, _ = change_influence(state, 0, "guild", -1)  # FAQ: the player tied with the holder takes it
    assert state.alliances[1] == 1


def test_intrigue_cost_is_required_gap28():
    state = at_turn(game(), 0, ("dagger",), solari=1).with_player(0, intrigues=("bribery",))
    assert PlayIntrigue("bribery") not in legal_actions(state)
    state = state.with_player(0, solari=2)
    state = apply_action(state, PlayIntrigue("bribery"))
    assert state.players[0].solari == 0 and state.pending.kind == "faction"


def test_alliance_holder_falling_below_four_hands_it_on_gap4():
    state = game(3)
    state, _ = change_influence(state, 0, "emperor", 5)
    state, _ = change_influence(state, 2, "emperor", 4)
    state, _ = change_influence(state, 0, "emperor", -2)
    assert state.alliances[0] == 2
    state, _ = change_influence(state, 2, "emperor", -1)
    assert state.alliances[0] == -1


# --------------------------------------------------------------------------------------------- control


def test_control_reward_and_bonus_to_controller_whoever_visits():
    state = resume(combat_scene([2, 0, 0, 0], [0, 0, 0, 0], conflict="siege_of_arrakeen"))
    assert state.control[0] == 0 and victory_points(state, 0) == 2
    state = at_turn(state.with_player(0, solari=0), 1, ("reconnaissance",))
    state = choose_all(apply_action(state, Agent("reconnaissance", "arrakeen")))
    assert state.players[0].solari == 1


def test_control_imperial_basin_gives_spice():
    state = game().evolve(control=(-1, -1, 2))
    state = at_turn(state, 0, ("dune_the_desert_planet",))
    state = choose_all(apply_action(state, Agent("dune_the_desert_planet", "imperial_basin")))
    assert state.players[2].spice == 1 and state.players[0].spice == 1


def test_control_defence_troop_when_conflict_names_a_controlled_location_gap7():
    state = game().evolve(control=(3, -1, -1), round=2)  # round 2 reveals a level II card
    state = resume(state.evolve(queue=(Task("conflict"),)))
    state = apply_action(state, Chance("siege_of_arrakeen"))
    assert state.players[3].conflict == 1 and state.players[3].supply == 8


# --------------------------------------------------------------------------------------------- end


def end_scene(vps_track, **player_fields):
    state = game()
    for seat, vp in enumerate(vps_track):
        state = state.with_player(seat, score=vp, **{k: v[seat] for k, v in player_fields.items()})
    return state.evolve(queue=(Task("round_end"),))


def test_end_at_ten_vp_after_a_round():
    state = resume(end_scene([10, 3, 3, 3]))
    assert state.is_over and state.winners == (0,) and state.round == 1
    assert not resume(end_scene([9, 3, 3, 3])).is_over


def test_end_when_conflict_deck_is_empty():
    state = resume(end_scene([2, 3, 4, 1]).evolve(round=10))
    assert state.is_over and state.winners == (2,)


@pytest.mark.parametrize(
    ("field", "values", "winner"),
    [
        ("spice", [1, 2, 0, 0], 1),
        ("solari", [0, 0, 5, 1], 2),
        ("water", [0, 0, 0, 3], 3),
        ("garrison", [4, 1, 1, 1], 0),
    ],
)
def test_end_tie_breaks_spice_solari_water_garrison(field, values, winner):
    base = {"spice": [0] * 4, "solari": [0] * 4, "water": [0] * 4, "garrison": [0] * 4}
    base[field] = values
    state = resume(end_scene([10, 10, 10, 10], **base))
    assert state.winners == (winner,)


def test_end_full_tie_is_shared_gap15():
    zeros = [0] * 4
    state = resume(end_scene([10, 10, 3, 3], spice=zeros, solari=zeros, water=zeros, garrison=zeros))
    assert state.winners == (0, 1)


def test_endgame_intrigue_scored_at_the_end_gap14():
    state = end_scene([10, 3, 3, 3]).with_player(1, intrigues=("corner_the_market",))
    state = state.with_player(1, discard=("the_spice_must_flow", "the_spice_must_flow"))
    assert victory_points(resume(state), 1) == 5  # 3 + 1 (two copies) + 1 (more than every opponent)
    rival = state.with_player(2, discard=("the_spice_must_flow", "the_spice_must_flow"))
    assert victory_points(resume(rival), 1) == 4


# --------------------------------------------------------------------------------------------- more decisions


def test_plot_intrigue_keeps_the_turn_gap23_gap27():
    state = at_turn(game(), 0, ("dagger",)).with_player(0, intrigues=("windfall",))
    assert PlayIntrigue("windfall") in legal_actions(state)
    state = apply_action(state, PlayIntrigue("windfall"))
    assert state.players[0].solari == 2 and state.pending.kind == "turn" and state.pending.player == 0
    assert "windfall" in state.intrigue_discard
    with pytest.raises(IllegalActionError) as error:
        apply_action(state.with_player(0, intrigues=("ambush",)), PlayIntrigue("ambush"))
    assert error.value.code == "imperium/bad-intrigue"  # a combat intrigue is not a plot


def test_persuasion_from_agent_turns_counts_at_reveal_gap22():
    state = at_turn(game(), 0, ("dagger", "convincing_argument"))
    state = choose_all(apply_action(state, Agent("dagger", "hall_of_oratory")))
    state = at_turn(state, 0, ("convincing_argument",))
    assert apply_action(state, Reveal()).players[0].persuasion == 3


def test_trash_a_card_from_hand_play_or_discard_gap12():
    state = at_turn(game(), 0, ("diplomacy", "dagger"), spice=2, discard=("convincing_argument",))
    state = apply_action(state, Agent("diplomacy", "selective_breeding"))
    state = apply_action(state, Choose("space"))
    assert state.pending.kind == "trash"
    values = [a.value for a in legal_actions(state)]
    assert {"hand:dagger", "played:diplomacy", "discard:convincing_argument"} <= set(values)
    assert "none" in values  # the trash icon may be declined (FAQ)
    declined = apply_action(state, Choose("none"))
    # Paul (seat 0) draws his known top card at once, then looks at the next one (IMP-GAP-33)
    assert declined.players[0].trashed == () and declined.pending.kind == "peek"
    state = apply_action(state, Choose("discard:convincing_argument"))
    assert state.players[0].discard == () and state.players[0].trashed == ("convincing_argument",)
    assert state.pending.kind == "peek"  # then draw 2 (the first is the known top card)


def test_rewards_in_turn_order_with_the_receivers_choice_gap21():
    state = resume(combat_scene([0, 0, 3, 0], [0, 0, 0, 0], conflict="skirmish_a"))
    assert state.pending.kind == "faction" and state.pending.player == 2
    state = apply_action(state, Choose("bene_gesserit"))
    assert state.players[2].influence == (0, 0, 1, 0)


def test_empty_intrigue_deck_is_refilled_from_played_intrigues_gap17():
    state = game().evolve(intrigue_deck=(), intrigue_discard=("ambush", "windfall"))
    state = resume(state.evolve(queue=(Task("intrigue", 0),)))
    assert state.intrigue_deck == ("ambush", "windfall") and state.intrigue_discard == ()
    empty = resume(game().evolve(intrigue_deck=(), intrigue_discard=(), queue=(Task("intrigue", 0),)))
    assert empty.queue == () and empty.players[0].intrigues == ()


def test_empty_imperium_deck_leaves_the_row_short_gap17():
    state = game().evolve(imperium_deck=(), row=("space_travel",))
    state = resume(state.evolve(queue=(Task("row"),)))
    assert state.row == ("space_travel",) and state.queue == ()


def test_reveal_boxes_resolve_card_by_card_gap13():
    state = at_turn(game(), 0, ("bene_gesserit_sister", "convincing_argument"))
    state = apply_action(state, Reveal())
    assert state.pending.kind == "one_of"  # the Sister's choice is asked when its box comes
    state = apply_action(state, Choose("1"))
    assert (state.players[0].persuasion, state.players[0].swords) == (2, 2)


def test_leaders_drawn_from_the_seed_without_repeats_gap16():
    a = new_game(["A", "B", "C", "D"], 42)
    assert a.leaders == new_game(["A", "B", "C", "D"], 42).leaders and len(set(a.leaders)) == 4


def test_rules_data_errors_name_the_field():
    import json
    from importlib import resources

    from dunenb.errors import RulesDataError
    from dunenb.imperium.rules_data import parse_rules

    data = json.loads(resources.files("dunenb.data").joinpath("imperium.json").read_text(encoding="utf-8"))
    data["spaces"][0]["effects"] = [{"teleport": 1}]
    with pytest.raises(RulesDataError) as error:
        parse_rules(data)
    assert "spaces[0].effects[0]" in error.value.message and "unknown effect 'teleport'" in error.value.message


def test_every_decision_has_an_id_rules_decision_and_why():
    decisions = load_rules().decisions
    assert [d["id"] for d in decisions] == [f"IMP-GAP-{i}" for i in range(1, len(decisions) + 1)]
    assert all(d["rules"] and d["decision"] and d["why"] for d in decisions)


# --------------------------------------------------------------------------------------------- leaders


def leader_game(leader: str):
    others = [
        name for name in ("leto_atreides", "helena_richese", "vladimir_harkonnen", "paul_atreides") if name != leader
    ]
    return game(leaders=[leader, *others[:3]])


def test_leader_rabban_brutality_two_troops_with_an_alliance():
    state = at_turn(leader_game("glossu_rabban"), 0, ("signet_ring",))
    alone = choose_all(apply_action(state, Agent("signet_ring", "hall_of_oratory")), {"order": "card"})
    assert alone.players[0].garrison == 3 + 1 + 1  # Hall of Oratory 1 + Brutality 1
    allied = state.evolve(alliances=(0, -1, -1, -1))
    allied = choose_all(apply_action(allied, Agent("signet_ring", "hall_of_oratory")), {"order": "card"})
    assert allied.players[0].garrison == 3 + 1 + 2


def test_leader_ilban_ruthless_negotiator_draws_when_paying_solari():
    state = at_turn(leader_game("ilban_richese"), 0, ("dagger",), solari=4)
    state = apply_action(state, Agent("dagger", "rally_troops"))
    assert state.pending.kind == "draw" and state.players[0].garrison == 7
    free = at_turn(leader_game("ilban_richese"), 0, ("dagger",))
    assert apply_action(free, Agent("dagger", "hall_of_oratory")).pending.kind == "turn"


def test_leader_memnon_connections_at_high_council():
    state = at_turn(leader_game("memnon_thorvald"), 0, ("dagger",), solari=5)
    state = apply_action(state, Agent("dagger", "high_council"))
    assert state.pending.kind == "faction"
    assert apply_action(state, Choose("guild")).players[0].influence == (0, 1, 0, 0)


def test_leader_ariana_spice_addict_at_maker_spaces():
    state = at_turn(leader_game("ariana_thorvald"), 0, ("dune_the_desert_planet",))
    state = apply_action(state, Agent("dune_the_desert_planet", "imperial_basin"))
    assert state.players[0].spice == 0 and state.pending.kind == "draw"  # 1 harvested, 1 lost, 1 card


def test_leader_helena_eyes_everywhere_joins_occupied_landsraad_and_choam_gap30():
    state = leader_game("helena_richese")
    rules = load_rules()
    occupied = [-1] * len(rules.spaces)
    for space in ("hall_of_oratory", "secure_contract", "arrakeen"):
        occupied[rules.space_index[space]] = 1
    state = at_turn(state.evolve(occupied=tuple(occupied)), 0, ("signet_ring",))
    moves = legal_actions(state)
    assert Agent("signet_ring", "hall_of_oratory") in moves and Agent("signet_ring", "secure_contract") in moves
    assert Agent("signet_ring", "arrakeen") not in moves  # a city space
    after = choose_all(apply_action(state, Agent("signet_ring", "secure_contract")))
    assert after.players[0].solari == 3 and after.occupied[rules.space_index["secure_contract"]] == 1
    mine = list(after.occupied)
    mine[rules.space_index["rally_troops"]] = 0
    own = at_turn(after.evolve(occupied=tuple(mine)), 0, ("dagger",), solari=4)
    assert Agent("dagger", "hall_of_oratory") in legal_actions(own)
    assert Agent("dagger", "rally_troops") not in legal_actions(own)  # not on her own agent
    paul = at_turn(leader_game("paul_atreides").evolve(occupied=tuple(occupied)), 0, ("signet_ring",))
    assert Agent("signet_ring", "hall_of_oratory") not in legal_actions(paul)


def test_mentat_won_in_combat_serves_the_next_round_gap29():
    state = resume(combat_scene([2, 0, 0, 0], [0, 0, 0, 0], conflict="sort_through_the_chaos"))
    while state.is_chance:
        state = apply_action(state, chance_outcomes(state)[0][0])
    assert state.round == 2 and state.players[0].mentat and state.players[0].agents_left == 3
    taken = at_turn(state, 1, ("dagger",), solari=2)
    taken = choose_all(apply_action(taken, Agent("dagger", "mentat")))
    assert not taken.players[1].mentat  # one Mentat: the space only draws its card


def test_decided_card_texts_are_marked_gap31():
    import json
    from importlib import resources

    from dunenb.errors import RulesDataError

    raw = json.loads(resources.files("dunenb.data").joinpath("imperium.json").read_text(encoding="utf-8"))
    rows = raw["imperium_deck"] + raw["intrigue_deck"] + raw["reserve"]
    uncertain = [row for row in rows if row.get("certain") is False]
    assert uncertain and all(row.get("gap") == "IMP-GAP-31" and row.get("note") for row in uncertain)
    assert all(row.get("gap") in (None, "IMP-GAP-31") for row in rows)
    rules = load_rules()
    assert {"power_play", "kwisatz_haderach", "opulence"} <= set(rules.imperium_deck)
    assert {"the_sleeper_must_awaken", "allied_armada"} <= set(rules.intrigue_deck)
    from dunenb.imperium.rules_data import parse_rules

    raw["imperium_deck"][0]["gap"] = "IMP-GAP-999"
    with pytest.raises(RulesDataError) as error:
        parse_rules(raw)
    assert "imperium_deck[0].gap" in error.value.message and "IMP-GAP-999" in error.value.message


def test_opulence_reveal_pays_six_solari_for_a_vp_gap31():
    state = at_turn(game(), 0, ("opulence",), solari=6)
    state = apply_action(state, Reveal())
    assert state.pending.kind == "optional"
    state = apply_action(state, Choose("yes"))
    assert state.players[0].solari == 0 and state.players[0].score == 2 and state.players[0].persuasion == 1


def test_liet_kynes_two_persuasion_per_fremen_card_in_play_gap31():
    state = at_turn(game(), 0, ("liet_kynes", "jamis", "crysknife"))
    state = state.with_player(0, played=("fremen_camp",))
    state = apply_action(state, Reveal())
    # Liet Kynes, Jamis and Crysknife revealed + Fremen Camp played: 4 Fremen cards, 8 persuasion from Liet
    assert state.players[0].persuasion == 8


def test_assassination_mission_gives_four_solari_when_trashed():
    state = at_turn(game(), 0, ("guild_administrator",), discard=("assassination_mission",))
    state = apply_action(state, Agent("guild_administrator", "secure_contract"))
    state = apply_action(state, Choose("card"))
    state = apply_action(state, Choose("discard:assassination_mission"))
    assert state.players[0].trashed == ("assassination_mission",) and state.players[0].solari == 4 + 3
