"""What happened to each order, in the words a GM publishes."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from .orders import Order

__all__ = ["OrderResult", "Outcome"]


class Outcome(StrEnum):
    SUCCEEDS = "succeeds"
    FAILS = "fails"
    """A legal order that did not work: bounced, cut, disrupted, void."""
    ILLEGAL = "illegal"
    """An order the rules do not allow; the unit holds (DATC 4.E.1)."""


class OrderResult:
    """What happened to one order. Immutable: its fields are read-only properties.

    The explanation is often built only when it is read: a bot that looks
    at outcomes alone never pays for the text.
    """

    # Plain slots behind read-only properties, rather than a __setattr__ that refuses
    # every write: a result is made for every order of every phase, and assigning
    # slots directly costs a third of going through object.__setattr__.
    # It also lets the compiled build (mypyc) compile this module.
    __slots__ = ("_dislodged", "_implicit", "_order", "_outcome", "_reason", "_why", "_words")

    _order: Order
    _outcome: Outcome
    _reason: str | Callable[[], str]
    _dislodged: bool
    _implicit: bool
    _why: tuple[str, ...] | Callable[[], tuple[str, ...]] | None
    _words: Callable[[str], str] | None
    """Applied to the reason and each line of the explanation as they are read
    (:meth:`cited`); the texts kept are the resolver's own."""

    def __init__(self, order: Order, outcome: Outcome, reason: str | Callable[[], str],
                 dislodged: bool = False, implicit: bool = False,
                 why: tuple[str, ...] | Callable[[], tuple[str, ...]] | None = None) -> None:
        self._order = order
        self._outcome = outcome
        self._reason = reason
        self._dislodged = dislodged
        self._implicit = implicit
        self._why = why
        self._words = None

    @property
    def order(self) -> Order:
        return self._order

    @property
    def outcome(self) -> Outcome:
        return self._outcome

    @property
    def dislodged(self) -> bool:
        """The ordered unit was dislodged (movement phases)."""
        return self._dislodged

    @property
    def implicit(self) -> bool:
        """The unit had no order and held by default."""
        return self._implicit

    @property
    def reason(self) -> str:
        """The published explanation: ``Bounced 1v1``, ``Cut by A Ber``..."""
        reason = self._reason
        if not isinstance(reason, str):
            reason = reason()
            self._reason = reason
        words = self._words
        return reason if words is None else words(reason)

    @property
    def explanation(self) -> tuple[str, ...]:
        """Why, line by line: the strengths compared, the supports that counted
        and those that did not, the path, the rule that decided
        (:mod:`lawspeaker.core.resolver_explain`). Built only when read, from
        the same decisions as :attr:`reason`; a result with nothing more to
        say than its reason explains itself with it."""
        why = self._why
        if why is None:
            return (self.reason,)
        if not isinstance(why, tuple):
            why = tuple(why())
            self._why = why
        words = self._words
        return why if words is None else tuple(words(line) for line in why)

    def cited(self, words: Callable[[str], str]) -> OrderResult:
        """The same result with its reason and each line of its explanation passed
        through ``words`` (a variant's own rulebook citations, ``Variant.cite``) when
        they are read. Cheaper than :meth:`reworded`: nothing is wrapped."""
        if self._words is not None:
            return self.reworded(lambda: words(self.reason), words)
        cited = self._clone()
        cited._words = words
        return cited

    def _unworded_why(self) -> tuple[str, ...] | Callable[[], tuple[str, ...]] | None:
        """The explanation as kept, before ``words``: lines, what makes them, or none."""
        return self._why

    def _clone(self) -> OrderResult:
        """A copy, its texts still to be worked out if they were (a subclass that keeps
        what its texts are made from copies that too)."""
        return OrderResult(self._order, self._outcome, self._reason, self._dislodged,
                           self._implicit, self._why)

    def reworded(self, reason: str | Callable[[], str],
                 words: Callable[[str], str] | None = None,
                 order: Order | None = None) -> OrderResult:
        """The same result with a new reason, its explanation kept (each line
        passed through ``words``, as the reason was: a variant's own rulebook
        citations, an Embassy's name), and, if given, the order as written."""
        why = self._unworded_why()
        if why is not None and words is not None:
            def why(lines: Callable[[], tuple[str, ...]] = lambda: self.explanation,
                    words: Callable[[str], str] = words) -> tuple[str, ...]:
                return tuple(words(line) for line in lines())
        return OrderResult(order or self.order, self.outcome, reason, self.dislodged,
                           self.implicit, why)

    @property
    def succeeded(self) -> bool:
        return self.outcome is Outcome.SUCCEEDS

    def _key(self) -> tuple[object, ...]:
        return (self.order, self.outcome, self.reason, self.dislodged, self.implicit)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OrderResult) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"OrderResult({self.order!r}, {self.outcome}, {self.reason!r}, "
                f"dislodged={self.dislodged}, implicit={self.implicit})")

    def __str__(self) -> str:
        return f"{self.order}: {self.reason}"
