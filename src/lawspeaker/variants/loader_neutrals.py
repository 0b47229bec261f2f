"""The variant loader's sections for neutral powers beyond S9's minors.

Nuclear powers and their limits (Dissolution §3.6, §8, §9), minor colours and
pairs (§3.5), starting Favor (§7) and the DP allotment formula (§5.2): one
function per top-level key of ``variant.yaml``, each given the folder's
:class:`~lawspeaker.variants.loader_yaml.Reader` to report its problems through,
and called by :func:`lawspeaker.variants.loader.load` after the core of the variant
(map, powers, minors), which they are checked against.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.geography import GameMap, UnitType
from .loader_units import UnitReader
from .loader_yaml import Reader, line_of
from .model import NuclearPower, Power

__all__ = ["read_allotment", "read_favor", "read_minor_groups", "read_nuclear"]


def read_nuclear(reader: Reader, unit_reader: UnitReader, meta: Mapping[str, Any],
                 game_map: GameMap, components: frozenset[str]) -> dict[str, NuclearPower]:
    """``nuclear:`` power -> abbreviation, colour, territories, units, mobile
    (Dissolution §3.6, §8). Needs the ``nuclear_powers`` component."""
    f = reader.origin("nuclear")
    raw = reader.mapping(f, meta, "nuclear", "variant")
    if raw and "nuclear_powers" not in components:
        return {}  # reported by loader_components
    out: dict[str, NuclearPower] = {}
    for name, body, _ in reader.entries(f, raw):
        territories = tuple(t for _, t in reader.items(f, body, "territories", name))
        for t in territories:
            if t not in game_map.provinces:
                reader.problem(f, line_of(body, "territories"), f"{name}: territory '{t}' "
                               "is not a province")
        mobile = bool(body.get("mobile", False))
        barred = tuple(t for _, t in reader.items(f, body, "barred", name))
        spares = tuple(str(t) for _, t in reader.items(f, body, "spares", name))
        for t in barred:
            if t not in game_map.provinces:
                reader.problem(f, line_of(body, "barred"), f"{name}: barred '{t}' is not a "
                               "province")
        for t in spares:
            if t not in raw:
                reader.problem(f, line_of(body, "spares"), f"{name}: spares '{t}', which is "
                               "not a nuclear power")
        units = []
        for i, text in reader.items(f, body, "units", name):
            unit = unit_reader.parse(f, line_of(body["units"], i), name, text,
                                     stationary=not mobile)
            if unit is not None:
                units.append(unit)
        out[name] = NuclearPower(name, str(body.get("abbreviation", name[:2].upper())),
                                 str(body.get("colour", "#808080")), territories,
                                 tuple(units), mobile, barred, spares,
                                 bool(body.get("cohesion", True)),
                                 bool(body.get("deception", True)))
    return out


def read_minor_groups(reader: Reader, meta: Mapping[str, Any],
                      minors: Mapping[str, UnitType]
                      ) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """``minor_colours: {tan: [...], bronze: [...]}`` and ``minor_pairs:
    {Libya: [ben, trp]}`` (Dissolution §3.5); every centre named must be a minor's.
    Paired minors are coloured ``chocolate``."""
    colours: dict[str, str] = {}
    pairs: dict[str, tuple[str, ...]] = {}
    for key in ("minor_colours", "minor_pairs"):
        f = reader.origin(key)
        raw = reader.mapping(f, meta, key, "variant")
        for group, _ in raw.items():
            centres = tuple(c for _, c in reader.items(f, raw, group, key))
            for c in centres:
                if c not in minors:
                    reader.problem(f, line_of(raw, group), f"{key}.{group}: '{c}' is not a "
                                   "minor power's centre")
            if key == "minor_pairs":
                if len(centres) != 2:
                    reader.problem(f, line_of(raw, group), f"minor_pairs.{group}: a paired "
                                   "minor has two centres")
                pairs[str(group)] = centres
                colours.update(dict.fromkeys(centres, "chocolate"))
            else:
                colours.update(dict.fromkeys(centres, str(group)))
    return colours, pairs


def read_favor(reader: Reader, meta: Mapping[str, Any], powers: Mapping[str, Power],
               nuclear: Mapping[str, NuclearPower]) -> dict[str, dict[str, int]]:
    """``favor:`` in each power: nuclear power -> starting Favor 0-5 (Dissolution §7)."""
    f = reader.origin("powers")
    raw_powers = reader.mapping(f, meta, "powers", "variant")
    out: dict[str, dict[str, int]] = {}
    for name in powers:
        body = raw_powers.get(name)
        raw = reader.mapping(f, body, "favor", name)
        values: dict[str, int] = {}
        for other, value in raw.items():
            if str(other) not in nuclear:
                reader.problem(f, line_of(raw, other), f"{name}: favor with '{other}', "
                               "which is not a nuclear power")
            elif not isinstance(value, int) or not 0 <= value <= 5:
                reader.problem(f, line_of(raw, other), f"{name}: favor must be 0 to 5")
            else:
                values[str(other)] = int(value)  # a plain int, not the YAML reader's own type
        if values:
            out[name] = values
    return out


def read_allotment(reader: Reader, meta: Mapping[str, Any]) -> dict[str, int]:
    """``dp_allotment:`` how many DP each player gets, when not the S9 §9.2
    formula (Dissolution §5.2-§5.3): ``per_unit``, ``unit_cap``, ``oil``,
    ``minimum``, ``exile``, each a whole number."""
    f = reader.origin("dp_allotment")
    raw = reader.mapping(f, meta, "dp_allotment", "variant")
    out: dict[str, int] = {}
    for key, value in raw.items():
        if str(key) not in _ALLOTMENT_KEYS:
            reader.problem(f, line_of(raw, key), f"dp_allotment: unknown key '{key}' (keys: "
                           f"{', '.join(_ALLOTMENT_KEYS)})")
        elif not isinstance(value, int) or value < 0:
            reader.problem(f, line_of(raw, key), f"dp_allotment.{key} must be a whole number")
        else:
            out[str(key)] = value
    return out


_ALLOTMENT_KEYS = ("per_unit", "unit_cap", "oil", "minimum", "exile")
