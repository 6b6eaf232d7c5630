"""Issue 14 item 4 (heuristic-bot speed): the shortcuts give the same results as the work they replace."""

from __future__ import annotations

import dataclasses
import itertools

from dunenb.battle.plans import BattlePlan, BattleSide
from dunenb.battle.resolve import _strip
from dunenb.battle.roster import inline_leader
from dunenb.battle.wheel import Dial, Tokens
from dunenb.bots.battle_planner import _fate_leader, _fates, _leader_step
from dunenb.bots.risk import _WORM_ODDS, worm_strike_probability
from dunenb.engine import new_game, view
from dunenb.rules.traitors import leader_of

WEAPONS = (None, "worthless", "poison-fast", "projectile-contact", "lasgun", "atomics")
DEFENCES = (None, "worthless", "shield", "snooper")


def _specs() -> list[object]:
    """Leader-step specs: plain strengths and leaders with step powers: Feyd-Rautha, whose Kindjal only admits a
    weapon (a 4-item spec, folded to his strength against a plain leader: issue 14, ``_fate_leader``), and
    Tyekanik, whose powers change the leader step (never folded)."""
    feyd = _fate_leader("harkonnen", leader_of("harkonnen", "feyd-rautha"), frozenset())
    tyekanik = _fate_leader("emperor", leader_of("emperor", "tyekanik"), frozenset())
    assert isinstance(feyd, tuple) and isinstance(tyekanik, tuple)
    return [5, 2, feyd, tyekanik]


def test_planner_folds_give_the_unfolded_leader_steps() -> None:
    """CARD-WORTHLESS-1 (a worthless card is an empty slot) and GAP-35b (the called traitor's weapon does not
    act): the planner's folded leader steps equal the resolver's own steps of the plans as given."""
    specs = _specs()
    for mine_spec, theirs_spec in itertools.product((specs[0], specs[2], specs[3]), specs[1:3]):
        if isinstance(mine_spec, tuple) and isinstance(theirs_spec, tuple) and mine_spec[0] == theirs_spec[0]:
            continue  # two different Houses (BATTLE-2)
        for weapon, defence, their_weapon, their_defence in itertools.product(
                WEAPONS, DEFENCES, WEAPONS[2:], ("shield", None)):
            for traitor, my_index in ((False, 0), (True, 1)):
                mine = (mine_spec, weapon, defence, None, None)
                theirs = (theirs_spec, their_weapon, their_defence)
                folded = _fates(mine, theirs, traitor, my_index)
                if isinstance(mine_spec, int) and not (weapon == "projectile-contact" and their_defence == "shield"):
                    mine = (1, *mine[1:])  # the strength fold the planner made before this issue
                if isinstance(theirs_spec, int) and not (their_weapon == "projectile-contact" and defence == "shield"):
                    theirs = (1, *theirs[1:])
                assert folded == _leader_step.__wrapped__(mine, theirs, traitor, my_index), (mine, theirs, traitor)


def test_strip_keeps_an_already_stripped_side() -> None:
    """resolve._strip returns a side with no dial, tokens or other non-step facts as it is, equal to its copy."""
    plan = BattlePlan(Dial(), inline_leader("P1", 4), weapon="poison-fast", defense="shield")
    bare = BattleSide("atreides", Tokens(), plan, traitors=frozenset({"x"}), blocked=frozenset({"ATREIDES-M1"}))
    assert _strip(bare) is bare
    full = dataclasses.replace(bare, tokens=Tokens(3, 1), plan=dataclasses.replace(plan, dial=Dial(2)),
                               dead=frozenset({"y"}), voices_against=1)
    assert _strip(full) == bare and _strip(full) is not full


def test_worm_odds_are_shared_between_views_and_unchanged() -> None:
    """The next worm's odds read only the deck, the shown top card and the pile tops: every view shares them."""
    state = new_game(["atreides", "harkonnen", "fremen"], seed=4)
    state = dataclasses.replace(state, spice_deck=dataclasses.replace(state.spice_deck,
                                                                      pile_tops=("nord-cielago", "grande-etendue")))
    _WORM_ODDS.clear()
    seen = [worm_strike_probability(view(state, house)) for house in ("atreides", "harkonnen", "fremen")]
    assert len(_WORM_ODDS) == 1 and seen[0] == seen[1] == seen[2]
    _WORM_ODDS.clear()
    assert worm_strike_probability(state) == seen[0] and set(seen[0]) == {"nord-cielago", "grande-etendue"}


def test_view_hides_other_houses_the_same_way_twice() -> None:
    """engine.view redacts each other House once and shares the record: the views stay equal, hands hidden."""
    state = new_game(["atreides", "harkonnen", "fremen"], seed=2)
    first, second = view(state, "atreides"), view(state, "atreides")
    assert first == second and first.houses["harkonnen"] is second.houses["harkonnen"]
    hidden = first.houses["harkonnen"]
    assert set(hidden.hand) <= {"hidden"} and all(slip == ("hidden", "hidden") for slip in hidden.traitors)
    assert first.houses["atreides"] is state.houses["atreides"]
