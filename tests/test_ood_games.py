"""Whole Order of the Dragon games through the Python API (issue: OOD playable end to
end): random legal orders, DP allocations and marriage attempts for up to ten cycles,
with the same invariants as Saga of the Nine after every phase, ending as OOD §3 says."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import pytest
from test_s9_games import check_invariants, tally

import lawspeaker
from lawspeaker import Game, PhaseKind, Position
from lawspeaker.core.orders import BuildHeir
from lawspeaker.rules.census import centre_counts, survivors
from lawspeaker.sim.randomplay import random_allocations, random_orders

OOD_SEEDS = range(12)


@cache
def ood() -> lawspeaker.Variant:
    return lawspeaker.load_variant("ood")


@cache
def ood_game(seed: int) -> tuple[Position, tuple[tuple[str, int], ...]]:
    variant = ood()
    game = Game(variant)
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    while game.position.result is None:
        assert game.position.phase.year <= variant.first_year + 9  # OOD §3.2: ten cycles
        phase = game.position.phase
        orders = random_orders(variant, game.position, rng)
        for order in orders:
            if phase.kind is PhaseKind.MOVEMENT or isinstance(order, BuildHeir):
                assert game.problem(order) is None, (order, game.problem(order))
        game.set_orders(orders)
        for allocation in random_allocations(variant, game.position, game.orders(), rng):
            game.allocate(allocation.power, allocation)
        before = game.position
        result = game.process()
        check_invariants(variant, before, game.position, result)
        tally(result, seen)
    return game.position, tuple(sorted(seen.items()))


def test_an_ood_game_starts_with_eight_thralls_and_two_unmarried_heirs() -> None:
    """OOD §6 (v1.2.0): eight majors start with a married heir in a thrall, Kalmar
    Union and the Ottomans with an unmarried heir in their capitals; 2 DP each (§9.2)."""
    start = lawspeaker.initial_position(ood())
    thralls = {n: s.controllers for n, s in start.powers_in_play.items() if s.kind == "thrall"}
    assert len(thralls) == 8
    assert sorted(h.power for h in start.heirs if not h.married) == ["Kalmar Union", "Ottomans"]
    assert all(lawspeaker.rules.dp.allotment(ood(), start, p) == 2 for p in ood().powers)


@pytest.mark.parametrize("seed", OOD_SEEDS)
def test_a_random_ood_game_ends_as_the_rules_say(seed: int) -> None:
    """OOD §3.0: 18 centres and strictly the most; §3.4: the last survivor wins, none
    left means all lose; §3.2: otherwise a draw of the survivors after the 1450 Census."""
    variant = ood()
    final, _ = ood_game(seed)
    result = final.result or ""
    alive = survivors(variant, final)
    counts = centre_counts(variant, final)
    if result.startswith("Solo: ") and "last surviving" not in result:
        winner = result.removeprefix("Solo: ")
        assert counts[winner] >= 18 and all(n < counts[winner] for p, n in counts.items()
                                            if p != winner)
    elif "last surviving" in result:
        assert len(alive) == 1
    elif result.startswith("Lost"):
        assert not alive
    else:
        assert result == "Draw: " + ", ".join(alive)
        assert variant.year_label(final.phase.year) == "1450"


def test_random_ood_games_marry_and_build_heirs() -> None:
    seen: Counter[str] = Counter()
    for seed in OOD_SEEDS:
        seen.update(dict(ood_game(seed)[1]))
    for what in ("thrall marriage", "heir built", "vassal marriage agreed"):
        assert seen[what] >= 1, (what, seen)
