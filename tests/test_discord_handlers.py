"""The Discord front end's handlers over a real store (SQLite; PostgreSQL too
when LAWSPEAKER_TEST_PG is set), driven through a fake Discord server
(tests/discord_fake.py) that knows who can read each channel.

A game of Saga of the Nine played from Discord; the secrecy matrix: every
command, used by every kind of user in every kind of place, never lets
anyone but a power's player and the GM read its orders, DP or ballot before
the rules reveal them; no one but the GM runs a GM command.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from discord_fake import AESIR_POST, POSTS, POWERS, VANIR_POST, FakeDiscord, saga, text

from lawspeaker.discord.commands import ACTION_COMMANDS, COMMANDS
from lawspeaker.discord.handlers import orders_body
from lawspeaker.discord.interaction import Attachment
from lawspeaker.service import GM, PUBLIC, GameService, Viewer
from lawspeaker.service.actions import ACTIONS, Param
from lawspeaker.store.models import now


@pytest.fixture
def table(service: GameService) -> FakeDiscord:
    return saga(service)


def secrets(service: GameService) -> dict[str, list[str]]:
    """Each power's standing orders and DP allocations as the adjudicator reads them."""
    out = {}
    for user, power in POWERS.items():
        report = service.submissions("Saga", power, actor=GM)
        out[user] = [*report.orders, *report.allocations, f"vote for {power}"]
    return out


def assert_nothing_leaked(discord: FakeDiscord) -> None:
    marks = secrets(discord.service)
    for owner, texts in marks.items():
        for outsider in {"alice", "bob", "carol"} - {owner}:
            seen = discord.seen_by(outsider)
            for secret in texts:
                assert secret not in seen, f"{outsider} read {owner}'s '{secret}'"
    for delivery in discord.log:
        if delivery.reply.secret and delivery.reply.files:  # a map with the orders drawn
            # a player's: read by the player and the GM; the GM's (every order): the GM's
            assert delivery.readers <= {delivery.user, "gm"}, delivery


def test_a_game_is_played_from_discord(table: FakeDiscord) -> None:
    d, svc = table, table.service
    assert svc.game("Saga", actor=PUBLIC).players == {"Aesir": "Alice", "Vanir": "Bob"}
    # Alice pastes her post in her private channel, as on a forum.
    answer = d.say("alice", "aesir", "Orders for spring\n" + AESIR_POST)
    assert len(answer) == 1 and answer[0].readers == {"alice", "gm"}
    assert "line 1: ok         F Asgard - Idavollr" in answer[0].reply.content
    assert "2 DP to F Permyak Marry Heir Asgard" in answer[0].reply.content
    # Bob sends his in a DM to the bot, in a code block.
    answer = d.say("bob", d.dm("bob"), f"```\n{VANIR_POST}\n```")
    assert answer[0].readers == {"bob"} and "line 1: ok" in answer[0].reply.content
    assert svc.status("Saga", actor=PUBLIC).submitted == ("Aesir", "Vanir")
    # /status is public and says who is missing, never what was ordered.
    status = d.slash("carol", "saga", "status")
    assert status[0].readers == set(d.users) and "Missing: " in status[0].reply.content
    # The GM processes: the results wait for the GM's review (only the GM sees them),
    # then the GM publishes: results, the map and the new phase in the public channel.
    previewed = d.slash("gm", "saga", "gm process")
    assert [p.readers for p in previewed] == [{"gm"}] and previewed[0].reply.secret
    assert svc.game("Saga", actor=PUBLIC).phase_code == "S1M"
    posted = d.slash("gm", "saga", "gm publish")
    public = [p for p in posted if p.reply.channel == "saga"]
    assert [p.readers for p in public] == [set(d.users)] * 3
    assert "F Asgard - Idavollr" in public[0].reply.content  # results are public now
    assert "DP to" not in public[0].reply.content  # allocations never (S9 §9.0)
    assert public[1].reply.files[0].data.startswith(b"\x89PNG")
    assert "Autumn Orders" in public[2].reply.content and "begins" in public[2].reply.content
    # The neutral's chosen order is public (S9 §9.0); who put DP on it is not.
    assert "DP to F Permyak" not in d.seen_by("carol") + d.seen_by("bob")
    # Nothing twice: the herald's next look finds the phase announced.
    assert d.tick() == []
    assert "Spring Orders" in text(d.slash("carol", "saga", "results"))


def test_orders_are_read_only_where_they_stay_private(table: FakeDiscord) -> None:
    d = table
    assert d.say("alice", "saga", "orders\n" + AESIR_POST) == []  # the public channel
    assert d.say("alice", "aesir", "I think Vanir will attack") == []  # conversation
    assert d.say("bob", "aesir", "orders\n" + VANIR_POST)[0].reply.content.startswith(
        "Error: Vanir may not submit orders for Aesir")  # not his channel
    assert d.service.status("Saga", actor=PUBLIC).submitted == ()
    # A long post arrives as message.txt (Discord turns it into a file).
    sent = d.say("alice", "aesir", "", files=(Attachment("message.txt",
                                                         ("orders\n" + AESIR_POST).encode()),))
    assert "line 1: ok" in text(sent) and d.service.status("Saga",
                                                           actor=PUBLIC).submitted == ("Aesir",)
    assert orders_body("```text\nF Asg H\n```") == "F Asg H\n"
    assert orders_body("Orders S401\nF Asg H") == "F Asg H"
    assert orders_body("hello") is None


def test_slash_orders_take_lines_separated_by_semicolons(table: FakeDiscord) -> None:
    d = table
    sent = d.slash("alice", "saga", "orders", text=AESIR_POST.replace("\n", "; "))
    assert sent[0].readers == {"alice"} and sent[0].reply.ephemeral
    assert d.service.submissions("Saga", "Aesir", actor=GM).allocations
    checked = d.slash("alice", d.dm("alice"), "check", text="F Asg - Nowhere")
    assert "unreadable" in checked[0].reply.content or "illegal" in checked[0].reply.content
    assert len(d.service.submissions("Saga", "Aesir",
                                     actor=GM).orders) == 1  # a check keeps nothing
    mine = d.slash("alice", "aesir", "myorders")
    assert mine[0].readers == {"alice", "gm"} and not mine[0].reply.ephemeral
    assert "post 1, line 1: ok         F Asgard - Idavollr" in mine[0].reply.content
    stale = d.slash("alice", "aesir", "orders", text="F Asg H", phase="A401M")
    assert "Error:" in stale[0].reply.content


def test_one_seat_per_power_and_links_from_the_web(table: FakeDiscord) -> None:
    d, svc = table, table.service
    d.slash("gm", "saga", "gm seat", power="Aesir", user="@carol")  # alice dropped out
    assert "no seat" in text(d.slash("alice", d.dm("alice"), "myorders", game="Saga"))
    token = svc.issue_link("Saga", "Aesir", actor=GM)
    joined = d.slash("alice", d.dm("alice"), "join", link=f"http://x/join/{token}")
    assert "You are Aesir in Saga" in text(joined)
    assert svc.chat_viewer("discord", "carol", "Saga").power is None
    assert "Error:" in text(d.slash("carol", d.dm("carol"), "join", link="nope"))


def test_gm_commands_over_discord(table: FakeDiscord) -> None:
    d, svc = table, table.service
    assert "a phase runs 2 day(s), grace 30 min" in text(d.slash(
        "gm", "saga", "gm schedule", phase_minutes="48h", grace_minutes=30,
        timezone="Europe/Berlin"))
    assert svc.schedule("Saga", actor=PUBLIC).phase_minutes == 48 * 60
    assert "extended by 2 hour(s)" in text(d.slash("gm", "saga", "gm extend", minutes="2h"))
    paused = d.slash("gm", "saga", "gm pause")
    assert svc.schedule("Saga", actor=PUBLIC).paused and paused[0].readers == set(d.users)
    d.slash("gm", "saga", "gm resume")
    assert not svc.schedule("Saga", actor=PUBLIC).paused
    assert "house rule" in text(d.slash("gm", "saga", "gm rule", key="reveal_dp_at_end",
                                        value="yes"))
    assert "reveal_dp_at_end = yes (house rule)" in text(d.slash("carol", "saga", "rules"))
    assert "review = yes (house rule)" in text(d.slash("carol", "saga", "rules"))
    assert "majority" in text(d.slash("gm", "saga", "gm draw-rule", rule="majority"))
    assert "eliminated" in text(d.slash("gm", "saga", "gm eliminate", power="Vanir"))
    d.slash("gm", "saga", "gm process")
    d.slash("gm", "saga", "gm publish")
    assert svc.game("Saga", actor=PUBLIC).phase_code == "A1M"
    back = d.slash("gm", "saga", "gm undo")
    assert "rolled the game back" in text(back) and svc.game("Saga",
                                                             actor=PUBLIC).phase_code == "S1M"
    assert "Error: unknown variant" in text(d.slash("gm", "saga", "gm create",
                                                    variant="../etc", name="X"))
    assert "already serves" in text(d.slash("gm", "saga", "gm create", variant="standard",
                                            name="Y"))
    assert "Error:" in text(d.slash("gm", d.dm("gm"), "gm create", variant="standard",
                                    name="Z"))


def _sample(param: Param, user: str) -> object:
    """A sensible value of a GM action's argument (any action, from the table)."""
    if param.kind in ("power", "seat"):
        return "Vanir"
    if param.kind == "minutes":
        return "1h"
    if param.kind in ("choice", "bot"):
        return (param.choices or ("hold",))[0]
    if param.kind == "phase":
        return None
    return {"key": "reveal_dp_at_end", "value": "yes"}.get(param.name, user.title())


def _options(command: str, user: str) -> dict[str, object]:
    """Sensible options for every command, as each kind of user would give them."""
    if command in ACTION_COMMANDS:
        params = ACTIONS[ACTION_COMMANDS[command]].params
        return {p.name: _sample(p, user) for p in params if _sample(p, user) is not None}
    post = POSTS.get(user, AESIR_POST).replace("\n", "; ")
    mine = {} if user in POWERS else {"power": "Aesir"}
    return {
        "orders": {"text": post, **mine}, "check": {"text": post, **mine},
        "myorders": mine, "template": mine, "map": {"orders": True, **mine},
        "draw": {"vote": True, **mine}, "ready": {"value": True, **mine},
        "join": {"link": "not-a-link"}, "gm create": {"variant": "standard", "name": "Mine"},
        "gm bind": {"game": "Saga"}, "gm private": {"power": "Vanir"},
        "gm seat": {"power": "Vanir", "user": f"@{user}"}, "gm cogm": {"user": f"@{user}"},
    }.get(command, {})


def _state(svc: GameService) -> tuple[object, ...]:
    """Everything a GM command may change, as the GM reads it."""
    return (svc.game("Saga", actor=PUBLIC), svc.channels("discord"),
            svc.chat_holders("discord", "Saga", actor=PUBLIC), svc.schedule("Saga", actor=GM),
            svc.rules_in_force("Saga", actor=GM), svc.bot_seats("Saga", actor=GM),
            svc.linked_seats("Saga", actor=GM), svc.preview("Saga", actor=GM),
            len(svc.history("Saga", actor=GM)), [g.name for g in svc.list_games()])


PLACES = ("saga", "aesir", "vanir", "dm")


@pytest.mark.parametrize("command", [c.name for c in COMMANDS])
def test_secrecy_matrix(table: FakeDiscord, command: str) -> None:
    """Every command, by every user, in every place: no orders, DP or ballot of
    a power is read by anyone but its player and the GM; only the GM runs GM
    commands (and ``gm create`` only who may manage the server)."""
    d, svc = table, table.service
    d.say("alice", "aesir", "orders\n" + AESIR_POST)
    d.say("bob", "vanir", "orders\n" + VANIR_POST)
    svc.vote_draw("Saga", "Aesir", True, actor=Viewer.of("Aesir"))
    svc.process("Saga", actor=GM)  # a preview waits: publish and discard have one to touch
    before = _state(svc)
    users = ("alice", "bob", "carol") + (("gm",) if not command.startswith("gm ") or
                                         command == "gm orders" else ())
    for user in users:
        for place in PLACES:
            channel = d.dm(user) if place == "dm" else place
            replies = d.slash(user, channel, command, **_options(command, user))
            if command.startswith("gm ") and user != "gm":
                assert len(replies) == 1 and replies[0].readers == {user}
                assert replies[0].reply.content.startswith("Error:"), replies
    assert_nothing_leaked(d)
    if command.startswith("gm ") and command != "gm orders":
        assert _state(svc) == before  # refused: nothing changed


def test_the_gm_seats_a_bot_that_posts_as_a_player_and_keeps_its_dp_secret(
        table: FakeDiscord) -> None:
    d, svc = table, table.service
    (reply,) = d.slash("gm", "saga", "gm bot", power="Vanir", bot="tactician")
    assert "played by the tactician bot" in reply.reply.content
    assert svc.bot_seats("Saga", actor=PUBLIC) == {"Vanir": "tactician"}
    posted = svc.submissions("Saga", "Vanir", actor=GM)
    assert posted.orders  # it posted for the open phase at once, as a player would
    assert "Vanir" in svc.status("Saga", actor=PUBLIC).submitted
    assert_nothing_leaked(d)
    refused = d.slash("alice", "aesir", "gm bot", power="Jotnar")
    assert refused[0].reply.content.startswith("Error:")
    assert "Jotnar" not in svc.bot_seats("Saga", actor=PUBLIC)


def test_a_reminder_goes_to_the_powers_without_orders(table: FakeDiscord) -> None:
    d, svc = table, table.service
    d.slash("gm", "saga", "gm rule", key="review", value="no")  # results published at once
    d.slash("gm", "saga", "gm schedule", phase_minutes="24h")
    d.say("alice", "aesir", "orders\n" + AESIR_POST)
    assert d.tick(now() + timedelta(hours=1)) == []  # the deadline is far
    late = d.tick(now() + timedelta(hours=19))
    assert [(x.reply.channel, x.readers) for x in late] == [("vanir", {"bob", "gm"})]
    assert "no orders from Vanir" in late[0].reply.content
    assert d.tick(now() + timedelta(hours=20)) == []  # once per phase
    # At the deadline the bot's scheduler processes, and the results are posted.
    posted = d.tick(now() + timedelta(hours=25))
    assert svc.game("Saga", actor=PUBLIC).phase_code == "A1M"
    assert [x.reply.channel for x in posted][:3] == ["saga"] * 3
