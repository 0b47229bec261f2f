"""The what-if sandbox (issue "What if, and why"): orders tried, never sent.

Three promises, each tested on every path (service, CLI, web page, API):
it never changes the real game (the store is byte-for-byte equal after it),
a player's sandbox never uses another player's real orders or DP, and it
plays on into later phases: retreats, adjustments, further years.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import MetaData, select
from store_fixtures import BACKENDS, database
from web_fixtures import POWERS, World

from lawspeaker.cli import main
from lawspeaker.service import (
    GM,
    PUBLIC,
    Forbidden,
    GameService,
    PhaseChanged,
    ServiceError,
    Viewer,
)
from lawspeaker.store import Store, open_store

ENGLAND, FRANCE, GERMANY = Viewer.of("England"), Viewer.of("France"), Viewer.of("Germany")


def dump(store: Store) -> list[tuple[str, list[tuple]]]:
    """Every row of every table, in order: what "the store is unchanged" means
    on PostgreSQL, where there is no single file to hash."""
    meta = MetaData()
    meta.reflect(store.engine)
    out = []
    with store.engine.connect() as conn:
        for table in meta.sorted_tables:
            rows = conn.execute(select(table).order_by(*table.primary_key.columns)).all()
            out.append((table.name, [tuple(r) for r in rows]))
    return out


@pytest.fixture
def standard(service: GameService) -> GameService:
    """Standard, Spring 1901: England and France have sent (secret) orders."""
    service.create_game("standard", "g", actor=GM)
    assert service.submit("g", "England", "F Lon - Nth\nA Lvp - Yor\n", actor=ENGLAND).ok
    assert service.submit("g", "France", "A Par - Bur\nA Mar S A Par - Bur\n", actor=FRANCE).ok
    return service


def results_of(run, step: int = 0) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """Each order of a sandbox step, as the results post prints it, to its outcome."""
    out = {}
    for line in run.post_of(step).splitlines():
        m = re.match(r"\s+\*?\s*([AF] .+?): (.+)$", line)
        if m:
            out[m.group(1)] = m.group(2)
    return out


def test_a_players_sandbox_uses_their_own_orders_and_no_one_elses(standard: GameService
                                                                   ) -> None:
    run = standard.whatif("g", ["Germany:\nA Mun - Bur\n"], actor=ENGLAND)
    got = results_of(run)
    assert got["F London - North Sea"] == "Move succeeds"  # England's own standing order
    assert got["A Munich - Burgundy"] == "Move succeeds"   # written for Germany
    assert got["A Paris H"] == "No order: holds"            # France's real order unused
    assert "Paris - Burgundy" not in run.post() and "Marseilles S" not in run.post()
    assert run.who == "England" and run.start == "Spring 1901 Movement"


def test_the_gms_sandbox_starts_from_every_submitted_order(standard: GameService) -> None:
    run = standard.whatif("g", ["Germany:\nA Mun - Bur\n"], actor=GM)
    got = results_of(run)
    assert got["A Paris - Burgundy"] == "Move succeeds"  # France's real orders: 2 v 1
    assert got["A Munich - Burgundy"].startswith("Bounced")
    assert got["F London - North Sea"] == "Move succeeds"
    blank = standard.whatif("g", ["Germany:\nA Mun - Bur\n"], actor=GM, submitted=False)
    assert results_of(blank)["A Paris H"] == "No order: holds"


def test_a_written_line_replaces_the_standing_order_for_that_unit(standard: GameService
                                                                  ) -> None:
    run = standard.whatif("g", ["A Lvp - Wal\n"], actor=ENGLAND)
    got = results_of(run)
    assert got["A Liverpool - Wales"] == "Move succeeds"
    assert "A Liverpool - Yorkshire" not in got
    assert got["F London - North Sea"] == "Move succeeds"


def test_lines_that_cannot_be_used_are_reported_not_dropped(standard: GameService) -> None:
    run = standard.whatif("g", ["A Lvp - Narnia\nFrance: A Mun - Boh\nGM notes\n"], actor=ENGLAND)
    unused = [(ln.number, ln.status) for ln in run.steps[0].lines if ln.status != "accepted"]
    assert [n for n, _ in unused] == [1, 2, 3]
    post = run.post()
    assert "Not used (fix and try again)" in post and "line 2: France: A Mun - Boh" in post
    gm_run = standard.whatif("g", ["A Lvp - Wal\n"], actor=GM)
    (line,) = gm_run.steps[0].lines
    assert line.status == "unreadable" and "no power given" in line.message


def test_the_sandbox_plays_on_through_retreats_into_the_next_year(service: GameService) -> None:
    service.create_game("standard", "g", actor=GM)
    spring = "Germany:\nA Mun - Bur\nFrance:\nA Par - Pic\n"
    autumn = "France:\nA Pic - Bur\nA Mar S A Pic - Bur\n"
    retreat = "Germany:\nA Bur - Ruh\n"
    run = service.whatif("g", [spring, autumn, retreat, ""], actor=GM)
    assert [s.phase for s in run.steps] == ["Spring 1901 Movement", "Fall 1901 Movement",
                                            "Fall 1901 Retreat", "Spring 1902 Movement"]
    assert results_of(run, 1)["A Burgundy H"] == "Dislodged by A Picardy (2v1)"
    assert results_of(run, 2)["A Burgundy R Ruhr"] == "Retreats to Ruhr"
    assert run.position.units["bur"].power == "France"
    assert run.position.units["ruh"].power == "Germany"


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_sandbox_leaves_the_store_byte_for_byte_equal(backend: str, tmp_path: Path) -> None:
    store = open_store(database(backend, tmp_path))
    svc = GameService(store)
    svc.create_game("s9-complete", "A", actor=GM)
    svc.submit("A", "Aesir", "F Asgard - Himinbjorg\n", actor=Viewer.of("Aesir"))
    before = dump(store)
    file = tmp_path / "games.db"
    digest = hashlib.sha256(file.read_bytes()).hexdigest() if backend == "sqlite" else None
    svc.whatif("A", ["F Asgard - Ida\n", "", ""], actor=Viewer.of("Aesir"))
    svc.whatif("A", ["Vanir:\nA Gimle H\n"], actor=GM)
    assert dump(store) == before
    if digest:
        assert hashlib.sha256(file.read_bytes()).hexdigest() == digest
    store.close()


def test_who_may_open_a_sandbox_and_for_which_phase(standard: GameService) -> None:
    with pytest.raises(Forbidden, match="players and its GM"):
        standard.whatif("g", ["A Lvp - Wal"], actor=PUBLIC)
    with pytest.raises(ServiceError, match="unknown power"):
        standard.whatif("g", ["A Lvp - Wal"], actor=Viewer.of("Narnia"))
    assert standard.whatif("g", [""], actor=ENGLAND, phase="S1901M").start_code == "S1901M"
    standard.process("g", actor=GM)
    with pytest.raises(PhaseChanged, match=r"already been processed.*Reload"):
        standard.whatif("g", ["A Yor - Nwy"], actor=ENGLAND, phase="S1901M")


def test_whatif_on_the_command_line_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "cli.db"
    runner = CliRunner()

    def run(*args: str, stdin: str | None = None):  # type: ignore[no-untyped-def]
        return runner.invoke(main, ["game", "--db", str(db), *args], input=stdin)

    assert run("new", "standard", "g").exit_code == 0
    assert run("orders", "g", "France", "-", stdin="A Par - Bur\n").exit_code == 0
    orders = tmp_path / "try.txt"
    orders.write_text("England:\nF Lon - Eng\nGermany: A Mun - Bur\n", encoding="utf-8")
    digest = hashlib.sha256(db.read_bytes()).hexdigest()
    as_england = run("whatif", "g", "--orders", str(orders), "--as", "England",
                     "--map", str(tmp_path / "m.png"))
    assert as_england.exit_code == 0, as_england.output
    assert "WHAT IF" in as_england.output and "A Munich - Burgundy: Move succeeds" in \
        as_england.output and "A Paris H: No order: holds" in as_england.output
    assert (tmp_path / "m.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    as_gm = run("whatif", "g", "--orders", str(orders))
    assert "A Paris - Burgundy: Bounced" in as_gm.output
    assert hashlib.sha256(db.read_bytes()).hexdigest() == digest
    missing = run("whatif", "g", "--orders", str(tmp_path / "nope.txt"))
    assert missing.exit_code == 1 and "Error: cannot read" in missing.output
    assert "Traceback" not in missing.output


# --- the web page and the API ----------------------------------------------------------

ROLES = ("server-gm", "gm", *POWERS, "B.Aesir", "anonymous")


def csrf_of(page: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]


@pytest.mark.parametrize("role", ROLES)
def test_a_sandbox_on_the_web_shows_no_one_elses_secrets(world: World, role: str) -> None:
    client = world.clients[role]
    page = client.get("/games/A/sandbox")
    allowed = role in ("server-gm", "gm", *POWERS)
    assert page.status_code == (200 if allowed else 403), (role, page.status_code)
    before = dump(world.service.store)
    headers = {"Authorization": f"Bearer {world.tokens[role]}"} if role in world.tokens else {}
    api = world.clients["anonymous"].post("/api/v1/games/A/sandbox", headers=headers,
                                          json={"steps": [""], "map": True})
    assert api.status_code == (200 if allowed else 403), (role, api.text[:200])
    texts = [page.text, api.text]
    if allowed:
        csrf = csrf_of(page.text)
        r = client.post("/games/A/sandbox", data={
            "csrf": csrf, "phase": world.service.game("A",
                                                      actor=PUBLIC).phase_code, "submitted": "yes",
            "step": "", "action": "next"})
        assert r.status_code == 200, r.text[:300]
        assert r.text.count('name="step"') == 2  # went on: a box for the next phase
        assert "data:image/svg+xml;base64," in r.text
        texts.append(r.text)
    for text in texts:
        for power, (order, allocation) in world.secrets.items():
            if role in ("server-gm", "gm") or role == power:
                continue
            assert order not in text and allocation not in text, (role, power)
    if role in POWERS:  # their own order is used, and shown back to them
        assert world.secrets[role][0] in api.json()["steps"][0]["results"]
    if role == "gm":
        assert all(s[0] in api.json()["steps"][0]["results"] for s in world.secrets.values())
    assert dump(world.service.store) == before


def test_a_stale_sandbox_page_says_the_phase_moved_on(world: World) -> None:
    client = world.clients["Aesir"]
    csrf = csrf_of(client.get("/games/A/sandbox").text)
    code = world.service.game("A", actor=PUBLIC).phase_code
    world.service.process("A", actor=GM)
    r = client.post("/games/A/sandbox", data={"csrf": csrf, "phase": code,
                                               "step": "F Asgard - Ida", "action": "run"})
    assert r.status_code == 409 and "already been processed" in r.text
    assert "F Asgard - Ida" in r.text  # the orders written stay in the box
    forged = client.post("/games/A/sandbox", data={"csrf": "forged", "step": ""})
    assert forged.status_code == 403


# --- explanations of processed phases, as each viewer may read them -----------------------

def test_explanations_of_a_processed_phase_keep_dp_secret(world: World) -> None:
    """An explanation says nothing the results post does not: before a reveal,
    no one but the GM learns who put DP on a neutral unit; a player sees its
    own allocations, the GM every one."""
    svc = world.service
    svc.process("A", actor=GM)
    public = svc.explain("A", None, actor=PUBLIC)
    assert "Its order was chosen by Diplomacy Points (S9 §9.0)" in public
    assert "stays secret until the game ends" in public
    gm = svc.explain("A", None, actor=GM, gm=True)
    for power, (_order, allocation) in world.secrets.items():
        assert allocation.split(" to ")[1] in public  # the neutral order itself is public
        assert f"{power}: {allocation}" not in public
        assert f"{power}: {allocation}" in gm
        mine = svc.explain("A", None, actor=Viewer.of(power))
        assert f"{power}: {allocation}" in mine
        for other, (_o, theirs) in world.secrets.items():
            if other != power:
                assert theirs not in mine, (power, other)
    with pytest.raises(Forbidden):
        svc.explain("A", None, actor=Viewer.of("Aesir"), gm=True)
    assert "Attack strength" in svc.explain("A", None, actor=PUBLIC, power="Aesir")
    with pytest.raises(ServiceError, match="no orders"):
        svc.explain("A", None, actor=PUBLIC, power="Narnia")
    page = world.clients["anonymous"].get("/games/A/phases/1").text
    assert 'details class="why' in page and "Attack strength" in page


def test_game_explain_on_the_command_line(tmp_path: Path) -> None:
    db = tmp_path / "cli.db"
    runner = CliRunner()

    def run(*args: str, stdin: str | None = None):  # type: ignore[no-untyped-def]
        return runner.invoke(main, ["game", "--db", str(db), *args], input=stdin)

    assert run("new", "standard", "g").exit_code == 0
    run("orders", "g", "France", "-", stdin="A Par - Bur\nA Mar S A Par - Bur\n")
    run("orders", "g", "Germany", "-", stdin="A Mun - Bur\n")
    early = run("explain", "g")
    assert early.exit_code == 1 and "no phase has been processed yet" in early.output
    assert run("process", "g").exit_code == 0
    out = run("explain", "g", "--power", "Germany").output
    assert "* A Munich - Burgundy: Bounced 1v2" in out
    assert ("A Paris also moves to Burgundy: prevent strength 2 = 1 + support of "
            "A Marseilles (DATC 5.B.6)") in out
    assert "France" not in out.split("Germany", 1)[0].split("why", 1)[1]
    bb = run("explain", "g", "--format", "bbcode").output
    assert bb.count("[list]") == bb.count("[/list]") > 0
