"""SVG to PNG, through resvg (a Rust renderer shipped inside the ``resvg-py``
wheel): no browser, no Inkscape, no system library but the fonts.

Text is drawn in DejaVu Sans, which Debian's ``fonts-dejavu-core`` puts in
``/usr/share/fonts``; resvg finds it among the system fonts. Without any
font, shapes still render and only the text is missing.
"""

from __future__ import annotations

import resvg_py

__all__ = ["PNG_SIGNATURE", "svg_to_png"]

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def svg_to_png(svg: str, scale: float = 1.0) -> bytes:
    """Render ``svg`` at ``scale`` pixels per SVG unit. Deterministic: the same
    SVG, scale and fonts give the same bytes."""
    if not scale > 0:
        raise ValueError(f"scale must be positive, not {scale}")
    data = resvg_py.svg_to_bytes(svg_string=svg, zoom=scale,
                                 shape_rendering="geometric_precision",
                                 text_rendering="optimize_legibility")
    return bytes(data)
