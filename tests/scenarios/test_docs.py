"""The example in docs/scenarios.md is a valid scenario (the doc cannot drift from the code)."""

from __future__ import annotations

import re
from pathlib import Path

from taistelukentta.content.scenario import load_scenario_file

DOC = Path(__file__).resolve().parents[2] / "docs" / "scenarios.md"


def test_doc_example_loads(tmp_path: Path) -> None:
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```toml\n(.*?)```", text, flags=re.S)
    example = next(b for b in blocks if "[[blue.seats]]" in b)
    path = tmp_path / "silta.toml"
    path.write_text(example, encoding="utf-8")
    scenario = load_scenario_file(path)
    assert scenario.id == "silta"
    assert scenario.options.stacking_limit == 3
    assert scenario.unit("1R2").strength == 7
    assert scenario.secrets.minefields[0].cells == [(10, 11), (11, 11), (10, 12), (11, 12)]
    assert scenario.secrets.fire_support.off_board_requests == 2
