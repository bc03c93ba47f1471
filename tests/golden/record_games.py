"""Record the games of ``tests/golden/recorded/`` (run once, from the engine they pin).

    python -m tests.golden.record_games

Each file is one game: what today's game file stores to replay it (``format``/``version``
of the game file, scenario, seed, the orders in notation with their seats), the rule
options changed from the scenario's (``options``; for a scenario built in code its whole
data as ``scenario_data``), the dice scheme the game was played with, and the state hash
after every order. :mod:`tests.golden.test_recorded_games` replays each from seed + orders
through the public engine API and compares every hash.

The files pin the behaviour of the engine at the time they were recorded: re-running this
script after a change to the rules would only pin the changed behaviour, so do it only for a
deliberate, documented rule change (and say so in the commit).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

from taistelukentta.bots.baseline import BaselineBot
from taistelukentta.bots.runner import bot_seed, run_bots
from taistelukentta.content.loader import parse_toml
from taistelukentta.content.scenario import Scenario, scenario_from_data, scenarios_dir
from taistelukentta.rules import (
    SIDES,
    GameState,
    Order,
    OrderKind,
    apply,
    format_order,
    new_game,
    next_seat,
)
from taistelukentta.rules import legal_orders as engine_legal_orders
from taistelukentta.rules.ruleset import default_ruleset
from taistelukentta.storage.gamefile import FORMAT, VERSION
from tests.simulation.test_random_games import exposed_co_data

HERE = Path(__file__).parent / "recorded"

DICE_SCHEME = "mt19937-v1"
"""The dice of today's games: one ``random.Random(seed)`` per game (Python's Mersenne
Twister), its state carried in the game state (``roller``, state version 1). A game file of
format version 1 carries no scheme field; this is the scheme it implies."""

VARIANTS: dict[str, Any] = {
    "natural20_miss": "morale_penalty",
    "damaged_firepower": "halve",
    "morale_retreat_at": 5,
    "hidden_radius": 5,
    "recon_use_stealth": False,
    "red_separate_pools": True,
    "scatter": "2d4_d8_bullseye",
    "mine_triggers_immediately": True,
    "opposed_tie": "active",
    "off_board_delay": "by_calibre",
}
"""Rule options set to their variants in some of the recorded games."""


def scenario_for(
    name: str | None, options: dict[str, Any], data: dict[str, Any] | None = None
) -> Scenario:
    """The scenario of a recorded game: bundled ``name`` (or ``data``) with ``options``
    laid over its own ``[options]`` table."""
    if data is None:
        assert name is not None
        path = scenarios_dir() / f"{name}.toml"
        text = path.read_text(encoding="utf-8")
        data = parse_toml(text, str(path))
        base_dir: Path | None = path.parent
        default_id = name
    else:
        data = json.loads(json.dumps(data))
        base_dir = None
        default_id = "scenario"
    data["options"] = {**data.get("options", {}), **options}
    return scenario_from_data(
        data, source=name or "<recorded>", base_dir=base_dir, default_id=default_id
    )


def _random_order(st: GameState, seat: str, rng: random.Random) -> Order:
    orders = engine_legal_orders(st, seat, recon_cells=rng.random() < 0.25)
    if len(orders) == 1 or rng.random() < 0.2:
        return orders[-1]
    by_kind: dict[OrderKind, list[Order]] = {}
    for o in orders[:-1]:
        by_kind.setdefault(o.kind, []).append(o)
    kind = rng.choice(sorted(by_kind))
    return rng.choice(by_kind[kind])


def play(sc: Scenario, seed: int, driver: str, cap: int) -> list[tuple[str, Order]]:
    """The orders of one game: the baseline bots on both sides, or random legal orders."""
    st = new_game(sc, seed)
    if driver == "bots":
        bots = {s: BaselineBot(bot_seed(seed, s)) for s in SIDES}
        _, played = run_bots(st, bots)
        return [(p.seat, p.order) for p in played]
    rng = random.Random(int(driver.split(":")[1]))
    out: list[tuple[str, Order]] = []
    while not st.finished and len(out) < cap:
        seat = next_seat(st)
        assert seat is not None
        order = _random_order(st, seat, rng)
        st, _ = apply(st, seat, order)
        out.append((seat, order))
    return out


def record(
    name: str,
    *,
    scenario: str | None,
    seed: int,
    driver: str,
    options: dict[str, Any] | None = None,
    data: dict[str, Any] | None = None,
    cap: int = 10_000,
    kinds: Counter[str],
) -> int:
    opts = options or {}
    sc = scenario_for(scenario, opts, data)
    played = play(sc, seed, driver, cap)
    st = new_game(sc, seed)
    hashes = [st.state_hash()]
    orders: list[list[str]] = []
    for seat, order in played:
        st, _ = apply(st, seat, order)
        hashes.append(st.state_hash())
        orders.append([seat, format_order(order)])
        kinds[order.kind.value] += 1
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "dice": DICE_SCHEME,
        "scenario": scenario,
        "scenario_data": data,
        "options": opts,
        "seed": seed,
        "driver": driver,
        "finished": st.finished,
        "orders": orders,
        "hashes": hashes,
    }
    HERE.mkdir(exist_ok=True)
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    (HERE / f"{name}.json").write_text(text + "\n", encoding="utf-8")
    return len(orders)


def main() -> None:
    kinds: Counter[str] = Counter()
    total = 0
    for seed in range(1, 13):
        total += record(f"demo-bots-{seed}", scenario="demo", seed=seed, driver="bots", kinds=kinds)
    for seed in (1, 2):
        total += record(
            f"terasvalli-bots-{seed}", scenario="terasvalli", seed=seed, driver="bots", kinds=kinds
        )
    for seed in (13, 14):
        total += record(
            f"demo-bots-variants-{seed}",
            scenario="demo",
            seed=seed,
            driver="bots",
            options=VARIANTS,
            kinds=kinds,
        )
    total += record(
        "terasvalli-bots-variants-3",
        scenario="terasvalli",
        seed=3,
        driver="bots",
        options=VARIANTS,
        kinds=kinds,
    )
    for seed in (21, 22, 23):
        total += record(
            f"demo-random-{seed}",
            scenario="demo",
            seed=seed,
            driver=f"random:{seed}",
            cap=200,
            kinds=kinds,
        )
    total += record(
        "demo-random-variants-24",
        scenario="demo",
        seed=24,
        driver="random:24",
        options=VARIANTS,
        cap=200,
        kinds=kinds,
    )
    for seed in (31, 32, 33):
        total += record(
            f"terasvalli-random-{seed}",
            scenario="terasvalli",
            seed=seed,
            driver=f"random:{seed}",
            cap=250,
            kinds=kinds,
        )
    for v in range(8):
        total += record(
            f"exposed-random-{v}",
            scenario=None,
            data=exposed_co_data(v),
            seed=100 + v,
            driver=f"random:{100 + v}",
            cap=120,
            kinds=kinds,
        )
    missing = [k.value for k in default_ruleset().vocabulary.kinds if kinds[k.value] == 0]
    print(f"{total} orders; kinds: {dict(sorted(kinds.items()))}")
    if missing:
        raise SystemExit(f"order kinds never played: {missing}")


if __name__ == "__main__":
    main()
