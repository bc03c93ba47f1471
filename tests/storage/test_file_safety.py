"""Broken, edited and contested game files: a clear error naming the file and the place,
nothing changed, never a traceback (issue 9, "Files and concurrency")."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from taistelukentta.bots.runner import simulate
from taistelukentta.content.scenario import load_scenario
from taistelukentta.errors import DataError, TkError
from taistelukentta.storage.gamefile import (
    GameRecord,
    StaleGameError,
    load_game,
    log_hash,
    save_game,
)
from taistelukentta.storage.session import create_game, open_game, replay_record
from taistelukentta.views import view_for

TK20 = [str(Path(sys.executable).parent / "tk20")]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A finished demo game (bots on both sides) as the parsed file."""
    path = tmp_path_factory.mktemp("played") / "game.json"
    scenario = load_scenario("demo")
    session = create_game("demo", 5, path)
    state, orders = simulate(scenario, 5)
    session.state = state
    session.extend((p.seat, p.order) for p in orders)
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


def _write(path: Path, doc: dict[str, Any], *, rehash: bool = True) -> Path:
    """Write ``doc``; with ``rehash`` its log hash is made to fit (a careful editor)."""
    if rehash and doc.get("state") is not None:
        doc["log_hash"] = log_hash(doc["state"])
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


class Ran(NamedTuple):
    """A ``tk20`` command's exit code and output."""

    returncode: int
    stdout: str
    stderr: str


def _cli(*args: str) -> Ran:
    """``tk20 ARGS`` in this process (typer's runner): the command's own error handling,
    without a process start that would cost more than the check (the real process:
    :func:`_process`). A stray exception fails the test: the command must turn bad input
    into a message and an exit code."""
    from typer.testing import CliRunner

    from taistelukentta.cli.app import app
    from taistelukentta.i18n import set_language

    try:
        done = CliRunner().invoke(app, list(args))
    finally:
        set_language("fi")
    assert done.exception is None or isinstance(done.exception, SystemExit), repr(done.exception)
    return Ran(done.exit_code, done.stdout, done.stderr)


def _process(*args: str) -> Ran:
    """``tk20 ARGS`` as its own process, as a player runs it (start-up, last-resort error
    handler, the interpreter's own limits)."""
    done = subprocess.run([*TK20, *args], capture_output=True, text=True, timeout=120, check=False)
    return Ran(done.returncode, done.stdout, done.stderr)


def _first_event(doc: dict[str, Any], pred: Any) -> dict[str, Any]:
    for event in doc["state"]["events"]:
        if pred(event):
            found: dict[str, Any] = event
            return found
    raise AssertionError("no such event in the played game")


def _corrupt(kind: str, doc: dict[str, Any], path: Path) -> tuple[Path, str]:
    """One of the corruptions the issue lists; returns the file and what the error names."""
    if kind == "deep":
        path.write_text('{"a":' * 100_000 + "1" + "}" * 100_000)
        return path, "nested deeper"
    if kind == "bigint":
        text = json.dumps(doc).replace('"seed": 5', '"seed": ' + "9" * 5000, 1)
        path.write_text(text)
        return path, "5000 digits"
    d = copy.deepcopy(doc)
    if kind == "visible_string":
        d["state"]["events"][3]["visible"] = "blue"
        return _write(path, d), "state.events[3].visible"
    if kind == "rolls_null":
        event = _first_event(d, lambda e: "rolls" in e["data"])
        event["data"]["rolls"] = None
        return _write(path, d), f"state.events[{event['seq'] - 1}].data.rolls"
    if kind == "mine_cell_false":
        event = _first_event(d, lambda e: e["kind"] == "minefields_placed")
        event["data"]["fields"][0]["cells"][0] = False
        return _write(path, d), f"state.events[{event['seq'] - 1}].data.fields[0].cells[0]"
    if kind == "mined_unknown_field":
        field = next(iter(d["state"]["ext"]["mines"]["fields"]))
        del d["state"]["ext"]["mines"]["fields"][field]
        cell = next(c for c, f in d["state"]["ext"]["mines"]["mined"].items() if f == field)
        return _write(path, d), f"state.ext.mines.mined.{cell}: no minefield"
    if kind == "mined_false":
        key = next(iter(d["state"]["ext"]["mines"]["known"]["red"]))
        d["state"]["ext"]["mines"]["known"]["red"][key] = False
        return _write(path, d), f"state.ext.mines.known.red.{key}"
    raise AssertionError(kind)


KINDS = [
    "deep",
    "bigint",
    "visible_string",
    "rolls_null",
    "mine_cell_false",
    "mined_false",
    "mined_unknown_field",
]


@pytest.mark.parametrize("kind", KINDS)
def test_corrupt_file_is_a_clear_error(kind: str, played: dict[str, Any], tmp_path: Path) -> None:
    path, names = _corrupt(kind, played, tmp_path / "game.json")
    before = path.read_bytes()
    with pytest.raises(DataError) as info:
        open_game(path)
    assert str(path) in str(info.value) and names in str(info.value)
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "kind",  # a tk20 process each; the same corruptions in-process above, all in the fast tier
    [
        "deep",
        *(
            pytest.param(k, marks=pytest.mark.slow)
            for k in ("bigint", "visible_string", "mine_cell_false")
        ),
    ],
)
def test_corrupt_file_through_the_cli(kind: str, played: dict[str, Any], tmp_path: Path) -> None:
    path, names = _corrupt(kind, played, tmp_path / "game.json")
    before = path.read_bytes()
    commands = [
        ["show", str(path), "--as", "pl1"],
        ["replay", str(path)],
        ["order", str(path), "--as", "pl1", "done"],
    ]
    for run, args in [(_cli, a) for a in commands] + [(_process, commands[0])]:
        # every command in this process; the first also as a real ``tk20`` process
        out = run("--lang", "en", *args)
        assert out.returncode == 2, (args, out.stderr)
        assert "Traceback" not in out.stderr + out.stdout
        assert str(path) in out.stderr and names in out.stderr
    assert path.read_bytes() == before


def test_edited_log_fails_on_open(played: dict[str, Any], tmp_path: Path) -> None:
    d = copy.deepcopy(played)
    event = _first_event(d, lambda e: e["data"].get("rolls"))
    event["data"]["rolls"][0]["dice"][0] = 21 - event["data"]["rolls"][0]["dice"][0]
    path = _write(tmp_path / "g.json", d, rehash=False)
    with pytest.raises(DataError, match="log_hash"):
        open_game(path)


def _changed_dice(doc: dict[str, Any]) -> list[tuple[int, int]]:
    """(event index, roll index) of every roll in the log."""
    return [
        (i, j)
        for i, e in enumerate(doc["state"]["events"])
        for j, _ in enumerate(e["data"].get("rolls", []))
    ]


@pytest.mark.parametrize("step", [5, pytest.param(1, marks=pytest.mark.slow)], ids=["some", "all"])
def test_every_edited_die_fails_replay(played: dict[str, Any], tmp_path: Path, step: int) -> None:
    """A die changed anywhere in the log (the hash recomputed) fails ``replay``, naming the
    event; before, most such edits replayed as OK. The fast tier edits every fifth die and
    the last (a load per die, ~0.07 CPU-s), the slow tier every one."""
    from taistelukentta.storage.session import log_difference

    record = load_game(_write(tmp_path / "ok.json", copy.deepcopy(played)))
    _, replayed = replay_record(record, "ok.json")
    assert log_difference(record, replayed) is None
    places = _changed_dice(played)
    assert len(places) > 50
    for i, j in [*places[:-1:step], places[-1]]:
        dice = played["state"]["events"][i]["data"]["rolls"][j]["dice"]
        die = dice[0]
        dice[0] = die % 6 + 1 if die != 1 else 2  # edited in place (a deep copy per die
        try:  # cost more than the check), put back before the next
            edited = load_game(_write(tmp_path / "e.json", dict(played)))
        finally:
            dice[0] = die
        assert log_difference(edited, replayed) == f"state.events[{i}].data.rolls[{j}].dice[0]"
    # and through the command, once
    path = tmp_path / "e.json"
    out = _cli("--lang", "en", "replay", str(path))
    assert out.returncode == 1 and "state.events[" in out.stderr and "Traceback" not in out.stderr


def test_redacted_copy_edited_to_show_more_fails_replay(
    played: dict[str, Any], tmp_path: Path
) -> None:
    d = copy.deepcopy(played)
    event = _first_event(d, lambda e: e["visible"].get("blue") is None)
    event["visible"]["blue"] = dict(event["data"])
    path = _write(tmp_path / "g.json", d)
    out = _cli("--lang", "en", "replay", str(path))
    assert out.returncode == 1
    assert f"state.events[{event['seq'] - 1}].visible.blue" in out.stderr


def test_state_units_must_fit_the_scenario(played: dict[str, Any], tmp_path: Path) -> None:
    """A state whose unit stands off the map (its hash recomputed) is refused by name."""
    from taistelukentta.rules.state import GameState

    d = copy.deepcopy(played)
    d["state"]["units"][0]["cell"] = [999, 3]
    scenario = load_scenario("demo")
    d["state_hash"] = GameState.from_dict(d["state"], scenario).state_hash()
    path = _write(tmp_path / "g.json", d)
    with pytest.raises(DataError, match=r"state.units\[0\].*cell: 999,3 is off the map"):
        open_game(path)


def test_contact_label_must_be_the_engines_form(played: dict[str, Any], tmp_path: Path) -> None:
    """A contact label is c1, c2, …: a junk label (found by the fuzz test: '0\\x1f\\x1f')
    is refused on open by name, not a traceback when a view sorts the contacts."""
    d = copy.deepcopy(played)
    side, contacts = next((s, c) for s, c in d["state"]["contacts"].items() if c)
    uid = next(iter(contacts))
    contacts[uid]["label"] = "0\x1f\x1f\x1f"
    path = _write(tmp_path / "g.json", d)
    with pytest.raises(DataError, match=rf"state.contacts.{side}.{uid}.label"):
        open_game(path)


# -- saving ---------------------------------------------------------------------------------


def test_killed_save_temp_is_removed_by_the_next_save(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    save_game(path, GameRecord("demo", 1))
    left = tmp_path / ".game.json.abc123.tmp"  # what a save killed before its rename leaves
    left.write_text("half")
    other = tmp_path / ".other.json.abc123.tmp"  # another game's: not ours to remove
    other.write_text("x")
    save_game(path, GameRecord("demo", 2))
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.json.abc123.tmp", "game.json"]


def test_killed_process_leaves_no_temp_after_next_save(tmp_path: Path) -> None:
    """A real kill -9 in the middle of saving (stopped before the rename)."""
    path = tmp_path / "game.json"
    save_game(path, GameRecord("demo", 1))
    script = (
        "import os, signal, sys\n"
        "from taistelukentta.storage import gamefile\n"
        "def stop(p, q):\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
        "gamefile.os.replace = stop\n"
        f"gamefile.save_game({str(path)!r}, gamefile.GameRecord('demo', 3))\n"
    )
    run = subprocess.run([sys.executable, "-c", script], check=False, timeout=60)
    assert run.returncode == -9
    assert any(p.name.endswith(".tmp") for p in tmp_path.iterdir())
    assert load_game(path).seed == 1
    save_game(path, GameRecord("demo", 4))
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_save_keeps_the_file_mode(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    save_game(path, GameRecord("demo", 1))
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask
    path.chmod(0o640)
    save_game(path, GameRecord("demo", 2))
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_save_fsyncs_the_folder_after_the_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    synced: list[str] = []
    real_fsync = os.fsync
    real_replace = os.replace

    def fsync(fd: int) -> None:
        synced.append("dir" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
        real_fsync(fd)

    def replace(a: Any, b: Any) -> None:
        synced.append("rename")
        real_replace(a, b)

    monkeypatch.setattr("taistelukentta.storage.gamefile.os.fsync", fsync)
    monkeypatch.setattr("taistelukentta.storage.gamefile.os.replace", replace)
    save_game(path, GameRecord("demo", 1))
    assert synced == ["file", "rename", "dir"]


def test_stale_writer_gets_an_error_and_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    first = create_game("demo", 3, path)
    second = open_game(path)  # read the same version
    first.give("pl1", "done")
    saved = path.read_bytes()
    with pytest.raises(StaleGameError) as info:
        second.give("pl2", "done")
    assert str(path) in str(info.value)
    assert path.read_bytes() == saved  # the first order is still there
    assert [o.order for o in load_game(path).orders] == ["done"]


@pytest.mark.parametrize("rounds", [1, pytest.param(4, marks=pytest.mark.slow)])
def test_concurrent_orders_lose_nothing(rounds: int, tmp_path: Path) -> None:
    """Three seats ordering the same game at once (three ``tk20`` processes), once in the
    fast tier and four times over in the slow one: every order a command acknowledged
    (exit 0) is in the file, and the file replays."""
    path = tmp_path / "game.json"
    create_game("demo", 11, path)
    plan = {
        "co": ["defend KP", "done", "done", "done"],
        "pl1": ["defend 1JJ", "defend 1R1", "defend 1R2", "defend 1R3"],
        "pl2": ["defend 2JJ", "defend 2PST", "defend 2R1", "defend 2R2"],
    }
    acknowledged: list[tuple[str, str]] = []
    for step in range(rounds):
        procs = {
            seat: subprocess.Popen(
                [*TK20, "order", str(path), "--as", seat, orders[step]],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for seat, orders in plan.items()
        }
        for seat, proc in procs.items():
            _, err = proc.communicate(timeout=120)
            assert "Traceback" not in err
            if proc.returncode == 0:
                acknowledged.append((seat, plan[seat][step]))
    recorded = [(o.seat, o.order) for o in load_game(path).orders]
    assert sorted(recorded) == sorted(acknowledged)
    assert len([a for a in acknowledged if a[0] != "co"]) == 2 * rounds  # every platoon order
    out = _cli("replay", str(path))
    assert out.returncode == 0, out.stderr


def test_saved_file_version_hash(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    version = save_game(path, GameRecord("demo", 1))
    assert version == hashlib.sha256(path.read_bytes()).hexdigest()


def test_view_of_a_valid_file_is_unchanged_by_validation(played: dict[str, Any]) -> None:
    """The validation accepts what the engine writes (every event kind of a whole game)."""
    scenario = load_scenario("demo")
    from taistelukentta.storage.gamefile import parse_game

    record = parse_game(json.dumps(played), "played.json")
    assert record.state == played["state"]
    from taistelukentta.storage.session import saved_state

    state = saved_state(record, scenario, "played.json")
    for who in ("gm", "red", "pl1"):
        assert view_for(state, who)


def test_tk_errors_only(played: dict[str, Any], tmp_path: Path) -> None:
    """Every corruption above is a TkError (what the command line reports cleanly)."""
    for kind in KINDS:
        path, _ = _corrupt(kind, played, tmp_path / f"{kind}.json")
        with pytest.raises(TkError):
            open_game(path)
