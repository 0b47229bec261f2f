"""Reading a post: the orders and DP allocations a player pastes from a forum
or a Discord message, one per line.

A post is read line by line, and every line that is not blank, a comment or a
power header becomes a :class:`PostLine`: either an order, an allocation, or an
error saying what could not be read and where. Nothing is dropped silently, so
a front end can report each line back to the player at once (accepted,
illegal, unreadable), and the GM's tools can refuse a post with an error in it.

Lines name their power with a header (``England:``) or a prefix
(``England: F Lon - Nth``); a ``power`` given by the caller (the player who
posts) is the default. ``#`` starts a comment.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import PhaseKind
from .dp import Allocation, is_allocation, parse_allocation
from .notation import OrderSyntaxError, parse_order
from .orders import Order
from .variants import Variant

__all__ = ["PostError", "PostLine", "decode_post", "read_post"]


class PostError(ValueError):
    """A post that cannot be read at all (not text)."""


@dataclass(frozen=True, slots=True)
class PostLine:
    number: int
    """1-based line number in the post."""
    text: str
    """The line as written."""
    power: str | None
    """The power the line is for, or ``None`` when none was given."""
    order: Order | None = None
    allocation: Allocation | None = None
    error: str | None = None
    """Why the line could not be read; ``order`` and ``allocation`` are then ``None``."""

    @property
    def ok(self) -> bool:
        return self.error is None


def decode_post(data: bytes, where: str = "the post") -> str:
    """Text from bytes: UTF-8 (with or without a byte-order mark)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PostError(f"{where} is not UTF-8 text (byte {exc.start + 1})") from None


def read_post(variant: Variant, text: str | bytes, kind: PhaseKind,
              power: str | None = None) -> list[PostLine]:
    """Every order and allocation line of a post, read for a phase of ``kind``."""
    if isinstance(text, bytes):
        text = decode_post(text)
    lines: list[PostLine] = []
    current = power
    capitals = variant.capital_names()
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        head, sep, rest = line.partition(":")
        who = current
        try:
            if sep and not rest.strip():
                current = variant.power_named(head)
                continue
            who = variant.power_named(head) if sep else current
            if not who:
                raise ValueError("no power given: start with a line like 'England:'")
            body = rest if sep else line
            if is_allocation(body):
                lines.append(PostLine(number, raw, who, allocation=parse_allocation(
                    variant.map, body, who, capitals)))
            else:
                lines.append(PostLine(number, raw, who, order=parse_order(
                    variant.map, body, who, kind, capitals)))
        except (OrderSyntaxError, ValueError) as exc:
            lines.append(PostLine(number, raw, who, error=str(exc)))
    return lines
