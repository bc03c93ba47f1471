"""``tk20 odds``: exact odds of an attack, a morale test and a recon roll.

Rule options come from ``data/options.toml`` (:func:`content.options.load_options`), so a
game master who changes a DEFAULT or switches on a variant sees odds for the rules in force.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated

import typer
from rich.table import Table

from taistelukentta.cli.common import console, fail, fail_error, print_json
from taistelukentta.content.options import RuleOptions, load_options
from taistelukentta.dice.expr import DiceExpr
from taistelukentta.dice.roller import Advantage
from taistelukentta.errors import TkError
from taistelukentta.i18n import num, pct, term, tr
from taistelukentta.odds.exact import attack_odds, morale_odds, recon_odds
from taistelukentta.odds.strike import terms_odds
from taistelukentta.rules.strike_geometry import WEAPONS
from taistelukentta.rules.terms import (
    MoraleSituation,
    ReconSituation,
    StrikeSituation,
    morale_terms,
    recon_terms,
    strike_terms,
)

#: Sane ranges of the numeric arguments (inclusive); anything outside is a typo.
BONUS_RANGE = (-30, 30)
DEFENCE_RANGE = (0, 60)
DC_RANGE = (1, 60)

odds_app = typer.Typer(
    name="odds",
    help="Tarkat todennäköisyydet / exact odds: attack, morale, recon, strike.",
    no_args_is_help=True,
)

JsonFlag = Annotated[
    bool, typer.Option("--json", help="Tulosta vain JSON / print one JSON object only.")
]


def register(app: typer.Typer) -> None:
    """Add the ``odds`` sub-commands to ``app``."""
    app.add_typer(odds_app, name="odds")


def _options() -> RuleOptions:
    try:
        return load_options()
    except TkError as exc:
        fail_error(exc)


def _check_range(value: int, option: str, bounds: tuple[int, int]) -> None:
    low, high = bounds
    if not low <= value <= high:
        fail(
            tr(
                f"{option}: arvon on oltava välillä {low}…{high}, saatiin {value}",
                f"{option}: the value must be within {low}..{high}, got {value}",
            )
        )


def _pct(p: Fraction) -> str:
    return pct(p)


def _number(x: Fraction) -> str:
    return num(x, 2)


def _outcome_table(title: str, rows: list[tuple[str, Fraction]]) -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column(tr("Tulos", "Result"))
    table.add_column(tr("Todennäköisyys", "Probability"), justify="right")
    for label, p in rows:
        table.add_row(label, _pct(p))
    return table


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else str(value)


@odds_app.command("attack")
def attack_cmd(
    bonus: Annotated[
        int,
        typer.Option(
            "--bonus",
            help=(
                "Kaikki d20:een lisättävät bonukset (TT + ase + muut) / "
                "every bonus added to the d20 (skill + weapon + others)."
            ),
        ),
    ],
    defence: Annotated[
        int,
        typer.Option(
            "--defence", help="Puolustus = kohteen S + suoja / defence = the target's S + cover."
        ),
    ],
    advantage: Annotated[
        bool, typer.Option("--advantage", help="Etu (2d20, suurempi) / advantage (2d20, higher).")
    ] = False,
    disadvantage: Annotated[
        bool,
        typer.Option(
            "--disadvantage", help="Haitta (2d20, pienempi) / disadvantage (2d20, lower)."
        ),
    ] = False,
    damage: Annotated[
        str,
        typer.Option(
            "--damage", help="Vahinkonoppa (TI), esim. d6, 2d4+1 / damage dice, e.g. d6, 2d4+1."
        ),
    ] = "d6",
    json_out: JsonFlag = False,
) -> None:
    """Hyökkäyksen tarkat todennäköisyydet (R-ATK-4…6) / exact odds of an attack."""
    _check_range(bonus, "--bonus", BONUS_RANGE)
    _check_range(defence, "--defence", DEFENCE_RANGE)
    try:
        expr = DiceExpr.parse(damage)
    except TkError as exc:
        fail_error(exc)
    adv = Advantage.of(advantage, disadvantage)
    opts = _options()
    odds = attack_odds(
        bonus,
        defence,
        advantage=adv,
        damage=expr,
        heavy_hit_extra=opts.heavy_hit_extra,
        natural20_miss=opts.natural20_miss,
        heavy_hit_margin=opts.heavy_hit_margin,
        pinning_margin=opts.pinning_margin,
    )
    if json_out:
        print_json({key: float(value) for key, value in odds.as_dict().items()})
        return
    adv_text = {
        Advantage.NONE: "",
        Advantage.ADVANTAGE: tr(", etu", ", advantage"),
        Advantage.DISADVANTAGE: tr(", haitta", ", disadvantage"),
    }[adv]
    title = tr(
        f"Hyökkäys: d20{_signed(bonus)} vs puolustus {defence}{adv_text}, TI {expr}",
        f"Attack: d20{_signed(bonus)} vs defence {defence}{adv_text}, damage {expr}",
    )
    table = _outcome_table(
        title,
        [
            (term("HEAVY_HIT"), odds.heavy_hit),
            (term("HIT"), odds.hit),
            (term("PINNING"), odds.pinning),
            (term("MISS"), odds.miss),
        ],
    )
    table.add_section()
    table.add_row(tr("Luonnollinen 1 (takaisku)", "Natural 1 (setback)"), _pct(odds.natural_1))
    table.add_row(tr("Odotettu vahinko", "Expected damage"), _number(odds.expected_damage))
    console.print(table)


@odds_app.command("morale")
def morale_cmd(
    bonus: Annotated[
        int,
        typer.Option("--bonus", help="M + moraalimuuttujat yhteensä / M + every morale modifier."),
    ],
    dc: Annotated[int, typer.Option("--dc", help="Vaikeusaste / difficulty class (DC).")],
    json_out: JsonFlag = False,
) -> None:
    """Moraalitestin tarkat todennäköisyydet (R-MOR-2) / exact odds of a morale test."""
    _check_range(bonus, "--bonus", BONUS_RANGE)
    _check_range(dc, "--dc", DC_RANGE)
    # the same terms the engine's morale tests use (rules.terms.morale_terms)
    terms = morale_terms(MoraleSituation(morale=bonus), _options())
    odds = morale_odds(terms.bonus, dc, **terms.roll_options())
    if json_out:
        print_json({key: float(value) for key, value in odds.as_dict().items()})
        return
    title = tr(
        f"Moraalitesti: d20{_signed(bonus)} vs DC {dc}",
        f"Morale test: d20{_signed(bonus)} vs DC {dc}",
    )
    console.print(
        _outcome_table(
            title,
            [
                (term("PASS"), odds.passed),
                (term("SHAKEN"), odds.shaken),
                (term("SUPPRESSED"), odds.suppressed),
                (term("RETREATING"), odds.retreating),
            ],
        )
    )


@odds_app.command("recon")
def recon_cmd(
    bonus: Annotated[
        int,
        typer.Option(
            "--bonus", help="Tiedustelijan TT (+ korkeus) / the observer's skill (+ elevation)."
        ),
    ],
    stealth: Annotated[
        int, typer.Option("--stealth", help="Kohteen häive (H) / the target's stealth (H).")
    ],
    cover: Annotated[
        int, typer.Option("--cover", help="Kohteen suojabonus / the target's cover bonus.")
    ],
    json_out: JsonFlag = False,
) -> None:
    """Tiedustelun tarkat todennäköisyydet (R-REC-1/2) / exact odds of a recon roll."""
    _check_range(bonus, "--bonus", BONUS_RANGE)
    _check_range(stealth, "--stealth", BONUS_RANGE)
    _check_range(cover, "--cover", BONUS_RANGE)
    # the same terms the engine's recon resolution uses (rules.terms.recon_terms)
    terms = recon_terms(ReconSituation(skill=bonus, stealth=stealth, cover=cover), _options())
    odds = recon_odds(terms.bonus, terms.stealth, terms.cover, **terms.roll_options())
    if json_out:
        print_json({key: float(value) for key, value in odds.as_dict().items()})
        return
    title = tr(
        f"Tiedustelu: d20{_signed(bonus)} vs d12{_signed(stealth + cover)} "
        f"(H {stealth}, suoja {cover})",
        f"Recon: d20{_signed(bonus)} vs d12{_signed(stealth + cover)} "
        f"(stealth {stealth}, cover {cover})",
    )
    console.print(
        _outcome_table(
            title,
            [
                (term("NONE"), odds.none),
                (term("SUSPECTED"), odds.suspected),
                (term("KNOWN"), odds.known),
                (term("SPOTTED"), odds.spotted),
            ],
        )
    )


@odds_app.command("strike")
def strike_cmd(
    weapon: Annotated[str, typer.Option("--weapon", help="k9 | mlrs.")],
    contact: Annotated[
        str,
        typer.Option(
            "--contact", help="Tulenjohtajan kontakti / the observer's contact: known | spotted."
        ),
    ],
    skilled: Annotated[
        bool,
        typer.Option(
            "--skilled",
            help="Taitava tulenjohtaja (R-FD-3) / a skilled observer (TT at least the option's).",
        ),
    ] = False,
    json_out: JsonFlag = False,
) -> None:
    """Epäorgaanisen iskun osumakuvio (R-OFF-3/4) / exact footprint of an off-board strike.

    The request's terms are the engine's (``rules.terms.strike_terms``) under the rule
    options in force: the weapon's area and dice, the scatter mode, the KNOWN contact's
    shift and the skilled observer's reroll or shorter delay."""
    if weapon not in WEAPONS:
        fail(
            tr(
                f"--weapon: tuntematon ase {weapon!r}; valitse {' | '.join(sorted(WEAPONS))}",
                f"--weapon: unknown weapon {weapon!r}; choose {' | '.join(sorted(WEAPONS))}",
            )
        )
    if contact not in ("known", "spotted"):
        fail(
            tr(
                f"--contact: tuntematon taso {contact!r}; valitse known | spotted",
                f"--contact: unknown level {contact!r}; choose known | spotted",
            )
        )
    situation = StrikeSituation(
        "off_board", weapon, contact="known" if contact == "known" else "spotted", skilled=skilled
    )
    terms = strike_terms(situation, _options())
    odds = terms_odds(terms)
    w = terms.weapon_shape()
    if json_out:
        print_json(
            {
                "weapon": weapon,
                "contact": contact,
                "scatter": odds.scatter,
                "aimed_hit": float(odds.p_aimed_hit),
                "damage": {"soft": w.damage_soft, "armoured": w.damage_armoured},
                "requests": w.requests,
                "delay": {"min": terms.delay_min, "max": terms.delay_max},
                "morale_dc": terms.morale_dc,
                "terms": [
                    {"name": t.name, "rule": t.rule, "kind": t.kind, "amount": t.amount}
                    for t in terms.terms
                ],
                "cells": [
                    {
                        "dx": c.dx,
                        "dy": c.dy,
                        "hit": float(c.p_hit),
                        "morale_test": float(c.p_morale_test),
                        "expected_damage_soft": float(c.expected_damage_soft),
                        "expected_damage_armoured": float(c.expected_damage_armoured),
                    }
                    for c in odds.cells
                ],
            }
        )
        return
    level = term(contact.upper())
    title = tr(
        f"{weapon.upper()}-isku, kontakti {level}: osumatodennäköisyys ruuduittain "
        f"(X = maaliruutu; vahinko {w.damage_soft} jalkaväki / {w.damage_armoured} panssari)",
        f"{weapon.upper()} strike, contact {level}: chance each cell is hit "
        f"(X = aimed cell; damage {w.damage_soft} soft / {w.damage_armoured} armoured)",
    )
    by_cell = {(c.dx, c.dy): c for c in odds.cells}
    xs = sorted({c.dx for c in odds.cells})
    ys = sorted({c.dy for c in odds.cells})
    table = Table(title=title, title_justify="left", show_lines=False)
    table.add_column("")
    for x in xs:
        table.add_column(f"{x:+d}", justify="right")
    for y in ys:
        row = [f"{y:+d}"]
        for x in xs:
            cell = by_cell.get((x, y))
            if cell is None or cell.p_morale_test == 0:
                row.append("")
                continue
            text = _pct(cell.p_hit) if cell.p_hit else "·"
            row.append(f"[bold]X {text}[/]" if (x, y) == (0, 0) else text)
        table.add_row(*row)
    console.print(table)
    aimed = by_cell[(0, 0)]
    console.print(
        tr(
            f"Maaliruutu: osuma {_pct(aimed.p_hit)}, odotettu vahinko "
            f"{_number(aimed.expected_damage_soft)} (jalkaväki) / "
            f"{_number(aimed.expected_damage_armoured)} (panssari). "
            f"'·' = vain moraalitesti (DC {terms.morale_dc}). Pyyntöjä: {w.requests}. "
            f"Viive {terms.delay_min}–{terms.delay_max} vuoroa.",
            f"Aimed cell: hit {_pct(aimed.p_hit)}, expected damage "
            f"{_number(aimed.expected_damage_soft)} (soft) / "
            f"{_number(aimed.expected_damage_armoured)} (armoured). "
            f"'·' = morale test only (DC {terms.morale_dc}). Requests used: {w.requests}. "
            f"Delay {terms.delay_min}–{terms.delay_max} turns.",
        ),
        highlight=False,
    )
