"""Answer models of the browser table's endpoints (routes/table.py)."""

from __future__ import annotations

from pydantic import BaseModel


class TextOut(BaseModel):
    """A text in both languages."""

    fi: str
    en: str


class VictoryOut(BaseModel):
    """A scenario's victory points for losses (R-TURN-2)."""

    destroyed_enemy_vp: int
    own_loss_vp: int


class MapOut(BaseModel):
    """A map as the browser draws it."""

    name: str
    width: int
    height: int
    rows: list[str]
    """One string per row (y = 0 first), one legend character per cell."""
    legend: dict[str, list[str]]
    """Legend character -> the terrain features of such a cell."""
    elevation: list[list[int]]
    """Contour count per cell, ``[y][x]``."""
    terrain: dict[str, TextOut]
    """Terrain feature -> its name ``{"fi", "en"}``."""
    victory: VictoryOut | None = None
    """A game's map: its scenario's VP per enemy unit destroyed and per own unit lost
    (public, R-TURN-2; the table's live scoreboard). None for a lobby preview."""


class ScenarioDetailOut(BaseModel):
    """A bundled scenario for the lobby."""

    id: str
    title: TextOut
    briefing: TextOut
    rounds: int
    seats: list[str]
    map: MapOut


class LosOut(BaseModel):
    """Line of sight over the terrain (R-TER-4)."""

    visible: bool
    distance: int
    cover: int
    limited_by: str | None
    rule: str


class CostOut(BaseModel):
    """The seat's KP an order takes."""

    order: str
    kp: int
