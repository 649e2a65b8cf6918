"""The studio's web server: a Starlette application on the designer's own machine.

Every request must carry the session's token (the ``token`` query parameter of the address
``templeforge studio`` prints, then the cookie the first page sets, or an
``X-Studio-Token`` header): without it, 403. Only deck files under the folder the studio was
opened on are read or written (``generators.common.files.inside``). Proofs and saves run in
the worker process (``templeforge.studio.worker``) under a deadline; a request body over
``MAX_BODY`` bytes is refused.
"""

from __future__ import annotations

import contextlib
import hmac
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from templeforge.studio.tasks import COMMANDS, KIT, Busy, Tasks
from templeforge.studio.worker import Runner

STATIC = Path(__file__).parent / "static"
COOKIE = "templeforge-studio"
#: The largest request body taken (a draft is a few hundred bytes).
MAX_BODY = 64 * 1024
#: Seconds a proof may take before it answers ``unknown`` (the game's own limit is shorter).
PROVE_DEADLINE = 60.0
#: Seconds a save (the whole deck verified) may take.
SAVE_DEADLINE = 600.0
#: Deck files listed at most.
MAX_FILES = 500


class Refused(Exception):
    """A request the studio will not serve: its status and one line saying why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def deck_path(folder: Path, name: Any, new: bool = False) -> Path:
    """The deck file ``name`` under ``folder`` (``new``: one that may not exist yet).

    Raises:
        Refused: 400 for a name outside the folder or not a ``.json`` file, 404 for a
            missing one (unless ``new``).
    """
    from generators.common.files import OutputError, inside

    if not isinstance(name, str) or not name.endswith(".json"):
        raise Refused(400, f"path: expected a .json deck file under {folder}, got {name!r}")
    try:
        path = inside(folder, name)
    except OutputError:
        raise Refused(400, f"path: {name!r} leads outside {folder}") from None
    if not path.is_file() and not (new and not path.exists()):
        raise Refused(404, f"path: {name} is not a file under {folder}")
    return path


def game_of(data: dict[str, Any]) -> str | None:
    """The ``game`` a request names for a deck not written yet (None: none named)."""
    game = data.get("game")
    if game is not None and not isinstance(game, str):
        raise Refused(400, "game: expected a game's name")
    return game


def drafted(folder: Path, data: dict[str, Any]) -> tuple[str, Any, dict[str, Any], str | None]:
    """A proof's or a save's request checked: the deck file's path, the card's id (None: a
    new card), the draft, and the game of a deck not written yet.

    Raises:
        Refused: 400 naming the field at fault (or as ``deck_path``).
    """
    game = game_of(data)
    path = deck_path(folder, data.get("path"), new=game is not None)
    if not isinstance(data.get("draft"), dict):
        raise Refused(400, "draft: expected the card as the editor describes it")
    card = data.get("card")
    if card is not None and not isinstance(card, (int, str)):
        raise Refused(400, "card: expected a card id or null for a new card")
    return str(path), card, data["draft"], game


def deck_files(folder: Path) -> list[dict[str, Any]]:
    """The deck files under ``folder`` the studio can open, by path."""
    from generators import GAMES

    out = []
    for path in sorted(folder.rglob("*.json"))[:MAX_FILES * 4]:
        if any(part.startswith(".") or part.endswith(KIT) for part in path.relative_to(folder).parts):
            continue  # hidden, or a deck's own output (a build's copy of the deck)
        try:
            with path.open(encoding="utf-8") as f:
                head = json.load(f)
        except (OSError, ValueError):
            continue
        if not isinstance(head, dict) or not isinstance(head.get("cards"), list):
            continue
        game = GAMES.get(head.get("game"))  # type: ignore[arg-type]
        if game is None:
            continue
        out.append({"path": path.relative_to(folder).as_posix(), "game": game.title, "cards": len(head["cards"]),
                    "editable": bool(game.studio)})
        if len(out) >= MAX_FILES:
            break
    return out


def application(folder: Path, token: str) -> Starlette:
    """The studio for the deck files under ``folder``, answering only requests with ``token``.
    Proofs run in one worker process (a newer one stops the older), deck reads, saves and
    pictures in another, in turn, so that an edit never stops a save."""
    folder = folder.resolve()
    prover, keeper = Runner(), Runner(supersede=False)
    tasks = Tasks(folder)

    def allowed(request: Request) -> bool:
        given = request.query_params.get("token") or request.headers.get("x-studio-token") \
            or request.cookies.get(COOKIE) or ""
        return hmac.compare_digest(given.encode(), token.encode())

    async def body(request: Request) -> dict[str, Any]:
        raw = await request.body()
        if len(raw) > MAX_BODY:
            raise Refused(413, f"the request is over {MAX_BODY} bytes")
        try:
            data = json.loads(raw or b"{}")
        except ValueError:
            raise Refused(400, "the request is not JSON") from None
        if not isinstance(data, dict):
            raise Refused(400, "the request is not a JSON object")
        return data

    async def compute(work: Runner, job: tuple[str, str, tuple[Any, ...]], deadline: float) -> Any:
        from starlette.concurrency import run_in_threadpool

        answer = await run_in_threadpool(work.run, job, deadline)
        if answer is None:
            return None
        kind, value = answer
        if kind == "error":
            raise Refused(400, value.split(": ", 1)[-1])
        return value

    def guarded(handler: Any) -> Any:
        async def serve(request: Request) -> Response:
            if not allowed(request):
                return JSONResponse({"error": "forbidden: open the address templeforge studio printed"}, 403)
            try:
                return await handler(request)  # type: ignore[no-any-return]
            except Refused as err:
                return JSONResponse({"error": str(err)}, err.status)
        return serve

    async def index(request: Request) -> Response:
        response = FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})
        response.set_cookie(COOKIE, token, httponly=True, samesite="strict")
        return response

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in {"studio.js", "studio.css"}:
            raise Refused(404, f"no such file: {name}")
        return FileResponse(STATIC / name, headers={"Cache-Control": "no-store"})

    async def files(request: Request) -> Response:
        from generators import GAMES

        games = [{"name": g.name, "title": g.title} for g in GAMES.values() if g.studio]
        return JSONResponse({"folder": str(folder), "files": deck_files(folder), "games": games})

    async def front(request: Request) -> Response:
        path = deck_path(folder, request.query_params.get("path"))
        raw = request.query_params.get("index", "")
        if not raw.isdigit():
            raise Refused(400, "index: expected the card's place in the deck, from 0")
        answer = await compute(keeper, ("templeforge.studio.jobs", "front", (str(path), int(raw))), SAVE_DEADLINE)
        if answer is None:
            raise Refused(503, f"the card's picture took over {SAVE_DEADLINE:.0f} s")
        return Response(answer, media_type="image/png", headers={"Cache-Control": "no-store"})

    async def new(request: Request) -> Response:
        data = await body(request)
        path = deck_path(folder, data.get("path"), new=True)
        if path.exists():
            raise Refused(409, f"path: {path.relative_to(folder).as_posix()} exists already: open it, or choose "
                               f"another name")
        answer = await compute(keeper, ("templeforge.studio.jobs", "deck", (str(path), game_of(data))),
                               SAVE_DEADLINE)
        if answer is None:
            raise Refused(503, f"the new deck took over {SAVE_DEADLINE:.0f} s")
        return JSONResponse({"path": path.relative_to(folder).as_posix(), "unsaved": True, **answer})

    async def deck(request: Request) -> Response:
        path = deck_path(folder, request.query_params.get("path"))
        answer = await compute(keeper, ("templeforge.studio.jobs", "deck", (str(path),)), SAVE_DEADLINE)
        if answer is None:
            raise Refused(503, f"the deck took over {SAVE_DEADLINE:.0f} s to open")
        return JSONResponse({"path": path.relative_to(folder).as_posix(), **answer})

    async def prove(request: Request) -> Response:
        data = await body(request)
        job = ("templeforge.studio.jobs", "prove", drafted(folder, data))
        answer = await compute(prover, job, PROVE_DEADLINE)
        if answer is None:
            return JSONResponse({"verdict": "superseded", "headline": "stopped: a newer edit came first, or "
                                                                      f"it took over {PROVE_DEADLINE:.0f} s",
                                 "items": [], "edit": data.get("edit")})
        return JSONResponse({**answer, "edit": data.get("edit")})

    async def halt(request: Request) -> Response:
        return JSONResponse({"stopped": prover.stop()})

    async def save(request: Request) -> Response:
        job = ("templeforge.studio.jobs", "save", drafted(folder, await body(request)))
        answer = await compute(keeper, job, SAVE_DEADLINE)
        if answer is None:
            raise Refused(503, f"the save took over {SAVE_DEADLINE:.0f} s and was stopped; nothing was written")
        return JSONResponse(answer)

    def game_in(path: Path) -> str:
        from generators import GAMES

        try:
            with path.open(encoding="utf-8") as f:
                head = json.load(f)
        except (OSError, ValueError):
            raise Refused(400, f"path: {path.name} is not a deck file") from None
        game = head.get("game") if isinstance(head, dict) else None
        if game not in GAMES:
            raise Refused(400, f"path: {path.name} is not a deck of a game templeforge knows")
        return str(game)

    async def run(request: Request) -> Response:
        data = await body(request)
        path = deck_path(folder, data.get("path"))
        command = data.get("command")
        if command not in COMMANDS:
            raise Refused(400, f"command: expected one of {', '.join(COMMANDS)}, got {command!r}")
        players = data.get("players")
        if players is not None and (not isinstance(players, int) or isinstance(players, bool)
                                    or not 1 <= players <= 8):
            raise Refused(400, "players: expected the number of players at the table, 1 to 8")
        try:
            task = tasks.start(command, path, game_in(path), players)
        except Busy as err:
            raise Refused(409, str(err)) from None
        return JSONResponse(tasks.described(task), 202)

    async def runs(request: Request) -> Response:
        raw = request.query_params.get("id")
        if raw is not None:
            task = tasks.get(int(raw)) if raw.isdigit() else None
            if task is None:
                raise Refused(404, f"id: no command {raw} was run here")
            return JSONResponse(tasks.described(task))
        path = deck_path(folder, request.query_params.get("path"))
        deck = path.relative_to(folder).as_posix()
        return JSONResponse({"tasks": [tasks.described(t) for t in tasks.latest(deck)]})

    async def stop(request: Request) -> Response:
        data = await body(request)
        ident = data.get("id")
        if not isinstance(ident, int) or tasks.get(ident) is None:
            raise Refused(404, f"id: no command {ident!r} was run here")
        return JSONResponse({"stopping": tasks.stop(ident)})

    async def made(request: Request) -> Response:
        from generators.common.files import OutputError, inside

        name = request.path_params["path"]
        try:
            path = inside(folder, name)
        except OutputError:
            raise Refused(400, f"path: {name!r} leads outside {folder}") from None
        if not path.is_file():
            raise Refused(404, f"path: {name} is not a file under {folder}")
        return FileResponse(path, headers={"Cache-Control": "no-store"})

    routes = [Route("/", guarded(index)), Route("/static/{name}", guarded(static)),
              Route("/api/files", guarded(files)), Route("/api/deck", guarded(deck)),
              Route("/api/new", guarded(new), methods=["POST"]), Route("/api/front.png", guarded(front)),
              Route("/api/prove", guarded(prove), methods=["POST"]),
              Route("/api/save", guarded(save), methods=["POST"]),
              Route("/api/prove/stop", guarded(halt), methods=["POST"]),
              Route("/api/run", guarded(run), methods=["POST"]), Route("/api/run", guarded(runs)),
              Route("/api/stop", guarded(stop), methods=["POST"]), Route("/files/{path:path}", guarded(made))]
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        import threading

        from generators import GAMES

        modules = tuple(g.studio for g in GAMES.values() if g.studio)

        def warm() -> None:  # both workers started and the games' studio modules imported before the first edit
            for work in (prover, keeper):
                for module in modules:
                    try:
                        work.run(("templeforge.studio.worker", "warm", (module,)), SAVE_DEADLINE, polite=True)
                    except (OSError, EOFError):  # the server is stopping: nothing to warm
                        return

        threading.Thread(target=warm, daemon=True).start()
        yield
        prover.close()
        keeper.close()
        tasks.close()

    return Starlette(routes=routes, lifespan=lifespan)
