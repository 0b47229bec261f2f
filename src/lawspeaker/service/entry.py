"""Order entry helpers: a post checked without keeping it, and the legal
orders of each unit, for a front end to offer as the player types.

The check runs the very code of :meth:`GameService.submit`, stopping short
of recording the post, so "checked as you type" and "accepted when sent" can
never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.board import PhaseKind
from ..core.geography import province_of
from ..core.notation import format_order
from ..core.orders import Hold, Move, SupportHold, SupportMove
from .types import Forbidden, SubmissionReport, Viewer

if TYPE_CHECKING:
    from ..store import Store

__all__ = ["EntryMixin", "UnitOptions"]


@dataclass(frozen=True, slots=True)
class UnitOptions:
    unit: str
    """The unit as players write it: ``F Asgard``."""
    orders: tuple[str, ...]
    """Legal orders in players' notation (convoys aside: they are written by hand)."""
    note: str = ""


class EntryMixin:
    store: Store
    _load: Any
    _power: Any
    _submit: Any
    _engine: Any

    def check(self, name: str, power: str, text: str | bytes, actor: Viewer
              ) -> SubmissionReport:
        """What :meth:`submit` would answer for this post, with nothing kept:
        the same code in a read-only snapshot, so checking never waits for a
        writer and never holds one up."""
        with self.store.read() as s:
            g = self._load(s, name)
            power = self._power(g.variant, power)
            if not actor.may_act_for(power):
                raise Forbidden(f"{actor} may not submit orders for {power}")
            return self._submit(s, g, power, text, actor, keep=False)

    def due(self, name: str, power: str, actor: Viewer) -> tuple[list[str], str]:
        """What the power must order this phase (its units, retreats, builds,
        Embassies and required holds, DP), and an example order of this phase's
        kind for it, for the page beside the order box."""
        from .templates import duties, example_order

        with self.store.transaction() as s:
            g = self._load(s, name)
            power = self._power(g.variant, power)
            if not actor.may_act_for(power):
                raise Forbidden(f"{actor} may not ask for {power}'s orders")
            return (duties(g.variant, g.position, power, g.rules),
                    example_order(g.variant, g.position, power, g.rules))

    def unit_options(self, name: str, power: str, actor: Viewer) -> list[UnitOptions]:
        """Each of the power's units with the orders it may legally give now
        (movement phases), or what the template offers in other phases."""
        from .templates import order_template

        with self.store.read() as s:
            g = self._load(s, name)
            power = self._power(g.variant, power)
            if not actor.may_act_for(power):
                raise Forbidden(f"{actor} may not ask for {power}'s orders")
            position, game_map = g.position, g.variant.map
            if position.result:
                return []
            if position.phase.kind is not PhaseKind.MOVEMENT:
                lines = order_template(g.variant, position, power, g.rules).splitlines()[3:]
                return [UnitOptions(line.split("#")[0].strip(), (line.split("#")[0].strip(),),
                                    line.partition("#")[2].strip())
                        for line in lines if line.split("#")[0].strip()]
            game = self._engine(g)
            out = []
            units = sorted(position.units_of(power), key=lambda u: u.province)
            for u in units:
                reach = game_map.neighbours(u.type, u.location)
                provinces = {province_of(t) for t in reach}
                candidates: list[Any] = [Hold(power, u.type, u.location)]
                candidates += [Move(power, u.type, u.location, t) for t in sorted(reach)]
                for v in position.units.values():
                    if v.location == u.location:
                        continue
                    if v.province in provinces:
                        candidates.append(SupportHold(power, u.type, u.location, v.type,
                                                      v.location))
                    for t in sorted(game_map.neighbours(v.type, v.location)):
                        if province_of(t) in provinces and province_of(t) != u.province:
                            candidates.append(SupportMove(power, u.type, u.location, v.type,
                                                          v.location, t))
                legal = tuple(format_order(o, game_map) for o in candidates
                              if game.problem(o) is None)
                note = "stationary: may hold or support" if u.stationary else ""
                out.append(UnitOptions(f"{u.type.value} {game_map.name_of(u.location)}",
                                       legal, note))
            return out

