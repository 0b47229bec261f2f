"""The house rules the service reads, never the engine, kept with the game's
other house rules (a GM sets them the same way, ``rules_in_force`` lists them):

* ``bot_after_missed`` — after this many missed deadlines (phases processed at
  their deadline with nothing posted for a power whose player has it), the
  power's seat goes to a bot from the next phase on, until the GM names a
  player again; ``none`` (the default) never substitutes;
* ``bot_substitute`` — which bot takes such a seat (default ``tactician``);
* ``review`` — ``yes``: Process adjudicates into a preview only the GM sees, which
  the GM publishes or discards (:mod:`.review`); ``no`` (the default) publishes at
  once. Games created on Discord start with ``yes`` unless the GM says otherwise;
* ``review_hours`` — how long a preview the scheduler made at a deadline waits for
  the GM before it is published by itself, so an absent GM does not stall a game
  (default 12; 1 to 720).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..sim.bots import bot_named, bot_names
from .types import ServiceError

__all__ = ["SERVICE_RULES", "engine_rules", "missed_limit", "review_hours", "review_on",
           "service_rules_in_force", "substitute_bot"]

SERVICE_RULES = ("bot_after_missed", "bot_substitute", "review", "review_hours")
DEFAULT_BOT = "tactician"
DEFAULT_REVIEW_HOURS = 12


def engine_rules(rules: Mapping[str, Any]) -> dict[str, Any]:
    """The house rules without the service's own (checked here), for the engine."""
    missed_limit(rules)
    substitute_bot(rules)
    review_on(rules)
    review_hours(rules)
    return {k: v for k, v in rules.items() if k not in SERVICE_RULES}


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


def review_on(rules: Mapping[str, Any]) -> bool:
    value = str(rules.get("review", "no")).strip().lower()
    if value in ("yes", "true", "on", "1"):
        return True
    if value in ("no", "false", "off", "0", ""):
        return False
    raise ServiceError(f"review must be yes or no (not '{value[:40]}')")


def review_hours(rules: Mapping[str, Any]) -> int:
    value = str(rules.get("review_hours", DEFAULT_REVIEW_HOURS)).strip().lower()
    if not value.isdigit() or not 1 <= int(value) <= 720:
        raise ServiceError(f"review_hours must be a whole number of hours from 1 to 720 "
                           f"(not '{value[:40]}')")
    return int(value)


def service_rules_in_force(rules: Mapping[str, Any]) -> list[tuple[str, str, bool]]:
    limit = missed_limit(rules)
    return [("bot_after_missed", "none" if limit is None else str(limit),
             "bot_after_missed" in rules),
            ("bot_substitute", substitute_bot(rules), "bot_substitute" in rules),
            ("review", "yes" if review_on(rules) else "no", "review" in rules),
            ("review_hours", str(review_hours(rules)), "review_hours" in rules)]
