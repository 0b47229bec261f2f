"""Reading a variant folder's YAML files into a :class:`~lawspeaker.variants.Variant`.

Every check records a :class:`~lawspeaker.variants.Problem` with its file
and line instead of stopping, so ``lawspeaker map check`` reports them all.

:func:`load` reads ``variant.yaml`` (and its ``base``), the map, and then the
variant one section at a time: each top-level key has its function, which is
given the folder's :class:`~lawspeaker.variants.loader_yaml.Reader` (the one
list of problems, and where each key came from) and what it is checked against,
and returns its part of the :class:`Variant`. The map is in
:mod:`~lawspeaker.variants.loader_map`, the neutral powers' sections in
:mod:`~lawspeaker.variants.loader_neutrals`, ``favor.yaml`` in
:mod:`~lawspeaker.variants.loader_favor`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..core.board import PhaseKind, Unit
from ..core.geography import GameMap, UnitType, province_of
from ..core.ruleset import Rules
from .loader_base import merge_bases
from .loader_components import (
    check_allotment_source,
    check_components,
    check_keys,
    check_neutral_centres,
)
from .loader_favor import check_favor
from .loader_map import build_map, read_seeds
from .loader_neutrals import read_allotment, read_favor, read_minor_groups, read_nuclear
from .loader_units import UnitReader
from .loader_yaml import Reader, line_of
from .model import KNOWN_COMPONENTS, Power, Problem, Variant, YearNames

__all__ = ["load"]


def load(directory: Path) -> tuple[Variant | None, list[Problem]]:
    """The variant in ``directory`` (``None`` if it has any problem) and every problem."""
    reader = Reader(directory)
    meta = reader.read("variant.yaml")
    if not isinstance(meta, Mapping):
        if meta is not None:
            reader.problem("variant.yaml", None, "must be a mapping")
        return None, reader.problems
    if not merge_bases(reader, meta):  # `base: standard` or `base: ../other`
        return None, reader.problems
    check_keys(reader, meta)
    map_file = str(meta.get("map", "map.yaml"))
    data = reader.read(map_file)
    if not isinstance(data, Mapping) or not isinstance(data.get("provinces"), Mapping):
        if data is not None:
            reader.problem(map_file, None, "must have a 'provinces' mapping")
        return None, reader.problems
    try:
        game_map = build_map(reader, map_file, data["provinces"])
        variant = build_variant(reader, meta, game_map)
        seeds = read_seeds(reader, map_file, data.get("seeds"), game_map)
        if seeds:  # extra points the territories grow from (docs/maps.md)
            variant = dataclasses.replace(variant, seeds=seeds)
        if variant.uses("favor_map") and reader.favor_file is None:
            reader.problem("favor.yaml", None, "the 'favor_map' component reads the Favor "
                           "board from favor.yaml beside variant.yaml (Dissolution §11), "
                           "and there is none", "add favor.yaml (docs/variant-format.md), "
                           "or remove favor_map from components:")
        elif variant.uses("favor_map"):  # Dissolution §11: the Favor board is data too
            check_favor(variant, reader.read(reader.favor_file or "favor.yaml"),
                        reader.problem)
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        # Anything not caught by a specific check still becomes a problem.
        reader.problem("variant.yaml", None, f"could not read the variant: {exc!r}")
        return None, reader.problems
    return (None if reader.problems else variant), reader.problems


def build_variant(reader: Reader, meta: Mapping[str, Any], game_map: GameMap) -> Variant:
    """The sections of ``variant.yaml`` on ``game_map``, in the order their problems
    are reported (a section is checked against the ones read before it)."""
    provs = game_map.provinces
    units = UnitReader(reader, game_map)
    rules, rules_ok = read_rules(reader, meta)
    cal = reader.mapping(reader.origin("calendar"), meta, "calendar", "variant")
    phases = read_phases(reader, meta, cal)
    powers, starting, claimed = read_powers(reader, units, meta, game_map)
    occupied = {u.province for u in starting}
    scs = sum(1 for p in provs.values() if p.is_sc)
    if rules_ok and rules.victory_centres > scs:
        reader.problem(reader.origin("rules"), line_of(meta, "rules"),
                       "victory_centres exceeds the number of centres")
    year_names = read_year_names(reader, cal)
    minors, minor_locations = read_minors(reader, meta, game_map, claimed)
    components = read_components(reader, meta)
    nuclear = read_nuclear(reader, units, meta, game_map, components)
    for n in nuclear.values():
        for u in n.units:
            if u.province in occupied or u.province in minors:
                reader.problem(reader.origin("nuclear"), line_of(meta, "nuclear"),
                               f"{n.name}: a second starting unit in {u.province}")
            occupied.add(u.province)
    if units.wings_used and "wings" not in components:
        reader.problem(reader.origin("powers"), units.wings_used if units.wings_used > 0 else None,
                       "wing units (W) need the 'wings' component (Dissolution §3.3)",
                       "add wings to components:, or make the unit an A or F")
    minor_colours, minor_pairs = read_minor_groups(reader, meta, minors)
    favor = read_favor(reader, meta, powers, nuclear) if "nuclear_powers" in components else {}
    heirs = starting_heirs(reader, meta, components, powers, minors)
    check_components(reader, meta, components, reader.favor_file is not None)
    check_neutral_centres(reader, meta, components, game_map, claimed)
    check_allotment_source(reader, meta, components, powers)
    thralls = sum(1 for p, where in heirs.items() if where != powers[p].capital)
    check_expected(reader, meta, {
        "provinces": len(provs), "supply_centres": scs, "powers": len(powers),
        "home_centres": len(claimed), "thralls": thralls,
        "minor_powers": len(minors) - thralls, "starting_units": len(starting),
        "nuclear_powers": len(nuclear),
        "nuclear_units": sum(len(n.units) for n in nuclear.values()),
        "oil_centres": sum(1 for p in provs.values() if "oil" in p.flags),
        "centre_values": sum(p.sc_value for p in provs.values()),
    })
    first_year = read_first_year(reader, cal)
    phase_names = {str(k): str(v) for k, v in (cal.get("phase_names", {}) or {}).items()}
    dp_allotment = read_allotment(reader, meta)
    return Variant(
        name=str(meta.get("name", reader.dir.name)),
        title=str(meta.get("title", reader.dir.name)),
        map=game_map, powers=powers, starting_units=tuple(starting), rules=rules,
        phases=tuple(phases), first_year=first_year,
        reconstructed=bool(meta.get("reconstructed", False)), path=reader.dir,
        year_names=year_names, phase_names=phase_names,
        components=components, minors=minors, minor_locations=minor_locations,
        heirs=heirs, nuclear=nuclear, minor_colours=minor_colours, minor_pairs=minor_pairs,
        favor=favor, dp_allotment=dp_allotment, **read_rulebook(reader, meta),
        favor_path=(reader.dir / reader.favor_file).resolve()
        if reader.favor_file and "favor_map" in components else None,
    )


def read_rules(reader: Reader, meta: Mapping[str, Any]) -> tuple[Rules, bool]:
    """``rules:`` the variant's rules options, and whether they could be read (when not,
    the defaults stand in, and the checks that need them are skipped)."""
    f = reader.origin("rules")
    try:
        return Rules.from_mapping(reader.mapping(f, meta, "rules", "variant")), True
    except (TypeError, ValueError) as exc:
        reader.problem(f, line_of(meta, "rules"), str(exc))
        return Rules(), False


def read_phases(reader: Reader, meta: Mapping[str, Any], cal: Mapping[str, Any]
                ) -> list[tuple[str, PhaseKind]]:
    """``calendar.phases``: the year's phases, ``[Season, movement|retreat|adjustment]``."""
    f = reader.origin("calendar")
    phases: list[tuple[str, PhaseKind]] = []
    raw_phases = cal.get("phases") if isinstance(cal.get("phases"), list) else []
    for i, item in enumerate(raw_phases):
        try:
            phases.append((str(item[0]), PhaseKind(str(item[1]))))
        except (ValueError, IndexError, TypeError):
            reader.problem(f, line_of(cal.get("phases"), i),
                           "each phase is [Season, movement|retreat|adjustment]")
    if not phases:
        reader.problem(f, line_of(meta, "calendar"),
                       "calendar.phases must list the year's phases")
    return phases


def read_powers(reader: Reader, units: UnitReader, meta: Mapping[str, Any], game_map: GameMap
                ) -> tuple[dict[str, Power], list[Unit], dict[str, str]]:
    """``powers:`` the major powers, their starting units, and the home centres each
    claims (home -> power); a home claimed twice, or two units in one space, is reported."""
    provs = game_map.provinces
    f = reader.origin("powers")
    powers: dict[str, Power] = {}
    starting: list[Unit] = []
    raw_powers = reader.mapping(f, meta, "powers", "variant")
    unit_lines: dict[Unit, int | None] = {}
    for name, body, line in reader.entries(f, raw_powers):
        homes = tuple(h for _, h in reader.items(f, body, "homes", name))
        for h in homes:
            if h not in provs:
                reader.problem(f, line, f"{name}: home '{h}' is not a province")
            elif not provs[h].is_sc:
                reader.problem(f, line, f"{name}: home '{h}' is not a supply centre")
        capital = body.get("capital")
        if capital is not None and str(capital) not in homes:
            reader.problem(f, line_of(body, "capital"), f"{name}: capital must be a home centre")
        powers[name] = Power(
            name=name, adjective=str(body.get("adjective", name)),
            abbreviation=str(body.get("abbreviation", name[:1])),
            colour=str(body.get("colour", "#808080")),
            capital=str(capital) if capital is not None else None, homes=homes,
            kind=str(body.get("kind", "major")),
        )
        for i, text in reader.items(f, body, "units", name):
            unit_line = line_of(body["units"], i)
            unit = units.parse(f, unit_line, name, text)
            if unit is not None:
                starting.append(unit)
                unit_lines.setdefault(unit, unit_line)
    claimed: dict[str, str] = {}
    for p in powers.values():
        for h in p.homes:
            if h in claimed:
                reader.problem(f, line_of(raw_powers, p.name),
                               f"{p.name}: home '{h}' is also a home of {claimed[h]}")
            claimed[h] = p.name
    occupied: set[str] = set()
    for u in starting:
        if u.province in occupied:
            reader.problem(f, unit_lines.get(u), f"two starting units in {u.province}")
        occupied.add(u.province)
    return powers, starting, claimed


def read_year_names(reader: Reader, cal: Mapping[str, Any]) -> YearNames | None:
    """``calendar.year_names``: years named by cycle (start, step, format), if given."""
    names = cal.get("year_names")
    if names is None:
        return None
    try:
        year_names = YearNames(int(names["start"]), int(names["step"]), str(names["format"]))
        year_names.label(0)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        reader.problem(reader.origin("calendar"), line_of(cal, "year_names"),
                       f"year_names needs start, step and format: {exc}")
        return None
    return year_names


def read_components(reader: Reader, meta: Mapping[str, Any]) -> frozenset[str]:
    """``components:`` the rule components the variant switches on; unknown ones reported."""
    f = reader.origin("components")
    components = frozenset(c for _, c in reader.items(f, meta, "components", "variant"))
    for c in components - KNOWN_COMPONENTS:
        reader.problem(f, line_of(meta, "components"), f"unknown component '{c}' (known: "
                       f"{', '.join(sorted(KNOWN_COMPONENTS))})")
    return components


def read_minors(reader: Reader, meta: Mapping[str, Any], game_map: GameMap,
                claimed: Mapping[str, str]) -> tuple[dict[str, UnitType], dict[str, str]]:
    """``minors:`` centre -> ``A``/``F``, or a unit with its location (``F tol/wc``):
    the minor's unit type, and where it starts and rebuilds (OOD §8.2: on the coast
    it started on). A fleet on a split coast must name its coast."""
    f = reader.origin("minors")
    provs = game_map.provinces
    minors: dict[str, UnitType] = {}
    locations: dict[str, str] = {}
    raw_minors = reader.mapping(f, meta, "minors", "variant")
    for prov, value in raw_minors.items():
        line = line_of(raw_minors, prov)
        prov = str(prov)
        parts = str(value).split()
        letter = parts[0].upper() if parts else ""
        loc = parts[1].lower() if len(parts) == 2 else prov
        if prov not in provs or not provs[prov].is_sc:
            reader.problem(f, line, f"minor power in '{prov}': not a supply centre")
        elif prov in claimed:
            reader.problem(f, line, f"minor power in '{prov}': a home of {claimed[prov]}")
        elif letter not in ("A", "F") or len(parts) > 2:
            reader.problem(f, line, f"minor power in '{prov}': give a unit type, A or F, "
                           f"and optionally its location ('F {prov}'), not '{value}'")
        elif province_of(loc) != prov:
            reader.problem(f, line, f"minor power in '{prov}': its unit must stand in "
                           f"{prov}, not '{loc}'")
        elif letter == "F" and loc == prov and provs[prov].coasts:
            reader.problem(f, line, f"minor power in '{prov}': name the fleet's coast "
                           f"({', '.join('F ' + c for c in provs[prov].locations)})")
        elif not game_map.is_valid_location(UnitType(letter), loc):
            reader.problem(f, line, f"minor power in '{prov}': a {letter} cannot stand "
                           f"at '{loc}'")
        else:
            minors[prov] = UnitType(letter)
            locations[prov] = loc
    return minors, locations


def starting_heirs(reader: Reader, meta: Mapping[str, Any], components: frozenset[str],
                   powers: Mapping[str, Power], minors: Mapping[str, UnitType]
                   ) -> dict[str, str]:
    """``heirs:`` power -> capital or thrall centre; by default every major
    starts with an unmarried heir in its capital (S9 §6, §7.1)."""
    if "heirs" not in components:
        return {}  # 'heirs:' without the component: loader_components reports it
    raw = reader.mapping(reader.origin("heirs"), meta, "heirs", "variant")
    if not raw:
        return {p.name: p.capital for p in powers.values() if p.capital}
    heirs: dict[str, str] = {}
    for name, where in raw.items():
        line = line_of(raw, name)
        power = powers.get(str(name))
        where = str(where)
        if power is None:
            reader.problem(reader.origin("heirs"), line, f"heir of unknown power '{name}'")
        elif not power.capital:
            reader.problem(reader.origin("heirs"), line, f"{name} has no capital for heirs")
        elif where != power.capital and where not in minors:
            reader.problem(reader.origin("heirs"), line,
                           f"{name}'s heir must start in its capital {power.capital} or "
                           f"married in a minor power's centre, not '{where}'")
        elif where in heirs.values():
            reader.problem(reader.origin("heirs"), line, f"{name}'s heir starts in '{where}', "
                           "where another power's heir already is")
        else:
            heirs[power.name] = where
    return heirs


def read_first_year(reader: Reader, cal: Mapping[str, Any]) -> int:
    """``calendar.first_year``, 1 unless given."""
    f = reader.origin("calendar")
    value = cal.get("first_year", 1)
    if not isinstance(value, int):
        reader.problem(f, line_of(cal, "first_year"), "calendar.first_year must be a whole number")
        return 1
    return value


def check_expected(reader: Reader, meta: Mapping[str, Any], actual: Mapping[str, int]) -> None:
    """Compare the ``expect:`` counts with the data; an unknown count is a problem."""
    f = reader.origin("expect")
    expected = reader.mapping(f, meta, "expect", "variant")
    for what in expected:
        if what not in actual:
            reader.problem(f, line_of(expected, what), f"unknown count expect.{what} "
                           f"(counts: {', '.join(actual)})")
    for what, count in actual.items():
        if what not in expected:
            continue
        if not isinstance(expected[what], int):
            reader.problem(f, line_of(expected, what), f"expect.{what} must be a whole number")
        elif expected[what] != count:
            reader.problem(f, line_of(expected, what),
                           f"expected {expected[what]} {what.replace('_', ' ')}, found {count}",
                           "" if f == "variant.yaml" else "these counts are the base's: set "
                           "this variant's own expect: in its variant.yaml (expect: {} "
                           "checks none)")


def read_rulebook(reader: Reader, meta: Mapping[str, Any]) -> dict[str, Any]:
    """``rulebook: {name: OOD, sections: {"3.4": "3.3"}}``: how texts cite
    the variant's own rulebook (see Variant.cite)."""
    raw = meta.get("rulebook") or {}
    if not isinstance(raw, Mapping):
        reader.problem(reader.origin("rulebook"), line_of(meta, "rulebook"),
                       "rulebook must be a mapping with 'name' and 'sections'")
        return {}
    return {"rulebook": str(raw.get("name", "")),
            "sections": {str(k): str(v) for k, v in (raw.get("sections") or {}).items()}}
