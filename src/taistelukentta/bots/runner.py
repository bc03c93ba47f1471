"""Running computer players against a game: one side, or both to the end (``tk20 simulate``).

The runner is the only piece that holds the :class:`~taistelukentta.rules.GameState`; each
bot is handed its seat's view (:func:`taistelukentta.views.view_for`) and legal orders.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from taistelukentta.bots.baseline import LazyOrders
from taistelukentta.content.scenario import Scenario
from taistelukentta.content.units import UnitCard
from taistelukentta.dice.roller import Seed, derive_int
from taistelukentta.grid.geometry import Cell, chebyshev
from taistelukentta.rules import (
    GM_SEAT,
    SIDES,
    Event,
    GameState,
    Order,
    OrderKind,
    Phase,
    apply,
    is_legal,
    legal_orders,
    new_game,
    next_seat,
)
from taistelukentta.rules.context import cache_for, ruleset_of
from taistelukentta.rules.orders import order_weapon
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.services import AbilitiesApi
from taistelukentta.rules.state import Side, UnitState
from taistelukentta.views import view_for
from taistelukentta.views.models import SideView

if TYPE_CHECKING:
    from taistelukentta.bots.players import Player

MAX_ORDERS_PER_TURN = 400
"""Safety limit: a bot that has not said ``done`` after this many orders in one side turn
is made to (never reached by the baseline bot; protects against a looping bot)."""


@dataclass
class Played:
    """One order a bot gave: its seat, the order and the events it caused."""

    seat: str
    order: Order
    events: list[Event] = field(default_factory=list)


def bot_seed(seed: Seed, side: Side) -> int:
    """The seed of a side's bot in a game of ``seed`` (fixed, so games replay exactly).

    For an HMAC-scheme seed it is derived one-way (:func:`derive_int`): the bot's choices
    tell nothing of the game's dice. A legacy integer seed keeps its old formula so the
    recorded simulations replay."""
    if isinstance(seed, bytes):
        return derive_int(seed, f"bot:{side}")
    return seed * 2 + (0 if side == "blue" else 1)


def viewer_of(seat: str) -> str:
    """The view a seat's player gets: Red's seat ``gm`` plays from Red's view (the bot is
    not the all-seeing game master)."""
    return "red" if seat == GM_SEAT else seat


_NEAREST = "bots.nearest"
"""The scenario caches' memo (:meth:`ScenarioCache.memo`) of the visible cell nearest an
aim, from a cell (map facts only)."""


def bot_legal_orders(state: GameState, seat: str, *, recon: bool = True) -> list[Order]:
    """The legal orders offered to the baseline bot, a subset of :func:`legal_orders`:

    - without the long list of recon cells (one per visible cell of every unit); instead,
      per unit that may recon, the visible cell nearest to each aim worth a look: the
      centre of each of its side's contacts below SPOTTED and of each objective (checked
      with :func:`is_legal`);
    - without ``disengage`` (one per destination), which the baseline bot never gives
      (``withdraw`` stays: the bot withdraws a unit named in Järjestäytynyt vetäytyminen);
    - of the attack orders, per unit, only :func:`attack_candidates` (attacks without a
      move, and those that move first only from the origins farthest from each target),
      listed after the other orders, unit by unit.

    With ``recon=False`` no recon candidates are added (the runner asks for them only while
    the seat's side has no SPOTTED contact: the baseline bot recons only then).
    Every order returned is legal. :func:`bot_order` hands the bot the same orders lazily
    (:func:`lazy_bot_orders`); this list is for tests and callers that want them all."""
    full = legal_orders(state, seat, recon_cells=False)
    out = [o for o in full if o.kind is not OrderKind.DISENGAGE and o.kind is not OrderKind.ATTACK]
    if not out:
        return out
    attackers = sorted({o.unit for o in full if o.kind is OrderKind.ATTACK and o.unit})
    attacks = [o for uid in attackers for o in attack_candidates(state, seat, uid)]
    recons = recon_candidates(state, seat) if recon else []
    return out[:-1] + attacks + recons + out[-1:]


def recon_candidates(state: GameState, seat: str) -> list[Order]:
    """The baseline bot's recon orders: per unit of ``seat`` that may recon (unit id
    order), the visible cell nearest each aim — each contact area's centre (contacts below
    SPOTTED) and each objective's centre — if :func:`is_legal`. Empty outside the seat's
    command phase."""
    side = state.side_of_seat(seat)
    if side is None or state.phase != Phase.COMMAND:
        return []
    aims: list[Cell] = []
    for c in state.contacts[side].values():
        if c.area is not None:
            half = c.area[2] // 2
            aims.append((c.area[0] + half, c.area[1] + half))
    for obj in state.scenario.objectives:
        xs = [int(c[0]) for c in obj.cells]
        ys = [int(c[1]) for c in obj.cells]
        aims.append(((min(xs) + max(xs)) // 2, (min(ys) + max(ys)) // 2))
    if not aims:
        return []
    cache = cache_for(state)
    memo: dict[tuple[Cell, Cell], Cell] = cache.memo(_NEAREST)
    recons: list[Order] = []
    for u in sorted((u for u in state.units.values() if u.seat == seat), key=lambda v: v.id):
        if u.reconned or u.suppressed is not None:
            continue
        cells: dict[Cell, None] = {}
        for a in aims:
            key = (u.cell, a)
            near = memo.get(key)
            if near is None:
                visible = cache.visible_from(u.cell)
                if not visible:
                    continue
                near = _nearest(visible, a)
                memo[key] = near
            cells[near] = None
        for cell in cells:
            order = Order.recon(u.id, cell)
            if is_legal(state, seat, order):
                recons.append(order)
    return recons


def attack_candidates(
    state: GameState, seat: str, unit: str, targets: Collection[str] | None = None
) -> list[Order]:
    """``unit``'s attack orders as the baseline bot is offered them: every attack order
    without a move, and of the orders that move first only, per target and weapon, those
    from the listed origins farthest from the target — the only ones the bot would pick
    (it attacks from the farthest origin). All come from the engine's attack list for the
    unit (:func:`legal_orders`), so no order is checked again. A unit that began its turn
    in an enemy ZoC gets the engine's whole attack list. Orders without a move first (in
    the engine's order), then by target, weapon (the basic one first, then the card's)
    and cell. With ``targets``, only the orders aimed at one of them (the same orders in
    the same order as the whole answer filtered)."""
    whole = legal_orders(state, seat, recon_cells=False, unit=unit, kinds=(OrderKind.ATTACK,))[:-1]
    if targets is not None:
        whole = [o for o in whole if o.target in targets]
    u = state.units.get(unit)
    side = state.side_of_seat(seat)
    if u is None or side is None or u.action is not None or u.zoc_at_start:
        return whole
    direct: list[Order] = []
    moving: dict[tuple[str | None, str | None], list[Order]] = {}
    for o in whole:
        if o.cell is None:
            direct.append(o)
        else:
            moving.setdefault((o.target, order_weapon(o)), []).append(o)
    if not moving:
        return direct
    card = cache_for(state).card(u)
    names: list[str | None] = [] if card.basic_weapon.indirect else [None]
    for w in card.weapons:
        if w.basic or w.area or w.indirect:
            continue
        names.append(_weapon_name(state, card, u, w.id))
    out = direct
    for tid, c in sorted(state.contacts[side].items()):
        if c.level != ContactLevel.SPOTTED or c.cell is None:
            continue
        if targets is not None and tid not in targets:
            continue
        tx, ty = c.cell
        for name in names:
            group = moving.get((tid, name))
            if not group:
                continue
            dist = [chebyshev(o.cell, (tx, ty)) if o.cell else 0 for o in group]
            best = max(dist)
            far = [o for o, d in zip(group, dist, strict=True) if d == best]
            out.extend(sorted(far, key=_cell_of))
    return out


def _cell_of(order: Order) -> Cell:
    assert order.cell is not None
    return order.cell


def _weapon_name(state: GameState, card: UnitCard, unit: UnitState, weapon_id: str) -> str:
    """The ``with`` name of a special weapon under the game's ruleset: its ability's id
    when the ruleset's abilities module fires it through one, else the weapon id."""
    api = ruleset_of(state).api(AbilitiesApi)
    return weapon_id if api is None else api.table.weapon_name(card, unit, weapon_id)


_CHEAP = (OrderKind.RALLY, OrderKind.DEFEND)


def lazy_bot_orders(state: GameState, seat: str) -> LazyOrders:
    """The orders of :func:`bot_legal_orders` (recon candidates only while the seat's side
    has no SPOTTED contact), fetched from :func:`legal_orders` a kind and a unit at a time
    as the bot asks for them. The bot gets only this object, never ``state``. ValueError if
    the seat has nothing to do now (as :func:`choose_order` for an empty list)."""
    cheap: dict[OrderKind, list[Order]] = {}
    if state.phase == Phase.COMMAND:
        # the bot asks for rally and defend first in the command phase: listed at once,
        # with ``done`` ([] if the seat may not act)
        listed = legal_orders(state, seat, kinds=_CHEAP)
        for k in _CHEAP:
            cheap[k] = [o for o in listed[:-1] if o.kind is k]
    else:
        listed = legal_orders(state, seat, kinds=())  # [done], or [] if it may not act
    if not listed:
        raise ValueError("no legal orders: the seat has nothing to do now")
    side = state.side_of_seat(seat)
    spotted = side is not None and any(
        c.level == ContactLevel.SPOTTED for c in state.contacts[side].values()
    )

    def fetch(kind: OrderKind, unit: str | None) -> list[Order]:
        if unit is None and (kind is OrderKind.RALLY or kind is OrderKind.DEFEND):
            # the bot asks for both first: one call lists them
            if not cheap:
                both = legal_orders(state, seat, kinds=_CHEAP)[:-1]
                for k in _CHEAP:
                    cheap[k] = [o for o in both if o.kind is k]
            return cheap[kind]
        if kind is OrderKind.RECON:
            found = [] if spotted else recon_candidates(state, seat)
            return found if unit is None else [o for o in found if o.unit == unit]
        if kind is OrderKind.DONE:
            return []
        if kind is OrderKind.ATTACK and unit is not None:
            return attack_candidates(state, seat, unit)
        return legal_orders(state, seat, recon_cells=False, unit=unit, kinds=(kind,))[:-1]

    def fetch_targets(kind: OrderKind, unit: str, targets: frozenset[str]) -> list[Order]:
        if kind is OrderKind.ATTACK:
            return attack_candidates(state, seat, unit, targets)
        return [o for o in fetch(kind, unit) if o.target in targets]

    return LazyOrders(fetch, listed[-1], fetch_targets)


def _nearest(cells: Collection[Cell], aim: Cell) -> Cell:
    best: tuple[int, Cell] | None = None
    for c in cells:
        key = (chebyshev(c, aim), c)
        if best is None or key < best:
            best = key
    assert best is not None
    return best[1]


def bot_order(state: GameState, seat: str, bot: Player) -> Order:
    """The order ``bot`` gives for ``seat`` now, from that seat's view only."""
    view = view_for(state, viewer_of(seat), log_limit=0)
    assert isinstance(view, SideView)  # a seat's player never gets the game master's view
    # The scenario's rule options are public (its file); the bot judges with them.
    return bot.choose(view, lazy_bot_orders(state, seat), cache_for(state).opts)


def run_bots(
    state: GameState,
    bots: Mapping[Side, Player],
    *,
    sides: Collection[Side] = ("blue", "red"),
    until_turn: int | None = None,
) -> tuple[GameState, list[Played]]:
    """Let the bots play while the active side is one of ``sides`` and the game is on
    (and, given ``until_turn``, while the side turn number is below it)."""
    played: list[Played] = []
    count = 0
    turn = state.turn_no
    while (
        not state.finished
        and state.active in sides
        and (until_turn is None or state.turn_no < until_turn)
    ):
        seat = next_seat(state)
        if seat is None:
            break
        if state.turn_no != turn:
            turn, count = state.turn_no, 0
        count += 1
        if count > MAX_ORDERS_PER_TURN:
            order = Order.done()
        else:
            order = bot_order(state, seat, bots[state.active])
        state, events = apply(state, seat, order)
        played.append(Played(seat, order, events))
    return state, played


def simulate(
    scenario: Scenario, seed: Seed, *, blue: str = "baseline", red: str = "baseline"
) -> tuple[GameState, list[Played]]:
    """A whole game of ``scenario`` with the computer players ``blue`` and ``red`` (names
    of :data:`~taistelukentta.bots.players.BOT_NAMES`; default the baseline bot)."""
    from taistelukentta.bots.players import make_bot

    state = new_game(scenario, seed)
    names = {"blue": blue, "red": red}
    bots: dict[Side, Player] = {s: make_bot(names[s], bot_seed(seed, s)) for s in SIDES}
    return run_bots(state, bots)
