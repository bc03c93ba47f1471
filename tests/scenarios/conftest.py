"""A tiny valid scenario (and its map) that the validation tests break one way at a time."""

from __future__ import annotations

from pathlib import Path

import pytest

# 8 × 5 cells; water (impassable) at (4,2) and (4,3).
TINY_MAP = '''name = "Pieni"
terrain = """
..,,FF..
..==FF..
..=.W...
..=.W.S.
..=...T.
"""
elevation = """
0 0 0 1 2 2 1 0
0 0 0 1 2 3 1 0
0 0 0 0 0 1 1 0
0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0
"""
'''

BASE = """id = "koe"
map = "tiny.toml"
rounds = 3
first_side = "blue"
title = { fi = "Koe", en = "Test" }
briefing = "Lyhyt."

[victory]
destroyed_enemy_vp = 1
own_loss_vp = -1

[[objectives]]
id = "kukkula"
name = "Kukkula"
cells = [[5, 1]]
vp = 2

[[blue.seats]]
id = "co"
role = "company_commander"
name = "Päällikkö"
leader = "KP"
units = [
  { id = "KP", card = "komppanianpaallikko", cell = [0, 0] },
]

[[blue.seats]]
id = "pl1"
role = "platoon_leader"
name = "1. joukkue"
leader = "1JJ"
units = [
  { id = "1JJ", card = "joukkueenjohtaja", cell = [1, 0] },
  { id = "1R1", card = "jaakariryhma", cell = [1, 1] },
]

[[red.battle_groups]]
id = "bg1"
name = "Vihollinen"
units = [
  { id = "R1", card = "motorisoitu_jalkavakiryhma", cell = [7, 4] },
  { id = "R2", card = "bmp2", cell = [6, 4] },
]
"""


@pytest.fixture(scope="session")
def map_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding ``tiny.toml``; scenario files written here find it."""
    folder = tmp_path_factory.mktemp("scenarios")
    (folder / "tiny.toml").write_text(TINY_MAP, encoding="utf-8")
    return folder
