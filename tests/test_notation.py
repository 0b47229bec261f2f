"""Reading orders in the notation players write (notation.py's docstring)."""

from __future__ import annotations

import pytest

import lawspeaker
from lawspeaker import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    OrderSyntaxError,
    PhaseKind,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    UnitType,
    Waive,
    format_order,
    parse_order,
    parse_orders,
)

A, F = UnitType.ARMY, UnitType.FLEET
E = "England"
MOVEMENT, RETREAT, ADJUSTMENT = PhaseKind.MOVEMENT, PhaseKind.RETREAT, PhaseKind.ADJUSTMENT


def parse(game_map: lawspeaker.GameMap, text: str, kind: PhaseKind = MOVEMENT) -> Order:
    return parse_order(game_map, text, E, kind)


def syntax_error(game_map: lawspeaker.GameMap, text: str,
                 kind: PhaseKind = MOVEMENT) -> OrderSyntaxError:
    with pytest.raises(OrderSyntaxError) as caught:
        parse_order(game_map, text, E, kind)
    return caught.value


MOVEMENT_FORMS = [
    ("A Par - Bur", Move(E, A, "par", "bur")),
    ("A Par -> Bur", Move(E, A, "par", "bur")),
    ("A Par => Bur", Move(E, A, "par", "bur")),
    ("A Par – Bur", Move(E, A, "par", "bur")),
    ("A Par to Bur", Move(E, A, "par", "bur")),
    ("A Par-Bur", Move(E, A, "par", "bur")),
    ("A Par H", Hold(E, A, "par")),
    ("A Par holds", Hold(E, A, "par")),
    ("A Par", Hold(E, A, "par")),
    ("Par - Bur", Move(E, None, "par", "bur")),
    ("F Nth S A Lon - Bel", SupportMove(E, F, "nth", A, "lon", "bel")),
    ("F Nth S A Lon", SupportHold(E, F, "nth", A, "lon")),
    ("F Nth S A Lon H", SupportHold(E, F, "nth", A, "lon")),
    ("F Nth C A Lon - Bel", Convoy(E, F, "nth", "lon", "bel")),
    ("A Lon - Nth - Bel", Move(E, A, "lon", "bel", False, ("nth",))),
    ("A Lon - Eng - Mid - Por", Move(E, A, "lon", "por", False, ("eng", "mid"))),
    ("A Pic - Bel via convoy", Move(E, A, "pic", "bel", True)),
    ("A Pic - Bel by convoy", Move(E, A, "pic", "bel", True)),
    ("F Spa/sc - Wes", Move(E, F, "spa/sc", "wes")),
    ("F Spa(sc) - Wes", Move(E, F, "spa/sc", "wes")),
    ("F Spa sc - Wes", Move(E, F, "spa/sc", "wes")),
    ("F Spain (south coast) - Wes", Move(E, F, "spa/sc", "wes")),
    ("F Mid - Spain (north coast)", Move(E, F, "mid", "spa/nc")),
    ("F stp/nc - Bar", Move(E, F, "stp/nc", "bar")),
    ("F StP/NC - Bar", Move(E, F, "stp/nc", "bar")),
    ("F St. Petersburg (south coast) - Bot", Move(E, F, "stp/sc", "bot")),
    ("F Bul/ec - Bla", Move(E, F, "bul/ec", "bla")),
    ("F Bre - Mid-Atlantic", Move(E, F, "bre", "mid")),
    ("F Gulf of Lyon - Spa/sc", Move(E, F, "gol", "spa/sc")),
]


@pytest.mark.parametrize("text,order", MOVEMENT_FORMS, ids=[t for t, _ in MOVEMENT_FORMS])
def test_movement_notation_forms(game_map: lawspeaker.GameMap, text: str, order: Order) -> None:
    """Every form in the notation docstring reads as the order players mean."""
    assert parse(game_map, text) == order


def test_orders_are_read_case_insensitively(game_map: lawspeaker.GameMap) -> None:
    """'a PAR - bUR' is 'A Par - Bur'."""
    assert parse(game_map, "a PAR - bUR") == parse(game_map, "A Par - Bur")
    assert parse(game_map, "f NTH s a LON - bel") == SupportMove(E, F, "nth", A, "lon", "bel")


def test_full_names_and_words(game_map: lawspeaker.GameMap) -> None:
    """A GM's long form reads the same as the short one."""
    assert parse(game_map, "Fleet North Sea supports Army London to Belgium") == \
        SupportMove(E, F, "nth", A, "lon", "bel")
    assert parse(game_map, "F North Sea convoys Army London to Belgium") == \
        Convoy(E, F, "nth", "lon", "bel")
    assert parse(game_map, "Army Paris move Burgundy") == Move(E, A, "par", "bur")


def test_leading_power_name_overrides_the_default_power(game_map: lawspeaker.GameMap) -> None:
    """'England: F Lon - Nth' is England's order whoever submits the file."""
    order = parse_order(game_map, "England: F Lon - Nth", "France")
    assert order == Move("England", F, "lon", "nth")


def test_coast_on_a_province_without_coasts_is_ignored(game_map: lawspeaker.GameMap) -> None:
    """DATC 4.B.6: an irrelevant coast is dropped, not an error."""
    assert parse(game_map, "A Lon - Bel/nc") == Move(E, A, "lon", "bel")


def test_retreat_phase_reads_moves_as_retreats(game_map: lawspeaker.GameMap) -> None:
    """In a retreat phase 'A Tri - Alb' is a retreat and 'D' disbands."""
    assert parse(game_map, "A Tri - Alb", RETREAT) == Retreat(E, A, "tri", "alb")
    assert parse(game_map, "A Tri R Alb", RETREAT) == Retreat(E, A, "tri", "alb")
    assert parse(game_map, "A Tri D", RETREAT) == Disband(E, A, "tri")
    assert parse(game_map, "Disband A Tri", RETREAT) == Disband(E, A, "tri")
    assert parse(game_map, "F Mid R Spa/nc", RETREAT) == Retreat(E, F, "mid", "spa/nc")


def test_adjustment_phase_orders(game_map: lawspeaker.GameMap) -> None:
    """Build, Remove (or Disband / D) and Waive."""
    assert parse(game_map, "Build F stp/nc", ADJUSTMENT) == Build(E, F, "stp/nc")
    assert parse(game_map, "Build A Par", ADJUSTMENT) == Build(E, A, "par")
    assert parse(game_map, "Build Par", ADJUSTMENT) == Build(E, None, "par")
    assert parse(game_map, "Remove A mun", ADJUSTMENT) == Remove(E, A, "mun")
    assert parse(game_map, "A mun D", ADJUSTMENT) == Remove(E, A, "mun")
    assert parse(game_map, "Disband A mun", ADJUSTMENT) == Remove(E, A, "mun")
    assert parse(game_map, "Waive", ADJUSTMENT) == Waive(E, None, "")


def test_plain_unit_is_not_an_adjustment_order(game_map: lawspeaker.GameMap) -> None:
    """'A Par' holds in a movement phase but means nothing in an adjustment phase."""
    error = syntax_error(game_map, "A Par", ADJUSTMENT)
    assert "Build, Remove or Waive" in error.reason


# --- errors ----------------------------------------------------------------------


def test_unknown_name_points_at_the_bad_token_with_suggestions(
        game_map: lawspeaker.GameMap) -> None:
    """The error names the failing token's column and the nearest real names."""
    error = syntax_error(game_map, "A Lon - Belgum")
    assert error.column == len("A Lon - ")
    assert error.suggestions == ("Belgium",)
    assert "unknown space 'Belgum'" in error.reason
    assert "column 9" in str(error)


def test_unknown_unit_location_points_at_it(game_map: lawspeaker.GameMap) -> None:
    """A misspelt starting space is reported where it is."""
    error = syntax_error(game_map, "F Londn - Nth")
    assert error.column == 2
    assert error.suggestions == ("London",)


def test_ambiguous_name_lists_the_candidates(game_map: lawspeaker.GameMap) -> None:
    """'No' could be five spaces."""
    error = syntax_error(game_map, "A Lon - No")
    assert error.column == len("A Lon - ")
    assert set(error.suggestions) == {"North Africa", "North Atlantic Ocean", "Norwegian Sea",
                                      "North Sea", "Norway"}
    assert "ambiguous" in error.reason


@pytest.mark.parametrize("text,column,reason", [
    ("A Lon -", 7, "expected a space name"),                      # dangling move
    ("A Lon - - Bel", 8, "expected a space name"),
    ("F Nth C A Lon", 13, "a convoy order needs a destination"),  # convoy with no target
    ("F Nth S", 7, "expected a unit"),
    ("", 0, "empty order"),
    ("   ", 0, "empty order"),
    ("A Lon H now", 8, "unexpected 'now'"),                       # garbage after the order
    ("A Lon - Bel )", 12, "unexpected ')'"),
    ("Waive Lon extra", 10, "unexpected 'extra'"),
    ("A Par - Bur via", 12, "expected 'convoy' after 'via'"),
    ("F Spa(sc - Wes", 5, "missing ')'"),
    ("F Spa/zz - Wes", 6, "unknown coast 'zz'"),
])
def test_syntax_errors_say_where_and_why(
        game_map: lawspeaker.GameMap, text: str, column: int, reason: str) -> None:
    """Each unreadable order is refused with the column of the failing token."""
    error = syntax_error(game_map, text)
    assert reason in error.reason
    assert error.column == column


def test_unknown_coast_suggests_the_coast_codes(game_map: lawspeaker.GameMap) -> None:
    """'Spa/zz' is not a coast; the error lists the ones that are."""
    error = syntax_error(game_map, "F Spa/zz - Wes")
    assert {"nc", "sc", "ec"} <= set(error.suggestions)


def test_garbage_word_after_a_move_is_reported_at_that_word(
        game_map: lawspeaker.GameMap) -> None:
    """notation.py: an error names the exact token that failed: here 'extra', not 'Bel'."""
    error = syntax_error(game_map, "A Lon - Bel extra")
    assert error.column == len("A Lon - Bel ")


def test_parse_orders_keeps_good_orders_and_numbers_bad_lines(
        game_map: lawspeaker.GameMap) -> None:
    """Nothing is silently dropped: each failing line comes back with its number."""
    text = "A Par - Bur\nA Lun - Bel   # typo\n\n# a comment line\nF Bre - Mid\nA Mar -\n"
    orders, errors = parse_orders(game_map, text, "France")
    assert orders == [Move("France", A, "par", "bur"), Move("France", F, "bre", "mid")]
    assert [number for number, _ in errors] == [2, 6]
    assert errors[0][1].column == 2
    assert "expected a space name" in errors[1][1].reason


def test_parse_orders_in_a_retreat_phase(game_map: lawspeaker.GameMap) -> None:
    """The phase argument applies to every line."""
    orders, errors = parse_orders(game_map, "A Tri - Alb\nF Mid D", "Austria", RETREAT)
    assert errors == []
    assert orders == [Retreat("Austria", A, "tri", "alb"), Disband("Austria", F, "mid")]


# --- writing orders back ------------------------------------------------------------


@pytest.mark.parametrize("text,short,long", [
    ("A Par - Bur", "A Par - Bur", "A Paris - Burgundy"),
    ("F Nth S A Lon - Bel", "F Nth S A Lon - Bel", "F North Sea S A London - Belgium"),
    ("F Nth S A Lon", "F Nth S A Lon", "F North Sea S A London"),
    ("F Nth C A Lon - Bel", "F Nth C A Lon - Bel", "F North Sea C A London - Belgium"),
    ("A Lon - Nth - Bel", "A Lon - Nth - Bel", "A London - North Sea - Belgium"),
    ("A Pic - Bel via convoy", "A Pic - Bel via convoy", "A Picardy - Belgium via convoy"),
    ("F Spa/sc - Wes", "F Spa/sc - Wes", "F Spain (south coast) - Western Mediterranean"),
    ("A Par H", "A Par H", "A Paris H"),
])
def test_format_order_writes_what_parse_order_reads(
        game_map: lawspeaker.GameMap, text: str, short: str, long: str) -> None:
    """A GM's published orders read back as the same order values."""
    order = parse(game_map, text)
    assert format_order(order, game_map) == short
    assert format_order(order, game_map, long=True) == long
    assert parse(game_map, short) == order
    assert parse(game_map, long) == order


def test_format_adjustment_and_retreat_orders(game_map: lawspeaker.GameMap) -> None:
    """Builds, removals, retreats and disbands print as players write them."""
    assert format_order(Build(E, F, "stp/nc"), game_map) == "Build F Stp/nc"
    assert format_order(Remove(E, A, "mun"), game_map, long=True) == "Remove A Munich"
    assert format_order(Retreat(E, A, "tri", "alb"), game_map) == "A Tri R Alb"
    assert format_order(Disband(E, A, "tri"), game_map) == "A Tri Disband"
    assert format_order(Waive(E, None, ""), game_map) == "Waive"


def test_str_of_an_order_is_the_canonical_short_notation() -> None:
    """str(order) uses province keys: 'A lon - bel'."""
    assert str(Move(E, A, "lon", "bel", True, ("nth",))) == "A lon - nth - bel via convoy"
    assert str(SupportMove(E, F, "nth", None, "lon", "bel")) == "F nth S lon - bel"
    assert str(Convoy(E, F, "nth", "lon", "bel")) == "F nth C A lon - bel"


def test_a_coast_may_be_joined_by_a_hyphen_as_order_of_the_dragon_writes_it() -> None:
    """OOD §4.3, §5.3.4 write 'Tol-wc' and 'Sar-wc'; a hyphen before a province is a move."""
    ood = lawspeaker.load_variant("ood")
    assert parse_order(ood.map, "F Lis - Tol-wc").target == "tol/wc"
    assert parse_order(ood.map, "F Tol-wc - Lis").location == "tol/wc"
    assert parse_order(ood.map, "F Lis-Tol") == parse_order(ood.map, "F Lis - Tol")


def test_heir_builds_are_written_with_or_without_the_capital() -> None:
    """OOD §8.1: 'Build Heir London' or simply 'Build Heir'."""
    from lawspeaker.core.orders import BuildHeir

    ood = lawspeaker.load_variant("ood")
    kind = PhaseKind.ADJUSTMENT
    assert parse_order(ood.map, "Build Heir London", "England", kind,
                       ood.capital_names()) == BuildHeir("England", None, "lon")
    assert parse_order(ood.map, "Build Heir", "England", kind) == BuildHeir("England", None, "")
    kalmar = ["Heir Roskilde", "Heir Kalmar Union", "H Kalmar", "H Ros"]  # OOD §7.1
    assert {parse_order(ood.map, t, "Kalmar Union", PhaseKind.MOVEMENT, ood.capital_names())
            .location for t in kalmar} == {"ros"}


@pytest.mark.parametrize("text", ["A lon - nth - bel", "F nth C A lon - bel", "A wal S F nth - eng",
                                  "F lon S A wal", "A yor H"])
def test_orders_pickle_and_copy_on_both_builds(game_map: lawspeaker.GameMap,
                                               text: str) -> None:
    """Orders cross process boundaries (simulations) and are deep-copied; the compiled
    build could not restore a frozen dataclass field by field (orders.py __reduce__)."""
    import copy
    import pickle

    order = parse(game_map, text)
    for again in (pickle.loads(pickle.dumps(order)), copy.deepcopy(order)):
        assert again == order and type(again) is type(order)
        assert str(again) == str(order) and again.province == order.province
