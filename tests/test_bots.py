"""The bots (issue 22): chosen by name, deterministic for a seed, legal in every
variant, playing every kind of order, and the tactician stronger than random."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from test_randomplay import with_vassal

import lawspeaker
from lawspeaker.core.board import Phase, PhaseKind
from lawspeaker.core.orders import (
    Build,
    EmbassyOrder,
    Hold,
    Move,
    SupportMove,
)
from lawspeaker.core.results import Outcome
from lawspeaker.engine.phases import adjudicate, initial_position
from lawspeaker.rules.dp import allocation_problem, allotment
from lawspeaker.sim.bots import bot_named, bot_names
from lawspeaker.sim.match import play_match

VARIANTS = ["standard", "s9-basic", "s9-complete", "ood", "dissolution"]


@pytest.fixture(scope="module")
def variants() -> dict[str, lawspeaker.Variant]:
    return {v: lawspeaker.load_variant(v) for v in VARIANTS}


def test_bots_are_chosen_by_name() -> None:
    assert bot_names() == ["hold", "random", "tactician"]
    assert bot_named("Tactician").name == "tactician"
    with pytest.raises(ValueError, match=r"no bot called 'genius'.*hold, random, tactician"):
        bot_named("genius")


def play_phases(variant: lawspeaker.Variant, bot: str, years: int, seed: int = 1
                ) -> tuple[Counter[str], list[str]]:
    """Every power played by ``bot``; the kinds of orders and DP given, and every
    illegal or rejected one (with the phase)."""
    player = bot_named(bot)
    rng = random.Random(seed)
    position = initial_position(variant)
    kinds: Counter[str] = Counter()
    problems: list[str] = []
    last = variant.first_year + years - 1
    while position.result is None and position.phase.year <= last:
        moves = player.play(variant, position, sorted(variant.powers), rng)
        for order in moves.orders:
            kinds[type(order).__name__] += 1
            if order.unit_type is lawspeaker.UnitType.WING:
                kinds["wing"] += 1
        spent: dict[str, int] = {}
        for a in moves.allocations:
            kinds["DP:" + type(a.order).__name__] += 1
            spent[a.power] = spent.get(a.power, 0) + a.points
        for power, points in spent.items():
            assert points <= allotment(variant, position, power), (position.phase, power)
        result = adjudicate(variant, position, moves.orders, None, moves.allocations)
        for r in result.results:
            if r.outcome is Outcome.ILLEGAL and not isinstance(r.order, EmbassyOrder):
                problems.append(f"{position.phase}: {r.order}: {r.reason}")
        if result.dp is not None:
            problems += [f"{position.phase}: {a}: {why}" for a, why in result.dp.rejected
                         if not why.startswith("Ignored")]
        position = result.position
    return kinds, problems


@pytest.mark.parametrize("name", VARIANTS)
def test_the_tactician_plays_every_variant_legally(variants: dict[str, lawspeaker.Variant],
                                                   name: str) -> None:
    kinds, problems = play_phases(variants[name], "tactician", 6)
    assert problems == []
    for kind in ("Move", "Build"):
        assert kinds[kind] > 0, (kind, kinds)
    assert kinds["SupportMove"] + kinds["DP:SupportMove"] > 0, kinds  # its own, or a neutral's
    if variants[name].uses("diplomacy_points"):
        assert kinds["DP:SupportMove"] + kinds["DP:Move"] + kinds["DP:Marry"] > 0, kinds


def test_the_tactician_plays_the_rules_of_each_variant(
        variants: dict[str, lawspeaker.Variant]) -> None:
    """Heirs and thrall marriages (S9 §10.3), heir builds (§8.3), wings and
    Winter Embassy orders (Dissolution §4.4, §11.5), retreats and removals."""
    s9, _ = play_phases(variants["s9-complete"], "tactician", 8)
    assert s9["HeirMarry"] > 0 and s9["DP:Marry"] > 0 and s9["BuildHeir"] > 0, s9
    dis, _ = play_phases(variants["dissolution"], "tactician", 8)
    assert dis["EmbassyOrder"] > 0 and dis["wing"] > 0, dis
    total = s9 + dis
    assert total["Retreat"] + total["Disband"] > 0 and total["Remove"] > 0, total


def test_the_tactician_orders_the_vassals_it_controls(
        variants: dict[str, lawspeaker.Variant]) -> None:
    """S9 §9.1 C (DP to a vassal's units), §10.5.2 (a controller's builds and removals)."""
    s9 = variants["s9-complete"]
    bot = bot_named("tactician")
    moving = with_vassal(s9, Phase("Spring", 2, PhaseKind.MOVEMENT))
    moves = bot.play(s9, moving, ["Aesir"], random.Random(3))
    vassal = [a for a in moves.allocations if a.order.power == "vDA"]
    assert vassal and all(allocation_problem(s9, moving, a, moves.orders, []) is None
                          for a in vassal)
    winter = with_vassal(s9, Phase("Winter", 2, PhaseKind.ADJUSTMENT))
    winter = winter.replace(units={p: u for p, u in winter.units.items() if p != "ylg"})
    moves = bot.play(s9, winter, ["Aesir"], random.Random(3))
    assert any(isinstance(o, Build) and o.location.startswith("per") for o in moves.orders), \
        moves.orders


def test_the_hold_bot_holds(variants: dict[str, lawspeaker.Variant]) -> None:
    s9 = variants["s9-complete"]
    start = initial_position(s9)
    moves = bot_named("hold").play(s9, start, ["Aesir"], random.Random(1))
    assert moves.allocations == []
    assert {type(o).__name__ for o in moves.orders} == {"Hold", "HeirHold"}
    assert {o.power for o in moves.orders} == {"Aesir"}
    assert len([o for o in moves.orders if isinstance(o, Hold)]) == len(start.units_of("Aesir"))


def test_random_is_randomplay_kept_to_its_powers(variants: dict[str, lawspeaker.Variant]
                                                 ) -> None:
    s9 = variants["s9-complete"]
    start = initial_position(s9)
    moves = bot_named("random").play(s9, start, ["Aesir", "Vanir"], random.Random(5))
    assert {o.power for o in moves.orders} == {"Aesir", "Vanir"}
    assert {a.power for a in moves.allocations} <= {"Aesir", "Vanir"}
    assert any(isinstance(o, Move | SupportMove) for o in moves.orders)


def test_a_seed_replays_a_game_exactly(variants: dict[str, lawspeaker.Variant]) -> None:
    s9 = variants["s9-complete"]
    seating = {p: "random" for p in s9.powers} | {"Vanir": "tactician"}
    first = play_match(s9, seating, seed=11, max_years=4)
    again = play_match(s9, seating, seed=11, max_years=4)
    other = play_match(s9, seating, seed=12, max_years=4)
    assert first == again
    assert first.centres_by_year != other.centres_by_year or first.changes != other.changes


@pytest.mark.parametrize("name", VARIANTS)
def test_the_tactician_finishes_on_top_against_random(
        variants: dict[str, lawspeaker.Variant], name: str) -> None:
    """Two powers per variant, one game each (the lab measures every power: docs/bots.md)."""
    variant = variants[name]
    powers = sorted(variant.powers)
    for hero in (powers[0], powers[-1]):
        seating = {p: "random" for p in powers} | {hero: "tactician"}
        record = play_match(variant, seating, seed=7, max_years=8)
        best = max(record.final_centres.values())
        assert record.final_centres[hero] == best, (hero, record.final_centres)

