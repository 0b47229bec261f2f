"""Dissolution combat in the resolver: wings, disabling, explicit convoy paths, criss-cross
convoys (Dissolution v2.1 §3.3, §3.7-§3.11), written like the rulebook's examples.

Each test sets up units as the example does and adjudicates one movement phase with the
variant's own rules (``disabling``, ``convoy_paths: explicit``, ``convoy_paradox:
dissolution``) and its nuclear powers invulnerable.
"""

from __future__ import annotations

import pytest

import lawspeaker
from lawspeaker import Unit, UnitType, parse_order, resolve_movement
from lawspeaker.core.results import Outcome


def board(dis, *specs: str) -> dict[str, Unit]:
    """``"Egypt: W asw"``; minor, nuclear and wing units are stationary (§3.7), except the
    US Navy's fleets."""
    units = {}
    for spec in specs:
        power, _, text = spec.partition(": ")
        letter, loc = text.split()
        utype = UnitType(letter)
        stationary = (utype is UnitType.WING or power not in dis.powers) and power != "US Navy"
        units[loc] = Unit(power, utype, loc, stationary)
    return units


def adjudicate(dis, units, *orders: str, **rules):
    parsed = []
    for text in orders:
        power, _, order = text.partition(": ")
        o = parse_order(dis.map, order)
        parsed.append(type(o)(**{**{f: getattr(o, f) for f in o.__dataclass_fields__
                                   if o.__dataclass_fields__[f].init}, "power": power}))
    result = resolve_movement(dis.map, units, parsed, dis.rules.with_options(**rules),
                              dis.invulnerable_powers)
    by_space = {}
    for res in result.results:  # an illegal order's own result, not the hold that follows
        if not (res.implicit and res.order.province in by_space):
            by_space[res.order.province] = res
    return result, by_space


# --- §3.10.2: convoys with wings and explicit paths -------------------------------------------


def test_ex_3_10_2_1_one_wing_convoys_an_army_over_land(dis):
    units = board(dis, "Egypt: A cai", "Egypt: W asw", "Benghazi: A ben", "Khartoum: A khm")
    result, r = adjudicate(dis, units, "Egypt: A Cai - Asw - Khm", "Egypt: W Asw C Cai - Khm",
                           "Benghazi: A Ben S Cai - Khm", "Khartoum: A Khm H")
    assert r["cai"].reason == "Move succeeds"
    assert r["khm"].reason == "Dislodged by A Cai (2v1)"
    assert result.units["khm"].power == "Egypt"


def test_ex_3_10_2_2_two_wings_convoy_an_army_across_the_map(dis):
    """The distance between the wings does not matter (§3.3)."""
    units = board(dis, "Poland: A ege", "NATO: W ram", "India: W mum")
    result, r = adjudicate(dis, units, "Poland: A EGe - Ram - Mum - Guj",
                           "NATO: W Ram C EGe - Guj", "India: W Mum C EGe - Guj")
    assert r["ege"].reason == "Move succeeds"
    assert result.units["guj"].power == "Poland"


def test_ex_3_10_2_3_a_wing_convoys_an_army_to_attack_a_second_wing(dis):
    """Written for an earlier setup (Iran's wing in Shiraz); the rules still decide it."""
    units = board(dis, "Egypt: A cai", "Egypt: W asw", "United Arab Emirates: A uae",
                  "Iran: W shi")
    _, r = adjudicate(dis, units, "Egypt: A Cai - Asw - Shi", "Egypt: W Asw C Cai - Shi",
                      "United Arab Emirates: A UAE S Cai - Shi", "Iran: W Shi H")
    assert r["cai"].reason == "Move succeeds"
    assert r["shi"].reason == "Dislodged by A Cai (2v1)"


def test_ex_3_10_2_4_a_wing_and_a_fleet_convoy_one_army(dis):
    units = board(dis, "Ukraine: A sev", "Ukraine: F bla", "NATO: W inc", "Israel: W tel",
                  "Syria: A syr")
    _, r = adjudicate(dis, units, "Ukraine: A Sev - Bla - Inc - Syr", "Ukraine: F Bla C Sev - Syr",
                      "NATO: W Inc C Sev - Syr", "Israel: W Tel S Sev - Syr", "Syria: A Syr H")
    assert r["sev"].reason == "Move succeeds"
    assert r["syr"].reason == "Dislodged by A Sev (2v1)"


def test_a_move_that_needs_a_convoy_must_state_its_path(dis):
    """§3.10.1: the error says how to write the path."""
    units = board(dis, "Egypt: A cai", "Egypt: W asw", "Khartoum: A khm")
    _, r = adjudicate(dis, units, "Egypt: A Cai - Khm", "Egypt: W Asw C Cai - Khm")
    assert r["cai"].outcome is Outcome.ILLEGAL
    assert "must state its path" in r["cai"].reason and "A Cai - Asw - Khm" in r["cai"].reason


@pytest.mark.parametrize("order,there,here", [
    ("Ukraine: A Clu - Ode", "Odessa", "Cluj"),  # §6.3.1: "Odessa is *not* adjacent to Cluj"
    ("Ukraine: A Buc - Kyv", "Kyiv", "Bucharest"),
    ("Ukraine: A Kyv - Mos", "Moscow", "Kyiv"),
])
def test_a_move_no_convoy_could_carry_is_illegal_and_says_why(dis, order, there, here):
    """§3.10.1, §6.3.1: an army ordered to a space it does not border, with no path and no
    fleet or wing that could carry it, is illegal (and holds): it no longer crashes the
    adjudication, the check or the submission (issue 17)."""
    src = order.split()[2].lower()
    result, r = adjudicate(dis, board(dis, f"Ukraine: A {src}"), order)
    assert r[src].outcome is Outcome.ILLEGAL
    assert r[src].reason == (f"Illegal: {there} is not adjacent to {here}, and no chain of "
                             "fleets or wings on the board could convoy an army there "
                             "(Dissolution §3.10)")
    assert result.units[src].province == src
    game = lawspeaker.Game(dis)  # the check players get when they submit (Game.problem)
    game.position = game.position.replace(units=board(dis, f"Ukraine: A {src}"))
    assert game.problem(game.parse("Ukraine", order.partition(": ")[2])) == \
        r[src].reason.removeprefix("Illegal: ")


def test_the_path_given_is_the_path_adjudicated(dis):
    """§3.10.1: a convoy off the stated path does not carry the army."""
    units = board(dis, "Poland: A ege", "NATO: W ram", "India: W mum", "NATO: W inc")
    _, r = adjudicate(dis, units, "Poland: A EGe - Ram - Mum - Guj", "NATO: W Ram C EGe - Guj",
                      "India: W Mum C EGe - Guj", "NATO: W Inc C EGe - Guj")
    assert r["ege"].reason == "Move succeeds"
    assert r["inc"].reason.startswith("Void: not on the path")


def test_a_path_through_spaces_that_do_not_border_is_illegal(dis):
    units = board(dis, "Egypt: A cai", "Ukraine: F bla")
    _, r = adjudicate(dis, units, "Egypt: A Cai - Bla - Syr")
    assert r["cai"].outcome is Outcome.ILLEGAL and "do not border" in r["cai"].reason


def test_standard_convoys_still_find_their_own_route():
    """Without the option, standard games are unaffected (DATC rules)."""
    std = lawspeaker.load_variant("standard")
    units = {"lon": Unit("England", UnitType.ARMY, "lon"),
             "nth": Unit("England", UnitType.FLEET, "nth")}
    orders = [parse_order(std.map, "A Lon - Bel"), parse_order(std.map, "F Nth C A Lon - Bel")]
    result = resolve_movement(std.map, units, orders)
    assert "bel" in result.units


# --- §3.3: wings ---------------------------------------------------------------------------------


def test_a_wing_sorties_and_cuts_support_ex_5_1_3_3(dis):
    """NA W Ram - Aus: Bounced; A Aus S War - Pra: Cut by W Ram; Belgrade takes Hungary."""
    units = board(dis, "Poland: A war", "Yugoslavia: A bgd", "NATO: W ram", "Austria: A aus",
                  "Prague: A pra", "Hungary: A hun", "Croatia: A cro")
    _, r = adjudicate(dis, units, "Poland: A War - Pra", "Yugoslavia: A Bgd - Hun",
                      "NATO: W Ram - Aus", "Austria: A Aus S War - Pra",
                      "Croatia: A Cro S Bgd - Hun", "Prague: A Pra H", "Hungary: A Hun H")
    assert r["war"].reason == "Bounced 1v1"
    assert r["bgd"].reason == "Move succeeds"
    assert r["ram"].outcome is Outcome.FAILS
    assert r["aus"].reason == "Cut by W Ram"
    assert r["hun"].reason == "Dislodged by A Bgd (2v1)"


def test_a_wing_supports_any_bordering_space_but_not_further(dis):
    """§3.3 (2): every neighbouring land and sea space; coasts ignored."""
    units = board(dis, "Israel: W tel", "Ukraine: A sev", "Syria: A syr", "Egypt: A cai")
    _, r = adjudicate(dis, units, "Israel: W Tel S Syr H", "Egypt: A Cai S Syr H")
    assert r["tel"].reason == "Support given"
    assert r["cai"].outcome is Outcome.ILLEGAL


# --- §3.7-§3.9: stationary and invulnerable units, disabling ------------------------------


def test_ex_11_6_1_1_a_supported_attack_disables_moscow(dis):
    """Moscow is invulnerable: Kharkiv bounces, and Moscow's support is void."""
    units = board(dis, "Ukraine: A khk", "Belarus: A blr", "Russia: A mos", "Kazakhstan: A ast")
    result, r = adjudicate(dis, units, "Ukraine: A Khk - Mos", "Belarus: A Blr S Khk - Mos",
                           "Russia: A Mos S Ast H")
    assert r["khk"].reason == "Bounced 2v1: A Mos is invulnerable"
    assert r["mos"].reason == "Disabled by A Khk (2v1)"
    assert r["mos"].outcome is Outcome.FAILS
    assert "mos" not in result.dislodged and result.units["mos"].power == "Russia"


def test_ex_11_6_1_2_an_unsupported_attack_does_not_disable(dis):
    units = board(dis, "Pakistan: A isl", "India: A del")
    _, r = adjudicate(dis, units, "Pakistan: A Isl - Del", "India: A Del H")
    assert r["isl"].reason == "Bounced 1v1"
    assert r["del"].reason == "Holds"


def test_a_disabled_holding_unit_still_holds(dis):
    units = board(dis, "Pakistan: A isl", "Pakistan: A kas", "India: A del")
    _, r = adjudicate(dis, units, "Pakistan: A Isl - Del", "Pakistan: A Kas S Isl - Del")
    assert r["del"].reason == "Holds; disabled by A Isl (2v1)"


def test_a_sortie_that_would_dislodge_disables_instead(dis):
    """§3.7, §3.9: Austria's supported sortie into Hungary disables Hungary's support."""
    units = board(dis, "Austria: A aus", "Croatia: A cro", "Hungary: A hun",
                  "Yugoslavia: A bgd", "Romania: A clu")
    result, r = adjudicate(dis, units, "Austria: A Aus - Hun", "Croatia: A Cro S Aus - Hun",
                           "Hungary: A Hun S Bgd H")
    assert r["aus"].outcome is Outcome.FAILS
    assert r["hun"].reason == "Disabled by A Aus (2v1)"
    assert "hun" not in result.dislodged


def test_a_disabling_attack_from_the_supported_space_still_voids_the_support(dis):
    """A support is not cut by an attack from the space it supports into (DATC 6.D.15),
    but a disabling attack voids it all the same (§3.9)."""
    units = board(dis, "Kazakhstan: A ast", "Ukraine: F bla", "Russia: W kra", "Ukraine: A sev")
    _, r = adjudicate(dis, units, "Kazakhstan: A Ast - Kra", "Ukraine: F Bla S Ast - Kra",
                      "Russia: W Kra S Sev H")
    assert r["kra"].reason == "Disabled by A Ast (2v1)"


def test_a_power_never_disables_its_own_units(dis):
    """§3.9: 'a player's or power's own units cannot disable one another'."""
    units = board(dis, "NATO: W avi", "NATO: W ram", "Austria: A aus", "Slovenia: A svn")
    _, r = adjudicate(dis, units, "NATO: W Ram - Avi", "Austria: A Aus S Ram - Avi",
                      "NATO: W Avi S Aus H")
    assert r["avi"].reason == "Support given"


def test_the_us_navy_moves_but_cannot_be_dislodged(dis):
    """§8.5.3: mobile; §3.8: invulnerable all the same."""
    units = board(dis, "US Navy: F kuw", "Saudi Arabia: A dmm", "Iraq: A irq", "Iran: A khu")
    result, r = adjudicate(dis, units, "Saudi Arabia: A Dmm - Kuw", "Iraq: A Irq S Dmm - Kuw",
                           "US Navy: F Kuw S Khu H")
    assert r["dmm"].outcome is Outcome.FAILS
    assert r["kuw"].reason == "Disabled by A Dmm (2v1)"
    assert "kuw" not in result.dislodged
    result, r = adjudicate(dis, units, "US Navy: F Kuw - Per")
    assert r["kuw"].reason == "Move succeeds" and result.units["per"].power == "US Navy"


# --- §3.11: convoy paradoxes --------------------------------------------------------------------

CRISS_CROSS = ("Egypt: A Cai - Asw - Shi", "Egypt: W Asw C Cai - Shi",
               "United Arab Emirates: A UAE S Cai - Shi",
               "Iran: A Teh - Shi - Asw", "Iran: W Shi C Teh - Asw", "Khartoum: A Khm S Teh - Asw")


def criss_cross_board(dis):
    return board(dis, "Egypt: A cai", "Egypt: W asw", "United Arab Emirates: A uae",
                 "Iran: A teh", "Iran: W shi", "Khartoum: A khm", "Kandahar: A kan")


def test_ex_3_11_1_1_criss_cross_convoys_of_equal_strength_both_bounce(dis):
    result, r = adjudicate(dis, criss_cross_board(dis), *CRISS_CROSS)
    assert r["cai"].reason == "Criss-Cross Bounce 2v2"
    assert r["teh"].reason == "Criss-Cross Bounce 2v2"
    assert not result.dislodged


def test_ex_3_11_1_2_the_stronger_criss_cross_convoy_completes(dis):
    result, r = adjudicate(dis, criss_cross_board(dis), *CRISS_CROSS,
                           "Kandahar: A Kan S Cai - Shi")
    assert r["cai"].reason == "Move succeeds"
    assert r["teh"].reason == "Criss-Cross Bounce 2v3, convoy disrupted"
    assert r["shi"].reason == "Dislodged by A Cai (3v1)"
    assert set(result.dislodged) == {"shi"}


def test_ex_3_11_1_3_defensive_support_prevents_the_paradox(dis):
    _, r = adjudicate(dis, criss_cross_board(dis), *CRISS_CROSS, "Kandahar: A Kan S Shi H")
    assert r["cai"].reason == "Void: convoy disrupted"
    assert r["asw"].reason == "Dislodged by A Teh (2v1)"
    assert r["teh"].reason == "Move succeeds"


# A nuclear power's wing convoying in a criss-cross (§3.8: invulnerable). An attack on it can
# never dislodge it, only disable it (§3.9), which disrupts its convoy all the same.
INVULNERABLE_CRISS_CROSS = ("Egypt: A Cai - Asw - Tel", "Egypt: W Asw C Cai - Tel",
                            "Jordan: A Jor S Cai - Tel",
                            "Saudi Arabia: A Tbk - Tel - Asw", "Israel: W Tel C Tbk - Asw",
                            "Khartoum: A Khm S Tbk - Asw")


def invulnerable_board(dis):
    return board(dis, "Egypt: A cai", "Egypt: W asw", "Saudi Arabia: A tbk", "Israel: W tel",
                 "Jordan: A jor", "Syria: A syr", "Khartoum: A khm", "Ethiopia: A wde")


def test_criss_cross_2v2_with_an_invulnerable_convoyer_disables_nothing(dis):
    """§3.11.1: "Attacks of equal strength should simply bounce": Cairo's attack on the
    Israeli wing bounces like Tabuk's, so it does not disable the wing (§3.9), whose convoy
    stands."""
    result, r = adjudicate(dis, invulnerable_board(dis), *INVULNERABLE_CRISS_CROSS)
    assert r["cai"].reason == "Criss-Cross Bounce 2v2"
    assert r["tbk"].reason == "Criss-Cross Bounce 2v2"
    assert r["tel"].reason == "Convoys" and r["asw"].reason == "Convoys"
    assert not result.disabled and not result.dislodged


def test_criss_cross_3v2_through_an_invulnerable_convoyer_dislodges(dis):
    """§3.11.1: the stronger attack completes. Tabuk's (3) is carried by the Israeli wing,
    which Cairo's weaker attack (2) cannot disable: Aswan is dislodged."""
    result, r = adjudicate(dis, invulnerable_board(dis), *INVULNERABLE_CRISS_CROSS,
                           "Ethiopia: A Wde S Tbk - Asw")
    assert r["tbk"].reason == "Move succeeds"
    assert r["asw"].reason == "Dislodged by A Tbk (3v1)"
    assert r["cai"].reason == "Criss-Cross Bounce 2v3, convoy disrupted"
    assert r["tel"].reason == "Convoys"
    assert set(result.dislodged) == {"asw"} and not result.disabled


def test_criss_cross_3v2_against_an_invulnerable_convoyer_disables_it(dis):
    """§3.11.1 "resulting in either a dislodge or a disrupt": Cairo's attack (3) completes,
    but Tel Aviv is invulnerable (§3.8), so it is disabled (§3.9) and Tabuk's convoy fails."""
    result, r = adjudicate(dis, invulnerable_board(dis), *INVULNERABLE_CRISS_CROSS,
                           "Syria: A Syr S Cai - Tel")
    assert r["cai"].reason == "Bounced 3v1: W Tel is invulnerable"
    assert r["tel"].reason == "Disabled by A Cai (3v1)"
    assert r["tbk"].reason == "Criss-Cross Bounce 2v3, convoy disrupted"
    assert result.disabled == {"tel": "cai"} and not result.dislodged


TWO_INVULNERABLE = ("Iran: A Tbz - Inc - Tel", "NATO: W Inc C Tbz - Tel",
                    "Jordan: A Jor S Tbz - Tel",
                    "Saudi Arabia: A Tbk - Tel - Inc", "Israel: W Tel C Tbk - Inc",
                    "Iraq: A Irq S Tbk - Inc")


def two_invulnerable_board(dis):
    return board(dis, "Iran: A tbz", "Saudi Arabia: A tbk", "NATO: W inc", "Israel: W tel",
                 "Jordan: A jor", "Syria: A syr", "Iraq: A irq")


def test_criss_cross_2v2_with_two_invulnerable_convoyers_both_bounce(dis):
    """§3.11.1 with both convoyers invulnerable: each attack could only disable; equal, they
    bounce and nothing is disabled (this ran into endless recursion before)."""
    result, r = adjudicate(dis, two_invulnerable_board(dis), *TWO_INVULNERABLE)
    assert r["tbz"].reason == "Criss-Cross Bounce 2v2"
    assert r["tbk"].reason == "Criss-Cross Bounce 2v2"
    assert r["inc"].reason == "Convoys" and r["tel"].reason == "Convoys"
    assert not result.disabled and not result.dislodged


def test_criss_cross_3v2_with_two_invulnerable_convoyers_disables_the_weaker_side(dis):
    result, r = adjudicate(dis, two_invulnerable_board(dis), *TWO_INVULNERABLE,
                           "Syria: A Syr S Tbz - Tel")
    assert r["tbz"].reason == "Bounced 3v1: W Tel is invulnerable"
    assert r["tel"].reason == "Disabled by A Tbz (3v1)"
    assert r["tbk"].reason == "Criss-Cross Bounce 2v3, convoy disrupted"
    assert r["inc"].reason == "Convoys"
    assert result.disabled == {"tel": "tbz"} and not result.dislodged


def test_criss_cross_under_the_szykman_option_fails_both_convoys(dis):
    result, r = adjudicate(dis, criss_cross_board(dis), *CRISS_CROSS, convoy_paradox="szykman")
    assert r["cai"].outcome is Outcome.FAILS and r["teh"].outcome is Outcome.FAILS
    assert not result.dislodged


def test_interlocking_paradoxes_fail_one_army_at_a_time_alphabetically():
    """§3.11.2, on DATC 6.F.23 (two interlocked Szykman paradoxes). The Szykman rule fails both
    convoys; the modified rule fails the first army alphabetically (Bre) and re-adjudicates:
    the North Sea convoy then holds, Norway's attack cuts Belgium's support, and Italy
    dislodges the fleet in the English Channel."""
    std = lawspeaker.load_variant("standard")
    lines = ["England: F edi - nth", "England: F yor S F edi - nth", "France: A bre - lon",
             "France: F eng C A bre - lon", "Germany: F bel S F eng", "Germany: F lon S F nth",
             "Italy: F mid - eng", "Italy: F iri S F mid - eng", "Russia: A nwy - bel",
             "Russia: F nth C A nwy - bel"]
    units, orders = {}, []
    for line in lines:
        power, _, text = line.partition(": ")
        o = parse_order(std.map, text, power)
        units[o.province] = Unit(power, o.unit_type, o.location)
        orders.append(o)
    szykman = resolve_movement(std.map, units, orders)
    assert not szykman.dislodged
    modified = resolve_movement(std.map, units, orders, std.rules.with_options(
        convoy_paradox="dissolution"))
    assert {p: u.power for p, (u, _) in modified.dislodged.items()} == {"eng": "France"}
    assert modified.units["eng"].power == "Italy"


def test_without_explicit_paths_wings_still_carry_armies(dis):
    """With ``convoy_paths: any``, the resolver finds a chain of wings and fleets itself."""
    units = board(dis, "Ukraine: A sev", "Ukraine: F bla", "NATO: W inc", "Syria: A syr",
                  "Israel: W tel")
    result, r = adjudicate(dis, units, "Ukraine: A Sev - Syr", "Ukraine: F Bla C Sev - Syr",
                           "NATO: W Inc C Sev - Syr", "Israel: W Tel S Sev - Syr",
                           convoy_paths="any")
    assert r["sev"].reason == "Move succeeds"
    assert result.units["syr"].power == "Ukraine"
