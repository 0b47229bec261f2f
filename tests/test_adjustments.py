"""The adjustment phase: builds, removals and civil disorder."""

from __future__ import annotations

import random

import pytest
from helpers import units

import lawspeaker
from lawspeaker import (
    BuildRule,
    Edition,
    Outcome,
    Phase,
    PhaseKind,
    Position,
    Rules,
    Unit,
    UnitType,
)
from lawspeaker.core.board import Heir
from lawspeaker.core.orders import BuildHeir
from lawspeaker.engine.adjustments import adjustment_counts, adjustments_owed, resolve_adjustments
from lawspeaker.sim.randomplay import random_allocations, random_orders

A, F = UnitType.ARMY, UnitType.FLEET
WINTER = Phase("Winter", 1901, PhaseKind.ADJUSTMENT)
RUSSIA_HOMES = {"mos": "Russia", "war": "Russia", "sev": "Russia", "stp": "Russia"}


def winter(board: list[Unit], owners: dict[str, str]) -> Position:
    return Position.from_units("standard", WINTER, board, owners)


def adjust(variant: lawspeaker.Variant, pos: Position, *orders: str,
           rules: Rules | None = None) -> lawspeaker.engine.adjustments.AdjustmentResult:
    parsed = [lawspeaker.parse_order(variant.map, t, phase=PhaseKind.ADJUSTMENT) for t in orders]
    return lawspeaker.resolve_adjustments(variant, pos, parsed, rules)


def verdicts(out: lawspeaker.engine.adjustments.AdjustmentResult) -> list[tuple[str, Outcome, str]]:
    """Each order's verdict, leaving out the builds not used (tested on their own)."""
    return [(str(r.order), r.outcome, r.reason) for r in out.results
            if not (r.implicit and isinstance(r.order, lawspeaker.Waive))]


def board_after(out: lawspeaker.engine.adjustments.AdjustmentResult) -> set[str]:
    return {f"{u.power}: {u}" for u in out.units.values()}


# Russia owns its four homes and Sweden, with only A Mos on the board: four builds.
RUSSIA = winter(units("Russia: A mos"), {**RUSSIA_HOMES, "swe": "Russia"})


def test_adjustment_counts_are_centres_minus_units(variant: lawspeaker.Variant) -> None:
    """Rulebook: build the surplus of centres over units; remove the shortfall."""
    pos = winter(units("Russia: A mos", "Germany: A ber, A kie, F hol"),
                 {**RUSSIA_HOMES, "ber": "Germany", "kie": "Germany"})
    assert lawspeaker.adjustment_counts(variant, pos) == {"Russia": 3, "Germany": -1}


def test_adjustments_are_owed_when_units_and_centres_differ(
        variant: lawspeaker.Variant) -> None:
    assert adjustments_owed(variant, RUSSIA)  # four builds
    assert adjustments_owed(variant, winter(units("Russia: A mos"), {}))  # one removal
    assert not adjustments_owed(variant, winter(units("Russia: A mos, A war"),
                                                {"mos": "Russia", "war": "Russia"}))


@pytest.mark.parametrize("name", ["standard", "s9-complete", "dissolution"])
def test_adjustments_owed_agrees_with_the_counts_on_random_games(name: str) -> None:
    """``adjustments_owed`` is the quick form of ``any(adjustment_counts(...))`` (issue
    20): the two agree on every position of a seeded random game, with only majors
    (standard), minors, thralls and vassals (S9) and Victory Points (Dissolution)."""
    variant = lawspeaker.load_variant(name)
    rng = random.Random(5)
    position = lawspeaker.initial_position(variant)
    answers = set()
    for _ in range(30):
        owed = adjustments_owed(variant, position)
        assert owed == any(adjustment_counts(variant, position).values()), position.phase
        answers.add(owed)
        orders = random_orders(variant, position, rng)
        allocations = random_allocations(variant, position, orders, rng)
        position = lawspeaker.adjudicate(variant, position, orders, variant.rules,
                                         allocations).position
        if position.result:
            break
    assert answers == {True, False}


def test_build_in_vacant_owned_home_centre(variant: lawspeaker.Variant) -> None:
    """Rulebook: a new unit is placed in a vacant home centre the power still owns."""
    out = adjust(variant, RUSSIA, "Russia: Build A war", "Russia: Build F sev")
    assert verdicts(out) == [("Build A war", Outcome.SUCCEEDS, "Builds army"),
                             ("Build F sev", Outcome.SUCCEEDS, "Builds fleet")]
    assert board_after(out) == {"Russia: A mos", "Russia: A war", "Russia: F sev"}


@pytest.mark.parametrize("order,reason", [
    ("Russia: Build A mos", "Illegal: Moscow is occupied"),
    ("Russia: Build A swe", "Illegal: Sweden is not a home centre of Russia"),
    ("Russia: Build A ber", "Illegal: Russia does not own a supply centre in Berlin"),
    ("Russia: Build A ukr", "Illegal: Russia does not own a supply centre in Ukraine"),
    ("Russia: Build F war", "Illegal: a fleet cannot be built in inland Warsaw"),
    ("Russia: Build F stp", "Illegal: say which coast of St. Petersburg the fleet is built on"),
    ("Russia: Build sev", "Illegal: say whether to build an army or a fleet"),
])
def test_illegal_builds(variant: lawspeaker.Variant, order: str, reason: str) -> None:
    """Occupied, not home, not owned, fleet inland (4.C.4), coast missing (4.B.7),
    unit type missing on a coast (4.C.3): each build is refused with its reason."""
    out = adjust(variant, RUSSIA, order)
    ((_, outcome, why),) = verdicts(out)
    assert (outcome, why) == (Outcome.ILLEGAL, reason)
    assert board_after(out) == {"Russia: A mos"}


def test_lost_home_centre_cannot_be_built_in(variant: lawspeaker.Variant) -> None:
    """Rulebook: a home centre captured by another power is no longer a build site."""
    pos = winter(units("Russia: A mos"), {"mos": "Russia", "war": "Germany", "swe": "Russia",
                                          "sev": "Russia"})
    ((_, outcome, why),) = verdicts(adjust(variant, pos, "Russia: Build A war"))
    assert (outcome, why) == (Outcome.ILLEGAL, "Illegal: Russia does not own a supply centre "
                                               "in Warsaw")


@pytest.mark.parametrize("order,unit", [
    ("Russia: Build war", "A war"),          # inland: an army
    ("Russia: Build stp/nc", "F stp/nc"),    # a coast named: a fleet
    ("Russia: Build F stp/nc", "F stp/nc"),
    ("Russia: Build A stp", "A stp"),
])
def test_build_unit_type_and_coast(variant: lawspeaker.Variant, order: str, unit: str) -> None:
    """DATC 4.C.3: army inland, fleet when a coast is named."""
    out = adjust(variant, RUSSIA, order)
    assert verdicts(out)[0][1] is Outcome.SUCCEEDS
    assert f"Russia: {unit}" in board_after(out)


def test_builds_beyond_the_number_owed_are_void(variant: lawspeaker.Variant) -> None:
    """DATC 4.D.4: build orders are taken in order; the surplus ones are void."""
    pos = winter(units("Russia: A mos, A war, A ukr"), RUSSIA_HOMES)  # one build
    out = adjust(variant, pos, "Russia: Build F sev", "Russia: Build F stp/sc")
    assert verdicts(out)[1] == ("Build F stp/sc", Outcome.FAILS,
                                "Void: all 1 build(s) already used")
    assert "Russia: F stp/sc" not in board_after(out)


def test_second_build_in_the_same_centre_is_void(variant: lawspeaker.Variant) -> None:
    """Only one unit per province: the second build there does nothing."""
    out = adjust(variant, RUSSIA, "Russia: Build A war", "Russia: Build A war")
    assert verdicts(out)[1] == ("Build A war", Outcome.FAILS,
                                "Void: a unit was already built in Warsaw")


def test_waive_uses_up_a_build(variant: lawspeaker.Variant) -> None:
    """DATC 4.D.7: a power may waive builds; a waived build counts as used."""
    pos = winter(units("Russia: A mos, A war, A ukr"), RUSSIA_HOMES)  # one build
    out = adjust(variant, pos, "Russia: Waive", "Russia: Build F sev")
    assert verdicts(out) == [("Waive", Outcome.SUCCEEDS, "Build waived"),
                             ("Build F sev", Outcome.FAILS, "Void: all 1 build(s) already used")]


def test_power_without_builds_cannot_build_or_waive(variant: lawspeaker.Variant) -> None:
    """Builds only for a power with more centres than units."""
    pos = winter(units("Germany: A ber"), {"ber": "Germany"})
    out = adjust(variant, pos, "Germany: Build A kie", "Germany: Waive")
    assert [v[2] for v in verdicts(out)] == ["Illegal: Germany has no builds"] * 2


def test_builds_owned_rule_allows_any_owned_centre(variant: lawspeaker.Variant) -> None:
    """Rules option builds=owned (S9 §8.1): Russia may build in Sweden."""
    out = adjust(variant, RUSSIA, "Russia: Build A swe", rules=Rules(builds=BuildRule.OWNED))
    assert verdicts(out) == [("Build A swe", Outcome.SUCCEEDS, "Builds army")]
    assert "Russia: A swe" in board_after(out)


def test_movement_orders_are_illegal_in_an_adjustment_phase(variant: lawspeaker.Variant) -> None:
    """Only Build, Remove and Waive are given in Winter."""
    order = lawspeaker.Move("Russia", A, "mos", "ukr")
    out = lawspeaker.resolve_adjustments(variant, RUSSIA, [order])
    assert verdicts(out) == [("A mos - ukr", Outcome.ILLEGAL, "Illegal: only Build, Remove and "
                                                              "Waive orders are given in an "
                                                              "adjustment phase")]


# --- removals ---------------------------------------------------------------------

# Germany: three centres, five units, so two removals.
GERMANY = winter(units("Germany: A ber, A kie, F hol, A mun, F nwy"),
                 {"ber": "Germany", "kie": "Germany", "mun": "Germany"})


def test_ordered_removals(variant: lawspeaker.Variant) -> None:
    """Rulebook: the player chooses which units to remove."""
    out = adjust(variant, GERMANY, "Germany: Remove F hol", "Germany: Remove F nwy")
    assert [v[2] for v in verdicts(out)] == ["Removed", "Removed"]
    assert board_after(out) == {"Germany: A ber", "Germany: A kie", "Germany: A mun"}


def test_surplus_and_repeated_removals_are_void(variant: lawspeaker.Variant) -> None:
    """DATC 6.J.1, 6.J.2: removals in order; a repeat or a surplus one does nothing."""
    out = adjust(variant, GERMANY, "Germany: Remove A ber", "Germany: Remove A ber",
                 "Germany: Remove A kie", "Germany: Remove A mun", "Germany: Remove F lon")
    assert verdicts(out) == [
        ("Remove A ber", Outcome.SUCCEEDS, "Removed"),
        ("Remove A ber", Outcome.FAILS, "Void: unit already removed"),
        ("Remove A kie", Outcome.SUCCEEDS, "Removed"),
        ("Remove A mun", Outcome.FAILS, "Void: all 2 removal(s) already made"),
        ("Remove F lon", Outcome.ILLEGAL, "Illegal: Germany has no unit in London"),
    ]
    assert board_after(out) == {"Germany: F hol", "Germany: A mun", "Germany: F nwy"}


def test_missing_removals_are_made_by_civil_disorder(variant: lawspeaker.Variant) -> None:
    """DATC 4.D.8 (2023): the unit farthest from an owned centre goes: F Nwy, 3 from Kiel."""
    out = adjust(variant, GERMANY, "Germany: Remove A ber")
    removed = [r for r in out.results if r.implicit]
    assert [(str(r.order), r.reason) for r in removed] == [("Remove F nwy",
                                                            "Removed by civil disorder")]
    assert board_after(out) == {"Germany: A kie", "Germany: F hol", "Germany: A mun"}


def test_power_without_removals_cannot_remove(variant: lawspeaker.Variant) -> None:
    """A power with as many centres as units keeps them all."""
    out = adjust(variant, RUSSIA, "Russia: Remove A mos")
    assert verdicts(out) == [("Remove A mos", Outcome.ILLEGAL,
                              "Illegal: Russia has no units to remove")]


def test_civil_disorder_2023_counts_distance_to_owned_centres(
        variant: lawspeaker.Variant) -> None:
    """DATC 6.J.11 (2023): Italy owns only Warsaw, so A Tus (far from it) is removed."""
    pos = winter(units("Italy: A war, A tus"), {"war": "Italy"})
    assert board_after(adjust(variant, pos)) == {"Italy: A war"}


def test_civil_disorder_2000_counts_distance_to_home_centres(
        variant: lawspeaker.Variant) -> None:
    """DATC 2.4 4.D.8 (2000 rules): distance to *home* centres, so A War is removed."""
    pos = winter(units("Italy: A war, A tus"), {"war": "Italy"})
    out = adjust(variant, pos, rules=Rules(edition=Edition.R2000))
    assert board_after(out) == {"Italy: A tus"}


def test_civil_disorder_breaks_ties_by_fleets_then_name(variant: lawspeaker.Variant) -> None:
    """DATC 6.J.4, 6.J.7: equally far, fleets go first, then by province name."""
    armies = winter(units("Russia: A lvn, A ukr"), {"mos": "Russia"})
    assert board_after(adjust(variant, armies)) == {"Russia: A ukr"}
    mixed = winter(units("Russia: A boh, F ska, F nth"), {"stp": "Russia", "war": "Russia"})
    assert board_after(adjust(variant, mixed)) == {"Russia: A boh", "Russia: F ska"}


def test_edition_given_as_a_string_selects_that_editions_civil_disorder(
        variant: lawspeaker.Variant) -> None:
    """DATC 6.J.11 under Rules(edition="2023") must match the default (2023): A Tus goes."""
    pos = winter(units("Italy: A war, A tus"), {"war": "Italy"})
    out = adjust(variant, pos, rules=Rules(edition="2023"))  # type: ignore[arg-type]
    assert board_after(out) == {"Italy: A war"}


# --- heirs (S9 §8.3) and vassals (§8.4, §10.5.2) --------------------------------


def _winter(year: int, **changes: object) -> lawspeaker.Position:
    s9 = lawspeaker.load_variant("s9-complete")
    start = lawspeaker.initial_position(s9)
    return start.replace(phase=lawspeaker.Phase("Winter", year, lawspeaker.PhaseKind.ADJUSTMENT),
                         **changes)


def test_an_heir_is_built_at_most_every_other_winter() -> None:
    """§8.3: capital controlled, no heir in it, none built the Winter before."""
    s9 = lawspeaker.load_variant("s9-complete")
    married = [h for h in _winter(1).heirs if h.power != "Aesir"] + [Heir("Aesir", "per", True)]
    first = resolve_adjustments(s9, _winter(1, heirs=married), [BuildHeir("Aesir", None, "")])
    assert [r.outcome for r in first.results] == [Outcome.SUCCEEDS]
    assert Heir("Aesir", "asg", False) in first.heirs and first.heir_built == {"Aesir": 1}
    again = _winter(2, heirs=married, heir_built={"Aesir": 1})
    refused = resolve_adjustments(s9, again, [BuildHeir("Aesir", None, "asg")])
    assert refused.results[0].outcome is Outcome.ILLEGAL
    assert "every other Winter" in refused.results[0].reason
    later = resolve_adjustments(s9, _winter(3, heirs=married, heir_built={"Aesir": 1}),
                                [BuildHeir("Aesir", None, "asg")])
    assert later.results[0].outcome is Outcome.SUCCEEDS
    occupied = resolve_adjustments(s9, _winter(1), [BuildHeir("Aesir", None, "")])
    assert "already contains an heir" in occupied.results[0].reason
    lost = _winter(1, heirs=married, owners={**_winter(1).owners, "asg": "Madr"})
    results = resolve_adjustments(s9, lost, [BuildHeir("Aesir", None, "")]).results
    heir = next(r for r in results if isinstance(r.order, BuildHeir))
    assert heir.outcome is Outcome.ILLEGAL and "does not control its capital" in heir.reason
