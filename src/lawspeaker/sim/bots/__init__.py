"""Bots that play every bundled variant, chosen by name.

* ``random`` — random legal orders and DP (:mod:`.randombot`, from
  :mod:`lawspeaker.sim.randomplay`), some armies convoyed (:mod:`.convoying`);
* ``hold`` — every unit holds (:mod:`.hold`);
* ``tactician`` — values centres, adjudicates candidate order sets against
  plausible replies and spends DP where it swings a result (:mod:`.tactician`),
  convoys its armies and marries its heir to another tactician's
  (:mod:`.matchmaking`).
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot, Moves
from .hold import HoldBot
from .randombot import RandomBot
from .tactician import Tactician

__all__ = ["BOTS", "Bot", "Moves", "bot_named", "bot_names"]

BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "hold": HoldBot,
    "tactician": Tactician,
}
"""Every bot, by the name a GM or the lab chooses it by."""


def bot_names() -> list[str]:
    return sorted(BOTS)


def bot_named(name: str) -> Bot:
    """The bot called ``name``; a ValueError names the bots there are."""
    try:
        return BOTS[name.strip().lower()]()
    except KeyError:
        raise ValueError(f"no bot called '{name}' (bots: {', '.join(bot_names())})") from None
