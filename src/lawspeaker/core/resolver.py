"""The movement-phase adjudicator.

How it works, in four steps:

1. **Judge each order** (:mod:`lawspeaker.core.legality`). Illegal orders, and
   units without orders, become holds; the illegal order is kept in the
   results with its reason.

2. **Match orders to each other.** A support counts only if the supported
   unit does what the support says; a convoy only if the army moves where
   the convoy says, by convoy. An army moving to an adjacent province goes
   by convoy if it says "via convoy" or if one of its own power's fleets
   convoys it (2023 rulebook; DATC 4.A.3); under the 2000 rules it falls
   back to the land route when no chain of convoy orders exists.

3. **Resolve decisions.** Every move has one yes/no decision ("does it
   succeed?"), every support one ("is it given?"), every convoy one ("does
   it hold, so the convoy is not disrupted?"). Each decision is computed
   from the strengths of the DATC's "Math of Adjudication": attack, hold,
   defend and prevent strength, which in turn ask other decisions. This is
   L.B. Kruijswijk's guess-and-check algorithm: when a decision depends on
   itself, it is guessed false and true. If exactly one guess is consistent,
   that is the answer. If both or neither are, the decisions in the cycle
   form either a circular movement (all moves in it succeed) or, when a
   convoy is part of the cycle, a convoy paradox, settled by the Szykman
   rule (DATC 4.A.2): the convoying fleets in the paradox hold, so the
   convoy fails. Both rules are in :meth:`_Resolver._backup_rule`, the only
   place cycles are handled.

4. **Report.** Each order gets an outcome and the explanation a GM
   publishes ("Bounced 1v1", "Cut by A Ber", "Dislodged by A Cai (2v1)").
   The new unit positions, the dislodged units (with where their attacker
   came from, for retreats) and the standoff spaces (bounce spaces no
   retreat may enter) come back in a :class:`MovementResult`.

Unit traits and rules components (Dissolution §3): stationary units' moves
are sorties that never succeed; with ``sortie: head_to_head`` (the default)
a sortie still meets an attacker coming the other way as a head-to-head.
Invulnerable units (``invulnerable`` powers) are never dislodged; with
``disabling`` an attack that would dislodge but cannot (a sortie, or an
invulnerable defender) disables the defender, voiding its support or convoy.
Wings convoy across any terrain (:mod:`lawspeaker.core.convoys`), and with
``convoy_paths: explicit`` only the path an army states is adjudicated.

The resolver knows nothing of how orders were chosen (by players, by DP
votes, by civil disorder) nor of any one variant: it reads the map, the
units, the orders, the rules options and which powers are invulnerable.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final

from .board import Unit, thawed
from .geography import GameMap
from .orders import Order
from .resolver_explain import Explainer
from .resolver_match import MatchedOrders
from .resolver_plan import (
    _CONVOY,
    _GUESSING,
    _HOLD,
    _MOVE,
    _RESOLVED,
    _SUP_MOVE,
    _UNRESOLVED,
    _Plan,
)
from .resolver_report import MOVE_SUCCEEDS, PlanResult, Report
from .results import OrderResult, Outcome
from .ruleset import Rules

__all__ = ["MovementResult", "resolve_movement"]

_SUCCEEDS: Final = Outcome.SUCCEEDS

@dataclass(frozen=True)
class MovementResult:
    results: tuple[OrderResult, ...]
    units: Mapping[str, Unit]
    """Province -> unit after the moves (dislodged units excluded)."""
    dislodged: Mapping[str, tuple[Unit, str | None]]
    """Province -> (dislodged unit, province its attacker came from overland)."""
    standoffs: frozenset[str]
    disabled: Mapping[str, str] = field(default_factory=dict)
    """Province -> the province of the attack that disabled the unit there (Dissolution §3.9)."""
    misnamed: bool = False
    """Some order named its unit by the wrong type (read as the unit's order all the same,
    DATC 4.C.2): the results as players read them say so (``engine.phases``)."""


def resolve_movement(game_map: GameMap, units: Mapping[str, Unit], orders: Iterable[Order],
                     rules: Rules | None = None,
                     invulnerable: Collection[str] = ()) -> MovementResult:
    """Adjudicate a movement phase. ``invulnerable``: the powers whose units
    can never be dislodged (Dissolution §3.8: the nuclear powers)."""
    return _Resolver(game_map, units, orders, rules or Rules(), invulnerable).run()


class _Resolver:
    """One movement phase's decisions. Steps 1 and 2, judging and matching the orders,
    are a :class:`~lawspeaker.core.resolver_match.MatchedOrders`; step 3 is here; step 4,
    the words of each result, is a :class:`~lawspeaker.core.resolver_report.Report` that
    reads the decisions through the strength methods below (``attack``, ``hold``, ...),
    which are public to it for that reason."""

    def __init__(self, game_map: GameMap, units: Mapping[str, Unit], orders: Iterable[Order],
                 rules: Rules, invulnerable: Collection[str] = ()) -> None:
        self.map = game_map
        # A plain dict: read for every order, and a position's read-only view of its
        # units costs a method call per look-up (and, compiled, misses the fast path).
        self.units: dict[str, Unit] = thawed(units)
        self.rules = rules
        self.invulnerable = frozenset(invulnerable)
        self.disabling = rules.disabling
        self.sortie_h2h = rules.sortie == "head_to_head"
        self.backups: dict[str, str] = {}
        """Province -> the cycle rule that settled its decision, in words (DATC 5.B.9)."""
        self.criss: dict[str, tuple[int, int]] = {}
        """Army province -> (its strength, the other's) of a criss-cross bounce (§3.11.1)."""
        self.deps: list[_Plan] = []
        """The decisions read as guesses while adjudicating a cycle (step 3)."""
        # Steps 1 and 2, by a collaborator that keeps the tables it made; the decisions
        # read them, and the report reads them through the Decisions protocol.
        matched = MatchedOrders(game_map, self.units, orders, rules)
        self.plans: dict[str, _Plan] = matched.plans
        self.moves_into: dict[str, list[_Plan]] = matched.moves_into
        self.convoyers: dict[str, list[_Plan]] = matched.convoyers
        self.illegal: list[OrderResult] = matched.illegal
        """The results of illegal orders (step 1)."""
        self.misnamed = matched.misnamed
        self._route = matched.path

    # --- step 3: decisions -----------------------------------------------

    def resolve(self, plan: _Plan) -> bool:
        """The decision on ``plan``'s order (DATC 5.B), guessing inside a cycle: a
        decision that depends on itself is adjudicated twice, assuming it fails and
        then succeeds; if both agree that is the answer, otherwise a backup rule
        settles the cycle."""
        state = plan.state
        if state == _RESOLVED:
            return plan.ok
        deps = self.deps
        if state == _GUESSING:
            # Always record the look-up, even if ``plan`` is already listed, so
            # every decision computed from a guess is itself treated as a guess.
            deps.append(plan)
            return plan.ok
        mark = len(deps)
        plan.ok = False
        plan.state = _GUESSING
        # (most decisions are moves': asked straight away, no call in between)
        first = self.move_wins(plan) if plan.kind == _MOVE and not self.invulnerable \
            else self._adjudicate(plan)
        if len(deps) == mark:
            if plan.state != _RESOLVED:
                plan.ok = first
                plan.state = _RESOLVED
            return plan.ok
        if deps[mark] is not plan:
            deps.append(plan)
            plan.ok = first
            return first
        self._forget(mark)
        plan.ok = True
        plan.state = _GUESSING
        second = self._adjudicate(plan)
        if first == second:
            self._forget(mark)
            plan.ok = first
            plan.state = _RESOLVED
            return first
        self._backup_rule(list(dict.fromkeys(deps[mark:])))
        del deps[mark:]
        return self.resolve(plan)

    def _forget(self, mark: int) -> None:
        for p in self.deps[mark:]:
            p.state = _UNRESOLVED
        del self.deps[mark:]

    def _backup_rule(self, cycle: list[_Plan]) -> None:
        """Settle a cycle of decisions with no single consistent answer.

        A cycle containing a convoy is a convoy paradox: by the Szykman rule
        the convoying fleets in it hold, so their convoys fail (DATC 4.A.2,
        Dissolution §3.11.2). Otherwise it is a circular movement, and every
        move in it succeeds (2023 rulebook; DATC 6.C.1).
        """
        paradox = any(p.kind == _CONVOY for p in cycle)
        rule = ("Settled by the convoy paradox rule: the convoying fleets in the paradox "
                "hold, so their convoys fail (Szykman rule, DATC 5.B.9)" if paradox else
                "Settled by the circular movement rule: every move in the circle succeeds "
                "(DATC 5.B.9)")
        if paradox and self.rules.convoy_paradox == "dissolution":
            rule = ("Settled by the paradox rule of Dissolution §3.11: criss-cross attacks "
                    "compared head to head (§3.11.1), otherwise the convoyed army first in "
                    "alphabetical order fails (§3.11.2)")
        for p in cycle:
            self.backups.setdefault(p.prov, rule)  # what the explanation cites (resolver_explain)
        if paradox and self.rules.convoy_paradox == "dissolution":
            self._dissolution_paradox(cycle)
            return
        for p in cycle:
            kind = p.kind
            if paradox and kind == _CONVOY:
                p.ok, p.state = False, _RESOLVED
            elif not paradox and kind == _MOVE:
                p.ok, p.state = True, _RESOLVED
            else:
                p.state = _UNRESOLVED

    def _dissolution_paradox(self, cycle: list[_Plan]) -> None:
        """Dissolution §3.11. Two convoyed attacks on each other's convoying
        units are compared like a head-to-head: the weaker (or both, when
        equal) bounces (§3.11.1). Any other paradox: the convoyed army first in
        alphabetical order of its space fails, and the rest is re-adjudicated,
        one army at a time (the modified Szykman rule, §3.11.2).

        A bounced criss-cross attack is recorded in ``criss``, which
        :meth:`move_wins` reads: the attack then neither dislodges nor disables
        (§3.9). Recording only the move's own decision is not enough, since an
        attack on an invulnerable convoyer (§3.8) fails anyway and matters only
        through the disabling it would cause: the cycle would come back
        unchanged, and be settled again, without end."""
        in_cycle = {p.prov for p in cycle}
        for p in cycle:
            p.state = _UNRESOLVED
        armies = sorted({p.frm for p in cycle if p.kind == _CONVOY}
                        | {p.prov for p in cycle if p.kind == _MOVE and p.by_convoy})
        movers = [self.plans[a] for a in armies if self.plans[a].kind == _MOVE]
        carriers = {m.prov: {c.prov for c in self.convoyers.get(m.prov, ()) if not c.void}
                    for m in movers}
        for i, a in enumerate(movers):
            for b in movers[i + 1:]:
                if a.prov in self.criss or b.prov in self.criss:
                    continue  # already compared: settling it again would settle nothing
                if a.dest in carriers[b.prov] and b.dest in carriers[a.prov]:
                    # §3.11.1: the attacks are compared head to head; the weaker one, or
                    # both when equal, bounces, so it neither dislodges nor disables.
                    sa, sb = self._attack_power(a), self._attack_power(b)
                    for loser, mine, theirs in ((a, sa, sb), (b, sb, sa)):
                        if mine <= theirs:
                            self.criss[loser.prov] = (mine, theirs)
                            loser.ok, loser.state = False, _RESOLVED
                    return
        # §3.11.2: the first army, alphabetically, whose convoy is part of the paradox.
        # A convoy of the cycle always exists (that is what makes it a paradox), so each
        # call settles at least one decision and the re-adjudication ends.
        first = next((a for a in armies
                      if any(c.prov in in_cycle for c in self.convoyers.get(a, ()))), None)
        failing = self.convoyers.get(first, ()) if first is not None else \
            [p for p in cycle if p.kind == _CONVOY]
        for c in failing:
            c.ok, c.state = False, _RESOLVED

    def _attack_power(self, plan: _Plan) -> int:
        """A move's attack strength on the unit in its destination, path aside."""
        defender = self.plans.get(plan.dest)
        return self.strength(plan, defender.power if defender is not None else None)

    def _adjudicate(self, plan: _Plan) -> bool:
        kind = plan.kind
        if kind == _MOVE:
            return self.move_wins(plan) and (not self.invulnerable or not self._blocked(plan))
        if kind == _HOLD or plan.void:
            return kind == _HOLD
        if plan.prov not in self.moves_into:
            return True  # a support or convoy nobody attacks is given
        if kind == _CONVOY:
            return not self._dislodged(plan) and not (self.disabling and self.disabled_by(plan))
        return not self.cut_by(plan) and not self._dislodged(plan) \
            and not (self.disabling and self.disabled_by(plan))

    def _blocked(self, plan: _Plan) -> bool:
        """A winning move into an invulnerable unit that stays bounces (Dissolution
        §3.8), and disables it (§3.9)."""
        defender = self.plans.get(plan.dest)
        return defender is not None and defender.power in self.invulnerable \
            and self._stays(defender)

    def _stays(self, plan: _Plan) -> bool:
        return plan.kind != _MOVE or not self.resolve(plan)

    def disabled_by(self, plan: _Plan) -> _Plan | None:
        """The attack that disables this unit, if any (Dissolution §3.9): one that
        would dislodge it but cannot, because the attacker is stationary or
        this unit invulnerable. A power never disables its own units."""
        if not self.disabling:
            return None
        for attacker in self.moves_into.get(plan.prov, ()):
            if attacker.power == plan.power:
                continue
            if (attacker.sortie or plan.power in self.invulnerable) \
                    and self.move_wins(attacker):
                return attacker
        return None

    def move_wins(self, plan: _Plan) -> bool:
        """Whether a move beats everything in its way, as a move of a mobile unit
        against a vulnerable one would (a sortie is asked this too, §3.9).

        Its attack strength is :meth:`attack`'s, and what it must beat is the
        :meth:`strength` of a unit coming the other way (:meth:`head_to_head`) or the
        :meth:`hold` strength of its destination, then every other move's
        :meth:`prevent` strength (DATC 5.B.2-5.B.4). The first two are worked out here
        from one look-up of the destination, asking the same decisions in the same order
        as those methods: this is the resolver's most frequent question."""
        if plan.prov in self.criss:
            return False  # Dissolution §3.11.1: a criss-cross attack that bounced
        if plan.by_convoy and not self.has_path(plan):
            return False  # no attack without a path
        dest = plan.dest
        defender = self.plans.get(dest)
        if defender is None:
            attack = self.strength(plan)
            resist = 0
        else:
            moving = defender.kind == _MOVE
            opponent = self.head_to_head(plan) if moving else None
            if moving and opponent is None and (
                    defender.ok if defender.state == _RESOLVED else self.resolve(defender)):
                attack = self.strength(plan)  # the defender leaves
            elif defender.power == plan.power:
                return False  # no attack on one's own unit (DATC 5.B.2)
            else:
                attack = self.strength(plan, defender.power)
            if opponent is not None:
                resist = self.strength(opponent)
            elif moving:
                resist = 0 if (defender.ok if defender.state == _RESOLVED
                               else self.resolve(defender)) else 1
            else:
                resist = self.strength(defender)
        if attack <= resist:
            return False
        for other in self.moves_into[dest]:
            if other is not plan and attack <= self.prevent(other):
                return False
        return True

    def _dislodged(self, plan: _Plan) -> bool:
        for m in self.moves_into.get(plan.prov, ()):  # (no generator: speed)
            if m.ok if m.state == _RESOLVED else self.resolve(m):
                return True
        return False

    def cut_by(self, plan: _Plan) -> _Plan | None:
        """The move that cuts this support, if any (DATC 6.D.15, 6.D.20, 4.A.4)."""
        for attacker in self.moves_into.get(plan.prov, ()):
            if attacker.power == plan.power:
                continue
            if plan.kind == _SUP_MOVE and attacker.prov == plan.to:
                continue
            if attacker.by_convoy and not self.has_path(attacker):
                continue
            return attacker
        return None

    def head_to_head(self, plan: _Plan) -> _Plan | None:
        """The unit moving the other way across the same border, if any.

        A sortie never crosses the border. With ``sortie: head_to_head`` (the
        default) it still meets the unit coming the other way as a head-to-head,
        defending with its move's strength; with ``sortie: never`` it is never one.
        """
        other = self.plans.get(plan.dest)
        if (other is not None and other.kind == _MOVE and other.dest == plan.prov
                and not other.by_convoy and not plan.by_convoy
                and (self.sortie_h2h or (not other.sortie and not plan.sortie))):
            return other
        return None

    def strength(self, plan: _Plan, exclude_power: str | None = None) -> int:
        strength = 1
        for s in plan.supports:  # (a decision made is read here, not asked: speed)
            if s.power != exclude_power and (s.ok if s.state == _RESOLVED else self.resolve(s)):
                strength += 1
        return strength

    def attack(self, plan: _Plan) -> int:
        if plan.by_convoy and not self.has_path(plan):
            return 0
        defender = self.plans.get(plan.dest)
        if defender is None or (defender.kind == _MOVE and self.head_to_head(plan) is None
                                and (defender.ok if defender.state == _RESOLVED
                                     else self.resolve(defender))):
            return self.strength(plan)
        if defender.power == plan.power:
            return 0
        return self.strength(plan, exclude_power=defender.power)

    def hold(self, prov: str) -> int:
        plan = self.plans.get(prov)
        if plan is None:
            return 0
        if plan.kind == _MOVE:
            return 0 if (plan.ok if plan.state == _RESOLVED else self.resolve(plan)) else 1
        return self.strength(plan)

    def prevent(self, plan: _Plan) -> int:
        if plan.by_convoy and not self.has_path(plan):
            return 0
        opponent = self.head_to_head(plan)
        if opponent is not None and (opponent.ok if opponent.state == _RESOLVED
                                     else self.resolve(opponent)):
            return 0
        return self.strength(plan)

    def has_path(self, plan: _Plan) -> bool:
        """Whether a convoyed move has a route of convoys that are given (DATC 5.B.4)."""
        return self._route(plan, lambda f: self.resolve(f))

    # --- step 4: report -------------------------------------------------------

    def run(self) -> MovementResult:
        resolve = self.resolve
        plans = self.plans
        after: dict[str, Unit] = {}
        winners: dict[str, _Plan] = {}
        for plan in plans.values():
            if plan.kind == _MOVE:
                if plan.ok if plan.state == _RESOLVED else resolve(plan):
                    dest = plan.dest
                    winners[dest] = plan
                    after[dest] = plan.unit.moved_to(plan.dest_loc, dest)
            elif plan.state != _RESOLVED:
                resolve(plan)
        # The results read this resolver when their texts are asked for, so it must not
        # hold them in turn: without a cycle, a phase's objects are freed as soon as its
        # results are, and never wait for the garbage collector.
        report = Report(self, lambda: Explainer(self, self.map, self.backups).lines)
        explain = report.explain
        results = [*self.illegal]
        add = results.append
        dislodged: dict[str, tuple[Unit, str | None]] = {}
        for prov, plan in plans.items():
            winner = winners.get(prov)
            if plan.ok and plan.kind == _MOVE:  # the commonest result, made here, not by explain
                add(PlanResult(report, plan, winner, _SUCCEEDS, MOVE_SUCCEEDS))
                continue
            add(explain(plan, winner))
            if winner is None:
                after[prov] = plan.unit
            else:
                dislodged[prov] = (plan.unit, None if winner.by_convoy else winner.prov)
        standoffs: set[str] = set()  # vacant spaces a failed move still contested
        for dest, movers in self.moves_into.items():
            if dest not in after:
                for m in movers:
                    if not m.ok and self.prevent(m) > 0:
                        standoffs.add(dest)
                        break
        disabled: dict[str, str] = {}
        if self.disabling:  # Dissolution §3.9, read by the violations of §11.6.1
            for prov, plan in self.plans.items():
                by = None if prov in dislodged else self.disabled_by(plan)
                if by is not None:
                    disabled[prov] = by.prov
        return MovementResult(tuple(results), after, dislodged, frozenset(standoffs),
                              disabled, self.misnamed)
