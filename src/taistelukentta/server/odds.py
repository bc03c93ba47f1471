"""Odds of an order for the API: the engine's estimates from the seat's side's knowledge,
each modifier named with the rule that gives it.

An attack's terms are the ones :func:`taistelukentta.rules.terms.attack_terms` gives
(through :func:`taistelukentta.views.attack_estimate`), the very list resolution uses: the
rule IDs are never kept here, so the odds a seat is shown and the roll cannot drift."""

from __future__ import annotations

from typing import Any

from taistelukentta.rules import GameState, Order
from taistelukentta.rules.context import cache_for
from taistelukentta.rules.fire_support import ORGANIC, STRIKE, strike_situation
from taistelukentta.rules.orders import OrderKind, order_weapon
from taistelukentta.rules.state import Side
from taistelukentta.rules.terms import StrikeTerms, Term, strike_terms
from taistelukentta.views import attack_estimate, strike_estimate

KINDS = (OrderKind.ATTACK, OrderKind.FIRE, STRIKE, ORGANIC)

_TERM_VALUE = {"advantage": 1, "disadvantage": -1}


def term_out(term: Term) -> dict[str, Any]:
    """One term of a roll for the API: ``value`` is its amount (bonus, defence) or +1 /
    -1 for advantage / disadvantage."""
    value = _TERM_VALUE.get(term.kind, term.amount)
    return {"name": term.name, "value": value, "rule": term.rule, "kind": term.kind}


def strike_delay(state: GameState, side: Side, order: Order) -> dict[str, Any]:
    """How many of the requesting side's own turns a fire request takes to land, as the
    request's terms (``rules.terms.strike_terms`` from the seat's own knowledge) give it
    before the order: organic support a fixed ``organic_delay`` (R-ORG-1); off-board the
    range of the secret delay roll (R-OFF-2: ``d6_table`` 1–3, ``by_calibre`` d4+1 =
    2–5), one less with a skilled observer under ``delay_minus_1`` (R-FD-3, at least 1)."""
    try:
        terms: StrikeTerms | None = strike_terms(
            strike_situation(state, side, order), cache_for(state).opts
        )
    except ValueError:
        terms = None
    return _delay(state, terms)


def _delay(state: GameState, terms: StrikeTerms | None) -> dict[str, Any]:
    if terms is None or terms.kind == "organic":
        # None: an organic request naming no support unit of the side (the option alone)
        n = terms.delay_min if terms is not None else int(cache_for(state).opts.organic_delay)
        return {"min": n, "max": n, "secret": False, "skilled": False, "rule": "R-ORG-1"}
    return {
        "min": terms.delay_min,
        "max": terms.delay_max,
        "secret": True,
        "skilled": terms.delay_minus > 0,
        "rule": "R-OFF-2",
    }


def odds_of(state: GameState, side: Side, order: Order) -> dict[str, Any]:
    """``{"kind", "odds", "terms"}`` for an attack/fire (R-ATK-*) or a fire request
    (R-OFF-*, R-ORG-1). ArgumentError (a TkError) when the side does not know the target."""
    if order.kind in (STRIKE, ORGANIC):
        est = strike_estimate(state, side, order)
        odds: dict[str, Any] = {
            "weapon": est.weapon,
            "aimed": list(est.aimed),
            "area": [list(c) for c in est.area],
            "scatter": str(est.scatter) if est.odds is not None else None,
            "p_aimed_hit": None if est.odds is None else float(est.odds.p_aimed_hit),
            "exposures": [
                {
                    "unit": e.unit,
                    "own": e.own,
                    "cell": list(e.cell),
                    "p_hit": float(e.p_hit),
                    "p_morale_test": float(e.p_morale_test),
                }
                for e in est.exposures
            ],
        }
        odds["delay"] = _delay(state, est.terms)
        out_terms = [] if est.terms is None else [term_out(t) for t in est.terms.terms]
        if order.kind == ORGANIC:  # no scatter: the area is certain (R-ORG-1)
            out_terms.insert(
                0, {"name": "scatter", "value": 0, "rule": "R-ORG-1", "kind": "scatter"}
            )
        return {"kind": order.kind.value, "odds": odds, "terms": out_terms}
    assert order.unit is not None and order.target is not None
    a = attack_estimate(state, side, order.unit, order.target, order.cell, order_weapon(order))
    outcomes = {k: float(v) for k, v in a.odds.outcomes().items()}
    terms = [term_out(t) for t in a.terms]
    return {
        "kind": order.kind.value,
        "odds": {
            "attacker": a.attacker,
            "target": a.target,
            "bonus": a.bonus,
            "defence": a.defence,
            "advantage": a.advantage.value,
            "damage": a.damage,
            "outcomes": outcomes,
            "expected_damage": float(a.odds.expected_damage),
        },
        "terms": terms,
    }
