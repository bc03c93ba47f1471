"""docs/engine.md's table "What each side may learn from each event kind" names every event
kind a side can be shown (issue 8 asks for it with the rule that grants it): a kind added
to ``rules.events.SHOWN`` without a row fails here."""

from __future__ import annotations

from pathlib import Path

from taistelukentta.rules.events import SHOWN

DOC = Path(__file__).resolve().parents[2] / "docs" / "engine.md"


def test_r_rec_5_every_shown_event_kind_has_a_row_with_its_rule() -> None:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("### What each side may learn from each event kind")
    table = text[start : text.index("**Labels and ids", start)]
    rows = [
        line
        for line in table.splitlines()
        if line.startswith("| ") and not line.startswith(("| kind", "|---"))
    ]
    missing = [kind for kind in SHOWN if not any(f"`{kind}`" in row for row in rows)]
    assert not missing, f"docs/engine.md has no row for {missing}"
    for row in rows:
        rule = row.rstrip(" |").rsplit("|", 1)[1]
        assert "R-" in rule, f"a row without its rule: {row}"
