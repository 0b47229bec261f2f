"""The Game convenience layer: pending orders, processing, undo, saving."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import lawspeaker
from lawspeaker import Game, Move, OrderSyntaxError, Outcome, Rules, Unit, UnitType
from lawspeaker.variants import VARIANTS_DIR

A, F = UnitType.ARMY, UnitType.FLEET

SPRING_1901 = {
    "England": ("F Lon - Nth", "F Edi - Nrg", "A Lvp - Yor"),
    "France": ("A Par - Bur", "A Mar - Spa", "F Bre - Mid"),
    "Germany": ("A Mun - Ruh", "F Kie - Den", "A Ber - Kie"),
    "Russia": ("F Sev - Bla", "A War - Gal", "F StP/sc - Bot", "A Mos - Ukr"),
    "Turkey": ("F Ank - Bla", "A Con - Bul", "A Smy - Con"),
    "Italy": ("A Ven - Tyr", "A Rom - Ven", "F Nap - Ion"),
    "Austria": ("A Vie - Gal", "A Bud - Ser", "F Tri - Alb"),
}
FALL_1901 = {
    "England": ("F Nth - Nwy", "F Nrg - Bar", "A Yor H"),
    "France": ("A Bur - Bel", "F Mid - Por", "A Spa H"),
    "Germany": ("F Den H", "A Ruh - Hol", "A Kie H"),
    "Russia": ("F Bot - Swe", "A Ukr - Rum", "A War H", "F Sev H"),
    "Turkey": ("A Bul H", "A Con H", "F Ank H"),
    "Italy": ("F Ion - Tun", "A Tyr H", "A Ven H"),
    "Austria": ("A Ser H", "F Alb - Gre", "A Vie H"),
}
WINTER_1901 = {
    "England": ("Build F lon",),
    "France": ("Build A par", "Build F mar", "Build A bre"),
    "Germany": ("Build A ber", "Build A mun"),
    "Russia": ("Build A mos", "Build F stp/nc"),
    "Turkey": ("Build A smy",),
    "Italy": ("Build F nap",),
    "Austria": ("Build A bud", "Build F tri"),
}


def order_all(game: Game, orders: dict[str, tuple[str, ...]]) -> None:
    for power, texts in orders.items():
        game.order(power, *texts)


def failures(result: lawspeaker.Adjudication) -> set[str]:
    return {f"{r.order}: {r.reason}" for r in result.results if r.outcome is not Outcome.SUCCEEDS}


def test_new_game_starts_in_spring_1901() -> None:
    """A fresh standard game is the rulebook's opening position."""
    game = Game("standard")
    assert game.phase == "Spring 1901 movement"
    assert len(game.position.units) == 22
    assert game.orders() == [] and game.history == []


def test_order_reads_notation_for_a_power_named_loosely() -> None:
    """Powers may be named by adjective or prefix; orders come back parsed."""
    game = Game()
    assert game.order("english", "F Lon - Nth") == [Move("England", F, "lon", "nth")]
    game.order("Fra", "A Par - Bur")
    assert [str(o) for o in game.orders()] == ["F lon - nth", "A par - bur"]
    assert [str(o) for o in game.orders("France")] == ["A par - bur"]


def test_later_order_replaces_an_earlier_one_for_the_same_unit() -> None:
    """As on a web form, a new order for a unit replaces the old one (docs/datc.md 4.D.3)."""
    game = Game()
    game.order("England", "F Lon - Nth", "A Lvp - Yor")
    game.order("England", "A Lvp - Wal")
    assert [str(o) for o in game.orders("England")] == ["F lon - nth", "A lvp - wal"]
    result = game.process()
    assert all(r.outcome is not Outcome.ILLEGAL for r in result.results)
    assert game.position.units["wal"] == Unit("England", A, "wal")
    assert "yor" not in game.position.units


def test_unreadable_order_records_none_of_the_batch() -> None:
    """Game.order raises on the first unreadable order and keeps none of them."""
    game = Game()
    with pytest.raises(OrderSyntaxError):
        game.order("England", "F Lon - Nth", "A Lvp - Yorkshre Moors")
    assert game.orders() == []


def test_problem_tells_a_player_at_once_why_an_order_is_illegal() -> None:
    """Legality before the deadline, with the resolver's own words."""
    game = Game()
    legal, illegal = game.order("England", "F Lon - Nth", "A Lvp - Nth")
    assert game.problem(legal) is None
    assert game.problem(illegal) == "an army cannot move to a sea space"


def test_illegal_order_is_kept_reported_and_the_unit_holds() -> None:
    """DATC 4.E.1: an illegal order is reported with its reason; the unit holds."""
    game = Game()
    game.order("England", "A Lvp - Nth")
    result = game.process()
    (bad,) = [r for r in result.results if r.outcome is Outcome.ILLEGAL]
    assert bad.reason == "Illegal: an army cannot move to a sea space"
    assert game.position.units["lvp"] == Unit("England", A, "lvp")


def test_process_adjudicates_and_advances() -> None:
    """Processing clears the pending orders and records the phase in the history."""
    game = Game()
    game.order("Germany", "F Kie - Den")
    result = game.process()
    assert result.phase == lawspeaker.Phase("Spring", 1901, lawspeaker.PhaseKind.MOVEMENT)
    assert game.phase == "Fall 1901 movement"
    assert game.orders() == []
    assert len(game.history) == 1
    assert game.position.units["den"] == Unit("Germany", F, "den")


def test_undo_restores_the_position_and_repends_the_orders() -> None:
    """A GM rolls back a phase: the old position returns with its orders pending again."""
    game = Game()
    start = game.position
    game.order("France", "A Par - Bur", "A Mar - Spa")
    game.process()
    assert game.undo() == start
    assert game.position == start
    assert [str(o) for o in game.orders()] == ["A par - bur", "A mar - spa"]
    assert game.history == []
    game.process()
    assert game.position.units["bur"] == Unit("France", A, "bur")


def test_undo_with_no_history_raises() -> None:
    """Nothing processed, nothing to roll back."""
    with pytest.raises(IndexError):
        Game().undo()


def test_clear_orders_for_one_power_or_all() -> None:
    """Pending orders can be withdrawn before processing."""
    game = Game()
    game.order("England", "F Lon - Nth")
    game.order("France", "A Par - Bur")
    game.clear_orders("England")
    assert [o.power for o in game.orders()] == ["France"]
    game.clear_orders()
    assert game.orders() == []


def test_json_round_trip_keeps_position_and_rules() -> None:
    """A saved game loads with the same position and the same rules options."""
    game = Game("standard", rules=Rules().with_options(edition="2000", multiple_orders="last"))
    game.order("Germany", "F Kie - Den")
    game.process()
    again = Game.from_json(game.to_json())
    assert again.position == game.position
    assert again.rules == game.rules
    assert again.rules.edition is lawspeaker.Edition.R2000
    assert again.variant.name == "standard"


def test_json_round_trip_of_a_game_of_a_variant_loaded_from_a_folder(tmp_path: Path) -> None:
    """load_variant accepts folders, so saved games of folder variants must reload."""
    folder = tmp_path / "mystandard"
    shutil.copytree(VARIANTS_DIR / "standard", folder)
    meta = folder / "variant.yaml"
    meta.write_text(meta.read_text().replace("name: standard", "name: mystandard"))
    game = Game(lawspeaker.load_variant(folder))
    again = Game.from_json(game.to_json())
    assert again.position == game.position


def test_a_whole_year_1901_with_builds() -> None:
    """Spring and Fall 1901 of a typical game, then Winter builds, into Spring 1902."""
    game = Game()
    order_all(game, SPRING_1901)
    spring = game.process()
    assert failures(spring) == {"A vie - gal: Bounced 1v1", "A war - gal: Bounced 1v1",
                                "F sev - bla: Bounced 1v1", "F ank - bla: Bounced 1v1"}
    assert game.phase == "Fall 1901 movement"  # no dislodgement, no retreat phase
    assert game.position.owners == lawspeaker.initial_position(game.variant).owners

    order_all(game, FALL_1901)
    fall = game.process()
    assert failures(fall) == set()
    assert game.phase == "Winter 1901 adjustment"
    owners = game.position.owners
    assert {c: owners[c] for c in ("nwy", "bel", "por", "spa", "den", "hol", "swe", "rum",
                                   "bul", "ser", "gre", "tun")} == {
        "nwy": "England", "bel": "France", "por": "France", "spa": "France",
        "den": "Germany", "hol": "Germany", "swe": "Russia", "rum": "Russia",
        "bul": "Turkey", "ser": "Austria", "gre": "Austria", "tun": "Italy"}
    assert lawspeaker.adjustment_counts(game.variant, game.position) == {
        "England": 1, "France": 3, "Germany": 2, "Russia": 2, "Turkey": 1, "Italy": 1,
        "Austria": 2}

    order_all(game, WINTER_1901)
    assert len(game.orders()) == 12  # builds are not keyed by unit, none replaced
    winter = game.process()
    assert failures(winter) == set()
    assert game.phase == "Spring 1902 movement"
    assert len(game.position.units) == 34
    assert game.position.units["stp"] == Unit("Russia", F, "stp/nc")
    assert game.position.units["bre"] == Unit("France", A, "bre")
    assert len(game.history) == 3
