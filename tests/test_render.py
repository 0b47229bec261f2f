"""Maps (lawspeaker.render): the SVG parses, every unit, centre, heir and
order of a position can be found by its element id, results are marked as
they came out, the S9 §1.1 colours of minors, thralls and vassals, the §4.4
link colours, determinism, and a valid PNG."""

from __future__ import annotations

import inspect
import random
import struct
import xml.etree.ElementTree as ET
from collections.abc import Iterator

import pytest

import lawspeaker
from lawspeaker import PhaseKind, Position, PowerState, Unit, UnitType
from lawspeaker.core.wording import for_players
from lawspeaker.engine.posts import read_post
from lawspeaker.render import Drawing, draw, order_ids
from lawspeaker.render.board import link_kinds
from lawspeaker.render.palette import LINK_COLOURS, MINOR_MARK, STYLE, TAN, ink_on
from lawspeaker.render.png import PNG_SIGNATURE
from lawspeaker.sim.randomplay import random_allocations, random_orders
from lawspeaker.sim.sample import sample_turn

SVG = "{http://www.w3.org/2000/svg}"
VARIANTS = ["standard", "s9-basic", "s9-complete", "ood"]


def parse(drawing: Drawing) -> dict[str, ET.Element]:
    root = ET.fromstring(drawing.svg())
    assert root.tag == f"{SVG}svg"
    ids = [e.get("id") for e in root.iter() if e.get("id")]
    assert len(ids) == len(set(ids)), "element ids must be unique"
    return {e.get("id"): e for e in root.iter() if e.get("id")}


def phases(variant: lawspeaker.Variant, seed: int, count: int
           ) -> Iterator[tuple[Position, tuple[lawspeaker.OrderResult, ...]]]:
    """Each phase of a seeded random game, with its public results."""
    rng = random.Random(seed)
    position = lawspeaker.initial_position(variant)
    for _ in range(count):
        if position.result:
            return
        orders = random_orders(variant, position, rng)
        allocations = random_allocations(variant, position, orders, rng) \
            if variant.uses("diplomacy_points") else []
        step = lawspeaker.adjudicate(variant, position, orders, variant.rules, allocations)
        yield position, step.results
        position = step.position


def read(variant: lawspeaker.Variant, *lines: str,
         kind: PhaseKind = PhaseKind.MOVEMENT) -> list[lawspeaker.Order]:
    """Orders from ``Power: order`` lines, as a player posts them."""
    posted = read_post(variant, "\n".join(lines).encode(), kind)
    assert not [p.error for p in posted if p.error]
    return [p.order for p in posted if p.order is not None]


def strokes(element: ET.Element) -> set[str]:
    return {e.get("stroke") for e in element.iter() if e.get("stroke")}


@pytest.mark.parametrize("name", VARIANTS)
def test_every_unit_centre_heir_and_order_has_an_element(name: str) -> None:
    variant = lawspeaker.load_variant(name)
    position, results = sample_turn(variant, seed=3, phases=7)
    assert results, "the sample turn has orders"
    found = parse(draw(variant, position, results=results))
    for province in position.units:
        assert f"unit-{province}" in found
    for key, prov in variant.map.provinces.items():
        assert (f"sc-{key}" in found) == prov.is_sc
        assert f"province-{key}" in found and f"label-{key}" in found
    for key, owner in position.owners.items():
        assert found[f"sc-{key}"].get("data-owner") == owner
    for heir in position.heirs:
        assert any(i.startswith(f"heir-{heir.location}-") for i in found)
    ids = order_ids(r.order for r in results)
    for element_id, result in zip(ids, results, strict=True):
        group = found[element_id]
        assert group.get("data-outcome") == result.outcome.value
        assert group.get("data-power") == result.order.power
        title = group.find(f"{SVG}title")
        reason = for_players(variant.map, result.reason)  # names, never keys (issue 17)
        assert title is not None and reason in (title.text or "")
        assert "'F gla" not in (title.text or "") and "'A ida" not in (title.text or "")
    for power in variant.powers:
        assert any(i.startswith("legend-") and found[i].find(f"{SVG}text") is not None
                   and power in "".join(t.text or "" for t in found[i].iter(f"{SVG}text"))
                   for i in found)


def test_failed_moves_cut_supports_and_dislodged_units_are_marked() -> None:
    variant = lawspeaker.load_variant("standard")
    position = lawspeaker.initial_position(variant).replace(units={
        u.province: u for u in [
            Unit("Germany", UnitType.ARMY, "mun"), Unit("Germany", UnitType.ARMY, "ber"),
            Unit("France", UnitType.ARMY, "bur"), Unit("Austria", UnitType.ARMY, "tyr"),
            Unit("Austria", UnitType.ARMY, "boh"), Unit("Italy", UnitType.ARMY, "ven"),
        ]})
    orders = read(variant, "Germany: A mun - bur", "Germany: A ber - kie", "France: A bur H",
                  "Austria: A tyr S A boh - mun", "Austria: A boh - mun", "Italy: A ven - tyr")
    results = lawspeaker.adjudicate(variant, position, orders).results
    by_province = {r.order.province: r for r in results}
    found = parse(draw(variant, position, results=results))
    fails = STYLE.fails
    assert by_province["mun"].outcome is lawspeaker.Outcome.FAILS  # bounced in Burgundy
    assert fails in strokes(found["order-mun"])
    assert by_province["ber"].succeeded and fails not in strokes(found["order-ber"])
    assert by_province["tyr"].outcome is lawspeaker.Outcome.FAILS  # cut by Venice
    assert fails in strokes(found["order-tyr"])
    assert by_province["mun"].dislodged is False
    assert by_province["boh"].outcome is lawspeaker.Outcome.FAILS


def test_dislodged_unit_gets_a_red_ring_and_retreats_are_drawn() -> None:
    variant = lawspeaker.load_variant("standard")
    position = lawspeaker.initial_position(variant).replace(units={
        u.province: u for u in [
            Unit("Germany", UnitType.ARMY, "mun"), Unit("Germany", UnitType.ARMY, "ruh"),
            Unit("France", UnitType.ARMY, "bur")]})
    orders = read(variant, "Germany: A mun - bur", "Germany: A ruh S A mun - bur",
                  "France: A bur H")
    step = lawspeaker.adjudicate(variant, position, orders)
    found = parse(draw(variant, position, results=step.results))
    assert "dislodged" in (found["order-bur"].get("class") or "")
    assert any("dislodged-mark" in (e.get("class") or "") for e in found["order-bur"].iter())
    assert "dislodged" not in (found["order-mun"].get("class") or "")
    retreat_phase = step.position
    assert retreat_phase.phase.kind is PhaseKind.RETREAT
    retreat = read(variant, "France: A bur R par", kind=PhaseKind.RETREAT)
    after = lawspeaker.adjudicate(variant, retreat_phase, retreat)
    found = parse(draw(variant, retreat_phase, results=after.results))
    assert "dislodged-bur" in found and "unit-bur" in found  # the victor and the retreating unit
    assert found["dislodged-bur"].get("data-power") == "France"
    assert found["order-bur"].get("data-outcome") == "succeeds"
    assert any(e.tag == f"{SVG}path" for e in found["order-bur"].iter())  # the retreat arrow


def test_builds_and_removals_in_an_adjustment_phase() -> None:
    variant = lawspeaker.load_variant("standard")
    start = lawspeaker.initial_position(variant)
    winter = start.replace(phase=lawspeaker.Phase("Winter", 1901, PhaseKind.ADJUSTMENT),
                           owners={**start.owners, "bel": "England"},
                           units={k: u for k, u in start.units.items() if k != "lon"})
    orders = [lawspeaker.Build("England", UnitType.FLEET, "lon"),
              lawspeaker.Build("England", UnitType.ARMY, "edi")]  # occupied: fails
    results = lawspeaker.adjudicate(variant, winter, orders).results
    found = parse(draw(variant, winter, results=results))
    assert found["order-build-lon"].get("data-outcome") == "succeeds"
    assert found["order-build-edi"].get("data-outcome") != "succeeds"
    built = [e for e in found["order-build-lon"].iter() if "built" in (e.get("class") or "")]
    assert built, "the new unit is drawn"


def test_orders_before_adjudication_are_drawn_without_outcomes() -> None:
    variant = lawspeaker.load_variant("standard")
    position = lawspeaker.initial_position(variant)
    orders = read(variant, "England: F lon - nth", "England: F edi - nrg",
                  "England: A lvp - yor")
    found = parse(draw(variant, position, orders=orders))
    for element_id in ("order-lon", "order-edi", "order-lvp"):
        assert found[element_id].get("data-outcome") is None
        assert variant.powers["England"].colour in {e.get("fill") for e in
                                                    found[element_id].iter()}


def test_sortie_is_drawn_as_a_sortie() -> None:
    variant = lawspeaker.load_variant("s9-complete")
    position = lawspeaker.initial_position(variant)
    minor = position.units["per"]
    assert minor.stationary
    target = sorted(variant.map.neighbours(minor.type, minor.location))[0]
    order = lawspeaker.Move(minor.power, minor.type, minor.location, target)
    found = parse(draw(variant, position, orders=[order]))
    dashes = {e.get("stroke-dasharray") for e in found["order-per"].iter()}
    assert "2,5" in dashes  # dotted, with a bar instead of a head
    assert not any(e.tag == f"{SVG}polygon" for e in found["order-per"].iter())


def test_heir_marriage_orders_are_drawn() -> None:
    variant = lawspeaker.load_variant("s9-complete")
    position = lawspeaker.initial_position(variant)
    orders = [lawspeaker.HeirMarry("Aesir", None, "asg", partner="per"),
              lawspeaker.Marry("Permyak", UnitType.FLEET, "per", heir="asg")]
    found = parse(draw(variant, position, orders=orders))
    for element_id in ("order-heir-asg", "order-per"):
        assert STYLE.marriage in strokes(found[element_id])


def test_minor_thrall_and_vassal_colours() -> None:
    """S9 §1.1: minors tan with the Π rune, thralls in their controller's
    colour, vassals with both controllers' colours."""
    variant = lawspeaker.load_variant("s9-complete")
    position = lawspeaker.initial_position(variant)
    minor = position.units["eir"].power
    thrall = position.units["per"].power
    vassal = position.units["lak"].power
    position = position.replace(powers_in_play={
        **position.powers_in_play,
        thrall: PowerState("thrall", ("Aesir",)),
        vassal: PowerState("vassal", ("Madr", "Vanir"), "lak"),
    })
    svg = draw(variant, position).svg()
    found = parse(draw(variant, position))

    def shape_fill(element_id: str) -> str:  # the token's body (not its halo, unfilled)
        return next(e.get("fill") for e in found[element_id]
                    if e.get("fill") not in (None, "none"))

    def mark(element_id: str) -> str:
        return next(e.text for e in found[element_id].iter(f"{SVG}text"))

    assert shape_fill("unit-eir") == TAN and mark("unit-eir") == MINOR_MARK
    assert found["unit-eir"].get("data-power") == minor
    assert shape_fill("unit-per") == variant.powers["Aesir"].colour
    assert mark("unit-per") == MINOR_MARK
    gradient = shape_fill("unit-lak")
    assert gradient.startswith("url(#")
    colours = (variant.powers["Madr"].colour, variant.powers["Vanir"].colour)
    assert all(c in svg for c in colours) and "two-" in gradient
    assert shape_fill("unit-asg") == variant.powers["Aesir"].colour
    assert mark("unit-asg") == "F"  # majors carry the type letter
    assert found["sc-per"].get("data-owner") == thrall


def test_bare_map_colours_every_border_as_the_s9_diagram() -> None:
    variant = lawspeaker.load_variant("standard")
    found = parse(draw(variant, view="adjacency"))
    links = {i: e for i, e in found.items() if i.startswith("link-")}
    assert len(links) == len(link_kinds(variant))
    assert found["link-bur-par"].get("stroke") == LINK_COLOURS["army"]
    assert found["link-lon-nth"].get("stroke") == LINK_COLOURS["fleet"]
    assert found["link-lon-wal"].get("stroke") == LINK_COLOURS["both"]
    assert found["link-mid-spa-nc"].get("stroke") == LINK_COLOURS["fleet"]  # per coast
    assert found["link-mid-spa-sc"].get("stroke") == LINK_COLOURS["fleet"]
    assert not any(i.startswith("unit-") for i in found)


def test_phase_title_as_the_variant_names_it() -> None:
    variant = lawspeaker.load_variant("s9-basic")
    position = lawspeaker.initial_position(variant)
    found = parse(draw(variant, position))
    assert "Spring Orders, First Cycle (400 BCE)" in (found["title"].text or "")
    assert found["title"].text == f"{variant.title}: {variant.phase_label(position.phase)}"


@pytest.mark.parametrize("name", ["standard", "s9-complete"])
def test_drawing_is_deterministic(name: str) -> None:
    variant = lawspeaker.load_variant(name)
    position, results = sample_turn(variant, seed=5, phases=4)
    first = draw(variant, position, results=results)
    second = draw(lawspeaker.load_variant(name), position, results=list(results))
    assert first.svg() == second.svg()
    assert first.png() == second.png()


def test_png_is_a_png_of_the_drawing_size() -> None:
    drawing = draw("standard", lawspeaker.initial_position(lawspeaker.load_variant("standard")))
    for scale in (1.0, 0.5):
        data = drawing.png(scale)
        assert data.startswith(PNG_SIGNATURE)
        assert data[12:16] == b"IHDR"
        width, height = struct.unpack(">II", data[16:24])
        assert abs(width - drawing.width * scale) <= 1  # resvg rounds half-pixels up
        assert abs(height - drawing.height * scale) <= 1
    with pytest.raises(ValueError):
        drawing.png(0)


def test_the_renderer_never_takes_dp_allocations() -> None:
    """Secrecy by construction: what is drawn is what the caller passes."""
    assert not any("alloc" in p.lower() or p == "dp" for p in inspect.signature(draw).parameters)


def test_a_position_of_another_map_is_refused_in_one_sentence() -> None:
    standard = lawspeaker.load_variant("standard")
    ood = lawspeaker.load_variant("ood")
    with pytest.raises(ValueError, match="variant 'standard', not 'ood'"):
        draw(ood, lawspeaker.initial_position(standard))
    bad = lawspeaker.initial_position(standard).replace(owners={"atlantis": "England"})
    with pytest.raises(ValueError, match="'atlantis'"):
        draw(standard, bad)


@pytest.mark.parametrize("name", ["standard", "ood"])
def test_text_is_legible_at_the_default_size(name: str) -> None:
    """No text under 10 px at scale 1; province names and the legend at 11 or more."""
    variant = lawspeaker.load_variant(name)
    position, results = sample_turn(variant, seed=3, phases=7)
    for drawing in (draw(variant), draw(variant, position, results=results)):
        root = ET.fromstring(drawing.svg())
        sizes = {e.get("id") or "": float(e.get("font-size") or 0)
                 for e in root.iter(f"{SVG}text")}
        assert min(sizes.values()) >= 10
        assert all(size >= 11 for key, size in sizes.items() if key.startswith("label-"))
    assert ink_on("#fff44f") == "#000000" and ink_on("#1b2a6b") == "#ffffff"


@pytest.mark.parametrize("name", ["standard", "s9-complete"])
def test_every_phase_kind_of_a_random_game_draws(name: str) -> None:
    variant = lawspeaker.load_variant(name)
    kinds = set()
    for position, results in phases(variant, seed=11, count=14):
        kinds.add(position.phase.kind)
        found = parse(draw(variant, position, results=results))
        for element_id in order_ids(r.order for r in results):
            assert element_id in found
        for province in position.dislodged:
            assert f"dislodged-{province}" in found
    assert PhaseKind.MOVEMENT in kinds and PhaseKind.ADJUSTMENT in kinds


def test_convoyed_move_follows_the_fleets_that_carried_it() -> None:
    variant = lawspeaker.load_variant("standard")
    position = lawspeaker.initial_position(variant).replace(units={u.province: u for u in [
        Unit("England", UnitType.ARMY, "lon"), Unit("England", UnitType.FLEET, "nth"),
        Unit("England", UnitType.FLEET, "eng"), Unit("France", UnitType.FLEET, "mid"),
        Unit("France", UnitType.FLEET, "bre")]})
    orders = read(variant, "England: A lon - bel", "England: F nth C A lon - bel",
                  "England: F eng C A lon - bel", "France: F mid - eng",
                  "France: F bre S F mid - eng")
    results = lawspeaker.adjudicate(variant, position, orders).results
    assert {r.order.province for r in results if r.dislodged} == {"eng"}
    found = parse(draw(variant, position, results=results))
    layout = lawspeaker.render.layout_for(variant)
    paths = [e.get("d") or "" for e in found["order-lon"].iter(f"{SVG}path")]
    assert any(f"L{layout.points['nth'][0]:g},{layout.points['nth'][1]:g}" in d for d in paths), \
        paths
    assert found["order-nth"].get("data-outcome") == "succeeds"
    assert "dislodged" in (found["order-eng"].get("class") or "")


def test_nuclear_powers_are_drawn_in_their_own_colours_and_named() -> None:
    """Dissolution §3.6, §8: neutral, invulnerable, each in its colour."""
    variant = lawspeaker.load_variant("dissolution")
    svg = draw(variant, lawspeaker.initial_position(variant)).svg()
    assert "NATO: nuclear power, invulnerable" in svg
    assert "of nobody" not in svg
    assert variant.nuclear["NATO"].colour in svg
