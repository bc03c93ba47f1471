"""The game state: units, contacts, command points, phase, dice state (R-TURN-1, R-KP-1/2).

A :class:`GameState` is an immutable value. :func:`taistelukentta.rules.engine.apply`
returns a new one and never touches its input: containers are copied shallowly and only
the units that changed are replaced (copy-on-write), so an ``apply`` costs little however
long the game has run. The state holds a reference to its (immutable) :class:`Scenario`,
which is not serialised: :meth:`GameState.to_dict` / :meth:`GameState.from_dict` carry only
the dynamic part, and :meth:`GameState.state_hash` hashes it.

Status timing (R-TURN-3): a status remembers ``turn_no`` — the game-wide number of the side
turn in which it was inflicted (1, 2, 3, … across both sides). A status inflicted before
the unit's current own turn began has lasted "through its own next turn" and may clear at
the end of that turn; one inflicted during its own turn lasts through its next own turn.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from operator import attrgetter
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

from taistelukentta.content.scenario import Scenario
from taistelukentta.dice.roller import HMAC_SCHEME, LEGACY_SCHEME, Seed, scheme_of
from taistelukentta.errors import ArgumentError
from taistelukentta.grid.geometry import Cell
from taistelukentta.rules.events import Event, numbered
from taistelukentta.rules.recon import ContactLevel

if TYPE_CHECKING:
    from taistelukentta.rules.ruleset import Ruleset

Side = Literal["blue", "red"]
SIDES: tuple[Side, Side] = ("blue", "red")
GM_SEAT = "gm"
"""The Red seat: the game master (R-KP-2)."""

STATE_FORMAT = 1
"""Version tag of :meth:`GameState.to_dict`."""

NO_EXT: Mapping[str, Any] = MappingProxyType({})
"""The empty module-state slot (shared; ``ext`` is replaced, never modified)."""


def other_side(side: Side) -> Side:
    """The opposing side."""
    return "red" if side == "blue" else "blue"


class Phase(StrEnum):
    """Where in its turn the active side is (R-TURN-1). Start and end run automatically."""

    COMMAND = "command"
    FIRE = "fire"
    OVER = "over"


class Action(StrEnum):
    """The one action a unit takes in its turn (R-KP-3, R-KP-4)."""

    DEFEND = "defend"
    MOVE = "move"
    ATTACK = "attack"
    DISENGAGE = "disengage"
    WITHDRAW = "withdraw"


@dataclass(frozen=True, slots=True)
class UnitState:
    """One unit on the map. Statuses hold the ``turn_no`` they were inflicted in."""

    id: str
    card: str
    side: Side
    seat: str
    """The seat that orders it: a Blue seat id (``co``, ``pl1`` …) or ``gm``."""
    group: str
    """Its platoon (the Blue seat id) or Red battle group id (``bg1`` …)."""
    cell: Cell
    strength: int
    max_strength: int
    xp: int
    shaken: int | None = None
    """SHAKEN since this turn_no (R-MOR-2), or None."""
    suppressed: int | None = None
    """SUPPRESSED since this turn_no (R-MOR-2), or None."""
    retreating: int | None = None
    """RETREATING since this turn_no (R-MOR-5), or None."""
    status_dc: int = 0
    """DC of the morale test that gave SUPPRESSED/RETREATING (the recovery test's DC)."""
    pinned: int | None = None
    """Pinned (R-ATK-4) since this turn_no: its next attack roll gets ``pinning_penalty``."""
    pinning_penalty: int = 0
    morale_marks: int = 0
    """−1 marks on its next morale test (R-MOR-4, R-ATK-5 variant)."""
    confused: bool = False
    """R-ATK-6 confusion: the next attack against it has advantage."""
    jammed_turn: int | None = None
    """R-ATK-6 weapon jam: its main weapon cannot fire in this turn_no."""
    comms_until: int | None = None
    """R-ATK-6 communications break: no commander abilities through this turn_no."""
    damaged_before: bool = False
    """Whether it has taken damage in this battle (R-TK-2 first-damage test)."""
    action: Action | None = None
    """This turn's action (None = not given yet; defends by default, R-KP-3)."""
    moved: bool = False
    fired: bool = False
    reconned: bool = False
    rallied: bool = False
    zoc_at_start: bool = False
    """It began its turn in the ZoC of an enemy its side had SPOTTED (R-KP-3)."""
    ext: Mapping[str, Any] = field(default_factory=lambda: NO_EXT)
    """Rule-module state of this unit, one JSON-safe value per module name
    (docs/extending.md). Never shown to a side except through ``view_extras``."""

    def is_damaged(self, damaged_percent: int) -> bool:
        """DAMAGED: TK below ``damaged_percent`` % of its maximum (R-TK-1; the option
        ``damaged_threshold``)."""
        return self.strength * 100 < damaged_percent * self.max_strength

    def statuses(self, damaged_percent: int) -> frozenset[str]:
        """Status codes (glossary codes) the unit has now; ``damaged_percent`` is the
        ``damaged_threshold`` option."""
        out = set()
        if self.shaken is not None:
            out.add("SHAKEN")
        if self.suppressed is not None:
            out.add("SUPPRESSED")
        if self.retreating is not None:
            out.add("RETREATING")
        if self.strength * 100 < damaged_percent * self.max_strength:
            out.add("DAMAGED")
        return frozenset(out)

    def with_changes(self, changes: Mapping[str, Any]) -> UnitState:
        """``dataclasses.replace(self, **changes)``, a few times cheaper (the engine
        replaces units several hundred times a game). TypeError for an unknown field."""
        values = list(_unit_values(self))
        for name, value in changes.items():
            i = _UNIT_INDEX.get(name)
            if i is None:
                raise TypeError(f"UnitState has no field {name!r}")
            values[i] = value
        return UnitState(*values)

    def fresh_turn(self, zoc_at_start: bool) -> UnitState:
        """The unit at the start of its own turn: per-turn flags cleared."""
        return self.with_changes(
            {
                "action": None,
                "moved": False,
                "fired": False,
                "reconned": False,
                "rallied": False,
                "zoc_at_start": zoc_at_start,
            }
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dictionary."""
        return {
            "id": self.id,
            "card": self.card,
            "side": self.side,
            "seat": self.seat,
            "group": self.group,
            "cell": list(self.cell),
            "strength": self.strength,
            "max_strength": self.max_strength,
            "xp": self.xp,
            "shaken": self.shaken,
            "suppressed": self.suppressed,
            "retreating": self.retreating,
            "status_dc": self.status_dc,
            "pinned": self.pinned,
            "pinning_penalty": self.pinning_penalty,
            "morale_marks": self.morale_marks,
            "confused": self.confused,
            "jammed_turn": self.jammed_turn,
            "comms_until": self.comms_until,
            "damaged_before": self.damaged_before,
            "action": None if self.action is None else self.action.value,
            "moved": self.moved,
            "fired": self.fired,
            "reconned": self.reconned,
            "rallied": self.rallied,
            "zoc_at_start": self.zoc_at_start,
            **({"ext": jsonable(self.ext)} if self.ext else {}),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> UnitState:
        """Inverse of :meth:`to_dict`."""
        data = dict(d)
        data["ext"] = dict(data["ext"]) if data.get("ext") else NO_EXT
        data["cell"] = _cell(data["cell"])
        data["action"] = None if data.get("action") is None else Action(data["action"])
        return cls(**data)


_UNIT_FIELDS = tuple(f.name for f in fields(UnitState))
_UNIT_INDEX = {name: i for i, name in enumerate(_UNIT_FIELDS)}
_unit_values = attrgetter(*_UNIT_FIELDS)


_BLUE_SEATS = "state.blue_seats"


def _blue_seat_ids(scenario: Scenario) -> tuple[str, ...]:
    """The Blue seat ids of a scenario (immutable), kept with the scenario object."""
    store = scenario.rule_caches
    hit: tuple[Scenario, tuple[str, ...]] | None = store.get(_BLUE_SEATS)
    if hit is None or hit[0] is not scenario:
        hit = (scenario, tuple(s.id for s in scenario.blue.seats))
        store[_BLUE_SEATS] = hit
    return hit[1]


@dataclass(frozen=True, slots=True)
class Contact:
    """What one side knows of one enemy unit (R-REC-2, R-REC-5).

    ``cell`` is exact only for SPOTTED; KNOWN and SUSPECTED keep a coarse ``area`` on a
    fixed grid (KNOWN a 3×3 block, SUSPECTED a 5×5 block), so repeated observations never
    narrow the position. ``label`` is an opaque per-side handle (``c1``, ``c2`` …) that
    views show for contacts below SPOTTED instead of the unit's id.
    """

    label: str
    level: ContactLevel
    cell: Cell | None
    area: tuple[int, int, int] | None
    """``(x0, y0, size)`` of the block holding the unit, for KNOWN and SUSPECTED."""
    card: str | None
    """The unit's type (card id), for KNOWN and SPOTTED."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dictionary."""
        return {
            "label": self.label,
            "level": self.level.code,
            "cell": None if self.cell is None else list(self.cell),
            "area": None if self.area is None else list(self.area),
            "card": self.card,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Contact:
        """Inverse of :meth:`to_dict`."""
        area = d.get("area")
        return cls(
            label=str(d["label"]),
            level=ContactLevel[str(d["level"])],
            cell=None if d.get("cell") is None else _cell(d["cell"]),
            area=None if area is None else (int(area[0]), int(area[1]), int(area[2])),
            card=d.get("card"),
        )


KNOWN_BLOCK = 3
"""Default side of the fixed block a KNOWN contact's area is (option ``contact_area_known``)."""
SUSPECTED_BLOCK = 5
"""Default side of a SUSPECTED contact's block (option ``contact_area_suspected``)."""


def contact_area(
    cell: Cell,
    level: ContactLevel,
    known_block: int = KNOWN_BLOCK,
    suspected_block: int = SUSPECTED_BLOCK,
) -> tuple[int, int, int] | None:
    """The fixed-grid block reported for a contact of ``level`` on a unit at ``cell``
    (R-REC-5: KNOWN shows an approximate cell, SUSPECTED only "?" in an area)."""
    if level >= ContactLevel.SPOTTED:
        return None
    size = known_block if level == ContactLevel.KNOWN else suspected_block
    return (cell[0] // size * size, cell[1] // size * size, size)


@dataclass(frozen=True, slots=True)
class _LogNode:
    """A persistent (shared, append-only) event log: O(1) append, states share history."""

    parent: _LogNode | None
    events: tuple[Event, ...]
    size: int
    seen: tuple[int, int, int, int] = (0, 0, 0, 0)
    """Events Blue sees, events Red sees, rolls in Blue's copies, rolls in Red's copies —
    over the whole log (where each side's own numbering stands)."""


def log_counts(log: _LogNode | None) -> dict[str, list[int]]:
    """Per side ``[events seen, rolls seen]`` over ``log`` (fresh lists)."""
    b, r, br, rr = log.seen if log is not None else (0, 0, 0, 0)
    return {"blue": [b, br], "red": [r, rr]}


def log_append(log: _LogNode | None, events: tuple[Event, ...]) -> _LogNode | None:
    """``log`` with ``events`` appended (the old log is unchanged)."""
    if not events:
        return log
    b, r, br, rr = log.seen if log is not None else (0, 0, 0, 0)
    for e in events:
        vb = e.visible.get("blue")
        if vb is not None:
            b += 1
            br += len(vb.get("rolls") or ())
        vr = e.visible.get("red")
        if vr is not None:
            r += 1
            rr += len(vr.get("rolls") or ())
    return _LogNode(log, events, (log.size if log else 0) + len(events), (b, r, br, rr))


def log_events(log: _LogNode | None) -> tuple[Event, ...]:
    """Every event of ``log``, oldest first."""
    chunks: list[tuple[Event, ...]] = []
    node = log
    while node is not None:
        chunks.append(node.events)
        node = node.parent
    out: list[Event] = []
    for chunk in reversed(chunks):
        out.extend(chunk)
    return tuple(out)


@dataclass(frozen=True, slots=True, eq=False)
class GameState:
    """The complete state of one game. Treat it (and every container in it) as immutable.

    Build it with :func:`taistelukentta.rules.engine.new_game`; advance it with
    :func:`taistelukentta.rules.engine.apply`.
    """

    scenario: Scenario
    seed: Seed
    """The dice seed (GM data, never shown to a side): 32 bytes (HMAC-SHA-256 dice) or a
    legacy integer (Mersenne Twister), see :mod:`taistelukentta.dice.roller`."""
    round: int
    """Current round, from 1 (R-TURN-1)."""
    active: Side
    """The side whose turn it is."""
    phase: Phase
    turn_no: int
    """Game-wide number of the current side turn, from 1 (R-TURN-3 timing)."""
    done: frozenset[str]
    """Seats of the active side that have ended the current phase."""
    units: Mapping[str, UnitState]
    """Units on the map by id (destroyed units are removed, R-ATK-10)."""
    contacts: Mapping[Side, Mapping[str, Contact]]
    """Per observing side: its contacts, keyed by the enemy unit's id (GM knowledge)."""
    contact_serial: Mapping[Side, int]
    """Per side: the last contact label number handed out."""
    kp: Mapping[str, int]
    """Command points left per seat this turn (R-KP-1/2); ``gm`` is Red's pool."""
    group_spent: Mapping[str, int]
    """KP Red spent per battle group this turn (R-KP-2 cap)."""
    destroyed: Mapping[Side, tuple[str, ...]]
    """Per side: its units destroyed so far, in order."""
    roller: Mapping[str, Any]
    """The dice state (:meth:`taistelukentta.dice.Roller.getstate`)."""
    event_count: int
    winner: str | None = None
    """``"blue"``, ``"red"`` or ``"draw"`` once the game is over."""
    vp: Mapping[Side, int] | None = None
    """Final victory points (R-TURN-2) once the game is over."""
    ext: Mapping[str, Any] = field(default_factory=lambda: NO_EXT)
    """Rule-module state, one JSON-safe value per module name (docs/extending.md);
    serialised and hashed, never shown to a side except through ``view_extras``."""
    log: _LogNode | None = field(default=None, repr=False)
    ruleset: Ruleset | None = field(default=None, repr=False)
    """The rules the game plays with (None: the default ruleset); never serialised, never
    part of the hash."""

    # -- queries ----------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        """Whether the game is over."""
        return self.phase == Phase.OVER

    @property
    def dice_scheme(self) -> str:
        """The dice scheme of this game (``hmac-sha256`` or the legacy ``mt19937``)."""
        return scheme_of(self.seed)

    @property
    def events(self) -> tuple[Event, ...]:
        """The whole event log, oldest first (GM data; use ``Event.visible`` per side)."""
        return log_events(self.log)

    def unit(self, unit_id: str) -> UnitState:
        """The unit ``unit_id`` (KeyError if it is not on the map)."""
        return self.units[unit_id]

    def units_of(self, side: Side) -> Iterator[UnitState]:
        """The side's units, in id order of the scenario."""
        return (u for u in self.units.values() if u.side == side)

    def seats(self, side: Side) -> tuple[str, ...]:
        """The seats of a side: Blue ``co``, ``pl1`` …; Red ``gm``."""
        if side == "red":
            return (GM_SEAT,)
        return _blue_seat_ids(self.scenario)

    def side_of_seat(self, seat: str) -> Side | None:
        """The side a seat plays, or None for an unknown seat."""
        if seat == GM_SEAT:
            return "red"
        if seat in _blue_seat_ids(self.scenario):
            return "blue"
        return None

    def occupancy(self) -> Mapping[Cell, tuple[str, ...]]:
        """Unit ids per occupied cell (worked out at each call)."""
        built: dict[Cell, tuple[str, ...]] = {}
        for u in self.units.values():
            built[u.cell] = (*built.get(u.cell, ()), u.id)
        return built

    # -- serialisation ------------------------------------------------------------------------

    def to_dict(self, *, include_log: bool = True) -> dict[str, Any]:
        """The dynamic state as JSON-ready data (the scenario is referenced by id only)."""
        out: dict[str, Any] = {
            "format": STATE_FORMAT,
            "scenario": self.scenario.id,
            "seed": self.seed.hex() if isinstance(self.seed, bytes) else self.seed,
            "round": self.round,
            "active": self.active,
            "phase": self.phase.value,
            "turn_no": self.turn_no,
            "done": sorted(self.done),
            "units": [u.to_dict() for u in self.units.values()],
            "contacts": {
                side: {uid: c.to_dict() for uid, c in sorted(self.contacts[side].items())}
                for side in SIDES
            },
            "contact_serial": {side: self.contact_serial[side] for side in SIDES},
            "kp": dict(sorted(self.kp.items())),
            "group_spent": dict(sorted(self.group_spent.items())),
            "destroyed": {side: list(self.destroyed[side]) for side in SIDES},
            "roller": jsonable(self.roller),
            "event_count": self.event_count,
            "winner": self.winner,
            "vp": None if self.vp is None else {s: self.vp[s] for s in SIDES},
        }
        if self.ext:
            out["ext"] = jsonable(self.ext)
        if isinstance(self.seed, bytes):
            # Legacy (Mersenne Twister) states keep their exact layout, hence their hashes.
            out["dice"] = HMAC_SCHEME
        if include_log:
            out["events"] = [e.to_dict() for e in self.events]
        return out

    @classmethod
    def from_dict(
        cls, d: Mapping[str, Any], scenario: Scenario, ruleset: Ruleset | None = None
    ) -> GameState:
        """Rebuild a state from :meth:`to_dict` output, its scenario and the ruleset its
        game plays with (None: the default)."""
        try:
            if d.get("format") != STATE_FORMAT:
                raise ValueError(f"unknown state format {d.get('format')!r}")
            if d["scenario"] != scenario.id:
                raise ValueError(f"state is of scenario {d['scenario']!r}, not {scenario.id!r}")
            units = [UnitState.from_dict(u) for u in d["units"]]
            events = tuple(Event.from_dict(e) for e in d.get("events", []))
            if events and not events[0].numbers:
                # Saved before the per-side numbering: number the side copies now.
                counts: dict[str, list[int]] = {"blue": [0, 0], "red": [0, 0]}
                events = tuple(numbered(e, counts, scenario) for e in events)
            vp = d.get("vp")
            dice = d.get("dice", LEGACY_SCHEME)
            seed: Seed
            if dice == HMAC_SCHEME:
                seed = bytes.fromhex(str(d["seed"]))
            elif dice == LEGACY_SCHEME:
                seed = int(d["seed"])
            else:
                raise ValueError(f"unknown dice scheme {dice!r}")
            return cls(
                scenario=scenario,
                seed=seed,
                round=int(d["round"]),
                active=_side(d["active"]),
                phase=Phase(d["phase"]),
                turn_no=int(d["turn_no"]),
                done=frozenset(str(s) for s in d["done"]),
                units={u.id: u for u in units},
                contacts={
                    side: {str(uid): Contact.from_dict(c) for uid, c in d["contacts"][side].items()}
                    for side in SIDES
                },
                contact_serial={side: int(d["contact_serial"][side]) for side in SIDES},
                kp={str(k): int(v) for k, v in d["kp"].items()},
                group_spent={str(k): int(v) for k, v in d["group_spent"].items()},
                destroyed={side: tuple(str(x) for x in d["destroyed"][side]) for side in SIDES},
                roller=dict(d["roller"]),
                event_count=int(d["event_count"]),
                winner=d.get("winner"),
                vp=None if vp is None else {side: int(vp[side]) for side in SIDES},
                ext=dict(d["ext"]) if d.get("ext") else NO_EXT,
                log=log_append(None, events),
                ruleset=ruleset,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ArgumentError(
                f"game state is broken: {exc}", f"pelitila on virheellinen: {exc}"
            ) from None

    def state_hash(self) -> str:
        """sha256 of the canonical JSON of the full dynamic state (event log excluded;
        ``event_count`` and the dice state pin it)."""
        text = json.dumps(self.to_dict(include_log=False), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


_SCALARS = frozenset({str, int, float, bool, type(None)})


def jsonable(value: Any) -> Any:
    """``value`` as JSON types: every mapping a dict with ``str`` keys, every list or
    tuple a list. The exact built-in types are tested first (a state holds little else):
    an ABC check per value was a third of a state hash's time."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is dict or isinstance(value, Mapping):
        return {k if type(k) is str else str(k): jsonable(v) for k, v in value.items()}
    if kind is list or kind is tuple or isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    return value


def _cell(value: Any) -> Cell:
    x, y = value
    return (int(x), int(y))


def _side(value: Any) -> Side:
    if value == "blue":
        return "blue"
    if value == "red":
        return "red"
    raise ValueError(f"unknown side {value!r}")
