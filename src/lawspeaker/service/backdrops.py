"""The official map image a GM uploads for a game, with its layout
(docs/maps.md, "Drawing over the official map"): checked before anything is
kept, kept in the database, drawn under every map of the game.

An upload is refused whole, with one sentence naming the problem, when the
image is not a PNG, JPEG, GIF or WebP picture, is too large, when the layout
is not readable YAML, is for another variant, was calibrated on an image of
another size, or leaves a province or coast unplaced: a game's players must
never see a map with a unit missing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..store.models import BackdropRow, now
from .loader import GameLoader, LoadedGame, log_event, require_gm
from .types import ServiceError, Viewer

if TYPE_CHECKING:
    from ..render.backdrop import Backdrop

__all__ = ["MAX_IMAGE_BYTES", "MAX_LAYOUT_BYTES", "BackdropInfo", "Backdrops"]

MAX_IMAGE_BYTES = 8 * 1024 * 1024
"""An official map scanned at a generous size is 2 to 5 MB."""
MAX_LAYOUT_BYTES = 256 * 1024
MAX_PIXELS = 40_000_000
"""Larger images cannot be drawn in reasonable memory (resvg decodes them)."""


@dataclass(frozen=True, slots=True)
class BackdropInfo:
    """What the GM page says about the game's uploaded image."""

    width: int
    height: int
    media_type: str
    size_bytes: int
    uploaded_at: datetime


class Backdrops:
    """Upload, look up and remove a game's official map image."""

    def __init__(self, games: GameLoader) -> None:
        self.games = games

    def upload(self, name: str, image: bytes, layout_text: bytes | str, actor: Viewer,
               image_name: str = "the image") -> BackdropInfo:
        """Check the image and layout against the game's variant and keep them."""
        from ..render.backdrop import Backdrop
        from ..render.maplayout import LayoutError

        require_gm(actor)
        if len(image) > MAX_IMAGE_BYTES:
            raise ServiceError(f"{image_name} is {len(image) // 1024} KB; the largest image "
                               f"taken is {MAX_IMAGE_BYTES // (1024 * 1024)} MB")
        if len(layout_text) > MAX_LAYOUT_BYTES:
            raise ServiceError(f"the layout file is over {MAX_LAYOUT_BYTES // 1024} KB")
        if isinstance(layout_text, bytes):
            try:
                layout_text = layout_text.decode("utf-8")
            except UnicodeDecodeError:
                raise ServiceError("the layout file is not text (it is YAML, as "
                                   "'lawspeaker map calibrate' writes it)") from None
        try:
            backdrop = Backdrop.from_bytes(layout_text, image, "the layout file", image_name)
        except LayoutError as exc:
            raise ServiceError(str(exc)) from None
        if backdrop.info.width * backdrop.info.height > MAX_PIXELS:
            raise ServiceError(f"{image_name} is {backdrop.info.width}x{backdrop.info.height} "
                               f"pixels; at most {MAX_PIXELS // 1_000_000} million are taken")
        with self.games.write(name) as (s, g):
            problems = backdrop.problems(g.variant)
            if problems:
                raise ServiceError("the layout does not fit this game: " + "; ".join(problems))
            for old in _live(s, g):
                old.removed_at = now()
            row = BackdropRow(game_id=g.row.id, image=image, media_type=backdrop.info.media_type,
                              layout=layout_text)
            s.add(row)
            log_event(s, g.row, g.phase, actor, "backdrop",
                      f"GM set the map image ({backdrop.info.width}x{backdrop.info.height})")
            s.flush()
            return _info(row, backdrop.info.width, backdrop.info.height)

    def remove(self, name: str, actor: Viewer) -> bool:
        """Stop drawing over the uploaded image; False if there was none."""
        require_gm(actor)
        with self.games.write(name) as (s, g):
            rows = _live(s, g)
            for row in rows:
                row.removed_at = now()
            if rows:
                log_event(s, g.row, g.phase, actor, "backdrop", "GM removed the map image")
            return bool(rows)

    def info(self, name: str) -> BackdropInfo | None:
        with self.games.read(name) as (s, g):
            rows = _live(s, g)
            if not rows:
                return None
            backdrop = _backdrop(rows[-1])
            return _info(rows[-1], backdrop.info.width, backdrop.info.height)

    def image_of(self, name: str) -> Backdrop | None:
        with self.games.read(name) as (s, g):
            return self.stored(s, g)

    @staticmethod
    def stored(s: Session, g: LoadedGame) -> Backdrop | None:
        """The game's image to draw over, if the GM uploaded one."""
        rows = _live(s, g)
        return _backdrop(rows[-1]) if rows else None


def _live(s: Session, g: LoadedGame) -> list[BackdropRow]:
    return list(s.scalars(select(BackdropRow).where(
        BackdropRow.game_id == g.row.id, BackdropRow.removed_at.is_(None))
        .order_by(BackdropRow.id)))


def _backdrop(row: BackdropRow) -> Backdrop:
    from ..render.backdrop import Backdrop

    return Backdrop.from_bytes(row.layout, row.image, "the stored layout")


def _info(row: BackdropRow, width: int, height: int) -> BackdropInfo:
    return BackdropInfo(width, height, row.media_type, len(row.image), row.uploaded_at or now())
