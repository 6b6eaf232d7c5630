"""KARAMA-34 against TLEILAX-P2 (REVIVAL-3): Tleilax tokens destroyed go back to their reserve at once, unless a
Karama sends them to the dead pile.

Tokens are destroyed deep inside many rules (storms, worms, battles, landings and moves into a storm), and the
rule that destroys them goes on at once. So the use is asked when the action that destroyed them is settled
(GAP-84): :func:`after_action` reads the transition's ``tokens-recovered`` events (:func:`dunenb.rules.common.
send_to_tanks`), and if some House may play KARAMA-34 it opens a Karama window over the node the action left
(GAP-63: every House in play with a hand, in table order, with a pass). If the use is played, the tokens of that
destruction go from the reserve to the tanks; the Tleilax buy them back as any House (REVIVAL-1, 1 spice a token,
paid to the Bank, TLEILAX-P1), or with a ghola (KARAMA-34: "in this one case"). The use lasts that destruction:
it is lifted at once, so the next destruction is recovered again.

>>> from dunenb.engine import new_game
>>> state = new_game(["bene-tleilax", "atreides"], seed=1)
>>> after_action(state) is state  # nothing recovered in this transition
True
"""

from __future__ import annotations

from dunenb.powers import holder
from dunenb.powers.karama import lift
from dunenb.powers.registry import power
from dunenb.rules.common import edit_house, event, with_events
from dunenb.rules.karama_window import askers, open_window, register_resume
from dunenb.state import Event, FrozenDict, GameState, Tokens

POWER = "TLEILAX-P2"  # destroyed tokens go back to the reserve (data/powers.json, hook tokens.destroyed)
RESUME = "token-recovery"


def _uses() -> tuple[str, ...]:
    return tuple(use.id for use in power(POWER).karama if use.moment == "destruction")


def _recovers(happened: Event) -> bool:
    """Whether the event ``happened`` tells of tokens recovered by TLEILAX-P2."""
    return happened.kind == "tokens-recovered" and POWER in happened.data.get("powers", ())


def after_action(state: GameState) -> GameState:
    """Once an action is settled: ask KARAMA-34 about the tokens it made the holder of TLEILAX-P2 recover."""
    if state.pending is None or not state.events:
        return state
    for found in state.events:  # issue 14 item 4: asked after every action; most make no recovery (no list built)
        if _recovers(found):
            break
    else:
        return state
    recovered = [e for e in state.events if _recovers(e)]
    house = recovered[0].data["house"]
    tokens = Tokens(sum(e.data.get("regular", e.data["count"]) for e in recovered if e.data["house"] == house),
                    sum(e.data.get("marked", 0) for e in recovered if e.data["house"] == house))
    uses = _uses()
    if holder(state, POWER) != house or not askers(state, uses):
        return state
    return open_window(state, uses, RESUME, house=house, regular=tokens.regular, marked=tokens.marked)


def _resume(state: GameState, data: FrozenDict) -> GameState:
    house = data["house"]
    if holder(state, POWER) == house:  # nobody played KARAMA-34: the tokens stay recovered
        return state
    hs = state.houses[house]
    tokens = Tokens(min(data["regular"], hs.reserve.regular), min(data["marked"], hs.reserve.marked))
    state = edit_house(state, house, reserve=hs.reserve - tokens, tanks=hs.tanks + tokens)
    state = with_events(state, event(
        "tokens-to-tanks", f"KARAMA-34: the {tokens.total} destroyed {house} token(s) go to the dead pile instead of "
        f"the reserve ({POWER} blocked for that destruction); they are bought back at 1 spice a token",
        house=house, count=tokens.total, powers=(POWER,)))
    return lift(state, "event")


register_resume(RESUME, _resume)
