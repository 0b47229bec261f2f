"""How long the command line takes to answer: ``lawspeaker --help``, ``lawspeaker
variants`` and ``lawspeaker adjudicate`` of the bundled first turn of a variant.

Each command runs ``--repeat`` times as a fresh process (the compiled-variant cache
warm, after one untimed run) and the median wall time is printed, with the bare
interpreter's start (``python -c pass``) for comparison. It reports and never
asserts.

    python benchmarks/bench_startup.py --repeat 9
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

COMMANDS = [
    ("python -c pass", [sys.executable, "-c", "pass"]),
    ("lawspeaker --help", ["lawspeaker", "--help"]),
    ("lawspeaker variants", ["lawspeaker", "variants"]),
    ("lawspeaker adjudicate", ["lawspeaker", "adjudicate"]),
    ("lawspeaker adjudicate --variant s9-complete",
     ["lawspeaker", "adjudicate", "--variant", "s9-complete"]),
]


def median_seconds(argv: list[str], repeat: int) -> float:
    subprocess.run(argv, capture_output=True, check=True)  # warm: caches, the OS's file cache
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(argv, capture_output=True, check=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def measure(repeat: int) -> list[tuple[str, float]]:
    found = shutil.which("lawspeaker", path=str(Path(sys.executable).parent))
    exe = found or "lawspeaker"
    return [(label, median_seconds([exe, *argv[1:]] if argv[0] == "lawspeaker" else argv, repeat))
            for label, argv in COMMANDS]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    for label, seconds in measure(args.repeat):
        print(f"{label:<45} {seconds * 1000:7.0f} ms")


if __name__ == "__main__":
    main()
