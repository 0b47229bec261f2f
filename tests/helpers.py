"""Small builders that let tests write positions the way the rulebooks do."""

from __future__ import annotations

from lawspeaker import Unit, UnitType


def units(*lines: str) -> list[Unit]:
    """Units from lines like ``"England: F lon, A wal"``."""
    out = []
    for line in lines:
        power, _, rest = line.partition(":")
        for item in rest.split(","):
            letter, location = item.split()
            out.append(Unit(power.strip(), UnitType(letter), location))
    return out


def board(*lines: str) -> dict[str, Unit]:
    """The same units keyed by province, as the resolver takes them."""
    return {unit.province: unit for unit in units(*lines)}
