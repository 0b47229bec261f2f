"""Dissolution §11.4-§11.7 played through the engine: the rulebook's examples of
violations and kicks, Winter orders and retreats, Nuclear Retaliation."""

from __future__ import annotations

from collections.abc import Mapping

import lawspeaker
from lawspeaker.core.board import Phase, PhaseKind, Position, Unit
from lawspeaker.core.geography import UnitType
from lawspeaker.core.notation import parse_order
from lawspeaker.core.results import Outcome
from lawspeaker.engine.phases import Adjudication, adjudicate, initial_position
from lawspeaker.engine.retreats import retreat_options
from lawspeaker.rules.dp import parse_allocation
from lawspeaker.rules.favor import named_setup

VARIANT = lawspeaker.load_variant("dissolution")
START = initial_position(VARIANT)


def _play(position: Position, orders: Mapping[str, list[str]],
          dp: Mapping[str, list[str]] | None = None) -> Adjudication:
    parsed = [parse_order(VARIANT.map, text, power, position.phase.kind)
              for power, texts in orders.items() for text in texts]
    allocations = [parse_allocation(VARIANT.map, text, power)
                   for power, texts in (dp or {}).items() for text in texts]
    return adjudicate(VARIANT, position, parsed, allocations=allocations)


def _moved(position: Position, *units: Unit) -> Position:
    here = dict(position.units)
    for unit in units:
        here = {p: u for p, u in here.items() if not (u.power == unit.power and p == unit.location)
                or p == unit.location}
        here[unit.location] = unit
    return position.replace(units=here)


def test_ex_11_6_1_1_ukraine_disables_moscow_and_is_kicked() -> None:
    # Ukraine's A Khk attacks Moscow with Belarus's DP-bought support: Moscow is disabled.
    step = _play(START, {"Ukraine": ["A Khk - Mos"]},
                 {"Egypt": ["1 DP to A Blr S Khk - Mos"]})
    assert [(v.player, v.nuclear) for v in step.violations] == [("Ukraine", "Russia")]
    assert "disabled Russia's A Mos (Dissolution §11.6.1)" in step.violations[0].cause
    before = START.embassies["Ukraine"]["Russia"]
    after = step.position.embassies["Ukraine"]["Russia"]
    assert int(after[1]) < int(before[1])
    assert any(e.startswith(f"UK E {before} - {after}") for e in step.events)
    assert step.position.kicked == {"Ukraine": ("Russia",)}


def test_ex_11_6_1_2_an_attack_that_bounces_is_no_violation() -> None:
    step = _play(START, {"Pakistan": ["A Isl - Del"]})
    assert step.violations == ()
    assert step.position.embassies == START.embassies


def test_ex_11_6_2_1_and_2_attacks_from_russian_territory() -> None:
    # Kazakhstan's army in Astrakhan attacks the Russian wing in Krasnodar: one kick;
    # with a Ukrainian fleet's support it also disables it: two kicks, none for Ukraine.
    here = _moved(START, Unit("Kazakhstan", UnitType.ARMY, "ast"),
                  Unit("Ukraine", UnitType.FLEET, "bla"))
    here = here.replace(units={p: u for p, u in here.units.items() if p != "sev"})
    alone = _play(here, {"Kazakhstan": ["A Ast - Kra"]})
    assert [(v.player, v.nuclear) for v in alone.violations] == [("Kazakhstan", "Russia")]
    assert "§11.6.2" in alone.violations[0].cause
    both = _play(here, {"Kazakhstan": ["A Ast - Kra"], "Ukraine": ["F Bla S A Ast - Kra"]})
    assert sorted((v.player, v.nuclear) for v in both.violations) == [
        ("Kazakhstan", "Russia"), ("Kazakhstan", "Russia")]
    assert both.position.kicked == {"Kazakhstan": ("Russia", "Russia")}


def test_ex_11_6_3_1_cut_nato_support_is_still_permission() -> None:
    step = _play(START, {"Saudi Arabia": ["A Riy - Irq", "A Dmm S A Riy - Irq"]},
                 {"Saudi Arabia": ["1 DP to W Inc S Riy - Irq"],
                  "Egypt": ["1 DP to A Syr - Inc"]})
    assert "irq" in {d.unit.province for d in step.dislodged}
    assert step.violations == ()


def test_ex_11_6_3_2_wrong_nato_support_kicks_nato_and_the_us_navy() -> None:
    step = _play(START, {"Saudi Arabia": ["A Riy - Irq", "A Dmm S A Riy - Irq"]},
                 {"Saudi Arabia": ["1 DP to W Inc S Dmm - Irq"]})
    assert [(v.player, v.nuclear) for v in step.violations] == [("Saudi Arabia", "NATO")]
    assert step.position.kicked == {"Saudi Arabia": ("NATO", "US Navy")}  # §11.6.4


def test_ex_11_6_4_1_us_support_counts_as_nato_permission() -> None:
    step = _play(START, {"Saudi Arabia": ["A Riy - Irq", "A Dmm S A Riy - Irq"]},
                 {"Saudi Arabia": ["1 DP to W Inc S Dmm - Irq", "1 DP to F Kuw S Riy - Irq"]})
    assert step.violations == ()


def _winter(embassies: Mapping[str, Mapping[str, str]] | None = None,
            **changes: object) -> Position:
    return START.replace(phase=Phase("Winter", 1992, PhaseKind.ADJUSTMENT),
                         embassies=embassies or named_setup(VARIANT, "legacy"), **changes)


def test_ex_11_7_4_6_winter_orders_and_the_iranian_retreat() -> None:
    orders = {"Egypt": ["E B1q - B2n"], "Ethiopia": ["E B2j - B2k"], "Iran": ["E B2n - B3f"],
              "Kazakhstan": ["E B1p - B2o"], "Pakistan": ["E B0z H"],
              "Poland": ["E B1r - B2m"], "Romania": ["E B2m - B3h"], "Saudi Arabia": ["E B1u H"],
              "Ukraine": ["E B1s - B2m"], "Yugoslavia": ["E B3f S B1q - B2n"]}
    step = _play(_winter(), orders)
    said = {str(r.order): r.reason for r in step.results}
    assert said["E B2n - B3f"] == "Bounced 1v1; Dislodged by E B1q (2v1)"
    assert said["E B1r - B2m"] == "Bounced 1v1"
    india = {p: e["India"] for p, e in step.position.embassies.items()}
    assert india == {"Egypt": "B2n", "Ethiopia": "B2k", "Iran": "B1p", "Kazakhstan": "B2o",
                     "Pakistan": "B0z", "Poland": "B1r", "Romania": "B3h",
                     "Saudi Arabia": "B1u", "Ukraine": "B1s", "Yugoslavia": "B3f"}
    assert "IR E B2n - B1p: Iran's Embassy retreats (Dissolution §11.7.3)" in step.events


def test_ex_11_7_4_5_romania_retreats_to_i2n() -> None:
    step = _play(_winter(), {"Kazakhstan": ["E I1p - I2o"], "Poland": ["E I1q S I1p - I2o"]})
    assert step.position.embassies["Kazakhstan"]["Israel"] == "I2o"
    assert step.position.embassies["Romania"]["Israel"] == "I2n"


def test_ex_11_5_2_1_and_2_supports_out_of_a_shared_perimeter_name_the_embassy() -> None:
    step = _play(_winter(), {"Kazakhstan": ["E I1p S I0z - I1q", "E B1p S PA I0z - I1u"],
                             "Iran": ["E N1u S U0z - U1p"]})
    outcome = {str(r.order): r.outcome for r in step.results}
    assert outcome["E I1p S I0z - I1q"] is Outcome.ILLEGAL
    assert outcome["E N1u S U0z - U1p"] is Outcome.ILLEGAL
    assert outcome["E B1p S PA I0z - I1u"] is not Outcome.ILLEGAL
    named = _play(_winter(), {"Iran": ["E N1u S IR U0z - U1p", "E U0z - U1t"]})
    assert {str(r.order): r.outcome for r in named.results}["E U0z - U1t"] is Outcome.SUCCEEDS


def test_winter_moves_stay_in_the_slice_and_are_limited() -> None:
    # §11.5.1: no move out of the slice; §11.5.4: three moves, two after a kick.
    orders = {"Romania": ["E I2o - I3f", "E B2m - B3h", "E N1s - N2m", "E R1u - R2j"]}
    step = _play(_winter(), orders)
    outcome = {str(r.order): r.outcome for r in step.results}
    assert outcome["E R1u - R2j"] is Outcome.ILLEGAL
    kicked = _play(_winter(kicked={"Romania": ("NATO",)}), orders)
    outcome = {str(r.order): (r.outcome, r.reason) for r in kicked.results}
    assert outcome["E N1s - N2m"][0] is Outcome.ILLEGAL  # kicked: must hold (§11.5.3)
    assert outcome["E I2o - I3f"][0] is not Outcome.ILLEGAL
    across = _play(_winter(), {"Iran": ["E N1u - U1p"]})
    assert across.results[0].outcome is Outcome.ILLEGAL


def test_zero_favor_bars_retreats_and_brings_retaliation() -> None:
    # §11.4.2: Yugoslavia has zero Favor with NATO; its army in Athens (NATO territory)
    # is destroyed in the Spring retreats, and may not retreat into NATO territory.
    here = _moved(START, Unit("Yugoslavia", UnitType.ARMY, "ath"))
    here = here.replace(units={p: u for p, u in here.units.items()
                               if not (p == "ath" and u.power == "NATO")})
    step = _play(here, {})
    assert "ath" not in step.position.units
    assert any("Nuclear Retaliation: NATO destroys Yugoslavia's A Ath" in e for e in step.events)
    assert step.position.retaliated == {"Yugoslavia": ("NATO",)}


def test_retreat_options_leave_out_zero_favor_territory() -> None:
    from lawspeaker.core.board import Dislodged
    unit = Unit("Yugoslavia", UnitType.ARMY, "mac")
    here = START.replace(phase=Phase("Spring", 1992, PhaseKind.RETREAT))
    options = retreat_options(VARIANT, here, Dislodged(unit, None))
    territory = set(VARIANT.nuclear["NATO"].territories)
    assert not territory & set(options)
