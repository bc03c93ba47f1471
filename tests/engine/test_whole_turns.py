"""Scripted whole turns: a short fight played order by order with fixed dice, pinning the
sequence of events and what each side is told (R-TURN-1, R-KP-*, R-ZOC-*, R-ATK-*,
R-REC-*)."""

from __future__ import annotations

from taistelukentta.errors import InvalidOrderError
from taistelukentta.rules import (
    Order,
    apply_text,
    fire_targets,
    is_legal,
    legal_orders,
    move_destinations,
)
from taistelukentta.rules.engine import new_game
from taistelukentta.rules.recon import ContactLevel

from .conftest import Dice, build

SQUAD = "jaakariryhma"
RED = "motorisoitu_jalkavakiryhma"

ROWS = [
    "FFF,,,,,,,,,,,",
    "FFF,,,,,,,,,,,",
    "FFF,,,,,,,,,,,",
    "FFF,,,,,,,,,,,",
    "FFF,,,,,,,,,,,",
    "FFF,,,,,,,,,,,",
]


def test_scripted_two_rounds(dice: Dice) -> None:
    sc = build(
        ROWS,
        [("1R1", SQUAD, (1, 1)), ("1R2", SQUAD, (3, 4))],
        [("R1", RED, (12, 2)), ("R2", RED, (12, 4))],
        rounds=2,
    )
    st = new_game(sc, 2024)
    assert not st.contacts["blue"] and not st.contacts["red"]

    # --- Blue, round 1: 1R1 moves into the field (seen moving in the open? the field is
    # cover 1, not fully open, so no); 1R2 reconnoitres R2's area.
    st, events = apply_text(st, "pl1", "move 1R1 6,1")
    assert [e.kind for e in events] == ["order", "move"]
    assert events[1].visible["red"] is None
    dice.script(19, 2)  # 19 + 2 = 21 vs d12 2 + H 1 + field 1 = 4: SPOTTED
    st, events = apply_text(st, "pl1", "tiedustele 1R2 12,4")
    assert st.contacts["blue"]["R2"].level == ContactLevel.SPOTTED
    assert [e.kind for e in events] == ["order", "contact", "recon"]
    assert events[1].visible == {"blue": events[1].visible["blue"], "red": None}
    assert fire_targets(st, "1R2") == []  # 9 cells: out of range 8
    st, _ = apply_text(st, "pl1", "valmis")
    st, events = apply_text(st, "co", "done")
    kinds = [e.kind for e in events]
    assert kinds[:5] == ["seat_done", "phase", "seat_done", "seat_done", "turn_ended"]
    # nothing to fire: both seats' fire phases end by themselves, each told why
    told = {e.data["seat"]: e.data for e in events[2:4]}
    assert set(told) == {"co", "pl1"} and all(d["auto"] for d in told.values())
    assert st.active == "red" and st.round == 1 and st.kp["gm"] == 3

    # --- Red, round 1: R2 knows nothing of 1R1 at (6,1); ordered to (7,3) it stops on
    # entering 1R1's ZoC (R-ZOC-2), two cells from it.
    assert "1R1" not in st.contacts["red"]
    assert (7, 3) in move_destinations(st, "R2")
    st, events = apply_text(st, "gm", "move R2 7,3")
    r2 = st.units["R2"]
    assert max(abs(r2.cell[0] - 6), abs(r2.cell[1] - 1)) == 2
    assert st.contacts["blue"]["R2"].level == ContactLevel.SPOTTED  # seen by 1R1 (≤ 2)
    assert st.contacts["red"]["1R1"].level == ContactLevel.SPOTTED  # and it saw 1R1
    blue_move = next(e for e in events if e.kind == "move").visible["blue"]
    assert blue_move is not None and blue_move["unit"] == "R2"
    st, events = apply_text(st, "gm", "done")
    # R1 did not move and sees 1R1 (SPOTTED by R2, 6 cells, in range): it may fire
    assert st.phase.value == "fire" and legal_orders(st, "gm") == [
        Order.fire("R1", "1R1"),
        Order.done(),
    ]
    st, events = apply_text(st, "gm", "done")  # the GM holds fire
    assert st.active == "blue" and st.round == 2

    # --- Blue, round 2: 1R1 began in R2's ZoC — no basic move, but it may fire.
    assert st.units["1R1"].zoc_at_start
    assert not is_legal(st, "pl1", Order.move("1R1", (5, 1)))
    st, _ = apply_text(st, "pl1", "defend 1R1")
    st, _ = apply_text(st, "pl1", "done")
    st, _ = apply_text(st, "co", "done")
    assert st.phase.value == "fire"
    assert legal_orders(st, "pl1") == [
        Order.fire("1R1", "R2"),
        Order.fire("1R2", "R2"),
        Order.done(),
    ]
    dice.script(12, 5, 8)  # 12 + 4 = 16 vs S 11 + 1 = 12: HIT 5; R2 morale 8 + 1 = 9: SHAKEN
    st, events = apply_text(st, "pl1", "fire 1R1 R2")
    # 9 → 4 is the first damage and below half: DAMAGED, one morale test
    assert [e.kind for e in events] == ["order", "attack", "damage", "status", "morale"]
    assert st.units["R2"].strength == 4 and st.units["R2"].shaken is not None
    assert events[4].visible["blue"] is not None  # R2 is SPOTTED: Blue sees its morale
    assert events[1].visible["red"] is not None and events[1].visible["red"]["attacker"] == "1R1"
    st, _ = apply_text(st, "pl1", "done")  # 1R2 holds its fire
    assert st.active == "red"

    # --- Red, round 2: the game ends after it (the GM holds fire again).
    st, _ = apply_text(st, "gm", "done")
    assert st.phase.value == "fire"
    st, events = apply_text(st, "gm", "done")
    assert st.finished and events[-1].kind == "game_over"
    assert dice.remaining == []


def test_apply_text_rejects_bad_text() -> None:
    sc = build(ROWS, [("1R1", SQUAD, (1, 1))], [("R1", RED, (12, 2))])
    st = new_game(sc, 1)
    try:
        apply_text(st, "pl1", "move 1R1 x")
    except InvalidOrderError as exc:
        assert "'x'" in exc.en
    else:  # pragma: no cover - the text is invalid
        raise AssertionError("no error")
