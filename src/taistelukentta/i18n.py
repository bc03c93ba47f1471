"""User-visible language: Finnish by default, English with ``--lang en``.

Rules code never reads the language; only the presentation layers (CLI, views rendered to
text) call :func:`tr` or :func:`term`.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextvars import ContextVar
from fractions import Fraction

LANGUAGES = ("fi", "en")

_language: ContextVar[str] = ContextVar("tk20_language", default="fi")

# Glossary terms of RULES.md §1: code name -> (Finnish, English).
GLOSSARY: dict[str, tuple[str, str]] = {
    "strength": ("TK", "Strength"),
    "max_strength": ("TK max", "Max strength"),
    "morale": ("M", "Morale"),
    "training": ("K", "Training"),
    "xp": ("XP", "XP"),
    "skill": ("TT", "Skill"),
    "movement": ("L", "Movement"),
    "protection": ("S", "Protection"),
    "stealth": ("H", "Stealth"),
    "firepower": ("TI", "Firepower"),
    "command_points": ("KP", "Command points"),
    "dc": ("DC", "DC"),
    "zone_of_control": ("ZoC", "ZoC"),
    "company_commander": ("Komppanianpäällikkö", "Company commander"),
    "platoon_leader": ("Joukkueenjohtaja", "Platoon leader"),
    "game_master": ("Pelinjohtaja", "Game master"),
    "battle_group": ("Taisteluryhmä", "Battle group"),
    "victory_points": ("VP", "Victory points"),
    "HEAVY_HIT": ("Raskas osuma", "Heavy hit"),
    "HIT": ("Normaali osuma", "Hit"),
    "PINNING": ("Estotuli", "Pinning fire"),
    "MISS": ("Puhdas huti", "Clean miss"),
    "SHAKEN": ("Tärähtänyt", "Shaken"),
    "SUPPRESSED": ("Lamautunut", "Suppressed"),
    "RETREATING": ("Vetäytyy", "Retreating"),
    "DAMAGED": ("Vaurioitunut", "Damaged"),
    "HIDDEN": ("Piiloutunut", "Hidden"),
    "PASS": ("Onnistui", "Passed"),
    "NONE": ("Ei havaintoa", "No contact"),
    "SUSPECTED": ("Epäily", "Suspected"),
    "KNOWN": ("Tiedossa", "Known"),
    "SPOTTED": ("Havaittu", "Spotted"),
    "FRAG": ("SIR", "FRAG"),
    "AT": ("PST", "AT"),
    "blue": ("Sininen", "Blue"),
    "red": ("Punainen", "Red"),
    "gm": ("Pelinjohtaja", "Game master"),
}


def set_language(lang: str) -> None:
    """Select the user-visible language ("fi" or "en")."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    _language.set(lang)


def get_language() -> str:
    """The current user-visible language."""
    return _language.get()


def tr(fi: str, en: str) -> str:
    """Pick the Finnish or English text for the current language."""
    return fi if _language.get() == "fi" else en


def term(code: str) -> str:
    """A glossary term in the current language; unknown codes come back unchanged."""
    pair = GLOSSARY.get(code)
    if pair is None:
        return code
    return tr(*pair)


# Codes the engine writes into events and odds, as player-facing words (the terminal's and
# any other text output's catalogue): code -> (Finnish, English).
ATTACK_TERMS: dict[str, tuple[str, str]] = {
    "skill": ("taito", "skill"),
    "weapon": ("ase", "weapon"),
    "elevation": ("korkeusero", "elevation"),
    "shaken": ("tärähtänyt", "shaken"),
    "pinned": ("estotulen alla", "pinned"),
    "suppressed": ("kohde lamautunut", "target suppressed"),
    "confused": ("kohde sekaisin", "target confused"),
    "flanked": ("sivustatuli", "flanked"),
    "fully_open": ("täysin avoin maasto", "fully open ground"),
    "fortified": ("linnoitettu kohde", "fortified target"),
    "poor_visibility": ("huono näkyvyys", "poor visibility"),
    "smoke": ("savu", "smoke"),
    "protection": ("suoja", "protection"),
    "cover": ("maastosuoja", "cover"),
    "company": ("komppania", "company"),
    "abilities": ("erikoiskyky", "ability"),
    "confirmed_target": ("vahvistettu maali", "confirmed target"),
    "wave_attack": ("aaltohyökkäys", "wave attack"),
}
"""Names of the terms of an attack roll (rules.terms: base terms and the rule modules')."""

MOVE_STOPS: dict[str, tuple[str, str]] = {
    "allowance": ("liike loppui", "movement used up"),
    "impassable": ("ruutuun ei voi liikkua", "impassable cell"),
    "blocked": ("vihollinen tiellä", "blocked by an enemy"),
    "stop_cell": ("vihollisen vaikutusalue", "enemy zone of control"),
    "squeeze": ("vino askel kahden esteen välistä", "diagonal squeeze between obstacles"),
    "opportunity_attack": ("tilannetuli", "opportunity fire"),
    "destroyed": ("tuhoutui", "destroyed"),
    "hook": ("miinoite tai muu sääntö ruudussa", "a minefield or another rule at the cell"),
    "stacking": ("ruudussa ei tilaa", "no room in the cell"),
}
"""Why a move stopped (a ``move`` event's ``stopped_by``)."""

ACTIONS: dict[str, tuple[str, str]] = {
    "move": ("liike", "move"),
    "attack": ("hyökkäys", "attack"),
    "defend": ("puolustus", "defend"),
    "disengage": ("irtautuminen", "disengage"),
    "withdraw": ("vetäytyminen", "withdraw"),
    "rally": ("kohotus", "rally"),
    "recon": ("tiedustelu", "recon"),
    "fire": ("tuli", "fire"),
    "clear": ("raivaus", "clear"),
    "rush": ("rynnistys", "rush"),
    "search": ("miinojen etsintä", "search"),
    "breach": ("raivaus", "breach"),
    "lay": ("miinoitus", "lay"),
    "hide": ("piiloutuminen", "hide"),
    "use": ("kyky", "ability"),
}
"""A unit's order this turn (a view's ``action``), as a noun."""

REASONS: dict[str, tuple[str, str]] = {
    "motti": ("Mottitaktiikka", "Motti tactic"),
    "support_destroyed": ("tukiyksikkö tuhoutui", "the support unit was destroyed"),
    "moved": ("liikkui", "moved"),
    "attacked": ("hyökkäsi", "attacked"),
    "enemy_near": ("vihollinen lähellä", "enemy near"),
    "recon": ("tiedusteli", "reconnoitred"),
    "fire_direction": ("johti tulta", "directed fire"),
    "use": ("käytti kykyä", "used an ability"),
    "hide": ("piiloutui", "hid"),
    "scenario": ("skenaario", "scenario"),
    "WEAPON_JAM": ("ase jumiutui", "weapon jammed"),
    "POSITION_REVEALED": ("asema paljastui", "position revealed"),
    "COMMS_BREAK": ("yhteyskatko", "comms break"),
    "CONFUSION": ("sekaannus", "confusion"),
}
"""Reasons and setbacks the events name by code."""


def catalogue(table: Mapping[str, tuple[str, str]], code: object) -> str:
    """``code`` from one of the tables above in the current language; an unknown code
    comes back as it is (a glossary term where it is one)."""
    pair = table.get(str(code))
    if pair is None:
        return term(str(code))
    return tr(*pair)


def num(x: float | Fraction | int, digits: int | None = None) -> str:
    """A number in the current language's decimal style: 0,5 in Finnish, 0.5 in English.
    ``digits`` fixes the decimals; None gives the shortest form (``1``, ``0,5``)."""
    text = f"{float(x):.{digits}f}" if digits is not None else f"{float(x):g}"
    return text.replace(".", ",") if _language.get() == "fi" else text


def pct(p: float | Fraction, digits: int = 1) -> str:
    """A probability as a percentage, ``12,5 %`` / ``12.5 %``."""
    return f"{num(float(p) * 100, digits)} %"
