"""What rule modules offer each other, as typed values (docs/extending.md).

A module that others may ask something lists an instance of one of these in its
``RuleModule.provides``; another module asks its game's ruleset for it:
``cache_for(state).rules.api(CommandApi)`` — the value, or None when no module of the
ruleset provides it (the asking module then falls back to the plain rules). Modules never
look each other up by import name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from taistelukentta.rules.state import GameState, UnitState

if TYPE_CHECKING:
    from taistelukentta.content.units import Ability
    from taistelukentta.rules.abilities import AbilityTable
    from taistelukentta.rules.context import ScenarioCache, Tx


@dataclass(frozen=True, slots=True)
class CommandApi:
    """The company command structure (R-CO, R-LINK, R-KP), offered by ``company``."""

    co_seat: Callable[[GameState], str | None]
    """The Blue seat that commands the company now (None while nobody does)."""
    co_unit: Callable[[GameState], str | None]
    """The company commander's unit id now (None when there is none)."""
    in_command_link: Callable[[GameState, str], bool]
    """Whether a unit is in command link (R-LINK-1/2)."""
    company_cost: Callable[[GameState, str, int], int]
    """The ``Plan.cost`` of a company-level order of a seat costing some KP."""
    pay_company: Callable[[Tx, int], None]
    """Pay a company-level order from a promoted CO's company pool."""
    company_kp: Callable[[GameState], int]
    """KP the company commander has for company-level orders now."""


@dataclass(frozen=True, slots=True)
class AbilitiesApi:
    """Unit abilities and HIDDEN (R-AB, R-MOR-3), offered by ``abilities``."""

    usable_ability: Callable[[ScenarioCache, UnitState, str], Ability | None]
    """The card's ability if the unit has it and it is not disabled (R-AB-2)."""
    is_hidden: Callable[[UnitState], bool]
    """The unit is HIDDEN (R-MOR-3)."""
    hidden_blocks: Callable[[GameState, UnitState, str], tuple[str, str] | None]
    """Why an observer may not target a HIDDEN unit (None: it may)."""
    end_hidden: Callable[[Tx, str, str], None]
    """HIDDEN ends for a unit (its own side is told)."""
    table: AbilityTable
    """What each ability id does in this ruleset (weapons it fires, ``use`` orders,
    HIDDEN): the module's data, not a process-global registry."""
