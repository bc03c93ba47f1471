"""The tactical computer player (issue 13): decides only from its view (the same decisions in
two games that differ only in hidden enemy details), always legal, deterministic for a seed,
levels that differ in search and noise only, and a node budget that holds."""

from __future__ import annotations

import ast
import functools
import inspect
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taistelukentta.bots import tactical
from taistelukentta.bots.players import BOT_NAMES
from taistelukentta.bots.runner import bot_order, bot_seed, viewer_of
from taistelukentta.bots.tactical import LEVELS, TacticalBot
from taistelukentta.content.scenario import Scenario, load_scenario
from taistelukentta.rules import (
    Event,
    GameState,
    Order,
    OrderKind,
    apply,
    is_legal,
    legal_orders,
    new_game,
    next_seat,
)
from taistelukentta.rules.state import Side
from taistelukentta.views import view_for
from taistelukentta.views.models import SideView
from tests.fog.harness import blue_unit, build, contact_on, coupled_dice, drop_unit, red_unit


def test_the_player_never_gets_a_game_state() -> None:
    params = list(inspect.signature(TacticalBot.choose).parameters)
    assert params == ["self", "view", "legal_orders", "options"]
    tree = ast.parse(Path(tactical.__file__).read_text(encoding="utf-8"))
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
    assert "GameState" not in names | imported
    bot = TacticalBot(1)
    state = new_game(load_scenario("demo"), 1)
    with pytest.raises(AttributeError):
        bot.choose(state, [Order.done()])  # type: ignore[arg-type]


def test_levels_differ_in_search_and_noise_only() -> None:
    assert set(LEVELS) == {"easy", "normal", "hard"}
    assert LEVELS["easy"].budget < LEVELS["normal"].budget < LEVELS["hard"].budget
    assert LEVELS["easy"].noise > LEVELS["normal"].noise >= LEVELS["hard"].noise
    assert {"easy", "normal", "hard", "baseline"} <= set(BOT_NAMES)
    with pytest.raises(ValueError):
        TacticalBot(1, "grandmaster")


def _play(
    scenario: Scenario,
    seed: int,
    blue: Any,
    red: Any,
    check: Callable[[GameState, str, Order], None] | None = None,
) -> tuple[GameState, list[str]]:
    state = new_game(scenario, seed)
    bots = {"blue": blue, "red": red}
    played: list[str] = []
    while not state.finished and len(played) < 3000:
        seat = next_seat(state)
        assert seat is not None
        order = bot_order(state, seat, bots[state.active])
        if check is not None:
            check(state, seat, order)
        played.append(f"{seat}:{order}")
        state, _ = apply(state, seat, order)
    assert state.finished
    return state, played


def _legal(state: GameState, seat: str, order: Order) -> None:
    assert is_legal(state, seat, order), (seat, str(order))


@settings(
    max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
@given(
    seed=st.integers(0, 10_000),
    blue=st.sampled_from(list(LEVELS)),
    red=st.sampled_from(list(LEVELS)),
)
def test_the_tactical_player_never_gives_an_illegal_order(seed: int, blue: str, red: str) -> None:
    scenario = load_scenario("demo")
    _play(
        scenario,
        seed,
        TacticalBot(bot_seed(seed, "blue"), blue),
        TacticalBot(bot_seed(seed, "red"), red),
        _legal,
    )


def test_deterministic_for_a_seed_and_the_budget_holds() -> None:
    scenario = load_scenario("demo")
    budgets: list[int] = []
    bot = TacticalBot(11, "normal", budget=40)

    def check(state: GameState, seat: str, order: Order) -> None:
        if state.active == "blue":
            budgets.append(bot.nodes)

    a, pa = _play(scenario, 5, bot, TacticalBot(12, "easy"), check)
    b, pb = _play(scenario, 5, TacticalBot(11, "normal", budget=40), TacticalBot(12, "easy"))
    assert pa == pb and a.state_hash() == b.state_hash()
    assert budgets and max(budgets) <= 40 + 1  # the staying cell of the last unit looked at
    _c, pc = _play(scenario, 5, TacticalBot(13, "normal"), TacticalBot(12, "easy"))
    assert pc != pa  # the seed (and the budget) matter


# ------------------------------------------------------------------------------ non-interference

Change = Callable[[dict[str, Any]], None]


def _set(data: dict[str, Any], uid: str, **changes: Any) -> None:
    try:
        unit = red_unit(data, uid)
    except KeyError:
        unit = blue_unit(data, uid)
    unit.update(changes)


def _mines_learned(side: Side) -> Callable[[GameState, list[Event]], bool]:
    def learned(state: GameState, events: list[Event]) -> bool:
        return any(e.kind.startswith("mine") and e.for_side(side) is not None for e in events)

    return learned


CASES: dict[str, tuple[str, Change, Side, Callable[[GameState, list[Event]], bool]]] = {
    "unit_position": (
        "demo",
        lambda d: _set(d, "R14", cell=[29, 9]),
        "blue",
        contact_on("blue", {"R14"}),
    ),
    "unit_presence": ("demo", lambda d: drop_unit(d, "R15"), "blue", contact_on("blue", {"R15"})),
    "minefield": (
        "demo",
        lambda d: d.setdefault("secrets", {}).__setitem__("minefields", []),
        "blue",
        _mines_learned("blue"),
    ),
    "blue_unit_position": (
        "demo",
        lambda d: _set(d, "KRH", cell=[1, 12]),
        "red",
        contact_on("red", {"KRH"}),
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_hidden_enemy_details_do_not_change_its_decisions(case: str) -> None:
    """Two games that differ only in a secret of the other side (which plays only ``done``,
    so its own knowledge cannot differ): the tactical player's orders are the same in both
    until its side has legitimately learnt the secret."""
    name, change, observer, learned = CASES[case]
    a, b = build(name), build(name, change)
    seed = random.Random(f"tactical:{case}").randbytes(32)
    bot_a = TacticalBot(7, "normal")
    bot_b = TacticalBot(7, "normal")
    decisions = 0
    with coupled_dice():
        sa, sb = new_game(a, seed), new_game(b, seed)
        ea, eb = list(sa.events), list(sb.events)
        for _ in range(400):
            if learned(sa, ea) or learned(sb, eb) or sa.finished or sb.finished:
                break
            assert sa.active == sb.active and sa.phase == sb.phase
            seat = next_seat(sa)
            assert seat is not None and seat == next_seat(sb)
            if sa.active == observer:
                va = view_for(sa, viewer_of(seat), log_limit=0)
                vb = view_for(sb, viewer_of(seat), log_limit=0)
                assert va == vb  # the premise: the side cannot tell the games apart
                oa = bot_order(sa, seat, bot_a)
                ob = bot_order(sb, seat, bot_b)
                assert str(oa) == str(ob), (case, decisions)
                decisions += 1
            else:
                oa = ob = Order.done()
            sa, ea = apply(sa, seat, oa)
            sb, eb = apply(sb, seat, ob)
    assert decisions >= 3, decisions  # the comparison covered real play


# ------------------------------------------------------------------- where a seat is given


def test_simulate_gives_each_side_its_computer_player() -> None:
    from typer.testing import CliRunner

    from taistelukentta.bots.runner import simulate
    from taistelukentta.cli.app import app

    runner = CliRunner()
    args = ["simulate", "demo", "--seed", "4", "--json"]
    base = runner.invoke(app, args)
    tact = runner.invoke(app, [*args, "--blue", "normal", "--red", "easy"])
    assert base.exit_code == 0 and tact.exit_code == 0, tact.output
    assert '"state_hash"' in tact.output and tact.output != base.output
    state, _ = simulate(load_scenario("demo"), 4, blue="normal", red="easy")
    assert state.state_hash() in tact.output
    bad = runner.invoke(app, ["--lang", "en", "simulate", "demo", "--red", "grandmaster"])
    assert bad.exit_code == 2 and "grandmaster" in bad.output and "Traceback" not in bad.output


def test_play_against_a_level(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from taistelukentta.cli.app import app
    from taistelukentta.storage.gamefile import load_game

    runner = CliRunner()
    path = tmp_path / "g.json"
    args = ["play", "demo", "--as", "red", "--seed", "3", "--out", str(path), "--level", "hard"]
    result = runner.invoke(app, args, input="done\nquit\n")
    assert result.exit_code == 0, result.output
    record = load_game(path)
    assert any(o.seat != "gm" for o in record.orders)  # the computer played Blue
    bad = runner.invoke(app, ["--lang", "en", "play", "demo", "--level", "grandmaster"])
    assert bad.exit_code == 2 and "grandmaster" in bad.output


def test_a_weak_attacker_sends_its_fighters_to_its_most_valuable_objective() -> None:
    """Red on ``demo`` (5 units, two objectives nobody holds): its fighting units all head
    for the crossroads (3 VP), none for Kotkanmäki (2 VP); the command unit follows them."""
    from taistelukentta.bots import commander

    state = new_game(load_scenario("demo"), 1)
    view = view_for(state, "red", log_limit=0)
    assert isinstance(view, SideView) and view.side == "red"
    goals = TacticalBot(1)._goals(commander.seen(view), tactical.public_map("demo"))
    cells = {o.id: {(int(c[0]), int(c[1])) for c in o.cells} for o in view.objectives}
    for uid in ("R12", "R13", "R14", "R15"):
        assert goals[uid] in cells["risteys"], uid
    assert goals["R11"] not in cells["kotkanmaki"]


def test_leaders_and_support_weapons_keep_out_of_reach() -> None:
    """A leader is never kept standing in an enemy's range, and every level weighs the
    threat to it at least as much as to a sound squad."""
    for name, level in LEVELS.items():
        assert level.leader_caution >= level.caution, name
    state = new_game(load_scenario("demo"), 1)
    view = view_for(state, "blue", log_limit=0)
    assert isinstance(view, SideView)
    own = {u.id: u for u in view.own_units()}
    assert tactical._is_leader(own["KP"]) and tactical._is_leader(own["1JJ"])
    assert not tactical._is_leader(own["1R1"]) and not tactical._is_leader(own["2PST"])


def test_the_last_word_is_the_second_side_turn_of_the_last_round() -> None:
    """No enemy turn follows the second side's turn of the last round (R-TURN-1): there the
    tactical player weighs no threat; in any earlier side turn it does."""
    state = new_game(load_scenario("terasvalli"), 1)
    view = view_for(state, "red", log_limit=0)
    assert isinstance(view, SideView)
    last = view.rounds
    cases = {(1, 1): False, (1, 2): False, (last, 2 * last - 1): False, (last, 2 * last): True}
    for (turn, turn_no), expected in cases.items():
        v = view.model_copy(update={"turn": turn, "turn_no": turn_no})
        assert tactical._last_word(v) is expected, (turn, turn_no)


def test_a_defender_weighs_the_reply_to_an_attack_an_attacker_does_not() -> None:
    """On ``terasvalli`` Red holds every objective from the start: an attack order whose
    origin the believed enemies threaten beyond what the attack is worth is not given
    (the attacker would likely be lost, a victory point to Blue), unless no enemy turn is
    left; Blue, which must take the objectives, attacks whatever the threat."""
    from taistelukentta.bots import commander
    from taistelukentta.bots.runner import lazy_bot_orders
    from taistelukentta.rules.context import cache_for

    def deadly(_u: Any, _c: Any) -> float:
        return 1000.0

    def safe(_u: Any, _c: Any) -> float:
        return 0.0

    held_back = blue_attacks = 0
    for seed in range(1, 6):
        state = new_game(load_scenario("terasvalli"), seed)
        bots = {s: TacticalBot(bot_seed(seed, s)) for s in ("blue", "red")}
        while not state.finished and not (held_back and blue_attacks):
            seat = next_seat(state)
            assert seat is not None
            side: Side = state.active
            view = view_for(state, viewer_of(seat), log_limit=0)
            assert isinstance(view, SideView)
            if view.phase == "command" and view.kp_of(seat if side == "blue" else "gm") > 0:
                opts = cache_for(state).opts
                s = commander.seen(view, opts)
                probe = TacticalBot(7)
                movers = sorted(s.own)
                free = probe._attack(s, lazy_bot_orders(state, seat), movers, safe)
                feared = probe._attack(s, lazy_bot_orders(state, seat), movers, deadly)
                if side == "blue":
                    assert feared == free
                    blue_attacks += free is not None
                elif free is not None and feared is None:
                    held_back += 1
                    last = view.model_copy(update={"turn": view.rounds, "turn_no": 2 * view.rounds})
                    s_last = commander.seen(last, opts)
                    anyway = probe._attack(s_last, lazy_bot_orders(state, seat), movers, deadly)
                    assert anyway == free
            state, _ = apply(state, seat, bot_order(state, seat, bots[side]))
        if held_back and blue_attacks:
            break
    assert held_back and blue_attacks


def _red_last_turn(change: Callable[[dict[str, Any]], None]) -> tuple[GameState, SideView]:
    """A ``demo`` game placed by ``change``, at Red's first command phase, with the view's
    round made the last (Red moves second: its last word)."""
    state = new_game(build("demo", change), 1)
    while state.active != "red":
        seat = next_seat(state)
        assert seat is not None
        state, _ = apply(state, seat, Order.done())
    view = view_for(state, "red", log_limit=0)
    assert isinstance(view, SideView) and view.phase == "command"
    last = view.model_copy(update={"turn": view.rounds, "turn_no": 2 * view.rounds})
    assert tactical._last_word(last)
    return state, last


def test_the_last_turn_goes_onto_an_objective_the_side_does_not_stand_on() -> None:
    """The last turn's move onto the objectives: a unit that can reach Kotkanmäki (Blue's
    squad on it) moves onto it — contested, it scores for nobody — while the only unit on
    the crossroads stays there."""
    from taistelukentta.bots import commander
    from taistelukentta.bots.runner import lazy_bot_orders

    def placed(data: dict[str, Any], *, spare: bool) -> None:
        blue_unit(data, "1R1")["cell"] = [18, 4]
        red_unit(data, "R11")["cell"] = [29, 19]
        red_unit(data, "R12")["cell"] = [15, 11]
        red_unit(data, "R13")["cell"] = [18, 8]
        for uid in ("R14", "R15", *(() if spare else ("R13",))):
            drop_unit(data, uid)

    kotkanmaki = {(x, y) for x in (17, 18, 19) for y in (3, 4, 5)}
    for spare in (True, False):
        state, last = _red_last_turn(functools.partial(placed, spare=spare))
        s = commander.seen(last)
        grab = TacticalBot(1)._last_grab(s, lazy_bot_orders(state, "gm"), sorted(s.own))
        if spare:
            assert grab is not None and grab.kind == OrderKind.MOVE and grab.unit == "R13"
            assert grab.cell is not None and tactical._as_cell(grab.cell) in kotkanmaki
        else:
            assert grab is None


def test_kill_chance_is_the_chance_of_damage_reaching_the_strength() -> None:
    """The last word's kill chance (exact odds from the view's figures): against a unit of
    strength 1 it is the chance of a hit (every hit does at least 1), against more
    strength than a heavy hit's most damage it is nothing, and it falls with strength."""
    from taistelukentta.bots.knowledge import shot_value
    from taistelukentta.rules.context import cache_for

    state = new_game(load_scenario("demo"), 1)
    opts = cache_for(state).opts
    red = view_for(state, "red", log_limit=0)
    blue = view_for(state, "blue", log_limit=0)
    assert isinstance(red, SideView) and isinstance(blue, SideView)
    bmp = next(u for u in red.units if u.id == "R12")
    squad = next(u for u in blue.units if u.id == "1R1")
    one = squad.model_copy(update={"strength": 1})
    hit, _dmg = shot_value(bmp, one, opts)  # type: ignore[arg-type]
    assert tactical._kill_chance(bmp, one, None, opts) == pytest.approx(float(hit))  # type: ignore[arg-type]
    chances = [
        tactical._kill_chance(bmp, squad.model_copy(update={"strength": k}), None, opts)  # type: ignore[arg-type]
        for k in range(1, 18)
    ]
    assert chances == sorted(chances, reverse=True) and chances[0] > chances[5] > 0
    assert chances[-1] == 0.0  # 17 > 2 × d8


def test_a_weak_attackers_waiting_squads_gather() -> None:
    """Red on ``demo`` waits in its first round (``WAIT_ROUNDS``): its squads head for one
    cell, their centroid, instead of keeping their ground apart (R15 alone on the open
    ground north of the others); the BMP and the command unit are not held."""
    from taistelukentta.bots.runner import lazy_bot_orders
    from taistelukentta.rules.context import cache_for

    state = new_game(load_scenario("demo"), 1)
    while state.active != "red":
        seat = next_seat(state)
        assert seat is not None
        state, _ = apply(state, seat, Order.done())
    view = view_for(state, "red", log_limit=0)
    assert isinstance(view, SideView) and view.turn <= tactical.WAIT_ROUNDS
    bot = TacticalBot(1)
    bot.choose(view, lazy_bot_orders(state, "gm"), cache_for(state).opts)
    squads = {"R13", "R14", "R15"}
    goals = {bot._decision_goals[uid] for uid in squads}
    cells = [state.units[uid].cell for uid in sorted(squads)]
    centroid = (round(sum(c[0] for c in cells) / 3), round(sum(c[1] for c in cells) / 3))
    assert goals == {centroid}
    assert bot._decision_goals["R12"] != centroid or state.units["R12"].cell == centroid


def test_a_weak_attackers_last_word_is_planned_by_the_margin() -> None:
    """Red's last word on ``demo`` (no Blue turn follows): a squad that can step onto
    Kotkanmäki, where Blue's squad stands alone, does (contested, it scores for nobody:
    2 VP off Blue's margin), and the only unit on the crossroads stays there and fires."""
    from taistelukentta.bots import commander
    from taistelukentta.bots.runner import lazy_bot_orders
    from taistelukentta.rules.context import cache_for

    def placed(data: dict[str, Any]) -> None:
        blue_unit(data, "1R1")["cell"] = [18, 4]
        red_unit(data, "R11")["cell"] = [29, 19]
        red_unit(data, "R12")["cell"] = [15, 11]
        red_unit(data, "R13")["cell"] = [18, 8]
        for uid in ("R14", "R15"):
            drop_unit(data, uid)

    kotkanmaki = {(x, y) for x in (17, 18, 19) for y in (3, 4, 5)}
    state, last = _red_last_turn(placed)
    s = commander.seen(last, cache_for(state).opts)
    bot = TacticalBot(1)
    bot._objective_cells = {tactical._as_cell(c) for o in last.objectives for c in o.cells}
    plan = bot._final_plan(s, lazy_bot_orders(state, "gm"), sorted(s.own))
    assert plan is not None and plan.unit == "R13", plan
    assert plan.cell is not None and tactical._as_cell(plan.cell) in kotkanmaki


def test_a_weak_attackers_leader_weighs_the_reply() -> None:
    """Red on ``demo`` (5 units for two objectives nobody holds) is a weak attacker: its
    battle group command gives no attack whose reply would likely cost it more than the
    attack is worth (a lost command unit is a victory point to Blue); its squads attack
    whatever the reply. The other seats of both scenarios are not weak attackers."""
    from taistelukentta.bots import commander
    from taistelukentta.bots.runner import lazy_bot_orders
    from taistelukentta.rules.context import cache_for

    for name, who, weak in (
        ("demo", "red", True),
        ("demo", "blue", False),
        ("terasvalli", "blue", False),
        ("terasvalli", "red", False),
    ):
        start = view_for(new_game(load_scenario(name), 1), who, log_limit=0)
        assert isinstance(start, SideView)
        assert tactical._weak_attacker(commander.seen(start)) is weak, (name, who)

    def deadly(_u: Any, _c: Any) -> float:
        return 1000.0

    held_back = squad_attacks = 0
    for seed in range(1, 9):
        state = new_game(load_scenario("demo"), seed)
        bots = {s: TacticalBot(bot_seed(seed, s)) for s in ("blue", "red")}
        while not state.finished and not (held_back and squad_attacks):
            seat = next_seat(state)
            assert seat is not None
            side: Side = state.active
            view = view_for(state, viewer_of(seat), log_limit=0)
            assert isinstance(view, SideView)
            if side == "red" and view.phase == "command" and view.kp_of("gm") > 0:
                s = commander.seen(view, cache_for(state).opts)
                probe = TacticalBot(7)
                orders = lazy_bot_orders(state, seat)
                for uid in sorted(s.own):
                    free = probe._attack(s, orders, [uid], lambda _u, _c: 0.0)
                    if free is None:
                        continue
                    feared = probe._attack(s, orders, [uid], deadly)
                    if tactical._is_leader(s.own[uid]):
                        held_back += feared is None
                    else:
                        assert feared == free, uid
                        squad_attacks += 1
            state, _ = apply(state, seat, bot_order(state, seat, bots[side]))
        if held_back and squad_attacks:
            break
    assert held_back and squad_attacks


def test_an_assault_keeps_its_fire_base_back_and_arrives_in_time() -> None:
    """Blue on ``terasvalli`` attacks objectives Red holds from the start (an assault; no
    other seat of the bundled scenarios does): its mortar squad stays where it stands (its
    range covers the battlefield) and gives no attack order, the CV90 follows the fighters
    until the last two rounds and then heads for an objective; a squad far from its
    objective is due on it in the last rounds (it no longer stays to fire), not at the
    start; the last turn's move onto the crossroads goes to the cell whose zone of control
    covers the whole objective."""
    from taistelukentta.bots import commander

    for name, who, assault in (
        ("terasvalli", "blue", True),
        ("terasvalli", "red", False),
        ("demo", "blue", False),
        ("demo", "red", False),
    ):
        start = view_for(new_game(load_scenario(name), 1), who, log_limit=0)
        assert isinstance(start, SideView)
        assert tactical._assault(commander.seen(start)) is assault, (name, who)

    view = view_for(new_game(load_scenario("terasvalli"), 1), "blue", log_limit=0)
    assert isinstance(view, SideView)
    cells = {(int(c[0]), int(c[1])) for o in view.objectives for c in o.cells}
    gm = tactical.public_map("terasvalli")
    bot = TacticalBot(1)
    s = commander.seen(view)
    goals = bot._goals(s, gm)
    assert goals["KRH"] == tactical._as_cell(s.own["KRH"].cell)
    assert goals["CV"] not in cells and goals["3R1"] in cells
    assert bot._rear(s, s.own["CV"]) and bot._rear(s, s.own["KRH"])
    bot._decision_goals = goals
    assert not bot._due(s, "3R1")

    late = view.model_copy(update={"turn": view.rounds - 1, "turn_no": 2 * view.rounds - 3})
    s_late = commander.seen(late)
    late_goals = bot._goals(s_late, gm)
    assert late_goals["CV"] in cells and not bot._rear(s_late, s_late.own["CV"])
    bot._decision_goals = late_goals
    assert bot._due(s_late, "3R1")

    # the last rounds: the fighters are shared out over the objectives by value and
    # distance (not all onto the nearest one), the mortar still stays
    endgame = view.model_copy(
        update={"turn": view.rounds - tactical.ENDGAME_ROUNDS, "turn_no": 2 * view.rounds - 7}
    )
    s_end = commander.seen(endgame)
    end_goals = bot._goals(s_end, gm)
    by_cell = {(int(c[0]), int(c[1])): o.id for o in view.objectives for c in o.cells}
    fighters = [u for u in s_end.own.values() if tactical._role(u.card) == "none"]
    shared = {by_cell[g] for u in fighters if (g := end_goals[u.id]) in by_cell}
    assert len(shared) >= 2 and end_goals["KRH"] == goals["KRH"]

    risteys = next({tactical._as_cell(c) for c in o.cells} for o in view.objectives if o.vp == 4)
    best = max(sorted(risteys), key=lambda c: tactical._covers(c, risteys))
    assert best == (33, 21) and tactical._covers(best, risteys) == len(risteys)


def test_an_assaults_last_turn_steps_onto_an_objective_out_of_a_zone_of_control() -> None:
    """R-ZOC-2, R-ZOC-3: a unit whose turn began in an enemy's zone of control has no basic
    move; in an assault's last turn it still goes onto the objective — by withdrawing (or
    disengaging) onto it. Blue's CV90 beside the T-72 four cells from the crossroads."""
    from taistelukentta.bots import commander
    from taistelukentta.bots.runner import lazy_bot_orders

    def placed(data: dict[str, Any]) -> None:
        blue_unit(data, "CV")["cell"] = [28, 21]
        red_unit(data, "R31")["cell"] = [26, 23]

    state = new_game(build("terasvalli", placed), 1)
    assert state.active == "blue" and state.units["CV"].zoc_at_start
    view = view_for(state, "co", log_limit=0)
    assert isinstance(view, SideView) and view.phase == "command"
    last = view.model_copy(update={"turn": view.rounds, "turn_no": 2 * view.rounds - 1})
    assert not tactical._last_word(last)
    s = commander.seen(last)
    src = lazy_bot_orders(state, "co")
    assert not src.of_unit(OrderKind.MOVE, "CV")
    grab = TacticalBot(1)._last_grab(s, src, ["CV"])
    risteys = {(x, y) for x in (32, 33, 34) for y in (20, 21, 22)}
    assert grab is not None and grab.unit == "CV"
    assert grab.kind in (OrderKind.WITHDRAW, OrderKind.DISENGAGE)
    assert grab.cell is not None and tactical._as_cell(grab.cell) in risteys
    assert is_legal(state, "co", grab)


def test_a_weak_attacker_leaves_the_cell_it_fired_from() -> None:
    """Red on ``demo`` (``DODGE``): a squad that fired from (22,10) in Red's last turn was
    seen there (R-REC-7), and a strike of Blue's mortar ordered on that cell lands in Blue's
    next turn (R-ORG-1). With a SPOTTED Blue squad in range it would stay and fire; it
    leaves the cell instead (an attack from another origin, or a step aside). The same
    squad that did not fire there stays."""
    from taistelukentta.bots.runner import lazy_bot_orders
    from taistelukentta.rules.context import cache_for

    def placed(data: dict[str, Any]) -> None:
        red_unit(data, "R13")["cell"] = [22, 10]
        red_unit(data, "R11")["cell"] = [29, 19]
        red_unit(data, "R12")["cell"] = [29, 18]
        blue_unit(data, "1R1")["cell"] = [20, 10]
        for uid in ("R14", "R15"):
            drop_unit(data, uid)

    def squad_order(fired: bool) -> Order | None:
        state = new_game(build("demo", placed), 1)
        while state.active != "red":
            seat = next_seat(state)
            assert seat is not None
            state, _ = apply(state, seat, Order.done())
        bot = TacticalBot(1)
        if fired:
            bot._fired_from["R13"] = (4, (22, 10))
        for _ in range(12):
            view = view_for(state, "red", log_limit=0)
            assert isinstance(view, SideView) and view.phase == "command"
            assert any(e.id == "1R1" for e in view.enemy_units())
            view = view.model_copy(update={"turn": 3, "turn_no": 6})
            order = bot.choose(view, lazy_bot_orders(state, "gm"), cache_for(state).opts)
            if order.unit == "R13" or order.kind is OrderKind.DONE:
                return order if order.unit == "R13" else None
            state, _ = apply(state, "gm", order)
        return None

    assert squad_order(fired=False) is None  # it stays and fires
    left = squad_order(fired=True)
    assert left is not None and left.cell is not None, left
    assert tactical._as_cell(left.cell) != (22, 10)
    assert left.kind in (OrderKind.MOVE, OrderKind.ATTACK)
    if left.kind is OrderKind.MOVE:  # a step aside: to a neighbouring cell
        x, y = tactical._as_cell(left.cell)
        assert max(abs(x - 22), abs(y - 10)) <= tactical.SIDESTEP == 1


def test_an_assaults_moves_keep_off_a_found_minefield(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-MINE-1/2/4: the engine plans a move's way without regard to mines, so a move
    whose cheapest way crosses a found mined cell ends there (and an armoured vehicle
    that rushes an AT field is immobilised). In an assault the tactical player passes
    such a move over — for a unit of the type the field affects, also one through a cell
    next to it (the rest of a box or strip). Blue's CV90 on the main road west of the
    village, one AT cell found at (24,22), heading for the crossroads."""
    import dataclasses

    from taistelukentta.bots import commander
    from taistelukentta.bots.runner import lazy_bot_orders

    def placed(data: dict[str, Any]) -> None:
        blue_unit(data, "CV")["cell"] = [20, 23]

    state = new_game(build("terasvalli", placed), 1)
    mines = dict(state.ext["mines"])
    mines["known"] = {**mines["known"], "blue": {"24,22": "AT"}}
    state = dataclasses.replace(state, ext={**state.ext, "mines": mines})
    view = view_for(state, "co", log_limit=0)
    assert isinstance(view, SideView) and view.phase == "command"
    s = commander.seen(view)
    bot = TacticalBot(1)
    cv = s.own["CV"]
    assert bot._crosses_mines(s, cv, (30, 22)) and bot._crosses_mines(s, cv, (25, 23))
    assert not bot._crosses_mines(s, cv, (20, 19))

    def calm(_u: Any, _c: Any) -> float:
        return 0.0

    def cv_move() -> tuple[Order, list[Event]]:
        src = lazy_bot_orders(state, "co")
        gm = tactical.public_map("terasvalli")
        order = TacticalBot(1)._move(s, src, "CV", (32, 21), calm, set(), False, gm)
        assert order is not None and is_legal(state, "co", order)
        return order, apply(state, "co", order)[1]

    order, events = cv_move()
    assert not any(e.kind == "mine_found" for e in events)
    monkeypatch.setattr(tactical, "MINE_PATHS", False)
    blind, events = cv_move()  # without the rule: the road through the field
    assert blind != order and any(e.kind == "mine_found" for e in events)


def test_an_assaults_shots_weigh_the_targets_danger(monkeypatch: pytest.MonkeyPatch) -> None:
    """In an assault a shot is worth more against a target that does more damage to a
    rifle squad in the open (``DANGER_POW``; the T-72's 125 mm against the squads, the
    baseline Red's best killer on ``terasvalli``) and less against a weak one; a seat
    that is no assault weighs its shots as before."""
    import dataclasses

    from taistelukentta.bots import commander
    from taistelukentta.rules.recon import ContactLevel
    from taistelukentta.rules.state import Contact

    state = new_game(load_scenario("terasvalli"), 1)
    seen = {
        "R31": Contact("c8", ContactLevel.SPOTTED, (27, 21), None, "t72"),
        "R21": Contact("c9", ContactLevel.SPOTTED, (24, 11), None, "komentoyksikko"),
    }
    spotted_2r1 = {"2R1": Contact("c7", ContactLevel.SPOTTED, (7, 21), None, "jaakariryhma")}
    state = dataclasses.replace(state, contacts={"blue": seen, "red": spotted_2r1})
    view = view_for(state, "blue", log_limit=0)
    assert isinstance(view, SideView)
    s = commander.seen(view)
    assert tactical._assault(s)
    cv, tank, hq = s.own["CV"], s.units["R31"], s.units["R21"]

    monkeypatch.setattr(tactical, "TANK_HUNT", False)  # the CV90's AT round at the tank

    def worth(target: Any, pow_: float) -> float:
        monkeypatch.setattr(tactical, "DANGER_POW", pow_)
        return TacticalBot(1)._shot_worth(s, cv, target, None)[0]

    assert worth(tank, 1.0) > 1.5 * worth(tank, 0.0) > 0
    assert 0 < worth(hq, 1.0) < worth(hq, 0.0)

    red = view_for(state, "red", log_limit=0)
    assert isinstance(red, SideView)
    s_red = commander.seen(red)
    assert not tactical._assault(s_red)
    squad, blue_sq = s_red.own["R12"], s_red.units["2R1"]
    monkeypatch.setattr(tactical, "DANGER_POW", 1.0)
    on = TacticalBot(1)._shot_worth(s_red, squad, blue_sq, None)
    monkeypatch.setattr(tactical, "DANGER_POW", 0.0)
    assert on == TacticalBot(1)._shot_worth(s_red, squad, blue_sq, None) and on[0] > 0


def test_an_assaults_at_weapons_go_for_the_tank(monkeypatch: pytest.MonkeyPatch) -> None:
    """``TANK_HUNT``: in an assault an AT shot at a SPOTTED heavy armoured enemy (armoured,
    not flagged light on its card: the T-72) is weighed by its exact odds over the public
    map and weighted up. Blue's AT team in its fire phase with the T-72 nine cells away on
    the open road and a BMP-2 seven cells away: it fires its missile at the tank; without
    the rule it fired at the BMP (easier to hit and kill). From an origin that does not
    see the tank the shot is worth nothing; Red's shots (no assault) are as before."""
    import dataclasses

    from taistelukentta.bots import commander
    from taistelukentta.bots.runner import lazy_bot_orders
    from taistelukentta.rules.context import cache_for
    from taistelukentta.rules.recon import ContactLevel
    from taistelukentta.rules.state import Contact

    def placed(data: dict[str, Any]) -> None:
        blue_unit(data, "PST")["cell"] = [15, 22]
        red_unit(data, "R31")["cell"] = [24, 22]
        red_unit(data, "R15")["cell"] = [22, 20]

    state = new_game(build("terasvalli", placed), 1)
    seen = {
        "R31": Contact("c8", ContactLevel.SPOTTED, (24, 22), None, "t72"),
        "R15": Contact("c9", ContactLevel.SPOTTED, (22, 20), None, "bmp2"),
    }
    state = dataclasses.replace(state, contacts={**state.contacts, "blue": seen})
    while state.phase != "fire":
        seat = next_seat(state)
        assert seat is not None
        state, _ = apply(state, seat, Order.done())

    def pst_fire() -> Order:
        view = view_for(state, "pl3", log_limit=0)
        assert isinstance(view, SideView)
        order = TacticalBot(1).choose(view, lazy_bot_orders(state, "pl3"), cache_for(state).opts)
        assert order.unit == "PST" and is_legal(state, "pl3", order)
        return order

    assert pst_fire().target == "R31"
    monkeypatch.setattr(tactical, "TANK_HUNT", False)
    assert pst_fire().target == "R15"
    monkeypatch.setattr(tactical, "TANK_HUNT", True)

    view = view_for(state, "pl3", log_limit=0)
    assert isinstance(view, SideView)
    s = commander.seen(view)
    pst, tank, bmp = s.own["PST"], s.units["R31"], s.units["R15"]
    assert tactical._tank_target(s, tank) and not tactical._tank_target(s, bmp)
    hit, dmg, kill = tactical._tank_odds(s, pst, tank, "pst_ohjus", (15, 22))
    assert 0.5 < hit < 1 and 0 < kill < hit and dmg > 10  # fully open: advantage
    assert tactical._tank_odds(s, pst, tank, "pst_ohjus", (2, 22)) == (0.0, 0.0, 0.0)
    red = view_for(state, "red", log_limit=0)
    assert isinstance(red, SideView)
    assert not tactical._tank_target(commander.seen(red), s.own["CV"])  # Red: no assault


def test_an_assaults_commander_strikes_a_tank_that_stands_still(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``TANK_STRIKE``: with a SPOTTED T-72 on the open road and no own unit near it, the
    company commander requests a K9 strike on its cell (2d10 to an armoured unit, the
    aimed cell always under the area with a SPOTTED contact, R-OFF-3/4) — a lone tank is
    no cluster, so without the rule no strike is requested. Not with an own unit two cells
    from the tank (the strike's area or morale ring could reach it)."""
    import dataclasses

    from taistelukentta.bots.runner import lazy_bot_orders
    from taistelukentta.rules.context import cache_for
    from taistelukentta.rules.fire_support import strike_type_of
    from taistelukentta.rules.recon import ContactLevel
    from taistelukentta.rules.state import Contact

    def game(squad: list[int]) -> GameState:
        def placed(data: dict[str, Any]) -> None:
            blue_unit(data, "3R1")["cell"] = squad
            red_unit(data, "R31")["cell"] = [27, 22]

        state = new_game(build("terasvalli", placed), 1)
        seen = {"R31": Contact("c8", ContactLevel.SPOTTED, (27, 22), None, "t72")}
        return dataclasses.replace(state, contacts={**state.contacts, "blue": seen})

    def co_order(state: GameState) -> Order:
        view = view_for(state, "co", log_limit=0)
        assert isinstance(view, SideView) and view.phase == "command"
        order = TacticalBot(1).choose(view, lazy_bot_orders(state, "co"), cache_for(state).opts)
        assert is_legal(state, "co", order)
        return order

    state = game([20, 22])
    order = co_order(state)
    assert order.cell is not None and tactical._as_cell(order.cell) == (27, 22)
    assert strike_type_of(order) == "k9"
    monkeypatch.setattr(tactical, "TANK_STRIKE", False)
    assert strike_type_of(co_order(state)) is None
    monkeypatch.setattr(tactical, "TANK_STRIKE", True)
    assert strike_type_of(co_order(game([27, 24]))) is None  # an own unit two cells away

    # ``STRIKE_LIGHT``: a lone BMP-2 (light armour) on the same cell too
    seen = {"R15": Contact("c9", ContactLevel.SPOTTED, (27, 22), None, "bmp2")}

    def bmp_placed(data: dict[str, Any]) -> None:
        blue_unit(data, "3R1")["cell"] = [20, 22]
        red_unit(data, "R31")["cell"] = [53, 17]
        red_unit(data, "R15")["cell"] = [27, 22]

    bmp = dataclasses.replace(
        new_game(build("terasvalli", bmp_placed), 1), contacts={**state.contacts, "blue": seen}
    )
    assert strike_type_of(co_order(bmp)) == "k9"
    monkeypatch.setattr(tactical, "STRIKE_LIGHT", False)
    assert strike_type_of(co_order(bmp)) is None


def _red_last_word_seeing(
    change: Callable[[dict[str, Any]], None], spotted: set[str], **strength: int
) -> tuple[GameState, SideView]:
    """:func:`_red_last_turn` with the Blue units ``spotted`` in Red's view as SPOTTED
    (the view's figures only: the game lists no attack on them) and their strength set
    by ``strength``."""
    state, last = _red_last_turn(change)
    blue = view_for(state, "blue", log_limit=0)
    assert isinstance(blue, SideView)
    have = {u.id for u in last.units}
    seen = [
        u.model_copy(update={"strength": strength[u.id]} if u.id in strength else {})
        for u in blue.units
        if u.id in spotted and u.id not in have
    ]
    return state, last.model_copy(update={"units": (*last.units, *seen)})


def test_a_weak_attackers_last_word_counts_only_the_fire_it_can_see(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Red's last word on ``demo`` (``tactical.SIGHT``): R13 at (20,6) has Blue's 1R1 (1 TK,
    alone on the crossroads) six cells away, in range, but the hill's forest hides it
    (R-TER-4): it cannot fire at it, so instead of staying to fire it attacks 1R3 from
    Kotkanmäki (onto the hill: contested). Counting the shot by range alone, it stayed."""
    from taistelukentta.bots import commander
    from taistelukentta.bots.runner import lazy_bot_orders
    from taistelukentta.rules.context import cache_for

    def placed(data: dict[str, Any]) -> None:
        blue_unit(data, "1R1")["cell"] = [14, 10]
        blue_unit(data, "1R3")["cell"] = [18, 4]
        red_unit(data, "R11")["cell"] = [29, 19]
        red_unit(data, "R13")["cell"] = [20, 6]
        for uid in ("R12", "R14", "R15"):
            drop_unit(data, uid)

    state, last = _red_last_word_seeing(placed, {"1R1", "1R3"}, **{"1R1": 1})
    assert not tactical._sees("demo", (20, 6), (14, 10), 20)

    def plan(sight: bool) -> Order | None:
        monkeypatch.setattr(tactical, "SIGHT", sight)
        s = commander.seen(last, cache_for(state).opts)
        bot = TacticalBot(1)
        bot._objective_cells = {tactical._as_cell(c) for o in last.objectives for c in o.cells}
        return bot._final_plan(s, lazy_bot_orders(state, "gm"), sorted(s.own))

    got = plan(True)
    assert got is not None and got.kind == OrderKind.ATTACK and got.target == "1R3", got
    assert got.cell is not None and tactical._as_cell(got.cell) in {
        (x, y) for x in (17, 18, 19) for y in (3, 4, 5)
    }
    assert plan(False) is None  # it stayed "to fire" at what it cannot see


def test_a_weak_attackers_last_word_gives_no_area_fire(monkeypatch: pytest.MonkeyPatch) -> None:
    """Red's last word on ``demo`` (``tactical.FINAL_AREA`` off): the BMP with two Blue
    squads next to each other in its area does not use *Lamauttava tuli* (one roll against
    each, rarely a kill) before the plan; with area fire allowed it did."""
    from taistelukentta.bots import commander
    from taistelukentta.bots.runner import lazy_bot_orders
    from taistelukentta.rules.context import cache_for

    def placed(data: dict[str, Any]) -> None:
        blue_unit(data, "1R1")["cell"] = [14, 10]
        blue_unit(data, "1R2")["cell"] = [13, 10]
        red_unit(data, "R11")["cell"] = [29, 19]
        red_unit(data, "R12")["cell"] = [16, 11]
        for uid in ("R13", "R14", "R15"):
            drop_unit(data, uid)

    state, last = _red_last_word_seeing(placed, {"1R1", "1R2"})

    def standing(area: bool) -> Order | None:
        monkeypatch.setattr(tactical, "FINAL_AREA", area)
        s = commander.seen(last, cache_for(state).opts)
        return TacticalBot(1)._final_standing(s, lazy_bot_orders(state, "gm"))

    before = standing(True)
    assert before is not None and before.kind.value == "use" and before.unit == "R12", before
    assert standing(False) is None


def test_a_weak_attackers_turn_before_the_last_word_is_chosen_by_rollouts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Red on ``demo`` (``LAST_LOOK``): in its side turn before the last word, the player
    plays the rest of the game out in worlds built from its view for each mode and plays
    the best. Here the squad R13 at (22,10), two Blue squads on the crossroads (not seen
    yet), would march onto the crossroads at once (in the open beside them, before Blue's
    last turn); the rollouts keep it where it stands for the last word. The look-ahead's
    work is counted in side turns, and Blue's hidden positions do not change it."""
    from taistelukentta.bots import lastlook
    from taistelukentta.bots.runner import lazy_bot_orders
    from taistelukentta.rules.context import cache_for

    def placed(data: dict[str, Any], blue: tuple[int, int]) -> None:
        red_unit(data, "R13")["cell"] = [22, 10]
        red_unit(data, "R11")["cell"] = [29, 19]
        red_unit(data, "R12")["cell"] = [29, 18]
        blue_unit(data, "2R1")["cell"] = [15, 10]
        blue_unit(data, "2R2")["cell"] = list(blue)
        for uid in ("R14", "R15"):
            drop_unit(data, uid)

    def turn(blue: tuple[int, int]) -> tuple[list[Order], TacticalBot]:
        state = new_game(build("demo", functools.partial(placed, blue=blue)), 1)
        while state.active != "red":
            seat = next_seat(state)
            assert seat is not None
            state, _ = apply(state, seat, Order.done())
        bot = TacticalBot(1)
        orders: list[Order] = []
        for _ in range(12):
            view = view_for(state, "red", log_limit=0)
            assert isinstance(view, SideView)
            if view.phase != "command":
                break
            view = view.model_copy(update={"turn": 5, "turn_no": 10})
            order = bot.choose(view, lazy_bot_orders(state, "gm"), cache_for(state).opts)
            if order.kind is OrderKind.DONE:
                break
            orders.append(order)
            state, _ = apply(state, "gm", order)
        return orders, bot

    def squad(orders: list[Order]) -> list[Order]:
        return [o for o in orders if o.unit == "R13" and o.kind is not OrderKind.RECON]

    monkeypatch.setattr(tactical, "LAST_LOOK", False)
    plain, _bot = turn((14, 11))
    marched = squad(plain)
    assert marched and marched[0].kind is OrderKind.MOVE and marched[0].cell is not None
    assert tactical._as_cell(marched[0].cell) in {(x, y) for x in (14, 15, 16) for y in (10, 11)}

    monkeypatch.setattr(tactical, "LAST_LOOK", True)
    looked, bot = turn((14, 11))
    assert set(bot.look_scores) == set(lastlook.MODES)
    assert 0 < bot.look_turns <= lastlook.LAST_LOOK_BUDGET
    assert bot._mode == (10, "hold")
    assert squad(looked) == []  # it keeps its ground for the last word
    _orders, other = turn((13, 12))  # a Blue squad elsewhere, unseen: the same look-ahead
    assert other.look_scores == bot.look_scores


def test_an_assaults_stranded_unit_keeps_out_of_reach_in_its_last_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``STRANDED_SAFE``: in an assault's last turn (Red still to reply) a unit that no
    listed move takes onto an objective cannot stand on one at the end; it no longer walks
    towards its objective into the enemy's reach (a loss is a victory point to Red). Blue's
    CV90 in the south-west, every objective out of its reach, every cell east of x = 6 in
    reach of the enemy: it stays out of reach; without the rule it drove east. Before the
    last round the rule does not apply."""
    from taistelukentta.bots import commander
    from taistelukentta.bots.runner import lazy_bot_orders

    def placed(data: dict[str, Any]) -> None:
        blue_unit(data, "CV")["cell"] = [2, 33]

    state = new_game(build("terasvalli", placed), 1)
    view = view_for(state, "co", log_limit=0)
    assert isinstance(view, SideView) and view.phase == "command"
    last = view.model_copy(update={"turn": view.rounds, "turn_no": 2 * view.rounds - 1})
    gm = tactical.public_map("terasvalli")

    def east(_u: Any, cell: tuple[int, int]) -> float:
        return 12.0 if cell[0] > 6 else 0.0

    def cv_move() -> Order | None:
        s = commander.seen(last)
        src = lazy_bot_orders(state, "co")
        order = TacticalBot(1)._move(s, src, "CV", (32, 21), east, set(), True, gm)
        assert order is None or is_legal(state, "co", order)
        return order

    s = commander.seen(last)
    moves = lazy_bot_orders(state, "co").of_unit(OrderKind.MOVE, "CV")
    cells = {(int(c[0]), int(c[1])) for o in last.objectives for c in o.cells}
    assert TacticalBot(1)._stranded(s, s.own["CV"], moves, cells)
    safe = cv_move()
    assert safe is None or (safe.cell is not None and safe.cell[0] <= 6)
    monkeypatch.setattr(tactical, "STRANDED_SAFE", False)
    blind = cv_move()
    assert blind is not None and blind.cell is not None and blind.cell[0] > 6
    monkeypatch.setattr(tactical, "STRANDED_SAFE", True)
    before = view.model_copy(update={"turn": view.rounds - 1, "turn_no": 2 * view.rounds - 3})
    assert not TacticalBot(1)._stranded(commander.seen(before), s.own["CV"], moves, cells)


def test_an_assaults_last_turn_grabs_before_the_commanders_orders(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``GRAB_FIRST``: in an assault's last turn (Red still to reply) the move onto an
    objective the side does not stand on comes before the company commander's standing
    orders. A one-round ``terasvalli``: Blue's hurt guerrilla jägers two cells from the
    ridge top, a Red squad SPOTTED on it, the company commander has ordered
    Järjestäytynyt vetäytyminen for them: the platoon's first order steps onto the ridge;
    without the rule they withdrew away from it."""
    import dataclasses

    from taistelukentta.bots.runner import lazy_bot_orders
    from taistelukentta.rules.context import cache_for
    from taistelukentta.rules.recon import ContactLevel
    from taistelukentta.rules.state import Contact

    def placed(data: dict[str, Any]) -> None:
        data["rounds"] = 1
        blue_unit(data, "SISSI")["cell"] = [18, 11]
        blue_unit(data, "SISSI")["strength"] = 2
        red_unit(data, "R22")["cell"] = [23, 12]
        red_unit(data, "R21")["cell"] = [30, 2]
        for uid in ("R23", "R24", "R25"):
            drop_unit(data, uid)

    state = new_game(build("terasvalli", placed), 1)
    spotted = Contact("c8", ContactLevel.SPOTTED, (23, 12), None, "motorisoitu_jalkavakiryhma")
    state = dataclasses.replace(state, contacts={**state.contacts, "blue": {"R22": spotted}})
    tactic = [
        o for o in legal_orders(state, "co") if "vetaytyminen" in str(o) and "SISSI" in str(o)
    ]
    assert tactic
    state, _ = apply(state, "co", tactic[0])
    ridge = {(20, 10), (21, 10), (21, 11), (22, 11), (23, 11), (23, 12), (24, 12)}

    def first_order() -> Order:
        view = view_for(state, "pl1", log_limit=0)
        assert isinstance(view, SideView) and view.phase == "command"
        assert view.turn == view.rounds and not tactical._last_word(view)
        order = TacticalBot(1).choose(view, lazy_bot_orders(state, "pl1"), cache_for(state).opts)
        assert is_legal(state, "pl1", order)
        return order

    grab = first_order()
    assert grab.unit == "SISSI" and grab.cell is not None
    assert tactical._as_cell(grab.cell) in ridge
    monkeypatch.setattr(tactical, "GRAB_FIRST", False)
    away = first_order()
    assert away.kind is OrderKind.WITHDRAW and away.unit == "SISSI"
    assert away.cell is not None and tactical._as_cell(away.cell) not in ridge


def _red_decision_on_demo(
    seed: int, stop: Callable[[Any, SideView, Any], bool]
) -> tuple[Any, str, SideView, TacticalBot, Any]:
    """Play ``demo`` seed ``seed`` (the baseline as Blue, the tactical player as Red) until
    Red's player gives an order ``stop(state, view, order)`` accepts: the state, seat and
    view it decided in, a copy of the player from before the decision, and the order."""
    import copy

    from taistelukentta.bots.players import make_bot
    from taistelukentta.bots.runner import lazy_bot_orders
    from taistelukentta.rules.context import cache_for

    state = new_game(load_scenario("demo"), seed)
    blue = make_bot("baseline", bot_seed(seed, "blue"))
    red = TacticalBot(bot_seed(seed, "red"))
    for _ in range(400):
        seat = next_seat(state)
        assert seat is not None
        if state.active == "blue":
            order = bot_order(state, seat, blue)
        else:
            view = view_for(state, viewer_of(seat), log_limit=0)
            assert isinstance(view, SideView)
            before = copy.deepcopy(red)
            order = red.choose(view, lazy_bot_orders(state, seat), cache_for(state).opts)
            if stop(state, view, order):
                return state, seat, view, before, order
        state, _ = apply(state, seat, order)
    raise AssertionError(f"seed {seed}: Red never gave the order looked for")


def test_a_weak_attackers_unit_in_cover_on_an_objective_keeps_its_ground(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Red on ``demo`` (``KEEP_GROUND``): in seed 10, Red's round 3, the BMP (R12, hurt: 7
    of 14) stands in the crossroads' building (16,11); without the rule its attack order
    moves it first to the farthest listed origin, (21,10), off the crossroads. With the rule
    the same player in the same position is offered no order that takes the BMP off its
    cell, and the crossroads stays held."""

    from taistelukentta.bots.runner import lazy_bot_orders
    from taistelukentta.rules.context import cache_for

    monkeypatch.setattr(tactical, "KEEP_GROUND", False)
    state, seat, view, before, without = _red_decision_on_demo(
        10, lambda st, v, o: o.unit == "R12" and o.cell is not None and st.turn_no == 6
    )
    assert state.units["R12"].cell == (16, 11)
    assert without.kind is OrderKind.ATTACK and without.cell == (21, 10), without
    monkeypatch.setattr(tactical, "KEEP_GROUND", True)
    kept = before.choose(view, lazy_bot_orders(state, seat), cache_for(state).opts)
    off_cell = (OrderKind.MOVE, OrderKind.ATTACK, OrderKind.WITHDRAW, OrderKind.DISENGAGE)
    assert not (kept.unit == "R12" and kept.kind in off_cell and kept.cell is not None), kept
    assert is_legal(state, seat, kept)


def test_a_weak_attackers_last_word_attacks_from_any_listed_origin(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Red on ``demo`` (``FINAL_ORIGINS``): in seed 1, Red's last word, Blue's 2R2 stands on
    the crossroads. Offered only the farthest origins, the player's first order moves the
    BMP onto the crossroads without firing (a basic move); offered every origin the engine
    lists, the BMP's attack order moves it onto the crossroads and fires at 2R2 in the same
    order."""
    import copy

    from taistelukentta.bots.players import make_bot
    from taistelukentta.bots.runner import attack_candidates, lazy_bot_orders
    from taistelukentta.rules.context import cache_for

    # the position is the one the player reached before NO_AREA and LEADERS_HOLD (which
    # change the game)
    monkeypatch.setattr(tactical, "NO_AREA", False)
    monkeypatch.setattr(tactical, "LEADERS_HOLD", False)
    seed = 1
    state = new_game(load_scenario("demo"), seed)
    blue = make_bot("baseline", bot_seed(seed, "blue"))
    red = TacticalBot(bot_seed(seed, "red"))
    while not (state.turn_no == 12 and state.active == "red"):
        seat = next_seat(state)
        assert seat is not None
        player = blue if state.active == "blue" else red
        state, _ = apply(state, seat, bot_order(state, seat, player))
    seat = next_seat(state)
    assert seat is not None
    view = view_for(state, viewer_of(seat), log_limit=0)
    assert isinstance(view, SideView) and tactical._last_word(view)
    opts = cache_for(state).opts
    monkeypatch.setattr(tactical, "FINAL_ORIGINS", False)
    without = copy.deepcopy(red).choose(view, lazy_bot_orders(state, seat), opts)
    monkeypatch.setattr(tactical, "FINAL_ORIGINS", True)
    got = copy.deepcopy(red).choose(view, lazy_bot_orders(state, seat), opts)
    crossroads = {(x, y) for x in (14, 15, 16) for y in (10, 11, 12)}
    assert without.kind is OrderKind.MOVE and without.unit == "R12", without
    assert got.kind is OrderKind.ATTACK and got.unit == "R12" and got.target == "2R2", got
    assert got.cell is not None and tactical._as_cell(got.cell) in crossroads
    assert got not in attack_candidates(state, seat, "R12")  # not a farthest origin
    assert is_legal(state, seat, got)


def test_a_weak_attackers_armour_attacks_instead_of_area_fire_before_the_last_word(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Red on ``demo`` (``NO_AREA``): in seed 3037, Red's round 3, two Blue units (1JJ at 4
    of 8, 2R1) stand on (14,10), at the edge of the BMP's zone of control. Without the rule
    the BMP (R12) spends the KP and its fire on area fire at that cell (R-AB-3), as it then
    does every turn until the last word. With it the same player in the same position gives
    no area fire, and its order is legal."""

    from taistelukentta.bots.knowledge import AREA_ABILITY
    from taistelukentta.bots.runner import lazy_bot_orders
    from taistelukentta.rules.abilities import ability_of
    from taistelukentta.rules.context import cache_for

    monkeypatch.setattr(tactical, "NO_AREA", False)
    state, seat, view, before, without = _red_decision_on_demo(
        3037, lambda st, v, o: v.phase == "command" and ability_of(o) == AREA_ABILITY
    )
    assert state.round == 3 and without.unit == "R12" and without.cell == (14, 10), without
    on_cell = {u.id for u in state.units.values() if u.cell == (14, 10)}
    assert on_cell == {"1JJ", "2R1"}, on_cell
    monkeypatch.setattr(tactical, "NO_AREA", True)
    with_rule = before.choose(view, lazy_bot_orders(state, seat), cache_for(state).opts)
    assert ability_of(with_rule) != AREA_ABILITY, with_rule
    assert is_legal(state, seat, with_rule)


def test_a_weak_attackers_leader_gives_no_attack_order_before_the_last_word(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Red on ``demo`` (``LEADERS_HOLD``): in seed 5, Red's round 3, without the rule the
    command unit (R11) attacks 1R1 from the farthest origin, (20,10), in the open in front
    of Blue's platoon (where Red's command unit was lost most often). With the rule the same
    player in the same position gives no attack order to a leader, and its order is
    legal."""
    from taistelukentta.bots.runner import lazy_bot_orders
    from taistelukentta.rules.context import cache_for

    monkeypatch.setattr(tactical, "LEADERS_HOLD", False)
    state, seat, view, before, without = _red_decision_on_demo(
        5, lambda st, v, o: o.kind is OrderKind.ATTACK and o.unit == "R11"
    )
    assert state.round == 3 and not tactical._last_word(view)
    assert without.cell == (20, 10) and without.target == "1R1", without
    monkeypatch.setattr(tactical, "LEADERS_HOLD", True)
    with_rule = before.choose(view, lazy_bot_orders(state, seat), cache_for(state).opts)
    assert not (with_rule.kind is OrderKind.ATTACK and with_rule.unit == "R11"), with_rule
    assert is_legal(state, seat, with_rule)


def test_a_weak_attackers_leader_stages_one_move_from_the_other_objective(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Red on ``demo`` (``STAGE_LEADER``): in Red's rounds 4 and 5 its command unit R11 heads
    for a cell one move from Kotkanmäki (the objective its squads are not sent to), so that
    in the last word it can step onto it; before (round 3) and without the rule it follows
    its squads, heading for the crossroads."""
    from taistelukentta.bots import commander
    from taistelukentta.rules.context import cache_for

    def placed(data: dict[str, Any]) -> None:
        red_unit(data, "R11")["cell"] = [29, 3]
        for uid, cell in (("R13", [23, 15]), ("R14", [23, 16]), ("R15", [24, 15])):
            red_unit(data, uid)["cell"] = cell

    state = new_game(build("demo", placed), 1)
    while state.active != "red":
        seat = next_seat(state)
        assert seat is not None
        state, _ = apply(state, seat, Order.done())
    kotka = next(o for o in load_scenario("demo").objectives if o.id == "kotkanmaki")
    field = tactical.cost_field("demo", tuple((int(c[0]), int(c[1])) for c in kotka.cells))

    def goal(rnd: int) -> tuple[int, int] | None:
        view = view_for(state, "red", log_limit=0)
        assert isinstance(view, SideView)
        view = view.model_copy(update={"turn": rnd, "turn_no": 2 * rnd})
        bot = TacticalBot(1)
        bot._objective_cells = {tactical._as_cell(c) for o in view.objectives for c in o.cells}
        s = commander.seen(view, cache_for(state).opts)
        return bot._goals(s, tactical.public_map("demo"))["R11"]

    movement = 7  # the command unit's card
    for rnd in (4, 5):
        staged = goal(rnd)
        assert staged is not None and movement - 2 <= field[staged] <= movement - 0.5, staged
    early = goal(3)
    assert early is not None and field[early] > movement  # behind its squads: not staged
    monkeypatch.setattr(tactical, "STAGE_LEADER", False)
    assert goal(4) == early
