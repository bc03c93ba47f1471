"""Off-board strike footprints and their exact odds (R-OFF-3, R-OFF-4)."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taistelukentta.odds.strike import SCATTER_MODES, strike_odds
from taistelukentta.rules.strike_geometry import WEAPONS, adjacent_ring, footprint, shift


def test_r_off_4_k9_aimed_cell_is_a_corner() -> None:
    k9 = WEAPONS["k9"]
    assert sorted(footprint(k9, (5, 5), 1)) == [(5, 5), (5, 6), (6, 5), (6, 6)]
    assert sorted(footprint(k9, (5, 5), 4)) == [(4, 4), (4, 5), (5, 4), (5, 5)]
    for corner in (1, 2, 3, 4):
        area = footprint(k9, (5, 5), corner)
        assert (5, 5) in area and len(set(area)) == 4


def test_r_off_4_mlrs_aimed_cell_is_central() -> None:
    mlrs = WEAPONS["mlrs"]
    for corner in (1, 2, 3, 4):
        area = footprint(mlrs, (10, 10), corner)
        xs = sorted({x for x, _ in area})
        ys = sorted({y for _, y in area})
        assert len(area) == 16 and len(xs) == 4 and len(ys) == 4
        assert 10 in xs[1:3] and 10 in ys[1:3]  # one of the four central cells


def test_r_off_4_spotted_always_hits_aimed_cell() -> None:
    for weapon in WEAPONS:
        odds = strike_odds(weapon, "spotted")
        assert odds.p_aimed_hit == 1


def test_r_off_4_known_contact_shifts_the_area() -> None:
    k9 = strike_odds("k9", "known")
    # A shift of 1 or 2 cells in any of 8 directions; the aimed cell is hit only when the
    # shift keeps it inside the 2x2 area: 3/16 exactly.
    assert k9.p_aimed_hit == Fraction(3, 16)
    assert strike_odds("mlrs", "known").p_aimed_hit > k9.p_aimed_hit


def test_r_off_3_damage_by_target_type() -> None:
    odds = strike_odds("k9", "spotted")
    aimed = next(c for c in odds.cells if (c.dx, c.dy) == (0, 0))
    assert aimed.expected_damage_soft == Fraction(33, 2)  # 3d10
    assert aimed.expected_damage_armoured == 11  # 2d10
    mlrs = next(c for c in strike_odds("mlrs", "spotted").cells if (c.dx, c.dy) == (0, 0))
    assert mlrs.expected_damage_soft == 18 and mlrs.expected_damage_armoured == Fraction(27, 2)


def test_r_off_3_morale_test_in_and_next_to_area() -> None:
    odds = strike_odds("k9", "spotted")
    for c in odds.cells:
        assert c.p_morale_test >= c.p_hit
    ring = adjacent_ring(footprint(WEAPONS["k9"], (0, 0), 1))
    assert len(ring) == 12


@pytest.mark.parametrize("scatter", SCATTER_MODES)
@pytest.mark.parametrize("weapon", sorted(WEAPONS))
@pytest.mark.parametrize("contact", ["known", "spotted"])
def test_r_off_4_expected_cells_hit_equals_area(scatter: str, weapon: str, contact: str) -> None:
    odds = strike_odds(weapon, contact, scatter=scatter)
    assert sum(c.p_hit for c in odds.cells) == WEAPONS[weapon].size ** 2
    assert all(0 <= c.p_hit <= 1 and 0 <= c.p_morale_test <= 1 for c in odds.cells)


def _sample(weapon: str, contact: str, scatter: str, rng: random.Random) -> list[tuple[int, int]]:
    w = WEAPONS[weapon]
    area = footprint(w, (0, 0), rng.randint(1, 4))
    distance = 0
    if scatter == "corner_plus_d2":
        distance += rng.randint(1, 2)
    elif scatter == "2d4_d8_bullseye":
        a, b = rng.randint(1, 4), rng.randint(1, 4)
        distance += 0 if a == b else a + b
    if contact == "known":
        distance += rng.randint(1, 2)
    if distance:
        area = shift(area, rng.randint(1, 8), distance)
    return area


@settings(max_examples=6, deadline=None)
@given(
    weapon=st.sampled_from(sorted(WEAPONS)),
    contact=st.sampled_from(["known", "spotted"]),
    scatter=st.sampled_from(SCATTER_MODES),
    seed=st.integers(0, 2**32),
)
def test_r_off_4_exact_odds_agree_with_sampling(
    weapon: str, contact: str, scatter: str, seed: int
) -> None:
    rng = random.Random(seed)
    n = 20_000
    hits: Counter[tuple[int, int]] = Counter()
    for _ in range(n):
        hits.update(_sample(weapon, contact, scatter, rng))
    for c in strike_odds(weapon, contact, scatter=scatter).cells:
        assert abs(hits[(c.dx, c.dy)] / n - float(c.p_hit)) < 0.02


def test_unknown_weapon_is_rejected() -> None:
    with pytest.raises(ValueError, match="k9"):
        strike_odds("howitzer", "known")


def test_r_off_4_cli_strike_json() -> None:
    import json

    from typer.testing import CliRunner

    from taistelukentta.cli.app import app

    result = CliRunner().invoke(
        app, ["odds", "strike", "--weapon", "k9", "--contact", "known", "--json"]
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["aimed_hit"] == pytest.approx(3 / 16)
    assert sum(c["hit"] for c in doc["cells"]) == pytest.approx(4)
    bad = CliRunner().invoke(app, ["odds", "strike", "--weapon", "nuke", "--contact", "known"])
    assert bad.exit_code == 2
    assert "k9" in bad.output
