"""Issue 14 item 4 (a heuristic-bot game under 0.5 s): the shortcuts of the heuristic bot's game decide exactly
as the work they replace, on positions of seeded bot games.

No rule or tuning changes here: each test pins one shortcut to the plain computation it replaces.
"""

from __future__ import annotations

from helpers_game import bot_game_states

from dunenb.actions import Action
from dunenb.rules import truth_trance
from dunenb.rules.common import edit_house
from dunenb.ruleset import HOUSE_IDS
from dunenb.state import GameState, evolve

HOUSES = ["atreides", "harkonnen", "fremen", "emperor", "guild", "bene-gesserit"]


# --- the truth-trance questions of a bid or plan menu, kept per means, Houses in play and leaders ----------------

def _plain_questions(state: GameState, house: str) -> list[Action]:
    """The question menu as it was built before the memo: every question of every means, target and subject."""
    means = truth_trance._means(state, house)
    targets = [t for t in truth_trance.active_houses(state) if t != house]
    return [truth_trance.AskTruthTrance(house, target, q.id, subject, how) for how in means for target in targets
            for q in truth_trance.load_questions() for subject in truth_trance._subjects(state, house, target, q)]


def _trance_positions() -> list[GameState]:
    """The bid and battle-plan decisions of heuristic and random 6- and 8-House games where the actor may ask."""
    found = []
    for houses, seeds, bot in ((HOUSES, (0, 1), "heuristic"), (HOUSES, (0, 1), "random"),
                               (list(HOUSE_IDS), (0,), "random")):
        for seed in seeds:
            for state in bot_game_states(houses, seed, turn_limit=8, bot=bot):
                pending = state.pending
                if pending is not None and pending.kind in truth_trance.MOMENTS and truth_trance._means(
                        state, pending.actor):
                    found.append(state)
    return found


def test_issue14_question_menus_equal_the_plain_rebuild() -> None:
    """The memoised question menu is the plain listing, in order, at every decision where a House may ask in
    seeded games, also with a leader fewer and with a House eliminated (other keys of the memo), and a caller
    changing its list does not change the next one."""
    checked = 0
    for state in _trance_positions():
        house = state.pending.actor  # type: ignore[union-attr]
        leaders = state.houses[house].leaders
        others = [h for h in truth_trance.active_houses(state) if h != house]
        variants = [state, edit_house(state, house, leaders=leaders[1:]),
                    evolve(state, eliminated=(*state.eliminated, others[-1]))]
        for variant in variants:
            plain = _plain_questions(variant, house)
            got = truth_trance.questions(variant, house)
            assert got == plain
            got.clear()
            assert truth_trance.questions(variant, house) == plain  # the memo hands out a fresh list each time
            checked += 1
    assert checked > 100
