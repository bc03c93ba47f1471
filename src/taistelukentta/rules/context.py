"""The working copy of one ``apply`` (copy-on-write) and per-scenario caches.

:class:`Tx` copies the state's containers shallowly, lets the rule modules replace units,
contacts and pools in those copies, records events with their per-side redaction and builds
the new :class:`GameState` at the end. The input state is never modified.

:class:`ScenarioCache` keeps what depends only on the (immutable) scenario: visible cells
per origin, line-of-sight results per pair, terrain flags, per-card strength thresholds.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from taistelukentta.content.options import RuleOptions
from taistelukentta.content.scenario import URBAN_ABILITY, Scenario, urban_map
from taistelukentta.content.units import UnitCard
from taistelukentta.dice.expr import DiceExpr
from taistelukentta.dice.roller import Roller
from taistelukentta.grid.gamemap import GameMap
from taistelukentta.grid.geometry import Cell, chebyshev
from taistelukentta.rules.events import Event, numbered, public_rolls
from taistelukentta.rules.orders import Order, OrderArgs, OrderKind, trusted_order
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.registry import Hooks
from taistelukentta.rules.ruleset import Ruleset, default_ruleset
from taistelukentta.rules.state import (
    SIDES,
    Contact,
    GameState,
    Phase,
    Side,
    UnitState,
    contact_area,
    log_append,
    log_counts,
)

if TYPE_CHECKING:
    from taistelukentta.grid.sight import Sight

from taistelukentta.rules.strength import (
    Firepower,
    StrengthEffects,
    StrengthThreshold,
    apply_strength_effects,
    strength_effects,
)

SIGHT_MEMO_LIMIT = 100_000
"""Most line-of-sight results a scenario cache keeps (cleared when full)."""

ORDER_MEMO_LIMIT = 200_000
"""Most shared order objects a scenario cache keeps (cleared when full)."""

OPEN_FEATURES = frozenset({"open", "road"})
"""Terrain ids that make a cell "fully open" (R-ATK-7, R-REC-3)."""


class ScenarioCache:
    """Scenario-only lookups of one ruleset, shared by every state of every game of one
    scenario object and that ruleset (:meth:`Ruleset.context`). Everything kept here is
    derived from the scenario and the ruleset, keyed by value."""

    def __init__(self, scenario: Scenario, rules: Ruleset) -> None:
        self.scenario = scenario
        self.rules = rules
        """The ruleset these caches belong to (its handlers and hooks)."""
        self.hooks: Hooks = rules.hooks
        self.map: GameMap = scenario.map
        self.opts: RuleOptions = scenario.options
        self.urban_units: frozenset[str] = (
            frozenset(p.id for _, _, p in scenario.placements() if URBAN_ABILITY in p.veteran)
            if rules.has("veteran")
            else frozenset()
        )
        """Units with *Kaupunkisissi* (R-CAMP-3; only where the ruleset has ``veteran``)."""
        self._urban_map: GameMap | None = None
        self.cards: dict[str, UnitCard] = dict(scenario.cards)
        self._visible: dict[Cell, frozenset[Cell]] = {}
        self._sight: dict[tuple[Cell, Cell], Sight] = {}
        self._open: dict[Cell, bool] = {}
        self._thresholds: dict[str, tuple[StrengthThreshold, ...]] = {}
        self._zoc: dict[Cell, frozenset[Cell]] = {}
        self.reach_memo: dict[tuple[Any, ...], dict[Cell, float]] = {}
        """Reachable areas by (cell, allowance, blocked, stop, full) — see rules.movement."""
        self.path_memo: dict[tuple[Any, ...], tuple[Cell, ...] | None] = {}
        """Planned paths by (cell, allowance, blocked, stop, goal) — see rules.movement."""
        self._orders: dict[tuple[Any, ...], Order] = {}
        self.order_lists: dict[tuple[Any, ...], tuple[Any, list[Order]]] = {}
        """Legal-order lists per (kind, unit, destination dict, …) — see rules.engine."""
        self._effects: dict[tuple[str, int, int], StrengthEffects] = {}
        self.free_reach: dict[tuple[Cell, int], frozenset[Cell]] = {}
        """Unobstructed reachable cells by (cell, allowance)."""
        self._memos: dict[str, dict[Any, Any]] = {}

    def memo(self, name: str) -> dict[Any, Any]:
        """A named memo of derived data owned by these caches (a view's models of the
        scenario's units, …): it lives and dies with the scenario object, so no key of it
        can meet another scenario's. Its keeper decides its keys and its size."""
        found = self._memos.get(name)
        if found is None:
            found = self._memos.setdefault(name, {})
        return found

    def map_for(self, unit: UnitState) -> GameMap:
        """The map ``unit`` moves on: the scenario's, or for a unit with *Kaupunkisissi*
        the one where buildings cost what open ground costs (R-CAMP-3)."""
        return self.urban_map() if unit.id in self.urban_units else self.map

    def urban_map(self) -> GameMap:
        """The scenario's map as a unit with *Kaupunkisissi* moves on it (built once)."""
        if self._urban_map is None:
            self._urban_map = urban_map(self.map)
        return self._urban_map

    def order(
        self,
        kind: OrderKind,
        unit: str | None = None,
        cell: Cell | None = None,
        target: str | None = None,
        args: OrderArgs | None = None,
    ) -> Order:
        """An engine-generated order, shared (orders are immutable) so that listing
        thousands of legal orders stays cheap (``args``: a module's valid fields)."""
        key = (kind, unit, cell, target) if args is None else (kind, unit, cell, target, args)
        found = self._orders.get(key)
        if found is None:
            if len(self._orders) >= ORDER_MEMO_LIMIT:
                self._orders.clear()
            found = trusted_order(kind, unit, cell, target, args=args)
            self._orders[key] = found
        return found

    def visible_from(self, cell: Cell) -> frozenset[Cell]:
        """Cells a unit at ``cell`` sees (R-TER-4, up to ``sight_max``)."""
        vis = self._visible.get(cell)
        if vis is None:
            from taistelukentta.grid.sight import visible_cells  # numpy on first use

            vis = frozenset(visible_cells(self.map, cell, self.opts.sight_max))
            self._visible[cell] = vis
        return vis

    def sees(self, a: Cell, b: Cell) -> bool:
        """Whether units at ``a`` and ``b`` see each other (symmetric)."""
        if chebyshev(a, b) > self.opts.sight_max:
            return False
        return b in self.visible_from(a)

    def sight(self, a: Cell, b: Cell) -> Sight:
        """Line of sight from ``a`` to ``b`` with the cover ``b`` gets (R-TER-4)."""
        key = (a, b)
        s = self._sight.get(key)
        if s is None:
            from taistelukentta.grid.sight import line_of_sight  # numpy on first use

            s = line_of_sight(self.map, a, b, max_range=self.opts.sight_max)
            if len(self._sight) >= SIGHT_MEMO_LIMIT:
                self._sight.clear()
            self._sight[key] = s
        return s

    def elevation(self, a: Cell, b: Cell, *, drone: bool = False) -> int:
        """R-TER-5 modifier to an attack or recon roll from ``a`` at ``b``: +``elevation_bonus``
        when ``a`` is at least ``elevation_advantage_contours`` above ``b``, minus it when
        that far below (not for drone recon), else 0."""
        diff = self.map.elevation_at(a) - self.map.elevation_at(b)
        need = self.opts.elevation_advantage_contours
        if diff >= need:
            return self.opts.elevation_bonus
        if diff <= -need and not drone:
            return -self.opts.elevation_bonus
        return 0

    def fully_open(self, cell: Cell) -> bool:
        """The cell holds only open terrain or road (R-ATK-7 DEFAULT, R-REC-3)."""
        v = self._open.get(cell)
        if v is None:
            v = set(self.map.features_at(cell)) <= OPEN_FEATURES
            self._open[cell] = v
        return v

    def zoc(self, cell: Cell) -> frozenset[Cell]:
        """The ZoC block of a unit at ``cell`` (R-ZOC-1, radius ``zoc_radius``), on the map."""
        z = self._zoc.get(cell)
        if z is None:
            r = self.opts.zoc_radius
            x, y = cell
            z = frozenset(
                (cx, cy)
                for cx in range(max(0, x - r), min(self.map.width, x + r + 1))
                for cy in range(max(0, y - r), min(self.map.height, y + r + 1))
            )
            self._zoc[cell] = z
        return z

    def thresholds(self, card_id: str) -> tuple[StrengthThreshold, ...]:
        """The strength thresholds of a card (R-TK-1): DAMAGED plus the options' extras."""
        t = self._thresholds.get(card_id)
        if t is None:
            card = self.cards[card_id]
            o = card.overrides
            move_mode = (o.damaged_movement if o else None) or self.opts.damaged_movement
            fire_mode = (o.damaged_firepower if o else None) or self.opts.damaged_firepower
            divisor = 2 if move_mode == "halve" else 1
            steps = 0 if fire_mode == "none" else 1
            effects = StrengthEffects(
                movement_divisor=divisor, firepower_steps=steps, statuses=frozenset({"DAMAGED"})
            )
            extra = StrengthEffects(movement_divisor=divisor, firepower_steps=steps)
            levels = [StrengthThreshold(Fraction(self.opts.damaged_threshold, 100), effects)]
            levels += [
                StrengthThreshold(Fraction(p, 100), extra)
                for p in sorted(self.opts.strength_thresholds, reverse=True)
            ]
            t = tuple(levels)
            self._thresholds[card_id] = t
        return t

    def card(self, unit: UnitState) -> UnitCard:
        return self.cards[unit.card]

    def skill(self, unit: UnitState) -> int:
        """TT = K + floor(XP / campaign_xp_per_tt) (R-UNIT-1, R-CAMP-3; default 10)."""
        return self.cards[unit.card].stats.training + unit.xp // self.opts.campaign_xp_per_tt

    def effects(self, unit: UnitState) -> StrengthEffects:
        """Accumulated strength effects of the unit now (R-TK-1), memoised."""
        key = (unit.card, unit.strength, unit.max_strength)
        found = self._effects.get(key)
        if found is None:
            found = strength_effects(unit.strength, unit.max_strength, self.thresholds(unit.card))
            self._effects[key] = found
        return found

    def movement(self, unit: UnitState) -> int:
        """Movement L after strength effects (R-TK-1) and the ``movement_allowance``
        hooks."""
        card = self.cards[unit.card]
        base = card.stats.movement // self.effects(unit).movement_divisor
        for fn in self.hooks.movement_allowance:
            base = fn(self, unit, base)
        return base

    def firepower(self, unit: UnitState, dice: DiceExpr) -> Firepower:
        """The basic attack's damage die after strength effects (R-TK-1)."""
        card = self.cards[unit.card]
        o = card.overrides
        mode = (o.damaged_firepower if o else None) or self.opts.damaged_firepower
        if mode == "none":
            return Firepower(dice)
        _, fp = apply_strength_effects(
            card.stats.movement,
            dice,
            self.effects(unit),
            mode="halve" if mode == "halve" else "step_down",
        )
        return fp

    def is_damaged(self, unit: UnitState) -> bool:
        return unit.is_damaged(self.opts.damaged_threshold)


SPOTTED_ONLY_KINDS = frozenset({"status"})
"""Unit events a side sees only when it has the unit SPOTTED: a status change of a KNOWN or
SUSPECTED contact would tell it what its contacts do not (e.g. that the unit was SHAKEN)."""


def cache_for(of: GameState | Scenario) -> ScenarioCache:
    """The rule caches of a game state (its ruleset, its scenario), or of a scenario under
    the default ruleset."""
    if type(of) is GameState:
        rules = of.ruleset
        return (rules if rules is not None else _default()).context(of.scenario)
    if isinstance(of, GameState):
        return ruleset_of(of).context(of.scenario)
    assert not isinstance(of, GameState)
    return _default().context(of)


_default = default_ruleset


def ruleset_of(state: GameState) -> Ruleset:
    """The ruleset ``state``'s game plays with."""
    if state.ruleset is not None:
        return state.ruleset
    return default_ruleset()


def target_blocked(state: GameState, attacker: UnitState, target: str) -> tuple[str, str] | None:
    """The first ``can_be_targeted`` refusal the ordering side may be told, or None: what
    legal orders, refusals and the fire phase's flow are computed from.

    In new games (HMAC dice) none: whether a SPOTTED enemy is HIDDEN is not the side's
    knowledge (R-MOR-3 statuses show to the unit's own side only), so the order is legal
    and comes to nothing when it is carried out (:func:`target_refused`, issue 8). Legacy
    games refuse as they did, so that they replay."""
    if isinstance(state.seed, bytes):
        return None
    return target_refused(state, attacker, target)


def target_refused(state: GameState, attacker: UnitState, target: str) -> tuple[str, str] | None:
    """The first ``can_be_targeted`` refusal of the state's ruleset, or None (the truth:
    for carrying an attack out)."""
    for fn in cache_for(state).hooks.can_be_targeted:
        problem = fn(state, attacker, target)
        if problem is not None:
            return problem
    return None


def view_extras(state: GameState, viewer: str) -> dict[str, Any]:
    """Module state a viewer may see: ``viewer`` is ``"blue"``, ``"red"`` or ``"gm"``
    (everything). One key per module, merged from the ``view_extras`` hooks."""
    out: dict[str, Any] = {}
    for fn in cache_for(state).hooks.view_extras:
        out.update(fn(state, viewer))
    return out


UnitRef = str | dict[str, Any] | None


def make_roller(state: GameState) -> Roller:
    """The roller an ``apply`` continues with (tests replace this to script the dice)."""
    return Roller.from_state(state.roller)


class Tx:
    """A copy-on-write working copy of a state for one ``apply``."""

    def __init__(self, state: GameState) -> None:
        self.base = state
        self.strict_fog = isinstance(state.seed, bytes)
        """A game of the HMAC dice (every new game): the issue-8 fixes that change the
        game state itself apply (labels and strike ids only when granted, the fire phase
        ended by each seat's own ``done``). Legacy-seed games keep the old behaviour so
        that they replay to the same hashes."""
        self.scenario = state.scenario
        self.cache = cache_for(state)
        self.opts = self.cache.opts
        self.map = self.cache.map
        self.units: dict[str, UnitState] = dict(state.units)
        self.contacts: dict[Side, dict[str, Contact]] = {s: dict(state.contacts[s]) for s in SIDES}
        self.serial: dict[Side, int] = dict(state.contact_serial)
        self.kp: dict[str, int] = dict(state.kp)
        self.group_spent: dict[str, int] = dict(state.group_spent)
        self.destroyed: dict[Side, list[str]] = {s: list(state.destroyed[s]) for s in SIDES}
        self.round = state.round
        self.active: Side = state.active
        self.phase = state.phase
        self.turn_no = state.turn_no
        self.done: set[str] = set(state.done)
        self.winner = state.winner
        self.vp = None if state.vp is None else dict(state.vp)
        self._ext = state.ext
        self._roller: Roller | None = None
        self.events: list[Event] = []
        self.seq = state.event_count
        self._counts = log_counts(state.log)
        """Per side [events seen, rolls seen]: where its own numbering stands."""

    # -- dice ---------------------------------------------------------------------------------

    @property
    def roller(self) -> Roller:
        if self._roller is None:
            self._roller = make_roller(self.base)
        return self._roller

    def take_rolls(self) -> list[dict[str, Any]]:
        """The rolls made since the last call, as dictionaries."""
        if self._roller is None:
            return []
        return [r.to_dict() for r in self._roller.drain()]

    # -- units ----------------------------------------------------------------------------------

    def unit(self, uid: str) -> UnitState:
        return self.units[uid]

    def put(self, unit: UnitState) -> None:
        self.units[unit.id] = unit

    def update(self, uid: str, **changes: Any) -> UnitState:
        u = self.units[uid].with_changes(changes)
        self.units[uid] = u
        return u

    def units_of(self, side: Side) -> Iterator[UnitState]:
        return (u for u in self.units.values() if u.side == side)

    def units_at(self, cell: Cell) -> list[UnitState]:
        return [u for u in self.units.values() if u.cell == cell]

    def next_own_turn(self, side: Side) -> int:
        """turn_no of ``side``'s next own turn (R-TURN-3)."""
        return self.turn_no + (2 if self.active == side else 1)

    # -- module state ---------------------------------------------------------------------------

    def ext(self, module: str, default: Any = None) -> Any:
        """The game-level state of rule module ``module`` (treat it as immutable)."""
        return self._ext.get(module, default)

    def set_ext(self, module: str, value: Any) -> None:
        """Replace module ``module``'s game-level state (a new JSON-safe value; None
        removes it)."""
        new = dict(self._ext)
        if value is None:
            new.pop(module, None)
        else:
            new[module] = value
        self._ext = new

    def unit_ext(self, uid: str, module: str, default: Any = None) -> Any:
        """Module ``module``'s state on unit ``uid`` (treat it as immutable)."""
        return self.units[uid].ext.get(module, default)

    def set_unit_ext(self, uid: str, module: str, value: Any) -> UnitState:
        """Replace module ``module``'s state on unit ``uid`` (None removes it)."""
        new = dict(self.units[uid].ext)
        if value is None:
            new.pop(module, None)
        else:
            new[module] = value
        return self.update(uid, ext=new)

    # -- contacts -------------------------------------------------------------------------------

    def level(self, side: Side, uid: str) -> ContactLevel:
        c = self.contacts[side].get(uid)
        return ContactLevel.NONE if c is None else c.level

    def set_contact(
        self, side: Side, uid: str, level: ContactLevel, *, raise_only: bool = True
    ) -> bool:
        """Give ``side`` a contact of ``level`` on enemy unit ``uid`` (at its current cell).

        With ``raise_only`` a lower level never replaces a higher one. Returns whether the
        contact changed; a change is logged as a ``contact`` event for that side only.
        """
        unit = self.units[uid]
        old = self.contacts[side].get(uid)
        if old is not None and raise_only and old.level > level:
            return False
        if level == ContactLevel.NONE:
            return self.drop_contact(side, uid)
        hooks = self.cache.hooks.can_be_detected
        raising = bool(hooks) and (old is None or level > old.level)
        if raising and self.strict_fog:
            # New games: a contact a rule refuses uses up no label (the side's next label
            # would count the refusals, issue 8).
            for fn in hooks:
                if not fn(self, side, uid, int(level)):
                    return False
            raising = False
        label = old.label if old is not None else self._new_label(side)
        new = Contact(
            label=label,
            level=level,
            cell=unit.cell if level == ContactLevel.SPOTTED else None,
            area=contact_area(
                unit.cell, level, self.opts.contact_area_known, self.opts.contact_area_suspected
            ),
            card=unit.card if level >= ContactLevel.KNOWN else None,
        )
        if old == new:
            return False
        if raising:
            for fn in hooks:
                if not fn(self, side, uid, int(level)):
                    return False
        self.contacts[side][uid] = new
        self._contact_event(side, uid, new)
        return True

    def drop_contact(self, side: Side, uid: str) -> bool:
        old = self.contacts[side].pop(uid, None)
        if old is None:
            return False
        self.emit(
            "contact",
            {"side": side, "unit": uid, "label": old.label, "level": "NONE"},
            {side: {"side": side, "unit": {"contact": old.label}, "level": "NONE"}},
        )
        return True

    def _new_label(self, side: Side) -> str:
        self.serial[side] += 1
        return f"c{self.serial[side]}"

    def _contact_event(self, side: Side, uid: str, c: Contact) -> None:
        data = {"side": side, "unit": uid, "label": c.label, "level": c.level.code}
        data.update(_contact_fields(c))
        seen: dict[str, Any] = {"side": side, "unit": self.ref(side, uid), "level": c.level.code}
        seen.update(_contact_fields(c))
        self.emit("contact", data, {side: seen})

    def ref(self, side: Side, uid: str) -> UnitRef:
        """How ``side`` refers to unit ``uid`` now: its id (own or SPOTTED), a contact
        reference ``{"contact", "card"?, "area"}`` (KNOWN/SUSPECTED), or None (unseen)."""
        unit = self.units.get(uid)
        if unit is not None and unit.side == side:
            return uid
        c = self.contacts[side].get(uid)
        if c is None:
            return uid if unit is None and self._was_own(side, uid) else None
        if c.level == ContactLevel.SPOTTED:
            return uid
        out: dict[str, Any] = {"contact": c.label}
        if c.card is not None:
            out["card"] = c.card
        if c.area is not None:
            out["area"] = list(c.area)
        return out

    def _was_own(self, side: Side, uid: str) -> bool:
        return uid in self.destroyed[side]

    # -- events ---------------------------------------------------------------------------------

    def emit(
        self,
        kind: str,
        data: dict[str, Any],
        visible: dict[Side, dict[str, Any] | None] | None = None,
    ) -> Event:
        """Record an event. ``visible`` gives each side's copy (missing side = sees nothing;
        ``None`` for the whole argument = public: both sides see ``data`` without secret
        rolls)."""
        self.seq += 1
        if visible is None:
            pub = _without_secret(data)
            vis: dict[str, dict[str, Any] | None] = {s: pub for s in SIDES}
        else:
            vis = {s: visible.get(s) for s in SIDES}
        ev = numbered(Event(self.seq, kind, data, vis), self._counts, self.scenario)
        self.events.append(ev)
        return ev

    def unit_event(
        self,
        kind: str,
        uid: str,
        data: dict[str, Any],
        *,
        spotted_keys: tuple[str, ...] = (),
        contact_keys: tuple[str, ...] = (),
        hide_from_enemy: bool = False,
    ) -> Event:
        """An event about one unit: its side sees all; the other side sees ``spotted_keys``
        if it has the unit SPOTTED, ``contact_keys`` for a lower contact, nothing without
        one (nor with ``hide_from_enemy``). Rolls go with the spotted view."""
        unit_side = self.units[uid].side if uid in self.units else self._side_of(uid)
        enemy: Side = "red" if unit_side == "blue" else "blue"
        data = {"unit": uid, **data}
        vis: dict[Side, dict[str, Any] | None] = {unit_side: _without_secret(data)}
        ref = self.ref(enemy, uid)
        if hide_from_enemy or ref is None or (ref != uid and kind in SPOTTED_ONLY_KINDS):
            vis[enemy] = None
        else:
            keys = spotted_keys if ref == uid else contact_keys
            seen: dict[str, Any] = {"unit": ref}
            for k in keys:
                if k in data:
                    seen[k] = public_rolls(data[k]) if k == "rolls" else data[k]
            vis[enemy] = seen
        return self.emit(kind, data, vis)

    def _side_of(self, uid: str) -> Side:
        for s in SIDES:
            if uid in self.destroyed[s]:
                return s
        return self.scenario.side_of(uid)

    # -- result ---------------------------------------------------------------------------------

    def finish(self) -> GameState:
        roller = self.base.roller if self._roller is None else self._roller.getstate()
        b = self.base
        return GameState(
            scenario=b.scenario,
            ruleset=b.ruleset,
            seed=b.seed,
            round=self.round,
            active=self.active,
            phase=self.phase,
            turn_no=self.turn_no,
            done=frozenset(self.done),
            units=self.units,
            contacts=self.contacts,
            contact_serial=self.serial,
            kp=self.kp,
            group_spent=self.group_spent,
            destroyed={s: tuple(self.destroyed[s]) for s in SIDES},
            roller=roller,
            event_count=self.seq,
            winner=self.winner,
            vp=self.vp,
            ext=self._ext,
            log=log_append(b.log, tuple(self.events)),
        )

    @property
    def over(self) -> bool:
        return self.phase == Phase.OVER


def _contact_fields(c: Contact) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if c.cell is not None:
        out["cell"] = list(c.cell)
    if c.area is not None:
        out["area"] = list(c.area)
    if c.card is not None:
        out["card"] = c.card
    return out


def _without_secret(data: dict[str, Any]) -> dict[str, Any]:
    rolls = data.get("rolls")
    if not rolls or not any(r.get("secret") for r in rolls):
        return data
    out = dict(data)
    out["rolls"] = public_rolls(rolls)
    return out
