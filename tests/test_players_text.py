"""What players read (issue 13 §4-§5): names instead of internal keys, the
variant's own rulebook cited, nothing left unsaid."""

from __future__ import annotations

import pytest

import lawspeaker
from lawspeaker import Game, Outcome, PhaseKind, Unit, UnitType
from lawspeaker.core.board import Phase
from lawspeaker.engine.phases import adjudicate


def results(step: lawspeaker.Adjudication) -> dict[str, tuple[Outcome, str]]:
    return {str(r.order): (r.outcome, r.reason) for r in step.results}


def test_an_order_naming_the_wrong_unit_type_is_reported(standard: lawspeaker.Variant) -> None:
    """DATC 4.C.2: the order stands, but the player is told London holds a fleet."""
    game = Game(standard)
    game.order("England", "A London - North Sea")
    assert results(game.process())["A lon - nth"] == (
        Outcome.SUCCEEDS, "Move succeeds (the unit in London is a fleet, not an army)")


def test_orders_for_another_phase_are_illegal_and_not_carried_out(
        standard: lawspeaker.Variant) -> None:
    position = lawspeaker.initial_position(standard)
    build = lawspeaker.parse_order(standard.map, "Build A Par", "France",
                                   PhaseKind.ADJUSTMENT)
    step = adjudicate(standard, position, [build])
    assert results(step)["Build A par"] == (
        Outcome.ILLEGAL, "Illegal: a build is not an order for an orders (movement) phase, "
        "which takes moves, holds, supports, convoys and heirs' orders")
    assert step.position.units == position.units


def test_unused_builds_are_listed_as_waived(standard: lawspeaker.Variant) -> None:
    """Russia owes four builds and orders one: three are listed as not used."""
    homes = {"mos": "Russia", "war": "Russia", "sev": "Russia", "stp": "Russia",
             "swe": "Russia"}
    position = lawspeaker.Position.from_units(
        "standard", Phase("Winter", 1901, PhaseKind.ADJUSTMENT),
        [Unit("Russia", UnitType.ARMY, "mos")], homes)
    build = lawspeaker.parse_order(standard.map, "Russia: Build A War",
                                   phase=PhaseKind.ADJUSTMENT)
    step = adjudicate(standard, position, [build])
    unused = [r for r in step.results if isinstance(r.order, lawspeaker.Waive)]
    assert [(r.order.power, r.reason, r.implicit) for r in unused] == [
        ("Russia", "Build not used: waived", True)] * 3


def test_an_ood_game_cites_the_ood_rulebook() -> None:
    """OOD numbers early elimination §3.3 where S9 has §3.4; a thrall whose centre
    is captured is eliminated and announced (OOD §10.3)."""
    ood = lawspeaker.load_variant("ood")
    start = lawspeaker.initial_position(ood)
    units = dict(start.units)
    units["bor"] = Unit("Castile", UnitType.ARMY, "bor")  # took Bordeaux, England's thrall
    position = start.replace(units=units, phase=Phase("Autumn", 1, PhaseKind.MOVEMENT))
    step = adjudicate(ood, position, [])
    assert "Bordeaux, thrall of England, is eliminated: Castile captured Bordeaux " \
        "(OOD §10.3)" in step.events
    assert "The heir of England in Bordeaux is executed (OOD §10.1)" in step.events
    assert "Bordeaux" not in step.position.powers_in_play
    assert not any("S9" in e for e in step.events)


def test_citations_follow_the_variants_section_map() -> None:
    ood = lawspeaker.load_variant("ood")
    s9 = lawspeaker.load_variant("s9-complete")
    text = "eliminated (S9 §1.3, §3.4); dropped (S9 §3.4.2); rebuilt (S9 §8.4); DP (S9 §9.1 C)"
    assert ood.cite(text) == ("eliminated (OOD §1.3, §3.3); dropped (OOD §3.3.2); "
                              "rebuilt (OOD §8.2); DP (OOD §9.1 C)")
    assert s9.cite(text) == text


def _vassal_winter(s9: lawspeaker.Variant) -> Game:
    """Ex 10.4.0: vDA is created in Permyak (giver Dokkalfar, receiver Aesir) and
    may build there in its first Winter."""
    start = lawspeaker.initial_position(s9)
    units = {p: u for p, u in start.units.items() if p != "per"}
    units["per"] = Unit("Dokkalfar", UnitType.FLEET, "per")
    powers = {n: s for n, s in start.powers_in_play.items() if n != "Permyak"}
    game = Game(s9, position=start.replace(
        units=units, owners={**start.owners, "per": "Dokkalfar"}, powers_in_play=powers,
        phase=Phase("Autumn", 1, PhaseKind.MOVEMENT)))
    game.order("Aesir", "Heir Aesir Marry Heir Dokkalfar at Permyak")
    game.order("Dokkalfar", "Heir Dokkalfar Marry Heir Aesir at Permyak")
    game.process()
    assert game.position.phase.kind is PhaseKind.ADJUSTMENT
    return game


@pytest.mark.parametrize("waive", ["Waive Permyak", "Waive"])
def test_the_dowry_givers_waive_beats_the_receivers_build(waive: str) -> None:
    """S9 §10.5.2 (4): both controllers order legal adjustments, so the Dowry
    Giver's stands; a waive is an order: Giver waives + Receiver builds = no build."""
    s9 = lawspeaker.load_variant("s9-complete")
    game = _vassal_winter(s9)
    game.order("Aesir", "Build A Permyak")
    game.order("Dokkalfar", waive)
    result = game.process()
    assert "per" not in game.position.units
    overridden = results(result)["Build A per"]
    assert overridden == (Outcome.FAILS, "Overridden: Dokkalfar's orders for vDA stand "
                                         "(S9 §10.5.2)")
