"""lawspeaker: adjudicator and rules engine for DP-based Diplomacy variants.

The public API, for scripts and bots::

    import lawspeaker
    game = lawspeaker.Game("standard")
    game.order("England", "F Lon - Nth", "F Edi - Nrg", "A Lvp - Yor")
    result = game.process()
    for r in result.results:
        print(r.order, r.reason)
    text = game.position.to_json()
"""

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
