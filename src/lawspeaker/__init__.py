"""lawspeaker: adjudicator and rules engine for DP-based Diplomacy variants.

The public API, for scripts and bots::

    import lawspeaker
    game = lawspeaker.Game("standard")
    game.order("England", "F Lon - Nth", "F Edi - Nrg", "A Lvp - Yor")
    result = game.process()
    for r in result.results:
        print(r.order, r.reason)
    text = game.position.to_json()

Names are imported on first use (``lawspeaker.Game`` imports the engine then), so
that ``import lawspeaker.cli`` and ``lawspeaker --help`` load nothing they do not need.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what type checkers and readers see; at run time, __getattr__ below
    from .core.board import Dislodged, Heir, Marriage, Phase, PhaseKind, Position, PowerState, Unit
    from .core.geography import GameMap, Province, Terrain, UnitType, UnknownNameError
    from .core.legality import movement_problem
    from .core.notation import OrderSyntaxError, format_order, parse_order, parse_orders
    from .core.orders import (
        Build,
        BuildHeir,
        Convoy,
        Disband,
        HeirHold,
        HeirMarry,
        Hold,
        Marry,
        Move,
        Order,
        Remove,
        Retreat,
        SupportHold,
        SupportMove,
        Waive,
    )
    from .core.resolver import MovementResult, resolve_movement
    from .core.results import OrderResult, Outcome
    from .core.ruleset import BuildRule, Edition, Rules
    from .engine.adjustments import adjustment_counts, resolve_adjustments
    from .engine.game import Game
    from .engine.phases import Adjudication, adjudicate, initial_position, next_phase
    from .engine.retreats import resolve_retreats, retreat_options
    from .rules.census import centre_counts, run_census
    from .variants import Power, Problem, Variant, VariantError, check_variant, load_variant

__version__ = "0.1.0"

__all__ = [
    "Adjudication", "Build", "BuildHeir", "BuildRule", "Convoy", "Disband", "Dislodged", "Edition",
    "Game", "GameMap", "Heir", "HeirHold", "HeirMarry", "Hold", "Marriage", "Marry", "Move",
    "MovementResult", "Order", "OrderResult", "OrderSyntaxError", "Outcome", "Phase", "PhaseKind",
    "Position", "Power", "PowerState", "Problem", "Province", "Remove", "Retreat", "Rules",
    "SupportHold", "SupportMove", "Terrain", "Unit", "UnitType", "UnknownNameError", "Variant",
    "VariantError", "Waive", "adjudicate", "adjustment_counts", "centre_counts", "check_variant",
    "format_order", "initial_position", "load_variant", "movement_problem", "next_phase",
    "parse_order", "parse_orders", "resolve_adjustments", "resolve_movement", "resolve_retreats",
    "retreat_options", "run_census",
]

_WHERE: dict[str, str] = {
    "Dislodged": "core.board",
    "Heir": "core.board",
    "Marriage": "core.board",
    "Phase": "core.board",
    "PhaseKind": "core.board",
    "Position": "core.board",
    "PowerState": "core.board",
    "Unit": "core.board",
    "GameMap": "core.geography",
    "Province": "core.geography",
    "Terrain": "core.geography",
    "UnitType": "core.geography",
    "UnknownNameError": "core.geography",
    "movement_problem": "core.legality",
    "OrderSyntaxError": "core.notation",
    "format_order": "core.notation",
    "parse_order": "core.notation",
    "parse_orders": "core.notation",
    "Build": "core.orders",
    "BuildHeir": "core.orders",
    "Convoy": "core.orders",
    "Disband": "core.orders",
    "HeirHold": "core.orders",
    "HeirMarry": "core.orders",
    "Hold": "core.orders",
    "Marry": "core.orders",
    "Move": "core.orders",
    "Order": "core.orders",
    "Remove": "core.orders",
    "Retreat": "core.orders",
    "SupportHold": "core.orders",
    "SupportMove": "core.orders",
    "Waive": "core.orders",
    "MovementResult": "core.resolver",
    "resolve_movement": "core.resolver",
    "OrderResult": "core.results",
    "Outcome": "core.results",
    "BuildRule": "core.ruleset",
    "Edition": "core.ruleset",
    "Rules": "core.ruleset",
    "adjustment_counts": "engine.adjustments",
    "resolve_adjustments": "engine.adjustments",
    "Game": "engine.game",
    "Adjudication": "engine.phases",
    "adjudicate": "engine.phases",
    "initial_position": "engine.phases",
    "next_phase": "engine.phases",
    "resolve_retreats": "engine.retreats",
    "retreat_options": "engine.retreats",
    "centre_counts": "rules.census",
    "run_census": "rules.census",
    "Power": "variants",
    "Problem": "variants",
    "Variant": "variants",
    "VariantError": "variants",
    "check_variant": "variants",
    "load_variant": "variants",
}


def __getattr__(name: str) -> Any:
    """Import a public name from the module that defines it, on first use (PEP 562)."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'lawspeaker' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # the next look-up is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_WHERE})
