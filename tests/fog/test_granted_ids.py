"""Labels and ids a side reads are drawn only when granted, in its own sequence (issue 8)."""

from __future__ import annotations

from taistelukentta.content.scenario import load_scenario
from taistelukentta.rules import new_game
from taistelukentta.rules.context import Tx
from taistelukentta.rules.recon import ContactLevel

SEED = bytes(range(32))


def test_r_rec_6_a_refused_contact_uses_up_no_label() -> None:
    state = new_game(load_scenario("terasvalli"), SEED)
    assert "R16" not in state.contacts["blue"]  # the HIDDEN sniper pair, far from Blue
    tx = Tx(state)
    before = tx.serial["blue"]
    assert not tx.set_contact("blue", "R16", ContactLevel.SPOTTED)  # refused (R-REC-6)
    assert tx.serial["blue"] == before
    assert tx.set_contact("blue", "R12", ContactLevel.KNOWN)
    assert tx.contacts["blue"]["R12"].label == f"c{before + 1}"


def test_r_rec_6_legacy_games_keep_their_labels() -> None:
    """A legacy-seed game replays as recorded: there a refusal still used a label."""
    state = new_game(load_scenario("terasvalli"), 5)
    tx = Tx(state)
    before = tx.serial["blue"]
    assert not tx.set_contact("blue", "R16", ContactLevel.SPOTTED)
    assert tx.serial["blue"] == before + 1
