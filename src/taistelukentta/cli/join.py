"""``tk20 join URL``: play one seat of a server game from the terminal.

The screen is ``tk20 play``'s (the same map, unit and contact tables, event lines, prompt
with completion and odds before an attack), fed by the server: the seat's view, its legal
orders and the odds come from the API; orders go back with the seat's version and an
Idempotency-Key; while other seats act the client waits on the game's WebSocket and prints
what its seat may see. Nothing is computed locally but the drawing (the bundled scenario's
map; the server's own scenarios are drawn without terrain).
"""

from __future__ import annotations

import json
import re
import uuid
from typing import Any
from urllib.parse import urlsplit

import httpx

from taistelukentta.cli.game_cmds import (
    _YES,
    _draw_view,
    _event_lines,
    _help_text,
    _phase_text,
    _reader,
    _say,
)
from taistelukentta.content.scenario import Scenario, bundled_ids, load_scenario
from taistelukentta.errors import ArgumentError
from taistelukentta.i18n import ATTACK_TERMS, catalogue, term, tr
from taistelukentta.i18n import pct as percent
from taistelukentta.views.models import AnyView, GMView, SeatView, SideView

_GAME = re.compile(r"(?:game=|/api/games/)([0-9a-f]{1,32})")
_TOKEN = re.compile(r"token=([A-Za-z0-9_\-]+)")
_ODDS_WORDS = ("attack", "fire", "strike", "organic", "hyökkää", "tuli", "isku")


def parse_target(url: str, token: str | None, game: str | None) -> tuple[str, str, str]:
    """``(base URL, game id, token)`` from an invite link (``…/#game=ID&token=T``) or a
    server URL with ``--game`` / ``--token``. ArgumentError if something is missing."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ArgumentError(
            f"not a server URL: {url!r} (http://HOST:PORT/… or an invite link)",
            f"ei palvelimen osoite: {url!r} (http://HOST:PORTTI/… tai kutsulinkki)",
        )
    base = f"{parts.scheme}://{parts.netloc}"
    found_game = _GAME.search(url)
    found_token = _TOKEN.search(parts.fragment) or _TOKEN.search(parts.query)
    game_id = game or (found_game.group(1) if found_game else None)
    tok = token or (found_token.group(1) if found_token else None)
    if game_id is None or tok is None:
        raise ArgumentError(
            "the invite link names no game or token (give --game and --token)",
            "kutsulinkissä ei ole peliä tai tunnistetta (anna --game ja --token)",
        )
    return base, game_id, tok


def _model(view: dict[str, Any]) -> AnyView:
    data = dict(view)
    # The server leaves out the engine's global event numbers; number the seat's own log.
    data["log"] = [{"seq": i + 1, **e} for i, e in enumerate(view.get("log", []))]
    if data.get("viewer") == "gm":
        return GMView.model_validate(data)
    if data.get("seat"):
        return SeatView.model_validate(data)
    return SideView.model_validate(data)


class _Client:
    def __init__(self, base: str, game_id: str, token: str) -> None:
        self.base = base
        self.game = game_id
        self.token = token
        self.http = httpx.Client(
            base_url=f"{base}/api/games/{game_id}",
            headers={"Authorization": f"Bearer {token}"},
            timeout=60,
        )

    def get(self, path: str, **params: Any) -> dict[str, Any]:
        try:
            r = self.http.get(path, params=params)
        except httpx.HTTPError as exc:
            raise ArgumentError(
                f"cannot reach the server {self.base}: {type(exc).__name__}",
                f"palvelimeen {self.base} ei saada yhteyttä: {type(exc).__name__}",
            ) from None
        body: dict[str, Any] = r.json()
        if r.status_code >= 400:
            msg = body.get("error", {}).get("message", {})
            raise ArgumentError(msg.get("en", r.text), msg.get("fi", r.text))
        return body

    def post(self, text: str, version: int) -> httpx.Response:
        return self.http.post(
            "/orders",
            json={"order": text, "version": version},
            headers={"Idempotency-Key": str(uuid.uuid4())},
        )

    def ws_url(self, after: int) -> str:
        scheme = "wss" if self.base.startswith("https") else "ws"
        host = self.base.split("://", 1)[1]
        return f"{scheme}://{host}/api/games/{self.game}/ws?after={after}"


def _error_text(r: httpx.Response) -> str:
    try:
        msg = r.json()["error"]["message"]
        return str(tr(msg["fi"], msg["en"]))
    except (ValueError, KeyError, TypeError):
        return f"HTTP {r.status_code}"


def _wait_for_turn(client: _Client, version: int) -> None:
    """Print the seat's copies of every change until it has orders again or the game
    ends (the WebSocket, with the token in the first message: never in a URL)."""
    from websockets.sync.client import connect

    _say(tr("— Odotetaan muita paikkoja —", "— Waiting for the other seats —"), "bold")
    with connect(client.ws_url(version), open_timeout=30) as ws:
        ws.send(json.dumps({"token": client.token, "after": version}))
        while True:
            msg = json.loads(ws.recv(timeout=None))
            if "error" in msg:
                raise ArgumentError(msg["error"]["message"]["en"], msg["error"]["message"]["fi"])
            for line in _event_lines(msg.get("events", [])):
                _say(f"  {line}")
            if client.get("/orders")["orders"] or client.get("/view")["view"]["finished"]:
                return


def _odds_lines(odds: dict[str, Any]) -> list[str]:
    o = odds["odds"]
    terms = ", ".join(
        f"{catalogue(ATTACK_TERMS, t['name'])} {t['value']:+d} ({t['rule']})" for t in odds["terms"]
    )
    if "outcomes" in o:
        pct = " · ".join(f"{term(k.upper())} {percent(v)}" for k, v in o["outcomes"].items())
        return [
            tr(
                f"Todennäköisyydet: {o['attacker']} → {o['target']} (bonus {o['bonus']:+d}, "
                f"puolustus {o['defence']}, vahinko {o['damage']}):",
                f"Odds: {o['attacker']} → {o['target']} (bonus {o['bonus']:+d}, "
                f"defence {o['defence']}, damage {o['damage']}):",
            ),
            f"  ({terms})",
            f"  {pct}",
        ]
    lines = [tr(f"Tulipyyntö: {o['weapon']}", f"Fire request: {o['weapon']}")]
    for e in o.get("exposures", []):
        lines.append(f"  {e['unit']}: {percent(e['p_hit'])}")
    return lines


def join(url: str, *, token: str | None = None, game: str | None = None) -> None:
    """Play the seat of ``token`` in the server game until it ends or the player quits."""
    base, game_id, tok = parse_target(url, token, game)
    client = _Client(base, game_id, tok)
    me = client.get("/seat")
    seat = me["seat"]
    _say(
        tr(
            f"Pelaat paikkaa {seat} ({term(me['side'])}) palvelimella {base}.",
            f"You play seat {seat} ({term(me['side'])}) on {base}.",
        ),
        "bold",
    )
    _say(_help_text(full=False, tools=False))
    ask = _reader()
    scenario: Scenario | None = None
    redraw = True
    while True:
        body = client.get("/view")
        view = body["view"]
        if scenario is None and view["scenario"] in bundled_ids():
            scenario = load_scenario(view["scenario"])
        if redraw and scenario is not None:
            _draw_view(_model(view), scenario, events=8)
            redraw = False
        if view["finished"]:
            _say(tr("Peli on päättynyt.", "The game is over."), "bold")
            return
        listing = client.get("/orders")
        orders: list[str] = listing["orders"]
        if not orders:
            _wait_for_turn(client, body["version"])
            redraw = True
            continue
        prompt = f"[{seat} · {_phase_text(view['phase'])} · v{listing['version']}] > "
        line = ask(prompt, [*orders, "help", "map", "orders", "quit"])
        if line is None or line.lower() in ("quit", "lopeta", "exit"):
            _say(tr("Lopetettu (peli jatkuu palvelimella).", "Stopped (the game goes on)."))
            return
        low = line.lower()
        if not line:
            continue
        if low in ("help", "apua", "?"):
            _say(_help_text(tools=False))
            continue
        if low in ("map", "kartta"):
            redraw = True
            continue
        if low in ("orders", "käskyt", "kaskyt"):
            for text in orders[:60]:
                _say(f"  {text}")
            if len(orders) > 60:
                _say(tr(f"  … ({len(orders)} käskyä)", f"  … ({len(orders)} orders)"))
            continue
        if low.split()[0] in _ODDS_WORDS:
            r = client.http.get("/odds", params={"order": line})
            if r.status_code == 200:
                for text in _odds_lines(r.json()):
                    _say(text)
                answer = ask(tr("Vahvista (k/e)? ", "Confirm (y/n)? "), ["k", "e", "y", "n"])
                if answer is None or answer.lower() not in _YES:
                    _say(tr("Peruttu.", "Cancelled."))
                    continue
        r = client.post(line, listing["version"])
        if r.status_code == 200:
            for text in _event_lines(r.json()["events"]):
                _say(f"  {text}")
            redraw = True
        elif r.status_code == 409:
            _say(
                tr(
                    "Tilanne muuttui juuri (toinen paikka antoi käskyn); katso ja yritä uudelleen.",
                    "The game just changed (another seat gave an order); look and try again.",
                ),
                "red",
            )
            redraw = True
        else:
            _say(_error_text(r), "red")
