"""The HTTP API over a real server: games, tokens, views, orders, events, WebSocket."""

from __future__ import annotations

import json
from typing import Any

import httpx
from websockets.sync.client import connect

from tests.server.live import Seat, Server, create, seats


def _first_legal(seat: Seat) -> tuple[int, str]:
    r = seat.get("/orders")
    assert r.status_code == 200, r.text
    body = r.json()
    moves = [o for o in body["orders"] if o.startswith("move ")]
    return body["version"], (moves or body["orders"])[0]


def test_create_game_gives_every_seat_a_distinct_token_and_a_commitment(server: Server) -> None:
    created = create(server)
    assert set(created["seats"]) == {"co", "pl1", "pl2", "gm"}
    tokens = [s["token"] for s in created["seats"].values()]
    assert len(set(tokens)) == len(tokens)
    assert all(len(t) >= 22 for t in tokens)  # >= 128 bits in URL-safe base64
    assert len(created["seed_commitment"]) == 64
    for inv in created["seats"].values():
        assert created["id"] in inv["url"] and inv["token"] in inv["url"].split("#", 1)[1]


def test_tokens_401_unknown_404_other_game_403_other_seat(server: Server) -> None:
    a, b = create(server), create(server)
    base = f"{server.base}/api/games/{a['id']}/view"
    assert httpx.get(base).status_code == 401
    assert httpx.get(base, headers={"Authorization": "Bearer x" * 3}).status_code == 401
    other = httpx.get(base, headers={"Authorization": f"Bearer {b['seats']['co']['token']}"})
    assert other.status_code == 404
    missing = httpx.get(
        f"{server.base}/api/games/ffffffff/view",
        headers={"Authorization": f"Bearer {a['seats']['co']['token']}"},
    )
    assert missing.status_code == 404
    assert missing.json() == other.json()  # no hint whether the game exists
    co = seats(server, a)["co"]
    r = co.http.post("/undo")
    assert r.status_code == 403 and r.json()["error"]["code"] == "gm_only"


def test_the_refresh_fast_path_answers_what_the_route_does(server: Server) -> None:
    # A plain GET /view with a known token is answered before FastAPI's routing
    # (server.app.FastView); with a query string it goes through the route.
    s = seats(server, create(server))
    for name in ("co", "gm"):
        seat = s[name]
        assert seat.get("/seat").status_code == 200  # the process knows the token
        fast = seat.http.get("/view")
        routed = seat.http.get("/view", params={"via": "route"})
        assert fast.status_code == routed.status_code == 200
        assert fast.content == routed.content
        assert fast.headers["content-type"] == routed.headers["content-type"]
    co = s["co"]
    other = seats(server, create(server))["co"]
    for bad in ("Bearer nope", f"Basic {co.token}", f"Bearer {co.token} x", "Bearer"):
        fast = httpx.get(f"{co.base}/api/games/{co.game}/view", headers={"Authorization": bad})
        routed = httpx.get(
            f"{co.base}/api/games/{co.game}/view?via=route", headers={"Authorization": bad}
        )
        assert fast.status_code in (401, 403) and fast.status_code == routed.status_code, bad
        assert fast.content == routed.content
    wrong_game = other.http.get(f"{co.base}/api/games/{co.game}/view")
    assert wrong_game.status_code == 404


def test_view_is_the_seats_view_without_seed(server: Server) -> None:
    created = create(server)
    s = seats(server, created)
    for name, seat in s.items():
        body = seat.view()
        assert body["version"] == 0
        view = body["view"]
        assert view["viewer"] == name
        assert view["side"] == (None if name == "gm" else "blue")
        text = json.dumps(view)
        assert '"seed"' not in text and '"roller"' not in text


def test_order_applies_once_and_answers_with_the_seats_copies(server: Server) -> None:
    s = seats(server, create(server))
    co = s["co"]
    version, order = _first_legal(co)
    r = co.order(order, version, key="k-1")
    assert r.status_code == 200, r.text
    first = r.json()
    assert first["version"] == version + 1
    assert any(e["kind"] == "order" for e in first["events"])
    again = co.order(order, version, key="k-1")
    assert again.status_code == 200 and again.json() == first
    assert co.view()["version"] == version + 1  # applied once
    reused = co.order("done", version + 1, key="k-1")
    assert reused.status_code == 422
    assert reused.json()["error"]["code"] == "idempotency_key_reused"


def test_stale_version_409_and_illegal_order_422_change_nothing(server: Server) -> None:
    s = seats(server, create(server))
    co, pl1 = s["co"], s["pl1"]
    version, order = _first_legal(co)
    assert co.order(order, version).status_code == 200
    before = pl1.view()
    stale = pl1.order("done", version)
    assert stale.status_code == 409
    err = stale.json()["error"]
    assert err["version"] == version + 1 and set(err["message"]) == {"fi", "en"}
    for bad in ("move 1R1 99,99", "fly away", "fire NOPE R1"):
        r = pl1.order(bad, version + 1)
        assert r.status_code == 422, r.text
        assert r.json()["error"]["code"] in ("illegal_order", "invalid_order")
    assert pl1.view() == before


def test_events_after_n_and_websocket_resume_without_gaps(server: Server) -> None:
    s = seats(server, create(server))
    co = s["co"]
    with connect(co.ws_url(after=0), open_timeout=30) as ws:
        version, order = _first_legal(co)
        answer = co.order(order, version)
        assert answer.status_code == 200
        assert answer.headers["content-type"] == "application/json"
        raw = ws.recv(timeout=30)
        msg = json.loads(raw)
        assert msg["version"] == version + 1 and msg["events"]
        assert answer.text == raw  # the POST's answer is the seat's message of the change
    v2, order2 = _first_legal(co)
    assert co.order(order2, v2).status_code == 200
    # reconnect from the first version: the change made while away arrives
    with connect(co.ws_url(after=version + 1), open_timeout=30) as ws:
        msg = json.loads(ws.recv(timeout=30))
        assert msg["version"] == v2 + 1
    r = co.get("/events", after=version)
    changes = r.json()["changes"]
    assert [c["version"] for c in changes] == [version + 1, v2 + 1]
    # token in the first message instead of the URL
    url = co.ws_url().split("?", 1)[0]
    with connect(url, open_timeout=30) as ws:
        ws.send(json.dumps({"token": co.token, "after": 0}))
        got = [json.loads(ws.recv(timeout=30))["version"] for _ in range(2)]
        assert got == [version + 1, v2 + 1]
    with connect(url + "?token=nope", open_timeout=30) as ws:
        assert json.loads(ws.recv(timeout=30))["error"]["code"] == "unauthorized"


def test_bad_input_is_4xx_with_a_message_and_changes_nothing(server: Server) -> None:
    created = create(server)
    co = seats(server, created)["co"]
    before = co.view()
    url = "/orders"
    cases: list[dict[str, Any]] = [
        {"content": b"{not json"},
        {"json": {"order": "done"}},
        {"json": {"order": "done", "version": 0, "extra": 1}},
        {"json": {"order": 5, "version": 0}},
        {"json": {"order": "done", "version": 10**40}},
        {"json": {"order": "done", "version": "0"}},
        {"json": {"order": "x" * 5000, "version": 0}},
        {"json": {"order": "\u202e\x00\ud7ff move", "version": 0}},
        {"json": [1, 2, 3]},
    ]
    for case in cases:
        r = co.http.post(url, headers={"content-type": "application/json"}, **case)
        assert 400 <= r.status_code < 500, (case, r.status_code, r.text)
        err = r.json()["error"]
        assert err["message"]["en"] and err["message"]["fi"]
        assert "Traceback" not in r.text
    big = co.http.post(url, content=b"[" + b"1," * 20000 + b"1]")
    assert big.status_code == 413
    assert co.view() == before
    bad_create = httpx.post(
        f"{server.base}/api/games", json={"scenario": "../../etc/passwd"}, timeout=30
    )
    assert bad_create.status_code == 422
    opts = httpx.post(
        f"{server.base}/api/games",
        json={"scenario": "demo", "options": {"no_such_option": 1}},
        timeout=30,
    )
    assert opts.status_code == 422 and "no_such_option" in opts.text
