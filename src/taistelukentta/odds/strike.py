"""Exact odds of an off-board strike's footprint (R-OFF-3, R-OFF-4).

Every outcome of the scatter dice is enumerated with its probability, so the result is
exact: for each cell around the aimed cell, the probability that it lies in the impact area,
the probability that a unit there must test morale (in the area or next to it) and the
expected damage to a soft and to an armoured unit standing there (R-OFF-3 damage; hidden
units and the danger-close d6 are the engine's business).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from taistelukentta.rules.strike_geometry import (
    D8_DIRECTIONS,
    WEAPONS,
    Cell,
    adjacent_ring,
    footprint,
    shift,
)

SCATTER_MODES = ("corner", "corner_plus_d2", "2d4_d8_bullseye")
CONTACTS = ("known", "spotted")


@dataclass(frozen=True)
class CellOdds:
    """Odds for one cell, given relative to the aimed cell."""

    dx: int
    dy: int
    p_hit: Fraction
    p_morale_test: Fraction
    expected_damage_soft: Fraction
    expected_damage_armoured: Fraction


@dataclass(frozen=True)
class StrikeOdds:
    """The whole footprint distribution of one strike."""

    weapon: str
    contact: str
    scatter: str
    cells: tuple[CellOdds, ...]
    p_aimed_hit: Fraction


def _mean(expr: str) -> Fraction:
    count, sides = expr.split("d")
    return Fraction(int(count) * (int(sides) + 1), 2)


def _shifts(contact: str, scatter: str) -> Iterator[tuple[Fraction, int, int]]:
    """(probability, direction, distance) of the area's extra shift; distance 0 = none."""
    if scatter not in SCATTER_MODES:
        raise ValueError(f"unknown scatter mode {scatter!r}; choose one of {SCATTER_MODES}")
    if contact not in CONTACTS:
        raise ValueError(f"unknown contact level {contact!r}; choose one of {CONTACTS}")
    base: list[tuple[Fraction, int]] = []  # (probability, distance) before the KNOWN extra
    if scatter == "corner":
        base = [(Fraction(1), 0)]
    elif scatter == "corner_plus_d2":
        base = [(Fraction(1, 2), 1), (Fraction(1, 2), 2)]
    else:
        for a in range(1, 5):
            for b in range(1, 5):
                base.append((Fraction(1, 16), 0 if a == b else a + b))
    extra = [(Fraction(1), 0)]
    if contact == "known":
        extra = [(Fraction(1, 2), 1), (Fraction(1, 2), 2)]
    for pb, db in base:
        for pe, de in extra:
            distance = db + de
            if distance == 0:
                yield pb * pe, 1, 0
                continue
            for direction in D8_DIRECTIONS:
                yield pb * pe / 8, direction, distance


def strike_odds(weapon: str, contact: str, *, scatter: str = "corner") -> StrikeOdds:
    """Exact footprint odds for ``weapon`` ("k9" | "mlrs") aimed with a ``contact`` level."""
    if weapon not in WEAPONS:
        raise ValueError(f"unknown weapon {weapon!r}; choose one of {sorted(WEAPONS)}")
    w = WEAPONS[weapon]
    aimed: Cell = (0, 0)
    p_hit: dict[Cell, Fraction] = defaultdict(Fraction)
    p_test: dict[Cell, Fraction] = defaultdict(Fraction)
    for corner in (1, 2, 3, 4):
        area0 = footprint(w, aimed, corner)
        for p, direction, distance in _shifts(contact, scatter):
            area = shift(area0, direction, distance) if distance else area0
            pc = p / 4
            for c in area:
                p_hit[c] += pc
                p_test[c] += pc
            for c in adjacent_ring(area):
                p_test[c] += pc
    soft, armoured = _mean(w.damage_soft), _mean(w.damage_armoured)
    cells = tuple(
        CellOdds(c[0], c[1], p_hit[c], p_test[c], p_hit[c] * soft, p_hit[c] * armoured)
        for c in sorted(p_test, key=lambda c: (c[1], c[0]))
    )
    return StrikeOdds(weapon, contact, scatter, cells, p_hit[aimed])
