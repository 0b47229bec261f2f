"""Every phase of every game draws (issue 17): random games of every bundled
variant, posted as players write them with illegal orders mixed in, each
phase drawn with its results (the map, the Favor Map, the results post), and
the current phase with its standing orders. Nothing may raise."""

from __future__ import annotations

import contextlib
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import lawspeaker
from lawspeaker.core.board import PhaseKind, Position
from lawspeaker.rules.favor import favor_board
from lawspeaker.service import GM, PUBLIC, GameService, ServiceError
from lawspeaker.sim.randomplay import random_posts
from lawspeaker.store import open_store

VARIANTS = ["standard", "s9-basic", "s9-complete", "ood", "dissolution"]
PHASES = 7
"""Enough for a first Winter (Dissolution's Embassy orders) and the next Spring."""


def illegal_lines(variant: lawspeaker.Variant, position: Position, power: str,
                  rng: random.Random) -> list[str]:
    """Lines a careless player might post: orders for its own units and for
    places with no unit of its own, moves that go nowhere near, builds anywhere,
    Embassies leaving their slice, DP for orders no unit can give; all
    readable, most of them illegal."""
    names = sorted(variant.map.name_of(p) for p in variant.map.provinces)
    own = sorted(variant.map.name_of(u.location) for u in position.units_of(power))
    own += sorted(variant.map.name_of(d.unit.location) for d in position.dislodged.values()
                  if d.unit.power == power)

    def place() -> str:
        return rng.choice(own) if own and rng.random() < 0.5 else rng.choice(names)

    kind = position.phase.kind
    unit = rng.choice("AFW" if variant.uses("wings") else "AF")
    lines: list[str] = []
    if kind is PhaseKind.MOVEMENT:
        lines += [f"{unit} {place()} - {place()}", f"A {place()} S F {place()} - {place()}",
                  f"F {place()} C A {place()} - {place()}", f"{unit} {place()} H"]
        if variant.uses("diplomacy_points"):
            lines.append(f"1 DP to {unit} {place()} S A {place()} - {place()}")
    elif kind is PhaseKind.RETREAT:
        lines += [f"{unit} {place()} - {place()}", f"{unit} {place()} Disband"]
    elif kind is PhaseKind.ADJUSTMENT:
        lines += [f"Build {unit} {place()}", f"Remove {unit} {place()}"]
        if variant.uses("favor_map"):
            board = favor_board(variant)
            spaces = sorted({*board.coords, *(f"{x}0z" for x in board.slices)})
            mine = sorted(position.embassies.get(power, {}).values())

            def space() -> str:
                return rng.choice(mine) if mine and rng.random() < 0.5 else rng.choice(spaces)

            lines += [f"E {space()} - {space()}", f"E {space()} S {space()} - {space()}",
                      f"E {space()} S {space()}", f"E {space()} H"]
    return rng.sample(lines, k=min(len(lines), rng.randint(1, 3)))


def post_everyone(service: GameService, name: str, variant: lawspeaker.Variant,
                  position: Position, rng: random.Random) -> None:
    """Every power posts random legal orders with illegal lines mixed in."""
    posts, _, _ = random_posts(variant, position, rng)
    for power in sorted(variant.powers):
        bad = "\n".join(illegal_lines(variant, position, power, rng))
        with contextlib.suppress(ServiceError):  # nothing to order now
            service.submit(name, power, posts.get(power, f"{power}:\n") + bad + "\n", actor=GM)


def draw_everything(service: GameService, name: str, variant: lawspeaker.Variant,
                    phase: str) -> None:
    assert "<svg" in str(service.picture(name, phase, orders=True, actor=GM))
    if variant.uses("favor_map"):
        assert service.picture(name, phase, orders=True, actor=GM, board="favor")


@pytest.mark.parametrize("variant_name", VARIANTS)
@settings(max_examples=1, deadline=None, derandomize=True,  # seconds: CI runs it
          phases=[Phase.explicit, Phase.generate],  # a seed does not shrink
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
def test_every_phase_of_a_random_game_with_illegal_orders_draws(variant_name: str,
                                                               seed: int) -> None:
    variant = lawspeaker.load_variant(variant_name)
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(f"sqlite:///{Path(folder) / 'games.db'}")
        try:
            service = GameService(store)
            service.create_game(variant_name, "g", actor=GM)
            for _ in range(PHASES):
                position = service.position("g", actor=PUBLIC)
                if position.result:
                    break
                post_everyone(service, "g", variant, position, rng)
                code = service.game("g", actor=PUBLIC).phase_code
                draw_everything(service, "g", variant, code)  # the orders standing
                record = service.process("g", actor=GM)
                assert record.phase
                draw_everything(service, "g", variant, code)  # with the results
                for fmt in ("text", "markdown", "bbcode"):
                    service.export("g", code, fmt=fmt, gm=True, actor=GM)
        finally:
            store.close()
