"""Special abilities, HIDDEN and special weapons (RULES.md §15, R-MOR-3, R-REC-6, R-ATK-8/9,
R-UNIT-3/4).

Abilities are driven by the unit cards: a card lists ability ids with their KP cost
(``kp_cost``) and the "(Vaurioitunut)" tag (``weakens_when_damaged``); the module's
:class:`AbilityTable` (ability id → :class:`AbilitySpec`) says what each id does. The table
belongs to the rule module built by :func:`rule_module` and so to the ruleset a game plays
with (no process-global registry): a new ability is card data plus one
:class:`AbilitySpec` given to ``rule_module(extra=(spec,))`` (docs/abilities.md).

Orders handled here: ``hide U`` (R-MOR-3), ``use U ABILITY [T | X,Y]`` (every activated
ability), and ``attack``/``fire … with W`` for special weapons (replacing the engine's
handlers, which keep the basic weapon).

Module state: ``UnitState.ext["abilities"]`` = ``{"hidden": true, "disabled": {ability:
until_turn_no}, "wave": turn_no}`` (keys only when set); ``GameState.ext["abilities"]`` =
``{"wave": {target_id: [attacker ids]}}`` during a turn.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from types import MappingProxyType
from typing import Any

from taistelukentta.content.units import (
    Ability,
    UnitCard,
    Weapon,
    hiding_abilities,
    load_abilities,
)
from taistelukentta.dice.expr import DiceExpr
from taistelukentta.errors import IllegalOrderError
from taistelukentta.grid.geometry import Cell, chebyshev
from taistelukentta.rules import command
from taistelukentta.rules.combat import (
    DamageType,
    Effect,
    apply_damage_type,
    resolve_area_attack,
)
from taistelukentta.rules.contacts import reveal_firer
from taistelukentta.rules.context import ScenarioCache, Tx, cache_for, target_blocked
from taistelukentta.rules.engine import (
    _free_to_act,
    _not_suppressed,
    _own_unit,
    _path_or_fail,
)
from taistelukentta.rules.fire import apply_setback, in_range, resolve_fire
from taistelukentta.rules.movement import destinations, knowledge
from taistelukentta.rules.orders import (
    Order,
    OrderArgs,
    OrderKind,
    OrderShape,
    OrderSyntax,
    OrderTokens,
    bad_order,
    check_name,
    module_syntax,
    order_disable,
    order_kind,
    order_weapon,
)
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.registry import OrderHandler, Plan
from taistelukentta.rules.ruleset import RuleModule, Ruleset
from taistelukentta.rules.sections import ViewModel, ViewSection, pick
from taistelukentta.rules.services import AbilitiesApi
from taistelukentta.rules.state import Action, Contact, GameState, Phase, Side, UnitState
from taistelukentta.rules.status import damage_unit

MODULE = "abilities"

HIDE: OrderKind = order_kind("hide")
USE: OrderKind = order_kind("use")
"""The order kinds this module adds (its own, not members of the engine's ``OrderKind``)."""

BOTH_PHASES = frozenset({Phase.COMMAND, Phase.FIRE})


def _illegal(en: str, fi: str) -> IllegalOrderError:
    return IllegalOrderError(en, fi)


# --------------------------------------------------------------------------- orders


@dataclass(frozen=True, slots=True)
class UseArgs(OrderArgs):
    """The field of ``use U ABILITY [T | X,Y]``: the ability id of the unit's card."""

    ability: str

    def head(self) -> list[str]:
        return [self.ability]

    def check(self, text: str) -> None:
        check_name(self.ability, text)


def hide_order(unit: str) -> Order:
    """``hide U``: enter HIDDEN through an ability that grants it (R-MOR-3)."""
    return Order(HIDE, unit)


def use_order(
    unit: str, ability: str, *, target: str | None = None, cell: Cell | None = None
) -> Order:
    """``use U ABILITY [T | X,Y]``: an activated ability of the unit's card (R-AB-*)."""
    return Order(USE, unit, cell, target, UseArgs(ability))


def ability_of(order: Order) -> str | None:
    """The ability a ``use`` order names (None for any other order)."""
    return order.args.ability if isinstance(order.args, UseArgs) else None


# --------------------------------------------------------------------------- registry


UseCheck = Callable[[GameState, Side, UnitState, Order, Ability], Any]
"""(state, side, unit, order, card ability) → data for the executor; raises
IllegalOrderError."""
UseExecute = Callable[[Tx, str, Order, Any], None]
"""(tx, unit id, order, data from the check)."""
UseLegal = Callable[[GameState, UnitState, Ability], Iterable[Order]]


@dataclass(frozen=True, slots=True)
class AbilitySpec:
    """What an ability id does. Everything is optional: a purely passive ability that
    another module reads (``tulenjohto``, ``pioneeri``) needs only its id.

    - ``grants_hidden``: ``hide U`` is allowed through this ability (R-MOR-3); normally
      set in ``data/abilities.toml`` instead (``grants_hidden = true``), which the
      scenario loader reads too;
    - ``weapon``: picks the card weapon the ability fires (sniper rifle, area weapon);
      ``with <ability id>`` on attack/fire names that weapon;
    - ``use_target``: what ``use U ABILITY`` takes: ``None`` (the ability is not used
      with ``use``), ``"none"``, ``"unit"`` or ``"cell"``;
    - ``check`` / ``execute`` / ``legal``: the ``use`` order of the ability;
    - ``phases``: the phases ``use`` is allowed in;
    - ``keeps_hidden``: using it does not end HIDDEN;
    - ``disables_on_hit``: a hit with its weapon disables one ability of the target
      (R-AB-2; the pick: ``fire … with W disable ABILITY``, else :func:`sniper_pick`)."""

    id: str
    grants_hidden: bool = False
    weapon: Callable[[UnitCard], Weapon | None] | None = None
    use_target: str | None = None
    check: UseCheck | None = None
    execute: UseExecute | None = None
    legal: UseLegal | None = None
    phases: frozenset[Phase] = BOTH_PHASES
    keeps_hidden: bool = False
    disables_on_hit: bool = False


@dataclass(frozen=True, slots=True)
class AbilityTable:
    """What each ability id does in one ruleset: ability id → :class:`AbilitySpec`, and
    the ids that are a way into HIDDEN (R-MOR-3: ``grants_hidden`` in
    ``data/abilities.toml`` or on the spec). Immutable; built by :func:`ability_table`."""

    specs: Mapping[str, AbilitySpec]
    hiding: frozenset[str]

    def get(self, ability_id: str) -> AbilitySpec | None:
        """The spec of ``ability_id`` (None when the table has none)."""
        return self.specs.get(ability_id)

    def grants_hidden(self, ability_id: str) -> bool:
        """The ability is a way into HIDDEN (R-MOR-3)."""
        if ability_id in self.hiding:
            return True
        spec = self.specs.get(ability_id)
        return spec is not None and spec.grants_hidden

    def resolve_weapon(self, card: UnitCard, unit: UnitState, name: str) -> WeaponUse:
        """``with NAME``: a weapon id of the card or an ability id whose spec names a
        weapon. Raises IllegalOrderError naming what is wrong (from the unit's own card
        only)."""
        weapon = card.weapon(name)
        ability: Ability | None = None
        if weapon is None:
            spec = self.specs.get(name)
            ab = card.ability(name)
            if spec is not None and spec.weapon is not None and ab is not None:
                weapon = spec.weapon(card)
                ability = ab
            if weapon is None:
                known = ", ".join(w.id for w in card.weapons)
                raise _illegal(
                    f"{unit.id} has no weapon {name!r} (weapons: {known})",
                    f"yksiköllä {unit.id} ei ole asetta {name!r} (aseet: {known})",
                )
        else:
            for ab in card.abilities:
                spec = self.specs.get(ab.id)
                if spec is not None and spec.weapon is not None and spec.weapon(card) == weapon:
                    ability = ab
                    break
        return WeaponUse(weapon, ability)

    def weapon_name(self, card: UnitCard, unit: UnitState, weapon_id: str) -> str:
        """The ``with`` name of a card weapon: the id of the ability that fires it (the
        module's reading), else the weapon id."""
        try:
            use = self.resolve_weapon(card, unit, weapon_id)
        except IllegalOrderError:
            return weapon_id
        return use.ability.id if use.ability is not None else weapon_id


def ability_table(extra: Iterable[AbilitySpec] = ()) -> AbilityTable:
    """The bundled abilities' specs — the three with rules of their own here, and a plain
    spec for every other id of ``data/abilities.toml`` (another module reads it with
    ``usable_ability``: tulenjohto, drone, pioneeri, …) — with ``extra`` added or
    replacing a bundled one of the same id."""
    specs: dict[str, AbilitySpec] = {}
    for spec in _bundled_specs():
        specs[spec.id] = spec
    for info in load_abilities().values():
        specs.setdefault(info.id, AbilitySpec(info.id))
    for spec in extra:
        specs[spec.id] = spec
    return AbilityTable(MappingProxyType(specs), hiding_abilities())


@functools.cache
def default_ability_table() -> AbilityTable:
    """:func:`ability_table` of the bundled abilities (built once; immutable)."""
    return ability_table()


def table_of(rules: Ruleset) -> AbilityTable:
    """The ability table of a ruleset (its abilities module's; the bundled table when the
    ruleset plays without the module)."""
    api = rules.api(AbilitiesApi)
    return api.table if api is not None else default_ability_table()


def _table(cache: ScenarioCache) -> AbilityTable:
    return table_of(cache.rules)


# --------------------------------------------------------------------------- unit state


def _ext(unit: UnitState) -> Mapping[str, Any]:
    found: Mapping[str, Any] = unit.ext.get(MODULE, {})
    return found


def is_hidden(unit: UnitState) -> bool:
    """The unit is HIDDEN (R-MOR-3). For area abilities and strikes: a hidden unit is
    not affected (options ``area_fire_hits_hidden``, ``strike_hits_hidden``)."""
    return bool(_ext(unit).get("hidden"))


def is_disabled(unit: UnitState, ability_id: str) -> bool:
    """A sniper hit made this ability unusable for now (R-AB-2)."""
    return ability_id in _ext(unit).get("disabled", {})


def usable_ability(cache: ScenarioCache, unit: UnitState, ability_id: str) -> Ability | None:
    """The card's ability ``ability_id`` if the unit has it and it is not disabled
    (R-AB-2); other modules use this for passive abilities (``tulenjohto``, ``pioneeri``)."""
    ability = cache.card(unit).ability(ability_id)
    if ability is None or is_disabled(unit, ability_id):
        return None
    return ability


def hidden_radius(cache: ScenarioCache) -> int:
    return cache.opts.hidden_radius


def hidden_blocks(state: GameState, observer: UnitState, target_id: str) -> tuple[str, str] | None:
    """R-MOR-3: a HIDDEN unit can be targeted by direct or indirect fire only by an
    attacker (for indirect fire: the observer) within ``hidden_radius``. The reason names
    only the target the side already refers to by id."""
    target = state.units.get(target_id)
    if target is None or target.side == observer.side or not is_hidden(target):
        return None
    r = hidden_radius(cache_for(state))
    if chebyshev(observer.cell, target.cell) <= r:
        return None
    return (
        f"{target_id} cannot be targeted from {observer.id}: it is HIDDEN and can be fired "
        f"at only from within {r} cells (R-MOR-3)",
        f"kohdetta {target_id} ei voi ampua yksiköstä {observer.id}: se on piiloutunut ja "
        f"ammuttavissa vain {r} ruudun päästä (R-MOR-3)",
    )


def _set_unit(tx: Tx, uid: str, **changes: Any) -> None:
    """Change keys of a unit's module state (None removes a key)."""
    cur = dict(tx.unit_ext(uid, MODULE, {}))
    for k, v in changes.items():
        if v is None:
            cur.pop(k, None)
        else:
            cur[k] = v
    tx.set_unit_ext(uid, MODULE, cur or None)


def set_hidden(tx: Tx, uid: str, reason: str) -> None:
    """Make ``uid`` HIDDEN; only its own side is told."""
    _set_unit(tx, uid, hidden=True)
    _own_event(tx, uid, "hidden", {"on": True, "reason": reason})


def end_hidden(tx: Tx, uid: str, reason: str) -> None:
    """HIDDEN ends (R-MOR-3); only its own side is told."""
    if uid in tx.units and is_hidden(tx.unit(uid)):
        _set_unit(tx, uid, hidden=None)
        _own_event(tx, uid, "hidden", {"on": False, "reason": reason})


def _own_event(tx: Tx, uid: str, kind: str, data: dict[str, Any]) -> None:
    """An event only the unit's own side sees (not even that something happened)."""
    full = {"unit": uid, **data}
    tx.emit(kind, full, {tx.unit(uid).side: full})


def _any_ext(units: Iterable[UnitState]) -> bool:
    return any(MODULE in u.ext for u in units)


# --------------------------------------------------------------------------- weapons


def _sniper_weapon(card: UnitCard) -> Weapon | None:
    """The sniper rifle: the card's first special, direct, non-area FRAG weapon."""
    return next(
        (
            w
            for w in card.weapons
            if w.special and not w.area and not w.indirect and w.damage_type == "FRAG"
        ),
        None,
    )


def _area_weapon(card: UnitCard) -> Weapon | None:
    """The card's first weapon that may fire at an area (R-UNIT-3, R-ATK-8)."""
    return next((w for w in card.weapons if w.area and not w.indirect), None)


@dataclass(frozen=True, slots=True)
class WeaponUse:
    """A non-basic weapon fired directly: the weapon, the ability it goes through (if any)."""

    weapon: Weapon
    ability: Ability | None


def resolve_weapon(cache: ScenarioCache, card: UnitCard, unit: UnitState, name: str) -> WeaponUse:
    """``with NAME`` under the ruleset of ``cache`` (:meth:`AbilityTable.resolve_weapon`)."""
    return _table(cache).resolve_weapon(card, unit, name)


def _weapon_permission(
    cache: ScenarioCache, unit: UnitState, use: WeaponUse, target: Contact | None
) -> None:
    """R-UNIT-3: a special weapon is fired only when an ability or the situation says so.
    An area weapon fires through its ability (``use U lamauttava_tuli X,Y``); an AT weapon
    at an armoured target (R-ATK-9); an ability's weapon through the (usable) ability."""
    w = use.weapon
    if w.indirect:
        raise _illegal(
            f"{w.id} fires only indirectly (fire support)",
            f"{w.id} ampuu vain epäsuoraa tulta (tulituki)",
        )
    if w.area:
        raise _illegal(
            f"{w.id} is an area weapon: fire it with `use {unit.id} <ability> X,Y` (R-ATK-8)",
            f"{w.id} on aluease: käytä `use {unit.id} <kyky> X,Y` (R-ATK-8)",
        )
    if use.ability is not None:
        if is_disabled(unit, use.ability.id):
            raise _illegal(
                f"{unit.id}'s ability {use.ability.id} is disabled this turn (R-AB-2)",
                f"yksikön {unit.id} kyky {use.ability.id} ei ole käytössä tässä vuorossa (R-AB-2)",
            )
        return
    if w.damage_type == "AT":
        card_id = target.card if target is not None else None
        if card_id is None or not cache.cards[card_id].armoured:
            raise _illegal(
                f"{w.id} is an anti-tank weapon: only against an armoured target (R-ATK-9)",
                f"{w.id} on panssarintorjunta-ase: vain panssaroitua maalia vastaan (R-ATK-9)",
            )
        return
    raise _illegal(
        f"{w.id} is a special weapon that no ability of {unit.id} fires (R-UNIT-3)",
        f"{w.id} on erikoisase, jota mikään yksikön {unit.id} kyky ei käytä (R-UNIT-3)",
    )


def _spotted(contacts: Mapping[str, Contact], target: str) -> Contact:
    c = contacts.get(target)
    if c is None or c.level != ContactLevel.SPOTTED or c.cell is None:
        raise _illegal(
            f"{target} is not a SPOTTED enemy unit (direct fire needs a SPOTTED contact)",
            f"{target} ei ole havaittu vihollisyksikkö (suora tuli vaatii Havaittu-kontaktin)",
        )
    return c


def _range_check(unit: UnitState, w: Weapon, origin: Cell, target: str, cell: Cell) -> None:
    dist = chebyshev(origin, cell)
    if not in_range(w, dist):
        raise _illegal(
            f"{target} at distance {dist} is out of range of {unit.id}'s {w.name.en} ({w.range})",
            f"{target} etäisyydellä {dist} on yksikön {unit.id} aseen {w.name.fi} "
            f"kantaman ({w.range}) ulkopuolella",
        )


def _may_fire_special(unit: UnitState) -> bool:
    """The fire-phase conditions of R-KP-3 without the basic weapon's jam (R-ATK-6: other
    weapons can fire)."""
    if unit.fired or unit.suppressed is not None or unit.retreating is not None:
        return False
    if unit.action == Action.ATTACK:
        return True
    return unit.action in (None, Action.DEFEND) and not unit.moved


def _special(state: GameState, order: Order, side: Side) -> bool:
    """The order names a weapon that is not the unit's basic weapon."""
    weapon = order_weapon(order)
    if weapon is None or order.unit is None:
        return False
    unit = state.units.get(order.unit)
    if unit is None or unit.side != side:
        return False
    return weapon != cache_for(state).card(unit).basic_weapon.id


def _check_attack(
    prev: OrderHandler, state: GameState, seat: str, side: Side, order: Order
) -> Plan:
    if order_disable(order) is not None:
        raise _illegal(
            "the ability to disable is picked on the `fire … with W disable ABILITY` order",
            "lamautettava kyky valitaan `fire … with W disable KYKY` -käskyssä",
        )
    if not _special(state, order, side):
        return prev.check(state, seat, side, order)
    weapon = order_weapon(order)
    assert order.unit is not None and order.target is not None and weapon is not None
    unit = _own_unit(state, side, seat, order.unit)
    cache = cache_for(state)
    _free_to_act(unit)
    _not_suppressed(unit, "move or act", "liikkua eikä toimia")
    contacts = state.contacts[side]
    use = resolve_weapon(cache, cache.card(unit), unit, weapon)
    c = _spotted(contacts, order.target)
    _weapon_permission(cache, unit, use, c)
    origin = unit.cell
    path = None
    if order.cell is not None:
        know = knowledge(cache, state.units, contacts, unit)
        path = _path_or_fail(cache, unit, know, order.cell)
        origin = order.cell
    assert c.cell is not None
    _range_check(unit, use.weapon, origin, order.target, c.cell)
    problem = target_blocked(state, unit, order.target)
    if problem is not None:
        raise _illegal(*problem)
    return Plan(unit, path, command.order_cost(cache.opts, OrderKind.ATTACK), data=use)


def _check_fire(prev: OrderHandler, state: GameState, seat: str, side: Side, order: Order) -> Plan:
    pick = order_disable(order)
    if not _special(state, order, side):
        if pick is not None:
            raise _illegal(
                "only a weapon that disables abilities takes `disable ABILITY` (R-AB-2)",
                "vain kykyjä lamauttava ase ottaa `disable KYKY` (R-AB-2)",
            )
        return prev.check(state, seat, side, order)
    weapon = order_weapon(order)
    assert order.unit is not None and order.target is not None and weapon is not None
    unit = _own_unit(state, side, seat, order.unit)
    cache = cache_for(state)
    use = resolve_weapon(cache, cache.card(unit), unit, weapon)
    if not _may_fire_special(unit):
        raise _illegal(
            f"{unit.id} may not fire now (it has fired, cannot act, or moved without an "
            "attack order: R-KP-3)",
            f"{unit.id} ei voi ampua nyt (ampunut jo, toimintakyvytön tai liikkunut ilman "
            "hyökkäyskäskyä: R-KP-3)",
        )
    c = _spotted(state.contacts[side], order.target)
    _weapon_permission(cache, unit, use, c)
    assert c.cell is not None
    _range_check(unit, use.weapon, unit.cell, order.target, c.cell)
    if not cache.sees(unit.cell, c.cell):
        raise _illegal(
            f"{unit.id} has no line of sight to {order.target}",
            f"yksiköllä {unit.id} ei ole näköyhteyttä kohteeseen {order.target}",
        )
    problem = target_blocked(state, unit, order.target)
    if problem is not None:
        raise _illegal(*problem)
    if pick is not None:
        _check_pick(cache, use, c, pick)
    cost = use.ability.kp_cost if use.ability is not None else 0
    return Plan(unit, None, cost, data=use)


def _check_pick(cache: ScenarioCache, use: WeaponUse, target: Contact, pick: str) -> None:
    """``disable ABILITY`` on a sniper shot: the weapon disables abilities and the target's
    card (known: the target is SPOTTED) has that ability."""
    spec = _table(cache).get(use.ability.id) if use.ability is not None else None
    if spec is None or not spec.disables_on_hit:
        raise _illegal(
            f"{use.weapon.id} does not disable abilities (R-AB-2)",
            f"{use.weapon.id} ei lamauta kykyjä (R-AB-2)",
        )
    assert target.card is not None
    card = cache.cards[target.card]
    if card.ability(pick) is None:
        known = ", ".join(a.id for a in card.abilities) or "-"
        raise _illegal(
            f"the target has no ability {pick!r} (its card {card.id}: {known})",
            f"kohteella ei ole kykyä {pick!r} (sen kortti {card.id}: {known})",
        )


def _execute_fire(prev: OrderHandler, tx: Tx, seat: str, order: Order, plan: Plan) -> None:
    if not isinstance(plan.data, WeaponUse):
        prev.execute(tx, seat, order, plan)
        return
    assert plan.unit is not None and order.target is not None
    use = plan.data
    weakened = use.ability.weakens_when_damaged if use.ability is not None else False
    before = len(tx.events)
    resolve_fire(tx, plan.unit.id, order.target, "fire", weapon=use.weapon, weakened=weakened)
    spec = _table(tx.cache).get(use.ability.id) if use.ability is not None else None
    if spec is not None and spec.disables_on_hit:
        attack = next((e for e in tx.events[before:] if e.kind == "attack"), None)
        if attack is not None and Effect(attack.data["effect"]).hits:
            sniper_disable(tx, plan.unit.id, order.target, order_disable(order))


def _legal_special(
    state: GameState, seat: str, side: Side, kind: OrderKind, unit: str | None = None
) -> list[Order]:
    """``attack``/``fire … with W`` for the special weapons the engine does not list (only
    unit ``unit``'s when given)."""
    cache = cache_for(state)
    contacts = state.contacts[side]
    spotted = {
        t: c.cell
        for t, c in sorted(contacts.items())
        if c.level == ContactLevel.SPOTTED and c.cell is not None
    }
    if not spotted:
        return []
    out: list[Order] = []
    for u in sorted(state.units.values(), key=lambda v: v.id):
        if u.seat != seat or (unit is not None and u.id != unit):
            continue
        card = cache.card(u)
        if len(card.weapons) < 2:
            continue
        if kind == OrderKind.FIRE and not _may_fire_special(u):
            continue
        if kind == OrderKind.ATTACK and (
            u.action is not None or u.suppressed is not None or u.retreating is not None
        ):
            continue
        for w in card.weapons:
            if w.basic or w.area or w.indirect:
                continue
            use = resolve_weapon(cache, card, u, w.id)
            cost = (
                (use.ability.kp_cost if use.ability is not None else 0)
                if kind == OrderKind.FIRE
                else command.order_cost(cache.opts, OrderKind.ATTACK)
            )
            if cost and command.payment_problem(
                cache.opts, state.kp, state.group_spent, seat, u, cost
            ):
                continue
            name = use.ability.id if use.ability is not None else w.id
            for tid, tcell in spotted.items():
                if not in_range(w, chebyshev(u.cell, tcell)):
                    continue
                if kind == OrderKind.FIRE and not cache.sees(u.cell, tcell):
                    continue
                try:
                    _weapon_permission(cache, u, use, contacts[tid])
                except IllegalOrderError:
                    continue
                if cache.hooks.can_be_targeted and target_blocked(state, u, tid) is not None:
                    continue
                if kind == OrderKind.FIRE:
                    out.append(Order.fire(u.id, tid, weapon=name))
                else:
                    out.append(Order.attack(u.id, tid, weapon=name))
    return out


def _legal_attack(
    state: GameState, seat: str, side: Side, *, unit: str | None = None
) -> list[Order]:
    return _legal_special(state, seat, side, OrderKind.ATTACK, unit)


def _legal_attack_moves(
    state: GameState, seat: str, side: Side, *, unit: str | None = None
) -> list[Order]:
    """``attack U T from X,Y with W``: the attack orders that move first with a special
    weapon, one per destination the side believes reachable and target in W's range from
    it. Only units with a non-basic direct weapon that may fire at some SPOTTED target
    (R-UNIT-3, R-ATK-9) compute their destinations."""
    cache = cache_for(state)
    contacts = state.contacts[side]
    spotted = {
        t: c.cell
        for t, c in sorted(contacts.items())
        if c.level == ContactLevel.SPOTTED and c.cell is not None
    }
    if not spotted:
        return []
    cost = command.order_cost(cache.opts, OrderKind.ATTACK)
    out: list[Order] = []
    for u in sorted(state.units.values(), key=lambda v: v.id):
        if u.seat != seat or u.action is not None or (unit is not None and u.id != unit):
            continue
        if u.suppressed is not None or u.retreating is not None:
            continue
        card = cache.card(u)
        if len(card.weapons) < 2:
            continue
        shots: list[tuple[str, Weapon, str, Cell]] = []
        for w in card.weapons:
            if w.basic or w.area or w.indirect:
                continue
            use = resolve_weapon(cache, card, u, w.id)
            name = use.ability.id if use.ability is not None else w.id
            for tid, tcell in spotted.items():
                try:
                    _weapon_permission(cache, u, use, contacts[tid])
                except IllegalOrderError:
                    continue
                if cache.hooks.can_be_targeted and target_blocked(state, u, tid) is not None:
                    continue
                shots.append((name, w, tid, tcell))
        if not shots:
            continue
        if command.payment_problem(cache.opts, state.kp, state.group_spent, seat, u, cost):
            continue
        dests = destinations(cache, u, knowledge(cache, state.units, contacts, u))
        for cell in sorted(dests):
            for name, w, tid, tcell in shots:
                if in_range(w, chebyshev(cell, tcell)):
                    out.append(Order.attack(u.id, tid, cell=cell, weapon=name))
    return out


def _legal_fire(state: GameState, seat: str, side: Side, *, unit: str | None = None) -> list[Order]:
    return _legal_special(state, seat, side, OrderKind.FIRE, unit)


# --------------------------------------------------------------------------- R-AB-2 sniper


def sniper_pick(card: UnitCard, unit: UnitState) -> str | None:
    """DEFAULT pick of a sniper hit (R-AB-2): the target's first ability in card order that
    is not already disabled (the card order is the GM's priority list); None if it has none."""
    return next((a.id for a in card.abilities if not is_disabled(unit, a.id)), None)


def sniper_disable(tx: Tx, aid: str, tid: str, pick: str | None = None) -> None:
    """A sniper-rifle hit disables one ability of the target for ``sniper_disable_turns``
    of its own turns (R-AB-2, R-TURN-3): the attacker's ``pick``, else the DEFAULT pick."""
    t = tx.units.get(tid)
    if t is None:
        return
    card = tx.cache.card(t)
    picked = pick if pick is not None and card.ability(pick) is not None else None
    if picked is None:
        picked = sniper_pick(card, t)
    if picked is None:
        return
    turns = tx.opts.sniper_disable_turns
    if turns <= 0:
        return
    until = tx.next_own_turn(t.side) + 2 * (turns - 1)
    disabled = dict(_ext(t).get("disabled", {}))
    disabled[picked] = until
    _set_unit(tx, tid, disabled=disabled)
    data = {"attacker": aid, "target": tid, "ability": picked, "until_turn": until}
    vis: dict[Side, dict[str, Any] | None] = {}
    sides: list[Side] = [t.side]
    if aid in tx.units and tx.unit(aid).side != t.side:
        sides.append(tx.unit(aid).side)
    for side in sides:
        seen = dict(data)
        seen["attacker"] = tx.ref(side, aid)
        seen["target"] = tx.ref(side, tid)
        vis[side] = seen
    tx.emit("ability_disabled", data, vis)


# --------------------------------------------------------------------------- hide / use


def _check_hide(state: GameState, seat: str, side: Side, order: Order) -> Plan:
    assert order.unit is not None
    unit = _own_unit(state, side, seat, order.unit)
    cache = cache_for(state)
    card = cache.card(unit)
    table = _table(cache)
    grants = [a for a in card.abilities if table.grants_hidden(a.id)]
    if not grants:
        raise _illegal(
            f"{unit.id} has no ability that lets it hide (R-MOR-3)",
            f"yksiköllä {unit.id} ei ole piiloutumiskykyä (R-MOR-3)",
        )
    usable = [a for a in grants if not is_disabled(unit, a.id)]
    if not usable:
        raise _illegal(
            f"{unit.id}'s {grants[0].id} is disabled this turn (R-AB-2)",
            f"yksikön {unit.id} kyky {grants[0].id} ei ole käytössä tässä vuorossa (R-AB-2)",
        )
    if is_hidden(unit):
        raise _illegal(f"{unit.id} is already HIDDEN", f"{unit.id} on jo piiloutunut")
    if unit.retreating is not None:
        _free_to_act(unit)
    _not_suppressed(unit, "hide", "piiloutua")
    if unit.fired:
        raise _illegal(
            f"{unit.id} has fired this turn and cannot hide",
            f"{unit.id} on ampunut tässä vuorossa eikä voi piiloutua",
        )
    return Plan(unit, None, min(a.kp_cost for a in usable))


def _execute_hide(tx: Tx, seat: str, order: Order, plan: Plan) -> None:
    assert plan.unit is not None
    set_hidden(tx, plan.unit.id, "hide")


def _legal_hide(state: GameState, seat: str, side: Side, *, unit: str | None = None) -> list[Order]:
    out = []
    for u in sorted(state.units.values(), key=lambda v: v.id):
        if u.seat != seat or (unit is not None and u.id != unit):
            continue
        if MODULE in u.ext and is_hidden(u):
            continue
        cache = cache_for(state)
        card = cache.card(u)
        if not any(_table(cache).grants_hidden(a.id) for a in card.abilities):
            continue
        o = hide_order(u.id)
        try:
            plan = _check_hide(state, seat, side, o)
        except IllegalOrderError:
            continue
        if _affordable(state, seat, u, plan.cost):
            out.append(o)
    return out


def _affordable(state: GameState, seat: str, unit: UnitState, cost: int) -> bool:
    opts = cache_for(state).opts
    return command.payment_problem(opts, state.kp, state.group_spent, seat, unit, cost) is None


def _check_use(state: GameState, seat: str, side: Side, order: Order) -> Plan:
    name = ability_of(order)
    assert order.unit is not None and name is not None
    unit = _own_unit(state, side, seat, order.unit)
    cache = cache_for(state)
    card = cache.card(unit)
    ability = card.ability(name)
    if ability is None:
        known = ", ".join(a.id for a in card.abilities) or "-"
        raise _illegal(
            f"{unit.id} has no ability {name!r} (abilities: {known})",
            f"yksiköllä {unit.id} ei ole kykyä {name!r} (kyvyt: {known})",
        )
    table = _table(cache)
    spec = table.get(ability.id)
    if spec is None or spec.use_target is None or spec.check is None:
        how = " (use `hide`)" if table.grants_hidden(ability.id) else ""
        raise _illegal(
            f"{ability.id} is not used with `use`{how}",
            f"kykyä {ability.id} ei käytetä `use`-käskyllä{how}",
        )
    if state.phase not in spec.phases:
        raise _illegal(
            f"{ability.id} is not used in the {state.phase.value} phase",
            f"kykyä {ability.id} ei käytetä tässä vaiheessa",
        )
    if is_disabled(unit, ability.id):
        raise _illegal(
            f"{unit.id}'s ability {ability.id} is disabled this turn (R-AB-2)",
            f"yksikön {unit.id} kyky {ability.id} ei ole käytössä tässä vuorossa (R-AB-2)",
        )
    want = spec.use_target
    has = "cell" if order.cell is not None else "unit" if order.target is not None else "none"
    if want != has:
        usage = {"none": "", "unit": " T", "cell": " X,Y"}[want]
        raise _illegal(
            f"expected `use {unit.id} {ability.id}{usage}`",
            f"odotettiin `use {unit.id} {ability.id}{usage}`",
        )
    data = spec.check(state, side, unit, order, ability)
    return Plan(unit, None, ability.kp_cost, data=(spec, data))


def _execute_use(tx: Tx, seat: str, order: Order, plan: Plan) -> None:
    assert plan.unit is not None
    spec, data = plan.data
    assert spec.execute is not None
    if not spec.keeps_hidden:
        end_hidden(tx, plan.unit.id, f"use:{spec.id}")
    spec.execute(tx, plan.unit.id, order, data)


def _legal_use(state: GameState, seat: str, side: Side, *, unit: str | None = None) -> list[Order]:
    out: list[Order] = []
    cache = cache_for(state)
    for u in sorted(state.units.values(), key=lambda v: v.id):
        if u.seat != seat or (unit is not None and u.id != unit):
            continue
        for ab in cache.card(u).abilities:
            spec = _table(cache).get(ab.id)
            if spec is None or spec.legal is None or state.phase not in spec.phases:
                continue
            if is_disabled(u, ab.id) or not _affordable(state, seat, u, ab.kp_cost):
                continue
            out.extend(spec.legal(state, u, ab))
    return out


# --------------------------------------------------------------------------- R-AB-3 area fire


@dataclass(frozen=True, slots=True)
class AreaPlan:
    weapon: Weapon
    cell: Cell
    radius: int
    weakened: bool


def _area_ready(state: GameState, unit: UnitState) -> tuple[str, str] | None:
    if unit.suppressed is not None or unit.retreating is not None:
        return (f"{unit.id} cannot fire now", f"{unit.id} ei voi ampua nyt")
    if unit.fired:
        return (f"{unit.id} has already fired this turn", f"{unit.id} on jo ampunut")
    if state.phase == Phase.COMMAND and unit.action is not None:
        return (
            f"{unit.id} already has its order this turn ({unit.action.value})",
            f"{unit.id} on jo saanut käskynsä tässä vuorossa",
        )
    if state.phase == Phase.FIRE and not _may_fire_special(unit):
        return (
            f"{unit.id} moved without an attack order and cannot fire (R-KP-3)",
            f"{unit.id} liikkui ilman hyökkäyskäskyä eikä voi ampua (R-KP-3)",
        )
    return None


def _check_area(
    state: GameState, side: Side, unit: UnitState, order: Order, ability: Ability
) -> AreaPlan:
    cache = cache_for(state)
    card = cache.card(unit)
    weapon = _area_weapon(card)
    if weapon is None:
        raise _illegal(
            f"{unit.id} has no weapon that may fire at an area (R-ATK-8)",
            f"yksiköllä {unit.id} ei ole aluetuliasetta (R-ATK-8)",
        )
    problem = _area_ready(state, unit)
    if problem is not None:
        raise _illegal(*problem)
    assert order.cell is not None
    cell = order.cell
    if not cache.map.in_bounds(cell):
        raise _illegal(
            f"cell {cell[0]},{cell[1]} is off the map",
            f"ruutu {cell[0]},{cell[1]} on kartan ulkopuolella",
        )
    dist = chebyshev(unit.cell, cell)
    if not in_range(weapon, dist):
        raise _illegal(
            f"{cell[0]},{cell[1]} at distance {dist} is out of range of {weapon.name.en} "
            f"({weapon.range})",
            f"{cell[0]},{cell[1]} etäisyydellä {dist} on aseen {weapon.name.fi} kantaman "
            f"({weapon.range}) ulkopuolella",
        )
    if not cache.sees(unit.cell, cell):
        raise _illegal(
            f"{unit.id} cannot see cell {cell[0]},{cell[1]}",
            f"{unit.id} ei näe ruutuun {cell[0]},{cell[1]}",
        )
    radius = weapon.area_radius if weapon.area_radius is not None else cache.opts.area_fire_radius
    return AreaPlan(weapon, cell, radius, ability.weakens_when_damaged)


def _legal_area(state: GameState, unit: UnitState, ability: Ability) -> list[Order]:
    """Area fire centred on each SPOTTED or KNOWN-in-sight enemy cell in range."""
    cache = cache_for(state)
    weapon = _area_weapon(cache.card(unit))
    if weapon is None or _area_ready(state, unit) is not None:
        return []
    cells = sorted(
        {
            c.cell
            for c in state.contacts[unit.side].values()
            if c.level == ContactLevel.SPOTTED and c.cell is not None
        }
    )
    return [
        use_order(unit.id, ability.id, cell=c)
        for c in cells
        if in_range(weapon, chebyshev(unit.cell, c)) and cache.sees(unit.cell, c)
    ]


def area_fire(tx: Tx, uid: str, order: Order, plan: AreaPlan) -> None:
    """R-ATK-8 / R-AB-3: one attack roll compared with each enemy unit in the area."""
    cache = tx.cache
    opts = tx.opts
    a = tx.unit(uid)
    if tx.phase == Phase.COMMAND:
        tx.update(uid, action=Action.ATTACK)
    x, y = plan.cell
    targets = sorted(
        (
            t
            for t in tx.units.values()
            if t.side != a.side
            and max(abs(t.cell[0] - x), abs(t.cell[1] - y)) <= plan.radius
            and (opts.area_fire_hits_hidden or not is_hidden(t))
        ),
        key=lambda t: t.id,
    )
    modifiers: dict[str, int] = {"skill": cache.skill(a), "weapon": plan.weapon.attack_bonus}
    if a.shaken is not None:
        modifiers["shaken"] = -opts.shaken_attack_penalty
    if a.pinned is not None and a.pinning_penalty:
        modifiers["pinned"] = -a.pinning_penalty
    bonus = sum(modifiers.values())
    defences = {
        t.id: cache.card(t).stats.protection + cache.sight(a.cell, t.cell).cover for t in targets
    }
    # R-TER-5: the elevation modifier is "against that target" — per target, as direct fire.
    elevations = {t.id: cache.elevation(a.cell, t.cell) for t in targets}
    if plan.weakened:
        fp = cache.firepower(a, DiceExpr.parse(plan.weapon.damage))
        dice, divisor = fp.dice, fp.divisor
    else:
        dice, divisor = DiceExpr.parse(plan.weapon.damage), 1
    tx.take_rolls()
    res = resolve_area_attack(
        tx.roller,
        bonus=bonus,
        defences=defences,
        damage=dice,
        damage_divisor=divisor,
        heavy_hit_extra=opts.heavy_hit_extra,
        natural20_miss=opts.natural20_miss,
        pinning_penalty=opts.pinning_penalty,
        heavy_hit_margin=opts.heavy_hit_margin,
        pinning_margin=opts.pinning_margin,
        area_degrees=opts.area_fire_degrees,
        purpose="area_fire",
        target_bonus=elevations,
    )
    rolls = tx.take_rolls()
    tx.update(uid, shaken=None, pinned=None, pinning_penalty=0, fired=True)
    results: dict[str, dict[str, Any]] = {}
    amounts: dict[str, int] = {}
    for t in targets:
        r = res.targets[t.id]
        armoured = cache.card(t).armoured
        amount = apply_damage_type(
            r.damage,
            DamageType(plan.weapon.damage_type),
            armoured,
            frag_vs_armour=opts.frag_vs_armour,
        )
        amounts[t.id] = amount
        results[t.id] = {
            "defence": r.defence,
            "margin": r.margin,
            "effect": r.effect.value,
            "damage": amount,
        }
        if elevations[t.id]:
            results[t.id]["elevation"] = elevations[t.id]
    for side in sorted({t.side for t in targets}):
        reveal_firer(tx, uid, side)
    data: dict[str, Any] = {
        "attacker": uid,
        "weapon": plan.weapon.id,
        "cell": list(plan.cell),
        "radius": plan.radius,
        "modifiers": modifiers,
        "bonus": bonus,
        "natural": res.natural,
        "total": res.total,
        "targets": results,
        "setback": None if res.setback is None else res.setback.value,
        "rolls": rolls,
    }
    target_seqs = {r.seq for t in res.targets.values() for r in t.rolls[1:]}
    setback_seqs = {r.seq for r in res.rolls[1:] if r.seq not in target_seqs}
    vis: dict[Side, dict[str, Any] | None] = {}
    for side in ("blue", "red"):
        attacker_ref = tx.ref(side, uid)
        shown: list[dict[str, Any]] = []
        # The side's rolls, built from what it may see (issue 8): the attack roll, the
        # damage rolls of the targets it sees, the setback rolls — never those of a unit
        # it does not see (they would tell that an unseen unit stood in the area, was hit
        # and how hard).
        allowed = set(setback_seqs)
        allowed.add(res.rolls[0].seq)
        for tid, info in results.items():
            ref = tx.ref(side, tid)
            if ref is not None:
                shown.append({"target": ref, **info})
                allowed.update(r.seq for r in res.targets[tid].rolls[1:])
        side_rolls = [r for r in rolls if r["seq"] in allowed]
        if side != a.side and attacker_ref != uid:
            # An unseen firer (R-REC-5): only what happened to the side's own units; the
            # roll, totals and margins would describe the firer (see rules/fire.py).
            if not shown:
                vis[side] = None
                continue
            vis[side] = {
                "attacker": attacker_ref,
                "weapon": plan.weapon.id,
                "cell": list(plan.cell),
                "radius": plan.radius,
                "targets": [
                    {"target": i["target"], "effect": i["effect"], "damage": i["damage"]}
                    for i in shown
                ],
            }
            continue
        seen = dict(data)
        seen["attacker"] = attacker_ref
        seen["rolls"] = [r for r in side_rolls if not r.get("secret")]
        seen["targets"] = shown
        vis[side] = seen
    data["targets"] = [{"target": tid, **info} for tid, info in results.items()]
    tx.emit("area_attack", data, vis)
    apply_setback(tx, uid, a.side, res.setback)
    for t in targets:
        r = res.targets[t.id]
        if t.id not in tx.units:
            continue
        if r.effect == Effect.PINNING and r.pinning_penalty:
            tx.update(t.id, pinned=tx.turn_no, pinning_penalty=r.pinning_penalty)
        if r.morale_marks:
            marks = tx.unit(t.id).morale_marks + r.morale_marks * opts.natural20_morale_penalty
            tx.update(t.id, morale_marks=marks)
        if amounts[t.id] > 0:
            damage_unit(tx, t.id, amounts[t.id], "area_fire")


def _execute_area(tx: Tx, uid: str, order: Order, data: Any) -> None:
    assert isinstance(data, AreaPlan)
    area_fire(tx, uid, order, data)


# --------------------------------------------------------------------------- hooks


def _can_be_targeted(
    state: GameState, attacker: UnitState, target_id: str
) -> tuple[str, str] | None:
    target = state.units.get(target_id)
    if target is None or MODULE not in target.ext:
        return None
    return hidden_blocks(state, attacker, target_id)


def _can_be_detected(tx: Tx, side: Side, uid: str, level: int) -> bool:
    """R-REC-6: a HIDDEN unit is not detected from farther than ``hidden_radius`` (no unit
    of the detecting side within it). While the game is being set up (the first
    observation, before ``on_game_start``) a placement with ``hidden = true`` counts as
    HIDDEN already."""
    unit = tx.units.get(uid)
    if unit is None:
        return True
    if MODULE in unit.ext:
        if not is_hidden(unit):
            return True
    elif tx.base.event_count != 0 or not _starts_hidden(tx, uid):
        return True
    r = tx.opts.hidden_radius
    return any(chebyshev(u.cell, unit.cell) <= r for u in tx.units_of(side))


def _starts_hidden(tx: Tx, uid: str) -> bool:
    try:
        return tx.scenario.unit(uid).hidden
    except KeyError:
        return False


def _breaks_within(tx: Tx, unit: UnitState) -> int:
    o = tx.cache.card(unit).overrides
    if o is not None and o.hidden_breaks_within is not None:
        return o.hidden_breaks_within
    return tx.opts.hidden_radius


def _on_unit_moved(tx: Tx, uid: str, walked: list[Cell]) -> None:
    """HIDDEN ends when the unit moves, or when an enemy unit moves within 2 cells."""
    if not _any_ext(tx.units.values()):
        return
    mover = tx.units.get(uid)
    if mover is None:
        return
    if walked:
        end_hidden(tx, uid, "moved")
    cells = walked or [mover.cell]
    for u in sorted(tx.units.values(), key=lambda v: v.id):
        if u.side == mover.side or MODULE not in u.ext or not is_hidden(u):
            continue
        r = _breaks_within(tx, u)
        if any(chebyshev(c, u.cell) <= r for c in cells):
            end_hidden(tx, u.id, "enemy_near")


def _attack_modifiers(tx: Tx, attacker: UnitState, target: UnitState) -> tuple[int, bool, bool]:
    """No modifier: an attacking HIDDEN unit leaves HIDDEN as it fires (before the firer is
    revealed, R-REC-7), unless its card keeps it hidden."""
    if MODULE in attacker.ext and is_hidden(attacker):
        o = tx.cache.card(attacker).overrides
        if o is None or not o.hidden_keeps_when_attacking:
            end_hidden(tx, attacker.id, "attacked")
    return (0, False, False)


def _after_attack(tx: Tx, aid: str, tid: str, data: dict[str, Any]) -> None:
    """R-AB-1 wave attack bookkeeping."""
    if data.get("kind") != "fire":
        return
    a = tx.units.get(aid)
    if a is None or usable_ability(tx.cache, a, "aaltohyokkays") is None:
        return
    state = dict(tx.ext(MODULE, {}))
    wave = {k: list(v) for k, v in state.get("wave", {}).items()}
    squads = wave.setdefault(tid, [])
    if aid not in squads:
        squads.append(aid)
    state["wave"] = wave
    tx.set_ext(MODULE, state)
    if len(squads) >= tx.opts.wave_attack_min_squads:
        due = tx.next_own_turn(a.side)
        for sid in squads:
            if sid in tx.units and _ext(tx.unit(sid)).get("wave") != due:
                _set_unit(tx, sid, wave=due)
                _own_event(tx, sid, "wave_attack", {"target": tid, "turn": due})


def _morale_modifiers(tx: Tx, unit: UnitState) -> int:
    if MODULE not in unit.ext:
        return 0
    if _ext(unit).get("wave") == tx.turn_no:
        return tx.opts.wave_attack_morale_bonus
    return 0


def _on_turn_end(tx: Tx, side: Side) -> None:
    """Wave records of the turn go; expired wave bonuses and disabled abilities clear."""
    if tx.ext(MODULE) is not None:
        tx.set_ext(MODULE, None)
    if not _any_ext(tx.units.values()):
        return
    for u in sorted(tx.units_of(side), key=lambda v: v.id):
        if MODULE not in u.ext:
            continue
        ext = _ext(u)
        changes: dict[str, Any] = {}
        if "wave" in ext and ext["wave"] <= tx.turn_no:
            changes["wave"] = None
        disabled = ext.get("disabled", {})
        keep = {k: v for k, v in disabled.items() if v > tx.turn_no}
        if keep != disabled:
            changes["disabled"] = keep or None
            for k in sorted(set(disabled) - set(keep)):
                _own_event(tx, u.id, "ability_restored", {"ability": k})
        if changes:
            _set_unit(tx, u.id, **changes)


def _on_game_start(tx: Tx) -> None:
    """Placements that start HIDDEN (scenario ``hidden = true``); the first observation
    already treated them as hidden (:func:`_can_be_detected`)."""
    for _, _, p in tx.scenario.placements():
        if p.hidden and p.id in tx.units:
            set_hidden(tx, p.id, "scenario")


def _view_extras(state: GameState, viewer: str) -> dict[str, Any]:
    """A side sees HIDDEN and disabled abilities of its own units only (GM: all)."""
    hidden: list[str] = []
    disabled: dict[str, dict[str, int]] = {}
    wave: dict[str, int] = {}
    for u in sorted(state.units.values(), key=lambda v: v.id):
        if MODULE not in u.ext or (viewer != "gm" and u.side != viewer):
            continue
        ext = _ext(u)
        if ext.get("hidden"):
            hidden.append(u.id)
        if ext.get("disabled"):
            disabled[u.id] = dict(ext["disabled"])
        if "wave" in ext:
            wave[u.id] = ext["wave"]
    if not (hidden or disabled or wave):
        return {}
    return {MODULE: {"hidden": hidden, "disabled": disabled, "wave_bonus_turn": wave}}


class AbilitiesView(ViewModel):
    """HIDDEN units and disabled abilities (R-MOR-3, R-AB-2): own units only for a side."""

    hidden: tuple[str, ...]
    disabled: dict[str, dict[str, int]]
    wave_bonus_turn: dict[str, int]


def _section(state: GameState, viewer: str) -> ViewModel | None:
    """The ``abilities`` section: HIDDEN and disabled abilities of a side's own units
    (always present, empty by default); the game master's: every unit's."""
    raw = _view_extras(state, viewer).get(MODULE) or {}
    if viewer == "gm":
        return pick(AbilitiesView, raw) if raw else None
    return pick(AbilitiesView, {"hidden": [], "disabled": {}, "wave_bonus_turn": {}, **raw})


SECTION = ViewSection("abilities", AbilitiesView, AbilitiesView, _section)
"""The abilities module's section of the views."""


def unit_statuses(unit: UnitState, viewer: str) -> frozenset[str]:
    """Extra status codes of ``unit`` for ``viewer``: ``HIDDEN`` for its own side (and the
    GM) only."""
    if is_hidden(unit) and (viewer == "gm" or viewer == unit.side):
        return frozenset({"HIDDEN"})
    return frozenset()


def _extend_recon(base: OrderHandler) -> OrderHandler:
    """Active recon is an action not related to hiding: it ends HIDDEN."""

    def execute(tx: Tx, seat: str, order: Order, plan: Plan) -> None:
        if plan.unit is not None:
            end_hidden(tx, plan.unit.id, "recon")
        base.execute(tx, seat, order, plan)

    return replace(base, execute=execute, module=MODULE)


def _extend_attack(prev: OrderHandler) -> OrderHandler:
    """``attack … with W``: a special weapon's attack; the basic weapon's goes to ``prev``
    (the handler the ruleset built before this module: the engine's, extended by company)."""
    return replace(
        prev,
        check=partial(_check_attack, prev),
        legal=_legal_attack,
        legal_moves=_legal_attack_moves,
        module=MODULE,
    )


def _extend_fire(prev: OrderHandler) -> OrderHandler:
    """``fire … with W [disable ABILITY]``: a special weapon's fire; the basic weapon's
    goes to ``prev``."""
    return replace(
        prev,
        check=partial(_check_fire, prev),
        execute=partial(_execute_fire, prev),
        legal=_legal_fire,
        module=MODULE,
    )


# --------------------------------------------------------------------------- registration


def _bundled_specs() -> tuple[AbilitySpec, ...]:
    """The abilities with rules of their own in this module."""
    return (
        AbilitySpec("piiloutuminen", keeps_hidden=True),
        AbilitySpec("sniper_rifle", weapon=_sniper_weapon, disables_on_hit=True),
        AbilitySpec(
            "lamauttava_tuli",
            weapon=_area_weapon,
            use_target="cell",
            check=_check_area,
            execute=_execute_area,
            legal=_legal_area,
        ),
    )


def _read_hide(kind: OrderKind, t: OrderTokens) -> Order:
    return hide_order(t.id())


def _read_use(kind: OrderKind, t: OrderTokens) -> Order:
    unit = t.id()
    ability = t.word("an ability id", "kyvyn tunnus")
    if t.is_cell_next():
        return use_order(unit, ability, cell=t.cell())
    if t.peek() is not None:
        return use_order(unit, ability, target=t.id("target", "kohteen"))
    return use_order(unit, ability)


def _shape_use(o: Order, text: str) -> None:
    if o.cell is not None and o.target is not None:
        raise bad_order(text, "names both a target and a cell", "nimeää sekä kohteen että ruudun")


SYNTAX: tuple[OrderSyntax, ...] = (
    module_syntax(HIDE, "hide UNIT", ("piiloudu",), _read_hide, OrderShape(unit=True)),
    module_syntax(
        USE,
        "use UNIT ABILITY [TARGET | X,Y]",
        ("käytä", "kayta"),
        _read_use,
        OrderShape(unit=True, cell=None, target=None, args=UseArgs, check=_shape_use),
    ),
)
"""The notation of ``hide`` and ``use`` (docs/notation.md)."""


def rule_module(extra: Iterable[AbilitySpec] = ()) -> RuleModule:
    """Unit abilities (R-AB, R-MOR-3 hiding) as a rule module: ``hide`` and ``use``, and
    extensions of ``attack``, ``fire`` (special weapons) and ``recon`` (ends HIDDEN). Its
    :class:`AbilityTable` is the bundled abilities' plus ``extra`` (offered to the
    ruleset's other modules as ``AbilitiesApi.table``)."""
    table = default_ability_table() if not extra else ability_table(extra)
    return RuleModule(
        MODULE,
        view=SECTION,
        orders=(
            OrderHandler(HIDE, _check_hide, _execute_hide, _legal_hide, BOTH_PHASES, MODULE),
            OrderHandler(USE, _check_use, _execute_use, _legal_use, BOTH_PHASES, MODULE),
        ),
        extends=(
            (OrderKind.ATTACK, _extend_attack),
            (OrderKind.FIRE, _extend_fire),
            (OrderKind.RECON, _extend_recon),
        ),
        provides=(
            AbilitiesApi(
                usable_ability=usable_ability,
                is_hidden=is_hidden,
                hidden_blocks=hidden_blocks,
                end_hidden=end_hidden,
                table=table,
            ),
        ),
        hooks=(
            ("can_be_targeted", _can_be_targeted),
            ("can_be_detected", _can_be_detected),
            ("on_unit_moved", _on_unit_moved),
            ("attack_modifiers", _attack_modifiers),
            ("after_attack", _after_attack),
            ("morale_modifiers", _morale_modifiers),
            ("on_turn_end", _on_turn_end),
            ("on_game_start", _on_game_start),
            ("view_extras", _view_extras),
        ),
        syntax=SYNTAX,
    )
