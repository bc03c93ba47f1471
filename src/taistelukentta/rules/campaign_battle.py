"""A campaign's company in and out of a battle (R-CAMP-2, R-CAMP-5).

- :func:`roster_units` — the roster units of a scenario's Blue forces (a new campaign).
- :func:`battle_overlay` — which roster unit fills which Blue slot of a scenario: first the
  unit of the slot's name, then an unused unit of the slot's card (a bought replacement
  takes a fallen unit's place); a slot nobody can fill is refused with a message naming it,
  unless the GM leaves it out. The overlay is plain JSON (a game stores it).
- :func:`apply_overlay` — a scenario file's data with its Blue placements replaced by the
  overlay's units (name, XP, TK, display name, veteran abilities); the caller loads and
  checks the result like any scenario.
- :func:`battle_result` — what a finished game gives the campaign: the company's VP, each
  roster unit's TK at the end, its kills and its share of the objectives it held.

Pure functions, no I/O.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from taistelukentta.content.scenario import Scenario
from taistelukentta.rules.campaign import (
    BattleResult,
    CampaignError,
    Roster,
    RosterUnit,
    UnitResult,
)
from taistelukentta.rules.victory import objective_holders


def roster_units(scenario: Scenario) -> list[RosterUnit]:
    """Every Blue unit of ``scenario`` as a roster unit (its id is its name)."""
    out: list[RosterUnit] = []
    for seat in scenario.blue.seats:
        for p in seat.units:
            card = scenario.cards[p.card]
            max_tk = card.stats.strength
            out.append(
                RosterUnit(
                    name=p.id,
                    card=p.card,
                    training=card.stats.training,
                    xp=p.xp or card.stats.xp,
                    strength=p.strength or max_tk,
                    max_strength=max_tk,
                    label={"fi": p.name.fi, "en": p.name.en} if p.name is not None else None,
                    abilities=tuple(p.veteran),
                )
            )
    return out


def battle_overlay(
    data: Mapping[str, Any], roster: Roster, leave_out: Sequence[str] = ()
) -> dict[str, Any]:
    """The roster's units for the Blue slots of a scenario's data (its parsed file).

    ``leave_out`` names roster units the GM keeps out of this battle; a slot whose unit is
    left out (or that no unit can fill) stays empty only if left out, else CampaignError.
    Returns ``{"slots": {slot id: roster unit dict}, "left_out": [slot ids]}``.
    """
    for name in leave_out:
        if roster.unit(name) is None and not _is_slot(data, name):
            raise CampaignError(
                f"leave out {name!r}: no such unit in the roster or slot in the scenario",
                f"jätä pois {name!r}: vahvuusluettelossa ei ole yksikköä eikä skenaariossa "
                "paikkaa tällä nimellä",
            )
    out_names = set(leave_out)
    free = [u for u in roster.units if u.name not in out_names]
    slots: list[tuple[str, str]] = [
        (str(p["id"]), str(p["card"])) for seat in _seats(data) for p in seat.get("units", [])
    ]
    chosen: dict[str, RosterUnit] = {}
    by_name = {u.name: u for u in free}
    for slot, card in slots:
        unit = by_name.get(slot)
        if unit is not None and unit.card == card:
            chosen[slot] = unit
    used = {u.name for u in chosen.values()}
    left: list[str] = []
    missing: list[str] = []
    for slot, card in slots:
        if slot in chosen:
            continue
        if slot in out_names:
            left.append(slot)
            continue
        spare = next((u for u in free if u.card == card and u.name not in used), None)
        if spare is None:
            missing.append(f"{slot} ({card})")
            continue
        chosen[slot] = spare
        used.add(spare.name)
    if not missing:
        for seat in _seats(data):
            ids = [str(p["id"]) for p in seat.get("units", [])]
            if ids and all(i in left for i in ids):
                raise CampaignError(
                    f"seat {seat.get('id')!r} would have no units (left out: "
                    f"{', '.join(ids)}); buy replacements or keep one in",
                    f"paikalle {seat.get('id')!r} ei jäisi yksiköitä (pois: {', '.join(ids)}); "
                    "osta täydennyksiä tai pidä yksi mukana",
                )
    if missing:
        text = ", ".join(missing)
        raise CampaignError(
            f"the roster has no unit for the scenario's Blue slot(s) {text}; buy one "
            "(`buy CARD NAME`) or leave the slot out",
            f"vahvuusluettelossa ei ole yksikköä skenaarion paikoille {text}; osta yksikkö "
            "(`buy KORTTI NIMI`) tai jätä paikka pois",
        )
    return {"slots": {s: u.to_dict() for s, u in chosen.items()}, "left_out": sorted(left)}


def _seats(data: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    blue = data.get("blue")
    seats = blue.get("seats") if isinstance(blue, Mapping) else None
    return [s for s in seats if isinstance(s, Mapping)] if isinstance(seats, list) else []


def _is_slot(data: Mapping[str, Any], name: str) -> bool:
    return any(str(p.get("id")) == name for s in _seats(data) for p in s.get("units", []))


def apply_overlay(data: Mapping[str, Any], overlay: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of scenario ``data`` whose Blue units are the overlay's (see
    :func:`battle_overlay`); left-out slots are removed, and so is a seat's leader reference
    to one. References to a renamed slot (seat leader, organic rounds) follow the unit."""
    out = copy.deepcopy(dict(data))
    slots: Mapping[str, Mapping[str, Any]] = overlay.get("slots", {})
    left = set(overlay.get("left_out", []))
    renamed: dict[str, str] = {}
    for seat in out.get("blue", {}).get("seats", []):
        placed: list[dict[str, Any]] = []
        for p in seat.get("units", []):
            slot = str(p["id"])
            if slot in left:
                continue
            unit = slots.get(slot)
            if unit is None:
                placed.append(p)
                continue
            q = dict(p)
            q["id"] = unit["name"]
            q["xp"] = int(unit["xp"])
            q["strength"] = int(unit["strength"])
            if unit.get("label"):
                q["name"] = dict(unit["label"])
            if unit.get("abilities"):
                q["veteran"] = list(unit["abilities"])
            renamed[slot] = str(unit["name"])
            placed.append(q)
        seat["units"] = placed
        leader = seat.get("leader")
        if leader in left:
            seat.pop("leader", None)
        elif leader in renamed:
            seat["leader"] = renamed[leader]
    rounds = out.get("secrets", {}).get("organic_rounds")
    if isinstance(rounds, dict):
        out["secrets"]["organic_rounds"] = {
            renamed.get(k, k): v for k, v in rounds.items() if k not in left
        }
    return out


def kills_from_events(events: Iterable[Any]) -> dict[str, int]:
    """Enemy units each unit destroyed (R-CAMP-2, the individual share).

    A ``destroyed`` event is credited to the attacker of the latest ``attack`` event on
    that unit only when that attack destroyed it (the event's ``reason`` is the attack's
    ``kind``). A unit an attack only damaged and a strike, a mine or area fire destroyed
    later credits nobody: its death is not the attacker's doing, and under the individual
    XP share the credit would tell Blue which unseen Red unit the strike or mine killed.
    ``events`` are :class:`~taistelukentta.rules.events.Event` objects or their dicts (GM
    data)."""
    last_attack: dict[str, tuple[str, str]] = {}
    out: dict[str, int] = {}
    for e in events:
        kind = e["kind"] if isinstance(e, Mapping) else e.kind
        data = e["data"] if isinstance(e, Mapping) else e.data
        if kind == "attack":
            target, attacker = data.get("target"), data.get("attacker")
            if isinstance(target, str) and isinstance(attacker, str):
                last_attack[target] = (attacker, str(data.get("kind")))
        elif kind == "destroyed":
            hit = last_attack.pop(str(data.get("unit")), None)
            if hit is not None and hit[1] == data.get("reason"):
                out[hit[0]] = out.get(hit[0], 0) + 1
    return out


def battle_result(
    *,
    game: str,
    scenario: Scenario,
    roster: Roster,
    units: Mapping[str, Any],
    destroyed: Sequence[str],
    winner: str,
    blue_vp: int,
    kills: Mapping[str, int],
    left_out: Sequence[str] = (),
) -> BattleResult:
    """The campaign's view of a finished game: ``units`` are the surviving units by id
    (:class:`~taistelukentta.rules.state.UnitState`), ``destroyed`` the Blue units lost.

    Only roster units that were in the battle count; their kills count only against Red
    units (kills are computed from events by the caller, :func:`kills_from_events`)."""
    blue_ids = {p.id for side, _, p in scenario.placements() if side == "blue"}
    holders = objective_holders(scenario, units)
    objective_vp: dict[str, int] = {}
    for obj in scenario.objectives:
        if holders.get(obj.id) != "blue":
            continue
        cells = set(obj.cells)
        on = sorted(u.id for u in units.values() if u.side == "blue" and u.cell in cells)
        for uid in on:
            objective_vp[uid] = objective_vp.get(uid, 0) + obj.vp // len(on)
    results: list[UnitResult] = []
    for name in sorted(blue_ids):
        if roster.unit(name) is None:
            continue
        u = units.get(name)
        strength = 0 if name in destroyed or u is None else int(u.strength)
        results.append(
            UnitResult(
                name=name,
                strength=strength,
                kills=int(kills.get(name, 0)),
                objective_vp=objective_vp.get(name, 0),
            )
        )
    return BattleResult(
        game=game,
        scenario=scenario.id,
        winner=winner,
        victory_points=blue_vp,
        destroyed_enemy_vp=scenario.victory.destroyed_enemy_vp,
        units=tuple(results),
        left_out=tuple(left_out),
    )
