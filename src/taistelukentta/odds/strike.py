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
from functools import lru_cache

from taistelukentta.dice.expr import DiceExpr
from taistelukentta.rules.strike_geometry import (
    D8_DIRECTIONS,
    WEAPONS,
    Cell,
    StrikeWeapon,
    adjacent_ring,
    footprint,
    shift,
)
from taistelukentta.rules.terms import StrikeTerms

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


def _d2_extra(reroll: bool) -> list[tuple[Fraction, int, bool]]:
    """A d2 (probability, value, rerolled): with ``reroll`` a 2 is rolled again."""
    if not reroll:
        return [(Fraction(1, 2), 1, False), (Fraction(1, 2), 2, False)]
    return [(Fraction(1, 2), 1, False), (Fraction(1, 4), 1, True), (Fraction(1, 4), 2, True)]


def _bases(scatter: str, reroll: bool) -> list[tuple[Fraction, int, bool]]:
    """(probability, distance, a die was rerolled) of the base shift, as ``roll_scatter``
    rolls it (R-OFF-4; R-FD-3's reroll of one scatter die)."""
    if scatter == "corner":
        return [(Fraction(1), 0, False)]
    if scatter == "corner_plus_d2":
        return _d2_extra(reroll)
    out: list[tuple[Fraction, int, bool]] = []
    for a in range(1, 5):
        for b in range(1, 5):
            if not reroll or a == b:
                out.append((Fraction(1, 16), 0 if a == b else a + b, False))
                continue
            for new in range(1, 5):  # the higher die rolled again
                x, y = (new, b) if a >= b else (a, new)
                out.append((Fraction(1, 64), 0 if x == y else x + y, True))
    return out


def _shifts(
    contact: str, scatter: str, *, known_shift: bool = True, reroll: bool = False
) -> Iterator[tuple[Fraction, int, int]]:
    """(probability, direction, distance) of the area's extra shift; distance 0 = none."""
    if scatter not in SCATTER_MODES:
        raise ValueError(f"unknown scatter mode {scatter!r}; choose one of {SCATTER_MODES}")
    if contact not in CONTACTS:
        raise ValueError(f"unknown contact level {contact!r}; choose one of {CONTACTS}")
    for pb, db, rerolled in _bases(scatter, reroll):
        extra = [(Fraction(1), 0, False)]
        if contact == "known" and known_shift:
            extra = _d2_extra(reroll and not rerolled)
        for pe, de, _ in extra:
            distance = db + de
            if distance == 0:
                yield pb * pe, 1, 0
                continue
            for direction in D8_DIRECTIONS:
                yield pb * pe / 8, direction, distance


@lru_cache(maxsize=256)
def strike_odds(
    weapon: str | StrikeWeapon,
    contact: str,
    *,
    scatter: str = "corner",
    known_shift: bool = True,
    reroll: bool = False,
) -> StrikeOdds:
    """Exact footprint odds for ``weapon`` (``"k9"`` | ``"mlrs"`` with the rules' own
    figures, or a :class:`StrikeWeapon` — a game's, ``StrikeTerms.weapon_shape()``) aimed
    with a ``contact`` level; ``known_shift`` and ``reroll`` as ``roll_scatter`` takes
    them. :func:`terms_odds` reads them all from a request's terms."""
    if isinstance(weapon, str):
        if weapon not in WEAPONS:
            raise ValueError(f"unknown weapon {weapon!r}; choose one of {sorted(WEAPONS)}")
        w = WEAPONS[weapon]
    else:
        w = weapon
    aimed: Cell = (0, 0)
    p_hit: dict[Cell, Fraction] = defaultdict(Fraction)
    p_test: dict[Cell, Fraction] = defaultdict(Fraction)
    for corner in (1, 2, 3, 4):
        area0 = footprint(w, aimed, corner)
        for p, direction, distance in _shifts(
            contact, scatter, known_shift=known_shift, reroll=reroll
        ):
            area = shift(area0, direction, distance) if distance else area0
            pc = p / 4
            for c in area:
                p_hit[c] += pc
                p_test[c] += pc
            for c in adjacent_ring(area):
                p_test[c] += pc
    soft, armoured = DiceExpr.parse(w.damage_soft).mean, DiceExpr.parse(w.damage_armoured).mean
    cells = tuple(
        CellOdds(c[0], c[1], p_hit[c], p_test[c], p_hit[c] * soft, p_hit[c] * armoured)
        for c in sorted(p_test, key=lambda c: (c[1], c[0]))
    )
    return StrikeOdds(w.id, contact, scatter, cells, p_hit[aimed])


def terms_odds(terms: StrikeTerms) -> StrikeOdds:
    """The exact footprint odds of an off-board request with ``terms``
    (``rules.terms.strike_terms``: the game's weapon figures, scatter mode, KNOWN shift and
    the skilled observer's reroll) — what resolution rolls."""
    if terms.kind != "off_board":
        raise ValueError("organic fire does not scatter: its area is certain")
    return strike_odds(terms.weapon_shape(), terms.contact, **terms.scatter_options())
