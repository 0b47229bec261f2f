"""Bots that convoy (issue 22): the random bot moves armies by convoy along its own
fleets and wings, with explicit paths in Dissolution (§3.10.1); the tactician
convoys when that is the only way to take a centre."""

from __future__ import annotations

import random

import pytest
from test_bots import VARIANTS, play_phases

import lawspeaker
from lawspeaker.core.board import Phase, PhaseKind, Position
from lawspeaker.core.geography import UnitType
from lawspeaker.core.orders import Convoy, Hold, Move, Order
from lawspeaker.core.results import Outcome
from lawspeaker.engine.phases import adjudicate, initial_position
from lawspeaker.sim.bots import bot_named
from lawspeaker.sim.bots.convoying import add_convoys, carriers_of, convoy_routes


@pytest.fixture(scope="module")
def variants() -> dict[str, lawspeaker.Variant]:
    return {v: lawspeaker.load_variant(v) for v in VARIANTS}


def convoyed_arrivals(variant: lawspeaker.Variant, seed: int, years: int
                      ) -> tuple[list[tuple[str, Move]], Position]:
    """Random bots at every power: each convoyed army's move that succeeded to a
    space the army does not border, with the phase, checked on the next position."""
    bot = bot_named("random")
    rng = random.Random(seed)
    position = initial_position(variant)
    arrived: list[tuple[str, Move]] = []
    last = variant.first_year + years - 1
    while position.result is None and position.phase.year <= last:
        moves = bot.play(variant, position, sorted(variant.powers), rng)
        result = adjudicate(variant, position, moves.orders, None, moves.allocations)
        for r in result.results:
            order = r.order
            if isinstance(order, Move) and (order.via_convoy or order.path) \
                    and r.outcome is Outcome.SUCCEEDS:
                assert order.target_province not in variant.map.army_links[order.location]
                landed = result.position.units.get(order.target_province)
                assert landed is not None and landed.type is UnitType.ARMY, order
                assert landed.power == order.power
                arrived.append((str(position.phase), order))
        position = result.position
    return arrived, position


def test_the_random_bots_convoyed_army_arrives(variants: dict[str, lawspeaker.Variant]
                                               ) -> None:
    arrived, _ = convoyed_arrivals(variants["standard"], seed=3, years=3)
    assert arrived, "no convoyed army arrived in three years"
    assert all(m.via_convoy and not m.path for _, m in arrived)


def test_in_dissolution_the_random_bot_states_its_paths(
        variants: dict[str, lawspeaker.Variant]) -> None:
    """Dissolution §3.10.1: the army names every convoying space; it arrives."""
    arrived, _ = convoyed_arrivals(variants["dissolution"], seed=3, years=4)
    assert arrived
    assert all(m.path and not m.via_convoy for _, m in arrived), arrived


@pytest.mark.parametrize("name", VARIANTS)
def test_the_random_bot_plays_every_variant_legally(variants: dict[str, lawspeaker.Variant],
                                                    name: str) -> None:
    """The engine refuses none of its orders or DP but the Winter Embassy orders
    it gets wrong on purpose (Dissolution §11.5; :func:`play_phases` leaves them out)."""
    kinds, problems = play_phases(variants[name], "random", 6, seed=2)
    assert problems == []
    assert kinds["Convoy"] > 0 and kinds["Move"] > 0, kinds


def test_the_random_bot_is_deterministic_and_convoys_only_its_own(
        variants: dict[str, lawspeaker.Variant]) -> None:
    standard = variants["standard"]
    start = initial_position(standard)
    autumn = start.replace(phase=Phase("Fall", 1901, PhaseKind.MOVEMENT), units={
        **{p: u for p, u in start.units.items() if p not in ("edi", "lvp", "lon")},
        "nth": lawspeaker.Unit("England", UnitType.FLEET, "nth"),
        "yor": lawspeaker.Unit("England", UnitType.ARMY, "yor"),
        "hel": lawspeaker.Unit("Germany", UnitType.FLEET, "hel")})
    army = autumn.units["yor"]
    routes = convoy_routes(standard, autumn, army, carriers_of(standard, autumn, "England"))
    assert "nwy" in {r.move.target for r in routes}
    holds: list[Order] = [Hold(u.power, u.type, u.location)
                          for _, u in sorted(autumn.units.items())]
    every = add_convoys(standard, autumn, holds, ["England"], random.Random(1), chance=1.0)
    assert every == add_convoys(standard, autumn, holds, ["England"], random.Random(1), 1.0)
    changed = [o for o, h in zip(every, holds, strict=True) if o != h]
    assert {o.province for o in changed} == {"yor", "nth"}
    assert any(isinstance(o, Convoy) and o.army == "yor" for o in changed)
    german = add_convoys(standard, autumn, holds, ["Germany"], random.Random(1), chance=1.0)
    assert german == holds  # Germany's fleet never carries England's army


def test_the_tactician_convoys_when_that_is_the_only_way_to_take_a_centre(
        variants: dict[str, lawspeaker.Variant]) -> None:
    """Dissolution §3.3 (4), §3.10.1: the Egyptian army in Cairo reaches Khartoum
    this Autumn only carried by its wing in Aswan (``A Cai - Asw - Khm``, the
    rulebook's own example); walking takes two moves, and a wing's move is a
    sortie that takes nothing (§3.7)."""
    dissolution = variants["dissolution"]
    start = initial_position(dissolution)
    near = {"khm", *dissolution.map.touching("khm")} - {"asw"}
    units = {p: u for p, u in start.units.items() if p not in near}
    autumn = start.replace(phase=Phase("Autumn", 1992, PhaseKind.MOVEMENT), units=units)
    assert autumn.owners["khm"] != "Egypt"
    moves = bot_named("tactician").play(dissolution, autumn, ["Egypt"], random.Random(4))
    assert Move("Egypt", UnitType.ARMY, "cai", "khm", path=("asw",)) in moves.orders
    assert Convoy("Egypt", UnitType.WING, "asw", "cai", "khm") in moves.orders
    after = adjudicate(dissolution, autumn, moves.orders, None, moves.allocations).position
    assert after.owners["khm"] == "Egypt"
