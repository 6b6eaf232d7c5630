"""Issue 14 item 4 (heuristic-bot speed): the shortcuts give the same results as the work they replace."""

from __future__ import annotations

import dataclasses
import itertools
import re

import pytest

from dunenb.battle.plans import BattlePlan, BattleSide
from dunenb.battle.resolve import _strip
from dunenb.battle.roster import inline_leader
from dunenb.battle.wheel import Dial, Tokens
from dunenb.bots import battle_planner, make_bot
from dunenb.bots.battle_planner import _fate_leader, _fates, _leader_step
from dunenb.bots.risk import _WORM_ODDS, worm_strike_probability
from dunenb.engine import make_config, new_game, view
from dunenb.rules.traitors import leader_of
from dunenb.ruleset import HOUSE_IDS
from dunenb.simulate import play_game

WEAPONS = (None, "worthless", "poison-fast", "projectile-contact", "lasgun", "atomics")
DEFENCES = (None, "worthless", "shield", "snooper")


def _spec(house: str, leader_id: str) -> object:
    return _fate_leader(house, leader_of(house, leader_id), frozenset())


def _specs() -> tuple[list[object], list[object]]:
    """Leader-step specs of the bot's side and of the opposing side: none, plain strengths and leaders with step
    powers: Feyd-Rautha and Murbella, whose Kindjal and karate only admit a weapon, and Iliako, who has no step
    power (4-item specs, stepping as their strength where the opponent cannot tell: ``_fate_leader``), Tyekanik and
    Edric, who wear a shield (leaders.md K-8: never folded), Iakin Nefud, whose rule slows a fast poison aimed at
    him (K-9), and the entries that name the opponent: Margot's DISARM against Feyd-Rautha (BG-L08-a), Yueh's KILL
    vs Harkonnen (ATREIDES-L09-b)."""
    feyd, murbella = _spec("harkonnen", "feyd-rautha"), _spec("bene-gesserit", "murbella")
    tyekanik, edric, iakin = _spec("emperor", "tyekanik"), _spec("guild", "edric"), _spec("harkonnen", "iakin-nefud")
    iliako, margot, yueh = _spec("harkonnen", "iliako"), _spec("bene-gesserit", "margot"), _spec("atreides", "yueh")
    assert len(feyd) == len(murbella) == len(iliako) == len(margot) == 4  # type: ignore[arg-type]
    assert len(tyekanik) == len(edric) == len(iakin) == len(yueh) == 3  # type: ignore[arg-type]
    return [None, 3, feyd, murbella, tyekanik, margot], [None, 2, tyekanik, edric, iakin, feyd, iliako, yueh]


def test_planner_folds_give_the_unfolded_leader_steps() -> None:
    """The planner's folded leader steps (``_fates``) give the deaths of the resolver's own steps of the specs as
    given, folded nowhere: a strength read only by a contact projectile's passes of a Shield card or a worn shield
    (CARD-SHIELD-3, GAP-28a, leaders.md K-8, LC-1; a Kindjal acts as one, K-7), a worthless card an empty slot
    (CARD-WORTHLESS-1), the called traitor's weapon idle (GAP-35b); with the K-6 extra attack and defence slots."""
    mines, theirs_specs = _specs()
    checked = 0
    for mine_spec, theirs_spec in itertools.product(mines, theirs_specs):
        if isinstance(mine_spec, tuple) and isinstance(theirs_spec, tuple) and mine_spec[0] == theirs_spec[0]:
            continue  # two different Houses (BATTLE-2)
        for weapon, defence, (extra_attack, extra_defence), their_weapon, their_defence in itertools.product(
                (None, "worthless", "projectile-contact", "lasgun"), (None, "shield", "snooper"),
                ((None, None), (None, "shield"), ("kindjal", None)),
                (None, "poison-fast", "projectile-contact", "projectile-distance"), (None, "worthless", "shield")):
            for traitor, my_index in ((False, 0), (True, 1)):
                mine = (mine_spec, weapon, defence, extra_attack, extra_defence)
                theirs = (theirs_spec, their_weapon, their_defence)
                assert _deaths(_fates(mine, theirs, traitor, my_index)) == _deaths(_leader_step.__wrapped__(
                    mine, theirs, traitor, my_index)), (mine, theirs, traitor, my_index)
                checked += 1
    assert checked > 30_000


def test_planner_steps_the_entries_that_name_the_opponent() -> None:
    """leaders.md LC-4: BG-L08-a Margot disarms Feyd-Rautha (his poison goes back to his hand, K-3), ATREIDES-L09-b
    Yueh kills a Harkonnen leader on a d10 of 1 (K-14); Chani's DISARM names only Paul (FREMEN-L02-d), so any
    other opposing leader steps as his strength (the cache shared) and Paul keeps his name, and against anyone but
    Paul (Margot: anyone but Feyd-Rautha) she steps as her strength too."""
    margot, feyd = _spec("bene-gesserit", "margot"), _spec("harkonnen", "feyd-rautha")
    step = _fates((margot, None, None, None, None), (feyd, "poison-fast", None), False, 0)
    assert _deaths(step) == {(False, False, "normal"): 1.0}
    iliako, yueh = _spec("harkonnen", "iliako"), _spec("atreides", "yueh")
    step = _fates((iliako, None, None, None, None), (yueh, None, None), False, 1)
    assert _deaths(step) == {(True, False, "normal"): 0.1, (False, False, "normal"): 0.9}
    chani, hasimir, paul = _spec("fremen", "chani"), _spec("emperor", "hasimir"), _spec("atreides", "paul")
    words = battle_planner._opponent_words(chani)
    assert battle_planner._unread(words, hasimir) and not battle_planner._unread(words, paul)
    # her DISARM acts against Paul only, so against anyone else she steps as her strength too (K-3, _inert)
    assert battle_planner._as_strength(chani, hasimir, 0) == chani[3]  # type: ignore[index]
    assert battle_planner._as_strength(chani, paul, 1) == chani
    assert battle_planner._as_strength(margot, feyd, 0) == margot
    assert battle_planner._as_strength(margot, hasimir, 1) == margot[3]  # type: ignore[index]


def test_planner_keeps_a_contact_projectiles_strength_against_a_worn_shield() -> None:
    """leaders.md K-8, LC-1, CARD-SHIELD-3: a contact projectile passes Tyekanik's worn shield on a d10 at most its
    thrower's strength, so the planner keeps that strength (its folds before stop 31 gave a strength-7 thrower the
    chances of a strength-1 one); against a Shield card in a K-6 extra defence slot too."""
    tyekanik = _spec("emperor", "tyekanik")
    strong = _fates((7, "projectile-contact", None, None, None), (tyekanik, None, None), False, 0)
    weak = _fates((1, "projectile-contact", None, None, None), (tyekanik, None, None), False, 0)
    assert strong == _leader_step.__wrapped__((7, "projectile-contact", None, None, None), (tyekanik, None, None),
                                              False, 0)
    assert sum(p for p, _mine_dead, their_dead, _branch in strong if their_dead) > \
        sum(p for p, _mine_dead, their_dead, _branch in weak if their_dead)
    against_extra = _fates((3, None, "snooper", None, "shield"), (7, "projectile-contact", None), False, 0)
    assert round(sum(p for p, mine_dead, _their_dead, _branch in against_extra if mine_dead), 9) == 0.7


def test_planner_folds_are_exact_on_a_games_leader_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every leader step the planner asked in an 8-House heuristic game (each House's secondary leaders in play:
    worn shields, Kindjals, rules, powers that name the opposing House or leader) gives the deaths of the
    resolver's step of the specs as given, folded nowhere. Before stop 31, 475 of 55,058 such keys of six games
    differed (Ludwic, Alberic, Duana, Edric: contact projectiles against worn shields), and a leader without step
    powers was a bare strength to the opposing entries naming him (Margot's DISARM against Feyd-Rautha)."""
    asked: set[tuple] = set()

    def noted(*key: object) -> tuple:
        asked.add(key)
        return _fates(*key)  # type: ignore[arg-type]

    pair_specs = battle_planner._pair_specs
    monkeypatch.setattr(battle_planner, "_cached_fates", noted)
    monkeypatch.setattr(battle_planner, "_pair_specs", lambda mine, theirs, side: (mine, theirs))  # as given
    config = make_config(list(HOUSE_IDS), seed=1, turn_limit=8)
    play_game(config, {house: make_bot("heuristic", seed=1 + k) for k, house in enumerate(HOUSE_IDS)})
    assert len(asked) > 1_000
    for key in asked:
        folded = _fates(*key)  # type: ignore[arg-type]
        assert _deaths(folded) == _deaths(_leader_step.__wrapped__(*key)), key  # type: ignore[arg-type]
        mine, theirs, traitor, my_index = key
        shared = pair_specs(mine[0], theirs[0], my_index)  # type: ignore[index]
        assert _fates((shared[0], *mine[1:]), (shared[1], *theirs[1:]), traitor, my_index) == folded  # type: ignore


def test_planner_steps_the_heir_of_a_power_passed_for_good_as_the_resolver_does() -> None:
    """leaders.md K-24 D02-d (GAP-134, GAP-146): a power passed for good is in the game's record, not in the
    roster's entry of its new holder. The planner's leader step rebuilds each leader from the roster
    (``_wheel_leader``) while its values and armies use ``Fighters.leader`` (the record applied); that is exact
    because no power that passes is read by the leader step: the Weapon (DISPERSION-L02-c) is TROOPS_WORTH_ONE,
    counted with the armies. A new passing power of a kind the step reads would fail here."""
    from dunenb.battle.resolve import Battle, fates_distribution
    from dunenb.rules.leader_inherit import load_passes, with_passed

    assert load_passes()
    for passing in load_passes():
        assert not battle_planner.read_by_step(passing.entry()), passing
        for heir in passing.heirs:
            roster = leader_of(passing.house, heir)
            holding = with_passed(((passing.passes, passing.house, heir),), roster)
            assert passing.passes in {power.id for power in holding.powers}  # the record gives him the power
            assert _fate_leader(passing.house, holding, frozenset()) == _fate_leader(passing.house, roster,
                                                                                     frozenset())
            for weapon, defence in itertools.product(("projectile-contact", "poison-fast"), (None, "shield")):
                steps = []
                for leader in (roster, holding):
                    sides = (BattleSide(passing.house, Tokens(), BattlePlan(Dial(), leader, None, defence)),
                             BattleSide("atreides", Tokens(), BattlePlan(Dial(), leader_of("atreides", "paul"),
                                                                         weapon, None)))
                    steps.append(fates_distribution(Battle("arena", passing.house, sides)))
                assert steps[0] == steps[1], (heir, weapon, defence)


def test_planner_arena_reads_every_condition_of_the_entries_its_leader_step_reads() -> None:
    """The planner's leader step is fought in an "arena" (no territory, no dead, the bot's side defending when it
    defends): exact because the entries the step reads (leaders.md K-3 DISARM, K-14 KILL, the K-17 blast, spare and
    regen, K-8 to K-10 arsenals and immunities) hold no terrain, territory, role or dead condition, only words on
    the opposing House or leader (LC-4), which the arena's leaders answer as the real ones do. The terrain and role
    conditions of the values (WHEEL_VALUE, TROOPS_WORTH_ONE, ARMY_BONUS...) are read with the real territory
    (``Fighters.territory``). A step entry with such a condition would fail here."""
    from dunenb.battle.roster import load_roster
    from dunenb.board import load_board
    from dunenb.powers.leader_effects import Word

    board = load_board()
    places = {area.id for area in board.areas} | {area.kind for area in board.areas} | {"defender", "aggressor"}
    read = 0
    for leader in load_roster().leaders:
        for power in leader.powers:
            if not battle_planner.read_by_step(power):
                continue
            for leaf in battle_planner.effect_leaves(power.effect):
                if isinstance(leaf, Word):
                    read += 1
                    assert leaf.kind in ("vs", "opp"), (leader.id, power.id, leaf)
                elif isinstance(leaf, str):  # a condition left as text (a K-17 trigger) names no place either
                    assert not set(re.findall(r"[a-z-]+", leaf)) & places, (leader.id, power.id, leaf)
    assert read > 0  # the DISARMs, KILLs and K-17 entries that name the opponent


def _deaths(step: tuple[tuple[float, bool, bool, str], ...]) -> dict[tuple[bool, bool, str], float]:
    """A leader step's chances by (my leader dead, theirs dead, branch), rounded to 12 places: a leader stepping as
    his strength drops the d10 of a K-17 regen_dialled entry (Fiona's: it acts on a win only, after the step),
    which splits a real step's leaves without changing who dies."""
    found: dict[tuple[bool, bool, str], float] = {}
    for probability, mine_dead, theirs_dead, branch in step:
        found[(mine_dead, theirs_dead, branch)] = found.get((mine_dead, theirs_dead, branch), 0.0) + probability
    return {key: round(value, 12) for key, value in found.items()}


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
