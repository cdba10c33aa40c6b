"""The resources of both clients, declared once.

Each method is an operation of ``_operations.py`` bound by a descriptor to the client's transport.
The same code serves both clients (the sync transport returns values, the async one coroutines
and async iterators); the descriptors' overloads give each client its own types: ``Parley`` is a
``Client[Sync]`` whose ``dialogues.get(...)`` returns a ``DialogueWithMessages``, ``AsyncParley``
a ``Client[Async]`` whose ``dialogues.get(...)`` must be awaited.
"""

from __future__ import annotations

import functools
import inspect
from typing import (
    Any,
    AsyncIterator,
    Callable,
    Coroutine,
    Generic,
    Iterator,
    ParamSpec,
    Protocol,
    TypeVar,
    overload,
)

from . import _operations as ops
from ._request import Listing, Request
from ._types import Event

P = ParamSpec("P")
T = TypeVar("T")


class Sync:
    """Marks the blocking client's resources."""


class Async:
    """Marks the asyncio client's resources."""


Mode = TypeVar("Mode", Sync, Async)


class Transport(Protocol):
    def call(self, request: Request[Any]) -> Any: ...

    def walk(self, listing: Listing[Any]) -> Any: ...

    def stream(self, spec: ops.EventStream) -> Any: ...


class Resource(Generic[Mode]):
    def __init__(self, transport: Transport) -> None:
        self._transport = transport


def _bound(build: Callable[..., Any], run: Callable[[Any], Any]) -> Callable[..., Any]:
    """``run(build(...))``, named and documented as the operation (for ``help``)."""

    def method(*args: Any, **kwargs: Any) -> Any:
        return run(build(*args, **kwargs))

    functools.update_wrapper(method, build)
    del method.__wrapped__  # type: ignore[attr-defined]
    method.__signature__ = inspect.signature(build).replace(  # type: ignore[attr-defined]
        return_annotation=inspect.Signature.empty
    )
    return method


class Call(Generic[P, T]):
    """A method that makes one call and returns its result."""

    def __init__(self, build: Callable[P, Request[T]]) -> None:
        self._build = build

    @overload
    def __get__(self, resource: Resource[Sync], owner: Any) -> Callable[P, T]: ...

    @overload
    def __get__(self, resource: Resource[Async], owner: Any) -> Callable[P, Coroutine[Any, Any, T]]: ...

    def __get__(self, resource: Resource[Any], owner: Any) -> Callable[..., Any]:
        return _bound(self._build, resource._transport.call)


class Walk(Generic[P, T]):
    """A method that lists, page after page: an iterator (an async iterator on AsyncParley)."""

    def __init__(self, build: Callable[P, Listing[T]]) -> None:
        self._build = build

    @overload
    def __get__(self, resource: Resource[Sync], owner: Any) -> Callable[P, Iterator[T]]: ...

    @overload
    def __get__(self, resource: Resource[Async], owner: Any) -> Callable[P, AsyncIterator[T]]: ...

    def __get__(self, resource: Resource[Any], owner: Any) -> Callable[..., Any]:
        return _bound(self._build, resource._transport.walk)


class Stream(Generic[P]):
    """The live event stream: an iterator (an async iterator on AsyncParley) that never ends."""

    def __init__(self, build: Callable[P, ops.EventStream]) -> None:
        self._build = build

    @overload
    def __get__(self, resource: Resource[Sync], owner: Any) -> Callable[P, Iterator[Event]]: ...

    @overload
    def __get__(self, resource: Resource[Async], owner: Any) -> Callable[P, AsyncIterator[Event]]: ...

    def __get__(self, resource: Resource[Any], owner: Any) -> Callable[..., Any]:
        return _bound(self._build, resource._transport.stream)


class Dialogues(Resource[Mode]):
    create = Call(ops.create_dialogue)
    get = Call(ops.get_dialogue)
    list = Walk(ops.list_dialogues)
    update = Call(ops.update_dialogue)
    set_state = Call(ops.set_dialogue_state)
    end = Call(ops.end_dialogue)
    compact = Call(ops.compact_dialogue)
    continue_ = Call(ops.continue_dialogue)
    delete = Call(ops.delete_dialogue)
    context = Call(ops.dialogue_context)


class Messages(Resource[Mode]):
    create = Call(ops.create_message)
    create_many = Call(ops.create_messages)
    list = Walk(ops.list_messages)
    get = Call(ops.get_message)
    update = Call(ops.update_message)
    delete = Call(ops.delete_message)


class Memories(Resource[Mode]):
    create = Call(ops.create_memory)
    list = Walk(ops.list_memories)
    get = Call(ops.get_memory)
    update = Call(ops.update_memory)
    delete = Call(ops.delete_memory)


class Summaries(Resource[Mode]):
    create = Call(ops.create_summary)
    list = Walk(ops.list_summaries)
    get = Call(ops.get_summary)


class Events(Resource[Mode]):
    list = Walk(ops.list_events)
    stream = Stream(ops.stream_events)


class Webhooks(Resource[Mode]):
    create = Call(ops.create_webhook)
    list = Walk(ops.list_webhooks)
    get = Call(ops.get_webhook)
    update = Call(ops.update_webhook)
    delete = Call(ops.delete_webhook)
    rotate_secret = Call(ops.rotate_webhook_secret)
    test = Call(ops.test_webhook)
    deliveries = Walk(ops.list_webhook_deliveries)
    replay = Call(ops.replay_webhook)


class Admin(Resource[Mode]):
    """Projects and keys, with the server's ADMIN_TOKEN (``admin_token``)."""

    create_project = Call(ops.create_project)
    list_projects = Walk(ops.list_projects)
    get_project = Call(ops.get_project)
    update_project = Call(ops.update_project)
    erase_project = Call(ops.erase_project)
    get_project_erasure = Call(ops.get_project_erasure)
    create_key = Call(ops.create_key)
    list_keys = Walk(ops.list_keys)
    revoke_key = Call(ops.revoke_key)
    revoke_key_by_value = Call(ops.revoke_key_by_value)
    usage = Call(ops.project_usage)


class Client(Resource[Mode]):
    """What both clients hold: the resources, and search."""

    search = Call(ops.search)

    def __init__(self, transport: Transport) -> None:
        super().__init__(transport)
        self.dialogues: Dialogues[Mode] = Dialogues(transport)
        self.messages: Messages[Mode] = Messages(transport)
        self.memories: Memories[Mode] = Memories(transport)
        self.summaries: Summaries[Mode] = Summaries(transport)
        self.events: Events[Mode] = Events(transport)
        self.webhooks: Webhooks[Mode] = Webhooks(transport)
        self.admin: Admin[Mode] = Admin(transport)


