"""The browser table's endpoints over a real server: map, line of sight, order cost,
scenario detail (routes/table.py)."""

from __future__ import annotations

from typing import Any

import httpx

from taistelukentta.content.scenario import load_scenario
from taistelukentta.grid.sight import line_of_sight
from tests.server.live import Server, create, seats


def test_game_map_is_the_engines_map(server: Server) -> None:
    created = create(server)
    pl1 = seats(server, created)["pl1"]
    r = pl1.get("/map")
    assert r.status_code == 200, r.text
    body = r.json()
    game_map = load_scenario("demo").map
    assert (body["width"], body["height"]) == (game_map.width, game_map.height)
    assert body["rows"] == list(game_map.rows)
    assert body["elevation"] == game_map.elevation.tolist()
    assert {ch: tuple(f) for ch, f in body["legend"].items()} == game_map.legend
    assert body["terrain"]["forest"] == {"fi": "Metsä", "en": "Forest"}


def test_map_needs_a_token_of_the_game(server: Server) -> None:
    created = create(server)

    r = httpx.get(f"{server.base}/api/games/{created['id']}/map")
    assert r.status_code == 401


def test_r_ter_4_los_is_the_engines_line_of_sight(server: Server) -> None:
    created = create(server)
    co = seats(server, created)["co"]
    game_map = load_scenario("demo").map
    for a, b in [((3, 10), (18, 4)), ((0, 0), (29, 19)), ((15, 11), (16, 11)), ((5, 5), (5, 5))]:
        r = co.get("/los", **{"from": f"{a[0]},{a[1]}", "to": f"{b[0]},{b[1]}"})
        assert r.status_code == 200, r.text
        want = line_of_sight(game_map, a, b)
        got = r.json()
        assert (got["visible"], got["distance"], got["cover"], got["limited_by"]) == (
            want.visible,
            want.distance,
            want.cover,
            want.limited_by,
        )
        assert got["rule"] == "R-TER-4"


def test_los_bad_cells_are_422_naming_the_parameter(server: Server) -> None:
    created = create(server)
    co = seats(server, created)["co"]
    for params, name in [
        ({"from": "1;2", "to": "3,4"}, "from"),
        ({"from": "1,2", "to": "99,4"}, "to"),
        ({"from": "1,2", "to": "-1,4"}, "to"),
    ]:
        r = co.get("/los", **params)
        assert r.status_code == 422, r.text
        assert name in r.json()["error"]["message"]["en"]


def test_r_kp_4_cost_of_legal_orders_and_nothing_changes(server: Server) -> None:
    created = create(server)
    co = seats(server, created)["co"]
    before = co.view()
    legal = co.get("/orders").json()["orders"]
    move = next(o for o in legal if o.startswith("move "))
    recon = next(o for o in legal if o.startswith("recon "))
    assert co.get("/cost", order=move).json() == {"order": move, "kp": 0}
    assert co.get("/cost", order=recon).json() == {"order": recon, "kp": 1}
    assert co.get("/cost", order="done").json()["kp"] == 0
    assert co.view() == before  # a cost asks, it gives no order


def test_cost_of_an_order_not_legal_is_422(server: Server) -> None:
    created = create(server)
    pl1 = seats(server, created)["pl1"]
    for text in ["move KP 0,0", "move 1R1 999,999", "fire 1R1 R1", "nonsense"]:
        r = pl1.get("/cost", order=text)
        assert r.status_code == 422, r.text
        assert r.json()["error"]["code"] in ("not_legal", "invalid_order")


def test_scenario_detail_for_the_lobby(server: Server) -> None:

    r = httpx.get(f"{server.base}/api/scenarios/terasvalli")
    assert r.status_code == 200, r.text
    body = r.json()
    scenario = load_scenario("terasvalli")
    assert body["rounds"] == scenario.rounds
    assert body["briefing"]["fi"] == scenario.briefing.fi
    assert body["map"]["rows"] == list(scenario.map.rows)
    assert "gm" in body["seats"]
    missing = httpx.get(f"{server.base}/api/scenarios/nope")
    assert missing.status_code == 404


def test_view_as_a_side_is_gm_only_and_is_that_sides_view(server: Server) -> None:
    created = create(server)
    s = seats(server, created)
    r = s["gm"].get("/view-as", side="blue")
    assert r.status_code == 200, r.text
    blue = r.json()["view"]
    assert blue["side"] == "blue" and blue["viewer"] == "blue"
    assert not any(u["side"] == "red" for u in blue["units"])  # nothing spotted at the start
    assert s["gm"].get("/view-as", side="red").json()["view"]["side"] == "red"
    assert s["gm"].get("/view-as", side="gm").status_code == 422
    denied = s["co"].get("/view-as", side="red")
    assert denied.status_code == 403 and denied.json()["error"]["code"] == "gm_only"


def test_view_answers_match_their_declared_openapi_models(server: Server) -> None:
    """``/view`` and ``/view-as`` answers validate against the typed view models the
    OpenAPI document declares (SeatView / SideView / GMView; the generated TypeScript
    types are made from the same document), also after orders."""
    import jsonschema

    doc = httpx.get(f"{server.base}/openapi.json", timeout=30).json()
    schemas = doc["components"]["schemas"]
    view_out = schemas["ViewOut"]
    assert {r["$ref"].rsplit("/", 1)[1] for r in view_out["properties"]["view"]["anyOf"]} == {
        "SeatView",
        "SideView",
        "GMView",
    }

    def check(answer: dict[str, Any], model: str) -> None:
        root = {"components": doc["components"], "$ref": f"#/components/schemas/{model}"}
        jsonschema.validate(answer["view"], root)
        jsonschema.validate(answer, {"components": doc["components"], **view_out})

    clients = seats(server, create(server))
    for _ in range(3):
        for name, model in (("co", "SeatView"), ("pl1", "SeatView"), ("gm", "GMView")):
            check(clients[name].view(), model)
        for side in ("blue", "red"):
            r = clients["gm"].get("/view-as", side=side)
            assert r.status_code == 200, r.text
            check(r.json(), "SideView")
        body = clients["co"].get("/orders").json()
        move = next((o for o in body["orders"] if o.startswith("move ")), "done")
        assert clients["co"].order(move, body["version"]).status_code == 200
