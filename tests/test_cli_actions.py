"""The GM's actions at the command line: one ``lawspeaker game ACTION`` command for
every action of the service's table, checked and worded by the service as on every
front end, and the review of results before they are published."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from test_cli_game import GM as CliGM

from lawspeaker.cli import main
from lawspeaker.cli.game import game_group
from lawspeaker.cli.gm_actions import FORMS
from lawspeaker.service import GM, GameService, ServiceError
from lawspeaker.service.actions import ACTIONS
from lawspeaker.store import open_store


class GmCli(CliGM):
    """A GM at the command line (tests/test_cli_game.py's), who may open the service."""

    def service(self) -> GameService:
        return GameService(open_store(self.db))


@pytest.fixture
def gm(tmp_path: Path) -> GmCli:
    return GmCli(str(tmp_path / "games.db"))


def _words(text: str) -> str:
    return " ".join(text.split())


# --- a command for every action ----------------------------------------------------------

def test_every_action_of_the_table_is_a_game_command() -> None:
    listed = CliRunner().invoke(main, ["game", "--help"]).output
    ctx = click.Context(game_group)
    for name, action in ACTIONS.items():
        command = game_group.get_command(ctx, name)
        assert command is not None, f"no 'lawspeaker game {name}' for the action {name}"
        assert name in listed
        form = FORMS.get(name)
        positional = (form.positional + (form.pair or ())) if form else ()
        arguments = [p.name for p in command.params if isinstance(p, click.Argument)]
        options = {p.name: p for p in command.params if isinstance(p, click.Option)}
        assert arguments == ["name"] + [p.name for p in action.params
                                        if p.required or p.name in positional]
        for p in action.params:
            if p.required or p.name in positional:
                continue
            option = options[p.name]
            assert option.opts == [f"--{p.name.replace('_', '-')}"]
            assert option.help is not None and p.help in option.help
        help_text = _words(CliRunner().invoke(main, ["game", name, "--help"]).output)
        assert _words(action.summary) in help_text
        for p in action.params:
            assert _words(p.help) in help_text, (name, p.name)
    assert set(FORMS) <= set(ACTIONS), "a form for an action the table does not have"


def test_the_commands_are_made_only_when_asked_for() -> None:
    """``lawspeaker --help`` lists the groups; the table is not needed for it."""
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0 and "game" in result.output
    assert "process" not in game_group.commands  # made on demand, not registered


# --- the service's words ------------------------------------------------------------------

BAD: list[tuple[tuple[str, ...], str, dict[str, object]]] = [
    (("extend", "g", "soon"), "extend", {"minutes": "soon"}),
    (("extend", "g", "0"), "extend", {"minutes": "0"}),
    (("schedule", "g", "--grace-minutes", "99d"), "schedule", {"grace_minutes": "99d"}),
    (("schedule", "g", "--timezone", "x" * 70), "schedule", {"timezone": "x" * 70}),
    (("schedule", "g", "--timezone", "Mars/Olympus"), "schedule",
     {"timezone": "Mars/Olympus"}),
    (("draw-rule", "g", "maybe"), "draw-rule", {"rule": "maybe"}),
    (("bot", "g", "Italy", "clever"), "bot", {"power": "Italy", "bot": "clever"}),
    (("player", "g", "Narnia", "fred"), "player", {"power": "Narnia", "player": "fred"}),
    (("player", "g", "France", "f" * 201), "player", {"power": "France", "player": "f" * 201}),
    (("rule", "g", "victory_centres"), "rule", {"key": "victory_centres"}),
    (("rule", "g", "no_such_rule=1"), "rule", {"key": "no_such_rule", "value": "1"}),
    (("rule", "g", "review", "perhaps"), "rule", {"key": "review", "value": "perhaps"}),
    (("eliminate", "g", "Narnia"), "eliminate", {"power": "Narnia"}),
    (("remove-exile", "g", "France"), "remove-exile", {"power": "France"}),
    (("link", "g", "Narnia"), "link", {"seat": "Narnia"}),
    (("revoke", "g", "Narnia"), "revoke", {"seat": "Narnia"}),
    (("undo", "g"), "undo", {}),
    (("undo", "g", "--to", "F1999M"), "undo", {"to": "F1999M"}),
    (("process", "g", "--phase", "F1901M"), "process", {"phase": "F1901M"}),
    (("publish", "g"), "publish", {}),
    (("discard", "g"), "discard", {}),
    (("reveal-dp", "g"), "reveal-dp", {}),
    (("extend", "nope", "1h"), "extend", {"minutes": "1h"}),
]


@pytest.mark.parametrize(("args", "action", "raw"), BAD, ids=[" ".join(a[0])[:40] for a in BAD])
def test_a_bad_argument_gets_the_sentence_the_service_gives(
        gm: GmCli, args: tuple[str, ...], action: str, raw: dict[str, object]) -> None:
    gm("new", "standard", "g")
    svc = gm.service()
    before = svc.history("g", actor=GM)
    with pytest.raises(ServiceError) as refused:
        svc.act(args[1], action, dict(raw), actor=GM)
    result = gm(*args, ok=False)
    assert result.exit_code == 1
    assert result.output == f"Error: {refused.value}\n"
    assert svc.history("g", actor=GM) == before


def test_a_missing_word_is_a_usage_error(gm: GmCli) -> None:
    gm("new", "standard", "g")
    result = gm("eliminate", "g", ok=False)
    assert result.exit_code == 2 and "Missing argument 'POWER'" in result.output


# --- the CLI's own shapes, and the table's answers ------------------------------------------

def test_the_cli_forms_still_work_and_answer_in_the_tables_words(gm: GmCli) -> None:
    gm("new", "standard", "g")
    svc = gm.service()
    assert gm("rule", "g", "bot_substitute=hold").output == \
        "g: house rule bot_substitute = hold, from this phase on.\n"
    assert gm("rule", "g", "bot_after_missed", "2").output == \
        "g: house rule bot_after_missed = 2, from this phase on.\n"
    assert svc.game("g", actor=GM).rules["bot_substitute"] == "hold"
    assert svc.game("g", actor=GM).rules["bot_after_missed"] == "2"
    out = gm("bot", "g", "Italy").output
    assert out == "Italy is played by the tactician bot until you name a player for it.\n"
    assert gm("bot", "g", "Turkey", "Hold").output.startswith("Turkey is played by the hold bot")
    assert svc.bot_seats("g", actor=GM) == {"Italy": "tactician", "Turkey": "hold"}
    assert gm("player", "g", "Italy", "ida").output == "Italy is played by ida.\n"
    assert "Italy" not in svc.bot_seats("g", actor=GM)
    gm("draw-rule", "g", "majority")
    assert svc.draw_tally("g", actor=GM).rule == "majority"
    out = gm("schedule", "g", "--phase-minutes", "2d", "--grace-minutes", "1h",
             "--timezone", "Europe/Berlin").output
    assert "a phase runs 2 day(s), grace 60 min, time zone Europe/Berlin" in out
    assert "extended by 12 hour(s)" in gm("extend", "g", "12h").output
    assert gm("pause", "g").output == "g is paused: the deadline is held.\n"
    assert gm("resume", "g").output.startswith("g resumes: ")
    gm("process", "g")
    gm("process", "g")
    assert gm("undo", "g", "--to", "S1901M", "--phase", "S1902M").output == \
        "Rolled back to Spring 1901 Movement; its orders stand again.\n"


def test_process_prints_the_results_post_export_prints(gm: GmCli) -> None:
    gm("new", "standard", "g")
    gm("orders", "g", "France", "-", stdin="A Par - Bur\n")
    processed = gm("process", "g", "--phase", "S1901M").output
    assert "A Paris - Burgundy" in processed and "Next: Fall 1901 Movement" in processed
    assert processed == gm("export", "g").output


def test_a_link_is_printed_once_with_its_path(gm: GmCli) -> None:
    gm("new", "standard", "g")
    out = gm("link", "g", "England", "--player", "eve").output
    token = out.split("Token: ")[1].split()[0]
    assert f"/join/{token}" in out and "secret" in out
    svc = gm.service()
    assert svc.redeem(token).viewer.power == "England"
    assert svc.game("g", actor=GM).players["England"] == "eve"
    assert gm("revoke", "g", "England").output == "1 link(s) of England revoked.\n"


# --- review before publishing -------------------------------------------------------------

POLAND = "A Gdansk H\n2 DP to A Albania H\n"


def _processed(gm: GmCli, name: str) -> list[str]:
    return [e.summary for e in gm.service().history(name, actor=GM)
            if e.kind == "processed" and not e.undone]


def test_the_gm_reviews_the_results_before_publishing_them(gm: GmCli) -> None:
    gm("new", "dissolution", "d")
    gm("rule", "d", "review=yes")
    gm("orders", "d", "Poland", "-", stdin=POLAND)
    status = gm("status", "d").output
    assert "No preview of d is waiting" in gm("preview", "d").output

    out = gm("process", "d").output
    assert "preview" in out
    assert "GM only: DP allocations" in out and "Poland: 2 DP to A Albania H" in out
    assert "lawspeaker game publish d" in out and "lawspeaker game discard d" in out
    # Nothing new for anyone else: the phase did not move, nothing is published.
    during = gm("status", "d").output.splitlines()  # the phase did not move; it says why
    assert during[1].startswith("Results under review: see them with lawspeaker game preview")
    assert [during[0], *during[2:]] == status.splitlines()
    assert "no phase has been processed yet" in gm("export", "d", ok=False).output
    assert _processed(gm, "d") == []
    shown = gm("preview", "d").output
    assert "GM only: DP allocations" in shown and "Spring 1992 Movement" in shown
    public = gm("preview", "d", "--public", "--format", "markdown").output
    assert "GM only" not in public and "**" in public

    # A post after the preview: it no longer shows what publishing would make.
    gm("orders", "d", "Poland", "-", stdin=POLAND)
    stale = gm("publish", "d", ok=False)
    assert stale.exit_code == 1
    assert "out of date" in stale.output and "Nothing was published" in stale.output
    assert "Out of date" in gm("preview", "d").output
    assert gm("status", "d").output.splitlines()[0] == "d: Spring 1992 Movement"

    gm("process", "d", "--phase", "S1992M")
    published = gm("publish", "d", "--phase", "S1992M").output
    assert published == gm("export", "d").output  # the public post, as export prints it
    assert "GM only" not in published and "Next: Autumn 1992 Movement" in published
    again = gm("publish", "d", ok=False)
    assert again.exit_code == 1 and "there is none" in again.output
    assert len(_processed(gm, "d")) == 1  # a double publish publishes once
    assert gm("status", "d").output.splitlines()[0] == "d: Autumn 1992 Movement"


def test_the_gm_discards_a_preview(gm: GmCli) -> None:
    gm("new", "standard", "g", "--rules", "review=yes")
    gm("process", "g")
    assert gm("discard", "g").output == \
        "The preview of Spring 1901 Movement is discarded; the game stays in Spring 1901 " \
        "Movement.\n"
    assert "No preview of g is waiting" in gm("preview", "g").output
    assert gm("discard", "g", ok=False).exit_code == 1
    assert _processed(gm, "g") == []


def test_a_name_with_spaces_is_quoted_in_the_next_commands(gm: GmCli) -> None:
    gm("new", "standard", "Saga II", "--rules", "review=yes")
    out = gm("process", "Saga II").output
    assert "lawspeaker game publish 'Saga II'" in out
