"""Veteran abilities (R-CAMP-3) played in battle: a rule module (docs/extending.md).

A campaign unit's veteran abilities travel in its scenario placement (``veteran = [...]``,
:mod:`taistelukentta.rules.campaign_battle`); this module reads them there.

- *Parannettu sisu* (``parannettu_sisu``): a failed morale test is passed instead,
  ``sisu_uses_per_battle`` times a battle (DEFAULT once). The unit's use count is its ext
  slot ``veteran.sisu``; the ``morale`` event names the ability (``passed_by``) and the
  outcome rolled (``rolled``).
- *Kaupunkisissi* (``kaupunkisissi``): no movement penalty in buildings — the unit moves
  into a building as into open ground, also where ``buildings_block_movement`` makes
  buildings impassable to others (:mod:`taistelukentta.rules.movement` asks
  :func:`urban_unit`).
"""

from __future__ import annotations

from taistelukentta.content.scenario import Scenario
from taistelukentta.rules.context import Tx
from taistelukentta.rules.ruleset import RuleModule
from taistelukentta.rules.state import UnitState

MODULE = "veteran"
SISU = "parannettu_sisu"
URBAN = "kaupunkisissi"


def veteran_abilities(scenario: Scenario, unit_id: str) -> tuple[str, ...]:
    """The veteran abilities of ``unit_id`` (from its placement; none for an unknown id)."""
    # A copy of the scenario shares its caches: the entry names the scenario it is for.
    caches = scenario.rule_caches
    entry = caches.get(MODULE)
    if entry is None or entry[0] is not scenario:
        entry = (scenario, {p.id: tuple(p.veteran) for _, _, p in scenario.placements()})
        caches[MODULE] = entry
    found: tuple[str, ...] = entry[1].get(unit_id, ())
    return found


def urban_unit(scenario: Scenario, unit_id: str) -> bool:
    """Whether the unit has *Kaupunkisissi*."""
    return URBAN in veteran_abilities(scenario, unit_id)


def _sisu(tx: Tx, unit: UnitState, _outcome: str) -> str | None:
    if SISU not in veteran_abilities(tx.scenario, unit.id):
        return None
    slot = dict(unit.ext.get(MODULE, {}))
    used = int(slot.get("sisu", 0))
    if used >= tx.opts.sisu_uses_per_battle:
        return None
    slot["sisu"] = used + 1
    tx.update(unit.id, ext={**unit.ext, MODULE: slot})
    return SISU


def rule_module() -> RuleModule:
    """Veteran abilities (R-CAMP-3) as a rule module."""
    return RuleModule(MODULE, hooks=(("morale_rescue", _sisu),))


__all__ = ["MODULE", "SISU", "URBAN", "rule_module", "urban_unit", "veteran_abilities"]
