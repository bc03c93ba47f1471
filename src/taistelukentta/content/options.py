"""Rule options (RULES.md DEFAULTs, variants and amounts) as data: ``data/options.toml``.

Every option is one table ``[options.NAME]`` in the TOML file giving its rule ID, its kind,
its value, optional choices, the 000 variant's value and a description in both languages.
:class:`RuleOptions` holds one typed field per option and has **no defaults in code**: every
value comes from the file, and a scenario's ``[options]`` table may change them
(:func:`load_options`). :func:`option_specs` lists the options for ``tk20 rules``.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from taistelukentta.content.loader import data_path, find_line, format_loc, parse_toml, read_text
from taistelukentta.content.units import DiceText
from taistelukentta.errors import DataError

Count = Annotated[int, Field(ge=0)]
Percent = Annotated[int, Field(ge=1, le=99)]
Angle = Annotated[int, Field(ge=0, le=180)]
# Company-commander actions that may need a command link (R-CO-6).
CoAction = Literal[
    "kp_transfer",
    "painopiste",
    "sitova_tuli",
    "motti",
    "fire_support_request",
    "recon_report",
    "confirmed_target",
    "organised_withdrawal",
    "link_restore",
]
RULE_ID = r"^R-[A-Z]+-[0-9]+$"


class RuleOptions(BaseModel):
    """Every rule option, typed. Values come only from ``data/options.toml`` (+ overrides).

    Field comments name the rule each group of options belongs to; ``tk20 rules`` shows the
    descriptions.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    # R-GEO-3
    diagonal_squeeze: bool
    # R-GEO-4
    stacking_limit: Count
    stacking_mixed_sides: bool
    # R-DICE-5
    opposed_tie: Literal["defender", "active"]
    # R-ATK-4
    heavy_hit_margin: Count
    pinning_margin: int
    heavy_hit_extra: Literal["dice_twice"]
    pinning_penalty: Count
    # R-ATK-5
    natural20_miss: Literal["pinning", "morale_penalty"]
    natural20_morale_penalty: Count
    # R-ATK-6 (004 reading; docs/rules-readings.md)
    comms_break_until: Literal["next_own_turn_start", "next_turn_start", "next_own_turn_end"]
    # R-ATK-7
    flank_radius: Count
    flank_min_angle: Angle
    fully_open_advantage: bool
    fortified_source: Literal["scenario", "building_or_position"]
    very_poor_visibility: bool
    # R-ATK-8
    area_fire_radius: Count
    area_fire_degrees: bool
    area_fire_hits_hidden: bool
    # R-ATK-9
    frag_vs_armour: Literal["half", "none"]
    # R-CO-5
    confirmed_target_bonus: Count
    kp_confirmed_target: Count
    # R-TK-1
    damaged_threshold: Percent
    damaged_morale_dc: Count
    damaged_movement: Literal["halve", "full"]
    damaged_firepower: Literal["step_down", "halve"]
    strength_thresholds: list[Percent]
    # R-TK-2
    first_damage_morale_dc: Count
    adjacent_destroyed_morale_dc: Count
    adjacent_destroyed_side: Literal["friendly", "any"]
    # R-MOR-2
    morale_suppressed_at: Count
    morale_retreat_at: Count
    shaken_attack_penalty: Count
    # R-MOR-2 (004 readings; docs/rules-readings.md)
    shaken_clears: Literal["own_turn_end", "turn_end"]
    suppressed_recovery: Literal["own_turn_end", "turn_end"]
    # R-KP-4
    kp_rally: Count
    # R-MOR-3
    hidden_radius: Count
    # R-MOR-4
    pinning_mark_morale_penalty: Count
    # R-LINK-3
    leaderless_morale_penalty: Count
    # R-MOR-5
    retreat_recovery_cover: Count
    retreat_recovery_unseen: bool
    retreat_recovers_on_morale: bool
    # R-TER-1
    thicket_move_cost: Literal[2, 4]
    buildings_block_movement: bool
    # R-TER-2
    forest_cover: Literal[3, 4]
    building_cover: Literal[4, 6]
    # R-TER-4
    los_corner: Literal["slip", "block_either"]
    sight_max: Count
    # R-TER-5
    elevation_advantage_contours: Count
    elevation_bonus: Count
    steep_ascent_contours: Count
    # R-REC-1
    recon_defender_die: Literal["d12", "d20"]
    recon_use_stealth: bool
    # R-REC-2
    recon_known_at: Count
    recon_spotted_at: Count
    recon_area_radius: Count
    contact_area_known: Annotated[int, Field(ge=1)]
    contact_area_suspected: Annotated[int, Field(ge=1)]
    # R-REC-3
    passive_spot_radius: Count
    # R-REC-4
    kp_active_recon: Count
    threat_search_dc: Count
    trap_test_without_kp: bool
    trap_test_min_skill: Count
    # R-REC-5
    contact_decay: Literal["drop_one_on_move", "keep", "lose_on_move"]
    contact_lost_out_of_sight: bool
    # R-REC-7
    firing_reveals: Literal["known", "spotted", "none"]
    position_revealed_radius: Count
    # R-KP-1
    kp_platoon_leader: Count
    kp_company_commander: Count
    # R-KP-2
    kp_red_per_group: Count
    kp_red_group_cap: Count
    red_separate_pools: bool
    # R-KP-4
    kp_attack_order: Count
    # R-ZOC-3
    kp_disengage: Count
    # R-KP-4
    kp_withdrawal: Count
    kp_organic_fire: Count
    # R-MINE-3
    kp_careful_clearing: Count
    # R-MINE-5
    kp_planned_clearing: Count
    # R-CO-1
    kp_motti: Count
    motti_radius: Count
    motti_morale_dc: Count
    kp_painopiste: Count
    painopiste_movement_bonus: Count
    kp_sitova_tuli: Count
    kp_organised_withdrawal: Count
    organised_withdrawal_radius: Count
    organised_withdrawal_units: Count
    # R-CO-2
    kp_transfer: Count
    # R-CO-3
    kp_fire_support_request: Count
    # R-CO-4
    recon_report_dc: Count
    # R-CO-6
    co_link_required: list[CoAction]
    # R-LINK-1
    link_range: Count
    link_blocker: Literal["in_combat_on_line", "any_enemy_on_line", "none"]
    # R-LINK-2
    kp_out_of_link: Count
    kp_link_restore: Count
    link_restore_dc: Count
    # R-LINK-3
    kp_promoted_company: Count
    kp_promoted_platoon: Count
    leaderless_rest_of_battle: bool
    # R-FD-1
    fire_direction_contact: Literal["known", "any"]
    # R-FD-2
    observer_damaged_roll: Count
    observer_min_strength: Count
    # R-FD-3
    skilled_observer: Literal["delay_minus_1", "reroll_scatter_die"]
    skilled_observer_skill: Count
    # R-FD-4
    organic_boost_damage: Count
    kp_organic_boost: Count
    # R-FD-5
    danger_close_without_permission: Literal["forbidden", "allowed"]
    danger_close_hit_max: Count
    # R-ORG-1
    organic_delay: Count
    organic_area_radius: Count
    organic_min_range: Count
    organic_morale_dc: Count
    # R-OFF-1
    mlrs_requests: Count
    # R-OFF-2
    off_board_delay: Literal["d6_table", "by_calibre"]
    # R-OFF-3
    k9_damage_soft: DiceText
    k9_damage_armoured: DiceText
    k9_area: Count
    mlrs_damage_soft: DiceText
    mlrs_damage_armoured: DiceText
    mlrs_area: Count
    off_board_morale_dc: Count
    strike_damage_per_unit: bool
    strike_hits_hidden: bool
    # R-OFF-4
    scatter: Literal["corner", "corner_plus_d2", "2d4_d8_bullseye"]
    known_contact_shift: Literal["d2_d8_direction", "none"]
    # R-MINE-1
    minefield_shape: Literal["box_2x2", "strip_4x1"]
    kp_lay_mines: Count
    # R-MINE-2
    mine_triggers_immediately: bool
    # R-MINE-3
    careful_clearing_dc: Count
    careful_clearing_dc_pioneer: Count
    clearing_damage_ap: DiceText
    clearing_damage_at: DiceText
    # R-MINE-4
    rush_damage_ap: DiceText
    rush_damage_at: DiceText
    mine_morale_dc: Count
    mine_cell_safe_after: bool
    mines_spare_owner: bool
    # R-MINE-5
    planned_clearing_dc: Count
    planned_clearing_dc_pioneer: Count
    # R-ZOC-1
    zoc_radius: Count
    # R-AB-1
    wave_attack_min_squads: Count
    wave_attack_morale_bonus: Count
    # R-AB-2
    sniper_disable_turns: Count
    # R-CAMP-1
    campaign_xp_per_vp: Count
    campaign_tp_per_vp: Count
    # R-CAMP-2
    campaign_xp_share: Literal["equal", "individual"]
    campaign_damaged_xp: Literal["half", "full"]
    # R-CAMP-3
    campaign_xp_per_tt: Annotated[int, Field(ge=1)]
    campaign_veteran_xp: Annotated[int, Field(ge=1)]
    campaign_veteran_max: Count
    campaign_veteran_abilities: list[Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]]
    sisu_uses_per_battle: Count
    # R-CAMP-4
    campaign_tk_per_tp: Annotated[int, Field(ge=1)]
    campaign_unit_costs: dict[str, Annotated[int, Field(ge=1)]]


OptionKind = Literal["default", "variant", "amount"]


class OptionSpec(BaseModel):
    """One ``[options.NAME]`` table of ``data/options.toml``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    rule: str = Field(pattern=RULE_ID)
    kind: OptionKind
    value: Any
    choices: tuple[Any, ...] | None = None
    variant: Any = None
    fi: str = Field(min_length=1)
    en: str = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> OptionSpec:
        if self.choices is not None:
            if len(self.choices) == 0:
                raise ValueError("choices must not be empty")
            if not _among(self.value, self.choices):
                raise ValueError(
                    f"value {_show(self.value)} is not among choices {_show_all(self.choices)}"
                )
            if self.variant is not None and not _among(self.variant, self.choices):
                raise ValueError(
                    f"variant {_show(self.variant)} is not among choices {_show_all(self.choices)}"
                )
        if self.kind == "variant" and self.variant is None:
            raise ValueError("an option of kind 'variant' needs a 'variant' value (000's answer)")
        if self.kind != "variant" and self.variant is not None:
            raise ValueError(f"only kind 'variant' may have a 'variant' value (kind {self.kind!r})")
        if self.variant is not None and _same(self.variant, self.value):
            raise ValueError("variant must differ from value")
        return self


def _same(a: object, b: object) -> bool:
    # True == 1 in Python; options never mix bools and numbers.
    return type(a) is type(b) and a == b


def _among(value: object, choices: tuple[Any, ...]) -> bool:
    return any(_same(value, c) for c in choices)


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def _show_all(values: tuple[Any, ...] | list[Any]) -> str:
    return ", ".join(_show(v) for v in values)


OPTION_NAMES: tuple[str, ...] = tuple(RuleOptions.model_fields)


def options_path() -> Path:
    """The bundled ``data/options.toml``."""
    return data_path("options.toml")


def _where(text: str | None, loc: tuple[int | str, ...]) -> str:
    line = find_line(text, loc) if text is not None else None
    at = f" (line {line})" if line is not None else ""
    return f"{format_loc(loc)}{at}"


FieldCheck = tuple[str, object, tuple[int | str, ...]]
"""One value to check against an option's typed field: (option name, value, its loc)."""


def _field_problems(checks: list[FieldCheck], text: str | None) -> list[list[str]]:
    """Problems of each value against its option's typed field of :class:`RuleOptions`
    (an empty list where fine), in the order of ``checks``.

    The values are validated together by the one ``RuleOptions`` model (no model per option
    is built): each round takes each option at most once, and the errors of options left out
    of a round (``Field required``) are ignored.
    """
    out: list[list[str]] = [[] for _ in checks]
    pending = list(range(len(checks)))
    while pending:
        batch: dict[str, int] = {}
        rest: list[int] = []
        for i in pending:
            name = checks[i][0]
            if name in batch:
                rest.append(i)
            else:
                batch[name] = i
        try:
            RuleOptions.model_validate({name: checks[i][1] for name, i in batch.items()})
        except ValidationError as exc:
            for err in exc.errors():
                where = tuple(err["loc"])
                at = batch.get(str(where[0])) if where else None
                if at is not None:
                    loc = checks[at][2] + where[1:]
                    out[at].append(f"{_where(text, loc)}: {err['msg']}")
        pending = rest
    return out


def parse_option_specs(text: str, source: str) -> tuple[OptionSpec, ...]:
    """Parse and check an options file's text; every problem in one DataError."""
    data = parse_toml(text, source)
    problems: list[str] = []
    extra = sorted(set(data) - {"options"})
    for key in extra:
        problems.append(f"{_where(text, (key,))}: unknown top-level key; only [options.*] tables")
    table = data.get("options")
    if not isinstance(table, dict):
        raise DataError(source, [*problems, "options: missing [options.NAME] tables"])
    specs: list[OptionSpec] = []
    checks: list[FieldCheck] = []
    slots: list[str | int] = []  # a problem, or the index of a field check (in file order)
    for name, raw in table.items():
        loc: tuple[int | str, ...] = ("options", name)
        if name not in OPTION_NAMES:
            slots.append(f"{_where(text, loc)}: {_unknown(name)}")
            continue
        if not isinstance(raw, dict):
            slots.append(f"{_where(text, loc)}: expected a table [options.{name}]")
            continue
        try:
            spec = OptionSpec.model_validate({**raw, "name": name})
        except ValidationError as exc:
            for err in exc.errors():
                slots.append(f"{_where(text, loc + tuple(err['loc']))}: {err['msg']}")
            continue
        specs.append(spec)
        values = [(spec.value, (*loc, "value"))]
        if spec.variant is not None:
            values.append((spec.variant, (*loc, "variant")))
        values += [(c, (*loc, "choices", i)) for i, c in enumerate(spec.choices or ())]
        for value, at in values:
            slots.append(len(checks))
            checks.append((name, value, at))
    found = _field_problems(checks, text)
    for slot in slots:
        problems += found[slot] if isinstance(slot, int) else [slot]
    missing = [n for n in OPTION_NAMES if n not in table]
    for name in missing:
        problems.append(f"options.{name}: missing (the engine needs this option)")
    if problems:
        raise DataError(source, problems)
    return tuple(specs)


def _unknown(name: str) -> str:
    close = difflib.get_close_matches(name, OPTION_NAMES, n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    return (
        f"unknown rule option {name!r}{hint} "
        f"(`tk20 rules` lists the {len(OPTION_NAMES)} known options)"
    )


@lru_cache(maxsize=8)
def _specs_cached(path: str) -> tuple[OptionSpec, ...]:
    p = Path(path)
    return parse_option_specs(read_text(p), str(p))


def option_specs(path: Path | str | None = None) -> tuple[OptionSpec, ...]:
    """Every option's spec, in file order (default: the bundled ``data/options.toml``)."""
    p = Path(path) if path is not None else options_path()
    return _specs_cached(str(p))


def check_overrides(
    overrides: Mapping[str, object],
    specs: tuple[OptionSpec, ...],
    source: str,
    text: str | None = None,
) -> dict[str, object]:
    """Check a scenario's ``[options]`` table; every problem in one DataError naming ``source``.

    An unknown option name, a value of the wrong type or a value not among the option's
    choices is an error naming the option and the allowed values.
    """
    by_name = {s.name: s for s in specs}
    problems: list[str] = []
    for name, value in overrides.items():
        loc: tuple[int | str, ...] = ("options", name)
        spec = by_name.get(name)
        if spec is None:
            problems.append(f"{_where(text, loc)}: {_unknown(name)}")
            continue
        if spec.choices is not None and not _among(value, spec.choices):
            problems.append(
                f"{_where(text, loc)}: {_show(value)} is not allowed for {name} "
                f"({spec.rule}); choose one of: {_show_all(spec.choices)}"
            )
            continue
        (found,) = _field_problems([(name, value, loc)], text)
        problems += [f"{p} (option {name}, {spec.rule})" for p in found]
    if problems:
        raise DataError(source, problems)
    return dict(overrides)


def load_options(
    path: Path | str | None = None,
    overrides: Mapping[str, object] | None = None,
    source: str = "scenario [options]",
    source_text: str | None = None,
) -> RuleOptions:
    """The rule options of ``path`` (default: bundled), changed by ``overrides``.

    ``overrides`` is a scenario's ``[options]`` table; ``source`` (and, for line numbers,
    ``source_text``) name it in errors.
    """
    specs = option_specs(path)
    values: dict[str, object] = {s.name: s.value for s in specs}
    if overrides:
        values.update(check_overrides(overrides, specs, source, source_text))
    try:
        return RuleOptions.model_validate(values)
    except ValidationError as exc:  # pragma: no cover - specs and overrides are checked above
        problems = [f"options.{format_loc(tuple(e['loc']))}: {e['msg']}" for e in exc.errors()]
        raise DataError(source, problems) from None


def spec_by_name(name: str, path: Path | str | None = None) -> OptionSpec | None:
    """The spec of one option, or None."""
    return next((s for s in option_specs(path) if s.name == name), None)
