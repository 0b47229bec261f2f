"""``lawspeaker serve``: the game server on the store (SQLite by default).

Prints the server GM's secret link (a new one each start unless
``--keep-link``: the previous one stops working) and runs uvicorn. With
``--workers N`` the app is built in each worker from ``$LAWSPEAKER_DB``;
every state is in the database, so the workers need nothing else shared.
"""

from __future__ import annotations

import os

import click

from ..service import GameService
from ..store import StoreError, database_url, open_store
from . import main

__all__ = ["serve"]


def app_from_env() -> object:
    """The app for uvicorn's workers (``--workers``/``--factory``): settings from the env."""
    from ..web import create_app

    return create_app(os.environ.get("LAWSPEAKER_DB"),
                      tick=float(os.environ.get("LAWSPEAKER_TICK", "30")),
                      https=os.environ.get("LAWSPEAKER_HTTPS") == "1",
                      public_url=os.environ.get("LAWSPEAKER_PUBLIC_URL") or None)


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
@click.option("--https", is_flag=True, help="Send cookies over HTTPS only (behind TLS).")
@click.option("--keep-link", is_flag=True,
              help="Do not make a new GM link (another process already printed one).")
@click.option("--tick", default=30.0, show_default=True,
              help="Seconds between deadline checks.")
def serve(db: str | None, host: str, port: int, workers: int, public_url: str | None,
          https: bool, keep_link: bool, tick: float) -> None:
    """Start the game server and print the GM's secret link."""
    import uvicorn

    from ..web.app import install_log_filter

    try:
        store = open_store(db)
    except StoreError as exc:
        raise click.ClickException(str(exc)) from None
    base = (public_url or f"http://{'localhost' if host in ('127.0.0.1', '0.0.0.0') else host}"
            f":{port}").rstrip("/")
    if not keep_link:
        token = GameService(store).issue_link(None)
        click.echo(f"GM link (keep it secret; it signs you in as the GM): {base}/join/{token}")
    store.close()
    click.echo(f"Serving {database_url(db).split('@')[-1]} on http://{host}:{port} "
               "(Ctrl+C stops)")
    os.environ["LAWSPEAKER_DB"] = database_url(db)
    os.environ["LAWSPEAKER_TICK"] = str(tick)
    os.environ["LAWSPEAKER_HTTPS"] = "1" if https else "0"
    if public_url:
        os.environ["LAWSPEAKER_PUBLIC_URL"] = public_url
    install_log_filter()
    uvicorn.run("lawspeaker.cli.serve:app_from_env", factory=True, host=host, port=port,
                workers=workers, proxy_headers=True, log_level="info")
