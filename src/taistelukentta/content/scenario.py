"""Scenarios: the model of a battle's starting set-up and its loader (R-TURN-2, R-GEO-4).

A scenario file (``data/scenarios/<id>.toml`` or any path) names a map, the number of
rounds, the rule-option overrides, the Blue seats with their units, the Red battle groups,
the objectives, the victory points and the game master's secrets (minefields, fire support,
ammunition, notes). ``docs/scenarios.md`` describes every key.

Loading checks everything it can and raises one :class:`DataError` that lists every problem
with its key path and, where it can be found, its line in the file.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from taistelukentta.content.loader import (
    data_path,
    find_line,
    format_loc,
    parse_toml,
)
from taistelukentta.content.maps import load_map, map_from_data
from taistelukentta.content.options import RuleOptions, load_options
from taistelukentta.content.terrain import default_terrain
from taistelukentta.content.units import UnitCard, hiding_abilities, load_unit_cards
from taistelukentta.errors import ArgumentError, DataError
from taistelukentta.grid.gamemap import GameMap
from taistelukentta.grid.terrain import TerrainTable

Cell = tuple[int, int]
Side = Literal["blue", "red"]
SeatRole = Literal["company_commander", "platoon_leader"]

SIDES: tuple[Side, Side] = ("blue", "red")

_ID_PATTERN = r"^[A-Za-z0-9_\-]{1,24}$"
_SEAT_ID = re.compile(r"^(co|pl[1-9][0-9]*)\Z")
_BG_ID = re.compile(r"^bg[1-9][0-9]*\Z")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Text(_Frozen):
    """A text in both languages. In a file a plain string means the same text in both."""

    fi: str = Field(min_length=1)
    en: str = Field(min_length=1)

    @model_validator(mode="before")
    @classmethod
    def _from_plain_string(cls, value: Any) -> Any:
        if isinstance(value, str):
            return {"fi": value, "en": value}
        return value

    def get(self, lang: str) -> str:
        """The text in ``lang`` ("fi" or "en")."""
        return self.fi if lang == "fi" else self.en


class UnitPlacement(_Frozen):
    """One unit at the start: its id (unique in the scenario), card and starting cell."""

    id: str = Field(pattern=_ID_PATTERN)
    card: str
    name: Text | None = None
    cell: Cell
    xp: int = Field(default=0, ge=0)
    strength: int | None = Field(default=None, ge=1)
    """Starting strength (TK); ``None`` = the card's maximum."""
    hidden: bool = False
    """Starts HIDDEN (R-MOR-3): the card must have an ability that grants it."""
    fortified: bool = False
    """Starts dug in: its starting cell is a fortification (R-ATK-7), as if listed in the
    scenario's ``fortifications``."""
    veteran: list[str] = Field(default_factory=list)
    """Veteran abilities a campaign unit earned (R-CAMP-3): ids of ``data/abilities.toml``
    whose rule is R-CAMP-3 (e.g. ``parannettu_sisu``, ``kaupunkisissi``)."""

    @field_validator("veteran")
    @classmethod
    def _veteran_known(cls, value: list[str]) -> list[str]:
        from taistelukentta.content.units import load_abilities

        known = sorted(a.id for a in load_abilities().values() if a.rule == "R-CAMP-3")
        for ability in value:
            if ability not in known:
                raise ValueError(
                    f"{ability!r} is not a veteran ability (known: {', '.join(known)})"
                )
        if len(set(value)) != len(value):
            raise ValueError("a veteran ability listed twice")
        return value


class Seat(_Frozen):
    """A Blue player's seat: the company commander (``co``) or a platoon (``pl1``, …)."""

    id: str
    role: SeatRole
    name: Text
    leader: str | None = None
    """Unit id of the seat's leader unit (the CO unit, the platoon leader unit)."""
    units: list[UnitPlacement]


class BlueForce(_Frozen):
    """The players' company."""

    seats: list[Seat] = Field(min_length=1)


class BattleGroup(_Frozen):
    """A Red battle group (R-KP-2): it generates command points for the GM."""

    id: str
    name: Text
    leader: str | None = None
    units: list[UnitPlacement]
    briefed_units: int | None = Field(default=None, ge=0)
    """How many units the players' briefing says the group has (R-REC-5: Red's numbers
    are the game master's; the author decides what the intelligence estimate tells, and it
    may be wrong). None: the players are told no number. Never computed from ``units``."""


class RedForce(_Frozen):
    """The game master's force."""

    battle_groups: list[BattleGroup] = Field(min_length=1)


class Objective(_Frozen):
    """A place worth victory points to the side that holds it at the end (R-TURN-2)."""

    id: str = Field(pattern=_ID_PATTERN)
    name: Text
    cells: list[Cell] = Field(min_length=1)
    vp: int = Field(ge=0)
    holder_at_start: Side | None = None


class Victory(_Frozen):
    """Victory points for enemy losses and for own losses (R-TURN-2)."""

    destroyed_enemy_vp: int = Field(ge=0)
    """VP a side gains for each enemy unit destroyed."""
    own_loss_vp: int = Field(le=0)
    """VP (zero or negative) a side gets for each own unit lost."""


MinefieldShape = Literal["box", "strip", "cells"]


class Minefield(_Frozen):
    """A minefield (R-MINE-1): a 2×2 box, a 4×1 strip or any set of cells.

    In a file a box or a strip may be given as ``at = [x, y]`` (its top-left cell) and, for
    a strip, ``orientation = "horizontal" | "vertical"``; it is stored as its ``cells``.
    """

    id: str = Field(pattern=_ID_PATTERN)
    type: Literal["AP", "AT"]
    shape: MinefieldShape = "box"
    cells: list[Cell] = Field(min_length=1)
    owner: Side = "red"
    """The side that laid it (knows it from the start); the other side must find it."""

    @model_validator(mode="before")
    @classmethod
    def _expand_anchor(cls, value: Any) -> Any:
        if not isinstance(value, dict) or "at" not in value:
            return value
        data = dict(value)
        at = data.pop("at")
        orientation = data.pop("orientation", "horizontal")
        if "cells" in data:
            raise ValueError("give either 'at' or 'cells', not both")
        if (
            not isinstance(at, list | tuple)
            or len(at) != 2
            or not all(isinstance(v, int) for v in at)
        ):
            raise ValueError("'at' must be a cell [x, y]")
        x, y = int(at[0]), int(at[1])
        shape = data.get("shape", "box")
        if shape == "box":
            data["cells"] = [[x, y], [x + 1, y], [x, y + 1], [x + 1, y + 1]]
        elif shape == "strip":
            if orientation == "horizontal":
                data["cells"] = [[x + i, y] for i in range(4)]
            elif orientation == "vertical":
                data["cells"] = [[x, y + i] for i in range(4)]
            else:
                raise ValueError("orientation must be 'horizontal' or 'vertical'")
        else:
            raise ValueError("'at' works only with shape 'box' or 'strip'; list the cells")
        return data


class FireSupport(_Frozen):
    """Off-board fire support granted by the scenario (R-OFF-1)."""

    off_board_requests: int = Field(default=0, ge=0)
    weapons: list[Literal["k9", "mlrs"]] = Field(default_factory=list)


class Secrets(_Frozen):
    """What only the game master knows at the start (issue 4 uses it)."""

    minefields: list[Minefield] = Field(default_factory=list)
    fire_support: FireSupport = Field(default_factory=FireSupport)
    organic_rounds: dict[str, int] = Field(default_factory=dict)
    """Rounds of organic support (R-ORG-1) per support unit id."""
    notes: Text | None = None


class ScenarioFile(_Frozen):
    """The scenario file as written, before the map, cards and options are resolved."""

    id: str | None = Field(default=None, pattern=_ID_PATTERN)
    title: Text
    briefing: Text
    map: str | dict[str, Any]
    rounds: int = Field(ge=1, le=99)
    first_side: Side
    options: dict[str, Any] = Field(default_factory=dict)
    blue: BlueForce
    red: RedForce
    objectives: list[Objective] = Field(default_factory=list)
    victory: Victory
    secrets: Secrets = Field(default_factory=Secrets)
    fortifications: list[Cell] = Field(default_factory=list)
    """Fortified cells, dug-in positions (R-ATK-7): attacks on a unit in one have
    disadvantage (option ``fortified_source = "scenario"``). Public, like the terrain."""
    smoke: list[Cell] = Field(default_factory=list)
    """Cells of very poor visibility, e.g. smoke (R-ATK-7, 000): a direct attack whose line
    crosses one (its two end cells included) has disadvantage. Public."""


class RuleCaches(dict[Any, Any]):
    """The rules' caches of one scenario object. Derived data only: two scenarios compare
    equal whatever their caches hold."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RuleCaches)

    def __ne__(self, other: object) -> bool:
        return not isinstance(other, RuleCaches)

    def __hash__(self) -> int:  # type: ignore[override]
        return 0


class Scenario(_Frozen):
    """A loaded and checked scenario: everything a new game starts from."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    id: str
    title: Text
    briefing: Text
    map: GameMap
    rounds: int
    first_side: Side
    options: RuleOptions
    cards: dict[str, UnitCard]
    """The unit cards the scenario's units use, by card id."""
    blue: BlueForce
    red: RedForce
    objectives: list[Objective]
    victory: Victory
    secrets: Secrets
    fortifications: frozenset[Cell] = frozenset()
    """The fortified cells (R-ATK-7): the file's ``fortifications`` and the starting cells
    of units placed with ``fortified = true``."""
    smoke: frozenset[Cell] = frozenset()
    """Cells of very poor visibility (R-ATK-7)."""
    source: str | None = None
    """Where the scenario came from: its file's path, or the ``source`` given with the data."""
    rule_caches: RuleCaches = Field(default_factory=lambda: RuleCaches(), exclude=True, repr=False)
    """What the rules keep for this scenario object (one entry per ruleset, see
    :meth:`taistelukentta.rules.ruleset.Ruleset.context`): it lives as long as the scenario
    and is never part of its value (not compared, hashed or serialised). A copy of the
    scenario shares it, so every entry names the scenario object it was made for."""

    def placements(self) -> Iterator[tuple[Side, str, UnitPlacement]]:
        """Every unit as ``(side, seat or battle-group id, placement)``, in file order."""
        for seat in self.blue.seats:
            for unit in seat.units:
                yield "blue", seat.id, unit
        for group in self.red.battle_groups:
            for unit in group.units:
                yield "red", group.id, unit

    def unit(self, unit_id: str) -> UnitPlacement:
        """The placement of ``unit_id`` (KeyError if there is none)."""
        for _, _, unit in self.placements():
            if unit.id == unit_id:
                return unit
        raise KeyError(unit_id)

    def side_of(self, unit_id: str) -> Side:
        """The side of ``unit_id`` (KeyError if there is none)."""
        for side, _, unit in self.placements():
            if unit.id == unit_id:
                return side
        raise KeyError(unit_id)

    def group_of(self, unit_id: str) -> str:
        """The seat or battle-group id ``unit_id`` belongs to (KeyError if none)."""
        for _, group, unit in self.placements():
            if unit.id == unit_id:
                return group
        raise KeyError(unit_id)

    def seat(self, seat_id: str) -> Seat:
        """The Blue seat ``seat_id`` (KeyError if there is none)."""
        for seat in self.blue.seats:
            if seat.id == seat_id:
                return seat
        raise KeyError(seat_id)

    def battle_group(self, group_id: str) -> BattleGroup:
        """The Red battle group ``group_id`` (KeyError if there is none)."""
        for group in self.red.battle_groups:
            if group.id == group_id:
                return group
        raise KeyError(group_id)

    def card_of(self, unit_id: str) -> UnitCard:
        """The unit card of ``unit_id``."""
        return self.cards[self.unit(unit_id).card]


class ScenarioInfo(_Frozen):
    """A bundled scenario: its id, title and file."""

    id: str
    title: Text
    path: str


# --------------------------------------------------------------------------- loading


def scenarios_dir() -> Path:
    """The folder of the bundled scenario files."""
    return data_path("scenarios")


def bundled_ids() -> list[str]:
    """Ids (file stems) of the bundled scenarios, sorted."""
    folder = scenarios_dir()
    if not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.glob("*.toml"))


def bundled_scenarios() -> list[ScenarioInfo]:
    """Every bundled scenario with its title (the files are parsed, not fully checked)."""
    infos = []
    for sid in bundled_ids():
        path = scenarios_dir() / f"{sid}.toml"
        text = path.read_text(encoding="utf-8")
        data = parse_toml(text, str(path))
        try:
            title = Text.model_validate(data.get("title"))
        except ValidationError:
            title = Text(fi=sid, en=sid)
        infos.append(ScenarioInfo(id=sid, title=title, path=str(path)))
    return infos


def load_scenario(
    name_or_path: str,
    options: Mapping[str, Any] | None = None,
    overlay: Mapping[str, Any] | None = None,
) -> Scenario:
    """Load a bundled scenario by id (``"demo"``) or any scenario file by path; ``options``
    (rule options, as ``[options]`` in the file) override the file's; ``overlay``: a
    campaign battle's units in the Blue slots (a game file's ``blue_overlay``, issue 12).

    Raises ArgumentError for a name that is neither, DataError for a broken file.
    """
    ids = bundled_ids()
    if name_or_path in ids:
        return load_scenario_file(scenarios_dir() / f"{name_or_path}.toml", options, overlay)
    path = Path(name_or_path)
    if path.is_file():
        return load_scenario_file(path, options, overlay)
    known = ", ".join(ids) or "-"
    raise ArgumentError(
        f"unknown scenario {name_or_path!r}: neither a bundled scenario ({known}) "
        "nor a scenario file",
        f"tuntematon skenaario {name_or_path!r}: ei valmis skenaario ({known}) "
        "eikä skenaariotiedosto",
    )


_RESIDENT_SCENARIOS: dict[tuple[str, str, str], Scenario] = {}
"""The bundled scenarios a resident start-up process loaded before it forks its children
(:func:`keep_bundled_scenarios`, called only by ``cli/resident.py``; empty everywhere
else), by (file path, the file's whole text, the options as canonical JSON): a file whose
text differs by one byte, other options or a campaign overlay load as always. The files a
bundled scenario refers to (map, unit cards, options, terrain) are package files, and a
resident process serves only the package files it started with (their sizes and times are
in its socket's name, ``cli/launcher.py``). A scenario is immutable; the rule caches it
carries hold what is derived from it (``rules/context.py``) and what a child adds dies
with the child."""


def _resident_key(path: Path, text: str, options: Mapping[str, Any] | None) -> tuple[str, str, str]:
    import json

    return str(path), text, json.dumps(options or {}, sort_keys=True, default=repr)


def keep_bundled_scenarios() -> None:
    """Load every bundled scenario (default options) into :data:`_RESIDENT_SCENARIOS` —
    for a resident start-up process only, before it forks."""
    for sid in bundled_ids():
        path = scenarios_dir() / f"{sid}.toml"
        try:
            text = path.read_text(encoding="utf-8")
            scenario = load_scenario_file(path)
        except (OSError, UnicodeDecodeError, DataError):
            continue
        _RESIDENT_SCENARIOS[_resident_key(path, text, None)] = scenario


def kept_scenarios() -> list[Scenario]:
    """The scenarios :func:`keep_bundled_scenarios` loaded."""
    return list(_RESIDENT_SCENARIOS.values())


def load_scenario_file(
    path: Path | str,
    options: Mapping[str, Any] | None = None,
    overlay: Mapping[str, Any] | None = None,
) -> Scenario:
    """Load and check one scenario file (``options`` override its ``[options]``;
    ``overlay``: see :func:`load_scenario`)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(str(p), ["file not found"]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(str(p), [f"cannot read file: {exc}"]) from None
    if _RESIDENT_SCENARIOS and overlay is None:
        kept = _RESIDENT_SCENARIOS.get(_resident_key(p, text, options))
        if kept is not None:
            return kept
    data = parse_toml(text, str(p))
    if options:
        data["options"] = {**data.get("options", {}), **options}
    if overlay is not None:
        from taistelukentta.rules.campaign_battle import apply_overlay  # (imports this module)

        data = apply_overlay(data, overlay)
    return scenario_from_data(
        data,
        source=str(p),
        text=text if overlay is None else None,  # the file's lines no longer fit the units
        base_dir=p.parent,
        default_id=p.stem,
    )


def scenario_from_data(
    data: dict[str, Any],
    *,
    source: str = "<scenario>",
    text: str | None = None,
    base_dir: Path | None = None,
    default_id: str = "scenario",
) -> Scenario:
    """Check scenario ``data`` (a parsed file) and resolve its map, cards and options.

    ``text`` (the file's text) lets problems name their line; ``base_dir`` is where a
    relative map path is looked for first (then the bundled data folder).
    """
    where = _Locator(text or "", data)
    try:
        spec = ScenarioFile.model_validate(data)
    except ValidationError as exc:
        raise DataError(source, [where.pydantic_problem(e) for e in exc.errors()]) from None

    problems: list[str] = []
    options = _resolve_options(spec, source, text, problems)
    game_map = _resolve_map(spec, source, text, base_dir, where, problems, terrain_for(options))
    if game_map is not None:
        game_map = map_rules_for(game_map, options)
    cards = load_unit_cards()
    if game_map is not None:
        problems.extend(_check(spec, game_map, cards, options, where))
    if problems or game_map is None:
        raise DataError(source, problems)

    used = {u.card for *_, u in _placements(spec)}
    return Scenario(
        id=spec.id or default_id,
        title=spec.title,
        briefing=spec.briefing,
        map=game_map,
        rounds=spec.rounds,
        first_side=spec.first_side,
        options=options,
        cards={cid: cards[cid] for cid in sorted(used)},
        blue=spec.blue,
        red=spec.red,
        objectives=spec.objectives,
        victory=spec.victory,
        secrets=spec.secrets,
        fortifications=frozenset(
            [*spec.fortifications, *(u.cell for *_, u in _placements(spec) if u.fortified)]
        ),
        smoke=frozenset(spec.smoke),
        source=source,
    )


def _resolve_map(
    spec: ScenarioFile,
    source: str,
    text: str | None,
    base_dir: Path | None,
    where: _Locator,
    problems: list[str],
    terrain: TerrainTable,
) -> GameMap | None:
    if isinstance(spec.map, dict):
        try:
            return map_from_data(spec.map, source, terrain, text=text)
        except DataError as exc:
            problems.extend(f"map.{p}" for p in exc.problems)
            return None
    candidates = []
    rel = Path(spec.map)
    if rel.is_absolute():
        candidates.append(rel)
    else:
        if base_dir is not None:
            candidates.append(base_dir / rel)
        candidates.append(data_path(*rel.parts))
    for candidate in candidates:
        if candidate.is_file():
            return load_map(candidate, terrain)
    looked = ", ".join(str(c) for c in candidates)
    problems.append(f"{where.top('map')}: map file {spec.map!r} not found (looked in {looked})")
    return None


TERRAIN_OPTIONS = {
    "thicket_move_cost": ("thicket", "move_cost"),
    "buildings_block_movement": ("building", "move_cost"),
    "forest_cover": ("forest", "cover"),
    "building_cover": ("building", "cover"),
}
"""Rule options that set a value of the terrain table: option → (terrain id, field)."""


def terrain_for(options: RuleOptions, base: TerrainTable | None = None) -> TerrainTable:
    """The terrain table a scenario's map uses: ``base`` (default: the bundled
    ``data/terrain.toml``) with the terrain rule options applied; the option wins.

    - ``thicket_move_cost`` (R-TER-1) sets the thicket's movement multiplier;
    - ``buildings_block_movement`` (R-TER-1, 000 variant) makes buildings impassable (a
      cell that also holds a road stays passable by the road); false keeps the table's
      building multiplier;
    - ``forest_cover`` (R-TER-2) sets the forest's cover (swamp keeps its own);
    - ``building_cover`` (R-TER-2) sets the building's cover.
    """
    table = base if base is not None else default_terrain()
    move_cost: dict[str, float | None] = {"thicket": float(options.thicket_move_cost)}
    if options.buildings_block_movement:
        move_cost["building"] = None
    return table.with_overrides(
        move_cost=move_cost,
        cover={"forest": options.forest_cover, "building": options.building_cover},
    )


URBAN_ABILITY = "kaupunkisissi"
"""The veteran ability that moves into buildings as into open ground (R-CAMP-3)."""


def urban_map(game_map: GameMap) -> GameMap:
    """``game_map`` as a unit with *Kaupunkisissi* (R-CAMP-3) moves on it: a building costs
    what open ground costs, also where ``buildings_block_movement`` made it impassable.
    Everything else (sight, cover, rule settings) is the map's own."""
    table = game_map.terrain
    if "building" not in table:
        return game_map
    open_cost = table.get("open").move_cost if "open" in table else None
    urban = GameMap(
        list(game_map.rows),
        terrain=table.with_overrides(move_cost={"building": open_cost or 1.0}),
        legend=game_map.legend,
        elevation=game_map.elevation_rows,
        name=game_map.name,
        source=game_map.source,
    )
    return urban.with_rules(ascent_limit=game_map.ascent_limit, los_corner=game_map.los_corner)


def map_rules_for(game_map: GameMap, options: RuleOptions) -> GameMap:
    """``game_map`` set to the options' movement and sight rules, which
    :mod:`taistelukentta.grid` then uses by default: ``steep_ascent_contours`` (R-TER-5) as
    the map's ``ascent_limit`` and ``los_corner`` (R-TER-4) as its ``los_corner``."""
    return game_map.with_rules(
        ascent_limit=options.steep_ascent_contours, los_corner=options.los_corner
    )


def _resolve_options(
    spec: ScenarioFile, source: str, text: str | None, problems: list[str]
) -> RuleOptions:
    """``data/options.toml`` changed by the scenario's ``[options]`` table."""
    try:
        return load_options(overrides=spec.options, source=source, source_text=text)
    except DataError as exc:
        problems.extend(exc.problems)
        return load_options()


def _placements(spec: ScenarioFile) -> Iterator[tuple[Side, str, int, int, UnitPlacement]]:
    """``(side, group id, group index, unit index, placement)`` for every unit."""
    for gi, seat in enumerate(spec.blue.seats):
        for ui, unit in enumerate(seat.units):
            yield "blue", seat.id, gi, ui, unit
    for gi, group in enumerate(spec.red.battle_groups):
        for ui, unit in enumerate(group.units):
            yield "red", group.id, gi, ui, unit


def _unit_key(side: Side, gi: int, ui: int, key: str | None = None) -> str:
    group = "blue.seats" if side == "blue" else "red.battle_groups"
    tail = f".{key}" if key else ""
    return f"{group}[{gi}].units[{ui}]{tail}"


def _numbered(ids: Sequence[str], prefix: str) -> bool:
    """Whether ``ids`` are exactly ``prefix1 … prefixN`` in some order."""
    wanted = {f"{prefix}{i}" for i in range(1, len(ids) + 1)}
    return set(ids) == wanted and len(set(ids)) == len(ids)


def _check(
    spec: ScenarioFile,
    game_map: GameMap,
    cards: dict[str, UnitCard],
    options: RuleOptions,
    where: _Locator,
) -> list[str]:
    problems: list[str] = []
    stacking_limit = options.stacking_limit
    add = problems.append

    # Seats: ids co, pl1, pl2, …; exactly one company commander ("co").
    seats = spec.blue.seats
    for gi, seat in enumerate(seats):
        key = f"blue.seats[{gi}]"
        line = where.anchored([seat.id], "id")
        if not _SEAT_ID.match(seat.id):
            add(f"{key}.id{line}: seat id {seat.id!r} must be 'co' or 'pl1', 'pl2', …")
        elif seat.id == "co" and seat.role != "company_commander":
            add(
                f"{key}.role{where.anchored([seat.id], 'role')}: seat 'co' must have role "
                "'company_commander'"
            )
        elif seat.id != "co" and seat.role != "platoon_leader":
            add(
                f"{key}.role{where.anchored([seat.id], 'role')}: seat {seat.id!r} must have "
                "role 'platoon_leader'"
            )
        if not seat.units:
            add(f"{key}.units{where.anchored([seat.id], 'units')}: seat {seat.id!r} has no units")
        if seat.leader is not None and seat.leader not in {u.id for u in seat.units}:
            add(
                f"{key}.leader{where.anchored([seat.id], 'leader')}: leader {seat.leader!r} "
                f"is not one of the units of seat {seat.id!r}"
            )
        leader_unit = next((u for u in seat.units if u.id == seat.leader), None)
        leader_card = cards.get(leader_unit.card) if leader_unit is not None else None
        if leader_card is not None and leader_card.role != seat.role:
            add(
                f"{key}.leader{where.anchored([seat.id], 'leader')}: leader {seat.leader!r} "
                f"of seat {seat.id!r} uses card {leader_card.id!r} whose role is "
                f"{leader_card.role!r}, not {seat.role!r}"
            )
    commanders = [s.id for s in seats if s.role == "company_commander"]
    if len(commanders) != 1:
        add(
            f"{where.top('blue', 'seats')}: exactly one seat must have role "
            f"'company_commander', found {len(commanders)}"
        )
    seat_ids = [s.id for s in seats]
    for sid, n in Counter(seat_ids).items():
        if n > 1:
            add(f"blue.seats{where.anchored([sid], 'id')}: seat id {sid!r} is used {n} times")
    platoons = [s for s in seat_ids if s != "co"]
    if all(_SEAT_ID.match(s) for s in seat_ids) and not _numbered(platoons, "pl"):
        add(
            f"{where.top('blue', 'seats')}: platoon seats must be numbered pl1 … "
            f"pl{len(platoons)} without gaps, found {', '.join(platoons) or 'none'}"
        )

    # Battle groups: ids bg1, bg2, …
    groups = spec.red.battle_groups
    for gi, group in enumerate(groups):
        key = f"red.battle_groups[{gi}]"
        if not _BG_ID.match(group.id):
            add(
                f"{key}.id{where.anchored([group.id], 'id')}: battle group id {group.id!r} "
                "must be 'bg1', 'bg2', …"
            )
        if not group.units:
            add(
                f"{key}.units{where.anchored([group.id], 'units')}: battle group "
                f"{group.id!r} has no units"
            )
        if group.leader is not None and group.leader not in {u.id for u in group.units}:
            add(
                f"{key}.leader{where.anchored([group.id], 'leader')}: leader {group.leader!r} "
                f"is not one of the units of battle group {group.id!r}"
            )
    group_ids = [g.id for g in groups]
    if all(_BG_ID.match(g) for g in group_ids) and not _numbered(group_ids, "bg"):
        add(
            f"{where.top('red', 'battle_groups')}: battle groups must be numbered bg1 … "
            f"bg{len(group_ids)} without gaps and once each, found {', '.join(group_ids)}"
        )

    # Units: cards, unique ids, cells, strength, stacking (R-GEO-4).
    known_cards = ", ".join(sorted(cards))
    seen: dict[str, str] = {}
    in_group: Counter[tuple[str, str]] = Counter()
    occupants: dict[Cell, list[tuple[Side, str, str]]] = defaultdict(list)
    for side, gid, gi, ui, unit in _placements(spec):
        anchors = [gid, unit.id]
        in_group[gid, unit.id] += 1
        card = cards.get(unit.card)
        if card is None:
            add(
                f"{_unit_key(side, gi, ui, 'card')}{where.anchored(anchors, 'card')}: "
                f"unknown unit card {unit.card!r} (known: {known_cards})"
            )
        elif card.side != side:
            add(
                f"{_unit_key(side, gi, ui, 'card')}{where.anchored(anchors, 'card')}: "
                f"card {unit.card!r} is a {card.side} card but unit {unit.id!r} is {side}"
            )
        if unit.id in seen:
            nth = in_group[gid, unit.id]
            add(
                f"{_unit_key(side, gi, ui, 'id')}{where.anchored(anchors, 'id', nth=nth)}: "
                f"duplicate unit id {unit.id!r} (also in {seen[unit.id]})"
            )
        else:
            seen[unit.id] = gid
        cell_key = f"{_unit_key(side, gi, ui, 'cell')}{where.anchored(anchors, 'cell')}"
        if not game_map.in_bounds(unit.cell):
            add(
                f"{cell_key}: cell {_cell(unit.cell)} of unit {unit.id!r} is off the map "
                f"({game_map.width}×{game_map.height})"
            )
            continue
        if game_map.move_cost_at(unit.cell) is None and not (
            URBAN_ABILITY in unit.veteran and urban_map(game_map).move_cost_at(unit.cell)
        ):
            add(
                f"{cell_key}: cell {_cell(unit.cell)} of unit {unit.id!r} is impassable "
                f"({'/'.join(game_map.features_at(unit.cell))})"
            )
        if (
            unit.hidden
            and card is not None
            and not any(a.id in hiding_abilities() for a in card.abilities)
        ):
            add(
                f"{_unit_key(side, gi, ui, 'hidden')}{where.anchored(anchors, 'hidden')}: "
                f"unit {unit.id!r} cannot start hidden: card {unit.card!r} has no ability "
                f"that grants HIDDEN ({', '.join(sorted(hiding_abilities()))}) (R-MOR-3)"
            )
        if card is not None and unit.strength is not None:
            top = card.stats.strength
            if unit.strength > top:
                add(
                    f"{_unit_key(side, gi, ui, 'strength')}"
                    f"{where.anchored(anchors, 'strength')}: strength {unit.strength} of "
                    f"unit {unit.id!r} exceeds the card's maximum {top}"
                )
        occupants[unit.cell].append((side, unit.id, cell_key))
    for cell, here in occupants.items():
        ids = ", ".join(uid for _, uid, _ in here)
        if len(here) > stacking_limit:
            add(
                f"{here[stacking_limit][2]}: {len(here)} units in cell {_cell(cell)} ({ids}); "
                f"the stacking limit is {stacking_limit} (R-GEO-4)"
            )
        if len({s for s, _, _ in here}) > 1 and not options.stacking_mixed_sides:
            add(f"{here[-1][2]}: units of both sides in cell {_cell(cell)} ({ids}) (R-GEO-4)")

    # Objectives.
    for oi, obj in enumerate(spec.objectives):
        for ci, cell in enumerate(obj.cells):
            if not game_map.in_bounds(cell):
                add(
                    f"objectives[{oi}].cells[{ci}]{where.anchored([obj.id], 'cells')}: cell "
                    f"{_cell(cell)} of objective {obj.id!r} is off the map "
                    f"({game_map.width}×{game_map.height})"
                )
    for oid, n in Counter(o.id for o in spec.objectives).items():
        if n > 1:
            add(f"objectives{where.anchored([oid], 'id')}: objective id {oid!r} is used {n} times")

    # Fortifications and smoke (R-ATK-7): cells on the map.
    for what in ("fortifications", "smoke"):
        for ci, cell in enumerate(getattr(spec, what)):
            if not game_map.in_bounds(cell):
                add(
                    f"{what}[{ci}]{where.top_line(what)}: cell {_cell(cell)} is off the map "
                    f"({game_map.width}×{game_map.height})"
                )

    # Secrets.
    secrets = spec.secrets
    for mi, field in enumerate(secrets.minefields):
        key = f"secrets.minefields[{mi}]"
        line = where.anchored([field.id], "cells", fallback=False) or where.anchored(
            [field.id], "at"
        )
        for cell in field.cells:
            if not game_map.in_bounds(cell):
                add(
                    f"{key}.cells{line}: cell {_cell(cell)} of minefield {field.id!r} is off "
                    f"the map ({game_map.width}×{game_map.height})"
                )
        shape_problem = _shape_problem(field)
        if shape_problem:
            add(f"{key}.cells{line}: minefield {field.id!r}: {shape_problem}")
        for cell in field.cells:
            for side, uid, _ in occupants.get(cell, []):
                if side != field.owner:
                    add(
                        f"{key}.cells{line}: minefield {field.id!r} lies under {side} unit "
                        f"{uid!r} at {_cell(cell)}"
                    )
    for mid, n in Counter(m.id for m in secrets.minefields).items():
        if n > 1:
            add(
                f"secrets.minefields{where.anchored([mid], 'id')}: minefield id {mid!r} is "
                f"used {n} times"
            )
    for uid, rounds in secrets.organic_rounds.items():
        key = where.top("secrets", "organic_rounds", uid)
        if uid not in seen:
            add(f"{key}: no unit {uid!r} in the scenario")
        elif not any(
            u.id == uid and u.card in cards and cards[u.card].has_ability("organic_fire_support")
            for *_, u in _placements(spec)
        ):
            add(f"{key}: unit {uid!r} has no organic fire support (e.g. a mortar squad)")
        if rounds < 0:
            add(f"{key}: rounds must be ≥ 0")
    fire = secrets.fire_support
    if fire.off_board_requests > 0 and not fire.weapons:
        add(
            f"{where.top('secrets', 'fire_support', 'weapons')}: off-board requests given "
            "but no weapons ('k9', 'mlrs')"
        )
    return problems


def _shape_problem(field: Minefield) -> str | None:
    cells = sorted(set(field.cells))
    if len(cells) != len(field.cells):
        return "a cell is listed twice"
    if field.shape == "cells":
        return None
    xs = sorted({x for x, _ in cells})
    ys = sorted({y for _, y in cells})
    if field.shape == "box":
        ok = len(cells) == 4 and len(xs) == 2 and len(ys) == 2
        ok = ok and xs[1] - xs[0] == 1 and ys[1] - ys[0] == 1
        return None if ok else "a box is 2×2 adjacent cells"
    line = (len(ys) == 1 and xs == list(range(xs[0], xs[0] + 4))) or (
        len(xs) == 1 and ys == list(range(ys[0], ys[0] + 4))
    )
    return None if len(cells) == 4 and line else "a strip is 4 cells in a row or a column"


def _cell(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


class _Locator:
    """Finds the line of a key in the scenario text, for error messages."""

    def __init__(self, text: str, data: Any) -> None:
        self.text = text
        self.lines = text.splitlines()
        self.data = data

    def top_line(self, *keys: str) -> str:
        """`` (line N)`` for a top-level key path, or ``""``."""
        if not self.text:
            return ""
        line = find_line(self.text, keys)
        return f" (line {line})" if line else ""

    def top(self, *keys: str) -> str:
        """``key.path (line N)`` for a top-level key path."""
        return ".".join(keys) + self.top_line(*keys)

    def anchored(
        self, anchors: Sequence[str], key: str | None, nth: int = 1, *, fallback: bool = True
    ) -> str:
        """`` (line N)`` of ``key`` in the table whose ``id`` is the last of ``anchors``.

        The anchors are found one after the other (a seat id, then a unit id in it); the
        ``nth`` occurrence of the last anchor is used (for duplicates). Without the key
        in that table the anchor's own line is given, or ``""`` if not ``fallback``.
        """
        line = self._anchored_line(anchors, key, nth, fallback=fallback)
        return f" (line {line})" if line else ""

    def _anchored_line(
        self, anchors: Sequence[str], key: str | None, nth: int, *, fallback: bool = True
    ) -> int | None:
        if not self.lines or not anchors:
            return None
        start = 0
        found = False
        for i, anchor in enumerate(anchors):
            pat = re.compile(r"(^|[\s{,])id\s*=\s*[\"']" + re.escape(anchor) + r"[\"']")
            wanted = nth if i == len(anchors) - 1 else 1
            hits = 0
            for ln in range(start, len(self.lines)):
                if pat.search(self.lines[ln]):
                    hits += 1
                    if hits == wanted:
                        start, found = ln, True
                        break
        if not found:
            return None
        if key is None:
            return start + 1
        key_pat = re.compile(r"(^|[\s{,])" + re.escape(key) + r"\s*=")
        for ln in range(start, len(self.lines)):
            line = self.lines[ln]
            if ln > start and (
                line.lstrip().startswith("[") or re.search(r"(^|[\s{,])id\s*=", line)
            ):
                break
            if key_pat.search(line):
                return ln + 1
        return start + 1 if fallback else None

    def pydantic_problem(self, err: Any) -> str:
        """One line for a pydantic error, with the best line number found."""
        loc = tuple(err["loc"])
        anchors: list[str] = []
        node: Any = self.data
        for part in loc[:-1]:
            try:
                node = node[part]
            except (KeyError, IndexError, TypeError):
                break
            if isinstance(node, dict) and isinstance(node.get("id"), str):
                anchors.append(node["id"])
        last_key = next((p for p in reversed(loc) if isinstance(p, str)), None)
        line: int | None = None
        if anchors:
            line = self._anchored_line(anchors, last_key, 1)
        if line is None and self.text:
            line = find_line(self.text, loc)
        at = f" (line {line})" if line else ""
        return f"{format_loc(loc)}{at}: {err['msg']}"
