"""Command points: pools, costs, the Red battle-group cap (R-KP-1…4).

- Blue: each seat has its own pool, refilled at the start of Blue's turn: the company
  commander's seat ``kp_company_commander``, each platoon seat ``kp_platoon_leader``.
- Red: one game-master pool (seat ``gm``) of ``kp_red_per_group`` per battle group that
  still has units; at most ``kp_red_group_cap`` of it may be spent on one battle group's
  units in a turn. Variant ``red_separate_pools``: each battle group has its own
  non-transferable pool of ``kp_red_per_group`` (the cap becomes that amount).
- Unused KP vanish at the end of the turn. No pool ever goes below 0.
- Costs: attack order ``kp_attack_order``, disengage ``kp_disengage``, withdrawal
  ``kp_withdrawal``, rally ``kp_rally``, active recon ``kp_active_recon``; defend, basic move,
  fire and done are free.
"""

from __future__ import annotations

from collections.abc import Mapping

from taistelukentta.content.options import RuleOptions
from taistelukentta.rules.context import Tx
from taistelukentta.rules.orders import OrderKind
from taistelukentta.rules.state import GM_SEAT, Side, UnitState


def order_cost(opts: RuleOptions, kind: OrderKind) -> int:
    """KP an order of ``kind`` costs (R-KP-3/4)."""
    if kind == OrderKind.ATTACK:
        return opts.kp_attack_order
    if kind == OrderKind.DISENGAGE:
        return opts.kp_disengage
    if kind == OrderKind.WITHDRAW:
        return opts.kp_withdrawal
    if kind == OrderKind.RALLY:
        return opts.kp_rally
    if kind == OrderKind.RECON:
        return opts.kp_active_recon
    return 0


def group_cap(opts: RuleOptions) -> int:
    """Most KP Red may spend on one battle group in a turn (R-KP-2)."""
    return opts.kp_red_per_group if opts.red_separate_pools else opts.kp_red_group_cap


def payment_problem(
    opts: RuleOptions,
    kp: Mapping[str, int],
    group_spent: Mapping[str, int],
    seat: str,
    unit: UnitState | None,
    cost: int,
) -> tuple[str, str] | None:
    """Why ``seat`` cannot pay ``cost`` for an order to ``unit`` (English, Finnish)."""
    if cost == 0:
        return None
    have = kp.get(seat, 0)
    if have < cost:
        return (
            f"seat {seat} has {have} KP left, the order costs {cost}",
            f"paikalla {seat} on {have} KP jäljellä, käsky maksaa {cost}",
        )
    if seat == GM_SEAT and unit is not None:
        spent = group_spent.get(unit.group, 0)
        cap = group_cap(opts)
        if spent + cost > cap:
            return (
                f"battle group {unit.group} has had {spent} KP this turn; at most {cap} "
                f"may be spent on one battle group (R-KP-2)",
                f"taisteluryhmälle {unit.group} on käytetty {spent} KP tässä vuorossa; "
                f"yhdelle taisteluryhmälle saa käyttää enintään {cap} (R-KP-2)",
            )
    return None


def pay(tx: Tx, seat: str, unit: UnitState | None, cost: int) -> None:
    """Spend ``cost`` KP of ``seat`` on ``unit`` (checked beforehand; None: an order to
    no unit, outside any battle group's cap)."""
    if cost == 0:
        return
    tx.kp[seat] = tx.kp.get(seat, 0) - cost
    if seat == GM_SEAT and unit is not None:
        tx.group_spent[unit.group] = tx.group_spent.get(unit.group, 0) + cost
    assert tx.kp[seat] >= 0


def refill(tx: Tx, side: Side) -> None:
    """Start of ``side``'s turn: pools refilled, Red's per-group spending reset (R-KP-1/2)."""
    opts = tx.opts
    if side == "blue":
        for seat in tx.scenario.blue.seats:
            amount = (
                opts.kp_company_commander
                if seat.role == "company_commander"
                else opts.kp_platoon_leader
            )
            for hook in tx.cache.hooks.kp_refill:
                amount = hook(tx, side, seat.id, amount)
            tx.kp[seat.id] = amount
            tx.emit(
                "kp", {"seat": seat.id, "kp": amount}, {"blue": {"seat": seat.id, "kp": amount}}
            )
    else:
        groups = {u.group for u in tx.units_of("red")}
        amount = opts.kp_red_per_group * len(groups)
        for hook in tx.cache.hooks.kp_refill:
            amount = hook(tx, side, GM_SEAT, amount)
        tx.kp[GM_SEAT] = amount
        tx.group_spent = {g.id: 0 for g in tx.scenario.red.battle_groups}
        tx.emit("kp", {"seat": GM_SEAT, "kp": amount}, {"red": {"seat": GM_SEAT, "kp": amount}})


def reset(tx: Tx, side: Side) -> None:
    """End of ``side``'s turn: unused KP vanish (R-KP-1)."""
    for seat in list(tx.kp):
        if (seat == GM_SEAT) == (side == "red"):
            tx.kp[seat] = 0
    if side == "red":
        tx.group_spent = {g: 0 for g in tx.group_spent}
