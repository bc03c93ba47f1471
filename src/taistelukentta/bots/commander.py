"""The commander's game for the baseline bot (issue 4): company orders, fire support, mines
and abilities, each decided from the seat's view (and the public cards) and picked from the
legal orders the engine lists.

Every function here returns an order taken from ``src`` (the seat's legal orders, asked
for one kind — and unit — at a time) or None. A family of orders is asked for only when
the view says an order of it could be worth giving, so a game without these situations
costs (almost) nothing more.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from taistelukentta.bots.knowledge import (
    AREA_ABILITY,
    HIDE_ABILITY,
    PIONEER_ABILITY,
    Cell,
    area_weapon,
    card,
    cheb,
    default_options,
    has_ability,
    shot_value,
)
from taistelukentta.content.options import RuleOptions
from taistelukentta.odds.strike import CellOdds, terms_odds
from taistelukentta.rules.abilities import HIDE, USE, ability_of
from taistelukentta.rules.company import (
    CONFIRM,
    PROMOTE,
    REPORT,
    RESTORE,
    TACTIC,
    TRANSFER,
    seat_of,
    tactic_of,
)
from taistelukentta.rules.fire_support import (
    BOOST,
    ORGANIC,
    STRIKE,
    danger_of,
    observer_of,
    strike_type_of,
)
from taistelukentta.rules.mines import BREACH, CLEAR, RUSH, SEARCH
from taistelukentta.rules.orders import Order, OrderKind
from taistelukentta.rules.terms import StrikeSituation, StrikeTerms, strike_terms
from taistelukentta.views.models import (
    CommandView,
    FireSupportView,
    MinesView,
    OwnUnitView,
    SideView,
    UnitView,
)

if TYPE_CHECKING:
    from taistelukentta.bots.baseline import OrderSource

GOOD_HIT_CHANCE = Fraction(45, 100)
"""An attack (which costs KP) is worth it when HIT or HEAVY_HIT is at least this likely."""
CLEAR_MIN_CHANCE = Fraction(1, 2)
"""A unit stuck in a minefield clears it carefully (1 KP) when the TT test succeeds at
least this often; otherwise it rushes through (R-MINE-3, R-MINE-4)."""
MOTTI_MIN_CONTACTS = 3
"""Motti (5 KP, once per battle) when at least this many enemy contacts lie in its radius."""
STRIKE_MIN_CONTACTS = 2
"""An off-board strike when at least this many enemy contacts lie within one cell of it."""
AREA_MIN_TARGETS = 2
"""Lamauttava tuli when at least this many SPOTTED enemies stand in the area."""
SEARCH_CHANCE = 0.5
"""How often a unit near a found minefield searches ahead before moving."""


@dataclass
class Seen:
    """The decision's facts from the view, computed once."""

    view: SideView
    side: str
    seat: str
    units: dict[str, UnitView]
    own: dict[str, OwnUnitView]
    """Units of the side."""
    mine: dict[str, OwnUnitView]
    """Units of this seat."""
    enemies: dict[str, UnitView]
    """SPOTTED enemy units."""
    kp: int
    company: CommandView | None = None
    """The company module's section (Blue), None when the view has none."""
    fire: FireSupportView | None = None
    mines: MinesView | None = None
    options: RuleOptions | None = None
    """The game's rule options (the scenario's; public), None: the bundled defaults."""
    _points: list[tuple[Cell, bool]] | None = None

    @property
    def opts(self) -> RuleOptions:
        """The rule options the decisions use: the game's, else the bundled defaults."""
        return self.options if self.options is not None else default_options()

    @property
    def co(self) -> bool:
        """Whether this seat is the company commander's (Blue)."""
        return self.company is not None and self.company.co_seat == self.seat

    def contact_points(self) -> list[tuple[Cell, bool]]:
        """Where the side believes each enemy contact is: the SPOTTED cell, else the
        centre of the contact's area; with whether it is SPOTTED or KNOWN (not SUSPECTED)."""
        if self._points is None:
            pts: list[tuple[Cell, bool]] = []
            for c in self.view.contacts:
                if c.cell is not None:
                    pts.append((c.cell, True))
                elif c.area is not None:
                    x0, y0, size = c.area
                    pts.append(((x0 + size // 2, y0 + size // 2), c.level == "KNOWN"))
            self._points = pts
        return self._points


def seen(view: SideView, options: RuleOptions | None = None) -> Seen:
    """The facts of ``view`` the decisions use (the company module's part is the view's
    ``command`` section)."""
    company = view.command if isinstance(view.command, CommandView) else None
    side = view.side
    seat = view.seat or ("gm" if side == "red" else side)
    units: dict[str, UnitView] = {u.id: u for u in view.units}
    own = {u.id: u for u in view.units if isinstance(u, OwnUnitView) and u.side == side}
    mine = {k: u for k, u in own.items() if u.seat == seat}
    enemies = {k: u for k, u in units.items() if u.side != side}
    return Seen(
        view=view,
        side=side,
        seat=seat,
        units=units,
        own=own,
        mine=mine,
        enemies=enemies,
        kp=view.kp_of(seat) + (company.company_kp or 0 if company is not None else 0),
        company=company,
        fire=view.fire_support,
        mines=view.mines,
        options=options,
    )


def _pick(orders: Sequence[Order], rng: random.Random) -> Order:
    return orders[0] if len(orders) == 1 else rng.choice(list(orders))


def _best(scored: Iterable[tuple[Any, Order]], rng: random.Random) -> Order | None:
    """The order with the highest score (ties broken with ``rng``), None if none."""
    top: Any = None
    ties: list[Order] = []
    for score, o in scored:
        if top is None or score > top:
            top, ties = score, [o]
        elif score == top:
            ties.append(o)
    return _pick(ties, rng) if ties else None


def _fresh(s: Seen) -> bool:
    """Whether no own unit has done anything yet this turn (the side's first orders)."""
    return not any(u.action or u.moved or u.fired or u.reconned for u in s.own.values())


def _reach(u: OwnUnitView) -> int:
    return u.weapon.range + u.movement


def _good_pairs(s: Seen, units: Iterable[OwnUnitView]) -> int:
    """How many of ``units`` could attack a SPOTTED enemy with good odds this turn."""
    n = 0
    for u in units:
        if u.action or "SUPPRESSED" in u.statuses:
            continue
        if u.weapon.indirect:
            continue
        reach = _reach(u)
        if any(
            cheb(u.cell, e.cell) <= reach and shot_value(u, e, s.opts)[0] >= GOOD_HIT_CHANCE
            for e in s.enemies.values()
        ):
            n += 1
    return n


def _hurt(u: UnitView) -> bool:
    return u.strength * 3 <= u.max_strength


def _near_enemy(s: Seen, u: UnitView, dist: int) -> bool:
    return any(cheb(u.cell, c) <= dist for c, _ in s.contact_points())


# --------------------------------------------------------------------------- company


def _tactic_name(o: Order) -> str | None:
    t = tactic_of(o)
    return None if t is None else t.name


def _tactic_units(o: Order) -> tuple[str, ...]:
    t = tactic_of(o)
    return () if t is None else t.units


def first_orders(s: Seen, src: OrderSource, rng: random.Random) -> Order | None:
    """Orders that come before everything else: field promotion at once when the CO is
    lost (R-LINK-3), the pre-game recon report at the start (R-CO-4)."""
    if s.company is None or s.side != "blue":
        return None
    if s.company.promotion_due:
        found = src.of_kind(PROMOTE)
        if found:
            size = {o: sum(1 for u in s.own.values() if u.group == seat_of(o)) for o in found}
            return _best(((size[o], o) for o in found), rng)
    if not s.company.report_done and s.view.turn_no <= 2 and _fresh(s):
        found = src.of_kind(REPORT)
        if found:
            return found[0]
    return None


def standing_orders(
    s: Seen, src: OrderSource, rng: random.Random, *, area: bool = True
) -> Order | None:
    """The command phase's orders that come before manoeuvre, for every computer player,
    first that applies: field promotion and the recon report (:func:`first_orders`), a
    rally (R-MOR-2), a unit stopped in a minefield (:func:`stuck_in_minefield`), the
    company commander's orders, fire support, area fire (unless ``area`` is False) and
    organised withdrawal. None: the player decides its units' moves and attacks itself."""
    first = first_orders(s, src, rng)
    if first is not None:
        return first
    rallies = src.of_kind(OrderKind.RALLY)
    if rallies:
        return rallies[0]
    return support_orders(s, src, rng, area=area)


def support_orders(
    s: Seen, src: OrderSource, rng: random.Random, *, area: bool = True
) -> Order | None:
    """The first that applies of: a unit stopped in a minefield, the company commander's
    orders, fire support, area fire (unless ``area`` is False) and organised withdrawal."""
    for decide in (
        stuck_in_minefield,
        company_orders,
        fire_support,
        area_fire,
        organised_withdrawal,
    ):
        if decide is area_fire and not area:
            continue
        got = decide(s, src, rng)
        if got is not None:
            return got
    return None


def company_orders(s: Seen, src: OrderSource, rng: random.Random) -> Order | None:
    """The company commander's orders (R-CO-1…5, R-LINK-2), in this order: restore a
    platoon's lost link, an off-board strike on a cluster, organic fire (and its boost:
    only the commander boosts, in the request's turn), the tactic of the turn (Motti
    on a cluster of contacts, Järjestäytynyt vetäytyminen for a badly hurt unit near the
    enemy, painopiste for the platoon that can attack), confirm a target two platoons can
    fire at, KP to a platoon leader in link with good uses for it."""
    comp = s.company
    if not s.co or s.kp <= 0 or comp is None:
        return None
    links: Mapping[str, bool] = comp.links
    groups = {u.group for u in s.own.values()}
    out = [g for g, ok in sorted(links.items()) if not ok and g in groups]
    if out:
        found = [o for o in src.of_kind(RESTORE) if seat_of(o) in out]
        if found:
            size = {g: sum(1 for u in s.own.values() if u.group == g) for g in out}
            return _best(((size[str(seat_of(o))], o) for o in found), rng)
    hit = strike(s, src, rng) or fire_support(s, src, rng)
    if hit is not None:
        return hit
    if not comp.tactic_this_turn:
        tactic = _tactic(s, src, rng)
        if tactic is not None:
            return tactic
    confirm = _confirm(s, src, rng)
    if confirm is not None:
        return confirm
    return _transfer(s, src, rng)


def _tactic(s: Seen, src: OrderSource, rng: random.Random) -> Order | None:
    opts = s.opts
    points = s.contact_points()
    motti = (
        s.company is not None
        and not s.company.motti_used
        and s.kp >= opts.kp_motti
        and len(points) >= MOTTI_MIN_CONTACTS
    )
    hurt = [
        u
        for u in s.own.values()
        if _hurt(u) and not u.action and _near_enemy(s, u, opts.zoc_radius + 2)
    ]
    withdraw = bool(hurt) and s.kp >= opts.kp_organised_withdrawal
    attackers: dict[str, int] = {}
    if s.kp >= opts.kp_painopiste and s.enemies:
        for g in sorted({u.group for u in s.own.values()}):
            n = _good_pairs(s, (u for u in s.own.values() if u.group == g))
            if n >= 2:
                attackers[g] = n
    if not (motti or withdraw or attackers):
        return None
    tactics = src.of_kind(TACTIC)
    if not tactics:
        return None
    if motti:
        r = opts.motti_radius
        scored = [
            (sum(1 for p, _ in points if cheb(p, o.cell) <= r), o)
            for o in tactics
            if _tactic_name(o) == "motti" and o.cell is not None
        ]
        best = _best(((sc, o) for sc, o in scored if sc >= MOTTI_MIN_CONTACTS), rng)
        if best is not None:
            return best
    if withdraw:
        worst = {u.id: u.strength for u in hurt}
        found = [
            (-worst[_tactic_units(o)[0]], o)
            for o in tactics
            if _tactic_name(o) == "vetaytyminen"
            and len(_tactic_units(o)) == 1
            and _tactic_units(o)[0] in worst
        ]
        best = _best(found, rng)
        if best is not None:
            return best
    if attackers:
        found2 = [
            (attackers[str(seat_of(o))], o)
            for o in tactics
            if _tactic_name(o) == "painopiste" and str(seat_of(o)) in attackers
        ]
        return _best(found2, rng)
    return None


def _confirm(s: Seen, src: OrderSource, rng: random.Random) -> Order | None:
    """Vahvistettu maali (R-CO-5) on a SPOTTED enemy that units of two platoons have in
    weapon range and that one of them can hit well; the engine lists only targets two
    platoons see."""
    done = set(s.company.confirmed if s.company is not None else ())
    wanted: dict[str, int] = {}
    for tid, e in s.enemies.items():
        if tid in done:
            continue
        close = [
            u
            for u in s.own.values()
            if not u.weapon.indirect and cheb(u.cell, e.cell) <= u.weapon.range
        ]
        if len({u.group for u in close}) < 2:
            continue
        if any(shot_value(u, e, s.opts)[0] >= GOOD_HIT_CHANCE for u in close):
            wanted[tid] = len(close)
    if not wanted:
        return None
    found = [(wanted[str(o.target)], o) for o in src.of_kind(CONFIRM) if o.target in wanted]
    return _best(found, rng)


def _transfer(s: Seen, src: OrderSource, rng: random.Random) -> Order | None:
    """1 KP to a platoon in link whose units have more good uses for KP (an attack with
    good odds: 1, a unit to rally: 2) than it has KP, while the CO keeps one; the platoon
    short of the most first."""
    if s.kp < 2 or s.company is None:
        return None
    links: Mapping[str, bool] = s.company.links
    given = set(s.company.transfers_this_turn)
    uses: dict[str, int] = {}
    for g, ok in sorted(links.items()):
        if not ok or g in given:
            continue
        units = [u for u in s.own.values() if u.group == g]
        n = _good_pairs(s, units) + sum(
            2 for u in units if {"SUPPRESSED", "RETREATING"} & set(u.statuses)
        )
        if n > s.view.kp_of(g):
            uses[g] = n - s.view.kp_of(g)
    if not uses:
        return None
    found = [(uses[str(seat_of(o))], o) for o in src.of_kind(TRANSFER) if seat_of(o) in uses]
    return _best(found, rng)


def organised_withdrawal(s: Seen, src: OrderSource, rng: random.Random) -> Order | None:
    """After Järjestäytynyt vetäytyminen this turn, a badly hurt unit near the enemy
    withdraws (free for the named unit) to the listed cell farthest from the contacts."""
    turn = s.view.turn_no
    used = s.company.tactics_used if s.company is not None else ()
    if not any(list(t)[:2] == [turn, "vetaytyminen"] for t in used):
        return None
    points = [p for p, _ in s.contact_points()]
    if not points:
        return None
    for uid, u in sorted(s.mine.items()):
        if u.action or not _hurt(u) or not _near_enemy(s, u, 5):
            continue
        found = src.of_unit(OrderKind.WITHDRAW, uid)
        best = _best(
            ((min(cheb(o.cell, p) for p in points), o) for o in found if o.cell is not None),
            rng,
        )
        if best is not None:
            return best
    return None


# --------------------------------------------------------------------------- fire support


def _own_near(s: Seen, cell: Cell, dist: int) -> bool:
    return any(cheb(u.cell, cell) <= dist for u in s.own.values())


def _cluster(s: Seen, cell: Cell, dist: int) -> int:
    """Enemy contacts within ``dist`` of ``cell``: SPOTTED count 2, KNOWN 1, SUSPECTED 0."""
    return sum((2 if spotted else 1) for p, spotted in s.contact_points() if cheb(p, cell) <= dist)


def _count_near(s: Seen, cell: Cell, dist: int) -> int:
    return sum(1 for p, _ in s.contact_points() if cheb(p, cell) <= dist)


def strike_view_terms(s: Seen, order: Order) -> StrikeTerms | None:
    """The terms of an off-board request (``rules.terms.strike_terms``, as resolution
    uses them, with the game's options) from the seat's view: the contact it has on the
    aimed cell (a SPOTTED contact there, else a KNOWN area) and its observer's TT from
    the public card. None when the order names no weapon or cell."""
    stype = strike_type_of(order)
    if order.cell is None or stype is None:
        return None
    spotted = any(c.cell == order.cell for c in s.view.contacts)
    obs = s.own.get(observer_of(order) or "")
    c = card(obs.card) if obs is not None else None
    skilled = c is not None and c.stats.training >= s.opts.skilled_observer_skill
    situation = StrikeSituation(
        "off_board", stype, contact="spotted" if spotted else "known", skilled=skilled
    )
    try:
        return strike_terms(situation, s.opts)
    except ValueError:
        return None


def _footprint_at(cells: Iterable[CellOdds], aimed: Cell) -> dict[Cell, CellOdds]:
    """A strike's footprint odds (relative to the aimed cell) by map cell."""
    return {(aimed[0] + c.dx, aimed[1] + c.dy): c for c in cells}


def strike(s: Seen, src: OrderSource, rng: random.Random) -> Order | None:
    """An off-board K9/MLRS request (R-OFF-1) by the company commander when at least two
    enemy contacts lie within one cell of a listed aim, no own unit within three cells of
    it, and requests remain. The request's exact footprint (R-OFF-3/4 from
    :func:`strike_view_terms`) decides further: never an aim whose area or morale ring
    could reach an own unit (a KNOWN contact's shift reaches further than three cells);
    the best aim has the most enemy contacts expected under it (SPOTTED ones weigh
    double)."""
    fs = s.fire
    if not (s.co and fs is not None and (fs.requests_left or 0) > 0):
        return None
    if s.kp < s.opts.kp_fire_support_request:
        return None
    if len(s.contact_points()) < STRIKE_MIN_CONTACTS:
        return None
    found: list[tuple[Fraction, Order]] = []
    for o in src.of_kind(STRIKE):
        if o.cell is None or danger_of(o) or _own_near(s, o.cell, 3):
            continue
        if _count_near(s, o.cell, 1) < STRIKE_MIN_CONTACTS:
            continue
        terms = strike_view_terms(s, o)
        if terms is None:
            continue
        odds = _footprint_at(terms_odds(terms).cells, o.cell)
        if any((c := odds.get(u.cell)) is not None and c.p_morale_test > 0 for u in s.own.values()):
            continue
        expected = Fraction(0)
        for p, spotted in s.contact_points():
            c = odds.get(p)
            if c is not None:
                expected += c.p_hit * (2 if spotted else 1)
        found.append((expected, o))
    return _best(found, rng)


def _organic_in_reach(s: Seen, rounds: Mapping[str, int], busy: set[str | None]) -> bool:
    """Whether a support unit with rounds and no request on the way has a KNOWN or SPOTTED
    contact within its indirect weapon's range (a support unit the view does not show —
    another side's — counts as in reach: the engine's list decides)."""
    for m, n in rounds.items():
        if n <= 0 or m in busy:
            continue
        u = s.own.get(m)
        c = card(u.card) if u is not None else None
        if u is None or c is None:
            return True
        reach = max((w.range for w in c.weapons if w.indirect), default=0)
        if any(known and cheb(p, u.cell) <= reach for p, known in s.contact_points()):
            return True
    return False


def fire_support(s: Seen, src: OrderSource, rng: random.Random) -> Order | None:
    """Organic mortar fire (R-ORG-1) on a KNOWN or SPOTTED contact when a support unit has
    rounds and no request on the way; a boost (R-FD-4) of this turn's organic request by
    the commander while it has the KP (the engine lists it only in the request's turn).
    Never onto or next to own units, never a danger-close request."""
    fs = s.fire
    if fs is None or s.kp <= 0 or not s.contact_points():
        return None
    opts = s.opts
    busy = {p.unit for p in fs.pending if p.kind == "organic"}
    rounds: Mapping[str, int] = fs.rounds_left
    if s.kp >= opts.kp_organic_fire and _organic_in_reach(s, rounds, busy):
        found = [
            (_cluster(s, o.cell, 1), o)
            for o in src.of_kind(ORGANIC)
            if o.cell is not None and not danger_of(o) and not _own_near(s, o.cell, 1)
        ]
        best = _best(((sc, o) for sc, o in found if sc >= 1), rng)
        if best is not None:
            return best
    if s.co and busy and s.kp >= opts.kp_organic_boost:
        boosts = src.of_kind(BOOST)
        if boosts:
            return boosts[0]
    return None


# --------------------------------------------------------------------------- mines


def _cellkey(c: Sequence[int]) -> Cell:
    return int(c[0]), int(c[1])


def known_mined(s: Seen) -> set[Cell]:
    return {m.cell for m in s.mines.known} if s.mines is not None else set()


def stuck_in_minefield(s: Seen, src: OrderSource, rng: random.Random) -> Order | None:
    """A unit of the seat stopped in a minefield clears it carefully when it has the KP
    and decent odds (R-MINE-3), else rushes through (R-MINE-4)."""
    stuck: Mapping[str, Cell] = s.mines.in_minefield if s.mines is not None else {}
    if not stuck:
        return None
    opts = s.opts
    for uid in sorted(stuck):
        u = s.mine.get(uid)
        if u is None:
            continue
        clears = src.of_unit(CLEAR, uid)
        c = card(u.card)
        skill = c.stats.training if c is not None else 0
        pioneer = has_ability(u.card, PIONEER_ABILITY)
        dc = opts.careful_clearing_dc_pioneer if pioneer else opts.careful_clearing_dc
        chance = Fraction(max(0, min(20, 21 - (dc - skill))), 20)
        if clears and chance >= CLEAR_MIN_CHANCE and s.kp >= opts.kp_careful_clearing:
            return clears[0]
        rushes = src.of_unit(RUSH, uid)
        if rushes:
            return rushes[0]
        if clears:
            return clears[0]
    return None


PIONEER_LOOKAHEAD = 6
"""A pioneer heads for a found mined cell this close that lies towards its objective."""


def pioneer_goals(
    s: Seen, goals: Mapping[str, Cell | None], mined: set[Cell]
) -> dict[str, Cell | None]:
    """``goals`` with each pioneer of the seat sent to the nearest found mined cell within
    :data:`PIONEER_LOOKAHEAD` that lies between it and its objective (to breach it)."""
    out = dict(goals)
    for uid, goal in goals.items():
        u = s.mine.get(uid)
        if goal is None or u is None or not has_ability(u.card, PIONEER_ABILITY):
            continue
        here = cheb(u.cell, goal)
        ahead = [
            (cheb(c, u.cell), c)
            for c in mined
            if cheb(c, u.cell) <= PIONEER_LOOKAHEAD and cheb(c, goal) < here
        ]
        if ahead:
            out[uid] = min(ahead)[1]
    return out


def breach(
    s: Seen, src: OrderSource, rng: random.Random, goals: Mapping[str, Cell | None]
) -> Order | None:
    """A pioneer next to a found mined cell that lies towards its objective clears it
    (planned clearing, R-MINE-5)."""
    mined = known_mined(s)
    if not mined:
        return None
    for uid, u in sorted(s.mine.items()):
        goal = goals.get(uid)
        if goal is None or u.action or not has_ability(u.card, PIONEER_ABILITY):
            continue
        here = cheb(u.cell, goal)
        ahead = {c for c in mined if cheb(c, u.cell) <= 1 and cheb(c, goal) < here}
        if not ahead:
            continue
        found = [
            (-cheb(o.cell, goal), o)
            for o in src.of_unit(BREACH, uid)
            if o.cell is not None and o.cell in ahead
        ]
        best = _best(found, rng)
        if best is not None:
            return best
    return None


def search_ahead(
    s: Seen, uid: str, goal: Cell, src: OrderSource, rng: random.Random
) -> Order | None:
    """Before ``uid`` moves: when the side has found mines within 3 cells of it, now and
    then search the adjacent cell towards the goal (R-REC-4, 1 KP)."""
    mined = known_mined(s)
    u = s.mine[uid]
    if not mined or s.kp < 2 or not any(cheb(c, u.cell) <= 3 for c in mined):
        return None
    if rng.random() >= SEARCH_CHANCE:
        return None
    cleared = {_cellkey(c) for c in (s.mines.clear if s.mines is not None else ())}
    here = cheb(u.cell, goal)
    found = [
        (-cheb(o.cell, goal), o)
        for o in src.of_unit(SEARCH, uid)
        if o.cell is not None
        and o.cell not in mined
        and o.cell not in cleared
        and cheb(o.cell, goal) < here
    ]
    return _best(found, rng)


# --------------------------------------------------------------------------- abilities


def area_fire(s: Seen, src: OrderSource, rng: random.Random) -> Order | None:
    """Lamauttava tuli (R-AB-3) by a unit of the seat when at least two SPOTTED enemies
    stand in its area and no own unit does."""
    if len(s.enemies) < AREA_MIN_TARGETS:
        return None
    for uid, u in sorted(s.mine.items()):
        if u.action or u.fired or not has_ability(u.card, AREA_ABILITY):
            continue
        w = area_weapon(u.card)
        if w is None:
            continue
        r = w.area_radius or 0
        near = [e for e in s.enemies.values() if cheb(u.cell, e.cell) <= w.range + r]
        if len(near) < AREA_MIN_TARGETS:
            continue
        found = []
        for o in src.of_unit(USE, uid):
            if ability_of(o) != AREA_ABILITY or o.cell is None or _own_near(s, o.cell, r):
                continue
            n = sum(1 for e in near if cheb(e.cell, o.cell) <= r)
            if n >= AREA_MIN_TARGETS:
                found.append((n, o))
        best = _best(found, rng)
        if best is not None:
            return best
    return None


def hide(s: Seen, src: OrderSource, rng: random.Random) -> Order | None:
    """Units of the seat that can hide (R-MOR-3) and are not HIDDEN use the KP left over
    at the end of the seat's orders."""
    if s.kp <= 0:
        return None
    able = [
        uid
        for uid, u in sorted(s.mine.items())
        if "HIDDEN" not in u.statuses and not u.fired and has_ability(u.card, HIDE_ABILITY)
    ]
    if not able:
        return None
    found = [o for o in src.of_kind(HIDE) if o.unit in able]
    return found[0] if found else None


__all__ = [
    "Seen",
    "area_fire",
    "breach",
    "company_orders",
    "fire_support",
    "first_orders",
    "hide",
    "organised_withdrawal",
    "pioneer_goals",
    "search_ahead",
    "seen",
    "strike",
    "stuck_in_minefield",
    "support_orders",
]
