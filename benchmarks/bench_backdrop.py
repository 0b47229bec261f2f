"""Maps over an official map image: seconds to draw a mid-game Dissolution
turn over an image of the size of its map (3,915 x 3,002 px), SVG and the
PNG the server posts (2,000 px wide) and at full size, beside the same turn
without the image. Medians of ``--repeat`` runs; it reports, never asserts.

The image is a plain PNG made on the spot (its decoding and scaling is the
cost; a JPEG of the real map costs about the same to draw), with every
province placed where the node map has it, stretched over the image.

    python benchmarks/bench_backdrop.py --repeat 3
"""

from __future__ import annotations

import argparse
import statistics
import struct
import time
import zlib

import lawspeaker
from lawspeaker.render import draw, layout_for
from lawspeaker.render.backdrop import Backdrop
from lawspeaker.render.maplayout import MapLayout, spots_of
from lawspeaker.sim.sample import sample_turn

SIZE = (3915, 3002)


def plain_png(width: int, height: int) -> bytes:
    raw = zlib.compress((b"\x00" + b"\xc8\xdc\xf0" * width) * height, 6)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height,
                                                              8, 2, 0, 0, 0))
            + chunk(b"IDAT", raw) + chunk(b"IEND", b""))


def timed(fn: object, repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    variant = lawspeaker.load_variant("dissolution")
    nodes = layout_for(variant)
    sx, sy = SIZE[0] / nodes.width, SIZE[1] / nodes.height
    spots = {**nodes.points, **nodes.coasts}
    layout = MapLayout(variant.name, "map.png", SIZE,
                       {k: (spots[k][0] * sx, spots[k][1] * sy) for k in spots_of(variant)})
    backdrop = Backdrop.of(layout, plain_png(*SIZE), "map.png")
    position, results = sample_turn(variant, seed=2)
    for label, over in (("node map", None), ("over the image", backdrop)):
        drawing = draw(variant, position, results=results, backdrop=over)
        svg = timed(lambda o=over: draw(variant, position, results=results, backdrop=o).svg(),
                    args.repeat)
        small = timed(lambda d=drawing: d.png(2000 / d.width), args.repeat)
        full = timed(lambda d=drawing: d.png(1.0), args.repeat)
        print(f"dissolution {label:15} {drawing.width}x{drawing.height}: SVG {svg:.2f} s, "
              f"PNG 2000 px {small:.2f} s, PNG full size {full:.2f} s")


if __name__ == "__main__":
    main()
