"""Where an off-board strike lands: footprints and scatter (R-OFF-3, R-OFF-4).

Pure geometry shared by the engine (which rolls the dice) and the exact odds calculator
(which enumerates every outcome). A *footprint* is the set of cells an impact area covers.

- K9 howitzer: a 2×2 area; a d4 chooses which corner of it the aimed cell is.
- MLRS: a 4×4 area; a d4 chooses which of its 4 central cells the aimed cell is.
- With only a KNOWN contact (004) the whole area shifts a further d2 cells in a direction
  chosen by a d8 (DEFAULT: 004 names no direction; d8 = the 8 compass directions).

Variants (rule option ``scatter``): ``corner`` (default, as above), ``corner_plus_d2`` (004's
"SPOTTED: scatter 1d2" as a base shift for every strike, plus the KNOWN extra d2), and
``2d4_d8_bullseye`` (000: the aimed cell moves 2d4 cells in a d8 direction, doubles hit the
aimed cell exactly; the corner rule then places the area around the impact cell).
"""

from __future__ import annotations

from dataclasses import dataclass

Cell = tuple[int, int]

#: d8 face → compass direction (dx, dy); y grows downwards (rows top to bottom): 1 = north.
D8_DIRECTIONS: dict[int, tuple[int, int]] = {
    1: (0, -1),
    2: (1, -1),
    3: (1, 0),
    4: (1, 1),
    5: (0, 1),
    6: (-1, 1),
    7: (-1, 0),
    8: (-1, -1),
}


@dataclass(frozen=True)
class StrikeWeapon:
    """An off-board weapon's footprint size and damage by target type."""

    id: str
    size: int
    """Side of the square impact area in cells (K9 2, MLRS 4)."""
    damage_soft: str
    damage_armoured: str
    requests: int
    """How many of the scenario's fire-support requests one strike uses (MLRS 2)."""


WEAPONS: dict[str, StrikeWeapon] = {
    "k9": StrikeWeapon("k9", 2, "3d10", "2d10", 1),
    "mlrs": StrikeWeapon("mlrs", 4, "4d8", "3d8", 2),
}


def footprint(weapon: StrikeWeapon, aimed: Cell, corner: int) -> list[Cell]:
    """The cells covered when the d4 shows ``corner`` (1 top-left … 4 bottom-right).

    For K9 the aimed cell is that corner of the 2×2 area; for MLRS it is that one of the four
    central cells of the 4×4 area. 1 = top-left, 2 = top-right, 3 = bottom-left,
    4 = bottom-right.
    """
    if corner not in (1, 2, 3, 4):
        raise ValueError(f"corner must be 1..4, got {corner}")
    right = 1 if corner in (2, 4) else 0
    bottom = 1 if corner in (3, 4) else 0
    size = weapon.size
    # Offset of the aimed cell from the area's top-left cell: a corner of a 2×2 area, one of
    # the four central cells of a 4×4 area.
    ox = size // 2 - 1 + right
    oy = size // 2 - 1 + bottom
    left, top = aimed[0] - ox, aimed[1] - oy
    return [(left + dx, top + dy) for dy in range(size) for dx in range(size)]


def shift(cells: list[Cell], direction: int, distance: int) -> list[Cell]:
    """Move every cell ``distance`` cells in d8 ``direction``."""
    dx, dy = D8_DIRECTIONS[direction]
    return [(x + dx * distance, y + dy * distance) for x, y in cells]


def adjacent_ring(cells: list[Cell]) -> list[Cell]:
    """The cells next to an area but outside it (morale tests, R-OFF-3)."""
    inside = set(cells)
    ring: set[Cell] = set()
    for x, y in cells:
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                c = (x + dx, y + dy)
                if c not in inside:
                    ring.add(c)
    return sorted(ring, key=lambda c: (c[1], c[0]))
