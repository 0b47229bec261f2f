"""Sessions, the cookie key, secret links, headers, variants from HTTP, and
``lawspeaker serve`` on a busy port.

A copy of the database must grant nothing; signing out ends a session on the
server; a link never silently switches who a browser is; every response
carries a Content-Security-Policy without inline script.
"""

from __future__ import annotations

import re
import shutil
import socket
import sqlite3
import stat
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from itsdangerous import TimestampSigner
from sqlalchemy import select, text
from web_fixtures import World

from lawspeaker.service import GM, PUBLIC, GameService
from lawspeaker.store import open_store
from lawspeaker.store.models import SettingRow
from lawspeaker.variants import VARIANTS_DIR
from lawspeaker.web import create_app
from lawspeaker.web.security import SecretKeyError

TEMPLATES = Path(__file__).parent.parent / "src/lawspeaker/web/templates"


def fresh(w: World) -> TestClient:
    return TestClient(w.app, base_url="http://testserver")


def is_server_gm(client: TestClient) -> bool:
    return 'action="/games"' in client.get("/").text


def forged_cookie(key: str, data: dict) -> str:
    import base64
    import json

    payload = base64.b64encode(json.dumps(data).encode())
    return TimestampSigner(key).sign(payload).decode()


# --- the cookie key is not in the database --------------------------------------------

def test_the_cookie_key_is_a_private_file_beside_sqlite_not_in_the_database(
        tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    app = create_app(f"sqlite:///{db}", tick=0)
    key_file = tmp_path / "games.secret-key"
    assert key_file.exists()
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    key = key_file.read_text().strip()
    assert len(key) >= 32
    with app.state.service.store.transaction() as s:
        assert s.scalars(select(SettingRow)).all() == []
    app.state.service.store.close()
    assert key.encode() not in db.read_bytes()
    again = create_app(f"sqlite:///{db}", tick=0)  # a restart keeps the key: sessions live on
    again.state.service.store.close()
    assert key_file.read_text().strip() == key


def test_a_copy_of_the_database_grants_nothing(tmp_path: Path) -> None:
    (tmp_path / "live").mkdir()
    (tmp_path / "copy").mkdir()
    app = create_app(f"sqlite:///{tmp_path / 'live/games.db'}", tick=0)
    svc: GameService = app.state.service
    gm = TestClient(app)
    assert gm.get(f"/join/{svc.issue_link(None, actor=GM)}").status_code == 200
    assert is_server_gm(gm)
    cookie = gm.cookies["lawspeaker"]
    with sqlite3.connect(tmp_path / "live/games.db") as src, \
            sqlite3.connect(tmp_path / "copy/games.db") as dst:
        src.backup(dst)  # everything the database holds, its WAL too
    # Whoever has the copy: a server on it does not take the live cookie...
    thief_app = create_app(f"sqlite:///{tmp_path / 'copy/games.db'}", tick=0)
    thief = TestClient(thief_app)
    thief.cookies.set("lawspeaker", cookie)
    assert not is_server_gm(thief)
    # ...and nothing in it signs a cookie the live server takes.
    store = open_store(f"sqlite:///{tmp_path / 'copy/games.db'}")
    with store.transaction() as s:
        values = [r.value for r in s.scalars(select(SettingRow))]
        link_ids = list(s.execute(text("SELECT id FROM links")).scalars())
        hashes = list(s.execute(text("SELECT id_hash FROM sessions")).scalars())
    store.close()
    assert hashes  # the GM's session is in the copy, but only as a hash
    for key in [*values, *hashes, "session_key", ""]:
        for sid in [*hashes, None]:
            forger = TestClient(app)
            forger.cookies.set("lawspeaker", forged_cookie(key or "x", {
                "links": link_ids, "sid": sid}))
            assert not is_server_gm(forger)
    assert is_server_gm(gm)  # the real session is untouched


def test_the_old_key_leaves_the_database_on_upgrade(tmp_path: Path) -> None:
    from alembic import command
    from alembic.config import Config

    import lawspeaker.store as store_module

    url = f"sqlite:///{tmp_path / 'old.db'}"
    store = open_store(url)
    config = Config()
    config.set_main_option("script_location", str(Path(store_module.__file__).parent
                                                  / "migrations"))
    with store.engine.begin() as connection:  # back to the schema of 0002, key included
        config.attributes["connection"] = connection
        command.downgrade(config, "0002")
        connection.execute(text("INSERT INTO settings (key, value) VALUES "
                                "('session_key', 'k' || hex(randomblob(32)))"))
    store.close()
    store = open_store(url)
    with store.transaction() as s:
        assert s.execute(text("SELECT count(*) FROM settings WHERE key = 'session_key'")
                         ).scalar() == 0
        assert s.execute(text("SELECT count(*) FROM sessions")).scalar() == 0
    store.close()


def test_the_key_from_the_environment_or_a_named_file(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAWSPEAKER_SECRET_KEY", "short")
    with pytest.raises(SecretKeyError, match="at least 32"):
        create_app(f"sqlite:///{tmp_path / 'a.db'}", tick=0)
    key = "k" * 40
    monkeypatch.setenv("LAWSPEAKER_SECRET_KEY", key)
    one = create_app(f"sqlite:///{tmp_path / 'a.db'}", tick=0)
    assert not (tmp_path / "a.secret-key").exists()  # the environment's key is used
    svc = one.state.service
    client = TestClient(one)
    client.get(f"/join/{svc.issue_link(None, actor=GM)}")
    two = create_app(svc.store, tick=0)  # another worker, same environment: same key
    other = TestClient(two)
    other.cookies.set("lawspeaker", client.cookies["lawspeaker"])
    assert is_server_gm(other)
    monkeypatch.delenv("LAWSPEAKER_SECRET_KEY")
    named = tmp_path / "keys" / "lawspeaker.key"
    named.parent.mkdir()
    create_app(f"sqlite:///{tmp_path / 'b.db'}", tick=0, key_file=named)
    assert stat.S_IMODE(named.stat().st_mode) == 0o600
    assert not (tmp_path / "b.secret-key").exists()
    named.chmod(0o644)  # readable by others: made private again
    create_app(f"sqlite:///{tmp_path / 'b.db'}", tick=0, key_file=named)
    assert stat.S_IMODE(named.stat().st_mode) == 0o600


# --- sessions end on the server ---------------------------------------------------------

def test_signing_out_ends_the_session_on_the_server(world: World) -> None:
    client = fresh(world)
    client.get(f"/join/{world.tokens['Aesir']}")
    assert "Your orders: Aesir" in client.get("/games/A").text
    old_cookie = client.cookies["lawspeaker"]
    page = client.get("/games/A").text
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    r = client.post("/logout", data={"csrf": csrf}, follow_redirects=False)
    assert r.status_code == 303
    replay = fresh(world)  # the old cookie, replayed (a copied cookie, a shared computer)
    replay.cookies.set("lawspeaker", old_cookie)
    page = replay.get("/games/A").text
    assert "Your orders" not in page and "a spectator" in page
    before = world.service.submissions("A", "Aesir", actor=GM)
    r = replay.post("/games/A/orders", data={"csrf": csrf, "power": "Aesir",
                                             "text": "F Asgard H"})
    assert r.status_code == 403
    assert world.service.submissions("A", "Aesir", actor=GM) == before
    assert world.clients["Jotnar"].get("/games/A").text.count("Your orders: Jotnar") == 1


# --- secret links do not silently switch who a browser is -------------------------------

def _csrf(page: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


def test_a_fresh_browser_is_signed_in_at_once(world: World) -> None:
    client = fresh(world)
    r = client.get(f"/join/{world.tokens['server-gm']}")
    assert r.status_code == 200 and 'action="/games"' in r.text  # what .ci/run checks
    client = fresh(world)
    r = client.get(f"/join/{world.tokens['Aesir']}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/games/A"


def test_a_link_for_someone_else_in_the_same_game_asks_first(world: World) -> None:
    client = world.clients["Aesir"]
    r = client.get(f"/join/{world.tokens['Jotnar']}", follow_redirects=False)
    assert r.status_code == 200 and "Switch who you are?" in r.text
    assert "Aesir in A" in r.text and "Jotnar in A" in r.text
    assert 'method="post"' in r.text and f'action="/join/{world.tokens["Jotnar"]}"' in r.text
    assert "Your orders: Aesir" in client.get("/games/A").text  # nothing switched yet
    r = client.post(f"/join/{world.tokens['Jotnar']}", data={}, follow_redirects=False)
    assert r.status_code == 403  # no CSRF token: a forged form from another site
    r = client.post(f"/join/{world.tokens['Jotnar']}", data={"csrf": "forged-0123456789abc"},
                    follow_redirects=False)
    assert r.status_code == 403
    assert "Your orders: Aesir" in client.get("/games/A").text
    csrf = _csrf(client.get(f"/join/{world.tokens['Jotnar']}").text)
    r = client.post(f"/join/{world.tokens['Jotnar']}", data={"csrf": csrf},
                    follow_redirects=False)
    assert r.status_code == 303
    page = client.get("/games/A").text
    assert "Your orders: Jotnar" in page and "Your orders: Aesir" not in page


def test_a_gm_opening_a_players_link_is_asked_too(world: World) -> None:
    client = world.clients["gm"]
    r = client.get(f"/join/{world.tokens['Aesir']}", follow_redirects=False)
    assert r.status_code == 200 and "Switch who you are?" in r.text and "the GM in A" in r.text
    assert "Submissions this phase" in client.get("/games/A").text  # still the GM
    client = world.clients["Aesir"]  # a player opening the server GM's link is asked
    r = client.get(f"/join/{world.tokens['server-gm']}", follow_redirects=False)
    assert r.status_code == 200 and "server&#39;s GM" in r.text


def test_links_of_other_games_or_the_same_seat_need_no_question(world: World) -> None:
    client = world.clients["B.Aesir"]
    r = client.get(f"/join/{world.tokens['Aesir']}", follow_redirects=False)
    assert r.status_code == 303  # Aesir in B, now also Aesir in A
    assert "Your orders: Aesir" in client.get("/games/A").text
    assert "Your orders: Aesir" in client.get("/games/B").text
    again = world.service.issue_link("A", "Aesir", actor=GM)  # the GM re-sends Aesir a new link
    assert client.get(f"/join/{again}", follow_redirects=False).status_code == 303


# --- headers ----------------------------------------------------------------------------

def _policy(r) -> dict[str, str]:  # type: ignore[no-untyped-def]
    out = {}
    for part in r.headers["content-security-policy"].split(";"):
        name, _, value = part.strip().partition(" ")
        out[name] = value
    return out


def test_every_response_carries_the_security_headers(world: World) -> None:
    paths = ["/", "/games/A", "/games/A/phases/1", "/games/Nope", "/static/app.js",
             "/api/v1/games", "/api/v1/games/A", "/api/docs", "/api/openapi.json",
             f"/join/{world.tokens['Jotnar']}", "/join/not-a-token", "/no/such/page",
             "/games/A/map.svg?orders=true"]
    for role in ("anonymous", "gm", "Aesir"):
        for path in paths:
            r = world.clients[role].get(path, follow_redirects=False)
            assert r.status_code < 500, path
            policy = _policy(r)
            assert policy["frame-ancestors"] == "'none'", path
            assert "unsafe-inline" not in policy.get("script-src", policy.get("default-src"))
            assert r.headers["x-content-type-options"] == "nosniff"
            assert "strict-transport-security" not in r.headers  # plain http here
    r = world.clients["anonymous"].get("/games/A")
    assert _policy(r)["script-src"] == "'self'" and _policy(r)["default-src"] == "'self'"
    r = world.clients["anonymous"].post("/api/v1/games/A/process")  # an error answer
    assert r.status_code == 403 and "frame-ancestors 'none'" in \
        r.headers["content-security-policy"]


def test_hsts_when_served_over_https(tmp_path: Path) -> None:
    for kwargs in ({"https": True}, {"public_url": "https://dip.example.org"}):
        app = create_app(f"sqlite:///{tmp_path / 'h.db'}", tick=0, **kwargs)
        r = TestClient(app, base_url="https://dip.example.org").get("/")
        assert r.headers["strict-transport-security"].startswith("max-age=")
        app.state.service.store.close()
    app = create_app(f"sqlite:///{tmp_path / 'h.db'}", tick=0, public_url="http://x.org")
    assert "strict-transport-security" not in TestClient(app).get("/").headers


def test_no_template_holds_inline_script(world: World) -> None:
    inline = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>|\son[a-z]+\s*=|javascript:", re.I)
    for template in TEMPLATES.glob("*.html"):
        assert not inline.search(template.read_text()), template.name
    pages = [("gm", "/games/A"), ("Aesir", "/games/A"), ("anonymous", "/"),
             ("server-gm", "/"), ("anonymous", "/games/Nope")]
    for role, path in pages:
        assert not inline.search(world.clients[role].get(path).text), (role, path)
    r = world.clients["gm"].post("/games/A/gm/link", data={
        "csrf": world.csrf("gm"), "seat": "Jotnar", "player": "carol"})
    assert "/join/" in r.text and not inline.search(r.text)  # the page with a new link


# --- variants: by name from HTTP, folders only from the command line ---------------------

def _game_count(w: World) -> int:
    return len(w.service.list_games())


@pytest.mark.parametrize("variant", [str(VARIANTS_DIR / "standard"), "/etc",
                                     "../variants/standard", "standard/../standard",
                                     str(VARIANTS_DIR / "standard" / "variant.yaml")])
def test_no_request_makes_the_server_read_a_path(world: World, variant: str) -> None:
    before = _game_count(world)
    headers = {"Authorization": f"Bearer {world.tokens['server-gm']}"}
    r = world.clients["anonymous"].post("/api/v1/games", headers=headers,
                                        json={"variant": variant, "name": "Pathy"})
    assert r.status_code == 400 and "unknown variant" in r.json()["error"]
    r = world.clients["server-gm"].post("/games", data={
        "csrf": world.csrf("server-gm"), "variant": variant, "name": "Pathy"})
    assert r.status_code == 400 and "unknown variant" in r.text
    assert _game_count(world) == before


def test_a_folder_named_on_the_command_line_is_offered_by_name(tmp_path: Path) -> None:
    folder = tmp_path / "house"
    shutil.copytree(VARIANTS_DIR / "standard", folder)
    yaml = folder / "variant.yaml"
    yaml.write_text(yaml.read_text().replace("name: standard", "name: house-standard"))
    app = create_app(f"sqlite:///{tmp_path / 'v.db'}", tick=0, variants=[folder])
    svc = app.state.service
    client = TestClient(app)
    client.get(f"/join/{svc.issue_link(None, actor=GM)}")
    assert "house-standard" in client.get("/").text  # in the form's list
    r = client.post("/api/v1/games", headers={"Authorization": f"Bearer "
                                                               f"{svc.issue_link(None, actor=GM)}"},
                    json={"variant": "house-standard", "name": "House"})
    assert r.status_code == 200, r.text
    assert svc.variant_of("House", actor=PUBLIC).path == folder.resolve()


# --- lawspeaker serve on a busy port --------------------------------------------------------

def test_a_second_server_on_a_busy_port_changes_nothing(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from lawspeaker.cli import main

    db = tmp_path / "games.db"
    store = open_store(f"sqlite:///{db}")
    token = GameService(store).issue_link(None, actor=GM)  # the running server's GM link
    store.close()
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--db", str(db), "--port", str(port)])
    assert result.exit_code != 0
    assert f"port {port} on 127.0.0.1 is already in use" in result.output
    assert "nothing was changed" in result.output and "/join/" not in result.output
    store = open_store(f"sqlite:///{db}")
    assert GameService(store).redeem(token).game is None  # the GM link still works
    store.close()
    fresh_db = tmp_path / "new.db"
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--db", str(fresh_db), "--port",
                                           str(port)])
    assert result.exit_code != 0 and not fresh_db.exists()


def test_serve_help_says_where_the_key_is() -> None:
    from click.testing import CliRunner

    from lawspeaker.cli import main

    out = CliRunner().invoke(main, ["serve", "--help"]).output
    assert "--secret-key-file" in out and "LAWSPEAKER_SECRET_KEY" in out
    assert "--variant" in out


def test_a_session_ends_on_the_server_after_sixty_days(world: World) -> None:
    from datetime import timedelta

    from lawspeaker.store.models import SessionRow, now

    client = fresh(world)
    client.get(f"/join/{world.tokens['Aesir']}")
    assert "Your orders: Aesir" in client.get("/games/A").text
    with world.service.store.transaction() as s:
        for row in s.scalars(select(SessionRow)):
            row.created_at = now() - timedelta(days=61)
    assert "Your orders: Aesir" not in client.get("/games/A").text
