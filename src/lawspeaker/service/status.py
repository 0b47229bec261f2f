"""The turn's numbers at a glance: what a GM counts by hand before each phase.

:func:`turn_status` reads a position and returns everything a phase needs:
supply-centre counts (and VP where centres are worth different amounts), the
builds and removals owed, each power's DP allotment, where each dislodged
unit may retreat, heirs, thralls and vassals, and who must send orders. It is
a pure function of public information; the service adds who has submitted.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.board import PhaseKind, Position
from ..core.ruleset import Rules
from ..engine.adjustments import adjustment_counts, heir_builds_possible
from ..engine.retreats import retreat_options
from ..rules.census import centre_counts
from ..rules.dp import allotment
from ..variants import Variant

__all__ = ["PowerLine", "RetreatNeed", "TurnStatus", "expected_powers", "turn_status"]


@dataclass(frozen=True, slots=True)
class PowerLine:
    power: str
    centres: int
    """Centres the power owns itself."""
    count: int
    """What counts for victory: its own centres' value plus its thralls' and
    vassals' (S9 §3.2), or VP where centres differ."""
    units: int
    adjustment: int | None = None
    """In adjustment phases: builds owed (positive) or removals (negative)."""
    dp: int | None = None
    """In orders phases of DP variants: the DP allotment (S9 §9.2)."""


@dataclass(frozen=True, slots=True)
class RetreatNeed:
    power: str
    unit: str
    """The unit as players name it: ``F North Sea``."""
    options: tuple[str, ...]
    """Where it may retreat (names); empty: it must disband."""


@dataclass(frozen=True)
class TurnStatus:
    phase: str
    """The phase as the variant names it: ``Spring Orders, Second Cycle (381 BCE)``."""
    kind: PhaseKind
    result: str | None
    powers: tuple[PowerLine, ...]
    victory_target: int
    uses_vp: bool
    """Centres are worth different amounts (the count is in VP)."""
    retreats: tuple[RetreatNeed, ...] = ()
    heir_builds: tuple[str, ...] = ()
    heirs: tuple[str, ...] = ()
    thralls: tuple[str, ...] = ()
    vassals: tuple[str, ...] = ()
    marriages: tuple[str, ...] = ()
    dropped: tuple[str, ...] = ()
    exiles: tuple[str, ...] = ()
    """Eliminated players who go on allocating DP (Dissolution §5.3)."""
    favor: tuple[str, ...] = ()
    """Each player's Favor with each nuclear power (Dissolution §11.3), public."""
    embassy_orders: tuple[str, ...] = ()
    """In a Winter with Embassies: that they take orders (Dissolution §11.5) and
    each Embassy that must hold (§11.5.3), with why."""
    expected: tuple[str, ...] = ()
    """Major powers with something to order this phase."""
    submitted: tuple[str, ...] = ()
    """Powers that have sent orders (filled in by the service)."""

    @property
    def missing(self) -> tuple[str, ...]:
        return tuple(p for p in self.expected if p not in self.submitted)

    def power_summary(self, p: PowerLine) -> str:
        """One power at a glance, as every front end prints it: ``4 centres, 5 VP,
        4 units, builds 1, 3 DP``."""
        parts = [f"{p.centres} centres"]
        if self.uses_vp or p.count != p.centres:
            parts.append(f"{p.count} {'VP' if self.uses_vp else 'counted'}")
        parts.append(f"{p.units} units")
        if p.adjustment:
            parts.append(f"{'builds' if p.adjustment > 0 else 'removes'} {abs(p.adjustment)}")
        if p.dp is not None:
            parts.append(f"{p.dp} DP")
        return ", ".join(parts)


def expected_powers(variant: Variant, position: Position) -> list[str]:
    """The major powers that have something to order in this phase."""
    if position.result:
        return []
    kind = position.phase.kind
    majors = sorted(variant.powers)
    if kind is PhaseKind.MOVEMENT:
        # Dissolution §5.3: no deadline waits for a Player in Exile's DP.
        return [p for p in majors if p not in position.dropped
                and p not in position.exiles and (
            position.units_of(p) or position.unmarried_heir(p)
            or (variant.uses("diplomacy_points") and allotment(variant, position, p)))]
    if kind is PhaseKind.RETREAT:
        owners = set()
        for d in position.dislodged.values():
            if d.unit.stationary:
                continue
            owners |= _orderers(position, d.unit.power)
        return [p for p in majors if p in owners]
    if kind is PhaseKind.ADJUSTMENT:
        owners = set(heir_builds_possible(variant, position))
        for power, owed in adjustment_counts(variant, position).items():
            if owed:
                owners |= _orderers(position, power)
        if variant.uses("favor_map"):  # Dissolution §11.5: every Embassy takes an order
            owners |= {p for p, mine in position.embassies.items()
                       if mine and p not in position.dropped}
        return [p for p in majors if p in owners]
    return []


def _orderers(position: Position, power: str) -> set[str]:
    """Who orders this power's retreats and adjustments: itself, or a
    vassal's controllers (S9 §10.5.2)."""
    controllers = position.controllers_of(power)
    return set(controllers) if position.kind_of(power) == "vassal" else {power}


def turn_status(variant: Variant, position: Position, rules: Rules | None = None) -> TurnStatus:
    game_map = variant.map
    kind = position.phase.kind
    values = {p.sc_value for p in game_map.provinces.values() if p.is_sc}
    uses_vp = len(values) > 1
    counts = centre_counts(variant, position)
    owed = adjustment_counts(variant, position) if kind is PhaseKind.ADJUSTMENT else {}
    dp_phase = variant.uses("diplomacy_points") and kind is PhaseKind.MOVEMENT
    lines = []
    for power in sorted(variant.powers):
        lines.append(PowerLine(
            power, len(position.centres_of(power)), counts.get(power, 0),
            len(position.units_of(power)),
            owed.get(power) if kind is PhaseKind.ADJUSTMENT else None,
            allotment(variant, position, power) if dp_phase else None))
    for name, state in sorted(position.powers_in_play.items()):
        if state.kind == "vassal" and kind is PhaseKind.ADJUSTMENT:
            lines.append(PowerLine(name, len(position.centres_of(name)),
                                   len(position.centres_of(name)),
                                   len(position.units_of(name)), owed.get(name)))
    retreats = []
    for _, d in sorted(position.dislodged.items()):
        if d.unit.stationary:
            continue
        options = tuple(game_map.name_of(loc)
                        for loc in retreat_options(variant, position, d))
        retreats.append(RetreatNeed(d.unit.power, _unit_name(variant, d.unit.type.value,
                                                               d.unit.location), options))
    return TurnStatus(
        phase=variant.phase_label(position.phase),
        kind=kind,
        result=position.result,
        powers=tuple(lines),
        victory_target=(rules or variant.rules).victory_centres,
        uses_vp=uses_vp,
        retreats=tuple(retreats),
        heir_builds=tuple(heir_builds_possible(variant, position))
        if kind is PhaseKind.ADJUSTMENT else (),
        heirs=tuple(f"{h.power}: heir {'married in' if h.married else 'in'} "
                    f"{game_map.name_of(h.location)}" for h in position.heirs),
        thralls=tuple(f"{name}: thrall of {', '.join(s.controllers)}"
                      for name, s in sorted(position.powers_in_play.items())
                      if s.kind == "thrall"),
        vassals=tuple(f"{name}: vassal of {' and '.join(s.controllers)}"
                      + (f", capital {game_map.name_of(s.capital)}" if s.capital else "")
                      for name, s in sorted(position.powers_in_play.items())
                      if s.kind == "vassal"),
        marriages=tuple(f"{m.giver} (dowry giver) and {m.receiver} at "
                        f"{game_map.name_of(m.location)}, completed at the Census"
                        for m in position.marriages),
        dropped=tuple(sorted(position.dropped)),
        exiles=tuple(sorted(position.exiles)),
        favor=_favor_lines(variant, position),
        embassy_orders=_embassy_orders(variant, position, rules)
        if kind is PhaseKind.ADJUSTMENT else (),
        expected=tuple(expected_powers(variant, position)),
    )


def _favor_lines(variant: Variant, position: Position) -> tuple[str, ...]:
    """Each player's Favor values, with the Embassy they come from (Dissolution §11.3),
    what must hold in the coming Winter (§11.5.3) and the kicks taken (§11.7)."""
    if not position.embassies:
        return tuple(f"{player}: " + ", ".join(f"{nuclear} {value}"
                                               for nuclear, value in sorted(values.items()))
                     for player, values in sorted(position.favor.items()))
    lines = []
    for player, mine in sorted(position.embassies.items()):
        text = ", ".join(f"{nuclear} {space[1]}" for nuclear, space in sorted(mine.items()))
        text += "; Embassies " + " ".join(f"E {space}" for _, space in sorted(mine.items()))
        if position.kicked.get(player):
            text += "; kicked this year: " + ", ".join(position.kicked[player])
        if position.retaliated.get(player):
            text += "; Nuclear Retaliation: " + ", ".join(position.retaliated[player])
        lines.append(f"{player}: {text}")
    return tuple(lines)


def _embassy_orders(variant: Variant, position: Position, rules: Rules | None
                    ) -> tuple[str, ...]:
    """What the Winter asks of the Embassies (Dissolution §11.5), and the required
    holds (§11.5.3)."""
    if not variant.uses("favor_map") or not position.embassies:
        return ()
    from ..rules.favor_orders import must_hold

    lines = ["Embassy orders from every player (Dissolution §11.5): each Embassy holds, "
             "moves within its slice or supports; at most 3 move, 2 after a kick "
             "(Dissolution §11.5.4)"]
    for player, mine in sorted(position.embassies.items()):
        for nuclear, why in sorted(must_hold(variant, position, player).items()):
            if nuclear in mine:
                lines.append(f"{player}'s {nuclear} Embassy (E {mine[nuclear]}) must hold: "
                             f"{why}")
    return tuple(lines)


def _unit_name(variant: Variant, letter: str, location: str) -> str:
    return f"{letter} {variant.map.name_of(location)}"
