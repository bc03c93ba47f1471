"""The roster's exports (issue 12): the PDF is read back (pypdf), CSV and HTML by content."""

from __future__ import annotations

import io

from pypdf import PdfReader

from taistelukentta.content.options import load_options
from taistelukentta.rules.campaign import (
    BattleResult,
    CampaignRules,
    Roster,
    RosterUnit,
    UnitResult,
    apply_battle,
    new_roster,
)
from taistelukentta.server.campaigns import roster_csv, roster_html, roster_pdf

RULES = CampaignRules.from_options(load_options())
WHEN = "2026-12-01T18:00:00+00:00"
A4_LANDSCAPE_PT = (841.89, 595.28)


def _roster(count: int = 4) -> Roster:
    units = [
        RosterUnit(
            f"R{i}",
            "jaakariryhma",
            1,
            xp=3 * i,
            strength=10 - (i % 7),
            max_strength=10,
            label={"fi": f"Sissi {i} Ärjänen", "en": f"Guerrilla {i}"},
        )
        for i in range(count)
    ]
    roster = new_roster("Jääkärit", units, RULES, actor="gm", when=WHEN, tp=7)
    result = BattleResult(
        "g1",
        "demo",
        "blue",
        8,
        1,
        (UnitResult("R0", 10), UnitResult("R1", 0), UnitResult("R2", 3, kills=1)),
    )
    return apply_battle(roster, result, when=WHEN)


def _pages(data: bytes) -> list[str]:
    reader = PdfReader(io.BytesIO(data))
    for page in reader.pages:
        w, h = float(page.mediabox.width), float(page.mediabox.height)
        assert abs(w - A4_LANDSCAPE_PT[0]) < 0.5 and abs(h - A4_LANDSCAPE_PT[1]) < 0.5
    return [page.extract_text() for page in reader.pages]


def test_roster_pdf_reads_back_with_units_battles_and_finnish_letters() -> None:
    roster = _roster()
    data = roster_pdf(roster, "fi")
    assert data.startswith(b"%PDF")
    (text,) = _pages(data)
    assert "Vahvuusluettelo: Jääkärit" in text
    assert f"Täydennyspisteet (TP): {roster.tp}" in text and roster.tp == 15
    for u in roster.units:
        assert u.name in text and f"{u.strength}/{u.max_strength}" in text
    assert "Sissi 0 Ärjänen" in text and "DAMAGED" in text  # R2 ended at 3/10
    assert "Taistelut" in text and "Skenaario" in text and "demo" in text
    assert "R1" in text  # fallen: in the battle's losses, not among the units
    assert "R1" not in {u.name for u in roster.units}
    english = _pages(roster_pdf(roster, "en"))[0]
    assert "Roster: Jääkärit" in english and "Guerrilla 0" in english
    assert "Replacement points (TP): 15" in english and "Scenario" in english
    assert roster_pdf(roster, "fi") == data  # no clock in the file


def test_roster_pdf_of_a_long_roster_goes_on_over_pages_under_its_header() -> None:
    roster = _roster(70)
    pages = _pages(roster_pdf(roster, "en"))
    assert len(pages) >= 3
    names = [u.name for u in roster.units]
    for i, text in enumerate(pages):
        assert "Roster: Jääkärit" in text and f"{i + 1}/{len(pages)}" in text
    for text in pages[:-1]:
        assert "Unit" in text and "Card" in text  # the header on every page of the table
    everything = "\n".join(pages)
    assert all(f"\n{n} " in everything or everything.startswith(f"{n} ") for n in names)


def test_roster_csv_and_html_hold_the_same_rows() -> None:
    roster = _roster()
    lines = roster_csv(roster).splitlines()
    assert lines[0] == "name,label,card,xp,tt,strength,max_strength,statuses,abilities,battles"
    assert len(lines) == 1 + len(roster.units)
    html = roster_html(roster, "en")
    assert "<th>Scenario</th>" in html and "Guerrilla 0" in html and "Jääkärit" in html
    assert all(f"<td>{u.name}</td>" in html for u in roster.units)
