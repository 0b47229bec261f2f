"""Start-up (issue 20): the bundled variants kept compiled between runs, and commands
that import only what they use."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

import lawspeaker
from lawspeaker.variants import _build, _load_cached, cache, load_variant

BUNDLED = Path(cache.__file__).parent


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv("LAWSPEAKER_CACHE_DIR", str(where))
    _load_cached.cache_clear()
    yield where
    _load_cached.cache_clear()


def test_a_bundled_variant_is_kept_and_loaded_back_unchanged(cache_dir: Path) -> None:
    built = _build(BUNDLED / "s9-complete")
    first = load_variant("s9-complete")
    files = list(cache_dir.glob("s9-complete-*.pickle"))
    assert len(files) == 1
    _load_cached.cache_clear()
    again = load_variant("s9-complete")
    assert again is not first  # read from the file, not the process's own memory
    assert again == built and again.map == built.map and again.title == built.title
    assert again.map.provinces == built.map.provinces
    assert again.map.army_links == built.map.army_links


def test_an_unreadable_cache_file_is_rebuilt(cache_dir: Path) -> None:
    load_variant("standard")
    (file,) = cache_dir.glob("standard-*.pickle")
    file.write_bytes(b"not a pickle")
    _load_cached.cache_clear()
    assert load_variant("standard").title == "Diplomacy (standard map)"
    assert pickle.loads(file.read_bytes()).title == "Diplomacy (standard map)"


def test_a_pickle_of_something_else_is_not_taken_for_a_variant(cache_dir: Path) -> None:
    load_variant("standard")
    (file,) = cache_dir.glob("standard-*.pickle")
    file.write_bytes(pickle.dumps({"title": "forged"}))
    _load_cached.cache_clear()
    assert load_variant("standard").title == "Diplomacy (standard map)"


def test_a_stale_file_is_replaced(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    load_variant("standard")
    (old,) = cache_dir.glob("standard-*.pickle")
    monkeypatch.setattr(cache, "_key", lambda: "changed")  # the files or the code changed
    _load_cached.cache_clear()
    load_variant("standard")
    assert [f.name for f in cache_dir.glob("standard-*.pickle")] == [
        old.name.rsplit("-", 1)[0] + "-changed.pickle"]


def test_the_cache_can_be_turned_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAWSPEAKER_CACHE_DIR", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    _load_cached.cache_clear()
    assert load_variant("standard").name == "standard"
    assert list(tmp_path.rglob("*.pickle")) == []
    _load_cached.cache_clear()


def test_a_cache_that_cannot_be_written_is_no_error(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("LAWSPEAKER_CACHE_DIR", str(blocker / "cache"))  # under a file
    _load_cached.cache_clear()
    assert load_variant("ood").name == "ood"
    _load_cached.cache_clear()


def test_the_cache_defaults_to_the_users_cache_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LAWSPEAKER_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.cache_dir() == tmp_path / "lawspeaker"


def test_processes_loading_at_once_all_get_the_variant(cache_dir: Path) -> None:
    env = {**os.environ, "LAWSPEAKER_CACHE_DIR": str(cache_dir)}
    code = "import lawspeaker; print(lawspeaker.load_variant('dissolution').title)"
    procs = [subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(4)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, outs
    assert {o.strip() for o, _ in outs} == {"Dissolution (Распад)"}
    (file,) = cache_dir.glob("dissolution-*.pickle")
    assert pickle.loads(file.read_bytes()).name == "dissolution"
    assert list(cache_dir.glob("*.tmp")) == []


def _modules_after(args: list[str], cache_dir: Path) -> set[str]:
    """The modules imported by running ``lawspeaker ARGS`` in a fresh process."""
    code = ("import sys; from lawspeaker.cli import main\n"
            "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            "sys.stderr.write('\\n'.join(sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          env={**os.environ, "LAWSPEAKER_CACHE_DIR": str(cache_dir)},
                          timeout=120, check=True)
    return set(done.stderr.split())


HEAVY = ("sqlalchemy", "fastapi", "starlette", "uvicorn", "drawsvg", "resvg_py", "jinja2",
         "alembic")


@pytest.mark.parametrize("args", [["--help"], ["variants"], ["adjudicate"],
                                  ["game", "--help"], ["map", "--help"]])
def test_commands_import_only_what_they_use(args: list[str], cache_dir: Path) -> None:
    _modules_after(["variants"], cache_dir)  # the cache is warm
    loaded = _modules_after(args, cache_dir)
    assert [m for m in loaded if m.split(".")[0] in HEAVY] == []
    if args[-1] == "--help":
        assert [m for m in loaded if m.startswith(("lawspeaker.engine", "lawspeaker.variants",
                                                   "ruamel"))] == []
    if args == ["variants"]:
        assert [m for m in loaded if m.startswith("ruamel")] == []  # read from the cache


def test_the_cli_export_formats_are_the_services() -> None:
    from lawspeaker.cli.game import FORMATS
    from lawspeaker.service.export import FORMATS as SERVICE_FORMATS

    assert FORMATS == SERVICE_FORMATS


def test_the_public_api_is_complete_and_imported_on_use() -> None:
    assert set(lawspeaker._WHERE) == set(lawspeaker.__all__)
    for name in lawspeaker.__all__:
        value = getattr(lawspeaker, name)
        assert getattr(value, "__name__", name) == name
    with pytest.raises(AttributeError):
        lawspeaker.no_such_name  # noqa: B018


@pytest.mark.parametrize("name", ["standard", "s9-basic", "s9-complete", "ood", "dissolution"])
def test_a_pickled_variant_is_the_same_variant(name: str) -> None:
    """What the cache keeps comes back field for field (on the compiled build too, where
    maps are pickled as constructor calls)."""
    built = _build(BUNDLED / name)
    back = pickle.loads(pickle.dumps(built, protocol=pickle.HIGHEST_PROTOCOL))
    assert back == built
    assert back.map.provinces == built.map.provinces
    assert back.map.fleet_links == built.map.fleet_links
    assert back.map.names_index() == built.map.names_index()
    assert back.map.touching("lon" if name == "standard" else next(iter(built.map.provinces))) \
        == built.map.touching("lon" if name == "standard" else next(iter(built.map.provinces)))
