"""Opening a game checks each side's event copies against their whitelist models once per
content (storage/checked.py): a copy that passed is remembered by a digest, across
commands, and any edit to a copy is checked again and refused as before."""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from taistelukentta.bots.runner import simulate
from taistelukentta.content.scenario import load_scenario
from taistelukentta.errors import TkError
from taistelukentta.storage import checked, schema
from taistelukentta.storage.gamefile import log_hash
from taistelukentta.storage.session import create_game, open_game


@pytest.fixture(scope="module")
def game_doc(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("checked") / "game.json"
    session = create_game("demo", 11, path)
    state, orders = simulate(load_scenario("demo"), 11)
    session.state = state
    session.extend((p.seat, p.order) for p in orders)
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh, empty cache folder, as a new process would find it, and a count of the
    copies actually checked."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(checked.ENV_CACHE_DIR, str(folder))
    monkeypatch.setattr(checked, "_open", {})
    return folder


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real = schema._seen_copy_problems

    def count(kind: str, copy: dict[str, Any], where: tuple[str | int, ...]) -> list[str]:
        seen.append(kind)
        return real(kind, copy, where)

    monkeypatch.setattr(schema, "_seen_copy_problems", count)
    return seen


def _write(doc: dict[str, Any], path: Path) -> Path:
    doc["log_hash"] = log_hash(doc["state"])
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_copies_are_checked_once_then_remembered(
    game_doc: dict[str, Any], cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = _counting(monkeypatch)
    path = _write(copy.deepcopy(game_doc), tmp_path / "g.json")
    open_game(path)
    first = len(seen)
    assert first > 100  # a whole game's copies
    open_game(path)
    assert len(seen) == first  # all remembered in this process
    monkeypatch.setattr(checked, "_open", {})  # a new process: read back from the file
    open_game(path)
    assert len(seen) == first
    (memo,) = cache.iterdir()
    lines = memo.read_text(encoding="ascii").split()
    assert lines and all(re.fullmatch(r"[0-9a-f]{32}", line) for line in lines)
    assert os.stat(memo).st_mode & 0o077 == 0  # the user's alone


def test_an_edited_copy_is_checked_again_and_refused(
    game_doc: dict[str, Any], cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    open_game(_write(copy.deepcopy(game_doc), tmp_path / "good.json"))  # every copy known
    seen = _counting(monkeypatch)
    doc = copy.deepcopy(game_doc)
    started = doc["state"]["events"][0]
    assert started["kind"] == "game_started"
    started["visible"]["blue"]["rounds"] = "kolme"  # a careful editor: log_hash fits
    bad = _write(doc, tmp_path / "bad.json")
    for _ in range(2):  # a copy that failed is never remembered
        with pytest.raises(TkError, match=r"state\.events\[0\]\.visible\.blue\.rounds"):
            open_game(bad)
        assert seen[-1] == "game_started"


def test_a_longer_log_checks_only_its_new_events(
    game_doc: dict[str, Any], cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shorter = copy.deepcopy(game_doc)
    last = shorter["state"]["events"].pop()
    shorter["state"]["event_count"] -= 1
    assert schema.check_game_document(shorter) == []  # the same game, one event earlier
    seen = _counting(monkeypatch)
    open_game(_write(copy.deepcopy(game_doc), tmp_path / "g.json"))
    assert seen and set(seen) == {last["kind"]}
    assert len(seen) <= len([c for c in last["visible"].values() if c])


def test_caching_off_checks_every_copy_every_time(
    game_doc: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(checked.ENV_CACHE_DIR, "off")
    monkeypatch.setattr(checked, "_open", {})
    seen = _counting(monkeypatch)
    path = _write(copy.deepcopy(game_doc), tmp_path / "g.json")
    open_game(path)
    first = len(seen)
    open_game(path)
    assert len(seen) == 2 * first


def test_tk20_commands_share_the_memo_and_it_holds_only_digests(
    game_doc: dict[str, Any], cache: Path, tmp_path: Path
) -> None:
    path = _write(copy.deepcopy(game_doc), tmp_path / "g.json")
    env = {**os.environ, checked.ENV_CACHE_DIR: str(cache)}
    cmd = [sys.executable, "-m", "taistelukentta", "show", str(path), "--as", "pl1"]
    first = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    assert first.returncode == 0, first.stderr
    (memo,) = cache.iterdir()
    text = memo.read_text(encoding="ascii")
    assert set(text) <= set("0123456789abcdef\n")
    again = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    assert (again.returncode, again.stdout, again.stderr) == (0, first.stdout, first.stderr)
    assert memo.read_text(encoding="ascii") == text  # nothing new to remember


def test_a_full_memo_keeps_the_newest_half(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(checked, "MAX_DIGESTS", 10)
    memo = checked.checked_copies()
    assert memo is not None
    digests = [f"{i:032x}" for i in range(12)]
    for d in digests[:8]:
        memo.add(d)
    memo.save()
    for d in digests[8:]:
        memo.add(d)
    memo.save()
    assert memo.path is not None
    assert memo.path.read_text(encoding="ascii").split() == digests[-5:]
    fresh = checked.CheckedCopies(memo.path)
    assert digests[-1] in fresh and digests[0] not in fresh
