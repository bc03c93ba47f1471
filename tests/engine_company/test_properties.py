"""Properties of the company orders over random play (R-CO-1, R-CO-2, R-KP-1)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from taistelukentta.rules import GameState, apply, check_order, company, legal_orders
from taistelukentta.rules.company import tactic_order, transfer_order
from taistelukentta.rules.state import GameState as _GS

from .helpers import company_game


def _replay(seed_choices: list[int]) -> list[GameState]:
    game = company_game(pl2=(36, 9), reds=[("R1", (16, 7)), ("R2", (30, 3))], rounds=3)
    states = [game]
    for pick in seed_choices:
        if game.finished:
            break
        seats = [s for s in game.seats(game.active) if s not in game.done]
        seat = seats[pick % len(seats)]
        orders = legal_orders(game, seat)
        mine = [o for o in orders if o.kind.value in company.KINDS]
        pool = mine if mine and pick % 3 else orders
        order = pool[pick % len(pool)]
        check_order(game, seat, order)
        game, _ = apply(game, seat, order)
        states.append(game)
    return states


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(0, 1000), min_size=5, max_size=60))
def test_r_co_1_r_co_2_random_company_play_keeps_invariants(picks: list[int]) -> None:
    states = _replay(picks)
    for s in states:
        assert all(v >= 0 for v in s.kp.values())
        assert company.company_kp(s) >= 0
        used = s.ext.get("company", {}).get("tactics_used", [])
        turns = [t for t, _ in used]
        assert len(turns) == len(set(turns))  # at most one tactic per turn
        assert sum(1 for _, name in used if name == "motti") <= 1
        transfers = s.ext.get("company", {}).get("transfers", {})
        assert all(isinstance(v, int) for v in transfers.values())
    last = states[-1]
    back = _GS.from_dict(last.to_dict(), last.scenario)
    assert back.state_hash() == last.state_hash()
    assert back.ext == last.ext or back.to_dict() == last.to_dict()


def test_r_co_2_state_with_company_orders_round_trips() -> None:
    game = company_game(reds=[("R1", (16, 7))])
    game, _ = apply(game, "co", transfer_order("pl1"))
    game, _ = apply(game, "co", tactic_order("sitova", seat="pl2"))
    back = _GS.from_dict(game.to_dict(), game.scenario)
    assert back.state_hash() == game.state_hash()
    assert company.view_extras_blue(back) == company.view_extras_blue(game)
