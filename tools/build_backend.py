"""setuptools' build backend, plus mypy when the compiled build is asked for
(``LAWSPEAKER_MYPYC=1``, see setup.py): the default install never fetches it."""

from __future__ import annotations

import os
from collections.abc import Callable

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (the backend's other hooks, unchanged)

FLAG = "LAWSPEAKER_MYPYC"
MYPYC = ["mypy>=1.10"]


def _with_mypy(ask: Callable[[dict[str, object] | None], list[str]],
               config_settings: dict[str, object] | None) -> list[str]:
    """setuptools' requirements (read by running setup.py, before mypy is there, so
    without the flag), and mypy when the flag is set."""
    flag = os.environ.pop(FLAG, None)
    try:
        found = ask(config_settings)
    finally:
        if flag is not None:
            os.environ[FLAG] = flag
    return [*found, *MYPYC] if flag == "1" else found


def get_requires_for_build_wheel(config_settings: dict[str, object] | None = None
                                 ) -> list[str]:
    return _with_mypy(_setuptools.get_requires_for_build_wheel, config_settings)


def get_requires_for_build_editable(config_settings: dict[str, object] | None = None
                                    ) -> list[str]:
    return _with_mypy(_setuptools.get_requires_for_build_editable, config_settings)
