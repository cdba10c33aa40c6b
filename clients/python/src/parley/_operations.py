"""Every operation of the REST API, once: Python arguments in, the :class:`Request` out.

Both clients bind these to their resources (``_bind.py``), so the sync and async methods have the
same signatures by construction. Arguments are snake_case and mapped here to the API's camelCase;
what the caller passes as JSON (content, state, metadata, filters) is sent untouched.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Literal, Optional, Sequence, Union
from urllib.parse import quote

from ._request import NOT_GIVEN, Listing, NotGiven, Request, fields, with_nullable
from ._request import query as params_of
from ._types import (
    JSON,
    ApiKey,
    CreatedKey,
    CreatedMessages,
    CreatedProject,
    Deleted,
    DeletedMessage,
    Dialogue,
    DialogueContext,
    DialogueWithMessages,
    Event,
    JSONObject,
    Memory,
    Message,
    MessageInput,
    Project,
    ProjectErasure,
    ProjectErasureRecord,
    RevokedKey,
    Role,
    SearchResults,
    Summary,
    Usage,
    Webhook,
    WebhookDelivery,
    WebhookReplay,
    WebhookWithSecret,
)

API = "/api/v1"
ADMIN = "/admin/v1"

Order = Literal["asc", "desc"]
Tags = Union[str, List[str]]


def _id(value: str) -> str:
    """A path segment: ids are the caller's to choose (D57), so they are escaped."""
    return quote(value, safe="")


def _tags(tag: Optional[Tags]) -> Optional[Union[str, List[str]]]:
    return tag if tag is None or isinstance(tag, str) else list(tag)


# Dialogues


def create_dialogue(
    *,
    message: Optional[MessageInput] = None,
    messages: Optional[Sequence[MessageInput]] = None,
    namespace: Optional[str] = None,
    thread_of: Optional[str] = None,
    tags: Optional[Sequence[str]] = None,
    metadata: Optional[JSONObject] = None,
    state: Optional[JSONObject] = None,
    label: Optional[str] = None,
    id: Optional[str] = None,
    created: Optional[str] = None,
) -> Request[DialogueWithMessages]:
    body = fields(
        id=id,
        namespace=namespace,
        threadOf=thread_of,
        label=label,
        created=created,
        tags=None if tags is None else list(tags),
        metadata=metadata,
        state=state,
        messages=None if messages is None else list(messages),
        message=message,
    )
    return Request("POST", f"{API}/dialogue", body=body, idempotent=True)


def get_dialogue(
    id: str, *, namespace: Optional[str] = None, messages: Optional[Literal["last", "first"]] = None
) -> Request[DialogueWithMessages]:
    return Request("GET", f"{API}/dialogue/{_id(id)}", params_of(namespace=namespace, messages=messages))


def list_dialogues(
    *,
    namespace: Optional[str] = None,
    query: Optional[Literal["default", "threads"]] = None,
    thread_of: Optional[str] = None,
    status: Optional[str] = None,
    tag: Optional[Tags] = None,
    date: Optional[str] = None,
    created: Optional[str] = None,
    start_date: Optional[str] = None,
    end_date: Optional[str] = None,
    order: Optional[Order] = None,
    page_size: Optional[int] = None,
) -> Listing[Dialogue]:
    params = params_of(
        namespace=namespace,
        query=query,
        threadOf=thread_of,
        status=status,
        tag=_tags(tag),
        date=date,
        created=created,
        startDate=start_date,
        endDate=end_date,
        order=order,
        limit=page_size,
    )
    return Listing(Request("GET", f"{API}/dialogue", params))


def update_dialogue(
    id: str,
    *,
    namespace: Optional[str] = None,
    tags: Optional[Sequence[str]] = None,
    label: Union[str, None, NotGiven] = NOT_GIVEN,
    state: Optional[JSONObject] = None,
    message: Optional[MessageInput] = None,
    messages: Optional[Sequence[MessageInput]] = None,
) -> Request[DialogueWithMessages]:
    body = fields(
        tags=None if tags is None else list(tags),
        state=state,
        messages=None if messages is None else list(messages),
        message=message,
    )
    return Request(
        "PUT",
        f"{API}/dialogue/{_id(id)}",
        params_of(namespace=namespace),
        body=with_nullable(body, label=label),
        idempotent=True,
    )


def set_dialogue_state(id: str, state: JSONObject, *, namespace: Optional[str] = None) -> Request[Dialogue]:
    """Merges ``state`` into the dialogue's state (JSON Merge Patch; works on ended dialogues)."""
    return Request(
        "PUT", f"{API}/dialogue/{_id(id)}/state", params_of(namespace=namespace), body=state, idempotent=True
    )


def end_dialogue(id: str, *, namespace: Optional[str] = None) -> Request[Dialogue]:
    return Request("PUT", f"{API}/dialogue/{_id(id)}/end", params_of(namespace=namespace), idempotent=True)


def compact_dialogue(id: str, *, namespace: Optional[str] = None) -> Request[Dialogue]:
    return Request("PUT", f"{API}/dialogue/{_id(id)}/compact", params_of(namespace=namespace), idempotent=True)


def continue_dialogue(id: str, *, namespace: Optional[str] = None) -> Request[DialogueWithMessages]:
    return Request("PUT", f"{API}/dialogue/{_id(id)}/continue", params_of(namespace=namespace), idempotent=True)


def delete_dialogue(id: str, *, namespace: Optional[str] = None) -> Request[Deleted]:
    return Request("DELETE", f"{API}/dialogue/{_id(id)}", params_of(namespace=namespace), idempotent=True)


def dialogue_context(
    id: str,
    *,
    namespace: Optional[str] = None,
    format: Optional[Literal["messages", "anthropic", "text"]] = None,
    max_tokens: Optional[int] = None,
) -> Request[DialogueContext]:
    params = params_of(namespace=namespace, format=format, maxTokens=max_tokens)
    return Request("GET", f"{API}/dialogue/{_id(id)}/context", params)


# Messages


def create_message(
    *,
    dialogue_id: str,
    role: Role,
    content: JSON,
    namespace: Optional[str] = None,
    id: Optional[str] = None,
    name: Optional[str] = None,
    created: Optional[str] = None,
    metadata: Optional[JSONObject] = None,
    tags: Optional[Sequence[str]] = None,
) -> Request[Message]:
    body = fields(
        dialogueId=dialogue_id,
        namespace=namespace,
        id=id,
        role=role,
        name=name,
        created=created,
        metadata=metadata,
        tags=None if tags is None else list(tags),
    )
    # content is required and may itself be JSON null (refused by the server, not by us).
    return Request("POST", f"{API}/message", body={**body, "content": content}, idempotent=True)


def create_messages(
    *, dialogue_id: str, messages: Sequence[MessageInput], namespace: Optional[str] = None
) -> Request[CreatedMessages]:
    """1-100 messages, stored all or nothing."""
    body = fields(dialogueId=dialogue_id, namespace=namespace, messages=list(messages))
    return Request("POST", f"{API}/messages", body=body, idempotent=True)


def list_messages(
    *,
    dialogue_id: str,
    namespace: Optional[str] = None,
    order: Optional[Order] = None,
    created: Optional[str] = None,
    start_date: Optional[str] = None,
    end_date: Optional[str] = None,
    page_size: Optional[int] = None,
) -> Listing[Message]:
    params = params_of(
        dialogueId=dialogue_id,
        namespace=namespace,
        order=order,
        created=created,
        startDate=start_date,
        endDate=end_date,
        limit=page_size,
    )
    return Listing(Request("GET", f"{API}/messages", params))


def get_message(id: str, *, dialogue_id: str, namespace: Optional[str] = None) -> Request[Message]:
    return Request("GET", f"{API}/message/{_id(id)}", params_of(dialogueId=dialogue_id, namespace=namespace))


def update_message(
    id: str, *, dialogue_id: str, tags: Sequence[str], namespace: Optional[str] = None
) -> Request[Message]:
    """Replaces the message's tags (its content never changes)."""
    return Request(
        "PUT",
        f"{API}/message/{_id(id)}",
        params_of(dialogueId=dialogue_id, namespace=namespace),
        body={"tags": list(tags)},
        idempotent=True,
    )


def delete_message(id: str, *, dialogue_id: str, namespace: Optional[str] = None) -> Request[DeletedMessage]:
    return Request(
        "DELETE",
        f"{API}/message/{_id(id)}",
        params_of(dialogueId=dialogue_id, namespace=namespace),
        idempotent=True,
    )


# Memories


def create_memory(
    *,
    value: JSON,
    label: Optional[str] = None,
    description: Optional[str] = None,
    namespace: Optional[str] = None,
    tags: Optional[Sequence[str]] = None,
    metadata: Optional[JSONObject] = None,
    id: Optional[str] = None,
) -> Request[Memory]:
    body = fields(
        id=id,
        label=label,
        description=description,
        namespace=namespace,
        tags=None if tags is None else list(tags),
        metadata=metadata,
    )
    return Request("POST", f"{API}/memory", body={**body, "value": value}, idempotent=True)


def list_memories(
    *,
    namespace: Optional[str] = None,
    label: Optional[str] = None,
    tag: Optional[Tags] = None,
    order: Optional[Order] = None,
    created: Optional[str] = None,
    start_date: Optional[str] = None,
    end_date: Optional[str] = None,
    page_size: Optional[int] = None,
) -> Listing[Memory]:
    params = params_of(
        namespace=namespace,
        label=label,
        tag=_tags(tag),
        order=order,
        created=created,
        startDate=start_date,
        endDate=end_date,
        limit=page_size,
    )
    return Listing(Request("GET", f"{API}/memory", params))


def get_memory(id: str, *, namespace: Optional[str] = None) -> Request[Memory]:
    return Request("GET", f"{API}/memory/{_id(id)}", params_of(namespace=namespace))


def update_memory(
    id: str,
    *,
    namespace: Optional[str] = None,
    tags: Optional[Sequence[str]] = None,
    value: Union[JSON, NotGiven] = NOT_GIVEN,
    label: Union[str, None, NotGiven] = NOT_GIVEN,
    description: Union[str, None, NotGiven] = NOT_GIVEN,
) -> Request[Memory]:
    body = with_nullable(
        fields(tags=None if tags is None else list(tags)), value=value, label=label, description=description
    )
    return Request("PUT", f"{API}/memory/{_id(id)}", params_of(namespace=namespace), body=body, idempotent=True)


def delete_memory(id: str, *, namespace: Optional[str] = None) -> Request[Deleted]:
    return Request("DELETE", f"{API}/memory/{_id(id)}", params_of(namespace=namespace), idempotent=True)


# Summaries


def create_summary(
    *,
    dialogue_id: str,
    namespace: Optional[str] = None,
    start_id: Optional[str] = None,
    end_id: Optional[str] = None,
    tags: Optional[Sequence[str]] = None,
    metadata: Optional[JSONObject] = None,
    id: Optional[str] = None,
) -> Request[Summary]:
    body = fields(
        dialogueId=dialogue_id,
        namespace=namespace,
        startId=start_id,
        endId=end_id,
        tags=None if tags is None else list(tags),
        metadata=metadata,
        id=id,
    )
    return Request("POST", f"{API}/summary", body=body, idempotent=True)


def list_summaries(
    *,
    dialogue_id: str,
    namespace: Optional[str] = None,
    order: Optional[Order] = None,
    page_size: Optional[int] = None,
) -> Listing[Summary]:
    params = params_of(dialogueId=dialogue_id, namespace=namespace, order=order, limit=page_size)
    return Listing(Request("GET", f"{API}/summary", params))


def get_summary(id: str, *, namespace: Optional[str] = None) -> Request[Summary]:
    return Request("GET", f"{API}/summary/{_id(id)}", params_of(namespace=namespace))


# Search


def search(
    query: str,
    *,
    object: Optional[Literal["message", "dialogue", "memory"]] = None,
    namespace: Optional[str] = None,
    dialogue_id: Optional[str] = None,
    tag: Optional[str] = None,
    tags: Optional[JSON] = None,
    metadata: Optional[JSONObject] = None,
    filter: Optional[JSONObject] = None,
    timezone: Optional[str] = None,
    order_by: Optional[Literal["relevance", "created", "modified"]] = None,
    order: Optional[Order] = None,
    limit: Optional[int] = None,
    min_relevance: Optional[float] = None,
) -> Request[SearchResults]:
    body = fields(
        query=query,
        object=object,
        namespace=namespace,
        dialogueId=dialogue_id,
        tag=tag,
        tags=tags,
        metadata=metadata,
        filter=filter,
        timezone=timezone,
        orderBy=order_by,
        order=order,
        limit=limit,
        minRelevance=min_relevance,
    )
    return Request("POST", f"{API}/search", body=body)


# Events


def event_filter(
    *,
    type: Optional[Union[str, Sequence[str]]] = None,
    dialogue_id: Optional[str] = None,
    namespace: Optional[str] = None,
) -> Dict[str, Any]:
    """The query of the feed and of the live stream."""
    types = None if type is None else [type] if isinstance(type, str) else list(type)
    return params_of(type=types, dialogueId=dialogue_id, namespace=namespace)


def list_events(
    *,
    after: Optional[int] = None,
    type: Optional[Union[str, Sequence[str]]] = None,
    dialogue_id: Optional[str] = None,
    namespace: Optional[str] = None,
    page_size: Optional[int] = None,
) -> Listing[Event]:
    """The kept events after ``after`` (0: the oldest), up to the newest, oldest first."""
    params = {
        **event_filter(type=type, dialogue_id=dialogue_id, namespace=namespace),
        **params_of(after=after, limit=page_size),
    }
    return Listing(Request("GET", f"{API}/events", params), cursor="after")


@dataclass(frozen=True)
class EventStream:
    """The live feed: its filter, and the seq to resume after (None: from now on)."""

    params: Dict[str, Any]
    after: Optional[int]
    path: str = f"{API}/events/stream"


def stream_events(
    *,
    after: Optional[int] = None,
    type: Optional[Union[str, Sequence[str]]] = None,
    dialogue_id: Optional[str] = None,
    namespace: Optional[str] = None,
) -> EventStream:
    """Events as they are committed; ``after``: resume after this seq (an event's ``seq``)."""
    return EventStream(event_filter(type=type, dialogue_id=dialogue_id, namespace=namespace), after)


# Webhooks


def create_webhook(
    *,
    url: str,
    types: Optional[Sequence[str]] = None,
    namespace: Optional[str] = None,
    description: Optional[str] = None,
) -> Request[WebhookWithSecret]:
    body = fields(url=url, types=None if types is None else list(types), namespace=namespace, description=description)
    return Request("POST", f"{API}/webhooks", body=body, idempotent=True)


def list_webhooks() -> Listing[Webhook]:
    return Listing(Request("GET", f"{API}/webhooks"))


def get_webhook(id: str) -> Request[Webhook]:
    return Request("GET", f"{API}/webhooks/{_id(id)}")


def update_webhook(
    id: str,
    *,
    url: Optional[str] = None,
    types: Optional[Sequence[str]] = None,
    namespace: Union[str, None, NotGiven] = NOT_GIVEN,
    enabled: Optional[bool] = None,
) -> Request[Webhook]:
    body = with_nullable(
        fields(url=url, types=None if types is None else list(types), enabled=enabled), namespace=namespace
    )
    return Request("PATCH", f"{API}/webhooks/{_id(id)}", body=body, idempotent=True)


def delete_webhook(id: str) -> Request[Deleted]:
    return Request("DELETE", f"{API}/webhooks/{_id(id)}", idempotent=True)


def rotate_webhook_secret(id: str) -> Request[WebhookWithSecret]:
    """A new signing secret; the previous one keeps signing too for 24 hours."""
    return Request("POST", f"{API}/webhooks/{_id(id)}/rotate-secret", idempotent=True)


def test_webhook(id: str) -> Request[WebhookDelivery]:
    """Queues a ``webhook.test`` event to the endpoint; the answer is the pending attempt."""
    return Request("POST", f"{API}/webhooks/{_id(id)}/test", idempotent=True)


def list_webhook_deliveries(id: str, *, page_size: Optional[int] = None) -> Listing[WebhookDelivery]:
    """The endpoint's delivery log, one item per attempt, newest first."""
    return Listing(Request("GET", f"{API}/webhooks/{_id(id)}/deliveries", params_of(limit=page_size)))


def replay_webhook(id: str, *, after: int) -> Request[WebhookReplay]:
    """Queues again the kept events after ``after`` (at most 10,000; ``next`` continues)."""
    return Request("POST", f"{API}/webhooks/{_id(id)}/replay", body={"after": after}, idempotent=True)


# Administration (with the server's ADMIN_TOKEN)


def create_project(*, name: str, settings: Optional[JSONObject] = None) -> Request[CreatedProject]:
    body = fields(name=name, settings=settings)
    return Request("POST", f"{ADMIN}/projects", body=body, idempotent=True, admin=True)


def list_projects() -> Listing[Project]:
    return Listing(Request("GET", f"{ADMIN}/projects", admin=True))


def get_project(id: str) -> Request[Project]:
    return Request("GET", f"{ADMIN}/projects/{_id(id)}", admin=True)


def update_project(
    id: str, *, name: Optional[str] = None, settings: Optional[JSONObject] = None
) -> Request[Project]:
    body = fields(name=name, settings=settings)
    return Request("PATCH", f"{ADMIN}/projects/{_id(id)}", body=body, idempotent=True, admin=True)


def erase_project(id: str) -> Request[ProjectErasure]:
    """Erases the project and all its data; cannot be undone (the id is sent again to confirm)."""
    return Request("DELETE", f"{ADMIN}/projects/{_id(id)}", params_of(confirm=id), idempotent=True, admin=True)


def get_project_erasure(erasure_id: str) -> Request[ProjectErasureRecord]:
    """A project erasure's record, by the id ``erase_project`` answered; it outlives the project."""
    return Request("GET", f"{ADMIN}/erasures/{_id(erasure_id)}", admin=True)


def create_key(project_id: str) -> Request[CreatedKey]:
    return Request("POST", f"{ADMIN}/projects/{_id(project_id)}/keys", idempotent=True, admin=True)


def list_keys(project_id: str) -> Listing[ApiKey]:
    return Listing(Request("GET", f"{ADMIN}/projects/{_id(project_id)}/keys", admin=True))


def revoke_key(project_id: str, key_id: str) -> Request[Deleted]:
    path = f"{ADMIN}/projects/{_id(project_id)}/keys/{_id(key_id)}"
    return Request("DELETE", path, idempotent=True, admin=True)


def revoke_key_by_value(api_key: str) -> Request[RevokedKey]:
    """Revokes a key given the key itself (a leaked one, whichever project it belongs to)."""
    return Request("POST", f"{ADMIN}/keys/revoke", body={"apiKey": api_key}, idempotent=True, admin=True)


def project_usage(project_id: str) -> Request[Usage]:
    return Request("GET", f"{ADMIN}/projects/{_id(project_id)}/usage", admin=True)

