"""The Favor Map's case-file sections (docs/case-format.md) and a GM's own setup
(Dissolution §11.2): the runner must catch a wrong expectation, not only pass right ones."""

from __future__ import annotations

import pytest

import lawspeaker
from lawspeaker.cases.casefile import CaseFileError, parse_case_file
from lawspeaker.cases.runner import run_case
from lawspeaker.engine.game import Game
from lawspeaker.engine.phases import initial_position
from lawspeaker.rules.favor import format_setup, named_setup, parse_setup

VARIANT = lawspeaker.load_variant("dissolution")

KICK = """VARIANT_ALL dissolution
CASE k
RULES favor_setup=legacy
PRESTATE_SETPHASE Spring 1992, Movement
VIOLATIONS
\tKazakhstan: Russia
POSTSTATE_KICKS
\tKazakhstan: {kick}
POSTSTATE_EMBASSIES
\tKazakhstan: {where}
POSTSTATE_VIOLATIONS
\tKazakhstan: Russia
END
"""


def _run(text: str) -> list[str]:
    return run_case(parse_case_file(text)[0]).problems


def test_the_section_examples_pass_and_a_wrong_kick_fails() -> None:
    assert _run(KICK.format(kick="R2j - R1t", where="R1t")) == []  # Ex 11.7.4.1
    problems = _run(KICK.format(kick="R2j - R1q", where="R1q"))
    assert any("kicks: expected [Kazakhstan: R2j - R1q]" in p for p in problems)
    assert any("expected Kazakhstan's Embassy on R1q, it is on R1t" in p for p in problems)


def test_violations_are_compared_exactly() -> None:
    text = KICK.format(kick="R2j - R1t", where="R1t").replace(
        "POSTSTATE_VIOLATIONS\n\tKazakhstan: Russia\n", "POSTSTATE_VIOLATIONS\n")
    assert any(p.startswith("violations: expected []") for p in _run(text))


def test_the_winter_retreats_and_favor_values_are_checked() -> None:
    text = """VARIANT_ALL dissolution
CASE w
RULES favor_setup=legacy
PRESTATE_SETPHASE Winter 1992, Adjustment
ORDERS
\tKazakhstan: E I1p - I2o
\tPoland: E I1q S I1p - I2o
POSTSTATE_EMBASSY_RETREATS
\tRomania: I2o - I2j
POSTSTATE_FAVOR
\tKazakhstan: Israel 1
END
"""
    problems = _run(text)
    assert any("Winter retreats: expected [Romania: I2o - I2j], got [Romania: I2o - I2n]" in p
               for p in problems)
    assert any("Favor with Israel to be 1, got 2" in p for p in problems)


@pytest.mark.parametrize(("line", "message"), [
    ("PRESTATE_EMBASSIES\n\tEthiopia: N1s X9q", "expected 'Player: spaces'"),
    ("POSTSTATE_KICKS\n\tEthiopia: N1s", "expected 'Player: from - to'"),
    ("POSTSTATE_FAVOR\n\tEthiopia: Russia", "expected 'Player: Nuclear power N'"),
])
def test_malformed_favor_lines_name_the_line(line: str, message: str) -> None:
    with pytest.raises(CaseFileError, match=message) as caught:
        parse_case_file(f"CASE x\n{line}\nEND\n", "f.txt")
    assert caught.value.line == 3


def test_two_embassies_on_one_hex_are_refused() -> None:
    text = ("VARIANT_ALL dissolution\nCASE x\nPRESTATE_EMBASSIES\n\tEgypt: N1s\n"
            "POSTSTATE_VIOLATIONS\nEND\n")
    assert any("N1s holds two Embassies" in p for p in _run(text))


def test_plain_favor_values_and_the_favor_map_do_not_mix() -> None:
    text = ("VARIANT_ALL dissolution\nCASE x\nPRESTATE_FAVOR\n\tEgypt: NATO 3\n"
            "POSTSTATE_VIOLATIONS\nEND\n")
    assert any("PRESTATE_FAVOR gives plain Favor values" in p for p in _run(text))


# Dissolution §11.2: "the GM may supply another valid setup, checked for validity".
def test_a_gm_setup_written_inline_round_trips() -> None:
    default = named_setup(VARIANT)
    text = format_setup(VARIANT, default)
    assert text.startswith("EG=N2j,U1p,I1q,B1p,R1p;")
    assert parse_setup(VARIANT, text) == default


def test_a_gm_setup_swaps_two_players_and_starts_a_game() -> None:
    # Egypt and Pakistan both start with NATO Favor 2 (§7): swapping their hexes is valid.
    setup = "EG=N2k,U1p,I1q,B1p,R1p;Pakistan=N2j,U2j,I0z,B0z,R2n"
    rules = VARIANT.rules.with_options(favor_setup=setup)
    start = initial_position(VARIANT, rules)
    assert start.embassies["Egypt"]["NATO"] == "N2k"
    assert start.embassies["Pakistan"]["NATO"] == "N2j"
    assert start.embassies["Iran"] == named_setup(VARIANT)["Iran"]  # left out: default
    game = Game(VARIANT, rules)
    assert game.position.embassies["Egypt"]["NATO"] == "N2k"
    assert Game.from_dict(game.to_dict()).position.embassies["Egypt"]["NATO"] == "N2k"


@pytest.mark.parametrize(("setup", "message"), [
    ("EG=N3f,U1p,I1q,B1p,R1p", r"Egypt's NATO Embassy is on N3f, of Favor 3; its §7 Favor "
                               r"value is 2"),
    ("EG=N1s,U1p,I1q,B1p,R1p", r"N1s holds two Embassies"),
    ("EG=N2j,U1p,I1q,B1p", r"Egypt's Russia Embassy must be in the Russia slice"),
    ("EG=N2j,N2k,U1p,I1q,B1p,R1p", r"two Embassies in the NATO slice"),
    ("Atlantis=N2j", r"'Atlantis=N2j': expected 'Player=N"),
    ("EG=N2j,U1p,I1q,B1p,R9p", r"R9p is not a space of the Favor Map"),
])
def test_an_invalid_gm_setup_says_what_is_wrong(setup: str, message: str) -> None:
    rules = VARIANT.rules.with_options(favor_setup=setup)
    with pytest.raises(ValueError, match=message):
        initial_position(VARIANT, rules)


def test_a_setup_name_that_is_neither_named_nor_inline_is_refused() -> None:
    with pytest.raises(ValueError, match="favor_setup must be one of default, legacy or a "
                                         "setup like"):
        VARIANT.rules.with_options(favor_setup="mine")
