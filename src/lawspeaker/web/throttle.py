"""Per-seat rate limits on checking and sending orders.

One player's script (or a stuck key) must not make the server slow for the
other players of a busy deadline. Each seat (a game and the power it acts
for, as a player or as the GM) may check at most :data:`CHECKS` posts and
send at most :data:`SUBMITS` posts in any moving minute; beyond that the
answer is 429 with ``Retry-After`` and nothing is checked or kept. The
counts live in each server process (the ``limits`` library's memory store),
so with several workers a seat may do up to that many in each.
"""

from __future__ import annotations

import math
import time

from fastapi import HTTPException
from limits import parse, storage, strategies

__all__ = ["CHECKS", "SANDBOXES", "SUBMITS", "Throttle"]

CHECKS = "240/minute"
"""Checks per seat: the order box checks at most twice a second as one types."""
SUBMITS = "60/minute"
"""Posts sent per seat."""
SANDBOXES = "60/minute"
"""What-if sandboxes run per seat (each replays up to a dozen phases)."""


_NOT_DONE = {"check": "checked", "send": "kept", "sandbox": "tried"}


class Throttle:
    """The limits of one server process; :meth:`hit` counts a request or refuses it."""

    def __init__(self, checks: str = CHECKS, submits: str = SUBMITS,
                 sandboxes: str = SANDBOXES) -> None:
        self._limiter = strategies.MovingWindowRateLimiter(storage.MemoryStorage())
        self._items = {"check": parse(checks), "send": parse(submits),
                       "sandbox": parse(sandboxes)}

    def hit(self, what: str, game: str, seat: str) -> None:
        """Count one ``what`` (``check``, ``send`` or ``sandbox``) by ``seat`` in ``game``;
        HTTP 429 with the wait, if the seat is over its limit."""
        item = self._items[what]
        if self._limiter.hit(item, what, game, seat):
            return
        reset = self._limiter.get_window_stats(item, what, game, seat).reset_time
        wait = max(1, math.ceil(reset - time.time()))
        raise HTTPException(
            429, f"too many {what}s for {seat} in a short time (at most {item.amount} a "
                 f"{item.GRANULARITY.name}); nothing was {_NOT_DONE[what]}, try again in "
                 f"{wait} s",
            headers={"Retry-After": str(wait)})
