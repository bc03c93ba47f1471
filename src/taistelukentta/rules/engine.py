"""The game engine: new game, legal orders, order checking, applying orders, turn flow
(R-TURN-1…3, R-KP-1…4, R-ZOC-1…3, R-ATK-*, R-MOR-*, R-REC-*).

Public API (see docs/engine.md)::

    new_game(scenario, seed) -> GameState
    legal_orders(state, seat) -> list[Order]
    check_order(state, seat, order) -> None        # IllegalOrderError with the reason
    is_legal(state, seat, order) -> bool
    apply(state, seat, order) -> tuple[GameState, list[Event]]
    apply_text(state, seat, text) -> tuple[GameState, list[Event]]
    move_destinations(state, unit_id) -> dict[Cell, float]    # cheap helpers for bots
    fire_targets(state, unit_id) -> list[str]

Seats: Blue ``co``, ``pl1``, ``pl2`` …; Red ``gm``. Everything a seat is told (legal orders,
the reason an order is illegal) is computed only from its own side's units and contacts.

Turn flow (R-TURN-1): a round has one turn per side, the scenario's ``first_side`` first.
A side's turn: *start* (KP pools refilled, passive observation, RETREATING units run) →
*command phase* (orders of every seat of the side, each ends with ``done``) → *fire phase*
(``fire`` orders for units with an attack order and defending units that did not move, then
``done``; a seat with nothing that can fire is done automatically) → *end* (statuses,
KP reset). After the last round, or when a side has no units left, the game is over.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any

from taistelukentta.content.scenario import Scenario
from taistelukentta.dice.roller import Roller, Seed, seed_commitment
from taistelukentta.errors import IllegalOrderError
from taistelukentta.grid.geometry import Cell, chebyshev
from taistelukentta.rules import command, status
from taistelukentta.rules.contacts import active_recon, passive_observe
from taistelukentta.rules.context import ScenarioCache, Tx, cache_for, ruleset_of, target_blocked
from taistelukentta.rules.events import Event
from taistelukentta.rules.fire import (
    can_fire_weapon,
    in_range,
    resolve_fire,
    target_problem,
    valid_targets,
    weapon_of,
)
from taistelukentta.rules.listing import Listing
from taistelukentta.rules.movement import (
    Knowledge,
    destinations,
    distance_to,
    execute_move,
    knowledge,
    known_enemy_points,
    plan_path,
    retreat_destination,
    spotted_cells,
)
from taistelukentta.rules.orders import Order, OrderKind, base_syntax, order_weapon, parse_order
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.registry import (
    COMMAND_ONLY,
    FIRE_ONLY,
    CheckFn,
    ExecuteFn,
    OrderHandler,
    Plan,
    UnitLegalFn,
)
from taistelukentta.rules.ruleset import RuleModule, Ruleset
from taistelukentta.rules.state import (
    GM_SEAT,
    SIDES,
    Action,
    GameState,
    Phase,
    Side,
    UnitState,
    other_side,
)
from taistelukentta.rules.victory import score, winner_of

_ACTION_FI = {
    Action.DEFEND: "puolustus",
    Action.MOVE: "perusliike",
    Action.ATTACK: "hyökkäyskäsky",
    Action.DISENGAGE: "irtautuminen",
    Action.WITHDRAW: "vetäytyminen",
}

ORDER_LIST_LIMIT = 20_000
"""Most reusable order lists a scenario cache keeps (cleared when full)."""

_ACTION_OF = {
    OrderKind.MOVE: Action.MOVE,
    OrderKind.DEFEND: Action.DEFEND,
    OrderKind.ATTACK: Action.ATTACK,
    OrderKind.DISENGAGE: Action.DISENGAGE,
    OrderKind.WITHDRAW: Action.WITHDRAW,
}


# --------------------------------------------------------------------------- new game


def new_game(scenario: Scenario, seed: Seed, *, ruleset: Ruleset | None = None) -> GameState:
    """A new game of ``scenario`` whose dice are fixed by ``seed`` (R-DICE-2): 32 secret
    bytes (:func:`taistelukentta.dice.roller.fresh_seed`, HMAC-SHA-256 dice) or a legacy
    integer (Mersenne Twister; old games and tests); played with ``ruleset`` (None: the
    default ruleset, :func:`~taistelukentta.rules.ruleset.default_ruleset`).

    The first side's turn has started: its KP are refilled and both sides have observed
    (passive observation, R-REC-3)."""
    roller = Roller(seed)
    units: dict[str, UnitState] = {}
    for side, group, placement in scenario.placements():
        card = scenario.cards[placement.card]
        units[placement.id] = UnitState(
            id=placement.id,
            card=placement.card,
            side=side,
            seat=group if side == "blue" else GM_SEAT,
            group=group,
            cell=(int(placement.cell[0]), int(placement.cell[1])),
            strength=placement.strength or card.stats.strength,
            max_strength=card.stats.strength,
            xp=placement.xp or card.stats.xp,
        )
    seats = [s.id for s in scenario.blue.seats] + [GM_SEAT]
    base = GameState(
        scenario=scenario,
        seed=seed,
        round=1,
        active=scenario.first_side,
        phase=Phase.COMMAND,
        turn_no=1,
        done=frozenset(),
        units=units,
        contacts={s: {} for s in SIDES},
        contact_serial={s: 0 for s in SIDES},
        kp={s: 0 for s in seats},
        group_spent={g.id: 0 for g in scenario.red.battle_groups},
        destroyed={s: () for s in SIDES},
        roller=roller.getstate(),
        event_count=0,
        ruleset=ruleset,
    )
    tx = Tx(base)
    # The seed fixes every future roll: it stays in the game state (the game file) and is in
    # no event or view, not even the GM's (R-DICE-6). Every side gets the commitment.
    started: dict[str, Any] = {"scenario": scenario.id, "rounds": scenario.rounds}
    commitment = seed_commitment(seed)
    if commitment is not None:
        started["dice"] = base.dice_scheme
        started["seed_commitment"] = commitment
    tx.emit("game_started", started, {side: dict(started) for side in SIDES})
    for side in SIDES:
        passive_observe(tx, side, list(tx.units_of(side)))
    for hook in tx.cache.hooks.on_game_start:
        hook(tx)
    _start_turn(tx)
    _advance(tx)
    return tx.finish()


# --------------------------------------------------------------------------- checking


_Plan = Plan
_DONE_PLAN = Plan()


def _illegal(en: str, fi: str) -> IllegalOrderError:
    return IllegalOrderError(en, fi)


def _side_of_seat(state: GameState, seat: str) -> Side:
    side = state.side_of_seat(seat)
    if side is None:
        seats = ", ".join((*state.seats("blue"), GM_SEAT))
        raise _illegal(
            f"unknown seat {seat!r} (seats: {seats})",
            f"tuntematon pelipaikka {seat!r} (paikat: {seats})",
        )
    return side


def _own_unit(state: GameState, side: Side, seat: str, uid: str) -> UnitState:
    unit = state.units.get(uid)
    if unit is None or unit.side != side:
        # Never tell whether an enemy unit of that id exists.
        raise _illegal(f"you have no unit {uid!r}", f"sinulla ei ole yksikköä {uid!r}")
    if unit.seat != seat:
        raise _illegal(
            f"unit {uid} belongs to seat {unit.seat}, not {seat}",
            f"yksikkö {uid} kuuluu paikalle {unit.seat}, ei paikalle {seat}",
        )
    return unit


def _free_to_act(unit: UnitState) -> None:
    """The unit has no action yet this turn and no status that forbids acting."""
    if unit.retreating is not None:
        raise _illegal(
            f"{unit.id} is RETREATING and takes no orders (rally it first)",
            f"{unit.id} vetäytyy eikä ota käskyjä (kohota moraali ensin)",
        )
    if unit.action is not None:
        raise _illegal(
            f"{unit.id} already has its order this turn ({unit.action.value})",
            f"{unit.id} on jo saanut käskynsä tässä vuorossa ({_ACTION_FI[unit.action]})",
        )


def _not_suppressed(unit: UnitState, what_en: str, what_fi: str) -> None:
    if unit.suppressed is not None:
        raise _illegal(
            f"{unit.id} is SUPPRESSED and cannot {what_en} (rally it first)",
            f"{unit.id} on lamautunut eikä voi {what_fi} (kohota moraali ensin)",
        )


def _path_or_fail(cache: ScenarioCache, unit: UnitState, know: Knowledge, cell: Cell) -> list[Cell]:
    if not cache.map.in_bounds(cell):
        raise _illegal(
            f"cell {cell[0]},{cell[1]} is off the map ({cache.map.width}×{cache.map.height})",
            f"ruutu {cell[0]},{cell[1]} on kartan ulkopuolella "
            f"({cache.map.width}×{cache.map.height})",
        )
    if cell == unit.cell:
        raise _illegal(
            f"{unit.id} already stands at {cell[0]},{cell[1]}",
            f"{unit.id} on jo ruudussa {cell[0]},{cell[1]}",
        )
    if cell in know.full:
        raise _illegal(
            f"cell {cell[0]},{cell[1]} is full (stacking limit {cache.opts.stacking_limit})",
            f"ruutu {cell[0]},{cell[1]} on täynnä (pinoamisraja {cache.opts.stacking_limit})",
        )
    path = plan_path(cache, unit, know, cell)
    if path is None:
        raise _illegal(
            f"{unit.id} cannot reach {cell[0]},{cell[1]} this turn "
            f"(movement {cache.movement(unit)}, known enemies and their ZoC count)",
            f"{unit.id} ei ehdi ruutuun {cell[0]},{cell[1]} tässä vuorossa "
            f"(liike {cache.movement(unit)}; tunnetut viholliset ja niiden ZoC huomioitu)",
        )
    return path


def may_fire(cache: ScenarioCache, unit: UnitState, turn_no: int) -> bool:
    """Whether ``unit`` may fire in this fire phase (R-KP-3, R-ATK-1): it has an attack
    order, or it defends and has not moved; it has not fired; it is able to fire."""
    if unit.fired or not can_fire_weapon(cache, unit, turn_no):
        return False
    if unit.action == Action.ATTACK:
        return True
    if unit.action in (None, Action.DEFEND) and not unit.moved:
        return True
    return any(fn(cache, unit, turn_no) for fn in cache.hooks.may_fire)


def _check(state: GameState, seat: str, order: Order) -> Plan:
    """The engine's part of checking: seat, turn, phase; then the kind's handler; then
    the payment of the plan's cost."""
    side = _side_of_seat(state, seat)
    if state.finished:
        raise _illegal("the game is over", "peli on päättynyt")
    if side != state.active:
        raise _illegal(
            f"it is {state.active}'s turn, not {side}'s",
            f"vuorossa on {'sininen' if state.active == 'blue' else 'punainen'}",
        )
    if seat in state.done:
        raise _illegal(
            f"seat {seat} has already ended the {state.phase.value} phase",
            f"paikka {seat} on jo päättänyt "
            f"{'tulivaiheen' if state.phase == Phase.FIRE else 'komentovaiheen'}",
        )
    kind = order.kind
    if kind == OrderKind.DONE:
        return _DONE_PLAN
    cache = cache_for(state)
    handler = cache.rules.handler(kind)
    if handler is None:
        raise _illegal(
            f"`{kind.value}` orders are not available in this version (no rule module "
            "handles them)",
            f"`{kind.value}`-käskyt eivät ole käytettävissä tässä versiossa",
        )
    if state.phase not in handler.phases:
        if state.phase == Phase.FIRE:
            allowed = ", ".join(cache.rules.fire_phase_kinds)
            raise _illegal(
                f"`{kind.value}` is a command-phase order; in the fire phase: {allowed}",
                f"`{kind.value}` on komentovaiheen käsky; tulivaiheessa: {allowed}",
            )
        raise _illegal(
            f"`{kind.value}` orders are given in the fire phase (say `done` to end the "
            "command phase)",
            f"`{kind.value}`-käskyt annetaan tulivaiheessa (`done` päättää komentovaiheen)",
        )
    plan = handler.check(state, seat, side, order)
    if plan.cost:
        problem = command.payment_problem(
            cache.opts, state.kp, state.group_spent, seat, plan.unit, plan.cost
        )
        if problem is not None:
            raise _illegal(*problem)
    return plan


def _unit_order(
    state: GameState, seat: str, side: Side, order: Order
) -> tuple[UnitState, ScenarioCache]:
    """The ordered unit (the seat's own) and the rule caches, for a base order."""
    assert order.unit is not None
    return _own_unit(state, side, seat, order.unit), cache_for(state)


def _check_fire(state: GameState, seat: str, side: Side, order: Order) -> Plan:
    """``fire U T`` (R-ATK-1, R-KP-3): the unit may fire now, at a target it may target."""
    unit, cache = _unit_order(state, seat, side, order)
    assert order.target is not None
    _check_weapon(cache, unit, order)
    if not may_fire(cache, unit, state.turn_no):
        raise _illegal(*_fire_refusal(cache, unit, state.turn_no))
    problem = target_problem(cache, unit, order.target, state.contacts[side])
    if problem is None and cache.hooks.can_be_targeted:
        problem = target_blocked(state, unit, order.target)
    if problem is not None:
        raise _illegal(*problem)
    return Plan(unit, None, 0)


def _check_rally(state: GameState, seat: str, side: Side, order: Order) -> Plan:
    """``rally U`` (R-MOR-6): a SUPPRESSED or RETREATING unit, once a turn."""
    unit, cache = _unit_order(state, seat, side, order)
    if unit.suppressed is None and unit.retreating is None:
        raise _illegal(
            f"{unit.id} is neither SUPPRESSED nor RETREATING",
            f"{unit.id} ei ole lamautunut eikä vetäydy",
        )
    if unit.rallied:
        raise _illegal(
            f"{unit.id} has already been rallied this turn",
            f"yksikön {unit.id} moraalia on jo kohotettu tässä vuorossa",
        )
    return Plan(unit, None, command.order_cost(cache.opts, order.kind))


def _check_recon(state: GameState, seat: str, side: Side, order: Order) -> Plan:
    """``recon U X,Y`` (R-REC-4): once a turn, at a cell the unit sees."""
    unit, cache = _unit_order(state, seat, side, order)
    assert order.cell is not None
    if unit.retreating is not None:
        _free_to_act(unit)
    _not_suppressed(unit, "recon", "tiedustella")
    if unit.reconned:
        raise _illegal(
            f"{unit.id} has already made active recon this turn",
            f"{unit.id} on jo tiedustellut tässä vuorossa",
        )
    cell = order.cell
    if not cache.map.in_bounds(cell):
        raise _illegal(
            f"cell {cell[0]},{cell[1]} is off the map",
            f"ruutu {cell[0]},{cell[1]} on kartan ulkopuolella",
        )
    if not cache.sees(unit.cell, cell):
        raise _illegal(
            f"{unit.id} cannot see cell {cell[0]},{cell[1]} (recon needs line of sight)",
            f"{unit.id} ei näe ruutuun {cell[0]},{cell[1]} (tiedustelu vaatii näköyhteyden)",
        )
    return Plan(unit, None, command.order_cost(cache.opts, order.kind))


def _acting(
    state: GameState, seat: str, side: Side, order: Order
) -> tuple[UnitState, ScenarioCache, Knowledge]:
    """The start of checking an action order (R-KP-3): the unit has no action yet, is not
    SUPPRESSED (``defend`` excepted), and what its side knows around it."""
    unit, cache = _unit_order(state, seat, side, order)
    _free_to_act(unit)
    if order.kind != OrderKind.DEFEND:
        _not_suppressed(unit, "move or act", "liikkua eikä toimia")
    return unit, cache, knowledge(cache, state.units, state.contacts[side], unit)


def _check_defend(state: GameState, seat: str, side: Side, order: Order) -> Plan:
    """``defend U`` (R-KP-3)."""
    unit, cache, _ = _acting(state, seat, side, order)
    return Plan(unit, None, command.order_cost(cache.opts, order.kind))


def _check_move(state: GameState, seat: str, side: Side, order: Order) -> Plan:
    """``move U X,Y`` (R-KP-3, R-ZOC-2): not from an enemy ZoC the turn began in."""
    unit, cache, know = _acting(state, seat, side, order)
    if unit.zoc_at_start:
        raise _illegal(
            f"{unit.id} began its turn in an enemy ZoC: no basic move "
            "(disengage or withdraw instead) (R-KP-3)",
            f"{unit.id} aloitti vuoronsa vihollisen hallintavyöhykkeellä: ei "
            "perusliikettä (irtaudu tai vetäydy) (R-KP-3)",
        )
    assert order.cell is not None
    path = _path_or_fail(cache, unit, know, order.cell)
    return Plan(unit, path, command.order_cost(cache.opts, order.kind))


def _check_attack(state: GameState, seat: str, side: Side, order: Order) -> Plan:
    """``attack U T [from X,Y]`` (R-KP-3, R-ATK-1): a SPOTTED target in range of the
    basic weapon, from where the unit stands or after a move."""
    unit, cache, know = _acting(state, seat, side, order)
    assert order.target is not None
    _check_weapon(cache, unit, order)
    if not can_fire_weapon(cache, unit, state.turn_no):
        raise _illegal(*_fire_refusal(cache, unit, state.turn_no))
    c = state.contacts[side].get(order.target)
    if c is None or c.level != ContactLevel.SPOTTED or c.cell is None:
        raise _illegal(
            f"{order.target} is not a SPOTTED enemy unit (an attack order needs one)",
            f"{order.target} ei ole havaittu vihollisyksikkö (hyökkäyskäsky vaatii "
            "Havaittu-kontaktin)",
        )
    origin = unit.cell
    path: list[Cell] | None = None
    if order.cell is not None:
        path = _path_or_fail(cache, unit, know, order.cell)
        origin = order.cell
    weapon = weapon_of(cache, unit)
    dist = chebyshev(origin, c.cell)
    if not in_range(weapon, dist):
        raise _illegal(
            f"{order.target} would be at distance {dist}, out of range "
            f"({weapon.range}) of {unit.id}",
            f"{order.target} olisi etäisyydellä {dist}, yksikön {unit.id} kantaman "
            f"({weapon.range}) ulkopuolella",
        )
    # R-ATK-1 (RULES.md §19): terrain is public, so line of sight from the cell the
    # unit will fire from is checked now — no KP spent on an attack that cannot fire.
    if not cache.sees(origin, c.cell):
        at = f"{origin[0]},{origin[1]}"
        where_en = "where it stands" if order.cell is None else at
        where_fi = "paikaltaan" if order.cell is None else f"ruudusta {at}"
        raise _illegal(
            f"{unit.id} would have no line of sight to {order.target} from {where_en}",
            f"yksiköllä {unit.id} ei olisi näköyhteyttä kohteeseen {order.target} {where_fi}",
        )
    if cache.hooks.can_be_targeted:
        problem = target_blocked(state, unit, order.target)
        if problem is not None:
            raise _illegal(*problem)
    return Plan(unit, path, command.order_cost(cache.opts, order.kind))


def _check_disengage(state: GameState, seat: str, side: Side, order: Order) -> Plan:
    """``disengage U X,Y`` (R-ZOC-3): only out of a spotted enemy's ZoC."""
    unit, cache, know = _acting(state, seat, side, order)
    if not know.in_zoc:
        raise _illegal(
            f"{unit.id} is not in the ZoC of a spotted enemy: nothing to disengage from",
            f"{unit.id} ei ole havaitun vihollisen hallintavyöhykkeellä: ei irtauduttavaa",
        )
    assert order.cell is not None
    path = _path_or_fail(cache, unit, know, order.cell)
    return Plan(unit, path, command.order_cost(cache.opts, order.kind))


def _check_withdraw(state: GameState, seat: str, side: Side, order: Order) -> Plan:
    """``withdraw U X,Y`` (R-KP-3): away from every enemy the side knows of."""
    unit, cache, know = _acting(state, seat, side, order)
    points = known_enemy_points(state.contacts[side])
    if not points:
        raise _illegal(
            f"{unit.id} knows no enemy to withdraw from",
            f"{unit.id} ei tiedä vihollista, jolta vetäytyä",
        )
    assert order.cell is not None
    path = _path_or_fail(cache, unit, know, order.cell)
    if distance_to(points, order.cell) <= distance_to(points, unit.cell):
        raise _illegal(
            f"{order.cell[0]},{order.cell[1]} is not farther from the known enemy "
            "than where the unit stands (a withdrawal moves away)",
            f"{order.cell[0]},{order.cell[1]} ei ole kauempana tunnetusta "
            "vihollisesta kuin nykyinen ruutu (vetäytyminen liikkuu poispäin)",
        )
    return Plan(unit, path, command.order_cost(cache.opts, order.kind))


def _check_weapon(cache: ScenarioCache, unit: UnitState, order: Order) -> None:
    """The base engine fires only the basic weapon; ``with W`` may name it (other weapons
    need a rule module that replaces the attack/fire handler)."""
    weapon = order_weapon(order)
    if weapon is None:
        return
    card = cache.card(unit)
    if weapon == card.basic_weapon.id:
        return
    known = ", ".join(w.id for w in card.weapons)
    if all(w.id != weapon for w in card.weapons):
        raise _illegal(
            f"{unit.id} has no weapon {weapon!r} (weapons: {known})",
            f"yksiköllä {unit.id} ei ole asetta {weapon!r} (aseet: {known})",
        )
    raise _illegal(
        f"firing {weapon!r} (not the basic weapon) is not available in this version",
        f"aseen {weapon!r} käyttö (muu kuin perusase) ei ole käytettävissä tässä versiossa",
    )


def _fire_refusal(cache: ScenarioCache, unit: UnitState, turn_no: int) -> tuple[str, str]:
    if unit.suppressed is not None:
        return (f"{unit.id} is SUPPRESSED and cannot fire", f"{unit.id} on lamautunut")
    if unit.retreating is not None:
        return (f"{unit.id} is RETREATING and cannot fire", f"{unit.id} vetäytyy")
    if unit.jammed_turn == turn_no:
        return (
            f"{unit.id}'s weapon is jammed this turn (R-ATK-6)",
            f"yksikön {unit.id} ase on jumissa tässä vuorossa (R-ATK-6)",
        )
    if weapon_of(cache, unit).indirect:
        return (
            f"{unit.id}'s weapon fires only indirectly",
            f"yksikön {unit.id} ase ampuu vain epäsuoraa tulta",
        )
    if unit.fired:
        return (f"{unit.id} has already fired this turn", f"{unit.id} on jo ampunut")
    return (
        f"{unit.id} moved without an attack order and cannot fire (R-KP-3)",
        f"{unit.id} liikkui ilman hyökkäyskäskyä eikä voi ampua (R-KP-3)",
    )


def check_order(state: GameState, seat: str, order: Order) -> None:
    """Raise IllegalOrderError (English + Finnish) if ``seat`` may not give ``order`` now.

    The reason is computed from the seat's side's own knowledge only."""
    _check(state, seat, order)


def is_legal(state: GameState, seat: str, order: Order) -> bool:
    """Whether ``seat`` may give ``order`` now."""
    try:
        _check(state, seat, order)
    except IllegalOrderError:
        return False
    return True


# --------------------------------------------------------------------------- legal orders


def _seat_units(state: GameState, seat: str, unit: str | None) -> list[UnitState]:
    """The seat's units in id order (only ``unit`` when given)."""
    if unit is not None:
        u = state.units.get(unit)
        return [u] if u is not None and u.seat == seat else []
    return sorted((u for u in state.units.values() if u.seat == seat), key=lambda u: u.id)


_DONE = Order.done()
"""The ``done`` order every list ends with (orders are immutable: one object serves)."""


def legal_orders(
    state: GameState,
    seat: str,
    *,
    recon_cells: bool = True,
    attack_moves: bool = True,
    unit: str | None = None,
    kinds: Collection[OrderKind] | None = None,
) -> list[Order]:
    """Every order ``seat`` may give now, from its side's knowledge only (``done`` last).

    Move-like orders list every destination the side believes reachable. The list can be
    long; to make it shorter and cheaper: ``recon_cells=False`` leaves out recon orders
    (one per visible cell), ``attack_moves=False`` leaves out attack orders that move
    first (one per destination and target), ``unit`` keeps only that unit's orders,
    ``kinds`` only orders of those kinds (``done`` is always listed, last); the families
    left out are not computed at all. Filtering never reorders: the result is the full
    list with the other orders taken out."""
    side = state.side_of_seat(seat)
    if side is None or state.finished or side != state.active or seat in state.done:
        return []
    return _legal_of_kinds(state, seat, side, recon_cells, attack_moves, unit, kinds)


def _legal_of_kinds(
    state: GameState,
    seat: str,
    side: Side,
    recon_cells: bool,
    attack_moves: bool,
    unit: str | None,
    kinds: Collection[OrderKind] | None,
) -> list[Order]:
    """:func:`legal_orders` (seat, turn and phase already checked), restricted to ``kinds``
    when given: the same orders in the same order as the full list filtered by kind, but
    the handlers of other kinds are not asked at all.

    For each of the seat's units in id order, the orders of every handler that lists per
    unit (``legal_unit``; the base kinds: rally, defend, move, attack, disengage,
    withdraw, recon — fire in the fire phase), in handler order; then the per-seat lists
    of the handlers' ``legal``/``legal_moves``; then ``done``."""
    cache = cache_for(state)
    per_unit: Sequence[OrderHandler] = cache.rules.unit_listing.get(state.phase, ())
    if kinds is not None:
        per_unit = [h for h in per_unit if h.kind in kinds]
    out: list[Order] = []
    if per_unit:
        listing = Listing(
            state, seat, side, cache, recon_cells=recon_cells, attack_moves=attack_moves
        )
        for u in _seat_units(state, seat, unit):
            for h in per_unit:
                found = h.legal_unit(listing, u)  # type: ignore[misc]
                if found:
                    out.extend(found)
    _module_orders(state, seat, side, unit, out, kinds, attack_moves)
    out.append(_DONE)
    return out


# The base kinds' per-unit listings (``OrderHandler.legal_unit``): each lists what
# ``check`` of its kind accepts, from the side's knowledge only.

_NONE: tuple[Order, ...] = ()


def _acts(u: UnitState) -> bool:
    """The unit may be given an action order that moves or fires (R-KP-3): no action yet,
    neither RETREATING nor SUPPRESSED."""
    return u.action is None and u.retreating is None and u.suppressed is None


def _legal_rally(ls: Listing, u: UnitState) -> Iterable[Order]:
    """``rally U`` (R-MOR-6)."""
    if (
        (u.suppressed is not None or u.retreating is not None)
        and not u.rallied
        and ls.affordable(u, OrderKind.RALLY)
    ):
        return (ls.order(OrderKind.RALLY, u.id),)
    return _NONE


def _legal_defend(ls: Listing, u: UnitState) -> Iterable[Order]:
    """``defend U`` (R-KP-3): a unit with no action yet, not RETREATING."""
    if u.action is None and u.retreating is None:
        return (ls.order(OrderKind.DEFEND, u.id),)
    return _NONE


def _legal_move(ls: Listing, u: UnitState) -> Iterable[Order]:
    """``move U X,Y`` to every destination (R-KP-3), not out of a ZoC the turn began in."""
    if not _acts(u) or u.zoc_at_start:
        return _NONE
    return _dest_orders(ls.cache, OrderKind.MOVE, u.id, ls.destinations(u))


def _legal_attack(ls: Listing, u: UnitState) -> Iterable[Order]:
    """``attack U T`` at every SPOTTED target in range and sight, then (with
    ``attack_moves``) ``attack U T from X,Y`` after every move that brings one there."""
    if not _acts(u):
        return _NONE
    cache = ls.cache
    if not (
        can_fire_weapon(cache, u, ls.state.turn_no)
        and ls.kp > 0
        and ls.affordable(u, OrderKind.ATTACK)
    ):
        return _NONE
    weapon = weapon_of(cache, u)
    targetable = ls.spotted
    if cache.hooks.can_be_targeted:
        state = ls.state
        targetable = {t: c for t, c in targetable.items() if target_blocked(state, u, t) is None}
    make = ls.order
    out = [
        make(OrderKind.ATTACK, u.id, None, tid)
        for tid, tcell in targetable.items()
        if in_range(weapon, chebyshev(u.cell, tcell)) and cache.sees(u.cell, tcell)
    ]
    if ls.attack_moves and targetable:
        out.extend(_attack_move_orders(cache, u, ls.destinations(u), targetable))
    return out


def _legal_disengage(ls: Listing, u: UnitState) -> Iterable[Order]:
    """``disengage U X,Y`` (R-ZOC-3) from a spotted enemy's ZoC."""
    if not _acts(u) or not ls.knowledge(u).in_zoc or not ls.affordable(u, OrderKind.DISENGAGE):
        return _NONE
    return _dest_orders(ls.cache, OrderKind.DISENGAGE, u.id, ls.destinations(u))


def _legal_withdraw(ls: Listing, u: UnitState) -> Iterable[Order]:
    """``withdraw U X,Y`` (R-KP-3) to every destination farther from the known enemy."""
    if not _acts(u):
        return _NONE
    points = ls.enemy_points
    if not points or not ls.affordable(u, OrderKind.WITHDRAW):
        return _NONE
    return _withdraw_orders(ls.cache, u, ls.destinations(u), points)


def _legal_recon(ls: Listing, u: UnitState) -> Iterable[Order]:
    """``recon U X,Y`` (R-REC-4) at every cell the unit sees (unless ``recon_cells`` is
    off)."""
    if (
        not ls.recon_cells
        or u.retreating is not None
        or u.suppressed is not None
        or u.reconned
        or not ls.affordable(u, OrderKind.RECON)
    ):
        return _NONE
    cache = ls.cache
    seen = cache.visible_from(u.cell)
    uid, make = u.id, ls.order
    return _listed(
        cache,
        (OrderKind.RECON, uid, u.cell),
        seen,
        lambda: [make(OrderKind.RECON, uid, c) for c in sorted(seen)],
    )


def _legal_fire(ls: Listing, u: UnitState) -> Iterable[Order]:
    """``fire U T`` (R-ATK-1, R-KP-3) at every target the unit may fire at now."""
    cache = ls.cache
    if not may_fire(cache, u, ls.state.turn_no):
        return _NONE
    targets = valid_targets(cache, u, ls.contacts)
    if cache.hooks.can_be_targeted:
        state = ls.state
        targets = [t for t in targets if target_blocked(state, u, t) is None]
    make = ls.order
    return [make(OrderKind.FIRE, u.id, None, t) for t in targets]


def _module_orders(
    state: GameState,
    seat: str,
    side: Side,
    unit: str | None,
    out: list[Order],
    kinds: Collection[OrderKind] | None = None,
    attack_moves: bool = True,
) -> None:
    """Append the legal orders of the rule modules' handlers for this phase (only the
    handlers of ``kinds`` when given; their ``legal_moves`` orders with ``attack_moves``)."""
    rules = cache_for(state).rules
    for h in rules.listing:
        if state.phase not in h.phases:
            continue
        if kinds is not None and h.kind not in kinds:
            continue
        for fn in (h.legal, h.legal_moves if attack_moves else None):
            if fn is None:
                continue
            for o in rules.call_legal(fn, state, seat, side, unit):
                if (unit is None or o.unit == unit) and (kinds is None or o.kind in kinds):
                    out.append(o)


def _listed(
    cache: ScenarioCache,
    key: tuple[Any, ...],
    dests: Collection[Cell],
    build: Callable[[], list[Order]],
) -> list[Order]:
    """Order lists built from a memoised collection of cells are reused while it is the
    same object (the reachable-area memo hands out the same dict for the same situation,
    the sight memo the same set of visible cells for a cell); callers never modify
    them."""
    hit = cache.order_lists.get(key)
    if hit is not None and hit[0] is dests:
        return hit[1]
    made = build()
    if len(cache.order_lists) >= ORDER_LIST_LIMIT:
        cache.order_lists.clear()
    cache.order_lists[key] = (dests, made)
    return made


def _dest_orders(
    cache: ScenarioCache, kind: OrderKind, uid: str, dests: dict[Cell, float]
) -> list[Order]:
    return _listed(
        cache,
        (kind, uid, id(dests)),
        dests,
        lambda: [cache.order(kind, uid, c) for c in sorted(dests)],
    )


def _attack_move_orders(
    cache: ScenarioCache, u: UnitState, dests: dict[Cell, float], spotted: dict[str, Cell]
) -> list[Order]:
    weapon = weapon_of(cache, u)
    low = weapon.min_range or 0
    high = weapon.range
    targets = tuple(spotted.items())

    def build() -> list[Order]:
        # The hot loop of long lists: a bounding-box test first, the minimum range only
        # when there is one (same orders, same order as a plain Chebyshev test).
        # Line of sight (R-ATK-1) from the target's field of view: sight is symmetric.
        made = []
        order, attack, uid = cache.order, OrderKind.ATTACK, u.id
        boxes = [
            (tid, tx - high, tx + high, ty - high, ty + high, tx, ty, cache.visible_from((tx, ty)))
            for tid, (tx, ty) in targets
        ]
        for cell in sorted(dests):
            cx, cy = cell
            for tid, x0, x1, y0, y1, tx, ty, seen in boxes:
                if x0 <= cx <= x1 and y0 <= cy <= y1 and cell in seen:
                    if low and max(abs(cx - tx), abs(cy - ty)) < low:
                        continue
                    made.append(order(attack, uid, cell, tid))
        return made

    return _listed(cache, (OrderKind.ATTACK, u.id, id(dests), targets, low, high), dests, build)


def _withdraw_orders(
    cache: ScenarioCache, u: UnitState, dests: dict[Cell, float], points: list[Cell]
) -> list[Order]:
    here = distance_to(points, u.cell)
    pts = tuple(points)

    def build() -> list[Order]:
        return [
            cache.order(OrderKind.WITHDRAW, u.id, (cx, cy))
            for cx, cy in sorted(dests)
            if all(max(abs(cx - px), abs(cy - py)) > here for px, py in pts)
        ]

    return _listed(cache, (OrderKind.WITHDRAW, u.id, id(dests), pts, here), dests, build)


def move_destinations(state: GameState, unit_id: str) -> dict[Cell, float]:
    """Cells the unit's side believes it can move to now (start excluded) with the
    allowance each spends — the destinations of its move-like orders. Cheap (memoised);
    do not modify the result. Whether a basic move is allowed at all is not checked."""
    unit = state.units[unit_id]
    cache = cache_for(state)
    know = knowledge(cache, state.units, state.contacts[unit.side], unit)
    return destinations(cache, unit, know)


def fire_targets(state: GameState, unit_id: str) -> list[str]:
    """Enemy units ``unit_id`` could fire at from where it stands (its side's SPOTTED
    contacts in sight and range), whether or not it may fire in this phase."""
    unit = state.units[unit_id]
    cache = cache_for(state)
    targets = valid_targets(cache, unit, state.contacts[unit.side])
    if cache.hooks.can_be_targeted:
        targets = [t for t in targets if target_blocked(state, unit, t) is None]
    return targets


# --------------------------------------------------------------------------- applying


def apply(state: GameState, seat: str, order: Order) -> tuple[GameState, list[Event]]:
    """Give ``order`` as ``seat``: a new state and the events it caused.

    Pure: ``state`` is not modified. An illegal order raises IllegalOrderError and nothing
    changes."""
    plan = _check(state, seat, order)
    tx = Tx(state)
    side = state.side_of_seat(seat)
    assert side is not None
    text = cache_for(state).rules.vocabulary.format(order)
    if order.kind != OrderKind.DONE:
        info = {"seat": seat, "order": text, "cost": plan.cost}
        tx.emit("order", info, {side: info})
    _execute(tx, seat, order, plan)
    if not tx.over:
        eliminated = status.side_eliminated(tx)
        if eliminated is not None:
            _game_over(tx, "eliminated", eliminated)
        else:
            _advance(tx)
    return tx.finish(), tx.events


def apply_text(state: GameState, seat: str, text: str) -> tuple[GameState, list[Event]]:
    """:func:`apply` for order text in the vocabulary of the game's ruleset
    (InvalidOrderError if it does not parse)."""
    return apply(state, seat, parse_order(text, ruleset_of(state).vocabulary))


def _execute(tx: Tx, seat: str, order: Order, plan: Plan) -> None:
    kind = order.kind
    if kind == OrderKind.DONE:
        tx.done.add(seat)
        tx.emit("seat_done", {"seat": seat, "phase": tx.phase.value})
        return
    command.pay(tx, seat, plan.unit, plan.cost)
    handler = tx.cache.rules.handler(kind)
    assert handler is not None
    handler.execute(tx, seat, order, plan)


def _execute_fire(tx: Tx, seat: str, order: Order, plan: Plan) -> None:
    assert plan.unit is not None and order.target is not None
    resolve_fire(tx, plan.unit.id, order.target, "fire")


def _execute_rally(tx: Tx, seat: str, order: Order, plan: Plan) -> None:
    assert plan.unit is not None
    status.rally(tx, plan.unit.id)


def _execute_recon(tx: Tx, seat: str, order: Order, plan: Plan) -> None:
    assert plan.unit is not None and order.cell is not None
    tx.update(plan.unit.id, reconned=True)
    active_recon(tx, plan.unit.id, order.cell)


def _execute_action(tx: Tx, seat: str, order: Order, plan: Plan) -> None:
    """An action order (``defend``, ``move``, ``attack``, ``disengage``, ``withdraw``):
    the unit's action for the turn, then its move if it has a path."""
    assert plan.unit is not None
    uid = plan.unit.id
    kind = order.kind
    tx.update(uid, action=_ACTION_OF[kind])
    if plan.path is not None:
        execute_move(
            tx,
            uid,
            plan.path,
            kind=kind.value,
            provoke=kind != OrderKind.DISENGAGE,
        )


# --------------------------------------------------------------------------- turn flow


def _start_turn(tx: Tx) -> None:
    """R-TURN-1 start of the active side's turn."""
    side = tx.active
    tx.phase = Phase.COMMAND
    tx.done = set()
    tx.emit("turn_started", {"round": tx.round, "side": side, "turn_no": tx.turn_no})
    command.refill(tx, side)
    passive_observe(tx, side, list(tx.units_of(side)))
    cache = tx.cache
    known = spotted_cells(tx.contacts[side])
    for u in sorted(tx.units_of(side), key=lambda v: v.id):
        in_zoc = any(u.cell in cache.zoc(c) for c in known)
        tx.put(u.fresh_turn(in_zoc))
    for hook in cache.hooks.on_turn_start:
        hook(tx, side)
    # R-MOR-5: RETREATING units run, uncontrolled.
    for uid in sorted(u.id for u in tx.units_of(side) if u.retreating is not None):
        runner = tx.units.get(uid)
        if runner is None:
            continue
        found = retreat_destination(tx, uid)
        if found is not None:
            tx.update(uid, action=Action.WITHDRAW)
            execute_move(tx, uid, found[1], kind="retreat", provoke=True)
    eliminated = status.side_eliminated(tx)
    if eliminated is not None:
        _game_over(tx, "eliminated", eliminated)


def _auto_done(tx: Tx, seat: str) -> bool:
    """A seat with nothing to decide in this phase is done automatically.

    Fire phase: done when no unit of the seat may fire its basic weapon at a target it
    may target, and no rule module's fire-phase handler lists an order for the seat (a
    special weapon beyond the basic range, ``hide``, an area ability …; per unit with
    ``legal_unit`` or per seat with ``legal``). The module lists
    are asked only when the basic check finds nothing, and stop at the first order."""
    if tx.phase != Phase.FIRE:
        return not any(u.seat == seat for u in tx.units.values())
    mine = [u for u in tx.units.values() if u.seat == seat]
    if not mine:
        return True
    if tx.strict_fog:
        # Games of the HMAC dice (every new game): a fire phase ends for every seat that
        # has units the same visible way, by its own `done`. Ending it automatically when
        # the seat has no target would tell the other side what the seat's side knows and
        # which orders its unseen units have (issue 8). Legacy games keep the automatic
        # end so that they replay exactly.
        return False
    cache = tx.cache
    contacts = tx.contacts[tx.active]
    snapshot: GameState | None = None
    for u in mine:
        if not may_fire(cache, u, tx.turn_no):
            continue
        targets = valid_targets(cache, u, contacts)
        if not targets:
            continue
        if not cache.hooks.can_be_targeted:
            return False
        snapshot = snapshot or tx.finish()
        if any(target_blocked(snapshot, u, t) is None for t in targets):
            return False
    side = tx.active
    # Other per-unit fire-phase listings than the base `fire` one checked above (a module's
    # fire-phase kind listed with `legal_unit`).
    per_unit = [h for h in cache.rules.unit_listing[Phase.FIRE] if h.legal_unit is not _legal_fire]
    if per_unit:
        snapshot = snapshot or tx.finish()
        listing = Listing(snapshot, seat, side, cache)
        for u in mine:
            for h in per_unit:
                if h.legal_unit is not None and h.legal_unit(listing, u):
                    return False
    handlers = [h for h in cache.rules.listing if Phase.FIRE in h.phases and h.legal is not None]
    if not handlers:
        return True
    snapshot = snapshot or tx.finish()
    for h in handlers:
        assert h.legal is not None
        for o in h.legal(snapshot, seat, side):
            if o.kind != OrderKind.DONE:
                return False
    return True


def fire_block_reason(cache: ScenarioCache, unit: UnitState, turn_no: int) -> str | None:
    """Why ``unit`` may not fire in this fire phase, as a code, or None when it may
    (:func:`may_fire`): ``suppressed``, ``retreating``, ``jammed``, ``indirect_only``,
    ``fired``, ``moved`` (moved without an attack order, R-KP-3)."""
    if may_fire(cache, unit, turn_no):
        return None
    if unit.suppressed is not None:
        return "suppressed"
    if unit.retreating is not None:
        return "retreating"
    if unit.jammed_turn == turn_no:
        return "jammed"
    if weapon_of(cache, unit).indirect:
        return "indirect_only"
    if unit.fired:
        return "fired"
    return "moved"


def _tell_fire_phase_over(tx: Tx, seat: str) -> None:
    """A seat's fire phase ended without its ``done``: tell it why (issue 9: never end it
    silently). Its side's copy lists each of its units with the reason, worked out from
    the side's own knowledge (its units, its contacts, public terrain); the other side
    sees what an ordinary ``done`` shows."""
    mine = sorted((u for u in tx.units.values() if u.seat == seat), key=lambda u: u.id)
    if not mine:
        return
    cache = tx.cache
    units: list[dict[str, Any]] = []
    for u in mine:
        entry: dict[str, Any] = {
            "unit": u.id,
            "reason": fire_block_reason(cache, u, tx.turn_no) or "no_target",
        }
        if u.action == Action.ATTACK:
            entry["attack_order"] = True
        units.append(entry)
    public = {"seat": seat, "phase": tx.phase.value}
    own = {**public, "auto": True, "units": units}
    side = tx.active
    tx.emit("seat_done", own, {side: own, other_side(side): public})


def _seats(tx: Tx) -> Iterable[str]:
    if tx.active == "red":
        return (GM_SEAT,)
    return [s.id for s in tx.scenario.blue.seats]


def _advance(tx: Tx) -> None:
    """Move the turn on while every seat of the active side is done."""
    while not tx.over:
        seats = list(_seats(tx))
        for s in seats:
            if s not in tx.done and _auto_done(tx, s):
                tx.done.add(s)
                if tx.phase == Phase.FIRE:
                    _tell_fire_phase_over(tx, s)
        if any(s not in tx.done for s in seats):
            return
        if tx.phase == Phase.COMMAND:
            tx.phase = Phase.FIRE
            tx.done = set()
            tx.emit("phase", {"phase": Phase.FIRE.value, "side": tx.active})
            if tx.cache.hooks.on_fire_phase:
                for hook in tx.cache.hooks.on_fire_phase:
                    hook(tx, tx.active)
                eliminated = status.side_eliminated(tx)
                if eliminated is not None:
                    _game_over(tx, "eliminated", eliminated)
            continue
        _end_turn(tx)


def _end_turn(tx: Tx) -> None:
    """R-TURN-1 end: statuses, KP reset; then the next turn, or the end of the game."""
    side = tx.active
    status.end_of_turn(tx, side)
    for hook in tx.cache.hooks.on_turn_end:
        hook(tx, side)
    command.reset(tx, side)
    tx.emit("turn_ended", {"round": tx.round, "side": side, "turn_no": tx.turn_no})
    eliminated = status.side_eliminated(tx)
    if eliminated is not None:
        _game_over(tx, "eliminated", eliminated)
        return
    if side != tx.scenario.first_side:
        tx.round += 1
        if tx.round > tx.scenario.rounds:
            tx.round = tx.scenario.rounds
            _game_over(tx, "rounds")
            return
    tx.active = other_side(side)
    tx.turn_no += 1
    _start_turn(tx)


def rule_module() -> RuleModule:
    """The engine's own order kinds (§3–10) as a rule module, one handler per kind like
    any module's: the first module of every ruleset."""
    command_kinds: tuple[tuple[OrderKind, CheckFn, ExecuteFn, UnitLegalFn], ...] = (
        # Listing order: a unit's rally, defend, moves, attacks, disengage, withdraw, recon.
        (OrderKind.RALLY, _check_rally, _execute_rally, _legal_rally),
        (OrderKind.DEFEND, _check_defend, _execute_action, _legal_defend),
        (OrderKind.MOVE, _check_move, _execute_action, _legal_move),
        (OrderKind.ATTACK, _check_attack, _execute_action, _legal_attack),
        (OrderKind.DISENGAGE, _check_disengage, _execute_action, _legal_disengage),
        (OrderKind.WITHDRAW, _check_withdraw, _execute_action, _legal_withdraw),
        (OrderKind.RECON, _check_recon, _execute_recon, _legal_recon),
    )
    return RuleModule(
        "engine",
        orders=(
            *(
                OrderHandler(
                    kind,
                    check,
                    execute,
                    phases=COMMAND_ONLY,
                    module="engine",
                    legal_unit=legal_unit,
                )
                for kind, check, execute, legal_unit in command_kinds
            ),
            OrderHandler(
                OrderKind.FIRE,
                _check_fire,
                _execute_fire,
                phases=FIRE_ONLY,
                module="engine",
                legal_unit=_legal_fire,
            ),
        ),
        syntax=base_syntax(),
    )


def _game_over(tx: Tx, reason: str, eliminated: Side | None = None) -> None:
    vp, detail = score(tx.scenario, tx.units, tx.destroyed)
    tx.vp = dict(vp)
    tx.winner = winner_of(vp, eliminated)
    tx.phase = Phase.OVER
    tx.done = set()
    data: dict[str, Any] = {
        "winner": tx.winner,
        "reason": reason,
        "vp": dict(vp),
        "detail": detail,
    }
    if eliminated is not None:
        data["eliminated"] = eliminated
    tx.emit("game_over", data)
