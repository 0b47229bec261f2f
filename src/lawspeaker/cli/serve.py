"""``lawspeaker serve``: the game server on the store (SQLite by default).

Checks that the port is free before it touches anything, prints the server
GM's secret link (a new one each start unless ``--keep-link``: the previous
one stops working) and runs uvicorn. With ``--workers N`` the app is built in
each worker from the environment (``$LAWSPEAKER_DB`` and the rest); games
and links are in the database, the cookie key beside it or in the environment.
"""

from __future__ import annotations

import errno
import os
import socket

import click

from .root import main

__all__ = ["serve"]


def app_from_env() -> object:
    """The app for uvicorn's workers (``--workers``/``--factory``): settings from the env."""
    from ..web import create_app

    variants = [v for v in os.environ.get("LAWSPEAKER_VARIANTS", "").split(os.pathsep) if v]
    return create_app(os.environ.get("LAWSPEAKER_DB"),
                      tick=float(os.environ.get("LAWSPEAKER_TICK", "30")),
                      https=os.environ.get("LAWSPEAKER_HTTPS") == "1",
                      public_url=os.environ.get("LAWSPEAKER_PUBLIC_URL") or None,
                      variants=variants)


def port_free(host: str, port: int) -> str | None:
    """Why ``host:port`` cannot be served (in use, not ours), or None if it can."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        return f"cannot listen on {host}: {exc.strerror}"
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
        try:
            sock.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return (f"port {port} on {host} is already in use (another lawspeaker serve?); "
                        "nothing was changed: stop it, or pick another --port")
            return f"cannot listen on {host}:{port}: {exc.strerror}"
    return None


@main.command("serve")
@click.option("--db", envvar="LAWSPEAKER_DB", metavar="PATH|URL",
              help="The database (default: $LAWSPEAKER_DB, else lawspeaker.db here).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (0.0.0.0: every interface).")
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--workers", default=1, show_default=True, type=int,
              help="Worker processes (use PostgreSQL for more than one).")
@click.option("--public-url", metavar="URL", default=None,
              help="The address players reach, for the links shown (behind a proxy).")
@click.option("--https", is_flag=True,
              help="Served over HTTPS (behind TLS): Secure cookies and HSTS; implied by an "
                   "https --public-url.")
@click.option("--secret-key-file", envvar="LAWSPEAKER_SECRET_KEY_FILE", metavar="PATH",
              help="The file holding the key that signs session cookies (made, owner-only, "
                   "if missing). Default: beside an SQLite database (games.db: "
                   "games.secret-key); $LAWSPEAKER_SECRET_KEY gives the key itself. On "
                   "PostgreSQL without either, a key for this run only. Never in the "
                   "database: a copy of it must grant nothing.")
@click.option("--variant", "variants", multiple=True, metavar="FOLDER",
              type=click.Path(exists=True, file_okay=False),
              help="A variant folder to offer besides the bundled variants (repeatable); "
                   "no web request can name a path.")
@click.option("--keep-link", is_flag=True,
              help="Do not make a new GM link (another process already printed one).")
@click.option("--tick", default=30.0, show_default=True,
              help="Seconds between deadline checks.")
def serve(db: str | None, host: str, port: int, workers: int, public_url: str | None,
          https: bool, secret_key_file: str | None, variants: tuple[str, ...],
          keep_link: bool, tick: float) -> None:
    """Start the game server and print the GM's secret link."""
    import uvicorn  # the server's libraries load only when serving

    from ..service import GM, GameService
    from ..store import StoreError, database_url, open_store
    from ..web.app import install_log_filter
    from ..web.offers import offered_variants
    from ..web.security import KEY_ENV, SecretKeyError, secret_key

    busy = port_free(host, port)
    if busy:  # before anything is written: the running server's GM link stays good
        raise click.ClickException(busy)
    try:  # each folder by its name, none taken twice (web/offers.py)
        offered_variants(variants)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    try:
        store = open_store(db)
    except StoreError as exc:
        raise click.ClickException(str(exc)) from None
    try:  # the key (or its file) now, so every worker finds the same one
        key = secret_key(store, key_file=secret_key_file)
    except SecretKeyError as exc:
        store.close()
        raise click.ClickException(str(exc)) from None
    if not (os.environ.get(KEY_ENV) or secret_key_file or os.environ.get(
            "LAWSPEAKER_SECRET_KEY_FILE")) and store.engine.url.get_backend_name() != "sqlite":
        os.environ[KEY_ENV] = key  # this run's workers share it
    base = (public_url or f"http://{'localhost' if host in ('127.0.0.1', '0.0.0.0') else host}"
            f":{port}").rstrip("/")
    if not keep_link:
        token = GameService(store).issue_link(None, actor=GM)
        click.echo(f"GM link (keep it secret; it signs you in as the GM): {base}/join/{token}")
    store.close()
    click.echo(f"Serving {database_url(db).split('@')[-1]} on http://{host}:{port} "
               "(Ctrl+C stops)")
    os.environ["LAWSPEAKER_DB"] = database_url(db)
    os.environ["LAWSPEAKER_TICK"] = str(tick)
    os.environ["LAWSPEAKER_HTTPS"] = "1" if https else "0"
    if public_url:
        os.environ["LAWSPEAKER_PUBLIC_URL"] = public_url
    if secret_key_file:
        os.environ["LAWSPEAKER_SECRET_KEY_FILE"] = os.path.abspath(secret_key_file)
    if variants:
        os.environ["LAWSPEAKER_VARIANTS"] = os.pathsep.join(os.path.abspath(v)
                                                            for v in variants)
    install_log_filter()
    uvicorn.run("lawspeaker.cli.serve:app_from_env", factory=True, host=host, port=port,
                workers=workers, proxy_headers=True, log_level="info")
