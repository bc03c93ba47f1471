"""Per-side views (R-REC-5 fog of war, R-DICE-6 secret rolls)."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from taistelukentta.bots import BaselineBot
from taistelukentta.bots.runner import bot_seed, run_bots
from taistelukentta.content.scenario import Scenario, load_scenario
from taistelukentta.errors import ArgumentError
from taistelukentta.rules import Event, GameState, apply, legal_orders, new_game
from taistelukentta.rules.context import cache_for
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.state import SIDES, Contact, Side, contact_area
from taistelukentta.views import redact, view_for
from tests.views.fog_check import FogTracker, leaks, module_leaks, view_text


def _side(name: str) -> Side:
    assert name in SIDES
    return "blue" if name == "blue" else "red"


@lru_cache(maxsize=4)
def _scenario(name: str) -> Scenario:
    return load_scenario(name)


def _check_game(
    scenario: str, seed: int, viewers: dict[str, str], every: int, max_orders: int | None = None
) -> int:
    """Play a bot game and check the views of ``viewers`` (viewer -> side) every
    ``every`` orders. Returns how many secrets were searched for."""
    scen = _scenario(scenario)
    start = new_game(scen, seed)
    bots: dict[Side, BaselineBot] = {s: BaselineBot(bot_seed(seed, s)) for s in SIDES}
    _, played = run_bots(start, bots)
    trackers = {v: FogTracker(_side(side)) for v, side in viewers.items()}
    for t in trackers.values():
        t.start(start)
    state = start
    searched = 0
    for n, p in enumerate(played[:max_orders], start=1):
        state, events = apply(state, p.seat, p.order)
        for viewer, t in trackers.items():
            t.feed(events)
            if n % every and n != len(played):
                continue
            ids, cells = t.secrets(state)
            searched += len(ids) + len(cells)
            view = view_for(state, viewer).model_dump(mode="json")
            found = leaks(view_text(view), ids, cells) + module_leaks(state, t, view)
            assert not found, f"{scenario} seed {seed} order {n}: {viewer} view leaks {found}"
    return searched


@pytest.mark.parametrize(
    "seed", [1, *(pytest.param(s, marks=pytest.mark.slow) for s in (2, 3, 4))]
)  # more seeds are more samples of the same check: the fast tier plays one
def test_r_rec_5_blue_view_never_shows_uncontacted_red_demo(seed: int) -> None:
    searched = _check_game("demo", seed, {"blue": "blue", "red": "red", "pl2": "blue"}, every=2)
    assert searched > 50  # the check had secrets to look for


def test_r_rec_5_blue_view_never_shows_uncontacted_red_terasvalli() -> None:
    searched = _check_game("terasvalli", 5, {"blue": "blue", "red": "red"}, every=6, max_orders=240)
    assert searched > 100


@pytest.mark.slow
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10_000), picks=st.randoms(use_true_random=False))
def test_r_rec_5_random_play_never_leaks(seed: int, picks: random.Random) -> None:
    """Random legal orders (not the bot's sensible ones): the views still keep the fog."""
    scen = _scenario("demo")
    state = new_game(scen, seed)
    trackers = {"blue": FogTracker("blue"), "red": FogTracker("red")}
    for t in trackers.values():
        t.start(state)
    for n in range(60):
        if state.finished:
            break
        seat = next(s for s in state.seats(state.active) if s not in state.done)
        orders = legal_orders(state, seat, recon_cells=n % 7 == 0)
        order = picks.choice(orders) if picks.random() < 0.8 else orders[-1]
        state, events = apply(state, seat, order)
        for side, t in trackers.items():
            t.feed(events)
            ids, cells = t.secrets(state)
            view = view_for(state, side).model_dump(mode="json")
            assert not leaks(view_text(view), ids, cells)
            assert not module_leaks(state, t, view)


def test_r_rec_5_view_keys_and_json_safe() -> None:
    state = new_game(_scenario("demo"), 3)
    for viewer in ("blue", "red", "gm", "co", "pl1"):
        v = view_for(state, viewer).model_dump(mode="json")
        assert json.loads(json.dumps(v)) == v
        for key in ("turn", "phase", "active_side", "units", "contacts", "command_points", "log"):
            assert key in v, (viewer, key)
        assert "victory_points" not in v
        for u in v["units"]:
            for key in ("id", "side", "cell", "strength", "max_strength", "statuses"):
                assert key in u


def test_r_rec_5_seat_view_marks_its_units_and_kp() -> None:
    state = new_game(_scenario("demo"), 3)
    v = view_for(state, "pl1").model_dump(mode="json")
    assert v["side"] == "blue" and v["seat"] == "pl1"
    mine = {u["id"] for u in v["units"] if u.get("commanded")}
    assert mine == {u.id for u in state.units.values() if u.seat == "pl1"}
    assert v["seat_command_points"] == state.kp["pl1"]
    assert set(v["command_points"]) == set(state.seats("blue"))


def test_r_rec_5_gm_sees_everything() -> None:
    state = new_game(_scenario("demo"), 3)
    v = view_for(state, "gm").model_dump(mode="json")
    assert {u["id"] for u in v["units"]} == set(state.units)
    assert set(v["contacts"]) == {"blue", "red"}
    assert len(v["log"]) == len(state.events)
    blue = view_for(state, "blue").model_dump(mode="json")
    assert not any(u["side"] == "red" for u in blue["units"])


def test_r_rec_5_unknown_viewer_is_an_error() -> None:
    state = new_game(_scenario("demo"), 3)
    with pytest.raises(ArgumentError, match="pl9"):
        view_for(state, "pl9")


def _with_contact(state: GameState, uid: str, level: ContactLevel) -> GameState:
    unit = state.units[uid]
    c = Contact(
        label="c9",
        level=level,
        cell=unit.cell if level == ContactLevel.SPOTTED else None,
        area=contact_area(unit.cell, level),
        card=unit.card if level >= ContactLevel.KNOWN else None,
    )
    contacts: dict[Side, dict[str, Contact]] = {"blue": {uid: c}, "red": {}}
    return replace(state, contacts=contacts)


@pytest.mark.parametrize("level", [ContactLevel.SUSPECTED, ContactLevel.KNOWN])
def test_r_rec_5_known_and_suspected_show_only_an_area(level: ContactLevel) -> None:
    state = _with_contact(new_game(_scenario("demo"), 3), "R13", level)
    v = view_for(state, "blue", log_limit=0).model_dump(mode="json")
    (c,) = v["contacts"]
    assert c["level"] == level.code and "cell" not in c and "unit" not in c
    assert len(c["area"]) == 3
    assert ("card" in c) == (level == ContactLevel.KNOWN)
    cell = state.units["R13"].cell
    text = json.dumps(v)
    assert "R13" not in text and f"[{cell[0]}, {cell[1]}]" not in text
    assert not any(u["side"] == "red" for u in v["units"])


def test_r_rec_5_spotted_shows_the_unit() -> None:
    state = _with_contact(new_game(_scenario("demo"), 3), "R13", ContactLevel.SPOTTED)
    v = view_for(state, "blue", log_limit=0).model_dump(mode="json")
    (red,) = [u for u in v["units"] if u["side"] == "red"]
    assert red["id"] == "R13" and tuple(red["cell"]) == state.units["R13"].cell
    assert "weapon" not in red  # an enemy's orders state and weapon stay hidden


def _event(rolls: list[dict[str, object]], **data: object) -> Event:
    full = {**data, "rolls": rolls}
    return Event(1, "attack", full, {"blue": dict(full), "red": dict(full)})


def test_r_dice_6_secret_rolls_only_for_the_gm() -> None:
    rolls = [
        {"seq": 1, "purpose": "delay", "secret": True, "total": 3},
        {"seq": 2, "purpose": "fire", "secret": False, "total": 11},
    ]
    ev = _event(rolls, attacker="1R1", target="R13")
    (blue,) = redact([ev], "blue")
    assert [r["seq"] for r in blue["data"]["rolls"]] == [2]
    (gm,) = redact([ev], "gm")
    assert [r["seq"] for r in gm["data"]["rolls"]] == [1, 2]


def test_r_rec_5_redact_scrubs_unseen_ids_from_free_text() -> None:
    scen = _scenario("demo")
    rolls = [{"seq": 1, "purpose": "fire:R14>1R3", "secret": False}]
    ev = Event(
        1,
        "morale",
        {"unit": "1R3", "reason": "fire:R14", "rolls": rolls},
        {"blue": {"unit": "1R3", "reason": "fire:R14", "rolls": rolls}, "red": None},
    )
    (seen,) = redact([ev], "blue", scen)
    assert seen["data"]["reason"] == "fire:?"
    assert seen["data"]["rolls"][0]["purpose"] == "fire:?>1R3"
    assert redact([ev], "red", scen) == []
    # named in the event (the engine names only SPOTTED units): kept
    ev2 = Event(2, "damage", {"unit": "R14"}, {"blue": {"unit": "R14", "reason": "fire:R14"}})
    assert redact([ev2], "blue", scen)[0]["data"]["reason"] == "fire:R14"
    # the seed is the game master's
    ev3 = Event(3, "game_started", {"seed": 5}, {"blue": {"seed": 5, "scenario": "demo"}})
    assert "seed" not in redact([ev3], "blue", scen)[0]["data"]


def test_r_turn_2_victory_points_once_over() -> None:
    state = new_game(_scenario("demo"), 2)
    bots: dict[Side, BaselineBot] = {s: BaselineBot(bot_seed(2, s)) for s in SIDES}
    end, _ = run_bots(state, bots)
    assert end.finished
    for viewer in ("blue", "red", "gm"):
        v = view_for(end, viewer, log_limit=0)
        assert v.victory_points == dict(end.vp or {})
        assert v.winner == end.winner


_BASE_KINDS = frozenset(
    {"move", "defend", "attack", "disengage", "withdraw", "rally", "recon", "fire", "done"}
)


@pytest.mark.parametrize(
    ("scenario", "seed", "n_orders"),
    [("demo", 21, 150), pytest.param("terasvalli", 22, 150, marks=pytest.mark.slow)],
)
def test_r_rec_5_module_orders_never_leak(scenario: str, seed: int, n_orders: int) -> None:
    """Random play that prefers the rule modules' orders (strikes, mines, tactics,
    abilities): no side's view shows an enemy id or cell without contact, an enemy pending
    strike, its own strike's delay, a mined cell it never learnt or a secret roll."""
    rng = random.Random(seed)
    state = new_game(_scenario(scenario), seed)
    trackers = {"blue": FogTracker("blue"), "red": FogTracker("red")}
    for t in trackers.values():
        t.start(state)
    strikes = 0
    for _ in range(n_orders):
        if state.finished:
            break
        seat = next(s for s in state.seats(state.active) if s not in state.done)
        orders = legal_orders(state, seat, recon_cells=False)
        special = [o for o in orders if o.kind.value not in _BASE_KINDS]
        pool = special if special and rng.random() < 0.6 else orders
        state, events = apply(state, seat, rng.choice(pool))
        strikes += sum(e.kind == "strike_ordered" for e in events)
        for side, t in trackers.items():
            t.feed(events)
            ids, cells = t.secrets(state)
            view = view_for(state, side).model_dump(mode="json")
            found = leaks(view_text(view), ids, cells) + module_leaks(state, t, view)
            assert not found, found
    assert strikes > 0  # the check had pending strikes to look at


def test_r_rec_5_module_leak_check_can_fail() -> None:
    """The checker itself finds planted leaks (else the tests above could never fail)."""
    state = new_game(_scenario("demo"), 11)
    tracker = FogTracker("blue")
    tracker.start(state)
    view = view_for(state, "blue").model_dump(mode="json")
    assert module_leaks(state, tracker, view) == []
    gm = view_for(state, "gm").model_dump(mode="json")
    planted = {
        **view,
        "mines": gm["mines"],
        "fire_support": {"pending": [{"id": "s9", "due": 3}]},
        "log": [{"data": {"rolls": [{"secret": True, "total": 4}]}}],
    }
    found = " ".join(module_leaks(state, tracker, planted))
    for needle in ("minefield list", "enemy pending strike", "['due']", "secret roll"):
        assert needle in found, needle


@pytest.mark.parametrize("viewer", ["blue", "red", "gm", "pl1"])
def test_r_rec_5_shared_view_same_content(viewer: str) -> None:
    """Views share their (immutable) unit models between calls: ``view_for`` answers the
    same as a view built with every memo empty, through a game in which units change, and
    nobody can change a shared part."""
    scen = _scenario("demo")
    start = new_game(scen, 5)
    bots: dict[Side, BaselineBot] = {s: BaselineBot(bot_seed(5, s)) for s in SIDES}
    _, played = run_bots(start, bots)
    state = start
    for n, p in enumerate(played[:60]):
        state, _ = apply(state, p.seat, p.order)
        if n % 7:
            continue
        shared = view_for(state, viewer, log_limit=0, shared=True)
        cache_for(state).memo("views.units").clear()
        fresh = view_for(state, viewer, log_limit=0)
        assert shared == fresh
        unit = fresh.units[0]
        with pytest.raises(ValidationError):
            unit.strength = 0  # type: ignore[misc]
        with pytest.raises(AttributeError):
            unit.cell.append(99)  # type: ignore[attr-defined]


def test_view_memos_live_with_their_scenario_object() -> None:
    """The views' memos are kept with the scenario object (issue 7: no module-global memo
    keyed by ``id()``): a copy of a scenario (which shares the copied store) with another
    title and objectives is shown with its own, before and after the original is shown."""
    scen = _scenario("demo")
    first = view_for(new_game(scen, 5), "blue", log_limit=0)
    renamed = scen.model_copy(
        update={
            "title": scen.title.model_copy(update={"fi": "Toinen", "en": "Another"}),
            "objectives": scen.objectives[:1],
        }
    )
    other = view_for(new_game(renamed, 5), "blue", log_limit=0)
    assert (other.title.fi, other.title.en) == ("Toinen", "Another")
    assert len(other.objectives) == 1 < len(first.objectives)
    again = view_for(new_game(scen, 5), "blue", log_limit=0)
    assert again.title == first.title and again.objectives == first.objectives
    assert cache_for(renamed) is not cache_for(scen)


def test_r_rec_5_fire_of_an_unseen_firer_is_whitelisted_by_what_the_side_sees() -> None:
    """The other side's copy of fire is whitelisted by sight (issue 8): with the firer
    unseen (its reference a contact, not a unit id) only what happened to the side's own
    units passes the model, whatever the engine put in the copy; a SPOTTED firer's roll,
    total and cover pass. Area fire's targets are named only with their declared keys."""
    scen = _scenario("demo")
    contact = {"contact": "c1", "area": [5, 5, 3]}
    leaky = {
        "attacker": contact,
        "target": "1R1",
        "kind": "fire",
        "effect": "HIT",
        "damage": 2,
        "damage_type": "FRAG",
        "total": 17,
        "cover": 2,
        "margin": 3,
        "modifiers": {"elevation": 1},
        "rolls": [],
        "natural": 14,
    }
    ev = Event(1, "attack", {**leaky, "attacker": "R11"}, {"blue": leaky})
    (seen,) = redact([ev], "blue", scen)
    assert set(seen["data"]) == {"attacker", "target", "kind", "effect", "damage", "damage_type"}
    spotted = {**leaky, "attacker": "R11"}
    (open_fire,) = redact([Event(2, "attack", spotted, {"blue": spotted})], "blue", scen)
    assert open_fire["data"]["total"] == 17 and open_fire["data"]["cover"] == 2
    area = {
        "attacker": contact,
        "weapon": "bmp_tykki",
        "cell": [5, 5],
        "radius": 1,
        "total": 15,
        "modifiers": {"skill": 2},
        "rolls": [],
        "targets": [
            {
                "target": "1R1",
                "effect": "HIT",
                "damage": 3,
                "margin": 2,
                "defence": 13,
                "secret_note": "x",
            }
        ],
    }
    (a,) = redact(
        [Event(3, "area_attack", {**area, "attacker": "R12"}, {"blue": area})], "blue", scen
    )
    assert set(a["data"]) == {"attacker", "weapon", "cell", "radius", "targets"}
    assert a["data"]["targets"] == [{"target": "1R1", "effect": "HIT", "damage": 3}]
    own = {**area, "attacker": "1R1"}
    (b,) = redact([Event(4, "area_attack", own, {"blue": own})], "blue", scen)
    assert b["data"]["total"] == 15 and "secret_note" not in b["data"]["targets"][0]


def test_r_rec_5_redact_copies_only_whitelisted_keys() -> None:
    """A side's copy is built from the kind's model for its audience (views/events.py):
    a key the engine put in a side's copy by mistake never reaches the side; a kind with
    no model for that audience (or no model at all) is not shown."""
    scen = _scenario("demo")
    leaky = {"unit": "R14", "kind": "attack", "to": [3, 3], "from": [1, 1], "path": [[2, 2]]}
    ev = Event(1, "move", {**leaky, "stopped_by": None}, {"blue": leaky})
    (seen,) = redact([ev], "blue", scen)  # R14 is Red's: Blue is the other side
    assert seen["data"] == {"unit": "R14", "to": [3, 3]}  # not which order sent it
    (own,) = redact([Event(2, "move", leaky, {"red": leaky})], "red", scen)
    assert own["data"]["from"] == [1, 1] and own["data"]["path"] == [[2, 2]]
    order = Event(3, "order", {"seat": "gm", "order": "x", "cost": 1}, {"blue": {"seat": "gm"}})
    assert redact([order], "blue", scen) == []  # Red's order copy: no model for Blue
    new_kind = Event(4, "no_such_kind", {"a": 1}, {"blue": {"a": 1}})
    assert redact([new_kind], "blue", scen) == []
    assert redact([new_kind], "gm", scen)[0]["data"] == {"a": 1}
