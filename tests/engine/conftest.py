"""Small scenarios built in code, scripted dice and state surgery for the engine tests."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

import pytest

from taistelukentta.content.scenario import Scenario, scenario_from_data
from taistelukentta.dice.roller import Roller
from taistelukentta.dice.scripted import ScriptedRoller
from taistelukentta.rules import context
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.state import Contact, GameState, Side, contact_area

Cell = tuple[int, int]
# (unit id, card id, cell) — Blue units go to seat pl1 unless a 4th item names the seat.
UnitSpec = tuple[Any, ...]


def open_rows(width: int, height: int, char: str = ".") -> list[str]:
    return [char * width for _ in range(height)]


def build(
    rows: Sequence[str],
    blue: Sequence[UnitSpec],
    red: Sequence[UnitSpec],
    **kwargs: Any,
) -> Scenario:
    """A scenario on an inline map (:func:`build_data`, checked and resolved)."""
    return scenario_from_data(build_data(rows, blue, red, **kwargs))


def build_data(
    rows: Sequence[str],
    blue: Sequence[UnitSpec],
    red: Sequence[UnitSpec],
    *,
    rounds: int = 3,
    first_side: str = "blue",
    options: dict[str, Any] | None = None,
    objectives: list[dict[str, Any]] | None = None,
    elevation: Sequence[Sequence[int]] | None = None,
    co_cell: Cell | None = None,
    victory: tuple[int, int] = (1, -1),
) -> dict[str, Any]:
    """The data of a scenario on an inline map. A company-commander unit ``KP`` is added at
    ``co_cell`` (default: bottom-left corner) unless ``blue`` has a unit on seat ``co``."""
    width, height = len(rows[0]), len(rows)
    seats: dict[str, list[dict[str, Any]]] = {}
    for spec in blue:
        uid, card, cell = spec[0], spec[1], spec[2]
        seat = spec[3] if len(spec) > 3 else "pl1"
        seats.setdefault(seat, []).append({"id": uid, "card": card, "cell": list(cell)})
    if "co" not in seats:
        cell = co_cell if co_cell is not None else (0, height - 1)
        seats["co"] = [{"id": "KP", "card": "komppanianpaallikko", "cell": list(cell)}]
    seat_list = []
    for sid in sorted(seats, key=lambda s: (s != "co", s)):
        seat_list.append(
            {
                "id": sid,
                "role": "company_commander" if sid == "co" else "platoon_leader",
                "name": sid,
                "units": seats[sid],
            }
        )
    groups: dict[str, list[dict[str, Any]]] = {}
    for spec in red:
        uid, card, cell = spec[0], spec[1], spec[2]
        group = spec[3] if len(spec) > 3 else "bg1"
        groups.setdefault(group, []).append({"id": uid, "card": card, "cell": list(cell)})
    map_table: dict[str, Any] = {"name": "test", "terrain": "\n".join(rows) + "\n"}
    if elevation is not None:
        map_table["elevation"] = "\n".join(" ".join(str(v) for v in r) for r in elevation)
    data: dict[str, Any] = {
        "id": "t",
        "title": "Test",
        "briefing": "Test.",
        "map": map_table,
        "rounds": rounds,
        "first_side": first_side,
        "options": options or {},
        "victory": {"destroyed_enemy_vp": victory[0], "own_loss_vp": victory[1]},
        "objectives": objectives or [],
        "blue": {"seats": seat_list},
        "red": {
            "battle_groups": [{"id": g, "name": g, "units": us} for g, us in sorted(groups.items())]
        },
    }
    assert width > 0
    return data


def with_unit(state: GameState, uid: str, **changes: Any) -> GameState:
    """A copy of ``state`` with unit ``uid`` changed (test set-up only)."""
    units = dict(state.units)
    units[uid] = replace(units[uid], **changes)
    return replace(state, units=units)


def with_contact(state: GameState, side: Side, uid: str, level: ContactLevel) -> GameState:
    """A copy of ``state`` where ``side`` has a contact of ``level`` on ``uid``."""
    unit = state.units[uid]
    contacts = {s: dict(c) for s, c in state.contacts.items()}
    serial = dict(state.contact_serial)
    serial[side] += 1
    contacts[side][uid] = Contact(
        label=f"c{serial[side]}",
        level=level,
        cell=unit.cell if level == ContactLevel.SPOTTED else None,
        area=contact_area(unit.cell, level),
        card=unit.card if level >= ContactLevel.KNOWN else None,
    )
    return replace(state, contacts=contacts, contact_serial=serial)


def without_contact(state: GameState, side: Side, uid: str) -> GameState:
    contacts = {s: dict(c) for s, c in state.contacts.items()}
    contacts[side].pop(uid, None)
    return replace(state, contacts=contacts)


class Dice:
    """Scripts the engine's dice: ``dice.script(20, 3, …)`` makes the next applies use
    these dice in order (a fresh scripted roller per apply continues the sequence)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.values: list[int] = []
        self.used = 0
        self.monkeypatch = monkeypatch
        outer = self

        class _Seq(ScriptedRoller):
            def _die(self, sides: int) -> int:
                value = super()._die(sides)
                outer.used += 1
                return value

        def factory(state: GameState) -> Roller:
            real = Roller.from_state(state.roller)
            r = _Seq(outer.values[outer.used :], seed=real.seed)
            r._seq = real.rolls_made
            return r

        monkeypatch.setattr(context, "make_roller", factory)

    def script(self, *values: int) -> None:
        self.values = self.values[: self.used] + list(values)

    @property
    def remaining(self) -> list[int]:
        return self.values[self.used :]


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> Iterator[Dice]:
    yield Dice(monkeypatch)
