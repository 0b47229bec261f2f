"""Bad input, house rules, ballots, the public history and DP reveals.

Every refused request is a 4xx with a message, never a 500, and changes
nothing; every JSON model and form field that takes a number or a name is
tried with huge numbers, inf and nan, NUL, control and bidi characters, on
SQLite and PostgreSQL (which refuses NUL and 64-bit overflows itself).
"""

from __future__ import annotations

import json

import pytest
from web_fixtures import World

from lawspeaker.service import GM, PUBLIC, GameService, Viewer

NASTY_NAMES = ["al\x00ice", "al\u202eecila", "al\x07ice", "al\u2066ice", "two\nlines",
               "\ud800", "x" * 300]
"""Names that must never be stored (NUL, bidi, controls, a lone surrogate, too long)."""


def bearer(w: World, role: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {w.tokens[role]}"}


def send(client, method: str, path: str, headers: dict[str, str], body: object):  # type: ignore[no-untyped-def]
    """JSON as any client may send it: ASCII, with escapes (lone surrogates too)."""
    return client.request(method, path, content=json.dumps(body).encode(),
                          headers={**headers, "content-type": "application/json"})


def form_safe(text: str) -> bool:
    return not any(0xD800 <= ord(c) <= 0xDFFF for c in text)


def state(w: World) -> tuple:
    svc = w.service
    return (tuple(g.name for g in svc.list_games()), svc.game("A", actor=PUBLIC).players,
            svc.game("A", actor=PUBLIC).rules, svc.schedule("A", actor=PUBLIC),
            svc.submissions("A", "Aesir", actor=GM),
            len(svc.posts("A", None, actor=GM)), svc.draw_tally("A", actor=PUBLIC))


def refused(r, *words: str) -> str:  # type: ignore[no-untyped-def]
    assert 400 <= r.status_code < 500, (r.status_code, r.text[:300])
    message = r.json()["error"] if r.headers["content-type"].startswith(
        "application/json") else r.text
    assert message
    for word in words:
        assert word in message, (word, message[:300])
    return message


# --- names ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NASTY_NAMES)
def test_bad_player_and_game_names_are_refused_everywhere(world: World, name: str) -> None:
    api = world.clients["anonymous"]
    gm, server = bearer(world, "gm"), bearer(world, "server-gm")
    before = state(world)
    calls = [
        ("put", "/api/v1/games/A/players/Aesir", gm, {"player": name}),
        ("post", "/api/v1/games/A/links", gm, {"seat": "Aesir", "player": name}),
        ("post", "/api/v1/games", server, {"variant": "standard", "name": name}),
        ("post", "/api/v1/games", server, {"variant": "standard", "name": "Fine",
                                           "players": {"England": name}}),
    ]
    for method, path, headers, body in calls:
        r = send(api, method, path, headers, body)
        refused(r)
        assert state(world) == before, path
    if not form_safe(name):
        return
    r = world.clients["gm"].post("/games/A/gm/link", data={
        "csrf": world.csrf("gm"), "seat": "Aesir", "player": name})
    refused(r)
    r = world.clients["server-gm"].post("/games", data={
        "csrf": world.csrf("server-gm"), "variant": "standard", "name": name})
    refused(r)
    assert state(world) == before
    assert world.service.linked_seats("A", actor=GM).count("Aesir") == 1  # no new link was made


def test_names_with_ordinary_unicode_are_fine(world: World) -> None:
    r = world.clients["anonymous"].put("/api/v1/games/A/players/Aesir",
                                       headers=bearer(world, "gm"),
                                       json={"player": "Þórdís Ó'Brien-Łukasz 李"})
    assert r.status_code == 200
    assert world.service.game("A", actor=PUBLIC).players["Aesir"] == "Þórdís Ó'Brien-Łukasz 李"


# --- posts ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("post", "what"), [
    ("F Asgard H\x00", "U+0000"), ("F Asg\u202eard H", "U+202E"),
    ("F Asgard H\x1b[2J", "U+001B"), ("\u2067F Asgard H", "U+2067"), ("F Asgard H\ud800", "")])
def test_posts_with_nul_control_or_bidi_characters_are_refused(world: World, post: str,
                                                               what: str) -> None:
    before = state(world)
    api = world.clients["anonymous"]
    r = send(api, "post", "/api/v1/games/A/powers/Aesir/orders", bearer(world, "Aesir"),
             {"text": post})
    refused(r, what)
    r = send(api, "post", "/api/v1/games/A/powers/Aesir/check", bearer(world, "Aesir"),
             {"text": post})
    refused(r, what)
    if not form_safe(post):
        return
    r = world.clients["Aesir"].post("/games/A/orders", data={
        "csrf": world.csrf("Aesir"), "power": "Aesir", "text": post})
    refused(r)
    assert state(world) == before


def test_tabs_and_line_breaks_in_posts_are_fine(world: World) -> None:
    r = world.clients["anonymous"].post("/api/v1/games/A/powers/Aesir/orders",
                                        headers=bearer(world, "Aesir"),
                                        json={"text": "Aesir:\r\n\tF Asgard H\n\n"})
    assert r.status_code == 200 and r.json()["ok"]


@pytest.mark.parametrize("points", ["10" + "0" * 30, "1000", "9" * 5000])
def test_huge_dp_is_an_unreadable_line_never_a_500(world: World, points: str) -> None:
    before = world.service.submissions("A", "Aesir", actor=GM).allocations
    r = world.clients["anonymous"].post("/api/v1/games/A/powers/Aesir/orders",
                                        headers=bearer(world, "Aesir"),
                                        json={"text": f"{points} DP to F Permyak H"})
    assert r.status_code == 200, r.text[:300]
    line = r.json()["lines"][0]
    assert line["status"] == "unreadable" and "at most 999 DP" in line["message"]
    assert world.service.submissions("A", "Aesir", actor=GM).allocations == before


# --- numbers --------------------------------------------------------------------------------

def test_schedules_and_extensions_refuse_huge_infinite_and_nan_numbers(world: World) -> None:
    api = world.clients["anonymous"]
    gm = bearer(world, "gm")
    before = state(world)
    for body in ({"phase_minutes": 10**30}, {"phase_minutes": 60, "grace_minutes": 10**30},
                 {"phase_minutes": -5}, {"phase_minutes": 60, "timezone": "Europe/Ber\x00lin"},
                 {"phase_minutes": 60, "timezone": "../../../../etc/passwd"}):
        refused(api.put("/api/v1/games/A/schedule", headers=gm, json=body))
    for raw in (b'{"minutes": NaN}', b'{"minutes": Infinity}', b'{"minutes": 1e400}',
                b'{"minutes": ' + b"9" * 40 + b"}"):
        refused(api.post("/api/v1/games/A/extend", headers={**gm, "content-type":
                                                            "application/json"}, content=raw))
    client, csrf = world.clients["gm"], world.csrf("gm")
    for hours in ("inf", "nan", "-inf", "1e308", "9" * 400, "-1", "abc"):
        refused(client.post("/games/A/gm/extend", data={"csrf": csrf, "minutes": hours}))
        refused(client.post("/games/A/gm/schedule", data={
            "csrf": csrf, "phase_minutes": hours, "grace_minutes": "0", "timezone": "UTC"}))
        refused(client.post("/games/A/gm/schedule", data={
            "csrf": csrf, "phase_minutes": "24h", "grace_minutes": hours, "timezone": "UTC"}))
    assert state(world) == before


def test_a_refused_game_creation_creates_nothing(world: World) -> None:
    api, server = world.clients["anonymous"], bearer(world, "server-gm")
    before = state(world)
    bad = [{"phase_minutes": 10**6}, {"phase_minutes": 10**30}, {"grace_minutes": 10**30},
           {"timezone": "Mars/Olympus"}, {"rules": {"max_years": "abc"}},
           {"players": {"Nobody": "alice"}}, {"rules": {"favor_setup": "x\x00"}}]
    for extra in bad:
        r = api.post("/api/v1/games", headers=server,
                     json={"variant": "standard", "name": "Doomed", **extra})
        refused(r)
        assert state(world) == before, extra
    client, csrf = world.clients["server-gm"], world.csrf("server-gm")
    for extra in ({"phase_hours": "100000"}, {"phase_hours": "inf"}, {"grace_minutes": "nan"},
                  {"timezone": "Nowhere/Land"}, {"rules": "victory_centres=-5"},
                  {"rules": "nonsense"}):
        r = client.post("/games", data={"csrf": csrf, "variant": "standard", "name": "Doomed",
                                        **extra})
        refused(r)
        assert state(world) == before, extra


def test_a_nul_in_the_address_is_refused(world: World) -> None:
    for path in ("/api/v1/games/A%00", "/games/A%00", "/api/v1/games/A/results?phase=%00",
                 "/games/A/map.svg?phase=S1%00"):
        r = world.clients["anonymous"].get(path)
        assert r.status_code == 400, (path, r.status_code)


def test_undo_to_a_nasty_phase_is_refused(world: World) -> None:
    world.service.process("A", actor=GM)
    before = world.service.game("A", actor=PUBLIC).phase_code
    for to in ("9" * 5000, "S1\x00", "\u202eS1M"):
        r = world.clients["anonymous"].post("/api/v1/games/A/undo", headers=bearer(world, "gm"),
                                            json={"to": to})
        assert 400 <= r.status_code < 500
    assert world.service.game("A", actor=PUBLIC).phase_code == before


# --- house rules ------------------------------------------------------------------------------

@pytest.mark.parametrize(("key", "value", "allowed"), [
    ("reveal_dp_at_end", "maybe", "yes or no"),
    ("max_years", "abc", "a whole number of game years"),
    ("max_years", "-3", "from 1 to 1000"),
    ("victory_centres", "-5", "from 1 to 1000"),
    ("victory_centres", "1e9", "from 1 to 1000"),
    ("edition", "1999", "one of 2023, 2000"),
    ("multiple_orders", "sometimes", "one of void, last"),
    ("sortie", "x\x00", "U+0000"),
])
def test_house_rules_are_checked_with_their_type_and_range(world: World, key: str, value: str,
                                                           allowed: str) -> None:
    before = state(world)
    r = world.clients["anonymous"].put(f"/api/v1/games/A/rules/{key}",
                                       headers=bearer(world, "gm"), json={"value": value})
    message = refused(r, key, allowed)
    assert "invalid literal" not in message and "Traceback" not in message
    r = world.clients["gm"].post("/games/A/gm/rule", data={"csrf": world.csrf("gm"),
                                                           "key": key, "value": value})
    refused(r, key)
    assert state(world) == before


def test_players_see_the_rules_in_force(world: World) -> None:
    world.service.set_rule("A", "max_years", "11", actor=GM)
    for role in ("Aesir", "anonymous"):
        page = world.clients[role].get("/games/A").text
        assert "Rules in force" in page and "max_years" in page and "house rule" in page
        assert "victory_centres" in page and "multiple_orders" in page


# --- ballots and the public history -----------------------------------------------------------

def test_the_gm_cannot_cast_or_overwrite_a_players_draw_ballot(world: World) -> None:
    svc = world.service
    svc.vote_draw("A", "Aesir", True, actor=Viewer.of("Aesir"))
    for role in ("gm", "server-gm"):
        r = world.clients["anonymous"].post("/api/v1/games/A/powers/Aesir/draw",
                                            headers=bearer(world, role), json={"value": False})
        assert r.status_code == 403 and "secret ballot" in r.json()["error"]
        r = world.clients[role].post("/games/A/vote", data={
            "csrf": world.csrf(role), "power": "Aesir", "draw": "no"})
        assert r.status_code == 403
    assert svc.my_vote("A", "Aesir", actor=Viewer.of("Aesir")) is True
    assert svc.draw_tally("A", actor=PUBLIC).cast == 1


def test_the_public_history_shows_no_link_events(world: World) -> None:
    world.service.revoke_links("A", "Jotnar", actor=GM)
    for role in ("anonymous", "Aesir", "B.Aesir"):
        r = world.clients["anonymous"].get("/api/v1/games/A/history",
                                           headers=bearer(world, role) if role in world.tokens
                                           else {})
        kinds = {e["kind"] for e in r.json()}
        assert "link" not in kinds and "created" in kinds, role
        assert "secret link" not in r.text
        assert "secret link for Jotnar" not in world.clients[role].get("/games/A").text
    r = world.clients["anonymous"].get("/api/v1/games/A/history", headers=bearer(world, "gm"))
    assert "link" in {e["kind"] for e in r.json()}  # the GM's own log keeps them
    assert "link" not in {e.kind for e in world.service.history("A", actor=PUBLIC)}


# --- a DP reveal belongs to its phase ---------------------------------------------------------

def _finished(svc: GameService) -> None:
    svc.create_game("s9-complete", "Short", {"max_years": "1"}, actor=GM)
    svc.submit("Short", "Aesir", "2 DP to F Permyak H", actor=GM)
    while not svc.game("Short", actor=PUBLIC).result:
        svc.process("Short", actor=GM)


def test_a_rollback_past_the_reveal_makes_dp_secret_again(world: World) -> None:
    svc = world.service
    _finished(svc)
    svc.reveal_dp("Short", actor=GM)
    secret = "Aesir: 2 DP to F Permyak H"
    assert secret in svc.export("Short", "S1M", actor=PUBLIC)
    assert secret in world.clients["anonymous"].get("/api/v1/games/Short/results?phase=S1M"
                                                    ).json()["text"]
    svc.undo("Short", actor=GM)  # back before the end, and before the reveal
    for text in (svc.export("Short", "S1M", actor=PUBLIC),
                 world.clients["anonymous"].get("/api/v1/games/Short/results?phase=S1M"
                                                ).json()["text"],
                 world.clients["anonymous"].get("/games/Short/phases/S1M").text,
                 world.clients["anonymous"].get("/games/Short/export?phase=S1M").text):
        assert "2 DP to F Permyak" not in text and "revealed" not in text
    assert secret in svc.export("Short", "S1M", gm=True, actor=GM)  # the GM still sees them
    reveal = [h for h in svc.history("Short", actor=PUBLIC) if h.kind == "reveal-dp"]
    assert len(reveal) == 1 and reveal[0].undone  # kept as history, marked undone
    while not svc.game("Short",
                       actor=PUBLIC).result:  # the game ends again: DP secret until revealed
        svc.process("Short", actor=GM)
    assert "2 DP to F Permyak" not in svc.export("Short", "S1M", actor=PUBLIC)
    svc.reveal_dp("Short", actor=GM)
    assert secret in svc.export("Short", "S1M", actor=PUBLIC)
