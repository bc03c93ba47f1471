"""Game sessions on disk: create, give orders, open, replay."""

from __future__ import annotations

from pathlib import Path

import pytest

from taistelukentta.errors import ArgumentError, DataError, IllegalOrderError, InvalidOrderError
from taistelukentta.storage.gamefile import OrderEntry, load_game, save_game
from taistelukentta.storage.session import create_game, open_game, replay_record


def test_create_give_open_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    s = create_game("demo", 9, path, human="red")
    s.give("pl1", "move 1R1 12,7")
    s.give("co", "done")
    again = open_game(path)
    assert again.state.state_hash() == s.state.state_hash()
    assert again.record.human == "red"
    assert [o.order for o in again.record.orders] == ["move 1R1 12,7", "done"]
    assert len(again.state.events) == len(s.state.events)  # the log survives the file
    _, replayed = replay_record(again.record, str(path))
    assert replayed.state_hash() == s.state.state_hash()


@pytest.mark.parametrize(
    ("seat", "text", "error"),
    [
        ("pl1", "move 1R1 99,99", IllegalOrderError),
        ("pl1", "jump 1R1", InvalidOrderError),
        ("gm", "move R11 20,4", IllegalOrderError),
    ],
)
def test_bad_order_changes_nothing(
    tmp_path: Path, seat: str, text: str, error: type[Exception]
) -> None:
    path = tmp_path / "g.json"
    s = create_game("demo", 9, path)
    before, state = path.read_bytes(), s.state
    with pytest.raises(error):
        s.give(seat, text)
    assert path.read_bytes() == before and s.state is state and not s.record.orders


def test_create_refuses_existing_file(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    create_game("demo", 1, path)
    with pytest.raises(ArgumentError, match="already exists"):
        create_game("demo", 2, path)
    create_game("demo", 2, path, overwrite=True)
    assert load_game(path).seed == 2


def test_open_refuses_a_state_that_does_not_match_its_hash(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    create_game("demo", 1, path)
    record = load_game(path)
    assert record.state is not None
    record.state["units"][0]["strength"] = 2
    save_game(path, record)
    with pytest.raises(DataError, match="state_hash"):
        open_game(path)


def test_open_without_state_replays(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    s = create_game("demo", 1, path)
    s.give("pl1", "defend 1R1")
    record = load_game(path)
    record.state = None
    save_game(path, record)
    assert open_game(path).state.state_hash() == s.state.state_hash()


def test_replay_names_the_broken_order(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    s = create_game("demo", 1, path)
    s.record.orders.append(OrderEntry("pl1", "move 1R1 99,99"))
    with pytest.raises(DataError, match=r"orders\[0\] \(pl1: 'move 1R1 99,99'\)"):
        replay_record(s.record, str(path))


def test_human_field_is_checked(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    path.write_text(
        '{"format": "tk20-game", "version": 1, "scenario": "demo", "seed": 1, '
        '"human": "green", "orders": []}',
        encoding="utf-8",
    )
    with pytest.raises(DataError, match="human"):
        load_game(path)
