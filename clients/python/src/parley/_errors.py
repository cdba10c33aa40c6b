"""The error every failed call raises."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional


class ParleyError(Exception):
    """A call Parley refused or could not answer: its error envelope with the HTTP status.

    ``envelope`` is the whole ``{"error": {...}}`` body; an answer without one (a proxy's HTML
    page, say) gives ``code`` ``HTTP_<status>``.
    """

    status: int
    code: str
    type: str
    message: str
    request_id: Optional[str]
    details: List[Dict[str, Any]]
    envelope: Optional[Dict[str, Any]]

    def __init__(self, status: int, envelope: Optional[Dict[str, Any]], fallback_message: str = "") -> None:
        error: Mapping[str, Any] = envelope["error"] if envelope is not None else {}
        self.status = status
        self.envelope = envelope
        self.code = str(error.get("code", f"HTTP_{status}"))
        self.type = str(error.get("type", "server_error" if status >= 500 else "validation_error"))
        self.message = str(error.get("message", fallback_message or f"HTTP {status}"))
        request_id = error.get("requestId")
        self.request_id = request_id if isinstance(request_id, str) else None
        details = error.get("details")
        self.details = list(details) if isinstance(details, list) else []
        super().__init__(f"{self.status} {self.code}: {self.message}")


def envelope_of(body: Any) -> Optional[Dict[str, Any]]:
    """The body if it is Parley's error envelope, else None."""
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        return body
    return None
