"""Fire direction and indirect fire (RULES.md §12: R-FD-1…5, R-ORG-1, R-OFF-1…4).

Orders (notation in docs/notation.md, readings in docs/fire-support.md):

- ``organic M X,Y by O [danger]`` — organic support unit M (ability
  ``organic_fire_support``) fires at cell X,Y, directed by observer O (ability
  ``tulenjohto``). ``kp_organic_fire`` KP from the seat of M or of O. Lands in the fire
  phase of the requesting side's next turn (``organic_delay``), no scatter.
- ``boost M`` — the side's commander adds ``kp_organic_boost`` KP in the same command
  phase: +``organic_boost_damage`` on the damage rolls of M's pending strike (R-FD-4).
- ``strike k9|mlrs X,Y by O [danger]`` — the CO's off-board request
  (``kp_fire_support_request`` KP, scenario requests), secret delay, scatter (R-OFF-1…4).

Pending strikes live in ``GameState.ext["fire_support"]``; they land in
``on_fire_phase`` of the requesting side's turn when due. Views: the GM sees everything;
the requesting side sees its strikes on the way (type, aimed cell) but not when; the other
side sees nothing until impact.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from taistelukentta.dice.roller import Roller
from taistelukentta.errors import IllegalOrderError, InvalidOrderError
from taistelukentta.grid.geometry import chebyshev
from taistelukentta.rules.combat import apply_damage_type
from taistelukentta.rules.command import payment_problem
from taistelukentta.rules.context import ScenarioCache, Tx, cache_for
from taistelukentta.rules.orders import (
    Order,
    OrderArgs,
    OrderKind,
    OrderShape,
    OrderSyntax,
    OrderTokens,
    bad_order,
    check_id,
    module_syntax,
    order_kind,
)
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.registry import OrderHandler, Plan
from taistelukentta.rules.ruleset import RuleModule
from taistelukentta.rules.sections import ViewModel, ViewSection, pick
from taistelukentta.rules.services import AbilitiesApi, CommandApi
from taistelukentta.rules.state import GM_SEAT, Contact, GameState, Side, UnitState, other_side
from taistelukentta.rules.status import damage_unit, morale_test
from taistelukentta.rules.strike_geometry import (
    Cell,
    StrikeWeapon,
    adjacent_ring,
    footprint,
    shift,
)
from taistelukentta.rules.terms import StrikeSituation, StrikeTerms, strike_terms

MODULE = "fire_support"

ORGANIC: OrderKind = order_kind("organic")
BOOST: OrderKind = order_kind("boost")
STRIKE: OrderKind = order_kind("strike")
"""The order kinds this module adds (its own, not members of the engine's ``OrderKind``)."""
OBSERVER_ABILITY = "tulenjohto"
SUPPORT_ABILITY = "organic_fire_support"
STRIKE_KINDS = ("k9", "mlrs")
STRIKE_TYPES = STRIKE_KINDS
"""Off-board support types of ``strike`` (R-OFF-1)."""


# --------------------------------------------------------------------------- orders

BY_WORDS = ("by", "tähystäjä", "tahystaja")
DANGER_WORDS = ("danger", "vaara")


@dataclass(frozen=True, slots=True)
class ObserverArgs(OrderArgs):
    """The fields of ``organic M X,Y by O [danger]`` (R-ORG-1, R-FD-5): the observer,
    and whether the request may fall on own units."""

    observer: str
    danger: bool = False

    def words(self) -> list[str]:
        return ["by", self.observer, *(["danger"] if self.danger else [])]

    def check(self, text: str) -> None:
        check_id(self.observer, text)


@dataclass(frozen=True, slots=True)
class StrikeArgs(OrderArgs):
    """The fields of ``strike k9|mlrs X,Y by O [danger]`` (R-OFF-1…4, R-FD-5): the
    strike type, the observer, and whether it may fall on own units."""

    strike: str
    observer: str
    danger: bool = False

    def head(self) -> list[str]:
        return [self.strike]

    def words(self) -> list[str]:
        return ["by", self.observer, *(["danger"] if self.danger else [])]

    def check(self, text: str) -> None:
        if self.strike not in STRIKE_TYPES:
            raise bad_order(
                text,
                f"unknown strike type {self.strike!r} (known: {', '.join(STRIKE_TYPES)})",
                f"tuntematon iskutyyppi {self.strike!r} (tunnetut: {', '.join(STRIKE_TYPES)})",
            )
        check_id(self.observer, text)


def organic_order(unit: str, cell: Cell, observer: str, *, danger: bool = False) -> Order:
    """``organic M X,Y by O [danger]``: support unit M fires at X,Y, O observing."""
    return Order(ORGANIC, unit, cell, args=ObserverArgs(observer, danger))


def boost_order(unit: str) -> Order:
    """``boost M``: +2 damage to M's pending organic strike (R-FD-4)."""
    return Order(BOOST, unit)


def strike_order(kind: str, cell: Cell, observer: str, *, danger: bool = False) -> Order:
    """``strike k9|mlrs X,Y by O [danger]``: an off-board strike request."""
    return Order(STRIKE, cell=cell, args=StrikeArgs(kind, observer, danger))


def observer_of(order: Order) -> str | None:
    """The observer of an ``organic``/``strike`` order (None for any other order)."""
    args = order.args
    return args.observer if isinstance(args, ObserverArgs | StrikeArgs) else None


def danger_of(order: Order) -> bool:
    """Whether an ``organic``/``strike`` order carries ``danger`` (R-FD-5)."""
    args = order.args
    return isinstance(args, ObserverArgs | StrikeArgs) and args.danger


def strike_type_of(order: Order) -> str | None:
    """The strike type (``k9``/``mlrs``) of a ``strike`` order (None for any other)."""
    args = order.args
    return args.strike if isinstance(args, StrikeArgs) else None


# --------------------------------------------------------------------------- module state


def _ext(state_ext: Mapping[str, Any]) -> dict[str, Any]:
    found = state_ext.get(MODULE)
    return dict(found) if found else {}


def _ext_tx(tx: Tx) -> dict[str, Any]:
    found = tx.ext(MODULE)
    return dict(found) if found else {}


def _pending(ext: Mapping[str, Any]) -> list[dict[str, Any]]:
    return list(ext.get("pending", ()))


def rounds_left(state: GameState, uid: str) -> int:
    """Organic rounds support unit ``uid`` has left (R-ORG-1; scenario secret)."""
    total = state.scenario.secrets.organic_rounds.get(uid, 0)
    used = _ext(state.ext).get("rounds_used", {}).get(uid, 0)
    return max(0, int(total) - int(used))


def requests_left(state: GameState, side: Side) -> int:
    """Off-board fire-support requests ``side`` has left (R-OFF-1). The scenario's
    requests are Blue's (a scenario has no field granting Red any)."""
    if side != "blue":
        return 0
    total = state.scenario.secrets.fire_support.off_board_requests
    used = _ext(state.ext).get("requests_used", {}).get(side, 0)
    return max(0, total - int(used))


def pending_strikes(state: GameState) -> list[dict[str, Any]]:
    """Every pending strike (GM knowledge: includes the due turn)."""
    return _pending(_ext(state.ext))


# --------------------------------------------------------------------------- company links


def _command(cache: ScenarioCache) -> CommandApi | None:
    """The company command structure, when the game's ruleset has it."""
    return cache.rules.api(CommandApi)


def _abilities(cache: ScenarioCache) -> AbilitiesApi | None:
    """Unit abilities and HIDDEN, when the game's ruleset has them."""
    return cache.rules.api(AbilitiesApi)


def commander_seat(state: GameState, side: Side) -> str | None:
    """The seat that commands ``side``: Blue's CO seat (``company.co_seat``; None while the
    company has no commander), Red's GM.

    Without the company module in the game's ruleset: the ``co`` seat."""
    if side == "red":
        return GM_SEAT
    api = _command(cache_for(state))
    if api is None:
        return "co"
    return api.co_seat(state)


def _commander_unit(state: GameState, side: Side) -> UnitState | None:
    if side == "red":
        return None
    api = _command(cache_for(state))
    if api is not None:
        found = api.co_unit(state)
        return None if found is None else state.units.get(found)
    # Without the company module: the CO seat's first unit.
    seat = commander_seat(state, side)
    mine = sorted((u for u in state.units.values() if u.seat == seat), key=lambda u: u.id)
    return mine[0] if mine else None


def _linked(state: GameState, uid: str) -> bool:
    """The observer's own command link to the CO (R-FD-1, R-LINK-1).

    Without the company module: always in link."""
    api = _command(cache_for(state))
    return True if api is None else api.in_command_link(state, uid)


def _company_cost(state: GameState, seat: str, side: Side, cost: int) -> int:
    """``Plan.cost`` of a company-level order (strike, boost): ``company.company_cost``
    (0 after a field promotion, when the separate company pool pays in ``execute``)."""
    api = _command(cache_for(state)) if side == "blue" else None
    return cost if api is None else api.company_cost(state, seat, cost)


def _pay_company(tx: Tx, side: Side, cost: int) -> None:
    """Pay from a promoted CO's company pool (``company.pay_company``; no-op before)."""
    api = _command(tx.cache) if side == "blue" else None
    if api is not None:
        api.pay_company(tx, cost)


def _commander_kp(state: GameState, seat: str, side: Side) -> int:
    """KP the commander has for company-level orders (``company.company_kp``)."""
    api = _command(cache_for(state)) if side == "blue" else None
    return state.kp.get(seat, 0) if api is None else api.company_kp(state)


def _affordable(state: GameState, seat: str, plan: Plan) -> bool:
    """The engine would accept the payment (the seat's KP, Red's battle-group cap)."""
    if not plan.cost:
        return True
    opts = cache_for(state).opts
    return payment_problem(opts, state.kp, state.group_spent, seat, plan.unit, plan.cost) is None


# --------------------------------------------------------------------------- helpers


def _illegal(en: str, fi: str) -> IllegalOrderError:
    return IllegalOrderError(en, fi)


def _cell_text(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def _on_map(cache: ScenarioCache, cell: Cell) -> bool:
    return 0 <= cell[0] < cache.map.width and 0 <= cell[1] < cache.map.height


def off_board_weapon(cache: ScenarioCache, kind: str) -> StrikeWeapon:
    """K9/MLRS with the scenario's options (R-OFF-1, R-OFF-3; ``rules.terms.strike_terms``)."""
    if kind not in STRIKE_KINDS:
        raise _illegal(
            f"unknown strike type {kind!r}; choose k9 or mlrs",
            f"tuntematon iskun tyyppi {kind!r}; valitse k9 tai mlrs",
        )
    return strike_terms(StrikeSituation("off_board", kind), cache.opts).weapon_shape()


def organic_situation(cache: ScenarioCache, support: UnitState, boost: int = 0) -> StrikeSituation:
    """The facts of an organic strike by ``support`` (its card's indirect weapon; R-ORG-1,
    R-ATK-9: against an armoured target its AT dice count in full), with the CO's boost."""
    weapon = _indirect_weapon(cache, support)
    card = cache.card(support)
    soft = weapon.damage if weapon is not None else card.stats.firepower
    dtype = weapon.damage_type if weapon is not None else "FRAG"
    if weapon is not None and weapon.at_damage:
        armoured, armoured_type = weapon.at_damage, "AT"
    else:
        armoured, armoured_type = soft, dtype
    return StrikeSituation(
        "organic",
        weapon.id if weapon is not None else card.basic_weapon.id,
        boost=boost,
        damage_soft=soft,
        damage_armoured=armoured,
        damage_type=dtype,
        armoured_damage_type=armoured_type,
    )


def skilled_observer(cache: ScenarioCache, observer: UnitState) -> bool:
    """R-FD-3: the observer's TT reaches ``skilled_observer_skill``."""
    return cache.skill(observer) >= cache.opts.skilled_observer_skill


def strike_situation(state: GameState, side: Side, order: Order) -> StrikeSituation:
    """The facts of ``side``'s ``strike``/``organic`` order as that side knows them: its
    own support unit and observer, its own best contact on the aimed cell (R-FD-1,
    R-OFF-4). ValueError when the order names no weapon or support unit of the side."""
    cache = cache_for(state)
    observer = state.units.get(observer_of(order) or "")
    skilled = observer is not None and observer.side == side and skilled_observer(cache, observer)
    if order.kind == ORGANIC:
        unit = state.units.get(order.unit or "")
        if unit is None or unit.side != side:
            raise ValueError(f"no support unit {order.unit!r} of {side}")
        return replace(organic_situation(cache, unit), skilled=skilled)
    level = ContactLevel.NONE
    if order.cell is not None:
        level = contact_level_at(state.contacts[side], order.cell)
    kind = strike_type_of(order) or ""
    if kind not in STRIKE_KINDS:
        raise ValueError(f"unknown strike type {kind!r}; choose k9 or mlrs")
    return StrikeSituation(
        "off_board",
        kind,
        contact="spotted" if level == ContactLevel.SPOTTED else "known",
        skilled=skilled,
    )


def _in_area(cell: Cell, area: tuple[int, int, int]) -> bool:
    x0, y0, size = area
    return x0 <= cell[0] < x0 + size and y0 <= cell[1] < y0 + size


def contact_level_at(contacts: Mapping[str, Contact], cell: Cell) -> ContactLevel:
    """The best contact a side has on the aimed cell: SPOTTED when a SPOTTED contact stands
    there, else the highest contact whose area holds it (R-FD-1 DEFAULT reading)."""
    best = ContactLevel.NONE
    for c in contacts.values():
        if c.level == ContactLevel.SPOTTED:
            if c.cell == cell:
                return ContactLevel.SPOTTED
        elif c.area is not None and c.level > best and _in_area(cell, c.area):
            best = c.level
    return best


def _needed_contact(cache: ScenarioCache) -> ContactLevel:
    return (
        ContactLevel.SUSPECTED
        if cache.opts.fire_direction_contact == "any"
        else (ContactLevel.KNOWN)
    )


def has_ability(cache: ScenarioCache, unit: UnitState, ability_id: str) -> bool:
    """The unit can use ``ability_id`` now: on its card and not disabled by a sniper hit
    (``AbilitiesApi.usable_ability``, R-AB-2; the card alone without the abilities
    module)."""
    api = _abilities(cache)
    if api is None:
        return cache.card(unit).has_ability(ability_id)
    return api.usable_ability(cache, unit, ability_id) is not None


def _is_hidden(tx: Tx, unit: UnitState) -> bool:
    """HIDDEN (R-MOR-3), owned by the abilities module (False without it)."""
    api = _abilities(tx.cache)
    return api is not None and api.is_hidden(unit)


def _check_observer(
    state: GameState, side: Side, oid: str | None
) -> UnitState:  # R-FD-1, R-FD-2 (legality part)
    cache = cache_for(state)
    unit = state.units.get(oid or "")
    if unit is None or unit.side != side:
        raise _illegal(f"you have no unit {oid!r}", f"sinulla ei ole yksikköä {oid!r}")
    if not has_ability(cache, unit, OBSERVER_ABILITY):
        raise _illegal(
            f"{unit.id} cannot direct fire (no Tulenjohto ability)",
            f"{unit.id} ei voi johtaa tulta (ei tulenjohtokykyä)",
        )
    if unit.strength < cache.opts.observer_min_strength:
        raise _illegal(
            f"{unit.id} is too weak to direct fire (TK {unit.strength})",
            f"{unit.id} on liian heikko johtamaan tulta (TK {unit.strength})",
        )
    # R-MOR-2/R-MOR-5: directing fire is an action (R-FD-1); a SUPPRESSED or RETREATING
    # unit takes none ("ei voi liikkua tai käyttää toimintoja"). A SHAKEN one may.
    if unit.suppressed is not None:
        raise _illegal(
            f"{unit.id} is SUPPRESSED and cannot direct fire",
            f"{unit.id} on lamautunut eikä voi johtaa tulta",
        )
    if unit.retreating is not None:
        raise _illegal(
            f"{unit.id} is RETREATING and cannot direct fire",
            f"{unit.id} vetäytyy eikä voi johtaa tulta",
        )
    if unit.comms_until is not None and unit.comms_until >= state.turn_no:
        raise _illegal(
            f"{unit.id} has lost communications this turn",
            f"{unit.id}:n viestiyhteys on poikki tällä vuorolla",
        )
    return unit


def _hidden_refusal(
    state: GameState, side: Side, observer: UnitState, cell: Cell
) -> tuple[tuple[str, str] | None, Mapping[str, Contact]]:
    """R-MOR-3 for indirect fire: a HIDDEN enemy can be targeted only when the observer
    is within ``hidden_radius`` of it (``abilities.hidden_blocks``). Only the SPOTTED
    contacts at the aimed cell count (the units the side refers to by id and aims at).
    Returns the first refusal and the side's contacts without the blocked ones."""
    contacts = state.contacts[side]
    api = _abilities(cache_for(state))
    if api is None or isinstance(state.seed, bytes):
        # New games: whether a SPOTTED enemy is HIDDEN is not the side's knowledge; the
        # strike may be ordered and a HIDDEN unit is simply not affected where it lands
        # (R-MOR-3, ``strike_hits_hidden``; issue 8).
        return None, contacts
    fn = api.hidden_blocks
    first: tuple[str, str] | None = None
    blocked: set[str] = set()
    for uid, c in sorted(contacts.items()):
        if c.level != ContactLevel.SPOTTED or c.cell != cell:
            continue
        problem = fn(state, observer, uid)
        if problem is not None:
            blocked.add(uid)
            first = first or problem
    if not blocked:
        return None, contacts
    return first, {uid: c for uid, c in contacts.items() if uid not in blocked}


def _check_target(
    state: GameState, side: Side, cell: Cell | None, observer: UnitState
) -> tuple[Cell, ContactLevel]:
    cache = cache_for(state)
    if cell is None or not _on_map(cache, cell):
        raise _illegal(f"cell {cell} is not on the map", f"ruutu {cell} ei ole kartalla")
    level = contact_level_at(state.contacts[side], cell)
    if level == ContactLevel.SPOTTED:
        hidden, usable = _hidden_refusal(state, side, observer, cell)
        if hidden is not None:
            level = contact_level_at(usable, cell)
            if level < _needed_contact(cache):
                raise _illegal(*hidden)
    if level < _needed_contact(cache):
        what_en = (
            "any contact"
            if cache.opts.fire_direction_contact == "any"
            else ("a SPOTTED enemy there or a KNOWN contact's area")
        )
        what_fi = (
            "mitään havaintoa"
            if cache.opts.fire_direction_contact == "any"
            else ("Havaittua vihollista tai Tiedossa-kontaktin aluetta")
        )
        raise _illegal(
            f"cell {_cell_text(cell)} is not a fire-direction target: needs {what_en}",
            f"ruutu {_cell_text(cell)} ei kelpaa tulenjohdon maaliksi: ei {what_fi}",
        )
    return cell, level


def _own_in(state: GameState, side: Side, cells: Iterable[Cell]) -> list[str]:
    cs = set(cells)
    return sorted(u.id for u in state.units.values() if u.side == side and u.cell in cs)


def _danger_check(state: GameState, side: Side, order: Order, cells: Iterable[Cell]) -> None:
    """R-FD-5: without ``danger`` a strike cannot be ordered onto own units (DEFAULT)."""
    if danger_of(order):
        return
    if cache_for(state).opts.danger_close_without_permission == "allowed":
        return
    own = _own_in(state, side, cells)
    if own:
        raise _illegal(
            f"own units {', '.join(own)} are in the strike area; add 'danger' to allow it",
            f"omia yksiköitä {', '.join(own)} on iskualueella; lisää 'vaara' salliaksesi",
        )


def organic_area(cache: ScenarioCache, cell: Cell) -> list[Cell]:
    """The cells an organic strike hits (R-ORG-1, ``organic_area_radius``), on the map."""
    r = cache.opts.organic_area_radius
    return [
        (cell[0] + dx, cell[1] + dy)
        for dy in range(-r, r + 1)
        for dx in range(-r, r + 1)
        if _on_map(cache, (cell[0] + dx, cell[1] + dy))
    ]


def corner_union(weapon: StrikeWeapon, aimed: Cell) -> list[Cell]:
    """Every cell the d4 corner alone can bring under an off-board strike."""
    out: set[Cell] = set()
    for corner in (1, 2, 3, 4):
        out.update(footprint(weapon, aimed, corner))
    return sorted(out, key=lambda c: (c[1], c[0]))


def _indirect_weapon(cache: ScenarioCache, unit: UnitState) -> Any:
    card = cache.card(unit)
    return next((w for w in card.weapons if w.indirect), None)


# --------------------------------------------------------------------------- scatter


@dataclass(frozen=True)
class Scatter:
    """Where an off-board strike landed and why."""

    cells: list[Cell]
    corner: int
    direction: int | None
    distance: int
    rerolled: bool


def roll_scatter(
    roller: Roller,
    weapon: StrikeWeapon,
    aimed: Cell,
    contact: str,
    *,
    scatter: str = "corner",
    known_shift: bool = True,
    reroll: bool = False,
    purpose: str = "strike:scatter",
) -> Scatter:
    """Roll R-OFF-4 scatter: d4 corner; base shift by ``scatter`` mode; with a KNOWN
    ``contact`` (and ``known_shift``) an extra d2; a d8 direction when the total shift is
    above 0. ``reroll`` (R-FD-3 variant): one scatter die rerolled — a d2 showing 2, or the
    higher die of a non-double 2d4. Same outcomes as :func:`odds.strike.strike_odds`."""
    corner = roller.roll("d4", f"{purpose}:corner").total
    rerolled = False
    base = 0
    if scatter == "corner_plus_d2":
        base = roller.roll("d2", f"{purpose}:base").total
        if reroll and base == 2:
            base = roller.roll("d2", f"{purpose}:base:reroll").total
            rerolled = True
    elif scatter == "2d4_d8_bullseye":
        a = roller.roll("d4", f"{purpose}:2d4").total
        b = roller.roll("d4", f"{purpose}:2d4").total
        if reroll and a != b:
            new = roller.roll("d4", f"{purpose}:2d4:reroll").total
            a, b = (new, b) if a >= b else (a, new)
            rerolled = True
        base = 0 if a == b else a + b
    elif scatter != "corner":
        raise ValueError(f"unknown scatter mode {scatter!r}")
    extra = 0
    if contact == "known" and known_shift:
        extra = roller.roll("d2", f"{purpose}:known").total
        if reroll and not rerolled and extra == 2:
            extra = roller.roll("d2", f"{purpose}:known:reroll").total
            rerolled = True
    distance = base + extra
    cells = footprint(weapon, aimed, corner)
    direction: int | None = None
    if distance > 0:
        direction = roller.roll("d8", f"{purpose}:direction").total
        cells = shift(cells, direction, distance)
    return Scatter(cells, corner, direction, distance, rerolled)


def delay_for(roller: Roller, kind: str, mode: str) -> tuple[int, int]:
    """R-OFF-2 delay (a secret roll): (turns, die). ``d6_table``: 1–2 → 1, 3–4 → 2,
    5–6 → 3; ``by_calibre``: 155 mm (K9; MLRS read the same) d4+1."""
    if mode == "by_calibre":
        r = roller.roll("d4", f"strike:delay:{kind}", modifier=1, secret=True)
        return r.total, r.total - 1
    r = roller.roll("d6", f"strike:delay:{kind}", secret=True)
    return (r.total + 1) // 2, r.total


# --------------------------------------------------------------------------- organic


def check_organic(state: GameState, seat: str, side: Side, order: Order) -> Plan:
    cache = cache_for(state)
    m = state.units.get(order.unit or "")
    if m is None or m.side != side:
        raise _illegal(
            f"you have no unit {order.unit!r}", f"sinulla ei ole yksikköä {order.unit!r}"
        )
    if not cache.card(m).has_ability(SUPPORT_ABILITY):
        raise _illegal(
            f"{m.id} gives no organic fire support",
            f"{m.id} ei anna orgaanista tulitukea",
        )
    observer = _check_observer(state, side, observer_of(order))
    if seat not in (m.seat, observer.seat):
        raise _illegal(
            f"organic fire is requested by the seat of {m.id} or of {observer.id}",
            f"orgaanista tulta pyytää yksikön {m.id} tai {observer.id} johtaja",
        )
    if m.suppressed is not None or m.retreating is not None:
        raise _illegal(f"{m.id} cannot fire now", f"{m.id} ei voi ampua nyt")
    if rounds_left(state, m.id) <= 0:
        raise _illegal(f"{m.id} has no rounds left", f"{m.id}:lla ei ole ammuksia jäljellä")
    if any(p["kind"] == "organic" and p["unit"] == m.id for p in pending_strikes(state)):
        raise _illegal(
            f"{m.id} already has a strike on its way",
            f"{m.id}:lla on jo isku tulossa",
        )
    cell, level = _check_target(state, side, order.cell, observer)
    if observer.cell != cell and not cache.sees(observer.cell, cell):
        raise _illegal(
            f"{observer.id} does not see cell {_cell_text(cell)}",
            f"{observer.id} ei näe ruutua {_cell_text(cell)}",
        )
    dist = chebyshev(m.cell, cell)
    if dist <= cache.opts.organic_min_range:
        raise _illegal(
            f"cell {_cell_text(cell)} is within {cache.opts.organic_min_range} of {m.id} "
            "(minimum range)",
            f"ruutu {_cell_text(cell)} on {cache.opts.organic_min_range} ruudun sisällä "
            f"yksiköstä {m.id} (minimietäisyys)",
        )
    weapon = _indirect_weapon(cache, m)
    if weapon is not None and dist > weapon.range:
        raise _illegal(
            f"cell {_cell_text(cell)} is beyond {m.id}'s range {weapon.range}",
            f"ruutu {_cell_text(cell)} on yksikön {m.id} kantaman {weapon.range} ulkopuolella",
        )
    _danger_check(state, side, order, organic_area(cache, cell))
    return Plan(
        unit=m, cost=cache.opts.kp_organic_fire, data={"observer": observer, "level": int(level)}
    )


def _direction_succeeds(tx: Tx, observer: UnitState, what: str) -> bool:
    """R-FD-2: TK ≥ 50 % automatic; below, d6 ≥ ``observer_damaged_roll``. A failure is
    logged for the ordering side only."""
    if observer.strength * 2 >= observer.max_strength:
        return True
    tx.take_rolls()
    r = tx.roller.roll("d6", f"fire_direction:{what}")
    ok = r.total >= tx.opts.observer_damaged_roll
    data = {
        "observer": observer.id,
        "need": tx.opts.observer_damaged_roll,
        "ok": ok,
        "rolls": tx.take_rolls(),
    }
    tx.emit("fire_direction", data, {observer.side: data})
    return ok


def _end_observer_hidden(tx: Tx, uid: str) -> None:
    """R-MOR-3: directing fire is an action not related to hiding, so a HIDDEN observer is
    HIDDEN no longer (nothing without the abilities module)."""
    unit = tx.units.get(uid)
    api = _abilities(tx.cache)
    if unit is None or api is None or not api.is_hidden(unit):
        return
    api.end_hidden(tx, uid, "fire_direction")


def _store(tx: Tx, ext: dict[str, Any], strike: dict[str, Any]) -> None:
    pending = _pending(ext)
    pending.append(strike)
    ext["pending"] = pending
    tx.set_ext(MODULE, ext)


def _strike_id(tx: Tx, ext: dict[str, Any], side: Side) -> str:
    """The next strike id (``ext`` is updated). New games number each side's strikes in
    its own sequence — Blue ``s1, s2 …``, Red ``g1, g2 …`` — so an id never counts the
    other side's strikes (issue 8); legacy-seed games keep one shared ``s1, s2 …``."""
    if tx.strict_fog:
        key = f"next_{side}"
        n = int(ext.get(key, 0)) + 1
        ext[key] = n
        return f"{'s' if side == 'blue' else 'g'}{n}"
    n = int(ext.get("next", 0)) + 1
    ext["next"] = n
    return f"s{n}"


def execute_organic(tx: Tx, seat: str, order: Order, plan: Plan) -> None:
    assert plan.unit is not None and order.cell is not None
    m = plan.unit
    observer: UnitState = plan.data["observer"]
    _end_observer_hidden(tx, observer.id)
    if not _direction_succeeds(tx, observer, "organic"):
        return
    ext = _ext_tx(tx)
    used = dict(ext.get("rounds_used", {}))
    used[m.id] = int(used.get(m.id, 0)) + 1
    ext["rounds_used"] = used
    strike = {
        "id": _strike_id(tx, ext, m.side),
        "kind": "organic",
        "unit": m.id,
        "side": m.side,
        "seat": seat,
        "observer": observer.id,
        "cell": list(order.cell),
        "requested": tx.turn_no,
        "due": tx.turn_no + 2 * strike_terms(organic_situation(tx.cache, m), tx.opts).delay_min,
        "danger": danger_of(order),
        "boost": 0,
    }
    _store(tx, ext, strike)
    seen = {k: strike[k] for k in ("id", "kind", "unit", "observer", "cell")}
    tx.emit("strike_ordered", strike, {m.side: seen})


def _observer_candidates(state: GameState, cache: ScenarioCache, side: Side) -> list[UnitState]:
    """The side's units able and strong enough to direct fire, by id (the listing's first
    filter; :func:`_check_observer` decides the rest)."""
    return sorted(
        (
            u
            for u in state.units.values()
            if u.side == side
            and has_ability(cache, u, OBSERVER_ABILITY)
            and u.strength >= cache.opts.observer_min_strength
            and u.suppressed is None
            and u.retreating is None
        ),
        key=lambda u: u.id,
    )


def _first_observer_order(
    state: GameState,
    seat: str,
    side: Side,
    check: Callable[[GameState, str, Side, Order], Plan],
    candidates: Iterable[Order],
) -> Order | None:
    """For the listings: the first of ``candidates`` (one per observer) that ``check``
    accepts, when the seat can afford it; the later observers are not tried either way."""
    for order in candidates:
        try:
            plan = check(state, seat, side, order)
        except IllegalOrderError:
            continue
        return order if _affordable(state, seat, plan) else None
    return None


def legal_organic(state: GameState, seat: str, side: Side) -> Iterable[Order]:
    cache = cache_for(state)
    if state.kp.get(seat, 0) < cache.opts.kp_organic_fire:
        return []
    secrets = state.scenario.secrets.organic_rounds
    if not secrets:
        return []
    busy = {p["unit"] for p in pending_strikes(state) if p["kind"] == "organic"}
    supports = [
        u
        for uid in sorted(secrets)
        if (u := state.units.get(uid)) is not None
        and u.side == side
        and uid not in busy
        and rounds_left(state, uid) > 0
        and cache.card(u).has_ability(SUPPORT_ABILITY)
    ]
    if not supports:
        return []
    observers = _observer_candidates(state, cache, side)
    out: list[Order] = []
    for cell in _target_cells(state, side):
        for m in supports:
            candidates = (
                organic_order(m.id, cell, o.id)
                for o in observers
                if seat in (m.seat, o.seat) and (o.cell == cell or cache.sees(o.cell, cell))
            )
            found = _first_observer_order(state, seat, side, check_organic, candidates)
            if found is not None:
                out.append(found)
    return out


def _target_cells(state: GameState, side: Side) -> list[Cell]:
    """One aim cell per contact: a SPOTTED contact's cell, a KNOWN area's centre."""
    need = _needed_contact(cache_for(state))
    cells: list[Cell] = []
    for c in sorted(state.contacts[side].values(), key=lambda c: c.label):
        if c.level == ContactLevel.SPOTTED and c.cell is not None:
            cells.append(c.cell)
        elif c.level >= need and c.area is not None:
            x0, y0, size = c.area
            cells.append((x0 + size // 2, y0 + size // 2))
    return list(dict.fromkeys(cells))  # contacts may share a cell or an area centre


# --------------------------------------------------------------------------- boost


def check_boost(state: GameState, seat: str, side: Side, order: Order) -> Plan:
    cache = cache_for(state)
    if seat != commander_seat(state, side):
        raise _illegal(
            "only the company commander can boost organic fire",
            "vain komppanianpäällikkö voi tehostaa orgaanista tulta",
        )
    _commander_comms(state, side)
    strike = next(
        (
            p
            for p in pending_strikes(state)
            if p["kind"] == "organic"
            and p["unit"] == order.unit
            and p["side"] == side
            and p["requested"] == state.turn_no
        ),
        None,
    )
    if strike is None:
        raise _illegal(
            f"{order.unit} has no organic strike requested this command phase",
            f"yksiköllä {order.unit} ei ole tässä komentovaiheessa pyydettyä iskua",
        )
    if strike["boost"]:
        raise _illegal(
            f"the strike of {order.unit} is already boosted",
            f"yksikön {order.unit} isku on jo tehostettu",
        )
    unit = state.units.get(order.unit or "")
    cost = cache.opts.kp_organic_boost
    return Plan(
        unit=unit,
        cost=_company_cost(state, seat, side, cost),
        data={"strike": strike["id"], "company_cost": cost},
    )


def _commander_comms(state: GameState, side: Side) -> None:
    co = _commander_unit(state, side)
    if co is not None and co.comms_until is not None and co.comms_until >= state.turn_no:
        raise _illegal(
            "the company commander has lost communications this turn",
            "komppanianpäällikön viestiyhteys on poikki tällä vuorolla",
        )


def execute_boost(tx: Tx, seat: str, order: Order, plan: Plan) -> None:
    sid = plan.data["strike"]
    ext = _ext_tx(tx)
    pending = []
    side: Side = "blue"
    for p in _pending(ext):
        if p["id"] == sid:
            p = {**p, "boost": tx.opts.organic_boost_damage}
            side = p["side"]
        pending.append(p)
    ext["pending"] = pending
    tx.set_ext(MODULE, ext)
    _pay_company(tx, side, plan.data["company_cost"])
    data = {"strike": sid, "unit": order.unit, "bonus": tx.opts.organic_boost_damage}
    tx.emit("strike_boosted", data, {side: data})


def legal_boost(state: GameState, seat: str, side: Side) -> Iterable[Order]:
    ext = state.ext.get(MODULE)
    if not ext or not ext.get("pending"):
        return []
    if seat != commander_seat(state, side):
        return []
    if _commander_kp(state, seat, side) < cache_for(state).opts.kp_organic_boost:
        return []
    out: list[Order] = []
    for p in ext["pending"]:
        if p["kind"] == "organic" and p["side"] == side and p["requested"] == state.turn_no:
            order = boost_order(p["unit"])
            try:
                plan = check_boost(state, seat, side, order)
            except IllegalOrderError:
                continue
            if _affordable(state, seat, plan):
                out.append(order)
    return out


# --------------------------------------------------------------------------- off-board


def check_strike(state: GameState, seat: str, side: Side, order: Order) -> Plan:
    cache = cache_for(state)
    kind = strike_type_of(order) or ""
    weapon = off_board_weapon(cache, kind)
    fs = state.scenario.secrets.fire_support
    if fs.off_board_requests <= 0 or not fs.weapons:
        raise _illegal(
            "this scenario grants no off-board fire support",
            "tässä skenaariossa ei ole epäorgaanista tulitukea",
        )
    if side != "blue" or seat != commander_seat(state, side):
        raise _illegal(
            "only the company commander requests off-board fire support",
            "vain komppanianpäällikkö voi pyytää epäorgaanista tulitukea",
        )
    if kind not in state.scenario.secrets.fire_support.weapons:
        raise _illegal(
            f"this scenario grants no {kind} strikes", f"skenaario ei anna {kind}-iskuja"
        )
    left = requests_left(state, side)
    if left < weapon.requests:
        raise _illegal(
            f"a {kind} strike needs {weapon.requests} requests, {left} left",
            f"{kind}-isku vaatii {weapon.requests} pyyntöä, jäljellä {left}",
        )
    _commander_comms(state, side)
    observer = _check_observer(state, side, observer_of(order))
    if not _linked(state, observer.id):
        raise _illegal(
            f"{observer.id} has no command link to the company commander",
            f"yksiköllä {observer.id} ei ole komentoyhteyttä komppanianpäällikköön",
        )
    cell, level = _check_target(state, side, order.cell, observer)
    _danger_check(state, side, order, corner_union(weapon, cell))
    cost = cache.opts.kp_fire_support_request
    return Plan(
        cost=_company_cost(state, seat, side, cost),
        data={"observer": observer, "level": level, "company_cost": cost},
    )


def execute_strike(tx: Tx, seat: str, order: Order, plan: Plan) -> None:
    stype = strike_type_of(order)
    assert order.cell is not None and stype is not None
    observer: UnitState = plan.data["observer"]
    level: ContactLevel = plan.data["level"]
    side = observer.side
    _pay_company(tx, side, plan.data["company_cost"])  # paid even if direction fails
    _end_observer_hidden(tx, observer.id)
    if not _direction_succeeds(tx, observer, "off_board"):
        return
    skilled = skilled_observer(tx.cache, observer)
    contact: Literal["spotted", "known"] = "spotted" if level == ContactLevel.SPOTTED else "known"
    terms = strike_terms(
        StrikeSituation("off_board", stype, contact=contact, skilled=skilled), tx.opts
    )
    tx.take_rolls()
    rolled, die = delay_for(tx.roller, stype, terms.delay_mode)
    delay = terms.delay(rolled)
    rolls = tx.take_rolls()
    ext = _ext_tx(tx)
    used = dict(ext.get("requests_used", {}))
    used[side] = int(used.get(side, 0)) + terms.requests
    ext["requests_used"] = used
    strike = {
        "id": _strike_id(tx, ext, side),
        "kind": "off_board",
        "weapon": stype,
        "side": side,
        "seat": seat,
        "observer": observer.id,
        "cell": list(order.cell),
        "requested": tx.turn_no,
        "delay": delay,
        "delay_die": die,
        "due": tx.turn_no + 2 * delay,
        "danger": danger_of(order),
        "contact": contact,
        "skilled": skilled,
        "boost": 0,
    }
    _store(tx, ext, strike)
    seen = {k: strike[k] for k in ("id", "kind", "weapon", "observer", "cell")}
    tx.emit("strike_ordered", {**strike, "rolls": rolls}, {side: seen})


def legal_strike(state: GameState, seat: str, side: Side) -> Iterable[Order]:
    fs = state.scenario.secrets.fire_support
    if side != "blue" or not fs.weapons or requests_left(state, side) <= 0:
        return []
    cache = cache_for(state)
    if seat != commander_seat(state, side):
        return []
    if _commander_kp(state, seat, side) < cache.opts.kp_fire_support_request:
        return []
    observers = _observer_candidates(state, cache, side)
    out: list[Order] = []
    for cell in _target_cells(state, side):
        for kind in fs.weapons:
            candidates = (strike_order(kind, cell, o.id) for o in observers)
            found = _first_observer_order(state, seat, side, check_strike, candidates)
            if found is not None:
                out.append(found)
    return out


# --------------------------------------------------------------------------- impact


def land_due(tx: Tx, side: Side) -> None:
    """``on_fire_phase``: the strikes of ``side`` due now land, oldest first."""
    ext = tx.ext(MODULE)
    if not ext or not ext.get("pending"):
        return
    due = [p for p in ext["pending"] if p["side"] == side and p["due"] <= tx.turn_no]
    if not due:
        return
    new = dict(ext)
    new["pending"] = [p for p in ext["pending"] if p not in due]
    tx.set_ext(MODULE, new)
    for strike in due:
        if tx.over:
            return
        if strike["kind"] == "organic":
            _land_organic(tx, strike)
        else:
            _land_off_board(tx, strike)


def _land_organic(tx: Tx, strike: dict[str, Any]) -> None:
    side: Side = strike["side"]
    m = tx.units.get(strike["unit"])
    if m is None:
        # Reading: the mortar fires when the strike lands, so a destroyed support unit's
        # strike never comes (its round was spent on the request).
        data = {"strike": strike["id"], "unit": strike["unit"], "reason": "support_destroyed"}
        tx.emit("strike_cancelled", data, {side: data})
        return
    cell: Cell = (strike["cell"][0], strike["cell"][1])
    cells = organic_area(tx.cache, cell)
    # R-ATK-9 as direct fire: against an armoured target the weapon's separate AT damage
    # (PST) is rolled and counts in full; without AT dice its own damage and type apply.
    situation = organic_situation(tx.cache, m, boost=int(strike.get("boost", 0)))
    terms = strike_terms(situation, tx.opts)
    _impact(tx, strike, cells, [], terms, extra={"aimed": [cell[0], cell[1]]})


def _land_off_board(tx: Tx, strike: dict[str, Any]) -> None:
    situation = StrikeSituation(
        "off_board", strike["weapon"], contact=strike["contact"], skilled=bool(strike["skilled"])
    )
    terms = strike_terms(situation, tx.opts)
    aimed: Cell = (strike["cell"][0], strike["cell"][1])
    tx.take_rolls()
    sc = roll_scatter(
        tx.roller, terms.weapon_shape(), aimed, strike["contact"], **terms.scatter_options()
    )
    cells = [c for c in sc.cells if _on_map(tx.cache, c)]
    ring = [c for c in adjacent_ring(sc.cells) if _on_map(tx.cache, c)]
    _impact(
        tx,
        strike,
        cells,
        ring,
        terms,
        extra={
            "aimed": [aimed[0], aimed[1]],
            "corner": sc.corner,
            "direction": sc.direction,
            "distance": sc.distance,
            "rerolled": sc.rerolled,
            "rolls": tx.take_rolls(),
        },
    )


def _impact(
    tx: Tx,
    strike: dict[str, Any],
    cells: list[Cell],
    ring: list[Cell],
    terms: StrikeTerms,
    *,
    extra: dict[str, Any],
) -> None:
    """Damage every unit in ``cells`` (own units: danger close d6), then morale tests for
    every unit in ``cells`` and ``ring`` (R-OFF-3, R-ORG-1, R-FD-5), as ``terms`` say.

    ``terms.damage_type`` applies to soft targets, ``armoured_damage_type`` to armoured
    ones (R-ATK-9); ``None`` = the amount counts as rolled. ``terms.bonus`` (the CO's
    boost, R-FD-4) is added to the damage after its type met the target, so it is never
    halved with FRAG damage."""
    soft, armoured = terms.damage_soft, terms.damage_armoured
    damage_type, armoured_damage_type = terms.damage_type, terms.armoured_damage_type
    bonus, dc = terms.bonus, terms.morale_dc
    side: Side = strike["side"]
    enemy = other_side(side)
    inside = set(cells)
    near = set(ring)
    hit = sorted(u.id for u in tx.units.values() if u.cell in inside)
    tested = sorted(u.id for u in tx.units.values() if u.cell in near)
    hits_hidden = terms.hits_hidden
    if not hits_hidden:
        hit = [uid for uid in hit if not _is_hidden(tx, tx.units[uid])]
        tested = [uid for uid in tested if not _is_hidden(tx, tx.units[uid])]
    area = [list(c) for c in cells]
    label = strike.get("weapon", "organic")
    data = {
        "strike": strike["id"],
        "kind": strike["kind"],
        "weapon": label,
        "side": side,
        "observer": strike["observer"],
        "cells": area,
        "units": hit,
        "morale": tested,
        **extra,
    }
    own_view = {k: v for k, v in data.items() if k not in ("units", "morale")}
    touched = any(tx.units[uid].side == enemy for uid in hit + tested)
    enemy_view = {"weapon": label, "cells": area} if touched else None
    tx.emit("strike_landed", data, {side: own_view, enemy: enemy_view})
    per_unit = terms.per_unit
    shared: dict[str, int] = {}
    for uid in hit:
        unit = tx.units.get(uid)
        if unit is None:
            continue
        card = tx.cache.card(unit)
        expr = armoured if card.armoured else soft
        dtype = (armoured_damage_type or damage_type) if card.armoured else damage_type
        tx.take_rolls()
        if per_unit or expr not in shared:
            amount = tx.roller.roll(expr, f"strike:damage:{label}").total
            shared[expr] = amount
        else:
            amount = shared[expr]
        if dtype is not None:
            amount = apply_damage_type(
                amount, dtype, card.armoured, frag_vs_armour=tx.opts.frag_vs_armour
            )
        amount += bonus
        danger_roll: int | None = None
        if unit.side == side:
            danger_roll = tx.roller.roll("d6", f"strike:danger_close:{label}").total
            amount = amount // 2 if danger_roll <= terms.danger_close_hit_max else 0
        # No strike id here: the unit's side may be the enemy, and ids count every strike.
        info: dict[str, Any] = {"weapon": label, "amount": amount, "rolls": tx.take_rolls()}
        if bonus:
            info["boost"] = bonus  # was the damage roll's modifier: the same readers
        if danger_roll is not None:
            info["danger_close"] = danger_roll
        tx.unit_event("strike_hit", uid, info, spotted_keys=("amount",))
        # R-MOR-6: the strike's own test (DC ``dc``) merges with the damage's triggers.
        damage_unit(tx, uid, amount, f"strike:{label}", cause=(dc, f"strike:{label}"))
        if tx.over:
            return
    for uid in tested:
        if uid in tx.units:
            morale_test(tx, uid, dc, f"strike:{label}")


# --------------------------------------------------------------------------- views


def view(state: GameState, viewer: str) -> dict[str, Any]:
    """``view_extras``: the GM sees every pending strike with its due turn; a side sees
    its own strikes on the way (no timing), its requests and rounds left."""
    ext = state.ext.get(MODULE)
    secrets = state.scenario.secrets
    if not ext and not secrets.organic_rounds and not secrets.fire_support.off_board_requests:
        return {}
    pending = _pending(ext or {})
    if viewer == "gm":
        return {
            MODULE: {
                "pending": pending,
                "requests_left": {"blue": requests_left(state, "blue")},
                "rounds_left": {
                    uid: rounds_left(state, uid) for uid in sorted(secrets.organic_rounds)
                },
            }
        }
    if viewer not in ("blue", "red"):
        return {}
    side: Side = "blue" if viewer == "blue" else "red"
    keys = ("id", "kind", "weapon", "unit", "observer", "cell")
    mine = [{k: p[k] for k in keys if k in p} for p in pending if p["side"] == side]
    rounds = {
        uid: rounds_left(state, uid)
        for uid in sorted(secrets.organic_rounds)
        if state.scenario.side_of(uid) == side
    }
    out: dict[str, Any] = {"pending": mine, "rounds_left": rounds}
    if side == "blue":
        out["requests_left"] = requests_left(state, side)
    return {MODULE: out}


# --------------------------------------------------------------------------- view section


class PendingStrikeView(ViewModel):
    """An own strike on the way, without its timing (R-OFF-2: the delay is secret)."""

    id: str
    kind: str
    weapon: str | None = None
    unit: str | None = None
    observer: str
    cell: Cell


class GMPendingStrikeView(PendingStrikeView):
    side: Side
    seat: str
    requested: int
    due: int
    boost: int
    danger: bool
    contact: str | None = None
    delay: int | None = None
    delay_die: int | None = None
    skilled: bool | None = None


class FireSupportView(ViewModel):
    """The fire-support module's section for a side: own strikes on the way and supply."""

    pending: tuple[PendingStrikeView, ...]
    rounds_left: dict[str, int]
    requests_left: int | None = None
    """Off-board requests left (Blue only, R-OFF-1)."""


class GMFireSupportView(ViewModel):
    pending: tuple[GMPendingStrikeView, ...]
    requests_left: dict[str, int]
    rounds_left: dict[str, int]


def _section(state: GameState, viewer: str) -> ViewModel | None:
    """The ``fire_support`` section: a side's own strikes on the way (without their
    timing, R-OFF-2) and supply, always present with empty defaults so it never tells
    whether the scenario grants the other side fire support; Blue always sees its
    requests left (R-OFF-1). The game master: everything."""
    raw = view(state, viewer).get(MODULE) or {}
    if viewer == "gm":
        return pick(GMFireSupportView, raw) if raw else None
    merged: dict[str, Any] = {"pending": [], "rounds_left": {}, **raw}
    merged["pending"] = [pick(PendingStrikeView, p) for p in merged["pending"]]
    if viewer == "blue":
        merged.setdefault("requests_left", 0)
    return pick(FireSupportView, merged)


SECTION = ViewSection("fire_support", FireSupportView, GMFireSupportView, _section)
"""The fire-support module's section of the views."""


def _read_organic(kind: OrderKind, t: OrderTokens) -> Order:
    unit = t.id()
    cell = t.cell()
    obs, danger = _read_observer(t)
    return Order(kind, unit, cell, args=ObserverArgs(obs, danger))


def _read_observer(t: OrderTokens) -> tuple[str, bool]:
    """``by O [danger]`` (organic and off-board fire, R-FS/R-OFF)."""
    word = t.take()
    if word.lower() not in BY_WORDS:
        raise bad_order(
            t.text,
            f"unexpected {word!r} (expected `by OBSERVER`)",
            f"odottamaton {word!r} (odotettiin `by TÄHYSTÄJÄ`)",
        )
    obs = t.id("observer unit", "tähystäjäyksikön")
    return obs, t.take_if(DANGER_WORDS)


def _read_boost(kind: OrderKind, t: OrderTokens) -> Order:
    return boost_order(t.id())


def _read_strike(kind: OrderKind, t: OrderTokens) -> Order:
    stype = t.take().lower()
    if stype not in STRIKE_TYPES:
        raise InvalidOrderError(
            f"order {t.text!r}: unknown strike type {stype!r} (known: {', '.join(STRIKE_TYPES)})",
            f"käsky {t.text!r}: tuntematon iskutyyppi {stype!r} "
            f"(tunnetut: {', '.join(STRIKE_TYPES)})",
        )
    cell = t.cell()
    obs, danger = _read_observer(t)
    return Order(kind, cell=cell, args=StrikeArgs(stype, obs, danger))


_OBSERVER_WORDS_FI = ((BY_WORDS[0], BY_WORDS[1]), (DANGER_WORDS[0], DANGER_WORDS[1]))

SYNTAX: tuple[OrderSyntax, ...] = (
    module_syntax(
        ORGANIC,
        "organic UNIT X,Y by OBSERVER [danger]",
        ("tukituli",),
        _read_organic,
        OrderShape(unit=True, cell=True, args=ObserverArgs),
        _OBSERVER_WORDS_FI,
    ),
    module_syntax(BOOST, "boost UNIT", ("tehosta",), _read_boost, OrderShape(unit=True)),
    module_syntax(
        STRIKE,
        "strike k9|mlrs X,Y by OBSERVER [danger]",
        ("isku",),
        _read_strike,
        OrderShape(cell=True, args=StrikeArgs),
        _OBSERVER_WORDS_FI,
    ),
)
"""The notation of the fire-support orders (docs/notation.md)."""


def rule_module() -> RuleModule:
    """Fire support (R-ORG, R-OFF) as a rule module."""
    return RuleModule(
        MODULE,
        view=SECTION,
        orders=(
            OrderHandler(ORGANIC, check_organic, execute_organic, legal_organic, module=MODULE),
            OrderHandler(BOOST, check_boost, execute_boost, legal_boost, module=MODULE),
            OrderHandler(STRIKE, check_strike, execute_strike, legal_strike, module=MODULE),
        ),
        hooks=(("on_fire_phase", land_due), ("view_extras", view)),
        syntax=SYNTAX,
    )
