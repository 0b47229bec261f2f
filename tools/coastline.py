"""Vendor a real coastline for a variant whose ``xy`` is a projection of
longitude and latitude (run once; the result is committed as package data).

    npm pack world-atlas@2 && tar xzf world-atlas-2.0.2.tgz   # Natural Earth, public domain
    python tools/coastline.py package/land-50m.json dissolution 20 0 -22 1386
    python tools/coastline.py package/land-50m.json standard 16 320 -26 1898
    python tools/coastline.py package/land-50m.json ood 15.2 334.4 -22.7 1589

writes ``src/lawspeaker/variants/<variant>/coastline.json``: the Natural
Earth land polygons (1:50m) clipped to the variant's area (its points and
80 map units around them), simplified, in longitude and latitude, with the
projection to the map's ``xy`` (``x = ax * lon + bx``, ``y = ay * lat + by``;
an equirectangular projection, x scaled by the cosine of the map's middle
latitude: standard 16 = 26 cos 52°, OOD 15.2 = 22.7 cos 48°; Dissolution's
is unscaled). Dissolution's file was made before Eurasia's ring was unwrapped
at the antimeridian (below); made again it differs by simplification only
(0.2% of the land area), so it was kept. The territory map
(lawspeaker.render.territories) reads it to tell land from sea; nothing is
fetched at run time.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import shapely
from shapely.geometry import MultiPolygon, Polygon, box, mapping

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ROOT / "src" / "lawspeaker" / "variants"
MARGIN = 80.0  # map units around the provinces' points
SIMPLIFY = 0.04  # degrees (about 1 px of the drawing)


def decode_topojson(data: dict) -> list[Polygon]:
    """The polygons of a TopoJSON file's first object (quantised arcs)."""
    (sx, sy), (tx, ty) = data["transform"]["scale"], data["transform"]["translate"]
    arcs = []
    for arc in data["arcs"]:
        x = y = 0
        pts = []
        for dx, dy in arc:
            x += dx
            y += dy
            pts.append((x * sx + tx, y * sy + ty))
        arcs.append(pts)

    def ring(indexes: list[int]) -> list[tuple[float, float]]:
        out: list[tuple[float, float]] = []
        for i in indexes:
            pts = arcs[i] if i >= 0 else arcs[~i][::-1]
            out.extend(pts if not out else pts[1:])
        # A ring cut at the antimeridian (Eurasia's, at Chukotka) jumps from
        # +180 to -180: unwrap it into one continuous ring, else make_valid
        # turns it into a band round the globe that covers the seas.
        shift, shifts = 0.0, [0.0]
        for j in range(1, len(out)):
            step = out[j][0] + shift - out[j - 1][0]
            if step > 180:
                shift -= 360
            elif step < -180:
                shift += 360
            shifts.append(shift)
            out[j] = (out[j][0] + shift, out[j][1])
        usual = max(set(shifts), key=shifts.count)  # most of the ring stays where it was
        return [(x - usual, y) for x, y in out] if usual else out

    polys = []
    obj = next(iter(data["objects"].values()))
    geometries = obj.get("geometries", [obj])
    for geom in geometries:
        shapes = geom["arcs"] if geom["type"] == "MultiPolygon" else [geom["arcs"]]
        for rings in shapes:
            poly = Polygon(ring(rings[0]), [ring(r) for r in rings[1:]])
            polys.append(shapely.make_valid(poly))
    return polys


def main(source: str, variant: str, ax: float, bx: float, ay: float, by: float) -> None:
    import lawspeaker

    var = lawspeaker.load_variant(variant)
    xys = [p.xy for p in var.map.provinces.values() if p.xy is not None]
    lons = [(x - bx) / ax for x, _ in xys]
    lats = [(y - by) / ay for _, y in xys]
    pad_lon, pad_lat = MARGIN / abs(ax), MARGIN / abs(ay)
    area = box(min(lons) - pad_lon, min(lats) - pad_lat, max(lons) + pad_lon, max(lats) + pad_lat)
    land = shapely.union_all(decode_topojson(json.loads(Path(source).read_text())))
    land = shapely.simplify(land.intersection(area), SIMPLIFY)
    parts = [g for g in getattr(land, "geoms", [land]) if isinstance(g, Polygon)
             and g.area > SIMPLIFY ** 2 * 4]
    geom = shapely.set_precision(MultiPolygon(parts), 0.001)
    out = {
        "source": "Natural Earth land 1:50m (public domain), via world-atlas@2 land-50m.json",
        "projection": {"x": [ax, bx], "y": [ay, by]},
        "bounds": list(area.bounds),
        "land": mapping(geom),
    }
    path = VARIANTS / variant / "coastline.json"
    path.write_text(json.dumps(out, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{path}: {path.stat().st_size // 1024} KB, {len(parts)} polygons")


if __name__ == "__main__":
    if len(sys.argv) != 7:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], *map(float, sys.argv[3:]))
