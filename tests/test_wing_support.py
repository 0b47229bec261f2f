"""Dissolution §3.1: a wing's support is "Unlimited" (rules option ``wing_support``)."""

from __future__ import annotations

import lawspeaker
from lawspeaker.core.legality import movement_problem
from lawspeaker.core.notation import parse_order
from lawspeaker.core.results import Outcome
from lawspeaker.engine.phases import adjudicate, initial_position

VARIANT = lawspeaker.load_variant("dissolution")
START = initial_position(VARIANT)


def test_by_default_a_wing_supports_only_into_bordering_spaces() -> None:
    # bordering (default): "Unlimited" means not limited by terrain, still bordering (§3.3).
    order = parse_order(VARIANT.map, "W Asw S A Ath", "Egypt")
    assert "cannot reach" in (movement_problem(VARIANT.map, START.units, order) or "")
    step = adjudicate(VARIANT, START, [order])
    assert next(r for r in step.results if r.order == order).outcome is Outcome.ILLEGAL


def test_anywhere_lets_a_wing_support_any_space() -> None:
    order = parse_order(VARIANT.map, "W Asw S A Ath", "Egypt")
    assert movement_problem(VARIANT.map, START.units, order, wing_anywhere=True) is None
    rules = VARIANT.rules.with_options(wing_support="anywhere")
    step = adjudicate(VARIANT, START, [order], rules)
    assert next(r for r in step.results if r.order == order).outcome is Outcome.SUCCEEDS
