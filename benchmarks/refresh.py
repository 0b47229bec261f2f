"""Measure everything issue 20 asks for, in one run, and write the figures into
benchmarks/README.md (the part between the ``figures`` markers) with the date and
the machine.

    python benchmarks/refresh.py            # about five minutes on a quiet 2-core machine
    python benchmarks/refresh.py --quick    # fewer games, to try it out

Runs, in this order: ``bench_vs_diplomacy.py`` (the ``diplomacy`` comparison, in the
same run as lawspeaker's figures), ``bench_dp_games.py`` (whole S9 Complete, OOD and
Dissolution games), ``bench_many_games.py`` (1,000 S9 games on 2 processes),
``bench_startup.py`` (the command line), ``bench_game_service.py`` (a game through
the service) and the resident memory of a server process
(the app built, the service) after 100 S9 Complete games were created and processed.
Each script prints its own figures and ratios; this one only collects their output.
Needs ``pip install -e '.[bench]'``.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

HERE = Path(__file__).resolve().parent
README = HERE / "README.md"
START, END = "<!-- figures:start -->", "<!-- figures:end -->"

MEMORY = """
import resource, tempfile, os
from lawspeaker.service import GameService
from lawspeaker.store import open_store
from lawspeaker.web import create_app
rss = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
with tempfile.TemporaryDirectory() as tmp:
    db = os.path.join(tmp, "games.db")
    app = create_app(db)  # the server's whole code loaded, as in lawspeaker serve
    base = rss()
    store = open_store(db)
    service = GameService(store)
    for n in range(100):
        service.create_game("s9-complete", f"game {n}")
        service.process(f"game {n}")
    print(f"{rss():.0f} MB resident: the server's code and 100 S9 Complete games, each "
          f"processed once ({base:.0f} MB before the games)")
    store.close()
"""

def run(args: list[str]) -> str:
    print("$", " ".join(args), file=sys.stderr, flush=True)
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=HERE.parent,
                          check=True)
    return done.stdout.rstrip()


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            found = re.search(r"model name\s*:\s*(.+)", f.read())
            cpu = found.group(1) if found else cpu
    except OSError:
        pass
    build = "compiled (mypyc)" if _compiled() else "pure Python"
    return (f"{os.cpu_count()} CPUs ({cpu}), {platform.system()} {platform.machine()}, "
            f"Python {platform.python_version()}, lawspeaker {build}, "
            f"diplomacy {version('diplomacy')}")


def _compiled() -> bool:
    import lawspeaker.core.resolver as resolver

    return not resolver.__file__.endswith(".py")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games (a trial run)")
    parser.add_argument("--no-write", action="store_true", help="print, do not write README")
    args = parser.parse_args()
    games, many = ("5", "100") if args.quick else ("20", "1000")
    sections = [
        ("lawspeaker vs diplomacy 1.1.2 (standard map, edition 2000)",
         ["benchmarks/bench_vs_diplomacy.py", "--games", games, "--seed", "1"]),
        ("Whole games of the DP variants",
         ["benchmarks/bench_dp_games.py", "--games", games, "--seed", "1",
          "--variants", "s9-complete", "ood", "dissolution"]),
        ("Many games on two processes",
         ["benchmarks/bench_many_games.py", "--games", many, "--processes", "2"]),
        ("The command line (median of 9 fresh processes)",
         ["benchmarks/bench_startup.py", "--repeat", "9"]),
        ("A whole S9 Complete game through the service (SQLite): each write's time, "
         "for which it holds its game's lock", ["benchmarks/bench_game_service.py"]),
        ("Memory of a server process holding 100 games (SQLite)", ["-c", MEMORY]),
    ]
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    out = [START, "", f"Measured {when} by `python benchmarks/refresh.py"
           f"{' --quick' if args.quick else ''}` on {machine()}.", ""]
    for title, argv in sections:
        text = run(argv)
        out += [f"#### {title}", "", "```text", text, "```", ""]
        print(f"\n{title}\n{text}", flush=True)
    out.append(END)
    if args.no_write:
        return
    readme = README.read_text(encoding="utf-8")
    block = "\n".join(out)
    if START in readme and END in readme:
        readme = readme[:readme.index(START)] + block + readme[readme.index(END) + len(END):]
    else:
        readme = readme.rstrip() + "\n\n## Latest figures\n\n" + block + "\n"
    README.write_text(readme, encoding="utf-8")
    print(f"\nwritten to {README}", file=sys.stderr)


if __name__ == "__main__":
    main()
