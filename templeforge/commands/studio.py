"""``templeforge studio``: the design studio's local web server (``templeforge.studio``)."""

from __future__ import annotations

import click


@click.command()
@click.argument("target", metavar="[DECK.json | FOLDER]", required=False, default=".")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to bind: another one than this machine's own lets others on the network in "
                   "(with the token), and says so.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="The port to listen on (0: a free one).")
@click.option("--no-browser", is_flag=True, help="Print the address only; do not open a browser.")
def studio(target: str, host: str, port: int, no_browser: bool) -> None:
    """Open the design studio: a page in your browser where you draw a card and see it
    proved, priced and placed in its deck as you draw, then save it into the deck file
    (verified, and sealed when the whole deck verifies).

    TARGET is a deck file (opened first) or a folder: the studio reads and writes only the
    deck files under that folder. The first line printed is the address to open, with the
    session's token; every request without the token is refused (403). The page's scripts
    ship with Templeforge: it works offline. Ctrl-C stops the server.

    Exit status: 0 stopped, 2 bad input (no such file or folder, a port in use); and, as
    every command, 70 a bug, 130 interrupted.

    Example:

        templeforge studio output/GAME/deck.json
    """
    import secrets
    import socket
    import sys
    import webbrowser
    from pathlib import Path
    from urllib.parse import quote

    import uvicorn

    from generators.common.errors import RequestError
    from templeforge.studio.server import application

    path = Path(target)
    if not path.exists():
        raise RequestError(f"{target}: no such deck file or folder")
    folder, deck = (path.parent, path.name) if path.is_file() else (path, None)
    if host not in ("127.0.0.1", "localhost", "::1"):
        click.echo(f"templeforge: warning: --host {host}: the studio listens beyond this machine; anyone who "
                   f"has the address with its token can read and write the decks under {folder.resolve()}",
                   err=True)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as err:
        raise RequestError(f"--host {host} --port {port}: cannot listen there: {err.strerror}") from None
    token = secrets.token_urlsafe(24)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{bound}/?token={token}" + (f"&deck={quote(deck)}" if deck else "")
    click.echo(f"studio: {url}")
    sys.stdout.flush()
    if not no_browser:
        webbrowser.open(url)
    config = uvicorn.Config(application(folder, token), log_level="warning", lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])


command = studio
