"""Adjudication speed of lawspeaker against the ``diplomacy`` package (1.1.2).

Run ``python benchmarks/bench_vs_diplomacy.py --games 20 --seed 1`` after
``pip install -e '.[bench]'``.

What is compared
    Seeded random games on the standard map are played with ``diplomacy``
    (mostly moves and supports, supports and convoys usually matching a chosen
    move, so that units are dislodged and retreat and adjustment phases occur).
    For every phase the board before it and each power's orders are recorded.
    The same games are then replayed phase by phase through lawspeaker, which
    continues from its own result; after every phase the two resulting boards
    (phase, units, dislodged units with their retreat options, centre owners)
    are compared, so the benchmark is also a cross-check of the two engines.

What is timed
    diplomacy: only ``Game.process()``, its public "adjudicate this phase and
    advance" call, while replaying each recorded game from the start. Orders
    are given with ``set_orders`` outside the timed region.
    lawspeaker: only ``lawspeaker.adjudicate(variant, position, orders, rules)``,
    which likewise adjudicates the phase and builds the next position. Orders
    are parsed and positions built once, outside the timed region.
    Each phase is run ``--repeat`` times by each engine (whole games in order,
    not one phase over and over) and its median time is kept; phases per
    second is the number of phases over the sum of those medians.

Why it is fair
    Only phases that both engines start from the same board with the same
    orders are counted, for both engines. Where lawspeaker stops at a phase
    diplomacy skips (a dislodged unit with no retreat; builds owed but no free
    home centre), lawspeaker adjudicates that empty phase too, inside the
    timed work of the phase that led to it. Where the engines disagree,
    lawspeaker is re-synchronised from diplomacy's board at the next movement
    or adjustment phase, and the retreat phases in between are counted for
    neither. ``diplomacy`` implements the 2000 rulebook (an army ordered "via
    convoy" to an adjacent space moves overland if no convoy exists), so
    lawspeaker runs with ``--edition 2000`` by default; ``--edition 2023``
    shows how the rulebooks differ.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import platform
import pstats
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from importlib.metadata import version

from dipgames import Alignment, Comparable, Names, RecordedGame, align, record_game
from diplomacy import Game as DipGame

import lawspeaker as L

Key = tuple[int, int]
"""(game index, phase index within the game)."""

KINDS = (L.PhaseKind.MOVEMENT, L.PhaseKind.RETREAT, L.PhaseKind.ADJUSTMENT)

CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
CLOCK = CLOCKS["wall"]
"""How phases are timed: wall time (the default), or with ``--clock cpu`` this process's
CPU time, which a busy shared machine disturbs less."""


def time_diplomacy(games: Sequence[RecordedGame], names: Names, repeat: int,
                   wanted: set[Key], core: bool = False) -> dict[Key, list[float]]:
    """Replay each game ``repeat`` times, timing ``Game.process()`` per phase.

    With ``core``, time only ``Game._process()``, the adjudication inside
    ``process()`` without its history keeping (orders are cleared untimed)."""
    times: dict[Key, list[float]] = defaultdict(list)
    clock = CLOCK
    for game in games:
        for rep in range(repeat):
            dip = DipGame()
            step = dip._process if core else dip.process
            for i, record in enumerate(game.phases):
                if rep == 0 and names.view_of_state(dip.get_state()) != names.view_of_state(
                        record.state):
                    sys.exit(f"replay of game {game.index} diverged at {record.name}")
                for power, orders in record.orders.items():
                    dip.set_orders(power, list(orders))
                start = clock()
                step()
                elapsed = clock() - start
                if core:
                    dip.clear_orders()
                if (game.index, i) in wanted:
                    times[game.index, i].append(elapsed)
    return times


def _adjudicate_all(comparables: Iterable[Comparable], variant: L.Variant, rules: L.Rules,
                    times: dict[Key, list[float]]) -> None:
    adjudicate, clock = L.adjudicate, CLOCK
    for c in comparables:
        start = clock()
        adjudicate(variant, c.position, c.orders, rules)
        for extra in c.extra:
            adjudicate(variant, extra, (), rules)
        times[c.game, c.index].append(clock() - start)


def time_lawspeaker(comparables: Sequence[Comparable], variant: L.Variant, rules: L.Rules,
                    repeat: int) -> dict[Key, list[float]]:
    """Adjudicate every compared phase ``repeat`` times, in game order."""
    times: dict[Key, list[float]] = defaultdict(list)
    for _ in range(repeat):
        _adjudicate_all(comparables, variant, rules, times)
    return times


def table(comparables: Sequence[Comparable], dip: dict[Key, list[float]],
          ls: dict[Key, list[float]], core: dict[Key, list[float]] | None) -> list[str]:
    """phase type | phases | diplomacy ph/s | lawspeaker ph/s | ratio [| core ph/s | ratio]."""
    rows = [f"{'phase type':<12}{'phases':>7}{'diplomacy ph/s':>16}{'lawspeaker ph/s':>17}"
            f"{'ratio':>8}" + (f"{'dip core ph/s':>15}{'ratio':>8}" if core is not None else "")]
    groups: list[tuple[str, list[Comparable]]] = [
        (kind.value, [c for c in comparables if c.kind is kind]) for kind in KINDS]
    groups.append(("all", list(comparables)))

    def seconds(times: dict[Key, list[float]], group: list[Comparable]) -> float:
        return sum(statistics.median(times[c.game, c.index]) for c in group)

    for label, group in groups:
        n = len(group)
        if not n:
            rows.append(f"{label:<12}{0:>7}")
            continue
        dip_s, ls_s = seconds(dip, group), seconds(ls, group)
        row = f"{label:<12}{n:>7}{n / dip_s:>16,.0f}{n / ls_s:>17,.0f}{dip_s / ls_s:>7.1f}x"
        if core is not None:
            core_s = seconds(core, group)
            row += f"{n / core_s:>15,.0f}{core_s / ls_s:>7.1f}x"
        rows.append(row)
    return rows


def agreement(result: Alignment, show_all_orders: bool) -> list[str]:
    comps = result.comparables
    lines = ["", f"agreement: {sum(c.agree for c in comps)} of {len(comps)} compared phases"
             " ended on the same board"]
    for kind in KINDS:
        group = [c for c in comps if c.kind is kind]
        lines.append(f"  {kind.value:<11} {sum(c.agree for c in group)} / {len(group)}")
    lines.append(f"  re-synchronised from diplomacy after a disagreement: {result.resynced};"
                 f" retreat phases left out for both engines: {result.excluded}")
    if result.catch_ups:
        lines.append(f"phases diplomacy skips but lawspeaker stops at (adjudicated with no"
                     f" orders, timed): {len(result.catch_ups)}")
        lines += [f"  game {c.game} {c.phase} -> {c.stopped_at}: {c.why}"
                  for c in result.catch_ups]
    for d in result.disagreements:
        lines.append(f"DISAGREEMENT game {d.game} {d.phase} (- diplomacy only, + lawspeaker"
                     f" only):")
        lines += [f"    {x}" for x in d.differences]
        lines += [f"  note: {n}" for n in d.notes]
        # Orders naming a space in the differences, or in adjustments a power there.
        size = (lambda n: n > 3) if d.phase.endswith("A") else (lambda n: n == 3)
        words = {w.split("/")[0] for x in d.differences for w in x.split()
                 if w.isupper() and size(len(w.split("/")[0]))}
        orders = [o for o in d.orders if show_all_orders or words & {
            w.split("/")[0].rstrip(":") for w in o.split()}]
        lines.append("  orders" + ("" if show_all_orders else " of those powers or spaces") + ":")
        lines += [f"    {o}" for o in orders] or ["    (none)"]
    return lines


def profile(comparables: Sequence[Comparable], variant: L.Variant, rules: L.Rules,
            top: int) -> str:
    """cProfile one pass of lawspeaker over the compared phases."""
    profiler = cProfile.Profile()
    profiler.enable()
    _adjudicate_all(comparables, variant, rules, defaultdict(list))
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10, help="random games (default 10)")
    parser.add_argument("--years", type=int, default=10, help="years per game (default 10)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--repeat", type=int, default=5,
                        help="timed runs of every phase per engine; median kept (default 5)")
    parser.add_argument("--edition", choices=[e.value for e in L.Edition], default="2000",
                        help="lawspeaker rules edition (default 2000, as diplomacy)")
    parser.add_argument("--cd-rate", type=float, default=0.05,
                        help="chance a power leaves one removal to civil disorder")
    parser.add_argument("--no-core", action="store_true",
                        help="skip timing diplomacy's Game._process() alone")
    parser.add_argument("--all-orders", action="store_true",
                        help="list every order of a disagreeing phase")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="time phases by wall time (default) or by this process's CPU "
                             "time (steadier on a busy machine)")
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="also cProfile lawspeaker and print the top N functions")
    args = parser.parse_args(argv)
    global CLOCK
    CLOCK = CLOCKS[args.clock]

    variant = L.load_variant("standard")
    rules = variant.rules.with_options(edition=args.edition)
    names = Names(variant)
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs;"
          f" lawspeaker {L.__version__} (edition {args.edition}),"
          f" diplomacy {version('diplomacy')}")
    print(f"games {args.games} x {args.years} years, seed {args.seed}, repeat {args.repeat},"
          f" {args.clock} clock")

    start = time.perf_counter()
    games = [record_game(i, args.seed, args.years, args.cd_rate) for i in range(args.games)]
    recorded = sum(len(g.phases) for g in games)
    print(f"recorded {recorded} phases in {time.perf_counter() - start:.1f}s", file=sys.stderr)
    result = align(games, names, rules)
    comparables = result.comparables
    wanted = {(c.game, c.index) for c in comparables}
    # Game by game, both engines in turn, so that a change in machine load
    # during the run falls on both alike.
    dip: dict[Key, list[float]] = {}
    core: dict[Key, list[float]] | None = None if args.no_core else {}
    ls: dict[Key, list[float]] = {}
    for game in games:
        print(f"timing game {game.index}...", file=sys.stderr)
        dip.update(time_diplomacy([game], names, args.repeat, wanted))
        if core is not None:
            core.update(time_diplomacy([game], names, args.repeat, wanted, core=True))
        ls.update(time_lawspeaker([c for c in comparables if c.game == game.index],
                                  variant, rules, args.repeat))

    print(f"{recorded} phases recorded, {len(comparables)} compared (same board, same orders)")
    print()
    print("\n".join(table(comparables, dip, ls, core)))
    print("\n".join(agreement(result, args.all_orders)))
    if args.profile:
        print()
        print(profile(comparables, variant, rules, args.profile))
    return 0


if __name__ == "__main__":
    sys.exit(main())
