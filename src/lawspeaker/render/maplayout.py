"""The layout file of an official map image: where each province's unit
stands on the picture, in the picture's own pixels (docs/maps.md,
"Drawing over the official map").

```yaml
variant: standard
image: standard.png          # relative to this file
size: [1524, 1357]           # the image's width and height in pixels
provinces:                   # unit spots; a split coast as key/coast
  lon: [512, 640]
  spa/nc: [300, 900]
centres:                     # optional: where each supply-centre marker is
  lon: [520, 660]
```

``parse_layout`` reads it, reporting the file and line of the first
problem; ``layout_problems`` compares it with a variant (missing and unknown
provinces and coasts, points outside the image); ``dump_layout`` writes it
back in the same form, provinces in the order they were placed.
"""

from __future__ import annotations

import io
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from ..core.geography import Terrain
from ..variants import Variant

__all__ = ["LayoutError", "MapLayout", "dump_layout", "layout_problems", "load_layout",
           "parse_layout", "save_layout", "spots_of"]

Point = tuple[float, float]
MAX_SIDE = 20000
"""No side of a calibrated image may be larger (a sanity bound, not a rule)."""


class LayoutError(ValueError):
    """A layout file that cannot be read; the message names the file and line."""


@dataclass
class MapLayout:
    variant: str
    image: str
    """The image's path, relative to the layout file."""
    size: tuple[int, int]
    provinces: dict[str, Point] = field(default_factory=dict)
    """Unit spot of each province, and of each split coast (``key/coast``)."""
    centres: dict[str, Point] = field(default_factory=dict)
    """Supply-centre markers, where given."""


def spots_of(variant: Variant) -> list[str]:
    """Every place a unit can stand, in the order a GM is asked for them:
    every province but the impassable ones, each split coast right after its
    province. Provinces go in bands from the top of the variant's own layout,
    left to right, so the next one asked for is near the last one clicked."""
    provs = [p for p in variant.map.provinces.values() if p.terrain is not Terrain.IMPASSABLE]
    ys = sorted(p.xy[1] for p in provs if p.xy is not None)
    band = max((ys[-1] - ys[0]) / 8, 1e-9) if ys else 1.0

    def order(p: Any) -> tuple[float, float, str]:
        x, y = p.xy if p.xy is not None else (0.0, 0.0)
        row = int((y - (ys[0] if ys else 0.0)) / band)
        return (row, x if row % 2 == 0 else -x, p.key)  # a snake, row by row

    out: list[str] = []
    for prov in sorted(provs, key=order):
        out.append(prov.key)
        if prov.coasts:
            out += list(prov.locations)
    return out


def parse_layout(text: str, source: str = "layout") -> MapLayout:
    """The layout in ``text``; ``LayoutError`` naming ``source`` and the line."""
    try:
        data = YAML(typ="rt").load(text)
    except YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f", line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "not valid YAML"
        raise LayoutError(f"{source}{line}: {problem}") from None
    if not isinstance(data, Mapping):
        raise LayoutError(f"{source}: a layout file is a mapping with variant, image, size "
                          "and provinces")

    def where(node: Any, key: Any) -> str:
        try:
            return f"{source}, line {node.lc.key(key)[0] + 1}"
        except (AttributeError, KeyError, TypeError):
            return source

    for key in data:
        if key not in ("variant", "image", "size", "provinces", "centres"):
            raise LayoutError(f"{where(data, key)}: unknown key '{key}' (variant, image, size, "
                              "provinces, centres)")
    for key in ("variant", "image", "size"):
        if key not in data:
            raise LayoutError(f"{source}: '{key}' is missing")
    for key in ("variant", "image"):
        if not isinstance(data[key], str) or not data[key].strip():
            raise LayoutError(f"{where(data, key)}: '{key}' must be a name")
    size = data["size"]
    if (not isinstance(size, list) or len(size) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in size)
            or not all(0 < v <= MAX_SIDE for v in size)):
        raise LayoutError(f"{where(data, 'size')}: 'size' must be [width, height] in whole "
                          f"pixels, each 1 to {MAX_SIDE}")
    out = MapLayout(str(data["variant"]).strip(), str(data["image"]).strip(),
                    (int(size[0]), int(size[1])))
    for section in ("provinces", "centres"):
        spots = data.get(section)
        if spots is None:
            continue
        if not isinstance(spots, Mapping):
            raise LayoutError(f"{where(data, section)}: '{section}' must map each province "
                              "to [x, y]")
        target = out.provinces if section == "provinces" else out.centres
        for key, value in spots.items():
            if (not isinstance(value, list) or len(value) != 2
                    or not all(isinstance(v, int | float) and not isinstance(v, bool)
                               for v in value)):
                raise LayoutError(f"{where(spots, key)}: {section}: '{key}' must be [x, y] in "
                                  f"pixels, not {value!r}")
            target[str(key)] = (float(value[0]), float(value[1]))
    return out


def load_layout(path: str | Path) -> MapLayout:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise LayoutError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise LayoutError(f"{path}: not a text file (a layout file is YAML)") from None
    return parse_layout(text, str(path))


def _number(v: float) -> int | float:
    return int(v) if float(v).is_integer() else round(v, 1)


def dump_layout(layout: MapLayout) -> str:
    """The layout as YAML, one province a line, in the order they were placed."""
    lines = [f"variant: {_scalar(layout.variant)}", f"image: {_scalar(layout.image)}",
             f"size: [{layout.size[0]}, {layout.size[1]}]"]
    for section, spots in (("provinces", layout.provinces), ("centres", layout.centres)):
        if section == "centres" and not spots:
            continue
        lines.append(f"{section}:" + ("" if spots else " {}"))
        lines += [f"  {_scalar(key)}: [{_number(x)}, {_number(y)}]"
                  for key, (x, y) in spots.items()]
    return "\n".join(lines) + "\n"


def _scalar(text: str) -> str:
    """A YAML scalar for ``text``, quoted when it must be."""
    buf = io.StringIO()
    yaml = YAML(typ="safe")
    yaml.width = 100_000  # one line, however long the path
    yaml.dump(text, buf)
    return buf.getvalue().removesuffix("\n...\n").strip()


def save_layout(layout: MapLayout, path: str | Path) -> None:
    """Write the layout so that a crash never leaves half a file: to a
    temporary file first, then renamed over the old one."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(dump_layout(layout), encoding="utf-8")
    os.replace(tmp, path)


def layout_problems(layout: MapLayout, variant: Variant) -> list[str]:
    """What is wrong or missing for drawing ``variant`` over this layout's
    image: another variant, unknown provinces and coasts, spots outside the
    image, provinces and coasts not placed."""
    problems: list[str] = []
    if layout.variant != variant.name:
        problems.append(f"the layout is for variant '{layout.variant}', not '{variant.name}'")
    wanted = spots_of(variant)
    known = set(wanted)
    provinces = variant.map.provinces
    width, height = layout.size
    for section, spots in (("provinces", layout.provinces), ("centres", layout.centres)):
        for key, (x, y) in spots.items():
            if section == "centres" and not (key in provinces and provinces[key].is_sc):
                problems.append(f"centres: '{key}' is not a supply centre of {variant.name}")
            elif section == "provinces" and key not in known:
                what = "an impassable province" if key in provinces else "not a place"
                problems.append(f"provinces: '{key}' is {what} of {variant.name}")
            if not (0 <= x <= width and 0 <= y <= height):
                problems.append(f"{section}: '{key}' at [{_number(x)}, {_number(y)}] is outside "
                                f"the {width}x{height} image")
    missing = [k for k in wanted if k not in layout.provinces]
    if missing:
        problems.append(f"{len(missing)} of {len(wanted)} provinces and coasts not placed: "
                        + ", ".join(missing))
    return problems
