"""The application factory: middleware, error pages, static files, scheduler.

Security decisions made here, once for every route:

- Request bodies over :data:`MAX_BODY` bytes are refused (413) before a
  route reads them; posts of orders have their own limit in the routes.
- Sessions are signed cookies (``itsdangerous`` through Starlette), keyed by
  a secret kept in the database so every worker shares it; HttpOnly,
  SameSite=Lax, and Secure when served over HTTPS.
- No page is cached or sent with a Referer, so a secret link in an address
  bar never travels to another site; the access log redacts ``/join/...``.
- Errors are pages (HTML) or ``{"error": ...}`` (JSON), never a traceback.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware.sessions import SessionMiddleware

from ..service import Forbidden, GameService, NotFound, PhaseChanged, ServiceError
from ..store import Store, StoreBusy, open_store
from .throttle import Throttle

__all__ = ["MAX_BODY", "MAX_POST", "RedactLinks", "create_app"]

MAX_BODY = 256 * 1024
"""The largest request body accepted, in bytes."""
MAX_POST = 20_000
"""The longest post of orders, in characters (a long S9 post is ~2,000)."""

_HERE = Path(__file__).parent
log = logging.getLogger("lawspeaker.web")


class RedactLinks(logging.Filter):
    """Keeps secret links out of logs: ``/join/TOKEN`` becomes ``/join/…``."""

    _link = re.compile(r"/join/[^\s\"'?&#]+")

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(self._link.sub("/join/…", a) if isinstance(a, str) else a
                                for a in record.args)
        if isinstance(record.msg, str):
            record.msg = self._link.sub("/join/…", record.msg)
        return True


def install_log_filter() -> None:
    for name in ("uvicorn.access", "uvicorn.error", "lawspeaker.web"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactLinks) for f in logger.filters):
            logger.addFilter(RedactLinks())


class BodyLimit:
    """Refuse bodies over ``limit`` bytes, by header or as they stream in."""

    def __init__(self, app: Any, limit: int = MAX_BODY) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: MutableMapping[str, Any], receive: Callable[[], Awaitable[Any]],
                       send: Callable[[Any], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await _too_large(scope, send)
            return
        seen = 0

        async def counted() -> Any:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise _TooLarge
            return message

        try:
            await self.app(scope, counted, send)
        except _TooLarge:
            await _too_large(scope, send)


class _TooLarge(Exception):  # a signal from the byte counter
    pass


async def _too_large(scope: MutableMapping[str, Any], send: Callable[[Any], Awaitable[None]]
                     ) -> None:
    body = b'{"error": "the request is too large (at most 256 KiB)"}'
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def create_app(db: str | Store | None = None, *, tick: float = 30.0, poll: float = 2.0,
               https: bool = False, public_url: str | None = None) -> FastAPI:
    """The server on database ``db`` (a path, URL or open store).

    ``tick``: seconds between scheduler runs (0: no scheduler in this
    process); ``poll``: how often live updates look for a new phase;
    ``https``: cookies only over HTTPS; ``public_url``: the address players
    reach (for the links shown to the GM), else the request's own."""
    store = db if isinstance(db, Store) else open_store(db)
    service = GameService(store)
    key = service.setting("session_key", lambda: secrets.token_hex(32))
    install_log_filter()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        task = asyncio.create_task(_scheduler(service, tick)) if tick > 0 else None
        try:
            yield
        finally:
            if task is not None:
                task.cancel()

    app = FastAPI(title="lawspeaker", summary="Diplomacy variants game server",
                  description="The JSON API takes `Authorization: Bearer TOKEN`, where TOKEN "
                              "is the last part of a secret link (`/join/TOKEN`).",
                  version="1", lifespan=lifespan, docs_url="/api/docs",
                  redoc_url=None, openapi_url="/api/openapi.json",
                  swagger_ui_oauth2_redirect_url=None)
    app.state.service = service
    app.state.throttle = Throttle()
    app.state.poll = poll
    app.state.public_url = public_url.rstrip("/") if public_url else None
    app.state.templates = Jinja2Templates(directory=str(_HERE / "templates"))
    app.state.templates.env.filters["local"] = local_time
    app.add_middleware(SessionMiddleware, secret_key=key, session_cookie="lawspeaker",
                       max_age=60 * 60 * 24 * 60, same_site="lax", https_only=https)
    app.add_middleware(BodyLimit)

    @app.middleware("http")
    async def headers(request: Request, call_next: Any) -> Response:
        response = await call_next(request)
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        if not request.url.path.startswith("/static/"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    _error_handlers(app)
    app.mount("/static", StaticFiles(directory=str(_HERE / "static")), name="static")
    from . import api, api_gm, live, pages

    app.include_router(api.router)
    app.include_router(api_gm.router)
    app.include_router(live.router)
    app.include_router(pages.router)
    return app


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/") or \
        "application/json" in request.headers.get("accept", "")


def error_response(request: Request, status: int, message: str) -> Response:
    if _wants_json(request):
        return JSONResponse({"error": message}, status_code=status)
    from .pages import render

    return render(request, "error.html", {"status": status, "message": message},
                  status=status)


def _error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ServiceError)
    async def service_error(request: Request, exc: ServiceError) -> Response:
        status = 404 if isinstance(exc, NotFound) else 403 if isinstance(exc, Forbidden) \
            else 409 if isinstance(exc, PhaseChanged) else 400
        return error_response(request, status, str(exc))

    @app.exception_handler(StoreBusy)
    async def busy(request: Request, exc: StoreBusy) -> Response:
        response = error_response(request, 503, f"the server is too busy right now: {exc}")
        response.headers["Retry-After"] = "5"
        return response

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        message = exc.detail if isinstance(exc.detail, str) else "bad request"
        if exc.status_code == 404 and message == "Not Found":
            message = "there is no such page"
        response = error_response(request, exc.status_code, message)
        response.headers.update(exc.headers or {})
        return response

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        parts = []
        for err in exc.errors()[:5]:
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
            parts.append(f"{where}: {err.get('msg', 'invalid')}")
        return error_response(request, 422, "; ".join(parts) or "invalid request")

    @app.exception_handler(Exception)
    async def crash(request: Request, exc: Exception) -> Response:
        log.exception("error serving %s %s", request.method, request.url.path)
        return error_response(request, 500, "something went wrong on the server; the error "
                                            "is in its log")


async def _scheduler(service: GameService, tick: float) -> None:
    """Process games whose deadline passed; every worker runs one (it is safe)."""
    while True:
        await asyncio.sleep(tick)
        try:
            await run_in_threadpool(service.process_due)
        except Exception:  # the database may be briefly unreachable: try next tick
            log.exception("scheduler tick failed")


def local_time(at: datetime, zone: str | None) -> str:
    """A stored time (naive UTC) as the game's players read it: in the game's
    time zone, named (``24 Nov 18:05 Europe/Berlin``)."""
    name = zone or "UTC"
    try:
        tz = ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        tz, name = ZoneInfo("UTC"), "UTC"
    return at.replace(tzinfo=UTC).astimezone(tz).strftime("%d %b %H:%M ") + name
