"""Engine core: checked actions and their codes, action serialisation, configuration, chance, views."""

from __future__ import annotations

import copy
import json
from fractions import Fraction

import numpy as np
import pytest
from helpers_game import (
    dial,
    give_cards,
    give_weather_control,
    play_setup,
    quiet_setup,
)

from dunenb.actions import (
    ACTION_KINDS,
    Action,
    ChooseStart,
    DialStorm,
    DrawSpiceCard,
    DrawStormToken,
    InitialStormDial,
    Pass,
    PlaceStartingForces,
    PlayWeatherControl,
    Roll3d10,
    RollWormDice,
    action_from_dict,
    parse_action,
)
from dunenb.engine import (
    apply_action,
    chance_outcomes,
    check_action,
    current_player,
    is_terminal,
    legal_actions,
    make_config,
    new_game,
    sample_chance,
    view,
)
from dunenb.errors import IllegalActionError, InputError, SaveFormatError
from dunenb.rules.alliances import AcceptOffer, DeclarePeace, DeclareWar, DeclineOffer, EndWindow, Offer
from dunenb.rules.anytime import KaramaAnyTime, PlayGhola
from dunenb.rules.atomics import BlowShieldWall
from dunenb.rules.battle_phase import BattleDie, CallTraitor, ChooseBattle, DiscardCards, SubmitPlan
from dunenb.rules.battle_powers import (
    BuyOff,
    Captive,
    CaptureDraw,
    ChooseCaptive,
    DiscardSlip,
    KeepNewTraitor,
    NewTraitorDraw,
)
from dunenb.rules.bidding import AuctionCard, Bid, DrawTreacheryCard, ImperialFill, KaramaBid, PayBid
from dunenb.rules.chance import DrawChanceCard
from dunenb.rules.collection import CommitHarvester, DoneHarvesting
from dunenb.rules.immunity_rolls import DeclareVoiceImmunity, ImmunityRoll
from dunenb.rules.karama_window import UseKarama
from dunenb.rules.kynes import CallWorm, LocalStorm
from dunenb.rules.leader_after_battle import DiscardFree, GiveCard, LeaderDie, MoveTokens, PayUnseen
from dunenb.rules.leader_after_battle import ShowSlip as ShowTraitorSlip
from dunenb.rules.leader_capture import CaptureDie, TryCapture
from dunenb.rules.leader_deals import AnswerAlliance, GiveLeader, LeaderBuyOff, ProposeAlliance, ShowSlip
from dunenb.rules.leader_inherit import ChooseHeir
from dunenb.rules.leader_pre_battle import (
    AnnounceSpice,
    LeaderCard,
    LeaderTraitorDraw,
    NameEstimate,
    PreBattleDraw,
    SeeCard,
    SeeStorm,
    UsePreBattle,
)
from dunenb.rules.leader_rolls import LeaderRoll
from dunenb.rules.leader_spare import AcceptSpare, OfferSpare
from dunenb.rules.leader_specials import BlastShieldWall, GholaReturn, OpenPoleBattle, SubstituteLeader
from dunenb.rules.leader_tanks import DestroyTanks, TanksDie
from dunenb.rules.leader_torture import TortureDie
from dunenb.rules.movement import (
    BuyHarvester,
    Emerge,
    EndSlot,
    Land,
    LandAdvisor,
    LandInPeace,
    Move,
    PlayHajj,
    Reposition,
    Revive,
    SellHarvester,
    TakeSlot,
)
from dunenb.rules.on_call import OnCallDiscard, OnCallDraw
from dunenb.rules.pre_battle import AnswerPrescience, AskPrescience, CommitLeader, KnowLeader, UseVoice, VoiceRoll
from dunenb.rules.traitors import DrawTraitor, PickTraitor, Predict
from dunenb.rules.truth_trance import AskTruthTrance
from dunenb.rules.worm_riding import RideWorm
from dunenb.state import GameConfig

THREE = ["atreides", "harkonnen", "emperor"]


def rejected(state, action) -> str:
    """Apply an illegal action: return its code after checking that the state did not change."""
    snapshot = copy.deepcopy(state)
    with pytest.raises(IllegalActionError) as info:
        apply_action(state, action)
    assert state == snapshot
    error = check_action(state, action)
    assert error is not None and error.code == info.value.code
    return info.value.code


def at_start_choice():
    return play_setup(THREE, rolls={"atreides": 4, "harkonnen": 5, "emperor": 6}, stop_before="start")


def random_game(seed, houses, *, options=None, limit=4):
    """Uniform random play; returns every state visited."""
    rng = np.random.default_rng(seed)
    state = new_game(houses, seed=seed, turn_limit=limit, **(options or {}))
    states = [state]
    while not is_terminal(state):
        if current_player(state) == "chance":
            action = sample_chance(state)
        else:
            actions = legal_actions(state)
            action = actions[rng.integers(len(actions))]
        state = apply_action(state, action)
        states.append(state)
    return states


# --- illegal actions ------------------------------------------------------------------------------------------

def test_not_your_turn_is_rejected():
    state = at_start_choice()
    assert state.pending.actor == "atreides"
    assert rejected(state, ChooseStart("harkonnen", 5)) == "action/not-your-turn"


def test_an_illegal_choice_is_rejected():
    state = apply_action(at_start_choice(), ChooseStart("atreides", 5))
    assert rejected(state, ChooseStart("harkonnen", 6)) == "action/illegal"
    assert rejected(state, ChooseStart("harkonnen", 5)) == "action/illegal"
    assert rejected(state, ChooseStart("harkonnen", 25)) == "action/illegal"


def test_a_wrong_kind_of_decision_is_rejected():
    state = at_start_choice()
    assert rejected(state, Pass("atreides")) == "action/wrong-kind"
    assert rejected(state, DialStorm("main", "atreides", 1)) == "action/wrong-kind"


def test_a_chance_outcome_at_a_decision_is_rejected():
    state = at_start_choice()
    assert rejected(state, Roll3d10("atreides", 10)) == "action/chance-at-decision"
    assert rejected(state, DrawSpiceCard(1, "worm")) == "action/chance-at-decision"


def test_an_impossible_chance_outcome_is_rejected():
    state = new_game(THREE, seed=1)
    assert rejected(state, Roll3d10("atreides", 2)) == "chance/not-an-outcome"
    assert rejected(state, Roll3d10("atreides", 31)) == "chance/not-an-outcome"
    assert rejected(state, Roll3d10("harkonnen", 10)) == "chance/not-an-outcome"  # not his roll yet
    assert rejected(state, ChooseStart("atreides", 3)) == "chance/not-an-outcome"  # a decision at a chance node
    blow = dial(quiet_setup(THREE), 0, 0)
    assert rejected(blow, DrawSpiceCard(1, "bassin-du-bouclier/6")) == "chance/not-an-outcome"  # already drawn
    assert rejected(blow, DrawSpiceCard(2, "worm")) == "chance/not-an-outcome"  # pile 1 is due


def test_actions_after_the_game_is_over_are_rejected():
    state = quiet_setup(THREE, turn_limit=1)
    assert is_terminal(state) and current_player(state) is None
    assert legal_actions(state) == []
    assert rejected(state, DrawSpiceCard(1, "worm")) == "game/over"
    assert rejected(state, Pass("atreides")) == "game/over"
    with pytest.raises(IllegalActionError) as info:
        chance_outcomes(state)
    assert info.value.code == "game/over"


def test_non_actions_and_sampling_at_a_decision_are_rejected():
    state = at_start_choice()
    assert rejected(state, "start atreides 5") == "action/type"
    with pytest.raises(IllegalActionError) as info:
        sample_chance(state)
    assert info.value.code == "chance/not-chance"


def test_a_weather_control_card_must_be_held_and_name_the_pending_storm():
    state = dial(give_weather_control(quiet_setup(THREE, secondary_storm=True), "atreides"), 1, 1)
    assert state.pending.kind == "weather"
    assert rejected(state, PlayWeatherControl("atreides", "secondary", "plus2")) == "action/illegal"
    assert rejected(state, PlayWeatherControl("atreides", "main", "plus3")) == "action/illegal"
    assert rejected(state, PlayWeatherControl("harkonnen", "main", "plus2")) == "action/not-your-turn"


# --- serialisation --------------------------------------------------------------------------------------------

HAND_MADE = [
    Roll3d10("atreides", 17), RollWormDice(7), ChooseStart("guild", 24), InitialStormDial("secondary", "fremen", 20),
    PlaceStartingForces("fremen", (("sietch-tarb", 12, 4, 0), ("mesa-maya", 9, 3, 0), ("mur-sud", 13, 3, 0))),
    PlaceStartingForces("fremen", ()), DrawStormToken("main", 7), DialStorm("main", "bene-gesserit", 3),
    PlayWeatherControl("emperor", "secondary", "stop", 0), PlayWeatherControl("emperor", "main", "plus2"),
    Pass("bene-tleilax"), DrawSpiceCard(2, "worm"), DrawSpiceCard(1, "bassin-du-bouclier/6"),
]
# setup c)-d) and battles (dunenb.rules.traitors, dunenb.rules.battle_phase)
HAND_MADE += [
    Predict("bene-gesserit", "fremen", 4), DrawTraitor("harkonnen", "atreides", "duncan-idaho"),
    PickTraitor("dispersion", "atreides", "duncan-idaho"), ChooseBattle("atreides", "arsunt", 5, "harkonnen"),
    SubmitPlan("atreides", "paul", 3, 0, 2, "poison-fast", "shield"), SubmitPlan("guild", "none", 1, 0, 0),
    CallTraitor("dispersion", "duncan-idaho"), BattleDie("harkonnen", 10), DiscardCards("atreides", "none"),
    DiscardCards("atreides", "worthless,shield"), VoiceRoll("emperor", 4),  # leaders.md K-11 d10≤N (GAP-101)
    LeaderRoll("harkonnen", "HARKONNEN-L10-c", 2),  # leaders.md D-31
    ImmunityRoll("guild", "edric", "GUILD-L01-b", 8), DeclareVoiceImmunity("bene-tleilax", "miles-teg-ghola"),  # K-10
]
# TURN-1 e) (dunenb.rules.movement)
HAND_MADE += [
    Revive("atreides", 2, 1), Land("guild", "pole-nord", 1, 5, 0), Emerge("fremen", "sietch-tarb", 12, 3),
    Move("atreides", "arrakeen", 1, (("bassin-imperial", 2), ("carthag", 4)), 4, 1),
    Reposition("harkonnen", "grande-etendue", 16, 19, 2), BuyHarvester("emperor", 2), SellHarvester("atreides"),
    EndSlot("harkonnen"), PlayHajj("emperor"),
]
# at any time (dunenb.rules.anytime, GAP-57)
HAND_MADE += [KaramaAnyTime("harkonnen", "KARAMA-41", "karama"), PlayGhola("atreides", 3, 1, "gurney-halleck"),
              PlayGhola("harkonnen", 0, 0, "atreides:thufir-hawat")]
# TURN-1 f) (dunenb.rules.collection)
HAND_MADE += [CommitHarvester("atreides", "erg-mineur", 7), DoneHarvesting("guild")]
# TURN-1 d) (dunenb.rules.bidding)
HAND_MADE += [
    DrawTreacheryCard("harkonnen", "karama"), AuctionCard(1, "shield"), Bid("emperor", 3), PayBid("atreides"),
    KaramaBid("bene-gesserit", "worthless"),
]
# TURN-1 h) (dunenb.rules.chance, optional: GAP-20)
HAND_MADE += [DrawChanceCard(1, "ixian-harvester"), DrawChanceCard(2, "spice-windfall-5")]
# GAP-19a alliance windows and TURN-1 g) peace/war (dunenb.rules.alliances)
HAND_MADE += [
    Offer("atreides", "harkonnen", "spice", "spice", 5), Offer("emperor", "guild", "card", "shield", 1, 2),
    AcceptOffer("harkonnen"), DeclineOffer("guild"), EndWindow("fremen"), DeclarePeace("bene-gesserit", "arsunt"),
    DeclareWar("bene-gesserit", "carthag"),
]

# CARD-WEATHER-2, CARD-ATOMICS-2 (dunenb.rules.storm, dunenb.rules.atomics)
HAND_MADE += [PlayWeatherControl("emperor", "main", "plus1"), BlowShieldWall("atreides")]
# issue 10: the House powers' actions (dunenb.rules.movement, bidding, worm_riding, karama_window)
HAND_MADE += [UseKarama("atreides", "KARAMA-15", "karama"),
              RideWorm("fremen", "grande-etendue", 17, "erg-mineur", 7, 3),
              LandAdvisor("bene-gesserit", "arrakeen", 1, 1), LandInPeace("bene-gesserit", "arrakeen", 1, 3),
              TakeSlot("guild"), ImperialFill("emperor", 2),
              LocalStorm("fremen", 17), CallWorm("fremen", "grande-etendue", 17, "erg-mineur", 7, 2, 1)]
# CARD-TRUTH-1, GAP-56 (dunenb.rules.truth_trance)
HAND_MADE += [AskTruthTrance("atreides", "harkonnen", "holds", "poison-slow"),
              AskTruthTrance("emperor", "guild", "traitor-among-mine"),
              AskTruthTrance("guild", "fremen", "spice-more-than", "20")]
# houses.md G-9: the Voice (BG-P1) and prescience (ATREIDES-P1) (dunenb.rules.pre_battle)
HAND_MADE += [UseVoice("bene-gesserit", "forbid", "poison"), AskPrescience("atreides", "defence"),
              AnswerPrescience("harkonnen", "poison"), KnowLeader("bene-gesserit"),
              CommitLeader("harkonnen", "feyd-rautha"),
              AskTruthTrance("bene-gesserit", "guild", "spice-more-than", "20", "BG-M1")]  # GAP-78, BG-M1/M2
# K-21 on-call effects (dunenb.rules.on_call, BG-L10-b)
HAND_MADE += [OnCallDraw("bene-gesserit", "harkonnen", "lasgun"), OnCallDiscard("bene-gesserit", "shield")]
# HARKONNEN-P4, -M1, -M2 (dunenb.rules.battle_powers)
HAND_MADE += [BuyOff("harkonnen", 12), CaptureDraw("harkonnen", "atreides", "gurney"),
              Captive("harkonnen", "atreides", "gurney", "kill"), DiscardSlip("harkonnen", "atreides", "jessica"),
              NewTraitorDraw("harkonnen", "fremen", "stilgar"), KeepNewTraitor("harkonnen", "fremen", "stilgar")]
# leaders.md S-1, S-5, S-6 (dunenb.rules.leader_specials)
HAND_MADE += [SubstituteLeader("fremen", "stilgar", "FREMEN-L01-c"), BlastShieldWall("atreides", "ATREIDES-L01-c"),
              GholaReturn("atreides", "duncan-idaho", "ATREIDES-L02-c")]
# leaders.md K-16, K-18, K-19 (dunenb.rules.leader_pre_battle, dunenb.rules.leader_deals)
HAND_MADE += [UsePreBattle("emperor", "farad-n", "EMPEROR-L12-a", "shield>lasgun"),
              AnnounceSpice("harkonnen", 2), NameEstimate("harkonnen", 3),
              PreBattleDraw("harkonnen", "HARKONNEN-L12-c", "2"),
              SeeCard("bene-gesserit", "BG-L08-b", "shield", "harkonnen"), LeaderCard("emperor", "lasgun"),
              LeaderTraitorDraw("harkonnen", "HARKONNEN-L08-c", "atreides", "duncan-idaho"),
              SeeStorm("guild", "GUILD-L11-c", "fremen", "main=3"), LeaderBuyOff("harkonnen", "HARKONNEN-L07-b", 5),
              ProposeAlliance("guild", "GUILD-L10-b", "spice", 2), AnswerAlliance("emperor", "accept"),
              ShowSlip("harkonnen", "fremen", "korba"), GiveLeader("fremen", "farok")]
# leaders.md K-17 after the battle (dunenb.rules.leader_after_battle, dunenb.rules.battle_powers)
HAND_MADE += [DiscardFree("emperor", "EMPEROR-L06-d", "shield"),  # K-17 discard_free
              MoveTokens("harkonnen", "HARKONNEN-L03-c", "ration", 2, 0),  # K-17 ration
              MoveTokens("emperor", "EMPEROR-L09-c", "reinforce", 1, 1),  # K-17 reinforce
              PayUnseen("harkonnen", "HARKONNEN-L06-c", 2),  # K-17 draw shown unless 2 paid
              ShowTraitorSlip("dispersion", "atreides", "DISPERSION-L07-d", "atreides", "duncan-idaho"),  # see_traitor
              LeaderDie("dispersion", "DISPERSION-L06-c", "active", 4),  # K-17 d10 (DISPERSION-L06-c)
              GiveCard("emperor", "EMPEROR-L04-c", "atreides", "shield", "hand"),  # K-17 give_card
              ChooseCaptive("harkonnen", "atreides", "gurney", "HARKONNEN-L07-c"),  # K-17 chosen_capture
              ChooseHeir("dispersion", "murbella", "DISPERSION-L02-c"),  # K-24 D02-d
              OpenPoleBattle("harkonnen", "atreides", "pole-nord", "HARKONNEN-L07-d")]  # S-9
HAND_MADE += [TanksDie("bene-tleilax", "TLEILAX-L03-d", 2),  # K-17 destroy_tanks 1d3 (dunenb.rules.leader_tanks)
              DestroyTanks("bene-tleilax", "TLEILAX-L03-d", "fremen", 1, 1),  # K-17 destroy_tanks
              OfferSpare("guild", "GUILD-L06-d", 4), AcceptSpare("fremen", "GUILD-L06-d", "guild", 4),  # K-17 spare
              TortureDie("bene-gesserit", "BG-L09-b", 3),  # K-17 torture (dunenb.rules.leader_torture)
              TryCapture("bene-gesserit", "BG-L03-b", "fremen", "otheym"),  # K-17 capture (leader_capture)
              CaptureDie("bene-gesserit", "BG-L03-b", 7)]


def played_actions():
    actions = list(HAND_MADE)
    for seed, houses in ((1, ["fremen", "atreides", "guild"]), (2, THREE)):
        states = random_game(seed, houses, options={"secondary_storm": True, "worm_option": "18+1d5"}, limit=3)
        for state in states[:-1]:
            actions.extend(legal_actions(state)[:5])
    return actions


def test_every_action_kind_round_trips_through_its_dict_and_its_notation():
    actions = played_actions()
    assert {a.kind for a in actions} == set(ACTION_KINDS)
    for action in actions:
        data = action.to_dict()
        assert data["kind"] == action.kind
        assert action_from_dict(data) == action
        assert action_from_dict(json.loads(json.dumps(data))) == action
        assert parse_action(action.notation()) == action
        assert str(action) == action.notation()


def test_actors_are_houses_or_chance():
    assert Roll3d10("atreides", 10).actor == "chance"
    assert DrawSpiceCard(1, "worm").actor == "chance"
    assert ChooseStart("guild", 3).actor == "guild"
    assert all(isinstance(a, Action) for a in HAND_MADE)


@pytest.mark.parametrize(("data", "code", "names"), [
    (["start", "atreides", 5], "action/type", "action"),
    ({"house": "atreides", "position": 5}, "action/kind", "action.kind"),
    ({"kind": "teleport", "house": "atreides"}, "action/kind", "teleport"),
    ({"kind": 5}, "action/kind", "action.kind"),
    ({"kind": "start", "house": "atreides"}, "action/field", "action.position"),
    ({"kind": "start", "house": "atreides", "position": "5"}, "action/field", "action.position"),
    ({"kind": "start", "house": "atreides", "position": True}, "action/field", "action.position"),
    ({"kind": "start", "house": 7, "position": 5}, "action/field", "action.house"),
    ({"kind": "start", "house": "atreides", "position": 5, "seat": 2}, "action/field", "seat"),
    ({"kind": "place", "house": "fremen", "placements": "sietch-tarb"}, "action/field", "action.placements"),
    ({"kind": "place", "house": "fremen", "placements": [["sietch-tarb", 12, 10]]}, "action/field",
     "action.placements[0]"),
    ({"kind": "place", "house": "fremen", "placements": [["sietch-tarb", "12", 10, 0]]}, "action/field",
     "action.placements[0][1]"),
    ({"kind": "spice", "pile": 1.0, "card": "worm"}, "action/field", "action.pile"),
])
def test_malformed_action_dicts_are_rejected_naming_the_field(data, code, names):
    with pytest.raises(SaveFormatError) as info:
        action_from_dict(data)
    assert info.value.code == code
    assert names in info.value.message


def test_a_default_field_may_be_left_out_of_the_dict():
    assert action_from_dict({"kind": "weather", "house": "emperor", "storm": "main", "mode": "plus2"}) == (
        PlayWeatherControl("emperor", "main", "plus2", 0))


@pytest.mark.parametrize("text", ["", "teleport atreides", "start atreides", "start atreides five",
                                  "start atreides 5 6", "place fremen sietch-tarb:12:x:0"])
def test_bad_notation_is_rejected(text):
    with pytest.raises(InputError) as info:
        parse_action(text)
    assert info.value.code == "action/notation"


# --- configuration --------------------------------------------------------------------------------------------

def test_make_config_accepts_the_table_choices():
    config = make_config(["fremen", "guild"], seed=0, secondary_storm=True, worm_option="36+1d10", turn_limit=7,
                         victory_target=3)
    assert config == GameConfig(("fremen", "guild"), 0, True, "36+1d10", 7, 3)
    assert config.to_dict()["houses"] == ["fremen", "guild"]


@pytest.mark.parametrize(("kwargs", "code", "field"), [
    ({"houses": ["atreides"]}, "config/houses", "houses"),
    ({"houses": ["atreides", "harkonnen", "fremen", "emperor", "guild", "dispersion", "bene-gesserit",
                 "bene-tleilax", "ixians"]}, "config/houses", "houses"),
    ({"houses": ["atreides", "corrino"]}, "config/houses", "houses"),
    ({"houses": ["atreides", "atreides"]}, "config/houses", "houses"),
    ({"seed": -1}, "config/seed", "seed"),
    ({"seed": True}, "config/seed", "seed"),
    ({"seed": "7"}, "config/seed", "seed"),
    ({"seed": 1.5}, "config/seed", "seed"),
    ({"worm_option": "18+4d10"}, "config/worm-option", "worm_option"),
    ({"secondary_storm": "yes"}, "config/secondary-storm", "secondary_storm"),
    ({"secondary_storm": 1}, "config/secondary-storm", "secondary_storm"),
    ({"turn_limit": 0}, "config/turn-limit", "turn_limit"),
    ({"turn_limit": True}, "config/turn-limit", "turn_limit"),
    ({"turn_limit": "10"}, "config/turn-limit", "turn_limit"),
    ({"victory_target": -2}, "config/victory-target", "victory_target"),
])
def test_make_config_rejects_bad_values_naming_the_field(kwargs, code, field):
    arguments = {"houses": THREE, "seed": 1, **kwargs}
    houses = arguments.pop("houses")
    with pytest.raises(InputError) as info:
        make_config(houses, **arguments)
    assert info.value.code == code
    assert field in info.value.message
    with pytest.raises(InputError):
        new_game(houses, **arguments)


# --- chance ---------------------------------------------------------------------------------------------------

def test_sample_chance_is_deterministic_for_a_state():
    state = new_game(THREE, seed=11)
    first = sample_chance(state)
    assert all(sample_chance(state) == first for _ in range(5))
    assert sample_chance(copy.deepcopy(state)) == first
    one = [s.events for s in random_game(5, ["fremen", "atreides"], limit=3)]
    two = [s.events for s in random_game(5, ["fremen", "atreides"], limit=3)]
    assert one == two
    rolls = {sample_chance(new_game(THREE, seed=seed)).total for seed in range(30)}
    assert len(rolls) > 3  # different seeds propose different outcomes


def test_sample_chance_follows_the_probabilities():
    state = play_setup(["fremen", "atreides"], stop_before="storm-token")
    import dataclasses

    counts: dict[int, int] = {}
    for counter in range(1400):
        value = sample_chance(dataclasses.replace(state, rng_counter=counter)).value
        counts[value] = counts.get(value, 0) + 1
    assert set(counts) == set(range(1, 8))
    assert all(150 <= n <= 250 for n in counts.values())  # 1/7 of 1400 = 200


@pytest.mark.parametrize(("seed", "houses", "options"), [
    (1, ["fremen", "atreides", "harkonnen"], {"secondary_storm": True}),
    (2, ["emperor", "guild"], {"worm_option": "18+3d10"}),
    (3, ["bene-gesserit", "bene-tleilax", "dispersion", "fremen"], {"worm_option": "36+1d5", "secondary_storm": True}),
])
def test_chance_probabilities_sum_to_exactly_one_everywhere(seed, houses, options):
    for state in random_game(seed, houses, options=options, limit=5):
        if is_terminal(state) or current_player(state) != "chance":
            if not is_terminal(state):
                assert chance_outcomes(state) == []
            continue
        outcomes = chance_outcomes(state)
        assert all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)
        assert sum(p for _, p in outcomes) == 1
        assert len({a for a, _ in outcomes}) == len(outcomes)
        assert legal_actions(state) == [a for a, _ in outcomes]


def test_apply_action_returns_a_new_state_and_resets_the_events():
    state = new_game(THREE, seed=1)
    after = apply_action(state, sample_chance(state))
    assert after is not state and state.houses["atreides"].rolls == ()
    assert after.rng_counter == state.rng_counter + 1
    following = apply_action(after, sample_chance(after))
    assert [e.kind for e in following.events] == ["roll"]
    decision = at_start_choice()
    chosen = apply_action(decision, legal_actions(decision)[0])
    assert chosen.rng_counter == decision.rng_counter  # decisions draw nothing


# --- views ----------------------------------------------------------------------------------------------------

def test_view_hides_other_hands_and_the_fremen_storm_tokens():
    state = quiet_setup(["fremen", "atreides", "harkonnen"], tokens={"main": 4}, secondary_storm=True,
                        stop_before="spice2")
    state = give_cards(state, "atreides", "weather-control", "karama")
    state = give_cards(state, "harkonnen", "lasgun")
    assert dict(state.storm_tokens) == {"main": 4, "secondary": state.storm_tokens["secondary"]}
    mine = view(state, "atreides")
    assert mine.houses["atreides"].hand == ("weather-control", "karama")
    assert mine.houses["harkonnen"].hand == ("hidden",)
    assert mine.houses["fremen"].hand == ()
    assert len(mine.storm_tokens) == 0
    assert mine.rng_seed == 0
    fremen = view(state, "fremen")
    assert fremen.storm_tokens == state.storm_tokens
    assert fremen.houses["atreides"].hand == ("hidden", "hidden")
    assert view(state, None) is state
    assert state.houses["atreides"].hand == ("weather-control", "karama")  # the state itself is untouched
    assert mine.forces == state.forces and mine.spice_on_map == state.spice_on_map


def test_the_storm_token_draw_reveals_no_value_in_its_events():
    state = play_setup(["fremen", "atreides"], stop_before="storm-token")
    after = apply_action(state, DrawStormToken("main", 6))
    assert all(6 not in e.data.values() for e in after.events)
    assert all(e.data.get("secret") for e in after.events if e.kind == "storm-token")


def test_new_game_rejects_an_unknown_option_naming_the_allowed_ones():
    with pytest.raises(InputError) as info:
        new_game(THREE, seed=1, secondary_storms=True)
    assert info.value.code == "config/option"
    assert "secondary_storms" in info.value.message and "secondary_storm" in info.value.message


@pytest.mark.parametrize("target", [7, 12, 0, -2, True, "5"])
def test_victory_1_a_target_no_house_could_reach_is_refused_naming_the_allowed_range(target):
    """VICTORY-1: a House wins by owning the agreed number of cities and Sietchs; the board holds 3 + 3."""
    with pytest.raises(InputError) as info:
        make_config(THREE, seed=1, victory_target=target)
    assert info.value.code == "config/victory-target"
    assert "from 1 to 6" in info.value.message and repr(target) in info.value.message
    with pytest.raises(InputError):
        new_game(THREE, seed=1, victory_target=target)


@pytest.mark.parametrize("target", [1, 6, None])
def test_victory_1_every_reachable_target_is_accepted(target):
    assert make_config(THREE, seed=1, victory_target=target).victory_target == target
