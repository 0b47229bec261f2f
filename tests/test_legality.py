"""Why a movement order is illegal: the reasons a player is told before the deadline."""

from __future__ import annotations

import pytest
from helpers import board

import lawspeaker
from lawspeaker import Move, Unit, UnitType, movement_problem

A, F = UnitType.ARMY, UnitType.FLEET


def problem(game_map: lawspeaker.GameMap, units: dict[str, Unit], text: str) -> str | None:
    """The problem with ``"Power: order"`` on this board, or None if it is legal."""
    return movement_problem(game_map, units, lawspeaker.parse_order(game_map, text))


ENGLAND = board("England: F lon, A lvp, F nth, F eng, A wal",
                "France: A par, F mar, F gol, F bre, A pic")


@pytest.mark.parametrize("order", [
    "England: F lon - nth", "England: A lvp - yor", "England: F nth - hol",
    "England: F nth S A wal - lon", "England: F nth C A wal - bel", "France: A pic - lon",
    "France: A pic - bel via convoy", "France: F gol C A mar - spa", "England: A lvp H",
    "France: A par S A pic - bre", "England: F nth S F eng",
])
def test_legal_orders_have_no_problem(game_map: lawspeaker.GameMap, order: str) -> None:
    """Ordinary orders on the board are accepted."""
    assert problem(game_map, ENGLAND, order) is None


@pytest.mark.parametrize("order,reason", [
    ("England: F edi - nth", "there is no unit in Edinburgh"),
    ("France: F lon - wal", "the unit in London belongs to England"),
    ("England: F lon - lon", "a unit cannot move to the space it is in"),
    ("England: A lvp - iri", "an army cannot move to a sea space"),
    ("France: F bre - par", "a fleet in Brest cannot reach Paris"),
    ("France: A par - wal", "Wales is not adjacent to Paris and no convoy could reach it"),
    ("England: F eng - bel via convoy", "only armies can be convoyed"),
    ("France: A par C A pic - lon", "only fleets can convoy"),
    ("France: F mar S A par - bur",
     "a fleet in Marseilles cannot reach Burgundy, so cannot support there"),
])
def test_illegal_order_reasons(game_map: lawspeaker.GameMap, order: str, reason: str) -> None:
    """Each illegal order comes with the reason a GM would give."""
    assert problem(game_map, ENGLAND, order) == reason


def test_order_without_power_is_not_checked_for_ownership(game_map: lawspeaker.GameMap) -> None:
    """A case file or GM may give orders with no power; the unit's owner is assumed."""
    order = Move("", F, "lon", "nth")
    assert movement_problem(game_map, ENGLAND, order) is None


def test_fleet_cannot_move_to_a_coast_it_does_not_touch(game_map: lawspeaker.GameMap) -> None:
    """DATC 6.B.3: F Gas - Spa(sc) is illegal: Gascony touches only the north coast."""
    units = board("France: F gas, F mar")
    assert problem(game_map, units, "France: F gas - spa/sc") == \
        "a fleet in Gascony cannot reach Spain (south coast)"
    assert problem(game_map, units, "France: F mar - spa/nc") == \
        "a fleet in Marseilles cannot reach Spain (north coast)"


def test_missing_coast_when_both_are_possible_is_illegal(game_map: lawspeaker.GameMap) -> None:
    """DATC 6.B.1: F Por - Spa without a coast: Portugal touches both, so it is illegal."""
    units = board("France: F por")
    assert problem(game_map, units, "France: F por - spa") == \
        "say which coast of Spain the fleet moves to"


def test_missing_coast_when_only_one_is_possible_is_fine(game_map: lawspeaker.GameMap) -> None:
    """DATC 6.B.2: F Gas - Spa goes to the north coast, the only one Gascony touches."""
    assert problem(game_map, board("France: F gas"), "France: F gas - spa") is None
    assert lawspeaker.core.legality.move_destination(
        game_map, Unit("France", F, "gas"), "spa") == "spa/nc"


def test_unit_cannot_support_itself(game_map: lawspeaker.GameMap) -> None:
    """DATC 6.A.8: support to hold yourself is not possible."""
    units = board("Italy: F tri", "Austria: A ven")
    assert problem(game_map, units, "Italy: F tri S F tri") == "a unit cannot support itself"


def test_support_needs_a_destination_the_supporter_could_reach(
        game_map: lawspeaker.GameMap) -> None:
    """DATC 6.A.10: F Rom cannot support A Apu - Ven: Rome does not border Venice by sea."""
    units = board("Austria: A ven", "Italy: F rom, A apu")
    assert problem(game_map, units, "Italy: F rom S A apu - ven") == \
        "a fleet in Rome cannot reach Venice, so cannot support there"


def test_support_into_own_space_is_illegal(game_map: lawspeaker.GameMap) -> None:
    """DATC 6.D.34: Italian A Pru cannot support Russia's A Lvn - Pru into itself."""
    units = board("Germany: A ber, A sil, F bal", "Italy: A pru", "Russia: A war, A lvn")
    assert problem(game_map, units, "Italy: A pru S A lvn - pru") == \
        "a unit cannot support a move into its own space"
    assert problem(game_map, units, "Russia: A war S A lvn - pru") is None


def test_support_needing_the_supporters_own_convoy_is_illegal(
        game_map: lawspeaker.GameMap) -> None:
    """DATC 6.D.31: F Bla cannot support A Rum - Arm, which could only go via Bla itself."""
    units = board("Austria: A rum", "Turkey: F bla")
    reason = problem(game_map, units, "Turkey: F bla S A rum - arm")
    assert reason == "A Rumania could reach Armenia only by a convoy this unit would have to give"


def test_support_of_a_convoy_other_fleets_could_give_is_legal(
        game_map: lawspeaker.GameMap) -> None:
    """6.D.31 turned round: with F Nth also there, F Eng may support A Lon - Bel."""
    units = board("England: A lon, F nth, F eng")
    assert problem(game_map, units, "England: F eng S A lon - bel") is None


def test_move_that_no_fleet_on_the_board_could_convoy_is_illegal(
        game_map: lawspeaker.GameMap) -> None:
    """DATC 6.D.32: A Yor - Hol with no fleet in the North Sea is impossible, so illegal."""
    units = board("England: F edi, A lvp", "France: F lon", "Germany: A yor")
    assert problem(game_map, units, "Germany: A yor - hol") == \
        "no chain of fleets could convoy it from Yorkshire to Holland"
    assert problem(game_map, board("Germany: A yor, F nth"), "Germany: A yor - hol") is None


def test_fleet_on_a_coast_cannot_convoy(game_map: lawspeaker.GameMap) -> None:
    """DATC 6.F.1: F Con is in a coastal province, so its convoy order is illegal."""
    units = board("Turkey: A gre, F aeg, F con, F bla")
    assert problem(game_map, units, "Turkey: F con C A gre - sev") == \
        "a fleet in Constantinople cannot convoy (not open sea)"


def test_fleet_on_no_convoy_route_cannot_convoy(game_map: lawspeaker.GameMap) -> None:
    """DATC 6.G.7: F Bot is on no route from Sweden to Norway, so its convoy is illegal."""
    units = board("England: F ska, F nwy", "Russia: A swe, F bot")
    assert problem(game_map, units, "Russia: F bot C A swe - nwy") == \
        "a fleet in Gulf of Bothnia is on no convoy route from Sweden to Norway"
    assert problem(game_map, units, "England: F ska C A swe - nwy") is None


def test_unneeded_fleet_in_swap_by_convoy_is_illegal(game_map: lawspeaker.GameMap) -> None:
    """DATC 6.G.19: F Wes is never needed to convoy Mar - Spa (the Gulf of Lyon suffices)."""
    units = board("France: A mar, F wes", "Italy: F gol, A spa")
    assert problem(game_map, units, "France: F wes C A mar - spa") is not None
    assert problem(game_map, units, "Italy: F gol C A mar - spa") is None


@pytest.mark.parametrize("order,reason", [
    ("England: F eng C A par - bel", "an army cannot be convoyed from or to Paris"),
    ("England: F eng C A pic - par", "an army cannot be convoyed from or to Paris"),
    ("England: F eng C A pic - pic", "a convoy must go somewhere else"),
])
def test_convoy_must_be_between_two_different_coasts(
        game_map: lawspeaker.GameMap, order: str, reason: str) -> None:
    """Convoys carry armies from one coastal province to another."""
    assert problem(game_map, ENGLAND, order) == reason


def test_support_or_convoy_of_an_absent_unit_is_not_illegal(
        game_map: lawspeaker.GameMap) -> None:
    """legality.movement_problem: such orders are void (the resolver says so), not illegal."""
    assert problem(game_map, ENGLAND, "England: F nth S A hol - bel") is None
    assert problem(game_map, ENGLAND, "England: F nth C A hol - lon") is None


def test_retreat_orders_are_not_movement_orders(game_map: lawspeaker.GameMap) -> None:
    """A retreat given in a movement phase is rejected with a reason."""
    order = lawspeaker.Retreat("England", F, "lon", "wal")
    assert "is not an order for a movement phase" in str(
        movement_problem(game_map, ENGLAND, order))


def test_army_support_reason_reads_an_army(game_map: lawspeaker.GameMap) -> None:
    """Player-facing text: 'an army in Paris cannot reach Wales'."""
    reason = problem(game_map, ENGLAND, "France: A par S A pic - lon")
    assert reason is not None
    assert reason.startswith("an army in Paris cannot reach London")


def test_support_of_an_impossible_move_does_not_blame_a_fleet_that_could_not_convoy(
        game_map: lawspeaker.GameMap) -> None:
    """F Nth does not touch Liverpool, so no convoy of A Lvp - Lon could ever need it."""
    reason = problem(game_map, ENGLAND, "England: F nth S A lvp - lon")
    assert reason is None or "would have to give" not in reason
