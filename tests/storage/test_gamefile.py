"""Game files: round trip, atomic writes, clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taistelukentta.errors import DataError
from taistelukentta.storage.gamefile import GameRecord, OrderEntry, load_game, save_game

orders = st.lists(
    st.builds(OrderEntry, st.sampled_from(["co", "pl1", "gm"]), st.text(min_size=1)),
    max_size=5,
)


@settings(deadline=None)  # each example writes and fsyncs a file and its folder
@given(
    seed=st.integers(min_value=0, max_value=2**63) | st.binary(min_size=32, max_size=32),
    entries=orders,
)
def test_round_trip(
    tmp_path_factory: pytest.TempPathFactory, seed: int | bytes, entries: list[OrderEntry]
) -> None:
    path = tmp_path_factory.mktemp("g") / "game.json"
    rec = GameRecord("demo", seed, entries, None, "abc")
    save_game(path, rec)
    back = load_game(path)
    assert back == rec


def test_atomic_write_leaves_old_file_when_write_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    save_game(path, GameRecord("demo", 1))
    before = path.read_bytes()

    def interrupted(fd: int) -> None:
        raise KeyboardInterrupt  # the write is cut off after the bytes went out, before rename

    monkeypatch.setattr("taistelukentta.storage.gamefile.os.fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        save_game(path, GameRecord("demo", 2, [OrderEntry("co", "done")]))
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_broken_file_names_every_problem(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "tk20-game", "version": 1, "seed": "x", "orders": [3]}')
    with pytest.raises(DataError) as info:
        load_game(path)
    msg = str(info.value)
    assert "bad.json" in msg and "seed" in msg and "scenario" in msg and "orders[0]" in msg


def test_not_json(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{")
    with pytest.raises(DataError, match="not valid JSON"):
        load_game(path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="file not found"):
        load_game(tmp_path / "nope.json")


def test_unreadable_file_is_a_data_error(tmp_path: Path) -> None:
    not_utf8 = tmp_path / "latin1.json"
    not_utf8.write_bytes('{"scenario": "ä"}'.encode("latin-1"))
    with pytest.raises(DataError, match="cannot read file") as info:
        load_game(not_utf8)
    assert "latin1.json" in str(info.value)
    with pytest.raises(DataError, match="cannot read file"):
        load_game(tmp_path)  # a folder, not a file
