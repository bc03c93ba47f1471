"""Minefields (RULES.md §13: R-MINE-1…5) and the search for them (R-REC-4).

Orders (all command phase):

- ``clear U`` — careful clearing (R-MINE-3) by a unit standing in a mined cell it entered;
- ``rush U`` — rushing through (R-MINE-4) from that cell;
- ``search U X,Y`` — active recon for hidden threats in an adjacent cell (R-REC-4);
- ``breach U X,Y`` — planned clearing (R-MINE-5) of an adjacent cell the side has detected;
- ``lay U X,Y [at]`` — *Murtosulute* (R-MINE-1): a 2×2 box whose top-left cell is X,Y.

State. ``GameState.ext["mines"]`` holds the truth and each side's knowledge::

    {"fields": {id: {"type": "AP"|"AT", "owner": side}},
     "mined": {"x,y": field id},            # cells still mined
     "known": {side: {"x,y": type}},        # cells the side knows to be mined
     "clear": {side: ["x,y", ...]},         # cells the side knows hold no mine (any more)
     "laid": n}                             # fields laid during the game (id counter)

``UnitState.ext["mines"]`` is a dict with ``pending`` (the "x,y" of the mined cell the unit
stopped in and must choose ``clear``/``rush`` for), ``hold`` (no more movement this turn)
and ``immobilised`` (R-MINE-4, permanent). ``docs/minefields.md`` explains every reading.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from taistelukentta.errors import IllegalOrderError
from taistelukentta.grid.geometry import Cell, chebyshev
from taistelukentta.rules import command, status
from taistelukentta.rules.context import ScenarioCache, Tx, cache_for
from taistelukentta.rules.orders import (
    Order,
    OrderArgs,
    OrderKind,
    OrderShape,
    OrderSyntax,
    OrderTokens,
    bad_order,
    module_syntax,
    order_kind,
)
from taistelukentta.rules.registry import OrderHandler, Plan
from taistelukentta.rules.ruleset import RuleModule
from taistelukentta.rules.sections import ViewModel, ViewSection, pick
from taistelukentta.rules.state import SIDES, Action, GameState, Side, UnitState

MODULE = "mines"

CLEAR: OrderKind = order_kind("clear")
RUSH: OrderKind = order_kind("rush")
SEARCH: OrderKind = order_kind("search")
BREACH: OrderKind = order_kind("breach")
LAY: OrderKind = order_kind("lay")
"""The order kinds this module adds (its own, not members of the engine's ``OrderKind``)."""
"""The ext slot name of this module."""

MINE_TYPES = ("AP", "AT")

_PIONEER = "pioneeri"
_KIT = "mine_clearing_kit"
_LAYER = "murtosulute"


# --------------------------------------------------------------------------- small helpers


def _key(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def _cell(key: str) -> Cell:
    x, y = key.split(",")
    return (int(x), int(y))


def _empty() -> dict[str, Any]:
    return {
        "fields": {},
        "mined": {},
        "known": {s: {} for s in SIDES},
        "clear": {s: [] for s in SIDES},
        "laid": 0,
    }


def _copy(m: Mapping[str, Any] | None) -> dict[str, Any]:
    """A modifiable copy of the module state (ext values are never changed in place)."""
    if not m:
        return _empty()
    return {
        "fields": {k: dict(v) for k, v in m["fields"].items()},
        "mined": dict(m["mined"]),
        "known": {s: dict(m["known"][s]) for s in SIDES},
        "clear": {s: list(m["clear"][s]) for s in SIDES},
        "laid": int(m["laid"]),
    }


def _learn(m: dict[str, Any], side: Side, key: str, mine_type: str | None) -> None:
    """``side`` now knows cell ``key`` holds a mine of ``mine_type`` (None: no mine)."""
    known: dict[str, str] = m["known"][side]
    clear: list[str] = m["clear"][side]
    if mine_type is None:
        known.pop(key, None)
        if key not in clear:
            clear.append(key)
            clear.sort()
    else:
        known[key] = mine_type
        if key in clear:
            clear.remove(key)


def _unit_mines(unit: UnitState) -> dict[str, Any]:
    value = unit.ext.get(MODULE)
    return dict(value) if value else {}


def _set_unit_mines(tx: Tx, uid: str, data: dict[str, Any]) -> None:
    tx.set_unit_ext(uid, MODULE, data or None)


def _pending_cell(unit: UnitState) -> str | None:
    value = unit.ext.get(MODULE)
    if not value:
        return None
    pending = value.get("pending")
    return pending if isinstance(pending, str) else None


def is_immobilised(unit: UnitState) -> bool:
    """Whether ``unit`` has permanently lost its movement (R-MINE-4, or another rule that
    called :func:`immobilise`)."""
    value = unit.ext.get(MODULE)
    return bool(value and value.get("immobilised"))


def immobilise(tx: Tx, uid: str, reason: str) -> None:
    """Make unit ``uid`` permanently immobile (movement 0) and log it (R-MINE-4; other
    modules may use it, e.g. for a vehicle's tracks hit)."""
    unit = tx.units.get(uid)
    if unit is None or is_immobilised(unit):
        return
    data = _unit_mines(unit)
    data["immobilised"] = True
    _set_unit_mines(tx, uid, data)
    tx.unit_event(
        "status",
        uid,
        {"status": "IMMOBILISED", "on": True, "reason": reason},
        spotted_keys=("status", "on"),
    )


def mined_cells(state: GameState) -> dict[Cell, str]:
    """Every cell still mined, with its field id (the GM's truth)."""
    m = state.ext.get(MODULE)
    if not m:
        return {}
    return {_cell(k): v for k, v in m["mined"].items()}


def known_mines(state: GameState, side: Side) -> dict[Cell, str]:
    """The cells ``side`` knows to be mined, with their type (AP/AT)."""
    m = state.ext.get(MODULE)
    if not m:
        return {}
    return {_cell(k): v for k, v in m["known"][side].items()}


def _illegal(en: str, fi: str) -> IllegalOrderError:
    return IllegalOrderError(en, fi)


def _own_unit(state: GameState, side: Side, seat: str, uid: str | None) -> UnitState:
    unit = state.units.get(uid or "")
    if unit is None or unit.side != side:
        raise _illegal(f"you have no unit {uid!r}", f"sinulla ei ole yksikköä {uid!r}")
    if unit.seat != seat:
        raise _illegal(
            f"unit {unit.id} belongs to seat {unit.seat}, not {seat}",
            f"yksikkö {unit.id} kuuluu paikalle {unit.seat}, ei paikalle {seat}",
        )
    return unit


def _able(unit: UnitState, what_en: str, what_fi: str) -> None:
    if unit.retreating is not None:
        raise _illegal(
            f"{unit.id} is RETREATING and takes no orders (rally it first)",
            f"{unit.id} vetäytyy eikä ota käskyjä (kohota moraali ensin)",
        )
    if unit.suppressed is not None:
        raise _illegal(
            f"{unit.id} is SUPPRESSED and cannot {what_en} (rally it first)",
            f"{unit.id} on lamautunut eikä voi {what_fi} (kohota moraali ensin)",
        )


def _whole_turn(unit: UnitState, what_en: str, what_fi: str) -> None:
    """The order takes the unit's whole turn: no action, move or fire yet."""
    _able(unit, what_en, what_fi)
    if unit.action is not None or unit.moved or unit.fired or _holding(unit):
        raise _illegal(
            f"{unit.id} has already acted this turn; to {what_en} takes its whole turn",
            f"{unit.id} on jo toiminut tässä vuorossa; {what_fi} vie koko vuoron",
        )
    if _pending_cell(unit) is not None:
        raise _illegal(
            f"{unit.id} stands in a minefield: choose `clear {unit.id}` or `rush {unit.id}` first",
            f"{unit.id} on miinoitteessa: valitse ensin `clear {unit.id}` tai `rush {unit.id}`",
        )


def _holding(unit: UnitState) -> bool:
    """It has cleared, rushed or worked on mines this turn (no more movement)."""
    value = unit.ext.get(MODULE)
    return bool(value and value.get("hold"))


def _adjacent_cell(cache: ScenarioCache, unit: UnitState, cell: Cell | None) -> Cell:
    assert cell is not None
    if not cache.map.in_bounds(cell):
        raise _illegal(
            f"cell {cell[0]},{cell[1]} is off the map ({cache.map.width}×{cache.map.height})",
            f"ruutu {cell[0]},{cell[1]} on kartan ulkopuolella "
            f"({cache.map.width}×{cache.map.height})",
        )
    if chebyshev(unit.cell, cell) != 1:
        raise _illegal(
            f"cell {cell[0]},{cell[1]} is not adjacent to {unit.id}",
            f"ruutu {cell[0]},{cell[1]} ei ole yksikön {unit.id} vieressä",
        )
    return cell


def _can_clear(cache: ScenarioCache, unit: UnitState) -> bool:
    """R-MINE-3: infantry, or a card with pioneer skills or a mine-clearing kit."""
    card = cache.card(unit)
    return card.type == "infantry" or card.has_ability(_PIONEER) or card.has_ability(_KIT)


def _affected(cache: ScenarioCache, unit: UnitState, mine_type: str) -> bool:
    """R-MINE-1/4: AP affects infantry and vehicles whose card is flagged light; AT every
    armoured vehicle, a light one (BMP-2) included (004: "Vaikuttaa vain panssaroituihin
    ajoneuvoihin"; "Panssaroitu maali: Kaikki ajoneuvoyksiköt"; docs/rules-readings.md)."""
    card = cache.card(unit)
    if mine_type == "AP":
        return card.type == "infantry" or card.light
    return card.type == "vehicle" and card.armoured


def _tt_test(tx: Tx, unit: UnitState, dc: int, purpose: str) -> dict[str, Any]:
    """A TT test (R-DICE-3): d20 + TT ≥ DC. Returns the logged result."""
    skill = tx.cache.skill(unit)
    tx.take_rolls()
    rec = tx.roller.d20(purpose, modifier=skill)
    return {
        "dc": dc,
        "bonus": skill,
        "total": rec.total,
        "success": rec.total >= dc,
        "rolls": tx.take_rolls(),
    }


def _own_event(tx: Tx, kind: str, side: Side, data: dict[str, Any]) -> None:
    """An event only ``side`` (and the GM's full log) sees; the field id stays GM-only."""
    seen = {k: v for k, v in data.items() if k != "field"}
    tx.emit(kind, data, {side: seen})


def _remove_cell(tx: Tx, m: dict[str, Any], key: str) -> None:
    """The mine in ``key`` is gone: no unit waits on it any more."""
    m["mined"].pop(key, None)
    for uid in sorted(u.id for u in tx.units.values() if _pending_cell(u) == key):
        data = _unit_mines(tx.units[uid])
        data.pop("pending", None)
        data["hold"] = True
        _set_unit_mines(tx, uid, data)


def _damage(tx: Tx, uid: str, dice: str, purpose: str, damage_type: str) -> dict[str, Any]:
    tx.take_rolls()
    rec = tx.roller.roll(dice, purpose)
    rolls = tx.take_rolls()
    amount = rec.total
    return {"amount": amount, "damage_type": damage_type, "dice": dice, "rolls": rolls}


# --------------------------------------------------------------------------- game start


def _on_game_start(tx: Tx) -> None:
    fields = tx.scenario.secrets.minefields
    if not fields:
        return
    m = _empty()
    for f in fields:
        m["fields"][f.id] = {"type": f.type, "owner": f.owner}
        for c in f.cells:
            key = _key((int(c[0]), int(c[1])))
            m["mined"][key] = f.id
            _learn(m, f.owner, key, f.type)
    tx.set_ext(MODULE, m)
    for side in SIDES:
        own = sorted(f.id for f in fields if f.owner == side)
        if own:
            data = {
                "side": side,
                "fields": [
                    {
                        "field": f.id,
                        "type": f.type,
                        "cells": sorted([int(c[0]), int(c[1])] for c in f.cells),
                    }
                    for f in fields
                    if f.owner == side
                ],
            }
            tx.emit("minefields_placed", data, {side: data})


# --------------------------------------------------------------------------- entering (R-MINE-2)


def _on_enter_cell(tx: Tx, uid: str, cell: Cell) -> bool:
    m0 = tx.ext(MODULE)
    if not m0 or not m0["mined"]:
        return False
    key = _key(cell)
    fid = m0["mined"].get(key)
    if fid is None:
        return False
    unit = tx.units[uid]
    field = m0["fields"][fid]
    if tx.opts.mines_spare_owner and field["owner"] == unit.side:
        return False
    mine_type: str = field["type"]
    m = _copy(m0)
    _learn(m, unit.side, key, mine_type)
    tx.set_ext(MODULE, m)
    _own_event(
        tx,
        "mine_found",
        unit.side,
        {"unit": uid, "cell": list(cell), "type": mine_type, "how": "entered", "field": fid},
    )
    if tx.opts.mine_triggers_immediately:
        _rush(tx, uid, key, immediate=True)
        return True
    data = _unit_mines(unit)
    data["pending"] = key
    _set_unit_mines(tx, uid, data)
    return True


def _on_unit_moved(tx: Tx, uid: str, walked: list[Cell]) -> None:
    unit = tx.units.get(uid)
    if unit is None:
        return
    pending = _pending_cell(unit)
    if pending is not None and _key(unit.cell) != pending:
        # Stacking put it back out of the mined cell: it is not standing in the field.
        data = _unit_mines(unit)
        data.pop("pending", None)
        _set_unit_mines(tx, uid, data)


def _movement_allowance(cache: ScenarioCache, unit: UnitState, base: int) -> int:
    value = unit.ext.get(MODULE)
    if not value:
        return base
    if value.get("immobilised") or value.get("pending") or value.get("hold"):
        return 0
    return base


def _on_turn_end(tx: Tx, side: Side) -> None:
    for uid in sorted(u.id for u in tx.units_of(side) if u.ext.get(MODULE)):
        unit = tx.units[uid]
        data = _unit_mines(unit)
        if data.pop("hold", None) is not None:
            _set_unit_mines(tx, uid, data)


# --------------------------------------------------------------------------- clear / rush


def _check_in_field(state: GameState, seat: str, side: Side, order: Order) -> UnitState:
    unit = _own_unit(state, side, seat, order.unit)
    if _pending_cell(unit) is None:
        raise _illegal(
            f"{unit.id} has not stopped in a minefield (nothing to clear or rush through)",
            f"{unit.id} ei ole pysähtynyt miinoitteeseen (ei purettavaa eikä läpi rynnäköitävää)",
        )
    return unit


def _check_clear(state: GameState, seat: str, side: Side, order: Order) -> Plan:
    unit = _check_in_field(state, seat, side, order)
    _able(unit, "clear mines", "purkaa miinoja")
    cache = cache_for(state)
    if not _can_clear(cache, unit):
        raise _illegal(
            f"{unit.id} cannot clear mines carefully (infantry, pioneers or a mine-clearing "
            f"kit only): `rush {unit.id}` instead",
            f"{unit.id} ei voi purkaa varovasti (vain jalkaväki, pioneerit tai "
            f"miinanraivausvarustus): käytä `rush {unit.id}`",
        )
    return Plan(unit=unit, cost=cache.opts.kp_careful_clearing)


def _execute_clear(tx: Tx, seat: str, order: Order, plan: Plan) -> None:
    assert plan.unit is not None
    uid = plan.unit.id
    unit = tx.units[uid]
    key = _pending_cell(unit)
    assert key is not None
    m = _copy(tx.ext(MODULE))
    fid = m["mined"].get(key)
    side = unit.side
    data = _unit_mines(unit)
    data.pop("pending", None)
    data["hold"] = True
    _set_unit_mines(tx, uid, data)
    cell = list(_cell(key))
    if fid is None:  # someone else already cleared it
        _learn(m, side, key, None)
        tx.set_ext(MODULE, m)
        _own_event(tx, "mine_clear", side, {"unit": uid, "cell": cell, "result": "no_mine"})
        return
    mine_type: str = m["fields"][fid]["type"]
    card = tx.cache.card(unit)
    dc = (
        tx.opts.careful_clearing_dc_pioneer
        if card.has_ability(_PIONEER)
        else tx.opts.careful_clearing_dc
    )
    test = _tt_test(tx, unit, dc, "mine_clearing")
    _remove_cell(tx, m, key)  # cleared, or went off: the cell is then safe (R-MINE-3)
    _learn(m, side, key, None)
    tx.set_ext(MODULE, m)
    event: dict[str, Any] = {
        "unit": uid,
        "cell": cell,
        "type": mine_type,
        "field": fid,
        **test,
        "result": "cleared" if test["success"] else "set_off",
    }
    if test["success"]:
        _own_event(tx, "mine_clear", side, event)
        return
    dice = tx.opts.clearing_damage_ap if mine_type == "AP" else tx.opts.clearing_damage_at
    hit = _damage(tx, uid, dice, "mine_damage", "FRAG" if mine_type == "AP" else "AT")
    event["damage"] = hit["amount"]
    event["damage_type"] = hit["damage_type"]
    event["rolls"] = [*event["rolls"], *hit["rolls"]]
    _own_event(tx, "mine_clear", side, event)
    status.damage_unit(tx, uid, hit["amount"], "mine")


def _check_rush(state: GameState, seat: str, side: Side, order: Order) -> Plan:
    unit = _check_in_field(state, seat, side, order)
    _able(unit, "move", "liikkua")
    return Plan(unit=unit, cost=0)


def _execute_rush(tx: Tx, seat: str, order: Order, plan: Plan) -> None:
    assert plan.unit is not None
    uid = plan.unit.id
    key = _pending_cell(tx.units[uid])
    assert key is not None
    _rush(tx, uid, key, immediate=False)


def _rush(tx: Tx, uid: str, key: str, *, immediate: bool) -> None:
    """R-MINE-4 (and the R-MINE-2 variant: a mine that goes off at once)."""
    unit = tx.units[uid]
    data = _unit_mines(unit)
    data.pop("pending", None)
    data["hold"] = True
    _set_unit_mines(tx, uid, data)
    m = _copy(tx.ext(MODULE))
    fid = m["mined"].get(key)
    side = unit.side
    cell = list(_cell(key))
    kind = "mine_triggered" if immediate else "mine_rush"
    if fid is None:
        _learn(m, side, key, None)
        tx.set_ext(MODULE, m)
        _own_event(tx, kind, side, {"unit": uid, "cell": cell, "result": "no_mine"})
        return
    mine_type: str = m["fields"][fid]["type"]
    cache = tx.cache
    event: dict[str, Any] = {"unit": uid, "cell": cell, "type": mine_type, "field": fid}
    hit: dict[str, Any] | None = None
    if _affected(cache, unit, mine_type):
        dice = tx.opts.rush_damage_ap if mine_type == "AP" else tx.opts.rush_damage_at
        hit = _damage(tx, uid, dice, "mine_damage", "FRAG" if mine_type == "AP" else "AT")
        event.update(result="set_off", damage=hit["amount"], damage_type=hit["damage_type"])
        event["rolls"] = hit["rolls"]
        if tx.opts.mine_cell_safe_after:
            _remove_cell(tx, m, key)
            _learn(m, side, key, None)
    else:
        event["result"] = "not_affected"
    tx.set_ext(MODULE, m)
    _own_event(tx, kind, side, event)
    cause = (tx.opts.mine_morale_dc, "mine")
    if hit is not None:
        if mine_type == "AT" and hit["amount"] < tx.units[uid].strength:
            immobilise(tx, uid, "mine")
        # R-MOR-6: the rush's own test (DC 14 "joka tapauksessa") merges with the
        # damage's triggers into one test at the highest DC.
        status.damage_unit(tx, uid, hit["amount"], "mine", cause=cause)
    elif uid in tx.units:
        status.morale_test(tx, uid, *cause)


# --------------------------------------------------------------------------- search (R-REC-4)


def _search_cost(cache: ScenarioCache, unit: UnitState) -> int:
    opts = cache.opts
    if (
        opts.trap_test_without_kp
        and not unit.moved
        and cache.skill(unit) >= opts.trap_test_min_skill
    ):
        return 0
    return opts.kp_active_recon


def _check_search(state: GameState, seat: str, side: Side, order: Order) -> Plan:
    unit = _own_unit(state, side, seat, order.unit)
    _able(unit, "search", "etsiä")
    if unit.reconned:
        raise _illegal(
            f"{unit.id} has already made active recon this turn",
            f"{unit.id} on jo tiedustellut tässä vuorossa",
        )
    cache = cache_for(state)
    cell = _adjacent_cell(cache, unit, order.cell)
    return Plan(unit=unit, cost=_search_cost(cache, unit), data=cell)


def _execute_search(tx: Tx, seat: str, order: Order, plan: Plan) -> None:
    assert plan.unit is not None and order.cell is not None
    uid = plan.unit.id
    unit = tx.update(uid, reconned=True)
    key = _key(order.cell)
    test = _tt_test(tx, unit, tx.opts.threat_search_dc, "mine_search")
    event: dict[str, Any] = {"unit": uid, "cell": list(order.cell), **test}
    m0 = tx.ext(MODULE)
    if test["success"]:
        fid = m0["mined"].get(key) if m0 else None
        m = _copy(m0)
        if fid is None:
            _learn(m, unit.side, key, None)
            event["mined"] = False
        else:
            mine_type = m["fields"][fid]["type"]
            _learn(m, unit.side, key, mine_type)
            event.update(mined=True, type=mine_type, field=fid)
        tx.set_ext(MODULE, m)
    _own_event(tx, "mine_search", unit.side, event)


# --------------------------------------------------------------------------- breach (R-MINE-5)


def _check_breach(state: GameState, seat: str, side: Side, order: Order) -> Plan:
    unit = _own_unit(state, side, seat, order.unit)
    cache = cache_for(state)
    card = cache.card(unit)
    if not (card.has_ability(_PIONEER) or card.has_ability(_KIT)):
        raise _illegal(
            f"{unit.id} has no pioneer skills or mine-clearing kit (planned clearing needs one)",
            f"yksiköllä {unit.id} ei ole pioneerikykyä eikä miinanraivausvarustusta "
            "(suunniteltu purkaminen vaatii sen)",
        )
    _whole_turn(unit, "clear a minefield", "suunniteltu purkaminen")
    cell = _adjacent_cell(cache, unit, order.cell)
    m = state.ext.get(MODULE)
    if not m or _key(cell) not in m["known"][side]:
        raise _illegal(
            f"cell {cell[0]},{cell[1]} is not a detected mined cell (search it first)",
            f"ruutu {cell[0]},{cell[1]} ei ole havaittu miinoitettu ruutu (etsi ensin)",
        )
    return Plan(unit=unit, cost=cache.opts.kp_planned_clearing, data=cell)


def _execute_breach(tx: Tx, seat: str, order: Order, plan: Plan) -> None:
    assert plan.unit is not None and order.cell is not None
    uid = plan.unit.id
    unit = tx.update(uid, action=Action.DEFEND, fired=True)
    data = _unit_mines(unit)
    data["hold"] = True
    _set_unit_mines(tx, uid, data)
    unit = tx.units[uid]
    card = tx.cache.card(unit)
    dc = (
        tx.opts.planned_clearing_dc_pioneer
        if card.has_ability(_PIONEER)
        else tx.opts.planned_clearing_dc
    )
    key = _key(order.cell)
    test = _tt_test(tx, unit, dc, "mine_breach")
    event: dict[str, Any] = {"unit": uid, "cell": list(order.cell), **test}
    if test["success"]:
        m = _copy(tx.ext(MODULE))
        fid = m["mined"].get(key)
        if fid is not None:
            event["field"] = fid
            _remove_cell(tx, m, key)
        _learn(m, unit.side, key, None)
        tx.set_ext(MODULE, m)
        event["result"] = "cleared"
    else:
        event["result"] = "failed"
    _own_event(tx, "mine_breach", unit.side, event)


# --------------------------------------------------------------------------- lay (R-MINE-1)


def box_cells(top_left: Cell) -> list[Cell]:
    """The 2×2 box whose top-left cell is ``top_left``."""
    x, y = top_left
    return [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)]


def laid_cells(top_left: Cell, shape: str) -> list[Cell]:
    """The cells a *Murtosulute* unit lays from ``top_left`` (R-MINE-1, option
    ``minefield_shape``): a 2×2 box, or a 4×1 strip running east."""
    if shape == "strip_4x1":
        x, y = top_left
        return [(x + i, y) for i in range(4)]
    return box_cells(top_left)


def lay_type(order: Order) -> str:
    """AP, or AT when the order carries the ``at`` word."""
    return order.args.mine_type if isinstance(order.args, LayArgs) else "AP"


def _box_problem(cache: ScenarioCache, unit: UnitState, cell: Cell) -> tuple[str, str] | None:
    cells = laid_cells(cell, cache.opts.minefield_shape)
    off = [c for c in cells if not cache.map.in_bounds(c)]
    if off:
        return (
            f"the box at {cell[0]},{cell[1]} reaches off the map",
            f"laatikko ruudussa {cell[0]},{cell[1]} ulottuu kartan ulkopuolelle",
        )
    if unit.cell in cells:
        return (
            f"the box at {cell[0]},{cell[1]} covers {unit.id}'s own cell",
            f"laatikko ruudussa {cell[0]},{cell[1]} peittää yksikön {unit.id} oman ruudun",
        )
    if not any(chebyshev(unit.cell, c) == 1 for c in cells):
        return (
            f"the box at {cell[0]},{cell[1]} is not next to {unit.id} (one of its cells "
            "must be adjacent)",
            f"laatikko ruudussa {cell[0]},{cell[1]} ei ole yksikön {unit.id} vieressä "
            "(jonkin sen ruuduista on oltava viereinen)",
        )
    return None


def _lay_anchors(cache: ScenarioCache, unit: UnitState) -> list[Cell]:
    """Every top-left cell of a box ``unit`` may lay (geometry only)."""
    x, y = unit.cell
    out = []
    for ax in range(x - 4, x + 2):
        for ay in range(y - 2, y + 2):
            if ax >= 0 and ay >= 0 and _box_problem(cache, unit, (ax, ay)) is None:
                out.append((ax, ay))
    return out


def _check_lay(state: GameState, seat: str, side: Side, order: Order) -> Plan:
    unit = _own_unit(state, side, seat, order.unit)
    cache = cache_for(state)
    if not cache.card(unit).has_ability(_LAYER):
        raise _illegal(
            f"{unit.id} cannot lay mines (needs the Murtosulute ability)",
            f"{unit.id} ei voi laskea miinoja (vaatii Murtosulute-kyvyn)",
        )
    _whole_turn(unit, "lay mines", "miinoittaminen")
    assert order.cell is not None
    problem = _box_problem(cache, unit, order.cell)
    if problem is not None:
        raise _illegal(*problem)
    m = state.ext.get(MODULE)
    if m:
        cells = laid_cells(order.cell, cache.opts.minefield_shape)
        known = [c for c in cells if _key(c) in m["known"][side]]
        if known:
            c = known[0]
            raise _illegal(
                f"cell {c[0]},{c[1]} of the box is already mined",
                f"laatikon ruutu {c[0]},{c[1]} on jo miinoitettu",
            )
    return Plan(unit=unit, cost=cache.opts.kp_lay_mines, data=lay_type(order))


def _execute_lay(tx: Tx, seat: str, order: Order, plan: Plan) -> None:
    assert plan.unit is not None and order.cell is not None
    uid = plan.unit.id
    unit = tx.update(uid, action=Action.DEFEND, fired=True)
    data = _unit_mines(unit)
    data["hold"] = True
    _set_unit_mines(tx, uid, data)
    side = unit.side
    mine_type = str(plan.data)
    m = _copy(tx.ext(MODULE))
    m["laid"] += 1
    fid = f"laid{m['laid']}"
    while fid in m["fields"]:
        m["laid"] += 1
        fid = f"laid{m['laid']}"
    m["fields"][fid] = {"type": mine_type, "owner": side}
    cells = laid_cells(order.cell, tx.opts.minefield_shape)
    placed = []
    for c in cells:
        key = _key(c)
        if key not in m["mined"]:  # an unknown enemy mine stays as it is (no leak)
            m["mined"][key] = fid
            placed.append([c[0], c[1]])
        _learn(m, side, key, mine_type)
    tx.set_ext(MODULE, m)
    event = {
        "unit": uid,
        "type": mine_type,
        "cells": [[c[0], c[1]] for c in cells],
        "placed": placed,
        "field": fid,
    }
    seen = {k: v for k, v in event.items() if k not in ("field", "placed")}
    tx.emit("mines_laid", event, {side: seen})


# --------------------------------------------------------------------------- legal orders


def _affordable(state: GameState, seat: str, unit: UnitState, cost: int) -> bool:
    cache = cache_for(state)
    problem = command.payment_problem(cache.opts, state.kp, state.group_spent, seat, unit, cost)
    return problem is None


def _own_units(state: GameState, seat: str) -> list[UnitState]:
    return sorted((u for u in state.units.values() if u.seat == seat), key=lambda u: u.id)


def _troubled(unit: UnitState) -> bool:
    return unit.retreating is not None or unit.suppressed is not None


def _legal_clear(state: GameState, seat: str, side: Side) -> Iterable[Order]:
    cache = cache_for(state)
    cost = cache.opts.kp_careful_clearing
    return [
        cache.order(CLEAR, u.id)
        for u in _own_units(state, seat)
        if _pending_cell(u) is not None
        and not _troubled(u)
        and _can_clear(cache, u)
        and _affordable(state, seat, u, cost)
    ]


def _legal_rush(state: GameState, seat: str, side: Side) -> Iterable[Order]:
    cache = cache_for(state)
    return [
        cache.order(RUSH, u.id)
        for u in _own_units(state, seat)
        if _pending_cell(u) is not None and not _troubled(u)
    ]


_NEIGHBOURS = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0))
"""Offsets of the 8 adjacent cells, in sorted order."""


def _legal_search(state: GameState, seat: str, side: Side) -> Iterable[Order]:
    cache = cache_for(state)
    opts = cache.opts
    if state.kp.get(seat, 0) <= 0 and opts.kp_active_recon > 0 and not opts.trap_test_without_kp:
        return []
    m = state.ext.get(MODULE)
    skip: set[str] = set(m["known"][side]) | set(m["clear"][side]) if m else set()
    in_bounds = cache.map.in_bounds
    make = cache.order
    ok: dict[tuple[str, int], bool] = {}
    out: list[Order] = []
    for u in _own_units(state, seat):
        if u.reconned or _troubled(u):
            continue
        cost = _search_cost(cache, u)
        afford = ok.get((u.group, cost))
        if afford is None:
            afford = ok[(u.group, cost)] = _affordable(state, seat, u, cost)
        if not afford:
            continue
        x, y = u.cell
        for dx, dy in _NEIGHBOURS:
            c = (x + dx, y + dy)
            if in_bounds(c) and (not skip or _key(c) not in skip):
                out.append(make(SEARCH, u.id, c))
    return out


def _free_whole_turn(unit: UnitState) -> bool:
    return (
        not _troubled(unit)
        and unit.action is None
        and not unit.moved
        and not unit.fired
        and _pending_cell(unit) is None
        and not _holding(unit)
    )


def _legal_breach(state: GameState, seat: str, side: Side) -> Iterable[Order]:
    m = state.ext.get(MODULE)
    if not m or not m["known"][side]:
        return []
    cache = cache_for(state)
    known = sorted(_cell(k) for k in m["known"][side])
    out: list[Order] = []
    for u in _own_units(state, seat):
        card = cache.card(u)
        if not (card.has_ability(_PIONEER) or card.has_ability(_KIT)):
            continue
        if not _free_whole_turn(u) or not _affordable(
            state, seat, u, cache.opts.kp_planned_clearing
        ):
            continue
        out.extend(cache.order(BREACH, u.id, c) for c in known if chebyshev(u.cell, c) == 1)
    return out


def _legal_lay(state: GameState, seat: str, side: Side) -> Iterable[Order]:
    cache = cache_for(state)
    m = state.ext.get(MODULE)
    known: Mapping[str, str] = m["known"][side] if m else {}
    out: list[Order] = []
    for u in _own_units(state, seat):
        if not cache.card(u).has_ability(_LAYER):
            continue
        if not _free_whole_turn(u) or not _affordable(state, seat, u, cache.opts.kp_lay_mines):
            continue
        for a in _lay_anchors(cache, u):
            if any(_key(c) in known for c in laid_cells(a, cache.opts.minefield_shape)):
                continue
            out.append(cache.order(LAY, u.id, a, args=_LAY_AP))
            out.append(cache.order(LAY, u.id, a, args=_LAY_AT))
    return out


# --------------------------------------------------------------------------- views


def _view_extras(state: GameState, viewer: str) -> dict[str, Any]:
    m = state.ext.get(MODULE)
    flagged = [u for u in state.units.values() if u.ext.get(MODULE)]
    if not m and not flagged:
        return {}
    out: dict[str, Any] = {}
    sides: tuple[Side, ...]
    if viewer == "gm":
        sides = SIDES
    elif viewer in SIDES:
        sides = ("blue",) if viewer == "blue" else ("red",)
    else:
        return {}
    if viewer == "gm" and m:
        by_field: dict[str, list[list[int]]] = {fid: [] for fid in m["fields"]}
        for key, fid in m["mined"].items():
            x, y = _cell(key)
            by_field[fid].append([x, y])
        out["fields"] = [
            {
                "id": fid,
                "type": f["type"],
                "owner": f["owner"],
                "cells": sorted(by_field[fid]),
            }
            for fid, f in sorted(m["fields"].items())
        ]
    for side in sides:
        part: dict[str, Any] = {
            "known": [
                {"cell": list(_cell(k)), "type": t} for k, t in sorted(m["known"][side].items())
            ]
            if m
            else [],
            "clear": [list(_cell(k)) for k in m["clear"][side]] if m else [],
            "in_minefield": {
                u.id: list(_cell(p))
                for u in sorted(flagged, key=lambda v: v.id)
                if u.side == side and (p := _pending_cell(u)) is not None
            },
            "immobilised": sorted(u.id for u in flagged if u.side == side and is_immobilised(u)),
        }
        if viewer == "gm":
            out[side] = part
        elif any(part.values()):
            out.update(part)
    # A side gets the key only when it knows something (computed from its knowledge
    # alone), so its view never tells whether the scenario has minefields at all.
    return {MODULE: out} if out else {}


# --------------------------------------------------------------------------- view section


class KnownMinefieldCell(ViewModel):
    cell: Cell
    type: str | None


class MinesView(ViewModel):
    """What a side knows of minefields (R-MINE-2…5)."""

    known: tuple[KnownMinefieldCell, ...]
    clear: tuple[Cell, ...]
    in_minefield: dict[str, Cell]
    immobilised: tuple[str, ...]


class MinefieldView(ViewModel):
    id: str
    type: str
    owner: str
    cells: tuple[Cell, ...]


class GMMinesView(ViewModel):
    fields: tuple[MinefieldView, ...] | None = None
    blue: MinesView
    red: MinesView


_SIDE_DEFAULT: dict[str, Any] = {"known": [], "clear": [], "in_minefield": {}, "immobilised": []}


def _section(state: GameState, viewer: str) -> ViewModel | None:
    """The ``mines`` section: what a side has found (always present, empty by default,
    so it never tells whether the map has minefields); the game master sees every field."""
    raw = _view_extras(state, viewer).get(MODULE) or {}
    if viewer == "gm":
        return pick(GMMinesView, raw) if raw else None
    return pick(MinesView, {**_SIDE_DEFAULT, **raw})


SECTION = ViewSection("mines", MinesView, GMMinesView, _section)
"""The mines module's section of the views."""


# --------------------------------------------------------------------------- orders

LAY_AT_WORDS = ("at", "pm")
"""`lay U X,Y at`: an anti-tank (PM) box instead of the default AP (R-MINE-1)."""


@dataclass(frozen=True, slots=True)
class LayArgs(OrderArgs):
    """The field of ``lay U X,Y [at]``: the type of the mines laid (AP unless ``at``)."""

    mine_type: str = "AP"

    def words(self) -> list[str]:
        return ["at"] if self.mine_type == "AT" else []

    def check(self, text: str) -> None:
        if self.mine_type not in MINE_TYPES:
            raise bad_order(
                text,
                f"unknown mine type {self.mine_type!r} (AP or AT)",
                f"tuntematon miinatyyppi {self.mine_type!r} (AP tai AT)",
            )


_LAY_AP = LayArgs("AP")
_LAY_AT = LayArgs("AT")


def clear_order(unit: str) -> Order:
    """``clear U``: careful mine clearing (R-MINE-3)."""
    return Order(CLEAR, unit)


def rush_order(unit: str) -> Order:
    """``rush U``: rushing through a minefield (R-MINE-4)."""
    return Order(RUSH, unit)


def search_order(unit: str, cell: Cell) -> Order:
    """``search U X,Y``: finding mines in an adjacent cell (R-REC-4)."""
    return Order(SEARCH, unit, cell)


def breach_order(unit: str, cell: Cell) -> Order:
    """``breach U X,Y``: planned clearing (R-MINE-5)."""
    return Order(BREACH, unit, cell)


def lay_order(unit: str, cell: Cell, *, at: bool = False) -> Order:
    """``lay U X,Y [at]``: *Murtosulute*, AP mines or AT with ``at`` (R-MINE-1)."""
    return Order(LAY, unit, cell, args=LayArgs("AT" if at else "AP"))


def _read_unit(kind: OrderKind, t: OrderTokens) -> Order:
    return Order(kind, t.id())


def _read_unit_cell(kind: OrderKind, t: OrderTokens) -> Order:
    unit = t.id()
    return Order(kind, unit, t.cell())


def _read_lay(kind: OrderKind, t: OrderTokens) -> Order:
    unit = t.id()
    cell = t.cell()
    return lay_order(unit, cell, at=t.take_if(LAY_AT_WORDS))


_UNIT = OrderShape(unit=True)
_UNIT_CELL = OrderShape(unit=True, cell=True)

SYNTAX: tuple[OrderSyntax, ...] = (
    module_syntax(CLEAR, "clear UNIT", ("raivaa",), _read_unit, _UNIT),
    module_syntax(RUSH, "rush UNIT", ("rynnistä", "rynnista"), _read_unit, _UNIT),
    module_syntax(SEARCH, "search UNIT X,Y", ("etsi",), _read_unit_cell, _UNIT_CELL),
    module_syntax(BREACH, "breach UNIT X,Y", ("murra",), _read_unit_cell, _UNIT_CELL),
    module_syntax(
        LAY,
        "lay UNIT X,Y [at]",
        ("miinoita",),
        _read_lay,
        OrderShape(unit=True, cell=True, args=LayArgs),
        ((LAY_AT_WORDS[0], LAY_AT_WORDS[1]),),
    ),
)
"""The notation of the mine orders (docs/notation.md)."""


# --------------------------------------------------------------------------- registration


def rule_module() -> RuleModule:
    """Mines (R-MINE) as a rule module."""
    return RuleModule(
        MODULE,
        view=SECTION,
        orders=tuple(
            OrderHandler(kind, check, execute, legal, module=MODULE)
            for kind, check, execute, legal in (
                (CLEAR, _check_clear, _execute_clear, _legal_clear),
                (RUSH, _check_rush, _execute_rush, _legal_rush),
                (SEARCH, _check_search, _execute_search, _legal_search),
                (BREACH, _check_breach, _execute_breach, _legal_breach),
                (LAY, _check_lay, _execute_lay, _legal_lay),
            )
        ),
        hooks=(
            ("on_game_start", _on_game_start),
            ("on_enter_cell", _on_enter_cell),
            ("on_unit_moved", _on_unit_moved),
            ("movement_allowance", _movement_allowance),
            ("on_turn_end", _on_turn_end),
            ("view_extras", _view_extras),
        ),
        syntax=SYNTAX,
    )


__all__ = [
    "MINE_TYPES",
    "MODULE",
    "box_cells",
    "immobilise",
    "is_immobilised",
    "known_mines",
    "laid_cells",
    "lay_type",
    "mined_cells",
    "rule_module",
]
