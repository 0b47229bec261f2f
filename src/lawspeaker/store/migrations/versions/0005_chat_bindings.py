"""chat front ends: channels and users bound to games and seats

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('chat_channels',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('platform', sa.String(length=20), nullable=False),
    sa.Column('channel_id', sa.String(length=40), nullable=False),
    sa.Column('guild_id', sa.String(length=40), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('power', sa.String(length=100), nullable=True),
    sa.Column('announced_phase_id', sa.Integer(), nullable=True),
    sa.Column('reminded_phase_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id']),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('platform', 'channel_id')
    )
    op.create_table('chat_members',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('platform', sa.String(length=20), nullable=False),
    sa.Column('user_id', sa.String(length=40), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('role', sa.String(length=100), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id']),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('platform', 'game_id', 'user_id')
    )


def downgrade() -> None:
    op.drop_table('chat_members')
    op.drop_table('chat_channels')
