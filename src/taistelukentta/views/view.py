"""Per-side views of a game: the only way the game state reaches a player (R-REC-5, R-DICE-6).

:func:`view_for` turns a :class:`~taistelukentta.rules.GameState` into a JSON-safe dict for
one viewer:

- ``"blue"`` / ``"red"``: that side's view — its own units in full, enemy units only where
  a SPOTTED contact shows them, its contacts (KNOWN/SUSPECTED as an area under an opaque
  label, never the unit's id), its command points and the events it may see;
- a seat (``"co"``, ``"pl1"`` …): its side's view, marking the units that seat commands and
  the seat's own KP (Red's only seat, ``gm``, is the game master, see below);
- ``"gm"``: the game master sees everything, secret rolls included.

Nothing in a side's view is computed from an enemy unit the side has no contact with: the
unit list and contacts come from the side's contact table, the log from each event's
per-side redacted copy (:meth:`taistelukentta.rules.Event.for_side`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from taistelukentta.content.scenario import Scenario
from taistelukentta.dice.expr import DiceExpr
from taistelukentta.dice.roller import seed_commitment
from taistelukentta.errors import ArgumentError
from taistelukentta.grid.geometry import Cell
from taistelukentta.rules import GM_SEAT, Event, GameState, UnitState, view_extras
from taistelukentta.rules.context import ScenarioCache, cache_for
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.state import Side

ViewerKind = Literal["blue", "red", "gm"]
VIEW_FORMAT = 1

_SECRET_KEYS: dict[str, tuple[str, ...]] = {
    # The seed fixes every future roll: only the game master may know it.
    "game_started": ("seed",),
}


def resolve_viewer(state: GameState, viewer: str) -> tuple[ViewerKind, str | None]:
    """``(side or "gm", seat or None)`` for a viewer name; ArgumentError if unknown.

    ``gm`` is the game master (everything). A Blue seat gives Blue's view for that seat."""
    if viewer in ("blue", "red", GM_SEAT):
        return ("blue" if viewer == "blue" else "red" if viewer == "red" else "gm"), None
    if viewer in state.seats("blue"):
        return "blue", viewer
    known = ", ".join(("blue", "red", GM_SEAT, *state.seats("blue")))
    raise ArgumentError(
        f"unknown viewer {viewer!r} (choose one of: {known})",
        f"tuntematon katsoja {viewer!r} (valitse jokin: {known})",
    )


def redact(
    events: Iterable[Event], side: str, scenario: Scenario | None = None
) -> list[dict[str, Any]]:
    """The events ``side`` (``"blue"``, ``"red"`` or ``"gm"``) may see, as JSON-safe dicts
    ``{"seq", "kind", "data"}``; events that side sees nothing of are left out.

    On top of the engine's per-side copy of each event this removes what would still give
    an unseen enemy away: the game's seed (it fixes every roll), secret rolls (R-DICE-6),
    and enemy unit ids inside free-text fields (a roll's ``purpose`` such as
    ``fire:R11>1R2``, a ``reason`` such as ``fire:R11``) unless the event itself names that
    unit (the engine names only own and SPOTTED units). With ``scenario`` only enemy unit
    ids are replaced (by ``?``); without it every token after the first ``:``."""
    enemy_ids: frozenset[str] | None = None
    if scenario is not None and side in ("blue", "red"):
        enemy_ids = frozenset(p.id for s, _, p in scenario.placements() if s != side)
    out: list[dict[str, Any]] = []
    for ev in events:
        data = ev.for_side(side)
        if data is None:
            continue
        secret_keys = _SECRET_KEYS.get(ev.kind, ())
        if side == GM_SEAT:
            # Not even the GM's view holds the seed (games saved before it left the event).
            gm = {k: v for k, v in data.items() if k not in secret_keys} if secret_keys else data
            out.append({"seq": ev.seq, "kind": ev.kind, "data": _jsonable(gm)})
            continue
        clean = dict(data)
        for key in secret_keys:
            clean.pop(key, None)
        if "rolls" in clean:
            clean["rolls"] = [r for r in clean["rolls"] if not r.get("secret")]
        named = _named_units(clean)
        hidden = None if enemy_ids is None else enemy_ids - named
        out.append({"seq": ev.seq, "kind": ev.kind, "data": _scrub(_jsonable(clean), hidden)})
    return out


_REF_KEYS = ("unit", "attacker", "target", "enemies", "found")
_TEXT_KEYS = frozenset({"purpose", "reason"})
_TOKEN = re.compile(r"[A-Za-z0-9_\-]+")


def _named_units(data: Mapping[str, Any]) -> frozenset[str]:
    """Unit ids an event copy names directly (the engine names own and SPOTTED units)."""
    out: set[str] = set()
    for key in _REF_KEYS:
        value = data.get(key)
        items = value if isinstance(value, list) else [value]
        out.update(v for v in items if isinstance(v, str))
    return frozenset(out)


def _scrub(value: Any, hidden: frozenset[str] | None, key: str | None = None) -> Any:
    """Replace the ``hidden`` unit ids inside ``purpose``/``reason`` strings by ``?``
    (``hidden`` None: every token after the first ``:``, as the ids are not known).

    The first token (the kind: ``fire``, ``morale`` …) is always kept."""
    if isinstance(value, dict):
        return {k: _scrub(v, hidden, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrub(v, hidden, key) for v in value]
    if isinstance(value, str) and key in _TEXT_KEYS and ":" in value:
        head, _, tail = value.partition(":")
        tail = _TOKEN.sub(
            lambda m: "?" if hidden is None or m.group(0) in hidden else m.group(0), tail
        )
        return f"{head}:{tail}"
    return value


def view_for(
    state: GameState,
    viewer: str,
    *,
    log_limit: int | None = None,
    extras: bool = True,
    shared: bool = False,
) -> dict[str, Any]:
    """The JSON-safe view of ``state`` for ``viewer`` (``blue``, ``red``, ``gm`` or a seat).

    ``log_limit`` keeps only the last N visible events (None = all, 0 = none).
    ``extras=False`` leaves out the rule modules' entries (``command``, ``fire_support``,
    ``mines``, ``abilities``; about half the cost of a view without its log) for a caller
    that does not read them, such as a computer player deciding from legal orders.
    ``shared=True`` lets the unit entries share their parts with other views (the same
    content; cheaper): for a caller that only reads the view, such as a computer player."""
    kind, seat = resolve_viewer(state, viewer)
    cache = cache_for(state)
    scenario = state.scenario
    out: dict[str, Any] = {
        "format": VIEW_FORMAT,
        "viewer": viewer,
        "side": None if kind == "gm" else kind,
        "seat": seat,
        "scenario": scenario.id,
        "title": {"fi": scenario.title.fi, "en": scenario.title.en},
        "map": {"width": cache.map.width, "height": cache.map.height},
        "turn": state.round,
        "rounds": scenario.rounds,
        "turn_no": state.turn_no,
        "phase": state.phase.value,
        "active_side": state.active,
        "done": sorted(state.done),
        "finished": state.finished,
        # Public to every side: the scheme and the SHA-256 of the secret seed (None for a
        # legacy game), so the seed can be checked when it is revealed after the game.
        "dice": state.dice_scheme,
        "seed_commitment": seed_commitment(state.seed),
    }
    if kind == "gm":
        out["units"] = [_unit(cache, u, full=True, shared=shared) for u in state.units.values()]
        out["contacts"] = {
            side: [_contact(uid, state, side, gm=True) for uid in sorted(state.contacts[side])]
            for side in ("blue", "red")
        }
        out["command_points"] = dict(sorted(state.kp.items()))
        out["destroyed"] = {s: list(state.destroyed[s]) for s in ("blue", "red")}
        out["objectives"] = _objectives(state, None)
    else:
        side: Side = kind
        own = [
            _unit(cache, u, full=True, seat=seat, shared=shared)
            for u in state.units.values()
            if u.side == side
        ]
        spotted = [
            _unit(cache, state.units[uid], full=False, shared=shared)
            for uid, c in sorted(state.contacts[side].items())
            if c.level == ContactLevel.SPOTTED and uid in state.units
        ]
        out["units"] = own + spotted
        out["contacts"] = [
            _contact(uid, state, side, gm=False) for uid in _contact_order(state, side)
        ]
        out["command_points"] = {s: state.kp.get(s, 0) for s in state.seats(side)}
        if seat is not None:
            out["seat_command_points"] = state.kp.get(seat, 0)
        # Own losses only: how many enemy units are gone is told by the events the side saw
        # (a unit destroyed out of sight must not show up as a count).
        out["destroyed"] = {"own": list(state.destroyed[side])}
        out["objectives"] = _objectives(state, side)
    if extras:
        out.update(module_extras(state, kind))
    if log_limit == 0:
        out["log"] = []
    else:
        events = state.events
        if log_limit is not None:
            events = events[-log_limit:]
        out["log"] = redact(events, "gm" if kind == "gm" else kind, scenario)
    if state.finished:
        out["winner"] = state.winner
        out["victory_points"] = None if state.vp is None else dict(state.vp)
    return out


# --------------------------------------------------------------------------- modules

EXTRA_KEYS: dict[str, str] = {
    "company": "command",
    "fire_support": "fire_support",
    "mines": "mines",
    "abilities": "abilities",
}
"""Rule module (``view_extras`` key) → the key of the view it is shown under."""


def module_extras(state: GameState, viewer: ViewerKind) -> dict[str, Any]:
    """The rule modules' state ``viewer`` may see (``taistelukentta.rules.view_extras``),
    under stable keys: ``command``, ``fire_support``, ``mines``, ``abilities`` — each always
    present (an empty dict when the viewer sees nothing of it), so whether a key appears
    never tells a side anything about the scenario (e.g. whether the enemy has fire
    support or the map has minefields). A module without an entry in
    :data:`EXTRA_KEYS` keeps its own name."""
    raw = view_extras(state, viewer)
    out: dict[str, Any] = {key: {} for key in EXTRA_KEYS.values()}
    for module, value in raw.items():
        # A side's entries are built fresh by the modules; the GM's may share module state.
        out[EXTRA_KEYS.get(module, module)] = _jsonable(value) if viewer == "gm" else value
    fs = out["fire_support"]
    if viewer != "gm":
        # Own strikes on the way and own supply only; the same shape whatever the scenario.
        fs.setdefault("pending", [])
        fs.setdefault("rounds_left", {})
        if viewer == "blue":
            fs.setdefault("requests_left", 0)
        for strike in fs["pending"]:
            for secret in _STRIKE_SECRETS:
                strike.pop(secret, None)
        mines = out["mines"]
        for key, empty in (("known", []), ("clear", []), ("in_minefield", {}), ("immobilised", [])):
            mines.setdefault(key, empty)
        ab = out["abilities"]
        for key in ("hidden", "disabled", "wave_bonus_turn"):
            ab.setdefault(key, [] if key == "hidden" else {})
    return out


_STRIKE_SECRETS = ("delay", "delay_die", "due", "requested", "rolls")
"""Keys of a pending strike only the game master sees (R-OFF-2: the delay is secret)."""


# --------------------------------------------------------------------------- pieces


_UNIT_MEMO: dict[tuple[int, int, bool], tuple[UnitState, dict[str, Any]]] = {}
_UNIT_MEMO_LIMIT = 8192


def _unit(
    cache: ScenarioCache,
    u: UnitState,
    *,
    full: bool,
    seat: str | None = None,
    shared: bool = False,
) -> dict[str, Any]:
    """A unit as a view shows it (a fresh dict; the parts that depend only on the unit's
    state are memoised, as most units do not change from one order to the next). With
    ``shared`` the memoised entry itself (or a shallow copy with ``commanded``): the same
    content, for a caller that only reads it."""
    # Keyed on the identity of the (immutable) unit state; the memo keeps the object alive,
    # so its id cannot be reused while the entry exists.
    key = (id(cache), id(u), full)
    hit = _UNIT_MEMO.get(key)
    if hit is not None and hit[0] is u:
        entry = hit[1]
    else:
        if len(_UNIT_MEMO) >= _UNIT_MEMO_LIMIT:
            _UNIT_MEMO.clear()
        entry = _unit_entry(cache, u, full=full)
        _UNIT_MEMO[key] = (u, entry)
    if shared:
        if seat is not None and full:
            return {**entry, "commanded": u.seat == seat}
        return entry
    out = dict(entry)
    out["cell"] = list(entry["cell"])
    out["statuses"] = list(entry["statuses"])
    out["name"] = dict(entry["name"])
    if full:
        out["weapon"] = dict(entry["weapon"])
        out["disabled_abilities"] = dict(entry["disabled_abilities"])
    if seat is not None and full:
        out["commanded"] = u.seat == seat
    return out


def _unit_entry(cache: ScenarioCache, u: UnitState, *, full: bool) -> dict[str, Any]:
    """A unit as a view shows it. ``full``: own unit (or the GM's view) with its orders
    state and weapon; otherwise a SPOTTED enemy with what a spotted unit shows."""
    card = cache.card(u)
    opts = cache.opts
    entry: dict[str, Any] = {
        "id": u.id,
        "side": u.side,
        "card": u.card,
        "name": {"fi": card.name.fi, "en": card.name.en},
        "cell": [u.cell[0], u.cell[1]],
        "strength": u.strength,
        "max_strength": u.max_strength,
        "statuses": sorted(u.statuses(opts.damaged_threshold)),
        "armoured": card.armoured,
        "protection": card.stats.protection,
        "cover": cache.map.cover_at(u.cell),
    }
    if full and u.ext.get("abilities", {}).get("hidden"):
        # R-MOR-3: HIDDEN (rules/abilities.py) shows to the unit's own side and the GM only.
        entry["statuses"] = sorted([*entry["statuses"], "HIDDEN"])
    if u.ext.get("mines", {}).get("immobilised"):
        # R-MINE-4: an immobilised unit (rules/mines.py); its status event is shown to a
        # side that has it SPOTTED, so a spotted unit shows it too.
        entry["statuses"] = sorted([*entry["statuses"], "IMMOBILISED"])
    if full:
        disabled = u.ext.get("abilities", {}).get("disabled") or {}
        # R-AB-2: abilities a sniper hit disabled, with the turn they come back (own side).
        entry["disabled_abilities"] = {str(k): int(v) for k, v in sorted(disabled.items())}
    if full:
        weapon = card.basic_weapon
        fp = cache.firepower(u, DiceExpr.parse(weapon.damage))
        bonus = cache.skill(u) + weapon.attack_bonus
        if u.shaken is not None:
            bonus -= opts.shaken_attack_penalty
        if u.pinned is not None:
            bonus -= u.pinning_penalty
        entry.update(
            {
                "seat": u.seat,
                "group": u.group,
                "action": None if u.action is None else u.action.value,
                "moved": u.moved,
                "fired": u.fired,
                "reconned": u.reconned,
                "movement": cache.movement(u),
                "weapon": {
                    "id": weapon.id,
                    "bonus": bonus,
                    "damage": str(fp.dice),
                    "damage_divisor": fp.divisor,
                    "damage_type": weapon.damage_type,
                    "at_damage": weapon.at_damage,
                    "range": weapon.range,
                    "min_range": weapon.min_range,
                    "indirect": weapon.indirect,
                },
            }
        )
    return entry


def _contact_order(state: GameState, side: Side) -> list[str]:
    """The side's contacts ordered by label number (never by the hidden unit id)."""
    contacts = state.contacts[side]
    return sorted(contacts, key=lambda uid: int(contacts[uid].label.lstrip("c") or 0))


def _contact(uid: str, state: GameState, side: Side, *, gm: bool) -> dict[str, Any]:
    c = state.contacts[side][uid]
    entry: dict[str, Any] = {"label": c.label, "level": c.level.code}
    if gm or c.level == ContactLevel.SPOTTED:
        entry["unit"] = uid
    if c.cell is not None:
        entry["cell"] = [c.cell[0], c.cell[1]]
    if c.area is not None:
        entry["area"] = [c.area[0], c.area[1], c.area[2]]
    if c.card is not None:
        entry["card"] = c.card
    return entry


_OBJ_MEMO: dict[int, tuple[Scenario, list[tuple[Any, tuple[Cell, ...], frozenset[Cell]]]]] = {}
"""Per scenario (by identity; the entry keeps it alive): each objective with its cells."""


def _objective_cells(scenario: Scenario) -> list[tuple[Any, tuple[Cell, ...], frozenset[Cell]]]:
    hit = _OBJ_MEMO.get(id(scenario))
    if hit is not None and hit[0] is scenario:
        return hit[1]
    made = []
    for obj in scenario.objectives:
        cells = tuple((int(c[0]), int(c[1])) for c in obj.cells)
        made.append((obj, cells, frozenset(cells)))
    if len(_OBJ_MEMO) >= 64:
        _OBJ_MEMO.clear()
    _OBJ_MEMO[id(scenario)] = (scenario, made)
    return made


def _objectives(state: GameState, side: Side | None) -> list[dict[str, Any]]:
    """Objectives with what the viewer knows of who stands on them."""
    out = []
    occ = state.occupancy()
    units = state.units
    spotted_cells = (
        None
        if side is None
        else {
            ct.cell
            for ct in state.contacts[side].values()
            if ct.level == ContactLevel.SPOTTED and ct.cell is not None
        }
    )
    for obj, cells, cellset in _objective_cells(state.scenario):
        entry: dict[str, Any] = {
            "id": obj.id,
            "name": {"fi": obj.name.fi, "en": obj.name.en},
            "cells": [[c[0], c[1]] for c in cells],
            "vp": obj.vp,
            "holder_at_start": obj.holder_at_start,
        }
        if spotted_cells is None:
            here = {units[uid].side for c in cells for uid in occ.get(c, ())}
            entry["occupied_by"] = sorted(here)
        else:
            own = any(units[uid].side == side for c in cells for uid in occ.get(c, ()))
            entry["own_present"] = own
            entry["enemy_seen"] = not spotted_cells.isdisjoint(cellset)
        out.append(entry)
    return out


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value
