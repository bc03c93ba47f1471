"""Fog of war through the API: what each seat's token can read.

1. Whole games with random legal orders on both sides: after every order, nothing any Blue
   seat reads (view, legal orders, events) names a Red unit Blue has never SPOTTED, nor
   puts a unit entry on the cell of a Red unit Blue has not SPOTTED now.
2. Non-interference: two servers, the same (test-only fixed) seed, scenarios differing only
   in a Red unit's strength; the same orders on both; every Blue answer is byte-identical
   until Blue first has a contact on that unit.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from taistelukentta.content.scenario import scenarios_dir
from tests.server.live import Seat, Server, cleanup_db, create, new_db_url, running, seats

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
) -> None:
    for text in answers:
        leaked = hidden_ids & set(_TOKEN.findall(text))
        assert not leaked, f"{name} reads never-spotted Red unit(s) {leaked}"
    for entry in _unit_entries(view):
        if entry.get("id") in blue_ids or entry.get("side") == "blue":
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
            )
    return given


def test_blue_never_reads_an_unspotted_red_unit_during_random_orders(server: Server) -> None:
    assert _play_checked(server, seed=1, max_orders=40) == 40


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3])
def test_blue_never_reads_an_unspotted_red_unit_in_whole_games(server: Server, seed: int) -> None:
    given = _play_checked(server, seed=seed, max_orders=2000)
    assert given < 2000  # the game ended


# ------------------------------------------------------------------ non-interference

_FIXED = "7e" * 32
_HIDDEN = "R15"


def _variant(folder: Path, strength: int | None) -> Path:
    text = (scenarios_dir() / "demo.toml").read_text(encoding="utf-8")
    line = '{ id = "R15", card = "motorisoitu_jalkavakiryhma", cell = [26, 4] }'
    assert line in text
    if strength is not None:
        text = text.replace(line, line[:-2] + f", strength = {strength} }}")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "variant.toml").write_text(text, encoding="utf-8")
    return folder


def _blue_answers(clients: dict[str, Seat]) -> list[str]:
    out = []
    for name in BLUE:
        c = clients[name]
        out += [c.get("/view").text, c.get("/orders").text, c.get("/events", after=0).text]
    return out


def _contact_on(gm: Seat, unit: str) -> bool:
    view = gm.view()["view"]
    return any(c["unit"] == unit for c in view["contacts"]["blue"])


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_an_unseen_red_detail_leaves_blue_answers_byte_identical(kind: str, tmp_path: Path) -> None:
    env = {"TK20_TEST_FIXED_SEED": _FIXED}
    urls = [new_db_url(kind, tmp_path), new_db_url(kind, tmp_path)]
    dirs = [_variant(tmp_path / "a", None), _variant(tmp_path / "b", 3)]
    try:
        with (
            running(urls[0], tmp_path / "a.log", ("--scenarios", str(dirs[0])), env) as sa,
            running(urls[1], tmp_path / "b.log", ("--scenarios", str(dirs[1])), env) as sb,
        ):
            games = [seats(sa, create(sa, "variant")), seats(sb, create(sb, "variant"))]
            gm_views = [g["gm"].view()["view"] for g in games]
            strengths = [
                next(u["strength"] for u in v["units"] if u["id"] == _HIDDEN) for v in gm_views
            ]
            assert strengths[0] != strengths[1]  # the games do differ
            rng = random.Random(5)
            compared = 0
            for _ in range(400):
                if any(_contact_on(g["gm"], _HIDDEN) for g in games):
                    break
                a, b = _blue_answers(games[0]), _blue_answers(games[1])
                assert a == b, "Blue's answers differ while the difference is unseen"
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
            assert compared >= 20
    finally:
        for url in urls:
            cleanup_db(url)
