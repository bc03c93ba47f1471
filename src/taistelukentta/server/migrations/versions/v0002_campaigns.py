"""Campaigns (issue 12): campaigns, campaign_seats; games.blue_overlay.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the campaign tables; a game may carry a campaign's roster overlay."""
    op.create_table(
        "campaigns",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("co_spends", sa.Boolean(), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("battle", sa.JSON(), nullable=True),
        sa.Column("idem", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "campaign_seats",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "campaign_id",
            sa.String(32),
            sa.ForeignKey("campaigns.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seat", sa.String(32), nullable=False),
        sa.UniqueConstraint("campaign_id", "seat", name="uq_campaign_seats"),
    )
    op.create_index("ix_campaign_seats_campaign_id", "campaign_seats", ["campaign_id"])
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("blue_overlay", sa.JSON(), nullable=True))


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("blue_overlay")
    op.drop_index("ix_campaign_seats_campaign_id", "campaign_seats")
    op.drop_table("campaign_seats")
    op.drop_table("campaigns")
