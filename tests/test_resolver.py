"""Movement adjudication, written like the rulebook's and the DATC's examples."""

from __future__ import annotations

from helpers import board

import lawspeaker
from lawspeaker import MovementResult, OrderResult, Outcome, Rules, Unit, UnitType

SUCCEEDS, FAILS, ILLEGAL = Outcome.SUCCEEDS, Outcome.FAILS, Outcome.ILLEGAL


def resolve(game_map: lawspeaker.GameMap, units: dict[str, Unit], *orders: str,
            rules: Rules | None = None) -> MovementResult:
    """Adjudicate ``"Power: order"`` lines on the board."""
    parsed = [lawspeaker.parse_order(game_map, text) for text in orders]
    return lawspeaker.resolve_movement(game_map, units, parsed, rules)


def result(outcome: MovementResult, order: str) -> OrderResult:
    """The one result for an order written in canonical short form, e.g. ``A ber - pru``."""
    (found,) = [r for r in outcome.results if str(r.order) == order]
    return found


def after(outcome: MovementResult) -> set[str]:
    """The board after the moves, as ``"Power: A loc"`` strings."""
    return {f"{u.power}: {u}" for u in outcome.units.values()}


def test_unopposed_move_succeeds(game_map: lawspeaker.GameMap) -> None:
    """Rulebook: a unit moves into an empty adjacent province."""
    out = resolve(game_map, board("Germany: A ber"), "Germany: A ber - pru")
    assert (result(out, "A ber - pru").outcome, result(out, "A ber - pru").reason) == (
        SUCCEEDS, "Move succeeds")
    assert after(out) == {"Germany: A pru"}


def test_equal_strength_units_bounce_and_leave_a_standoff(game_map: lawspeaker.GameMap) -> None:
    """Rulebook standoff: A Ber - Sil and A War - Sil both stay; Silesia stays empty."""
    units = board("Germany: A ber", "Russia: A war")
    out = resolve(game_map, units, "Germany: A ber - sil", "Russia: A war - sil")
    for order in ("A ber - sil", "A war - sil"):
        assert (result(out, order).outcome, result(out, order).reason) == (FAILS, "Bounced 1v1")
    assert after(out) == {"Germany: A ber", "Russia: A war"}
    assert out.standoffs == {"sil"}


def test_three_units_bounce_in_one_province(game_map: lawspeaker.GameMap) -> None:
    """Rulebook: any number of equal attacks on a province all fail."""
    units = board("Germany: A mun", "France: A par", "Italy: A mar")
    out = resolve(game_map, units, "Germany: A mun - bur", "France: A par - bur",
                  "Italy: A mar - bur")
    assert all(r.outcome is FAILS for r in out.results)
    assert out.standoffs == {"bur"}


def test_attack_on_a_holding_unit_bounces_without_a_standoff(
        game_map: lawspeaker.GameMap) -> None:
    """Rulebook: a unit holds against an equal attack; the province is not vacant."""
    out = resolve(game_map, board("Germany: A ber", "Russia: A pru"), "Germany: A ber - pru")
    assert result(out, "A ber - pru").reason == "Bounced 1v1"
    assert out.standoffs == frozenset()


def test_stronger_attack_wins_an_empty_province(game_map: lawspeaker.GameMap) -> None:
    """Rulebook: the supported unit enters; the lone attacker bounces 1v2."""
    units = board("Germany: A mun, A ruh", "France: A par")
    out = resolve(game_map, units, "Germany: A mun - bur", "Germany: A ruh S A mun - bur",
                  "France: A par - bur")
    assert result(out, "A mun - bur").outcome is SUCCEEDS
    assert result(out, "A par - bur").reason == "Bounced 1v2"
    assert out.standoffs == frozenset()


def test_supported_attack_dislodges(game_map: lawspeaker.GameMap) -> None:
    """Rulebook: 2 beats 1; the holding unit is dislodged and must retreat."""
    units = board("Germany: A ber, A sil", "Russia: A pru")
    out = resolve(game_map, units, "Germany: A sil S A ber - pru", "Germany: A ber - pru")
    held = result(out, "A pru H")
    assert (held.outcome, held.reason) == (FAILS, "Dislodged by A Ber (2v1)")
    assert held.dislodged and held.implicit
    assert result(out, "A sil S A ber - pru").reason == "Support given"
    assert out.dislodged == {"pru": (Unit("Russia", UnitType.ARMY, "pru"), "ber")}
    assert after(out) == {"Germany: A pru", "Germany: A sil"}


def test_support_is_cut_by_attack_from_third_province(game_map: lawspeaker.GameMap) -> None:
    """Rulebook: an attack on the supporting unit cuts its support."""
    units = board("Germany: A ber, A sil", "Russia: A pru, A boh")
    out = resolve(game_map, units, "Germany: A sil S A ber - pru", "Germany: A ber - pru",
                  "Russia: A boh - sil")
    cut = result(out, "A sil S A ber - pru")
    assert (cut.outcome, cut.reason) == (FAILS, "Cut by A Boh")
    assert result(out, "A ber - pru").reason == "Bounced 1v1"
    assert out.dislodged == {}


def test_support_is_not_cut_by_the_unit_it_attacks(game_map: lawspeaker.GameMap) -> None:
    """Rulebook: support is not cut by an attack from the province it supports into."""
    units = board("Germany: A ber, A sil", "Russia: A pru")
    out = resolve(game_map, units, "Germany: A sil S A ber - pru", "Germany: A ber - pru",
                  "Russia: A pru - sil")
    assert result(out, "A sil S A ber - pru").outcome is SUCCEEDS
    assert result(out, "A pru - sil").reason == "Bounced 1v1; Dislodged by A Ber (2v1)"
    assert set(out.dislodged) == {"pru"}


def test_support_is_cut_when_the_supporter_is_dislodged(game_map: lawspeaker.GameMap) -> None:
    """Rulebook: a dislodged unit's support is cut, even by the unit it supports against."""
    units = board("Germany: A ber, A sil", "Russia: A pru, A war, A gal")
    out = resolve(game_map, units, "Germany: A sil S A ber - pru", "Germany: A ber - pru",
                  "Russia: A war - sil", "Russia: A gal S A war - sil")
    assert result(out, "A sil S A ber - pru").reason == "Cut: Dislodged by A War (2v1)"
    assert result(out, "A ber - pru").outcome is FAILS
    assert set(out.dislodged) == {"sil"}


def test_own_attack_does_not_cut_support(game_map: lawspeaker.GameMap) -> None:
    """Rulebook: an attack by a unit of the same power does not cut support."""
    units = board("Germany: A ber, A sil, A boh", "Russia: A pru")
    out = resolve(game_map, units, "Germany: A sil S A ber - pru", "Germany: A ber - pru",
                  "Germany: A boh - sil")
    assert result(out, "A sil S A ber - pru").outcome is SUCCEEDS
    assert result(out, "A boh - sil").reason == "Bounced: cannot dislodge own A Sil"
    assert set(out.dislodged) == {"pru"}


def test_unit_cannot_dislodge_a_unit_of_its_own_power(game_map: lawspeaker.GameMap) -> None:
    """DATC 6.D.10: however strong, an attack on an own unit fails."""
    units = board("Germany: A ber, A sil, A pru")
    out = resolve(game_map, units, "Germany: A ber - pru", "Germany: A sil S A ber - pru")
    assert result(out, "A ber - pru").reason == "Bounced: cannot dislodge own A Pru"
    assert out.dislodged == {}


def test_hold_support_defends(game_map: lawspeaker.GameMap) -> None:
    """Rulebook: a supported holding unit resists a single attack 2 to 1."""
    units = board("Germany: A ber, A kie", "Russia: A pru")
    out = resolve(game_map, units, "Germany: A kie S A ber", "Russia: A pru - ber")
    assert result(out, "A pru - ber").reason == "Bounced 1v2"
    assert result(out, "A kie S A ber").reason == "Support given"


def test_support_of_a_unit_doing_something_else_is_void(game_map: lawspeaker.GameMap) -> None:
    """Rulebook: support counts only if the supported unit makes that very move."""
    out = resolve(game_map, board("Germany: A ber, A sil"), "Germany: A sil S A ber - pru",
                  "Germany: A ber - kie")
    void = result(out, "A sil S A ber - pru")
    assert (void.outcome, void.reason) == (FAILS, "Void: A Berlin does not move to Prussia")


def test_head_to_head_equal_strength_both_bounce(game_map: lawspeaker.GameMap) -> None:
    """Rulebook: two units cannot swap places by moving into each other."""
    out = resolve(game_map, board("Germany: A ber", "Russia: A pru"), "Germany: A ber - pru",
                  "Russia: A pru - ber")
    assert {r.reason for r in out.results} == {"Bounced 1v1"}
    assert after(out) == {"Germany: A ber", "Russia: A pru"}
    assert out.standoffs == frozenset()


def test_head_to_head_stronger_side_dislodges(game_map: lawspeaker.GameMap) -> None:
    """Rulebook: in a head-to-head battle the stronger unit wins and dislodges the other."""
    units = board("Germany: A ber, A sil", "Russia: A pru")
    out = resolve(game_map, units, "Germany: A ber - pru", "Germany: A sil S A ber - pru",
                  "Russia: A pru - ber")
    assert result(out, "A pru - ber").reason == "Bounced 1v2; Dislodged by A Ber (2v1)"
    assert out.dislodged["pru"][1] == "ber"
    assert after(out) == {"Germany: A pru", "Germany: A sil"}


def test_beleaguered_garrison_holds(game_map: lawspeaker.GameMap) -> None:
    """Rulebook: equal attacks from two sides on a holding unit all fail."""
    units = board("Germany: A ber, A sil", "Russia: A war, A lvn", "Italy: A pru")
    out = resolve(game_map, units, "Germany: A ber - pru", "Germany: A sil S A ber - pru",
                  "Russia: A war S A lvn - pru", "Russia: A lvn - pru")
    assert result(out, "A ber - pru").reason == "Bounced 2v2"
    assert result(out, "A lvn - pru").reason == "Bounced 2v2"
    assert out.dislodged == {}
    assert "Italy: A pru" in after(out)


def test_circular_movement_succeeds(game_map: lawspeaker.GameMap) -> None:
    """DATC 6.C.1: three units move round in a circle; all succeed."""
    units = board("Turkey: F ank, A con, A smy")
    out = resolve(game_map, units, "Turkey: F ank - con", "Turkey: A con - smy",
                  "Turkey: A smy - ank")
    assert all(r.outcome is SUCCEEDS for r in out.results)
    assert after(out) == {"Turkey: F con", "Turkey: A smy", "Turkey: A ank"}


def test_circular_movement_blocked_by_a_bounce_fails_entirely(
        game_map: lawspeaker.GameMap) -> None:
    """Like DATC 6.C.3: a bounce on one space of the circle stops every move in it."""
    units = board("Turkey: F ank, A con, A smy", "Russia: F bla")
    out = resolve(game_map, units, "Turkey: F ank - con", "Turkey: A con - smy",
                  "Turkey: A smy - ank", "Russia: F bla - ank")
    assert all(r.outcome is FAILS for r in out.results)
    assert after(out) == {"Turkey: F ank", "Turkey: A con", "Turkey: A smy", "Russia: F bla"}


def test_convoy_carries_an_army_across_the_sea(game_map: lawspeaker.GameMap) -> None:
    """Rulebook: F Nth C A Lon - Bel."""
    out = resolve(game_map, board("England: F nth, A lon"), "England: F nth C A lon - bel",
                  "England: A lon - bel")
    assert result(out, "F nth C A lon - bel").reason == "Convoys"
    assert result(out, "A lon - bel").outcome is SUCCEEDS
    assert after(out) == {"England: F nth", "England: A bel"}


def test_convoy_is_disrupted_when_the_fleet_is_dislodged(game_map: lawspeaker.GameMap) -> None:
    """Rulebook: a dislodged convoying fleet carries nobody."""
    units = board("England: F nth, A lon", "France: F eng, F bel")
    out = resolve(game_map, units, "England: F nth C A lon - hol", "England: A lon - hol",
                  "France: F eng - nth", "France: F bel S F eng - nth")
    moved = result(out, "A lon - hol")
    assert (moved.outcome, moved.reason) == (FAILS, "Void: convoy disrupted")
    assert result(out, "F nth C A lon - hol").reason == "Dislodged by F Eng (2v1)"
    assert "England: A lon" in after(out)


def test_convoyed_attacker_has_no_province_of_origin_for_retreats(
        game_map: lawspeaker.GameMap) -> None:
    """DATC 4.A.5: a unit dislodged by a convoyed army may retreat where it came from."""
    units = board("England: F nth, A lon, F hel", "Germany: A hol")
    out = resolve(game_map, units, "England: F nth C A lon - hol", "England: A lon - hol",
                  "England: F hel S A lon - hol")
    assert out.dislodged == {"hol": (Unit("Germany", UnitType.ARMY, "hol"), None)}
    assert result(out, "A hol H").reason == "Dislodged by A Lon (2v1)"


def test_via_convoy_without_a_convoying_fleet_does_not_move(
        game_map: lawspeaker.GameMap) -> None:
    """DATC 6.G.8 (2023): 'via convoy' with no convoy: no fall back to the land route."""
    out = resolve(game_map, board("France: A pic"), "France: A pic - bel via convoy")
    assert result(out, "A pic - bel via convoy").reason == "Void: no convoy"
    assert after(out) == {"France: A pic"}


def test_szykman_rule_convoy_paradox_makes_the_convoy_fail(
        game_map: lawspeaker.GameMap) -> None:
    """DATC 6.F.18 (betrayal paradox): by the Szykman rule the convoy fails, nothing moves."""
    units = board("England: F nth, A lon, F eng", "France: F bel", "Germany: F hel, F ska")
    out = resolve(game_map, units, "England: F nth C A lon - bel", "England: A lon - bel",
                  "England: F eng S A lon - bel", "France: F bel S F nth",
                  "Germany: F hel S F ska - nth", "Germany: F ska - nth")
    assert result(out, "F nth C A lon - bel").reason == \
        "Void: convoy paradox, fleet holds (Szykman rule)"
    assert result(out, "A lon - bel").reason == "Void: convoy disrupted"
    assert result(out, "F bel S F nth").outcome is SUCCEEDS
    assert result(out, "F ska - nth").reason == "Bounced 2v2"
    assert out.dislodged == {}
    assert after(out) == {f"{u.power}: {u}" for u in units.values()}


def test_foreign_convoy_cannot_kidnap_an_army(game_map: lawspeaker.GameMap) -> None:
    """DATC 6.G.2: a German convoy does not turn England's A Nwy - Swe into a swap."""
    units = board("England: A nwy", "Russia: F swe", "Germany: F ska")
    out = resolve(game_map, units, "England: A nwy - swe", "Russia: F swe - nwy",
                  "Germany: F ska C A nwy - swe")
    assert result(out, "A nwy - swe").reason == "Bounced 1v1"
    assert result(out, "F swe - nwy").reason == "Bounced 1v1"
    assert result(out, "F ska C A nwy - swe").reason == "Void: A Norway moves over land"
    assert after(out) == {"England: A nwy", "Russia: F swe", "Germany: F ska"}


def test_own_convoy_lets_two_armies_swap(game_map: lawspeaker.GameMap) -> None:
    """DATC 6.G.1: England's own fleet convoys A Nwy - Swe, so it swaps with A Swe."""
    units = board("England: A nwy, F ska", "Russia: A swe")
    out = resolve(game_map, units, "England: A nwy - swe", "England: F ska C A nwy - swe",
                  "Russia: A swe - nwy")
    assert all(r.outcome is SUCCEEDS for r in out.results)
    assert after(out) == {"England: A swe", "England: F ska", "Russia: A nwy"}


def test_conflicting_orders_to_one_unit_make_it_hold(game_map: lawspeaker.GameMap) -> None:
    """DATC 4.D.3 (preferred choice): two different orders to one unit; it holds."""
    out = resolve(game_map, board("England: F nth"), "England: F nth - nwy",
                  "England: F nth - hol")
    for order in ("F nth - nwy", "F nth - hol"):
        assert result(out, order).outcome is ILLEGAL
        assert result(out, order).reason == \
            "Illegal: the unit was given conflicting orders, so it holds"
    assert result(out, "F nth H").implicit
    assert after(out) == {"England: F nth"}


def test_multiple_orders_last_rule_keeps_the_last_order(game_map: lawspeaker.GameMap) -> None:
    """Rules option multiple_orders='last': the later order replaces the earlier one."""
    out = resolve(game_map, board("England: F nth"), "England: F nth - nwy",
                  "England: F nth - hol", rules=Rules(multiple_orders="last"))
    assert result(out, "F nth - nwy").reason == "Illegal: replaced by a later order"
    assert result(out, "F nth - hol").outcome is SUCCEEDS
    assert after(out) == {"England: F hol"}


def test_the_same_order_given_twice_counts_once(game_map: lawspeaker.GameMap) -> None:
    """Repeating an order is not a conflict."""
    out = resolve(game_map, board("England: F nth"), "England: F nth - nwy",
                  "England: F nth - nwy")
    assert [r.reason for r in out.results] == ["Move succeeds"]


def test_unordered_units_hold(game_map: lawspeaker.GameMap) -> None:
    """Rulebook: a unit without orders holds; the result says it had no order."""
    out = resolve(game_map, board("England: F nth, A lon"), "England: F nth H")
    assert (result(out, "F nth H").implicit, result(out, "A lon H").implicit) == (False, True)
    assert result(out, "A lon H").reason == "Holds"


def test_illegal_order_is_reported_and_the_unit_may_still_be_supported(
        game_map: lawspeaker.GameMap) -> None:
    """DATC 6.D.32 / 4.E.1: A Yor - Hol is illegal, so A Yor holds and its support counts."""
    units = board("England: F edi, A lvp", "France: F lon", "Germany: A yor")
    out = resolve(game_map, units, "England: F edi S A lvp - yor", "England: A lvp - yor",
                  "France: F lon S A yor", "Germany: A yor - hol")
    illegal = result(out, "A yor - hol")
    assert illegal.outcome is ILLEGAL
    assert illegal.reason.startswith("Illegal: no chain of fleets could convoy it")
    assert result(out, "F lon S A yor").outcome is SUCCEEDS
    assert result(out, "A lvp - yor").reason == "Bounced 2v2"
    assert "Germany: A yor" in after(out)


def test_support_of_an_illegal_move_is_illegal(game_map: lawspeaker.GameMap) -> None:
    """DATC 6.A.10: F Rom cannot support into Venice; A Apu - Ven bounces alone."""
    units = board("Austria: A ven", "Italy: F rom, A apu")
    out = resolve(game_map, units, "Austria: A ven H", "Italy: F rom S A apu - ven",
                  "Italy: A apu - ven")
    assert result(out, "F rom S A apu - ven").outcome is ILLEGAL
    assert result(out, "A apu - ven").reason == "Bounced 1v1"
    assert result(out, "A ven H").outcome is SUCCEEDS
