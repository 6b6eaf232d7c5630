"""Hidden information is a view: ``view(state, house)`` never leaks another House's secrets (DESIGN, issue 4)."""

from __future__ import annotations

import pytest

from dunenb.bots import make_bot
from dunenb.engine import CHANCE, apply_action, current_player, new_game, sample_chance, view

HOUSES = ["atreides", "harkonnen", "fremen", "bene-gesserit", "emperor"]


def _positions(seed: int, limit: int = 4):
    state = new_game(HOUSES, seed=seed, turn_limit=limit)
    bots = {h: make_bot("random", seed=seed) for h in HOUSES}
    while state.pending is not None:
        yield state
        actor = current_player(state)
        state = apply_action(state, sample_chance(state) if actor == CHANCE else bots[actor].choose(state))


@pytest.mark.parametrize("seed", range(6))
def test_views_hide_hands_traitors_prediction_storm_tokens_deck_and_secrets(seed):
    for state in _positions(seed):
        for house in HOUSES:
            seen = view(state, house)
            for other, hs in seen.houses.items():
                real = state.houses[other]
                if other == house:
                    assert hs == real
                    continue
                assert set(hs.hand) <= {"hidden"} and len(hs.hand) == len(real.hand)
                assert set(hs.traitors) <= {("hidden", "hidden")} and len(hs.traitors) == len(real.traitors)
                assert hs.prediction in (None, ("hidden", 0))
            assert seen.rng_seed == 0
            assert set(seen.treachery_deck) <= {"hidden"}
            if house != "fremen":
                assert len(seen.storm_tokens) == 0
            if seen.pending is not None and "secrets" in seen.pending.detail:
                for owner, value in seen.pending.detail["secrets"]:
                    assert owner == house or value == "hidden"
            battle = seen.pending.detail.get("battle") if seen.pending is not None else None
            if battle is not None:  # the typed battle context: plans not revealed, the prescience answer (ATREIDES-P1)
                assert all(owner == house or value == "hidden" for owner, value in battle.secrets)
                seq = battle.sequence
                if seq is not None and seq.answer is not None and house not in (seq.question.by, seq.question.target):
                    assert seq.answer.kind == "hidden"
        assert view(state, None) is state


def test_card_truth_trance_gap_56_the_answer_is_hidden_from_every_other_house():
    import dataclasses

    from dunenb.rules.truth_trance import AskTruthTrance, ask

    state = new_game(["atreides", "harkonnen", "emperor"], seed=3)
    hs = state.houses["atreides"]
    state = dataclasses.replace(state, houses=state.houses.set("atreides", dataclasses.replace(
        hs, hand=hs.hand + ("truth-trance",))))
    state = ask(state, AskTruthTrance("atreides", "harkonnen", "spice-more-than", "1"))
    assert state.houses["atreides"].trance_answers and view(state, "atreides").houses["atreides"].trance_answers
    for other in ("harkonnen", "emperor"):
        assert all(h.trance_answers == () for h in view(state, other).houses.values())
