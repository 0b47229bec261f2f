"""The Census: supply centres change hands, powers fall, vassals are born.

Standard Diplomacy does this quietly after the Fall retreats; Saga of the Nine
names it the Autumn Census (S9 §2.1). With the ``heirs`` component the Census
follows S9 §2.2 step 3 exactly, in this order:

a. **Captures**: a centre occupied by another power's unit passes to it.
b. **Executions**: every heir in a captured centre is executed, even when its
   own power captured it (§10.1) — a thrall's heir, a vassal's heirs, an
   unmarried heir in a fallen capital.
c. **Eliminations**: a major power with no centre of its own (normal, §1.3),
   or without its capital and with no living heir (early, §1.3, §3.4), or
   forced out by the GM as a dropped player (§3.4.2); a thrall whose centre
   was captured, even by its controller (§10.3, announced); a vassal whose
   capital was captured or whose two controllers are both gone (§3.4.1). A
   vassal that loses one controller is kept by the other alone (§3.4 step 5).
d. **Vassal marriages** agreed this Autumn, unless the marriage location or
   either capital was captured in step a (§10.4 conditions 4-5).
e. **Transfers**: each centre of an eliminated major or vassal becomes a new
   minor power; an eliminated major's thralls become minors (§3.4 steps 2, 4);
   the marriage location passes to the new vassal (§10.4).
f. **Disbands**: the units of eliminated powers (§3.4 step 1), and the dowry
   giver's unit in the marriage location (v1.1.1; rules option
   ``dowry_unit=transfer`` gives it to the vassal as v1.1 did).

Then victory is checked (:func:`victory`). Every step is reported as a
public event line.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..core.board import Heir, Position, PowerState, Unit, thawed
from ..core.ruleset import Rules
from ..variants import Variant
from .vp import all_points, year_end_events

__all__ = ["CensusReport", "centre_counts", "run_census", "survivors", "victory"]


@dataclass(frozen=True)
class CensusReport:
    position: Position
    events: tuple[str, ...]
    """What happened, in order, as a GM would publish it."""


def run_census(variant: Variant, position: Position, rules: Rules) -> CensusReport:
    """Run the Census on ``position`` and check victory."""
    names = variant.map.name_of
    events: list[str] = []
    held = position.owners
    centres = variant.map.supply_centres
    in_play = position.powers_in_play
    # a. captures: found in one pass, reported in the order of their provinces
    captures = [(prov, unit.power) for prov, unit in position.units.items()
                if prov in centres and held.get(prov) != unit.power]
    captures.sort()
    owners = thawed(held)
    captured: set[str] = set()
    for prov, power in captures:
        state = in_play.get(power)
        if state is not None and state.kind == "nuclear":
            continue  # Dissolution §4.6, §8.5.1: US Navy fleets never capture
        before = owners.get(prov)
        owners[prov] = power
        captured.add(prov)
        events.append(f"{power} captures {names(prov)}" + (f" from {before}" if before else ""))
    if not variant.uses("heirs"):
        if captured:
            position = position.replace(owners=owners)
        position = _drop_empty_powers(position)
        if variant.uses("victory_points"):  # Dissolution §2.1.5 steps 2-6
            result = victory(variant, position, rules)
            position, more = year_end_events(variant, position.replace(result=result))
            events.extend(more)
            return CensusReport(position, tuple(events))
        result = victory(variant, position, rules)
        return CensusReport(position if result is None and position.result is None
                            else position.replace(result=result), tuple(events))
    census = _HeirCensus(variant, position, rules, owners, captured, events)
    position = census.run()
    return CensusReport(position.replace(result=victory(variant, position, rules)),
                        tuple(events))


class _HeirCensus:
    """Steps b-f of S9 §2.2, on working copies of the position's parts."""

    def __init__(self, variant: Variant, position: Position, rules: Rules,
                 owners: dict[str, str], captured: set[str], events: list[str]) -> None:
        self.variant = variant
        self.position = position
        self.rules = rules
        self.owners = owners
        self.captured = captured
        self.events = events
        self.units = thawed(position.units)
        self.heirs = list(position.heirs)
        self.powers = thawed(position.powers_in_play)
        self.name = variant.map.name_of

    def run(self) -> Position:
        self.execute_heirs()
        fallen = self.eliminate_majors()
        self.eliminate_thralls()
        gone_vassals = self.eliminate_vassals(fallen)
        self.marry_vassals(fallen)
        self.transfer(fallen, gone_vassals)
        self.heirs = [h for h in self.heirs if h.power not in fallen]
        position = self.position.replace(
            owners=self.owners, units=self.units, heirs=self.heirs, powers_in_play=self.powers,
            marriages=(), dropped=self.position.dropped - fallen)
        return _drop_empty_powers(position)

    def execute_heirs(self) -> None:
        """b. Heirs in captured centres are executed (§10.1)."""
        for heir in list(self.heirs):
            if heir.location in self.captured:
                self.heirs.remove(heir)
                self.events.append(f"The heir of {heir.power} in {self.name(heir.location)} is "
                                   "executed (S9 §10.1)")

    def eliminate_majors(self) -> set[str]:
        """c. Normal, early and GM-forced eliminations (§1.3, §3.4, §3.4.2)."""
        fallen: set[str] = set()
        before = set(self.position.owners.values())
        for name, power in sorted(self.variant.powers.items()):
            if name not in before:
                continue  # eliminated earlier
            own = [p for p, o in self.owners.items() if o == name]
            living = any(h.power == name for h in self.heirs)
            why = None
            if not own:
                why = "it controls no supply centre of its own (S9 §1.3)"
            elif power.capital and self.owners.get(power.capital) != name and not living:
                why = (f"it lost its capital {self.name(power.capital)} and has no living heir "
                       "(S9 §1.3, §3.4)")
            elif name in self.position.dropped:
                why = "the GM forced the early elimination of a dropped player (S9 §3.4.2)"
            if why:
                fallen.add(name)
                self.events.append(f"{name} is eliminated: {why}")
        return fallen

    def eliminate_thralls(self) -> None:
        """c. A thrall whose centre is captured, even by its controller, is
        eliminated (§10.3); its heir was executed in step b."""
        for name, state in sorted(self.powers.items()):
            if state.kind != "thrall":
                continue
            lost = sorted(p for p in self.captured if self.position.owners.get(p) == name)
            if lost:
                del self.powers[name]
                captor = self.owners[lost[0]]
                self.events.append(f"{name}, thrall of {state.controllers[0]}, is eliminated: "
                                   f"{captor} captured {self.name(lost[0])} (S9 §10.3)")

    def eliminate_vassals(self, fallen: set[str]) -> set[str]:
        """c. Early vassal elimination (§3.4.1); a lone survivor keeps it (§3.4 step 5)."""
        gone: set[str] = set()
        for name, state in sorted(self.powers.items()):
            if state.kind != "vassal":
                continue
            alive = tuple(c for c in state.controllers if c not in fallen)
            if state.capital in self.captured:
                why = f"its capital {self.name(state.capital or '')} was captured (S9 §3.4.1)"
            elif not alive:
                why = "both its controllers were eliminated (S9 §3.4.1)"
            else:
                if alive != state.controllers:
                    self.powers[name] = PowerState("vassal", alive, state.capital)
                    self.events.append(f"{name} is now controlled by {alive[0]} alone "
                                       "(S9 §3.4 step 5)")
                continue
            gone.add(name)
            self.events.append(f"{name} is eliminated: {why}")
        return gone

    def marry_vassals(self, fallen: set[str]) -> None:
        """d. Agreed vassal marriages take effect, or fail (§10.4 conditions 4-5)."""
        for m in self.position.marriages:
            capitals = [self.variant.powers[p].capital for p in (m.giver, m.receiver)]
            where = self.name(m.location)
            why = None
            if m.location in self.captured:
                why = f"{where} was captured (S9 §10.4 4)"
            elif any(c in self.captured for c in capitals):
                lost = next(c for c in capitals if c in self.captured)
                why = f"the capital {self.name(lost or '')} was captured (S9 §10.4 5)"
            elif fallen & {m.giver, m.receiver}:
                why = "a partner was eliminated"
            elif self.owners.get(m.location) != m.giver:
                why = f"{m.giver} no longer owns {where}"
            if why:
                self.events.append(f"The marriage of {m.giver} and {m.receiver} at {where} "
                                   f"fails: {why}")
                continue
            self.create_vassal(m.giver, m.receiver, m.location)

    def create_vassal(self, giver: str, receiver: str, location: str) -> None:
        """§10.4: the location becomes the vassal's capital; both heirs move there."""
        powers = self.variant.powers
        base = f"v{powers[giver].abbreviation[:1]}{powers[receiver].abbreviation[:1]}"
        name, n = base, 1
        while name in self.powers or name in powers:
            n += 1
            name = f"{base}{n}"
        self.powers[name] = PowerState("vassal", (giver, receiver), location)
        self.owners[location] = name
        for power in (giver, receiver):
            heir = next(h for h in self.heirs if h.power == power and not h.married)
            self.heirs.remove(heir)
            self.heirs.append(Heir(power, location, True))
        self.events.append(f"The heirs of {giver} and {receiver} marry: the vassal {name} is "
                           f"created with its capital in {self.name(location)} (dowry giver "
                           f"{giver}, receiver {receiver}; S9 §10.4)")
        unit = self.units.get(location)
        if unit is not None and unit.power == giver:  # §10.4 2: only the giver's unit
            if self.rules.dowry_unit == "transfer":
                self.units[location] = Unit(name, unit.type, unit.location)
                self.events.append(f"{giver}'s {self.unit(unit)} passes to {name} "
                                   "(S9 v1.1 §10.4)")
            else:
                del self.units[location]
                self.events.append(f"{giver}'s {self.unit(unit)} in the marriage location is "
                                   "disbanded (S9 §10.4)")

    def unit(self, unit: Unit) -> str:
        """``A Alfheim``: a unit as players name it."""
        return f"{unit.type.value} {self.name(unit.location)}"

    def transfer(self, fallen: set[str], gone_vassals: set[str]) -> None:
        """e-f. Eliminated powers' centres become minors; their units disband."""
        for name, state in sorted(self.powers.items()):
            if state.kind == "thrall" and set(state.controllers) & fallen:
                self.powers[name] = PowerState("minor")
                self.events.append(f"{name}, thrall of {state.controllers[0]}, becomes a minor "
                                   "power again (S9 §3.4 step 4)")
        dead = fallen | gone_vassals
        for prov, owner in sorted(self.owners.items()):
            if owner in dead:
                minor = self.variant.map.provinces[prov].name
                self.owners[prov] = minor
                self.powers[minor] = PowerState("minor")
                self.events.append(f"{self.name(prov)} becomes a minor power (S9 §3.4 step 2)")
        for prov, unit in sorted(self.units.items()):
            if unit.power in dead:
                del self.units[prov]
                self.events.append(f"{unit.power}'s {self.unit(unit)} is disbanded "
                                   "(S9 §3.4 step 1)")
        for name in gone_vassals:
            del self.powers[name]


def _drop_empty_powers(position: Position) -> Position:
    """Minor, thrall and vassal powers with no centre and no unit are gone."""
    if not position.powers_in_play:
        return position
    alive = set(position.owners.values()) | {u.power for u in position.units.values()}
    powers = {n: s for n, s in position.powers_in_play.items() if n in alive}
    if len(powers) == len(position.powers_in_play):
        return position  # nobody gone: the position stands as it is
    return position.replace(powers_in_play=powers)


def centre_counts(variant: Variant, position: Position) -> dict[str, int]:
    """Centres per major power for victory: its own, its thralls' and its
    vassals' (a vassal's count for both controllers; S9 §3.2). With
    ``victory_points``, each player's effective VP (Dissolution §1.4, §4.6.1)."""
    if variant.uses("victory_points"):
        vp = all_points(variant, position)
        return {name: vp.get(name, 0) for name in variant.powers}
    owners = position.owners
    in_play = position.powers_in_play
    if not in_play and variant.centres_count_one and owners.keys() <= variant.map.supply_centres:
        # The common case: every centre counts one, so a Counter counts them all, in C.
        tally = Counter(owners.values())
        return {name: tally[name] for name in variant.powers}
    counts = dict.fromkeys(variant.powers, 0)
    values = variant.centre_values
    for prov, owner in owners.items():
        value = values[prov]
        if owner in counts:
            counts[owner] += value
            continue
        state = in_play.get(owner)
        if state is not None and state.kind in ("thrall", "vassal"):
            for controller in state.controllers:
                if controller in counts:
                    counts[controller] += value
    return counts


def survivors(variant: Variant, position: Position) -> list[str]:
    """Major powers still in the game: those owning a centre themselves (§1.3)."""
    owning = set(position.owners.values())
    return sorted(p for p in variant.powers if p in owning)


def victory(variant: Variant, position: Position, rules: Rules) -> str | None:
    """How the game ends at this Census, or ``None`` if it goes on.

    A solo needs the target and strictly the most centres (S9 §3.1, Ex 3.0.1);
    with ``last_survivor_wins`` the only survivor wins and if none is left all
    lose (§3.4, second); after ``max_years`` the survivors draw (§3.3).
    """
    counts = centre_counts(variant, position)
    best = max(counts.values(), default=0)
    if best >= rules.victory_centres:
        leaders = [p for p, n in counts.items() if n == best]
        if len(leaders) == 1:
            return f"Solo: {leaders[0]}"
    if rules.last_survivor_wins:
        alive = survivors(variant, position)
        if len(alive) == 1:
            return f"Solo: {alive[0]} (the last surviving player)"
        if not alive:
            return "Lost: no player survives, so all players lose"
    years = position.phase.year - variant.first_year + 1
    if rules.max_years is not None and years >= rules.max_years:
        return "Draw: " + ", ".join(survivors(variant, position))
    return None
