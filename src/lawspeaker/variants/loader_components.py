"""Which keys of ``variant.yaml`` each rule component reads, and the checks that follow.

A key given without the component that reads it would be ignored, and a
component switched on without what it needs would play a different game than
the designer wrote; both are reported by ``lawspeaker map check`` with the file,
the line and the fix. The tables here are the one place that says which key
belongs to which component (docs/variant-format.md, "Reference", lists the same).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any

from ..core.geography import GameMap
from .loader_yaml import Reader, line_of
from .model import Power

__all__ = ["COMPONENT_KEYS", "COMPONENT_NEEDS", "TOP_LEVEL_KEYS", "check_allotment_source",
           "check_components", "check_keys", "check_neutral_centres"]

TOP_LEVEL_KEYS = ("name", "title", "base", "map", "reconstructed", "rulebook", "calendar",
                  "rules", "expect", "components", "powers", "heirs", "minors", "dp_allotment",
                  "minor_colours", "minor_pairs", "nuclear")
"""Every top-level key of ``variant.yaml``."""

POWER_KEYS = ("adjective", "abbreviation", "colour", "capital", "homes", "units", "kind",
              "favor")
"""Every key of a power under ``powers:``."""

COMPONENT_KEYS: Mapping[str, tuple[str, str]] = {
    "minors": ("minor_powers", "S9 §9.0"),
    "heirs": ("heirs", "S9 §6, §7.1"),
    "dp_allotment": ("diplomacy_points", "Dissolution §5.2"),
    "minor_colours": ("minor_powers", "Dissolution §3.5"),
    "minor_pairs": ("minor_powers", "Dissolution §3.5.3"),
    "nuclear": ("nuclear_powers", "Dissolution §8"),
}
"""Top-level key -> the component that reads it (and where the rule comes from)."""

COMPONENT_NEEDS: Mapping[str, tuple[tuple[str, ...], str]] = {
    "diplomacy_points": (("minor_powers",), "DP choose the orders of the minor powers' "
                         "units (S9 §9.0, Dissolution §5)"),
    "heirs": (("minor_powers", "diplomacy_points"), "heirs marry minor powers, whose "
              "orders come from DP (S9 §10)"),
    "neutral_limits": (("diplomacy_points",), "it limits how DP order neutral units "
                       "(Dissolution §9)"),
    "favor_map": (("nuclear_powers",), "the Favor board has a slice for each nuclear "
                  "power (Dissolution §11.1)"),
}
"""Component -> the components it needs, and why."""


def _suggest(word: str, known: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(word, known, n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else f"known keys: {', '.join(known)}"


def check_keys(reader: Reader, meta: Mapping[str, Any]) -> None:
    """An unknown key at the top level, or in a power, would be ignored: report it."""
    for key in meta:
        if str(key) not in TOP_LEVEL_KEYS:
            reader.problem(reader.origin(str(key)), line_of(meta, key),
                           f"unknown key '{key}'", _suggest(str(key), TOP_LEVEL_KEYS))
    powers = meta.get("powers")
    if not isinstance(powers, Mapping):
        return
    f = reader.origin("powers")
    for name, body in powers.items():
        if isinstance(body, Mapping):
            for key in body:
                if str(key) not in POWER_KEYS:
                    reader.problem(f, line_of(body, key), f"{name}: unknown key '{key}'",
                                   _suggest(str(key), POWER_KEYS))


def check_components(reader: Reader, meta: Mapping[str, Any], components: frozenset[str],
                     has_favor_file: bool) -> None:
    """Every key given without the component that reads it, every component without
    the components or the keys it needs."""
    listed = line_of(meta, "components") if "components" in meta else None
    f = reader.origin("components")
    for key, (component, origin) in COMPONENT_KEYS.items():
        if meta.get(key) and component not in components:
            reader.problem(reader.origin(key), line_of(meta, key),
                           f"'{key}' is read only with the '{component}' component ({origin}); "
                           "without it, it would be ignored",
                           f"add {component} to components:, or remove '{key}'")
    favor_powers = [str(name) for name, body in (meta.get("powers") or {}).items()
                    if isinstance(body, Mapping) and body.get("favor")]
    if favor_powers and "nuclear_powers" not in components:
        raw = meta["powers"][favor_powers[0]]
        reader.problem(reader.origin("powers"), line_of(raw, "favor"),
                       f"{favor_powers[0]}: 'favor' is Favor with nuclear powers, read only "
                       "with the 'nuclear_powers' component (Dissolution §7)",
                       "add nuclear_powers to components: and the powers under nuclear:, "
                       "or remove 'favor'")
    for component, (needs, why) in COMPONENT_NEEDS.items():
        if component not in components:
            continue
        for needed in needs:
            if needed not in components:
                reader.problem(f, listed, f"the '{component}' component needs '{needed}': "
                               f"{why}", f"add {needed} to components:")
    if "nuclear_powers" in components and not meta.get("nuclear"):
        reader.problem(f, listed, "the 'nuclear_powers' component needs its powers under "
                       "'nuclear:' (Dissolution §8)", "add nuclear: (docs/variant-format.md), "
                       "or remove nuclear_powers from components:")
    if has_favor_file and "favor_map" not in components:
        reader.problem("favor.yaml", None, "favor.yaml is read only with the 'favor_map' "
                       "component (Dissolution §11)", "add favor_map to components:, or "
                       "remove favor.yaml")


def check_neutral_centres(reader: Reader, meta: Mapping[str, Any], components: frozenset[str],
                          game_map: GameMap, claimed: Mapping[str, str]) -> None:
    """With ``minor_powers``, every neutral centre (a centre no power has as a home)
    starts with a minor power's unit, so it needs an entry in ``minors:`` (S9 §9.0,
    OOD §6.11). A centre named there, even wrongly, is not missing (that entry's own
    problem is reported)."""
    if "minor_powers" not in components:
        return
    raw = meta.get("minors")
    named = {str(k) for k in raw} if isinstance(raw, Mapping) else set()
    missing = [p for p, v in game_map.provinces.items()
               if v.is_sc and p not in claimed and p not in named]
    if not missing:
        return
    where = reader.origin("minors") if "minors" in meta else reader.origin("components")
    line = line_of(meta, "minors") if "minors" in meta else (
        line_of(meta, "components") if "components" in meta else None)
    example = ", ".join(f"{p}: A" for p in missing[:3])
    reader.problem(where, line, f"with 'minor_powers' every neutral centre needs a minor "
                   f"power's unit under 'minors:' (S9 §9.0); missing: {', '.join(missing)}",
                   f"add each to minors: with its unit type, A or F ({example}"
                   f"{', ...' if len(missing) > 3 else ''})")


def check_allotment_source(reader: Reader, meta: Mapping[str, Any],
                           components: frozenset[str], powers: Mapping[str, Power]) -> None:
    """Without ``dp_allotment`` a power's DP follow S9 §9.2 (OOD §9.2): 1 for its own
    capital, 1 for an unmarried heir there, 1 per thrall or vassal. A power without a
    capital would get none at the start."""
    if "diplomacy_points" not in components or meta.get("dp_allotment"):
        return
    f = reader.origin("powers")
    raw = meta.get("powers") or {}
    for power in powers.values():
        if power.kind == "major" and not power.capital:
            reader.problem(f, line_of(raw, power.name),
                           f"{power.name} has no capital, so it gets no DP: without "
                           "'dp_allotment' DP are allotted by S9 §9.2 (1 for the power's "
                           "own capital, 1 for an unmarried heir there, 1 per thrall or "
                           "vassal)", "give it a capital: (one of its homes), or allot DP "
                           "by units with dp_allotment: (Dissolution §5.2)")
