"""Bots in seats of real games (issue 22): the GM seats a bot in the web page
or the API, it posts through the players' path with its DP secret, and it plays
the game to the end; ``bot_after_missed`` seats one after missed deadlines
until the GM names a player. On SQLite and (``-k postgresql``) PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest
from web_fixtures import World

from lawspeaker.service import GM, PUBLIC, Forbidden, ServiceError, Viewer
from lawspeaker.store.models import now


def test_a_seated_bot_plays_a_server_game_to_the_end(world: World) -> None:
    svc = world.service
    gm = world.clients["gm"]
    r = gm.post("/games/A/gm/bot", data={"csrf": world.csrf("gm"), "power": "Vanir",
                                         "bot": "tactician"}, follow_redirects=False)
    assert r.status_code == 303, r.text
    assert svc.bot_seats("A", actor=PUBLIC) == {"Vanir": "tactician"}
    report = svc.submissions("A", "Vanir", actor=GM)
    assert report.ok and report.orders and report.allocations  # posted at once, with DP
    assert "Vanir" in svc.ready("A", actor=PUBLIC)
    page = gm.get("/games/A").text
    assert "Seat a bot" in page and "Vanir (tactician)" in page
    # its DP are as secret as anyone's: another player sees none of them
    jotnar = world.clients["Jotnar"]
    for line in report.allocations:
        assert line not in jotnar.get("/games/A").text
    with pytest.raises(Forbidden):
        svc.submissions("A", "Vanir", actor=Viewer.of("Jotnar"))
    # the GM's API seats the rest; the seats' players are the bots until a player is named
    api = {"Authorization": f"Bearer {world.tokens['gm']}"}
    variant = svc.variant_of("A", actor=PUBLIC)
    for i, power in enumerate(sorted(set(variant.powers) - {"Vanir"})):
        r = world.clients["anonymous"].put(f"/api/v1/games/A/bots/{power}", headers=api,
                                           json={"bot": "random" if i % 2 else "hold"})
        assert r.status_code == 200, r.text
    r = world.clients["anonymous"].put("/api/v1/games/A/bots/Aesir", headers=api,
                                       json={"bot": "genius"})
    assert r.status_code == 400
    assert r.json()["error"] == "bot: bot must be one of hold, random, tactician (not 'genius')"
    phases = 0
    while svc.game("A", actor=PUBLIC).result is None:
        status = svc.status("A", actor=PUBLIC)
        for power in status.expected:  # every due seat has posted, and every line stood
            assert svc.submissions("A", power, actor=GM).ok
        assert set(status.expected) <= set(svc.ready("A", actor=PUBLIC))
        r = gm.post("/games/A/gm/process", data={"csrf": world.csrf("gm"),
                                                 "phase": svc.game("A", actor=PUBLIC).phase_code})
        assert r.status_code in (200, 303), r.text
        phases += 1
        assert phases < 200
    assert svc.game("A", actor=PUBLIC).result.startswith(("Solo: Vanir", "Draw"))
    assert any(h.kind == "submitted" or "submitted" in h.summary
               for h in svc.history("A", actor=GM))


def test_missed_deadlines_seat_the_substitute_until_a_player_returns(world: World) -> None:
    svc = world.service
    svc.set_rule("B", "bot_after_missed", "2", actor=GM)
    svc.set_rule("B", "bot_substitute", "random", actor=GM)
    with pytest.raises(ServiceError, match="bot_after_missed must be"):
        svc.set_rule("B", "bot_after_missed", "soon", actor=GM)
    with pytest.raises(ServiceError, match="no bot called 'genius'"):
        svc.set_rule("B", "bot_substitute", "genius", actor=GM)
    assert ("bot_after_missed", "2", True) in svc.rules_in_force("B", actor=PUBLIC)
    svc.set_player("B", "Vanir", "vera", actor=GM)
    svc.set_schedule("B", 60, actor=GM)
    later = now() + timedelta(hours=2)
    assert svc.process_due(at=later) == ["B"]  # the first miss: vera keeps her seat
    assert svc.bot_seats("B", actor=PUBLIC) == {}
    svc.set_ready("B", "Aesir", True,
                  actor=Viewer.of("Aesir"))  # ready with nothing to add: no miss
    assert svc.process_due(at=later + timedelta(hours=2)) == ["B"]
    seats = svc.bot_seats("B", actor=PUBLIC)
    assert seats.get("Vanir") == "random" and "Aesir" not in seats
    kinds = [h.summary for h in svc.history("B", actor=GM)]
    assert any("Vanir missed 2 deadline(s): the random bot plays it" in k for k in kinds)
    # the bot posts for the phase that opened, before its deadline
    assert svc.submissions("B", "Vanir", actor=GM).orders
    svc.set_player("B", "Vanir", "walter", actor=GM)  # a player takes the seat: the bot stops
    assert "Vanir" not in svc.bot_seats("B", actor=PUBLIC)
    assert svc.game("B", actor=PUBLIC).players["Vanir"] == "walter"
