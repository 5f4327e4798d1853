"""A local webhook receiver for the monitor's tests: records every POST it accepts, can
refuse a number of them (HTTP 500), answer chosen events with a status of its choice
(``answer``, decided when the POST arrives), stall chosen events past the sender's time-out (``delay``) and be down (its port closed) for a while."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self


class WebhookReceiver:
    def __init__(self, port: int = 0) -> None:
        self.port = port
        self.accepted: list[tuple[str, dict[str, Any]]] = []  # (Idempotency-Key, body)
        self.refused = 0
        self.refuse_next = 0
        #: the status for an event (None: the usual answer); every POST is in ``answered``
        self.answer: Callable[[dict[str, Any]], int | None] = lambda event: None
        self.answered: list[tuple[str, int]] = []  # (Idempotency-Key, status), every POST
        #: seconds to wait before answering an event (past the sender's time-out: no answer)
        self.delay: Callable[[dict[str, Any]], float] = lambda event: 0.0
        self.lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def start(self) -> Self:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                event = json.loads(body)
                key = self.headers.get("Idempotency-Key", "")
                pause = receiver.delay(event)
                with receiver.lock:
                    # decided on arrival: a stalled POST is answered as the receiver was
                    # when it came, not as it is once the sender has given up on it
                    chosen = receiver.answer(event)
                if pause:
                    time.sleep(pause)
                with receiver.lock:
                    if chosen is not None:
                        status = chosen
                    elif receiver.refuse_next > 0:
                        receiver.refuse_next -= 1
                        receiver.refused += 1
                        status = 500
                    else:
                        receiver.accepted.append((key, event))
                        status = 204
                    receiver.answered.append((key, status))
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.port = self._server.server_address[1]
        threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()  # stop() then waits 0.05 s, not half a second
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def keys(self) -> list[str]:
        with self.lock:
            return [key for key, _ in self.accepted]

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
