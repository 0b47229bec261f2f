"""Order results: immutable values whose texts are built, and cited, only when read."""

from __future__ import annotations

import gc

import pytest
from helpers import board

import lawspeaker
from lawspeaker import OrderResult, Outcome


def _result(game_map: lawspeaker.GameMap) -> OrderResult:
    order = lawspeaker.parse_order(game_map, "Germany: A ber - sil")
    out = lawspeaker.resolve_movement(
        game_map, board("Germany: A ber", "Russia: A war"),
        [order, lawspeaker.parse_order(game_map, "Russia: A war - sil")])
    (found,) = [r for r in out.results if r.order == order]
    return found


def test_a_result_cannot_be_changed(game_map: lawspeaker.GameMap) -> None:
    r = _result(game_map)
    for name, value in (("outcome", Outcome.SUCCEEDS), ("reason", "Move succeeds"),
                        ("order", None), ("dislodged", True), ("implicit", True),
                        ("anything", 1)):
        with pytest.raises(AttributeError):
            setattr(r, name, value)
    assert (r.outcome, r.reason) == (Outcome.FAILS, "Bounced 1v1")


def test_cited_passes_the_reason_and_every_line_through_the_words(
        game_map: lawspeaker.GameMap) -> None:
    r = _result(game_map)
    asked: list[str] = []

    def shout(text: str) -> str:
        asked.append(text)
        return text.upper()

    cited = r.cited(shout)
    assert asked == []  # nothing is worded until it is read
    assert cited.reason == "BOUNCED 1V1"
    assert cited.explanation == tuple(line.upper() for line in r.explanation)
    assert (cited.order, cited.outcome, cited.dislodged) == (r.order, r.outcome, r.dislodged)
    assert cited == r.reworded(lambda: shout(r.reason), shout)
    twice = cited.cited(str.lower)
    assert (twice.reason, twice.explanation) == (
        "bounced 1v1", tuple(line.lower() for line in r.explanation))


def test_reworded_keeps_the_explanation_still_to_be_worked_out(
        game_map: lawspeaker.GameMap) -> None:
    """A resolver's result works out its failure text and its explanation from its plan
    when first read (issue 20); rewording it before either was read keeps both."""
    fresh, read = _result(game_map), _result(game_map)
    lines = read.explanation
    assert len(lines) > 1 and lines[0] != read.reason
    again = fresh.reworded("Bounced; see why", str.upper)
    assert again.reason == "Bounced; see why"
    assert again.explanation == tuple(line.upper() for line in lines)
    assert fresh.reworded("plain").explanation == lines
    assert (fresh.reason, fresh.explanation) == (read.reason, lines)


def test_a_phase_leaves_no_cycles_for_the_garbage_collector(
        game_map: lawspeaker.GameMap) -> None:
    """The results read the resolver for their texts, and the resolver does not keep
    them: a phase is freed by reference counting as soon as its results are (issue 20)."""
    gc.collect()
    gc.disable()
    try:
        r = _result(game_map)
        assert r.explanation
        del r
        assert gc.collect() == 0
    finally:
        gc.enable()
