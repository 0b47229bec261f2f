"""The Autumn Census in the order of S9 v1.1.1 §2.2 step 3: captures, executions,
eliminations, vassal marriages, transfers, disbands; then victory (§3)."""

from __future__ import annotations

import lawspeaker
from lawspeaker import PhaseKind, Position, Unit, UnitType
from lawspeaker.core.board import Heir, Marriage, Phase, PowerState
from lawspeaker.rules.census import centre_counts, run_census, victory
from lawspeaker.rules.dp import allotment


def census_of(variant: lawspeaker.Variant, **changes: object) -> Position:
    """The starting position at the first Census, with some parts replaced."""
    start = lawspeaker.initial_position(variant)
    return start.replace(phase=Phase("Autumn", 1, PhaseKind.CENSUS), **changes)


def with_units(position: Position, *units: Unit, removed: tuple[str, ...] = ()) -> dict:
    out = {p: u for p, u in position.units.items() if p not in removed}
    out.update({u.province: u for u in units})
    return out


def vassal_position(s9: lawspeaker.Variant) -> Position:
    """vDA (giver Dokkalfar, receiver Aesir) with its capital in Permyak and a fleet
    in Ylg; both married heirs in Permyak and no unmarried heirs left."""
    start = census_of(s9)
    heirs = [h for h in start.heirs if h.power not in ("Aesir", "Dokkalfar")]
    heirs += [Heir("Aesir", "per", True), Heir("Dokkalfar", "per", True)]
    powers = {n: s for n, s in start.powers_in_play.items() if n != "Permyak"}
    powers["vDA"] = PowerState("vassal", ("Dokkalfar", "Aesir"), "per")
    units = with_units(start, Unit("vDA", UnitType.FLEET, "ylg"), removed=("per",))
    return start.replace(heirs=heirs, powers_in_play=powers, units=units,
                         owners={**start.owners, "per": "vDA"})


def test_a_thrall_captured_by_its_own_controller_loses_its_heir(s9: lawspeaker.Variant) -> None:
    """§10.1: 'This is true even if the Heir belongs to the player doing the capturing'."""
    start = census_of(s9)
    heirs = [h for h in start.heirs if h.power != "Aesir"] + [Heir("Aesir", "per", True)]
    position = start.replace(
        heirs=heirs, powers_in_play={**start.powers_in_play,
                                     "Permyak": PowerState("thrall", ("Aesir",))},
        units=with_units(start, Unit("Aesir", UnitType.FLEET, "per")))
    report = run_census(s9, position, s9.rules)
    after = report.position
    assert after.owners["per"] == "Aesir"
    assert not after.heirs_of("Aesir") and "Permyak" not in after.powers_in_play
    assert report.events[:2] == ("Aesir captures Permyak from Permyak",
                                 "The heir of Aesir in Permyak is executed (S9 §10.1)")
    assert "Aesir" in after.owners.values()  # it still holds its capital (§1.3)


def test_a_vassal_losing_its_capital_is_eliminated_and_its_centres_become_minors(
        s9: lawspeaker.Variant) -> None:
    """§3.4.1, §10.5: capital captured -> heirs killed, units disbanded, centres to minors."""
    position = vassal_position(s9)
    position = position.replace(
        owners={**position.owners, "gla": "vDA"},
        units=with_units(position, Unit("Jotnar", UnitType.FLEET, "per"), removed=("gla",)))
    after = run_census(s9, position, s9.rules).position
    assert "vDA" not in after.powers_in_play
    assert after.owners["per"] == "Jotnar"
    assert after.owners["gla"] == "Glaesisvellir" and after.kind_of("Glaesisvellir") == "minor"
    assert "ylg" not in after.units
    assert not [h for h in after.heirs if h.location == "per"]
    # Both players lost their only heirs but keep their capitals: not eliminated.
    assert {"Aesir", "Dokkalfar"} <= set(after.owners.values())


def test_a_lone_surviving_controller_keeps_the_vassal_and_its_dp(
        s9: lawspeaker.Variant) -> None:
    """§3.4 step 5: the other controller continues alone and still allocates DP."""
    position = vassal_position(s9).replace(dropped={"Aesir"})
    report = run_census(s9, position, s9.rules)
    after = report.position
    assert after.powers_in_play["vDA"] == PowerState("vassal", ("Dokkalfar",), "per")
    assert "vDA is now controlled by Dokkalfar alone (S9 §3.4 step 5)" in report.events
    assert Heir("Dokkalfar", "per", True) in after.heirs and not after.heirs_of("Aesir")
    assert allotment(s9, after, "Dokkalfar") == 2  # capital + vassal (no unmarried heir)


def test_a_vassal_whose_controllers_are_both_eliminated_is_eliminated(
        s9: lawspeaker.Variant) -> None:
    """§3.4.1: 'if its two controlling players are both eliminated'."""
    position = vassal_position(s9).replace(dropped={"Aesir", "Dokkalfar"})
    after = run_census(s9, position, s9.rules).position
    assert "vDA" not in after.powers_in_play
    assert after.owners["per"] == "Permyak" and after.kind_of("Permyak") == "minor"
    assert not any(u.power in ("vDA", "Aesir", "Dokkalfar") for u in after.units.values())


def test_an_eliminated_powers_thralls_become_minors(s9: lawspeaker.Variant) -> None:
    """§3.4 step 4. A married heir elsewhere saves a power that lost its capital."""
    start = census_of(s9)
    heirs = [h for h in start.heirs if h.power != "Aesir"] + [Heir("Aesir", "per", True)]
    thrall = {**start.powers_in_play, "Permyak": PowerState("thrall", ("Aesir",))}
    lost = with_units(start, Unit("Madr", UnitType.FLEET, "asg"))
    saved = run_census(s9, start.replace(heirs=heirs, powers_in_play=thrall, units=lost),
                       s9.rules).position
    assert saved.kind_of("Permyak") == "thrall" and "Aesir" in saved.owners.values()
    dropped = start.replace(heirs=heirs, powers_in_play=thrall, dropped={"Aesir"})
    after = run_census(s9, dropped, s9.rules).position
    assert after.kind_of("Permyak") == "minor" and not after.heirs_of("Aesir")
    assert after.owners["asg"] == "Asgard" and after.owners["him"] == "Himinbjorg"


def test_a_vassal_marriage_fails_when_a_capital_falls(s9: lawspeaker.Variant) -> None:
    """§10.4 5 (and §10.4.1 2b: no escape by vassal marriage)."""
    start = census_of(s9)
    owners = {**start.owners, "per": "Dokkalfar"}
    powers = {n: s for n, s in start.powers_in_play.items() if n != "Permyak"}
    units = with_units(start, Unit("Madr", UnitType.FLEET, "asg"), removed=("per",))
    position = start.replace(owners=owners, powers_in_play=powers, units=units,
                             marriages=[Marriage("Dokkalfar", "Aesir", "per")])
    report = run_census(s9, position, s9.rules)
    assert not [n for n, s in report.position.powers_in_play.items() if s.kind == "vassal"]
    assert any("fails" in e and "Asgard" in e for e in report.events)
    # Aesir's heir was executed in Asgard; with no heir and no capital it is gone.
    assert "Aesir" not in report.position.owners.values()


def test_victory_counts_thralls_and_vassals_for_their_controllers(
        s9: lawspeaker.Variant) -> None:
    """§3.2: thrall centres count for the controller; vassal centres for both."""
    position = vassal_position(s9)
    position = position.replace(powers_in_play={
        **position.powers_in_play, "Thule": PowerState("thrall", ("Aesir",))})
    counts = centre_counts(s9, position)
    assert counts["Aesir"] == 2 + 1 + 1 and counts["Dokkalfar"] == 2 + 1
    assert counts["Jotnar"] == 2


def test_the_last_survivor_wins_and_no_survivor_means_all_lose(
        s9: lawspeaker.Variant) -> None:
    """§3.4 (Alternate Endgame Criteria), on in S9 Complete by default."""
    position = census_of(s9)
    one = {p: (o if o == "Ymir" or o not in s9.powers else o.upper())
           for p, o in position.owners.items()}
    assert victory(s9, position.replace(owners=one), s9.rules) == \
        "Solo: Ymir (the last surviving player)"
    none = {p: o for p, o in position.owners.items() if o not in s9.powers}
    assert victory(s9, position.replace(owners=none), s9.rules).startswith("Lost")
    assert victory(s9, position.replace(owners=none),
                   s9.rules.with_options(last_survivor_wins=False)) is None


def test_centre_counts_count_only_supply_centres() -> None:
    """A province that is no supply centre counts for nothing, even when a position
    names an owner for it (the quick count of one per centre must not count it)."""
    standard = lawspeaker.load_variant("standard")
    start = lawspeaker.initial_position(standard)
    assert centre_counts(standard, start)["France"] == 3
    odd = start.replace(owners={**start.owners, "bur": "France", "pic": "France"})
    assert centre_counts(standard, odd)["France"] == 3
    assert centre_counts(standard, start.replace(owners={**start.owners, "bel": "France"}))[
        "France"] == 4
