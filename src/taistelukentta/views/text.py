"""Events and view items as one line of text in the current language (glossary terms).

Works on the redacted events of :func:`taistelukentta.views.redact` (``{"seq", "kind",
"data"}``), so it can only ever tell what the viewer may know.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from taistelukentta.i18n import term, tr


def unit_ref(ref: Any) -> str:
    """A unit as an event names it: an id, a contact (label, type, area) or unknown."""
    if isinstance(ref, str):
        return ref
    if isinstance(ref, Mapping):
        label = str(ref.get("contact", "?"))
        parts = [label]
        if ref.get("card"):
            parts.append(f"({ref['card']})")
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
        return tr(
            f"{term('command_points')} {d.get('seat')}: {d.get('kp')}",
            f"{term('command_points')} {d.get('seat')}: {d.get('kp')}",
        )
    if kind == "order":
        cost = d.get("cost", 0)
        extra = f" ({cost} {term('command_points')})" if cost else ""
        return tr(
            f"{d.get('seat')} käskee: {d.get('order')}{extra}",
            f"{d.get('seat')} orders: {d.get('order')}{extra}",
        )
    if kind == "seat_done":
        return None
    if kind == "move":
        who = unit_ref(d.get("unit"))
        if "from" in d:
            stop = d.get("stopped_by")
            why = f" ({tr('pysähtyi', 'stopped')}: {stop})" if stop else ""
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
        return f"{unit_ref(d.get('unit'))} {word} {term(str(d.get('status')))}"
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
            f"{unit_ref(d.get('unit'))}: takaisku {d.get('setback', '')}",
            f"{unit_ref(d.get('unit'))}: setback {d.get('setback', '')}",
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
    return f"{kind}: {dict(d)}"
