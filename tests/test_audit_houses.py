"""Independent audit of houses.md (session 12, auditH): each House power, main-leader power or Karama use found
not to act as the spec states, rebuilt as its scene and played through the engine."""

from __future__ import annotations

import dataclasses

from helpers_game import assert_conserved, clear_map, force, place, put_spice, quiet_setup, set_storms

from dunenb.actions import Pass
from dunenb.engine import apply_action, check_action, legal_actions
from dunenb.rules import movement, spice, storm
from dunenb.rules.karama_window import UseKarama
from dunenb.rules.worm_riding import RideWorm
from dunenb.state import FrozenDict, GameState, Tokens


def _board(houses: list[str], *, storm_at: int, hands: dict[str, tuple[str, ...]]) -> GameState:
    """An empty map with the main storm on ``storm_at`` and the hands given."""
    state = set_storms(clear_map(quiet_setup(houses)), main=storm_at)
    for house, cards in hands.items():
        hs = state.houses[house]
        state = dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(hs, hand=cards)))
    return dataclasses.replace(state, events=())


def _to_slot(state: GameState, house: str) -> GameState:
    """From the start of step e): pass every window and end other slots until ``house``'s slot is open."""
    state = movement.begin_phase(dataclasses.replace(state, events=()))
    while state.pending.kind != "movement" or state.pending.actor != house:
        actor, kind = state.pending.actor, state.pending.kind
        if kind == "slot-choice":
            state = apply_action(state, movement.TakeSlot(actor) if actor == house else Pass(actor))
        elif kind == "movement":
            state = apply_action(state, movement.EndSlot(actor))
        else:
            state = apply_action(state, Pass(actor))
    return state


def _pass_weather(state: GameState) -> GameState:
    while state.pending is not None and state.pending.kind == "weather":
        state = apply_action(state, Pass(state.pending.actor))
    return state


# --- FREMEN-P3 / KARAMA-7 in the storm phase ---------------------------------------------------------------

def _storm_over_fremen(karama: bool) -> GameState:
    """Turn 2's storm phase: the main storm on 10, the Fremen token says 7, so it sweeps sectors 11-17; 4 Fremen
    and 3 Atreides wait in the Grande Etendue, sector 17 (a desert); the Atreides hold a Karama or no card
    (GAP-63: a House with a hand is asked, whatever it holds)."""
    state = _board(["fremen", "atreides"], storm_at=10, hands={"atreides": ("karama",) if karama else ()})
    state = place(place(state, "fremen", "grande-etendue", 17, 4), "atreides", "grande-etendue", 17, 3)
    state = dataclasses.replace(state, storm_tokens=FrozenDict({"main": 7}))
    return _pass_weather(storm.begin_phase(state))


def test_fremen_p3_karama_7_gap_149_the_storm_phase_asks_the_karama_before_the_storm_halves_a_fremen_group():
    state = _storm_over_fremen(karama=True)
    assert state.pending.kind == "karama-window" and state.pending.actor == "atreides"
    assert "KARAMA-7" in state.pending.detail["uses"]
    assert UseKarama("atreides", "KARAMA-7", "karama") in legal_actions(state)
    state = apply_action(state, UseKarama("atreides", "KARAMA-7", "karama"))
    assert state.storm_main == 17
    assert ("fremen", "grande-etendue", 17) not in state.forces  # the whole group is lost (KARAMA-7)
    assert ("atreides", "grande-etendue", 17) not in state.forces
    assert state.houses["fremen"].tanks == Tokens(4)
    assert state.suppressions == ()  # that storm event only (GAP-149)
    assert "karama" in state.treachery_discard
    assert_conserved(state)


def test_fremen_p3_karama_7_passed_in_the_storm_phase_the_fremen_lose_half_rounded_up():
    state = _storm_over_fremen(karama=True)
    state = apply_action(state, Pass("atreides"))
    assert state.storm_main == 17
    assert state.forces[("fremen", "grande-etendue", 17)] == Tokens(2)  # ceil(4 / 2) = 2 lost (FREMEN-P3)
    assert state.houses["fremen"].tanks == Tokens(2)


def test_fremen_p3_no_window_when_no_fremen_group_would_be_halved():
    state = _storm_over_fremen(karama=False)  # no hand to ask: the storm moves at once
    assert state.pending is None or state.pending.kind != "karama-window" or \
        "KARAMA-7" not in state.pending.detail["uses"]
    assert state.storm_main == 17
    assert state.forces[("fremen", "grande-etendue", 17)] == Tokens(2)
    one = _board(["fremen", "atreides"], storm_at=10, hands={"atreides": ("karama",)})
    one = place(one, "fremen", "grande-etendue", 17, 1)  # a single token is lost either way: nothing to block
    one = _pass_weather(storm.begin_phase(dataclasses.replace(one, storm_tokens=FrozenDict({"main": 7}))))
    assert one.storm_main == 17 and ("fremen", "grande-etendue", 17) not in one.forces
    assert not (one.pending is not None and one.pending.kind == "karama-window"
                and "KARAMA-7" in one.pending.detail["uses"])


# --- FREMEN-P2 b / KARAMA-6 (ii): the Karama after a ride is announced -----------------------------------------

def _ride_announced(hands: tuple[str, ...]) -> GameState:
    """A worm strikes the Grande Etendue (4 Fremen tamed in sector 17, 3 Atreides devoured in 18); the Fremen
    announce a ride of all 4 to the Erg Mineur, sector 7, where 2 Atreides and 5 spice lie."""
    state = _board(["fremen", "atreides"], storm_at=1, hands={"atreides": hands})
    state = put_spice(put_spice(state, "grande-etendue", 6), "erg-mineur", 5)
    state = place(place(state, "fremen", "grande-etendue", 17, 4), "atreides", "grande-etendue", 18, 3)
    state = place(state, "atreides", "erg-mineur", 7, 2)
    deck = dataclasses.replace(state.spice_deck, pile_tops=("grande-etendue", None))
    state = force(spice.begin_blow(dataclasses.replace(state, spice_deck=deck)), spice.DrawSpiceCard(1, "worm"))
    if state.pending.kind == "karama-window":  # KARAMA-6 (i), at the strike: passed
        state = apply_action(state, Pass("atreides"))
    assert state.pending.kind == "ride" and ("fremen", "grande-etendue", 17) in state.forces  # tamed (P2 a)
    return apply_action(state, RideWorm("fremen", "grande-etendue", 17, "erg-mineur", 7, 4))


def test_fremen_p2_karama_6_gap_150_after_a_ride_is_announced_the_worm_devours_the_riders_at_the_destination():
    state = _ride_announced(("karama",))
    assert state.pending.kind == "karama-window" and state.pending.actor == "atreides"
    assert state.pending.detail["uses"] == ("KARAMA-6",)
    run_before, windows_before = state.worm_run, state.alliance_windows
    state = apply_action(state, UseKarama("atreides", "KARAMA-6", "karama"))
    assert ("fremen", "erg-mineur", 7) not in state.forces  # the riders are devoured
    assert ("atreides", "erg-mineur", 7) not in state.forces  # so is every token at the destination
    assert "erg-mineur" not in state.spice_on_map  # and its spice
    assert state.houses["fremen"].tanks == Tokens(4) and state.houses["atreides"].tanks == Tokens(5)
    assert (state.worm_run, state.alliance_windows) == (run_before, windows_before)  # no card (GAP-150)
    assert state.pending.kind == "spice" and state.suppressions == ()  # the next card; the use lasted that worm
    assert_conserved(state)


def test_fremen_p2_karama_6_passed_after_the_announcement_the_ride_is_made():
    state = _ride_announced(("karama",))
    state = apply_action(state, Pass("atreides"))
    assert state.forces[("fremen", "erg-mineur", 7)] == Tokens(4)
    assert state.forces[("atreides", "erg-mineur", 7)] == Tokens(2) and state.spice_on_map["erg-mineur"] == 5
    assert state.pending.kind == "spice"
    nobody = _ride_announced(())  # no hand to ask (GAP-63): the ride is made at once
    assert nobody.forces[("fremen", "erg-mineur", 7)] == Tokens(4) and nobody.pending.kind == "spice"


def test_fremen_p2_the_riders_of_one_strike_go_to_one_desert_territory_into_one_sector_of_it():
    state = _board(["fremen", "atreides"], storm_at=1, hands={"atreides": ()})
    state = place(place(state, "fremen", "grande-etendue", 17, 4), "fremen", "grande-etendue", 19, 2)
    deck = dataclasses.replace(state.spice_deck, pile_tops=("grande-etendue", None))
    state = force(spice.begin_blow(dataclasses.replace(state, spice_deck=deck)), spice.DrawSpiceCard(1, "worm"))
    assert state.pending.kind == "ride" and state.pending.detail["sector"] == 17
    state = apply_action(state, RideWorm("fremen", "grande-etendue", 17, "erg-mineur", 7, 4))
    assert state.pending.kind == "ride" and state.pending.detail["sector"] == 19  # the second army of T
    rides = [a for a in legal_actions(state) if isinstance(a, RideWorm)]
    assert rides and {(a.to_area, a.to_sector) for a in rides} == {("erg-mineur", 7)}  # only joining the first
    elsewhere = RideWorm("fremen", "grande-etendue", 19, "mesa-maya", 10, 2)
    assert check_action(state, elsewhere).code == "ride/destination"
    state = apply_action(state, RideWorm("fremen", "grande-etendue", 19, "erg-mineur", 7, 2))
    assert state.forces[("fremen", "erg-mineur", 7)] == Tokens(6) and state.pending.kind == "spice"


# --- GUILD-M1 / KARAMA-17: the tokens the Guild cannot pay for ------------------------------------------------

def test_guild_m1_karama_17_the_tokens_the_guild_cannot_pay_stay_in_reserve_and_the_event_names_karama_17():
    state = _board(["guild", "atreides"], storm_at=10, hands={"atreides": ("karama",)})
    state = dataclasses.replace(state, houses=state.houses.set("guild", dataclasses.replace(
        state.houses["guild"], spice=5)), bank=state.bank - (5 - state.houses["guild"].spice))
    state = _to_slot(state, "guild")
    state = apply_action(state, movement.Land("guild", "pole-nord", 1, 8))
    assert state.pending.kind == "karama-window"
    state = apply_action(state, UseKarama("atreides", "KARAMA-17", "karama"))
    events = list(state.events)
    # KARAMA-17: the 8 tokens pay GUILD-P2, half of 2 each at the Pole: 1 a token, so 5 spice land 5
    assert [e.data["count"] for e in events if e.kind == "land"] == [5]
    reduced = [e for e in events if e.kind == "land-reduced"]
    assert [e.data["count"] for e in reduced] == [3]
    assert "KARAMA-17" in reduced[0].text and "KARAMA-15" not in reduced[0].text  # the use played, not another
    assert state.houses["guild"].spice == 0


# --- ATREIDES-P1 / TLEILAX-M1 / G-4: a prescience answer names Waff's pistol ----------------------------------

def _waff_asked(hands: tuple[str, ...] = ()) -> GameState:
    from helpers_game import decisions
    from test_leader_mind_powers import scene, until

    from dunenb.rules.pre_battle import AskPrescience

    state = until(scene(["atreides", "bene-tleilax"], hands={"bene-tleilax": hands}), "atreides", "ATREIDES-P1")
    state = apply_action(state, AskPrescience("atreides", "attack"))
    while state.pending.kind != "battle-answer":
        state = apply_action(state, decisions(state)[0])
    return state


def test_atreides_p1_tleilax_m1_the_answer_your_attack_names_waffs_pistol():
    """houses.md ATREIDES-P1: the answer 'includes built-in weapons (G-4)'; TLEILAX-M1: Waff always carries a
    distance projectile. Led by Waff with no attack card, the Tleilax wheel shows a projectile: 'projectile' is a
    truthful answer, and after 'none' Waff may not lead (before, 'none' let his pistol kill unseen)."""
    from helpers_game import skip_pre_battle
    from test_leader_mind_powers import at_plan_of

    from dunenb.rules.battle_phase import SubmitPlan
    from dunenb.rules.pre_battle import AnswerPrescience, answer_choices

    state = _waff_asked()
    assert "projectile" in answer_choices(state, "bene-tleilax")
    waff = SubmitPlan("bene-tleilax", "tylwyth-waff", 1, 0, 0, "none", "none")
    other = SubmitPlan("bene-tleilax", "goose", 1, 0, 0, "none", "none")
    said = skip_pre_battle(apply_action(state, AnswerPrescience("bene-tleilax", "projectile")))
    said = at_plan_of(said, "bene-tleilax", ("duncan-idaho", 1, 0, 0))
    assert check_action(said, waff) is None
    assert check_action(said, other).code == "battle/bound-by-voice"  # 'projectile' binds: no pistol, no card
    none = skip_pre_battle(apply_action(state, AnswerPrescience("bene-tleilax", "none")))
    none = at_plan_of(none, "bene-tleilax", ("duncan-idaho", 1, 0, 0))
    assert check_action(none, waff).code == "battle/bound-by-voice"  # his pistol is an attack
    assert check_action(none, other) is None


def test_atreides_p1_tleilax_m1_waff_with_a_poison_answers_poison_and_projectile_in_a_case():
    from dunenb.battle.case import parse_case
    from dunenb.errors import InputError

    def case(answer: str) -> dict:
        def side(house: str, leader: str, weapon: str | None) -> dict:
            return {"house": house, "tokens": {"regular": 5, "elite": 0},
                    "dial": {"regular": 2, "elite": 0, "spice": 2}, "leader": leader, "weapon": weapon,
                    "defense": None}
        return {"format": "dunenb.battle/1", "territory": "bassin-imperial", "defender": "atreides",
                "sides": [side("atreides", "gurney", None), side("bene-tleilax", "tylwyth-waff", "poison-fast")],
                "prescience": {"by": "atreides", "slot": "attack", "answer": answer}}

    assert parse_case(case("poison+projectile")).sequence is not None
    for wrong in ("poison", "none"):
        try:
            parse_case(case(wrong))
        except InputError as error:
            assert "the wheel shows poison+projectile" in str(error)
        else:
            raise AssertionError(f"the answer {wrong!r} was accepted")


# --- BG-P1 / CARD-ATOMICS-4: Atomics forced by the Voice make no outlaw ------------------------------------------

def _forced_atomics_battle(command: bool) -> GameState:
    """The BG (Darwi) fight the Atreides, who hold Atomics; the BG force (or not) the Atomics with the Voice; the
    Atreides play them with Gurney."""
    from helpers_game import play_battle, skip_pre_battle
    from test_leader_mind_powers import scene, until

    from dunenb.rules.battle_phase import SubmitPlan
    from dunenb.rules.pre_battle import UseVoice

    state = until(scene(["bene-gesserit", "atreides"], hands={"atreides": ("atomics",), "bene-gesserit": ()}),
                  "bene-gesserit", "BG-P1")
    if command:
        state = apply_action(state, UseVoice("bene-gesserit", "force", "atomics"))
    state = skip_pre_battle(state)
    plans = {"bene-gesserit": SubmitPlan("bene-gesserit", "darwi", 1, 0, 0, "none", "none"),
             "atreides": SubmitPlan("atreides", "gurney", 1, 0, 0, "atomics", "none")}
    return play_battle(state, plans, past_outcome=True, until=lambda s: s.phase != "battle")


def test_bg_p1_a_house_the_voice_forces_to_play_atomics_is_no_outlaw():
    forced = _forced_atomics_battle(command=True)
    assert any(e.kind == "battle-outcome" for e in forced.events)
    assert "atreides" not in forced.outlawed  # houses.md BG-P1: no outlaw act, nobody sanctioned
    free = _forced_atomics_battle(command=False)
    assert "atreides" in free.outlawed  # CARD-ATOMICS-4: Atomics played freely are an outlaw act


def test_bg_p1_case_atomics_forced_by_the_voice_are_not_outlawed_in_the_outcome():
    from dunenb.battle.case import case_outcomes, parse_case

    def case(voice: bool) -> dict:
        def side(house: str, leader: str, weapon: str | None, hand: list[str]) -> dict:
            return {"house": house, "tokens": {"regular": 5, "elite": 0},
                    "dial": {"regular": 2, "elite": 0, "spice": 2}, "leader": leader, "weapon": weapon,
                    "defense": None, "hand": hand}
        raw = {"format": "dunenb.battle/1", "territory": "bassin-imperial", "defender": "bene-gesserit",
               "sides": [side("bene-gesserit", "darwi", None, []), side("atreides", "gurney", "atomics", ["atomics"])]}
        if voice:
            raw["voice"] = {"by": "bene-gesserit", "mode": "force", "kind": "atomics"}
        return raw

    forced = [outcome.outlawed for _p, outcome in case_outcomes(parse_case(case(True)))]
    free = [outcome.outlawed for _p, outcome in case_outcomes(parse_case(case(False)))]
    assert forced and all(outlawed == () for outlawed in forced)
    assert free and all(outlawed == ("atreides",) for outlawed in free)


def test_atreides_p1_tleilax_m1_after_an_answer_only_waff_can_give_no_other_leader_is_disclosed_at_b3():
    """GUILD-M2 asks the Tleilax 'your attack?' and they answer 'projectile+atomics' (Waff's pistol and their
    Atomics card: only Waff can show it). The Idaho-Ghola's B3 power (TLEILAX-L10-e, sense_karama) would disclose
    him, and he would have to lead with a wheel that cannot show that answer: it is not offered (GAP-138; the
    conformance game of seed 123 reached no legal plan that way)."""
    from helpers_game import decisions
    from test_leader_mind_powers import scene, until

    from dunenb.rules.leader_pre_battle import UsePreBattle
    from dunenb.rules.pre_battle import AnswerPrescience, AskPrescience, answer_choices

    state = until(scene(["guild", "bene-tleilax"], hands={"bene-tleilax": ("atomics",)}), "guild", "GUILD-M2")
    assert "idaho-ghola" in state.houses["bene-tleilax"].leaders
    state = apply_action(state, AskPrescience("guild", "attack"))
    while state.pending.kind != "battle-answer":
        state = apply_action(state, decisions(state)[0])
    assert "projectile+atomics" in answer_choices(state, "bene-tleilax")
    state = apply_action(state, AnswerPrescience("bene-tleilax", "projectile+atomics"))
    seen = []
    while state.pending.kind != "battle-plan":
        if state.pending.kind == "leader-pre-battle" and state.pending.actor == "bene-tleilax":
            seen += [a.leader for a in decisions(state) if isinstance(a, UsePreBattle)]
        state = apply_action(state, decisions(state)[0])
    assert "idaho-ghola" not in seen
