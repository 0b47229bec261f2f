"""The Favor Map (Dissolution §11.1-§11.3, §11.7): every fact the rulebook states,
on both reconstructed boards, and the setups."""

from __future__ import annotations

import pytest

import lawspeaker
from lawspeaker.engine.phases import initial_position
from lawspeaker.rules.favor import (
    FavorBoard,
    favor_board,
    kick,
    kick_all,
    named_setup,
    retreat_destination,
    setup_problems,
    value_of,
)
from lawspeaker.rules.neutral_limits import favor

VARIANT = lawspeaker.load_variant("dissolution")


@pytest.fixture(params=["A", "B"])
def board(request: pytest.FixtureRequest) -> FavorBoard:
    return favor_board(VARIANT, request.param)


def test_the_board_is_marked_reconstructed(board: FavorBoard) -> None:
    assert board.reconstructed


def test_five_slices_of_twenty_hexes_valued_one_to_five(board: FavorBoard) -> None:
    # §11.1.1-§11.1.2: N, U, I, B, R; 20 hexes each, values 1 to 5, the perimeter 0.
    assert list(board.slices) == ["N", "U", "I", "B", "R"]
    for nuclear in board.slices.values():
        spaces = board.spaces(nuclear)
        assert len(spaces) == 21
        assert sorted({value_of(s) for s in spaces}) == [0, 1, 2, 3, 4, 5]
        assert spaces[-1].endswith("0z")


def test_value_is_the_number_in_the_label() -> None:
    # §11.1.2: U2j is worth 2, R0z is the Russian perimeter, worth 0.
    assert value_of("U2j") == 2
    assert value_of("R0z") == 0


def test_the_perimeter_borders_every_one_hex_of_its_slice(board: FavorBoard) -> None:
    # §11.1.3, §3.4: an Embassy in the perimeter may move into any of the slice's 1 spaces.
    assert board.neighbours("I0z") == ("I1p", "I1q", "I1r", "I1s", "I1t", "I1u")


def test_only_the_four_stated_slice_borders(board: FavorBoard) -> None:
    # §11.5.1: N-U, U-I, I-B, B-R share a border, and no other pair.
    crossing = {frozenset((a[0], b[0])) for a in board.coords for b in board.neighbours(a)
                if a[0] != b[0]}
    assert crossing == {frozenset(p) for p in ("NU", "UI", "IB", "BR")}


@pytest.mark.parametrize(("a", "b"), [
    ("I1p", "I2o"),   # Ex 11.7.4.5: KA E I1p - I2o
    ("I1q", "I2o"),   # Ex 11.7.4.5: PO E I1q S I1p - I2o
    ("I1p", "I1q"),   # Ex 11.5.2.1: E I1p S PA I0z - I1q
    ("I0z", "I1q"), ("I0z", "I1u"),
    ("B1p", "I1u"),   # Ex 11.5.2.1: E B1p S PA I0z - I1u, across the I-B border
    ("N1u", "U1p"),   # Ex 11.5.2.2: E N1u S IR U0z - U1p, across the N-U border
    ("U0z", "U1p"),
    ("B1q", "B2n"), ("B2j", "B2k"), ("B2n", "B3f"), ("B1p", "B2o"),   # Ex 11.7.4.6
    ("B1r", "B2m"), ("B1s", "B2m"), ("B2m", "B3h"),
])
def test_stated_adjacencies(board: FavorBoard, a: str, b: str) -> None:
    assert board.borders_on(a, b) and board.borders_on(b, a)


@pytest.mark.parametrize(("a", "b", "hexes"), [
    ("R2j", "R1t", 1), ("R2j", "R1q", 4),   # Ex 11.7.4.1
    ("R2m", "R1q", 2), ("R2m", "R1t", 2),   # Ex 11.7.4.2
    ("B2n", "B1p", 2), ("B2n", "B2j", 3), ("B2n", "B1t", 3),   # Ex 11.7.4.6
])
def test_stated_distances(board: FavorBoard, a: str, b: str, hexes: int) -> None:
    assert board.distance(a, b) == hexes


def test_us_kick_ties_are_equidistant(board: FavorBoard) -> None:
    # Ex 11.7.4.4: U1t and U1u are equally far from U2j.
    assert board.distance("U2j", "U1t") == board.distance("U2j", "U1u")


def test_ethiopia_and_yugoslavia_in_the_default_setup() -> None:
    # Ex 11.3.1.1-2: the stated Embassies and the Favor values they signify.
    setup = named_setup(VARIANT)
    assert sorted(setup["Ethiopia"].values()) == ["B2n", "I1u", "N1s", "R0z", "U2o"]
    assert sorted(setup["Yugoslavia"].values()) == ["B3i", "I1p", "N0z", "R2k", "U0z"]
    start = initial_position(VARIANT)
    assert {n: favor(VARIANT, start, "Ethiopia", n) for n in VARIANT.nuclear} == {
        "Russia": 0, "NATO": 1, "Israel": 1, "India": 2, "US Navy": 2}
    assert {n: favor(VARIANT, start, "Yugoslavia", n) for n in VARIANT.nuclear} == {
        "NATO": 0, "US Navy": 0, "Israel": 1, "Russia": 2, "India": 3}


def test_the_default_setup_matches_every_starting_favor_value() -> None:
    # §11.2: a setup is valid when each Embassy is on a hex of its §7 Favor value.
    assert setup_problems(VARIANT, named_setup(VARIANT)) == []
    start = initial_position(VARIANT)
    for player, values in VARIANT.favor.items():
        for nuclear, value in values.items():
            assert favor(VARIANT, start, player, nuclear) == value


def test_a_gm_setup_is_checked() -> None:
    setup = {p: dict(e) for p, e in named_setup(VARIANT).items()}
    setup["Egypt"]["NATO"] = "N1p"            # Egypt's NATO value is 2, and Iran is on N1p
    setup["Iran"]["Russia"] = "N2m"           # not in the Russian slice
    problems = setup_problems(VARIANT, setup)
    assert any("Egypt's NATO Embassy is on N1p, of Favor 1" in p for p in problems)
    assert any("N1p holds two Embassies" in p for p in problems)
    assert any("Iran's Russia Embassy must be in the Russia slice" in p for p in problems)


def test_legacy_setup_is_the_one_the_kick_examples_use() -> None:
    legacy = named_setup(VARIANT, "legacy")
    assert legacy["Kazakhstan"]["Israel"] == "I1p" and legacy["Kazakhstan"]["India"] == "B1p"
    assert legacy["Iran"]["NATO"] == "N1u"


def _slice(setup: dict, nuclear: str, without: str) -> list[str]:
    return [e[nuclear] for p, e in setup.items() if p != without]


@pytest.mark.parametrize(("player", "nuclear", "to"), [
    ("Kazakhstan", "Russia", "R1t"),     # Ex 11.7.4.1: R1t 1 away, R1q 4 away
    ("Ukraine", "Russia", "R1q"),        # Ex 11.7.4.2: both 2 away; q before t
    ("Saudi Arabia", "NATO", "N0z"),     # Ex 11.7.4.3: every 1-hex taken
])
def test_single_kicks_on_the_legacy_map(board: FavorBoard, player: str, nuclear: str,
                                        to: str) -> None:
    legacy = named_setup(VARIANT, "legacy")
    assert kick(board, _slice(legacy, nuclear, player), legacy[player][nuclear]) == to


def test_multiple_us_kicks_in_turn() -> None:
    # Ex 11.7.4.4: one at a time, by sorting letter, Saudi Arabia's second kick re-queued.
    board = favor_board(VARIANT)
    pending = [("Saudi Arabia", "US Navy"), ("Saudi Arabia", "US Navy"), ("Ethiopia", "US Navy"),
               ("Egypt", "US Navy"), ("Yugoslavia", "US Navy")]
    after, done = kick_all(board, named_setup(VARIANT, "legacy"), pending)
    assert done == [("Saudi Arabia", "U2j", "U1t"), ("Ethiopia", "U2m", "U1u"),
                    ("Egypt", "U1s", "U0z"), ("Saudi Arabia", "U1t", "U0z"),
                    ("Yugoslavia", "U0z", "U0z")]
    assert after["Ethiopia"]["US Navy"] == "U1u"


def test_winter_retreat_skips_the_attackers_origin_and_bounced_hexes(board: FavorBoard) -> None:
    # Ex 11.7.4.6: Iran's Embassy, dislodged from B2n by B1q, with B2m bounced, goes to B1p.
    after = ["B2n", "B2k", "B2o", "B0z", "B1r", "B3h", "B1u", "B1s", "B3f"]
    assert retreat_destination(board, after, "B2n", "B1q", ["B2m", "B3f"]) == "B1p"
    # Ex 11.7.4.5: Romania's, dislodged from I2o by I1p, goes to I2n.
    israel = ["I1r", "I1t", "I2o", "I1q", "I1u", "I1s"]
    assert retreat_destination(board, israel, "I2o", "I1p", []) == "I2n"
