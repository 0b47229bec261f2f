"""Reading a variant folder's YAML files into a :class:`~lawspeaker.variants.Variant`.

Every check records a :class:`~lawspeaker.variants.Problem` with its file
and line instead of stopping, so ``lawspeaker map check`` reports them all.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from ..core.board import PhaseKind, Unit
from ..core.geography import COAST_NAMES, GameMap, Province, Terrain, UnitType, province_of
from ..core.ruleset import Rules
from .loader_favor import check_favor
from .loader_neutrals import NeutralsMixin, _line
from .model import KNOWN_COMPONENTS, Power, Problem, Variant, YearNames


class Loader(NeutralsMixin):
    """Reads and validates one variant folder, collecting problems."""

    def __init__(self, directory: Path) -> None:
        self.dir = directory
        self.problems: list[Problem] = []
        self.inherited: dict[str, str] = {}
        self.wings_used: int | None = None
        """Line of the first starting wing, when there is one (it needs ``wings``)."""

    def problem(self, file: str, line: int | None, message: str) -> None:
        self.problems.append(Problem(file, line, message))

    def items(self, file: str, parent: Any, key: str, where: str) -> list[tuple[int, str]]:
        """The list under ``parent[key]`` as (index, text); a lone string or a
        mapping there is reported, not split into letters."""
        value = parent.get(key) if isinstance(parent, Mapping) else None
        if value is None:
            return []
        if isinstance(value, str) or not isinstance(value, list):
            self.problem(file, _line(parent, key), f"{where}: '{key}' must be a list, "
                         f"like [{value}]")
            return []
        return [(i, str(v)) for i, v in enumerate(value)]

    def mapping(self, file: str, parent: Any, key: str, where: str) -> Mapping[str, Any]:
        value = parent.get(key) if isinstance(parent, Mapping) else None
        if value is None:
            return {}
        if not isinstance(value, Mapping):
            self.problem(file, _line(parent, key), f"{where}: '{key}' must be a mapping")
            return {}
        return value

    def read(self, name: str) -> Any:
        path = self.dir / name
        if name.startswith("../") or "/" in name:
            path = (self.dir / name).resolve()
        try:
            return YAML(typ="rt").load(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            self.problem(name, None, "file not found")
        except YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            self.problem(name, mark.line + 1 if mark else None, f"not valid YAML: {exc}")
        return None

    def origin(self, key: str) -> str:
        """The file a top-level key of variant.yaml came from (it may be inherited)."""
        return self.inherited.get(key, "variant.yaml")

    def load(self) -> tuple[Variant | None, list[Problem]]:
        meta = self.read("variant.yaml")
        if not isinstance(meta, Mapping):
            if meta is not None:
                self.problem("variant.yaml", None, "must be a mapping")
            return None, self.problems
        if meta.get("base"):
            # `base: ../other`: take every top-level key this file does not set.
            base_file = f"{meta['base']}/variant.yaml"
            base = self.read(base_file)
            if not isinstance(base, Mapping):
                if base is not None:
                    self.problem(base_file, None, "must be a mapping")
                return None, self.problems
            for key, value in base.items():
                if key not in meta and key != "name":
                    meta[key] = f"{meta['base']}/{value}" if key == "map" else value
                    self.inherited[key] = base_file
            meta.setdefault("map", f"{meta['base']}/map.yaml")
        map_file = str(meta.get("map", "map.yaml"))
        data = self.read(map_file)
        if not isinstance(data, Mapping) or not isinstance(data.get("provinces"), Mapping):
            if data is not None:
                self.problem(map_file, None, "must have a 'provinces' mapping")
            return None, self.problems
        try:
            game_map = self.build_map(map_file, data["provinces"])
            variant = self.build_variant(meta, game_map)
            if variant.uses("favor_map"):  # Dissolution §11: the Favor board is data too
                check_favor(variant, self.read("favor.yaml"), self.problem)
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            # Anything not caught by a specific check still becomes a problem.
            self.problem("variant.yaml", None, f"could not read the variant: {exc!r}")
            return None, self.problems
        return (None if self.problems else variant), self.problems

    # --- map ----------------------------------------------------------------

    def build_map(self, file: str, raw: Mapping[str, Any]) -> GameMap:
        provinces: list[Province] = []
        army: dict[str, set[str]] = {}
        fleet: dict[str, set[str]] = {}
        both_declared: dict[str, set[str]] = {}
        link_lines: dict[tuple[str, str, str], int | None] = {}
        for key, body in raw.items():
            line = _line(raw, key)
            key = str(key)
            if key != key.lower() or "/" in key or " " in key:
                self.problem(file, line,
                             f"province key '{key}' must be lower-case, no '/' or spaces")
            if not isinstance(body, Mapping):
                self.problem(file, line, f"{key}: must be a mapping")
                continue
            try:
                terrain = Terrain(str(body.get("type", "")))
            except ValueError:
                self.problem(file, line, f"{key}: type must be one of "
                             f"{', '.join(t.value for t in Terrain)}")
                terrain = Terrain.LAND
            coasts = tuple(c for _, c in self.items(file, body, "coasts", key))
            for c in coasts:
                if c not in COAST_NAMES:
                    self.problem(file, _line(body, "coasts"), f"{key}: unknown coast '{c}'")
            if coasts and terrain is not Terrain.COASTAL:
                self.problem(file, _line(body, "coasts"), f"{key}: only coastal spaces have coasts")
            flags = frozenset(f for _, f in self.items(file, body, "flags", key))
            for word in ("canal", "island"):
                if body.get(word):
                    flags |= {word}
            can_convoy = bool(body.get("convoy", terrain is Terrain.SEA and
                                       not flags & {"canal", "island"}))
            xy = body.get("xy")
            if xy is not None and (len(xy) != 2 or not all(isinstance(v, int | float) for v in xy)):
                self.problem(file, _line(body, "xy"), f"{key}: xy must be two numbers")
                xy = None
            sc = body.get("sc", 0) or 0
            if not isinstance(sc, int) or sc < 0:
                self.problem(file, _line(body, "sc"), f"{key}: sc must be a positive integer")
                sc = 0
            if "name" not in body:
                self.problem(file, line, f"{key}: missing 'name'")
            provinces.append(Province(
                key=key, name=str(body.get("name", key)), terrain=terrain, sc_value=sc,
                coasts=coasts, aliases=tuple(a for _, a in self.items(file, body, "aliases", key)),
                can_convoy=can_convoy, xy=tuple(xy) if xy else None, flags=flags,
            ))
            links = self.mapping(file, body, "links", key)
            for kind in links:
                if kind not in ("both", "army", "fleet"):
                    self.problem(file, _line(links, kind), f"{key}: unknown link list '{kind}'")
            for kind in ("both", "army"):
                for i, target in self.items(file, links, kind, key):
                    link_lines[(key, target, "army")] = _line(links[kind], i)
                    army.setdefault(key, set()).add(target)
                    if kind == "both":
                        link_lines[(key, target, "fleet")] = _line(links[kind], i)
                        both_declared.setdefault(key, set()).add(target)
            fl = links.get("fleet", ()) or ()
            if isinstance(fl, str):
                self.problem(file, _line(links, "fleet"), f"{key}: 'fleet' must be a list")
                fl = ()
            if isinstance(fl, Mapping):
                if not coasts:
                    self.problem(file, _line(links, "fleet"),
                                 f"{key}: per-coast fleet links but no coasts declared")
                for coast, targets in fl.items():
                    if str(coast) not in coasts:
                        self.problem(file, _line(fl, coast), f"{key}: undeclared coast '{coast}'")
                    loc = f"{key}/{coast}"
                    for i, target in enumerate(targets or ()):
                        link_lines[(loc, str(target), "fleet")] = _line(targets, i)
                        fleet.setdefault(loc, set()).add(str(target))
            else:
                if coasts and fl:
                    self.problem(file, _line(links, "fleet"),
                                 f"{key}: has coasts, so fleet links must be listed per coast")
                for i, target in enumerate(fl):
                    link_lines[(key, str(target), "fleet")] = _line(fl, i)
                    fleet.setdefault(key, set()).add(str(target))
            for target in both_declared.get(key, ()):
                fleet.setdefault(key, set()).add(target)
        game_map = GameMap.build(provinces, army, fleet)
        self.check_links(file, game_map, army, fleet, both_declared, link_lines)
        self.check_names(file, raw, game_map)
        return game_map

    def check_links(self, file: str, game_map: GameMap, army: dict[str, set[str]],
                    fleet: dict[str, set[str]], both: dict[str, set[str]],
                    lines: dict[tuple[str, str, str], int | None]) -> None:
        provs = game_map.provinces
        for src, targets in army.items():
            for dst in targets:
                at = lines.get((src, dst, "army"))
                if dst not in provs:
                    self.problem(file, at, f"{src}: links to unknown province '{dst}'")
                    continue
                if dst == src:
                    self.problem(file, at, f"{src}: links to itself")
                for end in (src, dst):
                    if provs[end].terrain in (Terrain.SEA, Terrain.IMPASSABLE):
                        self.problem(file, at, f"{src}-{dst}: army link touches "
                                     f"{provs[end].terrain.value} space {end}")
                        break
                if src not in army.get(dst, ()):
                    self.problem(file, at, f"{src}-{dst}: army link not listed under {dst}")
                elif (dst in both.get(src, ())) != (src in both.get(dst, ())):
                    self.problem(file, at, f"{src}-{dst}: 'both' on one side only; "
                                 f"list it under 'both' in {src} and {dst}")
        for src, targets in fleet.items():
            for dst in targets:
                at = lines.get((src, dst, "fleet"))
                dprov = provs.get(province_of(dst))
                if dprov is None:
                    self.problem(file, at, f"{src}: links to unknown province '{dst}'")
                    continue
                if province_of(dst) == province_of(src):
                    self.problem(file, at, f"{src}: links to its own province")
                if dprov.coasts and "/" not in dst:
                    self.problem(file, at, f"{src}: fleet link to '{dst}' must name a coast "
                                 f"({', '.join(dprov.locations)})")
                    continue
                if dst not in game_map.fleet_links:
                    self.problem(file, at, f"{src}: unknown location '{dst}'")
                    continue
                for end in (src, dst):
                    terrain = provs[province_of(end)].terrain
                    if terrain in (Terrain.LAND, Terrain.IMPASSABLE):
                        self.problem(file, at, f"{src}-{dst}: fleet link touches "
                                     f"{terrain.value} space {province_of(end)}")
                        break
                if src not in fleet.get(dst, ()):
                    self.problem(file, at, f"{src}-{dst}: fleet link not listed under {dst}")

    def check_names(self, file: str, raw: Mapping[str, Any], game_map: GameMap) -> None:
        from ..core.geography import normalise_name

        seen: dict[str, str] = {}
        for prov in game_map.provinces.values():
            for text in {prov.key, prov.name, *prov.aliases}:
                norm = normalise_name(text)
                owner = seen.setdefault(norm, prov.key)
                if owner != prov.key:
                    self.problem(file, _line(raw, prov.key),
                                 f"{prov.key}: name '{text}' is also used by {owner}")

    # --- variant ------------------------------------------------------------

    def build_variant(self, meta: Mapping[str, Any], game_map: GameMap) -> Variant:
        provs = game_map.provinces
        f = self.origin("rules")
        rules_ok = True
        try:
            rules = Rules.from_mapping(self.mapping(f, meta, "rules", "variant"))
        except (TypeError, ValueError) as exc:
            self.problem(f, _line(meta, "rules"), str(exc))
            rules, rules_ok = Rules(), False
        f = self.origin("calendar")
        cal = self.mapping(f, meta, "calendar", "variant")
        phases: list[tuple[str, PhaseKind]] = []
        raw_phases = cal.get("phases") if isinstance(cal.get("phases"), list) else []
        for i, item in enumerate(raw_phases):
            try:
                phases.append((str(item[0]), PhaseKind(str(item[1]))))
            except (ValueError, IndexError, TypeError):
                self.problem(f, _line(cal.get("phases"), i),
                             "each phase is [Season, movement|retreat|adjustment]")
        if not phases:
            self.problem(f, _line(meta, "calendar"), "calendar.phases must list the year's phases")
        f = self.origin("powers")
        powers: dict[str, Power] = {}
        units: list[Unit] = []
        raw_powers = self.mapping(f, meta, "powers", "variant")
        unit_lines: dict[Unit, int | None] = {}
        for name, body in raw_powers.items():
            line = _line(raw_powers, name)
            name = str(name)
            if not isinstance(body, Mapping):
                self.problem(f, line, f"{name}: must be a mapping")
                continue
            homes = tuple(h for _, h in self.items(f, body, "homes", name))
            for h in homes:
                if h not in provs:
                    self.problem(f, line, f"{name}: home '{h}' is not a province")
                elif not provs[h].is_sc:
                    self.problem(f, line, f"{name}: home '{h}' is not a supply centre")
            capital = body.get("capital")
            if capital is not None and str(capital) not in homes:
                self.problem(f, _line(body, "capital"), f"{name}: capital must be a home centre")
            powers[name] = Power(
                name=name, adjective=str(body.get("adjective", name)),
                abbreviation=str(body.get("abbreviation", name[:1])),
                colour=str(body.get("colour", "#808080")),
                capital=str(capital) if capital is not None else None, homes=homes,
                kind=str(body.get("kind", "major")),
            )
            for i, text in self.items(f, body, "units", name):
                unit_line = _line(body["units"], i)
                unit = self.parse_unit(f, unit_line, name, text, game_map)
                if unit is not None:
                    units.append(unit)
                    unit_lines.setdefault(unit, unit_line)
        claimed: dict[str, str] = {}
        for p in powers.values():
            for h in p.homes:
                if h in claimed:
                    self.problem(f, _line(raw_powers, p.name),
                                 f"{p.name}: home '{h}' is also a home of {claimed[h]}")
                claimed[h] = p.name
        occupied: set[str] = set()
        for u in units:
            if u.province in occupied:
                self.problem(f, unit_lines.get(u), f"two starting units in {u.province}")
            occupied.add(u.province)
        scs = sum(1 for p in provs.values() if p.is_sc)
        if rules_ok and rules.victory_centres > scs:
            self.problem(self.origin("rules"), _line(meta, "rules"),
                         "victory_centres exceeds the number of centres")
        f = self.origin("calendar")
        names = cal.get("year_names")
        year_names = None
        if names is not None:
            try:
                year_names = YearNames(int(names["start"]), int(names["step"]),
                                       str(names["format"]))
                year_names.label(0)
            except (KeyError, TypeError, ValueError, IndexError) as exc:
                self.problem(f, _line(cal, "year_names"),
                             f"year_names needs start, step and format: {exc}")
                year_names = None
        minors, minor_locations = self.read_minors(meta, game_map, claimed)
        f = self.origin("components")
        components = frozenset(c for _, c in self.items(f, meta, "components", "variant"))
        for c in components - KNOWN_COMPONENTS:
            self.problem(f, _line(meta, "components"), f"unknown component '{c}' (known: "
                         f"{', '.join(sorted(KNOWN_COMPONENTS))})")
        nuclear = self.read_nuclear(meta, game_map, components)
        for n in nuclear.values():
            for u in n.units:
                if u.province in occupied or u.province in minors:
                    self.problem(self.origin("nuclear"), _line(meta, "nuclear"),
                                 f"{n.name}: a second starting unit in {u.province}")
                occupied.add(u.province)
        if self.wings_used and "wings" not in components:
            self.problem(self.origin("powers"), self.wings_used if self.wings_used > 0 else None,
                         "wing units (W) need the 'wings' component")
        minor_colours, minor_pairs = self.read_minor_groups(meta, minors)
        favor = self.read_favor(meta, powers, nuclear)
        heirs = self.starting_heirs(f, meta, components, powers, minors)
        if "minor_powers" in components:
            neutral = [p for p, v in provs.items() if v.is_sc and p not in claimed]
            for p in neutral:
                if p not in minors:
                    self.problem(f, _line(meta, "minors"),
                                 f"neutral centre '{p}' has no minor power unit in 'minors'")
        thralls = sum(1 for p, where in heirs.items() if where != powers[p].capital)
        self.check_expected(meta, {
            "provinces": len(provs), "supply_centres": scs, "powers": len(powers),
            "home_centres": len(claimed), "thralls": thralls,
            "minor_powers": len(minors) - thralls, "starting_units": len(units),
            "nuclear_powers": len(nuclear),
            "nuclear_units": sum(len(n.units) for n in nuclear.values()),
            "oil_centres": sum(1 for p in provs.values() if "oil" in p.flags),
            "centre_values": sum(p.sc_value for p in provs.values()),
        })
        return Variant(
            name=str(meta.get("name", self.dir.name)), title=str(meta.get("title", self.dir.name)),
            map=game_map, powers=powers, starting_units=tuple(units), rules=rules,
            phases=tuple(phases), first_year=self.first_year(self.origin("calendar"), cal),
            reconstructed=bool(meta.get("reconstructed", False)), path=self.dir,
            year_names=year_names,
            phase_names={str(k): str(v) for k, v in (cal.get("phase_names", {}) or {}).items()},
            components=components, minors=minors, minor_locations=minor_locations,
            heirs=heirs, nuclear=nuclear, minor_colours=minor_colours, minor_pairs=minor_pairs,
            favor=favor, dp_allotment=self.read_allotment(meta), **self.rulebook(meta),
        )

    def rulebook(self, meta: Mapping[str, Any]) -> dict[str, Any]:
        """``rulebook: {name: OOD, sections: {"3.4": "3.3"}}``: how texts cite
        the variant's own rulebook (see Variant.cite)."""
        raw = meta.get("rulebook") or {}
        if not isinstance(raw, Mapping):
            self.problem(self.origin("rulebook"), _line(meta, "rulebook"),
                         "rulebook must be a mapping with 'name' and 'sections'")
            return {}
        return {"rulebook": str(raw.get("name", "")),
                "sections": {str(k): str(v) for k, v in (raw.get("sections") or {}).items()}}

    def check_expected(self, meta: Mapping[str, Any], actual: Mapping[str, int]) -> None:
        """Compare the ``expect:`` counts with the data; an unknown count is a problem."""
        f = self.origin("expect")
        expected = self.mapping(f, meta, "expect", "variant")
        for what in expected:
            if what not in actual:
                self.problem(f, _line(expected, what), f"unknown count expect.{what} "
                             f"(counts: {', '.join(actual)})")
        for what, count in actual.items():
            if what not in expected:
                continue
            if not isinstance(expected[what], int):
                self.problem(f, _line(expected, what), f"expect.{what} must be a whole number")
            elif expected[what] != count:
                self.problem(f, _line(expected, what),
                             f"expected {expected[what]} {what.replace('_', ' ')}, found {count}")

    def read_minors(self, meta: Mapping[str, Any], game_map: GameMap,
                    claimed: Mapping[str, str]) -> tuple[dict[str, UnitType], dict[str, str]]:
        """``minors:`` centre -> ``A``/``F``, or a unit with its location (``F tol/wc``):
        the minor's unit type, and where it starts and rebuilds (OOD §8.2: on the coast
        it started on). A fleet on a split coast must name its coast."""
        f = self.origin("minors")
        provs = game_map.provinces
        minors: dict[str, UnitType] = {}
        locations: dict[str, str] = {}
        raw_minors = self.mapping(f, meta, "minors", "variant")
        for prov, value in raw_minors.items():
            line = _line(raw_minors, prov)
            prov = str(prov)
            parts = str(value).split()
            letter = parts[0].upper() if parts else ""
            loc = parts[1].lower() if len(parts) == 2 else prov
            if prov not in provs or not provs[prov].is_sc:
                self.problem(f, line, f"minor power in '{prov}': not a supply centre")
            elif prov in claimed:
                self.problem(f, line, f"minor power in '{prov}': a home of {claimed[prov]}")
            elif letter not in ("A", "F") or len(parts) > 2:
                self.problem(f, line, f"minor power in '{prov}': give a unit type, A or F, "
                             f"and optionally its location ('F {prov}'), not '{value}'")
            elif province_of(loc) != prov:
                self.problem(f, line, f"minor power in '{prov}': its unit must stand in "
                             f"{prov}, not '{loc}'")
            elif letter == "F" and loc == prov and provs[prov].coasts:
                self.problem(f, line, f"minor power in '{prov}': name the fleet's coast "
                             f"({', '.join('F ' + c for c in provs[prov].locations)})")
            elif not game_map.is_valid_location(UnitType(letter), loc):
                self.problem(f, line, f"minor power in '{prov}': a {letter} cannot stand "
                             f"at '{loc}'")
            else:
                minors[prov] = UnitType(letter)
                locations[prov] = loc
        return minors, locations

    def starting_heirs(self, f: str, meta: Mapping[str, Any], components: frozenset[str],
                       powers: Mapping[str, Power], minors: Mapping[str, UnitType]
                       ) -> dict[str, str]:
        """``heirs:`` power -> capital or thrall centre; by default every major
        starts with an unmarried heir in its capital (S9 §6, §7.1)."""
        if "heirs" not in components:
            if meta.get("heirs"):
                self.problem(self.origin("heirs"), _line(meta, "heirs"),
                             "'heirs' needs the 'heirs' component")
            return {}
        for needed in ("minor_powers", "diplomacy_points"):
            if needed not in components:
                self.problem(f, _line(meta, "components"),
                             f"the 'heirs' component needs '{needed}' (heirs marry minor "
                             "powers, whose orders come from DP)")
        raw = self.mapping(self.origin("heirs"), meta, "heirs", "variant")
        if not raw:
            return {p.name: p.capital for p in powers.values() if p.capital}
        heirs: dict[str, str] = {}
        for name, where in raw.items():
            line = _line(raw, name)
            power = powers.get(str(name))
            where = str(where)
            if power is None:
                self.problem(self.origin("heirs"), line, f"heir of unknown power '{name}'")
            elif not power.capital:
                self.problem(self.origin("heirs"), line, f"{name} has no capital for heirs")
            elif where != power.capital and where not in minors:
                self.problem(self.origin("heirs"), line,
                             f"{name}'s heir must start in its capital {power.capital} or "
                             f"married in a minor power's centre, not '{where}'")
            elif where in heirs.values():
                self.problem(self.origin("heirs"), line, f"{name}'s heir starts in '{where}', "
                             "where another power's heir already is")
            else:
                heirs[power.name] = where
        return heirs

    def first_year(self, f: str, cal: Mapping[str, Any]) -> int:
        value = cal.get("first_year", 1)
        if not isinstance(value, int):
            self.problem(f, _line(cal, "first_year"), "calendar.first_year must be a whole number")
            return 1
        return value

    def parse_unit(self, f: str, line: int | None, power: str, text: str,
                   game_map: GameMap, stationary: bool = False) -> Unit | None:
        parts = text.split()
        if len(parts) != 2 or parts[0].upper() not in ("A", "F", "W"):
            self.problem(f, line, f"{power}: unit '{text}' must look like 'A par' or 'F stp/sc'"
                         " (or 'W asw' with wings)")
            return None
        utype = UnitType(parts[0].upper())
        if utype is UnitType.WING:
            self.wings_used = self.wings_used or line or -1
            stationary = True  # Dissolution §3.3 (1): wings are stationary units
        unit = Unit(power, utype, parts[1].lower(), stationary)
        if not game_map.is_valid_location(unit.type, unit.location):
            article = "an" if unit.type is UnitType.ARMY else "a"
            self.problem(f, line, f"{power}: {article} {unit.type.noun} cannot stand at "
                         f"'{unit.location}'")
            return None
        return unit
