"""Checking that a webhook request comes from Parley (Standard Webhooks signatures).

Parley signs ``{webhook-id}.{webhook-timestamp}.{body}`` with HMAC-SHA256 under the endpoint's
secret (``whsec_`` + base64) and sends ``v1,<base64 signature>`` in ``webhook-signature``; after a
secret rotation the header carries one signature per secret, space-separated.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from typing import Any, Mapping, Optional, Sequence, Union

DEFAULT_TOLERANCE_SECONDS = 300
"""How far the signed timestamp may be from now, either way (Standard Webhooks' default)."""


class WebhookVerificationError(Exception):
    """The request is not a genuine, fresh Parley delivery: reject it (answer 400 or 401)."""


def _key(secret: str) -> bytes:
    encoded = secret[len("whsec_") :] if secret.startswith("whsec_") else secret
    try:
        return base64.b64decode(encoded, validate=True)
    except binascii.Error as error:
        raise ValueError("the webhook secret is not whsec_ followed by base64") from error


def _header(headers: Mapping[str, str], name: str) -> str:
    for key, value in headers.items():
        if key.lower() == name:
            return value
    raise WebhookVerificationError(f"missing {name} header")


def sign(secret: str, message_id: str, timestamp: int, payload: Union[bytes, str]) -> str:
    """The ``v1,<base64>`` signature of a payload, as Parley computes it."""
    body = payload.encode() if isinstance(payload, str) else payload
    signed = f"{message_id}.{timestamp}.".encode() + body
    digest = hmac.new(_key(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def verify_webhook(
    payload: Union[bytes, str],
    headers: Mapping[str, str],
    secret: Union[str, Sequence[str]],
    *,
    tolerance_seconds: float = DEFAULT_TOLERANCE_SECONDS,
    now: Optional[float] = None,
) -> Any:
    """The delivered event, parsed, once the request is shown to be genuine and fresh.

    ``payload`` is the raw request body, exactly as received (not re-serialized JSON);
    ``headers`` the request's headers (any capitalization); ``secret`` the endpoint's secret, or
    several (say the new and the previous during a rotation): any one matching is enough.
    Raises :class:`WebhookVerificationError` otherwise.
    """
    message_id = _header(headers, "webhook-id")
    timestamp_text = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    try:
        timestamp = int(timestamp_text)
    except ValueError:
        raise WebhookVerificationError("webhook-timestamp is not a number of seconds") from None
    current = time.time() if now is None else now
    if abs(current - timestamp) > tolerance_seconds:
        raise WebhookVerificationError("webhook-timestamp is outside the tolerance")
    secrets = [secret] if isinstance(secret, str) else list(secret)
    expected = {sign(each, message_id, timestamp, payload) for each in secrets}
    for given in signatures.split():
        if given.startswith("v1,") and any(hmac.compare_digest(given, each) for each in expected):
            return json.loads(payload)
    raise WebhookVerificationError("no signature matches the secret")
