"""Precompute the territories of every bundled variant (run after changing a
bundled map, its coastline, the layout or the construction; the files are
committed as package data so that drawing never waits for them).

    .venv/bin/python tools/territories.py

Writes ``src/lawspeaker/render/territory_data/territories-<hash>.json`` per
map and removes files no bundled map uses any more. The hash is of the map
data, the layout and the coastline file, so a stale file is never read;
tests/test_territories.py fails when a bundled map has no file.
"""

from __future__ import annotations

from lawspeaker.render import layout_for
from lawspeaker.render.territories import build_territories, cache_key, dump_territories
from lawspeaker.render.territory_store import SHIPPED, coastline, seed_points
from lawspeaker.variants import available_variants, load_variant


def main() -> None:
    SHIPPED.mkdir(exist_ok=True)
    keep = set()
    for name in available_variants():
        var = load_variant(name)
        layout = layout_for(var)
        coast, salt = coastline(var, layout)
        size = (layout.width, layout.height)
        seeds = seed_points(var, layout)
        path = SHIPPED / f"territories-{cache_key(var.map, layout.points, size, salt, seeds)}.json"
        keep.add(path.name)
        if path.exists():
            print(f"{name}: {path.name} is current")
            continue
        terr = build_territories(var.map, layout.points, size, coast=coast, cache_salt=salt,
                                 seeds=seeds)
        path.write_text(dump_territories(terr), encoding="utf-8")
        print(f"{name}: {path.name} ({path.stat().st_size // 1024} KB, "
              f"{len(terr.crossings)} crossings)")
    for old in SHIPPED.glob("territories-*.json"):
        if old.name not in keep:
            old.unlink()
            print(f"removed {old.name}")


if __name__ == "__main__":
    main()
