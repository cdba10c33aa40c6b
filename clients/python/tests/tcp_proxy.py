"""A TCP proxy in front of the test server that can break connections for real.

The client under test talks to the proxy; the proxy forwards bytes both ways and records them, and
on request drops the answer of the next call after the server sent it, or cuts every open
connection (an event stream included).
"""

from __future__ import annotations

import re
import socket
import threading
from typing import List
from urllib.parse import urlsplit


class TcpProxy:
    def __init__(self, upstream_url: str) -> None:
        upstream = urlsplit(upstream_url)
        self._upstream = (upstream.hostname or "127.0.0.1", upstream.port or 80)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self._lock = threading.Lock()
        self._open: List[socket.socket] = []
        self._drop_answers = 0
        self.sent: List[bytes] = []  # what clients sent, chunk by chunk
        self.statuses: List[int] = []  # the status of every answer the server gave
        self.dropped = 0
        self._refusals: List[bytes] = []
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def drop_next_answer(self) -> None:
        """The next answer the server sends is thrown away and its connection closed: the call
        was made, and the client never hears of it."""
        with self._lock:
            self._drop_answers += 1

    def refuse_next_request(self, status: int, reason: str, retry_after: str) -> None:
        """The next request is answered by the proxy itself, as a load balancer in front of a busy
        server would, and never reaches the server."""
        answer = (
            f"HTTP/1.1 {status} {reason}\r\nRetry-After: {retry_after}\r\n"
            "Content-Length: 0\r\nConnection: close\r\n\r\n"
        )
        with self._lock:
            self._refusals.append(answer.encode())

    def cut(self) -> None:
        """Closes every open connection, as a network failure would."""
        with self._lock:
            victims, self._open = self._open, []
        for each in victims:
            _close(each)

    def requests(self) -> List[str]:
        """The request heads clients sent, in order."""
        text = b"".join(self.sent).decode("latin-1")
        return re.findall(r"(?:GET|POST|PUT|PATCH|DELETE) [^\r\n]*\r\n(?:[^\r\n]+\r\n)*", text)

    def close(self) -> None:
        self._listener.close()
        self.cut()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self._upstream)
            with self._lock:
                self._open += [client, upstream]
            threading.Thread(target=self._pump, args=(client, upstream, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, False), daemon=True).start()

    def _pump(self, source: socket.socket, target: socket.socket, from_client: bool) -> None:
        try:
            while chunk := source.recv(65536):
                if from_client:
                    with self._lock:
                        self.sent.append(chunk)
                        refusal = self._refusals.pop(0) if self._refusals else None
                    if refusal is not None:
                        source.sendall(refusal)
                        break
                else:
                    status = re.match(rb"HTTP/1\.1 (\d{3}) ", chunk)
                    if status:
                        with self._lock:
                            self.statuses.append(int(status.group(1)))
                            drop = self._drop_answers > 0
                            if drop:
                                self._drop_answers -= 1
                                self.dropped += 1
                        if drop:
                            break
                target.sendall(chunk)
        except OSError:
            pass
        _close(source)
        _close(target)


def _close(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()
