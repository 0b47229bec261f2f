"""Regenerate the pictures of docs/maps.md (docs/img/): one turn of a seeded
random game per variant on its territory map, the bare S9 adjacency diagram,
the bare territory maps, Dissolution's starting position, and the order marks:
Dissolution's bundled first Spring and Ex 3.10.2.1 (cropped), a standard turn in
the colour-blind palette.

    .venv/bin/python tools/doc_maps.py
"""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

from PIL import Image

import lawspeaker
from lawspeaker.core.board import Unit
from lawspeaker.core.geography import UnitType
from lawspeaker.engine.posts import read_post
from lawspeaker.render import draw, layout_for
from lawspeaker.sim.sample import sample_turn
from lawspeaker.variants import Variant

IMG = Path(__file__).resolve().parent.parent / "docs" / "img"


def main() -> None:
    for name, scale in (("standard", 1.0), ("s9-complete", 1.0), ("ood", 0.8)):
        variant = lawspeaker.load_variant(name)
        position, results = sample_turn(variant)
        draw(variant, position, results=results).save(IMG / f"{name}-turn.png", scale)
    for name, scale in (("standard", 0.8), ("s9-basic", 0.9), ("ood", 0.6),
                        ("dissolution", 0.45)):
        draw(name).save(IMG / f"{name}-territories.png", scale)
    draw("s9-basic", view="adjacency").save(IMG / "s9-basic-adjacency.png")
    dissolution = lawspeaker.load_variant("dissolution")
    draw(dissolution, lawspeaker.initial_position(dissolution)).save(
        IMG / "dissolution-start.png", 0.6)
    standard = lawspeaker.load_variant("standard")
    position, results = sample_turn(standard)
    draw(standard, position, results=results, palette="colorblind").save(
        IMG / "standard-colorblind.png", 0.8)
    _first_spring(dissolution)
    _convoy(dissolution)
    for path in sorted(IMG.glob("*.png")):
        print(f"{path.name}: {path.stat().st_size // 1024} KB")


def _crop(variant: Variant, png: bytes, around: tuple[str, ...], out: str, pad: int = 120
          ) -> None:
    """Cut the drawing to the box around some provinces (and ``pad`` pixels more)."""
    layout = layout_for(variant)
    xs, ys = zip(*(layout.points[p] for p in around), strict=True)
    box = (int(min(xs)) - pad, int(min(ys)) - pad, int(max(xs)) + pad, int(max(ys)) + pad)
    with Image.open(io.BytesIO(png)) as image:
        image.crop(box).save(IMG / out, optimize=True)


def _first_spring(dis: Variant) -> None:
    """src/lawspeaker/examples/dissolution.txt, as `lawspeaker adjudicate` plays it."""
    position = lawspeaker.initial_position(dis)
    text = (Path(lawspeaker.__file__).parent / "examples" / "dissolution.txt").read_text()
    lines = read_post(dis, text, position.phase.kind)
    step = lawspeaker.adjudicate(dis, position, [ln.order for ln in lines if ln.order],
                                 dis.rules, [ln.allocation for ln in lines if ln.allocation])
    png = draw(dis, position, results=step.results).png()
    _crop(dis, png, ("ege", "khk", "alb"), "dissolution-orders.png", pad=110)


def _convoy(dis: Variant) -> None:
    """Ex 3.10.2.1: Cairo convoyed by the wing in Aswan along its stated path, with
    Benghazi's support (tests/test_resolver_dissolution.py plays the same)."""
    units = {loc: Unit(power, UnitType(letter), loc, letter == "W" or power not in dis.powers)
             for power, letter, loc in (("Egypt", "A", "cai"), ("Egypt", "W", "asw"),
                                        ("Benghazi", "A", "ben"), ("Khartoum", "A", "khm"))}
    position = replace(lawspeaker.initial_position(dis), units=units)
    orders = []
    for power, text in (("Egypt", "A Cai - Asw - Khm"), ("Egypt", "W Asw C Cai - Khm"),
                        ("Benghazi", "A Ben S Cai - Khm"), ("Khartoum", "A Khm H")):
        orders += lawspeaker.parse_orders(dis.map, text, power)[0]
    step = lawspeaker.adjudicate(dis, position, orders, dis.rules, [])
    png = draw(dis, position, results=step.results).png()
    _crop(dis, png, ("ben", "khm"), "dissolution-convoy.png", pad=110)


if __name__ == "__main__":
    main()
