"""``lawspeaker variant new NAME --base VARIANT``: a designer's starting folder.

The folder holds one ``variant.yaml`` that extends the base and lists every
component it may switch on, commented (:mod:`lawspeaker.variants.template`); it
passes ``lawspeaker map check`` as written.
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import click

from .root import main

__all__ = ["variant_group"]

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,59}")


@main.group("variant")
def variant_group() -> None:
    """Start a new variant from an existing one."""


@variant_group.command("new")
@click.argument("name")
@click.option("--base", "base_named", default="standard", show_default=True, metavar="VARIANT",
              help="The variant to extend: a bundled name or a folder.")
@click.option("--dir", "parent", default=".", show_default=True,
              type=click.Path(file_okay=False), help="Where to make the folder NAME.")
def new(name: str, base_named: str, parent: str) -> None:
    """Make the folder NAME with a variant.yaml that extends the base.

    Every component the variant may switch on is listed in it, commented, with
    the rulebook it comes from and the keys it reads. Then edit it and run
    'lawspeaker map check NAME'.
    """
    if not _NAME.fullmatch(name):
        raise click.ClickException(f"'{name}' cannot name a variant: use letters, digits, "
                                   "'-', '_' and '.', starting with a letter or digit")
    from ..variants import VariantError, available_variants, load_variant, locate
    from ..variants.loader_base import keys_set
    from ..variants.locate import is_bundled
    from ..variants.template import variant_yaml

    if name.lower() in available_variants():
        raise click.ClickException(f"'{name}' is a bundled variant's name: choose another, "
                                   "so that games and servers can tell them apart")
    try:
        base_dir = locate(base_named)
        base = load_variant(base_dir)
    except VariantError as exc:
        raise click.ClickException(f"--base {base_named}: {exc}") from None
    folder = Path(parent) / name
    if folder.exists():
        raise click.ClickException(f"{folder} already exists: nothing was written")
    ref = base.name if is_bundled(base_dir) else \
        os.path.relpath(base_dir.resolve(), folder.resolve()).replace(os.sep, "/")
    text = variant_yaml(name, ref, base, keys_set(base_dir))
    folder.mkdir(parents=True)
    (folder / "variant.yaml").write_text(text, encoding="utf-8")
    click.echo(f"{folder / 'variant.yaml'} written: {name} extends {base.name}. "
               f"Edit it, then run: lawspeaker map check {shlex.quote(str(folder))}")
