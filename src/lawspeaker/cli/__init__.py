"""The ``lawspeaker`` command line: one module per front-end concern.

``lawspeaker adjudicate [ORDERS]``  adjudicate one phase from a text file (:mod:`.engine`)
``lawspeaker datc FILE...``         run adjudicator test-case files (:mod:`.engine`)
``lawspeaker variants``             list bundled variants (:mod:`.engine`)
``lawspeaker map ...``              check (and draw) variant maps (:mod:`.maps`)
``lawspeaker map calibrate``        place provinces on an official map image (:mod:`.layouts`)
``lawspeaker game ...``             run a kept game on the store (:mod:`.game`)
``lawspeaker game whatif``          try orders in a sandbox, changing nothing (:mod:`.whatif`)
``lawspeaker serve``                the game server (:mod:`.serve`)
``lawspeaker discord``              the Discord bot (:mod:`.discord_bot`)
``lawspeaker variant new NAME``     start a variant folder from a base (:mod:`.variant`)
``lawspeaker simulate VARIANT``     the balance lab: bot games and a report (:mod:`.simulate`)

Every command reports bad input as one ``Error:`` line and a non-zero exit,
never a traceback.
"""

from __future__ import annotations

from .root import main

__all__ = ["main"]


from . import (
    discord_bot,
    engine,
    game,
    gm_actions,  # the GM's actions as game commands, made from the service's table
    layouts,
    maps,
    serve,
    simulate,
    variant,
    whatif,
)

maps.map_group.add_command(layouts.map_calibrate)

__all__ += ["discord_bot", "engine", "game", "gm_actions", "layouts", "maps", "serve",
            "simulate", "variant", "whatif"]
