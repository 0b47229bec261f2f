"""The game calendar and `adjudicate`, the engine as a pure function."""

from __future__ import annotations

import pytest
from helpers import units

import lawspeaker
from lawspeaker import Phase, PhaseKind, Position, Unit, UnitType, adjudicate, next_phase

MOVEMENT, RETREAT, ADJUSTMENT = PhaseKind.MOVEMENT, PhaseKind.RETREAT, PhaseKind.ADJUSTMENT


def position(season: str, kind: PhaseKind, owners: dict[str, str], *lines: str) -> Position:
    return Position.from_units("standard", Phase(season, 1901, kind), units(*lines), owners)


def play(variant: lawspeaker.Variant, pos: Position, *orders: str) -> lawspeaker.Adjudication:
    parsed = [lawspeaker.parse_order(variant.map, t, phase=pos.phase.kind) for t in orders]
    return adjudicate(variant, pos, parsed)


@pytest.mark.parametrize("season,kind,expected", [
    ("Spring", MOVEMENT, ("Spring", 1901, RETREAT)),
    ("Spring", RETREAT, ("Fall", 1901, MOVEMENT)),
    ("Fall", MOVEMENT, ("Fall", 1901, RETREAT)),
    ("Fall", RETREAT, ("Winter", 1901, ADJUSTMENT)),
    ("Winter", ADJUSTMENT, ("Spring", 1902, MOVEMENT)),
])
def test_next_phase_follows_the_calendar_and_wraps_the_year(
        variant: lawspeaker.Variant, season: str, kind: PhaseKind,
        expected: tuple[str, int, PhaseKind]) -> None:
    """Rulebook: Spring and Fall moves with retreats, then Winter; then the next year."""
    assert next_phase(variant, Phase(season, 1901, kind)) == Phase(*expected)


def test_next_phase_reads_a_season_the_calendar_does_not_name_by_its_kind(
        variant: lawspeaker.Variant) -> None:
    """A position saved with another name for a season goes on from the first phase
    of its kind."""
    assert next_phase(variant, Phase("Autumn", 1901, MOVEMENT)) == Phase("Spring", 1901,
                                                                         RETREAT)


def test_the_variant_keeps_its_calendar_as_a_table(variant: lawspeaker.Variant) -> None:
    s9 = lawspeaker.load_variant("s9-complete")
    assert variant.phase_index[("Winter", ADJUSTMENT)] == len(variant.phases) - 1
    assert not variant.has_census and s9.has_census  # S9 §2.1: the Autumn Census
    assert variant.centres_count_one and variant.centre_values["par"] == 1
    assert variant.centre_values["bur"] == 0


def test_initial_position_is_spring_1901_with_22_units_on_22_homes(
        variant: lawspeaker.Variant) -> None:
    """Rulebook: the game starts in Spring 1901, each power owning its home centres."""
    start = lawspeaker.initial_position(variant)
    assert start.phase == Phase("Spring", 1901, MOVEMENT)
    assert len(start.units) == 22
    assert start.owners == {u.province: u.power for u in start.units.values()}
    assert start.dislodged == {} and start.standoffs == frozenset()


def test_spring_without_dislodgements_skips_to_fall(variant: lawspeaker.Variant) -> None:
    """An empty retreat phase is skipped, as every GM does."""
    pos = position("Spring", MOVEMENT, {"kie": "Germany"}, "Germany: F kie")
    step = play(variant, pos, "Germany: F kie - den")
    assert step.phase == Phase("Spring", 1901, MOVEMENT)
    assert step.position.phase == Phase("Fall", 1901, MOVEMENT)
    assert step.position.units == {"den": Unit("Germany", UnitType.FLEET, "den")}


def test_centres_do_not_change_hands_in_spring(variant: lawspeaker.Variant) -> None:
    """Rulebook: ownership changes only after Fall; a Spring visitor captures nothing."""
    pos = position("Spring", MOVEMENT, {"kie": "Germany"}, "Germany: F kie")
    step = play(variant, pos, "Germany: F kie - den")
    assert step.position.owners == {"kie": "Germany"}


def test_centres_are_captured_in_the_fall_before_adjustments(
        variant: lawspeaker.Variant) -> None:
    """Rulebook: a unit on a centre after Fall takes it; Winter then gives the build."""
    pos = position("Fall", MOVEMENT, {"kie": "Germany", "ber": "Germany"},
                   "Germany: F den, A ber")
    step = play(variant, pos, "Germany: A ber - kie")
    assert step.position.phase == Phase("Winter", 1901, ADJUSTMENT)
    assert step.position.owners == {"kie": "Germany", "ber": "Germany", "den": "Germany"}
    assert lawspeaker.adjustment_counts(variant, step.position) == {"Germany": 1}


def test_a_centre_left_empty_keeps_its_owner(variant: lawspeaker.Variant) -> None:
    """Rulebook: a centre stays owned until another power occupies it after a Fall."""
    pos = position("Fall", MOVEMENT, {"ber": "Germany", "war": "Russia"},
                   "Germany: A ber", "Russia: A war")
    step = play(variant, pos, "Germany: A ber - sil", "Russia: A war - ukr")
    assert step.position.owners == {"ber": "Germany", "war": "Russia"}


def test_adjustment_phase_with_nothing_to_do_is_skipped(variant: lawspeaker.Variant) -> None:
    """No builds or removals owed: straight from Fall to the next Spring."""
    pos = position("Fall", MOVEMENT, {"ber": "Germany"}, "Germany: A ber")
    step = play(variant, pos, "Germany: A ber - sil")
    assert step.position.phase == Phase("Spring", 1902, MOVEMENT)
    assert step.position.owners == {"ber": "Germany"}


def test_dislodgement_leads_to_a_retreat_phase_with_the_standoffs(
        variant: lawspeaker.Variant) -> None:
    """The retreat phase keeps who was dislodged, from where, and the standoff spaces."""
    pos = position("Spring", MOVEMENT, {},
                   "Germany: A ber, A sil", "Russia: A pru, A war", "Austria: A boh")
    step = play(variant, pos, "Germany: A ber - pru", "Germany: A sil S A ber - pru",
                "Russia: A war - gal", "Austria: A boh - gal")
    after = step.position
    assert after.phase == Phase("Spring", 1901, RETREAT)
    assert after.dislodged["pru"].attacker_from == "ber"
    assert after.standoffs == {"gal"}
    assert lawspeaker.retreat_options(variant, after, after.dislodged["pru"]) == ["lvn"]


def test_retreat_phase_then_continues_to_fall(variant: lawspeaker.Variant) -> None:
    """After retreats, the dislodged and standoff records are cleared."""
    pos = position("Spring", MOVEMENT, {}, "Germany: A ber, A sil", "Russia: A pru")
    retreat = play(variant, pos, "Germany: A ber - pru", "Germany: A sil S A ber - pru").position
    step = play(variant, retreat, "Russia: A pru - lvn")
    assert step.position.phase == Phase("Fall", 1901, MOVEMENT)
    assert step.position.dislodged == {} and step.position.standoffs == frozenset()
    assert step.position.units["lvn"] == Unit("Russia", UnitType.ARMY, "lvn")


def test_fall_retreat_into_a_centre_captures_it(variant: lawspeaker.Variant) -> None:
    """Rulebook: ownership is settled after the Fall retreats, so a retreat can capture."""
    pos = position("Fall", MOVEMENT, {"ber": "Germany", "mun": "Germany", "war": "Austria"},
                   "Germany: A ber, A sil", "Russia: A pru")
    retreat = play(variant, pos, "Germany: A ber - pru", "Germany: A sil S A ber - pru").position
    assert retreat.phase == Phase("Fall", 1901, RETREAT)
    step = play(variant, retreat, "Russia: A pru - war")
    assert step.position.owners["war"] == "Russia"
    assert step.position.phase == Phase("Spring", 1902, MOVEMENT)  # nothing to adjust


def test_winter_adjustment_leads_to_spring(variant: lawspeaker.Variant) -> None:
    """After builds the next year begins."""
    pos = position("Winter", ADJUSTMENT, {"kie": "Germany", "ber": "Germany"}, "Germany: A ber")
    step = play(variant, pos, "Germany: Build F kie")
    assert step.position.phase == Phase("Spring", 1902, MOVEMENT)
    assert step.position.units["kie"] == Unit("Germany", UnitType.FLEET, "kie")


def test_adjudicate_does_not_change_its_input(variant: lawspeaker.Variant) -> None:
    """The engine is a pure function: the old position is still the old position."""
    pos = position("Spring", MOVEMENT, {"kie": "Germany"}, "Germany: F kie")
    before = pos.to_json()
    play(variant, pos, "Germany: F kie - den")
    assert pos.to_json() == before


def test_rules_passed_to_adjudicate_override_the_variant(variant: lawspeaker.Variant) -> None:
    """edition=2000: 'via convoy' with no convoy falls back to the land route (DATC 2.4)."""
    pos = position("Spring", MOVEMENT, {}, "France: A pic")
    order = lawspeaker.parse_order(variant.map, "France: A pic - bel via convoy")
    old = adjudicate(variant, pos, [order], lawspeaker.Rules(edition=lawspeaker.Edition.R2000))
    new = adjudicate(variant, pos, [order])
    assert set(old.position.units) == {"bel"}
    assert set(new.position.units) == {"pic"}


def test_rules_built_with_plain_strings_mean_the_same_as_the_enums(
        variant: lawspeaker.Variant) -> None:
    """Rules(edition="2000") is what README's `--rules edition=2000` means in Python."""
    pos = position("Spring", MOVEMENT, {}, "France: A pic")
    order = lawspeaker.parse_order(variant.map, "France: A pic - bel via convoy")
    step = adjudicate(variant, pos, [order], lawspeaker.Rules(edition="2000"))  # type: ignore[arg-type]
    assert set(step.position.units) == {"bel"}
