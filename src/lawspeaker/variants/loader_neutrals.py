"""The variant loader's part for neutral powers beyond S9's minors: nuclear
powers and their limits (Dissolution §3.6, §8, §9), minor colours and pairs
(§3.5), starting Favor (§7) and the DP allotment formula (§5.2). Mixed into
:class:`lawspeaker.variants.loader.Loader`, which keeps the map and the core variant.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.geography import GameMap, UnitType
from .model import NuclearPower, Power

__all__ = ["NeutralsMixin"]


def _line(node: Any, key: Any = None) -> int | None:
    """1-based line of ``node`` (or of ``key`` inside it), when known."""
    lc = getattr(node, "lc", None)
    if lc is None:
        return None
    try:
        if key is None:
            return int(lc.line) + 1
        if isinstance(key, int):
            return int(lc.item(key)[0]) + 1
        return int(lc.key(key)[0]) + 1
    except (KeyError, IndexError, TypeError):
        return int(lc.line) + 1


class NeutralsMixin:
    """``nuclear:``, ``minor_colours:``, ``minor_pairs:``, ``favor:`` and ``dp_allotment:``."""

    def read_nuclear(self, meta: Mapping[str, Any], game_map: GameMap,
                     components: frozenset[str]) -> dict[str, NuclearPower]:
        """``nuclear:`` power -> abbreviation, colour, territories, units, mobile
        (Dissolution §3.6, §8). Needs the ``nuclear_powers`` component."""
        f = self.origin("nuclear")
        raw = self.mapping(f, meta, "nuclear", "variant")
        if raw and "nuclear_powers" not in components:
            self.problem(f, _line(meta, "nuclear"),
                         "'nuclear' needs the 'nuclear_powers' component")
            return {}
        out: dict[str, NuclearPower] = {}
        for name, body in raw.items():
            line = _line(raw, name)
            name = str(name)
            if not isinstance(body, Mapping):
                self.problem(f, line, f"{name}: must be a mapping")
                continue
            territories = tuple(t for _, t in self.items(f, body, "territories", name))
            for t in territories:
                if t not in game_map.provinces:
                    self.problem(f, _line(body, "territories"), f"{name}: territory '{t}' "
                                 "is not a province")
            mobile = bool(body.get("mobile", False))
            barred = tuple(t for _, t in self.items(f, body, "barred", name))
            spares = tuple(str(t) for _, t in self.items(f, body, "spares", name))
            for t in barred:
                if t not in game_map.provinces:
                    self.problem(f, _line(body, "barred"), f"{name}: barred '{t}' is not a "
                                 "province")
            for t in spares:
                if t not in raw:
                    self.problem(f, _line(body, "spares"), f"{name}: spares '{t}', which is "
                                 "not a nuclear power")
            units = []
            for i, text in self.items(f, body, "units", name):
                unit = self.parse_unit(f, _line(body["units"], i), name, text, game_map,
                                       stationary=not mobile)
                if unit is not None:
                    units.append(unit)
            out[name] = NuclearPower(name, str(body.get("abbreviation", name[:2].upper())),
                                     str(body.get("colour", "#808080")), territories,
                                     tuple(units), mobile, barred, spares,
                                     bool(body.get("cohesion", True)),
                                     bool(body.get("deception", True)))
        return out

    def read_minor_groups(self, meta: Mapping[str, Any], minors: Mapping[str, UnitType]
                          ) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
        """``minor_colours: {tan: [...], bronze: [...]}`` and ``minor_pairs:
        {Libya: [ben, trp]}`` (Dissolution §3.5); every centre named must be a minor's.
        Paired minors are coloured ``chocolate``."""
        colours: dict[str, str] = {}
        pairs: dict[str, tuple[str, ...]] = {}
        for key in ("minor_colours", "minor_pairs"):
            f = self.origin(key)
            raw = self.mapping(f, meta, key, "variant")
            for group, _ in raw.items():
                centres = tuple(c for _, c in self.items(f, raw, group, key))
                for c in centres:
                    if c not in minors:
                        self.problem(f, _line(raw, group), f"{key}.{group}: '{c}' is not a "
                                     "minor power's centre")
                if key == "minor_pairs":
                    if len(centres) != 2:
                        self.problem(f, _line(raw, group), f"minor_pairs.{group}: a paired "
                                     "minor has two centres")
                    pairs[str(group)] = centres
                    colours.update(dict.fromkeys(centres, "chocolate"))
                else:
                    colours.update(dict.fromkeys(centres, str(group)))
        return colours, pairs

    def read_favor(self, meta: Mapping[str, Any], powers: Mapping[str, Power],
                   nuclear: Mapping[str, NuclearPower]) -> dict[str, dict[str, int]]:
        """``favor:`` in each power: nuclear power -> starting Favor 0-5 (Dissolution §7)."""
        f = self.origin("powers")
        raw_powers = self.mapping(f, meta, "powers", "variant")
        out: dict[str, dict[str, int]] = {}
        for name in powers:
            body = raw_powers.get(name)
            raw = self.mapping(f, body, "favor", name)
            values: dict[str, int] = {}
            for other, value in raw.items():
                if str(other) not in nuclear:
                    self.problem(f, _line(raw, other), f"{name}: favor with '{other}', "
                                 "which is not a nuclear power")
                elif not isinstance(value, int) or not 0 <= value <= 5:
                    self.problem(f, _line(raw, other), f"{name}: favor must be 0 to 5")
                else:
                    values[str(other)] = value
            if values:
                out[name] = values
        return out

    def read_allotment(self, meta: Mapping[str, Any]) -> dict[str, int]:
        """``dp_allotment:`` how many DP each player gets, when not the S9 §9.2
        formula (Dissolution §5.2-§5.3): ``per_unit``, ``unit_cap``, ``oil``,
        ``minimum``, ``exile``, each a whole number."""
        f = self.origin("dp_allotment")
        raw = self.mapping(f, meta, "dp_allotment", "variant")
        out: dict[str, int] = {}
        for key, value in raw.items():
            if str(key) not in _ALLOTMENT_KEYS:
                self.problem(f, _line(raw, key), f"dp_allotment: unknown key '{key}' (keys: "
                             f"{', '.join(_ALLOTMENT_KEYS)})")
            elif not isinstance(value, int) or value < 0:
                self.problem(f, _line(raw, key), f"dp_allotment.{key} must be a whole number")
            else:
                out[str(key)] = value
        return out


_ALLOTMENT_KEYS = ("per_unit", "unit_cap", "oil", "minimum", "exile")
