"""Whole games through the ``lawspeaker game`` commands, as a GM runs them:
players' posts pasted in, status checked, results exported, a phase undone
and processed again, on a temporary SQLite database (and PostgreSQL in CI)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from store_fixtures import database

from lawspeaker import Position, adjudicate, initial_position, load_variant
from lawspeaker.cli import main
from lawspeaker.core.board import PhaseKind
from lawspeaker.service import PUBLIC, GameService
from lawspeaker.sim.randomplay import random_posts
from lawspeaker.store import open_store


class GM:
    """A GM at the command line, on one database."""

    def __init__(self, db: str) -> None:
        self.db = db
        self.runner = CliRunner()

    def __call__(self, *args: str, stdin: str | None = None, ok: bool = True) -> Result:
        result = self.runner.invoke(main, ["game", "--db", self.db, *args], input=stdin)
        if ok:
            assert result.exit_code == 0, f"{args}: {result.output}"
        assert "Traceback" not in result.output
        return result


def play_phase(gm: GM, name: str, variant, position: Position, rng: random.Random
               ) -> tuple[dict[str, str], list, list]:
    """Random legal orders and DP, posted as players write them; returns the
    posts and the orders and allocations behind them."""
    written, orders, allocations = random_posts(variant, position, rng)
    for power, text in written.items():
        result = gm("orders", name, power, "-", stdin=text, ok=False)
        assert "unreadable" not in result.output, result.output
        assert result.exit_code in (0, 1)
    status = gm("status", name).output
    if written:
        assert "Submitted: " + ", ".join(sorted(written)) in status
    return written, orders, allocations


def test_a_whole_saga_of_the_nine_complete_game(tmp_path: Path) -> None:
    db = database("sqlite", tmp_path)
    gm = GM(db)
    variant = load_variant("s9-complete")
    rng = random.Random(2026)
    out = gm("new", "s9-complete", "Saga II", "--player", "Aesir=alice",
             "--rules", "reveal_dp_at_end=yes").output
    assert "Spring Orders, First Cycle (400 BCE)" in out
    assert "Aesir: alice" in gm("show", "Saga II").output
    assert "Heir Asgard H" in gm("template", "Saga II", "Aesir").output
    engine = initial_position(variant)  # the same game, played by the pure engine alongside
    service = GameService(open_store(db))
    phases = 0
    undone = False
    while True:
        position = service.position("Saga II", actor=PUBLIC)
        assert position == engine, f"store and engine disagree at {engine.phase}"
        if position.result:
            break
        status = gm("status", "Saga II").output
        assert "Waiting for" in status
        if position.phase.kind is PhaseKind.RETREAT:
            assert "Retreat:" in status or "may retreat" in status or "Waiting for" in status
        written, orders, allocations = play_phase(gm, "Saga II", variant, position, rng)
        processed = gm("process", "Saga II").output
        assert variant.phase_label(position.phase) in processed
        if not undone and position.phase.kind is PhaseKind.ADJUSTMENT:
            # The GM notices a mistake: roll back, and the same orders give the same result.
            first = gm("export", "Saga II", "--format", "bbcode").output
            assert gm("undo", "Saga II").output.startswith("Rolled back to")
            gm("process", "Saga II")
            assert gm("export", "Saga II", "--format", "bbcode").output == first
            undone = True
        assert sorted(written) == sorted({o.power for o in orders}
                                         | {a.power for a in allocations})
        engine = adjudicate(variant, position, orders, variant.rules, allocations).position
        phases += 1
    assert undone
    assert phases > 30
    status = gm("status", "Saga II").output
    assert "Game over" in status
    final = gm("export", "Saga II").output
    assert "Game over" in final and "Next:" not in final
    assert "GM only" not in final
    gm("reveal-dp", "Saga II")
    first = gm("export", "Saga II", "--phase", "S1M", "--format", "markdown").output
    assert "DP allocations (revealed after the game)" in first
    history = gm("history", "Saga II").output
    assert "(undone)" in history and "game over" in history
    result = gm("orders", "Saga II", "Aesir", "-", stdin="F Asg H\n", ok=False)
    assert result.exit_code == 1 and "game is over" in result.output


def test_part_of_an_order_of_the_dragon_game(tmp_path: Path) -> None:
    gm = GM(database("sqlite", tmp_path))
    variant = load_variant("ood")
    rng = random.Random(1405)
    gm("new", "ood", "Dragon")
    for _ in range(6):
        position = GameService(open_store(gm.db)).position("Dragon", actor=PUBLIC)
        play_phase(gm, "Dragon", variant, position, rng)
        out = gm("process", "Dragon").output
        assert "S9 §" not in out  # an OOD game cites OOD's rulebook
    status = gm("status", "Dragon").output
    assert "Spring Orders, 1415" in status  # OOD: game years of five years
    assert "[b]" in gm("export", "Dragon", "--format", "bbcode").output


def test_a_player_checks_orders_before_the_deadline(tmp_path: Path) -> None:
    gm = GM(database("sqlite", tmp_path))
    gm("new", "standard", "g")
    post = "**England**\nF Lon - Nth\nF Edi - Mun\nA Lvp - Yrk\n"
    result = gm("orders", "g", "England", "-", stdin=post, ok=False)
    assert result.exit_code == 1
    assert "line 2: ok" in result.output
    assert "line 3: illegal" in result.output and "Munich" in result.output
    assert "line 4: " in result.output and "unreadable" in result.output
    fixed = gm("orders", "g", "England", "-", stdin="F Edi - Nrg\nA Lvp - Yor\n")
    assert "F Edinburgh - Norwegian Sea" in fixed.output
    shown = gm("orders", "g", "England").output  # no file: the standing orders
    assert "A Liverpool - Yorkshire" in shown and "Munich" not in shown


@pytest.mark.parametrize("args", [
    ("status", "nope"),
    ("orders", "g", "Englnd", "-"),
    ("export", "g"),
    ("undo", "g"),
    ("new", "standard", "g"),
    ("new", "no-such-variant", "h"),
    ("new", "standard", "h", "--rules", "edition=1999"),
    ("rule", "g", "victory_centres"),
    ("reveal-dp", "g"),
])
def test_mistakes_get_one_clear_line_and_change_nothing(tmp_path: Path,
                                                        args: tuple[str, ...]) -> None:
    gm = GM(database("sqlite", tmp_path))
    gm("new", "standard", "g")
    before = gm("history", "g").output
    result = gm(*args, stdin="F Lon - Nth\n", ok=False)
    assert result.exit_code != 0
    assert result.output.strip().count("\n") == 0 or "Usage" in result.output
    assert "Error" in result.output
    assert gm("history", "g").output == before


def test_a_database_in_a_missing_folder(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["game", "--db", str(tmp_path / "no" / "x.db"), "list"])
    assert result.exit_code == 1
    assert "does not exist" in result.output


def test_the_map_of_a_phase_is_written_where_asked(tmp_path: Path) -> None:
    gm = GM(database("sqlite", tmp_path))
    gm("new", "standard", "g")
    gm("orders", "g", "France", "-", stdin="A Par - Bur\n")
    gm("process", "g")
    out = gm("map", "g", "--phase", "S1901M", "--orders", "-o", str(tmp_path / "s.png")).output
    assert "Map written to" in out
    assert (tmp_path / "s.png").read_bytes().startswith(b"\x89PNG")
    missing = gm("map", "g", "-o", str(tmp_path / "no" / "x.png"), ok=False)
    assert missing.exit_code == 1 and "does not exist" in missing.output


def test_a_dissolution_game_shows_vp_favor_and_its_own_neutral_units(tmp_path: Path) -> None:
    gm = GM(database("sqlite", tmp_path))
    variant = load_variant("dissolution")
    rng = random.Random(1992)
    gm("new", "dissolution", "d")
    status = gm("status", "d").output
    assert "Victory: 27 VP" in status
    assert "Poland       2 centres, 4 VP, 2 units, 2 DP" in status
    assert "Yugoslavia: India 3, Israel 1, NATO 0, Russia 2, US Navy 0" in status  # §7
    template = gm("template", "d", "Poland").output
    assert "Permyak" not in template and "1 DP to A " in template
    for _ in range(3):
        position = GameService(open_store(gm.db)).position("d", actor=PUBLIC)
        play_phase(gm, "d", variant, position, rng)
        out = gm("process", "d").output
        assert "S9 §" not in out and "OOD §" not in out


def test_a_dissolution_results_post_shows_favor(tmp_path: Path) -> None:
    gm = GM(database("sqlite", tmp_path))
    gm("new", "dissolution", "d")
    gm("process", "d")
    post = gm("export", "d", "--format", "markdown").output
    assert "**Favor (each value caps the DP on that power's units)**" in post
    assert "- Yugoslavia: India 3, Israel 1, NATO 0, Russia 2, US Navy 0" in post


def test_the_gm_names_the_phase_to_process_and_a_repeat_does_nothing(tmp_path: Path) -> None:
    gm = GM(str(tmp_path / "g.db"))
    gm("new", "standard", "g")
    gm("orders", "g", "France", "-", "--phase", "S1901M", stdin="A Par - Bur\n")
    gm("process", "g", "--phase", "S1901M")
    again = gm("process", "g", "--phase", "S1901M", ok=False)
    assert again.exit_code != 0 and "Traceback" not in again.output
    assert "Spring 1901" in again.output and "already been processed" in again.output
    late = gm("orders", "g", "France", "-", "--phase", "S1901M", stdin="A Bur - Mar\n",
              ok=False)
    assert "already been processed" in late.output and "now open" in late.output
    assert "A Bur - Mar" not in gm("orders", "g", "France").output
    undo = gm("undo", "g", "--phase", "S1901M", ok=False)
    assert "Nothing was done" in undo.output
    gm("undo", "g", "--phase", "F1901M")
    assert "Spring 1901" in gm("status", "g").output
