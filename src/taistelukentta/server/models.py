"""The database tables (SQLAlchemy 2): a game row, its seats, its append-only log and
state snapshots.

The log is the source of truth: every order and every GM undo is one row with a unique
``(game_id, seq)``; the game row's ``version`` is the last ``seq``. The state is recomputed
from the latest snapshot that is still on the log's path plus the orders after it.
Migrations in :mod:`taistelukentta.server.migrations` create exactly these tables.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """Declarative base of the server's tables."""


class GameRow(Base):
    """One game: what it was started from and how far its log goes."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    scenario: Mapped[str] = mapped_column(String(200))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[str] = mapped_column(Text)
    """The dice seed as text (a large integer); secret until the game ends."""
    commitment: Mapped[str] = mapped_column(String(128))
    computer: Mapped[Any] = mapped_column(JSON)
    """The computer's seats: a list (the baseline player), or ``{"seats": [...], "level":
    name}`` for a tactical level (``games.computer_column``)."""
    version: Mapped[int] = mapped_column(Integer, default=0)
    finished: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    blue_overlay: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """A campaign battle: the roster units in the scenario's Blue slots
    (:func:`taistelukentta.rules.campaign_battle.battle_overlay`); None for other games."""


class SeatRow(Base):
    """A seat's access token, stored only as its SHA-256 hash."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "seat", name="uq_seats_game_seat"),)

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[str] = mapped_column(String(32))


class EntryRow(Base):
    """One entry of a game's append-only log: an order (``kind="order"``) or a GM undo."""

    __tablename__ = "entries"
    __table_args__ = (
        UniqueConstraint("game_id", "seat", "idem_key", name="uq_entries_idempotency"),
    )

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[str] = mapped_column(String(32))
    kind: Mapped[str] = mapped_column(String(16))
    notation: Mapped[str | None] = mapped_column(Text, nullable=True)
    idem_key: Mapped[str | None] = mapped_column(String(200), nullable=True)
    events: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    """The engine's events of this entry, complete (GM level); seats get redacted copies."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SnapshotRow(Base):
    """The state after log entry ``seq``; valid while the order at ``orders`` - 1 of the
    log's effective order list is still entry ``last_order_seq``."""

    __tablename__ = "snapshots"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    orders: Mapped[int] = mapped_column(Integer)
    last_order_seq: Mapped[int] = mapped_column(Integer)
    state: Mapped[str] = mapped_column(Text)


class CampaignRow(Base):
    """One campaign (RULES.md §17): its roster state (``Roster.to_dict``), versioned like a
    game (every accepted write is +1)."""

    __tablename__ = "campaigns"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=0)
    co_spends: Mapped[bool] = mapped_column(Boolean, default=False)
    """Option: the CO seat may spend TP too (the GM always may)."""
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The battle under way (None between battles)."""
    battle: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """The battle under way: its scenario, overlay (roster unit per Blue slot), left out."""
    idem: Mapped[dict[str, Any]] = mapped_column(JSON)
    """Idempotency keys of recent writes → the version they produced."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class CampaignSeatRow(Base):
    """A campaign seat's token (``gm``, ``co``, a platoon seat …), stored only hashed."""

    __tablename__ = "campaign_seats"
    __table_args__ = (UniqueConstraint("campaign_id", "seat", name="uq_campaign_seats"),)

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    campaign_id: Mapped[str] = mapped_column(
        ForeignKey("campaigns.id", ondelete="CASCADE"), index=True
    )
    seat: Mapped[str] = mapped_column(String(32))
