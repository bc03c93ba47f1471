"""R-LINK-1 command link: range, blockers, Red."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from taistelukentta.rules.company import co_seat, co_unit, in_command_link, line_cells
from taistelukentta.rules.engine import new_game
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.state import GameState
from tests.engine.conftest import build, open_rows, with_contact, without_contact


def _game(
    jj: tuple[int, int],
    red: tuple[int, int],
    options: dict[str, Any] | None = None,
    seed: int | bytes = bytes(32),
) -> GameState:
    sc = build(
        open_rows(45, 12),
        [("1JJ", "joukkueenjohtaja", jj), ("1R1", "jaakariryhma", (jj[0], jj[1] + 1))],
        [("R1", "motorisoitu_jalkavakiryhma", red)],
        co_cell=(0, 5),
        options=options,
    )
    return new_game(sc, seed=seed)


def test_r_link_1_in_range_and_clear_line() -> None:
    state = _game((20, 5), (40, 0))
    assert co_seat(state) == "co" and co_unit(state) == "KP"
    assert in_command_link(state, "1JJ")
    assert in_command_link(state, "1R1")  # through its platoon leader
    assert in_command_link(state, "KP")


def test_r_link_1_out_of_range() -> None:
    state = _game((31, 5), (44, 0))
    assert not in_command_link(state, "1JJ")
    assert not in_command_link(state, "1R1")


def test_r_link_1_range_is_option() -> None:
    state = _game((31, 5), (44, 0), {"link_range": 31})
    assert in_command_link(state, "1JJ")


def test_r_link_1_enemy_in_combat_on_line_cuts() -> None:
    # R1 stands on the line and within 2 of 1JJ (in a friendly ZoC): in combat.
    state = _game((20, 5), (18, 5))
    assert not in_command_link(state, "1JJ")


def test_r_link_1_enemy_not_in_combat_does_not_cut() -> None:
    state = with_contact(_game((20, 5), (10, 5)), "blue", "R1", ContactLevel.SPOTTED)
    assert in_command_link(state, "1JJ")
    state2 = _game((20, 5), (10, 5), {"link_blocker": "any_enemy_on_line"})
    assert in_command_link(state2, "1JJ")  # unseen: the company knows of no enemy there
    state2 = with_contact(state2, "blue", "R1", ContactLevel.SPOTTED)
    assert not in_command_link(state2, "1JJ")


def test_r_link_1_only_an_enemy_the_company_has_spotted_cuts() -> None:
    """The link is worked out from Blue's knowledge (issue 8, R-REC-5): an enemy in combat
    on the line cuts it only when Blue has it SPOTTED there; unseen or known only as a
    contact (KNOWN/SUSPECTED, no exact cell) it changes neither the link nor the KP."""
    for mode in ("in_combat_on_line", "any_enemy_on_line"):
        opts = {"link_blocker": mode}
        base = _game((20, 5), (18, 5), opts)
        for level in (ContactLevel.SUSPECTED, ContactLevel.KNOWN):
            assert in_command_link(with_contact(base, "blue", "R1", level), "1JJ"), level
        unseen = without_contact(base, "blue", "R1")
        assert in_command_link(unseen, "1JJ"), mode
        assert not in_command_link(with_contact(base, "blue", "R1", ContactLevel.SPOTTED), "1JJ")
        # a legacy-seed game (made before issue 8) keeps the true cells, so it replays
        legacy = without_contact(_game((20, 5), (18, 5), opts, seed=1), "blue", "R1")
        assert not in_command_link(legacy, "1JJ"), mode


def test_r_link_1_blocker_none() -> None:
    state = _game((20, 5), (18, 5), {"link_blocker": "none"})
    assert in_command_link(state, "1JJ")


def test_r_kp_2_red_ignores_link() -> None:
    state = _game((20, 5), (44, 11))
    assert in_command_link(state, "R1")


@settings(max_examples=200, deadline=None)
@given(
    st.tuples(st.integers(-20, 20), st.integers(-20, 20)),
    st.tuples(st.integers(-20, 20), st.integers(-20, 20)),
)
def test_r_link_1_line_cells_connected(a: tuple[int, int], b: tuple[int, int]) -> None:
    cells = [a, *line_cells(a, b), b] if a != b else [a]
    for p, q in itertools.pairwise(cells):
        assert max(abs(p[0] - q[0]), abs(p[1] - q[1])) == 1
    assert len(set(cells)) == len(cells)
    back = set(line_cells(b, a))
    # symmetric except for exact-corner ties, which both directions take diagonally
    assert len(back) == len(cells) - 2 if a != b else not back
