"""The discord.py glue, offline: the command tree as Discord would receive it,
recorded interaction payloads (tests/discord_recorded/, in the shape of
Discord's INTERACTION_CREATE events) parsed by discord.py itself and turned
into the handlers' values, replies sent where they belong, long posts cut to
Discord's limit, and ``lawspeaker discord`` without a token. Nothing here
reaches Discord."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import discord
import pytest
from click.testing import CliRunner

from lawspeaker.cli import main
from lawspeaker.discord.bot import Sender, build_tree, interaction_of, visibility_of
from lawspeaker.discord.commands import COMMANDS, NAME, CommandSpec
from lawspeaker.discord.handlers import Handlers
from lawspeaker.discord.interaction import Attachment, Member, Reply
from lawspeaker.discord.text import LIMIT, chunks
from lawspeaker.service import GameService

RECORDED = Path(__file__).parent / "discord_recorded"


def _load(name: str) -> dict[str, Any]:
    return json.loads((RECORDED / f"{name}.json").read_text())


def _client() -> discord.Client:
    client = discord.Client(intents=discord.Intents.default())
    state = client._connection
    state.user = discord.ClientUser(state=state, data={
        "id": "5", "username": "lawspeaker", "discriminator": "0", "avatar": None, "bot": True})
    state._add_guild_from_data(_load("guild"))
    return client


def _call(payload: str) -> tuple[discord.Interaction, CommandSpec, dict[str, Any]]:
    """Run a recorded interaction through discord.py's command tree; what our
    callback received."""
    seen: list[tuple[discord.Interaction, CommandSpec, dict[str, Any]]] = []

    async def run(interaction: discord.Interaction, spec: CommandSpec,
                  options: dict[str, Any]) -> None:
        seen.append((interaction, spec, options))

    async def go() -> None:
        client = _client()
        tree = build_tree(client, run)
        await tree._call(discord.Interaction(data=_load(payload), state=client._connection))

    asyncio.run(go())
    assert len(seen) == 1
    return seen[0]


def test_the_tree_registers_every_command_with_its_options() -> None:
    tree = build_tree(_client(), lambda *a: None)  # type: ignore[arg-type,return-value]
    payload = {c["name"]: c for c in (cmd.to_dict(tree) for cmd in tree.get_commands())}
    top = [c for c in COMMANDS if c.group is None]
    assert set(payload) == {c.name for c in top} | {"gm"}
    gm = {sub["name"]: sub for sub in payload["gm"]["options"]}
    assert set(gm) == {c.leaf for c in COMMANDS if c.group == "gm"}
    assert [(o["name"], o["type"], o["required"]) for o in gm["seat"]["options"]] == [
        ("power", 3, True), ("user", 6, True), ("game", 3, False)]
    assert (payload["draw"]["options"][0]["name"], payload["draw"]["options"][0]["type"]) == (
        "vote", 5)
    # made from the service's table: durations are text (12h, 2d), choices offered
    assert [(o["name"], o["type"], o["required"]) for o in gm["schedule"]["options"]] == [
        ("phase_minutes", 3, False), ("grace_minutes", 3, False), ("timezone", 3, False),
        ("game", 3, False)]
    assert [(o["name"], o["required"]) for o in gm["extend"]["options"]] == [
        ("minutes", True), ("game", False)]
    assert [c["value"] for c in gm["draw-rule"]["options"][0]["choices"]] == [
        "none", "unanimous", "majority"]
    assert {c["value"] for c in gm["bot"]["options"][1]["choices"]} >= {"hold", "tactician"}
    for spec in COMMANDS:  # Discord's limits
        assert 1 <= len(spec.description) <= 100 and NAME.match(spec.leaf), spec
        assert all(len(o.description) <= 100 and NAME.match(o.name) for o in spec.options)
        assert len(spec.options) <= 25 and all(len(o.choices) <= 25 for o in spec.options)
        required = [o.required for o in spec.options]
        assert required == sorted(required, reverse=True), spec  # required ones first


def test_commands_and_handlers_agree(service: GameService) -> None:
    handlers = Handlers(service)
    assert {c.name for c in COMMANDS} == set(handlers.table) | set(handlers.before_game) | {
        "help"}


def test_a_recorded_slash_command_in_a_private_channel() -> None:
    interaction, spec, options = _call("orders_in_private_channel")
    assert spec.name == "orders"
    assert options == {"text": "F Asg - Ida; 2 DP to F Permyak H", "phase": "S1M",
                       "game": None, "power": None}
    inter = interaction_of(interaction, spec, options)
    assert (inter.user, inter.user_name, inter.channel, inter.guild) == ("42", "Alice", "201",
                                                                         "100")
    assert inter.visibility == "private"  # @everyone may not view #aesir
    assert not inter.may_manage


def test_a_recorded_gm_command_with_a_user_option() -> None:
    interaction, spec, options = _call("gm_seat_in_public_channel")
    inter = interaction_of(interaction, spec, options)
    assert inter.command == "gm seat" and inter.visibility == "shared"
    assert inter.options["user"] == Member("42", "Alice")
    assert inter.options["power"] == "Aesir" and inter.may_manage


def test_recorded_gm_actions_made_from_the_services_table() -> None:
    interaction, spec, options = _call("gm_schedule_in_public_channel")
    inter = interaction_of(interaction, spec, options)
    assert inter.command == "gm schedule"
    assert inter.options == {"phase_minutes": "12h", "grace_minutes": "30",
                             "timezone": None, "game": None}
    interaction, spec, options = _call("gm_draw_rule_in_dm")
    inter = interaction_of(interaction, spec, options)
    assert inter.command == "gm draw-rule" and inter.is_dm
    assert inter.options == {"rule": "majority", "game": "Saga"}


def test_a_recorded_command_in_a_dm() -> None:
    interaction, spec, options = _call("draw_in_dm")
    inter = interaction_of(interaction, spec, options)
    assert inter.visibility == "dm" and inter.is_dm and inter.guild == ""
    assert inter.options["vote"] is True


class FakeChannel(discord.abc.Messageable):
    def __init__(self) -> None:
        self.sent: list[tuple[str, list[str]]] = []

    async def _get_channel(self) -> Any:  # pragma: no cover - never called
        return self

    async def send(self, content: str = "", files: Any = None, **kw: Any) -> None:  # type: ignore[override]
        self.sent.append((content, [f.filename for f in files or []]))


class FakeInteraction:
    """What Sender uses of a deferred interaction."""

    def __init__(self) -> None:
        self.channel = FakeChannel()
        self.ephemeral: list[tuple[str, list[str]]] = []
        self.deleted = False
        outer = self

        class Followup:
            async def send(self, content: str, files: Any = None, ephemeral: bool = False
                           ) -> None:
                assert ephemeral
                outer.ephemeral.append((content, [f.filename for f in files or []]))

        self.followup = Followup()

    async def delete_original_response(self) -> None:
        self.deleted = True


def test_replies_go_where_the_handler_says() -> None:
    sender = Sender(_client())
    fake = FakeInteraction()
    secret = Reply("your orders", ephemeral=True, secret=True)
    public = Reply("x\n" * 1500, files=(Attachment("map.png", b"\x89PNG"),))
    asyncio.run(sender.to_interaction(fake, [secret, public]))  # type: ignore[arg-type]
    assert fake.ephemeral == [("your orders", [])]  # only the user sees it
    assert len(fake.channel.sent) == 2  # 3,000 characters: two messages
    assert fake.channel.sent[-1][1] == ["map.png"] and fake.channel.sent[0][1] == []
    assert not fake.deleted
    only_public = FakeInteraction()
    asyncio.run(sender.to_interaction(only_public, [Reply("done")]))  # type: ignore[arg-type]
    assert only_public.deleted and only_public.channel.sent == [("done", [])]


@pytest.mark.parametrize("size", [10, 1999, 2000, 2001, 7000])
def test_long_posts_are_cut_to_discords_limit(size: int) -> None:
    lines = [f"- F Unit{n} H: Holds" for n in range(size // 20 + 1)]
    text = "## Results\n```\n" + "\n".join(lines) + "\n```\ntail"
    parts = chunks(text)
    assert all(len(p) <= LIMIT for p in parts)
    assert all(p.count("```") % 2 == 0 for p in parts)  # every code block closed
    joined = "\n".join(parts).replace("\n```\n```", "")
    assert [line for line in joined.splitlines() if line.startswith("- F")] == lines
    assert chunks("y" * 4500)[0] == "y" * (LIMIT - 8)


def test_the_command_without_a_token_says_how_to_make_a_bot(monkeypatch: pytest.MonkeyPatch,
                                                             tmp_path: Path) -> None:
    monkeypatch.delenv("LAWSPEAKER_DISCORD_TOKEN", raising=False)
    result = CliRunner().invoke(main, ["discord", "--db", str(tmp_path / "g.db")])
    assert result.exit_code == 1 and result.output.startswith("Error: no bot token")
    assert "LAWSPEAKER_DISCORD_TOKEN" in result.output
    assert "Message Content Intent" in result.output and "applications.commands" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "g.db").exists()  # nothing touched


def test_a_channel_is_private_only_if_no_role_is_let_in() -> None:
    client = _client()
    guild = client.get_guild(100)
    assert guild is not None
    visibility = {c.name: visibility_of(c, guild) for c in guild.channels}
    assert visibility == {"saga": "shared", "aesir": "private", "vanir-leaky": "shared"}
    assert visibility_of(object(), guild) == "shared"  # what the bot cannot tell
