"""How long a map's territories take to build from scratch (what a designer's
own map costs at first use; bundled maps ship them precomputed), and how long a
drawing takes once they are built. Prints figures; asserts nothing.

    .venv/bin/python benchmarks/bench_territories.py [VARIANT ...]
"""

from __future__ import annotations

import sys
import time

import lawspeaker
from lawspeaker.render import draw, layout_for
from lawspeaker.render.territories import build_territories
from lawspeaker.render.territory_store import coastline


def main(names: list[str]) -> None:
    for name in names or ["standard", "s9-basic", "ood", "dissolution"]:
        variant = lawspeaker.load_variant(name)
        layout = layout_for(variant)
        coast, _ = coastline(variant, layout)
        start = time.process_time()
        terr = build_territories(variant.map, layout.points, (layout.width, layout.height),
                                 coast=coast)
        built = time.process_time() - start
        position = lawspeaker.initial_position(variant)
        draw(variant, position)  # loads the shipped territories once
        start = time.perf_counter()
        for _ in range(5):
            draw(variant, position)
        drawn = (time.perf_counter() - start) / 5
        print(f"{name:12} build {built:6.1f} s CPU   {len(terr.crossings):3} crossings   "
              f"draw {drawn * 1000:6.0f} ms")


if __name__ == "__main__":
    main(sys.argv[1:])
