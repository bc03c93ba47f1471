"""``tk20 rules``, ``tk20 units`` and ``tk20 unit ID``: the rule options and unit cards.

Both come from data files (``data/options.toml``, ``data/units/*.toml``); these commands
only show them. Human output is a rich table in the current language; ``--json`` prints one
JSON object.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import typer
from rich.markup import escape
from rich.padding import Padding
from rich.table import Table

from taistelukentta.cli.common import console, fail, fail_error, print_json
from taistelukentta.content.options import OptionSpec, option_specs
from taistelukentta.content.units import UnitCard, load_unit_cards
from taistelukentta.errors import TkError
from taistelukentta.i18n import get_language, num, term, tr

_KIND_TEXT = {
    "default": ("OLETUS", "DEFAULT"),
    "variant": ("muunnelma", "variant"),
    "amount": ("määrä", "amount"),
}
_TYPE_TEXT = {"infantry": ("jalkaväki", "infantry"), "vehicle": ("ajoneuvo", "vehicle")}
_SIDE_STYLE = {"blue": "blue", "red": "red"}
# Short column headers of the card list: the game's Finnish abbreviations / English.
_STAT_HEADERS = (
    ("TK", "Str"),
    ("M", "Mor"),
    ("TT", "Skl"),
    ("L", "Mv"),
    ("S", "Prot"),
    ("H", "Stl"),
    ("TI", "FP"),
)
_ROLE_TEXT = {
    "none": ("—", "—"),
    "company_commander": ("komppanianpäällikkö", "company commander"),
    "platoon_leader": ("joukkueenjohtaja", "platoon leader"),
    "battle_group_command": ("taisteluryhmän johto", "battle-group command"),
}


def _show(value: object) -> str:
    if isinstance(value, bool):
        return tr("kyllä", "true") if value else tr("ei", "false")
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if isinstance(value, float):
        return num(value)
    return str(value)


def _spec_json(spec: OptionSpec) -> dict[str, Any]:
    return {
        "name": spec.name,
        "rule": spec.rule,
        "kind": spec.kind,
        "value": spec.value,
        "choices": list(spec.choices) if spec.choices is not None else None,
        "variant": spec.variant,
        "description": tr(spec.fi, spec.en),
        "fi": spec.fi,
        "en": spec.en,
    }


def _card_summary(card: UnitCard) -> dict[str, Any]:
    s = card.stats
    return {
        "id": card.id,
        "name": tr(card.name.fi, card.name.en),
        "side": card.side,
        "type": card.type,
        "role": card.role,
        "strength": s.strength,
        "morale": s.morale,
        "skill": card.skill,
        "movement": s.movement,
        "protection": s.protection,
        "stealth": s.stealth,
        "firepower": s.firepower,
        "cost_tp": card.cost_tp,
        "example_values": card.example_values,
    }


def _card_json(card: UnitCard) -> dict[str, Any]:
    out: dict[str, Any] = card.model_dump(mode="json", exclude_none=True)
    out["skill"] = card.skill
    return out


def _load_cards() -> dict[str, UnitCard]:
    try:
        return load_unit_cards()
    except TkError as exc:
        fail_error(exc)


def rules_cmd(
    json_out: bool = typer.Option(False, "--json", help="Tulosta JSON / print JSON."),
    rule: str | None = typer.Option(
        None, "--rule", help="Vain tämän säännön (esim. R-ATK-4 tai R-ATK) / only this rule."
    ),
) -> None:
    """Sääntöoptiot: oletukset, muunnelmat ja määrät / rule options: defaults, variants, amounts."""
    try:
        specs = option_specs()
    except TkError as exc:
        fail_error(exc)
    if rule is not None:
        wanted = rule.upper()
        specs = tuple(
            s for s in specs if s.rule == wanted or s.rule.startswith(wanted.rstrip("-") + "-")
        )
        if not specs:
            fail(
                tr(
                    f"ei sääntöoptioita säännölle {rule!r}",
                    f"no rule options for rule {rule!r}",
                )
            )
    if json_out:
        print_json({"language": get_language(), "options": [_spec_json(s) for s in specs]})
        return
    if console.width < 120:  # a narrow terminal: one block per option, no table columns
        _rules_blocks(specs)
    else:
        _rules_table(specs)
    console.print(
        tr(
            f"{len(specs)} optiota. Skenaarion [options]-taulukko voi muuttaa arvoja.",
            f"{len(specs)} options. A scenario's [options] table may change the values.",
        ),
        markup=False,
    )


def _rules_blocks(specs: Sequence[Any]) -> None:
    """The rule options as blocks (readable at 80 columns): name, rule, kind and value on one
    line, the choices and the variant under it, then the description, indented."""
    console.print(tr("Sääntöoptiot", "Rule options"), style="bold", highlight=False)
    for s in specs:
        console.print(
            f"\n[bold]{escape(s.name)}[/]  {s.rule} · {tr(*_KIND_TEXT[s.kind])} · "
            f"{escape(_show(s.value))}",
            highlight=False,
        )
        extra = []
        if s.choices and len(s.choices) > 1:
            extra.append(tr("valinnat", "choices") + ": " + " | ".join(_show(c) for c in s.choices))
        if s.variant is not None:
            extra.append(f"{tr('muunnelma', 'variant')}: {_show(s.variant)}")
        if extra:
            console.print("  " + escape("; ".join(extra)), highlight=False, style="dim")
        console.print(Padding(escape(tr(s.fi, s.en)), (0, 0, 0, 2)), highlight=False)


def _rules_table(specs: Sequence[Any]) -> None:
    table = Table(title=tr("Sääntöoptiot", "Rule options"))
    table.add_column(tr("Optio", "Option"), style="bold", no_wrap=True)
    table.add_column(tr("Sääntö", "Rule"), no_wrap=True)
    table.add_column(tr("Laji", "Kind"), no_wrap=True)
    table.add_column(tr("Arvo", "Value"))
    table.add_column(tr("Kuvaus", "Description"))
    for s in specs:
        value = _show(s.value)
        if s.choices and len(s.choices) > 1:
            value += "\n(" + " | ".join(_show(c) for c in s.choices) + ")"
        if s.variant is not None:
            value += f"\n{tr('muunnelma', 'variant')}: {_show(s.variant)}"
        table.add_row(
            s.name,
            s.rule,
            tr(*_KIND_TEXT[s.kind]),
            escape(value),
            escape(tr(s.fi, s.en)),
        )
    console.print(table)


def units_cmd(
    json_out: bool = typer.Option(False, "--json", help="Tulosta JSON / print JSON."),
    side: str | None = typer.Option(None, "--side", help="blue | red"),
) -> None:
    """Yksikkökortit / the unit cards."""
    cards = _load_cards()
    if side is not None:
        if side not in ("blue", "red"):
            fail(
                tr(
                    f"--side: valitse blue tai red, ei {side!r}",
                    f"--side: choose blue or red, not {side!r}",
                )
            )
        cards = {k: c for k, c in cards.items() if c.side == side}
    if json_out:
        print_json({"units": [_card_summary(c) for c in cards.values()]})
        return
    table = Table(title=tr("Yksikkökortit", "Unit cards"))
    table.add_column(tr("id / nimi", "id / name"))
    for header in _STAT_HEADERS:
        table.add_column(tr(*header), justify="right", no_wrap=True)
    table.add_column("TP", justify="right", no_wrap=True)
    for c in cards.values():
        s = c.stats
        weapons = ", ".join(w.id for w in c.weapons)
        table.add_row(
            f"[bold {_SIDE_STYLE[c.side]}]{c.id}[/]\n{escape(tr(c.name.fi, c.name.en))}"
            f" · {term(c.side)}\n[dim]{tr('aseet', 'weapons')}: {escape(weapons)}[/]",
            str(s.strength),
            f"{s.morale:+d}",
            f"{c.skill:+d}",
            str(s.movement),
            str(s.protection),
            f"{s.stealth:+d}",
            s.firepower,
            str(c.cost_tp),
        )
    console.print(table)
    console.print(
        tr(
            "Sarakkeet: TK taistelukunto · M moraali · TT taitotaso · L liike (ruutuja) · "
            "S suoja (puolustus ilman maastoa) · H häive · TI tuli-isku (vahinkonoppa) · "
            "TP hinta (täydennyspisteinä). Aseiden tunnukset käyvät käskyihin "
            "(`hyökkää 1R1 R12 aseella pst_ohjus`); `tk20 unit ID` näyttää kortin kokonaan.",
            "Columns: Str strength (TK) · Mor morale (M) · Skl skill (TT) · Mv movement "
            "(cells) · Prot protection (S, defence without terrain) · Stl stealth (H) · FP "
            "firepower (TI, damage die) · TP cost (replacement points). Weapon ids go into orders "
            "(`attack 1R1 R12 with pst_ohjus`); `tk20 unit ID` shows the whole card.",
        ),
        markup=False,
        highlight=False,
    )


def unit_cmd(
    unit_id: str = typer.Argument(..., metavar="ID", help="Kortin tunnus / card id."),
    json_out: bool = typer.Option(False, "--json", help="Tulosta JSON / print JSON."),
) -> None:
    """Yksi yksikkökortti / one unit card."""
    cards = _load_cards()
    card = cards.get(unit_id)
    if card is None:
        known = ", ".join(sorted(cards))
        fail(
            tr(
                f"tuntematon yksikkö {unit_id!r}; tunnetut: {known}",
                f"unknown unit {unit_id!r}; known units: {known}",
            )
        )
    if json_out:
        print_json(_card_json(card))
        return
    _print_card(card)


def _print_card(card: UnitCard) -> None:
    s = card.stats
    title = f"{tr(card.name.fi, card.name.en)} ({card.id})"
    head = Table(title=title, show_header=False)
    head.add_column()
    head.add_column()
    armour = tr("panssaroitu", "armoured") if card.armoured else tr("pehmeä", "soft")
    if card.light:
        armour += tr(" (kevyt)", " (light)")
    head.add_row(tr("Puoli", "Side"), term(card.side))
    head.add_row(tr("Tyyppi", "Type"), f"{tr(*_TYPE_TEXT[card.type])}, {armour}")
    head.add_row(tr("Rooli", "Role"), tr(*_ROLE_TEXT[card.role]))
    head.add_row(term("strength"), str(s.strength))
    head.add_row(term("morale"), f"{s.morale:+d}")
    head.add_row(term("training"), f"{s.training:+d}")
    head.add_row(term("xp"), str(s.xp))
    head.add_row(term("skill"), f"{card.skill:+d}")
    head.add_row(term("movement"), str(s.movement))
    head.add_row(term("protection"), str(s.protection))
    head.add_row(term("stealth"), f"{s.stealth:+d}")
    head.add_row(term("firepower"), s.firepower)
    head.add_row(tr("Hinta", "Cost"), f"{card.cost_tp} TP")
    if card.example_values:
        head.add_row(tr("Arvot", "Values"), tr("esimerkkiarvoja", "example values"))
    if card.notes is not None:
        head.add_row(tr("Huom.", "Notes"), tr(card.notes.fi, card.notes.en))
    console.print(head)

    weapons = Table(title=tr("Aseet", "Weapons"))
    for col in (
        tr("Ase", "Weapon"),
        tr("Bonus", "Bonus"),
        tr("Kantama", "Range"),
        tr("Vahinko", "Damage"),
        tr("PST-vahinko", "AT damage"),
        tr("Ominaisuudet", "Traits"),
    ):
        weapons.add_column(col)
    for w in card.weapons:
        traits = []
        if w.basic:
            traits.append(tr("perushyökkäys", "basic attack"))
        if w.special:
            traits.append(tr("erikoisase", "special"))
        if w.area:
            radius = w.area_radius if w.area_radius is not None else tr("oletus", "default")
            traits.append(tr(f"aluetuli (säde {radius})", f"area fire (radius {radius})"))
        if w.indirect:
            traits.append(tr("epäsuora", "indirect"))
        rng = f"{w.min_range}–{w.range}" if w.min_range is not None else str(w.range)
        weapons.add_row(
            tr(w.name.fi, w.name.en),
            f"{w.attack_bonus:+d}",
            rng,
            f"{w.damage} {term(w.damage_type)}",
            w.at_damage or "",
            ", ".join(traits),
        )
    console.print(weapons)

    if card.abilities:
        abilities = Table(title=tr("Kyvyt", "Abilities"))
        for col in (tr("Kyky", "Ability"), "KP", tr("Kuvaus", "Description")):
            abilities.add_column(col)
        for a in card.abilities:
            cost = tr("passiivinen", "passive") if a.passive else str(a.kp_cost)
            name = tr(a.name.fi, a.name.en)
            if a.weakens_when_damaged:
                name += f" ({term('DAMAGED')})"
            abilities.add_row(name, cost, tr(a.description.fi, a.description.en))
        console.print(abilities)
    if card.auras:
        auras = Table(title=tr("Aurat", "Auras"))
        for col in (tr("Aura", "Aura"), tr("Säde", "Radius"), tr("Kuvaus", "Description")):
            auras.add_column(col)
        for au in card.auras:
            auras.add_row(
                tr(au.name.fi, au.name.en),
                str(au.radius),
                tr(au.description.fi, au.description.en),
            )
        console.print(auras)
    if card.overrides is not None:
        shown = card.overrides.model_dump(exclude_none=True)
        if shown:
            text = ", ".join(f"{k} = {_show(v)}" for k, v in shown.items())
            console.print(f"{tr('Kortin poikkeukset', 'Card overrides')}: {text}")


def register(app: typer.Typer) -> None:
    """Add ``rules``, ``units`` and ``unit`` to ``app``."""
    app.command("rules")(rules_cmd)
    app.command("units")(units_cmd)
    app.command("unit")(unit_cmd)
