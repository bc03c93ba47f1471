"""Direct fire: who may fire at whom, the attack's modifiers, and its consequences
(R-ATK-1…10, R-TK-1, R-TER-5, R-REC-7, R-KP-3).

A target is valid for direct fire when the firing side has it SPOTTED, the firer sees it
(R-TER-4) and it is within the basic weapon's range (and beyond its ``min_range``). The
resolution itself is :func:`taistelukentta.rules.combat.resolve_attack`; this module
gathers its inputs and applies its result:

- bonus = TT + weapon bonus + elevation (R-TER-5) − ``shaken_attack_penalty`` if SHAKEN −
  the pinning penalty if pinned (R-ATK-2, R-ATK-4, R-MOR-2);
- advantage (R-ATK-7): target SUPPRESSED, confused (R-ATK-6), flanked (attacking-side units
  within ``flank_radius`` of it in two directions at least ``flank_min_angle`` apart), or in
  fully open terrain with no cover on the line (``fully_open_advantage``); disadvantage:
  fortified target or very poor visibility (:func:`disadvantage_facts`); both cancel;
- defence = S + cover (the best of its cell and the sight-limiting terrain on the line);
- damage: the weapon's dice (its AT dice against an armoured target when it has them),
  weakened when the firer is DAMAGED (R-TK-1), then the damage type (R-ATK-9,
  ``frag_vs_armour``).
After the attack: the firer's SHAKEN and pinning clear (they applied to this attack), the
target's confusion is used up, the firer is revealed (R-REC-7), setbacks apply (R-ATK-6),
PINNING pins the target, damage is dealt (R-ATK-10, R-TK-2).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from typing import Any

from taistelukentta.content.units import Weapon
from taistelukentta.dice.expr import DiceExpr
from taistelukentta.grid.geometry import Cell, chebyshev
from taistelukentta.rules.combat import (
    AttackResult,
    DamageType,
    Effect,
    Setback,
    apply_damage_type,
    resolve_attack,
)
from taistelukentta.rules.contacts import position_revealed, reveal_firer
from taistelukentta.rules.context import ScenarioCache, Tx, target_refused
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.state import Contact, GameState, Side, UnitState, other_side
from taistelukentta.rules.status import comms_break_until, damage_unit
from taistelukentta.rules.terms import (
    AttackDamage,
    AttackSituation,
    ModuleTerm,
    attack_damage,
    attack_terms,
)


def weapon_of(cache: ScenarioCache, unit: UnitState) -> Weapon:
    """The weapon direct fire uses: the card's basic attack (R-UNIT-3)."""
    return cache.card(unit).basic_weapon


def can_fire_weapon(cache: ScenarioCache, unit: UnitState, turn_no: int) -> bool:
    """The unit is able to fire now: not SUPPRESSED/RETREATING, weapon not jammed, and its
    basic weapon fires directly."""
    if unit.suppressed is not None or unit.retreating is not None:
        return False
    if unit.jammed_turn == turn_no:
        return False
    return not weapon_of(cache, unit).indirect


def in_range(weapon: Weapon, distance: int) -> bool:
    """Within the weapon's range and not inside its minimum range."""
    if distance > weapon.range:
        return False
    return weapon.min_range is None or distance >= weapon.min_range


def valid_targets(
    cache: ScenarioCache,
    unit: UnitState,
    contacts: Mapping[str, Contact],
) -> list[str]:
    """Enemy units ``unit`` may fire at, from its side's knowledge only (SPOTTED contacts
    it sees within range), sorted by id."""
    weapon = weapon_of(cache, unit)
    out = []
    for uid, c in contacts.items():
        if c.level != ContactLevel.SPOTTED or c.cell is None:
            continue
        if in_range(weapon, chebyshev(unit.cell, c.cell)) and cache.sees(unit.cell, c.cell):
            out.append(uid)
    return sorted(out)


def target_problem(
    cache: ScenarioCache, unit: UnitState, target: str, contacts: Mapping[str, Contact]
) -> tuple[str, str] | None:
    """Why ``unit`` may not fire at ``target`` (English, Finnish), or None if it may.

    Uses only the firing side's contacts, so the reason never names an unseen unit."""
    c = contacts.get(target)
    if c is None or c.level != ContactLevel.SPOTTED or c.cell is None:
        return (
            f"{target} is not a SPOTTED enemy unit (direct fire needs a SPOTTED contact)",
            f"{target} ei ole havaittu vihollisyksikkö (suora tuli vaatii Havaittu-kontaktin)",
        )
    weapon = weapon_of(cache, unit)
    dist = chebyshev(unit.cell, c.cell)
    if not in_range(weapon, dist):
        return (
            f"{target} at distance {dist} is out of range of {unit.id}'s "
            f"{weapon.name.en} ({weapon.range})",
            f"{target} etäisyydellä {dist} on yksikön {unit.id} aseen {weapon.name.fi} "
            f"kantaman ({weapon.range}) ulkopuolella",
        )
    if not cache.sees(unit.cell, c.cell):
        return (
            f"{unit.id} has no line of sight to {target}",
            f"yksiköllä {unit.id} ei ole näköyhteyttä kohteeseen {target}",
        )
    return None


def disadvantage_facts(cache: ScenarioCache, firer: Cell, target: Cell) -> dict[str, bool]:
    """The public facts R-ATK-7's disadvantage depends on, for an attack from ``firer`` at
    ``target`` (terrain, the scenario's marks): ``fortified`` (a building at the target),
    ``fortification`` (the target's cell is one of the scenario's fortifications),
    ``smoke`` (the line crosses a smoke cell of the scenario, its end cells included).
    Which of them counts under the game's options is decided by
    :func:`~taistelukentta.rules.terms.attack_terms`."""
    smoke = cache.scenario.smoke
    return {
        "fortified": "building" in cache.map.features_at(target),
        "fortification": target in cache.scenario.fortifications,
        "smoke": bool(smoke) and _crosses(smoke, firer, target),
    }


def _crosses(cells: Collection[Cell], firer: Cell, target: Cell) -> bool:
    """Whether the line from ``firer`` to ``target`` (its end cells included) crosses one of
    ``cells``."""
    from taistelukentta.grid.sight import ray  # numpy: only when there is smoke to check

    return any(
        (firer[0] + dx, firer[1] + dy) in cells
        for dx, dy in ray(target[0] - firer[0], target[1] - firer[1]).cells
    )


def flanked(tx: Tx, attacking_side: Side, target: UnitState) -> bool:
    """R-ATK-7 DEFAULT: attacking-side units within ``flank_radius`` of the target stand in
    two directions at least ``flank_min_angle`` degrees apart."""
    radius = tx.opts.flank_radius
    angles = [
        math.degrees(math.atan2(u.cell[1] - target.cell[1], u.cell[0] - target.cell[0]))
        for u in tx.units_of(attacking_side)
        if 0 < chebyshev(u.cell, target.cell) <= radius
    ]
    need = tx.opts.flank_min_angle
    for i, a in enumerate(angles):
        for b in angles[i + 1 :]:
            diff = abs(a - b) % 360
            if min(diff, 360 - diff) >= need - 1e-9:
                return True
    return False


def resolve_fire(
    tx: Tx,
    aid: str,
    tid: str,
    kind: str,
    weapon: Weapon | None = None,
    weakened: bool | None = None,
) -> None:
    """One direct-fire attack of ``aid`` at ``tid``; ``kind`` is ``"fire"`` (fire phase)
    or ``"opportunity"`` (R-ZOC-3). ``weapon`` is the card's basic weapon unless a rule
    module fires a special one (R-UNIT-3); ``weakened`` says whether its damage die steps
    down when the firer is DAMAGED (R-TK-1; default: only the basic weapon's)."""
    cache = tx.cache
    opts = tx.opts
    a = tx.unit(aid)
    t = tx.unit(tid)
    if kind == "fire" and tx.strict_fog and cache.hooks.can_be_targeted:
        problem = target_refused(tx.finish(), a, tid)
        if problem is not None:
            # The side ordered fire at a unit it has SPOTTED, not knowing it is HIDDEN
            # (R-MOR-3): the unit's fire is spent and nothing happens; its side is told
            # that the target could not be engaged — learnt by trying, not for free.
            tx.update(aid, fired=True)
            told = {"attacker": aid, "target": tx.ref(a.side, tid), "kind": kind}
            tx.emit(
                "attack_void",
                {**told, "target": tid, "reason": problem[0]},
                {a.side: told},
            )
            return
    card_a = cache.card(a)
    card_t = cache.card(t)
    if weapon is None:
        weapon = card_a.basic_weapon
    if weakened is None:
        weakened = weapon.basic
    sight = cache.sight(a.cell, t.cell)
    situation = AttackSituation(
        skill=cache.skill(a),
        weapon_bonus=weapon.attack_bonus,
        elevation=cache.elevation(a.cell, t.cell),
        shaken=a.shaken is not None,
        pinning_penalty=a.pinning_penalty if a.pinned is not None else 0,
        protection=card_t.stats.protection,
        cover=sight.cover,
        suppressed=t.suppressed is not None,
        confused=bool(t.confused),
        flanked=flanked(tx, a.side, t),
        fully_open=cache.fully_open(t.cell),
        **disadvantage_facts(cache, a.cell, t.cell),
        modules=module_terms(tx, a, t),
    )
    terms = attack_terms(situation, opts)
    modifiers = terms.modifiers
    bonus = terms.bonus
    reasons_adv = terms.advantage_reasons
    reasons_dis = terms.disadvantage_reasons
    advantage = terms.advantage
    defence = terms.defence
    dmg = weapon_damage(cache, a, weapon, weakened=weakened, target_armoured=card_t.armoured)
    dice, divisor, dtype = dmg.dice, dmg.divisor, DamageType(dmg.damage_type)
    tx.take_rolls()

    def roll(purpose: str) -> AttackResult:
        return resolve_attack(
            tx.roller,
            bonus=bonus,
            defence=defence,
            damage=dice,
            advantage=advantage,
            damage_divisor=divisor,
            heavy_hit_extra=opts.heavy_hit_extra,
            natural20_miss=opts.natural20_miss,
            pinning_penalty=opts.pinning_penalty,
            heavy_hit_margin=opts.heavy_hit_margin,
            pinning_margin=opts.pinning_margin,
            purpose=purpose,
        )

    res = roll(kind)
    rerolled = False
    if tx.cache.hooks.attack_reroll and not res.effect.hits:
        for rhook in tx.cache.hooks.attack_reroll:
            if rhook(tx, a, t, res.effect.value):
                res = roll(f"{kind}:reroll")
                rerolled = True
                break
    amount = apply_damage_type(
        res.damage, dtype, card_t.armoured, frag_vs_armour=opts.frag_vs_armour
    )
    for dhook in tx.cache.hooks.damage_modifier:
        amount = max(0, dhook(tx, aid, tid, amount))
    rolls = tx.take_rolls()
    # The firer: its SHAKEN and pinning applied to this attack and clear (R-MOR-2, R-ATK-4).
    a_changes: dict[str, Any] = {"shaken": None, "pinned": None, "pinning_penalty": 0}
    if kind == "fire":
        a_changes["fired"] = True
    tx.update(aid, **a_changes)
    if t.confused:
        tx.update(tid, confused=False)
    reveal_firer(tx, aid, t.side)
    data: dict[str, Any] = {
        "attacker": aid,
        "target": tid,
        "kind": kind,
        "modifiers": modifiers,
        "bonus": bonus,
        "advantage": advantage.value,
        "advantage_reasons": reasons_adv,
        "disadvantage_reasons": reasons_dis,
        "defence": defence,
        "cover": sight.cover,
        "natural": res.natural,
        "total": res.total,
        "margin": res.margin,
        "effect": res.effect.value,
        "damage": amount,
        "damage_type": dtype.value,
        "setback": None if res.setback is None else res.setback.value,
        "rolls": rolls,
    }
    if rerolled:
        data["rerolled"] = True
    if not weapon.basic:
        data["weapon"] = weapon.id
    vis: dict[Side, dict[str, Any] | None] = {}
    for side in (a.side, t.side):
        attacker_ref = tx.ref(side, aid)
        if side != a.side and attacker_ref != aid:
            # A firer the target's side does not see (R-REC-5): what happened to its own
            # unit only. The roll, its total and margin (total - natural = the firer's
            # modifiers: elevation, SHAKEN, pinning, experience) and the line's cover
            # would describe the firer and where it stands.
            vis[side] = {
                "attacker": attacker_ref,
                "target": tx.ref(side, tid),
                "kind": kind,
                "effect": data["effect"],
                "damage": amount,
                "damage_type": dtype.value,
            }
            continue
        seen = dict(data)
        seen["attacker"] = attacker_ref
        seen["target"] = tx.ref(side, tid)
        seen["rolls"] = [r for r in rolls if not r.get("secret")]
        vis[side] = seen
    tx.emit("attack", data, vis)
    for ahook in tx.cache.hooks.after_attack:
        ahook(tx, aid, tid, data)
    # Setbacks (R-ATK-6).
    apply_setback(tx, aid, a.side, res.setback)
    # Effects on the target.
    if res.effect == Effect.PINNING and res.pinning_penalty:
        tx.update(tid, pinned=tx.turn_no, pinning_penalty=res.pinning_penalty)
    if res.morale_marks:
        marks = tx.unit(tid).morale_marks + res.morale_marks * opts.natural20_morale_penalty
        tx.update(tid, morale_marks=marks)
    if amount > 0:
        damage_unit(tx, tid, amount, kind)


def apply_setback(tx: Tx, uid: str, side: Side, setback: Setback | None) -> None:
    """Apply an attack's setback to the firer ``uid`` of ``side`` and report it (R-ATK-6)."""
    if setback is None:
        return
    if setback == Setback.WEAPON_JAM:
        tx.update(uid, jammed_turn=tx.next_own_turn(side))
    elif setback == Setback.POSITION_REVEALED:
        position_revealed(tx, uid)
    elif setback == Setback.COMMS_BREAK:
        tx.update(uid, comms_until=comms_break_until(tx, side))
    elif setback == Setback.CONFUSION:
        tx.update(uid, confused=True)
    tx.unit_event("setback", uid, {"setback": setback.value}, spotted_keys=("setback",))


def module_terms(tx: Tx, attacker: UnitState, target: UnitState) -> tuple[ModuleTerm, ...]:
    """What the rule modules' ``attack_modifiers`` hooks add to an attack of ``attacker``
    at ``target``, in hook order (each under its module's name)."""
    out: list[ModuleTerm] = []
    for hook in tx.cache.hooks.attack_modifiers:
        extra, adv, dis = hook(tx, attacker, target)
        if extra or adv or dis:
            out.append(ModuleTerm(_hook_name(hook), extra, bool(adv), bool(dis)))
    return tuple(out)


def hook_module_terms(
    state: GameState, attacker: UnitState, target_id: str
) -> tuple[ModuleTerm, ...]:
    """:func:`module_terms` for odds shown before an order: ``attacker`` as given (e.g.
    moved to the cell it fires from), run on a scratch transaction so ``state`` is not
    changed (a hook that consumes something, such as a confirmed-target bonus, consumes it
    only there). The hooks use the attacking side's knowledge (docs/extending.md)."""
    tx = Tx(state)
    tx.put(attacker)
    return module_terms(tx, attacker, tx.unit(target_id))


def weapon_damage(
    cache: ScenarioCache,
    unit: UnitState,
    weapon: Weapon,
    *,
    weakened: bool,
    target_armoured: bool,
) -> AttackDamage:
    """The dice ``weapon`` of ``unit`` rolls against a target (R-ATK-9, R-TK-1)."""
    fp = cache.firepower(unit, DiceExpr.parse(weapon.damage)) if weakened else None
    return attack_damage(
        damage=weapon.damage,
        at_damage=weapon.at_damage,
        damage_type=weapon.damage_type,
        target_armoured=target_armoured,
        weakened=None if fp is None else fp.dice,
        divisor=1 if fp is None else fp.divisor,
    )


def _hook_name(fn: object) -> str:
    """The name a hook's modifier is logged under: its module's last part."""
    module = getattr(fn, "__module__", "") or "hook"
    return str(module).rsplit(".", 1)[-1]


def enemy_of(unit: UnitState) -> Side:
    return other_side(unit.side)
