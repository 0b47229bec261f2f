"""The Favor Map sections of a case (Dissolution §11; ``lawspeaker datc``).

A case that uses one of the Favor Map's sections (``PRESTATE_EMBASSIES``,
``VIOLATIONS``, ``POSTSTATE_KICKS`` ...) plays its phase with the Favor Map in
play, as a game does: the Embassies start from the setup the rules option
``favor_setup`` names (``RULES favor_setup=legacy`` for the rulebook's §11.7.4
examples), moved by ``PRESTATE_EMBASSIES``; a movement phase is followed by the
violations, kicks and Nuclear Retaliation (§11.6, §11.7, §11.4.2) before its
units are compared, and a Winter adjusts with the Embassies' orders (§11.5).
Cases without those sections run exactly as before, with plain Favor numbers
(``PRESTATE_FAVOR``). :class:`FavorSections` is called by the runner
(:mod:`lawspeaker.cases.runner`) at those points of the phase, when the case has
such sections; the format is in ``docs/case-format.md``.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..core.board import Dislodged, Position
from ..core.orders import EmbassyOrder, Order
from ..core.resolver import MovementResult
from ..rules.favor import FavorBoard, favor_board, favor_of, setup_for_rules, setup_problems
from ..rules.favor_orders import WinterResult, resolve_winter
from ..rules.violations import FavorAftermath, Violation, apply_violations
from .casefile import Entry
from .context import CaseContext

__all__ = ["FavorCaseError", "FavorSections"]


class FavorCaseError(ValueError):
    """A Favor Map section that cannot be read (reported like the runner's other errors)."""


class FavorSections:
    """Puts the Favor Map into a case's position and checks its POSTSTATE sections; owns
    what the phase did to the Embassies, which the checks read."""

    def __init__(self, ctx: CaseContext) -> None:
        self.ctx = ctx
        self.favor_done: FavorAftermath | None = None
        """After a movement phase: the violations, kicks and retaliation (§11.6, §11.7)."""
        self.winter_done: WinterResult | None = None
        """After a Winter: the Embassies' orders resolved (§11.5)."""

    @property
    def board(self) -> FavorBoard:
        return favor_board(self.ctx.variant, self.ctx.rules.favor_board)

    def nuclear(self, entry: Entry, name: str) -> str:
        name = name.strip()
        if name not in self.ctx.variant.nuclear:
            raise FavorCaseError(f"line {entry.line}: '{name}' is not a nuclear power")
        return name

    def position(self, position: Position) -> Position:
        """The case's position with its Embassies (§11.2), kicks and retaliation marks."""
        if self.ctx.case.prestate_favor:
            raise FavorCaseError("PRESTATE_FAVOR gives plain Favor values; with the Favor Map "
                                 "in play, move the Embassies with PRESTATE_EMBASSIES")
        board = self.board
        setup = setup_for_rules(self.ctx.variant, self.ctx.rules)
        embassies = {p: dict(e) for p, e in setup.items()}
        for entry in self.ctx.case.prestate_embassies:
            player = self.ctx.power(entry)
            for space in entry.text.split():
                if not board.is_space(space):
                    raise FavorCaseError(f"line {entry.line}: {space} is not a space of the "
                                         "Favor Map (Dissolution §11.1.2)")
                embassies.setdefault(player, {})[board.nuclear_of(space)] = space
        for player in position.exiles:  # Dissolution §5.3: an exile has no Embassies
            embassies.pop(player, None)
        players = {p: e for p, e in embassies.items() if p not in position.exiles}
        problems = [p for p in setup_problems(self.ctx.variant, players, board, check_values=False)
                    if "has no Embassies" not in p]
        if problems:
            raise FavorCaseError("; ".join(problems))

        def marks(entries: Iterable[Entry]) -> dict[str, list[str]]:
            out: dict[str, list[str]] = {}
            for e in entries:
                out.setdefault(self.ctx.power(e), []).append(self.nuclear(e, e.text))
            return out

        return position.replace(favor={}, embassies=embassies,
                                kicked=marks(self.ctx.case.prestate_kicked),
                                retaliated=marks(self.ctx.case.prestate_retaliated))

    def after_moves(self, position: Position, moved: MovementResult) -> FavorAftermath:
        """Violations, kicks and Nuclear Retaliation after the moves (§11.6, §11.7, §11.4.2)."""
        stated = [Violation(self.ctx.power(e), self.nuclear(e, e.text), "stated by the case")
                  for e in self.ctx.case.violations]
        beaten = {p: Dislodged(u, frm) for p, (u, frm) in moved.dislodged.items()}
        done = apply_violations(self.ctx.variant, position,
                                position.replace(units=moved.units, dislodged=beaten),
                                moved, self.ctx.rules, stated)
        self.favor_done = done
        return done

    def winter(self, position: Position, orders: list[Order]) -> tuple[list[Order],
                                                                       WinterResult]:
        """Split off the Embassies' orders and resolve them (§11.5, §11.7.3)."""
        embassy = [o for o in orders if isinstance(o, EmbassyOrder)]
        self.winter_done = resolve_winter(self.ctx.variant, position, embassy, self.ctx.rules)
        return [o for o in orders if not isinstance(o, EmbassyOrder)], self.winter_done

    def check(self, before: Position) -> None:
        """The Favor Map's POSTSTATE sections, against the Embassies afterwards."""
        case = self.ctx.case
        if self.favor_done is not None:
            embassies = self.favor_done.position.embassies
        elif self.winter_done is not None:
            embassies = self.winter_done.embassies
        else:
            embassies = before.embassies
        for entry in case.poststate_embassies:
            player = self.ctx.power(entry)
            mine = embassies.get(player, {})
            for space in entry.text.split():
                got = mine.get(self.board.nuclear_of(space), "none")
                if got != space:
                    self.ctx.report.problems.append(f"line {entry.line}: expected {player}'s "
                                                    f"Embassy on {space}, it is on {got}")
        after = before.replace(embassies=embassies)
        for entry in case.poststate_favor:
            name, _, number = entry.text.rpartition(" ")
            player, nuclear = self.ctx.power(entry), self.nuclear(entry, name)
            got = favor_of(after, player, nuclear)
            if got != int(number):
                self.ctx.report.problems.append(f"line {entry.line}: expected {player}'s Favor "
                                                f"with {nuclear} to be {number}, got {got}")
        done = self.favor_done
        if case.poststate_violations is not None:
            want = sorted((self.ctx.power(e), self.nuclear(e, e.text))
                          for e in case.poststate_violations)
            found = done.violations if done else ()
            got = sorted((v.player, v.nuclear) for v in found)
            if want != got:
                shown = "; ".join(map(str, found)) or "none"
                self.ctx.report.problems.append(f"violations: expected {_pairs(want)}, got "
                                                f"{_pairs(got)} ({shown})")
        self.compare_steps("kicks", case.poststate_kicks, done.kicks if done else ())
        winter = self.winter_done
        self.compare_steps("Winter retreats", case.poststate_embassy_retreats,
                           winter.retreats if winter else ())

    def compare_steps(self, what: str, entries: tuple[Entry, ...] | None,
                      made: Iterable[tuple[str, str, str]]) -> None:
        """Exactly these kicks or retreats, in this order (§11.7.2: one at a time)."""
        if entries is None:
            return
        want = [(self.ctx.power(e), *(s.strip() for s in e.text.split("-"))) for e in entries]
        got = list(made)
        if want != got:
            def show(steps: list[tuple[str, ...]]) -> str:
                return ", ".join(f"{p}: {a} - {b}" for p, a, b in steps) or "none"
            self.ctx.report.problems.append(f"{what}: expected [{show(want)}], "
                                            f"got [{show(got)}]")


def _pairs(pairs: list[tuple[str, str]]) -> str:
    return "[" + ", ".join(f"{p}: {n}" for p, n in pairs) + "]"

