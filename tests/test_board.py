"""Positions: immutable snapshots that serialise exactly."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any

import pytest
from helpers import units

from lawspeaker import Dislodged, Phase, PhaseKind, Position, Unit, UnitType
from lawspeaker.core.board import thawed

A, F = UnitType.ARMY, UnitType.FLEET
SPRING = Phase("Spring", 1901, PhaseKind.MOVEMENT)
SPRING_RETREAT = Phase("Spring", 1901, PhaseKind.RETREAT)


def retreat_position() -> Position:
    """After Spring 1901: Russia's A pru dislodged from Berlin, Silesia a standoff."""
    return Position.from_units(
        "standard", SPRING_RETREAT,
        units("Germany: A pru, F kie", "Russia: F stp/sc, A war"),
        owners={"ber": "Germany", "kie": "Germany", "stp": "Russia", "war": "Russia"},
        dislodged=[Dislodged(Unit("Russia", A, "pru"), "ber"),
                   Dislodged(Unit("Russia", F, "bal"), None)],
        standoffs=["sil"],
    )


def test_json_round_trip_is_exact() -> None:
    """to_json/from_json reverse each other: units, coasts, owners, dislodged, standoffs."""
    position = retreat_position()
    again = Position.from_json(position.to_json())
    assert again == position
    assert again.units["stp"].location == "stp/sc"
    assert again.dislodged["pru"].attacker_from == "ber"
    assert again.dislodged["bal"].attacker_from is None
    assert again.standoffs == {"sil"}
    assert again.to_dict() == position.to_dict()


def test_json_is_plain_and_sorted() -> None:
    """The saved form is plain JSON, sorted, so saved games diff cleanly."""
    data = json.loads(retreat_position().to_json())
    assert data["phase"] == {"season": "Spring", "year": 1901, "kind": "retreat"}
    assert [u["location"] for u in data["units"]] == ["kie", "pru", "stp/sc", "war"]
    assert data["dislodged"][1] == {"power": "Russia", "type": "A", "location": "pru",
                                    "attacker_from": "ber"}
    assert data["standoffs"] == ["sil"]
    assert list(data["owners"]) == sorted(data["owners"])


def test_positions_built_in_any_order_are_equal() -> None:
    """A position is a value: the order units were listed in does not matter."""
    one = Position.from_units("standard", SPRING, units("England: F lon, A lvp"))
    two = Position.from_units("standard", SPRING, units("England: A lvp, F lon"))
    assert one == two
    assert one != Position.from_units("standard", SPRING, units("England: F lon"))


def test_from_units_rejects_two_units_in_one_province() -> None:
    """Rulebook: only one unit may occupy a province, whatever its coasts."""
    with pytest.raises(ValueError, match="two units in stp"):
        Position.from_units("standard", SPRING, units("Russia: F stp/nc", "England: A stp"))


@pytest.mark.parametrize("change,problem", [
    (lambda d: d.pop("phase"), "'phase'"),
    (lambda d: d["phase"].update(kind="winter"), "'winter' is not a valid PhaseKind"),
    (lambda d: d["phase"].update(year="MCMI"), "invalid literal for int()"),
    (lambda d: d["units"][0].update(type="X"), "'X' is not a valid UnitType"),
    (lambda d: d["units"][0].pop("power"), "'power'"),
    (lambda d: d["units"].append(dict(d["units"][0])), "two units in kie"),
    (lambda d: d.update(units=5), "not iterable"),
])
def test_from_dict_names_the_problem_in_bad_data(
        change: Callable[[dict[str, Any]], object], problem: str) -> None:
    """A corrupt saved game is a ValueError that says what is wrong."""
    data = retreat_position().to_dict()
    change(data)
    with pytest.raises(ValueError, match="not a valid position") as caught:
        Position.from_dict(data)
    assert problem in str(caught.value)


def test_from_json_rejects_text_that_is_not_json() -> None:
    """Truncated files fail loudly, as a ValueError."""
    with pytest.raises(ValueError):
        Position.from_json('{"variant": "standard", ')


def test_from_dict_rejects_owners_that_are_not_a_mapping() -> None:
    """Bad data of any shape is a ValueError, never a crash from inside the parser."""
    data = retreat_position().to_dict()
    data["owners"] = [["ber", "Germany"]]
    with pytest.raises(ValueError, match="not a valid position"):
        Position.from_dict(data)


def test_position_fields_cannot_be_reassigned() -> None:
    """Adjudicating never changes a position; it returns a new one."""
    position = retreat_position()
    with pytest.raises(dataclasses.FrozenInstanceError):
        position.phase = SPRING  # type: ignore[misc]


def test_position_mappings_cannot_be_mutated() -> None:
    """units, owners and dislodged are read-only views."""
    position = retreat_position()
    with pytest.raises(TypeError):
        position.units["lon"] = Unit("England", F, "lon")  # type: ignore[index]
    with pytest.raises(TypeError):
        position.owners["lon"] = "England"  # type: ignore[index]
    with pytest.raises(TypeError):
        del position.dislodged["pru"]  # type: ignore[attr-defined]


def test_position_copies_the_mappings_it_is_given() -> None:
    """Changing the dict a position was built from does not change the position."""
    owners = {"lon": "England"}
    board = {"lon": Unit("England", F, "lon")}
    position = Position("standard", SPRING, board, owners)
    owners["lon"] = "France"
    board.clear()
    assert position.owners == {"lon": "England"}
    assert set(position.units) == {"lon"}


def test_position_is_hashable_like_any_frozen_value() -> None:
    """Frozen values can key a cache of 'what if' adjudications."""
    assert hash(retreat_position()) == hash(Position.from_json(retreat_position().to_json()))


def test_units_of_centres_of_and_powers() -> None:
    """Who has what: units, centres, and every power still on the board."""
    position = retreat_position()
    assert {str(u) for u in position.units_of("Russia")} == {"F stp/sc", "A war"}
    assert sorted(position.centres_of("Germany")) == ["ber", "kie"]
    assert position.powers() == {"Germany", "Russia"}
    only_dislodged = Position.from_units(
        "standard", SPRING_RETREAT, [], dislodged=[Dislodged(Unit("Italy", A, "ven"), "tyr")])
    assert only_dislodged.powers() == {"Italy"}


def test_unit_and_phase_text() -> None:
    """Short forms used in results and logs."""
    unit = Unit("Russia", F, "stp/sc")
    assert str(unit) == "F stp/sc"
    assert unit.province == "stp"
    assert str(SPRING) == "Spring 1901 movement"


def test_thawed_is_a_mutable_copy_the_position_does_not_share() -> None:
    position = Position.from_units("standard", Phase("Spring", 1901, PhaseKind.MOVEMENT),
                                   units("France: A par, F bre"), {"par": "France"})
    board = thawed(position.units)
    board.clear()
    owners = thawed(position.owners)
    owners["bre"] = "France"
    assert type(board) is dict and set(position.units) == {"par", "bre"}
    assert position.owners == {"par": "France"}
    assert thawed({"par": "France"}) == {"par": "France"}
