"""Ready flags and draw votes: per-power flags that belong to one phase.

Ready flags are public (as on every web Diplomacy site: players and the GM
see who is done; with a deadline set, the scheduler processes early once
every power due is ready). Draw votes are secret ballots: no one, the GM
included, learns how a power voted; only the number of ballots cast and the
outcome are public. The rulebooks leave draws to house rules, so the rule
is a game setting (``draw_rule``):

``none``       draws are not voted on the server (the GM decides).
``unanimous``  every power still in the game votes for a draw among them all.
``majority``   more than half of the powers still in the game vote for it.

A passed draw ends the game. Ballots belong to the phase, so they lapse
when it is processed.

Ballots are their own part of the service (:class:`Ballots`): they read the
game through the loader and keep nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..core.board import Position
from ..store.models import BallotRow, now
from .loader import GameLoader, LoadedGame, checked_power, log_event, require_gm
from .types import GM, Forbidden, ServiceError, Viewer

__all__ = ["DRAW_RULES", "Ballots", "DrawTally"]

DRAW_RULES = ("none", "unanimous", "majority")


@dataclass(frozen=True, slots=True)
class DrawTally:
    """What everybody may know of a draw vote: never who voted how."""

    rule: str
    voters: tuple[str, ...]
    """The powers still in the game, who may vote."""
    cast: int
    passed: bool


class Ballots:
    """Ready flags, secret draw votes and the game's draw rule."""

    def __init__(self, games: GameLoader) -> None:
        self.games = games

    def set_ready(self, name: str, power: str, ready: bool, actor: Viewer) -> None:
        with self.games.write(name) as (s, g):
            power = _seat(g, power, actor, "mark ready")
            _ballot(s, g, power, "ready", ready)

    def ready(self, name: str) -> tuple[str, ...]:
        """The powers that said they are done with this phase (public)."""
        with self.games.read(name) as (s, g):
            return tuple(sorted(s.scalars(select(BallotRow.power).where(
                BallotRow.phase_id == g.phase.id, BallotRow.kind == "ready",
                BallotRow.value.is_(True)))))

    def vote_draw(self, name: str, power: str, yes: bool, actor: Viewer) -> DrawTally:
        """Cast (or change) a power's secret ballot; a passing vote ends the game.
        Only the power's own player votes: not the GM, who could otherwise
        overwrite a ballot nobody may see."""
        with self.games.write(name) as (s, g):
            power = _seat(g, power, actor, "vote for")
            if actor.power != power:  # the GM acts for a power, but never votes for it
                raise Forbidden(f"a draw vote is a secret ballot: only {power}'s player casts "
                                "it (the GM may not cast or change it)")
            if g.row.draw_rule == "none":
                raise ServiceError("this game's house rules leave draws to the GM "
                                   "(draw rule: none)")
            voters = _voters(g)
            if power not in voters:
                raise ServiceError(f"{power} is out of the game and has no vote")
            _ballot(s, g, power, "draw", yes)
            tally = _tally(s, g)
            if tally.passed:
                result = f"Draw: {', '.join(tally.voters)} (voted; draw rule {tally.rule})"
                position = Position.from_dict(g.phase.position).replace(result=result)
                g.phase.position = position.to_dict()
                log_event(s, g.row, g.phase, actor if actor.gm else GM, "draw", result)
            return tally

    def my_vote(self, name: str, power: str, actor: Viewer) -> bool | None:
        """A power's own ballot this phase, for that power's eyes only (not the GM's)."""
        with self.games.read(name) as (s, g):
            power = checked_power(g.variant, power)
            if actor.power != power:
                raise Forbidden("a draw vote is a secret ballot: only its voter sees it")
            row = s.scalar(select(BallotRow).where(
                BallotRow.phase_id == g.phase.id, BallotRow.power == power,
                BallotRow.kind == "draw"))
            return None if row is None else row.value

    def draw_tally(self, name: str) -> DrawTally:
        with self.games.read(name) as (s, g):
            return _tally(s, g)

    def set_draw_rule(self, name: str, rule: str, actor: Viewer) -> None:
        require_gm(actor)
        if rule not in DRAW_RULES:
            raise ServiceError(f"unknown draw rule '{rule}' ({', '.join(DRAW_RULES)})")
        with self.games.write(name) as (s, g):
            old, g.row.draw_rule = g.row.draw_rule, rule
            log_event(s, g.row, g.phase, actor, "rule", f"draw rule: {old} -> {rule}")


def _seat(g: LoadedGame, power: str, actor: Viewer, what: str) -> str:
    power = checked_power(g.variant, power)
    if not actor.may_act_for(power):
        raise Forbidden(f"{actor} may not {what} {power}")
    if g.position.result:
        raise ServiceError(f"the game is over ({g.position.result})")
    return power


def _ballot(s: Session, g: LoadedGame, power: str, kind: str, value: bool) -> None:
    row = s.scalar(select(BallotRow).where(
        BallotRow.phase_id == g.phase.id, BallotRow.power == power,
        BallotRow.kind == kind))
    if row is None:
        s.add(BallotRow(phase_id=g.phase.id, power=power, kind=kind, value=value))
    else:
        row.value, row.at = value, now()
    s.flush()


def _tally(s: Session, g: LoadedGame) -> DrawTally:
    voters = _voters(g)
    votes = {r.power: r.value for r in s.scalars(select(BallotRow).where(
        BallotRow.phase_id == g.phase.id, BallotRow.kind == "draw"))
        if r.power in voters}
    yes = sum(votes.values())
    rule = g.row.draw_rule
    passed = bool(voters) and ((rule == "unanimous" and yes == len(voters))
                               or (rule == "majority" and yes * 2 > len(voters)))
    return DrawTally(rule, voters, len(votes), passed)


def _voters(g: LoadedGame) -> tuple[str, ...]:
    position = g.position
    return tuple(p for p in sorted(g.variant.powers)
                 if p not in position.dropped
                 and (position.units_of(p) or position.centres_of(p)))
