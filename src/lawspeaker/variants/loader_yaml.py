"""The YAML side of the variant loader: reading a file, and recording problems with lines.

Every section reader of :mod:`lawspeaker.variants.loader` is given the one
:class:`Reader` of the folder being loaded, as an explicit parameter: it owns the
list of problems (so ``lawspeaker map check`` reports them all, never stopping at
the first) and knows which file each top-level key came from, since a variant may
inherit keys from its ``base``. :func:`line_of` finds the line of a key in the
round-trip YAML, so every problem points at the line to fix.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from .model import Problem

__all__ = ["Reader", "line_of"]


def line_of(node: Any, key: Any = None) -> int | None:
    """1-based line of ``node`` (or of ``key`` inside it), when known."""
    lc = getattr(node, "lc", None)
    if lc is None:
        return None
    try:
        if key is None:
            return int(lc.line) + 1
        if isinstance(key, int):
            return int(lc.item(key)[0]) + 1
        return int(lc.key(key)[0]) + 1
    except (KeyError, IndexError, TypeError):
        return int(lc.line) + 1


class Reader:
    """Reads the YAML files of one variant folder, collecting problems."""

    def __init__(self, directory: Path) -> None:
        self.dir = directory
        self.problems: list[Problem] = []
        self.inherited: dict[str, str] = {}
        """Top-level key of variant.yaml -> the base's file it was taken from."""
        self.bases: list[Path] = []
        """The folders of the variant's ``base:`` chain, nearest first."""

    def problem(self, file: str, line: int | None, message: str, fix: str = "") -> None:
        problem = Problem(file, line, message, fix)
        if problem not in self.problems:  # each problem once
            self.problems.append(problem)

    def items(self, file: str, parent: Any, key: str, where: str) -> list[tuple[int, str]]:
        """The list under ``parent[key]`` as (index, text); a lone string or a
        mapping there is reported, not split into letters."""
        value = parent.get(key) if isinstance(parent, Mapping) else None
        if value is None:
            return []
        if isinstance(value, str) or not isinstance(value, list):
            self.problem(file, line_of(parent, key), f"{where}: '{key}' must be a list, "
                         f"like [{value}]")
            return []
        return [(i, str(v)) for i, v in enumerate(value)]

    def mapping(self, file: str, parent: Any, key: str, where: str) -> Mapping[str, Any]:
        value = parent.get(key) if isinstance(parent, Mapping) else None
        if value is None:
            return {}
        if not isinstance(value, Mapping):
            self.problem(file, line_of(parent, key), f"{where}: '{key}' must be a mapping")
            return {}
        return value

    def entries(self, file: str, raw: Mapping[Any, Any]
                ) -> Iterator[tuple[str, Mapping[str, Any], int | None]]:
        """Each ``name: {...}`` of ``raw`` as (name, body, line); a body that is not a
        mapping is reported and skipped."""
        for name, body in raw.items():
            line = line_of(raw, name)
            if isinstance(body, Mapping):
                yield str(name), body, line
            else:
                self.problem(file, line, f"{name}: must be a mapping")

    def read(self, name: str) -> Any:
        path = self.dir / name
        if name.startswith("../") or "/" in name:
            path = (self.dir / name).resolve()
        try:
            return YAML(typ="rt").load(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            self.problem(name, None, "file not found")
        except YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            self.problem(name, mark.line + 1 if mark else None, f"not valid YAML: {exc}")
        return None

    @property
    def favor_file(self) -> str | None:
        """``favor.yaml`` of the variant's folder, else of the nearest base that has
        one (Dissolution §11), as a name :meth:`read` takes; None if there is none."""
        for folder in (self.dir, *self.bases):
            if (folder / "favor.yaml").is_file():
                if folder == self.dir:
                    return "favor.yaml"
                return str((folder / "favor.yaml").resolve())
        return None

    def origin(self, key: str) -> str:
        """The file a top-level key of variant.yaml came from (it may be inherited)."""
        return self.inherited.get(key, "variant.yaml")
