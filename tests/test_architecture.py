"""The layout of the package: no import circles, and imports run one way, so a
package can be read, tested and changed knowing only the layers below it.

The import graph of ``src/lawspeaker`` is read with ``ast`` (top-level imports,
imports inside functions and under ``if TYPE_CHECKING:`` alike). Each package is
a layer; a module may import its own package and the layers below its own,
never a layer above or a package beside it in the same layer.
"""

from __future__ import annotations

import ast
from pathlib import Path

import lawspeaker

ROOT = Path(lawspeaker.__file__).parent
TOP = "lawspeaker"

LAYERS: tuple[tuple[str, ...], ...] = (
    (TOP,),                # __init__.py: the public API, re-exports only
    ("cli",),              # front ends: the command line ...
    ("web", "discord"),    # ... the game server and the Discord bot (the CLI starts them)
    ("service",),          # games, submissions, processing, who sees what
    ("store",),            # the database
    ("render", "sim", "cases"),  # maps as SVG/PNG; random play and bots; the case format
    ("engine",),           # a game's phases: the core and the components together
    ("rules",),            # the rule components a variant switches on
    ("variants",),         # Variant types, the loader, the bundled data
    ("core",),             # the adjudicator every variant shares
)
"""Top to bottom: a package may import the packages of the layers below its own."""

EXCLUDED = ("store/migrations",)  # Alembic's scripts, not modules of the package


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT)
        if any(rel.as_posix().startswith(e) for e in EXCLUDED):
            continue
        parts = [TOP, *rel.with_suffix("").parts]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = path.name == "__init__.py"
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if package else name.split(".")[:-1]
                base = base[: len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                out.add(sub if sub in MODULES else module)
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
    return {m for m in out if m in MODULES and m != name}


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _package(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else TOP


def _layer(package: str) -> int:
    for number, layer in enumerate(LAYERS):
        if package in layer:
            return number
    raise AssertionError(f"package {package!r} is in no layer of LAYERS")


def _cycles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in GRAPH[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return out


def test_the_graph_is_read() -> None:
    assert f"{TOP}.core.resolver" in GRAPH[f"{TOP}.engine.phases"]


def test_no_import_circles() -> None:
    assert _cycles() == []


def test_every_module_is_in_a_package() -> None:
    loose = [m for m in MODULES if m.count(".") == 1 and (ROOT / f"{m.split('.')[1]}.py").exists()]
    assert loose == [], "modules at the package root; give each a package"


def _wrong_way(graph: dict[str, set[str]]) -> list[str]:
    """The imports of ``graph`` that go up a layer or sideways within one."""
    wrong = []
    for module, targets in sorted(graph.items()):
        mine = _package(module)
        for target in sorted(targets):
            theirs = _package(target)
            if theirs != mine and _layer(theirs) <= _layer(mine):
                wrong.append(f"{module} imports {target}")
    return wrong


def test_imports_run_one_way() -> None:
    assert _wrong_way(GRAPH) == []


def test_render_draws_turns_but_does_not_play_them() -> None:
    """Maps are drawn from a position and results; random play (``sim``) stays out."""
    board, randomplay = f"{TOP}.render.board", f"{TOP}.sim.randomplay"
    assert randomplay not in GRAPH[board]
    assert _wrong_way({board: GRAPH[board] | {randomplay}}) == [f"{board} imports {randomplay}"]


def test_nothing_imports_the_public_api() -> None:
    """The package root only re-exports; inside the package, import the module itself."""
    assert [m for m, targets in GRAPH.items() if TOP in targets] == []
