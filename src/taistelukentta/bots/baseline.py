"""The baseline computer player: plays one side from that side's view only.

:func:`choose_order` receives a player's view (:func:`taistelukentta.views.view_for` of the
side or seat it plays), the legal orders of its seat and its own ``random.Random``. It never
sees a :class:`~taistelukentta.rules.GameState`, so it cannot know more than a human in the
same seat. It is stateless: everything it needs is in the view (which units already have
their order this turn, what was reconned, the KP left), so a saved game can be resumed with
a fresh bot.

Priorities, in the command phase (first that applies):

1. rally a SUPPRESSED or RETREATING unit (R-MOR-2, Moraalin kohotus);
2. a unit with a SPOTTED enemy in reach of its weapon where it stands stays and defends: it
   fires in the fire phase for free (R-KP-3);
3. an attack order (move, then fire) where the exact odds (``odds.exact.attack_odds``) of a
   hit are good, from the cell with the best odds;
4. active recon when the side has no SPOTTED contact: at a KNOWN/SUSPECTED contact's area if
   one is in sight, else the visible cell nearest the unit's objective (R-REC-4);
5. move towards the nearest objective cell the side does not stand on;
6. defend; when every unit of the seat has its order: ``done``.

In the fire phase each unit that may fire takes its best shot (highest expected damage);
then ``done``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

from taistelukentta.dice.roller import Advantage
from taistelukentta.odds.exact import attack_odds
from taistelukentta.rules.orders import Order, OrderKind

GOOD_HIT_CHANCE = Fraction(45, 100)
"""An attack order (which costs KP) is given only when HIT or HEAVY_HIT is at least this
likely."""
FIRE_MIN_CHANCE = Fraction(10, 100)
"""In the fire phase a unit fires when a hit is at least this likely (firing is free)."""

Cell = tuple[int, int]


def _cheb(a: Sequence[int], b: Sequence[int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


@lru_cache(maxsize=4096)
def _odds(
    bonus: int, defence: int, advantage: Advantage, damage: str, divisor: int
) -> tuple[Fraction, Fraction]:
    """(chance of HIT or HEAVY_HIT, expected damage), cached: the bot asks the same often."""
    o = attack_odds(bonus, defence, advantage=advantage, damage=damage, damage_divisor=divisor)
    return o.hit + o.heavy_hit, o.expected_damage


def shot_value(attacker: Mapping[str, Any], target: Mapping[str, Any]) -> tuple[Fraction, Fraction]:
    """(hit chance, expected damage) of ``attacker`` (an own unit of the view) firing at
    ``target`` (a SPOTTED enemy unit of the view), from the view's figures only: bonus of
    the weapon, target protection + the cover of its cell, advantage if it is SUPPRESSED."""
    w = attacker["weapon"]
    armoured = bool(target.get("armoured"))
    damage = w["at_damage"] if armoured and w.get("at_damage") else w["damage"]
    divisor = 1 if armoured and w.get("at_damage") else int(w.get("damage_divisor", 1))
    defence = int(target.get("protection", 10)) + int(target.get("cover", 0))
    adv = Advantage.ADVANTAGE if "SUPPRESSED" in target.get("statuses", ()) else Advantage.NONE
    hit, dmg = _odds(int(w["bonus"]), defence, adv, str(damage), divisor)
    if armoured and not w.get("at_damage") and w.get("damage_type") == "FRAG":
        dmg /= 2  # R-ATK-9 DEFAULT: FRAG against armour does half
    return hit, dmg


def choose_order(
    view: Mapping[str, Any], legal_orders: Sequence[Order], rng: random.Random
) -> Order:
    """The baseline bot's next order for the seat whose ``legal_orders`` these are.

    ``view`` is that seat's (or its side's) view; ``rng`` the bot's own random source (used
    only to break ties). Always returns one of ``legal_orders`` (``done`` when nothing else
    is sensible). ValueError if ``legal_orders`` is empty (the seat has nothing to do)."""
    if not legal_orders:
        raise ValueError("no legal orders: the seat has nothing to do now")
    done = next((o for o in legal_orders if o.kind == OrderKind.DONE), legal_orders[-1])
    units = {u["id"]: u for u in view.get("units", ())}
    side = view.get("side")
    by_kind: dict[OrderKind, list[Order]] = {}
    for o in legal_orders:
        by_kind.setdefault(o.kind, []).append(o)

    if view.get("phase") == "fire":
        return _best_fire(units, by_kind.get(OrderKind.FIRE, []), rng) or done

    # 1. rally
    rallies = by_kind.get(OrderKind.RALLY, [])
    if rallies:
        return rallies[0]

    enemies = {uid: u for uid, u in units.items() if u.get("side") != side}
    free_units = sorted(
        {
            o.unit
            for o in by_kind.get(OrderKind.DEFEND, [])
            if o.unit is not None and o.unit in units
        }
    )
    # 2. in reach already: stay and fire in the fire phase
    for uid in free_units:
        u = units[uid]
        w = u.get("weapon", {})
        if w.get("indirect"):
            continue
        if any(_in_range(w, _cheb(u["cell"], e["cell"])) for e in enemies.values()):
            return Order.defend(uid)

    # 3. attack orders with good odds (moving first)
    best: tuple[Fraction, Fraction, float] | None = None
    best_order: Order | None = None
    for o in by_kind.get(OrderKind.ATTACK, []):
        if o.unit not in units or o.target not in enemies:
            continue
        hit, dmg = shot_value(units[o.unit], enemies[o.target])
        if hit < GOOD_HIT_CHANCE:
            continue
        key = (hit, dmg, rng.random())
        if best is None or key > best:
            best, best_order = key, o
    if best_order is not None:
        return best_order

    # 4. recon when nothing is spotted
    recon = _recon_choice(view, units, enemies, by_kind.get(OrderKind.RECON, []), rng)
    if recon is not None:
        return recon

    # 5. move towards objectives
    moves = by_kind.get(OrderKind.MOVE, [])
    for uid in free_units:
        goal = _goal(view, units[uid], units)
        if goal is None:
            continue
        here = _cheb(units[uid]["cell"], goal)
        options = [o for o in moves if o.unit == uid and o.cell is not None]
        if here == 0 or not options:
            continue
        scored = sorted(
            options,
            key=lambda o: (_cheb(o.cell or (0, 0), goal), rng.random()),
        )
        if _cheb(scored[0].cell or (0, 0), goal) < here:
            return scored[0]

    # 6. defend the rest, then done
    if free_units:
        return Order.defend(free_units[0])
    return done


def _in_range(weapon: Mapping[str, Any], dist: int) -> bool:
    if dist > int(weapon.get("range", 0)):
        return False
    mn = weapon.get("min_range")
    return mn is None or dist >= int(mn)


def _best_fire(
    units: Mapping[str, Mapping[str, Any]], fires: Sequence[Order], rng: random.Random
) -> Order | None:
    best: tuple[Fraction, Fraction, float] | None = None
    best_order: Order | None = None
    for o in fires:
        if o.unit is None or o.target is None or o.unit not in units or o.target not in units:
            continue
        hit, dmg = shot_value(units[o.unit], units[o.target])
        if hit < FIRE_MIN_CHANCE:
            continue
        key = (dmg, hit, rng.random())
        if best is None or key > best:
            best, best_order = key, o
    return best_order


def _goal(
    view: Mapping[str, Any], unit: Mapping[str, Any], units: Mapping[str, Mapping[str, Any]]
) -> Cell | None:
    """The objective cell the unit heads for: the nearest cell of the nearest objective
    the side does not already stand on (or, if it holds them all, the one it stands on)."""
    cell = unit["cell"]
    best: tuple[int, int, int] | None = None
    for obj in view.get("objectives", ()):
        cells = [tuple(c) for c in obj["cells"]]
        if list(cell) in obj["cells"]:
            return (int(cell[0]), int(cell[1]))
        if obj.get("own_present"):
            continue
        for c in cells:
            d = _cheb(cell, c)
            key = (d, int(c[0]), int(c[1]))
            if best is None or key < best:
                best = key
    if best is None:
        return None
    return (best[1], best[2])


def _recon_choice(
    view: Mapping[str, Any],
    units: Mapping[str, Mapping[str, Any]],
    enemies: Mapping[str, Mapping[str, Any]],
    recons: Sequence[Order],
    rng: random.Random,
) -> Order | None:
    """Active recon when the side has no SPOTTED enemy: once per turn per seat (KP are
    scarce), aimed at a contact's area or towards the objective."""
    if enemies or not recons:
        return None
    seat = view.get("seat")
    kp = view.get("seat_command_points") if seat else None
    if kp is None:
        cps = view.get("command_points", {})
        kp = sum(int(v) for v in cps.values()) if isinstance(cps, Mapping) else 0
    if int(kp) < 1:
        return None
    if any(u.get("reconned") for u in units.values() if u.get("side") == view.get("side")):
        return None
    targets: list[Cell] = []
    for c in view.get("contacts", ()):
        area = c.get("area")
        if area:
            half = int(area[2]) // 2
            targets.append((int(area[0]) + half, int(area[1]) + half))
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
        aims = targets or ([g] if (g := _goal(view, u, units)) is not None else [])
        if not aims:
            continue
        for o in orders:
            assert o.cell is not None
            miss = min(_cheb(o.cell, a) for a in aims)
            # closest to an aim; among equals the farthest from the scout (sees deeper)
            key = (miss, -_cheb(o.cell, u["cell"]), rng.random())
            if best is None or key < best:
                best, best_order = key, o
    return best_order


class BaselineBot:
    """The baseline player with its own seeded random source (deterministic per seed)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Mapping[str, Any], legal_orders: Sequence[Order]) -> Order:
        """:func:`choose_order` with this bot's random source."""
        return choose_order(view, legal_orders, self.rng)
