"""Maps: milliseconds to draw one map of each bundled variant, SVG and PNG.

For each variant it draws a mid-game turn with its orders and results
(``lawspeaker.sim.sample.sample_turn``) and times, as the median of
``--repeat`` runs: the first drawing (which lays out the map and places the
names, then cached per map), a warm SVG drawing, and the PNG rendering of
that SVG at ``--scale``. It reports and never asserts.

    python benchmarks/bench_render.py --repeat 5
"""

from __future__ import annotations

import argparse
import statistics
import time

import lawspeaker
from lawspeaker.render import draw
from lawspeaker.render.drawing import _LAYOUTS
from lawspeaker.sim.sample import sample_turn

VARIANTS = ("standard", "s9-basic", "s9-complete", "ood")


def ms(runs: list[float]) -> float:
    return statistics.median(runs) * 1000


def bench(name: str, repeat: int, scale: float) -> None:
    variant = lawspeaker.load_variant(name)
    position, results = sample_turn(variant, seed=3, phases=7)
    cold, warm, png = [], [], []
    for _ in range(repeat):
        _LAYOUTS.clear()
        t0 = time.perf_counter()
        draw(variant, position, results=results).svg()
        t1 = time.perf_counter()
        drawing = draw(variant, position, results=results)
        t2 = time.perf_counter()
        data = drawing.png(scale)
        t3 = time.perf_counter()
        cold.append(t1 - t0)
        warm.append(t2 - t1)
        png.append(t3 - t2)
    print(f"{name:12} {len(results):4} orders {drawing.width:5}x{drawing.height:<5} "
          f"SVG {ms(warm):6.1f} ms (first {ms(cold):6.1f} ms)  PNG {ms(png):6.1f} ms "
          f"({len(data) // 1024} KiB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("variants", nargs="*", default=list(VARIANTS))
    args = parser.parse_args()
    for name in args.variants:
        bench(name, args.repeat, args.scale)


if __name__ == "__main__":
    main()
