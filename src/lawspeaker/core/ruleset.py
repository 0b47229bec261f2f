"""Rules options: the choices the rulebooks leave open, named, with defaults.

A variant's ``variant.yaml`` sets them under ``rules:``; the CLI and API may
override them per game or per test run. Every option documents its default
and the rule it settles.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any

__all__ = ["BuildRule", "Edition", "Rules"]

#: The string options with a fixed set of values (the first is the default).
_CHOICES: dict[str, tuple[str, ...]] = {
    "sortie": ("head_to_head", "never"),
    "convoy_paths": ("any", "explicit"),
    "convoy_paradox": ("szykman", "dissolution"),
    "wing_support": ("bordering", "anywhere"),
    "favor_board": ("A", "B"),
    "favor_setup": ("default", "legacy"),
}


class Edition(StrEnum):
    """Which rulebook settles the DATC's open issues.

    ``2023``: the 2023 rulebook with the DATC v3.1 preferences (default).
    ``2000``: the 2000 rulebook with the DATC v2.4 preferences, which the
    jDip/godip case file ``datc_v2.4_06.txt`` assumes. They differ in three
    places: an army ordered "via convoy" to an adjacent province falls back to
    the land route when no convoy path exists (DATC 2.4 issue 4.A.3, cases
    6.G.8 and 6.G.11); civil disorder removes by distance to *home* centres
    along routes each unit type could take, armies crossing water (DATC 2.4
    issue 4.D.8); and in 2023 units on supply centres are removed last.
    """

    R2023 = "2023"
    R2000 = "2000"


class BuildRule(StrEnum):
    HOME = "home"
    """Build only in vacant, owned home centres (standard rules)."""
    OWNED = "owned"
    """Build in any vacant owned centre (S9 §8.1, 'Chaos'-style variants)."""
    EMERGENT = "emergent"
    """Dissolution §4.3, Emergent Builds: in an owned vacant centre that is a
    home centre, borders a home centre, or borders a centre the power has
    built in before."""


@dataclass(frozen=True, slots=True)
class Rules:
    edition: Edition = Edition.R2023
    victory_centres: int = 18
    """Centres needed for a solo victory."""
    builds: BuildRule = BuildRule.HOME
    max_years: int | None = None
    """End the game in a draw of all survivors after this many game years
    (S9 §3.3: 11 cycles in S9 Complete); ``None`` for no cap."""
    reveal_dp_at_end: bool = False
    """GM option: reveal every DP allocation once the game has ended (S9 §9.0:
    allocations stay secret 'until the entire game has completed')."""
    multiple_orders: str = "void"
    """Two different orders to one unit: ``void`` makes the unit hold (DATC
    issue 4.D.3, choice c); ``last`` keeps the last order given."""
    last_survivor_wins: bool = False
    """A solo also goes to the only surviving major power, and if none
    survives all players lose (S9 §3.4 'Alternate Endgame Criteria')."""
    dowry_unit: str = "disband"
    """What happens to the dowry giver's unit in the marriage location when a
    vassal is created: ``disband`` (S9 v1.1.1 §10.4, default) or
    ``transfer`` to the new vassal (S9 v1.1 §10.4)."""

    attack_allocating: str = "legal"
    """Which of a power's own orders count as attacking (or supporting an
    attack on) a minor power for the Attacking & Allocating rule (S9 §9.0):
    ``legal`` (default) counts legal moves and supports into the minor's space,
    not illegal orders (never carried out) nor convoys; ``any`` counts every
    move, support or convoy aimed at it as written, legal or not."""

    sortie: str = "head_to_head"
    """How a stationary unit's move, a sortie (S9 §7.2, OOD §7.2, Dissolution §3.7),
    meets a unit moving the other way across the same border. ``head_to_head``
    (default): the sortie is a move in every respect except that it never
    succeeds, so the attacker must beat its defend strength (its move's supports
    count), and where the sortie would have won, nobody is dislodged (with
    ``disabling``, the loser is disabled). ``never``: a sortie is never part of a
    head-to-head; it defends with strength 1 whatever supports its move has."""
    disabling: bool = False
    """Dissolution §3.7-§3.9: an attack that would dislodge but cannot (a
    stationary attacker, an invulnerable defender, or both) disables the
    defender, voiding its support or convoy; a power never disables its own."""
    convoy_paths: str = "any"
    """``any`` (default): a convoyed army goes by any chain of convoying units.
    ``explicit`` (Dissolution §3.10.1): it must state its path, ``A Cai - Asw - Khm``,
    and only that path is adjudicated."""
    convoy_paradox: str = "szykman"
    """How a convoy paradox is settled. ``szykman`` (default, DATC 4.A.2): the
    convoys in the paradox fail. ``dissolution`` (Dissolution §3.11): two
    convoyed attacks on each other's convoying units ("criss-cross") are
    compared like a head-to-head, only the strongest completing and equal
    strengths both bouncing (§3.11.1); any other paradox fails one convoyed
    army at a time, alphabetically by its space's abbreviation, re-adjudicating
    after each (the modified Szykman rule, §3.11.2)."""

    wing_support: str = "bordering"
    """Dissolution §3.1's chart gives a wing's support as "Unlimited". ``bordering``
    (default): not limited by terrain, so a wing supports into any bordering land or
    sea space (§3.3 (2), rules-differences §3.3.11). ``anywhere``: the literal reading,
    a wing supports into any space on the map."""
    favor_board: str = "A"
    """Dissolution §11: which reconstruction of the Favor Map's hexes (``A``, default,
    or ``B``; they differ only in how slices interlock across their borders)."""
    favor_setup: str = "default"
    """Dissolution §11.2: the setup of the Embassies at the start: ``default``
    (§11.2.2), ``legacy`` (the deprecated map of §11.7.4), or the GM's own, written
    inline (``Egypt=N2j,U1p,I1q,B1p,R1p;SA=...``, players left out keep the default
    places), which :func:`lawspeaker.rules.favor.parse_setup` checks against the variant
    when the game starts ("the GM may supply another valid setup", §11.2)."""

    def __post_init__(self) -> None:
        # Accept plain strings (Rules(edition="2000")) as well as the enums.
        object.__setattr__(self, "edition", _convert("edition", self.edition))
        object.__setattr__(self, "builds", _convert("builds", self.builds))
        for key in ("multiple_orders", "dowry_unit", "attack_allocating"):
            _convert(key, getattr(self, key))
        for key, allowed in _CHOICES.items():
            if key == "favor_setup" and "=" in self.favor_setup:
                continue  # a GM's own setup (Dissolution §11.2), checked with the variant
            if getattr(self, key) not in allowed:
                extra = " or a setup like 'Egypt=N2j,U1p,I1q,B1p,R1p;...'" \
                    if key == "favor_setup" else ""
                raise ValueError(f"{key} must be one of {', '.join(allowed)}{extra}")

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Rules:
        """Build from a ``rules:`` mapping, rejecting unknown keys and values."""
        return cls().with_options(**dict(data))

    def with_options(self, **options: Any) -> Rules:
        """A copy with some options changed; unknown names or values raise ValueError."""
        known = {f.name for f in fields(self)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ValueError(f"unknown rules option(s): {', '.join(unknown)} "
                             f"(options: {', '.join(sorted(known))})")
        converted: dict[str, Any] = {}
        for key, value in options.items():
            converted[key] = _convert(key, value)
        return replace(self, **converted)


_BOOLS = {"1": True, "true": True, "yes": True, "on": True,
          "0": False, "false": False, "no": False, "off": False}
_FIXED: dict[str, tuple[str, ...]] = {
    "edition": tuple(e.value for e in Edition),
    "builds": tuple(b.value for b in BuildRule),
    "multiple_orders": ("void", "last"),
    "dowry_unit": ("disband", "transfer"),
    "attack_allocating": ("legal", "any"),
}
_INTEGERS: dict[str, tuple[int, int, str]] = {
    "victory_centres": (1, 1000, "a whole number of centres from 1 to 1000"),
    "max_years": (1, 1000, "a whole number of game years from 1 to 1000, or none for "
                           "no cap"),
}
MAX_VALUE = 1000
"""The longest text a rules option takes (a GM's own Favor setup is the longest)."""


def _refuse(key: str, value: Any, allowed: str) -> ValueError:
    shown = str(value)
    if len(shown) > 40:
        shown = shown[:40] + "…"
    return ValueError(f"rules option {key}: {shown!r} is not allowed; {key} takes {allowed}")


def _convert(key: str, value: Any) -> Any:
    """One option's value from text (a house rule) or YAML, checked for its
    type and range; a ValueError names the option, the value and what is allowed."""
    from .safetext import unsafe_char

    if isinstance(value, str):
        if len(value) > MAX_VALUE:
            raise ValueError(f"rules option {key}: the value is longer than {MAX_VALUE} "
                             "characters")
        bad = unsafe_char(value, allow="")
        if bad is not None:
            raise ValueError(f"rules option {key}: the value contains {bad}")
        value = value.strip()
    if key in _FIXED:
        text = value.value if isinstance(value, StrEnum) else str(value).lower()
        if isinstance(value, bool) or text not in _FIXED[key]:
            raise _refuse(key, value, "one of " + ", ".join(_FIXED[key]))
        return Edition(text) if key == "edition" else BuildRule(text) if key == "builds" \
            else text
    if key in ("reveal_dp_at_end", "last_survivor_wins", "disabling"):
        if isinstance(value, bool):
            return value
        flag = _BOOLS.get(str(value).lower()) if isinstance(value, str | int) else None
        if flag is None:
            raise _refuse(key, value, "yes or no (also true/false, on/off, 1/0)")
        return flag
    if key in _INTEGERS:
        low, high, what = _INTEGERS[key]
        if key == "max_years" and (value is None or (isinstance(value, str)
                                   and value.lower() in ("", "none", "off", "0"))
                                   or (isinstance(value, int) and value == 0)):
            return None
        number: int | None = None
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 9:
            number = int(value)
        if number is None or not low <= number <= high:
            raise _refuse(key, value, what)
        return number
    if not isinstance(value, str):
        raise _refuse(key, value, "text")
    return value
