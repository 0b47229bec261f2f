"""Orders drawn as players think of them (issue 19): each kind of order and
each mark (explicit convoy paths, wings' flight lines, DP bought for neutral
units, disabled units) can be found by its element id and class, and the
legend has an entry for every mark the map uses."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from importlib.resources import files

import pytest

import lawspeaker
from lawspeaker.core.orders import EmbassyOrder
from lawspeaker.engine.posts import read_post
from lawspeaker.render import draw
from lawspeaker.render.drawing import layout_for
from lawspeaker.render.marks import FLIGHT_DASH

SVG = "{http://www.w3.org/2000/svg}"
MARKS = ("wing", "sortie", "convoyed", "bought", "disabled")
"""The classes an order's group carries for its marks (render/orders.py)."""


def adjudicated(variant: str, text: str) -> tuple[lawspeaker.Variant, lawspeaker.Position,
                                                  tuple[lawspeaker.OrderResult, ...]]:
    """A post of orders and DP (as the CLI reads it) adjudicated on the start."""
    var = lawspeaker.load_variant(variant)
    position = lawspeaker.initial_position(var)
    lines = read_post(var, text.encode(), position.phase.kind)
    assert not [line.error for line in lines if line.error]
    orders = [line.order for line in lines if line.order is not None]
    allocations = [line.allocation for line in lines if line.allocation is not None]
    step = lawspeaker.adjudicate(var, position, orders, var.rules, allocations)
    return var, position, step.results


def example(variant: str) -> str:
    return (files("lawspeaker") / "examples" / f"{variant}.txt").read_text(encoding="utf-8")


def groups(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)
    return {e.get("id"): e for e in root.iter() if e.get("id")}


def classes(element: ET.Element) -> set[str]:
    return set((element.get("class") or "").split())


@pytest.fixture(scope="module")
def dissolution() -> tuple[lawspeaker.Variant, lawspeaker.Position, tuple, dict]:
    var, position, results = adjudicated("dissolution", example("dissolution"))
    return var, position, results, groups(draw(var, position, results=results).svg())


def test_a_convoyed_move_follows_the_path_its_order_names(dissolution) -> None:
    """Dissolution §3.10.1, Ex 3.10.2.1: A Cai - Asw - Khm goes by the wing in Aswan."""
    var, _, _, found = dissolution
    g = found["order-cai"]
    assert {"move", "convoyed", "succeeds"} <= classes(g)
    x, y = layout_for(var).points["asw"]
    paths = [p.get("d") for p in g.iter(f"{SVG}path")]
    assert any(f"L{x:g},{y:g}" in d for d in paths), paths  # through Aswan, not straight
    # The support of that move aims at the arrow's last leg, Aswan to Khartoum.
    dot = next(found["order-ben"].iter(f"{SVG}circle"))
    kx, ky = layout_for(var).points["khm"]
    assert abs(float(dot.get("cx")) - (x + (kx - x) * 0.6)) < 1
    assert abs(float(dot.get("cy")) - (y + (ky - y) * 0.6)) < 1


def test_a_wing_order_has_the_wing_s_symbol_and_a_flight_line(dissolution) -> None:
    """Dissolution §3.3: Egypt's wing in Aswan convoys (W Asw C Cai - Khm)."""
    _, _, _, found = dissolution
    g = found["order-asw"]
    assert {"convoy", "wing"} <= classes(g)
    assert any(classes(e) == {"wing-mark"} for e in g.iter())


def test_a_wing_support_is_a_flight_line(dissolution) -> None:
    var, position, results = adjudicated("dissolution", "Egypt:\nA Cai - Wde\n"
                                          "W Asw S Cai - Wde\nF Alx H\n")
    found = groups(draw(var, position, results=results).svg())
    g = found["order-asw"]
    assert {"supportmove", "wing"} <= classes(g) and "bought" not in classes(g)
    assert FLIGHT_DASH in {e.get("stroke-dasharray") for e in g.iter()}
    assert "wing" not in classes(found["order-cai"])  # an army's move is not flown
    assert FLIGHT_DASH not in {e.get("stroke-dasharray") for e in found["order-cai"].iter()}


def test_orders_dp_bought_for_neutral_units_carry_a_dp_badge_not_the_buyer(
        dissolution) -> None:
    """S9 §9.1, Dissolution §5.1: Benghazi supports Cairo because Egypt paid 2 DP."""
    _, _, _, found = dissolution
    g = found["order-ben"]
    assert "bought" in classes(g)
    assert any(classes(e) == {"dp-badge"} for e in g.iter())
    assert [e.text for e in g.iter(f"{SVG}text")] == ["DP"]  # never who paid
    assert "Egypt" not in next(g.iter(f"{SVG}title")).text
    # A paired minor's default support of its partner (§9.2.1) and a plain hold were not
    # bought, whatever DP were spent on them (W Tel H got 1 DP: nobody can tell).
    for province in ("pra", "bra", "tel", "khm"):
        assert "bought" not in classes(found[f"order-{province}"]), province
    # A player's own orders are never 'bought'.
    assert not any("bought" in classes(g) for key, g in found.items()
                   if key.startswith("order-") and g.get("data-power") == "Egypt")


def test_a_disabled_unit_is_ringed(dissolution) -> None:
    """Dissolution §3.9, Ex 11.6.1.1: a supported attack on invulnerable Moscow disables it."""
    var, position, results = adjudicated(
        "dissolution", "Ukraine:\nA Khk - Mos\nA Kyv H\nF Sev H\n2 DP to A Blr S Khk - Mos\n")
    found = groups(draw(var, position, results=results).svg())
    g = found["order-mos"]
    assert "disabled" in classes(g)
    assert any(classes(e) == {"disabled-mark"} for e in g.iter())
    assert "disabled" not in classes(found["order-khk"])


def test_a_sortie_ends_in_a_bar_not_an_arrow(dissolution) -> None:
    """Dissolution §3.7: a stationary unit's move always bounces."""
    var, position, results = adjudicated("dissolution", "Poland:\nA War H\n"
                                         "1 DP to A Aus - Hun\n")
    found = groups(draw(var, position, results=results).svg())
    g = found["order-aus"]
    assert {"move", "sortie", "bought"} <= classes(g)
    shapes = [(e.get("d") or "") for e in g if e.tag == f"{SVG}path"]
    assert len(shapes) == 3 and not any(d.rstrip().endswith("Z") for d in shapes)  # no head
    assert {e.get("stroke-dasharray") for e in g} >= {"2,5"}  # dotted


@pytest.mark.parametrize("variant", ["standard", "s9-complete", "ood", "dissolution"])
def test_the_legend_explains_every_mark_the_map_uses(variant: str) -> None:
    var, position, results = adjudicated(variant, example(variant))
    found = groups(draw(var, position, results=results).svg())
    used = set()
    for key, g in found.items():
        if key.startswith("order-"):
            used |= classes(g) - {"order", "succeeds", "fails", "illegal", "implicit"}
    kinds = {"move": "move", "supporthold": "support-hold", "supportmove": "support-move",
             "convoy": "convoy", "retreat": "retreat", "build": "build", "disband": "disband",
             "remove": "disband", "dislodged": "dislodged", "marry": "marriage",
             "heirmarry": "marriage", "buildheir": "heir", "heirhold": "heir",
             "wing": "wing-order", "sortie": "sortie", "convoyed": "convoyed",
             "bought": "bought", "disabled": "disabled"}
    for mark in used - {"waive"}:  # a waived build draws nothing
        assert f"key-{kinds.get(mark, mark)}" in found, (variant, mark)
    for mark in ("failed-move", "support-cut", "illegal", "dislodged", "build"):
        assert f"key-{mark}" in found
    # Only what the variant has: no wings or DP badge on the standard map.
    extras = {"key-wing", "key-wing-order", "key-bought", "key-sortie", "key-nuclear",
              "key-disabled"}
    assert (extras <= found.keys()) == (variant == "dissolution")
    assert not (extras & found.keys()) or variant != "standard"


DRAWN = {"move", "retreat", "supporthold", "supportmove", "convoy", "build", "disband",
         "remove", "hold", "marry", "heirmarry", "buildheir"}
"""Order kinds that always leave a mark (an implicit hold, a waived build and
an heir's hold leave none: nothing was ordered, nothing happens)."""


@pytest.mark.parametrize("variant", ["standard", "s9-complete", "ood", "dissolution"])
def test_every_order_of_random_phases_is_drawn_with_its_mark(variant: str) -> None:
    """Each order of every phase of a random game (moves, supports, convoys,
    retreats, builds, disbands, removals, marriages) is a group of its kind
    with a visible mark."""
    from test_render import phases

    from lawspeaker.render import order_ids

    var = lawspeaker.load_variant(variant)
    kinds: set[str] = set()
    for position, results in phases(var, 11, 12):
        found = groups(draw(var, position, results=results).svg())
        results = tuple(r for r in results if not isinstance(r.order, EmbassyOrder))  # §11
        for key, result in zip(order_ids(r.order for r in results), results, strict=True):
            g = found[key]
            kind = type(result.order).__name__.lower()
            assert kind in classes(g), (key, classes(g))
            if kind in DRAWN and not result.implicit and result.order.location:
                assert len(list(g)) > 1, (variant, key, result)  # more than its title
                kinds.add(kind)
    assert {"move", "supporthold", "supportmove", "build"} <= kinds, kinds
