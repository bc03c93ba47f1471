"""Campaigns over real HTTP, on SQLite and PostgreSQL (issue 12)."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from pypdf import PdfReader

from taistelukentta.content.scenario import load_scenario
from tests.server.live import Server

RED_IDS = [p.id for side, _, p in load_scenario("demo").placements() if side == "red"]


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_campaign(server: Server, **body: Any) -> dict[str, Any]:
    r = httpx.post(
        f"{server.base}/api/campaigns", json={"name": "Jääkärit", "scenario": "demo", **body}
    )
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def get(server: Server, cid: str, token: str) -> dict[str, Any]:
    r = httpx.get(f"{server.base}/api/campaigns/{cid}", headers=_auth(token))
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def act(server: Server, cid: str, token: str, action: str, **body: Any) -> httpx.Response:
    return httpx.post(
        f"{server.base}/api/campaigns/{cid}/actions",
        json={"action": action, **body},
        headers=_auth(token),
    )


def test_create_read_permissions_and_bad_input(server: Server, tmp_path: Path) -> None:
    made = new_campaign(server)
    cid, seats = made["id"], made["seats"]
    assert set(seats) == {"gm", "co", "pl1", "pl2"}
    assert seats["pl1"]["url"].endswith(f"#campaign={cid}&token={seats['pl1']['token']}")
    view = get(server, cid, seats["pl1"]["token"])
    names = {u["name"] for u in view["units"]}
    assert {"KP", "1R1", "2PST"} <= names and view["tp"] == 0
    assert not view["may_spend"] and view["seat"] == "pl1"
    r1 = next(u for u in view["units"] if u["name"] == "1R1")
    assert (r1["xp"], r1["strength"], r1["abilities"]) == (0, r1["max_strength"], [])
    # a player cannot spend, nor undo, nor start a battle
    r = act(server, cid, seats["pl1"]["token"], "restore 1R1 1")
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    r = httpx.post(
        f"{server.base}/api/campaigns/{cid}/battles",
        json={"scenario": "demo"},
        headers=_auth(seats["co"]["token"]),
    )
    assert r.status_code == 403
    # another campaign's token: 404; no token: 401
    other = new_campaign(server)
    r = httpx.get(
        f"{server.base}/api/campaigns/{cid}", headers=_auth(other["seats"]["gm"]["token"])
    )
    assert r.status_code == 404
    assert httpx.get(f"{server.base}/api/campaigns/{cid}").status_code == 401
    # bad input: clear 4xx, nothing changed
    gm = seats["gm"]["token"]
    before = get(server, cid, gm)
    for text, status, needle in (
        ("restore 1R1 1", 422, "lost 0 TK"),
        ("buy jaakariryhma 1R9", 422, "costs 15 TP; the company has 0"),
        ("buy t72 X", 422, "cannot be bought"),
        ("sell 1R1", 422, "expected `restore NAME K`"),
        ("ability 1R1 parannettu_sisu", 422, "0 XP"),
    ):
        r = act(server, cid, gm, text)
        assert r.status_code == status and needle in r.json()["error"]["message"]["en"], r.text
    r = act(server, cid, gm, "rename 1R1 Susi", version=before["version"] + 5)
    assert r.status_code == 409
    r = httpx.post(
        f"{server.base}/api/campaigns",
        json={"name": "x", "scenario": "demo", "options": {"campaign_xp_share": "most"}},
    )
    assert r.status_code == 422 and "campaign_xp_share" in r.text
    r = httpx.post(f"{server.base}/api/campaigns", json={"name": "x"})
    assert r.status_code == 422 and "exactly one" in r.text
    assert get(server, cid, gm)["version"] == before["version"]
    # an accepted write; its idempotency key makes a repeat change nothing
    key = {"Idempotency-Key": "k1", **_auth(gm)}
    r = httpx.post(
        f"{server.base}/api/campaigns/{cid}/actions",
        json={"action": "rename 1R1 Susi", "version": before["version"]},
        headers=key,
    )
    assert r.status_code == 200 and r.json()["version"] == before["version"] + 1
    again = httpx.post(
        f"{server.base}/api/campaigns/{cid}/actions",
        json={"action": "rename 1R1 Susi", "version": before["version"]},
        headers=key,
    )
    assert again.status_code == 200 and again.json()["version"] == before["version"] + 1
    # the GM undoes it
    r = httpx.post(f"{server.base}/api/campaigns/{cid}/undo", json={}, headers=_auth(gm))
    assert r.status_code == 200
    assert next(u for u in r.json()["units"] if u["name"] == "1R1")["label"] is None
    r = httpx.post(f"{server.base}/api/campaigns/{cid}/undo", json={}, headers=_auth(gm))
    assert r.status_code == 422 and "nothing to undo" in r.text
    # a battle: a missing slot is refused by name; then one battle at a time
    battles = f"{server.base}/api/campaigns/{cid}/battles"
    r = httpx.post(battles, json={"scenario": "terasvalli"}, headers=_auth(gm))
    assert r.status_code == 422 and "CV (cv9030)" in r.json()["error"]["message"]["en"]
    r = httpx.post(battles, json={"scenario": "nope"}, headers=_auth(gm))
    assert r.status_code == 422 and "unknown scenario" in r.text
    r = httpx.post(battles, json={"scenario": "demo", "leave_out": ["1R2"]}, headers=_auth(gm))
    assert r.status_code == 201, r.text
    game = r.json()["game"]
    assert set(r.json()["seats"]) == {"co", "pl1", "pl2", "gm"}
    view = get(server, cid, seats["pl2"]["token"])
    assert view["battle"] == {"game": game, "scenario": "demo", "left_out": ["1R2"]}
    co_view = httpx.get(
        f"{server.base}/api/games/{game}/view", headers=_auth(r.json()["seats"]["pl1"]["token"])
    ).json()["view"]
    ids = {u["id"] for u in co_view["units"] if u["side"] == "blue"}
    assert "1R1" in ids and "1R2" not in ids
    assert act(server, cid, gm, "rename KP X").status_code == 409
    # the battle's export carries the roster overlay: its replay (sealed, the battle goes
    # on: from the logged dice) needs it
    from taistelukentta.server.verify import replay_sealed

    exported = httpx.get(
        f"{server.base}/api/games/{game}/export", headers=_auth(r.json()["seats"]["gm"]["token"])
    )
    assert exported.status_code == 200 and '"blue_overlay"' in exported.text
    doc = json.loads(exported.text)
    assert doc["format"] == "tk20-sealed-game" and "seed" not in doc
    assert replay_sealed(doc, "battle.json")["ok"]
    assert httpx.post(battles, json={"scenario": "demo"}, headers=_auth(gm)).status_code == 409


def test_roster_file_co_spends_and_exports(server: Server) -> None:
    roster = {
        "tp": 20,
        "seats": ["pl1"],
        "units": [
            {"name": "1R1", "card": "jaakariryhma", "xp": 21, "strength": 4},
            {"name": "KP", "card": "komppanianpaallikko"},
        ],
    }
    made = new_campaign(server, scenario=None, roster=roster, co_spends=True)
    cid, co = made["id"], made["seats"]["co"]["token"]
    assert set(made["seats"]) == {"gm", "co", "pl1"}
    r = act(server, cid, co, "restore 1R1 3", why="täydennys")
    assert r.status_code == 200, r.text
    unit = next(u for u in r.json()["units"] if u["name"] == "1R1")
    assert (unit["strength"], r.json()["tp"]) == (7, 18)  # 3 TK: 2 TP (R-CAMP-4)
    assert unit["tt"] == 2 + 2  # K +2 (card), 21 XP: +2 (R-CAMP-3)
    r = act(server, cid, co, "ability 1R1 kaupunkisissi")
    assert r.status_code == 200
    r = act(server, cid, co, "buy jaakariryhma 1R4")
    assert r.status_code == 200 and r.json()["tp"] == 3
    last = r.json()["history"][-1]
    assert (last["actor"], last["kind"]) == ("co", "buy") and "1R4" in last["what"]
    r = httpx.post(f"{server.base}/api/campaigns/{cid}/undo", json={}, headers=_auth(co))
    assert r.status_code == 403  # only the GM undoes
    csv = httpx.get(f"{server.base}/api/campaigns/{cid}/export?format=csv", headers=_auth(co))
    assert csv.status_code == 200 and csv.headers["content-type"].startswith("text/csv")
    lines = csv.text.splitlines()
    assert lines[0].startswith("name,label,card,xp,tt,strength")
    assert "1R1,,jaakariryhma,21,4,7,10,,kaupunkisissi,0" in lines
    html = httpx.get(f"{server.base}/api/campaigns/{cid}/export?format=html", headers=_auth(co))
    assert html.status_code == 200 and "<table>" in html.text and "1R4" in html.text
    pdf = httpx.get(  # the first PDF of a server process loads matplotlib and its fonts
        f"{server.base}/api/campaigns/{cid}/export?format=pdf", headers=_auth(co), timeout=120
    )
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
    (page,) = PdfReader(io.BytesIO(pdf.content)).pages
    text = page.extract_text()
    assert "Vahvuusluettelo: Jääkärit" in text
    assert {"1R1", "1R4", "kaupunkisissi"} <= set(text.split())
    bad = httpx.get(f"{server.base}/api/campaigns/{cid}/export?format=doc", headers=_auth(co))
    assert bad.status_code == 422
    bad_roster = {"units": [{"name": "1R1", "card": "tankki"}]}
    r = httpx.post(f"{server.base}/api/campaigns", json={"name": "x", "roster": bad_roster})
    assert r.status_code == 422 and "roster.units[0].card" in r.text


def _wait_settled(server: Server, cid: str, token: str, battles: int) -> dict[str, Any]:
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        view = get(server, cid, token)
        if len(view["battles"]) == battles and view["battle"] is None:
            return view
        time.sleep(0.1)
    raise AssertionError("the battle did not end in time")


def _final(server: Server, game: str, gm_token: str) -> dict[str, Any]:
    r = httpx.get(f"{server.base}/api/games/{game}/view", headers=_auth(gm_token))
    assert r.status_code == 200
    view: dict[str, Any] = r.json()["view"]
    return view


def _unfillable_slots(campaign: dict[str, Any]) -> tuple[list[str], bool]:
    """The demo's Blue slots no roster unit can fill (R-CAMP battle overlay: a slot takes the
    unit of its own name, else the first free spare of its card) — the GM leaves them out —
    and whether some seat would be left with no unit at all."""
    units = [(u["name"], u["card"]) for u in campaign["units"]]
    demo = load_scenario("demo").placements()
    slots = [(seat, p.id, p.card) for side, seat, p in demo if side == "blue"]
    used = {slot for _, slot, card in slots if (slot, card) in units}
    out: list[str] = []
    for _, slot, card in slots:
        if slot in used and (slot, card) in units:
            continue
        spare = next((n for n, c in units if c == card and n not in used), None)
        if spare is None:
            out.append(slot)
        else:
            used.add(spare)
    seats: dict[str, list[str]] = {}
    for seat, slot, _ in slots:
        seats.setdefault(seat, []).append(slot)
    return out, any(all(s in out for s in ids) for ids in seats.values())


def _computer_battle(
    server: Server,
    cid: str,
    gm: str,
    reader: str,
    number: int,
    leave_out: list[str] | None = None,
) -> tuple[str, dict[str, Any], dict[str, Any], list[str]]:
    """The campaign's battle ``number``, demo, every seat played by the computer: started by
    the campaign's GM, waited for until the campaign (read with ``reader``'s token) records
    it. Answers the game's id, the campaign's view after it, the game's final GM view and
    the Blue units that fought (survivors and destroyed)."""
    r = httpx.post(
        f"{server.base}/api/campaigns/{cid}/battles",
        json={
            "scenario": "demo",
            "computer": ["co", "pl1", "pl2", "gm"],
            "leave_out": leave_out or [],
        },
        headers=_auth(gm),
    )
    assert r.status_code == 201, r.text
    game, game_gm = r.json()["game"], r.json()["seats"]["gm"]["token"]
    after = _wait_settled(server, cid, reader, number)
    final = _final(server, game, game_gm)
    fought = [u["id"] for u in final["units"] if u["side"] == "blue"]
    fought += list(final["destroyed"]["blue"])
    return game, after, final, fought


def _expected(before: dict[str, Any], final: dict[str, Any], fought: list[str]) -> dict[str, Any]:
    """R-CAMP-1…3 by hand from the battle's end (the GM's view of the game)."""
    over = next(e for e in final["log"] if e["kind"] == "game_over")["data"]
    vp = max(0, over["vp"]["blue"])
    share = vp // len(fought)
    alive = {u["id"]: u for u in final["units"] if u["side"] == "blue"}
    table: dict[str, tuple[int, int]] = {}
    for u in before["units"]:
        if u["name"] not in fought:
            table[u["name"]] = (u["xp"], u["strength"])
        elif u["name"] in alive:
            end = alive[u["name"]]
            damaged = end["strength"] * 100 < 50 * end["max_strength"]
            table[u["name"]] = (u["xp"] + (share // 2 if damaged else share), end["strength"])
    return {"tp": before["tp"] + vp, "units": table, "winner": over["winner"], "vp": over["vp"]}


def _demo_roster_with_spares() -> dict[str, Any]:
    """The demo's Blue units and a spare of each card (spares fill a fallen unit's slot)."""
    blue = [p for side, _, p in load_scenario("demo").placements() if side == "blue"]
    units = [{"name": p.id, "card": p.card} for p in blue]
    cards = sorted({p.card for p in blue})
    units += [{"name": f"S{i}{j}", "card": c} for i, c in enumerate(cards) for j in range(3)]
    return {"units": units, "seats": ["pl1", "pl2"]}


@pytest.mark.slow
def test_three_battle_campaign_by_computer_players(server: Server) -> None:
    made = new_campaign(server, scenario=None, roster=_demo_roster_with_spares())
    cid, gm = made["id"], made["seats"]["gm"]["token"]
    pl1 = made["seats"]["pl1"]["token"]
    played = 0
    for number in (1, 2, 3):
        before = get(server, cid, gm)
        # the GM buys back lost squads while the TP last (spares fill the other slots)
        names = {u["name"] for u in before["units"]}
        for fallen in before["fallen"]:
            name = fallen["name"]
            if fallen["card"] == "jaakariryhma" and before["tp"] >= 15 and name not in names:
                r = act(server, cid, gm, f"buy jaakariryhma {name}")
                assert r.status_code == 200, r.text
                before = r.json()
                names.add(name)
        leave_out, empty_seat = _unfillable_slots(before)
        if empty_seat:  # the dice destroyed a whole seat's units and the TP cannot buy them
            assert number > 1
            break
        game, after, final, fought = _computer_battle(server, cid, gm, pl1, number, leave_out)
        want = _expected(before, final, fought)
        got = {u["name"]: (u["xp"], u["strength"]) for u in after["units"]}
        assert got == want["units"], (number, want)
        assert after["tp"] == want["tp"]
        assert {u["name"] for u in after["fallen"]} >= set(final["destroyed"]["blue"])
        record = after["battles"][-1]
        assert (record["number"], record["game"], record["winner"]) == (
            number,
            game,
            want["winner"],
        )
        assert record["victory_points"] == want["vp"]["blue"]
        assert sorted(record["fought"]) == sorted(fought)
        played = number
        was = {u["name"]: u for u in before["units"]}
        for u in after["units"]:  # R-CAMP-3: TT moves with every full 10 XP
            old = was[u["name"]]
            assert u["tt"] - u["xp"] // 10 == old["tt"] - old["xp"] // 10
        # nothing of Red in the campaign's answers
        text = httpx.get(f"{server.base}/api/campaigns/{cid}", headers=_auth(pl1)).text
        assert not any(f'"{rid}"' in text for rid in RED_IDS)
        assert '"red":' not in text
    assert [b["number"] for b in get(server, cid, gm)["battles"]] == list(range(1, played + 1))


def _individual_expected(
    before: dict[str, Any], final: dict[str, Any], fought: list[str]
) -> dict[str, int]:
    """R-CAMP-2's individual option by hand: each surviving unit's own deeds — enemy units
    it destroyed (credited to the last attacker of each destroyed unit in the GM's log when
    that attack destroyed it: the destroyed event's reason is the attack's kind) ×
    the scenario's VP per enemy destroyed, and an equal part of each objective Blue held at
    the end among the Blue units on it — halved for a DAMAGED unit."""
    demo = load_scenario("demo")
    log = final["log"]
    assert log[0]["kind"] == "game_started"  # the whole log: every attack is seen
    last_attack: dict[str, tuple[str, str]] = {}
    kills: dict[str, int] = {}
    for e in log:
        if e["kind"] == "attack":
            last_attack[e["data"]["target"]] = (e["data"]["attacker"], e["data"]["kind"])
        elif e["kind"] == "destroyed":
            hit = last_attack.pop(e["data"]["unit"], None)
            if hit is not None and hit[1] == e["data"]["reason"]:
                kills[hit[0]] = kills.get(hit[0], 0) + 1
    over = next(e for e in log if e["kind"] == "game_over")["data"]
    holders = over["detail"]["objectives"]
    alive = {u["id"]: u for u in final["units"] if u["side"] == "blue"}
    deeds = {uid: kills.get(uid, 0) * demo.victory.destroyed_enemy_vp for uid in alive}
    for obj in demo.objectives:
        if holders[obj.id] != "blue":
            continue
        cells = {tuple(c) for c in obj.cells}
        on = [uid for uid, u in alive.items() if tuple(u["cell"]) in cells]
        for uid in on:
            deeds[uid] += obj.vp // len(on)
    out: dict[str, int] = {}
    for uid in fought:
        if uid not in alive:
            continue
        u = alive[uid]
        damaged = u["strength"] * 100 < 50 * u["max_strength"]
        out[uid] = deeds[uid] // 2 if damaged else deeds[uid]
    assert {u["name"] for u in before["units"]} >= set(out)
    return out


def test_r_camp_2_individual_xp_through_the_server(server: Server) -> None:
    """The individual XP option (R-CAMP-2) recorded at creation and applied to a battle
    played by computer players over HTTP: each unit's XP is its own deeds, by hand."""
    made = new_campaign(server, options={"campaign_xp_share": "individual"})
    cid, gm = made["id"], made["seats"]["gm"]["token"]
    differs = False
    for number in (1, 2, 3):
        before = get(server, cid, gm)
        assert before["rules"]["campaign_xp_share"] == "individual"
        # the dice are the server's secret ones: a battle may cost units no spare replaces;
        # the GM then leaves their slots out (as the three-battle test does)
        leave_out, empty_seat = _unfillable_slots(before)
        if empty_seat:  # a whole seat's units lost: no further battle can be fought
            assert number > 1
            break
        _game, after, final, fought = _computer_battle(server, cid, gm, gm, number, leave_out)
        want = _individual_expected(before, final, fought)
        record = after["battles"][-1]
        assert record["xp"] == want, (number, record, want)
        was = {u["name"]: u["xp"] for u in before["units"]}
        for u in after["units"]:
            assert u["xp"] == was[u["name"]] + want.get(u["name"], 0)
        vp = max(0, record["victory_points"])
        assert after["tp"] == before["tp"] + vp  # TP still from the company's VP (R-CAMP-1)
        equal = {n: vp // len(fought) for n in want}
        differs = differs or any(want[n] not in (equal[n], equal[n] // 2) for n in want)
        if differs and sum(want.values()) > 0:
            break
    assert differs, "three battles where individual XP happened to equal the equal shares"
