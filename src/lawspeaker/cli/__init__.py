"""The ``lawspeaker`` command line: one module per front-end concern.

``lawspeaker adjudicate [ORDERS]``  adjudicate one phase from a text file (:mod:`.engine`)
``lawspeaker datc FILE...``         run adjudicator test-case files (:mod:`.engine`)
``lawspeaker variants``             list bundled variants (:mod:`.engine`)
``lawspeaker map ...``              check (and draw) variant maps (:mod:`.maps`)
``lawspeaker game ...``             run a kept game on the store (:mod:`.game`)
``lawspeaker simulate VARIANT``     the balance lab: bot games and a report (:mod:`.simulate`)

Every command reports bad input as one ``Error:`` line and a non-zero exit,
never a traceback.
"""

from __future__ import annotations

from .root import main

__all__ = ["main"]


from . import engine, game, maps, serve, simulate  # the modules register their commands on main

__all__ += ["engine", "game", "maps", "serve", "simulate"]
