"""``tk20 campaign …`` on a database (issue 12's CLI)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from taistelukentta.cli.app import app
from taistelukentta.i18n import set_language
from tests.fog.harness import scenario_data, toml_text

runner = CliRunner()
"""The commands run in the test's process (a ``tk20`` process would spend most of its time
importing; ``tests/test_cli_startup.py`` and the pty test cover the process itself)."""


@pytest.fixture(autouse=True)
def _finnish() -> Iterator[None]:
    yield
    set_language("fi")


def _invoke(args: list[str]) -> Result:
    """``tk20 --lang en ARGS``; an error must be a clear message and an exit code, never a
    stray exception (``tk20``'s last-resort handler is not under test here)."""
    done = runner.invoke(app, ["--lang", "en", *args])
    assert done.exception is None or isinstance(done.exception, SystemExit), done.exception
    return done


def tk20(db: str, *args: str, ok: bool = True) -> Result:
    done = _invoke(["campaign", *args, "--db", db])
    if ok:
        assert done.exit_code == 0, done.stderr
    return done


def js(db: str, *args: str) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(tk20(db, *args, "--json").stdout)
    return out


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'c.sqlite3'}"


def test_campaign_cli_new_battle_spend_export(db: str, tmp_path: Path) -> None:
    made = js(db, "new", "Jääkärit", "--company", "demo")
    assert set(made) >= {"id", "name", "tp", "units"} and made["tp"] == 0
    unit = next(u for u in made["units"] if u["name"] == "1R1")
    assert set(unit) == {"name", "card", "xp", "tt", "strength", "max_strength", "abilities"}
    cid = made["id"]
    fought = js(db, "battle", cid, "--scenario", "demo", "--seed", "5", "--computer")
    assert set(fought) == {"game", "winner", "victory_points", "xp", "tp", "roster"}
    vp = fought["victory_points"]
    assert fought["tp"] == max(0, vp)
    survivors = {u["name"]: u for u in fought["roster"]}
    share = max(0, vp) // len(made["units"])
    for name, gained in fought["xp"].items():
        u = survivors[name]
        assert gained in (share, share // 2)
        assert u["xp"] == gained and u["tt"] - u["xp"] // 10 == next(
            m["tt"] for m in made["units"] if m["name"] == name
        )
    shown = js(db, "show", cid)
    assert [b["game"] for b in shown["battles"]] == [fought["game"]]
    assert shown["units"] == fought["roster"]
    damaged = [u for u in shown["units"] if u["strength"] < u["max_strength"]]
    if damaged and shown["tp"] >= 1:
        u = damaged[0]
        spent = js(db, "spend", cid, f"restore {u['name']} 1")
        assert spent["tp"] == shown["tp"] - 1
        assert js(db, "undo", cid)["tp"] == shown["tp"]
    bad = tk20(db, "spend", cid, "buy jaakariryhma NEW", ok=False)
    if shown["tp"] < 15:
        assert bad.exit_code == 2 and "costs 15 TP" in bad.stderr
    csv = tk20(db, "export", cid, "--format", "csv").stdout
    assert csv.splitlines()[0].startswith("name,label,card,xp,tt")
    pdf = tmp_path / "r.pdf"
    tk20(db, "export", cid, "--format", "pdf", "--out", str(pdf))
    assert pdf.read_bytes().startswith(b"%PDF")
    missing = tk20(db, "show", "abc123", ok=False)
    assert missing.exit_code == 2 and "no such campaign" in missing.stderr
    # A battle people play gets a secret seed: a chosen (small) one could be found from the
    # commitment every seat reads (issue 8). Refused, and no battle starts.
    before = js(db, "show", cid)
    chosen = tk20(db, "battle", cid, "--scenario", "demo", "--seed", "7", ok=False)
    assert chosen.exit_code == 2 and "--seed only with --computer" in chosen.stderr
    assert js(db, "show", cid) == before


def _roster_file(tmp_path: Path) -> Path:
    """The demo's Blue units, changed so that a battle without the overlay differs: 1R1
    with XP and lost TK, and the slot 1R2 filled by a veteran of another name."""
    from taistelukentta.content.scenario import load_scenario

    units: list[dict[str, Any]] = []
    for side, _, p in load_scenario("demo").placements():
        if side != "blue":
            continue
        if p.id == "1R1":
            units.append({"name": "1R1", "card": p.card, "xp": 12, "strength": 6})
        elif p.id == "1R2":
            units.append(
                {
                    "name": "SUSI",
                    "card": p.card,
                    "xp": 25,
                    "strength": 7,
                    "abilities": ["parannettu_sisu"],
                }
            )
        else:
            units.append({"name": p.id, "card": p.card})
    path = tmp_path / "roster.json"
    path.write_text(json.dumps({"units": units, "seats": ["pl1", "pl2"]}), encoding="utf-8")
    return path


def _run(path: Path, *args: str) -> Result:
    return _invoke([*args, str(path)])


def test_campaign_battle_seed_repeats_and_its_game_file_replays(tmp_path: Path) -> None:
    """Issue 12: the same ``--seed`` with computer seats gives the same battle and the same
    campaign result (two databases, two campaigns: different game ids); the battle's game
    file replays, verifies and opens with the roster overlay exactly as the battle did."""
    from taistelukentta.server.campaigns import CampaignStore
    from taistelukentta.server.db import make_engine
    from taistelukentta.server.games import GameStore
    from taistelukentta.server.settings import Settings

    roster = _roster_file(tmp_path)
    runs: list[dict[str, Any]] = []
    files: list[Path] = []
    for i in (1, 2):
        db = f"sqlite:///{tmp_path / f'c{i}.sqlite3'}"
        cid = js(db, "new", "Susi", "--roster", str(roster))["id"]
        game_file = tmp_path / f"battle{i}.json"
        fought = js(
            db, "battle", cid, "--scenario", "demo", "--seed", "11", "--computer",
            "--out", str(game_file),
        )  # fmt: skip
        assert fought["winner"] is not None
        runs.append({"fought": fought, "db": db, "id": cid})
        files.append(game_file)
    first, second = (r["fought"] for r in runs)
    assert first["game"] != second["game"]
    assert {k: v for k, v in first.items() if k != "game"} == {
        k: v for k, v in second.items() if k != "game"
    }
    # each battle's own final state and record (from its database), and its game file
    hashes, records = [], []
    for run in runs:
        engine = make_engine(run["db"])
        games = GameStore(engine, Settings(database_url=str(engine.url), run_computer=False))
        try:
            hashes.append(games.game(run["fought"]["game"]).state.state_hash())
            view = CampaignStore(games).view(run["id"], "gm")
        finally:
            games.close()
            engine.dispose()
        assert view["battle"] is None
        records.append({k: v for k, v in view["battles"][0].items() if k != "game"})
    assert hashes[0] == hashes[1] and records[0] == records[1]
    assert "SUSI" in records[0]["fought"]
    battle_hash = hashes[0]
    doc = json.loads(files[0].read_text(encoding="utf-8"))
    assert doc["state_hash"] == battle_hash
    assert doc["blue_overlay"]["slots"]["1R2"]["name"] == "SUSI"
    assert json.loads(files[1].read_text(encoding="utf-8"))["state_hash"] == battle_hash
    replay = _run(files[0], "replay", "--json")
    assert replay.exit_code == 0, replay.stdout + replay.stderr
    assert json.loads(replay.stdout)["state_hash"] == battle_hash
    verified = _run(files[0], "verify", "--json")
    assert verified.exit_code == 0, verified.stdout + verified.stderr
    assert json.loads(verified.stdout)["state_hash"] == battle_hash
    shown = _run(files[0], "show", "--as", "blue", "--json")
    assert shown.exit_code == 0, shown.stderr
    assert "SUSI" in shown.stdout and '"1R2"' not in shown.stdout
    # without the overlay the same orders are another game: replay says so
    del doc["blue_overlay"]
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(doc), encoding="utf-8")
    assert _run(bare, "replay", "--json").exit_code != 0
    # a broken overlay is a clear error naming it, no traceback
    doc["blue_overlay"] = {"slots": {"1R2": {"name": "SUSI", "card": "jaakariryhma"}}}
    bare.write_text(json.dumps(doc), encoding="utf-8")
    broken = _run(bare, "replay")
    assert broken.exit_code != 0 and "blue_overlay.slots.1R2.xp" in broken.stderr
    assert "Traceback" not in broken.stderr


def test_campaign_battle_out_before_its_end_is_sealed(db: str, tmp_path: Path) -> None:
    """Fair dice (issue 8): the game file of a battle that goes on holds no seed (the
    sealed export, as the server's /export before the end); ``tk20 replay`` checks it."""
    cid = js(db, "new", "Susi", "--company", "demo")["id"]
    game_file = tmp_path / "battle.json"
    started = js(db, "battle", cid, "--scenario", "demo", "--out", str(game_file))
    assert started["winner"] is None
    doc = json.loads(game_file.read_text(encoding="utf-8"))
    assert doc["format"] == "tk20-sealed-game"
    assert "seed" not in doc and "seed" not in doc["state"]
    replay = _run(game_file, "replay", "--json")
    assert replay.exit_code == 0, replay.stdout + replay.stderr
    assert json.loads(replay.stdout)["ok"]


def test_campaign_cli_plays_a_scenario_from_a_scenarios_folder(db: str, tmp_path: Path) -> None:
    """A GM who serves extra scenarios (``tk20 serve --scenarios DIR``) plays them in a
    campaign from the terminal with the same ``--scenarios DIR``; without it the scenario is
    unknown (a clear error, nothing changed)."""
    folder = tmp_path / "omat"
    folder.mkdir()
    data = scenario_data("demo")
    data["id"] = "demo_two_rounds"
    data["rounds"] = 2
    (folder / "demo_two_rounds.toml").write_text(toml_text(data), encoding="utf-8")
    made = js(db, "new", "Jääkärit", "--company", "demo_two_rounds", "--scenarios", str(folder))
    cid = made["id"]
    unknown = tk20(db, "battle", cid, "--scenario", "demo_two_rounds", "--computer", ok=False)
    assert unknown.exit_code != 0 and "demo_two_rounds" in unknown.stderr
    assert js(db, "show", cid)["battles"] == []
    args = ("--scenario", "demo_two_rounds", "--seed", "3", "--computer", "--scenarios")
    fought = js(db, "battle", cid, *args, str(folder))
    shown = js(db, "show", cid, "--scenarios", str(folder))
    (record,) = shown["battles"]
    assert (record["game"], record["scenario"]) == (fought["game"], "demo_two_rounds")
    missing = tk20(db, "show", cid, "--scenarios", str(tmp_path / "none"), ok=False)
    assert missing.exit_code != 0 and "is not a folder" in missing.stderr
