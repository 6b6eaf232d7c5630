"""Who sees each action, and when a secret action becomes public (GAP-58).

:func:`dunenb.engine.view` hides the secrets a *state* holds; a game *record* also holds the actions that put them
there (the card drawn, the leader picked, the plan set). This module says, from the rules, which actions only
some Houses see, and which public event later reveals one, so that a record's House view
(:meth:`dunenb.record.GameRecord.view`) can redact them. Widgets and the CLI never decide this themselves.

Secret actions (the Houses that see them; everybody else sees a :class:`HiddenAction`, its kind and House only):

* ``storm-token`` (FREMEN-P1): the token's holder (the Fremen); revealed by the storm phase's
  ``storm-token-revealed`` event for that storm.
* ``predict`` (BG-P6): the Bene Gesserit; never revealed during the game (GAP-58: the seed text reveals the
  prediction only when it wins, and the game's end is judged by victory, not by this view).
* ``traitor-draw`` (TRAITOR-1) and ``traitor-pick`` (TRAITOR-4): the drawing House; never revealed (a traitor
  call shows one slip, not which leaders were drawn; GAP-58).
* ``treachery-card`` (SETUP-1 h, HAND-2): the House that draws it, and outside the setup's free cards the Houses
  the hook ``draw.viewers`` adds (ATREIDES-P2 b: the Atreides see every card drawn from the deck, not the setup
  cards; none while KARAMA-41 is in force); never revealed (a card played later cannot be told from the other
  cards of that hand; GAP-58).
* ``auction-card`` (BID-3, BID-8, ATREIDES-P2a): the opener and the Atreides (:func:`bidding.auction_viewers`);
  never revealed as an action (GAP-58: an unsold card's name is in the public ``card-unsold`` event anyway).
* ``plan`` (BATTLE-13 a-e): the House that sets it; revealed by its ``plan-revealed`` event (BATTLE-13 f).
* ``commit-leader`` (BG-M2): the House committing its leader and its opponent (the BG); revealed by that
  House's ``plan-revealed`` event.
* ``on-call-draw`` (BG-L10-b, leaders.md K-21): the drawing House and the House whose hand it draws from; never
  revealed (as ``treachery-card``). The discard down to the hand limit that may follow is public (the discard
  pile is).
* ``leader-see-card`` (BG-L08-b, leaders.md K-16 see_card): the drawing House and the House whose hand it draws
  from; never revealed (the card goes back to that hand).
* ``leader-card`` (EMPEROR-L11-b, EMPEROR-L12-b, leaders.md K-16 ``buy_card`` / ``fill_hand``): the drawing House
  and, as for ``treachery-card``, the Houses the hook ``draw.viewers`` adds, except for a card bought for 5
  (EMPEROR-L11-b: not seen); never revealed.
* ``leader-traitor-draw`` (HARKONNEN-L08-c, leaders.md K-16 ``traitor_draw``): the drawing House and the House
  whose leader is drawn ("the opponent sees which"); never revealed as an action (a call names him).
* ``leader-see-storm`` (GUILD-L11-c, leaders.md K-16 ``see_storm``): the House that paid and the Fremen; never
  revealed as an action (the storm moves show the tokens' effect).
* ``show-slip`` (HARKONNEN-L11-b, -L12-b, leaders.md K-18 ``traitor``): the Harkonnen and the House they show
  the slip to; never revealed.
* ``traitor-discard``, ``new-traitor-draw``, ``new-traitor-keep`` (HARKONNEN-M1): the Harkonnen; never revealed
  (their ``new-traitor-declared`` event says only that a slip changes).

* ``capture-draw``, ``capture-choice``, ``captive`` (HARKONNEN-P4, FAQ 17, GAP-75): the captor and the House whose
  leader is taken; the others see "a leader of House X captured" (:class:`HiddenAction` ``about``: X). Revealed
  by the first public event naming him (his plan revealed, his death, his return home:
  :func:`dunenb.rules.captive_secrecy.names`); the views hide him meanwhile (:mod:`dunenb.rules.captive_secrecy`).

* ``deck-top`` (ATREIDES-P2 c-d): the top card of the territory or Chance deck held apart, seen by the
  Houses of the hook ``deck.top_viewers`` (the Atreides; none under KARAMA-41); never revealed as an action (the
  card shows in the public events when it is drawn).

* ``prescience-answer`` (ATREIDES-P1, GUILD-M2, GAP-78): the House that answers; never revealed as an action.
  The answer is kept in the battle context; :func:`answer_viewers` names who sees it there (the House asked,
  and the asker once every question is answered), and
  :meth:`dunenb.rules.battle_context.BattleContext.seen_by` hides it from the others. The ``voice`` (BG-P1,
  ATREIDES-M2) and ``prescience`` question (ATREIDES-P1, GUILD-M2) actions are public: they are stated openly
  (G-9). A Karama hidden on the wheel (GAP-80) is part of the secret ``plan`` until its ``plan-revealed`` event.

Every other action is public, passes included: that is safe because the flow asks every House that could play a
secret option, whether or not it holds it (GAP-62: traitor calls, weather control and Atomics, traitor picks), so
a pass tells nothing. The alternatives shown at a node follow the same rules (GAP-58): a House sees its
own menu, no menu of another House (its cards, spice limits and drawn leaders shape it), the outcomes and odds of
a public chance node, and neither the outcomes nor the odds of a secret draw (they would show the deck, or the
leaders already drawn).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dunenb.actions import Action
from dunenb.battle.sequence import BattleSequence
from dunenb.powers import applied
from dunenb.rules import bidding, captive_secrecy, deck_tops, storm
from dunenb.state import Event, GameState

#: Placeholder for the ``house`` of a hidden chance action whose drawer is not named by the action.
NOBODY = ""


@dataclass(frozen=True)
class HiddenAction:
    """A secret action as another House sees it in a record view: its kind and the House concerned, nothing else
    (GAP-58). It reads like an action (``kind``, ``actor``, ``is_chance``, ``notation()``, ``to_dict()``) but
    cannot be played."""

    kind: str
    house: str
    is_chance: bool = False
    hidden: bool = True
    about: str = ""  # FAQ 17: the House whose leader a hidden capture takes ("" for other secret actions)

    @property
    def actor(self) -> str:
        return "chance" if self.is_chance else self.house

    def notation(self) -> str:
        """``'traitor-pick harkonnen (hidden)'``."""
        if self.about:
            return f"{self.kind} {self.house or '?'} (a leader of {self.about}, hidden)"
        return f"{self.kind} {self.house or '?'} (hidden)"

    def describe(self) -> str:
        """``'The Harkonnen make a secret traitor-pick'``: who acted, never what (GAP-58)."""
        from dunenb.action_text import describe

        return describe(self)

    def to_dict(self) -> dict[str, Any]:
        shown: dict[str, Any] = {"kind": self.kind, "house": self.house, "hidden": True}
        if self.about:
            shown["owner"] = self.about  # FAQ 17: whose leader was captured is public, not who
        return shown

    def __str__(self) -> str:
        return self.notation()


Viewers = Callable[[GameState, Action], tuple[str, ...]]


def _own(_state: GameState, action: Action) -> tuple[str, ...]:
    return (str(getattr(action, "house", NOBODY)),)


def _drawer_and_source(_state: GameState, action: Action) -> tuple[str, ...]:
    return (str(getattr(action, "house", NOBODY)), str(getattr(action, "source", NOBODY)))


def _commit_viewers(state: GameState, action: Action) -> tuple[str, ...]:
    from dunenb.rules.battle_context import context_of

    house = str(getattr(action, "house", NOBODY))
    return (house, context_of(state).opponent(house))


def _token_viewers(state: GameState, _action: Action) -> tuple[str, ...]:
    holder = storm.token_holder(state)
    return () if holder is None else (holder,)


def _drawn_card_viewers(state: GameState, action: Action) -> tuple[str, ...]:
    house = str(getattr(action, "house", NOBODY))
    if state.pending is not None and state.pending.kind == "free-card":  # SETUP-1 h: not seen (ATREIDES-P2 b)
        return (house,)
    from dunenb.rules.leader_after_battle import shown_to_all_viewers

    if not shown_to_all_viewers(state):  # leaders.md K-17 draw: a card not shown (HARKONNEN-L01-b, -L06-c)
        return (house,)
    return tuple(applied(state, "draw.viewers", (house,), {"house": house})[0])  # ATREIDES-P2 b


def _leader_card_viewers(state: GameState, action: Action) -> tuple[str, ...]:
    from dunenb.rules.leader_pre_battle import card_viewers

    return card_viewers(state, str(getattr(action, "house", NOBODY)))


def _auction_viewers(state: GameState, _action: Action) -> tuple[str, ...]:
    assert state.pending is not None
    return bidding.auction_viewers(state, state.pending.detail["opener"])


#: action kind -> the Houses that see it (given the state *before* it is played).
SECRET_ACTIONS: dict[str, Viewers] = {
    "storm-token": _token_viewers,  # FREMEN-P1
    "predict": _own,  # BG-P6
    "traitor-draw": _own,  # TRAITOR-1
    "traitor-pick": _own,  # TRAITOR-4
    "treachery-card": _drawn_card_viewers,  # SETUP-1 h, HAND-2, ATREIDES-P2 b
    "auction-card": _auction_viewers,  # BID-3, BID-8, ATREIDES-P2a
    "after-battle-slip": lambda _state, action: (str(getattr(action, "house", NOBODY)),
                                                 str(getattr(action, "to", NOBODY))),  # leaders.md K-17 see_traitor
    "plan": _own,  # BATTLE-13 a-e (with a Karama hidden on the wheel: KARAMA-25/40/43, GAP-80)
    "prescience-answer": _own,  # ATREIDES-P1, GUILD-M2: the asker reads it in its view of the battle (GAP-78)
    "commit-leader": _commit_viewers,  # BG-M2: the House and the BG it shows its leader to
    "on-call-draw": _drawer_and_source,  # BG-L10-b: the BG draw from the Harkonnen hand (K-21)
    "leader-see-card": _drawer_and_source,  # BG-L08-b: the card drawn from the opponent's hand (K-16)
    "leader-card": _leader_card_viewers,  # EMPEROR-L11-b, -L12-b: drawn; the Atreides see it unless bought for 5
    "leader-traitor-draw": _drawer_and_source,  # HARKONNEN-L08-c: the leader drawn as a traitor for the battle
    "leader-see-storm": _drawer_and_source,  # GUILD-L11-c: the Fremen's storm tokens shown to the Guild (K-16)
    "show-slip": _commit_viewers,  # HARKONNEN-L11-b, -L12-b: the slip shown to the partner (K-18)
    "traitor-discard": _own,  # HARKONNEN-M1: which slip is given up (the change itself is announced)
    "new-traitor-draw": _own,  # HARKONNEN-M1: the leaders drawn face down
    "new-traitor-keep": _own,  # HARKONNEN-M1: the new slip
    "deck-top": lambda state, _action: deck_tops.top_viewers(state),  # ATREIDES-P2 c-d: the top held apart
    # HARKONNEN-P4, FAQ 17 (GAP-75): the captive's identity, for his captor and his own House only
    "capture-draw": lambda _state, action: (str(getattr(action, "house", NOBODY)), str(getattr(action, "owner", ""))),
    "capture-choice": lambda _state, action: (str(getattr(action, "house", NOBODY)),
                                              str(getattr(action, "owner", ""))),
    "captive": lambda _state, action: (str(getattr(action, "house", NOBODY)), str(getattr(action, "owner", ""))),
}

#: action kind -> does this later public event reveal that action? (the first match along the line does)
REVEALED_BY: dict[str, Callable[[Action, Event], bool]] = {
    "plan": lambda action, e: e.kind == "plan-revealed" and e.data.get("house") == getattr(action, "house", None),
    "commit-leader": lambda action, e: (e.kind == "plan-revealed"
                                        and e.data.get("house") == getattr(action, "house", None)),
    "storm-token": lambda action, e: (e.kind == "storm-token-revealed"
                                      and e.data.get("storm") == getattr(action, "storm", None)),
    # FAQ 17: a capture is shown once an event names the captive publicly (plan revealed, killed, sent home)
    **{kind: lambda action, e: captive_secrecy.names(e, (getattr(action, "owner", ""), getattr(action, "leader", "")))
       for kind in captive_secrecy.CAPTURE_KINDS},
}


def answer_viewers(sequence: BattleSequence, index: int = 0) -> tuple[str, ...]:
    """ATREIDES-P1, GUILD-M2: the Houses that see answer ``index``: the House that answered, and the asker once
    every question of the battle is answered (G-9: all the questions are stated, then answered together;
    GAP-78).

    >>> from dunenb.battle.sequence import PrescienceAnswer, PrescienceQuestion, start_sequence
    >>> import dataclasses
    >>> seq = start_sequence(("atreides", "harkonnen"), prescience_holder="atreides")
    >>> seq = dataclasses.replace(seq, questions=(PrescienceQuestion("atreides", "harkonnen", "attack"),))
    >>> answer_viewers(dataclasses.replace(seq, answers=(PrescienceAnswer("harkonnen", None),)))
    ('harkonnen', 'atreides')
    """
    if index >= len(sequence.questions):
        return ()
    question = sequence.questions[index]
    complete = len(sequence.answers) == len(sequence.questions)
    return (question.target, question.by) if complete else (question.target,)


def viewers(state: GameState, action: Action) -> tuple[str, ...] | None:
    """The Houses that see ``action`` played at ``state`` (the god state before it), or ``None`` if it is public.

    >>> from dunenb.engine import new_game
    >>> from dunenb.rules.traitors import PickTraitor
    >>> viewers(new_game(["atreides", "harkonnen"], seed=1), PickTraitor("atreides", "harkonnen", "piter"))
    ('atreides',)
    """
    rule = SECRET_ACTIONS.get(action.kind)
    return None if rule is None else tuple(rule(state, action))


def sees(state: GameState, action: Action, house: str) -> bool:
    """Whether ``house`` sees ``action`` played at ``state`` (always true for a public action)."""
    shown = viewers(state, action)
    return shown is None or house in shown


def hidden(state: GameState, action: Action) -> HiddenAction:
    """The placeholder other Houses see instead of the secret ``action`` played at ``state``: its kind and the
    House concerned (the one acting or drawing; for a card put up for auction, its opener)."""
    house = getattr(action, "house", None)
    if house is None:
        house = (viewers(state, action) or (NOBODY,))[0]
    about = str(getattr(action, "owner", "")) if action.kind in captive_secrecy.CAPTURE_KINDS else ""
    return HiddenAction(kind=action.kind, house=str(house), is_chance=action.is_chance, about=about)


def reveals(action: Action, events: tuple[Event, ...]) -> bool:
    """Whether one of ``events`` makes the secret ``action`` public (BATTLE-13 f, FREMEN-P1)."""
    rule = REVEALED_BY.get(action.kind)
    return rule is not None and any(rule(action, e) for e in events)


def is_secret_choice(state: GameState, house: str) -> bool:
    """At ``state`` (the god state), are the choices hidden from ``house``? Another House's decision always is (its
    cards, spice and drawn leaders shape its menu); a chance node is when its outcome would be secret (the odds
    tell the deck or the leaders left; GAP-58)."""
    from dunenb.engine import chance_outcomes

    if state.pending is None:
        return False
    if state.pending.actor != "chance":
        return state.pending.actor != house
    outcomes = chance_outcomes(state)
    if outcomes and outcomes[0][0].kind in captive_secrecy.CAPTURE_KINDS:
        # FAQ 17: the captor and the loser know the loser's leaders it draws from; to others they could name an
        # earlier captive (the pool leaves him out)
        return not sees(state, outcomes[0][0], house)
    return bool(outcomes) and outcomes[0][0].kind in SECRET_ACTIONS
