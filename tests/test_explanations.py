"""Every result can say why, and its explanation never disagrees with it.

The explanation is read from the same decisions as the result
(:mod:`lawspeaker.core.resolver_explain`), so the strengths it prints are the
ones the resolver compared. These tests hold it to that on every DATC case,
every rulebook case and random games of every variant: a move explained as
succeeding succeeded, and the numbers of ``Bounced 1v2`` and ``Dislodged by
A Mun (2v1)`` are the explanation's attack and opposition.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import lawspeaker
from lawspeaker.cases.casefile import read_case_file
from lawspeaker.cases.runner import run_case
from lawspeaker.core.orders import Move
from lawspeaker.core.results import OrderResult, Outcome
from lawspeaker.sim.randomplay import play

CASES = Path(__file__).parent / "cases"
ALL_CASES = [(f"{p.parent.name}/{p.name}:{c.id}", c)
             for folder in ("datc_v3_1", "s9", "ood", "dissolution")
             for p in sorted((CASES / folder).glob("*.txt")) for c in read_case_file(p)]

BOUNCED = re.compile(r"^Bounced (\d+)v(\d+)$")
DISLODGED = re.compile(r"Dislodged by .+ \((\d+)v(\d+)\)")
VERDICT = re.compile(r"^(\d+) (beats|does not beat) the strongest opposition, (\d+): "
                     r"the move (succeeds|fails) \(DATC 5\.B\.1\)$")


def check(result: OrderResult) -> None:
    """The agreement between a result and its explanation."""
    lines = result.explanation
    assert lines and all(isinstance(line, str) and line for line in lines), result
    assert not any("None" in line for line in lines), lines
    if not isinstance(result.order, Move) or result.outcome is Outcome.ILLEGAL:
        return
    verdicts = [m for line in lines if (m := VERDICT.match(line))]
    if result.reason == "Move succeeds":
        assert verdicts and verdicts[-1].group(4) == "succeeds", lines
    elif verdicts:
        assert verdicts[-1].group(4) == "fails", (result, lines)
    bounced = BOUNCED.match(result.reason)
    if bounced:
        assert verdicts, (result, lines)
        attack, opposition = int(verdicts[-1].group(1)), int(verdicts[-1].group(3))
        assert (attack, opposition) == (int(bounced.group(1)), int(bounced.group(2))), \
            (result.reason, lines)
    dislodged = DISLODGED.search(result.reason)
    if dislodged:
        line = next(line for line in lines if line.startswith("Dislodged by"))
        numbers = re.findall(r"strength (\d+)", line)
        assert numbers == [dislodged.group(1), dislodged.group(2)], (result.reason, line)


@pytest.mark.parametrize("case", [c for _, c in ALL_CASES], ids=[i for i, _ in ALL_CASES])
def test_every_case_result_is_explained_consistently(case) -> None:  # type: ignore[no-untyped-def]
    report = run_case(case)
    for result in report.results:
        check(result)


@pytest.mark.parametrize("name", ["standard", "s9-complete", "ood", "dissolution"])
def test_random_games_explain_every_result(name: str) -> None:
    variant = lawspeaker.load_variant(name)
    seen = 0

    def each(_position, step) -> None:  # type: ignore[no-untyped-def]
        nonlocal seen
        for result in step.results:
            check(result)
            seen += 1

    play(variant, random.Random(7), years=3, check=each)
    assert seen > 100


def adjudicate(text: str) -> dict[str, OrderResult]:
    variant = lawspeaker.load_variant("standard")
    position = lawspeaker.initial_position(variant)
    orders = []
    for block in text.strip().split("\n\n"):
        power, *lines = block.splitlines()
        orders += lawspeaker.parse_orders(variant.map, "\n".join(lines), power.rstrip(":"))[0]
    step = lawspeaker.adjudicate(variant, position, orders, variant.rules, [])
    return {lawspeaker.format_order(r.order, variant.map): r for r in step.results}


def test_the_datc_example_of_prevent_strength() -> None:
    """DATC 5.B (its own example): Berlin with support beats Warsaw and Bohemia
    for Silesia; theirs fail on Berlin's prevent strength of two. Played here
    from the standard opening: Munich to Silesia with Berlin's support."""
    got = adjudicate("""
Germany:
A Mun - Sil
A Ber S A Mun - Sil

Russia:
A War - Sil

Austria:
A Vie - Boh
""")
    mun = got["A Mun - Sil"].explanation
    assert mun[0] == "Attack strength 2 = 1 + support of A Berlin (DATC 5.B.8)"
    assert "A Warsaw also moves to Silesia: prevent strength 1 (DATC 5.B.6)" in mun
    assert mun[-1] == "2 beats the strongest opposition, 1: the move succeeds (DATC 5.B.1)"
    war = got["A War - Sil"].explanation
    assert ("A Munich also moves to Silesia: prevent strength 2 = 1 + support of A Berlin "
            "(DATC 5.B.6)") in war
    assert war[-1] == ("1 does not beat the strongest opposition, 2: the move fails "
                       "(DATC 5.B.1)")


def datc(case_id: str) -> dict[str, tuple[str, ...]]:
    """A DATC v3.1 case's results: the order as the case writes it -> its explanation."""
    case = next(c for _, c in ALL_CASES if c.id == case_id and "datc_v3_1" in c.file)
    return {str(r.order): r.explanation for r in run_case(case).results}


def test_datc_6_d_15_a_support_is_not_cut_from_the_space_it_supports_into() -> None:
    got = datc("6.D.15")
    assert got["F con S F bla - ank"] == (
        "Support given to F Black Sea to Ankara: it counts for that unit (DATC 5.B.2)",
        "F Ankara's attack does not cut it: it comes from the space the support is given into "
        "(DATC 5.B.2)",
        "Held with hold strength 1 (DATC 5.B.5)",
        "F Ankara's attack, strength 1, did not dislodge it")
    assert got["F ank - con"][-1] == ("Dislodged by F Black Sea: attack strength 2 beat the "
                                      "hold strength 1 of Ankara (DATC 5.B.5)")


def test_datc_6_e_1_a_head_to_head_is_won_on_defend_strength() -> None:
    got = datc("6.E.1")
    pru = got["A pru - ber"]
    assert ("Head to head with A Berlin, moving the other way: its defend strength 2 = 1 + "
            "support of A Silesia (DATC 5.B.7)") in pru
    assert pru[-1] == ("Dislodged by A Berlin: attack strength 2 beat its defend strength 1 "
                       "(DATC 5.B.7)")
    assert ("A Prussia also moves to Berlin: prevent strength 0 (it lost the head to head) "
            "(DATC 5.B.6)") in got["F kie - ber"]


def test_datc_6_c_1_and_6_f_14_name_the_rule_that_settled_a_cycle() -> None:
    assert got_line(datc("6.C.1")["F ank - con"], "circular movement rule")
    assert got_line(datc("6.F.14")["F eng C A bre - lon"], "Szykman rule, DATC 5.B.9")
    assert datc("6.F.14")["A bre - lon"][0] == (
        "Convoy disrupted: F English Channel does not convoy, so the move has no path "
        "(DATC 5.B.4)")


def got_line(lines: tuple[str, ...], words: str) -> bool:
    return any(words in line for line in lines)


def test_a_dislodged_unit_is_told_by_what_strength() -> None:
    got = adjudicate("""
France:
A Par - Bur
A Mar S A Par - Bur

Germany:
A Mun - Bur
""")
    assert got["A Mun - Bur"].reason == "Bounced 1v2"
    (cut,) = [line for line in got["A Mun - Bur"].explanation if line.startswith("A Paris")]
    assert "prevent strength 2 = 1 + support of A Marseilles" in cut


def test_explanations_are_kept_through_the_variants_own_citations() -> None:
    """A Dissolution sortie cites the Dissolution rulebook (§3.7), not S9 §7.2."""
    variant = lawspeaker.load_variant("dissolution")
    position = lawspeaker.initial_position(variant)
    stationary = next(u for u in position.units.values() if u.stationary)
    target = next(iter(variant.map.army_links.get(stationary.province, ())), None) \
        or next(iter(variant.map.fleet_links.get(stationary.location, ())))
    orders = lawspeaker.parse_orders(
        variant.map, f"{stationary.type.value} {stationary.location} - {target}",
        stationary.power)[0]
    step = lawspeaker.adjudicate(variant, position, orders, variant.rules, [])
    (result,) = [r for r in step.results if isinstance(r.order, Move)]
    text = "\n".join(result.explanation)
    assert "sortie" in text and "Dissolution §3.7" in text and "S9 §7.2" not in text
