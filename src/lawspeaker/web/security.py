"""The server's secrets and the headers every response carries.

The cookie-signing key is never kept in the database: a copy of the
database (a backup, a hosting provider's snapshot) must grant nothing. It
comes, in this order, from ``LAWSPEAKER_SECRET_KEY`` (the key itself), from
a key file named by ``--secret-key-file`` / ``LAWSPEAKER_SECRET_KEY_FILE``,
or from a key file beside an SQLite database (``games.db`` keeps its key in
``games.secret-key``, owner-only, created on first start). A server on
PostgreSQL with none of these makes a key for its own run: its workers share
it, and browsers sign in again (by their links) after a restart.
"""

from __future__ import annotations

import logging
import os
import secrets
import stat
import time
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from ..store import Store

__all__ = ["KEY_ENV", "KEY_FILE_ENV", "SecretKeyError", "SecurityHeaders", "key_file_beside",
           "secret_key"]

KEY_ENV = "LAWSPEAKER_SECRET_KEY"
KEY_FILE_ENV = "LAWSPEAKER_SECRET_KEY_FILE"
MIN_KEY = 32
"""The shortest key accepted, in characters (``secrets.token_hex(32)`` makes 64)."""

log = logging.getLogger("lawspeaker.web")


class SecretKeyError(ValueError):
    """The key could not be found or made; the message says what to do."""


def key_file_beside(store: Store) -> Path | None:
    """Where an SQLite database's key lives (``games.db`` -> ``games.secret-key``),
    or None for a database that is not a file (PostgreSQL, in memory)."""
    url = store.engine.url
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    db = Path(url.database)
    return db.with_name(db.stem + ".secret-key")


def secret_key(store: Store, key: str | None = None, key_file: str | Path | None = None
               ) -> str:
    """The cookie-signing key (see the module's text for where it comes from)."""
    key = key or os.environ.get(KEY_ENV) or None
    if key is not None:
        if len(key.strip()) < MIN_KEY:
            raise SecretKeyError(f"the secret key ({KEY_ENV}) must be at least {MIN_KEY} "
                            "characters; make one with: python3 -c 'import secrets; "
                            "print(secrets.token_hex(32))'")
        return key.strip()
    path = key_file or os.environ.get(KEY_FILE_ENV) or key_file_beside(store)
    if path is None:
        log.warning("no %s or %s: sessions are signed with a key made for this run "
                    "(browsers sign in again by their links after a restart)",
                    KEY_ENV, KEY_FILE_ENV)
        return secrets.token_hex(32)
    return read_key_file(Path(path))


def read_key_file(path: Path) -> str:
    """The key in ``path``, made (owner-only, 0600) if the file does not exist."""
    path = path.expanduser()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    except OSError as exc:
        raise SecretKeyError(f"cannot create the secret key file {path}: {exc.strerror}") from None
    else:
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_hex(32) + "\n")
            out.flush()
            os.fsync(out.fileno())
    for _ in range(50):  # another worker may be writing it this very moment
        try:
            mode = path.stat().st_mode
            text = path.read_text().strip()
        except OSError as exc:
            raise SecretKeyError(f"cannot read the secret key file {path}: {exc.strerror}"
                            ) from None
        if text:
            break
        time.sleep(0.02)
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        try:
            path.chmod(0o600)
            log.warning("the secret key file %s was readable by others: made owner-only", path)
        except OSError:
            raise SecretKeyError(f"the secret key file {path} is readable by other users; "
                            f"chmod 600 it") from None
    if len(text) < MIN_KEY:
        raise SecretKeyError(f"the secret key file {path} holds no key of at least {MIN_KEY} "
                        "characters")
    return text


PAGE_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; "
               "img-src 'self' data:; connect-src 'self'; object-src 'none'; "
               "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
"""Pages run only the server's own script files: no inline script or handler."""
SVG_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; frame-ancestors 'none'"
"""A map opened on its own: drawn, never scripted; its only image is the official map
embedded in it as a data URI (docs/maps.md)."""
DOCS_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
               "img-src 'self' data:; object-src 'none'; base-uri 'none'; "
               "frame-ancestors 'none'")
"""``/api/docs``: Swagger UI's files served by the server (``/api/docs/assets/``), started
by our own script file; its styles set inline styles."""


class SecurityHeaders:
    """Headers on every response, errors and static files included; refuses a
    NUL in the address (it can reach no page, and databases refuse it)."""

    def __init__(self, app: Any, hsts: bool = False) -> None:
        self.app, self.hsts = app, hsts

    async def __call__(self, scope: MutableMapping[str, Any],
                       receive: Callable[[], Awaitable[Any]],
                       send: Callable[[Any], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        if "\x00" in path or b"%00" in scope.get("query_string", b"") \
                or b"%00" in (scope.get("raw_path") or b""):
            await self._refuse(send)
            return
        docs = path.startswith("/api/docs")

        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = message.setdefault("headers", [])
                names = {k.lower() for k, _ in headers}
                media = dict(headers).get(b"content-type", b"")
                policy = DOCS_POLICY if docs else SVG_POLICY \
                    if media.startswith(b"image/svg") else PAGE_POLICY
                extra = [(b"content-security-policy", policy.encode()),
                         (b"x-content-type-options", b"nosniff"),
                         (b"x-frame-options", b"DENY"),
                         (b"referrer-policy", b"no-referrer")]
                if not path.startswith("/static/"):
                    extra.append((b"cache-control", b"no-store"))
                if self.hsts:
                    extra.append((b"strict-transport-security", b"max-age=31536000"))
                headers += [(k, v) for k, v in extra if k not in names]
            await send(message)

        await self.app(scope, receive, with_headers)

    async def _refuse(self, send: Callable[[Any], Awaitable[None]]) -> None:
        body = b'{"error": "the address contains a NUL character"}'
        await send({"type": "http.response.start", "status": 400,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()),
                                (b"content-security-policy", PAGE_POLICY.encode()),
                                (b"x-content-type-options", b"nosniff")]})
        await send({"type": "http.response.body", "body": body})
