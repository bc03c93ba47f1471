"""Rules the engine got wrong (issue 9, "Rules"), each checked against 004 / 000 and named by
its rule ID. Every test here failed on the engine before its fix."""

from __future__ import annotations

from typing import Any

from taistelukentta.rules import GameState, Order, apply
from taistelukentta.rules.engine import new_game
from taistelukentta.rules.events import Event
from taistelukentta.rules.recon import ContactLevel
from tests.engine.conftest import Dice, with_contact
from tests.engine_fire_support.conftest import end_command, fs_scenario, until_turn

MORTAR = "kranaatinheitinryhma"  # krh81: 2d6 FRAG, separate AT damage d4
SQUAD = "jaakariryhma"
RED = "motorisoitu_jalkavakiryhma"
BMP = "bmp2"  # armoured (and light)


def _kinds(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


# --------------------------------------------------------------------------- R-ATK-9 organic


def _mortar_vs(card: str, **options: Any) -> GameState:
    sc = fs_scenario(
        blue=[("KRH", MORTAR, (1, 10)), ("1R1", SQUAD, (10, 10))],
        red=[("R1", card, (15, 10))],
        options=options or None,
    )
    return with_contact(new_game(sc, 5), "blue", "R1", ContactLevel.SPOTTED)


def _land(st: GameState, dice: Dice, *values: int, boost: bool = False) -> list[Event]:
    st, _ = apply(st, "pl1", Order.organic("KRH", (15, 10), "1R1"))
    if boost:
        st, _ = apply(st, "co", Order.boost("KRH"))
    st = until_turn(st, 3)
    events: list[Event] = []
    dice.script(*values)
    end_command(st, events)
    return events


def test_r_atk_9_r_org_1_organic_at_damage_against_armour_is_not_halved(dice: Dice) -> None:
    # 004: "PST vahinko ilmoitetaan erikseen" — the mortar's AT damage (d4) against the
    # BMP-2, as direct fire rolls a weapon's AT dice against armour, in full.
    events = _land(_mortar_vs(BMP), dice, 3, 20, 20, 20)
    hit = _kinds(events, "strike_hit")[0].data
    assert hit["amount"] == 3  # the d4 as rolled (the engine halved it to 1)
    damage = _kinds(events, "damage")[0].data
    assert damage["amount"] == 3
    assert [r["expr"] for r in hit["rolls"]] == ["d4"]


def test_r_fd_4_r_atk_9_boost_is_not_halved_against_armour(dice: Dice) -> None:
    # +2 on the strike's damage roll (R-FD-4) is added to the AT damage, never halved.
    events = _land(_mortar_vs(BMP), dice, 1, 20, 20, 20, boost=True)
    hit = _kinds(events, "strike_hit")[0].data
    assert hit["amount"] == 1 + 2 and hit["boost"] == 2


def test_r_atk_9_at_damage_counts_even_when_frag_does_nothing_against_armour(dice: Dice) -> None:
    # With frag_vs_armour = "none" an armoured target takes no FRAG damage from a weapon
    # without AT dice; the mortar has AT dice, so the AT damage counts — and so does the
    # boost. Against a soft target the 2d6 FRAG + 2 counts in full.
    events = _land(_mortar_vs(RED), dice, 2, 3, 20, 20, 20, boost=True)
    assert _kinds(events, "strike_hit")[0].data["amount"] == 2 + 3 + 2
    events = _land(_mortar_vs(BMP, frag_vs_armour="none"), dice, 4, 20, 20, 20)
    assert _kinds(events, "strike_hit")[0].data["amount"] == 4
