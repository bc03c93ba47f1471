"""Ids, names and tokens checked by a regular expression accept no trailing newline.

In Python's ``re``, ``$`` also matches just before a final newline, so ``"R11\\n"`` used to
pass the unit-id check and ``"0\\n"`` was written as a bare TOML key (a broken file). Every
pattern that checks a whole string ends with ``\\Z``.
"""

from __future__ import annotations

import re

import pytest

from taistelukentta.cli import typing_help
from taistelukentta.content import maps, scenario, terrain, tomlwrite, units
from taistelukentta.errors import InvalidOrderError
from taistelukentta.rules import campaign, orders

PATTERNS: dict[str, tuple[re.Pattern[str], str]] = {
    "terrain id": (terrain._ID_RE, "forest"),
    "dice": (units.DICE_RE, "2d6+1"),
    "bare TOML key": (tomlwrite._BARE, "kp_red"),
    "map number": (maps._INT_TOKEN, "-12"),
    "seat id": (scenario._SEAT_ID, "pl2"),
    "battle group id": (scenario._BG_ID, "bg1"),
    "campaign unit name": (campaign.NAME_RE, "Ahma-2"),
    "order word": (orders._WORD_RE, "mottitaktiikka"),
    "unit id": (orders.UNIT_ID, "R11"),
    "cell": (orders._CELL, "14,10"),
    "typed token": (typing_help._TOKEN_ID, "1R1"),
}


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_a_pattern_takes_the_whole_string_and_no_trailing_newline(name: str) -> None:
    pattern, good = PATTERNS[name]
    assert pattern.match(good)
    assert pattern.match(good + "\n") is None
    assert pattern.match(good + "\nx") is None


def test_an_order_with_a_unit_id_ending_in_a_newline_is_refused() -> None:
    with pytest.raises(InvalidOrderError, match="is not a unit id"):
        orders.check_id("R11\n", "move R11\n 3,4")


def test_a_bare_looking_key_with_a_newline_is_quoted() -> None:
    assert tomlwrite.dumps({"0\n": 1}) == '"0\\n" = 1\n'
