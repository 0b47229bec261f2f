"""Diplomacy Points, minor powers and stationary units (S9 §7.2, §9.0-§9.2).

These tests use the standard map with the minor-power and DP components
switched on (every neutral centre gets a stationary minor unit), so the
geometry is the well-known one; the S9 map itself is tested elsewhere.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import lawspeaker
from lawspeaker import PhaseKind, Position, Unit, UnitType
from lawspeaker.core.board import Phase, PowerState
from lawspeaker.core.results import Outcome
from lawspeaker.engine.phases import adjudicate, initial_position
from lawspeaker.rules.dp import DPError, allotment, parse_allocation, resolve_allocations
from lawspeaker.variants import VARIANTS_DIR

STANDARD_MAP = VARIANTS_DIR / "standard" / "map.yaml"
NEUTRAL = {"bel": "F", "bul": "A", "den": "F", "gre": "F", "hol": "F", "nwy": "F", "por": "F",
           "rum": "F", "ser": "A", "spa": "A", "swe": "F", "tun": "F"}


@pytest.fixture(scope="module")
def variant(tmp_path_factory: pytest.TempPathFactory) -> lawspeaker.Variant:
    folder: Path = tmp_path_factory.mktemp("dpstandard")
    standard = (VARIANTS_DIR / "standard" / "variant.yaml").read_text(encoding="utf-8")
    standard = standard.replace("map: map.yaml", f"map: {STANDARD_MAP}")
    minors = "\n".join(f"  {p}: {t}" for p, t in NEUTRAL.items())
    text = standard + f"\ncomponents: [minor_powers, diplomacy_points]\nminors:\n{minors}\n"
    (folder / "variant.yaml").write_text(text.replace("name: standard", "name: dpstandard"),
                                         encoding="utf-8")
    return lawspeaker.load_variant(folder)


def position(variant: lawspeaker.Variant, *units: str, minors: tuple[str, ...] = ()) -> Position:
    """Majors' units as 'England: F nth'; minors as province keys with their start type."""
    built = []
    for text in units:
        power, unit = text.split(": ")
        utype, loc = unit.split()
        built.append(Unit(power, UnitType(utype), loc))
    powers = {}
    owners = {h: p.name for p in variant.powers.values() for h in p.homes}
    for prov in minors:
        name = variant.map.provinces[prov].name
        built.append(Unit(name, UnitType(NEUTRAL[prov]), prov, stationary=True))
        powers[name] = PowerState("minor")
        owners[prov] = name
    return Position.from_units(variant.name, Phase("Spring", 1901, PhaseKind.MOVEMENT), built,
                               owners, powers_in_play=powers)


def allocate(variant: lawspeaker.Variant, power: str, text: str) -> lawspeaker.rules.dp.Allocation:
    return parse_allocation(variant.map, text, power)


def chosen(variant, pos, orders, *allocations):  # type: ignore[no-untyped-def]
    return resolve_allocations(variant, pos, orders, allocations)


def test_game_starts_with_a_stationary_minor_unit_in_every_neutral_centre(variant) -> None:
    """S9 §9.0: every neutral SC begins with a minor power's unit, stationary (§7.2)."""
    start = initial_position(variant)
    minors = [u for u in start.units.values() if start.kind_of(u.power) == "minor"]
    assert sorted(u.province for u in minors) == sorted(NEUTRAL)
    assert all(u.stationary for u in minors)
    assert start.owners["bel"] == "Belgium" and start.kind_of("Belgium") == "minor"


def test_allotment_is_one_dp_for_holding_the_capital(variant) -> None:
    """S9 §9.2: +1 DP for controlling the capital (heirs come later)."""
    start = initial_position(variant)
    assert allotment(variant, start, "France") == 1
    lost = start.replace(owners={**start.owners, "par": "Germany"})
    assert allotment(variant, lost, "France") == 0


def test_order_with_most_dp_wins(variant) -> None:
    """Common Ruleset, quoted in S9 §9.0: the order with the most DP is given."""
    pos = position(variant, "France: A par", "England: A lon", "Germany: A ruh", minors=("bel",))
    pos = pos.replace(owners={**pos.owners}, powers_in_play=pos.powers_in_play)
    france = allocate(variant, "France", "1 DP to F bel - pic")
    england = allocate(variant, "England", "1 DP to F bel - nth")
    germany = allocate(variant, "Germany", "1 DP to F bel - nth")
    result = chosen(variant, pos, [], france, england, germany)
    assert str(result.orders["bel"]) == "F bel - nth"


def test_tie_gives_hold(variant) -> None:
    """S9 §9.0: a tie, or no DP, gives the default order, Hold."""
    pos = position(variant, "France: A par", "England: A lon", minors=("bel", "hol"))
    result = chosen(variant, pos, [], allocate(variant, "France", "1 DP to F bel - pic"),
                    allocate(variant, "England", "1 DP to F bel - nth"))
    assert str(result.orders["bel"]) == "F bel H"
    assert str(result.orders["hol"]) == "F hol H"  # no DP at all


def test_same_order_written_differently_is_one_proposal(variant) -> None:
    """Votes for the same order add up however it is written (DATC 4.C.2: types ignored)."""
    pos = position(variant, "France: A par", "England: A lon", "Germany: A ruh", minors=("bel",))
    result = chosen(variant, pos, [],
                    allocate(variant, "France", "1 DP to F Belgium S A Ruhr - Holland"),
                    allocate(variant, "England", "1 DP to bel S ruh - hol"),
                    allocate(variant, "Germany", "1 DP to F bel - nth"))
    assert str(result.orders["bel"]) == "F bel S ruh - hol"


def test_dp_on_an_illegal_order_is_ignored(variant) -> None:
    """S9 issue rule 5: DP on an illegal order are ignored, so the legal one wins."""
    pos = position(variant, "France: A par", "England: A lon", minors=("bel",))
    bad = [allocate(variant, p, "1 DP to F bel - mun") for p in ("France", "Germany")]
    good = allocate(variant, "England", "1 DP to F bel - nth")
    result = chosen(variant, pos, [], *bad, good)
    assert str(result.orders["bel"]) == "F bel - nth"
    assert [why.split(":")[0] for a, why in result.rejected] == ["Ignored", "Ignored"]


def test_attacking_and_allocating_rule(variant) -> None:
    """S9 §9.0: a player attacking a minor power may not allocate DP to it that turn."""
    pos = position(variant, "France: A pic", "England: A lon", minors=("bel",))
    attack = lawspeaker.parse_order(variant.map, "A pic - bel", "France")
    result = chosen(variant, pos, [attack], allocate(variant, "France", "1 DP to F bel - nth"))
    assert str(result.orders["bel"]) == "F bel H"
    (_, why), = result.rejected
    assert "Attacking & Allocating rule (S9 §9.0)" in why


def test_supporting_an_attack_on_a_minor_also_bars_allocating(variant) -> None:
    """S9 §9.0: '...or supporting an attack on...' a minor power."""
    pos = position(variant, "France: A pic", "France: A bur", minors=("bel",))
    support = lawspeaker.parse_order(variant.map, "A bur S A pic - bel", "France")
    result = chosen(variant, pos, [support], allocate(variant, "France", "1 DP to F bel H"))
    assert "Attacking & Allocating" in result.rejected[0][1]


def test_allocations_beyond_the_allotment_are_rejected(variant) -> None:
    """S9 §9.2: a power may not spend more DP than it has."""
    pos = position(variant, "France: A par", minors=("bel",))
    result = chosen(variant, pos, [], allocate(variant, "France", "2 DP to F bel - pic"))
    assert "DP allotment exceeded (S9 §9.2)" in result.rejected[0][1]
    assert str(result.orders["bel"]) == "F bel H"


def test_sortie_always_bounces_and_cannot_dislodge(variant) -> None:
    """S9 §7.2: a stationary unit's move is a sortie; it never moves."""
    pos = position(variant, "France: A pic", minors=("bel",))
    step = adjudicate(variant, pos, [], None,
                      [allocate(variant, "England", "1 DP to F bel - pic")])
    assert step.position.units["bel"].stationary
    assert "pic" in step.position.units and step.position.units["pic"].power == "France"
    sortie = next(r for r in step.results if r.order.province == "bel")
    assert sortie.outcome is Outcome.FAILS and sortie.reason.startswith("Sortie")


def test_sortie_cuts_support(variant) -> None:
    """S9 §7.2: a sortie can cut an adjacent unit's support."""
    pos = position(variant, "France: A ruh", "Germany: A kie", "Germany: A hol", minors=("bel",))
    orders = [lawspeaker.parse_order(variant.map, t, p) for p, t in (
        ("Germany", "A kie - ruh"), ("Germany", "A hol S A kie - ruh"), ("France", "A ruh H"))]
    step = adjudicate(variant, pos, orders, None,
                      [allocate(variant, "England", "1 DP to F bel - hol")])
    cut = next(r for r in step.results if r.order.province == "hol")
    assert cut.outcome is Outcome.FAILS and cut.reason == "Cut by F Bel"
    assert step.position.units["ruh"].power == "France"  # 1v1: the attack bounced


def test_sortie_protects_an_empty_space(variant) -> None:
    """S9 §7.2: a sortie into an empty province bounces an invader there."""
    pos2 = position(variant, "France: A bur", minors=("bel",))
    invade = [lawspeaker.parse_order(variant.map, "A bur - pic", "France")]
    step2 = adjudicate(variant, pos2, invade, None,
                       [allocate(variant, "Germany", "1 DP to F bel - pic")])
    assert "pic" not in step2.position.units and step2.position.units["bur"].power == "France"


def test_dislodged_stationary_unit_is_destroyed_and_no_retreat_phase_is_held(
        variant) -> None:
    """S9 §7.2: stationary units cannot retreat, so when only they are
    dislodged there is nothing to order and the retreat phase is skipped."""
    pos = position(variant, "France: A pic", "France: A bur", "Germany: A ruh",
                   minors=("bel", "hol"))
    orders = [lawspeaker.parse_order(variant.map, t, "France") for t in
              ("A pic - bel", "A bur S A pic - bel")]
    step = adjudicate(variant, pos, orders, None,
                      [allocate(variant, "Germany", "1 DP to F hol - kie")])
    assert [(d.unit.power, d.unit.location) for d in step.dislodged] == [("Belgium", "bel")]
    after = step.position
    assert after.phase == lawspeaker.Phase("Fall", 1901, PhaseKind.MOVEMENT)
    assert not after.dislodged and after.units["bel"].power == "France"


def test_minor_rebuilds_its_starting_unit_in_a_vacant_owned_centre(variant) -> None:
    """S9 §8.4: a minor entering Winter with its centre vacant and still owned rebuilds."""
    pos = position(variant, "France: A par", minors=("bel",))
    winter = Position.from_units(variant.name, Phase("Winter", 1901, PhaseKind.ADJUSTMENT),
                                 [pos.units["par"]], {**pos.owners, "bel": "Belgium"},
                                 powers_in_play=pos.powers_in_play)
    step = adjudicate(variant, winter, [])
    assert step.position.units["bel"] == Unit("Belgium", UnitType.FLEET, "bel", True)


def test_game_keeps_allocations_secret(variant) -> None:
    """S9 §9.0: allocations are seen only by their author and the GM."""
    game = lawspeaker.Game(variant)
    game.allocate("France", "1 DP to F bel - pic")
    game.allocate("England", "1 DP to F hol - nth")
    assert [a.power for a in game.allocations("France")] == ["France"]
    assert len(game.allocations()) == 2  # the GM
    result = game.process()
    assert str(result.dp.public()["bel"]) == "F bel - pic"
    assert not any("France" in str(o) for o in result.dp.public().values())
    with pytest.raises(PermissionError):
        game.revealed_allocations()


def test_game_rejects_a_bad_allocation_at_submission_naming_the_rule(variant) -> None:
    game = lawspeaker.Game(variant)
    game.order("France", "A par - bur")
    game.order("England", "F lon - nth")
    with pytest.raises(DPError, match=r"S9 §9\.2"):
        game.allocate("France", "2 DP to F bel - pic")
    game.order("France", "F bre - pic")
    with pytest.raises(DPError, match="no neutral unit"):
        game.allocate("France", "1 DP to F bre - eng")
    assert game.allocations("France") == []


@pytest.mark.parametrize("own_order,setting,counted", [
    # S9 §9.0 'attacks (or supports an attack on)': an illegal move is never carried out ...
    ("A par - bel", "legal", True),
    ("A par - bel", "any", False),
    # ... and a convoy carries the attack but neither makes nor supports it.
    ("F eng C A lon - bel", "legal", True),
    ("F eng C A lon - bel", "any", False),
    # A legal attack always counts.
    ("A bur - bel", "legal", False),
    ("A bur - bel", "any", False),
])
def test_attacking_and_allocating_rule_option(variant, own_order: str, setting: str,
                                              counted: bool) -> None:
    """Rules option attack_allocating (S9 §9.0): which of France's own orders
    stop it allocating DP to the minor power in Belgium."""
    pos = position(variant, "France: A par", "France: A bur", "France: F eng",
                   "England: A lon", minors=("bel",))
    orders = [lawspeaker.parse_order(variant.map, own_order, "France")]
    rules = variant.rules.with_options(attack_allocating=setting)
    dp = resolve_allocations(variant, pos, orders, [allocate(variant, "France", "1 DP to F bel H")],
                             rules)
    assert (dp.rejected == ()) == counted, dp.rejected
    if not counted:
        assert "Attacking & Allocating rule (S9 §9.0)" in dp.rejected[0][1]


def test_attack_allocating_option_names_its_values(variant) -> None:
    with pytest.raises(ValueError, match="attack_allocating: 'sometimes' is not allowed; "
                                         "attack_allocating takes one of legal, any"):
        variant.rules.with_options(attack_allocating="sometimes")


def test_allocations_pickle_and_copy_on_both_builds(variant) -> None:  # type: ignore[no-untyped-def]
    """Allocations cross process boundaries in simulations; the compiled build could not
    restore a frozen dataclass field by field (dp.py Allocation.__reduce__)."""
    import copy
    import pickle

    allocation = allocate(variant, "France", "2 DP to F bel S A hol - ruh")
    for again in (pickle.loads(pickle.dumps(allocation)), copy.deepcopy(allocation)):
        assert again == allocation and str(again) == str(allocation)
        assert again.order.province == "bel"
