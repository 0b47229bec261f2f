"""Every GM action written once: the service's table, who may act, and the same
sentence for a bad argument on the web page and the JSON API (the CLI's and
Discord's agreement is tested in tests/test_cli_actions.py and
tests/test_discord_actions.py)."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest
from store_fixtures import BACKENDS, database
from web_fixtures import World, build

import lawspeaker.service as service_package
from lawspeaker.service import GM, PUBLIC, Forbidden, GameService, ServiceError, Viewer
from lawspeaker.service.actions import ACTIONS, duration_minutes

IDENTITY = {"list_games", "redeem", "grant", "open_session", "session_live", "end_session",
            "due_games", "process_due", "channel", "channels", "claim_post", "chat_viewer",
            "chat_seats"}
"""Facade methods that read or change no one game: who a token or a chat user is,
browser sessions, the scheduler's sweep over every game, a channel's binding."""


def _parts(svc: GameService) -> list[object]:
    return [svc, *(v for v in vars(svc).values()
                   if type(v).__module__.startswith("lawspeaker.service."))]


def test_no_service_method_defaults_who_is_acting(tmp_path: Path) -> None:
    svc = GameService(__import__("lawspeaker.store", fromlist=["open_store"])
                      .open_store(f"sqlite:///{tmp_path / 'g.db'}"))
    checked = 0
    for part in _parts(svc):
        for name, method in inspect.getmembers(part, inspect.ismethod):
            if name.startswith("_"):
                continue
            params = inspect.signature(method).parameters
            actor = params.get("actor")
            if actor is not None:
                checked += 1
                assert actor.default is inspect.Parameter.empty, \
                    f"{type(part).__name__}.{name} defaults who is acting"
    assert checked > 40  # the parts' calls are read, not skipped
    for name, method in inspect.getmembers(svc, inspect.ismethod):
        if name.startswith("_") or name in IDENTITY:
            continue
        actor = inspect.signature(method).parameters.get("actor")
        assert actor is not None and actor.kind is inspect.Parameter.KEYWORD_ONLY, \
            f"GameService.{name} must take actor= (who is acting) as a required keyword"


def test_a_front_end_that_forgets_who_acts_is_refused_by_python(tmp_path: Path) -> None:
    from lawspeaker.store import open_store

    svc = GameService(open_store(f"sqlite:///{tmp_path / 'g.db'}"))
    svc.create_game("standard", "g", actor=GM)
    with pytest.raises(TypeError, match="actor"):
        svc.process("g")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="actor"):
        svc.act("g", "pause", {})  # type: ignore[call-arg]
    assert svc.game("g", actor=PUBLIC).phase_code == "S1901M"


def test_the_table_names_each_action_once_with_its_route() -> None:
    routes = [a.http for a in ACTIONS.values()]
    assert len(set(routes)) == len(routes)
    for action in ACTIONS.values():
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", action.name) and len(action.name) <= 32
        assert action.summary and action.changes and action.history
        for p in action.params:
            assert p.help
            assert p.path == (f"{{{p.name}}}" in action.http[1]), (action.name, p.name)


@pytest.mark.parametrize(("raw", "minutes"), [
    ("90", 90), ("90m", 90), ("12h", 720), ("1.5h", 90), ("2d", 2880), (45, 45),
    ("soon", None), ("-1", None), ("inf", None), ("1e308", None), (float("nan"), None)])
def test_durations_read_as_players_write_them(raw: object, minutes: int | None) -> None:
    assert duration_minutes(raw) == minutes


def test_a_player_is_refused_before_an_argument_is_read(tmp_path: Path) -> None:
    from lawspeaker.store import open_store

    svc = GameService(open_store(f"sqlite:///{tmp_path / 'g.db'}"))
    svc.create_game("s9-complete", "g", actor=GM)
    for action in ACTIONS:
        with pytest.raises(Forbidden):
            svc.act("g", action, {"nonsense": "x" * 1000}, actor=Viewer.of("Aesir"))
        with pytest.raises(Forbidden):
            svc.act("g", action, {}, actor=PUBLIC)
    assert [e.kind for e in svc.history("g", actor=GM)] == ["created"]


def test_unknown_and_missing_arguments_are_named(tmp_path: Path) -> None:
    from lawspeaker.store import open_store

    svc = GameService(open_store(f"sqlite:///{tmp_path / 'g.db'}"))
    svc.create_game("s9-complete", "g", actor=GM)
    with pytest.raises(ServiceError, match=r"^extend takes minutes, not hours$"):
        svc.act("g", "extend", {"hours": "2"}, actor=GM)
    with pytest.raises(ServiceError, match=r"^extend: minutes is missing \(by how long"):
        svc.act("g", "extend", {}, actor=GM)
    with pytest.raises(ServiceError, match=r"^there is no GM action .explode."):
        svc.act("g", "explode", {}, actor=GM)


@pytest.fixture(params=BACKENDS)
def world(request: pytest.FixtureRequest, tmp_path: Path) -> World:
    return build(database(request.param, tmp_path))


BAD = [("extend", {"minutes": "soon"}, {"minutes": "soon"}),
       ("draw-rule", {"rule": "sometimes"}, {"rule": "sometimes"}),
       ("bot", {"power": "Aesir", "bot": "genius"}, {"bot": "genius"}),
       ("rule", {"key": "max_years", "value": "abc"}, {"value": "abc"}),
       ("eliminate", {"power": "Atlantis"}, None),
       ("schedule", {"timezone": "Mars/Olympus"}, {"timezone": "Mars/Olympus"})]


@pytest.mark.parametrize(("action", "form", "body"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_argument_gets_the_same_sentence_on_the_page_and_the_api(
        world: World, action: str, form: dict[str, str], body: dict[str, str] | None) -> None:
    with pytest.raises(ServiceError) as caught:
        world.service.act("A", action, form, actor=GM)
    sentence = str(caught.value)
    history = len(world.service.history("A", actor=GM))
    page = world.clients["gm"].post(f"/games/A/gm/{action}",
                                    data={"csrf": world.csrf("gm"), **form})
    assert page.status_code in (400, 404), page.text[:300]
    assert sentence.replace("'", "&#39;") in page.text
    method, path = ACTIONS[action].http
    path = path.format(name="A", power=form.get("power", ""), key=form.get("key", ""))
    api = world.clients["anonymous"].request(
        method, f"/api/v1{path}", json=body,
        headers={"Authorization": f"Bearer {world.tokens['gm']}"})
    assert api.status_code in (400, 404) and api.json() == {"error": sentence}
    assert len(world.service.history("A", actor=GM)) == history  # nothing was done


def test_every_action_is_a_route_of_the_api_and_a_documented_operation(world: World) -> None:
    spec = world.clients["anonymous"].get("/api/openapi.json").json()
    for action in ACTIONS.values():
        method, path = action.http
        operation = spec["paths"][f"/api/v1{path}"][method.lower()]
        assert action.summary in operation["summary"]
        body = {p.name for p in action.params if not p.path}
        if body:
            ref = operation["requestBody"]["content"]["application/json"]["schema"]
            ref = ref.get("$ref") or next(s["$ref"] for s in ref["anyOf"] if "$ref" in s)
            schema = spec["components"]["schemas"][ref.rsplit("/", 1)[-1]]
            assert set(schema["properties"]) == body
        else:
            assert "requestBody" not in operation


def test_the_service_package_loads_no_store_for_the_table() -> None:
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", "import sys, lawspeaker.service.actions; "
                          "print('sqlalchemy' in sys.modules)"],
                         capture_output=True, text=True, check=True).stdout.strip()
    assert out == "False"
    assert "GameService" in service_package.__all__


def test_an_unknown_field_in_a_json_body_is_named_not_ignored(world: World) -> None:
    r = world.clients["anonymous"].post(
        "/api/v1/games/A/extend", json={"minutes": 60, "hours": 2},
        headers={"Authorization": f"Bearer {world.tokens['gm']}"})
    assert r.status_code == 400 and r.json() == {"error": "extend takes minutes, not hours"}
    assert world.service.schedule("A", actor=PUBLIC).deadline is None
