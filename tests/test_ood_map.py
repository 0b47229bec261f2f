"""Order of the Dragon (OOD) v1.2.0 map and setup: every fact the rulebook states, and sanity.

The OOD adjacency diagram (rules §4.3) is not available, so ``ood/map.yaml`` is a
reconstruction (docs/ood-map.md). These tests pin down what the rulebook (seed 002) states or
forces, each tagged with its id in /work/shared/reference/ood-map-facts.md (OOD-A01..A48 for
adjacency; sections a, b and d by name), plus the connectivity the reconstruction promises. A
GM who gets the official diagram can replace the links in map.yaml and rerun this file: the
fact tests must still pass; the sanity tests say where the official map differs.
"""

from __future__ import annotations

import re
from collections import Counter, deque
from pathlib import Path

import pytest
from ruamel.yaml import YAML

import lawspeaker
from lawspeaker import Phase, PhaseKind, Position, Terrain, UnitType, adjudicate, parse_order
from lawspeaker.core.board import PowerState
from lawspeaker.core.geography import UnknownNameError, normalise_name, province_of
from lawspeaker.engine.adjustments import minor_rebuilds
from lawspeaker.engine.phases import initial_position
from lawspeaker.rules.dp import allotment
from lawspeaker.variants import VARIANTS_DIR

A, F = UnitType.ARMY, UnitType.FLEET
OOD_DIR = VARIANTS_DIR / "ood"

#: The 111 spaces of §5.1: name -> abbreviation.
SECTION_5_1 = {
    "Adriatic Sea": "Adr", "Aegean Sea": "Aeg", "Aix": "Aix", "Albania": "Alb", "Aleppo": "Ale",
    "Amasya": "Ama", "Arabia": "Ara", "Argeş": "Arg", "Aydin": "Ayd", "Baltic Sea": "Bal",
    "Bavaria": "Bav", "Bay of Biscay": "BOB", "Black Sea": "Bla", "Bohemia": "Boh",
    "Bordeaux": "Bor", "Bosnia": "Bos", "Bourbon": "Bou", "Brandenburg": "Bra", "Burgos": "Brg",
    "Bursa": "Brs", "Cairo": "Cai", "Cantons": "Can", "Caspian Sea": "Cas", "Champagne": "Cha",
    "Circassia": "Cir", "Cologne": "Col", "Constantinople": "Con", "Crimea": "Cri",
    "Dauphine": "Dau", "Dijon": "Dij", "Dvina": "Dvi", "Eastern Mediterranean Sea": "Eas",
    "Edinburgh": "Edi", "Edirne": "Edr", "Éire": "Eir", "English Channel": "Eng",
    "Erzurum": "Erz", "Finland": "Fin", "Florence": "Flo", "Genoa": "Gen", "Ghent": "Ghe",
    "Granada": "Gra", "Gulf of Bothnia": "GOB", "Gulf of Cádiz": "GOC", "Gulf of Gabes": "GOG",
    "Gulf of Lyon": "GOL", "Havasok": "Hav", "Ionian Sea": "Ion", "Irish Sea": "Iri",
    "Kerch": "Ker", "Kiev": "Kie", "Knin": "Kni", "Konya": "Kon", "Krakow": "Kra",
    "Languedoc": "Lan", "Leon": "Leo", "Lisbon": "Lis", "London": "Lon", "Lübeck": "Lub",
    "Mainz": "Mai", "Mesopotamia": "Mes", "Mid Atlantic Ocean": "MAO", "Milan": "Mil",
    "Moldavia": "Mol", "Morocco": "Mor", "Moscow": "Mos", "Napoli": "Nap", "Navarre": "Nav",
    "Normandy": "Nmd", "North Atlantic Ocean": "NAO", "Norway": "Nwy", "Norwegian Sea": "Nwg",
    "Novgorod": "Nov", "Ofen": "Ofe", "Palestine": "Pal", "Paris": "Par", "Prussia": "Pru",
    "Qazan": "Qaz", "Rennes": "Ren", "Riga": "Rig", "Rome": "Rom", "Roskilde": "Ros",
    "Sahara": "Sah", "Salonica": "Sal", "Sarai": "Sar", "Serbia": "Ser", "Sicily": "Sic",
    "Sivas": "Siv", "Skagerrak": "Ska", "Smolensk": "Smo", "Stockholm": "Sto",
    "The Pale": "ThP", "The Wash": "Was", "Tiflis": "Tif", "Tlemcen": "Tle", "Toledo": "Tol",
    "Transylvania": "Tra", "Trebizond": "Tre", "Tunis": "Tun", "Turin": "Tur",
    "Tyrrhennian Sea": "TyS", "Venice": "Ven", "Verdun": "Ver", "Vienna": "Vie",
    "Vilnius": "Vil", "Volga-Don": "Vol", "Wadden Sea": "Wad", "Wales": "Wal",
    "Western Mediterranean": "Wes", "York": "Yor", "Zaragoza": "Zar",
}

#: §5.1 "Potentially Ambiguous Abbreviations", and the other look-alikes in facts section a.
AMBIGUOUS = {
    "Brg": "Burgos", "Brs": "Bursa", "Edi": "Edinburgh", "Edr": "Edirne", "Nmd": "Normandy",
    "NAO": "North Atlantic Ocean", "Nwy": "Norway", "Nwg": "Norwegian Sea", "Pal": "Palestine",
    "ThP": "The Pale", "Bra": "Brandenburg", "Kra": "Krakow", "Mor": "Morocco",
    "Mol": "Moldavia", "Ara": "Arabia",
}

#: Names with diacritics (§5.1) and how players may type them without.
DIACRITICS = {"Argeş": "Arges", "Éire": "Eire", "Gulf of Cádiz": "Gulf of Cadiz",
              "Lübeck": "Lubeck"}

#: Other spellings the rulebook itself uses.
SPELLINGS = {
    "Tyrrhenian Sea": "Tyrrhennian Sea",                   # §5.3.6 heading vs the §5.1 table
    "Western Mediterranean Sea": "Western Mediterranean",  # §5.2.4
    "Eastern Mediterranean": "Eastern Mediterranean Sea",  # §5.1 table layout
    "Aix-en-Provence": "Aix",                              # §6.9
}

#: power -> (abbreviation, adjective, colour word, capital, homes, starting units, heir at start)
POWERS = {
    "Burgundy": ("BU", "Burgundian", "slate", "Dijon", {"Dijon", "Ghent"},
                 {"A Dijon", "A Ghent"}, "Verdun"),
    "Castile": ("CA", "Castilian", "maroon", "Burgos", {"Burgos", "Toledo"},
                {"A Burgos", "F Toledo/wc"}, "Zaragoza"),
    "England": ("EN", "English", "pink", "London", {"London", "York"},
                {"F London", "A York"}, "Bordeaux"),
    "Golden Horde": ("GH", "Golden Horde", "teal blue", "Sarai", {"Sarai", "Qazan"},
                     {"A Sarai", "A Qazan"}, "Kerch"),
    "Hungary": ("HU", "Hungarian", "red", "Ofen", {"Ofen", "Knin"}, {"A Ofen", "A Knin"},
                "Brandenburg"),
    "Kalmar Union": ("KU", "Kalmar", "lemon yellow", "Roskilde", {"Roskilde", "Stockholm"},
                     {"A Roskilde", "F Stockholm"}, "Roskilde"),
    "Lithuania": ("LI", "Lithuanian", "vivid blue", "Vilnius", {"Vilnius", "Kiev"},
                  {"A Vilnius", "A Kiev"}, "Krakow"),
    "Mamluks": ("MA", "Mamluk", "orange-yellow", "Cairo", {"Cairo", "Aleppo"},
                {"A Cairo", "A Aleppo"}, "Sivas"),
    "Naples": ("NA", "Neapolitan", "pale grey", "Napoli", {"Napoli", "Aix"},
               {"F Napoli", "A Aix"}, "Rome"),
    "Ottomans": ("OT", "Ottoman", "green", "Amasya", {"Amasya", "Bursa"},
                 {"A Amasya", "A Bursa"}, "Amasya"),
}

#: §6.1-§6.9: the eight starting Thralls (v1.2.0 added Verdun, §11.0): centre -> (controller, unit)
THRALLS = {
    "Verdun": ("Burgundy", "A"), "Zaragoza": ("Castile", "A"), "Bordeaux": ("England", "A"),
    "Kerch": ("Golden Horde", "F"), "Brandenburg": ("Hungary", "A"), "Krakow": ("Lithuania", "A"),
    "Sivas": ("Mamluks", "A"), "Rome": ("Naples", "A"),
}

#: §6.11: the 22 Minor powers and their units (with the coast when the text gives one).
MINORS = {
    "Argeş": "A", "Cologne": "A", "Constantinople": "A", "Edinburgh": "A", "Edirne": "A",
    "Erzurum": "A", "Florence": "A", "Lisbon": "F", "Lübeck": "F/ec", "Mainz": "A",
    "Moscow": "A", "Novgorod": "A", "Paris": "A", "Rennes": "A", "Riga": "A", "Salonica": "F",
    "Tiflis": "A", "Tlemcen": "A", "Tunis": "F", "Turin": "A", "Venice": "F", "Vienna": "A",
}

#: §5.2: the six split-coast provinces (§4.3/§5.3.4 write only "-wc"; "-ec" by analogy, and
#: Rome's "south & north" coasts are sc/nc).
SPLIT_COASTS = {"Circassia": ("wc", "ec"), "Sarai": ("wc", "ec"), "Lübeck": ("wc", "ec"),
                "Rome": ("sc", "nc"), "Toledo": ("wc", "ec"), "York": ("wc", "ec")}

#: §5.3: the spaces the text calls canals.
CANALS = {"Edinburgh", "The Pale", "Roskilde", "Stockholm", "Napoli", "Sicily"}

#: Stated fleet adjacencies between locations: id -> (one, other). Names, optionally "/coast".
FLEET_LINKS = {
    "OOD-A02": ("Lisbon", "Toledo/wc"),
    "OOD-A03": ("Circassia/ec", "Sarai/ec"),
    "OOD-A05": ("Sarai/wc", "Kerch"),
    "OOD-A06": ("Circassia/wc", "Kerch"),
    "OOD-A08 west": ("Roskilde", "Lübeck/wc"),
    "OOD-A08 east": ("Roskilde", "Lübeck/ec"),
    "OOD-A09 south": ("Napoli", "Rome/sc"),
    "OOD-A09 north": ("Napoli", "Rome/nc"),
    "OOD-A10 west": ("Granada", "Toledo/wc"),
    "OOD-A10 east": ("Granada", "Toledo/ec"),
    "OOD-A11 west": ("Western Mediterranean", "Toledo/wc"),
    "OOD-A11 east": ("Western Mediterranean", "Toledo/ec"),
    "OOD-A12 west": ("Edinburgh", "York/wc"),
    "OOD-A12 east": ("Edinburgh", "York/ec"),
    "OOD-A14": ("Burgos", "Bordeaux"),
    "OOD-A15": ("Burgos", "Bay of Biscay"),
    "OOD-A16": ("Bordeaux", "Bay of Biscay"),
    "OOD-A19": ("Aegean Sea", "Edirne"),
    "OOD-A20": ("Aegean Sea", "Bursa"),
    "OOD-A21": ("Edirne", "Constantinople"),
    "OOD-A22": ("Bursa", "Constantinople"),
    "OOD-A23": ("Constantinople", "Black Sea"),
    "OOD-A27": ("Edinburgh", "The Pale"),
    "OOD-A31": ("Napoli", "Sicily"),
    "OOD-A32": ("Turin", "Aix"),
    "OOD-A33": ("Turin", "Genoa"),
    "OOD-A34": ("Aix", "Genoa"),
    "OOD-A36": ("Vienna", "Venice"),
    "OOD-A37": ("Venice", "Knin"),
    "OOD-A39": ("Tunis", "Cairo"),
    "OOD-A40": ("Stockholm", "Finland"),
    "OOD-A46": ("Tunis", "Ionian Sea"),
    "OOD-A47": ("Napoli", "Ionian Sea"),
}

#: Stated army adjacencies.
ARMY_LINKS = {
    "OOD-A02": ("Lisbon", "Toledo"),       # §4.3: the purple line's army end is the base node
    "OOD-A27": ("Edinburgh", "The Pale"),  # "adjacent canal spaces"
    "OOD-A39": ("Tunis", "Cairo"),         # arrow: "adjacent for all purposes"
    "OOD-A40": ("Stockholm", "Finland"),   # arrow
    "OOD-A44": ("Brandenburg", "Prussia"),  # Ex 9.1.1
    "OOD-A45": ("Vilnius", "Prussia"),     # Ex 9.1.1
}

#: Stated non-adjacencies: id -> (one, other, whether armies are barred too). Fleets are
#: barred on every coast named; OOD-A38 is about Vienna's coast only.
NOT_ADJACENT = {
    "OOD-A04/A07 west": ("Circassia/wc", "Sarai/wc", False),
    "OOD-A07 east": ("Circassia/wc", "Sarai/ec", False),
    "OOD-A18": ("Black Sea", "Aegean Sea", False),
    "OOD-A24": ("Constantinople", "Aegean Sea", False),
    "OOD-A25 Edirne": ("Edirne", "Black Sea", False),
    "OOD-A25 Bursa": ("Bursa", "Black Sea", False),
    "OOD-A26": ("Irish Sea", "North Atlantic Ocean", False),
    "OOD-A30": ("Ionian Sea", "Tyrrhennian Sea", False),
    "OOD-A38": ("Vienna", "Knin", False),
    "OOD-A41": ("Norway", "Finland", True),
    "OOD-A42": ("Norway", "Novgorod", True),
}

#: Where an army starts or is ordered to move (facts section a): it can stand there.
ARMY_SPACES = ["Aix", "Aleppo", "Amasya", "Argeş", "Bordeaux", "Brandenburg", "Burgos", "Bursa",
               "Cairo", "Cologne", "Constantinople", "Dijon", "Edinburgh", "Edirne", "Erzurum",
               "Florence", "Ghent", "Kiev", "Knin", "Krakow", "Mainz", "Moscow", "Novgorod",
               "Ofen", "Paris", "Prussia", "Qazan", "Rennes", "Riga", "Rome", "Roskilde",
               "Sarai", "Sivas", "Tiflis", "Tlemcen", "Turin", "Verdun", "Vienna", "Vilnius",
               "York", "Zaragoza"]
#: Where a fleet starts (facts section a).
FLEET_SPACES = ["Kerch", "Lisbon", "London", "Lübeck/ec", "Napoli", "Salonica", "Stockholm",
                "Toledo/wc", "Tunis", "Venice"]


@pytest.fixture(scope="module")
def ood() -> lawspeaker.Variant:
    return lawspeaker.load_variant("ood")


@pytest.fixture(scope="module")
def game_map(ood: lawspeaker.Variant) -> lawspeaker.GameMap:
    return ood.map


@pytest.fixture(scope="module")
def start(ood: lawspeaker.Variant) -> Position:
    return initial_position(ood)


@pytest.fixture(scope="module")
def key(game_map: lawspeaker.GameMap):
    """Province key of a name (through the map's own look-up); 'Toledo/wc' -> 'tol/wc'."""
    def find(text: str) -> str:
        name, _, coast = text.partition("/")
        k = game_map.lookup(name)
        return f"{k}/{coast}" if coast else k
    return find


def named(game_map: lawspeaker.GameMap) -> dict[str, lawspeaker.Province]:
    return {k: p for k, p in game_map.provinces.items() if p.terrain is not Terrain.IMPASSABLE}


def holds(game_map: lawspeaker.GameMap, unit: UnitType, location: str) -> bool:
    return game_map.is_valid_location(unit, location)


def reach(game_map: lawspeaker.GameMap, unit: UnitType, start: str) -> dict[str, int]:
    """Moves a unit of this type needs to reach each location from ``start``."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in game_map.neighbours(unit, here):
            if there not in dist:
                dist[there] = dist[here] + 1
                queue.append(there)
    return dist


def locations(game_map: lawspeaker.GameMap, province: str) -> tuple[str, ...]:
    return game_map.provinces[province].locations


def read_yaml(path: Path):
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


# --- section a: spaces, names, abbreviations -----------------------------------------------


def test_111_named_spaces_with_the_section_5_1_names(game_map):
    assert len(SECTION_5_1) == 111
    assert sorted(p.name for p in named(game_map).values()) == sorted(SECTION_5_1)


@pytest.mark.parametrize(("name", "abbreviation"), list(SECTION_5_1.items()))
def test_every_space_answers_to_its_name_and_abbreviation(game_map, name, abbreviation):
    """§5.1: the abbreviation is the key (lower case) and an alias, in any letter case."""
    k = game_map.lookup(name)
    assert k == abbreviation.lower()
    assert abbreviation in game_map.provinces[k].aliases
    for text in (abbreviation, abbreviation.upper(), abbreviation.lower(), name.upper()):
        assert game_map.lookup(text) == k, text


@pytest.mark.parametrize(("abbreviation", "name"), list(AMBIGUOUS.items()))
def test_potentially_ambiguous_abbreviations(game_map, abbreviation, name):
    """§5.1: Brg/Brs, Edi/Edr, Nmd/NAO/Nwy/Nwg, Pal/ThP each name exactly their own space."""
    assert game_map.provinces[game_map.lookup(abbreviation)].name == name


@pytest.mark.parametrize("prefix", ["Bur", "Nor", "Ed", "Gulf"])
def test_an_ambiguous_prefix_is_refused_not_guessed(game_map, prefix):
    """'Bur' could be Burgos or Bursa, 'Nor' any of four spaces: the look-up says so."""
    with pytest.raises(UnknownNameError) as err:
        game_map.lookup(prefix)
    assert err.value.ambiguous


@pytest.mark.parametrize(("name", "plain"), list(DIACRITICS.items()))
def test_names_with_diacritics_are_accepted_with_and_without_them(game_map, name, plain):
    k = game_map.lookup(name)
    assert game_map.provinces[k].name == name  # printed with its diacritics (§5.1)
    assert game_map.lookup(plain) == game_map.lookup(plain.upper()) == k
    assert normalise_name(name) == normalise_name(plain)


@pytest.mark.parametrize(("spelling", "name"), list(SPELLINGS.items()))
def test_other_spellings_the_rulebook_uses(game_map, spelling, name):
    assert game_map.provinces[game_map.lookup(spelling)].name == name


def test_orders_read_names_with_or_without_diacritics_and_coasts(game_map):
    assert str(parse_order(game_map, "F Lübeck (east coast) - Baltic Sea")) == "F lub/ec - bal"
    assert str(parse_order(game_map, "F Lubeck/ec H")) == "F lub/ec H"
    assert str(parse_order(game_map, "A Arges - Transylvania")) == "A arg - tra"
    assert str(parse_order(game_map, "F Lis - Tol (west coast)")) == "F lis - tol/wc"  # §4.3
    assert str(parse_order(game_map, "F Gulf of Cadiz - Lisbon")) == "F goc - lis"


def test_114_provinces_are_111_named_and_3_impassable(game_map):
    impassable = [p for p in game_map.provinces.values() if p.terrain is Terrain.IMPASSABLE]
    assert len(game_map.provinces) == 114
    assert len(named(game_map)) == 111
    assert len(impassable) == 3


def test_50_supply_centres_20_homes_8_thralls_22_minors(ood):
    """§3.0: 50 SCs; at the start 20 belong to Majors, 8 are Thralls, 22 are Minors."""
    m = ood.map
    scs = {k for k, p in m.provinces.items() if p.is_sc}
    homes = [h for p in ood.powers.values() for h in p.homes]
    assert len(scs) == 50 and all(m.provinces[k].sc_value == 1 for k in scs)
    assert len(homes) == len(set(homes)) == 20
    want = {m.lookup(n) for n in [*THRALLS, *MINORS]} | set(homes)
    assert scs == want  # every other space is not a supply centre (facts section a)
    assert set(ood.minors) == scs - set(homes)
    assert len(ood.minors) == 30


# --- section b: powers and the start ---------------------------------------------------------


def test_ten_major_powers(ood):
    assert sorted(ood.powers) == sorted(POWERS)
    assert all(p.kind == "major" for p in ood.powers.values())


@pytest.mark.parametrize("power", sorted(POWERS))
def test_power_abbreviation_capital_homes_units(ood, key, power):
    abbreviation, adjective, _colour, capital, homes, units, _heir = POWERS[power]
    p = ood.powers[power]
    assert p.abbreviation == abbreviation and p.adjective == adjective
    assert p.capital == key(capital)
    assert set(p.homes) == {key(h) for h in homes}
    assert re.fullmatch(r"#[0-9a-fA-F]{6}", p.colour)
    got = {f"{u.type.value} {u.location}" for u in ood.starting_units if u.power == power}
    assert got == {f"{text[0]} {key(text[2:])}" for text in units}
    assert not any(u.stationary for u in ood.starting_units)


def test_colours_and_vassal_initials_are_distinct(ood):
    """§10.4: a Vassal is named v + the givers' and receivers' first initials."""
    assert len({p.colour.lower() for p in ood.powers.values()}) == 10
    initials = [p.abbreviation[0] for p in ood.powers.values()]
    assert sorted(initials) == list("BCEGHKLMNO")
    assert ood.power_named("KU") == "Kalmar Union" and ood.power_named("OT") == "Ottomans"


def test_castile_starts_with_a_fleet_on_toledos_west_coast(ood):
    """§6.2: F Toledo (west coast)."""
    assert lawspeaker.Unit("Castile", F, "tol/wc") in ood.starting_units


def test_starting_units_50(ood, start):
    """Facts section d: 20 Major (16 A, 4 F), 8 Thrall (7 A, 1 F), 22 Minor (17 A, 5 F)."""
    majors = Counter(u.type for u in ood.starting_units)
    assert majors == {A: 16, F: 4}
    kinds = {k: Counter() for k in ("major", "thrall", "minor")}
    for u in start.units.values():
        kinds[start.kind_of(u.power)][u.type] += 1
    assert kinds == {"major": {A: 16, F: 4}, "thrall": {A: 7, F: 1}, "minor": {A: 17, F: 5}}
    assert len(start.units) == 50


@pytest.mark.parametrize("name", sorted(MINORS))
def test_minor_powers_and_their_units(start, key, name):
    """§6.11: each Minor has one stationary unit; Lübeck's fleet is on the east coast."""
    k = key(name)
    unit = start.units[k]
    letter, _, coast = MINORS[name].partition("/")
    assert unit.type.value == letter and unit.stationary
    assert unit.location == (f"{k}/{coast}" if coast else k)
    assert start.owners[k] == unit.power == name
    assert start.kind_of(unit.power) == "minor"


@pytest.mark.parametrize("name", sorted(THRALLS))
def test_thralls_at_the_start(start, key, name):
    """§6.1-§6.9: eight Thralls, each with its unit and its controller's married Heir."""
    controller, letter = THRALLS[name]
    k = key(name)
    unit = start.units[k]
    assert unit.type.value == letter and unit.stationary and unit.location == k
    assert start.owners[k] == unit.power
    state = start.powers_in_play[unit.power]
    assert state.kind == "thrall" and state.controllers == (controller,)
    assert lawspeaker.core.board.Heir(controller, k, True) in start.heirs


def test_eight_married_heirs_and_two_unmarried(ood, start, key):
    """§6.1-§6.10, §3.0, §11.0 v1.2.0: only the Kalmar Union and the Ottomans start with an
    unmarried Heir, in their Capitals; the other eight start married in their Thralls
    (§6.11's "seven Thralls" and §7.1's three unmarried Heirs are stale pre-1.2.0 text)."""
    married = [h for h in start.heirs if h.married]
    unmarried = [h for h in start.heirs if not h.married]
    assert len(start.heirs) == 10 and len(married) == 8
    assert {(h.power, h.location) for h in unmarried} == {("Kalmar Union", "ros"),
                                                          ("Ottomans", "ama")}
    assert start.unmarried_heir("Burgundy") is None  # §6.1, §11.0 v1.2.0
    for power, row in POWERS.items():
        assert ood.heirs[power] == key(row[6])
    thralls = [s for s in start.powers_in_play.values() if s.kind == "thrall"]
    assert len(thralls) == 8


def test_every_major_has_two_dp_at_the_start(ood, start):
    """§9.2: 1 DP for the Capital + 1 for the Thrall or the unmarried Heir."""
    assert {p: allotment(ood, start, p) for p in ood.powers} == dict.fromkeys(POWERS, 2)


def test_the_setup_counts_are_declared_and_checked(ood):
    expect = read_yaml(OOD_DIR / "variant.yaml")["expect"]
    assert expect == {"provinces": 114, "supply_centres": 50, "powers": 10, "home_centres": 20,
                      "thralls": 8, "minor_powers": 22, "starting_units": 20}


# --- section c: split coasts (§5.2) ---------------------------------------------------------


def test_ood_a01_exactly_six_split_coast_provinces(game_map, key):
    split = {k: p.coasts for k, p in game_map.provinces.items() if p.coasts}
    assert split == {key(n): c for n, c in SPLIT_COASTS.items()}


@pytest.mark.parametrize("name", sorted(SPLIT_COASTS))
def test_split_coasts_take_fleets_per_coast_and_armies_in_the_province(game_map, key, name):
    k = key(name)
    assert game_map.provinces[k].terrain is Terrain.COASTAL
    assert holds(game_map, A, k) and not holds(game_map, F, k)
    for coast in SPLIT_COASTS[name]:
        assert holds(game_map, F, f"{k}/{coast}")
        assert game_map.neighbours(F, f"{k}/{coast}"), f"{k}/{coast} has no fleet link"


@pytest.mark.parametrize(("one", "other"), list(FLEET_LINKS.values()), ids=list(FLEET_LINKS))
def test_stated_fleet_links(game_map, key, one, other):
    a, b = key(one), key(other)
    assert game_map.can_move(F, a, b) and game_map.can_move(F, b, a)


@pytest.mark.parametrize(("one", "other"), list(ARMY_LINKS.values()), ids=list(ARMY_LINKS))
def test_stated_army_links(game_map, key, one, other):
    a, b = key(one), key(other)
    assert game_map.can_move(A, a, b) and game_map.can_move(A, b, a)


@pytest.mark.parametrize(("one", "other", "army_too"), list(NOT_ADJACENT.values()),
                         ids=list(NOT_ADJACENT))
def test_stated_non_adjacencies(game_map, key, one, other, army_too):
    a, b = key(one), key(other)
    assert not game_map.can_move(F, a, b) and not game_map.can_move(F, b, a)
    if army_too:
        assert not game_map.can_move(A, a, b) and not game_map.can_move(A, b, a)


def test_ood_a04_a07_circassia_west_coast_never_reaches_sarai(game_map):
    """§5.2.1, §5.3.4: the east coasts meet; Circassia's west coast meets Kerch, not Sarai."""
    assert not {"sar/wc", "sar/ec"} & game_map.neighbours(F, "cir/wc")
    assert "sar/ec" in game_map.neighbours(F, "cir/ec")


def test_ood_a05_kerch_is_the_only_neighbour_of_sarais_west_coast(game_map):
    """§5.2.1, §5.3.4: Kerch (with the Sea of Azov) surrounds Sarai's west coast."""
    assert game_map.neighbours(F, "sar/wc") == {"ker"}
    assert [loc for loc, ts in game_map.fleet_links.items() if "sar/wc" in ts] == ["ker"]


@pytest.mark.parametrize(("src", "province", "coasts"), [
    ("Roskilde", "Lübeck", {"wc", "ec"}),                # §5.2.2
    ("Napoli", "Rome", {"sc", "nc"}),                    # §5.2.3
    ("Granada", "Toledo", {"wc", "ec"}),                 # §5.2.4
    ("Western Mediterranean", "Toledo", {"wc", "ec"}),   # §5.2.4
    ("Edinburgh", "York", {"wc", "ec"}),                 # §5.2.5
])
def test_possible_ambiguity_moves_reach_both_coasts(game_map, key, src, province, coasts):
    """§5.2: "Possible Ambiguity for Moves from" a space: its fleets reach both coasts, so a
    move there must name the coast."""
    targets = game_map.fleet_targets(key(src), key(province))
    assert {t.split("/")[1] for t in targets} == coasts


def test_ood_a02_section_4_3_purple_line_to_a_split_coast(game_map):
    """§4.3: fleets Lis <-> Tol-wc, armies Lis <-> Tol; the fleet cannot reach Tol-ec."""
    assert game_map.fleet_targets("lis", "tol") == ["tol/wc"]
    assert game_map.can_move(A, "lis", "tol")


def test_ood_a13_lubeck_has_no_canal(game_map):
    """§5.3.5: a fleet cannot pass between Lübeck's coasts."""
    assert "canal" not in game_map.provinces["lub"].flags
    assert "lub/ec" not in game_map.neighbours(F, "lub/wc")
    assert not game_map.neighbours(F, "lub/wc") & game_map.neighbours(F, "lub/ec") - {"ros"}


# --- section c: canals and odd coasts (§5.3) -------------------------------------------------


def test_explicit_canal_spaces(game_map, key):
    """§5.3.3, §5.3.5, §5.3.6: six spaces are called canals; fleets there may not convoy."""
    canals = {k for k, p in game_map.provinces.items() if "canal" in p.flags}
    assert canals == {key(n) for n in CANALS}
    for k in canals:
        assert game_map.provinces[k].terrain is Terrain.COASTAL
        assert not game_map.provinces[k].can_convoy
    for name in ("Sarai", "Circassia", "Lübeck"):  # §5.3.4, §5.3.5: not canals
        assert "canal" not in game_map.provinces[key(name)].flags


@pytest.mark.parametrize(("canal", "seas"), [
    ("Edinburgh", ("Irish Sea", "North Atlantic Ocean")),   # §5.3.3
    ("The Pale", ("Irish Sea", "North Atlantic Ocean")),    # §5.3.3
    ("Napoli", ("Tyrrhennian Sea", "Ionian Sea")),          # §5.3.6
    ("Sicily", ("Tyrrhennian Sea", "Ionian Sea")),          # §5.3.6
    ("Roskilde", ("Skagerrak", "Baltic Sea")),              # §5.3.5, like Denmark
    ("Stockholm", ("Skagerrak", "Baltic Sea")),             # §5.3.5, like Sweden
])
def test_canals_join_waters_that_do_not_touch(game_map, key, canal, seas):
    c, one, other = key(canal), key(seas[0]), key(seas[1])
    assert {one, other} <= game_map.neighbours(F, c)
    assert other not in game_map.neighbours(F, one)


def test_ood_a17_navarre_is_inland(game_map, key):
    nav = key("Navarre")
    assert game_map.provinces[nav].terrain is Terrain.LAND
    assert not game_map.neighbours(F, nav)
    assert game_map.neighbours(A, nav) >= {key("Burgos"), key("Bordeaux")}


def test_ood_a18_aegean_to_black_sea_takes_three_fleet_moves(game_map):
    """§5.3.2: a fleet needs at least three moves from Aeg to Bla, passing Edirne or Bursa and
    then Constantinople; so no space is fleet-adjacent to both seas."""
    assert reach(game_map, F, "aeg")["bla"] == 3
    assert reach(game_map, F, "bla")["aeg"] == 3
    for loc, ts in game_map.fleet_links.items():
        assert not {"aeg", "bla"} <= ts, loc
    assert game_map.neighbours(F, "aeg") & {"edr", "brs"} == {"edr", "brs"}
    assert game_map.neighbours(F, "con") >= {"edr", "brs", "bla"}


def test_ood_a27_the_north_channel_canal(game_map):
    """§5.3.3: Iri and NAO do not touch; Edinburgh and The Pale, adjacent canal spaces, stand
    between them."""
    assert "nao" not in game_map.neighbours(F, "iri")
    assert "thp" in game_map.neighbours(F, "edi") and "thp" in game_map.neighbours(A, "edi")


def test_ood_a35_turins_coast_touches_no_water(game_map):
    """§5.3.7: fleets may pass between Turin and Aix or Genoa, and nowhere else."""
    assert game_map.provinces["tur"].terrain is Terrain.COASTAL
    assert game_map.neighbours(F, "tur") == {"aix", "gen"}


def test_ood_a36_a38_viennas_tiny_coast(game_map):
    """§5.3.8: Vienna's coast reaches only Venice, which reaches Knin; Vienna's does not."""
    assert game_map.provinces["vie"].terrain is Terrain.COASTAL
    assert game_map.neighbours(F, "vie") == {"ven"}
    assert "kni" in game_map.neighbours(F, "ven")


def test_ood_a39_a40_arrows_are_adjacent_for_all_purposes(game_map):
    """§5.4: Tunis-Cairo and Stockholm-Finland, for every unit type that can stand on both."""
    for one, other in (("tun", "cai"), ("sto", "fin")):
        for unit in UnitType:
            assert holds(game_map, unit, one) and holds(game_map, unit, other)
            assert game_map.can_move(unit, one, other) and game_map.can_move(unit, other, one)


def test_ood_a41_a42_norway(game_map):
    """§5.4: Norway is adjacent to neither Finland nor Novgorod, by any border."""
    assert not {"fin", "nov"} & game_map.touching("nwy")
    assert "nwy" not in game_map.touching("fin") | game_map.touching("nov")


def test_ex_9_1_1_and_10_3_2_orders_are_legal(game_map):
    """Ex 9.1.1: A Brandenburg - Prussia; A Brandenburg S A Vilnius - Prussia.
    Ex 10.3.2: F Tunis S Napoli - Ionian Sea (F Napoli can move there)."""
    assert game_map.can_move(A, "bra", "pru") and game_map.reaches(A, "bra", "pru")
    assert game_map.can_move(A, "vil", "pru")
    assert game_map.reaches(F, "tun", "ion") and game_map.can_move(F, "nap", "ion")


# --- impassable spaces (§5.5) -----------------------------------------------------------------


def test_ood_a48_three_unnamed_impassable_spaces(game_map):
    impassable = {k: p for k, p in game_map.provinces.items() if p.terrain is Terrain.IMPASSABLE}
    assert len(impassable) == 3
    for k, p in impassable.items():
        assert p.name not in SECTION_5_1 and "unnamed" in p.flags and "impassable" in p.name
        assert not holds(game_map, A, k) and not holds(game_map, F, k)
        assert not game_map.touching(k)
        assert all(k not in game_map.touching(o) for o in game_map.provinces)
    assert game_map.provinces[game_map.lookup("Crete")].terrain is Terrain.IMPASSABLE
    assert game_map.provinces[game_map.lookup("Sardinia")].terrain is Terrain.IMPASSABLE


@pytest.mark.parametrize(("space", "beside"), [
    ("Crete", {"aeg", "eas"}),          # between the Aegean and the Eastern Mediterranean
    ("Sardinia", {"tys", "wes", "gol"}),
    ("White Sea", {"nov", "dvi"}),      # "the sea space north of Novgorod"
])
def test_impassable_spaces_lie_where_the_text_puts_them(game_map, space, beside):
    """Impassable spaces take no links, so their place shows only in the layout."""
    p = game_map.provinces[game_map.lookup(space)]

    def gap(q):
        return ((q.xy[0] - p.xy[0]) ** 2 + (q.xy[1] - p.xy[1]) ** 2) ** 0.5

    nearest = sorted((q for q in named(game_map).values()), key=gap)[:4]
    assert beside & {q.key for q in nearest}
    if space == "White Sea":
        assert p.xy[1] < game_map.provinces["nov"].xy[1]  # north of Novgorod


# --- stated terrain --------------------------------------------------------------------------


@pytest.mark.parametrize("name", ARMY_SPACES)
def test_armies_stand_where_the_text_puts_them(game_map, key, name):
    assert holds(game_map, A, key(name))


@pytest.mark.parametrize("name", FLEET_SPACES)
def test_fleets_stand_where_the_text_puts_them(game_map, key, name):
    assert holds(game_map, F, key(name))


def test_water_spaces_are_seas(game_map):
    """Spaces named Sea, Ocean, Gulf, Bay or Channel are water (facts section a)."""
    for p in named(game_map).values():
        if re.search(r"Sea|Ocean|Gulf|Bay|Channel|Mediterranean", p.name):
            assert p.terrain is Terrain.SEA, p.name
            assert p.can_convoy


# --- rebuilds (§8.2, §3.3) ---------------------------------------------------------------------


def winter(ood, start, vacate, owners=None, powers=None):
    units = [u for u in start.units.values() if u.province not in vacate]
    return Position.from_units("ood", Phase("Winter", 1, PhaseKind.ADJUSTMENT), units,
                               owners or start.owners,
                               powers_in_play=powers or start.powers_in_play, heirs=start.heirs)


def test_ood_section_8_2_lubeck_rebuilds_on_its_east_coast(ood, start):
    pos = winter(ood, start, {"lub", "ker", "rom"})
    built = {u.province: u for u in minor_rebuilds(ood, pos)}
    assert built["lub"] == lawspeaker.Unit("Lübeck", F, "lub/ec", stationary=True)
    assert built["ker"] == lawspeaker.Unit("Kerch", F, "ker", stationary=True)  # a Thrall
    assert built["rom"] == lawspeaker.Unit("Rome", A, "rom", stationary=True)
    after = adjudicate(ood, pos, [], ood.rules).position
    assert after.units["lub"].location == "lub/ec"
    assert after.phase == Phase("Spring", 2, PhaseKind.MOVEMENT)


def test_ood_section_8_2_toledo_rebuilds_a_fleet_on_its_west_coast(ood, start):
    """§8.2, §3.3 step 3: an eliminated Castile's Toledo becomes a Minor, which builds the
    unit that stood there at the start, F Toledo (west coast)."""
    owners = {**start.owners, "tol": "Toledo"}
    powers = {**start.powers_in_play, "Toledo": PowerState("minor")}
    pos = winter(ood, start, {"tol"}, owners, powers)
    assert ood.starting_location("tol") == "tol/wc"
    assert lawspeaker.Unit("Toledo", F, "tol/wc", stationary=True) in minor_rebuilds(ood, pos)


def test_starting_location_keeps_the_coast_and_s9_still_works(ood):
    assert ood.starting_type("lub") is F and ood.starting_location("lub") == "lub/ec"
    assert ood.starting_location("yor") == "yor" and ood.starting_location("pal") is None
    s9 = lawspeaker.load_variant("s9-complete")
    assert s9.starting_location("per") == "per" and s9.starting_type("per") is F


@pytest.mark.parametrize(("entry", "message"), [
    ("lub: F", "name the fleet's coast"),
    ("lub: A lub/ec", "cannot stand"),
    ("lub: F tol/wc", "must stand in lub"),
    ("lis: F lis/wc", "cannot stand"),
    ("lub: F lub/ec extra", "give a unit type"),
])
def test_minors_entries_are_checked(tmp_path, entry, message):
    """``minors:`` takes A, F or a unit with its location; a fleet on a split coast must name
    the coast (§8.2 rebuilds use it)."""
    meta = read_yaml(OOD_DIR / "variant.yaml")
    prov = entry.split(":")[0]
    lines = [f"  {k}: {v}" for k, v in meta["minors"].items() if k != prov]
    (tmp_path / "variant.yaml").write_text(
        f"name: broken\nbase: {OOD_DIR}\nminors:\n" + "\n".join(lines) + f"\n  {entry}\n",
        encoding="utf-8")
    problems = [str(p) for p in lawspeaker.check_variant(tmp_path)]
    assert any(message in p for p in problems), problems


def test_unknown_or_wrong_expected_counts_are_reported(tmp_path):
    (tmp_path / "variant.yaml").write_text(
        f"name: broken\nbase: {OOD_DIR}\nexpect:\n  thralls: 7\n  vassals: 0\n",
        encoding="utf-8")
    problems = [str(p) for p in lawspeaker.check_variant(tmp_path)]
    assert any("expected 7 thralls, found 8" in p for p in problems), problems
    assert any("unknown count expect.vassals" in p for p in problems), problems


# --- calendar and rules --------------------------------------------------------------------------


def test_calendar_counts_cycles_of_five_years_from_1405(ood, start):
    """§2.0: First Cycle 1405, Second 1410; §3.2: the 10th Autumn Census is 1450."""
    assert ood.year_label(ood.first_year) == "1405"
    assert ood.year_label(ood.first_year + 1) == "1410"
    assert ood.year_label(ood.first_year + 9) == "1450"
    assert ood.phase_label(start.phase) == "Spring Orders, 1405"
    assert [(s, k.value) for s, k in ood.phases] == [
        ("Spring", "movement"), ("Spring", "retreat"), ("Autumn", "movement"),
        ("Autumn", "retreat"), ("Autumn", "census"), ("Winter", "adjustment")]  # §2.2


def test_variant_rules(ood):
    assert ood.name == "ood" and ood.title == "Order of the Dragon" and ood.reconstructed
    assert ood.rules.victory_centres == 18           # §3.0
    assert ood.rules.builds.value == "home"          # §8.0
    assert ood.rules.max_years == 10                 # §3.2 (recommended)
    assert ood.rules.last_survivor_wins              # §3.4
    assert ood.rules.dowry_unit == "disband"         # §10.4
    assert ood.components == {"minor_powers", "diplomacy_points", "heirs"}
    assert ood.capital_names()["kalmar"] == "ros"    # §7.1: "H Kalmar"


@pytest.mark.parametrize(("text", "kind", "where"), [
    ("Heir Roskilde Marry Tunis", PhaseKind.MOVEMENT, "ros"),                 # §7.1 names
    ("Heir Kalmar Union Marry Tunis", PhaseKind.MOVEMENT, "ros"),
    ("H Kalmar H", PhaseKind.MOVEMENT, "ros"),
    ("H Ros Marry Mainz", PhaseKind.MOVEMENT, "ros"),                         # Fig. 19
    ("Heir Amasya Marry Tunis", PhaseKind.MOVEMENT, "ama"),                   # Ex 10.3.1
    ("Heir Castile Marry Heir Kalmar at Cologne", PhaseKind.MOVEMENT, "brg"),  # §10.4 item 3
    ("Build Heir London", PhaseKind.ADJUSTMENT, "lon"),                       # §8.1
])
def test_the_rulebooks_heir_orders_read(ood, text, kind, where):
    order = parse_order(ood.map, text, "England", kind, ood.capital_names())
    assert order.location == where


def test_map_check_is_clean():
    assert lawspeaker.check_variant("ood") == []


def test_every_choice_is_marked_stated_or_reconstructed():
    """Every province's type line says whether the rulebook states it or we chose it; every
    links line says its borders are reconstructed (naming the stated ones)."""
    text = (OOD_DIR / "map.yaml").read_text(encoding="utf-8")
    type_lines = re.findall(r"^    type: .*$", text, flags=re.MULTILINE)
    assert len(type_lines) == 114
    assert all("# stated" in t or "# reconstructed" in t for t in type_lines)
    links_lines = re.findall(r"^    links:.*$", text, flags=re.MULTILINE)
    assert len(links_lines) == 111 and all("# reconstructed" in t for t in links_lines)


def test_every_stated_link_is_named_in_the_data():
    """Each fact id used above appears in a links comment, so the data cites its source."""
    text = (OOD_DIR / "map.yaml").read_text(encoding="utf-8")
    for fact in {f.split()[0].replace("OOD-", "") for f in FLEET_LINKS | ARMY_LINKS}:
        assert f"({fact})" in text or f"{fact}," in text or f"{fact})" in text, fact


# --- sanity of the reconstruction --------------------------------------------------------------


def test_every_province_has_layout_coordinates(game_map):
    for k, p in game_map.provinces.items():
        assert p.xy is not None and all(0 <= c <= 1200 for c in p.xy), k


def test_connected_for_armies_except_the_british_isles(game_map):
    """Armies reach every land space from Paris, except Britain and Ireland (by convoy)."""
    spaces = {k for k in named(game_map) if holds(game_map, A, k)}
    cut_off = spaces - set(reach(game_map, A, "par"))
    assert cut_off == {"lon", "yor", "wal", "edi", "thp", "eir"}
    assert cut_off <= set(reach(game_map, A, "lon"))


def test_connected_for_fleets_except_the_caspian(game_map):
    """Fleets reach every coast and sea, except the closed Caspian and the coasts on it."""
    spaces = {loc for k in named(game_map) for loc in locations(game_map, k)
              if holds(game_map, F, loc)}
    assert spaces - set(reach(game_map, F, "lon")) == {"cas", "sar/ec", "cir/ec"}


def test_every_space_has_neighbours(game_map):
    for k in named(game_map):
        assert len(game_map.touching(k)) >= 2, k


def test_every_coast_but_turins_and_viennas_touches_water(game_map):
    for k, p in named(game_map).items():
        if p.terrain is not Terrain.COASTAL or k in ("tur", "vie"):
            continue
        for loc in p.locations:
            seas = {t for t in game_map.neighbours(F, loc)
                    if game_map.provinces[province_of(t)].terrain is Terrain.SEA}
            assert seas or loc == "sar/wc", loc  # Sarai's west coast lies inside Kerch


@pytest.mark.parametrize("power", sorted(POWERS))
def test_every_starting_unit_can_move(ood, power):
    for u in ood.starting_units:
        if u.power == power:
            assert len(ood.map.neighbours(u.type, u.location)) >= 2, u
