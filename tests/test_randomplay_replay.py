"""Seeded random games replay exactly (issue 20): speeding up random play must not
change which orders a seed gives.

Seeded random games are in tests, render snapshots, the docs' pictures and the
lab's figures, so each seed must keep giving the same orders, the same DP and so
the same games. Each game below is summed up as a digest of every phase's orders
and allocations (in the players' notation) and of the final board, recorded
before random play was made faster; a change in any choice of any phase changes
the digest.
"""

from __future__ import annotations

import hashlib
import random

import pytest

import lawspeaker
from lawspeaker.core.orders import Move
from lawspeaker.engine.phases import adjudicate
from lawspeaker.sim.options import Board, checked_options
from lawspeaker.sim.randomplay import play, random_allocations, random_orders, unit_options

RECORDED: dict[str, tuple[list[str], str]] = {
    # variant: (digests of seeds 1, 2, 3 played phase by phase, of play(seed 100) with drops)
    "dissolution": (["a8a2e560e7826805", "fff9020c9e3a0d56", "c31608082212b613"],
                   "ba06c6aacc574cd2"),
    "ood": (["c2c50067147231a0", "27f275ed588af052", "b1faa9ffb0235ce8"],
           "52cc0dc8aac9eab4"),
    "s9-basic": (["81ed2c256bcc8a92", "5efdc1986c2d1b1a", "32b9b1f87454e8c8"],
                "696b6b95e1a22219"),
    "s9-complete": (["a70911ca16d11106", "7889a303e3241067", "3eea7819186cafd3"],
                   "05f77fc52bbeab7e"),
    "standard": (["446302e9d3787d9b", "fb0fc28f74ee1f6a", "80cae4ea44813e15"],
                "ee1baf1d11937b1a"),
}


def _digest(name: str, seed: int) -> str:
    """Every phase's orders and DP of one seeded game, and its final board."""
    variant = lawspeaker.load_variant(name)
    years = variant.rules.max_years or 10
    rng = random.Random(seed)
    position = lawspeaker.initial_position(variant)
    digest = hashlib.sha256()
    while position.result is None and position.phase.year < variant.first_year + years:
        orders = random_orders(variant, position, rng)
        allocations = random_allocations(variant, position, orders, rng)
        digest.update(f"{position.phase}\n".encode())
        digest.update("".join(f"{o.power}: {o}\n" for o in orders).encode())
        digest.update("".join(f"{a.power} {a.points} DP: {a.order}\n"
                              for a in allocations).encode())
        position = adjudicate(variant, position, orders, variant.rules, allocations).position
    digest.update(_board(position).encode())
    return digest.hexdigest()[:16]


def _board(position: lawspeaker.Position) -> str:
    units = "".join(f"{u.power} {u}\n" for _, u in sorted(position.units.items()))
    owners = "".join(f"{p} {o}\n" for p, o in sorted(position.owners.items()))
    return f"{position.phase}\n{units}{owners}{position.result}\n"


def _played(name: str, seed: int) -> str:
    """A game played by :func:`play` with players dropped (S9 §3.4.2)."""
    variant = lawspeaker.load_variant(name)
    position = play(variant, random.Random(seed), variant.rules.max_years or 10,
                    drop_chance=0.3)
    return hashlib.sha256(_board(position).encode()).hexdigest()[:16]


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_a_seed_replays_the_same_random_game(name: str) -> None:
    by_phase, played = RECORDED[name]
    assert [_digest(name, seed) for seed in (1, 2, 3)] == by_phase, name
    assert _played(name, 100) == played, name


@pytest.mark.parametrize("name", ["dissolution", "ood", "s9-complete", "standard"])
def test_options_known_by_construction_are_those_the_board_allows(name: str) -> None:
    """A unit's options come from tables kept per map; they must be exactly the
    candidates that pass ``movement_problem`` against the whole board, in the
    same order (Dissolution's wings included, §3.3)."""
    variant = lawspeaker.load_variant(name)
    compared = 0
    for seed in (7, 8):
        rng = random.Random(seed)
        position = lawspeaker.initial_position(variant)
        for _ in range(24):
            if position.result is not None:
                break
            if position.phase.kind is lawspeaker.PhaseKind.MOVEMENT:
                board = Board(variant, position)
                for unit in position.units.values():
                    checked = checked_options(board, unit)
                    assert unit_options(variant, position, unit) == checked, unit
                    assert board.moves(unit) == [o for o in checked if isinstance(o, Move)]
                    compared += 1
            orders = random_orders(variant, position, rng)
            allocations = random_allocations(variant, position, orders, rng)
            position = adjudicate(variant, position, orders, variant.rules, allocations).position
    assert compared > 300
