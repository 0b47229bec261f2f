"""What happened to each order, in the words a GM publishes."""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from .orders import Order

__all__ = ["OrderResult", "Outcome"]


class Outcome(StrEnum):
    SUCCEEDS = "succeeds"
    FAILS = "fails"
    """A legal order that did not work: bounced, cut, disrupted, void."""
    ILLEGAL = "illegal"
    """An order the rules do not allow; the unit holds (DATC 4.E.1)."""


class OrderResult(NamedTuple):
    """An immutable record (a named tuple: the resolver makes many)."""

    order: Order
    outcome: Outcome
    reason: str
    """The published explanation: ``Bounced 1v1``, ``Cut by A Ber``..."""
    dislodged: bool = False
    """The ordered unit was dislodged (movement phases)."""
    implicit: bool = False
    """The unit had no order and held by default."""

    @property
    def succeeded(self) -> bool:
        return self.outcome is Outcome.SUCCEEDS

    def __str__(self) -> str:
        return f"{self.order}: {self.reason}"
