"""Dissolution v2.1 map and setup: every fact the rulebook states, and sanity.

The Geographic Map (§1.3) is not available, so ``dissolution/map.yaml`` is a reconstruction
(docs/dissolution-map.md). These tests pin down what the rulebook (seed 004) states or forces,
each tagged with its fact id (DIS-A01..A105, docs/dissolution-map.md), plus
the connectivity the reconstruction promises. A GM with the official map replaces the links in
map.yaml and reruns this file: the fact tests must still pass.
"""

from __future__ import annotations

from collections import deque

import pytest

import lawspeaker
from lawspeaker import Terrain, UnitType
from lawspeaker.core.geography import UnknownNameError
from lawspeaker.engine.phases import initial_position
from lawspeaker.rules.neutral_limits import favor

A, F, W = UnitType.ARMY, UnitType.FLEET, UnitType.WING

#: §10: abbreviation -> (name, VP, oil)
SECTION_10 = {
    "AdA": ("Addis Ababa", 2, False), "Adr": ("Adriatic Sea", 0, False),
    "Aeg": ("Aegean Sea", 0, False), "Akm": ("Akmola", 0, False), "Akt": ("Aktau", 2, True),
    "Alb": ("Albania", 1, False), "Alm": ("Alma-Ata", 2, False), "Alx": ("Alexandria", 1, False),
    "Ara": ("Arabian Sea", 0, False), "Arm": ("Armenia", 0, False),
    "Ast": ("Astrakhan", 0, False), "Asw": ("Aswan", 1, False), "Ath": ("Athens", 0, False),
    "Aus": ("Austria", 1, False), "Avi": ("Aviano", 0, False), "Aze": ("Azerbaijan", 1, True),
    "Azo": ("Sea of Azov", 0, False), "Bal": ("Baltic Sea", 0, False),
    "Ben": ("Benghazi", 1, True), "Bgd": ("Belgrade", 2, False),
    "BHz": ("Bosnia-Herzegovina", 1, False), "Bla": ("Black Sea", 0, False),
    "Blo": ("Balochistan", 0, False), "Blr": ("Belarus", 1, False),
    "Bra": ("Bratislava", 1, False), "BSt": ("Baltic States", 1, False),
    "Buc": ("Bucharest", 2, False), "Bul": ("Bulgaria", 1, False), "Cai": ("Cairo", 2, False),
    "Cas": ("Caspian Sea", 0, False), "Cha": ("Chad", 0, False), "Clu": ("Cluj", 2, False),
    "Cre": ("Crete", 0, False), "Cri": ("Crişana", 0, False), "Cro": ("Croatia", 1, False),
    "Dar": ("Darfur", 0, False), "Del": ("Delhi", 0, False), "DiD": ("Dire Dawa", 2, False),
    "Dji": ("Djibouti", 0, False), "Dmm": ("Dammam", 1, True),
    "EGe": ("East Germany", 0, False), "Eri": ("Eritrea", 1, False),
    "Fin": ("Finland", 1, False), "GAd": ("Gulf of Aden", 0, False),
    "Gda": ("Gdansk", 2, False), "Geo": ("Georgia", 1, False),
    "GOM": ("Gulf of Oman", 0, False), "Guj": ("Gujarat", 0, False),
    "Hun": ("Hungary", 1, False), "Inc": ("Incirlik", 0, False),
    "Ind": ("Indian Ocean", 0, False), "Ion": ("Ionian Sea", 0, False),
    "Irq": ("Iraq", 1, True), "Isl": ("Islamabad", 2, False), "Ist": ("Istanbul", 0, False),
    "Izm": ("Izmir", 0, False), "Jor": ("Jordan", 1, False), "Jub": ("Juba", 1, False),
    "Kab": ("Kabul", 1, False), "Kal": ("Kaliningrad", 0, False),
    "Kan": ("Kandahar", 1, False), "Kas": ("Kashmir", 0, False), "Kch": ("Karachi", 2, False),
    "Kgd": ("Karaganda", 0, False), "Khk": ("Kharkiv", 2, False),
    "Khm": ("Khartoum", 1, False), "Kho": ("Khorasan", 0, False),
    "Khu": ("Khuzestan", 0, False), "Kos": ("Kosovo", 0, False),
    "Kra": ("Krasnodar", 0, False), "Kuw": ("Kuwait", 0, False),
    "Kyr": ("Kyrgyzstan", 0, False), "Kyv": ("Kyiv", 2, False), "Leb": ("Lebanon", 0, False),
    "Len": ("Leningrad", 0, False), "Lev": ("Levantine Sea", 0, False),
    "Lib": ("Libyan Sea", 0, False), "Lvi": ("Lviv", 0, False),
    "Mac": ("Macedonia", 0, False), "Mec": ("Mecca", 1, False), "Mol": ("Moldova", 1, False),
    "Mos": ("Moscow", 0, False), "Mum": ("Mumbai", 0, False), "Naj": ("Najran", 0, False),
    "Nap": ("Naples", 0, False), "Niz": ("Nizhny Novgorod", 0, False),
    "Nuk": ("Nukus", 1, False), "Ode": ("Odessa", 0, False), "Ols": ("Olsztyn", 0, False),
    "Oma": ("Oman", 0, False), "Par": ("Paris", 0, False), "Per": ("Persian Gulf", 0, False),
    "Pes": ("Peshawar", 2, False), "Pod": ("Podgorica", 1, False),
    "Poz": ("Poznan", 0, False), "Pra": ("Prague", 1, False), "Qat": ("Qatar", 0, False),
    "Ram": ("Ramstein", 0, False), "Red": ("Red Sea", 0, False), "Riy": ("Riyadh", 2, True),
    "Sev": ("Sevastopol", 1, False), "Shi": ("Shiraz", 1, True), "Som": ("Somalia", 1, False),
    "Sue": ("Suez", 1, False), "Sve": ("Sverdlovsk", 0, False), "Svn": ("Slovenia", 0, False),
    "Syr": ("Syria", 1, False), "Taj": ("Tajikistan", 1, False), "Tbk": ("Tabuk", 0, False),
    "Tbz": ("Tabriz", 2, False), "Teh": ("Tehran", 2, False), "Tel": ("Tel Aviv", 0, False),
    "Tkm": ("Turkmenistan", 1, False), "Trp": ("Tripoli", 1, False),
    "Tsh": ("Tashkent", 1, False), "Tun": ("Tunisia", 0, False),
    "TyS": ("Tyrhennian Sea", 0, False), "UAE": ("United Arab Emirates", 1, True),
    "War": ("Warsaw", 2, False), "WDe": ("Western Desert", 0, False),
    "WMd": ("Western Mediterranean Sea", 0, False), "Yem": ("Yemen", 1, False),
}

#: §7: power -> (abbreviation, homes, starting units, starting VP, Favor N/U/I/B/R)
POWERS = {
    "Egypt": ("EG", {"Alx", "Asw", "Cai", "Sue"}, {"F Alx", "W Asw", "A Cai"}, 5, (2, 1, 1, 1, 1)),
    "Ethiopia": ("ET", {"AdA", "DiD"}, {"A AdA", "A DiD"}, 4, (1, 2, 1, 2, 0)),
    "Iran": ("IR", {"Shi", "Tbz", "Teh"}, {"A Shi", "A Tbz", "A Teh"}, 5, (1, 0, 0, 3, 2)),
    "Kazakhstan": ("KA", {"Akt", "Alm"}, {"A Alm", "A Akt"}, 4, (1, 1, 1, 1, 2)),
    "Pakistan": ("PA", {"Isl", "Kch", "Pes"}, {"A Isl", "A Kch", "A Pes"}, 6, (2, 2, 0, 0, 2)),
    "Poland": ("PO", {"Gda", "War"}, {"A Gda", "A War"}, 4, (1, 2, 1, 1, 1)),
    "Romania": ("RO", {"Buc", "Clu"}, {"A Buc", "A Clu"}, 4, (1, 1, 2, 2, 0)),
    "Saudi Arabia": ("SA", {"Dmm", "Mec", "Riy"}, {"A Dmm", "A Riy"}, 4, (2, 2, 0, 1, 1)),
    "Ukraine": ("UK", {"Khk", "Kyv", "Sev"}, {"A Khk", "A Kyv", "F Sev"}, 5, (1, 1, 1, 1, 2)),
    "Yugoslavia": ("YU", {"Bgd", "Pod"}, {"A Bgd", "A Pod"}, 3, (0, 0, 1, 3, 2)),
}
NUCLEAR_ORDER = ("NATO", "US Navy", "Israel", "India", "Russia")

#: §8: nuclear power -> (territories, units)
NUCLEAR = {
    "NATO": ({"Ath", "Avi", "Cre", "EGe", "Inc", "Ist", "Izm", "Nap", "Par", "Ram"},
             {"A Ath", "W Avi", "W Dji", "W Inc", "F Izm", "A Par", "W Ram"}),
    "Russia": ({"Ast", "Kal", "Kra", "Len", "Mos", "Niz", "Sve"},
               {"F Kal", "W Kra", "A Mos", "W Sve"}),
    "India": ({"Del", "Guj", "Kas", "Mum"}, {"A Del", "W Mum"}),
    "Israel": ({"Tel"}, {"W Tel"}),
    "US Navy": (set(), {"F Kuw", "F Nap"}),
}

TAN = {"Alb", "Aus", "Aze", "Blr", "BSt", "Bul", "Eri", "Fin", "Geo", "Hun", "Irq", "Jor", "Mol",
       "Som", "Syr", "Taj", "Tkm", "UAE", "Yem"}
BRONZE = {"BHz", "Cro", "Jub", "Khm", "Kab", "Kan"}
PAIRS = {"Czechoslovakia": {"Bra", "Pra"}, "Libya": {"Ben", "Trp"}, "Uzbekistan": {"Nuk", "Tsh"}}

#: Stated adjacencies for every unit type that can cross (armies between land spaces, fleets
#: along coasts, "mutual adjacency"): id -> (one, other, kind). Kind: army, fleet or any.
LINKS = {
    "DIS-A01": ("Bra", "Pra", "army"), "DIS-A02": ("Ben", "Trp", "army"),
    "DIS-A03": ("Nuk", "Tsh", "army"), "DIS-A04": ("Niz", "Ast", "fleet"),
    "DIS-A05": ("Niz", "Len", "fleet"), "DIS-A07": ("Ist", "Bla", "fleet"),
    "DIS-A08": ("Ist", "Aeg", "fleet"), "DIS-A09": ("Ist", "Izm", "fleet"),
    "DIS-A10": ("Sue", "Lev", "fleet"), "DIS-A11": ("Sue", "Red", "fleet"),
    "DIS-A12": ("Sue", "Alx", "army"), "DIS-A13": ("Sue", "Cai", "army"),
    "DIS-A14": ("Sue", "Asw", "army"), "DIS-A15": ("Sue", "Tel", "any"),
    "DIS-A16": ("Sue", "Jor", "fleet"), "DIS-A17": ("Sue", "Tbk", "any"),
    "DIS-A18": ("Jor", "Tel", "fleet"), "DIS-A19": ("Jor", "Tbk", "fleet"),
    "DIS-A21": ("Kab", "Pes", "army"), "DIS-A22": ("Kab", "Taj", "army"),
    "DIS-A23": ("Pes", "Taj", "army"), "DIS-A24": ("Naj", "Dmm", "army"),
    "DIS-A25": ("Naj", "Oma", "army"), "DIS-A26": ("Naj", "Yem", "army"),
    "DIS-A27": ("Dmm", "Oma", "army"), "DIS-A28": ("Dmm", "Yem", "army"),
    "DIS-A29": ("Oma", "Yem", "army"), "DIS-A30": ("Mol", "Buc", "army"),
    "DIS-A43": ("Irq", "Inc", "army"), "DIS-A44 Eri": ("Dji", "Eri", "army"),
    "DIS-A44 Yem": ("Dji", "Yem", "army"), "DIS-A44 Som": ("Dji", "Som", "army"),
    "DIS-A44 DiD": ("Dji", "DiD", "army"), "DIS-A45 Ast": ("Akt", "Ast", "army"),
    "DIS-A45 Niz": ("Akt", "Niz", "army"), "DIS-A48": ("Fin", "Len", "army"),
    "DIS-A51": ("Gda", "EGe", "army"), "DIS-A53": ("Gda", "Kal", "army"),
    "DIS-A54": ("Kch", "Guj", "army"), "DIS-A56": ("Pes", "Kas", "army"),
    "DIS-A58": ("Poz", "EGe", "army"), "DIS-A70": ("Cai", "Asw", "army"),
    "DIS-A71": ("Asw", "Khm", "any"), "DIS-A72": ("Ben", "Khm", "army"),
    "DIS-A73": ("EGe", "Ram", "army"), "DIS-A74": ("Mum", "Guj", "army"),
    "DIS-A75": ("UAE", "Shi", "army"), "DIS-A76": ("Sev", "Bla", "fleet"),
    "DIS-A77": ("Bla", "Inc", "fleet"), "DIS-A78": ("Inc", "Syr", "army"),
    "DIS-A79": ("Tel", "Syr", "any"), "DIS-A80": ("Jor", "Syr", "army"),
    "DIS-A81": ("Irq", "Syr", "army"), "DIS-A82": ("Teh", "Shi", "army"),
    "DIS-A84": ("Kan", "Shi", "army"), "DIS-A85": ("War", "Pra", "army"),
    "DIS-A86": ("Aus", "Pra", "army"), "DIS-A87": ("Bgd", "Hun", "army"),
    "DIS-A88": ("Aus", "Hun", "army"), "DIS-A89": ("Ram", "Aus", "any"),
    "DIS-A90": ("Cro", "Hun", "army"), "DIS-A91": ("Dmm", "UAE", "army"),
    "DIS-A92": ("Per", "UAE", "fleet"), "DIS-A93": ("Per", "Dmm", "fleet"),
    "DIS-A94": ("Mos", "Khk", "army"), "DIS-A95": ("Ast", "Khk", "army"),
    "DIS-A96": ("Ast", "Kra", "army"), "DIS-A97": ("Kra", "Sev", "any"),
    "DIS-A98": ("Kyv", "Khk", "army"), "DIS-A99": ("Kyv", "Sev", "army"),
    "DIS-A100": ("Blr", "Mos", "army"), "DIS-A101": ("Isl", "Del", "army"),
    "DIS-A102": ("Bla", "Kra", "fleet"), "DIS-A103": ("Riy", "Irq", "army"),
    "DIS-A104": ("Dmm", "Irq", "army"), "DIS-A105": ("Kuw", "Irq", "fleet"),
}

#: §6.3.2 coastal crossings: four spaces, each pair adjacent (DIS-A32..A41).
CROSSINGS = {
    "DIS-A32": ("Sev", "Kra", "Azo", "Bla"), "DIS-A33": ("Dji", "Eri", "Red", "Yem"),
    "DIS-A34": ("Tel", "Jor", "Sue", "Tbk"), "DIS-A35": ("Dmm", "Per", "Qat", "UAE"),
    "DIS-A36": ("Irq", "Khu", "Kuw", "Per"), "DIS-A37": ("GOM", "Per", "Shi", "UAE"),
    "DIS-A38": ("Bal", "BSt", "Fin", "Len"), "DIS-A39": ("Avi", "Svn", "Cro", "Adr"),
    "DIS-A40": ("Cro", "BHz", "Pod", "Adr"), "DIS-A41": ("Kal", "Gda", "Ols", "Bal"),
}

#: Stated non-adjacencies (any unit type): id -> (one, others).
NOT_ADJACENT = {
    "DIS-A31": ("Ode", ("Clu",)),
    "DIS-A46": ("Akt", ("Kal", "Kra", "Mos", "Sve")),
    "DIS-A47": ("Cre", ("Ath", "Avi", "Dji", "Inc", "Izm", "Par", "Ram")),
    "DIS-A49": ("Fin", ("Kal", "Kra", "Mos", "Sve")),
    "DIS-A52": ("Gda", ("Ath", "Avi", "Dji", "Inc", "Izm", "Par", "Ram")),
    "DIS-A55": ("Kch", ("Del", "Mum")),
    "DIS-A57": ("Pes", ("Del", "Mum")),
    "DIS-A59": ("Poz", ("Ath", "Avi", "Dji", "Inc", "Izm", "Par", "Ram")),
}


@pytest.fixture(scope="module")
def m(dis):
    return dis.map


def k(game_map, text: str) -> str:
    return game_map.lookup(text)


def touching(game_map, one: str, other: str) -> bool:
    return k(game_map, other) in game_map.touching(k(game_map, one))


def unit_set(units) -> set[str]:
    return {f"{u.type.value} {u.province}" for u in units}


def abbr_units(texts) -> set[str]:
    return {f"{t[0]} {t[2:].lower()}" for t in texts}


# --- section a: spaces ---------------------------------------------------------------------


def test_122_spaces_with_the_section_10_names(m):
    assert len(SECTION_10) == 122
    assert sorted(p.name for p in m.provinces.values()) == sorted(n for n, _, _ in
                                                                  SECTION_10.values())


@pytest.mark.parametrize(("abbreviation", "row"), list(SECTION_10.items()))
def test_every_space_answers_to_its_abbreviation_with_its_vp_and_oil(m, abbreviation, row):
    """§10: abbreviation, name, VP and oil of every space."""
    name, vp, oil = row
    key = m.lookup(abbreviation)
    assert key == abbreviation.lower() == m.lookup(name)
    p = m.provinces[key]
    assert p.name == name and p.sc_value == vp and ("oil" in p.flags) is oil


def test_57_centres_worth_75_vp_39_single_18_double_and_8_oil(dis, m):
    """§1.4, §5.2.2."""
    values = [p.sc_value for p in m.provinces.values() if p.is_sc]
    assert (len(values), sum(values), values.count(1), values.count(2)) == (57, 75, 39, 18)
    assert dis.oil_centres == {"akt", "aze", "ben", "dmm", "irq", "riy", "shi", "uae"}


def test_dammam_answers_to_dam_and_tab_is_refused_as_ambiguous(m):
    """§7.8 and Ex 9.3.1.1 write Dam; Tab is Tabriz in §7.3 and Tabuk in §6.2.3 (digest §3.3.3)."""
    assert m.lookup("Dam") == m.lookup("Dmm") == "dmm"
    with pytest.raises(UnknownNameError) as err:
        m.lookup("Tab")
    assert err.value.ambiguous
    assert m.lookup("Crisana") == "cri" and m.lookup("Tyrrhenian Sea") == "tys"


def test_no_split_coasts_anywhere(m):
    """§6.4: Aviano, Tel Aviv, Incirlik, Dammam, Krasnodar and Izmir have one coast each."""
    assert not [p.key for p in m.provinces.values() if p.coasts]
    for name in ("Avi", "Tel", "Inc", "Dmm", "Kra", "Izm"):
        assert m.provinces[k(m, name)].terrain is Terrain.COASTAL


def test_crete_is_the_only_island_and_is_passable(m):
    """§6.5."""
    islands = [p.key for p in m.provinces.values() if "island" in p.flags]
    assert islands == ["cre"]
    assert m.is_valid_location(A, "cre") and m.is_valid_location(F, "cre")
    assert not [p for p in m.provinces.values() if p.terrain is Terrain.IMPASSABLE]


def test_canals_are_the_deep_water_system_istanbul_and_suez_and_never_convoy(m):
    """§6.2: Len, Niz, Ast, Ist, Sue: passable by armies and fleets, fleets there never convoy."""
    canals = {p.key for p in m.provinces.values() if "canal" in p.flags}
    assert canals == {"len", "niz", "ast", "ist", "sue"}
    for c in canals:
        assert m.is_valid_location(A, c) and m.is_valid_location(F, c)
        assert not m.provinces[c].can_convoy


def test_seas_convoy_and_every_sea_is_named_as_water(m):
    seas = {p.key for p in m.provinces.values() if p.terrain is Terrain.SEA}
    assert seas == {"adr", "aeg", "ara", "azo", "bal", "bla", "cas", "gad", "gom", "ind", "ion",
                    "lev", "lib", "per", "red", "tys", "wmd"}
    assert all(m.provinces[s].can_convoy for s in seas)


# --- section c: adjacency --------------------------------------------------------------------


@pytest.mark.parametrize(("fact", "link"), list(LINKS.items()))
def test_stated_adjacency(m, fact, link):
    one, other, kind = link
    a, b = k(m, one), k(m, other)
    assert touching(m, one, other), fact
    if kind == "army":
        assert m.can_move(A, a, b) and m.can_move(A, b, a), fact
    if kind == "fleet":
        assert m.can_move(F, a, b) and m.can_move(F, b, a), fact


@pytest.mark.parametrize(("fact", "four"), list(CROSSINGS.items()))
def test_coastal_crossings_are_mutually_adjacent(m, fact, four):
    """§6.3.2: the four spaces of each crossing border each other; two land spaces of a
    crossing are crossed by armies and fleets alike."""
    for i, one in enumerate(four):
        for other in four[i + 1:]:
            a, b = k(m, one), k(m, other)
            assert m.can_move(F, a, b), (fact, one, other)
            if m.provinces[a].terrain is not Terrain.SEA and \
                    m.provinces[b].terrain is not Terrain.SEA:
                assert m.can_move(A, a, b), (fact, one, other)


def test_inland_crossings(m):
    """§6.3.1 (DIS-A21..A29): Kabul, Peshawar, Tajikistan; Najran, Dammam, Oman, Yemen."""
    for group in (("Kab", "Pes", "Taj"), ("Naj", "Dmm", "Oma", "Yem")):
        for i, one in enumerate(group):
            for other in group[i + 1:]:
                assert m.can_move(A, k(m, one), k(m, other)), (one, other)


@pytest.mark.parametrize(("fact", "pair"), list(NOT_ADJACENT.items()))
def test_stated_non_adjacency(m, fact, pair):
    one, others = pair
    for other in others:
        assert not touching(m, one, other), (fact, other)


def test_nizhny_novgorod_fleets_reach_only_astrakhan_and_leningrad(m):
    """§6.2.1 (DIS-A06): the Deep Water System's choke point."""
    assert m.neighbours(F, "niz") == {"ast", "len"}


def test_suez_neighbours_are_the_stated_eight(m):
    """§6.2.3 (DIS-A10..A17): the list reads as complete, so it is kept complete."""
    assert m.touching("sue") == {"lev", "red", "alx", "cai", "asw", "tel", "jor", "tbk"}


def test_jordan_is_coastal_without_touching_water(m):
    """§6.2.3 (DIS-A18..A20): a coast on the Gulf of Aqaba, inside Suez."""
    assert m.provinces["jor"].terrain is Terrain.COASTAL
    assert m.neighbours(F, "jor") == {"tel", "sue", "tbk"}
    assert not [p for p in m.touching("jor") if m.provinces[p].terrain is Terrain.SEA]


def test_ethiopia_is_landlocked_and_poland_alone_has_a_baltic_coast(dis, m):
    """§7.2 (DIS-A62), §7.6 (DIS-A64)."""
    assert m.provinces["ada"].terrain is m.provinces["did"].terrain is Terrain.LAND
    baltic = {h for p in dis.powers.values() for h in p.homes if "bal" in m.touching(h)}
    assert baltic == {"gda"}


def test_izmir_fleet_has_one_coast_on_both_sides_of_istanbul(m):
    """§6.2.2: the NATO fleet in Izmir treats its coast as unified (Aegean and Black Sea)."""
    assert {"aeg", "bla", "ist"} <= m.neighbours(F, "izm")


def test_finland_is_the_only_minor_next_to_nuclear_territory_but_not_its_units(dis, m):
    """§11.6.6 (DIS-A60): every other minor centre next to a nuclear power's territory is
    next to one of its units too."""
    lonely = set()
    for power in dis.nuclear.values():
        units = {u.province for u in power.units}
        for minor in dis.minors:
            near = m.touching(minor)
            if near & set(power.territories) and not near & units:
                lonely.add(minor)
    assert lonely == {"fin"}


def test_the_section_11_6_6_list_is_complete(dis, m):
    """§11.6.6 (DIS-A61): Akt, Cre, Fin, Gda, Kch, Pes, Poz are the only land spaces in or next
    to a nuclear power's territory that neither hold nor touch one of its units."""
    lonely = set()
    for power in dis.nuclear.values():
        units = {u.province for u in power.units}
        zone = set(power.territories)
        for t in power.territories:
            zone |= m.touching(t)
        for p in zone:
            if m.provinces[p].terrain is Terrain.SEA or p in units:
                continue
            if not m.touching(p) & units:
                lonely.add(p)
    assert lonely == {"akt", "cre", "fin", "gda", "kch", "pes", "poz"}


def test_every_land_space_is_reachable_by_army_and_every_sea_by_fleet(m):
    def reach(unit, start):
        seen, queue = {start}, deque([start])
        while queue:
            for nxt in m.neighbours(unit, queue.popleft()):
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
        return seen

    land = {p for p, v in m.provinces.items() if v.terrain is not Terrain.SEA and p != "cre"}
    assert reach(A, "cai") == land  # Crete: by convoy only
    water = {p for p, v in m.provinces.items() if v.terrain is not Terrain.LAND}
    assert reach(F, "bla") == water


def test_every_space_has_layout_coordinates(m):
    assert all(p.xy is not None for p in m.provinces.values())
    assert len({p.xy for p in m.provinces.values()}) == 122


# --- section b: powers -----------------------------------------------------------------------


@pytest.mark.parametrize("name", list(POWERS))
def test_player_powers_homes_units_vp_and_favor(dis, m, name):
    """§7: homes, starting units, starting VP (§1.3.1 sidebar) and starting Favor."""
    abbreviation, homes, units, vp, favor = POWERS[name]
    power = dis.powers[name]
    assert power.abbreviation == abbreviation
    assert set(power.homes) == {h.lower() for h in homes}
    assert unit_set(u for u in dis.starting_units if u.power == name) == abbr_units(units)
    assert sum(m.provinces[h].sc_value for h in power.homes) == vp
    assert dis.favor[name] == dict(zip(NUCLEAR_ORDER, favor, strict=True))


def test_egypt_alone_starts_with_a_wing_and_it_is_stationary(dis):
    """§4.4, §7.1, §3.3 (1)."""
    wings = [u for u in dis.starting_units if u.type is W]
    assert [(u.power, u.province, u.stationary) for u in wings] == [("Egypt", "asw", True)]


@pytest.mark.parametrize("name", list(NUCLEAR))
def test_nuclear_powers_territories_and_units(dis, name):
    """§8: territories and units; all stationary but the US Navy's fleets (§3.7, §8.5.3)."""
    territories, units = NUCLEAR[name]
    power = dis.nuclear[name]
    assert set(power.territories) == {t.lower() for t in territories}
    assert unit_set(power.units) == abbr_units(units)
    assert all(u.stationary is (name != "US Navy") for u in power.units)
    assert name in dis.invulnerable_powers


def test_djibouti_holds_a_nato_wing_but_is_not_nato_territory(dis):
    """§8.1.3, §8.5.1: Naples is NATO's though a US fleet is there; Kuwait is neutral."""
    assert "dji" not in dis.nuclear["NATO"].territories
    assert "nap" in dis.nuclear["NATO"].territories
    assert not any("kuw" in n.territories for n in dis.nuclear.values())


def test_minor_powers_tan_bronze_and_paired(dis, m):
    """§3.5: 31 minor armies on the 31 neutral centres; tan, bronze, and three pairs of two
    adjacent armies (chocolate)."""
    assert set(dis.minors) == {c.lower() for c in TAN | BRONZE | set().union(*PAIRS.values())}
    assert all(t is A for t in dis.minors.values())
    assert {c for c, col in dis.minor_colours.items() if col == "tan"} == {c.lower() for c in TAN}
    assert {c for c, col in dis.minor_colours.items() if col == "bronze"} == \
        {c.lower() for c in BRONZE}
    assert {n: set(c) for n, c in dis.minor_pairs.items()} == \
        {n: {c.lower() for c in cs} for n, cs in PAIRS.items()}
    for one, other in dis.minor_pairs.values():
        assert m.can_move(A, one, other)


def test_every_centre_is_a_home_or_a_minor(dis, m):
    homes = {h for p in dis.powers.values() for h in p.homes}
    assert len(homes) == 26
    assert {p for p, v in m.provinces.items() if v.is_sc} == homes | set(dis.minors)


def test_starting_position_has_players_minors_and_nuclear_units(dis):
    """Dissolution §7, §3.5, §8: 24 player units, 31 minor armies (the paired minors' two
    each under one power, §3.5.3) and 16 nuclear units, stationary but the US Navy's."""
    start = initial_position(dis)
    assert start.phase.year == 1992 and start.phase.season == "Spring"
    assert len(start.units) == 24 + 31 + 16
    assert start.units["asw"].stationary and start.units["asw"].type is W
    assert start.units["bra"].power == start.units["pra"].power == "Czechoslovakia"
    assert start.owners["ben"] == start.owners["trp"] == "Libya"
    nuclear = {p: u for p, u in start.units.items() if start.kind_of(u.power) == "nuclear"}
    assert len(nuclear) == 16
    assert {p for p, u in nuclear.items() if not u.stationary} == {"kuw", "nap"}
    # §11.3: Favor values come from the Embassies on the Favor Map
    assert favor(dis, start, "Yugoslavia", "NATO") == 0 and favor(dis, start, "Iran", "India") == 3


def test_map_check_is_clean():
    assert lawspeaker.check_variant("dissolution") == []
