"""The web server drops a client that goes silent and bounds the connections it handles.

1,200 connections that each sent a partial request ("GET / HTTP/1.1\\r\\n", then nothing)
kept 1,201 server threads alive after 30 s: the server read with no timeout and started a
thread per connection without bound. A request must now arrive whole within the server's
``request_timeout`` (the connection is closed otherwise, a partial body answered 408), and
at most ``max_connections`` are handled at once (one more is answered 503 and closed at
once). The tests set both low on a server running in this process, so that they take
seconds, and count its connection threads with ``threading.enumerate``.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from contextlib import contextmanager

from support.web import request

from evoplay.web.app import make_app, make_server
from evoplay.web.roots import Roots

#: The timeouts the tests give the server, and the time beyond one that a close may take.
TIMEOUT = 1.5
MARGIN = 3.0


def connection_threads() -> int:
    """The server's threads that handle one connection each (socketserver names their target)."""
    return sum("process_request_thread" in t.name for t in threading.enumerate())


@contextmanager
def serving(timeout: float = TIMEOUT, max_connections: int = 200):
    server = make_server(make_app(Roots([])), "127.0.0.1", 0, quiet=True)
    server.request_timeout, server.max_connections = timeout, max_connections
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_port
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def partial(port: int, data: bytes = b"GET / HTTP/1.1\r\n") -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(data)
    return s


def closed_by(s: socket.socket, deadline: float) -> tuple[bool, bytes]:
    """Whether the server closed ``s`` (end of stream or a reset) before ``deadline``
    (time.monotonic; one look at least), and what it sent first."""
    got = b""
    while True:
        s.settimeout(max(deadline - time.monotonic(), 0.01))
        try:
            chunk = s.recv(4096)
        except socket.timeout:
            return False, got
        except OSError:  # reset
            return True, got
        if not chunk:
            return True, got
        got += chunk


def answers(port: int) -> dict:
    status, data, _ = request(f"http://127.0.0.1:{port}/api/games")
    assert status == 200, data
    return data


def test_silent_partial_requests_are_dropped_after_the_timeout_while_the_server_answers():
    n = 120
    with serving(max_connections=n + 20) as port:
        base = connection_threads()
        start = time.monotonic()
        held = [partial(port) for _ in range(n)]
        try:
            # half-sent requests do not keep others waiting
            assert [g["name"] for g in answers(port)["games"]][:2] == ["tictactoe", "checkers"]
            results = [closed_by(s, start + TIMEOUT + MARGIN) for s in held]
            took = time.monotonic() - start
        finally:
            for s in held:
                s.close()
        still_open = sum(not closed for closed, _ in results)
        assert still_open == 0, f"{still_open} of {n} silent connections still open after {took:.1f} s"
        assert took >= TIMEOUT * 0.8  # dropped by the timeout, not at once
        assert all(got == b"" for _, got in results)  # dropped without an answer: none was asked
        for _ in range(50):
            if connection_threads() <= base:
                break
            time.sleep(0.1)
        assert connection_threads() <= base
        answers(port)


def test_a_client_that_trickles_its_request_is_dropped_too():
    """The timeout is for the whole request to arrive, not for each read: a byte every few
    tenths of a second does not keep a connection."""
    with serving() as port:
        s = partial(port, b"G")
        start = time.monotonic()
        closed = False
        try:
            for ch in b"ET / HTTP/1.1\r\nX-Slow: " + b"a" * 200:
                time.sleep(0.25)
                try:
                    s.sendall(bytes([ch]))
                except OSError:
                    closed = True
                    break
                if time.monotonic() - start > TIMEOUT + MARGIN:
                    break
            if not closed:
                closed = closed_by(s, time.monotonic() + 0.5)[0]
        finally:
            s.close()
        assert closed and time.monotonic() - start < TIMEOUT + MARGIN + 1


def test_a_body_that_stops_arriving_gets_a_408_line():
    with serving() as port:
        s = partial(port, b"POST /api/games/tictactoe/state HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                          b"Content-Length: 100\r\n\r\n{\"moves\": ")
        try:
            closed, got = closed_by(s, time.monotonic() + TIMEOUT + MARGIN)
        finally:
            s.close()
        assert closed and b" 408 " in got.partition(b"\r\n")[0], got[:200]
        body = json.loads(got.partition(b"\r\n\r\n")[2])
        assert set(body) == {"error"} and "\n" not in body["error"] and "did not arrive" in body["error"]
        answers(port)


def test_connections_over_the_bound_are_refused_at_once():
    bound, n = 10, 40
    with serving(timeout=3.0, max_connections=bound) as port:
        base = connection_threads()
        most = [0]
        stop = threading.Event()

        def watch():
            while not stop.is_set():
                most[0] = max(most[0], connection_threads() - base)
                time.sleep(0.01)

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        start = time.monotonic()
        held = [partial(port) for _ in range(n)]
        try:
            soon = [closed_by(s, start + 1.5) for s in held]
            refused = [got for closed, got in soon if closed]
            kept = [s for s, (closed, _) in zip(held, soon) if not closed]
            later = [closed_by(s, start + 3.0 + MARGIN)[0] for s in kept]
        finally:
            stop.set()
            watcher.join(5)
            for s in held:
                s.close()
        assert len(refused) == n - bound and len(kept) == bound  # the first ten are handled
        assert all(got == b"" or b" 503 " in got.partition(b"\r\n")[0] for got in refused)
        assert any(b" 503 " in got.partition(b"\r\n")[0] for got in refused)
        assert all(later), "connections within the bound were not dropped after the timeout"
        assert most[0] <= bound, f"{most[0]} connection threads at once, over the bound of {bound}"
        for _ in range(50):  # the slots come back: the server answers again
            if connection_threads() <= base:
                break
            time.sleep(0.1)
        answers(port)


def test_make_server_takes_the_limits_and_has_defaults():
    server = make_server(make_app(Roots([])), port=0, quiet=True, request_timeout=2.5, max_connections=7)
    try:
        assert (server.request_timeout, server.max_connections) == (2.5, 7)
    finally:
        server.server_close()
    server = make_server(make_app(Roots([])), port=0, quiet=True)
    try:
        assert 10 <= server.request_timeout <= 20 and 8 <= server.max_connections <= 1000
    finally:
        server.server_close()
