"""docs/architecture.md names the package as it is: every module, and nothing else.

The page writes a module as its path relative to ``src/lawspeaker``, in backticks
(```core/resolver.py```, ```sim/bots/tactician.py```). Every ``.py`` file of the
package is named that way, except the ``__init__.py`` files and the Alembic revisions
in ``store/migrations/versions/``; and every such path the page writes exists. A test
or a tool is written as a link, never as a backticked ``.py`` path.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent
PACKAGE = ROOT / "src" / "lawspeaker"
PAGE = ROOT / "docs" / "architecture.md"

FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
MODULE = re.compile(r"`([\w./]+\.py)`")


def modules() -> set[str]:
    """The package's modules that the page must name, as paths relative to the package."""
    out = set()
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE).as_posix()
        if path.name == "__init__.py" or rel.startswith("store/migrations/versions/"):
            continue
        out.add(rel)
    return out


def named() -> set[str]:
    """The module paths the page writes in backticks, outside its code blocks."""
    text = FENCE.sub("", PAGE.read_text(encoding="utf-8"))
    return set(MODULE.findall(text))


def test_the_page_is_read() -> None:
    """The reader finds the page's paths (if it found none, the tests below would pass)."""
    assert {"core/resolver.py", "service/games.py"} <= named()
    assert "core/resolver.py" in modules()


def test_every_module_is_named() -> None:
    missing = sorted(modules() - named())
    assert missing == [], f"modules docs/architecture.md does not name: {missing}"


def test_every_module_named_exists() -> None:
    absent = sorted(p for p in named() if not (PACKAGE / p).is_file())
    assert absent == [], f"docs/architecture.md names modules that do not exist: {absent}"
