"""The application factory: middleware, error pages, static files, scheduler.

Security decisions made here, once for every route:

- Request bodies over :data:`MAX_BODY` bytes are refused (413) before a
  route reads them; posts of orders have their own limit in the routes.
- Sessions are signed cookies (``itsdangerous`` through Starlette), keyed by
  a secret kept outside the database (:mod:`.security`), so a copy of the
  database forges nothing; HttpOnly, SameSite=Lax, and Secure when served
  over HTTPS. Each names a session the database knows: signing out ends it.
- Every response carries a Content-Security-Policy without inline script,
  ``frame-ancestors 'none'``, ``nosniff`` and, over HTTPS, HSTS. No page is
  cached or sent with a Referer, so a secret link in an address bar never
  travels to another site; the access log redacts ``/join/...``.
- Errors are pages (HTML) or ``{"error": ...}`` (JSON), never a traceback.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import fastapi_offline
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from sqlalchemy.exc import DataError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware.sessions import SessionMiddleware

from ..service import Forbidden, GameService, NotFound, PhaseChanged, ServiceError
from ..service.access import SESSION_DAYS
from ..store import Store, StoreBusy, open_store
from .offers import offered_variant, offered_variants
from .security import PAGE_POLICY, SecurityHeaders, secret_key
from .sizes import MAX_BODY, MAX_POST, MAX_UPLOAD, UPLOAD_SUFFIX
from .throttle import Throttle

__all__ = ["MAX_BODY", "MAX_POST", "RedactLinks", "create_app", "offered_variant"]


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
        limit = MAX_UPLOAD if str(scope.get("path", "")).endswith(UPLOAD_SUFFIX) else self.limit
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await _too_large(scope, send, limit)
            return
        seen = 0

        async def counted() -> Any:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > limit:
                raise _TooLarge
            return message

        try:
            await self.app(scope, counted, send)
        except _TooLarge:
            await _too_large(scope, send, limit)


class _TooLarge(Exception):  # a signal from the byte counter
    pass


async def _too_large(scope: MutableMapping[str, Any], send: Callable[[Any], Awaitable[None]],
                     limit: int = MAX_BODY) -> None:
    body = f'{{"error": "the request is too large (at most {limit // 1024} KiB)"}}'.encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def create_app(db: str | Store | None = None, *, tick: float = 30.0, poll: float = 2.0,
               https: bool = False, public_url: str | None = None,
               key: str | None = None, key_file: str | Path | None = None,
               variants: list[str | Path] | None = None) -> FastAPI:
    """The server on database ``db`` (a path, URL or open store).

    ``tick``: seconds between scheduler runs (0: no scheduler in this
    process); ``poll``: how often live updates look for a new phase;
    ``https``: cookies only over HTTPS, and HSTS (also when ``public_url``
    is https); ``public_url``: the address players reach (for the links
    shown to the GM), else the request's own; ``key``, ``key_file``: the
    cookie-signing key or its file (:func:`.security.secret_key`);
    ``variants``: variant folders the GM named, offered besides the
    bundled ones (no request names a path)."""
    store = db if isinstance(db, Store) else open_store(db)
    service = GameService(store)
    key = secret_key(store, key, key_file)
    https = https or (public_url or "").lower().startswith("https://")
    offered = offered_variants(variants or [])
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
                  version="1", lifespan=lifespan, docs_url=None,
                  redoc_url=None, openapi_url="/api/openapi.json",
                  swagger_ui_oauth2_redirect_url=None)
    app.state.service = service
    app.state.throttle = Throttle()
    app.state.variants = offered
    app.state.poll = poll
    app.state.public_url = public_url.rstrip("/") if public_url else None
    app.state.templates = Jinja2Templates(directory=str(_HERE / "templates"))
    app.state.templates.env.filters["local"] = local_time
    app.add_middleware(SessionMiddleware, secret_key=key, session_cookie="lawspeaker",
                       max_age=60 * 60 * 24 * SESSION_DAYS, same_site="lax", https_only=https)
    app.add_middleware(BodyLimit)
    app.add_middleware(SecurityHeaders, hsts=https)

    _error_handlers(app)

    @app.get("/api/docs", include_in_schema=False)
    def api_docs() -> Response:  # Swagger UI, started by a script file (no inline script)
        return Response(_DOCS, media_type="text/html")

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:  # asked for by browsers on every page, and on JSON and maps
        return FileResponse(_HERE / "static" / "favicon.ico", media_type="image/x-icon",
                            headers={"Cache-Control": "public, max-age=86400"})

    app.mount("/static", StaticFiles(directory=str(_HERE / "static")), name="static")
    app.mount("/api/docs/assets", StaticFiles(directory=str(_SWAGGER)), name="docs-assets")
    from . import api, api_gm, backdrops, live, pages, sandbox

    app.include_router(api.router)
    app.include_router(api_gm.router)
    app.include_router(sandbox.api_router)
    app.include_router(sandbox.page_router)
    app.include_router(live.router)
    app.include_router(backdrops.router)  # before pages: its route is under /gm/
    app.include_router(pages.router)
    return app


_SWAGGER = Path(fastapi_offline.__file__).parent / "static"
"""Swagger UI's files, from the package ``fastapi-offline`` (kept up to date with
Swagger UI 5, which reads FastAPI's OpenAPI 3.1): /api/docs works without internet."""

_DOCS = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>lawspeaker API</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
</head><body><div id="swagger-ui"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/static/api-docs.js"></script></body></html>
"""


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

    @app.exception_handler(DataError)
    @app.exception_handler(OverflowError)
    async def out_of_range(request: Request, exc: Exception) -> Response:
        # The checks before every write should catch these; the database is the last.
        log.warning("refused %s %s: %s", request.method, request.url.path,
                    str(exc).splitlines()[0][:200])
        return error_response(request, 400, "a value in the request is out of range or "
                                            "contains characters that cannot be stored")

    @app.exception_handler(Exception)
    async def crash(request: Request, exc: Exception) -> Response:
        log.exception("error serving %s %s", request.method, request.url.path)
        response = error_response(request, 500, "something went wrong on the server; the "
                                                "error is in its log")
        # Outside the other middleware (Starlette's last resort): the headers here.
        response.headers.update({"Content-Security-Policy": PAGE_POLICY,
                                 "X-Content-Type-Options": "nosniff",
                                 "X-Frame-Options": "DENY", "Cache-Control": "no-store",
                                 "Referrer-Policy": "no-referrer"})
        return response


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
