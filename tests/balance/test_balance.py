"""``tk20 balance`` (issue 13): the interval maths, identical results whatever the number of
workers or where they run (local pool, a real Dask cluster), the summary fields, the option
sweep, the report and clear errors for bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from taistelukentta.bots.balance import (
    GameSpec,
    parse_option_sweep,
    play_game,
    run_games,
    spec_scenario,
    summarise,
    sweep_specs,
    wilson_interval,
)
from taistelukentta.cli.app import app
from taistelukentta.errors import ArgumentError, TkError
from taistelukentta.rules import new_game

# Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I,
# method 3 (Wilson score, no continuity correction), to 4 decimals.
NEWCOMBE = [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0000, 0.1611),
    (1, 29, 0.0061, 0.1718),
]


@pytest.mark.parametrize(("k", "n", "lo", "hi"), NEWCOMBE)
def test_wilson_interval_matches_the_published_table(k: int, n: int, lo: float, hi: float) -> None:
    got = wilson_interval(k, n)
    assert got[0] == pytest.approx(lo, abs=5e-5)
    assert got[1] == pytest.approx(hi, abs=5e-5)


def test_wilson_interval_edges() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(10, 10)
    assert hi == pytest.approx(1.0) and lo == pytest.approx(1 - wilson_interval(0, 10)[1])
    with pytest.raises(ValueError):
        wilson_interval(3, 2)


def test_one_game_is_fixed_by_its_seed_and_counts_what_it_reports() -> None:
    spec = GameSpec("demo")
    a, b, c = play_game(spec, 5), play_game(spec, 5), play_game(spec, 6)
    assert a == b
    assert a.state_hash != c.state_hash
    assert a.winner in ("blue", "red", "draw")
    scenario = spec_scenario(spec)
    units = {u.id: u for u in new_game(scenario, 5).units.values()}
    assert sum(n for _, _, n, _ in a.survivors) == len(units)
    assert all(0 <= left <= n for _, _, n, left in a.survivors)
    assert [oid for oid, _ in a.holders] == [o.id for o in scenario.objectives]


def _summary_of(results: list[Any]) -> dict[str, Any]:
    return summarise(GameSpec("demo"), results)


def test_summary_fields_and_arithmetic() -> None:
    spec = GameSpec("demo")
    results = run_games(spec, range(1, 7))
    s = summarise(spec, results)
    assert s["games"] == 6 and s["seeds"] == [1, 6]
    assert sum(s["wins"].values()) == 6
    assert s["blue_win_rate"] == round(s["wins"]["blue"] / 6, 4)
    lo, hi = wilson_interval(s["wins"]["blue"], 6)
    assert s["blue_win_interval"] == [round(lo, 4), round(hi, 4)]
    for side, i in (("blue", 0), ("red", 1)):
        dist = s["vp"][side]["distribution"]
        assert sum(dist.values()) == 6
        assert s["vp"][side]["mean"] == round(sum(r.vp[i] for r in results) / 6, 4)
    assert sum(s["rounds"]["distribution"].values()) == 6
    for holds in s["objectives"].values():
        assert sum(holds.values()) == pytest.approx(1.0, abs=1e-3)
    for side in ("blue", "red"):
        for v in s["survival"][side].values():
            assert 0 <= v["survived"] <= v["units"]


def test_results_are_the_same_in_a_process_pool_in_any_order() -> None:
    spec = GameSpec("demo")
    seeds = list(range(40, 44))
    one = run_games(spec, seeds, workers=1)
    seen: list[int] = []
    two = run_games(spec, seeds, workers=2, on_result=lambda r: seen.append(r.seed))
    assert sorted(seen) == seeds
    assert one == two
    assert summarise(spec, one) == summarise(spec, two)


@pytest.mark.slow
def test_results_are_the_same_on_a_dask_local_cluster() -> None:
    spec = GameSpec("demo")
    seeds = list(range(60, 64))
    assert run_games(spec, seeds, workers=2, local_cluster=True) == run_games(spec, seeds)


@pytest.mark.slow
def test_fifty_games_through_a_dask_scheduler_and_two_workers_started_here() -> None:
    import importlib

    dist: Any = importlib.import_module("distributed")
    runner = CliRunner()
    args = ["balance", "demo", "--games", "50", "--seed", "100", "--json"]
    local = runner.invoke(app, args)
    assert local.exit_code == 0, local.output
    with dist.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        remote = runner.invoke(app, [*args, "--scheduler", cluster.scheduler_address])
    assert remote.exit_code == 0, remote.output
    assert json.loads(remote.output) == json.loads(local.output)
    assert json.loads(local.output)["games"] == 50


def test_cli_json_has_the_issue_fields() -> None:
    r = CliRunner().invoke(app, ["balance", "demo", "--games", "3", "--seed", "7", "--json"])
    assert r.exit_code == 0, r.output
    s = json.loads(r.output)
    for key in (
        "games",
        "wins",
        "blue_win_rate",
        "blue_win_interval",
        "vp",
        "rounds",
        "survival",
        "objectives",
    ):
        assert key in s
    assert set(s["wins"]) == {"blue", "red", "draw"}
    assert s["seeds"] == [7, 9]
    assert s == summarise(GameSpec("demo"), run_games(GameSpec("demo"), [7, 8, 9]))


def test_option_sweep_runs_each_value() -> None:
    sweep = parse_option_sweep(["kp_red_per_group=1,3"])
    assert sweep == [("kp_red_per_group", [1, 3])]
    specs = sweep_specs(GameSpec("demo"), sweep)
    assert [s.options for s in specs] == [
        (("kp_red_per_group", 1),),
        (("kp_red_per_group", 3),),
    ]
    assert spec_scenario(specs[0]).options.kp_red_per_group == 1
    assert spec_scenario(specs[1]).options.kp_red_per_group == 3
    r = CliRunner().invoke(
        app,
        ["balance", "demo", "--games", "2", "--option", "kp_red_per_group=1,3", "--json"],
    )
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)["sweep"]
    assert [s["options"] for s in out] == [{"kp_red_per_group": 1}, {"kp_red_per_group": 3}]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--blue", "grandmaster"], "grandmaster"),
        (["--option", "no_such_option=1"], "no_such_option"),
        (["--option", "kp_red_per_group=lots"], "lots"),
        (["--option", "kp_red_per_group"], "NAME=V1"),
    ],
)
def test_bad_input_is_a_clear_error(args: list[str], needle: str) -> None:
    r = CliRunner().invoke(app, ["--lang", "en", "balance", "demo", "--games", "1", *args])
    assert r.exit_code == 2
    assert needle in r.output
    assert "Traceback" not in r.output


def test_unknown_scenario_is_a_clear_error() -> None:
    with pytest.raises(TkError):
        spec_scenario(GameSpec("no_such_scenario"))
    with pytest.raises(ArgumentError):
        run_games(GameSpec("demo"), [1], workers=0)


def test_report_writes_the_page_and_plots(tmp_path: Path) -> None:
    out = tmp_path / "rep"
    r = CliRunner().invoke(app, ["balance", "demo", "--games", "3", "--report", str(out)])
    assert r.exit_code == 0, r.output
    page = (out / "index.html").read_text(encoding="utf-8")
    for name in ("vp_0.png", "win_rate_0.png", "survival_0.png", "objectives_0.png"):
        assert (out / name).stat().st_size > 1000
        assert name in page
    assert json.loads((out / "summary.json").read_text(encoding="utf-8"))[0]["games"] == 3
