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
from functools import partial
from typing import Final, Protocol

from .orders import Hold, Order
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


_SUCCEEDS: Final = Outcome.SUCCEEDS
_FAILS: Final = Outcome.FAILS
_ILLEGAL: Final = Outcome.ILLEGAL
MOVE_SUCCEEDS: Final = "Move succeeds"


class PlanResult(OrderResult):
    """A result of the movement resolver. Its outcome is known when it is made; its
    order, whether the unit was dislodged and whether it had no order are read from its
    plan, and its reason, when the order failed, and its explanation are worked out
    from the plan by the :class:`Report` when first read. Keeping the plan, rather than
    a closure per text and a copy of each fact, makes a result one small object: one is
    made for every order of every phase."""

    __slots__ = ("_plan", "_report", "_winner")

    _plan: _Plan
    _report: Report
    _winner: _Plan | None

    def __init__(self, report: Report, plan: _Plan, winner: _Plan | None, outcome: Outcome,
                 reason: str | None) -> None:
        self._report = report
        self._plan = plan
        self._winner = winner
        self._outcome = outcome
        self._reason = reason  # type: ignore[assignment]  # None: worked out when read
        self._why = None
        self._words = None

    @property
    def order(self) -> Order:
        order = self._plan.order
        if order is not None:
            return order
        try:  # no order: the unit held (DATC 4.E.1), and the result says so
            return self._order
        except AttributeError:
            unit = self._plan.unit
            self._order = Hold(unit.power, unit.type, unit.location)
            return self._order

    @property
    def implicit(self) -> bool:
        return self._plan.order is None

    @property
    def dislodged(self) -> bool:
        # A unit some move beat into its space, unless it had moved away itself.
        plan = self._plan
        return self._winner is not None and not (plan.kind == _MOVE and plan.ok)

    @property
    def reason(self) -> str:
        reason = self._reason
        if reason is None:
            reason = self._reason = self._report.reason(self._plan, self._winner)
        elif not isinstance(reason, str):
            reason = self._reason = reason()
        words = self._words
        return reason if words is None else words(reason)

    @property
    def explanation(self) -> tuple[str, ...]:
        why = self._why
        if why is None:
            why = self._why = self._report.explain_lines(self._plan, self._winner)
        elif not isinstance(why, tuple):
            why = self._why = tuple(why())
        words = self._words
        return why if words is None else tuple(words(line) for line in why)

    def _unworded_why(self) -> tuple[str, ...] | Callable[[], tuple[str, ...]]:
        why = self._why
        if why is None:
            return partial(self._report.explain_lines, self._plan, self._winner)
        return why

    def _clone(self) -> OrderResult:
        clone = PlanResult(self._report, self._plan, self._winner, self._outcome,
                           self._reason)  # type: ignore[arg-type]  # (not yet worked out)
        clone._why = self._why
        return clone


class Report:
    """Explanations of results; the decisions come from the resolver."""

    def __init__(self, decisions: Decisions,
                 explainer: Callable[[], Callable[[_Plan, _Plan | None], tuple[str, ...]]]
                 ) -> None:
        self.decisions = decisions
        self._explainer = explainer
        """Makes what :meth:`explain_lines` asks (the resolver hands in a maker of
        :meth:`lawspeaker.core.resolver_explain.Explainer.lines`): made when an
        explanation is first read, which in most phases is never."""
        self._lines: Callable[[_Plan, _Plan | None], tuple[str, ...]] | None = None

    def explain_lines(self, plan: _Plan, winner: _Plan | None) -> tuple[str, ...]:
        """Why a plan's result is what it is, line by line."""
        lines = self._lines
        if lines is None:
            lines = self._lines = self._explainer()
        return lines(plan, winner)

    def _label(self, plan: _Plan) -> str:
        """A unit as GMs write it in results: ``A Ber``, ``F Stp``."""
        return f"{plan.unit.type.value} {plan.prov.capitalize()}"

    def explain(self, plan: _Plan, winner: _Plan | None) -> OrderResult:
        """The result of a plan's order. Outcomes are decided here; the text of a
        failure (:meth:`reason`) and the explanation (:mod:`.resolver_explain`) are
        built only when read, from the plan (see :class:`PlanResult`)."""
        kind = plan.kind
        if kind == _MOVE:
            if plan.ok:
                return PlanResult(self, plan, winner, _SUCCEEDS, MOVE_SUCCEEDS)
            return PlanResult(self, plan, winner, _FAILS, None)
        if plan.void:
            return PlanResult(self, plan, winner, _ILLEGAL if plan.illegal else _FAILS, None)
        decisions = self.decisions
        if decisions.disabling and winner is None:
            disabler = decisions.disabled_by(plan)
            if disabler is not None:
                text = self._disabled_text(plan, disabler)
                if kind == _HOLD:
                    return PlanResult(self, plan, winner, _SUCCEEDS,
                                      f"Holds; {text[0].lower()}{text[1:]}")
                return PlanResult(self, plan, winner, _FAILS, text)  # §3.9: void
        if kind in (_SUP_HOLD, _SUP_MOVE):
            if plan.ok:
                return PlanResult(self, plan, winner, _SUCCEEDS, "Support given")
            return PlanResult(self, plan, winner, _FAILS, None)
        if kind == _CONVOY:
            if plan.ok and decisions.has_path(decisions.plans[plan.frm]):
                return PlanResult(self, plan, winner, _SUCCEEDS, "Convoys")
            if plan.ok:
                return PlanResult(self, plan, winner, _FAILS, "Void: convoy disrupted elsewhere")
            return PlanResult(self, plan, winner, _FAILS, None)
        if winner is not None:
            return PlanResult(self, plan, winner, _FAILS, None)
        return PlanResult(self, plan, winner, _SUCCEEDS, "Holds")

    def reason(self, plan: _Plan, winner: _Plan | None) -> str:
        """The text of a result :meth:`explain` left to be worked out when read: a
        failed move, a void order, a cut support, a failed convoy, a dislodged hold."""
        kind = plan.kind
        if kind == _MOVE:
            return self._joined(self._why_move_failed(plan), plan, winner)
        if plan.void:
            return self._joined(str(plan.void), plan, winner)
        if kind in (_SUP_HOLD, _SUP_MOVE):
            return self._why_cut(plan, winner)
        if kind == _CONVOY and not winner:
            return "Void: convoy paradox, fleet holds (Szykman rule)"
        return self._dislodged_text(plan, winner)

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
