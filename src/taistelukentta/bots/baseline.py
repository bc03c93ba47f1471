"""The baseline computer player: plays one side from that side's view only.

:func:`choose_order` receives a player's view (:func:`taistelukentta.views.view_for` of the
side or seat it plays), the legal orders of its seat (a list, or a :class:`LazyOrders` that
fetches them a kind and a unit at a time as the bot gets to them) and its own
``random.Random``. It never sees a :class:`~taistelukentta.rules.GameState`, so it cannot
know more than a human in the same seat. It is stateless: everything it needs is in the view
(which units already have their order this turn, what was reconned, the KP left), so a saved
game can be resumed with a fresh bot.

Priorities, in the command phase (first that applies):

1. rally a SUPPRESSED or RETREATING unit (R-MOR-2, Moraalin kohotus);
2. a unit with a SPOTTED enemy in reach of its weapon where it stands stays put: with no
   order it defends (R-KP-3) and fires in the fire phase for free;
3. an attack order (move, then fire) where the exact odds (``odds.exact.attack_odds``) of a
   hit are good, from the cell with the best odds;
4. active recon when the side has no SPOTTED contact: at a KNOWN/SUSPECTED contact's area if
   one is in sight, else the visible cell nearest the unit's objective (R-REC-4);
5. move towards the nearest objective cell the side does not stand on;
6. ``done``: the units without an order defend by default (R-KP-3). The bot never gives
   ``defend`` explicitly — that would only cost an order per unit.

In the fire phase each unit that may fire takes its best shot (highest expected damage);
then ``done``.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

from taistelukentta.bots import commander
from taistelukentta.bots.knowledge import (
    Cell,
    attack_reach,
    shot_value,
    special_shot_value,
    special_weapons,
)
from taistelukentta.content.options import RuleOptions
from taistelukentta.rules.orders import Order, OrderKind, order_weapon
from taistelukentta.views.models import OwnUnitView, SeatView, SideView, UnitView, WeaponView

GOOD_HIT_CHANCE = commander.GOOD_HIT_CHANCE
"""An attack order (which costs KP) is given only when HIT or HEAVY_HIT is at least this
likely."""
FIRE_MIN_CHANCE = Fraction(10, 100)
"""In the fire phase a unit fires when a hit is at least this likely (firing is free)."""


def _cheb(a: Sequence[int], b: Sequence[int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


OrderFetch = Callable[[OrderKind, str | None], Sequence[Order]]
"""``fetch(kind, unit)``: the seat's legal orders of ``kind`` (of ``unit`` only, or of
every unit when None), in the order of the full legal list, without ``done``."""


TargetFetch = Callable[[OrderKind, str, frozenset[str]], Sequence[Order]]
"""``fetch_targets(kind, unit, targets)``: ``fetch(kind, unit)`` keeping only the orders
aimed at one of ``targets`` (the same orders in the same order), possibly computed more
cheaply."""


class LazyOrders:
    """Legal orders handed to the bot a kind (and a unit) at a time, fetched only when the
    bot asks — so the long families it never looks at (every move destination of every
    unit, attack-after-move for every unit and target…) are never built.

    ``fetch`` must answer from the engine's legal-order API for the seat (which is computed
    from the side's own knowledge); ``done`` is the seat's ``done`` order;
    ``fetch_targets`` (optional) answers a unit's orders aimed at some targets only. Each
    answer is kept, so one object serves exactly one decision. Whatever the bot picks from
    it is one of the orders ``fetch`` (or ``fetch_targets``) gave."""

    def __init__(
        self, fetch: OrderFetch, done: Order, fetch_targets: TargetFetch | None = None
    ) -> None:
        self._fetch = fetch
        self._fetch_targets = fetch_targets
        self.done = done
        self._seen: dict[tuple[OrderKind, str | None], Sequence[Order]] = {}
        self._aimed: dict[tuple[OrderKind, str, frozenset[str]], Sequence[Order]] = {}

    def of_kind(self, kind: OrderKind) -> Sequence[Order]:
        """Every unit's legal orders of ``kind``."""
        return self.of_unit(kind, None)

    def of_unit(self, kind: OrderKind, unit: str | None) -> Sequence[Order]:
        """``unit``'s legal orders of ``kind`` (every unit's with None)."""
        key = (kind, unit)
        got = self._seen.get(key)
        if got is None:
            got = self._seen[key] = self._fetch(kind, unit)
        return got

    def of_unit_at(self, kind: OrderKind, unit: str, targets: frozenset[str]) -> Sequence[Order]:
        """``unit``'s legal orders of ``kind`` aimed at one of ``targets``, in the order of
        :meth:`of_unit`."""
        key = (kind, unit, targets)
        got = self._aimed.get(key)
        if got is None:
            whole = self._seen.get((kind, unit))
            if whole is None and self._fetch_targets is not None:
                got = self._fetch_targets(kind, unit, targets)
            else:
                got = [o for o in self.of_unit(kind, unit) if o.target in targets]
            self._aimed[key] = got
        return got


class _ListedOrders:
    """The same questions as :class:`LazyOrders`, answered from a plain list."""

    def __init__(self, orders: Sequence[Order]) -> None:
        if not orders:
            raise ValueError("no legal orders: the seat has nothing to do now")
        self._by_kind = _by_kind(orders)
        dones = self._by_kind[OrderKind.DONE]
        self.done = dones[0] if dones else orders[-1]
        self._by_unit: dict[tuple[OrderKind, str], list[Order]] = {}

    def of_kind(self, kind: OrderKind) -> Sequence[Order]:
        return self._by_kind[kind]

    def of_unit_at(self, kind: OrderKind, unit: str, targets: frozenset[str]) -> Sequence[Order]:
        return [o for o in self.of_unit(kind, unit) if o.target in targets]

    def of_unit(self, kind: OrderKind, unit: str | None) -> Sequence[Order]:
        if unit is None:
            return self._by_kind[kind]
        key = (kind, unit)
        got = self._by_unit.get(key)
        if got is None:
            got = self._by_unit[key] = [o for o in self._by_kind[kind] if o.unit == unit]
        return got


OrderSource = LazyOrders | _ListedOrders
"""Where the bot's decision functions take legal orders from."""


def choose_order(
    view: SideView,
    legal_orders: Sequence[Order] | LazyOrders,
    rng: random.Random,
    options: RuleOptions | None = None,
) -> Order:
    """The baseline bot's next order for the seat whose ``legal_orders`` these are.

    ``view`` is that seat's (or its side's) view; ``legal_orders`` the seat's legal orders,
    as a list or as a :class:`LazyOrders` (the same decision either way); ``rng`` the bot's
    own random source (ties, and how often it searches for mines). Always returns one of
    ``legal_orders`` (``done`` when nothing else is sensible). ValueError if
    ``legal_orders`` is an empty list (the seat has nothing to do)."""
    src = legal_orders if isinstance(legal_orders, LazyOrders) else _ListedOrders(legal_orders)
    done = src.done
    s = commander.seen(view, options)
    opts = s.opts
    units = s.units
    own = s.own
    enemies = s.enemies

    if view.phase == "fire":
        return (
            commander.area_fire(s, src, rng)
            or _best_fire(own, units, src.of_kind(OrderKind.FIRE), rng, opts)
            or done
        )

    # 0–3. field promotion and the recon report, rally, a unit stuck in a minefield, the
    # company commander's orders, fire support, area fire, organised withdrawal
    standing = commander.standing_orders(s, src, rng)
    if standing is not None:
        return standing

    free_units = sorted(
        {o.unit for o in src.of_kind(OrderKind.DEFEND) if o.unit is not None and o.unit in own}
    )
    # 4. in reach already: the unit stays without an order (it defends by default, R-KP-3)
    # and fires in the fire phase
    holding = set()
    for uid in free_units:
        u = own[uid]
        w = u.weapon
        if w.indirect:
            continue
        if any(_in_range(w, _cheb(u.cell, e.cell)) for e in enemies.values()):
            holding.add(uid)
    movers = [uid for uid in free_units if uid not in holding]

    # 5. attack orders with good odds (moving first); none without the seat's own KP
    if view.kp_of(s.seat) > 0:
        attack = _attack_choice(own, enemies, movers, src, rng, opts)
        if attack is not None:
            return attack

    goals = {uid: _goal(view, own[uid]) for uid in movers}
    mined = commander.known_mined(s)
    if mined:
        goals = commander.pioneer_goals(s, goals, mined)
    # 6. pioneers breach found mines on the way
    breach = commander.breach(s, src, rng, goals)
    if breach is not None:
        return breach

    # 7. recon when nothing is spotted
    recon = _recon_choice(view, own, enemies, src, rng)
    if recon is not None:
        return recon

    # 8. move towards objectives (searching ahead now and then near found mines)
    for uid in movers:
        goal = goals[uid]
        if goal is None:
            continue
        here = _cheb(own[uid].cell, goal)
        if here == 0:
            continue
        # the listed destinations nearest the goal, if nearer than where the unit stands
        gx, gy = goal
        near = here
        ties = []
        for o in src.of_unit(OrderKind.MOVE, uid):
            if o.cell is None or (mined and o.cell in mined):
                continue
            cx, cy = o.cell
            d = max(cx - gx, gx - cx, cy - gy, gy - cy)
            if d < near:
                near, ties = d, [o]
            elif d == near and ties:
                ties.append(o)
        if ties:
            search = commander.search_ahead(s, uid, goal, src, rng)
            if search is not None:
                return search
            return ties[0] if len(ties) == 1 else rng.choice(ties)

    # 9. KP left over: units that can hide do (R-MOR-3)
    hidden = commander.hide(s, src, rng)
    if hidden is not None:
        return hidden

    # 10. the rest defend by default (R-KP-3): done
    return done


def _attack_choice(
    units: Mapping[str, OwnUnitView],
    enemies: Mapping[str, UnitView],
    movers: Sequence[str],
    src: LazyOrders | _ListedOrders,
    rng: random.Random,
    opts: RuleOptions,
) -> Order | None:
    """The best unit/target pair with a listed attack order and a good chance to hit, from
    the origin farthest from the target (stand-off); ties are broken by the bot's rng: the
    tied units are tried in a shuffled order, the first with listed orders attacks (its
    tied targets and origins picked with the rng too).

    The odds of a pair do not depend on where it fires from, so the pairs are ranked from
    the view first and a unit's attack orders are looked at only while its pair could still
    be the best."""
    if not enemies:
        return None
    values: dict[tuple[str, str, str | None], tuple[Fraction, Fraction]] = {}
    armoured = [tid for tid, e in enemies.items() if e.armoured]
    for uid in movers:
        u = units[uid]
        reach = attack_reach(u)  # no origin in range of a target farther than this
        ux, uy = u.cell
        for tid, e in enemies.items():
            ex, ey = e.cell
            if max(ux - ex, ex - ux, uy - ey, ey - uy) > reach:
                continue
            v = shot_value(u, e, opts)
            if v[0] >= GOOD_HIT_CHANCE:
                values[(uid, tid, None)] = v
        if armoured:
            # an AT weapon (R-ATK-9) against armour: ``attack U T with W``
            for w in special_weapons(u.card):
                wreach = attack_reach(u, w.range)
                for tid in armoured:
                    if _cheb(u.cell, enemies[tid].cell) > wreach:
                        continue
                    sv = special_shot_value(u, enemies[tid], w.id, opts)
                    if sv is not None and sv[0] >= GOOD_HIT_CHANCE:
                        values[(uid, tid, w.id)] = sv
    for level in sorted(set(values.values()), reverse=True):
        wanted: dict[str, set[tuple[str, str | None]]] = {}
        for (uid, tid, wid), v in values.items():
            if v == level:
                wanted.setdefault(uid, set()).add((tid, wid))
        # the units of this level in a random order (bot's rng), each asked for its
        # attack orders until one has some: one fetch per attack in the usual case
        order = sorted(wanted)
        if len(order) > 1:
            rng.shuffle(order)
        for uid in order:
            targets = wanted[uid]
            pairs: dict[tuple[str, str, str | None], list[Order]] = {}
            aimed = frozenset(t for t, _ in targets)
            for o in src.of_unit_at(OrderKind.ATTACK, uid, aimed):
                if (
                    o.unit == uid
                    and o.target is not None
                    and (o.target, order_weapon(o)) in targets
                ):
                    pairs.setdefault((uid, o.target, order_weapon(o)), []).append(o)
            if not pairs:
                continue
            best_pairs = list(pairs)
            pair = best_pairs[0] if len(best_pairs) == 1 else rng.choice(best_pairs)
            tx, ty = enemies[pair[1]].cell
            start = units[pair[0]].cell
            far = -1
            ties: list[Order] = []
            for o in pairs[pair]:
                cx, cy = o.cell or start
                d = max(cx - tx, tx - cx, cy - ty, ty - cy)
                if d > far:
                    far, ties = d, [o]
                elif d == far:
                    ties.append(o)
            return ties[0] if len(ties) == 1 else rng.choice(ties)
    return None


_MOVE, _ATTACK, _DEFEND = OrderKind.MOVE, OrderKind.ATTACK, OrderKind.DEFEND


def _by_kind(orders: Sequence[Order]) -> dict[OrderKind, list[Order]]:
    """The orders by kind. Compared by identity: hashing an Enum member calls Python code,
    which made this loop the bot's largest cost on long lists."""
    moves: list[Order] = []
    attacks: list[Order] = []
    defends: list[Order] = []
    rest: list[Order] = []
    for o in orders:
        k = o.kind
        if k is _MOVE:
            moves.append(o)
        elif k is _ATTACK:
            attacks.append(o)
        elif k is _DEFEND:
            defends.append(o)
        else:
            rest.append(o)
    out: dict[OrderKind, list[Order]] = defaultdict(list)  # module kinds too
    out[_MOVE], out[_ATTACK], out[_DEFEND] = moves, attacks, defends
    for o in rest:
        out[o.kind].append(o)
    return out


def _in_range(weapon: WeaponView, dist: int) -> bool:
    if dist > weapon.range:
        return False
    mn = weapon.min_range
    return mn is None or dist >= mn


def _best_fire(
    own: Mapping[str, OwnUnitView],
    units: Mapping[str, UnitView],
    fires: Sequence[Order],
    rng: random.Random,
    opts: RuleOptions,
) -> Order | None:
    best: tuple[Fraction, Fraction, float] | None = None
    best_order: Order | None = None
    for o in fires:
        if o.unit is None or o.target is None or o.unit not in own or o.target not in units:
            continue
        weapon = order_weapon(o)
        if weapon is None:
            hit, dmg = shot_value(own[o.unit], units[o.target], opts)
        else:
            sv = special_shot_value(own[o.unit], units[o.target], weapon, opts)
            if sv is None:
                continue
            hit, dmg = sv
        if hit < FIRE_MIN_CHANCE:
            continue
        key = (dmg, hit, rng.random())
        if best is None or key > best:
            best, best_order = key, o
    return best_order


def _goal(view: SideView, unit: UnitView) -> Cell | None:
    """The objective cell the unit heads for: the nearest cell of the nearest objective
    the side does not already stand on (or, if it holds them all, the one it stands on)."""
    cell = unit.cell
    best: tuple[int, int, int] | None = None
    for obj in view.objectives:
        if cell in obj.cells:
            return cell
        if obj.own_present:
            continue
        for c in obj.cells:
            d = _cheb(cell, c)
            key = (d, int(c[0]), int(c[1]))
            if best is None or key < best:
                best = key
    if best is None:
        return None
    return (best[1], best[2])


def _recon_choice(
    view: SideView,
    units: Mapping[str, OwnUnitView],
    enemies: Mapping[str, UnitView],
    src: LazyOrders | _ListedOrders,
    rng: random.Random,
) -> Order | None:
    """Active recon when the side has no SPOTTED enemy: once per turn per seat (KP are
    scarce), aimed at a contact's area or towards the objective."""
    if enemies:
        return None
    if isinstance(view, SeatView):
        kp = view.seat_command_points
    else:
        kp = sum(view.command_points.values())
    if kp < 1:
        return None
    if any(u.reconned for u in units.values()):
        return None
    recons = src.of_kind(OrderKind.RECON)
    if not recons:
        return None
    targets: list[Cell] = []
    for c in view.contacts:
        area = c.area
        if area:
            half = area[2] // 2
            targets.append((area[0] + half, area[1] + half))
    by_unit: dict[str, list[Order]] = {}
    for o in recons:
        if o.unit is not None:
            by_unit.setdefault(o.unit, []).append(o)
    best: tuple[int, int, float] | None = None
    best_order: Order | None = None
    for uid, orders in sorted(by_unit.items()):
        u = units.get(uid)
        if u is None:
            continue
        aims = targets or ([g] if (g := _goal(view, u)) is not None else [])
        if not aims:
            continue
        for o in orders:
            assert o.cell is not None
            miss = min(_cheb(o.cell, a) for a in aims)
            # closest to an aim; among equals the farthest from the scout (sees deeper)
            key = (miss, -_cheb(o.cell, u.cell), rng.random())
            if best is None or key < best:
                best, best_order = key, o
    return best_order


class BaselineBot:
    """The baseline player with its own seeded random source (deterministic per seed)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(
        self,
        view: SideView,
        legal_orders: Sequence[Order] | LazyOrders,
        options: RuleOptions | None = None,
    ) -> Order:
        """:func:`choose_order` with this bot's random source; ``options`` are the game's
        rule options (public; None: the bundled defaults)."""
        return choose_order(view, legal_orders, self.rng, options)
