"""Thousands of corrupted game files: every one is refused with a TkError or opens and
shows cleanly — never another exception (issue 9). The big run is in the slow tier."""

from __future__ import annotations

import contextlib
import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from taistelukentta.bots.runner import simulate
from taistelukentta.cli.app import app
from taistelukentta.content.scenario import load_scenario
from taistelukentta.errors import TkError
from taistelukentta.rules.state import GameState
from taistelukentta.storage.gamefile import log_hash
from taistelukentta.storage.session import create_game, open_game

runner = CliRunner()

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
    | st.sampled_from(["blue", "red", "gm", "pl1", "1R1", "SPOTTED", "move", "12,7", "AP"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


@pytest.fixture(scope="module")
def game_doc(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("fuzz") / "game.json"
    scenario = load_scenario("demo")
    session = create_game("demo", 8, path)
    state, orders = simulate(scenario, 8)
    session.state = state
    session.extend((p.seat, p.order) for p in orders)
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out.extend(_paths(v, (*prefix, k)))
    elif isinstance(doc, list):
        for i, v in enumerate(doc[:6]):  # the first few of each list
            out.extend(_paths(v, (*prefix, i)))
    return out


def _mutate(doc: dict[str, Any], path: tuple[Any, ...], op: str, value: Any) -> Any:
    d = copy.deepcopy(doc)
    if not path:
        return value
    parent = d
    for part in path[:-1]:
        parent = parent[part]
    last = path[-1]
    if op == "delete":
        del parent[last]
    else:
        parent[last] = value
    return d


def _rehash(doc: Any) -> None:
    """Make the file's hashes fit the edit (a careful editor), where the state still reads."""
    if not isinstance(doc, dict) or not isinstance(doc.get("state"), dict):
        return
    try:
        doc["log_hash"] = log_hash(doc["state"])
        doc["state_hash"] = GameState.from_dict(doc["state"], load_scenario("demo")).state_hash()
    except Exception:
        return


def who_for(n: int) -> str:
    return ("pl1", "pl2", "co", "red")[n % 4]


def _check(doc_text: str, tmp: Path) -> None:
    path = tmp / "game.json"
    path.write_text(doc_text, encoding="utf-8")
    try:
        session = open_game(path)
    except TkError:
        return
    assert session.state is not None
    for who in (who_for(len(doc_text)), "gm"):
        out = runner.invoke(app, ["show", str(path), "--as", who])
        assert out.exit_code in (0, 2), (who, out.output, out.exception)
        assert not isinstance(out.exception, Exception) or isinstance(out.exception, SystemExit), (
            repr(out.exception)
        )
    out = runner.invoke(app, ["orders", str(path), "--as", who_for(len(doc_text) // 7)])
    assert out.exit_code in (0, 2), (out.output, out.exception)


def _run(game_doc: dict[str, Any], data: st.DataObject, tmp: Path) -> None:
    paths = _paths(game_doc)
    path = data.draw(st.sampled_from(paths))
    op = data.draw(st.sampled_from(["set", "set", "delete"])) if path else "set"
    value = data.draw(json_values)
    doc = _mutate(game_doc, path, op, value)
    if data.draw(st.booleans()):
        _rehash(doc)
    _check(json.dumps(doc), tmp)


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_corrupted_files_never_traceback(
    game_doc: dict[str, Any], data: st.DataObject, tmp_path_factory: pytest.TempPathFactory
) -> None:
    _run(game_doc, data, tmp_path_factory.mktemp("f"))


@pytest.mark.slow
@settings(max_examples=2500, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_corrupted_files_never_traceback_many(
    game_doc: dict[str, Any], data: st.DataObject, tmp_path_factory: pytest.TempPathFactory
) -> None:
    _run(game_doc, data, tmp_path_factory.mktemp("f"))


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(cut=st.integers(min_value=0, max_value=10**9), junk=st.binary(max_size=4))
def test_truncated_or_spliced_bytes(
    game_doc: dict[str, Any], cut: int, junk: bytes, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A write cut short or bytes flipped: a TkError (or, by luck, a valid file)."""
    raw = json.dumps(game_doc).encode()
    at = cut % len(raw)
    path = tmp_path_factory.mktemp("b") / "game.json"
    path.write_bytes(raw[:at] + junk + raw[at + len(junk) :] if cut % 2 else raw[:at])
    with contextlib.suppress(TkError):
        open_game(path)


@pytest.mark.parametrize(("key", "value"), [("scenario", []), ("rounds", "kolme")])
def test_a_side_copy_of_the_wrong_type_is_named_on_opening(
    game_doc: dict[str, Any], tmp_path: Path, key: str, value: Any
) -> None:
    """Found by the slow fuzz: game_started's copy for Blue with a list as its scenario
    opened, and the typed event model then failed inside `show`. Now the file is refused on
    opening, naming the event and key."""
    doc = copy.deepcopy(game_doc)
    started = doc["state"]["events"][0]
    assert started["kind"] == "game_started"
    started["visible"]["blue"][key] = value
    _rehash(doc)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(TkError, match=rf"state\.events\[0\]\.visible\.blue\.{key}"):
        open_game(path)
    _check(json.dumps(doc), tmp_path)


def test_a_tactic_turn_that_is_not_a_number_is_named_on_opening(
    game_doc: dict[str, Any], tmp_path: Path
) -> None:
    """Found by the slow fuzz: ext.company.tactics_used[i][0] = "" opened and then failed
    inside `show` (int(""))."""
    doc = copy.deepcopy(game_doc)
    used = doc["state"]["ext"]["company"].setdefault("tactics_used", [])
    used.append([1, "painopiste"])
    used[0][0] = ""
    _rehash(doc)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(TkError, match=r"state\.ext\.company\.tactics_used: .*item 0"):
        open_game(path)
    _check(json.dumps(doc), tmp_path)
