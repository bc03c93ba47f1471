"""Company command: the company commander, command link, KP transfer, company tactics,
confirmed target, recon report and field promotion (RULES.md §10–11).

Public functions other modules use (pure, no dice):

- :func:`co_seat` / :func:`co_unit` — who commands the company now (R-LINK-3);
- :func:`in_command_link` — whether a Blue unit is in command link (R-LINK-1/2);
- :func:`line_cells` — the cells the straight line between two cells crosses.

Module state lives in ``GameState.ext["company"]`` (a JSON-safe dict, see
:data:`MODULE`), read through the typed accessors of :class:`CompanyState` (never by
string key), and in ``UnitState.ext["company"]`` for per-unit marks.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from taistelukentta.content.options import RuleOptions
from taistelukentta.content.scenario import Scenario
from taistelukentta.errors import IllegalOrderError, InvalidOrderError
from taistelukentta.grid.geometry import Cell, chebyshev
from taistelukentta.rules import status
from taistelukentta.rules.context import ScenarioCache, Tx, cache_for
from taistelukentta.rules.morale import MoraleOutcome
from taistelukentta.rules.orders import (
    Order,
    OrderArgs,
    OrderKind,
    OrderShape,
    OrderSyntax,
    OrderTokens,
    bad_order,
    check_id,
    check_name,
    module_syntax,
    order_kind,
)
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.registry import OrderHandler, Plan
from taistelukentta.rules.ruleset import RuleModule
from taistelukentta.rules.sections import ViewModel, ViewSection, pick
from taistelukentta.rules.services import AbilitiesApi, CommandApi
from taistelukentta.rules.state import Contact, GameState, Side, UnitState

MODULE = "company"

TRANSFER: OrderKind = order_kind("transfer")
RESTORE: OrderKind = order_kind("restore")
TACTIC: OrderKind = order_kind("tactic")
CONFIRM: OrderKind = order_kind("confirm")
PROMOTE: OrderKind = order_kind("promote")
REPORT: OrderKind = order_kind("report")
KINDS = frozenset({TRANSFER, RESTORE, TACTIC, CONFIRM, PROMOTE, REPORT})
"""The order kinds this module adds (its own kinds, not members of the engine's
``OrderKind``)."""


# --------------------------------------------------------------------------- orders


@dataclass(frozen=True, slots=True)
class SeatArgs(OrderArgs):
    """The field of ``transfer``/``restore``/``promote SEAT``: the Blue seat named."""

    seat: str

    def head(self) -> list[str]:
        return [self.seat]

    def check(self, text: str) -> None:
        check_id(self.seat, text)


@dataclass(frozen=True, slots=True)
class TacticArgs(OrderArgs):
    """The fields of ``tactic NAME …`` (R-CO-1): the tactic and what it names besides a
    cell (the order's ``cell``): a seat or 1–3 units."""

    name: str
    seat: str | None = None
    units: tuple[str, ...] = ()

    def head(self) -> list[str]:
        return [self.name, *([] if self.seat is None else [self.seat]), *self.units]

    def check(self, text: str) -> None:
        check_name(self.name, text)
        for ident in (self.seat, *self.units):
            if ident is not None:
                check_id(ident, text)


def transfer_order(seat: str) -> Order:
    """``transfer SEAT``: 1 KP from the company commander to ``seat`` (R-CO-2)."""
    return Order(TRANSFER, args=SeatArgs(seat))


def restore_order(seat: str) -> Order:
    """``restore SEAT``: the company commander restores ``seat``'s command link."""
    return Order(RESTORE, args=SeatArgs(seat))


def promote_order(seat: str) -> Order:
    """``promote SEAT``: a field promotion (R-LINK-3)."""
    return Order(PROMOTE, args=SeatArgs(seat))


def tactic_order(
    name: str,
    *,
    cell: Cell | None = None,
    seat: str | None = None,
    units: tuple[str, ...] = (),
) -> Order:
    """``tactic NAME X,Y|SEAT|UNIT…`` (R-CO-1)."""
    return Order(TACTIC, cell=cell, args=TacticArgs(name, seat, units))


def confirm_order(target: str) -> Order:
    """``confirm TARGET``: a confirmed target (R-CO-3)."""
    return Order(CONFIRM, target=target)


def report_order(cell: Cell) -> Order:
    """``report X,Y``: the recon report (R-CO-4)."""
    return Order(REPORT, cell=cell)


def seat_of(order: Order) -> str | None:
    """The seat a company order names (``transfer``/``restore``/``promote``, a
    ``tactic painopiste|sitova``); None for any other order."""
    args = order.args
    if isinstance(args, SeatArgs | TacticArgs):
        return args.seat
    return None


def tactic_of(order: Order) -> TacticArgs | None:
    """The fields of a ``tactic`` order (None for any other order)."""
    return order.args if isinstance(order.args, TacticArgs) else None


# --------------------------------------------------------------------------- geometry


def line_cells(a: Cell, b: Cell) -> Iterator[Cell]:
    """The cells the straight line between the centres of ``a`` and ``b`` crosses, ``a``
    and ``b`` excluded (grid traversal; a line passing exactly through a cell corner
    goes diagonally and does not touch the two side cells)."""
    x, y = a
    x1, y1 = b
    dx, dy = abs(x1 - x), abs(y1 - y)
    sx = 1 if x1 > x else -1
    sy = 1 if y1 > y else -1
    err = dx - dy
    dx2, dy2 = dx * 2, dy * 2
    while (x, y) != (x1, y1):
        if err > 0:
            x += sx
            err -= dy2
        elif err < 0:
            y += sy
            err += dx2
        else:
            x += sx
            y += sy
            err += dx2 - dy2
        if (x, y) != (x1, y1):
            yield (x, y)


# --------------------------------------------------------------------------- the world


@dataclass(frozen=True, slots=True)
class SeatTactic:
    """A company tactic that names a seat (Painopiste, Sitova tuli, R-CO-1): the seat and
    the turn it was ordered in."""

    seat: str
    turn: int


@dataclass(frozen=True, slots=True)
class CompanyState:
    """The company module's game-level state, typed: ``GameState.ext["company"]`` read
    through named accessors (the stored form stays the JSON-safe dict the game files and
    recorded hashes have; a key is there only while it is set)."""

    raw: Mapping[str, Any]

    @property
    def promoted_seat(self) -> str | None:
        """The seat of a field-promoted company commander (R-CO-6); None: the original."""
        value: str | None = self.raw.get("promoted_seat")
        return value

    @property
    def promoted_unit(self) -> str | None:
        """The unit of a field-promoted company commander."""
        value: str | None = self.raw.get("promoted_unit")
        return value

    @property
    def company_kp(self) -> int | None:
        """A promoted commander's company KP pool (None while nobody is promoted)."""
        value = self.raw.get("company_kp")
        return None if value is None else int(value)

    @property
    def combat(self) -> Mapping[str, int]:
        """Red units in combat, with the round (R-LINK-1)."""
        return self._map("combat")

    @property
    def restored(self) -> Mapping[str, int]:
        """Seats whose command link was restored, with the turn (R-LINK-4)."""
        return self._map("restored")

    @property
    def transfers(self) -> Mapping[str, int]:
        """Seats that received a KP transfer, with the turn (R-CO-2)."""
        return self._map("transfers")

    @property
    def order_turn(self) -> int | None:
        """The turn of the company commander's last company order."""
        value: int | None = self.raw.get("order_turn")
        return value

    @property
    def tactic_turn(self) -> int | None:
        """The turn of the last company tactic (one per turn, R-CO-1)."""
        value: int | None = self.raw.get("tactic_turn")
        return value

    @property
    def tactics_used(self) -> tuple[tuple[int, str], ...]:
        """Every tactic ordered: (turn, name)."""
        return tuple((int(t), str(n)) for t, n in self.raw.get("tactics_used", []))

    @property
    def motti_used(self) -> bool:
        """Motti has been used (once a game, R-CO-1)."""
        return bool(self.raw.get("motti_used"))

    @property
    def flagged(self) -> tuple[str, ...]:
        """Units flagged by Järjestäytynyt vetäytyminen this turn."""
        return tuple(self.raw.get("flagged", []))

    @property
    def confirmed(self) -> Mapping[str, int]:
        """Confirmed targets with their bonus (R-CO-5)."""
        return self._map("confirmed")

    @property
    def report_done(self) -> bool:
        """The recon report has been made (R-CO-4)."""
        return bool(self.raw.get("report_done"))

    @property
    def reconnoitred(self) -> Mapping[str, bool]:
        """Reported Red units; True once their reroll is spent (R-CO-4)."""
        return self._map("reconnoitred")

    @property
    def co_lost(self) -> int | None:
        """The turn the company commander was lost (R-CO-6), None while it stands."""
        value: int | None = self.raw.get("co_lost")
        return value

    @property
    def leaderless(self) -> bool:
        """No leader is left to promote."""
        return bool(self.raw.get("leaderless"))

    def seat_tactic(self, name: str) -> SeatTactic | None:
        """The last ``painopiste`` or ``sitova`` order (seat and turn), None if none."""
        value = self.raw.get(name)
        return None if not value else SeatTactic(str(value["seat"]), int(value["turn"]))

    def seat_record(self, key: str) -> Mapping[str, int]:
        """A per-turn seat record (``transfers``, ``restored``)."""
        return self._map(key)

    def _map(self, key: str) -> Mapping[str, Any]:
        value: Mapping[str, Any] = self.raw.get(key) or {}
        return value

    def __bool__(self) -> bool:
        return bool(self.raw)


@dataclass(frozen=True, slots=True)
class _W:
    """What the command questions need, from a GameState or a Tx alike."""

    scenario: Scenario
    units: Mapping[str, UnitState]
    co: CompanyState
    round: int
    turn_no: int
    seen: Mapping[str, Contact] | None
    """Blue's contacts: the link is worked out from the company's knowledge (R-LINK-1,
    R-REC-5), never from where unseen enemies really stand. None in a legacy-seed game
    (made before issue 8): the true cells, so that its file replays as it was played."""
    links: dict[str, bool] | None = None
    """:func:`_pos_link` answers for this world, kept while the world object lives (None:
    do not keep them)."""

    @property
    def opts(self) -> RuleOptions:
        return self.scenario.options


def _ext(state: GameState) -> CompanyState:
    """The module's state in ``state``."""
    return CompanyState(state.ext.get(MODULE) or {})


def _ext_tx(tx: Tx) -> CompanyState:
    """The module's state in ``tx`` now."""
    return CompanyState(tx.ext(MODULE) or {})


def _w(state: GameState) -> _W:
    # link answers are kept while this world object lives (one question about the state)
    return _W(
        state.scenario,
        state.units,
        _ext(state),
        state.round,
        state.turn_no,
        state.contacts["blue"] if isinstance(state.seed, bytes) else None,
        {},
    )


def _wt(tx: Tx) -> _W:
    return _W(
        tx.scenario,
        tx.units,
        _ext_tx(tx),
        tx.round,
        tx.turn_no,
        tx.contacts["blue"] if tx.strict_fog else None,
    )


def _set(tx: Tx, **changes: Any) -> None:
    """Replace keys of the module's game-level state (None removes a key)."""
    new = dict(tx.ext(MODULE) or {})
    for key, value in changes.items():
        if value is None:
            new.pop(key, None)
        else:
            new[key] = value
    tx.set_ext(MODULE, new or None)


def _unit_mark(unit: UnitState) -> Mapping[str, Any]:
    value: Mapping[str, Any] = unit.ext.get(MODULE) or {}
    return value


def _set_mark(tx: Tx, uid: str, **changes: Any) -> None:
    """Replace keys of unit ``uid``'s module state (None removes a key)."""
    new = dict(tx.unit_ext(uid, MODULE) or {})
    for key, value in changes.items():
        if value is None:
            new.pop(key, None)
        else:
            new[key] = value
    tx.set_unit_ext(uid, MODULE, new or None)


def _is_hidden(tx: Tx, unit: UnitState) -> bool:
    """HIDDEN (R-MOR-3) as the abilities module keeps it (False without that module in
    the game's ruleset)."""
    api = tx.cache.rules.api(AbilitiesApi)
    return api is not None and api.is_hidden(unit)


# --------------------------------------------------------------------------- who commands


_SEATS_KEY = "company.seats"


def _seats_of(scenario: Scenario) -> tuple[dict[str, str | None], str]:
    """Per scenario (immutable), kept with the scenario object: each Blue seat's leader
    unit and the CO seat."""
    store = scenario.rule_caches
    hit: tuple[Scenario, dict[str, str | None], str] | None = store.get(_SEATS_KEY)
    if hit is None or hit[0] is not scenario:
        leaders = {seat.id: _find_seat_leader(scenario, seat.id) for seat in scenario.blue.seats}
        hit = (scenario, leaders, _find_co_seat(scenario))
        store[_SEATS_KEY] = hit
    return hit[1], hit[2]


def _seat_leader(scenario: Scenario, seat_id: str) -> str | None:
    """The leader unit id of a Blue seat as the scenario names it (or the first unit of
    the seat whose card has the seat's role)."""
    return _seats_of(scenario)[0].get(seat_id)


def _find_seat_leader(scenario: Scenario, seat_id: str) -> str | None:
    for seat in scenario.blue.seats:
        if seat.id != seat_id:
            continue
        if seat.leader is not None:
            return seat.leader
        for placement in seat.units:
            card = scenario.cards.get(placement.card)
            if card is not None and card.role == seat.role:
                return placement.id
        return None
    return None


def _original_co_seat(scenario: Scenario) -> str:
    return _seats_of(scenario)[1]


def _find_co_seat(scenario: Scenario) -> str:
    for seat in scenario.blue.seats:
        if seat.role == "company_commander":
            return seat.id
    return "co"  # pragma: no cover - the scenario loader requires exactly one CO seat


def _co_unit_w(w: _W) -> str | None:
    if w.co.promoted_seat is not None:
        uid = w.co.promoted_unit
    else:
        uid = _seat_leader(w.scenario, _original_co_seat(w.scenario))
    return uid if uid is not None and uid in w.units else None


def _co_seat_w(w: _W) -> str | None:
    if _co_unit_w(w) is None:
        return None
    seat: str = w.co.promoted_seat or _original_co_seat(w.scenario)
    return seat


def co_seat(state: GameState) -> str | None:
    """The Blue seat that is the company commander now: the scenario's CO seat, after a
    field promotion the promoted unit's seat (R-LINK-3); None while the company has no
    commander (the CO unit is lost and nobody is promoted yet, or it is leaderless)."""
    return _co_seat_w(_w(state))


def co_unit(state: GameState) -> str | None:
    """The unit id of the company commander now (None when there is none)."""
    return _co_unit_w(_w(state))


def promoted(state: GameState) -> bool:
    """A field-promoted CO commands the company now (R-LINK-3: two pools)."""
    return _ext(state).promoted_seat is not None and co_unit(state) is not None


def leaderless(state: GameState) -> bool:
    """The company has no commander now (lost and not yet replaced, or for good)."""
    return co_unit(state) is None


def platoon_leader_unit(state: GameState, seat_id: str) -> str | None:
    """The platoon leader unit of Blue seat ``seat_id`` if it is on the map."""
    uid = _seat_leader(state.scenario, seat_id)
    return uid if uid is not None and uid in state.units else None


def _candidates(w: _W) -> list[str]:
    """Seats whose own leader unit is alive (who may be promoted, R-LINK-3)."""
    out = []
    for seat in w.scenario.blue.seats:
        uid = _seat_leader(w.scenario, seat.id)
        if uid is not None and uid in w.units and seat.role == "platoon_leader":
            out.append(seat.id)
    return out


# --------------------------------------------------------------------------- command link


def _in_combat(w: _W, uid: str, cell: Cell) -> bool:
    """R-LINK-1 DEFAULT "in combat", for Red unit ``uid`` that Blue has SPOTTED at
    ``cell``: it stands in a Blue unit's ZoC, or has fired or been fired at this round."""
    combat = w.co.combat
    if combat and combat.get(uid) == w.round:
        return True
    r = w.opts.zoc_radius
    return any(chebyshev(u.cell, cell) <= r for u in w.units.values() if u.side == "blue")


def _line_blocked(w: _W, a: Cell, b: Cell) -> bool:
    """Whether an enemy unit stands on the straight line between ``a`` and ``b`` as the
    company knows it (R-LINK-1, ``link_blocker``): only Red units Blue has SPOTTED, at
    their SPOTTED cells — an unseen enemy changes neither the link nor the KP it gives
    (issue 8; docs/rules-readings.md). Legacy-seed games keep the true cells."""
    mode = w.opts.link_blocker
    if mode == "none":
        return False
    cells = set(line_cells(a, b))
    if not cells:
        return False
    if w.seen is None:  # legacy-seed games: the true cells (as they were played)
        return any(
            u.side == "red"
            and u.cell in cells
            and (mode == "any_enemy_on_line" or _in_combat(w, u.id, u.cell))
            for u in w.units.values()
        )
    for uid, contact in w.seen.items():
        cell = contact.cell
        if contact.level != ContactLevel.SPOTTED or cell is None or cell not in cells:
            continue
        if uid in w.units and (mode == "any_enemy_on_line" or _in_combat(w, uid, cell)):
            return True
    return False


def _pos_link(w: _W, who: str) -> bool:
    """Whether unit ``who`` itself stands in link with the CO unit (no restoration)."""
    if w.links is None:
        return _pos_link_now(w, who)
    hit = w.links.get(who)
    if hit is None:
        hit = w.links[who] = _pos_link_now(w, who)
    return hit


def _pos_link_now(w: _W, who: str) -> bool:
    co = _co_unit_w(w)
    if co is None:
        return False
    if who == co:
        return True
    a = w.units[who].cell
    b = w.units[co].cell
    if chebyshev(a, b) > w.opts.link_range:
        return False
    return not _line_blocked(w, a, b)


def _restored(w: _W, seat_id: str) -> bool:
    restored = w.co.restored
    return restored.get(seat_id) == w.turn_no


def _seat_link_w(w: _W, seat_id: str) -> bool:
    """A Blue seat's link: its platoon leader's while that unit lives; without it, any
    of its units in link (DEFAULT); the CO's own seat is always in link while there is a
    CO; a link restored this turn holds (R-LINK-2)."""
    if _co_unit_w(w) is None:
        return False
    if seat_id == _co_seat_w(w) or _restored(w, seat_id):
        return True
    leader = _seat_leader(w.scenario, seat_id)
    if leader is not None and leader in w.units:
        return _pos_link(w, leader)
    return any(_pos_link(w, u.id) for u in w.units.values() if u.group == seat_id)


def _unit_link_w(w: _W, unit_id: str) -> bool:
    unit = w.units.get(unit_id)
    if unit is None:
        return False
    if unit.side == "red":
        return True
    co = _co_unit_w(w)
    if co is None:
        return False
    if unit.group == _co_seat_w(w) or _restored(w, unit.group):
        return True
    leader = _seat_leader(w.scenario, unit.group)
    who = leader if leader is not None and leader in w.units else unit_id
    return _pos_link(w, who)


def in_command_link(state: GameState, unit_id: str) -> bool:
    """Whether unit ``unit_id`` is in command link (R-LINK-1/2).

    Red never uses the link rule: True. A Blue unit is in link when its platoon leader
    (the unit itself when that leader is gone) is within ``link_range`` of the CO unit and
    no enemy unit blocks the straight line between them (``link_blocker``), or when the
    CO restored that platoon's link this turn (R-LINK-2). The CO's own seat's units are
    in link. Without a company commander nobody is. A unit not on the map is not."""
    return _unit_link_w(_w(state), unit_id)


def seat_in_link(state: GameState, seat_id: str) -> bool:
    """Whether Blue seat ``seat_id`` (its platoon leader) is in command link now."""
    return _seat_link_w(_w(state), seat_id)


def restored_this_turn(state: GameState, seat_id: str) -> bool:
    """A link of seat ``seat_id`` restored by the CO this turn (R-LINK-2)."""
    return _restored(_w(state), seat_id)


# --------------------------------------------------------------------------- company pool


def company_kp(state: GameState) -> int:
    """KP the company commander has for company-level actions now: the CO seat's pool,
    or a promoted CO's separate company pool (R-LINK-3)."""
    w = _w(state)
    seat = _co_seat_w(w)
    if seat is None:
        return 0
    if w.co.promoted_seat is not None:
        return w.co.company_kp or 0
    return state.kp.get(seat, 0)


def company_cost(state: GameState, seat: str, cost: int) -> int:
    """For a company-level order of ``seat`` costing ``cost`` KP: the ``Plan.cost`` the
    engine should take from the seat (``cost`` normally; 0 after a field promotion, when
    the order is paid from the separate company pool by :func:`pay_company` in
    ``execute``). Raises IllegalOrderError if ``seat`` is not the CO seat or a promoted
    CO's company pool cannot pay."""
    w = _w(state)
    _require_co_w(w, state, seat)
    if w.co.promoted_seat is None:
        return cost
    have = w.co.company_kp or 0
    if have < cost:
        raise _illegal(
            f"the company pool has {have} KP left, the order costs {cost} (R-LINK-3)",
            f"komppaniapoolissa on {have} KP jäljellä, käsky maksaa {cost} (R-LINK-3)",
        )
    return 0


def pay_company(tx: Tx, cost: int) -> None:
    """Pay a company-level order from a promoted CO's company pool (call from
    ``execute`` after :func:`company_cost`; does nothing before a promotion, when the
    engine has already taken the KP from the CO seat)."""
    co = _ext_tx(tx)
    if co.promoted_seat is None or cost <= 0:
        return
    left = (co.company_kp or 0) - cost
    assert left >= 0
    _set(tx, company_kp=left)
    tx.emit(
        "kp",
        {"seat": co.promoted_seat, "pool": "company", "kp": left},
        {"blue": {"seat": co.promoted_seat, "pool": "company", "kp": left}},
    )


# --------------------------------------------------------------------------- checks


def _illegal(en: str, fi: str) -> IllegalOrderError:
    return IllegalOrderError(en, fi)


def _require_co_w(w: _W, state: GameState, seat: str) -> str:
    """The CO unit id, if ``seat`` is the CO seat and may use commander abilities."""
    cs = _co_seat_w(w)
    if cs is None:
        raise _illegal(
            "the company has no commander now (R-LINK-3)",
            "komppanialla ei ole nyt päällikköä (R-LINK-3)",
        )
    if seat != cs:
        raise _illegal(
            f"only the company commander's seat ({cs}) may give this order",
            f"vain komppanianpäällikön paikka ({cs}) voi antaa tämän käskyn",
        )
    co = _co_unit_w(w)
    assert co is not None
    unit = w.units[co]
    if unit.comms_until is not None and unit.comms_until >= state.turn_no:
        raise _illegal(
            f"{co} has a communications break: no commander abilities this turn (R-ATK-6)",
            f"{co}: viestiyhteys poikki, ei päällikön kykyjä tässä vuorossa (R-ATK-6)",
        )
    return co


def _blue_seat(state: GameState, ref: str | None) -> str:
    if ref is None or ref not in state.seats("blue"):
        raise _illegal(
            f"unknown seat {ref!r} (seats: {', '.join(state.seats('blue'))})",
            f"tuntematon paikka {ref!r} (paikat: {', '.join(state.seats('blue'))})",
        )
    return ref


def _need_link(w: _W, action: str, seat_id: str) -> None:
    if action in w.opts.co_link_required and not _seat_link_w(w, seat_id):
        raise _illegal(
            f"seat {seat_id} is not in command link (R-LINK-1; restore it first)",
            f"paikalla {seat_id} ei ole komentoyhteyttä (R-LINK-1; palauta se ensin)",
        )


def _blue_only(data: dict[str, Any]) -> dict[Side, dict[str, Any] | None]:
    return {"blue": data}


def _mark_order(tx: Tx) -> None:
    """Remember that Blue gave a company order this turn (R-CO-4 "before other orders")."""
    if _ext_tx(tx).order_turn != tx.turn_no:
        _set(tx, order_turn=tx.turn_no)


def _used_tactic(tx: Tx, name: str) -> None:
    used = [*(list(t) for t in _ext_tx(tx).tactics_used), [tx.turn_no, name]]
    _set(tx, tactic_turn=tx.turn_no, tactics_used=used)


# --------------------------------------------------------------------------- transfer


def _check_transfer(state: GameState, seat: str, side: Side, order: Order) -> Plan:
    w = _w(state)
    _require_co_w(w, state, seat)
    target = _blue_seat(state, seat_of(order))
    if target == seat:
        raise _illegal(
            "the company commander cannot transfer KP to its own seat",
            "päällikkö ei voi siirtää KP:ta omalle paikalleen",
        )
    transfers = w.co.transfers
    if transfers.get(target) == state.turn_no:
        raise _illegal(
            f"seat {target} has already received a KP transfer this turn (R-CO-2)",
            f"paikka {target} on jo saanut KP-siirron tässä vuorossa (R-CO-2)",
        )
    _need_link(w, "kp_transfer", target)
    leader = platoon_leader_unit(state, target)
    if leader is not None and _cut_off(state.units[leader], state.turn_no):
        raise _illegal(
            f"{leader} has a communications break: it cannot receive KP (R-ATK-6)",
            f"{leader}: viestiyhteys poikki, ei voi vastaanottaa KP:ta (R-ATK-6)",
        )
    cost = state.scenario.options.kp_transfer
    return Plan(cost=company_cost(state, seat, cost), data=(target, cost))


def _exec_transfer(tx: Tx, seat: str, order: Order, plan: Plan) -> None:
    target, cost = plan.data
    pay_company(tx, cost)
    tx.kp[target] = tx.kp.get(target, 0) + 1
    _note_this_turn(tx, "transfers", target)
    _mark_order(tx)
    data = {"from": seat, "to": target, "kp": tx.kp[target]}
    tx.emit("kp_transfer", data, _blue_only(data))


def _note_this_turn(tx: Tx, key: str, seat: str) -> None:
    """Record ``seat`` in the per-turn seat record ``key`` (KP transfers, restored links),
    dropping entries of earlier turns."""
    record = {k: v for k, v in _ext_tx(tx).seat_record(key).items() if v == tx.turn_no}
    record[seat] = tx.turn_no
    _set(tx, **{key: record})


def _legal_transfer(state: GameState, seat: str, side: Side) -> Iterable[Order]:
    if side != "blue" or seat != co_seat(state):
        return []
    return _passing(state, seat, side, [transfer_order(s) for s in state.seats("blue")])


# --------------------------------------------------------------------------- restore


def _check_restore(state: GameState, seat: str, side: Side, order: Order) -> Plan:
    w = _w(state)
    co = _require_co_w(w, state, seat)
    target = _blue_seat(state, seat_of(order))
    if target == seat or _seat_link_w(w, target):
        raise _illegal(
            f"seat {target} is in command link already",
            f"paikalla {target} on jo komentoyhteys",
        )
    cost = state.scenario.options.kp_link_restore
    return Plan(cost=company_cost(state, seat, cost), data=(target, cost, co))


def _exec_restore(tx: Tx, seat: str, order: Order, plan: Plan) -> None:
    target, cost, co = plan.data
    pay_company(tx, cost)
    _mark_order(tx)
    tx.take_rolls()
    dc = tx.opts.link_restore_dc
    skill = tx.cache.skill(tx.unit(co))
    roll = tx.roller.d20("link_restore", modifier=skill)
    success = roll.total >= dc
    if success:
        _note_this_turn(tx, "restored", target)
    data = {
        "seat": target,
        "unit": co,
        "dc": dc,
        "total": roll.total,
        "success": success,
        "rolls": tx.take_rolls(),
    }
    tx.emit("link_restore", data, _blue_only(data))


def _legal_restore(state: GameState, seat: str, side: Side) -> Iterable[Order]:
    if side != "blue" or seat != co_seat(state):
        return []
    return _passing(state, seat, side, [restore_order(s) for s in state.seats("blue")])


# --------------------------------------------------------------------------- tactics


def _check_tactic(state: GameState, seat: str, side: Side, order: Order) -> Plan:
    w = _w(state)
    opts = w.opts
    co = _require_co_w(w, state, seat)
    if w.co.tactic_turn == state.turn_no:
        raise _illegal(
            "a company tactic has already been used this turn (one per turn, R-CO-1)",
            "komppanian taktiikkaa on jo käytetty tässä vuorossa (yksi vuorossa, R-CO-1)",
        )
    tactic = tactic_of(order)
    assert tactic is not None
    name = tactic.name
    if name == "motti":
        if w.co.motti_used:
            raise _illegal(
                "Mottitaktiikka has already been used in this battle (once per battle, R-CO-1)",
                "Mottitaktiikkaa on jo käytetty tässä taistelussa (kerran taistelussa, R-CO-1)",
            )
        cell = order.cell
        gmap = state.scenario.map
        if cell is None or not gmap.in_bounds(cell):
            where = "?" if cell is None else f"{cell[0]},{cell[1]}"
            raise _illegal(
                f"cell {where} is off the map ({gmap.width}×{gmap.height})",
                f"ruutu {where} on kartan ulkopuolella ({gmap.width}×{gmap.height})",
            )
        cost = opts.kp_motti
        data: Any = (name, cost, cell)
    elif name in ("painopiste", "sitova"):
        target = _blue_seat(state, seat_of(order))
        if not any(u.group == target for u in state.units.values()):
            raise _illegal(
                f"seat {target} has no units left",
                f"paikalla {target} ei ole enää yksiköitä",
            )
        _need_link(w, "painopiste" if name == "painopiste" else "sitova_tuli", target)
        cost = opts.kp_painopiste if name == "painopiste" else opts.kp_sitova_tuli
        data = (name, cost, target)
    elif name == "vetaytyminen":
        units = tactic.units
        most = opts.organised_withdrawal_units
        if not 1 <= len(units) <= most or len(set(units)) != len(units):
            raise _illegal(
                f"Järjestäytynyt vetäytyminen names 1–{most} different units",
                f"Järjestäytynyt vetäytyminen nimeää 1–{most} eri yksikköä",
            )
        co_cell = state.units[co].cell
        radius = opts.organised_withdrawal_radius
        for uid in units:
            u = state.units.get(uid)
            if u is None or u.side != "blue":
                raise _illegal(
                    f"you have no unit {uid!r}",
                    f"sinulla ei ole yksikköä {uid!r}",
                )
            if chebyshev(u.cell, co_cell) > radius:
                raise _illegal(
                    f"{uid} is farther than {radius} cells from the company commander (R-CO-1)",
                    f"{uid} on yli {radius} ruudun päässä päälliköstä (R-CO-1)",
                )
            if u.action is not None or u.retreating is not None:
                raise _illegal(
                    f"{uid} already has its order this turn or is RETREATING",
                    f"{uid} on jo saanut käskynsä tässä vuorossa tai vetäytyy",
                )
            if "organised_withdrawal" in opts.co_link_required and not _unit_link_w(w, uid):
                raise _illegal(
                    f"{uid} is not in command link (R-LINK-1)",
                    f"yksiköllä {uid} ei ole komentoyhteyttä (R-LINK-1)",
                )
        cost = opts.kp_organised_withdrawal
        data = (name, cost, tuple(units))
    else:  # pragma: no cover - the parser knows the tactic names
        raise _illegal(f"unknown tactic {name!r}", f"tuntematon taktiikka {name!r}")
    return Plan(cost=company_cost(state, seat, cost), data=data)


def _exec_tactic(tx: Tx, seat: str, order: Order, plan: Plan) -> None:
    name, cost, arg = plan.data
    pay_company(tx, cost)
    _mark_order(tx)
    _used_tactic(tx, name)
    if name == "motti":
        _motti(tx, arg)
        return
    if name in ("painopiste", "sitova"):
        _set(tx, **{name: {"seat": arg, "turn": tx.turn_no}})
        data = {"tactic": name, "seat": arg}
        tx.emit("tactic", data, _blue_only(data))
        return
    flagged = list(_ext_tx(tx).flagged)
    for uid in arg:
        _set_mark(tx, uid, ow=tx.turn_no)
        if uid not in flagged:
            flagged.append(uid)
    _set(tx, flagged=flagged)
    data = {"tactic": name, "units": list(arg)}
    tx.emit("tactic", data, _blue_only(data))


def _motti(tx: Tx, cell: Cell) -> None:
    """R-CO-1 Mottitaktiikka: every Red unit within the radius (hidden ones excepted)
    tests morale; any failure → RETREATING. Blue's event names only the area; what Blue
    learns of each test is what its contacts allow (the morale events' redaction)."""
    opts = tx.opts
    dc = opts.motti_morale_dc
    radius = opts.motti_radius
    _set(tx, motti_used=True)
    victims = sorted(
        u.id
        for u in tx.units.values()
        if u.side == "red" and chebyshev(u.cell, cell) <= radius and not _is_hidden(tx, u)
    )
    public = {"tactic": "motti", "cell": list(cell), "radius": radius, "dc": dc}
    tx.emit("tactic", {**public, "units": victims}, {"blue": public, "red": {**public}})
    for uid in victims:
        before = tx.units.get(uid)
        if before is None:
            continue
        outcome = status.morale_test(tx, uid, dc, "motti")
        if outcome is None or outcome in (MoraleOutcome.PASS, MoraleOutcome.RETREATING):
            continue
        if uid not in tx.units:
            continue
        # Any failure → RETREATING (the lesser status of this test is replaced).
        tx.update(uid, shaken=None, suppressed=None, retreating=tx.turn_no, status_dc=dc)
        tx.unit_event(
            "status",
            uid,
            {"status": "RETREATING", "on": True, "reason": "motti"},
            spotted_keys=("status", "on", "reason"),
        )


def _legal_tactic(state: GameState, seat: str, side: Side) -> Iterable[Order]:
    if side != "blue" or seat != co_seat(state):
        return []
    co = _ext(state)
    if co.tactic_turn == state.turn_no:
        return []
    cands: list[Order] = []
    if not co.motti_used:
        for c in sorted(state.contacts["blue"].values(), key=lambda c: c.label):
            if c.cell is not None:
                cands.append(tactic_order("motti", cell=c.cell))
            elif c.area is not None:
                x0, y0, size = c.area
                cands.append(tactic_order("motti", cell=(x0 + size // 2, y0 + size // 2)))
    for s in state.seats("blue"):
        cands.append(tactic_order("painopiste", seat=s))
        cands.append(tactic_order("sitova", seat=s))
    for u in sorted(state.units_of("blue"), key=lambda u: u.id):
        if u.action is None:
            cands.append(tactic_order("vetaytyminen", units=(u.id,)))
    # Two contacts may share a cell (or an area centre): list each order once.
    return _passing(state, seat, side, list(dict.fromkeys(cands)))


# --------------------------------------------------------------------------- confirm


def _check_confirm(state: GameState, seat: str, side: Side, order: Order) -> Plan:
    w = _w(state)
    _require_co_w(w, state, seat)
    target = order.target or ""
    c = state.contacts[side].get(target)
    if c is None or c.level != ContactLevel.SPOTTED or c.cell is None:
        raise _illegal(
            f"{target} is not a SPOTTED enemy unit (R-CO-5)",
            f"{target} ei ole havaittu vihollisyksikkö (R-CO-5)",
        )
    confirmed = w.co.confirmed
    if target in confirmed:
        raise _illegal(
            f"{target} is already a confirmed target",
            f"{target} on jo vahvistettu maali",
        )
    cache = cache_for(state)
    linked = "confirmed_target" in w.opts.co_link_required
    groups = {
        u.group
        for u in state.units_of("blue")
        if cache.sees(u.cell, c.cell) and (not linked or _unit_link_w(w, u.id))
    }
    if len(groups) < 2:
        raise _illegal(
            f"{target} must be seen by own units of two different platoons (R-CO-5)",
            f"kahden eri joukkueen yksiköiden on nähtävä {target} (R-CO-5)",
        )
    cost = w.opts.kp_confirmed_target
    return Plan(cost=company_cost(state, seat, cost), data=(target, cost))


def _exec_confirm(tx: Tx, seat: str, order: Order, plan: Plan) -> None:
    target, cost = plan.data
    pay_company(tx, cost)
    _mark_order(tx)
    confirmed = dict(_ext_tx(tx).confirmed)
    confirmed[target] = tx.opts.confirmed_target_bonus
    _set(tx, confirmed=confirmed)
    data = {"target": target, "bonus": confirmed[target]}
    tx.emit("confirmed_target", data, _blue_only(data))


def _legal_confirm(state: GameState, seat: str, side: Side) -> Iterable[Order]:
    if side != "blue" or seat != co_seat(state):
        return []
    cands = [
        confirm_order(uid)
        for uid, c in sorted(state.contacts["blue"].items())
        if c.level == ContactLevel.SPOTTED
    ]
    return _passing(state, seat, side, cands)


# --------------------------------------------------------------------------- report


def _first_blue_turn(state: GameState) -> int:
    return 1 if state.scenario.first_side == "blue" else 2


def _check_report(state: GameState, seat: str, side: Side, order: Order) -> Plan:
    w = _w(state)
    co = _require_co_w(w, state, seat)
    if state.turn_no != _first_blue_turn(state):
        raise _illegal(
            "the recon report is made only in Blue's first command phase (R-CO-4)",
            "tiedusteluraportti tehdään vain sinisen ensimmäisessä komentovaiheessa (R-CO-4)",
        )
    if w.co.report_done:
        raise _illegal(
            "the recon report has already been made (once per battle, R-CO-4)",
            "tiedusteluraportti on jo tehty (kerran taistelussa, R-CO-4)",
        )
    acted = any(
        u.action is not None or u.moved or u.reconned or u.fired for u in state.units_of("blue")
    )
    if acted or state.done or w.co.order_turn == state.turn_no:
        raise _illegal(
            "the recon report comes before Blue's other orders of the turn (R-CO-4)",
            "tiedusteluraportti tehdään ennen sinisen muita käskyjä (R-CO-4)",
        )
    cell = order.cell
    gmap = state.scenario.map
    if cell is None or not gmap.in_bounds(cell):
        where = "?" if cell is None else f"{cell[0]},{cell[1]}"
        raise _illegal(
            f"cell {where} is off the map ({gmap.width}×{gmap.height})",
            f"ruutu {where} on kartan ulkopuolella ({gmap.width}×{gmap.height})",
        )
    return Plan(cost=0, data=(cell, co))


def _exec_report(tx: Tx, seat: str, order: Order, plan: Plan) -> None:
    cell, co = plan.data
    _set(tx, report_done=True)
    _mark_order(tx)
    tx.take_rolls()
    dc = tx.opts.recon_report_dc
    roll = tx.roller.d20("recon_report", modifier=tx.cache.skill(tx.unit(co)))
    success = roll.total >= dc
    rolls = tx.take_rolls()
    found: str | None = None
    if success:
        reds = [u for u in tx.units.values() if u.side == "red" and not _is_hidden(tx, u)]
        if reds:
            found = min(reds, key=lambda u: (chebyshev(u.cell, cell), u.id)).id
    data: dict[str, Any] = {
        "cell": list(cell),
        "unit_co": co,
        "dc": dc,
        "total": roll.total,
        "success": success,
        "rolls": rolls,
        "unit": found,
    }
    if found is not None:
        recon = dict(_ext_tx(tx).reconnoitred)
        recon[found] = False
        _set(tx, reconnoitred=recon)
        tx.set_contact("blue", found, ContactLevel.KNOWN)
    blue = {k: v for k, v in data.items() if k != "unit"}
    if found is not None:
        blue["unit"] = tx.ref("blue", found)
    vis: dict[Side, dict[str, Any] | None] = {"blue": blue}
    if found is not None:
        vis["red"] = {"unit": found, "reconnoitred": True}
    tx.emit("recon_report", data, vis)


def _legal_report(state: GameState, seat: str, side: Side) -> Iterable[Order]:
    if side != "blue" or seat != co_seat(state) or state.turn_no != _first_blue_turn(state):
        return []
    gmap = state.scenario.map
    cands = [report_order((gmap.width // 2, gmap.height // 2))]
    return _passing(state, seat, side, cands)


# --------------------------------------------------------------------------- promote


def _check_promote(state: GameState, seat: str, side: Side, order: Order) -> Plan:
    w = _w(state)
    lost = w.co.co_lost
    if side != "blue" or lost is None:
        raise _illegal(
            "no field promotion is due (the company commander is not lost)",
            "kenttäylennys ei ole ajankohtainen (päällikkö ei ole menetetty)",
        )
    if w.co.leaderless:
        raise _illegal(
            "the company is leaderless for the rest of the battle (R-LINK-3)",
            "komppania on johdoton taistelun loppuun (R-LINK-3)",
        )
    if lost >= state.turn_no:
        raise _illegal(
            "the new company commander is appointed at the start of Blue's next command "
            "phase (R-LINK-3)",
            "uusi päällikkö nimitetään sinisen seuraavan komentovaiheen alussa (R-LINK-3)",
        )
    target = _blue_seat(state, seat_of(order))
    if target not in _candidates(w):
        raise _illegal(
            f"seat {target} has no surviving platoon leader to promote",
            f"paikalla {target} ei ole eloonjäänyttä joukkueenjohtajaa ylennettäväksi",
        )
    leader = _seat_leader(state.scenario, target)
    return Plan(cost=0, data=(target, leader))


def _exec_promote(tx: Tx, seat: str, order: Order, plan: Plan) -> None:
    target, leader = plan.data
    pool = tx.opts.kp_promoted_company
    _set(tx, promoted_seat=target, promoted_unit=leader, company_kp=pool, co_lost=None)
    data = {"seat": target, "unit": leader, "company_kp": pool, "by": seat}
    tx.emit("promoted", data, _blue_only(data))


def _legal_promote(state: GameState, seat: str, side: Side) -> Iterable[Order]:
    if side != "blue" or _ext(state).co_lost is None:
        return []
    return _passing(state, seat, side, [promote_order(s) for s in state.seats("blue")])


def _passing(state: GameState, seat: str, side: Side, orders: list[Order]) -> list[Order]:
    """The orders of ``orders`` that pass their check and the seat can pay."""
    out = []
    have = state.kp.get(seat, 0)
    for o in orders:
        handler = cache_for(state).rules.handler(o.kind)
        if handler is None:
            continue
        try:
            plan = handler.check(state, seat, side, o)
        except IllegalOrderError:
            continue
        if plan.cost <= have:
            out.append(o)
    return out


# --------------------------------------------------------------------------- base orders


def _cut_off(unit: UnitState | None, turn_no: int) -> bool:
    """R-ATK-6 communications break: the unit cannot receive or benefit from any commander
    ability (004: "Se ei voi vastaanottaa tai hyötyä mistään komentajan kyvyistä (esim.
    KP-siirto, taktiikat)"; docs/rules-readings.md)."""
    return unit is not None and unit.comms_until is not None and unit.comms_until >= turn_no


def _pp_applies(co: CompanyState, unit: UnitState, turn_no: int) -> bool:
    pp = co.seat_tactic("painopiste")
    return (
        pp is not None
        and pp.turn == turn_no
        and unit.side == "blue"
        and unit.group == pp.seat
        and not _cut_off(unit, turn_no)
    )


def _wrap_attack(base: OrderHandler) -> OrderHandler:
    """Painopisteen muodostaminen: the platoon's units get +bonus movement when given an
    attack order (the flag ``pp_on`` is set only while the attack is checked and
    executed; ``movement_allowance`` reads it)."""

    def check(state: GameState, seat: str, side: Side, order: Order) -> Plan:
        co = _ext(state)
        unit = state.units.get(order.unit or "")
        if co and unit is not None and _pp_applies(co, unit, state.turn_no):
            mark = {**_unit_mark(unit), "pp_on": True}
            flagged = dataclasses.replace(unit, ext={**unit.ext, MODULE: mark})
            state = dataclasses.replace(state, units={**state.units, unit.id: flagged})
        return base.check(state, seat, side, order)

    def execute(tx: Tx, seat: str, order: Order, plan: Plan) -> None:
        co = _ext_tx(tx)
        uid = order.unit or ""
        unit = tx.units.get(uid)
        on = bool(co) and unit is not None and _pp_applies(co, unit, tx.turn_no)
        if on:
            _set_mark(tx, uid, pp_on=True)
        base.execute(tx, seat, order, plan)
        if on and uid in tx.units:
            _set_mark(tx, uid, pp_on=None)

    return dataclasses.replace(base, check=check, execute=execute, legal=None, module=MODULE)


def _wrap_withdraw(base: OrderHandler) -> OrderHandler:
    """Järjestäytynyt vetäytyminen: the named units withdraw without KP."""

    def check(state: GameState, seat: str, side: Side, order: Order) -> Plan:
        plan = base.check(state, seat, side, order)
        unit = plan.unit
        if (
            unit is not None
            and _unit_mark(unit).get("ow") == state.turn_no
            and not _cut_off(unit, state.turn_no)
        ):
            return dataclasses.replace(plan, cost=0)
        return plan

    return dataclasses.replace(base, check=check, legal=None, module=MODULE)


# --------------------------------------------------------------------------- hooks


def _kp_refill(tx: Tx, side: Side, seat: str, amount: int) -> int:
    """R-KP-1, R-LINK-2, R-LINK-3: out-of-link platoon leaders get ``kp_out_of_link``;
    after a field promotion the promoted seat gets its platoon pool and the old CO seat
    plays as a platoon leader; without a CO the CO seat is a platoon leader too."""
    if side != "blue":
        return amount
    w = _wt(tx)
    opts = tx.opts
    promoted_seat = w.co.promoted_seat
    current = _co_seat_w(w)
    if seat == current:
        return opts.kp_promoted_platoon if promoted_seat == seat else amount
    if seat == _original_co_seat(w.scenario):
        amount = opts.kp_platoon_leader
    if not _seat_link_w(w, seat):
        amount = min(amount, opts.kp_out_of_link)
    return amount


def _turn_start(tx: Tx, side: Side) -> None:
    if side != "blue":
        return
    w = _wt(tx)
    if w.co.promoted_seat is not None and _co_unit_w(w) is not None:
        pool = tx.opts.kp_promoted_company
        _set(tx, company_kp=pool)
        data = {"seat": w.co.promoted_seat, "pool": "company", "kp": pool}
        tx.emit("kp", data, _blue_only(data))
    current = _co_seat_w(w)
    out = [s.id for s in tx.scenario.blue.seats if s.id != current and not _seat_link_w(w, s.id)]
    if out:
        data2: dict[str, Any] = {"out_of_link": out}
        tx.emit("command_link", data2, _blue_only(data2))


def _turn_end(tx: Tx, side: Side) -> None:
    if side != "blue":
        return
    co = _ext_tx(tx)
    if not co:
        return
    for uid in co.flagged:
        if uid in tx.units:
            _set_mark(tx, uid, ow=None, pp_on=None)
    _set(
        tx,
        flagged=None,
        company_kp=0 if co.company_kp is not None else None,
        painopiste=None,
        sitova=None,
    )


def _destroyed(tx: Tx, unit: UnitState) -> None:
    """R-LINK-3: the CO unit is lost."""
    if unit.side != "blue":
        return
    w = _wt(tx)
    co = w.co
    if co.promoted_seat is not None:
        was_co = co.promoted_unit == unit.id
    else:
        was_co = unit.id == _seat_leader(w.scenario, _original_co_seat(w.scenario))
    if was_co:
        none_left = not _candidates(w)
        lead = none_left and tx.opts.leaderless_rest_of_battle
        _set(tx, co_lost=tx.turn_no, company_kp=None, leaderless=True if lead else None)
        data = {"unit": unit.id, "leaderless": lead}
        tx.emit("co_lost", data, _blue_only(data))
    elif (
        co.co_lost is not None
        and not co.leaderless
        and not _candidates(w)
        and tx.opts.leaderless_rest_of_battle
    ):
        _set(tx, leaderless=True)
        data = {"unit": None, "leaderless": True}
        tx.emit("co_lost", data, _blue_only(data))


def _morale(tx: Tx, unit: UnitState) -> int:
    """Sitova tuli marks, ``pinning_mark_morale_penalty`` each (R-MOR-4; consumed by this
    test), and the leaderless penalty."""
    bonus = 0
    mark = unit.ext.get(MODULE) if unit.ext else None
    if mark and mark.get("sitova"):
        bonus -= int(mark["sitova"]) * tx.opts.pinning_mark_morale_penalty
        if unit.id in tx.units:
            _set_mark(tx, unit.id, sitova=None)
    if unit.side == "blue":
        co = _ext_tx(tx)
        if co.co_lost is not None or co.leaderless:
            bonus -= tx.opts.leaderless_morale_penalty
    return bonus


def _after_attack(tx: Tx, aid: str, tid: str, data: dict[str, Any]) -> None:
    """Who is in combat this round (R-LINK-1); Sitova tuli marks (R-CO-1)."""
    co = _ext_tx(tx)
    rnd = tx.round
    combat = co.combat
    reds: list[str] = []
    for uid in (aid, tid):
        u = tx.units.get(uid)
        if u is not None and u.side == "red" and combat.get(uid) != rnd:
            reds.append(uid)
    if reds:
        fresh = {k: v for k, v in combat.items() if v == rnd}
        for uid in reds:
            fresh[uid] = rnd
        _set(tx, combat=fresh)
    sit = co.seat_tactic("sitova")
    if sit is None or sit.turn != tx.turn_no or data.get("effect") not in ("HIT", "HEAVY_HIT"):
        return
    attacker = tx.units.get(aid)
    if attacker is None or attacker.side != "blue" or attacker.group != sit.seat:
        return
    if tid not in tx.units or _cut_off(attacker, tx.turn_no):
        return
    marks = int(tx.unit_ext(tid, MODULE, {}).get("sitova", 0)) + 1
    _set_mark(tx, tid, sitova=marks)
    tx.unit_event("sitova_mark", tid, {"marks": marks}, spotted_keys=("marks",))


def _attack_mods(tx: Tx, attacker: UnitState, target: UnitState) -> tuple[int, bool, bool]:
    """R-CO-5 confirmed target: the next Blue attack against it gets the bonus."""
    co = _ext_tx(tx)
    if not co or attacker.side != "blue" or _cut_off(attacker, tx.turn_no):
        return (0, False, False)
    confirmed = co.confirmed
    if not confirmed or target.id not in confirmed:
        return (0, False, False)
    bonus = int(confirmed[target.id])
    _set(tx, confirmed={k: v for k, v in confirmed.items() if k != target.id} or None)
    return (bonus, False, False)


def _reroll(tx: Tx, attacker: UnitState, target: UnitState, effect: str) -> bool:
    """R-CO-4: the first missed Blue shot at a reconnoitred unit is rolled again."""
    co = _ext_tx(tx)
    if not co or attacker.side != "blue" or _cut_off(attacker, tx.turn_no):
        return False
    recon = co.reconnoitred
    if not recon or recon.get(target.id) is not False:
        return False
    _set(tx, reconnoitred={**recon, target.id: True})
    return True


def _movement(cache: ScenarioCache, unit: UnitState, base: int) -> int:
    if unit.ext:
        mark = unit.ext.get(MODULE)
        if mark and mark.get("pp_on"):
            return base + cache.opts.painopiste_movement_bonus
    return base


def _may_fire(cache: ScenarioCache, unit: UnitState, turn_no: int) -> bool:
    if not unit.ext:
        return False
    mark: Mapping[str, Any] = unit.ext.get(MODULE) or {}
    return mark.get("ow") == turn_no and not _cut_off(unit, turn_no)


def _view(state: GameState, viewer: str) -> dict[str, Any]:
    """Blue (and the GM) see the command structure; Red sees nothing of it."""
    if viewer == "red":
        return {}
    w = _w(state)
    co = w.co
    current = _co_seat_w(w)
    links = {s: _seat_link_w(w, s) for s in state.seats("blue") if s != current}
    out: dict[str, Any] = {
        "co_seat": current,
        "co_unit": _co_unit_w(w),
        "leaderless": co.leaderless,
        "promotion_due": co.co_lost is not None and not co.leaderless,
        "links": links,
        "restored": sorted(s for s in state.seats("blue") if _restored(w, s)),
        "transfers_this_turn": sorted(s for s, t in co.transfers.items() if t == state.turn_no),
        "tactic_this_turn": co.tactic_turn == state.turn_no,
        "tactics_used": [list(t) for t in co.tactics_used],
        "motti_used": co.motti_used,
        "report_done": co.report_done,
        "confirmed": sorted(
            uid
            for uid in co.confirmed
            if (c := state.contacts["blue"].get(uid)) is not None
            and c.level == ContactLevel.SPOTTED
        ),
        "reconnoitred": sorted(
            c.label if c.level != ContactLevel.SPOTTED else uid
            for uid in co.reconnoitred
            if (c := state.contacts["blue"].get(uid)) is not None
        ),
    }
    if co.promoted_seat is not None:
        out["company_kp"] = co.company_kp or 0
    if viewer == "gm":
        out["state"] = dict(co.raw)
    return {MODULE: out}


def view_extras_blue(state: GameState) -> dict[str, Any]:
    """What Blue's view shows of the command structure (the ``view_extras`` entry)."""
    out: dict[str, Any] = _view(state, "blue").get(MODULE, {})
    return out


# --------------------------------------------------------------------------- view section


class CommandView(ViewModel):
    """The company module's section (R-LINK, R-CO): Blue's command structure."""

    co_seat: str | None
    co_unit: str | None
    leaderless: bool
    promotion_due: bool
    links: dict[str, bool]
    restored: tuple[str, ...]
    transfers_this_turn: tuple[str, ...]
    tactic_this_turn: bool
    tactics_used: tuple[tuple[int, str], ...]
    """``[turn_no, tactic]`` per tactic used."""
    motti_used: bool
    report_done: bool
    confirmed: tuple[str, ...]
    reconnoitred: tuple[str, ...]
    company_kp: int | None = None
    """After a field promotion (R-LINK-3): the company's KP pool."""


class GMCommandView(CommandView):
    state: dict[str, Any]
    """The module's whole state (game master only)."""


def _section(state: GameState, viewer: str) -> ViewModel | None:
    """The ``command`` section: Blue's and the game master's (Red sees nothing of it)."""
    raw = _view(state, viewer).get(MODULE)
    if not raw:
        return None
    return pick(GMCommandView if viewer == "gm" else CommandView, raw)


SECTION = ViewSection("command", CommandView, GMCommandView, _section)
"""The company module's section of the views (key ``command``)."""


# --------------------------------------------------------------------------- grammar

TACTICS: dict[str, str] = {
    "motti": "cell",
    "painopiste": "seat",
    "sitova": "seat",
    "vetaytyminen": "units",
}
"""Company tactics (R-CO-1) and what each names: a cell, a seat or 1–3 units."""

TACTIC_ALIASES = {"vetäytyminen": "vetaytyminen", "sitova_tuli": "sitova"}


def tactic_usage(name: str) -> str:
    """The notation of tactic ``name``."""
    need = TACTICS.get(name, "")
    arg = {"cell": "X,Y", "seat": "SEAT", "units": "UNIT [UNIT [UNIT]]"}.get(need, "…")
    return f"tactic {name} {arg}"


def _shape_tactic(o: Order, text: str) -> None:
    """A tactic names what it needs: a cell, a seat or 1–3 units (R-CO-1)."""
    tactic = tactic_of(o)
    assert tactic is not None  # the shape's args type
    need = TACTICS.get(tactic.name)
    if need is None:
        raise bad_order(
            text,
            f"unknown tactic {tactic.name!r} (known: {', '.join(TACTICS)})",
            f"tuntematon taktiikka {tactic.name!r} (tunnetut: {', '.join(TACTICS)})",
        )
    got = (o.cell is not None, tactic.seat is not None, bool(tactic.units))
    want = (need == "cell", need == "seat", need == "units")
    if got != want or len(tactic.units) > 3:
        raise bad_order(
            text,
            f"expected `{tactic_usage(tactic.name)}`",
            f"odotettiin `{tactic_usage(tactic.name)}`",
        )


_SEAT_SHAPE = OrderShape(args=SeatArgs)


def _read_seat_order(kind: OrderKind, t: OrderTokens) -> Order:
    return Order(kind, args=SeatArgs(t.id("seat", "pelipaikan")))


def _read_tactic(kind: OrderKind, t: OrderTokens) -> Order:
    name = t.take().lower()
    name = TACTIC_ALIASES.get(name, name)
    need = TACTICS.get(name)
    if need is None:
        raise InvalidOrderError(
            f"order {t.text!r}: unknown tactic {name!r} (known: {', '.join(TACTICS)})",
            f"käsky {t.text!r}: tuntematon taktiikka {name!r} (tunnetut: {', '.join(TACTICS)})",
        )
    t.usage = tactic_usage(name)
    if need == "cell":
        return tactic_order(name, cell=t.cell())
    if need == "seat":
        return tactic_order(name, seat=t.id("seat", "pelipaikan"))
    units = [t.id()]
    while t.peek() is not None and len(units) < 3:
        units.append(t.id())
    return tactic_order(name, units=tuple(units))


def _read_confirm(kind: OrderKind, t: OrderTokens) -> Order:
    return confirm_order(t.id("target unit", "kohdeyksikön"))


def _read_report(kind: OrderKind, t: OrderTokens) -> Order:
    return report_order(t.cell())


SYNTAX: tuple[OrderSyntax, ...] = (
    module_syntax(TRANSFER, "transfer SEAT", ("siirrä", "siirra"), _read_seat_order, _SEAT_SHAPE),
    module_syntax(RESTORE, "restore SEAT", ("palauta",), _read_seat_order, _SEAT_SHAPE),
    module_syntax(
        TACTIC,
        "tactic motti X,Y | tactic painopiste|sitova SEAT | tactic vetaytyminen UNIT [UNIT [UNIT]]",
        ("taktiikka",),
        _read_tactic,
        OrderShape(cell=None, args=TacticArgs, check=_shape_tactic),
    ),
    module_syntax(CONFIRM, "confirm TARGET", ("vahvista",), _read_confirm, OrderShape(target=True)),
    module_syntax(PROMOTE, "promote SEAT", ("ylennä", "ylenna"), _read_seat_order, _SEAT_SHAPE),
    module_syntax(REPORT, "report X,Y", ("raportoi",), _read_report, OrderShape(cell=True)),
)
"""The notation of the company's orders (docs/notation.md)."""


# --------------------------------------------------------------------------- registration


def rule_module() -> RuleModule:
    """Company command (R-CO, R-LINK, R-KP) as a rule module: its order kinds, its
    extensions of ``attack`` (Painopiste) and ``withdraw`` (Järjestäytynyt vetäytyminen)
    and its hooks."""
    return RuleModule(
        MODULE,
        view=SECTION,
        orders=tuple(
            OrderHandler(kind, check, execute, legal, module=MODULE)
            for kind, check, execute, legal in (
                (TRANSFER, _check_transfer, _exec_transfer, _legal_transfer),
                (RESTORE, _check_restore, _exec_restore, _legal_restore),
                (TACTIC, _check_tactic, _exec_tactic, _legal_tactic),
                (CONFIRM, _check_confirm, _exec_confirm, _legal_confirm),
                (PROMOTE, _check_promote, _exec_promote, _legal_promote),
                (REPORT, _check_report, _exec_report, _legal_report),
            )
        ),
        extends=((OrderKind.ATTACK, _wrap_attack), (OrderKind.WITHDRAW, _wrap_withdraw)),
        syntax=SYNTAX,
        provides=(
            CommandApi(
                co_seat=co_seat,
                co_unit=co_unit,
                in_command_link=in_command_link,
                company_cost=company_cost,
                pay_company=pay_company,
                company_kp=company_kp,
            ),
        ),
        hooks=(
            ("kp_refill", _kp_refill),
            ("on_turn_start", _turn_start),
            ("on_turn_end", _turn_end),
            ("on_destroyed", _destroyed),
            ("morale_modifiers", _morale),
            ("after_attack", _after_attack),
            ("attack_modifiers", _attack_mods),
            ("attack_reroll", _reroll),
            ("movement_allowance", _movement),
            ("may_fire", _may_fire),
            ("view_extras", _view),
        ),
    )
