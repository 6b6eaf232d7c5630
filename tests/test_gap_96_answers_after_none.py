"""GAP-96 with GAP-138: a prescience answer other than 'immune' rules out a leader sure to be immune to prescience,
so a later answer may not name kinds only he could show.

The scene comes from a seeded random-bot game (6 Houses, seed 17, saved in ``tests/data``): the Guild asks the
Emperor two prescience questions (GUILD-M2 on the defence, Alberic's GUILD-L02-c on the attack). The Emperor answered
'none' for the defence, which rules out Hasimir (EMPEROR-L01-b: immune to prescience, so his side answers 'immune').
Before the fix the attack question still offered 'poison+projectile', which only Hasimir's second attack slot (K-6)
can show; the Emperor answered it and was left with no legal battle plan.
"""

from __future__ import annotations

from pathlib import Path

from dunenb.engine import apply_action, legal_actions
from dunenb.rules.pre_battle import AnswerPrescience, answer_choices
from dunenb.saves import load_game

SAVE = Path(__file__).parent / "data" / "gap_96_hasimir_ruled_out.json"


def _at_the_second_answer():
    record = load_game(SAVE)
    state = record.state_at(record.leaf())
    assert (state.pending.kind, state.pending.actor) == ("battle-answer", "emperor")
    return state


def test_gap_96_after_none_an_answer_only_an_immune_leader_could_give_is_not_offered():
    state = _at_the_second_answer()
    choices = answer_choices(state, "emperor")
    assert "poison+projectile" not in choices and "immune" not in choices
    assert {"none", "poison", "projectile"} <= set(choices)


def test_gap_96_every_answer_offered_leaves_the_emperor_a_legal_plan():
    start = _at_the_second_answer()
    for answer in answer_choices(start, "emperor"):
        state = apply_action(start, AnswerPrescience("emperor", answer))
        for _ in range(50):  # the Guild's trances and plan, then the Emperor's plan
            if state.pending is not None and (state.pending.kind, state.pending.actor) == ("battle-plan", "emperor"):
                break
            state = apply_action(state, legal_actions(state)[0])
        assert (state.pending.kind, state.pending.actor) == ("battle-plan", "emperor"), answer
        assert legal_actions(state), f"no legal plan after answering {answer!r}"
