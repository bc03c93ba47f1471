"""User-visible language: Finnish by default, English with ``--lang en``.

Rules code never reads the language; only the presentation layers (CLI, views rendered to
text) call :func:`tr` or :func:`term`.
"""

from __future__ import annotations

from contextvars import ContextVar

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
