"""The house rules about bot seats, kept with the game's other house rules
but read by the service, never by the engine:

* ``bot_after_missed`` — after this many missed deadlines (phases processed at
  their deadline with nothing posted for a power whose player has it), the
  power's seat goes to a bot from the next phase on, until the GM names a
  player again; ``none`` (the default) never substitutes;
* ``bot_substitute`` — which bot takes such a seat (default ``tactician``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..sim.bots import bot_named, bot_names
from .types import ServiceError

__all__ = ["SEAT_RULES", "engine_rules", "missed_limit", "seat_rules_in_force",
           "substitute_bot"]

SEAT_RULES = ("bot_after_missed", "bot_substitute")
DEFAULT_BOT = "tactician"


def engine_rules(rules: Mapping[str, Any]) -> dict[str, Any]:
    """The house rules without the seat rules (checked here), for the engine."""
    missed_limit(rules)
    substitute_bot(rules)
    return {k: v for k, v in rules.items() if k not in SEAT_RULES}


def missed_limit(rules: Mapping[str, Any]) -> int | None:
    value = str(rules.get("bot_after_missed", "none")).strip().lower()
    if value in ("none", "off", "no", ""):
        return None
    if not value.isdigit() or not 1 <= int(value) <= 100:
        raise ServiceError(f"bot_after_missed must be a whole number of missed deadlines "
                           f"from 1 to 100, or none (not '{value}')")
    return int(value)


def substitute_bot(rules: Mapping[str, Any]) -> str:
    value = str(rules.get("bot_substitute", DEFAULT_BOT)).strip().lower()
    try:
        return bot_named(value).name
    except ValueError:
        raise ServiceError(f"bot_substitute: no bot called '{value}' "
                           f"(bots: {', '.join(bot_names())})") from None


def seat_rules_in_force(rules: Mapping[str, Any]) -> list[tuple[str, str, bool]]:
    limit = missed_limit(rules)
    return [("bot_after_missed", "none" if limit is None else str(limit),
             "bot_after_missed" in rules),
            ("bot_substitute", substitute_bot(rules), "bot_substitute" in rules)]
