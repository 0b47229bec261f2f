"""Saga of the Nine: calendar, census and victory (S9 v1.1.1 §2.0-§2.2, §3.1, §3.3)."""

from __future__ import annotations

import pytest

import lawspeaker
from lawspeaker import Phase, PhaseKind, Position, Unit, UnitType
from lawspeaker.engine.phases import adjudicate, initial_position
from lawspeaker.rules.census import run_census, victory


def census(variant: lawspeaker.Variant, position: Position, rules: lawspeaker.Rules) -> Position:
    return run_census(variant, position, rules).position


@pytest.fixture(scope="module")
def complete() -> lawspeaker.Variant:
    return lawspeaker.load_variant("s9-complete")


def test_years_are_named_by_cycle(basic: lawspeaker.Variant) -> None:
    """§2.0: the First Cycle is 400 BCE, the second 381 BCE; each cycle is 19 years."""
    start = initial_position(basic)
    assert basic.phase_label(start.phase) == "Spring Orders, First Cycle (400 BCE)"
    assert basic.year_label(start.phase.year + 1) == "Second Cycle (381 BCE)"
    assert basic.year_label(start.phase.year + 10) == "Eleventh Cycle (210 BCE)"


def test_a_cycle_runs_orders_retreats_census_and_adjustments(basic: lawspeaker.Variant) -> None:
    """§2.2: Spring orders, Autumn orders, the Autumn Census, then Winter adjustments."""
    game = lawspeaker.Game(basic)
    labels = [basic.phase_label(game.position.phase)]
    game.order("Jotnar", "F Jotunheim - Aekin")
    game.process()
    labels.append(basic.phase_label(game.position.phase))
    game.order("Jotnar", "F Aekin - Glaesisvellir")
    game.process()
    labels.append(basic.phase_label(game.position.phase))
    assert labels == ["Spring Orders, First Cycle (400 BCE)",
                      "Autumn Orders, First Cycle (400 BCE)",
                      "Winter Adjustments, First Cycle (400 BCE)"]
    assert game.position.owners["gla"] == "Jotnar"  # captured at the Autumn Census


def test_spring_moves_capture_nothing(basic: lawspeaker.Variant) -> None:
    """§2.1: centres change hands only at the Autumn Census."""
    game = lawspeaker.Game(basic)
    game.order("Jotnar", "F Jotunheim - Glaesisvellir")
    game.process()
    assert "gla" not in game.position.owners


def _census_with(variant: lawspeaker.Variant, counts: dict[str, int]) -> Position:
    """A census position where each named power owns that many centres."""
    centres = sorted(p for p, v in variant.map.provinces.items() if v.is_sc)
    owners: dict[str, str] = {}
    for power, n in counts.items():
        for _ in range(n):
            owners[centres.pop()] = power
    phase = Phase("Autumn", variant.first_year, PhaseKind.CENSUS)
    return Position.from_units(variant.name, phase, [], owners)


def test_solo_needs_sixteen_centres_and_strictly_the_most(basic: lawspeaker.Variant) -> None:
    """§3.1: 16 SCs at the end of the Autumn Census, and the highest total."""
    won = census(basic, _census_with(basic, {"Aesir": 16, "Zwergar": 15}), basic.rules)
    assert won.result == "Solo: Aesir"
    short = census(basic, _census_with(basic, {"Aesir": 15, "Zwergar": 14}), basic.rules)
    assert short.result is None


def test_two_powers_tied_at_sixteen_play_on(basic: lawspeaker.Variant) -> None:
    """Example 3.0.1: Aesir 16, Zwergar 16, Jotnar 1: no solo, the game continues."""
    tied = census(basic, _census_with(basic, {"Aesir": 16, "Zwergar": 16, "Jotnar": 1}),
                  basic.rules)
    assert tied.result is None


def test_complete_ends_in_a_draw_of_survivors_after_the_eleventh_census(
        complete: lawspeaker.Variant) -> None:
    """§3.3 and Example 3.0.1: at the 11th Census (210 BCE) without a solo, all survivors draw."""
    position = _census_with(complete, {"Aesir": 16, "Zwergar": 16, "Jotnar": 1})
    eleventh = position.replace(phase=Phase("Autumn", complete.first_year + 10,
                                            PhaseKind.CENSUS))
    assert victory(complete, eleventh, complete.rules) == "Draw: Aesir, Jotnar, Zwergar"
    tenth = position.replace(phase=Phase("Autumn", complete.first_year + 9, PhaseKind.CENSUS))
    assert victory(complete, tenth, complete.rules) is None


def test_basic_has_no_cycle_cap(basic: lawspeaker.Variant) -> None:
    """S9 Basic has no final cycle; the cap is an S9 Complete rule (§3.3)."""
    position = _census_with(basic, {"Aesir": 3}).replace(
        phase=Phase("Autumn", basic.first_year + 30, PhaseKind.CENSUS))
    assert census(basic, position, basic.rules).result is None


def test_no_orders_after_the_game_has_ended(basic: lawspeaker.Variant) -> None:
    over = census(basic, _census_with(basic, {"Aesir": 17}), basic.rules)
    with pytest.raises(ValueError, match="the game is over"):
        adjudicate(basic, over, [])


def test_basic_has_no_minors_and_complete_has_fifteen(basic, complete) -> None:  # type: ignore[no-untyped-def]
    """§4.0: S9 Basic has no minor units; §9.0: Complete has one per neutral centre."""
    assert all(initial_position(basic).kind_of(u.power) == "major"
               for u in initial_position(basic).units.values())
    minors = [u for u in initial_position(complete).units.values() if u.stationary]
    assert len(minors) == 15
    assert Unit("Permyak", UnitType.FLEET, "per", True) in minors  # Ex 10.3.2: F Permyak
    assert Unit("Udainsakr", UnitType.ARMY, "uda", True) in minors  # §5.5: no coast
