"""The delay a fire request's odds show before it is ordered (``odds.delay``, the browser's
fire-support menu): organic a fixed ``organic_delay`` turns (R-ORG-1); off-board the range
of the secret delay roll (R-OFF-2), one less with a skilled observer (R-FD-3)."""

from __future__ import annotations

from typing import Any

import pytest

from taistelukentta.rules import new_game
from taistelukentta.rules.fire_support import organic_order, strike_order
from taistelukentta.server.games import scenario_for
from taistelukentta.server.odds import odds_of, strike_delay


def _state(options: dict[str, Any]) -> Any:
    return new_game(scenario_for("demo", options), 7)


def _observer(state: Any) -> str:
    return str(next(u.id for u in state.units.values() if u.side == "blue"))


@pytest.mark.parametrize("turns", [1, 2])
def test_r_org_1_organic_delay_is_the_option(turns: int) -> None:
    state = _state({"organic_delay": turns})
    order = organic_order("KRH", (20, 5), _observer(state))
    assert strike_delay(state, "blue", order) == {
        "min": turns,
        "max": turns,
        "secret": False,
        "skilled": False,
        "rule": "R-ORG-1",
    }


@pytest.mark.parametrize(
    ("options", "span"),
    [
        ({"skilled_observer_skill": 20}, (1, 3)),
        ({"skilled_observer_skill": 20, "off_board_delay": "by_calibre"}, (2, 5)),
        ({"skilled_observer_skill": 1}, (1, 2)),
        ({"skilled_observer_skill": 1, "off_board_delay": "by_calibre"}, (1, 4)),
        ({"skilled_observer_skill": 1, "skilled_observer": "reroll_scatter_die"}, (1, 3)),
    ],
)
def test_r_off_2_off_board_delay_range_and_r_fd_3_skilled_observer(
    options: dict[str, Any], span: tuple[int, int]
) -> None:
    state = _state(options)
    order = strike_order("k9", (20, 5), _observer(state))
    d = strike_delay(state, "blue", order)
    assert (d["min"], d["max"]) == span
    assert d["secret"] is True and d["rule"] == "R-OFF-2"
    assert d["skilled"] == (options["skilled_observer_skill"] == 1 and span != (1, 3))


def test_an_enemy_observer_is_never_skilled_for_the_asking_side() -> None:
    state = _state({"skilled_observer_skill": 1})
    red = next(u.id for u in state.units.values() if u.side == "red")
    assert strike_delay(state, "blue", strike_order("k9", (20, 5), red))["skilled"] is False


def test_the_odds_of_a_fire_request_carry_the_delay() -> None:
    state = _state({})
    order = organic_order("KRH", (20, 5), _observer(state))
    out = odds_of(state, "blue", order)
    assert out["odds"]["delay"]["rule"] == "R-ORG-1"
