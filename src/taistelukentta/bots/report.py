"""The HTML report of ``tk20 balance --report DIR``: the summary as tables and four plots
(matplotlib, written as PNG files beside ``index.html``): the VP histogram per side, Blue's
win rate as the games accumulate with its 95 % Wilson band, survival per unit type, and each
objective's hold rate on the scenario map."""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from taistelukentta.bots.balance import GameResult, wilson_interval
from taistelukentta.content.scenario import Scenario

SIDE_COLOURS = {"blue": "#1f5fbf", "red": "#c0392b"}


def write_report(
    folder: Path, runs: Sequence[tuple[dict[str, Any], Scenario, Sequence[GameResult]]]
) -> Path:
    """Write ``index.html`` and its plots into ``folder`` (created if missing); one section
    per run (one per value of a swept option). Returns the path of ``index.html``."""
    import matplotlib

    matplotlib.use("Agg")
    folder.mkdir(parents=True, exist_ok=True)
    sections = []
    for i, (summary, scenario, results) in enumerate(runs):
        plots = [
            _vp_histogram(folder / f"vp_{i}.png", summary),
            _win_rate(folder / f"win_rate_{i}.png", results),
            _survival(folder / f"survival_{i}.png", summary),
            _objective_map(folder / f"objectives_{i}.png", summary, scenario),
        ]
        sections.append(_section(summary, [p.name for p in plots]))
    first = runs[0][0]
    title = f"tk20 balance: {html.escape(str(first['scenario']))}"
    page = (
        "<!doctype html>\n<html lang='en'><head><meta charset='utf-8'>"
        f"<title>{title}</title><style>"
        "body{font-family:sans-serif;max-width:70em;margin:1em auto;padding:0 1em}"
        "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #bbb;"
        "padding:.2em .5em;text-align:right}th{background:#eee}"
        "img{max-width:48%;margin:.5%;border:1px solid #ddd}</style></head><body>"
        f"<h1>{title}</h1>" + "".join(sections) + "</body></html>\n"
    )
    index = folder / "index.html"
    index.write_text(page, encoding="utf-8")
    (folder / "summary.json").write_text(
        json.dumps([r[0] for r in runs], ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    return index


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def _section(s: dict[str, Any], images: list[str]) -> str:
    e = html.escape
    opts = ", ".join(f"{k}={v}" for k, v in s["options"].items()) or "scenario's own"
    lo, hi = s["blue_win_interval"]
    rlo, rhi = s["red_win_interval"]
    rows = [
        ("games", str(s["games"])),
        ("seeds", f"{s['seeds'][0]}…{s['seeds'][1]}" if s["seeds"] else "–"),
        ("Blue bot / Red bot", f"{s['blue_bot']} / {s['red_bot']}"),
        (
            "Blue wins",
            f"{s['wins']['blue']} ({_pct(s['blue_win_rate'])}; 95 %: {_pct(lo)}–{_pct(hi)})",
        ),
        (
            "Red wins",
            f"{s['wins']['red']} ({_pct(s['red_win_rate'])}; 95 %: {_pct(rlo)}–{_pct(rhi)})",
        ),
        ("draws", str(s["wins"]["draw"])),
        ("VP mean Blue / Red", f"{s['vp']['blue']['mean']:.2f} / {s['vp']['red']['mean']:.2f}"),
        ("rounds mean", f"{s['rounds']['mean']:.2f}"),
    ]
    body = "".join(f"<tr><th>{e(k)}</th><td>{e(v)}</td></tr>" for k, v in rows)
    obj = "".join(
        f"<tr><th>{e(oid)}</th><td>{_pct(h['blue'])}</td><td>{_pct(h['red'])}</td>"
        f"<td>{_pct(h['none'])}</td></tr>"
        for oid, h in s["objectives"].items()
    )
    surv = "".join(
        f"<tr><th>{e(card)} ({side})</th><td>{v['units']}</td><td>{v['survived']}</td>"
        f"<td>{_pct(v['rate'])}</td></tr>"
        for side in ("blue", "red")
        for card, v in s["survival"][side].items()
    )
    imgs = "".join(f"<img src='{e(name)}' alt='{e(name)}'>" for name in images)
    return (
        f"<h2>options: {e(opts)}</h2><table>{body}</table>"
        "<h3>objectives held at the end</h3><table><tr><th></th><th>Blue</th><th>Red</th>"
        f"<th>contested</th></tr>{obj}</table>"
        "<h3>survival per unit type</h3><table><tr><th></th><th>units</th><th>survived</th>"
        f"<th>rate</th></tr>{surv}</table>{imgs}"
    )


def _vp_histogram(path: Path, s: dict[str, Any]) -> Path:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    width = 0.4
    for k, side in enumerate(("blue", "red")):
        dist = {int(v): n for v, n in s["vp"][side]["distribution"].items()}
        xs = sorted(dist)
        ax.bar(
            [x + (k - 0.5) * width for x in xs],
            [dist[x] for x in xs],
            width=width,
            color=SIDE_COLOURS[side],
            label=side,
        )
    ax.set_xlabel("victory points")
    ax.set_ylabel("games")
    ax.set_title("VP per side")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def _win_rate(path: Path, results: Sequence[GameResult]) -> Path:
    import matplotlib.pyplot as plt

    ordered = sorted(results, key=lambda r: r.seed)
    xs, rate, lo, hi = [], [], [], []
    wins = 0
    for n, r in enumerate(ordered, start=1):
        wins += r.winner == "blue"
        a, b = wilson_interval(wins, n)
        xs.append(n)
        rate.append(wins / n)
        lo.append(a)
        hi.append(b)
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.fill_between(xs, lo, hi, color=SIDE_COLOURS["blue"], alpha=0.2, label="95 % interval")
    ax.plot(xs, rate, color=SIDE_COLOURS["blue"], label="Blue win rate")
    ax.set_ylim(0, 1)
    ax.set_xlabel("games")
    ax.set_ylabel("Blue win rate")
    ax.set_title("Blue win rate as games accumulate")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def _survival(path: Path, s: dict[str, Any]) -> Path:
    import matplotlib.pyplot as plt

    labels: list[str] = []
    rates: list[float] = []
    colours: list[str] = []
    for side in ("blue", "red"):
        for card, v in s["survival"][side].items():
            labels.append(card)
            rates.append(float(v["rate"]))
            colours.append(SIDE_COLOURS[side])
    fig, ax = plt.subplots(figsize=(6, 0.4 * max(3, len(labels)) + 1))
    ax.barh(range(len(labels)), rates, color=colours)
    ax.set_yticks(range(len(labels)), labels)
    ax.set_xlim(0, 1)
    ax.invert_yaxis()
    ax.set_xlabel("share of units alive at the end")
    ax.set_title("Survival per unit type (blue / red)")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def _objective_map(path: Path, s: dict[str, Any], scenario: Scenario) -> Path:
    """The map's elevation in grey, each objective's cells coloured by who held it at the
    end: blue share minus red share (−1 red … +1 blue)."""
    import matplotlib.pyplot as plt
    import numpy as np

    gm = scenario.map
    heat = np.full((gm.height, gm.width), np.nan)
    for obj in scenario.objectives:
        h = s["objectives"].get(obj.id)
        if h is None:
            continue
        for x, y in obj.cells:
            heat[int(y), int(x)] = h["blue"] - h["red"]
    fig, ax = plt.subplots(figsize=(6, 6 * gm.height / max(gm.width, 1) + 0.6))
    ax.imshow(np.asarray(gm.elevation, dtype=float), cmap="Greys", alpha=0.5, origin="upper")
    im = ax.imshow(heat, cmap="coolwarm_r", vmin=-1, vmax=1, origin="upper")
    for obj in scenario.objectives:
        xs = [int(c[0]) for c in obj.cells]
        ys = [int(c[1]) for c in obj.cells]
        ax.annotate(obj.id, (sum(xs) / len(xs), min(ys) - 0.8), ha="center", fontsize=8)
    fig.colorbar(im, ax=ax, label="held: red (−1) … blue (+1)", shrink=0.7)
    ax.set_title("Objectives held at the end")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path
