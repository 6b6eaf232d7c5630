"""GAP-58 (issue 15, item 1): no House view, record view or ``replay --view`` output carries another House's
secrets: its hand, traitor slips, prediction, the Fremen storm tokens, the deck's make-up, a seed or the generator;
nor the identity of a leader captured by the Harkonnen before he is shown (HARKONNEN-P4, FAQ 17, GAP-75).

Several whole seeded bot games (2 to 6 Houses) are walked node by node; at each node every House's state view,
record view (last action, actions so far, alternatives, events) and CLI position are checked. Which actions are
secret is written out here from the rules (not read from :mod:`dunenb.rules.secrecy`), so the test checks it.
"""

from __future__ import annotations

import dataclasses
import gc
import json
import re

import pytest

from dunenb.bots import make_bot
from dunenb.cli import main
from dunenb.commands import position_summary
from dunenb.engine import CHANCE, chance_outcomes, legal_actions, make_config, sample_chance, view
from dunenb.play import advance
from dunenb.record import GameRecord
from dunenb.record_view import RecordView
from dunenb.rules import deck_tops
from dunenb.rules.secrecy import HiddenAction
from dunenb.saves import save_game
from dunenb.state import GameState

#: Seeds far from any small number, so that a leaked seed shows up in a text search.
CANARY = 7_340_581_229
GAMES = [  # (Houses, turn limit, bots, options): 2 to 6 Houses; the Fremen, Harkonnen, Bene Gesserit, Atreides
    (("atreides", "harkonnen"), 6, "heuristic", {}),
    (("fremen", "bene-gesserit", "emperor"), 5, "random", {"secondary_storm": True}),
    (("harkonnen", "fremen", "atreides", "guild"), 5, "heuristic", {"chance_cards": True}),
    (("atreides", "harkonnen", "fremen", "bene-gesserit", "emperor", "guild"), 4, "heuristic", {}),
    (("harkonnen", "atreides", "fremen"), 8, "keeper", {}),  # FAQ 17: captives kept, a third House looking on
]
#: action kinds that only some Houses see (FREMEN-P1, BG-P6, TRAITOR-1, TRAITOR-4, SETUP-1 h, BID-3/8, BATTLE-13)
SECRET_KINDS = {"storm-token", "predict", "traitor-draw", "traitor-pick", "treachery-card", "auction-card", "plan",
                "traitor-discard", "new-traitor-draw", "new-traitor-keep",  # HARKONNEN-M1
                "prescience-answer", "commit-leader",  # GAP-78, BG-M2
                "deck-top",  # ATREIDES-P2 c-d
                "after-battle-slip",  # leaders.md K-17 see_traitor
                "capture-draw", "capture-choice", "captive"}  # HARKONNEN-P4, FAQ 17 (GAP-75)
#: the capture actions: seen by the captor and the captive's House, shown to all once he is named (FAQ 17)
CAPTURE_KINDS = {"capture-draw", "capture-choice", "captive"}
SECRET_DRAWS = {"storm-token", "traitor-draw", "treachery-card", "auction-card", "new-traitor-draw", "deck-top"}


class _Keeper:
    """The heuristic bot, except that it keeps every leader it captures (HARKONNEN-P4): the heuristic bot kills
    them all, and a whole game is wanted where captives stay held while third Houses look on (FAQ 17)."""

    def __init__(self, seed: int) -> None:
        self.bot = make_bot("heuristic", seed=seed)

    def choose(self, state: GameState):
        if state.pending.kind == "captive":
            return next(a for a in legal_actions(state) if getattr(a, "choice", "") == "keep")
        return self.bot.choose(state)


def _play(houses: tuple[str, ...], turns: int, index: int, bots: str = "random", options=None) -> GameRecord:
    record = GameRecord(make_config(houses, seed=CANARY + index, turn_limit=turns, **(options or {})))
    advance(record, record.root, until="game-over", seed=index,
            bots={h: _Keeper(index) if bots == "keeper" else make_bot(bots, seed=index) for h in houses})
    return record


@pytest.fixture(scope="module")
def records() -> list[GameRecord]:
    return [_play(houses, turns, i, bots, options) for i, (houses, turns, bots, options) in enumerate(GAMES)]


def _may_see(before: GameState, action, house: str) -> bool:
    """Whether ``house`` sees the secret ``action`` when it is played (the rules, written out)."""
    from dunenb.powers import holder

    atreides = holder(before, "ATREIDES-P2") == house == "atreides"  # ATREIDES-P2, unless KARAMA-41 (1 turn)
    if action.kind == "storm-token":
        return house == "fremen" and holder(before, "FREMEN-P1") == "fremen"  # FREMEN-P1, unless KARAMA-5
    if action.kind == "auction-card":  # BID-3, BID-8, ATREIDES-P2a
        return house == before.pending.detail["opener"] or atreides
    if action.kind == "treachery-card" and before.pending.kind == "after-battle-draw" and not \
            before.pending.detail["shown"][0]:  # leaders.md K-17 draw: a card not shown (HARKONNEN-L01-b, -L06-c)
        return house == action.house
    if action.kind == "treachery-card" and before.pending.kind != "free-card":  # ATREIDES-P2 b, not SETUP-1 h
        return house == action.house or atreides
    if action.kind == "after-battle-slip":  # leaders.md K-17 see_traitor: shown to the Dispersion
        return house in (action.house, action.to)
    if action.kind == "commit-leader":  # BG-M2: shown to the Bene Gesserit
        return house in (action.house, "bene-gesserit")
    if action.kind == "deck-top":  # ATREIDES-P2 c-d: the top card held apart
        return atreides
    if action.kind in CAPTURE_KINDS:  # FAQ 17: the captor and the captive's own House
        return house in (action.house, action.owner)
    return house == action.house


def _names_captive(e, person: tuple[str, str]) -> bool:
    """Whether the god event ``e`` shows the captive ``person`` (owner, id) to all: his plan revealed (BATTLE-13 f),
    his death (FAQ 18, a battle), his return home (L1167, FAQ 21, KARAMA-47)."""
    owner, lid = person
    data = e.data
    if e.kind == "plan-revealed":
        return data.get("leader") == f"{owner}:{lid}"
    if e.kind in ("captive-killed", "captive-released", "leader-killed"):
        held = (data.get("owner", data.get("house")), data.get("leader"))
        return held == person or (data.get("leader") == f"{owner}:{lid}")
    return False


def _word(lid: str) -> re.Pattern:
    """A leader id as a whole word ('leto-i' is not found in 'leto-ii')."""
    return re.compile(rf"(?<![\w-]){re.escape(lid)}(?![\w-])")


def _check_captives(seen: GameState, house: str, events, secret: set[tuple[str, str]], position) -> None:
    """FAQ 17: nothing ``seen`` (a third House's view), its events and its CLI position show names a captive of
    ``secret``, and the captive's House's leaders do not single him out (GAP-75: all hidden)."""
    for owner, lid in secret:
        assert set(seen.houses[owner].leaders) <= {"hidden"}, (owner, seen.houses[owner].leaders)
        mine = seen.houses[house]  # its own slips may name him: it knows its slips, not where he is
        rest = dataclasses.replace(seen, houses=seen.houses.set(house, dataclasses.replace(mine, traitors=())))
        assert f"{owner}:{lid}" not in repr(rest) and repr((owner, lid)) not in repr(rest), (house, owner, lid)
        pattern = _word(lid)
        for e in events:
            if e.data.get("owner") == owner or e.data.get("house") == owner or e.kind.startswith("capt"):
                assert not pattern.search(e.text) and e.data.get("leader") != lid, e
        if seen.pending is not None:
            assert not pattern.search(repr(dict(seen.pending.detail).get("leader", ""))), seen.pending
            data = seen.pending.detail.get("data")
            assert data is None or not hasattr(data, "get") or data.get("leader") != lid, seen.pending
        assert not any(pattern.search(text) for text in position["events"]
                       if "capture" in text or owner in text), position["events"]


def _check_state_view(god: GameState, seen: GameState, house: str) -> None:
    assert seen.config.seed == 0 and seen.rng_seed == 0
    assert str(god.config.seed) not in repr(seen)
    for other, hs in seen.houses.items():
        real = god.houses[other]
        if other == house:
            assert hs == real
            continue
        assert set(hs.hand) <= {"hidden"} and len(hs.hand) == len(real.hand)
        assert set(hs.traitors) <= {("hidden", "hidden")} and len(hs.traitors) == len(real.traitors)
        assert hs.prediction in (None, ("hidden", 0))
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


def _keys(data) -> set[str]:
    """Every dict key in a JSON value."""
    if isinstance(data, dict):
        return set(data) | {k for v in data.values() for k in _keys(v)}
    if isinstance(data, list):
        return {k for v in data for k in _keys(v)}
    return set()


def _check_events(seen_events, god: GameState) -> None:
    for e in seen_events:
        assert str(god.config.seed) not in e.text
        if e.data.get("secret"):  # a secret event names the House, never the card, leader or value
            assert not set(e.data) & {"card", "cards", "leader", "leader_house", "value", "winner", "turn", "plan",
                                      "weapon", "defense", "traitors", "hand"}, e


@pytest.mark.parametrize("game", range(len(GAMES)))
def test_gap_58_no_view_of_a_whole_game_leaks_a_secret(records, game, tmp_path):
    record = records[game]
    line = record.mainline()
    save = tmp_path / "game.json"
    save_game(record, save)
    captives_seen = 0
    for house in record.config.houses:
        seen_record = record.view(house)
        assert seen_record.config.seed == 0 and str(CANARY + game) not in repr(vars(seen_record))
        revealed: set[int] = set()
        unnamed: set[tuple[str, str]] = set()  # FAQ 17: the captives this House may not name yet
        named: set[tuple[str, str]] = set()  # ... and those shown to all since
        captures: dict[tuple[str, str], list[int]] = {}  # the capture nodes of each captive not named yet
        named_captures: set[int] = set()  # capture nodes whose captive was named afterwards
        for step, node in enumerate(line, start=1):
            god, parent = record.state_at(node), record.state_at(record.node(node).parent)
            seen = seen_record.state_at(node)
            _check_state_view(god, seen, house)
            _check_events(seen_record.events_at(node), god)
            # the last action, as the House knows it at this node
            real, shown = record.node(node).action, seen_record.node(node).action
            if real.kind in ("plan", "commit-leader") and any(e.kind == "plan-revealed" for e in god.events):
                revealed.add(node)  # BATTLE-13 f: both plans are shown once the second is in
            if real.kind in ("capture-draw", "capture-choice") and not _may_see(parent, real, house):
                unnamed.add((real.owner, real.leader))  # a leader captured again (after a return home) is a new
                named.discard((real.owner, real.leader))  # secret: his earlier reveal does not name this capture
            if real.kind in CAPTURE_KINDS and not _may_see(parent, real, house):
                captures.setdefault((real.owner, real.leader), []).append(node)
            shown_now = {p for p in unnamed if any(_names_captive(e, p) for e in god.events)}
            for person in shown_now:
                named_captures.update(captures.pop(person, []))
            unnamed -= shown_now
            named |= shown_now
            if real.kind in CAPTURE_KINDS and (real.owner, real.leader) in named:
                revealed.add(node)  # FAQ 17: the kill at once (FAQ 18) shows him in the same step
            if real.kind in SECRET_KINDS and not _may_see(parent, real, house) and node not in revealed:
                assert isinstance(shown, HiddenAction), (house, real)
                extra = {"owner"} if real.kind in CAPTURE_KINDS else set()
                assert set(shown.to_dict()) == {"kind", "house", "hidden"} | extra and shown.kind == real.kind
                if extra:
                    assert shown.to_dict()["owner"] == real.owner and "(identity hidden, FAQ 17)" in \
                        shown.describe()
            else:
                assert shown == real
            # the alternatives: the House's own menu, or a public chance node's outcomes and odds; nothing else
            alternatives = seen_record.alternatives(node)
            actor = current = god.pending.actor if god.pending else None
            if current is None:
                assert alternatives == []
            elif actor == CHANCE:
                outcomes = chance_outcomes(deck_tops.hide(god, house))  # ATREIDES-P2 c-d: a top it does not see
                expected = [] if outcomes[0][0].kind in SECRET_DRAWS else outcomes
                if outcomes[0][0].kind in CAPTURE_KINDS and not _may_see(god, outcomes[0][0], house):
                    expected = []  # FAQ 17: the pool a captive is drawn from is the captor's and the loser's
                assert alternatives == expected
            elif actor == house:
                assert [a for a, _p in alternatives] == legal_actions(god)[:400]
            else:
                assert alternatives == []
            # the CLI position is the one of the House view
            position = position_summary(seen, step=step, total=len(line))
            assert str(CANARY + game) not in json.dumps(position)
            assert not _keys(position) & {"hand", "traitors", "prediction", "storm_tokens", "seed", "secrets"}
            _check_captives(seen, house, seen_record.events_at(node), unnamed, position)
            captives_seen += bool(unnamed)
        # every earlier action as known at the end: secret ones stay hidden, except plans once revealed
        for node, shown in zip(line, seen_record.actions_to(line[-1]), strict=True):
            real = record.node(node).action
            secret = (real.kind in SECRET_KINDS and not _may_see(record.state_at(record.node(node).parent), real,
                                                                   house))
            if secret and real.kind in CAPTURE_KINDS:  # FAQ 17: shown once he has been named
                assert (shown == real) == (node in named_captures), (house, real, shown)
            elif secret and real.kind in ("storm-token", "plan", "commit-leader"):
                assert shown == real or isinstance(shown, HiddenAction)  # revealed later (BATTLE-13 f, FREMEN-P1)
            elif secret:
                assert isinstance(shown, HiddenAction)
            else:
                assert shown == real
    if GAMES[game][2] == "keeper":  # the game meant for FAQ 17 holds a captive hidden from a third House
        assert captives_seen > 0


def test_gap_58_replay_view_prints_the_house_view(records, tmp_path, capsys):
    record = records[2]
    save = tmp_path / "game.json"
    save_game(record, save)
    line = record.mainline()
    for house in record.config.houses:
        for step in (len(line) // 3, len(line)):
            assert main(["replay", str(save), "--to", str(step), "--view", house, "--json"]) == 0
            printed = json.loads(capsys.readouterr().out)
            node = line[step - 1]
            assert printed == position_summary(view(record.state_at(node), house), step=step, total=len(line))
            assert str(CANARY + 2) not in json.dumps(printed)
    assert main(["replay", str(save), "--json"]) == 0  # the god view stays the default
    assert json.loads(capsys.readouterr().out) == position_summary(record.state_at(line[-1]), step=len(line),
                                                                   total=len(line))
    assert main(["replay", str(save), "--view", "corrino"]) == 2
    assert "cli/view" in capsys.readouterr().err


def test_harkonnen_p4_faq_17_replay_view_never_names_a_hidden_captive(records, tmp_path, capsys):
    """FAQ 17 (GAP-75): ``replay --view`` of a third House prints "a leader of X" at the capture, and the captor's
    and the loser's views print his name."""
    index = next(i for i, game in enumerate(GAMES) if game[2] == "keeper")
    record = records[index]
    save = tmp_path / "game.json"
    save_game(record, save)
    line = record.mainline()
    steps = [(step, record.node(node).action) for step, node in enumerate(line, start=1)
             if record.node(node).action.kind == "capture-draw"]
    assert steps
    for step, draw in steps[:3]:
        third = next(h for h in record.config.houses if h not in (draw.house, draw.owner))
        for house in record.config.houses:
            assert main(["replay", str(save), "--to", str(step), "--view", house, "--json"]) == 0
            printed = json.dumps(json.loads(capsys.readouterr().out)["events"])
            named = bool(_word(draw.leader).search(printed))
            assert named == (house != third), (house, draw, printed)
            assert house != third or f"capture a leader of {draw.owner}" in printed


def test_gap_58_a_view_cannot_predict_the_secret_draws(records):
    """Issue 15: with ``config.seed`` left in its view, a House predicted every secret draw (storm tokens, cards,
    traitors, d10s) by putting the seed back into the generator. Now the seed it would put back is 0."""
    hits = total = 0
    for record in records:
        for node in record.mainline():
            god = record.state_at(node)
            if god.pending is None or god.pending.actor != CHANCE:
                continue
            child = record.children(node)[0]
            real = record.node(child).action
            if real.kind not in SECRET_DRAWS | {"battle-d10"}:
                continue
            seen = view(god, record.config.houses[0])
            guess = sample_chance(dataclasses.replace(god, rng_seed=seen.config.seed or seen.rng_seed))
            total += 1
            hits += guess == real
    assert total > 100
    assert hits < total / 2


def test_gap_58_a_record_view_holds_no_reference_to_the_record_or_a_god_state():
    record = _play(("atreides", "harkonnen", "fremen"), 1, 7)
    gods = {id(record.state_at(n)) for n in record.node_ids} | {id(record), id(record.config)}
    seen = record.view("atreides")
    assert isinstance(seen, RecordView)
    todo, visited = [seen], set()
    while todo:
        obj = todo.pop()
        if id(obj) in visited or isinstance(obj, type) or callable(obj) and not hasattr(obj, "__dict__"):
            continue
        visited.add(id(obj))
        assert id(obj) not in gods, type(obj)
        todo.extend(r for r in gc.get_referents(obj) if not isinstance(r, type | type(gc)))
    with pytest.raises(TypeError):
        seen._nodes[0] = None  # read-only
    with pytest.raises(dataclasses.FrozenInstanceError):
        seen.node(0).comment = "x"


# --- GAP-62: who is asked tells nothing -----------------------------------------------------------------------

#: The nodes asked of every House in turn whatever it holds (TRAITOR-8, CARD-WEATHER-1, CARD-ATOMICS-2, GAP-62).
ASKED = ("traitor-call", "weather", "traitor-discard",  # traitor-discard: HARKONNEN-M1, its menu lists the slips
         "leader-alliance")  # leaders.md K-18 traitor (HARKONNEN-L11-b, -L12-b): offered only with a slip (GAP-112)


def _phase_line(state: GameState, action, phase: str, seed: int):
    """Play ``action``, then the rest of ``phase``: chance by the state's generator, a pass at every ``ASKED`` node,
    a random bot elsewhere (its menus do not depend on slips, nor on a weather card outside the storm phase).
    Returns, for each House, the (node kind, actor) sequence its view shows and the public events it sees; the
    number of asked nodes whose menu offered more than the pass; and the leaders revealed in battle."""
    from dunenb.actions import Pass
    from dunenb.bots.random_bot import RandomBot
    from dunenb.engine import apply_action
    from dunenb.rules.anytime import is_anytime

    bot = RandomBot(seed=seed)
    houses = state.config.houses
    seen: dict[str, list] = {h: [] for h in houses}
    offered, leaders = 0, []
    state = apply_action(state, action)
    while True:
        for house in houses:
            shown = view(state, house)
            seen[house] += [(e.kind, e.text) for e in shown.events if not e.data.get("secret")]
            seen[house].append(None if shown.pending is None else (shown.pending.kind, shown.pending.actor))
        leaders += [(e.data["house"], e.data["leader"]) for e in state.events if e.kind == "plan-revealed"]
        if state.pending is None or state.phase != phase:
            return seen, offered, leaders
        if state.pending.actor == CHANCE:
            choice = sample_chance(state)
        elif state.pending.kind in ASKED:
            offered += len([a for a in legal_actions(state) if not is_anytime(a)]) > 1
            choice = Pass(state.pending.actor)
        else:
            choice = bot.choose(state)
        state = apply_action(state, choice)


def _gap_62_games(records: list[GameRecord]):
    """(index, record) of the games the GAP-62 comparisons were written for. The FAQ 17 game is left out: in its
    turn 1 the Atreides fall (VICTORY-2) and take the Harkonnen's 4 slips, all on Atreides leaders, with them, while
    the test's made-up slips name Fremen leaders and stay, so HARKONNEN-M1 is asked in one line only (a public
    difference in the slips' number, not a leak)."""
    return [(i, r) for i, r in enumerate(records) if GAMES[i][2] != "keeper"]


def _wheel_cards(state: GameState, house: str) -> tuple[str, ...]:
    """The cards ``house`` has set on the wheel of the pending battle (none outside a battle)."""
    battle = state.pending.detail.get("battle") if state.pending is not None else None
    plan = None if battle is None else battle.plan_of(house)
    return () if plan is None else (plan.weapon, plan.defense, plan.karama)


def _entering(record: GameRecord, phase: str, *, from_turn: int = 1):
    """(god state before, action) of each step of the main line that enters ``phase`` from another phase."""
    for node in record.mainline():
        parent = record.node(node).parent
        before, after = record.state_at(parent), record.state_at(node)
        if after.phase == phase and before.phase != phase and after.turn >= from_turn:
            yield before, record.node(node).action


def _with_slips(state: GameState, slips: dict[str, tuple]) -> GameState:
    houses = state.houses
    for house, held in slips.items():
        houses = houses.set(house, dataclasses.replace(houses[house], traitors=held))
    return dataclasses.replace(state, houses=houses)


def test_gap_62_traitor_8_the_public_battle_sequence_is_the_same_whether_or_not_a_slip_names_the_opposing_leader(
        records):
    """In whole seeded bot games, each battle phase is played twice from the same position: once with the slips
    as drawn, once with every House's slips (as many as before: their number is public) naming leaders its
    opponents then lead. Every House's view shows the same nodes, actors and public events; before GAP-62 only
    the second game stopped at ``traitor-call`` nodes (and logged "keeps its traitor secret")."""
    from dunenb.rules.traitors import leader_of, leader_ref

    compared = offered_calls = 0
    for index, record in _gap_62_games(records):
        for before, action in _entering(record, "battle"):
            plain, _offered, leaders = _phase_line(before, action, "battle", seed=index)
            faced: dict[str, list] = {h: [] for h in before.config.houses}  # leaders each House fought against
            # a House eliminated in this phase takes the slips on its leaders with it (public, VICTORY-2): no
            # slip names its leaders, so that both lines keep the same slips
            fallen = {text.split()[0] for line in plain.values() for entry in line
                      if entry and entry[0] == "eliminated" for text in (entry[1],)}
            for (defender, led), (attacker, against) in zip(leaders[::2], leaders[1::2], strict=True):
                # possible slips only: a main leader is never a traitor (houses.md G-7, TRAITOR-1)
                if led != "none" and not leader_of(defender, led).main and defender not in fallen:
                    faced[attacker].append(leader_ref(defender, led))
                if against != "none" and not leader_of(attacker, against).main and attacker not in fallen:
                    faced[defender].append(leader_ref(attacker, against))
            slips = {h: tuple((faced[h] * len(hs.traitors))[:len(hs.traitors)])
                     for h, hs in before.houses.items() if hs.traitors and faced[h]}
            if not slips:
                continue
            slipped, offered_there, _ = _phase_line(_with_slips(before, slips), action, "battle", seed=index)
            assert slipped == plain
            compared += 1
            offered_calls += offered_there
    assert compared >= 2 and offered_calls >= 1


def test_gap_62_card_weather_1_the_public_storm_sequence_is_the_same_whether_or_not_a_house_holds_the_card(
        records):
    """Each storm phase of turn 2 on is played twice from the same position: once as dealt, once with a card of
    one House's hand (its size is public) turned into weather control. Every House's view shows the same nodes,
    actors and public events; before GAP-62 only the holder was asked, and only when it held the card."""
    from dunenb.rules.common import WEATHER_CONTROL, storm_order

    compared = offered_plays = 0
    for index, record in _gap_62_games(records):
        for before, action in _entering(record, "storm", from_turn=2):
            plain, _offered, _ = _phase_line(before, action, "storm", seed=index)
            for house in storm_order(before):
                hand = before.houses[house].hand
                on_wheel = _wheel_cards(before, house)  # a card set on a battle wheel stays there (GAP-57)
                if hand and WEATHER_CONTROL not in hand and hand[0] not in on_wheel:
                    break
            else:
                continue
            holding = before.houses.set(house, dataclasses.replace(
                before.houses[house], hand=(WEATHER_CONTROL,) + hand[1:]))
            played, offered, _ = _phase_line(dataclasses.replace(before, houses=holding), action, "storm", seed=index)
            assert played == plain
            compared += 1
            offered_plays += offered
    assert compared >= 3 and offered_plays >= compared
