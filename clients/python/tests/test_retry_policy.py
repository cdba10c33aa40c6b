"""How long the clients wait before a retry: what Retry-After says, else exponential backoff, never
more than max_retry_delay; and when they stop."""

from __future__ import annotations

import email.utils
import time

import httpx

from parley._transport import Settings, retry_delay, wait_before_retry


def _settings(max_retries: int = 3) -> Settings:
    return Settings.resolve("http://parley.test", "key", None, max_retries, 30.0, 60.0)


def test_retry_after_in_seconds_or_as_a_date_is_honoured() -> None:
    assert retry_delay(httpx.Headers({"retry-after": "7"}), 0, 30.0) == 7.0
    in_ten_seconds = email.utils.formatdate(time.time() + 10, usegmt=True)
    assert 8.0 <= retry_delay(httpx.Headers({"retry-after": in_ten_seconds}), 0, 30.0) <= 10.0
    assert retry_delay(httpx.Headers({"retry-after": "3600"}), 0, 30.0) == 30.0


def test_without_retry_after_the_wait_doubles() -> None:
    assert [retry_delay(None, attempt, 30.0) for attempt in range(4)] == [0.25, 0.5, 1.0, 2.0]
    assert retry_delay(httpx.Headers(), 10, 30.0) == 30.0


def test_only_busy_and_failed_answers_are_retried_and_only_max_retries_times() -> None:
    settings = _settings(max_retries=2)
    busy = httpx.Response(503, headers={"retry-after": "1"})
    assert wait_before_retry(settings, 0, busy) == 1.0
    assert wait_before_retry(settings, 1, httpx.Response(429)) == 0.5
    assert wait_before_retry(settings, 2, busy) is None
    assert wait_before_retry(settings, 0, httpx.ConnectError("refused")) == 0.25
    for final in (200, 201, 400, 401, 404, 409, 501):
        assert wait_before_retry(settings, 0, httpx.Response(final)) is None


def test_a_retry_after_that_is_neither_seconds_nor_a_date_leaves_the_backoff() -> None:
    assert retry_delay(httpx.Headers({"retry-after": "soon"}), 1, 30.0) == 0.5
