"""Non-interference of the printed map (issue 8): ``tk20 map SCENARIO --side blue|red`` for
two worlds that differ only in a secret of the other side gives the same bytes — PDF and
every SVG page — once the metadata that is not a function of the content is fixed (the
date: ``SOURCE_DATE_EPOCH``; SVG element ids: ``svg.hashsalt``). The GM's print of the same
two worlds differs (it shows Red's set-up and mines), so the comparison can fail. The fast
tier compares one secret; the slow tier every secret a print could show."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fog.harness import scenario_data, toml_text
from tests.fog.test_noninterference import CASES

PRINTED = {
    # secret: the side whose print must not show it
    "unit_presence": "blue",
    "unit_position": "blue",
    "unit_strength": "blue",
    "minefield": "blue",
    "hidden": "blue",
    "blue_unit_presence": "red",
    "blue_unit_position": "red",
}


@pytest.fixture
def fixed_metadata(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    import matplotlib as mpl

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    with mpl.rc_context({"svg.hashsalt": "tk20-fog"}):
        yield


def _worlds(case: str, folder: Path) -> tuple[Path, Path]:
    c = CASES[case]
    out = []
    for name, change in (("a", c.change_a), ("b", c.change_b)):
        data = scenario_data(c.scenario)
        change(data)
        d = folder / name
        d.mkdir(parents=True)
        path = d / f"{data['id']}.toml"
        path.write_text(toml_text(data), encoding="utf-8")
        out.append(path)
    return out[0], out[1]


def _print(scenario: Path, side: str, suffix: str) -> list[bytes]:
    """``tk20 map SCENARIO --side SIDE --out map.SUFFIX``: the files' bytes, in order."""
    from typer.testing import CliRunner

    from taistelukentta.cli.app import app

    out = scenario.parent / side / f"map{suffix}"
    out.parent.mkdir(exist_ok=True)
    result = CliRunner().invoke(
        app, ["--lang", "en", "map", str(scenario), "--side", side, "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    files = sorted(out.parent.glob(f"*{suffix}"))
    assert files
    return [f.read_bytes() for f in files]


def _compare(case: str, folder: Path, suffixes: tuple[str, ...]) -> None:
    a, b = _worlds(case, folder)
    side = PRINTED[case]
    for suffix in suffixes:
        assert _print(a, side, suffix) == _print(b, side, suffix), (case, side, suffix)


@pytest.mark.usefixtures("fixed_metadata")
def test_a_sides_print_is_the_same_in_both_worlds(tmp_path: Path) -> None:
    """The fast tier: an unseen Red unit there or not; Blue's PDF (the SVG pages in the
    slow tier)."""
    _compare("unit_presence", tmp_path, (".pdf",))


@pytest.mark.usefixtures("fixed_metadata")
def test_the_print_comparison_can_fail(tmp_path: Path) -> None:
    """The GM's print shows Red's set-up: the two worlds' GM prints differ."""
    a, b = _worlds("unit_position", tmp_path)
    assert _print(a, "gm", ".pdf") != _print(b, "gm", ".pdf")


@pytest.mark.slow
@pytest.mark.usefixtures("fixed_metadata")
@pytest.mark.parametrize("case", sorted(PRINTED))
def test_every_secret_stays_off_the_other_sides_print(case: str, tmp_path: Path) -> None:
    _compare(case, tmp_path, (".pdf", ".svg"))
