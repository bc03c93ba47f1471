"""Rule IDs whose behaviour spans several modules: stacking of morale modifiers, the scale
amounts kept as data, and the CO's fire-support request."""

from __future__ import annotations

from typing import Any

import pytest

from taistelukentta.content.options import load_options
from taistelukentta.errors import IllegalOrderError
from taistelukentta.rules import GameState, apply, check_order
from taistelukentta.rules.context import Tx
from taistelukentta.rules.engine import new_game
from taistelukentta.rules.fire_support import strike_order
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.status import morale_test
from tests.engine.conftest import with_contact
from tests.engine_company.helpers import company_game, surgery
from tests.engine_fire_support.conftest import fs_scenario


def _morale_bonus(st: GameState, uid: str) -> int:
    """The bonus the engine adds to ``uid``'s next morale test (from the logged event)."""
    seen: dict[str, Any] = {}

    def run(tx: Tx) -> None:
        morale_test(tx, uid, 12, "test")
        ev = [e for e in tx.events if e.kind == "morale"][-1]
        seen.update(ev.data)

    surgery(st, run)
    return int(seen["bonus"])


@pytest.mark.parametrize("per_mark", [1, 3])
def test_r_mor_4_morale_modifiers_stack(per_mark: int) -> None:
    """Sitova tuli marks as the company module leaves them (R-CO-1), each worth
    ``pinning_mark_morale_penalty``, the natural-20 variant's marks (R-ATK-5) and the
    leaderless company (R-LINK-3) all add up on one test."""
    from taistelukentta.rules import company

    st = company_game(options={"pinning_mark_morale_penalty": per_mark})
    base = _morale_bonus(st, "1R1")
    opts = st.scenario.options
    assert opts.pinning_mark_morale_penalty == per_mark

    def pinned(tx: Tx) -> None:  # two Sitova tuli marks
        company._set_mark(tx, "1R1", sitova=2)

    two_marks = surgery(st, pinned)
    assert _morale_bonus(two_marks, "1R1") == base - 2 * per_mark

    def all_three(tx: Tx) -> None:  # + a natural-20 mark + the company has lost its CO
        company._set_mark(tx, "1R1", sitova=2)
        tx.update("1R1", morale_marks=opts.natural20_morale_penalty)
        tx.set_ext("company", {**(tx.ext("company") or {}), "leaderless": True})

    every = surgery(st, all_three)
    assert _morale_bonus(every, "1R1") == (
        base - 2 * per_mark - opts.natural20_morale_penalty - opts.leaderless_morale_penalty
    )


def test_r_geo_1_command_point_amounts_are_data() -> None:
    opts = load_options()
    assert (opts.kp_company_commander, opts.kp_platoon_leader, opts.kp_red_per_group) == (5, 3, 3)
    scaled = load_options(overrides={"kp_company_commander": 8, "kp_platoon_leader": 4})
    assert (scaled.kp_company_commander, scaled.kp_platoon_leader) == (8, 4)
    st = company_game(options={"kp_company_commander": 8, "kp_platoon_leader": 4})
    assert st.kp["co"] == 8 and st.kp["pl1"] == 4


def test_r_co_3_tulitukipyynto_is_the_co_s_three_kp_order() -> None:
    st = with_contact(
        new_game(fs_scenario(requests=5, weapons=("k9",)), 3), "blue", "R1", ContactLevel.SPOTTED
    )
    order = strike_order("k9", (15, 10), "1R1")
    with pytest.raises(IllegalOrderError, match="only the company commander"):
        check_order(st, "pl1", order)
    kp_before = st.kp["co"]
    after, _ = apply(st, "co", order)
    assert (
        after.kp["co"] == kp_before - st.scenario.options.kp_fire_support_request == kp_before - 3
    )


@pytest.mark.parametrize("scenario", ["demo", pytest.param("terasvalli", marks=pytest.mark.slow)])
def test_r_kp_4_legal_orders_list_each_order_once(scenario: str) -> None:
    """Every listed order is listed once and is one the seat can pay for; playing a base
    order takes exactly its R-KP-4 cost from the seat's pool (attack order 1, disengage 2,
    withdrawal 1, rally 2, active recon 1; defend, move, fire, done free)."""
    import random

    from taistelukentta.content.scenario import load_scenario
    from taistelukentta.rules import OrderKind, format_order, legal_orders
    from taistelukentta.rules.command import order_cost

    expected = {
        OrderKind.ATTACK: 1,
        OrderKind.DISENGAGE: 2,
        OrderKind.WITHDRAW: 1,
        OrderKind.RALLY: 2,
        OrderKind.RECON: 1,
        OrderKind.DEFEND: 0,
        OrderKind.MOVE: 0,
        OrderKind.FIRE: 0,
    }
    st = new_game(load_scenario(scenario), 11)
    opts = st.scenario.options
    assert {k: order_cost(opts, k) for k in expected} == expected
    rng = random.Random(11)
    paid: dict[OrderKind, int] = {}
    for _ in range(250):
        if st.finished:
            break
        seat = next(s for s in st.seats(st.active) if s not in st.done)
        orders = legal_orders(st, seat)
        listed = [format_order(o) for o in orders]
        assert len(listed) == len(set(listed))
        for o in orders:
            if o.kind in expected:
                assert expected[o.kind] <= st.kp.get(seat, 0), format_order(o)
        order = rng.choice(orders)
        kp, turn = st.kp.get(seat, 0), st.turn_no
        st, _ = apply(st, seat, order)
        if order.kind in expected and st.turn_no == turn:
            assert kp - st.kp.get(seat, 0) == expected[order.kind], format_order(order)
            paid[order.kind] = paid.get(order.kind, 0) + 1
    assert paid.get(OrderKind.ATTACK, 0) > 0 and paid.get(OrderKind.MOVE, 0) > 0


def test_r_rec_4_active_recon_area_is_an_option() -> None:
    from taistelukentta.rules.contacts import recon_area

    st = company_game()
    wide = company_game(options={"recon_area_radius": 2})
    seen: dict[str, int] = {}

    def size(key: str) -> Any:
        def run(tx: Tx) -> None:
            seen[key] = len(recon_area(tx, (20, 6)))

        return run

    surgery(st, size("default"))
    surgery(wide, size("wide"))
    assert seen == {"default": 9, "wide": 25}


def test_r_rec_5_status_of_an_unspotted_contact_is_not_shown() -> None:
    """A side with only a KNOWN contact learns nothing of that unit's status changes."""
    from taistelukentta.rules.recon import ContactLevel as Level
    from tests.engine.conftest import with_contact

    st = with_contact(company_game(reds=[("R1", (30, 5))]), "blue", "R1", Level.KNOWN)
    seen: list[Any] = []

    def shake(tx: Tx) -> None:
        tx.update("R1", shaken=tx.turn_no)
        ev = tx.unit_event(
            "status", "R1", {"status": "SHAKEN", "on": True}, spotted_keys=("status",)
        )
        seen.append(ev)

    surgery(st, shake)
    assert seen[0].for_side("blue") is None
    assert seen[0].for_side("red") is not None
    spotted = with_contact(st, "blue", "R1", Level.SPOTTED)
    surgery(spotted, shake)
    assert seen[1].for_side("blue") == {"unit": "R1", "status": "SHAKEN"}
