"""Rules: pure resolution functions (combat, morale, recon, strength) and the game engine.

The engine's public API (docs/engine.md)::

    from taistelukentta.rules import new_game, legal_orders, apply, parse_order

    state = new_game(scenario, seed=1)
    state, events = apply(state, "pl1", parse_order("move 1R1 12,7"))
"""

from taistelukentta.rules.context import view_extras
from taistelukentta.rules.engine import (
    apply,
    apply_text,
    check_order,
    fire_targets,
    is_legal,
    legal_orders,
    may_fire,
    move_destinations,
    new_game,
)
from taistelukentta.rules.events import Event
from taistelukentta.rules.orders import Order, OrderKind, format_order, parse_order
from taistelukentta.rules.ruleset import RuleModule, Ruleset, default_ruleset
from taistelukentta.rules.state import (
    GM_SEAT,
    SIDES,
    Action,
    Contact,
    GameState,
    Phase,
    Side,
    UnitState,
    other_side,
)
from taistelukentta.rules.turn_order import next_seat

__all__ = [
    "GM_SEAT",
    "SIDES",
    "Action",
    "Contact",
    "Event",
    "GameState",
    "Order",
    "OrderKind",
    "Phase",
    "RuleModule",
    "Ruleset",
    "Side",
    "UnitState",
    "apply",
    "apply_text",
    "check_order",
    "default_ruleset",
    "fire_targets",
    "format_order",
    "is_legal",
    "legal_orders",
    "may_fire",
    "move_destinations",
    "new_game",
    "next_seat",
    "other_side",
    "parse_order",
    "view_extras",
]
