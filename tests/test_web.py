"""The game server's security properties, over every endpoint and every role.

Roles: the server's GM, game A's GM, each of A's three powers, B's Aesir (a
player of another game) and an anonymous visitor. The bar is zero leaks: no
one sees another power's orders before adjudication, nor anyone's DP
allocations (GM aside), on any path (HTML, JSON, maps, live updates); no one
acts for another power or another game.
"""

from __future__ import annotations

import json
import logging
import threading

import pytest
from fastapi.routing import APIRoute
from starlette.routing import Route
from web_fixtures import POWERS, World

from lawspeaker.service import GM, PUBLIC, processing
from lawspeaker.service.actions import ACTIONS
from lawspeaker.web.app import RedactLinks

GMS = ("server-gm", "gm")
ROLES = ("server-gm", "gm", *POWERS, "B.Aesir", "anonymous")
GM_ACTIONS = tuple(ACTIONS)  # every action of the service's table has its form
GM_API = (("post", "/api/v1/games/{g}/process", None),
          ("get", "/api/v1/games/{g}/links", None),
          ("post", "/api/v1/games/{g}/links", {"seat": "Aesir", "player": "mallory"}),
          ("delete", "/api/v1/games/{g}/links/Aesir", None),
          ("put", "/api/v1/games/{g}/players/Aesir", {"player": "mallory"}),
          ("put", "/api/v1/games/{g}/bots/Aesir", {"bot": "hold"}),
          ("put", "/api/v1/games/{g}/schedule", {"phase_minutes": 60, "grace_minutes": 5,
                                                 "timezone": "Europe/Berlin"}),
          ("post", "/api/v1/games/{g}/pause", None), ("post", "/api/v1/games/{g}/resume", None),
          ("post", "/api/v1/games/{g}/extend", {"minutes": 60}),
          ("post", "/api/v1/games/{g}/undo", {"to": "1"}),
          ("post", "/api/v1/games/{g}/powers/Aesir/eliminate", None),
          ("post", "/api/v1/games/{g}/powers/Aesir/remove-exile", None),
          ("put", "/api/v1/games/{g}/rules/multiple_orders", {"value": "void"}),
          ("put", "/api/v1/games/{g}/draw-rule", {"rule": "majority"}),
          ("post", "/api/v1/games/{g}/reveal-dp", None),
          ("post", "/api/v1/games/{g}/publish", {"phase": "S1M"}),
          ("post", "/api/v1/games/{g}/discard", {"phase": "S1M"}),
          ("get", "/api/v1/games/{g}/preview", None),
          ("get", "/api/v1/games/{g}/posts", None),
          ("get", "/api/v1/games/{g}/results?gm=true&fmt=markdown", None))
"""Every GM route of the API: (method, path, body)."""


def may_see(role: str, power: str) -> bool:
    return role in GMS or role == power


def api_headers(w: World, role: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {w.tokens[role]}"} if role in w.tokens else {}


def reads(w: World) -> list[tuple[str, str, bool]]:
    """(path, kind, api) of every GET, for game A; a power's own paths for each power."""
    out = [("/", "html", False), ("/games/A", "html", False),
           ("/games/A/map.svg?orders=true", "map", False), ("/games/A/export", "text", False),
           ("/games/A/phases/1", "html", False), ("/api/v1/me", "json", True),
           ("/api/v1/games", "json", True), ("/api/v1/games/A", "json", True),
           ("/api/v1/games/A/results", "json", True), ("/api/v1/games/A/history", "json", True),
           ("/api/v1/games/A/explain", "json", True),
           ("/api/v1/games/A/map.svg?orders=true", "map", True),
           ("/api/v1/games/A/posts", "json", True)]
    for p in POWERS:
        out += [(f"/api/v1/games/A/powers/{p}/orders", "json", True),
                (f"/api/v1/games/A/powers/{p}/posts", "json", True),
                (f"/api/v1/games/A/powers/{p}/options", "json", True)]
    return out


def fetch(w: World, role: str, path: str, api: bool):
    if api:
        return w.clients["anonymous"].get(path, headers=api_headers(w, role))
    return w.clients[role].get(path)


def assert_no_leak(w: World, role: str, text: str, where: str, dp_only: bool = False) -> None:
    for power, (order, allocation) in w.secrets.items():
        if may_see(role, power):
            continue
        assert allocation not in text, f"{role} sees {power}'s DP at {where}"
        if not dp_only:
            assert order not in text, f"{role} sees {power}'s order at {where}"


def test_every_endpoint_is_in_the_matrix(world: World) -> None:
    """A new route must be added to these tests, or this fails."""
    routes = set()

    def walk(items: list) -> None:
        for r in items:
            if hasattr(r, "original_router"):  # FastAPI's wrapper of an included router
                walk(r.original_router.routes)
            elif isinstance(r, APIRoute | Route) and not r.path.startswith(("/api/docs",
                                                                             "/api/openapi")):
                routes.update((m, r.path) for m in r.methods - {"HEAD"})

    walk(world.app.routes)
    assert len(routes) > 20
    covered = {("GET", "/"), ("GET", "/join/{token}"), ("POST", "/join/{token}"),
               ("POST", "/logout"), ("POST", "/games"),
               ("GET", "/games/{name}"), ("GET", "/games/{name}/phases/{phase}"),
               ("GET", "/games/{name}/map.svg"), ("GET", "/games/{name}/export"),
               ("GET", "/games/{name}/map.png"),  # tests/test_web_png.py
               ("GET", "/api/v1/games/{name}/map.png"),
               ("POST", "/games/{name}/orders"), ("POST", "/games/{name}/check"),
               ("POST", "/games/{name}/ready"), ("POST", "/games/{name}/vote"),
               ("POST", "/games/{name}/gm/{action}"), ("GET", "/games/{name}/events"),
               ("POST", "/games/{name}/gm/backdrop"),  # tests/test_web_backdrop.py
               ("GET", "/api/v1/games/{name}/events"), ("GET", "/api/v1/me"),
               ("GET", "/api/v1/games"), ("GET", "/api/v1/games/{name}"),
               ("GET", "/api/v1/games/{name}/powers/{power}/orders"),
               ("POST", "/api/v1/games/{name}/powers/{power}/orders"),
               ("POST", "/api/v1/games/{name}/powers/{power}/check"),
               ("GET", "/api/v1/games/{name}/powers/{power}/options"),
               ("POST", "/api/v1/games/{name}/powers/{power}/ready"),
               ("POST", "/api/v1/games/{name}/powers/{power}/draw"),
               ("POST", "/api/v1/games/{name}/process"), ("GET", "/api/v1/games/{name}/results"),
               ("GET", "/api/v1/games/{name}/history"), ("GET", "/api/v1/games/{name}/map.svg"),
               ("GET", "/api/v1/games/{name}/powers/{power}/posts"),
               ("GET", "/api/v1/games/{name}/posts"), ("POST", "/api/v1/games"),
               ("GET", "/api/v1/games/{name}/links"), ("POST", "/api/v1/games/{name}/links"),
               ("DELETE", "/api/v1/games/{name}/links/{seat}"),
               ("PUT", "/api/v1/games/{name}/players/{power}"),
               ("PUT", "/api/v1/games/{name}/bots/{power}"),
               ("PUT", "/api/v1/games/{name}/schedule"), ("POST", "/api/v1/games/{name}/pause"),
               ("POST", "/api/v1/games/{name}/resume"), ("POST", "/api/v1/games/{name}/extend"),
               ("POST", "/api/v1/games/{name}/undo"),
               ("POST", "/api/v1/games/{name}/powers/{power}/eliminate"),
               ("POST", "/api/v1/games/{name}/powers/{power}/remove-exile"),
               ("PUT", "/api/v1/games/{name}/rules/{key}"),
               ("PUT", "/api/v1/games/{name}/draw-rule"),
               ("POST", "/api/v1/games/{name}/reveal-dp"),
               ("POST", "/api/v1/games/{name}/publish"), ("POST", "/api/v1/games/{name}/discard"),
               ("GET", "/api/v1/games/{name}/preview"),
               # tests/test_review.py
               ("GET", "/games/{name}/preview/map.svg"), ("GET", "/games/{name}/preview/map.png"),
               # tests/test_sandbox.py
               ("GET", "/games/{name}/sandbox"), ("POST", "/games/{name}/sandbox"),
               ("POST", "/api/v1/games/{name}/sandbox"),
               ("GET", "/api/v1/games/{name}/explain"),
               ("GET", "/favicon.ico")}  # tests/test_trial_web.py
    gm_api = {(m.upper(), path.split("?")[0].replace("{g}", "{name}").replace("Aesir", "{power}")
               .replace("multiple_orders", "{key}")) for m, path, _ in GM_API}
    gm_api = {(m, p.replace("links/{power}", "links/{seat}")) for m, p in gm_api}
    assert gm_api <= covered and len(gm_api) == len(GM_API)
    assert routes == covered


@pytest.mark.parametrize("role", ROLES)
def test_no_one_reads_another_powers_orders_or_dp(world: World, role: str) -> None:
    for path, _kind, api in reads(world):
        r = fetch(world, role, path, api)
        assert r.status_code < 500, (path, r.text[:300])
        if "/powers/" in path:
            power = path.split("/")[6]
            assert (r.status_code == 200) == may_see(role, power), (role, path, r.status_code)
        if path.endswith("/A/posts"):
            assert (r.status_code == 200) == (role in GMS), (role, path, r.status_code)
        assert_no_leak(world, role, r.text, path)
    # The GM sees everything: proof that the strings looked for are really there.
    if role in GMS:
        page = world.clients[role].get("/games/A").text
        for order, allocation in world.secrets.values():
            assert order in page and allocation in page
    elif role in POWERS:
        page = world.clients[role].get("/games/A").text
        assert all(s in page for s in world.secrets[role])


def test_after_processing_orders_are_public_and_dp_still_secret(world: World) -> None:
    world.service.process("A", actor=GM)
    for role in ROLES:
        for path, _kind, api in reads(world):
            r = fetch(world, role, path.replace("/phases/1", "/phases/S400M"), api)
            assert r.status_code < 500, (path, r.text[:300])
            assert_no_leak(world, role, r.text, path, dp_only=True)
        gm_post = world.clients[role].get("/games/A/export?gm=true")
        assert (gm_post.status_code == 200) == (role in GMS)
    public = world.clients["anonymous"].get("/games/A/export").text
    assert world.secrets["Aesir"][0].split(" - ")[0] in public  # the order is public now


def test_maps_show_a_player_no_one_elses_orders(world: World) -> None:
    before = {role: fetch(world, role, "/games/A/map.svg?orders=true", False).text
              for role in ROLES}
    api_before = {role: fetch(world, role, "/api/v1/games/A/map.svg?orders=true", True).text
                  for role in ROLES}
    from lawspeaker.service import Viewer

    moves = [o for o in world.service.unit_options("A", "Jotnar", actor=GM)[0].orders
             if " - " in o and " S " not in o]
    report = world.service.submit("A", "Jotnar", moves[1], actor=Viewer.of("Jotnar"))
    assert report.ok
    for role in ROLES:
        after = fetch(world, role, "/games/A/map.svg?orders=true", False).text
        api_after = fetch(world, role, "/api/v1/games/A/map.svg?orders=true", True).text
        changed = may_see(role, "Jotnar")
        assert (after != before[role]) == changed, role
        assert (api_after != api_before[role]) == changed, role


def _state(w: World) -> tuple:
    svc = w.service
    return (svc.submissions("A", "Aesir", actor=GM), svc.ready("A", actor=PUBLIC),
            svc.draw_tally("A", actor=PUBLIC),
            svc.game("A", actor=PUBLIC).phase_code, svc.schedule("A", actor=PUBLIC),
            svc.linked_seats("A", actor=GM), svc.game("A", actor=PUBLIC).rules,
            svc.game("A", actor=PUBLIC).players, len(svc.history("A", actor=PUBLIC)),
            svc.position("A", actor=PUBLIC), len(svc.list_games()))


@pytest.mark.parametrize("role", ROLES)
def test_no_one_acts_for_another_power_or_game(world: World, role: str) -> None:
    allowed = may_see(role, "Aesir")
    csrf = world.csrf(role)
    client = world.clients[role]
    html = [("/games/A/orders", {"power": "Aesir", "text": "F Asgard H"}),
            ("/games/A/check", {"power": "Aesir", "text": "F Asgard H"}),
            ("/games/A/ready", {"power": "Aesir", "ready": "yes"}),
            ("/games/A/vote", {"power": "Aesir", "draw": "no"})]
    api = [("/api/v1/games/A/powers/Aesir/orders", {"text": "F Asgard H"}),
           ("/api/v1/games/A/powers/Aesir/check", {"text": "F Asgard H"}),
           ("/api/v1/games/A/powers/Aesir/ready", {"value": True}),
           ("/api/v1/games/A/powers/Aesir/draw", {"value": False})]
    for path, data in html:
        before = _state(world)
        r = client.post(path, data={"csrf": csrf, **data}, follow_redirects=False)
        if allowed and (role == "Aesir" or not path.endswith("/vote")):  # a ballot: its voter
            assert r.status_code in (200, 303), (path, r.text[:300])
        else:
            assert r.status_code == 403, (role, path, r.status_code)
            assert _state(world) == before
            assert_no_leak(world, role, r.text, path)
    for path, data in api:
        before = _state(world)
        r = world.clients["anonymous"].post(path, json=data, headers=api_headers(world, role))
        if allowed and (role == "Aesir" or not path.endswith("/draw")):
            assert r.status_code == 200, (path, r.text[:300])
        else:
            assert r.status_code == 403, (role, path, r.status_code)
            assert r.json()["error"]
            assert _state(world) == before


@pytest.mark.parametrize("role", ROLES)
def test_only_a_gm_of_the_game_runs_it(world: World, role: str) -> None:
    csrf = world.csrf(role)
    client = world.clients[role]
    for action in GM_ACTIONS:
        before = _state(world)
        r = client.post(f"/games/A/gm/{action}", data={"csrf": csrf, "power": "Aesir",
                                                       "minutes": "1h", "rule": "majority"},
                        follow_redirects=False)
        if role in GMS:
            assert r.status_code in (200, 303, 400), (action, r.status_code, r.text[:300])
        else:
            assert r.status_code == 403, (role, action, r.status_code)
            assert _state(world) == before
    for method, path, body in GM_API:
        before = _state(world)
        r = world.clients["anonymous"].request(method, path.format(g="A"), json=body,
                                               headers=api_headers(world, role))
        if role in GMS:
            # 409: publish or discard with no preview waiting (nothing to do)
            assert r.status_code in (200, 400, 409), (method, path, r.status_code,
                                                      r.text[:300])
            assert ("error" in r.json()) == (r.status_code != 200)
        else:
            assert r.status_code == 403, (role, method, path, r.status_code)
            assert r.json()["error"] and _state(world) == before
            assert_no_leak(world, role, r.text, path)
    r = client.post("/games", data={"csrf": csrf, "variant": "standard", "name": f"N-{role}"},
                    follow_redirects=False)
    assert r.status_code == (303 if role == "server-gm" else 403)
    before = len(world.service.list_games())
    r = world.clients["anonymous"].post("/api/v1/games", headers=api_headers(world, role),
                                        json={"variant": "standard", "name": f"J-{role}"})
    assert r.status_code == (200 if role == "server-gm" else 403), (role, r.text[:300])
    assert len(world.service.list_games()) == before + (role == "server-gm")


def test_a_game_gm_link_gives_nothing_in_another_game(world: World) -> None:
    csrf = world.csrf("gm")
    r = world.clients["gm"].post("/games/B/gm/process", data={"csrf": csrf})
    assert r.status_code == 403
    svc = world.service
    for method, path, body in GM_API:
        before = (svc.game("B", actor=PUBLIC), svc.schedule("B", actor=PUBLIC),
                  svc.linked_seats("B", actor=GM), len(svc.history("B", actor=PUBLIC)))
        r = world.clients["anonymous"].request(method, path.format(g="B"), json=body,
                                               headers=api_headers(world, "gm"))
        assert r.status_code == 403, (method, path, r.status_code)
        assert (svc.game("B", actor=PUBLIC), svc.schedule("B", actor=PUBLIC), svc.linked_seats("B",
                                                                                               actor=GM),
                len(svc.history("B", actor=PUBLIC))) == before
    r = world.clients["anonymous"].get("/api/v1/games/B/powers/Aesir/posts",
                                       headers=api_headers(world, "gm"))
    assert r.status_code == 403
    r = world.clients["gm"].get("/api/v1/games/B/powers/Aesir/orders",
                                headers=api_headers(world, "gm"))
    assert r.status_code == 403


def test_a_revoked_link_stops_working_at_once(world: World) -> None:
    client = world.clients["Aesir"]
    assert "Your orders: Aesir" in client.get("/games/A").text
    world.service.issue_link("A", "Aesir", actor=GM)  # the GM replaces the player
    page = client.get("/games/A").text
    assert "Your orders" not in page and "a spectator" in page
    assert world.clients["anonymous"].get(f"/join/{world.tokens['Aesir']}").status_code == 404
    r = world.clients["anonymous"].get("/api/v1/me", headers=api_headers(world, "Aesir"))
    assert r.status_code == 401


def test_every_form_post_needs_the_csrf_token(world: World) -> None:
    client = world.clients["gm"]
    posts = ["/logout", "/games", "/games/A/orders", "/games/A/check", "/games/A/ready",
             "/games/A/vote", "/games/A/sandbox"] + [f"/games/A/gm/{a}" for a in GM_ACTIONS]
    before = _state(world)
    for path in posts:
        for token in (None, "forged-token-000000000000"):
            data = {"power": "Aesir", "text": "F Asgard H", "variant": "standard",
                    "name": "X", "draw": "yes", "ready": "yes"}
            if token:
                data["csrf"] = token
            r = client.post(path, data=data, follow_redirects=False)
            assert r.status_code == 403, (path, r.status_code)
            assert "expired or did not come from this site" in r.text
    assert _state(world) == before
    # htmx sends the token as a header: that is accepted.
    r = client.post("/games/A/check", data={"power": "Aesir", "text": "F Asgard H"},
                    headers={"X-CSRF-Token": world.csrf("gm")})
    assert r.status_code == 200 and "F Asgard H" in r.text


def test_size_limits(world: World) -> None:
    csrf = world.csrf("Aesir")
    client = world.clients["Aesir"]
    r = client.post("/games/A/orders", data={"csrf": csrf, "power": "Aesir",
                                             "text": "F Asgard H\n" * 3000})
    assert r.status_code == 413 and "at most 20000 characters" in r.text
    r = client.post("/games/A/orders", content=b"x" * (300 * 1024),
                    headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 413
    r = world.clients["anonymous"].post("/api/v1/games/A/powers/Aesir/orders",
                                        json={"text": "F Asgard H\n" * 3000},
                                        headers=api_headers(world, "Aesir"))
    assert r.status_code == 422 and "text" in r.json()["error"]
    assert world.service.submissions("A", "Aesir", actor=GM).orders[0] == world.secrets["Aesir"][0]


def test_errors_are_pages_or_json_never_tracebacks(world: World) -> None:
    r = world.clients["anonymous"].get("/games/Nope")
    assert r.status_code == 404 and "no game named &#39;Nope&#39;" in r.text and "<html" in r.text
    r = world.clients["anonymous"].get("/api/v1/games/Nope")
    assert r.status_code == 404 and r.json() == {"error": "no game named 'Nope'"}
    r = world.clients["anonymous"].get("/api/v1/me", headers={"Authorization": "Basic x"})
    assert r.status_code == 401 and "Bearer" in r.json()["error"]
    r = world.clients["anonymous"].get("/no/such/page")
    assert r.status_code == 404 and "Traceback" not in r.text


def test_processing_is_atomic_on_the_server_path(world: World, monkeypatch) -> None:
    """A failure after adjudication, inside the transaction, leaves the phase as it was."""
    svc = world.service

    def broken(*_a: object) -> None:
        raise RuntimeError("power cut")

    monkeypatch.setattr(processing, "restart_deadline", broken)
    before = _state(world)
    client = world.clients["gm"]
    with pytest.raises(RuntimeError):  # the TestClient re-raises what the error page hid
        client.post("/games/A/gm/process", data={"csrf": world.csrf("gm")})
    assert _state(world) == before
    assert svc.submissions("A", "Dokkalfar",
                           actor=GM).allocations == (world.secrets["Dokkalfar"][1],)
    monkeypatch.undo()
    from fastapi.testclient import TestClient

    quiet = TestClient(world.app, raise_server_exceptions=False)
    monkeypatch.setattr(processing, "restart_deadline", broken)
    r = quiet.post("/api/v1/games/A/process", headers=api_headers(world, "gm"))
    assert r.status_code == 500 and "Traceback" not in r.text and r.json()["error"]


def test_secret_links_never_reach_the_log() -> None:
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1,
                               '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:1", "GET", "/join/SeCrEt-ToKeN?x=1", "1.1", 303),
                               None)
    RedactLinks().filter(record)
    assert "SeCrEt" not in record.getMessage() and "/join/…" in record.getMessage()


def test_live_updates_announce_a_processed_phase(world: World, monkeypatch) -> None:
    """A page's event stream, open while the GM processes, announces the phase
    that opened: its label and the game's result, as ``progress`` has them."""
    from lawspeaker.web import live

    monkeypatch.setattr(live, "MAX_STREAM", 10.0)  # the longest a stream stays open
    before = world.service.progress("A", actor=PUBLIC)
    got: list[str] = []
    failed: list[BaseException] = []
    opened = threading.Event()

    def listen() -> None:
        try:
            with world.clients["Aesir"].stream("GET", "/games/A/events") as r:
                assert r.status_code == 200, r.status_code
                for line in r.iter_lines():
                    got.append(line)
                    if line.startswith("retry:"):  # the stream's first line: it has read
                        opened.set()               # the phase it compares against
                    if line.startswith("data:"):
                        return
        except BaseException as exc:  # reported by the test, not lost in the thread
            failed.append(exc)

    t = threading.Thread(target=listen, daemon=True)
    t.start()
    assert opened.wait(10), f"the event stream did not open within 10 s: {got} {failed}"
    world.service.process("A", actor=GM)
    t.join(15)
    assert not t.is_alive() and not failed, (got, failed)
    after = world.service.progress("A", actor=PUBLIC)
    assert after[0] != before[0] and after[1] == world.service.game("A", actor=PUBLIC).phase
    assert (before[1].split()[0], after[1].split()[0], after[2]) == ("Spring", "Autumn", None)
    assert "event: phase" in got, got
    data = got[got.index("event: phase") + 1]
    assert data.startswith("data: "), got
    assert json.loads(data.removeprefix("data: ")) == {"phase": after[1], "result": None}
    assert_no_leak(world, "anonymous", "\n".join(got), "events", dp_only=True)
