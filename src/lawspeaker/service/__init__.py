"""The game service: the one place that creates games, takes submissions,
processes phases and decides who may see what.

Every front end (the ``lawspeaker game`` commands, the web server, a bot's
script) calls this package and nothing below it, so each rule of secrecy is
written once. A caller says who it acts for with a :class:`Viewer`: the GM,
a power's player, or the public. DP allocations and orders not yet
adjudicated are seen only by their author and the GM (S9 §9.0: allocations
stay secret "until the entire game has completed"); results, Census events,
positions and who has submitted are public.

:class:`GameService` (:mod:`.games`) is a facade: it builds the parts below
and hands each call to one of them. Each part owns one job; all of them
reach a game through the loader, so every write locks the game first.

* :mod:`.loader` — :class:`~.loader.GameLoader`: the store, loading a game, its lock;
* :mod:`.setup` — :class:`~.setup.GameSetup`: creating games, what each is, house rules;
* :mod:`.seats` — :class:`~.seats.Seats`: players, and the GM's drops and exile removals;
* :mod:`.entry` — :class:`~.entry.OrderEntry`: posts taken and checked line by line,
  templates, each unit's legal orders, the turn status;
* :mod:`.standing` — which lines of a phase's posts stand (functions);
* :mod:`.posts` — :class:`~.posts.Posts`: a power's posts as sent, its DP limits;
* :mod:`.processing` — :class:`~.processing.Processing`: the service's processing
  step (:meth:`~.processing.Processing.step`) and rollback;
* :mod:`.records` — :class:`~.records.Records`: history, results posts, maps, the DP reveal;
* :mod:`.access` — :class:`~.access.Access`: secret links (stored hashed), sessions;
* :mod:`.deadlines` — :class:`~.deadlines.Deadlines`: deadlines, pause, the scheduler;
* :mod:`.ballots` — :class:`~.ballots.Ballots`: ready flags and secret draw votes;
* :mod:`.sandbox` — :class:`~.sandbox.Sandbox`: what-if adjudication that writes nothing;
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

from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:  # at run time, __getattr__ below
    from .games import GameService
    from .sandbox import SandboxRun, SandboxStep

__all__ = ["GM", "PUBLIC", "SCHEDULER", "Forbidden", "GameInfo", "GameService", "HistoryEntry",
           "LineReport", "NotFound", "PhaseChanged", "SandboxRun", "SandboxStep", "ServiceError",
           "SubmissionReport", "Viewer"]

_LAZY = {"GameService": ".games", "SandboxRun": ".sandbox", "SandboxStep": ".sandbox"}
"""Names whose modules load the store (SQLAlchemy) and the engine: imported on first
use, so that what needs only the values above (the CLI's help made from the table of
GM actions, :mod:`.actions`) loads nothing heavier."""


def __getattr__(name: str) -> Any:
    import importlib

    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value
