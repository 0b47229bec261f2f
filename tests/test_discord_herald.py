"""The herald: what the bot posts unasked, whoever changed the game (the GM
here, the web page, the scheduler), once, even across restarts."""

from __future__ import annotations

from datetime import timedelta

import pytest
from discord_fake import AESIR_POST, FakeDiscord, saga

from lawspeaker.discord.herald import Herald
from lawspeaker.service import GM, PUBLIC, GameService
from lawspeaker.store.models import now


@pytest.fixture
def table(service: GameService) -> FakeDiscord:
    """Saga with results published at once (review=no): the herald's part in a
    game with review is in tests/test_discord_actions.py."""
    return saga(service, rules="review=no")


def test_a_phase_processed_elsewhere_is_posted_once(table: FakeDiscord) -> None:
    d, svc = table, table.service
    svc.submit("Saga", "Aesir", AESIR_POST, actor=GM)
    svc.process("Saga", actor=GM)  # the web page's Process, or the CLI
    posted = d.tick()
    assert [x.reply.channel for x in posted] == ["saga"] * 3
    assert "Bounced" in posted[0].reply.content or "F Asgard" in posted[0].reply.content
    assert "DP to" not in posted[0].reply.content
    assert posted[1].reply.files and posted[1].reply.files[0].filename == "saga-1.png"
    assert "Autumn Orders" in posted[2].reply.content
    assert d.tick() == []
    assert Herald(svc).tick() == []  # a restarted bot: the store remembers


def test_several_public_channels_each_get_the_post(table: FakeDiscord) -> None:
    d, svc = table, table.service
    d.shared("saga-watchers")
    d.slash("gm", "saga-watchers", "gm bind", game="Saga")
    svc.process("Saga", actor=GM)
    assert sorted({x.reply.channel for x in d.tick()}) == ["saga", "saga-watchers"]


def test_a_rollback_is_announced(table: FakeDiscord) -> None:
    d, svc = table, table.service
    svc.process("Saga", actor=GM)
    d.tick()
    svc.undo("Saga", actor=GM)
    posted = d.tick()
    assert len(posted) == 1 and "rolled the game back" in posted[0].reply.content
    assert "Spring Orders" in posted[0].reply.content


def test_a_reminder_without_a_private_channel_is_a_dm(table: FakeDiscord) -> None:
    d, svc = table, table.service
    svc.unbind_channel("discord", "vanir", actor=GM)
    svc.set_schedule("Saga", 24 * 60, actor=GM)
    late = d.tick(now() + timedelta(hours=23))
    targets = {(x.reply.channel, x.reply.user) for x in late}
    assert targets == {("aesir", None), (None, "bob")}
    assert all("no orders from" in x.reply.content for x in late)


def test_a_paused_game_is_not_reminded(table: FakeDiscord) -> None:
    d, svc = table, table.service
    svc.set_schedule("Saga", 24 * 60, actor=GM)
    svc.pause("Saga", actor=GM)
    assert d.tick(now() + timedelta(hours=30)) == []
    assert svc.game("Saga", actor=PUBLIC).phase_code == "S1M"  # nor processed


def test_the_scheduler_can_be_left_to_the_server(table: FakeDiscord) -> None:
    d, svc = table, table.service
    svc.set_schedule("Saga", 60, actor=GM)
    d.herald = Herald(svc, scheduler=False)
    d.tick(now() + timedelta(hours=2))
    assert svc.game("Saga", actor=PUBLIC).phase_code == "S1M"


def test_two_bots_on_one_database_post_once(table: FakeDiscord) -> None:
    svc = table.service
    svc.process("Saga", actor=GM)
    phase_id = svc.progress("Saga", actor=PUBLIC)[0]
    first = svc.claim_post("discord", "saga", "announced", phase_id)
    second = svc.claim_post("discord", "saga", "announced", phase_id)
    assert first[0] and not second[0] and second[1] == phase_id
    assert Herald(svc).tick() == []  # the claim stands for every bot
