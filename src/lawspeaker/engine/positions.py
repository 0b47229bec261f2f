"""Reading a saved position a person may have edited, checked against its variant.

:meth:`Position.from_json` trusts its input; :func:`read_position` does not.
A truncated file, a hand edit that names an unknown province or power, a unit
type ``X``, two units in one space, a missing key or a position saved from
another variant each give one :class:`PositionError` saying what is wrong and
where, as a JSON path (``units[3].location``), before anything is adjudicated.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..core.board import PhaseKind, Position
from ..core.geography import UnitType
from ..variants import Variant

__all__ = ["PositionError", "read_position"]


class PositionError(ValueError):
    """A position that cannot be used: the message says what and where."""

    def __init__(self, where: str, message: str) -> None:
        self.where = where
        self.reason = message
        super().__init__(f"{where}: {message}" if where else message)


_KINDS = {"minor", "thrall", "vassal"}


def read_position(variant: Variant, text: str | bytes) -> Position:
    """The position saved in ``text`` (JSON), checked against ``variant``.

    Raises :class:`PositionError` (a ``ValueError``) for anything that is not
    a position of this variant.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise PositionError("", f"not a position file: not UTF-8 text (byte "
                                    f"{exc.start + 1})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        truncated = exc.pos >= len(text.rstrip()) - 1 or (
            exc.msg.startswith("Unterminated string") and "\n" not in text[exc.pos:])
        what = "the file ends too early" if truncated else exc.msg
        raise PositionError(f"line {exc.lineno} column {exc.colno}",
                            f"not valid JSON ({what})") from None
    except RecursionError:
        raise PositionError("", "not valid JSON (nested too deeply)") from None
    _Checker(variant).check(data)
    try:
        return Position.from_dict(data)
    except ValueError as exc:  # pragma: no cover - the checks above catch these first
        raise PositionError("", str(exc)) from None


class _Checker:
    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.map = variant.map

    def check(self, data: Any) -> None:
        if not isinstance(data, Mapping):
            raise PositionError("", "a position is a JSON object ({...})")
        name = self.need(data, "variant", str, "")
        if name != self.variant.name:
            raise PositionError("variant", f"this is a position of '{name}', not of "
                                f"'{self.variant.name}'")
        phase = self.need(data, "phase", Mapping, "")
        self.need(phase, "season", str, "phase")
        year = phase.get("year")
        if not isinstance(year, int) or isinstance(year, bool):
            raise PositionError("phase.year", f"expected a whole number, found {year!r}")
        kind = self.need(phase, "kind", str, "phase")
        if kind not in {k.value for k in PhaseKind}:
            raise PositionError("phase.kind", f"unknown phase kind '{kind}' (kinds: "
                                + ", ".join(k.value for k in PhaseKind) + ")")
        seasons = {s for s, _ in self.variant.phases}
        if phase["season"] not in seasons:
            raise PositionError("phase.season", f"unknown season '{phase['season']}' in "
                                f"{self.variant.title} (seasons: {', '.join(sorted(seasons))})")
        in_play = self.powers_in_play(data.get("powers_in_play", {}))
        self.powers = set(self.variant.powers) | set(in_play)
        occupied: dict[str, str] = {}
        for i, unit in enumerate(self.listing(data, "units")):
            where = f"units[{i}]"
            text = self.unit(unit, where)
            province = unit["location"].split("/")[0]
            if province in occupied:
                raise PositionError(where, f"two units in {self.map.name_of(province)}: "
                                    f"{occupied[province]} and {text}")
            occupied[province] = text
        for i, unit in enumerate(self.listing(data, "dislodged")):
            self.unit(unit, f"dislodged[{i}]")
            if unit.get("attacker_from") is not None:
                self.province(unit["attacker_from"], f"dislodged[{i}].attacker_from")
        owners = data.get("owners", {})
        if not isinstance(owners, Mapping):
            raise PositionError("owners", "expected an object of centre: power")
        for prov, owner in owners.items():
            key = self.province(prov, f"owners.{prov}")
            if not self.map.provinces[key].is_sc:
                raise PositionError(f"owners.{prov}", f"{self.map.name_of(key)} is not a "
                                    "supply centre")
            self.power(owner, f"owners.{prov}")
        for i, heir in enumerate(self.listing(data, "heirs")):
            where = f"heirs[{i}]"
            if not isinstance(heir, Mapping):
                raise PositionError(where, "an heir is an object with power and location")
            if self.need(heir, "power", str, where) not in self.variant.powers:
                raise PositionError(f"{where}.power", self.unknown_power(heir["power"]))
            self.province(self.need(heir, "location", str, where), f"{where}.location")
        for i, name in enumerate(self.listing(data, "standoffs")):
            self.province(name, f"standoffs[{i}]")
        result = data.get("result")
        if result is not None and not isinstance(result, str):
            raise PositionError("result", f"expected text or null, found {result!r}")
        for key in ("heir_built",):
            value = data.get(key, {})
            if not isinstance(value, Mapping) or not all(
                    isinstance(v, int) and not isinstance(v, bool) for v in value.values()):
                raise PositionError(key, "expected an object of power: year")
        for key in ("marriages", "dropped"):
            for i, item in enumerate(self.listing(data, key)):
                if key == "dropped" and (not isinstance(item, str)
                                         or item not in self.variant.powers):
                    raise PositionError(f"dropped[{i}]", self.unknown_power(item))
                if key == "marriages" and not (isinstance(item, Mapping) and all(
                        isinstance(item.get(k), str) for k in ("giver", "receiver", "location"))):
                    raise PositionError(f"marriages[{i}]",
                                        "a marriage has giver, receiver and location")

    # --- pieces ------------------------------------------------------------------

    def need(self, data: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
        path = f"{where}.{key}" if where else key
        if key not in data:
            raise PositionError(path, "missing")
        value = data[key]
        if not isinstance(value, kind):
            names: dict[object, str] = {str: "text", Mapping: "an object", list: "a list"}
            expected = names.get(kind, "?")
            raise PositionError(path, f"expected {expected}, found {value!r}")
        return value

    def listing(self, data: Mapping[str, Any], key: str) -> list[Any]:
        value = data.get(key, [])
        if not isinstance(value, list):
            raise PositionError(key, f"expected a list, found {type(value).__name__}")
        return value

    def powers_in_play(self, raw: Any) -> dict[str, Any]:
        if not isinstance(raw, Mapping):
            raise PositionError("powers_in_play", "expected an object of name: state")
        for name, state in raw.items():
            where = f"powers_in_play.{name}"
            if not isinstance(state, Mapping):
                raise PositionError(where, "expected an object with kind and controllers")
            kind = self.need(state, "kind", str, where)
            if kind not in _KINDS:
                raise PositionError(f"{where}.kind", f"unknown kind '{kind}' (kinds: "
                                    f"{', '.join(sorted(_KINDS))})")
            controllers = state.get("controllers", [])
            if not isinstance(controllers, list):
                raise PositionError(f"{where}.controllers", "expected a list of powers")
            for i, c in enumerate(controllers):
                if not isinstance(c, str) or c not in self.variant.powers:
                    raise PositionError(f"{where}.controllers[{i}]", self.unknown_power(c))
            capital = state.get("capital")
            if capital is not None:
                self.province(capital, f"{where}.capital")
        return dict(raw)

    def unit(self, unit: Any, where: str) -> str:
        if not isinstance(unit, Mapping):
            raise PositionError(where, "a unit is an object with power, type and location")
        self.power(self.need(unit, "power", str, where), f"{where}.power")
        utype = self.need(unit, "type", str, where)
        types = {t.value for t in UnitType}
        if utype not in types:
            raise PositionError(f"{where}.type", f"unknown unit type '{utype}' (types: "
                                f"{', '.join(sorted(types))})")
        location = self.need(unit, "location", str, where)
        province = self.province(location.split("/")[0], f"{where}.location")
        if "/" in location and location not in self.map.provinces[province].locations:
            raise PositionError(f"{where}.location", f"{self.map.name_of(province)} has no "
                                f"coast '{location.split('/', 1)[1]}'")
        return f"{utype} {self.map.name_of(location)}"

    def province(self, key: Any, where: str) -> str:
        if not isinstance(key, str) or key not in self.map.provinces:
            raise PositionError(where, f"unknown province {key!r} in {self.variant.title}")
        return key

    def power(self, name: Any, where: str) -> None:
        if not isinstance(name, str) or name not in self.powers:
            raise PositionError(where, self.unknown_power(name))

    def unknown_power(self, name: Any) -> str:
        try:
            self.variant.power_named(str(name))
        except ValueError as exc:
            return str(exc)
        return f"'{name}' is not the power's full name ({self.variant.power_named(str(name))})"
