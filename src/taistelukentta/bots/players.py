"""The computer players by name, wherever a seat can be given to the computer (``tk20 play``,
``tk20 simulate``, ``tk20 balance``, the server's computer seats).

Every player has the same interface as :class:`~taistelukentta.bots.baseline.BaselineBot`:
``choose(view, legal_orders, options)`` with its seat's typed view and legal orders only — never a
``GameState`` — and is fully determined by its seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from taistelukentta.bots.baseline import BaselineBot, LazyOrders
from taistelukentta.bots.tactical import LEVELS, TacticalBot
from taistelukentta.content.options import RuleOptions
from taistelukentta.errors import ArgumentError
from taistelukentta.rules.orders import Order
from taistelukentta.views.models import SideView

BOT_NAMES: tuple[str, ...] = ("baseline", "easy", "normal", "hard", "search")
"""The computer players a seat can be given, by name (``search``: the look-ahead player,
``bots/search.py``, measured on its own with ``tk20 balance`` before ``normal`` uses it)."""

DEFAULT_BOT = "baseline"


class Player(Protocol):
    """A computer player: decides its seat's next order from that seat's view."""

    def choose(
        self,
        view: SideView,
        legal_orders: Sequence[Order] | LazyOrders,
        options: RuleOptions | None = None,
    ) -> Order:
        """The next order of the seat whose view and legal orders these are; ``options``
        are the game's rule options (public: the scenario's file)."""
        ...


def make_bot(name: str, seed: int, budget: int | None = None) -> Player:
    """The computer player ``name`` (one of :data:`BOT_NAMES`) with its own seed;
    ``budget``: a tactical player's evaluations per decision, the look-ahead player's
    rollouts per side turn (None: its level's).
    ArgumentError naming the choices for an unknown name."""
    if name == "baseline":
        return BaselineBot(seed)
    if name in LEVELS:
        return TacticalBot(seed, name, budget)
    if name == "search":
        from taistelukentta.bots.search import SearchBot

        return SearchBot(seed, budget)
    raise ArgumentError(
        f"unknown computer player {name!r} (choices: {', '.join(BOT_NAMES)})",
        f"tuntematon tietokonepelaaja {name!r} (vaihtoehdot: {', '.join(BOT_NAMES)})",
    )
