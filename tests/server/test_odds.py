"""``GET /odds`` over a real server: an attack's terms are the ones resolution uses
(``rules.terms.attack_terms``), each with its rule ID, from the seat's own knowledge."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from taistelukentta.content.scenario import load_scenario
from taistelukentta.rules import apply, new_game, parse_order
from taistelukentta.server.odds import term_out
from taistelukentta.views import attack_estimate
from tests.server.live import FIXED_SEED, LiveServers, Seat, create, seats


def _game_with_a_target(clients: dict[str, Seat]) -> tuple[Seat, str]:
    """The test plays Blue's seats (the computer plays Red): pl1 moves its units east each
    turn until it may fire at or attack a SPOTTED enemy (fire preferred: when only attacks
    are open, pl1 holds still for a turn first), co and pl2 say ``done``; (pl1, that
    order).

    No other seat acts while pl1 holds the answer: the odds, the GM's export and pl1's fire
    order see the same state (with a computer pl2 or co, their orders could fall between
    the ``/odds`` answer and the export or make the fire order's version stale)."""
    pl1 = clients["pl1"]
    moves_in: dict[int, int] = {}
    held = False
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        for other in ("co", "pl2"):
            theirs = clients[other].get("/orders").json()
            if "done" in theirs["orders"]:
                r = clients[other].order("done", theirs["version"])
                assert r.status_code == 200, r.text
        body = pl1.get("/orders").json()
        hits = [o for o in body["orders"] if re.match(r"^(fire|attack) \S+ \S+$", o)]
        hits.sort(key=lambda o: not o.startswith("fire"))
        if hits and (hits[0].startswith("fire ") or held):
            return pl1, hits[0]
        if hits and not held:
            # only attacks (its units have moved this turn): hold still for the rest of the
            # turn so that next turn a unit that has not moved may fire (R-KP-3)
            held = True
            r = pl1.order("done", body["version"])
            assert r.status_code == 200, r.text
            continue
        if not body["orders"]:
            assert not pl1.view()["view"]["finished"], "the game ended with no target in sight"
            time.sleep(0.05)
            continue
        turn = pl1.view()["view"]["turn_no"]
        moves = [o for o in body["orders"] if o.startswith("move ")]
        order = "done"
        if moves and moves_in.get(turn, 0) < 3:  # every unit east, one move each a turn
            order = max(moves, key=lambda o: int(o.rsplit(" ", 1)[1].split(",")[0]))
            moves_in[turn] = moves_in.get(turn, 0) + 1
        r = pl1.order(order, body["version"])
        assert r.status_code == 200, r.text
    raise AssertionError("no target came into sight in time")


def test_r_atk_2_odds_terms_are_the_resolution_terms_with_rule_ids(
    live_servers: LiveServers,
) -> None:
    # a server whose games all have one seed (shared with the server's fog test): the
    # test's game is the same every run, and its state can be replayed from that seed
    (server,) = live_servers.fixed("a")
    game = create(server, computer=["gm"])
    clients = seats(server, game)
    pl1, order = _game_with_a_target(clients)
    answer = pl1.get("/odds", order=order)
    assert answer.status_code == 200, answer.text
    odds = answer.json()
    # the server's answer is the engine's estimate, term for term
    # the game's state: its orders replayed from the (test-only) fixed seed — the
    # GM's export before the end is sealed (no seed)
    doc = json.loads(clients["gm"].get("/export").text)
    assert doc["format"] == "tk20-sealed-game"
    state = new_game(load_scenario("demo"), FIXED_SEED)
    for o in doc["orders"]:
        state, _ = apply(state, o["seat"], parse_order(o["order"]))
    _kind, unit, target = order.split()
    est = attack_estimate(state, "blue", unit, target)
    assert odds["terms"] == [term_out(t) for t in est.terms]
    bonus = [t for t in odds["terms"] if t["kind"] == "bonus"]
    defence = [t for t in odds["terms"] if t["kind"] == "defence"]
    assert sum(t["value"] for t in bonus) == odds["odds"]["bonus"]
    assert sum(t["value"] for t in defence) == odds["odds"]["defence"]
    assert all(re.fullmatch(r"R-[A-Z]+-\d+", t["rule"]) for t in odds["terms"])
    if not order.startswith("fire "):
        return  # an attack order is carried out later, from where the unit is then
    # ... and the roll of direct fire (at once) uses the same terms (the GM's copy)
    gm_before = clients["gm"].get("/events").json()["version"]
    r = pl1.order(order, odds["version"])
    assert r.status_code == 200, r.text
    changes = clients["gm"].get("/events", after=gm_before).json()["changes"]
    kinds = [e["kind"] for c in changes for e in c["events"]]
    assert "attack" in kinds, (order, kinds)
    attack: dict[str, Any] = next(
        e["data"] for c in changes for e in c["events"] if e["kind"] == "attack"
    )
    assert attack["modifiers"] == {t["name"]: t["value"] for t in bonus}
    assert attack["bonus"] == odds["odds"]["bonus"]
    assert attack["defence"] == odds["odds"]["defence"]
    shown_dis = [t["name"] for t in odds["terms"] if t["kind"] == "disadvantage"]
    assert attack["disadvantage_reasons"] == shown_dis
    shown_adv = [t["name"] for t in odds["terms"] if t["kind"] == "advantage"]
    # R-ATK-6: the target's confusion is the only term Blue cannot know
    assert [r for r in attack["advantage_reasons"] if r != "confused"] == shown_adv
