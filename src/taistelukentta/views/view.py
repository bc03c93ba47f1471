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
from typing import Any, Literal, cast

from pydantic import create_model

from taistelukentta.content.scenario import Scenario
from taistelukentta.dice.expr import DiceExpr
from taistelukentta.dice.roller import seed_commitment
from taistelukentta.errors import ArgumentError
from taistelukentta.grid.geometry import Cell
from taistelukentta.rules import GM_SEAT, Event, GameState, UnitState
from taistelukentta.rules.context import ScenarioCache, cache_for
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.ruleset import Ruleset
from taistelukentta.rules.state import Side, jsonable
from taistelukentta.views.events import audience, seen_model
from taistelukentta.views.models import (
    AnyView,
    ContactView,
    EmptySection,
    EventView,
    GMObjectiveView,
    GMView,
    LocalText,
    Losses,
    MapSize,
    OwnLosses,
    OwnUnitView,
    SeatView,
    SideObjectiveView,
    SideView,
    UnitView,
    ViewModel,
    pick,
)

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
            out.append({"seq": ev.seq, "kind": ev.kind, "data": jsonable(gm)})
            continue
        clean = dict(data)
        for key in secret_keys:
            clean.pop(key, None)
        if "rolls" in clean:
            clean["rolls"] = [r for r in clean["rolls"] if not r.get("secret")]
        named = _named_units(clean)
        hidden = None if enemy_ids is None else enemy_ids - named
        seen = _whitelisted(ev, side, _scrub(jsonable(clean), hidden), scenario)
        if seen is not None:
            # The side's own number: its sequence counts only the events it sees.
            out.append({"seq": ev.number_for(side), "kind": ev.kind, "data": seen})
    return out


def _whitelisted(
    ev: Event, side: str, data: dict[str, Any], scenario: Scenario | None
) -> dict[str, Any] | None:
    """``side``'s copy of ``ev`` built from the whitelist model of its kind and audience
    (views/events.py): only the keys that model declares are copied; None when the
    audience sees nothing of this kind."""
    memo = None if scenario is None else scenario_memo(scenario, _SEEN)
    key = (id(ev), side)
    hit = None if memo is None else memo.get(key)
    if hit is not None and hit[0] is ev:
        dumped = hit[1]
    else:
        model = seen_model(ev.kind, audience(ev.kind, ev.data, side, scenario))
        dumped = None if model is None else pick(model, data).model_dump(mode="json")
        if memo is not None:
            if len(memo) >= 65536:
                memo.clear()
            # The entry keeps the (immutable) event alive: its id is not reused meanwhile.
            memo[key] = (ev, dumped)
    # A fresh outer dict; its values are shared with the memo (callers only read them).
    return None if dumped is None else dict(dumped)


_SEEN = "views.seen_events"
"""Each event's whitelisted copy per audience, kept with the scenario object (a log is
shown again and again; the copy depends only on the event, the side and the scenario), on
the identity of the event."""


def scenario_memo(scenario: Scenario, name: str) -> dict[Any, Any]:
    """A named memo of the views kept with ``scenario`` (in its ``rule_caches``): it lives
    and dies with the scenario object. A copy of a scenario shares the store, so the entry
    remembers whose it is and a copy starts its own."""
    store = scenario.rule_caches
    hit: tuple[Scenario, dict[Any, Any]] | None = store.get(name)
    if hit is None or hit[0] is not scenario:
        hit = (scenario, {})
        store[name] = hit
    return hit[1]


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
) -> AnyView:
    """The view of ``state`` for ``viewer`` (``blue``, ``red``, ``gm`` or a seat): a
    :class:`~taistelukentta.views.models.SideView`, :class:`~.models.SeatView` or
    :class:`~.models.GMView` (``model_dump(mode="json")`` is what ``tk20 show --json``
    prints).

    ``log_limit`` keeps only the last N visible events (None = all, 0 = none).
    ``extras=False`` leaves out the rule modules' sections (``command``, ``fire_support``,
    ``mines``, ``abilities``; about half the cost of a view without its log) for a caller
    that does not read them. ``shared`` is accepted for older callers: the models are
    immutable, so their parts are always shared between views."""
    del shared
    kind, seat = resolve_viewer(state, viewer)
    cache = cache_for(state)
    scenario = state.scenario
    out: dict[str, Any] = {
        "format": VIEW_FORMAT,
        "viewer": viewer,
        "side": None if kind == "gm" else kind,
        "seat": seat,
        "scenario": scenario.id,
        "title": _title(scenario),
        "map": _map_size(cache),
        "turn": state.round,
        "rounds": scenario.rounds,
        "turn_no": state.turn_no,
        "phase": state.phase.value,
        "active_side": state.active,
        "done": tuple(sorted(state.done)),
        "finished": state.finished,
        # Public to every side: the scheme and the SHA-256 of the secret seed (None for a
        # legacy game), so the seed can be checked when it is revealed after the game.
        "dice": state.dice_scheme,
        "seed_commitment": seed_commitment(state.seed),
    }
    if kind == "gm":
        out["units"] = tuple(_unit(cache, u, full=True) for u in state.units.values())
        out["contacts"] = {
            side: tuple(
                _contact(cache, uid, state, side, gm=True) for uid in sorted(state.contacts[side])
            )
            for side in ("blue", "red")
        }
        out["command_points"] = dict(sorted(state.kp.items()))
        out["destroyed"] = Losses(blue=state.destroyed["blue"], red=state.destroyed["red"])
        out["objectives"] = _objectives(state, None)
    else:
        side: Side = kind
        own = [
            _unit(cache, u, full=True, seat=seat) for u in state.units.values() if u.side == side
        ]
        spotted = [
            _unit(cache, state.units[uid], full=False)
            for uid, c in sorted(state.contacts[side].items())
            if c.level == ContactLevel.SPOTTED and uid in state.units
        ]
        out["units"] = (*own, *spotted)
        out["contacts"] = tuple(
            _contact(cache, uid, state, side, gm=False) for uid in _contact_order(state, side)
        )
        out["command_points"] = {s: state.kp.get(s, 0) for s in state.seats(side)}
        if seat is not None:
            out["seat_command_points"] = state.kp.get(seat, 0)
        # Own losses only: how many enemy units are gone is told by the events the side saw
        # (a unit destroyed out of sight must not show up as a count).
        out["destroyed"] = OwnLosses(own=state.destroyed[side])
        out["objectives"] = _objectives(state, side)
    if extras:
        out.update(module_extras(state, kind))
    if log_limit == 0:
        out["log"] = ()
    else:
        events = state.events
        if log_limit is not None:
            # The last N events *the viewer sees* (the last N of the whole log would tell
            # by their number how many of them were hidden).
            who = "gm" if kind == "gm" else kind
            events = tuple(e for e in events if e.for_side(who) is not None)[-log_limit:]
        out["log"] = tuple(
            EventView.model_validate(e)
            for e in redact(events, "gm" if kind == "gm" else kind, scenario)
        )
    if state.finished:
        out["winner"] = state.winner
        out["victory_points"] = None if state.vp is None else dict(state.vp)
    side_cls, seat_cls, gm_cls = view_classes(cache.rules)
    if kind == "gm":
        return gm_cls.model_validate(out)
    if seat is not None:
        return seat_cls.model_validate(out)
    return side_cls.model_validate(out)


def _title(scenario: Scenario) -> LocalText:
    memo = scenario_memo(scenario, "views.title")
    made: LocalText | None = memo.get("title")
    if made is None:
        made = memo["title"] = LocalText(fi=scenario.title.fi, en=scenario.title.en)
    return made


def _map_size(cache: ScenarioCache) -> MapSize:
    return MapSize(width=cache.map.width, height=cache.map.height)


# --------------------------------------------------------------------------- modules


def module_extras(state: GameState, viewer: ViewerKind) -> dict[str, ViewModel]:
    """The rule modules' sections ``viewer`` may see: each view section of the game's
    ruleset (``RuleModule.view``: ``command``, ``fire_support``, ``mines``, ``abilities``
    in the default ruleset) under its key, as its module builds it —
    :class:`~.models.EmptySection` when the viewer sees nothing of it. A module builds a
    side's copy with :func:`~.models.pick` from the model of what a side may see, so a key
    it adds to its raw state (such as a pending strike's secret delay, R-OFF-2) is not
    copied unless that model declares it."""
    out: dict[str, ViewModel] = {}
    for section in cache_for(state).rules.view_sections:
        made = section.build(state, viewer)
        out[section.key] = made if made is not None else EmptySection()
    return out


def view_classes(rules: Ruleset) -> tuple[type[SideView], type[SeatView], type[GMView]]:
    """The view models of a ruleset: :class:`~.models.SideView`, :class:`~.models.SeatView`
    and :class:`~.models.GMView` themselves when every section of ``rules`` is one of
    theirs; else subclasses with a field for each other section (typed by its module's
    models), made once per ruleset."""
    found = rules.memo.get("views.classes")
    if found is not None:
        return cast(tuple[type[SideView], type[SeatView], type[GMView]], found)
    extra = [sec for sec in rules.view_sections if sec.key not in GMView.model_fields]
    if not extra:
        made: tuple[type[SideView], type[SeatView], type[GMView]] = (SideView, SeatView, GMView)
    else:
        side_fields: dict[str, Any] = {
            sec.key: (sec.side | EmptySection | None, None) for sec in extra
        }
        gm_fields: dict[str, Any] = {sec.key: (sec.gm | EmptySection | None, None) for sec in extra}
        side_cls = create_model("SideView", __base__=SideView, **side_fields)
        seat_cls = create_model("SeatView", __base__=(SeatView, side_cls))
        gm_cls = create_model("GMView", __base__=GMView, **gm_fields)
        made = (side_cls, cast(type[SeatView], seat_cls), gm_cls)
    rules.memo["views.classes"] = made
    return made


# --------------------------------------------------------------------------- pieces


_UNIT_MEMO_LIMIT = 8192
"""Most unit (or contact) models a scenario's memo keeps (cleared when full)."""


def _unit(
    cache: ScenarioCache,
    u: UnitState,
    *,
    full: bool,
    seat: str | None = None,
) -> OwnUnitView | UnitView:
    """A unit as a view shows it. Memoised on the identity of the (immutable) unit state:
    most units do not change from one order to the next, and the model is immutable too."""
    commanded = (u.seat == seat) if (seat is not None and full) else None
    # Kept with the scenario's rule caches; the entry keeps the unit state alive, so its id
    # cannot be reused while the entry exists.
    memo = cache.memo("views.units")
    key = (id(u), full, commanded)
    hit = memo.get(key)
    if hit is not None and hit[0] is u:
        entry: OwnUnitView | UnitView = hit[1]
        return entry
    if len(memo) >= _UNIT_MEMO_LIMIT:
        memo.clear()
    entry = _unit_entry(cache, u, full=full, commanded=commanded)
    memo[key] = (u, entry)
    return entry


def _unit_entry(
    cache: ScenarioCache, u: UnitState, *, full: bool, commanded: bool | None
) -> OwnUnitView | UnitView:
    """A unit as a view shows it. ``full``: own unit (or the GM's view) with its orders
    state and weapon; otherwise a SPOTTED enemy with what a spotted unit shows."""
    card = cache.card(u)
    opts = cache.opts
    statuses = set(u.statuses(opts.damaged_threshold))
    if full and u.ext.get("abilities", {}).get("hidden"):
        # R-MOR-3: HIDDEN (rules/abilities.py) shows to the unit's own side and the GM only.
        statuses.add("HIDDEN")
    if u.ext.get("mines", {}).get("immobilised"):
        # R-MINE-4: an immobilised unit (rules/mines.py); its status event is shown to a
        # side that has it SPOTTED, so a spotted unit shows it too.
        statuses.add("IMMOBILISED")
    entry: dict[str, Any] = {
        "id": u.id,
        "side": u.side,
        "card": u.card,
        "name": _card_name(card.name.fi, card.name.en),
        "cell": (u.cell[0], u.cell[1]),
        "strength": u.strength,
        "max_strength": u.max_strength,
        "statuses": tuple(sorted(statuses)),
        "armoured": card.armoured,
        "protection": card.stats.protection,
        "cover": cache.map.cover_at(u.cell),
    }
    if not full:
        return UnitView.model_validate(entry)
    disabled = u.ext.get("abilities", {}).get("disabled") or {}
    weapon = card.basic_weapon
    fp = cache.firepower(u, DiceExpr.parse(weapon.damage))
    bonus = cache.skill(u) + weapon.attack_bonus
    if u.shaken is not None:
        bonus -= opts.shaken_attack_penalty
    if u.pinned is not None:
        bonus -= u.pinning_penalty
    entry.update(
        {
            # R-AB-2: abilities a sniper hit disabled, with the turn they come back.
            "disabled_abilities": {str(k): int(v) for k, v in sorted(disabled.items())},
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
    if commanded is not None:
        entry["commanded"] = commanded
    return OwnUnitView.model_validate(entry)


_NAMES: dict[tuple[str, str], LocalText] = {}


def _card_name(fi: str, en: str) -> LocalText:
    hit = _NAMES.get((fi, en))
    if hit is None:
        if len(_NAMES) >= 1024:
            _NAMES.clear()
        hit = _NAMES[(fi, en)] = LocalText(fi=fi, en=en)
    return hit


def _contact_order(state: GameState, side: Side) -> list[str]:
    """The side's contacts ordered by label number (never by the hidden unit id)."""
    contacts = state.contacts[side]
    return sorted(contacts, key=lambda uid: int(contacts[uid].label.lstrip("c") or 0))


def _contact(
    cache: ScenarioCache, uid: str, state: GameState, side: Side, *, gm: bool
) -> ContactView:
    """A contact as the view shows it, memoised with the scenario's rule caches on the
    identity of the (immutable) contact record (the memo keeps it alive, so its id is not
    reused while the entry exists)."""
    c = state.contacts[side][uid]
    memo = cache.memo("views.contacts")
    key = (uid, id(c), gm)
    hit = memo.get(key)
    if hit is not None and hit[0] is c:
        found: ContactView = hit[1]
        return found
    entry: dict[str, Any] = {"label": c.label, "level": c.level.code}
    if gm or c.level == ContactLevel.SPOTTED:
        entry["unit"] = uid
    if c.cell is not None:
        entry["cell"] = c.cell
    if c.area is not None:
        entry["area"] = c.area
    if c.card is not None:
        entry["card"] = c.card
    made = ContactView.model_validate(entry)
    if len(memo) >= _UNIT_MEMO_LIMIT:
        memo.clear()
    memo[key] = (c, made)
    return made


_Objective = tuple[Any, tuple[Cell, ...], frozenset[Cell], dict[tuple[Any, Any], ViewModel]]


def _objective_cells(scenario: Scenario) -> list[_Objective]:
    """Each objective with its cells and its view models so far, kept with the scenario."""
    memo = scenario_memo(scenario, "views.objectives")
    made: list[_Objective] | None = memo.get("objectives")
    if made is None:
        made = []
        for obj in scenario.objectives:
            cells = tuple((int(c[0]), int(c[1])) for c in obj.cells)
            made.append((obj, cells, frozenset(cells), {}))
        memo["objectives"] = made
    return made


def _objectives(
    state: GameState, side: Side | None
) -> tuple[SideObjectiveView, ...] | tuple[GMObjectiveView, ...]:
    """Objectives with what the viewer knows of who stands on them."""
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
    gm: list[GMObjectiveView] = []
    seen: list[SideObjectiveView] = []
    for made in _objective_cells(state.scenario):
        _, cells, cellset, _ = made
        if spotted_cells is None:
            here = tuple(sorted({units[uid].side for c in cells for uid in occ.get(c, ())}))
            gm.append(cast(GMObjectiveView, _objective_variant(made, ("occupied_by", here))))
        else:
            own = any(units[uid].side == side for c in cells for uid in occ.get(c, ()))
            enemy = not spotted_cells.isdisjoint(cellset)
            seen.append(cast(SideObjectiveView, _objective_variant(made, (own, enemy))))
    return tuple(gm) if side is None else tuple(seen)


def _objective_variant(made: _Objective, key: tuple[Any, Any]) -> ViewModel:
    """The objective's model for one answer to "who stands on it" (few per objective,
    so they are kept)."""
    obj, cells, _, variants = made
    hit = variants.get(key)
    if hit is not None:
        return hit
    entry: dict[str, Any] = {
        "id": obj.id,
        "name": _card_name(obj.name.fi, obj.name.en),
        "cells": cells,
        "vp": obj.vp,
        "holder_at_start": obj.holder_at_start,
    }
    model: ViewModel
    if key[0] == "occupied_by":
        entry["occupied_by"] = key[1]
        model = GMObjectiveView.model_validate(entry)
    else:
        entry["own_present"], entry["enemy_seen"] = key
        model = SideObjectiveView.model_validate(entry)
    variants[key] = model
    return model
