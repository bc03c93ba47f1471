"""The game's seed fixes every future roll, so no view or event holds it (R-DICE-6)."""

from __future__ import annotations

import hashlib
import json

import pytest

from taistelukentta.content.scenario import load_scenario
from taistelukentta.dice.roller import fresh_seed
from taistelukentta.rules import new_game
from taistelukentta.views import view_for


def test_r_dice_6_seed_is_secret_from_both_sides() -> None:
    state = new_game(load_scenario("demo"), seed=987654321)
    started = [e for e in state.events if e.kind == "game_started"]
    assert len(started) == 1
    ev = started[0]
    for viewer in ("blue", "red", "gm"):
        seen = ev.for_side(viewer)
        assert seen is not None and "seed" not in seen
        assert "987654321" not in repr(seen)


@pytest.mark.parametrize("viewer", ["blue", "red", "gm", "co", "pl1"])
def test_r_dice_6_views_give_the_commitment_never_the_seed(viewer: str) -> None:
    seed = fresh_seed()
    state = new_game(load_scenario("demo"), seed)
    view = view_for(state, viewer).model_dump(mode="json")
    text = json.dumps(view)
    assert view["dice"] == "hmac-sha256"
    assert view["seed_commitment"] == hashlib.sha256(seed).hexdigest()
    # Neither the seed nor any long piece of it, nor any dice state.
    for i in range(0, 64 - 16 + 1, 8):
        assert seed.hex()[i : i + 16] not in text
    assert "roller" not in text and '"pos"' not in text
    started = next(e for e in view["log"] if e["kind"] == "game_started")
    assert started["data"]["seed_commitment"] == view["seed_commitment"]
