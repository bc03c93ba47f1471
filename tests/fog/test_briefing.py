"""What the players' scenario briefing may say of Red's numbers (R-REC-5, issue 8)."""

from __future__ import annotations

import json

from taistelukentta.cli.scenario_cmds import scenario_json
from taistelukentta.content.scenario import load_scenario


def test_r_rec_5_players_read_the_briefed_estimate_never_the_real_count() -> None:
    s = load_scenario("terasvalli")
    groups = [g.model_copy(update={"briefed_units": 4}) for g in s.red.battle_groups]
    briefed = s.model_copy(update={"red": s.red.model_copy(update={"battle_groups": groups})})
    player = scenario_json(briefed, gm=False)
    assert [g["unit_count"] for g in player["battle_groups"]] == [4, 4, 4]
    gm = scenario_json(briefed, gm=True)
    real = [len(g.units) for g in s.red.battle_groups]
    assert [g["unit_count"] for g in gm["battle_groups"]] == real
    assert [g["briefed_units"] for g in gm["battle_groups"]] == [4, 4, 4]
    # Nothing in the players' document depends on Red's real units.
    fewer = [g.model_copy(update={"units": g.units[:1]}) for g in groups]
    other = s.model_copy(update={"red": s.red.model_copy(update={"battle_groups": fewer})})
    assert json.dumps(scenario_json(other, gm=False)) == json.dumps(player)
