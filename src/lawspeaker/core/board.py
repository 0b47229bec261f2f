"""Positions: an immutable, serialisable snapshot of a game at one phase.

A :class:`Position` holds everything the rules need to adjudicate the next
phase and nothing else: the phase, the units on the board, the units awaiting
retreat, the spaces left vacant by a standoff, and who owns each supply
centre. Adjudicating never changes a position; it returns a new one, so game
history, rollback and "what if" analysis are just lists of positions.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any, NamedTuple, TypeVar

from .geography import UnitType, province_of

__all__ = [
    "Dislodged",
    "Heir",
    "Marriage",
    "Phase",
    "PhaseKind",
    "Position",
    "PowerState",
    "Unit",
    "thawed",
]

_K = TypeVar("_K")
_V = TypeVar("_V")


class PhaseKind(StrEnum):
    MOVEMENT = "movement"
    RETREAT = "retreat"
    CENSUS = "census"
    """Bookkeeping without orders: captures, victory (S9 §2.1)."""
    ADJUSTMENT = "adjustment"


@dataclass(frozen=True, slots=True)
class Phase:
    season: str
    year: int
    kind: PhaseKind

    def __str__(self) -> str:
        return f"{self.season} {self.year} {self.kind.value}"


class _UnitFields(NamedTuple):
    power: str
    type: UnitType
    location: str
    """Province key, or ``province/coast`` for a fleet on a split coast."""
    stationary: bool
    """Never moves: a move is a sortie that always bounces, and it cannot
    retreat (the units of minor and thrall powers, S9 §7.2)."""
    province: str
    """The province of ``location``."""


class Unit(_UnitFields):
    """A unit on the board: ``Unit("France", UnitType.ARMY, "par")``.

    An immutable named tuple, because the resolver creates and compares
    many of them; ``province`` is derived from ``location``.
    """

    __slots__ = ()

    def __new__(cls, power: str, type: UnitType, location: str,
                stationary: bool = False) -> Unit:
        return tuple.__new__(cls, (power, type, location, stationary, province_of(location)))

    def moved_to(self, location: str, province: str) -> Unit:
        """This unit at ``location``, whose province is ``province`` (known to the
        resolver, which so saves working it out again for every move)."""
        return tuple.__new__(Unit, (self.power, self.type, location, self.stationary, province))

    def __getnewargs__(self) -> tuple[str, UnitType, str, bool]:  # type: ignore[override]
        return (self.power, self.type, self.location, self.stationary)

    def __repr__(self) -> str:
        extra = ", stationary=True" if self.stationary else ""
        return f"Unit({self.power!r}, UnitType.{self.type.name}, {self.location!r}{extra})"

    def __str__(self) -> str:
        return f"{self.type.value} {self.location}"


@dataclass(frozen=True, slots=True)
class PowerState:
    """A power that exists only during play (S9 §1.1): a minor neutral power,
    a thrall or a vassal. Major powers come from the variant and need no entry."""

    kind: str
    """``minor``, ``thrall`` (a minor married to a major's heir, §10.3) or
    ``vassal`` (created by two heirs' marriage, §10.4)."""
    controllers: tuple[str, ...] = ()
    """The major powers that control it: a thrall's one controller; a
    vassal's dowry giver then receiver, or its one surviving controller
    (§3.4 step 5)."""
    capital: str | None = None
    """A vassal's capital, its marriage location (§10.4)."""


class Heir(NamedTuple):
    """An heir (S9 §7.1): not a unit, never in combat, always in a supply centre.

    Unmarried, it lives in its power's capital and may be ordered to Hold or
    Marry; married, it stays where the marriage took place, a thrall's centre
    or a vassal's capital, until it is executed (§10.1, §10.2).
    """

    power: str
    location: str
    """Province key of the supply centre the heir is in."""
    married: bool = False

    def __str__(self) -> str:
        return f"Heir {self.power} {'married in' if self.married else 'in'} {self.location}"


class Marriage(NamedTuple):
    """A vassal marriage agreed in an Autumn orders phase, completed at the
    Census if its conditions still hold (S9 §10.4, §2.2 3d)."""

    giver: str
    """The dowry giver: the major power that owns ``location``."""
    receiver: str
    location: str


@dataclass(frozen=True, slots=True)
class Dislodged:
    """A unit that must retreat or disband this phase."""

    unit: Unit
    attacker_from: str | None
    """Province the dislodging unit came from overland; a unit may not retreat
    there. ``None`` when it came by convoy (2023 rules, DATC 4.A.5)."""


_EMPTY: Mapping[str, Any] = MappingProxyType({})
"""Every empty mapping of a position: nothing can be added to it, so one will do."""


def _frozen(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    if isinstance(mapping, MappingProxyType):
        return mapping  # already a private read-only copy
    return MappingProxyType(dict(mapping)) if mapping else _EMPTY


def thawed(mapping: Mapping[_K, _V]) -> dict[_K, _V]:
    """A mutable copy of one of a position's mappings. Its read-only view copies the
    dict behind it in one step; ``dict(view)`` would read it key by key, five times
    slower."""
    if isinstance(mapping, MappingProxyType):
        copy = mapping.copy()
        if type(copy) is dict:
            return copy
    return dict(mapping)


def _frozen_history(mapping: Mapping[str, Iterable[str]]) -> Mapping[str, tuple[str, ...]]:
    return MappingProxyType({k: tuple(sorted(set(v))) for k, v in mapping.items()})


def _frozen_favor(mapping: Mapping[str, Mapping[str, Any]]) -> Mapping[str, Mapping[str, Any]]:
    return MappingProxyType({k: MappingProxyType(dict(v)) for k, v in mapping.items()})


def _frozen_marks(mapping: Mapping[str, Iterable[str]]) -> Mapping[str, tuple[str, ...]]:
    """Kept in order and with repeats: an Embassy kicked twice is listed twice."""
    return MappingProxyType({k: tuple(v) for k, v in mapping.items() if v})


_FREEZE: dict[str, Callable[[Any], Any]] = {
    **dict.fromkeys(("units", "owners", "dislodged", "powers_in_play", "heir_built"), _frozen),
    **dict.fromkeys(("standoffs", "dropped", "exiles", "removed"), frozenset),
    "built_in": _frozen_history,
    "favor": _frozen_favor, "embassies": _frozen_favor,
    "kicked": _frozen_marks, "retaliated": _frozen_marks,
    "heirs": lambda heirs: tuple(sorted(Heir(*h) for h in heirs)),
    "marriages": lambda marriages: tuple(Marriage(*m) for m in marriages),
}
"""How :meth:`Position.replace` makes each changed field immutable, as the constructor does."""


@dataclass(frozen=True)
class Position:
    variant: str
    phase: Phase
    units: Mapping[str, Unit] = field(default_factory=dict)
    """Province key -> the unit in it."""
    owners: Mapping[str, str] = field(default_factory=dict)
    """Supply-centre province -> owning power. Unowned centres are absent."""
    dislodged: Mapping[str, Dislodged] = field(default_factory=dict)
    """Province the unit was dislodged from -> the dislodged unit."""
    standoffs: frozenset[str] = frozenset()
    """Provinces left vacant by a standoff in the last movement phase."""
    powers_in_play: Mapping[str, PowerState] = field(default_factory=dict)
    """Powers created during play (minor powers...), by name."""
    result: str | None = None
    """How the game ended (``Solo: Aesir``, ``Draw: ...``), or ``None``."""
    heirs: tuple[Heir, ...] = ()
    """Every living heir (S9 §7.1), sorted."""
    heir_built: Mapping[str, int] = field(default_factory=dict)
    """Major power -> the year of the last Winter it built an heir (S9 §8.3)."""
    marriages: tuple[Marriage, ...] = ()
    """Vassal marriages agreed this Autumn, awaiting the Census (S9 §10.4)."""
    dropped: frozenset[str] = frozenset()
    """Powers the GM will force into early elimination at the next Census
    (S9 §3.4.2, dropped players)."""
    built_in: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Player -> the centres it has built in, sorted (Dissolution §4.3: centres
    next to them become build locations, so the history must be kept)."""
    favor: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    """Player -> nuclear power -> Favor value (Dissolution §11.3); until the
    Favor Map is played these are plain numbers, starting at the §7 values."""
    embassies: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """Player -> nuclear power -> the space of its Embassy on the Favor Map
    (Dissolution §11.1, §11.3); with it, Favor values are read from the board."""
    kicked: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Player -> nuclear powers whose slice kicked its Embassy this Spring or
    Autumn (Dissolution §11.5.3-4: held, and fewer moves, in the Winter)."""
    retaliated: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Player -> nuclear powers whose Retaliation destroyed its units this year
    (Dissolution §11.5.3 (3))."""
    exiles: frozenset[str] = frozenset()
    removed: frozenset[str] = frozenset()
    """Eliminated players the GM stripped of their DP privileges, removing them
    from the game entirely (Dissolution §5.3)."""
    """Eliminated players still allocating DP as Players in Exile (Dissolution §5.3)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "powers_in_play", _frozen(self.powers_in_play))
        object.__setattr__(self, "units", _frozen(self.units))
        object.__setattr__(self, "owners", _frozen(self.owners))
        object.__setattr__(self, "dislodged", _frozen(self.dislodged))
        object.__setattr__(self, "standoffs", frozenset(self.standoffs))
        object.__setattr__(self, "heirs", tuple(sorted(Heir(*h) for h in self.heirs)))
        object.__setattr__(self, "heir_built", _frozen(self.heir_built))
        object.__setattr__(self, "marriages", tuple(Marriage(*m) for m in self.marriages))
        object.__setattr__(self, "dropped", frozenset(self.dropped))
        object.__setattr__(self, "built_in", _frozen_history(self.built_in))
        object.__setattr__(self, "favor", _frozen_favor(self.favor))
        object.__setattr__(self, "embassies", _frozen_favor(self.embassies))
        object.__setattr__(self, "kicked", _frozen_marks(self.kicked))
        object.__setattr__(self, "retaliated", _frozen_marks(self.retaliated))
        object.__setattr__(self, "exiles", frozenset(self.exiles))
        object.__setattr__(self, "removed", frozenset(self.removed))

    @classmethod
    def from_units(
        cls,
        variant: str,
        phase: Phase,
        units: Iterable[Unit],
        owners: Mapping[str, str] | None = None,
        dislodged: Iterable[Dislodged] = (),
        standoffs: Iterable[str] = (),
        powers_in_play: Mapping[str, PowerState] | None = None,
        result: str | None = None,
        heirs: Iterable[Heir] = (),
        heir_built: Mapping[str, int] | None = None,
        marriages: Iterable[Marriage] = (),
        dropped: Iterable[str] = (),
        built_in: Mapping[str, Iterable[str]] | None = None,
        favor: Mapping[str, Mapping[str, int]] | None = None,
        exiles: Iterable[str] = (),
        removed: Iterable[str] = (),
        embassies: Mapping[str, Mapping[str, str]] | None = None,
        kicked: Mapping[str, Iterable[str]] | None = None,
        retaliated: Mapping[str, Iterable[str]] | None = None,
    ) -> Position:
        by_province: dict[str, Unit] = {}
        for unit in units:
            if unit.province in by_province:
                raise ValueError(f"two units in {unit.province}: {by_province[unit.province]}"
                                 f" and {unit}")
            by_province[unit.province] = unit
        return cls(
            variant=variant,
            phase=phase,
            units=by_province,
            owners=dict(owners or {}),
            dislodged={d.unit.province: d for d in dislodged},
            standoffs=frozenset(standoffs),
            powers_in_play=dict(powers_in_play or {}),
            result=result,
            heirs=tuple(heirs),
            heir_built=dict(heir_built or {}),
            marriages=tuple(marriages),
            dropped=frozenset(dropped),
            built_in={k: tuple(v) for k, v in (built_in or {}).items()},
            favor=dict(favor or {}),
            exiles=frozenset(exiles),
            removed=frozenset(removed),
            embassies=dict(embassies or {}),
            kicked={k: tuple(v) for k, v in (kicked or {}).items()},
            retaliated={k: tuple(v) for k, v in (retaliated or {}).items()},
        )

    def replace(self, **changes: Any) -> Position:
        """A copy with some fields changed (positions are immutable)."""
        state = self.__dict__.copy()
        for key, value in changes.items():
            freeze = _FREEZE.get(key)
            state[key] = value if freeze is None else freeze(value)
        new = object.__new__(Position)
        object.__setattr__(new, "__dict__", state)  # one copy, no __post_init__ again
        return new

    def kind_of(self, power: str) -> str:
        """``major`` for the variant's powers, else the in-play power's kind."""
        state = self.powers_in_play.get(power)
        return "major" if state is None else state.kind

    def controllers_of(self, power: str) -> tuple[str, ...]:
        """The major powers controlling a thrall or vassal (none for others)."""
        state = self.powers_in_play.get(power)
        return () if state is None else state.controllers

    def heirs_of(self, power: str) -> list[Heir]:
        return [h for h in self.heirs if h.power == power]

    def unmarried_heir(self, power: str) -> Heir | None:
        """The power's unmarried heir (in its capital, S9 §10.2), if any."""
        return next((h for h in self.heirs if h.power == power and not h.married), None)

    def __hash__(self) -> int:
        return hash((self.variant, self.phase, frozenset(self.units.items()),
                     frozenset(self.owners.items()), frozenset(self.dislodged.items()),
                     self.standoffs, frozenset(self.powers_in_play.items()), self.result,
                     self.heirs, frozenset(self.heir_built.items()), self.marriages,
                     self.dropped, frozenset(self.built_in.items()),
                     frozenset((p, frozenset(f.items())) for p, f in self.favor.items()),
                     frozenset((p, frozenset(e.items())) for p, e in self.embassies.items()),
                     frozenset(self.kicked.items()), frozenset(self.retaliated.items()),
                     self.exiles, self.removed))

    def units_of(self, power: str) -> list[Unit]:
        return [u for u in self.units.values() if u.power == power]

    def centres_of(self, power: str) -> list[str]:
        return [p for p, owner in self.owners.items() if owner == power]

    def powers(self) -> set[str]:
        """Every power with a unit, a dislodged unit or a centre."""
        found = {u.power for u in self.units.values()}
        found |= {d.unit.power for d in self.dislodged.values()}
        found |= set(self.owners.values())
        return found

    # --- serialisation ----------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A plain JSON-ready dict; :meth:`from_dict` reverses it exactly."""

        def unit(u: Unit) -> dict[str, Any]:
            out: dict[str, Any] = {"power": u.power, "type": u.type.value,
                                   "location": u.location}
            if u.stationary:
                out["stationary"] = True
            return out

        return {
            "variant": self.variant,
            "phase": {"season": self.phase.season, "year": self.phase.year,
                      "kind": self.phase.kind.value},
            "units": [unit(u) for _, u in sorted(self.units.items())],
            "owners": dict(sorted(self.owners.items())),
            "dislodged": [
                {**unit(d.unit), "attacker_from": d.attacker_from}
                for _, d in sorted(self.dislodged.items())
            ],
            "standoffs": sorted(self.standoffs),
            "powers_in_play": {
                name: {"kind": s.kind, "controllers": list(s.controllers),
                       **({"capital": s.capital} if s.capital else {})}
                for name, s in sorted(self.powers_in_play.items())
            },
            "result": self.result,
            "heirs": [{"power": h.power, "location": h.location, "married": h.married}
                      for h in self.heirs],
            "heir_built": dict(sorted(self.heir_built.items())),
            "marriages": [{"giver": m.giver, "receiver": m.receiver, "location": m.location}
                          for m in self.marriages],
            "dropped": sorted(self.dropped),
            # Dissolution only (§4.3, §11.3, §5.3): absent when empty, so other
            # variants' saved positions read and write exactly as before.
            **({"built_in": {p: list(c) for p, c in sorted(self.built_in.items())}}
               if self.built_in else {}),
            **({"favor": {p: dict(sorted(f.items())) for p, f in sorted(self.favor.items())}}
               if self.favor else {}),
            **({"embassies": {p: dict(sorted(e.items()))
                              for p, e in sorted(self.embassies.items())}}
               if self.embassies else {}),
            **({"kicked": {p: list(n) for p, n in sorted(self.kicked.items())}}
               if self.kicked else {}),
            **({"retaliated": {p: list(n) for p, n in sorted(self.retaliated.items())}}
               if self.retaliated else {}),
            **({"exiles": sorted(self.exiles)} if self.exiles else {}),
            **({"removed": sorted(self.removed)} if self.removed else {}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Position:
        try:
            ph = data["phase"]
            phase = Phase(str(ph["season"]), int(ph["year"]), PhaseKind(ph["kind"]))

            def unit(d: Mapping[str, Any]) -> Unit:
                return Unit(str(d["power"]), UnitType(d["type"]), str(d["location"]),
                            bool(d.get("stationary", False)))

            return cls.from_units(
                variant=str(data["variant"]),
                phase=phase,
                units=[unit(u) for u in data.get("units", ())],
                owners={str(k): str(v) for k, v in data.get("owners", {}).items()},
                dislodged=[Dislodged(unit(d), d.get("attacker_from"))
                           for d in data.get("dislodged", ())],
                standoffs=data.get("standoffs", ()),
                powers_in_play={
                    str(name): PowerState(str(s["kind"]),
                                          tuple(str(c) for c in s.get("controllers", ())),
                                          s.get("capital"))
                    for name, s in data.get("powers_in_play", {}).items()
                },
                result=data.get("result"),
                heirs=[Heir(str(h["power"]), str(h["location"]), bool(h.get("married")))
                       for h in data.get("heirs", ())],
                heir_built={str(k): int(v) for k, v in data.get("heir_built", {}).items()},
                marriages=[Marriage(str(m["giver"]), str(m["receiver"]), str(m["location"]))
                           for m in data.get("marriages", ())],
                dropped=[str(p) for p in data.get("dropped", ())],
                built_in={str(k): [str(c) for c in v]
                          for k, v in data.get("built_in", {}).items()},
                favor={str(k): {str(n): int(x) for n, x in v.items()}
                       for k, v in data.get("favor", {}).items()},
                exiles=[str(p) for p in data.get("exiles", ())],
                removed=[str(p) for p in data.get("removed", ())],
                embassies={str(k): {str(n): str(x) for n, x in v.items()}
                           for k, v in data.get("embassies", {}).items()},
                kicked={str(k): [str(n) for n in v] for k, v in data.get("kicked", {}).items()},
                retaliated={str(k): [str(n) for n in v]
                            for k, v in data.get("retaliated", {}).items()},
            )
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a valid position: {exc!r}") from exc

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Position:
        return cls.from_dict(json.loads(text))
