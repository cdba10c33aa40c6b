"""The shapes of Parley's answers, as the OpenAPI document describes them.

TypedDicts rather than classes: an answer is the parsed JSON itself, so message content, state and
metadata stay exactly what the server sent (big integers as ``int``, keys in the server's order)
and the keys are the API's own camelCase names.
"""

from __future__ import annotations

from typing import Dict, List, Literal, Optional, TypedDict, Union

JSON = Union[None, bool, int, float, str, List["JSON"], Dict[str, "JSON"]]
"""Any JSON value, as :func:`json.loads` returns it."""

JSONObject = Dict[str, JSON]

Role = Literal["user", "assistant", "system", "tool", "developer"]
DialogueStatus = Literal["active", "ended", "canceled", "expired", "deleted"]


class MessageInput(TypedDict, total=False):
    """A message to store: ``role`` and ``content`` are required, the rest optional."""

    role: Role
    content: JSON
    id: str
    name: Optional[str]
    created: str
    metadata: Optional[JSONObject]
    tags: List[str]


class Message(TypedDict):
    id: str
    dialogueId: str
    namespace: Optional[str]
    role: Role
    content: JSON
    contentLength: int
    name: Optional[str]
    tags: List[str]
    metadata: Optional[JSONObject]
    created: str
    modified: str


class DialogueSummary(TypedDict):
    text: str
    model: str
    messageCount: int
    upToMessageId: Optional[str]
    created: str


class Dialogue(TypedDict):
    id: str
    projectId: str
    namespace: Optional[str]
    threadOf: Optional[str]
    label: Optional[str]
    status: DialogueStatus
    expired: bool
    tags: List[str]
    metadata: JSONObject
    state: JSONObject
    summary: Optional[DialogueSummary]
    totalMessages: int
    threadCount: int
    lastMessageCreated: Optional[str]
    created: str
    modified: str


class DialogueWithMessages(Dialogue):
    messages: List[Message]


class ContextMessage(TypedDict):
    role: str
    content: JSON


class DialogueContext(TypedDict):
    format: Literal["messages", "anthropic", "text"]
    messages: Optional[List[ContextMessage]]
    system: Optional[str]
    text: Optional[str]
    tokens: int
    omittedMessages: int
    fromMessageId: Optional[str]


class Deleted(TypedDict):
    success: bool
    id: str


class DeletedMessage(Deleted):
    dialogueId: str


class CreatedMessages(TypedDict):
    dialogueId: str
    items: List[Message]
    totalMessages: int


class Memory(TypedDict):
    id: str
    projectId: str
    namespace: Optional[str]
    label: Optional[str]
    description: Optional[str]
    value: JSON
    tags: List[str]
    metadata: Optional[JSONObject]
    created: str
    modified: str


class Summary(TypedDict):
    id: str
    projectId: str
    dialogueId: str
    namespace: Optional[str]
    status: Literal["processing", "completed", "failed"]
    content: Optional[str]
    contentTokenCount: Optional[int]
    error: Optional[str]
    model: str
    provider: str
    messageCount: int
    summarizedCount: int
    skippedCount: int
    fromCreated: Optional[str]
    toCreated: Optional[str]
    tags: List[str]
    metadata: JSONObject
    template: None
    created: str
    modified: str


class SearchResult(TypedDict):
    object: Literal["message", "dialogue", "memory"]
    relevance: float
    item: JSONObject


class SearchResults(TypedDict):
    mode: Literal["semantic", "hybrid", "lexical"]
    results: List[SearchResult]
    request: JSONObject


class Event(TypedDict):
    id: str
    seq: int
    type: str
    projectId: str
    namespace: Optional[str]
    dialogueId: Optional[str]
    objectId: str
    data: JSONObject
    created: str


class Webhook(TypedDict):
    id: str
    url: str
    types: List[str]
    namespace: Optional[str]
    description: Optional[str]
    enabled: bool
    disabledReason: Optional[str]
    created: str
    modified: str


class WebhookWithSecret(Webhook):
    secret: str


class WebhookDelivery(TypedDict):
    id: str
    eventId: str
    type: str
    seq: Optional[int]
    attempt: int
    status: Literal["succeeded", "failed", "pending"]
    responseStatus: Optional[int]
    durationMs: Optional[int]
    error: Optional[str]
    created: str


class WebhookReplay(TypedDict):
    queued: int
    next: int


class Project(TypedDict):
    id: str
    name: str
    settings: JSONObject
    created: str
    modified: str


class CreatedProject(TypedDict):
    project: Project
    apiKey: str
    keyId: str


class CreatedKey(TypedDict):
    id: str
    apiKey: str


class ApiKey(TypedDict):
    id: str
    prefix: str
    created: str
    lastUsed: Optional[str]
    revoked: Optional[str]


class RevokedKey(Deleted):
    projectId: str


class ErasureCounts(TypedDict):
    dialogues: int
    messages: int
    memories: int


class ProjectErasureRecord(TypedDict):
    id: str
    projectId: str
    status: Literal["pending", "completed"]
    counts: ErasureCounts
    rows: Dict[str, int]
    createdAt: str
    completedAt: Optional[str]


class ProjectErasure(TypedDict):
    success: bool
    id: str
    deleted: Dict[str, int]
    erasure: ProjectErasureRecord


class Usage(TypedDict):
    projectId: str
    month: str
    writes: int
    monthlyWriteQuota: Optional[int]
    remaining: Optional[int]
    resetsAt: str
