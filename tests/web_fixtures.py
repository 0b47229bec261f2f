"""A server with two games and a browser session per role, for the web tests.

Game "A" (S9 Complete) has three players who each sent a secret order and a
secret DP allocation; game "B" has its own Aesir. Each role is a TestClient
signed in through its secret link, as a person's browser would be.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from fastapi.testclient import TestClient

from lawspeaker.service import GM, PUBLIC, GameService, Viewer
from lawspeaker.store import open_store
from lawspeaker.web import create_app

POWERS = ("Aesir", "Dokkalfar", "Jotnar")


@dataclass
class World:
    app: object
    service: GameService
    clients: dict[str, TestClient]
    tokens: dict[str, str]
    secrets: dict[str, list[str]] = field(default_factory=dict)
    """Per power of game A: the strings that must not leak (its order, its DP)."""

    def csrf(self, role: str) -> str:
        client = self.clients[role]
        page = client.get("/").text
        return re.search(r'name="csrf" value="([^"]+)"', page).group(1) if \
            'name="csrf"' in page else re.search(r'X-CSRF-Token": "([^"]+)"', page).group(1)


def build(url: str) -> World:
    store = open_store(url)
    app = create_app(store, tick=0, poll=0.05)
    svc: GameService = app.state.service
    svc.create_game("s9-complete", "A", actor=GM)
    svc.create_game("s9-complete", "B", actor=GM)
    tokens = {"server-gm": svc.issue_link(None, actor=GM), "gm": svc.issue_link("A", "gm",
                                                                                actor=GM),
              "B.Aesir": svc.issue_link("B", "Aesir", actor=GM)}
    for p in POWERS:
        tokens[p] = svc.issue_link("A", p, actor=GM)
    variant = svc.variant_of("A", actor=PUBLIC)
    position = svc.position("A", actor=PUBLIC)
    neutral = [u for u in position.units.values() if u.power not in variant.powers]
    # Markers must be unique to the secret: not in any template's examples.
    public = "".join(svc.template("A", p, actor=GM) for p in variant.powers)
    spare = [f"2 DP to {u.type.value} {variant.map.name_of(u.location)} H" for u in neutral]
    spare = [dp for dp in spare if dp not in public]
    secrets: dict[str, list[str]] = {}
    for i, p in enumerate(POWERS):
        move = next(o for o in svc.unit_options("A", p, actor=GM)[0].orders if " - " in o)
        dp = spare[i]
        report = svc.submit("A", p, f"{move}\n{dp}\n", actor=Viewer.of(p))
        assert report.ok, report.lines
        secrets[p] = [report.orders[0], report.allocations[0]]
    svc.submit("B", "Aesir", "F Asgard - Himinbjorg\n", actor=Viewer.of("Aesir"))
    clients = {}
    for role in ("anonymous", *tokens):
        client = TestClient(app, base_url="http://testserver")
        if role in tokens:
            r = client.get(f"/join/{tokens[role]}", follow_redirects=False)
            assert r.status_code == 303, r.text
        clients[role] = client
    return World(app, svc, clients, tokens, secrets)


def sqlite_world(tmp_path: Path) -> World:
    return build(f"sqlite:///{tmp_path / 'web.db'}")
