"""Who is asking: a session's links (HTML) or a bearer token (JSON API).

A browser opens its secret link once (``/join/TOKEN``); the session cookie
then holds the link's id, never the token, and every request checks the
link again, so a revoked link stops working at once. The bots' API takes
the token itself as ``Authorization: Bearer TOKEN`` and no cookie, so it
needs no CSRF defence; every HTML form carries the session's CSRF token.
"""

from __future__ import annotations

import secrets

from fastapi import HTTPException, Request

from ..service import PUBLIC, GameService, NotFound, Viewer
from ..service.access import Grant

__all__ = ["api_grant", "api_viewer", "check_csrf", "csrf_token", "grants", "remember",
           "service", "throttle", "viewer"]

MAX_LINKS = 20
"""Links one browser session remembers (a GM of several games, a tester)."""


def service(request: Request) -> GameService:
    return request.app.state.service  # type: ignore[no-any-return]


def throttle(request: Request, what: str, game: str, power: str) -> None:
    """Count a check or a post against the seat's rate limit (429 beyond it)."""
    request.app.state.throttle.hit(what, game, power.strip().lower())


def grants(request: Request) -> list[Grant]:
    """The session's live grants; revoked links are forgotten."""
    ids = request.session.get("links", [])
    live = []
    for link_id in ids if isinstance(ids, list) else []:
        grant = service(request).grant(int(link_id))
        if grant is not None:
            live.append(grant)
    if len(live) != len(ids):
        request.session["links"] = [g.link_id for g in live]
    return live


def remember(request: Request, grant: Grant) -> None:
    ids = [i for i in request.session.get("links", []) if i != grant.link_id]
    request.session["links"] = [*ids, grant.link_id][-MAX_LINKS:]


def viewer(request: Request, game: str) -> Viewer:
    """The session's viewer in ``game``: GM over a power, the latest power link."""
    found = [v for g in grants(request) if (v := g.viewer_in(game)) is not None]
    if any(v.gm for v in found):
        return next(v for v in found if v.gm)
    return found[-1] if found else PUBLIC


def server_gm(request: Request) -> bool:
    return any(g.game is None for g in grants(request))


def csrf_token(request: Request) -> str:
    token = request.session.get("csrf")
    if not isinstance(token, str) or len(token) < 20:
        token = secrets.token_urlsafe(24)
        request.session["csrf"] = token
    return token


def check_csrf(request: Request, sent: str | None) -> None:
    """Every form post must carry the session's token (or send it as a header)."""
    sent = sent or request.headers.get("x-csrf-token")
    expected = request.session.get("csrf")
    if not sent or not isinstance(expected, str) or not secrets.compare_digest(
            sent.encode(), expected.encode()):
        raise HTTPException(403, "this form has expired or did not come from this site; "
                                 "reload the page and try again")


def api_grant(request: Request) -> Grant | None:
    header = request.headers.get("authorization", "")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise HTTPException(401, "send the token of your secret link as "
                                 "'Authorization: Bearer TOKEN'")
    try:
        return service(request).redeem(token.strip())
    except NotFound:
        raise HTTPException(401, "this token is not valid (revoked or mistyped)") from None


def api_viewer(request: Request, game: str) -> Viewer:
    grant = api_grant(request)
    if grant is None:
        return PUBLIC
    return grant.viewer_in(game) or PUBLIC
