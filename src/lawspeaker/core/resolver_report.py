"""Step 4 of the resolver: what happened to each order, in a GM's words.

A mixin of :class:`lawspeaker.core.resolver._Resolver`, kept apart because it only
reads decisions already made: ``Bounced 1v1``, ``Cut by A Ber``, ``Dislodged by
A Cai (2v1)``, ``Disabled by A Khk (2v1)`` (Dissolution §3.9), ``Criss-Cross
Bounce 2v2`` (§3.11.1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .orders import Hold
from .resolver_plan import _CONVOY, _HOLD, _MOVE, _SUP_HOLD, _SUP_MOVE, _Plan
from .results import OrderResult, Outcome

if TYPE_CHECKING:
    from .board import Unit
    from .geography import GameMap


class ReportMixin:
    """Explanations of results; the decisions come from the resolver."""

    map: GameMap
    plans: dict[str, _Plan]
    result: dict[str, bool]
    moves_into: dict[str, list[_Plan]]
    convoyers: dict[str, list[_Plan]]
    invulnerable: frozenset[str]
    disabling: bool
    criss: dict[str, tuple[int, int]]

    if TYPE_CHECKING:
        def _attack(self, plan: _Plan) -> int: ...
        def _hold(self, prov: str) -> int: ...
        def _prevent(self, plan: _Plan) -> int: ...
        def _strength(self, plan: _Plan, exclude_power: str | None = None) -> int: ...
        def _has_path(self, plan: _Plan) -> bool: ...
        def _head_to_head(self, plan: _Plan) -> _Plan | None: ...
        def _cut_by(self, plan: _Plan) -> _Plan | None: ...
        def _disabled_by(self, plan: _Plan) -> _Plan | None: ...
        def _move_wins(self, plan: _Plan) -> bool: ...

    def _name(self, location: str) -> str:
        return self.map.name_of(location)

    def _unit_name(self, unit: Unit) -> str:
        """A unit in the names players use: ``A Paris``, never a key."""
        return f"{unit.type.value} {self.map.name_of(unit.location)}"

    def _label(self, plan: _Plan) -> str:
        """A unit as GMs write it in results: ``A Ber``, ``F Stp``."""
        return f"{plan.unit.type.value} {plan.prov.capitalize()}"

    def _explain(self, plan: _Plan, winner: _Plan | None) -> OrderResult:
        """The result of a plan's order. Outcomes are decided here; the text
        is built only when read (see :class:`OrderResult`)."""
        order = plan.order
        implicit = order is None
        if order is None:
            order = Hold(plan.power, plan.unit.type, plan.unit.location)
        hit = winner is not None
        ok = self.result.get(plan.prov, True)
        kind = plan.kind
        if kind == _MOVE:
            if ok:
                return OrderResult(order, Outcome.SUCCEEDS, "Move succeeds")
            return OrderResult(order, Outcome.FAILS,
                               lambda: self._joined(self._why_move_failed(plan), plan, winner),
                               hit)
        if plan.void:
            outcome = Outcome.ILLEGAL if plan.illegal else Outcome.FAILS
            return OrderResult(order, outcome, lambda: self._joined(plan.void, plan, winner), hit)
        disabler = self._disabled_by(plan) if self.disabling and not hit else None
        if disabler is not None:
            text = self._disabled_text(plan, disabler)
            if kind == _HOLD:
                return OrderResult(order, Outcome.SUCCEEDS, f"Holds; {text[0].lower()}{text[1:]}",
                                   False, implicit)
            return OrderResult(order, Outcome.FAILS, text)  # §3.9: support or convoy void
        if kind in (_SUP_HOLD, _SUP_MOVE):
            if ok:
                return OrderResult(order, Outcome.SUCCEEDS, "Support given")
            return OrderResult(order, Outcome.FAILS, lambda: self._why_cut(plan, winner), hit)
        if kind == _CONVOY:
            if ok and self._has_path(self.plans[plan.frm]):
                return OrderResult(order, Outcome.SUCCEEDS, "Convoys")
            if ok:
                return OrderResult(order, Outcome.FAILS, "Void: convoy disrupted elsewhere")
            return OrderResult(order, Outcome.FAILS, lambda: (
                self._dislodged_text(plan, winner) if winner else
                "Void: convoy paradox, fleet holds (Szykman rule)"), hit)
        if hit:
            return OrderResult(order, Outcome.FAILS, lambda: self._dislodged_text(plan, winner),
                               True, implicit)
        return OrderResult(order, Outcome.SUCCEEDS, "Holds", False, implicit)

    def _disabled_text(self, plan: _Plan, attacker: _Plan) -> str:
        """``Disabled by A Khk (2v1)`` (Dissolution §3.9)."""
        return (f"Disabled by {self._label(attacker)} "
                f"({self._attack(attacker)}v{self._hold(plan.prov)})")

    def _dislodged_text(self, plan: _Plan, winner: _Plan | None) -> str:
        assert winner is not None
        return (f"Dislodged by {self._label(winner)} "
                f"({self._attack(winner)}v{self._resistance(plan, winner)})")

    def _joined(self, reason: str, plan: _Plan, winner: _Plan | None) -> str:
        return f"{reason}; {self._dislodged_text(plan, winner)}" if winner else reason

    def _why_cut(self, plan: _Plan, winner: _Plan | None) -> str:
        if winner is not None:
            return f"Cut: {self._dislodged_text(plan, winner)}"
        cutter = self._cut_by(plan)
        return f"Cut by {self._label(cutter)}" if cutter else "Cut"

    def _resistance(self, defender: _Plan, winner: _Plan) -> int:
        if self._head_to_head(winner) is defender:
            return self._strength(defender)
        return self._hold(defender.prov) if defender.kind != _MOVE else 1

    def _why_move_failed(self, plan: _Plan) -> str:
        if plan.prov in self.criss:  # Dissolution §3.11.1
            mine, theirs = self.criss[plan.prov]
            text = f"Criss-Cross Bounce {mine}v{theirs}"
            return text if self._has_path(plan) else f"{text}, convoy disrupted"
        if plan.sortie:
            return "Sortie: a stationary unit never moves"
        if plan.by_convoy and not self._has_path(plan):
            if not self.convoyers.get(plan.prov):
                return "Void: no convoy"
            return "Void: convoy disrupted"
        attack = self._attack(plan)
        defender = self.plans.get(plan.dest)
        if attack == 0 and defender is not None and defender.power == plan.power:
            return f"Bounced: cannot dislodge own {self._label(defender)}"
        if defender is not None and defender.power in self.invulnerable \
                and self._move_wins(plan):
            return (f"Bounced {attack}v{self._hold(plan.dest)}: {self._label(defender)} is "
                    "invulnerable")  # Dissolution §3.8
        opponent = self._head_to_head(plan)
        resist = self._strength(opponent) if opponent else self._hold(plan.dest)
        others = [self._prevent(m) for m in self.moves_into[plan.dest] if m is not plan]
        return f"Bounced {attack}v{max([resist, *others])}"
