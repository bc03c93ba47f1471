"""Damage, destruction, morale tests and statuses over time (R-ATK-10, R-TK-1/2,
R-MOR-1/2/4/5, R-TURN-3).

- Damage lowers TK; TK 0 destroys the unit (removed). The first damage a unit takes in the
  battle calls a morale test (``first_damage_morale_dc``); so does falling below the
  DAMAGED threshold (``damaged_morale_dc``). One hit calls at most one test, at the higher
  DC. A destroyed unit's adjacent friendly units test (``adjacent_destroyed_morale_dc``).
- Morale test: d20 + M − natural-20 marks (R-ATK-5 variant, ``natural20_morale_penalty``
  each) − Sitova tuli marks (``pinning_mark_morale_penalty`` each, company module; marks are
  used up by the test) + strength-effect modifiers, against the DC (R-MOR-1/2).
  SHAKEN/SUPPRESSED/RETREATING are set with the turn they began in.
- SHAKEN / SUPPRESSED timing (options ``shaken_clears`` / ``suppressed_recovery``, default
  ``own_turn_end``, R-TURN-3): at the end of its side's turn a unit whose status began
  before this turn clears SHAKEN and tests SUPPRESSED to recover (same DC). With
  ``turn_end`` (004 read literally: "Tila poistuu ... vuoron päättyessä" / "...
  moraalitestillä vuoron lopussa") every SHAKEN unit of either side clears and every
  SUPPRESSED unit of either side tests at the end of every turn.
- End of the unit's own turn (R-TURN-1/3): a status that began before this turn has lasted
  through it: the pinning penalty clears, RETREATING recovers when safe (cover ≥
  ``retreat_recovery_cover`` and, with ``retreat_recovery_unseen``, no enemy unit sees it;
  variant: a passed morale test).
- R-ATK-6 communications break: :func:`comms_break_until` (option ``comms_break_until``).
- Rally (*Moraalin kohotus*, ``kp_rally``): clears SUPPRESSED and RETREATING at once.
"""

from __future__ import annotations

from typing import Any

from taistelukentta.grid.geometry import chebyshev
from taistelukentta.rules.context import Tx
from taistelukentta.rules.morale import MoraleOutcome, resolve_morale
from taistelukentta.rules.state import SIDES, Side, UnitState, other_side
from taistelukentta.rules.terms import MoraleSituation, morale_terms


def morale_test(
    tx: Tx, uid: str, dc: int, reason: str, *, unseen_cause: bool = False
) -> MoraleOutcome | None:
    """R-MOR-1/2: test ``uid``'s morale against ``dc`` and apply the outcome.
    ``unseen_cause``: what caused the test is nothing the unit's enemy saw (a neighbour
    destroyed that it had no contact on): the enemy is shown no copy of the test — its
    reason, DC and roll would tell it of the unseen unit (issue 8); a status the outcome
    puts on a unit it sees still shows in its view."""
    unit = tx.units.get(uid)
    if unit is None:
        return None
    cache = tx.cache
    # ``morale_marks`` holds the natural-20 variant's penalty already scaled by
    # ``natural20_morale_penalty`` (R-ATK-5); Sitova tuli marks are the company module's
    # (``pinning_mark_morale_penalty`` each, R-MOR-4), added by its morale hook.
    modules = 0
    for hook in tx.cache.hooks.morale_modifiers:
        modules += hook(tx, unit)
    terms = morale_terms(
        MoraleSituation(
            morale=cache.card(unit).stats.morale,
            marks=unit.morale_marks,
            strength=cache.effects(unit).morale_modifier,
            modules=modules,
        ),
        tx.opts,
    )
    bonus = terms.bonus
    tx.take_rolls()
    res = resolve_morale(
        tx.roller, bonus=bonus, dc=dc, purpose=f"morale:{reason}", **terms.roll_options()
    )
    changes: dict[str, Any] = {"morale_marks": 0}
    outcome = res.outcome
    rescued: str | None = None
    if outcome != MoraleOutcome.PASS:
        for rescue in tx.cache.hooks.morale_rescue:
            rescued = rescue(tx, unit, outcome.value)
            if rescued is not None:
                outcome = MoraleOutcome.PASS
                unit = tx.units[uid]
                break
    # R-MOR-7: one morale status at a time; a worse result replaces a milder one
    # (RETREATING > SUPPRESSED > SHAKEN), a milder one never replaces a worse one.
    if outcome == MoraleOutcome.SHAKEN:
        if unit.suppressed is None and unit.retreating is None:
            changes["shaken"] = tx.turn_no
    elif outcome == MoraleOutcome.SUPPRESSED:
        if unit.retreating is None:
            changes.update(suppressed=tx.turn_no, shaken=None, status_dc=dc)
    elif outcome == MoraleOutcome.RETREATING:
        changes.update(retreating=tx.turn_no, suppressed=None, shaken=None, status_dc=dc)
    tx.update(uid, **changes)
    data = {
        "reason": reason,
        "dc": dc,
        "bonus": bonus,
        "total": res.total,
        "natural": res.natural,
        "outcome": outcome.value,
        "rolls": tx.take_rolls(),
    }
    keys: tuple[str, ...] = ("reason", "dc", "total", "outcome", "rolls")
    if rescued is not None:
        data["rolled"] = res.outcome.value
        data["passed_by"] = rescued
        keys = (*keys, "rolled", "passed_by")
    tx.unit_event("morale", uid, data, spotted_keys=keys, hide_from_enemy=unseen_cause)
    return outcome


def damage_unit(
    tx: Tx, uid: str, amount: int, reason: str, *, cause: tuple[int, str] | None = None
) -> bool:
    """Apply ``amount`` damage to ``uid``; returns whether it was destroyed.

    ``cause`` = (DC, reason) of the morale test the damaging event calls by itself (a
    strike's area test, a mine rush): R-MOR-6, one cause calls one test, at the highest DC
    among its triggers (first damage, falling below half TK, the cause's own)."""
    unit = tx.units.get(uid)
    if unit is None:
        return False
    if amount <= 0:
        if cause is not None:
            morale_test(tx, uid, cause[0], cause[1])
        return False
    cache = tx.cache
    before = unit.strength
    after = max(0, before - amount)
    was_damaged = cache.is_damaged(unit)
    first = not unit.damaged_before
    unit = tx.update(uid, strength=after, damaged_before=True)
    tx.unit_event(
        "damage",
        uid,
        {"amount": before - after, "strength": after, "reason": reason},
        spotted_keys=("amount", "strength", "reason"),
    )
    if after <= 0:
        destroy(tx, uid, reason)
        return True
    triggers: list[tuple[int, str]] = []
    if cause is not None:
        triggers.append(cause)  # first: on equal DCs the cause names the test
    if first:
        triggers.append((tx.opts.first_damage_morale_dc, "first_damage"))
    if not was_damaged and cache.is_damaged(unit):
        triggers.append((tx.opts.damaged_morale_dc, "damaged"))
        tx.unit_event(
            "status", uid, {"status": "DAMAGED", "on": True}, spotted_keys=("status", "on")
        )
    if triggers:
        top = max(dc for dc, _ in triggers)
        morale_test(tx, uid, top, next(r for dc, r in triggers if dc == top))
    return False


def destroy(tx: Tx, uid: str, reason: str) -> None:
    """R-ATK-10: TK 0 — the unit is removed; adjacent units test morale (R-TK-2)."""
    unit = tx.units[uid]
    seen_by_enemy = tx.ref(other_side(unit.side), uid) is not None
    tx.unit_event(
        "destroyed",
        uid,
        {"cell": list(unit.cell), "reason": reason},
        spotted_keys=("cell", "reason"),
        contact_keys=("reason",),
    )
    del tx.units[uid]
    tx.destroyed[unit.side].append(uid)
    for side in (unit.side, other_side(unit.side)):
        tx.contacts[side].pop(uid, None)
    for hook in tx.cache.hooks.on_destroyed:
        hook(tx, unit)
    friendly_only = tx.opts.adjacent_destroyed_side == "friendly"
    near = sorted(
        u.id
        for u in tx.units.values()
        if chebyshev(u.cell, unit.cell) <= 1 and (u.side == unit.side or not friendly_only)
    )
    for nid in near:
        unseen = not seen_by_enemy and tx.units[nid].side == unit.side
        morale_test(
            tx, nid, tx.opts.adjacent_destroyed_morale_dc, "adjacent_destroyed", unseen_cause=unseen
        )


def rally(tx: Tx, uid: str) -> None:
    """*Moraalin kohotus*: SUPPRESSED and RETREATING end at once."""
    tx.update(uid, suppressed=None, retreating=None, rallied=True)
    tx.unit_event("rally", uid, {}, spotted_keys=())


def comms_break_until(tx: Tx, side: Side) -> int:
    """R-ATK-6 communications break of a ``side`` unit that rolls it now: the last turn_no
    in which it lasts (``comms_until``; the break holds while ``comms_until >= turn_no``).

    004: "seuraavan vuoron alkuun asti" — until the start of the next turn
    (``next_turn_start``: the rest of this turn). ``next_own_turn_start``: until the start
    of the unit's next own turn. ``next_own_turn_end``: RULES.md's earlier reading, through
    the end of its next own turn."""
    mode = tx.opts.comms_break_until
    if mode == "next_turn_start":
        return tx.turn_no
    if mode == "next_own_turn_start":
        return tx.next_own_turn(side) - 1
    return tx.next_own_turn(side)


def _shaken_clears(unit: UnitState, side: Side, now: int, mode: str) -> bool:
    """R-MOR-2 SHAKEN at the end of ``side``'s turn ``now`` (option ``shaken_clears``)."""
    if unit.shaken is None:
        return False
    return mode == "turn_end" or (unit.side == side and unit.shaken < now)


def _suppressed_tests(unit: UnitState, side: Side, now: int, mode: str) -> bool:
    """R-MOR-2 SUPPRESSED recovery test at the end of ``side``'s turn ``now`` (option
    ``suppressed_recovery``)."""
    if unit.suppressed is None:
        return False
    return mode == "turn_end" or (unit.side == side and unit.suppressed < now)


def _end_shaken_suppressed(tx: Tx, uid: str, side: Side, now: int) -> UnitState | None:
    """SHAKEN clears and SUPPRESSED tests to recover when their options say so."""
    unit = tx.units.get(uid)
    if unit is None:
        return None
    if _shaken_clears(unit, side, now, tx.opts.shaken_clears):
        unit = tx.update(uid, shaken=None)
        tx.unit_event(
            "status", uid, {"status": "SHAKEN", "on": False}, spotted_keys=("status", "on")
        )
    if _suppressed_tests(unit, side, now, tx.opts.suppressed_recovery):
        outcome = _recovery_test(tx, uid, unit.status_dc, "suppressed_recovery")
        if outcome == MoraleOutcome.PASS and uid in tx.units:
            unit = tx.update(uid, suppressed=None)
            tx.unit_event(
                "status",
                uid,
                {"status": "SUPPRESSED", "on": False},
                spotted_keys=("status", "on"),
            )
    return tx.units.get(uid)


def end_of_turn(tx: Tx, side: Side) -> None:
    """R-TURN-1 end of ``side``'s turn: SHAKEN/SUPPRESSED of both sides per their options
    (R-MOR-2); ``side``'s statuses that began before this turn resolve (R-TURN-3)."""
    cache = tx.cache
    now = tx.turn_no
    for uid in sorted(u.id for u in tx.units_of(side)):
        unit = tx.units.get(uid)
        if unit is None:
            continue
        if unit.pinned is not None and unit.pinned < now:
            tx.update(uid, pinned=None, pinning_penalty=0)
        if _end_shaken_suppressed(tx, uid, side, now) is None:
            continue
        unit2 = tx.units.get(uid)
        if unit2 is not None and unit2.retreating is not None and unit2.retreating < now:
            safe = cache.map.cover_at(unit2.cell) >= tx.opts.retreat_recovery_cover and (
                not tx.opts.retreat_recovery_unseen
                or not any(cache.sees(e.cell, unit2.cell) for e in tx.units_of(other_side(side)))
            )
            if not safe and tx.opts.retreat_recovers_on_morale:
                safe = (
                    _recovery_test(tx, uid, unit2.status_dc, "retreat_recovery")
                    == MoraleOutcome.PASS
                )
            if safe and uid in tx.units:
                tx.update(uid, retreating=None)
                tx.unit_event(
                    "status",
                    uid,
                    {"status": "RETREATING", "on": False},
                    spotted_keys=("status", "on"),
                )
    # 004: the other side's SHAKEN/SUPPRESSED units too (no-op with ``own_turn_end``).
    for uid in sorted(u.id for u in tx.units_of(other_side(side))):
        _end_shaken_suppressed(tx, uid, side, now)


def _recovery_test(tx: Tx, uid: str, dc: int, reason: str) -> MoraleOutcome:
    """A recovery test: a plain pass/fail morale roll (a failure changes nothing else)."""
    unit = tx.units[uid]
    cache = tx.cache
    modules = 0
    for hook in tx.cache.hooks.morale_modifiers:
        modules += hook(tx, unit)
    terms = morale_terms(
        MoraleSituation(
            morale=cache.card(unit).stats.morale,
            strength=cache.effects(unit).morale_modifier,
            modules=modules,
        ),
        tx.opts,
    )
    bonus = terms.bonus
    tx.take_rolls()
    res = resolve_morale(
        tx.roller, bonus=bonus, dc=dc, purpose=f"morale:{reason}", **terms.roll_options()
    )
    passed = res.outcome == MoraleOutcome.PASS
    outcome = res.outcome
    tx.unit_event(
        "morale",
        uid,
        {
            "reason": reason,
            "dc": dc,
            "bonus": bonus,
            "total": res.total,
            "natural": res.natural,
            "outcome": "PASS" if passed else "FAIL",
            "rolls": tx.take_rolls(),
        },
        spotted_keys=("reason", "dc", "total", "outcome", "rolls"),
    )
    return outcome


def side_eliminated(tx: Tx) -> Side | None:
    """A side with no units left, if any (the game ends, R-TURN-2)."""
    for side in SIDES:
        if next(tx.units_of(side), None) is None:
            return side
    return None


__all__ = [
    "comms_break_until",
    "damage_unit",
    "destroy",
    "end_of_turn",
    "morale_test",
    "rally",
    "side_eliminated",
]
