"""Results the GM reviews before the players see them (house rule ``review``).

With ``review=yes`` Process adjudicates into a preview only the GM sees; the game
stays in its phase on every path until Publish; a post, a rule change or a
rollback makes the preview stale; a double Publish publishes once. Tried through
the service, the web pages and JSON API, and real ``lawspeaker serve`` processes,
on SQLite and PostgreSQL.
"""

from __future__ import annotations

import threading
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from store_fixtures import BACKENDS, database
from test_server_races import serve
from web_fixtures import POWERS, World, build

from lawspeaker.service import GM, PUBLIC, GameService, PhaseChanged, Viewer
from lawspeaker.service.review import Preview, PreviewStale
from lawspeaker.store import open_store
from lawspeaker.store.models import now


@pytest.fixture(params=BACKENDS)
def world(request: pytest.FixtureRequest, tmp_path: Path) -> World:
    w = build(database(request.param, tmp_path))
    w.service.set_rule("A", "review", "yes", actor=GM)
    return w


def _results_lines(preview: Preview) -> list[str]:
    """What only the results show: each order with its outcome, the next phase."""
    lines = [line.strip() for line in preview.post("text", secret=False).splitlines()
             if line.startswith("    ") and ": " in line]
    assert lines
    return [*lines, preview.next_phase]


def _pages(w: World, role: str) -> dict[str, str]:
    client = w.clients[role]
    paths = ["/games/A", "/games/A/map.svg?orders=true", "/games/A/export",
             "/games/A/phases/1", "/api/v1/games/A", "/api/v1/games/A/results",
             "/api/v1/games/A/history", "/api/v1/games/A/explain",
             "/api/v1/games/A/map.svg?orders=true", "/games/A/map.png?orders=true",
             "/api/v1/games/A/preview", "/games/A/preview/map.svg"]
    headers = {"Authorization": f"Bearer {w.tokens[role]}"} if role in w.tokens else {}
    out = {}
    for path in paths:
        r = client.get(path, headers=headers if path.startswith("/api") else {})
        out[path] = f"{r.status_code} {r.text if 'png' not in path else len(r.content)}"
    return out


def test_a_phase_under_review_is_seen_by_the_gm_alone_until_published(world: World) -> None:
    svc = world.service
    before = {role: _pages(world, role) for role in (*POWERS, "anonymous", "B.Aesir")}
    page = world.clients["gm"].post("/games/A/gm/process", data={
        "csrf": world.csrf("gm"), "phase": "S1M"})
    assert "adjudicated into a preview only you see" in page.text
    preview = svc.preview("A", actor=GM)
    assert preview is not None and preview.phase_code == "S1M"
    hidden = _results_lines(preview)
    assert svc.game("A", actor=PUBLIC).phase_code == "S1M"  # the game stays in its phase
    for role in (*POWERS, "anonymous", "B.Aesir"):
        now_seen = _pages(world, role)
        for path, text in now_seen.items():
            if path == "/games/A":  # the only change: it says results are being reviewed
                assert "The GM is reviewing the results" in text
                start = text.index('<p class="notice" id="under-review"')
                text = text[:start] + text[text.index("</p>", start) + 4:]
            if path == "/api/v1/games/A":  # says so too, as a flag
                assert '"under_review":true' in text
                text = text.replace('"under_review":true', '"under_review":false')
            assert text == before[role][path], (role, path)
            for line in hidden:
                assert line not in text, (role, path, line)
        assert now_seen["/api/v1/games/A/preview"].startswith("403")
        assert now_seen["/games/A/preview/map.svg"].startswith("403")
    gm_page = world.clients["gm"].get("/games/A").text
    assert "Publish these results" in gm_page and hidden[0] in gm_page.replace("&#39;", "'")
    for p in POWERS:  # the GM's preview shows the secret part: every DP allocation
        assert world.secrets[p][1].split(" H")[0] in gm_page
    gm_map = world.clients["gm"].get("/games/A/preview/map.svg")
    assert gm_map.status_code == 200 and gm_map.headers["cache-control"] == "private, no-store"
    published = world.clients["gm"].post("/games/A/gm/publish", data={
        "csrf": world.csrf("gm"), "phase": "S1M"})
    assert "published" in published.text
    record = svc.record("A", actor=GM)
    assert record == preview.record  # what was published is what the GM saw
    results = world.clients["anonymous"].get("/api/v1/games/A/results").json()["text"]
    assert all(line in results for line in hidden[:-1])
    assert "reviewing" not in world.clients["Aesir"].get("/games/A").text


def test_a_post_a_rule_or_a_rollback_makes_the_preview_stale(world: World) -> None:
    svc = world.service
    svc.process("A", actor=GM)
    svc.submit("A", "Aesir", world.secrets["Aesir"][0], actor=Viewer.of("Aesir"))
    with pytest.raises(PreviewStale, match=r"Aesir submitted orders .* after it was made"):
        svc.publish("A", actor=GM, phase="S1M")
    assert svc.game("A", actor=PUBLIC).phase_code == "S1M"
    assert "Out of date" in world.clients["gm"].get("/games/A").text
    api = world.clients["anonymous"].post("/api/v1/games/A/publish", json={"phase": "S1M"},
                                          headers={"Authorization":
                                                   f"Bearer {world.tokens['gm']}"})
    assert api.status_code == 409 and "out of date" in api.json()["error"]
    svc.process("A", actor=GM)  # again: a fresh preview replaces the stale one
    svc.set_rule("A", "max_years", "11", actor=GM)
    with pytest.raises(PreviewStale, match="house rule max_years"):
        svc.publish("A", actor=GM, phase="S1M")
    svc.process("A", actor=GM)
    assert svc.publish("A", actor=GM, phase="S1M").phase.startswith("Spring")
    svc.process("A", actor=GM)  # a preview of the second phase, then a rollback
    svc.undo("A", actor=GM, phase=svc.game("A", actor=PUBLIC).phase_code)
    with pytest.raises(PhaseChanged):
        svc.publish("A", actor=GM)
    processed = [e for e in svc.history("A", actor=GM) if e.kind == "processed"]
    assert len(processed) == 1


def test_discard_leaves_the_game_as_it_was(world: World) -> None:
    svc = world.service
    before = svc.submissions("A", "Aesir", actor=GM)
    done = svc.act("A", "process", {"phase": "S1M"}, actor=GM)
    assert done.data["preview"]["phase"] == "S1M" and "secret_post" in done.data["preview"]
    assert svc.act("A", "discard", {"phase": "S1M"}, actor=GM).message.startswith(
        "The preview of")
    assert svc.preview("A", actor=GM) is None and not svc.under_review("A", actor=PUBLIC)
    assert svc.submissions("A", "Aesir", actor=GM) == before
    with pytest.raises(PhaseChanged, match="there is none"):
        svc.act("A", "discard", {"phase": "S1M"}, actor=GM)
    assert [e.kind for e in svc.history("A", actor=PUBLIC)].count("review") == 0
    assert [e.kind for e in svc.history("A", actor=GM)].count("review") == 2


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_preview_survives_a_restart(backend: str, tmp_path: Path) -> None:
    url = database(backend, tmp_path)
    first = GameService(open_store(url))
    first.create_game("s9-complete", "g", {"review": "yes"}, actor=GM)
    made = first.process("g", actor=GM)
    assert isinstance(made, Preview)
    first.store.close()
    again = GameService(open_store(url))
    kept = again.preview("g", actor=GM)
    assert kept is not None and kept.record == made.record and kept.stale is None
    assert again.publish("g", actor=GM, phase="S1M").phase == made.phase
    again.store.close()


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_scheduler_makes_the_preview_and_publishes_it_after_review_hours(
        backend: str, tmp_path: Path) -> None:
    svc = GameService(open_store(database(backend, tmp_path)))
    svc.create_game("s9-complete", "g", {"review": "yes", "review_hours": "2"},
                    {"Aesir": "alice"}, actor=GM)
    svc.set_schedule("g", 60, 0, "UTC", actor=GM)
    later = now() + timedelta(minutes=61)
    assert svc.process_due(at=later) == ["g"]  # the preview is made
    preview = svc.preview("g", actor=GM)
    assert preview is not None and preview.made_by == "scheduler"
    assert preview.publish_by is not None
    assert svc.game("g", actor=PUBLIC).phase_code == "S1M"
    assert svc.process_due(at=later) == []  # waiting for the GM: nothing more
    svc.submit("g", "Aesir", "F Asg H", actor=Viewer.of("Aesir"))
    assert svc.process_due(at=later) == ["g"]  # stale: made again for the GM
    assert svc.preview("g", actor=GM).publish_by == preview.publish_by  # same clock
    assert svc.game("g", actor=PUBLIC).phase_code == "S1M"
    missed = [e for e in svc.history("g", actor=GM) if e.kind == "missed"]
    # The GM is absent: at review_hours after the first preview, the phase is processed.
    import lawspeaker.service.review as review

    real_now = review.now
    review.now = lambda: real_now() + timedelta(hours=3)  # type: ignore[assignment]
    try:
        assert svc.process_due(at=later + timedelta(hours=3)) == ["g"]
    finally:
        review.now = real_now  # type: ignore[assignment]
    assert svc.game("g", actor=PUBLIC).phase_code == "A1M"
    assert svc.preview("g", actor=GM) is None
    assert [e for e in svc.history("g", actor=GM) if e.kind == "missed"] == missed
    svc.store.close()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_double_publish_on_a_real_server_publishes_once(backend: str,
                                                          tmp_path: Path) -> None:
    db = database(backend, tmp_path)
    svc = GameService(open_store(db))
    svc.create_game("s9-complete", "Saga", {"review": "yes"}, actor=GM)
    token = svc.issue_link("Saga", "gm", actor=GM)
    with serve(db, "--workers", "2") as base:
        headers = {"Authorization": f"Bearer {token}"}
        made = httpx.post(f"{base}/api/v1/games/Saga/process", json={"phase": "S1M"},
                          headers=headers, timeout=30)
        assert made.status_code == 200 and made.json()["preview"]["phase"] == "S1M"
        assert httpx.get(f"{base}/api/v1/games/Saga/results", timeout=10).status_code == 400
        start = threading.Barrier(4)
        answers: list[int] = []

        def publish() -> None:
            start.wait()
            r = httpx.post(f"{base}/api/v1/games/Saga/publish", json={"phase": "S1M"},
                           headers=headers, timeout=60)
            answers.append(r.status_code)

        racers = [threading.Thread(target=publish) for _ in range(4)]
        for t in racers:
            t.start()
        for t in racers:
            t.join(90)
        assert sorted(answers) == [200, 409, 409, 409]
        game = httpx.get(f"{base}/api/v1/games/Saga", timeout=10).json()
        assert game["phase_code"] == "A1M"
    history = svc.history("Saga", actor=GM)
    assert [e.kind for e in history].count("processed") == 1
    svc.store.close()
