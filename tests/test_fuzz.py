"""Fuzzing the readers of players' and GMs' input (issue 13 §3): whatever the
text, only the documented exceptions escape, never a traceback."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lawspeaker
from lawspeaker import PhaseKind
from lawspeaker.core.notation import OrderSyntaxError, parse_order
from lawspeaker.engine.positions import PositionError, read_position
from lawspeaker.engine.posts import PostError, read_post
from lawspeaker.rules.dp import parse_allocation

FAST = settings(max_examples=300, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])
S9 = lawspeaker.load_variant("s9-complete")
OOD = lawspeaker.load_variant("ood")

# Words orders are made of, so the fuzzer reaches deep into the grammar.
WORDS = ["A", "F", "Heir", "H", "S", "C", "-", "->", "to", "moves", "via", "convoy", "Marry",
         "at", "Build", "Remove", "Waive", "Disband", "R", "Asgard", "Asg", "Permyak", "per",
         "Ylg", "Aesir", "/", "(", ")", "nc", "sc", "coast", "DP", "2", "-1", "1.5", ":",
         "Lübeck", "Tol-wc", "**", "•", "1.", "#", "//", "\ufeff", "Aesir:", "England"]
order_text = st.one_of(st.text(max_size=60),
                       st.lists(st.sampled_from(WORDS), max_size=10).map(" ".join))
kinds = st.sampled_from([PhaseKind.MOVEMENT, PhaseKind.RETREAT, PhaseKind.ADJUSTMENT])


@FAST
@given(text=order_text, kind=kinds)
def test_the_order_reader_raises_only_order_syntax_errors(text: str, kind: PhaseKind) -> None:
    for variant in (S9, OOD):
        with contextlib.suppress(OrderSyntaxError):
            parse_order(variant.map, text, "Aesir", kind, variant.capital_names())


@FAST
@given(text=order_text)
def test_the_allocation_reader_raises_only_order_syntax_errors(text: str) -> None:
    try:
        allocation = parse_allocation(S9.map, "2 DP to " + text, "Aesir", S9.capital_names())
    except OrderSyntaxError:
        return
    assert allocation.points == 2


@FAST
@given(lines=st.lists(order_text, max_size=8), kind=kinds)
def test_the_post_reader_reports_every_line_and_never_raises(lines: list[str],
                                                            kind: PhaseKind) -> None:
    text = "\n".join(lines)
    try:
        read = read_post(S9, text, kind, "Aesir")
    except PostError:  # only a character that cannot be stored or shown honestly
        from lawspeaker.core.safetext import unsafe_char

        assert unsafe_char(text, allow="\t\n\r\f\v") is not None
        return
    for line in read:
        assert (line.error is None) == (line.order is not None or line.allocation is not None)


@FAST
@given(data=st.binary(max_size=200))
def test_the_post_reader_of_bytes_raises_only_post_errors(data: bytes) -> None:
    with contextlib.suppress(PostError):
        read_post(S9, data, PhaseKind.MOVEMENT, "Aesir")


START = lawspeaker.initial_position(S9).to_dict()
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=3),
    max_leaves=8)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out


PATHS = [p for p in _paths(START) if p]


@FAST
@given(path=st.sampled_from(PATHS), value=json_values, delete=st.booleans())
def test_the_position_reader_raises_only_position_errors_on_hand_edits(
        path: tuple[Any, ...], value: Any, delete: bool) -> None:
    data = json.loads(json.dumps(START))
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    with contextlib.suppress(PositionError):
        read_position(S9, json.dumps(data))


@FAST
@given(cut=st.integers(min_value=0, max_value=len(json.dumps(START))), noise=st.text(max_size=5))
def test_the_position_reader_raises_only_position_errors_on_truncation(cut: int,
                                                                       noise: str) -> None:
    text = json.dumps(START)[:cut] + noise
    with contextlib.suppress(PositionError):
        read_position(S9, text)


@pytest.mark.parametrize("text", ["", "[]", "null", "1e999", '{"variant": 5}', "[" * 5000])
def test_odd_json_is_a_position_error(text: str) -> None:
    with pytest.raises(PositionError):
        read_position(S9, text)
