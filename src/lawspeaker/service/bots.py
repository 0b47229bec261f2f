"""Bots in seats of real games.

The GM seats a bot (:mod:`lawspeaker.sim.bots`, by name) at a power: for a
power nobody plays, or for one whose player is gone. With the house rule
``bot_after_missed=N`` (:mod:`.house_rules`) the scheduler does it by itself:
when a power has missed N deadlines since its seat was last given, the bot
named by ``bot_substitute`` takes the seat from the next phase on. Either way
the seat is the bot's until the GM names a player for it again.

A seated bot plays as a player does: as soon as a phase opens (after
processing, a rollback, or when it is seated) it posts its orders and DP
through :meth:`~.entry.OrderEntry.submit`, the path every player's post takes,
before the deadline, and says it is ready. Its post is kept as the power's
post, so its DP allocations are as secret as anyone's. A bot's seat is a
player named ``bot:<name>``; its posts are signed ``bot <name>``.
"""

from __future__ import annotations

import logging
import random

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..core.notation import format_order
from ..sim.bots import Moves, bot_named
from ..store.models import BallotRow, EventRow, SubmissionRow
from ..variants import Variant
from .ballots import Ballots
from .entry import OrderEntry
from .house_rules import missed_limit, substitute_bot
from .loader import GameLoader, LoadedGame, log_event, require_gm
from .seats import Seats
from .status import expected_powers
from .types import SCHEDULER, PhaseChanged, ServiceError, Viewer

__all__ = ["BOT_PREFIX", "BotSeats", "bot_of", "post_text"]

BOT_PREFIX = "bot:"
log = logging.getLogger("lawspeaker.bots")


def bot_of(player: str | None) -> str | None:
    """The bot's name if ``player`` (a seat's player) is a bot, else None."""
    if player and player.startswith(BOT_PREFIX):
        return player[len(BOT_PREFIX):]
    return None


def post_text(variant: Variant, power: str, moves: Moves) -> str:
    """A bot's moves written as a player posts them (full names, ``2 DP to ...``)."""
    lines = [format_order(o, variant.map, long=True) for o in moves.orders]
    lines += [f"{a.points} DP to {format_order(a.order, variant.map, long=True)}"
              for a in moves.allocations]
    return "\n".join(lines) + "\n" if lines else ""


class BotSeats:
    """Seating bots, substituting them after missed deadlines, and their posts."""

    def __init__(self, games: GameLoader, seats: Seats, entry: OrderEntry,
                 ballots: Ballots) -> None:
        self.games = games
        self.seats = seats
        self.entry = entry
        self.ballots = ballots

    def seat(self, name: str, power: str, bot: str, actor: Viewer) -> None:
        """The GM gives ``power``'s seat to ``bot``; it posts for the open phase at once."""
        require_gm(actor)
        try:
            bot = bot_named(bot).name
        except ValueError as exc:
            raise ServiceError(str(exc)) from None
        with self.games.write(name) as (s, g):
            power = self.seats.assign(s, g.row, g.variant, power, BOT_PREFIX + bot, actor)
        self.play(name, again=power)  # its post replaces the last player's for this phase

    def seated(self, name: str) -> dict[str, str]:
        """Power -> bot, for the seats bots hold (public, as who plays a power is)."""
        with self.games.read(name) as (_s, g):
            return _bot_seats(g)

    def play(self, name: str, again: str | None = None) -> list[str]:
        """Every bot due in the open phase that has not posted yet (and ``again``'s,
        if it is a bot's, even if it has) posts now and says it is ready. Returns
        the powers that posted."""
        with self.games.read(name) as (s, g):
            seats = _bot_seats(g)
            if g.position.result or not seats:
                return []
            posted = set(s.scalars(select(SubmissionRow.power).where(
                SubmissionRow.phase_id == g.phase.id)))
            todo = [p for p in expected_powers(g.variant, g.position)
                    if p in seats and (p not in posted or p == again)]
            variant, position, code = g.variant, g.position, g.phase.code
            key = f"{g.row.id}:{g.phase.id}"
        played = []
        for power in todo:
            bot = bot_named(seats[power])
            moves = bot.play(variant, position, [power], random.Random(f"{key}:{power}"))
            actor = Viewer(power=power, label=f"bot {bot.name}")
            text = post_text(variant, power, moves)
            try:
                if text:
                    self.entry.submit(name, power, text, actor, phase=code)
                self.ballots.set_ready(name, power, True, actor)
            except PhaseChanged:  # processed meanwhile: the next phase's call posts
                break
            except ServiceError as exc:  # pragma: no cover - a bot's post is always legal
                log.warning("bot %s could not post for %s in %s: %s", bot.name, power, name,
                            exc)
                continue
            played.append(power)
        return played

    def note_missed(self, s: Session, g: LoadedGame) -> None:
        """At a deadline (in the scheduler's transaction, before processing): record
        each due power without a post (nor a ready flag) as having missed it, and give the seat of
        a power that has now missed ``bot_after_missed`` deadlines to the
        substitute bot."""
        seats = _bot_seats(g)
        posted = set(s.scalars(select(SubmissionRow.power).where(
            SubmissionRow.phase_id == g.phase.id)))
        posted |= set(s.scalars(select(BallotRow.power).where(  # ready with nothing to say
            BallotRow.phase_id == g.phase.id, BallotRow.kind == "ready",
            BallotRow.value.is_(True))))
        limit = missed_limit(g.row.rules)
        for power in expected_powers(g.variant, g.position):
            if power in seats or power in posted:
                continue
            log_event(s, g.row, g.phase, SCHEDULER, "missed",
                      f"{power} missed the deadline of {g.phase.label}", power=power)
            s.flush()
            if limit is None or _missed(s, g, power) < limit:
                continue
            bot = substitute_bot(g.row.rules)
            self.seats.assign(s, g.row, g.variant, power, BOT_PREFIX + bot, SCHEDULER)
            log_event(s, g.row, g.phase, SCHEDULER, "bot",
                      f"{power} missed {limit} deadline(s): the {bot} bot plays it from the "
                      "next phase until a player takes the seat", power=power)


def _bot_seats(g: LoadedGame) -> dict[str, str]:
    out = {}
    for row in g.row.players:
        bot = bot_of(row.player)
        if bot is not None:
            out[row.power] = bot
    return out


def _missed(s: Session, g: LoadedGame, power: str) -> int:
    """Deadlines ``power`` missed since its seat was last given to someone."""
    events = s.scalars(select(EventRow).where(
        EventRow.game_id == g.row.id, EventRow.kind.in_(("missed", "player")))
        .order_by(EventRow.id)).all()
    count = 0
    for event in events:
        if event.kind == "player" and event.summary.startswith(f"{power} is played by "):
            count = 0
        elif event.kind == "missed" and (event.detail or {}).get("power") == power:
            count += 1
    return count
