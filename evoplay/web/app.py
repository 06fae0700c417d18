"""The web app (bottle) and the local threaded server that runs it.

Pages and their scripts are package data under ``static/``; the API answers JSON, and
every error, the router's own included, is one line: ``{"error": "..."}`` with a 4xx
status (500 only for a fault of the server, which is logged and never stops it).
"""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
import traceback
from functools import wraps
from pathlib import Path
from socketserver import ThreadingMixIn
from types import MappingProxyType
from wsgiref.simple_server import ServerHandler, WSGIRequestHandler, WSGIServer

import bottle

from evoplay import context
from evoplay.errors import EvoplayError
from evoplay.web import api, boards
from evoplay.web.archive import Archives, elite_details, parse_index
from evoplay.web.roots import ApiError, Roots

STATIC = Path(__file__).with_name("static")
#: Largest request body accepted (a request is a board and two specs).
MAX_BODY = 16 * 1024
#: The board page (any game; ``/board`` is its older address) and a run's page.
PAGES = MappingProxyType({"/": "board.html", "/board": "board.html", "/run": "run.html"})


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
    try:
        if length > MAX_BODY:
            if length <= 64 * MAX_BODY:  # read it anyway, so that the client gets the answer
                stream.read(length)
            raise ApiError(413, f"request body is larger than {MAX_BODY} bytes")
        raw = stream.read(length) if length > 0 else b""
    except TimeoutError:  # the server's request_timeout (_Handler): the client went silent
        limit = bottle.request.environ.get("evoplay.request_timeout")
        within = f" within {limit:g} s" if limit else ""
        raise ApiError(408, f"the request body did not arrive{within}: send all of its Content-Length bytes") from None
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


#: The key of ``app.config`` holding the app's ``boards.Games``: the games this server plays.
GAMES = "evoplay.games"


def make_app(roots: Roots, games=()) -> bottle.Bottle:
    """The web app over ``roots``; ``games`` are the references of the games it plays beyond
    the built-in ones (``evoplay serve --game``), resolved now. What the app plays is its own
    (``app.config[GAMES]``, a ``boards.Games``), passed to whatever reads it: two apps in one
    process play each its own games."""
    recorded = [roots.run_game(run) for run in roots.runs]
    named = list(games) + [ref for ref in boards.run_games_to_serve(recorded) if ref not in games]
    played = boards.Games(list(dict.fromkeys(named)))
    app = bottle.Bottle()
    app.config["catchall"] = True
    app.config[GAMES] = played
    archives = Archives(roots)
    board_players = boards.Players(roots, archives, played)
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
        return _json(played.listing())

    @app.get("/api/games/<name>/players")
    @_guarded
    def game_players(name):
        return _json(boards.players(*played.named(name), roots))

    @app.post("/api/games/<name>/state")
    @_guarded
    def game_state(name):
        return _json(boards.state_of(played, name, _body()))

    @app.post("/api/games/<name>/move")
    @_guarded
    def game_move(name):
        return _json(boards.human_move(played, name, _body()))

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
        details = roots.run_details(run_index(index))
        # the game its champions are played on here, or why they cannot be (a user's game not named)
        details["game"], details["game_note"] = played.run_game(*roots.run_game(roots.run(details["id"])))
        return _json(details)

    @app.get("/api/runs/<index>/archive")
    @_guarded
    def archive(index):
        run = run_index(index)
        query = bottle.request.query
        unknown = sorted(set(query.keys()) - {"trial"})
        if unknown:
            raise ApiError(400, f"unknown query parameter {unknown[0]!r} (parameters: trial)")
        only = parse_index(query.get("trial"), "trial") if "trial" in query else None
        view = archives.view(run, only)
        if view["archive"] is not None:  # the game its elites are played on here (None: not here), as the run's champions'
            view["archive"]["game"] = played.run_game(*roots.run_game(roots.run(run)))[0]
        return _json(view)

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

#: Seconds a request (its line, headers and body) has to arrive, counted from the moment the
#: connection is accepted; a client that sends nothing more for that long is dropped. A
#: browser or script sends a whole request (at most ``MAX_BODY`` bytes of body) in
#: milliseconds, on this machine or over a network; 15 s leaves a slow or busy client ample
#: room, yet a connection that goes silent half way (or sends a byte now and then) holds
#: one of the ``MAX_CONNECTIONS`` threads for no longer than that. The same time bounds
#: each write of the answer to a client that stops reading it. Computing the answer is not
#: counted: an mcts move may take tens of seconds.
REQUEST_TIMEOUT = 15.0
#: Connections handled at once, one thread each. A browser opens at most 6 connections to a
#: server, so 64 serve several pages and scripts together; a connection beyond them is
#: answered 503 at once and closed (never queued), so that a flood of connections gets no
#: more than 64 threads, each dropped after ``REQUEST_TIMEOUT`` if it sends nothing.
MAX_CONNECTIONS = 64


class _Deadline:
    """The request stream of one connection, read until ``deadline`` (``time.monotonic``)
    at the latest: each read waits only the time left (TimeoutError when none is), and
    the socket then waits ``write_timeout`` for each write of the answer."""

    def __init__(self, stream, sock: socket.socket, deadline: float, write_timeout: float):
        self._stream, self._sock, self._deadline, self._write_timeout = stream, sock, deadline, write_timeout

    def _timed(self, read, *args):
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request did not arrive in time")
        self._sock.settimeout(left)
        try:
            return read(*args)
        finally:
            self._sock.settimeout(self._write_timeout)

    def read(self, *args):
        return self._timed(self._stream.read, *args)

    def readline(self, *args):
        return self._timed(self._stream.readline, *args)

    def readlines(self, *args):
        return self._timed(self._stream.readlines, *args)

    def __iter__(self):
        return iter(self.readline, b"")

    def __getattr__(self, name):  # close, closed, ...
        return getattr(self._stream, name)


class _ServerHandler(ServerHandler):
    def handle_error(self):
        """A client that stops taking the answer for ``request_timeout`` is dropped with one
        line in the log, not a traceback."""
        if isinstance(sys.exc_info()[1], TimeoutError):
            self.request_handler.log_message("dropped: the client took no part of the answer for %g s",
                                             self.request_handler.server.request_timeout)
            return
        super().handle_error()


class _Handler(WSGIRequestHandler):
    quiet = False

    def log_message(self, format, *args):
        if not self.quiet:
            sys.stderr.write(f"{self.address_string()} {format % args}\n")

    def setup(self):
        super().setup()
        timeout = self.server.request_timeout
        self.rfile = _Deadline(self.rfile, self.connection, time.monotonic() + timeout, timeout)

    def get_environ(self):
        return {**super().get_environ(), "evoplay.request_timeout": self.server.request_timeout}

    def handle(self):
        """``WSGIRequestHandler.handle``, but a request that does not arrive within the
        server's ``request_timeout`` drops the connection (a body that does not is a 408,
        ``_body``) and a client that stops reading the answer is dropped too."""
        try:
            self.raw_requestline = self.rfile.readline(65537)
            if len(self.raw_requestline) > 65536:
                self.requestline = ""
                self.request_version = ""
                self.command = ""
                self.send_error(414)
                return
            if not self.parse_request():  # an error code has been sent
                return
        except TimeoutError:
            self.log_message("dropped: the request did not arrive within %g s", self.server.request_timeout)
            return
        handler = _ServerHandler(self.rfile, self.wfile, self.get_stderr(), self.get_environ(), multithread=False)
        handler.request_handler = self
        handler.run(self.server.get_app())


class _ThreadingServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True
    #: Connections the listening socket holds until they are accepted (socketserver's 5
    #: made about 1 request in 100 wait a second under 8 clients).
    request_queue_size = 128
    #: Seconds for a request to arrive (``REQUEST_TIMEOUT``); may be set on a server.
    request_timeout = REQUEST_TIMEOUT
    #: Connections handled at once (``MAX_CONNECTIONS``); may be set on a server.
    max_connections = MAX_CONNECTIONS

    def __init__(self, *args, **kwargs):
        self._open = 0
        self._open_lock = threading.Lock()
        self.context = context.current()  # the server's: every request thread works in it
        super().__init__(*args, **kwargs)

    def process_request(self, request, client_address):
        """A thread for the connection while fewer than ``max_connections`` are open;
        beyond them, a 503 and the connection closed at once."""
        with self._open_lock:
            full = self._open >= self.max_connections
            if not full:
                self._open += 1
        if full:
            self._refuse(request, client_address)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._release()
            raise

    def process_request_thread(self, request, client_address):
        try:
            with context.use(self.context):
                super().process_request_thread(request, client_address)
        finally:
            self._release()

    def _release(self):
        with self._open_lock:
            self._open -= 1

    def _refuse(self, request, client_address):
        """Answer 503 without waiting on the client (the answer fits the empty send buffer),
        and close the connection."""
        body = json.dumps({"error": f"the server is handling {self.max_connections} connections, "
                                    f"its most at once: try again"}).encode()
        head = (f"HTTP/1.0 503 Service Unavailable\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n").encode()
        try:
            request.setblocking(False)
            request.send(head + body)
            request.recv(65536)  # what the client has sent: unread, closing would reset the connection
        except OSError:
            pass
        if not self.RequestHandlerClass.quiet:
            sys.stderr.write(f"{client_address[0]} refused: {self.max_connections} connections open\n")
        self.shutdown_request(request)


class _ThreadingServer6(_ThreadingServer):
    address_family = socket.AF_INET6


def make_server(app, host: str = "127.0.0.1", port: int = 8000, quiet: bool = False,
                request_timeout: float | None = None, max_connections: int | None = None):
    """A threaded WSGI server for ``app`` listening on ``host:port`` (port 0: any free one).

    A request must arrive within ``request_timeout`` seconds (``REQUEST_TIMEOUT``) and at
    most ``max_connections`` (``MAX_CONNECTIONS``) are handled at once; a connection beyond
    them is answered 503 and closed."""
    handler = type("Handler", (_Handler,), {"quiet": quiet})
    server_class = _ThreadingServer6 if ":" in host else _ThreadingServer
    try:
        server = server_class((host, port), handler)
    except OSError as e:
        raise EvoplayError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    if request_timeout is not None:
        server.request_timeout = request_timeout
    if max_connections is not None:
        server.max_connections = max_connections
    server.set_app(app)
    return server
