"""Who is asking: a session's links (HTML) or a bearer token (JSON API).

A browser opens its secret link once (``/join/TOKEN``); the session cookie
then holds the link's id, never the token, and every request checks the
link again, so a revoked link stops working at once. The cookie also names a
session the database knows (by a hash of its id): signing out ends it there,
so a copy of the cookie opens nothing afterwards. The bots' API takes
the token itself as ``Authorization: Bearer TOKEN`` and no cookie, so it
needs no CSRF defence; every HTML form carries the session's CSRF token.
"""

from __future__ import annotations

import secrets

from fastapi import HTTPException, Request

from ..service import PUBLIC, GameService, NotFound, Viewer
from ..service.access import Grant

__all__ = ["api_grant", "api_viewer", "check_csrf", "conflicts", "csrf_token", "forget",
           "grants", "public_base", "remember", "service", "sign_out", "throttle", "viewer"]

MAX_LINKS = 20
"""Links one browser session remembers (a GM of several games, a tester)."""


def service(request: Request) -> GameService:
    return request.app.state.service  # type: ignore[no-any-return]


def public_base(request: Request) -> str:
    """The address players reach: ``--public-url``, else the one this request
    came to; what links and images handed out for posting start with."""
    return request.app.state.public_url or str(request.base_url).rstrip("/")  # type: ignore[no-any-return]


def throttle(request: Request, what: str, game: str, power: str) -> None:
    """Count a check or a post against the seat's rate limit (429 beyond it)."""
    request.app.state.throttle.hit(what, game, power.strip().lower())


def grants(request: Request) -> list[Grant]:
    """The session's live grants; revoked links are forgotten, and so is
    everything of a session the server has ended (signed out)."""
    cached = getattr(request.state, "grants", None)
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    ids = request.session.get("links", [])
    if not isinstance(ids, list):
        ids = []
    if ids and not service(request).session_live(request.session.get("sid")):
        request.session.pop("links", None)
        request.session.pop("sid", None)
        ids = []
    live = []
    for link_id in ids:
        grant = service(request).grant(int(link_id)) if isinstance(link_id, int) else None
        if grant is not None:
            live.append(grant)
    if len(live) != len(ids):
        request.session["links"] = [g.link_id for g in live]
    request.state.grants = live
    return live


def remember(request: Request, grant: Grant) -> None:
    """Sign this browser in with ``grant`` (a new server-side session if it has none)."""
    ids = [g.link_id for g in grants(request) if g.link_id != grant.link_id]
    if not ids:  # a new session: never one whose id another cookie may hold
        service(request).end_session(request.session.get("sid"))
        request.session["sid"] = service(request).open_session()
    request.session["links"] = [*ids, grant.link_id][-MAX_LINKS:]
    request.state.grants = None


def conflicts(request: Request, new: Grant) -> list[Grant]:
    """The session's grants that ``new`` would overrule: the browser is
    somebody else in that game (the server GM's link: somebody else anywhere)."""
    out = []
    for g in grants(request):
        if g.link_id == new.link_id:
            continue
        if new.game is None:
            if g.game is not None and not g.viewer.gm:
                out.append(g)
        elif (v := g.viewer_in(new.game)) is not None and v != new.viewer:
            out.append(g)
    return out


def forget(request: Request, old: list[Grant]) -> None:
    drop = {g.link_id for g in old}
    request.session["links"] = [g.link_id for g in grants(request) if g.link_id not in drop]
    request.state.grants = None


def sign_out(request: Request) -> None:
    """End the session on the server, then in the browser."""
    service(request).end_session(request.session.get("sid"))
    request.session.clear()
    request.state.grants = None


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
