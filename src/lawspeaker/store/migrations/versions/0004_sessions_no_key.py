"""sessions on the server; the cookie key leaves the database

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('sessions',
    sa.Column('id_hash', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('ended_at', sa.DateTime(), nullable=True),
    sa.PrimaryKeyConstraint('id_hash')
    )
    # The cookie-signing key was kept here: a copy of the database could forge a
    # GM's session. It now lives outside the database; every old cookie ends.
    op.execute("DELETE FROM settings WHERE key = 'session_key'")


def downgrade() -> None:
    op.drop_table('sessions')
