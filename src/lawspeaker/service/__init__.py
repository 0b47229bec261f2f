"""The game service: the one place that creates games, takes submissions,
processes phases and decides who may see what.

Every front end (the ``lawspeaker game`` commands, the web server, a bot's
script) calls this package and nothing below it, so each rule of secrecy is
written once. A caller says who it acts for with a :class:`Viewer`: the GM,
a power's player, or the public. DP allocations and orders not yet
adjudicated are seen only by their author and the GM (S9 §9.0: allocations
stay secret "until the entire game has completed"); results, Census events,
positions and who has submitted are public.

One concern per module, all reached through :class:`GameService`:

* :mod:`.games` — games, posts line by line, processing, rollback;
* :mod:`.records` — history, results posts, maps, the GM actions the rulebooks name;
* :mod:`.access` — secret links (stored hashed) and who they sign in;
* :mod:`.deadlines` — deadlines, grace, pause, and the scheduler;
* :mod:`.ballots` — ready flags and secret draw votes;
* :mod:`.entry` — checking a post without sending it, each unit's legal orders;
* :mod:`.types` — viewers, errors and the values the calls return.

Storage is :mod:`lawspeaker.store`. Each call is one transaction: processing
a phase writes the adjudication and the next phase together or not at all.
Every write to a game is serialised with every other write to it, across
threads and server processes, on SQLite and PostgreSQL alike
(:class:`lawspeaker.store.Store`), and reads what it writes against: a post
answered "ok" is part of the phase its report names, and a request for a
phase that is no longer open (:class:`PhaseChanged`) changes nothing. Reads
(checks, pages, maps) run in snapshots that never wait for a writer.
"""

from .games import GameService
from .types import (
    GM,
    PUBLIC,
    SCHEDULER,
    Forbidden,
    GameInfo,
    HistoryEntry,
    LineReport,
    NotFound,
    PhaseChanged,
    ServiceError,
    SubmissionReport,
    Viewer,
)

__all__ = ["GM", "PUBLIC", "SCHEDULER", "Forbidden", "GameInfo", "GameService", "HistoryEntry",
           "LineReport", "NotFound", "PhaseChanged", "ServiceError", "SubmissionReport", "Viewer"]
