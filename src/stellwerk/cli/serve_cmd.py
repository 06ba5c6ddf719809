"""``stellwerk serve``: the web app (``stellwerk.web``) with uvicorn.

The store is an SQLite file (``stellwerk-web.db`` in the current folder by default) or what
``--db`` names; a store that cannot be opened is a usage error (exit 2) before the server
starts.  The address is printed once the socket is bound (``--port 0`` picks a free port, and
the printed address says which), so scripts and tests can read it.

For several processes on one database behind one address (docs/web.md, "Security"): the
pages' form tokens are signed with ``--secret-file``'s secret, else ``$STELLWERK_SECRET``,
else the one the store keeps (``web.secret``); games made per client are limited by
``--create-limit`` (``web.ratelimit``); the client of a request is the remote address, taken
from ``X-Forwarded-For`` only for the proxies ``--forwarded-allow-ips`` names (uvicorn's).
"""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from stellwerk.web.service import GameService

from stellwerk.cli.common import fail
from stellwerk.web.ratelimit import DEFAULT as DEFAULT_CREATE_LIMIT

DEFAULT_DB = "stellwerk-web.db"
DEMO_PLAYERS = ("Ann", "Bob", "Cid")
DEMO_SEED = 1849


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    default=8000,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Port (0: any free one; the address printed says which).",
)
@click.option(
    "--db",
    metavar="URL",
    default=DEFAULT_DB,
    show_default=True,
    help="Game store: sqlite:///PATH, PATH.db or postgresql://...",
)
@click.option(
    "--demo", is_flag=True, help="Also start a demonstration game of 1849 and print its links."
)
@click.option(
    "--secret-file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="File holding the secret that signs the pages' forms (else $STELLWERK_SECRET, "
    "else the one kept in the store); every process behind one address needs the same.",
)
@click.option(
    "--create-limit",
    default=str(DEFAULT_CREATE_LIMIT),
    show_default=True,
    metavar="N/SECONDS",
    help="New games and imports per client address: N at once and N more every SECONDS "
    "(429 beyond); 'off' for none.  Counted by each server process on its own: N "
    "processes behind one address let a client make up to N times as many.",
)
@click.option(
    "--forwarded-allow-ips",
    default="",
    metavar="IPS",
    help="Proxies whose X-Forwarded-For names the client (comma-separated addresses, '*' "
    "for any); default none: the client is the address that connected, so no client can "
    "name another address to dodge the create limit.",
)
@click.option(
    "--log-level",
    default="warning",
    show_default=True,
    type=click.Choice(["debug", "info", "warning", "error"]),
)
def serve(
    host: str,
    port: int,
    db: str,
    demo: bool,
    secret_file: Path | None,
    create_limit: str,
    forwarded_allow_ips: str,
    log_level: str,
) -> None:
    """Start the web app: the pages and the JSON API (docs/web.md)."""
    import uvicorn

    from stellwerk.store import StoreError
    from stellwerk.web.app import create_app
    from stellwerk.web.ratelimit import RateLimit
    from stellwerk.web.secret import SecretError, given_secret, readable_by_others

    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(name)s %(message)s")
    try:
        secret = given_secret(os.environ, secret_file)
        limit = RateLimit.parse(create_limit)
    except (SecretError, ValueError) as error:
        fail(str(error))
    if secret_file is not None and readable_by_others(secret_file):
        click.echo(f"warning: {secret_file} may be read by others (chmod 600)", err=True)
    try:
        app = create_app(db, secret=secret, create_limit=limit)
    except StoreError as error:
        fail(f"cannot open the game store {db}: {error}")
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        access_log=False,
        lifespan="on",
        proxy_headers=bool(forwarded_allow_ips.strip()),
        forwarded_allow_ips=forwarded_allow_ips.strip() or None,
    )
    server = uvicorn.Server(config)
    asyncio.run(_serve(server, db, app.state.service if demo else None))


async def _serve(server: object, db: str, demo: GameService | None = None) -> None:
    """Run ``server`` (a ``uvicorn.Server``) and print its address once it listens; with
    ``demo`` (the app's ``GameService``) start a demonstration game and print its links."""
    import uvicorn

    assert isinstance(server, uvicorn.Server)
    created = None
    if demo is not None:
        created = await demo.create("1849", list(DEMO_PLAYERS), [], DEMO_SEED)
    task = asyncio.create_task(server.serve())
    while not server.started and not task.done():
        await asyncio.sleep(0.02)
    if server.started:
        for listener in server.servers:
            for sock in listener.sockets:
                address = sock.getsockname()
                base = f"http://{address[0]}:{address[1]}"
                click.echo(f"stellwerk web app on {base}/ (store {db})")
                if created is not None:
                    from stellwerk.web.service import seat_link

                    key = created.key
                    click.echo(f"demonstration game {key} (1849, seed {DEMO_SEED}):")
                    for _pid, name, token in created.players:
                        click.echo(f"  {name}: {base}{seat_link(key, token)}")
                    click.echo(f"  spectators: {base}{seat_link(key, created.spectator)}")
                break
            break
    await task
