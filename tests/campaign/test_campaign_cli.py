"""``tk20 campaign …`` on a database (issue 12's CLI)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest


def tk20(db: str, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "taistelukentta", "--lang", "en", "campaign", *args, "--db", db],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if ok:
        assert done.returncode == 0, done.stderr
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
        assert bad.returncode == 2 and "costs 15 TP" in bad.stderr
    csv = tk20(db, "export", cid, "--format", "csv").stdout
    assert csv.splitlines()[0].startswith("name,label,card,xp,tt")
    pdf = tmp_path / "r.pdf"
    tk20(db, "export", cid, "--format", "pdf", "--out", str(pdf))
    assert pdf.read_bytes().startswith(b"%PDF")
    missing = tk20(db, "show", "abc123", ok=False)
    assert missing.returncode == 2 and "no such campaign" in missing.stderr
