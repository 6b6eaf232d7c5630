"""K-17 POST_BATTLE in the battle's result: which after-battle entries fire, and the cards a loser keeps.

leaders.md LC-5 B10: once a battle is resolved, the POST_BATTLE entries of the two fighting leaders act, the
winner's side first. Whether an entry fires depends on the battle's result only, so the resolver decides it
(:func:`fired`) and the outcome lists the IDs (:attr:`dunenb.battle.resolve.SideOutcome.after_battle`, in
``dunenb battle --json`` as ``after_battle``); a game applies them (:mod:`dunenb.rules.leader_after_battle`).

Triggers (K-17), for the leader of side ``me``:

* ``win`` / ``lose``: his side won / lost; after a treachery the caller wins and the victim loses (LC-5 B7);
* ``any``: the battle had a winner (GAP-107: after an explosion or battle Atomics nobody wins or loses, so
  ``win``, ``lose`` and ``any`` do not fire);
* ``win+alive``: won, and he lives; ``survive``: he lives at the end (GAP-107: whoever won; not after an
  explosion, which kills both leaders);
* ``self_dies``: he dies, whatever the cause (an explosion included);
* ``enemy_dies+alive``: the opposing leader dies and he lives.

A condition (``when``: D07-d ``win ∧ opp of BG``) must also hold; which entries act is
:func:`dunenb.battle.leader_powers.acting` (LC-9/10/11: a foreign leader keeps his traits only, a Karama in
force blocks a power). Only the actions the engine applies are listed (:data:`APPLIED_ACTIONS`).

``keep(all | attack | defence)`` (EMPEROR-L03-b, EMPEROR-L05-c, EMPEROR-L06-c; on ``lose``, a treachery
included) is part of the result itself: those played cards go back to the loser's hand instead of the discard
pile, so they are not among his ``cards_lost`` (:func:`kept_by_loser`). ``all`` is his attack and defence
cards; a Karama on his wheel is lost whatever happens (KARAMA-2).

``blast`` (GUILD-L05-d, ``self_dies``) acts at B9, inside the resolution, not after a treachery
(:func:`blast_deaths`, called by :func:`dunenb.battle.resolve.leader_step`; LC-7: only a shield stops it, a
Shield card or a worn shield that acts (K-8, its one roll of the battle), and an immunity to distance
projectiles spares its target (GAP-148); the blast of a leader the other blast kills does not go off in turn).

``regen_dialled`` (DISPERSION-L05-c, ``win``, then d10 ≤ 6) acts at B9 among the token losses (LC-5): on a
win none of the tokens dialled is lost; they stay in the territory. GAP-129: the d10 is rolled in the leader
step (:func:`regen_ids` says whose; :func:`dunenb.battle.resolve.leader_step` rolls it, last, an exact chance
node) whenever the leader fights a battle that no treachery or explosion ends, before the winner is known; the
roll acts only if his side wins (the outcome lists the ID among that side's ``powers``).

``spare(4)`` (GUILD-L06-d, at B9 after G05-d's blast, not after a treachery) is part of the result: when the
opposing leader is about to die of the attacks of this side (:func:`spared`; only of them: GAP-131, a leader who
dies of something else too is not spared), this side may spare him and he lives with his value if his side
accepts and pays 4 to this side's House (``BattleSide.spare`` on both sides says so; in a game each is a
decision, :mod:`dunenb.rules.leader_spare`). The payer's outcome says ``spare_paid``; the holder's side lists
the ID among its ``powers``.

``half_losses`` (BG-L10-a, HARKONNEN-L09-b; on ``any``) is part of the result too (LC-5 B9): of the n tokens
dialled, floor(n/2) are saved (:func:`saved_tokens`); they stay in the territory after a win and go to the
reserve after a loss, a treachery included (the outcome's ``tokens_saved``). GAP-109: the owner's choice is
made for him: marked tokens first (worth more on the wheel, WHEEL-2), so no decision is asked.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from dunenb.battle.leader_bounty import effect_args
from dunenb.battle.leader_powers import Scene, acting
from dunenb.battle.plans import BattlePlan
from dunenb.battle.roster import Leader, Power
from dunenb.battle.wheel import Tokens

KIND = "POST_BATTLE"
TRIGGERS = ("win", "lose", "any", "win+alive", "survive", "self_dies", "enemy_dies+alive")
#: The K-17 actions the engine applies so far (the others stay ``not-yet`` in ``dunenb rules coverage``).
APPLIED_ACTIONS = frozenset({"keep", "gain_spice", "heal", "lose_tokens", "half_losses", "steal_random",
                             "discard_free", "ration", "reinforce", "extra_revival", "see_spice",
                             "chosen_capture", "draw", "give_card", "see_traitor", "blast", "ship",
                             "regen_dialled", "destroy_tanks", "spare", "torture", "capture"})
#: K-17 actions at B9, inside the resolution (not listed among the B10 ``after_battle`` entries).
B9_ACTIONS = frozenset({"blast", "regen_dialled", "spare"})
#: DISPERSION-L05-c: "si le D 10 ne dépasse pas 6".
REGEN_ACTIVE = 6


def action_of(power: Power) -> tuple[str, tuple[str, ...]]:
    """The action word and its parameters of a POST_BATTLE entry (``heal 3`` -> ``("heal", ("3",))``)."""
    args = effect_args(power) if power.kind == KIND else ()
    # an entry without a trigger (GUILD-L06-d ``spare 4``, which acts at B9 on its own condition) is its action
    words = args[1].split() if len(args) > 1 else args[0].split() if args and args[0] not in TRIGGERS else []
    return (words[0], tuple(words[1:])) if words else ("", ())


def triggered(trigger: str, *, won: bool | None, alive: bool, enemy_died: bool) -> bool:
    """Whether ``trigger`` fires for a leader (``won`` None: the battle has no winner, GAP-107)."""
    if trigger == "win":
        return won is True
    if trigger == "lose":
        return won is False
    if trigger == "any":
        return won is not None
    if trigger == "win+alive":
        return won is True and alive
    if trigger == "survive":
        return alive and won is not None
    if trigger == "self_dies":
        return not alive
    if trigger == "enemy_dies+alive":
        return enemy_died and alive
    raise ValueError(f"unknown POST_BATTLE trigger {trigger!r}; allowed: {', '.join(TRIGGERS)}")


def fired(scene: Scene, me: int, *, winner: int | None, dead: tuple[bool, bool]) -> tuple[str, ...]:
    """The IDs of side ``me``'s POST_BATTLE entries, among :data:`APPLIED_ACTIONS`, that fire in this result."""
    if scene.leaders[me] is None:
        return ()
    won = None if winner is None else winner == me
    found = []
    for power in acting(scene, me, KIND):
        args = effect_args(power)
        action = action_of(power)[0]
        if not args or args[0] not in TRIGGERS or action not in APPLIED_ACTIONS or action in B9_ACTIONS:
            continue
        enemy_died = scene.leaders[1 - me] is not None and dead[1 - me]
        if triggered(args[0], won=won, alive=not dead[me], enemy_died=enemy_died):
            found.append(power.id)
    return tuple(found)


def kept_by_loser(scene: Scene, loser: int, plan: BattlePlan, ids: tuple[str, ...]) -> tuple[str, ...]:
    """The played cards that go back to the loser's hand under a ``keep`` entry among ``ids`` (K-17)."""
    leader = scene.leaders[loser]
    if leader is None:
        return ()
    slots: set[str] = set()
    for power in leader.powers:
        action, params = action_of(power)
        if power.id in ids and action == "keep":
            what = params[0] if params else "all"
            slots |= {"attack", "defence"} if what == "all" else {what}
    cards = (("attack", plan.weapon), ("defence", plan.defense))
    return tuple(card for slot, card in cards if slot in slots and card is not None and not _is_builtin(card))


def _is_builtin(card: str) -> bool:
    from dunenb.battle.cards import BUILT_IN_WEAPONS

    return card in BUILT_IN_WEAPONS


def _fired_actions(scene: Scene, me: int, ids: tuple[str, ...]) -> list[tuple[str, tuple[str, ...]]]:
    leader = scene.leaders[me]
    return [action_of(power) for power in (leader.powers if leader is not None else ()) if power.id in ids]


def saved_tokens(scene: Scene, me: int, ids: tuple[str, ...], dialled: Tokens) -> Tokens:
    """K-17 half_losses among the fired ``ids``: floor(n/2) of the n tokens dialled, marked first (GAP-109)."""
    if not any(action == "half_losses" for action, _params in _fired_actions(scene, me, ids)):
        return Tokens()
    count = dialled.total // 2
    elite = min(count, dialled.elite)
    return Tokens(count - elite, elite)


@lru_cache(maxsize=4096)  # issue 14: asked at every chance leaf of a battle (perfbattle)
def blasts(houses: tuple[str, str], leaders: tuple[Leader | None, Leader | None], blocked: tuple[frozenset[str],
           frozenset[str]]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """K-17 blast (GUILD-L05-d, ``self_dies``, at B9): the IDs per side of the entries that fire if that side's
    leader dies (no condition: the scene needs no territory)."""
    scene = Scene.of("", houses, leaders, defender=0, blocked=blocked)
    return (_blast_ids(scene, 0), _blast_ids(scene, 1))


def _blast_ids(scene: Scene, me: int) -> tuple[str, ...]:
    return tuple(power.id for power in acting(scene, me, KIND)
                 if effect_args(power)[:1] == ("self_dies",) and action_of(power)[0] == "blast")


def blast_deaths(houses: tuple[str, str], leaders: tuple[Leader | None, Leader | None], defences: tuple[str | None,
                 str | None], dead: tuple[bool, bool], blocked: tuple[frozenset[str], frozenset[str]],
                 stops: Callable[[int], bool] = lambda foe: False) -> tuple[bool, bool]:
    """K-17 blast at B9, not after a treachery (the caller does not call it then): when a leader with ``blast``
    dies, an extra distance projectile hits the opposing leader, and only a shield stops it (LC-7: a Shield card,
    or a worn shield that acts, K-8). ``stops(foe)``: whether something besides a Shield card stops a distance
    projectile aimed at side ``foe``'s leader (GAP-148: his worn shield, rolled once per battle, and a K-10
    immunity such as ATREIDES-L12-c's; the caller reports what acted). The blast of a leader killed by the other
    blast does not go off again (one pass)."""
    ids = blasts(houses, leaders, blocked)
    result = list(dead)
    for me in (0, 1):
        foe = 1 - me
        if ids[me] and dead[me] and leaders[foe] is not None and defences[foe] != "shield" and not dead[foe] \
                and not stops(foe):
            result[foe] = True
    return (result[0], result[1])


@lru_cache(maxsize=4096)  # issue 14 item 4: asked at every chance leaf of the leader step
def regen_ids(houses: tuple[str, str], leaders: tuple[Leader | None, Leader | None],
              blocked: tuple[frozenset[str], frozenset[str]]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """K-17 regen_dialled (DISPERSION-L05-c): per side, the IDs of the acting entries, whose d10 the leader step
    rolls (GAP-129: before the winner is known; they act on a win only)."""
    scene = Scene.of("", houses, leaders, defender=0, blocked=blocked)

    def ids(me: int) -> tuple[str, ...]:
        return tuple(power.id for power in acting(scene, me, KIND) if action_of(power)[0] == "regen_dialled")

    return (ids(0), ids(1))


@lru_cache(maxsize=4096)  # issue 14 item 4: asked at every chance leaf of the leader step
def spare_ids(houses: tuple[str, str], leaders: tuple[Leader | None, Leader | None],
              blocked: tuple[frozenset[str], frozenset[str]]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """K-17 spare (GUILD-L06-d): per side, the IDs of the acting entries."""
    scene = Scene.of("", houses, leaders, defender=0, blocked=blocked)

    def ids(me: int) -> tuple[str, ...]:
        return tuple(power.id for power in acting(scene, me, KIND) if action_of(power)[0] == "spare")

    return (ids(0), ids(1))


def spare_price(power_id: str, leader: Leader | None) -> int:
    """The spice the spared leader's side pays (``spare 4``)."""
    power = next(p for p in (leader.powers if leader is not None else ()) if p.id == power_id)
    return int(action_of(power)[1][0])


def spared(ids: tuple[tuple[str, ...], tuple[str, ...]], by_attacks: tuple[bool, bool],
           other_causes: tuple[bool, bool], answers: tuple[bool, bool],
           present: tuple[bool, bool]) -> tuple[str | None, str | None]:
    """K-17 spare at B9: per side ``me``, the ID of its spare entry that spares the opposing leader, or None.
    ``by_attacks``: per side, whether its leader dies of the opposing side's attacks (LC-7); ``other_causes``:
    whether he dies of anything else (a K-14 KILL, a K-21 dies_in); ``answers``: ``BattleSide.spare`` per side
    (the holder offers, the opponent accepts)."""
    found: list[str | None] = [None, None]
    for me in (0, 1):
        foe = 1 - me
        if ids[me] and present[foe] and by_attacks[foe] and not other_causes[foe] and answers[me] and answers[foe]:
            found[me] = ids[me][0]
    return (found[0], found[1])
