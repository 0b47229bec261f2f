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
    """What happened to one order. Immutable.

    The explanation is often built only when it is read: a bot that looks
    at outcomes alone never pays for the text.
    """

    __slots__ = ("_reason", "dislodged", "implicit", "order", "outcome")

    order: Order
    outcome: Outcome
    dislodged: bool
    """The ordered unit was dislodged (movement phases)."""
    implicit: bool
    """The unit had no order and held by default."""
    _reason: str | Callable[[], str]

    def __init__(self, order: Order, outcome: Outcome, reason: str | Callable[[], str],
                 dislodged: bool = False, implicit: bool = False) -> None:
        _set = object.__setattr__
        _set(self, "order", order)
        _set(self, "outcome", outcome)
        _set(self, "_reason", reason)
        _set(self, "dislodged", dislodged)
        _set(self, "implicit", implicit)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("OrderResult is immutable")

    @property
    def reason(self) -> str:
        """The published explanation: ``Bounced 1v1``, ``Cut by A Ber``..."""
        reason = self._reason
        if not isinstance(reason, str):
            reason = reason()
            object.__setattr__(self, "_reason", reason)
        return reason

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
