"""The web app (bottle) and the local threaded server that runs it.

Pages and their scripts are package data under ``static/``; the API answers JSON, and
every error, the router's own included, is one line: ``{"error": "..."}`` with a 4xx
status (500 only for a fault of the server, which is logged and never stops it).
"""

from __future__ import annotations

import json
import socket
import sys
import traceback
from functools import wraps
from pathlib import Path
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer

import bottle

from evoplay.errors import EvoplayError
from evoplay.web import api, boards
from evoplay.web.archive import Archives, elite_details, parse_index
from evoplay.web.roots import ApiError, Roots

STATIC = Path(__file__).with_name("static")
#: Largest request body accepted (a request is a board and two specs).
MAX_BODY = 16 * 1024
#: The board page (any game; ``/board`` is its older address) and a run's page.
PAGES = {"/": "board.html", "/board": "board.html", "/run": "run.html"}


def _json(obj, status: int = 200) -> str:
    bottle.response.status = status
    bottle.response.content_type = "application/json"
    bottle.response.set_header("Cache-Control", "no-store")
    return json.dumps(obj, allow_nan=False)


def _error(status: int, message: str) -> str:
    return _json({"error": message.replace("\n", " ")}, status)


def _content_length() -> int:
    """The request's Content-Length (0 when absent); 400 unless it is a non-negative integer
    (bottle's own reading raises ValueError, a 500, for ``Content-Length: abc``)."""
    text = bottle.request.environ.get("CONTENT_LENGTH", "").strip()
    if not text:
        return 0
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        raise ApiError(400, f"the Content-Length header must be a byte count, got {text[:40]!r}")
    return int(text)


def _body():
    """The request's JSON body; 4xx ApiError if too big or not JSON."""
    length = _content_length()
    stream = bottle.request.environ["wsgi.input"]
    if length > MAX_BODY:
        if length <= 64 * MAX_BODY:  # read it anyway, so that the client gets the answer
            stream.read(length)
        raise ApiError(413, f"request body is larger than {MAX_BODY} bytes")
    raw = stream.read(length) if length > 0 else b""
    if not raw.strip():
        raise ApiError(400, "request body is empty: send a JSON object")

    def refuse(name):
        raise ValueError(f"{name} is not a number in JSON")

    try:
        return json.loads(raw.decode("utf-8"), parse_constant=refuse)
    except UnicodeDecodeError:
        raise ApiError(400, "request body is not UTF-8") from None
    except ValueError as e:
        raise ApiError(400, f"request body is not valid JSON: {e}") from None
    except RecursionError:
        raise ApiError(400, "request body is nested too deeply") from None


def _guarded(handler):
    """Answer ApiError and EvoplayError with a 4xx line, anything else with a logged 500."""

    @wraps(handler)
    def wrapper(*args, **kwargs):
        try:
            return handler(*args, **kwargs)
        except bottle.HTTPResponse:
            raise
        except ApiError as e:
            return _error(e.status, e.message)
        except EvoplayError as e:
            return _error(400, str(e))
        except Exception as e:  # a fault of the server: log it, keep serving
            traceback.print_exc(file=sys.stderr)
            return _error(500, f"internal error: {type(e).__name__}: {e}")

    return wrapper


def make_app(roots: Roots, games=()) -> bottle.Bottle:
    """The web app over ``roots``; ``games`` are the references of the games it plays beyond
    the built-in ones (``evoplay serve --game``), resolved now."""
    boards.serve_games(games)
    app = bottle.Bottle()
    app.config["catchall"] = True
    archives = Archives(roots)
    board_players = boards.Players(roots, archives)
    book = api.PlayerBook(board_players)
    static_names = {p.name for p in STATIC.iterdir() if p.is_file()}

    def router_error(res):  # 404 / 405 / bottle's own 500, as one JSON line
        status = res.status_code
        if status == 404:
            message = f"not found: {bottle.request.method} {bottle.request.path}"
        elif status == 405:
            message = f"method {bottle.request.method} not allowed on {bottle.request.path}"
        else:
            message = f"{res.status_line}: {res.body}"
        return _error(status, message)

    app.default_error_handler = router_error

    for route, name in PAGES.items():
        app.route(route, "GET", lambda name=name: bottle.static_file(name, root=str(STATIC)))

    @app.get("/static/<name>")
    def static(name):
        if name not in static_names:
            return _error(404, f"not found: /static/{name}")
        return bottle.static_file(name, root=str(STATIC))

    @app.get("/api/players")
    @_guarded
    def players():
        return _json(api.listing(board_players))

    @app.post("/api/analyze")
    @_guarded
    def analyze():
        return _json(api.analyze(book, _body()))

    @app.post("/api/move")
    @_guarded
    def move():
        return _json(api.human_move(_body()))

    @app.post("/api/ai-move")
    @_guarded
    def ai_move():
        return _json(api.computer_move(book, _body()))

    @app.get("/api/games")
    @_guarded
    def games():
        return _json(boards.games())

    @app.get("/api/games/<name>/players")
    @_guarded
    def game_players(name):
        return _json(boards.players(*boards.game_named(name), roots))

    @app.post("/api/games/<name>/state")
    @_guarded
    def game_state(name):
        return _json(boards.state_of(name, _body()))

    @app.post("/api/games/<name>/move")
    @_guarded
    def game_move(name):
        return _json(boards.human_move(name, _body()))

    @app.post("/api/games/<name>/ai-move")
    @_guarded
    def game_ai_move(name):
        return _json(boards.computer_move(board_players, name, _body()))

    @app.post("/api/games/<name>/analysis")
    @_guarded
    def game_analysis(name):
        return _json(boards.analysis(board_players, name, _body()))

    @app.get("/api/runs")
    @_guarded
    def runs():
        return _json({"runs": roots.run_listing()})

    def run_index(text: str) -> int:
        """A run's number: ASCII digits only (``int`` also reads '٣' and refuses 5,000 digits)."""
        if not (text.isascii() and text.isdigit()) or len(text) > 7:
            raise ApiError(404, f"no run {text[:20]!r}: runs are numbered 0, 1, ...")
        return int(text)

    @app.get("/api/runs/<index>")
    @_guarded
    def run(index):
        return _json(roots.run_details(run_index(index)))

    @app.get("/api/runs/<index>/archive")
    @_guarded
    def archive(index):
        run = run_index(index)
        query = bottle.request.query
        unknown = sorted(set(query.keys()) - {"trial"})
        if unknown:
            raise ApiError(400, f"unknown query parameter {unknown[0]!r} (parameters: trial)")
        only = parse_index(query.get("trial"), "trial") if "trial" in query else None
        return _json(archives.view(run, only))

    @app.get("/api/runs/<index>/elite")
    @_guarded
    def elite(index):
        run = run_index(index)
        query = bottle.request.query
        unknown = sorted(set(query.keys()) - {"trial", "cell", "elite"})
        if unknown:
            raise ApiError(400, f"unknown query parameter {unknown[0]!r} (parameters: trial, cell, elite)")
        numbers = [parse_index(query.get(name), name) for name in ("trial", "cell", "elite")]
        return _json(elite_details(archives, run, *numbers))

    @app.get("/api/runs/<index>/curve")
    @_guarded
    def curve(index):
        path = roots.curve_file(run_index(index))
        return bottle.static_file(path.name, root=str(path.parent))

    return app


# ---------------------------------------------------------------- server


class _Handler(WSGIRequestHandler):
    quiet = False

    def log_message(self, format, *args):
        if not self.quiet:
            sys.stderr.write(f"{self.address_string()} {format % args}\n")


class _ThreadingServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True
    #: Connections the listening socket holds until they are accepted (socketserver's 5
    #: made about 1 request in 100 wait a second under 8 clients).
    request_queue_size = 128


class _ThreadingServer6(_ThreadingServer):
    address_family = socket.AF_INET6


def make_server(app, host: str = "127.0.0.1", port: int = 8000, quiet: bool = False):
    """A threaded WSGI server for ``app`` listening on ``host:port`` (port 0: any free one)."""
    handler = type("Handler", (_Handler,), {"quiet": quiet})
    server_class = _ThreadingServer6 if ":" in host else _ThreadingServer
    try:
        server = server_class((host, port), handler)
    except OSError as e:
        raise EvoplayError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    server.set_app(app)
    return server

