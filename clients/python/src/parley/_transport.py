"""What the sync and async clients share about talking HTTP: settings, headers, retries, answers."""

from __future__ import annotations

import email.utils
import json
import os
import time
import uuid
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple, Union

import httpx

from ._errors import ParleyError, envelope_of
from ._operations import EventStream
from ._request import Listing, Request
from ._sse import EventDecoder
from ._types import Event

RETRIED_STATUSES = frozenset({429, 500, 502, 503, 504})
"""Answers worth asking again: the limit or the server may be free a moment later."""


@dataclass(frozen=True)
class Settings:
    base_url: str
    api_key: Optional[str]
    admin_token: Optional[str]
    max_retries: int
    max_retry_delay: float
    stream_read_timeout: float

    @staticmethod
    def resolve(
        base_url: Optional[str],
        api_key: Optional[str],
        admin_token: Optional[str],
        max_retries: int,
        max_retry_delay: float,
        stream_read_timeout: float,
    ) -> "Settings":
        """Arguments first, then ``PARLEY_BASE_URL``, ``PARLEY_API_KEY``, ``PARLEY_ADMIN_TOKEN``."""
        url = base_url or os.environ.get("PARLEY_BASE_URL") or "http://localhost:3000"
        if max_retries < 0:
            raise ValueError("max_retries must be 0 or more")
        return Settings(
            base_url=url.rstrip("/"),
            api_key=api_key or os.environ.get("PARLEY_API_KEY") or None,
            admin_token=admin_token or os.environ.get("PARLEY_ADMIN_TOKEN") or None,
            max_retries=max_retries,
            max_retry_delay=max_retry_delay,
            stream_read_timeout=stream_read_timeout,
        )

    def headers(self, request: Request[Any]) -> Dict[str, str]:
        """Authorization (the admin token on /admin), JSON, and an Idempotency-Key made once per
        call: the retries of a call send the same one (D75)."""
        headers = {"accept": "application/json"}
        token = self.admin_token if request.admin else self.api_key
        if token:
            headers["authorization"] = f"Bearer {token}"
        if request.body is not None:
            headers["content-type"] = "application/json"
        if request.idempotent:
            headers["idempotency-key"] = str(uuid.uuid4())
        return headers

    def stream_headers(self, last_event_id: Optional[str]) -> Dict[str, str]:
        headers = {"accept": "text/event-stream"}
        if self.api_key:
            headers["authorization"] = f"Bearer {self.api_key}"
        if last_event_id is not None:
            headers["last-event-id"] = last_event_id
        return headers

    def stream_timeout(self) -> httpx.Timeout:
        """The server sends a comment line every EVENTS_HEARTBEAT_MS (15 s by default): a longer
        silence is a dead connection, reopened from the last event."""
        return httpx.Timeout(30.0, read=self.stream_read_timeout)


def encode(body: Any) -> Optional[bytes]:
    """JSON as Python's json writes it: ints of any size as digits, keys in the caller's order.
    NaN and infinities are refused here, as JSON has no spelling for them."""
    if body is None:
        return None
    return json.dumps(body, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def retry_delay(headers: Optional[httpx.Headers], attempt: int, max_delay: float) -> float:
    """Seconds to wait before retry ``attempt`` (0-based): what Retry-After says (seconds or an
    HTTP date), else exponential backoff from 0.25 s; never more than ``max_delay``."""
    delay: float = 0.25 * 2**attempt
    value = headers.get("retry-after") if headers is not None else None
    if value:
        try:
            delay = float(value)
        except ValueError:
            try:
                delay = email.utils.parsedate_to_datetime(value).timestamp() - time.time()
            except (TypeError, ValueError):
                pass  # neither seconds nor a date: the backoff stands
    return min(max(delay, 0.0), max_delay)


def should_retry(response: httpx.Response) -> bool:
    return response.status_code in RETRIED_STATUSES


def result_of(response: httpx.Response) -> Any:
    """The parsed body of a successful answer (ints stay ints, keys keep their order), or the
    answer's error envelope raised as a :class:`ParleyError`."""
    body: Any = None
    if response.content:
        try:
            body = json.loads(response.content)
        except ValueError:
            if response.is_success:
                raise
    if response.is_success:
        return body
    raise ParleyError(response.status_code, envelope_of(body), response.reason_phrase)


def page_request(listing: Listing[Any], cursor: Any) -> Request[Dict[str, Any]]:
    """The request of the page after ``cursor`` (None: the first page)."""
    first = listing.first
    if cursor is None:
        return first
    return Request(first.method, first.path, {**first.params, listing.cursor: cursor}, admin=first.admin)


def page_items(listing: Listing[Any], page: Dict[str, Any], cursor: Any) -> Tuple[List[Any], Any]:
    """The items of a page and the cursor of the next one (None: this was the last)."""
    items: List[Any] = list(page["items"])
    following = page.get("next")
    if listing.cursor == "after" and (not items or following == cursor):
        following = None
    return items, following



def wait_before_retry(
    settings: Settings, attempt: int, outcome: Union[httpx.Response, httpx.TransportError]
) -> Optional[float]:
    """Seconds to wait before trying attempt ``attempt`` (0-based) again, or None when its outcome
    is the call's: an answer not worth retrying, or the last attempt's."""
    if attempt >= settings.max_retries:
        return None
    if isinstance(outcome, httpx.Response):
        return retry_delay(outcome.headers, attempt, settings.max_retry_delay) if should_retry(outcome) else None
    return retry_delay(None, attempt, settings.max_retry_delay)


class StreamCursor:
    """Where an event stream stands across its connections: the last event id received (sent
    back as Last-Event-ID, so that no event is lost or repeated) and the failures in a row."""

    def __init__(self, settings: Settings, spec: EventStream) -> None:
        self._settings = settings
        self._spec = spec
        self._last_id = None if spec.after is None else str(spec.after)
        self._failures = 0
        self._decoder = EventDecoder()

    def request(self) -> Dict[str, Any]:
        """The arguments of ``httpx`` ``stream()`` that open (or reopen) the stream."""
        return {
            "method": "GET",
            "url": self._settings.base_url + self._spec.path,
            "params": self._spec.params,
            "headers": self._settings.stream_headers(self._last_id),
            "timeout": self._settings.stream_timeout(),
        }

    def refused(self, response: httpx.Response) -> bool:
        """True when the answer is a refusal to raise (read it, then :func:`result_of`); a success
        starts a fresh connection, a refusal worth retrying waits in :meth:`wait_after`."""
        if response.is_success:
            self._failures = 0
            self._decoder = EventDecoder()
            return False
        return not (should_retry(response) and self._failures < self._settings.max_retries)

    def event_of(self, line: str) -> Optional[Event]:
        """The event a line completes, if any."""
        message = self._decoder.feed(line)
        if message is None:
            return None
        if message.id is not None:
            self._last_id = message.id
        # A message without an id is the server's word about the stream itself (``stream.closed``
        # when it falls too far behind), not an event: the reconnection that follows resumes it.
        if message.data is None or message.id is None:
            return None
        event: Event = json.loads(message.data)
        return event

    def wait_after(self, outcome: Union[httpx.Response, httpx.TransportError]) -> float:
        """Seconds before reconnecting once the server ended the stream, refused for a while, or
        the connection was lost; the connection error is raised after ``max_retries`` in a row."""
        if isinstance(outcome, httpx.TransportError) and self._failures >= self._settings.max_retries:
            raise outcome
        headers = outcome.headers if isinstance(outcome, httpx.Response) else None
        delay = retry_delay(headers, self._failures, self._settings.max_retry_delay)
        self._failures += 1
        return delay
