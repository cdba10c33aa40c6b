"""The blocking client, :class:`Parley`."""

from __future__ import annotations

import itertools
import time
from typing import Any, Iterator, Optional, TypeVar, Union

import httpx

from . import _operations as ops
from ._request import Listing, Request
from ._resources import Client, Sync
from ._transport import (
    Settings,
    StreamCursor,
    encode,
    page_items,
    page_request,
    result_of,
    wait_before_retry,
)
from ._types import Event

T = TypeVar("T")


class SyncTransport:
    """Sends calls with retries, walks pages and follows the event stream, over one httpx.Client."""

    def __init__(self, settings: Settings, http: httpx.Client) -> None:
        self.settings = settings
        self.http = http

    def send(self, request: Request[Any]) -> httpx.Response:
        """The answer, after at most ``max_retries`` retries of 429, 5xx and lost connections."""
        headers = self.settings.headers(request)
        content = encode(request.body)
        url = self.settings.base_url + request.path
        for attempt in itertools.count():
            outcome: Union[httpx.Response, httpx.TransportError]
            try:
                outcome = self.http.request(
                    request.method, url, params=dict(request.params), content=content, headers=headers
                )
            except httpx.TransportError as error:
                outcome = error
            wait = wait_before_retry(self.settings, attempt, outcome)
            if wait is None:
                if isinstance(outcome, httpx.TransportError):
                    raise outcome
                return outcome
            time.sleep(wait)
        raise AssertionError("unreachable: itertools.count() does not end")

    def call(self, request: Request[T]) -> T:
        result: T = result_of(self.send(request))
        return result

    def walk(self, listing: Listing[T]) -> Iterator[T]:
        cursor: Any = None
        while True:
            items, cursor = page_items(listing, self.call(page_request(listing, cursor)), cursor)
            yield from items
            if cursor is None:
                return

    def stream(self, spec: ops.EventStream) -> Iterator[Event]:
        """Events as they come; a dropped connection is reopened with Last-Event-ID, so that no
        event is lost or repeated. Gives up after ``max_retries`` failed reconnections in a row."""
        cursor = StreamCursor(self.settings, spec)
        while True:
            try:
                with self.http.stream(**cursor.request()) as response:
                    if cursor.refused(response):
                        response.read()
                        result_of(response)
                    if response.is_success:
                        for line in response.iter_lines():
                            event = cursor.event_of(line)
                            if event is not None:
                                yield event
                    wait = cursor.wait_after(response)
            except httpx.TransportError as error:
                wait = cursor.wait_after(error)
            time.sleep(wait)


class Parley(Client[Sync]):
    """The Parley REST API, grouped by resource. A refused call raises :class:`ParleyError`.

    ``base_url``, ``api_key`` and ``admin_token`` default to ``PARLEY_BASE_URL``,
    ``PARLEY_API_KEY`` and ``PARLEY_ADMIN_TOKEN``. Pass ``http_client`` to use your own
    ``httpx.Client`` (proxies, event hooks, transports); it is then yours to close.
    """

    def __init__(
        self,
        base_url: Optional[str] = None,
        api_key: Optional[str] = None,
        *,
        admin_token: Optional[str] = None,
        max_retries: int = 3,
        max_retry_delay: float = 30.0,
        timeout: float = 60.0,
        stream_read_timeout: float = 60.0,
        http_client: Optional[httpx.Client] = None,
    ) -> None:
        settings = Settings.resolve(base_url, api_key, admin_token, max_retries, max_retry_delay, stream_read_timeout)
        self._owns_http = http_client is None
        self._http = http_client or httpx.Client(timeout=timeout)
        super().__init__(SyncTransport(settings, self._http))

    def close(self) -> None:
        if self._owns_http:
            self._http.close()

    def __enter__(self) -> "Parley":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
