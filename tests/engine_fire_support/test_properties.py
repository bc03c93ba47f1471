"""Properties of landed strikes with the seeded roller (R-OFF-3, R-FD-5, R-ORG-1)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from taistelukentta.rules import apply
from taistelukentta.rules.engine import new_game
from taistelukentta.rules.events import Event
from taistelukentta.rules.fire_support import strike_order
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.strike_geometry import adjacent_ring

from .conftest import end_command, fs_scenario, until_turn, with_contact

CELLS = [(x, y) for x in range(12, 20) for y in range(7, 14) if (x, y) != (15, 10)]


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    weapon=st.sampled_from(["k9", "mlrs"]),
    level=st.sampled_from([ContactLevel.SPOTTED, ContactLevel.KNOWN]),
    others=st.lists(st.sampled_from(CELLS), min_size=1, max_size=5, unique=True),
    own=st.sampled_from(CELLS),
)
def test_r_off_3_exactly_the_units_in_the_area_are_hit_and_the_ring_tests(
    seed: int, weapon: str, level: ContactLevel, others: list[tuple[int, int]], own: tuple[int, int]
) -> None:
    others = [c for c in others if c != own]
    red = [("R0", "motorisoitu_jalkavakiryhma", (15, 10))]
    red += [
        (f"R{i + 1}", "bmp2" if i % 2 else "motorisoitu_jalkavakiryhma", c)
        for i, c in enumerate(others)
    ]
    blue = [("1R1", "jaakariryhma", (9, 10)), ("1R2", "jaakariryhma", own)]
    sc = fs_scenario(blue=blue, red=red, rounds={}, requests=5, weapons=["k9", "mlrs"])
    state = with_contact(new_game(sc, seed), "blue", "R0", level)
    state, _ = apply(state, "co", strike_order(weapon, (15, 10), "1R1", danger=True))
    events: list[Event] = []
    state = until_turn(state, 7, events)
    if not [e for e in events if e.kind == "strike_landed"]:
        state = end_command(state, events)
    landed = [e for e in events if e.kind == "strike_landed"]
    assert len(landed) == 1
    area = {tuple(c) for c in landed[0].data["cells"]}
    ring = set(adjacent_ring(sorted(area)))
    start = {u.id: u.cell for u in new_game(sc, seed).units.values()}
    inside = {uid for uid, c in start.items() if c in area}
    assert set(landed[0].data["units"]) == inside
    hits = {e.data["unit"]: e.data for e in events if e.kind == "strike_hit"}
    assert set(hits) == inside
    for uid, data in hits.items():
        if uid.startswith("1R"):  # own unit: danger close d6, half damage on 1-2 or nothing
            assert "danger_close" in data
            if data["danger_close"] > 2:
                assert data["amount"] == 0
        else:
            assert "danger_close" not in data and data["amount"] > 0
    near = {uid for uid, c in start.items() if c in ring}
    assert set(landed[0].data["morale"]) == near
