"""One set of attack terms (rules.terms.attack_terms) for resolution, the odds a side is
shown and the computer player (R-ATK-2, R-ATK-3, R-ATK-6, R-ATK-7, R-TER-5, R-MOR-2)."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taistelukentta.bots.knowledge import shot_value
from taistelukentta.bots.runner import simulate
from taistelukentta.content.options import RuleOptions
from taistelukentta.content.scenario import load_scenario
from taistelukentta.rules import GameState, apply, new_game
from taistelukentta.rules.context import Tx, cache_for
from taistelukentta.rules.fire import resolve_fire, weapon_of
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.state import SIDES, Side
from taistelukentta.rules.terms import AttackSituation, ModuleTerm, attack_terms
from taistelukentta.views import attack_estimate, view_for
from taistelukentta.views.models import OwnUnitView, SideView


@cache
def _game(name: str, seed: int) -> tuple[GameState, ...]:
    """Every state of a bot game."""
    scen = load_scenario(name)
    _, played = simulate(scen, seed)
    state = new_game(scen, seed)
    out = [state]
    for p in played:
        state, _ = apply(state, p.seat, p.order)
        out.append(state)
    return tuple(out)


def _pairs(state: GameState) -> list[tuple[Side, str, str]]:
    """(side, own unit, SPOTTED enemy) a direct-fire odds question can be asked about."""
    cache_ = cache_for(state)
    out: list[tuple[Side, str, str]] = []
    for side in SIDES:
        for u in state.units_of(side):
            if weapon_of(cache_, u).indirect:
                continue
            for tid, c in sorted(state.contacts[side].items()):
                if c.level == ContactLevel.SPOTTED and tid in state.units:
                    out.append((side, u.id, tid))
    return out


def _check_same_terms(state: GameState, side: Side, aid: str, tid: str) -> set[str]:
    """Resolve the attack on a scratch transaction and compare its logged terms with the
    firing side's odds; the names of the terms seen."""
    est = attack_estimate(state, side, aid, tid)
    tx = Tx(state)
    resolve_fire(tx, aid, tid, "fire")
    (ev,) = [e for e in tx.events if e.kind == "attack"]
    data = ev.data
    assert dict(est.modifiers) == data["modifiers"]
    assert est.bonus == data["bonus"]
    assert est.defence == data["defence"]
    assert list(est.disadvantage_reasons) == data["disadvantage_reasons"]
    confused = bool(state.units[tid].confused)
    assert [r for r in data["advantage_reasons"] if r != "confused"] == list(est.advantage_reasons)
    assert ("confused" in data["advantage_reasons"]) == confused
    if not confused:
        assert est.advantage.value == data["advantage"]
    # every term names the rule that grants it
    assert all(t.rule.startswith(("R-ATK-", "R-TER-", "R-MOR-")) for t in est.terms)
    return {t.name for t in est.terms if t.amount or t.kind != "bonus"}


@settings(max_examples=25, deadline=None)
@given(
    name=st.sampled_from(["demo", "terasvalli"]),
    seed=st.integers(min_value=1, max_value=3),
    where=st.floats(min_value=0, max_value=1),
    pick=st.randoms(use_true_random=False),
)
def test_r_atk_2_resolution_and_odds_use_the_same_terms(
    name: str, seed: int, where: float, pick: random.Random
) -> None:
    """In random situations of played games, the terms the engine resolves an attack with
    (logged in its ``attack`` event) are the terms the firing side's odds show — except the
    target's R-ATK-6 confusion, which the firing side cannot know."""
    states = _game(name, seed)
    state = states[int(where * (len(states) - 1))]
    if not _pairs(state):
        state = next(s for s in states if _pairs(s))
    pairs = _pairs(state)
    for side, aid, tid in pick.sample(pairs, min(len(pairs), 25)):
        _check_same_terms(state, side, aid, tid)


def test_r_atk_7_the_same_terms_sweep_covers_every_kind_of_term() -> None:
    """Every pair of every 10th state of a few games: the comparison above meets every
    kind of term (so a term the odds forgot would be caught)."""
    seen: set[str] = set()
    for name, seed in (("demo", 1), ("demo", 2), ("terasvalli", 1)):
        for state in _game(name, seed)[::4]:
            pairs = _pairs(state)
            # a target showing a status, and the first pair of each state
            picked = [p for p in pairs if state.units[p[2]].suppressed is not None][:3]
            for side, aid, tid in picked + pairs[:1]:
                seen |= _check_same_terms(state, side, aid, tid)
    for term in ("skill", "weapon", "elevation", "suppressed", "protection", "cover"):
        assert term in seen, (term, seen)


def test_r_atk_7_flanked_target_same_terms_in_resolution_and_odds() -> None:
    """Two more own units moved beside the target on opposite sides (bot games rarely
    flank): resolution and the side's odds both count the flanking advantage."""
    state = next(s for s in _game("demo", 2) if _pairs(s))
    side, aid, tid = _pairs(state)[0]
    tcell = state.units[tid].cell
    others = [u.id for u in state.units_of(side) if u.id != aid][:2]
    assert len(others) == 2

    def place(tx: Tx) -> None:
        tx.update(others[0], cell=(tcell[0] - 1, tcell[1]))
        tx.update(others[1], cell=(tcell[0] + 1, tcell[1]))

    tx = Tx(state)
    place(tx)
    flanking = tx.finish()
    assert "flanked" in _check_same_terms(flanking, side, aid, tid)


def test_r_atk_7_terms_follow_the_games_options_not_the_defaults() -> None:
    """The same situation under two option sets: fully open terrain gives advantage only
    with ``fully_open_advantage``; a building disadvantage only with ``fortified_source``
    building_or_position; SHAKEN costs ``shaken_attack_penalty``."""
    base = load_scenario("demo").options
    s = AttackSituation(
        skill=3, weapon_bonus=1, shaken=True, fully_open=True, fortified=True, protection=12
    )
    on = attack_terms(s, base)
    assert on.bonus == 3 + 1 - base.shaken_attack_penalty
    off_opts = base.model_copy(
        update={
            "fully_open_advantage": not base.fully_open_advantage,
            "fortified_source": "scenario"
            if base.fortified_source == "building_or_position"
            else "building_or_position",
            "shaken_attack_penalty": base.shaken_attack_penalty + 2,
        }
    )
    off = attack_terms(s, off_opts)
    assert ("fully_open" in on.advantage_reasons) != ("fully_open" in off.advantage_reasons)
    assert ("fortified" in on.disadvantage_reasons) != ("fortified" in off.disadvantage_reasons)
    assert off.bonus == on.bonus - 2
    # cover on the line takes the open-terrain advantage away (R-ATK-7)
    covered = attack_terms(replace(s, cover=2), base)
    assert "fully_open" not in covered.advantage_reasons and covered.defence == 14


def test_r_atk_2_module_terms_keep_their_module_name_and_order() -> None:
    s = AttackSituation(
        skill=2,
        weapon_bonus=0,
        suppressed=True,
        modules=(ModuleTerm("company", 2), ModuleTerm("abilities", 0, advantage=True)),
    )
    t = attack_terms(s, load_scenario("demo").options)
    assert t.modifiers == {"skill": 2, "weapon": 0, "company": 2}
    assert t.advantage_reasons == ["suppressed", "abilities"]
    assert [x.rule for x in t.terms if x.kind == "defence"] == ["R-ATK-3", "R-TER-2"]


def test_r_atk_5_bot_judges_with_the_scenarios_options() -> None:
    """The computer player's hit chance comes from the same terms and the game's options:
    a scenario where a natural 20 always hits heavily values a shot differently."""
    states = _game("demo", 2)
    state = next(s for s in states if any(p[0] == "blue" for p in _pairs(s)))
    view = view_for(state, "blue", log_limit=0)
    assert isinstance(view, SideView)
    me = next(u for u in view.own_units() if not u.weapon.indirect)
    enemy = view.enemy_units()[0]
    opts: RuleOptions = cache_for(state).opts
    other = opts.model_copy(update={"heavy_hit_margin": 1, "pinning_margin": -1})
    assert isinstance(me, OwnUnitView)
    assert shot_value(me, enemy, opts) == shot_value(me, enemy)  # demo: the defaults
    assert shot_value(me, enemy, other) != shot_value(me, enemy, opts)


@pytest.mark.parametrize("viewer", ["blue", "red"])
def test_r_atk_2_view_bonus_is_the_attackers_own_terms(viewer: str) -> None:
    """The weapon bonus a view shows is the sum of the firer's own terms (TT, weapon,
    SHAKEN, pinning) of attack_terms — the bot starts from it."""
    state = _game("demo", 3)[40]
    view = view_for(state, viewer, log_limit=0)
    cache_ = cache_for(state)
    for u in view.units:
        if not isinstance(u, OwnUnitView):
            continue
        unit = state.units[u.id]
        w = cache_.card(unit).basic_weapon
        own = attack_terms(
            AttackSituation(
                skill=cache_.skill(unit),
                weapon_bonus=w.attack_bonus,
                shaken=unit.shaken is not None,
                pinning_penalty=unit.pinning_penalty if unit.pinned is not None else 0,
            ),
            cache_.opts,
        )
        assert u.weapon.bonus == own.bonus


def test_r_rec_1_recon_terms_are_the_games_options_and_the_odds_use_them() -> None:
    """One set of recon terms (rules.terms.recon_terms) for resolution and odds: the
    scout's bonus is TT + elevation (R-TER-5), the defender's die and the margins are the
    game's options, and the exact odds of those terms add up to 1."""
    from fractions import Fraction

    from taistelukentta.odds.exact import recon_odds
    from taistelukentta.rules.terms import ReconSituation, recon_terms

    base = load_scenario("demo").options
    other = base.model_copy(update={"recon_defender_die": "d8", "recon_spotted_at": 7})
    situation = ReconSituation(skill=3, stealth=2, cover=1, elevation=1)
    plain, changed = recon_terms(situation, base), recon_terms(situation, other)
    assert plain.bonus == changed.bonus == 4
    assert [(t.rule, t.amount) for t in plain.terms] == [("R-REC-1", 3), ("R-TER-5", 1)]
    assert str(changed.defender_die) == "d8" and changed.spotted_at == 7
    a = recon_odds(plain.bonus, plain.stealth, plain.cover, **plain.roll_options())
    b = recon_odds(changed.bonus, changed.stealth, changed.cover, **changed.roll_options())
    assert sum(a.as_dict().values(), Fraction(0)) == 1 == sum(b.as_dict().values(), Fraction(0))
    assert a.spotted != b.spotted  # the options reach the odds


def test_r_mor_2_morale_terms_are_the_games_options() -> None:
    """One set of morale terms (rules.terms.morale_terms) for the engine's tests and the
    odds: M − marks + strength + the modules' hooks, and the game's outcome thresholds."""
    from taistelukentta.rules.terms import MoraleSituation, morale_terms

    base = load_scenario("demo").options
    other = base.model_copy(update={"morale_retreat_at": base.morale_retreat_at + 2})
    s = MoraleSituation(morale=4, marks=2, strength=-1, modules=-1)
    plain, changed = morale_terms(s, base), morale_terms(s, other)
    assert plain.bonus == changed.bonus == 0
    assert [(t.rule, t.amount) for t in plain.terms] == [
        ("R-MOR-2", 4),
        ("R-ATK-5", -2),
        ("R-TK-1", -1),
        ("R-MOR-4", -1),
    ]
    assert changed.roll_options()["retreat_at"] == plain.roll_options()["retreat_at"] + 2
