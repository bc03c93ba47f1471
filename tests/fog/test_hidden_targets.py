"""A SPOTTED enemy that became HIDDEN: the side is told nothing it does not know (issue 8,
R-MOR-3). Its orders are listed and accepted from its own knowledge; carried out, the fire
comes to nothing and the side learns only then that the target could not be engaged.
Recon and area fire tell nothing of what the side does not see (two-world checks)."""

from __future__ import annotations

import json
from typing import Any

from taistelukentta.content.scenario import load_scenario
from taistelukentta.rules import apply, new_game, parse_order
from taistelukentta.rules.context import Tx, target_blocked, target_refused
from taistelukentta.rules.fire import resolve_fire
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.views import redact
from tests.engine.conftest import build, open_rows, with_contact, with_unit

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


# Two worlds that differ only in a secret, the same seed and order: Blue's copies of what
# happened must be byte for byte the same until Blue learns the secret (issue 8).

SNIPER = "tarkka_ampujat"
RED = "motorisoitu_jalkavakiryhma"


def _blue_copies(events: list[Any], scenario: Any) -> str:
    """Blue's numbered copies of ``events``, as the text a client would get."""
    return json.dumps(redact(events, "blue", scenario), sort_keys=True)


def test_r_rec_6_recon_on_a_unit_that_hid_after_it_was_found_tells_nothing() -> None:
    """A Blue KNOWN contact on a sniper; in one world the sniper has gone HIDDEN since
    (R-MOR-3). A recon roll good enough to spot it raises the contact in the open world
    (Blue learns: the pair ends there). In the hidden world the raise is refused (R-REC-6)
    and Blue must see exactly what a failed roll shows — before the fix it saw the found
    contact with the rolls of a SPOTTED result beside a contact that stayed KNOWN."""
    spotted_seeds = 0
    for seed in range(16):
        copies: dict[bool, str] = {}
        levels: dict[bool, ContactLevel] = {}
        for hidden in (False, True):
            scenario = build(
                open_rows(14, 9, ","),
                [("1R1", "jaakariryhma", (2, 4))],
                [("R1", SNIPER, (7, 4))],
                first_side="blue",
                co_cell=(0, 8),
            )
            state = with_contact(
                new_game(scenario, bytes([seed]) * 32), "blue", "R1", ContactLevel.KNOWN
            )
            if hidden:
                state = with_unit(state, "R1", ext={"abilities": {"hidden": True}})
            after, events = apply(state, "pl1", parse_order("recon 1R1 7,4"))
            copies[hidden] = _blue_copies(events, scenario)
            levels[hidden] = after.contacts["blue"]["R1"].level
        assert levels[True] == ContactLevel.KNOWN  # the refused raise
        hidden_recon = next(e for e in json.loads(copies[True]) if e["kind"] == "recon")
        # The hidden world finds nothing, whatever the roll (R-REC-6: not detected beyond
        # its reveal range — neither raised nor re-confirmed where it stands).
        assert hidden_recon["data"]["found"] == [] and hidden_recon["data"]["rolls"] == [], seed
        open_recon = next(e for e in json.loads(copies[False]) if e["kind"] == "recon")
        if open_recon["data"]["found"]:
            # Blue detects the unit in the open world (spotted, or its KNOWN contact
            # confirmed): it learns there legitimately, nothing to compare.
            spotted_seeds += levels[False] == ContactLevel.SPOTTED
        else:
            assert copies[False] == copies[True], seed
    assert spotted_seeds >= 2  # the refused-raise case was played


def test_r_ab_3_area_fire_shows_no_roll_of_a_unit_the_firer_does_not_see() -> None:
    """Area fire (R-AB-3, R-ATK-8) on an area holding a SPOTTED Red unit and, in one world
    only, an unseen one: Blue's copy (attack roll, the seen target's damage rolls,
    setback) is the same in both — the unseen unit's damage rolls were in it before."""
    compared = 0
    for seed in range(8):
        copies = []
        for with_r2 in (False, True):
            # (R3 far away: the game does not end when the area fire destroys R1 and R2)
            red = [("R1", RED, (7, 4)), ("R3", RED, (13, 0))]
            red += [("R2", RED, (8, 5))] if with_r2 else []
            scenario = build(
                open_rows(14, 9, ","),
                [("V1", "cv9030", (2, 4))],
                red,
                first_side="blue",
                co_cell=(0, 8),
            )
            state = with_contact(
                new_game(scenario, bytes([seed]) * 32), "blue", "R1", ContactLevel.SPOTTED
            )
            after, events = apply(state, "pl1", parse_order("use V1 lamauttava_tuli 7,4"))
            if "R2" in after.contacts["blue"]:
                break  # the fire revealed R2 to Blue: it learns it legitimately
            area = next(e for e in events if e.kind == "area_attack")
            blue = area.visible["blue"]
            assert blue is not None
            assert all(":R2:" not in r["purpose"] for r in blue["rolls"])
            # (only the area attack's copy: R2's damage rolls shift the plain dice stream
            # under the later rolls, which tests/fog's coupled dice take care of)
            copies.append(_blue_copies([area], scenario))
        else:
            assert copies[0] == copies[1], seed
            compared += 1
    assert compared >= 4
