"""Lets one scenario drive either client: a sync call's value is used as it is, an async call's
is awaited; a list is read whether it is an iterator or an async iterator."""

from __future__ import annotations

import inspect
from typing import Any, Optional


async def done(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


async def collect(items: Any, limit: Optional[int] = None) -> list[Any]:
    found: list[Any] = []
    if hasattr(items, "__aiter__"):
        async for item in items:
            found.append(item)
            if limit is not None and len(found) == limit:
                break
    else:
        for item in items:
            found.append(item)
            if limit is not None and len(found) == limit:
                break
    return found


async def next_of(items: Any) -> Any:
    return await items.__anext__() if hasattr(items, "__anext__") else next(items)


async def close(target: Any) -> None:
    """Closes a client, or stops a stream."""
    for name in ("aclose", "close"):
        if hasattr(target, name):
            await done(getattr(target, name)())
            return
