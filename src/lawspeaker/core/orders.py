"""Orders as immutable values.

An order records what a player wrote, resolved to map locations but not yet
judged: ``Move`` keeps the coast exactly as written (or none), the unit type
as written (or ``None`` when omitted), and the power that gave it. Whether the
order is legal is decided later (:mod:`lawspeaker.core.legality`), so an illegal
order is never lost: it is reported with its reason and the unit holds.

``str(order)`` gives the canonical short notation, ``A lon - bel``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from .geography import UnitType, province_of

__all__ = [
    "Build",
    "BuildHeir",
    "Convoy",
    "Disband",
    "EmbassyOrder",
    "HeirHold",
    "HeirMarry",
    "HeirOrder",
    "Hold",
    "Marry",
    "Move",
    "Order",
    "Remove",
    "Retreat",
    "SupportHold",
    "SupportMove",
    "Waive",
]


def _unit(unit_type: UnitType | None, location: str) -> str:
    return f"{unit_type.value} {location}" if unit_type else location


@dataclass(frozen=True, slots=True)
class Order:
    power: str
    unit_type: UnitType | None
    location: str
    province: str = field(init=False, repr=False, compare=False)
    """The province of ``location``."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "province", province_of(self.location))

    @property
    def unit_text(self) -> str:
        return _unit(self.unit_type, self.location)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as a constructor call: the compiled build (mypyc) cannot restore a
        frozen dataclass field by field, and the fields derived in ``__post_init__``
        are worked out again."""
        return type(self), tuple(getattr(self, f.name) for f in fields(self) if f.init)


@dataclass(frozen=True, slots=True)
class Hold(Order):
    def __str__(self) -> str:
        return f"{self.unit_text} H"


@dataclass(frozen=True, slots=True)
class Move(Order):
    target: str
    """Destination province, or ``province/coast`` when a coast was given."""
    via_convoy: bool = False
    path: tuple[str, ...] = ()
    """Sea provinces named in an explicit convoy path (``A lon - nth - bel``)."""
    target_province: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        Order.__post_init__(self)
        object.__setattr__(self, "target_province", province_of(self.target))

    def __str__(self) -> str:
        hops = "".join(f" - {p}" for p in self.path)
        via = " via convoy" if self.via_convoy else ""
        return f"{self.unit_text}{hops} - {self.target}{via}"


@dataclass(frozen=True, slots=True)
class SupportHold(Order):
    supported_type: UnitType | None
    supported: str
    supported_province: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        Order.__post_init__(self)
        object.__setattr__(self, "supported_province", province_of(self.supported))

    def __str__(self) -> str:
        return f"{self.unit_text} S {_unit(self.supported_type, self.supported)}"


@dataclass(frozen=True, slots=True)
class SupportMove(Order):
    supported_type: UnitType | None
    supported: str
    target: str
    supported_province: str = field(init=False, repr=False, compare=False)
    target_province: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        Order.__post_init__(self)
        object.__setattr__(self, "supported_province", province_of(self.supported))
        object.__setattr__(self, "target_province", province_of(self.target))

    def __str__(self) -> str:
        return f"{self.unit_text} S {_unit(self.supported_type, self.supported)} - {self.target}"


@dataclass(frozen=True, slots=True)
class Convoy(Order):
    army: str
    target: str
    army_province: str = field(init=False, repr=False, compare=False)
    target_province: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        Order.__post_init__(self)
        object.__setattr__(self, "army_province", province_of(self.army))
        object.__setattr__(self, "target_province", province_of(self.target))

    def __str__(self) -> str:
        return f"{self.unit_text} C A {self.army} - {self.target}"


@dataclass(frozen=True, slots=True)
class Retreat(Order):
    target: str

    def __str__(self) -> str:
        return f"{self.unit_text} R {self.target}"


@dataclass(frozen=True, slots=True)
class Disband(Order):
    """Disband a dislodged unit instead of retreating it."""

    def __str__(self) -> str:
        return f"{self.unit_text} D"


@dataclass(frozen=True, slots=True)
class Build(Order):
    def __str__(self) -> str:
        return f"Build {self.unit_text}"


@dataclass(frozen=True, slots=True)
class Remove(Order):
    def __str__(self) -> str:
        return f"Remove {self.unit_text}"


@dataclass(frozen=True, slots=True)
class Waive(Order):
    """Decline one build (DATC 4.D.7). ``location`` is empty."""

    def __str__(self) -> str:
        return "Waive"


# --- heirs and marriages (S9 §7.1, §10) ------------------------------------------


@dataclass(frozen=True, slots=True)
class Marry(Hold):
    """A minor power's unit marries a major power's heir, creating a thrall
    (S9 §10.3 C). Set by DP; in combat it is a Hold (§9.1 A), but DP for it
    and for Hold are counted apart, because the dataclasses differ."""

    heir: str = ""
    """The heir's province (an unmarried heir lives in its capital)."""

    def __str__(self) -> str:
        return f"{self.unit_text} Marry Heir {self.heir}"


@dataclass(frozen=True, slots=True)
class HeirOrder(Order):
    """An order to an unmarried heir, given by its owner without DP (S9 §7.1).
    ``location`` is the heir's province; ``unit_type`` is always ``None``."""

    @property
    def unit_text(self) -> str:
        return f"Heir {self.location}"


@dataclass(frozen=True, slots=True)
class HeirHold(HeirOrder):
    def __str__(self) -> str:
        return f"{self.unit_text} H"


@dataclass(frozen=True, slots=True)
class HeirMarry(HeirOrder):
    """``Heir Asgard Marry Permyak`` (a minor, S9 §10.3) or ``Heir Jotnar Marry
    Heir Zwergar at Thule`` (another heir, at a marriage location, §10.4)."""

    partner: str = ""
    """The minor's province, or the other heir's province."""
    to_heir: bool = False
    """Whether ``partner`` is another power's heir (a vassal marriage)."""
    at: str = ""
    """The marriage location of a vassal marriage; empty for a thrall."""

    def __str__(self) -> str:
        if self.to_heir:
            where = f" at {self.at}" if self.at else ""
            return f"{self.unit_text} Marry Heir {self.partner}{where}"
        return f"{self.unit_text} Marry {self.partner}"


@dataclass(frozen=True, slots=True)
class BuildHeir(HeirOrder):
    """Build an heir in the power's capital (S9 §8.3). ``location`` may be
    empty (``Build Heir``), meaning the capital."""

    def __str__(self) -> str:
        return f"Build Heir {self.location}".rstrip()


# --- Embassies on the Favor Map (Dissolution §11.5) ------------------------------


@dataclass(frozen=True, slots=True)
class EmbassyOrder(Order):
    """A Winter order to an Embassy, written as the rulebook writes it (Dissolution
    §11.5): ``E I1p H``, ``E I1p - I2o``, ``E I1q S I1p - I2o``, ``E N1u S I1p``
    (support to hold), and for an Embassy in a perimeter the supported Embassy's
    power, ``E I1p S PA I0z - I1q`` (§11.5.2). ``location`` is the Embassy's space;
    the power that gives the order says which Embassy in a perimeter it is."""

    action: str = "H"
    """``H`` (hold), ``-`` (move) or ``S`` (support)."""
    target: str = ""
    """Where the Embassy moves, or where the supported Embassy moves (empty: a support to hold)."""
    supported: str = ""
    """The supported Embassy's space."""
    supported_power: str = ""
    """The supported Embassy's power as written (``PA``, ``Pakistan``), or empty."""

    @property
    def unit_text(self) -> str:
        return f"E {self.location}"

    def __str__(self) -> str:
        if self.action == "-":
            return f"E {self.location} - {self.target}"
        if self.action == "S":
            who = f"{self.supported_power} " if self.supported_power else ""
            into = f" - {self.target}" if self.target else ""
            return f"E {self.location} S {who}{self.supported}{into}"
        return f"E {self.location} H"
