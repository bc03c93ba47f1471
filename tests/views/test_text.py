"""Every event kind the engine and the rule modules emit has a line of text (views/text.py),
in Finnish and in English, for every viewer's redacted copy."""

from __future__ import annotations

import ast
import random
from functools import lru_cache
from pathlib import Path

import pytest

import taistelukentta.rules as rules_pkg
from taistelukentta.bots import BaselineBot
from taistelukentta.bots.runner import bot_seed, run_bots
from taistelukentta.content.scenario import load_scenario
from taistelukentta.i18n import get_language, set_language
from taistelukentta.rules import apply, legal_orders, new_game
from taistelukentta.rules.state import SIDES, Side
from taistelukentta.views import redact
from taistelukentta.views.text import EVENT_KINDS, describe

RULES_DIR = Path(rules_pkg.__file__).parent
_EMITTERS = ("emit", "unit_event", "_own_event")


def _kind_param(tree: ast.Module, name: str) -> int | None:
    """Index of the ``kind`` parameter of a module-level helper ``name`` (e.g. _own_event)."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            names = [a.arg for a in node.args.args]
            return names.index("kind") if "kind" in names else None
    return None


def _strings(node: ast.AST) -> set[str]:
    return {
        n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }


def source_event_kinds() -> dict[str, str]:
    """Event kinds found in the rules source: kind -> where (file:line)."""
    found: dict[str, str] = {}
    for path in sorted(RULES_DIR.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        own = _kind_param(tree, "_own_event")
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for call in ast.walk(func):
                if not isinstance(call, ast.Call):
                    continue
                fn = call.func
                name = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", None)
                if name not in _EMITTERS:
                    continue
                index = 0 if name != "_own_event" else own
                if index is None or len(call.args) <= index:
                    continue
                arg = call.args[index]
                kinds: set[str] = set()
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    kinds = {arg.value}
                elif isinstance(arg, ast.Name):
                    # a local ``kind = "a" if … else "b"``; a parameter is resolved at the caller
                    for stmt in ast.walk(func):
                        if isinstance(stmt, ast.Assign) and any(
                            isinstance(t, ast.Name) and t.id == arg.id for t in stmt.targets
                        ):
                            kinds |= _strings(stmt.value)
                for k in kinds:
                    found.setdefault(k, f"{path.name}:{call.lineno}")
    return found


def test_r_rec_5_source_scan_finds_module_events() -> None:
    kinds = source_event_kinds()
    # the scan itself works: engine, company, fire support, mines and abilities kinds
    for k in ("attack", "kp_transfer", "strike_ordered", "mine_found", "mine_rush", "hidden"):
        assert k in kinds, k


def test_r_rec_5_every_emitted_kind_in_source_has_a_text() -> None:
    missing = {k: where for k, where in source_event_kinds().items() if k not in EVENT_KINDS}
    assert not missing, f"event kinds without a text in views/text.py: {missing}"


@lru_cache(maxsize=8)
def _played(scenario: str, seed: int) -> tuple[object, ...]:
    scen = load_scenario(scenario)
    state = new_game(scen, seed)
    bots: dict[Side, BaselineBot] = {s: BaselineBot(bot_seed(seed, s)) for s in SIDES}
    _, played = run_bots(state, bots)
    events = list(state.events)
    for p in played:
        state, evs = apply(state, p.seat, p.order)
        events.extend(evs)
    return (scen, tuple(events))


@pytest.mark.parametrize(("scenario", "seed"), [("demo", 1), ("demo", 2), ("terasvalli", 3)])
@pytest.mark.parametrize("lang", ["fi", "en"])
def test_r_rec_5_every_event_of_a_bot_game_has_a_text(scenario: str, seed: int, lang: str) -> None:
    scen, events = _played(scenario, seed)
    before = get_language()
    set_language(lang)
    try:
        seen: set[str] = set()
        for viewer in ("blue", "red", "gm"):
            for e in redact(events, viewer, scen):  # type: ignore[arg-type]
                seen.add(e["kind"])
                assert e["kind"] in EVENT_KINDS, f"{e['kind']} has no text"
                line = describe(e)
                if e["kind"] in ("seat_done", "turn_ended"):
                    continue
                assert line, e
                assert not line.startswith(f"{e['kind']}: "), line  # not the raw fallback
                assert "None" not in line, (viewer, e, line)
        assert {"attack", "move", "contact"} <= seen
    finally:
        set_language(before)


def test_r_rec_5_module_event_texts_fi_en() -> None:
    samples = [
        {"kind": "kp_transfer", "data": {"from": "co", "to": "pl1", "kp": 4}},
        {
            "kind": "strike_ordered",
            "data": {"kind": "off_board", "weapon": "k9", "cell": [3, 4], "observer": "KP"},
        },
        {"kind": "mine_found", "data": {"unit": "KP", "cell": [10, 11], "type": "AP"}},
        {"kind": "tactic", "data": {"tactic": "motti", "cell": [5, 5], "radius": 10, "dc": 13}},
        {"kind": "status", "data": {"unit": "1R1", "status": "IMMOBILISED", "on": True}},
    ]
    before = get_language()
    try:
        set_language("fi")
        fi = [describe(s) for s in samples]
        set_language("en")
        en = [describe(s) for s in samples]
    finally:
        set_language(before)
    assert fi[0] == "co siirsi 1 KP paikalle pl1 (nyt 4)"
    assert en[1] == "Fire request: K9 on 3,4, observer KP"
    assert "Jalkaväkimiinoite" in str(fi[2]) and "10,11" in str(fi[2])
    assert "Mottitaktiikka" in str(fi[3])
    assert en[4] == "1R1 is now Immobilised"


_BASE_KINDS = frozenset(
    {"move", "defend", "attack", "disengage", "withdraw", "rally", "recon", "fire", "done"}
)


@lru_cache(maxsize=8)
def _random_played(scenario: str, seed: int, orders: int) -> tuple[object, ...]:
    """A game of random legal orders that prefers the rule modules' order kinds (company,
    fire support, mines, abilities), to make their events happen."""
    rng = random.Random(seed)
    scen = load_scenario(scenario)
    state = new_game(scen, seed)
    events = list(state.events)
    for _ in range(orders):
        if state.finished:
            break
        seat = next(s for s in state.seats(state.active) if s not in state.done)
        legal = legal_orders(state, seat, recon_cells=False)
        special = [o for o in legal if o.kind.value not in _BASE_KINDS]
        pool = special if special and rng.random() < 0.6 else legal
        state, evs = apply(state, seat, rng.choice(pool))
        events.extend(evs)
    return (scen, tuple(events))


@pytest.mark.parametrize(
    ("scenario", "seed"),
    [("demo", 5), ("demo", 6), pytest.param("terasvalli", 7, marks=pytest.mark.slow)],
)
def test_r_rec_5_every_event_of_a_random_game_has_a_text(scenario: str, seed: int) -> None:
    scen, events = _random_played(scenario, seed, 400)
    for viewer in ("blue", "red", "gm"):
        for e in redact(events, viewer, scen):  # type: ignore[arg-type]
            assert e["kind"] in EVENT_KINDS, f"{e['kind']} has no text"
            line = describe(e)
            if e["kind"] in ("seat_done", "turn_ended"):
                continue
            assert line and not line.startswith(f"{e['kind']}: "), (viewer, e, line)
