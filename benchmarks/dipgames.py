"""Random standard-map games recorded with the ``diplomacy`` package, and the
bridge that replays them through lawspeaker.

:func:`record_game` plays one seeded random game with ``diplomacy`` 1.1.2 and
keeps, for every phase it processes, the state before it and the orders each
power gave. :func:`align` walks the same games through lawspeaker, phase by
phase, and says for each phase whether both engines started from the same
position and whether they reached the same one.

Helper module of ``bench_vs_diplomacy.py``; not part of the installed package.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from diplomacy import Game as DipGame

import lawspeaker as L

__all__ = [
    "Alignment", "CatchUp", "Comparable", "Disagreement", "Names", "PhaseRecord",
    "RecordedGame", "align", "record_game",
]

KINDS = {"M": L.PhaseKind.MOVEMENT, "R": L.PhaseKind.RETREAT, "A": L.PhaseKind.ADJUSTMENT}
SEASONS = {"S": "Spring", "F": "Fall", "W": "Winter"}

State = Mapping[str, Any]
"""The part of ``diplomacy.Game.get_state()`` that describes the board."""


@dataclass(frozen=True)
class PhaseRecord:
    name: str
    """Diplomacy's short phase name, e.g. ``S1901M``."""
    state: State
    """Board before the phase: name, units, retreats, centers, builds."""
    orders: Mapping[str, tuple[str, ...]]
    """Orders per power, as ``diplomacy`` holds them after ``set_orders``."""

    @property
    def kind(self) -> L.PhaseKind:
        return KINDS[self.name[-1]]


@dataclass(frozen=True)
class RecordedGame:
    index: int
    phases: tuple[PhaseRecord, ...]
    final_state: State

    def state_after(self, i: int) -> State:
        return self.phases[i + 1].state if i + 1 < len(self.phases) else self.final_state


def _board(state: State) -> dict[str, Any]:
    keep = ("name", "units", "retreats", "centers", "builds")
    return {k: _copy(state[k]) for k in keep}


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_copy(v) for v in value]
    return value


# --- random play ---------------------------------------------------------------------


def _movement_orders(rng: random.Random, locs: list[str],
                     possible: Mapping[str, list[str]]) -> list[str]:
    """Mostly moves and supports; supports and convoys prefer to match a chosen move,
    so that attacks succeed, units are dislodged and retreat phases happen."""
    plan: dict[str, str] = {}
    chosen: dict[str, str] = {}
    for loc in locs:
        options = possible.get(loc) or []
        groups = {"move": [o for o in options if " - " in o and " S " not in o
                           and " C " not in o],
                  "support": [o for o in options if " S " in o],
                  "convoy": [o for o in options if " C " in o],
                  "hold": [o for o in options if o.endswith(" H")]}
        pick = rng.choices(["move", "support", "convoy", "hold"], [55, 30, 10, 5])[0]
        if not groups[pick]:
            pick = "move" if groups["move"] else "hold"
        plan[loc] = pick
        if pick in ("move", "hold"):
            chosen[loc] = rng.choice(groups[pick] or options)
        else:
            chosen[loc] = rng.choice(groups[pick])
    moves = {o.removesuffix(" VIA") for o in chosen.values() if " - " in o and " S " not in o
             and " C " not in o}
    staying = {" ".join(o.split()[:2]) for o in chosen.values() if " - " not in o
               or " S " in o or " C " in o}
    for loc, pick in plan.items():
        if pick not in ("support", "convoy") or rng.random() > 0.8:
            continue
        wanted = moves if pick == "convoy" else moves | staying
        sep = " C " if pick == "convoy" else " S "
        matching = [o for o in possible[loc] if sep in o and o.split(sep, 1)[1] in wanted]
        if matching:
            chosen[loc] = rng.choice(matching)
    return list(chosen.values())


def _retreat_orders(rng: random.Random, locs: list[str],
                    possible: Mapping[str, list[str]]) -> list[str]:
    out = []
    for loc in locs:
        retreats = [o for o in possible[loc] if " R " in o]
        out.append(rng.choice(retreats) if retreats and rng.random() < 0.85
                   else next(o for o in possible[loc] if o.endswith(" D")))
    return out


def _adjustment_orders(rng: random.Random, locs: list[str], possible: Mapping[str, list[str]],
                       count: int, cd_rate: float) -> list[str]:
    sites = rng.sample(locs, len(locs))
    if count > 0:
        out = [rng.choice([o for o in possible[s] if o.endswith(" B")]) for s in sites[:count]]
        if out and rng.random() < 0.1:
            out[-1] = "WAIVE"
        return out
    # Removals; sometimes one too few, leaving the engine to pick (civil disorder).
    wanted = -count - (1 if rng.random() < cd_rate else 0)
    return [next(o for o in possible[s] if o.endswith(" D")) for s in sites[:wanted]]


def record_game(index: int, seed: int, years: int, cd_rate: float = 0.05) -> RecordedGame:
    """Play ``years`` game years of random orders with ``diplomacy``, recording each phase."""
    rng = random.Random(f"{seed}/{index}")
    game = DipGame()
    last_year = 1900 + years
    phases: list[PhaseRecord] = []
    while not game.is_game_done and int(game.get_current_phase()[1:5]) <= last_year:
        name = game.get_current_phase()
        state = game.get_state()
        possible = {loc: sorted(opts) for loc, opts in game.get_all_possible_orders().items()}
        orders: dict[str, tuple[str, ...]] = {}
        for power in sorted(game.powers):
            locs = sorted(game.get_orderable_locations(power))
            if not locs:
                continue
            if name.endswith("M"):
                chosen = _movement_orders(rng, locs, possible)
            elif name.endswith("R"):
                chosen = _retreat_orders(rng, locs, possible)
            else:
                chosen = _adjustment_orders(rng, locs, possible,
                                            state["builds"][power]["count"], cd_rate)
            game.set_orders(power, chosen)
            orders[power] = tuple(game.get_orders(power))
        phases.append(PhaseRecord(name, _board(state), orders))
        game.process()
    return RecordedGame(index, tuple(phases), _board(game.get_state()))


# --- translation between the two engines ---------------------------------------------


class Names:
    """Diplomacy location names (``NAO``, ``STP/SC``) <-> lawspeaker keys (``nat``)."""

    def __init__(self, variant: L.Variant) -> None:
        self.variant = variant
        self.to_ls: dict[str, str] = {}
        for loc in DipGame().map.locs:
            base, _, coast = loc.upper().partition("/")
            if base == "SWI":  # impassable; never ordered, not a lawspeaker space
                continue
            key = variant.map.lookup(base)
            self.to_ls[loc.upper()] = f"{key}/{coast.lower()}" if coast else key
        self.to_dip = {v: k for k, v in self.to_ls.items()}
        self.powers = {p.upper(): variant.power_named(p) for p in DipGame().powers}

    def unit(self, power: str, text: str) -> L.Unit:
        utype, loc = text.lstrip("*").split()
        return L.Unit(self.powers[power], L.UnitType(utype), self.to_ls[loc])

    def order_text(self, order: str, kind: L.PhaseKind) -> str:
        """Diplomacy's order notation, rewritten where lawspeaker's reads differently."""
        words = order.split()
        if words[-1] == "VIA":
            return " ".join(words[:-1]) + " via convoy"
        if kind is L.PhaseKind.ADJUSTMENT and words[-1] in ("B", "D") and len(words) == 3:
            return f"{'Build' if words[-1] == 'B' else 'Remove'} {words[0]} {words[1]}"
        return order

    def orders(self, record: PhaseRecord) -> list[L.Order]:
        game_map, kind = self.variant.map, record.kind
        return [L.parse_order(game_map, self.order_text(o, kind), self.powers[p], kind)
                for p, texts in record.orders.items() for o in texts]

    def position(self, state: State) -> L.Position:
        """A movement or adjustment position from a diplomacy state (no dislodged units)."""
        name = state["name"]
        phase = L.Phase(SEASONS[name[0]], int(name[1:5]), KINDS[name[-1]])
        units = [self.unit(p, u) for p, us in state["units"].items() for u in us
                 if not u.startswith("*")]
        owners = {self.to_ls[c]: self.powers[p] for p, cs in state["centers"].items() for c in cs}
        return L.Position.from_units(self.variant.name, phase, units, owners)

    # --- a comparable view of a board, in diplomacy's notation ---

    def view_of_state(self, state: State) -> dict[str, Any]:
        return {
            "phase": state["name"],
            "units": sorted(f"{p} {u}" for p, us in state["units"].items() for u in us
                            if not u.startswith("*")),
            "dislodged": sorted(f"{p} {u} -> {' '.join(sorted(opts))}"
                                for p, r in state["retreats"].items() for u, opts in r.items()),
            "centres": sorted(f"{p} {c}" for p, cs in state["centers"].items() for c in cs),
        }

    def view_of_position(self, pos: L.Position) -> dict[str, Any]:
        ph = pos.phase
        kind = {v: k for k, v in KINDS.items()}[ph.kind]

        def unit(u: L.Unit) -> str:
            return f"{u.power.upper()} {u.type.value} {self.to_dip[u.location]}"

        dislodged = []
        for d in pos.dislodged.values():
            opts = sorted(self.to_dip[o] for o in L.retreat_options(self.variant, pos, d))
            if opts:  # diplomacy disbands a unit with no retreat at once, lawspeaker later
                dislodged.append(f"{unit(d.unit)} -> {' '.join(opts)}")
        return {
            "phase": f"{ph.season[0]}{ph.year}{kind}",
            "units": sorted(unit(u) for u in pos.units.values()),
            "dislodged": sorted(dislodged),
            "centres": sorted(f"{p.upper()} {self.to_dip[c]}" for c, p in pos.owners.items()),
        }


# --- replaying the recorded games through lawspeaker ----------------------------------


@dataclass(frozen=True)
class Comparable:
    """A phase both engines adjudicate from the same position with the same orders."""

    game: int
    index: int
    kind: L.PhaseKind
    position: L.Position
    orders: tuple[L.Order, ...]
    extra: tuple[L.Position, ...]
    """Phases diplomacy skips but lawspeaker stops at; adjudicated with no orders
    to reach the same position, and timed as part of this phase."""
    agree: bool


@dataclass(frozen=True)
class Disagreement:
    game: int
    phase: str
    orders: tuple[str, ...]
    differences: tuple[str, ...]
    """Lines ``- x`` only diplomacy has, ``+ x`` only lawspeaker has."""
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class CatchUp:
    game: int
    phase: str
    """The phase whose adjudication led lawspeaker to an extra phase."""
    stopped_at: str
    why: str


@dataclass
class Alignment:
    comparables: list[Comparable]
    disagreements: list[Disagreement]
    catch_ups: list[CatchUp]
    resynced: int = 0
    """Movement/adjustment phases rebuilt from diplomacy's state after a divergence."""
    excluded: int = 0
    """Retreat phases after a divergence: no common position, timed by neither engine."""


def _diff(dip: Mapping[str, Any], ls: Mapping[str, Any]) -> tuple[str, ...]:
    out: list[str] = []
    for key in dip:
        a, b = dip[key], ls[key]
        if key == "phase":
            if a != b and a != "COMPLETED":
                out.append(f"phase: diplomacy {a}, lawspeaker {b}")
            continue
        out += [f"- {key}: {x}" for x in sorted(set(a) - set(b))]
        out += [f"+ {key}: {x}" for x in sorted(set(b) - set(a))]
    return tuple(out)


def _empty(variant: L.Variant, rules: L.Rules, pos: L.Position) -> str | None:
    """Why nothing can happen in ``pos``'s phase, or ``None`` if something can."""
    if pos.phase.kind is L.PhaseKind.RETREAT:
        if any(L.retreat_options(variant, pos, d) for d in pos.dislodged.values()):
            return None
        return "no legal retreat for " + ", ".join(
            f"{d.unit.power} {d.unit}" for d in pos.dislodged.values())
    if pos.phase.kind is L.PhaseKind.MOVEMENT:
        return None
    owed = {p: n for p, n in L.adjustment_counts(variant, pos).items() if n}
    for power, n in owed.items():
        sites = (variant.powers[power].homes if rules.builds is L.BuildRule.HOME
                 else pos.centres_of(power))
        if n < 0 or any(pos.owners.get(s) == power and s not in pos.units for s in sites):
            return None
    return "builds owed, no free home centre: " + ", ".join(
        f"{p} {n:+d}" for p, n in sorted(owed.items()))


def _adjustment_notes(record: PhaseRecord) -> tuple[str, ...]:
    if record.kind is not L.PhaseKind.ADJUSTMENT:
        return ()
    notes = []
    for power, build in record.state["builds"].items():
        given = len([o for o in record.orders.get(power, ()) if o != "WAIVE"])
        if build["count"] < 0 and given < -build["count"]:
            notes.append(f"{power} must remove {-build['count']}, ordered {given}:"
                         " civil disorder picks the rest")
    return tuple(notes)


def align(games: list[RecordedGame], names: Names, rules: L.Rules) -> Alignment:
    """Walk every game through lawspeaker and cross-check each phase's outcome.

    lawspeaker continues from its own result while both engines agree; after a
    disagreement it is re-synchronised from diplomacy's state at the next movement
    or adjustment phase, and retreat phases in between are left out for both.
    When lawspeaker stops at a phase diplomacy skipped (a dislodged unit with no
    retreat; builds owed with no site to build in), lawspeaker adjudicates that
    phase with no orders, in the timed work of the phase that led to it.
    """
    result = Alignment([], [], [])
    variant = names.variant
    for game in games:
        chained: L.Position | None = L.initial_position(variant)
        for i, record in enumerate(game.phases):
            before = names.view_of_state(record.state)
            if chained is not None and names.view_of_position(chained) == before:
                position = chained
            elif record.kind is not L.PhaseKind.RETREAT:
                position = names.position(record.state)
                result.resynced += 1
            else:
                result.excluded += 1
                chained = None
                continue
            orders = tuple(names.orders(record))
            nxt = L.adjudicate(variant, position, orders, rules).position
            after = names.view_of_state(game.state_after(i))
            extra: list[L.Position] = []
            while (after["phase"] not in (names.view_of_position(nxt)["phase"], "COMPLETED")
                   and (why := _empty(variant, rules, nxt)) is not None and len(extra) < 2):
                result.catch_ups.append(CatchUp(game.index, record.name,
                                                names.view_of_position(nxt)["phase"], why))
                extra.append(nxt)
                nxt = L.adjudicate(variant, nxt, (), rules).position
            diff = _diff(after, names.view_of_position(nxt))
            if diff:
                texts = tuple(f"{p}: {o}" for p, os in record.orders.items() for o in os)
                result.disagreements.append(Disagreement(game.index, record.name, texts, diff,
                                                         _adjustment_notes(record)))
            result.comparables.append(Comparable(game.index, i, record.kind, position, orders,
                                                 tuple(extra), not diff))
            chained = nxt
    return result
