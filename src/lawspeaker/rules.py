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
    places), which :func:`lawspeaker.favor.parse_setup` checks against the variant
    when the game starts ("the GM may supply another valid setup", §11.2)."""

    def __post_init__(self) -> None:
        # Accept plain strings (Rules(edition="2000")) as well as the enums.
        object.__setattr__(self, "edition", Edition(str(self.edition)))
        object.__setattr__(self, "builds", BuildRule(str(self.builds)))
        if self.multiple_orders not in ("void", "last"):
            raise ValueError("multiple_orders must be 'void' or 'last'")
        if self.dowry_unit not in ("disband", "transfer"):
            raise ValueError("dowry_unit must be 'disband' or 'transfer'")
        if self.attack_allocating not in ("legal", "any"):
            raise ValueError("attack_allocating must be 'legal' or 'any'")
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
            if key == "edition":
                value = Edition(str(value))
            elif key == "builds":
                value = BuildRule(str(value))
            elif key == "victory_centres":
                value = int(value)
            elif key in ("reveal_dp_at_end", "last_survivor_wins", "disabling"):
                value = str(value).lower() in ("1", "true", "yes", "on")
            elif key == "max_years":
                value = None if value in (None, "", "none", "off", 0, "0") else int(value)
            elif key == "multiple_orders" and value not in ("void", "last"):
                raise ValueError("multiple_orders must be 'void' or 'last'")
            elif key == "dowry_unit" and value not in ("disband", "transfer"):
                raise ValueError("dowry_unit must be 'disband' or 'transfer'")
            elif key == "attack_allocating" and value not in ("legal", "any"):
                raise ValueError("attack_allocating must be 'legal' or 'any'")
            converted[key] = value
        return replace(self, **converted)
