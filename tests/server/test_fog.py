"""Fog of war through the API: what each seat's token can read.

1. Whole games with random legal orders on both sides: after every order, nothing any Blue
   seat reads (view, legal orders, events) names a Red unit Blue has never SPOTTED, nor
   puts an entry other than a SPOTTED unit's on the cell of a Red unit Blue has not SPOTTED
   now.
2. Non-interference: two servers, the same (test-only fixed) seed, scenarios differing only
   in a Red unit's strength; the same orders on both; every Blue answer is byte-identical
   until Blue first has a contact on that unit.
"""

from __future__ import annotations

import json
import random
import re
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from taistelukentta.content.scenario import scenarios_dir
from tests.server.live import (
    FIXED_SEED,
    LiveServers,
    Seat,
    Server,
    cleanup_db,
    create,
    new_db_url,
    running,
    seats,
)

_TOKEN = re.compile(r"[A-Za-z0-9_\\-]+")
BLUE = ("co", "pl1", "pl2")


def _to_move(gm_view: dict[str, Any]) -> str | None:
    if gm_view["finished"]:
        return None
    if gm_view["active_side"] == "red":
        return "gm"
    return next((s for s in BLUE if s not in gm_view["done"]), None)


def _pick(rng: random.Random, orders: list[str], avoid: str | None = None) -> str:
    choices = [o for o in orders if o != "done" and (avoid is None or avoid not in o.split())]
    if not choices or rng.random() < 0.3:
        return "done"
    return rng.choice(choices)


def _red_truth(gm_view: dict[str, Any]) -> tuple[dict[str, tuple[int, int]], set[str]]:
    """Red units' cells now, and the Red units Blue has SPOTTED now."""
    cells = {u["id"]: tuple(u["cell"]) for u in gm_view["units"] if u.get("side") == "red"}
    spotted = {c["unit"] for c in gm_view["contacts"]["blue"] if c["level"] == "SPOTTED"}
    return cells, spotted


def _ever_spotted(gm_events: list[dict[str, Any]]) -> set[str]:
    out = set()
    for e in gm_events:
        d = e["data"]
        if e["kind"] == "contact" and d.get("side") == "blue" and d.get("level") == "SPOTTED":
            out.add(d["unit"])
    return out


def _unit_entries(view: dict[str, Any]) -> list[dict[str, Any]]:
    contacts = view.get("contacts", [])
    return [*view.get("units", []), *(contacts if isinstance(contacts, list) else [])]


def _check_blue(
    name: str,
    answers: list[str],
    view: dict[str, Any],
    hidden_ids: set[str],
    hidden_cells: set[tuple[int, int]],
    blue_ids: set[str],
    spotted_now: set[str],
) -> None:
    for text in answers:
        leaked = hidden_ids & set(_TOKEN.findall(text))
        assert not leaked, f"{name} reads never-spotted Red unit(s) {leaked}"
    for entry in _unit_entries(view):
        if entry.get("id") in blue_ids or entry.get("side") == "blue":
            continue
        if (entry.get("id") or entry.get("unit")) in spotted_now:
            # a SPOTTED Red unit is shown where it stands, even on the cell of an unspotted
            # one (a cell holds two units, R-GEO-4)
            continue
        cell = entry.get("cell")
        if cell is not None:
            assert tuple(cell) not in hidden_cells, f"{name} sees an unspotted Red cell {cell}"


def _play_checked(server: Server, seed: int, max_orders: int) -> int:
    clients = seats(server, create(server))
    gm = clients["gm"]
    rng = random.Random(seed)
    blue_ids = {u["id"] for u in clients["co"].view()["view"]["units"]}
    after = dict.fromkeys(BLUE, 0)
    given = 0
    while given < max_orders:
        gm_view = gm.view()["view"]
        seat = _to_move(gm_view)
        if seat is None:
            break
        listing = clients[seat].get("/orders").json()
        order = _pick(rng, listing["orders"])
        r = clients[seat].order(order, listing["version"])
        assert r.status_code == 200, r.text
        given += 1
        gm_view = gm.view()["view"]
        cells, spotted_now = _red_truth(gm_view)
        ever = _ever_spotted(
            gm.get("/events", after=0).json()["changes"]
            and [e for c in gm.get("/events", after=0).json()["changes"] for e in c["events"]]
            + [e for e in gm_view["log"]]
        )
        hidden_ids = set(cells) - ever - spotted_now
        hidden_cells = {cells[u] for u in set(cells) - spotted_now}
        for name in BLUE:
            c = clients[name]
            view_r = c.get("/view")
            orders_r = c.get("/orders")
            events_r = c.get("/events", after=after[name])
            after[name] = events_r.json()["version"]
            _check_blue(
                name,
                [view_r.text, orders_r.text, events_r.text],
                view_r.json()["view"],
                hidden_ids,
                hidden_cells,
                blue_ids,
                spotted_now,
            )
    return given


@pytest.mark.slow  # 40 random orders, every Blue answer read after each (the fast tier keeps
# the two-world test below)
def test_blue_never_reads_an_unspotted_red_unit_during_random_orders(server: Server) -> None:
    assert _play_checked(server, seed=1, max_orders=40) == 40


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3])
def test_blue_never_reads_an_unspotted_red_unit_in_whole_games(server: Server, seed: int) -> None:
    given = _play_checked(server, seed=seed, max_orders=2000)
    assert given < 2000  # the game ended


# ------------------------------------------------------------------ non-interference

_FIXED = FIXED_SEED.hex()
_HIDDEN = "R15"


def _variant(folder: Path, strength: int | None, cell: tuple[int, int] = (26, 4)) -> Path:
    text = (scenarios_dir() / "demo.toml").read_text(encoding="utf-8")
    line = '{ id = "R15", card = "motorisoitu_jalkavakiryhma", cell = [26, 4] }'
    assert line in text
    changed = line.replace("[26, 4]", f"[{cell[0]}, {cell[1]}]")
    if strength is not None:
        changed = changed[:-2] + f", strength = {strength} }}"
    text = text.replace(line, changed)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "variant.toml").write_text(text, encoding="utf-8")
    return folder


def _blue_answers(clients: dict[str, Seat]) -> list[str]:
    out = []
    for name in BLUE:
        c = clients[name]
        out += [c.get("/view").text, c.get("/orders").text, c.get("/events", after=0).text]
    return out


# Cells whose line of sight a Blue seat may ask about: R15's two possible cells and cells
# around them, from Blue units' starting cells (terrain only: the same in both worlds).
_LOS = [("5,6", "26,4"), ("9,5", "27,3"), ("26,4", "27,3"), ("20,5", "26,5"), ("3,10", "28,8")]
_PROBES = ["fire 1R1 R15", "attack 1R1 R15", "fire 1R1 R16", "fire NOPE R15", "mvoe 1R1 R15"]
"""Orders naming Red's unit R15 (unseen), a unit that does not exist, a typo: refused with
the same text in both worlds."""


def _extra_channels(clients: dict[str, Seat], legal: dict[str, list[str]], step: int) -> list[str]:
    """Every other answer a Blue seat can read: the map, line of sight, the KP cost of
    (some of) its legal orders, the GM-only side switch and the error texts of orders
    that name Red units — refused, so nothing changes."""
    out = []
    for name in BLUE:
        c = clients[name]
        if step % 5 == 0:
            out.append(c.get("/map").text)
            out.append(c.get("/view-as", side="red").text)
            out.append(c.get("/view-as", side="blue").text)
            for a, b in _LOS:
                out.append(c.get("/los", **{"from": a, "to": b}).text)
        orders = [o for o in legal[name] if o != "done"]
        for order in orders[:: max(1, len(orders) // 2)][:2]:
            out.append(c.get("/cost", order=order).text)
        out.append(c.get("/cost", order="fire 1R1 R15").text)
        version = c.view()["version"]
        for probe in _PROBES:
            r = c.order(probe, version)
            assert r.status_code == 422, (probe, r.text)  # refused in both worlds
            out.append(r.text)
        out.append(c.order("done", version + 7).text)  # a stale version
    return out


def _ws_messages(sockets: dict[str, Any], clients: dict[str, Seat]) -> list[str]:
    """The WebSocket messages each Blue seat has been sent since the last call: read until
    the message of the seat's current version (a seat is sent nothing when nothing new
    reached it, so there may be none)."""
    out = []
    for name in BLUE:
        want = clients[name].view()["version"]
        got = sockets[name]["version"]
        while got < want:
            text = sockets[name]["ws"].recv(timeout=30)
            out.append(f"{name}: {text}")
            got = json.loads(text)["version"]
        sockets[name]["version"] = got
    return out


def _contact_on(gm: Seat, unit: str) -> bool:
    view = gm.view()["view"]
    return any(c["unit"] == unit for c in view["contacts"]["blue"])


def _compare_worlds(kind: str, tmp_path: Path, steps: int) -> int:
    """Two servers of their own (``kind``: sqlite or postgres) for :func:`_compare_on`."""
    env = {"TK20_TEST_FIXED_SEED": _FIXED}
    urls = [new_db_url(kind, tmp_path), new_db_url(kind, tmp_path)]
    dirs = [tmp_path / "a", tmp_path / "b"]
    for d in dirs:
        d.mkdir()
    try:
        with (
            running(urls[0], tmp_path / "a.log", ("--scenarios", str(dirs[0])), env) as sa,
            running(urls[1], tmp_path / "b.log", ("--scenarios", str(dirs[1])), env) as sb,
        ):
            return _compare_on((sa, sb), (dirs[0], dirs[1]), steps)
    finally:
        for url in urls:
            cleanup_db(url)


def _compare_on(servers: tuple[Server, Server], dirs: tuple[Path, Path], steps: int) -> int:
    """Two servers with the same fixed seed, whose scenario folders ``dirs`` get the
    scenario ``variant`` differing only in Red's R15 (strength and cell), the same orders on
    both: every Blue seat's answers — view, orders, events, map, line of sight, costs, the
    GM-only switch, the error texts of refused orders, its WebSocket messages — are
    byte-identical until Blue first has a contact on R15. The orders compared."""
    sa, sb = servers
    _variant(dirs[0], None)
    _variant(dirs[1], 3, (27, 3))
    games = [seats(sa, create(sa, "variant")), seats(sb, create(sb, "variant"))]
    gm_views = [g["gm"].view()["view"] for g in games]
    truths = [
        next((u["strength"], u["cell"]) for u in v["units"] if u["id"] == _HIDDEN) for v in gm_views
    ]
    assert truths[0][0] != truths[1][0] and truths[0][1] != truths[1][1]
    with ExitStack() as stack:
        sockets = [
            {n: {"ws": stack.enter_context(_ws(g[n])), "version": 0} for n in BLUE} for g in games
        ]
        return _play_compared(games, sockets, steps)


def _ws(seat: Seat) -> Any:
    return connect(seat.ws_url(after=0), open_timeout=30)


def _play_compared(games: list[dict[str, Seat]], sockets: list[dict[str, Any]], steps: int) -> int:
    rng = random.Random(5)
    compared = 0
    for step in range(steps):
        if any(_contact_on(g["gm"], _HIDDEN) for g in games):
            break
        a, b = _blue_answers(games[0]), _blue_answers(games[1])
        assert a == b, "Blue's answers differ while the difference is unseen"
        legal = [{n: g[n].get("/orders").json()["orders"] for n in BLUE} for g in games]
        assert legal[0] == legal[1]
        a, b = (_extra_channels(g, legal[0], step) for g in games)
        assert a == b, "Blue's other answers differ while the difference is unseen"
        a, b = (_ws_messages(s, g) for s, g in zip(sockets, games, strict=True))
        assert a == b, "Blue's WebSocket messages differ while the difference is unseen"
        compared += 1
        seat = _to_move(games[0]["gm"].view()["view"])
        if seat is None:
            break
        lists = [g[seat].get("/orders").json() for g in games]
        if seat == "gm":
            both = [o for o in lists[0]["orders"] if o in set(lists[1]["orders"])]
            order = _pick(rng, both, avoid=_HIDDEN)
        else:
            order = _pick(rng, lists[0]["orders"])
        for g, lst in zip(games, lists, strict=True):
            r = g[seat].order(order, lst["version"])
            assert r.status_code == 200, r.text
    for per_world, g in zip(sockets, games, strict=True):
        _ws_messages(per_world, g)  # read up to each seat's version (not compared: the
    time.sleep(0.3)  # last order may have told Blue) — then nothing more, after one
    for per_world in sockets:  # common wait for stragglers (not 0.3 s per socket)
        for entry in per_world.values():
            with pytest.raises(TimeoutError):
                entry["ws"].recv(timeout=0.01)
    return compared


def test_an_unseen_red_detail_leaves_every_blue_channel_byte_identical(
    live_servers: LiveServers,
) -> None:
    """The fast tier: SQLite, the first orders of a game, on the test process's two shared
    fixed-seed servers (``LiveServers.fixed``; every game there has the same seed)."""
    a, b = live_servers.fixed("a", "b")
    dirs = (live_servers.scenarios("fixed-a"), live_servers.scenarios("fixed-b"))
    assert _compare_on((a, b), dirs, 6) >= 6


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_an_unseen_red_detail_leaves_blue_answers_byte_identical(kind: str, tmp_path: Path) -> None:
    assert _compare_worlds(kind, tmp_path, 150) >= 20
