"""Whole random Dissolution games through the API, with the rules' invariants
checked after every phase: unit counts within ⌈VP/2⌉ after each Winter
(§4.2), nuclear units never dislodged and, but for the US Navy's fleets, never
moved (§3.7, §3.8, §8.5.3), at most one wing per player (§4.4), US fleets
never capturing (§4.6) nor entering the Deep Water System (§8.5.4)."""

from __future__ import annotations

import random

import pytest

from lawspeaker.core.board import Phase, PhaseKind, Position, Unit
from lawspeaker.core.geography import UnitType
from lawspeaker.core.orders import Build, EmbassyOrder
from lawspeaker.engine.adjustments import resolve_adjustments
from lawspeaker.engine.phases import Adjudication, adjudicate, initial_position
from lawspeaker.rules.favor import favor_board, value_of
from lawspeaker.rules.vp import emergent_sites, points, unit_allowance
from lawspeaker.sim.randomplay import play
from lawspeaker.variants import load_variant

DIS = load_variant("dissolution")
START = initial_position(DIS)
STATIONARY_NUCLEAR = frozenset(p for p, u in START.units.items()
                               if START.kind_of(u.power) == "nuclear" and u.stationary)
DEEP_WATER = frozenset(DIS.nuclear["US Navy"].barred)


class Invariants:
    """Checks every phase of one game; counts what it saw."""

    def __init__(self) -> None:
        self.phases = 0
        self.winters = 0
        self.wings_built = 0
        self.dp_phases = 0
        self.exiles: set[str] = set()
        self.kicks = self.violations = self.embassy_moves = 0

    def __call__(self, position: Position, adj: Adjudication) -> None:
        self.phases += 1
        units = position.units
        for prov in STATIONARY_NUCLEAR:  # §3.7, §3.8: never moved, never dislodged
            assert prov in units and position.kind_of(units[prov].power) == "nuclear", prov
        us = [u for u in units.values() if u.power == "US Navy"]
        assert len(us) == 2 and not {u.province for u in us} & DEEP_WATER  # §8.5.3, §8.5.4
        assert not any(position.kind_of(d.unit.power) == "nuclear" for d in adj.dislodged)
        assert "US Navy" not in position.owners.values()  # §4.6: never captures
        for power in DIS.powers:
            wings = [u for u in units.values() if u.power == power and u.type is UnitType.WING]
            assert len(wings) <= 1, (power, wings)  # §4.4
        if adj.phase.kind is PhaseKind.ADJUSTMENT or (
                adj.phase.season == "Autumn" and position.phase.season == "Spring"):
            # After the Winter (or a Winter with nothing to do): ⌈VP/2⌉ (§4.2)
            self.winters += 1
            for power in DIS.powers:
                have = len(position.units_of(power))
                assert have <= unit_allowance(DIS, position, power), (power, have)
        self.wings_built += sum(1 for r in adj.results if isinstance(r.order, Build)
                                and r.order.unit_type is UnitType.WING
                                and r.outcome.name == "SUCCEEDS")
        if adj.dp is not None:
            self.dp_phases += 1
        for exile in position.exiles:  # §5.3: an exile owns nothing
            assert exile not in position.owners.values()
            assert exile not in position.embassies  # §4.1: its Embassies are disbanded
        self.check_favor(position, adj)
        self.exiles |= position.exiles


    def check_favor(self, position: Position, adj: Adjudication) -> None:
        """§11: five Embassies per surviving player, one per hex, values 0-5, none
        outside its slice; kicks only ever lower a value."""
        board = favor_board(DIS)
        taken: set[str] = set()
        for player, mine in position.embassies.items():
            assert player not in position.exiles
            assert sorted(mine) == sorted(DIS.nuclear), (player, mine)
            for nuclear, space in mine.items():
                assert board.is_space(space) and board.nuclear_of(space) == nuclear
                assert 0 <= value_of(space) <= 5
                if value_of(space):
                    assert space not in taken, space
                    taken.add(space)
        self.kicks += sum(1 for e in adj.events if "is kicked" in e)
        self.violations += len(adj.violations)
        self.embassy_moves += sum(1 for r in adj.results if isinstance(r.order, EmbassyOrder)
                                  and r.outcome.name == "SUCCEEDS" and r.order.action == "-")


@pytest.mark.parametrize("seed", range(6))
def test_twenty_random_years_keep_the_invariants(seed: int) -> None:
    check = Invariants()
    end = play(DIS, random.Random(seed), 20, check=check)
    assert end.result is not None or end.phase.year == 2012
    assert check.phases >= 40 and check.dp_phases >= 20
    assert check.winters >= 1
    assert check.embassy_moves > 0  # §11.5: Winter orders were played


def test_random_games_exile_players() -> None:
    """Across seeds the random games reach Players in Exile (§2.1.5, §5.3), who
    then allocate their 1 DP, so the invariants above are exercised on them.
    (Wing builds need 12 VP, which random play seldom reaches: the wing rules
    have their own test below.)"""
    exiles = 0
    for seed in range(6, 10):
        check = Invariants()
        play(DIS, random.Random(seed), 20, check=check)
        exiles += len(check.exiles)
    assert exiles > 0


def _winter(units: list[Unit], owners: dict[str, str], built_in: dict | None = None) -> Position:
    powers = dict(START.powers_in_play)
    return Position.from_units("dissolution", Phase("Winter", 1992, PhaseKind.ADJUSTMENT),
                               units, owners, powers_in_play=powers, built_in=built_in or {},
                               favor=DIS.favor)


def test_emergent_builds_grow_from_home_and_from_where_one_built() -> None:
    """§4.3: home centres, centres bordering one, and centres bordering a centre
    built in before; the history is kept in the position and survives JSON."""
    sites = emergent_sites(DIS, START, "Saudi Arabia")
    assert {"dmm", "mec", "riy"} <= sites
    assert "irq" in sites or "kuw" not in sites  # Iraq borders Saudi homes or not: both fine
    far = sorted(p for p, v in DIS.map.provinces.items() if v.is_sc and p not in sites)[0]
    assert far not in sites
    owners = {**START.owners, far: "Saudi Arabia"}
    position = _winter([Unit("Saudi Arabia", UnitType.ARMY, "riy")], owners)
    result = resolve_adjustments(DIS, position, [Build("Saudi Arabia", UnitType.ARMY, far)])
    assert result.results[0].outcome.name == "ILLEGAL"
    assert "Dissolution §4.3" in result.results[0].reason
    neighbour = next(n for n in sorted(DIS.map.touching(far)) if DIS.map.provinces[n].is_sc)
    grown = position.replace(built_in={"Saudi Arabia": [neighbour]})
    assert far in emergent_sites(DIS, grown, "Saudi Arabia")
    assert Position.from_json(grown.to_json()).built_in == {"Saudi Arabia": (neighbour,)}


def test_a_build_is_recorded_for_emergent_builds() -> None:
    owners = {p: o for p, o in START.owners.items()}
    position = _winter([Unit("Egypt", UnitType.ARMY, "alx")], owners)
    adj = adjudicate(DIS, position, [Build("Egypt", UnitType.ARMY, "cai")])
    assert adj.position.built_in == {"Egypt": ("cai",)}


def test_wings_need_12_vp_and_only_one_at_a_time() -> None:
    """§4.4: a wing needs 12 VP; a second wing is refused; below 12 VP a wing is kept."""
    egypt = {"alx", "asw", "cai", "sue"}  # 5 VP
    position = _winter([Unit("Egypt", UnitType.ARMY, "alx")],
                       {**{c: "Egypt" for c in egypt}})
    refused = resolve_adjustments(DIS, position, [Build("Egypt", UnitType.WING, "cai")])
    assert refused.results[0].outcome.name == "ILLEGAL"
    assert "12 VP" in refused.results[0].reason
    rich = {p: "Egypt" for p, v in DIS.map.provinces.items() if v.is_sc}
    assert points(DIS, position.replace(owners=rich), "Egypt") >= 12
    built = resolve_adjustments(DIS, position.replace(owners=rich),
                                [Build("Egypt", UnitType.WING, "cai"),
                                 Build("Egypt", UnitType.WING, "sue")])
    assert [r.outcome.name for r in built.results[:2]] == ["SUCCEEDS", "ILLEGAL"]
    assert built.units["cai"].stationary and built.units["cai"].type is UnitType.WING
    # Below 12 VP, the wing it has is kept when the unit count allows (5 VP: 3 units).
    kept = _winter([Unit("Egypt", UnitType.WING, "asw", stationary=True),
                    Unit("Egypt", UnitType.ARMY, "alx")], {c: "Egypt" for c in egypt})
    assert resolve_adjustments(DIS, kept, []).units["asw"].type is UnitType.WING


def test_us_navy_occupation_to_zero_vp_disbands_but_does_not_eliminate() -> None:
    """§4.6.2: a player whose only centre a US fleet occupies has 0 VP, is not
    eliminated, and disbands every unit; the centre stays its own (§4.6)."""
    owners = {**START.owners, "bgd": "Romania"}  # Yugoslavia keeps only Podgorica
    units = [u for u in START.units.values()
             if u.power not in ("Yugoslavia", "US Navy") and u.province != "kos"]
    units += [Unit("Yugoslavia", UnitType.ARMY, "kos"), Unit("US Navy", UnitType.FLEET, "pod"),
              Unit("US Navy", UnitType.FLEET, "kuw")]
    position = Position.from_units("dissolution", Phase("Autumn", 1992, PhaseKind.MOVEMENT),
                                   units, owners, powers_in_play=START.powers_in_play,
                                   favor=DIS.favor)
    adj = adjudicate(DIS, position, [])
    after = adj.position
    assert after.owners["pod"] == "Yugoslavia"  # US fleets never capture
    assert "Yugoslavia" not in after.exiles
    assert any("0 VP" in e and "Dissolution §4.6.2" in e for e in adj.events)
    assert after.phase.kind is PhaseKind.ADJUSTMENT
    done = adjudicate(DIS, after, [])
    assert not done.position.units_of("Yugoslavia")
    assert done.position.owners["pod"] == "Yugoslavia"


def test_victory_needs_27_vp_and_strictly_the_most() -> None:
    """§1.5: 27 VP and no tie for the most; victory_centres=25 is the §4.2 reading."""
    provinces = DIS.map.provinces
    free = [p for p, v in sorted(provinces.items())
            if v.is_sc and START.owners.get(p) != "Egypt"]
    ones = [p for p in free if provinces[p].sc_value == 1]
    twos = [p for p in free if provinces[p].sc_value == 2]
    mine, total = [], 5  # Egypt's homes
    while total < 24:
        mine.append(twos.pop())
        total += 2
    while total < 26:
        mine.append(ones.pop())
        total += 1
    owners = {**START.owners, **{c: "Egypt" for c in mine}}
    units = [u for u in START.units.values() if u.province not in mine]
    position = Position.from_units("dissolution", Phase("Autumn", 1995, PhaseKind.MOVEMENT),
                                   units, owners, powers_in_play=START.powers_in_play,
                                   favor=DIS.favor)
    assert points(DIS, position, "Egypt") == 26
    assert adjudicate(DIS, position, []).position.result is None
    lower = adjudicate(DIS, position, [], DIS.rules.with_options(victory_centres=25))
    assert lower.position.result == "Solo: Egypt"
    one_more = position.replace(owners={**position.owners, ones[0]: "Egypt"},
                                units={p: u for p, u in position.units.items() if p != ones[0]})
    assert points(DIS, one_more, "Egypt") == 27
    assert adjudicate(DIS, one_more, []).position.result == "Solo: Egypt"


def test_random_games_kick_embassies() -> None:
    # §11.6-§11.7: over a few random games, some players commit violations and are kicked.
    check = Invariants()
    for seed in range(3):
        play(DIS, random.Random(100 + seed), 10, check=check)
    assert check.violations > 0 and check.kicks > 0
