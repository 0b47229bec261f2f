"""The standard map as data: every fact a rulebook map shows, in one place.

If the map data is ever corrected, the tables here are what to check against
the printed board (Avalon Hill 2000/2023 rulebook map).
"""

from __future__ import annotations

from collections import Counter

import pytest

import lawspeaker
from lawspeaker import Terrain, UnitType

SEAS = {"adr", "aeg", "bal", "bar", "bla", "bot", "eas", "eng", "gol", "hel", "ion", "iri",
        "mid", "nat", "nrg", "nth", "ska", "tys", "wes"}
INLAND = {"boh", "bud", "bur", "gal", "mos", "mun", "par", "ruh", "ser", "sil", "tyr", "ukr",
          "vie", "war"}
NEUTRAL_CENTRES = {"bel", "bul", "den", "gre", "hol", "nwy", "por", "rum", "ser", "spa", "swe",
                   "tun"}

#: power -> (adjective, abbreviation, capital, homes, starting units)
POWERS = {
    "Austria": ("Austrian", "A", "vie", {"vie", "bud", "tri"}, {"A vie", "A bud", "F tri"}),
    "England": ("English", "E", "lon", {"lon", "edi", "lvp"}, {"F lon", "F edi", "A lvp"}),
    "France": ("French", "F", "par", {"par", "bre", "mar"}, {"F bre", "A par", "A mar"}),
    "Germany": ("German", "G", "ber", {"ber", "kie", "mun"}, {"F kie", "A ber", "A mun"}),
    "Italy": ("Italian", "I", "rom", {"rom", "nap", "ven"}, {"F nap", "A rom", "A ven"}),
    "Russia": ("Russian", "R", "mos", {"mos", "war", "sev", "stp"},
               {"A mos", "A war", "F sev", "F stp/sc"}),
    "Turkey": ("Turkish", "T", "con", {"con", "ank", "smy"}, {"F ank", "A con", "A smy"}),
}

#: Each split coast and the exact fleet neighbours of each coast.
COAST_LINKS = {
    "spa/nc": {"gas", "mid", "por"},
    "spa/sc": {"gol", "mar", "mid", "por", "wes"},
    "stp/nc": {"bar", "nwy"},
    "stp/sc": {"bot", "fin", "lvn"},
    "bul/ec": {"bla", "con", "rum"},
    "bul/sc": {"aeg", "con", "gre"},
}
ARMY_LINKS_OF_SPLIT = {
    "spa": {"gas", "mar", "por"},
    "stp": {"fin", "lvn", "mos", "nwy"},
    "bul": {"con", "gre", "rum", "ser"},
}

#: "Unit src - dst" moves the printed map allows. Checked in both directions.
ADJACENT = [
    "A rom - ven", "A kie - den", "F kie - den", "A con - bul", "F con - bul/ec",
    "F con - bul/sc", "A swe - den", "F swe - den", "A nwy - stp", "F nwy - stp/nc",
    "A fin - nwy", "A gas - spa", "F gas - spa/nc", "A mar - spa", "F mar - spa/sc",
    "A por - spa", "F por - spa/nc", "F por - spa/sc", "A bre - pic", "F bre - pic",
    "A bur - mar", "A pie - ven", "A apu - rom", "A arm - syr", "A ank - smy", "A lvp - edi",
    "A wal - yor", "A pru - sil", "F bal - bot", "F ska - nth", "F ska - nwy", "F ska - den",
    "F ska - swe", "F mid - spa/nc", "F mid - spa/sc", "F gol - spa/sc", "F wes - spa/sc",
    "F bla - bul/ec", "F aeg - bul/sc", "F rum - bul/ec", "F gre - bul/sc", "F bot - stp/sc",
    "F bar - stp/nc", "F fin - stp/sc", "F lvn - stp/sc", "A stp - mos", "F tun - naf",
    "A tyr - ven", "F lon - wal", "F den - hel", "F nth - nwy", "F ion - tun",
]

#: Moves the printed map does NOT allow: the traps players fall into.
NOT_ADJACENT = [
    "F rom - ven",       # Rome and Venice share no coast
    "F nwy - stp/sc",    # Norway touches only the north coast
    "F fin - nwy",       # no coast between Finland and Norway
    "F gas - spa/sc", "F mar - spa/nc",
    "F pie - ven", "F apu - rom", "F arm - syr", "F ank - smy", "F lvp - edi", "F wal - yor",
    "F nth - pic", "F eng - hol", "F bla - bul/sc", "F aeg - bul/ec", "F gol - spa/nc",
    "F spa/nc - spa/sc", "F stp/nc - stp/sc",
    "A den - nwy", "F den - nwy", "A kie - swe", "A lon - nwy", "A mun - war",
    "A lon - nth",       # armies never enter the sea
    "F bre - par",       # fleets never enter inland spaces
    "A bur - swi",       # Switzerland is impassable and not on the map
    "F mid - spa",       # a fleet needs the coast when it could reach both
]


def _parse_fact(fact: str) -> tuple[UnitType, str, str]:
    letter, src, _, dst = fact.split()
    return UnitType(letter), src, dst


def test_standard_variant_has_no_data_problems() -> None:
    """`lawspeaker map check standard` is clean."""
    assert lawspeaker.check_variant("standard") == []


def test_standard_map_has_75_provinces_and_34_centres(game_map: lawspeaker.GameMap) -> None:
    """Rulebook: 75 provinces (Switzerland impassable, left out), 34 supply centres."""
    assert len(game_map.provinces) == 75
    assert sum(p.is_sc for p in game_map.provinces.values()) == 34
    assert "swi" not in game_map.provinces


def test_standard_map_terrain_counts(game_map: lawspeaker.GameMap) -> None:
    """19 sea, 14 inland and 42 coastal provinces."""
    counts = Counter(p.terrain for p in game_map.provinces.values())
    assert counts == {Terrain.SEA: 19, Terrain.LAND: 14, Terrain.COASTAL: 42}
    assert {k for k, p in game_map.provinces.items() if p.terrain is Terrain.SEA} == SEAS
    assert {k for k, p in game_map.provinces.items() if p.terrain is Terrain.LAND} == INLAND


def test_only_open_seas_can_convoy(game_map: lawspeaker.GameMap) -> None:
    """Rulebook: only fleets in sea spaces may convoy."""
    assert {k for k, p in game_map.provinces.items() if p.can_convoy} == SEAS


def test_split_coast_provinces_are_spain_st_petersburg_and_bulgaria(
        game_map: lawspeaker.GameMap) -> None:
    """Three provinces have two coasts: Spa nc/sc, StP nc/sc, Bul ec/sc."""
    split = {k: p.coasts for k, p in game_map.provinces.items() if p.coasts}
    assert split == {"spa": ("nc", "sc"), "stp": ("nc", "sc"), "bul": ("ec", "sc")}


@pytest.mark.parametrize("coast", sorted(COAST_LINKS))
def test_split_coast_fleet_neighbours(game_map: lawspeaker.GameMap, coast: str) -> None:
    """Each coast of a split province borders exactly the spaces the map draws."""
    assert set(game_map.fleet_links[coast]) == COAST_LINKS[coast]


@pytest.mark.parametrize("province", sorted(ARMY_LINKS_OF_SPLIT))
def test_split_coast_army_neighbours(game_map: lawspeaker.GameMap, province: str) -> None:
    """Armies ignore coasts: one set of land borders per split province."""
    assert set(game_map.army_links[province]) == ARMY_LINKS_OF_SPLIT[province]


def test_neutral_centres(game_map: lawspeaker.GameMap, variant: lawspeaker.Variant) -> None:
    """12 centres belong to no power at the start."""
    homes = {h for p in variant.powers.values() for h in p.homes}
    centres = {k for k, p in game_map.provinces.items() if p.is_sc}
    assert centres - homes == NEUTRAL_CENTRES
    assert homes <= centres


def test_seven_powers_with_homes_capitals_and_starting_units(
        variant: lawspeaker.Variant) -> None:
    """Rulebook: seven Great Powers, each with its home centres and starting units."""
    assert set(variant.powers) == set(POWERS)
    for name, (adjective, abbreviation, capital, homes, units) in POWERS.items():
        power = variant.powers[name]
        assert (power.adjective, power.abbreviation, power.capital) == (
            adjective, abbreviation, capital)
        assert set(power.homes) == homes
        assert {str(u) for u in variant.starting_units if u.power == name} == units


def test_22_starting_units_with_russia_having_four(variant: lawspeaker.Variant) -> None:
    """Rulebook: each power starts with three units except Russia, which has four."""
    per_power = Counter(u.power for u in variant.starting_units)
    assert sum(per_power.values()) == 22
    assert per_power["Russia"] == 4
    assert {p for p, n in per_power.items() if n == 3} == set(POWERS) - {"Russia"}


def test_starting_units_stand_on_their_own_home_centres(variant: lawspeaker.Variant) -> None:
    """Every starting unit is on a home centre of its power."""
    for unit in variant.starting_units:
        assert unit.province in variant.powers[unit.power].homes


def test_standard_calendar_and_rules(variant: lawspeaker.Variant) -> None:
    """Spring and Fall moves with retreats, Winter adjustments; 18 centres win."""
    assert variant.first_year == 1901
    assert [(s, k.value) for s, k in variant.phases] == [
        ("Spring", "movement"), ("Spring", "retreat"), ("Fall", "movement"),
        ("Fall", "retreat"), ("Winter", "adjustment")]
    assert variant.rules.victory_centres == 18
    assert variant.rules.builds is lawspeaker.BuildRule.HOME
    assert variant.reconstructed is False


@pytest.mark.parametrize("fact", ADJACENT)
def test_map_allows_move(game_map: lawspeaker.GameMap, fact: str) -> None:
    """The printed map draws this border for this unit type, in both directions."""
    unit_type, src, dst = _parse_fact(fact)
    assert game_map.can_move(unit_type, src, dst)
    assert game_map.can_move(unit_type, dst, src)


@pytest.mark.parametrize("fact", NOT_ADJACENT)
def test_map_forbids_move(game_map: lawspeaker.GameMap, fact: str) -> None:
    """The printed map has no such border for this unit type."""
    unit_type, src, dst = _parse_fact(fact)
    assert not game_map.can_move(unit_type, src, dst)


def test_every_border_is_listed_on_both_sides(game_map: lawspeaker.GameMap) -> None:
    """Adjacency is symmetric for armies and for fleets (per coast)."""
    for src, targets in game_map.army_links.items():
        for dst in targets:
            assert src in game_map.army_links[dst], f"A {src} - {dst}"
    for src, targets in game_map.fleet_links.items():
        for dst in targets:
            assert src in game_map.fleet_links[dst], f"F {src} - {dst}"


def test_inland_provinces_have_no_fleet_borders_and_seas_no_army_borders(
        game_map: lawspeaker.GameMap) -> None:
    """Fleets cannot enter inland provinces; armies cannot enter seas."""
    for key in INLAND:
        assert not game_map.fleet_links[key]
        assert all(key not in ts for ts in game_map.fleet_links.values())
    for key in SEAS:
        assert not game_map.army_links[key]
        assert all(key not in ts for ts in game_map.army_links.values())
