"""The printed map over HTTP and the scenario editor's endpoints (issue 14), against a real
``tk20 serve`` on SQLite and PostgreSQL.

The print is a new channel a side reads: a Blue seat's print (PDF text, SVG text, the page
count header) holds no Red unit id, minefield id or GM marking; the GM's print holds them.
The editor validates with tk20's loader, saves TOML, and publishes a scenario into the
server's folder from which a game then starts."""

from __future__ import annotations

import io
import re
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import httpx
import pytest
from pypdf import PdfReader

from taistelukentta.content.scenario import load_scenario
from tests.server.live import LiveServers, Server, blue_seats_act, create, seats


@pytest.fixture(params=["sqlite", "postgres"])
def editor_server(request: pytest.FixtureRequest, live_servers: LiveServers) -> tuple[Server, Path]:
    """The test process's shared server of each kind and its scenario folder to publish
    into (empty until the publishing test)."""
    kind = str(request.param)
    return live_servers.get(kind), live_servers.scenarios(kind)


def _tokens(text: str) -> set[str]:
    return set(re.findall(r"[\w-]+", text))


def _red_secrets() -> set[str]:
    s = load_scenario("demo")
    return (
        {u.id for g in s.red.battle_groups for u in g.units}
        | {m.id for m in s.secrets.minefields}
        | {"Miinoite", "Minefield", "PELINJOHTAJAN", "MASTER"}
    )


def _svg_words(client: Any, page: int, lang: str = "en") -> set[str]:
    """The words of one page of a seat's print as SVG."""
    svg = client.get("/print", format="svg", page=page, lang=lang)
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg")
    root = ET.fromstring(svg.content)
    return _tokens(
        " ".join("".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text"))
    )


def test_print_of_a_blue_seat_holds_no_red_secret(editor_server: tuple[Server, Path]) -> None:
    server, _ = editor_server
    clients = seats(server, create(server, "demo"))
    secrets = _red_secrets()
    demo = load_scenario("demo")
    # one PDF (the server's dearest print, ~1.5 CPU-s): the co's, read back with its units
    r = clients["co"].get("/print", format="pdf", paper="A4")
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(r.content))
    assert len(reader.pages) == int(r.headers["x-pages"]) == 2
    text = _tokens("\n".join(p.extract_text() for p in reader.pages))
    assert {u.id for seat in demo.blue.seats for u in seat.units} <= text
    assert "VP" in text and not (secrets & text), secrets & text
    # every page of pl1's print as SVG (the same drawing as text; the co's is the PDF's)
    for name in ("pl1",):
        for page in (1, 2):
            words = _svg_words(clients[name], page)
            assert "Blue" in words and not (secrets & words), secrets & words
    gm_text = _svg_words(clients["gm"], 1, "fi") | _svg_words(clients["gm"], 2, "fi")
    assert {"R11", "tiemiinoite"} <= gm_text


def _blue_plays_until(clients: dict[str, Any], turn: int, timeout: float = 240) -> dict[str, Any]:
    """Blue's seats move east (or say done) while the computer plays Red, until round
    ``turn`` with Blue to act (the game then waits: a stable moment); the co's view."""
    import time

    deadline = time.monotonic() + timeout
    blue = [s for s in clients if s != "gm"]
    while time.monotonic() < deadline:
        view: dict[str, Any] = clients["co"].view()["view"]
        assert not view["finished"], "the game ended before the moment the test needs"
        if view["active_side"] != "blue":
            time.sleep(0.05)
            continue
        if view["turn"] >= turn and not view["done"]:
            return view
        blue_seats_act(clients, blue, fight=False)
    raise AssertionError("round not reached in time")


def _fill_at(png: bytes, page_of: tuple[Any, Any], cell: list[int], colour: str) -> int:
    """Pixels of ``colour`` (#rrggbb) in the middle of ``cell`` on a 96-dpi print page."""
    import numpy as np
    from matplotlib.image import imread

    sheet, tile = page_of
    rgb = np.asarray(imread(io.BytesIO(png), format="png")[..., :3] * 255, dtype=float)
    mm = 96 / 25.4
    px = (sheet.map_left + (cell[0] - tile.x0) * 10) * mm
    py = (sheet.map_top + (cell[1] - tile.y0) * 10) * mm
    box = rgb[int(py + 3 * mm) : int(py + 7 * mm), int(px + 2.5 * mm) : int(px + 7.5 * mm)]
    want = np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)])
    return int(np.all(np.abs(box - want) < 6, axis=-1).sum())


@pytest.mark.slow
def test_print_of_a_running_game_shows_each_seat_its_knowledge_now(
    editor_server: tuple[Server, Path],
) -> None:
    """Issue 14: a running game's print is the side's current knowledge (own units where
    they are now with their TK, the enemy as last known), not the set-up; the GM's print
    everything as it stands; a Blue print carries no Red secret."""
    from taistelukentta.mapprint.layout import plan

    server, _ = editor_server
    created = create(server, "demo", computer=["gm"])
    clients = seats(server, created)
    view = _blue_plays_until(clients, 3)
    demo = load_scenario("demo")
    start = {p.id: list(p.cell) for side, _, p in demo.placements() if side == "blue"}
    own = [u for u in view["units"] if u["side"] == "blue"]
    seen = {u["id"] for u in view["units"] if u["side"] == "red"}
    moved = [u for u in own if u["cell"] != start[u["id"]]]
    assert moved, "no Blue unit moved"
    r = clients["co"].get("/print", format="pdf")
    assert r.status_code == 200
    text = _tokens("\n".join(p.extract_text() for p in PdfReader(io.BytesIO(r.content)).pages))
    assert {u["id"] for u in own} <= text
    assert {f"{u['strength']}/{u['max_strength']}" for u in own} <= _tokens_slash(r.content)
    assert "kierros" in text and f"{view['turn']}/{view['rounds']}" in _tokens_slash(r.content)
    known_mines = (view.get("mines") or {}).get("known", [])
    legend = {"Miinoite", "Minefield"}
    assert bool(known_mines) == ("Miinoite" in text)  # the mine cells Blue knows, and only those
    secrets = _red_secrets() - seen - (legend if known_mines else set())
    assert not (secrets & text), secrets & text
    # the page a moved unit is on: its counter where it is now, none where it started
    sheet = plan(demo.map.width, demo.map.height, "A4")
    occupied = [u["cell"] for u in view["units"]]
    for unit in moved[:1]:  # a rendered page costs the server ~0.6 CPU-s
        for cell, here in ((unit["cell"], True), (start[unit["id"]], False)):
            if not here and cell in occupied:
                continue
            tile = next(t for t in sheet.tiles if t.x0 <= cell[0] < t.x1 and t.y0 <= cell[1] < t.y1)
            png = clients["co"].get("/print", format="png", page=tile.index + 1).content
            count = _fill_at(png, (sheet, tile), cell, "#cfe0ff")
            assert (count > 20) if here else (count == 0), (unit, cell, count)
    # the GM's pages as SVG (the same drawing as the PDF above, a third of the CPU)
    gm_text = _svg_words(clients["gm"], 1) | _svg_words(clients["gm"], 2)
    gm_view = clients["gm"].view()["view"]
    assert {u["id"] for u in gm_view["units"]} <= gm_text and "MASTER" in gm_text


def _tokens_slash(pdf: bytes) -> set[str]:
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    return set(re.findall(r"[\w/]+", text))


def test_print_refuses_bad_input_and_strangers(editor_server: tuple[Server, Path]) -> None:
    server, _ = editor_server
    created = create(server, "demo")
    co = seats(server, created)["co"]
    assert co.get("/print", format="svg", page=3).status_code == 422
    assert co.get("/print", paper="A9").status_code == 422
    assert co.get("/print", format="exe").status_code == 422
    r = httpx.get(f"{server.base}/api/games/{created['id']}/print", timeout=30)
    assert r.status_code == 401


def _api(
    server: Server, path: str, body: Any = None, headers: dict[str, str] | None = None
) -> httpx.Response:
    if body is None:
        return httpx.get(server.base + "/api/editor" + path, timeout=60, headers=headers)
    return httpx.post(server.base + "/api/editor" + path, json=body, timeout=60)


def test_editor_round_trip_validate_and_publish(editor_server: tuple[Server, Path]) -> None:
    server, folder = editor_server
    catalog = _api(server, "/catalog").json()
    assert {t["id"] for t in catalog["terrain"]} >= {"forest", "water", "road"}
    assert any(c["side"] == "red" for c in catalog["cards"]) and catalog["publish"] is True
    model = _api(server, "/scenarios/demo").json()
    saved = _api(server, "/toml", model).json()
    original = (Path(load_scenario("demo").source or "")).read_text(encoding="utf-8")
    assert tomllib.loads(saved["toml"]) == tomllib.loads(original) and saved["problems"] == []
    assert _api(server, "/validate", model).json() == {"ok": True, "problems": []}

    # An impossible placement: a Red unit in the cell of a Blue unit.
    bad = {**model, "scenario": {**model["scenario"]}}
    red = bad["scenario"]["red"]["battle_groups"][0]["units"][0]
    red["cell"] = bad["scenario"]["blue"]["seats"][1]["units"][1]["cell"]
    out = _api(server, "/validate", bad).json()
    assert out["ok"] is False
    assert any("both sides" in p["problem"] and p["file"] == "demo.toml" for p in out["problems"])
    refused = _api(
        server,
        "/publish",
        {**bad, "id": "kokeilu", "scenario": {**bad["scenario"], "id": "kokeilu"}},
    )
    assert refused.status_code == 422 and refused.json()["error"]["problems"]
    assert not list(folder.iterdir())

    # Publish an edited copy under a new id; a game starts from it.
    new = _api(server, "/scenarios/demo").json()
    new["scenario"]["id"] = "myllykyla2"
    new["map"]["rows"][0] = "F" * len(new["map"]["rows"][0])
    r = _api(server, "/publish", new)
    assert r.status_code == 201, r.text
    assert (folder / "myllykyla2.toml").is_file()
    assert _api(server, "/publish", new).status_code == 409
    assert (
        _api(server, "/publish", {**new, "scenario": {**new["scenario"], "id": "demo"}}).status_code
        == 409
    )
    game = create(server, "myllykyla2")
    view = seats(server, game)["gm"].get("/map").json()
    assert view["rows"][0] == "F" * view["width"]
    # Its set-up (Red's units, HIDDEN ones, minefields) is the GM's secret: the editor
    # gives it only with the edit key the publishing answered (issue 8).
    key = r.json()["edit_key"]
    assert len(key) >= 32 and key not in (folder / ".myllykyla2.editkey").read_text()
    blue_token = seats(server, game)["co"].token
    for headers in (None, {"X-Edit-Key": "x" * 32}, {"Authorization": f"Bearer {blue_token}"}):
        refused = _api(server, "/scenarios/myllykyla2", headers=headers)
        assert refused.status_code == 403, refused.text
        assert refused.json()["error"]["code"] == "edit_key"
        assert "R1" not in refused.text and "battle_groups" not in refused.text
    again = _api(server, "/scenarios/myllykyla2", headers={"X-Edit-Key": key}).json()
    assert again["map"]["rows"][0] == new["map"]["rows"][0]
    # A file the server's operator put into the folder by hand has no key: never given.
    (folder / "kasin.toml").write_text((folder / "myllykyla2.toml").read_text())
    by_hand = _api(server, "/scenarios/kasin", headers={"X-Edit-Key": key})
    assert by_hand.status_code == 403
    (folder / "kasin.toml").unlink()


def test_editor_bad_input(editor_server: tuple[Server, Path]) -> None:
    server, _ = editor_server
    assert _api(server, "/scenarios/nosuch").status_code == 404
    assert httpx.get(server.base + "/api/editor/empty?width=0", timeout=10).status_code == 422
    empty = _api(server, "/empty?width=8&height=5")
    assert empty.status_code == 200 and len(empty.json()["map"]["rows"]) == 5
    assert _api(server, "/validate", {"id": "x"}).status_code == 422
    broken = empty.json()
    broken["map"]["rows"][2] = "?" * 8
    problems = _api(server, "/validate", broken).json()["problems"]
    assert any("unknown character" in p["problem"] for p in problems)


def test_editor_playtest_gives_balance_figures(editor_server: tuple[Server, Path]) -> None:
    server, _ = editor_server
    model = _api(server, "/empty?width=10&height=6").json()
    refused = _api(server, "/playtest", {"model": model, "games": 1})
    assert refused.status_code == 422 and refused.json()["error"]["problems"]
    seat = model["scenario"]["blue"]["seats"][0]
    seat["units"] = [{"id": "KP", "card": "komppanianpaallikko", "cell": [1, 2]}]
    seat["leader"] = "KP"
    group = model["scenario"]["red"]["battle_groups"][0]
    group["units"] = [{"id": "R1", "card": "komentoyksikko", "cell": [8, 3]}]
    model["scenario"]["rounds"] = 2
    r = _api(server, "/playtest", {"model": model, "games": 2, "seed": 5})
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["games"] == 2 and sum(out["wins"].values()) == 2
    assert out["seeds"] == [5, 6] and 0.0 <= out["blue_win_rate"] <= 1.0
    assert len(out["blue_win_interval"]) == 2 and out["rounds"]["mean"] <= 2
    assert _api(server, "/playtest", {"model": model, "games": 99}).status_code == 422
