"""the game server: deadlines, pause, draw rule, secret links, ballots, settings

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games') as batch:
        batch.add_column(sa.Column('timezone', sa.String(length=64), nullable=False,
                                   server_default='UTC'))
        batch.add_column(sa.Column('phase_minutes', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('grace_minutes', sa.Integer(), nullable=False,
                                   server_default='0'))
        batch.add_column(sa.Column('deadline_at', sa.DateTime(), nullable=True))
        batch.add_column(sa.Column('paused_at', sa.DateTime(), nullable=True))
        batch.add_column(sa.Column('draw_rule', sa.String(length=20), nullable=False,
                                   server_default='unanimous'))
    op.create_table('links',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.Column('role', sa.String(length=100), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('revoked_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('token_hash')
    )
    op.create_table('ballots',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('phase_id', sa.Integer(), nullable=False),
    sa.Column('power', sa.String(length=100), nullable=False),
    sa.Column('kind', sa.String(length=20), nullable=False),
    sa.Column('value', sa.Boolean(), nullable=False),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['phase_id'], ['phases.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('phase_id', 'power', 'kind')
    )
    op.create_table('settings',
    sa.Column('key', sa.String(length=50), nullable=False),
    sa.Column('value', sa.Text(), nullable=False),
    sa.PrimaryKeyConstraint('key')
    )


def downgrade() -> None:
    op.drop_table('settings')
    op.drop_table('ballots')
    op.drop_table('links')
    with op.batch_alter_table('games') as batch:
        for column in ('draw_rule', 'paused_at', 'deadline_at', 'grace_minutes',
                       'phase_minutes', 'timezone'):
            batch.drop_column(column)
