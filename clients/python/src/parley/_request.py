"""A call described as data: what both clients send, so that each operation is written once."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Dict, Generic, List, Literal, Mapping, Optional, TypeVar, Union

T = TypeVar("T")

QueryValue = Union[str, int, bool, List[str]]


class NotGiven(enum.Enum):
    """The default of an argument whose ``None`` means something (it clears the field)."""

    NOT_GIVEN = "NOT_GIVEN"

    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN = NotGiven.NOT_GIVEN


@dataclass(frozen=True)
class Request(Generic[T]):
    """One HTTP call whose successful answer parses to ``T``.

    ``idempotent`` writes carry an ``Idempotency-Key`` made once per call and sent again on every
    retry, so that a retried write whose answer was lost is answered from the first one.
    """

    method: str
    path: str
    params: Mapping[str, QueryValue] = field(default_factory=dict)
    body: Any = None  # JSON; None: no body
    idempotent: bool = False
    admin: bool = False


@dataclass(frozen=True)
class Listing(Generic[T]):
    """A cursor-paged list: pages of ``{"items": [...], "next": cursor}`` walked to the end.

    ``cursor="next"``: an opaque string, ``None`` on the last page. ``cursor="after"``: the event
    feed's sequence number, the same as the one sent once nothing newer exists.
    """

    first: Request[Dict[str, Any]]
    cursor: Literal["next", "after"] = "next"


def query(**values: Optional[QueryValue]) -> Dict[str, QueryValue]:
    """Query parameters by their API names, leaving out those not given."""
    return {name: value for name, value in values.items() if value is not None}


def fields(**values: Any) -> Dict[str, Any]:
    """A JSON body by its API names, leaving out the arguments not given (``None``)."""
    return {name: value for name, value in values.items() if value is not None}


def with_nullable(body: Dict[str, Any], **values: Any) -> Dict[str, Any]:
    """Adds the arguments whose ``None`` is meant (sent as ``null``: it clears the field)."""
    return {**body, **{name: value for name, value in values.items() if value is not NOT_GIVEN}}

