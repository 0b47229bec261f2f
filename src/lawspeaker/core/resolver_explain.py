"""Why each result is what it is: the strengths the resolver compared, the
supports that counted and those that did not, the convoy path, and the rule
that decided, each with its citation.

Like :class:`~lawspeaker.core.resolver_report.Report`, an :class:`Explainer`
only reads decisions the resolver has already made, through the same
:class:`~lawspeaker.core.resolver_report.Decisions`: the strengths it prints
are the resolver's own ``attack``, ``hold``, ``prevent`` and ``strength``,
so a result and its explanation can never disagree. The words follow the
DATC's "Math of Adjudication" (§5.B): attack, hold, defend and prevent
strength, path; rules of the variants cite their rulebook (S9 §7.2 for
sorties, read by each variant's own rulebook through ``Variant.cite``;
Dissolution §3.8, §3.9 and §3.11 for its unit traits and paradox rule).

Units and spaces are written in the names players use (``A Munich``),
since explanations are read by players, never compared by case files.
"""

from __future__ import annotations

from .geography import GameMap
from .resolver_plan import _CONVOY, _HOLD, _MOVE, _SUP_HOLD, _SUP_MOVE, _Plan
from .resolver_report import Decisions

__all__ = ["Explainer"]


class Explainer:
    """The explanation of each plan's result, as lines of text."""

    def __init__(self, decisions: Decisions, game_map: GameMap,
                 backups: dict[str, str] | None = None) -> None:
        self.d = decisions
        self.map = game_map
        self.backups = backups or {}
        """Province -> the rule that settled its decision in a cycle (DATC 5.B.9)."""

    # --- one line per fact --------------------------------------------------------

    def label(self, plan: _Plan) -> str:
        """A unit in the names players use: ``A Munich``, ``F Spain (north coast)``."""
        return f"{plan.unit.type.value} {self.map.name_of(plan.unit.location)}"

    def place(self, prov: str) -> str:
        return self.map.name_of(prov)

    def ok(self, plan: _Plan) -> bool:
        return plan.ok

    def lines(self, plan: _Plan, winner: _Plan | None) -> tuple[str, ...]:
        """Every line of why ``plan``'s order ended as it did."""
        if plan.void and plan.kind != _MOVE:
            out = [f"{plan.void}: the unit holds instead (DATC 5.B.5)"]
        elif plan.kind == _MOVE:
            out = self.move(plan)
        elif plan.kind in (_SUP_HOLD, _SUP_MOVE):
            out = self.support(plan, winner)
        elif plan.kind == _CONVOY:
            out = self.convoy(plan, winner)
        else:
            out = []
        if plan.kind != _MOVE or not self.ok(plan):
            out += self.defence(plan, winner)
        rule = self.backups.get(plan.prov)
        if rule:
            out.append(rule)
        return tuple(out)

    def supporters(self, plan: _Plan, against: str | None) -> tuple[str, list[str]]:
        """The sum (``1 + support of A Mar``) and one line for each support that
        does not count: cut, dislodged, disabled, void, or given by the power
        whose unit is attacked (DATC 5.B.8)."""
        counted, notes = [], []
        for s in plan.supports:
            if s.power == against:
                notes.append(f"{self.label(s)}'s support does not count: a power never helps "
                             "dislodge its own unit (DATC 5.B.8)")
            elif self.ok(s):
                counted.append(f"support of {self.label(s)}")
            else:
                notes.append(f"{self.label(s)}'s support does not count: "
                             f"{self.support_failure(s)}")
        for s in self.d.plans.values():
            if s.kind in (_SUP_HOLD, _SUP_MOVE) and s.frm == plan.prov and s.void \
                    and s not in plan.supports and self._aims_at(s, plan):
                notes.append(f"{self.label(s)}'s support does not count: {s.void}")
        total = " + ".join(["1", *counted])
        return total, notes

    @staticmethod
    def _aims_at(support: _Plan, plan: _Plan) -> bool:
        """Whether a void support was meant for this order (to hold, or to move
        where this unit moves)."""
        if plan.kind == _MOVE:
            return support.kind == _SUP_MOVE and support.to == plan.dest
        return support.kind == _SUP_HOLD

    def support_failure(self, s: _Plan) -> str:
        """Why a support was not given (DATC 5.B.2; Dissolution §3.9)."""
        if s.void:
            return str(s.void)
        cutter = self.d.cut_by(s)
        attacker = next((m for m in self.d.moves_into.get(s.prov, ()) if self.ok(m)), None)
        if attacker is not None:
            return f"dislodged by {self.label(attacker)} (DATC 5.B.2)"
        if cutter is not None:
            return f"cut by {self.label(cutter)}'s attack (DATC 5.B.2)"
        disabler = self.d.disabled_by(s) if self.d.disabling else None
        if disabler is not None:
            return f"disabled by {self.label(disabler)} (Dissolution §3.9)"
        return "not given"

    # --- moves ---------------------------------------------------------------------

    def move(self, plan: _Plan) -> list[str]:
        d = self.d
        out = self.path(plan) if plan.by_convoy else []
        if plan.sortie:
            out.append(f"{self.label(plan)} is stationary: its move is a sortie and never "
                       "leaves its space (S9 §7.2)")
        defender = d.plans.get(plan.dest)
        attack = d.attack(plan)
        against = defender.power if defender is not None and (
            defender.kind != _MOVE or d.head_to_head(plan) is not None
            or not self.ok(defender)) else None
        total, notes = self.supporters(plan, against)
        if attack == 0 and plan.by_convoy and not d.has_path(plan):
            out.append("Attack strength 0: the move has no path (DATC 5.B.8)")
        elif attack == 0 and defender is not None and defender.power == plan.power:
            out.append(f"Attack strength 0: {self.label(defender)} is of the same power and "
                       "stays (DATC 5.B.8)")
        else:
            out.append(f"Attack strength {attack}{_sum(total)} (DATC 5.B.8)")
        out += notes
        opposition = [0]
        opponent = d.head_to_head(plan)
        if opponent is not None:
            strength = d.strength(opponent)
            t, n = self.supporters(opponent, None)
            out.append(f"Head to head with {self.label(opponent)}, moving the other way: its "
                       f"defend strength {strength}{_sum(t)} (DATC 5.B.7)")
            out += n
            opposition.append(strength)
        elif defender is None:
            out.append(f"{self.place(plan.dest)} is empty: hold strength 0 (DATC 5.B.5)")
        elif defender.kind == _MOVE:
            gone = self.ok(defender)
            hold = d.hold(plan.dest)
            out.append(f"{self.label(defender)} moves {'away' if gone else 'but fails'}: hold "
                       f"strength of {self.place(plan.dest)} {hold} (DATC 5.B.5)")
            opposition.append(hold)
        else:
            hold = d.hold(plan.dest)
            t, n = self.supporters(defender, None)
            out.append(f"Hold strength of {self.place(plan.dest)} {hold}{_sum(t)}: "
                       f"{self.label(defender)} stays (DATC 5.B.5)")
            out += n
            opposition.append(hold)
        for other in d.moves_into.get(plan.dest, ()):
            if other is plan:
                continue
            prevent = d.prevent(other)
            t, n = self.supporters(other, None)
            why = ""
            if prevent == 0:
                why = " (its path fails)" if other.by_convoy and not d.has_path(other) \
                    else " (it lost the head to head)"
            out.append(f"{self.label(other)} also moves to {self.place(plan.dest)}: prevent "
                       f"strength {prevent}{why or _sum(t)} (DATC 5.B.6)")
            out += [] if prevent == 0 else n
            opposition.append(prevent)
        out.append(self.verdict(plan, attack, max(opposition), defender))
        return out

    def verdict(self, plan: _Plan, attack: int, opposition: int, defender: _Plan | None) -> str:
        d = self.d
        if plan.prov in d.criss:
            mine, theirs = d.criss[plan.prov]
            return (f"Criss-cross attack: compared with the other convoyed attack as a head to "
                    f"head, {mine} against {theirs}, so it bounces and neither dislodges nor "
                    "disables (Dissolution §3.11.1)")
        if plan.sortie:
            return "A sortie never moves (S9 §7.2)" + (
                ": strong enough to dislodge, it disables the defender instead "
                "(Dissolution §3.9)" if d.disabling and d.move_wins(plan) else "")
        if self.ok(plan):
            return (f"{attack} beats the strongest opposition, {opposition}: the move succeeds "
                    "(DATC 5.B.1)")
        if defender is not None and defender.power in d.invulnerable and d.move_wins(plan):
            return (f"{self.label(defender)} is invulnerable and stays: the attack bounces "
                    "(Dissolution §3.8)" + (", and disables it (Dissolution §3.9)"
                                            if d.disabling else ""))
        return (f"{attack} does not beat the strongest opposition, {opposition}: the move fails "
                "(DATC 5.B.1)")

    def path(self, plan: _Plan) -> list[str]:
        """The convoy route (DATC 5.B.4; Dissolution §3.10.1 for stated paths)."""
        fleets = self.d.convoyers.get(plan.prov, ())
        if not fleets:
            return ["No fleet convoys it: the move has no path (DATC 5.B.4)"]
        used = [f for f in fleets if not plan.path or f.prov in plan.path]
        holding = [self.label(f) for f in used if self.ok(f)]
        failing = [self.label(f) for f in used if not self.ok(f)]
        stated = " along its stated path" if plan.path else ""
        if self.d.has_path(plan):
            return [f"Convoyed{stated} by {', '.join(holding)}: the path holds (DATC 5.B.4)"]
        why = f"{', '.join(failing)} {'do' if len(failing) > 1 else 'does'} not convoy" \
            if failing else "no chain of convoying fleets reaches the destination"
        return [f"Convoy{stated} disrupted: {why}, so the move has no path (DATC 5.B.4)"]

    # --- supports, convoys, holds ----------------------------------------------------

    def support(self, plan: _Plan, winner: _Plan | None) -> list[str]:
        target = self.d.plans.get(plan.frm)
        if not self.ok(plan):
            return [f"Support not given: {self.support_failure(plan)}"]
        what = "to hold" if plan.kind == _SUP_HOLD else f"to {self.place(plan.to)}"
        whom = self.label(target) if target is not None else plan.frm
        out = [f"Support given to {whom} {what}: it counts for that unit (DATC 5.B.2)"]
        for attacker in self.d.moves_into.get(plan.prov, ()):
            if attacker.power == plan.power:
                why = "a power's own unit never cuts its support"
            elif plan.kind == _SUP_MOVE and attacker.prov == plan.to:
                why = "it comes from the space the support is given into"
            elif attacker.by_convoy and not self.d.has_path(attacker):
                why = "its convoy path fails"
            else:
                continue
            out.append(f"{self.label(attacker)}'s attack does not cut it: {why} (DATC 5.B.2)")
        return out

    def convoy(self, plan: _Plan, winner: _Plan | None) -> list[str]:
        army = self.d.plans.get(plan.frm)
        if self.ok(plan):
            moved = army is not None and self.d.has_path(army)
            return [f"{self.label(plan)} is not dislodged, so it convoys (DATC 5.B.3)" + (
                "" if moved else ", but the army's path fails elsewhere (DATC 5.B.4)")]
        if winner is not None:
            return [f"{self.label(plan)} is dislodged, so it does not convoy (DATC 5.B.3)"]
        if self.d.disabling and self.d.disabled_by(plan):
            return [f"{self.label(plan)} is disabled, so it does not convoy (Dissolution §3.9)"]
        return ["The convoy fails: it is part of a convoy paradox (DATC 5.B.9)"]

    def defence(self, plan: _Plan, winner: _Plan | None) -> list[str]:
        """How the unit stood in its own space: dislodged, or held against attacks."""
        d = self.d
        attackers = [m for m in d.moves_into.get(plan.prov, ()) if m.power != plan.power]
        if not attackers and winner is None:
            return [] if plan.kind != _HOLD else ["No unit attacked it (DATC 5.B.5)"]
        out = []
        hold = d.hold(plan.prov)
        if winner is not None:
            if d.head_to_head(winner) is plan:
                against = f"its defend strength {d.strength(plan)} (DATC 5.B.7)"
            else:
                against = f"the hold strength {hold} of {self.place(plan.prov)} (DATC 5.B.5)"
            out.append(f"Dislodged by {self.label(winner)}: attack strength {d.attack(winner)} "
                       f"beat {against}")
            return out
        if plan.kind == _MOVE:
            return out
        t, notes = self.supporters(plan, None)
        out.append(f"Held with hold strength {hold}{_sum(t)} (DATC 5.B.5)")
        out += notes
        for m in attackers:
            out.append(f"{self.label(m)}'s attack, strength {d.attack(m)}, did not dislodge it")
        disabler = d.disabled_by(plan) if d.disabling else None
        if disabler is not None:
            out.append(f"Disabled by {self.label(disabler)}: strong enough to dislodge it but "
                       "unable to, so its support or convoy is void (Dissolution §3.9)")
        return out


def _sum(total: str) -> str:
    """`` = 1 + support of A Marseilles``, or nothing for a unit alone."""
    return "" if total == "1" else f" = {total}"
