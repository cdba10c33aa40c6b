"""The asyncio client, :class:`AsyncParley`: the same resources and methods as :class:`Parley`,
awaited, with async iterators for lists and the event stream."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any, AsyncIterator, Optional, TypeVar, Union

import httpx

from . import _operations as ops
from ._request import Listing, Request
from ._resources import Client, Async
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


class AsyncTransport:
    """Sends calls with retries, walks pages and follows the event stream, over one httpx.AsyncClient."""

    def __init__(self, settings: Settings, http: httpx.AsyncClient) -> None:
        self.settings = settings
        self.http = http

    async def send(self, request: Request[Any]) -> httpx.Response:
        """The answer, after at most ``max_retries`` retries of 429, 5xx and lost connections."""
        headers = self.settings.headers(request)
        content = encode(request.body)
        url = self.settings.base_url + request.path
        for attempt in itertools.count():
            outcome: Union[httpx.Response, httpx.TransportError]
            try:
                outcome = await self.http.request(
                    request.method, url, params=dict(request.params), content=content, headers=headers
                )
            except httpx.TransportError as error:
                outcome = error
            wait = wait_before_retry(self.settings, attempt, outcome)
            if wait is None:
                if isinstance(outcome, httpx.TransportError):
                    raise outcome
                return outcome
            await asyncio.sleep(wait)
        raise AssertionError("unreachable: itertools.count() does not end")

    async def call(self, request: Request[T]) -> T:
        result: T = result_of(await self.send(request))
        return result

    async def walk(self, listing: Listing[T]) -> AsyncIterator[T]:
        cursor: Any = None
        while True:
            items, cursor = page_items(listing, await self.call(page_request(listing, cursor)), cursor)
            for item in items:
                yield item
            if cursor is None:
                return

    async def stream(self, spec: ops.EventStream) -> AsyncIterator[Event]:
        """Events as they come; a dropped connection is reopened with Last-Event-ID, so that no
        event is lost or repeated. Gives up after ``max_retries`` failed reconnections in a row."""
        cursor = StreamCursor(self.settings, spec)
        while True:
            try:
                async with self.http.stream(**cursor.request()) as response:
                    if cursor.refused(response):
                        await response.aread()
                        result_of(response)
                    if response.is_success:
                        async for line in response.aiter_lines():
                            event = cursor.event_of(line)
                            if event is not None:
                                yield event
                    wait = cursor.wait_after(response)
            except httpx.TransportError as error:
                wait = cursor.wait_after(error)
            await asyncio.sleep(wait)


class AsyncParley(Client[Async]):
    """The Parley REST API for asyncio, grouped by resource, as :class:`Parley`.

    ``base_url``, ``api_key`` and ``admin_token`` default to ``PARLEY_BASE_URL``,
    ``PARLEY_API_KEY`` and ``PARLEY_ADMIN_TOKEN``. Pass ``http_client`` to use your own
    ``httpx.AsyncClient`` (proxies, event hooks, transports); it is then yours to close.
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
        http_client: Optional[httpx.AsyncClient] = None,
    ) -> None:
        settings = Settings.resolve(base_url, api_key, admin_token, max_retries, max_retry_delay, stream_read_timeout)
        self._owns_http = http_client is None
        self._http = http_client or httpx.AsyncClient(timeout=timeout)
        super().__init__(AsyncTransport(settings, self._http))

    async def close(self) -> None:
        if self._owns_http:
            await self._http.aclose()

    async def __aenter__(self) -> "AsyncParley":
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()
