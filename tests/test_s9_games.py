"""Whole Saga of the Nine games with random legal orders and DP (issue: S9 Basic
and Complete for 11 cycles with a consistent state after every phase)."""

from __future__ import annotations

import random

import pytest

import lawspeaker
from lawspeaker import PhaseKind, Position
from lawspeaker.adjustments import adjustment_counts
from lawspeaker.phases import Adjudication, centre_counts
from lawspeaker.randomplay import play


def consistent(variant: lawspeaker.Variant, before: list[Position]):  # type: ignore[no-untyped-def]
    """Invariants that must hold after every phase."""

    def check(position: Position, result: Adjudication) -> None:
        game_map = variant.map
        # Every unit stands where its type may stand, one per province.
        for prov, unit in position.units.items():
            assert unit.province == prov
            assert game_map.is_valid_location(unit.type, unit.location), unit
            # Minor units, and only they, are stationary (S9 §7.2).
            assert unit.stationary == (position.kind_of(unit.power) == "minor"), unit
        # Owners are only of supply centres; each centre has at most one owner.
        assert all(game_map.provinces[p].is_sc for p in position.owners)
        # After a census or adjustment every occupied centre belongs to its occupant.
        if position.phase.kind is PhaseKind.ADJUSTMENT or result.phase.kind is \
                PhaseKind.ADJUSTMENT:
            for prov, unit in position.units.items():
                if game_map.provinces[prov].is_sc and result.phase.kind is not \
                        PhaseKind.ADJUSTMENT:
                    assert position.owners.get(prov) == unit.power
        # After adjustments no major power has more units than centres.
        if result.phase.kind is PhaseKind.ADJUSTMENT:
            assert all(owed >= 0 for owed in adjustment_counts(position).values()), \
                adjustment_counts(position)
        # Retreat phases have dislodged units; movement phases have none pending.
        if position.phase.kind is PhaseKind.RETREAT:
            assert position.dislodged
        else:
            assert not position.dislodged
        # Neutral units took the order DP chose, and nobody learns who voted.
        if result.dp is not None:
            public = result.dp.public()
            assert set(public) == {p for p, u in before[-1].units.items()
                                   if before[-1].kind_of(u.power) == "minor"}
        # Serialisation round-trips at every step.
        assert Position.from_json(position.to_json()) == position
        before.append(position)

    return check


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_s9_basic_random_game_runs_eleven_cycles(seed: int) -> None:
    variant = lawspeaker.load_variant("s9-basic")
    history = [lawspeaker.initial_position(variant)]
    final = play(variant, random.Random(seed), 11, check=consistent(variant, history))
    movements = [p for p in history if p.phase.kind is PhaseKind.MOVEMENT]
    if final.result is None:
        assert len(movements) == 2 * 11 + 1  # Spring and Autumn orders of every cycle, and the next
        assert final.phase.year == variant.first_year + 11  # no cycle cap in Basic
    else:
        counts = centre_counts(final, variant)
        winner = final.result.removeprefix("Solo: ")
        assert counts[winner] >= 16 and all(n < counts[winner] for p, n in counts.items()
                                            if p != winner)  # S9 §3.1


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_s9_complete_random_game_with_minors_and_dp_runs_eleven_cycles(seed: int) -> None:
    variant = lawspeaker.load_variant("s9-complete")
    history = [lawspeaker.initial_position(variant)]
    final = play(variant, random.Random(seed), 12, check=consistent(variant, history))
    assert final.result is not None  # solo, or the draw after the 11th Census (S9 §3.3)
    if final.result.startswith("Draw"):
        assert final.phase.year == variant.first_year + 10
        assert variant.year_label(final.phase.year) == "Eleventh Cycle (210 BCE)"
