"""The game's seed fixes every future roll, so only the GM may ever see it (R-DICE-6)."""

from __future__ import annotations

from taistelukentta.content.scenario import load_scenario
from taistelukentta.rules import new_game


def test_r_dice_6_seed_is_secret_from_both_sides() -> None:
    state = new_game(load_scenario("demo"), seed=987654321)
    started = [e for e in state.events if e.kind == "game_started"]
    assert len(started) == 1
    ev = started[0]
    assert ev.for_side("gm") is not None and ev.for_side("gm")["seed"] == 987654321  # type: ignore[index]
    for side in ("blue", "red"):
        seen = ev.for_side(side)
        assert seen is not None and "seed" not in seen
        assert "987654321" not in repr(seen)
