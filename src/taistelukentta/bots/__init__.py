"""Computer players. A bot decides from its own side's view only (never a GameState)."""

from taistelukentta.bots.baseline import BaselineBot, LazyOrders, choose_order
from taistelukentta.bots.knowledge import shot_value
from taistelukentta.bots.runner import (
    Played,
    bot_order,
    bot_seed,
    lazy_bot_orders,
    run_bots,
    simulate,
)

__all__ = [
    "BaselineBot",
    "LazyOrders",
    "Played",
    "bot_order",
    "bot_seed",
    "choose_order",
    "lazy_bot_orders",
    "run_bots",
    "shot_value",
    "simulate",
]
