"""``lawspeaker map calibrate``: a small page on 127.0.0.1 where the GM clicks,
province by province, where each unit stands on an official map image.

:class:`Calibration` holds the work: the places to set (``spots_of``: every
province a unit can stand in and each split coast, in bands across the map),
the spots set so far, and the layout file, written after every click so that
closing the page loses nothing and running the command again resumes.
:func:`calibration_app` is the page and its JSON calls, all under a random
path (another user of the machine cannot reach them); the page's script is
the static ``calibrate.js`` (the Content-Security-Policy allows no inline
script). Once three provinces are set, the page shows where the next one
probably is (the variant's own layout fitted to the spots set nearest it), so
Enter often places it without aiming.
"""

from __future__ import annotations

import os
import secrets
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.templating import Jinja2Templates

from ..core.geography import province_of
from ..render.backdrop import affine_fit, estimate
from ..render.imagefile import ImageInfo, image_info
from ..render.maplayout import LayoutError, MapLayout, load_layout, save_layout, spots_of
from ..variants import Variant

__all__ = ["Calibration", "calibration_app", "serve_calibration"]

_HERE = Path(__file__).parent
_CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


class Calibration:
    """One image being calibrated for one variant, saved to ``target``."""

    def __init__(self, variant: Variant, image: bytes, info: ImageInfo, layout: MapLayout,
                 target: Path) -> None:
        self.variant = variant
        self.image = image
        self.info = info
        self.layout = layout
        self.target = target
        self.order = spots_of(variant)
        self._lock = threading.Lock()

    @classmethod
    def open(cls, variant: Variant, image_path: Path, target: Path) -> Calibration:
        """Start, or resume from ``target`` if it exists (it must be for the
        same variant and an image of the same size)."""
        try:
            image = image_path.read_bytes()
        except OSError as exc:
            raise LayoutError(f"cannot read {image_path}: {exc.strerror}") from None
        try:
            info = image_info(image)
        except ValueError as exc:
            raise LayoutError(f"{image_path}: {exc}") from None
        if not target.parent.is_dir():
            raise LayoutError(f"cannot write {target}: the folder {target.parent} does not "
                              "exist")
        relative = os.path.relpath(image_path.resolve(), target.parent.resolve())
        if target.exists():
            layout = load_layout(target)
            if layout.variant != variant.name:
                raise LayoutError(f"{target} is a layout for '{layout.variant}', not "
                                  f"'{variant.name}': give another -o")
            if tuple(layout.size) != (info.width, info.height):
                raise LayoutError(f"{target} was calibrated on a {layout.size[0]}x"
                                  f"{layout.size[1]} image, and {image_path} is "
                                  f"{info.width}x{info.height}: give another -o")
            layout.image = Path(relative).as_posix()
        else:
            layout = MapLayout(variant.name, Path(relative).as_posix(), (info.width, info.height))
        return cls(variant, image, info, layout, target)

    def progress(self) -> tuple[int, int]:
        return sum(1 for k in self.order if k in self.layout.provinces), len(self.order)

    def state(self) -> dict[str, Any]:
        """What the page shows: the places in order, the spots set, and a
        guess for every place not set yet."""
        with self._lock:
            names = self.variant.map
            items = [{"key": k, "name": names.name_of(k),
                      "coast": k.split("/")[1] if "/" in k else ""} for k in self.order]
            done, total = self.progress()
            return {"variant": self.variant.name, "title": self.variant.title,
                    "size": list(self.layout.size), "items": items,
                    "placed": {k: list(p) for k, p in self.layout.provinces.items()},
                    "guesses": self._guesses(), "done": done, "total": total,
                    "file": str(self.target)}

    def _guesses(self) -> dict[str, list[float]]:
        provinces = self.variant.map.provinces
        pairs = [(provinces[k].xy or (0.0, 0.0), p) for k, p in self.layout.provinces.items()
                 if k in provinces]
        if len(pairs) < 3:
            return {}
        fit = affine_fit(pairs, self.variant.map, self.layout.size)
        width, height = self.layout.size
        out: dict[str, list[float]] = {}
        for key in self.order:
            if key in self.layout.provinces:
                continue
            if "/" in key and province_of(key) in self.layout.provinces:
                u, v = self.layout.provinces[province_of(key)]  # a coast: near its province
                out[key] = [round(u, 1), round(v, 1)]
                continue
            x, y = estimate(pairs, provinces[province_of(key)].xy or (0.0, 0.0), fit)
            out[key] = [round(min(max(x, 0.0), width), 1), round(min(max(y, 0.0), height), 1)]
        return out

    def place(self, key: str, x: float, y: float) -> None:
        if key not in self.order:
            raise ValueError(f"'{key}' is not a place of {self.variant.name}")
        width, height = self.layout.size
        if not (0 <= x <= width and 0 <= y <= height):
            raise ValueError(f"[{x}, {y}] is outside the {width}x{height} image")
        with self._lock:
            self.layout.provinces.pop(key, None)  # the newest last: undo takes it back
            self.layout.provinces[key] = (round(float(x), 1), round(float(y), 1))
            save_layout(self.layout, self.target)

    def undo(self) -> str | None:
        """Take back the spot set last (also after a restart); its key."""
        with self._lock:
            if not self.layout.provinces:
                return None
            key = next(reversed(self.layout.provinces))
            del self.layout.provinces[key]
            save_layout(self.layout, self.target)
            return key


def calibration_app(calibration: Calibration, token: str,
                    finish: Callable[[], None] = lambda: None) -> FastAPI:
    """The page and its calls, under ``/<token>/``."""
    app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)
    templates = Jinja2Templates(directory=str(_HERE / "templates"))
    base = f"/{token}"

    @app.middleware("http")
    async def headers(request: Request, call_next: Callable[..., Any]) -> Response:
        response: Response = await call_next(request)
        response.headers["Content-Security-Policy"] = _CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["Cache-Control"] = "no-store"
        return response

    @app.get(base + "/", response_class=HTMLResponse)
    def page(request: Request) -> Response:
        return templates.TemplateResponse(request, "calibrate.html",
                                          {"title": calibration.variant.title,
                                           "size": calibration.layout.size})

    @app.get(base + "/image")
    def image() -> Response:
        return Response(calibration.image, media_type=calibration.info.media_type)

    @app.get(base + "/static/{name}")
    def static(name: str) -> Response:
        if name not in ("calibrate.js", "calibrate.css"):
            raise HTTPException(404)
        return FileResponse(_HERE / "static" / name)

    @app.get(base + "/state")
    def state() -> dict[str, Any]:
        return calibration.state()

    @app.post(base + "/place")
    async def place(request: Request) -> Response:
        try:
            body = await request.json()
            calibration.place(str(body["key"]), float(body["x"]), float(body["y"]))
        except (ValueError, KeyError, TypeError) as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        return JSONResponse(calibration.state())

    @app.post(base + "/undo")
    def undo() -> dict[str, Any]:
        key = calibration.undo()
        return {**calibration.state(), "undone": key}

    @app.post(base + "/finish")
    def done() -> dict[str, Any]:
        finish()
        return {"done": True}

    return app


def serve_calibration(calibration: Calibration, ready: Callable[[str], None]) -> None:
    """Serve the page on 127.0.0.1 at a free port until Finish or Ctrl+C;
    ``ready`` is given the page's address once it can be opened."""
    import uvicorn

    token = secrets.token_urlsafe(16)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    port = sock.getsockname()[1]
    holder: dict[str, uvicorn.Server] = {}

    def finish() -> None:
        holder["server"].should_exit = True

    app = calibration_app(calibration, token, finish)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    holder["server"] = server
    ready(f"http://127.0.0.1:{port}/{token}/")
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
