"""One set of fire-request terms (``rules.terms.strike_terms``) for the engine's request
and impact, the odds a side is shown (``views.strike_estimate``, ``tk20 odds strike``, the
server's odds) and the computer player's aim — with the scenario's options, from the
requesting side's knowledge (R-OFF-2, R-OFF-3, R-OFF-4, R-FD-3, R-FD-4, R-ORG-1)."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Any

import pytest
from typer.testing import CliRunner

from taistelukentta.bots import choose_order
from taistelukentta.bots.commander import seen, strike_view_terms
from taistelukentta.cli.app import app
from taistelukentta.content.options import RuleOptions, load_options
from taistelukentta.odds.strike import SCATTER_MODES, strike_odds, terms_odds
from taistelukentta.rules import GameState, Order, apply
from taistelukentta.rules.context import cache_for
from taistelukentta.rules.engine import new_game
from taistelukentta.rules.fire_support import organic_situation, strike_order, strike_situation
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.terms import StrikeSituation, strike_terms
from taistelukentta.views import strike_estimate
from tests.bots.test_commander import _command, _spotted, _unit, _view
from tests.engine_fire_support.conftest import fs_scenario, with_contact, with_unit
from tests.engine_fire_support.test_scatter_odds import engine_distribution

OPTIONS = load_options()
RED = [("R1", "motorisoitu_jalkavakiryhma", (15, 10))]


def _opts(**changes: Any) -> RuleOptions:
    return OPTIONS.model_copy(update=changes)


def _off_board(
    options: dict[str, Any] | None = None, level: ContactLevel = ContactLevel.SPOTTED
) -> GameState:
    sc = fs_scenario(
        blue=[("1R1", "jaakariryhma", (10, 10))],
        red=RED,
        rounds={},
        requests=5,
        weapons=("k9", "mlrs"),
        options=options,
    )
    return with_contact(new_game(sc, 3), "blue", "R1", level)


def test_r_off_3_terms_take_the_scenarios_weapon_figures() -> None:
    opts = _opts(k9_area=3, k9_damage_soft="2d6", k9_damage_armoured="1d6", off_board_morale_dc=11)
    t = strike_terms(StrikeSituation("off_board", "k9"), opts)
    assert (t.size, t.damage_soft, t.damage_armoured, t.morale_dc) == (3, "2d6", "1d6", 11)
    assert t.weapon_shape().size == 3
    mlrs = strike_terms(StrikeSituation("off_board", "mlrs"), _opts(mlrs_requests=3))
    assert (mlrs.requests, mlrs.size, mlrs.damage_soft) == (3, 4, "4d8")
    # the odds of a 3x3 K9 cover 9 cells, and its expected damage is the option's dice
    odds = terms_odds(t)
    assert sum(c.p_hit for c in odds.cells) == 9
    aimed = next(c for c in odds.cells if (c.dx, c.dy) == (0, 0))
    assert aimed.expected_damage_soft == aimed.p_hit * 7
    with pytest.raises(ValueError, match="unknown strike type"):
        strike_terms(StrikeSituation("off_board", "howitzer"), OPTIONS)


@pytest.mark.parametrize(
    ("changes", "skilled", "span", "minus"),
    [
        ({}, False, (1, 3), 0),
        ({}, True, (1, 2), 1),
        ({"off_board_delay": "by_calibre"}, False, (2, 5), 0),
        ({"off_board_delay": "by_calibre"}, True, (1, 4), 1),
        ({"skilled_observer": "reroll_scatter_die"}, True, (1, 3), 0),
    ],
)
def test_r_off_2_and_r_fd_3_delay_terms(
    changes: dict[str, Any], skilled: bool, span: tuple[int, int], minus: int
) -> None:
    t = strike_terms(StrikeSituation("off_board", "k9", skilled=skilled), _opts(**changes))
    assert (t.delay_min, t.delay_max, t.delay_minus) == (*span, minus)
    assert t.reroll == (skilled and changes.get("skilled_observer") == "reroll_scatter_die")
    assert t.delay(1) == 1  # never below one turn
    names = {(x.rule, x.name, x.kind) for x in t.terms}
    assert (("R-FD-3", "skilled_observer", "delay") in names) == bool(minus)
    assert (("R-FD-3", "skilled_observer", "scatter") in names) == t.reroll


@pytest.mark.parametrize("scatter", SCATTER_MODES)
@pytest.mark.parametrize("known_shift", ["d2_d8_direction", "none"])
@pytest.mark.parametrize("skilled", [False, True])
def test_r_off_4_terms_odds_are_exactly_what_resolution_rolls(
    scatter: str, known_shift: str, skilled: bool
) -> None:
    """Every option the scatter depends on — mode, the KNOWN shift, the skilled observer's
    reroll (R-FD-3 variant) — goes from the terms both to the engine's roll and to the
    odds, and the two distributions are the same exactly."""
    opts = _opts(
        scatter=scatter, known_contact_shift=known_shift, skilled_observer="reroll_scatter_die"
    )
    t = strike_terms(StrikeSituation("off_board", "k9", contact="known", skilled=skilled), opts)
    hit, test = engine_distribution(t.weapon_shape(), "known", **t.scatter_options())
    odds = terms_odds(t)
    assert {c: p for c, p in hit.items() if p} == {
        (c.dx, c.dy): c.p_hit for c in odds.cells if c.p_hit
    }
    assert dict(test) == {(c.dx, c.dy): c.p_morale_test for c in odds.cells}


def test_r_off_4_known_shift_none_makes_a_known_contact_as_exact_as_spotted() -> None:
    opts = _opts(known_contact_shift="none")
    known = terms_odds(strike_terms(StrikeSituation("off_board", "k9", contact="known"), opts))
    assert known.cells == strike_odds("k9", "spotted").cells


def test_r_org_1_and_r_fd_4_organic_terms_from_the_support_card() -> None:
    sc = fs_scenario()
    state = new_game(sc, 1)
    cache = cache_for(state)
    krh = state.units["KRH"]
    weapon = next(w for w in cache.card(krh).weapons if w.indirect)
    t = strike_terms(organic_situation(cache, krh, boost=2), _opts(organic_delay=2))
    assert (t.kind, t.scatter, t.delay_min, t.delay_max) == ("organic", None, 2, 2)
    assert (t.damage_soft, t.damage_type, t.bonus) == (weapon.damage, weapon.damage_type, 2)
    assert [(x.rule, x.name, x.amount) for x in t.terms] == [("R-FD-4", "boost", 2)]
    with pytest.raises(ValueError, match="organic fire does not scatter"):
        terms_odds(t)


@pytest.mark.parametrize(
    ("level", "options"),
    [
        (ContactLevel.SPOTTED, {}),
        (ContactLevel.KNOWN, {}),
        (
            ContactLevel.KNOWN,
            {"skilled_observer": "reroll_scatter_die", "scatter": "corner_plus_d2"},
        ),
        (ContactLevel.SPOTTED, {"off_board_delay": "by_calibre", "k9_area": 3}),
    ],
)
def test_r_off_4_the_odds_shown_are_the_terms_the_engine_used(
    level: ContactLevel, options: dict[str, Any]
) -> None:
    """The side's estimate before the order and the engine's request are built from the
    same terms: contact, skill (R-FD-3), the scenario's options; the delay rolled lies in
    the range shown."""
    for xp in (0, 20):
        state = with_unit(_off_board(options, level), "1R1", xp=xp)
        order = strike_order("k9", (15, 10), "1R1")
        est = strike_estimate(state, "blue", order)
        assert est.terms is not None
        after, _ = apply(state, "co", order)
        pending = after.ext["fire_support"]["pending"][-1]
        used = strike_terms(
            StrikeSituation(
                "off_board", "k9", contact=pending["contact"], skilled=pending["skilled"]
            ),
            cache_for(state).opts,
        )
        assert used == est.terms
        assert est.terms.delay_min <= pending["delay"] <= est.terms.delay_max
        assert est.odds == terms_odds(used)
        assert est.terms.size == options.get("k9_area", 2)


def test_r_off_4_the_side_knows_only_its_own_observer_and_contact() -> None:
    state = with_unit(_off_board(None, ContactLevel.KNOWN), "1R1", xp=20)
    red_obs = strike_order("k9", (15, 10), "R1")
    assert strike_situation(state, "blue", red_obs).skilled is False
    own = strike_situation(state, "blue", strike_order("k9", (15, 10), "1R1"))
    assert (own.contact, own.skilled) == ("known", True)
    # a cell the side has no contact on counts as KNOWN at best (never more than it knows)
    assert strike_situation(state, "blue", strike_order("k9", (3, 3), "1R1")).contact == "known"


def test_r_off_4_tk20_odds_strike_uses_the_terms() -> None:
    runner = CliRunner()
    res = runner.invoke(
        app, ["odds", "strike", "--weapon", "k9", "--contact", "known", "--skilled", "--json"]
    )
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    t = strike_terms(StrikeSituation("off_board", "k9", contact="known", skilled=True), OPTIONS)
    assert doc["delay"] == {"min": t.delay_min, "max": t.delay_max}
    assert doc["morale_dc"] == t.morale_dc
    assert doc["terms"] == [
        {"name": x.name, "rule": x.rule, "kind": x.kind, "amount": x.amount} for x in t.terms
    ]
    want = terms_odds(t)
    assert doc["aimed_hit"] == float(want.p_aimed_hit)


def test_r_off_1_bot_aims_with_the_games_strike_terms() -> None:
    """The bot's aim is judged with the game's options: under 000's 2d4 bull's-eye scatter
    a KNOWN contact's strike can reach an own unit five cells away, so the bot holds back
    where the default scatter lets it strike."""
    units = [
        _unit("KP", "blue", (2, 2), seat="co", group="co"),
        _unit("1R1", "blue", (15, 10), seat="pl1"),
    ]
    area = {"label": "c1", "level": "KNOWN", "area": [19, 9, 3]}
    contacts = [area, _spotted("c2", "R2", (21, 10))]
    enemies = [_unit("R2", "red", (21, 10))]
    fs = {"pending": [], "rounds_left": {}, "requests_left": 3}
    hit = strike_order("k9", (20, 10), "KP")
    legal = [hit, Order.done()]
    view = _view(units + enemies, seat="co", contacts=contacts, command=_command(), fire_support=fs)
    plain = OPTIONS
    far = _opts(scatter="2d4_d8_bullseye")
    assert choose_order(view, legal, random.Random(0), plain) == hit
    assert choose_order(view, legal, random.Random(0), far) == Order.done()
    t = strike_view_terms(seen(view, far), hit)
    assert t is not None and t.scatter == "2d4_d8_bullseye" and t.contact == "known"
    assert sum(c.p_hit for c in terms_odds(t).cells) == Fraction(4)
