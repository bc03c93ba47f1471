"""Contacts and fog of war: passive observation, active recon, decay, firing reveals
(R-REC-1…7, R-ATK-6 position revealed).

Contacts are per side (what a side knows), keyed by the enemy unit id; the engine never
decides anything for a side from an enemy unit it has no contact with.

- Passive observation (R-REC-3, free): after every move and at the start of a side's turn a
  unit spots (SPOTTED) every enemy within ``passive_spot_radius``; an enemy that moves
  through fully open terrain in the line of sight of a unit is spotted by it.
- Active recon (R-REC-4, ``kp_active_recon``): an opposed recon roll (R-REC-1/2) against
  each enemy unit within line of sight in the block of radius ``recon_area_radius`` (a rule option)
  around the named cell. The scout's side learns only the contacts it gains: failed rolls
  are the game master's alone (they would tell how many units stand there).
- Decay (R-REC-5 DEFAULT, options ``contact_decay`` and ``contact_lost_out_of_sight``): when
  a unit moves, each enemy contact on it ends if no unit of that side sees its new cell,
  else drops one level unless observed again.
- Firing reveals (R-REC-7, ``firing_reveals``): the side of every unit fired at gains at
  least a KNOWN contact on the firer; a natural-1 "position revealed" makes the firer
  SPOTTED to the enemy if any enemy unit stands within ``position_revealed_radius``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from taistelukentta.grid.geometry import Cell, chebyshev
from taistelukentta.rules.context import Tx
from taistelukentta.rules.recon import ContactLevel, resolve_recon
from taistelukentta.rules.services import AbilitiesApi
from taistelukentta.rules.state import Side, UnitState, other_side
from taistelukentta.rules.terms import ReconSituation, recon_terms


def passive_observe(tx: Tx, side: Side, observers: Sequence[UnitState]) -> None:
    """R-REC-3: every enemy within ``passive_spot_radius`` of an observer becomes SPOTTED."""
    radius = tx.opts.passive_spot_radius
    enemies = sorted(tx.units_of(other_side(side)), key=lambda u: u.id)
    for e in enemies:
        if any(chebyshev(o.cell, e.cell) <= radius for o in observers):
            tx.set_contact(side, e.id, ContactLevel.SPOTTED)


def after_move(tx: Tx, uid: str, traversed: Sequence[Cell]) -> None:
    """Update both sides' contacts after unit ``uid`` moved through ``traversed`` (the
    cells entered, last = where it stands): its side observes from there; the enemy's
    contacts on it decay (R-REC-5) and enemy units observe it (R-REC-3)."""
    unit = tx.units.get(uid)
    if unit is None:
        return
    passive_observe(tx, unit.side, [unit])
    enemy = other_side(unit.side)
    watchers = list(tx.units_of(enemy))
    cache = tx.cache
    # R-REC-3: observed again — within the passive radius, or moving in fully open terrain
    # in a watcher's line of sight.
    radius = tx.opts.passive_spot_radius
    spotted = any(chebyshev(w.cell, unit.cell) <= radius for w in watchers)
    if not spotted:
        open_cells = [c for c in dict.fromkeys(traversed) if cache.fully_open(c)]
        spotted = any(cache.sees(w.cell, c) for c in open_cells for w in watchers)
    if spotted:
        tx.set_contact(enemy, uid, ContactLevel.SPOTTED, raise_only=False)
        return
    # R-REC-5 decay of the enemy's existing contact on the mover.
    old = tx.contacts[enemy].get(uid)
    if old is None or not traversed:
        return
    mode = tx.opts.contact_decay
    level = old.level
    if (
        tx.opts.contact_lost_out_of_sight
        and not any(cache.sees(w.cell, unit.cell) for w in watchers)
    ) or mode == "lose_on_move":
        level = ContactLevel.NONE
    elif mode == "drop_one_on_move":
        level = ContactLevel(level - 1)
    if level == ContactLevel.NONE:
        tx.drop_contact(enemy, uid)
    else:
        tx.set_contact(enemy, uid, level, raise_only=False)


def reveal_firer(tx: Tx, attacker: str, target_side: Side) -> None:
    """R-REC-7: the side fired at gains at least the ``firing_reveals`` level on the firer."""
    mode = tx.opts.firing_reveals
    if mode == "none" or attacker not in tx.units:
        return
    level = ContactLevel.SPOTTED if mode == "spotted" else ContactLevel.KNOWN
    tx.set_contact(target_side, attacker, level)


def position_revealed(tx: Tx, attacker: str) -> None:
    """R-ATK-6 / R-REC-7: SPOTTED to the enemy if an enemy unit is within the radius."""
    unit = tx.units.get(attacker)
    if unit is None:
        return
    enemy = other_side(unit.side)
    radius = tx.opts.position_revealed_radius
    if any(chebyshev(e.cell, unit.cell) <= radius for e in tx.units_of(enemy)):
        tx.set_contact(enemy, attacker, ContactLevel.SPOTTED)


def recon_area(tx: Tx, cell: Cell) -> list[Cell]:
    """The cells active recon at ``cell`` covers (on the map)."""
    r = tx.opts.recon_area_radius
    x, y = cell
    return [
        (cx, cy)
        for cy in range(max(0, y - r), min(tx.map.height, y + r + 1))
        for cx in range(max(0, x - r), min(tx.map.width, x + r + 1))
    ]


def active_recon(tx: Tx, uid: str, cell: Cell) -> None:
    """R-REC-4 active recon by ``uid`` around ``cell`` (KP already paid)."""
    scout = tx.unit(uid)
    side = scout.side
    enemy = other_side(side)
    cache = tx.cache
    card = cache.card(scout)
    # R-AB-4; an ability a sniper hit disabled (R-AB-2) does not apply (the abilities
    # module of the game's ruleset says which are usable; without it, the card's)
    abilities = cache.rules.api(AbilitiesApi)
    drone = (
        card.has_ability("drone")
        if abilities is None
        else abilities.usable_ability(cache, scout, "drone") is not None
    )
    cells = set(recon_area(tx, cell))
    targets = sorted(
        (e for e in tx.units_of(enemy) if e.cell in cells and cache.sees(scout.cell, e.cell)),
        key=lambda e: e.id,
    )
    results: list[dict[str, Any]] = []
    found: list[str] = []
    shown_rolls: list[dict[str, Any]] = []
    tx.take_rolls()
    for t in targets:
        sight = cache.sight(scout.cell, t.cell)
        terms = recon_terms(
            ReconSituation(
                skill=cache.skill(scout),
                stealth=cache.card(t).stats.stealth,
                cover=sight.cover,
                elevation=cache.elevation(scout.cell, t.cell, drone=drone),
            ),
            tx.opts,
        )
        res = resolve_recon(
            tx.roller,
            bonus=terms.bonus,
            stealth=terms.stealth,
            cover=terms.cover,
            purpose="recon",
            **terms.roll_options(),
        )
        rolls = tx.take_rolls()
        results.append(
            {
                "target": t.id,
                "scout_total": res.scout_total,
                "target_total": res.target_total,
                "margin": res.margin,
                "level": res.level.code,
                "rolls": rolls,
            }
        )
        if res.level > ContactLevel.NONE:
            # A result the rules do not let the side detect at all (a HIDDEN unit beyond
            # its reveal range, R-REC-6) finds nothing — also at or below a level the side
            # holds already (a unit that went HIDDEN after it was found): a found contact
            # would tell the side that the unit is still there, and refreshing the
            # contact's area where it stands now would tell where (issue 8).
            detectable = all(
                fn(tx, side, t.id, int(res.level)) for fn in cache.hooks.can_be_detected
            )
            if not detectable and tx.strict_fog:
                continue  # (legacy games refresh the contact as they always did: replay)
            tx.set_contact(side, t.id, res.level)
            # Only a contact the side holds now at the level rolled is told, with its
            # rolls: a success the rules refused shows nothing, exactly as a failed roll or
            # an empty cell does — rolls of a SPOTTED result beside a contact that stayed
            # KNOWN would tell the side that the unit is HIDDEN (issue 8).
            held = tx.contacts[side].get(t.id)
            if detectable and held is not None and held.level >= res.level:
                found.append(t.id)
                shown_rolls.extend(r for r in rolls if not r.get("secret"))
    data = {"unit": uid, "cell": list(cell), "results": results}
    seen = {
        "unit": uid,
        "cell": list(cell),
        "found": [tx.ref(side, t) for t in found],
        "rolls": shown_rolls,
    }
    tx.emit("recon", data, {side: seen})
