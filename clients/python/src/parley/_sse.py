"""Server-sent events (the text/event-stream format), read line by line."""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional


@dataclass(frozen=True)
class ServerSentEvent:
    id: Optional[str]
    event: Optional[str]
    data: Optional[str]


class EventDecoder:
    """Gathers the ``id``, ``event`` and ``data`` fields of each message; a blank line ends one.
    Comment lines (the server's heartbeats) are skipped."""

    def __init__(self) -> None:
        self._id: Optional[str] = None
        self._event: Optional[str] = None
        self._data: List[str] = []

    def feed(self, line: str) -> Optional[ServerSentEvent]:
        """Takes one line (its line ending, if any, is ignored); returns the message it ends."""
        line = line.rstrip("\r\n")
        if line == "":
            if self._id is None and not self._data:
                return None
            message = ServerSentEvent(self._id, self._event, "\n".join(self._data) if self._data else None)
            self._id, self._event, self._data = None, None, []
            return message
        if line.startswith(":"):
            return None
        name, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if name == "id":
            self._id = value
        elif name == "event":
            self._event = value
        elif name == "data":
            self._data.append(value)
        return None
