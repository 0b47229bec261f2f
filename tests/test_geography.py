"""GameMap queries on the standard map: names, adjacency, convoy routes."""

from __future__ import annotations

import pytest

import lawspeaker
from lawspeaker import UnitType, UnknownNameError
from lawspeaker.core.geography import normalise_name, province_of

A, F = UnitType.ARMY, UnitType.FLEET


# --- names ------------------------------------------------------------------


@pytest.mark.parametrize("text,key", [
    ("lon", "lon"),                        # the key
    ("North Sea", "nth"),                  # the full name
    ("MAO", "mid"), ("Gulf of Lions", "gol"), ("nwg", "nrg"), ("Channel", "eng"),  # aliases
    ("Saint Petersburg", "stp"), ("Marseille", "mar"),
    ("Yor", "yor"), ("Yorksh", "yor"), ("Bohem", "boh"), ("Tyrr", "tys"),  # prefixes
    ("Mid-Atlantic", "mid"), ("Mid Atlantic Ocean", "mid"),
])
def test_lookup_accepts_key_name_alias_and_unique_prefix(
        game_map: lawspeaker.GameMap, text: str, key: str) -> None:
    """S9 §5.1: a space may be named by its key, name, alias or first letters."""
    assert game_map.lookup(text) == key


@pytest.mark.parametrize("text,key", [
    ("LONDON", "lon"), ("london", "lon"), ("Lóndon", "lon"), ("Münich", "mun"),
    ("st. petersburg", "stp"), ("ST-PETERSBURG", "stp"), ("  north   sea ", "nth"),
])
def test_lookup_ignores_case_diacritics_punctuation_and_spacing(
        game_map: lawspeaker.GameMap, text: str, key: str) -> None:
    """Players may type names with or without capitals and accents."""
    assert game_map.lookup(text) == key


def test_normalise_name_folds_diacritics_case_and_hyphens() -> None:
    """'Lübeck', 'lubeck' and 'LUBECK' normalise alike."""
    assert normalise_name("Lübeck") == normalise_name("LUBECK") == "lubeck"
    assert normalise_name("Mid-Atlantic  Ocean") == "mid atlantic ocean"
    assert normalise_name("St. Petersburg") == "st petersburg"


def test_ambiguous_prefix_raises_with_every_candidate(game_map: lawspeaker.GameMap) -> None:
    """'Gulf' could be the Gulf of Bothnia or the Gulf of Lyon: refuse to guess."""
    with pytest.raises(UnknownNameError) as caught:
        game_map.lookup("Gulf")
    assert caught.value.ambiguous is True
    assert caught.value.candidates == ("Gulf of Bothnia", "Gulf of Lyon")
    assert "ambiguous" in str(caught.value)


def test_two_letter_prefix_shared_by_many_spaces_is_ambiguous(
        game_map: lawspeaker.GameMap) -> None:
    """'No' starts North Sea, Norway, Norwegian Sea, North Atlantic and North Africa."""
    with pytest.raises(UnknownNameError) as caught:
        game_map.lookup("No")
    assert caught.value.ambiguous
    assert set(caught.value.candidates) == {"North Africa", "North Atlantic Ocean",
                                           "Norwegian Sea", "North Sea", "Norway"}


@pytest.mark.parametrize("text,suggestions", [
    ("Belgum", ("Belgium",)),
    ("Londn", ("London",)),
    ("Norwegan", ("Norwegian Sea", "Norway")),
])
def test_misspelling_suggests_nearest_names(
        game_map: lawspeaker.GameMap, text: str, suggestions: tuple[str, ...]) -> None:
    """An unknown name is an error that offers the nearest real names."""
    with pytest.raises(UnknownNameError) as caught:
        game_map.lookup(text)
    assert caught.value.ambiguous is False
    assert caught.value.candidates == suggestions
    assert f"did you mean {suggestions[0]}" in str(caught.value)


def test_nonsense_name_has_no_suggestions(game_map: lawspeaker.GameMap) -> None:
    """Nothing close: the error says so without guessing."""
    with pytest.raises(UnknownNameError) as caught:
        game_map.lookup("Xqzzy")
    assert caught.value.candidates == ()
    assert str(caught.value) == "unknown space 'Xqzzy'"


def test_unknown_name_error_is_a_value_error() -> None:
    """Callers catching ValueError see bad names too."""
    assert issubclass(UnknownNameError, ValueError)


@pytest.mark.parametrize("location,name", [
    ("lon", "London"), ("spa/nc", "Spain (north coast)"), ("spa/sc", "Spain (south coast)"),
    ("stp/sc", "St. Petersburg (south coast)"), ("bul/ec", "Bulgaria (east coast)"),
    ("mid", "Mid-Atlantic Ocean"),
])
def test_name_of_prints_coasts_in_words(
        game_map: lawspeaker.GameMap, location: str, name: str) -> None:
    """A GM publishes 'Spain (north coast)', not 'spa/nc'."""
    assert game_map.name_of(location) == name


def test_province_of_strips_the_coast() -> None:
    """A location's province is the part before the slash."""
    assert province_of("spa/nc") == "spa"
    assert province_of("lon") == "lon"


# --- adjacency ----------------------------------------------------------------


def test_fleet_may_support_into_a_coast_it_cannot_reach(game_map: lawspeaker.GameMap) -> None:
    """DATC 6.B.4: F Mar cannot move to Spa(nc) but reaches Spain, so may support there."""
    assert not game_map.can_move(F, "mar", "spa/nc")
    assert game_map.reaches(F, "mar", "spa")


def test_fleet_on_north_coast_does_not_reach_gulf_of_lyon(game_map: lawspeaker.GameMap) -> None:
    """DATC 6.B.5: Spain borders the Gulf of Lyon, but not from its north coast."""
    assert not game_map.reaches(F, "spa/nc", "gol")
    assert not game_map.can_move(F, "spa/nc", "gol")
    assert game_map.reaches(F, "spa/sc", "gol")


def test_fleet_move_to_split_province_needs_the_coast(game_map: lawspeaker.GameMap) -> None:
    """can_move takes locations: 'spa' is not a place a fleet can stand."""
    assert not game_map.can_move(F, "mid", "spa")
    assert game_map.can_move(F, "mid", "spa/nc")
    assert sorted(game_map.fleet_targets("mid", "spa")) == ["spa/nc", "spa/sc"]
    assert game_map.fleet_targets("gas", "spa") == ["spa/nc"]
    assert game_map.fleet_targets("bre", "spa") == []


def test_army_reaches_only_land_neighbours(game_map: lawspeaker.GameMap) -> None:
    """Armies move over land borders; the sea is not a place they can reach."""
    assert game_map.reaches(A, "par", "bur")
    assert not game_map.reaches(A, "lon", "nth")
    assert game_map.neighbours(A, "par") == {"bre", "bur", "gas", "pic"}
    assert game_map.neighbours(F, "stp/nc") == {"bar", "nwy"}


@pytest.mark.parametrize("unit_type,location,valid", [
    (A, "spa", True), (A, "spa/nc", False), (A, "nth", False), (A, "par", True),
    (F, "spa", False), (F, "spa/nc", True), (F, "par", False), (F, "nth", True),
    (F, "lon", True), (A, "swi", False),
])
def test_where_each_unit_type_may_stand(
        game_map: lawspeaker.GameMap, unit_type: UnitType, location: str, valid: bool) -> None:
    """Armies on land, fleets at sea or on a named coast."""
    assert game_map.is_valid_location(unit_type, location) is valid


def test_touching_counts_every_border_whoever_crosses_it(game_map: lawspeaker.GameMap) -> None:
    """Spain touches its army and fleet neighbours on both coasts."""
    assert game_map.touching("spa") == {"gas", "mar", "por", "mid", "gol", "wes"}
    assert game_map.touching("mun") == {"ber", "boh", "bur", "kie", "ruh", "sil", "tyr"}


# --- convoys -------------------------------------------------------------------


def test_convoy_path_exists_from_coast_to_coast(game_map: lawspeaker.GameMap) -> None:
    """London to Belgium: via the North Sea or the Channel."""
    assert game_map.convoy_path_exists("lon", "bel")
    assert game_map.convoy_path_exists("lon", "bel", seas=["nth"])
    assert game_map.convoy_path_exists("lon", "bel", seas=["eng"])
    assert not game_map.convoy_path_exists("lon", "bel", seas=["hel"])


def test_convoy_path_never_uses_the_avoided_sea(game_map: lawspeaker.GameMap) -> None:
    """DATC 6.D.31 needs 'could it be convoyed without this fleet?'."""
    assert not game_map.convoy_path_exists("lon", "bel", seas=["nth"], avoid="nth")
    assert game_map.convoy_path_exists("lon", "bel", seas=["nth", "eng"], avoid="nth")


def test_long_convoy_needs_every_link_of_the_chain(game_map: lawspeaker.GameMap) -> None:
    """London to Tunis needs the Channel, Mid-Atlantic and Western Mediterranean."""
    assert game_map.convoy_path_exists("lon", "tun", seas=["eng", "mid", "wes"])
    assert not game_map.convoy_path_exists("lon", "tun", seas=["eng", "wes"])


def test_convoy_chain_uses_only_sea_spaces(game_map: lawspeaker.GameMap) -> None:
    """Rulebook: fleets on coasts cannot convoy, so Denmark is no stepping stone."""
    assert not game_map.convoy_path_exists("hol", "swe", seas=["hel", "den"])
    assert game_map.convoy_path_exists("hol", "swe", seas=["nth", "ska"])


def test_inland_armies_cannot_be_convoyed(game_map: lawspeaker.GameMap) -> None:
    """Only armies in coastal provinces may board a convoy."""
    assert not game_map.convoy_path_exists("mun", "lon")
    assert not game_map.convoy_path_exists("lon", "par")
    assert game_map.convoy_route_seas("par", "lon") == frozenset()


def test_minimal_convoy_routes_marseilles_to_spain(game_map: lawspeaker.GameMap) -> None:
    """DATC 6.G.19: Mar-Spa by sea needs only the Gulf of Lyon; the Western Med is never
    needed, since it touches the Gulf of Lyon."""
    seas = game_map.convoy_route_seas("mar", "spa")
    assert "gol" in seas
    assert "wes" not in seas
    assert seas == {"gol"}


def test_minimal_convoy_routes_sweden_to_norway(game_map: lawspeaker.GameMap) -> None:
    """DATC 6.G.7: Swe-Nwy by sea goes through the Skagerrak, never the Gulf of Bothnia."""
    assert game_map.convoy_route_seas("swe", "nwy") == {"ska"}


def test_minimal_convoy_routes_london_to_belgium(game_map: lawspeaker.GameMap) -> None:
    """Two single-fleet routes: the North Sea and the English Channel."""
    assert game_map.convoy_route_seas("lon", "bel") == {"nth", "eng"}


def test_minimal_routes_keep_every_fleet_of_a_long_chain(game_map: lawspeaker.GameMap) -> None:
    """London to Tunis: Channel-Mid-Atlantic-Western Med, or round Scotland through the
    North Sea, Norwegian Sea and North Atlantic; no other sea is ever needed."""
    assert game_map.convoy_route_seas("lon", "tun") == {"eng", "mid", "wes", "nth", "nrg", "nat"}


def test_no_convoy_route_through_coastal_fleets(game_map: lawspeaker.GameMap) -> None:
    """DATC 6.F.1: Greece to Sevastopol would need a fleet in Constantinople: no route."""
    assert game_map.convoy_route_seas("gre", "sev") == frozenset()
    assert not game_map.convoy_path_exists("gre", "sev")
