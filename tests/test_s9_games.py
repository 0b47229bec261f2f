"""Whole Saga of the Nine games with random legal orders and DP (issue: S9 Basic
and Complete for 11 cycles with a consistent state after every phase).

S9 Complete games are played through the :class:`~lawspeaker.Game` API with
random orders, DP allocations, heir marriages, vassal orders, heir builds and,
in some games, a GM dropping a player (S9 §3.4.2). After every phase the
position must satisfy the invariants of :func:`check_invariants`; at the end
the result must be the one the rules give (S9 §3.1, §3.3, §3.4). Across the
seeds the random play must really marry, create vassals, build and execute
heirs, or it would test little.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from functools import cache

import pytest

import lawspeaker
from lawspeaker import Game, PhaseKind, Position, Unit
from lawspeaker.core.board import Heir
from lawspeaker.core.orders import BuildHeir, HeirMarry, HeirOrder, Marry
from lawspeaker.core.results import Outcome
from lawspeaker.engine.adjustments import adjustment_counts
from lawspeaker.engine.phases import Adjudication, centre_counts
from lawspeaker.rules.census import survivors
from lawspeaker.rules.dp import allotment, is_dp_controlled
from lawspeaker.rules.marriages import vassal_marriage_phase
from lawspeaker.sim.randomplay import play, random_allocations, random_orders

S9_COMPLETE_SEEDS = range(200)
"""Seeds of the S9 Complete games: about 0.09 s each, so this file takes about 19 s."""


def drop_chance(seed: int) -> float:
    """The chance that the GM drops a player before each Autumn orders phase
    (S9 §3.4.2): never in most games, sometimes in every third, and nearly every
    Autumn in every sixth, so that the last survivor's solo (§3.4) happens too."""
    return 0.9 if seed % 6 == 1 else 0.2 if seed % 3 == 0 else 0.0


@cache
def _variant(name: str) -> lawspeaker.Variant:
    return lawspeaker.load_variant(name)


def check_invariants(variant: lawspeaker.Variant, before: Position, position: Position,
                     result: Adjudication) -> None:
    """Invariants that must hold after every phase (``before`` is the position
    the phase was adjudicated from, ``position`` the one it produced)."""
    game_map = variant.map
    provinces = game_map.provinces
    # Owners are only of supply centres; a mapping gives each centre at most one owner.
    assert all(provinces[p].is_sc for p in position.owners)
    # Every unit stands where its type may stand, one per province; minor and thrall
    # units, and only they, are stationary (S9 §7.2, §10.3, §10.5).
    for prov, unit in position.units.items():
        assert unit.province == prov
        assert game_map.is_valid_location(unit.type, unit.location), unit
        assert unit.stationary == (position.kind_of(unit.power) in ("minor", "thrall")), unit
        assert unit.power in variant.powers or unit.power in position.powers_in_play, unit
        if unit.stationary:  # a minor's or thrall's unit never leaves its own centre
            assert position.owners.get(prov) == unit.power, unit
    # After a Census every occupied centre belongs to its occupant (S9 §2.2 3a).
    census_ran = result.phase.kind is not PhaseKind.ADJUSTMENT and (
        position.phase.kind in (PhaseKind.ADJUSTMENT, PhaseKind.CENSUS)
        or position.phase.year > result.phase.year)
    if census_ran:
        for prov, unit in position.units.items():
            if provinces[prov].is_sc:
                assert position.owners.get(prov) == unit.power, (prov, unit)
    if result.phase.kind is PhaseKind.ADJUSTMENT:
        # No major or vassal has more units than centres (S9 §3.2, §10.5)...
        assert all(owed >= 0 for owed in adjustment_counts(variant, position).values()), \
            adjustment_counts(variant, position)
        # ... and each built where it may (§8.1, §8.2, §8.4).
        for prov, unit in position.units.items():
            if before.units.get(prov) != unit:
                check_build(variant, before, unit)
    # Retreat phases have dislodged units; other phases have none pending.
    assert bool(position.dislodged) == (position.phase.kind is PhaseKind.RETREAT)
    # DP-controlled units took the order DP chose, nobody learns who voted, and
    # random play never offers an allocation the rules reject (S9 §9.0-§9.2).
    if result.dp is not None:
        assert set(result.dp.public()) == {p for p, u in before.units.items()
                                           if is_dp_controlled(before, u)}
        assert not result.dp.rejected, result.dp.rejected
    # Random play is legal play: no order it gives is illegal.
    illegal = [r for r in result.results if r.outcome is Outcome.ILLEGAL and not r.implicit]
    assert not illegal, illegal
    if variant.uses("heirs"):
        check_heirs(variant, before, position)
        check_marriages(variant, before, position, result, census_ran)
    # Serialisation round-trips at every step.
    assert Position.from_json(position.to_json()) == position


def check_build(variant: lawspeaker.Variant, before: Position, unit: Unit) -> None:
    """A unit built this Winter: a major's in a home centre in S9 Complete (§8.2)
    or an owned centre in S9 Basic (§8.1); a vassal's in its capital; a minor's
    or thrall's the type that started there (§8.4)."""
    assert before.owners.get(unit.province) == unit.power, unit
    kind = before.kind_of(unit.power)
    if kind == "major" and variant.uses("heirs"):
        assert unit.province in variant.powers[unit.power].homes, unit
    elif kind == "vassal":
        assert unit.province == before.powers_in_play[unit.power].capital, unit
    elif kind in ("minor", "thrall"):
        assert unit.stationary and unit.type is variant.starting_type(unit.province), unit


def check_heirs(variant: lawspeaker.Variant, before: Position, position: Position) -> None:
    """S9 Complete: heirs, thralls, vassals, eliminations and DP (§1.3, §3.4,
    §7.1, §9.2, §10)."""
    alive = set(survivors(variant, position))
    heirs = set(position.heirs)
    for heir in position.heirs:
        # Heirs are only in supply centres (§7.1), and only of surviving majors (§3.4).
        assert variant.map.provinces[heir.location].is_sc, heir
        assert heir.power in alive, heir
        if not heir.married:  # §10.2: an unmarried heir lives in its own capital
            assert heir.location == variant.powers[heir.power].capital, heir
            continue
        # A married heir is in its thrall's centre or its vassal's capital (§10.3, §10.4).
        owner = position.owners.get(heir.location, "")
        state = position.powers_in_play.get(owner)
        assert state is not None and heir.power in state.controllers, (heir, owner, state)
        assert state.kind == "thrall" or (state.kind == "vassal"
                                          and state.capital == heir.location), (heir, state)
    unmarried = Counter(h.power for h in position.heirs if not h.married)
    assert all(n == 1 for n in unmarried.values()), unmarried  # §10.2: one per capital
    for name, state in sorted(position.powers_in_play.items()):
        assert name not in variant.powers
        if state.kind == "minor":
            assert state.controllers == ()
        elif state.kind == "thrall":  # §10.3: one controller, whose heir is in its centre
            assert len(state.controllers) == 1, (name, state)
            centres = position.centres_of(name)
            assert len(centres) == 1, (name, centres)
            assert Heir(state.controllers[0], centres[0], True) in heirs, (name, state)
            assert state.controllers[0] in alive, (name, state)
        else:  # §10.4, §3.4 step 5: two controllers, or the one survivor
            assert state.kind == "vassal", state
            assert len(state.controllers) in (1, 2), (name, state)
            assert len(set(state.controllers)) == len(state.controllers), (name, state)
            assert all(c in alive for c in state.controllers), (name, state, alive)
            assert state.capital and position.owners.get(state.capital) == name, (name, state)
            assert not any(state.capital in variant.powers[c].homes for c in state.controllers)
            assert all(Heir(c, state.capital, True) in heirs for c in state.controllers)
    for power in sorted(variant.powers):
        capital = variant.powers[power].capital
        if power in alive:  # §1.3, §3.4: without its capital a power lives by its heirs
            assert position.owners.get(capital or "") == power or position.heirs_of(power)
        else:  # eliminated: nothing left on the board (§3.4 step 1)
            assert not position.units_of(power), power
            assert not any(d.unit.power == power for d in position.dislodged.values())
            assert not position.heirs_of(power), power
        if position.phase.kind is PhaseKind.MOVEMENT:
            assert 0 <= allotment(variant, position, power) <= 7  # §9.2
        built = position.heir_built.get(power)
        if built is not None and built != before.heir_built.get(power):
            assert built == before.phase.year  # heirs are built in Winter (§8.3) ...
            assert before.heir_built.get(power) != built - 1  # ... at most every other one
        if power in position.dropped:
            assert power in alive


def check_marriages(variant: lawspeaker.Variant, before: Position, position: Position,
                    result: Adjudication, census_ran: bool) -> None:
    """Marriages happen exactly when the rules say (S9 §10.3, §10.4)."""
    # A thrall marriage succeeds iff DP chose the minor's Marry for this heir and the
    # minor's unit was not dislodged (§10.3 C-D; A-B are checked when it is given).
    dislodged = {d.unit.province for d in result.dislodged}
    chosen = result.dp.public() if result.dp is not None else {}
    for r in result.results:
        if isinstance(r.order, HeirMarry) and not r.order.to_heir:
            wed = chosen.get(r.order.partner)
            expected = isinstance(wed, Marry) and wed.heir == r.order.location \
                and r.order.partner not in dislodged
            assert (r.outcome is Outcome.SUCCEEDS) == expected, (r, wed, dislodged)
    # Vassal marriages wait only between the Autumn orders and the Census (§10.4)...
    assert not position.marriages or (position.phase.kind is PhaseKind.RETREAT
                                      and vassal_marriage_phase(variant, before))
    # ... where each one either creates a vassal or fails, publicly (§2.2 3d).
    if census_ran:
        agreed = sum(isinstance(r.order, HeirMarry) and r.order.to_heir
                     and r.outcome is Outcome.SUCCEEDS for r in result.results)
        pending = len(before.marriages) if result.phase.kind is PhaseKind.RETREAT \
            else agreed // 2
        created = sum("is created" in e for e in result.events)
        failed = sum(e.startswith("The marriage of") and "fails" in e for e in result.events)
        assert created + failed == pending, (pending, result.events)
        new = set(position.powers_in_play) - set(before.powers_in_play)
        assert sum(position.kind_of(p) == "vassal" for p in new) == created


def check_result(variant: lawspeaker.Variant, final: Position) -> None:
    """The game ended as S9 Complete says: a solo (§3.1, or the last survivor,
    §3.4), all lose with no survivor (§3.4), or the draw of the survivors after
    the eleventh Census (§3.3)."""
    result = final.result
    assert result is not None
    alive = survivors(variant, final)
    counts = centre_counts(variant, final)
    best = max(counts.values())
    solo_by_count = best >= 16 and list(counts.values()).count(best) == 1
    if result.startswith("Solo: "):
        winner = result.removeprefix("Solo: ")
        if winner.endswith(" (the last surviving player)"):
            assert alive == [winner.removesuffix(" (the last surviving player)")]
            assert not solo_by_count
        else:
            assert counts[winner] >= 16 and all(n < counts[winner] for p, n in counts.items()
                                                if p != winner), counts
    elif result.startswith("Lost: "):
        assert alive == [] and not solo_by_count
    else:
        assert result == "Draw: " + ", ".join(alive)
        assert len(alive) >= 2 and not solo_by_count
        assert final.phase.year == variant.first_year + 10
        assert variant.year_label(final.phase.year) == "Eleventh Cycle (210 BCE)"


def tally(result: Adjudication, seen: Counter[str]) -> None:
    """Count what the phase exercised: marriages, vassals, heirs built and executed."""
    for r in result.results:
        if isinstance(r.order, HeirMarry) and r.outcome is Outcome.SUCCEEDS:
            seen["vassal marriage agreed" if r.order.to_heir else "thrall marriage"] += 1
        elif isinstance(r.order, BuildHeir) and r.outcome is Outcome.SUCCEEDS:
            seen["heir built"] += 1
        elif isinstance(r.order, HeirOrder):
            seen[f"heir order {r.outcome.name}"] += 1
    for event in result.events:
        seen["vassal created"] += "the vassal" in event and "is created" in event
        seen["heir executed"] += "is executed" in event
        seen["dropped player eliminated"] += "§3.4.2" in event
        seen["vassal eliminated"] += event.startswith("v") and "is eliminated" in event


@cache
def complete_game(seed: int) -> tuple[Position, tuple[tuple[str, int], ...]]:
    """Play one S9 Complete game through the Game API, checking every phase;
    returns the final position and what it exercised."""
    variant = _variant("s9-complete")
    game = Game(variant)
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    drop = drop_chance(seed)
    while game.position.result is None:
        assert game.position.phase.year <= variant.first_year + 10  # S9 §3.3
        phase = game.position.phase
        if drop and phase.season == "Autumn" and phase.kind is PhaseKind.MOVEMENT \
                and rng.random() < drop:
            alive = [p for p in survivors(variant, game.position)
                     if p not in game.position.dropped]
            game.force_elimination(rng.choice(alive))  # S9 §3.4.2
        orders = random_orders(variant, game.position, rng)
        for order in orders:
            if phase.kind is PhaseKind.MOVEMENT or isinstance(order, BuildHeir):
                assert game.problem(order) is None, (order, game.problem(order))
        game.set_orders(orders)
        for allocation in random_allocations(variant, game.position, game.orders(), rng):
            game.allocate(allocation.power, allocation)  # raises if a rule rejects it
        before = game.position
        result = game.process()
        check_invariants(variant, before, game.position, result)
        tally(result, seen)
    check_result(variant, game.position)
    seen[(game.position.result or "").split(":")[0]] += 1
    seen["last survivor"] += "last surviving" in (game.position.result or "")
    return game.position, tuple(sorted(seen.items()))


@pytest.mark.parametrize("seed", S9_COMPLETE_SEEDS)
def test_s9_complete_random_game_through_the_api_ends_correctly(seed: int) -> None:
    final, _ = complete_game(seed)
    assert final.result is not None


def test_random_s9_complete_games_exercise_heirs_and_marriages() -> None:
    """Random play really marries, creates vassals, builds and executes heirs."""
    seen: Counter[str] = Counter()
    for seed in S9_COMPLETE_SEEDS:
        seen.update(dict(complete_game(seed)[1]))
    for what in ("thrall marriage", "vassal marriage agreed", "vassal created", "heir built",
                 "heir executed", "heir order FAILS", "dropped player eliminated",
                 "vassal eliminated", "Draw", "last survivor"):
        assert seen[what] >= 1, (what, seen)


def test_random_play_is_reproducible_from_its_seed() -> None:
    variant = _variant("s9-complete")
    first = play(variant, random.Random(7), 3, drop_chance=0.5)
    assert play(variant, random.Random(7), 3, drop_chance=0.5) == first


def consistent(variant: lawspeaker.Variant, history: list[Position]
               ) -> Callable[[Position, Adjudication], None]:
    """A ``play`` check: the invariants after every phase."""

    def check(position: Position, result: Adjudication) -> None:
        check_invariants(variant, history[-1], position, result)
        history.append(position)

    return check


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_s9_basic_random_game_runs_eleven_cycles(seed: int) -> None:
    variant = _variant("s9-basic")
    history = [lawspeaker.initial_position(variant)]
    final = play(variant, random.Random(seed), 11, check=consistent(variant, history))
    movements = [p for p in history if p.phase.kind is PhaseKind.MOVEMENT]
    if final.result is None:
        assert len(movements) == 2 * 11 + 1  # Spring and Autumn orders of every cycle, and the next
        assert final.phase.year == variant.first_year + 11  # no cycle cap in Basic
    else:
        counts = centre_counts(variant, final)
        winner = final.result.removeprefix("Solo: ")
        assert counts[winner] >= 16 and all(n < counts[winner] for p, n in counts.items()
                                            if p != winner)  # S9 §3.1


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_s9_complete_random_game_with_play_runs_eleven_cycles(seed: int) -> None:
    variant = _variant("s9-complete")
    history = [lawspeaker.initial_position(variant)]
    final = play(variant, random.Random(seed), 12, check=consistent(variant, history),
                 drop_chance=0.1 * seed)
    check_result(variant, final)  # solo, all lose, or the draw after the 11th Census
