"""Unit cards (R-UNIT-1…4): one TOML file per card in ``data/units/<id>.toml``.

A card holds a unit type's name, side, stats, weapons and abilities. The game master edits
these files; the loader checks them and reports every problem at once as one
:class:`~taistelukentta.errors.DataError` naming the file, the key path and the line.

The file stem is the card's id. A card may repeat it in an ``id`` key; if it does, the two
must agree.

The ability ids a card may list are data too: ``data/abilities.toml`` (one table per id:
name, description, passive or activated, whether it grants HIDDEN, rule ID), loaded by
:func:`load_abilities`. A new ability is an entry there plus one small rule function
(``rules/abilities.py``, docs/abilities.md).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, model_validator

from taistelukentta.content.loader import (
    data_path,
    find_line,
    format_loc,
    parse_toml,
    validation_problems,
)
from taistelukentta.errors import DataError

DICE_RE = re.compile(r"^(\d*)d(2|4|6|8|10|12|20)([+-]\d+)?\Z")
ID_RE = r"^[a-z][a-z0-9_]*$"

RULE_ID_RE = r"^R-[A-Z]+-\d+$"


def _check_dice(text: str) -> str:
    m = DICE_RE.match(text)
    if m is None:
        raise ValueError(
            f"{text!r} is not a dice expression like 'd6', '2d4' or 'd4+1' "
            "(dice: d2, d4, d6, d8, d10, d12, d20)"
        )
    if m.group(1) == "0":
        raise ValueError(f"{text!r}: the number of dice must be at least 1")
    return text


DiceText = Annotated[str, AfterValidator(_check_dice)]
"""A dice expression ``NdX+M`` as text (R-DICE-1), checked by :data:`DICE_RE`."""

Count = Annotated[int, Field(ge=0)]
Ident = Annotated[str, Field(pattern=ID_RE)]
NonEmpty = Annotated[str, Field(min_length=1)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Text(_Strict):
    """A text in both languages."""

    fi: NonEmpty
    en: NonEmpty


class Stats(_Strict):
    """The card's stats (R-UNIT-1). ``strength`` is the maximum TK."""

    strength: Annotated[int, Field(ge=1)]
    morale: int
    training: int
    xp: Count
    movement: Count
    protection: int
    stealth: int
    firepower: DiceText


class Weapon(_Strict):
    """A weapon (R-UNIT-3). Exactly one weapon per card is the basic attack."""

    id: Ident
    name: Text
    attack_bonus: int
    range: Annotated[int, Field(ge=1)]
    damage_type: Literal["FRAG", "AT"]
    damage: DiceText
    at_damage: DiceText | None = None
    area: bool
    area_radius: Count | None = None
    basic: bool
    special: bool
    min_range: Count | None = None
    indirect: bool

    @model_validator(mode="after")
    def _consistent(self) -> Weapon:
        if self.basic and self.special:
            raise ValueError("a weapon cannot be both the basic attack and special")
        if self.area_radius is not None and not self.area:
            raise ValueError("area_radius is set but area is false")
        if self.min_range is not None and self.min_range >= self.range:
            raise ValueError(f"min_range {self.min_range} must be below range {self.range}")
        return self


class AbilityInfo(_Strict):
    """An ability id the engine knows: one table of ``data/abilities.toml``."""

    id: Ident
    name: Text
    description: Text
    activation: Literal["passive", "activated"]
    grants_hidden: bool
    rule: Annotated[str, Field(pattern=RULE_ID_RE)]

    @property
    def passive(self) -> bool:
        """Always on (0 KP), read by the rule that needs it."""
        return self.activation == "passive"


class Ability(_Strict):
    """A special ability on a card (R-UNIT-4): KP cost (0 = passive) and the
    "(Vaurioitunut)" tag. The id must be one of :func:`load_abilities` (checked by the
    card loader, which knows the file and line)."""

    id: Ident
    name: Text
    kp_cost: Count
    passive: bool
    weakens_when_damaged: bool
    description: Text

    @model_validator(mode="after")
    def _passive_is_free(self) -> Ability:
        if self.passive and self.kp_cost != 0:
            raise ValueError(f"a passive ability costs 0 KP, not {self.kp_cost}")
        return self


class Aura(_Strict):
    """A commander's passive benefit for friendly units within ``radius`` (R-UNIT-4)."""

    id: Ident
    name: Text
    radius: Count
    description: Text


class CardOverrides(_Strict):
    """A card's own exceptions to the general rules (R-TK-1 vehicles, R-MOR-3 HIDDEN)."""

    damaged_movement: Literal["halve", "full"] | None = None
    damaged_firepower: Literal["step_down", "halve", "none"] | None = None
    hidden_breaks_within: Count | None = None
    hidden_keeps_when_attacking: bool | None = None


class UnitCard(_Strict):
    """A unit card (R-UNIT-1…4)."""

    id: Ident
    name: Text
    side: Literal["blue", "red"]
    type: Literal["infantry", "vehicle"]
    role: Literal["none", "company_commander", "platoon_leader", "battle_group_command"]
    armoured: bool
    light: bool
    stats: Stats
    weapons: list[Weapon]
    abilities: list[Ability]
    cost_tp: Count
    auras: list[Aura]
    overrides: CardOverrides | None = None
    example_values: bool
    notes: Text | None = None

    @model_validator(mode="after")
    def _consistent(self) -> UnitCard:
        problems: list[str] = []
        if self.type == "vehicle" and not self.armoured:
            problems.append("a vehicle is an armoured target (R-UNIT-2): armoured must be true")
        if self.type == "infantry" and self.armoured:
            problems.append("infantry is a soft target (R-UNIT-2): armoured must be false")
        if self.light and self.type != "vehicle":
            problems.append("only a vehicle card may be flagged light (R-UNIT-2)")
        basics = [w.id for w in self.weapons if w.basic]
        if len(basics) != 1:
            problems.append(
                f"exactly one weapon must have basic = true (R-UNIT-3), found {len(basics)}"
                + (f": {', '.join(basics)}" if basics else "")
            )
        elif self.basic_weapon.damage != self.stats.firepower:
            problems.append(
                f"the basic weapon's damage {self.basic_weapon.damage!r} must equal "
                f"stats.firepower {self.stats.firepower!r} (TI is the basic attack's die)"
            )
        groups: tuple[tuple[str, list[str]], ...] = (
            ("weapon", [w.id for w in self.weapons]),
            ("ability", [str(a.id) for a in self.abilities]),
            ("aura", [a.id for a in self.auras]),
        )
        for what, ids in groups:
            dupes = sorted({i for i in ids if ids.count(i) > 1})
            if dupes:
                problems.append(f"duplicate {what} id(s): {', '.join(dupes)}")
        if problems:
            raise ValueError("; ".join(problems))
        return self

    @property
    def skill(self) -> int:
        """TT = K + floor(XP / 10) (R-UNIT-1)."""
        return self.stats.training + self.stats.xp // 10

    @property
    def basic_weapon(self) -> Weapon:
        """The basic attack (R-UNIT-3)."""
        return next(w for w in self.weapons if w.basic)

    def weapon(self, weapon_id: str) -> Weapon | None:
        """The weapon with this id, or None."""
        return next((w for w in self.weapons if w.id == weapon_id), None)

    def has_ability(self, ability_id: str) -> bool:
        """Whether the card has this ability."""
        return any(a.id == ability_id for a in self.abilities)

    def ability(self, ability_id: str) -> Ability | None:
        """The ability with this id, or None."""
        return next((a for a in self.abilities if a.id == ability_id), None)


def abilities_path() -> Path:
    """The bundled ability list ``data/abilities.toml``."""
    return data_path("abilities.toml")


def _problem(text: str | None, loc: tuple[int | str, ...], msg: str) -> str:
    line = find_line(text, loc) if text is not None else None
    at = f" (line {line})" if line is not None else ""
    return f"{format_loc(loc)}{at}: {msg}"


def abilities_from_data(
    data: Mapping[str, Any], source: str, text: str | None = None
) -> dict[str, AbilityInfo]:
    """Validate a parsed ability list (one table per ability id), every problem at once."""
    found: dict[str, AbilityInfo] = {}
    problems: list[str] = []
    for key, table in data.items():
        if re.match(ID_RE, key) is None:
            problems.append(
                _problem(text, (key,), "an ability id is lower case: letters, digits and _")
            )
            continue
        if not isinstance(table, Mapping):
            problems.append(_problem(text, (key,), "expected a table [id] of the ability"))
            continue
        if "id" in table and table["id"] != key:
            problems.append(
                _problem(text, (key, "id"), f"{table['id']!r} does not match the table [{key}]")
            )
            continue
        try:
            found[key] = AbilityInfo.model_validate({**table, "id": key})
        except ValidationError as exc:
            for err in exc.errors():
                problems.append(_problem(text, (key, *err["loc"]), err["msg"]))
    if not data and not problems:
        problems.append("no abilities: expected one table [id] per ability")
    if problems:
        raise DataError(source, problems)
    return found


def load_abilities(path: Path | str | None = None) -> dict[str, AbilityInfo]:
    """The known abilities by id: ``path`` or the bundled ``data/abilities.toml``
    (read once; do not modify the result)."""
    if path is None:
        return _bundled_abilities()
    p = Path(path)
    text = _read_text(p)
    return abilities_from_data(parse_toml(text, str(p)), str(p), text)


@cache
def _bundled_abilities() -> dict[str, AbilityInfo]:
    return load_abilities(abilities_path())


def ability_info(ability_id: str) -> AbilityInfo | None:
    """The bundled entry of ``ability_id``, or None for an unknown id."""
    return _bundled_abilities().get(ability_id)


def hiding_abilities(known: Mapping[str, AbilityInfo] | None = None) -> frozenset[str]:
    """The ability ids that grant HIDDEN (R-MOR-3): ``grants_hidden = true``."""
    table = _bundled_abilities() if known is None else known
    return frozenset(a.id for a in table.values() if a.grants_hidden)


def _ability_problems(
    raw: Mapping[str, Any], known: Mapping[str, AbilityInfo], text: str | None
) -> list[str]:
    """Card abilities whose id is not in the ability list, or whose ``passive`` disagrees
    with the list's ``activation``."""
    entries = raw.get("abilities")
    if not isinstance(entries, list):
        return []
    problems: list[str] = []
    for i, entry in enumerate(entries):
        if not isinstance(entry, Mapping):
            continue
        aid = entry.get("id")
        if not isinstance(aid, str) or re.match(ID_RE, aid) is None:
            continue  # the model reports it
        info = known.get(aid)
        if info is None:
            problems.append(
                _problem(
                    text,
                    ("abilities", i, "id"),
                    f"unknown ability {aid!r} (known: {', '.join(sorted(known))}; "
                    "a new ability goes into data/abilities.toml first)",
                )
            )
            continue
        passive = entry.get("passive")
        if isinstance(passive, bool) and passive != info.passive:
            problems.append(
                _problem(
                    text,
                    ("abilities", i, "passive"),
                    f"{aid} is {info.activation} (data/abilities.toml): passive must be "
                    f"{str(info.passive).lower()}",
                )
            )
    return problems


def units_dir() -> Path:
    """The bundled unit-card directory."""
    return data_path("units")


def _read_text(p: Path) -> str:
    try:
        return p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(str(p), ["file not found"]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(str(p), [f"cannot read file: {exc}"]) from None


def unit_card_from_data(
    data: Mapping[str, Any],
    card_id: str,
    source: str,
    text: str | None = None,
    abilities: Mapping[str, AbilityInfo] | None = None,
) -> UnitCard:
    """Validate a parsed card table; ``card_id`` is the id the file name gives, the ability
    ids are checked against ``abilities`` (default: :func:`load_abilities`)."""
    raw = dict(data)
    known = load_abilities() if abilities is None else abilities
    problems: list[str] = _ability_problems(raw, known, text)
    given = raw.get("id")
    if given is not None and given != card_id:
        problems.append(
            f"id: {given!r} does not match the file name; the file stem {card_id!r} is the id"
        )
    raw["id"] = card_id
    try:
        card = UnitCard.model_validate(raw)
    except ValidationError as exc:
        problems = validation_problems(exc, text) + problems
        raise DataError(source, problems) from None
    if problems:
        raise DataError(source, problems)
    return card


def load_unit_card(
    path: Path | str, abilities: Mapping[str, AbilityInfo] | None = None
) -> UnitCard:
    """Load one card; its id is the file stem (R-UNIT-4). ``abilities``: the known
    abilities (default: :func:`load_abilities`)."""
    p = Path(path)
    text = _read_text(p)
    data = parse_toml(text, str(p))
    return unit_card_from_data(data, p.stem, str(p), text, abilities)


def load_unit_cards(
    directory: Path | str | None = None, abilities: Mapping[str, AbilityInfo] | None = None
) -> dict[str, UnitCard]:
    """Every ``*.toml`` card in ``directory`` (default: the bundled cards), by id.

    Every broken card is reported: one DataError naming the directory and listing each
    file's problems. The bundled cards (no ``directory``, no ``abilities``) are read once
    per process, like the bundled abilities and terrain (a game's scenario load, a
    server's game creation and every computer player asked for them again: ~15 files
    parsed and validated each time); the cards are frozen, the dict a fresh copy.
    """
    if directory is None and abilities is None:
        return dict(_bundled_unit_cards())
    return _load_unit_cards(Path(directory) if directory is not None else units_dir(), abilities)


@cache
def _bundled_unit_cards() -> dict[str, UnitCard]:
    return _load_unit_cards(units_dir(), None)


def _load_unit_cards(d: Path, abilities: Mapping[str, AbilityInfo] | None) -> dict[str, UnitCard]:
    if not d.is_dir():
        raise DataError(str(d), ["unit-card directory not found"])
    cards: dict[str, UnitCard] = {}
    problems: list[str] = []
    for p in sorted(d.glob("*.toml")):
        try:
            cards[p.stem] = load_unit_card(p, abilities)
        except DataError as exc:
            problems.extend(f"{exc.path}: {q}" for q in exc.problems)
    if problems:
        raise DataError(str(d), problems)
    if not cards:
        raise DataError(str(d), ["no unit cards (*.toml) found"])
    return cards
