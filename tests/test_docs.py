"""The code in README.md and docs/*.md runs, so it cannot rot (issue 13 §6).

Every ```python block of a file runs, in order, in one namespace per file
(with ``lawspeaker`` imported). Every line of a ```sh block that runs
``lawspeaker`` (or ``.venv/bin/lawspeaker``) with a cheap command
(``adjudicate``, ``variants``, ``map check``) and files that exist runs through
click's CliRunner and must exit 0. The files are read when the tests run, so
whatever the README says today is what is tested.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

import lawspeaker
from lawspeaker.cli import main

ROOT = Path(__file__).parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```(\w+)[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
CHEAP = ("adjudicate", "variants", "map check")
PLACEHOLDER = re.compile(r"^[A-Z][A-Z_.]*$")  # VARIANT, NAME, ORDERS.txt
KNOWN_BROKEN: dict[str, str] = {}
"""File name -> why its python blocks are known not to run (a strict xfail)."""


def blocks(path: Path, language: str) -> list[str]:
    return [code for lang, code in BLOCK.findall(path.read_text(encoding="utf-8"))
            if lang == language]


def commands(path: Path) -> list[list[str]]:
    """The cheap ``lawspeaker`` commands of the file's sh blocks, as argument lists."""
    out = []
    for code in blocks(path, "sh"):
        for line in code.splitlines():
            line = line.split(" #", 1)[0].strip()
            for prefix in (".venv/bin/lawspeaker ", "lawspeaker "):
                if line.startswith(prefix):
                    args = shlex.split(line[len(prefix):])
                    if " ".join(args).startswith(CHEAP) and not any(
                            c in line for c in "[]|<>&…") and "..." not in line and not any(
                            PLACEHOLDER.match(a) for a in args):
                        out.append(args)
    return out


def runnable(args: list[str]) -> bool:
    """Whether every file the command names exists (examples name files of the reader's)."""
    files = [a for a in args if not a.startswith("-") and re.search(r"\.(txt|json)$", a)]
    return all((ROOT / f).exists() for f in files if "--save" not in args or f != args[-1])


@pytest.mark.parametrize("path", [p for p in DOCS if blocks(p, "python")],
                         ids=lambda p: p.name)
def test_python_blocks_run(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                           request: pytest.FixtureRequest) -> None:
    if path.name in KNOWN_BROKEN:
        request.applymarker(pytest.mark.xfail(reason=KNOWN_BROKEN[path.name], strict=True))
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"lawspeaker": lawspeaker, "__name__": "__docs__"}
    for number, code in enumerate(blocks(path, "python"), 1):
        try:
            exec(compile(code, f"{path.name} python block {number}", "exec"), namespace)
        except Exception as exc:  # report which block of which file
            pytest.fail(f"{path.name}, python block {number}: {type(exc).__name__}: {exc}")


CASES = [(p, args) for p in DOCS for args in commands(p) if runnable(args)]


@pytest.mark.parametrize("path,args", CASES,
                         ids=[f"{p.name}: {' '.join(a)}" for p, a in CASES])
def test_sh_commands_run(path: Path, args: list[str], tmp_path: Path,
                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    args = [str(tmp_path / Path(a).name) if i and args[i - 1] == "--save" else a
            for i, a in enumerate(args)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, f"{path.name}: lawspeaker {' '.join(args)}\n{result.output}"


def test_the_readme_quick_start_is_checked() -> None:
    """The harness finds the README's commands (if it found none, it would test nothing)."""
    assert any(args[0] == "adjudicate" for _, args in CASES if _.name == "README.md")
