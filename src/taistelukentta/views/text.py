"""Events and view items as one line of text in the current language (glossary terms).

Works on the redacted events of :func:`taistelukentta.views.redact` (``{"seq", "kind",
"data"}``), so it can only ever tell what the viewer may know.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from typing import Any

from taistelukentta.i18n import MOVE_STOPS, REASONS, catalogue, get_language, term, tr

_card_names: ContextVar[Mapping[str, tuple[str, str]] | None] = ContextVar(
    "tk20_card_names", default=None
)


def set_card_names(names: Mapping[str, tuple[str, str]]) -> None:
    """The unit cards' names (card id -> (Finnish, English)) the texts use instead of the
    ids (a scenario's ``cards``); set by the presentation layer for the game it shows."""
    _card_names.set(dict(names))


_ability_names: ContextVar[Mapping[str, tuple[str, str]] | None] = ContextVar(
    "tk20_ability_names", default=None
)


def set_ability_names(names: Mapping[str, tuple[str, str]]) -> None:
    """The abilities' names (ability id -> (Finnish, English)), as :func:`set_card_names`."""
    _ability_names.set(dict(names))


def ability_text(ability: Any) -> str:
    """An ability's name in the current language (its id when the name is not known)."""
    pair = (_ability_names.get() or {}).get(str(ability))
    return str(ability) if pair is None else tr(*pair)


def card_text(card: Any) -> str:
    """A unit card's name in the current language (its id when the name is not known)."""
    pair = (_card_names.get() or {}).get(str(card))
    return str(card) if pair is None else tr(*pair)


@functools.cache
def _fi_order_words() -> dict[str, str]:
    """Notation keywords -> the Finnish ones the parser also reads (the first spelling with
    ä/ö): the order keywords from the default ruleset's vocabulary (each module's grammar),
    built on first use."""
    from taistelukentta.rules.ruleset import default_ruleset

    vocabulary = default_ruleset().vocabulary
    return {kind: syn.keywords_fi[0] for kind, syn in vocabulary.syntax.items() if syn.keywords_fi}


@functools.cache
def _fi_arg_words() -> dict[str, str]:
    """The notation's argument words (``by``, ``danger``…) -> their Finnish spellings,
    from each module's grammar (:attr:`OrderSyntax.words_fi`)."""
    from taistelukentta.rules.ruleset import default_ruleset

    return default_ruleset().vocabulary.words_fi()


def order_text(text: Any) -> str:
    """An order in the notation of the current language: Finnish keywords under ``fi``
    (``liiku 1R1 12,7``, ``hyökkää 2R1 R13 paikasta 11,11``), which ``parse_order`` reads
    back to the same order; as it is under ``en``."""
    words = str(text).split(" ")
    if get_language() != "fi" or not words:
        return str(text)
    arg_words = _fi_arg_words()
    out = [_fi_order_words().get(words[0], words[0])]
    out.extend(arg_words.get(w, w) for w in words[1:])
    return " ".join(out)


def unit_ref(ref: Any) -> str:
    """A unit as an event names it: an id, a contact (label, type, area) or unknown."""
    if isinstance(ref, str):
        return ref
    if isinstance(ref, Mapping):
        label = str(ref.get("contact", "?"))
        parts = [label]
        if ref.get("card"):
            parts.append(f"({card_text(ref['card'])})")
        area = ref.get("area")
        if area:
            parts.append(tr("alueella", "in area") + " " + area_text(area))
        return " ".join(parts)
    return tr("tuntematon", "unknown")


def area_text(area: Any) -> str:
    """``[x0, y0, size]`` as ``x0–x1,y0–y1``."""
    x0, y0, size = int(area[0]), int(area[1]), int(area[2])
    return f"{x0}–{x0 + size - 1},{y0}–{y0 + size - 1}"


def cell_text(cell: Any) -> str:
    return f"{cell[0]},{cell[1]}" if cell is not None else "?"


def side_text(side: Any) -> str:
    return term(str(side)) if side in ("blue", "red") else str(side)


_FIRE_BLOCK = {
    "suppressed": ("lamautunut", "SUPPRESSED"),
    "retreating": ("vetäytyy", "RETREATING"),
    "jammed": ("ase jumissa", "weapon jammed"),
    "indirect_only": ("ampuu vain epäsuoraa tulta", "fires only indirectly"),
    "fired": ("on jo ampunut", "has already fired"),
    "moved": ("liikkui ilman hyökkäyskäskyä", "moved without an attack order"),
    "no_target": (
        "ei havaittua vihollista näkyvissä ja kantamalla",
        "no SPOTTED enemy in sight and range",
    ),
}


def _fire_phase_over(d: Mapping[str, Any]) -> str:
    """A seat's fire phase that ended by itself, with each unit's reason (issue 9)."""
    parts = []
    for u in d.get("units", []):
        fi, en = _FIRE_BLOCK.get(str(u.get("reason")), (str(u.get("reason")),) * 2)
        if u.get("attack_order"):
            fi, en = fi + " (hyökkäyskäsky annettu)", en + " (had an attack order)"
        parts.append(f"{u.get('unit')}: {tr(fi, en)}")
    why = "; ".join(parts)
    return tr(
        f"{d.get('seat')}: tulivaihe päättyi, kukaan ei voi ampua — {why}",
        f"{d.get('seat')}: fire phase over, no unit can fire — {why}",
    )


def describe(event: Mapping[str, Any]) -> str | None:
    """One line for a redacted event, or None for bookkeeping not worth showing."""
    kind = event.get("kind")
    d: Mapping[str, Any] = event.get("data", {})
    if kind == "game_started":
        return tr(
            f"Peli alkoi: {d.get('scenario')}, {d.get('rounds')} kierrosta",
            f"Game started: {d.get('scenario')}, {d.get('rounds')} rounds",
        )
    if kind == "turn_started":
        return tr(
            f"— Kierros {d.get('round')}: {side_text(d.get('side'))} vuorossa —",
            f"— Round {d.get('round')}: {side_text(d.get('side'))} to move —",
        )
    if kind == "phase":
        return tr("Tulivaihe alkaa", "Fire phase begins")
    if kind == "kp":
        if d.get("pool") == "company":
            return tr(
                f"Komppanian {term('command_points')} ({d.get('seat')}): {d.get('kp')}",
                f"Company {term('command_points')} ({d.get('seat')}): {d.get('kp')}",
            )
        return tr(
            f"{term('command_points')} {d.get('seat')}: {d.get('kp')}",
            f"{term('command_points')} {d.get('seat')}: {d.get('kp')}",
        )
    if kind == "order":
        cost = d.get("cost", 0)
        extra = f" ({cost} {term('command_points')})" if cost else ""
        return tr(
            f"{d.get('seat')} käskee: {order_text(d.get('order'))}{extra}",
            f"{d.get('seat')} orders: {d.get('order')}{extra}",
        )
    if kind == "seat_done":
        return _fire_phase_over(d) if d.get("auto") else None
    if kind == "move":
        who = unit_ref(d.get("unit"))
        if "from" in d:
            stop = d.get("stopped_by")
            why = f" ({tr('pysähtyi', 'stopped')}: {catalogue(MOVE_STOPS, stop)})" if stop else ""
            return tr(
                f"{who} liikkui {cell_text(d.get('from'))} → {cell_text(d.get('to'))}{why}",
                f"{who} moved {cell_text(d.get('from'))} → {cell_text(d.get('to'))}{why}",
            )
        if "to" in d:
            return tr(
                f"{who} liikkui ruutuun {cell_text(d.get('to'))}",
                f"{who} moved to {cell_text(d.get('to'))}",
            )
        return tr(f"{who} liikkui", f"{who} moved")
    if kind == "bump":
        return tr(
            f"{unit_ref(d.get('unit'))} törmäsi viholliseen ruudussa {cell_text(d.get('cell'))}",
            f"{unit_ref(d.get('unit'))} ran into the enemy at {cell_text(d.get('cell'))}",
        )
    if kind == "attack":
        effect = term(str(d.get("effect", "")))
        dmg = d.get("damage", 0)
        roll = ""
        if "total" in d and "defence" in d:
            roll = f" [{d.get('total')} vs {d.get('defence')}]"
        hurt = tr(f", vahinko {dmg}", f", damage {dmg}") if dmg else ""
        opp = tr(" (tilannetuli)", " (opportunity fire)") if d.get("kind") == "opportunity" else ""
        return tr(
            f"{unit_ref(d.get('attacker'))} ampuu {unit_ref(d.get('target'))}{opp}: "
            f"{effect}{roll}{hurt}",
            f"{unit_ref(d.get('attacker'))} fires at {unit_ref(d.get('target'))}{opp}: "
            f"{effect}{roll}{hurt}",
        )
    if kind == "damage":
        if "strength" not in d:
            return tr(
                f"{unit_ref(d.get('unit'))} kärsi tappioita",
                f"{unit_ref(d.get('unit'))} took losses",
            )
        who, amount, left = unit_ref(d.get("unit")), d.get("amount"), d.get("strength")
        return tr(
            f"{who} menetti {amount} TK (jäljellä {left})",
            f"{who} lost {amount} strength ({left} left)",
        )
    if kind == "destroyed":
        return tr(f"{unit_ref(d.get('unit'))} tuhoutui", f"{unit_ref(d.get('unit'))} destroyed")
    if kind == "morale":
        outcome = d.get("outcome")
        if outcome is None:
            return tr(
                f"{unit_ref(d.get('unit'))}: moraalikoe", f"{unit_ref(d.get('unit'))}: morale test"
            )
        return tr(
            f"{unit_ref(d.get('unit'))}: moraalikoe {d.get('total')} vs DC {d.get('dc')} → "
            f"{term(str(outcome))}",
            f"{unit_ref(d.get('unit'))}: morale test {d.get('total')} vs DC {d.get('dc')} → "
            f"{term(str(outcome))}",
        )
    if kind == "status":
        if "status" not in d:
            return None
        on = d.get("on")
        word = tr("sai tilan", "is now") if on else tr("pääsi tilasta", "is no longer")
        return f"{unit_ref(d.get('unit'))} {word} {status_text(str(d.get('status')))}"
    if kind == "contact":
        level = str(d.get("level"))
        if level == "NONE":
            return tr(
                f"Yhteys menetetty: {unit_ref(d.get('unit'))}",
                f"Contact lost: {unit_ref(d.get('unit'))}",
            )
        where = ""
        if d.get("cell") is not None:
            where = tr(" ruudussa ", " at ") + cell_text(d.get("cell"))
        return tr(
            f"Kontakti {term(level)}: {unit_ref(d.get('unit'))}{where}",
            f"Contact {term(level)}: {unit_ref(d.get('unit'))}{where}",
        )
    if kind == "recon":
        found = d.get("found")
        if found is None:
            return tr(
                f"{unit_ref(d.get('unit'))} tiedusteli ruudun {cell_text(d.get('cell'))}",
                f"{unit_ref(d.get('unit'))} reconnoitred {cell_text(d.get('cell'))}",
            )
        what = ", ".join(unit_ref(f) for f in found) or tr("ei mitään", "nothing")
        return tr(
            f"{unit_ref(d.get('unit'))} tiedusteli ruudun {cell_text(d.get('cell'))}: {what}",
            f"{unit_ref(d.get('unit'))} reconnoitred {cell_text(d.get('cell'))}: {what}",
        )
    if kind == "rally":
        return tr(
            f"{unit_ref(d.get('unit'))}: moraalin kohotus", f"{unit_ref(d.get('unit'))}: rallied"
        )
    if kind == "setback":
        return tr(
            f"{unit_ref(d.get('unit'))}: takaisku: {catalogue(REASONS, d.get('setback', ''))}",
            f"{unit_ref(d.get('unit'))}: setback: {catalogue(REASONS, d.get('setback', ''))}",
        )
    if kind == "turn_ended":
        return None
    if kind == "game_over":
        vp = d.get("vp", {})
        winner = d.get("winner")
        who = tr("tasapeli", "draw") if winner == "draw" else side_text(winner)
        return tr(
            f"Peli päättyi: {who} (VP sininen {vp.get('blue')}, punainen {vp.get('red')})",
            f"Game over: {who} (VP blue {vp.get('blue')}, red {vp.get('red')})",
        )
    handler = _MODULE_EVENTS.get(str(kind))
    if handler is not None:
        return handler(d)
    return f"{kind}: {dict(d)}"


# --------------------------------------------------------------------------- module events

_TERMS_EXTRA: dict[str, tuple[str, str]] = {
    "IMMOBILISED": ("Liikuntakyvytön", "Immobilised"),
    "motti": ("Mottitaktiikka", "Motti tactic"),
    "painopiste": ("Painopiste", "Main effort (Painopiste)"),
    "sitova": ("Sitova tuli", "Holding fire (Sitova tuli)"),
    "vetaytyminen": ("Järjestäytynyt vetäytyminen", "Orderly withdrawal"),
    "organic": ("Kranaatinheitintuli", "Organic mortar fire"),
    "off_board": ("Epäsuora tuli", "Off-board fire"),
    "k9": ("K9", "K9"),
    "mlrs": ("Raketinheitin", "MLRS"),
    "AP_field": ("Jalkaväkimiinoite", "AP minefield"),
    "AT_field": ("Panssarimiinoite", "AT minefield"),
}


def status_text(code: str) -> str:
    """A status, tactic or strike name in the current language (glossary terms first)."""
    if code in _TERMS_EXTRA:
        return tr(*_TERMS_EXTRA[code])
    return term(code)


def mine_type_text(mine_type: Any) -> str:
    """``AP`` / ``AT`` as the glossary's minefield names (Jalkaväkimiinoite/Panssarimiinoite);
    an unknown type (a cell found clear) as "mine"."""
    key = f"{mine_type}_field"
    if key in _TERMS_EXTRA:
        return tr(*_TERMS_EXTRA[key])
    return tr("miinoite", "minefield")


def _ok(d: Mapping[str, Any]) -> str:
    roll = ""
    if "total" in d and "dc" in d:
        roll = f" [{d.get('total')} vs DC {d.get('dc')}]"
    return (tr("onnistui", "succeeded") if d.get("success") else tr("epäonnistui", "failed")) + roll


def _ev_kp_transfer(d: Mapping[str, Any]) -> str:
    return tr(
        f"{d.get('from')} siirsi 1 {term('command_points')} paikalle {d.get('to')} "
        f"(nyt {d.get('kp')})",
        f"{d.get('from')} passed 1 {term('command_points')} to {d.get('to')} (now {d.get('kp')})",
    )


def _ev_link_restore(d: Mapping[str, Any]) -> str:
    return tr(
        f"{unit_ref(d.get('unit'))}: komentoyhteyden palautus paikalle {d.get('seat')} {_ok(d)}",
        f"{unit_ref(d.get('unit'))}: restoring the command link of {d.get('seat')} {_ok(d)}",
    )


def _ev_command_link(d: Mapping[str, Any]) -> str:
    seats = ", ".join(str(s) for s in d.get("out_of_link", ()))
    return tr(f"Ilman komentoyhteyttä: {seats}", f"Out of command link: {seats}")


def _ev_tactic(d: Mapping[str, Any]) -> str:
    name = status_text(str(d.get("tactic")))
    if d.get("cell") is not None:
        where = cell_text(d.get("cell"))
        return tr(
            f"{term('company_commander')}: {name} ruutuun {where} (säde {d.get('radius')}, "
            f"moraalikoe DC {d.get('dc')})",
            f"{term('company_commander')}: {name} at {where} (radius {d.get('radius')}, "
            f"morale test DC {d.get('dc')})",
        )
    if d.get("seat") is not None:
        return tr(
            f"{term('company_commander')}: {name} paikalle {d.get('seat')}",
            f"{term('company_commander')}: {name} for {d.get('seat')}",
        )
    units = ", ".join(unit_ref(u) for u in d.get("units", ()))
    return tr(
        f"{term('company_commander')}: {name} ({units})",
        f"{term('company_commander')}: {name} ({units})",
    )


def _ev_confirmed(d: Mapping[str, Any]) -> str:
    return tr(
        f"Vahvistettu maali: {unit_ref(d.get('target'))} (+{d.get('bonus')} seuraavaan "
        "hyökkäykseen)",
        f"Confirmed target: {unit_ref(d.get('target'))} (+{d.get('bonus')} to the next attack)",
    )


def _ev_recon_report(d: Mapping[str, Any]) -> str:
    if d.get("reconnoitred"):
        return tr(
            f"{unit_ref(d.get('unit'))} on tiedusteltu ennen taistelua",
            f"{unit_ref(d.get('unit'))} was reconnoitred before the battle",
        )
    found = d.get("unit")
    what = (
        tr(f": löydettiin {unit_ref(found)}", f": found {unit_ref(found)}")
        if found is not None
        else ""
    )
    return tr(
        f"Tiedusteluraportti ruudusta {cell_text(d.get('cell'))} {_ok(d)}{what}",
        f"Recon report on {cell_text(d.get('cell'))} {_ok(d)}{what}",
    )


def _ev_promoted(d: Mapping[str, Any]) -> str:
    return tr(
        f"Kenttäylennys: {unit_ref(d.get('unit'))} ({d.get('seat')}) johtaa komppaniaa, "
        f"komppanian {term('command_points')} {d.get('company_kp')}",
        f"Field promotion: {unit_ref(d.get('unit'))} ({d.get('seat')}) leads the company, "
        f"company {term('command_points')} {d.get('company_kp')}",
    )


def _ev_co_lost(d: Mapping[str, Any]) -> str:
    if d.get("unit") is None:
        return tr(
            "Komppania on johdoton loppukamppailun ajan",
            "The company is leaderless for the rest of the battle",
        )
    lead = (
        tr(" — komppania on johdoton", " — the company is leaderless")
        if d.get("leaderless")
        else ""
    )
    return tr(
        f"{term('company_commander')} menetetty ({unit_ref(d.get('unit'))}){lead}",
        f"{term('company_commander')} lost ({unit_ref(d.get('unit'))}){lead}",
    )


def _ev_sitova_mark(d: Mapping[str, Any]) -> str:
    return tr(
        f"{unit_ref(d.get('unit'))}: Sitova tuli -merkki ({d.get('marks')})",
        f"{unit_ref(d.get('unit'))}: holding-fire mark ({d.get('marks')})",
    )


def _strike_name(d: Mapping[str, Any]) -> str:
    weapon = d.get("weapon")
    if weapon and weapon != "organic":
        return status_text(str(weapon))
    return status_text(str(d.get("kind", "organic")))


def _ev_strike_ordered(d: Mapping[str, Any]) -> str:
    by = d.get("observer")
    by_text = tr(f", tulenjohtaja {unit_ref(by)}", f", observer {unit_ref(by)}") if by else ""
    unit = f" ({unit_ref(d.get('unit'))})" if d.get("unit") else ""
    return tr(
        f"Tulipyyntö: {_strike_name(d)}{unit} ruutuun {cell_text(d.get('cell'))}{by_text}",
        f"Fire request: {_strike_name(d)}{unit} on {cell_text(d.get('cell'))}{by_text}",
    )


def _ev_strike_boosted(d: Mapping[str, Any]) -> str:
    return tr(
        f"Tulen tehostus: {unit_ref(d.get('unit'))} +{d.get('bonus')} vahinkoa",
        f"Fire boosted: {unit_ref(d.get('unit'))} +{d.get('bonus')} damage",
    )


def _ev_strike_landed(d: Mapping[str, Any]) -> str:
    cells = d.get("cells") or []
    where = cell_text(d.get("aimed")) if d.get("aimed") is not None else ""
    n = len(cells)
    if where:
        return tr(
            f"Isku osui: {_strike_name(d)} ruutuun {where} ({n} ruutua)",
            f"Strike landed: {_strike_name(d)} on {where} ({n} cells)",
        )
    return tr(
        f"Tykistöisku: {_strike_name(d)} iskeytyi {n} ruutuun",
        f"Strike: {_strike_name(d)} hit {n} cells",
    )


def _ev_attack_void(d: Mapping[str, Any]) -> str:
    who, target = unit_ref(d.get("attacker")), unit_ref(d.get("target"))
    return tr(
        f"{who} ei saanut kohdetta {target} tulen alle",
        f"{who} could not engage {target}",
    )


def _ev_strike_cancelled(d: Mapping[str, Any]) -> str:
    reason = catalogue(REASONS, d.get("reason") or "")
    return tr(
        f"Tulipyyntö peruttu ({reason})",
        f"Fire request cancelled ({reason})",
    )


def _ev_strike_hit(d: Mapping[str, Any]) -> str:
    dc = ""
    if d.get("danger_close") is not None:
        dc = tr(
            f" (omat joukot, d6 = {d.get('danger_close')})",
            f" (danger close, d6 = {d.get('danger_close')})",
        )
    if d.get("amount") is None:  # a contact below SPOTTED: that it was under the strike only
        return tr(
            f"{unit_ref(d.get('unit'))} iskun alla", f"{unit_ref(d.get('unit'))} under the strike"
        )
    return tr(
        f"{unit_ref(d.get('unit'))} iskun alla: vahinko {d.get('amount')}{dc}",
        f"{unit_ref(d.get('unit'))} under the strike: damage {d.get('amount')}{dc}",
    )


def _ev_fire_direction(d: Mapping[str, Any]) -> str:
    return tr(
        f"Tulenjohto ({unit_ref(d.get('observer'))}): "
        + ("onnistui" if d.get("ok") else "epäonnistui"),
        f"Fire direction ({unit_ref(d.get('observer'))}): "
        + ("succeeded" if d.get("ok") else "failed"),
    )


def _ev_minefields_placed(d: Mapping[str, Any]) -> str:
    fields = d.get("fields") or []
    parts = ", ".join(
        f"{mine_type_text(f.get('type'))} " + " ".join(cell_text(c) for c in f.get("cells", ()))
        for f in fields
    )
    return tr(f"Omat miinoitteet: {parts}", f"Own minefields: {parts}")


def _ev_mines_laid(d: Mapping[str, Any]) -> str:
    cells = " ".join(cell_text(c) for c in d.get("cells", ()))
    return tr(
        f"{unit_ref(d.get('unit'))} miinoitti: {mine_type_text(d.get('type'))} {cells}",
        f"{unit_ref(d.get('unit'))} laid a {mine_type_text(d.get('type'))}: {cells}",
    )


def _ev_mine_found(d: Mapping[str, Any]) -> str:
    return tr(
        f"{unit_ref(d.get('unit'))} ajautui miinoitteeseen ({mine_type_text(d.get('type'))}) "
        f"ruudussa {cell_text(d.get('cell'))}",
        f"{unit_ref(d.get('unit'))} ran into a minefield ({mine_type_text(d.get('type'))}) "
        f"at {cell_text(d.get('cell'))}",
    )


def _mine_result(d: Mapping[str, Any]) -> str:
    result = str(d.get("result", ""))
    text = {
        "no_mine": tr("ei miinaa", "no mine"),
        "cleared": tr("raivattu", "cleared"),
        "set_off": tr("miina laukesi", "a mine went off"),
        "not_affected": tr("ei vaikutusta", "no effect"),
        "failed": tr("epäonnistui", "failed"),
    }.get(result, result)
    if d.get("damage"):
        text += tr(f", vahinko {d.get('damage')}", f", damage {d.get('damage')}")
    return text


def _mine_action(fi: str, en: str) -> Callable[[Mapping[str, Any]], str]:
    def describe_mine(d: Mapping[str, Any]) -> str:
        roll = ""
        if "total" in d and "dc" in d:
            roll = f" [{d.get('total')} vs DC {d.get('dc')}]"
        return tr(
            f"{unit_ref(d.get('unit'))}: {fi} ruudussa {cell_text(d.get('cell'))}: "
            f"{_mine_result(d)}{roll}",
            f"{unit_ref(d.get('unit'))}: {en} at {cell_text(d.get('cell'))}: "
            f"{_mine_result(d)}{roll}",
        )

    return describe_mine


def _ev_mine_search(d: Mapping[str, Any]) -> str:
    if "mined" not in d:
        found = tr("ei tulosta", "nothing learnt")
    elif d.get("mined"):
        found = mine_type_text(d.get("type"))
    else:
        found = tr("ei miinoja", "no mines")
    return tr(
        f"{unit_ref(d.get('unit'))} etsi miinoja ruudusta {cell_text(d.get('cell'))}: "
        f"{found} {_ok(d)}",
        f"{unit_ref(d.get('unit'))} searched {cell_text(d.get('cell'))} for mines: "
        f"{found} ({_ok(d)})",
    )


def _hidden_reason(d: Mapping[str, Any]) -> str:
    code, _, ability = str(d.get("reason") or "").partition(":")
    text = catalogue(REASONS, code)
    return f"{text} {ability_text(ability)}" if ability else text


def _ev_hidden(d: Mapping[str, Any]) -> str:
    if d.get("on"):
        return tr(
            f"{unit_ref(d.get('unit'))} sai tilan {term('HIDDEN')}",
            f"{unit_ref(d.get('unit'))} is now {term('HIDDEN')}",
        )
    return tr(
        f"{unit_ref(d.get('unit'))} ei ole enää {term('HIDDEN')} ({_hidden_reason(d)})",
        f"{unit_ref(d.get('unit'))} is no longer {term('HIDDEN')} ({_hidden_reason(d)})",
    )


def _ev_wave(d: Mapping[str, Any]) -> str:
    return tr(
        f"Aaltohyökkäys: {unit_ref(d.get('unit'))} → {unit_ref(d.get('target'))} "
        f"(+1 moraaliin vuorolla {d.get('turn')})",
        f"Wave attack: {unit_ref(d.get('unit'))} → {unit_ref(d.get('target'))} "
        f"(+1 morale on turn {d.get('turn')})",
    )


def _ev_ability_disabled(d: Mapping[str, Any]) -> str:
    return tr(
        f"{unit_ref(d.get('attacker'))} lamautti kyvyn {ability_text(d.get('ability'))} yksiköltä "
        f"{unit_ref(d.get('target'))} (vuoroon {d.get('until_turn')})",
        f"{unit_ref(d.get('attacker'))} disabled {unit_ref(d.get('target'))}'s "
        f"{ability_text(d.get('ability'))} (until turn {d.get('until_turn')})",
    )


def _ev_ability_restored(d: Mapping[str, Any]) -> str:
    return tr(
        f"{unit_ref(d.get('unit'))}: kyky {ability_text(d.get('ability'))} on taas käytössä",
        f"{unit_ref(d.get('unit'))}: {ability_text(d.get('ability'))} works again",
    )


def _ev_area_attack(d: Mapping[str, Any]) -> str:
    hits = ", ".join(
        f"{unit_ref(t.get('target'))} {term(str(t.get('effect', '')))}"
        + (f" ({t.get('damage')})" if t.get("damage") else "")
        for t in d.get("targets", ())
    ) or tr("ei osumia", "no one hit")
    return tr(
        f"{unit_ref(d.get('attacker'))}: Lamauttava tuli ruutuun {cell_text(d.get('cell'))}: "
        f"{hits}",
        f"{unit_ref(d.get('attacker'))}: area fire on {cell_text(d.get('cell'))}: {hits}",
    )


_MODULE_EVENTS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "kp_transfer": _ev_kp_transfer,
    "link_restore": _ev_link_restore,
    "command_link": _ev_command_link,
    "tactic": _ev_tactic,
    "confirmed_target": _ev_confirmed,
    "recon_report": _ev_recon_report,
    "promoted": _ev_promoted,
    "co_lost": _ev_co_lost,
    "sitova_mark": _ev_sitova_mark,
    "strike_ordered": _ev_strike_ordered,
    "strike_boosted": _ev_strike_boosted,
    "strike_landed": _ev_strike_landed,
    "strike_cancelled": _ev_strike_cancelled,
    "strike_hit": _ev_strike_hit,
    "fire_direction": _ev_fire_direction,
    "minefields_placed": _ev_minefields_placed,
    "mines_laid": _ev_mines_laid,
    "mine_found": _ev_mine_found,
    "mine_clear": _mine_action("miinanraivaus", "mine clearing"),
    "mine_rush": _mine_action("rynnistys miinoitteen läpi", "rush through the minefield"),
    "mine_triggered": _mine_action("miina laukesi", "mine set off"),
    "mine_breach": _mine_action("suunniteltu raivaus", "planned breach"),
    "mine_search": _ev_mine_search,
    "hidden": _ev_hidden,
    "wave_attack": _ev_wave,
    "ability_disabled": _ev_ability_disabled,
    "ability_restored": _ev_ability_restored,
    "area_attack": _ev_area_attack,
    "attack_void": _ev_attack_void,
}
"""Describers of the events the rule modules emit (company, fire support, mines,
abilities), by kind."""

EVENT_KINDS: frozenset[str] = frozenset(
    {
        "game_started",
        "turn_started",
        "phase",
        "kp",
        "order",
        "seat_done",
        "move",
        "bump",
        "attack",
        "damage",
        "destroyed",
        "morale",
        "status",
        "contact",
        "recon",
        "rally",
        "setback",
        "turn_ended",
        "game_over",
        *_MODULE_EVENTS,
    }
)
"""Every event kind :func:`describe` has a text for (``seat_done``/``turn_ended`` are
bookkeeping and give None on purpose)."""
