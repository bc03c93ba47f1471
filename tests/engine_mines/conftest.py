"""Small mined scenarios and scripted dice for the minefield tests."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from taistelukentta.content.scenario import Scenario, scenario_from_data
from taistelukentta.rules import GameState, Order, Phase, apply
from tests.engine.conftest import Dice

Cell = tuple[int, int]


def mined(
    blue: Sequence[tuple[str, str, Cell]],
    red: Sequence[tuple[str, str, Cell]],
    fields: Sequence[dict[str, Any]] = (),
    *,
    width: int = 12,
    height: int = 8,
    options: dict[str, Any] | None = None,
    rounds: int = 4,
) -> Scenario:
    """An open map; Blue units on seat ``pl1`` (plus the company commander far away),
    Red units in ``bg1``; ``fields`` go to ``secrets.minefields`` as written."""
    units = [{"id": u, "card": c, "cell": list(cell)} for u, c, cell in blue]
    data: dict[str, Any] = {
        "id": "mines_test",
        "title": "Mines",
        "briefing": "Test.",
        "map": {"name": "m", "terrain": "\n".join("." * width for _ in range(height)) + "\n"},
        "rounds": rounds,
        "first_side": "blue",
        "options": options or {},
        "victory": {"destroyed_enemy_vp": 1, "own_loss_vp": -1},
        "objectives": [],
        "blue": {
            "seats": [
                {
                    "id": "co",
                    "role": "company_commander",
                    "name": "co",
                    "units": [{"id": "KP", "card": "komppanianpaallikko", "cell": [0, height - 1]}],
                },
                {"id": "pl1", "role": "platoon_leader", "name": "pl1", "units": units},
            ]
        },
        "red": {
            "battle_groups": [
                {
                    "id": "bg1",
                    "name": "bg1",
                    "units": [{"id": u, "card": c, "cell": list(cell)} for u, c, cell in red],
                }
            ]
        },
        "secrets": {"minefields": list(fields)},
    }
    return scenario_from_data(data)


def pass_turn(st: GameState) -> GameState:
    """End every open seat's phases until the active side changes."""
    side = st.active
    while st.active == side and not st.finished:
        seat = next(s for s in st.seats(st.active) if s not in st.done)
        st, _ = apply(st, seat, Order.done())
    return st


def to_fire_phase(st: GameState) -> GameState:
    while st.phase == Phase.COMMAND:
        seat = next(s for s in st.seats(st.active) if s not in st.done)
        st, _ = apply(st, seat, Order.done())
    return st


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> Iterator[Dice]:
    yield Dice(monkeypatch)
