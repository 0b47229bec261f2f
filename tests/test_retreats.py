"""The retreat phase: where a dislodged unit may go, and what happens to it."""

from __future__ import annotations

import pytest
from helpers import units

import lawspeaker
from lawspeaker import Dislodged, Outcome, Phase, PhaseKind, Position, Unit, UnitType

A, F = UnitType.ARMY, UnitType.FLEET
RETREAT = Phase("Spring", 1901, PhaseKind.RETREAT)


def dislodged(text: str, attacker_from: str | None) -> Dislodged:
    """``dislodged("Russia: A pru", "ber")``: dislodged by a unit from Berlin."""
    (unit,) = units(text)
    return Dislodged(unit, attacker_from)


def position(board: list[Unit], *retreating: Dislodged, standoffs: tuple[str, ...] = ()
             ) -> Position:
    return Position.from_units("standard", RETREAT, board, dislodged=retreating,
                               standoffs=standoffs)


def retreat(variant: lawspeaker.Variant, pos: Position, *orders: str
            ) -> lawspeaker.engine.retreats.RetreatResult:
    parsed = [lawspeaker.parse_order(variant.map, t, phase=PhaseKind.RETREAT) for t in orders]
    return lawspeaker.resolve_retreats(variant, pos, parsed)


def reasons(outcome: lawspeaker.engine.retreats.RetreatResult) -> dict[str, tuple[Outcome, str]]:
    return {str(r.order): (r.outcome, r.reason) for r in outcome.results}


PRU = dislodged("Russia: A pru", "ber")


def test_retreat_options_exclude_the_attackers_origin(variant: lawspeaker.Variant) -> None:
    """Rulebook: a unit may not retreat to the province the attacker came from."""
    pos = position(units("Germany: A pru"), PRU)
    assert lawspeaker.retreat_options(variant, pos, PRU) == ["lvn", "sil", "war"]


def test_unit_dislodged_by_convoy_may_retreat_to_the_attackers_origin(
        variant: lawspeaker.Variant) -> None:
    """DATC 4.A.5 (2023): the attacker came by sea, so its origin is open."""
    by_sea = dislodged("Russia: A pru", None)
    pos = position(units("Germany: A pru"), by_sea)
    assert lawspeaker.retreat_options(variant, pos, by_sea) == ["ber", "lvn", "sil", "war"]


def test_retreat_options_exclude_occupied_and_standoff_provinces(
        variant: lawspeaker.Variant) -> None:
    """Rulebook: not into an occupied province, nor one left vacant by a standoff."""
    pos = position(units("Germany: A pru, A sil"), PRU, standoffs=("lvn",))
    assert lawspeaker.retreat_options(variant, pos, PRU) == ["war"]


def test_fleet_retreat_options_name_each_reachable_coast(variant: lawspeaker.Variant) -> None:
    """A fleet in the Mid-Atlantic may retreat to either coast of Spain."""
    mid = dislodged("France: F mid", "bre")
    pos = position(units("England: F mid"), mid)
    options = lawspeaker.retreat_options(variant, pos, mid)
    assert {"spa/nc", "spa/sc"} <= set(options)
    assert "bre" not in options and "spa" not in options


def test_retreat_to_an_open_province_succeeds(variant: lawspeaker.Variant) -> None:
    """The unit ends in the province it retreated to."""
    out = retreat(variant, position(units("Germany: A pru"), PRU), "Russia: A pru - war")
    assert reasons(out) == {"A pru R war": (Outcome.SUCCEEDS, "Retreats to Warsaw")}
    assert out.units["war"] == Unit("Russia", A, "war")


@pytest.mark.parametrize("order,reason", [
    ("Russia: A pru - ber", "Illegal: the attacker came from Berlin"),
    ("Russia: A pru - sil", "Illegal: Silesia is occupied"),
    ("Russia: A pru - lvn", "Illegal: Livonia was left vacant by a standoff"),
    ("Russia: A pru - mos", "Illegal: Moscow is not adjacent"),
])
def test_illegal_retreats_disband_the_unit(
        variant: lawspeaker.Variant, order: str, reason: str) -> None:
    """An illegal retreat is reported and the unit is disbanded."""
    pos = position(units("Germany: A pru, A sil"), PRU, standoffs=("lvn",))
    out = retreat(variant, pos, order)
    found = reasons(out)
    assert found[str(lawspeaker.parse_order(variant.map, order, phase=PhaseKind.RETREAT))] == (
        Outcome.ILLEGAL, reason)
    assert found["A pru D"] == (Outcome.SUCCEEDS, "Disbanded: no retreat ordered")
    assert "war" not in out.units


def test_fleet_must_name_the_coast_when_both_are_open(variant: lawspeaker.Variant) -> None:
    """DATC 4.B.1 applies to retreats: F Mid R Spa is unclear, F Mid R Spa/sc is not."""
    mid = dislodged("France: F mid", "bre")
    pos = position(units("England: F mid"), mid)
    unclear = retreat(variant, pos, "France: F mid - spa")
    assert reasons(unclear)["F mid R spa"] == (
        Outcome.ILLEGAL, "Illegal: say which coast of Spain the fleet retreats to")
    clear = retreat(variant, pos, "France: F mid - spa/sc")
    assert clear.units["spa"] == Unit("France", F, "spa/sc")


def test_two_retreats_to_one_province_both_disband(variant: lawspeaker.Variant) -> None:
    """DATC 6.H.7: units retreating to the same province are all disbanded."""
    gal = dislodged("Austria: A gal", "bud")
    pos = position(units("Germany: A pru, A gal"), PRU, gal)
    out = retreat(variant, pos, "Russia: A pru - war", "Austria: A gal - war")
    assert reasons(out) == {
        "A pru R war": (Outcome.FAILS, "Disbanded: bounced with A gal"),
        "A gal R war": (Outcome.FAILS, "Disbanded: bounced with A pru"),
    }
    assert "war" not in out.units
    assert {str(u) for u in out.units.values()} == {"A pru", "A gal"}


def test_unit_without_a_retreat_order_is_disbanded(variant: lawspeaker.Variant) -> None:
    """Rulebook: a dislodged unit not ordered to retreat is disbanded."""
    out = retreat(variant, position(units("Germany: A pru"), PRU))
    (only,) = out.results
    assert (str(only.order), only.reason, only.implicit) == (
        "A pru D", "Disbanded: no retreat ordered", True)
    assert out.units == {"pru": Unit("Germany", A, "pru")}


def test_ordered_disband(variant: lawspeaker.Variant) -> None:
    """A player may disband instead of retreating."""
    out = retreat(variant, position(units("Germany: A pru"), PRU), "Russia: A pru D")
    assert reasons(out) == {"A pru D": (Outcome.SUCCEEDS, "Disbanded")}


@pytest.mark.parametrize("order,reason", [
    ("Germany: A pru - war", "Illegal: the unit belongs to Russia"),
    ("Germany: A sil - war", "Illegal: only dislodged units move in a retreat phase"),
])
def test_only_the_owner_of_a_dislodged_unit_may_retreat_it(
        variant: lawspeaker.Variant, order: str, reason: str) -> None:
    """Retreat orders for other powers' units, or units not dislodged, are illegal."""
    out = retreat(variant, position(units("Germany: A pru, A sil"), PRU), order)
    assert reason in {r.reason for r in out.results}
    assert "war" not in out.units


def test_movement_orders_are_illegal_in_a_retreat_phase(variant: lawspeaker.Variant) -> None:
    """DATC 6.H.1-6.H.4: no supports or convoys in a retreat phase."""
    pos = position(units("Germany: A pru"), PRU)
    order = lawspeaker.SupportHold("Russia", A, "pru", A, "war")
    out = lawspeaker.resolve_retreats(variant, pos, [order])
    assert reasons(out)[str(order)] == (
        Outcome.ILLEGAL, "Illegal: a dislodged unit may only retreat or disband")


def test_second_retreat_order_for_one_unit_is_ignored(variant: lawspeaker.Variant) -> None:
    """The first retreat order counts; a later different one is reported illegal."""
    out = retreat(variant, position(units("Germany: A pru"), PRU), "Russia: A pru - war",
                  "Russia: A pru - lvn")
    assert reasons(out)["A pru R lvn"] == (
        Outcome.ILLEGAL, "Illegal: the unit already has a retreat order")
    assert out.units["war"] == Unit("Russia", A, "war")
