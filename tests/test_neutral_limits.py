"""Limits on neutral units' orders (Dissolution §9, §8.5.4) and the DP allotment (§5.2)."""

from __future__ import annotations

from lawspeaker.core.board import Unit
from lawspeaker.core.geography import UnitType
from lawspeaker.core.orders import Hold, Move, SupportHold, SupportMove
from lawspeaker.engine.phases import initial_position
from lawspeaker.rules.dp import allotment
from lawspeaker.rules.neutral_limits import default_order, order_problem
from lawspeaker.variants import load_variant

DIS = load_variant("dissolution")
START = initial_position(DIS)
A, F = UnitType.ARMY, UnitType.FLEET


def test_paired_minors_keep_cohesion_and_support_each_other_by_default() -> None:
    """§9.2.1: neither Czechoslovak army attacks the other; each supports the other to hold."""
    attack = Move("Czechoslovakia", A, "bra", "pra")
    assert "Cohesion" in (order_problem(DIS, START, attack) or "")
    bra = START.units["bra"]
    assert default_order(DIS, START, bra) == SupportHold("Czechoslovakia", A, "bra", None, "pra")
    alone = START.replace(units={p: u for p, u in START.units.items() if p != "pra"})
    assert default_order(DIS, alone, bra) == Hold("Czechoslovakia", A, "bra")  # §3.5.3


def test_us_navy_spares_nato_and_stays_out_of_the_deep_water_system() -> None:
    """§9.2.3: no Cohesion for the US fleets, but never against NATO or Israel; §8.5.4."""
    units = {**START.units, "bla": Unit("US Navy", F, "bla")}
    position = START.replace(units=units)
    assert order_problem(DIS, position, Move("US Navy", F, "kuw", "per")) is None
    at_aegean = START.replace(units={**START.units, "aeg": Unit("US Navy", F, "aeg")})
    spared = order_problem(DIS, at_aegean, Move("US Navy", F, "aeg", "izm"))  # NATO's F Izm
    assert "never acts against NATO" in (spared or "")
    helping = SupportMove("US Navy", F, "aeg", A, "ath", "izm")
    assert "never acts against NATO" in (order_problem(DIS, at_aegean, helping) or "")
    into_ast = Move("US Navy", F, "cas", "ast")
    at_caspian = START.replace(units={**START.units, "cas": Unit("US Navy", F, "cas")})
    assert "§8.5.4" in (order_problem(DIS, at_caspian, into_ast) or "")


def test_allotment_counts_units_to_four_plus_oil_at_least_one() -> None:
    """§5.2: Egypt 3 units, no oil: 3; Saudi Arabia 2 units + oil: 3; an exile 1 (§5.3)."""
    assert allotment(DIS, START, "Egypt") == 3
    assert allotment(DIS, START, "Saudi Arabia") == 3
    assert allotment(DIS, START, "Yugoslavia") == 2
    nobody = START.replace(units={p: u for p, u in START.units.items() if u.power != "Poland"})
    assert allotment(DIS, nobody, "Poland") == 1
    assert allotment(DIS, START.replace(exiles={"Poland"}), "Poland") == 1
