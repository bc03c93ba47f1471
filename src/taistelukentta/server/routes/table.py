"""What the browser table needs beside the game endpoints: the map to draw, line of sight
between two cells, an order's KP cost, and the scenarios with their map preview.

Every answer is public or from the asking seat's own knowledge: the map and the line of
sight are the terrain's (both sides have the map); the cost is the seat's own KP an order it
may give now would take (only for an order in its own legal list, so a refusal tells nothing
new).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from taistelukentta.content.scenario import bundled_scenarios
from taistelukentta.errors import TkError
from taistelukentta.grid.gamemap import GameMap
from taistelukentta.grid.sight import line_of_sight
from taistelukentta.rules import GM_SEAT
from taistelukentta.rules.engine import apply
from taistelukentta.rules.orders import parse_order
from taistelukentta.server.deps import GameId, Seat, Store
from taistelukentta.server.games import StoreError, scenario_for
from taistelukentta.server.schemas import ErrorOut, ViewOut
from taistelukentta.server.settings import MAX_ORDER_CHARS
from taistelukentta.server.table_schemas import (
    CostOut,
    LosOut,
    MapOut,
    ScenarioDetailOut,
    TextOut,
    VictoryOut,
)

router = APIRouter(prefix="/api")

_ERR: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorOut, "description": "Missing or unknown token."},
    404: {"model": ErrorOut, "description": "No such game or scenario."},
    422: {"model": ErrorOut, "description": "Bad input."},
}


def map_out(game_map: GameMap) -> MapOut:
    """The map as the client draws it: rows of legend characters, the legend (character ->
    terrain features), heights, and the terrain names."""
    table = game_map.terrain
    used = {f for feats in game_map.legend.values() for f in feats}
    return MapOut(
        name=game_map.name,
        width=game_map.width,
        height=game_map.height,
        rows=list(game_map.rows),
        legend={ch: list(feats) for ch, feats in game_map.legend.items()},
        elevation=[[int(v) for v in row] for row in game_map.elevation.tolist()],
        terrain={f: {"fi": table.get(f).name_fi, "en": table.get(f).name_en} for f in sorted(used)},
    )


@router.get("/scenarios/{scenario_id}", response_model=ScenarioDetailOut, responses=_ERR)
def scenario_detail(scenario_id: str) -> ScenarioDetailOut:
    """A bundled scenario for the lobby: title, briefing, rounds, seats and its map."""
    ids = {info.id for info in bundled_scenarios()}
    if scenario_id not in ids:
        raise StoreError(404, "not_found", "no such scenario", "skenaariota ei ole")
    scenario = scenario_for(scenario_id, {})
    return ScenarioDetailOut(
        id=scenario.id,
        title=TextOut(fi=scenario.title.fi, en=scenario.title.en),
        briefing=TextOut(fi=scenario.briefing.fi, en=scenario.briefing.en),
        rounds=scenario.rounds,
        seats=[s.id for s in scenario.blue.seats] + [GM_SEAT],
        map=map_out(scenario.map),
    )


@router.get("/games/{game_id}/map", response_model=MapOut, responses=_ERR)
def game_map(game_id: GameId, auth: Seat, store: Store) -> MapOut:
    """The game's map (its scenario's, with the game's rule options)."""
    del auth
    with store.reading(game_id) as game:
        scenario = game.state.scenario
        out = map_out(scenario.map)
        out.victory = VictoryOut(
            destroyed_enemy_vp=scenario.victory.destroyed_enemy_vp,
            own_loss_vp=scenario.victory.own_loss_vp,
        )
        return out


def _cell(text: str, what: str) -> tuple[int, int]:
    parts = text.split(",")
    if len(parts) != 2 or not all(p.strip().isdigit() and len(p.strip()) <= 5 for p in parts):
        raise StoreError(
            422, "bad_cell", f"{what}: expected X,Y, got {text!r}", f"{what}: odotettiin X,Y"
        )
    return int(parts[0]), int(parts[1])


@router.get("/games/{game_id}/los", response_model=LosOut, responses=_ERR)
def los(
    game_id: GameId,
    auth: Seat,
    store: Store,
    from_: Annotated[str, Query(alias="from", max_length=16)],
    to: Annotated[str, Query(max_length=16)],
) -> LosOut:
    """Line of sight over the terrain between two cells (R-TER-4): whether it is clear, the
    distance, the target's cover and the terrain that limits it."""
    del auth
    a = _cell(from_, "from")
    b = _cell(to, "to")
    with store.reading(game_id) as game:
        game_map = game.state.scenario.map
        for cell, what in ((a, "from"), (b, "to")):
            if not game_map.in_bounds(cell):
                raise StoreError(
                    422, "bad_cell", f"{what}: {cell} is off the map", f"{what}: ei kartalla"
                )
        sight = line_of_sight(game_map, a, b)
    return LosOut(
        visible=sight.visible,
        distance=sight.distance,
        cover=sight.cover,
        limited_by=sight.limited_by,
        rule="R-TER-4",
    )


@router.get("/games/{game_id}/cost", response_model=CostOut, responses=_ERR)
def cost(
    game_id: GameId,
    auth: Seat,
    store: Store,
    order: Annotated[str, Query(min_length=1, max_length=MAX_ORDER_CHARS)],
) -> CostOut:
    """The KP the seat's own pool would pay for ``order``, one of its legal orders now
    (worked out by the engine on a copy of the game; nothing is stored)."""
    with store.reading(game_id) as game:
        state = game.state
        try:
            parsed = parse_order(order)
        except TkError as exc:
            raise StoreError(422, "invalid_order", exc.message("en"), exc.message("fi")) from None
        if auth.seat in game.computer or str(parsed) not in game.legal(auth.seat):
            raise StoreError(
                422,
                "not_legal",
                "not one of the seat's legal orders now",
                "ei paikan laillinen käsky nyt",
            )
        before = state.kp.get(auth.seat, 0)
        after, _ = apply(state, auth.seat, parsed)
        # Only what this seat pays: a `done` that starts a new turn refills the pools.
        spent = before - after.kp.get(auth.seat, 0) if after.turn_no == state.turn_no else 0
        return CostOut(order=str(parsed), kp=max(0, spent))


@router.get("/games/{game_id}/view-as", response_model=ViewOut, responses=_ERR)
def view_as(
    game_id: GameId,
    auth: Seat,
    store: Store,
    side: Annotated[str, Query(pattern="^(blue|red)$")],
) -> ViewOut:
    """GM only: what one side sees now (the GM table's side switch, to check the fog)."""
    if auth.seat != GM_SEAT:
        raise StoreError(403, "gm_only", "only the GM may do this", "vain pelinjohtaja voi")
    with store.reading(game_id) as game:
        return ViewOut(version=game.seat_version(auth.seat), view=game.view(side))
