"""Issue 11 item 2, the leaders' traits and life rules (leaders.md K-20 REGENERATES, K-21 RESTRICTION, K-23
EXCLUSIVE): each power ID gets the scene of the spec played in a game (setup, traitor draw, a new turn).

* K-23 EXCLUSIVE: at setup (X-1..X-3), the copy plays only when no House it defers to is in play;
* K-21 never_traitor / never_traitor_of: the leader may be drawn at TRAITOR-1 but is never picked, and is never a
  Harkonnen traitor (TRAITOR-3);
* K-20 REGENERATES: TLEILAX-P3 brings the leader back the next turn instead of the second one.
"""

from __future__ import annotations

import dataclasses

import pytest
from helpers_game import clear_map, force, outcome_map, play_setup, quiet_setup, set_storms

from dunenb.battle.characters import load_characters
from dunenb.battle.roster import HOUSES, Leader, Power, load_roster
from dunenb.battle.traitors import can_be_traitor_of
from dunenb.engine import apply_action, legal_actions, new_game
from dunenb.powers.leader_effects import HOUSE_WORDS
from dunenb.rules import regeneration
from dunenb.rules.traitors import DrawTraitor, PickTraitor, traitor_pool

ROSTER = load_roster()


def powers_of(kind: str, first_word: str | None = None) -> list[tuple[Leader, Power]]:
    """Every (leader, power) of ``kind`` (whose first parameter word is ``first_word``, if given)."""
    found = []
    for leader in ROSTER.leaders:
        for power in leader.powers:
            if power.kind != kind or power.effect is None:
                continue
            args = getattr(power.effect, "args", ())
            if first_word is None or (args and args[0].split()[0] == first_word):
                found.append((leader, power))
    return found


def power_of(power_id: str) -> tuple[Leader, Power]:
    """The leader and his power ``power_id``."""
    return next((leader, p) for leader in ROSTER.leaders for p in leader.powers if p.id == power_id)


def params(test) -> list[str]:
    """The power IDs a test is parametrized with (written out in its decorator, so that the report finds them)."""
    return [value if isinstance(value, str) else value[0] for value in test.pytestmark[0].args[1]]


def ids_of(pairs: list[tuple[Leader, Power]]) -> list[str]:
    return [p.id for _leader, p in pairs]




# --- K-23 EXCLUSIVE (leaders.md §3, X-1..X-3) ------------------------------------------------------------------

def _prior_houses(power: Power) -> list[str]:
    """The Houses an ``EXCLUSIVE(after X, Y)`` copy defers to, read from its effect's parameters."""
    args = power.effect.args  # type: ignore[union-attr]
    words = [args[0].removeprefix("after ")] + [arg.split(";")[0] for arg in args[1:]]
    return [HOUSE_WORDS[word.strip().lower()] for word in words]


def _real_houses(leader: Leader) -> list[str]:
    """The Houses holding a real copy of a ghola's character (X-3)."""
    character = next(c for c in load_characters() if (leader.house, leader.id) in c.all_copies)
    return [house for house, _id in character.copies]


def _plays(houses: list[str], leader: Leader) -> bool:
    """Whether the copy is among its House's leaders when a game starts with ``houses`` (X-1)."""
    return leader.id in new_game(houses, seed=1).houses[leader.house].leaders  # type: ignore[index]


def _neutral(leader: Leader, excluded: list[str]) -> str:
    return next(house for house in HOUSES if house != leader.house and house not in excluded)


@pytest.mark.parametrize("power_id", [
    "BG-L05-a", "BG-L06-a", "BG-L12-a", "DISPERSION-L09-a", "DISPERSION-L10-a", "DISPERSION-L11-a",
    "DISPERSION-L12-a", "EMPEROR-L07-a", "EMPEROR-L08-a", "FREMEN-L05-a", "FREMEN-L06-a", "FREMEN-L07-a",
    "FREMEN-L11-a", "FREMEN-L12-a", "GUILD-L07-a", "GUILD-L08-a", "GUILD-L09-a", "HARKONNEN-L09-a",
    "HARKONNEN-L10-a", "HARKONNEN-L11-a", "HARKONNEN-L12-a"])
def test_k_23_exclusive_after_houses(power_id):
    """K-23, X-1, D-17: "ne peut jouer que si la Maison X n'a pas choisi ce personnage": with any House it names
    in play, the copy is out of the game (that House holds its own copy); with none, it plays."""
    leader, power = power_of(power_id)
    prior = _prior_houses(power)
    for house in prior:
        assert not _plays([leader.house, house], leader), (power.id, house)
    assert _plays([leader.house, _neutral(leader, prior)], leader)


@pytest.mark.parametrize("power_id", ["ATREIDES-L11-a", "TLEILAX-L10-a", "TLEILAX-L11-a", "TLEILAX-L12-a"])
def test_k_23_exclusive_no_real_copy(power_id):
    """K-23, X-3, D-18: a Tleilax ghola plays only if no House in play holds the real character; the Atreides
    Idaho-Ghola (A11) never starts in play, whoever plays (he enters only by S-6)."""
    leader, power = power_of(power_id)
    real = _real_houses(leader)
    if leader.house == "atreides":  # A11: "ne peut pas jouer si le vrai Duncan Idaho est présent dans le jeu"
        for other in ("harkonnen", "bene-tleilax", "fremen"):
            assert not _plays(["atreides", other], leader)
        return
    for house in real:
        assert not _plays([leader.house, house], leader), (power.id, house)
    neutral = _neutral(leader, real)
    assert _plays([leader.house, neutral], leader)
    state = new_game([leader.house, neutral], seed=1)
    assert (leader.house, leader.id) in traitor_pool(play_setup([leader.house, neutral],
                                                                 stop_before="traitor-draw"))
    assert state.houses[leader.house].leaders.count(leader.id) == 1


def test_k_23_every_exclusive_power_is_tested_by_one_of_the_two_scenes():
    assert sorted(params(test_k_23_exclusive_after_houses)) == sorted(ids_of(powers_of("EXCLUSIVE", "after")))
    assert sorted(params(test_k_23_exclusive_no_real_copy)) == sorted(ids_of(powers_of("EXCLUSIVE", "no_real")))
    assert len(powers_of("EXCLUSIVE")) == 25


# --- K-21 never_traitor, never_traitor_of (TRAITOR-1, TRAITOR-3, TRAITOR-4) ---------------------------------------

def _draw_scene(houses: list[str], drawer: str, target: tuple[str, str]):
    """Setup's traitor draw with ``target`` drawn by ``drawer`` (every other card: the first one left)."""
    state = play_setup(houses, stop_before="traitor-draw")
    assert target in traitor_pool(state)  # he may be drawn (TRAITOR-1): he is laid face down with the others
    forced = False
    while state.pending.kind == "traitor-draw":
        house = state.pending.detail["house"]
        wanted = DrawTraitor(house, *target)
        outcomes = list(outcome_map(state))
        if house == drawer and not forced and wanted in outcomes:
            state, forced = force(state, wanted), True
        else:
            state = force(state, next(o for o in outcomes if (o.leader_house, o.leader) != target))
    assert forced
    return state


def _pick_menu(state, house: str) -> set[tuple[str, str]]:
    """Play the other Houses' picks (first option) until ``house`` picks; its menu of leaders."""
    while state.pending.kind == "traitor-pick" and state.pending.actor != house:
        state = apply_action(state, legal_actions(state)[0])
    assert (state.pending.kind, state.pending.actor) == ("traitor-pick", house)
    return {(a.leader_house, a.leader) for a in legal_actions(state) if isinstance(a, PickTraitor)}


NEVER = powers_of("RESTRICTION", "never_traitor")
NEVER_OF = powers_of("RESTRICTION", "never_traitor_of")


@pytest.mark.parametrize("power_id", [
    "ATREIDES-L11-b", "DISPERSION-L09-c", "DISPERSION-L10-c", "DISPERSION-L11-c", "DISPERSION-L12-c",
    "TLEILAX-L05-a", "TLEILAX-L06-a", "TLEILAX-L07-a", "TLEILAX-L08-a", "TLEILAX-L10-b", "TLEILAX-L11-b",
    "TLEILAX-L12-b"])
def test_k_21_never_traitor_drawn_not_picked(power_id):
    """K-21 never_traitor: "ne peut jamais être un traître". Drawn by another House at setup, he is not in its pick
    menu; drawn by the Harkonnen (who keep all they draw, TRAITOR-3), he is merely safe."""
    leader, _power = power_of(power_id)
    target = (leader.house, leader.id)
    if leader.house == "atreides":  # A11 never starts in play (X-3, S-6): his roster entry says it
        assert not any(can_be_traitor_of(leader, house) for house in HOUSES)
        return
    picker = "emperor"
    assert picker not in _prior_houses_of_copy(leader)
    assert target not in _pick_menu(_draw_scene([leader.house, picker], picker, target), picker)
    if "harkonnen" not in _prior_houses_of_copy(leader):
        state = _draw_scene([leader.house, "harkonnen"], "harkonnen", target)
        assert target not in state.houses["harkonnen"].traitors


def _prior_houses_of_copy(leader: Leader) -> list[str]:
    """The Houses before this copy on its character's precedence list, and the real copies' Houses of a ghola."""
    for character in load_characters():
        if (leader.house, leader.id) in character.copies:
            index = character.copies.index((leader.house, leader.id))
            return [house for house, _id in character.copies[:index]]
        if character.ghola == (leader.house, leader.id):
            return [house for house, _id in character.copies]
    return []


@pytest.mark.parametrize(("power_id", "house", "other"), [("FREMEN-L10-b", "atreides", "emperor"),
                                                          ("GUILD-L11-b", "harkonnen", "emperor")])
def test_k_21_never_traitor_of_one_house_only(power_id, house, other):
    """K-21 never_traitor_of(X): Jamis never betrays the Atreides (F10-b), Staban never the Harkonnen (G11-b);
    another House may pick him."""
    leader, power = power_of(power_id)
    assert power.effect.args[0].split()[1].lower() in HOUSE_WORDS and HOUSE_WORDS[
        power.effect.args[0].split()[1].lower()] == house
    target = (leader.house, leader.id)
    state = _draw_scene([leader.house, house, other], house, target)
    if house == "harkonnen":
        assert target not in state.houses["harkonnen"].traitors
    else:
        assert target not in _pick_menu(state, house)
    state = _draw_scene([leader.house, house, other], other, target)
    assert target in _pick_menu(state, other)


def test_k_21_the_never_traitor_powers_are_the_fourteen_of_the_spec():
    assert sorted(params(test_k_21_never_traitor_drawn_not_picked)) == sorted(ids_of(NEVER))
    assert ids_of(NEVER_OF) == ["FREMEN-L10-b", "GUILD-L11-b"]


# --- K-20 REGENERATES (houses.md TLEILAX-P3) --------------------------------------------------------------------

def test_k_20_the_four_regenerates_powers():
    assert sorted(params(test_k_20_regenerates_the_next_turn)) == sorted(ids_of(powers_of("REGENERATES")))


def _tleilax_board():
    state = set_storms(clear_map(quiet_setup(["bene-tleilax", "atreides"])), main=10)
    hs = state.houses["atreides"]
    return dataclasses.replace(state, events=(), houses=state.houses.set("atreides", dataclasses.replace(
        hs, hand=())))


def _killed(state, *leaders: str):
    hs = state.houses["bene-tleilax"]
    return dataclasses.replace(state, houses=state.houses.set("bene-tleilax", dataclasses.replace(
        hs, leaders=tuple(x for x in hs.leaders if x not in leaders), leader_tanks=hs.leader_tanks + leaders)))


@pytest.mark.parametrize("power_id", ["TLEILAX-L01-a", "TLEILAX-L02-a", "TLEILAX-L03-a", "TLEILAX-L04-a"])
def test_k_20_regenerates_the_next_turn(power_id):
    """K-20: "régénère le tour de jeu suivant": killed in turn 2 with Goose (no REGENERATES), he is back at the
    start of turn 3; Goose only at the start of turn 4 (TLEILAX-P3)."""
    leader, power = power_of(power_id)
    assert power.effect.args == ("1",)
    state = _killed(_tleilax_board(), leader.id, "goose")
    state = regeneration.begin_turn(dataclasses.replace(state, turn=3))
    tleilax = state.houses["bene-tleilax"]
    assert leader.id in tleilax.leaders and leader.id not in tleilax.leader_tanks
    assert "goose" in tleilax.leader_tanks
    assert [e.data["leader"] for e in state.events if e.kind == "leader-regenerated"] == [leader.id]
