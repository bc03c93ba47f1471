"""A SPOTTED enemy that became HIDDEN: the side is told nothing it does not know (issue 8,
R-MOR-3). Its orders are listed and accepted from its own knowledge; carried out, the fire
comes to nothing and the side learns only then that the target could not be engaged."""

from __future__ import annotations

from taistelukentta.content.scenario import load_scenario
from taistelukentta.rules import new_game
from taistelukentta.rules.context import Tx, target_blocked, target_refused
from taistelukentta.rules.fire import resolve_fire

SEED = bytes(range(32))


def test_r_mor_3_hidden_is_not_the_ordering_sides_knowledge() -> None:
    state = new_game(load_scenario("terasvalli"), SEED)
    shooter = state.units["1R1"]
    assert target_refused(state, shooter, "R16") is not None  # the truth: HIDDEN, far away
    assert target_blocked(state, shooter, "R16") is None  # what the side may be told
    legacy = new_game(load_scenario("terasvalli"), 3)
    assert target_blocked(legacy, legacy.units["1R1"], "R16") is not None  # replays as was


def test_r_mor_3_fire_at_a_hidden_target_comes_to_nothing() -> None:
    state = new_game(load_scenario("terasvalli"), SEED)
    tx = Tx(state)
    strength = tx.units["R16"].strength
    resolve_fire(tx, "1R1", "R16", "fire")
    assert tx.units["1R1"].fired
    assert tx.units["R16"].strength == strength
    (void,) = tx.events
    assert void.kind == "attack_void"
    assert void.for_side("red") is None
    blue = void.for_side("blue")
    assert blue is not None and "reason" not in blue and "R16" not in repr(blue)
    assert tx.roller.rolls_made == state.roller["seq"]  # no die was rolled
