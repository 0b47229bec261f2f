"""Regenerate the pictures of docs/maps.md (docs/img/): one turn of a seeded
random game per variant on its territory map, the bare S9 adjacency diagram,
the bare territory maps, and Dissolution's starting position.

    .venv/bin/python tools/doc_maps.py
"""

from __future__ import annotations

from pathlib import Path

import lawspeaker
from lawspeaker.render import draw
from lawspeaker.render.sample import sample_turn

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
    for path in sorted(IMG.glob("*.png")):
        print(f"{path.name}: {path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
