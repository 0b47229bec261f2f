"""Heirs and marriages through the Game API, as the S9 v1.1.1 rulebook tells them
(§7.1, §9.1-§9.2, §10.3-§10.5). Case files in tests/cases/s9/ cover the same rules
condition by condition; these tests follow whole turns the way a GM runs them."""

from __future__ import annotations

import pytest

import lawspeaker
from lawspeaker import Game, PhaseKind, Position, Unit, UnitType
from lawspeaker.core.board import Heir, Phase, PowerState
from lawspeaker.core.notation import OrderSyntaxError
from lawspeaker.core.orders import HeirMarry, Marry
from lawspeaker.core.results import Outcome
from lawspeaker.rules.dp import DPError, allotment


def at(game: Game, season: str, year: int = 1) -> Game:
    """The game moved to another orders phase of the calendar, position unchanged."""
    game.position = game.position.replace(phase=Phase(season, year, PhaseKind.MOVEMENT))
    return game


def outcome(result: lawspeaker.Adjudication, text: str) -> lawspeaker.OrderResult:
    """The result whose order prints as ``text``."""
    return next(r for r in result.results if str(r.order) == text)


def test_every_major_starts_with_an_unmarried_heir_and_two_dp(s9: lawspeaker.Variant) -> None:
    """§6, §7.1: an heir in every capital; §9.2: 1 DP for the capital + 1 for the heir."""
    game = Game(s9)
    for name, power in s9.powers.items():
        assert game.position.unmarried_heir(name) == Heir(name, power.capital or "", False)
        assert allotment(s9, game.position, name) == 2


def test_heirs_are_named_by_power_place_or_abbreviation(s9: lawspeaker.Variant) -> None:
    """§7.1: 'Heir Aesir, Heir Asgard, or H Asg'."""
    game = Game(s9)
    written = ["Heir Aesir Marry Permyak", "Heir Asgard Marry Permyak", "H Asg Marry Per"]
    assert {game.parse("Aesir", t) for t in written} == {HeirMarry("Aesir", None, "asg", "per")}
    assert game.parse("Aesir", "Heir Jotnar Marry Heir Zwergar at Thule") == HeirMarry(
        "Aesir", None, "jot", "nid", True, "thu")
    with pytest.raises(OrderSyntaxError, match="Hold or Marry"):
        game.parse("Aesir", "Heir Aesir - Idavollr")


def test_example_10_3_aesir_heir_marries_permyak(s9: lawspeaker.Variant) -> None:
    """Ex 10.3.1-10.3.2: 2 DP for the Marry beat 1 DP for a support; Permyak becomes
    an Aesir thrall, the heir moves there and the attempt is published (§10.3.1)."""
    game = Game(s9)
    game.order("Aesir", "Heir Asgard Marry Permyak")
    game.allocate("Aesir", "2 DP to F Permyak Marry Heir Aesir")
    game.allocate("Dokkalfar", "1 DP to F Permyak S Svartalfheim - Ylg")
    game.order("Dokkalfar", "F Svartalfheim - Ylg")
    result = game.process()
    assert result.dp is not None
    assert result.dp.public()["per"] == Marry("Permyak", UnitType.FLEET, "per", "asg")
    assert outcome(result, "Heir asg Marry per").outcome is Outcome.SUCCEEDS
    after = game.position
    assert Heir("Aesir", "per", True) in after.heirs
    assert after.unmarried_heir("Aesir") is None
    assert after.powers_in_play["Permyak"] == PowerState("thrall", ("Aesir",))
    assert after.units["per"].stationary  # a thrall's unit stays stationary (§10.3)
    # §9.2: the capital (1) + the thrall (1); no unmarried heir any more.
    assert allotment(s9, after, "Aesir") == 2


def test_a_failed_thrall_marriage_is_public_and_the_heir_stays(s9: lawspeaker.Variant) -> None:
    """§10.3 C, §10.3.1 3b: without the minor's Marry the marriage fails, visibly."""
    game = Game(s9)
    game.order("Aesir", "Heir Aesir Marry Permyak")
    game.allocate("Dokkalfar", "1 DP to F Permyak H")
    result = game.process()
    failed = outcome(result, "Heir asg Marry per")
    assert failed.outcome is Outcome.FAILS and "§10.3 C" in failed.reason
    assert game.position.unmarried_heir("Aesir") == Heir("Aesir", "asg", False)
    assert game.position.kind_of("Permyak") == "minor"


def test_marry_and_hold_are_different_dp_proposals(s9: lawspeaker.Variant) -> None:
    """§9.1 A: DP on Hold do not count toward Marry, nor the reverse."""
    game = Game(s9)
    game.order("Aesir", "Heir Aesir Marry Permyak")
    game.allocate("Aesir", "1 DP to F Permyak Marry Heir Aesir")
    game.allocate("Jotnar", "1 DP to F Permyak H")
    game.allocate("Madr", "1 DP to F Permyak H")
    result = game.process()
    assert result.dp is not None and str(result.dp.public()["per"]) == "F per H"
    assert game.position.kind_of("Permyak") == "minor"


def test_heir_orders_are_checked_when_given(s9: lawspeaker.Variant) -> None:
    """§7.1: only the owner's unmarried heir takes orders; §10.4: heirs marry each
    other only in the orders phase before the Census."""
    game = Game(s9)
    assert game.problem(game.parse("Aesir", "Heir Dokkalfar H")) is not None
    assert "before the Census" in (game.problem(game.parse(
        "Aesir", "Heir Aesir Marry Heir Dokkalfar at Himinbjorg")) or "")
    assert game.problem(game.parse("Aesir", "Heir Aesir Marry Permyak")) is None
    assert "not a minor" in (game.problem(game.parse("Aesir", "Heir Aesir Marry Svartalfheim"))
                             or "")
    assert "minor power's unit" in (game.problem(game.parse("Aesir", "F Asg Marry Heir Jotnar"))
                                    or "")


def test_a_heir_order_and_a_unit_order_in_one_capital_are_both_kept(
        s9: lawspeaker.Variant) -> None:
    game = Game(s9)
    game.order("Aesir", "F Asgard H", "Heir Asgard H")
    assert [str(o) for o in game.orders("Aesir")] == ["F asg H", "Heir asg H"]


def _dokkalfar_holds_permyak(s9: lawspeaker.Variant) -> Game:
    """Ex 10.4.0's position: Dokkalfar captured Permyak earlier and has a fleet there."""
    start = lawspeaker.initial_position(s9)
    units = {p: u for p, u in start.units.items() if p != "per"}
    units["per"] = Unit("Dokkalfar", UnitType.FLEET, "per")
    owners = {**start.owners, "per": "Dokkalfar"}
    powers = {n: s for n, s in start.powers_in_play.items() if n != "Permyak"}
    position = start.replace(units=units, owners=owners, powers_in_play=powers,
                             phase=Phase("Autumn", 1, PhaseKind.MOVEMENT))
    return Game(s9, position=position)


def test_example_10_4_0_vassal_marriage_creates_vda_at_the_census(
        s9: lawspeaker.Variant) -> None:
    """Ex 10.4.0: vDA is created in Permyak at the Autumn Census; Permyak passes from
    Dokkalfar to vDA, the fleet there disbands, both heirs move to Permyak."""
    game = _dokkalfar_holds_permyak(s9)
    game.order("Aesir", "Heir Aesir Marry Heir Dokkalfar at Permyak")
    game.order("Dokkalfar", "Heir Dokkalfar Marry Heir Aesir at Permyak", "F Permyak Hold")
    result = game.process()
    after = game.position
    assert after.powers_in_play["vDA"] == PowerState("vassal", ("Dokkalfar", "Aesir"), "per")
    assert after.owners["per"] == "vDA"
    assert "per" not in after.units
    assert {Heir("Aesir", "per", True), Heir("Dokkalfar", "per", True)} <= set(after.heirs)
    assert any("vDA" in e and "Permyak" in e for e in result.events)
    # §3.2: the vassal's centre counts for both controllers' victory totals.
    counts = lawspeaker.rules.census.centre_counts(s9, after)
    assert counts["Aesir"] == 2 + 1 and counts["Dokkalfar"] == 2 + 1
    # §9.2: each controller gets 1 DP for the vassal.
    assert after.phase.kind is PhaseKind.ADJUSTMENT


def test_the_dowry_givers_build_wins_in_the_new_vassals_first_winter(
        s9: lawspeaker.Variant) -> None:
    """Ex 10.4.0, Figure 5, §10.5.2 4: both controllers order a legal build; the
    giver's (Dokkalfar's) stands, the receiver's is overridden and reported."""
    game = _dokkalfar_holds_permyak(s9)
    game.order("Aesir", "Heir Aesir Marry Heir Dokkalfar at Permyak")
    game.order("Dokkalfar", "Heir Dokkalfar Marry Heir Aesir at Permyak")
    game.process()
    game.order("Aesir", "Build A Permyak")
    game.order("Dokkalfar", "Build F Permyak")
    result = game.process()
    assert game.position.units["per"] == Unit("vDA", UnitType.FLEET, "per")
    assert "§10.5.2" in outcome(result, "Build A per").reason


def test_v1_1_dowry_unit_option_hands_the_fleet_to_the_vassal(s9: lawspeaker.Variant) -> None:
    """S9 v1.1 §10.4 (rules option dowry_unit=transfer): the fleet joins vDA."""
    game = _dokkalfar_holds_permyak(s9)
    game.rules = game.rules.with_options(dowry_unit="transfer")
    game.order("Aesir", "Heir Aesir Marry Heir Dokkalfar at Permyak")
    game.order("Dokkalfar", "Heir Dokkalfar Marry Heir Aesir at Permyak")
    game.process()
    assert game.position.units["per"] == Unit("vDA", UnitType.FLEET, "per")


def test_vassal_units_take_dp_only_from_their_controllers(s9: lawspeaker.Variant) -> None:
    """§9.1 C, §10.5.1: only the two controllers allocate DP to a vassal's units,
    and they are exempt from the Attacking & Allocating rule."""
    game = _dokkalfar_holds_permyak(s9)
    game.order("Aesir", "Heir Aesir Marry Heir Dokkalfar at Permyak")
    game.order("Dokkalfar", "Heir Dokkalfar Marry Heir Aesir at Permyak")
    game.process()
    game.order("Dokkalfar", "Build F Permyak")
    game.process()
    assert game.position.phase.kind is PhaseKind.MOVEMENT
    with pytest.raises(DPError, match="only the powers controlling vDA"):
        game.allocate("Jotnar", "1 DP to F Permyak - Ylg")
    game.order("Dokkalfar", "F Svartalfheim - Ylg")
    game.allocate("Aesir", "1 DP to F Permyak - Ziva")  # the vassal's units move (§10.5)
    game.process()
    assert game.position.units["ziv"] == Unit("vDA", UnitType.FLEET, "ziv")


def test_escape_by_thrall_marriage_while_the_capital_falls(s9: lawspeaker.Variant) -> None:
    """§10.3.1 4a: a thrall marriage happens with the retreats, before the Census, so
    the heir is in Permyak when Asgard is captured and Aesir survives."""
    game = Game(s9)
    start = game.position
    units = dict(start.units)
    units["jor"] = Unit("Madr", UnitType.FLEET, "jor")
    units["ida"] = Unit("Madr", UnitType.FLEET, "ida")
    units["him"] = Unit("Aesir", UnitType.FLEET, "him")
    del units["asg"]
    game.position = start.replace(units=units, phase=Phase("Autumn", 1, PhaseKind.MOVEMENT))
    game.order("Madr", "F Jormungandr - Asgard", "F Idavollr S F Jormungandr - Asgard")
    game.order("Aesir", "Heir Aesir Marry Permyak")
    game.allocate("Aesir", "2 DP to F Permyak Marry Heir Aesir")
    result = game.process()
    after = game.position
    assert after.owners["asg"] == "Madr"
    assert Heir("Aesir", "per", True) in after.heirs
    assert "Aesir" in after.owners.values()  # not eliminated: a living heir (§3.4)
    assert not any("Aesir is eliminated" in e for e in result.events)


def test_without_the_marriage_the_heir_is_executed_and_aesir_eliminated_early(
        s9: lawspeaker.Variant) -> None:
    """§10.1, §3.4: the capital falls with the heir in it; no living heir is left, so
    Aesir is eliminated although it still holds Himinbjorg, which becomes a minor."""
    game = Game(s9)
    start = game.position
    units = dict(start.units)
    units["jor"] = Unit("Madr", UnitType.FLEET, "jor")
    units["ida"] = Unit("Madr", UnitType.FLEET, "ida")
    del units["asg"]
    game.position = start.replace(units=units, phase=Phase("Autumn", 1, PhaseKind.MOVEMENT))
    game.order("Madr", "F Jormungandr - Asgard", "F Idavollr S F Jormungandr - Asgard")
    result = game.process()
    after = game.position
    assert not after.heirs_of("Aesir")
    assert "Aesir" not in after.owners.values()
    assert after.owners["him"] == "Himinbjorg" and after.kind_of("Himinbjorg") == "minor"
    assert "him" not in after.units or after.units["him"].power == "Himinbjorg"
    assert any("executed" in e for e in result.events)
    assert any("Aesir is eliminated" in e and "no living heir" in e for e in result.events)


def test_gm_forces_the_early_elimination_of_a_dropped_player(s9: lawspeaker.Variant) -> None:
    """§3.4.2: at the GM's choice, applied at the next Autumn Census."""
    game = at(Game(s9), "Autumn")
    game.force_elimination("Jotnar")
    result = game.process()
    assert "Jotnar" not in game.position.owners.values()
    assert not game.position.units_of("Jotnar") and not game.position.heirs_of("Jotnar")
    assert any("§3.4.2" in e for e in result.events)
    assert not game.position.dropped


def test_positions_with_heirs_round_trip_through_json(s9: lawspeaker.Variant) -> None:
    game = _dokkalfar_holds_permyak(s9)
    game.order("Aesir", "Heir Aesir Marry Heir Dokkalfar at Permyak")
    game.order("Dokkalfar", "Heir Dokkalfar Marry Heir Aesir at Permyak")
    game.process()
    position = game.position.replace(heir_built={"Aesir": 1}, dropped={"Ymir"})
    assert Position.from_json(position.to_json()) == position
    again = Game.from_json(Game(s9, position=position).to_json())
    assert again.position == position
