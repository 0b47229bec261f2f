"""Random play with heirs (S9 Complete, §7.1, §8.3, §9, §10): every order and
allocation it gives is legal, and it gives each kind often enough to matter."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections import Counter

import pytest

import lawspeaker
from lawspeaker import Game, PhaseKind, Position, Unit, UnitType
from lawspeaker.core.board import Dislodged, Heir, Phase, PowerState
from lawspeaker.core.orders import Build, BuildHeir, HeirHold, HeirMarry, Marry, Order, Remove
from lawspeaker.engine.adjustments import heir_builds_possible
from lawspeaker.rules.dp import allocation_problem, allotment
from lawspeaker.rules.marriages import heir_order_problem
from lawspeaker.sim.randomplay import drop_a_player, random_allocations, random_orders

SEEDS = range(40)


def with_vassal(s9: lawspeaker.Variant, phase: Phase) -> Position:
    """Ex 10.4.0 after the marriage: vDA (giver Dokkalfar, receiver Aesir) holds
    Permyak, its capital, with both heirs married there, and a fleet in Ylg."""
    start = lawspeaker.initial_position(s9)
    units = {p: u for p, u in start.units.items() if p != "per"}
    units["ylg"] = Unit("vDA", UnitType.FLEET, "ylg")
    powers = {n: s for n, s in start.powers_in_play.items() if n != "Permyak"}
    powers["vDA"] = PowerState("vassal", ("Dokkalfar", "Aesir"), "per")
    heirs = [h for h in start.heirs if h.power not in ("Aesir", "Dokkalfar")]
    heirs += [Heir("Aesir", "per", True), Heir("Dokkalfar", "per", True)]
    return start.replace(units=units, owners={**start.owners, "per": "vDA"},
                         powers_in_play=powers, heirs=heirs, phase=phase)


def test_every_unmarried_heir_gets_one_legal_order(s9: lawspeaker.Variant) -> None:
    """§7.1: Hold or Marry, from its owner, without DP; in Spring heirs may
    marry minors only (§10.3, §10.4)."""
    game = Game(s9)
    kinds: Counter[str] = Counter()
    for seed in SEEDS:
        heir_orders = [o for o in random_orders(s9, game.position, random.Random(seed))
                       if isinstance(o, HeirHold | HeirMarry)]
        assert sorted(o.power for o in heir_orders) == sorted(s9.powers)
        for order in heir_orders:
            assert game.problem(order) is None, order
            assert not (isinstance(order, HeirMarry) and order.to_heir)
            kinds[type(order).__name__] += 1
    assert kinds["HeirHold"] > kinds["HeirMarry"] > 0  # usually Hold, sometimes Marry


def test_vassal_marriages_are_proposed_in_matching_pairs_before_the_census(
        s9: lawspeaker.Variant) -> None:
    """§10.4 3: both heirs ordered to marry each other at the same location, a
    centre of one of them that is not a home centre (Ex 10.4.0: Permyak)."""
    start = lawspeaker.initial_position(s9)
    units = {p: u for p, u in start.units.items() if p != "per"}
    units["per"] = Unit("Dokkalfar", UnitType.FLEET, "per")
    powers = {n: s for n, s in start.powers_in_play.items() if n != "Permyak"}
    position = start.replace(units=units, owners={**start.owners, "per": "Dokkalfar"},
                             powers_in_play=powers, phase=Phase("Autumn", 1, PhaseKind.MOVEMENT))
    pairs = 0
    for seed in SEEDS:
        orders = random_orders(s9, position, random.Random(seed))
        wed = [o for o in orders if isinstance(o, HeirMarry) and o.to_heir]
        for order in wed:
            assert heir_order_problem(s9, position, order) is None, order
            assert order.at == "per"  # the only centre a power owns beyond its homes
        assert len({o.location for o in orders if isinstance(o, HeirMarry | HeirHold)}) == 9
        answered = [o for o in wed if any(
            (a.location, a.partner, a.at) == (o.partner, o.location, o.at) for a in wed)]
        assert len(answered) in (0, 2)  # one pair at most; the others are jilted (§10.4.1)
        pairs += len(answered) == 2
    assert pairs > 0
    game = Game(s9, position=position)
    for seed in SEEDS:  # the pairs marry: vDA or vAD is created at the Census
        game.position = position
        game.set_orders(random_orders(s9, position, random.Random(seed)))
        result = game.process()
        if any("is created" in e for e in result.events):
            break
    else:
        pytest.fail("no random vassal marriage succeeded")


def test_allocations_back_the_heirs_own_thrall_proposal(s9: lawspeaker.Variant) -> None:
    """§10.3 C, Ex 10.3.2: the heir's owner votes the minor's Marry; every
    allocation passes the allotment and Attacking & Allocating rules (§9.0, §9.2)."""
    position = lawspeaker.initial_position(s9)
    backed = married = 0
    for seed in SEEDS:
        rng = random.Random(seed)
        orders = random_orders(s9, position, rng)
        allocations = random_allocations(s9, position, orders, rng)
        for power in s9.powers:
            mine = [a for a in allocations if a.power == power]
            assert sum(a.points for a in mine) <= allotment(s9, position, power)
            for i, allocation in enumerate(mine):
                assert allocation_problem(s9, position, allocation, orders, mine[:i]) is None
        for order in orders:
            if isinstance(order, HeirMarry):
                backed += any(isinstance(a.order, Marry) and a.power == order.power
                              and a.order.heir == order.location
                              and a.order.province == order.partner for a in allocations)
        game = Game(s9)
        game.set_orders(orders)
        for allocation in allocations:
            game.allocate(allocation.power, allocation)
        game.process()
        married += any(h.married for h in game.position.heirs)
    assert backed > 0 and married > 0


def test_only_controllers_allocate_to_a_vassals_units(s9: lawspeaker.Variant) -> None:
    """§9.1 C, §10.5.1: vassal units move by their controllers' DP."""
    position = with_vassal(s9, Phase("Spring", 2, PhaseKind.MOVEMENT))
    givers: Counter[str] = Counter()
    for seed in SEEDS:
        rng = random.Random(seed)
        orders = random_orders(s9, position, rng)
        for allocation in random_allocations(s9, position, orders, rng):
            if allocation.order.province == "ylg":
                givers[allocation.power] += 1
    assert set(givers) == {"Aesir", "Dokkalfar"}


def test_a_vassals_retreat_is_ordered_by_one_or_both_controllers(
        s9: lawspeaker.Variant) -> None:
    """§10.5.2: either controller orders the retreat; sometimes both do."""
    position = with_vassal(s9, Phase("Spring", 2, PhaseKind.RETREAT))
    units = {p: u for p, u in position.units.items() if p != "ylg"}
    units["ylg"] = Unit("Jotnar", UnitType.FLEET, "ylg")
    dislodged = Dislodged(Unit("vDA", UnitType.FLEET, "ylg"), None)
    position = position.replace(units=units, dislodged={"ylg": dislodged})
    counts: Counter[int] = Counter()
    for seed in SEEDS:
        orders = random_orders(s9, position, random.Random(seed))
        assert all(o.power in ("Aesir", "Dokkalfar") for o in orders)
        counts[len(orders)] += 1
    assert counts[1] > 0 and counts[2] > 0


def test_vassal_builds_and_heir_builds_in_winter(s9: lawspeaker.Variant) -> None:
    """§8.4, §10.5.2: controllers build in the vassal's capital; §8.3: majors
    without an heir in their capital usually build one."""
    position = with_vassal(s9, Phase("Winter", 1, PhaseKind.ADJUSTMENT))
    position = position.replace(units={p: u for p, u in position.units.items() if p != "ylg"})
    may = heir_builds_possible(s9, position)
    assert may == ["Aesir", "Dokkalfar"]
    builders: Counter[str] = Counter()
    for seed in SEEDS:
        orders = random_orders(s9, position, random.Random(seed))
        for order in orders:
            if isinstance(order, BuildHeir):
                assert order.power in may and order.location in ("", "asg", "sva")
                builders["heir"] += 1
            else:
                assert isinstance(order, Build) and order.province == "per"
                builders[order.power] += 1
    assert builders["heir"] > 0 and builders["Aesir"] > 0 and builders["Dokkalfar"] > 0


def test_vassal_removals_come_from_its_controllers(s9: lawspeaker.Variant) -> None:
    position = with_vassal(s9, Phase("Winter", 1, PhaseKind.ADJUSTMENT))
    units = dict(position.units)
    units["sae"] = Unit("vDA", UnitType.FLEET, "sae")  # two units, one centre
    position = position.replace(units=units)
    for seed in SEEDS:
        removals: list[Order] = [o for o in random_orders(s9, position, random.Random(seed))
                                 if isinstance(o, Remove)]
        assert all(o.power in ("Aesir", "Dokkalfar") and o.province in ("ylg", "sae")
                   for o in removals)


def test_dropping_a_player_marks_a_surviving_major(s9: lawspeaker.Variant) -> None:
    """§3.4.2: the GM may force a dropped player out at the next Census."""
    position = lawspeaker.initial_position(s9)
    dropped = drop_a_player(s9, position, random.Random(1))
    assert len(dropped.dropped) == 1 and next(iter(dropped.dropped)) in s9.powers
    orders = random_orders(s9, dropped, random.Random(1))
    assert not any(o.power in dropped.dropped for o in orders)  # a dropped player is silent


def test_random_play_does_not_depend_on_the_hash_seed() -> None:
    script = ("import random, lawspeaker; from lawspeaker.sim.randomplay import play; "
              "v = lawspeaker.load_variant('s9-complete'); "
              "print(play(v, random.Random(5), 4, drop_chance=0.5).to_json())")
    outputs = set()
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        outputs.add(subprocess.run([sys.executable, "-c", script], env=env, check=True,
                                   capture_output=True, text=True).stdout)
    assert len(outputs) == 1
