"""The game server: GMs and players run games in the browser; bots use the JSON API.

A thin layer over :class:`lawspeaker.service.GameService`: it turns a
request's session (HTML) or bearer token (JSON) into a
:class:`~lawspeaker.service.Viewer` and calls the service, which makes every
rule and every secrecy decision. All state is in the database (games,
links, sessions), so several workers can serve one database; the
cookie-signing key is kept outside it (:mod:`.security`), so a copy of the
database grants nothing.

``create_app(db)`` builds the application (:mod:`.app`); routes are grouped
by concern: :mod:`.pages` (HTML for GMs and players), :mod:`.api` (JSON for
bots, with OpenAPI at ``/api/docs``), :mod:`.live` (server-sent events).
"""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
