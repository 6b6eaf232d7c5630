"""Issue 11 item 2: leaders.md K-15 BOUNTY (LC-8) and K-17 POST_BATTLE (LC-5 B10), in games and battle cases.

Each power ID gets a game scene: two Houses in Arsunt (protected from the storm), the plans given, the traitor
calls made; the test reads the game right after the battle is settled and compares it with the same battle as a
``dunenb battle`` case where the effect is part of the battle's result (bounties, kept cards, the fired
after-battle entries).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from helpers_game import (
    assert_conserved,
    clear_map,
    decisions,
    give_cards,
    outcome_map,
    pass_karama,
    place,
    play_battle,
    quiet_setup,
    set_storms,
    skip_pre_battle,
    tokens_at,
)

from dunenb.actions import Pass
from dunenb.battle.case import case_json, parse_case
from dunenb.battle.leader_bounty import bounty_for
from dunenb.battle.leader_powers import Scene as LeaderScene
from dunenb.battle.roster import load_roster
from dunenb.engine import apply_action
from dunenb.rules.battle_phase import DiscardCards, SubmitPlan, begin_phase
from dunenb.rules.battle_powers import ChooseCaptive
from dunenb.rules.leader_after_battle import DiscardFree, MoveTokens
from dunenb.rules.on_call import OnCallDraw

ROSTER = load_roster()
AREA, SECTOR = "arsunt", 5
NONE = "none"


@dataclasses.dataclass
class Scene:
    """A battle played in a game: the state once it is settled, every event on the way, spice before."""

    state: object
    events: list
    before: dict[str, int]
    tanks: dict[str, int]
    reserve: dict[str, int]

    def spice(self, house: str) -> int:
        """The House's spice change over the battle."""
        return self.state.houses[house].spice - self.before[house]

    def kinds(self, kind: str) -> list:
        return [e for e in self.events if e.kind == kind]


def play(plans: dict[str, tuple[str, int, str, str]], *, tokens: int = 5, calls: tuple[str, ...] = (),
         traitors: dict[str, tuple[tuple[str, str], ...]] | None = None, spice: dict[str, int] | None = None,
         extra: tuple[tuple[str, str, int, int], ...] = (), hands: dict[str, tuple[str, ...]] | None = None) -> Scene:
    """``plans``: House -> (leader, tokens dialled, weapon, defence), the first House listed first in the game's
    House order. Each House has ``tokens`` tokens in Arsunt and exactly the cards its plan plays; ``calls``: the
    Houses that call "Trahison !" (with the slips ``traitors``); ``extra``: (House, area, sector, count) tokens
    placed elsewhere; ``hands``: more cards held."""
    houses = list(plans)
    state = clear_map(set_storms(quiet_setup(houses), main=10))
    for house in houses:
        hs = state.houses[house]
        state = dataclasses.replace(state, houses=state.houses.set(house, dataclasses.replace(
            hs, hand=(), traitors=(traitors or {}).get(house, ()), spice=(spice or {}).get(house, hs.spice))),
            treachery_discard=state.treachery_discard + hs.hand,
            bank=state.bank + hs.spice - (spice or {}).get(house, hs.spice))
        _leader, _dial, weapon, defence = plans[house]
        state = give_cards(state, house, *(c for c in (weapon, defence) if c != NONE), *(hands or {}).get(house, ()))
        state = place(state, house, AREA, SECTOR, tokens)
    for house, area, sector, count in extra:
        state = place(state, house, area, sector, count)
    state = dataclasses.replace(state, events=(), storm_dialers=(houses[0], houses[-1]))
    before = {house: state.houses[house].spice for house in houses}
    tanks = {house: state.houses[house].tanks.total for house in houses}
    reserve = {house: state.houses[house].reserve.total for house in houses}
    # the plans, then the calls; the steps other leaders' powers add on the way (K-16, K-19, B7 specials, the
    # leaders' Voices) are passed: the pass is listed first
    passed = ("leader-pre-battle", "leader-buy-off", "leader-alliance", "leader-special", "battle-voice",
              "battle-prescience")
    other = {house: next(h for h in houses if h != house) for house in houses}
    state = play_battle(skip_pre_battle(begin_phase(state)),
                        {house: SubmitPlan(house, leader, dialled, 0, 0, weapon, defence)
                         for house, (leader, dialled, weapon, defence) in plans.items()},
                        through=passed, calls={house: plans[other[house]][0] for house in calls})
    events = list(state.events)
    assert any(e.kind == "battle-outcome" for e in events), state.pending
    assert_conserved(state)
    return Scene(state, events, before, tanks, reserve)


def case(plans: dict[str, tuple[str, int, str, str]], *, tokens: int = 5,
         traitors: dict[str, tuple[str, ...]] | None = None) -> dict:
    """The same battle as a ``dunenb battle`` case; its one outcome's JSON."""
    houses = list(plans)
    sides = []
    for house in houses:
        leader, dialled, weapon, defence = plans[house]
        side = {"house": house, "tokens": {"regular": tokens}, "dial": {"regular": dialled}, "leader": leader,
                "weapon": None if weapon == NONE else weapon, "defense": None if defence == NONE else defence}
        if traitors and house in traitors:
            side["traitors"] = list(traitors[house])
        sides.append(side)
    raw = {"format": "dunenb.battle/1", "territory": AREA, "defender": houses[0], "sides": sides}
    (outcome,) = case_json(parse_case(raw))["outcomes"]
    return outcome


def kill(killer: str, leader: str, victim: str, prey: str) -> dict[str, tuple[str, int, str, str]]:
    """``killer`` (first in House order, the defender) kills ``prey`` with a lasgun; nobody else dies."""
    return {killer: (leader, 2, "lasgun", NONE), victim: (prey, 2, NONE, NONE)}


def bounty_scene(killer: str, leader: str, victim: str, prey: str, expected: int, power: str) -> None:
    """The game pays ``killer`` the bounty ``expected`` for ``prey`` (the Bank pays, GAP-35a), and the case
    gives the same bounty and names the power on the side that holds it."""
    plans = kill(killer, leader, victim, prey)
    scene = play(plans)
    assert scene.state.houses[victim].leader_tanks[-1:] == (prey,)
    (paid,) = scene.kinds("bounty")
    assert paid.data["house"] == killer and paid.data["amount"] == expected
    assert scene.spice(killer) == expected
    outcome = case(plans)
    assert outcome["sides"][killer]["bounty"] == expected
    assert power in outcome["sides"][killer]["powers"] + outcome["sides"][victim]["powers"]


# --- K-15 BOUNTY --------------------------------------------------------------------------------------------

def test_emperor_l01_c_hasimir_doubles_the_bounty():
    bounty_scene("emperor", "hasimir", "fremen", "stilgar", 2 * 7, "EMPEROR-L01-c")


def test_guild_l08_b_hasimir_doubles_the_bounty():
    bounty_scene("guild", "hasimir", "harkonnen", "piter", 2 * 4, "GUILD-L08-b")


def test_fremen_l02_c_chani_adds_1_to_the_bounty():
    bounty_scene("fremen", "chani", "emperor", "burseg", 5 + 1, "FREMEN-L02-c")


def test_guild_l07_d_gurney_adds_3_to_the_bounty():
    bounty_scene("guild", "gurney", "fremen", "stilgar", 7 + 3, "GUILD-L07-d")


def test_guild_l09_c_bannerjee_adds_2_to_the_bounty():
    bounty_scene("guild", "bannerjee", "harkonnen", "piter", 4 + 2, "GUILD-L09-c")


def test_guild_l10_c_esmar_adds_1_to_the_bounty():
    bounty_scene("guild", "esmar", "fremen", "stilgar", 7 + 1, "GUILD-L10-c")


def test_harkonnen_l05_e_iakin_nefud_adds_1_to_the_bounty():
    bounty_scene("harkonnen", "iakin-nefud", "fremen", "stilgar", 7 + 1, "HARKONNEN-L05-e")


def test_harkonnen_l02_c_zebataleh_doubles_the_bounty_of_a_fremen_leader_only():
    bounty_scene("harkonnen", "zebataleh", "fremen", "stilgar", 2 * 7, "HARKONNEN-L02-c")
    outcome = case(kill("harkonnen", "zebataleh", "atreides", "gurney"))
    assert outcome["sides"]["harkonnen"]["bounty"] == 7  # "victim of Fremen": Gurney is not
    assert "HARKONNEN-L02-c" not in outcome["sides"]["harkonnen"]["powers"]


def test_harkonnen_l03_b_rabban_adds_2_for_an_atreides_leader_only():
    bounty_scene("harkonnen", "glossu-rabban", "atreides", "gurney", 7 + 2, "HARKONNEN-L03-b")
    outcome = case(kill("harkonnen", "glossu-rabban", "fremen", "stilgar"))
    assert outcome["sides"]["harkonnen"]["bounty"] == 7


def test_emperor_l07_d_irulan_is_worth_a_fixed_2_before_the_killers_multiplier_and_addition_LC_8():
    """LC-8 order: the victim's fixed value first, then the killer's multipliers, then his additions."""
    bounty_scene("fremen", "stilgar", "emperor", "irulan", 2, "EMPEROR-L07-d")
    outcome = case(kill("fremen", "chani", "emperor", "irulan"))
    assert outcome["sides"]["fremen"]["bounty"] == 2 + 1
    assert outcome["sides"]["fremen"]["powers"][-1:] == ["FREMEN-L02-c"]
    assert outcome["sides"]["emperor"]["powers"] == ["EMPEROR-L07-d"]
    hasimir, irulan = ROSTER.find("Hasimir", house="guild"), ROSTER.find("Irulan", house="emperor")
    paid = bounty_for(LeaderScene.of(AREA, ("guild", "emperor"), (hasimir, irulan), defender=0), killer=0)
    assert (paid.amount, paid.powers) == (2 * 2, (("GUILD-L08-b",), ("EMPEROR-L07-d",)))


def test_harkonnen_l12_d_ziarenko_pays_no_bounty_even_after_a_treachery():
    """H12-d: 0 "even after a treachery": the Fremen call her (their slip) and kill her with their lasgun; the
    caller's TRAITOR-10 spice is her bounty, 0 (not the 2 of a surviving traitor, LC-8)."""
    plans = kill("fremen", "stilgar", "harkonnen", "ziarenko")
    scene = play(plans, calls=("fremen",), traitors={"fremen": (("harkonnen", "ziarenko"),)})
    assert scene.state.houses["harkonnen"].leader_tanks[-1:] == ("ziarenko",)
    assert scene.spice("fremen") == 0 and not scene.kinds("bounty")
    outcome = case(plans, traitors={"fremen": ("ziarenko",)})
    assert outcome["traitor_called_by"] == ["fremen"] and outcome["sides"]["fremen"]["bounty"] == 0
    assert outcome["sides"]["harkonnen"]["powers"] == ["HARKONNEN-L12-d"]


def test_harkonnen_l11_d_soo_soos_killer_pays_3_to_the_bank_as_far_as_it_can():
    plans = kill("fremen", "stilgar", "harkonnen", "soo-soo")
    scene = play(plans, spice={"fremen": 5})
    assert scene.spice("fremen") == 1 - 3  # his bounty 1, then the fine of 3
    (fine,) = scene.kinds("bounty-fine")
    assert fine.data["amount"] == 3 and fine.data["powers"] == ("HARKONNEN-L11-d",)
    poor = play(plans, spice={"fremen": 0})
    assert poor.state.houses["fremen"].spice == 0  # 1 received, 1 paid: as far as it can (LC-8)
    outcome = case(plans)
    assert outcome["sides"]["fremen"]["bounty"] == 1 and outcome["sides"]["fremen"]["bounty_fine"] == 3


# --- K-17 POST_BATTLE: keep (part of the result) --------------------------------------------------------------

def keep_scene(leader: str, kept: tuple[str, ...], power: str) -> None:
    """The Emperor's ``leader`` loses with a poison and a snooper on his wheel; ``kept`` go back to his hand."""
    plans = {"fremen": ("stilgar", 4, NONE, "snooper"), "emperor": (leader, 0, "poison-fast", "snooper")}
    scene = play(plans)
    assert scene.kinds("battle-outcome")[0].data["winner"] == "fremen"
    assert sorted(scene.state.houses["emperor"].hand) == sorted(kept)
    assert ("cards-kept" in [e.kind for e in scene.events]) and scene.kinds("cards-kept")[0].data["powers"] == (
        power,)
    outcome = case(plans)
    assert power in outcome["sides"]["emperor"]["after_battle"]


def test_emperor_l03_b_burseg_keeps_all_his_cards_when_he_loses():
    keep_scene("burseg", ("poison-fast", "snooper"), "EMPEROR-L03-b")


def test_emperor_l05_c_levenbrech_keeps_his_attack_when_he_loses():
    keep_scene("levenbrech", ("poison-fast",), "EMPEROR-L05-c")


def test_emperor_l06_c_mavrik_keeps_his_defence_when_he_loses():
    keep_scene("mavrik", ("snooper",), "EMPEROR-L06-c")


def test_emperor_l03_b_keep_after_a_treachery_and_not_on_a_win():
    """K-17 keep is on ``lose``, a treachery included; a winner keeps his cards anyway (BATTLE-10)."""
    plans = {"fremen": ("stilgar", 1, NONE, NONE), "emperor": ("burseg", 1, "poison-fast", "snooper")}
    scene = play(plans, calls=("fremen",), traitors={"fremen": (("emperor", "burseg"),)})
    assert sorted(scene.state.houses["emperor"].hand) == ["poison-fast", "snooper"]
    assert not case({"fremen": ("stilgar", 0, NONE, NONE), "emperor": ("burseg", 3, NONE, NONE)}).get(
        "sides")["emperor"].get("after_battle")


# --- K-17 POST_BATTLE in the game (B10) ----------------------------------------------------------------------

def test_emperor_l05_d_levenbrech_wins_3_spice_from_the_bank():
    plans = {"emperor": ("levenbrech", 3, NONE, NONE), "fremen": ("otheym", 0, NONE, NONE)}
    scene = play(plans)
    assert scene.kinds("battle-outcome")[0].data["winner"] == "emperor"
    assert scene.spice("emperor") == 3
    assert scene.kinds("after-battle-spice")[0].data["powers"] == ("EMPEROR-L05-d",)
    assert case(plans)["sides"]["emperor"]["after_battle"] == ["EMPEROR-L05-d"]
    lost = play({"emperor": ("levenbrech", 0, NONE, NONE), "fremen": ("stilgar", 3, NONE, NONE)})
    assert lost.spice("emperor") == 0  # on a win only


def test_atreides_l09_c_yueh_heals_3_of_his_dialled_tokens_into_the_territory_after_a_win():
    plans = {"atreides": ("yueh", 10, NONE, NONE), "fremen": ("otheym", 0, NONE, NONE)}
    scene = play(plans, tokens=10)
    assert scene.kinds("battle-outcome")[0].data["winner"] == "atreides"  # 10 x ½ + 1 against 5
    assert tokens_at(scene.state, "atreides", AREA) == 10 - 10 + 3  # D-27: back on the territory
    assert scene.state.houses["atreides"].tanks.total == scene.tanks["atreides"] + 7
    assert scene.kinds("tokens-healed")[0].data["powers"] == ("ATREIDES-L09-c",)
    assert case(plans, tokens=10)["sides"]["atreides"]["after_battle"] == ["ATREIDES-L09-c"]


def test_harkonnen_l10_b_yueh_heals_2_into_the_reserve_after_a_loss_and_nothing_when_he_dies():
    plans = {"fremen": ("stilgar", 3, NONE, NONE), "harkonnen": ("yueh", 0, NONE, NONE)}
    scene = play(plans)
    assert scene.kinds("battle-outcome")[0].data["winner"] == "fremen"
    assert tokens_at(scene.state, "harkonnen", AREA) == 0
    assert scene.state.houses["harkonnen"].tanks.total == scene.tanks["harkonnen"] + 5 - 2
    assert scene.state.houses["harkonnen"].reserve.total == scene.reserve["harkonnen"] + 2  # D-27: the reserve
    dead = play({"fremen": ("stilgar", 3, "lasgun", NONE), "harkonnen": ("yueh", 0, NONE, NONE)})
    assert dead.state.houses["harkonnen"].tanks.total == dead.tanks["harkonnen"] + 5  # survive: he must live
    assert not dead.kinds("tokens-healed")


def test_harkonnen_l09_d_wannas_death_costs_3_harkonnen_tokens_in_carthag():
    plans = {"fremen": ("stilgar", 3, "lasgun", NONE), "harkonnen": ("wanna", 0, NONE, NONE)}
    carthag = ("harkonnen", "carthag", 4, 4)
    scene = play(plans, extra=(carthag,))
    assert tokens_at(scene.state, "harkonnen", "carthag") == 1
    assert any(e.data.get("powers") == ("HARKONNEN-L09-d",) for e in scene.kinds("tokens-lost"))
    alive = play({"fremen": ("stilgar", 3, NONE, NONE), "harkonnen": ("wanna", 0, NONE, NONE)}, extra=(carthag,))
    assert tokens_at(alive.state, "harkonnen", "carthag") == 4


# --- K-17 half_losses (part of the result, LC-5 B9) -----------------------------------------------------------

def test_bg_l10_a_wanna_saves_half_her_dialled_tokens_they_stay_after_a_win():
    plans = {"bene-gesserit": ("wanna", 4, NONE, NONE), "fremen": ("otheym", 0, NONE, NONE)}
    scene = play(plans)
    assert scene.kinds("battle-outcome")[0].data["winner"] == "bene-gesserit"  # 2 + 5 against 5 (defender)
    assert tokens_at(scene.state, "bene-gesserit", AREA) == 5 - 4 + 2
    assert scene.state.houses["bene-gesserit"].tanks.total == scene.tanks["bene-gesserit"] + 2
    outcome = case(plans)
    assert outcome["sides"]["bene-gesserit"]["tokens_lost"] == 2
    assert outcome["sides"]["bene-gesserit"]["after_battle"] == ["BG-L10-a"]


def test_bg_l10_a_after_a_loss_the_saved_half_goes_to_the_reserve():
    plans = {"fremen": ("stilgar", 4, NONE, NONE), "bene-gesserit": ("wanna", 3, NONE, NONE)}
    scene = play(plans)
    assert scene.kinds("battle-outcome")[0].data["winner"] == "fremen"
    assert tokens_at(scene.state, "bene-gesserit", AREA) == 0
    assert scene.state.houses["bene-gesserit"].reserve.total == scene.reserve["bene-gesserit"] + 1  # floor(3/2)
    assert scene.state.houses["bene-gesserit"].tanks.total == scene.tanks["bene-gesserit"] + 4
    outcome = case(plans)
    assert outcome["sides"]["bene-gesserit"]["tokens_lost"] == 4
    assert outcome["sides"]["bene-gesserit"]["tokens_saved"] == 1
    assert outcome["sides"]["bene-gesserit"]["tokens_left"] == 0


def test_harkonnen_l09_b_wanna_saves_half_her_dialled_tokens_after_a_treachery():
    """K-17: half_losses on ``any``, a treachery included: the called traitor's side loses its whole army but
    half of the dialled tokens go to the reserve."""
    plans = {"fremen": ("stilgar", 1, NONE, NONE), "harkonnen": ("wanna", 4, NONE, NONE)}
    scene = play(plans, calls=("fremen",), traitors={"fremen": (("harkonnen", "wanna"),)})
    assert scene.kinds("battle-outcome")[0].data["winner"] == "fremen"
    assert tokens_at(scene.state, "harkonnen", AREA) == 0
    assert scene.state.houses["harkonnen"].reserve.total == scene.reserve["harkonnen"] + 2
    assert scene.state.houses["harkonnen"].tanks.total == scene.tanks["harkonnen"] + 3
    assert scene.kinds("tokens-saved")[0].data["powers"] == ("HARKONNEN-L09-b",)


# --- K-17 steal_random (a chance node per card, as the on-call draws) ----------------------------------------

def test_emperor_l04_b_aramsham_steals_a_random_card_from_the_loser():
    plans = {"emperor": ("aramsham", 4, NONE, NONE), "fremen": ("otheym", 0, NONE, NONE)}
    scene = play(plans, hands={"fremen": ("shield", "snooper", "snooper")})
    state = scene.state
    assert scene.kinds("battle-outcome")[0].data["winner"] == "emperor"
    assert state.pending.kind == "on-call-draw"
    assert outcome_map(state) == {OnCallDraw("emperor", "fremen", "shield"): Fraction(1, 3),
                                  OnCallDraw("emperor", "fremen", "snooper"): Fraction(2, 3)}
    state = apply_action(state, OnCallDraw("emperor", "fremen", "snooper"))
    assert state.houses["emperor"].hand == ("snooper",) and sorted(state.houses["fremen"].hand) == [
        "shield", "snooper"]
    (drawn,) = [e for e in state.events if e.kind == "on-call-draw"]
    assert drawn.data["powers"] == ("EMPEROR-L04-b",) and drawn.data["secret"]
    assert case(plans)["sides"]["emperor"]["after_battle"] == ["EMPEROR-L04-b"]


def test_bg_l08_c_margot_steals_a_card_only_if_she_wins_alive():
    plans = {"bene-gesserit": ("margot", 5, NONE, NONE), "fremen": ("otheym", 0, NONE, NONE)}
    scene = play(plans, hands={"fremen": ("shield",)})
    assert scene.kinds("battle-outcome")[0].data["winner"] == "bene-gesserit"
    assert scene.state.pending.kind == "on-call-draw"
    state = apply_action(scene.state, OnCallDraw("bene-gesserit", "fremen", "shield"))
    assert state.houses["bene-gesserit"].hand == ("shield",)
    killed = {"bene-gesserit": ("margot", 12, NONE, NONE), "fremen": ("otheym", 0, "lasgun", NONE)}
    dead = play(killed, tokens=12, hands={"fremen": ("shield",)})
    assert dead.kinds("battle-outcome")[0].data["winner"] == "bene-gesserit"  # 6 against 5, but she is dead
    assert dead.state.pending is None or dead.state.pending.kind != "on-call-draw"
    assert "after_battle" not in case(killed, tokens=12)["sides"]["bene-gesserit"]


# --- K-17 choices: decision nodes at B10 ---------------------------------------------------------------------

def test_emperor_l06_d_mavrik_may_discard_a_card_that_was_not_on_his_wheel():
    plans = {"emperor": ("mavrik", 10, NONE, "snooper"), "fremen": ("otheym", 0, NONE, NONE)}
    scene = play(plans, tokens=10, hands={"emperor": ("worthless", "snooper")})
    state = scene.state
    assert scene.kinds("battle-outcome")[0].data["winner"] == "emperor"
    assert (state.pending.kind, state.pending.actor) == ("after-battle", "emperor")
    # one snooper was on the wheel: the other one may go, and the worthless card
    assert decisions(state) == [Pass("emperor"), DiscardFree("emperor", "EMPEROR-L06-d", "snooper"),
                                DiscardFree("emperor", "EMPEROR-L06-d", "worthless")]
    state = apply_action(state, DiscardFree("emperor", "EMPEROR-L06-d", "worthless"))
    assert "worthless" not in state.houses["emperor"].hand and state.treachery_discard[-1] == "worthless"
    assert state.pending.kind == "battle-discard"  # then BATTLE-10: the winner's own cards
    state = apply_action(state, DiscardCards("emperor", "none"))
    assert sorted(state.houses["emperor"].hand) == ["snooper", "snooper"]
    lost = play({"fremen": ("stilgar", 10, NONE, NONE), "emperor": ("mavrik", 0, NONE, NONE)}, tokens=10,
                hands={"emperor": ("worthless",)})
    assert lost.state.pending.kind == "after-battle"  # on any battle with a winner
    assert case(plans, tokens=10)["sides"]["emperor"]["after_battle"] == ["EMPEROR-L06-d"]


def test_emperor_l10_c_bashar_may_discard_a_card_after_a_win_only():
    plans = {"emperor": ("bashar", 10, NONE, NONE), "fremen": ("otheym", 0, NONE, NONE)}
    scene = play(plans, tokens=10, hands={"emperor": ("worthless",)})
    assert scene.state.pending.kind == "after-battle"
    state = apply_action(scene.state, Pass("emperor"))
    assert state.houses["emperor"].hand == ("worthless",)
    lost = play({"fremen": ("stilgar", 10, NONE, NONE), "emperor": ("bashar", 0, NONE, NONE)}, tokens=10,
                hands={"emperor": ("worthless",)})
    assert lost.state.pending is None or lost.state.pending.kind != "after-battle"


def test_harkonnen_l03_c_rabban_sends_tokens_left_to_the_reserve_for_2_spice_each():
    plans = {"harkonnen": ("glossu-rabban", 8, NONE, NONE), "fremen": ("otheym", 0, NONE, NONE)}
    scene = play(plans, tokens=10)
    state = scene.state
    assert scene.kinds("battle-outcome")[0].data["winner"] == "harkonnen"
    assert tokens_at(state, "harkonnen", AREA) == 2
    assert decisions(state) == [MoveTokens("harkonnen", "HARKONNEN-L03-c", "ration", n, 0) for n in range(3)]
    spice = state.houses["harkonnen"].spice
    state = apply_action(state, MoveTokens("harkonnen", "HARKONNEN-L03-c", "ration", 2, 0))
    assert tokens_at(state, "harkonnen", AREA) == 0
    assert state.houses["harkonnen"].spice == spice + 4
    assert state.houses["harkonnen"].reserve.total == scene.reserve["harkonnen"] + 2
    assert_conserved(state)


def test_emperor_l09_c_caid_brings_reserve_tokens_worth_2_into_the_territory():
    plans = {"emperor": ("caid", 10, NONE, NONE), "fremen": ("otheym", 0, NONE, NONE)}
    scene = play(plans, tokens=10)
    state = scene.state
    assert scene.kinds("battle-outcome")[0].data["winner"] == "emperor"
    assert tokens_at(state, "emperor", AREA) == 0  # all ten dialled and lost
    reserve = state.houses["emperor"].reserve
    assert reserve.marked >= 2 and reserve.regular >= 4
    assert set(decisions(state)) == {MoveTokens("emperor", "EMPEROR-L09-c", "reinforce", r, m)
                                     for r, m in ((4, 0), (2, 1), (0, 2))}
    state = apply_action(state, MoveTokens("emperor", "EMPEROR-L09-c", "reinforce", 2, 1))
    assert tokens_at(state, "emperor", AREA) == 3  # even though no Imperial token was left there
    assert state.houses["emperor"].reserve.total == reserve.total - 3
    assert_conserved(state)


def test_bg_l11_a_talamane_revives_up_to_3_more_tokens_after_a_win():
    plans = {"bene-gesserit": ("talamane", 10, NONE, NONE), "fremen": ("otheym", 0, NONE, NONE)}
    scene = play(plans, tokens=10, spice={"bene-gesserit": 5})
    state = scene.state
    assert scene.kinds("battle-outcome")[0].data["winner"] == "bene-gesserit"
    hs = state.houses["bene-gesserit"]
    assert hs.tanks.total >= 10 and hs.tanks.marked == 0
    assert decisions(state) == [MoveTokens("bene-gesserit", "BG-L11-a", "extra_revival", n, 0) for n in range(4)]
    state = apply_action(state, MoveTokens("bene-gesserit", "BG-L11-a", "extra_revival", 3, 0))
    after = state.houses["bene-gesserit"]
    assert after.tanks.total == hs.tanks.total - 3 and after.reserve.total == hs.reserve.total + 3
    (revived,) = [e for e in state.events if e.kind == "revive"]
    assert revived.data["cost"] == 3 and revived.data["payee"] == "bank" and revived.data["powers"] == ("BG-L11-a",)
    assert after.revived_this_turn == 0  # beyond REVIVAL-1: not counted there
    assert_conserved(state)
    poor = play(plans, tokens=10, spice={"bene-gesserit": 1})
    assert len(decisions(poor.state)) == 2  # 0 or 1 token: as far as the spice goes


def test_atreides_l08_b_leto_sees_the_losers_spice():
    plans = {"atreides": ("leto-i", 4, NONE, NONE), "fremen": ("otheym", 0, NONE, NONE)}
    scene = play(plans, spice={"fremen": 7})
    assert scene.kinds("battle-outcome")[0].data["winner"] == "atreides"
    (shown,) = scene.kinds("spice-shown")
    assert shown.data["house"] == "fremen" and shown.data["to"] == "atreides" and shown.data["amount"] == 7
    assert shown.data["powers"] == ("ATREIDES-L08-b",)


def test_harkonnen_l07_c_lingar_chooses_the_captive_instead_of_drawing_him():
    """K-17 chosen_capture: after Lingar's win, HARKONNEN-P4's capture is a choice among the same leaders (the
    main leader only if alone, L1243); without Lingar it stays a draw."""
    plans = {"harkonnen": ("lingar", 10, NONE, NONE), "fremen": ("otheym", 0, NONE, NONE)}
    scene = play(plans, tokens=10)
    assert scene.kinds("battle-outcome")[0].data["winner"] == "harkonnen"
    state = pass_karama(scene.state)  # KARAMA-47 at the capture
    assert (state.pending.kind, state.pending.actor) == ("capture-choice", "harkonnen")
    menu = decisions(state)
    fremen = [key for key in state.houses["fremen"].leaders if key != "liet-kynes"]  # Otheym fought here
    assert menu == [ChooseCaptive("harkonnen", "fremen", key, "HARKONNEN-L07-c") for key in fremen]
    state = apply_action(state, ChooseCaptive("harkonnen", "fremen", "chani", "HARKONNEN-L07-c"))
    assert state.pending.kind == "captive"
    assert [e for e in state.events if e.kind == "capture-drawn"][0].data["powers"] == ("HARKONNEN-P4",
                                                                                       "HARKONNEN-L07-c")
    assert case(plans, tokens=10)["sides"]["harkonnen"]["after_battle"] == ["HARKONNEN-L07-c"]
    drawn = pass_karama(play({"harkonnen": ("piter", 4, NONE, NONE), "fremen": ("otheym", 0, NONE, NONE)}).state)
    assert drawn.pending.kind == "capture-draw"


def test_harkonnen_l01_b_feyd_draws_2_free_cards_the_first_seen_by_the_atreides_the_second_not():
    from dunenb.rules.bidding import DrawTreacheryCard
    from dunenb.rules.secrecy import sees

    plans = {"harkonnen": ("feyd-rautha", 10, NONE, NONE), "atreides": ("gurney", 0, NONE, NONE)}
    scene = play(plans, tokens=10)
    state = scene.state
    assert scene.kinds("battle-outcome")[0].data["winner"] == "harkonnen"
    assert state.pending.kind == "after-battle-draw"
    card = next(iter(outcome_map(state)))
    assert isinstance(card, DrawTreacheryCard) and card.house == "harkonnen"
    assert sees(state, card, "atreides")  # ATREIDES-P2 b: the first card is shown
    state = apply_action(state, card)
    second = next(iter(outcome_map(state)))
    assert not sees(state, second, "atreides") and sees(state, second, "harkonnen")
    state = apply_action(state, second)
    assert len(state.houses["harkonnen"].hand) == 2
    assert case(plans, tokens=10)["sides"]["harkonnen"]["after_battle"] == ["HARKONNEN-L01-b"]


def test_harkonnen_l06_c_iliako_draws_1_card_shown_unless_he_pays_2():
    from dunenb.rules.leader_after_battle import PayUnseen
    from dunenb.rules.secrecy import sees

    plans = {"harkonnen": ("iliako", 10, NONE, NONE), "atreides": ("gurney", 0, NONE, NONE)}
    scene = play(plans, tokens=10, spice={"harkonnen": 5})
    state = scene.state
    assert scene.kinds("battle-outcome")[0].data["winner"] == "harkonnen"
    assert decisions(state) == [Pass("harkonnen"), PayUnseen("harkonnen", "HARKONNEN-L06-c", 2)]
    paid = apply_action(state, PayUnseen("harkonnen", "HARKONNEN-L06-c", 2))
    assert paid.houses["harkonnen"].spice == state.houses["harkonnen"].spice - 2
    card = next(iter(outcome_map(paid)))
    assert not sees(paid, card, "atreides")
    shown = apply_action(state, Pass("harkonnen"))
    assert sees(shown, next(iter(outcome_map(shown))), "atreides")
    assert len(apply_action(paid, card).houses["harkonnen"].hand) == 1


def test_emperor_l04_c_aramsham_gives_the_winner_a_card_from_his_wheel_or_hand():
    from dunenb.rules.leader_after_battle import GiveCard

    plans = {"fremen": ("stilgar", 4, NONE, "snooper"), "emperor": ("aramsham", 0, "poison-fast", NONE)}
    scene = play(plans, hands={"emperor": ("karama",), "fremen": ("worthless",) * 3})
    state = scene.state
    assert scene.kinds("battle-outcome")[0].data["winner"] == "fremen"
    assert "poison-fast" in state.treachery_discard  # lost on the wheel (GAP-45)
    assert decisions(state) == [GiveCard("emperor", "EMPEROR-L04-c", "fremen", "poison-fast", "wheel"),
                                GiveCard("emperor", "EMPEROR-L04-c", "fremen", "karama", "hand")]
    state = apply_action(state, GiveCard("emperor", "EMPEROR-L04-c", "fremen", "poison-fast", "wheel"))
    assert "poison-fast" not in state.treachery_discard
    state = apply_action(state, DiscardCards("fremen", "none"))  # BATTLE-10: the winner keeps his snooper
    assert state.pending.kind == "on-call-discard" and state.pending.actor == "fremen"  # 5 cards > 4 (HAND-1)
    assert sorted(decisions(state), key=str)[0].card == "poison-fast"
    assert case(plans)["sides"]["emperor"]["after_battle"] == ["EMPEROR-L04-c"]


def slip_scene(leader: str, house: str, opponent: str, power: str) -> None:
    """The Dispersion's ``leader`` beats ``house``'s ``opponent``: ``house`` shows its slip to the Dispersion
    privately (a secret action seen by the two Houses only)."""
    from dunenb.rules.leader_after_battle import ShowSlip
    from dunenb.rules.secrecy import viewers

    plans = {"dispersion": (leader, 10, NONE, NONE), house: (opponent, 0, NONE, NONE)}
    slip = ("dispersion", "logno")
    scene = play(plans, tokens=10, traitors={house: (slip,)})
    state = scene.state
    assert scene.kinds("battle-outcome")[0].data["winner"] == "dispersion"
    assert (state.pending.kind, state.pending.actor) == ("after-battle-slip", house)
    (show,) = decisions(state)
    assert show == ShowSlip(house, "dispersion", power, *slip)
    assert viewers(state, show) == (house, "dispersion")
    state = apply_action(state, show)
    (event,) = [e for e in state.events if e.kind == "slip-shown"]
    assert event.data["secret"] and "logno" not in event.text
    assert case(plans, tokens=10)["sides"]["dispersion"]["after_battle"] == [power]


def test_dispersion_l07_d_selena_sees_the_bg_traitor_slip_after_beating_a_bg_leader():
    slip_scene("selena", "bene-gesserit", "margot", "DISPERSION-L07-d")


def test_dispersion_l08_d_hellica_sees_the_atreides_traitor_slip_after_beating_an_atreides_leader():
    slip_scene("hellica", "atreides", "gurney", "DISPERSION-L08-d")


def test_guild_l05_d_dying_tolrics_blast_kills_the_opposing_leader_unless_a_shield_stops_it():
    plans = {"fremen": ("stilgar", 2, "poison-fast", NONE), "guild": ("tolric", 2, NONE, NONE)}
    scene = play(plans)
    assert scene.state.houses["guild"].leader_tanks[-1:] == ("tolric",)
    assert scene.state.houses["fremen"].leader_tanks[-1:] == ("stilgar",)  # the blast (B9)
    assert {e.data["house"]: e.data["amount"] for e in scene.kinds("bounty")} == {"guild": 7, "fremen": 2}
    outcome = case(plans)
    assert outcome["sides"]["fremen"]["leader"] == "dead" and "GUILD-L05-d" in outcome["sides"]["guild"]["powers"]
    shielded = {"fremen": ("stilgar", 2, "poison-fast", "shield"), "guild": ("tolric", 2, NONE, NONE)}
    assert case(shielded)["sides"]["fremen"]["leader"] == "alive"  # only a Shield stops it (LC-7)
    called = play(plans, calls=("fremen",), traitors={"fremen": (("guild", "tolric"),)})
    assert "stilgar" not in called.state.houses["fremen"].leader_tanks  # not after a treachery


def test_dispersion_l06_c_angelika_lands_up_to_1d10_tokens_at_half_price_on_a_d10_of_6_or_less():
    from dunenb.rules.leader_after_battle import LeaderDie

    plans = {"dispersion": ("angelika", 10, NONE, NONE), "fremen": ("otheym", 0, NONE, NONE)}
    scene = play(plans, tokens=10, spice={"dispersion": 5})
    state = scene.state
    assert scene.kinds("battle-outcome")[0].data["winner"] == "dispersion"
    assert state.pending.kind == "after-battle-d10"
    assert outcome_map(state) == {LeaderDie("dispersion", "DISPERSION-L06-c", "active", face): Fraction(1, 10)
                                  for face in range(1, 11)}
    failed = apply_action(state, LeaderDie("dispersion", "DISPERSION-L06-c", "active", 7))
    assert failed.pending is None or failed.pending.kind not in ("after-battle-d10", "after-battle")
    state = apply_action(state, LeaderDie("dispersion", "DISPERSION-L06-c", "active", 6))
    state = apply_action(state, LeaderDie("dispersion", "DISPERSION-L06-c", "count", 3))
    menu = decisions(state)
    assert MoveTokens("dispersion", "DISPERSION-L06-c", "ship", 3, 0) in menu
    assert all(a.regular + a.marked <= 3 for a in menu)
    spice = state.houses["dispersion"].spice
    state = apply_action(state, MoveTokens("dispersion", "DISPERSION-L06-c", "ship", 3, 0))
    assert tokens_at(state, "dispersion", AREA) == 3  # Arsunt, a city: 3 x 1 spice, half rounded up: 2
    assert state.houses["dispersion"].spice == spice - 2
    assert_conserved(state)
    assert case(plans, tokens=10)["sides"]["dispersion"]["after_battle"] == ["DISPERSION-L06-c"]


def test_harkonnen_l09_b_a_treachery_callers_wanna_saves_nothing_he_loses_nothing():
    """Found by the bot soak (seed 299): the caller of a treachery loses no token (TRAITOR-11), so half_losses
    spares none; nothing goes negative."""
    plans = {"harkonnen": ("wanna", 4, NONE, NONE), "fremen": ("stilgar", 1, NONE, NONE)}
    scene = play(plans, calls=("harkonnen",), traitors={"harkonnen": (("fremen", "stilgar"),)})
    assert tokens_at(scene.state, "harkonnen", AREA) == 5
    assert scene.state.houses["harkonnen"].tanks == scene.state.houses["harkonnen"].tanks.__class__(
        scene.tanks["harkonnen"], 0)
    outcome = case(plans, traitors={"harkonnen": ("stilgar",)})
    assert outcome["sides"]["harkonnen"]["tokens_lost"] == 0
