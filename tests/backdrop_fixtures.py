"""Official map images for the tests, made at test time (no binaries kept):
a plain PNG of any size, and a layout that places every province and coast
where the node diagram has it, scaled to the image."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import lawspeaker
from lawspeaker.render import layout_for
from lawspeaker.render.maplayout import MapLayout, save_layout, spots_of


def plain_png(width: int, height: int, rgb: tuple[int, int, int] = (200, 220, 240)) -> bytes:
    """A one-colour PNG, written by hand (a few hundred bytes, any size)."""
    row = b"\x00" + bytes(rgb) * width
    raw = zlib.compress(row * height, 9)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw)
            + chunk(b"IEND", b""))


SCALE = 0.5


def true_spots(variant: lawspeaker.Variant) -> dict[str, tuple[float, float]]:
    """Where the node diagram puts every province and coast, at :data:`SCALE`."""
    layout = layout_for(variant)
    return {k: (round(x * SCALE, 1), round(y * SCALE, 1))
            for k, (x, y) in {**layout.points, **layout.coasts}.items()}


def image_size(variant: lawspeaker.Variant) -> tuple[int, int]:
    layout = layout_for(variant)
    return (round(layout.width * SCALE) + 10, round(layout.height * SCALE) + 10)


def full_layout(variant: lawspeaker.Variant, image: str = "official.png",
                only: int | None = None) -> MapLayout:
    """Every place set (or the first ``only`` in the order a GM is asked)."""
    spots = true_spots(variant)
    keys = spots_of(variant)[:only] if only is not None else spots_of(variant)
    return MapLayout(variant.name, image, image_size(variant),
                     {k: spots[k] for k in keys})


def write_backdrop(folder: Path, variant: lawspeaker.Variant, only: int | None = None
                   ) -> Path:
    """An image and its layout file in ``folder``; the layout's path."""
    width, height = image_size(variant)
    (folder / "official.png").write_bytes(plain_png(width, height))
    target = folder / "official.layout.yaml"
    save_layout(full_layout(variant, only=only), target)
    return target
