"""The optional compiled build (issue 20; docs/performance.md).

``pip install .`` (and ``pip install -e .``) installs the pure-Python package, the
default. ``LAWSPEAKER_MYPYC=1 pip install .`` compiles the engine's modules listed
below with mypyc from the same typed source; the build backend in
``tools/build_backend.py`` fetches mypy for that build only. Results are identical:
CI runs the whole test suite on both.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from setuptools import setup

COMPILED = [
    # the adjudicator. Left as Python: core/board.py (Unit is a named-tuple subclass,
    # which mypyc cannot compile) and core/ruleset.py (Rules(edition="2000") takes plain
    # strings for its enums, which a compiled class refuses before its __post_init__ can
    # convert them)
    "core/convoys.py", "core/geography.py", "core/legality.py", "core/notation.py",
    "core/orders.py", "core/resolver.py", "core/resolver_explain.py", "core/resolver_plan.py",
    "core/resolver_match.py", "core/resolver_report.py", "core/results.py", "core/safetext.py",
    "core/wording.py",
    # one step of a game, and the rule components it calls
    "engine/adjustments.py", "engine/codec.py", "engine/phases.py", "engine/positions.py",
    "engine/posts.py", "engine/retreats.py",
    "rules/census.py", "rules/dp.py", "rules/favor.py", "rules/favor_orders.py",
    "rules/marriages.py", "rules/neutral_limits.py", "rules/violations.py", "rules/vp.py",
    # random play, for simulations
    "sim/options.py", "sim/randomplay.py",
]

if os.environ.get("LAWSPEAKER_MYPYC") == "1":
    from mypyc.build import mypycify

    # A module taken off the list must not come back from an earlier build's leftovers.
    shutil.rmtree("build", ignore_errors=True)
    package = Path("src") / "lawspeaker"
    setup(ext_modules=mypycify([str(package / m) for m in COMPILED], opt_level="3"))
else:
    setup()
