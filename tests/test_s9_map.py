"""Saga of the Nine (S9) map data: every fact the rulebook states, and sanity checks.

The S9 adjacency diagram (rules §4.4) is not available, so ``s9-basic/map.yaml`` is a
reconstruction (docs/s9-map.md). These tests pin down only what the rulebook (S9 v1.1.1)
states or forces, each tagged with its id in /work/shared/reference/s9-map-facts.md
(S9-A01..S9-A38 for adjacency, section a/b/d facts by name), plus the balance and
connectivity properties the reconstruction promises. A GM who gets the official diagram
can replace the links in map.yaml and rerun this file: the fact tests must still pass;
the balance tests say where the official map differs from the reconstruction's aims.
"""

from __future__ import annotations

import re
from collections import Counter, deque
from pathlib import Path

import pytest
from ruamel.yaml import YAML

import lawspeaker
from lawspeaker import Terrain, UnitType
from lawspeaker.core.geography import normalise_name
from lawspeaker.variants import VARIANTS_DIR

A, F = UnitType.ARMY, UnitType.FLEET
VARIANTS = ["s9-basic", "s9-complete"]

#: The 75 space names of S9 §5.1 (Hithaeglir as in the 000 conversion; 001 has "Hithaeglr").
SECTION_5_1 = [
    "Aekin", "Alfheim", "Amsvartnir", "Andlang", "Asgard", "Audumbla", "Belobog", "Bifrost",
    "Chernobog", "Eire", "Eljudnir", "Fjorm", "Flokisleid", "Fyrisvellir", "Geirvimul", "Gimle",
    "Ginnungagap", "Gjallerbru", "Gjoll", "Glaesisvellir", "Gnipahellir", "Gunnthro", "Hel",
    "Himinbjorg", "Hindarfjall", "Hithaeglir", "Hrid", "Hvergelmir", "Idavollr", "Ifing", "Inuvik",
    "Iqaluit", "Ivaldi", "Jarnvidr", "Jormungandr", "Jotunheim", "Koryakr", "Lakigigar", "Leiptr",
    "Marzanna", "Maskikigard", "Midgard", "Mimisbrunnr", "Morskoy", "Muspelheim", "Myrkvidr",
    "Nanukheim", "Nastrond", "Nemaskagard", "Nidavellir", "Niflheim", "Noatun", "Ormt", "Oskopnir",
    "Permyak", "Quttinirpaaq", "Ragnarok", "Ratatoskr", "Saekin", "Siegfried", "Slid",
    "Svartalfheim", "Svol", "Sylg", "Thrymheimr", "Thule", "Udainsakr", "Ungavaheim", "Utgardar",
    "Vanaheimr", "Vidblainn", "Vigrid", "Yggdrasil", "Ylg", "Ziva",
]

#: Variant spellings (facts section a, "Canonical spelling decisions") -> canonical name.
SPELLINGS = {
    "Armsvartnir": "Amsvartnir", "Gunnungagap": "Ginnungagap", "Sval": "Svol",
    "Morskoj": "Morskoy", "Fyrissvellir": "Fyrisvellir", "Hithaeglr": "Hithaeglir",
    "Hithaegir": "Hithaeglir", "Glaesisvellier": "Glaesisvellir", "Glaeisvellir": "Glaesisvellir",
    "Gioll": "Gjoll", "Igaluit": "Iqaluit", "Ylq": "Ylg", "Lakigjaar": "Lakigigar",
    "Floksleid": "Flokisleid", "Geir-vmul": "Geirvimul",
    # labels hyphenated across lines on the map images (facts appendix)
    "Ams-vartnir": "Amsvartnir", "Nemas-kagard": "Nemaskagard", "Ratat-oskr": "Ratatoskr",
    "Jarn-vidr": "Jarnvidr", "Sieg-fried": "Siegfried", "Quttinir-paaq": "Quttinirpaaq",
    "Myrk-vidr": "Myrkvidr", "Ragn-arok": "Ragnarok", "Nast-rond": "Nastrond",
    "Cherno-bog": "Chernobog",
}

#: §5.4 arrow groups: every pair is adjacent "for all purposes" (S9-A01..A21).
ARROW_PAIRS = {
    "S9-A01": ("Iqaluit", "Ungavaheim"), "S9-A02": ("Iqaluit", "Amsvartnir"),
    "S9-A03": ("Iqaluit", "Gjoll"), "S9-A04": ("Ungavaheim", "Amsvartnir"),
    "S9-A05": ("Ungavaheim", "Gjoll"), "S9-A06": ("Amsvartnir", "Gjoll"),
    "S9-A07": ("Inuvik", "Quttinirpaaq"), "S9-A08": ("Inuvik", "Svol"),
    "S9-A09": ("Inuvik", "Gunnthro"), "S9-A10": ("Quttinirpaaq", "Svol"),
    "S9-A11": ("Quttinirpaaq", "Gunnthro"), "S9-A12": ("Svol", "Gunnthro"),
    "S9-A13": ("Eljudnir", "Thule"), "S9-A14": ("Eljudnir", "Slid"),
    "S9-A15": ("Eljudnir", "Ginnungagap"), "S9-A16": ("Thule", "Slid"),
    "S9-A17": ("Thule", "Ginnungagap"), "S9-A18": ("Slid", "Ginnungagap"),
    "S9-A19": ("Belobog", "Vidblainn"), "S9-A20": ("Belobog", "Morskoy"),
    "S9-A21": ("Vidblainn", "Morskoy"),
}
ARROW_GROUPS = [
    ("Iqaluit", "Ungavaheim", "Amsvartnir", "Gjoll"),
    ("Inuvik", "Quttinirpaaq", "Svol", "Gunnthro"),
    ("Eljudnir", "Thule", "Slid", "Ginnungagap"),
    ("Belobog", "Vidblainn", "Morskoy"),
]

#: Moves the text gives as legal orders (S9-A22, A23, A25-A28).
STATED_MOVES = {
    "S9-A22": (F, "Thule", "Eljudnir"),       # §5.3
    "S9-A23": (A, "Permyak", "Ziva"),         # §5.3
    "S9-A25": (F, "Glaesisvellir", "Aekin"),  # Ex 9.1.1
    "S9-A26": (F, "Jotunheim", "Aekin"),      # Ex 9.1.1
    "S9-A27": (F, "Permyak", "Ylg"),          # Ex 10.3.2
    "S9-A28": (F, "Svartalfheim", "Ylg"),     # Ex 10.3.2 (the Dokkalfar start there with a fleet)
}

#: power -> (abbreviation, colour word, capital, homes, starting units v1.1.1), §6.1-6.9
POWERS = {
    "Aesir": ("A", "navy blue", "Asgard", {"Asgard", "Himinbjorg"},
              {"F Asgard", "F Himinbjorg"}),
    "Dokkalfar": ("D", "purple", "Svartalfheim", {"Svartalfheim", "Chernobog"},
                  {"F Svartalfheim", "F Chernobog"}),
    "Jotnar": ("J", "teal blue", "Jotunheim", {"Jotunheim", "Thrymheimr"},
               {"F Jotunheim", "F Thrymheimr"}),
    "Ljosalfar": ("L", "yellow", "Alfheim", {"Alfheim", "Belobog"},
                  {"F Alfheim", "A Belobog"}),
    "Madr": ("M", "brown", "Midgard", {"Midgard", "Siegfried"}, {"F Midgard", "F Siegfried"}),
    "Surtr": ("S", "red-orange", "Muspelheim", {"Muspelheim", "Ragnarok"},
              {"F Muspelheim", "F Ragnarok"}),
    "Vanir": ("V", "green", "Vanaheimr", {"Vanaheimr", "Noatun"}, {"A Vanaheimr", "F Noatun"}),
    "Ymir": ("Y", "ice blue", "Niflheim", {"Niflheim", "Audumbla"}, {"F Niflheim", "A Audumbla"}),
    "Zwergar": ("Z", "charcoal", "Nidavellir", {"Nidavellir", "Ivaldi"},
                {"F Nidavellir", "F Ivaldi"}),
}

#: Neutral SCs the text identifies (facts section a): name -> evidence.
STATED_NEUTRAL_SCS = {
    "Bifrost": "Figs. 4-5, §10.4", "Eire": "Fig. 1", "Gjallerbru": "Fig. 1",
    "Glaesisvellir": "Ex 9.1.1, Fig. 1", "Iqaluit": "Figs. 2-3", "Lakigigar": "Fig. 1",
    "Permyak": "Ex 10.3.1-10.4.0", "Thule": "§10.4 item 3", "Udainsakr": "Fig. 1",
}

#: Minor units the text states (S9 Complete), facts section b.
STATED_MINORS = {"Permyak": "F", "Glaesisvellir": "F", "Udainsakr": "A"}

#: S9-A36: fleets start (or Minor fleets stand) here.
FLEET_SPACES = [
    "Asgard", "Himinbjorg", "Svartalfheim", "Chernobog", "Jotunheim", "Thrymheimr", "Alfheim",
    "Midgard", "Siegfried", "Muspelheim", "Ragnarok", "Noatun", "Niflheim", "Nidavellir",
    "Ivaldi", "Permyak", "Glaesisvellir",
]
#: S9-A38: armies start or move here.
ARMY_SPACES = ["Belobog", "Vanaheimr", "Audumbla", "Alfheim", "Ziva"]
#: S9-A30..A32: no coastline.
NO_COAST = {"S9-A30": "Fyrisvellir", "S9-A31": "Myrkvidr", "S9-A32": "Udainsakr"}


@pytest.fixture(scope="module")
def game_map(basic: lawspeaker.Variant) -> lawspeaker.GameMap:
    return basic.map


@pytest.fixture(scope="module")
def key(game_map: lawspeaker.GameMap):
    """Province key of a canonical name (through the map's own name lookup)."""
    return game_map.lookup


def named(game_map: lawspeaker.GameMap) -> dict[str, lawspeaker.Province]:
    return {k: p for k, p in game_map.provinces.items() if p.terrain is not Terrain.IMPASSABLE}


def holds(game_map: lawspeaker.GameMap, unit: UnitType, province: str) -> bool:
    return game_map.is_valid_location(unit, province)


def reach(game_map: lawspeaker.GameMap, unit: UnitType, start: str, limit: int = 999) -> dict:
    """Moves needed by a unit of this type to reach each province from start."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if dist[here] == limit:
            continue
        for there in game_map.neighbours(unit, here):
            if there not in dist:
                dist[there] = dist[here] + 1
                queue.append(there)
    return dist


def neutral_scs(variant: lawspeaker.Variant) -> set[str]:
    homes = {h for p in variant.powers.values() for h in p.homes}
    return {k for k, p in variant.map.provinces.items() if p.is_sc and k not in homes}


def read_yaml(path: Path):
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


# --- section a: spaces, names, spellings ------------------------------------------------


def test_75_named_spaces_with_section_5_1_names(game_map):
    assert len(SECTION_5_1) == 75
    assert sorted(p.name for p in named(game_map).values()) == sorted(SECTION_5_1)


def test_unique_three_letter_prefixes_are_the_keys(game_map):
    """§5.1: each named space begins with a unique permutation of three letters."""
    prefixes = Counter(normalise_name(p.name)[:3] for p in named(game_map).values())
    assert len(prefixes) == 75 and max(prefixes.values()) == 1
    for k, p in named(game_map).items():
        assert k == normalise_name(p.name)[:3], p.name


@pytest.mark.parametrize("name", SECTION_5_1)
def test_every_space_answers_to_its_name_and_first_three_letters(game_map, name):
    k = normalise_name(name)[:3]
    assert game_map.lookup(name) == k
    assert game_map.lookup(name[:3]) == k
    assert game_map.lookup(name.upper()) == k


@pytest.mark.parametrize(("spelling", "canonical"), list(SPELLINGS.items()))
def test_variant_spellings_resolve(game_map, spelling, canonical):
    assert game_map.lookup(spelling) == game_map.lookup(canonical)
    assert spelling in game_map.provinces[game_map.lookup(canonical)].aliases


def test_hel_is_a_space(game_map):
    """'Hel' names both a space (§5.1) and the whole continent (§1.0)."""
    assert game_map.provinces[game_map.lookup("Hel")].name == "Hel"


def test_33_supply_centres_18_homes_15_neutral(basic):
    """§3.1: 33 SCs; §1.1/§6: 9 powers x 2 homes; so 15 neutral at start."""
    scs = [k for k, p in basic.map.provinces.items() if p.is_sc]
    homes = [h for p in basic.powers.values() for h in p.homes]
    assert len(scs) == 33
    assert len(homes) == len(set(homes)) == 18
    assert len(neutral_scs(basic)) == 15
    assert all(basic.map.provinces[k].sc_value == 1 for k in scs)


@pytest.mark.parametrize("name", sorted(STATED_NEUTRAL_SCS))
def test_identified_neutral_scs(basic, key, name):
    """Facts section a: the 9 neutral SCs the text identifies; Bifrost is a Vassal capital of
    Aesir and Madr (Figs. 4-5), so it is nobody's home."""
    assert basic.map.provinces[key(name)].is_sc
    assert basic.home_of(key(name)) is None


def test_provinces_count_75_named_plus_one_impassable(game_map):
    impassable = [p for p in game_map.provinces.values() if p.terrain is Terrain.IMPASSABLE]
    assert len(game_map.provinces) == 76
    assert len(named(game_map)) == 75
    assert len(impassable) == 1


# --- section b: powers -------------------------------------------------------------------


def test_nine_powers(basic):
    assert sorted(basic.powers) == sorted(POWERS)


@pytest.mark.parametrize("power", sorted(POWERS))
def test_power_homes_capital_units(basic, key, power):
    abbreviation, _colour, capital, homes, units = POWERS[power]
    p = basic.powers[power]
    assert p.abbreviation == abbreviation == power[0]
    assert p.capital == key(capital)
    assert set(p.homes) == {key(h) for h in homes}
    assert re.fullmatch(r"#[0-9a-fA-F]{6}", p.colour)
    assert p.kind == "major"
    got = {f"{u.type.value} {u.location}" for u in basic.starting_units if u.power == power}
    want = {f"{text[0]} {key(text[2:])}" for text in units}
    assert got == want


def test_power_colours_are_distinct(basic):
    assert len({p.colour.lower() for p in basic.powers.values()}) == 9


def test_18_starting_units_15_fleets_3_armies(basic):
    """v1.1.1: Ljosalfar starts with F Alfheim (§11.0), so 15 F + 3 A."""
    kinds = Counter(u.type for u in basic.starting_units)
    assert len(basic.starting_units) == 18
    assert kinds == {F: 15, A: 3}
    assert not any(u.stationary for u in basic.starting_units)


# --- section c: adjacency facts ----------------------------------------------------------


@pytest.mark.parametrize(("one", "other"), list(ARROW_PAIRS.values()), ids=list(ARROW_PAIRS))
def test_arrow_group_pairs_adjacent_for_all_purposes(game_map, key, one, other):
    """§5.4: the spaces of an arrow group are mutually adjacent for all purposes: every unit
    type that can stand on both ends may move (and so support) across, both ways."""
    a, b = key(one), key(other)
    assert b in game_map.touching(a) and a in game_map.touching(b)
    usable = [u for u in UnitType if holds(game_map, u, a) and holds(game_map, u, b)]
    assert usable, f"no unit type can stand on both {one} and {other}"
    for unit in usable:
        assert game_map.can_move(unit, a, b), f"{unit.noun} {one} -> {other}"
        assert game_map.can_move(unit, b, a), f"{unit.noun} {other} -> {one}"
        assert game_map.reaches(unit, a, b) and game_map.reaches(unit, b, a)


def test_arrow_groups_have_four_four_four_three_members(game_map, key):
    """Facts section d: 4 arrows, groups of 4, 4, 4 and 3 mutually adjacent spaces; the
    reconstruction takes exactly one member of each group as the water the arrow crosses."""
    assert sorted(len(g) for g in ARROW_GROUPS) == [3, 4, 4, 4]
    for group in ARROW_GROUPS:
        keys = [key(n) for n in group]
        for a in keys:
            assert set(keys) - {a} <= game_map.touching(a)
        seas = [k for k in keys if game_map.provinces[k].terrain is Terrain.SEA]
        assert len(seas) == 1, group
        assert all(game_map.provinces[k].terrain is Terrain.COASTAL for k in keys[:2]), group


@pytest.mark.parametrize(("unit", "src", "dst"), list(STATED_MOVES.values()),
                         ids=list(STATED_MOVES))
def test_stated_moves(game_map, key, unit, src, dst):
    assert game_map.can_move(unit, key(src), key(dst))
    assert game_map.can_move(unit, key(dst), key(src))


def test_s9_a24_islands_move_freely_across_every_border(game_map, key):
    """§5.3: islands (at least Permyak and Thule) hold armies and fleets, which move freely
    between them and any space they share a border with."""
    islands = {k for k, p in game_map.provinces.items() if "island" in p.flags}
    assert {key("Permyak"), key("Thule")} <= islands
    for k in islands:
        assert game_map.provinces[k].terrain is Terrain.COASTAL
        assert holds(game_map, A, k) and holds(game_map, F, k)
        for other in game_map.touching(k):
            for unit in UnitType:
                if holds(game_map, unit, other):
                    assert game_map.can_move(unit, k, other), f"{unit.noun} {k} -> {other}"
                    assert game_map.can_move(unit, other, k), f"{unit.noun} {other} -> {k}"


def test_s9_a29_no_split_coasts(game_map):
    """§5.2: there are no split coastlines."""
    assert not [k for k, p in game_map.provinces.items() if p.coasts]


@pytest.mark.parametrize("name", list(NO_COAST.values()), ids=list(NO_COAST))
def test_no_coastline_spaces(game_map, key, name):
    """§5.5: Fyrisvellir, Myrkvidr and Udainsakr have no coastline; fleets may not enter."""
    k = key(name)
    assert game_map.provinces[k].terrain is Terrain.LAND
    assert not holds(game_map, F, k) and holds(game_map, A, k)
    assert not game_map.neighbours(F, k)
    assert not any(k in game_map.neighbours(F, other) for other in game_map.fleet_links)
    assert not any(game_map.provinces[o].terrain is Terrain.SEA for o in game_map.touching(k))


def test_s9_a32_udainsakr_beside_an_impassable_unnamed_sea(game_map, key):
    """§5.5: the unnamed sea beside Udainsakr (the Baltic) is impassable. Impassable spaces
    take no links, so the border shows only in the layout: it is among Udainsakr's three
    nearest spaces."""
    sea = next(p for p in game_map.provinces.values() if p.terrain is Terrain.IMPASSABLE)
    assert sea.name not in SECTION_5_1 and "unnamed" in sea.name.lower()
    uda = game_map.provinces[key("Udainsakr")]

    def gap(p):
        return ((p.xy[0] - uda.xy[0]) ** 2 + (p.xy[1] - uda.xy[1]) ** 2) ** 0.5

    others = [p for p in game_map.provinces.values() if p.key != uda.key]
    assert sea in sorted(others, key=gap)[:3]


def test_s9_a33_unnamed_spaces_are_impassable(game_map):
    """§5.5: spaces without listed names are impassable: no unit stands there, no link."""
    for k, p in game_map.provinces.items():
        if p.name in SECTION_5_1:
            assert p.terrain is not Terrain.IMPASSABLE
            continue
        assert p.terrain is Terrain.IMPASSABLE
        assert not holds(game_map, A, k) and not holds(game_map, F, k)
        assert not game_map.touching(k)
        assert all(k not in game_map.touching(o) for o in game_map.provinces)


def test_s9_a34_several_canal_spaces_pass_fleets_between_waters(game_map):
    """§5.2: several land spaces are canals; fleets pass through them between waters."""
    canals = [k for k, p in game_map.provinces.items() if "canal" in p.flags]
    assert 3 <= len(canals) <= 5
    for k in canals:
        assert game_map.provinces[k].terrain is Terrain.COASTAL
        seas = [o for o in game_map.neighbours(F, k)
                if game_map.provinces[o].terrain is Terrain.SEA]
        assert any(b not in game_map.neighbours(F, a) for a in seas for b in seas if a != b), \
            f"{k} joins no two otherwise separate waters"


def test_s9_a35_fleets_on_canals_and_islands_may_not_convoy(game_map):
    for k, p in game_map.provinces.items():
        if p.flags & {"canal", "island"}:
            assert not p.can_convoy, k
        assert p.can_convoy == (p.terrain is Terrain.SEA), k


@pytest.mark.parametrize("name", FLEET_SPACES)
def test_s9_a36_fleet_spaces_are_coastal(game_map, key, name):
    assert game_map.provinces[key(name)].terrain is Terrain.COASTAL
    assert holds(game_map, F, key(name))


def test_s9_a37_alfheim_is_land_with_a_coast(game_map, key):
    """v1.1 army, v1.1.1 fleet, 'no map adjacency/topology changes' (§11.0)."""
    alf = key("Alfheim")
    assert game_map.provinces[alf].terrain is Terrain.COASTAL
    assert holds(game_map, A, alf) and holds(game_map, F, alf)


@pytest.mark.parametrize("name", ARMY_SPACES)
def test_s9_a38_army_spaces_are_land(game_map, key, name):
    assert game_map.provinces[key(name)].terrain in (Terrain.LAND, Terrain.COASTAL)
    assert holds(game_map, A, key(name))


def test_stated_fleet_reachable_spaces_take_fleets(game_map, key):
    """Aekin (Ex 9.1.1), Ylg (Ex 10.3.2), Eljudnir (§5.3): sea or coastal."""
    for name in ("Aekin", "Ylg", "Eljudnir"):
        assert holds(game_map, F, key(name)), name


# --- map check and variant settings --------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_map_check_is_clean(variant):
    assert lawspeaker.check_variant(variant) == []


@pytest.mark.parametrize("variant", VARIANTS)
def test_variant_settings(variant):
    v = lawspeaker.load_variant(variant)
    assert v.name == variant
    assert v.title == "Saga of the Nine — " + variant.split("-")[1].title()
    assert v.reconstructed
    assert v.year_label(v.first_year) == "First Cycle (400 BCE)"  # §2.0
    assert v.year_label(v.first_year + 1) == "Second Cycle (381 BCE)"
    assert v.year_label(v.first_year + 10) == "Eleventh Cycle (210 BCE)"  # §3.3
    assert [(s, k.value) for s, k in v.phases] == [
        ("Spring", "movement"), ("Spring", "retreat"), ("Autumn", "movement"),
        ("Autumn", "retreat"), ("Autumn", "census"), ("Winter", "adjustment")]  # §2.2
    assert v.rules.victory_centres == 16  # §3.1
    assert v.rules.builds.value == ("owned" if variant == "s9-basic" else "home")  # §8.1, §8.2


def test_complete_shares_the_basic_map(basic):
    complete = lawspeaker.load_variant("s9-complete")
    assert complete.map == basic.map
    assert complete.powers == basic.powers
    assert complete.starting_units == basic.starting_units
    meta = read_yaml(VARIANTS_DIR / "s9-complete" / "variant.yaml")
    assert meta["base"] == "../s9-basic"
    assert complete.uses("minor_powers") and complete.uses("diplomacy_points")
    assert not basic.uses("minor_powers") and not basic.uses("diplomacy_points")
    assert complete.rules.max_years == 11 and basic.rules.max_years is None  # §3.3


def test_complete_lists_one_minor_unit_per_neutral_sc(basic, key):
    """§9.0: every neutral SC starts with one stationary Minor unit (type per §8.4)."""
    minors = read_yaml(VARIANTS_DIR / "s9-complete" / "variant.yaml")["minors"]
    assert set(minors) == neutral_scs(basic)
    for k, letter in minors.items():
        assert letter in ("A", "F")
        assert holds(basic.map, UnitType(letter), k), f"{letter} {k}"
    for name, letter in STATED_MINORS.items():
        assert minors[key(name)] == letter
    basic_meta = read_yaml(VARIANTS_DIR / "s9-basic" / "variant.yaml")
    assert "minors" not in basic_meta  # §4.0: S9 Basic has no Minor units


def test_every_choice_is_marked_stated_or_reconstructed():
    """Every province's type line says whether the rulebook states it or we chose it."""
    text = (VARIANTS_DIR / "s9-basic" / "map.yaml").read_text(encoding="utf-8")
    type_lines = re.findall(r"^    type: .*$", text, flags=re.MULTILINE)
    assert len(type_lines) == 76
    assert all("# stated" in t or "# reconstructed" in t for t in type_lines)
    links_lines = re.findall(r"^    links:.*$", text, flags=re.MULTILINE)
    assert len(links_lines) == 75 and all("# reconstructed" in t for t in links_lines)


# --- sanity and balance of the reconstruction ---------------------------------------------


def test_every_province_has_layout_coordinates(game_map):
    for k, p in game_map.provinces.items():
        assert p.xy is not None and all(0 <= c <= 1000 for c in p.xy), k


def test_connected_for_armies(game_map):
    """Every space an army can stand on is reachable by land, except islands with no land
    border (which need a convoy)."""
    spaces = {k for k in named(game_map) if holds(game_map, A, k)}
    cut_off = {k for k in spaces if "island" in game_map.provinces[k].flags
               and not game_map.neighbours(A, k)}
    assert spaces - cut_off <= set(reach(game_map, A, "van"))
    assert cut_off == {"eir", "lak"}


def test_connected_for_fleets(game_map):
    spaces = {k for k in named(game_map) if holds(game_map, F, k)}
    assert spaces <= set(reach(game_map, F, "noa"))


def test_every_space_has_neighbours(game_map):
    for k in named(game_map):
        assert len(game_map.touching(k)) >= 2, k


@pytest.mark.parametrize("power", sorted(POWERS))
def test_homes_have_three_to_six_neighbours(basic, power):
    for h in basic.powers[power].homes:
        assert 3 <= len(basic.map.touching(h)) <= 6, h


@pytest.mark.parametrize("power", sorted(POWERS))
def test_each_power_has_one_to_three_neutral_scs_within_two_moves(basic, power):
    """Counted for any unit type that can stand on one of the power's homes."""
    neutral = neutral_scs(basic)
    near = set()
    for h in basic.powers[power].homes:
        for unit in UnitType:
            if holds(basic.map, unit, h):
                near |= neutral & set(reach(basic.map, unit, h, limit=2))
    assert 1 <= len(near) <= 3, sorted(near)


def test_every_neutral_sc_is_within_two_moves_of_some_power(basic):
    neutral = neutral_scs(basic)
    near = set()
    for p in basic.powers.values():
        for h in p.homes:
            for unit in UnitType:
                if holds(basic.map, unit, h):
                    near |= neutral & set(reach(basic.map, unit, h, limit=2))
    assert near == neutral


@pytest.mark.parametrize("power", sorted(POWERS))
def test_no_power_is_boxed_in(basic, power):
    """Each starting unit has at least two places to go."""
    for u in basic.starting_units:
        if u.power == power:
            assert len(basic.map.neighbours(u.type, u.location)) >= 2, u


@pytest.mark.parametrize("power", sorted(POWERS))
def test_fleets_reach_the_seas_around_their_homes(basic, power):
    """Every sea touching a home is one fleet move from that home."""
    for h in basic.powers[power].homes:
        seas = {o for o in basic.map.touching(h) if basic.map.provinces[o].terrain is Terrain.SEA}
        if holds(basic.map, F, h):
            assert seas <= basic.map.neighbours(F, h), h
