"""Small marks shared by the orders layer and the legend: the wing's chevron,
its flight line, the disabled unit's zigzag ring.

Kept apart from :mod:`.orders` so the legend draws exactly the mark the map
uses, from the same code.
"""

from __future__ import annotations

import math

import drawsvg as dw

__all__ = ["FLIGHT_DASH", "chevron", "zigzag_ring"]

FLIGHT_DASH = "12,4,3,4"
"""A wing's order line (Dissolution §3.3): long dash, dot, unlike any other
order's line, so a wing's orders read as flying whatever their colour."""


def chevron(x: float, y: float, size: float, **attrs: object) -> dw.Lines:
    """A paper-plane chevron pointing right, centred on (x, y): the wing's
    symbol (Dissolution §3.3: 'chevrons that roughly look like the silhouette
    of a paper airplane')."""
    s = size
    return dw.Lines(round(x + s, 1), round(y, 1), round(x - s, 1), round(y - s * 0.8, 1),
                    round(x - s * 0.35, 1), round(y, 1), round(x - s, 1), round(y + s * 0.8, 1),
                    close=True, **attrs)


def zigzag_ring(x: float, y: float, r: float, teeth: int = 14, **attrs: object) -> dw.Lines:
    """A jagged ring round a unit: disabled by an attack that could not
    dislodge it (Dissolution §3.9)."""
    pts: list[float] = []
    for i in range(teeth * 2):
        a = math.pi * i / teeth
        radius = r + (2.5 if i % 2 else -2.5)
        pts += [round(x + radius * math.cos(a), 1), round(y + radius * math.sin(a), 1)]
    return dw.Lines(*pts, close=True, **attrs)
