"""one live phase per place in a game's history

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25

The service serialises every write to a game, so two phases are never made
at the same place; this index makes the database refuse it too, whatever
the code above it does (a second process of the same phase fails and changes
nothing). Rolled-back phases (``undone_at`` set) stay on record beside the
live one that replaced them.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index('ux_phases_live_seq', 'phases', ['game_id', 'seq'], unique=True,
                    sqlite_where=sa.text('undone_at IS NULL'),
                    postgresql_where=sa.text('undone_at IS NULL'))


def downgrade() -> None:
    op.drop_index('ux_phases_live_seq', table_name='phases')
