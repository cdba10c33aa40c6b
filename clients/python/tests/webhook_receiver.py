"""An HTTP endpoint that takes Parley's webhook deliveries and hands them to the test."""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Dict


@dataclass(frozen=True)
class Delivery:
    headers: Dict[str, str]
    body: bytes


class WebhookReceiver:
    def __init__(self) -> None:
        self.deliveries: "queue.Queue[Delivery]" = queue.Queue()
        received = self.deliveries

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                received.put(Delivery(dict(self.headers.items()), body))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *_: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/hook"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def next(self, timeout: float = 30.0) -> Delivery:
        """The next delivery, waiting for it to arrive."""
        return self.deliveries.get(timeout=timeout)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
