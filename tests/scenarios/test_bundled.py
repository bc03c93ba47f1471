"""The bundled scenarios load, validate and look like real terrain and a playable set-up."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from taistelukentta.content.loader import data_path
from taistelukentta.content.scenario import (
    Scenario,
    bundled_ids,
    bundled_scenarios,
    load_scenario,
    load_scenario_file,
)
from taistelukentta.errors import ArgumentError
from taistelukentta.grid import GameMap, chebyshev, neighbours8, reachable

BUNDLED = ("demo", "terasvalli")


@pytest.fixture(scope="module", params=BUNDLED)
def scenario(request: pytest.FixtureRequest) -> Scenario:
    return load_scenario(request.param)


def test_bundled_list_has_both_with_titles() -> None:
    infos = {info.id: info for info in bundled_scenarios()}
    assert set(BUNDLED) <= set(infos)
    assert infos["terasvalli"].title.fi == "Operaatio Teräsvalli"
    assert infos["demo"].title.en == "Clash at Myllykylä"
    assert bundled_ids() == sorted(infos)
    for info in infos.values():
        assert Path(info.path).is_file()


def test_unknown_scenario_names_the_bundled_ids() -> None:
    with pytest.raises(ArgumentError) as info:
        load_scenario("no-such-scenario")
    for sid in BUNDLED:
        assert sid in str(info.value)
        assert sid in info.value.message("fi")


def test_bundled_file_by_path_equals_by_id() -> None:
    by_path = load_scenario_file(data_path("scenarios", "demo.toml"))
    assert by_path.id == "demo"
    assert [u.id for *_, u in by_path.placements()] == [
        u.id for *_, u in load_scenario("demo").placements()
    ]


def test_bundled_scenario_is_consistent(scenario: Scenario) -> None:
    """What the validator checks, re-checked here independently of it."""
    m = scenario.map
    seen = [u.id for *_, u in scenario.placements()]
    assert len(seen) == len(set(seen))
    per_cell: Counter[tuple[int, int]] = Counter()
    sides: dict[tuple[int, int], set[str]] = {}
    for side, _, unit in scenario.placements():
        assert m.in_bounds(unit.cell) and m.move_cost_at(unit.cell) is not None, unit
        assert scenario.cards[unit.card].side == side
        per_cell[unit.cell] += 1
        sides.setdefault(unit.cell, set()).add(side)
    assert max(per_cell.values()) <= scenario.options.stacking_limit
    assert all(len(s) == 1 for s in sides.values())
    seats = [s.id for s in scenario.blue.seats]
    assert seats[0] == "co" and seats[1:] == [f"pl{i}" for i in range(1, len(seats))]
    for seat in scenario.blue.seats:
        assert seat.units and seat.leader in {u.id for u in seat.units}
        assert scenario.cards[scenario.unit(seat.leader).card].role == seat.role
    for group in scenario.red.battle_groups:
        assert group.units
    for obj in scenario.objectives:
        assert all(m.in_bounds(c) and m.move_cost_at(c) is not None for c in obj.cells)
    for field in scenario.secrets.minefields:
        assert all(m.in_bounds(c) for c in field.cells)
    assert scenario.title.fi and scenario.title.en and scenario.title.fi != scenario.title.en
    assert len(scenario.briefing.fi) > 200 and len(scenario.briefing.en) > 200


def test_scenario_lookups(scenario: Scenario) -> None:
    for side, group, unit in scenario.placements():
        assert scenario.unit(unit.id) is unit
        assert scenario.side_of(unit.id) == side
        assert scenario.group_of(unit.id) == group
        assert scenario.card_of(unit.id).id == unit.card
    assert scenario.seat("co").role == "company_commander"
    assert scenario.battle_group("bg1").units
    with pytest.raises(KeyError):
        scenario.unit("nobody")


def test_r_turn_2_rounds_and_victory() -> None:
    """R-TURN-2: the scenario sets the rounds and the victory conditions."""
    demo = load_scenario("demo")
    assert demo.rounds == 6 and demo.first_side == "blue"
    assert [o.id for o in demo.objectives] == ["risteys", "kotkanmaki"]
    assert [o.vp for o in demo.objectives] == [3, 2]
    assert demo.victory.destroyed_enemy_vp == 1 and demo.victory.own_loss_vp == -1
    tv = load_scenario("terasvalli")
    assert tv.rounds == 10
    assert len(tv.objectives) == 3
    assert {o.holder_at_start for o in tv.objectives} == {"red"}


def _units(scenario: Scenario, side: str) -> list[tuple[str, tuple[int, int]]]:
    return [(u.card, u.cell) for s, _, u in scenario.placements() if s == side]


def test_demo_size_and_forces() -> None:
    demo = load_scenario("demo")
    assert (demo.map.width, demo.map.height) == (30, 20)
    assert [s.id for s in demo.blue.seats] == ["co", "pl1", "pl2"]
    for seat in demo.blue.seats[1:]:
        cards = [u.card for u in seat.units]
        assert cards.count("joukkueenjohtaja") == 1
        assert 2 <= cards.count("jaakariryhma") <= 3
    assert len(demo.red.battle_groups) == 1
    red = Counter(card for card, _ in _units(demo, "red"))
    assert red == {"motorisoitu_jalkavakiryhma": 3, "bmp2": 1, "komentoyksikko": 1}
    assert len(demo.secrets.minefields) == 1
    assert demo.secrets.organic_rounds == {"KRH": 4}
    assert demo.card_of("KRH").has_ability("organic_fire_support")


def test_demo_forces_meet_within_three_turns() -> None:
    """Not in sight at the start (> 10 cells) but a squad closes in ≤ 3 of its moves."""
    demo = load_scenario("demo")
    gap = min(chebyshev(b, r) for _, b in _units(demo, "blue") for _, r in _units(demo, "red"))
    squad = demo.cards["jaakariryhma"].stats.movement
    assert 10 < gap <= 3 * squad


def test_terasvalli_company_and_secrets() -> None:
    tv = load_scenario("terasvalli")
    assert (tv.map.width, tv.map.height) == (60, 40)
    assert [s.id for s in tv.blue.seats] == ["co", "pl1", "pl2", "pl3"]
    blue = Counter(card for card, _ in _units(tv, "blue"))
    assert blue["jaakariryhma"] == 9 and blue["joukkueenjohtaja"] == 3
    for support in (
        "kranaatinheitinryhma",
        "pioneeriryhma",
        "panssarintorjuntaryhma",
        "sissijaakarit",
        "cv9030",
        "komppanianpaallikko",
    ):
        assert blue[support] >= 1, support
    red = Counter(card for card, _ in _units(tv, "red"))
    assert red["t72"] == 1 and red["bmp2"] >= 2 and red["kranaatinheitinjaos"] == 1
    assert red["motorisoitu_jalkavakiryhma"] >= 6 and red["komentoyksikko"] >= 2
    assert 2 <= len(tv.red.battle_groups) <= 3
    sec = tv.secrets
    assert {f.type for f in sec.minefields} == {"AP", "AT"}
    assert {f.shape for f in sec.minefields} >= {"box", "strip"}
    assert sec.organic_rounds["KRH"] > 0
    assert sec.notes is not None and "tarkka-ampuja" in sec.notes.fi
    assert "sniper" in sec.notes.en


def test_r_off_1_terasvalli_grants_five_off_board_requests() -> None:
    """R-OFF-1: off-board support only if the scenario grants it; Teräsvalli: 5 requests."""
    fire = load_scenario("terasvalli").secrets.fire_support
    assert fire.off_board_requests == 5
    assert set(fire.weapons) == {"k9", "mlrs"}
    assert load_scenario("demo").secrets.fire_support.off_board_requests == 0


# --------------------------------------------------------------------- the maps look real


def _component(
    m: GameMap, start: tuple[int, int], ok: set[tuple[int, int]]
) -> set[tuple[int, int]]:
    seen = {start}
    todo = [start]
    while todo:
        cell = todo.pop()
        for n in neighbours8(cell):
            if n in ok and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def _cells(m: GameMap) -> list[tuple[int, int]]:
    return [(x, y) for y in range(m.height) for x in range(m.width)]


def test_roads_form_one_network(scenario: Scenario) -> None:
    m = scenario.map
    roads = {c for c in _cells(m) if "road" in m.features_at(c)}
    assert len(roads) >= m.width
    assert _component(m, next(iter(roads)), roads) == roads
    # the road reaches at least two map edges: it comes from somewhere and goes somewhere
    edges = {
        side
        for x, y in roads
        for side, hit in (
            ("w", x == 0),
            ("e", x == m.width - 1),
            ("n", y == 0),
            ("s", y == m.height - 1),
        )
        if hit
    }
    assert len(edges) >= 2


def test_terrain_mix_and_relief(scenario: Scenario) -> None:
    m = scenario.map
    counts = Counter(f for c in _cells(m) for f in m.features_at(c))
    total = m.width * m.height
    for feature in ("road", "field", "forest", "swamp", "building", "thicket"):
        assert counts[feature] > 0, feature
    assert 0.15 < counts["forest"] / total < 0.6
    co = scenario.unit(scenario.seat("co").leader or "").cell
    assert int(m.elevation.max()) - m.elevation_at(co) >= 4  # high ground matters (R-TER-5)


def test_forests_come_in_patches(scenario: Scenario) -> None:
    """Most forest cells have several forest neighbours: woods, not noise."""
    m = scenario.map
    forest = {c for c in _cells(m) if "forest" in m.features_at(c)}
    inner = [c for c in forest if sum(n in forest for n in neighbours8(c)) >= 4]
    assert len(inner) / len(forest) > 0.8


def test_buildings_stand_along_roads(scenario: Scenario) -> None:
    m = scenario.map
    buildings = [c for c in _cells(m) if "building" in m.features_at(c)]
    near_road = [
        c
        for c in buildings
        if any(m.in_bounds(n) and "road" in m.features_at(n) for n in neighbours8(c))
    ]
    assert len(buildings) >= 8
    assert len(near_road) / len(buildings) >= 0.75


def test_objectives_reachable_from_both_sides(scenario: Scenario) -> None:
    m = scenario.map
    blue = scenario.unit(scenario.seat("co").leader or "").cell
    red = scenario.red.battle_groups[0].units[0].cell
    for start in (blue, red):
        costs = reachable(m, start, 10_000.0)
        for obj in scenario.objectives:
            assert all(c in costs for c in obj.cells), (start, obj.id)


def test_terasvalli_village_and_ridge() -> None:
    m = load_scenario("terasvalli").map
    crossroads = (33, 21)
    village = [
        c for c in _cells(m) if "building" in m.features_at(c) and chebyshev(c, crossroads) <= 6
    ]
    assert len(village) >= 20
    ridge = load_scenario("terasvalli").objectives[1]
    assert ridge.id == "rautaharju"
    assert min(m.elevation_at(c) for c in ridge.cells) >= 7
