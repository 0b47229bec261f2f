"""The GM's actions on Discord, made from the service's table, and results the GM
reviews before publishing.

Every action of :data:`lawspeaker.service.actions.ACTIONS` is ``/gm <action>``
with the table's arguments as options, handed to :meth:`GameService.act` as
given, so a bad argument gets the service's own sentence. With the house rule
``review=yes`` (the default of a game made on Discord), ``/gm process`` shows
the results to the GM alone, ``/gm publish`` makes them public and the herald
posts them; a preview the scheduler makes at a deadline is told to the GMs in
one DM. Driven through the fake Discord server of tests/discord_fake.py, which
knows who reads each reply.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from discord_fake import AESIR_POST, VANIR_POST, Delivery, FakeDiscord, saga, text

from lawspeaker.discord import gm
from lawspeaker.discord.commands import ACTION_COMMANDS, COMMANDS
from lawspeaker.discord.handlers import CHANGES_PHASE, Handlers
from lawspeaker.discord.text import publish_time
from lawspeaker.service import GM, PUBLIC, GameService, ServiceError, Viewer
from lawspeaker.service.actions import ACTIONS, ActionResult, Param
from lawspeaker.service.review import PreviewStale
from lawspeaker.store.models import now

SPECS = {spec.name: spec for spec in COMMANDS}


@pytest.fixture
def table(service: GameService) -> FakeDiscord:
    return saga(service)


# --- made from the table ----------------------------------------------------------------

@pytest.mark.parametrize("name", list(ACTIONS))
def test_every_action_is_a_gm_command_answered_by_the_one_handler(
        service: GameService, name: str) -> None:
    action = ACTIONS[name]
    spec = SPECS[f"gm {name}"]
    assert ACTION_COMMANDS[spec.name] == name
    assert spec.description.rstrip("…")[:40].lower() == action.summary[:40].lower()
    options = {o.name: o for o in spec.options}
    assert set(options) == {p.name for p in action.params} | {"game"}
    assert not options["game"].required
    for param in action.params:
        option = options[param.name]
        assert option.kind == "text" and option.required == param.required
        assert option.description.lower().startswith(param.help[:30].lower())
        if param.kind == "choice":
            assert option.choices == param.choices
    assert Handlers(service).table[spec.name] is gm.action  # one handler, no copies


def test_the_discord_only_commands_are_no_actions_and_announcements_are_actions() -> None:
    own = {c.name for c in COMMANDS if c.group == "gm"} - set(ACTION_COMMANDS)
    assert own == {"gm create", "gm bind", "gm unbind", "gm private", "gm seat", "gm cogm",
                   "gm orders", "gm preview"}
    assert set(ACTIONS) >= gm.ANNOUNCED
    assert {"gm process", "gm publish", "gm undo"} == CHANGES_PHASE


def _sample(param: Param) -> str | None:
    if param.kind in ("power", "seat"):
        return "Vanir"
    return {"minutes": "90", "choice": (param.choices or ("x",))[0], "bot": "hold",
            "phase": None}.get(param.kind, "some text")


@pytest.mark.parametrize("name", list(ACTIONS))
def test_the_options_go_to_the_service_as_given(table: FakeDiscord, name: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The handler hands the service what the GM typed, under the table's names,
    for the game the command is about, as the user the service knows."""
    d = table
    calls: list[tuple[str, str, dict[str, object], Viewer]] = []

    def act(game: str, action: str, args: dict[str, object], *, actor: Viewer
            ) -> ActionResult:
        calls.append((game, action, args, actor))
        return ActionResult(f"did {action}")

    monkeypatch.setattr(d.service, "act", act)
    given = {p.name: _sample(p) for p in ACTIONS[name].params if _sample(p) is not None}
    replies = d.slash("gm", d.dm("gm"), f"gm {name}", game="Saga", **given)
    assert calls == [("Saga", name, given, GM)]
    assert f"did {name}" in text(replies) and "Error" not in text(replies)


BAD = [
    ("extend", {"minutes": "soon"}),
    ("extend", {}),
    ("extend", {"hours": 2}),  # the old /gm extend's option
    ("schedule", {"phase_minutes": "99d"}),
    ("draw-rule", {"rule": "maybe"}),
    ("bot", {"power": "Vanir", "bot": "genius"}),
    ("eliminate", {"power": "Narnia"}),
    ("rule", {"key": "review", "value": "perhaps"}),
    ("publish", {}),  # no preview waits
    ("undo", {"to": "A1999M"}),
]


@pytest.mark.parametrize(("name", "args"), BAD)
def test_a_bad_argument_gets_the_services_sentence(table: FakeDiscord, name: str,
                                                   args: dict[str, Any]) -> None:
    d, svc = table, table.service
    before = svc.history("Saga", actor=GM)
    (reply,) = d.slash("gm", "saga", f"gm {name}", **args)
    with pytest.raises(ServiceError) as refused:
        svc.act("Saga", name, dict(args), actor=GM)
    assert reply.reply.content == f"Error: {refused.value}"
    assert reply.readers == {"gm"}  # ephemeral: the GM's mistake is the GM's alone
    assert svc.history("Saga", actor=GM) == before


def test_a_secret_link_is_shown_to_the_gm_alone_and_works(table: FakeDiscord) -> None:
    d, svc = table, table.service
    (reply,) = d.slash("gm", "saga", "gm link", seat="Vanir")
    assert reply.readers == {"gm"} and reply.reply.secret
    token = reply.reply.content.split("/join link:")[1].split("`")[0]
    joined = d.slash("carol", d.dm("carol"), "join", link=token)
    assert "You are Vanir in Saga" in text(joined)
    assert svc.chat_viewer("discord", "carol", "Saga").power == "Vanir"


# --- results the GM reviews ---------------------------------------------------------------

def _public_state(svc: GameService) -> tuple[object, ...]:
    return (svc.game("Saga", actor=PUBLIC), svc.progress("Saga", actor=PUBLIC),
            len(svc.history("Saga", actor=PUBLIC)))


def _outsiders(d: FakeDiscord, since: int) -> list[Delivery]:
    """The deliveries since ``since`` that anyone but the GM read."""
    return [x for x in d.log[since:] if x.readers - {"gm"}]


def test_results_are_reviewed_by_the_gm_then_published(table: FakeDiscord) -> None:
    d, svc = table, table.service
    d.say("alice", "aesir", "orders\n" + AESIR_POST)
    d.say("bob", "vanir", "orders\n" + VANIR_POST)
    before_map = d.slash("carol", "saga", "map")[0].reply.files[0].data
    start = len(d.log)

    # The GM processes: the results and their map go to the GM alone.
    (shown,) = d.slash("gm", "saga", "gm process")
    assert shown.readers == {"gm"} and shown.reply.ephemeral and shown.reply.secret
    assert "F Asgard - Idavollr" in shown.reply.content  # Aesir's result
    assert "DP" in shown.reply.content and "Only you see this" in shown.reply.content
    assert shown.reply.files[0].data.startswith(b"\x89PNG")
    assert svc.game("Saga", actor=PUBLIC).phase_code == "S1M"
    assert d.tick() == []  # the herald: nothing new to post
    # In a DM the answer is plain (only the GM reads a DM); /gm preview shows it again.
    again = d.slash("gm", d.dm("gm"), "gm preview", game="Saga")
    assert again[0].readers == {"gm"} and again[0].reply.files
    # Players and onlookers see nothing of it: no results, no map, only that it waits.
    status = text(d.slash("carol", "saga", "status"))
    assert "reviewing" in status and "Idavollr" not in status
    assert d.slash("carol", "saga", "map")[0].reply.files[0].data == before_map
    assert "Error" in text(d.slash("bob", "vanir", "gm preview"))
    for delivery in _outsiders(d, start):
        assert "Idavollr" not in delivery.reply.content, delivery
        assert not delivery.reply.files or delivery.by == "map", delivery
    assert not [x for x in d.log[start:] if x.reply.channel == "saga"]

    # A player changes an order: the preview no longer shows what would be published.
    d.say("bob", "vanir", "orders\nA Van H")
    state = _public_state(svc)
    (stale,) = d.slash("gm", "saga", "gm publish")
    with pytest.raises(PreviewStale) as refused:
        svc.publish("Saga", actor=GM)
    assert stale.reply.content == f"Error: {refused.value}" and stale.readers == {"gm"}
    assert "out of date" in stale.reply.content and _public_state(svc) == state

    # Processed again and published: the herald's next look posts the results.
    assert d.slash("gm", "saga", "gm process")[0].readers == {"gm"}
    d.handlers.after = None  # as when the web page or another bot publishes
    (done,) = d.slash("gm", "saga", "gm publish")
    assert "published" in done.reply.content and done.readers == {"gm"}
    assert svc.game("Saga", actor=PUBLIC).phase_code == "A1M"
    posted = d.tick()
    assert [x.reply.channel for x in posted] == ["saga"] * 3
    assert "F Asgard - Idavollr" in posted[0].reply.content
    assert "DP to" not in posted[0].reply.content  # never the secret part (S9 §9.0)
    assert posted[1].reply.files[0].data.startswith(b"\x89PNG")
    assert "Autumn" in posted[2].reply.content

    # A second publish (a double click) changes nothing and posts nothing.
    state = _public_state(svc)
    (twice,) = d.slash("gm", "saga", "gm publish")
    assert twice.reply.content.startswith("Error:") and "there is none" in twice.reply.content
    assert _public_state(svc) == state and d.tick() == []


def test_a_discarded_preview_leaves_the_phase_open(table: FakeDiscord) -> None:
    d, svc = table, table.service
    d.slash("gm", "saga", "gm process")
    (dropped,) = d.slash("gm", "saga", "gm discard")
    assert "discarded" in dropped.reply.content and dropped.readers == {"gm"}
    assert svc.preview("Saga", actor=GM) is None
    assert "No results of Saga wait" in text(d.slash("gm", "saga", "gm preview"))
    assert svc.game("Saga", actor=PUBLIC).phase_code == "S1M" and d.tick() == []


def test_a_game_made_with_review_no_publishes_at_once(service: GameService) -> None:
    d = saga(service, rules="review=no")
    posted = d.slash("gm", "saga", "gm process")
    assert [x.reply.channel for x in posted if x.reply.channel] == ["saga"] * 3
    assert service.game("Saga", actor=PUBLIC).phase_code == "A1M"


def test_the_gms_are_told_once_of_a_preview_made_at_the_deadline(table: FakeDiscord) -> None:
    d, svc = table, table.service
    d.slash("gm", "saga", "gm cogm", user="@carol")
    d.slash("gm", "saga", "gm schedule", phase_minutes="24h")
    d.say("alice", "aesir", "orders\n" + AESIR_POST)
    start = len(d.log)
    first = d.tick(now() + timedelta(hours=25))
    found = svc.preview("Saga", actor=GM)
    assert found is not None and found.made_by == "scheduler"
    told = [x for x in first if x.reply.user is not None]
    assert sorted(x.reply.user or "" for x in told) == ["carol", "gm"]  # both GMs, by DM
    assert all(x.readers == {x.reply.user} and not x.reply.files for x in told)
    assert "wait for your review" in told[0].reply.content
    assert publish_time(found) in told[0].reply.content and "UTC" in told[0].reply.content
    assert "Idavollr" not in text(first)  # a notice, never the results
    assert svc.game("Saga", actor=PUBLIC).phase_code == "S1M"
    # Once per preview, not per tick; nothing of it in any channel.
    later = d.tick(now() + timedelta(hours=26))
    assert not [x for x in later if x.reply.user is not None]
    assert not [x for x in d.log[start:] if x.reply.channel == "saga"]
    # The GM publishes it: the herald posts the results as for any processed phase.
    d.slash("carol", d.dm("carol"), "gm publish", game="Saga")
    assert svc.game("Saga", actor=PUBLIC).phase_code == "A1M"
    assert "F Asgard - Idavollr" in d.seen_by("bob")
