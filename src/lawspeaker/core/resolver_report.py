"""Step 4 of the resolver: what happened to each order, in a GM's words.

``Bounced 1v1``, ``Cut by A Ber``, ``Dislodged by A Cai (2v1)``, ``Disabled by
A Khk (2v1)`` (Dissolution §3.9), ``Criss-Cross Bounce 2v2`` (§3.11.1). The
:class:`Report` is a collaborator of :class:`lawspeaker.core.resolver._Resolver`
rather than a part of it: it only reads decisions already made, so it is given
them as a :class:`Decisions` (what it may read) and owns no state of its own.
Keeping it apart keeps the resolver's module about deciding, and the texts
(which DATC and case tests compare) in one place.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from .orders import Hold
from .resolver_plan import _CONVOY, _HOLD, _MOVE, _SUP_HOLD, _SUP_MOVE, _Plan
from .results import OrderResult, Outcome


class Decisions(Protocol):
    """What the report reads of a resolver that has decided every order: the plans
    and their decisions, and the strengths (which may ask further decisions, already
    settled by then). :class:`lawspeaker.core.resolver._Resolver` is one; the
    protocol keeps the report from importing it (the resolver imports the report)."""

    @property
    def plans(self) -> Mapping[str, _Plan]: ...
    @property
    def moves_into(self) -> Mapping[str, list[_Plan]]: ...
    @property
    def convoyers(self) -> Mapping[str, Sequence[_Plan]]: ...
    @property
    def invulnerable(self) -> frozenset[str]: ...
    @property
    def disabling(self) -> bool: ...
    @property
    def criss(self) -> Mapping[str, tuple[int, int]]: ...

    def attack(self, plan: _Plan) -> int: ...
    def hold(self, prov: str) -> int: ...
    def prevent(self, plan: _Plan) -> int: ...
    def strength(self, plan: _Plan, exclude_power: str | None = None) -> int: ...
    def has_path(self, plan: _Plan) -> bool: ...
    def head_to_head(self, plan: _Plan) -> _Plan | None: ...
    def cut_by(self, plan: _Plan) -> _Plan | None: ...
    def disabled_by(self, plan: _Plan) -> _Plan | None: ...
    def move_wins(self, plan: _Plan) -> bool: ...


class Report:
    """Explanations of results; the decisions come from the resolver."""

    def __init__(self, decisions: Decisions,
                 explain: Callable[[_Plan, _Plan | None], tuple[str, ...]]) -> None:
        self.decisions = decisions
        self.explain_lines = explain
        """Why a plan's result is what it is, line by line (the resolver hands in
        :meth:`lawspeaker.core.resolver_explain.Explainer.lines`)."""

    def _label(self, plan: _Plan) -> str:
        """A unit as GMs write it in results: ``A Ber``, ``F Stp``."""
        return f"{plan.unit.type.value} {plan.prov.capitalize()}"

    def explain(self, plan: _Plan, winner: _Plan | None) -> OrderResult:
        """The result of a plan's order. Outcomes are decided here; the text,
        and the explanation (:mod:`.resolver_explain`), are built only when
        read (see :class:`OrderResult`)."""
        order = plan.order
        implicit = order is None
        lines = self.explain_lines

        def why() -> tuple[str, ...]:
            return lines(plan, winner)

        if order is None:
            order = Hold(plan.power, plan.unit.type, plan.unit.location)
        hit = winner is not None
        ok = plan.ok
        kind = plan.kind
        if kind == _MOVE:
            if ok:
                return OrderResult(order, Outcome.SUCCEEDS, "Move succeeds", False, False, why)
            return OrderResult(order, Outcome.FAILS,
                               lambda: self._joined(self._why_move_failed(plan), plan, winner),
                               hit, False, why)
        if plan.void:
            outcome = Outcome.ILLEGAL if plan.illegal else Outcome.FAILS
            return OrderResult(order, outcome, lambda: self._joined(plan.void, plan, winner),
                               hit, False, why)
        decisions = self.decisions
        disabler = decisions.disabled_by(plan) if decisions.disabling and not hit else None
        if disabler is not None:
            text = self._disabled_text(plan, disabler)
            if kind == _HOLD:
                return OrderResult(order, Outcome.SUCCEEDS,
                                   f"Holds; {text[0].lower()}{text[1:]}", False, implicit, why)
            return OrderResult(order, Outcome.FAILS, text, False, False, why)  # §3.9: void
        if kind in (_SUP_HOLD, _SUP_MOVE):
            if ok:
                return OrderResult(order, Outcome.SUCCEEDS, "Support given", False, False, why)
            return OrderResult(order, Outcome.FAILS, lambda: self._why_cut(plan, winner), hit,
                               False, why)
        if kind == _CONVOY:
            if ok and decisions.has_path(decisions.plans[plan.frm]):
                return OrderResult(order, Outcome.SUCCEEDS, "Convoys", False, False, why)
            if ok:
                return OrderResult(order, Outcome.FAILS, "Void: convoy disrupted elsewhere",
                                   False, False, why)
            return OrderResult(order, Outcome.FAILS, lambda: (
                self._dislodged_text(plan, winner) if winner else
                "Void: convoy paradox, fleet holds (Szykman rule)"), hit, False, why)
        if hit:
            return OrderResult(order, Outcome.FAILS, lambda: self._dislodged_text(plan, winner),
                               True, implicit, why)
        return OrderResult(order, Outcome.SUCCEEDS, "Holds", False, implicit, why)

    def _disabled_text(self, plan: _Plan, attacker: _Plan) -> str:
        """``Disabled by A Khk (2v1)`` (Dissolution §3.9)."""
        return (f"Disabled by {self._label(attacker)} "
                f"({self.decisions.attack(attacker)}v{self.decisions.hold(plan.prov)})")

    def _dislodged_text(self, plan: _Plan, winner: _Plan | None) -> str:
        assert winner is not None
        return (f"Dislodged by {self._label(winner)} "
                f"({self.decisions.attack(winner)}v{self._resistance(plan, winner)})")

    def _joined(self, reason: str, plan: _Plan, winner: _Plan | None) -> str:
        return f"{reason}; {self._dislodged_text(plan, winner)}" if winner else reason

    def _why_cut(self, plan: _Plan, winner: _Plan | None) -> str:
        if winner is not None:
            return f"Cut: {self._dislodged_text(plan, winner)}"
        cutter = self.decisions.cut_by(plan)
        return f"Cut by {self._label(cutter)}" if cutter else "Cut"

    def _resistance(self, defender: _Plan, winner: _Plan) -> int:
        if self.decisions.head_to_head(winner) is defender:
            return self.decisions.strength(defender)
        return self.decisions.hold(defender.prov) if defender.kind != _MOVE else 1

    def _why_move_failed(self, plan: _Plan) -> str:
        if plan.prov in self.decisions.criss:  # Dissolution §3.11.1
            mine, theirs = self.decisions.criss[plan.prov]
            text = f"Criss-Cross Bounce {mine}v{theirs}"
            return text if self.decisions.has_path(plan) else f"{text}, convoy disrupted"
        if plan.sortie:
            return "Sortie: a stationary unit never moves"
        if plan.by_convoy and not self.decisions.has_path(plan):
            if not self.decisions.convoyers.get(plan.prov):
                return "Void: no convoy"
            return "Void: convoy disrupted"
        attack = self.decisions.attack(plan)
        defender = self.decisions.plans.get(plan.dest)
        if attack == 0 and defender is not None and defender.power == plan.power:
            return f"Bounced: cannot dislodge own {self._label(defender)}"
        decisions = self.decisions
        if defender is not None and defender.power in decisions.invulnerable \
                and decisions.move_wins(plan):
            return (f"Bounced {attack}v{decisions.hold(plan.dest)}: {self._label(defender)} is "
                    "invulnerable")  # Dissolution §3.8
        opponent = decisions.head_to_head(plan)
        resist = decisions.strength(opponent) if opponent else decisions.hold(plan.dest)
        others = [decisions.prevent(m) for m in decisions.moves_into[plan.dest] if m is not plan]
        return f"Bounced {attack}v{max([resist, *others])}"
