"""What the GM's API and the new parts of the pages do (who may call them is
tests/test_web.py's matrix): a bot runs a game from creation to rollback, a
player sees its own posts and DP limits, the GM removes an exile in the page."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select
from web_fixtures import World, sqlite_world

from lawspeaker.core.board import Position
from lawspeaker.service import GM, PUBLIC


@pytest.fixture()
def world(tmp_path: Path) -> World:
    return sqlite_world(tmp_path)


def bearer(w: World, role: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {w.tokens[role]}"}


def test_a_bot_creates_and_runs_a_game_through_the_api(world: World) -> None:
    api = world.clients["anonymous"]
    gm = bearer(world, "server-gm")
    r = api.post("/api/v1/games", headers=gm, json={
        "variant": "s9-complete", "name": "Bot", "rules": {"reveal_dp_at_end": "yes"},
        "players": {"Jotnar": "carol"}, "phase_minutes": 1440, "grace_minutes": 30,
        "timezone": "Europe/Berlin"})
    assert r.status_code == 200, r.text
    assert r.json()["schedule"]["timezone"] == "Europe/Berlin"
    assert r.json()["schedule"]["deadline"].endswith(("+01:00", "+02:00"))
    info = api.get("/api/v1/games/Bot").json()
    assert info["rules"] == {"reveal_dp_at_end": "yes"} and info["players"] == {"Jotnar": "carol"}
    assert info["grace_minutes"] == 30
    r = api.post("/api/v1/games", headers=gm, json={"variant": "s9-complete", "name": "Bot"})
    assert r.status_code == 400 and "already a game" in r.json()["error"]
    r = api.post("/api/v1/games", headers=gm,
                 json={"variant": "s9-complete", "name": "Z", "timezone": "Mars/Olympus"})
    assert r.status_code == 400 and "time zone" in r.json()["error"]

    link = api.post("/api/v1/games/Bot/links", headers=gm,
                    json={"seat": "Aesir", "player": "alice"}).json()
    assert link["link"].endswith("/join/" + link["token"])
    alice = {"Authorization": f"Bearer {link['token']}"}
    assert api.get("/api/v1/me", headers=alice).json() == {"game": "Bot", "role": "Aesir"}
    assert api.get("/api/v1/games/Bot/links", headers=gm).json() == {"seats": ["Aesir"]}
    assert world.service.game("Bot", actor=PUBLIC).players["Aesir"] == "alice"
    r = api.post("/api/v1/games/Bot/powers/Aesir/orders", headers=alice,
                 json={"text": "F Asgard - Idavollr\n1 DP to F Glaesisvellir H"})
    assert r.json()["limits"] == {"allotment": 2, "spent": 1, "left": 1, "rule": "S9 §9.2",
                                  "caps": []}

    assert api.post("/api/v1/games/Bot/pause", headers=gm).json()["paused"] is True
    assert api.post("/api/v1/games/Bot/resume", headers=gm).json()["paused"] is False
    before = world.service.schedule("Bot", actor=PUBLIC).deadline
    after = api.post("/api/v1/games/Bot/extend", headers=gm, json={"minutes": 90}).json()
    assert after["deadline"] == (before + timedelta(minutes=90)).isoformat()
    r = api.put("/api/v1/games/Bot/schedule", headers=gm, json={"phase_minutes": None})
    assert r.json()["deadline"] is None
    assert api.put("/api/v1/games/Bot/draw-rule", headers=gm,
                   json={"rule": "majority"}).status_code == 200
    assert world.service.draw_tally("Bot", actor=PUBLIC).rule == "majority"
    refused = api.put("/api/v1/games/Bot/draw-rule", headers=gm, json={"rule": "sometimes"})
    assert refused.status_code == 400  # the sentence every front end gives
    assert refused.json()["error"] == ("draw-rule: rule must be one of none, unanimous, "
                                       "majority (not 'sometimes')")
    assert api.put("/api/v1/games/Bot/rules/multiple_orders", headers=gm,
                   json={"value": "void"}).status_code == 200
    assert world.service.game("Bot", actor=PUBLIC).rules["multiple_orders"] == "void"
    r = api.put("/api/v1/games/Bot/rules/multiple_orders", headers=gm, json={"value": "??"})
    assert r.status_code == 400

    first = world.service.game("Bot", actor=PUBLIC).phase
    for _ in range(2):
        assert api.post("/api/v1/games/Bot/process", headers=gm).status_code == 200
    gm_post = api.get("/api/v1/games/Bot/results?phase=1&fmt=bbcode&gm=true", headers=gm)
    assert "1 DP" in gm_post.json()["text"] and "[b]" in gm_post.json()["text"]
    r = api.get("/api/v1/games/Bot/results?phase=1&gm=true", headers=alice)
    assert r.status_code == 403
    assert "1 DP" not in api.get("/api/v1/games/Bot/results?phase=1").json()["text"]
    assert api.post("/api/v1/games/Bot/undo", headers=gm, json={"to": "1"}).json() == \
        {"phase": first, "done": f"Rolled back to {first}; its orders stand again."}
    assert world.service.game("Bot", actor=PUBLIC).phase == first
    r = api.post("/api/v1/games/Bot/reveal-dp", headers=gm)
    assert r.status_code == 400 and "secret until the game has ended" in r.json()["error"]
    r = api.post("/api/v1/games/Bot/powers/Jotnar/eliminate", headers=gm)
    assert r.status_code == 200
    assert any("Jotnar dropped" in h.summary for h in world.service.history("Bot", actor=PUBLIC))

    assert api.delete("/api/v1/games/Bot/links/Aesir", headers=gm).json() == {
        "revoked": 1, "done": "1 link(s) of Aesir revoked."}
    assert api.get("/api/v1/me", headers=alice).status_code == 401


def test_a_player_sees_its_own_posts_and_dp_limits_on_its_page(world: World) -> None:
    svc = world.service
    aesir = world.clients["Aesir"]
    csrf = world.csrf("Aesir")
    r = aesir.post("/games/A/orders", data={"csrf": csrf, "power": "Aesir",
                                            "text": "F Asgard - Nowhere\n9 DP to F Eire H"})
    page = r.text
    assert "Your posts this phase" in page and "post 2" in page and "post 1" in page
    assert "F Asgard - Nowhere" in page and "9 DP to F Eire H" in page  # as written
    assert "DP allotment exceeded" in page
    mine = svc.submissions("A", "Aesir", actor=GM)
    assert f"<td><b>{mine.limits.left}</b></td>" in page
    assert "S9 §9.2" in page
    api = world.clients["anonymous"].get("/api/v1/games/A/powers/Aesir/posts",
                                         headers=bearer(world, "Aesir")).json()
    assert [p["number"] for p in api] == [1, 2]
    assert api[1]["lines"][1]["status"] == "rejected"
    # The GM sees every power's posts; Jotnar sees none of Aesir's.
    gm_page = world.clients["gm"].get("/games/A").text
    assert "Every post this phase, as sent (4)" in gm_page and "F Asgard - Nowhere" in gm_page
    assert "F Asgard - Nowhere" not in world.clients["Jotnar"].get("/games/A").text
    everything = world.clients["anonymous"].get("/api/v1/games/A/posts",
                                                headers=bearer(world, "gm")).json()
    assert sorted(p["power"] for p in everything) == ["Aesir", "Aesir", "Dokkalfar", "Jotnar"]


def test_the_gm_rolls_back_to_a_chosen_phase_in_the_page(world: World) -> None:
    svc = world.service
    first = svc.game("A", actor=PUBLIC).phase
    svc.process("A", actor=GM)
    svc.process("A", actor=GM)
    gm = world.clients["gm"]
    page = gm.get("/games/A").text
    assert "Roll back to the start of this phase" in page
    r = gm.post("/games/A/gm/undo", data={"csrf": world.csrf("gm"), "to": first})
    assert r.status_code == 200 and f"Rolled back to {first}" in r.text
    assert svc.game("A", actor=PUBLIC).phase == first


def test_the_gm_removes_an_exile_in_the_page(world: World) -> None:
    svc = world.service
    svc.create_game("dissolution", "D", actor=GM)
    token = svc.issue_link("D", "gm", actor=GM)
    gm = world.clients["anonymous"]
    gm.get(f"/join/{token}")
    assert "Player in Exile" not in gm.get("/games/D").text
    from lawspeaker.store.models import PhaseRow

    with svc.store.transaction() as s:  # Poland has been eliminated into exile
        game_id = svc.loader.load(s, "D").row.id
        row = s.scalars(select(PhaseRow).where(PhaseRow.game_id == game_id)).one()
        position = Position.from_dict(row.position)
        row.position = position.replace(
            units={p: u for p, u in position.units.items() if u.power != "Poland"},
            owners={c: o for c, o in position.owners.items() if o != "Poland"},
            exiles={"Poland"}).to_dict()
    page = gm.get("/games/D").text
    assert "Remove from the game" in page
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    r = gm.post("/games/D/gm/remove-exile", data={"csrf": csrf, "power": "Poland"})
    assert r.status_code == 200 and "Poland is removed from the game" in r.text
    assert "Poland" in svc.position("D", actor=PUBLIC).removed
    assert svc.submit("D", "Poland", "1 DP to A Albania H", actor=GM).lines[0].status == "rejected"
    r = gm.post("/games/D/gm/remove-exile", data={"csrf": csrf, "power": "Poland"})
    assert r.status_code == 400 and "not a Player in Exile" in r.text


def test_post_times_read_in_the_games_time_zone() -> None:
    from datetime import datetime

    from lawspeaker.web.app import local_time

    at = datetime(2026, 11, 24, 17, 5)  # stored as naive UTC
    assert local_time(at, "Europe/Berlin") == "24 Nov 18:05 Europe/Berlin"
    assert local_time(at, None) == "24 Nov 17:05 UTC"
    assert local_time(at, "Not/AZone") == "24 Nov 17:05 UTC"
