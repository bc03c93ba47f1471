"""A fog-of-war checker shared by the view tests: what a side may and may not see.

It follows a game from the game master's event log (the engine's contact changes), keeps
for each side the enemy units it has ever had SPOTTED and the cells it has legitimately
learnt (its own units' positions and paths, cells of SPOTTED enemies, recon and bump
cells, objectives), and then searches the serialised view text for every secret: the id
of an enemy unit never SPOTTED, and ``[x, y]`` of the cell of any enemy unit not SPOTTED
now (unless the side knows that cell for another reason).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from taistelukentta.rules import Event, GameState
from taistelukentta.rules.recon import ContactLevel
from taistelukentta.rules.state import Side, other_side

MINE_EVENTS = frozenset(
    {
        "minefields_placed",
        "mines_laid",
        "mine_clear",
        "mine_search",
        "mine_breach",
        "mine_found",
        "mine_rush",
        "mine_triggered",
    }
)
"""Events of the mines module (R-MINE-*) whose side copy names mined cells that side
knows: its own fields, the mines it lays, the cells it clears, searches or breaches."""


def _cells(value: object) -> Iterable[tuple[int, int]]:
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value):
        yield (value[0], value[1])
    elif isinstance(value, list):
        for v in value:
            yield from _cells(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _cells(v)


@dataclass
class FogTracker:
    side: Side
    ever_spotted: set[str] = field(default_factory=set)
    known_cells: set[tuple[int, int]] = field(default_factory=set)
    mine_cells: set[tuple[int, int]] = field(default_factory=set)
    """Cells the side's own mine events named (its fields, laid, found, searched …)."""

    def start(self, state: GameState) -> None:
        for obj in state.scenario.objectives:
            self.known_cells.update((int(c[0]), int(c[1])) for c in obj.cells)
        for u in state.units.values():
            if u.side == self.side:
                self.known_cells.add(u.cell)
        self.feed(state.events)

    def feed(self, events: Iterable[Event]) -> None:
        for ev in events:
            d = ev.data
            if ev.kind == "contact" and d.get("side") == self.side:
                if d.get("level") == ContactLevel.SPOTTED.code:
                    self.ever_spotted.add(str(d["unit"]))
                    if d.get("cell"):
                        self.known_cells.add((int(d["cell"][0]), int(d["cell"][1])))
            elif ev.kind in MINE_EVENTS:
                # mined cells the side laid, owns or found: map facts, not enemy positions
                mine = ev.for_side(self.side)
                if mine is not None:
                    self.known_cells.update(_cells(mine))
                    self.mine_cells.update(_cells(mine))
            elif ev.kind in ("move", "bump", "recon", "destroyed", "strike_ordered"):
                # (strike_ordered: a cell the side aimed at itself, e.g. in a KNOWN area)
                mine = ev.for_side(self.side)
                if mine is None:
                    continue
                for key in ("from", "to", "path", "cell"):
                    if key in mine:
                        self.known_cells.update(_cells(mine[key]))

    def secrets(self, state: GameState) -> tuple[list[str], list[tuple[int, int]]]:
        """(ids that must not appear, cells that must not appear) for the side now."""
        enemy = other_side(self.side)
        contacts = state.contacts[self.side]
        all_enemy = [uid for s, _, p in state.scenario.placements() if s == enemy for uid in [p.id]]
        ids = [uid for uid in all_enemy if uid not in self.ever_spotted]
        cells = []
        for u in state.units.values():
            if u.side != enemy:
                continue
            c = contacts.get(u.id)
            if c is not None and c.level == ContactLevel.SPOTTED:
                continue
            if u.cell not in self.known_cells:
                cells.append(u.cell)
        return ids, cells


def leaks(text: str, ids: list[str], cells: list[tuple[int, int]]) -> list[str]:
    """Every secret found in ``text``."""
    found = []
    for uid in ids:
        if re.search(rf"(?<![A-Za-z0-9_\-]){re.escape(uid)}(?![A-Za-z0-9_\-])", text):
            found.append(f"id {uid}")
    for x, y in cells:
        if f"[{x}, {y}]" in text:
            found.append(f"cell [{x}, {y}]")
    return found


def _without_dice(value: object) -> object:
    if isinstance(value, dict):
        return {k: _without_dice(v) for k, v in value.items() if k not in ("dice", "kept")}
    if isinstance(value, list):
        return [_without_dice(v) for v in value]
    return value


def view_text(view: dict[str, object]) -> str:
    """The view as JSON text for searching. Dice faces (``"dice": [12, 18]``) are left out:
    they are not positions but would look like ``[x, y]``."""
    return json.dumps(_without_dice(view), ensure_ascii=False)


STRIKE_SECRETS = frozenset({"delay", "delay_die", "due", "requested"})
"""Keys of a pending strike only the game master may see (R-OFF-2, R-DICE-6)."""


def _secret_rolls(value: object) -> Iterable[object]:
    if isinstance(value, dict):
        if value.get("secret"):
            yield value
        for v in value.values():
            yield from _secret_rolls(v)
    elif isinstance(value, list):
        for v in value:
            yield from _secret_rolls(v)


def module_leaks(state: GameState, tracker: FogTracker, view: dict[str, Any]) -> list[str]:
    """What a side's view shows of the rule modules' secrets that it must not (issue 4):
    an enemy pending strike, the delay or due turn of an own strike, a mined cell the side
    never learnt, the GM's minefield list, a secret roll anywhere in the view."""
    from taistelukentta.rules import fire_support, mines

    side = tracker.side
    found: list[str] = []
    pending = view.get("fire_support", {}).get("pending", [])
    own_ids = {p["id"] for p in fire_support.pending_strikes(state) if p["side"] == side}
    for p in pending:
        if p.get("id") not in own_ids:
            found.append(f"enemy pending strike {p}")
        secret = STRIKE_SECRETS & set(p)
        if secret:
            found.append(f"strike {p.get('id')} shows {sorted(secret)}")
    truth = mines.mined_cells(state)
    mv = view.get("mines", {})
    if "fields" in mv:
        found.append("the GM's minefield list")
    for k in mv.get("known", []):
        cell = (int(k["cell"][0]), int(k["cell"][1]))
        if cell not in tracker.mine_cells:
            found.append(f"mine cell {cell} never learnt")
    text = json.dumps(mv)
    for cell in truth:
        if cell not in tracker.mine_cells and f"[{cell[0]}, {cell[1]}]" in text:
            found.append(f"unknown mined cell {cell}")
    for roll in _secret_rolls(view):
        found.append(f"secret roll {roll}")
    return found
